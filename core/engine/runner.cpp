// SPDX-License-Identifier: MIT
#include "core/engine/runner.h"

#include "core/base/error.h"
#include "core/base/log.h"
#include "core/base/units.h"
#include "core/engine/call_timing.h"
#include "core/engine/case_child.h"
#include "core/engine/crash_probe.h"
#include "core/engine/data_sets.h"
#include "core/engine/deadline.h"
#include "core/engine/exposure.h"
#include "core/engine/job_execution.h"
#include "core/engine/pattern.h"
#include "core/engine/probe.h"
#include "core/engine/registry.h"
#include "core/engine/replay_script.h"
#include "core/engine/replay_variants.h"
#include "core/engine/sampler.h"
#include "core/engine/steady.h"
#include "core/engine/workspace.h"
#include "core/model/axes.h"
#include "core/model/memory_budget.h"
#include "core/model/replay.h"
#include "core/version.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

namespace iolab {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kScratchBytesPerThread = 1 * kMiB;

std::string isoNow()
{
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}

void merge(Outcome& into, Outcome&& from)
{
    mergeOutcome(into, std::move(from));
}

struct RepetitionFiles
{
    std::vector<std::string> data;
    std::vector<std::string> scratch;
    std::vector<std::string> folders; // a replay's, removed after the files, the last made first
};

// A replay's folder in the run folder: a name the cleaner knows (set-<number>), apart from the data sets'.
std::string replayFolderName(std::uint32_t caseIndex, std::uint32_t repetition)
{
    return fmt::format("set-{}", 1'000'000 + (caseIndex + 1) * 1'000 + repetition);
}

class CaseRunner
{
public:
    CaseRunner(const Strategy& strategy, Workspace& workspace, SystemProbe& probe, Sampler* sampler,
               const RunOptions& options, const std::atomic<bool>& stop, CaseChildLauncher* launcher,
               const ReplayScript* replay = nullptr)
        : m_strategy(strategy), m_workspace(workspace), m_probe(probe), m_sampler(sampler),
          m_options(options), m_stop(stop), m_launcher(launcher), m_replay(replay)
    {}

    // `data`: the files a read case reads (nullptr for writes). `caseLatency`: where a case that times its
    // calls merges the latency of its measured, successful repetitions (nullptr: calls are not timed).
    RepetitionResult run(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                         std::uint32_t repetition, const DataSet* data, CallLatency* caseLatency);

private:
    // A write case under a memory limit: the repetition's timed part runs in a child process in a memory
    // cgroup of its own (core/engine/case_child.h); the files are checked and made durable here.
    RepetitionResult runInChild(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                                RepetitionResult rep, CallLatency* caseLatency);
    // Waits until the child's state is past `from` (or it exits, or the run is stopped: then it is asked to
    // stop); the state it reached.
    childlink::State waitChild(CaseChild& child, childlink::State from);
    Outcome prepareJobs(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                        std::uint32_t repetition, RepetitionFiles& files,
                        std::vector<std::unique_ptr<Job>>& jobs);
    // A replay's folders and the files that existed before the program ran (untimed), then its one job.
    Outcome prepareReplay(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                          std::uint32_t repetition, RepetitionFiles& files,
                          std::vector<std::unique_ptr<Job>>& jobs);
    // Each file a replay left: the size the script says, and every byte the pattern's at its offset or
    // zero (a hole: nothing was written there).
    Outcome verifyReplayFile(const std::string& path, std::uint64_t bytes, const Pattern& pattern);
    // One pair of histograms per thread, allocated before the timed part, when the case times its calls.
    void prepareLatency(const Case& c, bool timed);
    // Merges the threads' histograms into the repetition's summaries and, for a measured one, the case's.
    void collectLatency(RepetitionResult& rep, CallLatency* caseLatency);
    // Asks the strategy for the job `spec` describes; a strategy that returns none without a reason "could
    // not start".
    Outcome prepareJob(const JobSpec& spec, std::vector<std::unique_ptr<Job>>& jobs);
    Outcome prepareReadJobs(const Case& c, const Pattern& pattern, const DataSet& data,
                            std::vector<std::unique_ptr<Job>>& jobs);
    // Sets the data set's cache state for this repetition: evicted (cold) or read once (warm).
    Outcome setCacheState(const Case& c, const DataSet& data, const Pattern& pattern);
    std::optional<std::uint64_t> cachedBytes(const DataSet& data);
    std::optional<std::uint64_t> cachedBytes(const std::vector<std::string>& paths);
    void removeFiles(const RepetitionFiles& files);

    // The steps of run(), in order.
    Outcome prepareRepetition(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                              std::uint32_t repetition, const DataSet* data, RepetitionResult& rep,
                              RepetitionFiles& files, std::vector<std::unique_ptr<Job>>& jobs);
    // What the probe reads on either side of the timed part.
    struct Counters
    {
        std::optional<DeviceCounters> device;
        ProcessCounters process;
        std::optional<MemoryCounters> backlog; // file writes, before only
    };
    bool onDevice(const Case& c) const;
    // Until steady: watches the rate that reaches the disk, the calls' where each write does (direct or
    // synchronous writes), else the device's where the probe can read it.
    void startSteadyWatch(std::optional<SteadyWatch>& watch, const Case& c, const Progress* progress,
                          std::uint32_t threads, std::atomic<bool>& steady);
    Counters countersBefore(const Case& c, bool fileWrite);
    Counters countersAfter(const Case& c);
    // Runs every job at once (behind a start gate when there are several); returns when the clock started.
    // `onStart` runs at that moment (the time limit's deadline starts there). Each thread's exposure is
    // taken as its job returns; when `jobEndsDurable` (its own last sync made its bytes durable), the
    // thread's durable counter is then set to all its bytes, for the sampler.
    static Clock::time_point executeJobs(std::vector<std::unique_ptr<Job>>& jobs, Progress* progress,
                                         std::vector<Outcome>& outcomes, const std::function<void()>& onStart,
                                         bool jobEndsDurable, std::vector<ThreadExposure>& exposure);
    // Merges the jobs' outcomes and byte counts into `rep`, then releases the jobs.
    static void collectJobs(RepetitionResult& rep, std::vector<std::unique_ptr<Job>>& jobs,
                            const Progress* progress, std::vector<Outcome>& outcomes);
    // File writes: takes the page-cache evidence, then the final fsync; returns the time the data was durable
    // with the evidence's own time left out.
    Clock::time_point makeDurable(RepetitionResult& rep, const RepetitionFiles& files,
                                  const std::optional<MemoryCounters>& backlogBefore);
    static void recordFigures(RepetitionResult& rep, const Counters& before, const Counters& after,
                              Clock::time_point started, Clock::time_point returned,
                              Clock::time_point durable);
    // A short count fails the repetition, unless the case's time limit ended it; then the written files or
    // the read bytes are verified (`progress`: what each thread did).
    void checkAndVerify(RepetitionResult& rep, const Case& c, const Pattern& pattern,
                        const RepetitionFiles& files, bool reads, const Progress* progress);

    const Strategy& m_strategy;
    Workspace& m_workspace;
    SystemProbe& m_probe;
    Sampler* m_sampler;
    const RunOptions& m_options;
    const std::atomic<bool>& m_stop;
    CaseChildLauncher* m_launcher;
    const ReplayScript* m_replay;
    std::vector<std::unique_ptr<CallLatency>> m_latency; // per thread, for this repetition
};

void CaseRunner::prepareLatency(const Case& c, bool timed)
{
    m_latency.clear();
    if (!timed)
        return;
    for (std::uint32_t t = 0; t < c.threads; ++t)
        m_latency.push_back(std::make_unique<CallLatency>());
}

void CaseRunner::collectLatency(RepetitionResult& rep, CallLatency* caseLatency)
{
    if (m_latency.empty())
        return;
    auto merged = std::make_unique<CallLatency>();
    for (const auto& thread : m_latency) {
        merged->calls.merge(thread->calls);
        merged->syncs.merge(thread->syncs);
        merged->writes.merge(thread->writes);
    }
    m_latency.clear();
    if (rep.mix) {
        // A mix's calls histogram holds its reads; the call latency is both ways together.
        if (!merged->calls.empty())
            rep.mix->reads.latency = merged->calls.summary();
        if (!merged->writes.empty())
            rep.mix->writes.latency = merged->writes.summary();
        auto both = std::make_unique<LatencyHistogram>(); // 31 KiB: not on the stack
        both->merge(merged->calls);
        both->merge(merged->writes);
        if (!both->empty())
            rep.callLatency = both->summary();
    } else if (!merged->calls.empty()) {
        rep.callLatency = merged->calls.summary();
    }
    if (!merged->syncs.empty())
        rep.syncLatency = merged->syncs.summary();
    if (caseLatency != nullptr && !rep.warmup && rep.outcome.ok()) {
        caseLatency->calls.merge(merged->calls);
        caseLatency->syncs.merge(merged->syncs);
        caseLatency->writes.merge(merged->writes);
    }
}

Outcome CaseRunner::prepareJobs(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                                std::uint32_t repetition, RepetitionFiles& files,
                                std::vector<std::unique_ptr<Job>>& jobs)
{
    // A strategy whose threads share one file runs them inside one job, on the case's whole size.
    const bool shared = m_strategy.info().threadsShareOneFile;
    for (std::uint32_t t = 0; t < (shared ? 1 : c.threads); ++t) {
        JobSpec spec;
        spec.testCase = c;
        spec.thread = t;
        spec.bytes = shared ? c.totalBytes : c.bytesForThread(t);
        spec.pattern = &pattern;
        spec.verifyStream = m_options.verifyPipes;
        spec.target = m_workspace.target();
        spec.latency = t < m_latency.size() ? m_latency[t].get() : nullptr;
        if (c.target == TargetKind::Directory) {
            Outcome outcome;
            const std::string stem = fmt::format("c{:03}-r{}-t{}", caseIndex + 1, repetition, t);
            spec.path = m_workspace.pathFor(stem + ".dat", outcome);
            if (!outcome.ok())
                return outcome;
            spec.auxPath = m_workspace.pathFor(stem + ".batch", outcome);
            if (!outcome.ok())
                return outcome;
            files.data.push_back(spec.path);
            files.scratch.push_back(spec.auxPath);
        }
        if (Outcome outcome = prepareJob(spec, jobs); !outcome.ok())
            return outcome;
    }
    return Outcome::success();
}

Outcome CaseRunner::prepareReplay(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                                  std::uint32_t repetition, RepetitionFiles& files,
                                  std::vector<std::unique_ptr<Job>>& jobs)
{
    const ReplayScript& script = *m_replay;
    Outcome outcome;
    const std::string name = replayFolderName(caseIndex, repetition);
    const std::string folder = m_workspace.directoryFor(name, outcome);
    if (!outcome.ok())
        return outcome;
    files.folders.push_back(folder);
    for (const std::string& sub : script.folders) {
        std::string relative = name;
        relative.append("/").append(sub);
        files.folders.push_back(m_workspace.directoryFor(relative, outcome));
        if (!outcome.ok())
            return outcome;
    }
    std::vector<bool> left(script.files.size(), false);
    for (const ReplayLeftFile& file : script.leftFiles) {
        left[file.file] = true;
        files.data.push_back(replayPath(folder, script.files[file.file].relativePath));
    }
    for (std::size_t i = 0; i < script.files.size(); ++i) {
        const ReplayFile& file = script.files[i];
        if (file.directory)
            continue;
        const std::string path = replayPath(folder, file.relativePath);
        if (!left[i])
            files.scratch.push_back(path);
        if (!file.staged)
            continue;
        if (Outcome written = m_workspace.writeDataFile(path, file.stagedBytes, file.overwritten ? 1 : 0,
                                                        pattern, m_stop, kStagedWriteBytes);
            !written.ok())
            return written;
        // On the disk, as the program found it: its first sync, or the runner's after the timed part, must
        // not pay for writing what it did not write.
        if (Outcome durable = m_workspace.makeDurable(path); !durable.ok())
            return durable;
    }
    // The program ran on its own: what the run left to write back (the last repetition's files removed,
    // another way's) is written back now, outside the time, not by this repetition's first sync.
    if (Outcome settled = m_workspace.settle(); !settled.ok())
        return settled;
    JobSpec spec;
    spec.testCase = c;
    spec.bytes = c.totalBytes;
    spec.pattern = &pattern;
    spec.target = m_workspace.target();
    spec.latency = m_latency.empty() ? nullptr : m_latency[0].get();
    spec.path = folder;
    spec.replay = m_replay;
    return prepareJob(spec, jobs);
}

Outcome CaseRunner::verifyReplayFile(const std::string& path, std::uint64_t bytes, const Pattern& pattern)
{
    std::uint64_t at = 0;
    std::optional<std::uint64_t> wrong;
    Outcome outcome = m_workspace.readBack(path, [&](const std::byte* data, std::size_t size) {
        if (wrong)
            return;
        // Whole spans against the pattern first; byte by byte only where a span differs (a hole).
        std::size_t done = 0;
        while (done < size && !wrong) {
            const std::size_t span = std::min<std::size_t>(size - done, Pattern::kPeriodBytes);
            if (!pattern.firstMismatch(at + done, data + done, span)) {
                done += span;
                continue;
            }
            for (std::size_t i = 0; i < span; ++i) {
                const std::byte b = data[done + i];
                if (b != std::byte{0} && b != pattern.byteAt(at + done + i)) {
                    wrong = at + done + i;
                    break;
                }
            }
            done += span;
        }
        at += size;
    });
    if (!outcome.ok())
        return outcome;
    if (wrong)
        return {Status::Failed, 0, "verify",
                fmt::format("{}: the byte at offset {} is neither what the replay wrote there nor a hole",
                            path, *wrong)};
    if (at != bytes)
        return {Status::Failed, 0, "verify",
                fmt::format("{} holds {} bytes where the recorded program's file held {}", path, at, bytes)};
    return Outcome::success();
}

Outcome CaseRunner::prepareJob(const JobSpec& spec, std::vector<std::unique_ptr<Job>>& jobs)
{
    Outcome outcome;
    auto job = m_strategy.prepare(spec, outcome);
    if (!job) {
        if (outcome.ok())
            outcome = {Status::Failed, 0, "prepare", "the strategy could not start"};
        return outcome;
    }
    jobs.push_back(std::move(job));
    return Outcome::success();
}

Outcome CaseRunner::prepareReadJobs(const Case& c, const Pattern& pattern, const DataSet& data,
                                    std::vector<std::unique_ptr<Job>>& jobs)
{
    const DataLayout layout = m_strategy.info().layout;
    const std::uint32_t jobCount = layout == DataLayout::FileSet ? 1 : c.threads;
    for (std::uint32_t t = 0; t < jobCount; ++t) {
        JobSpec spec;
        spec.testCase = c;
        spec.thread = t;
        spec.pattern = &pattern;
        spec.target = m_workspace.target();
        spec.verifyData = m_options.verifyFiles;
        spec.latency = t < m_latency.size() ? m_latency[t].get() : nullptr;
        if (layout == DataLayout::FileSet) {
            spec.bytes = data.totalBytes;
            spec.files = &data.files;
        } else {
            const DataFile& file = data.files[layout == DataLayout::SharedFile ? 0 : t];
            spec.bytes = c.bytesForThread(t);
            spec.path = file.relativePath;
            spec.patternOffset = file.patternOffset;
        }
        if (Outcome outcome = prepareJob(spec, jobs); !outcome.ok())
            return outcome;
    }
    return Outcome::success();
}

Outcome CaseRunner::setCacheState(const Case& c, const DataSet& data, const Pattern& pattern)
{
    if (c.cache == CacheState::Warm) {
        for (const auto& file : data.files) {
            if (m_stop.load(std::memory_order_relaxed))
                return Outcome::cancelled();
            auto outcome = m_workspace.verify(file.relativePath, file.bytes, pattern, file.patternOffset);
            if (!outcome.ok())
                return outcome;
        }
        return Outcome::success();
    }
    if (m_options.dropCaches) {
        for (const auto& file : data.files) {
            auto outcome = m_workspace.evict(file.relativePath); // writes back first, so nothing is lost
            if (!outcome.ok())
                return outcome;
        }
        return m_workspace.dropCaches();
    }
    for (const auto& file : data.files) {
        if (m_stop.load(std::memory_order_relaxed))
            return Outcome::cancelled();
        auto outcome = m_workspace.evict(file.relativePath);
        if (!outcome.ok())
            return outcome;
    }
    return Outcome::success();
}

std::optional<std::uint64_t> CaseRunner::cachedBytes(const DataSet& data)
{
    std::uint64_t total = 0;
    for (const auto& file : data.files) {
        const auto bytes = m_workspace.cachedBytes(file.relativePath);
        if (!bytes)
            return std::nullopt;
        total += *bytes;
    }
    return total;
}

std::optional<std::uint64_t> CaseRunner::cachedBytes(const std::vector<std::string>& paths)
{
    std::uint64_t total = 0;
    for (const auto& path : paths) {
        const auto bytes = m_workspace.cachedBytes(path);
        if (!bytes)
            return std::nullopt;
        total += *bytes;
    }
    return total;
}

void CaseRunner::removeFiles(const RepetitionFiles& files)
{
    for (const auto& path : files.data)
        m_workspace.remove(path);
    for (const auto& path : files.scratch)
        m_workspace.remove(path);
    std::for_each(files.folders.rbegin(), files.folders.rend(),
                  [this](const std::string& folder) { m_workspace.removeDirectory(folder); });
}

Outcome CaseRunner::prepareRepetition(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                                      std::uint32_t repetition, const DataSet* data, RepetitionResult& rep,
                                      RepetitionFiles& files, std::vector<std::unique_ptr<Job>>& jobs)
{
    if (m_replay != nullptr)
        return prepareReplay(caseIndex, c, pattern, repetition, files, jobs);
    if (data == nullptr)
        return prepareJobs(caseIndex, c, pattern, repetition, files, jobs);
    Outcome outcome = setCacheState(c, *data, pattern);
    if (outcome.ok())
        outcome = prepareReadJobs(c, pattern, *data, jobs);
    if (outcome.ok())
        rep.cachedBytes = cachedBytes(*data);
    return outcome;
}

bool CaseRunner::onDevice(const Case& c) const
{
    return c.target == TargetKind::Directory && !m_workspace.target().device.empty();
}

CaseRunner::Counters CaseRunner::countersBefore(const Case& c, bool fileWrite)
{
    Counters counters;
    counters.device = onDevice(c) ? m_probe.device(m_workspace.target().device) : std::nullopt;
    counters.process = m_probe.process();
    counters.backlog = fileWrite ? m_probe.writeBacklog() : std::nullopt;
    return counters;
}

CaseRunner::Counters CaseRunner::countersAfter(const Case& c)
{
    Counters counters;
    counters.process = m_probe.process();
    counters.device = onDevice(c) ? m_probe.device(m_workspace.target().device) : std::nullopt;
    return counters;
}

Clock::time_point CaseRunner::executeJobs(std::vector<std::unique_ptr<Job>>& jobs, Progress* progress,
                                          std::vector<Outcome>& outcomes,
                                          const std::function<void()>& onStart, bool jobEndsDurable,
                                          std::vector<ThreadExposure>& exposure)
{
    const auto threads = static_cast<std::uint32_t>(jobs.size());
    exposure.assign(threads, {});
    const auto execute = [&](std::uint32_t t) {
        outcomes[t] = executeJob(*jobs[t], progress[t], jobEndsDurable, exposure[t]);
    };
    return executeThreads(threads, execute, onStart);
}

void CaseRunner::collectJobs(RepetitionResult& rep, std::vector<std::unique_ptr<Job>>& jobs,
                             const Progress* progress, std::vector<Outcome>& outcomes)
{
    std::vector<double> fileSeconds;
    for (std::size_t t = 0; t < jobs.size(); ++t) {
        merge(rep.outcome, std::move(outcomes[t]));
        merge(rep.outcome, jobs[t]->finish());
        rep.bytes += progress[t].bytes.load(std::memory_order_relaxed);
        if (const auto mix = jobs[t]->mixCounts()) {
            if (!rep.mix)
                rep.mix.emplace();
            rep.mix->reads.ops += mix->readOps;
            rep.mix->reads.bytes += mix->readBytes;
            rep.mix->writes.ops += mix->writeOps;
            rep.mix->writes.bytes += mix->writeBytes;
        }
        if (const auto inside = jobs[t]->insideSeconds()) {
            rep.insideSeconds = rep.insideSeconds.value_or(0.0) + *inside;
            rep.replayedCalls += jobs[t]->callsMade();
        }
        if (const auto inEffect = jobs[t]->uringInEffect())
            rep.uringInEffect =
                rep.uringInEffect ? UringOptions::common(*rep.uringInEffect, *inEffect) : *inEffect;
        auto seconds = jobs[t]->takeFileSeconds();
        fileSeconds.insert(fileSeconds.end(), seconds.begin(), seconds.end());
    }
    jobs.clear();
    if (!fileSeconds.empty()) {
        rep.files = fileSeconds.size();
        rep.fileP50Seconds = percentile(fileSeconds, 50);
        rep.fileP99Seconds = percentile(fileSeconds, 99);
    }
}

Clock::time_point CaseRunner::makeDurable(RepetitionResult& rep, const RepetitionFiles& files,
                                          const std::optional<MemoryCounters>& backlogBefore)
{
    // Evidence of the page cache, before the final fsync empties Dirty; its time is not counted.
    const auto evidenceStarted = Clock::now();
    const auto backlogAfter = m_probe.writeBacklog();
    if (backlogBefore && backlogAfter) {
        rep.dirtyBeforeBytes = backlogBefore->dirtyBytes + backlogBefore->writebackBytes;
        rep.dirtyAfterBytes = backlogAfter->dirtyBytes + backlogAfter->writebackBytes;
    }
    rep.cachedAfterBytes = cachedBytes(files.data);
    const auto evidenceTime = Clock::now() - evidenceStarted;
    if (m_sampler != nullptr)
        m_sampler->setSyncing(true);
    for (const auto& path : files.data)
        merge(rep.outcome, m_workspace.makeDurable(path));
    return Clock::now() - evidenceTime;
}

void CaseRunner::recordFigures(RepetitionResult& rep, const Counters& before, const Counters& after,
                               Clock::time_point started, Clock::time_point returned,
                               Clock::time_point durable)
{
    rep.returnSeconds = inSeconds(returned - started);
    rep.durableSeconds = inSeconds(durable - started);
    rep.apparentMBps = toMBps(rep.bytes, rep.returnSeconds);
    rep.durableMBps = toMBps(rep.bytes, rep.durableSeconds);
    if (rep.mix) {
        for (MixSide* side : {&rep.mix->reads, &rep.mix->writes}) {
            side->mbps = toMBps(side->bytes, rep.returnSeconds);
            side->iops = rep.returnSeconds > 0 ? static_cast<double>(side->ops) / rep.returnSeconds : 0.0;
        }
    }
    rep.cpuUserSeconds = after.process.userSeconds - before.process.userSeconds;
    rep.cpuSystemSeconds = after.process.systemSeconds - before.process.systemSeconds;
    if (before.device && after.device) {
        rep.deviceObserved = true;
        rep.deviceWrittenBytes = after.device->writtenBytes - before.device->writtenBytes;
        rep.deviceReadBytes = after.device->readBytes - before.device->readBytes;
    }
}

void CaseRunner::checkAndVerify(RepetitionResult& rep, const Case& c, const Pattern& pattern,
                                const RepetitionFiles& files, bool reads, const Progress* progress)
{
    const bool cutShort = (rep.timeLimitReached || rep.steady) && rep.bytes < c.totalBytes;
    if (rep.outcome.ok() && rep.bytes != c.totalBytes && !cutShort)
        rep.outcome = {
            Status::Failed, 0, reads ? "read" : "write",
            fmt::format("{} {} bytes instead of {}", reads ? "read" : "wrote", rep.bytes, c.totalBytes)};
    const StrategyInfo& info = m_strategy.info();
    if (m_replay != nullptr) {
        if (rep.outcome.ok() && m_options.verifyFiles) {
            for (std::size_t i = 0; i < files.data.size() && rep.outcome.ok(); ++i)
                rep.outcome = verifyReplayFile(files.data[i], m_replay->leftFiles[i].bytes, pattern);
            rep.verified = rep.outcome.ok();
        }
    } else if (reads) {
        rep.verified = rep.outcome.ok() && m_options.verifyFiles; // the jobs compared every byte they read
    } else if (cutShort && info.randomOffsets) {
        // A random writer cut short leaves the chunks it did not reach as holes among those it wrote; which
        // they are, only its order knows. Not verified, and the result says so (verified: false).
        rep.verified = false;
    } else if (rep.outcome.ok() && c.target == TargetKind::Directory && m_options.verifyFiles) {
        // Cut short, a file sized before the timed part (preallocated, or fallocated by the strategy) is
        // longer than what was written into it: its written prefix is checked.
        const bool sizedBefore = c.preallocate != Preallocate::None || info.needsFallocate;
        const auto fileCount = static_cast<std::uint32_t>(files.data.size());
        for (std::uint32_t t = 0; t < fileCount && rep.outcome.ok(); ++t) {
            const std::uint64_t share = info.threadsShareOneFile ? c.totalBytes : c.bytesForThread(t);
            const std::uint64_t written =
                bytesInFile(c.preallocate, c.chunkBytes,
                            cutShort ? progress[t].bytes.load(std::memory_order_relaxed) : share);
            rep.outcome = m_workspace.verify(files.data[t], written, pattern, 0, cutShort && sizedBefore);
        }
        rep.verified = rep.outcome.ok();
    } else if (rep.outcome.ok() && c.target == TargetKind::Pipe && m_options.verifyPipes) {
        rep.verified = true;
    }
}

void CaseRunner::startSteadyWatch(std::optional<SteadyWatch>& watch, const Case& c, const Progress* progress,
                                  std::uint32_t threads, std::atomic<bool>& steady)
{
    const bool eachWriteDurable = m_strategy.info().needsDirectIo || c.sync.mode == SyncMode::OSync ||
                                  c.sync.mode == SyncMode::ODsync || c.sync.loopSyncEvery() == 1;
    const std::string device = m_workspace.target().device;
    const auto base = eachWriteDurable || device.empty() ? std::nullopt : m_probe.device(device);
    if (base) {
        watch.emplace(
            c.steady, true,
            [this, device, from = base->writtenBytes] {
                const auto now = m_probe.device(device);
                return now && now->writtenBytes >= from ? now->writtenBytes - from : 0;
            },
            steady);
        return;
    }
    watch.emplace(
        c.steady, false,
        [progress, threads] {
            std::uint64_t bytes = 0;
            for (std::uint32_t t = 0; t < threads; ++t)
                bytes += progress[t].bytes.load(std::memory_order_relaxed);
            return bytes;
        },
        steady);
}

RepetitionResult CaseRunner::run(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                                 std::uint32_t repetition, const DataSet* data, CallLatency* caseLatency)
{
    RepetitionResult rep;
    rep.index = repetition;
    rep.warmup = repetition < m_options.warmups;
    if (c.memoryLimitBytes != 0)
        return runInChild(caseIndex, c, pattern, std::move(rep), caseLatency);
    const bool reads = data != nullptr;

    RepetitionFiles files;
    std::vector<std::unique_ptr<Job>> jobs;
    prepareLatency(c, caseLatency != nullptr);
    rep.outcome = prepareRepetition(caseIndex, c, pattern, repetition, data, rep, files, jobs);
    if (!rep.outcome.ok()) {
        jobs.clear();
        m_latency.clear();
        removeFiles(files);
        return rep;
    }

    // File-set readers run their own threads inside one job.
    const auto threads = static_cast<std::uint32_t>(jobs.size());
    const auto progress = std::make_unique<Progress[]>(threads);
    std::atomic<bool> timeUp{false};
    for (std::uint32_t t = 0; t < threads; ++t) {
        progress[t].stop = &m_stop;
        progress[t].timeUp = c.timeLimitMs != 0 || c.steady.on() ? &timeUp : nullptr;
    }
    std::vector<Outcome> outcomes(threads);

    const ExposurePlan exposurePlan = iolab::exposurePlan(c, m_strategy.info());
    if (m_sampler != nullptr)
        m_sampler->begin(caseIndex, static_cast<std::int32_t>(repetition), rep.warmup, progress.get(),
                         threads, exposurePlan);
    const bool fileWrite = !reads && c.target == TargetKind::Directory;
    const Counters before = countersBefore(c, fileWrite);
    // The limit counts from the moment the clock starts, so that no repetition's timed part is shorter.
    std::optional<Deadline> deadline;
    std::optional<SteadyWatch> steady;
    const bool jobEndsDurable = exposurePlan.point != DurablePoint::RunEnd;
    std::vector<ThreadExposure> exposure;
    const auto started = executeJobs(
        jobs, progress.get(), outcomes,
        [&] {
            if (c.timeLimitMs != 0)
                deadline.emplace(c.timeLimitMs, timeUp);
            if (c.steady.on() && fileWrite)
                startSteadyWatch(steady, c, progress.get(), threads, timeUp);
        },
        jobEndsDurable, exposure);
    const auto returned = Clock::now();
    deadline.reset();
    if (steady) {
        rep.steady = steady->state();
        steady.reset();
    }
    rep.timeLimitReached =
        timeUp.load(std::memory_order_relaxed) && !m_stop.load(std::memory_order_relaxed) && !rep.steady;
    const auto tracked = jobs.size() == 1 ? jobs.front()->trackedExposure() : std::nullopt;
    collectJobs(rep, jobs, progress.get(), outcomes);

    auto durable = fileWrite && rep.outcome.ok() ? makeDurable(rep, files, before.backlog) : returned;
    if (mixes(c) && rep.outcome.ok() && data != nullptr) {
        // A mix's writes went where its reads do: the data set, made durable as a write's files are, so
        // that the durable rate counts what reaching the disk took.
        if (m_sampler != nullptr)
            m_sampler->setSyncing(true);
        for (const auto& file : data->files)
            merge(rep.outcome, m_workspace.makeDurable(file.relativePath));
        durable = Clock::now();
    }
    if (exposurePlan.point != DurablePoint::NotApplicable && rep.outcome.ok())
        rep.atRisk = computeExposure(exposurePlan, exposure, durable);
    if (tracked && rep.outcome.ok()) {
        Exposure e;
        e.maxBytes = tracked->maxBytes;
        auto longest = tracked->longestWait;
        if (tracked->waitingSince)
            longest = std::max(
                longest, std::chrono::duration_cast<TimingClock::duration>(durable - *tracked->waitingSince));
        e.maxSeconds = tracked->maxBytes == 0 ? 0.0 : inSeconds(longest);
        e.method = tracked->method;
        rep.atRisk = e;
    }
    const Counters after = countersAfter(c);
    rep.peakRssBytes = m_sampler != nullptr ? m_sampler->end() : after.process.rssBytes;
    recordFigures(rep, before, after, started, returned, durable);
    checkAndVerify(rep, c, pattern, files, reads, progress.get());
    collectLatency(rep, caseLatency);
    removeFiles(files);
    return rep;
}

childlink::State CaseRunner::waitChild(CaseChild& child, childlink::State from)
{
    // A child asked to stop ends its loop at its next batch; one stuck longer (a sync on a slow device, a
    // hung mount) is killed, so that a cancel always ends the run.
    constexpr auto kStopGrace = std::chrono::seconds(5);
    std::optional<Clock::time_point> killAt;
    for (;;) {
        const childlink::State state = child.link().state();
        if (state > from || child.exited())
            return child.link().state();
        if (!killAt && m_stop.load(std::memory_order_relaxed)) {
            child.link().header().stop.store(true, std::memory_order_relaxed);
            killAt = Clock::now() + kStopGrace;
        } else if (killAt && Clock::now() >= *killAt) {
            logger(LogModule::Core)
                .warn("a case child did not stop within {} s of the cancel: killed", kStopGrace.count());
            child.kill();
            killAt = Clock::time_point::max();
        }
        // Woken by the child's next state at once; the timeout only bounds how late a stop request or a
        // child's death is noticed.
        (void)child.waitState(state, std::chrono::milliseconds(10));
    }
}

RepetitionResult CaseRunner::runInChild(std::uint32_t caseIndex, const Case& c, const Pattern& pattern,
                                        RepetitionResult rep, CallLatency* caseLatency)
{
    using childlink::State;
    if (m_launcher == nullptr) {
        rep.outcome = {Status::Failed, 0, "memory limit", "this front end cannot start case child processes"};
        return rep;
    }
    ChildRequest request;
    request.testCase = c;
    request.target = m_workspace.target();
    request.measured = true;
    request.latency = caseLatency != nullptr; // the child times the calls as this process would
    RepetitionFiles files;
    const bool shared = m_strategy.info().threadsShareOneFile;
    for (std::uint32_t t = 0; t < (shared ? 1 : c.threads); ++t) {
        const std::string stem = fmt::format("c{:03}-r{}-t{}", caseIndex + 1, rep.index, t);
        ChildThread thread;
        thread.path = m_workspace.pathFor(stem + ".dat", rep.outcome);
        if (rep.outcome.ok())
            thread.auxPath = m_workspace.pathFor(stem + ".batch", rep.outcome);
        if (!rep.outcome.ok())
            return rep;
        thread.bytes = shared ? c.totalBytes : c.bytesForThread(t);
        files.data.push_back(thread.path);
        files.scratch.push_back(thread.auxPath);
        request.threads.push_back(std::move(thread));
    }
    const std::string linkPath =
        m_workspace.pathFor(fmt::format("c{:03}-r{}.link", caseIndex + 1, rep.index), rep.outcome);
    if (!rep.outcome.ok())
        return rep;
    auto child = m_launcher->start(linkPath, request, rep.outcome);
    const auto finish = [&] {
        child.reset();
        m_workspace.remove(linkPath);
        removeFiles(files);
        return std::move(rep);
    };
    if (!child)
        return finish();
    const auto threads = static_cast<std::uint32_t>(request.threads.size());
    const childlink::Link& link = child->link();
    // Why a child that stopped short did: its own outcome, or how it ended, the OOM killer named.
    const auto childFailure = [&] {
        if (link.state() == State::Failed || link.state() == State::Finished)
            return link.outcome();
        const ChildExit exit = child->wait();
        if (m_stop.load(std::memory_order_relaxed))
            return Outcome::cancelled(); // killed after the cancel, or on its way out
        const BudgetEnd end = child->budgetEnd();
        if (end.oomKills != 0)
            return Outcome{Status::Failed, 0, "memory limit",
                           oomKillSentence(end.peakBytes, c.memoryLimitBytes)};
        return Outcome{Status::Failed, exit.code, "case child",
                       fmt::format("the case's child process {} before it finished", exit.description)};
    };
    if (waitChild(*child, State::Starting) != State::Ready) {
        rep.outcome = childFailure();
        return finish();
    }

    const ExposurePlan exposurePlan = iolab::exposurePlan(c, m_strategy.info());
    if (m_sampler != nullptr)
        // The live at-risk line reads the child's counters through the link, as it reads this process's.
        m_sampler->begin(caseIndex, static_cast<std::int32_t>(rep.index), rep.warmup, &link.progress(0),
                         threads, exposurePlan, child.get());
    const Counters before = countersBefore(c, true);
    link.header().go.store(1, std::memory_order_release);
    const State reached = waitChild(*child, State::Running);
    if (reached != State::Finished) {
        rep.outcome = childFailure();
    } else {
        rep.outcome = link.outcome();
        for (std::uint32_t t = 0; t < threads; ++t)
            rep.bytes += link.progress(t).bytes.load(std::memory_order_relaxed);
        rep.timeLimitReached = link.header().timeLimitReached != 0;
    }
    const childlink::Header& h = link.header();
    const Clock::time_point started = childlink::timePointOf(h.startedNs);
    const Clock::time_point returned = childlink::timePointOf(h.returnedNs);
    const auto durable = rep.outcome.ok() ? makeDurable(rep, files, before.backlog) : returned;
    // The samples go on through the final fsync, as in this process's own runs (marked syncing).
    const std::uint64_t peakRss = m_sampler != nullptr ? m_sampler->end() : 0;
    const BudgetCounters sampledPeak = m_sampler != nullptr ? m_sampler->takeBudgetPeak() : BudgetCounters{};
    if (rep.outcome.ok()) {
        // The child's threads as executeJobs would have seen them, from what each left in the block.
        std::vector<ThreadExposure> exposure(threads);
        for (std::uint32_t t = 0; t < threads; ++t) {
            const Progress& p = link.progress(t);
            const childlink::ThreadEnd& end = link.threadEnd(t);
            exposure[t] = {p.bytes.load(std::memory_order_relaxed), end.durable, p.durableAt, p.longestWait,
                           childlink::timePointOf(end.endedNs)};
        }
        if (exposurePlan.point != DurablePoint::NotApplicable)
            rep.atRisk = computeExposure(exposurePlan, exposure, durable);
        if (h.latencyRecorded != 0) {
            m_latency.clear();
            m_latency.push_back(std::make_unique<CallLatency>(link.latency()));
            collectLatency(rep, caseLatency);
        }
    }
    Counters after = countersAfter(c);
    Counters cpu = before;
    cpu.process = {};
    after.process = {h.cpuUserSeconds, h.cpuSystemSeconds, peakRss};
    if (rep.outcome.ok())
        recordFigures(rep, cpu, after, started, returned, durable);
    rep.peakRssBytes = peakRss;
    checkAndVerify(rep, c, pattern, files, false, &link.progress(0));
    (void)child->wait();
    const BudgetEnd end = child->budgetEnd();
    rep.memoryBudget = MemoryBudgetUse{c.memoryLimitBytes, std::max(end.peakBytes, sampledPeak.usageBytes),
                                       sampledPeak.pageCacheBytes, sampledPeak.dirtyBytes};
    return finish();
}

// The data set of a read case, written (or found) before its first repetition; nullptr for writes and, with
// the case's status and reason set, when it cannot be had.
const DataSet* prepareData(DataSets& dataSets, const Workspace& workspace, const Case& c,
                           const Strategy& strategy, const RunOptions& options, CaseResult& caseResult)
{
    if (c.direction != Direction::Read)
        return nullptr;
    caseResult.cacheMethod = c.cache == CacheState::Warm ? "warm: every file read once before each repetition"
                                                         : workspace.evictionMethod(options.dropCaches);
    Outcome outcome;
    const DataSet* data = dataSets.prepare(c, strategy.info().layout, options.spaceCheck, outcome);
    if (data == nullptr) {
        caseResult.status = outcome.status == Status::Ok ? Status::Failed : outcome.status;
        caseResult.reason = outcome.message;
        logger(LogModule::Core).warn("case {}: {}", caseResult.index + 1, outcome.message);
        return nullptr;
    }
    caseResult.dataSetBytes = data->totalBytes;
    return data;
}

} // namespace

void summarizeCase(CaseResult& result)
{
    std::vector<double> apparent;
    std::vector<double> durable;
    double cpuPerGiB = 0;
    std::size_t measured = 0;
    for (const auto& rep : result.repetitions) {
        result.peakRssBytes = std::max(result.peakRssBytes, rep.peakRssBytes);
        if (rep.warmup || !rep.outcome.ok())
            continue;
        apparent.push_back(rep.apparentMBps);
        durable.push_back(rep.durableMBps);
        if (rep.bytes > 0)
            cpuPerGiB +=
                (rep.cpuUserSeconds + rep.cpuSystemSeconds) / (static_cast<double>(rep.bytes) / kGiB);
        ++measured;
    }
    result.apparentMBps = summarize(apparent);
    result.durableMBps = summarize(durable);
    result.atRisk = worstExposure(result.repetitions);
    result.uringInEffect.reset();
    for (const auto& rep : result.repetitions) {
        if (rep.uringInEffect)
            result.uringInEffect = result.uringInEffect
                                       ? UringOptions::common(*result.uringInEffect, *rep.uringInEffect)
                                       : *rep.uringInEffect;
    }
    result.memoryBudget.reset();
    for (const auto& rep : result.repetitions) {
        if (!rep.memoryBudget)
            continue;
        if (!result.memoryBudget)
            result.memoryBudget = MemoryBudgetUse{};
        keepPeaks(*result.memoryBudget, *rep.memoryBudget);
    }
    std::vector<double> filesPerSecond;
    std::vector<double> p50;
    std::vector<double> p99;
    for (const auto& rep : result.repetitions) {
        if (rep.warmup || !rep.outcome.ok() || rep.files == 0 || rep.returnSeconds <= 0)
            continue;
        filesPerSecond.push_back(static_cast<double>(rep.files) / rep.returnSeconds);
        p50.push_back(rep.fileP50Seconds);
        p99.push_back(rep.fileP99Seconds);
    }
    result.filesPerSecond = summarize(filesPerSecond);
    std::vector<double> readMBps;
    std::vector<double> writeMBps;
    std::vector<double> readIops;
    std::vector<double> writeIops;
    std::uint64_t readOps = 0;
    std::uint64_t writeOps = 0;
    for (const auto& rep : result.repetitions) {
        if (rep.warmup || !rep.outcome.ok() || !rep.mix)
            continue;
        readMBps.push_back(rep.mix->reads.mbps);
        writeMBps.push_back(rep.mix->writes.mbps);
        readIops.push_back(rep.mix->reads.iops);
        writeIops.push_back(rep.mix->writes.iops);
        readOps += rep.mix->reads.ops;
        writeOps += rep.mix->writes.ops;
    }
    if (!readMBps.empty() || result.mix) {
        if (!result.mix)
            result.mix.emplace(); // keeps the latency keepLatency put there
        result.mix->readMBps = summarize(readMBps);
        result.mix->writeMBps = summarize(writeMBps);
        result.mix->readIops = summarize(readIops);
        result.mix->writeIops = summarize(writeIops);
        result.mix->readOps = readOps;
        result.mix->writeOps = writeOps;
    }
    result.fileP50Seconds = median(p50);
    result.fileP99Seconds = median(p99);
    result.cpuSecondsPerGiB = measured > 0 ? cpuPerGiB / static_cast<double>(measured) : 0.0;

    std::vector<double> intervals;
    for (const auto& s : result.samples) {
        if (!s.warmup && !s.syncing)
            intervals.push_back(s.intervalMBps);
    }
    result.stabilityMBps = sampleStddev(intervals);
}

namespace {

// What a write case's data files hold once it has run: all it writes, or under preallocate rewrite one chunk
// per thread, written again and again.
std::uint64_t dataBytesOnDisk(const Case& c)
{
    if (c.preallocate == Preallocate::Rewrite)
        return std::min(c.totalBytes, c.chunkBytes * c.threads);
    return c.totalBytes;
}

} // namespace

std::uint64_t spaceNeeded(const Case& c)
{
    if (c.direction == Direction::Read) {
        // The data set; the runner checks it when the set is planned (DataSets::prepare), where a set already
        // written costs nothing more.
        const std::uint64_t files = c.fileSet.empty() ? c.threads : c.fileSet.files;
        return dataSetSpaceNeeded(c.totalBytes, files);
    }
    const std::uint64_t data = dataBytesOnDisk(c);
    return data + kScratchBytesPerThread * c.threads + spaceMarginBytes(data);
}

bool allCasesOk(const RunResult& result)
{
    if (result.cancelled)
        return false;
    return std::all_of(result.cases.begin(), result.cases.end(),
                       [](const CaseResult& c) { return c.status == Status::Ok; });
}

std::vector<std::string> cacheMethods(const RunResult& result)
{
    std::vector<std::string> methods;
    for (const auto& c : result.cases) {
        if (!c.cacheMethod.empty() &&
            std::find(methods.begin(), methods.end(), c.cacheMethod) == methods.end())
            methods.push_back(c.cacheMethod);
    }
    return methods;
}

CrashProbeResult Runner::probeCase(std::uint32_t caseIndex, const Case& c, const StrategyInfo& info,
                                   const CaseResult& measured, const RunOptions& options,
                                   const std::atomic<bool>& stop, RunObserver* observer)
{
    if (m_launcher == nullptr) {
        CrashProbeResult probe;
        probe.seed = options.crashProbeSeed;
        probe.failure = "this front end cannot start case child processes";
        return probe;
    }
    // The kills are placed within what a measured repetition did: its bytes (acknowledgement points) or its
    // time (moments); a time-limited case's size may be far beyond either.
    std::vector<double> seconds;
    std::vector<double> bytes;
    for (const auto& rep : measured.repetitions) {
        if (rep.outcome.ok() && (!rep.warmup || measured.repetitions.size() == 1)) {
            seconds.push_back(rep.returnSeconds);
            bytes.push_back(static_cast<double>(rep.bytes));
        }
    }
    if (seconds.empty()) {
        for (const auto& rep : measured.repetitions) {
            seconds.push_back(rep.returnSeconds);
            bytes.push_back(static_cast<double>(rep.bytes));
        }
    }
    logger(LogModule::Core)
        .info("case {}: kill -9 probe, {} kills at {}", caseIndex + 1, options.crashProbe,
              options.crashProbeAt == CrashProbeAt::Ack ? "acknowledgement points" : "moments");
    CrashProbePlan plan;
    plan.kills = options.crashProbe;
    plan.seed = options.crashProbeSeed;
    plan.at = options.crashProbeAt;
    plan.typicalSeconds = median(seconds);
    plan.typicalBytes = static_cast<std::uint64_t>(median(bytes));
    const auto onKill = [observer, caseIndex, kills = plan.kills](std::uint32_t kill) {
        if (observer != nullptr)
            observer->probeKillStarted({caseIndex, kill, kills});
    };
    return runCrashProbe(caseIndex, c, info, plan, *m_launcher, m_workspace, stop, onKill);
}

namespace {

void keepLatency(const CallLatency* caseLatency, CaseResult& caseResult)
{
    if (caseLatency && mixes(caseResult.testCase)) {
        // The calls histogram holds the reads, `writes` the writes; the call latency is both together.
        if (!caseResult.mix)
            caseResult.mix.emplace();
        if (!caseLatency->calls.empty())
            caseResult.mix->readLatency = caseLatency->calls.distribution();
        if (!caseLatency->writes.empty())
            caseResult.mix->writeLatency = caseLatency->writes.distribution();
        auto both = std::make_unique<LatencyHistogram>();
        both->merge(caseLatency->calls);
        both->merge(caseLatency->writes);
        if (!both->empty())
            caseResult.callLatency = both->distribution();
    } else if (caseLatency && !caseLatency->calls.empty())
        caseResult.callLatency = caseLatency->calls.distribution();
    if (caseLatency && !caseLatency->syncs.empty())
        caseResult.syncLatency = caseLatency->syncs.distribution();
}

// What the cases of one run share.
struct RunContext
{
    const Registry& registry;
    Workspace& workspace;
    SystemProbe& probe;
    CaseChildLauncher* launcher;
    // The kill -9 probe of a measured case (Runner::probeCase).
    std::function<CrashProbeResult(const CaseResult& measured, const StrategyInfo& info)> crashProbe;
    const RunPlan& plan;
    const RunOptions& options;      // as the front end gave them
    const RunOptions& probeOptions; // the result's: the kill -9 probe's count, placement and seed settled
    RunObserver* observer;
    Sampler* sampler;
    DataSets& dataSets;
    std::atomic<bool>& stop;
    std::uint32_t caseCount;
    std::uint32_t repetitions;        // warm-ups and measured, per case
    std::vector<CaseResult>& results; // in case order
};

// A case made ready to run its repetitions, or settled without them (refused, or its data not had).
struct PreparedCase
{
    CaseResult result;
    const Strategy* strategy = nullptr;
    std::shared_ptr<const ReplayScript> replay;
    const DataSet* data = nullptr;
    std::unique_ptr<CaseRunner> runner; // set when the case is ready to run its repetitions
    std::unique_ptr<CallLatency> latency;
    // In order, the case's bytes for all its repetitions; cases that take turns build theirs each turn, so
    // that none holds a chunk-sized buffer while the others run.
    std::optional<Pattern> pattern;
    Clock::duration spent{}; // the wall time the case has taken so far
    bool ended = false; // taking turns: it takes no more (refused in preparation, or a repetition failed)

    bool ready() const { return runner != nullptr; }
};

// The first repetition a case runs: past a fast cache, no warm-up, which would fill the cache the measured
// repetition is to find (a drive empties it only when idle a while).
std::uint32_t firstRepetition(const Case& c, const RunOptions& options)
{
    return options.warmups - warmupsFor(c, options.warmups);
}

// Refuses the case with the reason, or makes it ready: its replay script read, its data set written.
void prepareCase(RunContext& run, PreparedCase& prepared)
{
    CaseResult& caseResult = prepared.result;
    Case c = caseResult.testCase;
    const Strategy* strategy = run.registry.find(c.strategy);
    const std::uint64_t free = c.target == TargetKind::Directory ? run.workspace.freeBytes() : 0;
    // A replay's script, read now: its size, chunk and threads are the trace's.
    std::shared_ptr<const ReplayScript> replay;
    std::string replayRefusal;
    if (strategy != nullptr && c.strategy == kReplayStrategy) {
        const std::string trace = extraAxisValue(c, "replay", "");
        const std::string variant = extraAxisValue(c, "replay-variant", std::string(kRecordedCalls));
        try {
            const auto planned = run.plan.replays.find(replayPlanKey(trace, variant));
            replay = planned != run.plan.replays.end()
                         ? planned->second
                         : scriptForVariant(std::make_shared<const ReplayScript>(loadReplayScript(trace)),
                                            variant);
            fitCaseToReplay(c, *replay);
            caseResult.testCase = c;
            caseResult.replay = replayRecord(*replay);
        } catch (const InputError& e) {
            replayRefusal = e.what();
        }
    }
    const std::uint32_t crashProbe = run.probeOptions.crashProbe;
    const RunOptions& options = run.options;
    if (strategy == nullptr) {
        caseResult.status = Status::Refused;
        caseResult.reason = fmt::format("unknown strategy '{}'", c.strategy);
    } else if (!replayRefusal.empty()) {
        caseResult.status = Status::Refused;
        caseResult.reason = replayRefusal;
    } else if (replay && options.spaceCheck && replaySpaceNeeded(*replay) > free) {
        caseResult.status = Status::Refused;
        caseResult.reason = fmt::format(
            "the replay's files need {} of free space (the recorded program's files at their largest, "
            "plus a {} margin) but the target has {}",
            formatBytes(replaySpaceNeeded(*replay)),
            formatBytes(replaySpaceNeeded(*replay) - replay->peakFileBytes), formatBytes(free));
    } else if (crashProbe != 0 && replay) {
        caseResult.status = Status::Refused;
        caseResult.reason = "the kill -9 probe kills IOLab's own loops; a replay re-issues a program's calls";
    } else if (crashProbe != 0 && !crashProbeRefusal(c).empty()) {
        caseResult.status = Status::Refused;
        caseResult.reason = crashProbeRefusal(c);
    } else if (!replay && options.spaceCheck && c.direction == Direction::Write &&
               c.target == TargetKind::Directory && spaceNeeded(c) > free) {
        caseResult.status = Status::Refused;
        caseResult.reason = fmt::format(
            "needs {} of free space (data plus a {} margin) but the target has {}",
            formatBytes(spaceNeeded(c)), formatBytes(spaceNeeded(c) - dataBytesOnDisk(c)), formatBytes(free));
    } else if (const DataSet* data =
                   prepareData(run.dataSets, run.workspace, c, *strategy, options, caseResult);
               data != nullptr || c.direction == Direction::Write) {
        prepared.strategy = strategy;
        prepared.replay = std::move(replay);
        prepared.data = data;
        prepared.runner =
            std::make_unique<CaseRunner>(*strategy, run.workspace, run.probe, run.sampler, options, run.stop,
                                         run.launcher, prepared.replay.get());
        const LatencyChoice latency = chooseLatency(c, strategy->info());
        caseResult.latencyChoice = latency.why;
        if (latency.record)
            prepared.latency = std::make_unique<CallLatency>();
    }
}

// One repetition of a ready case; false when it did not succeed (the case ends there).
bool runTurn(RunContext& run, PreparedCase& prepared, std::uint32_t repetition)
{
    CaseResult& caseResult = prepared.result;
    const Case& c = caseResult.testCase;
    // The drive's heat before the case's first repetition and after its last (each turn's, the last kept).
    const std::string& device = run.workspace.target().device;
    if (!caseResult.thermalBefore && c.target == TargetKind::Directory)
        caseResult.thermalBefore = run.probe.thermal(device);
    std::optional<Pattern> turns;
    const Pattern& pattern = prepared.pattern ? *prepared.pattern : turns.emplace(c.chunkBytes, c.pattern);
    auto rep =
        prepared.runner->run(caseResult.index, c, pattern, repetition, prepared.data, prepared.latency.get());
    if (c.target == TargetKind::Directory)
        caseResult.thermalAfter = run.probe.thermal(device);
    if (run.observer != nullptr)
        run.observer->repetitionFinished({caseResult.index, rep});
    const bool ok = rep.outcome.ok();
    if (!ok) {
        caseResult.status = rep.outcome.status;
        caseResult.reason = rep.outcome.message;
        auto& log = logger(LogModule::Core);
        if (rep.outcome.status == Status::Cancelled)
            log.info("case {} repetition {}: cancelled", caseResult.index + 1, repetition);
        else
            log.warn("case {} repetition {}: {}", caseResult.index + 1, repetition, rep.outcome.message);
    }
    caseResult.repetitions.push_back(std::move(rep));
    return ok;
}

// Its samples and latency kept, its kill -9 probe run, its figures summed up; then caseFinished.
void finishCase(RunContext& run, PreparedCase& prepared, std::vector<Sample> samples)
{
    CaseResult& caseResult = prepared.result;
    if (prepared.ready()) {
        caseResult.samples = std::move(samples);
        keepLatency(prepared.latency.get(), caseResult);
        if (run.probeOptions.crashProbe != 0 && !prepared.replay && caseResult.status == Status::Ok &&
            !run.stop.load()) {
            const auto start = Clock::now();
            if (run.options.alternate && run.observer != nullptr)
                run.observer->caseStarted({caseResult.index, run.caseCount, caseResult.testCase, true,
                                           run.repetitions, run.repetitions});
            caseResult.crashProbe = run.crashProbe(caseResult, prepared.strategy->info());
            prepared.spent += Clock::now() - start;
        }
        prepared.runner.reset();
        prepared.latency.reset();
    }
    caseResult.wallSeconds = inSeconds(prepared.spent);
    summarizeCase(caseResult);
    if (run.observer != nullptr)
        run.observer->caseFinished(caseResult);
}

// Each case's repetitions, then the next case's.
void runInOrder(RunContext& run)
{
    for (std::uint32_t i = 0; i < run.caseCount; ++i) {
        PreparedCase prepared;
        prepared.result.index = i;
        prepared.result.testCase = run.plan.cases()[i];
        if (run.stop.load()) {
            prepared.result.status = Status::Cancelled;
            prepared.result.reason = "not run: the run was cancelled";
            run.results.push_back(std::move(prepared.result));
            continue;
        }
        if (run.observer != nullptr)
            run.observer->caseStarted({i, run.caseCount, prepared.result.testCase});
        logger(LogModule::Core)
            .info("case {}/{}: {}", i + 1, run.caseCount, prepared.result.testCase.label());
        const auto start = Clock::now();
        prepareCase(run, prepared);
        std::vector<Sample> samples;
        if (prepared.ready()) {
            prepared.pattern.emplace(prepared.result.testCase.chunkBytes, prepared.result.testCase.pattern);
            for (std::uint32_t r = firstRepetition(prepared.result.testCase, run.options);
                 r < run.repetitions && runTurn(run, prepared, r); ++r) {
            }
            if (run.sampler != nullptr)
                samples = run.sampler->takeSamples();
        }
        prepared.spent = Clock::now() - start;
        finishCase(run, prepared, std::move(samples));
        run.results.push_back(std::move(prepared.result));
    }
}

// Every case made ready, then rounds of one repetition of each.
void runInTurns(RunContext& run)
{
    auto& log = logger(LogModule::Core);
    std::vector<PreparedCase> cases(run.caseCount);
    for (std::uint32_t i = 0; i < run.caseCount; ++i) {
        cases[i].result.index = i;
        cases[i].result.testCase = run.plan.cases()[i];
    }
    // The readers' data sets first: they stay until the last round, so a writer's space is checked with
    // them all on the target (its own files come and go with each repetition).
    for (const bool readers : {true, false}) {
        for (PreparedCase& prepared : cases) {
            if ((prepared.result.testCase.direction == Direction::Read) != readers || run.stop.load())
                continue; // a stop settles it below, with the cases it cut short
            const auto start = Clock::now();
            prepareCase(run, prepared);
            prepared.spent = Clock::now() - start;
            if (!prepared.ready()) {
                // Settled before the rounds: started and finished at once, past its turns.
                if (run.observer != nullptr)
                    run.observer->caseStarted({prepared.result.index, run.caseCount, prepared.result.testCase,
                                               true, run.repetitions, run.repetitions});
                finishCase(run, prepared, {});
                prepared.ended = true;
            }
        }
    }
    log.info("the cases take turns: {} rounds of one repetition each", run.repetitions);
    for (std::uint32_t r = 0; r < run.repetitions && !run.stop.load(); ++r) {
        for (std::uint32_t k = 0; k < run.caseCount && !run.stop.load(); ++k) {
            const std::uint32_t i = r % 2 == 0 ? k : run.caseCount - 1 - k;
            PreparedCase& prepared = cases[i];
            if (!prepared.ready() || prepared.ended ||
                r < firstRepetition(prepared.result.testCase, run.options))
                continue;
            if (run.observer != nullptr)
                run.observer->caseStarted(
                    {i, run.caseCount, prepared.result.testCase, true, r, run.repetitions});
            log.info("case {}/{}, repetition {}: {}", i + 1, run.caseCount, r,
                     prepared.result.testCase.label());
            const auto start = Clock::now();
            prepared.ended = !runTurn(run, prepared, r);
            prepared.spent += Clock::now() - start;
        }
    }
    // Each case's samples, told apart by their case index.
    std::vector<std::vector<Sample>> samples(run.caseCount);
    if (run.sampler != nullptr)
        for (const Sample& s : run.sampler->takeSamples())
            if (s.caseIndex < run.caseCount)
                samples[s.caseIndex].push_back(s);
    for (std::uint32_t i = 0; i < run.caseCount; ++i) {
        PreparedCase& prepared = cases[i];
        CaseResult& result = prepared.result;
        const bool settled = prepared.ended && !prepared.ready();
        const std::uint32_t runs = run.repetitions - firstRepetition(result.testCase, run.options);
        if (!settled && result.status == Status::Ok && result.repetitions.size() < runs) {
            result.status = Status::Cancelled;
            result.reason =
                result.repetitions.empty()
                    ? std::string("not run: the run was cancelled")
                    : fmt::format("cut short: the run was cancelled after {} of its {} repetitions",
                                  result.repetitions.size(), runs);
        }
        // A case the stop came before has no repetition: neither started nor finished, as in order.
        if (!settled && prepared.ready() && !result.repetitions.empty())
            finishCase(run, prepared, std::move(samples[i]));
        run.results.push_back(std::move(result));
    }
}

} // namespace

Runner::Runner(const Registry& registry, Workspace& workspace, SystemProbe& probe)
    : m_registry(registry), m_workspace(workspace), m_probe(probe)
{}

RunResult Runner::run(const RunPlan& plan, const RunOptions& options, const std::stop_token& stop,
                      RunObserver* observer)
{
    const ExpandedMatrix& expanded = plan.expanded;
    auto& log = logger(LogModule::Core);
    RunResult result;
    result.toolVersion = IOLAB_VERSION;
    result.startedAt = isoNow();
    result.host = m_probe.host();
    result.target = m_workspace.target();
    result.system = m_probe.systemFacts(result.target);
    log.info("system facts: {} ({} sections) in {:.1f} ms", describeStack(result.system),
             result.system.sections.size(), result.system.gatherMilliseconds);
    result.matrix = plan.matrix;
    result.options = options;
    result.refused = expanded.refused;
    // The kill -9 probe: the run's own count and placement, else the matrix's; the seed is drawn here when
    // none was given, and recorded, so that a run can be repeated kill for kill.
    if (result.options.crashProbe == 0) {
        result.options.crashProbe = plan.matrix.crashProbe.value_or(0);
        result.options.crashProbeAt = plan.matrix.crashProbeAt.value_or(result.options.crashProbeAt);
    }
    if (result.options.crashProbe != 0 && result.options.crashProbeSeed == 0)
        result.options.crashProbeSeed =
            std::random_device{}() | (std::uint64_t{std::random_device{}()} << 32) | 1;

    std::atomic<bool> stopFlag{false};
    std::stop_callback onStop(stop, [&stopFlag] { stopFlag.store(true, std::memory_order_relaxed); });

    const auto runStart = Clock::now();
    std::unique_ptr<Sampler> sampler;
    if (options.sampling) {
        sampler = std::make_unique<Sampler>(m_probe, result.target.device,
                                            std::chrono::milliseconds(options.sampleIntervalMs), runStart,
                                            [observer](const Sample& s) {
                                                if (observer != nullptr)
                                                    observer->sample(s);
                                            });
    }

    DataSets dataSets(m_workspace, stopFlag, !options.alternate);
    const auto caseCount = static_cast<std::uint32_t>(expanded.cases.size());
    log.info("run started: {} cases, {} refused, target {}", caseCount, expanded.refused.size(),
             result.target.path);
    const auto crashProbe = [&](const CaseResult& measured, const StrategyInfo& info) {
        return probeCase(measured.index, measured.testCase, info, measured, result.options, stopFlag,
                         observer);
    };
    RunContext context{m_registry,  m_workspace,
                       m_probe,     m_launcher,
                       crashProbe,  plan,
                       options,     result.options,
                       observer,    sampler.get(),
                       dataSets,    stopFlag,
                       caseCount,   options.warmups + options.repetitions,
                       result.cases};
    if (options.alternate)
        runInTurns(context);
    else
        runInOrder(context);
    sampler.reset();
    dataSets.removeAll();
    m_workspace.close();
    result.cancelled = stopFlag.load();
    result.finishedAt = isoNow();
    log.info("run finished{}", result.cancelled ? " (cancelled)" : "");
    if (observer != nullptr)
        observer->runFinished(result);
    return result;
}

} // namespace iolab
