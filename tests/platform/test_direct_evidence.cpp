// SPDX-License-Identifier: MIT
// Issue 14: whether O_DIRECT was honoured is judged on evidence of the page cache, recorded for every
// repetition of a file write. Here a real direct write and a real buffered write run on the temp folder's
// filesystem, and the evidence must tell them apart.
#include "core/analysis/findings.h"
#include "core/base/units.h"
#include "core/engine/runner.h"
#include "core/model/matrix.h"
#include "platform/platform.h"
#include "tests/support/capabilities.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using namespace iolab::test;

namespace {

class DirectEvidence : public ::testing::Test
{
protected:
    DirectEvidence() : m_target(inspectTarget(m_dir.path())), m_probe(makeSystemProbe())
    {
        registerBuiltinStrategies(m_registry);
        probeCapabilities(m_target);
        m_options.repetitions = 2;
        m_options.warmups = 0;
        m_options.sampling = false;
    }

    CaseResult runOne(const std::string& strategy)
    {
        Matrix m;
        MatrixGroup g;
        g.strategies = {strategy};
        g.chunks = {1 * kMiB};
        g.sizes = {64 * kMiB};
        m.groups.push_back(g);
        const auto expanded = expand(m, m_registry, m_target);
        EXPECT_TRUE(expanded.refused.empty()) << expanded.refused.front().reason;
        auto workspace = makeWorkspace(m_target);
        Runner runner(m_registry, *workspace, *m_probe);
        m_result = runner.run(RunPlan{m, m_target, expanded}, m_options, {});
        EXPECT_EQ(m_result.cases.size(), 1u);
        return m_result.cases.empty() ? CaseResult{} : m_result.cases.front();
    }

    Registry m_registry;
    TempDir m_dir;
    TargetInfo m_target;
    std::unique_ptr<SystemProbe> m_probe;
    RunOptions m_options;
    RunResult m_result;
};

} // namespace

TEST_F(DirectEvidence, DirectWriteOnARealFilesystemLeavesNothingCached)
{
    if (mayLackDirectIo(m_target))
        GTEST_SKIP() << m_target.fsType << " at " << m_target.path
                     << " refuses O_DIRECT: " << m_target.directIoProblem;
    if (folderLivesInMemory(m_target))
        GTEST_SKIP() << "the temp folder is on " << m_target.fsType << ", which keeps every file in memory";
    const CaseResult c = runOne("direct");
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    for (const auto& r : c.repetitions) {
        ASSERT_TRUE(r.outcome.ok()) << r.outcome.message;
#ifdef _WIN32
        EXPECT_FALSE(r.cachedAfterBytes.has_value()) << "Windows cannot tell: unknown, not zero";
        EXPECT_FALSE(r.dirtyBeforeBytes.has_value());
#else
        ASSERT_TRUE(r.cachedAfterBytes.has_value());
        EXPECT_LT(*r.cachedAfterBytes, r.bytes / 10) << "direct data is not in the page cache";
        ASSERT_TRUE(r.dirtyBeforeBytes.has_value());
        ASSERT_TRUE(r.dirtyAfterBytes.has_value());
#endif
    }
    for (const auto& f : findings(m_result, &m_registry))
        EXPECT_NE(f.kind, Finding::Kind::DirectIgnored) << f.text;
}

TEST_F(DirectEvidence, BufferedWriteIsSeenInThePageCache)
{
    const CaseResult c = runOne("write");
    ASSERT_EQ(c.status, Status::Ok) << c.reason;
    for (const auto& r : c.repetitions) {
#ifdef _WIN32
        EXPECT_FALSE(r.cachedAfterBytes.has_value());
#else
        ASSERT_TRUE(r.cachedAfterBytes.has_value());
        EXPECT_GT(*r.cachedAfterBytes, r.bytes / 2) << "a buffered write leaves its data cached";
#endif
    }
}
