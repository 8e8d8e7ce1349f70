// SPDX-License-Identifier: MIT
#include "app/gui/program_view.h"

#include "app/gui/text_helpers.h"
#include "app/gui/widget_helpers.h"
#include "app/report/latency_chart_data.h"
#include "app/report/pdf_report.h"
#include "core/analysis/program_advice.h"
#include "core/base/units.h"
#include "platform/platform.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace iolab::gui {

namespace {

QChart* newChart()
{
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    return chart;
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

// The profile's sentences as a page: the verdict first and larger, a list under each "...:" line.
QString profileHtml(const std::vector<std::string>& lines)
{
    QString html;
    bool inList = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const QString line = qs(lines[i]);
        const bool item = line.startsWith(QLatin1Char(' '));
        if (item && !inList) {
            html += QStringLiteral("<ul>");
            inList = true;
        } else if (!item && inList) {
            html += QStringLiteral("</ul>");
            inList = false;
        }
        const QString text = line.trimmed().toHtmlEscaped();
        if (text.isEmpty())
            continue;
        if (i == 0)
            html += QStringLiteral("<p style='font-size:large'><b>%1</b></p>").arg(text);
        else if (item)
            html += QStringLiteral("<li>%1</li>").arg(text);
        else if (text.endsWith(QLatin1Char(':')))
            html += QStringLiteral("<p><b>%1</b></p>").arg(text);
        else
            html += QStringLiteral("<p>%1</p>").arg(text);
    }
    if (inList)
        html += QStringLiteral("</ul>");
    return html;
}

// The program and its arguments as the trace's first process was started.
QString commandLine(const ProgramProfile& profile)
{
    if (profile.processes.empty())
        return QObject::tr("(no process in the trace)");
    const TraceProcess& first = profile.processes.front();
    QString text = QFileInfo(qs(first.executable)).fileName();
    // The first argument is the program's own name; one with a space is quoted, as a shell would take it.
    for (std::size_t i = 1; i < first.arguments.size(); ++i) {
        const QString argument = qs(first.arguments[i]);
        const bool plain = !argument.isEmpty() && !argument.contains(QLatin1Char(' ')) &&
                           !argument.contains(QLatin1Char('\''));
        text += QLatin1Char(' ') +
                (plain ? argument
                       : QLatin1Char('\'') +
                             QString(argument).replace(QStringLiteral("'"), QStringLiteral("'\\''")) +
                             QLatin1Char('\''));
    }
    return text;
}

// A unit for the timeline's bytes per bin: the largest bin reads as a number of at most four digits.
std::pair<double, QString> byteUnit(std::uint64_t largest)
{
    if (largest >= 2 * kMiB)
        return {static_cast<double>(kMiB), QObject::tr("MiB")};
    if (largest >= 2 * kKiB)
        return {static_cast<double>(kKiB), QObject::tr("KiB")};
    return {1.0, QObject::tr("bytes")};
}

} // namespace

ProgramView::ProgramView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    m_message = new QLabel(
        tr("No program is open. File > Open a trace... shows what a recorded program did with files (a trace "
           "iolab-cli record or import wrote); File > Record a program... records one."),
        m_stack);
    m_message->setObjectName(QStringLiteral("programMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(24);
    m_stack->addWidget(m_message);

    auto* page = new QWidget(m_stack);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(6, 6, 6, 6);
    m_title = new QLabel(page);
    m_title->setObjectName(QStringLiteral("programTitle"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pageLayout->addWidget(m_title);
    auto* replayRow = new QHBoxLayout;
    m_advise = new QPushButton(tr("Find a faster way"), page);
    m_advise->setObjectName(QStringLiteral("adviseButton"));
    m_advise->setToolTip(
        tr("Replay the program's calls as it made them and in every other way that keeps its durability (a "
           "larger stdio buffer, fewer and larger writes, fdatasync, preallocation, one syncfs for a batch "
           "of "
           "files, a group commit...), %1 times each on the target selected, and answer which is faster "
           "here, "
           "with the change to make")
            .arg(kAdviceRepetitions));
    replayRow->addWidget(m_advise);
    m_replay = new QPushButton(tr("Replay on this target"), page);
    m_replay->setObjectName(QStringLiteral("replayButton"));
    m_replay->setToolTip(
        tr("Re-issue the program's calls (its sizes, offsets, flags, syncs, renames and deletes, thread by "
           "thread) in a run folder on the target selected, timed like any case"));
    replayRow->addWidget(m_replay);
    m_replayNote = new QLabel(page);
    m_replayNote->setObjectName(QStringLiteral("replayNote"));
    m_replayNote->setWordWrap(true);
    replayRow->addWidget(m_replayNote, 1);
    m_savePdf = new QPushButton(tr("Save as PDF..."), page);
    m_savePdf->setObjectName(QStringLiteral("savePdfButton"));
    m_savePdf->setToolTip(tr("The profile as a PDF report: the program, where its time went, its files and "
                             "their lives, its call sizes, what the recorder could not see"));
    replayRow->addWidget(m_savePdf);
    pageLayout->addLayout(replayRow);

    auto* splitter = new QSplitter(Qt::Horizontal, page);
    m_text = new QTextBrowser(splitter);
    m_text->setObjectName(QStringLiteral("programProfile"));
    m_text->setOpenLinks(false);
    splitter->addWidget(m_text);
    auto* charts = new QSplitter(Qt::Vertical, splitter);
    m_sizeChart = newChart();
    m_sizeView = new QChartView(m_sizeChart, charts);
    m_sizeView->setRenderHint(QPainter::Antialiasing);
    m_sizeView->setMinimumHeight(180);
    charts->addWidget(m_sizeView);
    m_timelineChart = newChart();
    m_timelineView = new QChartView(m_timelineChart, charts);
    m_timelineView->setRenderHint(QPainter::Antialiasing);
    m_timelineView->setMinimumHeight(180);
    charts->addWidget(m_timelineView);
    splitter->addWidget(charts);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({420, 560});
    pageLayout->addWidget(splitter, 1);
    m_stack->addWidget(page);
    layout->addWidget(m_stack);

    connect(m_replay, &QPushButton::clicked, this, [this] { Q_EMIT replayRequested(m_data.tracePath); });
    connect(m_advise, &QPushButton::clicked, this, [this] { Q_EMIT adviceRequested(m_data.tracePath); });
    connect(m_savePdf, &QPushButton::clicked, this, [this] {
        const QFileInfo trace(m_data.tracePath);
        const QString suggested = trace.dir().filePath(trace.completeBaseName() + QStringLiteral(".pdf"));
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save the profile as PDF"), suggested, tr("PDF (*.pdf)"));
        if (path.isEmpty())
            return;
        if (const QString error = savePdf(path); !error.isEmpty())
            QMessageBox::warning(this, tr("Save as PDF"), tr("The PDF was not written: %1").arg(error));
    });
    setDark(false);
}

void ProgramView::showReading(const QString& tracePath)
{
    m_data = {};
    m_message->setText(tr("Reading %1...").arg(QFileInfo(tracePath).fileName()));
    m_stack->setCurrentIndex(0);
    updateReplay();
}

void ProgramView::showProgram(const ProgramData& program)
{
    m_data = program;
    if (!program.error.isEmpty()) {
        m_message->setText(
            tr("%1 cannot be shown: %2").arg(QFileInfo(program.tracePath).fileName(), program.error));
        m_stack->setCurrentIndex(0);
        updateReplay();
        return;
    }
    const ProgramProfile& profile = program.profile;
    const double wallSeconds = static_cast<double>(profile.wallNs) / 1e9;
    const auto count = [](std::uint64_t n, const QString& one, const QString& many) {
        return QStringLiteral("%L1 %2").arg(n).arg(n == 1 ? one : many);
    };
    m_title->setText(
        tr("<b>%1</b><br>%2: %3 in %4, %5, over %6.")
            .arg(commandLine(profile).toHtmlEscaped(),
                 QDir::toNativeSeparators(program.tracePath).toHtmlEscaped(),
                 count(profile.calls, tr("call"), tr("calls")),
                 count(program.records, tr("record"), tr("records")),
                 count(profile.processes.size(), tr("process"), tr("processes")),
                 qs(wallSeconds < 1 ? formatLatency(wallSeconds) : formatDuration(wallSeconds))));
    m_text->setHtml(profileHtml(program.lines));
    rebuildCharts();
    updateReplay();
    m_stack->setCurrentIndex(1);
}

void ProgramView::setTarget(const QString& path, const QString& problem)
{
    m_targetPath = path;
    m_targetProblem = problem;
    updateReplay();
}

QString ProgramView::savePdf(const QString& path)
{
    if (!hasProgram())
        return tr("no program is shown");
    const std::string file = path.toStdString();
    if (const std::string problem = outputPathProblem(file); !problem.empty())
        return qs(problem);
    const QByteArray bytes = report::renderProfilePdf(
        m_data.profile, QDir::toNativeSeparators(m_data.tracePath), report::ReportOptions{});
    const Outcome outcome = writeFileAtomically(
        file, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    if (!outcome.ok())
        return qs(outcome.message);
    Q_EMIT pdfSaved(path);
    return {};
}

void ProgramView::setBusy(bool busy)
{
    m_busy = busy;
    updateReplay();
}

void ProgramView::updateReplay()
{
    const bool ready = hasProgram() && !m_busy && !m_targetPath.isEmpty() && m_targetProblem.isEmpty();
    m_replay->setEnabled(ready);
    m_advise->setEnabled(ready);
    if (m_busy)
        m_replayNote->setText(tr("A run is under way: replay once it is over."));
    else if (m_targetPath.isEmpty())
        m_replayNote->setText(tr("Select a target folder in the lab to replay on."));
    else if (!m_targetProblem.isEmpty())
        m_replayNote->setText(tr("%1 cannot be a target: %2").arg(m_targetPath, m_targetProblem));
    else
        m_replayNote->setText(
            tr("On %1: the program's calls re-issued in a run folder there (and, to find a faster way, made "
               "each other way that keeps their durability), timed beside the program's own; the run's "
               "Results, Summary and History as for any run.")
                .arg(m_targetPath));
}

QString ProgramView::profileText() const
{
    return m_text->toPlainText();
}

QString ProgramView::titleText() const
{
    return m_title->text();
}

void ProgramView::setDark(bool dark)
{
    m_dark = dark;
    for (QChart* chart : {m_sizeChart, m_timelineChart}) {
        chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        chart->setBackgroundRoundness(0);
    }
    rebuildCharts();
}

void ProgramView::rebuildCharts()
{
    if (!hasProgram())
        return;
    buildSizeChart();
    buildTimelineChart();
}

void ProgramView::buildSizeChart()
{
    clearChart(m_sizeChart);
    const SizeHistogram& writes = m_data.profile.writeSizes;
    const SizeHistogram& reads = m_data.profile.readSizes;
    std::size_t first = SizeHistogram::kBuckets;
    std::size_t last = 0;
    for (std::size_t i = 0; i < SizeHistogram::kBuckets; ++i) {
        if (writes.calls[i] + reads.calls[i] == 0)
            continue;
        first = std::min(first, i);
        last = std::max(last, i);
    }
    if (first == SizeHistogram::kBuckets) {
        m_sizeChart->setTitle(tr("Calls by size: the program wrote and read nothing in files"));
        return;
    }
    m_sizeChart->setTitle(tr("Calls by size"));
    m_sizeView->setToolTip(
        tr("Each bar counts the calls of sizes from its label up to twice it (4K: 4 KiB to "
           "8 KiB less a byte); a run of identical calls counts call by call."));
    auto* writeSet = new QBarSet(tr("writes (%L1 calls)").arg(writes.total()));
    auto* readSet = new QBarSet(tr("reads (%L1 calls)").arg(reads.total()));
    writeSet->setColor(report::chartColour(0));
    readSet->setColor(report::chartColour(1));
    QStringList categories;
    std::uint64_t most = 0;
    for (std::size_t i = first; i <= last; ++i) {
        categories << (i == 0 ? tr("0") : qs(formatBytesCompact(SizeHistogram::lowerBound(i))));
        *writeSet << static_cast<double>(writes.calls[i]);
        *readSet << static_cast<double>(reads.calls[i]);
        most = std::max({most, writes.calls[i], reads.calls[i]});
    }
    auto* series = new QBarSeries;
    series->append(writeSet);
    series->append(readSet);
    m_sizeChart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    x->setTitleText(tr("bytes per call (K = KiB)"));
    // A label Qt cannot fit into its bar's width shows as "...": a smaller font keeps 4K and 512 whole.
    QFont labels = x->labelsFont();
    labels.setPointSizeF(labels.pointSizeF() * (categories.size() > 10 ? 0.75 : 0.9));
    x->setLabelsFont(labels);
    auto* y = new QValueAxis;
    y->setRange(0, std::max<double>(1, static_cast<double>(most) * 1.1));
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(tr("calls"));
    m_sizeChart->addAxis(x, Qt::AlignBottom);
    m_sizeChart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    m_sizeChart->legend()->setAlignment(Qt::AlignBottom);
}

void ProgramView::buildTimelineChart()
{
    clearChart(m_timelineChart);
    const WriteTimeline& timeline = m_data.timeline;
    if (timeline.files.empty()) {
        m_timelineChart->setTitle(
            tr("Writes and syncs over time: the program wrote to no file and synced none"));
        return;
    }
    std::uint64_t largest = 0;
    for (const FileTimeline& file : timeline.files)
        largest = std::max(largest, *std::max_element(file.bytes.begin(), file.bytes.end()));
    const auto [unit, unitName] = byteUnit(largest);
    m_timelineChart->setTitle(tr("Bytes written per %1 to each file; dots: its syncs (%L2 in all)")
                                  .arg(qs(formatLatency(timeline.binSeconds)))
                                  .arg(timeline.syncs));
    // Time in the unit that gives the span a number of at least 1: a short program's run is microseconds.
    const auto [timeUnit, timeName] = timeline.spanSeconds >= 1      ? std::pair{1.0, tr("seconds")}
                                      : timeline.spanSeconds >= 1e-3 ? std::pair{1e-3, tr("milliseconds")}
                                                                     : std::pair{1e-6, tr("microseconds")};
    auto* x = new QValueAxis;
    x->setRange(0, timeline.spanSeconds / timeUnit);
    x->applyNiceNumbers();
    x->setTitleText(tr("%1 since the program started").arg(timeName));
    x->setLabelFormat(QStringLiteral("%g"));
    auto* y = new QValueAxis;
    y->setRange(0, std::max(1.0, static_cast<double>(largest) / unit * 1.1));
    y->applyNiceNumbers();
    y->setTitleText(tr("%1 per bin").arg(unitName));
    y->setLabelFormat(unit == 1.0 ? QStringLiteral("%.0f") : QStringLiteral("%.1f"));
    m_timelineChart->addAxis(x, Qt::AlignBottom);
    m_timelineChart->addAxis(y, Qt::AlignLeft);
    for (std::size_t f = 0; f < timeline.files.size(); ++f) {
        const FileTimeline& file = timeline.files[f];
        const QColor colour = report::chartColour(f);
        auto* line = new QLineSeries;
        const QString name =
            file.path == "other files" ? tr("other files") : QFileInfo(qs(file.path)).fileName();
        // The legend has room for the name alone: the bytes and syncs are in the profile beside it.
        line->setName(name.isEmpty() ? qs(file.path) : name);
        // Each bin drawn as a step: a lone bin shows as a plateau.
        for (std::size_t bin = 0; bin < file.bytes.size(); ++bin) {
            const double value = static_cast<double>(file.bytes[bin]) / unit;
            line->append(static_cast<double>(bin) * timeline.binSeconds / timeUnit, value);
            line->append(static_cast<double>(bin + 1) * timeline.binSeconds / timeUnit, value);
        }
        line->setPen(QPen(colour, 2));
        m_timelineChart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        if (file.syncSeconds.empty())
            continue;
        auto* syncs = new QScatterSeries;
        syncs->setName(tr("syncs of %1").arg(name));
        syncs->setMarkerSize(9);
        syncs->setColor(colour);
        syncs->setBorderColor(m_dark ? Qt::white : Qt::black);
        for (const double at : file.syncSeconds) {
            const auto bin = std::min<std::size_t>(static_cast<std::size_t>(at / timeline.binSeconds),
                                                   file.bytes.size() - 1);
            syncs->append(at / timeUnit, static_cast<double>(file.bytes[bin]) / unit);
        }
        m_timelineChart->addSeries(syncs);
        syncs->attachAxis(x);
        syncs->attachAxis(y);
        for (QLegendMarker* marker : m_timelineChart->legend()->markers(syncs))
            marker->setVisible(false);
    }
    m_timelineChart->legend()->setAlignment(Qt::AlignBottom);
}

} // namespace iolab::gui
