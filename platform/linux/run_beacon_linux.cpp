// SPDX-License-Identifier: MIT
// Run beacons on Linux: an abstract unix socket "iolab-run:<st_dev>:<pid>" per run. Abstract names live in
// the kernel, not on a disk, are listed by /proc/net/unix for every user of the network namespace and vanish
// when the last descriptor closes, so a killed run leaves none behind.
#include "platform/run_beacon.h"

#include "core/base/log.h"

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>
#include <utility>

namespace iolab {
namespace {

constexpr std::string_view kPrefix = "iolab-run:";

std::optional<std::uint64_t> deviceOf(const std::string& folder)
{
    struct stat st
    {};
    if (::stat(folder.c_str(), &st) != 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(st.st_dev);
}

} // namespace

RunBeacon::RunBeacon(const std::string& folder)
{
    const auto device = deviceOf(folder);
    if (!device)
        return;
    const std::string name = fmt::format("{}{}:{}", kPrefix, *device, ::getpid());
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    // sun_path[0] == '\0' makes the name abstract; its length is the address length, with no terminator.
    std::memcpy(address.sun_path + 1, name.data(), name.size());
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), length) != 0) {
        logger(LogModule::Platform).debug("no run beacon for {}: bind: {}", folder, std::strerror(errno));
        ::close(fd);
        return;
    }
    m_handle = fd;
}

RunBeacon::~RunBeacon()
{
    if (m_handle != kNone)
        ::close(static_cast<int>(m_handle));
}

RunBeacon::RunBeacon(RunBeacon&& other) noexcept : m_handle(std::exchange(other.m_handle, kNone)) {}

RunBeacon& RunBeacon::operator=(RunBeacon&& other) noexcept
{
    if (this != &other) {
        if (m_handle != kNone)
            ::close(static_cast<int>(m_handle));
        m_handle = std::exchange(other.m_handle, kNone);
    }
    return *this;
}

namespace {

// Every process with a beacon lit on the filesystem holding `folder`, this one included, in pid order.
std::vector<long> beaconPids(const std::string& folder)
{
    std::vector<long> pids;
    const auto device = deviceOf(folder);
    if (!device)
        return pids;
    // Each line of /proc/net/unix ends in the socket's name; an abstract one is shown as "@name".
    const std::string wanted = fmt::format("@{}{}:", kPrefix, *device);
    std::ifstream in("/proc/net/unix");
    std::string line;
    while (std::getline(in, line)) {
        const auto space = line.rfind(' ');
        if (space == std::string::npos)
            continue;
        const std::string_view name = std::string_view(line).substr(space + 1);
        if (!name.starts_with(wanted))
            continue;
        const std::string_view digits = name.substr(wanted.size());
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        pids.push_back(std::stol(std::string(digits)));
    }
    std::sort(pids.begin(), pids.end());
    pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
    return pids;
}

} // namespace

bool beaconLit(const std::string& folder, long pid)
{
    const auto pids = beaconPids(folder);
    return std::binary_search(pids.begin(), pids.end(), pid);
}

std::vector<long> runsOnFilesystemOf(const std::string& folder)
{
    auto pids = beaconPids(folder);
    std::erase(pids, static_cast<long>(::getpid()));
    return pids;
}

} // namespace iolab
