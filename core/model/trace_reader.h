// SPDX-License-Identifier: MIT
// Reads a trace (trace_format.h): the parts a recorder left, or a trace `iolab-cli record` merged, as calls
// in the order they started, with bounded memory (a trace of ten million calls is read, not loaded). The app,
// the CLI and the tests share it.
#pragma once

#include "core/model/trace_format.h"

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace iolab {

// Reads a trace from a stream it can seek. Construction reads the part and chunk headers (throws InputError
// naming `sourceName` for a file that is no trace, one from a newer IOLab, truncated or corrupt); the calls
// are read as they are visited.
class TraceReader
{
public:
    TraceReader(std::istream& in, std::string sourceName);
    ~TraceReader();
    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    const std::vector<TraceProcess>& processes() const { return m_processes; }
    const std::vector<TraceNote>& notes() const { return m_notes; }
    std::uint64_t eventRecords() const { return m_eventRecords; }

    // Every call, in the order the calls started (across processes and threads), except that on Windows a
    // call giving a handle (an open, a dup, a mapping) comes when it returned, as the handle is taken then:
    // an open begun while another thread closed the same handle value comes after that close. `visit` returns
    // false to stop. Throws InputError for a record that is corrupt.
    void forEachEvent(const std::function<bool(const TraceEvent&)>& visit);

private:
    struct Part;
    struct Cursor;
    void readPart(std::uint64_t at, std::uint64_t fileBytes);
    void readChunkHeaders(Part& part, std::uint64_t fileBytes);
    void readSmallRecords(Part& part);
    [[noreturn]] void corrupt(std::uint64_t at, std::string_view what) const;

    std::istream& m_in;
    std::string m_source;
    std::vector<Part> m_parts;
    std::vector<TraceProcess> m_processes;
    std::vector<TraceNote> m_notes;
    std::uint64_t m_eventRecords = 0;
    std::uint64_t m_firstStartMonotonicNs = 0;
};

// Writes the parts a recorder left (each a file, read from `parts`) as one trace, compacted: each part's used
// chunks back to back with their true lengths (trace_format.h's PartCompact). Parts are written in the order
// given. Throws InputError for a part that is no trace.
void mergeTraceParts(const std::vector<std::pair<std::istream*, std::string>>& parts, std::ostream& out);

} // namespace iolab
