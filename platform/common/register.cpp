// SPDX-License-Identifier: MIT
// The built-in strategies in the order the front ends list them, the same on every OS: a strategy this OS
// does not have is listed unavailable, with the reason, where the others have it.
#include "platform/builtin_strategies.h"
#include "platform/common/one_os_strategies.h"
#include "platform/common/queued_strategies.h"
#include "platform/platform.h"

namespace iolab {

void registerBuiltinStrategies(Registry& registry)
{
    using namespace builtin;
    registry.add(makeStdioStrategy());
    registry.add(makeStdioUnlockedStrategy());
    registry.add(makeStdioUnlockedCallStrategy());
    registry.add(makePutcStrategy());
    registry.add(makePutcUnlockedStrategy());
    registry.add(makeFputcStrategy());
    registry.add(makeWriteStrategy());
    registry.add(makeDirectStrategy());
    registry.add(makeWriteRandomStrategy());
    registry.add(makeDirectRandomStrategy());
    registry.add(makeMmapWindowStrategy());
    registry.add(makeMmapBatchDirectStrategy());
    registry.add(makeGroupCommitStrategy());
    registry.add(makePipeWriteStrategy());
#ifdef __linux__
    registry.add(makeVmspliceStrategy());
    registry.add(makePwritev2DsyncStrategy());
    registry.add(makeSyncFileRangeStrategy());
    registry.add(makeUringLinkedSyncStrategy());
#else // their one declaration, unavailable with the reason: no file of their own on the other OS
    registry.add(makeUnavailableStrategy(vmspliceDeclaration()));
    registry.add(makeUnavailableStrategy(pwritev2DsyncDeclaration()));
    registry.add(makeUnavailableStrategy(syncFileRangeDeclaration()));
    registry.add(makeUnavailableStrategy(uringLinkedSyncDeclaration()));
#endif
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
    registry.addUnlisted(makeReplayStrategy());
    // The queued families: this OS's built, the other's listed unavailable with the reason.
#ifdef __linux__
    for (const OneOsStrategy& declaration : uringDeclarations())
        registry.add(makeQueuedStrategy(declaration));
    for (const OneOsStrategy& declaration : overlappedDeclarations())
        registry.add(makeUnavailableStrategy(declaration));
#else
    for (const OneOsStrategy& declaration : uringDeclarations())
        registry.add(makeUnavailableStrategy(declaration));
    for (const OneOsStrategy& declaration : overlappedDeclarations())
        registry.add(makeQueuedStrategy(declaration));
#endif
}

} // namespace iolab
