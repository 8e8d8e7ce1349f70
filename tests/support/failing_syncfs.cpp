// SPDX-License-Identifier: MIT
// Preloaded into iolab-cli by the bad-input catalogue (tests/cli/test_refusals.cpp): syncfs through a file's
// descriptor fails with EIO, as on a filesystem whose device has failed, so that one way of iolab-cli advise
// (syncfs-batch, which syncs through the last file it wrote) fails at run time while the others run. The
// runner's own syncfs through the target folder, before each replay's timed part, still works.
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

extern "C" int syncfs(int fd)
{
    struct stat st
    {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        return static_cast<int>(::syscall(SYS_syncfs, fd));
    errno = EIO;
    return -1;
}
