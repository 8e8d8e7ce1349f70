// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace iolab {

// What the target's drive says of its heat at one moment, read before and after every case (issue 39, part
// 4): its temperature and, where the drive keeps them (an NVMe SMART/health log), the counters that rise
// while it is hot or slowing itself down to cool. Every figure is optional: a drive or an OS that does not
// give it leaves it unknown, never guessed. `source` says where the figures were read.
struct ThermalReading
{
    std::optional<double> celsius;         // the drive's (composite) temperature
    std::optional<double> warningCelsius;  // its warning threshold, where it says
    std::optional<double> criticalCelsius; // its critical threshold
    // The NVMe SMART/health log (log page 02h): minutes spent above the warning and the critical composite
    // temperature, and the host-controlled thermal management's transitions into its light (TMT1) and heavy
    // (TMT2) throttling and the seconds spent there.
    std::optional<std::uint32_t> warningMinutes;
    std::optional<std::uint32_t> criticalMinutes;
    std::optional<std::uint32_t> lightThrottleTransitions;
    std::optional<std::uint32_t> heavyThrottleTransitions;
    std::optional<std::uint32_t> lightThrottleSeconds;
    std::optional<std::uint32_t> heavyThrottleSeconds;
    std::string
        source; // "hwmon nvme (Composite)", "NVMe SMART/health log", "StorageDeviceTemperatureProperty"

    bool any() const;
    // Whether the drive keeps throttling counters (the SMART/health log was read).
    bool hasCounters() const;
    friend bool operator==(const ThermalReading&, const ThermalReading&) = default;
};

// Adds what `more` knows and `into` does not (a temperature from hwmon, the counters from the health log),
// joining their sources.
void mergeThermal(ThermalReading& into, const ThermalReading& more);

// How much hotter the drive ran between two readings: the counters' increases, each only where both readings
// have it. `rose` when any counter rose.
struct ThermalChange
{
    std::optional<double> celsiusFrom;
    std::optional<double> celsiusTo;
    std::uint32_t warningMinutes = 0;
    std::uint32_t criticalMinutes = 0;
    std::uint32_t throttleTransitions = 0; // light and heavy together
    std::uint32_t throttleSeconds = 0;
    bool countersKnown = false; // both readings held the health log
    bool rose() const { return warningMinutes + criticalMinutes + throttleTransitions + throttleSeconds > 0; }
};
ThermalChange thermalChange(const ThermalReading& before, const ThermalReading& after);

// "41 °C", "41 → 47 °C"; "" when neither reading has a temperature.
std::string temperatureText(const std::optional<ThermalReading>& before,
                            const std::optional<ThermalReading>& after);

// The NVMe SMART/health information log page (NVM Express base specification, log identifier 02h): 512
// bytes, little-endian. Reads the composite temperature (bytes 1-2, kelvin), the warning and critical
// composite temperature times (bytes 192-199, minutes), the thermal management temperature transition counts
// (bytes 216-223) and total times (bytes 224-231, seconds). nullopt for a page shorter than 232 bytes or
// whose temperature is 0 (the drive reports none).
std::optional<ThermalReading> parseNvmeSmartLog(std::span<const std::uint8_t> page);

// A hwmon sensor as Linux's sysfs gives it: temp*_input, temp*_max and temp*_crit in millidegrees Celsius
// ("45850\n"); empty text for a file that is not there. nullopt when the input does not read as a number.
std::optional<ThermalReading> hwmonReading(const std::string& input, const std::string& max,
                                           const std::string& crit, std::string source);

// Windows's STORAGE_TEMPERATURE_DATA_DESCRIPTOR (IOCTL_STORAGE_QUERY_PROPERTY,
// StorageDeviceTemperatureProperty) as the bytes the call returned: version, size, critical and warning
// temperature (SHORT, degrees Celsius), the count of STORAGE_TEMPERATURE_INFO entries (USHORT at byte 12)
// that follow at byte 24, each 16 bytes with its temperature (SHORT) at byte 2. The drive's temperature is
// entry 0's (index 0: the device itself). nullopt for a short or empty descriptor.
std::optional<ThermalReading> parseStorageTemperature(std::span<const std::uint8_t> descriptor);

} // namespace iolab
