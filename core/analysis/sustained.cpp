// SPDX-License-Identifier: MIT
#include "core/analysis/sustained.h"

#include "core/analysis/findings.h"
#include "core/base/stats.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <span>
#include <vector>

namespace iolab {

namespace {

using Point = SustainedPoint;

// The split that leaves the least squared error about the two parts' means: the index of the slower part's
// first point.
std::size_t bestSplit(const std::vector<Point>& points)
{
    const std::size_t n = points.size();
    std::vector<double> sum(n + 1, 0.0);
    std::vector<double> squares(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        sum[i + 1] = sum[i] + points[i].mbps;
        squares[i + 1] = squares[i] + points[i].mbps * points[i].mbps;
    }
    const auto error = [&](std::size_t from, std::size_t to) {
        const double count = static_cast<double>(to - from);
        const double s = sum[to] - sum[from];
        return squares[to] - squares[from] - s * s / count;
    };
    std::size_t best = 0;
    double least = 0;
    for (std::size_t k = kSustainedMinSamples; k + kSustainedMinSamples <= n; ++k) {
        const double e = error(0, k) + error(k, n);
        if (best == 0 || e < least) {
            best = k;
            least = e;
        }
    }
    return best;
}

std::vector<double> ratesOf(std::span<const Point> points)
{
    std::vector<double> out;
    out.reserve(points.size());
    for (const auto& p : points)
        out.push_back(p.mbps);
    return out;
}

} // namespace

std::optional<SustainedFigures> sustainedFigures(const CaseResult& c)
{
    const Case& k = c.testCase;
    if (!k.steady.on() || k.direction != Direction::Write || c.status != Status::Ok)
        return std::nullopt;
    // The longest measured repetition.
    std::map<std::int32_t, std::size_t> counts;
    for (const auto& s : c.samples)
        if (!s.warmup && !s.syncing)
            ++counts[s.repetition];
    std::int32_t longest = -1;
    std::size_t most = 0;
    for (const auto& [rep, count] : counts)
        if (count > most) {
            longest = rep;
            most = count;
        }
    const auto rep = std::find_if(c.repetitions.begin(), c.repetitions.end(), [longest](const auto& r) {
        return static_cast<std::int32_t>(r.index) == longest;
    });
    if (longest < 0 || rep == c.repetitions.end() || !rep->outcome.ok())
        return std::nullopt;
    SustainedFigures f;
    f.repetition = longest;
    f.steady = rep->steady;
    f.deviceRate = rep->steady ? rep->steady->deviceRate : false;
    f.writtenBytes = rep->bytes;
    f.seconds = rep->returnSeconds;
    f.endedAtCap = !rep->steady;
    // The watch skips a ramp of min(2 s, a quarter window); so do the figures.
    const double ramp = steadyRampSeconds(k.steady);
    std::vector<Point> points;
    double first = -1;
    for (const auto& s : c.samples) {
        if (s.warmup || s.syncing || s.repetition != longest)
            continue;
        if (first < 0) // the repetition began one sampling interval before its first sample
            first = s.runSeconds -
                    (s.intervalMBps > 0 ? static_cast<double>(s.bytesDone) / (s.intervalMBps * 1e6) : 0.0);
        const Point point{s.runSeconds - first, f.deviceRate ? s.deviceWrittenBytes : s.bytesDone,
                          f.deviceRate ? s.deviceWriteMBps : s.intervalMBps};
        f.points.push_back(point);
        if (point.seconds >= ramp)
            points.push_back(point);
    }
    f.rampSeconds = ramp;
    if (points.size() < 2 * kSustainedMinSamples)
        return std::nullopt;
    const auto all = ratesOf(points);
    f.fastMBps = median(all);
    f.afterMBps = f.steady ? f.steady->mbps : f.fastMBps;
    f.lowMBps = percentile(all, 10);
    f.highMBps = percentile(all, 90);
    const std::size_t split = bestSplit(points);
    if (split == 0)
        return f;
    const auto before = ratesOf(std::span(points).first(split));
    const auto after = ratesOf(std::span(points).subspan(split));
    const double fast = median(before);
    const double slow = median(after);
    const double mid = (fast + slow) / 2;
    const auto share = [](const std::vector<double>& v, auto pred) {
        return static_cast<double>(std::count_if(v.begin(), v.end(), pred)) / static_cast<double>(v.size());
    };
    if (slow <= 0 || fast < kSustainedDropFactor * slow ||
        share(before, [mid](double r) { return r > mid; }) < 0.8 ||
        share(after, [mid](double r) { return r < mid; }) < 0.8)
        return f;
    f.fastMBps = fast;
    f.cacheBytes = points[split - 1].bytes;
    f.cacheSeconds = points[split - 1].seconds;
    // The watch's window may begin a sample or two before the step found here: its rate is the one behind
    // the drop whenever it lies on the slow side of the midpoint.
    f.steadyAfterDrop = f.steady && f.steady->mbps < mid;
    f.afterMBps = f.steadyAfterDrop ? f.steady->mbps : slow;
    return f;
}

std::string sustainedAnswer(const CaseResult& c)
{
    const auto f = sustainedFigures(c);
    const Case& k = c.testCase;
    if (!f) {
        // Watched, but over too short a write to tell.
        const auto rep = std::find_if(c.repetitions.begin(), c.repetitions.end(),
                                      [](const RepetitionResult& r) { return !r.warmup && r.outcome.ok(); });
        if (!k.steady.on() || c.status != Status::Ok || rep == c.repetitions.end())
            return {};
        return fmt::format("Sustained write, {}: it ended after {} ({:.1f} s), too soon to judge its rate: a "
                           "{} window needs the write to last {:.0f} s at least. Give it a larger size or a "
                           "longer time limit.",
                           findingSubject(c), formatBytes(rep->bytes), rep->returnSeconds,
                           formatTimeLimitMs(k.steady.windowMs),
                           steadyRampSeconds(k.steady) + k.steady.windowMs / 1000.0);
    }
    const std::string subject = findingSubject(c);
    const std::string written = formatBytes(f->writtenBytes);
    const char* rate = f->deviceRate ? "the device wrote" : "it wrote";
    if (f->cacheBytes) {
        std::string text = fmt::format(
            "Sustained write, {}: {} at {} for the first {} ({:.1f} s), then at {}", subject, rate,
            formatMBps(f->fastMBps), formatBytes(*f->cacheBytes), f->cacheSeconds, formatMBps(f->afterMBps));
        if (f->steadyAfterDrop)
            text += fmt::format(", steady from {:.1f} s", std::max(f->steady->fromSeconds, f->cacheSeconds));
        else
            text += fmt::format(" (not yet steady when its {} ended it)",
                                k.timeLimitMs != 0 &&
                                        f->seconds * 1000 >= static_cast<double>(k.timeLimitMs) * 0.99
                                    ? "time limit"
                                    : "size");
        return text +
               fmt::format(": a fast cache of about {} in front of the medium; a longer write gets {}, "
                           "{:.1f}x slower.",
                           formatBytes(*f->cacheBytes), formatMBps(f->afterMBps), f->fastMBps / f->afterMBps);
    }
    if (f->steady) {
        std::string text = fmt::format("Sustained write, {}: {} at a steady {} from {:.1f} s ({} written by "
                                       "then), with no drop before it",
                                       subject, rate, formatMBps(f->steady->mbps), f->steady->fromSeconds,
                                       formatBytes(f->steady->fromBytes));
        if (k.steady.mode == SteadyMode::Settle)
            text +=
                "; a fast cache may still fill later: past-cache (the sustained preset) writes on until a "
                "slower steady rate or its caps";
        return text + ".";
    }
    const bool flat = f->lowMBps > 0 && f->highMBps <= f->lowMBps * (1 + 2 * 0.10);
    if (k.steady.mode == SteadyMode::PastCache && flat)
        return fmt::format(
            "Sustained write, {}: no drop within the {} written ({:.1f} s): {} at {} throughout. "
            "Any fast cache in front of the medium is larger than that, or there is none.",
            subject, written, f->seconds, rate, formatMBps(f->fastMBps));
    return fmt::format("Sustained write, {}: the rate did not settle within the {} written ({:.1f} s): {} at "
                       "{} to {} (10th to 90th percentile), median {}. Give it a larger size or a longer "
                       "time limit.",
                       subject, written, f->seconds, rate, formatMBps(f->lowMBps), formatMBps(f->highMBps),
                       formatMBps(f->fastMBps));
}

} // namespace iolab
