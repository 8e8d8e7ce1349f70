// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/strategy.h"

#include <memory>
#include <string>

namespace iolab {

// A strategy only one OS has, declared once. That OS's backend builds it from `info`; every other backend
// lists it unavailable with `elsewhere`, so that a matrix or preset naming it says why its cases do not run
// there instead of failing to parse.
struct OneOsStrategy
{
    StrategyInfo info;
    std::string elsewhere; // why the other OSes cannot run it
};

// vmsplice(2), Linux only.
const OneOsStrategy& vmspliceDeclaration();

// The sync lab's Linux-only writers (issue 17), in the order the front ends list them: pwritev2-dsync
// (RWF_DSYNC per call), sync-file-range (write, then sync_file_range: not durable) and uring-linked-sync
// (an io_uring write linked to an fsync or fdatasync).
const OneOsStrategy& pwritev2DsyncDeclaration();
const OneOsStrategy& syncFileRangeDeclaration();
const OneOsStrategy& uringLinkedSyncDeclaration();

// The strategy as an OS that does not have it lists it: its declaration, unavailable with the reason, and a
// prepare() that refuses with that reason.
std::unique_ptr<Strategy> makeUnavailableStrategy(const OneOsStrategy& declaration);

} // namespace iolab
