// SPDX-License-Identifier: MIT
// The kill -9 probe (issues 17 and 34): a write case runs again in a child process (core/engine/case_child.h)
// that publishes after every call what its API has acknowledged (fwrite returned, the copy into a mapping
// ended, a completion was reaped, write returned). By default each of its writers stops itself right after
// the call whose acknowledgement crosses a byte count drawn for the kill, and the runner kills it there with
// SIGKILL (TerminateProcess): each kill tests what the API had promised when it returned, wherever the time
// goes. Optionally the kill comes at a drawn moment instead. Then every file is read back. What a crashed
// process loses is what its API had acknowledged but never handed to the kernel: a stdio buffer, a user-space
// batch; the strategy's declaration says how much that can be (userSpaceHold), which the answer gives beside
// what the kills saw. The page cache survives a process crash, so this is not what a power cut loses (that is
// the exposure figure's question).
#pragma once

#include "core/base/outcome.h"
#include "core/engine/case_child.h"
#include "core/model/result.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace iolab {

class Pattern;
class Registry;
class Workspace;
struct StrategyInfo;
struct StdioRuntime;

// One file's bytes after a kill, against the pattern and the acknowledged position.
class KillFileCheck
{
public:
    KillFileCheck(const Pattern& pattern, std::uint64_t acknowledged, std::uint64_t patternOffset = 0)
        : m_pattern(pattern), m_acknowledged(acknowledged), m_patternOffset(patternOffset)
    {}

    void add(const std::byte* data, std::size_t size);

    std::uint64_t size() const { return m_size; }
    std::uint64_t correctBelow() const
    {
        return m_correctBelow;
    } // correct bytes before the acknowledged position
    std::uint64_t correctAbove() const { return m_correctAbove; } // ... at or beyond it
    std::uint64_t correct() const { return m_correctBelow + m_correctAbove; }
    std::uint64_t zeros() const { return m_zeros; }
    std::uint64_t wrong() const { return m_wrong; }   // neither the pattern's byte nor zero
    std::uint64_t prefix() const { return m_prefix; } // the leading run of correct bytes

private:
    void classify(std::uint64_t at, const std::byte* data, std::size_t size);
    void countCorrect(std::uint64_t at, std::uint64_t n);

    const Pattern& m_pattern;
    std::uint64_t m_acknowledged;
    std::uint64_t m_patternOffset;
    std::uint64_t m_size = 0;
    std::uint64_t m_correctBelow = 0;
    std::uint64_t m_correctAbove = 0;
    std::uint64_t m_zeros = 0;
    std::uint64_t m_wrong = 0;
    std::uint64_t m_prefix = 0;
    bool m_prefixOpen = true;
};

// How a thread's writes land, which decides what "acknowledged" covers: in order (a blocking call per chunk
// from the file's start), the acknowledged bytes are a prefix and a missing byte below it is lost; otherwise
// (random offsets, a queue deeper than 1, threads sharing one file) only the count is known, and what is
// lost is the acknowledged count less the correct bytes found.
bool acknowledgesInOrder(const Case& c, const StrategyInfo& info);

// A thread's data file (and, for a strategy that keeps its batch in a file-backed mapping, its scratch file)
// read back after a kill, added into `kill`.
void addThreadCheck(KillCheck& kill, std::uint64_t acknowledged, bool inOrder, const KillFileCheck& data,
                    const KillFileCheck* scratch);

// The most bytes a stdio stream holds when a call has returned: calls of `chunkBytes` into a buffer of
// `bufferBytes` (0: unbuffered) under `runtime`'s rules, on a stream that writes `streamBytes` in all.
std::uint64_t stdioHeldBytes(const StdioRuntime& runtime, std::uint64_t bufferBytes, std::uint64_t chunkBytes,
                             std::uint64_t streamBytes);

// What the strategy keeps in user space for the case on this target, from its declaration (StrategyInfo's
// stdioRuntime with the case's buffer axis; holdsBackBytes with keepsBatchInScratchFile), each of its
// writers writing `writerBytes`.
UserSpaceHold userSpaceHold(const Case& c, const StrategyInfo& info, const TargetInfo& target,
                            std::uint64_t writerBytes);

// How one case's probe runs: `kills` runs, killed where `at` says, drawn from `seed`. `typicalSeconds` and
// `typicalBytes`: how long a measured repetition of the case took and what it wrote (a time-limited case's
// size may be far beyond that; 0: its size): acknowledgement points are drawn within those bytes, moments
// within that time (or that share of the case's bytes, whichever the child reaches first).
struct CrashProbePlan
{
    std::uint32_t kills = 0;
    std::uint64_t seed = 0;
    CrashProbeAt at = CrashProbeAt::Ack;
    double typicalSeconds = 0;
    std::uint64_t typicalBytes = 0;
};

// One probe of one case, each kill in a child started by `launcher`, files named c<case>-k<kill>-t<thread>
// in the workspace and removed afterwards. Stops early, with what it has, when `stop` is set. `onKill(k)`,
// when given, is told as kill k (1-based) starts.
CrashProbeResult runCrashProbe(std::uint32_t caseIndex, const Case& c, const StrategyInfo& info,
                               const CrashProbePlan& plan, CaseChildLauncher& launcher, Workspace& workspace,
                               const std::atomic<bool>& stop,
                               const std::function<void(std::uint32_t)>& onKill = {});

// Why the probe does not apply to this case ("" when it does): it checks what a writer to files lost.
std::string crashProbeRefusal(const Case& c);

// How a run's kills were placed, for a report: "5 kills per write case, each right after the call whose
// acknowledgement crossed a byte count drawn from seed 7".
std::string crashProbeMethod(const RunOptions& options);

// The probe's answer in words, what the kills saw beside what the design allows: "survives kill -9: yes (5
// kills right after a call returned, nothing acknowledged was lost)", "survives kill -9: no: lost up to
// 112 KiB in 3 of 5 kills right after a call returned; can lose up to 1 MiB, its 1 MiB stdio buffer".
// `info` stands in for the design in files from before issue 34, which did not record it.
std::string crashProbeVerdict(const CrashProbeResult& probe, const Case& c, const StrategyInfo* info);

// The probe's answers for a run's Summary, one sentence per case it probed (the cases that keep nothing in
// user space and lost nothing share one), each case named by `name`.
std::vector<std::string> crashProbeAnswers(const RunResult& result, const Registry* registry,
                                           const std::function<std::string(const Case&)>& name);

} // namespace iolab
