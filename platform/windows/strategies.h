// SPDX-License-Identifier: MIT
#pragma once

#include "core/strategy.h"
#include "core/units.h"

#include <memory>
#include <vector>

namespace iolab::windows_backend {

// The window of mmap-window and the batch buffer of mmap-batch-direct, as on Linux (article 001: 4 KiB x 4).
inline constexpr std::uint64_t kMmapWindowBytes = 16 * kKiB;

// The sync policies with a Windows meaning (see win::syncUnavailable for the others).
inline const std::vector<SyncMode> kWindowsSyncModes{SyncMode::None, SyncMode::FsyncEnd, SyncMode::FsyncEvery,
                                                     SyncMode::ODsync};
inline constexpr const char* kWindowsSyncRefusal =
    "Windows has no fdatasync (FlushFileBuffers, fsync-end here, always writes metadata too) and no O_SYNC "
    "apart from FILE_FLAG_WRITE_THROUGH, which is o_dsync here";

std::unique_ptr<Strategy> makeStdioStrategy();
std::unique_ptr<Strategy> makeStdioUnlockedStrategy();
std::unique_ptr<Strategy> makeWriteStrategy();
std::unique_ptr<Strategy> makeDirectStrategy();
std::unique_ptr<Strategy> makeMmapWindowStrategy();
std::unique_ptr<Strategy> makeMmapBatchDirectStrategy();
std::unique_ptr<Strategy> makePipeWriteStrategy();
std::unique_ptr<Strategy> makeVmspliceStrategy();

} // namespace iolab::windows_backend
