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
    // pg_test_fsync's name where it has one ("fdatasync", "open_datasync", " 2 *  8kB open_sync writes"),
    // IOLab's own for its 8 KiB methods ("pwritev2 RWF_DSYNC"), else the writes in words ("fdatasync after
    // each 4 KiB write", "8 KiB writes with O_DSYNC, 4 threads"): never a case label.
    std::string method;
    std::string file;        // how its writes meet the file: "appending", "rewriting one block", ...
    std::string description; // the writes and the file in words: "fdatasync after each 8 KiB write, rewriting
                             // one block"
    // Its op is pg_test_fsync's 8 kB write or one of its open_sync sizes, written by one thread of IOLab's
    // own bytes into a file pg_test_fsync's shapes name: pg's sections and IOLab's 8 kB ones can show it.
    bool pgSized = false;
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
    // A stopped run: "The run was stopped at case 38 of 43: the sync lab covers the 37 cases that ran."
    // (counting those that ran to their end, not the planned ones the result lists); "" otherwise.
    std::string stopped;
};
SyncLabResult syncLabResult(const RunResult& result, const Registry* registry);

// pg_test_fsync's open_sync sizes count its 8 kB open_sync as one 16 kB op of two writes: `rows` with such a
// row ("2 * 8kB open_sync writes", the same case at half its ops/s) added after them for each overwriting
// open_sync row, so that the 16 KiB comparison has all five sizes. The rows before keep their indexes.
std::vector<SyncLabRow> withOpenSyncPairs(std::vector<SyncLabRow> rows);

// Whether the rows compare ways of making writes durable: at least two methods, one of them durable at each
// write. Such a run's Summary leads with the verdicts, and the app shows the sync lab's chart.
bool comparesDurableMethods(const std::vector<SyncLabRow>& rows);

// The findings that concern the sync lab, one sentence each (a kind said once, about its first method, the
// others of the kind named after it): a layer under the target that changes every figure, flush honesty,
// O_DIRECT the page cache took anyway and latency tails of its methods that sync as they write, cases that
// failed, a stopped run. Cases are named by their method in words ("case 12 (fdatasync after each 8 KiB
// write, rewriting one block)").
std::vector<std::string> syncLabFindings(const RunResult& result, const Registry* registry);

// What the sync lab concludes, as text lines wrapped as the Summary is: "Findings:" (syncLabFindings) and
// "Verdicts:" (the fastest durable method, etcd's rule, and a method that is not durable).
std::vector<std::string> syncLabConclusion(const RunResult& result, const Registry* registry);

// pg_test_fsync's layout ("Compare file sync methods using one 8kB write:" ..., each method's ops/sec and
// usecs/op, its label column 30 characters wide or as wide as the section's longest name) with IOLab's
// percentile columns added, then the methods pg_test_fsync does not have, the other file shapes and the other
// cases of the run in words, then syncLabConclusion().
std::string formatPgTestFsync(const RunResult& result, const Registry* registry);

} // namespace iolab
