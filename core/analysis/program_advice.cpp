// SPDX-License-Identifier: MIT
#include "core/analysis/program_advice.h"

#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/base/words.h"
#include "core/engine/replay_variants.h"
#include "core/engine/run_plan.h"
#include "core/model/axes.h"

#include <fmt/format.h>

#include <algorithm>

namespace iolab {

namespace {

AdvisedWay wayOf(const CaseResult& c, const std::string& variant)
{
    AdvisedWay way;
    way.variant = variant;
    way.label = c.testCase.label();
    way.status = c.status;
    way.reason = c.reason;
    way.durableMBps = c.durableMBps.median;
    std::vector<double> inside;
    std::vector<double> run;
    for (const auto& rep : c.repetitions) {
        if (rep.warmup || !rep.outcome.ok() || !rep.insideSeconds)
            continue;
        inside.push_back(*rep.insideSeconds);
        run.push_back(rep.returnSeconds);
        if (way.reason.empty() && !rep.outcome.ok())
            way.reason = rep.outcome.message;
    }
    for (const auto& rep : c.repetitions)
        if (way.reason.empty() && !rep.outcome.ok())
            way.reason = rep.outcome.message;
    way.repetitions = static_cast<std::uint32_t>(inside.size());
    way.insideSeconds = inside.empty() ? 0 : median(inside);
    way.returnSeconds = run.empty() ? 0 : median(run);
    if (c.replay) {
        way.writeCalls = c.replay->writeCalls;
        way.syncCalls = c.replay->syncCalls;
    }
    if (c.atRisk && c.atRisk->maxBytes)
        way.maxAtRiskBytes = *c.atRisk->maxBytes;
    return way;
}

const CaseResult* caseOf(const RunResult& result, const std::string& label)
{
    for (const CaseResult& c : result.cases)
        if (c.testCase.label() == label)
            return &c;
    return nullptr;
}

bool measured(const AdvisedWay& way)
{
    return way.status == Status::Ok && way.repetitions > 0;
}

// How many times as fast as the program's own calls `way` runs (its time to run against theirs).
double runRatio(const AdvisedWay& own, const AdvisedWay& way)
{
    return way.returnSeconds > 0 ? own.returnSeconds / way.returnSeconds : 0;
}

// "7.4x faster", "12% faster"
std::string speedUp(double ratio)
{
    if (ratio >= 1.995)
        return fmt::format("{:.1f}x faster", ratio);
    return fmt::format("{:.0f}% faster", (ratio - 1.0) * 100);
}

std::string noiseWords(const RateDifference& d)
{
    switch (d.kind) {
    case RateDifference::Kind::Faster:
    case RateDifference::Kind::Slower:
        return d.test.p < 0.001 ? "the difference well outside the noise"
                                : fmt::format("the difference outside the noise, p = {:.3f}", d.test.p);
    case RateDifference::Kind::Indistinguishable:
        return "within the noise";
    case RateDifference::Kind::Untestable:
        return "one repetition each: the noise is unknown";
    }
    return {};
}

void addWayLines(std::vector<std::string>& lines, const VariantAdvice& advice, const std::string& indent)
{
    lines.push_back(indent + "The change: " + advice.change + ".");
    std::size_t start = 0;
    while (start <= advice.snippet.size()) {
        const std::size_t end = advice.snippet.find('\n', start);
        lines.push_back(
            indent + "    " +
            advice.snippet.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    lines.push_back(indent + "Elsewhere: " + advice.others + ".");
    lines.push_back(indent + "Besides speed: " + advice.cost + ".");
}

} // namespace

ProgramAdvice adviseProgram(const RunResult& result, const ReplayScript& recorded,
                            const ProgramProfile& profile)
{
    ProgramAdvice advice;
    advice.program = recorded.program.empty() ? recorded.traceName : recorded.program;
    const CaseResult* programCase = nullptr;
    for (const CaseResult& c : result.cases) {
        if (c.testCase.strategy != kReplayStrategy)
            continue;
        const std::string variant = extraAxisValue(c.testCase, "replay-variant", std::string(kRecordedCalls));
        if (variant == kRecordedCalls) {
            programCase = &c;
            advice.recorded = wayOf(c, variant);
        }
    }
    const auto contract = durabilityContract(recorded);
    for (const CaseResult& c : result.cases) {
        if (c.testCase.strategy != kReplayStrategy)
            continue;
        const std::string variant = extraAxisValue(c.testCase, "replay-variant", std::string(kRecordedCalls));
        if (variant == kRecordedCalls)
            continue;
        AdvisedWay way = wayOf(c, variant);
        const ReplayVariant kind = parseReplayVariant(variant);
        way.weaker = kind.weakens();
        if (way.weaker)
            if (const auto script = applyVariant(recorded, kind))
                way.breach = contractBreach(recorded, contract, durabilityContract(*script));
        if (programCase != nullptr && measured(way) && advice.recorded && measured(*advice.recorded)) {
            way.vsProgram = compareCases(c, *programCase, Ranking::Durable);
            way.runVsProgram = compareCases(c, *programCase, Ranking::Apparent);
        }
        (way.weaker ? advice.weaker : advice.ways).push_back(std::move(way));
    }
    std::stable_sort(advice.ways.begin(), advice.ways.end(), [](const AdvisedWay& a, const AdvisedWay& b) {
        if (measured(a) != measured(b))
            return measured(a);
        return a.durableMBps > b.durableMBps;
    });

    auto& lines = advice.lines;
    const double inside = static_cast<double>(profile.insideNs) / 1e9;
    const double wall = static_cast<double>(profile.wallNs) / 1e9;
    const double share = wall > 0 ? inside / wall : 1.0;
    const std::uint64_t points = contract.syncPoints;
    std::string calls = fmt::format("{} write call{} to files", countInWords(profile.writeCalls),
                                    profile.writeCalls == 1 ? "" : "s");
    if (profile.writeCalls > 0)
        calls +=
            fmt::format(" of {} on average ({} in all)",
                        formatBytes(profile.bytesWritten / profile.writeCalls), writeCallsInWords(profile));
    if (const std::string syncs = syncCallsInWords(profile); !syncs.empty())
        calls += " and " + syncs;
    if (profile.bytesWritten == 0 || recorded.bytesWritten == 0) {
        lines.push_back(
            fmt::format("{} wrote nothing to a file the recorder saw: there is nothing to advise on "
                        "(iolab-cli profile says what it did).",
                        advice.program));
        return advice;
    }
    // One thread's time inside its calls is within its run (a longer one is the clocks' rounding).
    const std::string share100 =
        share <= 1.0 || profile.threads <= 1
            ? fmt::format("{:.0f}% of its {}", std::min(share, 1.0) * 100,
                          formatDuration(std::max(wall, inside)))
            : fmt::format("summed over its {} threads; it ran {}", profile.threads, formatDuration(wall));
    lines.push_back(
        fmt::format("Your program spent {} in file I/O ({}): {}.", formatDuration(inside), share100, calls));
    if (!advice.recorded || !measured(*advice.recorded)) {
        lines.push_back(
            fmt::format("Its own calls could not be replayed here ({}), so no other way can be set "
                        "beside them.",
                        advice.recorded ? advice.recorded->reason : "the replay did not run"));
        return advice;
    }
    // What the advice cannot cover: calls on files the replay leaves out, and what the recorder could not
    // see.
    std::vector<std::string> unseen;
    std::string caveat; // said last: the lead and the answer come first
    for (const auto& [reason, n] : recorded.leftOut)
        if (reason.find("not a file") == std::string::npos)
            unseen.push_back(fmt::format("{} call{} {}", countInWords(n), n == 1 ? "" : "s", reason));
    if (!profile.notes.empty())
        unseen.push_back(fmt::format("{} thing{} the recorder could not see (iolab-cli profile lists them)",
                                     profile.notes.size(), profile.notes.size() == 1 ? "" : "s"));
    if (profile.unseenDescriptorWrites > 0)
        unseen.push_back(fmt::format("{} write{} to descriptors it never saw opened",
                                     countInWords(profile.unseenDescriptorWrites),
                                     profile.unseenDescriptorWrites == 1 ? "" : "s"));
    if (!unseen.empty())
        caveat = ("The advice covers only what the replay makes: it leaves out " + joinWords(unseen) + ".");
    const AdvisedWay& own = *advice.recorded;
    const std::string durability = points == 0 ? std::string("no durability point (it never syncs)")
                                               : fmt::format("the same {} durability point{}",
                                                             countInWords(points), points == 1 ? "" : "s");
    // Several ways are each set against the program: a way is named only where its lead holds at 95% over
    // them all (Bonferroni: each test at 5% divided by the number of ways measured).
    const auto tried = static_cast<double>(
        std::max<std::ptrdiff_t>(1, std::count_if(advice.ways.begin(), advice.ways.end(), measured)));
    // A way is named where it is faster beyond the noise both by its time to run (what the program gets) and
    // by the durable rate (what reached the disk, its end's flush too): one that only leaves less to flush
    // at the end saves the program nothing.
    const auto beats = [&](const RateDifference& d) {
        return d.kind == RateDifference::Kind::Faster && d.test.p < kSignificanceLevel / tried;
    };
    const auto holds = [&](const AdvisedWay& way) {
        return measured(way) && beats(way.vsProgram) && beats(way.runVsProgram);
    };
    const AdvisedWay* best = nullptr;
    for (const AdvisedWay& way : advice.ways)
        if (holds(way)) {
            best = &way;
            break;
        }
    if (best != nullptr) {
        const VariantAdvice words = adviceFor(parseReplayVariant(best->variant), recorded.system);
        // The speed-up a program gets is its time to run: the same durability at every point is in the calls
        // of both. The durable rate, which ranks the ways, also counts making durable what the program left
        // unsynced at its end (the renames after its last sync, say), which neither makes.
        const double faster = runRatio(own, *best);
        lines.push_back(fmt::format(
            "The same bytes with {} take {} to run where your program's own calls take {}, if you {} ({}): "
            "{} ({:.2f}x your program's speed), measured here ({} repetitions, {}; by the durable rate, "
            "which "
            "also counts making durable what the program left unsynced at its end, {:.0f} against {:.0f} "
            "MB/s, {:.2f}x).",
            durability, formatDuration(best->returnSeconds), formatDuration(own.returnSeconds), words.change,
            best->variant, speedUp(faster), faster, best->repetitions, noiseWords(best->runVsProgram),
            best->durableMBps, own.durableMBps, best->vsProgram.ratio));
        // Another way that also beats the program and that the best does not beat beyond the noise is as
        // good.
        for (const AdvisedWay& way : advice.ways) {
            if (&way == best || !holds(way))
                continue;
            const auto* bestCase = caseOf(result, best->label);
            const auto* wayCase = caseOf(result, way.label);
            if (bestCase != nullptr && wayCase != nullptr &&
                compareCases(*bestCase, *wayCase, Ranking::Durable).kind != RateDifference::Kind::Faster)
                lines.push_back(
                    fmt::format("  {} is as fast within the noise ({:.0f} MB/s durable): either will do.",
                                way.variant, way.durableMBps));
        }
        // A way that ran faster still, but whose lead the repetitions could not hold against the noise (a
        // noisy way among many tried): said, so that the one named is not taken for the fastest.
        for (const AdvisedWay& way : advice.ways)
            if (&way != best && measured(way) && !holds(way) && runRatio(own, way) > faster)
                lines.push_back(fmt::format("  {} ran faster still here ({:.2f}x your program's speed), but "
                                            "its lead is not beyond the "
                                            "noise of {} repetitions over the {} ways tried: more "
                                            "repetitions would say whether it is "
                                            "the faster way (iolab-cli advise --reps 9).",
                                            way.variant, runRatio(own, way), way.repetitions,
                                            static_cast<int>(tried)));
        addWayLines(lines, words, "  ");
    } else {
        std::string why;
        if (share < 0.2 && wall > 0)
            why = fmt::format(
                " File I/O is {:.0f}% of this program's time: making it faster would save at most "
                "{}.",
                share * 100, formatDuration(inside));
        const auto measuredWays =
            static_cast<std::size_t>(std::count_if(advice.ways.begin(), advice.ways.end(), measured));
        if (profile.syncs > 0 && own.syncCalls > 0) {
            const double perSync = static_cast<double>(profile.syncTimes.percentileNs(50)) / 1e9;
            // A way that keeps every durability point with fewer sync calls (one syncfs for a batch, a group
            // commit) has no such floor: the floor is said only where every way measured made them all.
            const bool allSync =
                std::all_of(advice.ways.begin(), advice.ways.end(), [&](const AdvisedWay& w) {
                    return !parseReplayVariant(w.variant).fewerSyncCalls() && w.syncCalls >= own.syncCalls;
                });
            if (allSync)
                why += fmt::format(" Every way needs the {} sync{}, and each took {} at the median when the "
                                   "program was recorded: the floor is {}.",
                                   countInWords(own.syncCalls), own.syncCalls == 1 ? "" : "s",
                                   formatLatency(perSync),
                                   formatDuration(perSync * static_cast<double>(own.syncCalls)));
            else
                why += fmt::format(" Its {} sync{} took {} each at the median when the program was recorded "
                                   "({} in all).",
                                   countInWords(own.syncCalls), own.syncCalls == 1 ? "" : "s",
                                   formatLatency(perSync),
                                   formatDuration(perSync * static_cast<double>(own.syncCalls)));
        }
        if (advice.ways.empty())
            lines.push_back(
                fmt::format("No other way IOLab knows changes anything in this program and keeps its "
                            "durability: keep writing as it does.{}",
                            why));
        else if (measuredWays == 0)
            lines.push_back(fmt::format("No other way that keeps your program's durability could be measured "
                                        "here ({} failed or not run, below), so none can be named; try again "
                                        "once what failed is fixed.{}",
                                        countInWords(advice.ways.size()), why));
        else if (measuredWays == 1)
            lines.push_back(
                fmt::format("The one way IOLab measured that keeps your program's durability is not "
                            "faster here beyond the noise, both to run and by the durable rate: "
                            "keep writing as it does.{}",
                            why));
        else
            lines.push_back(
                fmt::format("None of the {} ways IOLab measured that keep your program's durability "
                            "is faster here beyond the noise, both to run and by the durable rate: "
                            "keep writing as it does.{}",
                            measuredWays, why));
    }
    bool headed = false;
    for (const AdvisedWay& way : advice.ways) {
        if (&way == best)
            continue;
        if (!headed) {
            lines.emplace_back("Other ways that keep your program's durability:");
            headed = true;
        }
        if (!measured(way)) {
            lines.push_back(fmt::format("  - {}: {} ({}).", way.variant,
                                        way.status == Status::Refused ? "not run" : "failed", way.reason));
            continue;
        }
        const double ratio = way.vsProgram.ratio;
        std::string how;
        if (holds(way))
            how = fmt::format("{} ({})", speedUp(ratio), noiseWords(way.vsProgram));
        else if (beats(way.vsProgram))
            how = fmt::format("{:.2f}x by the durable rate only: no faster to run beyond the noise", ratio);
        else if (way.vsProgram.kind == RateDifference::Kind::Faster)
            how = fmt::format("{:.2f}x, not beyond the noise over the {:.0f} way{} tried (p = {:.3f})", ratio,
                              tried, tried == 1 ? "" : "s", way.vsProgram.test.p);
        else if (way.vsProgram.kind == RateDifference::Kind::Slower)
            how = fmt::format("{:.0f}% slower ({})", (1.0 - ratio) * 100, noiseWords(way.vsProgram));
        else
            how = fmt::format("{:.2f}x, the same as your program's ({})", ratio, noiseWords(way.vsProgram));
        lines.push_back(fmt::format(
            "  - {}: {} to run, {:.2f}x your program's speed; {:.0f} MB/s durable: {}.", way.variant,
            formatDuration(way.returnSeconds), runRatio(own, way), way.durableMBps, how));
        if (holds(way))
            addWayLines(lines, adviceFor(parseReplayVariant(way.variant), recorded.system), "    ");
    }
    if (!advice.weaker.empty())
        lines.emplace_back("Faster only by keeping fewer durability points (never the answer):");
    for (const AdvisedWay& way : advice.weaker) {
        if (!measured(way)) {
            lines.push_back(fmt::format("  - {}: not measured ({}).", way.variant, way.reason));
            continue;
        }
        lines.push_back(fmt::format(
            "  - {}: {} to run ({:.2f}x your program's speed, {:.2f}x its durable rate), but a power cut "
            "would "
            "lose up to {} where your program risked {} ({}).",
            way.variant, formatDuration(way.returnSeconds), runRatio(own, way), way.vsProgram.ratio,
            way.maxAtRiskBytes ? formatBytes(*way.maxAtRiskBytes) : std::string("an unknown amount"),
            own.maxAtRiskBytes ? formatBytes(*own.maxAtRiskBytes) : std::string("an unknown amount"),
            way.breach.empty() ? std::string("its sync points are gone") : way.breach));
    }
    if (!caveat.empty())
        lines.push_back(caveat);
    return advice;
}

std::vector<std::string> adviceVariantAxis(const ReplayScript& script)
{
    std::vector<std::string> axis{std::string(kRecordedCalls)};
    for (const ReplayVariant& variant : variantsFor(script))
        axis.push_back(variant.name());
    return axis;
}

std::optional<ProgramAdvice> adviseOnPlan(const RunResult& result, const RunPlan& plan,
                                          const std::string& tracePath, const ProgramProfile& profile)
{
    const auto it = plan.replays.find(replayPlanKey(tracePath, kRecordedCalls));
    if (it == plan.replays.end() || !it->second)
        return std::nullopt;
    return adviseProgram(result, *it->second, profile);
}

} // namespace iolab
