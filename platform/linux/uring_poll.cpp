// SPDX-License-Identifier: MIT
#include "platform/linux/uring_poll.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

namespace iolab::linux_backend {

namespace {

std::optional<std::string> firstLine(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    return line;
}

// The driver's parameter that gives a device of that kind poll queues, in words, with its value now.
std::string pollQueueSource(const std::string& root, const std::string& disk)
{
    const auto parameter = [&](const char* module, const char* name) {
        const std::string path = fmt::format("/sys/module/{}/parameters/{}", module, name);
        const auto value = firstLine(root + path);
        return fmt::format("{}'s {} parameter ({}{})", module, name, path,
                           value ? fmt::format(" is {}", *value) : std::string(" is not there"));
    };
    if (disk.starts_with("nvme"))
        return "NVMe gets poll queues from " + parameter("nvme", "poll_queues");
    if (disk.starts_with("vd"))
        return "a virtio disk gets them from " + parameter("virtio_blk", "poll_queues");
    return "its driver gives it none";
}

} // namespace

std::optional<std::string> pollQueueProblem(const std::string& root, const std::string& device)
{
    namespace fs = std::filesystem;
    if (device.empty())
        return std::string(
            "the target has no block device under it (tmpfs, a network or FUSE filesystem), so "
            "there is no device queue to poll");
    // A partition polls through its disk's queue: /sys/class/block/<partition> is a folder of its disk's.
    fs::path node = fs::path(root + "/sys/class/block") / device;
    std::error_code error;
    if (fs::exists(node / "partition", error)) {
        const fs::path resolved = fs::canonical(node, error);
        if (!error)
            node = resolved.parent_path();
    }
    const std::string disk = node.filename().string();
    const fs::path ioPoll = node / "queue" / "io_poll";
    const auto value = firstLine(ioPoll);
    if (!value)
        return fmt::format("the kernel does not say whether {} polls (no /sys/block/{}/queue/io_poll)", disk,
                           disk);
    if (*value == "1")
        return std::nullopt;
    return fmt::format("{} has no poll queues (/sys/block/{}/queue/io_poll is {}): its completions come by "
                       "interrupt, so polling for them is refused; {}",
                       disk, disk, *value, pollQueueSource(root, disk));
}

} // namespace iolab::linux_backend
