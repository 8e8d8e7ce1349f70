// SPDX-License-Identifier: MIT
// The start page (issue 34): the idle window asks what the user wants to know; each question runs its
// preset on the chosen target with one click and shows the time the Plan estimates for it; a result or a run
// shows the lab; both palettes stay readable.
#include "app/gui/live_charts.h"
#include "app/gui/log_model.h"
#include "app/gui/main_window.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/results_view.h"
#include "app/gui/run_controller.h"
#include "app/gui/start_page.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "core/base/units.h"
#include "core/formats/presets.h"
#include "tests/gui/wait_for.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/qt_text.h"
#include "tests/support/qt_wait.h"
#include "tests/support/temp_dir.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

struct StartFixture : ::testing::Test
{
    TempDir data;
    TempDir target;
    LogModel log;
    std::unique_ptr<MainWindow> window;

    void SetUp() override
    {
        window =
            std::make_unique<MainWindow>(AppPaths{q(data.path()), q(data / "settings.ini"), false}, &log);
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        IOLAB_TRY_VERIFY(!window->targetPanel()->model()->isScanning(), 10'000);
    }
    void useTarget()
    {
        window->chooseFolder(q(target.path()));
        IOLAB_TRY_VERIFY(!window->isInspectingTarget(), 20'000);
        ASSERT_EQ(window->currentTargetKey(), QDir::fromNativeSeparators(q(target.path())));
    }
};

// WCAG's contrast ratio of two colours: 4.5 and more reads as body text.
double contrast(const QColor& a, const QColor& b)
{
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

TEST_F(StartFixture, TheIdleWindowAsksItsQuestionsAndAResultShowsTheLab)
{
    EXPECT_TRUE(window->isStartPageShown());
    EXPECT_TRUE(window->startPage()->isVisible());
    EXPECT_TRUE(window->startPageAction()->isChecked());
    for (const char* preset : {"health-check", "quick", "data-safety"})
        EXPECT_NE(window->startPage()->runButton(QString::fromLatin1(preset)), nullptr) << preset;
    ASSERT_EQ(openAndWait(*window, QStringLiteral(IOLAB_SOURCE_DIR "/tests/data/golden-result.json")),
              QString());
    EXPECT_FALSE(window->isStartPageShown()) << "a result shows in the lab";
    EXPECT_FALSE(window->startPage()->isVisible());
    EXPECT_EQ(window->tabs()->currentWidget(), window->resultsView()) << "on the Results tab";
    window->startPageAction()->trigger();
    EXPECT_TRUE(window->isStartPageShown()) << "the questions stay one click away";
    window->labAction()->trigger();
    EXPECT_FALSE(window->isStartPageShown());
    EXPECT_TRUE(window->matrixEditor()->isVisible()) << "and so does the matrix";
}

TEST_F(StartFixture, WithoutATargetThePageSaysToChooseOneFirst)
{
    gui::StartPage page(builtinRegistry(), window->targetPanel()->model());
    page.refresh(nullptr, false, RunOptions{}, {});
    EXPECT_THAT(page.targetLine()->text().toStdString(), HasSubstr("Choose a target first"));
    for (const auto& question : StartPage::questions()) {
        EXPECT_FALSE(page.runButton(question.preset)->isEnabled()) << question.preset.toStdString();
        EXPECT_FALSE(page.preview(question.preset).has_value());
    }
}

// Each question shows the estimate the Plan gives for its preset once it is loaded: one function, previewRun,
// makes both.
TEST_F(StartFixture, EachEstimateIsThePlans)
{
    useTarget();
    ASSERT_TRUE(window->isStartPageShown());
    for (const auto& question : StartPage::questions()) {
        const auto& shown = window->startPage()->preview(question.preset);
        ASSERT_TRUE(shown.has_value()) << question.preset.toStdString();
        ASSERT_TRUE(shown->blocked.isEmpty()) << shown->blocked.toStdString();
        EXPECT_GT(shown->estimate.seconds, 0);
        EXPECT_THAT(window->startPage()->estimateText(question.preset).toStdString(),
                    HasSubstr(formatDuration(shown->estimate.seconds)));
        EXPECT_TRUE(window->startPage()->runButton(question.preset)->isEnabled());
        ASSERT_TRUE(window->matrixEditor()->loadPreset(question.preset));
        IOLAB_TRY_VERIFY(!window->isPlanning(), 10'000);
        EXPECT_EQ(window->plan().cases().size(), shown->cases().size()) << question.preset.toStdString();
        EXPECT_DOUBLE_EQ(window->plan().estimate.seconds, shown->estimate.seconds)
            << question.preset.toStdString();
    }
}

// One click: the preset is loaded and its run starts on the chosen target (stopped at once: its files go).
TEST_F(StartFixture, ClickingAQuestionRunsItsPresetOnTheChosenTarget)
{
    useTarget();
    QSignalSpy started(window->controller(), &RunController::runStarted);
    QSignalSpy ended(window.get(), &MainWindow::runEnded);
    QPushButton* run = window->startPage()->runButton(QStringLiteral("quick"));
    ASSERT_TRUE(run->isEnabled());
    QTest::mouseClick(run, Qt::LeftButton);
    EXPECT_EQ(window->matrixEditor()->currentPreset(), QStringLiteral("quick"));
    ASSERT_TRUE(started.count() > 0 || started.wait(20'000)) << window->bannerText().toStdString();
    EXPECT_THAT(started.first().at(2).toString().toStdString(), HasSubstr(target.path()));
    EXPECT_EQ(started.first().at(0).toInt(), static_cast<int>(window->plan().cases().size()));
    EXPECT_FALSE(window->isStartPageShown()) << "a run shows in the lab's Live tab";
    EXPECT_EQ(window->tabs()->currentWidget(), window->liveCharts());
    EXPECT_FALSE(window->startPageAction()->isEnabled()) << "no question while a run goes";
    window->stopRun();
    ASSERT_TRUE(ended.count() > 0 || ended.wait(30'000));
    EXPECT_TRUE(window->startPageAction()->isEnabled());
}

TEST_F(StartFixture, ChoosingATargetOnThePageSelectsItInTheWindow)
{
    useTarget();
    QComboBox* chooser = window->startPage()->targetChooser();
    EXPECT_EQ(chooser->currentIndex(), window->targetPanel()->model()->rowForKey(q(target.path())));
    const int other = window->targetPanel()->model()->rowForKey(QStringLiteral("null:"));
    ASSERT_GE(other, 0);
    chooser->setCurrentIndex(other);
    Q_EMIT chooser->activated(other);
    EXPECT_EQ(window->currentTargetKey(), QStringLiteral("null:"));
    EXPECT_THAT(window->startPage()->targetLine()->text().toStdString(),
                HasSubstr("choose a folder on a disk"));
    for (const auto& question : StartPage::questions())
        EXPECT_FALSE(window->startPage()->runButton(question.preset)->isEnabled())
            << question.preset.toStdString();
}

// Light and dark (View menu): the page as drawn has the theme's background, and every line of text on it,
// muted text included, reads against what is behind it.
TEST_F(StartFixture, BothPalettesAreReadable)
{
    useTarget();
    for (Theme theme : {Theme::Light, Theme::Dark}) {
        window->setTheme(theme);
        QApplication::processEvents();
        gui::StartPage* page = window->startPage();
        const QImage image = page->grab().toImage();
        const bool dark = theme == Theme::Dark;
        const QColor background = image.pixelColor(4, 4);
        EXPECT_EQ(background.lightnessF() < 0.5, dark)
            << themeName(theme).toStdString() << ": the page's background";
        for (QFrame* card : page->findChildren<QFrame*>(QStringLiteral("questionCard"))) {
            const QPoint inside = card->mapTo(page, QPoint(8, card->height() / 2));
            EXPECT_EQ(image.pixelColor(inside).lightnessF() < 0.5, dark)
                << themeName(theme).toStdString() << ": a card";
        }
        for (QLabel* label : page->findChildren<QLabel*>()) {
            if (label->text().isEmpty() || !label->isVisibleTo(page) || !label->pixmap().isNull())
                continue;
            // The label's area as drawn: its most common colour is what is behind it, its text the pixels
            // farthest from that.
            const QRect area(label->mapTo(page, QPoint(0, 0)), label->size());
            std::map<QRgb, int> counts;
            for (int y = area.top(); y <= area.bottom(); ++y)
                for (int x = area.left(); x <= area.right(); ++x)
                    ++counts[image.pixel(x, y)];
            const QColor behind = QColor::fromRgb(
                std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
                    return a.second < b.second;
                })->first);
            double best = 1;
            for (const auto& [rgb, n] : counts)
                best = std::max(best, contrast(QColor::fromRgb(rgb), behind));
            EXPECT_GE(best, 4.5) << themeName(theme).toStdString() << ": " << label->text().toStdString();
        }
    }
}
