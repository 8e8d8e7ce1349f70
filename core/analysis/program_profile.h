// SPDX-License-Identifier: MIT
// What a recorded program did with files (iolab-cli profile): its time inside file calls against its wall
// time, what it wrote and read where and in which sizes, when its data became durable and how much waited at
// worst, and each file's life (created, appended, renamed over another, deleted). Built from a trace's calls
// in the order they started (core/model/trace_reader.h feeds it), in one pass with bounded memory.
#pragma once

#include "core/base/latency_histogram.h"
#include "core/model/trace_calls.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace iolab {

// Call sizes by powers of two: bucket i holds sizes in [2^(i-1), 2^i), bucket 0 the empty calls.
struct SizeHistogram
{
    static constexpr std::size_t kBuckets = 48;
    std::array<std::uint64_t, kBuckets> calls{};
    std::array<std::uint64_t, kBuckets> smallest{}; // the sizes seen in each bucket, at their extremes
    std::array<std::uint64_t, kBuckets> largest{};

    void add(std::uint64_t bytes, std::uint64_t count);
    std::uint64_t total() const;
    // The fullest bucket, or kBuckets when empty.
    std::size_t fullest() const;
    static std::uint64_t lowerBound(std::size_t bucket);
};

struct FileProfile
{
    std::string path;
    FileKind kind = FileKind::Regular;
    std::uint64_t bytesWritten = 0;
    std::uint64_t bytesRead = 0;
    std::uint64_t writeCalls = 0;
    std::uint64_t readCalls = 0;
    std::uint64_t sequentialWrites = 0;         // at the end of the previous write (or at the position)
    std::uint64_t randomWrites = 0;             // anywhere else
    std::map<trace::Call, std::uint64_t> calls; // every call on it, by kind, runs counted call by call
    SizeHistogram writeSizes;
    SizeHistogram readSizes;
    std::uint32_t openFlags = 0; // every OpenFlag it was opened with
    std::uint64_t opens = 0;
    std::set<std::pair<std::uint32_t, std::uint32_t>> threads; // (process, tid)
    std::uint64_t syncs = 0; // fsync, fdatasync, sync_file_range, msync(MS_SYNC) on it
    std::uint64_t insideNs = 0;
    // its life
    std::uint64_t creations = 0; // opens that create or truncate it
    std::uint64_t appendOpens = 0;
    std::uint64_t renamedAway = 0;      // renamed to another name
    std::uint64_t replacedByRename = 0; // another file renamed over it: the atomic-replace pattern
    std::uint64_t deletions = 0;
};

struct ProgramProfile
{
    std::vector<TraceProcess> processes;
    std::uint64_t threads = 0;
    std::uint64_t wallNs = 0;       // from the first process's start to the last one's last record
    std::uint64_t insideNs = 0;     // in every recorded call, summed over threads
    std::uint64_t calls = 0;        // counted call by call
    std::uint64_t bytesWritten = 0; // to regular files
    std::uint64_t bytesRead = 0;
    std::uint64_t writeCalls = 0; // to regular files
    std::uint64_t readCalls = 0;
    SizeHistogram writeSizes;
    SizeHistogram readSizes;
    std::map<trace::Call, std::uint64_t> callCounts; // every call recorded, by kind
    std::vector<FileProfile> files;                  // regular files first, most bytes written first
    // durability
    std::uint64_t syncs = 0;
    LatencyHistogram syncTimes;
    std::uint64_t largestBytesBetweenSyncs = 0; // written to one file between two of its syncs, at most
    std::uint64_t maxAtRiskBytes = 0;           // acknowledged, not yet durable, all files together, at worst
    std::uint64_t maxAtRiskAtNs = 0;
    std::uint64_t durableWrites = 0; // writes that returned durable (O_SYNC, O_DSYNC, RWF_DSYNC)
    std::uint64_t atomicReplaces = 0;
    // what the recorder could not follow
    std::vector<TraceNote> notes;
    std::uint64_t unseenDescriptorWrites = 0; // writes to a descriptor never seen opened
    std::set<std::uint64_t> unseenDescriptors;
};

// Builds a profile from calls given in the order they started.
class ProgramProfiler
{
public:
    ProgramProfiler();
    ~ProgramProfiler();
    void add(const TraceEvent& event);
    ProgramProfile finish(std::vector<TraceProcess> processes, std::vector<TraceNote> notes);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace iolab

namespace iolab {

// The profile in words, for the CLI and the report: a verdict first (where the time went, what was written
// how, how durable), then the files, then what the recorder could not see. Lines without a trailing newline.
std::vector<std::string> describeProgramProfile(const ProgramProfile& profile);

// The program's write calls and its sync calls in words, the most made first ("1,300,000 fwrite and 2
// write"), named as its system names them; a count with a thousands separator ("1,300,000").
std::string writeCallsInWords(const ProgramProfile& profile);
std::string syncCallsInWords(const ProgramProfile& profile);
std::string countInWords(std::uint64_t n);
trace::System namingSystem(const ProgramProfile& profile);

// "write", "fsync", "fputc"... the C name of a call; a Windows trace's calls by their Win32 names
// ("WriteFile", "FlushFileBuffers") where they have one.
std::string callName(trace::Call call, trace::System system = trace::System::Linux);

} // namespace iolab
