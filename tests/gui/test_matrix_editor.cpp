// SPDX-License-Identifier: MIT
// The matrix editor: clicks in the grid and text in the axis fields make exactly the expected matrix, and
// presets (built in and the user's own) round-trip.
#include "app/gui/matrix_editor.h"
#include "app/gui/matrix_grid_model.h"
#include "app/gui/preset_files.h"
#include "app/gui/workers.h"
#include "core/base/units.h"
#include "core/formats/matrix_json.h"
#include "core/formats/presets.h"
#include "platform/platform.h"
#include "tests/gui/wait_for.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/temp_dir.h"

#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <nlohmann/json.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <future>

using namespace iolab;
using namespace iolab::gui;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

int rowOf(const MatrixEditor& editor, const std::string& strategy)
{
    const auto& rows = editor.gridModel()->draft().strategies;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].strategy == strategy)
            return static_cast<int>(i);
    }
    return -1;
}

void clickCell(MatrixEditor& editor, const std::string& strategy, std::uint64_t chunk)
{
    QTableView* view = editor.gridView();
    const QModelIndex index =
        editor.gridModel()->index(rowOf(editor, strategy), editor.gridModel()->columnForChunk(chunk));
    view->scrollTo(index);
    const QRect rect = view->visualRect(index);
    ASSERT_TRUE(rect.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
}

// The editor's file work is done off the GUI thread: each waits for its answer, "" or why it failed.
QString savePreset(MatrixEditor& editor, const QString& name)
{
    QSignalSpy saved(editor.presetFiles(), &PresetFiles::saved);
    QString error;
    if (!editor.saveUserPreset(name, &error))
        return error;
    return answerOf(saved, 1);
}

QString deletePreset(MatrixEditor& editor, const QString& name)
{
    QSignalSpy removed(editor.presetFiles(), &PresetFiles::removed);
    QString error;
    if (!editor.deleteUserPreset(name, &error))
        return error;
    return answerOf(removed, 1);
}

QString exportMatrix(MatrixEditor& editor, const std::string& path)
{
    QSignalSpy exported(editor.presetFiles(), &PresetFiles::exported);
    QString error;
    if (!editor.exportMatrixFile(QString::fromStdString(path), &error))
        return error;
    return answerOf(exported, 1);
}

QString importMatrix(MatrixEditor& editor, const std::string& path)
{
    QString answer;
    bool answered = false;
    const auto connection = QObject::connect(editor.presetFiles(), &PresetFiles::imported, &editor,
                                             [&](const QString&, const MatrixDraft&, const QString& error) {
                                                 answer = error;
                                                 answered = true;
                                             });
    editor.importMatrixFile(QString::fromStdString(path));
    const bool came = QTest::qWaitFor([&answered] { return answered; }, kDiskAnswerMs);
    QObject::disconnect(connection);
    return came ? answer : QStringLiteral("no answer came");
}

struct EditorFixture : ::testing::Test
{
    TempDir presets;
    MatrixEditor editor{builtinRegistry(), QString::fromStdString(presets.path())};

    void SetUp() override
    {
        editor.resize(900, 700);
        editor.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&editor));
    }
};

} // namespace

TEST_F(EditorFixture, StartsOnTheQuickPreset)
{
    EXPECT_EQ(editor.currentPreset(), QStringLiteral("quick"));
    EXPECT_EQ(editor.draft().toMatrix(), *findPreset("quick"));
    EXPECT_THAT(editor.presetNames(), ::testing::Contains(QStringLiteral("stdio-per-byte")));
}

TEST_F(EditorFixture, ClicksMakeExactlyTheExpectedMatrix)
{
    editor.setDraft(MatrixDraft::fresh(builtinRegistry()));
    QSignalSpy changed(&editor, &MatrixEditor::changed);
    clickCell(editor, "write", 4 * kKiB);
    clickCell(editor, "write", 1 * kMiB);
    clickCell(editor, "stdio", 1);
    clickCell(editor, "stdio", 4 * kKiB);
    clickCell(editor, "stdio", 4 * kKiB); // and off again
    EXPECT_GE(changed.count(), 5);
    EXPECT_EQ(editor.currentPreset(), QString()) << "edited";

    // The last click selected stdio's row: its axes are what the fields edit.
    EXPECT_EQ(editor.editedStrategies(), QStringList{QStringLiteral("stdio")});
    QString error;
    ASSERT_TRUE(editor.setAxisText(MatrixEditor::Axis::Buffers, QStringLiteral("none, 64K, default"), &error))
        << error.toStdString();
    editor.selectStrategies({QStringLiteral("write")});
    ASSERT_TRUE(editor.setAxisText(MatrixEditor::Axis::Syncs, QStringLiteral("fdatasync-end, none"), &error));
    ASSERT_TRUE(editor.setAxisText(MatrixEditor::Axis::Threads, QStringLiteral("4, 1"), &error));
    ASSERT_TRUE(editor.setAxisText(MatrixEditor::Axis::Sizes, QStringLiteral("64M"), &error));
    EXPECT_FALSE(editor.setAxisText(MatrixEditor::Axis::Buffers, QStringLiteral("64K"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("takes a stdio buffer"));
    EXPECT_FALSE(editor.setAxisText(MatrixEditor::Axis::Threads, QStringLiteral("0"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("thread count '0'"));
    EXPECT_FALSE(editor.setAxisText(MatrixEditor::Axis::Syncs, QStringLiteral("sometimes"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("unknown sync policy"));
    EXPECT_FALSE(editor.setAxisText(MatrixEditor::Axis::Sizes, QString(), &error));

    MatrixGroup stdio;
    stdio.strategies = {"stdio"};
    stdio.chunks = {1};
    stdio.sizes = {256 * kMiB};
    stdio.buffers = {{BufferMode::None, 0}, {BufferMode::Default, 0}, {BufferMode::Bytes, 64 * kKiB}};
    MatrixGroup write;
    write.strategies = {"write"};
    write.chunks = {4 * kKiB, 1 * kMiB};
    write.sizes = {64 * kMiB};
    write.syncs = {{}, {SyncMode::FdatasyncEnd, 0}};
    write.threads = {1, 4};
    const Matrix expected{"", "", {stdio, write}};
    EXPECT_EQ(editor.draft().toMatrix(), expected);
    EXPECT_EQ(editor.axisText(MatrixEditor::Axis::Threads), QStringLiteral("1, 4"));
}

TEST_F(EditorFixture, KeyboardTogglesTheCurrentCell)
{
    editor.setDraft(MatrixDraft::fresh(builtinRegistry()));
    QTableView* view = editor.gridView();
    view->setFocus();
    view->setCurrentIndex(
        editor.gridModel()->index(rowOf(editor, "direct"), editor.gridModel()->columnForChunk(kMiB)));
    QTest::keyClick(view, Qt::Key_Space);
    EXPECT_EQ(editor.draft().find("direct")->chunks, std::vector<std::uint64_t>{kMiB});
}

TEST_F(EditorFixture, EveryPresetLoadsAsItIs)
{
    for (const auto& preset : builtinPresets()) {
        QString error;
        ASSERT_TRUE(editor.loadPreset(QString::fromStdString(preset.name), &error)) << error.toStdString();
        EXPECT_EQ(editor.draft().toMatrix(), preset) << preset.name << "\n"
                                                     << matrixToJson(editor.draft().toMatrix()).dump() << "\n"
                                                     << matrixToJson(preset).dump();
        EXPECT_EQ(editor.currentPreset().toStdString(), preset.name);
    }
    QString error;
    EXPECT_FALSE(editor.loadPreset(QStringLiteral("no-such"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("no preset named"));
}

TEST_F(EditorFixture, AUserPresetRoundTripsThroughTheCliFormat)
{
    ASSERT_TRUE(editor.loadPreset(QStringLiteral("sync-modes")));
    clickCell(editor, "direct", 4 * kKiB);
    const MatrixDraft edited = editor.draft();
    QString error;
    EXPECT_FALSE(editor.saveUserPreset(QStringLiteral("../escape"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("preset name"));
    ASSERT_EQ(savePreset(editor, QStringLiteral("my sync")), QString());
    EXPECT_EQ(editor.currentPreset(), QStringLiteral("user: my sync"));
    EXPECT_TRUE(editor.presetNames().contains(QStringLiteral("user: my sync")));

    // The file is the CLI's matrix JSON. (Closed again before the delete below: Windows deletes no open
    // file.)
    const std::string text = [&] {
        std::ifstream in(presets / "my sync.json");
        return std::string((std::istreambuf_iterator<char>(in)), {});
    }();
    const Matrix saved = parseMatrixJson(text, "saved preset");
    EXPECT_EQ(saved.name, "my sync");
    MatrixDraft expected = edited;
    expected.name = "my sync";
    EXPECT_EQ(saved, expected.toMatrix());

    ASSERT_TRUE(editor.loadPreset(QStringLiteral("quick")));
    ASSERT_TRUE(editor.loadPreset(QStringLiteral("user: my sync"), &error)) << error.toStdString();
    EXPECT_EQ(editor.draft().toMatrix(), expected.toMatrix());

    ASSERT_EQ(deletePreset(editor, QStringLiteral("user: my sync")), QString());
    EXPECT_FALSE(editor.presetNames().contains(QStringLiteral("user: my sync")));
    EXPECT_FALSE(editor.deleteUserPreset(QStringLiteral("quick"), &error));
}

TEST_F(EditorFixture, ImportAndExportSayWhatIsWrong)
{
    std::ofstream(presets / "broken.json") << "{ \"strategies\": [\"stdio\"], ";
    std::string error = importMatrix(editor, presets / "broken.json").toStdString();
    EXPECT_THAT(error, HasSubstr("broken.json: not valid JSON: the text ends at line 1, column 28"));
    EXPECT_THAT(error, ::testing::Not(HasSubstr("json.exception"))) << "a sentence, not a code";
    EXPECT_THAT(importMatrix(editor, presets / "missing.json").toStdString(), HasSubstr("cannot read"));
    std::ofstream(presets / "unknown.json")
        << R"({"strategies":["teleport"],"chunks":["4K"],"sizes":["1M"]})";
    EXPECT_THAT(importMatrix(editor, presets / "unknown.json").toStdString(), HasSubstr("teleport"));
    EXPECT_EQ(editor.draft().toMatrix(), *findPreset("quick")) << "a bad file changes nothing";

    EXPECT_NE(exportMatrix(editor, presets / "no/such/folder.json"), QString());
    ASSERT_EQ(exportMatrix(editor, presets / "out.json"), QString());
    ASSERT_EQ(importMatrix(editor, presets / "out.json"), QString());
    EXPECT_EQ(editor.draft().toMatrix(), *findPreset("quick"));
}

TEST_F(EditorFixture, PresetsAreSavedOffTheGuiThreadAndTheRowWaitsForIt)
{
    ASSERT_TRUE(editor.loadPreset(QStringLiteral("sync-modes")));
    // The presets' pool saves one at a time, in order: held, it shows the save under way.
    std::promise<void> release;
    historyPool()->start([held = release.get_future().share()] { held.wait(); });
    auto* save = editor.findChild<QPushButton*>(QStringLiteral("savePreset"));
    auto* chooser = editor.findChild<QComboBox*>(QStringLiteral("presetChooser"));
    ASSERT_NE(save, nullptr);
    ASSERT_NE(chooser, nullptr);
    QSignalSpy status(editor.presetFiles(), &PresetFiles::statusChanged);
    QSignalSpy saved(editor.presetFiles(), &PresetFiles::saved);
    QString error;
    ASSERT_TRUE(editor.saveUserPreset(QStringLiteral("held"), &error)) << error.toStdString();
    EXPECT_TRUE(editor.isBusyWithPresets());
    EXPECT_FALSE(save->isEnabled());
    EXPECT_FALSE(chooser->isEnabled()) << "the list waits for what the folder will hold";
    ASSERT_FALSE(status.isEmpty());
    EXPECT_EQ(status.constLast().at(0).toString(), QStringLiteral("Saving the preset 'held'..."));
    QTest::qWait(50);
    EXPECT_FALSE(std::filesystem::exists(presets / "held.json")) << "the GUI thread wrote nothing";
    EXPECT_TRUE(saved.isEmpty());

    release.set_value();
    ASSERT_EQ(answerOf(saved, 1), QString());
    EXPECT_TRUE(std::filesystem::exists(presets / "held.json"));
    EXPECT_FALSE(editor.isBusyWithPresets());
    EXPECT_TRUE(save->isEnabled());
    EXPECT_TRUE(chooser->isEnabled());
    EXPECT_EQ(chooser->currentText(), QStringLiteral("user: held"));
    EXPECT_THAT(status.constLast().at(0).toString().toStdString(), HasSubstr("Saved the preset 'held' to"));
}

TEST_F(EditorFixture, AFileThatCannotBeWrittenOrRemovedIsSaidAndNothingIsLost)
{
    // The presets folder's place is taken by a file: no folder can be made there, whoever runs the test.
    TempDir data;
    std::ofstream(data / "presets") << "not a folder\n";
    MatrixEditor blocked(builtinRegistry(), QString::fromStdString(data / "presets"));
    ASSERT_TRUE(blocked.loadPreset(QStringLiteral("sync-modes")));
    blocked.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&blocked));
    clickCell(blocked, "direct", 4 * kKiB);
    const MatrixDraft edited = blocked.draft();
    const QStringList listed = blocked.presetNames();
    QSignalSpy failed(blocked.presetFiles(), &PresetFiles::failed);
    EXPECT_THAT(savePreset(blocked, QStringLiteral("mine")).toStdString(),
                HasSubstr("Cannot create the preset folder"));
    ASSERT_EQ(failed.size(), 1);
    EXPECT_THAT(failed.first().at(0).toString().toStdString(), HasSubstr("Cannot create the preset folder"));
    EXPECT_EQ(blocked.draft(), edited) << "the edits stay, to be saved elsewhere or exported";
    EXPECT_EQ(blocked.currentPreset(), QString());
    EXPECT_EQ(blocked.presetNames(), listed);
    EXPECT_FALSE(blocked.isBusyWithPresets());

    EXPECT_THAT(exportMatrix(blocked, data / "presets/out.json").toStdString(), HasSubstr("presets"));
    EXPECT_EQ(failed.size(), 2);
    EXPECT_EQ(blocked.draft(), edited);

    // A preset deleted behind the editor's back: the delete says why and the list shows what is there.
    ASSERT_EQ(savePreset(editor, QStringLiteral("kept")), QString());
    ASSERT_EQ(savePreset(editor, QStringLiteral("gone")), QString());
    std::filesystem::remove(presets / "gone.json");
    EXPECT_THAT(deletePreset(editor, QStringLiteral("user: gone")).toStdString(), HasSubstr("Cannot delete"));
    EXPECT_FALSE(editor.presetNames().contains(QStringLiteral("user: gone")));
    EXPECT_TRUE(editor.presetNames().contains(QStringLiteral("user: kept")));
    EXPECT_TRUE(std::filesystem::exists(presets / "kept.json"));
}

TEST_F(EditorFixture, AnEmptyAxisIsAProblemNotADefault)
{
    editor.setDraft(MatrixDraft::fresh(builtinRegistry()));
    EXPECT_EQ(editor.draft().problem(), "no strategy has a chunk size ticked");
    QString error;
    EXPECT_FALSE(editor.setAxisText(MatrixEditor::Axis::Sizes, QStringLiteral("1G"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("Tick a chunk size"));
    EXPECT_FALSE(editor.saveUserPreset(QStringLiteral("empty"), &error));
    EXPECT_THAT(error.toStdString(), HasSubstr("no strategy"));
}

TEST_F(EditorFixture, APresetsRepetitionsFillTheRunOptionsAndTravelWithTheMatrix)
{
    EXPECT_EQ(editor.runOptions().repetitions, 5u) << "quick asks for five";
    ASSERT_TRUE(editor.loadPreset(QStringLiteral("stdio-per-byte")));
    EXPECT_EQ(editor.runOptions().repetitions, kDefaultRepetitions)
        << "a preset that says nothing: the default";
    EXPECT_FALSE(editor.draft().toMatrix().repetitions.has_value());

    ASSERT_TRUE(editor.loadPreset(QStringLiteral("quick")));
    RunOptions options = editor.runOptions();
    options.repetitions = 9;
    editor.setRunOptions(options);
    EXPECT_EQ(editor.currentPreset(), QStringLiteral("quick")) << "other repetitions are not another matrix";
    const std::string path = presets.path() + "/nine.json";
    ASSERT_EQ(exportMatrix(editor, path), QString());
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(parseMatrixJson(text, path).repetitions, 9u) << "a saved matrix keeps its repetitions";
}
