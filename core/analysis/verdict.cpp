// SPDX-License-Identifier: MIT
#include "core/analysis/verdict.h"

#include "core/analysis/latency_target.h"
#include "core/analysis/mix_answer.h"
#include "core/analysis/sustained.h"

#include "core/analysis/finding_kinds.h"
#include "core/analysis/memory_budget_table.h"
#include "core/analysis/significance.h"
#include "core/analysis/sync_lab.h"
#include "core/analysis/system_checks.h"

#include "core/base/units.h"
#include "core/base/words.h"
#include "core/engine/crash_probe.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"
#include "core/model/replay.h"
#include "core/model/strategy_methods.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace iolab {

namespace {

// Device writes above this multiple of the bytes the cases wrote (metadata and journal included) mean that
// other programs wrote to the device during the run.
constexpr double kForeignWritesFactor = 1.5;

// A term the verdict uses (finding_kinds.h), explained once in its `terms`.
std::string explain(Term term)
{
    switch (term) {
    case Term::Durable:
        return "durable: bytes per second until the data was safely on the device, the final fsync included";
    case Term::Apparent:
        return "apparent: bytes per second until the last write call returned; the data may still have been "
               "in memory";
    case Term::SpeedUp:
        return "speed-up (for example 3.1x): how many times the rate of the plain baseline at the same chunk "
               "size";
    case Term::Chunk:
        return "chunk: the bytes handed to the system in one call";
    case Term::PageCache:
        return "page cache: the memory where the system keeps file data before and after it reaches the "
               "device";
    case Term::Fsync:
        return "fsync: the call that waits until a file's data is on the device";
    case Term::Direct:
        return "O_DIRECT: a request to move the data between the program and the device, past the page cache";
    case Term::Ci:
        return "95% CI (confidence interval): the range that holds the true mean rate with 95% confidence, "
               "judged from the repetitions";
    case Term::Significance:
        return "within the noise: a difference between two cases that a t-test over their repetitions "
               "(Welch's, "
               "or Yuen's on trimmed means from 5 repetitions on) does not find at 95% confidence; IOLab "
               "names "
               "a case fastest, and quotes a speed-up as a fact, only when the difference holds";
    case Term::Spread:
        return "CV (coefficient of variation): the spread of the repetitions as a share of their mean";
    }
    return "";
}

std::string explainBaseline(const std::string& strategy)
{
    const StrategyMethod* method = strategyMethod(strategy);
    switch (method != nullptr ? method->baseline : BaselineRole::None) {
    case BaselineRole::Writes:
        return fmt::format("plain `{}`: fwrite() with the C library's default buffer, what most programs do; "
                           "the baseline of the speed-ups of writes",
                           strategy);
    case BaselineRole::PipeWrites:
        return fmt::format(
            "plain `{}`: write() straight into the pipe; the baseline of the speed-ups of pipe "
            "writes",
            strategy);
    case BaselineRole::FileSets:
        return fmt::format("plain `{}`: the files read one after another by one thread; the baseline of the "
                           "speed-ups of file sets",
                           strategy);
    case BaselineRole::Reads:
        return fmt::format("plain `{}`: read() with no access hint; the baseline of the speed-ups of reads",
                           strategy);
    case BaselineRole::None:
        break;
    }
    return fmt::format("plain `{}`: the baseline of the speed-ups of the cases compared with it", strategy);
}

// Whether a case answers "which way is fastest". Not a case that rewrites one chunk in place (preallocate
// rewrite): its bytes per second count every write of that chunk, while the disk holds one chunk of them, so
// its rate is ops, for the sync lab, and no rival of writes that fill a file.
bool measured(const CaseResult& c, Ranking ranking)
{
    return c.status == Status::Ok && ratesAsThroughput(c.testCase.preallocate) &&
           rankedRate(c, ranking).count > 0 && rankedRate(c, ranking).median > 0;
}

std::string syncWords(SyncPolicy sync)
{
    switch (sync.mode) {
    case SyncMode::None:
        return "";
    case SyncMode::FsyncEnd:
        return "fsync at the end";
    case SyncMode::FdatasyncEnd:
        return "fdatasync at the end";
    case SyncMode::FsyncEvery:
        return fmt::format("fsync every {} writes", sync.everyWrites);
    case SyncMode::FdatasyncEvery:
        return sync.everyWrites == 1 ? std::string("fdatasync after every write")
                                     : fmt::format("fdatasync every {} writes", sync.everyWrites);
    case SyncMode::OSync:
        return "O_SYNC";
    case SyncMode::ODsync:
        return "O_DSYNC";
    }
    return "";
}

// "`stdio` with a 64 KiB buffer and 4 threads": the strategy and what sets the case apart, no case number.
std::string plainName(const Case& k, bool withChunk)
{
    if (k.strategy == kReplayStrategy) // "the replay of sq.iolab-trace"
        return "the " + k.label();
    std::vector<std::string> parts;
    if (k.buffer.mode == BufferMode::Bytes)
        parts.push_back(fmt::format("a {} buffer", formatBytes(k.buffer.bytes)));
    else if (k.buffer.mode == BufferMode::None)
        parts.emplace_back("no buffer");
    if (k.sync.mode != SyncMode::None)
        parts.push_back(syncWords(k.sync));
    if (k.threads > 1)
        parts.push_back(fmt::format("{} threads", k.threads));
    if (k.queueDepth > 1)
        parts.push_back(fmt::format("{} requests in flight", k.queueDepth));
    if (k.hint != ReadHint::NotApplicable && k.hint != ReadHint::Normal)
        parts.push_back(fmt::format("the {} hint", toString(k.hint)));
    if (!k.fileSet.empty())
        parts.push_back(fmt::format("a set of {} files", k.fileSet.files));
    if (std::string reader = readerCpuWords(k); !reader.empty())
        parts.push_back(std::move(reader));
    if (k.pattern != DataPattern{})
        parts.push_back(patternWords(k.pattern) + " for data");
    for (const AxisSpec& axis : caseAxes()) {
        if (!axis.words)
            continue;
        if (std::string words = axis.words(k); !words.empty())
            parts.push_back(std::move(words));
    }
    if (withChunk)
        parts.push_back(fmt::format("{} chunks", formatBytes(k.chunkBytes)));
    std::string name = fmt::format("`{}`", k.strategy);
    if (!parts.empty())
        name += " with " + joinWords(parts);
    return name;
}

std::string baselineName(const Case& k)
{
    return fmt::format("plain `{}`", baselineStrategy(k));
}

// How a speed-up's baseline is named: "plain `stdio`" when it is the plain case (the default buffer, the
// normal hint), else the case that stands in for it, said so.
std::string baselineWords(const RunResult& result, std::size_t base, std::size_t of)
{
    const Case& b = result.cases[base].testCase;
    const Case& k = result.cases[of].testCase;
    if (isPreferredBaselineOf(b, k))
        return baselineName(k);
    if (base == of)
        return fmt::format("the speed-ups' baseline (standing in for {}, which did not run)",
                           baselineName(k));
    return fmt::format("{} (standing in for {}, which did not run)", plainName(b, false), baselineName(k));
}

// "To write 64 KiB chunks to a file here", "To read a file from a cold cache in 1 MiB chunks here".
std::string purpose(ComparisonGroup group, const Case& k, bool oneChunk)
{
    const std::string chunk = oneChunk ? fmt::format(" {} chunks", formatBytes(k.chunkBytes)) : "";
    switch (group) {
    case ComparisonGroup::FileWrites:
        return fmt::format("To write{} to a file here", chunk);
    case ComparisonGroup::StreamWrites:
        return fmt::format("To write{} {}", chunk,
                           k.target == TargetKind::Pipe ? "into a pipe" : "to the null device");
    case ComparisonGroup::ColdReads:
    case ComparisonGroup::WarmReads: {
        std::string from = group == ComparisonGroup::ColdReads ? "from a cold cache" : "from a warm cache";
        if (k.randomDist.hotSpot())
            from += " over " + randomDistWords(k.randomDist);
        // A mix reads and writes the file: its own question, asked of mixes of the same share only.
        const std::string what = mixes(k) ? fmt::format("To read {}% and write {}% of the requests to a file",
                                                        *k.readPercent, 100 - *k.readPercent)
                                          : std::string("To read a file");
        return oneChunk ? fmt::format("{} {} in {} chunks here", what, from, formatBytes(k.chunkBytes))
                        : fmt::format("{} {} here", what, from);
    }
    }
    return "";
}

std::string rankedWord(const Case& k, Ranking ranking)
{
    if (comparisonGroup(k) != ComparisonGroup::FileWrites && !mixes(k))
        return "";
    return ranksDurable(k, ranking) ? " durable" : " apparent";
}

struct GroupAnswer
{
    std::string text;
    double bestRate = 0;
};

std::string defaultQuestion(const std::map<ComparisonGroup, std::vector<std::size_t>>& groups,
                            const RunResult& result)
{
    std::vector<std::string> parts;
    for (const auto& [group, indices] : groups) {
        std::set<std::uint64_t> chunks;
        for (std::size_t i : indices)
            chunks.insert(result.cases[i].testCase.chunkBytes);
        const std::string at =
            chunks.size() == 1 ? fmt::format(" {} chunks", formatBytes(*chunks.begin())) : "";
        switch (group) {
        case ComparisonGroup::FileWrites:
            parts.push_back(fmt::format("to write{} to a file", at));
            break;
        case ComparisonGroup::StreamWrites: {
            bool pipe = false;
            bool null = false;
            for (std::size_t i : indices)
                (result.cases[i].testCase.target == TargetKind::Pipe ? pipe : null) = true;
            parts.push_back(fmt::format("to write{} {}", at,
                                        pipe && null ? "into a pipe or the null device"
                                        : pipe       ? "into a pipe"
                                                     : "to the null device"));
            break;
        }
        case ComparisonGroup::ColdReads:
        case ComparisonGroup::WarmReads: {
            // A run of mixes asks how to serve reads and writes together; of hot spots, where they land.
            const bool allMixed = std::all_of(indices.begin(), indices.end(),
                                              [&](std::size_t i) { return mixes(result.cases[i].testCase); });
            const bool hot = std::all_of(indices.begin(), indices.end(), [&](std::size_t i) {
                return result.cases[i].testCase.randomDist.hotSpot();
            });
            parts.push_back(fmt::format("to {}{} from a {} cache{}", allMixed ? "read and write" : "read", at,
                                        group == ComparisonGroup::ColdReads ? "cold" : "warm",
                                        hot ? " with a hot spot" : ""));
            break;
        }
        }
    }
    if (parts.empty())
        return "Which way of doing file I/O is fastest here?";
    std::string joined;
    for (std::size_t i = 0; i < parts.size(); ++i)
        joined += (i == 0 ? "" : i + 1 == parts.size() ? ", and " : ", ") + parts[i];
    return fmt::format("Which way is fastest {} on this machine?", joined);
}

// A replay's answer: its time inside the calls against the program's, then how long until its data was
// durable.
std::string replayAnswer(const CaseResult& c)
{
    const ReplayRecord& r = *c.replay;
    std::vector<double> inside;
    std::vector<double> durable;
    for (const auto& rep : c.repetitions) {
        if (rep.warmup || !rep.outcome.ok() || !rep.insideSeconds)
            continue;
        inside.push_back(*rep.insideSeconds);
        durable.push_back(rep.durableSeconds);
    }
    std::string program = r.program.substr(0, r.program.find(' '));
    if (const auto slash = program.rfind('/'); slash != std::string::npos)
        program = program.substr(slash + 1);
    if (program.empty())
        program = "the program";
    const std::string what =
        fmt::format("{} write call{}, {} sync{}, {} written", r.writeCalls, r.writeCalls == 1 ? "" : "s",
                    r.syncCalls, r.syncCalls == 1 ? "" : "s", formatBytes(r.bytesWritten));
    if (inside.empty())
        return fmt::format("The replay of {}'s file I/O ({}) did not finish a measured repetition.", program,
                           what);
    const double replayed = median(inside);
    std::string text = fmt::format(
        "Replayed call for call, {}'s file I/O ({}) took {} inside its calls here (median of {}), against {} "
        "when the program ran ({:.2f}x); its data was durable {} after the first call.",
        program, what, formatDuration(replayed), inside.size(), formatDuration(r.recordedInsideSeconds),
        r.recordedInsideSeconds > 0 ? replayed / r.recordedInsideSeconds : 0.0,
        formatDuration(median(durable)));
    if (r.recordedInsideSeconds > 0 && std::abs(replayed / r.recordedInsideSeconds - 1.0) > 0.15)
        text +=
            " The replay differs from the recording by more than 15%: the machine was not in the same state "
            "(a cache warm or cold, other programs' I/O), or the program's calls depended on what it read.";
    return text;
}

// A finding's sentence with its case named in plain words instead of by number.
std::string plainText(const Finding& f, const RunResult& result)
{
    std::string text = f.text;
    if (f.kind == Finding::Kind::Cancelled) {
        const std::size_t ran = casesRunToEnd(result); // not the planned count: the result lists every case
        return ran == 0 ? std::string("The run was stopped before its first case finished.")
                        : fmt::format("The run was stopped before its end; the answer covers the {} "
                                      "case{} that ran{}.",
                                      ran, ran == 1 ? "" : "s",
                                      ran == result.cases.size()
                                          ? std::string()
                                          : fmt::format(" of the {} planned", result.cases.size()));
    }
    if (f.kind == Finding::Kind::Short && !f.caseIndex) {
        std::size_t count = 0;
        for (char ch : text.substr(0, text.find(':')))
            count += ch == ',' ? 1 : 0;
        const auto colon = text.find(':');
        return fmt::format("{} cases{}", count + 1, colon == std::string::npos ? text : text.substr(colon));
    }
    if (f.caseIndex) {
        for (const auto& c : result.cases) {
            if (c.index != *f.caseIndex)
                continue;
            const std::string subject = findingSubject(c);
            const auto at = text.find(subject);
            if (at != std::string::npos)
                text.replace(at, subject.size(), plainName(c.testCase, true));
        }
    }
    if (!text.empty())
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    return text;
}

// What zeros beside incompressible bytes say, in one answer (the compression preset's question, the health
// check's part): the widest gap between a case of zeros and its twin, and whether the compression finding
// holds. "" when no case wrote zeros beside a twin.
std::string compressionAnswer(const RunResult& result, Ranking ranking)
{
    auto pairs = compressionPairs(result, ranking);
    const auto caseOf = [&result](std::uint32_t index) -> const CaseResult& {
        return *std::find_if(result.cases.begin(), result.cases.end(),
                             [index](const CaseResult& c) { return c.index == index; });
    };
    std::erase_if(pairs, [&](const CompressionPair& p) {
        return caseOf(p.compressible).testCase.pattern.kind != PatternKind::Zeros;
    });
    if (pairs.empty())
        return {};
    const auto widest = *std::max_element(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
        return a.compressibleMBps / a.incompressibleMBps < b.compressibleMBps / b.incompressibleMBps;
    });
    const double ratio = widest.compressibleMBps / widest.incompressibleMBps;
    const Case& k = caseOf(widest.compressible).testCase;
    const std::string other = patternWords(caseOf(widest.incompressible).testCase.pattern);
    const std::string where =
        fmt::format("`{}` {}: {} against {}", k.strategy, formatBytes(k.chunkBytes),
                    formatMBps(widest.compressibleMBps), formatMBps(widest.incompressibleMBps));
    const auto found = compressionFindings(result, ranking);
    if (!found.empty())
        return fmt::format("Compression: zeros moved {:.1f}x as fast as {} ({}): something below the program "
                           "compresses or deduplicates what is written; judge the disk by the rate of {}.",
                           ratio, other, where, other);
    if (ratio >= kCompressionFactor)
        return fmt::format(
            "Compression: zeros moved {:.1f}x as fast as {} ({}), but that gap does not hold against the "
            "noise of their repetitions: run again with more repetitions before concluding.",
            ratio, other, where);
    if (pairs.size() == 1)
        return fmt::format("Compression: zeros moved {:.2f}x as fast as {} ({}): nothing below the program "
                           "compresses these writes or skips their zeros.",
                           ratio, other, where);
    return fmt::format(
        "Compression: in {} pairs, zeros moved at most {:.2f}x as fast as {} ({}): nothing below "
        "the program compresses these writes or skips their zeros.",
        pairs.size(), ratio, other, where);
}

} // namespace

Verdict verdict(const RunResult& result, const Registry* registry, Ranking ranking)
{
    Verdict v;
    std::set<Term> used;
    std::set<std::string> baselines; // the baseline strategies the answers name

    std::map<ComparisonGroup, std::vector<std::size_t>> groups;
    std::vector<std::size_t> replays; // answered apart: a replay is the program's way, not one to rank
    for (std::size_t i = 0; i < result.cases.size(); ++i) {
        if (result.cases[i].replay && result.cases[i].status == Status::Ok)
            replays.push_back(i);
        else if (measured(result.cases[i], ranking) && !result.cases[i].replay)
            groups[comparisonGroup(result.cases[i].testCase)].push_back(i);
    }
    v.question = result.matrix.question.empty() ? defaultQuestion(groups, result) : result.matrix.question;
    const bool allSteady =
        !groups.empty() && std::all_of(groups.begin(), groups.end(), [&result](const auto& group) {
            return std::all_of(group.second.begin(), group.second.end(),
                               [&result](std::size_t i) { return result.cases[i].testCase.steady.on(); });
        });
    if (allSteady && result.matrix.question.empty())
        v.question = "How much can be written at full speed, and how fast after that?";
    if (result.matrix.latencyTarget && result.matrix.question.empty())
        v.question =
            fmt::format("What is the most load whose p{:g} call latency stays under {:g} ms?",
                        result.matrix.latencyTarget->percentile, result.matrix.latencyTarget->seconds * 1e3);
    if (groups.empty() && !replays.empty() && result.matrix.question.empty())
        v.question =
            "How long does the recorded program's file I/O take on this machine, replayed call for call?";
    if (!result.programAdvice.empty()) {
        // The program's ways of writing: the advice is the answer; each way's own replay sentence would say
        // it again, case by case.
        v.question = "How should the recorded program write? The same bytes with the same durability, "
                     "written other ways, measured here.";
        v.program = result.programAdvice;
        replays.clear();
    }
    if (const std::string overridden = overridesText(result.matrix); !overridden.empty())
        v.overridden = fmt::format("Overridden for every case: {}.", overridden);

    // Each arrangement of the machine a run measured gets its own answer (AxisSpec::arrangement): a pipe's
    // rate depends on where its reader ran as much as on the strategy, so "with the reader on the writer's
    // CPU, ... is fastest" and "with the reader on another CPU, ...", each against its own baseline.
    std::vector<std::pair<ComparisonGroup, std::vector<std::size_t>>> answered;
    for (const auto& [group, indices] : groups) {
        const std::size_t first = answered.size();
        for (std::size_t i : indices) {
            const auto alike = std::find_if(
                answered.begin() + static_cast<std::ptrdiff_t>(first), answered.end(), [&](const auto& part) {
                    return sameArrangement(result.cases[part.second.front()].testCase,
                                           result.cases[i].testCase);
                });
            if (alike == answered.end())
                answered.push_back({group, {i}});
            else
                alike->second.push_back(i);
        }
    }

    // A lone case of zeros or random bytes beside the others (the health check's pair) has nothing to rank:
    // the compression answer speaks of it.
    const std::string compression = compressionAnswer(result, ranking);
    std::vector<GroupAnswer> answers;
    for (const auto& [groupKey, indices] : answered) {
        const ComparisonGroup group = groupKey;
        if (!compression.empty() && indices.size() == 1 &&
            result.cases[indices.front()].testCase.pattern != DataPattern{})
            continue;
        // A lone write until steady has nothing to rank: its sustained answer gives its rates.
        if (indices.size() == 1 && !sustainedAnswer(result.cases[indices.front()]).empty())
            continue;
        std::set<std::uint64_t> chunks;
        for (std::size_t i : indices)
            chunks.insert(result.cases[i].testCase.chunkBytes);
        const bool oneChunk = chunks.size() == 1;
        const Lead lead = leadOf(result, indices, ranking);
        const std::size_t best = lead.top;
        const CaseResult& c = result.cases[best];
        const Case& k = c.testCase;
        const double bestRate = rankedRate(c, ranking).median;
        std::string setAside = tooNoisyToRankText(result, lead.tooNoisy, ranking, [&](const CaseResult& r) {
            return plainName(r.testCase, !oneChunk);
        });
        if (!setAside.empty())
            setAside.insert(0, " ");
        used.insert(Term::Chunk);
        const auto rateWithTwin = [&](const CaseResult& r) {
            std::string out = formatMBps(rankedRate(r, ranking).median) + rankedWord(r.testCase, ranking);
            if (group == ComparisonGroup::FileWrites || mixes(r.testCase))
                out += ranksDurable(r.testCase, ranking)
                           ? fmt::format(" ({} apparent)", formatMBps(r.apparentMBps.median))
                           : fmt::format(" ({} durable)", formatMBps(r.durableMBps.median));
            return out;
        };
        if (group == ComparisonGroup::FileWrites || mixes(k)) {
            used.insert(Term::Durable);
            used.insert(Term::Apparent);
        }
        std::string text;
        if (!lead.tied.empty() && !lead.untestable) {
            // No winner inside the noise: the leaders, their figures, and what would tell them apart.
            used.insert(Term::Significance);
            std::vector<std::string> leaders{
                fmt::format("{} ({})", plainName(k, !oneChunk), rateWithTwin(c))};
            constexpr std::size_t kNamedLeaders = 4;
            for (std::size_t i = 0; i < lead.tied.size() && leaders.size() < kNamedLeaders; ++i) {
                const CaseResult& t = result.cases[lead.tied[i]];
                leaders.push_back(fmt::format("{} ({})", plainName(t.testCase, !oneChunk),
                                              formatMBps(rankedRate(t, ranking).median)));
            }
            if (lead.tied.size() + 1 > leaders.size())
                leaders.push_back(fmt::format("{} more", lead.tied.size() + 1 - leaders.size()));
            const CaseResult& closest = result.cases[lead.tied.front()];
            text =
                fmt::format("{}, no way is fastest beyond the noise: {} cannot be told apart ({:.2f}x, {})",
                            purpose(group, k, oneChunk), joinWords(leaders), lead.closest.ratio,
                            describeTest(lead.closest.test));
            if (const std::string ways = whatWouldSeparate(c, closest, ranking); !ways.empty())
                text += "; " + ways;
            answers.push_back({text.append(".").append(setAside), bestRate});
            continue;
        }
        if (lead.tied.empty()) {
            text = fmt::format("{}, {}{} is fastest: {}", purpose(group, k, oneChunk),
                               lead.noisierMeasuredHigher ? "of the cases steady enough to rank, " : "",
                               plainName(k, !oneChunk), rateWithTwin(c));
        } else {
            // A single repetition on either side: the order is what was measured, not a finding.
            const CaseResult& closest = result.cases[lead.tied.front()];
            text = fmt::format("{}, {} measured highest: {}, {:.2f}x {} ({}), but with {} IOLab cannot tell "
                               "whether that lead is more than chance (run with --reps 5 to know)",
                               purpose(group, k, oneChunk), plainName(k, !oneChunk), rateWithTwin(c),
                               lead.closest.ratio, plainName(closest.testCase, !oneChunk),
                               formatMBps(rankedRate(closest, ranking).median),
                               !c.repetitions.empty() && rankedRate(c, ranking).count == 1 &&
                                       rankedRate(closest, ranking).count == 1
                                   ? std::string("one repetition each")
                                   : std::string("a single repetition on one side"));
        }
        const auto base = baselineCase(result, best);
        if (base && *base != best && measured(result.cases[*base], ranking)) {
            const CaseResult& b = result.cases[*base];
            const RateDifference d = compareCases(c, b, ranking);
            baselines.insert(baselineStrategy(k));
            used.insert(Term::SpeedUp);
            switch (d.kind) {
            case RateDifference::Kind::Faster:
                text += fmt::format(", {:.1f}x {} ({})", d.ratio, baselineWords(result, *base, best),
                                    formatMBps(rankedRate(b, ranking).median));
                break;
            case RateDifference::Kind::Untestable:
                if (lead.tied.empty())
                    text += fmt::format(", {:.1f}x {} ({}) in one repetition each", d.ratio,
                                        baselineWords(result, *base, best),
                                        formatMBps(rankedRate(b, ranking).median));
                break;
            case RateDifference::Kind::Indistinguishable:
            case RateDifference::Kind::Slower:
                used.insert(Term::Significance);
                text += fmt::format(", but no faster than {} ({}) beyond the noise ({:.2f}x, {})",
                                    baselineWords(result, *base, best),
                                    formatMBps(rankedRate(b, ranking).median), d.ratio, describeTest(d.test));
                break;
            }
        } else if (base && *base == best) {
            text += isPreferredBaselineOf(k, k)
                        ? fmt::format("; it is {} itself, the baseline", baselineName(k))
                        : "; it is " + baselineWords(result, *base, best);
            baselines.insert(baselineStrategy(k));
            if (lead.next && lead.tied.empty()) {
                std::optional<std::size_t> next; // the runner-up, outside the lead
                for (std::size_t i : indices) {
                    if (i != best && (!next || rankedRate(result.cases[*next], ranking).median <
                                                   rankedRate(result.cases[i], ranking).median))
                        next = i;
                }
                const CaseResult& n = result.cases[*next];
                text += fmt::format(
                    ", and the next, {}, reached {} ({:.2f}x)", plainName(n.testCase, !oneChunk),
                    formatMBps(rankedRate(n, ranking).median), rankedRate(n, ranking).median / bestRate);
                used.insert(Term::SpeedUp);
            }
        } else if (lead.tied.empty() && lead.next) {
            std::vector<std::size_t> same;
            for (std::size_t i : indices) {
                if (result.cases[i].testCase.chunkBytes == k.chunkBytes && i != best &&
                    std::find(lead.tooNoisy.begin(), lead.tooNoisy.end(), i) == lead.tooNoisy.end())
                    same.push_back(i);
            }
            if (!same.empty()) {
                const std::size_t slowest = *std::min_element(same.begin(), same.end(), [&](auto a, auto b) {
                    return rankedRate(result.cases[a], ranking).median <
                           rankedRate(result.cases[b], ranking).median;
                });
                const CaseResult& s = result.cases[slowest];
                text +=
                    fmt::format(", {:.1f}x the slowest, {} ({})", bestRate / rankedRate(s, ranking).median,
                                plainName(s.testCase, !oneChunk), formatMBps(rankedRate(s, ranking).median));
            }
        } else if (indices.size() == 1) {
            text += " (the only case of its kind)";
        }
        answers.push_back({text.append(".").append(setAside), bestRate});
    }
    // A latency target asks for the most load under it: its answers come first.
    if (result.matrix.latencyTarget)
        for (auto& a : latencyTargetAnswers(result, *result.matrix.latencyTarget))
            v.answers.push_back(std::move(a.text));
    // A write until steady asks how much goes at full speed and how fast after: its figures come first.
    for (const CaseResult& c : result.cases)
        if (std::string line = sustainedAnswer(c); !line.empty())
            v.answers.push_back(std::move(line));
    // A run that compares ways of making each write durable (the sync lab) asks which is fastest and whether
    // fdatasync is quick enough for a log: those answers come first, before the rates the table ranks.
    if (const SyncLabResult lab = syncLabResult(result, registry); comparesDurableMethods(lab.rows)) {
        const SyncLabVerdicts& sync = lab.verdicts;
        if (!sync.fastestText.empty())
            v.answers.push_back(sync.fastestText);
        if (!sync.etcdText.empty())
            v.answers.push_back(sync.etcdText);
    }
    for (std::size_t i : replays) {
        v.answers.push_back(replayAnswer(result.cases[i]));
        used.insert(Term::Durable);
    }
    // Under a memory limit the question is article 001's: the fastest that also loses nothing on kill -9.
    if (const auto budget = memoryBudgetRows(result); !budget.empty())
        v.answers.push_back(memoryBudgetAnswer(budget));
    for (auto& a : answers)
        v.answers.push_back(std::move(a.text));
    // A read/write mix: after which way is fastest at each share, what each way got, reads and writes apart.
    for (auto& line : mixAnswers(result))
        v.answers.push_back(std::move(line));
    if (!compression.empty())
        v.answers.push_back(compression);
    // The kill -9 probe's answer per case it probed: what the kills saw and what the design can lose.
    for (auto& line : crashProbeAnswers(result, registry, [](const Case& k) { return plainName(k, true); }))
        v.answers.push_back(std::move(line));

    // The findings that matter most: one per importance its kind declares (finding_kinds.cpp), the most
    // important first.
    const auto all = findings(result, registry, ranking);
    std::map<int, std::vector<const Finding*>> byImportance;
    for (const auto& f : all) {
        if (const FindingKindSpec& spec = findingKind(f.kind); spec.mark != FindingMark::Answer)
            byImportance[spec.importance].push_back(&f);
    }
    for (const auto& [rank, list] : byImportance) {
        if (v.highlights.size() == 3)
            break;
        const Finding& f = *list.front();
        std::string what = plainText(f, result);
        if (list.size() > 1)
            what += fmt::format(" ({} more case{} like it.)", list.size() - 1, list.size() == 2 ? "" : "s");
        const FindingKindSpec& spec = findingKind(f.kind);
        v.highlights.push_back({f.kind, f.caseIndex, what, f.advice.empty() ? spec.advice : f.advice});
        used.insert(spec.terms.begin(), spec.terms.end());
    }

    v.health = healthVerdict(result, registry, all);

    // The machine: how the best durable rate compares with the device class, and why it is what it is.
    MachineVerdict machine = machineVerdict(result, all);
    v.machine = std::move(machine.comparison);
    v.belowTypical = machine.belowTypical;
    v.causes = std::move(machine.causes);
    v.unchecked = std::move(machine.unchecked);

    // What the figures cannot say. The target's device and filesystem only where a case used them: a run
    // of pipes and the null device moved no byte through them.
    const bool usedTheTarget = std::any_of(result.cases.begin(), result.cases.end(), [](const CaseResult& c) {
        return c.testCase.target == TargetKind::Directory;
    });
    if (usedTheTarget && looksVirtual(result.target))
        v.limits.push_back(fmt::format(
            "The target is a virtual disk ({}): the host's own cache and disks sit below it, so the figures "
            "describe this virtual machine, not a physical device.",
            result.target.deviceModel.empty() ? result.target.device : result.target.deviceModel));
    if (usedTheTarget && result.target.livesInMemory())
        v.limits.push_back(fmt::format("The target is a {} filesystem, which lives in memory: no figure here "
                                       "describes a disk.",
                                       result.target.fsType));
    if (usedTheTarget && result.target.writeCache == "write back")
        v.limits.emplace_back(
            "The device has a write-back cache: what it reports as written may still be in its "
            "own memory, so even durable rates can be higher than what survives a power cut.");
    // The device wrote far more than the cases did: another program was writing to it meanwhile.
    std::uint64_t caseBytes = 0;
    std::uint64_t deviceBytes = 0;
    for (const auto& c : result.cases) {
        // A replay's syncs make the file system write its journal as the program's did: not another program.
        if (comparisonGroup(c.testCase) != ComparisonGroup::FileWrites || c.status != Status::Ok || c.replay)
            continue;
        for (const auto& r : c.repetitions) {
            if (!r.deviceObserved || !r.outcome.ok())
                continue;
            caseBytes += r.bytes;
            deviceBytes += r.deviceWrittenBytes;
        }
    }
    if (caseBytes > 0 &&
        static_cast<double>(deviceBytes) > kForeignWritesFactor * static_cast<double>(caseBytes))
        v.limits.push_back(
            fmt::format("The device wrote {} while the cases wrote {}: other programs were writing "
                        "to it at the same time, which slows and spreads the figures.",
                        formatBytes(deviceBytes), formatBytes(caseBytes)));
    bool anyWriteFitsInRam = false;
    for (const auto& c : result.cases) {
        if (comparisonGroup(c.testCase) == ComparisonGroup::FileWrites && result.host.ramBytes > 0 &&
            c.testCase.totalBytes * 2 < result.host.ramBytes)
            anyWriteFitsInRam = true;
    }
    if (anyWriteFitsInRam && !groups.empty()) {
        v.limits.push_back(fmt::format("The files written fit in memory ({} of RAM): apparent rates show how "
                                       "fast the page cache takes data, not how fast the device does.",
                                       formatBytes(result.host.ramBytes)));
        used.insert(Term::PageCache);
    }
    std::uint32_t reps = result.options.repetitions;
    if (reps < kTrimmedMeanMinCount && !groups.empty())
        v.limits.push_back(fmt::format("Each case ran {} time{}: differences of a few percent may be chance.",
                                       reps, reps == 1 ? "" : "s"));
    v.limits.emplace_back(
        "The figures hold for this machine, this filesystem and these sizes; other sizes or a busy machine "
        "can rank the strategies differently.");

    for (Term t : used)
        v.terms.push_back(explain(t));
    for (const auto& b : baselines)
        v.terms.push_back(explainBaseline(b));
    return v;
}

namespace {

// The words of `text`, a unit kept with its number ("1.90 GB/s" is one word for wrapping).
std::vector<std::string> words(const std::string& text)
{
    static const std::set<std::string, std::less<>> units{"B",    "KiB", "MiB", "GiB", "TiB", "kB/s", "MB/s",
                                                          "GB/s", "ms",  "s",   "s,",  "s.",  "s;",   "min"};
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = text.find(' ', pos);
        std::string word = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        pos = end == std::string::npos ? text.size() : end + 1;
        if (word.empty())
            continue;
        const bool unit =
            units.contains(word) || std::any_of(units.begin(), units.end(), [&](const std::string& u) {
                return word.size() > u.size() && word.starts_with(u) &&
                       std::string_view(",.;:)").find(word[u.size()]) != std::string_view::npos;
            });
        if (unit && !out.empty() && !out.back().empty() &&
            std::isdigit(static_cast<unsigned char>(out.back().back())))
            out.back() += " " + word;
        else
            out.push_back(std::move(word));
    }
    return out;
}

// Appends `text` wrapped at `width`, the first line after `first`, the others after `rest`.
void wrap(std::vector<std::string>& out, const std::string& text, const std::string& first,
          const std::string& rest, std::size_t width)
{
    std::string line = first;
    bool empty = true;
    for (const auto& word : words(text)) {
        if (!empty && line.size() + 1 + word.size() > width) {
            out.push_back(line);
            line = rest;
            empty = true;
        }
        line += (empty ? "" : " ") + word;
        empty = false;
    }
    out.push_back(line);
}

} // namespace

std::vector<std::string> causeSentences(const Verdict& v)
{
    std::vector<std::string> out;
    for (const auto& c : v.causes)
        out.push_back(fmt::format("{} (evidence: {}; what to change: {})", c.what, c.evidence, c.change));
    return out;
}

std::vector<std::string> verdictLines(const Verdict& v, std::size_t width)
{
    std::vector<std::string> out;
    out.emplace_back("Summary");
    if (v.health) {
        // The health verdict answers the run's question first; the causes belong to it.
        if (!v.overridden.empty())
            wrap(out, v.overridden, "", "", width);
        std::string text = healthText(*v.health, causeSentences(v), width);
        std::size_t pos = 0;
        while (pos < text.size()) {
            const auto end = text.find('\n', pos);
            out.push_back(text.substr(pos, end - pos));
            pos = end + 1;
        }
        out.emplace_back("");
        out.emplace_back("Ways of doing the I/O, compared:");
        for (const auto& a : v.answers)
            wrap(out, a, "  - ", "    ", width);
    } else {
        wrap(out, v.question, "Question: ", "          ", width);
        if (!v.overridden.empty())
            wrap(out, v.overridden, "", "          ", width);
        if (!v.program.empty())
            out.emplace_back("Your program:");
        for (const auto& line : v.program) {
            // A snippet's lines keep their own layout; sentences are wrapped.
            const std::size_t indent = line.find_first_not_of(' ');
            if (indent != std::string::npos && indent >= 6) {
                out.push_back("  " + line);
                continue;
            }
            const std::string lead(2 + (indent == std::string::npos ? 0 : indent), ' ');
            wrap(out, line.substr(lead.size() - 2), lead, lead + "  ", width);
        }
        if (v.answers.empty() && v.program.empty())
            wrap(out, "No case finished, so there is no answer.", "Answer:   ", "          ", width);
        for (std::size_t i = 0; i < v.answers.size(); ++i)
            wrap(out, v.answers[i], i == 0 ? "Answer:   " : "          ", "          ", width);
        if (!v.machine.empty())
            wrap(out, v.machine, "Machine:  ", "          ", width);
    }
    if (!v.causes.empty() && !v.health) {
        out.emplace_back(v.belowTypical ? "Likely causes of the slow figure, most likely first:"
                                        : "What shapes the figures here:");
        for (std::size_t i = 0; i < v.causes.size(); ++i) {
            const auto& c = v.causes[i];
            wrap(out, c.what + ".", fmt::format("  {}. ", i + 1), "     ", width);
            wrap(out, c.evidence, "     Evidence: ", "     ", width);
            wrap(out, c.change, "     What to change: ", "     ", width);
        }
    }
    if (!v.highlights.empty()) {
        out.emplace_back("What matters most:");
        for (const auto& h : v.highlights) {
            wrap(out, h.what, "  - ", "    ", width);
            wrap(out, h.advice, "    What to do: ", "    ", width);
        }
    }
    if (!v.limits.empty()) {
        out.emplace_back("What the figures cannot say:");
        for (const auto& l : v.limits)
            wrap(out, l, "  - ", "    ", width);
    }
    if (!v.unchecked.empty()) {
        out.emplace_back("What IOLab could not check:");
        for (const auto& u : v.unchecked)
            wrap(out, u, "  - ", "    ", width);
    }
    if (!v.terms.empty()) {
        out.emplace_back("Terms:");
        for (const auto& t : v.terms)
            wrap(out, t, "  - ", "    ", width);
    }
    return out;
}

std::vector<std::string> wrappedLines(const std::string& text, const std::string& first,
                                      const std::string& rest, std::size_t width)
{
    std::vector<std::string> out;
    wrap(out, text, first, rest, width);
    return out;
}

} // namespace iolab
