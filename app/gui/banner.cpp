// SPDX-License-Identifier: MIT
#include "app/gui/banner.h"

#include "core/base/log.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace iolab::gui {

Banner::Banner(QWidget* parent) : QWidget(parent)
{
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_text, 1);
    m_action = new QPushButton(this);
    layout->addWidget(m_action);
    auto* dismissButton = new QPushButton(tr("Dismiss"), this);
    layout->addWidget(dismissButton);
    connect(dismissButton, &QPushButton::clicked, this, &Banner::dismiss);
    connect(m_action, &QPushButton::clicked, this, [this] {
        auto callback = m_callback;
        dismiss();
        if (callback)
            callback();
    });
    hide();
}

void Banner::showMessage(const QString& text, bool error, const QString& actionText,
                         std::function<void()> action)
{
    const QPalette base = window()->palette();
    QPalette p = palette();
    const bool dark = base.color(QPalette::Window).lightnessF() < 0.5;
    const QColor background = error ? (dark ? QColor(0x5c, 0x1f, 0x1c) : QColor(0xfd, 0xe2, 0xe0))
                                    : (dark ? QColor(0x1f, 0x3b, 0x5a) : QColor(0xe3, 0xef, 0xfb));
    p.setColor(QPalette::Window, background);
    p.setColor(QPalette::WindowText, base.color(QPalette::WindowText));
    setPalette(p);
    m_text->setText(text);
    const bool hasAction = !actionText.isEmpty() && action;
    m_action->setVisible(hasAction);
    m_action->setText(hasAction ? actionText : QString());
    m_callback = hasAction ? std::move(action) : nullptr;
    show();
    if (error)
        logger(LogModule::Gui).warn("{}", text.toStdString());
}

void Banner::dismiss()
{
    hide();
    m_callback = nullptr;
}

QString Banner::text() const
{
    return isVisibleTo(window()) ? m_text->text() : QString();
}

void Banner::followPalette(const QPalette& palette)
{
    setPalette(palette);
}

} // namespace iolab::gui
