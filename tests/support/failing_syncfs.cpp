// SPDX-License-Identifier: MIT
// Preloaded into iolab-cli by the bad-input catalogue (tests/cli/test_refusals.cpp): syncfs fails with EIO,
// as on a filesystem whose device has failed, so that one way of iolab-cli advise fails at run time while the
// others run.
#include <cerrno>

extern "C" int syncfs(int fd)
{
    (void)fd;
    errno = EIO;
    return -1;
}
