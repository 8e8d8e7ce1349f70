// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace iolab {
class Registry;
}

namespace iolab::report {

// The sync lab's chart (issue 17): for a run that compares ways of making writes durable, each method's ops/s
// as a bar, with a whisker at the rate its p99 durable call allows, one op size at a time (ops of different
// sizes do not compare). The app's "Sync lab" tab and the PDF draw from it.
struct SyncLabChartData
{
    enum class Kind
    {
        Durable,    // each write is durable when its op returns
        Distrusted, // as Durable, but its flushes returned too fast for the device to have stored the data
        NotDurable  // a write's data is at risk after it returns (no sync per write, or sync_file_range)
    };
    struct Bar
    {
        QString label; // "fdatasync, appending"
        Kind kind = Kind::Durable;
        QString why; // how its data becomes durable, or why it does not
        double opsPerSecond = 0;
        double usPerOp = 0;
        // The durable call's percentiles (the write's, for a method not durable at each write) and its p99;
        // nullopt where the calls were not timed.
        std::optional<LatencySummary> latency;
        std::optional<double> p99Seconds;
        // The whisker, for methods durable at each write only: the rate if every op's durable calls took
        // their p99 (1 / (p99 x calls per op), plus the write's median where the sync follows a write).
        std::optional<double> p99OpsPerSecond;
        QString durableCall; // "fdatasync", "write (O_DSYNC)"
        std::uint32_t caseIndex = 0;
        bool fastest = false; // the verdict's fastest durable method
    };
    struct OpSize
    {
        std::uint64_t bytes = 0; // of one op
        std::vector<Bar> bars;   // fastest first
        double minOps = 0;       // the smallest bar or whisker value (> 0)
        double maxOps = 0;       // the largest
    };
    std::vector<OpSize> sizes; // 8 KiB (pg_test_fsync's op) first where the run has it, then ascending
    QString fastestText;       // the verdicts, plain sentences with their numbers ("" when none)
    QString etcdText;
    std::optional<bool> etcdOk;
    QString stoppedText; // a stopped run: how many of its planned cases the bars cover ("" otherwise)

    bool empty() const noexcept { return sizes.empty(); }
    // "8 KiB ops (12 methods)".
    static QString sizeName(const OpSize& size);
    static QString kindName(Kind kind);

    // Empty unless the run compares ways of making writes durable (comparesDurableMethods()).
    static SyncLabChartData from(const RunResult& result, const Registry* registry);
};

} // namespace iolab::report
