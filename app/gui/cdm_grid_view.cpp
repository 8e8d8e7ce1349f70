// SPDX-License-Identifier: MIT
#include "app/gui/cdm_grid_view.h"
#include "app/gui/widget_helpers.h"

#include "core/base/units.h"

#include <QClipboard>
#include <QFrame>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace iolab::gui {

namespace {

QString mbpsFigure(double mbps)
{
    // As CrystalDiskMark writes them: two decimals, never more than five significant digits' worth.
    return QLocale().toString(mbps, 'f', mbps >= 10000 ? 0 : 2);
}

} // namespace

CdmGridView::CdmGridView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("cdmGrid"));
    auto* outer = new QVBoxLayout(this);
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(8);
    const QStringList heads = {tr("Read (MB/s)"), tr("Write (MB/s)")};
    for (int column = 0; column < 2; ++column) {
        auto* head = new QLabel(heads[column], this);
        head->setAlignment(Qt::AlignCenter);
        QFont f = head->font();
        f.setBold(true);
        f.setPointSizeF(f.pointSizeF() * 1.2);
        head->setFont(f);
        grid->addWidget(head, 0, column + 1);
    }
    for (int row = 0; row < 4; ++row) {
        auto* name = new QLabel(this);
        name->setAlignment(Qt::AlignCenter);
        name->setMinimumWidth(110);
        QFont f = name->font();
        f.setBold(true);
        f.setPointSizeF(f.pointSizeF() * 1.25);
        name->setFont(f);
        m_rowNames[static_cast<std::size_t>(row)] = name;
        grid->addWidget(name, row + 1, 0);
        for (int column = 0; column < 2; ++column) {
            Cell& cell = m_cells[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
            auto* frame = new QFrame(this);
            frame->setObjectName(QStringLiteral("cdmCell"));
            frame->setFrameShape(QFrame::StyledPanel);
            auto* box = new QVBoxLayout(frame);
            box->setContentsMargins(12, 6, 12, 6);
            box->setSpacing(2);
            cell.figure = new QLabel(frame);
            cell.figure->setObjectName(QStringLiteral("cdmFigure_%1_%2").arg(row).arg(column));
            cell.figure->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            QFont big = cell.figure->font();
            big.setPointSizeF(big.pointSizeF() * 2.6);
            big.setBold(true);
            cell.figure->setFont(big);
            cell.detail = new QLabel(frame);
            cell.detail->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            QFont small = cell.detail->font();
            small.setPointSizeF(small.pointSizeF() * 0.9);
            cell.detail->setFont(small);
            box->addWidget(cell.figure, 1);
            box->addWidget(cell.detail);
            cell.frame = frame;
            grid->addWidget(frame, row + 1, column + 1);
        }
        grid->setRowStretch(row + 1, 1);
    }
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 1);
    outer->addLayout(grid, 1);
    auto* bottom = new QHBoxLayout;
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    bottom->addWidget(m_caption, 1);
    m_copy = new QPushButton(tr("Copy as text"), this);
    m_copy->setObjectName(QStringLiteral("cdmCopy"));
    m_copy->setToolTip(tr("The grid as plain text, with IOPS, p99 and every note, to paste into a ticket"));
    bottom->addWidget(m_copy);
    outer->addLayout(bottom);
    connect(m_copy, &QPushButton::clicked, this, &CdmGridView::copyAsText);
    restyle();
}

void CdmGridView::setGrid(const CdmGrid& grid, const RunResult& result)
{
    std::uint32_t repetitions = 0;
    for (std::size_t row = 0; row < grid.rows.size(); ++row) {
        const CdmGrid::Row& r = grid.rows[row];
        // "SEQ1M Q8T1" on two lines, as CrystalDiskMark's buttons show it.
        m_rowNames[row]->setText(qs(r.name).replace(QLatin1Char(' '), QLatin1Char('\n')));
        for (std::size_t column = 0; column < 2; ++column) {
            const CdmCell& c = r.cells[column];
            Cell& cell = m_cells[row][column];
            const bool measured = c.repetitions > 0;
            m_measured[row][column] = measured;
            repetitions = std::max(repetitions, c.repetitions);
            QString tip =
                c.caseIndex ? tr("Case %1: %2").arg(*c.caseIndex + 1).arg(qs(c.strategy)) : QString();
            if (!c.note.empty())
                tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) + qs(c.note);
            if (!measured) {
                cell.figure->setText(QStringLiteral("\u2014"));
                cell.detail->setText(c.note.rfind("refused", 0) == 0 ? tr("refused") : tr("not measured"));
            } else {
                // A stand-in (a synchronous case in place of the queued one) is marked; the note says which.
                cell.figure->setText(mbpsFigure(c.medianMBps) +
                                     (c.note.empty() ? QString() : QStringLiteral("*")));
                const QString latency =
                    c.p99Ns ? tr("p99 %1").arg(qs(formatLatency(static_cast<double>(*c.p99Ns) * 1e-9)))
                            : tr("no p99");
                cell.detail->setText(tr("%1 \u2013 %2 MB/s\n%3 IOPS \u00b7 %4")
                                         .arg(mbpsFigure(c.lowMBps), mbpsFigure(c.highMBps),
                                              QLocale().toString(c.iops, 'f', 0), latency));
            }
            cell.frame->setToolTip(tip);
            cell.figure->setToolTip(tip);
            cell.detail->setToolTip(tip);
        }
    }
    m_caption->setText(
        tr("Median of %1 repetitions with the slowest and fastest; CrystalDiskMark shows the best of "
           "N. * a stand-in case (see its tooltip); \u2014 not measured.")
            .arg(repetitions));
    m_text = qs(cdmGridText(grid, result));
    restyle();
}

void CdmGridView::setDark(bool dark)
{
    m_dark = dark;
    restyle();
}

void CdmGridView::restyle()
{
    // CrystalDiskMark's look: figures on a green panel, the row names on grey buttons.
    const QString measured = m_dark ? QStringLiteral("background:#1f4d2b; color:#e8f5e9;")
                                    : QStringLiteral("background:#dcf2dc; color:#10361a;");
    const QString empty = m_dark ? QStringLiteral("background:#333; color:#aaa;")
                                 : QStringLiteral("background:#eee; color:#777;");
    for (std::size_t row = 0; row < 4; ++row) {
        m_rowNames[row]->setStyleSheet(
            m_dark ? QStringLiteral("background:#444; border:1px solid #666; padding:6px;")
                   : QStringLiteral("background:#e4e4e4; border:1px solid #b5b5b5; "
                                    "padding:6px; color:#222;"));
        for (std::size_t column = 0; column < 2; ++column) {
            const QString style = m_measured[row][column] ? measured : empty;
            m_cells[row][column].frame->setStyleSheet(
                QStringLiteral("QFrame#cdmCell { %1 border:1px solid %2; }")
                    .arg(style, m_dark ? QStringLiteral("#555") : QStringLiteral("#9cc79c")));
            m_cells[row][column].figure->setStyleSheet(style + QStringLiteral("border:none;"));
            m_cells[row][column].detail->setStyleSheet(style + QStringLiteral("border:none;"));
        }
    }
}

QString CdmGridView::figureText(int row, int column) const
{
    return m_cells[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)].figure->text();
}

QString CdmGridView::detailText(int row, int column) const
{
    return m_cells[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)].detail->text();
}

QString CdmGridView::cellToolTip(int row, int column) const
{
    return m_cells[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)].frame->toolTip();
}

void CdmGridView::copyAsText() const
{
    QGuiApplication::clipboard()->setText(m_text);
}

} // namespace iolab::gui
