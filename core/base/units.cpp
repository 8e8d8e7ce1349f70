// SPDX-License-Identifier: MIT
#include "core/base/units.h"

#include "core/base/error.h"

#include <fmt/format.h>

#include <algorithm>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace iolab {

namespace {

struct Suffix
{
    std::string_view text;
    std::uint64_t multiplier;
};

constexpr std::array kSuffixes{
    Suffix{"", 1},       Suffix{"b", 1},     Suffix{"k", kKiB},   Suffix{"kb", kKiB},  Suffix{"kib", kKiB},
    Suffix{"m", kMiB},   Suffix{"mb", kMiB}, Suffix{"mib", kMiB}, Suffix{"g", kGiB},   Suffix{"gb", kGiB},
    Suffix{"gib", kGiB}, Suffix{"t", kTiB},  Suffix{"tb", kTiB},  Suffix{"tib", kTiB},
};

} // namespace

std::uint64_t parseBytes(std::string_view text, std::string_view what)
{
    auto trimmed = text;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front())))
        trimmed.remove_prefix(1);
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back())))
        trimmed.remove_suffix(1);
    if (trimmed.empty())
        throw InputError(fmt::format("{}: empty size", what));
    if (trimmed.front() == '-')
        throw InputError(fmt::format("{}: '{}' is negative; sizes must be positive", what, text));

    std::uint64_t number = 0;
    const auto* begin = trimmed.data();
    const auto* end = begin + trimmed.size();
    const auto [ptr, ec] = std::from_chars(begin, end, number);
    if (ec == std::errc::result_out_of_range)
        throw InputError(fmt::format("{}: '{}' is too large", what, text));
    if (ec != std::errc() || ptr == begin)
        throw InputError(
            fmt::format("{}: '{}' is not a size (examples: 512, 4K, 64KiB, 1M, 2G)", what, text));

    std::string suffix;
    for (const auto* p = ptr; p != end; ++p) {
        if (!std::isspace(static_cast<unsigned char>(*p)))
            suffix.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(*p))));
    }
    for (const auto& s : kSuffixes) {
        if (s.text == suffix) {
            if (number > std::numeric_limits<std::uint64_t>::max() / s.multiplier)
                throw InputError(fmt::format("{}: '{}' is too large", what, text));
            return number * s.multiplier;
        }
    }
    throw InputError(
        fmt::format("{}: '{}' has an unknown unit '{}' (use B, K, M, G or T)", what, text, suffix));
}

std::string formatBytes(std::uint64_t bytes)
{
    constexpr std::array<std::pair<std::uint64_t, std::string_view>, 4> units{
        {{kTiB, "TiB"}, {kGiB, "GiB"}, {kMiB, "MiB"}, {kKiB, "KiB"}}};
    for (const auto& [size, name] : units) {
        if (bytes >= size) {
            if (bytes % size == 0)
                return fmt::format("{} {}", bytes / size, name);
            return fmt::format("{:.1f} {}", static_cast<double>(bytes) / static_cast<double>(size), name);
        }
    }
    return fmt::format("{} B", bytes);
}

std::string formatBytesCompact(std::uint64_t bytes)
{
    constexpr std::array<std::pair<std::uint64_t, char>, 4> units{
        {{kTiB, 'T'}, {kGiB, 'G'}, {kMiB, 'M'}, {kKiB, 'K'}}};
    for (const auto& [size, name] : units) {
        if (bytes >= size && bytes % size == 0)
            return fmt::format("{}{}", bytes / size, name);
    }
    return fmt::format("{}", bytes);
}

double toMBps(std::uint64_t bytes, double seconds)
{
    if (seconds <= 0.0)
        return 0.0;
    return static_cast<double>(bytes) / seconds / kBytesPerMB;
}

std::string formatRate(double bytesPerSecond)
{
    if (!std::isfinite(bytesPerSecond) || bytesPerSecond < 0)
        return "-";
    if (bytesPerSecond >= 1e9)
        return fmt::format("{:.2f} GB/s", bytesPerSecond / 1e9);
    if (bytesPerSecond >= 1e6)
        return fmt::format("{:.1f} MB/s", bytesPerSecond / 1e6);
    return fmt::format("{:.1f} kB/s", bytesPerSecond / 1e3);
}

std::string formatMBps(double mbps)
{
    return formatRate(mbps * kBytesPerMB);
}

std::string formatDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return "-";
    if (seconds < 1.0)
        return fmt::format("{:.0f} ms", seconds * 1e3);
    if (seconds < 60.0)
        return fmt::format("{:.1f} s", seconds);
    const auto whole = static_cast<long long>(std::llround(seconds));
    if (whole < 3600)
        return fmt::format("{} min {:02} s", whole / 60, whole % 60);
    return fmt::format("{} h {:02} min", whole / 3600, (whole / 60) % 60);
}

std::uint64_t parseTimeLimitMs(std::string_view text, std::string_view what)
{
    std::string t;
    for (const char ch : text) {
        if (!std::isspace(static_cast<unsigned char>(ch)))
            t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    }
    const auto unitAt = t.find_first_not_of("0123456789.");
    const std::string number = t.substr(0, unitAt);
    const std::string unit = unitAt == std::string::npos ? std::string() : t.substr(unitAt);
    double perUnitMs = 0;
    if (unit == "ms")
        perUnitMs = 1;
    else if (unit == "s")
        perUnitMs = 1e3;
    else if (unit == "m" || unit == "min")
        perUnitMs = 60e3;
    const bool isNumber = !number.empty() && number.find_first_not_of("0123456789.") == std::string::npos &&
                          std::count(number.begin(), number.end(), '.') <= 1 && number != ".";
    if (!isNumber || perUnitMs == 0)
        throw InputError(
            fmt::format("{}: '{}' is not a time limit (examples: 300ms, 5s, 1.5s, 2m)", what, text));
    double value = 0; // from_chars: the C locale's '.', whatever the process's locale (Qt sets the user's)
    std::from_chars(number.data(), number.data() + number.size(), value);
    const double ms = value * perUnitMs;
    if (ms < 1 || ms > static_cast<double>(kMaxTimeLimitMs))
        throw InputError(fmt::format("{}: '{}' is outside the allowed range 1ms to 24h", what, text));
    if (std::abs(ms - std::round(ms)) > 1e-6)
        throw InputError(fmt::format("{}: '{}' is not a whole number of milliseconds", what, text));
    return static_cast<std::uint64_t>(std::llround(ms));
}

std::string formatTimeLimitMs(std::uint64_t ms)
{
    if (ms != 0 && ms % 60'000 == 0)
        return fmt::format("{}m", ms / 60'000);
    if (ms != 0 && ms % 1000 == 0)
        return fmt::format("{}s", ms / 1000);
    return fmt::format("{}ms", ms);
}

std::string formatBytesShort(std::uint64_t bytes)
{
    std::string compact = formatBytesCompact(bytes);
    if (compact.size() <= 6)
        return compact;
    std::string text = formatBytes(bytes); // "38.1 MiB"
    text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
    if (text.ends_with("iB"))
        text.resize(text.size() - 2);
    return text;
}

std::string formatLatency(double seconds)
{
    const auto threeFigures = [](double v) {
        if (v < 10.0)
            return fmt::format("{:.2f}", v);
        if (v < 100.0)
            return fmt::format("{:.1f}", v);
        return fmt::format("{:.0f}", v);
    };
    if (seconds < 1e-6)
        return fmt::format("{:.0f} ns", seconds * 1e9);
    if (seconds < 1e-3)
        return threeFigures(seconds * 1e6) + " us";
    if (seconds < 1.0)
        return threeFigures(seconds * 1e3) + " ms";
    return formatDuration(seconds);
}

std::string formatThousands(double count)
{
    const std::string digits = fmt::format("{:.0f}", count);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i != 0 && digits[i - 1] != '-' && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace iolab
