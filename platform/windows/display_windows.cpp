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

} // namespace iolab
