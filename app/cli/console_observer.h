// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/runner.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace iolab::cli {

// What a finished case's progress line says of it: its rate, with the durable one (and the bytes at risk)
// only where the case has one (a write to a file, a mix), or why it did not run.
std::string finishedCaseFigure(const CaseResult& result);

// Progress on stderr: a redrawn bar with case k of n and an ETA on a terminal, one line per finished case
// otherwise.
class ConsoleObserver final : public RunObserver
{
public:
    ConsoleObserver(const ExpandedMatrix& expanded, const RunOptions& options, bool terminal, bool quiet);

    void caseStarted(const CaseStarted& started) override;
    void sample(const Sample& sample) override;
    void repetitionFinished(const RepetitionFinished& finished) override;
    void probeKillStarted(const ProbeKillStarted& kill) override;
    void caseFinished(const CaseResult& result) override;

    // The share of the planned work done (for the bar): the bytes of finished repetitions and of the running
    // one, with each kill -9 probe run counted as half a repetition's bytes.
    double fraction(std::uint64_t currentBytes = 0);
    // Each case's estimated seconds (DurationEstimate::caseSeconds): the bar's time left then comes from the
    // estimate, paced by the cases done, as the app's status bar says it (estimateSecondsLeft).
    void setCaseEstimates(std::vector<double> caseSeconds);
    // The time left the bar shows, in seconds; nullopt before anything says.
    std::optional<double> secondsLeft();

private:
    double doneShare(std::uint64_t currentBytes) const; // under m_mutex
    void drawBar(std::uint64_t currentBytes);
    void clearBar();

    std::mutex m_mutex;
    bool m_terminal;
    bool m_quiet;
    std::uint64_t m_plannedBytes = 0;
    std::uint64_t m_finishedBytes = 0;              // of finished repetitions and skipped plans
    std::vector<std::uint64_t> m_plannedPerCase;    // repetitions and probe runs, by case index
    std::uint64_t m_caseBytes = 0;                  // one repetition of the running case
    std::uint32_t m_killsCounted = 0;               // of the running case's probe, counted as done
    std::vector<std::uint64_t> m_caseFinishedBytes; // by case index
    // Cases that take turns (RunOptions::alternate): the round running and how many.
    bool m_alternate = false;
    // The first turn: the preparation before it (data sets written) is not paced.
    std::optional<std::chrono::steady_clock::time_point> m_turnsStart;
    std::uint32_t m_round = 0;
    std::uint32_t m_rounds = 0;
    std::uint32_t m_repetitionsPerCase = 0;
    std::uint32_t m_caseIndex = 0;
    std::uint32_t m_caseCount = 0;
    std::string m_caseLabel;
    std::string m_probe; // "kill -9 probe 2/5" while the running case's probe goes
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_caseStart;
    std::vector<double> m_caseEstimates; // seconds, by case index
    std::vector<double> m_caseSeconds;   // the wall time of each finished case
    std::optional<double> leftLocked();  // under m_mutex
    bool m_barShown = false;
};

} // namespace iolab::cli
