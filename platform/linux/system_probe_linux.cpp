// SPDX-License-Identifier: MIT
// The system probe on Linux: getrusage for CPU, /proc/self/statm for RSS, /proc/meminfo for Dirty and
// Writeback, /proc/diskstats for the target's device.
#include "core/base/units.h"
#include "platform/linux/thermal_linux.h"
#include "platform/platform.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace iolab {

namespace {

// Reads a small /proc file in one go into a fixed buffer; no allocation on the sampling path.
std::size_t readSmallFile(const char* path, char* buffer, std::size_t size)
{
    std::FILE* f = std::fopen(path, "re");
    if (f == nullptr)
        return 0;
    const std::size_t n = std::fread(buffer, 1, size - 1, f);
    std::fclose(f);
    buffer[n] = '\0';
    return n;
}

std::uint64_t meminfoKiB(const char* text, const char* key)
{
    const char* at = std::strstr(text, key);
    if (at == nullptr)
        return 0;
    return std::strtoull(at + std::strlen(key), nullptr, 10);
}

std::string firstLineValue(const std::string& path, const std::string& key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) == 0) {
            auto value = line.substr(line.find_first_of(":=") + 1);
            value.erase(0, value.find_first_not_of(" \t\""));
            while (!value.empty() && (value.back() == '"' || value.back() == ' '))
                value.pop_back();
            return value;
        }
    }
    return {};
}

class LinuxSystemProbe final : public SystemProbe
{
public:
    ProcessCounters process() override
    {
        ProcessCounters c;
        rusage usage{};
        // This process's CPU and that of the children it has waited for: a pipe case's reader process
        // (--reader process) is waited for inside the timed part, so its CPU is in the repetition's as a
        // reader thread's would be. (A case child's CPU is its own block's, never read from here.)
        for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
            if (::getrusage(who, &usage) != 0)
                continue;
            c.userSeconds += static_cast<double>(usage.ru_utime.tv_sec) +
                             static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
            c.systemSeconds += static_cast<double>(usage.ru_stime.tv_sec) +
                               static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
        }
        char text[256];
        if (readSmallFile("/proc/self/statm", text, sizeof text) > 0) {
            unsigned long long sizePages = 0;
            unsigned long long residentPages = 0;
            if (std::sscanf(text, "%llu %llu", &sizePages, &residentPages) == 2)
                c.rssBytes = residentPages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        }
        return c;
    }

    MemoryCounters memory() override
    {
        MemoryCounters m;
        char text[8192];
        if (readSmallFile("/proc/meminfo", text, sizeof text) > 0) {
            m.dirtyBytes = meminfoKiB(text, "\nDirty:") * kKiB;
            m.writebackBytes = meminfoKiB(text, "\nWriteback:") * kKiB;
        }
        return m;
    }

    std::optional<MemoryCounters> writeBacklog() override
    {
        char text[8192];
        if (readSmallFile("/proc/meminfo", text, sizeof text) == 0 ||
            std::strstr(text, "\nDirty:") == nullptr || std::strstr(text, "\nWriteback:") == nullptr)
            return std::nullopt;
        return MemoryCounters{meminfoKiB(text, "\nDirty:") * kKiB, meminfoKiB(text, "\nWriteback:") * kKiB};
    }

    std::optional<DeviceCounters> device(const std::string& name) override
    {
        if (name.empty())
            return std::nullopt;
        static thread_local char text[65536];
        if (readSmallFile("/proc/diskstats", text, sizeof text) == 0)
            return std::nullopt;
        // Each line: major minor name reads merged sectorsRead msRead writes merged sectorsWritten ...
        for (char* line = text; line != nullptr && *line != '\0';) {
            char* next = std::strchr(line, '\n');
            if (next != nullptr)
                *next++ = '\0';
            unsigned major = 0;
            unsigned minor = 0;
            char device[64];
            unsigned long long reads = 0, readsMerged = 0, sectorsRead = 0, msRead = 0;
            unsigned long long writes = 0, writesMerged = 0, sectorsWritten = 0;
            if (std::sscanf(line, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu", &major, &minor, device,
                            &reads, &readsMerged, &sectorsRead, &msRead, &writes, &writesMerged,
                            &sectorsWritten) == 10 &&
                name == device) {
                return DeviceCounters{sectorsRead * 512, sectorsWritten * 512};
            }
            line = next;
        }
        return std::nullopt;
    }

    SystemFacts systemFacts(const TargetInfo& target) override { return gatherSystemFacts(target); }

    std::optional<ThermalReading> thermal(const std::string& device) override
    {
        return linux_thermal::read("", device);
    }

    HostInfo host() override
    {
        HostInfo h;
        char name[256] = {};
        if (::gethostname(name, sizeof name - 1) == 0)
            h.hostname = name;
        utsname uts{};
        if (::uname(&uts) == 0)
            h.kernel = std::string(uts.sysname) + " " + uts.release + " " + uts.machine;
        h.os = firstLineValue("/etc/os-release", "PRETTY_NAME");
        if (h.os.empty())
            h.os = "Linux";
        h.cpuModel = firstLineValue("/proc/cpuinfo", "model name");
        h.logicalCpus = std::thread::hardware_concurrency();
        char text[8192];
        if (readSmallFile("/proc/meminfo", text, sizeof text) > 0)
            h.ramBytes =
                std::strtoull(std::strstr(text, "MemTotal:") != nullptr ? std::strstr(text, "MemTotal:") + 9
                                                                        : "0",
                              nullptr, 10) *
                kKiB;
        return h;
    }
};

} // namespace

std::unique_ptr<SystemProbe> makeSystemProbe()
{
    return std::make_unique<LinuxSystemProbe>();
}

} // namespace iolab
