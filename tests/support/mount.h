// SPDX-License-Identifier: MIT
#pragma once

#include "tests/support/temp_dir.h"

#include <string>
#include <sys/mount.h>

namespace iolab::test {

// A small tmpfs mounted for one test (root only): for disk-full and read-only cases.
class TmpfsMount
{
public:
    explicit TmpfsMount(const std::string& options, unsigned long flags = 0)
    {
        m_ok = ::mount("tmpfs", m_dir.path().c_str(), "tmpfs", flags, options.c_str()) == 0;
    }
    ~TmpfsMount()
    {
        if (m_ok)
            ::umount2(m_dir.path().c_str(), MNT_DETACH);
    }
    TmpfsMount(const TmpfsMount&) = delete;
    TmpfsMount& operator=(const TmpfsMount&) = delete;

    bool ok() const { return m_ok; }
    const std::string& path() const { return m_dir.path(); }

private:
    TempDir m_dir;
    bool m_ok = false;
};

} // namespace iolab::test
