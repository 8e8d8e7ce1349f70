// SPDX-License-Identifier: MIT
#pragma once

#include "core/strategy.h"

#include <vector>

namespace iolab::posix {

inline const std::vector<SyncMode> kEverySyncMode{SyncMode::None,         SyncMode::FsyncEnd,
                                                  SyncMode::FdatasyncEnd, SyncMode::FsyncEvery,
                                                  SyncMode::OSync,        SyncMode::ODsync};

// Holds the declaration every strategy makes; subclasses add prepare() and, where needed, refusal().
class BasicStrategy : public Strategy
{
public:
    explicit BasicStrategy(StrategyInfo info) : m_info(std::move(info)) {}
    const StrategyInfo& info() const override { return m_info; }

private:
    StrategyInfo m_info;
};

} // namespace iolab::posix
