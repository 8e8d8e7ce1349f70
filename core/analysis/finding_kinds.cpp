// SPDX-License-Identifier: MIT
#include "core/analysis/finding_kinds.h"

#include "core/analysis/warnings.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <stdexcept>

namespace iolab {

namespace {

using Kind = Finding::Kind;

// The declarations in the order of Finding::Kind. The Summary's importance, lowest first: what makes the
// figures wrong (0-1), what is missing from them (2-3), what they describe (4-7), how far to trust them
// (8-10), and details (11-13).
std::vector<FindingKindSpec> declareFindingKinds()
{
    std::vector<FindingKindSpec> kinds{
        {.kind = Kind::Fastest, .id = "fastest", .title = "fastest", .mark = FindingMark::Answer},
        {.kind = Kind::DurableGap,
         .id = "durable-gap",
         .title = "durable gap",
         .importance = 8,
         .advice = "If the data must survive a power cut, compare the durable rates, not the apparent ones.",
         .terms = {Term::Apparent, Term::Durable, Term::Fsync, Term::PageCache}},
        {.kind = Kind::Noise,
         .id = "noise",
         .title = "noise",
         .importance = 9,
         .advice =
             "Run again on an idle machine, or with more repetitions, before trusting small differences.",
         .terms = {Term::Spread, Term::Ci}},
        {.kind = Kind::Short,
         .id = "short",
         .title = "short",
         .importance = 10,
         .advice = fmt::format("Give these cases more data, so that a repetition lasts well over {}.",
                               formatDuration(kShortRepetitionSeconds))},
        {.kind = Kind::CacheIllusion,
         .id = "cache-illusion",
         .title = "cache illusion",
         .importance = 1,
         .advice = "Judge these cases by their durable rate, or write more data than twice the RAM.",
         .terms = {Term::Apparent, Term::Durable, Term::Fsync, Term::PageCache}},
        {.kind = Kind::DirectIgnored,
         .id = "direct-ignored",
         .title = "O_DIRECT not honoured",
         .mark = FindingMark::Bad,
         .importance = 0,
         .advice = "Measure direct I/O on a filesystem backed by a device; these figures describe memory.",
         .terms = {Term::Direct, Term::PageCache}},
        {.kind = Kind::FinalFlush,
         .id = "final-flush",
         .title = "final flush",
         .importance = 11,
         .advice =
             "No fault: this is what making direct writes durable costs here; a file written in place or "
             "preallocated has fewer new blocks to flush.",
         .terms = {Term::Fsync, Term::Direct, Term::PageCache}},
        {.kind = Kind::Tail,
         .id = "tail",
         .title = "latency tail",
         .importance = 12,
         .advice = "If a slow call matters more than the average (a request with a deadline, a log commit), "
                   "judge these cases by their p99.9, not by MB/s."},
        {.kind = Kind::QueueDepth,
         .id = "queue-depth",
         .title = "queue depth",
         .importance = 13,
         .advice = "Requests in flight past the depth where the rate stops growing only wait longer each."},
        {.kind = Kind::FlushHonesty,
         .id = "flush-honesty",
         .title = "flush honesty",
         .importance = 5,
         .advice =
             "Before counting on these syncs for durability, find out what caches the writes below the "
             "filesystem (the drive's write cache, a RAID controller, the host of a virtual machine) and "
             "whether it survives a power cut; turning a volatile cache off makes the figures honest.",
         .terms = {Term::Fsync, Term::Durable}},
        {.kind = Kind::Storage,
         .id = "storage",
         .title = "storage stack",
         .importance = 4,
         .advice = "Compare these figures only with ones measured through the same layers; to judge the disk "
                   "itself, measure on a filesystem straight on it."},
        {.kind = Kind::CpuBound,
         .id = "cpu-bound",
         .title = "CPU-bound",
         .importance = 7,
         .advice =
             "The storage is not what limits these cases: fewer, larger calls (or unlocked stdio, or more "
             "threads) move the figure; a faster disk would not."},
        {.kind = Kind::CacheCliff,
         .id = "cache-cliff",
         .title = "cache cliff",
         .importance = 6,
         .advice = "Size a test past the cache and judge the rate after the drop: that is what a long write "
                   "sustains."},
        {.kind = Kind::Compression,
         .id = "compression",
         .title = "compression",
         .importance = 6,
         .advice =
             "Judge the disk by the incompressible figure; test with data like the application's own when "
             "its compressibility matters."},
        {.kind = Kind::Failed,
         .id = "failed",
         .title = "failed",
         .mark = FindingMark::Bad,
         .importance = 2,
         .advice = "Read the reason, fix the cause and run the case again; it is missing from the answer."},
        {.kind = Kind::Cancelled,
         .id = "cancelled",
         .title = "cancelled",
         .mark = FindingMark::Bad,
         .importance = 3,
         .advice = "Run the matrix to its end for a complete answer."},
        {.kind = Kind::Heat,
         .id = "heat",
         .title = "thermal throttling",
         .importance = 5,
         .advice =
             "Cool the drive (air flow, a heatsink) or let it cool between runs; a sustained load on it "
             "runs at the slower rate, so judge long writes by it."},
    };
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        if (static_cast<std::size_t>(kinds[i].kind) != i)
            throw std::logic_error(fmt::format("finding kind '{}' is declared out of order", kinds[i].id));
    }
    return kinds;
}

} // namespace

const std::vector<FindingKindSpec>& findingKinds()
{
    static const std::vector<FindingKindSpec> kinds = declareFindingKinds();
    return kinds;
}

const FindingKindSpec& findingKind(Finding::Kind kind)
{
    const auto index = static_cast<std::size_t>(kind);
    if (index >= findingKinds().size())
        throw std::logic_error(fmt::format("finding kind {} has no declaration", index));
    return findingKinds()[index];
}

std::string toString(Finding::Kind kind)
{
    return findingKind(kind).title;
}

} // namespace iolab
