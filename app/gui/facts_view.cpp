// SPDX-License-Identifier: MIT
#include "app/gui/facts_view.h"

#include "app/gui/widget_helpers.h"

#include <QHeaderView>
#include <QPalette>

namespace iolab::gui {

namespace {

QString shownValue(const Fact& fact)
{
    return fact.known() ? qs(fact.value) : FactsView::tr("unknown: %1").arg(qs(fact.unknownWhy));
}

QTreeWidgetItem* sectionItem(QTreeWidget* tree, const QString& title)
{
    auto* item = new QTreeWidgetItem(tree, {title});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setFirstColumnSpanned(true);
    return item;
}

} // namespace

FactsView::FactsView(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Fact"), tr("Value")});
    setRootIsDecorated(false);
    setSelectionMode(QAbstractItemView::ContiguousSelection);
    setUniformRowHeights(true);
    setWordWrap(false);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
}

void FactsView::setFacts(const SystemFacts& facts)
{
    clear();
    m_differing = 0;
    setColumnCount(2);
    setHeaderLabels({tr("Fact"), tr("Value")});
    header()->setSectionResizeMode(1, QHeaderView::Interactive);
    if (!facts.gathered) {
        new QTreeWidgetItem(this,
                            {tr("No system facts"), tr("this result was saved before IOLab recorded them")});
        return;
    }
    const QColor muted = palette().color(QPalette::Disabled, QPalette::Text);
    auto* classItem = new QTreeWidgetItem(this, {tr("Device class"), qs(describe(facts.deviceClass))});
    classItem->setToolTip(1, tr("From the disk's transport and whether it is rotational"));
    for (const auto& section : facts.sections) {
        sectionItem(this, qs(section.title));
        for (const auto& fact : section.facts) {
            auto* item = new QTreeWidgetItem(this, {qs(fact.label), shownValue(fact)});
            if (!fact.known())
                item->setForeground(1, muted);
            const QString source = fact.source.empty() ? QString() : tr("Read from %1").arg(qs(fact.source));
            item->setToolTip(0, source);
            item->setToolTip(1, fact.known() ? source : qs(fact.unknownWhy));
        }
    }
}

void FactsView::setComparison(const SystemFacts& left, const QString& leftTitle, const SystemFacts& right,
                              const QString& rightTitle)
{
    clear();
    setColumnCount(3);
    setHeaderLabels({tr("Fact"), leftTitle, rightTitle});
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_differing = 0;
    QString section;
    QFont bold = font();
    bold.setBold(true);
    const QColor mark = palette().color(QPalette::Highlight);
    for (const auto& row : compareFacts(left, right)) {
        if (qs(row.section) != section) {
            section = qs(row.section);
            sectionItem(this, section);
        }
        auto* item = new QTreeWidgetItem(this, {qs(row.label), qs(row.left), qs(row.right)});
        if (row.differs) {
            ++m_differing;
            for (int column = 0; column < 3; ++column) {
                item->setFont(column, bold);
                item->setForeground(column, mark);
            }
            item->setToolTip(0, tr("Differs between the two results"));
        }
    }
}

QString FactsView::plainText() const
{
    QString text;
    for (int i = 0; i < topLevelItemCount(); ++i) {
        const auto* item = topLevelItem(i);
        QStringList cells;
        for (int column = 0; column < columnCount(); ++column) {
            if (!item->text(column).isEmpty())
                cells << item->text(column);
        }
        text += cells.join(QStringLiteral("  ")) + QLatin1Char('\n');
    }
    return text;
}

} // namespace iolab::gui
