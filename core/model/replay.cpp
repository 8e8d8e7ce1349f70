// SPDX-License-Identifier: MIT
#include "core/model/replay.h"

#include "core/base/error.h"
#include "core/base/units.h"

#include <fmt/format.h>

#include <iterator>

namespace iolab {

std::string toString(ReplayTiming timing)
{
    return timing == ReplayTiming::AsRecorded ? "as-recorded" : "back-to-back";
}

ReplayTiming parseReplayTiming(std::string_view text)
{
    if (text == "back-to-back")
        return ReplayTiming::BackToBack;
    if (text == "as-recorded")
        return ReplayTiming::AsRecorded;
    throw InputError(fmt::format("replay timing '{}': use back-to-back (the calls one after another, the "
                                 "default) or as-recorded (the program's pauses between calls kept)",
                                 text));
}

std::string ReplayVariant::name() const
{
    switch (kind) {
    case VariantKind::StdioBuffer:
        return "stdio-buffer-" + formatBytesCompact(bytes);
    case VariantKind::Coalesce:
        return "coalesce";
    case VariantKind::Fdatasync:
        return "fdatasync";
    case VariantKind::PreallocFdatasync:
        return "prealloc-fdatasync";
    case VariantKind::FlushAtSync:
        return "flush-at-sync";
    case VariantKind::SyncAtClose:
        return "sync-at-close";
    case VariantKind::SyncfsBatch:
        return "syncfs-batch";
    case VariantKind::GroupCommit:
        return "group-commit";
    case VariantKind::StdioUnlocked:
        return "stdio-unlocked";
    case VariantKind::WriterPool:
        return "writer-pool";
    case VariantKind::Gather:
        return "writev";
    case VariantKind::RewriteSegment:
        return "rewrite-segment";
    case VariantKind::DirectBatch:
        return "direct-batch";
    case VariantKind::MmapBatch:
        return "mmap-batch";
    case VariantKind::IoUring:
        return "io-uring";
    case VariantKind::Overlapped:
        return "overlapped";
    }
    return {};
}

ReplayVariant parseReplayVariant(std::string_view name)
{
    constexpr std::string_view kBuffer = "stdio-buffer-";
    if (name.substr(0, kBuffer.size()) == kBuffer) {
        const std::uint64_t bytes = parseBytes(name.substr(kBuffer.size()), "the stdio buffer");
        if (bytes == 0 || bytes > (std::uint64_t{1} << 30))
            throw InputError(fmt::format("'{}': a stdio buffer is 1 B to 1 GiB", name));
        return {VariantKind::StdioBuffer, bytes};
    }
    std::string known = "stdio-buffer-SIZE (e.g. stdio-buffer-1M)";
    for (VariantKind kind : kVariantKinds) {
        if (kind == VariantKind::StdioBuffer)
            continue;
        const ReplayVariant variant{kind, 0};
        if (variant.name() == name)
            return variant;
        known += (kind == kVariantKinds[std::size(kVariantKinds) - 1] ? " or " : ", ") + variant.name();
    }
    throw InputError(fmt::format("'{}' is not a replay variant: {}", name, known));
}

StrategyInfo replayStrategyInfo()
{
    StrategyInfo info;
    info.id = std::string(kReplayStrategy);
    info.description = "a recorded program's calls on files re-issued in the run folder (iolab-cli record)";
    info.direction = Direction::Write;
    info.targets = {TargetKind::Directory};
    info.syncModes = {SyncMode::None};
    info.syncRefusal = "a replay makes the program's own syncs, where the program made them";
    info.preallocations = {Preallocate::None};
    info.preallocateRefusal = "a replay's files are the program's, as it made them";
    info.threadsShareOneFile = true; // its threads run inside one job
    return info;
}

} // namespace iolab
