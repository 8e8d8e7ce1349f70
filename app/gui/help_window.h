// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>
#include <QTextBrowser>
#include <QUrl>

#include <functional>

class QMenu;
class QTextDocument;

namespace iolab::gui {

// GitHub's anchor for a heading: lower case, every character but letters, digits, spaces, '-' and '_'
// dropped, spaces turned into '-' ("The kill -9 probe" -> "the-kill--9-probe"). The manual's links use it.
QString headingAnchor(const QString& heading);

// Names every heading of a document with its GitHub anchor (a repeated one gets -1, -2, ... as on GitHub),
// so that QTextBrowser can scroll to "page.md#anchor". Qt's Markdown reader names none.
void nameHeadings(QTextDocument& document);

// A page of the manual, compiled in from resources/manual/ as :/resources/manual/ (and the screenshots its
// pages show as :/resources/screenshots/), so that its links resolve as in the repository.
QUrl manualUrl(const QString& page);

// A QTextBrowser that names the headings of each page it shows (also one Back returns to) and fits its images
// to the window, then scrolls to the link's anchor.
class ManualBrowser : public QTextBrowser
{
    Q_OBJECT
public:
    explicit ManualBrowser(QWidget* parent = nullptr);

protected:
    void doSetSource(const QUrl& name, QTextDocument::ResourceType type) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    int imageWidth() const;
};

// Help > IOLab manual: the Markdown manual, rendered by Qt. A link between pages or to a heading is followed
// in the window (Back and Forward keep the way); a link out of the manual (the README, a source file, a web
// page) opens the repository's copy of this version, or the page, in the web browser.
class HelpWindow : public QDialog
{
    Q_OBJECT
public:
    explicit HelpWindow(QWidget* parent = nullptr);

    // A page relative to the manual's folder, with an anchor or not: "index.md",
    // "durability.md#the-sync-lab".
    void showPage(const QString& page);
    QTextBrowser* browser() const { return m_browser; }
    // Where a link out of the manual goes; QDesktopServices::openUrl unless a test replaces it.
    void setExternalOpener(std::function<void(const QUrl&)> opener) { m_openExternal = std::move(opener); }

    // Where a link of `page` leads: a page of the manual (qrc:/resources/manual/...), or the web, where a
    // link out of the manual (the README, a source file) leads to this version's copy on the project's
    // homepage.
    static QUrl resolveLink(const QUrl& page, const QUrl& link);

private:
    void follow(const QUrl& link);

    ManualBrowser* m_browser = nullptr;
    std::function<void(const QUrl&)> m_openExternal;
};

// The Help menu's entries for the manual: "IOLab manual" (F1) and "The presets", both opening one HelpWindow
// that belongs to `window`.
void addManualActions(QMenu& help, QWidget& window);

} // namespace iolab::gui
