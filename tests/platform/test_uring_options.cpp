// SPDX-License-Identifier: MIT
// io_uring's own options (the --uring axis, issue 39), checked against what the kernel itself says: each
// variant of a uring-* job writes or reads every byte right, reports the options in effect, and the ring's
// /proc/self/fdinfo (the kernel's account, not IOLab's) shows a registered file, registered buffers and an
// SQPOLL thread exactly where the options asked for them. IOPOLL is refused where the device has no poll
// queues (this VM's virtio disk), and the poll-queue detection is checked on recorded sysfs trees.
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/model/matrix.h"
#include "platform/builtin_strategies.h"
#include "platform/linux/uring_poll.h"
#include "platform/linux/uring_setup.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/pattern_file.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

// The kernel's account of the process's io_uring rings: /proc/self/fdinfo of each fd that is a ring, as
// "Key" -> value for its "Key:\tvalue" lines (SqThread, UserFiles, UserBufs).
std::vector<std::map<std::string, std::string>> ringFdinfo()
{
    namespace fs = std::filesystem;
    std::vector<std::map<std::string, std::string>> rings;
    for (const auto& entry : fs::directory_iterator("/proc/self/fd")) {
        std::error_code error;
        const fs::path target = fs::read_symlink(entry.path(), error);
        if (error || target.string().find("io_uring") == std::string::npos)
            continue;
        std::ifstream in("/proc/self/fdinfo/" + entry.path().filename().string());
        std::map<std::string, std::string> fields;
        for (std::string line; std::getline(in, line);) {
            const auto colon = line.find(":\t");
            if (colon != std::string::npos && line[0] != ' ')
                fields[line.substr(0, colon)] = line.substr(colon + 2);
        }
        rings.push_back(std::move(fields));
    }
    return rings;
}

// How many threads this process has, by the kernel's /proc/self/task.
std::size_t threads()
{
    const auto tasks = std::filesystem::directory_iterator("/proc/self/task");
    return static_cast<std::size_t>(std::distance(begin(tasks), end(tasks)));
}

// How many SQPOLL threads ("iou-sqp-PID") this process has (a poller names itself once it runs).
std::size_t pollingThreads()
{
    std::size_t count = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream in(task.path() / "comm");
        std::string name;
        if (std::getline(in, name) && name.rfind("iou-sqp-", 0) == 0)
            ++count;
    }
    return count;
}

struct OptionRow
{
    const char* name;
    const char* strategy;
    const char* options; // the --uring value
};

class UringOptionRuns : public ::testing::TestWithParam<OptionRow>
{
protected:
    UringOptionRuns() : m_target(inspectTarget(m_dir.path()))
    {
        registerBuiltinStrategies(m_registry);
        probeCapabilities(m_target);
    }

    Registry m_registry;
    TempDir m_dir;
    TargetInfo m_target;
};

} // namespace

TEST_P(UringOptionRuns, EachOptionIsInEffectWhereTheKernelSaysSo)
{
    const auto& row = GetParam();
    const Strategy* strategy = m_registry.find(row.strategy);
    ASSERT_NE(strategy, nullptr);
    if (strategy->info().needsDirectIo && mayLackDirectIo(m_target))
        GTEST_SKIP() << m_target.directIoProblem;
    const bool read = strategy->info().direction == Direction::Read;
    Case c{row.strategy,         read ? Direction::Read : Direction::Write, 4096, kMiB, {}, {}, 1,
           TargetKind::Directory};
    c.queueDepth = 8;
    c.uring = parseUringOptions(row.options);
    if (read)
        c.cache = CacheState::Cold;
    if (read && !strategy->info().needsDirectIo)
        c.hint = ReadHint::Sequential;
    ASSERT_EQ(refusalReason(c, m_registry, m_target), "");
    const Pattern pattern(c.chunkBytes);
    JobSpec spec;
    spec.testCase = c;
    spec.bytes = c.totalBytes;
    spec.path = m_dir / "data.dat";
    spec.pattern = &pattern;
    spec.target = m_target;
    spec.verifyData = true;
    if (read)
        writePatternFile(spec.path, c.totalBytes);
    ASSERT_TRUE(ringFdinfo().empty()) << "no ring is left from another test";

    Outcome outcome;
    auto job = strategy->prepare(spec, outcome);
    ASSERT_TRUE(job) << outcome.message;
    const auto inEffect = job->uringInEffect();
    ASSERT_TRUE(inEffect.has_value());
    const UringOptions asked = parseUringOptions(row.options);
    const UringOptions expected = asked.mode == UringOptions::Mode::Auto
                                      ? parseUringOptions("fixedbufs+registerfiles") // root: no memlock limit
                                      : asked;
    EXPECT_EQ(toString(*inEffect), toString(expected));

    // The kernel's own account of the ring.
    const auto rings = ringFdinfo();
    ASSERT_EQ(rings.size(), 1u);
    const auto& ring = rings.front();
    ASSERT_TRUE(ring.contains("UserFiles")) << "this kernel's fdinfo has no UserFiles line";
    EXPECT_EQ(ring.at("UserFiles"), expected.registeredFiles ? "1" : "0");
    EXPECT_EQ(ring.at("UserBufs"), expected.fixedBuffers ? (read ? "8" : "1") : "0");
    ASSERT_TRUE(ring.contains("SqThread"));
    if (expected.sqPoll)
        EXPECT_GT(std::stol(ring.at("SqThread")), 0) << "a polling thread serves the ring";
    else
        EXPECT_EQ(ring.at("SqThread"), "-1");

    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    const Outcome executed = job->execute(progress);
    ASSERT_TRUE(executed.ok()) << executed.message;
    job.reset();
    const std::size_t pollersLeft = pollingThreads(); // at once, before the checks below give it time
    EXPECT_EQ(progress.bytes.load(), c.totalBytes);
    if (!read) {
        const auto data = readFileBytes(spec.path);
        ASSERT_EQ(data.size(), c.totalBytes);
        for (std::size_t i = 0; i < data.size(); ++i)
            ASSERT_EQ(data[i], Pattern::expected(i)) << "byte " << i;
    }
    EXPECT_TRUE(ringFdinfo().empty()) << "the ring is gone with its job";
    // Closing a ring only queues its teardown: without the wait for it, the poller spun on for 20 ms to a
    // second and competed with the next ring's (issue 39).
    EXPECT_EQ(pollersLeft, 0u) << "the ring's SQPOLL thread is gone with its job";
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Linux, UringOptionRuns, ::testing::Values(
    OptionRow{"WriteAuto", "uring-write", "auto"},
    OptionRow{"WritePlain", "uring-write", "plain"},
    OptionRow{"WriteFixedbufs", "uring-write", "fixedbufs"},
    OptionRow{"WriteRegisterfiles", "uring-write-direct", "registerfiles"},
    OptionRow{"WriteSqpoll", "uring-write-direct", "sqpoll"},
    OptionRow{"WriteAllButIopoll", "uring-random-write-direct", "fixedbufs+registerfiles+sqpoll"},
    OptionRow{"ReadAuto", "uring-read", "auto"},
    OptionRow{"ReadPlain", "uring-read-direct", "plain"},
    OptionRow{"ReadFixedbufs", "uring-read-direct", "fixedbufs"},
    OptionRow{"ReadRegisterfiles", "uring-random-read-direct", "registerfiles"},
    OptionRow{"ReadSqpoll", "uring-read", "sqpoll"},
    OptionRow{"ReadAllButIopoll", "uring-random-read-direct", "fixedbufs+registerfiles+sqpoll"}),
    [](const auto& row) { return std::string(row.param.name); });
// clang-format on

TEST(UringOptions, IopollIsRefusedWhereTheDeviceHasNoPollQueues)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    TempDir dir;
    TargetInfo target = inspectTarget(dir.path());
    probeCapabilities(target);
    const auto problem = linux_backend::pollQueueProblem("", target.device);
    if (!problem)
        GTEST_SKIP() << target.device << " has poll queues here: IOPOLL runs, nothing to refuse";
    Case c{"uring-random-read-direct", Direction::Read, 4096, kMiB, {}, {}, 1, TargetKind::Directory};
    c.queueDepth = 8;
    c.cache = CacheState::Cold;
    c.uring = parseUringOptions("iopoll");
    const std::string refused = refusalReason(c, registry, target);
    EXPECT_EQ(refused, "iopoll: " + *problem);
    EXPECT_THAT(refused, HasSubstr("has no poll queues"));
    // Through the page cache there is nothing to poll, whatever the device.
    c.strategy = "uring-random-read";
    c.hint = ReadHint::Random;
    EXPECT_THAT(refusalReason(c, registry, target), HasSubstr("goes through the page cache"));
}

TEST(UringOptions, SqpollAndIopollSetUpsAreNamedWhenRefused)
{
    using namespace iolab::linux_backend;
    EXPECT_THAT(ringSetupProblem(EPERM, 8, 0, {.sqPoll = true}), HasSubstr("SQPOLL"));
    EXPECT_THAT(ringSetupProblem(EINVAL, 8, 0, {.ioPoll = true}), HasSubstr("with IOPOLL"));
    EXPECT_THAT(registrationProblem(ENOMEM, "buffers", 65536), HasSubstr("locked-memory limit"));
    EXPECT_THAT(registrationProblem(ENOMEM, "buffers", 65536), HasSubstr("65536 bytes"));
    // This kernel (5.11 and later) gives an unprivileged SQPOLL ring; an IOPOLL ring sets up on any device.
    EXPECT_FALSE(probeRing(8, {.sqPoll = true}).has_value());
    EXPECT_FALSE(probeRing(8, {.ioPoll = true}).has_value());
}

TEST(UringOptions, AnSqpollProbeLeavesNoPollingThreadBehind)
{
    // The refusal check sets an SQPOLL ring up and closes it at once, before every such case: its poller,
    // which had not run yet, spun for the kernel's idle second beside the case's own (issue 39). Not yet
    // run, a poller has no name of its own: the process's thread count shows it.
    const std::size_t before = threads();
    for (int round = 0; round < 3; ++round) {
        ASSERT_FALSE(iolab::linux_backend::probeRing(8, {.sqPoll = true}).has_value());
        EXPECT_EQ(threads(), before) << "round " << round;
    }
}

TEST(UringOptions, AThreadsExitIsAwaited)
{
    using namespace iolab::linux_backend;
    std::promise<int> tid;
    std::thread brief([&tid] {
        tid.set_value(static_cast<int>(::gettid()));
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
    });
    const int id = tid.get_future().get();
    EXPECT_TRUE(awaitThreadExit(id, 5000));
    EXPECT_FALSE(std::filesystem::exists("/proc/self/task/" + std::to_string(id)));
    brief.join();
    // This thread does not end: the wait gives up at its limit and says so.
    const auto started = std::chrono::steady_clock::now();
    EXPECT_FALSE(awaitThreadExit(static_cast<int>(::gettid()), 20));
    EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(20));
}

namespace {

std::string recorded(const std::string& name)
{
    return std::string(IOLAB_SOURCE_DIR) + "/tests/data/facts/" + name;
}

} // namespace

TEST(UringOptions, PollQueuesAreReadFromSysfs)
{
    using linux_backend::pollQueueProblem;
    // An NVMe drive loaded with poll_queues=4: its disk and its partition (through the disk's queue) poll.
    EXPECT_EQ(pollQueueProblem(recorded("nvme-poll-queues"), "nvme0n1"), std::nullopt);
    EXPECT_EQ(pollQueueProblem(recorded("nvme-poll-queues"), "nvme0n1p2"), std::nullopt);
    // The same drive with the default poll_queues=0.
    EXPECT_EQ(pollQueueProblem(recorded("nvme-no-poll-queues"), "nvme0n1"),
              "nvme0n1 has no poll queues (/sys/block/nvme0n1/queue/io_poll is 0): its completions come by "
              "interrupt, so polling for them is refused; NVMe gets poll queues from nvme's poll_queues "
              "parameter (/sys/module/nvme/parameters/poll_queues is 0)");
    // This VM's virtio disk, recorded.
    EXPECT_EQ(pollQueueProblem(recorded("virtio-no-poll-queues"), "vda"),
              "vda has no poll queues (/sys/block/vda/queue/io_poll is 0): its completions come by "
              "interrupt, so polling for them is refused; a virtio disk gets them from virtio_blk's "
              "poll_queues parameter (/sys/module/virtio_blk/parameters/poll_queues is 0)");
    EXPECT_THAT(*pollQueueProblem(recorded("virtio-no-poll-queues"), "sdz"), HasSubstr("does not say"));
    EXPECT_THAT(*pollQueueProblem(recorded("virtio-no-poll-queues"), ""), HasSubstr("no block device"));
}
