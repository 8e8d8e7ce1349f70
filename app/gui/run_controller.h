// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/engine_types.h"
#include "core/model/matrix.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

namespace iolab::gui {

// Runs the engine on a worker thread. Everything the engine reports reaches this object's thread as a queued
// call carrying a value, and leaves it as a signal: no widget ever reaches the engine, and the GUI thread
// never waits for it (Stop only asks; runFinished says when the run is over).
class RunController : public QObject
{
    Q_OBJECT

public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;
    RunController(const RunController&) = delete;
    RunController& operator=(const RunController&) = delete;

    bool isRunning() const { return m_running; }

    // Starts a run of `matrix` against the folder `target`; false with `why` when a run is already going.
    // Problems found on the worker thread (a missing target, a matrix with nothing to run) come as runFailed.
    bool start(const Matrix& matrix, const QString& target, const RunOptions& options,
               QString* why = nullptr);
    // Asks the run to stop; it removes its files and ends with runFinished (cancelled).
    void stop();

Q_SIGNALS:
    // The run's cases are settled: how many will run, and those refused with their reasons.
    void runStarted(int caseCount, const std::vector<iolab::RefusedCase>& refused, const QString& target);
    void caseStarted(const iolab::CaseStarted& started);
    void sampleArrived(const iolab::Sample& sample);
    void repetitionFinished(const iolab::RepetitionFinished& finished);
    void caseFinished(const iolab::CaseResult& result);
    void runFinished(const iolab::RunResult& result);
    void runFailed(const QString& message);

private:
    void work(const std::stop_token& stop, const Matrix& matrix, const std::string& target,
              const RunOptions& options);
    void finished();

    std::jthread m_worker;
    bool m_running = false;
};

} // namespace iolab::gui
