// SPDX-License-Identifier: MIT
#include "core/engine/crash_probe.h"

#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/engine/registry.h"
#include "core/engine/strategy.h"
#include "core/engine/workspace.h"
#include "core/model/memory_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <limits>
#include <numeric>
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
    if (hold && hold->lossBytes() != 0)
        return false;
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

std::uint64_t CrashProbeResult::canLoseBytes() const
{
    return std::max(worstLossBytes(), hold ? hold->lossBytes() : 0);
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

std::size_t CrashProbeResult::lossyKills() const
{
    return static_cast<std::size_t>(std::count_if(
        kills.begin(), kills.end(), [](const KillCheck& k) { return k.landed && k.lostBytes != 0; }));
}

std::string toString(UserSpaceHold::Kind kind)
{
    switch (kind) {
    case UserSpaceHold::Kind::Nothing:
        return "nothing";
    case UserSpaceHold::Kind::StdioBuffer:
        return "stdio buffer";
    case UserSpaceHold::Kind::Batch:
        return "batch";
    case UserSpaceHold::Kind::FileBackedBatch:
        return "file-backed batch";
    }
    return "nothing";
}

UserSpaceHold::Kind parseUserSpaceHoldKind(std::string_view text)
{
    for (auto kind : {UserSpaceHold::Kind::Nothing, UserSpaceHold::Kind::StdioBuffer,
                      UserSpaceHold::Kind::Batch, UserSpaceHold::Kind::FileBackedBatch}) {
        if (text == toString(kind))
            return kind;
    }
    throw InputError(fmt::format("unknown user-space hold '{}'", text));
}

std::uint64_t stdioHeldBytes(const StdioRuntime& runtime, std::uint64_t bufferBytes, std::uint64_t chunkBytes,
                             std::uint64_t streamBytes)
{
    if (bufferBytes == 0 || chunkBytes == 0)
        return 0;
    const std::uint64_t b = bufferBytes;
    const std::uint64_t c = chunkBytes;
    std::uint64_t held = 0;
    if (b < runtime.smallBufferBytes)
        held = c <= b ? b / c * c : 0; // what does not fit goes to the file whole, the buffer emptied first
    else if (c < b)
        held = b; // calls fill it until one fills it exactly, which it keeps
    else if (c == b)
        held = runtime.keepsAFullBuffer ? b : 0;
    else
        held = b - std::gcd(c, b); // a call's whole buffers go to the file, its rest waits: (n c) mod b
    return std::min(held, streamBytes);
}

UserSpaceHold userSpaceHold(const Case& c, const StrategyInfo& info, const TargetInfo& target,
                            std::uint64_t writerBytes)
{
    UserSpaceHold hold;
    hold.writers = info.threadsShareOneFile ? 1 : std::max<std::uint32_t>(1, c.threads);
    if (info.stdioRuntime && c.buffer.mode != BufferMode::NotApplicable) {
        const StdioRuntime& runtime = *info.stdioRuntime;
        hold.kind = UserSpaceHold::Kind::StdioBuffer;
        std::uint64_t b = 0;
        if (c.buffer.mode == BufferMode::Bytes) {
            b = c.buffer.bytes;
            hold.what = fmt::format("its {} stdio buffer", formatBytes(b));
        } else if (c.buffer.mode == BufferMode::Default) {
            b = runtime.defaultBufferBytes;
            if (runtime.defaultFromFileBlock && target.fileBlockBytes == 0) {
                hold.what = fmt::format("its stdio buffer ({}'s default: at most {}; the file's block size "
                                        "was not recorded)",
                                        runtime.name, formatBytes(b));
            } else if (runtime.defaultFromFileBlock && target.fileBlockBytes < b) {
                b = target.fileBlockBytes;
                hold.what = fmt::format("its {} stdio buffer ({}'s default here, the size of the file's {} "
                                        "block)",
                                        formatBytes(b), runtime.name, formatBytes(b));
            } else {
                hold.what = fmt::format("its {} stdio buffer ({}'s default)", formatBytes(b), runtime.name);
            }
        } else {
            hold.what = "its unbuffered stdio stream";
        }
        hold.bufferBytes = b;
        hold.heldBytes = stdioHeldBytes(runtime, b, c.chunkBytes, writerBytes);
        const std::string chunk = formatBytes(c.chunkBytes);
        if (b == 0)
            hold.why = "each call goes to the file before it returns";
        else if (hold.heldBytes == 0)
            hold.why = fmt::format("each {} call goes to the file in whole buffers before it returns", chunk);
        else if (hold.heldBytes == writerBytes && writerBytes <= b)
            hold.why =
                fmt::format("all {} a writer writes fit in it, until fclose", formatBytes(writerBytes));
        else if (c.chunkBytes == b)
            hold.why = fmt::format("{} keeps a {} call that exactly fills it until the next call",
                                   runtime.name, chunk);
        else if (c.chunkBytes > b)
            hold.why = fmt::format("what is left of each {} call past whole buffers waits in it", chunk);
        else
            hold.why =
                "fwrite returns once its bytes are in the buffer, which goes to the file only when full";
    } else if (info.holdsBackBytes != 0) {
        hold.kind =
            info.keepsBatchInScratchFile ? UserSpaceHold::Kind::FileBackedBatch : UserSpaceHold::Kind::Batch;
        hold.bufferBytes = info.holdsBackBytes;
        hold.heldBytes = std::min(info.holdsBackBytes, writerBytes);
        hold.what = info.keepsBatchInScratchFile
                        ? fmt::format("its {} batch, in a file-backed mapping of its scratch file, which "
                                      "outlives the process",
                                      formatBytes(info.holdsBackBytes))
                        : fmt::format("its {} batch", formatBytes(info.holdsBackBytes));
    }
    return hold;
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

namespace {

// Where one kill's child is stopped: each data file's acknowledgement point (Ack), or a moment and a share of
// the case's bytes (Time), drawn from the case's stream.
struct KillPoint
{
    std::vector<std::uint64_t> pointBytes;
    std::chrono::duration<double> atTime{};
    std::uint64_t atBytes = 0;
};

// The bytes a data file's writer writes in a measured repetition: its share of what one wrote (a time limit
// may end a case long before its size).
std::uint64_t writerBytes(const Case& c, const StrategyInfo& info, std::uint64_t typicalBytes,
                          std::uint32_t t)
{
    const std::uint64_t size = info.threadsShareOneFile ? c.totalBytes : c.bytesForThread(t);
    if (typicalBytes == 0 || typicalBytes >= c.totalBytes || c.totalBytes == 0)
        return size;
    const auto share =
        static_cast<double>(size) * static_cast<double>(typicalBytes) / static_cast<double>(c.totalBytes);
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(share));
}

// How long a child may take to reach its points before the probe gives up on it: far beyond what publishing
// after every call costs.
std::chrono::duration<double> holdTimeout(double typicalSeconds)
{
    return std::chrono::duration<double>(60.0 + 20.0 * typicalSeconds);
}

} // namespace

CrashProbeResult runCrashProbe(std::uint32_t caseIndex, const Case& c, const StrategyInfo& info,
                               const CrashProbePlan& plan, CaseChildLauncher& launcher, Workspace& workspace,
                               const std::atomic<bool>& stop,
                               const std::function<void(std::uint32_t)>& onKill)
{
    CrashProbeResult result;
    result.seed = plan.seed;
    result.at = plan.at;
    // One stream per case, so that a case's kill points do not depend on the cases before it.
    std::mt19937_64 random(plan.seed ^ (std::uint64_t{caseIndex + 1} * 0x9E3779B97F4A7C15ULL));
    std::uniform_real_distribution<double> fraction(0.1, 0.9);
    // The probe writes IOLab's own pattern whatever the case's: it tells a byte that was kept from one that
    // was lost (zero) by the pattern having no zero byte.
    Case written = c;
    written.pattern = {};
    const Pattern pattern(c.chunkBytes);
    const bool shared = info.threadsShareOneFile;
    const std::uint32_t fileCount = shared ? 1 : c.threads;
    const bool inOrder = acknowledgesInOrder(c, info);
    std::vector<std::uint64_t> writers(fileCount);
    for (std::uint32_t t = 0; t < fileCount; ++t)
        writers[t] = writerBytes(c, info, plan.typicalBytes, t);
    result.hold =
        userSpaceHold(c, info, workspace.target(), *std::max_element(writers.begin(), writers.end()));
    auto& log = logger(LogModule::Core);

    for (std::uint32_t k = 0; k < plan.kills && !stop.load(std::memory_order_relaxed); ++k) {
        if (onKill)
            onKill(k + 1);
        // Every data file's writer stops right after the call that crosses its own drawn count (so that each
        // is at a drawn point of its own acknowledgements, not wherever another's stop found it); threads
        // sharing one file share one count. Or the kill comes at a drawn share of the run, by whichever is
        // reached first: that share of the bytes acknowledged, or that share of the time a measured
        // repetition took (the child, publishing after every call, runs slower than a measured repetition).
        KillPoint point;
        if (plan.at == CrashProbeAt::Ack) {
            for (std::uint32_t t = 0; t < fileCount; ++t)
                point.pointBytes.push_back(
                    std::uniform_int_distribution<std::uint64_t>(1, writers[t])(random));
        } else {
            const double share = fraction(random);
            point.atTime = std::chrono::duration<double>(share * plan.typicalSeconds);
            point.atBytes = static_cast<std::uint64_t>(share * static_cast<double>(c.totalBytes));
        }
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
            if (!point.pointBytes.empty())
                thread.holdAtBytes = point.pointBytes[t];
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

        KillCheck kill;
        kill.pointBytes = point.pointBytes;
        const auto started = Clock::now();
        child->link().header().go.store(1, std::memory_order_release);
        bool finished = false;
        bool stuck = false;
        while (!stop.load(std::memory_order_relaxed)) {
            const auto state = child->link().state();
            if (state == childlink::State::Finished || state == childlink::State::Failed || child->exited()) {
                finished = true;
                break;
            }
            const auto elapsed = Clock::now() - started;
            if (plan.at == CrashProbeAt::Ack) {
                // Every writer stopped at its point (or, without reaching it, ended its job).
                std::uint32_t held = 0;
                std::uint32_t settled = 0;
                for (std::uint32_t t = 0; t < fileCount; ++t) {
                    const auto where = child->link().progress(t).holdState.load(std::memory_order_acquire);
                    held += where == Progress::Held ? 1 : 0;
                    settled += where != Progress::Running ? 1 : 0;
                }
                if (held != 0 && settled == fileCount)
                    break;
                if (elapsed > holdTimeout(plan.typicalSeconds)) {
                    stuck = true;
                    break;
                }
            } else if (elapsed >= point.atTime || child->link().acknowledgedBytes() >= point.atBytes) {
                break;
            }
            std::this_thread::sleep_for(kPoll);
        }
        kill.killAfterSeconds = std::chrono::duration<double>(Clock::now() - started).count();
        if (!finished)
            child->kill();
        const ChildExit exit = child->wait();
        kill.exit = exit.description;
        kill.landed = !finished && !stuck && !stop.load(std::memory_order_relaxed);
        const auto state = child->link().state();
        const bool failed =
            state == childlink::State::Failed ||
            (state == childlink::State::Finished && child->link().outcome().status == Status::Failed);
        // A child that ended before the kill without finishing its case died of something else: under a
        // memory limit, the OOM killer when its cgroup counted the kill.
        const bool died =
            finished && state != childlink::State::Finished && state != childlink::State::Failed;
        if (failed || died || stuck) {
            const BudgetEnd end = child->budgetEnd();
            result.failure =
                stuck    ? fmt::format("the child did not stop at its acknowledgement point within {:.0f} s",
                                       holdTimeout(plan.typicalSeconds).count())
                : failed ? fmt::format("the child's case failed: {}", child->link().outcome().message)
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

std::string crashProbeMethod(const RunOptions& options)
{
    const std::string kills =
        fmt::format("{} kill{} per write case", options.crashProbe, options.crashProbe == 1 ? "" : "s");
    if (options.crashProbeAt == CrashProbeAt::Time)
        return fmt::format("{}, each at a random moment of its writes (a share of 10-90% of its bytes or of "
                           "the time a measured repetition took, drawn from seed {})",
                           kills, options.crashProbeSeed);
    return fmt::format("{}, each right after the call whose acknowledgement crossed a byte count drawn from "
                       "seed {} (every thread its own)",
                       kills, options.crashProbeSeed);
}

namespace {

// The answer in parts: yes, no or not known (nullopt), and the words after it.
struct ProbeWords
{
    std::optional<bool> survives;
    bool notRun = false;
    std::string detail;
};

std::string killsWord(std::size_t n)
{
    return fmt::format("{} kill{}", n, n == 1 ? "" : "s");
}

ProbeWords probeWords(const CrashProbeResult& probe, const Case& c, const StrategyInfo* info)
{
    // Files from before issue 34 did not record the design: the strategy's declaration stands in for it.
    CrashProbeResult judged = probe;
    if (!judged.hold && info != nullptr)
        judged.hold = userSpaceHold(c, *info, TargetInfo{}, c.bytesForThread(0));
    const UserSpaceHold hold = judged.hold.value_or(UserSpaceHold{});
    const std::size_t landed = judged.landedKills();
    const std::string where =
        judged.at == CrashProbeAt::Ack ? "right after a call returned" : "at random moments";
    std::uint64_t wrong = 0;
    for (const auto& k : judged.kills)
        wrong += k.landed ? k.wrongBytes : 0;

    ProbeWords words;
    words.survives = judged.survives();
    const std::uint64_t design = hold.lossBytes();
    const std::string designWords =
        design == 0
            ? std::string()
            : fmt::format("can lose up to {}{}, {}{}", formatBytes(design),
                          hold.writers > 1 ? fmt::format(" ({} per thread)", formatBytes(hold.heldBytes))
                                           : std::string(),
                          hold.what, hold.why.empty() ? std::string() : ": " + hold.why);
    if (landed == 0) {
        words.notRun = !judged.failure.empty();
        const std::string why =
            judged.failure.empty()
                ? fmt::format("each of the {} runs finished before its kill came", judged.kills.size())
                : judged.failure;
        words.detail = design != 0 ? fmt::format("{} (the probe itself: {})", designWords, why) : why;
        return words;
    }
    if (judged.lossyKills() != 0 || wrong != 0) {
        std::string text;
        if (judged.lossyKills() != 0)
            text = fmt::format("lost {}{} in {} of {} {}", judged.lossyKills() > 1 ? "up to " : "",
                               formatBytes(judged.worstLossBytes()), judged.lossyKills(), killsWord(landed),
                               where);
        if (wrong != 0)
            text += fmt::format("{}{} bytes read back wrong", text.empty() ? "" : "; ", wrong);
        if (design != 0)
            text += "; " + designWords;
        else if (hold.kind == UserSpaceHold::Kind::Nothing)
            text += ": bytes its API had acknowledged were missing after the kill";
        words.detail = std::move(text);
        return words;
    }
    if (design != 0) {
        words.detail =
            fmt::format("{}; the {} {} happened to lose nothing{}", designWords, killsWord(landed), where,
                        judged.at == CrashProbeAt::Time
                            ? " (a kill at a moment mostly lands in the slowest call, the buffer's write, "
                              "when nothing acknowledged waits in it)"
                            : "");
        return words;
    }
    std::string text = fmt::format("{} {}, nothing acknowledged was lost", killsWord(landed), where);
    if (hold.kind == UserSpaceHold::Kind::StdioBuffer)
        text += fmt::format("; {} holds nothing acknowledged: {}", hold.what, hold.why);
    else if (hold.kind == UserSpaceHold::Kind::FileBackedBatch)
        text += fmt::format("; {}", hold.what);
    if (const std::uint64_t scratch = judged.worstScratchBytes(); scratch != 0)
        text +=
            fmt::format("; up to {} of the batch was not yet in the data file but survived in the scratch "
                        "file's mapping",
                        formatBytes(scratch));
    words.detail = std::move(text);
    return words;
}

} // namespace

std::string crashProbeVerdict(const CrashProbeResult& probe, const Case& c, const StrategyInfo* info)
{
    const ProbeWords words = probeWords(probe, c, info);
    if (words.survives == false)
        return "survives kill -9: no: " + words.detail;
    if (words.survives == true)
        return fmt::format("survives kill -9: yes ({})", words.detail);
    if (words.notRun)
        return "kill -9 probe: not run: " + words.detail;
    return "survives kill -9: not known: " + words.detail;
}

std::vector<std::string> crashProbeAnswers(const RunResult& result, const Registry* registry,
                                           const std::function<std::string(const Case&)>& name)
{
    std::vector<std::string> answers;
    std::vector<std::string> safe;
    std::string safeDetail;
    bool oneDetail = true;
    for (const auto& c : result.cases) {
        if (!c.crashProbe)
            continue;
        const Strategy* strategy = registry != nullptr ? registry->find(c.testCase.strategy) : nullptr;
        const ProbeWords words =
            probeWords(*c.crashProbe, c.testCase, strategy != nullptr ? &strategy->info() : nullptr);
        const std::string who = name(c.testCase);
        if (words.survives == true) {
            const bool plain =
                c.crashProbe->hold.value_or(UserSpaceHold{}).kind == UserSpaceHold::Kind::Nothing &&
                c.crashProbe->worstScratchBytes() == 0;
            if (plain) {
                oneDetail = oneDetail && (safe.empty() || words.detail == safeDetail);
                safeDetail = words.detail;
                safe.push_back(who);
                continue;
            }
            answers.push_back(fmt::format("{} survives kill -9: {}.", who, words.detail));
        } else if (words.survives == false) {
            answers.push_back(fmt::format("{} does not survive kill -9: it {}.", who, words.detail));
        } else if (words.notRun) {
            answers.push_back(fmt::format("The kill -9 probe of {} did not run: {}.", who, words.detail));
        } else {
            answers.push_back(
                fmt::format("Whether {} survives kill -9 is not known: {}.", who, words.detail));
        }
    }
    if (safe.size() == 1) {
        answers.insert(
            answers.begin(),
            fmt::format("{} survives kill -9: {}; it keeps nothing in user space.", safe[0], safeDetail));
    } else if (safe.size() > 1) {
        std::string list;
        for (std::size_t i = 0; i < safe.size(); ++i)
            list += (i == 0 ? "" : i + 1 == safe.size() ? " and " : ", ") + safe[i];
        answers.insert(answers.begin(),
                       fmt::format("{} survive kill -9: {}; none keeps anything in user space.", list,
                                   oneDetail ? safeDetail : "no kill lost an acknowledged byte"));
    }
    return answers;
}

} // namespace iolab
