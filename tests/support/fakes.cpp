// SPDX-License-Identifier: MIT
#include "tests/support/fakes.h"

#include <thread>

namespace iolab::test {

namespace {

class FakeJob final : public Job
{
public:
    FakeJob(JobSpec spec, FakeBehaviour& behaviour) : m_spec(std::move(spec)), m_behaviour(behaviour) {}

    Outcome execute(Progress& progress) override
    {
        m_behaviour.executions++;
        const auto at = m_spec.path.find("-r");
        const auto repetition = at == std::string::npos ? 0UL : std::stoul(m_spec.path.substr(at + 2));
        if (static_cast<int>(repetition) == m_behaviour.failOnRepetition)
            return {Status::Failed, m_behaviour.failErrno, "write", "fake failure"};
        if (m_behaviour.waitForStop) {
            while (!progress.stopRequested())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return Outcome::cancelled();
        }
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t, std::uint64_t size) {
                    m_behaviour.bytesSeen += size;
                    if (m_behaviour.sleepPerWriteMs > 0)
                        std::this_thread::sleep_for(std::chrono::milliseconds(m_behaviour.sleepPerWriteMs));
                    return true;
                },
                [] { return true; });
        });
        return end == LoopEnd::Cancelled ? Outcome::cancelled() : Outcome::success();
    }

private:
    JobSpec m_spec;
    FakeBehaviour& m_behaviour;
};

} // namespace

std::unique_ptr<Job> FakeStrategy::prepare(const JobSpec& spec, Outcome&) const
{
    return std::make_unique<FakeJob>(spec, m_behaviour);
}

} // namespace iolab::test
