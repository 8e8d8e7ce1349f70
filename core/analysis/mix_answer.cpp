// SPDX-License-Identifier: MIT
#include "core/analysis/mix_answer.h"

#include "core/analysis/findings.h"
#include "core/analysis/latency_target.h"
#include "core/analysis/significance.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace iolab {

namespace {

bool measuredMix(const CaseResult& c)
{
    return c.status == Status::Ok && c.mix && c.mix->readMBps.count > 0;
}

// The p99 of one way, where the calls were timed.
std::string p99Words(const std::optional<LatencyDistribution>& latency)
{
    if (!latency || latency->summary.count == 0)
        return {};
    return fmt::format(", p99 {}", formatLatency(latencyAt(latency->summary, 99.0)));
}

} // namespace

std::string mixSideText(const CaseResult& c, bool reads)
{
    if (!measuredMix(c))
        return {};
    const CaseMix& m = *c.mix;
    const Summary& rate = reads ? m.readMBps : m.writeMBps;
    const Summary& iops = reads ? m.readIops : m.writeIops;
    return fmt::format("{} {}, {} IOPS{}", reads ? "reads" : "writes", formatMBps(rate.median),
                       formatThousands(iops.median), p99Words(reads ? m.readLatency : m.writeLatency));
}

std::vector<std::string> mixAnswers(const RunResult& result)
{
    std::vector<std::string> out;
    // Cases alike but for their read share (100% included: the same requests, all reads), ordered by it.
    std::map<std::string, std::vector<const CaseResult*>> sweeps;
    // Past a handful, each mix's own sentence is the table's Reads; writes column.
    constexpr std::size_t kShownCases = 6;
    std::size_t shown = 0;
    for (const CaseResult& c : result.cases) {
        if (c.status != Status::Ok || !c.testCase.readPercent || c.apparentMBps.count == 0)
            continue;
        if (measuredMix(c) && ++shown <= kShownCases)
            out.push_back(fmt::format("Mix, {}: {}, {}, {} together.", findingSubject(c),
                                      mixSideText(c, true), mixSideText(c, false),
                                      formatMBps(c.mix->readMBps.median + c.mix->writeMBps.median)));
        Case alike = c.testCase;
        alike.readPercent.reset();
        sweeps[alike.label()].push_back(&c);
    }
    if (shown > kShownCases)
        out.push_back(
            fmt::format("Mix: {} more mixes split their reads and writes as the table's Reads; writes "
                        "column shows.",
                        shown - kShownCases));
    for (auto& [label, cases] : sweeps) {
        if (cases.size() < 2)
            continue;
        std::sort(cases.begin(), cases.end(), [](const CaseResult* a, const CaseResult* b) {
            return *a->testCase.readPercent > *b->testCase.readPercent;
        });
        const auto total = [](const CaseResult& c) {
            return c.mix ? c.mix->readMBps.median + c.mix->writeMBps.median : c.apparentMBps.median;
        };
        std::string steps;
        for (const CaseResult* c : cases) {
            if (!steps.empty())
                steps += ", ";
            steps += fmt::format("{} at {}% reads", formatMBps(total(*c)), *c->testCase.readPercent);
        }
        const Case& k = cases.front()->testCase;
        std::string subject = fmt::format("{}, {}", k.strategy, formatBytes(k.chunkBytes));
        if (k.queueDepth > 1)
            subject += fmt::format(", QD {}", k.queueDepth);
        if (k.threads > 1)
            subject += fmt::format(", {} threads", k.threads);
        if (k.randomDist.hotSpot())
            subject += ", " + toString(k.randomDist);
        const double first = total(*cases.front());
        std::string change;
        if (first > 0) {
            // Stated as a fact only when it holds against the noise (significance.h), as every speed-up is.
            const RateDifference d = compareCases(*cases.back(), *cases.front(), Ranking::Apparent);
            const std::string ratio =
                fmt::format("{:.2f}x from {}% to {}% reads", total(*cases.back()) / first,
                            *cases.front()->testCase.readPercent, *cases.back()->testCase.readPercent);
            change = d.holds() ? fmt::format(" ({})", ratio)
                     : d.kind == RateDifference::Kind::Untestable
                         ? fmt::format("; the {} is not a finding ({})", ratio, describeTest(d.test))
                         : fmt::format("; the {} is within the noise ({})", ratio, describeTest(d.test));
        }
        out.push_back(fmt::format("Mix, {}, as writes take a larger share: {}{}.", subject, steps, change));
    }
    return out;
}

} // namespace iolab
