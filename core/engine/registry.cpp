// SPDX-License-Identifier: MIT
#include "core/engine/registry.h"

#include <stdexcept>

namespace iolab {

void Registry::add(std::unique_ptr<Strategy> strategy)
{
    if (find(strategy->info().id) != nullptr)
        throw std::logic_error("strategy registered twice: " + strategy->info().id);
    m_strategies.push_back(std::move(strategy));
}

const Strategy* Registry::find(std::string_view id) const
{
    for (const auto& s : m_strategies) {
        if (s->info().id == id)
            return s.get();
    }
    return nullptr;
}

std::string Registry::knownIds() const
{
    std::string ids;
    for (const auto& s : m_strategies) {
        if (!ids.empty())
            ids += ", ";
        ids += s->info().id;
    }
    return ids;
}

} // namespace iolab
