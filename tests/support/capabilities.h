// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/target.h"

#include <gtest/gtest.h>

#include <string>

#ifndef _WIN32
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <linux/io_uring.h>
#include <linux/magic.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>
#endif

namespace iolab::test {

// What the test's own folder can do, found apart from IOLab's probe (platform's probeCapabilities and
// inspectTarget), so that a probe which wrongly says "not supported" cannot turn a test into a skip. A test
// may skip for want of a capability only where these say the machine lacks it too; where they say it works,
// the probe's word is a failure.
//
// On Windows the probe's word stands (NTFS takes FILE_FLAG_NO_BUFFERING; under wine it depends on the Linux
// folder behind the drive): these checks are Linux's, where CI runs.

#ifndef _WIN32

// The folder's filesystem as statfs(2) names it: "ext4" (ext2 and ext3 share its number), "xfs", "btrfs",
// "tmpfs", "ramfs", "overlay", "nfs", "fuse", or the number in hex.
inline std::string fileSystemOf(const std::string& dir)
{
    struct statfs fs
    {};
    if (::statfs(dir.c_str(), &fs) != 0)
        return "statfs failed: " + std::string(std::strerror(errno));
    switch (static_cast<std::uint64_t>(fs.f_type)) {
    case EXT4_SUPER_MAGIC:
        return "ext4";
    case XFS_SUPER_MAGIC:
        return "xfs";
    case BTRFS_SUPER_MAGIC:
        return "btrfs";
    case TMPFS_MAGIC:
        return "tmpfs";
    case RAMFS_MAGIC:
        return "ramfs";
    case OVERLAYFS_SUPER_MAGIC:
        return "overlay";
    case NFS_SUPER_MAGIC:
        return "nfs";
    case FUSE_SUPER_MAGIC:
        return "fuse";
    default:
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(fs.f_type));
        return hex;
    }
}

// The local disk filesystems that have taken O_DIRECT and fallocate for as long as Linux has had them.
inline bool alwaysTakesDirectIoAndFallocate(const std::string& fileSystem)
{
    return fileSystem == "ext4" || fileSystem == "xfs" || fileSystem == "btrfs";
}

// Whether the target's folder keeps its files in memory (tmpfs, ramfs), by statfs.
inline bool folderLivesInMemory(const TargetInfo& target)
{
    const std::string fs = fileSystemOf(target.path);
    return fs == "tmpfs" || fs == "ramfs";
}

// "" when an O_DIRECT file can be made in `dir` and takes one aligned 4 KiB write; else what failed.
inline std::string directIoTrial(const std::string& dir)
{
    std::string path = dir + "/.iolab-test-direct-XXXXXX";
    const int made = ::mkstemp(path.data());
    if (made < 0)
        return "mkstemp: " + std::string(std::strerror(errno));
    ::close(made);
    std::string problem;
    const int fd = ::open(path.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0) {
        problem = "open(O_DIRECT): " + std::string(std::strerror(errno));
    } else {
        void* block = nullptr;
        if (::posix_memalign(&block, 4096, 4096) != 0) {
            problem = "posix_memalign failed";
        } else {
            std::memset(block, 0x5a, 4096);
            if (::pwrite(fd, block, 4096, 0) != 4096)
                problem = "pwrite with O_DIRECT: " + std::string(std::strerror(errno));
            std::free(block);
        }
        ::close(fd);
    }
    ::unlink(path.c_str());
    return problem;
}

// "" when fallocate(2) reserves 4 KiB of a new file in `dir`; else what failed.
inline std::string fallocateTrial(const std::string& dir)
{
    std::string path = dir + "/.iolab-test-fallocate-XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0)
        return "mkstemp: " + std::string(std::strerror(errno));
    std::string problem;
    if (::fallocate(fd, 0, 0, 4096) != 0)
        problem = "fallocate: " + std::string(std::strerror(errno));
    ::close(fd);
    ::unlink(path.c_str());
    return problem;
}

// "" when the kernel sets up an io_uring ring for this process (io_uring_setup(2), not liburing, not IOLab);
// else why not: ENOSYS (no io_uring), EPERM (io_uring_disabled, or a seccomp filter).
inline std::string uringTrial()
{
    io_uring_params params{};
    const long fd = ::syscall(__NR_io_uring_setup, 4, &params);
    if (fd < 0)
        return "io_uring_setup: " + std::string(std::strerror(errno));
    ::close(static_cast<int>(fd));
    return "";
}

// "" when this process may make a memory cgroup where the kernel mounts one, read from /proc/self/mountinfo
// and /proc/self/cgroup, not from IOLab: cgroup v1, a group made and removed under the memory hierarchy;
// cgroup v2, the memory controller listed for this process's cgroup, which it can write. Else why not.
inline std::string memoryCgroupTrial()
{
    std::ifstream mounts("/proc/self/mountinfo");
    std::string line;
    std::string v1;
    std::string v2;
    while (std::getline(mounts, line)) {
        std::istringstream fields(line);
        std::string id, parent, devices, root, point, options, field;
        fields >> id >> parent >> devices >> root >> point >> options;
        while (fields >> field && field != "-") {
        }
        std::string type, source, superOptions;
        fields >> type >> source >> superOptions;
        if (type == "cgroup2")
            v2 = point;
        else if (type == "cgroup" && ("," + superOptions + ",").find(",memory,") != std::string::npos)
            v1 = point;
    }
    // This process's place in the hierarchy: "N:memory:/path" (v1) or "0::/path" (v2).
    std::ifstream own("/proc/self/cgroup");
    std::string mine1;
    std::string mine2;
    while (std::getline(own, line)) {
        const auto first = line.find(':');
        const auto second = line.find(':', first + 1);
        const std::string controllers = line.substr(first + 1, second - first - 1);
        if (("," + controllers + ",").find(",memory,") != std::string::npos)
            mine1 = line.substr(second + 1);
        else if (controllers.empty())
            mine2 = line.substr(second + 1);
    }
    if (!v1.empty()) {
        const std::string trial = v1 + mine1 + "/iolab-test-trial-" + std::to_string(::getpid());
        if (::mkdir(trial.c_str(), 0755) != 0)
            return "mkdir " + trial + ": " + std::strerror(errno);
        ::rmdir(trial.c_str());
        return "";
    }
    if (!v2.empty()) {
        const std::string dir = v2 + mine2;
        std::ifstream controllers(dir + "/cgroup.controllers");
        std::string words((std::istreambuf_iterator<char>(controllers)), std::istreambuf_iterator<char>());
        if ((" " + words + " ").find(" memory") == std::string::npos)
            return "the memory controller is not listed in " + dir + "/cgroup.controllers";
        if (::access(dir.c_str(), W_OK) != 0 ||
            ::access((dir + "/cgroup.subtree_control").c_str(), W_OK) != 0)
            return dir + " is not writable by this process";
        return "";
    }
    return "no cgroup hierarchy with the memory controller is mounted";
}

// Whether a test may go without a memory cgroup for a case child: only where IOLab found a problem and the
// trial above fails too.
inline bool mayLackMemoryCgroup(const TargetInfo& target)
{
    if (target.memoryLimitProblem.empty())
        return false;
    if (const std::string trial = memoryCgroupTrial(); trial.empty()) {
        ADD_FAILURE()
            << "IOLab says \"" << target.memoryLimitProblem
            << "\", but this process can make a memory cgroup (/proc/self/mountinfo, /proc/self/cgroup)";
        return false;
    }
    return true;
}

// Whether a test may go without O_DIRECT in `target`'s folder: only where IOLab's probe found a problem AND
// the folder is on none of the filesystems that always take it AND an O_DIRECT write of its own fails there
// too. Otherwise the probe's problem is a failure of the test, which then runs on (and fails on its own too).
inline bool mayLackDirectIo(const TargetInfo& target)
{
    if (target.directIoProblem.empty())
        return false;
    const std::string fs = fileSystemOf(target.path);
    const std::string trial = directIoTrial(target.path);
    if (alwaysTakesDirectIoAndFallocate(fs) || trial.empty()) {
        ADD_FAILURE() << "IOLab's probe says \"" << target.directIoProblem << "\", but " << target.path
                      << " is on " << fs << " (statfs)"
                      << (trial.empty() ? ", where an O_DIRECT write of the test's own just worked"
                                        : ", which takes O_DIRECT");
        return false;
    }
    return true;
}

// The same for fallocate.
inline bool mayLackFallocate(const TargetInfo& target)
{
    if (target.fallocateProblem.empty())
        return false;
    const std::string fs = fileSystemOf(target.path);
    const std::string trial = fallocateTrial(target.path);
    if (alwaysTakesDirectIoAndFallocate(fs) || trial.empty()) {
        ADD_FAILURE() << "IOLab's probe says \"" << target.fallocateProblem << "\", but " << target.path
                      << " is on " << fs << " (statfs)"
                      << (trial.empty() ? ", where a fallocate of the test's own just worked"
                                        : ", which takes fallocate");
        return false;
    }
    return true;
}

// Whether a test may go without io_uring, given what IOLab said (`iolabProblem`, "" when it had none): only
// where IOLab had a problem and the kernel refuses a ring to this process too.
inline bool mayLackUring(const std::string& iolabProblem)
{
    if (iolabProblem.empty())
        return false;
    if (const std::string trial = uringTrial(); trial.empty()) {
        ADD_FAILURE() << "IOLab says \"" << iolabProblem
                      << "\", but io_uring_setup(2) just set up a ring here";
        return false;
    }
    return true;
}

#else

inline bool folderLivesInMemory(const TargetInfo& target)
{
    return target.livesInMemory();
}

inline bool mayLackDirectIo(const TargetInfo& target)
{
    return !target.directIoProblem.empty();
}

inline bool mayLackFallocate(const TargetInfo& target)
{
    return !target.fallocateProblem.empty();
}

inline bool mayLackUring(const std::string& iolabProblem)
{
    return !iolabProblem.empty();
}

inline bool mayLackMemoryCgroup(const TargetInfo& target)
{
    return !target.memoryLimitProblem.empty();
}

#endif

} // namespace iolab::test
