// SPDX-License-Identifier: MIT
// Target facts on Linux: statvfs, /proc/self/mountinfo and the block device's queue in /sys.
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/engine/workspace.h"
#include "platform/linux/memory_cgroup.h"
#include "platform/platform.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

namespace iolab {

namespace {

std::string readLine(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\n'))
        line.pop_back();
    return line;
}

std::uint64_t readNumber(const std::string& path)
{
    const auto text = readLine(path);
    return text.empty() ? 0 : std::strtoull(text.c_str(), nullptr, 10);
}

// mountinfo escapes spaces and tabs in paths as \040 and \011.
std::string unescapeMountPath(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 3 < text.size()) {
            out += static_cast<char>(std::strtol(text.substr(i + 1, 3).c_str(), nullptr, 8));
            i += 3;
        } else {
            out += text[i];
        }
    }
    return out;
}

// The mount's own options, then the filesystem's (superblock) options that add to them: "rw,relatime" and
// "rw,seclabel" make "rw,relatime,seclabel", each option once.
std::string mergeOptions(const std::string& mountOptions, const std::string& superOptions)
{
    std::vector<std::string> merged;
    for (const auto* list : {&mountOptions, &superOptions}) {
        std::istringstream in(*list);
        std::string option;
        while (std::getline(in, option, ',')) {
            if (!option.empty() && std::find(merged.begin(), merged.end(), option) == merged.end())
                merged.push_back(option);
        }
    }
    std::string text;
    for (const auto& option : merged)
        text += (text.empty() ? "" : ",") + option;
    return text;
}

void fillMount(TargetInfo& info, const std::string& realPath, dev_t device)
{
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    std::size_t bestLength = 0;
    const std::string wantedDevice = fmt::format("{}:{}", major(device), minor(device));
    while (std::getline(in, line)) {
        // id parent major:minor root mountpoint options [optional fields] - fstype source superoptions
        std::istringstream fields(line);
        std::string id, parent, majmin, root, mountPoint, options;
        fields >> id >> parent >> majmin >> root >> mountPoint >> options;
        mountPoint = unescapeMountPath(mountPoint);
        if (majmin != wantedDevice)
            continue;
        const bool under =
            realPath == mountPoint ||
            (realPath.rfind(mountPoint, 0) == 0 && (mountPoint == "/" || realPath[mountPoint.size()] == '/'));
        if (!under || mountPoint.size() < bestLength)
            continue;
        std::string token;
        while (fields >> token && token != "-") {
        }
        std::string fsType, source, superOptions;
        fields >> fsType >> source >> superOptions;
        bestLength = mountPoint.size();
        info.mountPoint = mountPoint;
        info.fsType = fsType;
        info.mountSource = unescapeMountPath(source);
        info.mountOptions = mergeOptions(options, superOptions);
    }
}

void fillDevice(TargetInfo& info, dev_t device)
{
    if (major(device) == 0)
        return; // tmpfs, overlay, btrfs subvolumes...: no single block device to watch
    const std::string sysDev = fmt::format("/sys/dev/block/{}:{}", major(device), minor(device));
    std::error_code ec;
    const auto resolved = std::filesystem::canonical(sysDev, ec);
    if (ec)
        return;
    info.device = resolved.filename().string();
    // A partition's queue and model live on its parent disk.
    auto disk = resolved;
    if (std::filesystem::exists(resolved / "partition", ec))
        disk = resolved.parent_path();
    const auto queue = disk / "queue";
    if (auto n = readNumber(queue / "logical_block_size"); n > 0)
        info.logicalBlockBytes = static_cast<std::uint32_t>(n);
    if (auto n = readNumber(queue / "physical_block_size"); n > 0)
        info.physicalBlockBytes = static_cast<std::uint32_t>(n);
    info.maxTransferBytes = readNumber(queue / "max_sectors_kb") * kKiB;
    const auto rotational = readLine(queue / "rotational");
    if (!rotational.empty())
        info.rotational = rotational == "1";
    info.writeCache = readLine(queue / "write_cache");
    const auto fua = readLine(queue / "fua");
    if (!fua.empty())
        info.fua = fua == "1";
    auto model = readLine(disk / "device" / "model");
    const auto vendor = readLine(disk / "device" / "vendor");
    if (!model.empty() && !vendor.empty() && model.rfind(vendor, 0) != 0)
        model = vendor + " " + model;
    info.deviceModel = model;
}

// Filesystems whose files are views of the kernel (its processes, devices, control groups, tracing ...), not
// storage: a target there is refused whatever its permissions say. hugetlbfs is not among them: it stores
// data in huge pages, but only through mmap of whole huge pages, so its cases fail with their own reasons.
// Plain constant arrays, never destroyed: a look at a target left behind at exit (a hung mount) may still
// ask after static destructors have run.
bool isKernelFilesystem(std::string_view type)
{
    static constexpr std::array<std::string_view, 20> kKernel{
        "autofs", "binfmt_misc", "bpf",        "cgroup",    "cgroup2", "configfs", "debugfs",
        "devpts", "devtmpfs",    "efivarfs",   "fusectl",   "mqueue",  "nsfs",     "proc",
        "pstore", "rpc_pipefs",  "securityfs", "selinuxfs", "sysfs",   "tracefs"};
    return std::ranges::find(kKernel, type) != kKernel.end();
}

// What the target list leaves out: the kernel's filesystems, and those that cannot hold a run's files.
bool isPseudoFilesystem(std::string_view type)
{
    static constexpr std::array<std::string_view, 4> kNoRunFiles{"hugetlbfs", "squashfs", "iso9660", "udf"};
    return isKernelFilesystem(type) || std::ranges::find(kNoRunFiles, type) != kNoRunFiles.end();
}

} // namespace

std::vector<TargetInfo> listWritableTargets()
{
    struct Mount
    {
        std::string device; // major:minor
        std::string root;
        std::string mountPoint;
    };
    std::vector<Mount> mounts;
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string id, parent, majmin, root, mountPoint, options, token;
        fields >> id >> parent >> majmin >> root >> mountPoint >> options;
        while (fields >> token && token != "-") {
        }
        std::string fsType;
        fields >> fsType;
        mountPoint = unescapeMountPath(mountPoint);
        const bool readOnly = options == "ro" || options.rfind("ro,", 0) == 0;
        const bool kernelTree = mountPoint.rfind("/proc/", 0) == 0 || mountPoint.rfind("/sys/", 0) == 0;
        if (readOnly || kernelTree || isPseudoFilesystem(fsType) ||
            ::access(mountPoint.c_str(), W_OK | X_OK) != 0)
            continue;
        // A bind mount of the same filesystem and folder is the same target: keep the shortest path.
        auto same = std::find_if(mounts.begin(), mounts.end(),
                                 [&](const Mount& m) { return m.device == majmin && m.root == root; });
        if (same == mounts.end())
            mounts.push_back({majmin, root, mountPoint});
        else if (mountPoint.size() < same->mountPoint.size())
            same->mountPoint = mountPoint;
    }
    std::vector<TargetInfo> targets;
    for (const auto& m : mounts) {
        try {
            auto info = inspectTarget(m.mountPoint);
            // Mounts stacked on one path show only the top one: list that path once.
            const bool listed = std::any_of(targets.begin(), targets.end(),
                                            [&](const TargetInfo& t) { return t.path == info.path; });
            if (!listed)
                targets.push_back(std::move(info));
        } catch (const InputError&) {
            // vanished or became unwritable since mountinfo was read: not a target
        }
    }
    std::sort(targets.begin(), targets.end(),
              [](const TargetInfo& a, const TargetInfo& b) { return a.path < b.path; });
    return targets;
}

std::uint64_t freeSpaceAt(const std::string& folder)
{
    struct statvfs vfs
    {};
    if (::statvfs(folder.c_str(), &vfs) != 0)
        return 0;
    return static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

TargetInfo inspectTarget(const std::string& path)
{
    if (path.empty())
        throw InputError("no target folder given");
    if (path.size() + runfolder::kInnerPathReserve >= PATH_MAX) {
        const std::string shown =
            path.size() > 80 ? path.substr(0, 40) + "..." + path.substr(path.size() - 30) : path;
        throw InputError(
            fmt::format("target '{}' is too long: its path has {} characters, and with the run "
                        "folder IOLab makes inside it, paths would pass this system's limit of {}; "
                        "choose a folder whose path is under {} characters",
                        shown, path.size(), PATH_MAX, PATH_MAX - runfolder::kInnerPathReserve));
    }
    struct stat st
    {};
    if (::stat(path.c_str(), &st) != 0) {
        const int error = errno;
        if (error == ENOENT)
            throw InputError(fmt::format("target '{}' does not exist", path));
        throw InputError(fmt::format("target '{}' cannot be read: {}", path, std::strerror(error)));
    }
    if (!S_ISDIR(st.st_mode))
        throw InputError(fmt::format("target '{}' is not a folder", path));
    char real[PATH_MAX];
    if (::realpath(path.c_str(), real) == nullptr)
        throw InputError(fmt::format("target '{}' cannot be resolved: {}", path, std::strerror(errno)));

    TargetInfo info;
    info.path = real;
    info.fileBlockBytes = st.st_blksize > 0 ? static_cast<std::uint32_t>(st.st_blksize) : 0;
    struct statvfs vfs
    {};
    if (::statvfs(real, &vfs) == 0) {
        info.totalBytes = static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize;
    }
    info.freeBytes = freeSpaceAt(info.path);
    fillMount(info, info.path, st.st_dev);
    // What the folder is comes before who may write there: /proc is no target for root either.
    if (isKernelFilesystem(info.fsType))
        throw InputError(fmt::format("target '{}' is on {}, a kernel pseudo-filesystem: its files are views "
                                     "of the kernel, not storage; "
                                     "give a folder on a disk (or on tmpfs)",
                                     path, info.fsType));
    if (::access(path.c_str(), W_OK | X_OK) != 0) {
        const int error = errno;
        if (error == EROFS)
            throw InputError(fmt::format("target '{}' is on a read-only filesystem", path));
        throw InputError(
            fmt::format("target '{}' is not writable by this user: {}", path, std::strerror(error)));
    }
    fillDevice(info, st.st_dev);
    info.memoryLimitProblem = linuxcg::problem();
    return info;
}

} // namespace iolab
