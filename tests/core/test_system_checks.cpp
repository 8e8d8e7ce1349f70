// SPDX-License-Identifier: MIT
// Issue 18: the "is this number real?" checks that rest on the system facts, the CPU time and the samples:
// each has a case that fires it and cases that must not.
#include "core/analysis/findings.h"
#include "core/analysis/system_checks.h"
#include "core/analysis/verdict.h"
#include "core/base/units.h"
#include "tests/support/recorded_facts.h"
#include "tests/support/system_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// A write case whose measured repetitions each took `seconds` with `cpu` seconds of CPU (user 80%).
CaseResult busyCase(std::uint32_t threads, double seconds, double cpu,
                    TargetKind target = TargetKind::Directory)
{
    CaseResult c;
    c.index = 0;
    c.testCase.strategy = "stdio";
    c.testCase.chunkBytes = 1;
    c.testCase.totalBytes = 64 * kMiB;
    c.testCase.threads = threads;
    c.testCase.target = target;
    c.status = Status::Ok;
    c.apparentMBps.count = 3;
    c.apparentMBps.median = 64 / seconds;
    c.durableMBps = c.apparentMBps;
    for (std::uint32_t r = 0; r < 4; ++r) {
        RepetitionResult rep;
        rep.index = r;
        rep.warmup = r == 0;
        rep.bytes = c.testCase.totalBytes;
        rep.returnSeconds = seconds * 0.9;
        rep.durableSeconds = seconds;
        rep.cpuUserSeconds = cpu * 0.8;
        rep.cpuSystemSeconds = cpu * 0.2;
        c.repetitions.push_back(rep);
    }
    return c;
}

HostInfo host(std::uint32_t cpus)
{
    HostInfo h;
    h.logicalCpus = cpus;
    return h;
}

// A write case with one measured repetition sampled at 10 Hz: `rates` MB/s per tick, as the device's own rate
// (deviceRate) or as the calls' rate.
CaseResult sampledCase(const std::vector<double>& rates, bool deviceRate)
{
    CaseResult c = busyCase(1, static_cast<double>(rates.size()) / 10, 0.1);
    c.testCase.strategy = "direct";
    c.testCase.chunkBytes = kMiB;
    std::uint64_t done = 0;
    for (std::size_t i = 0; i < rates.size(); ++i) {
        Sample s;
        s.runSeconds = 10.0 + static_cast<double>(i) / 10;
        s.repetition = 1;
        done += static_cast<std::uint64_t>(rates[i] * 1e6 / 10);
        s.bytesDone = done;
        (deviceRate ? s.deviceWriteMBps : s.intervalMBps) = rates[i];
        c.samples.push_back(s);
    }
    // A warm-up's samples are never judged.
    Sample warm;
    warm.warmup = true;
    warm.repetition = 0;
    warm.deviceWriteMBps = 99999;
    c.samples.insert(c.samples.begin(), warm);
    return c;
}

std::vector<double> steps(std::size_t fastCount, double fast, std::size_t slowCount, double slow)
{
    std::vector<double> rates(fastCount, fast);
    rates.insert(rates.end(), slowCount, slow);
    return rates;
}

} // namespace

TEST(StorageCheck, ALayerThatChangesTheFiguresIsNamedWithTheStack)
{
    RunResult result;
    result.system = cryptNvmeFacts();
    const auto finding = storageFinding(result);
    ASSERT_TRUE(finding);
    EXPECT_EQ(finding->kind, Finding::Kind::Storage);
    EXPECT_FALSE(finding->caseIndex);
    EXPECT_EQ(finding->text, "The target's storage is ext4 → dm-crypt dm-0 → partition nvme0n1p3 → NVMe disk "
                             "nvme0n1: dm-crypt encrypts every block (CPU work in each write). Every figure "
                             "here includes that.");
    // findings() carries it, and the verdict puts it among what matters, with its advice.
    const auto all = findings(result, nullptr);
    EXPECT_EQ(std::count_if(all.begin(), all.end(),
                            [](const Finding& f) { return f.kind == Finding::Kind::Storage; }),
              1);
}

TEST(StorageCheck, MountOptionsThatChangeTheMeaningAreNamedToo)
{
    RunResult result;
    result.system = cryptNvmeFacts();
    result.system.sections[0].facts[1].value = "none";
    // What the collector reads from a plain mount: nothing to say.
    FactsBuilder plain;
    plain.known("Filesystem", "fs.sync", "Synchronous mount", "no");
    plain.known("Filesystem", "fs.data_mode", "Journal mode", "ordered (the default)");
    plain.known("Filesystem", "fs.barrier", "Write barriers", "on");
    plain.known("Filesystem", "fs.compression", "Compression", "none (ext4 does not compress)");
    result.system.sections.push_back(plain.take().front());
    auto& mount = result.system.sections.back().facts;
    EXPECT_FALSE(storageFinding(result)) << "a plain stack and plain options say nothing";
    mount[2].value = "off: flushes are not sent, a power cut can lose synced data";
    auto finding = storageFinding(result);
    ASSERT_TRUE(finding);
    EXPECT_THAT(finding->text, HasSubstr("write barriers are off (nobarrier)"));
    mount[2].value = "on";
    mount[0].value = "sync: every write waits for the device";
    mount[1].value = "journal";
    finding = storageFinding(result);
    ASSERT_TRUE(finding);
    EXPECT_THAT(finding->text, HasSubstr("mounted sync"));
    EXPECT_THAT(finding->text, HasSubstr("data=journal writes every data block twice"));
    // dirsync is not sync; a compression that is off is not compression.
    mount[0].value = "dirsync: directory changes wait for the device";
    mount[1].value = "ordered (the default)";
    mount[3].value = "off";
    EXPECT_FALSE(storageFinding(result));
    mount[3].value = "zstd:3";
    finding = storageFinding(result);
    ASSERT_TRUE(finding);
    EXPECT_THAT(finding->text, HasSubstr("the filesystem compresses (zstd:3)"));
    EXPECT_FALSE(storageFinding(RunResult{})) << "no facts, no accusation";
}

// The same on the Linux collector's facts for recorded trees (tests/support/recorded_facts.h; this VM has no
// NVMe, hwmon or device-mapper of its own): FUSE, a network share, a sync mount and data=journal are named; a
// plain SATA SSD, NVMe drive or USB stick, and dirsync (not sync), are not.
TEST(StorageCheck, OnRecordedMountsOnlyALayerOrAnOptionThatChangesTheFiguresIsNamed)
{
    const auto on = [](const std::string& mount) {
        RunResult result;
        result.system = recordedFacts(mount);
        result.target = recordedTarget(mount);
        return storageFinding(result);
    };
    const std::vector<std::pair<std::string, std::string>> fires{
        {"fuse", "FUSE: a user-space program serves every call"},
        {"nfs", "network filesystem"},
        {"sata-ssd-sync", "the filesystem is mounted sync, so every write waits for the device"},
        {"sata-ssd-data-journal", "data=journal writes every data block twice"},
    };
    for (const auto& [mount, words] : fires) {
        const auto finding = on(mount);
        ASSERT_TRUE(finding) << mount;
        EXPECT_THAT(finding->text, HasSubstr(words)) << mount;
    }
    for (const char* mount :
         {"sata-ssd", "sata-ssd-cache-off", "sata-ssd-dirsync", "nvme", "usb2-stick", "usb3-stick"})
        EXPECT_FALSE(on(mount)) << mount << ": " << on(mount).value_or(Finding{}).text;
}

TEST(CpuBoundCheck, FiresWhenTheCoresInUseWereBusyNearlyAllTheTime)
{
    const auto finding = cpuBoundFinding(busyCase(1, 1.0, 0.95), host(8));
    ASSERT_TRUE(finding);
    EXPECT_EQ(finding->kind, Finding::Kind::CpuBound);
    EXPECT_EQ(finding->caseIndex, 0u);
    EXPECT_THAT(finding->text, HasSubstr("the CPU was busy 95% of the time on the 1 core the case kept busy "
                                         "(0.76 s user and 0.19 s system in 1.00 s, per repetition)"));
    EXPECT_FALSE(cpuBoundFinding(busyCase(1, 1.0, 0.5), host(8)));
    // Four threads: busy means near four cores' worth.
    EXPECT_TRUE(cpuBoundFinding(busyCase(4, 1.0, 3.8), host(8)));
    EXPECT_FALSE(cpuBoundFinding(busyCase(4, 1.0, 2.0), host(8)));
    // ... but never more cores than the machine has.
    EXPECT_DOUBLE_EQ(coresInUse(busyCase(4, 1.0, 1.9).testCase, host(2)), 2.0);
    EXPECT_TRUE(cpuBoundFinding(busyCase(4, 1.0, 1.9), host(2)));
    // A pipe's reader is a core in use too.
    EXPECT_FALSE(cpuBoundFinding(busyCase(1, 1.0, 1.0, TargetKind::Pipe), host(8)));
    EXPECT_TRUE(cpuBoundFinding(busyCase(1, 1.0, 1.9, TargetKind::Pipe), host(8)));
    // No CPU figures (a result from elsewhere): silence.
    EXPECT_FALSE(cpuBoundFinding(busyCase(1, 1.0, 0.0), host(8)));
    // 10 ms of CPU in 10 ms: one tick of a Windows process clock, no evidence (wine said "100% busy").
    EXPECT_FALSE(cpuBoundFinding(busyCase(1, 0.01, 0.01), host(8)));
    EXPECT_TRUE(cpuBoundFinding(busyCase(1, 0.2, 0.2), host(8)));
}

// A pipe has no page cache and no storage: its CPU-bound finding says so and advises what moves a pipe (no
// O_DIRECT, no faster disk). A reader told to spin polls a core by design: only the writer's share is judged.
// The null device measures nothing but the calls' CPU: no finding there.
TEST(CpuBoundCheck, APipeGetsPipeAdviceAndASpinningReaderIsNoProblem)
{
    StrategyInfo copying;
    StrategyInfo vmsplice;
    vmsplice.ownsPipePages = true;
    auto pipe = busyCase(1, 1.0, 1.95, TargetKind::Pipe);
    auto finding = cpuBoundFinding(pipe, host(8), &copying);
    ASSERT_TRUE(finding);
    EXPECT_THAT(finding->text, HasSubstr("a pipe has no storage behind it"));
    EXPECT_THAT(finding->text, Not(HasSubstr("as much as the storage")));
    EXPECT_THAT(finding->advice, HasSubstr("vmsplice"));
    EXPECT_THAT(finding->advice, HasSubstr("the reader CPU axis"));
    for (const StrategyInfo* info : {&copying, &vmsplice, static_cast<StrategyInfo*>(nullptr)}) {
        const std::string advice = cpuBoundAdvice(pipe.testCase, info);
        EXPECT_THAT(advice, Not(HasSubstr("O_DIRECT"))) << advice;
        EXPECT_THAT(advice, Not(HasSubstr("page cache"))) << advice;
        EXPECT_THAT(advice, Not(HasSubstr("disk would not"))) << advice;
    }
    EXPECT_THAT(cpuBoundAdvice(pipe.testCase, &vmsplice), HasSubstr("already hands the pipe"));

    // The spinning reader keeps its core busy on purpose: the writer, at 85% of its own, is not CPU-bound.
    auto spin = busyCase(1, 1.0, 1.85, TargetKind::Pipe);
    EXPECT_TRUE(cpuBoundFinding(spin, host(8))) << "blocking, 1.85 of the 2 cores is busy";
    spin.testCase.extraAxes["readerWaits"] = "spin";
    EXPECT_FALSE(cpuBoundFinding(spin, host(8)));
    // A writer busy nearly all the time beside it is, and the sentence names the spinning reader as such.
    spin = busyCase(1, 1.0, 1.97, TargetKind::Pipe);
    spin.testCase.extraAxes["readerWaits"] = "spin";
    finding = cpuBoundFinding(spin, host(8), &vmsplice);
    ASSERT_TRUE(finding);
    EXPECT_THAT(finding->text,
                HasSubstr("the writer kept its core busy 97% of the time, beside the reader, "
                          "which spins waiting for data, busy on a core of its own by design"));
    // One CPU, spent on the spinning reader: nothing left to judge.
    EXPECT_FALSE(cpuBoundFinding(spin, host(1)));

    EXPECT_FALSE(cpuBoundFinding(busyCase(1, 1.0, 0.99, TargetKind::Null), host(8)));
}

// io_uring's SQPOLL kernel thread counts in the process's CPU: 1.55 cores' worth for one thread is not "100%
// of 1 core". Its core is a core in use, polling by design; the case's own thread is judged on its own.
TEST(CpuBoundCheck, AnSqpollThreadIsACoreOfItsOwnAndNamed)
{
    auto uring = busyCase(1, 1.0, 1.55);
    uring.testCase.strategy = "uring-random-read-direct";
    uring.testCase.direction = Direction::Read;
    uring.testCase.chunkBytes = 4 * kKiB;
    uring.testCase.queueDepth = 32;
    uring.testCase.uring = UringOptions::plain();
    uring.testCase.uring.sqPoll = true;
    EXPECT_DOUBLE_EQ(coresInUse(uring.testCase, host(8)), 2.0);
    EXPECT_FALSE(cpuBoundFinding(uring, host(8))) << "its thread used 55% of its core";
    uring = busyCase(1, 1.0, 1.98);
    uring.testCase.chunkBytes = 4 * kKiB;
    uring.testCase.direction = Direction::Read;
    uring.testCase.queueDepth = 32;
    uring.testCase.uring = UringOptions::plain();
    uring.testCase.uring.sqPoll = true;
    StrategyInfo queued;
    queued.maxQueueDepth = 128;
    const auto finding = cpuBoundFinding(uring, host(8), &queued);
    ASSERT_TRUE(finding);
    EXPECT_THAT(finding->text, HasSubstr("the case's thread kept its core busy 98% of the time, beside the "
                                         "SQPOLL kernel thread"));
    EXPECT_THAT(finding->text, HasSubstr("1.98 cores' worth of CPU in all"));
    // The case already keeps 32 requests in flight: that is no advice for it.
    EXPECT_THAT(finding->advice, Not(HasSubstr("in flight with io_uring")));
    EXPECT_THAT(finding->advice, HasSubstr("already keeps 32 requests in flight"));

    // More CPU than the threads account for, with no poller to explain it: the count, not "100%".
    const auto more = cpuBoundFinding(busyCase(1, 1.0, 1.55), host(8));
    ASSERT_TRUE(more);
    EXPECT_THAT(more->text, HasSubstr("1.55 cores' worth of CPU"));
    EXPECT_THAT(more->text, Not(HasSubstr("100%")));
}

TEST(CacheCliffCheck, ADropThatHoldsIsACacheRunningFull)
{
    // 3 s at 2 GB/s, then 7 s at 400 MB/s: the device's own rate.
    const auto c = sampledCase(steps(30, 2000, 70, 400), true);
    const auto cliff = findCacheCliff(c, false);
    ASSERT_TRUE(cliff);
    EXPECT_DOUBLE_EQ(cliff->beforeMBps, 2000);
    EXPECT_DOUBLE_EQ(cliff->afterMBps, 400);
    EXPECT_TRUE(cliff->deviceRate);
    EXPECT_NEAR(cliff->secondsBefore, 3.0, 0.25);
    EXPECT_NEAR(static_cast<double>(cliff->bytesBefore), 6.0e9, 0.5e9);
    const auto finding = cacheCliffFinding(c, false);
    ASSERT_TRUE(finding);
    EXPECT_EQ(finding->kind, Finding::Kind::CacheCliff);
    EXPECT_THAT(finding->text, HasSubstr("the device ran at 2.00 GB/s for the first"));
    EXPECT_THAT(finding->text, HasSubstr("then at 400.0 MB/s to the end"));
}

TEST(CacheCliffCheck, NoCliffInASteadyANoisyOrAShortWrite)
{
    EXPECT_FALSE(findCacheCliff(sampledCase(std::vector<double>(100, 1000), true), false));
    std::vector<double> noisy;
    for (int i = 0; i < 100; ++i)
        noisy.push_back(i % 2 == 0 ? 2000 : 400);
    EXPECT_FALSE(findCacheCliff(sampledCase(noisy, true), false));
    EXPECT_FALSE(findCacheCliff(sampledCase(steps(10, 2000, 20, 400), true), false)) << "3 s is too short";
    // Down, then up again: not a cache that filled.
    auto dip = steps(30, 2000, 40, 400);
    dip.insert(dip.end(), 30, 2000);
    EXPECT_FALSE(findCacheCliff(sampledCase(dip, true), false));
}

TEST(CacheCliffCheck, ABufferedWritesCallRateIsNotTheDevice)
{
    // The calls' rate falls when the page cache fills: for buffered writes that is no evidence of the device.
    const auto calls = sampledCase(steps(30, 2000, 70, 400), false);
    EXPECT_FALSE(findCacheCliff(calls, false));
    // Writes that bypass the page cache: their calls' rate is the device's.
    const auto direct = findCacheCliff(calls, true);
    ASSERT_TRUE(direct);
    EXPECT_FALSE(direct->deviceRate);
    EXPECT_THAT(cacheCliffFinding(calls, true)->text, HasSubstr("the writes ran at 2.00 GB/s"));
}

namespace {

// A run of two `direct` 1 MiB write cases that differ only in their pattern, with these measured durable
// rates per repetition.
RunResult patternPair(DataPattern fast, const std::vector<double>& fastRates, DataPattern slow,
                      const std::vector<double>& slowRates)
{
    RunResult result;
    const auto add = [&result](DataPattern pattern, const std::vector<double>& rates) {
        CaseResult c;
        c.index = static_cast<std::uint32_t>(result.cases.size());
        c.testCase.strategy = "direct";
        c.testCase.chunkBytes = kMiB;
        c.testCase.totalBytes = kGiB;
        c.testCase.pattern = pattern;
        c.status = Status::Ok;
        for (std::size_t r = 0; r < rates.size(); ++r) {
            RepetitionResult rep;
            rep.index = static_cast<std::uint32_t>(r);
            rep.bytes = kGiB;
            rep.durableMBps = rates[r];
            rep.apparentMBps = rates[r] * 1.01;
            rep.durableSeconds = 1073.741824 / rates[r];
            rep.returnSeconds = rep.durableSeconds / 1.01;
            c.repetitions.push_back(rep);
        }
        c.durableMBps = summarize(rates);
        c.apparentMBps = c.durableMBps;
        result.cases.push_back(c);
    };
    add(fast, fastRates);
    add(slow, slowRates);
    return result;
}

std::vector<Finding> ofKind(const std::vector<Finding>& all, Finding::Kind kind)
{
    std::vector<Finding> out;
    std::copy_if(all.begin(), all.end(), std::back_inserter(out),
                 [kind](const Finding& f) { return f.kind == kind; });
    return out;
}

} // namespace

TEST(CompressionCheck, ZerosFarFasterThanRandomBytesAreACompressorsRate)
{
    const DataPattern zeros{PatternKind::Zeros};
    const DataPattern random{PatternKind::Random};
    const auto run = patternPair(zeros, {1900, 2000, 2100}, random, {480, 500, 520});
    const auto found = ofKind(findings(run, nullptr), Finding::Kind::Compression);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].caseIndex, 0u);
    EXPECT_THAT(found[0].text,
                HasSubstr("zeros wrote at 2.00 GB/s, the same case with random bytes at 500.0 MB/s "
                          "(4.0x, beyond the noise: p = 0.001, Welch's t-test over 3 and 3 repetitions)"));
    EXPECT_THAT(found[0].text, HasSubstr("compresses or deduplicates"));
    // A filesystem that says it compresses is named as the cause.
    auto btrfs = run;
    btrfs.system = cryptNvmeFacts();
    FactsBuilder b;
    b.known("Filesystem", "fs.compression", "Compression", "zstd:3", "/proc/self/mountinfo");
    btrfs.system.sections = b.take();
    EXPECT_THAT(ofKind(findings(btrfs, nullptr), Finding::Kind::Compression)[0].text,
                HasSubstr("the filesystem compresses (zstd:3)"));
    // Compressible bytes against IOLab's own pattern, when no random twin ran; the verdict ranks it.
    const auto half = patternPair(DataPattern{PatternKind::Compressible, 50}, {900, 950, 1000}, DataPattern{},
                                  {400, 420, 440});
    const auto halfFound = ofKind(findings(half, nullptr), Finding::Kind::Compression);
    ASSERT_EQ(halfFound.size(), 1u);
    EXPECT_THAT(
        halfFound[0].text,
        HasSubstr("50% compressible bytes wrote at 950.0 MB/s, the same case with IOLab's own pattern"));
}

TEST(CompressionCheck, NoFindingWithinNoiseBelowTheFactorOrWithoutATwin)
{
    const DataPattern zeros{PatternKind::Zeros};
    const DataPattern random{PatternKind::Random};
    // A plain disk: zeros as fast as random bytes.
    EXPECT_TRUE(ofKind(findings(patternPair(zeros, {500, 510, 520}, random, {490, 505, 515}), nullptr),
                       Finding::Kind::Compression)
                    .empty());
    // 1.4x: under the factor.
    EXPECT_TRUE(ofKind(findings(patternPair(zeros, {690, 700, 710}, random, {495, 500, 505}), nullptr),
                       Finding::Kind::Compression)
                    .empty());
    // Twice as fast by the median, but one repetition of each overlaps: noise could make that.
    EXPECT_TRUE(ofKind(findings(patternPair(zeros, {400, 1000, 1100}, random, {450, 500, 520}), nullptr),
                       Finding::Kind::Compression)
                    .empty());
    // No twin: the other case differs in more than its pattern.
    auto apart = patternPair(zeros, {1900, 2000, 2100}, random, {480, 500, 520});
    apart.cases[1].testCase.chunkBytes = 4 * kKiB;
    EXPECT_TRUE(ofKind(findings(apart, nullptr), Finding::Kind::Compression).empty());
    // Random bytes faster than zeros accuse nothing either.
    EXPECT_TRUE(ofKind(findings(patternPair(random, {1900, 2000, 2100}, zeros, {480, 500, 520}), nullptr),
                       Finding::Kind::Compression)
                    .empty());
}

// The Summary answers the compression question whether or not the finding fires: with the widest gap and its
// rates.
TEST(CompressionCheck, TheSummaryAnswersEitherWay)
{
    const DataPattern zeros{PatternKind::Zeros};
    const DataPattern random{PatternKind::Random};
    const auto answers = [](const RunResult& run) {
        return verdict(run, nullptr).answers;
    };
    EXPECT_THAT(
        answers(patternPair(zeros, {1900, 2000, 2100}, random, {480, 500, 520})),
        ::testing::Contains("Compression: zeros moved 4.0x as fast as random bytes (`direct` 1 MiB: "
                            "2.00 GB/s against 500.0 MB/s): something below the program compresses or "
                            "deduplicates what is written; judge the disk by the rate of random bytes."));
    EXPECT_THAT(
        answers(patternPair(zeros, {500, 510, 520}, random, {490, 505, 515})),
        ::testing::Contains("Compression: zeros moved 1.01x as fast as random bytes (`direct` 1 MiB: "
                            "510.0 MB/s against 505.0 MB/s): nothing below the program compresses these "
                            "writes or skips their zeros."));
    EXPECT_THAT(
        answers(patternPair(zeros, {400, 1000, 1100}, random, {450, 500, 520})),
        ::testing::Contains(HasSubstr("but that gap does not hold against the noise of their repetitions")));
    // No zeros, no compression answer.
    for (const auto& a : answers(patternPair(random, {500}, DataPattern{}, {500})))
        EXPECT_THAT(a, ::testing::Not(HasSubstr("Compression")));
}
