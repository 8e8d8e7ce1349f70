// SPDX-License-Identifier: MIT
#include "app/gui/run_starter.h"
#include "app/gui/widget_helpers.h"

#include "app/common/concurrent_runs.h"
#include "app/gui/banner.h"
#include "app/gui/matrix_editor.h"
#include "app/gui/plan_panel.h"
#include "app/gui/run_controller.h"
#include "app/gui/run_presenter.h"
#include "app/gui/target_model.h"
#include "app/gui/target_panel.h"
#include "app/gui/workers.h"
#include "core/base/log.h"
#include "core/engine/crash_probe.h"
#include "platform/calibration.h"

#include <QStatusBar>

namespace iolab::gui {

RunStarter::RunStarter(const RunStarterParts& parts, const QString& dataFolder, bool calibrate,
                       QObject* parent)
    : QObject(parent), m_parts(parts), m_dataFolder(dataFolder), m_calibrate(calibrate)
{}

RunStarter::~RunStarter()
{
    m_calibrationStop.request_stop(); // a calibration under way stops and removes its folder
}

bool RunStarter::isBusy() const
{
    return m_parts.controller->isRunning() || m_checkingOthers;
}

void RunStarter::showBanner(const QString& text, bool error, const QString& actionText,
                            std::function<void()> action)
{
    m_parts.banner->showMessage(text, error, actionText, std::move(action));
}

bool RunStarter::start()
{
    if (m_parts.controller->isRunning())
        return false;
    // Text typed into an axis field and not yet applied (Run pressed without leaving the field) runs as
    // typed.
    m_parts.editor->applyPendingFields();
    m_lastRunProblem.clear();
    Q_EMIT replanWanted();
    if (m_parts.planPanel->isPlanning() || m_parts.planPanel->isWaitingForTarget()) {
        // A large matrix, or a folder still being looked at: the run starts once its plan is in.
        m_startWhenPlanned = true;
        m_parts.presenter->setText(tr("Planning the run..."));
        return true;
    }
    return startPlannedRun();
}

void RunStarter::stop()
{
    if (m_checkingOthers) {
        // Stopped before it started: the look for other runs is dropped when it answers.
        ++m_startSerial;
        m_checkingOthers = false;
        m_parts.presenter->setText(tr("The run did not start."));
        m_lastRunProblem = tr("The run was stopped before it started.");
        Q_EMIT stateChanged();
        Q_EMIT startFailed();
        return;
    }
    if (!m_parts.controller->isRunning() || m_parts.presenter->isStopping())
        return;
    m_parts.controller->stop();
    m_parts.presenter->stopping();
    Q_EMIT stateChanged();
}

void RunStarter::planShown()
{
    startWhenReady();
    calibrateWhenWorthIt();
}

void RunStarter::startWhenReady()
{
    if (m_calibrating)
        return; // once the calibration is in, the plan is made again and the run starts from there
    if (!std::exchange(m_startWhenPlanned, false))
        return;
    if (startPlannedRun())
        return;
    // Run was pressed (or --run given) and said yes while the plan was being made: the run that did not
    // start ends as one that failed to, with the reason the banner gives.
    const QString banner = m_parts.banner->text();
    const QString why = banner.isEmpty() ? m_parts.planPanel->plan().blocked : banner;
    m_parts.presenter->setText(tr("The run did not start."));
    m_lastRunProblem = tr("The run cannot start: %1").arg(why);
    Q_EMIT startFailed();
}

bool RunStarter::startPlannedRun()
{
    if (isBusy())
        return false;
    const RunPreview& planned = m_parts.planPanel->plan();
    if (!planned.blocked.isEmpty()) {
        showBanner(planned.blocked, true);
        return false;
    }
    const TargetEntry& target = *m_parts.targetPanel->currentEntry();
    if (target.kind != TargetEntry::Kind::Folder)
        return startCheckedRun({});
    // Other live IOLab runs are looked for off the GUI thread (it reads the run folders and the process
    // table); the run starts when the answer is in. Meanwhile the target and the matrix are the run's.
    m_checkingOthers = true;
    m_runTarget = qs(target.info.path);
    m_runTargetKey = target.key();
    const quint64 serial = ++m_startSerial;
    m_parts.presenter->setText(tr("Looking for other IOLab runs on %1...").arg(m_runTarget));
    Q_EMIT stateChanged();
    runOffGuiThread(
        targetPool(), this, [find = m_otherRunsFinder, path = target.info.path] { return find(path); },
        [serial](RunStarter& starter, const OtherRuns& others) {
            if (serial != starter.m_startSerial)
                return; // Stop or a close came first: this start is no longer wanted
            starter.m_checkingOthers = false;
            if (starter.startCheckedRun(others))
                return;
            starter.m_parts.presenter->setText(tr("The run did not start."));
            starter.m_lastRunProblem = tr("The run cannot start: %1").arg(starter.m_parts.banner->text());
            Q_EMIT starter.stateChanged();
            Q_EMIT starter.startFailed();
        });
    return true;
}

bool RunStarter::startCheckedRun(const OtherRuns& others)
{
    const RunPreview& planned = m_parts.planPanel->plan();
    if (!planned.blocked.isEmpty() || m_parts.targetPanel->currentEntry() == nullptr) {
        showBanner(planned.blocked.isEmpty() ? tr("No target is selected.") : planned.blocked, true);
        return false;
    }
    const TargetEntry& target = *m_parts.targetPanel->currentEntry();
    // Two runs on one target measure each other: refused unless the user says to run anyway, and then stated
    // in the result (the policy and its sentences are the CLI's too).
    ConcurrentRuns weighed;
    if (target.kind == TargetEntry::Kind::Folder) {
        weighed = weighConcurrentRuns(others, m_allowConcurrentOnce);
        if (weighed.refusedBy) {
            showBanner(tr("Another IOLab run (process %1) is writing into %2 now: two runs at once measure "
                          "each other. Wait for it to end, or run anyway.")
                           .arg(weighed.refusedBy->pid)
                           .arg(qs(target.info.path)),
                       true, tr("Run anyway"), [this] {
                           m_allowConcurrentOnce = true;
                           start();
                       });
            return false;
        }
    }
    m_allowConcurrentOnce = false;
    RunOptions options = m_parts.editor->runOptions();
    if (m_parts.planPanel->hasMatrixOverride())
        options = optionsForOverride(planned.matrix, options);
    QString why;
    if (!m_parts.controller->start(planned.plan, options, &why)) {
        showBanner(why, true);
        return false;
    }
    m_parts.banner->dismiss();
    m_runWarnings = std::move(weighed.warnings);
    if (!m_runWarnings.empty()) {
        QString text = qs(m_runWarnings.front());
        text[0] = text[0].toUpper();
        showBanner(text, true);
    }
    m_runTarget = qs(target.info.path);
    m_runTargetKey = target.key();
    // Weighed by the plan the worker runs: case i here is case i of every signal it sends.
    std::vector<std::uint32_t> probeKills;
    for (const Case& c : planned.plan->cases())
        probeKills.push_back(options.crashProbe != 0 && crashProbeRefusal(c).empty() ? options.crashProbe
                                                                                     : 0);
    m_parts.presenter->runStarting(planned.caseSeconds, options.repetitions + options.warmups, probeKills);
    Q_EMIT runStarting();
    logger(LogModule::Gui).info("run started: {} case(s) on {}", planned.cases().size(), target.info.path);
    Q_EMIT stateChanged();
    return true;
}

void RunStarter::calibrateWhenWorthIt()
{
    constexpr double kCalibrateFromSeconds = 20; // as iolab-cli: below that, a second of I/O is not worth it
    if (m_calibrating || m_startWhenPlanned || isBusy())
        return;
    TargetPanel& targets = *m_parts.targetPanel;
    const TargetEntry* entry = targets.currentEntry();
    if (entry == nullptr || entry->kind != TargetEntry::Kind::Folder || !entry->problem.isEmpty() ||
        !entry->info.capabilitiesProbed || entry->info.calibration || targets.isInspecting())
        return;
    const RunPreview& planned = m_parts.planPanel->plan();
    if (planned.cases().empty() || !planned.usesDisk || planned.estimate.calibrated)
        return;
    const std::string folder = m_dataFolder.toStdString();
    if (auto kept = storedCalibration(folder, entry->info)) {
        TargetEntry calibrated = *entry;
        calibrated.info.calibration = std::move(kept);
        targets.model()->updateEntry(calibrated);
        Q_EMIT replanWanted();
        return;
    }
    const QString key = entry->key();
    if (!m_calibrate || planned.estimate.seconds < kCalibrateFromSeconds || m_calibrationTried.contains(key))
        return;
    m_calibrationTried.insert(key);
    m_calibrating = true;
    m_parts.statusBar->showMessage(
        tr("Calibrating the time estimate on %1: about a second of I/O in a marked folder "
           "there, removed after...")
            .arg(qs(entry->info.path)));
    Q_EMIT stateChanged();
    logger(LogModule::Gui).info("calibrating the time estimate on {}", entry->info.path);
    runOffGuiThread(
        targetPool(), this,
        [info = entry->info, folder, registry = m_parts.registry, stop = m_calibrationStop.get_token()] {
            auto calibration = calibrateTarget(info, *registry, stop);
            if (calibration)
                storeCalibration(folder, info, *calibration);
            return calibration;
        },
        [key](RunStarter& starter, std::optional<DeviceCalibration> calibration) {
            starter.calibrationDone(key, std::move(calibration));
        });
}

void RunStarter::calibrationDone(const QString& key, std::optional<DeviceCalibration> calibration)
{
    m_calibrating = false;
    const TargetEntry* entry = m_parts.targetPanel->currentEntry();
    if (calibration && entry != nullptr && entry->key() == key) {
        TargetEntry calibrated = *entry;
        calibrated.info.calibration = std::move(calibration);
        m_parts.targetPanel->model()->updateEntry(calibrated);
        m_parts.statusBar->showMessage(tr("The time estimate is calibrated on %1.").arg(qs(entry->info.path)),
                                       5000);
    } else if (!calibration) {
        m_parts.statusBar->showMessage(
            tr("The target could not be calibrated: the estimate stands on typical figures."), 5000);
    }
    Q_EMIT replanWanted();
    Q_EMIT stateChanged();
}

} // namespace iolab::gui
