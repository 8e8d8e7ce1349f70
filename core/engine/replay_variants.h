// SPDX-License-Identifier: MIT
// From a recording to advice (iolab-cli advise): the durability contract a recorded program keeps, and the
// other ways of making the same calls that IOLab measures against it.
//
// The contract. At each of its sync points (fsync, fdatasync, msync(MS_SYNC), a write or a stream flush to a
// file opened O_SYNC/O_DSYNC or write-through, sync/syncfs) a program has made certain bytes of a file
// durable; a rename publishes a file with the bytes made durable before it. A variant keeps the contract
// when, file by file, it has the same sync points at the same places in the file's stream of bytes (after the
// same number of bytes the program had handed to stdio or the system), each making durable at least the bytes
// the program's made durable there, with an fdatasync only where the file's size had not changed since its
// last sync point. The contract is worked out from a script's steps (in an order that honours their waits),
// so a variant is checked before it is run, by the same code that checks the recording's own script.
//
// The variants rewrite the script's steps and nothing else: the same files, the same bytes at the same
// offsets (the pattern's), the same threads, the same file lives. A variant that cannot keep the contract
// (fewer syncs) is built only to show what it would save and what a power cut would then lose; it is never
// the answer.
#pragma once

#include "core/engine/replay_script.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// One sync point of one file.
struct DurabilityPoint
{
    enum Kind : std::uint8_t
    {
        Full,     // fsync, sync, syncfs, and a write (or a stream's flush) that returned durable
        DataOnly, // fdatasync, msync
        Publish,  // a rename of the file: what is durable is what the new name shows after a power cut
    };
    Kind kind = Full;
    std::uint64_t handed = 0;  // bytes the program had handed to stdio or the system for the file before it
    std::uint64_t durable = 0; // of those, durable after it (at a Publish: durable before the rename)
    bool sizeChanged = true;   // the file's size changed since its previous sync point
    std::uint32_t count = 1;   // a run of identical points (a run of O_DSYNC writes)
};

struct DurabilityContract
{
    std::vector<std::vector<DurabilityPoint>> files; // by the script's contents
    std::uint64_t points = 0;                        // counted one by one (runs unrolled), renames too
    std::uint64_t syncPoints = 0;                    // of those, the syncs (renames left out)
};

// The contract a script keeps.
DurabilityContract durabilityContract(const ReplayScript& script);

// "" when `variant` keeps `original`, else where it first breaks it, in words ("f000002.dat: its 3rd sync
// point (after 12 KiB) is gone").
std::string contractBreach(const ReplayScript& script, const DurabilityContract& original,
                           const DurabilityContract& variant);

// What a variant changes in the program, for the answer: a sentence, and the C that does it.
struct VariantAdvice
{
    std::string change;  // "Give each stream a 1 MiB buffer: setvbuf(f, NULL, _IOFBF, 1 << 20) after fopen"
    std::string snippet; // a few lines of C
    std::string others;  // the C++ calls, and the other system's, that do the same
    std::string cost;    // what it changes besides speed
};
// For a program recorded on `system`, in that system's calls: on Windows the C runtime's and kernel32's
// (direct-batch and mmap-batch as NO_BUFFERING handles, FlushFileBuffers for each sync), on Linux POSIX and
// stdio, each with the other system's calls named beside it.
VariantAdvice adviceFor(const ReplayVariant& variant, trace::System system);

// The script with the variant applied, or nothing when it changes nothing in this script (a program with no
// stream has no stdio buffer to size). The script's counts (calls, writes, syncs, largest call) are its own.
std::optional<ReplayScript> applyVariant(const ReplayScript& script, const ReplayVariant& variant);

// The script a replay case runs: `base` itself for "recorded", else the variant's. Throws InputError for a
// variant that changes nothing in this program, or that drops or moves one of its durability points without
// being one of the weaker variants shown apart (replay_variants.h's contract is checked before every run).
std::shared_ptr<const ReplayScript> scriptForVariant(const std::shared_ptr<const ReplayScript>& base,
                                                     std::string_view variant);

// The variants worth measuring for this script, in the order the answer lists them: each that changes it.
std::vector<ReplayVariant> variantsFor(const ReplayScript& script);

} // namespace iolab
