// SPDX-License-Identifier: MIT
// group-commit (issue 17): writers share syncs, and no write counts as committed before a sync that began
// after it had returned.
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "platform/group_commit_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

using namespace iolab;

namespace {

using Clock = std::chrono::steady_clock;

// What the fake file saw, in time: each write's return, each sync's start and end.
struct Journal
{
    std::mutex mutex;
    std::vector<Clock::time_point> writeEnds;
    // Per writer thread, each write's start and end: the next write's start comes after the commit returned.
    std::map<std::thread::id, std::vector<std::pair<Clock::time_point, Clock::time_point>>> byThread;
    std::vector<std::pair<Clock::time_point, Clock::time_point>> syncs;
    std::vector<std::uint64_t> offsets;
    int failSyncAt = -1; // this sync (0-based) fails
};

class FakeSharedFile
{
public:
    static constexpr const char* kWriteCall = "write";
    static constexpr const char* kSyncCall = "sync";

    FakeSharedFile(Journal& journal) : m_journal(journal) {}

    bool writeAt(const std::byte*, std::uint64_t, std::uint64_t offset)
    {
        const auto started = Clock::now();
        std::lock_guard lock(m_journal.mutex);
        m_journal.byThread[std::this_thread::get_id()].emplace_back(started, Clock::now());
        m_journal.offsets.push_back(offset);
        m_journal.writeEnds.push_back(Clock::now());
        return true;
    }
    bool sync()
    {
        const auto started = Clock::now();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        std::lock_guard lock(m_journal.mutex);
        m_journal.syncs.emplace_back(started, Clock::now());
        return static_cast<int>(m_journal.syncs.size()) - 1 != m_journal.failSyncAt;
    }
    Outcome failure(const char* call) const { return {Status::Failed, 5, call, "fake failure"}; }
    Outcome close() { return Outcome::success(); }

private:
    Journal& m_journal;
};

JobSpec spec(const Pattern& pattern, std::uint32_t threads, std::uint64_t bytes)
{
    JobSpec s;
    s.testCase.strategy = "group-commit";
    s.testCase.chunkBytes = 4 * kKiB;
    s.testCase.totalBytes = bytes;
    s.testCase.threads = threads;
    s.testCase.sync = {SyncMode::FdatasyncEvery, 1};
    s.bytes = bytes;
    s.pattern = &pattern;
    return s;
}

} // namespace

TEST(GroupCommit, WritersShareSyncsAndEveryWriteIsCoveredByASyncThatBeganAfterIt)
{
    const Pattern pattern(4 * kKiB);
    Journal journal;
    CallLatency latency;
    JobSpec s = spec(pattern, 8, 400 * 4 * kKiB);
    s.latency = &latency;
    GroupCommitJob<FakeSharedFile> job(s, journal);
    Progress progress;
    ASSERT_TRUE(job.execute(progress).ok());
    ASSERT_TRUE(job.finish().ok());
    EXPECT_EQ(progress.bytes.load(), 400 * 4 * kKiB);
    EXPECT_EQ(latency.calls.count(), 400u) << "one commit per write";
    EXPECT_EQ(latency.syncs.count(), journal.syncs.size());
    EXPECT_LT(journal.syncs.size(), 400u / 2) << "8 writers share their syncs: far fewer rounds than commits";
    EXPECT_GE(journal.syncs.size(), 400u / 8) << "a round covers at most the writes of the 8 writers";
    // Every offset once.
    std::vector<std::uint64_t> offsets = journal.offsets;
    std::sort(offsets.begin(), offsets.end());
    for (std::size_t i = 0; i < offsets.size(); ++i)
        ASSERT_EQ(offsets[i], i * 4 * kKiB);
    // Every write is followed by a sync that started after it returned.
    for (const auto& end : journal.writeEnds) {
        const bool covered = std::any_of(journal.syncs.begin(), journal.syncs.end(),
                                         [&](const auto& sync) { return sync.first >= end; });
        ASSERT_TRUE(covered) << "a write was committed by no sync that began after it";
    }
    // A commit returns only after a whole sync that began after its write: between a writer's write and
    // its next one (which it starts once the commit has returned) lies a sync from start to end.
    for (const auto& [thread, writes] : journal.byThread) {
        for (std::size_t i = 0; i + 1 < writes.size(); ++i) {
            const auto writeEnd = writes[i].second;
            const auto nextStart = writes[i + 1].first;
            const bool synced =
                std::any_of(journal.syncs.begin(), journal.syncs.end(), [&](const auto& sync) {
                    return sync.first >= writeEnd && sync.second <= nextStart;
                });
            ASSERT_TRUE(synced) << "a commit returned before a sync that began after its write had ended";
        }
    }
}

TEST(GroupCommit, OneWriterSyncsAfterEveryWrite)
{
    const Pattern pattern(4 * kKiB);
    Journal journal;
    GroupCommitJob<FakeSharedFile> job(spec(pattern, 1, 20 * 4 * kKiB), journal);
    Progress progress;
    ASSERT_TRUE(job.execute(progress).ok());
    EXPECT_EQ(journal.syncs.size(), 20u);
}

TEST(GroupCommit, AFailedSyncFailsTheJobAndEveryWriterStops)
{
    const Pattern pattern(4 * kKiB);
    Journal journal;
    journal.failSyncAt = 3;
    GroupCommitJob<FakeSharedFile> job(spec(pattern, 4, 10'000 * 4 * kKiB), journal);
    Progress progress;
    const Outcome outcome = job.execute(progress);
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_EQ(outcome.operation, "sync");
    EXPECT_LT(journal.offsets.size(), 100u) << "the writers stopped soon after the failure";
}

TEST(GroupCommit, ATimeLimitEndsItCompletedAndACancelCancels)
{
    const Pattern pattern(4 * kKiB);
    for (const bool userStop : {false, true}) {
        Journal journal;
        GroupCommitJob<FakeSharedFile> job(spec(pattern, 4, 1'000'000 * 4 * kKiB), journal);
        std::atomic<bool> stop{false};
        std::atomic<bool> timeUp{false};
        Progress progress;
        progress.stop = &stop;
        progress.timeUp = &timeUp;
        std::jthread limit([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            timeUp = true;
            stop = userStop;
        });
        const Outcome outcome = job.execute(progress);
        EXPECT_EQ(outcome.status, userStop ? Status::Cancelled : Status::Ok) << outcome.message;
        EXPECT_LT(progress.bytes.load(), 1'000'000 * 4 * kKiB);
        EXPECT_EQ(progress.bytes.load(), journal.offsets.size() * 4 * kKiB) << "every write taken was done";
    }
}
