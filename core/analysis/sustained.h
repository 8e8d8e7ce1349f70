// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

// The question of a write until steady (Case::steady): how much can be written at full speed, and how fast
// after that? Read off the case's longest measured repetition's samples (the rate that reaches the disk: the
// device's where the watch read it, else the calls'):
// - the drop: the one split of the samples into a faster run and a slower one that explains most of the
//   rate's variance (the least squares of a step), taken only when the faster part is kSustainedDropFactor
//   times the slower and four in five samples of each part lie on their side of the midpoint;
// - the cache: the bytes written before the drop;
// - the steady rate: the watch's window where it settled, else the median after the drop.
inline constexpr double kSustainedDropFactor = 1.5;
inline constexpr std::size_t kSustainedMinSamples = 5; // on each side of a drop: half a second at 10 Hz

// One sample of the write, for the chart: its time since the repetition began, the bytes by then, its rate.
struct SustainedPoint
{
    double seconds = 0;
    std::uint64_t bytes = 0;
    double mbps = 0;
};

struct SustainedFigures
{
    std::int32_t repetition = 0; // the repetition the figures come from
    bool deviceRate = false;
    std::uint64_t writtenBytes = 0;          // by that repetition
    double seconds = 0;                      // its timed part
    double fastMBps = 0;                     // before the drop; without one, the whole write's median
    std::optional<std::uint64_t> cacheBytes; // written before the drop; nullopt: no drop
    double cacheSeconds = 0;
    double afterMBps = 0;              // after the drop: the steady rate where it settled there
    std::optional<SteadyState> steady; // where the watch found the rate steady
    bool steadyAfterDrop = false;      // that steady rate is the one behind the drop (below its midpoint)
    bool endedAtCap = false;           // its size or time limit ended it, not a steady rate
    double lowMBps = 0;                // the samples' 10th and 90th percentiles (a rate that never settled)
    double highMBps = 0;
    std::vector<SustainedPoint> points; // every sample of the repetition, the ramp included
    double rampSeconds = 0;             // the first seconds the figures leave out
};

// nullopt for a case that did not write until steady, or has too few samples to tell.
std::optional<SustainedFigures> sustainedFigures(const CaseResult& c);

// The answer in one sentence with its numbers; "" when there are no figures.
std::string sustainedAnswer(const CaseResult& c);

} // namespace iolab
