// SPDX-License-Identifier: MIT
#pragma once

#include "platform/basic_strategy.h"

#include <vector>

namespace iolab::posix {

// Every sync policy has a POSIX meaning: fsync, fdatasync, O_SYNC, O_DSYNC.
inline const std::vector<SyncMode> kEverySyncMode{
    SyncMode::None,           SyncMode::FsyncEnd, SyncMode::FdatasyncEnd, SyncMode::FsyncEvery,
    SyncMode::FdatasyncEvery, SyncMode::OSync,    SyncMode::ODsync};

} // namespace iolab::posix
