// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// The strategies a front end offers, registered explicitly (platform's registerBuiltinStrategies), in order.
class Registry
{
public:
    void add(std::unique_ptr<Strategy> strategy);
    const Strategy* find(std::string_view id) const;
    const std::vector<std::unique_ptr<Strategy>>& all() const { return m_strategies; }
    std::string knownIds() const; // "stdio, stdio-unlocked, ..."

private:
    std::vector<std::unique_ptr<Strategy>> m_strategies;
};

} // namespace iolab
