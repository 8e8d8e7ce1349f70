// SPDX-License-Identifier: MIT
#include "core/model/strategy_info.h"

namespace iolab {

std::string StrategyCatalog::knownIds() const
{
    std::string ids;
    for (const StrategyInfo* info : infos()) {
        if (!ids.empty())
            ids += ", ";
        ids += info->id;
    }
    return ids;
}

} // namespace iolab
