// SPDX-License-Identifier: MIT
#include "core/analysis/sync_lab.h"

#include "core/analysis/findings.h"
#include "core/analysis/verdict.h"
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace iolab {

namespace {

constexpr std::uint64_t kPgBlock = 8 * kKiB;          // pg_test_fsync's XLOG_BLCKSZ
constexpr std::uint64_t kOpenSyncOpBytes = 16 * kKiB; // its open_sync sizes each write 16 KiB per op
constexpr std::size_t kPgLabelWidth = 30;             // its LABEL_FORMAT, "        %-30s"
constexpr std::size_t kSummaryWidth = 100;            // the Summary's width (verdictLines)
constexpr std::uint64_t kP99MinCalls = 100;           // a 99th percentile with at least one call above it

const StrategyInfo* infoOf(const Registry* registry, const std::string& id)
{
    const Strategy* s = registry != nullptr ? registry->find(id) : nullptr;
    return s != nullptr ? &s->info() : nullptr;
}

// A size pg_test_fsync's open_sync comparison writes 16 KiB in (1, 2, 4, 8 or 16 KiB), other than its 8 KiB.
bool openSyncSize(std::uint64_t chunkBytes)
{
    return chunkBytes != kPgBlock && chunkBytes <= kOpenSyncOpBytes && kOpenSyncOpBytes % chunkBytes == 0;
}

// The sync-lab method the case's strategy stands for (core/model/strategy_methods.h).
SyncLabMethod labMethod(const Case& c)
{
    const StrategyMethod* method = strategyMethod(c.strategy);
    return method != nullptr ? method->syncLab : SyncLabMethod::None;
}

// The open_sync size rows: direct with O_SYNC at one of those sizes.
bool openSyncSizeRow(const Case& c)
{
    return labMethod(c) == SyncLabMethod::DirectWrite && c.sync.mode == SyncMode::OSync &&
           openSyncSize(c.chunkBytes);
}

// A case pg_test_fsync's names fit: one thread writing IOLab's own bytes, into a file it rewrites, overwrites
// or appends to (not into space reserved with fallocate, which none of its names says).
bool pgLike(const Case& c)
{
    return c.threads == 1 && c.pattern == DataPattern{} && c.preallocate != Preallocate::Fallocate;
}

// A method's writes in words, without its file: "fdatasync after each 8 KiB write", "8 KiB O_DIRECT writes
// with O_DSYNC", "fdatasync after every 4 writes of 8 KiB", "sync_file_range after each 8 KiB write (not
// durable)"; then its threads and bytes where they are not the default.
std::string writesInWords(const Case& c)
{
    const std::string size = formatBytes(c.chunkBytes);
    const SyncLabMethod method = labMethod(c);
    std::string kind;
    switch (method) {
    case SyncLabMethod::DirectWrite:
        kind = "O_DIRECT write";
        break;
    case SyncLabMethod::Pwritev2Dsync:
        kind = "pwritev2 write";
        break;
    case SyncLabMethod::UringLinkedSync:
        kind = "io_uring write";
        break;
    case SyncLabMethod::Write:
    case SyncLabMethod::SyncFileRange:
        kind = "write";
        break;
    case SyncLabMethod::None:
        kind = fmt::format("{} write", c.strategy);
        break;
    }
    const std::uint32_t every = c.sync.loopSyncEvery();
    std::string words;
    if (method == SyncLabMethod::SyncFileRange) {
        words = fmt::format("sync_file_range after each {} {} (not durable)", size, kind);
    } else if (method == SyncLabMethod::UringLinkedSync) {
        words = every <= 1 ? fmt::format("{} linked to each {} {}", syncCallName(c.sync.mode), size, kind)
                           : fmt::format("{} linked to every {}th {} of {}", syncCallName(c.sync.mode), every,
                                         kind, size);
    } else if (method == SyncLabMethod::Pwritev2Dsync) {
        words = fmt::format("{} {}s with RWF_DSYNC", size, kind);
    } else if (every == 1) {
        words = fmt::format("{} after each {} {}", syncCallName(c.sync.mode), size, kind);
    } else if (every > 1) {
        words = fmt::format("{} after every {} {}s of {}", syncCallName(c.sync.mode), every, kind, size);
    } else {
        switch (c.sync.mode) {
        case SyncMode::OSync:
        case SyncMode::ODsync:
            words = fmt::format("{} {}s with {}", size, kind, toString(c.sync));
            break;
        case SyncMode::FsyncEnd:
        case SyncMode::FdatasyncEnd:
            words = fmt::format("{} {}s, {} only at the end", size, kind, syncCallName(c.sync.mode));
            break;
        default:
            words = fmt::format("{} {}s, no sync", size, kind);
            break;
        }
    }
    if (c.threads > 1)
        words += fmt::format(", {} threads", c.threads);
    if (c.pattern != DataPattern{})
        words += ", " + patternWords(c.pattern);
    return words;
}

// How a method's writes meet its file, in words.
std::string fileInWords(const Case& c)
{
    switch (c.preallocate) {
    case Preallocate::None:
        return "appending";
    case Preallocate::Fallocate:
        return "into space reserved first (fallocate)";
    case Preallocate::Overwrite:
        return "overwriting a pre-written file";
    case Preallocate::Rewrite:
        return "rewriting one block";
    }
    return "";
}

// pg_test_fsync's name where it has one ("fdatasync", "open_datasync", " 4 *  4kB open_sync writes"), IOLab's
// short one for its own methods ("pwritev2 RWF_DSYNC"); else the writes in words.
std::string methodName(const Case& c)
{
    if (!pgLike(c))
        return writesInWords(c);
    const bool every1 = c.sync.loopSyncEvery() == 1;
    const bool pgBlock = c.chunkBytes == kPgBlock;
    const SyncLabMethod method = labMethod(c);
    const bool write = method == SyncLabMethod::Write;
    const bool direct = method == SyncLabMethod::DirectWrite;
    if (write && c.sync.mode == SyncMode::None && pgBlock)
        return "write";
    if (write && every1 && pgBlock)
        return syncCallName(c.sync.mode);
    if (direct && c.sync.mode == SyncMode::ODsync && pgBlock)
        return "open_datasync";
    if (direct && c.sync.mode == SyncMode::OSync && pgBlock)
        return "open_sync";
    if (direct && c.sync.mode == SyncMode::ODsync && openSyncSize(c.chunkBytes))
        return fmt::format("open_datasync, {} writes", formatBytesCompact(c.chunkBytes));
    if (openSyncSizeRow(c)) {
        const std::uint64_t writes = kOpenSyncOpBytes / c.chunkBytes;
        return fmt::format("{:>2} * {:>2}kB open_sync write{}", writes, c.chunkBytes / kKiB,
                           writes > 1 ? "s" : "");
    }
    if (method == SyncLabMethod::Pwritev2Dsync && pgBlock)
        return "pwritev2 RWF_DSYNC";
    if (method == SyncLabMethod::UringLinkedSync && pgBlock)
        return fmt::format("io_uring write + linked {}{}", syncCallName(c.sync.mode),
                           every1 ? "" : fmt::format(" every {}", c.sync.everyWrites));
    if (method == SyncLabMethod::SyncFileRange && pgBlock)
        return "sync_file_range (not durable)";
    return writesInWords(c);
}

LatencySummary summaryOf(const std::optional<LatencyDistribution>& d)
{
    return d ? d->summary : LatencySummary{};
}

std::string micros(std::uint64_t ns)
{
    return fmt::format("{:.0f}", static_cast<double>(ns) / 1e3);
}

// pg_test_fsync's line, "        %-30s%13.3f ops/sec  %6.0f usecs/op", its label column `width` wide (30, or
// the section's longest name), then IOLab's percentile columns.
std::string pgLine(const std::string& label, const SyncLabRow& row, std::size_t width)
{
    std::string line = fmt::format("        {:<{}}{:13.3f} ops/sec  {:6.0f} usecs/op", label, width,
                                   row.opsPerSecond, row.usPerOp);
    if (row.durableCall)
        line +=
            fmt::format("  {:>7} {:>7} {:>7} {:>7} {:>8}  {}", row.durableCall->count,
                        micros(row.durableCall->p50Ns), micros(row.durableCall->p99Ns),
                        micros(row.durableCall->p999Ns), micros(row.durableCall->maxNs), row.durableCallName);
    return line + "\n";
}

std::string pgHeaderColumns(std::size_t width)
{
    return fmt::format("        {:<{}}{:>13} {:>7}  {:>6} {:>8}  {:>7} {:>7} {:>7} {:>7} {:>8}  {}\n", "",
                       width, "", "", "", "", "calls", "p50 us", "p99 us", "p99.9us", "max us",
                       "(of the call that makes each durable)");
}

// "N seconds per test" as pg_test_fsync prints it, for whole seconds.
std::string perTest(std::uint64_t ms)
{
    if (ms % 1000 == 0)
        return fmt::format("{} second{} per test", ms / 1000, ms == 1000 ? "" : "s");
    return fmt::format("{} per test", formatDuration(static_cast<double>(ms) / 1e3));
}

} // namespace

DurabilityClass durabilityOf(const Case& c, const StrategyInfo* info)
{
    if (info != nullptr && !info->notDurable.empty())
        return {Durability::Never, info->notDurable};
    if (info != nullptr && info->durableEachWrite)
        return {Durability::EachWrite, fmt::format("each {} call returns durable", c.strategy)};
    switch (c.sync.mode) {
    case SyncMode::OSync:
    case SyncMode::ODsync:
        return {Durability::EachWrite, fmt::format("each write returns durable ({})", toString(c.sync))};
    case SyncMode::FsyncEvery:
    case SyncMode::FdatasyncEvery:
        if (c.sync.everyWrites == 1)
            return {Durability::EachWrite, fmt::format("{} after every write", syncCallName(c.sync.mode))};
        return {Durability::EveryNWrites,
                fmt::format("{} every {} writes: the writes since the last one are at risk",
                            syncCallName(c.sync.mode), c.sync.everyWrites)};
    case SyncMode::FsyncEnd:
    case SyncMode::FdatasyncEnd:
        return {Durability::AtEnd, fmt::format("{} only at the end", syncCallName(c.sync.mode))};
    case SyncMode::None:
        break;
    }
    return {Durability::AtEnd, "no sync: durable only once the run's own fsync after the timed part returns"};
}

const char* shapeWords(WriteShape shape)
{
    switch (shape) {
    case WriteShape::Append:
        return "appending";
    case WriteShape::Overwrite:
        return "overwriting";
    case WriteShape::Rewrite:
        return "rewriting one block";
    }
    return "?";
}

std::vector<SyncLabRow> syncLabRows(const RunResult& result, const Registry* registry)
{
    std::vector<SyncLabRow> rows;
    for (const CaseResult& cr : result.cases) {
        const Case& c = cr.testCase;
        if (c.direction != Direction::Write || c.target != TargetKind::Directory || !hasRate(cr) ||
            c.chunkBytes == 0)
            continue;
        const StrategyInfo* info = infoOf(registry, c.strategy);
        if (info != nullptr && (info->usesStdioBuffer || info->memoryCopyCalls || info->maxQueueDepth > 0 ||
                                info->randomOffsets))
            continue; // a call is not a write to the file (a buffer, a mapping) or several are in flight
        SyncLabRow row;
        row.caseIndex = cr.index;
        row.method = methodName(c);
        row.file = fileInWords(c);
        row.description = writesInWords(c) + ", " + row.file;
        row.pgSized = pgLike(c) && (c.chunkBytes == kPgBlock || openSyncSize(c.chunkBytes));
        row.shape = c.preallocate == Preallocate::Rewrite ? WriteShape::Rewrite
                    : c.preallocate == Preallocate::None  ? WriteShape::Append
                                                          : WriteShape::Overwrite;
        row.durability = durabilityOf(c, info);
        row.opBytes = openSyncSizeRow(c) ? kOpenSyncOpBytes : c.chunkBytes;
        row.opsPerSecond = cr.apparentMBps.median * kBytesPerMB / static_cast<double>(row.opBytes);
        row.usPerOp = row.opsPerSecond > 0 ? 1e6 / row.opsPerSecond : 0;
        const bool syncInsideCalls = info != nullptr && info->syncInsideCalls;
        if (c.sync.loopSyncEvery() == 1 && cr.syncLatency && !syncInsideCalls) {
            row.durableCall = summaryOf(cr.syncLatency);
            row.durableCallName = syncCallName(c.sync.mode);
        } else if (cr.callLatency) {
            row.durableCall = summaryOf(cr.callLatency);
            const SyncLabMethod method = labMethod(c);
            row.durableCallName = method == SyncLabMethod::Pwritev2Dsync     ? "pwritev2"
                                  : method == SyncLabMethod::UringLinkedSync ? "write + linked sync"
                                  : method == SyncLabMethod::SyncFileRange   ? "write + sync_file_range"
                                  : c.sync.mode == SyncMode::ODsync          ? "write (O_DSYNC)"
                                  : c.sync.mode == SyncMode::OSync           ? "write (O_SYNC)"
                                                                             : "write";
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

SyncLabVerdicts syncLabVerdicts(const std::vector<SyncLabRow>& rows,
                                const std::vector<std::uint32_t>& distrusted)
{
    SyncLabVerdicts v;
    const auto trusted = [&](const SyncLabRow& r) {
        return std::find(distrusted.begin(), distrusted.end(), r.caseIndex) == distrusted.end();
    };
    // Ops of one size only (a 1 MiB write that is durable stores more than a 4 KiB one): 8 KiB where the run
    // has such rows (the open_sync sizes' ops are 16 KiB), else the size with the most durable methods.
    const auto candidate = [&](const SyncLabRow& r) {
        return r.durability.durability == Durability::EachWrite && trusted(r);
    };
    std::map<std::uint64_t, int> durableBySize;
    for (const SyncLabRow& r : rows) {
        if (candidate(r))
            ++durableBySize[r.opBytes];
    }
    std::uint64_t opBytes = 0;
    if (durableBySize.contains(kPgBlock)) {
        opBytes = kPgBlock;
    } else {
        int most = 0;
        for (const auto& [bytes, count] : durableBySize) {
            if (count > most) {
                most = count;
                opBytes = bytes;
            }
        }
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SyncLabRow& r = rows[i];
        if (!candidate(r) || r.opBytes != opBytes)
            continue;
        if (!v.fastestDurable || r.opsPerSecond > rows[*v.fastestDurable].opsPerSecond)
            v.fastestDurable = i;
    }
    if (v.fastestDurable) {
        const SyncLabRow& best = rows[*v.fastestDurable];
        v.fastestText =
            fmt::format("The fastest way to make each {} write durable here is {} ({}, case {}): {:.0f} "
                        "writes/s, {} each",
                        formatBytes(best.opBytes), best.method, best.file, best.caseIndex + 1,
                        best.opsPerSecond, formatLatency(best.usPerOp / 1e6));
        // Against plain fdatasync in the same file shape, the method a Linux database uses by default.
        for (const SyncLabRow& r : rows) {
            if (r.method == "fdatasync" && r.shape == best.shape && r.caseIndex != best.caseIndex &&
                r.opsPerSecond > 0) {
                v.fastestText += fmt::format(", {:.2f}x write + fdatasync's {:.0f} writes/s",
                                             best.opsPerSecond / r.opsPerSecond, r.opsPerSecond);
                break;
            }
        }
        v.fastestText += ".";
        if (!distrusted.empty())
            v.fastestText += " Methods whose flushes returned too fast to be trusted are left out.";
    } else if (!rows.empty()) {
        v.fastestText = "No method of this run made each write durable (a sync after every write, O_DSYNC, "
                        "O_SYNC or RWF_DSYNC), so none can be called the fastest durable one.";
    }

    // etcd's rule is about its log: an appending fdatasync is the closer shape; else an overwriting one.
    // A trusted one before one whose flushes returned too fast to be trusted.
    const SyncLabRow* fdatasync = nullptr;
    for (const SyncLabRow& r : rows) {
        if (r.method != "fdatasync" || !r.durableCall)
            continue;
        const auto rank = [&](const SyncLabRow& x) {
            // Appending before overwriting before rewriting one block: the closer to a log, the better.
            return (trusted(x) ? 3 : 0) + (x.shape == WriteShape::Append      ? 2
                                           : x.shape == WriteShape::Overwrite ? 1
                                                                              : 0);
        };
        if (fdatasync == nullptr || rank(r) > rank(*fdatasync))
            fdatasync = &r;
    }
    if (fdatasync != nullptr) {
        const double p99 = static_cast<double>(fdatasync->durableCall->p99Ns) / 1e9;
        v.etcdOk = p99 < kEtcdFdatasyncP99Seconds;
        v.etcdText =
            fmt::format("fdatasync's 99th percentile is {} ({}, case {}): {} etcd's rule for its log disk "
                        "(p99 under 10 ms){}",
                        formatLatency(p99), shapeWords(fdatasync->shape), fdatasync->caseIndex + 1,
                        *v.etcdOk ? "within" : "above",
                        *v.etcdOk ? "." : ": a cluster logging here would see slow-disk warnings.");
        if (!trusted(*fdatasync))
            v.etcdText += " Its flushes returned too fast for the device to have stored the data (see the "
                          "flush honesty finding), so the figure may not hold for a log that must survive a "
                          "power cut.";
        if (const std::uint64_t calls = fdatasync->durableCall->count; calls < kP99MinCalls)
            v.etcdText +=
                fmt::format(" It is of only {} call{}, too few for a 99th percentile to hold (it takes "
                            "{} or more): run the method longer (--duration 5s).",
                            calls, calls == 1 ? "" : "s", kP99MinCalls);
    }
    return v;
}

SyncLabResult syncLabResult(const RunResult& result, const Registry* registry)
{
    SyncLabResult lab{syncLabRows(result, registry), flushDistrustedCases(result, registry), {}, {}};
    lab.verdicts = syncLabVerdicts(lab.rows, lab.distrusted);
    if (result.cancelled) {
        const std::size_t ran = casesRunToEnd(result);
        const auto stopped = std::find_if(result.cases.begin(), result.cases.end(),
                                          [](const CaseResult& c) { return c.status == Status::Cancelled; });
        lab.stopped = stopped == result.cases.end()
                          ? fmt::format("The run was stopped as its last case ended: all {} cases ran.", ran)
                          : fmt::format("The run was stopped at case {} of {}: the sync lab covers the {} "
                                        "case{} that ran.",
                                        stopped->index + 1, result.cases.size(), ran, ran == 1 ? "" : "s");
    }
    return lab;
}

std::vector<SyncLabRow> withOpenSyncPairs(std::vector<SyncLabRow> rows)
{
    for (std::size_t i = 0, n = rows.size(); i < n; ++i) {
        if (rows[i].method != "open_sync" || rows[i].shape == WriteShape::Append)
            continue;
        SyncLabRow two = rows[i];
        two.method = " 2 *  8kB open_sync writes";
        two.description = "two 8 KiB O_DIRECT writes with O_SYNC per op, " + two.file;
        two.opBytes = kOpenSyncOpBytes;
        two.opsPerSecond /= 2;
        two.usPerOp *= 2;
        rows.push_back(std::move(two));
    }
    return rows;
}

bool comparesDurableMethods(const std::vector<SyncLabRow>& rows)
{
    // Two methods at one write size, one of them making each write durable: writes of other sizes beside a
    // synced one (the health check's 1 MiB direct writes beside its 4 KiB fsync) compare no methods.
    return std::any_of(rows.begin(), rows.end(), [&rows](const SyncLabRow& synced) {
        return synced.durability.durability == Durability::EachWrite &&
               std::any_of(rows.begin(), rows.end(), [&synced](const SyncLabRow& other) {
                   return &other != &synced && other.opBytes == synced.opBytes;
               });
    });
}

std::vector<std::string> syncLabFindings(const RunResult& result, const Registry* registry)
{
    const std::vector<SyncLabRow> rows = syncLabRows(result, registry);
    const auto rowOf = [&rows](std::uint32_t caseIndex) -> const SyncLabRow* {
        const auto it = std::find_if(rows.begin(), rows.end(),
                                     [caseIndex](const SyncLabRow& r) { return r.caseIndex == caseIndex; });
        return it != rows.end() ? &*it : nullptr;
    };
    const auto caseOf = [&result](std::uint32_t caseIndex) -> const CaseResult* {
        const auto it = std::find_if(result.cases.begin(), result.cases.end(),
                                     [caseIndex](const CaseResult& c) { return c.index == caseIndex; });
        return it != result.cases.end() ? &*it : nullptr;
    };
    // One sentence per kind, about its first case, the others of the kind named after it: a VM's flushes
    // say the same of every method.
    std::vector<std::pair<Finding::Kind, std::vector<const Finding*>>> kinds;
    const std::vector<Finding> all = findings(result, registry);
    for (const Finding& f : all) {
        const SyncLabRow* row = f.caseIndex ? rowOf(*f.caseIndex) : nullptr;
        switch (f.kind) {
        case Finding::Kind::FlushHonesty:
        case Finding::Kind::DirectIgnored:
            if (row == nullptr)
                continue; // about a case that is not one of the lab's methods (the stdio baseline)
            break;
        case Finding::Kind::Tail:
            // The slow calls of a method that syncs as it writes; those of writes the page cache took say
            // nothing about syncs.
            if (row == nullptr || row->durability.durability == Durability::AtEnd)
                continue;
            break;
        case Finding::Kind::Storage:
        case Finding::Kind::Failed:
        case Finding::Kind::Cancelled:
            break;
        default:
            continue;
        }
        const auto kind =
            std::find_if(kinds.begin(), kinds.end(), [&f](const auto& k) { return k.first == f.kind; });
        if (kind == kinds.end())
            kinds.push_back({f.kind, {&f}});
        else
            kind->second.push_back(&f);
    }
    // A case as the lab names it: "case 12 (fdatasync after each 8 KiB write, rewriting one block)".
    const auto named = [&](std::uint32_t caseIndex) {
        const CaseResult* c = caseOf(caseIndex);
        if (c == nullptr)
            return fmt::format("case {}", caseIndex + 1);
        if (const SyncLabRow* row = rowOf(caseIndex))
            return fmt::format("case {} ({})", caseIndex + 1, row->description);
        const Case& k = c->testCase;
        if (k.direction == Direction::Write && k.target == TargetKind::Directory && k.chunkBytes != 0)
            return fmt::format("case {} ({}, {})", caseIndex + 1, writesInWords(k), fileInWords(k));
        return findingSubject(*c);
    };
    const auto sentence = [&](const Finding& f) {
        std::string text = f.text;
        if (f.caseIndex) {
            if (const CaseResult* c = caseOf(*f.caseIndex)) {
                const std::string subject = findingSubject(*c);
                if (const auto at = text.find(subject); at != std::string::npos)
                    text.replace(at, subject.size(), named(*f.caseIndex));
            }
        }
        if (!text.empty())
            text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
        return text;
    };
    std::vector<std::string> out;
    for (const auto& [kind, list] : kinds) {
        if (kind == Finding::Kind::Failed) { // each failure has its own reason
            for (const Finding* f : list)
                out.push_back(sentence(*f));
            continue;
        }
        std::string text = sentence(*list.front());
        std::vector<std::uint32_t> others; // the other methods of the kind, each once (a tail of its calls
                                           // and one of its syncs are two findings)
        for (std::size_t i = 1; i < list.size(); ++i) {
            const auto index = list[i]->caseIndex;
            if (index && index != list.front()->caseIndex &&
                std::find(others.begin(), others.end(), *index) == others.end())
                others.push_back(*index);
        }
        if (!others.empty()) {
            std::string names;
            for (const std::uint32_t index : others)
                names += (names.empty() ? "" : "; ") + named(index);
            const bool one = others.size() == 1;
            if (kind == Finding::Kind::Tail)
                text += fmt::format(" {} more method{} {} such a tail: {}.", others.size(), one ? "" : "s",
                                    one ? "has" : "have", names);
            else
                text += fmt::format(" The same holds for {} more method{}: {}.", others.size(),
                                    one ? "" : "s", names);
        }
        out.push_back(std::move(text));
    }
    return out;
}

std::vector<std::string> syncLabConclusion(const RunResult& result, const Registry* registry)
{
    std::vector<std::string> lines;
    const std::vector<std::string> found = syncLabFindings(result, registry);
    if (!found.empty()) {
        lines.emplace_back("Findings:");
        for (const auto& f : found) {
            for (auto& line : wrappedLines(f, "  - ", "    ", kSummaryWidth))
                lines.push_back(std::move(line));
        }
    }
    const SyncLabResult lab = syncLabResult(result, registry);
    std::vector<std::string> verdicts;
    if (!lab.verdicts.fastestText.empty())
        verdicts.push_back(lab.verdicts.fastestText);
    if (!lab.verdicts.etcdText.empty())
        verdicts.push_back(lab.verdicts.etcdText);
    else if (!lab.rows.empty())
        verdicts.emplace_back(
            "etcd's rule (fdatasync's p99 under 10 ms) cannot be judged: no method of this run "
            "called fdatasync after every write with its calls timed.");
    for (const SyncLabRow& r : lab.rows) {
        if (r.durability.durability == Durability::Never) {
            verdicts.push_back(fmt::format("Not durable: {}.", r.durability.why));
            break;
        }
    }
    if (!verdicts.empty()) {
        lines.emplace_back("Verdicts:");
        for (const auto& v : verdicts) {
            for (auto& line : wrappedLines(v, "  - ", "    ", kSummaryWidth))
                lines.push_back(std::move(line));
        }
    }
    return lines;
}

std::string formatPgTestFsync(const RunResult& result, const Registry* registry)
{
    const std::vector<SyncLabRow> rows = withOpenSyncPairs(syncLabRows(result, registry));
    std::map<std::uint64_t, int> limits;
    bool directRan = false;
    for (const CaseResult& cr : result.cases) {
        if (cr.status == Status::Cancelled && cr.repetitions.empty())
            continue; // planned, never started
        ++limits[cr.testCase.timeLimitMs];
        directRan =
            directRan || (labMethod(cr.testCase) == SyncLabMethod::DirectWrite && cr.status == Status::Ok);
    }
    std::string out;
    const std::string overridden = overridesText(result.matrix);
    if (limits.size() == 1 && limits.begin()->first != 0)
        out += perTest(limits.begin()->first);
    else if (limits.size() == 1)
        out += "no time limit: each test ran to its size";
    else if (!limits.empty()) {
        std::string each;
        for (const auto& [ms, count] : limits)
            each += fmt::format("{}{} ({} test{})", each.empty() ? "" : ", ",
                                ms == 0 ? std::string("none") : formatDuration(static_cast<double>(ms) / 1e3),
                                count, count == 1 ? "" : "s");
        out += "time limits per test: " + each;
    }
    if (!overridden.empty())
        out += fmt::format("{}overridden for every case: {}", out.empty() ? "" : "; ", overridden);
    out += "\n";
    if (directRan)
        out += "O_DIRECT supported on this platform for open_datasync and open_sync.\n";
    out +=
        "ops/sec and usecs/op as pg_test_fsync counts them; the calls and percentile columns are IOLab's, of "
        "the call that makes each write durable (a p99 holds from 100 calls, a p99.9 from 1000).\n";
    if (const std::string stopped = syncLabResult(result, registry).stopped; !stopped.empty())
        out += stopped + "\n";

    // Each section is a table of its own: its label column is pg_test_fsync's 30 characters, or as wide as
    // its longest name, so that its figures stay in columns whatever the names.
    std::vector<bool> shown(rows.size(), false);
    const auto section = [&](const std::string& title, auto&& wanted, const std::vector<std::string>& order,
                             bool inWords = false) {
        std::vector<std::pair<std::string, const SyncLabRow*>> lines; // label, row (nullptr: "n/a")
        const auto take = [&](std::size_t i) {
            lines.emplace_back(inWords ? rows[i].description : rows[i].method, &rows[i]);
            shown[i] = true;
        };
        for (const std::string& name : order) {
            bool found = false;
            for (std::size_t i = 0; i < rows.size(); ++i) {
                if (!shown[i] && rows[i].method == name && wanted(rows[i])) {
                    take(i);
                    found = true;
                }
            }
            if (!found && name == "fsync_writethrough")
                lines.emplace_back(name, nullptr);
        }
        // A section without an order takes its rows as the run has them; one with an order ending in "" takes
        // those named first, then the rest.
        const bool rest = order.empty() || order.back().empty();
        for (std::size_t i = 0; rest && i < rows.size(); ++i) {
            if (!shown[i] && wanted(rows[i]))
                take(i);
        }
        if (std::none_of(lines.begin(), lines.end(), [](const auto& l) { return l.second != nullptr; }))
            return;
        std::size_t width = kPgLabelWidth;
        for (const auto& [label, row] : lines)
            width = std::max(width, label.size() + 1);
        out += "\n" + title + "\n" + pgHeaderColumns(width);
        for (const auto& [label, row] : lines)
            out += row != nullptr ? pgLine(label, *row, width)
                                  : fmt::format("        {:<{}}{:>21}\n", label, width, "n/a");
    };
    // pg_test_fsync's own sections hold the rows shaped as it writes: rewriting one block where the run has
    // such rows, else overwriting a pre-written file; the other shapes follow under IOLab's headings.
    const WriteShape pgShape =
        std::any_of(rows.begin(), rows.end(),
                    [](const SyncLabRow& r) { return r.pgSized && r.shape == WriteShape::Rewrite; })
            ? WriteShape::Rewrite
            : WriteShape::Overwrite;
    const auto pg8k = [pgShape](const SyncLabRow& r) {
        return r.pgSized && r.shape == pgShape && r.opBytes == kPgBlock;
    };
    section("Compare file sync methods using one 8kB write:\n(in wal_sync_method preference order, except "
            "fdatasync is Linux's default)",
            pg8k, {"open_datasync", "fdatasync", "fsync", "fsync_writethrough", "open_sync"});
    section("Compare open_sync with different write sizes:\n(This is designed to compare the cost of writing "
            "16kB in different write\nopen_sync sizes.)",
            [pgShape](const SyncLabRow& r) {
                return r.pgSized && r.shape == pgShape && r.opBytes == kOpenSyncOpBytes;
            },
            {" 1 * 16kB open_sync write", " 2 *  8kB open_sync writes", " 4 *  4kB open_sync writes",
             " 8 *  2kB open_sync writes", "16 *  1kB open_sync writes"});
    section("Non-sync'ed 8kB writes:", pg8k, {"write"});
    section(
        fmt::format("IOLab: methods pg_test_fsync does not have, 8kB writes {}:",
                    pgShape == WriteShape::Rewrite ? "rewriting one block in place" : "overwriting in place"),
        pg8k, {});
    section("IOLab: open_datasync at the open_sync write sizes (an op is one write):",
            [pgShape](const SyncLabRow& r) {
                return r.pgSized && r.shape == pgShape && r.method.starts_with("open_datasync,");
            },
            {});
    // The other shapes: pg_test_fsync's methods in its order, its open_sync sizes, then the rest.
    const std::vector<std::string> everyMethod{"open_datasync",
                                               "fdatasync",
                                               "fsync",
                                               "open_sync",
                                               "write",
                                               " 1 * 16kB open_sync write",
                                               " 2 *  8kB open_sync writes",
                                               " 4 *  4kB open_sync writes",
                                               " 8 *  2kB open_sync writes",
                                               "16 *  1kB open_sync writes",
                                               ""};
    section(
        "IOLab: 8kB writes overwriting a pre-written file front to back, as a database fills its "
        "preallocated log (pg_test_fsync rewrites one block):",
        [](const SyncLabRow& r) { return r.pgSized && r.shape == WriteShape::Overwrite; }, everyMethod);
    section(
        "IOLab: 8kB writes appending to a growing file (pg_test_fsync only overwrites, which hides the "
        "metadata updates appending pays):",
        [](const SyncLabRow& r) { return r.pgSized && r.shape == WriteShape::Append; }, everyMethod);
    section(
        "IOLab: other cases of the run:", [](const SyncLabRow&) { return true; }, {}, true);

    // Then what the sync lab concludes, as the Summary says it.
    const std::vector<std::string> conclusion = syncLabConclusion(result, registry);
    if (!conclusion.empty())
        out += "\n";
    for (const auto& line : conclusion)
        out += line + "\n";
    return out;
}

} // namespace iolab
