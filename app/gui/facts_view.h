// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/system_facts.h"

#include <QTreeWidget>

namespace iolab::gui {

// System facts as a tree: a section per heading (Storage, Device, Filesystem, Kernel, Machine), a row per
// fact with its value; an unknown fact reads "unknown: why" in the muted colour. Each row's tooltip names
// where the fact was read. With a second set of facts (compare mode) it shows both side by side and marks
// the rows that differ.
class FactsView : public QTreeWidget
{
    Q_OBJECT

public:
    explicit FactsView(QWidget* parent = nullptr);

    void setFacts(const SystemFacts& facts);
    // Two results side by side: `leftTitle` and `rightTitle` head the value columns; rows that differ are
    // marked and counted.
    void setComparison(const SystemFacts& left, const QString& leftTitle, const SystemFacts& right,
                       const QString& rightTitle);
    int differingRows() const { return m_differing; }
    // The facts as plain text, as shown (for tests and Copy).
    QString plainText() const;

private:
    int m_differing = 0;
};

} // namespace iolab::gui
