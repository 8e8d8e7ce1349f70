// SPDX-License-Identifier: MIT
#include "app/gui/log_page.h"
#include "app/gui/widget_helpers.h"

#include "app/gui/log_model.h"
#include "core/base/log.h"
#include "platform/platform.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace iolab::gui {

LogPage::LogPage(LogModel* log, QWidget* parent) : QWidget(parent), m_log(log)
{
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Show:"), this));
    auto* level = new QComboBox(this);
    level->addItem(tr("debug and above"), static_cast<int>(spdlog::level::debug));
    level->addItem(tr("info and above"), static_cast<int>(spdlog::level::info));
    level->addItem(tr("warnings and errors"), static_cast<int>(spdlog::level::warn));
    level->addItem(tr("errors"), static_cast<int>(spdlog::level::err));
    level->setCurrentIndex(1);
    row->addWidget(level);
    auto* clear = new QPushButton(tr("Clear"), this);
    row->addWidget(clear);
    row->addStretch(1);
    auto* file = new QLabel(tr("Full log: %1/iolab.log").arg(qs(defaultLogDirectory())), this);
    file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    row->addWidget(file);
    layout->addLayout(row);
    m_filter = new LogFilterModel(this);
    if (m_log != nullptr)
        m_filter->setSourceModel(m_log);
    m_filter->setMinimumLevel(spdlog::level::info);
    auto* view = new QTableView(this);
    view->setModel(m_filter);
    styleTable(view);
    layout->addWidget(view, 1);
    connect(level, &QComboBox::currentIndexChanged, this,
            [this, level](int) { m_filter->setMinimumLevel(level->currentData().toInt()); });
    connect(clear, &QPushButton::clicked, this, [this] {
        if (m_log != nullptr)
            m_log->clear();
    });
    if (m_log != nullptr) {
        connect(m_log, &QAbstractItemModel::rowsInserted, view, [view] {
            if (view->verticalScrollBar()->value() >= view->verticalScrollBar()->maximum() - 2)
                view->scrollToBottom();
        });
    }
}

} // namespace iolab::gui
