// SPDX-License-Identifier: MIT
#include "replay_job.h"

#include "core/analysis/program_profile.h"
#include "core/engine/job_execution.h"
#include "core/engine/pattern.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace iolab {

namespace {

using trace::Call;

std::uint64_t nowNs()
{
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
}

} // namespace

ReplayTiming replayTimingOf(const JobSpec& spec)
{
    return parseReplayTiming(extraAxisValue(spec.testCase, "replay-timing", "back-to-back"));
}

std::int64_t issueStreamStep(const ReplayStep& step, std::uint32_t i, std::FILE* stream,
                             const Pattern& pattern, std::byte* scratch, const StreamCalls& calls,
                             bool& handled)
{
    const std::uint64_t dataAt = step.dataAt + std::uint64_t{i} * step.bytes;
    const auto bytes = static_cast<std::size_t>(step.bytes);
    handled = true;
    if ((step.flags & kStreamUnlocked) != 0 && (step.call == Call::FWrite || step.call == Call::FPutc ||
                                                step.call == Call::FPuts || step.call == Call::FPrintf)) {
        if (calls.writeUnlocked == nullptr || calls.putcUnlocked == nullptr) {
            errno = ENOSYS; // this C runtime has no unlocked calls
            return -1;
        }
        if (step.call == Call::FPutc)
            return calls.putcUnlocked(std::to_integer<unsigned char>(pattern.byteAt(step.dataAt + i)),
                                      stream) == EOF
                       ? -1
                       : 0;
        return calls.writeUnlocked(pattern.at(dataAt), 1, bytes, stream) == bytes || bytes == 0 ? 0 : -1;
    }
    switch (step.call) {
    case Call::FWrite:
        return std::fwrite(pattern.at(dataAt), 1, bytes, stream) == bytes || bytes == 0 ? 0 : -1;
    case Call::FPutc:
        return std::fputc(std::to_integer<unsigned char>(pattern.byteAt(step.dataAt + i)), stream) == EOF ? -1
                                                                                                          : 0;
    case Call::FPuts: {
        // A string of the pattern's bytes (never zero), ended where the call's ended.
        auto* text = reinterpret_cast<char*>(scratch);
        std::memcpy(text, pattern.at(dataAt), bytes);
        text[bytes] = '\0';
        return std::fputs(text, stream) == EOF ? -1 : 0;
    }
    case Call::FPrintf:
        return calls.print(stream, "%.*s", static_cast<int>(bytes),
                           reinterpret_cast<const char*>(pattern.at(dataAt))) < 0
                   ? -1
                   : 0;
    case Call::FFlush:
        return std::fflush(stream) == 0 ? 0 : -1;
    case Call::FRead:
        (void)std::fread(scratch, 1, bytes, stream);
        return std::ferror(stream) ? -1 : 0;
    case Call::FGetc:
        (void)std::fgetc(stream);
        return std::ferror(stream) ? -1 : 0;
    case Call::FGets:
        (void)std::fgets(reinterpret_cast<char*>(scratch), static_cast<int>(std::max<std::size_t>(bytes, 2)),
                         stream);
        return std::ferror(stream) ? -1 : 0;
    case Call::StreamSpill:
        if (step.flags != 0)
            return std::fwrite(pattern.at(dataAt), 1, bytes, stream) == bytes ? 0 : -1;
        (void)std::fread(scratch, 1, bytes, stream);
        return std::ferror(stream) ? -1 : 0;
    default:
        handled = false;
        return 0;
    }
}

ReplayJobBase::ReplayJobBase(const JobSpec& spec, ReplayTiming timing)
    : m_script(*spec.replay), m_folder(spec.path), m_pattern(*spec.pattern), m_timing(timing),
      m_latency(spec.latency), m_threads(m_script.threads.size())
{
    m_risk.pending.assign(m_script.contents, 0);
    m_risk.since.assign(m_script.contents, {});
    m_risk.buffered.assign(m_script.slots, 0);
    m_risk.bufferedSince.assign(m_script.slots, {});
    m_syncsRunning = std::make_unique<std::atomic<std::uint32_t>[]>(m_script.contents);
    for (const ReplayThread& thread : m_script.threads)
        for (const ReplayStep& step : thread.steps)
            if (step.group != 0 && !m_commits)
                m_commits = std::make_unique<Commit[]>(m_script.contents);
}

std::size_t ReplayJobBase::bufferBytes() const
{
    // A direct batch (kDirectBatch) writes the whole blocks its bytes fall in: a block more at each end.
    constexpr std::uint64_t kPage = kDirectBlockBytes;
    return static_cast<std::size_t>(
        (std::max<std::uint64_t>(m_script.largestCallBytes, kPage) + kPage - 1) / kPage * kPage + 2 * kPage);
}

bool ReplayJobBase::prepareBuffers(Outcome& outcome)
{
    constexpr std::size_t kPage = 4096;
    const std::size_t bytes = bufferBytes();
    for (ThreadState& state : m_threads) {
        state.storage.reset(new (std::nothrow) std::byte[bytes + kPage]);
        if (!state.storage) {
            outcome = {Status::Failed, 0, "prepare",
                       fmt::format("cannot allocate the replay's {} read buffer", bytes)};
            return false;
        }
        void* at = state.storage.get();
        std::size_t room = bytes + kPage;
        state.buffer = static_cast<std::byte*>(std::align(kPage, bytes, at, room));
    }
    return true;
}

bool ReplayJobBase::anyStepWith(std::uint32_t flags, std::size_t thread) const
{
    for (std::size_t t = 0; t < m_script.threads.size(); ++t) {
        if (thread != SIZE_MAX && t != thread)
            continue;
        for (const ReplayStep& step : m_script.threads[t].steps)
            if ((step.flags & flags) == flags)
                return true;
    }
    return false;
}

ReplayJobBase::DirectBlocks ReplayJobBase::fillDirectBatch(const ReplayStep& step, std::byte* into) const
{
    DirectBlocks blocks;
    blocks.from = step.dataAt / kDirectBlockBytes * kDirectBlockBytes;
    blocks.bytes =
        (step.dataAt + step.bytes + kDirectBlockBytes - 1) / kDirectBlockBytes * kDirectBlockBytes -
        blocks.from;
    const std::uint64_t window = m_pattern.sizeBytes() - Pattern::kPeriodBytes;
    for (std::uint64_t done = 0; done < blocks.bytes;) {
        const std::uint64_t piece = std::min(window, blocks.bytes - done);
        std::memcpy(into + done, m_pattern.at(blocks.from + done), piece);
        done += piece;
    }
    return blocks;
}

std::int64_t ReplayJobBase::directBatchResult(const ReplayStep& step, DirectBlocks blocks,
                                              std::uint64_t written)
{
    const std::uint64_t through = blocks.from + written;
    if (through >= step.dataAt + step.bytes)
        return static_cast<std::int64_t>(step.bytes);
    return static_cast<std::int64_t>(through > step.dataAt ? through - step.dataAt : 0);
}

Outcome ReplayJobBase::execute(Progress& progress)
{
    m_startNs = nowNs();
    // Every recorded thread on a thread of its own, the first too: the runner's thread, which wrote the
    // files that existed before and makes the files durable after, makes none of the program's calls.
    std::vector<std::thread> workers;
    workers.reserve(m_threads.size());
    for (std::size_t t = 0; t < m_threads.size(); ++t)
        workers.emplace_back([this, t, &progress] { runThread(t, progress); });
    for (auto& worker : workers)
        worker.join();
    Outcome outcome = Outcome::success();
    for (ThreadState& state : m_threads)
        mergeOutcome(outcome, std::move(state.outcome));
    if (Outcome closed = closeEverything(); outcome.ok())
        outcome = std::move(closed);
    return outcome;
}

Outcome ReplayJobBase::finish()
{
    if (m_latency != nullptr) {
        for (const ThreadState& state : m_threads) {
            m_latency->calls.merge(state.latency.calls);
            m_latency->syncs.merge(state.latency.syncs);
        }
    }
    return Outcome::success();
}

std::optional<double> ReplayJobBase::insideSeconds() const
{
    std::uint64_t inside = 0;
    for (const ThreadState& state : m_threads)
        inside += state.insideNs;
    return static_cast<double>(inside) / 1e9;
}

std::optional<Job::TrackedExposure> ReplayJobBase::trackedExposure() const
{
    TrackedExposure e;
    e.maxBytes = m_risk.peak;
    e.longestWait = m_risk.longest;
    e.method = "the recorded program's own syncs, where it made them";
    for (std::size_t c = 0; c < m_risk.pending.size(); ++c)
        if (m_risk.pending[c] != 0 && (!e.waitingSince || m_risk.since[c] < *e.waitingSince))
            e.waitingSince = m_risk.since[c];
    for (std::size_t b = 0; b < m_risk.buffered.size(); ++b)
        if (m_risk.buffered[b] != 0 && (!e.waitingSince || m_risk.bufferedSince[b] < *e.waitingSince))
            e.waitingSince = m_risk.bufferedSince[b];
    return e;
}

std::uint64_t ReplayJobBase::callsMade() const
{
    std::uint64_t calls = 0;
    for (const ThreadState& state : m_threads)
        calls += state.calls;
    return calls;
}

bool ReplayJobBase::waitFor(const ReplayWait& wait, Progress& progress)
{
    if (wait.thread == kNoReplaySlot)
        return true;
    const std::atomic<std::uint32_t>& done =
        wait.begun ? m_threads[wait.thread].begun : m_threads[wait.thread].done;
    for (unsigned spins = 0; done.load(std::memory_order_acquire) < wait.steps; ++spins) {
        if (progress.stopRequested() || m_failed.load(std::memory_order_relaxed))
            return false;
        if (spins < 64)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return true;
}

void ReplayJobBase::pause(std::uint64_t untilNs, Progress& progress)
{
    // Sleep most of a long pause, spin the last of it (a sleep overshoots by tens of microseconds).
    for (std::uint64_t now = nowNs(); now < untilNs; now = nowNs()) {
        if (progress.stopRequested())
            return;
        const std::uint64_t left = untilNs - now;
        if (left > 2'000'000)
            std::this_thread::sleep_for(
                std::chrono::nanoseconds(std::min<std::uint64_t>(left - 1'000'000, 50'000'000)));
    }
}

bool ReplayJobBase::waitForSyncs(std::uint32_t content, Progress& progress)
{
    while (m_syncsRunning[content].load(std::memory_order_acquire) != 0) {
        if (progress.stopRequested() || m_failed.load(std::memory_order_relaxed))
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    return true;
}

std::string ReplayJobBase::describe(const ReplayStep& step) const
{
    const std::uint32_t file = step.file;
    const std::string name = file != kNoReplaySlot ? m_script.files[file].recordedPath : std::string();
    return fmt::format("{}{}", callName(step.call, m_script.system), name.empty() ? "" : " of " + name);
}

void ReplayJobBase::runThread(std::size_t index, Progress& progress)
{
    ThreadState& state = m_threads[index];
    const ReplayThread& thread = m_script.threads[index];
    const bool countReads = m_script.countsReads();
    std::uint64_t lastEnd = m_startNs;
    for (std::uint32_t s = 0; s < thread.steps.size(); ++s) {
        const ReplayStep& step = thread.steps[s];
        if (progress.stopRequested()) {
            state.outcome = Outcome::cancelled();
            return;
        }
        if (!waitFor(step.waits[0], progress) || !waitFor(step.waits[1], progress)) {
            state.outcome = m_failed.load() ? Outcome::success() : Outcome::cancelled();
            return;
        }
        // Other threads' calls on the file go on once a sync has begun (ReplayWait::begun), so a sync is
        // counted while it runs, from before that moment; a call that must not run beside one (a close, a
        // truncation) waits for every sync of its file to end, the calls before it having waited only for
        // them to begin.
        const bool sync = isReplaySync(step);
        const bool counted = sync && step.content < m_script.contents;
        if (counted)
            m_syncsRunning[step.content].fetch_add(1, std::memory_order_acq_rel);
        else if (!mayRunBesideSync(step) && step.content < m_script.contents &&
                 !waitForSyncs(step.content, progress)) {
            state.outcome = m_failed.load() ? Outcome::success() : Outcome::cancelled();
            return;
        }
        state.begun.store(s + 1, std::memory_order_release);
        if (m_timing == ReplayTiming::AsRecorded && step.synthetic == 0)
            pause((s == 0 ? m_startNs : lastEnd) + step.gapNs, progress);
        for (std::uint32_t i = 0; i < step.count; ++i) {
            const std::uint64_t start = nowNs();
            bool made = true;
            const std::int64_t result =
                step.group != 0 ? groupSync(step, index, made) : issue(step, i, index);
            const std::uint64_t end = nowNs();
            lastEnd = end;
            if (!made) {
                state.insideNs += end - start; // the thread's wait for its bytes to be durable
            } else if (step.synthetic == 0) {
                state.insideNs += end - start;
                ++state.calls;
                (sync ? state.latency.syncs : state.latency.calls).record(end - start);
            }
            const bool expectFailure = step.error != 0;
            if (result < 0 && !expectFailure) {
                state.outcome = failure(step);
                m_failed.store(true, std::memory_order_relaxed);
                if (counted)
                    m_syncsRunning[step.content].fetch_sub(1, std::memory_order_release);
                state.done.store(s, std::memory_order_release);
                return;
            }
        }
        if (counted)
            m_syncsRunning[step.content].fetch_sub(1, std::memory_order_release);
        if (step.risk != RiskNone)
            account(step);
        if (isReplayWrite(step.call) && !countReads)
            progress.add(step.bytes * step.count);
        else if (countReads &&
                 (step.call == Call::Read || step.call == Call::PRead || step.call == Call::ReadV ||
                  step.call == Call::PReadV || step.call == Call::FRead))
            progress.add(step.bytes * step.count);
        state.done.store(s + 1, std::memory_order_release);
    }
}

std::int64_t ReplayJobBase::groupSync(const ReplayStep& step, std::size_t index, bool& made)
{
    made = false;
    if (step.content >= m_script.contents) {
        made = true;
        return issue(step, 0, index);
    }
    Commit& commit = m_commits[step.content];
    std::unique_lock lock(commit.lock);
    // What this thread handed over before it asked is in the system: a sync begun after it asked covers it.
    const std::uint64_t mine = ++commit.asked;
    std::int64_t result = 0;
    while (commit.covered < mine) {
        if (commit.syncing) {
            commit.done.wait(lock);
            continue;
        }
        // A sync that failed fails the run: nobody makes it again, as if it could bring back what was lost.
        if (commit.failed)
            break;
        commit.syncing = true;
        const std::uint64_t upTo = commit.asked;
        lock.unlock();
        result = issue(step, 0, index);
        lock.lock();
        made = true;
        commit.syncing = false;
        if (result >= 0)
            commit.covered = std::max(commit.covered, upTo);
        else
            commit.failed = true;
        commit.done.notify_all();
        if (result < 0)
            break;
    }
    return result;
}

void ReplayJobBase::account(const ReplayStep& step)
{
    const auto now = TimingClock::now();
    const std::uint64_t bytes = step.bytes * step.count;
    std::lock_guard lock(m_risk.lock);
    Risk& r = m_risk;
    const auto settle = [&](std::size_t c) {
        if (r.pending[c] != 0)
            r.longest = std::max(r.longest, now - r.since[c]);
        r.atRisk -= r.pending[c];
        r.pending[c] = 0;
    };
    const auto wait = [&](std::size_t c, std::uint64_t n, TimingClock::time_point from) {
        if (r.pending[c] == 0 && n != 0)
            r.since[c] = from;
        r.pending[c] += n;
    };
    const std::size_t c = step.content;
    switch (step.risk) {
    case RiskWrite:
        wait(c, bytes, now);
        r.atRisk += bytes;
        break;
    case RiskBuffered:
        if (r.buffered[step.slot] == 0)
            r.bufferedSince[step.slot] = now;
        r.buffered[step.slot] += bytes;
        r.atRisk += bytes;
        break;
    case RiskFlush:
        wait(c, r.buffered[step.slot], r.bufferedSince[step.slot]);
        r.buffered[step.slot] = 0;
        break;
    case RiskFlushDurable:
        if (r.buffered[step.slot] != 0)
            r.longest = std::max(r.longest, now - r.bufferedSince[step.slot]);
        r.atRisk -= r.buffered[step.slot];
        r.buffered[step.slot] = 0;
        break;
    case RiskSync:
        settle(c);
        break;
    case RiskSyncAll:
        for (std::size_t each = 0; each < r.pending.size(); ++each)
            settle(each);
        break;
    case RiskGone:
        r.atRisk -= r.pending[c];
        r.pending[c] = 0;
        break;
    default:
        break;
    }
    r.peak = std::max(r.peak, r.atRisk);
}

} // namespace iolab
