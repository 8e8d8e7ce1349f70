// SPDX-License-Identifier: MIT
#include "core/engine/crash_probe.h"

#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/memory_budget.h"
#include "core/engine/pattern.h"
#include "core/engine/strategy.h"
#include "core/engine/workspace.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <limits>
#include <random>
#include <thread>

namespace iolab {

namespace {

constexpr std::size_t kZeroBlock = 4096;
const std::array<std::byte, kZeroBlock> kZeros{};

using Clock = std::chrono::steady_clock;

// How long a child may take to open its files and say it is ready.
constexpr auto kReadyTimeout = std::chrono::seconds(60);
constexpr auto kPoll = std::chrono::microseconds(100);

} // namespace

std::optional<bool> CrashProbeResult::survives() const
{
    if (landedKills() == 0)
        return std::nullopt;
    return std::none_of(kills.begin(), kills.end(), [](const KillCheck& k) {
        return k.landed && (k.lostBytes != 0 || k.wrongBytes != 0);
    });
}

std::uint64_t CrashProbeResult::worstLossBytes() const
{
    std::uint64_t worst = 0;
    for (const auto& k : kills)
        worst = std::max(worst, k.landed ? k.lostBytes : 0);
    return worst;
}

std::uint64_t CrashProbeResult::worstScratchBytes() const
{
    std::uint64_t worst = 0;
    for (const auto& k : kills)
        worst = std::max(worst, k.landed ? k.scratchBytes : 0);
    return worst;
}

std::size_t CrashProbeResult::landedKills() const
{
    return static_cast<std::size_t>(
        std::count_if(kills.begin(), kills.end(), [](const KillCheck& k) { return k.landed; }));
}

void KillFileCheck::countCorrect(std::uint64_t at, std::uint64_t n)
{
    const std::uint64_t below = at >= m_acknowledged ? 0 : std::min(n, m_acknowledged - at);
    m_correctBelow += below;
    m_correctAbove += n - below;
    if (m_prefixOpen)
        m_prefix += n;
}

void KillFileCheck::classify(std::uint64_t at, const std::byte* data, std::size_t size)
{
    // Correct spans go by memcmp; past a mismatch a 4 KiB block of zeros (a hole, a file sized beforehand) is
    // taken whole, anything else byte by byte.
    std::size_t done = 0;
    while (done < size) {
        const auto mismatch = m_pattern.firstMismatch(m_patternOffset + at + done, data + done, size - done);
        const std::size_t good = mismatch ? static_cast<std::size_t>(*mismatch) : size - done;
        countCorrect(at + done, good);
        done += good;
        if (done == size)
            return;
        m_prefixOpen = false;
        const std::size_t block = std::min(kZeroBlock, size - done);
        if (std::memcmp(data + done, kZeros.data(), block) == 0) {
            m_zeros += block;
            done += block;
            continue;
        }
        // Pattern bytes are never zero: a byte is correct, zero, or wrong.
        const std::size_t end = done + block;
        for (; done < end; ++done) {
            if (data[done] == Pattern::expected(m_patternOffset + at + done))
                countCorrect(at + done, 1);
            else if (data[done] == std::byte{0})
                ++m_zeros;
            else
                ++m_wrong;
        }
    }
}

void KillFileCheck::add(const std::byte* data, std::size_t size)
{
    classify(m_size, data, size);
    m_size += size;
}

bool acknowledgesInOrder(const Case& c, const StrategyInfo& info)
{
    if (info.randomOffsets || info.threadsShareOneFile)
        return false;
    return info.maxQueueDepth == 0 || c.queueDepth <= 1;
}

void addThreadCheck(KillCheck& kill, std::uint64_t acknowledged, bool inOrder, const KillFileCheck& data,
                    const KillFileCheck* scratch)
{
    std::uint64_t present = 0;
    std::uint64_t beyond = 0;
    if (inOrder) {
        present = data.correctBelow();
        beyond = data.correctAbove();
    } else {
        present = std::min(acknowledged, data.correct());
        beyond = data.correct() - present;
    }
    std::uint64_t lost = acknowledged - present;
    if (scratch != nullptr) {
        const std::uint64_t kept = std::min(lost, scratch->correct());
        kill.scratchBytes += kept;
        lost -= kept;
    }
    kill.acknowledgedBytes += acknowledged;
    kill.presentBytes += present;
    kill.lostBytes += lost;
    kill.beyondBytes += beyond;
    kill.wrongBytes += data.wrong();
}

std::string crashProbeRefusal(const Case& c)
{
    if (c.direction == Direction::Read)
        return "the kill -9 probe checks what a writer loses; a read case writes nothing a crash could lose";
    if (c.target == TargetKind::Pipe)
        return "the kill -9 probe reads files back after the kill; what went into a pipe is not kept "
               "anywhere";
    if (c.target == TargetKind::Null)
        return "the kill -9 probe reads files back after the kill; the null device keeps nothing";
    if (c.preallocate == Preallocate::Rewrite)
        return "the kill -9 probe checks a file written front to back up to the acknowledged position; "
               "preallocate rewrite writes one chunk again and again, so nothing tells which write survived";
    return {};
}

namespace {

struct ProbeFiles
{
    std::vector<std::string> data;
    std::vector<std::string> scratch;
    std::string link;
};

void removeProbeFiles(Workspace& workspace, const ProbeFiles& files)
{
    for (const auto& path : files.data)
        workspace.remove(path);
    for (const auto& path : files.scratch)
        workspace.remove(path);
    if (!files.link.empty())
        workspace.remove(files.link);
}

// Waits until the child says Ready (or Failed, or exits, or the time is up); the state it reached.
childlink::State waitReady(CaseChild& child, const std::atomic<bool>& stop)
{
    const auto until = Clock::now() + kReadyTimeout;
    for (;;) {
        const auto state = child.link().state();
        if (state != childlink::State::Starting || child.exited() || stop.load(std::memory_order_relaxed) ||
            Clock::now() > until)
            return state;
        // Woken when the child says Ready; the timeout bounds how late a stop or the child's death is seen.
        (void)child.waitState(state, std::chrono::milliseconds(10));
    }
}

} // namespace

CrashProbeResult runCrashProbe(std::uint32_t caseIndex, const Case& c, const StrategyInfo& info,
                               std::uint32_t kills, std::uint64_t seed, double typicalSeconds,
                               CaseChildLauncher& launcher, Workspace& workspace,
                               const std::atomic<bool>& stop,
                               const std::function<void(std::uint32_t)>& onKill)
{
    CrashProbeResult result;
    result.seed = seed;
    // One stream per case, so that a case's kill moments do not depend on the cases before it.
    std::mt19937_64 random(seed ^ (std::uint64_t{caseIndex + 1} * 0x9E3779B97F4A7C15ULL));
    std::uniform_real_distribution<double> fraction(0.1, 0.9);
    // The probe writes IOLab's own pattern whatever the case's: it tells a byte that was kept from one that
    // was lost (zero) by the pattern having no zero byte.
    Case written = c;
    written.pattern = {};
    const Pattern pattern(c.chunkBytes);
    const bool shared = info.threadsShareOneFile;
    const std::uint32_t fileCount = shared ? 1 : c.threads;
    const bool inOrder = acknowledgesInOrder(c, info);
    auto& log = logger(LogModule::Core);

    for (std::uint32_t k = 0; k < kills && !stop.load(std::memory_order_relaxed); ++k) {
        if (onKill)
            onKill(k + 1);
        ProbeFiles files;
        ChildRequest request{written, workspace.target(), {}, true};
        Outcome outcome;
        for (std::uint32_t t = 0; t < fileCount && outcome.ok(); ++t) {
            const std::string stem = fmt::format("c{:03}-k{}-t{}", caseIndex + 1, k, t);
            ChildThread thread;
            thread.path = workspace.pathFor(stem + ".dat", outcome);
            if (outcome.ok())
                thread.auxPath = workspace.pathFor(stem + ".batch", outcome);
            thread.bytes = shared ? c.totalBytes : c.bytesForThread(t);
            files.data.push_back(thread.path);
            files.scratch.push_back(thread.auxPath);
            request.threads.push_back(std::move(thread));
        }
        if (outcome.ok())
            files.link = workspace.pathFor(fmt::format("c{:03}-k{}.link", caseIndex + 1, k), outcome);
        std::unique_ptr<CaseChild> child =
            outcome.ok() ? launcher.start(files.link, request, outcome) : nullptr;
        if (child == nullptr) {
            result.failure = fmt::format("could not start the child process: {}", outcome.message);
            removeProbeFiles(workspace, files);
            break;
        }

        const auto ready = waitReady(*child, stop);
        if (ready != childlink::State::Ready) {
            if (ready == childlink::State::Failed)
                result.failure =
                    fmt::format("the child could not start the case: {}", child->link().outcome().message);
            else if (child->exited())
                result.failure = fmt::format("the child {} before it was ready", child->wait().description);
            else if (!stop.load(std::memory_order_relaxed))
                result.failure = "the child was not ready within 60 s";
            child->kill();
            child->wait();
            child.reset();
            removeProbeFiles(workspace, files);
            break;
        }

        // The kill comes at a random fraction of the run, by whichever is reached first: that share of the
        // bytes acknowledged, or that share of the time a measured repetition took (a time-limited case's
        // size may be far beyond what it writes). Either alone could miss: the child, publishing after every
        // call, runs slower than a measured repetition, and a first repetition after idle runs slower still.
        KillCheck kill;
        const double share = fraction(random);
        const auto killAt = std::chrono::duration<double>(share * typicalSeconds);
        const auto killAtBytes = static_cast<std::uint64_t>(share * static_cast<double>(c.totalBytes));
        const auto started = Clock::now();
        child->link().header().go.store(1, std::memory_order_release);
        bool finished = false;
        while (!stop.load(std::memory_order_relaxed)) {
            const auto state = child->link().state();
            if (state == childlink::State::Finished || state == childlink::State::Failed || child->exited()) {
                finished = true;
                break;
            }
            if (Clock::now() - started >= killAt || child->link().acknowledgedBytes() >= killAtBytes)
                break;
            std::this_thread::sleep_for(kPoll);
        }
        kill.killAfterSeconds = std::chrono::duration<double>(Clock::now() - started).count();
        if (!finished)
            child->kill();
        const ChildExit exit = child->wait();
        kill.exit = exit.description;
        kill.landed = !finished && !stop.load(std::memory_order_relaxed);
        const auto state = child->link().state();
        const bool failed =
            state == childlink::State::Failed ||
            (state == childlink::State::Finished && child->link().outcome().status == Status::Failed);
        // A child that ended before the kill without finishing its case died of something else: under a
        // memory limit, the OOM killer when its cgroup counted the kill.
        const bool died =
            finished && state != childlink::State::Finished && state != childlink::State::Failed;
        if (failed || died) {
            const BudgetEnd end = child->budgetEnd();
            result.failure =
                failed ? fmt::format("the child's case failed: {}", child->link().outcome().message)
                : end.oomKills != 0 ? fmt::format("the child was {} before the kill",
                                                  oomKillSentence(end.peakBytes, c.memoryLimitBytes))
                                    : fmt::format("the child {} before the kill", exit.description);
            child.reset();
            removeProbeFiles(workspace, files);
            break;
        }
        if (kill.landed) {
            for (std::uint32_t t = 0; t < fileCount; ++t) {
                const std::uint64_t acknowledged =
                    child->link().progress(t).bytes.load(std::memory_order_acquire);
                KillFileCheck data(pattern, acknowledged);
                Outcome read = workspace.readBack(
                    files.data[t], [&](const std::byte* bytes, std::size_t size) { data.add(bytes, size); });
                if (!read.ok()) {
                    // A file the child never created holds nothing: all it acknowledged is lost.
                    log.info("kill -9 probe: {}", read.message);
                }
                std::optional<KillFileCheck> scratch;
                if (info.keepsBatchInScratchFile && acknowledged > data.prefix()) {
                    // The batch after the data file's correct prefix, from the scratch file's start.
                    scratch.emplace(pattern, std::numeric_limits<std::uint64_t>::max(), data.prefix());
                    std::uint64_t wanted = acknowledged - data.prefix();
                    workspace.readBack(files.scratch[t], [&](const std::byte* bytes, std::size_t size) {
                        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(size, wanted));
                        scratch->add(bytes, n);
                        wanted -= n;
                    });
                }
                addThreadCheck(kill, acknowledged, inOrder, data, scratch ? &*scratch : nullptr);
            }
        }
        child.reset();
        removeProbeFiles(workspace, files);
        log.info("case {} kill {}: {} after {:.3f} s, {} acknowledged, {} lost{}", caseIndex + 1, k + 1,
                 kill.landed ? "killed" : "finished before the kill", kill.killAfterSeconds,
                 formatBytes(kill.acknowledgedBytes), formatBytes(kill.lostBytes),
                 kill.scratchBytes != 0
                     ? fmt::format(", {} in the scratch file", formatBytes(kill.scratchBytes))
                     : std::string());
        result.kills.push_back(std::move(kill));
    }
    return result;
}

std::string crashProbeVerdict(const CrashProbeResult& probe, const StrategyInfo* info)
{
    const std::size_t landed = probe.landedKills();
    if (landed == 0) {
        if (!probe.failure.empty())
            return fmt::format("kill -9 probe: not run: {}", probe.failure);
        return fmt::format("survives kill -9: not known: each of the {} runs finished before its kill came",
                           probe.kills.size());
    }
    const std::string kills = fmt::format("{} kill{}", landed, landed == 1 ? "" : "s");
    std::uint64_t wrong = 0;
    for (const auto& k : probe.kills)
        wrong += k.landed ? k.wrongBytes : 0;
    if (probe.survives().value_or(false)) {
        std::string text = fmt::format("survives kill -9: yes ({}, nothing acknowledged was lost)", kills);
        if (const std::uint64_t scratch = probe.worstScratchBytes(); scratch != 0)
            text += fmt::format("; up to {} of the batch was not yet in the data file but survived in the "
                                "scratch file's mapping",
                                formatBytes(scratch));
        return text;
    }
    std::string text =
        fmt::format("survives kill -9: no: loses up to {} ({})", formatBytes(probe.worstLossBytes()), kills);
    if (info != nullptr && info->usesStdioBuffer)
        text += ": what fwrite had returned for was still in the stdio buffer";
    else
        text += ": bytes its API had acknowledged were missing after the kill";
    if (wrong != 0)
        text += fmt::format("; {} bytes read back wrong", wrong);
    return text;
}

} // namespace iolab
