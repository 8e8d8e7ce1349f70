// SPDX-License-Identifier: MIT
// The answer to "how should my program write?" (iolab-cli advise): the recorded program's calls replayed as
// they were and in each other way that keeps its durability (core/engine/replay_variants.h), ranked by the
// durable rate, a way named only where its lead over the program's own calls holds against the noise; the
// weaker ways apart, with what a power cut would then lose; and where nothing helps, why, with numbers.
#pragma once

#include "core/analysis/program_profile.h"
#include "core/analysis/significance.h"
#include "core/engine/replay_script.h"
#include "core/model/replay.h"
#include "core/model/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iolab {

struct RunPlan;

// How many times each way is measured unless told: enough for the noise test to name a way.
inline constexpr std::uint32_t kAdviceRepetitions = 5;

// One way of making the program's calls, as measured.
struct AdvisedWay
{
    std::string variant; // "recorded" for the program's own calls
    std::string label;   // the case's
    bool weaker = false; // keeps fewer durability points than the program
    std::string breach;  // for a weaker way: where it breaks the program's contract
    Status status = Status::Ok;
    std::string reason;       // why it failed or was refused
    double insideSeconds = 0; // median time inside its calls
    double returnSeconds = 0; // median time to run: until its last call returned (the program's time in I/O)
    double durableMBps = 0;   // median
    std::uint32_t repetitions = 0;
    std::uint64_t writeCalls = 0;
    std::uint64_t syncCalls = 0;
    std::optional<std::uint64_t> maxAtRiskBytes;
    RateDifference vsProgram;    // its durable rates against the program's own calls' replay
    RateDifference runVsProgram; // its time to run (the apparent rate) against theirs
};

struct ProgramAdvice
{
    std::string program;
    std::optional<AdvisedWay> recorded;
    std::vector<AdvisedWay> ways;   // keeping the contract, fastest (durable) first; failed ones last
    std::vector<AdvisedWay> weaker; // shown apart
    std::vector<std::string> lines; // the answer in words, the lead first
};

// Builds the advice from a run of the recorded replay and its variants (each case's replay-variant axis says
// which), the recorded script (for each weaker way's breach of its contract) and the program's profile (for
// the lead: its time in I/O, its calls).
ProgramAdvice adviseProgram(const RunResult& result, const ReplayScript& recorded,
                            const ProgramProfile& profile);

// The replay-variant axis of a run that advises on `script`: the program's own calls first, then every way
// that changes something in it (replay_variants.h's variantsFor).
std::vector<std::string> adviceVariantAxis(const ReplayScript& script);

// The advice on the run of `plan` that replayed `tracePath` (the path as the plan has it) and its ways;
// nothing when the plan has no recorded replay of it.
std::optional<ProgramAdvice> adviseOnPlan(const RunResult& result, const RunPlan& plan,
                                          const std::string& tracePath, const ProgramProfile& profile);

} // namespace iolab
