// SPDX-License-Identifier: MIT
// A sync that fails is named by the call the sync policy made, in the Linux writers that sync through a FILE
// (platform/posix/stdio_job.h) and through a descriptor after a mapping (posix::syncAndClose: mmap-window,
// mmap-batch-direct). fsync and fdatasync on a pipe fail with EINVAL on Linux, so a pipe makes each policy's
// call fail for real.
#include "platform/posix/posix_io.h"
#include "platform/posix/stdio_job.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace iolab;

namespace {

struct Ends
{
    posix::UniqueFd read;
    posix::UniqueFd write;
};

Ends makePipe()
{
    int ends[2] = {-1, -1};
    EXPECT_EQ(::pipe(ends), 0);
    return {posix::UniqueFd(ends[0]), posix::UniqueFd(ends[1])};
}

// The operation StdioCrt::sync reports when its call fails on a pipe.
std::string failedStdioSync(SyncMode mode)
{
    Ends ends = makePipe();
    std::FILE* file = ::fdopen(ends.write.get(), "wb");
    if (file == nullptr)
        return "fdopen failed";
    ends.write.release(); // the FILE owns it
    JobSpec spec;
    spec.path = "the pipe";
    spec.testCase.sync.mode = mode;
    Outcome error;
    const bool synced = posix::StdioCrt::sync(file, mode, spec, error);
    std::fclose(file);
    if (synced)
        return "no failure";
    EXPECT_EQ(error.errorCode, EINVAL) << error.message;
    EXPECT_NE(error.message.find("the pipe"), std::string::npos) << error.message;
    return error.operation;
}

// The operation syncAndClose reports when its call fails on a pipe.
std::string failedSyncAndClose(SyncMode mode)
{
    Ends ends = makePipe();
    const Outcome error = posix::syncAndClose(ends.write, mode, "the pipe");
    if (error.ok())
        return "no failure";
    EXPECT_EQ(error.errorCode, EINVAL) << error.message;
    return error.operation;
}

struct Row
{
    SyncMode mode;
    const char* call;
};

// Written out, not derived from syncCallName: fdatasync-every was named "fsync" by the stdio writers, and
// every fdatasync by syncAndClose, until 0.6.0.
constexpr Row kRows[] = {{SyncMode::FsyncEnd, "fsync"},
                         {SyncMode::FsyncEvery, "fsync"},
                         {SyncMode::FdatasyncEnd, "fdatasync"},
                         {SyncMode::FdatasyncEvery, "fdatasync"}};

} // namespace

TEST(PosixSyncNames, AFailedSyncThroughAFileIsNamedByTheCallThePolicyMade)
{
    for (const Row& row : kRows)
        EXPECT_EQ(failedStdioSync(row.mode), row.call)
            << toString(SyncPolicy{row.mode, syncsEveryN(row.mode) ? 1u : 0u});
}

TEST(PosixSyncNames, AFailedSyncAfterAMappingIsNamedByTheCallThePolicyMade)
{
    for (const Row& row : kRows)
        EXPECT_EQ(failedSyncAndClose(row.mode), row.call)
            << toString(SyncPolicy{row.mode, syncsEveryN(row.mode) ? 1u : 0u});
}
