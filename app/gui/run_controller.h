// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/engine_types.h"
#include "core/engine/run_plan.h"
#include "core/model/matrix.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <stop_token>
#include <thread>

namespace iolab {
class Registry;
}

namespace iolab::gui {

class QueuedObserver;

// Runs the engine on a worker thread. Everything the engine reports reaches this object's thread as a queued
// call carrying a value, and leaves it as a signal: no widget ever reaches the engine, and the GUI thread
// never waits for it (Stop only asks; runFinished says when the run is over). The thread is detached: it ends
// on its own after its last call, so starting the next run joins nothing. Only destroying the controller
// mid-run waits, for the run to stop and remove its files.
class RunController : public QObject
{
    Q_OBJECT

public:
    // `registry` is the process's one registry; it outlives the controller.
    explicit RunController(const Registry& registry, QObject* parent = nullptr);
    ~RunController() override;
    RunController(const RunController&) = delete;
    RunController& operator=(const RunController&) = delete;

    bool isRunning() const { return m_running; }

    // Starts a run of exactly the cases of `plan` (case i of the plan is case i of every signal); false with
    // `why` when a run is already going or the plan has nothing to run. Problems found on the worker thread
    // (the target gone since it was planned) come as runFailed.
    bool start(std::shared_ptr<const RunPlan> plan, const RunOptions& options, QString* why = nullptr);
    // Asks the run to stop; it removes its files and ends with runFinished (cancelled).
    void stop();

Q_SIGNALS:
    // The run's cases are settled: how many will run, and those refused with their reasons.
    void runStarted(int caseCount, const std::vector<iolab::RefusedCase>& refused, const QString& target);
    void caseStarted(const iolab::CaseStarted& started);
    void sampleArrived(const iolab::Sample& sample);
    void repetitionFinished(const iolab::RepetitionFinished& finished);
    // After a case's measured repetitions, each kill of its kill -9 probe as it starts.
    void probeKillStarted(const iolab::ProbeKillStarted& kill);
    void caseFinished(const iolab::CaseResult& result);
    void runFinished(const iolab::RunResult& result);
    void runFailed(const QString& message);

private:
    friend class QueuedObserver;
    void finished(std::uint64_t run);

    const Registry& m_registry;
    std::stop_source m_stop; // the run going or the last one's
    // Joined, never detached: a thread still on its way out when the process exits can hold the C runtime's
    // thread-key lock (MinGW's winpthreads), and the exit then waits for it forever.
    std::thread m_thread;
    std::uint64_t m_runId = 0; // a call from an older run than this is dropped
    bool m_running = false;
};

} // namespace iolab::gui
