// SPDX-License-Identifier: MIT
#include "core/analysis/significance.h"

#include "core/analysis/warnings.h"
#include "core/base/stats.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace iolab {

namespace {

// The continued fraction of the regularized incomplete beta function (modified Lentz), which converges for
// x < (a + 1) / (a + b + 2).
double betaContinuedFraction(double a, double b, double x)
{
    constexpr int kMaxTerms = 300;
    constexpr double kEpsilon = 1e-14;
    constexpr double kTiny = 1e-300;
    const double qab = a + b;
    const double qap = a + 1;
    const double qam = a - 1;
    double c = 1;
    double d = 1 - qab * x / qap;
    if (std::fabs(d) < kTiny)
        d = kTiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= kMaxTerms; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < kTiny)
            d = kTiny;
        c = 1 + aa / c;
        if (std::fabs(c) < kTiny)
            c = kTiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (std::fabs(d) < kTiny)
            d = kTiny;
        c = 1 + aa / c;
        if (std::fabs(c) < kTiny)
            c = kTiny;
        d = 1 / d;
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1) < kEpsilon)
            break;
    }
    return h;
}

// I_x(a, b), the regularized incomplete beta function.
double incompleteBeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b;
}

struct Trimmed
{
    double mean = 0;
    double d = 0; // the squared standard error of the trimmed mean
    double h = 0; // values left after trimming
};

// From kTrimmedMeanMinCount values on, one lowest and one highest are trimmed (the trimmed mean's rule);
// the variance is of the winsorized values, each trimmed one replaced by its nearest kept neighbour.
Trimmed trim(std::span<const double> values)
{
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const std::size_t g = n >= kTrimmedMeanMinCount ? 1 : 0;
    const std::size_t h = n - 2 * g;
    Trimmed out;
    out.h = static_cast<double>(h);
    double sum = 0;
    for (std::size_t i = g; i < n - g; ++i)
        sum += sorted[i];
    out.mean = sum / out.h;
    std::vector<double> winsorized = sorted;
    for (std::size_t i = 0; i < g; ++i) {
        winsorized[i] = sorted[g];
        winsorized[n - 1 - i] = sorted[n - 1 - g];
    }
    const double variance = std::pow(sampleStddev(winsorized), 2);
    out.d = (static_cast<double>(n) - 1) * variance / (out.h * (out.h - 1));
    return out;
}

} // namespace

double studentTwoSidedP(double t, double df)
{
    if (!(df > 0))
        return 1;
    if (std::isinf(t))
        return 0;
    return incompleteBeta(df / 2, 0.5, df / (df + t * t));
}

RateTest yuenWelch(std::span<const double> a, std::span<const double> b)
{
    RateTest test;
    test.countA = a.size();
    test.countB = b.size();
    if (a.size() < 2 || b.size() < 2)
        return test;
    test.testable = true;
    const Trimmed x = trim(a);
    const Trimmed y = trim(b);
    const double se2 = x.d + y.d;
    const double difference = x.mean - y.mean;
    if (se2 <= 0) {
        // Repetitions that did not vary at all: any difference between them is real, none is none.
        test.df = x.h + y.h - 2;
        test.t = difference == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), difference);
        test.p = difference == 0 ? 1 : 0;
        return test;
    }
    test.t = difference / std::sqrt(se2);
    test.df = se2 * se2 / (x.d * x.d / (x.h - 1) + y.d * y.d / (y.h - 1));
    test.p = studentTwoSidedP(test.t, test.df);
    return test;
}

std::vector<double> rankedRepetitionRates(const CaseResult& c, Ranking ranking)
{
    const bool durable = ranksDurable(c.testCase, ranking);
    std::vector<double> rates;
    for (const auto& rep : c.repetitions) {
        if (!rep.warmup && rep.outcome.ok())
            rates.push_back(durable ? rep.durableMBps : rep.apparentMBps);
    }
    return rates;
}

RateDifference compareRates(std::span<const double> a, std::span<const double> b)
{
    RateDifference d;
    const double mb = median(b);
    d.ratio = mb > 0 ? median(a) / mb : 0;
    d.test = yuenWelch(a, b);
    if (!d.test.testable)
        d.kind = RateDifference::Kind::Untestable;
    else if (!d.test.significant())
        d.kind = RateDifference::Kind::Indistinguishable;
    else
        d.kind = d.test.t > 0 ? RateDifference::Kind::Faster : RateDifference::Kind::Slower;
    return d;
}

namespace {

// Welch's test from two summaries (mean, standard deviation, count), for results whose repetitions do not
// carry their rates (files written before the repetitions kept them).
RateTest welchFromSummaries(const Summary& a, const Summary& b)
{
    RateTest test;
    test.countA = a.count;
    test.countB = b.count;
    if (a.count < 2 || b.count < 2)
        return test;
    test.testable = true;
    // A summary made by hand (or by an older writer) may hold only the median and the CV.
    const auto centre = [](const Summary& s) {
        return s.mean > 0 ? s.mean : s.median;
    };
    const auto spread = [&](const Summary& s) {
        return s.stddev > 0 ? s.stddev : s.cv * centre(s);
    };
    const double da = spread(a) * spread(a) / static_cast<double>(a.count);
    const double db = spread(b) * spread(b) / static_cast<double>(b.count);
    const double difference = centre(a) - centre(b);
    if (da + db <= 0) {
        test.df = static_cast<double>(a.count + b.count - 2);
        test.t = difference == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), difference);
        test.p = difference == 0 ? 1 : 0;
        return test;
    }
    test.t = difference / std::sqrt(da + db);
    test.df = (da + db) * (da + db) /
              (da * da / static_cast<double>(a.count - 1) + db * db / static_cast<double>(b.count - 1));
    test.p = studentTwoSidedP(test.t, test.df);
    return test;
}

// Whether a case's repetitions carry the rates its summary was made from.
bool repetitionsCarry(const std::vector<double>& rates, const Summary& summary)
{
    return !rates.empty() && rates.size() == summary.count &&
           std::fabs(median(rates) - summary.median) <= 1e-9 * std::max(1.0, std::fabs(summary.median));
}

} // namespace

RateDifference compareCases(const CaseResult& a, const CaseResult& b, Ranking ranking)
{
    const auto ra = rankedRepetitionRates(a, ranking);
    const auto rb = rankedRepetitionRates(b, ranking);
    const Summary& sa = rankedRate(a, ranking);
    const Summary& sb = rankedRate(b, ranking);
    if (!repetitionsCarry(ra, sa) || !repetitionsCarry(rb, sb)) {
        RateDifference d;
        d.ratio = sb.median > 0 ? sa.median / sb.median : 0;
        d.test = welchFromSummaries(sa, sb);
        d.kind = !d.test.testable        ? RateDifference::Kind::Untestable
                 : !d.test.significant() ? RateDifference::Kind::Indistinguishable
                 : d.test.t > 0          ? RateDifference::Kind::Faster
                                         : RateDifference::Kind::Slower;
        return d;
    }
    RateDifference d = compareRates(ra, rb);
    // The ratio quoted is of the medians the table shows (older result files may hold summaries only).
    const double mb = rankedRate(b, ranking).median;
    if (mb > 0)
        d.ratio = rankedRate(a, ranking).median / mb;
    return d;
}

bool tooNoisyToRank(const CaseResult& c, Ranking ranking)
{
    const RepetitionSpread spread = repetitionSpread(c, ranking);
    const Summary& rate = rankedRate(c, ranking);
    return spread.used >= 2 && (spread.cv > kTooNoisyToRankCv || (rate.count >= 2 && rate.ciLow <= 0));
}

Lead leadOf(const RunResult& result, const std::vector<std::size_t>& indices, Ranking ranking)
{
    std::vector<std::size_t> order = indices;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return rankedRate(result.cases[a], ranking).median > rankedRate(result.cases[b], ranking).median;
    });
    Lead lead;
    if (order.empty())
        return lead;
    std::vector<std::size_t> rankable;
    for (std::size_t i : order)
        (tooNoisyToRank(result.cases[i], ranking) ? lead.tooNoisy : rankable).push_back(i);
    if (rankable.empty()) {
        rankable = std::move(order); // nothing steadier to rank them by: ranked as they are
        lead.tooNoisy.clear();
    }
    lead.top = rankable.front();
    const CaseResult& top = result.cases[lead.top];
    lead.noisierMeasuredHigher =
        !lead.tooNoisy.empty() &&
        rankedRate(result.cases[lead.tooNoisy.front()], ranking).median > rankedRate(top, ranking).median;
    for (std::size_t i = 1; i < rankable.size(); ++i) {
        const CaseResult& c = result.cases[rankable[i]];
        const RateDifference d = compareCases(top, c, ranking);
        // Out of the lead when any faster case beats it beyond the noise, not only the top.
        bool beaten = d.kind == RateDifference::Kind::Faster;
        for (std::size_t j = 1; j < i && !beaten; ++j)
            beaten = compareCases(result.cases[rankable[j]], c, ranking).kind == RateDifference::Kind::Faster;
        if (beaten) {
            if (!lead.next)
                lead.next = d;
            continue;
        }
        if (lead.tied.empty())
            lead.closest = d;
        lead.tied.push_back(rankable[i]);
        lead.untestable = lead.untestable || d.kind == RateDifference::Kind::Untestable;
    }
    return lead;
}

std::string tooNoisyToRankText(const RunResult& result, const std::vector<std::size_t>& indices,
                               Ranking ranking, const std::function<std::string(const CaseResult&)>& name)
{
    std::vector<std::string> parts;
    for (std::size_t i : indices) {
        const CaseResult& c = result.cases[i];
        const Summary& rate = rankedRate(c, ranking);
        parts.push_back(fmt::format("{} at {} (the repetitions vary by {:.1f}%, 95% CI {} to {})", name(c),
                                    formatMBps(rate.median), repetitionSpread(c, ranking).cv * 100,
                                    rate.ciLow <= 0 ? std::string("0") : formatMBps(rate.ciLow),
                                    formatMBps(rate.ciHigh)));
    }
    if (parts.empty())
        return {};
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i)
        joined += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return "Too noisy to rank, so set aside: " + joined + ".";
}

std::string describeTest(const RateTest& test)
{
    if (!test.testable)
        return fmt::format("{} and {} repetition{}: no spread to judge by", test.countA, test.countB,
                           test.countB == 1 ? "" : "s");
    const std::string p = test.p < 0.001 ? std::string("p < 0.001") : fmt::format("p = {:.2g}", test.p);
    const bool trimmed = test.countA >= kTrimmedMeanMinCount || test.countB >= kTrimmedMeanMinCount;
    return fmt::format("{}, {} over {} and {} repetitions", p,
                       trimmed ? "Yuen's trimmed t-test" : "Welch's t-test", test.countA, test.countB);
}

std::string whatWouldSeparate(const CaseResult& a, const CaseResult& b, Ranking ranking)
{
    const RepetitionSpread sa = repetitionSpread(a, ranking);
    const RepetitionSpread sb = repetitionSpread(b, ranking);
    std::vector<std::string> ways;
    const double ma = rankedRate(a, ranking).median;
    const double mb = rankedRate(b, ranking).median;
    const double relative = ma > 0 && mb > 0 ? std::fabs(ma - mb) / std::max(ma, mb) : 0;
    const double cv = std::max(sa.cv, sb.cv);
    std::string tooMany;   // the repetitions it would take, when more than is practical but still a count
    bool hopeless = false; // so many that more repetitions will not settle it
    if (sa.count < 2 || sb.count < 2) {
        ways.emplace_back("more repetitions (--reps 5)");
    } else if (relative > 0 && cv > 0) {
        // Each side's count for a two-sided 5% test to find the observed difference with 80% power, at the
        // larger of the two spreads: 2 (1.96 + 0.84)^2 (cv / difference)^2.
        const double needed = std::ceil(15.7 * (cv / relative) * (cv / relative));
        // Past a few dozen, repetitions are no way to run a benchmark: a longer repetition or a quieter
        // machine lowers the spread itself. Past a hundred the count itself says nothing useful.
        constexpr double kPracticalRepetitions = 50;
        constexpr double kSensibleRepetitions = 100;
        if (needed <= kPracticalRepetitions && needed > static_cast<double>(std::min(sa.count, sb.count)))
            ways.push_back(fmt::format("more repetitions (about {} each, --reps {})", needed, needed));
        else if (needed > kSensibleRepetitions)
            hopeless = true;
        else if (needed > kPracticalRepetitions)
            tooMany = fmt::format("about {}", needed);
    }
    const double seconds = std::min(rankedRepetitionSeconds(a, ranking), rankedRepetitionSeconds(b, ranking));
    const bool pipe = a.testCase.target == TargetKind::Pipe || b.testCase.target == TargetKind::Pipe;
    if (hopeless) {
        // What lowers the spread itself: longer repetitions, a reader that stays where it is, a quiet
        // machine.
        ways.push_back(seconds > 0 && seconds < 1.0
                           ? fmt::format("a longer case (--size or --duration; a repetition lasted {})",
                                         formatDuration(seconds))
                           : std::string("a longer case (--size or --duration)"));
        if (pipe && (a.testCase.readerCpu == ReaderCpu::Any || b.testCase.readerCpu == ReaderCpu::Any))
            ways.emplace_back("the reader pinned (--reader-cpu)");
    } else if (seconds > 0 && seconds < 1.0) {
        ways.push_back(fmt::format("a larger size (a repetition lasted {})", formatDuration(seconds)));
    }
    if (cv > kNoisyCv)
        ways.push_back(fmt::format("a quieter machine (the repetitions vary by {:.1f}% and {:.1f}%)",
                                   sa.cv * 100, sb.cv * 100));
    else if (hopeless)
        ways.emplace_back("a quieter machine");
    std::string text;
    for (std::size_t i = 0; i < ways.size(); ++i)
        text += (i == 0 ? "" : i + 1 == ways.size() ? " or " : ", ") + ways[i];
    if (hopeless)
        return fmt::format("more repetitions will not settle it (the {:.1f}% difference is small against the "
                           "spread); {} would",
                           relative * 100, text);
    if (!text.empty())
        text += " would separate them";
    if (!tooMany.empty())
        text += fmt::format("{}more repetitions alone would take {} each", text.empty() ? "" : "; ", tooMany);
    return text;
}

} // namespace iolab
