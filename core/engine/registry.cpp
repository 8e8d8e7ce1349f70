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

void Registry::addUnlisted(std::unique_ptr<Strategy> strategy)
{
    if (find(strategy->info().id) != nullptr)
        throw std::logic_error("strategy registered twice: " + strategy->info().id);
    m_unlisted.push_back(std::move(strategy));
}

const Strategy* Registry::find(std::string_view id) const
{
    for (const auto* list : {&m_strategies, &m_unlisted}) {
        for (const auto& s : *list) {
            if (s->info().id == id)
                return s.get();
        }
    }
    return nullptr;
}

const StrategyInfo* Registry::findInfo(std::string_view id) const
{
    const Strategy* s = find(id);
    return s == nullptr ? nullptr : &s->info();
}

std::vector<const StrategyInfo*> Registry::infos() const
{
    std::vector<const StrategyInfo*> out;
    out.reserve(m_strategies.size());
    for (const auto& s : m_strategies)
        out.push_back(&s->info());
    return out;
}

std::optional<std::string> Registry::refusal(std::string_view id, const Case& c,
                                             const TargetInfo& target) const
{
    const Strategy* s = find(id);
    return s == nullptr ? std::nullopt : s->refusal(c, target);
}

} // namespace iolab
