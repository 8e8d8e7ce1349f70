// SPDX-License-Identifier: MIT
// The writing half of a trace (core/model/trace_format.h), for a recorder that runs inside the recorded
// program: one part per process, chunks per thread, identical consecutive calls kept as one record. The OS
// part (a file mapping that grows) is the recorder's; this skeleton is the same on every system.
//
// Cost per recorded call: a thread_local lookup, a comparison with the thread's last record and either a few
// stores into it or a new record in the thread's chunk. No lock, no allocation, no system call, except once a
// chunk (64 KiB) when a thread takes the next one, and when the mapping grows (1 MiB, then doubling up to
// steps of 64 MiB).
#pragma once

#include "core/model/trace_format.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace iolab::recorder {

// The file behind a part, mapped into memory shared with the file (so that what is stored there is in the
// file even if the process is killed the next instant). The OS side implements it.
class PartFile
{
public:
    virtual ~PartFile() = default;
    // Makes the first `bytes` of the file usable at base(); base() never moves (the address range is reserved
    // up front). False when the file cannot grow (the disk is full, the reservation is used up).
    virtual bool growTo(std::uint64_t bytes) = 0;
    virtual unsigned char* base() = 0;
};

// One call as the interposer saw it, before it becomes (part of) a record.
struct Call
{
    trace::Call call;
    std::uint64_t handle = 0;
    std::uint64_t bytes = 0;
    std::int64_t offset = -1;
    std::int64_t result = 0;
    std::int32_t error = 0;
    std::uint32_t flags = 0;
    std::uint64_t startNs = 0; // on the part's clock (see PartWriter::now)
    std::uint64_t endNs = 0;
    std::string_view path;
    std::string_view path2;
};

// fopen's mode string as OpenFlag bits: r, w, a and +, and x (exclusive); what else a C library takes there
// is its own and each recorder reads it.
std::uint32_t openFlagsOfMode(const char* mode);

class PartWriter
{
public:
    static constexpr std::uint32_t kChunkBytes = 64 * 1024;
    // The part grows by doubling, from 1 MiB (a process that writes a few files costs 1 MiB of disk while it
    // runs; the merged trace keeps only what was used) to steps of 64 MiB.
    static constexpr std::uint64_t kFirstBytes = std::uint64_t{1024} * 1024;
    static constexpr std::uint64_t kLargestStepBytes = 64ull * 1024 * 1024;

    // Writes the part's header. `file` outlives the writer.
    PartWriter(PartFile& file, trace::System system, std::uint32_t pid, std::uint32_t parentPid,
               std::uint64_t startRealtimeNs, std::uint64_t startMonotonicNs);

    bool ready() const { return m_ready; }

    // `tid` is the calling thread's; each thread must pass its own and only it writes its chunks. Returns
    // false when the call was dropped (the part could not grow); the writer counts those and says so in a
    // note.
    bool record(std::uint32_t tid, const Call& call);
    // Counts `call` into the thread's last record when it continues that run, without timing it (a stdio call
    // the stream's buffer absorbed); false when it does not, and the caller records it with its times.
    bool extendUntimed(const Call& call);
    void note(std::uint32_t tid, trace::NoteKind kind, std::uint32_t count, std::uint64_t atNs,
              std::string_view text);
    void process(std::uint32_t tid, std::string_view text, std::uint16_t argumentCount);
    void exit(std::uint32_t tid, std::int32_t status, std::uint64_t atNs);

    // Makes the next record of this thread start a new run: after a fork, or when the thread ends.
    static void forgetThread();

    std::uint64_t dropped() const { return m_dropped.load(std::memory_order_relaxed); }
    // The part's length so far: its header and every chunk a thread took (what a recorder keeps of the file
    // when the process ends).
    std::uint64_t usedBytes() const;

private:
    struct ThreadState;
    static ThreadState& threadState();
    // A record of `bytes` in the calling thread's chunk, or nullptr when the part is full.
    unsigned char* reserve(ThreadState& state, std::uint32_t tid, std::uint32_t bytes);
    void commit(ThreadState& state);
    static constexpr std::size_t kLargestNoteText = 4096;
    static constexpr std::size_t kLargestProcessText = 32768;
    template <typename Record>
    void append(std::uint32_t tid, Record record, std::string_view text, std::size_t largestText);
    bool extendsLast(const ThreadState& state, const Call& call) const;

    PartFile& m_file;
    bool m_ready = false;
    std::uint64_t m_generation; // tells a thread's state from a part it wrote before a fork
    std::atomic<std::uint64_t> m_nextChunk{0};
    std::atomic<std::uint64_t> m_mappedBytes{0};
    std::atomic_flag m_growing = ATOMIC_FLAG_INIT;
    std::atomic<std::uint64_t> m_dropped{0};
};

} // namespace iolab::recorder
