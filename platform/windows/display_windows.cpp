// SPDX-License-Identifier: MIT
#include "platform/platform.h"

namespace iolab {

DisplayServers probeDisplayServers()
{
    return {}; // a windowed program always has the desktop it was started on
}

const char* headlessQtPlatform()
{
    return "windows";
}

std::vector<EnvironmentDefault> qtEnvironmentDefaults()
{
    return {{"QT_ENABLE_REGEXP_JIT", "0"}};
}

} // namespace iolab
