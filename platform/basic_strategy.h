// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"

#include <utility>

namespace iolab {

// Holds the declaration every strategy makes; subclasses add prepare() and, where needed, refusal().
class BasicStrategy : public Strategy
{
public:
    explicit BasicStrategy(StrategyInfo info) : m_info(std::move(info)) {}
    const StrategyInfo& info() const override { return m_info; }

private:
    StrategyInfo m_info;
};

} // namespace iolab
