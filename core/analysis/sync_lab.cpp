// SPDX-License-Identifier: MIT
#include "core/analysis/sync_lab.h"

#include "core/analysis/findings.h"
#include "core/base/units.h"
#include "core/engine/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace iolab {

namespace {

constexpr std::uint64_t kPgBlock = 8 * kKiB;          // pg_test_fsync's XLOG_BLCKSZ
constexpr std::uint64_t kOpenSyncOpBytes = 16 * kKiB; // its open_sync sizes each write 16 KiB per op

const StrategyInfo* infoOf(const Registry* registry, const std::string& id)
{
    const Strategy* s = registry != nullptr ? registry->find(id) : nullptr;
    return s != nullptr ? &s->info() : nullptr;
}

// The open_sync size rows: direct with O_SYNC at a chunk other than 8 KiB that divides 16 KiB.
bool openSyncSizeRow(const Case& c)
{
    return c.strategy == "direct" && c.sync.mode == SyncMode::OSync && c.chunkBytes != kPgBlock &&
           c.chunkBytes <= kOpenSyncOpBytes && kOpenSyncOpBytes % c.chunkBytes == 0;
}

std::string syncCall(SyncMode mode)
{
    return syncsDataOnly(mode) ? "fdatasync" : "fsync";
}

std::string methodName(const Case& c)
{
    const bool every1 = c.sync.loopSyncEvery() == 1;
    if (c.strategy == "write" && c.sync.mode == SyncMode::None)
        return "write";
    if (c.strategy == "write" && every1)
        return syncCall(c.sync.mode);
    if (c.strategy == "direct" && c.sync.mode == SyncMode::ODsync && c.chunkBytes == kPgBlock)
        return "open_datasync";
    if (c.strategy == "direct" && c.sync.mode == SyncMode::OSync && c.chunkBytes == kPgBlock)
        return "open_sync";
    if (c.strategy == "direct" && c.sync.mode == SyncMode::ODsync)
        return fmt::format("open_datasync, {} writes", formatBytesCompact(c.chunkBytes));
    if (openSyncSizeRow(c)) {
        const std::uint64_t writes = kOpenSyncOpBytes / c.chunkBytes;
        return fmt::format("{:>2} * {:>2}kB open_sync write{}", writes, c.chunkBytes / kKiB,
                           writes > 1 ? "s" : "");
    }
    if (c.strategy == "pwritev2-dsync")
        return "pwritev2 RWF_DSYNC";
    if (c.strategy == "uring-linked-sync")
        return fmt::format("io_uring write + linked {}{}", syncCall(c.sync.mode),
                           every1 ? "" : fmt::format(" every {}", c.sync.everyWrites));
    if (c.strategy == "sync-file-range")
        return "sync_file_range (not durable)";
    return c.label();
}

LatencySummary summaryOf(const std::optional<LatencyDistribution>& d)
{
    return d ? d->summary : LatencySummary{};
}

std::string micros(std::uint64_t ns)
{
    return fmt::format("{:.0f}", static_cast<double>(ns) / 1e3);
}

std::string pgLine(const SyncLabRow& row)
{
    std::string line = fmt::format("        {:<34}{:13.3f} ops/sec  {:6.0f} usecs/op", row.method,
                                   row.opsPerSecond, row.usPerOp);
    if (row.durableCall)
        line += fmt::format("  {:>7} {:>7} {:>7} {:>8}  {}", micros(row.durableCall->p50Ns),
                            micros(row.durableCall->p99Ns), micros(row.durableCall->p999Ns),
                            micros(row.durableCall->maxNs), row.durableCallName);
    return line + "\n";
}

std::string pgHeaderColumns()
{
    return fmt::format("        {:<34}{:>13} {:>7}  {:>6} {:>8}  {:>7} {:>7} {:>7} {:>8}  {}\n", "", "", "",
                       "", "", "p50 us", "p99 us", "p99.9us", "max us",
                       "(of the call that makes each durable)");
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
            return {Durability::EachWrite, fmt::format("{} after every write", syncCall(c.sync.mode))};
        return {Durability::EveryNWrites,
                fmt::format("{} every {} writes: the writes since the last one are at risk",
                            syncCall(c.sync.mode), c.sync.everyWrites)};
    case SyncMode::FsyncEnd:
    case SyncMode::FdatasyncEnd:
        return {Durability::AtEnd, fmt::format("{} only at the end", syncCall(c.sync.mode))};
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
            row.durableCallName = syncCall(c.sync.mode);
        } else if (cr.callLatency) {
            row.durableCall = summaryOf(cr.callLatency);
            row.durableCallName = c.strategy == "pwritev2-dsync"      ? "pwritev2"
                                  : c.strategy == "uring-linked-sync" ? "write + linked sync"
                                  : c.strategy == "sync-file-range"   ? "write + sync_file_range"
                                  : c.sync.mode == SyncMode::ODsync   ? "write (O_DSYNC)"
                                  : c.sync.mode == SyncMode::OSync    ? "write (O_SYNC)"
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
                        formatBytes(best.opBytes), best.method, shapeWords(best.shape), best.caseIndex + 1,
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
    }
    return v;
}

SyncLabResult syncLabResult(const RunResult& result, const Registry* registry)
{
    SyncLabResult lab{syncLabRows(result, registry), flushDistrustedCases(result, registry), {}};
    lab.verdicts = syncLabVerdicts(lab.rows, lab.distrusted);
    return lab;
}

std::vector<SyncLabRow> withOpenSyncPairs(std::vector<SyncLabRow> rows)
{
    for (std::size_t i = 0, n = rows.size(); i < n; ++i) {
        if (rows[i].method != "open_sync" || rows[i].shape == WriteShape::Append)
            continue;
        SyncLabRow two = rows[i];
        two.method = " 2 *  8kB open_sync writes";
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

std::string formatPgTestFsync(const RunResult& result, const Registry* registry)
{
    const std::vector<SyncLabRow> rows = withOpenSyncPairs(syncLabRows(result, registry));
    std::map<std::uint64_t, int> limits;
    bool directRan = false;
    for (const CaseResult& cr : result.cases) {
        if (cr.testCase.timeLimitMs != 0)
            ++limits[cr.testCase.timeLimitMs];
        directRan = directRan || (cr.testCase.strategy == "direct" && cr.status == Status::Ok);
    }
    std::string out;
    if (limits.size() == 1)
        out += fmt::format("{} per test\n", formatDuration(static_cast<double>(limits.begin()->first) / 1e3));
    else if (limits.empty())
        out += "no time limit: each test ran to its size\n";
    if (directRan)
        out += "O_DIRECT supported on this platform for open_datasync and open_sync.\n";
    out +=
        "ops/sec and usecs/op as pg_test_fsync counts them; the percentile columns are IOLab's, of the call "
        "that makes each write durable.\n";

    std::vector<bool> shown(rows.size(), false);
    const auto section = [&](const std::string& title, auto&& wanted, const std::vector<std::string>& order) {
        std::string body;
        const auto take = [&](std::size_t i) {
            body += pgLine(rows[i]);
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
                body += fmt::format("        {:<34}{:>13}\n", name, "n/a");
        }
        // A section without an order takes its rows as the run has them; one with an order ending in "" takes
        // those named first, then the rest.
        const bool rest = order.empty() || order.back().empty();
        for (std::size_t i = 0; rest && i < rows.size(); ++i) {
            if (!shown[i] && wanted(rows[i]))
                take(i);
        }
        if (body.empty() || body.find("ops/sec") == std::string::npos)
            return;
        out += "\n" + title + "\n" + pgHeaderColumns() + body;
    };
    // pg_test_fsync's own sections hold the rows shaped as it writes: rewriting one block where the run has
    // such rows, else overwriting a pre-written file; the other shapes follow under IOLab's headings.
    const WriteShape pgShape = std::any_of(rows.begin(), rows.end(),
                                           [](const SyncLabRow& r) { return r.shape == WriteShape::Rewrite; })
                                   ? WriteShape::Rewrite
                                   : WriteShape::Overwrite;
    const auto pg8k = [pgShape](const SyncLabRow& r) {
        return r.shape == pgShape && r.opBytes == kPgBlock;
    };
    section("Compare file sync methods using one 8kB write:\n(in wal_sync_method preference order, except "
            "fdatasync is Linux's default)",
            pg8k, {"open_datasync", "fdatasync", "fsync", "fsync_writethrough", "open_sync"});
    section("Compare open_sync with different write sizes:\n(This is designed to compare the cost of writing "
            "16kB "
            "in different write\nopen_sync sizes.)",
            [pgShape](const SyncLabRow& r) { return r.shape == pgShape && r.opBytes == kOpenSyncOpBytes; },
            {" 1 * 16kB open_sync write", " 2 *  8kB open_sync writes", " 4 *  4kB open_sync writes",
             " 8 *  2kB open_sync writes", "16 *  1kB open_sync writes"});
    section("Non-sync'ed 8kB writes:", pg8k, {"write"});
    section(
        fmt::format("IOLab: methods pg_test_fsync does not have, 8kB writes {}:",
                    pgShape == WriteShape::Rewrite ? "rewriting one block in place" : "overwriting in place"),
        pg8k, {});
    section("IOLab: open_datasync at the open_sync write sizes (an op is one write):",
            [pgShape](const SyncLabRow& r) {
                return r.shape == pgShape && r.method.starts_with("open_datasync,");
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
        "IOLab: overwriting a pre-written file front to back, as a database fills its preallocated log "
        "(pg_test_fsync rewrites one block):",
        [](const SyncLabRow& r) { return r.shape == WriteShape::Overwrite; }, everyMethod);
    section(
        "IOLab: appending to a growing file (pg_test_fsync only overwrites, which hides the metadata "
        "updates appending pays):",
        [](const SyncLabRow& r) { return r.shape == WriteShape::Append; }, everyMethod);
    section("IOLab: other cases of the run:", [](const SyncLabRow&) { return true; }, {});

    const SyncLabVerdicts v = syncLabResult(result, registry).verdicts;
    if (!v.fastestText.empty() || !v.etcdText.empty())
        out += "\n";
    if (!v.fastestText.empty())
        out += v.fastestText + "\n";
    if (!v.etcdText.empty())
        out += v.etcdText + "\n";
    for (const SyncLabRow& r : rows) {
        if (r.durability.durability == Durability::Never) {
            out += fmt::format("Not durable: {}.\n", r.durability.why);
            break;
        }
    }
    return out;
}

} // namespace iolab
