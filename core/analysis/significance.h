// SPDX-License-Identifier: MIT
// Whether one rate is faster than another beyond the noise of their repetitions (issue 34): the rule every
// "fastest", every speed-up quoted as a fact, History's comparison and the findings that compare two cases
// share. Yuen's trimmed-mean t-test with Welch's degrees of freedom, two-sided at 95%: with fewer than
// kTrimmedMeanMinCount repetitions it is Welch's t-test itself; from there on the lowest and the highest
// repetition are trimmed (and winsorized for the variance), as the trimmed mean and the noise rule leave them
// out, so that one repetition a host slowed down does not hide a real lead nor make one.
#pragma once

#include "core/analysis/ranking.h"
#include "core/model/result.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace iolab {

inline constexpr double kSignificanceLevel = 0.05; // a difference is named at 95% confidence

struct RateTest
{
    bool testable = false; // both sides had two repetitions or more to judge their spread by
    double t = 0;          // the statistic (a's trimmed mean over b's)
    double df = 0;         // Welch-Satterthwaite degrees of freedom
    double p = 1;          // two-sided
    std::size_t countA = 0;
    std::size_t countB = 0;

    bool significant() const noexcept { return testable && p < kSignificanceLevel; }
};

// Yuen-Welch over two sets of repetition values.
RateTest yuenWelch(std::span<const double> a, std::span<const double> b);

// Two-sided p of Student's t with `df` (not necessarily whole) degrees of freedom.
double studentTwoSidedP(double t, double df);

// The measured, successful repetitions' values of the rate a case is ranked by (durable MB/s for a file
// write under Ranking::Durable, else apparent).
std::vector<double> rankedRepetitionRates(const CaseResult& c, Ranking ranking);

// How two cases' ranked rates compare.
struct RateDifference
{
    enum class Kind
    {
        Faster,            // a is faster than b beyond the noise
        Slower,            // a is slower than b beyond the noise
        Indistinguishable, // the difference is within the noise
        Untestable         // a side has a single repetition: its spread is unknown
    };
    Kind kind = Kind::Untestable;
    double ratio = 0; // a's median over b's
    RateTest test;

    bool holds() const noexcept { return kind == Kind::Faster || kind == Kind::Slower; }
};
RateDifference compareRates(std::span<const double> a, std::span<const double> b);
RateDifference compareCases(const CaseResult& a, const CaseResult& b, Ranking ranking);

// A case whose repetitions spread this much (CV), or whose 95% interval reaches down to zero, is too noisy to
// rank: beside it every other case would be "within the noise", however far apart they are from each other.
inline constexpr double kTooNoisyToRankCv = 0.3;
bool tooNoisyToRank(const CaseResult& c, Ranking ranking);

// The lead of a set of cases (indices into result.cases), by the ranked rate: the case with the highest
// median and every case that no other case beats beyond the noise (within the noise of all faster ones, or a
// single repetition on either side), fastest first; so two cases clearly apart are never tied together
// through a third. Cases too noisy to rank are set aside first (`tooNoisy`), unless all of them are. A case
// is named fastest only when `tied` is empty.
struct Lead
{
    std::size_t top = 0;
    std::vector<std::size_t> tied;
    std::vector<std::size_t> tooNoisy; // set aside, fastest first
    // A case set aside measured higher than the top: the top leads only the cases steady enough to rank,
    // and the answer says so instead of calling it the fastest.
    bool noisierMeasuredHigher = false;
    bool untestable = false;            // some tie is only for want of repetitions
    std::optional<RateDifference> next; // top against the fastest case outside the lead, where there is one
    RateDifference closest;             // top against the fastest tied case (when any)
};
Lead leadOf(const RunResult& result, const std::vector<std::size_t>& indices, Ranking ranking);

// The cases set aside as too noisy to rank, in a sentence: "Too noisy to rank, so set aside: `x` at 7.16 GB/s
// (the repetitions vary by 55.8%, 95% CI 0 to 13.31 GB/s)." "" when there are none.
std::string tooNoisyToRankText(const RunResult& result, const std::vector<std::size_t>& indices,
                               Ranking ranking, const std::function<std::string(const CaseResult&)>& name);

// "p = 0.09, Welch's t-test over 5 and 5 repetitions": how a test was judged, for the reader who asks.
std::string describeTest(const RateTest& test);

// What would separate two cases whose difference is within the noise, from their repetitions and spread:
// "more repetitions (about 8 each, --reps 8), a larger size (...) or a quieter machine (...) would separate
// them"; where the repetitions it would take are past a few dozen, "more repetitions alone would take about
// 70 each" instead of offering them, and past a hundred, "more repetitions will not settle it (...); a longer
// case (--size or --duration), the reader pinned (--reader-cpu) or a quieter machine would". "" when nothing
// can be said.
std::string whatWouldSeparate(const CaseResult& a, const CaseResult& b, Ranking ranking);

} // namespace iolab
