// SPDX-License-Identifier: MIT
// Writes one process's part of a trace (trace_format.h) from calls given one at a time, for an importer that
// reads what another tool captured (strace's log): compact chunks, one being filled per thread and written
// out when full, so memory stays at a chunk per thread however long the log. Identical consecutive calls of
// a thread are kept as one record, as the recorders keep them.
#pragma once

#include "core/model/trace_format.h"

#include <cstdint>
#include <map>
#include <ostream>
#include <string_view>
#include <vector>

namespace iolab {

class TracePartBuilder
{
public:
    static constexpr std::uint32_t kChunkBytes = 64 * 1024;

    // Writes the part's header to `out` (which outlives the builder). Times given later count from
    // `startNs`, on the same clock; `startRealtimeNs` is 0 when the date is unknown.
    TracePartBuilder(std::ostream& out, trace::System system, std::uint32_t pid, std::uint32_t parentPid,
                     std::uint64_t startRealtimeNs, std::uint64_t startNs);

    // `event.startNs`/`endNs` on the clock `startNs` was given on (not before it); process is ignored.
    void add(const TraceEvent& event);
    void note(std::uint32_t tid, trace::NoteKind kind, std::uint32_t count, std::uint64_t atNs,
              std::string_view text);
    void program(std::uint32_t tid, std::string_view executable, const std::vector<std::string>& arguments,
                 std::string_view workingFolder);
    void exit(std::uint32_t tid, std::int32_t status, std::uint64_t atNs);

    // The process's id when it was learnt after the part began (strace prints none until a second process
    // starts): written into the part's header by finish().
    void setPid(std::uint32_t pid) { m_header.pid = pid; }

    // Writes every chunk still being filled. The part runs to the end of `out`'s file (partBytes 0): its
    // caller merges the parts (mergeTraceParts) into one trace.
    void finish();

private:
    struct Thread
    {
        std::vector<unsigned char> records;
        std::size_t lastEventAt = SIZE_MAX; // of the chunk's last record when it is a call
    };
    Thread& thread(std::uint32_t tid, std::size_t bytes);
    void flush(std::uint32_t tid, Thread& thread);
    void append(std::uint32_t tid, const void* record, std::size_t recordBytes, std::string_view text1,
                std::string_view text2);

    std::ostream& m_out;
    std::streampos m_headerAt;
    trace::PartHeader m_header{};
    std::uint64_t m_startNs;
    std::map<std::uint32_t, Thread> m_threads;
};

} // namespace iolab
