// SPDX-License-Identifier: MIT
#include "core/model/axes.h"

#include "core/base/error.h"
#include "core/base/units.h"
#include "core/model/file_set_sizes.h"
#include "core/model/matrix_draft.h"
#include "core/model/memory_budget.h"
#include "core/model/replay.h"
#include "core/model/strategy_info.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace iolab {

namespace {

// Refusal ranks of the built-in rules: the order in which a case breaking several hears about them.
enum RefusalRank : int
{
    kTargetRank = 10,      // the strategy writes to that kind of target
    kBufferRank = 20,      // a stdio buffer exactly for the stdio strategies
    kDirectionRank = 30,   // the case's direction is the strategy's
    kReadOnlyOnWrite = 40, // writes carry no hint, cache state or file set
    kSyncOnRead = 43,      // reads carry no sync policy
    kReadAxes = 44,        // a read's cache state, hint, file set and thread count
    kExtraRank = 50,       // axes declared with declareExtraAxis
    kSyncRank = 60,        // the sync policy against the target and the strategy
    kPreallocateRank = 70, // the preallocation against the target and the strategy
    kReaderCpuRank = 75,   // the reader CPU needs a pipe's reader
    kQueueDepthRank = 77,  // a queue depth needs a queued strategy
    kPatternRank = 76,     // a data pattern needs bytes that reach a filesystem
    kLatencyRank = 78,     // latency on needs a strategy that times its calls
    kTimeLimitRank = 79,   // a time limit needs a strategy whose loop can end early
    kThreadLimitRank = 80, // file-set readers' one thread per file
    kMemoryLimitRank = 81, // a memory limit needs a write to a file, a memory cgroup, and room for the case
    kSteadyRank = 82,      // until steady needs a writer's own loop into a file, in IOLab's process
    kFreeShareRank =
        83,          // a share of free space needs a write to a file and a target whose free space is known
    kUringRank = 84, // io_uring's options need a uring-* strategy, IOPOLL direct I/O without syncs
    kMixRank = 86,   // a read/write mix needs a random reader of a shared file
    kRandomDistRank = 87, // a hot spot needs a strategy that picks random offsets independently
};

// The results table's columns of the built-in axes, in this order; a declared axis's column defaults to 100.
enum ColumnRank : int
{
    kStrategyColumn = 10,
    kChunkColumn = 20,
    kBufferColumn = 30,
    kSyncColumn = 40,
    kReadColumn = 50, // the read hint, and the cache state with it
    kReaderCpuColumn = 55,
    kQueueDepthColumn = 58,
    kThreadsColumn = 60,
    kSizeColumn = 70,
    kLatencyColumn = 80,
    kPatternColumn = 57,
    kTimeLimitColumn = 72,
    kMemoryLimitColumn = 74,
    kSteadyColumn = 73,
    kFreeShareColumn = 71,
    kMixColumn = 56,
    kUringColumn = 59,
};

std::uint32_t parseThreadCount(std::string_view text, std::string_view where)
{
    const std::string prefix = where.empty() ? std::string() : fmt::format("{}: ", where);
    std::uint64_t n = 0;
    try {
        std::size_t used = 0;
        n = std::stoull(std::string(text), &used);
        if (used != text.size() || text.front() == '-' || text.front() == '+')
            throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
        throw InputError(fmt::format("{}'{}' is not a whole number", prefix, text));
    }
    if (n == 0 || n > kMaxThreads) {
        if (where.empty())
            throw InputError(
                fmt::format("{} threads is outside the allowed range 1 to {}", text, kMaxThreads));
        throw InputError(fmt::format("{}{} is outside the allowed range 1 to {}", prefix, text, kMaxThreads));
    }
    return static_cast<std::uint32_t>(n);
}

std::uint32_t parseQueueDepth(std::string_view text, std::string_view where)
{
    const std::string prefix = where.empty() ? std::string() : fmt::format("{}: ", where);
    std::uint64_t n = 0;
    try {
        std::size_t used = 0;
        n = std::stoull(std::string(text), &used);
        if (used != text.size())
            throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
        throw InputError(fmt::format("{}queue depth '{}' is not a whole number", prefix, text));
    }
    // 0 is what a strategy without a queue carries in result files; a matrix may not list it.
    if (n > kMaxQueueDepth || (n == 0 && !where.empty() && where != "queue depth"))
        throw InputError(fmt::format("{}queue depth {} is outside the allowed range 1 to {}", prefix, text,
                                     kMaxQueueDepth));
    return static_cast<std::uint32_t>(n);
}

// How one value type is written and read. caseText spells a case's value in result files, listText a
// listed value in matrix files; parse reads either (`where` names it in messages). unsetText: the text
// result files use for T{} (a strategy without the axis), read back as T{}.
template <class T> struct ValueCodec
{
    std::function<std::string(const T&)> caseText;
    std::function<std::string(const T&)> listText;
    std::function<T(std::string_view text, std::string_view where)> parse;
    std::optional<std::string> unsetText;
};

// An enum-like value with toString() and a parser of its own.
template <class T>
ValueCodec<T> namedValues(T (*parse)(std::string_view), std::optional<std::string> unset = {})
{
    const auto text = [](const T& v) {
        return toString(v);
    };
    return {text, text, [parse](std::string_view t, std::string_view) { return parse(t); }, std::move(unset)};
}

// A byte count: a number in result files, "4K" in matrix files.
ValueCodec<std::uint64_t> byteValues()
{
    return {[](const std::uint64_t& v) { return std::to_string(v); },
            [](const std::uint64_t& v) { return formatBytesCompact(v); },
            [](std::string_view t, std::string_view where) { return parseBytes(t, where); }, std::nullopt};
}

// The names of an axis in sentences, files and on the command line.
struct AxisNames
{
    std::string name;
    std::string matrixKey;
    std::string resultKey;
    std::string csvColumn;
    std::string cliFlag;
    std::string help;
};

// An axis that is a Case field with a list of the same type in MatrixGroup. When the group lists none, a case
// of a strategy that takes the axis (`appliesTo`, empty: every strategy) gets `defaultFor(info)`, any other
// T{}; without `defaultFor` the group must list values (chunks) and expansion takes them as they are.
template <class T>
AxisSpec typedAxis(AxisNames names, AxisValueKind kind, T Case::*field, std::vector<T> MatrixGroup::*list,
                   ValueCodec<T> codec, const std::function<bool(const StrategyInfo&)>& appliesTo = {},
                   std::type_identity_t<std::function<T(const StrategyInfo&)>> defaultFor = {})
{
    AxisSpec a;
    a.name = std::move(names.name);
    a.matrixKey = std::move(names.matrixKey);
    a.resultKey = std::move(names.resultKey);
    a.csvColumn = std::move(names.csvColumn);
    a.cliFlag = std::move(names.cliFlag);
    a.help = std::move(names.help);
    a.kind = kind;
    a.format = [field, codec](const Case& c) {
        const T& v = c.*field;
        return codec.unsetText && v == T{} ? *codec.unsetText : codec.caseText(v);
    };
    a.parse = [field, codec, name = a.name](Case& c, std::string_view t) {
        c.*field = codec.unsetText && t == *codec.unsetText ? T{} : codec.parse(t, name);
    };
    a.groupValues = [list, codec](const MatrixGroup& g) {
        std::vector<std::string> out;
        for (const auto& v : g.*list)
            out.push_back(codec.listText(v));
        return out;
    };
    a.addGroupValue = [list, codec](MatrixGroup& g, std::string_view t, std::string_view where) {
        (g.*list).push_back(codec.parse(t, where));
    };
    a.appliesTo = appliesTo;
    a.same = [field](const Case& x, const Case& y) {
        return x.*field == y.*field;
    };
    a.mergeValues = [list](MatrixGroup& to, const MatrixGroup& from) {
        for (const auto& v : from.*list)
            insertSorted(to.*list, v);
    };
    a.clearValues = [list](MatrixGroup& g) {
        (g.*list).clear();
    };
    a.setDefault = [list, appliesTo, defaultFor](MatrixGroup& g, const StrategyInfo& info) {
        g.*list = {};
        if (defaultFor && (!appliesTo || appliesTo(info)))
            g.*list = {defaultFor(info)};
    };
    a.values = [field, list, appliesTo, defaultFor](const MatrixGroup& g, const StrategyInfo& info) {
        std::vector<T> values = g.*list;
        if (values.empty() && defaultFor)
            values = {!appliesTo || appliesTo(info) ? defaultFor(info) : T{}};
        return AxisValues{values.size(), [field, values](Case& c, std::size_t i) {
                              c.*field = values[i];
                          }};
    };
    return a;
}

// "key=value" in a label when `shown` holds for the case.
template <class T>
std::function<std::string(const Case&)> labelPart(std::string key, T Case::*field,
                                                  std::function<bool(const Case&)> shown = {})
{
    return [key = std::move(key), field, shown = std::move(shown)](const Case& c) {
        if (shown && !shown(c))
            return std::string();
        if constexpr (std::is_same_v<T, std::uint64_t>)
            return fmt::format("{}={}", key, formatBytesCompact(c.*field));
        else if constexpr (std::is_same_v<T, std::uint32_t>)
            return fmt::format("{}={}", key, c.*field);
        else
            return fmt::format("{}={}", key, toString(c.*field));
    };
}

bool reads(const StrategyInfo& info)
{
    return info.direction == Direction::Read;
}

bool writes(const StrategyInfo& info)
{
    return info.direction == Direction::Write;
}

template <class T> bool contains(const std::vector<T>& values, const T& value)
{
    return std::find(values.begin(), values.end(), value) != values.end();
}

std::string targetList(const StrategyInfo& info)
{
    std::string list;
    for (auto kind : info.targets) {
        if (!list.empty())
            list += " or ";
        list += toString(kind);
    }
    return list;
}

AxisSpec strategyAxis()
{
    AxisSpec strategy = typedAxis<std::string>(
        {"strategy", "strategies", "strategy", "strategy", "--strategy", "Strategies, comma separated"},
        AxisValueKind::Text, &Case::strategy, &MatrixGroup::strategies,
        {[](const std::string& s) { return s; }, [](const std::string& s) { return s; },
         [](std::string_view t, std::string_view) { return std::string(t); }, std::nullopt});
    strategy.values = {}; // each strategy of a group is expanded on its own
    strategy.writeEmptyList = [](const MatrixGroup&) {
        return true;
    };
    strategy.labelText = [](const Case& c) {
        return c.strategy;
    };
    strategy.labelRank = 0;
    strategy.columnHeader = "Strategy";
    strategy.column = {.tip = "How the data is written or read: the API and the way it is called",
                       .rank = kStrategyColumn,
                       .leading = true};
    strategy.reportColumn = AxisReportColumn{.header = "Strategy", .width = 9.0, .rank = kStrategyColumn};
    strategy.shortText = [](const Case& c) {
        return c.strategy;
    };
    strategy.shortRank = 0;
    return strategy;
}

// Not a matrix axis: each strategy has its direction.
AxisSpec directionAxis()
{
    AxisSpec direction;
    direction.name = "direction";
    direction.resultKey = "direction";
    direction.csvColumn = "direction";
    direction.format = [](const Case& c) {
        return toString(c.direction);
    };
    direction.parse = [](Case& c, std::string_view t) {
        c.direction = parseDirection(t);
    };
    direction.values = [](const MatrixGroup&, const StrategyInfo& info) {
        return AxisValues{1, [d = info.direction](Case& c, std::size_t) {
                              c.direction = d;
                          }};
    };
    direction.refusals = {{kDirectionRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                               return c.direction == info.direction
                                          ? std::string()
                                          : fmt::format("{} {}s; the case says {}", c.strategy,
                                                        toString(info.direction), toString(c.direction));
                           }}};
    return direction;
}

AxisSpec chunkAxis()
{
    AxisSpec chunk = typedAxis(
        {"chunk size", "chunks", "chunkBytes", "chunk_bytes", "--chunk", "Chunk sizes, e.g. 1,4K,1M"},
        AxisValueKind::Bytes, &Case::chunkBytes, &MatrixGroup::chunks, byteValues());
    chunk.writeEmptyList = [](const MatrixGroup&) {
        return true;
    };
    chunk.labelText = labelPart("chunk", &Case::chunkBytes);
    chunk.labelRank = 1;
    chunk.columnHeader = "Chunk";
    chunk.column = {.tip = "Bytes handed to each write or read call",
                    .rank = kChunkColumn,
                    .leading = true,
                    .text = [](const Case& c) { return formatBytes(c.chunkBytes); },
                    .sortValue =
                        [](const Case& c) {
                            return static_cast<double>(c.chunkBytes);
                        }};
    chunk.reportColumn = AxisReportColumn{
        .header = "Chunk", .width = 5.0, .alignRight = true, .rank = kChunkColumn, .text = [](const Case& c) {
            return formatBytesCompact(c.chunkBytes);
        }};
    chunk.shortText = chunk.reportColumn->text;
    chunk.shortRank = 1;
    chunk.chart.automaticRank = 10; // the charts' first choice
    return chunk;
}

// File-set readers read a set instead (the file set axis sets their total size).
AxisSpec sizeAxis()
{
    AxisSpec size = typedAxis({"total size", "sizes", "totalBytes", "total_bytes", "--size",
                               "Total bytes per case, e.g. 64M (overrides a preset's sizes)"},
                              AxisValueKind::Bytes, &Case::totalBytes, &MatrixGroup::sizes, byteValues(),
                              [](const StrategyInfo& info) { return info.layout != DataLayout::FileSet; });
    size.values = [typed = size.values](const MatrixGroup& g, const StrategyInfo& info) {
        return info.layout == DataLayout::FileSet ? AxisValues{} : typed(g, info);
    };
    size.editorStart = {"256M"};
    size.editorField = AxisEditorField{
        .label = "Total size:",
        .tip = "Bytes each case writes in all (threads share it), e.g. 256M, 1G.",
        .common = {"64M", "256M", "1G", "4G"},
        .fieldName = "total size",
        .noneTakes = "%1 read file sets: set their file sets instead.",
        .notTaken = "(file-set readers take their size from the set)",
        .summary = "%1",
        .summaryRank = 0,
        .check =
            [](std::string_view t) {
                if (!totalSizeAllowed(parseBytes(t, "total size")))
                    throw InputError(fmt::format("total size '{}' must be from 1 byte to {}", t,
                                                 formatBytes(kMaxTotalBytes)));
            },
    };
    size.expansionRank = -1; // sizes and file sets are the outermost loop
    size.writeEmptyList = [](const MatrixGroup& g) {
        return g.fileSets.empty();
    }; // file sets replace sizes
    size.labelText = labelPart("size", &Case::totalBytes, [](const Case& c) { return c.fileSet.empty(); });
    size.labelRank = 7;
    // A file-set reader's size is its set's: the column names the set and its total.
    size.columnHeader = "Size";
    size.column = {.tip = "Bytes each repetition writes or reads in all (threads share it)",
                   .rank = kSizeColumn,
                   .alignRight = true,
                   .text =
                       [](const Case& c) {
                           return c.fileSet.empty() ? formatBytes(c.totalBytes)
                                                    : fmt::format("{} ({})", toString(c.fileSet),
                                                                  formatBytes(c.totalBytes));
                       },
                   .sortValue =
                       [](const Case& c) {
                           return static_cast<double>(c.totalBytes);
                       }};
    size.reportColumn = AxisReportColumn{
        .header = "Size", .width = 6.4, .alignRight = true, .rank = kSizeColumn, .text = [](const Case& c) {
            return formatBytesShort(c.totalBytes);
        }};
    return size;
}

AxisSpec bufferAxis()
{
    AxisSpec buffer = typedAxis(
        {"stdio buffer", "buffers", "stdioBuffer", "stdio_buffer", "--buffer",
         "stdio buffers: none, default or sizes"},
        AxisValueKind::Text, &Case::buffer, &MatrixGroup::buffers, namedValues(parseStdioBuffer, "n/a"),
        [](const StrategyInfo& info) { return info.usesStdioBuffer; },
        [](const StrategyInfo&) {
            return StdioBuffer{BufferMode::Default, 0};
        });
    buffer.labelText = labelPart("buf", &Case::buffer,
                                 [](const Case& c) { return c.buffer.mode != BufferMode::NotApplicable; });
    buffer.labelRank = 2;
    buffer.editorField = AxisEditorField{
        .label = "stdio buffer:",
        .tip = "setvbuf for the stdio strategies: none (unbuffered), default (libc's own), or a size.",
        .common = {"none", "default", "1K", "4K", "64K", "256K", "1M", "8M"},
        .fieldName = "stdio buffer",
        .noneTakes = "None of %1 takes a stdio buffer.",
        .notTaken = "(only the stdio strategies have a buffer)",
        .summary = "buffer %1",
        .summaryRank = 1,
    };
    buffer.refusals = {
        {kBufferRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             if (c.buffer.mode != BufferMode::NotApplicable && !info.usesStdioBuffer)
                 return fmt::format("the stdio buffer axis ({}) applies only to stdio strategies; "
                                    "{} has no stdio buffer",
                                    toString(c.buffer), c.strategy);
             if (c.buffer.mode == BufferMode::NotApplicable && info.usesStdioBuffer)
                 return fmt::format("{} needs a stdio buffer setting (none, default or a size)", c.strategy);
             return std::string();
         }}};
    buffer.columnHeader = "stdio buffer";
    buffer.column = {
        .tip = "The stdio strategies' buffer (setvbuf): none, the C library's default, or a size",
        .rank = kBufferColumn,
        .text = [](const Case& c) { return toString(c.buffer); },
        .sortValue =
            [](const Case& c) {
                return static_cast<double>(c.buffer.mode == BufferMode::Bytes ? c.buffer.bytes : 0);
            },
        .wanted =
            [](const Case& c) {
                return c.buffer.mode != BufferMode::NotApplicable;
            }};
    buffer.reportColumn = AxisReportColumn{
        .header = "Buffer", .width = 4.6, .rank = kBufferColumn, .text = [](const Case& c) {
            return c.buffer.mode == BufferMode::NotApplicable ? std::string("-") : toString(c.buffer);
        }};
    // The default buffer is what a stdio case is without saying.
    buffer.shortText = [](const Case& c) {
        return c.buffer.mode != BufferMode::NotApplicable && c.buffer.mode != BufferMode::Default
                   ? "buf=" + toString(c.buffer)
                   : std::string();
    };
    buffer.shortRank = 2;
    return buffer;
}

AxisSpec syncAxis()
{
    AxisSpec sync = typedAxis(
        {"sync policy", "syncs", "sync", "sync", "--sync",
         "none, fsync-end, fdatasync-end, fsync-every:N, fdatasync-every:N, O_SYNC, O_DSYNC"},
        AxisValueKind::Text, &Case::sync, &MatrixGroup::syncs, namedValues(parseSyncPolicy), writes,
        // none, or for a writer that always syncs (uring-linked-sync) its first policy after
        // every write
        [](const StrategyInfo& info) {
            return info.syncModes.empty() || contains(info.syncModes, SyncMode::None)
                       ? SyncPolicy{}
                       : SyncPolicy{info.syncModes.front(), syncsEveryN(info.syncModes.front()) ? 1u : 0u};
        });
    sync.labelText =
        labelPart("sync", &Case::sync, [](const Case& c) { return c.direction == Direction::Write; });
    sync.labelRank = 3;
    sync.editorField = AxisEditorField{
        .label = "Sync policy:",
        .tip = "none, fsync-end, fdatasync-end, fsync-every:N, fdatasync-every:N, O_SYNC, O_DSYNC.",
        .common = {"none", "fsync-end", "fdatasync-end", "fsync-every:16", "fdatasync-every:1", "O_SYNC",
                   "O_DSYNC"},
        .fieldName = "sync",
        .noneTakes = "None of %1 writes: reads have no sync policy.",
        .notTaken = "(writers only)",
        .summary = "sync %1",
        .summaryRank = 4,
    };
    sync.refusals = {{kSyncOnRead,
                      [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                          return reads(info) && c.sync.mode != SyncMode::None
                                     ? fmt::format("{} reads; sync policy {} applies to writes", c.strategy,
                                                   toString(c.sync))
                                     : std::string();
                      }},
                     {kSyncRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                          if (c.target != TargetKind::Directory && c.sync.mode != SyncMode::None)
                              return fmt::format(
                                  "sync policy {} needs a file; a {} target has nothing to sync",
                                  toString(c.sync), toString(c.target));
                          if (!contains(info.syncModes, c.sync.mode))
                              return fmt::format("{} does not take sync policy {}: {}", c.strategy,
                                                 toString(c.sync), info.syncRefusal);
                          return std::string();
                      }}};
    sync.columnHeader = "Sync";
    sync.column = {
        .tip = "When the data is forced to storage: never by IOLab (none), with each write (O_SYNC, "
               "O_DSYNC), every n writes, or once at the end",
        .rank = kSyncColumn,
        .text =
            [](const Case& c) { return c.direction == Direction::Write ? toString(c.sync) : std::string(); },
        .wanted =
            [](const Case& c) {
                return c.direction == Direction::Write;
            }};
    // Reads show their hint and cache state in the same column (see hint and cache), pipes where their reader
    // ran (see readerCpu): a pipe or the null device has nothing to sync.
    sync.reportColumn =
        AxisReportColumn{.header = "Sync/read", .width = 6.6, .rank = kSyncColumn, .text = [](const Case& c) {
                             return c.direction == Direction::Write && c.target == TargetKind::Directory
                                        ? toString(c.sync)
                                        : std::string();
                         }};
    sync.shortText = [](const Case& c) {
        return c.sync.mode != SyncMode::None ? toString(c.sync) : std::string();
    };
    sync.shortRank = 3;
    return sync;
}

AxisSpec threadsAxis()
{
    AxisSpec threads = typedAxis<std::uint32_t>(
        {"thread count", "threads", "threads", "threads", "--threads",
         "Threads, e.g. 1,2,4: writers and sequential readers one file each; files-pool's cap"},
        AxisValueKind::Count, &Case::threads, &MatrixGroup::threads,
        {[](const std::uint32_t& n) { return std::to_string(n); },
         [](const std::uint32_t& n) { return std::to_string(n); }, parseThreadCount, std::nullopt},
        {}, [](const StrategyInfo&) { return std::uint32_t{1}; });
    threads.values = [typed = threads.values](const MatrixGroup& g, const StrategyInfo& info) {
        if (info.parallelism == Parallelism::PerFile) // one thread per file of the set
            return AxisValues{1, [](Case& c, std::size_t) {
                                  c.threads = c.fileSet.files;
                              }};
        if (info.parallelism == Parallelism::Single) // one thread whatever the group's axis says
            return AxisValues{1, [](Case& c, std::size_t) {
                                  c.threads = 1;
                              }};
        return typed(g, info);
    };
    threads.labelText = labelPart("threads", &Case::threads);
    threads.labelRank = 6;
    threads.editorField = AxisEditorField{
        .label = "Threads:",
        .tip = "Threads per case: writers and sequential readers each get their own file and an even share "
               "of the size; random readers share one file; for files-pool it is the pool's cap (the "
               "parallelism axis).",
        .common = {"1", "2", "4", "8", "16", "64", "256"},
        .fieldName = "threads",
        .summary = "%1 thread(s)",
        .summaryRank = 5,
        .check =
            [](std::string_view t) {
                std::size_t used = 0;
                unsigned long value = 0;
                try {
                    value = std::stoul(std::string(t), &used);
                } catch (const std::exception&) {
                    used = 0;
                }
                if (used != t.size() || value == 0 || value > kMaxThreads)
                    throw InputError(
                        fmt::format("thread count '{}' must be a whole number from 1 to {}", t, kMaxThreads));
            },
    };
    threads.refusals = {
        {kReadAxes + 3,
         [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             if (!reads(info))
                 return std::string();
             if (info.parallelism == Parallelism::Single && c.threads != 1)
                 return fmt::format("{} reads in one thread, in order; for {} threads use files-pool",
                                    c.strategy, c.threads);
             if (info.parallelism == Parallelism::PerFile && c.threads != c.fileSet.files)
                 return fmt::format("{} starts one thread per file ({}), not {}", c.strategy, c.fileSet.files,
                                    c.threads);
             return std::string();
         }},
        {kThreadLimitRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             return info.layout == DataLayout::FileSet && c.threads > kMaxThreads
                        ? fmt::format(
                              "{} would start {} threads at once, over the limit of {}; use files-pool "
                              "or a set of at most {} files",
                              c.strategy, c.threads, kMaxThreads, kMaxThreads)
                        : std::string();
         }}};
    threads.columnHeader = "Threads";
    threads.column = {.tip = "Threads; for files-pool the pool's cap, for files-per-thread one per file",
                      .rank = kThreadsColumn,
                      .alignRight = true,
                      .text = [](const Case& c) { return std::to_string(c.threads); },
                      .sortValue = [](const Case& c) { return static_cast<double>(c.threads); },
                      .wanted =
                          [](const Case& c) {
                              return c.threads > 1;
                          }};
    threads.reportColumn = AxisReportColumn{.header = "Thr",
                                            .width = 2.9,
                                            .alignRight = true,
                                            .rank = kThreadsColumn,
                                            .text = threads.column.text};
    threads.shortText = [](const Case& c) {
        return c.threads > 1 ? "x" + std::to_string(c.threads) : std::string();
    };
    threads.shortRank = 4;
    // The heatmap's columns when only the thread count varies (the small-files sweep).
    threads.chart = {.name = "threads", .automaticRank = 20};
    return threads;
}

AxisSpec targetAxis()
{
    AxisSpec target =
        typedAxis({"target kind", "targets", "target", "target", "--target-kind",
                   "directory, pipe or null (default: each strategy's own)"},
                  AxisValueKind::Text, &Case::target, &MatrixGroup::targets, namedValues(parseTargetKind), {},
                  [](const StrategyInfo& info) {
                      return info.targets.empty() ? TargetKind::Directory : info.targets.front();
                  });
    target.pickedPerRun = true;
    target.labelText =
        labelPart("target", &Case::target, [](const Case& c) { return c.target != TargetKind::Directory; });
    target.labelRank = 8;
    target.refusals = {{kTargetRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                            return contains(info.targets, c.target)
                                       ? std::string()
                                       : fmt::format("{} writes to a {} target, not to {}", c.strategy,
                                                     targetList(info), toString(c.target));
                        }}};
    return target;
}

AxisSpec hintAxis()
{
    AxisSpec hint = typedAxis(
        {"read hint", "hints", "hint", "hint", "--hint",
         "Reads: normal, sequential, random, noreuse (default: each reader's own)"},
        AxisValueKind::Text, &Case::hint, &MatrixGroup::hints, namedValues(parseReadHint, "n/a"),
        [](const StrategyInfo& info) { return !info.hints.empty(); },
        [](const StrategyInfo& info) { return info.hints.front(); });
    hint.oldFileValue = "n/a"; // results from before reads
    hint.labelText =
        labelPart("hint", &Case::hint, [](const Case& c) { return c.hint != ReadHint::NotApplicable; });
    hint.labelRank = 4;
    hint.editorField = AxisEditorField{
        .label = "Read hint:",
        .tip =
            "What the readers tell the kernel: posix_fadvise / madvise on Linux, FILE_FLAG_SEQUENTIAL_SCAN "
            "/ FILE_FLAG_RANDOM_ACCESS on Windows.",
        .common = {"normal", "sequential", "random", "noreuse"},
        .fieldName = "read hint",
        .noneTakes = "None of %1 takes a read hint.",
        .notTaken = "(readers with a hint only)",
        .summary = "hint %1",
        .summaryRank = 2,
    };
    hint.refusals = {{kReadOnlyOnWrite,
                      [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                          return writes(info) && c.hint != ReadHint::NotApplicable
                                     ? fmt::format("the read hint axis ({}) applies only to reads; {} writes",
                                                   toString(c.hint), c.strategy)
                                     : std::string();
                      }},
                     {kReadAxes + 1, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                          if (!reads(info))
                              return std::string();
                          if (info.hints.empty() && c.hint != ReadHint::NotApplicable)
                              return fmt::format("{} takes no read hint ({}): {}", c.strategy,
                                                 toString(c.hint), info.hintRefusal);
                          if (!info.hints.empty() && !contains(info.hints, c.hint))
                              return fmt::format("{} does not take read hint {}: {}", c.strategy,
                                                 toString(c.hint), info.hintRefusal);
                          return std::string();
                      }}};
    hint.columnHeader = "Hint, cache";
    hint.column = {
        .tip = "Reads: the access hint given to the kernel, and whether the data was evicted from the "
               "cache (cold) or read once beforehand (warm)",
        .rank = kReadColumn,
        .text =
            [](const Case& c) {
                return c.direction == Direction::Write || c.hint == ReadHint::NotApplicable
                           ? std::string()
                           : toString(c.hint);
            },
        .wanted =
            [](const Case& c) {
                return c.direction != Direction::Write;
            }};
    hint.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = hint.column.text};
    return hint;
}

AxisSpec cacheAxis()
{
    AxisSpec cache = typedAxis({"cache state", "caches", "cache", "cache", "--cache",
                                "Reads: cold (evicted before each repetition, the default) or warm"},
                               AxisValueKind::Text, &Case::cache, &MatrixGroup::caches,
                               namedValues(parseCacheState, "n/a"), reads,
                               [](const StrategyInfo&) { return CacheState::Cold; });
    cache.oldFileValue = "n/a";
    cache.labelText =
        labelPart("cache", &Case::cache, [](const Case& c) { return c.cache != CacheState::NotApplicable; });
    cache.labelRank = 5;
    cache.editorField = AxisEditorField{
        .label = "Cache:",
        .tip =
            "cold: the data is evicted from the page cache before every repetition, so reads come from the "
            "device; warm: it is read once first, so reads come from memory.",
        .common = {"cold", "warm"},
        .fieldName = "cache",
        .noneTakes = "None of %1 reads: the cache axis is for readers.",
        .notTaken = "(readers only)",
        .summary = "cache %1",
        .summaryRank = 3,
    };
    cache.refusals = {{kReadOnlyOnWrite + 1,
                       [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                           return writes(info) && c.cache != CacheState::NotApplicable
                                      ? fmt::format("the cache axis ({}) applies only to reads; {} writes",
                                                    toString(c.cache), c.strategy)
                                      : std::string();
                       }},
                      {kReadAxes, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                           return reads(info) && c.cache == CacheState::NotApplicable
                                      ? fmt::format("{} needs a cache state (cold or warm)", c.strategy)
                                      : std::string();
                       }}};
    cache.column = {
        .sharedWith = "hint",
        .text =
            [](const Case& c) { return c.direction == Direction::Write ? std::string() : toString(c.cache); },
        .wanted =
            [](const Case& c) {
                return c.direction != Direction::Write;
            }};
    cache.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = cache.column.text};
    return cache;
}

AxisSpec filesAxis()
{
    AxisSpec files = typedAxis<FileSetSpec>(
        {"file set", "files", "fileSet", "file_set", "--files",
         "File-set readers: COUNTxSIZE, COUNTxMIN-MAX or COUNTx<mix>, e.g. 2000xarticle-2b"},
        AxisValueKind::Text, &Case::fileSet, &MatrixGroup::fileSets,
        {[](const FileSetSpec& f) { return toString(f); }, [](const FileSetSpec& f) { return toString(f); },
         [](std::string_view t, std::string_view) { return parseFileSet(t); }, ""},
        [](const StrategyInfo& info) { return info.layout == DataLayout::FileSet; });
    files.oldFileValue = "";
    files.values = [](const MatrixGroup& g, const StrategyInfo& info) {
        if (info.layout != DataLayout::FileSet)
            return AxisValues{};
        return AxisValues{g.fileSets.size(), [sets = g.fileSets](Case& c, std::size_t i) {
                              c.fileSet = sets[i];
                              c.totalBytes = fileSetBytes(sets[i]);
                          }};
    };
    files.editorStart = {"1000xarticle-2b"};
    files.editorField = AxisEditorField{
        .label = "File sets:",
        .tip = "For files-serial, files-pool and files-per-thread: COUNTxSIZE (2000x4K), COUNTxMIN-MAX "
               "(500x1K-64K) or an article-* size mix measured on real systems (2000xarticle-2b).",
        .common = {"1000x4K", "1000xarticle-2b", "1000xarticle-1k", "1000xarticle-10k",
                   "500xarticle-10k-large"},
        .fieldName = "file set",
        .noneTakes = "None of %1 reads a file set.",
        .notTaken = "(files-serial, files-pool and files-per-thread only)",
        .summary = "%1",
        .summaryRank = 0,
    };
    files.expansionRank = -1;
    files.labelText = labelPart("files", &Case::fileSet, [](const Case& c) { return !c.fileSet.empty(); });
    files.labelRank = 7;
    files.refusals = {
        {kReadOnlyOnWrite + 2,
         [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             return writes(info) && !c.fileSet.empty()
                        ? fmt::format("{} writes; a file set is read by files-serial, files-pool and "
                                      "files-per-thread",
                                      c.strategy)
                        : std::string();
         }},
        {kReadAxes + 2, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             if (!reads(info) || (info.layout == DataLayout::FileSet) == !c.fileSet.empty())
                 return std::string();
             return info.layout == DataLayout::FileSet
                        ? fmt::format("{} reads a generated file set; the case names none", c.strategy)
                        : fmt::format("{} reads one large file per thread; a file set is for files-serial, "
                                      "files-pool and files-per-thread",
                                      c.strategy);
         }}};
    return files;
}

AxisSpec preallocateAxis()
{
    AxisSpec preallocate =
        typedAxis({"preallocation", "preallocate", "preallocate", "preallocate", "--preallocate",
                   "Writes to a file: none (a new file, the default), fallocate (space reserved first), "
                   "overwrite (the file written first, then overwritten) or rewrite (one chunk written "
                   "first, then written again in place by every write, as pg_test_fsync does); untimed"},
                  AxisValueKind::Text, &Case::preallocate, &MatrixGroup::preallocations,
                  namedValues(parsePreallocate), {}, [](const StrategyInfo&) { return Preallocate::None; });
    // Every case has one: readers and pipes take none only, and their refusal says why.
    preallocate.oldFileValue = "none"; // results from before the axis wrote new files
    preallocate.labelText = labelPart("prealloc", &Case::preallocate,
                                      [](const Case& c) { return c.preallocate != Preallocate::None; });
    preallocate.labelRank = 9;
    // In the report's case tables beside the size, so that the same method over a new, a pre-written and a
    // rewritten file reads as three cases.
    preallocate.reportColumn = AxisReportColumn{.sharedWith = "totalBytes", .text = [](const Case& c) {
                                                    return c.preallocate != Preallocate::None
                                                               ? toString(c.preallocate)
                                                               : std::string();
                                                }};
    preallocate.refusals = {
        {kPreallocateRank, [](const Case& c, const StrategyInfo& info, const TargetInfo& t) {
             if (c.preallocate == Preallocate::None)
                 return std::string();
             if (c.target != TargetKind::Directory)
                 return fmt::format("preallocate {} needs a file; a {} target has nothing to "
                                    "preallocate",
                                    toString(c.preallocate), toString(c.target));
             if (c.preallocate == Preallocate::Rewrite && !contains(info.preallocations, c.preallocate) &&
                 contains(info.preallocations, Preallocate::Overwrite))
                 return fmt::format("{} does not take preallocate rewrite: only a writer whose every call "
                                    "puts one chunk at a place of its choosing can write the same place "
                                    "again (write, direct and the sync lab's pwritev2-dsync, "
                                    "sync-file-range and uring-linked-sync)",
                                    c.strategy);
             if (!contains(info.preallocations, c.preallocate))
                 return fmt::format("{} does not take preallocate {}: {}", c.strategy,
                                    toString(c.preallocate), info.preallocateRefusal);
             if (c.preallocate == Preallocate::Fallocate && info.needsFallocate)
                 return fmt::format("{} always reserves its file's space with fallocate (a "
                                    "store into a hole on a full disk would be a crash, not "
                                    "an error): preallocate none already does that",
                                    c.strategy);
             if (c.preallocate == Preallocate::Fallocate && !t.fallocateProblem.empty())
                 return fmt::format("preallocate fallocate: {}", t.fallocateProblem);
             return std::string();
         }}};
    return preallocate;
}

AxisSpec readerCpuAxis()
{
    AxisSpec readerCpu = typedAxis(
        {"reader CPU", "readerCpus", "readerCpu", "reader_cpu", "--reader-cpu",
         "Pipes: where the reader thread runs: any (where the scheduler puts it, the default), same (pinned "
         "to the writer's CPU) or other (writer and reader pinned to two different CPUs)"},
        AxisValueKind::Text, &Case::readerCpu, &MatrixGroup::readerCpus, namedValues(parseReaderCpu),
        [](const StrategyInfo& info) { return contains(info.targets, TargetKind::Pipe); },
        [](const StrategyInfo&) { return ReaderCpu::Any; });
    // Every case has one: only pipes take anything but any, and the refusal says why.
    readerCpu.oldFileValue = "any"; // results from before the axis let the scheduler place the reader
    readerCpu.labelText =
        labelPart("reader", &Case::readerCpu, [](const Case& c) { return c.readerCpu != ReaderCpu::Any; });
    readerCpu.labelRank = 10;
    readerCpu.arrangement = true; // 5 against 1.5 GB/s on one VM for the same pipe-write (issue 14)
    readerCpu.editorField = AxisEditorField{
        .label = "Reader CPU:",
        .tip = "Where the pipe's reader thread runs: any (where the scheduler puts it), same (pinned to the "
               "writer's CPU: the data path's CPU cost alone) or other (pinned to two different CPUs: every "
               "hand-over crosses between CPUs).",
        .common = {"any", "same", "other"},
        .fieldName = "reader CPU",
        .noneTakes = "None of %1 writes into a pipe.",
        .notTaken = "(pipe writers only)",
        .summary = "reader %1",
        .summaryRank = 6,
    };
    readerCpu.refusals = {{kReaderCpuRank, [](const Case& c, const StrategyInfo&, const TargetInfo&) {
                               return c.readerCpu != ReaderCpu::Any && c.target != TargetKind::Pipe
                                          ? fmt::format("reader CPU {} places a pipe's reader thread; a {} "
                                                        "target has none",
                                                        toString(c.readerCpu), toString(c.target))
                                          : std::string();
                           }}};
    readerCpu.columnHeader = "Reader CPU";
    readerCpu.column = {
        .tip =
            "Pipes: where the reader thread ran against the writer: any (where the scheduler put it), same "
            "(one CPU for both) or other (two different CPUs)",
        .rank = kReaderCpuColumn,
        // Shown beside the strategy: it tells apart two rows of one strategy, which at 1366 pixels wide the
        // reader had to scroll right for, past the figures.
        .leading = true,
        .text =
            [](const Case& c) {
                return c.target == TargetKind::Pipe ? toString(c.readerCpu) : std::string();
            },
        .wanted =
            [](const Case& c) {
                return c.target == TargetKind::Pipe;
            }};
    readerCpu.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = [](const Case& c) {
                                                  return c.target == TargetKind::Pipe
                                                             ? fmt::format("reader {}", toString(c.readerCpu))
                                                             : std::string();
                                              }};
    readerCpu.shortText = [](const Case& c) {
        return c.readerCpu != ReaderCpu::Any ? "cpu=" + toString(c.readerCpu) : std::string();
    };
    readerCpu.shortRank = 5;
    return readerCpu;
}

AxisSpec queueDepthAxis()
{
    AxisSpec queueDepth = typedAxis<std::uint32_t>(
        {"queue depth", "queueDepths", "queueDepth", "queue_depth", "--qd",
         "Queued strategies (uring-*, overlapped-*): requests each thread keeps in flight, e.g. 1,4,8,32,128 "
         "(1 to 4096)"},
        AxisValueKind::Count, &Case::queueDepth, &MatrixGroup::queueDepths,
        {[](const std::uint32_t& n) { return std::to_string(n); },
         [](const std::uint32_t& n) { return std::to_string(n); }, parseQueueDepth, std::nullopt},
        [](const StrategyInfo& info) { return info.maxQueueDepth > 0; },
        [](const StrategyInfo&) { return std::uint32_t{1}; });
    queueDepth.oldFileValue = "0"; // results from before queued strategies: every call waited
    queueDepth.labelText = [](const Case& c) {
        return c.queueDepth != 0 ? fmt::format("qd={}", c.queueDepth) : std::string();
    };
    queueDepth.labelRank = 7;
    queueDepth.editorField = AxisEditorField{
        .label = "Queue depth:",
        .tip =
            "Requests each thread of a queued strategy (io_uring, overlapped I/O) keeps in flight: QD1 waits "
            "for each request as write(2) does, QD32 lets the device work on 32 at once.",
        .common = {"1", "4", "8", "32", "128"},
        .fieldName = "queue depth",
        .noneTakes = "None of %1 has a queue: they wait for each call.",
        .notTaken = "(queued strategies only)",
        .summary = "QD %1",
        .summaryRank = 6,
        .check = [](std::string_view t) { (void)parseQueueDepth(t, "queue depth field"); },
    };
    queueDepth.refusals = {
        {kQueueDepthRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             if (info.maxQueueDepth == 0)
                 return c.queueDepth != 0
                            ? fmt::format(
                                  "{} has no queue: it waits for each call, so queue depth {} does not "
                                  "apply (the uring-* and overlapped-* strategies keep requests in "
                                  "flight)",
                                  c.strategy, c.queueDepth)
                            : std::string();
             if (c.queueDepth == 0)
                 return fmt::format("{} needs a queue depth of 1 to {}", c.strategy, info.maxQueueDepth);
             if (c.queueDepth > info.maxQueueDepth)
                 return fmt::format("queue depth {} is above {}'s limit of {}", c.queueDepth, c.strategy,
                                    info.maxQueueDepth);
             return std::string();
         }}};
    queueDepth.columnHeader = "QD";
    queueDepth.column = {
        .tip = "Queue depth: requests each thread of a queued strategy kept in flight",
        .rank = kQueueDepthColumn,
        .alignRight = true,
        .text =
            [](const Case& c) { return c.queueDepth != 0 ? std::to_string(c.queueDepth) : std::string(); },
        .sortValue = [](const Case& c) { return static_cast<double>(c.queueDepth); },
        .wanted =
            [](const Case& c) {
                return c.queueDepth != 0;
            }};
    queueDepth.reportColumn = AxisReportColumn{.header = "QD",
                                               .width = 2.6,
                                               .alignRight = true,
                                               .rank = kQueueDepthColumn,
                                               .text = queueDepth.column.text};
    queueDepth.shortText = [](const Case& c) {
        return c.queueDepth != 0 ? fmt::format("QD{}", c.queueDepth) : std::string();
    };
    queueDepth.shortRank = 4;
    // The heatmap's columns when a run sweeps the queue depth and nothing else.
    queueDepth.chart = {.name = "queue depth", .automaticRank = 15, .value = [](const Case& c) {
                            return c.queueDepth != 0 ? std::optional<std::uint64_t>(c.queueDepth)
                                                     : std::nullopt;
                        }};
    return queueDepth;
}

AxisSpec latencyAxis()
{
    AxisSpec latency = typedAxis(
        {"latency recording", "latencies", "latency", "latency", "--latency",
         "Per-call latency histograms: auto (where a call is a system call or a device operation, the "
         "default), on (also for stdio calls and copies into a mapping: a clock read per call) or off"},
        AxisValueKind::Text, &Case::latency, &MatrixGroup::latencies, namedValues(parseLatencyMode), {},
        [](const StrategyInfo&) { return LatencyMode::Auto; });
    latency.oldFileValue = "off"; // results from before the axis timed no call
    latency.labelText =
        labelPart("latency", &Case::latency, [](const Case& c) { return c.latency != LatencyMode::Auto; });
    latency.labelRank = 11;
    latency.editorField = AxisEditorField{
        .label = "Latency:",
        .tip = "Time every call into a histogram (p50 to p99.99): auto where a call is a system call or a "
               "device operation; on also for stdio calls under 4 KiB and copies into a mapping, where the "
               "clock read costs as much as the call; off never.",
        .common = {"auto", "on", "off"},
        .fieldName = "latency",
        .summary = "latency %1",
        .summaryRank = 8,
    };
    latency.refusals = {{kLatencyRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                             return c.latency == LatencyMode::On && !info.timesCalls
                                        ? fmt::format("{} does not time single calls, so latency on does not "
                                                      "apply{}",
                                                      c.strategy,
                                                      info.layout == DataLayout::FileSet
                                                          ? " (it times each file: see the file p50 and p99)"
                                                          : "")
                                        : std::string();
                         }}};
    latency.columnHeader = "Latency";
    latency.column = {.tip =
                          "Latency recording: auto, on or off (what was recorded is in the latency columns)",
                      .rank = kLatencyColumn,
                      .wanted = [](const Case& c) {
                          return c.latency != LatencyMode::Auto;
                      }};
    // The PDF's case table names only a forced recording: off is what results from before the axis read as.
    latency.reportColumn =
        AxisReportColumn{.sharedWith = "sync", .text = [](const Case& c) {
                             return c.latency == LatencyMode::On ? std::string("latency on") : std::string();
                         }};
    latency.shortText = [](const Case& c) {
        return c.latency == LatencyMode::On ? std::string("lat=on") : std::string();
    };
    latency.shortRank = 6;
    return latency;
}

AxisSpec patternAxis()
{
    AxisSpec pattern = typedAxis(
        {"data pattern", "patterns", "pattern", "pattern", "--pattern",
         "The bytes written (reads: the bytes of the files read): iolab (IOLab's own, never a zero byte; the "
         "default), zeros, random, or compressible:N% (each 4 KiB block N% zeros). A rate that moves between "
         "zeros and random is a compressor's (or a layer's that drops zero blocks), not the disk's; every "
         "pattern "
         "repeats every 256 KiB, so this does not show deduplication of repeated data"},
        AxisValueKind::Text, &Case::pattern, &MatrixGroup::patterns, namedValues(parseDataPattern), {},
        [](const StrategyInfo&) { return DataPattern{}; });
    pattern.oldFileValue = "iolab"; // results from before the axis wrote IOLab's own pattern
    pattern.labelText =
        labelPart("pattern", &Case::pattern, [](const Case& c) { return c.pattern != DataPattern{}; });
    pattern.labelRank = 12;
    pattern.editorField = AxisEditorField{
        .label = "Data pattern:",
        .tip = "The bytes written, and those of the files a read reads: iolab (IOLab's own pattern, never a "
               "zero byte), zeros, random, or compressible:N% (each 4 KiB block N% zeros, as fio's "
               "buffer_compress_percentage). Run zeros beside random to see whether the filesystem or the "
               "device compresses or deduplicates.",
        .common = {"iolab", "zeros", "random", "compressible:50%"},
        .fieldName = "data pattern",
        .summary = "pattern %1",
        .summaryRank = 7,
        .check = [](std::string_view t) { (void)parseDataPattern(t); },
    };
    pattern.refusals = {{kPatternRank, [](const Case& c, const StrategyInfo&, const TargetInfo&) {
                             return c.pattern != DataPattern{} && c.target != TargetKind::Directory
                                        ? fmt::format("pattern {}: the bytes {} writes into a {} reach no "
                                                      "filesystem or device, so no pattern changes them",
                                                      toString(c.pattern), c.strategy, toString(c.target))
                                        : std::string();
                         }}};
    pattern.columnHeader = "Pattern";
    pattern.column = {.tip =
                          "The bytes written (reads: the bytes of the files read): iolab, zeros, random or "
                          "compressible:N%",
                      .rank = kPatternColumn,
                      // Beside the strategy: two rows of one strategy that differ only here are the point.
                      .leading = true,
                      .wanted = [](const Case& c) {
                          return c.pattern != DataPattern{};
                      }};
    pattern.reportColumn =
        AxisReportColumn{.sharedWith = "sync", .text = [](const Case& c) {
                             return c.pattern != DataPattern{} ? toString(c.pattern) : std::string();
                         }};
    pattern.shortText = [](const Case& c) {
        return c.pattern != DataPattern{} ? toString(c.pattern) : std::string();
    };
    pattern.shortRank = 4;
    // A rate of zeros is a compressor's: cases answer apart, each against a baseline of the same bytes.
    pattern.arrangement = true;
    return pattern;
}

AxisSpec timeLimitAxis()
{
    const auto timeLimitText = [](const std::uint64_t& ms) {
        return ms != 0 ? formatTimeLimitMs(ms) : std::string("none");
    };
    // File-set readers go file by file, each opened, read whole and closed: they have no loop to cut short.
    const auto takesTimeLimit = [](const StrategyInfo& info) {
        return info.layout != DataLayout::FileSet;
    };
    AxisSpec timeLimit = typedAxis<std::uint64_t>(
        {"time limit", "timeLimits", "timeLimit", "time_limit", "--duration",
         "A time limit per repetition, e.g. 5s, 300ms, 2m: a case ends at its total size or its time limit, "
         "whichever comes first, and counts what it did by then (fio's runtime=); overrides a preset's time "
         "limits"},
        AxisValueKind::Text, &Case::timeLimitMs, &MatrixGroup::timeLimitsMs,
        {timeLimitText, timeLimitText,
         [](std::string_view t, std::string_view where) {
             return t == "none" ? std::uint64_t{0} : parseTimeLimitMs(t, where);
         },
         "none"},
        takesTimeLimit, [](const StrategyInfo&) { return std::uint64_t{0}; });
    timeLimit.oldFileValue = "none"; // results from before the axis ran each case to its size
    timeLimit.labelText = [](const Case& c) {
        return c.timeLimitMs != 0 ? "limit=" + formatTimeLimitMs(c.timeLimitMs) : std::string();
    };
    timeLimit.labelRank = 8;
    timeLimit.editorField = AxisEditorField{
        .label = "Time limit:",
        .tip = "End each repetition after this long even when it has not written its total size yet, e.g. "
               "5s (fio's runtime=). The total size stays the cap, so set it large enough.",
        .common = {"none", "1s", "5s", "30s"},
        .fieldName = "time limit",
        .noneTakes = "None of %1 can end early: file-set readers read every file of their set.",
        .notTaken = "(not for file-set readers)",
        .summary = "at most %1",
        .summaryRank = 1,
        .check =
            [](std::string_view t) {
                if (t != "none")
                    (void)parseTimeLimitMs(t, "time limit field");
            },
    };
    timeLimit.refusals = {{kTimeLimitRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                               return c.timeLimitMs != 0 && info.layout == DataLayout::FileSet
                                          ? fmt::format("{} reads every file of its set, so a time limit "
                                                        "does not apply",
                                                        c.strategy)
                                          : std::string();
                           }}};
    timeLimit.columnHeader = "Time limit";
    timeLimit.column = {.tip = "The repetition's time limit: it ended there or at its total size, whichever "
                               "came first (the Size column is then a cap, not what was written)",
                        .rank = kTimeLimitColumn,
                        .alignRight = true,
                        .text =
                            [](const Case& c) {
                                return c.timeLimitMs != 0 ? formatTimeLimitMs(c.timeLimitMs) : std::string();
                            },
                        .sortValue = [](const Case& c) { return static_cast<double>(c.timeLimitMs); },
                        .wanted =
                            [](const Case& c) {
                                return c.timeLimitMs != 0;
                            }};
    // In the PDF, beside the size that is then a cap: "256M, 5s".
    timeLimit.reportColumn = AxisReportColumn{.sharedWith = "totalBytes", .text = timeLimit.column.text};
    timeLimit.shortText = [](const Case& c) {
        return c.timeLimitMs != 0 ? formatTimeLimitMs(c.timeLimitMs) : std::string();
    };
    timeLimit.shortRank = 7;
    return timeLimit;
}

AxisSpec memoryLimitAxis()
{
    const auto memoryLimitText = [](const std::uint64_t& bytes) {
        return bytes != 0 ? formatBytesCompact(bytes) : std::string("none");
    };
    const auto memoryLimitParse = [](std::string_view t, std::string_view where) {
        if (t == "none")
            return std::uint64_t{0};
        const std::uint64_t bytes = parseBytes(t, where);
        if (bytes < kMinMemoryLimitBytes)
            throw InputError(fmt::format("{}: a memory limit of {} is below the smallest IOLab sets ({})",
                                         where, formatBytes(bytes), formatBytes(kMinMemoryLimitBytes)));
        return bytes;
    };
    AxisSpec memoryLimit = typedAxis<std::uint64_t>(
        {"memory limit", "memoryLimits", "memoryLimit", "memory_limit", "--memory-limit",
         "A memory cap for the process that writes, e.g. 256M, 1G: the case runs in a child process in a "
         "memory cgroup of its own, whose page cache counts against the cap (Linux; cgroup v2 in a delegated "
         "subtree or as root, v1 as root)"},
        AxisValueKind::Text, &Case::memoryLimitBytes, &MatrixGroup::memoryLimitsBytes,
        {[](const std::uint64_t& v) { return std::to_string(v); }, memoryLimitText,
         [memoryLimitParse](std::string_view t, std::string_view where) {
             return memoryLimitParse(t, where);
         },
         "none"},
        writes, [](const StrategyInfo&) { return std::uint64_t{0}; });
    memoryLimit.oldFileValue = "none"; // results from before the axis ran every case in the runner's process
    memoryLimit.labelText = [](const Case& c) {
        return c.memoryLimitBytes != 0 ? "mem=" + formatBytesCompact(c.memoryLimitBytes) : std::string();
    };
    memoryLimit.labelRank = 9;
    memoryLimit.editorField = AxisEditorField{
        .label = "Memory limit:",
        .tip =
            "Run each write case in a child process whose memory, page cache included, is capped (a memory "
            "cgroup), as article 001 asks: how fast can 4 KiB writes go under 1 GiB? Linux only; it needs "
            "a cgroup subtree you own (cgroup v2, e.g. under systemd-run --user --scope) or root.",
        .common = {"none", "64M", "256M", "1G"},
        .fieldName = "memory limit",
        .noneTakes = "None of %1 writes: a memory limit caps a writer's page cache.",
        .notTaken = "(writes only)",
        .summary = "memory %1",
        .summaryRank = 9,
        .check = [memoryLimitParse](std::string_view t) { (void)memoryLimitParse(t, "memory limit field"); },
    };
    memoryLimit.refusals = {
        {kMemoryLimitRank, [](const Case& c, const StrategyInfo& info, const TargetInfo& where) {
             if (c.memoryLimitBytes == 0)
                 return std::string();
             if (c.direction != Direction::Write || c.target != TargetKind::Directory)
                 return fmt::format("a memory limit applies to writes to files, whose page cache it caps; "
                                    "{} writes to a {}",
                                    c.strategy, toString(c.target));
             if (!where.memoryLimitProblem.empty())
                 return where.memoryLimitProblem;
             if (where.livesInMemory())
                 return fmt::format(
                     "a memory limit caps the page cache a writer fills, but {} keeps its files "
                     "in memory that cannot be written back: the files themselves would count "
                     "against the limit; give a folder on a disk",
                     where.fsType);
             const std::uint64_t needs = memoryLimitNeeds(c, info);
             const std::uint64_t atLeast = (needs + kMiB - 1) / kMiB * kMiB;
             if (c.memoryLimitBytes < needs)
                 return fmt::format("a memory limit of {} is below what the case itself needs, {} (its "
                                    "buffers and mappings for {} thread{}, and {} for the program): set at "
                                    "least {}",
                                    formatBytes(c.memoryLimitBytes), formatBytes(needs), c.threads,
                                    c.threads == 1 ? "" : "s", formatBytes(kChildProgramBytes),
                                    formatBytesCompact(atLeast));
             return std::string();
         }}};
    memoryLimit.columnHeader = "Memory limit";
    memoryLimit.column = {.tip = "The cap on the writing process's memory, its page cache included (a memory "
                                 "cgroup around the child process that ran the case)",
                          .rank = kMemoryLimitColumn,
                          .alignRight = true,
                          .text =
                              [](const Case& c) {
                                  return c.memoryLimitBytes != 0 ? formatBytes(c.memoryLimitBytes)
                                                                 : std::string();
                              },
                          .sortValue = [](const Case& c) { return static_cast<double>(c.memoryLimitBytes); },
                          .wanted =
                              [](const Case& c) {
                                  return c.memoryLimitBytes != 0;
                              }};
    memoryLimit.reportColumn = AxisReportColumn{
        .sharedWith = "totalBytes", .text = [](const Case& c) {
            return c.memoryLimitBytes != 0 ? "mem " + formatBytesCompact(c.memoryLimitBytes) : std::string();
        }};
    memoryLimit.shortText = memoryLimit.labelText;
    memoryLimit.shortRank = 8;
    // Cases under a limit answer apart, each against a baseline under the same limit (the preset's stdio).
    memoryLimit.arrangement = true;
    return memoryLimit;
}

AxisSpec steadyAxis()
{
    AxisSpec steady = typedAxis(
        {"until steady", "untilSteady", "untilSteady", "until_steady", "--until-steady",
         "Write until the rate is steady, or to the size or time limit, whichever comes first, and report "
         "the steady rate and when it came: on (a 10 s window), a window such as 5s, or past-cache[:WINDOW] "
         "(only a steady rate below the fastest stretch ends it: a write runs past a fast cache such as an "
         "SSD's SLC cache; no warm-up, which would fill that cache); off, the default"},
        AxisValueKind::Text, &Case::steady, &MatrixGroup::steadyRules, namedValues(parseSteadyRule), writes,
        [](const StrategyInfo&) { return SteadyRule{}; });
    steady.oldFileValue = "off"; // results from before the axis ran every case to its size or limit
    steady.labelText = [](const Case& c) {
        return c.steady.on() ? "steady=" + toString(c.steady) : std::string();
    };
    steady.labelRank = 10;
    steady.editorField = AxisEditorField{
        .label = "Until steady:",
        .tip = "End each repetition once its write rate has settled (a flat window: its trend and its spread "
               "within 10% of its mean), or at its size or time limit. past-cache runs on until the rate is "
               "steady below the fastest stretch: how much an SSD takes at full speed, and how fast after. "
               "Set the size and time limit as the caps.",
        .common = {"off", "on", "past-cache"},
        .fieldName = "until steady",
        .noneTakes = "None of %1 writes: until steady watches a writer's rate.",
        .notTaken = "(writes only)",
        .summary = "until steady %1",
        .summaryRank = 2,
        .check = [](std::string_view t) { (void)parseSteadyRule(t); },
    };
    steady.refusals = {{kSteadyRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                            if (!c.steady.on())
                                return std::string();
                            if (c.target != TargetKind::Directory)
                                return fmt::format("until steady watches the rate of writes to files; {} "
                                                   "writes to a {}",
                                                   c.strategy, toString(c.target));
                            if (info.id == kReplayStrategy)
                                return std::string("a replay re-issues a program's calls to their end; until "
                                                   "steady ends IOLab's own loops");
                            if (c.memoryLimitBytes != 0)
                                return std::string("a case under a memory limit runs in a child process, "
                                                   "whose rate until steady does not watch; run it without "
                                                   "the limit");
                            if (c.preallocate == Preallocate::Rewrite)
                                return std::string("preallocate rewrite counts every write of one chunk, a "
                                                   "rate of operations, not of bytes reaching the disk");
                            return std::string();
                        }}};
    steady.columnHeader = "Until steady";
    steady.column = {.tip = "The repetition ended once its rate was steady (a window), past a fast cache "
                            "(past-cache), or at its size or time limit",
                     .rank = kSteadyColumn,
                     .text = [](const Case& c) { return c.steady.on() ? toString(c.steady) : std::string(); },
                     .wanted =
                         [](const Case& c) {
                             return c.steady.on();
                         }};
    steady.reportColumn = AxisReportColumn{.sharedWith = "totalBytes", .text = [](const Case& c) {
                                               return c.steady.on() ? "until steady" : std::string();
                                           }};
    steady.shortText = [](const Case& c) {
        return c.steady.on() ? std::string("steady") : std::string();
    };
    steady.shortRank = 9;
    return steady;
}

std::uint32_t parseFreeShare(std::string_view text, std::string_view where)
{
    if (text == "none")
        return 0;
    const std::string prefix = where.empty() ? std::string() : fmt::format("{}: ", where);
    std::uint32_t percent = 0;
    const bool digits = !text.empty() && text.back() == '%' &&
                        std::from_chars(text.data(), text.data() + text.size() - 1, percent).ptr ==
                            text.data() + text.size() - 1;
    if (!digits || percent < 1 || percent > kMaxFreeSharePercent)
        throw InputError(
            fmt::format("{}'{}' is not a share of the free space (use none or 1% to {}%: never all "
                        "of it)",
                        prefix, text, kMaxFreeSharePercent));
    return percent;
}

AxisSpec freeShareAxis()
{
    const auto text = [](const std::uint32_t& p) {
        return p != 0 ? fmt::format("{}%", p) : std::string("none");
    };
    AxisSpec share = typedAxis<std::uint32_t>(
        {"share of free space", "freeSpaceShares", "freeSpaceShare", "free_space_share", "--free-share",
         "Size a write at most this share of the target's free space, e.g. 25% (1% to 50%, never all of it), "
         "settled when the run is planned and shown in the plan; the total size stays a cap"},
        AxisValueKind::Text, &Case::freeSharePercent, &MatrixGroup::freeSharesPercent,
        {text, text, [](std::string_view t, std::string_view where) { return parseFreeShare(t, where); },
         "none"},
        writes, [](const StrategyInfo&) { return std::uint32_t{0}; });
    share.oldFileValue = "none";
    share.labelText = [](const Case& c) {
        return c.freeSharePercent != 0 ? fmt::format("of-free={}%", c.freeSharePercent) : std::string();
    };
    share.labelRank = 3;
    share.editorField = AxisEditorField{
        .label = "Share of free space:",
        .tip = "Size each write at most this share of the target's free space (1% to 50%), settled when the "
               "run is planned: a long write that never fills the disk. The total size stays a cap.",
        .common = {"none", "10%", "25%"},
        .fieldName = "share of free space",
        .noneTakes = "None of %1 writes: only a write is sized by the free space.",
        .notTaken = "(writes only)",
        .summary = "at most %1 of free space",
        .summaryRank = 3,
        .check = [](std::string_view t) { (void)parseFreeShare(t, "share of free space field"); },
    };
    // The share itself is settled against the target's free space when the run is planned (makeRunPlan),
    // which refuses a case it cannot size.
    share.refusals = {{kFreeShareRank, [](const Case& c, const StrategyInfo&, const TargetInfo&) {
                           if (c.freeSharePercent == 0 || c.target == TargetKind::Directory)
                               return std::string();
                           return fmt::format(
                               "a share of free space sizes writes to files; {} writes to a {}", c.strategy,
                               toString(c.target));
                       }}};
    share.columnHeader = "Of free space";
    share.column = {.tip = "The size was capped at this share of the target's free space when the run was "
                           "planned",
                    .rank = kFreeShareColumn,
                    .alignRight = true,
                    .text =
                        [](const Case& c) {
                            return c.freeSharePercent != 0 ? fmt::format("{}%", c.freeSharePercent)
                                                           : std::string();
                        },
                    .wanted =
                        [](const Case& c) {
                            return c.freeSharePercent != 0;
                        }};
    share.reportColumn = AxisReportColumn{.sharedWith = "totalBytes", .text = [](const Case& c) {
                                              return c.freeSharePercent != 0
                                                         ? fmt::format("{}% of free", c.freeSharePercent)
                                                         : std::string();
                                          }};
    share.shortText = [](const Case&) {
        return std::string();
    };
    return share;
}

// The strategies a mix or a hot spot is for, and why the others refuse one: a random reader picks each offset
// on its own over one shared file that holds the data (takesMix), where a random writer visits every chunk of
// its own new file once.
std::string mixRefusal(const Case& c, const StrategyInfo& info, std::string_view what)
{
    if (info.direction == Direction::Write && info.randomOffsets)
        return fmt::format(
            "{} writes every chunk of a new file once, in a shuffled order, so {} does not apply: "
            "the random readers (read-random, uring-random-read, ...) take it over their shared "
            "data file, writing the same bytes back in place",
            c.strategy, what);
    return fmt::format(
        "{} does not apply to {}: it is for the random readers of a shared file (read-random, "
        "read-random-direct, uring-random-read, overlapped-random-read and their -direct forms)",
        what, c.strategy);
}

AxisSpec readPercentAxis()
{
    using Share = std::optional<std::uint32_t>;
    AxisSpec mix = typedAxis<Share>(
        {"read share", "readPercents", "readPercent", "read_percent", "--read-percent",
         "Random readers of a shared file (read-random, uring-random-read, overlapped-random-read and their "
         "-direct forms): the share of requests that read, the rest writing the same bytes back in place, "
         "e.g. 70 (fio's rwmixread; 0 to 100)"},
        AxisValueKind::Text, &Case::readPercent, &MatrixGroup::readPercents,
        {[](const Share& p) { return p ? std::to_string(*p) : std::string("none"); },
         [](const Share& p) { return p ? fmt::format("{}%", *p) : std::string("none"); },
         [](std::string_view t, std::string_view where) -> Share {
             if (t == "none")
                 return std::nullopt; // every request reads
             try {
                 return parseReadPercent(t);
             } catch (const InputError& e) {
                 throw InputError(where.empty() ? std::string(e.what())
                                                : fmt::format("{}: {}", where, e.what()));
             }
         },
         "none"},
        takesMix, [](const StrategyInfo&) { return Share{}; });
    mix.oldFileValue = "none"; // results from before mixes: every request read
    // The editor's rows keep the default implicit (an empty list reads as it), so that a random reader's row
    // groups with the other readers' as a matrix file lists them.
    mix.setDefault = [](MatrixGroup& g, const StrategyInfo&) {
        g.readPercents.clear();
    };
    mix.emptyIsDefault = true;
    mix.labelText = [](const Case& c) {
        return c.readPercent ? fmt::format("read={}%", *c.readPercent) : std::string();
    };
    mix.labelRank = 6;
    mix.editorField = AxisEditorField{
        .label = "Read share:",
        .tip = "A read/write mix in one case, as fio's rwmixread: each request of a random reader reads with "
               "this probability, else writes the same bytes back where they were. Reads and writes are "
               "reported apart (rate, IOPS, latency).",
        .common = {"none", "100%", "70%", "50%", "30%", "0%"},
        .fieldName = "read share",
        .noneTakes = "None of %1 is a random reader of a shared file: only those take a read/write mix.",
        .notTaken = "(random readers only)",
        .summary = "%1 reads",
        .summaryRank = 7,
        .check =
            [](std::string_view t) {
                if (t != "none")
                    (void)parseReadPercent(t);
            },
    };
    mix.refusals = {{kMixRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                         if (!c.readPercent || takesMix(info))
                             return std::string();
                         return mixRefusal(c, info, fmt::format("a read share ({}%)", *c.readPercent));
                     }}};
    mix.columnHeader = "Mix, offsets";
    mix.column = {.tip =
                      "Random readers: the share of requests that read (the rest write the same bytes back), "
                      "and where the offsets land: uniform, or a Zipf or Pareto hot spot",
                  .rank = kMixColumn,
                  .text =
                      [](const Case& c) {
                          return c.readPercent ? fmt::format("{}% read", *c.readPercent) : std::string();
                      },
                  .wanted =
                      [](const Case& c) {
                          return c.readPercent.has_value() || c.randomDist.hotSpot();
                      }};
    mix.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = mix.column.text};
    mix.shortText = [](const Case& c) {
        return c.readPercent ? fmt::format("r{}%", *c.readPercent) : std::string();
    };
    mix.shortRank = 6;
    // Not a way of doing the I/O but the workload it serves: a mix is ranked only against mixes of the same
    // share (the Summary answers each share apart, the heatmap gives it a row of its own).
    mix.arrangement = true;
    return mix;
}

AxisSpec randomDistAxis()
{
    AxisSpec dist = typedAxis<RandomDist>(
        {"random distribution", "randomDists", "randomDist", "random_dist", "--random-dist",
         "Random readers: where the offsets land, uniform (the default), zipf:THETA (e.g. zipf:1.2) or "
         "pareto:H (e.g. pareto:0.9: 90% of requests on 10% of the file), as fio's random_distribution"},
        AxisValueKind::Text, &Case::randomDist, &MatrixGroup::randomDists,
        namedValues(parseRandomDist, "none"), takesMix, [](const StrategyInfo&) {
            return RandomDist{RandomDistKind::Uniform, 0};
        });
    dist.oldFileValue = "none"; // results from before the axis: a random reader's offsets were uniform
    dist.setDefault = [](MatrixGroup& g, const StrategyInfo&) {
        g.randomDists.clear(); // uniform, implicit (see the read share's)
    };
    dist.emptyIsDefault = true;
    dist.labelText = [](const Case& c) {
        return c.randomDist.hotSpot() ? fmt::format("dist={}", toString(c.randomDist)) : std::string();
    };
    dist.labelRank = 6;
    dist.editorField = AxisEditorField{
        .label = "Offsets:",
        .tip =
            "Where a random reader's requests land: uniform over the file, or a hot spot as fio's "
            "random_distribution makes one: zipf:1.2 (rank k drawn in proportion to 1/k^1.2) or pareto:0.9 "
            "(90% of requests on 10% of the file).",
        .common = {"uniform", "zipf:1.2", "pareto:0.9"},
        .fieldName = "offsets",
        .noneTakes = "None of %1 is a random reader of a shared file: only those take a hot spot.",
        .notTaken = "(random readers only)",
        .summary = "offsets %1",
        .summaryRank = 8,
        .check = [](std::string_view t) { (void)parseRandomDist(t); },
    };
    // A random reader whose case names none (built in code, an older file) reads uniformly: not refused.
    dist.refusals = {{kRandomDistRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                          if (takesMix(info) || c.randomDist.kind == RandomDistKind::None)
                              return std::string();
                          return mixRefusal(
                              c, info, fmt::format("a random distribution ({})", toString(c.randomDist)));
                      }}};
    dist.column = {
        .sharedWith = "readPercent",
        .text = [](const Case& c) { return c.randomDist.hotSpot() ? toString(c.randomDist) : std::string(); },
        .wanted =
            [](const Case& c) {
                return c.readPercent.has_value() || c.randomDist.hotSpot();
            }};
    dist.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = dist.column.text};
    dist.shortText = [](const Case& c) {
        return c.randomDist.hotSpot() ? toString(c.randomDist) : std::string();
    };
    dist.shortRank = 6;
    // A hot spot changes what the device and the cache see: ranked only against the same distribution.
    dist.arrangement = true;
    return dist;
}

// io_uring's own options (issue 39): each switched on and off per case, so that a user sees what each buys.
AxisSpec uringAxis()
{
    const auto takes = [](const StrategyInfo& info) {
        return info.takesUringOptions;
    };
    AxisSpec uring = typedAxis(
        {"io_uring options", "uringOptions", "uring", "uring", "--uring",
         "uring-* strategies: io_uring's own options: auto (the file and buffers registered where the kernel "
         "allows, the default), plain (none), or fixedbufs, registerfiles, sqpoll and iopoll joined by '+' "
         "(e.g. fixedbufs+registerfiles); an option named is refused with the reason where the kernel or "
         "the device will not have it, and the result says which were in effect"},
        AxisValueKind::Text, &Case::uring, &MatrixGroup::uringOptions, namedValues(parseUringOptions, "n/a"),
        takes, [](const StrategyInfo&) { return UringOptions::automatic(); });
    // Results from before the axis: the uring-* queues registered the file and the buffers where the kernel
    // allowed, which is auto; every other strategy had no such options.
    uring.oldFileValue = "auto";
    // The editor's rows keep auto implicit (an empty list reads as it), so that a uring-* row groups with the
    // overlapped-* one beside it as the presets list them.
    uring.setDefault = [](MatrixGroup& g, const StrategyInfo&) {
        g.uringOptions.clear();
    };
    uring.emptyIsDefault = true;
    uring.parse = [](Case& c, std::string_view t) {
        c.uring = parseUringOptions(t);
        const StrategyMethod* method = strategyMethod(c.strategy);
        if (t == "auto" && (method == nullptr || method->method != IoMethod::UringQueue))
            c.uring = {}; // an old file's other strategies (the strategy is read first)
    };
    uring.labelText = [](const Case& c) {
        return c.uring.mode == UringOptions::Mode::Explicit ? "uring=" + toString(c.uring) : std::string();
    };
    uring.labelRank = 8;
    uring.editorField = AxisEditorField{
        .label = "io_uring options:",
        .tip = "io_uring's own options for the uring-* strategies: auto registers the file and the buffers "
               "where the kernel allows; plain uses none; fixedbufs (registered buffers), registerfiles (a "
               "registered file), sqpoll (a kernel thread polls the submission queue) and iopoll (polled "
               "completions: O_DIRECT on a device with poll queues) can be joined with '+'.",
        .common = {"auto", "plain", "fixedbufs", "registerfiles", "fixedbufs+registerfiles", "sqpoll",
                   "iopoll"},
        .fieldName = "io_uring options",
        .noneTakes = "None of %1 is a uring-* strategy.",
        .notTaken = "(uring-* only)",
        .summary = "io_uring %1",
        .summaryRank = 6,
        .check = [](std::string_view t) { (void)parseUringOptions(t); },
    };
    uring.refusals = {{kUringRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                           if (!info.takesUringOptions)
                               return c.uring.applies()
                                          ? fmt::format("io_uring options ({}) are for the uring-* queued "
                                                        "strategies; {} does not use io_uring",
                                                        toString(c.uring), c.strategy)
                                          : std::string();
                           if (!c.uring.ioPoll)
                               return std::string();
                           if (!info.needsDirectIo)
                               return fmt::format("iopoll polls the device for the completions of O_DIRECT "
                                                  "requests; {} goes through the page cache (use {}-direct)",
                                                  c.strategy, c.strategy);
                           if (c.sync.mode != SyncMode::None && c.sync.mode != SyncMode::OSync &&
                               c.sync.mode != SyncMode::ODsync)
                               return fmt::format("an iopoll ring takes only reads and writes, so the sync "
                                                  "policy {} (an io_uring fsync) cannot go through it",
                                                  toString(c.sync));
                           return std::string();
                       }}};
    uring.columnHeader = "io_uring";
    uring.column = {
        .tip = "io_uring's own options asked for (the result's uringInEffect says which the "
               "kernel gave): auto, plain, fixedbufs, registerfiles, sqpoll, iopoll",
        .rank = kUringColumn,
        // Beside the strategy: two rows of one strategy that differ only here are the point.
        .leading = true,
        .text = [](const Case& c) { return c.uring.applies() ? toString(c.uring) : std::string(); },
        .wanted =
            [](const Case& c) {
                return c.uring.mode == UringOptions::Mode::Explicit;
            }};
    uring.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = [](const Case& c) {
                                              return c.uring.mode == UringOptions::Mode::Explicit
                                                         ? "uring " + toString(c.uring)
                                                         : std::string();
                                          }};
    uring.shortText = [](const Case& c) {
        return c.uring.mode == UringOptions::Mode::Explicit ? toString(c.uring) : std::string();
    };
    uring.shortRank = 5;
    uring.ownHeatmapRow = true;
    uring.words = [](const Case& c) {
        if (c.uring.mode != UringOptions::Mode::Explicit)
            return std::string();
        const std::string options = toString(c.uring);
        return options == "plain" ? std::string("a plain io_uring ring") : "io_uring's " + options;
    };
    return uring;
}

AxisSpec completeExtraAxis(AxisSpec spec);

// A replay case's trace (iolab-cli run --replay): what it re-issues. A replay's size, chunk and threads are
// its trace's (core/engine/replay_case.h fills them in).
AxisSpec replayAxis()
{
    AxisSpec a;
    a.name = "replayed trace";
    a.matrixKey = "replay";
    a.resultKey = "replay";
    a.csvColumn = "replay";
    a.help = "A trace to replay (iolab-cli record or import made it): its calls re-issued in the run folder, "
             "timed like any case";
    a.appliesTo = [](const StrategyInfo& info) {
        return info.id == kReplayStrategy;
    };
    a.labelText = [](const Case& c) {
        const std::string path = extraAxisValue(c, "replay", std::string());
        const std::size_t slash = path.find_last_of("/\\");
        return "of " + (slash == std::string::npos ? path : path.substr(slash + 1));
    };
    a.labelRank = 5;
    a.refusals.push_back({kExtraRank, [](const Case& c, const StrategyInfo&, const TargetInfo&) {
                              return extraAxisValue(c, "replay", std::string()).empty()
                                         ? std::string("a replay needs a trace: --replay TRACE, or the "
                                                       "matrix's \"replay\" key")
                                         : std::string();
                          }});
    return a;
}

AxisSpec replayTimingAxis()
{
    AxisSpec a;
    a.name = "replay timing";
    a.matrixKey = "replay-timing";
    a.resultKey = "replay_timing";
    a.csvColumn = "replay_timing";
    a.cliFlag = "--replay-timing";
    a.help = "back-to-back (the recorded calls one after another: the default) or as-recorded (the program's "
             "pauses between calls kept)";
    a.appliesTo = [](const StrategyInfo& info) {
        return info.id == kReplayStrategy;
    };
    a.defaultValue = "back-to-back";
    a.canonical = [](std::string_view text) {
        return toString(parseReplayTiming(text));
    };
    a.labelText = [](const Case& c) {
        const std::string timing = extraAxisValue(c, "replay-timing", "back-to-back");
        return timing == "back-to-back" ? std::string() : "timing=" + timing;
    };
    return a;
}

// Another way of making a replay's calls (iolab-cli advise measures them): "recorded" (the program's own, the
// default) or a variant's name (core/model/replay.h).
AxisSpec replayVariantAxis()
{
    AxisSpec a;
    a.name = "replay variant";
    a.matrixKey = "replay-variant";
    a.resultKey = "replay_variant";
    a.csvColumn = "replay_variant";
    a.help = "recorded (the program's own calls: the default) or another way of making them that keeps its "
             "durability:";
    for (VariantKind kind : kVariantKinds)
        if (kind != VariantKind::SyncAtClose)
            a.help += " " +
                      (kind == VariantKind::StdioBuffer ? std::string("stdio-buffer-SIZE")
                                                        : ReplayVariant{kind, 0}.name()) +
                      ",";
    a.help.back() = ';';
    a.help += " sync-at-close is weaker";
    a.appliesTo = [](const StrategyInfo& info) {
        return info.id == kReplayStrategy;
    };
    a.defaultValue = std::string(kRecordedCalls);
    a.canonical = [](std::string_view text) {
        return text == kRecordedCalls ? std::string(kRecordedCalls) : parseReplayVariant(text).name();
    };
    a.labelText = [](const Case& c) {
        const std::string variant = extraAxisValue(c, "replay-variant", std::string(kRecordedCalls));
        return variant == kRecordedCalls ? std::string() : "as " + variant;
    };
    // The way beside the strategy in the tables ("replay, coalesce") and in the charts' short names: a run of
    // a program's ways has one strategy, and the ways are what tell its rows apart.
    const auto way = [](const Case& c) {
        const std::string variant = extraAxisValue(c, "replay-variant", std::string(kRecordedCalls));
        return variant == kRecordedCalls ? std::string() : variant;
    };
    a.column = {.tip =
                    "The way the recorded program's calls were made: its own (the strategy alone) or another "
                    "way that keeps its durability",
                .sharedWith = "strategy",
                .text = way};
    a.reportColumn = AxisReportColumn{.sharedWith = "strategy", .text = way};
    a.shortText = way;
    a.shortRank = 1;
    return a;
}

// The pipe's reader and the writer's buffers (issue 39's pipe frontier), stored in Case::extraAxes: who reads
// the pipe (a thread of the writer's process, or a process of its own as `yes | pv` has), how it waits for
// data (blocking in the call, or spinning on a non-blocking one), and the pages the writer hands the pipe.
bool writesAPipe(const StrategyInfo& info)
{
    return contains(info.targets, TargetKind::Pipe);
}

// What the three pipe axes share: keys, spellings (the first the default), a label "PREFIX=value" and the
// value in the Reader CPU column, the report's sync column and the short names whenever it is not the
// default.
struct PipeChoice
{
    const char* name;
    const char* matrixKey;
    const char* resultKey;
    const char* csvColumn;
    const char* cliFlag;
    std::initializer_list<std::string_view> values;
    const char* labelPrefix;
    int labelRank;
    int shortRank;
};

AxisSpec pipeChoiceAxis(const PipeChoice& p)
{
    AxisSpec a;
    a.name = p.name;
    a.matrixKey = p.matrixKey;
    a.resultKey = p.resultKey;
    a.csvColumn = p.csvColumn;
    a.cliFlag = p.cliFlag;
    a.appliesTo = writesAPipe;
    const std::string fallback(*p.values.begin());
    a.defaultValue = fallback;
    a.canonical = [name = std::string(p.name),
                   values = std::vector<std::string_view>(p.values)](std::string_view text) {
        for (const std::string_view v : values)
            if (text == v)
                return std::string(v);
        std::string spellings;
        for (const std::string_view v : values)
            spellings += fmt::format("{}{}", spellings.empty() ? "" : ", ", v);
        throw InputError(fmt::format("unknown {} '{}' (use {})", name, text, spellings));
    };
    const auto chosen = [key = std::string(p.matrixKey), fallback](const Case& c) {
        const std::string value = extraAxisValue(c, key, fallback);
        return value == fallback ? std::string() : value;
    };
    a.labelText = [chosen, prefix = std::string(p.labelPrefix)](const Case& c) {
        const std::string value = chosen(c);
        return value.empty() ? value : prefix + "=" + value;
    };
    a.labelRank = p.labelRank;
    a.column = {.sharedWith = "readerCpu", .text = chosen, .wanted = [](const Case& c) {
                    return c.target == TargetKind::Pipe;
                }};
    a.reportColumn = AxisReportColumn{.sharedWith = "sync", .text = chosen};
    a.shortText = chosen;
    a.shortRank = p.shortRank;
    return a;
}

AxisSpec readerKindAxis()
{
    AxisSpec a = pipeChoiceAxis({.name = "reader kind",
                                 .matrixKey = "readerKinds",
                                 .resultKey = "readerKind",
                                 .csvColumn = "reader_kind",
                                 .cliFlag = "--reader",
                                 .values = {"thread", "process"},
                                 .labelPrefix = "reader-kind",
                                 .labelRank = 11,
                                 .shortRank = 6});
    a.help = "Pipes: who reads the pipe: thread (a thread of IOLab's process, the default) or process (a "
             "process of its own, forked, as the reader of `yes | pv` is)";
    a.arrangement = true; // the reader's own address space and file table, its own wake-ups
    const auto process = [](const Case& c) {
        return extraAxisValue(c, "readerKinds", "thread") == "process";
    };
    a.refusals = {{kReaderCpuRank, [process](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                       return process(c) && !info.readerProcessRefusal.empty()
                                  ? fmt::format("reader process: {}", info.readerProcessRefusal)
                                  : std::string();
                   }}};
    a.column.tip = "Pipes: whether the reader was a thread of IOLab's process or a process of its own";
    a.reportColumn->text = [process](const Case& c) {
        return process(c) ? std::string("reader process") : std::string();
    };
    a.shortText = [process](const Case& c) {
        return process(c) ? std::string("proc") : std::string();
    };
    return a;
}

AxisSpec readerWaitAxis()
{
    AxisSpec a = pipeChoiceAxis({.name = "reader wait",
                                 .matrixKey = "readerWaits",
                                 .resultKey = "readerWait",
                                 .csvColumn = "reader_wait",
                                 .cliFlag = "--reader-wait",
                                 .values = {"block", "spin"},
                                 .labelPrefix = "wait",
                                 .labelRank = 12,
                                 .shortRank = 7});
    a.help = "Pipes: how the reader waits for data: block (asleep in its read or splice until the writer "
             "wakes it, the default) or spin (busy-polling: non-blocking calls retried at once, a CPU kept "
             "busy; refused with --reader-cpu same)";
    a.refusals = {{kReaderCpuRank, [](const Case& c, const StrategyInfo& info, const TargetInfo&) {
                       if (extraAxisValue(c, "readerWaits", "block") != "spin")
                           return std::string();
                       if (!info.readerSpinRefusal.empty())
                           return fmt::format("reader wait spin: {}", info.readerSpinRefusal);
                       if (c.readerCpu == ReaderCpu::Same)
                           return std::string(
                               "reader wait spin busy-polls a CPU: on the writer's CPU (reader CPU same) the "
                               "spinning reader takes the time the writer needs to fill the pipe, so the "
                               "figure would measure the scheduler's time slice; use reader CPU other (or "
                               "any)");
                       return std::string();
                   }}};
    a.column.tip = "Pipes: whether the reader slept until data came (block) or busy-polled (spin)";
    a.ownHeatmapRow = true;
    return a;
}

AxisSpec pipePagesAxis()
{
    AxisSpec a = pipeChoiceAxis({.name = "pipe pages",
                                 .matrixKey = "pipePages",
                                 .resultKey = "pipePages",
                                 .csvColumn = "pipe_pages",
                                 .cliFlag = "--pipe-pages",
                                 .values = {"normal", "thp", "hugetlb"},
                                 .labelPrefix = "pages",
                                 .labelRank = 13,
                                 .shortRank = 8});
    a.help = "vmsplice: the pages of the buffers the writer hands the pipe: normal (the default), thp "
             "(transparent huge pages: a 2 MiB-aligned buffer with madvise(MADV_HUGEPAGE), refused when the "
             "kernel gives none) or hugetlb (MAP_HUGETLB, refused when too few huge pages are reserved)";
    a.appliesTo = [](const StrategyInfo& info) {
        return info.ownsPipePages;
    };
    a.column.tip = "vmsplice: the pages of the writer's buffers: normal, thp (transparent huge pages) or "
                   "hugetlb";
    a.ownHeatmapRow = true;
    a.words = [](const Case& c) {
        const std::string pages = extraAxisValue(c, "pipePages", "normal");
        return pages == "normal" ? std::string() : fmt::format("huge pages ({})", pages);
    };
    return a;
}

// The built-in axes, each declared by its function above, in the order caseAxes() lists them.
std::vector<AxisSpec> builtinAxes()
{
    std::vector<AxisSpec> axes;
    axes.push_back(strategyAxis());
    axes.push_back(directionAxis());
    axes.push_back(chunkAxis());
    axes.push_back(sizeAxis());
    axes.push_back(bufferAxis());
    axes.push_back(syncAxis());
    axes.push_back(threadsAxis());
    axes.push_back(targetAxis());
    axes.push_back(hintAxis());
    axes.push_back(cacheAxis());
    axes.push_back(filesAxis());
    axes.push_back(preallocateAxis());
    axes.push_back(readerCpuAxis());
    axes.push_back(queueDepthAxis());
    axes.push_back(latencyAxis());
    axes.push_back(patternAxis());
    axes.push_back(timeLimitAxis());
    axes.push_back(memoryLimitAxis());
    axes.push_back(steadyAxis());
    axes.push_back(freeShareAxis());
    axes.push_back(readPercentAxis());
    axes.push_back(randomDistAxis());
    axes.push_back(uringAxis());
    axes.push_back(completeExtraAxis(replayAxis()));
    axes.push_back(completeExtraAxis(replayTimingAxis()));
    axes.push_back(completeExtraAxis(replayVariantAxis()));
    // The editor's rows keep the pipe axes' defaults implicit (an empty list reads as them), so that a
    // pipe-write row groups with the vmsplice one beside it (which alone takes pipe pages) as the presets
    // list them.
    for (AxisSpec a : {readerKindAxis(), readerWaitAxis(), pipePagesAxis()}) {
        a = completeExtraAxis(std::move(a));
        a.setDefault = [key = a.matrixKey](MatrixGroup& g, const StrategyInfo&) {
            g.extraAxes.erase(key);
        };
        a.emptyIsDefault = true;
        axes.push_back(std::move(a));
    }
    return axes;
}

// The table and the orders derived from it, rebuilt whenever an axis is declared or removed.
struct AxisTable
{
    std::vector<AxisSpec> axes = builtinAxes();
    std::vector<const AxisSpec*> expansionOrder;
    std::vector<const AxisSpec*> labelOrder;
    std::vector<const AxisRefusal*> refusalOrder;
    std::vector<std::vector<const AxisSpec*>> columns;
    std::vector<CaseTableColumn> caseTable;
    std::vector<const AxisSpec*> shortNameOrder;
    std::vector<const AxisSpec*> numeric;
    std::vector<const AxisSpec*> automaticChart;
    std::vector<const AxisSpec*> arrangement;

    AxisTable() { reorder(); }

    void reorder()
    {
        expansionOrder.clear();
        labelOrder.clear();
        refusalOrder.clear();
        for (const auto& a : axes) {
            if (a.values)
                expansionOrder.push_back(&a);
            if (a.labelText)
                labelOrder.push_back(&a);
            for (const auto& rule : a.refusals)
                refusalOrder.push_back(&rule);
        }
        std::stable_sort(
            expansionOrder.begin(), expansionOrder.end(),
            [](const AxisSpec* x, const AxisSpec* y) { return x->expansionRank < y->expansionRank; });
        std::stable_sort(labelOrder.begin(), labelOrder.end(),
                         [](const AxisSpec* x, const AxisSpec* y) { return x->labelRank < y->labelRank; });
        std::stable_sort(refusalOrder.begin(), refusalOrder.end(),
                         [](const AxisRefusal* x, const AxisRefusal* y) { return x->rank < y->rank; });
        columns.clear();
        for (const auto& a : axes) {
            if (!a.columnHeader.empty())
                columns.push_back({&a});
        }
        std::stable_sort(columns.begin(), columns.end(), [](const auto& x, const auto& y) {
            return x.front()->column.rank < y.front()->column.rank;
        });
        for (const auto& a : axes) {
            if (a.column.sharedWith.empty())
                continue;
            const auto owner = std::find_if(columns.begin(), columns.end(), [&a](const auto& c) {
                return c.front()->resultKey == a.column.sharedWith;
            });
            if (owner == columns.end())
                throw std::logic_error("axis '" + a.name + "' shares the column of '" + a.column.sharedWith +
                                       "', which has none");
            owner->push_back(&a);
        }
        reorderReport();
    }

    // The PDF's case table and short names.
    void reorderReport()
    {
        struct Resolved
        {
            const AxisSpec* axis;
            AxisReportColumn column;
        };
        std::vector<Resolved> resolved;
        for (const auto& a : axes) {
            if (a.reportColumn) {
                resolved.push_back({&a, *a.reportColumn});
                continue;
            }
            if (a.columnHeader.empty() && a.column.sharedWith.empty())
                continue;
            resolved.push_back({&a, AxisReportColumn{.header = a.columnHeader,
                                                     .alignRight = a.column.alignRight,
                                                     .rank = a.column.rank,
                                                     .sharedWith = a.column.sharedWith}});
        }
        std::vector<Resolved> owners;
        for (const auto& r : resolved) {
            if (!r.column.header.empty())
                owners.push_back(r);
        }
        std::stable_sort(owners.begin(), owners.end(),
                         [](const Resolved& x, const Resolved& y) { return x.column.rank < y.column.rank; });
        const auto textOf = [](const Resolved& r) -> std::function<std::string(const Case&)> {
            if (r.column.text)
                return r.column.text;
            if (r.axis->column.text)
                return r.axis->column.text;
            return r.axis->format;
        };
        caseTable.clear();
        for (const auto& owner : owners) {
            CaseTableColumn column{
                owner.column.header, owner.column.width, owner.column.alignRight, {textOf(owner)}};
            for (const auto& r : resolved) {
                if (!r.column.sharedWith.empty() && r.column.sharedWith == owner.axis->resultKey)
                    column.parts.push_back(textOf(r));
            }
            caseTable.push_back(std::move(column));
        }
        for (const auto& r : resolved) {
            const bool shared = std::any_of(owners.begin(), owners.end(), [&r](const Resolved& o) {
                return o.axis->resultKey == r.column.sharedWith;
            });
            if (!r.column.sharedWith.empty() && !shared)
                throw std::logic_error("axis '" + r.axis->name + "' shares the case table column of '" +
                                       r.column.sharedWith + "', which has none");
        }
        shortNameOrder.clear();
        for (const auto& a : axes) {
            if (a.shortText)
                shortNameOrder.push_back(&a);
        }
        std::stable_sort(shortNameOrder.begin(), shortNameOrder.end(),
                         [](const AxisSpec* x, const AxisSpec* y) { return x->shortRank < y->shortRank; });
        arrangement.clear();
        for (const auto& a : axes) {
            if (a.arrangement)
                arrangement.push_back(&a);
        }
        reorderCharts();
    }

    // The axes the charts can take as their columns.
    void reorderCharts()
    {
        numeric.clear();
        automaticChart.clear();
        for (const auto& a : axes) {
            if (!a.numeric())
                continue;
            numeric.push_back(&a);
            if (a.chart.automaticRank)
                automaticChart.push_back(&a);
        }
        std::stable_sort(numeric.begin(), numeric.end(), [](const AxisSpec* x, const AxisSpec* y) {
            return x->column.rank < y->column.rank;
        });
        std::stable_sort(automaticChart.begin(), automaticChart.end(),
                         [](const AxisSpec* x, const AxisSpec* y) {
                             return *x->chart.automaticRank < *y->chart.automaticRank;
                         });
    }
};

AxisTable& table()
{
    static AxisTable t;
    return t;
}

} // namespace

const std::vector<AxisSpec>& caseAxes()
{
    return table().axes;
}

const std::vector<const AxisSpec*>& axesInExpansionOrder()
{
    return table().expansionOrder;
}

const std::vector<const AxisSpec*>& axesInLabelOrder()
{
    return table().labelOrder;
}

const std::vector<const AxisRefusal*>& refusalRulesInOrder()
{
    return table().refusalOrder;
}

const std::vector<std::vector<const AxisSpec*>>& axisColumnsInOrder()
{
    return table().columns;
}

std::string CaseTableColumn::text(const Case& c) const
{
    std::string out;
    for (const auto& part : parts) {
        const std::string t = part(c);
        if (!t.empty())
            out += out.empty() ? t : ", " + t;
    }
    return out;
}

const std::vector<CaseTableColumn>& caseTableColumns()
{
    return table().caseTable;
}

const std::vector<const AxisSpec*>& axesInShortNameOrder()
{
    return table().shortNameOrder;
}

const std::vector<const AxisSpec*>& numericAxes()
{
    return table().numeric;
}

const std::vector<const AxisSpec*>& automaticChartAxes()
{
    return table().automaticChart;
}

const std::vector<const AxisSpec*>& arrangementAxes()
{
    return table().arrangement;
}

bool sameArrangement(const Case& a, const Case& b)
{
    for (const AxisSpec* axis : arrangementAxes()) {
        if (axis->same ? !axis->same(a, b) : axis->format(a) != axis->format(b))
            return false;
    }
    return true;
}

std::string arrangementText(const Case& c)
{
    std::string out;
    for (const AxisSpec* axis : arrangementAxes()) {
        const std::string part = axis->shortText ? axis->shortText(c) : axis->format(c);
        if (!part.empty())
            out += (out.empty() ? "" : " ") + part;
    }
    return out;
}

std::optional<std::uint64_t> numericValue(const AxisSpec& axis, const Case& c)
{
    if (axis.chart.value)
        return axis.chart.value(c);
    if (!axis.numeric())
        return std::nullopt;
    const std::string text = axis.format(c);
    if (text.empty())
        return std::nullopt;
    try {
        if (axis.kind == AxisValueKind::Bytes)
            return parseBytes(text, axis.name);
        std::size_t used = 0;
        const std::uint64_t n = std::stoull(text, &used);
        return used == text.size() ? std::optional<std::uint64_t>(n) : std::nullopt;
    } catch (const std::exception&) { // InputError, or no number at all
        return std::nullopt;
    }
}

const std::string& chartName(const AxisSpec& axis)
{
    return axis.chart.name.empty() ? axis.name : axis.chart.name;
}

namespace {

// An axis stored in Case::extraAxes, its functions filled in (declareExtraAxis, and the built-in replay
// axes).
AxisSpec completeExtraAxis(AxisSpec spec)
{
    if (!spec.appliesTo)
        throw std::logic_error("an extra axis must say which strategies take it");
    spec.isExtra = true;
    const std::string key = spec.matrixKey;
    // Values live in the extra maps under the matrix key, in their canonical spelling.
    const auto canonical = [check = spec.canonical](std::string_view t) {
        return check ? check(t) : std::string(t);
    };
    if (!spec.format) // "" when the case carries no value (a strategy that does not take the axis)
        spec.format = [key](const Case& c) {
            return extraAxisValue(c, key, std::string());
        };
    spec.parse = [key, canonical](Case& c, std::string_view t) {
        c.extraAxes[key] = canonical(t);
    };
    spec.groupValues = [key](const MatrixGroup& g) {
        const auto it = g.extraAxes.find(key);
        return it == g.extraAxes.end() ? std::vector<std::string>{} : it->second;
    };
    spec.addGroupValue = [key, canonical](MatrixGroup& g, std::string_view t, std::string_view where) {
        try {
            g.extraAxes[key].push_back(canonical(t));
        } catch (const InputError& e) {
            if (where.empty())
                throw;
            throw InputError(fmt::format("{}: {}", where, e.what()));
        }
    };
    // The group's values, else the default for a strategy that takes the axis, else none.
    spec.values = [key, appliesTo = spec.appliesTo, fallback = spec.defaultValue](const MatrixGroup& g,
                                                                                  const StrategyInfo& info) {
        std::vector<std::string> values;
        if (const auto it = g.extraAxes.find(key); it != g.extraAxes.end() && !it->second.empty())
            values = it->second;
        else if (appliesTo(info))
            values = {fallback};
        if (values.empty())
            return AxisValues{};
        return AxisValues{values.size(), [key, values](Case& c, std::size_t i) {
                              c.extraAxes[key] = values[i];
                          }};
    };
    const bool numeric = spec.kind != AxisValueKind::Text;
    spec.mergeValues = [key, numeric](MatrixGroup& to, const MatrixGroup& from) {
        const auto it = from.extraAxes.find(key);
        if (it == from.extraAxes.end() || it->second.empty())
            return;
        auto& into = to.extraAxes[key];
        const auto less = [numeric](const std::string& x, const std::string& y) {
            return numeric && x.size() != y.size() ? x.size() < y.size() : x < y; // canonical: no leading 0
        };
        for (const auto& v : it->second) {
            const auto at = std::lower_bound(into.begin(), into.end(), v, less);
            if (at == into.end() || *at != v)
                into.insert(at, v);
        }
    };
    spec.clearValues = [key](MatrixGroup& g) {
        g.extraAxes.erase(key);
    };
    spec.setDefault = [key, appliesTo = spec.appliesTo,
                       fallback = spec.defaultValue](MatrixGroup& g, const StrategyInfo& info) {
        g.extraAxes.erase(key);
        if (appliesTo(info))
            g.extraAxes[key] = {fallback};
    };
    // Only a case that carries a value is refused for it; first because its strategy takes no such axis.
    std::vector<AxisRefusal> rules{
        {kExtraRank, [key, appliesTo = spec.appliesTo,
                      name = spec.name](const Case& c, const StrategyInfo& info, const TargetInfo&) {
             const auto it = c.extraAxes.find(key);
             return it != c.extraAxes.end() && !appliesTo(info)
                        ? fmt::format("{} takes no {} ({})", c.strategy, name, it->second)
                        : std::string();
         }}};
    for (auto& rule : spec.refusals)
        rules.push_back({rule.rank, [key, reason = std::move(rule.reason)](
                                        const Case& c, const StrategyInfo& info, const TargetInfo& target) {
                             return c.extraAxes.contains(key) ? reason(c, info, target) : std::string();
                         }});
    spec.refusals = std::move(rules);
    const auto label = spec.labelText;
    spec.labelText = [key, label](const Case& c) {
        const auto it = c.extraAxes.find(key);
        if (it == c.extraAxes.end())
            return std::string();
        return label ? label(c) : fmt::format("{}={}", key, it->second);
    };
    if (!spec.shortText) // a short name shows what the label shows
        spec.shortText = spec.labelText;
    return spec;
}

} // namespace

void declareExtraAxis(AxisSpec spec)
{
    for (const auto& a : caseAxes()) {
        if ((!spec.matrixKey.empty() && a.matrixKey == spec.matrixKey) || a.resultKey == spec.resultKey ||
            a.csvColumn == spec.csvColumn || (!spec.cliFlag.empty() && a.cliFlag == spec.cliFlag))
            throw std::logic_error(fmt::format("axis '{}' repeats a key of axis '{}'", spec.name, a.name));
    }
    auto& t = table();
    t.axes.push_back(completeExtraAxis(std::move(spec)));
    try {
        t.reorder();
    } catch (const std::logic_error&) { // a column shared with an axis that has none
        t.axes.pop_back();
        t.reorder();
        throw;
    }
}

void removeExtraAxis(std::string_view matrixKey)
{
    auto& t = table();
    t.axes.erase(
        std::remove_if(t.axes.begin(), t.axes.end(),
                       [matrixKey](const AxisSpec& a) { return a.extra() && a.matrixKey == matrixKey; }),
        t.axes.end());
    t.reorder();
}

const AxisSpec* findAxisByMatrixKey(std::string_view key)
{
    for (const auto& a : caseAxes())
        if (!a.matrixKey.empty() && a.matrixKey == key)
            return &a;
    return nullptr;
}

const AxisSpec* findAxisByResultKey(std::string_view key)
{
    for (const auto& a : caseAxes())
        if (a.resultKey == key)
            return &a;
    return nullptr;
}

std::string extraAxisValue(const Case& c, const std::string& key, const std::string& fallback)
{
    const auto it = c.extraAxes.find(key);
    return it == c.extraAxes.end() ? fallback : it->second;
}

} // namespace iolab
