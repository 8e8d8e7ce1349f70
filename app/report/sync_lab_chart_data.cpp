// SPDX-License-Identifier: MIT
#include "app/report/sync_lab_chart_data.h"
#include "app/report/qt_text.h"

#include "core/analysis/sync_lab.h"
#include "core/base/units.h"

#include <algorithm>

namespace iolab::report {

namespace {

constexpr std::uint64_t kPgOpBytes = 8 * kKiB;

} // namespace

QString SyncLabChartData::sizeName(const OpSize& size)
{
    return QStringLiteral("%1 ops (%2 method%3)")
        .arg(qs(formatBytesCompact(size.bytes)))
        .arg(size.bars.size())
        .arg(size.bars.size() == 1 ? QString() : QStringLiteral("s"));
}

QString SyncLabChartData::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Durable:
        return QStringLiteral("durable at each write");
    case Kind::Distrusted:
        return QStringLiteral("durable at each write, but its flushes returned too fast to trust");
    case Kind::NotDurable:
        return QStringLiteral("not durable at each write");
    }
    return {};
}

SyncLabChartData SyncLabChartData::from(const RunResult& result, const Registry* registry)
{
    SyncLabChartData d;
    const SyncLabResult lab = syncLabResult(result, registry);
    if (!comparesDurableMethods(lab.rows))
        return d;
    // The 16 KiB op size has pg_test_fsync's "2 * 8kB" row too; the verdict's index is among the rows before.
    const std::vector<SyncLabRow> rows = withOpenSyncPairs(lab.rows);
    const std::vector<std::uint32_t>& distrusted = lab.distrusted;
    const SyncLabVerdicts& verdicts = lab.verdicts;
    d.fastestText = qs(verdicts.fastestText);
    d.etcdText = qs(verdicts.etcdText);
    d.etcdOk = verdicts.etcdOk;
    d.stoppedText = qs(lab.stopped);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SyncLabRow& row = rows[i];
        if (row.opsPerSecond <= 0)
            continue;
        const auto c = std::find_if(result.cases.begin(), result.cases.end(),
                                    [&row](const CaseResult& cr) { return cr.index == row.caseIndex; });
        if (c == result.cases.end())
            continue;
        Bar bar;
        // Every method says its file's shape: the same open_sync size runs rewriting and overwriting.
        bar.label = qs(row.method).simplified(); // pg's padded " 2 *  8kB" as "2 * 8kB"
        bar.label += QStringLiteral(", ") + QString::fromUtf8(shapeWords(row.shape));
        const bool trusted =
            std::find(distrusted.begin(), distrusted.end(), row.caseIndex) == distrusted.end();
        bar.kind = row.durability.durability != Durability::EachWrite ? Kind::NotDurable
                   : trusted                                          ? Kind::Durable
                                                                      : Kind::Distrusted;
        bar.why = qs(row.durability.why);
        bar.opsPerSecond = row.opsPerSecond;
        bar.usPerOp = row.usPerOp;
        if (row.durableCall && row.durableCall->p99Ns > 0) {
            bar.latency = row.durableCall;
            bar.p99Seconds = static_cast<double>(row.durableCall->p99Ns) / 1e9;
            bar.durableCall = qs(row.durableCallName);
        }
        // The whisker, for a method durable at each write: an op whose durable call took its p99. A sync
        // after the write adds the write's own median.
        if (bar.p99Seconds && bar.kind != Kind::NotDurable) {
            const double callsPerOp =
                static_cast<double>(row.opBytes) / static_cast<double>(c->testCase.chunkBytes);
            double opSeconds = *bar.p99Seconds * callsPerOp;
            const bool syncAfterWrite = row.durableCallName == "fsync" || row.durableCallName == "fdatasync";
            if (syncAfterWrite && c->callLatency)
                opSeconds += static_cast<double>(c->callLatency->summary.p50Ns) / 1e9;
            bar.p99OpsPerSecond = 1.0 / opSeconds;
        }
        bar.caseIndex = row.caseIndex;
        bar.fastest = verdicts.fastestDurable == i;
        auto size = std::find_if(d.sizes.begin(), d.sizes.end(),
                                 [&row](const OpSize& s) { return s.bytes == row.opBytes; });
        if (size == d.sizes.end()) {
            d.sizes.push_back({row.opBytes, {}, 0, 0});
            size = d.sizes.end() - 1;
        }
        size->bars.push_back(std::move(bar));
    }
    for (OpSize& size : d.sizes) {
        std::stable_sort(size.bars.begin(), size.bars.end(),
                         [](const Bar& a, const Bar& b) { return a.opsPerSecond > b.opsPerSecond; });
        for (const Bar& bar : size.bars) {
            for (const double v : {bar.opsPerSecond, bar.p99OpsPerSecond.value_or(bar.opsPerSecond)}) {
                size.minOps = size.minOps == 0 ? v : std::min(size.minOps, v);
                size.maxOps = std::max(size.maxOps, v);
            }
        }
    }
    std::stable_sort(d.sizes.begin(), d.sizes.end(), [](const OpSize& a, const OpSize& b) {
        if ((a.bytes == kPgOpBytes) != (b.bytes == kPgOpBytes))
            return a.bytes == kPgOpBytes;
        return a.bytes < b.bytes;
    });
    return d;
}

} // namespace iolab::report
