// SPDX-License-Identifier: MIT
#pragma once

#include "tests/support/temp_dir.h"

#include <string>
#ifndef _WIN32
#include <sys/mount.h>
#endif

namespace iolab::test {

#ifdef _WIN32
inline constexpr unsigned long kMountReadOnly = 1; // never mounted: see whyNoTmpfs
#else
inline constexpr unsigned long kMountReadOnly = MS_RDONLY;
#endif

// Why this test program cannot mount a small tmpfs, or "" when it can.
inline std::string whyNoTmpfs()
{
#ifdef _WIN32
    return "a small filesystem to fill is mounted from Linux: installer/dev.sh runs the full disk under wine "
           "on "
           "a tmpfs behind a wine drive";
#else
    return runningAsRoot() ? "" : "mounting a small tmpfs needs root";
#endif
}

// A small tmpfs mounted for one test (root only, Linux only: see whyNoTmpfs): for disk-full and read-only
// cases.
class TmpfsMount
{
public:
    explicit TmpfsMount(const std::string& options, unsigned long flags = 0)
    {
#ifdef _WIN32
        (void)options;
        (void)flags;
#else
        m_ok = ::mount("tmpfs", m_dir.path().c_str(), "tmpfs", flags, options.c_str()) == 0;
#endif
    }
    ~TmpfsMount()
    {
#ifndef _WIN32
        if (m_ok)
            ::umount2(m_dir.path().c_str(), MNT_DETACH);
#endif
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;

    bool ok() const
    {
        return m_ok;
    }
    const std::string& path() const
    {
        return m_dir.path();
    }

private:
    TempDir m_dir;
    bool m_ok = false;
};

} // namespace iolab::test
