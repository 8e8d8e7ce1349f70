// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/thermal.h"

#include <filesystem>
#include <optional>
#include <string>

namespace iolab::linux_thermal {

// The hwmon temperature sensor of a disk, `disk` being its /sys/block/<name> folder (under a recorded tree's
// root in the tests): an NVMe controller's (<disk>/device/hwmon*, or its PCI device's hwmon/hwmon* on older
// kernels; named "nvme", the sensor labelled Composite or else the first), or a SATA disk's under the
// drivetemp driver (<disk>/device/hwmon/hwmon*).
// Readable without root. nullopt when the disk has none.
std::optional<ThermalReading> hwmon(const std::filesystem::path& disk);

// The NVMe SMART/health log (log page 02h) of the controller of namespace `diskName` ("nvme0n1" ->
// /dev/nvme0), read with the admin command Get Log Page. Linux lets only a user who may open the controller
// and send admin commands (root, as a rule) read it: nullopt with `why` set otherwise, or for a disk that is
// not NVMe.
std::optional<ThermalReading> nvmeHealthLog(const std::string& diskName, std::string& why);

// What the target's device `device` (as TargetInfo::device names it: a disk or a partition) says of its heat:
// hwmon, then the health log's counters where they can be read, merged. `root` is "" for this machine.
std::optional<ThermalReading> read(const std::string& root, const std::string& device);

} // namespace iolab::linux_thermal
