// SPDX-License-Identifier: MIT
// The kill -9 probe (issue 17): a write case runs again in a child process (core/engine/case_child.h) that
// publishes after every call what its API has acknowledged (fwrite returned, the copy into a mapping ended, a
// completion was reaped, write returned); the runner kills it with SIGKILL (TerminateProcess) at a seeded
// random moment of its writes, then reads every file back. What a crashed process loses is what its API had
// acknowledged but never handed to the kernel: a stdio buffer, a user-space batch. The page cache survives a
// process crash, so this is not what a power cut loses (that is the exposure figure's question).
#pragma once

#include "core/base/outcome.h"
#include "core/engine/case_child.h"
#include "core/model/result.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace iolab {

class Pattern;
class Workspace;
struct StrategyInfo;

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

// One probe of one case, each kill in a child started by `launcher`, files named c<case>-k<kill>-t<thread>
// in the workspace and removed afterwards. `typicalSeconds`: how long a repetition of the case took (the
// kill comes at a seeded share of it, or of the case's bytes, whichever the child reaches first). Stops
// early, with what it has, when `stop` is set. `onKill(k)`, when given, is told as kill k (1-based) starts.
CrashProbeResult runCrashProbe(std::uint32_t caseIndex, const Case& c, const StrategyInfo& info,
                               std::uint32_t kills, std::uint64_t seed, double typicalSeconds,
                               CaseChildLauncher& launcher, Workspace& workspace,
                               const std::atomic<bool>& stop,
                               const std::function<void(std::uint32_t)>& onKill = {});

// Why the probe does not apply to this case ("" when it does): it checks what a writer to files lost.
std::string crashProbeRefusal(const Case& c);

// The probe's answer in words: "survives kill -9: yes (5 kills, nothing acknowledged lost)", "survives kill
// -9: no: loses up to 64 KiB (what fwrite returned for was still in the stdio buffer)".
std::string crashProbeVerdict(const CrashProbeResult& probe, const StrategyInfo* info);

} // namespace iolab
