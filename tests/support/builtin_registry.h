// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/registry.h"
#include "platform/platform.h"

namespace iolab::test {

// This OS's real strategies, registered once for the tests that need real ids and capabilities.
inline const Registry& builtinRegistry()
{
    static const Registry registry = [] {
        Registry r;
        registerBuiltinStrategies(r);
        return r;
    }();
    return registry;
}

} // namespace iolab::test
