// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/outcome.h"
#include "core/engine/call_timing.h"
#include "core/engine/file_set.h"
#include "core/model/case.h"
#include "core/model/target.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Pattern;

// How a loop ended: its size done or its time limit reached (Completed), the user's stop, or a failure.
enum class LoopEnd
{
    Completed,
    Cancelled,
    Failed
};

// The only contact between a hot loop and the rest of the engine: a relaxed byte counter bumped at a coarse
// grain and two flags polled at the same grain: the user's stop, and the case's time limit running out. One
// per thread, on its own cache line.
struct alignas(64) Progress
{
    std::atomic<std::uint64_t> bytes{0};
    const std::atomic<bool>* stop = nullptr;
    const std::atomic<bool>* timeUp = nullptr; // set when the case has a time limit
    // The kill -9 probe's runs (untimed): `bytes` is published after every call, so that it is at all times
    // what the API has acknowledged. Read once when a loop starts; normal runs publish once per batch.
    bool everyCall = false;
    // The kill -9 probe's kills at an acknowledgement point: where the thread is, for the runner that kills
    // the child, set by the thread itself.
    enum HoldState : std::uint32_t
    {
        Running = 0,
        Held = 1, // stopped at its point, waiting for the kill
        Ended = 2 // its job returned without reaching its point
    };
    std::atomic<std::uint32_t> holdState{Running};

    // Adds to `bytes` and returns the new count (the add's own result: no second load).
    std::uint64_t add(std::uint64_t n) noexcept { return bytes.fetch_add(n, std::memory_order_relaxed) + n; }
    // Where a loop publishes `bytes` (once per batch, after every call in a probe's run): a probe child whose
    // count has reached its acknowledgement point stops there until it is killed. One compare per batch, the
    // hold itself out of line: the measured loops, whose point is never reached, pay nothing more.
    void addAndHoldAtPoint(std::uint64_t n) noexcept
    {
        if (add(n) >= holdAtBytes) [[unlikely]]
            holdForKill();
    }
    bool stopRequested() const noexcept
    {
        return (stop != nullptr && stop->load(std::memory_order_relaxed)) ||
               (timeUp != nullptr && timeUp->load(std::memory_order_relaxed));
    }
    // Whether a loop that saw stopRequested() ran out of time, so that it ended as it should (LoopEnd::
    // Completed: the job then syncs and closes as at the end of its size) rather than being cancelled. The
    // user's stop wins when both are set.
    bool timeIsUp() const noexcept
    {
        return timeUp != nullptr && timeUp->load(std::memory_order_relaxed) &&
               !(stop != nullptr && stop->load(std::memory_order_relaxed));
    }
    // How a loop ends when it saw stopRequested().
    LoopEnd stoppedEnd() const noexcept { return timeIsUp() ? LoopEnd::Completed : LoopEnd::Cancelled; }

    // Power-loss exposure (core/engine/exposure.h): how many of `bytes` a completed sync of this thread has
    // made durable. Stored, relaxed, once per completed sync and never per write; a strategy whose every
    // write returns durable publishes nothing. The sampler reads it while the loop runs.
    std::atomic<std::uint64_t> durable{0};
    // Kept by the loop's own thread and read by the runner once it has joined it: when `durable` last
    // advanced (the runner sets the thread's start), and the longest time between two such moments while
    // acknowledged bytes were waiting.
    TimingClock::time_point durableAt{};
    TimingClock::duration longestWait{};

    // The kill -9 probe's acknowledgement point: once `bytes` reaches it, the thread stops right after the
    // call that got it there (holdForKill). Never reached in any other run.
    static constexpr std::uint64_t kNoHold = ~std::uint64_t{0};
    std::uint64_t holdAtBytes = kNoHold;
    // Says Held and waits until the process is killed; returns only when the stop flag is set (the run was
    // cancelled), so that the loop then ends as a cancelled one does. In core/engine/case_child.cpp.
    void holdForKill() noexcept;

    // A sync that made the thread's first `upTo` bytes durable returned at `at`.
    void markDurable(std::uint64_t upTo, TimingClock::time_point at) noexcept
    {
        if (upTo > durable.load(std::memory_order_relaxed)) {
            longestWait = std::max(longestWait, at - durableAt);
            durable.store(upTo, std::memory_order_relaxed);
        }
        durableAt = at;
    }
};
// One cache line: the probe's fields sit in what was padding, beside the counter the loop has just written.
static_assert(sizeof(Progress) == 64);

// How a C runtime buffers a FILE for a stdio writer, as each backend declares it: what decides how much of
// what fwrite has acknowledged is still only in the process's memory after a call returns (stdioHeldBytes,
// core/engine/crash_probe.h). Both runtimes copy a call into the buffer's free space first and, once the
// buffer is full, write whole buffer-sized blocks of a large call straight to the file.
struct StdioRuntime
{
    std::string name;                     // "glibc", "the Microsoft C runtime"
    std::uint64_t defaultBufferBytes = 0; // a FILE's buffer when setvbuf gave it none
    // glibc (libio/filedoalloc.c): the default is the file's st_blksize instead, when that is smaller
    // (TargetInfo::fileBlockBytes).
    bool defaultFromFileBlock = false;
    // A call that exactly fills the buffer's free space: glibc (libio/fileops.c, _IO_new_file_xsputn) keeps
    // the full buffer until the next call; the Microsoft C runtime (fwrite.c) writes a call of at least a
    // buffer's size straight to the file while its buffer is full or unused, so a chunk the size of the
    // buffer never waits there.
    bool keepsAFullBuffer = true;
    // glibc: with a buffer smaller than this, what does not fit in it goes straight to write(2), whole.
    std::uint64_t smallBufferBytes = 0;

    friend bool operator==(const StdioRuntime&, const StdioRuntime&) = default;
};

// What one thread of one repetition works on.
struct JobSpec
{
    Case testCase;
    std::uint32_t thread = 0;
    std::uint64_t bytes = 0; // this thread's share
    std::string path;        // the data file (Directory targets)
    std::string auxPath;     // a scratch file the strategy may create (e.g. a mapped batch buffer)
    const Pattern* pattern = nullptr;
    bool verifyStream = false; // pipe targets: the reader checks every byte
    TargetInfo target;
    // Reads: the file's first byte's place in the pattern (path is the file to read), and for file-set
    // strategies every file of the set with its absolute path. verifyData compares every byte read.
    std::uint64_t patternOffset = 0;
    const std::vector<DataFile>* files = nullptr;
    bool verifyData = false;
    // This thread's latency histograms when the case times its calls (chooseLatency), else nullptr.
    CallLatency* latency = nullptr;
};

// One prepared thread of work. prepare() did the untimed set-up (open, allocate, spawn a reader); execute()
// is the timed part and ends once the data has been handed over as the strategy's API defines it (fclose
// done, reader drained); finish() reports what the pipe reader saw. The destructor releases everything but
// never removes files: the runner does that through the workspace.
class Job
{
public:
    virtual ~Job() = default;
    virtual Outcome execute(Progress& progress) = 0;
    virtual Outcome finish() { return Outcome::success(); }
    // File-set readers: the time each file took (open to close), in seconds, in no particular order.
    virtual std::vector<double> takeFileSeconds() { return {}; }
};

// How many threads a strategy runs for a case.
enum class Parallelism
{
    Threads, // the threads axis: that many threads
    Single,  // one thread, whatever the axis says (the axis must be 1)
    PerFile  // a new thread for every file of the set, all at once
};

// What one chunk costs a strategy in the duration estimate's rough model (core/analysis/estimate.cpp).
enum class CallCost
{
    Syscall,       // a system call per chunk
    BufferedStdio, // a stdio call into the FILE's buffer, and a system call too when the case has none
    Copy,          // a copy into a mapped buffer, written out a batch at a time
    DirectWrite,   // a direct (unbuffered) write per chunk, waiting for the device
    MappedWindow   // a copy into a mapped window, with map and unmap calls per window (windowBytes)
};

// The preallocations of a writer whose every call puts one chunk at a place of its choosing (write, direct,
// the sync lab's per-call writers): preallocate rewrite as well, every write at the file's start again.
inline std::vector<Preallocate> everyPreallocation()
{
    return {Preallocate::None, Preallocate::Fallocate, Preallocate::Overwrite, Preallocate::Rewrite};
}

struct StrategyInfo
{
    std::string id;
    std::string description; // one line
    Direction direction = Direction::Write;
    DataLayout layout = DataLayout::None; // reads: the files they need written first
    std::vector<ReadHint> hints;          // reads: accepted hints, the first the default; empty: none
    std::string hintRefusal;              // why the other hints do not apply
    Parallelism parallelism = Parallelism::Threads;
    bool usesStdioBuffer = false;
    bool needsBlockAlignedChunks = false; // O_DIRECT: chunk and per-thread size multiples of the block size
    bool needsDirectIo = false;           // opens with O_DIRECT / FILE_FLAG_NO_BUFFERING
    bool needsFallocate = false;          // reserves the file's space up front
    std::vector<TargetKind> targets;      // the first is where it runs when the matrix names none
    std::vector<SyncMode> syncModes;      // supported sync policies
    std::string syncRefusal;              // why other sync policies do not apply
    // Writers to a file: the preallocations it takes (None always); readers and pipes take None only.
    std::vector<Preallocate> preallocations{Preallocate::None, Preallocate::Fallocate,
                                            Preallocate::Overwrite};
    std::string preallocateRefusal;         // why the others do not apply
    std::optional<std::string> unavailable; // set when this OS or build cannot run it at all
    CallCost callCost = CallCost::Syscall;  // for the duration estimate
    std::uint64_t windowBytes = 0;          // CallCost::MappedWindow: the bytes mapped at a time
    // Queued strategies (io_uring, overlapped I/O): the deepest queue they take; 0: none, each call waits.
    std::uint32_t maxQueueDepth = 0;
    // Whether its loop times each call into a histogram when the case's latency axis asks for it
    // (core/engine/call_timing.h); a strategy that cannot refuses latency on.
    bool timesCalls = true;
    // Its calls are copies into or out of memory (a mapping) that take nanoseconds, as a stdio call into its
    // buffer does (usesStdioBuffer): latency auto leaves them untimed, since a clock read would be the cost.
    bool memoryCopyCalls = false;
    // Its threads (the threads axis) write one shared file, run inside one job that the runner gives the
    // case's whole size (group-commit).
    bool threadsShareOneFile = false;
    // Each of its writes returns only once its data is durable (pwritev2 with RWF_DSYNC, a write linked to
    // an fsync): a sync policy has nothing left to do.
    bool durableEachWrite = false;
    // Its sync calls are part of its write calls (an io_uring write linked to its sync): the call histogram
    // holds them, the sync histogram only the sync after the loop.
    bool syncInsideCalls = false;
    // Why what it calls a sync does not make the data durable ("" = it does, where the device honours
    // flushes): sync_file_range writes the pages out, but flushes neither the device's cache nor metadata.
    std::string notDurable;
    // Its progress counts a write only once a sync covering it has returned (group-commit counts a write when
    // its commit does): nothing it counts is ever waiting for a sync.
    bool countsCommittedWrites = false;
    // It holds what it has acknowledged in memory of its own, up to this many bytes per thread, before a
    // write to the file (mmap-batch-direct's mapped batch); 0: none, or the case's stdio buffer
    // (usesStdioBuffer).
    std::uint64_t holdsBackBytes = 0;
    // A strategy making the same calls without a per-call lock (stdio: stdio-unlocked, fwrite_unlocked),
    // which the advice for a CPU-bound case names; "" when there is none.
    std::string lockFreeVariant;
    // A stdio writer: how its C runtime sizes and fills the FILE's buffer (the buffer axis says which
    // buffer), from which the kill -9 probe knows what fwrite's acknowledged bytes can still be in it.
    std::optional<StdioRuntime> stdioRuntime;
    // Its calls go to random chunk-aligned offsets (read-random, write-random, the random queued ones), not
    // from the start of the file to its end.
    bool randomOffsets = false;
    // It keeps the batch it has not yet written out in a file-backed mapping of its scratch file (auxPath):
    // acknowledged bytes a killed process had not written to the data file survive there (mmap-batch-direct).
    bool keepsBatchInScratchFile = false;
};

// A reader's declaration: it reads files in a directory and has no sync policy; `info` says the rest.
inline StrategyInfo readerInfo(StrategyInfo info)
{
    info.direction = Direction::Read;
    info.targets = {TargetKind::Directory};
    info.syncModes = {SyncMode::None};
    info.syncRefusal = "reads have no sync policy";
    info.preallocations = {Preallocate::None};
    info.preallocateRefusal = "reads read a data set written before the timed part";
    return info;
}

class Strategy
{
public:
    virtual ~Strategy() = default;
    virtual const StrategyInfo& info() const = 0;
    // A reason this strategy cannot run the (otherwise valid) case on this target.
    virtual std::optional<std::string> refusal(const Case&, const TargetInfo&) const { return std::nullopt; }
    // Untimed set-up for one thread; returns nullptr and fills `outcome` when it cannot start.
    virtual std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const = 0;
};

} // namespace iolab
