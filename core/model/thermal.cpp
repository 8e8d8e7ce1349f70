// SPDX-License-Identifier: MIT
#include "core/model/thermal.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace iolab {

namespace {

std::uint32_t le32(std::span<const std::uint8_t> bytes, std::size_t at)
{
    return static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
           static_cast<std::uint32_t>(bytes[at + 2]) << 16 | static_cast<std::uint32_t>(bytes[at + 3]) << 24;
}

std::uint16_t le16(std::span<const std::uint8_t> bytes, std::size_t at)
{
    return static_cast<std::uint16_t>(bytes[at] | bytes[at + 1] << 8);
}

std::optional<double> millidegrees(const std::string& text)
{
    std::size_t from = 0;
    while (from < text.size() && text[from] == ' ')
        ++from;
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data() + from, text.data() + text.size(), value);
    if (error != std::errc() || end == text.data() + from)
        return std::nullopt;
    return static_cast<double>(value) / 1000.0;
}

template <class T> void fill(std::optional<T>& into, const std::optional<T>& more)
{
    if (!into && more)
        into = more;
}

std::uint32_t increase(const std::optional<std::uint32_t>& from, const std::optional<std::uint32_t>& to)
{
    return from && to && *to > *from ? *to - *from : 0;
}

} // namespace

bool ThermalReading::any() const
{
    return celsius || hasCounters();
}

bool ThermalReading::hasCounters() const
{
    return warningMinutes || criticalMinutes || lightThrottleTransitions || heavyThrottleTransitions ||
           lightThrottleSeconds || heavyThrottleSeconds;
}

void mergeThermal(ThermalReading& into, const ThermalReading& more)
{
    fill(into.celsius, more.celsius);
    fill(into.warningCelsius, more.warningCelsius);
    fill(into.criticalCelsius, more.criticalCelsius);
    fill(into.warningMinutes, more.warningMinutes);
    fill(into.criticalMinutes, more.criticalMinutes);
    fill(into.lightThrottleTransitions, more.lightThrottleTransitions);
    fill(into.heavyThrottleTransitions, more.heavyThrottleTransitions);
    fill(into.lightThrottleSeconds, more.lightThrottleSeconds);
    fill(into.heavyThrottleSeconds, more.heavyThrottleSeconds);
    if (!more.source.empty())
        into.source = into.source.empty() ? more.source : into.source + ", " + more.source;
}

ThermalChange thermalChange(const ThermalReading& before, const ThermalReading& after)
{
    ThermalChange c;
    c.celsiusFrom = before.celsius;
    c.celsiusTo = after.celsius;
    c.countersKnown = before.hasCounters() && after.hasCounters();
    c.warningMinutes = increase(before.warningMinutes, after.warningMinutes);
    c.criticalMinutes = increase(before.criticalMinutes, after.criticalMinutes);
    c.throttleTransitions = increase(before.lightThrottleTransitions, after.lightThrottleTransitions) +
                            increase(before.heavyThrottleTransitions, after.heavyThrottleTransitions);
    c.throttleSeconds = increase(before.lightThrottleSeconds, after.lightThrottleSeconds) +
                        increase(before.heavyThrottleSeconds, after.heavyThrottleSeconds);
    return c;
}

std::string temperatureText(const std::optional<ThermalReading>& before,
                            const std::optional<ThermalReading>& after)
{
    const auto from = before ? before->celsius : std::nullopt;
    const auto to = after ? after->celsius : std::nullopt;
    if (from && to)
        return std::lround(*from) == std::lround(*to) ? fmt::format("{:.0f} °C", *to)
                                                      : fmt::format("{:.0f} → {:.0f} °C", *from, *to);
    if (from || to)
        return fmt::format("{:.0f} °C", from ? *from : *to);
    return {};
}

std::optional<ThermalReading> parseNvmeSmartLog(std::span<const std::uint8_t> page)
{
    constexpr std::size_t kNeeded = 232;
    if (page.size() < kNeeded)
        return std::nullopt;
    const std::uint16_t kelvin = le16(page, 1);
    if (kelvin == 0)
        return std::nullopt;
    ThermalReading r;
    r.celsius = static_cast<double>(kelvin) - 273.15;
    r.warningMinutes = le32(page, 192);
    r.criticalMinutes = le32(page, 196);
    r.lightThrottleTransitions = le32(page, 216);
    r.heavyThrottleTransitions = le32(page, 220);
    r.lightThrottleSeconds = le32(page, 224);
    r.heavyThrottleSeconds = le32(page, 228);
    r.source = "NVMe SMART/health log";
    return r;
}

std::optional<ThermalReading> hwmonReading(const std::string& input, const std::string& max,
                                           const std::string& crit, std::string source)
{
    const auto celsius = millidegrees(input);
    if (!celsius)
        return std::nullopt;
    ThermalReading r;
    r.celsius = celsius;
    r.warningCelsius = millidegrees(max);
    r.criticalCelsius = millidegrees(crit);
    r.source = std::move(source);
    return r;
}

std::optional<ThermalReading> parseStorageTemperature(std::span<const std::uint8_t> descriptor)
{
    constexpr std::size_t kHeader = 24; // Reserved1[2] (ULONG) ends the header at 24
    constexpr std::size_t kInfo = 16;
    if (descriptor.size() < kHeader + kInfo)
        return std::nullopt;
    const auto count = le16(descriptor, 12);
    if (count == 0)
        return std::nullopt;
    const auto signedShort = [&](std::size_t at) {
        return static_cast<double>(static_cast<std::int16_t>(le16(descriptor, at)));
    };
    ThermalReading r;
    r.criticalCelsius = signedShort(8);
    r.warningCelsius = signedShort(10);
    if (*r.criticalCelsius == 0)
        r.criticalCelsius.reset();
    if (*r.warningCelsius == 0)
        r.warningCelsius.reset();
    r.celsius = signedShort(kHeader + 2);
    r.source = "StorageDeviceTemperatureProperty";
    return r;
}

} // namespace iolab
