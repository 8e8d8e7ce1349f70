// SPDX-License-Identifier: MIT
// The C library under the Linux stdio writers (platform/posix/stdio_job.h): a sync that fails is named by the
// call the sync policy made. fsync and fdatasync on a pipe fail with EINVAL on Linux, so a FILE over a pipe
// makes each policy's call fail for real.
#include "platform/posix/stdio_job.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace iolab;

namespace {

// The operation StdioCrt::sync reports when its call fails on a pipe.
std::string failedSyncOf(SyncMode mode)
{
    int ends[2] = {-1, -1};
    if (::pipe(ends) != 0)
        return "pipe() failed";
    std::FILE* file = ::fdopen(ends[1], "wb");
    if (file == nullptr) {
        ::close(ends[0]);
        ::close(ends[1]);
        return "fdopen failed";
    }
    JobSpec spec;
    spec.path = "the pipe";
    spec.testCase.sync.mode = mode;
    Outcome error;
    const bool synced = posix::StdioCrt::sync(file, mode, spec, error);
    std::fclose(file);
    ::close(ends[0]);
    if (synced)
        return "no failure";
    EXPECT_EQ(error.errorCode, EINVAL) << error.message;
    EXPECT_NE(error.message.find("the pipe"), std::string::npos) << error.message;
    return error.operation;
}

} // namespace

TEST(StdioCrt, AFailedSyncIsNamedByTheCallThePolicyMade)
{
    EXPECT_EQ(failedSyncOf(SyncMode::FsyncEnd), "fsync");
    EXPECT_EQ(failedSyncOf(SyncMode::FsyncEvery), "fsync");
    EXPECT_EQ(failedSyncOf(SyncMode::FdatasyncEnd), "fdatasync");
    // fdatasync every N writes was named "fsync" here until 0.6.0.
    EXPECT_EQ(failedSyncOf(SyncMode::FdatasyncEvery), "fdatasync");
}
