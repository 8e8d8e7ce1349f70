// SPDX-License-Identifier: MIT
#include "app/cli/console_observer.h"

#include "core/analysis/estimate.h"
#include "core/analysis/ranking.h"
#include "core/base/units.h"
#include "core/engine/crash_probe.h"
#include "core/engine/exposure.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab::cli {

ConsoleObserver::ConsoleObserver(const ExpandedMatrix& expanded, const RunOptions& options, bool terminal,
                                 bool quiet)
    : m_terminal(terminal), m_quiet(quiet), m_repetitionsPerCase(options.warmups + options.repetitions),
      m_caseCount(static_cast<std::uint32_t>(expanded.cases.size())),
      m_start(std::chrono::steady_clock::now())
{
    for (const auto& c : expanded.cases) {
        const std::uint64_t kills =
            options.crashProbe != 0 && crashProbeRefusal(c).empty() ? options.crashProbe : 0;
        m_plannedPerCase.push_back(c.totalBytes * m_repetitionsPerCase + kills * (c.totalBytes / 2));
        m_plannedBytes += m_plannedPerCase.back();
    }
    m_caseFinishedBytes.assign(m_plannedPerCase.size(), 0);
}

void ConsoleObserver::setCaseEstimates(std::vector<double> caseSeconds)
{
    std::lock_guard lock(m_mutex);
    m_caseEstimates = std::move(caseSeconds);
}

std::optional<double> ConsoleObserver::secondsLeft()
{
    std::lock_guard lock(m_mutex);
    return leftLocked();
}

std::optional<double> ConsoleObserver::leftLocked()
{
    if (m_caseEstimates.size() != m_caseCount || m_caseCount == 0)
        return std::nullopt;
    const auto now = std::chrono::steady_clock::now();
    if (m_alternate) {
        std::vector<double> shares;
        for (std::size_t i = 0; i < m_plannedPerCase.size(); ++i)
            shares.push_back(m_plannedPerCase[i] > 0 ? static_cast<double>(m_caseFinishedBytes[i]) /
                                                           static_cast<double>(m_plannedPerCase[i])
                                                     : 1.0);
        return estimateSecondsLeftInTurns(
            m_caseEstimates, shares,
            m_turnsStart ? std::chrono::duration<double>(now - *m_turnsStart).count() : 0.0);
    }
    const double inCase = std::chrono::duration<double>(now - m_caseStart).count();
    return estimateSecondsLeft(m_caseEstimates, m_caseSeconds, m_caseIndex, inCase);
}

double ConsoleObserver::fraction(std::uint64_t currentBytes)
{
    std::lock_guard lock(m_mutex);
    return doneShare(currentBytes);
}

double ConsoleObserver::doneShare(std::uint64_t currentBytes) const
{
    const std::uint64_t done = std::min(m_plannedBytes, m_finishedBytes + currentBytes);
    return m_plannedBytes > 0 ? static_cast<double>(done) / static_cast<double>(m_plannedBytes) : 0;
}

void ConsoleObserver::caseStarted(const CaseStarted& started)
{
    std::lock_guard lock(m_mutex);
    m_caseIndex = started.index;
    m_caseStart = std::chrono::steady_clock::now();
    m_caseLabel = started.testCase.label();
    m_alternate = started.alternate;
    m_round = started.repetition;
    m_rounds = started.repetitions;
    if (m_alternate && m_round < m_rounds && !m_turnsStart)
        m_turnsStart = m_caseStart;
    if (started.index >= m_plannedPerCase.size()) {
        m_plannedPerCase.resize(started.index + 1, started.testCase.totalBytes * m_repetitionsPerCase);
        m_caseFinishedBytes.resize(started.index + 1, 0);
    }
    m_caseBytes = started.testCase.totalBytes;
    m_killsCounted = 0;
    m_probe.clear();
    if (m_terminal && !m_quiet)
        drawBar(0);
}

void ConsoleObserver::probeKillStarted(const ProbeKillStarted& kill)
{
    std::lock_guard lock(m_mutex);
    m_probe = fmt::format("kill -9 probe {}/{}", kill.kill, kill.kills);
    // The kills before this one are done: half a repetition's bytes each.
    for (; m_killsCounted + 1 < kill.kill; ++m_killsCounted) {
        m_caseFinishedBytes[m_caseIndex] += m_caseBytes / 2;
        m_finishedBytes += m_caseBytes / 2;
    }
    if (m_terminal && !m_quiet)
        drawBar(0);
}

void ConsoleObserver::sample(const Sample& sample)
{
    std::lock_guard lock(m_mutex);
    if (m_terminal && !m_quiet)
        drawBar(sample.bytesDone);
}

void ConsoleObserver::repetitionFinished(const RepetitionFinished& finished)
{
    std::lock_guard lock(m_mutex);
    if (finished.caseIndex >= m_caseFinishedBytes.size()) {
        m_finishedBytes += finished.repetition.bytes;
        return;
    }
    std::uint64_t& done = m_caseFinishedBytes[finished.caseIndex];
    // A repetition that did not succeed ends its case: what it did not write is not waited for.
    const std::uint64_t planned = m_plannedPerCase[finished.caseIndex];
    const std::uint64_t bytes = finished.repetition.outcome.ok() || done >= planned
                                    ? finished.repetition.bytes
                                    : std::max(finished.repetition.bytes, planned - done);
    done += bytes;
    m_finishedBytes += bytes;
}

std::string finishedCaseFigure(const CaseResult& result)
{
    if (result.status != Status::Ok)
        return fmt::format("{}: {}", toString(result.status), result.reason);
    std::string apparent = formatRate(result.apparentMBps.median * kBytesPerMB);
    if (result.filesPerSecond.count > 0)
        return fmt::format("{}, {:.0f} files/s, p99 {:.3g} ms per file", apparent,
                           result.filesPerSecond.median, result.fileP99Seconds * 1e3);
    // Only a write to a file, or a mix's writes, have a durable figure: a pipe, the null device or a pure
    // read has nothing to sync.
    if (!ranksDurable(result.testCase, Ranking::Durable))
        return apparent;
    const std::string durable = formatRate(result.durableMBps.median * kBytesPerMB);
    if (result.atRisk)
        return fmt::format("{} (durable {}, max at risk {})", apparent, durable,
                           formatExposure(*result.atRisk));
    return fmt::format("{} (durable {})", apparent, durable);
}

void ConsoleObserver::caseFinished(const CaseResult& result)
{
    std::lock_guard lock(m_mutex);
    // A case that stopped early leaves its unwritten plan behind; count it as done for the ETA.
    if (result.index < m_caseFinishedBytes.size()) {
        std::uint64_t& finished = m_caseFinishedBytes[result.index];
        if (m_plannedPerCase[result.index] > finished)
            m_finishedBytes += m_plannedPerCase[result.index] - finished;
        finished = m_plannedPerCase[result.index];
    }
    if (m_caseSeconds.size() <= result.index)
        m_caseSeconds.resize(result.index + 1, 0.0);
    m_caseSeconds[result.index] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_caseStart).count();
    if (m_quiet)
        return;
    clearBar();
    const std::string figure = finishedCaseFigure(result);
    std::fprintf(stderr, "[%u/%u] %s  %s\n", result.index + 1, m_caseCount, result.testCase.label().c_str(),
                 figure.c_str());
    std::fflush(stderr);
}

void ConsoleObserver::drawBar(std::uint64_t currentBytes)
{
    const double fraction = doneShare(currentBytes);
    // The time left is the one estimate's (core/analysis/estimate.h), as the app's status bar shows it.
    std::string eta = "--";
    if (const auto left = leftLocked())
        eta = formatDuration(*left);
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(fraction * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::string label = m_caseLabel;
    if (label.size() > 48)
        label = label.substr(0, 47) + "~";
    if (!m_probe.empty())
        label += "  " + m_probe;
    const std::string round = m_alternate && m_round < m_rounds
                                  ? fmt::format("round {}/{}  ", m_round + 1, m_rounds)
                                  : std::string();
    std::fprintf(stderr, "\r\033[2K[%s] %3.0f%%  %scase %u/%u  %s  ETA %s", bar.c_str(), fraction * 100.0,
                 round.c_str(), m_caseIndex + 1, m_caseCount, label.c_str(), eta.c_str());
    std::fflush(stderr);
    m_barShown = true;
}

void ConsoleObserver::clearBar()
{
    if (m_barShown) {
        std::fprintf(stderr, "\r\033[2K");
        m_barShown = false;
    }
}

} // namespace iolab::cli
