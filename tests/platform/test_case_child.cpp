// SPDX-License-Identifier: MIT
// The case child's handshake as the runner waits through it: the child wakes a parent asleep in waitState at
// each new state (Linux: a futex on the block's state word; Windows: an event duplicated into the child), so
// the parent neither polls while a measured repetition runs nor notices its end late.
#include "core/base/units.h"
#include "core/engine/case_child.h"
#include "tests/support/real_runs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

using namespace iolab;
using namespace iolab::test;

namespace {

using Clock = std::chrono::steady_clock;
using childlink::State;

// Far longer than any step takes, even under a sanitizer or wine: a step that lasts it was not woken.
constexpr auto kNeverReached = std::chrono::seconds(120);
constexpr auto kWokenWithin = std::chrono::seconds(60);

class CaseChildWake : public RealRuns
{
protected:
    std::unique_ptr<CaseChild> start(const std::string& strategy, std::uint64_t bytes)
    {
        m_workspace = makeWorkspace(m_target);
        ChildRequest request;
        request.testCase.strategy = strategy;
        request.testCase.chunkBytes = 4 * kKiB;
        request.testCase.totalBytes = bytes;
        request.testCase.threads = 1;
        request.target = m_target;
        request.measured = true;
        Outcome outcome;
        ChildThread thread;
        thread.path = m_workspace->pathFor("wake-t0.dat", outcome);
        thread.auxPath = m_workspace->pathFor("wake-t0.batch", outcome);
        thread.bytes = bytes;
        request.threads.push_back(thread);
        m_files = {thread.path, thread.auxPath};
        m_link = m_workspace->pathFor("wake.link", outcome);
        EXPECT_TRUE(outcome.ok()) << outcome.message;
        auto child = m_launcher->start(m_link, request, outcome);
        EXPECT_TRUE(child != nullptr) << outcome.message;
        return child;
    }

    // One waitState with a timeout no step reaches; the state it returned and whether it was woken.
    static State waitOnce(CaseChild& child, State from, bool& woken)
    {
        const auto began = Clock::now();
        const State state =
            child.waitState(from, std::chrono::duration_cast<std::chrono::milliseconds>(kNeverReached));
        woken = Clock::now() - began < kWokenWithin;
        return state;
    }

    // Waits through Starting; the state the child reached, each wait having been woken.
    static State pastStarting(CaseChild& child)
    {
        bool woken = false;
        State state = State::Starting;
        while (state == State::Starting) {
            state = waitOnce(child, state, woken);
            EXPECT_TRUE(woken) << "no wake-up when the child left Starting";
        }
        return state;
    }

    void TearDown() override
    {
        if (!m_workspace)
            return;
        for (const auto& path : m_files)
            m_workspace->remove(path);
        m_workspace->remove(m_link);
        m_workspace->close();
        EXPECT_TRUE(std::filesystem::is_empty(m_dir.path())) << "nothing left behind";
    }

    std::unique_ptr<Workspace> m_workspace;
    std::vector<std::string> m_files;
    std::string m_link;
};

TEST_F(CaseChildWake, TheParentIsWokenAtEveryStateOfAMeasuredRun)
{
    auto child = start("write", 64 * kMiB);
    ASSERT_TRUE(child);
    State state = pastStarting(*child);
    ASSERT_EQ(state, State::Ready) << child->link().outcome().message;
    bool woken = false;

    child->link().header().go.store(1, std::memory_order_release);
    // Running, then Finished: each a wake-up of its own, or both at once when the run was short.
    while (state != State::Finished && state != State::Failed) {
        state = waitOnce(*child, state, woken);
        ASSERT_TRUE(woken) << "no wake-up after state " << static_cast<int>(state);
    }
    EXPECT_EQ(state, State::Finished);
    EXPECT_TRUE(child->link().outcome().ok()) << child->link().outcome().message;
    EXPECT_EQ(child->link().progress(0).bytes.load(), 64 * kMiB);
    EXPECT_TRUE(child->wait().exitedNormally);
}

TEST_F(CaseChildWake, AChildThatFailsToPrepareWakesItsParentWithTheReason)
{
    auto child = start("no-such-strategy", 1 * kMiB);
    ASSERT_TRUE(child);
    EXPECT_EQ(pastStarting(*child), State::Failed);
    EXPECT_NE(child->link().outcome().message.find("no strategy 'no-such-strategy'"), std::string::npos)
        << child->link().outcome().message;
    (void)child->wait();
}

TEST_F(CaseChildWake, AWaitOnAStateAlreadyLeftReturnsAtOnce)
{
    auto child = start("write", 1 * kMiB);
    ASSERT_TRUE(child);
    ASSERT_EQ(pastStarting(*child), State::Ready);
    // The block says Ready, so a wait for a change from Starting must not sleep at all.
    const auto began = Clock::now();
    EXPECT_EQ(child->waitState(State::Starting, std::chrono::milliseconds(60000)), State::Ready);
    EXPECT_LT(Clock::now() - began, kWokenWithin);
    child->link().header().stop.store(true);
    (void)child->wait();
}

} // namespace
