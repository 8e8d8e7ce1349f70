// SPDX-License-Identifier: MIT
#include "core/presets.h"

#include "core/units.h"

namespace iolab {

namespace {

MatrixGroup group(std::vector<std::string> strategies, std::vector<std::uint64_t> chunks,
                  std::vector<std::uint64_t> sizes)
{
    MatrixGroup g;
    g.strategies = std::move(strategies);
    g.chunks = std::move(chunks);
    g.sizes = std::move(sizes);
    return g;
}

std::vector<Matrix> makePresets()
{
    std::vector<Matrix> presets;

    {
        Matrix m{
            "quick", "One case of each strategy, 256 MiB each (pipes 1 GiB): a first look at a target.", {}};
        m.groups.push_back(group({"stdio", "stdio-unlocked"}, {4 * kKiB}, {256 * kMiB}));
        m.groups.push_back(group({"write"}, {64 * kKiB}, {256 * kMiB}));
        m.groups.push_back(group({"direct"}, {1 * kMiB}, {256 * kMiB}));
        m.groups.push_back(group({"mmap-window", "mmap-batch-direct"}, {4 * kKiB}, {256 * kMiB}));
        m.groups.push_back(group({"pipe-write", "vmsplice"}, {256 * kKiB}, {1 * kGiB}));
        presets.push_back(std::move(m));
    }
    {
        // 000: fwrite vs fwrite_unlocked, 512 MB written one byte at a time, setvbuf from none to 8 MB.
        Matrix m{"stdio-per-byte",
                 "fwrite vs fwrite_unlocked writing 512 MiB one byte at a time, stdio buffer none to 8 MiB "
                 "(article 000). Use --size to shorten it.",
                 {}};
        auto g = group({"stdio", "stdio-unlocked"}, {1}, {512 * kMiB});
        g.buffers = {{BufferMode::None, 0},          {BufferMode::Default, 0},
                     {BufferMode::Bytes, 1 * kKiB},  {BufferMode::Bytes, 4 * kKiB},
                     {BufferMode::Bytes, 64 * kKiB}, {BufferMode::Bytes, 256 * kKiB},
                     {BufferMode::Bytes, 1 * kMiB},  {BufferMode::Bytes, 8 * kMiB}};
        m.groups.push_back(std::move(g));
        presets.push_back(std::move(m));
    }
    {
        // 004: dd count=10000 bs=512 with no flag, oflag=direct, oflag=sync, oflag=dsync, conv=fsync,
        // conv=fdatasync.
        Matrix m{"sync-modes",
                 "512-byte writes, 10000 of them, as dd does: none, O_DIRECT, O_SYNC, O_DSYNC, fsync and "
                 "fdatasync at the end (article 004).",
                 {}};
        auto buffered = group({"write"}, {512}, {std::uint64_t{512} * 10000});
        buffered.syncs = {{SyncMode::None, 0},
                          {SyncMode::FsyncEnd, 0},
                          {SyncMode::FdatasyncEnd, 0},
                          {SyncMode::OSync, 0},
                          {SyncMode::ODsync, 0}};
        m.groups.push_back(std::move(buffered));
        m.groups.push_back(group({"direct"}, {512}, {std::uint64_t{512} * 10000}));
        presets.push_back(std::move(m));
    }
    {
        // 001: 4 KiB writes: buffered with several threads, O_DIRECT, mmap 16 KiB windows, mmap batch +
        // O_DIRECT.
        Matrix m{
            "bandwidth-4k",
            "4 KiB writes: buffered write(2) with 1, 2 and 4 threads, O_DIRECT, mmap windows and an mmap "
            "batch buffer flushed to an O_DIRECT file (article 001).",
            {}};
        auto buffered = group({"write"}, {4 * kKiB}, {512 * kMiB});
        buffered.threads = {1, 2, 4};
        m.groups.push_back(std::move(buffered));
        m.groups.push_back(group({"direct", "mmap-window", "mmap-batch-direct"}, {4 * kKiB}, {512 * kMiB}));
        presets.push_back(std::move(m));
    }
    {
        // 002: a fast `yes`: write(2) into a pipe vs vmsplice of the same pages.
        Matrix m{"pipe", "write(2) vs vmsplice(2) into a pipe drained by a reader thread (article 002).", {}};
        m.groups.push_back(group({"pipe-write", "vmsplice"}, {64 * kKiB, 256 * kKiB, 1 * kMiB}, {2 * kGiB}));
        presets.push_back(std::move(m));
    }
    return presets;
}

} // namespace

const std::vector<Matrix>& builtinPresets()
{
    static const std::vector<Matrix> presets = makePresets();
    return presets;
}

std::optional<Matrix> findPreset(std::string_view name)
{
    for (const auto& p : builtinPresets()) {
        if (p.name == name)
            return p;
    }
    return std::nullopt;
}

std::string presetNames()
{
    std::string names;
    for (const auto& p : builtinPresets()) {
        if (!names.empty())
            names += ", ";
        names += p.name;
    }
    return names;
}

} // namespace iolab
