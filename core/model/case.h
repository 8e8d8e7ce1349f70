// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

inline constexpr std::uint32_t kMaxFileSetFiles = 1'000'000;
inline constexpr std::uint64_t kMaxFileSetFileBytes = 1ULL << 30; // 1 GiB

enum class Direction
{
    Write,
    Read
};

// Where the bytes go: files in the run folder, a pipe drained by a reader thread, or the null device.
enum class TargetKind
{
    Directory,
    Pipe,
    Null
};

enum class SyncMode
{
    None,
    FsyncEnd,
    FdatasyncEnd,
    FsyncEvery,
    FdatasyncEvery, // pg_test_fsync's "fdatasync": the data and only the metadata needed to read it back
    OSync,
    ODsync
};

// fsync-every:N or fdatasync-every:N: a sync call after every N writes.
constexpr bool syncsEveryN(SyncMode mode) noexcept
{
    return mode == SyncMode::FsyncEvery || mode == SyncMode::FdatasyncEvery;
}
// Its sync call is fdatasync (data only), not fsync.
constexpr bool syncsDataOnly(SyncMode mode) noexcept
{
    return mode == SyncMode::FdatasyncEnd || mode == SyncMode::FdatasyncEvery;
}
// The call a sync policy makes: "fdatasync" or "fsync" (the name O_SYNC and O_DSYNC would fall back to).
constexpr const char* syncCallName(SyncMode mode) noexcept
{
    return syncsDataOnly(mode) ? "fdatasync" : "fsync";
}

struct SyncPolicy
{
    SyncMode mode = SyncMode::None;
    std::uint32_t everyWrites = 0; // only for FsyncEvery and FdatasyncEvery

    // The writes between two sync calls in the loop, 0 for a policy that makes none there.
    std::uint32_t loopSyncEvery() const noexcept { return syncsEveryN(mode) ? everyWrites : 0; }

    friend bool operator==(const SyncPolicy&, const SyncPolicy&) = default;
};

// The stdio buffer axis. NotApplicable is what non-stdio strategies carry; a stdio case never holds it.
enum class BufferMode
{
    NotApplicable,
    None,
    Default,
    Bytes
};

struct StdioBuffer
{
    BufferMode mode = BufferMode::NotApplicable;
    std::uint64_t bytes = 0; // only for Bytes

    friend bool operator==(const StdioBuffer&, const StdioBuffer&) = default;
};

// The access-pattern hint a read strategy gives the kernel: posix_fadvise / madvise on Linux, the
// FILE_FLAG_SEQUENTIAL_SCAN / FILE_FLAG_RANDOM_ACCESS open flags on Windows. Writes carry NotApplicable.
enum class ReadHint
{
    NotApplicable,
    Normal,
    Sequential,
    Random,
    NoReuse
};

// Where a read's data starts: evicted from the page cache before every repetition (the default), or read
// once beforehand so that it is all cached. Writes carry NotApplicable.
enum class CacheState
{
    NotApplicable,
    Cold,
    Warm
};

// What a write case's file holds before the timed part. None: a new, empty file that grows as it is written
// (IOLab's default, as a program writing a new file does). Fallocate: its space reserved first, untimed
// (fallocate(2); Windows: the file's allocation size), as fio lays out its files. Overwrite: the whole file
// written and made durable first, untimed, so that the timed part overwrites blocks that exist, as fio's
// overwrite mode does. Rewrite: the file's first chunk written and made durable first, untimed, then every
// write of the timed part lands on that chunk again, in place: a log rewriting its current page, and what
// pg_test_fsync times (it writes offset 0 of its file on every op). Reads, pipes and the null device always
// carry None.
enum class Preallocate
{
    None,
    Fallocate,
    Overwrite,
    Rewrite
};

// Whether a case's bytes per second are a throughput to rank and chart against other cases: not under
// preallocate rewrite, whose rate counts every write of one chunk while the disk holds that one chunk (its
// figure is ops per second, for the sync lab).
constexpr bool ratesAsThroughput(Preallocate preallocate) noexcept
{
    return preallocate != Preallocate::Rewrite;
}

// Where a writer puts the bytes its loop has reached `offset` with: there, or under preallocate rewrite at
// the file's start, every write again.
constexpr std::uint64_t placeInFile(Preallocate preallocate, std::uint64_t offset) noexcept
{
    return preallocate == Preallocate::Rewrite ? 0 : offset;
}

// How much of a writer's file its writes cover once it has written `written` bytes in chunks of `chunk`.
constexpr std::uint64_t bytesInFile(Preallocate preallocate, std::uint64_t chunk,
                                    std::uint64_t written) noexcept
{
    return preallocate == Preallocate::Rewrite && chunk < written ? chunk : written;
}

// Where a pipe case's reader thread runs against its writer. Any: where the scheduler puts them (IOLab's
// default, as two programs joined by a pipe run). Same: both pinned to one CPU, taking turns, so that the
// figure is the data path's CPU cost alone. Other: pinned to two different CPUs, so that every hand-over
// crosses between CPUs (a wake-up on the other CPU, the data moving between caches). On a virtual machine
// the placement the scheduler picks can change the rate threefold from one repetition to the next. Every
// other case carries Any.
enum class ReaderCpu
{
    Any,
    Same,
    Other
};

// Whether each call's latency is timed into a histogram. Auto: wherever a call is a system call or a device
// operation (write, direct, pipes, reads, sync writes, queued I/O), not for stdio calls under 4 KiB into a
// buffer or copies into a mapping, whose per-call cost is a few nanoseconds: a clock read per call would be
// the measurement. On forces it where the strategy can time its calls; Off never times them.
enum class LatencyMode
{
    Auto,
    On,
    Off
};

// Until steady (--until-steady): a write case ends once its rate has settled, or at its size or time limit,
// whichever comes first, and reports the steady rate and when it was reached (core/engine/steady.h has the
// criterion). Settle: the first flat window ends it, as fio's steady-state options do. PastCache: only a
// flat window at least kSteadyDropFactor times slower than the case's fastest stretch ends it, so that a
// write runs past a fast cache (an SSD's SLC cache) into the rate behind it; without a drop it runs to its
// caps, and it takes no warm-up repetition, which would fill the very cache it measures.
enum class SteadyMode
{
    Off,
    Settle,
    PastCache
};

struct SteadyRule
{
    SteadyMode mode = SteadyMode::Off;
    std::uint32_t windowMs = 0; // the window whose rate must be flat; 0 when Off

    bool on() const noexcept { return mode != SteadyMode::Off; }
    friend bool operator==(const SteadyRule&, const SteadyRule&) = default;
    // The editor's canonical order: off, then settle, then past-cache, each by its window.
    friend bool operator<(const SteadyRule& a, const SteadyRule& b)
    {
        return a.mode != b.mode ? a.mode < b.mode : a.windowMs < b.windowMs;
    }
};

inline constexpr std::uint32_t kDefaultSteadyWindowMs = 10'000;
// The first seconds of a write no steady window covers (fio's ss_ramp): min(2 s, a quarter window).
constexpr double steadyRampSeconds(const SteadyRule& rule) noexcept
{
    return rule.windowMs / 4000.0 < 2.0 ? rule.windowMs / 4000.0 : 2.0;
}
// The largest share of the target's free space a case may be sized to: never all of it.
inline constexpr std::uint32_t kMaxFreeSharePercent = 50;
inline constexpr std::uint32_t kMinSteadyWindowMs = 1'000;
inline constexpr std::uint32_t kMaxSteadyWindowMs = 600'000;

// Where a random reader's requests land (fio's random_distribution): every chunk alike, or a hot spot.
// Zipf: the chunk of rank k (1 = hottest) drawn with probability proportional to 1 / k^theta. Pareto: fio's
// pareto:h, where a share h of the requests go to the hottest share 1 - h of the chunks (pareto:0.9: 90% to
// 10%), the same skew repeated inside each part. The ranks are scattered over the file by one permutation
// that every thread shares, so the hot chunks are the same for all of them and not the file's first ones.
// None: the case picks no random offsets (the strategy reads front to back, or writes every chunk once).
enum class RandomDistKind
{
    None,
    Uniform,
    Zipf,
    Pareto
};

struct RandomDist
{
    RandomDistKind kind = RandomDistKind::None;
    double param = 0; // Zipf: theta (0.01 to 100); Pareto: h (0.01 to 0.99); else 0

    bool hotSpot() const noexcept { return kind == RandomDistKind::Zipf || kind == RandomDistKind::Pareto; }
    friend bool operator==(const RandomDist&, const RandomDist&) = default;
    friend bool operator<(const RandomDist& a, const RandomDist& b)
    {
        return a.kind != b.kind ? a.kind < b.kind : a.param < b.param;
    }
};

// io_uring's own options for the uring-* queued strategies (the --uring axis). Auto: the file and the
// buffers registered where the kernel allows it, unregistered where it refuses (a locked-memory limit), as
// these strategies always did; the result says which were in effect. Explicit: exactly the options named,
// each refused with the reason when the kernel or the device will not have it, never dropped in silence.
// FixedBuffers: registered buffers (fio's fixedbufs); RegisteredFiles: the file registered (registerfiles);
// SqPoll: a kernel thread polls the submission queue (IORING_SETUP_SQPOLL, sqthread_poll); IoPoll: the
// thread polls the device for completions (IORING_SETUP_IOPOLL, fio's hipri), O_DIRECT on a device with
// poll queues only. Every other strategy carries NotApplicable.
struct UringOptions
{
    enum class Mode
    {
        NotApplicable,
        Auto,
        Explicit
    };
    Mode mode = Mode::NotApplicable;
    bool fixedBuffers = false;
    bool registeredFiles = false;
    bool sqPoll = false;
    bool ioPoll = false;

    static UringOptions automatic() { return {Mode::Auto}; }
    // What two threads (or repetitions) both had in effect: only what every one of them had is claimed.
    static UringOptions common(const UringOptions& a, const UringOptions& b)
    {
        return {Mode::Explicit, a.fixedBuffers && b.fixedBuffers, a.registeredFiles && b.registeredFiles,
                a.sqPoll && b.sqPoll, a.ioPoll && b.ioPoll};
    }
    static UringOptions plain() { return {Mode::Explicit}; }
    bool applies() const noexcept { return mode != Mode::NotApplicable; }
    // The options Auto tries and an explicit value names: what a uring-* strategy asks of the kernel.
    bool wantsFixedBuffers() const noexcept { return mode == Mode::Auto || fixedBuffers; }
    bool wantsRegisteredFiles() const noexcept { return mode == Mode::Auto || registeredFiles; }

    friend bool operator==(const UringOptions&, const UringOptions&) = default;
    // The editor's canonical order: auto, plain, then by the options named.
    friend bool operator<(const UringOptions& a, const UringOptions& b)
    {
        const auto key = [](const UringOptions& o) {
            return (static_cast<int>(o.mode) << 4) | (o.fixedBuffers ? 1 : 0) | (o.registeredFiles ? 2 : 0) |
                   (o.sqPoll ? 4 : 0) | (o.ioPoll ? 8 : 0);
        };
        return key(a) < key(b);
    }
};

// The bytes a case writes, and those of the files a read case reads (IOLab writes them first). Iolab: IOLab's
// own pattern, never a zero byte, with no repeat inside its 256 KiB period (the default: nothing a compressor
// with a smaller window can shrink). Zeros: every byte zero, what a compressing or deduplicating layer
// shrinks to almost nothing. Random: pseudo-random bytes, incompressible in the same way as IOLab's but with
// zero bytes among them, as fio's buffers are. Compressible: each 4 KiB block `percent` per cent zeros, the
// rest random, as fio's buffer_compress_percentage makes them: a compressor saves about that share. A case
// whose rate moves between zeros and random is measuring a compressor or deduplicator, not the disk.
enum class PatternKind
{
    Iolab,
    Zeros,
    Random,
    Compressible
};

struct DataPattern
{
    PatternKind kind = PatternKind::Iolab;
    std::uint32_t percent = 0; // Compressible only: 1 to 99

    friend bool operator==(const DataPattern&, const DataPattern&) = default;
};

// The block a compressible pattern alternates random bytes and zeros within (fio's buffer_compress_chunk).
inline constexpr std::uint64_t kCompressibleBlockBytes = 4096;

// The largest queue depth the axis accepts (a ring or a completion port may allow less).
inline constexpr std::uint32_t kMaxQueueDepth = 4096;

// How the sizes of a generated file set are drawn.
enum class SizeMix
{
    None,    // not a file-set case
    Fixed,   // every file minBytes
    Uniform, // evenly spread over minBytes..maxBytes
    Article  // a heavy-tailed mix measured on real systems (the .NET reading article), named by `name`
};

// A generated file set: `files` files in nested folders with sizes from `mix`. Deterministic: the same spec
// always gives the same sizes in the same order.
struct FileSetSpec
{
    std::uint32_t files = 0; // 0: the case reads no file set
    SizeMix mix = SizeMix::None;
    std::uint64_t minBytes = 0;
    std::uint64_t maxBytes = 0;
    std::uint64_t meanBytes = 0; // Article: the mix's mean
    std::string name;            // Article: "article-2b", ...

    bool empty() const noexcept { return files == 0; }

    friend bool operator==(const FileSetSpec&, const FileSetSpec&) = default;
};

// A heavy-tailed size mix from the .NET reading article's tables (sizes of real files on a Windows system).
struct ArticleMix
{
    const char* name;
    std::uint64_t minBytes;
    std::uint64_t maxBytes;
    std::uint64_t meanBytes;
    const char* description;
};
const std::vector<ArticleMix>& articleMixes();

struct Case
{
    std::string strategy;
    Direction direction = Direction::Write;
    std::uint64_t chunkBytes = 0;
    std::uint64_t totalBytes = 0; // the whole case; threads split it, one file each
    StdioBuffer buffer;
    SyncPolicy sync;
    std::uint32_t threads = 1;
    TargetKind target = TargetKind::Directory;
    ReadHint hint = ReadHint::NotApplicable;
    CacheState cache = CacheState::NotApplicable;
    FileSetSpec fileSet; // file-set strategies: the set they read; totalBytes is its size
    Preallocate preallocate = Preallocate::None;
    ReaderCpu readerCpu = ReaderCpu::Any; // pipe cases
    // Requests kept in flight by a queued strategy (io_uring, overlapped I/O); 0 for every other strategy,
    // which waits for each call.
    std::uint32_t queueDepth = 0;
    LatencyMode latency = LatencyMode::Auto;
    DataPattern pattern; // the bytes written (reads: the bytes of the files read)
    // A time limit on the timed part in milliseconds, 0 for none: the case ends at whichever comes first, its
    // total size or the limit (fio's runtime=), and counts what it wrote by then. The sync lab bounds each
    // method by time, as pg_test_fsync does.
    std::uint64_t timeLimitMs = 0;
    // A cap on the memory of the process that runs the case, 0 for none: the case runs in a child process in
    // a memory cgroup of its own, whose page cache counts against the cap (article 001's question).
    std::uint64_t memoryLimitBytes = 0;
    SteadyRule steady; // writes to a file: end once the rate is steady (Off: run to the size or time limit)
    // Writes to a file: the total size is at most this share of the target's free space, in per cent (1 to
    // kMaxFreeSharePercent), settled when the run is planned (makeRunPlan); 0: the size as given.
    std::uint32_t freeSharePercent = 0;
    // Random readers of a shared file: the share of requests that read, the others writing the same bytes
    // back in place (fio's rwmixread); nullopt: every request reads (or the strategy takes no mix).
    std::optional<std::uint32_t> readPercent;
    RandomDist randomDist; // random readers: where requests land (None for every other strategy)
    UringOptions uring;    // the uring-* strategies: io_uring's own options (NotApplicable for the others)
    // Axes declared without a typed field (core/model/axes.h): matrix key -> the value's canonical text.
    std::map<std::string, std::string> extraAxes;

    // Bytes the given thread writes: an even share, the remainder going to the last thread.
    std::uint64_t bytesForThread(std::uint32_t thread) const noexcept;

    // One line naming every axis, e.g. "stdio chunk=1 buf=64K sync=none threads=1 size=512M"; reads name
    // their hint and cache state instead of the sync policy, file-set cases their set.
    std::string label() const;

    friend bool operator==(const Case&, const Case&) = default;
};

// The warm-up repetitions a case runs of a run's `warmups`: none for a write past a fast cache
// (SteadyMode::PastCache), whose warm-up would fill the cache its measured repetition is to find.
inline std::uint32_t warmupsFor(const Case& c, std::uint32_t warmups) noexcept
{
    return c.steady.mode == SteadyMode::PastCache ? 0 : warmups;
}

// Whether a case mixes writes into its reads: a read share under 100%.
inline bool mixes(const Case& c) noexcept
{
    return c.readPercent && *c.readPercent < 100;
}

std::string toString(Direction direction);
std::string toString(TargetKind kind);
std::string toString(SyncPolicy policy);
std::string toString(StdioBuffer buffer);
std::string toString(ReadHint hint);
std::string toString(CacheState cache);
std::string toString(Preallocate preallocate); // "none", "fallocate", "overwrite", "rewrite"
std::string toString(ReaderCpu placement);     // "any", "same", "other"
std::string toString(LatencyMode mode);        // "auto", "on", "off"
std::string toString(DataPattern pattern);     // "iolab", "zeros", "random", "compressible:50%"
std::string toString(SteadyRule rule);         // "off", "10s", "past-cache:10s"
std::string toString(RandomDist dist);         // "none", "uniform", "zipf:1.2", "pareto:0.9"
std::string toString(const FileSetSpec& set);  // "2000x4K", "500x1K-64K", "2000xarticle-2b"
// "n/a", "auto", "plain", or the options joined by '+' in this order:
// "fixedbufs+registerfiles+sqpoll+iopoll".
std::string toString(const UringOptions& options);
// A read's hint and cache state for tables: "sequential, cold", or "cold" without a hint; "" for writes.
std::string readAxesText(const Case& c);
// A pipe case's reader in words for sentences: where it was placed, and what it was where that was not a
// thread blocking in its calls (--reader process, --reader-wait spin): "the reader on the writer's CPU",
// "the reader on another CPU", "a spinning reader process on another CPU", "a reader process"; "" when a
// reader thread was placed by the scheduler or the case has no reader.
std::string readerCpuWords(const Case& c);

// A pattern in sentences: "zeros", "random bytes", "50% compressible bytes", "IOLab's own pattern".
std::string patternWords(const DataPattern& pattern);

// Parsers throw InputError with the accepted spellings.
Direction parseDirection(std::string_view text);
TargetKind parseTargetKind(std::string_view text);
SyncPolicy parseSyncPolicy(std::string_view text);
StdioBuffer parseStdioBuffer(std::string_view text);
ReadHint parseReadHint(std::string_view text);
CacheState parseCacheState(std::string_view text);
FileSetSpec parseFileSet(std::string_view text);
Preallocate parsePreallocate(std::string_view text);
ReaderCpu parseReaderCpu(std::string_view text);
LatencyMode parseLatencyMode(std::string_view text);
DataPattern parseDataPattern(std::string_view text);
// "off", "on" (10 s), "5s" (a window), "past-cache", "past-cache:30s".
SteadyRule parseSteadyRule(std::string_view text);
// "none", "uniform", "zipf:THETA" (0.01 to 100), "pareto:H" (0.01 to 0.99).
RandomDist parseRandomDist(std::string_view text);
// A read share: "70", "70%" (0 to 100).
std::uint32_t parseReadPercent(std::string_view text);
// A distribution in sentences: "uniform", "a Zipf hot spot (theta 1.2)", "a Pareto hot spot (90% of requests
// on 10% of the file)"; "" for None.
std::string randomDistWords(const RandomDist& dist);
// The expected share of requests that land on the hottest `chunkShare` (0 to 1) of `chunks` chunks: for
// Zipf the sum of the first ranks' weights over all of them, for Pareto fio's closed form, for Uniform the
// share itself. What DiskSpd's two-part hot spot is set from, and what tests hold the samplers to.
double hotShare(const RandomDist& dist, std::uint64_t chunks, double chunkShare);
// "auto", "plain", or fixedbufs, registerfiles, sqpoll and iopoll joined by '+' in any order.
UringOptions parseUringOptions(std::string_view text);

} // namespace iolab
