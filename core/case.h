// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace iolab {

enum class Direction
{
    Write
};

// Where the bytes go: files in the run folder, a pipe drained by a reader thread, or the null device.
enum class TargetKind
{
    Directory,
    Pipe,
    Null
};

enum class SyncMode
{
    None,
    FsyncEnd,
    FdatasyncEnd,
    FsyncEvery,
    OSync,
    ODsync
};

struct SyncPolicy
{
    SyncMode mode = SyncMode::None;
    std::uint32_t everyWrites = 0; // only for FsyncEvery

    friend bool operator==(const SyncPolicy&, const SyncPolicy&) = default;
};

// The stdio buffer axis. NotApplicable is what non-stdio strategies carry; a stdio case never holds it.
enum class BufferMode
{
    NotApplicable,
    None,
    Default,
    Bytes
};

struct StdioBuffer
{
    BufferMode mode = BufferMode::NotApplicable;
    std::uint64_t bytes = 0; // only for Bytes

    friend bool operator==(const StdioBuffer&, const StdioBuffer&) = default;
};

struct Case
{
    std::string strategy;
    Direction direction = Direction::Write;
    std::uint64_t chunkBytes = 0;
    std::uint64_t totalBytes = 0; // the whole case; threads split it, one file each
    StdioBuffer buffer;
    SyncPolicy sync;
    std::uint32_t threads = 1;
    TargetKind target = TargetKind::Directory;

    // Bytes the given thread writes: an even share, the remainder going to the last thread.
    std::uint64_t bytesForThread(std::uint32_t thread) const noexcept;

    // One line naming every axis, e.g. "stdio chunk=1 buf=64K sync=none threads=1 size=512M".
    std::string label() const;

    friend bool operator==(const Case&, const Case&) = default;
};

std::string toString(Direction direction);
std::string toString(TargetKind kind);
std::string toString(SyncPolicy policy);
std::string toString(StdioBuffer buffer);

// Parsers throw InputError with the accepted spellings.
Direction parseDirection(std::string_view text);
TargetKind parseTargetKind(std::string_view text);
SyncPolicy parseSyncPolicy(std::string_view text);
StdioBuffer parseStdioBuffer(std::string_view text);

} // namespace iolab
