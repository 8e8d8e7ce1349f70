// SPDX-License-Identifier: MIT
// The PDF's tables (issue 34): each column as wide as its content asks, and cells that wrap only at the
// spaces between words: never inside a word or a number ("defaul", "2,\n056,267"), and never between a
// number and its unit ("51.4\nMiB").
#pragma once

#include "app/report/chart_layout.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace iolab::report {

// The words of one line of a cell, split at spaces, a number joined to the unit after it by a no-break space
// ("51.4 MiB", "3.97 ms", "1.2 GB/s", "12 %"): the pieces a line may break between.
QStringList cellWords(const QString& line);

// Whether a word is a figure (digits with their separators, sign, range dash and unit): never broken.
bool isFigure(const QString& word);

// A cell's text in lines no wider than `width`, broken only between cellWords (and at each '\n' in the
// text). A word wider than `width` keeps a line of its own, whole; only a word that is no figure and wider
// than the column could ever be (a mount's options, a long path) is broken, after its punctuation first.
QStringList wrapCell(const QString& text, const TextWidth& measure, double width);

// A word is kept whole in a column when it takes at most this share of the table's width.
inline constexpr double kWholeWordShare = 0.5;

struct TableColumns
{
    std::vector<double> widths;
    bool fits = true; // false: the widest words alone are wider than the table, and `widths` cut them
};

// The widths of a table's columns from its content, `header` (measured with `headerWidth`) and `rows`
// (with `cellWidth`), each cell padded by `padding`. Every column is at least as wide as its widest word (a
// word that is no figure counts at most kWholeWordShare of `width`). The width left widens first the columns
// whose cells would wrap, the one that lacks least first (so that as many as can hold their cells on one
// line), then the columns whose header would wrap, and what is left then goes by `shares` (one a column).
TableColumns fitTableColumns(const QStringList& header, const std::vector<QStringList>& rows,
                             const TextWidth& headerWidth, const TextWidth& cellWidth, double width,
                             double padding, const std::vector<double>& shares);

} // namespace iolab::report
