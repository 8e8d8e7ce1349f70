// SPDX-License-Identifier: MIT
#include "platform/common/one_os_strategies.h"
#include "platform/platform.h"
#include "platform/windows/strategies.h"

namespace iolab {

void registerBuiltinStrategies(Registry& registry)
{
    using namespace windows_backend;
    registry.add(makeStdioStrategy());
    registry.add(makeStdioUnlockedStrategy());
    registry.add(makeStdioUnlockedCallStrategy());
    registry.add(makePutcStrategy());
    registry.add(makePutcUnlockedStrategy());
    registry.add(makeFputcStrategy());
    registry.add(makeWriteStrategy());
    registry.add(makeDirectStrategy());
    registry.add(makeMmapWindowStrategy());
    registry.add(makeMmapBatchDirectStrategy());
    registry.add(makePipeWriteStrategy());
    registry.add(makeUnavailableStrategy(vmspliceDeclaration()));
    registry.add(makeReadStrategy());
    registry.add(makeFreadStrategy());
    registry.add(makeFreadUnlockedStrategy());
    registry.add(makeReadDirectStrategy());
    registry.add(makeMmapReadStrategy());
    registry.add(makeReadRandomStrategy());
    registry.add(makeReadRandomDirectStrategy());
    registry.add(makeFilesSerialStrategy());
    registry.add(makeFilesPoolStrategy());
    registry.add(makeFilesPerThreadStrategy());
}

} // namespace iolab
