// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/target.h"
#include "platform/platform.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

class QStatusBar;

namespace iolab {
class Registry;
}

namespace iolab::gui {

class Banner;
class MatrixEditor;
class PlanPanel;
class RunController;
class RunPresenter;
class TargetPanel;

// The lab's parts a start works with; the window owns them and outlives the starter.
struct RunStarterParts
{
    const Registry* registry = nullptr;
    RunController* controller = nullptr;
    PlanPanel* planPanel = nullptr;
    TargetPanel* targetPanel = nullptr;
    MatrixEditor* editor = nullptr;
    RunPresenter* presenter = nullptr;
    Banner* banner = nullptr;
    QStatusBar* statusBar = nullptr;
};

// Getting from Run to a run under way: the plan made (Run pressed while it is being made starts once it is
// in), the folder target's time estimate calibrated when worth it, the other live IOLab runs on the target
// looked for off the GUI thread and weighed (app/common's policy: refused with a "Run anyway" button, or
// stated in the result), then the run handed to the RunController.
class RunStarter : public QObject
{
    Q_OBJECT

public:
    // `dataFolder` keeps the calibrations; `calibrate` false never makes one (a kept one is still used).
    RunStarter(const RunStarterParts& parts, const QString& dataFolder, bool calibrate,
               QObject* parent = nullptr);
    ~RunStarter() override;
    RunStarter(const RunStarter&) = delete;
    RunStarter& operator=(const RunStarter&) = delete;

    // Run: starts the current plan, or once it is in; false with the reason in the banner.
    bool start();
    // Stop: a start still looking for other runs does not start; a run under way stops.
    void stop();
    // The plan panel showed a new plan: a start waiting for it goes on, a calibration may start.
    void planShown();
    // Stops a calibration under way; it removes its folder on its worker.
    void stopCalibration() { m_calibrationStop.request_stop(); }

    // True from Run until the look for other live IOLab runs on the target is in.
    bool isStarting() const { return m_checkingOthers; }
    // True while a target's calibration runs; Run waits for it.
    bool isCalibrating() const { return m_calibrating; }
    // Busy: a run under way or being started. The target and the matrix are the run's meanwhile.
    bool isBusy() const;
    // What looks for other live IOLab runs; it runs on a worker thread. Tests hold it back.
    void setOtherRunsFinder(std::function<OtherRuns(const std::string&)> finder)
    {
        m_otherRunsFinder = std::move(finder);
    }

    // The folder the current run writes into, and its row's key.
    QString runTarget() const { return m_runTarget; }
    QString runTargetKey() const { return m_runTargetKey; }
    // Why the last run did not start or was not saved; "" when it ran and was saved.
    QString lastRunProblem() const { return m_lastRunProblem; }
    void setLastRunProblem(const QString& problem) { m_lastRunProblem = problem; }
    // The warnings about the run as a whole (other runs beside it), for its result; empty after.
    std::vector<std::string> takeRunWarnings() { return std::exchange(m_runWarnings, {}); }

Q_SIGNALS:
    // The plan should be made again (a calibration came in).
    void replanWanted();
    // What Run, Stop and the panels allow has changed.
    void stateChanged();
    // The run was handed to the controller: the window shows it.
    void runStarting();
    // A run asked for did not start; lastRunProblem says why.
    void startFailed();

private:
    bool startPlannedRun();
    // Starts the planned run once the other live runs on its target are known; false with the banner.
    bool startCheckedRun(const OtherRuns& others);
    void startWhenReady();
    // The plan's estimate over the current folder target's calibration: a kept one is taken at once; where
    // none is kept and the plan would stand on typical figures for 20 s or more, one is made off the GUI
    // thread (Run waits for it, about a second) and the plan made again.
    void calibrateWhenWorthIt();
    void calibrationDone(const QString& key, std::optional<DeviceCalibration> calibration);
    void showBanner(const QString& text, bool error, const QString& actionText = {},
                    std::function<void()> action = {});

    RunStarterParts m_parts;
    QString m_dataFolder;
    bool m_calibrate = true;
    bool m_startWhenPlanned = false; // Run pressed while the plan was being made
    QString m_lastRunProblem;
    bool m_allowConcurrentOnce = false;     // "Run anyway" beside another live run, for the next start only
    std::vector<std::string> m_runWarnings; // about the running run as a whole, added to its result
    QString m_runTarget;                    // the folder the current run writes into
    QString m_runTargetKey;                 // and its row's key
    std::function<OtherRuns(const std::string&)> m_otherRunsFinder = otherRunsFor;
    bool m_checkingOthers = false;      // Run pressed, other runs on the target being looked for
    bool m_calibrating = false;         // a target's calibration runs; Run waits for it
    QSet<QString> m_calibrationTried;   // targets calibrated (or tried) in this session
    std::stop_source m_calibrationStop; // stopped when the starter goes
    quint64 m_startSerial = 0;          // the start that look is for
};

} // namespace iolab::gui
