// SPDX-License-Identifier: MIT
#include "app/gui/verdict_html.h"
#include "app/gui/widget_helpers.h"
#include "app/report/verdict_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace iolab::gui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("VerdictHtml", text);
}

// Escaped for HTML; names the verdict quotes in backticks (`stdio-unlocked`) are set in a monospace font
// rather than shown with their backticks, and no unit is wrapped away from its number.
QString escaped(const std::string& text)
{
    static const QRegularExpression quoted(QStringLiteral("`([^`]+)`"));
    return report::keepUnitsWithNumbers(
        qs(text).toHtmlEscaped().replace(quoted, QStringLiteral("<code>\\1</code>")));
}

// The likely causes, ranked, each with its evidence and what to change; under the health verdict they are the
// causes of what it found, elsewhere of the slow figure.
QString causesHtml(const Verdict& v)
{
    if (v.causes.empty())
        return {};
    const QString heading = !v.belowTypical ? tr("What shapes the figures here")
                            : v.health      ? tr("Likely causes, most likely first")
                                            : tr("Likely causes of the slow figure, most likely first");
    QString html =
        QStringLiteral("<p style=\"margin:6px 0 0 0\"><b>%1</b></p><ol style=\"margin:4px 0 0 0\">")
            .arg(heading);
    for (const auto& c : v.causes)
        html += QStringLiteral("<li>%1.<br><span style=\"color:gray\">%2: %3</span><br><i>%4: %5</i></li>")
                    .arg(escaped(c.what), tr("Evidence"), escaped(c.evidence), tr("What to change"),
                         escaped(c.change));
    return html + QStringLiteral("</ol>");
}

} // namespace

QString healthHtml(const Verdict& v)
{
    const HealthVerdict& h = *v.health;
    QString html = QStringLiteral("<p style=\"margin:0\"><b>%1</b></p>")
                       .arg(tr("Is this storage as fast as its kind of device should be?"));
    html += QStringLiteral("<p style=\"margin:4px 0 0 0; font-size:large\">%1</p>").arg(escaped(h.overall));
    html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\" style=\"margin:4px 0 0 0\">");
    for (const auto& line : h.lines) {
        // The word in a colour that carries it: green in range, orange below, red far below.
        const char* colour = line.word == HealthWord::FarBelow                                    ? "#c0392b"
                             : line.word == HealthWord::Below                                     ? "#d35400"
                             : line.word == HealthWord::InRange || line.word == HealthWord::Above ? "#27ae60"
                                                                                                  : "gray";
        html += QStringLiteral("<tr><td>%1</td><td align=\"right\">&nbsp;&nbsp;<b>%2</b></td>"
                               "<td>&nbsp;&nbsp;<span style=\"color:%3\">%4</span>%5</td></tr>")
                    .arg(escaped(line.what), escaped(line.figure), QLatin1String(colour),
                         escaped(toString(line.word)),
                         line.typical.empty() ? QString()
                                              : QStringLiteral(" <span style=\"color:gray\">(%1 %2)</span>")
                                                    .arg(tr("typical"), escaped(line.typical)));
    }
    html += QStringLiteral("</table>");
    html += causesHtml(v);
    if (!h.checks.empty()) {
        html += QStringLiteral("<p style=\"margin:6px 0 0 0\"><b>%1</b></p><ul style=\"margin:4px 0 0 0\">")
                    .arg(tr("Also checked"));
        for (const auto& c : h.checks)
            html += QStringLiteral("<li>%1</li>").arg(escaped(c));
        html += QStringLiteral("</ul>");
    }
    if (!h.rangesSource.empty())
        html += QStringLiteral("<p style=\"margin:4px 0 0 0; color:gray\">%1</p>")
                    .arg(escaped("Typical ranges from " + h.rangesSource + "."));
    html += QStringLiteral("<p style=\"margin:8px 0 0 0\"><b>%1</b></p>")
                .arg(tr("Ways of doing the I/O, compared"));
    return html;
}

namespace {

// The answer to how a recorded program should write: its sentences, indented as the advice indents them, and
// its code as code.
QString programHtml(const Verdict& v)
{
    QString html = QStringLiteral("<p style=\"margin:6px 0 0 0; font-size:large\"><b>%1</b></p>")
                       .arg(tr("Your program"));
    QStringList code;
    const auto flushCode = [&] {
        if (code.isEmpty())
            return;
        html +=
            QStringLiteral("<pre style=\"margin:2px 0 2px 36px\">%1</pre>").arg(code.join(QLatin1Char('\n')));
        code.clear();
    };
    for (std::size_t i = 0; i < v.program.size(); ++i) {
        const std::string& line = v.program[i];
        const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
        if (indent >= 6) {
            code << qs(line.substr(6)).toHtmlEscaped();
            continue;
        }
        flushCode();
        const QString text = escaped(line.substr(indent));
        html += QStringLiteral("<p style=\"margin:%1px 0 0 %2px;%3\">%4</p>")
                    .arg(indent == 0 ? 4 : 1)
                    .arg(indent * 9)
                    .arg(i == 1 ? QStringLiteral(" font-size:large") : QString())
                    .arg(i == 1 || line.ends_with(':') ? QStringLiteral("<b>%1</b>").arg(text) : text);
    }
    flushCode();
    return html;
}

} // namespace

QString verdictHtml(const Verdict& v)
{
    QString html;
    if (!v.program.empty()) {
        html += QStringLiteral("<p style=\"margin:0\"><b>%1</b></p>").arg(escaped(v.question));
        html += programHtml(v);
        if (!v.highlights.empty() || !v.limits.empty())
            html += QStringLiteral("<hr>");
        Verdict rest = v;
        rest.question.clear();
        rest.program.clear();
        return html + verdictHtml(rest);
    }
    if (v.health)
        html += healthHtml(v);
    if (!v.question.empty() && !v.health)
        html += QStringLiteral("<p style=\"margin:0\"><b>%1</b></p>").arg(escaped(v.question));
    if (!v.overridden.empty())
        html += QStringLiteral("<p style=\"margin:0\">%1</p>").arg(escaped(v.overridden));
    for (const auto& answer : v.answers)
        html += QStringLiteral("<p style=\"margin:4px 0 0 0; font-size:%1\">%2</p>")
                    .arg(v.health ? QStringLiteral("medium") : QStringLiteral("large"), escaped(answer));
    if (!v.machine.empty() && !v.health)
        html += QStringLiteral("<p style=\"margin:6px 0 0 0\">%1</p>").arg(escaped(v.machine));
    if (!v.health)
        html += causesHtml(v);
    if (!v.highlights.empty()) {
        html += QStringLiteral("<p style=\"margin:6px 0 0 0\"><b>%1</b></p>").arg(tr("What matters most"));
        html += QStringLiteral("<ul style=\"margin:4px 0 0 0\">");
        for (const auto& h : v.highlights) {
            html += QStringLiteral("<li>%1").arg(escaped(h.what));
            if (!h.advice.empty())
                html += QStringLiteral("<br><i>%1</i>").arg(escaped(h.advice));
            html += QStringLiteral("</li>");
        }
        html += QStringLiteral("</ul>");
    }
    if (!v.limits.empty()) {
        html += QStringLiteral("<p style=\"margin:4px 0 0 0\"><b>%1</b> ")
                    .arg(tr("What these figures cannot say:"));
        QStringList limits;
        for (const auto& limit : v.limits)
            limits << escaped(limit);
        html += limits.join(QLatin1Char(' ')) + QStringLiteral("</p>");
    }
    if (!v.unchecked.empty()) {
        QStringList items;
        for (const auto& u : v.unchecked)
            items << escaped(u);
        html += QStringLiteral("<p style=\"margin:4px 0 0 0\"><b>%1</b> %2</p>")
                    .arg(tr("What IOLab could not check:"), items.join(QLatin1Char(' ')));
    }
    if (!v.terms.empty()) {
        QStringList terms;
        for (const auto& term : v.terms)
            terms << escaped(term);
        html += QStringLiteral("<p style=\"margin:4px 0 0 0; color:gray\">%1</p>")
                    .arg(terms.join(QStringLiteral("<br>")));
    }
    return html;
}

} // namespace iolab::gui
