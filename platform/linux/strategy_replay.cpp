// SPDX-License-Identifier: MIT
// replay: a recorded program's calls re-issued in the run folder (core/engine/replay_script.h decides what,
// in which order, on which files, with which bytes). One thread per recorded thread, each making its steps in
// order and waiting where the script says another thread must have gone first; every call timed, so that the
// replay's time inside its calls can be set beside the program's.
#include "core/analysis/program_profile.h"
#include "core/engine/job_execution.h"
#include "core/engine/pattern.h"
#include "core/engine/replay_script.h"
#include "core/model/axes.h"
#include "core/model/replay.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/basic_strategy.h"
#include "platform/posix/posix_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace iolab::linux_backend {

namespace {

using trace::Call;
using SteadyClock = std::chrono::steady_clock;

constexpr std::size_t kMaxVectors = 1024; // IOV_MAX

std::uint64_t nowNs()
{
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count());
}

int openFlagsOf(std::uint32_t flags)
{
    int out = 0;
    const bool reads = (flags & trace::OpenRead) != 0;
    const bool writes = (flags & trace::OpenWrite) != 0;
    out |= reads && writes ? O_RDWR : writes ? O_WRONLY : O_RDONLY;
    if ((flags & trace::OpenCreate) != 0 || (flags & trace::OpenTmpfile) != 0)
        out |= O_CREAT;
    if ((flags & trace::OpenTruncate) != 0)
        out |= O_TRUNC;
    if ((flags & trace::OpenExclusive) != 0)
        out |= O_EXCL;
    if ((flags & trace::OpenAppend) != 0)
        out |= O_APPEND;
    if ((flags & trace::OpenDirect) != 0)
        out |= O_DIRECT;
    if ((flags & trace::OpenSync) != 0)
        out |= O_SYNC;
    if ((flags & trace::OpenDSync) != 0)
        out |= O_DSYNC;
    if ((flags & trace::OpenDirectory) != 0)
        out |= O_DIRECTORY;
    return out | O_CLOEXEC;
}

// fopen's and fdopen's mode for the open flags the recorder kept.
const char* streamMode(std::uint32_t flags)
{
    const bool reads = (flags & trace::OpenRead) != 0;
    const bool writes = (flags & trace::OpenWrite) != 0;
    const bool append = (flags & trace::OpenAppend) != 0;
    const bool truncate = (flags & trace::OpenTruncate) != 0;
    if (reads && writes)
        return append ? "a+" : truncate ? "w+" : "r+";
    if (writes)
        return append ? "a" : "w";
    return "r";
}

int writeFlagsOf(std::uint32_t flags)
{
    int out = 0;
    if ((flags & trace::WriteDSync) != 0)
        out |= RWF_DSYNC;
    if ((flags & trace::WriteSync) != 0)
        out |= RWF_SYNC;
    if ((flags & trace::WriteAppend) != 0)
        out |= RWF_APPEND;
    if ((flags & trace::WriteHiPri) != 0)
        out |= RWF_HIPRI;
    return out;
}

enum class SlotKind : std::uint8_t
{
    None,
    Descriptor,
    Stream,
    Mapping
};

struct Handle
{
    SlotKind kind = SlotKind::None;
    int fd = -1;
    FILE* stream = nullptr;
    void* address = nullptr;
    std::uint64_t mappedBytes = 0;
    std::uint32_t streamFd = kNoReplaySlot; // a stream's descriptor slot (fopen's: closed by fclose)
};

struct alignas(64) ThreadState
{
    std::atomic<std::uint32_t> done{0};
    std::uint64_t insideNs = 0;
    std::uint64_t calls = 0;
    Outcome outcome;
    CallLatency latency;
    std::unique_ptr<std::byte[], decltype(&std::free)> buffer{nullptr, &std::free};
    std::vector<iovec> vectors;
};

class ReplayJob final : public Job
{
public:
    ReplayJob(const JobSpec& spec, ReplayTiming timing)
        : m_script(*spec.replay), m_folder(spec.path), m_pattern(*spec.pattern), m_timing(timing),
          m_latency(spec.latency), m_handles(m_script.slots), m_threads(m_script.threads.size())
    {
        m_risk.pending.assign(m_script.contents, 0);
        m_risk.since.assign(m_script.contents, {});
        m_risk.buffered.assign(m_script.slots, 0);
        m_risk.bufferedSince.assign(m_script.slots, {});
    }

    bool prepare(Outcome& outcome)
    {
        const std::size_t bufferBytes =
            (std::max<std::uint64_t>(m_script.largestCallBytes, 4096) + 4095) / 4096 * 4096 + 4096;
        for (ThreadState& state : m_threads) {
            void* memory = nullptr;
            if (posix_memalign(&memory, 4096, bufferBytes) != 0) {
                outcome = {Status::Failed, ENOMEM, "prepare",
                           fmt::format("cannot allocate the replay's {} read buffer", bufferBytes)};
                return false;
            }
            state.buffer.reset(static_cast<std::byte*>(memory));
            state.vectors.resize(kMaxVectors);
        }
        return true;
    }

    ~ReplayJob() override { closeEverything(); }

    Outcome execute(Progress& progress) override
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
        // What the program's exit did: its streams flushed and closed, its descriptors closed.
        if (Outcome closed = closeEverything(); outcome.ok())
            outcome = std::move(closed);
        return outcome;
    }

    Outcome finish() override
    {
        if (m_latency != nullptr) {
            for (const ThreadState& state : m_threads) {
                m_latency->calls.merge(state.latency.calls);
                m_latency->syncs.merge(state.latency.syncs);
            }
        }
        return Outcome::success();
    }

    std::optional<double> insideSeconds() const override
    {
        std::uint64_t inside = 0;
        for (const ThreadState& state : m_threads)
            inside += state.insideNs;
        return static_cast<double>(inside) / 1e9;
    }

    std::optional<TrackedExposure> trackedExposure() const override
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

    std::uint64_t callsMade() const override
    {
        std::uint64_t calls = 0;
        for (const ThreadState& state : m_threads)
            calls += state.calls;
        return calls;
    }

private:
    void runThread(std::size_t index, Progress& progress);
    bool waitFor(const ReplayWait& wait, Progress& progress);
    void pause(std::uint64_t untilNs, Progress& progress);
    // Makes one call of the step (the i-th of its run); returns the call's result (< 0: failed, errno set).
    std::int64_t call(const ReplayStep& step, std::uint32_t i, ThreadState& state);
    std::string pathOf(std::uint32_t file) const
    {
        return replayPath(m_folder, m_script.files[file].relativePath);
    }
    std::string describe(const ReplayStep& step) const;
    Outcome closeEverything();

    const ReplayScript& m_script;
    std::string m_folder;
    const Pattern& m_pattern;
    ReplayTiming m_timing;
    CallLatency* m_latency;
    std::vector<Handle> m_handles;
    std::vector<ThreadState> m_threads;
    // What the replay's calls have acknowledged that is not yet durable, per file and per stream buffer,
    // under one lock taken once per step that changes it (a step is a system call or a run of them).
    struct Risk
    {
        std::mutex lock;
        std::vector<std::uint64_t> pending;         // per content: handed to the system, not synced
        std::vector<TimingClock::time_point> since; // its oldest byte's moment
        std::vector<std::uint64_t> buffered;        // per stream slot: in the stream's buffer
        std::vector<TimingClock::time_point> bufferedSince;
        std::uint64_t atRisk = 0;
        std::uint64_t peak = 0;
        TimingClock::duration longest{};
    };
    mutable Risk m_risk;
    void account(const ReplayStep& step);
    std::atomic<bool> m_failed{false};
    std::uint64_t m_startNs = 0;
};

bool ReplayJob::waitFor(const ReplayWait& wait, Progress& progress)
{
    if (wait.thread == kNoReplaySlot)
        return true;
    const std::atomic<std::uint32_t>& done = m_threads[wait.thread].done;
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

void ReplayJob::pause(std::uint64_t untilNs, Progress& progress)
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

std::string ReplayJob::describe(const ReplayStep& step) const
{
    const std::uint32_t file = step.file;
    const std::string name = file != kNoReplaySlot ? m_script.files[file].recordedPath : std::string();
    return fmt::format("{}{}", callName(step.call), name.empty() ? "" : " of " + name);
}

void ReplayJob::runThread(std::size_t index, Progress& progress)
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
        if (m_timing == ReplayTiming::AsRecorded && step.synthetic == 0)
            pause((s == 0 ? m_startNs : lastEnd) + step.gapNs, progress);
        const bool sync = isReplaySync(step);
        for (std::uint32_t i = 0; i < step.count; ++i) {
            const std::uint64_t start = nowNs();
            errno = 0;
            const std::int64_t result = call(step, i, state);
            const int error = errno;
            const std::uint64_t end = nowNs();
            lastEnd = end;
            if (step.synthetic == 0) {
                state.insideNs += end - start;
                ++state.calls;
                (sync ? state.latency.syncs : state.latency.calls).record(end - start);
            }
            const bool expectFailure = step.error != 0;
            if (result < 0 && !expectFailure) {
                state.outcome = posix::errnoOutcome(error, describe(step), m_folder);
                m_failed.store(true, std::memory_order_relaxed);
                state.done.store(s, std::memory_order_release);
                return;
            }
        }
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

std::int64_t ReplayJob::call(const ReplayStep& step, std::uint32_t i, ThreadState& state)
{
    const auto at = [&](std::uint64_t offset) {
        return m_pattern.at(offset);
    };
    Handle* h = step.slot != kNoReplaySlot ? &m_handles[step.slot] : nullptr;
    const int fd = h != nullptr ? h->fd : -1;
    FILE* stream = h != nullptr ? h->stream : nullptr;
    const std::uint64_t dataAt = step.dataAt + std::uint64_t{i} * step.bytes;
    const auto bytes = static_cast<std::size_t>(step.bytes);
    const auto vectors = [&](const void* base) {
        const std::size_t count =
            std::clamp<std::size_t>(step.flags, 1, std::min(kMaxVectors, std::max<std::size_t>(bytes, 1)));
        const std::size_t each = bytes / count;
        for (std::size_t v = 0; v < count; ++v) {
            state.vectors[v].iov_base =
                const_cast<std::byte*>(static_cast<const std::byte*>(base) + v * each);
            state.vectors[v].iov_len = v + 1 == count ? bytes - each * (count - 1) : each;
        }
        return static_cast<int>(count);
    };
    switch (step.call) {
    case Call::Open: {
        const int opened = ::open(pathOf(step.file).c_str(), openFlagsOf(step.flags), 0644);
        if (opened >= 0 && step.error != 0) { // the program's failed, the replay's did not: let it go
            ::close(opened);
            return 0;
        }
        if (opened >= 0)
            m_handles[step.slot2] = Handle{SlotKind::Descriptor, opened};
        return opened;
    }
    case Call::FOpen: {
        FILE* opened = nullptr;
        if (step.file != kNoReplaySlot) {
            opened = std::fopen(pathOf(step.file).c_str(), streamMode(step.flags));
            if (opened != nullptr && step.error != 0) {
                std::fclose(opened);
                return 0;
            }
            if (opened != nullptr)
                m_handles[step.slot] = Handle{SlotKind::Descriptor, fileno(opened)};
        } else {
            // fdopen takes the descriptor over; the standard streams over inherited files get a copy.
            const int under = step.synthetic != 0 ? ::dup(fd) : fd;
            opened = under >= 0 ? ::fdopen(under, streamMode(step.flags)) : nullptr;
        }
        if (opened == nullptr)
            return -1;
        Handle made;
        made.kind = SlotKind::Stream;
        made.stream = opened;
        made.streamFd = step.slot;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Close: {
        h->kind = SlotKind::None;
        h->fd = -1;
        return ::close(fd);
    }
    case Call::FClose: {
        if (h->streamFd != kNoReplaySlot)
            m_handles[h->streamFd] = Handle{};
        *h = Handle{};
        return std::fclose(stream) == 0 ? 0 : -1;
    }
    case Call::Dup: {
        const int copy = ::dup(fd);
        if (copy >= 0)
            m_handles[step.slot2] = Handle{SlotKind::Descriptor, copy};
        return copy;
    }
    case Call::SetFlags: {
        int flags = 0;
        if ((step.flags & trace::OpenAppend) != 0)
            flags |= O_APPEND;
        if ((step.flags & trace::OpenDirect) != 0)
            flags |= O_DIRECT;
        return ::fcntl(fd, F_SETFL, flags);
    }
    case Call::Write:
        return ::write(fd, at(dataAt), bytes);
    case Call::PWrite:
        return ::pwrite(fd, at(dataAt), bytes,
                        static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes)));
    case Call::WriteV:
        return ::writev(fd, state.vectors.data(), vectors(at(dataAt)));
    case Call::PWriteV: {
        const off_t offset =
            step.offset < 0 ? -1
                            : static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes));
        return ::pwritev2(fd, state.vectors.data(), vectors(at(dataAt)), offset, writeFlagsOf(step.flags));
    }
    case Call::Read:
        return ::read(fd, state.buffer.get(), bytes);
    case Call::PRead:
        return ::pread(fd, state.buffer.get(), bytes,
                       static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes)));
    case Call::ReadV:
        return ::readv(fd, state.vectors.data(), vectors(state.buffer.get()));
    case Call::PReadV: {
        const off_t offset =
            step.offset < 0 ? -1
                            : static_cast<off_t>(step.offset + static_cast<std::int64_t>(i * step.bytes));
        return ::preadv2(fd, state.vectors.data(), vectors(state.buffer.get()), offset, 0);
    }
    case Call::Seek:
        return ::lseek(fd, static_cast<off_t>(step.offset), static_cast<int>(step.flags));
    case Call::Fsync:
        return ::fsync(fd);
    case Call::Fdatasync:
        return ::fdatasync(fd);
    case Call::SyncFileRange:
        return ::sync_file_range(fd, static_cast<off_t>(step.offset), static_cast<off_t>(step.bytes),
                                 step.flags);
    case Call::Syncfs:
        return ::syncfs(fd);
    case Call::Sync:
        ::sync();
        return 0;
    case Call::Fallocate:
        if (step.flags == 0) {
            const int error =
                ::posix_fallocate(fd, static_cast<off_t>(step.offset), static_cast<off_t>(step.bytes));
            errno = error;
            return error == 0 ? 0 : -1;
        }
        return ::fallocate(fd, static_cast<int>(step.flags), static_cast<off_t>(step.offset),
                           static_cast<off_t>(step.bytes));
    case Call::Ftruncate:
        return ::ftruncate(fd, static_cast<off_t>(step.bytes));
    case Call::Mmap: {
        int protection = 0;
        if ((step.flags & trace::MapRead) != 0)
            protection |= PROT_READ;
        if ((step.flags & trace::MapWrite) != 0)
            protection |= PROT_WRITE;
        const int sharing = (step.flags & trace::MapShared) != 0 ? MAP_SHARED : MAP_PRIVATE;
        void* address = ::mmap(nullptr, bytes, protection, sharing, fd, static_cast<off_t>(step.offset));
        if (address == MAP_FAILED)
            return -1;
        Handle made;
        made.kind = SlotKind::Mapping;
        made.address = address;
        made.mappedBytes = step.bytes;
        m_handles[step.slot2] = made;
        return 0;
    }
    case Call::Msync: {
        int flags = (step.flags & trace::MapSyncWait) != 0 ? MS_SYNC : MS_ASYNC;
        if ((step.flags & trace::MapInvalidate) != 0)
            flags |= MS_INVALIDATE;
        return ::msync(h->address, h->mappedBytes, flags);
    }
    case Call::Munmap: {
        void* address = h->address;
        const std::uint64_t mapped = h->mappedBytes;
        *h = Handle{};
        return ::munmap(address, mapped);
    }
    case Call::Rename:
        return ::rename(pathOf(step.file).c_str(), pathOf(step.file2).c_str());
    case Call::Unlink:
        return ::unlink(pathOf(step.file).c_str());
    case Call::CopyFileRange: {
        const int in = m_handles[step.slot2].fd;
        loff_t offset = step.offset;
        return ::copy_file_range(in, nullptr, fd, step.offset >= 0 ? &offset : nullptr, bytes, 0);
    }
    case Call::SendFile:
        return ::sendfile(fd, m_handles[step.slot2].fd, nullptr, bytes);
    case Call::SetVBuf: {
        const auto mode = static_cast<trace::BufferMode>(step.flags);
        const int how = mode == trace::BufferMode::None   ? _IONBF
                        : mode == trace::BufferMode::Line ? _IOLBF
                                                          : _IOFBF;
        return std::setvbuf(stream, nullptr, how, bytes);
    }
    case Call::FWrite:
        return std::fwrite(at(dataAt), 1, bytes, stream) == bytes || bytes == 0 ? 0 : -1;
    case Call::FPutc:
        return std::fputc(std::to_integer<unsigned char>(m_pattern.byteAt(step.dataAt + i)), stream) == EOF
                   ? -1
                   : 0;
    case Call::FPuts: {
        // A string of the pattern's bytes (never zero), ended where the call's ended.
        auto* text = reinterpret_cast<char*>(state.buffer.get());
        std::memcpy(text, at(dataAt), bytes);
        text[bytes] = '\0';
        return std::fputs(text, stream) == EOF ? -1 : 0;
    }
    case Call::FPrintf:
        return std::fprintf(stream, "%.*s", static_cast<int>(bytes),
                            reinterpret_cast<const char*>(at(dataAt))) < 0
                   ? -1
                   : 0;
    case Call::FFlush:
        return std::fflush(stream) == 0 ? 0 : -1;
    case Call::FRead:
        (void)std::fread(state.buffer.get(), 1, bytes, stream);
        return std::ferror(stream) ? -1 : 0;
    case Call::FGetc:
        (void)std::fgetc(stream);
        return std::ferror(stream) ? -1 : 0;
    case Call::FGets:
        (void)std::fgets(reinterpret_cast<char*>(state.buffer.get()),
                         static_cast<int>(std::max<std::size_t>(bytes, 2)), stream);
        return std::ferror(stream) ? -1 : 0;
    case Call::FSeek:
        return ::fseeko(stream, static_cast<off_t>(step.offset), static_cast<int>(step.flags));
    case Call::StreamSpill:
        if (step.flags != 0)
            return std::fwrite(at(dataAt), 1, bytes, stream) == bytes ? 0 : -1;
        (void)std::fread(state.buffer.get(), 1, bytes, stream);
        return std::ferror(stream) ? -1 : 0;
    default:
        return 0;
    }
}

void ReplayJob::account(const ReplayStep& step)
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

Outcome ReplayJob::closeEverything()
{
    Outcome outcome = Outcome::success();
    for (Handle& h : m_handles) {
        if (h.kind == SlotKind::Stream) {
            if (h.streamFd != kNoReplaySlot)
                m_handles[h.streamFd] = Handle{};
            if (std::fclose(h.stream) != 0 && outcome.ok())
                outcome = posix::errnoOutcome(errno, "fclose (at the program's end)", m_folder);
            h = Handle{};
        }
    }
    for (Handle& h : m_handles) {
        if (h.kind == SlotKind::Mapping)
            ::munmap(h.address, h.mappedBytes);
        else if (h.kind == SlotKind::Descriptor && h.fd >= 0)
            ::close(h.fd);
        h = Handle{};
    }
    return outcome;
}

class ReplayStrategy final : public BasicStrategy
{
public:
    ReplayStrategy() : BasicStrategy(replayStrategyInfo()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        if (spec.replay == nullptr || spec.pattern == nullptr) {
            outcome = {Status::Failed, 0, "prepare", "a replay job was given no script"};
            return nullptr;
        }
        if (spec.replay->system != trace::System::Linux) {
            outcome = {
                Status::Refused, 0, "prepare",
                fmt::format("{} was recorded on Windows: a replay runs on the system it was recorded on",
                            spec.replay->traceName)};
            return nullptr;
        }
        const ReplayTiming timing =
            parseReplayTiming(extraAxisValue(spec.testCase, "replay-timing", "back-to-back"));
        auto job = std::make_unique<ReplayJob>(spec, timing);
        if (!job->prepare(outcome))
            return nullptr;
        return job;
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeReplayStrategy()
{
    return std::make_unique<linux_backend::ReplayStrategy>();
}

} // namespace iolab
