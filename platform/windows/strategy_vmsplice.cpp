// SPDX-License-Identifier: MIT
// vmsplice: Linux only. Windows lists it unavailable with the reason its one declaration gives
// (platform/common/one_os_strategies.cpp); pipe-write is the Windows pipe case.
#include "platform/builtin_strategies.h"
#include "platform/common/one_os_strategies.h"

namespace iolab {

std::unique_ptr<Strategy> builtin::makeVmspliceStrategy()
{
    return makeUnavailableStrategy(vmspliceDeclaration());
}

} // namespace iolab
