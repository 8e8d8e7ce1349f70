// SPDX-License-Identifier: MIT
#include "core/engine/exposure.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/strategy.h"
#include "core/model/replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace iolab {

std::string toString(ExposureBasis basis)
{
    return basis == ExposureBasis::Exact ? "exact" : "at most";
}

ExposureBasis parseExposureBasis(std::string_view text)
{
    if (text == "exact")
        return ExposureBasis::Exact;
    if (text == "at most")
        return ExposureBasis::AtMost;
    throw InputError(fmt::format("unknown exposure basis '{}'", text));
}

namespace {

ExposurePlan planBySync(const Case& c, const StrategyInfo& info)
{
    ExposurePlan plan;
    if (c.direction != Direction::Write || c.target != TargetKind::Directory)
        return plan;
    const SyncMode mode = c.sync.mode;
    if (!info.notDurable.empty()) {
        plan.point = DurablePoint::RunEnd;
        plan.method = "its syncs are not durable (" + c.strategy +
                      "): durable only once the run's fsync after "
                      "the timed part returned";
        return plan;
    }
    const bool eachWriteDurable = info.durableEachWrite || info.countsCommittedWrites ||
                                  mode == SyncMode::OSync || mode == SyncMode::ODsync ||
                                  (syncsEveryN(mode) && c.sync.everyWrites == 1 && info.syncInsideCalls);
    if (eachWriteDurable) {
        const bool stdioBuffer = info.usesStdioBuffer && c.buffer.mode != BufferMode::None;
        if (stdioBuffer || info.holdsBackBytes != 0) {
            plan.point = DurablePoint::HeldBack;
            if (stdioBuffer && c.buffer.mode == BufferMode::Bytes)
                plan.heldBackBytes = c.buffer.bytes;
            else if (!stdioBuffer)
                plan.heldBackBytes = info.holdsBackBytes;
            plan.method =
                fmt::format("each write to the file returns durable ({}), but {} holds up to {} "
                            "back until it writes",
                            toString(c.sync), stdioBuffer ? "the stdio buffer" : "its batch",
                            plan.heldBackBytes ? formatBytes(*plan.heldBackBytes) : "its default size");
            return plan;
        }
        plan.point = DurablePoint::EachWrite;
        if (info.countsCommittedWrites)
            plan.method = "a write counts once its commit's sync returned";
        else if (info.durableEachWrite)
            plan.method = fmt::format("each {} call returns durable", c.strategy);
        else if (syncsEveryN(mode))
            plan.method = fmt::format("each write linked to its {}", syncCallName(mode));
        else
            plan.method = fmt::format("each write returns durable ({})", toString(c.sync));
        return plan;
    }
    if (syncsEveryN(mode)) {
        plan.point = DurablePoint::LoopSyncs;
        plan.syncEveryBytes = std::uint64_t{c.sync.everyWrites} * c.chunkBytes;
        plan.method =
            c.sync.everyWrites == 1
                ? fmt::format("{} after every write: one write per thread waits for it", syncCallName(mode))
                : fmt::format("{} every {} writes: at most {} per thread", syncCallName(mode),
                              c.sync.everyWrites, formatBytes(plan.syncEveryBytes));
        return plan;
    }
    if (mode == SyncMode::FsyncEnd || mode == SyncMode::FdatasyncEnd) {
        plan.point = DurablePoint::JobEnd;
        plan.method = fmt::format("{} only at the end of each thread", syncCallName(mode));
        return plan;
    }
    plan.point = DurablePoint::RunEnd;
    plan.method = "no sync: durable only once the run's fsync after the timed part returned";
    return plan;
}

} // namespace

ExposurePlan exposurePlan(const Case& c, const StrategyInfo& info)
{
    // A replay's durability is the recorded program's own sync points, which its profile states (max at
    // risk); the loop structures below do not describe it.
    if (info.id == kReplayStrategy)
        return {};
    ExposurePlan plan = planBySync(c, info);
    if (c.preallocate == Preallocate::Rewrite && plan.point != DurablePoint::NotApplicable &&
        plan.point != DurablePoint::EachWrite) {
        plan.fileBytesPerThread = c.chunkBytes;
        plan.method += fmt::format("; every write rewrites the file's first {}, so no more than that per "
                                   "thread can be lost",
                                   formatBytes(c.chunkBytes));
    }
    return plan;
}

std::uint64_t atRiskNow(const ExposurePlan& plan, const Progress* progress, std::size_t threads)
{
    if (!publishesDurable(plan))
        return 0;
    std::uint64_t total = 0;
    for (std::size_t t = 0; t < threads; ++t) {
        const std::uint64_t durable = progress[t].durable.load(std::memory_order_relaxed);
        const std::uint64_t bytes = progress[t].bytes.load(std::memory_order_relaxed);
        std::uint64_t waiting = bytes > durable ? bytes - durable : 0;
        if (plan.point == DurablePoint::LoopSyncs)
            waiting = std::min(waiting, plan.syncEveryBytes);
        else if (plan.point == DurablePoint::HeldBack && plan.heldBackBytes)
            waiting = std::min(waiting, *plan.heldBackBytes);
        if (plan.fileBytesPerThread)
            waiting = std::min(waiting, *plan.fileBytesPerThread);
        total += waiting;
    }
    return total;
}

Exposure computeExposure(const ExposurePlan& plan, const std::vector<ThreadExposure>& threads,
                         TimingClock::time_point runDurable)
{
    Exposure out;
    out.method = plan.method;
    std::uint64_t bytes = 0;
    TimingClock::duration longest{};
    std::size_t waiting = 0; // threads with a peak above 0
    for (const ThreadExposure& t : threads) {
        std::uint64_t peak = 0;
        switch (plan.point) {
        case DurablePoint::NotApplicable:
        case DurablePoint::EachWrite:
            break;
        case DurablePoint::HeldBack:
            peak = plan.heldBackBytes ? std::min(*plan.heldBackBytes, t.bytes) : 0;
            break;
        case DurablePoint::LoopSyncs:
            peak = std::min(plan.syncEveryBytes, t.bytes);
            break;
        case DurablePoint::JobEnd:
        case DurablePoint::RunEnd:
            peak = t.bytes;
            break;
        }
        if (plan.fileBytesPerThread)
            peak = std::min(peak, *plan.fileBytesPerThread);
        bytes += peak;
        waiting += peak > 0 ? 1 : 0;
        // The last stretch: from the last moment the thread's data was durable to the one that made the
        // rest durable (its job's end after its own sync, or the run's fsync).
        TimingClock::duration wait = t.longestWait;
        if (t.bytes > t.durable) {
            const bool runSyncs = plan.point == DurablePoint::RunEnd;
            const auto until = runSyncs ? runDurable : t.ended;
            wait = std::max(wait, until - t.durableAt);
        }
        longest = std::max(longest, wait);
    }
    switch (plan.point) {
    case DurablePoint::NotApplicable:
    case DurablePoint::EachWrite:
        out.maxBytes = 0;
        out.maxSeconds = 0.0;
        break;
    case DurablePoint::HeldBack:
        if (plan.heldBackBytes)
            out.maxBytes = bytes;
        out.basis = ExposureBasis::AtMost; // the buffer's size, not a measured fill
        break;
    case DurablePoint::LoopSyncs:
    case DurablePoint::JobEnd:
        out.maxBytes = bytes;
        out.maxSeconds = inSeconds(longest);
        out.basis = waiting > 1 ? ExposureBasis::AtMost : ExposureBasis::Exact;
        break;
    case DurablePoint::RunEnd:
        // Every thread's bytes wait together for the run's fsync: the sum is the peak.
        out.maxBytes = bytes;
        out.maxSeconds = inSeconds(longest);
        break;
    }
    return out;
}

std::optional<Exposure> worstExposure(const std::vector<RepetitionResult>& repetitions)
{
    std::optional<Exposure> worst;
    bool bytesUnknown = false;
    bool secondsUnknown = false;
    for (const RepetitionResult& rep : repetitions) {
        if (rep.warmup || !rep.outcome.ok() || !rep.atRisk)
            continue;
        const Exposure& e = *rep.atRisk;
        if (!worst) {
            worst = Exposure{.method = e.method};
            worst->maxBytes = 0;
            worst->maxSeconds = 0.0;
        }
        bytesUnknown = bytesUnknown || !e.maxBytes;
        secondsUnknown = secondsUnknown || !e.maxSeconds;
        if (e.maxBytes && *e.maxBytes >= *worst->maxBytes) {
            // The basis of the largest figure; among equal ones, a bound makes the case's a bound.
            const bool tie = *e.maxBytes == *worst->maxBytes;
            worst->basis = tie && worst->basis == ExposureBasis::AtMost ? ExposureBasis::AtMost : e.basis;
            worst->maxBytes = e.maxBytes;
        }
        if (e.maxSeconds)
            worst->maxSeconds = std::max(*worst->maxSeconds, *e.maxSeconds);
    }
    if (worst && bytesUnknown)
        worst->maxBytes.reset();
    if (worst && secondsUnknown)
        worst->maxSeconds.reset();
    return worst;
}

std::string formatExposure(const Exposure& e)
{
    if (!e.maxBytes && !e.maxSeconds)
        return "unknown";
    if (e.maxBytes && *e.maxBytes == 0)
        return "0 B";
    const std::string bytes =
        e.maxBytes ? (e.basis == ExposureBasis::AtMost ? "at most " : "") + formatBytes(*e.maxBytes) : "? B";
    const std::string time = e.maxSeconds ? formatLatency(*e.maxSeconds) : "an unknown time";
    return fmt::format("{} for {}", bytes, time);
}

} // namespace iolab
