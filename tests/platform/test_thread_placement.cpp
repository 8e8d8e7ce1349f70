// SPDX-License-Identifier: MIT
// The reader CPU axis on this OS: which CPUs a pipe case's writer and reader are pinned to, the pin itself,
// and pipe cases that run pinned and still deliver every byte.
#include "core/engine/pattern.h"
#include "platform/platform.h"
#include "platform/thread_placement.h"
#include "tests/support/pipe_jobs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>

using namespace iolab;
using ::testing::HasSubstr;

namespace {

std::optional<PipePlacement> place(ReaderCpu placement, std::uint32_t thread,
                                   const std::vector<unsigned>& cpus, Outcome& outcome)
{
    return pipePlacement(placement, thread, cpus, outcome);
}

} // namespace

TEST(PipePlacement, AnyPinsNothingSameOneCpuOtherTwo)
{
    Outcome outcome;
    EXPECT_EQ(place(ReaderCpu::Any, 0, {0, 1}, outcome), PipePlacement{});
    EXPECT_EQ(place(ReaderCpu::Any, 3, {}, outcome), PipePlacement{}) << "nothing to pin, nothing to know";
    EXPECT_EQ(place(ReaderCpu::Same, 0, {2, 5}, outcome), (PipePlacement{2, 2}));
    EXPECT_EQ(place(ReaderCpu::Same, 1, {2, 5}, outcome), (PipePlacement{5, 5})) << "a thread per CPU";
    EXPECT_EQ(place(ReaderCpu::Same, 2, {2, 5}, outcome), (PipePlacement{2, 2})) << "then around again";
    EXPECT_EQ(place(ReaderCpu::Other, 0, {2, 5, 7, 9}, outcome), (PipePlacement{2, 5}));
    EXPECT_EQ(place(ReaderCpu::Other, 1, {2, 5, 7, 9}, outcome), (PipePlacement{7, 9}))
        << "a pair per thread";
    EXPECT_EQ(place(ReaderCpu::Other, 1, {2, 5, 7}, outcome), (PipePlacement{2, 5}))
        << "an odd CPU out: the pairs wrap around";
    EXPECT_TRUE(outcome.ok());
}

TEST(PipePlacement, TooFewCpusIsARefusalThatSaysWhy)
{
    Outcome outcome;
    EXPECT_FALSE(place(ReaderCpu::Other, 0, {3}, outcome));
    EXPECT_EQ(outcome.status, Status::Refused);
    EXPECT_EQ(outcome.message,
              "reader CPU other: IOLab may run on one CPU only (CPU 3), and the writer and the "
              "reader need two");
    outcome = {};
    EXPECT_FALSE(place(ReaderCpu::Same, 0, {}, outcome));
    EXPECT_EQ(outcome.status, Status::Refused);
    EXPECT_THAT(outcome.message, HasSubstr("did not say which CPUs"));
}

TEST(ThreadPin, PinsTheCallingThreadAndGivesItsCpusBack)
{
    const std::vector<unsigned> before = allowedCpus();
    ASSERT_FALSE(before.empty()) << "the OS says which CPUs IOLab may run on";
    {
        const ThreadPin pin(before.back());
        ASSERT_TRUE(pin.outcome().ok()) << pin.outcome().message;
#ifndef _WIN32
        EXPECT_EQ(allowedCpus(), std::vector<unsigned>{before.back()}) << "Linux reads the thread's own set";
#endif
    }
    EXPECT_EQ(allowedCpus(), before);
    const ThreadPin none(std::nullopt);
    EXPECT_TRUE(none.outcome().ok());
    EXPECT_EQ(allowedCpus(), before);
}

namespace {

class PinnedPipes : public ::testing::TestWithParam<std::tuple<const char*, ReaderCpu>>
{
protected:
    void SetUp() override { registerBuiltinStrategies(m_registry); }

    // Runs one pipe case through the strategy: the reader checks every byte.
    Outcome run(const std::string& strategy, ReaderCpu placement)
    {
        Case c;
        c.strategy = strategy;
        c.chunkBytes = 65536;
        c.totalBytes = 16 << 20;
        c.target = TargetKind::Pipe;
        c.readerCpu = placement;
        const Pattern pattern(c.chunkBytes);
        const JobRun run = runWholeJob(*m_registry.find(strategy), verifiedPipeSpec(c, pattern));
        if (!run.outcome.ok())
            return run.outcome;
        EXPECT_EQ(run.bytes, c.totalBytes);
        return Outcome::success();
    }

    Registry m_registry;
};

} // namespace

TEST_P(PinnedPipes, EveryByteArrivesAndTheWriterGetsItsCpusBack)
{
    const auto [strategy, placement] = GetParam();
    if (m_registry.find(strategy)->info().unavailable)
        GTEST_SKIP() << strategy << " is not on this OS";
    if (placement == ReaderCpu::Other && allowedCpus().size() < 2)
        GTEST_SKIP() << "this machine lets IOLab run on one CPU only; the refusal is tested below";
    const std::vector<unsigned> before = allowedCpus();
    const Outcome outcome = run(strategy, placement);
    EXPECT_TRUE(outcome.ok()) << outcome.message;
    EXPECT_EQ(allowedCpus(), before) << "the runner's thread is not left pinned";
}

INSTANTIATE_TEST_SUITE_P(
    Placements, PinnedPipes,
    ::testing::Combine(::testing::Values("pipe-write", "vmsplice"),
                       ::testing::Values(ReaderCpu::Any, ReaderCpu::Same, ReaderCpu::Other)),
    [](const auto& param) {
        std::string name = std::get<0>(param.param) == std::string("pipe-write") ? "PipeWrite" : "Vmsplice";
        return name + toString(std::get<1>(param.param));
    });

#ifndef _WIN32
// A process held to one CPU (taskset, a container's cpuset) cannot place the reader on another: the case is
// refused at run time with the reason, and nothing runs.
TEST_F(PinnedPipes, OtherOnOneCpuIsRefusedWithTheReason)
{
    const ThreadPin oneCpu(allowedCpus().front()); // the threads this one starts inherit its set
    ASSERT_TRUE(oneCpu.outcome().ok());
    const Outcome outcome = run("pipe-write", ReaderCpu::Other);
    EXPECT_EQ(outcome.status, Status::Refused);
    EXPECT_THAT(outcome.message, HasSubstr("IOLab may run on one CPU only"));
    EXPECT_TRUE(run("pipe-write", ReaderCpu::Same).ok()) << "one CPU is enough for both";
}
#endif
