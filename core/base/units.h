// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace iolab {

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;
inline constexpr std::uint64_t kGiB = 1024 * kMiB;
inline constexpr std::uint64_t kTiB = 1024 * kGiB;
inline constexpr double kBytesPerMB = 1e6; // MB/s is decimal, as dd, fio's MB/s and CrystalDiskMark print it

// Parses "512", "4K", "4KiB", "64k", "1M", "2G", "1T" (binary multiples). Throws InputError naming `what`.
std::uint64_t parseBytes(std::string_view text, std::string_view what);

// "512 B", "4 KiB", "1.5 MiB": exact binary units where the value divides evenly.
std::string formatBytes(std::uint64_t bytes);

// Compact form for identifiers and tables: "512", "4K", "1M", "1536" (falls back to plain bytes).
std::string formatBytesCompact(std::uint64_t bytes);

// For narrow columns: "64M" where the size is round, "38.1M" otherwise (a file set's sum).
std::string formatBytesShort(std::uint64_t bytes);

double toMBps(std::uint64_t bytes, double seconds);

// "1.23 GB/s", "456 MB/s", "12.3 kB/s" from bytes per second.
std::string formatRate(double bytesPerSecond);
// The same from decimal MB/s, the unit results keep their rates in.
std::string formatMBps(double mbps);

// "850 ms", "12.4 s", "3 min 05 s".
std::string formatDuration(double seconds);

// A case's time limit in whole milliseconds, from "300ms", "5s", "1.5s" or "2m" (minutes); 1 ms to 24 h.
// Throws InputError naming `what`. kMaxTimeLimitMs is the largest.
inline constexpr std::uint64_t kMaxTimeLimitMs = std::uint64_t{24} * 3600 * 1000;
std::uint64_t parseTimeLimitMs(std::string_view text, std::string_view what);
// Its canonical spelling, which parseTimeLimitMs reads back: "300ms", "5s", "2m", "1500ms".
std::string formatTimeLimitMs(std::uint64_t ms);

// A count rounded to a whole number with thousands apart: "38,000" (IOPS in sentences).
std::string formatThousands(double count);

// Short latencies to three figures: "850 ns", "85.2 us", "1.25 ms", "12.4 s" (us: microseconds, ASCII for
// every font).
std::string formatLatency(double seconds);

} // namespace iolab
