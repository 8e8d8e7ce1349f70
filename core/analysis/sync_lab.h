// SPDX-License-Identifier: MIT
// The sync lab (issue 17): a run's durable-write methods as pg_test_fsync names them, with ops/s, µs/op and
// the percentiles of the call that makes each write durable, and the two verdicts a database's log asks for.
#pragma once

#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

class Registry;
struct StrategyInfo;

// What a write case's data can survive, and why.
enum class Durability
{
    EachWrite,    // every write returns durable, or is followed by its own sync before the next
    EveryNWrites, // a sync after every N writes (N > 1): up to N writes at risk
    AtEnd,        // durable only after the sync at the end (or the final fsync the run adds)
    Never         // what it calls a sync is not one (sync_file_range)
};

struct DurabilityClass
{
    Durability durability = Durability::AtEnd;
    std::string why; // "fdatasync after every write", "sync_file_range writes the data out but ..."
};

// A write case's class, from its sync policy and what its strategy declares (StrategyInfo::durableEachWrite,
// notDurable); `info` nullptr: from the sync policy alone.
DurabilityClass durabilityOf(const Case& c, const StrategyInfo* info);

// How a lab method's writes meet its file: appending to a growing one (preallocate none), overwriting a
// pre-written one front to back (preallocate overwrite, as a database fills its preallocated log segment), or
// rewriting its first block in place on every write (preallocate rewrite, as pg_test_fsync times it).
enum class WriteShape
{
    Append,
    Overwrite,
    Rewrite
};

// "appending", "overwriting", "rewriting one block".
const char* shapeWords(WriteShape shape);

// One method of the lab, a case of the run.
struct SyncLabRow
{
    std::uint32_t caseIndex = 0;
    std::string method; // pg_test_fsync's name where it has one: "fdatasync", "open_datasync", "2 * 8kB
                        // open_sync writes"; IOLab's own otherwise: "pwritev2 RWF_DSYNC"
    WriteShape shape = WriteShape::Append;
    DurabilityClass durability;
    std::uint64_t opBytes = 0; // one op: a write, or 16 KiB for the open_sync sizes
    double opsPerSecond = 0;   // the median over the measured repetitions
    double usPerOp = 0;
    // The call that makes a write durable: the sync where the policy syncs after each write, else the write
    // itself; nullopt where the calls were not timed.
    std::optional<LatencySummary> durableCall;
    std::string durableCallName; // "fdatasync", "write (O_DSYNC)", "pwritev2"
};

// The rows of every file-write case of the run that ran ok with a rate and whose strategy writes at most one
// chunk per call (the lab's methods), in case order.
std::vector<SyncLabRow> syncLabRows(const RunResult& result, const Registry* registry);

// etcd's published rule for its log disk: the 99th percentile of fdatasync under 10 ms.
inline constexpr double kEtcdFdatasyncP99Seconds = 10e-3;

struct SyncLabVerdicts
{
    // The fastest method whose each write is durable, not counting cases in `distrusted` (flush honesty).
    std::optional<std::size_t> fastestDurable; // index into the rows
    std::string fastestText;
    // The etcd rule over the fdatasync-after-every-write rows (an appending one first: a log appends).
    std::optional<bool> etcdOk;
    std::string etcdText;
};

SyncLabVerdicts syncLabVerdicts(const std::vector<SyncLabRow>& rows,
                                const std::vector<std::uint32_t>& distrusted = {});
// A run's sync lab: its rows, the cases whose flushes returned too fast to be trusted (flush honesty), and
// the verdicts over the rest. The Summary, the pg layout, the app's tab and the PDF all start here.
struct SyncLabResult
{
    std::vector<SyncLabRow> rows;
    std::vector<std::uint32_t> distrusted;
    SyncLabVerdicts verdicts;
};
SyncLabResult syncLabResult(const RunResult& result, const Registry* registry);

// pg_test_fsync's open_sync sizes count its 8 kB open_sync as one 16 kB op of two writes: `rows` with such a
// row ("2 * 8kB open_sync writes", the same case at half its ops/s) added after them for each overwriting
// open_sync row, so that the 16 KiB comparison has all five sizes. The rows before keep their indexes.
std::vector<SyncLabRow> withOpenSyncPairs(std::vector<SyncLabRow> rows);

// Whether the rows compare ways of making writes durable: at least two methods, one of them durable at each
// write. Such a run's Summary leads with the verdicts, and the app shows the sync lab's chart.
bool comparesDurableMethods(const std::vector<SyncLabRow>& rows);

// pg_test_fsync's layout ("Compare file sync methods using one 8kB write:" ..., each method's ops/sec and
// usecs/op) with IOLab's percentile columns added, then the methods pg_test_fsync does not have and the
// appending rows, then the verdicts. `seconds`: the time limit per method, for the header.
std::string formatPgTestFsync(const RunResult& result, const Registry* registry);

} // namespace iolab
