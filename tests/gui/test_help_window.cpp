// SPDX-License-Identifier: MIT
// Help > IOLab manual: F1 opens the manual compiled into the app on its index, a click on a link follows it
// (another page, a heading of a page, Back), a link out of the manual goes to the web, and every page loads
// with its images, each link leading to a page and a heading that exist.
#include "app/gui/help_window.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/target_model.h"
#include "core/version.h"
#include "tests/support/temp_dir.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// Runs the event loop until the window shows `page`; false if it does not within 5 s.
bool showsPage(const QTextBrowser& browser, const QString& page)
{
    return QTest::qWaitFor([&] { return browser.source().toString() == page; }, 5'000);
}

QString manualSource(const char* page)
{
    return QStringLiteral("qrc:/resources/manual/") + QLatin1String(page);
}

// Every link of the shown page, as written, with where it starts in the document.
QList<std::pair<QString, int>> pageLinks(const QTextDocument& document)
{
    QList<std::pair<QString, int>> links;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isAnchor() && !it.fragment().charFormat().anchorHref().isEmpty())
                links.append({it.fragment().charFormat().anchorHref(), it.fragment().position()});
    return links;
}

// The anchors the shown page names (its headings', by GitHub's rules).
QSet<QString> pageAnchors(const QTextDocument& document)
{
    QSet<QString> names;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it)
            for (const QString& name : it.fragment().charFormat().anchorNames())
                names.insert(name);
    return names;
}

// Clicks the shown page's first link to `href`, as a user would.
void clickLink(QTextBrowser& browser, const QString& href)
{
    for (const auto& [link, position] : pageLinks(*browser.document())) {
        if (link != href)
            continue;
        QTextCursor cursor(browser.document());
        cursor.setPosition(position + 1);
        browser.setTextCursor(cursor);
        browser.ensureCursorVisible();
        const QPoint at = browser.cursorRect(cursor).center();
        QTest::mouseClick(browser.viewport(), Qt::LeftButton, {}, at);
        return;
    }
    ADD_FAILURE() << "the page has no link to " << href.toStdString();
}

struct HelpFixture : ::testing::Test
{
    TempDir data;
    LogModel log;
    std::unique_ptr<MainWindow> window;

    void SetUp() override
    {
        window = std::make_unique<MainWindow>(AppPaths{QString::fromStdString(data.path()),
                                                       QString::fromStdString(data / "settings.ini"), false},
                                              &log);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        ASSERT_TRUE(
            QTest::qWaitFor([this] { return !window->targetPanel()->model()->isScanning(); }, 10'000));
    }

    QAction* helpAction(const char* name) const
    {
        for (QAction* menu : window->menuBar()->actions())
            if (menu->menu() != nullptr && menu->text() == QStringLiteral("&Help"))
                for (QAction* action : menu->menu()->actions())
                    if (action->objectName() == QLatin1String(name))
                        return action;
        return nullptr;
    }
};

} // namespace

TEST(HelpWindowAnchors, FollowGitHubsRules)
{
    const std::pair<const char*, const char*> rows[] = {
        {"The kill -9 probe", "the-kill--9-probe"},
        {"Power-loss exposure: \"max at risk\"", "power-loss-exposure-max-at-risk"},
        {"The strategies (Linux)", "the-strategies-linux"},
        {"Sources: the five articles", "sources-the-five-articles"},
        {"What IOLab refuses, and why", "what-iolab-refuses-and-why"},
        {"  snake_case and 2 numbers  ", "snake_case-and-2-numbers"},
        {"Où écrire", "où-écrire"},
    };
    for (const auto& [heading, anchor] : rows)
        EXPECT_EQ(headingAnchor(QString::fromUtf8(heading)).toStdString(), anchor) << heading;
}

TEST_F(HelpFixture, F1OpensTheManualOnItsIndexAndAClickFollowsALink)
{
    QAction* manual = helpAction("manualAction");
    ASSERT_NE(manual, nullptr) << "no Help > IOLab manual";
    EXPECT_EQ(manual->shortcut(), QKeySequence(QKeySequence::HelpContents));
    EXPECT_EQ(manual->shortcut(), QKeySequence(Qt::Key_F1));
    manual->trigger(); // not modal: returns at once
    auto* help = window->findChild<HelpWindow*>(QStringLiteral("helpWindow"));
    ASSERT_NE(help, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(help));
    QTextBrowser* text = help->browser();
    EXPECT_EQ(text->source().toString(), manualSource("index.md"));
    EXPECT_THAT(text->toPlainText().toStdString(), HasSubstr("The IOLab manual"));
    EXPECT_THAT(text->toPlainText().toStdString(), HasSubstr("Reading the results"));

    // A page: the presets.
    clickLink(*text, QStringLiteral("presets.md"));
    ASSERT_TRUE(showsPage(*text, manualSource("presets.md"))) << text->source().toString().toStdString();
    EXPECT_THAT(text->toPlainText().toStdString(), HasSubstr("Each preset asks one question"));

    // A heading of another page, at the top of the window: the sync lab, from a row of the presets' table.
    clickLink(*text, QStringLiteral("durability.md#the-sync-lab"));
    ASSERT_TRUE(showsPage(*text, manualSource("durability.md"))) << text->source().toString().toStdString();
    EXPECT_GT(text->verticalScrollBar()->value(), 0) << "did not scroll to the heading";
    const QTextBlock top = text->cursorForPosition(QPoint(4, 4)).block();
    EXPECT_EQ(top.text().toStdString(), "The sync lab");

    // Back twice: the presets, then the index.
    auto* back = help->findChild<QPushButton*>(QStringLiteral("helpBack"));
    ASSERT_NE(back, nullptr);
    QTest::mouseClick(back, Qt::LeftButton);
    EXPECT_TRUE(showsPage(*text, manualSource("presets.md"))) << text->source().toString().toStdString();
    QTest::mouseClick(back, Qt::LeftButton);
    ASSERT_TRUE(showsPage(*text, manualSource("index.md"))) << text->source().toString().toStdString();

    // A link out of the manual opens this version's copy on the web, and the window stays where it is.
    QList<QUrl> opened;
    help->setExternalOpener([&opened](const QUrl& url) { opened.append(url); });
    clickLink(*text, QStringLiteral("../../README.md"));
    ASSERT_TRUE(QTest::qWaitFor([&opened] { return !opened.isEmpty(); }, 5'000)) << "nothing opened";
    EXPECT_EQ(opened.size(), 1);
    EXPECT_EQ(opened.front().toString().toStdString(), IOLAB_HOMEPAGE "/blob/v" IOLAB_VERSION "/README.md");
    EXPECT_EQ(text->source().toString(), manualSource("index.md"));

    // Help > The presets: the same window, on the presets' page.
    QAction* presets = helpAction("presetsHelpAction");
    ASSERT_NE(presets, nullptr);
    presets->trigger();
    EXPECT_EQ(text->source().toString(), manualSource("presets.md"));
    EXPECT_EQ(window->findChildren<HelpWindow*>().size(), 1);
}

TEST(HelpWindowPages, EveryPageLoadsWithItsImagesAndEveryLinkLeadsToAHeadingThatExists)
{
    // The resources hold every page of the manual's folder.
    const QStringList compiled =
        QDir(QStringLiteral(":/resources/manual")).entryList({QStringLiteral("*.md")});
    const QStringList written =
        QDir(QStringLiteral(IOLAB_SOURCE_DIR "/resources/manual")).entryList({QStringLiteral("*.md")});
    ASSERT_FALSE(written.isEmpty());
    EXPECT_EQ(compiled, written);

    HelpWindow help;
    help.resize(960, 720);
    HelpWindow target; // loads the page a link leads to
    int links = 0;
    int images = 0;
    for (const QString& page : compiled) {
        SCOPED_TRACE(page.toStdString());
        help.showPage(page);
        const QTextDocument& document = *help.browser()->document();
        ASSERT_FALSE(document.isEmpty());
        EXPECT_FALSE(pageAnchors(document).isEmpty()) << "no heading named";

        for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                if (!it.fragment().charFormat().isImageFormat())
                    continue;
                const QTextImageFormat image = it.fragment().charFormat().toImageFormat();
                const QUrl url = help.browser()->source().resolved(QUrl(image.name()));
                const QVariant data = help.browser()->loadResource(QTextDocument::ImageResource, url);
                const QImage loaded = data.userType() == QMetaType::QImage
                                          ? data.value<QImage>()
                                          : QImage::fromData(data.toByteArray());
                EXPECT_FALSE(loaded.isNull()) << image.name().toStdString() << " is not compiled in";
                EXPECT_GT(image.width(), 0);
                EXPECT_LE(image.width(), 900)
                    << image.name().toStdString() << " is drawn wider than the window";
                ++images;
            }

        for (const auto& [href, position] : pageLinks(document)) {
            const QUrl to = HelpWindow::resolveLink(help.browser()->source(), QUrl(href));
            if (to.scheme() != QLatin1String("qrc"))
                continue;
            ++links;
            QUrl file = to;
            file.setFragment(QString());
            EXPECT_TRUE(QFile::exists(QLatin1Char(':') + file.path())) << href.toStdString();
            if (!to.hasFragment())
                continue;
            target.showPage(QFileInfo(file.path()).fileName());
            EXPECT_TRUE(pageAnchors(*target.browser()->document()).contains(to.fragment()))
                << href.toStdString() << ": no heading with that anchor in the app";
        }
    }
    EXPECT_GT(links, 40);
    EXPECT_GE(images, 9);
}
