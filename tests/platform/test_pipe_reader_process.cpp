// SPDX-License-Identifier: MIT
// The pipe's reader in a process of its own (issue 39), on Linux, over real pipes: the forked reader checks
// every byte and reports what it saw (a corrupted byte at its offset, a short stream, its own death), a
// spinning reader does the same, and a vmsplice job stopped mid-run by the user or its time limit leaves no
// child process behind, running or zombie. The refusals of the new axes come with their reasons.
#include "core/engine/pattern.h"
#include "core/engine/registry.h"
#include "core/model/axes.h"
#include "core/model/matrix.h"
#include "platform/linux/pipe_job.h"
#include "platform/pipe_reader.h"
#include "platform/platform.h"
#include "platform/thread_placement.h"
#include "tests/support/pipe_jobs.h"
#include "tests/support/temp_dir.h"

#include <array>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace iolab {
namespace {

using ::testing::HasSubstr;
using Reader = PipeReader<linux_backend::PipeReadCalls>;

// The processes whose parent is this one, zombies included (a zombie keeps its /proc entry until reaped).
std::vector<pid_t> childrenOfThisProcess()
{
    std::vector<pid_t> children;
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr)
        return children;
    const pid_t self = ::getpid();
    while (const dirent* entry = ::readdir(proc)) {
        const std::string name = entry->d_name;
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream in("/proc/" + name + "/stat");
        std::string text;
        std::getline(in, text);
        const auto close = text.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream fields(text.substr(close + 2));
        char state = 0;
        pid_t parent = 0;
        fields >> state >> parent;
        if (parent == self)
            children.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    ::closedir(proc);
    return children;
}

class ProcessReader : public ::testing::Test
{
protected:
    const Pattern pattern{64 * 1024};
    const std::size_t bytes = 5 * 1024 * 1024 + 4099;
    std::vector<std::byte> stream;

    void SetUp() override
    {
        stream.resize(bytes);
        for (std::size_t done = 0; done < bytes; done += 64 * 1024)
            std::memcpy(stream.data() + done, pattern.at(done),
                        std::min<std::size_t>(64 * 1024, bytes - done));
    }

    // Writes `stream` into a pipe read by a reader process (spinning or not, verifying or not) and returns
    // what the reader says of `bytes`; `beforeClose` runs with the reader's pid before the write end closes.
    Outcome drain(PipeReaderMode mode, bool verify, const std::function<void(pid_t)>& beforeClose = {})
    {
        std::array<int, 2> fds{-1, -1};
        EXPECT_EQ(::pipe2(fds.data(), O_CLOEXEC), 0);
        posix::UniqueFd writeEnd(fds[1]);
        Reader reader(posix::UniqueFd{fds[0]}, pattern, verify, std::nullopt, mode);
        Outcome started;
        EXPECT_TRUE(reader.start(started)) << started.message;
        const auto pid = static_cast<pid_t>(reader.processId());
        if (mode.process) {
            EXPECT_GT(pid, 0);
            EXPECT_NE(pid, ::getpid());
            EXPECT_THAT(childrenOfThisProcess(), ::testing::Contains(pid));
        } else {
            EXPECT_EQ(pid, 0) << "a thread";
        }
        if (beforeClose) {
            beforeClose(pid);
        } else {
            EXPECT_TRUE(posix::writeFully(writeEnd.get(), stream.data(), stream.size()))
                << std::strerror(errno);
        }
        writeEnd.reset();
        reader.join();
        if (mode.process) {
            EXPECT_THAT(childrenOfThisProcess(), ::testing::Not(::testing::Contains(pid)))
                << "reaped, no zombie";
        }
        return reader.outcome(bytes);
    }
};

TEST_F(ProcessReader, VerifiesEveryByteOfAStreamAsWritten)
{
    const Outcome outcome = drain({.process = true}, true);
    EXPECT_TRUE(outcome.ok()) << outcome.message;
}

TEST_F(ProcessReader, FindsACorruptedByteAtItsOffset)
{
    for (const std::size_t at : {std::size_t{3}, std::size_t{256 * 1024 + 7}, bytes - 1}) {
        SetUp();
        stream[at] ^= std::byte{0x21};
        for (const bool spin : {false, true}) {
            const Outcome outcome = drain({.process = true, .spin = spin}, true);
            EXPECT_EQ(outcome.status, Status::Failed) << at;
            EXPECT_THAT(outcome.message, HasSubstr(fmt::format("byte {} differs", at))) << "spin " << spin;
        }
    }
}

TEST_F(ProcessReader, ASpinningReaderVerifiesAndCountsAsWell)
{
    EXPECT_TRUE(drain({.process = true, .spin = true}, true).ok());
    const Outcome counted = drain({.process = true, .spin = true}, false); // splice into /dev/null
    EXPECT_TRUE(counted.ok()) << counted.message;
    const Outcome thread = drain({.process = false, .spin = true}, true);
    EXPECT_TRUE(thread.ok()) << thread.message;
}

TEST_F(ProcessReader, AShortStreamSaysHowMuchArrived)
{
    stream.resize(bytes - 1000);
    const Outcome outcome = drain({.process = true}, false);
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_THAT(outcome.message,
                HasSubstr(fmt::format("{} bytes arrived, expected {}", bytes - 1000, bytes)));
}

TEST_F(ProcessReader, AReaderKilledFromOutsideIsReportedAsSuch)
{
    const Outcome outcome = drain({.process = true}, true, [](pid_t pid) { ::kill(pid, SIGKILL); });
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_THAT(outcome.message, HasSubstr("the pipe's reader process"));
    EXPECT_THAT(outcome.message, HasSubstr("killed by signal 9 (SIGKILL)"));
}

// A whole vmsplice job with a reader process, stopped mid-run: by the user (cancelled) or by its time limit
// (completed, the reader having seen every byte the writer sent). Neither leaves a child behind.
class ProcessReaderJob : public ::testing::TestWithParam<bool>
{
protected:
    void SetUp() override { registerBuiltinStrategies(m_registry); }
    Registry m_registry;
};

TEST_P(ProcessReaderJob, AStopMidRunLeavesNoChildProcess)
{
    const bool timeLimit = GetParam();
    const auto before = childrenOfThisProcess();
    Case c{"vmsplice", Direction::Write, 1 << 20, std::uint64_t{1} << 40, {}, {}, 1, TargetKind::Pipe};
    c.extraAxes["readerKinds"] = "process";
    const TargetInfo target{};
    ASSERT_EQ(refusalReason(c, m_registry, target), "");
    const Pattern pattern(c.chunkBytes);
    const JobSpec spec = verifiedPipeSpec(c, pattern); // a terabyte: it ends only when stopped
    Outcome outcome;
    auto job = m_registry.find("vmsplice")->prepare(spec, outcome);
    ASSERT_TRUE(job) << outcome.message;
    const auto during = childrenOfThisProcess();
    EXPECT_EQ(during.size(), before.size() + 1) << "the reader is a child process";

    std::atomic<bool> stop{false};
    std::atomic<bool> timeUp{false};
    Progress progress;
    progress.stop = &stop;
    progress.timeUp = &timeUp;
    std::thread stopper([&] {
        while (progress.bytes.load() < (std::uint64_t{256} << 20))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        (timeLimit ? timeUp : stop).store(true);
    });
    const Outcome executed = job->execute(progress);
    stopper.join();
    const Outcome finished = job->finish();
    if (timeLimit) {
        EXPECT_TRUE(executed.ok()) << executed.message;
        EXPECT_TRUE(finished.ok()) << finished.message << ": the reader saw every byte sent";
    } else {
        EXPECT_EQ(executed.status, Status::Cancelled);
    }
    EXPECT_GE(progress.bytes.load(), std::uint64_t{256} << 20);
    EXPECT_LT(progress.bytes.load(), spec.bytes);
    EXPECT_EQ(childrenOfThisProcess(), before) << "the reader has ended and been waited for";
    job.reset();
    EXPECT_EQ(childrenOfThisProcess(), before);
}

INSTANTIATE_TEST_SUITE_P(StopKinds, ProcessReaderJob, ::testing::Values(false, true),
                         [](const auto& stopKind) { return stopKind.param ? "TimeLimit" : "UserStop"; });

TEST(ProcessReaderJobs, AJobDestroyedUnrunLeavesNoChildProcess)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    const auto before = childrenOfThisProcess();
    for (const char* strategy : {"pipe-write", "vmsplice"}) {
        Case c{strategy, Direction::Write, 64 * 1024, 64 << 20, {}, {}, 1, TargetKind::Pipe};
        c.extraAxes["readerKinds"] = "process";
        const Pattern pattern(c.chunkBytes);
        const JobSpec spec = verifiedPipeSpec(c, pattern);
        Outcome outcome;
        auto job = registry.find(strategy)->prepare(spec, outcome);
        ASSERT_TRUE(job) << outcome.message;
        EXPECT_EQ(childrenOfThisProcess().size(), before.size() + 1);
        job.reset(); // prepared, never run (a run cancelled before its go)
        EXPECT_EQ(childrenOfThisProcess(), before) << strategy;
    }
}

// Huge pages for vmsplice's ring: thp runs and verifies where the kernel offers it; hugetlb runs where huge
// pages are reserved (as root the test reserves a few and gives them back) and is refused with the reason
// where none are.
TEST(PipePages, HugePageRingsCarryEveryByte)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    const auto run = [&](const std::string& pages) {
        Case c{"vmsplice", Direction::Write, 1 << 20, 64 << 20, {}, {}, 1, TargetKind::Pipe};
        c.extraAxes["pipePages"] = pages;
        const Pattern pattern(c.chunkBytes);
        return runWholeJob(*registry.find("vmsplice"), verifiedPipeSpec(c, pattern)).outcome;
    };
    const std::string thpProblem = linux_backend::pipePagesProblem(linux_backend::PipePages::Thp);
    if (thpProblem.empty()) {
        const Outcome thp = run("thp");
        EXPECT_TRUE(thp.ok()) << thp.message;
    } else {
        EXPECT_THAT(thpProblem, HasSubstr("transparent huge pages"));
    }

    const std::string path = "/proc/sys/vm/nr_hugepages";
    std::string reserved;
    std::getline(std::ifstream(path), reserved);
    const bool mayReserve = ::geteuid() == 0 && ::access(path.c_str(), W_OK) == 0;
    if (linux_backend::pipePagesProblem(linux_backend::PipePages::Hugetlb).empty() || !mayReserve) {
        const std::string problem = linux_backend::pipePagesProblem(linux_backend::PipePages::Hugetlb);
        if (!problem.empty()) {
            EXPECT_THAT(problem, HasSubstr("nr_hugepages"));
            GTEST_SKIP() << "no huge page reserved and not root to reserve some: " << problem;
        }
        const Outcome hugetlb = run("hugetlb");
        EXPECT_TRUE(hugetlb.ok()) << hugetlb.message;
        return;
    }
    EXPECT_THAT(linux_backend::pipePagesProblem(linux_backend::PipePages::Hugetlb),
                HasSubstr("nr_hugepages"));
    std::ofstream(path) << std::stoul(reserved) + 8;
    const Outcome hugetlb = run("hugetlb");
    std::ofstream(path) << reserved;
    EXPECT_TRUE(hugetlb.ok()) << hugetlb.message;
}

TEST(PipeReaderAxes, RefusalsSayWhy)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    const TargetInfo target{};
    Case spin{"pipe-write", Direction::Write, 65536, 1 << 20, {}, {}, 1, TargetKind::Pipe};
    spin.extraAxes["readerWaits"] = "spin";
    spin.readerCpu = ReaderCpu::Same;
    EXPECT_THAT(refusalReason(spin, registry, target), HasSubstr("reader wait spin busy-polls a CPU"));
    spin.readerCpu = ReaderCpu::Other;
    EXPECT_EQ(refusalReason(spin, registry, target), "");

    Case pages{"pipe-write", Direction::Write, 65536, 1 << 20, {}, {}, 1, TargetKind::Pipe};
    pages.extraAxes["pipePages"] = "thp";
    EXPECT_EQ(refusalReason(pages, registry, target), "pipe-write takes no pipe pages (thp)");

    Case file{"write", Direction::Write, 65536, 1 << 20, {}, {}, 1, TargetKind::Directory};
    file.extraAxes["readerKinds"] = "process";
    EXPECT_EQ(refusalReason(file, registry, target), "write takes no reader kind (process)");

    // A backend that cannot fork a reader (Windows declares why) is refused before it runs.
    StrategyInfo noProcess = registry.find("pipe-write")->info();
    noProcess.readerProcessRefusal = "no fork here";
    Case process{"pipe-write", Direction::Write, 65536, 1 << 20, {}, {}, 1, TargetKind::Pipe};
    process.extraAxes["readerKinds"] = "process";
    EXPECT_EQ(refusalReason(process, registry, target), "");
    std::string said;
    for (const AxisRefusal* rule : refusalRulesInOrder())
        if (said.empty())
            said = rule->reason(process, noProcess, target);
    EXPECT_EQ(said, "reader process: no fork here");
}

} // namespace
} // namespace iolab

namespace iolab {
namespace {

// The case's CPU counts its reader process, as it counts a reader thread: the probe adds the CPU of the
// children waited for (the job waits for its reader inside the timed part).
TEST(ProcessReaderCpu, AChildWaitedForCountsInTheProcessCpu)
{
    const auto probe = makeSystemProbe();
    const ProcessCounters before = probe->process();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // 0.3 s of its own CPU time, however busy the machine (a wall-clock spin gets less on a loaded one).
        const auto cpuSeconds = [] {
            timespec t{};
            ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
            return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
        };
        volatile std::uint64_t spin = 0;
        while (cpuSeconds() < 0.3)
            spin = spin + 1;
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    const ProcessCounters after = probe->process();
    EXPECT_GE(after.userSeconds + after.systemSeconds - before.userSeconds - before.systemSeconds, 0.25);
}

} // namespace
} // namespace iolab
