// SPDX-License-Identifier: MIT
#include "core/analysis/ranking.h"

#include "core/base/error.h"

#include <fmt/format.h>

namespace iolab {

std::string toString(Ranking ranking)
{
    return ranking == Ranking::Apparent ? "apparent" : "durable";
}

Ranking parseRanking(std::string_view text)
{
    if (text == "durable")
        return Ranking::Durable;
    if (text == "apparent")
        return Ranking::Apparent;
    throw InputError(fmt::format("unknown ranking '{}' (use durable, apparent)", text));
}

ComparisonGroup comparisonGroup(const Case& c)
{
    if (c.direction == Direction::Read)
        return c.cache == CacheState::Warm ? ComparisonGroup::WarmReads : ComparisonGroup::ColdReads;
    return c.target == TargetKind::Directory ? ComparisonGroup::FileWrites : ComparisonGroup::StreamWrites;
}

std::string toString(ComparisonGroup group)
{
    switch (group) {
    case ComparisonGroup::FileWrites:
        return "writes to a file";
    case ComparisonGroup::StreamWrites:
        return "writes into a pipe or the null device";
    case ComparisonGroup::ColdReads:
        return "reads from a cold cache";
    case ComparisonGroup::WarmReads:
        return "reads from a warm cache";
    }
    return "?";
}

// A read/write mix writes to a file too: ranked by what reached the disk, its writes' fsync included, so that
// writes the page cache only took do not win it the lead.
bool ranksDurable(const Case& c, Ranking ranking)
{
    return ranking == Ranking::Durable && (comparisonGroup(c) == ComparisonGroup::FileWrites || mixes(c));
}

HeadlineLatency headlineLatency(const CaseResult& c)
{
    const SyncPolicy& sync = c.testCase.sync;
    if (sync.loopSyncEvery() > 0 && c.syncLatency && c.syncLatency->summary.count > 0)
        return {&*c.syncLatency, syncCallName(sync.mode), true};
    if (c.callLatency && c.callLatency->summary.count > 0)
        return {&*c.callLatency, "call", false};
    return {};
}

const Summary& rankedRate(const CaseResult& c, Ranking ranking)
{
    return ranksDurable(c.testCase, ranking) ? c.durableMBps : c.apparentMBps;
}

} // namespace iolab
