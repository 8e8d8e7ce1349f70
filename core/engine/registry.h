// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"
#include "core/model/strategy_info.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// The strategies a front end offers, registered explicitly (platform's registerBuiltinStrategies), in order.
// The model reads their declarations through StrategyCatalog; the runner prepares their jobs.
class Registry final : public StrategyCatalog
{
public:
    Registry() = default;
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;
    Registry(Registry&&) = default;
    Registry& operator=(Registry&&) = default;
    ~Registry() override = default;

    void add(std::unique_ptr<Strategy> strategy);
    // A strategy that runs what the user hands it rather than a loop of IOLab's (replay: a recorded
    // program's calls): found by its id like any other, but not among all() and infos(), which the lists,
    // the matrix editor and the exports go through.
    void addUnlisted(std::unique_ptr<Strategy> strategy);
    const Strategy* find(std::string_view id) const;
    const std::vector<std::unique_ptr<Strategy>>& all() const { return m_strategies; }

    const StrategyInfo* findInfo(std::string_view id) const override;
    std::vector<const StrategyInfo*> infos() const override;
    std::optional<std::string> refusal(std::string_view id, const Case& c,
                                       const TargetInfo& target) const override;

private:
    std::vector<std::unique_ptr<Strategy>> m_strategies;
    std::vector<std::unique_ptr<Strategy>> m_unlisted;
};

} // namespace iolab
