// SPDX-License-Identifier: MIT
#include "platform/linux/thermal_linux.h"

#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>

namespace iolab::linux_thermal {

namespace fs = std::filesystem;

namespace {

std::string firstLine(const fs::path& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// The sensor of one hwmon folder: temp1 unless another is labelled Composite (NVMe's own temperature).
std::optional<ThermalReading> sensor(const fs::path& folder)
{
    std::string chosen = "temp1";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with("temp") && name.ends_with("_label") && firstLine(entry.path()) == "Composite")
            chosen = name.substr(0, name.size() - 6);
    }
    const std::string driver = firstLine(folder / "name");
    const std::string label = firstLine(folder / (chosen + "_label"));
    return hwmonReading(firstLine(folder / (chosen + "_input")), firstLine(folder / (chosen + "_max")),
                        firstLine(folder / (chosen + "_crit")),
                        "hwmon " + (driver.empty() ? folder.filename().string() : driver) +
                            (label.empty() ? std::string() : " (" + label + ")"));
}

} // namespace

std::optional<ThermalReading> hwmon(const fs::path& disk)
{
    std::error_code ec;
    // NVMe: the controller's (kernels since 5.10), or its PCI device's (5.5 to 5.9); SATA's drivetemp: the
    // SCSI device's hwmon folder.
    for (const fs::path& parent :
         {disk / "device", disk / "device" / "device" / "hwmon", disk / "device" / "hwmon"}) {
        for (const auto& entry : fs::directory_iterator(parent, ec)) {
            if (!entry.path().filename().string().starts_with("hwmon") || entry.path().filename() == "hwmon")
                continue;
            if (auto reading = sensor(entry.path()))
                return reading;
        }
    }
    return std::nullopt;
}

std::optional<ThermalReading> nvmeHealthLog(const std::string& diskName, std::string& why)
{
    static const std::regex kNamespace(R"(^(nvme\d+)n\d+$)");
    std::smatch match;
    if (!std::regex_match(diskName, match, kNamespace)) {
        why = "not an NVMe drive: no SMART/health log page";
        return std::nullopt;
    }
    const std::string controller = "/dev/" + match[1].str();
    const int fd = ::open(controller.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        why = controller + ": " + std::strerror(errno) + " (reading the health log needs root)";
        return std::nullopt;
    }
    std::array<std::uint8_t, 512> page{};
    nvme_admin_cmd cmd{};
    cmd.opcode = 0x02; // Get Log Page
    cmd.nsid = 0xffffffff;
    cmd.addr = reinterpret_cast<std::uintptr_t>(page.data());
    cmd.data_len = static_cast<std::uint32_t>(page.size());
    cmd.cdw10 = (static_cast<std::uint32_t>(page.size() / 4 - 1) << 16) | 0x02; // NUMDL, log 02h
    const int status = ::ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
    const int error = errno;
    ::close(fd);
    if (status != 0) {
        why = controller + ": Get Log Page failed: " +
              (status < 0 ? std::string(std::strerror(error)) : "NVMe status " + std::to_string(status)) +
              (status < 0 && (error == EACCES || error == EPERM) ? " (it needs root)" : "");
        return std::nullopt;
    }
    auto reading = parseNvmeSmartLog(page);
    if (!reading)
        why = controller + ": the health log gives no temperature";
    return reading;
}

std::optional<ThermalReading> read(const std::string& root, const std::string& device)
{
    if (device.empty())
        return std::nullopt;
    // A partition's heat is its disk's.
    fs::path block = fs::path(root + "/sys/class/block") / device;
    std::string disk = device;
    std::error_code ec;
    if (fs::exists(block / "partition", ec)) {
        const fs::path resolved = fs::canonical(block, ec);
        if (!ec)
            disk = resolved.parent_path().filename().string();
    }
    std::optional<ThermalReading> out = hwmon(fs::path(root + "/sys/block") / disk);
    if (!root.empty())
        return out; // a recorded tree has no controller to ask
    std::string why;
    if (auto log = nvmeHealthLog(disk, why)) {
        if (!out)
            out = ThermalReading{};
        mergeThermal(*out, *log);
    }
    return out;
}

} // namespace iolab::linux_thermal
