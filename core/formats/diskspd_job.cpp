// SPDX-License-Identifier: MIT
#include "core/formats/diskspd_job.h"

#include "core/formats/job_common.h"

#include "core/base/units.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace iolab {

namespace {

// DiskSpd's size suffixes are powers of two ("64K" is 65536 bytes), as IOLab's are; a plain number is bytes.
std::string diskspdBytes(std::uint64_t bytes)
{
    for (const auto& [unit, suffix] : {std::pair{kGiB, "G"}, std::pair{kMiB, "M"}, std::pair{kKiB, "K"}}) {
        if (bytes >= unit && bytes % unit == 0)
            return fmt::format("{}{}", bytes / unit, suffix);
    }
    return std::to_string(bytes);
}

// What DiskSpd cannot do at all, or "" when it can.
std::string noEquivalent(const Case& c, const StrategyMethod& method)
{
    if (c.target == TargetKind::Pipe || method.method == IoMethod::Pipe)
        return "DiskSpd has no equivalent: it reads and writes files, partitions and disks, not a pipe a "
               "reader drains.";
    if (c.target == TargetKind::Null)
        return "DiskSpd has no equivalent: its targets are files, partitions and disks, not the null device.";
    if (method.method == IoMethod::GroupCommit)
        return "DiskSpd has no equivalent: its threads never sync, let alone one sync for the writes of "
               "several threads (a database's group commit).";
    if (method.method == IoMethod::StdioByte)
        return fmt::format("DiskSpd has no equivalent: {} is a C library call per byte into a FILE's buffer, "
                           "and what it measures is that call's cost; DiskSpd issues whole blocks to the OS.",
                           c.strategy);
    if (!c.fileSet.empty() || method.method == IoMethod::FileSet)
        return "DiskSpd has no equivalent: it times I/O to a few large targets, not opening, reading and "
               "closing a set of many small files.";
    if (method.method == IoMethod::SyncFileRange && c.chunkBytes % 512 != 0)
        return fmt::format("DiskSpd has no equivalent: Windows has no sync_file_range, and the closest, "
                           "unbuffered writes (-Su), need sector-aligned blocks, which {} is not.",
                           formatBytes(c.chunkBytes));
    return {};
}

struct Command
{
    std::uint64_t block = 0;
    std::uint64_t fileBytes = 0; // per target
    std::uint32_t targets = 1;   // files, one per IOLab thread, each with -t1
    std::uint32_t threadsPerTarget = 1;
    std::uint32_t outstanding = 1;
    bool write = true;
    bool random = false;
    bool unbuffered = false;
    bool writeThrough = false;
    bool mapped = false;
    std::string hint;   // -fs, -fr
    std::string source; // the write buffer's flag: -Z (zeros), -Zr (fresh random bytes per write)
    std::uint32_t warmupSeconds = 0;
    std::vector<std::string> differences;
};

void mapStrategy(const Case& c, const StrategyMethod& method, Command& cmd)
{
    const bool read = c.direction == Direction::Read;
    cmd.unbuffered = method.direct;
    cmd.random = method.random;
    switch (method.method) {
    case IoMethod::StdioChunk: {
        const StdioCalls calls = stdioCalls(c);
        cmd.block = calls.bytes;
        cmd.differences.emplace_back(fmt::format(
            "DiskSpd has no stdio ({}); closest: -b{}, the calls stdio makes to the OS with {}; the cost of "
            "the {}-byte {} calls themselves is not in this command",
            read ? "fread" : "fwrite", diskspdBytes(cmd.block), calls.buffer, c.chunkBytes, c.strategy));
        break;
    }
    case IoMethod::MmapRead:
        cmd.mapped = true;
        cmd.differences.emplace_back("DiskSpd's memory-mapped I/O (-Sm, DiskSpd 2.0.21a and later) maps the "
                                     "whole file and copies each "
                                     "block out of the view, as IOLab copies each chunk out of its mapping");
        break;
    case IoMethod::MmapWindow:
        cmd.mapped = true;
        cmd.differences.emplace_back(
            "DiskSpd's memory-mapped I/O (-Sm, DiskSpd 2.0.21a and later) copies each block into a view of "
            "the "
            "whole file; IOLab maps a 16 KiB window at a time and remaps it as it fills");
        break;
    case IoMethod::MmapBatchDirect:
        cmd.block = 16 * kKiB;
        cmd.differences.emplace_back(fmt::format(
            "IOLab copies its {} chunks into a 16 KiB mapped batch and writes each full batch to a file "
            "opened O_DIRECT; this command makes the same 16 KiB unbuffered writes (-b16K -Su), without the "
            "copies",
            formatBytes(c.chunkBytes)));
        break;
    case IoMethod::Pwritev2Dsync:
        cmd.writeThrough = true;
        cmd.differences.emplace_back(
            "IOLab passes RWF_DSYNC on each pwritev2 call; -Sw opens the file "
            "write-through (FILE_FLAG_WRITE_THROUGH), which makes every write durable "
            "before it returns the same way");
        break;
    case IoMethod::SyncFileRange:
        cmd.unbuffered = true;
        cmd.differences.emplace_back(
            "Windows has no sync_file_range; closest: unbuffered writes (-Su), which also go to the device "
            "and wait for it without flushing its cache, but skip the page cache entirely");
        break;
    case IoMethod::UringQueue:
        cmd.outstanding = std::max<std::uint32_t>(c.queueDepth, 1);
        cmd.differences.emplace_back(fmt::format(
            "IOLab kept {} requests in flight with io_uring; DiskSpd keeps -o{} in flight on an I/O "
            "completion port, Windows's asynchronous I/O",
            cmd.outstanding, cmd.outstanding));
        if (c.uring.mode == UringOptions::Mode::Explicit && c.uring != UringOptions::plain())
            cmd.differences.emplace_back(fmt::format(
                "IOLab ran io_uring with {}; DiskSpd has no registered buffers or files, no submission-queue "
                "polling thread and no polled completions to ask for",
                toString(c.uring)));
        break;
    case IoMethod::OverlappedQueue:
        cmd.outstanding = std::max<std::uint32_t>(c.queueDepth, 1);
        break;
    case IoMethod::Plain:
    case IoMethod::UringLinkedSync: // its sync policy says the rest (mapSync)
        break;
    case IoMethod::StdioByte:
    case IoMethod::FileSet:
    case IoMethod::Pipe:
    case IoMethod::GroupCommit:
        break; // noEquivalent said why
    }
    if (cmd.block == 0)
        cmd.block = c.chunkBytes;
}

// The sync policy: DiskSpd never calls FlushFileBuffers; write-through (-Sw) is its one durable write.
void mapSync(const Case& c, const StrategyMethod& method, Command& cmd)
{
    if (c.direction != Direction::Write || cmd.writeThrough)
        return;
    const std::string noFlush = "DiskSpd never flushes the file (no FlushFileBuffers), so compare its MB/s "
                                "with IOLab's apparent rate; IOLab's durable rate includes a final fsync";
    switch (c.sync.mode) {
    case SyncMode::None:
        cmd.differences.emplace_back(noFlush);
        break;
    case SyncMode::FsyncEnd:
    case SyncMode::FdatasyncEnd:
        cmd.differences.emplace_back(
            fmt::format("IOLab ended each file with {}; {}", syncCallName(c.sync.mode), noFlush));
        break;
    case SyncMode::FsyncEvery:
    case SyncMode::FdatasyncEvery: {
        const char* call = syncCallName(c.sync.mode);
        if (c.sync.everyWrites == 1) {
            cmd.writeThrough = true;
            cmd.differences.emplace_back(fmt::format(
                "IOLab called {} after every write{}; DiskSpd has no flush calls, and -Sw "
                "(FILE_FLAG_WRITE_THROUGH) makes each write durable before it returns instead",
                call, method.method == IoMethod::UringLinkedSync ? " (linked to it in io_uring)" : ""));
            break;
        }
        cmd.differences.emplace_back(
            fmt::format("IOLab called {} after every {} writes; DiskSpd has no flush calls, so this command "
                        "makes none: {}",
                        call, c.sync.everyWrites, noFlush));
        break;
    }
    case SyncMode::OSync:
    case SyncMode::ODsync:
        cmd.writeThrough = true;
        cmd.differences.emplace_back(fmt::format(
            "IOLab opened the file {}; -Sw opens it write-through (FILE_FLAG_WRITE_THROUGH), the Windows "
            "equivalent",
            c.sync.mode == SyncMode::OSync ? "O_SYNC" : "O_DSYNC"));
        break;
    }
}

void mapRead(const Case& c, Command& cmd, std::uint32_t seconds)
{
    if (c.direction != Direction::Read)
        return;
    switch (c.hint) {
    case ReadHint::Sequential:
        cmd.hint = "-fs";
        break;
    case ReadHint::Random:
        cmd.hint = "-fr";
        break;
    case ReadHint::NoReuse:
        cmd.differences.emplace_back("Windows has no POSIX_FADV_NOREUSE hint; this command gives none");
        break;
    default:
        break;
    }
    if (cmd.unbuffered)
        return;
    if (c.cache == CacheState::Warm) {
        cmd.warmupSeconds = seconds;
        cmd.differences.emplace_back(
            fmt::format("IOLab read the file once before timing (warm cache); -W{} reads it for as long "
                        "before DiskSpd measures",
                        seconds));
    } else {
        cmd.differences.emplace_back(
            "IOLab evicted the file from the page cache before timing (cold); DiskSpd does not, and the file "
            "it has just created may still be cached: reboot first, or compare with -Su");
    }
}

} // namespace

DiskspdJob diskspdJob(const Case& c, const DiskspdJobOptions& options)
{
    DiskspdJob job;
    std::string text = "REM " + options.title + "\n";
    const StrategyMethod* method = strategyMethod(c.strategy);
    if (method == nullptr) {
        job.equivalent = false;
        job.text =
            text +
            fmt::format("REM IOLab does not know the {} strategy (this version has none of that name), so "
                        "it cannot say what DiskSpd would run.\n",
                        c.strategy);
        return job;
    }
    if (const std::string none = noEquivalent(c, *method); !none.empty()) {
        job.equivalent = false;
        job.text = text + "REM " + none + "\n";
        return job;
    }
    Command cmd;
    mapStrategy(c, *method, cmd);
    cmd.write = c.direction == Direction::Write;
    const std::uint32_t threads = std::max<std::uint32_t>(c.threads, 1);
    const bool sharedFile = cmd.random && !cmd.write; // IOLab's random readers share one file
    if (sharedFile) {
        cmd.threadsPerTarget = threads;
        cmd.fileBytes = c.totalBytes;
    } else {
        cmd.targets = threads;
        cmd.fileBytes = c.totalBytes / threads;
        if (c.totalBytes % threads != 0)
            cmd.differences.emplace_back(fmt::format(
                "IOLab's last thread wrote the {} bytes left over from an even split; every file here is {}",
                c.totalBytes % threads, diskspdBytes(cmd.fileBytes)));
    }
    const bool rewrite = cmd.write && c.preallocate == Preallocate::Rewrite;
    std::uint32_t seconds = 10;
    if (c.timeLimitMs > 0)
        seconds = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (c.timeLimitMs + 999) / 1000));
    else if (options.seconds > 0)
        seconds = static_cast<std::uint32_t>(std::max(1.0, std::ceil(options.seconds)));
    if (rewrite) {
        cmd.fileBytes = c.chunkBytes;
        cmd.differences.emplace_back(
            fmt::format("IOLab rewrote the file's first {} again and again for {} s; DiskSpd does the same "
                        "with a file one "
                        "block long (-c{}), starting again from its start after every write",
                        formatBytes(c.chunkBytes), seconds, diskspdBytes(c.chunkBytes)));
    } else if (c.timeLimitMs > 0) {
        cmd.differences.emplace_back(fmt::format(
            "IOLab stopped at {} or after {} ms, whichever came first; DiskSpd runs for -d{} and starts "
            "again from the file's start when it reaches its end",
            formatBytes(c.totalBytes), c.timeLimitMs, seconds));
    } else {
        cmd.differences.emplace_back(fmt::format(
            "DiskSpd runs for a time, not a size: -d{} is {}, and DiskSpd starts again from the file's start "
            "when it reaches its end; IOLab moved {} once",
            seconds,
            options.seconds > 0 ? "IOLab's time for the case, rounded up"
                                : "DiskSpd's default (IOLab has no measured time for this case)",
            formatBytes(c.totalBytes)));
    }
    if (cmd.random && cmd.write)
        cmd.differences.emplace_back(
            "IOLab wrote every chunk once in a random order; DiskSpd's -r picks each "
            "offset at random, so some blocks are written twice and others not");
    if (cmd.write && !rewrite) {
        if (c.preallocate == Preallocate::None)
            cmd.differences.emplace_back("DiskSpd creates the file at its full size before timing (-c), so "
                                         "its writes overwrite blocks that exist; IOLab's file grew as it "
                                         "was written (preallocate overwrite is the same as DiskSpd)");
        else if (c.preallocate == Preallocate::Fallocate)
            cmd.differences.emplace_back("DiskSpd creates the file at its full size and writes it before "
                                         "timing (-c); IOLab only reserved its space (fallocate)");
    }
    mapSync(c, *method, cmd);
    mapRead(c, cmd, seconds);
    // A read/write mix: DiskSpd's -w is the share of writes, drawn per request as IOLab's are.
    const std::uint32_t writePercent = mixes(c) ? 100 - *c.readPercent : 0;
    if (mixes(c)) {
        cmd.source = "-Zr";
        cmd.differences.emplace_back(fmt::format(
            "IOLab's writes ({}% of requests) put the same bytes back where they were; DiskSpd's write "
            "fresh random bytes (-Zr)",
            writePercent));
    }
    // A hot spot: DiskSpd has no Zipf or Pareto, only shares of the I/O over stretches of the file
    // (-rdpct, DiskSpd 2.1): the hottest 1% and the next 9% of the file get the shares the distribution
    // gives them, the rest of the file the rest; inside each stretch DiskSpd is uniform.
    std::string distribution;
    if (c.randomDist.hotSpot()) {
        const std::uint64_t chunks =
            std::max<std::uint64_t>(1, c.totalBytes / std::max<std::uint64_t>(1, c.chunkBytes));
        const double top1 = hotShare(c.randomDist, chunks, 0.01);
        const double top10 = hotShare(c.randomDist, chunks, 0.10);
        const auto first = static_cast<int>(std::lround(top1 * 100));
        const auto second = std::max(0, static_cast<int>(std::lround(top10 * 100)) - first);
        distribution = fmt::format("-rdpct{}/1:{}/9", first, second);
        cmd.differences.emplace_back(fmt::format(
            "IOLab drew its offsets from {} over the whole file, its hot chunks scattered through it; "
            "DiskSpd "
            "has neither Zipf nor Pareto: -rdpct sends {}% of the I/O to the file's first 1% and {}% to the "
            "next 9% (the shares IOLab's distribution gives its hottest 1% and 10%), uniform inside each",
            randomDistWords(c.randomDist), first, second));
    }
    // DiskSpd's own write buffer repeats the bytes 0 to 255, which compress well: writes take fresh random
    // bytes per write instead (-Zr), or zeros (-Z) for IOLab's zeros.
    if (cmd.write) {
        switch (c.pattern.kind) {
        case PatternKind::Zeros:
            cmd.source = "-Z";
            break;
        case PatternKind::Compressible:
            cmd.source = "-Zr";
            cmd.differences.emplace_back(
                fmt::format("DiskSpd has no compressible buffer; closest: -Z<size>,<file> with a file of "
                            "such bytes ({}% of each 4 KiB block zeros); this command writes random bytes",
                            c.pattern.percent));
            break;
        case PatternKind::Iolab:
        case PatternKind::Random:
            cmd.source = "-Zr";
            cmd.differences.emplace_back(
                "-Zr fills every write with fresh random bytes, at some CPU cost per write; IOLab's bytes, "
                "incompressible too, repeat every 256 KiB");
            break;
        }
    } else if (c.pattern != DataPattern{}) {
        cmd.differences.emplace_back(fmt::format("IOLab's file held {}; DiskSpd reads the file it creates "
                                                 "with -c, whose bytes it chooses",
                                                 patternWords(c.pattern)));
    }
    if (options.verify)
        cmd.differences.emplace_back(cmd.write
                                         ? "IOLab read every byte back and checked it after the timed part; "
                                           "DiskSpd checks nothing"
                                         : "IOLab checked every byte it read against its pattern; DiskSpd "
                                           "checks nothing");
    if (c.memoryLimitBytes > 0)
        cmd.differences.emplace_back(fmt::format(
            "IOLab ran this case in a memory cgroup capped at {}; Windows has no such cap for DiskSpd",
            formatBytes(c.memoryLimitBytes)));
    const bool windows = options.ranOn.empty() || options.ranOn.starts_with("Windows");
    if (!windows)
        cmd.differences.emplace_back(
            fmt::format("IOLab ran on {}; DiskSpd runs on Windows: put the files in a folder of the disk to "
                        "test there",
                        options.ranOn));

    std::string caching = "-Sb";
    if (cmd.mapped)
        caching = cmd.writeThrough ? "-Smw" : "-Sm";
    else if (cmd.unbuffered)
        caching = cmd.writeThrough ? "-Sh" : "-Su";
    else if (cmd.writeThrough)
        caching = "-Sbw";
    if (cmd.mapped && cmd.writeThrough)
        cmd.differences.emplace_back("with -Sm, -Sw makes non-temporal stores into the mapping, not writes "
                                     "through to the device");

    for (const auto& d : cmd.differences) {
        text += "REM differs: ";
        text += d;
        text += '\n';
    }
    std::vector<std::string> args{"diskspd",
                                  "-b" + diskspdBytes(cmd.block),
                                  "-c" + diskspdBytes(cmd.fileBytes),
                                  fmt::format("-d{}", seconds),
                                  fmt::format("-W{}", cmd.warmupSeconds),
                                  fmt::format("-o{}", cmd.outstanding),
                                  fmt::format("-t{}", cmd.threadsPerTarget),
                                  cmd.random ? "-r" : "-s",
                                  cmd.write ? "-w100" : fmt::format("-w{}", writePercent),
                                  caching};
    if (!distribution.empty())
        args.push_back(distribution);
    if (!cmd.hint.empty())
        args.push_back(cmd.hint);
    if (!cmd.source.empty())
        args.push_back(cmd.source);
    args.emplace_back("-L");
    std::vector<std::string> paths;
    for (std::uint32_t t = 0; t < cmd.targets; ++t) {
        const std::string name =
            cmd.targets == 1 ? options.fileStem + ".dat" : fmt::format("{}-{}.dat", options.fileStem, t + 1);
        paths.push_back(joinPath(options.directory, name));
        args.push_back("\"" + paths.back() + "\"");
    }
    std::string line;
    for (const auto& a : args) {
        if (!line.empty())
            line += ' ';
        line += a;
    }
    text += line;
    text += '\n';
    std::string remove = "REM DiskSpd leaves its files behind; remove them afterwards: del";
    for (const auto& p : paths) {
        remove += " \"";
        remove += p;
        remove += '"';
    }
    text += remove;
    text += '\n';
    job.text = text;
    return job;
}

DiskspdJob diskspdJobOf(const RunResult& result, std::size_t caseIndex)
{
    const CaseResult& c = result.cases.at(caseIndex);
    DiskspdJobOptions options;
    options.directory = result.target.path;
    options.fileStem = fmt::format("iolab-case-{}", c.index + 1);
    options.verify = result.options.verifyFiles;
    options.title = fmt::format("IOLab {}: {}", result.toolVersion, caseOrigin(result, c));
    options.ranOn = result.host.os;
    std::vector<double> seconds;
    for (const auto& rep : c.repetitions) {
        if (!rep.warmup && rep.outcome.ok() && rep.returnSeconds > 0)
            seconds.push_back(rep.returnSeconds);
    }
    if (!seconds.empty()) {
        std::sort(seconds.begin(), seconds.end());
        options.seconds = seconds[seconds.size() / 2];
    }
    return diskspdJob(c.testCase, options);
}

} // namespace iolab
