// SPDX-License-Identifier: MIT
#include "app/gui/help_window.h"

#include "core/version.h"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QHash>
#include <QImageReader>
#include <QKeySequence>
#include <QList>
#include <QMenu>
#include <QPalette>
#include <QPointer>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

namespace iolab::gui {

namespace {

// The manual's folder, in the resources as in the repository.
const QString kManualPrefix = QStringLiteral("/resources/manual");

// The widest a screenshot is drawn: a 1366-pixel one at about the width of the text beside it.
constexpr int kImageMaxWidth = 880;

// Scales every image of the page down to at most `maxWidth` pixels, keeping its aspect.
void fitImages(QTextDocument& document, const QUrl& page, int maxWidth)
{
    struct Image
    {
        int position;
        QTextImageFormat format;
    };
    QList<Image> images;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat())
                images.append({it.fragment().position(), it.fragment().charFormat().toImageFormat()});
    QTextCursor cursor(&document);
    for (Image& image : images) {
        const QUrl source = page.resolved(QUrl(image.format.name()));
        const QString file =
            source.scheme() == QLatin1String("qrc") ? QLatin1Char(':') + source.path() : source.toLocalFile();
        QSize size = QImageReader(file).size();
        if (!size.isValid())
            continue;
        if (size.width() > maxWidth)
            size = QSize(maxWidth, size.height() * maxWidth / size.width());
        if (qRound(image.format.width()) == size.width())
            continue;
        image.format.setWidth(size.width());
        image.format.setHeight(size.height());
        cursor.setPosition(image.position);
        cursor.setPosition(image.position + 1, QTextCursor::KeepAnchor);
        cursor.setCharFormat(image.format);
    }
}

// Sets code blocks on a shaded background, as GitHub shows them, so that they read apart from the text.
void shadeCodeBlocks(QTextDocument& document, const QColor& shade)
{
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        if (!block.blockFormat().hasProperty(QTextFormat::BlockCodeFence) &&
            !block.blockFormat().nonBreakableLines())
            continue;
        QTextBlockFormat shaded;
        shaded.setBackground(shade);
        cursor.setPosition(block.position());
        cursor.mergeBlockFormat(shaded);
    }
}

} // namespace

QString headingAnchor(const QString& heading)
{
    QString anchor;
    for (const QChar c : heading.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            anchor += c;
        else if (c == QLatin1Char(' '))
            anchor += QLatin1Char('-');
    }
    return anchor;
}

void nameHeadings(QTextDocument& document)
{
    QHash<QString, int> seen;
    QTextCursor cursor(&document);
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || block.length() <= 1)
            continue;
        QString anchor = headingAnchor(block.text());
        const int repeats = seen.value(anchor, 0);
        seen[anchor] = repeats + 1;
        if (repeats > 0)
            anchor += QStringLiteral("-%1").arg(repeats);
        QTextCharFormat named;
        named.setAnchor(true);
        named.setAnchorNames({anchor});
        cursor.setPosition(block.position());
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(named);
    }
}

QUrl manualUrl(const QString& page)
{
    const QUrl relative(page);
    QUrl url(QStringLiteral("qrc:") + kManualPrefix + QLatin1Char('/') + relative.path());
    url.setFragment(relative.fragment());
    return url;
}

ManualBrowser::ManualBrowser(QWidget* parent) : QTextBrowser(parent)
{
    // Emitted once a page is shown, by a link, by Back and Forward (which restore their scroll position
    // after).
    connect(this, &QTextBrowser::sourceChanged, this, [this](const QUrl& page) {
        nameHeadings(*document());
        shadeCodeBlocks(*document(), palette().color(QPalette::AlternateBase));
        fitImages(*document(), page, imageWidth());
    });
}

int ManualBrowser::imageWidth() const
{
    // The viewport less the document's margins and a list's indent, so that no image needs a scroll bar.
    const int room = viewport()->width() - 2 * static_cast<int>(document()->documentMargin()) - 48;
    return std::clamp(room, 240, kImageMaxWidth);
}

void ManualBrowser::resizeEvent(QResizeEvent* event)
{
    QTextBrowser::resizeEvent(event);
    fitImages(*document(), source(), imageWidth());
}

void ManualBrowser::doSetSource(const QUrl& name, QTextDocument::ResourceType type)
{
    // The page without its anchor, so that the scroll to it comes after the headings are named.
    QUrl page = name;
    page.setFragment(QString());
    const bool markdown = page.path().endsWith(QLatin1String(".md"));
    QTextBrowser::doSetSource(page, markdown ? QTextDocument::MarkdownResource : type);
    if (name.hasFragment())
        scrollToAnchor(name.fragment());
}

QUrl HelpWindow::resolveLink(const QUrl& page, const QUrl& link)
{
    // The resources mirror the repository's paths, so a link resolves as it does on GitHub.
    QUrl to = page.resolved(link);
    if (to.scheme() != QLatin1String("qrc"))
        return to;
    const QString path = QDir::cleanPath(to.path());
    if (path.startsWith(kManualPrefix + QLatin1Char('/')) && path.endsWith(QLatin1String(".md")))
        return to;
    QUrl outside(QStringLiteral(IOLAB_HOMEPAGE "/blob/v" IOLAB_VERSION) + path);
    outside.setFragment(to.fragment());
    return outside;
}

HelpWindow::HelpWindow(QWidget* parent)
    : QDialog(parent), m_openExternal([](const QUrl& url) { QDesktopServices::openUrl(url); })
{
    setObjectName(QStringLiteral("helpWindow"));
    setWindowTitle(tr("IOLab manual"));
    m_browser = new ManualBrowser(this);
    m_browser->setObjectName(QStringLiteral("helpText"));
    m_browser->setOpenLinks(false); // follow() decides where a link leads
    connect(m_browser, &QTextBrowser::anchorClicked, this, &HelpWindow::follow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* back = buttons->addButton(tr("Back"), QDialogButtonBox::ActionRole);
    back->setObjectName(QStringLiteral("helpBack"));
    back->setEnabled(false);
    QPushButton* forward = buttons->addButton(tr("Forward"), QDialogButtonBox::ActionRole);
    forward->setObjectName(QStringLiteral("helpForward"));
    forward->setEnabled(false);
    QPushButton* contents = buttons->addButton(tr("Contents"), QDialogButtonBox::ActionRole);
    contents->setObjectName(QStringLiteral("helpContents"));
    connect(back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(forward, &QPushButton::clicked, m_browser, &QTextBrowser::forward);
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, forward, &QPushButton::setEnabled);
    connect(contents, &QPushButton::clicked, this, [this] { showPage(QStringLiteral("index.md")); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    resize(kImageMaxWidth + 80, 720);
}

void HelpWindow::showPage(const QString& page)
{
    m_browser->setSource(manualUrl(page), QTextDocument::MarkdownResource);
}

void HelpWindow::follow(const QUrl& link)
{
    const QUrl target = resolveLink(m_browser->source(), link);
    if (target.scheme() == QLatin1String("qrc"))
        m_browser->setSource(target, QTextDocument::MarkdownResource);
    else
        m_openExternal(target);
}

void addManualActions(QMenu& help, QWidget& window)
{
    // One window for both entries, made on first use and owned by `window`.
    auto helpWindow = std::make_shared<QPointer<HelpWindow>>();
    const auto show = [&window, helpWindow](const QString& page) {
        if (helpWindow->isNull())
            *helpWindow = new HelpWindow(&window); // not modal: it stays open beside what it explains
        HelpWindow* shown = *helpWindow;
        shown->showPage(page);
        shown->show();
        shown->raise();
        shown->activateWindow();
    };
    QAction* manual = help.addAction(QCoreApplication::translate("HelpWindow", "IOLab &manual"), &window,
                                     [show] { show(QStringLiteral("index.md")); });
    manual->setObjectName(QStringLiteral("manualAction"));
    manual->setShortcut(QKeySequence::HelpContents);
    QAction* presets = help.addAction(QCoreApplication::translate("HelpWindow", "The &presets"), &window,
                                      [show] { show(QStringLiteral("presets.md")); });
    presets->setObjectName(QStringLiteral("presetsHelpAction"));
    presets->setToolTip(
        QCoreApplication::translate("HelpWindow", "The manual's page on the built-in presets"));
}

} // namespace iolab::gui
