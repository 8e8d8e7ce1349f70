// SPDX-License-Identifier: MIT
#include "core/case.h"

#include "core/error.h"
#include "core/units.h"

#include <fmt/format.h>

#include <charconv>

namespace iolab {

std::uint64_t Case::bytesForThread(std::uint32_t thread) const noexcept
{
    const std::uint64_t share = totalBytes / threads;
    if (thread + 1 == threads)
        return totalBytes - share * (threads - 1);
    return share;
}

std::string Case::label() const
{
    std::string text = fmt::format("{} chunk={}", strategy, formatBytesCompact(chunkBytes));
    if (buffer.mode != BufferMode::NotApplicable)
        text += fmt::format(" buf={}", toString(buffer));
    text +=
        fmt::format(" sync={} threads={} size={}", toString(sync), threads, formatBytesCompact(totalBytes));
    if (target != TargetKind::Directory)
        text += fmt::format(" target={}", toString(target));
    return text;
}

std::string toString(Direction direction)
{
    switch (direction) {
    case Direction::Write:
        return "write";
    }
    return "?";
}

std::string toString(TargetKind kind)
{
    switch (kind) {
    case TargetKind::Directory:
        return "directory";
    case TargetKind::Pipe:
        return "pipe";
    case TargetKind::Null:
        return "null";
    }
    return "?";
}

std::string toString(SyncPolicy policy)
{
    switch (policy.mode) {
    case SyncMode::None:
        return "none";
    case SyncMode::FsyncEnd:
        return "fsync-end";
    case SyncMode::FdatasyncEnd:
        return "fdatasync-end";
    case SyncMode::FsyncEvery:
        return fmt::format("fsync-every:{}", policy.everyWrites);
    case SyncMode::OSync:
        return "O_SYNC";
    case SyncMode::ODsync:
        return "O_DSYNC";
    }
    return "?";
}

std::string toString(StdioBuffer buffer)
{
    switch (buffer.mode) {
    case BufferMode::NotApplicable:
        return "n/a";
    case BufferMode::None:
        return "none";
    case BufferMode::Default:
        return "default";
    case BufferMode::Bytes:
        return formatBytesCompact(buffer.bytes);
    }
    return "?";
}

Direction parseDirection(std::string_view text)
{
    if (text == "write")
        return Direction::Write;
    throw InputError(fmt::format("unknown direction '{}' (this version measures: write)", text));
}

TargetKind parseTargetKind(std::string_view text)
{
    if (text == "directory" || text == "dir")
        return TargetKind::Directory;
    if (text == "pipe")
        return TargetKind::Pipe;
    if (text == "null")
        return TargetKind::Null;
    throw InputError(fmt::format("unknown target kind '{}' (use directory, pipe or null)", text));
}

SyncPolicy parseSyncPolicy(std::string_view text)
{
    if (text == "none")
        return {};
    if (text == "fsync-end")
        return {SyncMode::FsyncEnd, 0};
    if (text == "fdatasync-end")
        return {SyncMode::FdatasyncEnd, 0};
    if (text == "O_SYNC" || text == "osync" || text == "o_sync")
        return {SyncMode::OSync, 0};
    if (text == "O_DSYNC" || text == "odsync" || text == "o_dsync")
        return {SyncMode::ODsync, 0};
    constexpr std::string_view every = "fsync-every:";
    if (text.starts_with(every)) {
        const auto digits = text.substr(every.size());
        std::uint32_t n = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec == std::errc() && ptr == digits.data() + digits.size() && n > 0)
            return {SyncMode::FsyncEvery, n};
        throw InputError(fmt::format(
            "sync policy '{}': N in fsync-every:N must be a whole number from 1 to {}", text, UINT32_MAX));
    }
    throw InputError(fmt::format(
        "unknown sync policy '{}' (use none, fsync-end, fdatasync-end, fsync-every:N, O_SYNC or O_DSYNC)",
        text));
}

StdioBuffer parseStdioBuffer(std::string_view text)
{
    if (text == "none")
        return {BufferMode::None, 0};
    if (text == "default")
        return {BufferMode::Default, 0};
    const auto bytes = parseBytes(text, "stdio buffer");
    if (bytes == 0)
        throw InputError("stdio buffer: a size of 0 is not a buffer; use 'none' for unbuffered");
    return {BufferMode::Bytes, bytes};
}

} // namespace iolab
