// SPDX-License-Identifier: MIT
#include "core/model/presets.h"

#include "core/base/stats.h"
#include "core/base/units.h"

#include <fmt/format.h>

namespace iolab {

namespace {

MatrixGroup group(std::vector<std::string> strategies, std::vector<std::uint64_t> chunks,
                  std::vector<std::uint64_t> sizes)
{
    MatrixGroup g;
    g.strategies = std::move(strategies);
    g.chunks = std::move(chunks);
    g.sizes = std::move(sizes);
    return g;
}

// Direct I/O with requests in flight through each OS's queue (io_uring on Linux, overlapped I/O on Windows;
// the other family is refused with the reason), at one request and at `depth`: the cdm and health-check rows.
MatrixGroup queuedDirect(const char* access, std::uint64_t chunk, std::uint64_t size, std::uint32_t depth)
{
    auto g = group({fmt::format("uring-{}-direct", access), fmt::format("overlapped-{}-direct", access)},
                   {chunk}, {size});
    g.queueDepths = {1, depth};
    return g;
}

std::vector<Matrix> makePresets()
{
    std::vector<Matrix> presets;

    {
        // One question, answered in about a minute: every way of writing a file at one chunk size, each
        // sized so that a repetition lasts long enough to measure; then the pipe pair, compared apart. Five
        // repetitions, so that one slowed by the host (a VM's, a desktop's indexer) is left out of the spread
        // as it is left out of the trimmed mean, instead of calling the whole row noisy.
        Matrix m{"quick",
                 "Every way of writing a file at 64 KiB per call (buffered 1 GiB each, O_DIRECT 512 MiB, "
                 "mmap 128 MiB), then write(2) against vmsplice into a pipe, 4 GiB each, the reader on the "
                 "writer's CPU; 5 repetitions.",
                 {}};
        m.repetitions = kTrimmedMeanMinCount;
        m.question = "Which way of writing a file in 64 KiB chunks is fastest here, counting the time until "
                     "the data is on the device, and how fast can a pipe take the same chunks?";
        // Groups as the matrix editor forms them (stdio's buffer axis sets it apart), so that a preset opened
        // in the editor and saved back is the same matrix.
        m.groups.push_back(group({"stdio", "stdio-unlocked"}, {64 * kKiB}, {1 * kGiB}));
        m.groups.push_back(group({"write"}, {64 * kKiB}, {1 * kGiB}));
        // Sized for repetitions of about 0.3 s or more at what each reaches on a small VM: O_DIRECT ~1 GB/s,
        // a 64 KiB mapping per chunk or the batch buffer flushed with O_DIRECT ~70-140 MB/s.
        m.groups.push_back(group({"direct"}, {64 * kKiB}, {512 * kMiB}));
        m.groups.push_back(group({"mmap-window", "mmap-batch-direct"}, {64 * kKiB}, {128 * kMiB}));
        // The pipe pair with its reader pinned to the writer's CPU: there a pipe takes 64 KiB chunks at ~5
        // GB/s (write) and ~8 GB/s (vmsplice, the reader checking every byte) within 1-2% from one
        // repetition to the next, and 4 GiB keeps a repetition at 0.5 s or more. Left to the scheduler, the
        // same pair ran at 1.3-3 GB/s on a 2-CPU VM and varied by 6-17%: whether the reader shared the
        // writer's CPU or woke up on the other one moved the rate threefold (the `pipe` preset shows both).
        auto pipes = group({"pipe-write", "vmsplice"}, {64 * kKiB}, {4 * kGiB});
        pipes.readerCpus = {ReaderCpu::Same};
        m.groups.push_back(std::move(pipes));
        presets.push_back(std::move(m));
    }
    {
        // 000: fwrite vs fwrite_unlocked, 512 MB written one byte at a time, setvbuf from none to 8 MB.
        Matrix m{"stdio-per-byte",
                 "fwrite vs fwrite_unlocked writing 512 MiB one byte at a time, stdio buffer none to 8 MiB "
                 "(after the article \"Speeding up C/C++ file I/O without much effort\"), each repetition "
                 "stopped after 2 s if it has not finished: unbuffered, a byte costs a system call, and "
                 "512 MiB would take a quarter of an hour.",
                 {}};
        m.question = "When a program writes one byte at a time, how much do the stdio buffer size and "
                     "fwrite's locking cost?";
        auto g = group({"stdio", "stdio-unlocked"}, {1}, {512 * kMiB});
        // A rate, not a time to write 512 MiB, is the answer: 2 s of one-byte calls measure it as well.
        g.timeLimitsMs = {2000};
        g.buffers = {{BufferMode::None, 0},          {BufferMode::Default, 0},
                     {BufferMode::Bytes, 1 * kKiB},  {BufferMode::Bytes, 4 * kKiB},
                     {BufferMode::Bytes, 64 * kKiB}, {BufferMode::Bytes, 256 * kKiB},
                     {BufferMode::Bytes, 1 * kMiB},  {BufferMode::Bytes, 8 * kMiB}};
        m.groups.push_back(std::move(g));
        presets.push_back(std::move(m));
    }
    {
        // 004: dd count=10000 bs=512 with no flag, oflag=direct, oflag=sync, oflag=dsync, conv=fsync,
        // conv=fdatasync.
        Matrix m{"sync-modes",
                 "512-byte writes, 10000 of them, as dd does: none, O_DIRECT, O_SYNC, O_DSYNC, fsync and "
                 "fdatasync at the end (after the article \"Until a file is written to the disk\").",
                 {}};
        m.question = "What does each way of making 512-byte writes durable cost, as dd's flags do it?";
        // Plain stdio is the speed-up's baseline.
        m.groups.push_back(group({"stdio"}, {512}, {std::uint64_t{512} * 10000}));
        auto buffered = group({"write"}, {512}, {std::uint64_t{512} * 10000});
        buffered.syncs = {{SyncMode::None, 0},
                          {SyncMode::FsyncEnd, 0},
                          {SyncMode::FdatasyncEnd, 0},
                          {SyncMode::OSync, 0},
                          {SyncMode::ODsync, 0}};
        m.groups.push_back(std::move(buffered));
        m.groups.push_back(group({"direct"}, {512}, {std::uint64_t{512} * 10000}));
        presets.push_back(std::move(m));
    }
    {
        // 001: 4 KiB writes: buffered with several threads, O_DIRECT, mmap 16 KiB windows, mmap batch +
        // O_DIRECT.
        Matrix m{
            "bandwidth-4k",
            "4 KiB writes: buffered write(2) with 1, 2 and 4 threads, O_DIRECT, mmap windows and an mmap "
            "batch buffer flushed to an O_DIRECT file (after the article \"Writing files on Linux: how to "
            "saturate the disk bandwidth steadily\").",
            {}};
        m.question = "Which way of writing 4 KiB blocks moves the most data: buffered with threads, O_DIRECT "
                     "or mmap?";
        m.groups.push_back(group({"stdio"}, {4 * kKiB}, {512 * kMiB})); // the speed-up's baseline
        auto buffered = group({"write"}, {4 * kKiB}, {512 * kMiB});
        buffered.threads = {1, 2, 4};
        m.groups.push_back(std::move(buffered));
        m.groups.push_back(group({"direct", "mmap-window", "mmap-batch-direct"}, {4 * kKiB}, {512 * kMiB}));
        presets.push_back(std::move(m));
    }
    {
        // 002: a fast `yes`: write(2) into a pipe vs vmsplice of the same pages.
        Matrix m{"pipe",
                 "write(2) vs vmsplice(2) into a pipe drained by a reader thread (after the article "
                 "\"Speeding up yes (pipes only)\").",
                 {}};
        m.question =
            "How much faster than write(2) does vmsplice fill a pipe, chunk size by chunk size, with "
            "the reader on the writer's CPU and on another one?";
        // Five repetitions, as for quick: a reader on another CPU is at the mercy of wake-ups, and one slow
        // repetition should be left out, not make the row noisy. Sized for 0.4 s or more a repetition at
        // what each reached on a 2-CPU VM: write(2) 1.2-4.9 GB/s, vmsplice 2.4-22 GB/s (1 MiB chunks with
        // the reader on another CPU are the fastest: the copy-out runs beside the next vmsplice).
        m.repetitions = kTrimmedMeanMinCount;
        auto writes = group({"pipe-write"}, {64 * kKiB, 256 * kKiB, 1 * kMiB}, {2 * kGiB});
        writes.readerCpus = {ReaderCpu::Same, ReaderCpu::Other};
        m.groups.push_back(std::move(writes));
        auto spliced = group({"vmsplice"}, {64 * kKiB, 256 * kKiB, 1 * kMiB}, {8 * kGiB});
        spliced.readerCpus = {ReaderCpu::Same, ReaderCpu::Other};
        m.groups.push_back(std::move(spliced));
        presets.push_back(std::move(m));
    }
    {
        // 003: many files read one by one, by a capped pool and by a thread each, over the article's size
        // mixes.
        Matrix m{"small-files",
                 "Many small files (after the article \"How to read data from disk more efficiently (in "
                 ".NET)\"): the article's size mixes (2 B / 1 KB / 10 KB up to 25-140 "
                 "MB, mean "
                 "40-430 KB) read by one thread in order, a pool capped at 1 to 256 threads, and a thread "
                 "per file; "
                 "cold cache.",
                 {}};
        m.question = "How fast can many small files be read from a cold cache: one by one, by a pool of "
                     "threads, or by a thread each?";
        MatrixGroup g;
        g.strategies = {"files-serial", "files-pool", "files-per-thread"};
        g.chunks = {64 * kKiB};
        g.threads = {1, 2, 4, 8, 16, 32, 64, 128, 256};
        for (const char* set :
             {"1000xarticle-2b", "1000xarticle-1k", "1000xarticle-10k", "500xarticle-10k-large"})
            g.fileSets.push_back(parseFileSet(set));
        m.groups.push_back(std::move(g));
        presets.push_back(std::move(m));
    }
    {
        Matrix m{"read-seq",
                 "Sequential reads of a 512 MiB file from a cold cache: read(2) chunk sizes x posix_fadvise "
                 "hints, "
                 "fread/fread_unlocked with stdio buffers, O_DIRECT, and mmap with madvise hints.",
                 {}};
        m.question =
            "Which way of reading a large file from start to end, from a cold cache, is fastest, and "
            "do access hints help?";
        auto plain = group({"read"}, {4 * kKiB, 64 * kKiB, 1 * kMiB, 8 * kMiB}, {512 * kMiB});
        plain.hints = {ReadHint::Normal, ReadHint::Sequential, ReadHint::Random, ReadHint::NoReuse};
        m.groups.push_back(std::move(plain));
        auto stdio = group({"fread", "fread-unlocked"}, {4 * kKiB}, {512 * kMiB});
        stdio.buffers = {
            {BufferMode::Default, 0}, {BufferMode::Bytes, 64 * kKiB}, {BufferMode::Bytes, 1 * kMiB}};
        m.groups.push_back(std::move(stdio));
        m.groups.push_back(group({"read-direct"}, {64 * kKiB, 1 * kMiB, 8 * kMiB}, {512 * kMiB}));
        auto mapped = group({"mmap-read"}, {64 * kKiB, 1 * kMiB}, {512 * kMiB});
        mapped.hints = {ReadHint::Normal, ReadHint::Sequential, ReadHint::Random};
        m.groups.push_back(std::move(mapped));
        presets.push_back(std::move(m));
    }
    {
        // CrystalDiskMark's grid, with requests in flight through the OS's queue (io_uring on Linux,
        // overlapped I/O on Windows; the other family is refused with the reason). Direct I/O throughout, as
        // CrystalDiskMark's. It runs each test for 5 s over a 1 GiB file; IOLab is bounded by size, so the
        // sequential tests move the 1 GiB and the random ones 128 MiB, about 4 s at QD1 on this VM's disk.
        Matrix m{
            "cdm",
            "CrystalDiskMark's grid, direct I/O: SEQ1M Q8T1 and Q1T1 over 1 GiB, RND4K Q32T1 and Q1T1 over "
            "128 MiB, each read and write, through io_uring (Linux) or overlapped I/O (Windows); plain "
            "stdio and read(2) at 4 KiB and 1 MiB for the speed-up; median of 3.",
            {}};
        m.question = "How fast does this device read and write past the cache, in 1 MiB blocks in order and "
                     "4 KiB blocks at random, with one request in flight and with many?";
        // Groups as the matrix editor forms them (in the strategy list's order, a family's two OSes
        // together), so that the preset opened in the editor and saved back is the same matrix.
        m.groups.push_back(group({"stdio"}, {4 * kKiB, 1 * kMiB}, {256 * kMiB}));
        m.groups.push_back(group({"read"}, {4 * kKiB, 1 * kMiB}, {256 * kMiB}));
        const auto queued = [&m](const char* access, std::uint64_t chunk, std::uint64_t size,
                                 std::uint32_t depth) {
            m.groups.push_back(queuedDirect(access, chunk, size, depth));
        };
        queued("write", 1 * kMiB, 1 * kGiB, 8);
        queued("random-write", 4 * kKiB, 128 * kMiB, 32);
        queued("read", 1 * kMiB, 1 * kGiB, 8);
        queued("random-read", 4 * kKiB, 128 * kMiB, 32);
        presets.push_back(std::move(m));
    }
    {
        // Issue 17: pg_test_fsync's question, each method bounded by time as it does, with IOLab's
        // percentiles and verdicts. Three shapes of file: one block rewritten in place on every write, as
        // pg_test_fsync times it (its figures are the ones to compare); a file written beforehand and
        // overwritten front to back, as a database fills its preallocated log segment; and a growing file,
        // which pays the metadata updates that appending costs and pg_test_fsync hides. The size is a cap: 64
        // MiB is 8192 writes, which a device syncing faster than 4000 times a second reaches before its 2 s
        // (enough calls for a p99.9 all the same), and it keeps the file written beforehand small. Issue 34:
        // 2 s a method (pg_test_fsync's -s 2) and the shapes that differ, so that the whole lab takes about
        // two minutes on a 2-CPU VM, loaded or not: this VM's syncs ran at 100-4700 a second, so 2 s hold 200
        // to 8192 calls. O_DIRECT with O_DSYNC or O_SYNC writes the block itself, with no page cache to walk,
        // so it rewrites only (overwriting measured the same within the disk's noise); the not durable
        // sync_file_range is a reference, rewriting only.
        Matrix m{
            "sync-lab",
            "8 KiB writes for 2 s (or 64 MiB) per method, as pg_test_fsync times them: write with no "
            "sync, fdatasync and fsync after every write, pwritev2 with RWF_DSYNC and an io_uring write "
            "linked to its fdatasync, each rewriting one block (as pg_test_fsync does), overwriting a "
            "pre-written file and appending to a growing one; open_datasync and open_sync (O_DIRECT with "
            "O_DSYNC, O_SYNC) rewriting one block at 8 KiB and at pg_test_fsync's open_sync sizes, 16 to "
            "1 KiB; sync_file_range (not durable) rewriting; plain stdio as the baseline; 1 repetition: "
            "about 2 minutes.",
            {}};
        m.repetitions = 1; // each 2 s repetition holds hundreds to thousands of calls: the percentiles
        m.question = "Which way of making each 8 KiB write durable is fastest on this device, and is its "
                     "fdatasync quick enough for a database's log?";
        constexpr std::uint64_t kCap = 64 * kMiB;
        constexpr std::uint64_t kTwoSeconds = 2000;
        const auto timed = [&](std::vector<std::string> strategies, std::vector<std::uint64_t> chunks,
                               std::vector<SyncPolicy> syncs, std::vector<Preallocate> preallocations) {
            auto g = group(std::move(strategies), std::move(chunks), {kCap});
            g.syncs = std::move(syncs);
            g.preallocations = std::move(preallocations);
            g.timeLimitsMs = {kTwoSeconds};
            m.groups.push_back(std::move(g));
        };
        // Lists in the matrix editor's canonical order, so that the preset opened there and saved back is the
        // same matrix.
        const std::vector<Preallocate> shapes{Preallocate::None, Preallocate::Overwrite,
                                              Preallocate::Rewrite};
        // Plain stdio, no sync, at every chunk size: the speed-up's baseline, as in every preset.
        timed({"stdio"}, {1 * kKiB, 2 * kKiB, 4 * kKiB, 8 * kKiB, 16 * kKiB}, {}, {});
        timed({"write"}, {8 * kKiB},
              {SyncPolicy{SyncMode::None, 0}, SyncPolicy{SyncMode::FsyncEvery, 1},
               SyncPolicy{SyncMode::FdatasyncEvery, 1}},
              shapes);
        // open_datasync and open_sync, rewriting as pg_test_fsync does, at 8 KiB and at its open_sync sizes
        // ("Compare open_sync with different write sizes": 16 KiB in 1, 2, 4, 8 or 16 writes). One group per
        // strategy, as the matrix editor forms them, so O_DSYNC comes at those sizes too.
        timed({"direct"}, {1 * kKiB, 2 * kKiB, 4 * kKiB, 8 * kKiB, 16 * kKiB},
              {SyncPolicy{SyncMode::OSync, 0}, SyncPolicy{SyncMode::ODsync, 0}}, {Preallocate::Rewrite});
        timed({"pwritev2-dsync"}, {8 * kKiB}, {}, shapes);
        timed({"sync-file-range"}, {8 * kKiB}, {}, {Preallocate::Rewrite});
        timed({"uring-linked-sync"}, {8 * kKiB}, {}, shapes); // its default: fdatasync-every:1
        presets.push_back(std::move(m));
    }
    {
        // Issue 17, article 001's question: with only 4 KiB writes, how much of the disk's bandwidth can a
        // writer use under a memory limit, and does it lose anything on kill -9? Each case runs in a child
        // process in a memory cgroup capped at a quarter of its size (1 GiB of 4 GiB; --size scales the cap
        // with it), and is bounded by 10 s; the kill -9 probe kills each five more times.
        Matrix m{"memory-budget",
                 "4 KiB writes under a 1 GiB memory limit (page cache included; 4 GiB or 10 s per case): "
                 "buffered write(2) with 1, 4 and 16 threads, O_DIRECT, an mmap window, an mmap batch "
                 "flushed to an O_DIRECT file, io_uring, and plain stdio as the baseline; each killed 5 "
                 "more times by the kill -9 probe. Linux, as root or in a delegated cgroup.",
                 {}};
        m.question =
            "With only 4 KiB writes under a memory limit (a quarter of their size: 1 GiB of 4 GiB), which "
            "way fills the disk fastest and loses nothing on kill -9?";
        m.crashProbe = 5;
        constexpr std::uint64_t kSize = 4 * kGiB;
        const auto capped = [&](std::vector<std::string> strategies, std::vector<std::uint32_t> threads) {
            auto g = group(std::move(strategies), {4 * kKiB}, {kSize});
            g.threads = std::move(threads);
            g.memoryLimitsBytes = {kSize / 4};
            g.timeLimitsMs = {10'000};
            m.groups.push_back(std::move(g));
        };
        capped({"stdio"}, {});
        capped({"write"}, {1, 4, 16});
        capped({"direct", "mmap-window", "mmap-batch-direct"}, {});
        capped({"uring-write"},
               {}); // a group of its own, as the matrix editor forms it: it takes a queue depth
        presets.push_back(std::move(m));
    }
    {
        // Issue 18: about a minute on the chosen target for the support engineer's first question. Each
        // repetition is bounded by 1 s (or its size), so that a slow USB stick and a fast NVMe drive take
        // about as long: sequential and random, reads and writes, with one request in flight and with many
        // (direct I/O through io_uring or overlapped I/O, as the cdm preset); the latency of a 4 KiB write
        // made durable on its own; many small files read by one thread and by a pool; and the baselines.
        Matrix m{
            "health-check",
            "On the target: SEQ1M and RND4K reads and writes at one request in flight and "
            "at depth (direct I/O), 4 KiB writes each followed by fsync (the sync latency), 1000 files of "
            "10 KB to 62 MB (mean 205 KB) read by one thread and by 16, 1 MiB direct writes of zeros beside "
            "random bytes "
            "(compression), plain stdio and read(2) as baselines; 3 repetitions of at most 1 s per case. The "
            "Summary compares each figure with what this kind of device typically reaches and ranks the "
            "likely causes.",
            {}};
        // Three repetitions (the default, kDefaultRepetitions) of a second each rather than one of two: as
        // long in all, and every figure then has a spread, so that a comparison (zeros against random bytes,
        // a strategy against its baseline) is judged against the noise (core/analysis/significance.h)
        // instead of taken on one draw.
        m.question = "Is this storage as fast as its kind of device should be, and if not, why?";
        constexpr std::uint64_t kOneSecond = 1000;
        const auto bounded = [&](std::vector<std::string> strategies, std::vector<std::uint64_t> chunks,
                                 std::uint64_t size) {
            auto g = group(std::move(strategies), std::move(chunks), {size});
            g.timeLimitsMs = {kOneSecond};
            return g;
        };
        m.groups.push_back(bounded({"stdio"}, {4 * kKiB, 1 * kMiB}, 256 * kMiB));
        auto sync = bounded({"write"}, {4 * kKiB}, 64 * kMiB);
        sync.syncs = {SyncPolicy{SyncMode::FsyncEvery, 1}};
        m.groups.push_back(std::move(sync));
        // Zeros beside random bytes: a filesystem, virtual disk or drive that compresses or deduplicates
        // writes the zeros far faster (the compression finding).
        auto patterns = bounded({"direct"}, {1 * kMiB}, 1 * kGiB);
        patterns.patterns = {DataPattern{PatternKind::Zeros}, DataPattern{PatternKind::Random}};
        m.groups.push_back(std::move(patterns));
        m.groups.push_back(bounded({"read"}, {4 * kKiB, 1 * kMiB}, 256 * kMiB));
        MatrixGroup files;
        files.strategies = {"files-serial", "files-pool"};
        files.chunks = {64 * kKiB};
        files.threads = {1, 16};
        files.fileSets = {parseFileSet("1000xarticle-10k")};
        m.groups.push_back(std::move(files));
        const auto queued = [&](const char* access, std::uint64_t chunk, std::uint64_t size,
                                std::uint32_t depth) {
            auto g = queuedDirect(access, chunk, size, depth);
            g.timeLimitsMs = {kOneSecond};
            m.groups.push_back(std::move(g));
        };
        queued("write", 1 * kMiB, 1 * kGiB, 8);
        queued("random-write", 4 * kKiB, 256 * kMiB, 32);
        queued("read", 1 * kMiB, 1 * kGiB, 8);
        queued("random-read", 4 * kKiB, 256 * kMiB, 32);
        presets.push_back(std::move(m));
    }
    {
        Matrix m{"compression",
                 "1 MiB writes through stdio, write(2) and O_DIRECT, of IOLab's pattern, zeros, random bytes "
                 "and 50% compressible bytes, 512 MiB each: does something below the program compress or "
                 "deduplicate?",
                 {}};
        m.question =
            "Does the filesystem, a virtual disk's host or the drive compress or deduplicate what is "
            "written, and how much does that flatter the rates?";
        const std::vector<DataPattern> patterns{
            DataPattern{PatternKind::Iolab}, DataPattern{PatternKind::Zeros},
            DataPattern{PatternKind::Random}, DataPattern{PatternKind::Compressible, 50}};
        // Plain stdio beside them, of the same bytes: each pattern's speed-up has its own baseline.
        for (auto strategies :
             {std::vector<std::string>{"stdio"}, std::vector<std::string>{"write", "direct"}}) {
            auto g = group(std::move(strategies), {1 * kMiB}, {512 * kMiB});
            g.patterns = patterns;
            m.groups.push_back(std::move(g));
        }
        presets.push_back(std::move(m));
    }
    {
        // Issue 34, the start page's third question, both of its halves in about a minute: the power cut
        // (which ways make each write durable, what a durable write costs here, whether the device's flush
        // is honest: fdatasync returning faster than a medium that really writes can) and the crash (what
        // each way loses on kill -9: a stdio buffer, nothing the kernel was handed). Every way appends to a
        // growing file as a log does (the kill -9 probe reads the file back front to back, which a block
        // rewritten in place does not allow), 8 KiB at a time as pg_test_fsync writes, each bounded by 2 s
        // (or its size) as the health check's cases are.
        Matrix m{
            "data-safety",
            "8 KiB writes appended to a file for 2 s each (or 256 MiB): plain stdio and write(2) with no "
            "sync, write(2) with fsync and with fdatasync after every write, O_DIRECT with O_DSYNC "
            "(pg_test_fsync's open_datasync) and pwritev2 with RWF_DSYNC; each killed 3 more times by the "
            "kill -9 probe. The Summary says which ways make each write durable and at what cost, "
            "whether the device's flush is honest, and what each way loses when the program is killed.",
            {}};
        m.repetitions = 1; // a 2 s repetition holds hundreds of syncs: the percentiles come from them
        m.crashProbe = 3;
        m.question = "Is the data safe when the power goes or the program is killed: which ways of writing "
                     "make each write durable, what does that cost here, and what does each lose on kill -9?";
        constexpr std::uint64_t kTwoSeconds = 2000;
        const auto bounded = [&](std::vector<std::string> strategies, std::vector<SyncPolicy> syncs) {
            auto g = group(std::move(strategies), {8 * kKiB}, {256 * kMiB});
            g.syncs = std::move(syncs);
            g.timeLimitsMs = {kTwoSeconds};
            m.groups.push_back(std::move(g));
        };
        // In the matrix editor's order, so that the preset opened there and saved back is the same matrix.
        bounded({"stdio"}, {}); // the speed-up's baseline, and the way that loses its buffer on kill -9
        bounded({"write"}, {SyncPolicy{SyncMode::None, 0}, SyncPolicy{SyncMode::FsyncEvery, 1},
                            SyncPolicy{SyncMode::FdatasyncEvery, 1}});
        bounded({"direct"}, {SyncPolicy{SyncMode::ODsync, 0}});
        bounded({"pwritev2-dsync"}, {}); // RWF_DSYNC on each write; refused with the reason on Windows
        presets.push_back(std::move(m));
    }
    return presets;
}

} // namespace

const std::vector<Matrix>& builtinPresets()
{
    static const std::vector<Matrix> presets = makePresets();
    return presets;
}

std::optional<Matrix> findPreset(std::string_view name)
{
    for (const auto& p : builtinPresets()) {
        if (p.name == name)
            return p;
    }
    return std::nullopt;
}

std::string presetNames()
{
    std::string names;
    for (const auto& p : builtinPresets()) {
        if (!names.empty())
            names += ", ";
        names += p.name;
    }
    return names;
}

} // namespace iolab
