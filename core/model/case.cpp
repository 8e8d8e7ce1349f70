// SPDX-License-Identifier: MIT
#include "core/model/case.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/model/axes.h"
#include "core/model/replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace iolab {

std::uint64_t Case::bytesForThread(std::uint32_t thread) const noexcept
{
    const std::uint64_t share = totalBytes / threads;
    if (thread + 1 == threads)
        return totalBytes - share * (threads - 1);
    return share;
}

std::string Case::label() const
{
    std::string text;
    // A replay's chunk, size, sync and threads are its trace's, not choices: its label names the trace.
    const bool replay = strategy == kReplayStrategy;
    for (const AxisSpec* axis : axesInLabelOrder()) {
        if (replay && axis->matrixKey != "strategies" && !axis->extra())
            continue;
        const std::string part = axis->labelText(*this);
        if (!part.empty())
            text += (text.empty() ? "" : " ") + part;
    }
    return text;
}

std::string toString(Direction direction)
{
    switch (direction) {
    case Direction::Write:
        return "write";
    case Direction::Read:
        return "read";
    }
    return "?";
}

std::string toString(TargetKind kind)
{
    switch (kind) {
    case TargetKind::Directory:
        return "directory";
    case TargetKind::Pipe:
        return "pipe";
    case TargetKind::Null:
        return "null";
    }
    return "?";
}

std::string toString(SyncPolicy policy)
{
    switch (policy.mode) {
    case SyncMode::None:
        return "none";
    case SyncMode::FsyncEnd:
        return "fsync-end";
    case SyncMode::FdatasyncEnd:
        return "fdatasync-end";
    case SyncMode::FsyncEvery:
        return fmt::format("fsync-every:{}", policy.everyWrites);
    case SyncMode::FdatasyncEvery:
        return fmt::format("fdatasync-every:{}", policy.everyWrites);
    case SyncMode::OSync:
        return "O_SYNC";
    case SyncMode::ODsync:
        return "O_DSYNC";
    }
    return "?";
}

std::string toString(StdioBuffer buffer)
{
    switch (buffer.mode) {
    case BufferMode::NotApplicable:
        return "n/a";
    case BufferMode::None:
        return "none";
    case BufferMode::Default:
        return "default";
    case BufferMode::Bytes:
        return formatBytesCompact(buffer.bytes);
    }
    return "?";
}

Direction parseDirection(std::string_view text)
{
    if (text == "write")
        return Direction::Write;
    if (text == "read")
        return Direction::Read;
    throw InputError(fmt::format("unknown direction '{}' (use write or read)", text));
}

TargetKind parseTargetKind(std::string_view text)
{
    if (text == "directory" || text == "dir")
        return TargetKind::Directory;
    if (text == "pipe")
        return TargetKind::Pipe;
    if (text == "null")
        return TargetKind::Null;
    throw InputError(fmt::format("unknown target kind '{}' (use directory, pipe or null)", text));
}

SyncPolicy parseSyncPolicy(std::string_view text)
{
    if (text == "none")
        return {};
    if (text == "fsync-end")
        return {SyncMode::FsyncEnd, 0};
    if (text == "fdatasync-end")
        return {SyncMode::FdatasyncEnd, 0};
    if (text == "O_SYNC" || text == "osync" || text == "o_sync")
        return {SyncMode::OSync, 0};
    if (text == "O_DSYNC" || text == "odsync" || text == "o_dsync")
        return {SyncMode::ODsync, 0};
    for (const auto& [prefix, mode] :
         {std::pair{std::string_view("fsync-every:"), SyncMode::FsyncEvery},
          std::pair{std::string_view("fdatasync-every:"), SyncMode::FdatasyncEvery}}) {
        if (!text.starts_with(prefix))
            continue;
        const auto digits = text.substr(prefix.size());
        std::uint32_t n = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec == std::errc() && ptr == digits.data() + digits.size() && n > 0)
            return {mode, n};
        throw InputError(fmt::format("sync policy '{}': N in {}N must be a whole number from 1 to {}", text,
                                     prefix, UINT32_MAX));
    }
    throw InputError(
        fmt::format("unknown sync policy '{}' (use none, fsync-end, fdatasync-end, fsync-every:N, "
                    "fdatasync-every:N, O_SYNC or O_DSYNC)",
                    text));
}

StdioBuffer parseStdioBuffer(std::string_view text)
{
    if (text == "none")
        return {BufferMode::None, 0};
    if (text == "default")
        return {BufferMode::Default, 0};
    const auto bytes = parseBytes(text, "stdio buffer");
    if (bytes == 0)
        throw InputError("stdio buffer: a size of 0 is not a buffer; use 'none' for unbuffered");
    return {BufferMode::Bytes, bytes};
}

} // namespace iolab

namespace iolab {

const std::vector<ArticleMix>& articleMixes()
{
    // Minimum, maximum and mean of the file sets in the .NET reading article's tables (files found on a
    // workstation).
    static const std::vector<ArticleMix> mixes{
        {"article-2b", 2, 25'720'320, 40'953, "2 B to 25 MB, mean 40 KB (the SSD run's first set)"},
        {"article-1k", 1'001, 54'989'002, 210'818, "1 KB to 55 MB, mean 211 KB (the HDD run's set)"},
        {"article-10k", 10'007, 62'444'171, 205'102, "10 KB to 62 MB, mean 205 KB (the SSD run's third set)"},
        {"article-10k-large", 10'008, 138'634'176, 429'889,
         "10 KB to 139 MB, mean 430 KB (the HDD run's last set)"},
    };
    return mixes;
}

std::string toString(ReadHint hint)
{
    switch (hint) {
    case ReadHint::NotApplicable:
        return "n/a";
    case ReadHint::Normal:
        return "normal";
    case ReadHint::Sequential:
        return "sequential";
    case ReadHint::Random:
        return "random";
    case ReadHint::NoReuse:
        return "noreuse";
    }
    return "?";
}

std::string toString(CacheState cache)
{
    switch (cache) {
    case CacheState::NotApplicable:
        return "n/a";
    case CacheState::Cold:
        return "cold";
    case CacheState::Warm:
        return "warm";
    }
    return "?";
}

std::string toString(const FileSetSpec& set)
{
    switch (set.mix) {
    case SizeMix::None:
        return "none";
    case SizeMix::Fixed:
        return fmt::format("{}x{}", set.files, formatBytesCompact(set.minBytes));
    case SizeMix::Uniform:
        return fmt::format("{}x{}-{}", set.files, formatBytesCompact(set.minBytes),
                           formatBytesCompact(set.maxBytes));
    case SizeMix::Article:
        return fmt::format("{}x{}", set.files, set.name);
    }
    return "?";
}

std::string readerCpuWords(const Case& c)
{
    if (c.target != TargetKind::Pipe)
        return {};
    // The reader's kind and wait live in Case::extraAxes (core/model/axes.cpp declares them).
    const auto is = [&c](const char* key, std::string_view value) {
        const auto it = c.extraAxes.find(key);
        return it != c.extraAxes.end() && it->second == value;
    };
    const bool process = is("readerKinds", "process");
    const bool spin = is("readerWaits", "spin");
    if (c.readerCpu == ReaderCpu::Any && !process && !spin)
        return {};
    std::string reader = process || spin
                             ? fmt::format("a {}reader{}", spin ? "spinning " : "", process ? " process" : "")
                             : std::string("the reader");
    if (c.readerCpu == ReaderCpu::Same)
        reader += " on the writer's CPU";
    else if (c.readerCpu == ReaderCpu::Other)
        reader += " on another CPU";
    return reader;
}

std::string readAxesText(const Case& c)
{
    if (c.direction == Direction::Write)
        return {};
    if (c.hint == ReadHint::NotApplicable)
        return toString(c.cache);
    return fmt::format("{}, {}", toString(c.hint), toString(c.cache));
}

ReadHint parseReadHint(std::string_view text)
{
    if (text == "normal")
        return ReadHint::Normal;
    if (text == "sequential" || text == "seq")
        return ReadHint::Sequential;
    if (text == "random" || text == "rand")
        return ReadHint::Random;
    if (text == "noreuse")
        return ReadHint::NoReuse;
    throw InputError(fmt::format("unknown read hint '{}' (use normal, sequential, random or noreuse)", text));
}

CacheState parseCacheState(std::string_view text)
{
    if (text == "cold")
        return CacheState::Cold;
    if (text == "warm")
        return CacheState::Warm;
    throw InputError(fmt::format("unknown cache state '{}' (use cold or warm)", text));
}

std::string toString(Preallocate preallocate)
{
    switch (preallocate) {
    case Preallocate::None:
        return "none";
    case Preallocate::Fallocate:
        return "fallocate";
    case Preallocate::Overwrite:
        return "overwrite";
    case Preallocate::Rewrite:
        return "rewrite";
    }
    return "?";
}

Preallocate parsePreallocate(std::string_view text)
{
    for (auto value :
         {Preallocate::None, Preallocate::Fallocate, Preallocate::Overwrite, Preallocate::Rewrite}) {
        if (text == toString(value))
            return value;
    }
    throw InputError(
        fmt::format("unknown preallocation '{}' (use none, fallocate, overwrite or rewrite)", text));
}

std::string toString(ReaderCpu placement)
{
    switch (placement) {
    case ReaderCpu::Any:
        return "any";
    case ReaderCpu::Same:
        return "same";
    case ReaderCpu::Other:
        return "other";
    }
    return "?";
}

ReaderCpu parseReaderCpu(std::string_view text)
{
    for (auto value : {ReaderCpu::Any, ReaderCpu::Same, ReaderCpu::Other}) {
        if (text == toString(value))
            return value;
    }
    throw InputError(fmt::format("unknown reader CPU '{}' (use any, same or other)", text));
}

std::string toString(LatencyMode mode)
{
    switch (mode) {
    case LatencyMode::Auto:
        return "auto";
    case LatencyMode::On:
        return "on";
    case LatencyMode::Off:
        return "off";
    }
    return "?";
}

LatencyMode parseLatencyMode(std::string_view text)
{
    for (auto value : {LatencyMode::Auto, LatencyMode::On, LatencyMode::Off}) {
        if (text == toString(value))
            return value;
    }
    throw InputError(fmt::format("unknown latency setting '{}' (use auto, on or off)", text));
}

std::string toString(SteadyRule rule)
{
    switch (rule.mode) {
    case SteadyMode::Off:
        return "off";
    case SteadyMode::Settle:
        return formatTimeLimitMs(rule.windowMs);
    case SteadyMode::PastCache:
        return "past-cache:" + formatTimeLimitMs(rule.windowMs);
    }
    return "?";
}

SteadyRule parseSteadyRule(std::string_view text)
{
    constexpr std::string_view kSpellings = "use off, on, a window such as 5s, past-cache or past-cache:30s";
    if (text == "off")
        return {};
    SteadyRule rule{SteadyMode::Settle, kDefaultSteadyWindowMs};
    constexpr std::string_view kPastCache = "past-cache";
    if (text.starts_with(kPastCache)) {
        rule.mode = SteadyMode::PastCache;
        text.remove_prefix(kPastCache.size());
        if (text.empty())
            return rule;
        if (text.front() != ':')
            throw InputError(
                fmt::format("unknown until-steady setting 'past-cache{}' ({})", text, kSpellings));
        text.remove_prefix(1);
    } else if (text == "on") {
        return rule;
    }
    std::uint64_t ms = 0;
    try {
        ms = parseTimeLimitMs(text, "the until-steady window");
    } catch (const InputError&) {
        throw InputError(fmt::format("unknown until-steady setting '{}' ({})", text, kSpellings));
    }
    if (ms < kMinSteadyWindowMs || ms > kMaxSteadyWindowMs)
        throw InputError(fmt::format("an until-steady window of {} is outside {} to {}",
                                     formatTimeLimitMs(ms), formatTimeLimitMs(kMinSteadyWindowMs),
                                     formatTimeLimitMs(kMaxSteadyWindowMs)));
    rule.windowMs = static_cast<std::uint32_t>(ms);
    return rule;
}

std::string toString(RandomDist dist)
{
    switch (dist.kind) {
    case RandomDistKind::None:
        return "none";
    case RandomDistKind::Uniform:
        return "uniform";
    case RandomDistKind::Zipf:
        return fmt::format("zipf:{}", dist.param);
    case RandomDistKind::Pareto:
        return fmt::format("pareto:{}", dist.param);
    }
    return "?";
}

RandomDist parseRandomDist(std::string_view text)
{
    constexpr std::string_view kSpellings =
        "use uniform, zipf:THETA (e.g. zipf:1.2) or pareto:H (e.g. pareto:0.9)";
    if (text == "none")
        return {};
    if (text == "uniform")
        return {RandomDistKind::Uniform, 0};
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    RandomDist dist;
    double low = 0;
    double high = 0;
    if (name == "zipf") {
        dist.kind = RandomDistKind::Zipf;
        low = 0.01;
        high = 100;
    } else if (name == "pareto") {
        dist.kind = RandomDistKind::Pareto;
        low = 0.01;
        high = 0.99;
    } else {
        throw InputError(fmt::format("unknown random distribution '{}' ({})", text, kSpellings));
    }
    if (colon == std::string_view::npos)
        throw InputError(fmt::format("'{}' needs its parameter, e.g. {} ({})", text,
                                     dist.kind == RandomDistKind::Zipf ? "zipf:1.2" : "pareto:0.9",
                                     kSpellings));
    const std::string number(text.substr(colon + 1));
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(number, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != number.size() || !std::isfinite(value))
        throw InputError(fmt::format("'{}' in '{}' is not a number ({})", number, text, kSpellings));
    if (value < low || value > high)
        throw InputError(fmt::format("{} {} is outside {} to {}",
                                     name == "zipf" ? "zipf's theta" : "pareto's h", number, low, high));
    // The canonical value: as typed, to the precision fio takes, so that "zipf:1.20" and "zipf:1.2" match.
    dist.param = std::round(value * 1e4) / 1e4;
    return dist;
}

std::uint32_t parseReadPercent(std::string_view text)
{
    std::string_view digits = text;
    if (digits.ends_with('%'))
        digits.remove_suffix(1);
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
        throw InputError(
            fmt::format("read share '{}' is not a whole per cent (use 0 to 100, e.g. 70)", text));
    if (value > 100)
        throw InputError(fmt::format("read share {} is outside 0 to 100 per cent", text));
    return value;
}

std::string randomDistWords(const RandomDist& dist)
{
    switch (dist.kind) {
    case RandomDistKind::None:
        return {};
    case RandomDistKind::Uniform:
        return "uniform";
    case RandomDistKind::Zipf:
        return fmt::format("a Zipf hot spot (theta {})", dist.param);
    case RandomDistKind::Pareto:
        // pareto:h and pareto:1-h are the same skew (fio's exponent is log h / log(1 - h)).
        return fmt::format("a Pareto hot spot ({:.0f}% of requests on {:.0f}% of the file)",
                           std::max(dist.param, 1 - dist.param) * 100,
                           std::min(dist.param, 1 - dist.param) * 100);
    }
    return {};
}

namespace {

// sum_{k=1..n} k^-theta: exact up to a million terms, the rest by the Euler-Maclaurin integral and its
// first corrections (a relative error far below the per-mille the shares are quoted to).
double zipfWeight(std::uint64_t n, double theta)
{
    constexpr std::uint64_t kExact = 1'000'000;
    double sum = 0;
    const std::uint64_t exact = std::min(n, kExact);
    for (std::uint64_t k = exact; k >= 1; --k)
        sum += std::pow(static_cast<double>(k), -theta);
    if (n <= kExact)
        return sum;
    const auto a = static_cast<double>(kExact);
    const auto b = static_cast<double>(n);
    const auto integral = [theta](double x) {
        return theta == 1.0 ? std::log(x) : std::pow(x, 1 - theta) / (1 - theta);
    };
    sum += integral(b) - integral(a) + (std::pow(b, -theta) - std::pow(a, -theta)) / 2 -
           theta * (std::pow(b, -theta - 1) - std::pow(a, -theta - 1)) / 12;
    return sum;
}

} // namespace

double hotShare(const RandomDist& dist, std::uint64_t chunks, double chunkShare)
{
    chunkShare = std::clamp(chunkShare, 0.0, 1.0);
    if (chunks == 0)
        return 0;
    switch (dist.kind) {
    case RandomDistKind::None:
    case RandomDistKind::Uniform:
        return std::floor(chunkShare * static_cast<double>(chunks)) / static_cast<double>(chunks);
    case RandomDistKind::Zipf: {
        const auto hot = static_cast<std::uint64_t>(std::floor(chunkShare * static_cast<double>(chunks)));
        if (hot == 0)
            return 0;
        return zipfWeight(hot, dist.param) / zipfWeight(chunks, dist.param);
    }
    case RandomDistKind::Pareto: {
        // fio: x = u^(log h / log(1 - h)) in (0, 1], whose density rises towards 1 for h above one half and
        // towards 0 below it: the hottest share s of the range holds 1 - (1 - s)^e or s^e of the requests,
        // e = log(1 - h) / log h.
        const double exponent = std::log(1 - dist.param) / std::log(dist.param);
        return dist.param >= 0.5 ? 1 - std::pow(1 - chunkShare, exponent) : std::pow(chunkShare, exponent);
    }
    }
    return 0;
}

std::string toString(DataPattern pattern)
{
    switch (pattern.kind) {
    case PatternKind::Iolab:
        return "iolab";
    case PatternKind::Zeros:
        return "zeros";
    case PatternKind::Random:
        return "random";
    case PatternKind::Compressible:
        return fmt::format("compressible:{}%", pattern.percent);
    }
    return "?";
}

std::string patternWords(const DataPattern& pattern)
{
    switch (pattern.kind) {
    case PatternKind::Iolab:
        return "IOLab's own pattern";
    case PatternKind::Zeros:
        return "zeros";
    case PatternKind::Random:
        return "random bytes";
    case PatternKind::Compressible:
        return fmt::format("{}% compressible bytes", pattern.percent);
    }
    return toString(pattern);
}

DataPattern parseDataPattern(std::string_view text)
{
    for (auto kind : {PatternKind::Iolab, PatternKind::Zeros, PatternKind::Random}) {
        if (text == toString(DataPattern{kind}))
            return DataPattern{kind};
    }
    constexpr std::string_view kPrefix = "compressible:";
    if (text.starts_with(kPrefix)) {
        std::string_view number = text.substr(kPrefix.size());
        if (number.ends_with('%'))
            number.remove_suffix(1);
        unsigned percent = 0;
        const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), percent);
        if (error != std::errc{} || end != number.data() + number.size() || number.empty())
            throw InputError(
                fmt::format("pattern '{}': write compressible:N% with N a whole number from 1 to "
                            "99, e.g. compressible:50%",
                            text));
        if (percent == 0 || percent >= 100)
            throw InputError(
                fmt::format("pattern '{}': a compressible share is 1 to 99 per cent (0% is random, "
                            "100% is zeros)",
                            text));
        return DataPattern{PatternKind::Compressible, percent};
    }
    throw InputError(fmt::format("unknown pattern '{}' (use iolab, zeros, random or compressible:N%, e.g. "
                                 "compressible:50%)",
                                 text));
}

FileSetSpec parseFileSet(std::string_view text)
{
    const auto usage = [&text] {
        std::string names;
        for (const auto& mix : articleMixes())
            names += fmt::format("{}{}", names.empty() ? "" : ", ", mix.name);
        return InputError(fmt::format("file set '{}': write COUNTxSIZE (2000x4K), COUNTxMIN-MAX (500x1K-64K) "
                                      "or COUNTxMIX with a mix of {}",
                                      text, names));
    };
    const auto x = text.find('x');
    if (x == std::string_view::npos || x == 0)
        throw usage();
    FileSetSpec set;
    const auto count = text.substr(0, x);
    const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), set.files);
    if (ec != std::errc() || ptr != count.data() + count.size())
        throw usage();
    if (set.files == 0 || set.files > kMaxFileSetFiles)
        throw InputError(
            fmt::format("file set '{}': the file count must be from 1 to {}", text, kMaxFileSetFiles));
    const auto sizes = text.substr(x + 1);
    for (const auto& mix : articleMixes()) {
        if (sizes == mix.name) {
            set.mix = SizeMix::Article;
            set.name = mix.name;
            set.minBytes = mix.minBytes;
            set.maxBytes = mix.maxBytes;
            set.meanBytes = mix.meanBytes;
            return set;
        }
    }
    if (sizes.empty() || !std::isdigit(static_cast<unsigned char>(sizes.front())))
        throw usage();
    const auto dash = sizes.find('-');
    if (dash == std::string_view::npos) {
        set.mix = SizeMix::Fixed;
        set.minBytes = set.maxBytes = parseBytes(sizes, "file size");
    } else {
        set.mix = SizeMix::Uniform;
        set.minBytes = parseBytes(sizes.substr(0, dash), "smallest file size");
        set.maxBytes = parseBytes(sizes.substr(dash + 1), "largest file size");
        if (set.minBytes > set.maxBytes)
            throw InputError(
                fmt::format("file set '{}': the smallest size is larger than the largest", text));
    }
    if (set.maxBytes == 0)
        throw InputError(fmt::format("file set '{}': files of 0 bytes hold nothing to read", text));
    if (set.maxBytes > kMaxFileSetFileBytes)
        throw InputError(fmt::format("file set '{}': files larger than {} belong to the sequential read "
                                     "strategies",
                                     text, formatBytes(kMaxFileSetFileBytes)));
    set.meanBytes = (set.minBytes + set.maxBytes) / 2;
    return set;
}

namespace {

struct UringOptionName
{
    const char* name;
    bool UringOptions::*flag;
};

constexpr UringOptionName kUringOptionNames[] = {
    {"fixedbufs", &UringOptions::fixedBuffers},
    {"registerfiles", &UringOptions::registeredFiles},
    {"sqpoll", &UringOptions::sqPoll},
    {"iopoll", &UringOptions::ioPoll},
};

} // namespace

std::string toString(const UringOptions& options)
{
    switch (options.mode) {
    case UringOptions::Mode::NotApplicable:
        return "n/a";
    case UringOptions::Mode::Auto:
        return "auto";
    case UringOptions::Mode::Explicit:
        break;
    }
    std::string out;
    for (const auto& option : kUringOptionNames) {
        if (options.*option.flag)
            out += (out.empty() ? "" : "+") + std::string(option.name);
    }
    return out.empty() ? "plain" : out;
}

UringOptions parseUringOptions(std::string_view text)
{
    if (text == "auto")
        return UringOptions::automatic();
    if (text == "n/a")
        return {};
    UringOptions options = UringOptions::plain();
    if (text == "plain")
        return options;
    std::string_view rest = text;
    while (true) {
        const std::size_t plus = rest.find('+');
        const std::string_view part = rest.substr(0, plus);
        const auto* option = std::find_if(std::begin(kUringOptionNames), std::end(kUringOptionNames),
                                          [&](const UringOptionName& o) { return part == o.name; });
        if (option == std::end(kUringOptionNames))
            throw InputError(fmt::format(
                "unknown io_uring option '{}' in '{}' (use auto, plain, or fixedbufs, registerfiles, sqpoll "
                "and iopoll joined by '+', e.g. fixedbufs+registerfiles)",
                part, text));
        if (options.*option->flag)
            throw InputError(fmt::format("io_uring option '{}' is named twice in '{}'", part, text));
        options.*option->flag = true;
        if (plus == std::string_view::npos)
            break;
        rest = rest.substr(plus + 1);
    }
    return options;
}

} // namespace iolab
