// SPDX-License-Identifier: MIT
// The main window's part for a recorded program: File > Open a trace... into the Program tab, Find a faster
// way and Replay on this target through Run's usual start, and File > Record a program....
#include "app/gui/main_window.h"

#include "app/common/recording.h"
#include "app/gui/banner.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/plan_panel.h"
#include "app/gui/program_view.h"
#include "app/gui/record_dialog.h"
#include "app/gui/run_presenter.h"
#include "app/gui/run_starter.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "app/gui/widget_helpers.h"
#include "app/gui/workers.h"
#include "core/analysis/program_advice.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

namespace iolab::gui {

void MainWindow::connectProgramParts()
{
    connect(m_program, &ProgramView::replayRequested, this, &MainWindow::replayTrace);
    connect(m_program, &ProgramView::adviceRequested, this, &MainWindow::adviseOnTrace);
    connect(m_program, &ProgramView::pdfSaved, this, [this](const QString& path) {
        statusBar()->showMessage(tr("Saved the profile as %1.").arg(QDir::toNativeSeparators(path)), 10'000);
    });
    connect(m_targetPanel, &TargetPanel::targetChanged, this, &MainWindow::updateProgramTarget);
    // An edited matrix, a preset or a question loaded: Run is the editor's again.
    connect(m_editor, &MatrixEditor::changed, this, [this] {
        if (m_planPanel->hasMatrixOverride() && !m_starter->isBusy()) {
            m_planPanel->setMatrixOverride(std::nullopt);
            replan();
        }
    });
    connect(m_starter, &RunStarter::runStarting, this, [this] {
        // Find a faster way: its answer needs the program's own calls as its plan read them (a later run that
        // started instead, after a start that failed, is not it).
        if (m_advice && !m_advice->plan && m_planPanel->plan().plan &&
            m_planPanel->plan().matrix.name == m_advice->matrixName)
            m_advice->plan = m_planPanel->plan().plan;
        // The replay runs from the plan it was handed; the panel shows the editor's plan again.
        if (m_planPanel->hasMatrixOverride()) {
            m_planPanel->setMatrixOverride(std::nullopt);
            replan();
        }
    });
    updateProgramTarget();
}

void MainWindow::updateProgramTarget()
{
    const TargetEntry* entry = m_targetPanel->currentEntry();
    if (entry == nullptr) {
        m_program->setTarget(QString(), QString());
        return;
    }
    QString problem = entry->problem;
    if (problem.isEmpty() && entry->kind != TargetEntry::Kind::Folder)
        problem = tr("a replay writes the program's files, so it needs a folder");
    m_program->setTarget(qs(entry->info.path), problem);
}

void MainWindow::openTrace(const QString& path)
{
    const quint64 serial = ++m_traceSerial;
    m_traceOpening = true;
    showLab();
    m_tabs->setCurrentWidget(m_program);
    m_program->showReading(path);
    m_presenter->setText(tr("Reading %1...").arg(QFileInfo(path).fileName()));
    // A trace of ten million calls takes seconds to read: on a worker, the answer dropped when a newer open
    // came meanwhile.
    runOffGuiThread(
        targetPool(), this, [path] { return readProgram(path); },
        [serial, path](MainWindow& window, const ProgramData& program) {
            if (serial != window.m_traceSerial)
                return;
            window.m_traceOpening = false;
            window.m_program->showProgram(program);
            if (program.error.isEmpty()) {
                window.m_presenter->setText(tr("Opened %1.").arg(QFileInfo(path).fileName()));
            } else {
                window.m_presenter->setText(tr("Could not open %1.").arg(QFileInfo(path).fileName()));
                window.showBanner(tr("Cannot open the trace: %1").arg(program.error), true);
            }
            Q_EMIT window.traceOpened(path, program.error);
        });
}

void MainWindow::chooseTrace()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a trace"), QString(), tr("Traces of a program (*.iolab-trace);;All files (*)"));
    if (!path.isEmpty())
        openTrace(path);
}

bool MainWindow::replayTrace(const QString& path)
{
    if (m_starter->isBusy()) {
        showBanner(tr("A run is under way: replay %1 once it is over.").arg(QFileInfo(path).fileName()),
                   true);
        return false;
    }
    // Fields typed and not applied are applied now, before the replay's plan replaces the editor's.
    m_editor->applyPendingFields();
    m_advice.reset(); // a replay alone: no answer to give
    m_planPanel->setMatrixOverride(replayMatrix(path));
    return m_starter->start();
}

namespace {

// Find a faster way's preparation, read off the GUI thread: the matrix of ways (the trace read, each way
// applied to see whether it changes anything) and the program's profile.
struct PreparedAdvice
{
    Matrix matrix;
    ProgramProfile profile;
    QString error;
};

} // namespace

bool MainWindow::adviseOnTrace(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    if (m_starter->isBusy() || m_advicePreparing) {
        showBanner(tr("A run is under way: find a faster way for %1 once it is over.").arg(name), true);
        return false;
    }
    m_advicePreparing = true;
    m_program->setBusy(true);
    m_presenter->setText(tr("Reading %1 for the ways that apply to it...").arg(name));
    // The Program tab read this trace's profile; another trace (a test, a script) is read with the ways.
    std::optional<ProgramProfile> known;
    if (m_program->hasProgram() && QFileInfo(m_program->tracePath()) == QFileInfo(path))
        known = m_program->data().profile;
    const std::string trace = QFileInfo(path).absoluteFilePath().toStdString();
    runOffGuiThread(
        targetPool(), this,
        [path, trace, known] {
            PreparedAdvice prepared;
            try {
                prepared.matrix = adviceMatrix(path);
                prepared.profile = known ? *known : profileOf(trace);
            } catch (const std::exception& e) {
                prepared.error = qs(e.what());
            }
            return prepared;
        },
        [name, trace](MainWindow& window, PreparedAdvice prepared) {
            window.m_advicePreparing = false;
            window.updateActions();
            if (!prepared.error.isEmpty()) {
                window.m_presenter->setText(QString());
                window.showBanner(tr("Cannot find a faster way for %1: %2").arg(name, prepared.error), true);
                return;
            }
            if (window.m_starter->isBusy()) {
                window.showBanner(
                    tr("A run is under way: find a faster way for %1 once it is over.").arg(name), true);
                return;
            }
            window.m_editor->applyPendingFields();
            window.m_advice =
                PendingAdvice{trace, std::move(prepared.profile), nullptr, prepared.matrix.name};
            window.m_planPanel->setMatrixOverride(std::move(prepared.matrix));
            if (!window.m_starter->start()) {
                window.m_advice.reset();
                return;
            }
            window.m_presenter->setText(
                tr("Finding a faster way for %1: each way %2 times...").arg(name).arg(kAdviceRepetitions));
        });
    return true;
}

void MainWindow::showRecordDialog()
{
    if (m_recordDialog == nullptr) {
        auto* dialog = new RecordDialog(this);
        connect(dialog, &RecordDialog::traceWritten, this, &MainWindow::openTrace);
        m_recordDialog = dialog;
    }
    m_recordDialog->show();
    m_recordDialog->raise();
    m_recordDialog->activateWindow();
}

} // namespace iolab::gui
