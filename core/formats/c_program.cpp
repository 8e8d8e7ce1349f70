// SPDX-License-Identifier: MIT
#include "core/formats/c_program.h"

#include "core/formats/job_common.h"

#include "core/base/units.h"
#include "core/engine/file_set.h"
#include "core/formats/c_templates.h"
#include "core/model/axes.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace iolab {

namespace {

using c_templates::CTemplate;
using c_templates::Os;

// Each strategy's template and what its loop calls: one row per strategy, several rows per template where
// the loop is the same but for these.
// (Whether it opens the file unbuffered, goes to random offsets or shares one file among its threads is the
// strategy's method: core/model/strategy_methods.h.)
struct StrategyProgram
{
    std::string_view strategy;
    std::string_view templateName;
    std::vector<std::pair<std::string_view, std::string_view>> calls; // @NAME@ -> text
};

constexpr std::string_view kRuntimeChunk =
    "\n/* stdio-unlocked-call: the chunk's size read at run time, so that the compiler cannot expand the "
    "call\n"
    " * inline (glibc's <stdio.h> does, for a constant size of at most 8 bytes). */\n"
    "static volatile size_t g_chunk_bytes = CHUNK_BYTES;\n";

const std::vector<StrategyProgram>& strategyPrograms()
{
    static const std::vector<StrategyProgram> all{
        {"stdio",
         "stdio-write",
         {{"FWRITE", "fwrite"}, {"CHUNK_VALUE", "CHUNK_BYTES"}, {"CHUNK_SOURCE", ""}}},
        {"stdio-unlocked",
         "stdio-write",
         {{"FWRITE", "fwrite_unlocked"}, {"CHUNK_VALUE", "CHUNK_BYTES"}, {"CHUNK_SOURCE", ""}}},
        {"stdio-unlocked-call",
         "stdio-write",
         {{"FWRITE", "fwrite_unlocked"}, {"CHUNK_VALUE", "g_chunk_bytes"}, {"CHUNK_SOURCE", kRuntimeChunk}}},
        {"putc", "putc", {{"PUTC", "putc"}}},
        {"putc-unlocked", "putc", {{"PUTC", "putc_unlocked"}}},
        {"fputc", "putc", {{"PUTC", "fputc"}}},
        {"write", "fd-write", {}},
        {"direct", "fd-write", {}},
        {"write-random", "fd-write", {}},
        {"direct-random", "fd-write", {}},
        {"mmap-window", "mmap-window", {}},
        {"mmap-batch-direct", "mmap-batch-direct", {}},
        {"group-commit", "group-commit", {}},
        {"pipe-write", "pipe-write", {}},
        {"vmsplice", "vmsplice", {}},
        {"pwritev2-dsync", "pwritev2-dsync", {}},
        {"sync-file-range", "sync-file-range", {}},
        {"uring-linked-sync", "uring-linked-sync", {}},
        {"read", "fd-read", {}},
        {"read-direct", "fd-read", {}},
        {"read-random", "fd-read", {}},
        {"read-random-direct", "fd-read", {}},
        {"fread", "fread", {{"FREAD", "fread"}}},
        {"fread-unlocked", "fread", {{"FREAD", "fread_unlocked"}}},
        {"mmap-read", "mmap-read", {}},
        {"files-serial", "files", {}},
        {"files-pool", "files", {}},
        {"files-per-thread", "files", {}},
        {"uring-write", "uring-write", {}},
        {"uring-write-direct", "uring-write", {}},
        {"uring-random-write", "uring-write", {}},
        {"uring-random-write-direct", "uring-write", {}},
        {"uring-read", "uring-read", {}},
        {"uring-read-direct", "uring-read", {}},
        {"uring-random-read", "uring-read", {}},
        {"uring-random-read-direct", "uring-read", {}},
        {"overlapped-write", "overlapped", {}},
        {"overlapped-write-direct", "overlapped", {}},
        {"overlapped-random-write", "overlapped", {}},
        {"overlapped-random-write-direct", "overlapped", {}},
        {"overlapped-read", "overlapped", {}},
        {"overlapped-read-direct", "overlapped", {}},
        {"overlapped-random-read", "overlapped", {}},
        {"overlapped-random-read-direct", "overlapped", {}},
    };
    return all;
}

const StrategyProgram* findProgram(std::string_view strategy)
{
    const auto& all = strategyPrograms();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [strategy](const StrategyProgram& p) { return p.strategy == strategy; });
    return it == all.end() ? nullptr : &*it;
}

// The writers whose programs also write to the null device: stdio's and the plain write(2) ones.
bool takesNullDevice(const StrategyMethod& method)
{
    return method.method == IoMethod::StdioChunk || method.method == IoMethod::StdioByte ||
           method.method == IoMethod::Plain;
}

bool isStdio(const StrategyMethod& method)
{
    return method.method == IoMethod::StdioChunk || method.method == IoMethod::StdioByte;
}

std::string cString(const std::string& text)
{
    std::string quoted = "\"";
    for (const char ch : text) {
        if (ch == '"' || ch == '\\')
            quoted += '\\';
        if (ch == '\n') {
            quoted += "\\n";
            continue;
        }
        quoted += ch;
    }
    quoted += '"';
    return quoted;
}

// Text inside a /* */ comment: no "*/" can end it early.
std::string commentSafe(std::string text)
{
    for (std::size_t at = text.find("*/"); at != std::string::npos; at = text.find("*/", at))
        text.replace(at, 2, "* /");
    return text;
}

// `text` as comment lines " * ..." of at most 110 columns, the first led by `lead`, the rest indented to it.
std::string commentLines(const std::string& text, const std::string& lead)
{
    constexpr std::size_t kWidth = 110;
    std::string out;
    std::string line = " * " + lead;
    const std::string indent = " * " + std::string(lead.size(), ' ');
    std::size_t start = 0;
    bool first = true;
    const std::string safe = commentSafe(text);
    while (start <= safe.size()) {
        std::size_t end = safe.find(' ', start);
        if (end == std::string::npos)
            end = safe.size();
        const std::string word = safe.substr(start, end - start);
        if (!first && line.size() + 1 + word.size() > kWidth) {
            out += line + "\n";
            line = indent;
            first = true;
        }
        if (!first)
            line += ' ';
        line += word;
        first = false;
        start = end + 1;
    }
    out += line + "\n";
    return out;
}

bool isWrite(const Case& c)
{
    return c.direction == Direction::Write;
}

// Whether the template's loop makes the policy's sync after the last write for an every-N policy too (the
// descriptor writers do, as IOLab's do); the stdio writers sync at the end for fsync-end and fdatasync-end
// only (an every-N policy's rest reaches the kernel with fclose).
bool syncAtEnd(const Case& c, const StrategyMethod& method)
{
    const bool endPolicy = c.sync.mode == SyncMode::FsyncEnd || c.sync.mode == SyncMode::FdatasyncEnd;
    if (isStdio(method))
        return endPolicy;
    return endPolicy || syncsEveryN(c.sync.mode);
}

std::string fadviseHint(ReadHint hint)
{
    switch (hint) {
    case ReadHint::Sequential:
        return "POSIX_FADV_SEQUENTIAL";
    case ReadHint::Random:
        return "POSIX_FADV_RANDOM";
    case ReadHint::NoReuse:
        return "POSIX_FADV_NOREUSE";
    case ReadHint::NotApplicable:
    case ReadHint::Normal:
        break;
    }
    return "POSIX_FADV_NORMAL";
}

std::string madviseHint(ReadHint hint)
{
    switch (hint) {
    case ReadHint::Sequential:
        return "MADV_SEQUENTIAL";
    case ReadHint::Random:
        return "MADV_RANDOM";
    case ReadHint::NotApplicable:
    case ReadHint::Normal:
    case ReadHint::NoReuse:
        break;
    }
    return "MADV_NORMAL";
}

std::string windowsHint(ReadHint hint)
{
    switch (hint) {
    case ReadHint::Sequential:
        return "FILE_FLAG_SEQUENTIAL_SCAN";
    case ReadHint::Random:
        return "FILE_FLAG_RANDOM_ACCESS";
    case ReadHint::NotApplicable:
    case ReadHint::Normal:
    case ReadHint::NoReuse:
        break;
    }
    return "0";
}

struct Define
{
    std::string value;
    std::string comment;
};

// The case's bytes in C: IOLab's own pattern, zeros, random or compressible bytes, each byte for byte what
// IOLab writes (core/engine/pattern.cpp: the same hash, the same SplitMix64 stream and seed).
struct PatternCode
{
    std::string comment; // the pattern snippet's first sentences
    std::string source;  // code before make_pattern: the random stream, where one is used
    std::string fill;    // make_pattern's loop
};

PatternCode patternCode(const DataPattern& p)
{
    constexpr std::string_view kCopyPeriod = "    for (size_t i = PATTERN_PERIOD; i < bytes; ++i)\n"
                                             "        g_pattern[i] = g_pattern[i - PATTERN_PERIOD];";
    constexpr std::string_view kStream = R"C(
/* IOLab's fixed pseudo-random stream (SplitMix64, the same seed): the same bytes on every run. */
static uint64_t g_stream_state = 0x101AB05EEDULL;
static uint64_t g_stream_word;
static int g_stream_left;

static unsigned char next_random_byte(void)
{
    if (g_stream_left == 0) {
        g_stream_state += 0x9E3779B97F4A7C15ULL;
        uint64_t z = g_stream_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        g_stream_word = z ^ (z >> 31);
        g_stream_left = 8;
    }
    const unsigned char b = (unsigned char)(g_stream_word & 0xFF);
    g_stream_word >>= 8;
    --g_stream_left;
    return b;
}
)C";
    switch (p.kind) {
    case PatternKind::Iolab:
        break;
    case PatternKind::Zeros:
        return {"The case's bytes: zeros, every one (the pattern axis's zeros): what a compressing or "
                "deduplicating layer shrinks to almost nothing.",
                "", "    memset(g_pattern, 0, bytes);"};
    case PatternKind::Random:
        return {
            "The case's bytes: pseudo-random (the pattern axis's random), incompressible, repeating every "
            "256 KiB (a block-level deduplicator finds those repeats).",
            std::string(kStream),
            fmt::format("    for (size_t i = 0; i < PATTERN_PERIOD; ++i)\n"
                        "        g_pattern[i] = next_random_byte();\n{}",
                        kCopyPeriod)};
    case PatternKind::Compressible: {
        const std::uint64_t zeros = kCompressibleBlockBytes * std::min<std::uint32_t>(p.percent, 100) / 100;
        return {fmt::format("The case's bytes: {}% compressible (the pattern axis's compressible:{}%): each "
                            "4 KiB block is pseudo-random bytes, then {} zeros.",
                            p.percent, p.percent, zeros),
                std::string(kStream),
                fmt::format("    for (size_t i = 0; i < PATTERN_PERIOD; ++i)\n"
                            "        g_pattern[i] = i % 4096 < {} ? next_random_byte() : 0;\n{}",
                            kCompressibleBlockBytes - zeros, kCopyPeriod)};
    }
    }
    return {
        "IOLab's bytes: byte i of a file is a hash of i modulo 256 KiB, never zero, so that neither sparse "
        "files nor compression flatter the figure (it repeats every 256 KiB: a block-level deduplicator "
        "finds "
        "those repeats).",
        "",
        "    for (size_t i = 0; i < bytes; ++i) {\n"
        "        uint64_t z = (uint64_t)(i % PATTERN_PERIOD) * 0x9E3779B97F4A7C15ULL;\n"
        "        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;\n"
        "        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;\n"
        "        z ^= z >> 31;\n"
        "        g_pattern[i] = (unsigned char)(1 + (z >> 32) % 255);\n"
        "    }"};
}

// The case's values as the templates' #defines.
std::map<std::string_view, Define> caseDefines(const Case& c, const StrategyMethod& method,
                                               const std::string& defaultPath)
{
    const std::uint32_t threads = std::max<std::uint32_t>(c.threads, 1);
    const std::uint32_t depth = std::max<std::uint32_t>(c.queueDepth, 1);
    const char* syncCall = syncCallName(c.sync.mode);
    std::string openSync = "0";
    if (c.sync.mode == SyncMode::OSync)
        openSync = "O_SYNC";
    else if (c.sync.mode == SyncMode::ODsync)
        openSync = "O_DSYNC";
    std::string bufferMode = "0";
    if (c.buffer.mode == BufferMode::None)
        bufferMode = "1";
    else if (c.buffer.mode == BufferMode::Bytes)
        bufferMode = "2";
    int readerCpu = 0;
    if (c.readerCpu == ReaderCpu::Same)
        readerCpu = 1;
    else if (c.readerCpu == ReaderCpu::Other)
        readerCpu = 2;
    const FileSetSpec& set = c.fileSet;
    double shape = 0;
    if (set.mix == SizeMix::Article)
        shape = paretoShapeForMean(static_cast<double>(set.minBytes), static_cast<double>(set.maxBytes),
                                   static_cast<double>(set.meanBytes));
    int parallelism = 1;
    if (method.fileSetThreads == Parallelism::Single)
        parallelism = 0;
    else if (method.fileSetThreads == Parallelism::PerFile)
        parallelism = 2;
    const auto flag = [](bool on) {
        return std::string(on ? "1" : "0");
    };
    return {
        {"DEFAULT_PATH", {cString(defaultPath), "where the program writes without an argument"}},
        {"CHUNK_BYTES", {fmt::format("{}ULL", c.chunkBytes), "the case's chunk: the bytes of one call"}},
        {"TOTAL_BYTES", {fmt::format("{}ULL", c.totalBytes), "the case's size, over all its threads"}},
        {"THREADS", {std::to_string(threads), "threads, each with its own file unless SHARED_FILE"}},
        {"SHARED_FILE", {flag(method.sharedFile), "1: the threads share one file"}},
        {"OPEN_SYNC_FLAGS", {openSync, "the sync policy's open flag: 0, O_SYNC or O_DSYNC"}},
        {"SYNC_EVERY",
         {std::to_string(c.sync.loopSyncEvery()),
          "the sync policy's call after every N full writes; 0: none"}},
        {"SYNC_AT_END", {flag(syncAtEnd(c, method)), "1: the sync policy's call after the last write"}},
        {"SYNC_CALL", {syncCall, "the sync policy's call"}},
        {"SYNC_NAME", {cString(syncCall), ""}},
        {"SYNC_DATA_ONLY", {flag(syncsDataOnly(c.sync.mode)), "1: io_uring's sync is fdatasync"}},
        {"TIME_LIMIT_SECONDS",
         {fmt::format("{:.3f}", static_cast<double>(c.timeLimitMs) / 1000.0),
          "the case's time limit; 0: none"}},
        {"TIME_CHECK_CALLS",
         {std::to_string(std::max<std::uint64_t>(1, 65536 / std::max<std::uint64_t>(c.chunkBytes, 1))),
          "calls into memory between two looks at the clock (64 KiB)"}},
        {"DIRECT_FLAG", {method.direct ? "O_DIRECT" : "0", "O_DIRECT: around the page cache"}},
        {"RANDOM", {flag(method.random), "1: random chunk-aligned offsets"}},
        {"REWRITE",
         {flag(c.preallocate == Preallocate::Rewrite), "1: preallocate rewrite, every write at offset 0"}},
        {"STDIO_BUFFER", {bufferMode, "setvbuf: 0 stdio's default, 1 none (_IONBF), 2 STDIO_BUFFER_BYTES"}},
        {"STDIO_BUFFER_BYTES", {std::to_string(c.buffer.mode == BufferMode::Bytes ? c.buffer.bytes : 0), ""}},
        {"WINDOW_BYTES", {"16384u", "the mapped window or batch: 16 KiB"}},
        {"READER_CPU",
         {std::to_string(readerCpu), "0: where the scheduler puts them, 1: writer and reader on one "
                                     "CPU, 2: on two"}},
        {"QUEUE_DEPTH", {fmt::format("{}u", depth), "requests in flight per thread"}},
        {"RING_ENTRIES",
         {fmt::format("{}u", std::bit_ceil(depth)), "the ring's size: the depth's power of two"}},
        {"FADVISE_HINT", {fadviseHint(c.hint), "the case's hint"}},
        {"MADVISE_HINT", {madviseHint(c.hint), "the case's hint, for the mapping"}},
        {"FILES", {fmt::format("{}u", std::max<std::uint32_t>(set.files, 1)), "files in the set"}},
        {"FILE_MIN_BYTES", {fmt::format("{}ULL", set.minBytes), "the smallest file"}},
        {"FILE_MAX_BYTES", {fmt::format("{}ULL", std::max(set.maxBytes, set.minBytes)), "the largest"}},
        {"FILE_SHAPE", {fmt::format("{:.17g}", shape), "an article mix's Pareto shape"}},
        {"FILE_PARALLELISM",
         {std::to_string(parallelism), "0 one thread, 1 a pool of THREADS, 2 a thread per file"}},
        {"WRITE", {flag(isWrite(c)), "1: writes, 0: reads"}},
        {"NO_BUFFERING", {flag(method.direct), "FILE_FLAG_NO_BUFFERING: around the cache"}},
        {"WRITE_THROUGH",
         {flag(c.sync.mode == SyncMode::OSync || c.sync.mode == SyncMode::ODsync),
          "FILE_FLAG_WRITE_THROUGH (the case's O_SYNC or O_DSYNC)"}},
        {"ACCESS_HINT", {windowsHint(c.hint), "the case's hint"}},
        {"CACHE_COLD", {flag(c.cache != CacheState::Warm), "reads: 1 cold, 0 warm"}},
    };
}

std::string sizeExpression(SizeMix mix)
{
    switch (mix) {
    case SizeMix::Uniform:
        return "lo + u * (hi - lo)";
    case SizeMix::Article:
        return "lo * pow(1.0 - u * (1.0 - pow(lo / hi, FILE_SHAPE)), -1.0 / FILE_SHAPE)";
    case SizeMix::None:
    case SizeMix::Fixed:
        break;
    }
    return "lo";
}

std::string outputWords(const Case& c, const StrategyMethod& method)
{
    if (method.method == IoMethod::FileSet)
        return "a new folder for the file set, removed at the end";
    if (c.target == TargetKind::Null)
        return "not used: the case writes to the null device";
    const std::string more = c.threads > 1 && !method.sharedFile
                                 ? fmt::format(", OUTPUT.1 to OUTPUT.{} for the threads", c.threads)
                                 : std::string();
    if (isWrite(c))
        return "the file to write, removed at the end" + more;
    return "the file to write, then read, removed at the end" + more;
}

std::string prepareLine(Preallocate preallocate)
{
    switch (preallocate) {
    case Preallocate::Fallocate:
        return "    reserve_space(fd, path, bytes);\n";
    case Preallocate::Overwrite:
        return "    write_beforehand(path, bytes);\n";
    case Preallocate::Rewrite:
        return "    write_beforehand(path, bytes < CHUNK_BYTES ? bytes : CHUNK_BYTES);\n";
    case Preallocate::None:
        break;
    }
    return "    (void)bytes; /* preallocate none: the file grows as it is written */\n";
}

// The snippets a template's program prints, its "@" names resolved for the case, in their shared order.
std::vector<std::string_view> snippetsFor(const CTemplate& t, const Case& c)
{
    std::set<std::string_view> wanted;
    for (const auto name : t.snippets) {
        if (name == "@outputs") {
            if (c.target == TargetKind::Null) {
                wanted.insert({"remove-nothing-null", "open-null", "durable-null"});
                continue;
            }
            wanted.insert({"remove-files", "open-output", "durable-files"});
            if (c.preallocate == Preallocate::Fallocate)
                wanted.insert("reserve-space");
            if (c.preallocate == Preallocate::Overwrite || c.preallocate == Preallocate::Rewrite)
                wanted.insert({"write-beforehand", "write-fully"});
        } else if (name == "@cache") {
            wanted.insert(c.cache == CacheState::Warm ? "cache-warm" : "cache-cold");
        } else {
            wanted.insert(name);
        }
    }
    std::vector<std::string_view> ordered;
    for (const auto& snippet : c_templates::snippets()) {
        if (wanted.count(snippet.name) != 0)
            ordered.push_back(snippet.name);
    }
    return ordered;
}

std::string substitute(const std::string& text, const std::map<std::string, std::string>& values)
{
    std::string out;
    out.reserve(text.size());
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t open = text.find('@', at);
        if (open == std::string::npos) {
            out.append(text, at);
            break;
        }
        const std::size_t close = text.find('@', open + 1);
        if (close == std::string::npos)
            throw std::logic_error("a C template has an unclosed @ placeholder");
        const std::string name = text.substr(open + 1, close - open - 1);
        const auto it = values.find(name);
        if (it == values.end())
            throw std::logic_error("a C template's placeholder @" + name + "@ has no value");
        out.append(text, at, open - at);
        out += it->second;
        at = close + 1;
    }
    return out;
}

// Every way the program's run differs from IOLab's, in sentences.
std::vector<std::string> differencesOf(const Case& c, const CProgramOptions& options,
                                       const StrategyMethod& method, const CTemplate& t)
{
    std::vector<std::string> d;
    const bool files = c.target == TargetKind::Directory;
    if (options.repetitions > 1 || options.warmups > 0)
        d.emplace_back(
            fmt::format("IOLab ran the case {} time{} after {} warm-up{} and reports the median; run this "
                        "program as often and take the median too",
                        options.repetitions, options.repetitions == 1 ? "" : "s", options.warmups,
                        options.warmups == 1 ? "" : "s"));
    const bool windowsRun = options.ranOn.rfind("Windows", 0) == 0;
    if (t.os == Os::Linux && windowsRun)
        d.emplace_back(
            fmt::format("IOLab ran on {}, where its {} strategy makes the Windows calls of the same loop; "
                        "this program is the Linux (POSIX) loop, to build and run on Linux",
                        options.ranOn, c.strategy));
    if (options.verify && isWrite(c) && files)
        d.emplace_back(
            "IOLab read every byte back and checked it after the timed part; this program does not");
    if (options.verify && !isWrite(c))
        d.emplace_back("IOLab checked every byte it read against its pattern; this program does not");
    if (method.method == IoMethod::Pipe)
        d.emplace_back(
            options.verifyPipes
                ? "IOLab's reader checked every byte of the stream against its pattern; this "
                  "program's reader reads the bytes without looking at them"
                : "IOLab's reader discarded the stream with splice(2) to /dev/null; this program's "
                  "reader reads it into a buffer");
    if (options.timedCalls)
        d.emplace_back("IOLab timed every call for its latency histogram (a clock read around each); this "
                       "program times the whole loop only");
    if (method.random && isWrite(c))
        d.emplace_back("the random order is a shuffle of its own (Fisher-Yates): every chunk once, as in "
                       "IOLab, but in another order than IOLab's");
    const bool uring = method.method == IoMethod::UringQueue;
    const bool explicitUring = c.uring.mode == UringOptions::Mode::Explicit;
    if (uring && !explicitUring && isWrite(c))
        d.emplace_back("IOLab registers the file and the pattern's memory with the ring (a fixed file and "
                       "buffer) where the kernel allows; this program does not");
    if (uring && !explicitUring && !isWrite(c))
        d.emplace_back("IOLab registers the file and its buffers with the ring (a fixed file and buffers) "
                       "where the kernel allows; this program does not");
    if (uring && explicitUring && c.uring != UringOptions::plain())
        d.emplace_back(fmt::format("IOLab ran io_uring with {} (the --uring axis); this program sets up a "
                                   "plain ring: no registered file or buffers, no SQPOLL thread, no IOPOLL",
                                   toString(c.uring)));
    if (method.method == IoMethod::FileSet)
        d.emplace_back("the set's folders hold 64 files each, one level deep (IOLab nests them two levels "
                       "deep); IOLab also times each file (median and 99th percentile), this program the "
                       "whole set only");
    if (method.method == IoMethod::MmapBatchDirect)
        d.emplace_back("the scratch file behind the batch buffer is removed as soon as it is mapped (the "
                       "mapping keeps it); IOLab keeps it until the case ends");
    if (options.dropCaches && !isWrite(c) && c.cache != CacheState::Warm)
        d.emplace_back("IOLab emptied the whole page cache (as root) before each cold repetition; this "
                       "program evicts only its own files");
    if (c.timeLimitMs > 0)
        d.emplace_back("IOLab looks at its time limit between batches of calls (at most about 20 ms apart); "
                       "this program before every call (every 64 KiB for calls into memory)");
    if (options.crashKills > 0 && isWrite(c) && files)
        d.emplace_back(fmt::format("IOLab also killed the case {} times (kill -9) to see what a crash loses; "
                                   "this program does not",
                                   options.crashKills));
    if (c.memoryLimitBytes > 0)
        d.emplace_back(
            fmt::format("IOLab ran this case in a memory cgroup capped at {}; run the program the same "
                        "way, e.g. systemd-run --user --scope -p MemoryMax={} ./iolab-case",
                        formatBytes(c.memoryLimitBytes), c.memoryLimitBytes));
    return d;
}

CProgram unavailable(const std::string& title, const std::string& why)
{
    CProgram p;
    p.text = "/*\n" + commentLines(title, "") + commentLines(why, "") + " */\n";
    return p;
}

} // namespace

std::string_view cTemplateOf(std::string_view strategy)
{
    const StrategyProgram* program = findProgram(strategy);
    return program == nullptr ? std::string_view() : program->templateName;
}

CProgram cProgram(const Case& c, const CProgramOptions& options)
{
    const StrategyMethod* method = strategyMethod(c.strategy);
    if (method == nullptr)
        return unavailable(
            options.title,
            fmt::format("IOLab does not know the {} strategy (this version has none of that name), "
                        "so it has no C program of it.",
                        c.strategy));
    const StrategyProgram* program = findProgram(c.strategy);
    if (program == nullptr)
        return unavailable(
            options.title,
            fmt::format("IOLab has no C program of the {} strategy: it has no template for it.", c.strategy));
    const CTemplate* t = c_templates::findTemplate(program->templateName);
    if (t == nullptr)
        throw std::logic_error("no C template " + std::string(program->templateName));
    const bool pipe = method->method == IoMethod::Pipe;
    if (pipe != (c.target == TargetKind::Pipe) ||
        (c.target == TargetKind::Null && (!takesNullDevice(*method) || method->direct)))
        return unavailable(options.title,
                           fmt::format("IOLab has no C program of the {} strategy writing to {}.", c.strategy,
                                       toString(c.target)));
    if (mixes(c) || c.randomDist.hotSpot())
        return unavailable(
            options.title,
            fmt::format(
                "IOLab's C programs read uniformly and only read: this case's {} is not in any template. "
                "Its fio job (export-job --fio) runs the same mix and hot spot (rwmixread, "
                "random_distribution).",
                mixes(c) && c.randomDist.hotSpot()
                    ? fmt::format("{}% read mix over {}", *c.readPercent, randomDistWords(c.randomDist))
                : mixes(c) ? fmt::format("{}% read mix", *c.readPercent)
                           : randomDistWords(c.randomDist)));
    // The pipe program's reader is a thread that blocks in its calls, its writer's buffers in normal pages.
    if (pipe) {
        const std::string kind = extraAxisValue(c, "readerKinds", "thread");
        const std::string wait = extraAxisValue(c, "readerWaits", "block");
        const std::string pages = extraAxisValue(c, "pipePages", "normal");
        if (kind != "thread" || wait != "block" || pages != "normal")
            return unavailable(
                options.title,
                fmt::format("IOLab's C program of a pipe case reads with a thread that blocks, "
                            "from buffers in normal pages; it has none with reader {}, reader "
                            "wait {}, pipe pages {} (tests/perf/plain_pipe.cpp has them).",
                            kind, wait, pages));
    }
    const bool fileSet = method->method == IoMethod::FileSet;
    if (fileSet && c.fileSet.empty())
        return unavailable(
            options.title,
            fmt::format("IOLab has no C program of {} without a file set to read.", c.strategy));

    const std::string defaultPath =
        c.target == TargetKind::Null
            ? std::string("/dev/null")
            : joinPath(options.directory, options.fileStem + (fileSet ? "-set" : ".dat"));
    const auto defines = caseDefines(c, *method, defaultPath);
    const PatternCode pattern = patternCode(c.pattern);
    std::map<std::string, std::string> values{
        {"PATTERN_COMMENT", pattern.comment},    {"PATTERN_SOURCE", pattern.source},
        {"PATTERN_FILL", pattern.fill},          {"OUTPUT_WORDS", outputWords(c, *method)},
        {"PREPARE", prepareLine(c.preallocate)}, {"SIZE_EXPRESSION", sizeExpression(c.fileSet.mix)}};
    for (const auto& [key, value] : program->calls)
        values[std::string(key)] = std::string(value);

    const bool windows = t->os == Os::Windows;
    std::string libraries(t->libraries);
    if (fileSet && c.fileSet.mix == SizeMix::Article)
        libraries = "-lm";
    CProgram result;
    result.available = true;
    result.buildCommand = windows ? "gcc -O2 -o iolab-case.exe iolab-case.c"
                                  : "cc -O2 -pthread -o iolab-case iolab-case.c" +
                                        (libraries.empty() ? std::string() : " " + libraries);

    std::string text = "/*\n";
    text += commentLines(options.title, "");
    text += " *\n";
    text += commentLines(
        fmt::format("A standalone C program of the case's loop, generated by IOLab from its \"{}\" template: "
                    "what IOLab's {} strategy did, with the case's values below.",
                    t->name, c.strategy),
        "");
    if (windows) {
        text += commentLines(fmt::format("Build (MinGW-w64): {}", result.buildCommand), "");
        text += commentLines("or with Visual C++: cl /O2 iolab-case.c", "");
        text += commentLines("Run: iolab-case.exe [OUTPUT]", "");
    } else {
        text += commentLines(fmt::format("Build: {}", result.buildCommand), "");
        text += commentLines(pipe ? "Run: ./iolab-case" : "Run: ./iolab-case [OUTPUT]", "");
    }
    if (!pipe)
        text +=
            commentLines(fmt::format("OUTPUT: {} (default {}).", outputWords(c, *method), defaultPath), "");
    text += commentLines(
        isWrite(c) && c.target == TargetKind::Directory
            ? "It prints one line with the MB/s it measured: apparent (until the last call returned) and "
              "durable (with the final fsync of every file, as IOLab measures it); then it removes its "
              "files. "
              "On a failure it names the call that failed and why, and exits with status 1."
            : "It prints one line with the MB/s it measured and removes what it wrote. On a failure it names "
              "the "
              "call that failed and why, and exits with status 1.",
        "");
    const auto differences = differencesOf(c, options, *method, *t);
    text += " *\n";
    if (differences.empty()) {
        text += commentLines("Where it differs from IOLab's run: nowhere that IOLab knows of.", "");
    } else {
        text += " * Where it differs from IOLab's run:\n";
        for (const auto& d : differences)
            text += commentLines(d, "- ");
    }
    text += " */\n";
    if (windows)
        text += "#define WIN32_LEAN_AND_MEAN /* windows.h without what the program does not use */\n";
    else
        text += "#define _GNU_SOURCE /* O_DIRECT, fallocate, pwritev2, vmsplice, sync_file_range, "
                "fwrite_unlocked */\n";
    for (const auto header : t->headers)
        text += fmt::format("#include <{}>\n", header);
    text += "\n/* The case */\n";
    for (const auto name : t->defines) {
        const Define& define = defines.at(name);
        text += fmt::format("#define {} {}", name, define.value);
        if (!define.comment.empty())
            text += fmt::format(" /* {} */", commentSafe(define.comment));
        text += '\n';
    }
    std::string code;
    for (const auto name : snippetsFor(*t, c)) {
        const auto& all = c_templates::snippets();
        const auto it =
            std::find_if(all.begin(), all.end(), [name](const auto& s) { return s.name == name; });
        code += "\n";
        code += it->code;
    }
    code += t->body;
    text += substitute(code, values);
    result.text = text;
    return result;
}

CProgram cProgramOf(const RunResult& result, std::size_t caseIndex)
{
    const CaseResult& c = result.cases.at(caseIndex);
    CProgramOptions options;
    options.directory = result.target.path;
    options.fileStem = fmt::format("iolab-case-{}", c.index + 1);
    options.title = fmt::format("Generated by IOLab {} from {}", result.toolVersion, caseOrigin(result, c));
    options.ranOn = result.host.os;
    options.repetitions = result.options.repetitions;
    options.warmups = result.options.warmups;
    options.verify = result.options.verifyFiles;
    options.verifyPipes = result.options.verifyPipes;
    options.dropCaches = result.options.dropCaches;
    options.timedCalls = c.callLatency.has_value();
    options.crashKills = result.options.crashProbe;
    return cProgram(c.testCase, options);
}

} // namespace iolab
