// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/registry.h"
#include "platform/platform.h"

namespace iolab::test {

// This OS's real strategies: the process's one registry, as the front ends use it.
using iolab::builtinRegistry;

} // namespace iolab::test
