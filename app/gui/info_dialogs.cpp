// SPDX-License-Identifier: MIT
#include "app/gui/info_dialogs.h"

#include "app/gui/reading_guide.h"
#include "core/version.h"
#include "platform/platform.h"

#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QStringList>
#include <QSysInfo>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace iolab::gui {

QString aboutText(const QString& dataFolder)
{
    const QString build =
#if defined(__clang__)
        QStringLiteral("Clang ") + QStringLiteral(__clang_version__);
#elif defined(__GNUC__)
        QStringLiteral("GCC ") + QStringLiteral(__VERSION__);
#elif defined(_MSC_VER)
        QStringLiteral("MSVC ") + QString::number(_MSC_VER);
#else
        QDialog::tr("an unknown compiler");
#endif
    QStringList lines;
    lines << QDialog::tr("IOLab %1").arg(QStringLiteral(IOLAB_VERSION)) << QStringLiteral(IOLAB_DESCRIPTION)
          << QString()
          << QDialog::tr("Built with Qt %1 by %2; running on Qt %3")
                 .arg(QStringLiteral(QT_VERSION_STR), build, QString::fromLatin1(qVersion()))
          << QDialog::tr("System: %1, kernel %2 (%3)")
                 .arg(QSysInfo::prettyProductName(), QSysInfo::kernelVersion(),
                      QSysInfo::currentCpuArchitecture())
          << QDialog::tr("Log file: %1")
                 .arg(QDir::toNativeSeparators(QString::fromStdString(defaultLogDirectory()) +
                                               QStringLiteral("/iolab.log")))
          << QDialog::tr("History and presets: %1").arg(QDir::toNativeSeparators(dataFolder)) << QString()
          << QDialog::tr("MIT licence. %1").arg(QStringLiteral(IOLAB_HOMEPAGE));
    return lines.join(QLatin1Char('\n'));
}

void showAboutDialog(QWidget* parent, const QIcon& icon, const QString& text)
{
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("aboutDialog"));
    dialog.setWindowTitle(QDialog::tr("About IOLab"));
    auto* iconLabel = new QLabel(&dialog);
    iconLabel->setPixmap(icon.pixmap(64, 64));
    iconLabel->setAlignment(Qt::AlignTop);
    auto* label = new QLabel(QStringLiteral("<h3>%1</h3>%2")
                                 .arg(text.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped(),
                                      text.section(QLatin1Char('\n'), 1)
                                          .toHtmlEscaped()
                                          .replace(QLatin1Char('\n'), QStringLiteral("<br>"))),
                             &dialog);
    label->setObjectName(QStringLiteral("aboutText"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QPushButton* copy = buttons->addButton(QDialog::tr("&Copy details"), QDialogButtonBox::ActionRole);
    QObject::connect(copy, &QPushButton::clicked, &dialog,
                     [text] { QGuiApplication::clipboard()->setText(text); });
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* top = new QHBoxLayout;
    top->addWidget(iconLabel);
    top->addWidget(label, 1);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addLayout(top);
    layout->addWidget(buttons);
    dialog.exec();
}

QDialog* makeReadingGuideWindow(QWidget* parent)
{
    auto* guide = new QDialog(parent);
    guide->setObjectName(QStringLiteral("readingGuide"));
    guide->setWindowTitle(QDialog::tr("How to read the results"));
    auto* text = new QTextBrowser(guide);
    text->setObjectName(QStringLiteral("readingGuideText"));
    text->setOpenExternalLinks(true);
    text->setHtml(readingGuideHtml());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, guide);
    QObject::connect(buttons, &QDialogButtonBox::rejected, guide, &QDialog::hide);
    auto* layout = new QVBoxLayout(guide);
    layout->addWidget(text, 1);
    layout->addWidget(buttons);
    guide->resize(640, 600);
    return guide;
}

} // namespace iolab::gui
