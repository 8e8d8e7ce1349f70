// SPDX-License-Identifier: MIT
// The fixture of the platform tests that run real matrices in a temp folder: the folder inspected as a
// target, this machine's system probe and case-child launcher, one repetition and no warm-up, no sampling.
// run() expands a matrix (nothing may be refused), runs it and checks that the run folder is gone afterwards.
#pragma once

#include "core/engine/case_child.h"
#include "core/engine/runner.h"
#include "core/model/matrix.h"
#include "platform/platform.h"
#include "tests/support/memory_hog.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <stop_token>

namespace iolab::test {

class RealRuns : public ::testing::Test
{
protected:
    RealRuns()
        : m_target(inspectTarget(m_dir.path())), m_probe(makeSystemProbe()),
          m_launcher(makeCaseChildLauncher())
    {
        probeCapabilities(m_target);
        m_options.repetitions = 1;
        m_options.warmups = 0;
        m_options.sampling = false;
    }

    // The built-in strategies and the test programs' own (tests/support/memory_hog.h), as a case child of
    // these programs knows them.
    static const Registry& registry() { return testRegistry(); }

    RunResult run(const Matrix& m, std::stop_token stop = {}, RunObserver* observer = nullptr)
    {
        const auto expanded = expand(m, registry(), m_target);
        EXPECT_TRUE(expanded.refused.empty()) << expanded.refused.front().reason;
        auto workspace = makeWorkspace(m_target);
        Runner runner(registry(), *workspace, *m_probe);
        runner.setCaseChildLauncher(m_launcher.get());
        auto result = runner.run(RunPlan{m, m_target, expanded}, m_options, stop, observer);
        EXPECT_TRUE(workspace->folder().empty() || !std::filesystem::exists(workspace->folder()))
            << "the run folder and every file of the run are removed";
        return result;
    }

    RunResult run(const MatrixGroup& group, std::stop_token stop = {}, RunObserver* observer = nullptr)
    {
        Matrix m;
        m.groups.push_back(group);
        return run(m, std::move(stop), observer);
    }

    // The one case of a one-case matrix (an empty result, after a failure, when there is none).
    CaseResult runOne(const MatrixGroup& group, std::stop_token stop = {})
    {
        const RunResult result = run(group, std::move(stop));
        EXPECT_EQ(result.cases.size(), 1u);
        return result.cases.empty() ? CaseResult{} : result.cases.front();
    }

    TempDir m_dir;
    TargetInfo m_target;
    std::unique_ptr<SystemProbe> m_probe;
    std::unique_ptr<CaseChildLauncher> m_launcher;
    RunOptions m_options;
};

} // namespace iolab::test
