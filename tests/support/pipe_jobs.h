// SPDX-License-Identifier: MIT
// A pipe case's job run as the runner runs it, for the platform tests of the pipe strategies: the spec with
// the reader checking every byte, and a run from prepare to finish.
#pragma once

#include "core/engine/pattern.h"
#include "core/engine/strategy.h"
#include "core/model/case.h"

#include <atomic>
#include <cstdint>

namespace iolab::test {

// The whole case into the pipe, its bytes from `pattern`, the reader verifying each one.
inline JobSpec verifiedPipeSpec(const Case& c, const Pattern& pattern)
{
    JobSpec spec;
    spec.testCase = c;
    spec.bytes = c.totalBytes;
    spec.pattern = &pattern;
    spec.verifyStream = true;
    return spec;
}

struct JobRun
{
    Outcome outcome;         // the first that was not a success: prepare's, execute's or finish's
    std::uint64_t bytes = 0; // what the job reported moving
};

// Prepares the job, runs it to its end (no stop) and finishes it.
inline JobRun runWholeJob(const Strategy& strategy, const JobSpec& spec)
{
    JobRun run;
    auto job = strategy.prepare(spec, run.outcome);
    if (!job)
        return run;
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    run.outcome = job->execute(progress);
    if (run.outcome.ok())
        run.outcome = job->finish();
    run.bytes = progress.bytes.load();
    return run;
}

} // namespace iolab::test
