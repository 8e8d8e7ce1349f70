// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/run_preview.h"
#include "core/model/result.h"

#include <QFrame>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace iolab {
class Registry;
}

namespace iolab::gui {

class TargetModel;

// The idle window's first page (issue 34): the questions IOLab answers, each one click to run its preset on
// the chosen target with the time the Plan would estimate for it; comparing with another machine; and the
// strategy matrix one click away for everything else.
class StartPage : public QWidget
{
    Q_OBJECT

public:
    // A question answered by running a preset.
    struct Question
    {
        QString preset;
        QString title;
        QString answers; // the one line saying what it answers
        QString runs;    // what it runs, in words
    };
    // The questions in the page's order: health-check, quick, data-safety.
    static const std::vector<Question>& questions();

    // `registry` outlives the page; `targets` is the window's target list, which the page's chooser shows.
    StartPage(const Registry& registry, TargetModel* targets, QWidget* parent = nullptr);

    // Shows the target and plans each question's preset on it with the run options it would run with:
    // `target` nullptr when none is selected, `pending` while its facts are being learned. Each estimate
    // comes from previewRun, as the Plan's does.
    void refresh(const TargetEntry* target, bool pending, const RunOptions& options,
                 const std::vector<CaseResult>& known);
    // The run options a preset runs with, from the options the matrix editor holds (warm-ups, verification,
    // cache dropping): its own repetitions and kill -9 probe, as loading it in the editor sets them.
    static RunOptions optionsFor(const Matrix& preset, RunOptions options);

    // What the page shows for a question: its plan (nullopt before update or without a target).
    const std::optional<RunPreview>& preview(const QString& preset) const;
    QString estimateText(const QString& preset) const;
    QPushButton* runButton(const QString& preset) const;
    QComboBox* targetChooser() const { return m_targetChooser; }
    QLabel* targetLine() const { return m_targetLine; }
    QPushButton* customMatrixButton() const { return m_custom; }
    QPushButton* compareButton() const { return m_openHistory; }
    QPushButton* importButton() const { return m_import; }
    // Takes the window's palette (View > light, dark, system), the page's own colours made from it.
    void followPalette(const QPalette& palette);

Q_SIGNALS:
    void runRequested(const QString& preset);
    void targetChosen(const QString& key);
    void chooseFolderRequested();
    void historyRequested();
    void importRequested();
    void customMatrixRequested();
    void openResultRequested();

private:
    struct Card
    {
        QString preset;
        QFrame* frame = nullptr;
        QLabel* estimate = nullptr;
        QLabel* blocked = nullptr;
        QPushButton* run = nullptr;
        std::optional<RunPreview> preview;
    };
    QFrame* makeCard(const QString& title, const QString& answers, const QString& runs);
    void selectChooserRow(const QString& key);

    const Registry& m_registry;
    TargetModel* m_targets;
    QLabel* m_title = nullptr;
    QLabel* m_subtitle = nullptr;
    QComboBox* m_targetChooser = nullptr;
    QPushButton* m_chooseFolder = nullptr;
    QLabel* m_targetLine = nullptr;
    std::vector<Card> m_cards;
    QPushButton* m_import = nullptr;
    QPushButton* m_openHistory = nullptr;
    QPushButton* m_custom = nullptr;
    QPushButton* m_openResult = nullptr;
    QString m_targetKey;
    bool m_targetProblem = false; // the target line says why no question can run
};

} // namespace iolab::gui
