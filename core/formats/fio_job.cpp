// SPDX-License-Identifier: MIT
#include "core/formats/fio_job.h"

#include "core/formats/job_common.h"

#include "core/base/units.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <vector>

namespace iolab {

namespace {

// fio's size suffixes are powers of two ("64k" is 65536 bytes), as IOLab's are.
std::string fioBytes(std::uint64_t bytes)
{
    for (const auto& [unit, suffix] : {std::pair{kGiB, "g"}, std::pair{kMiB, "m"}, std::pair{kKiB, "k"}}) {
        if (bytes >= unit && bytes % unit == 0)
            return fmt::format("{}{}", bytes / unit, suffix);
    }
    return std::to_string(bytes);
}

struct Mapping
{
    std::string engine; // "" = none
    std::string rw;
    bool direct = false;
    std::uint32_t depth = 1;
    std::uint64_t bs = 0;
    std::vector<std::string> differences;
    std::vector<std::string> notes;                         // how to run the job, not how it differs
    std::vector<std::pair<std::string, std::string>> extra; // more key=value lines
    // IOLab's random readers: the threads share one file of the case's size, and each draws its offsets with
    // replacement (RandomOffsets), so a block can be read twice and another not at all.
    bool sharedRandomFile = false;
};

// IOLab's queued io_uring strategies (platform/linux/uring_queue.h) register the file and their buffers, as
// fio's registerfiles and fixedbufs do. How they hand requests to the kernel (a quarter of the queue at a
// time from a depth of 4, uring_queue.h's submissionGroup) fio cannot copy: the job says so, with what it was
// measured to move (tests/perf/README.md, issue 34).
void mapUringQueue(Mapping& m, const Case& c)
{
    // The case's io_uring options (the --uring axis): auto (and files from before it) registered the file
    // and the buffers where the kernel allowed; an explicit value names each option, as fio's own do.
    const UringOptions& uring = c.uring;
    const bool explicitOptions = uring.mode == UringOptions::Mode::Explicit;
    const bool fixedBuffers = !explicitOptions || uring.fixedBuffers;
    const bool registeredFiles = !explicitOptions || uring.registeredFiles || uring.sqPoll;
    if (registeredFiles)
        m.extra.emplace_back("registerfiles", "1");
    if (fixedBuffers)
        m.extra.emplace_back("fixedbufs", "1");
    if (uring.sqPoll)
        m.extra.emplace_back("sqthread_poll", "1");
    if (uring.ioPoll)
        m.extra.emplace_back("hipri", "1");
    if (!explicitOptions)
        m.differences.emplace_back(
            "IOLab's io_uring options were auto: it registers the file and the buffers where the kernel "
            "allows and runs unregistered where it refuses (the result's uringInEffect says which); fio's "
            "registerfiles and fixedbufs fail the job instead");
    if (uring.sqPoll && !uring.registeredFiles)
        m.differences.emplace_back(
            "fio's sqthread_poll always registers the file too (registerfiles), so this job does; IOLab's "
            "sqpoll without registerfiles did not: the kernel looks the file up for each request there");
    if (uring.ioPoll)
        m.notes.emplace_back("hipri=1 polls for completions (IORING_SETUP_IOPOLL): on a device without poll "
                             "queues fio fails each request with \"Operation not supported\", where IOLab "
                             "refuses the case before it runs");
    if (fixedBuffers)
        m.notes.emplace_back(fmt::format(
            "fixedbufs=1 registers iodepth x bs ({}) of buffers, as IOLab registers its own; fio not run as "
            "root fails with \"Cannot allocate memory\" when that exceeds the locked-memory limit (ulimit "
            "-l): "
            "raise it, or delete the line ({})",
            formatBytes(std::uint64_t{m.depth} * m.bs),
            explicitOptions ? "IOLab's fixedbufs is refused there too"
                            : "IOLab's auto falls back to unregistered buffers there"));
    if (m.depth >= 4)
        m.differences.emplace_back(fmt::format(
            "IOLab hands its requests to the kernel {} at a time (a quarter of the queue) without waiting, "
            "and waits for one completion with the rest; fio makes one io_uring_enter per request (its "
            "iodepth_batch_submit does not change that once the queue is full). Measured with 4 KiB at QD32 "
            "on a 2-vCPU VM's virtio disk: fio's way 0.8-1.1x of IOLab's with the CPUs to itself, 0.8x with "
            "other processes busy on them (tests/perf/README.md, issue 34)",
            m.depth / 4));
    else
        m.differences.emplace_back(
            "IOLab hands its requests to the kernel in the io_uring_enter that waits for a completion; fio "
            "makes one to submit each request and another to wait");
    m.differences.emplace_back(
        "recent fio sets up its ring with COOP_TASKRUN, SINGLE_ISSUER and DEFER_TASKRUN, IOLab with none of "
        "them; measured with 4 KiB at QD32, they gain nothing (0.8-1.0x)");
}

// How fio does what the strategy's method does; no engine when it cannot (the caller says why).
Mapping mapStrategy(const Case& c, const StrategyMethod& method)
{
    Mapping m;
    m.bs = c.chunkBytes;
    const bool read = c.direction == Direction::Read;
    m.rw = read ? "read" : "write";
    m.direct = method.direct;
    if (method.random)
        m.rw = read ? "randread" : "randwrite";
    if (mixes(c))
        m.rw = "randrw";
    switch (method.method) {
    case IoMethod::StdioChunk:
    case IoMethod::StdioByte: {
        m.engine = "psync";
        const StdioCalls calls = stdioCalls(c);
        m.bs = calls.bytes;
        m.differences.emplace_back(
            fmt::format("fio has no stdio ({}) engine; closest: ioengine=psync with "
                        "bs={}, the calls stdio makes with {}; "
                        "the cost of the {}-byte {} calls themselves is not in this job",
                        read ? "fread" : "fwrite", fioBytes(m.bs), calls.buffer, c.chunkBytes, c.strategy));
        break;
    }
    case IoMethod::Plain:
        m.engine = "psync";
        m.sharedRandomFile = method.sharedFile;
        break;
    case IoMethod::MmapWindow:
        m.engine = "mmap";
        m.differences.emplace_back(
            "IOLab maps a window per chunk and copies into it; fio's mmap engine maps "
            "the file in pieces of up to its size and copies per block: close, not the "
            "same");
        break;
    case IoMethod::MmapRead:
        m.engine = "mmap";
        break;
    case IoMethod::MmapBatchDirect:
        m.engine = "psync";
        m.differences.emplace_back(
            "fio has no mmap batch buffer flushed with pwrite to an O_DIRECT file; closest: "
            "direct pwrite of the same blocks (without the copy into the mapping)");
        break;
    case IoMethod::Pwritev2Dsync:
        m.engine = "pvsync2";
        m.extra.emplace_back("sync", "dsync");
        m.differences.emplace_back("IOLab passes RWF_DSYNC on each pwritev2; fio opens the file O_DSYNC "
                                   "(sync=dsync), which makes each write durable the same way");
        break;
    case IoMethod::SyncFileRange:
        m.engine = "psync";
        m.extra.emplace_back("sync_file_range", "write:1");
        break;
    case IoMethod::UringLinkedSync:
        m.engine = "io_uring";
        m.extra.emplace_back("fdatasync", "1");
        m.differences.emplace_back(
            "IOLab links each write to its fdatasync (IOSQE_IO_LINK) in one submission; "
            "fio issues the fdatasync as its own request after the write completes");
        break;
    case IoMethod::UringQueue:
    case IoMethod::OverlappedQueue:
        m.engine = method.method == IoMethod::UringQueue ? "io_uring" : "windowsaio";
        m.depth = std::max<std::uint32_t>(c.queueDepth, 1);
        m.sharedRandomFile = method.sharedFile;
        if (method.method == IoMethod::UringQueue)
            mapUringQueue(m, c);
        break;
    case IoMethod::FileSet:
        m.engine = "psync";
        m.differences.emplace_back(fmt::format(
            "fio reads files of one size ({} bytes, the set's mean); IOLab's set ({}) mixes sizes",
            c.fileSet.files > 0 ? std::max<std::uint64_t>(c.totalBytes / c.fileSet.files, 1) : 0,
            c.fileSet.name.empty() ? "as asked" : c.fileSet.name));
        if (c.threads > 1)
            m.differences.emplace_back(fmt::format(
                "{} takes the files from one list shared by its {} threads; fio gives each of its {} jobs an "
                "equal share of them",
                c.strategy, c.threads, c.threads));
        break;
    case IoMethod::Pipe:
    case IoMethod::GroupCommit:
        break; // fioJob answered these before asking for a mapping
    }
    return m;
}

} // namespace

FioJob fioJob(const Case& c, const FioJobOptions& options)
{
    FioJob job;
    std::string head = "; " + options.title + "\n";
    const StrategyMethod* method = strategyMethod(c.strategy);
    if (method == nullptr) {
        job.equivalent = false;
        job.text =
            head + fmt::format("; IOLab does not know the {} strategy (this version has none of that name), "
                               "so it cannot say what fio would run.\n",
                               c.strategy);
        return job;
    }
    if (c.target != TargetKind::Directory || method->method == IoMethod::Pipe) {
        job.equivalent = false;
        job.text = head +
                   "; fio has no equivalent: it writes files and block devices, not into a pipe a reader "
                   "drains.\n";
        return job;
    }
    if (method->method == IoMethod::GroupCommit) {
        job.equivalent = false;
        job.text = head +
                   "; fio has no equivalent: its jobs sync their own writes; none syncs for the others "
                   "(a database's group commit).\n";
        return job;
    }
    Mapping m = mapStrategy(c, *method);
    std::vector<std::pair<std::string, std::string>> lines;
    const auto set = [&lines](std::string key, std::string value) {
        lines.emplace_back(std::move(key), std::move(value));
    };
    set("ioengine", m.engine);
    set("rw", m.rw);
    set("bs", fioBytes(m.bs));
    if (m.depth > 1 || m.engine == "io_uring" || m.engine == "windowsaio")
        set("iodepth", std::to_string(m.depth));
    set("direct", m.direct ? "1" : "0");
    const std::uint32_t threads = std::max<std::uint32_t>(c.threads, 1);
    if (threads > 1) {
        set("numjobs", std::to_string(threads));
        set("thread", "1");
    }
    // IOLab's threads split the case's size, one file each; fio's size is per job.
    std::uint64_t perJob = c.totalBytes / threads;
    if (!c.fileSet.empty()) {
        const std::uint64_t fileBytes = std::max<std::uint64_t>(c.totalBytes / c.fileSet.files, 1);
        const std::uint64_t filesPerJob = (c.fileSet.files + threads - 1) / threads;
        // fio wants a block no larger than a file; a smaller file is read in one call either way.
        if (fileBytes < m.bs) {
            for (auto& [key, value] : lines) {
                if (key == "bs")
                    value = fioBytes(fileBytes);
            }
        }
        set("nrfiles", std::to_string(filesPerJob));
        set("filesize", fioBytes(fileBytes));
        perJob = fileBytes * filesPerJob;
    }
    if (c.preallocate == Preallocate::Rewrite) {
        // pg_test_fsync's shape: a file one block long, written again and again until the time is up.
        set("size", fioBytes(c.chunkBytes));
        set("time_based", "1");
        set("runtime", fmt::format("{}ms", c.timeLimitMs > 0 ? c.timeLimitMs : 5000));
    } else if (m.sharedRandomFile && threads > 1) {
        // One file of the case's size for every job, each reading its share at random offsets of all of it.
        set("filename", options.name + ".dat");
        set("size", fioBytes(c.totalBytes));
        set("io_size", fioBytes(perJob));
        if (c.timeLimitMs > 0)
            set("runtime", fmt::format("{}ms", c.timeLimitMs));
    } else {
        set("size", fioBytes(perJob));
        if (c.timeLimitMs > 0)
            set("runtime", fmt::format("{}ms", c.timeLimitMs));
    }
    if (m.sharedRandomFile)
        set("norandommap", "1"); // offsets drawn with replacement, as IOLab's
    if (c.direction == Direction::Write) {
        switch (c.preallocate) {
        case Preallocate::None:
            set("fallocate", "none");
            break;
        case Preallocate::Fallocate:
            set("fallocate", "native");
            break;
        case Preallocate::Overwrite:
        case Preallocate::Rewrite:
            set("overwrite", "1");
            break;
        }
        switch (c.sync.mode) {
        case SyncMode::None:
        case SyncMode::FsyncEnd:
            set("end_fsync", "1");
            if (c.sync.mode == SyncMode::None)
                m.differences.emplace_back("IOLab's durable rate includes a final fsync even without a sync "
                                           "policy; end_fsync=1 makes fio's time include it too");
            break;
        case SyncMode::FdatasyncEnd:
            set("end_fsync", "1");
            m.differences.emplace_back("IOLab ends with fdatasync; fio's end_fsync calls fsync");
            break;
        case SyncMode::FsyncEvery:
            set("fsync", std::to_string(c.sync.everyWrites));
            break;
        case SyncMode::FdatasyncEvery:
            set("fdatasync", std::to_string(c.sync.everyWrites));
            break;
        case SyncMode::OSync:
            set("sync", "sync");
            break;
        case SyncMode::ODsync:
            set("sync", "dsync");
            break;
        }
    } else {
        if (mixes(c)) {
            set("rwmixread", std::to_string(*c.readPercent));
            set("end_fsync", "1");
            m.differences.emplace_back(fmt::format(
                "each of IOLab's requests reads with probability {}% and otherwise writes the same bytes "
                "back, "
                "from a generator of its own per thread; fio's rwmixread draws the same share its own way",
                *c.readPercent));
            m.differences.emplace_back("IOLab's durable rate includes an fsync of the file after the mix; "
                                       "end_fsync=1 makes fio's time include it too");
        }
        if (c.randomDist.hotSpot()) {
            set("random_distribution", toString(c.randomDist));
            m.differences.emplace_back(
                "IOLab draws the hot spot's ranks exactly (rejection-inversion for Zipf, fio's formula for "
                "Pareto) and scatters them over the file with a permutation; fio scatters them with a hash, "
                "which folds a few ranks onto one block: the hot blocks lie elsewhere, with the same share");
        }
        set("invalidate", c.cache == CacheState::Warm ? "0" : "1");
        if (c.cache == CacheState::Warm)
            m.differences.emplace_back(
                "IOLab read the file once before timing (warm cache); fio with invalidate=0 "
                "reads what the page cache still holds");
        switch (c.hint) {
        case ReadHint::Sequential:
            set("fadvise_hint", "sequential");
            break;
        case ReadHint::Random:
            set("fadvise_hint", "random");
            break;
        case ReadHint::NoReuse:
            m.differences.emplace_back("fio has no POSIX_FADV_NOREUSE hint; this job gives none");
            set("fadvise_hint", "0");
            break;
        default:
            set("fadvise_hint", "0");
            break;
        }
    }
    for (auto& [key, value] : m.extra)
        set(key, value);
    // fio's own buffers are random bytes, as incompressible as IOLab's pattern and its random one.
    if (c.pattern.kind == PatternKind::Zeros) {
        set("zero_buffers", "1");
    } else if (c.pattern.kind == PatternKind::Compressible) {
        set("buffer_compress_percentage", std::to_string(c.pattern.percent));
        set("buffer_compress_chunk", fioBytes(kCompressibleBlockBytes));
        set("refill_buffers", "1");
    }
    if (options.verify && c.direction == Direction::Write && c.preallocate != Preallocate::Rewrite) {
        set("verify", "crc32c");
        // fio would otherwise leave local-<job>-0-verify.state in the folder it was started from.
        set("verify_state_save", "0");
        m.differences.emplace_back("IOLab checks its own pattern in every byte after the timed part; fio's "
                                   "verify=crc32c checks a checksum per block");
    }
    if (c.memoryLimitBytes > 0)
        m.differences.emplace_back(fmt::format("IOLab ran this case in a memory cgroup capped at {}; run fio "
                                               "the same way, e.g. systemd-run --user "
                                               "--scope -p MemoryMax={} fio JOBFILE",
                                               formatBytes(c.memoryLimitBytes), c.memoryLimitBytes));
    std::string text = head;
    for (const auto& d : m.differences) {
        text += "; differs: ";
        text += d;
        text += '\n';
    }
    for (const auto& note : m.notes) {
        text += "; note: ";
        text += note;
        text += '\n';
    }
    text += "[global]\n";
    if (!options.directory.empty()) {
        // fio separates several directories with ':', so one in a path is escaped.
        std::string directory;
        for (const char ch : options.directory)
            directory += ch == ':' ? std::string("\\:") : std::string(1, ch);
        text += "directory=" + directory + "\n";
    }
    text += "\n[" + options.name + "]\n";
    for (const auto& [key, value] : lines)
        text += fmt::format("{}={}\n", key, value);
    job.text = text;
    return job;
}

FioJob fioJobOf(const RunResult& result, std::size_t caseIndex)
{
    const CaseResult& c = result.cases.at(caseIndex);
    FioJobOptions options;
    options.directory = result.target.path;
    options.name = fmt::format("iolab-case-{}", c.index + 1);
    options.verify = result.options.verifyFiles;
    options.title = fmt::format("IOLab {}: {}", result.toolVersion, caseOrigin(result, c));
    return fioJob(c.testCase, options);
}

} // namespace iolab
