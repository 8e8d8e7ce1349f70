// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/run_plan.h"
#include "core/model/matrix.h"
#include "core/model/result.h"

#include <atomic>
#include <cstdint>
#include <stop_token>

namespace iolab {

class CaseChildLauncher;
struct StrategyInfo;

class Registry;
class SystemProbe;
class Workspace;

// A case starts, or (a run whose cases take turns, RunOptions::alternate) its next repetition does: then
// `alternate` is set and `repetition` (warm-ups first) and `repetitions` say which of how many; `repetition`
// equal to `repetitions` is past its turns: its kill -9 probe starts, or it was settled (refused) before the
// first round.
struct CaseStarted
{
    std::uint32_t index = 0;
    std::uint32_t count = 0;
    Case testCase;
    bool alternate = false;
    std::uint32_t repetition = 0;
    std::uint32_t repetitions = 0;
};

struct RepetitionFinished
{
    std::uint32_t caseIndex = 0;
    RepetitionResult repetition;
};

// A kill of the kill -9 probe starts (after the case's measured repetitions): kill `kill` of `kills`.
struct ProbeKillStarted
{
    std::uint32_t caseIndex = 0;
    std::uint32_t kill = 0; // 1-based
    std::uint32_t kills = 0;
};

// Callbacks carry value types only. sample() comes from the sampler thread, the others from the thread that
// called Runner::run(); a GUI forwards them with queued signals.
class RunObserver
{
public:
    virtual ~RunObserver() = default;
    virtual void caseStarted(const CaseStarted&) {}
    virtual void sample(const Sample&) {}
    virtual void repetitionFinished(const RepetitionFinished&) {}
    virtual void probeKillStarted(const ProbeKillStarted&) {}
    virtual void caseFinished(const CaseResult&) {}
    virtual void runFinished(const RunResult&) {}
};

// Runs the cases one after another (the threads of a case in parallel): warm-ups, then measured repetitions,
// sampling at 10 Hz, removing every file after each repetition and the run folder at the end. With
// RunOptions::alternate the cases take turns instead: every case is made ready first (its data set written),
// then each round runs one repetition of every case, the order reversed every other round (A B C, C B A), so
// that a device whose speed drifts over the minutes weighs on every case alike; each case finishes (its
// kill -9 probe, caseFinished) after the last round, one refused when made ready at once.
class Runner
{
public:
    Runner(const Registry& registry, Workspace& workspace, SystemProbe& probe);

    // Runs the plan's cases as they stand: case i of the plan is case i of every callback and of the result.
    RunResult run(const RunPlan& plan, const RunOptions& options, const std::stop_token& stop,
                  RunObserver* observer = nullptr);

    // How the kill -9 probe starts its case children (the platform's; without one a run that asks for the
    // probe records why it could not run it).
    void setCaseChildLauncher(CaseChildLauncher* launcher) { m_launcher = launcher; }

private:
    CrashProbeResult probeCase(std::uint32_t caseIndex, const Case& c, const StrategyInfo& info,
                               const CaseResult& measured, const RunOptions& options,
                               const std::atomic<bool>& stop, RunObserver* observer);

    const Registry& m_registry;
    Workspace& m_workspace;
    SystemProbe& m_probe;
    CaseChildLauncher* m_launcher = nullptr;
};

// Fills a case's statistics from its repetitions and samples: MB/s summaries over the measured, successful
// repetitions; CPU seconds per GiB; peak RSS; stability = stddev of the write-phase interval MB/s.
void summarizeCase(CaseResult& result);

// Space a case needs on the target: a writer its data, scratch files and a margin for the filesystem; a
// reader the data set it reads (written once per run and shared by the cases that read the same files).
std::uint64_t spaceNeeded(const Case& c);

} // namespace iolab
