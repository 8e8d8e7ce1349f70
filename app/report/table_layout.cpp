// SPDX-License-Identifier: MIT
#include "app/report/table_layout.h"

#include <QRegularExpression>

#include <algorithm>
#include <numeric>

namespace iolab::report {

namespace {

constexpr QChar kNoBreakSpace(0x00A0);
constexpr double kWidthTolerance = 1e-6;

// The widest word and the widest line of a cell's text.
struct Extent
{
    double word = 0;
    double line = 0;
};

Extent extentOf(const QString& text, const TextWidth& measure, double longestWord)
{
    Extent e;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QStringList words = cellWords(line);
        for (const QString& word : words) {
            const double w = measure(word);
            e.word = std::max(e.word, isFigure(word) ? w : std::min(w, longestWord));
        }
        e.line = std::max(e.line, measure(words.join(QLatin1Char(' '))));
    }
    return e;
}

// A word wider than a whole column, in pieces that fit: after its punctuation where it can, anywhere where
// it must.
QStringList breakWord(const QString& word, const TextWidth& measure, double width)
{
    static const QRegularExpression after(QStringLiteral("(?<=[,/;:=&_\\-])"));
    QStringList lines;
    QString line;
    const auto place = [&](const QString& piece) {
        if (line.isEmpty() || measure(line + piece) <= width) {
            line += piece;
            return;
        }
        lines << line;
        line = piece;
    };
    for (const QString& piece : word.split(after, Qt::SkipEmptyParts)) {
        if (measure(piece) <= width) {
            place(piece);
            continue;
        }
        for (const QChar c : piece)
            place(QString(c));
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

} // namespace

QStringList cellWords(const QString& line)
{
    // A number (digits, with its sign, separators, decimals) and the unit after it make one word.
    static const QRegularExpression numberSpaceUnit(QStringLiteral(
        "(\\d) +((?:[kKMGTP]i?)?B(?:/s)?|[mµun]?s|min|h|IOPS|(?:ops|files|syncs)/s|x|%)(?=$|[^\\w/])"));
    QString joined = line;
    joined.replace(numberSpaceUnit, QStringLiteral("\\1") + kNoBreakSpace + QStringLiteral("\\2"));
    return joined.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

bool isFigure(const QString& word)
{
    // "2,056,267", "51.4 MiB", "796-1154", "±12", "1.2x", "3.97 ms", "12%": digits and what goes with them.
    static const QRegularExpression figure(
        QStringLiteral("^[(±~≈<>+-]?\\d[\\d.,:]*(?:[-–]\\d[\\d.,]*)?(?:\u00A0?[A-Za-zµ%/]{1,8})?[)]?[,;]?$"));
    return figure.match(word).hasMatch();
}

QStringList wrapCell(const QString& text, const TextWidth& measure, double width)
{
    width += kWidthTolerance; // a column made exactly as wide as its widest word holds it
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString& word : cellWords(paragraph)) {
            const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (measure(candidate) <= width || (line.isEmpty() && isFigure(word))) {
                line = candidate;
                continue;
            }
            if (!line.isEmpty())
                lines << line;
            line = word;
            if (measure(word) > width && !isFigure(word)) {
                QStringList pieces = breakWord(word, measure, width);
                line = pieces.takeLast();
                lines << pieces;
            }
        }
        lines << line;
    }
    return lines;
}

TableColumns fitTableColumns(const QStringList& header, const std::vector<QStringList>& rows,
                             const TextWidth& headerWidth, const TextWidth& cellWidth, double width,
                             double padding, const std::vector<double>& shares)
{
    const std::size_t count = static_cast<std::size_t>(header.size());
    std::vector<double> least(count, 0);
    std::vector<double> cellLine(count, 0);   // the widest cell on one line
    std::vector<double> headerLine(count, 0); // the header on one line
    const auto add = [&](const QStringList& cells, const TextWidth& measure, std::vector<double>& line) {
        for (std::size_t i = 0; i < count && i < static_cast<std::size_t>(cells.size()); ++i) {
            const Extent e = extentOf(cells[static_cast<qsizetype>(i)], measure, width * kWholeWordShare);
            least[i] = std::max(least[i], e.word + padding);
            line[i] = std::max(line[i], e.line + padding);
        }
    };
    add(header, headerWidth, headerLine);
    for (const QStringList& row : rows)
        add(row, cellWidth, cellLine);

    TableColumns out;
    const double needed = std::accumulate(least.begin(), least.end(), 0.0);
    if (needed > width) {
        out.fits = false;
        for (std::size_t i = 0; i < count; ++i)
            out.widths.push_back(least[i] * width / needed);
        return out;
    }
    out.widths = least;
    double spare = width - needed;
    // Widens columns toward `goal`, the one lacking least first: as many columns as the room allows hold
    // their text on one line, and what is left goes to the others in proportion to what they lack.
    const auto widen = [&](const std::vector<double>& goal) {
        std::vector<std::size_t> order(count);
        std::iota(order.begin(), order.end(), std::size_t{0});
        const auto lack = [&](std::size_t i) {
            return std::max(0.0, goal[i] - out.widths[i]);
        };
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return lack(a) < lack(b); });
        double remaining = 0;
        for (std::size_t i : order)
            remaining += lack(i);
        for (std::size_t i : order) {
            const double wanted = lack(i);
            if (wanted <= 0)
                continue;
            if (wanted <= spare) {
                out.widths[i] += wanted;
                spare -= wanted;
                remaining -= wanted;
                continue;
            }
            // Not enough for this one: the rest is shared by it and every column lacking more.
            const double shared = spare;
            for (std::size_t j : order) {
                if (lack(j) >= wanted)
                    out.widths[j] += shared * lack(j) / remaining;
            }
            spare = 0;
            return;
        }
    };
    widen(cellLine);   // the figures and words of the rows first: a value on one line reads best
    widen(headerLine); // then the headers
    double shareTotal = 0;
    for (std::size_t i = 0; i < count; ++i)
        shareTotal += i < shares.size() ? std::max(0.0, shares[i]) : 0;
    for (std::size_t i = 0; i < count && spare > 0; ++i)
        out.widths[i] += shareTotal > 0
                             ? spare * (i < shares.size() ? std::max(0.0, shares[i]) : 0) / shareTotal
                             : spare / static_cast<double>(count);
    return out;
}

} // namespace iolab::report
