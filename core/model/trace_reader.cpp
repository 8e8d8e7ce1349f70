// SPDX-License-Identifier: MIT
#include "trace_reader.h"

#include "core/base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <queue>

namespace iolab {

namespace {

constexpr std::uint32_t kLargestTraceChunkBytes = 16u << 20;

std::uint64_t streamBytes(std::istream& in)
{
    in.clear();
    in.seekg(0, std::ios::end);
    const auto end = in.tellg();
    return end < 0 ? 0 : static_cast<std::uint64_t>(end);
}

bool readAt(std::istream& in, std::uint64_t at, void* into, std::size_t bytes)
{
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    in.read(static_cast<char*>(into), static_cast<std::streamsize>(bytes));
    return static_cast<std::size_t>(in.gcount()) == bytes;
}

template <typename T> T recordAt(const std::vector<unsigned char>& bytes, std::size_t at)
{
    T value;
    std::memcpy(&value, bytes.data() + at, sizeof value);
    return value;
}

std::vector<std::string> splitNul(std::string_view text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\0', start);
        if (end == std::string_view::npos) {
            parts.emplace_back(text.substr(start));
            break;
        }
        parts.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

} // namespace

struct TraceReader::Part
{
    struct Chunk
    {
        std::uint64_t at = 0; // of its records
        std::uint32_t tid = 0;
        std::uint32_t usedBytes = 0;
    };
    std::uint64_t at = 0;
    trace::PartHeader header{};
    std::vector<Chunk> chunks;
    std::uint32_t process = 0;
    std::uint64_t offsetNs = 0; // from the trace's start to this part's
};

// One thread of one part, read a chunk at a time.
struct TraceReader::Cursor
{
    const Part* part = nullptr;
    std::vector<std::size_t> chunks; // indexes into part->chunks, in order
    std::size_t nextChunk = 0;
    std::vector<unsigned char> records;
    std::size_t at = 0;
    TraceEvent event;
    trace::System system = trace::System::Linux; // the part's (when a handle is taken)
};

TraceReader::TraceReader(std::istream& in, std::string sourceName) : m_in(in), m_source(std::move(sourceName))
{
    const std::uint64_t fileBytes = streamBytes(m_in);
    if (fileBytes == 0)
        throw InputError(fmt::format("{} is empty: no trace in it", m_source));
    std::uint64_t at = 0;
    while (at < fileBytes) {
        readPart(at, fileBytes);
        const Part& part = m_parts.back();
        at = part.header.partBytes != 0 ? part.at + part.header.partBytes : fileBytes;
    }
    m_firstStartMonotonicNs = UINT64_MAX;
    for (const Part& part : m_parts)
        m_firstStartMonotonicNs = std::min(m_firstStartMonotonicNs, part.header.startMonotonicNs);
    for (Part& part : m_parts) {
        part.offsetNs = part.header.startMonotonicNs - m_firstStartMonotonicNs;
        TraceProcess process;
        process.pid = part.header.pid;
        process.parentPid = part.header.parentPid;
        process.system = static_cast<trace::System>(part.header.system);
        process.startRealtimeNs = part.header.startRealtimeNs;
        process.startNs = part.offsetNs;
        process.endNs = part.offsetNs;
        part.process = static_cast<std::uint32_t>(m_processes.size());
        m_processes.push_back(std::move(process));
        readSmallRecords(part);
    }
}

TraceReader::~TraceReader() = default;

void TraceReader::corrupt(std::uint64_t at, std::string_view what) const
{
    throw InputError(fmt::format("{} is corrupt at byte {}: {}", m_source, at, what));
}

void TraceReader::readPart(std::uint64_t at, std::uint64_t fileBytes)
{
    Part part;
    part.at = at;
    if (fileBytes - at < sizeof part.header || !readAt(m_in, at, &part.header, sizeof part.header)) {
        if (at == 0)
            throw InputError(fmt::format("{} is not an IOLab trace: it is too short to hold one", m_source));
        throw InputError(
            fmt::format("{} is truncated: it ends at byte {}, inside the header of a process's part",
                        m_source, fileBytes));
    }
    if (std::memcmp(part.header.magic, trace::kMagic, sizeof trace::kMagic) != 0) {
        if (at == 0)
            throw InputError(
                fmt::format("{} is not an IOLab trace (it does not start with IOLABTRC)", m_source));
        corrupt(at, "a process's part should start here");
    }
    if (part.header.version > trace::kVersion)
        throw InputError(
            fmt::format("{} was written by a newer IOLab (trace version {}; this IOLab reads version {}): "
                        "update IOLab to read it",
                        m_source, part.header.version, trace::kVersion));
    if (part.header.version == 0)
        corrupt(at, "version 0");
    const bool compact = (part.header.partFlags & trace::PartCompact) != 0;
    if (part.header.headerBytes < sizeof part.header || part.header.headerBytes > (1u << 20) ||
        (!compact && (part.header.chunkBytes <= sizeof(trace::ChunkHeader) ||
                      part.header.chunkBytes > kLargestTraceChunkBytes)))
        corrupt(at, "its part header gives impossible sizes");
    if (part.header.partBytes != 0 && part.header.partBytes > fileBytes - at)
        throw InputError(
            fmt::format("{} is truncated: it ends at byte {}, and the part of process {} that starts at "
                        "byte {} is {} bytes long",
                        m_source, fileBytes, part.header.pid, at, part.header.partBytes));
    readChunkHeaders(part, fileBytes);
    m_parts.push_back(std::move(part));
}

void TraceReader::readChunkHeaders(Part& part, std::uint64_t fileBytes)
{
    const bool compact = (part.header.partFlags & trace::PartCompact) != 0;
    const std::uint64_t end = part.header.partBytes != 0 ? part.at + part.header.partBytes : fileBytes;
    std::uint64_t at = part.at + part.header.headerBytes;
    while (at + sizeof(trace::ChunkHeader) <= end) {
        if (!compact && at + part.header.chunkBytes > end)
            break; // the last chunk of a part the recorder left is cut short: a killed program's, read the
                   // rest
        trace::ChunkHeader chunk{};
        if (!readAt(m_in, at, &chunk, sizeof chunk))
            break;
        const std::uint64_t room = compact ? end - at - sizeof chunk : part.header.chunkBytes - sizeof chunk;
        if (chunk.magic == 0) {
            if (compact)
                corrupt(at, "an empty chunk inside a merged trace");
            at += part.header.chunkBytes; // taken by no thread, or by one killed before it wrote its header
            continue;
        }
        if (chunk.magic != trace::kChunkMagic)
            corrupt(at, "a chunk should start here");
        if (chunk.usedBytes > room || chunk.usedBytes % 8 != 0)
            corrupt(at, fmt::format("a chunk says it holds {} bytes, more than it has room for",
                                    chunk.usedBytes));
        if (chunk.usedBytes > 0)
            part.chunks.push_back({at + sizeof chunk, chunk.tid, chunk.usedBytes});
        at += compact ? sizeof chunk + chunk.usedBytes : part.header.chunkBytes;
    }
    if (compact && at != end)
        corrupt(at, "the last chunk of a part does not end where the part does");
}

// Process, note and exit records, and a check of every record's size; the calls are read by forEachEvent.
void TraceReader::readSmallRecords(Part& part)
{
    TraceProcess& process = m_processes[part.process];
    std::vector<unsigned char> records;
    for (const Part::Chunk& chunk : part.chunks) {
        records.resize(chunk.usedBytes);
        if (!readAt(m_in, chunk.at, records.data(), records.size()))
            corrupt(chunk.at, "a chunk's records are cut short");
        std::size_t at = 0;
        while (at < records.size()) {
            if (records.size() - at < sizeof(trace::RecordHeader))
                corrupt(chunk.at + at, "a record is cut short");
            const auto header = recordAt<trace::RecordHeader>(records, at);
            if (header.bytes < 8 || header.bytes % 8 != 0 || header.bytes > records.size() - at)
                corrupt(chunk.at + at, fmt::format("a record says it is {} bytes long", header.bytes));
            switch (static_cast<trace::RecordType>(header.type)) {
            case trace::RecordType::Event: {
                if (header.bytes < sizeof(trace::EventRecord))
                    corrupt(chunk.at + at, "a call's record is too short");
                const auto event = recordAt<trace::EventRecord>(records, at);
                if (sizeof event + event.pathBytes + event.path2Bytes > header.bytes)
                    corrupt(chunk.at + at, "a call's paths run past its record");
                ++m_eventRecords;
                process.endNs = std::max(process.endNs, part.offsetNs + std::max(event.endNs, event.startNs));
                break;
            }
            case trace::RecordType::Process: {
                const auto record = recordAt<trace::ProcessRecord>(records, at);
                if (sizeof record + record.textBytes > header.bytes)
                    corrupt(chunk.at + at, "the program's record runs past its end");
                const std::vector<std::string> fields = splitNul(std::string_view(
                    reinterpret_cast<const char*>(records.data() + at + sizeof record), record.textBytes));
                // executable, arguments (each ended by a NUL, the list by an empty one), working folder
                if (!fields.empty())
                    process.executable = fields.front();
                std::size_t i = 1;
                for (; i < fields.size() && process.arguments.size() < record.argumentCount; ++i)
                    process.arguments.push_back(fields[i]);
                while (i < fields.size() && fields[i].empty())
                    ++i;
                if (i < fields.size())
                    process.workingFolder = fields[i];
                break;
            }
            case trace::RecordType::Note: {
                const auto record = recordAt<trace::NoteRecord>(records, at);
                if (sizeof record + record.textBytes > header.bytes)
                    corrupt(chunk.at + at, "a note runs past its record");
                TraceNote note;
                note.kind = static_cast<trace::NoteKind>(record.kind);
                note.process = part.process;
                note.tid = record.tid;
                note.count = record.count;
                note.atNs = part.offsetNs + record.atNs;
                note.text.assign(reinterpret_cast<const char*>(records.data() + at + sizeof record),
                                 record.textBytes);
                m_notes.push_back(std::move(note));
                break;
            }
            case trace::RecordType::Exit: {
                const auto record = recordAt<trace::ExitRecord>(records, at);
                process.ended = true;
                if (record.status != trace::kExitStatusUnknown)
                    process.exitStatus = record.status;
                process.endNs = std::max(process.endNs, part.offsetNs + record.atNs);
                break;
            }
            default:
                corrupt(chunk.at + at, fmt::format("a record of unknown type {}", header.type));
            }
            at += header.bytes;
        }
    }
}

namespace {

// When a call is seen in the order forEachEvent gives: when it started, but on Windows a call that gives a
// handle (an open, a dup, a mapping) when it returned. There the HANDLE, and the C runtime's FILE* slot, are
// taken at the call's end, so another thread can still be using the same value until its close returns: an
// open begun before that close returns after it. On Linux a descriptor number and a FILE* are taken when the
// call starts (a freed one is reused only by a call begun after the free), and an open stays in start order
// with another thread's unlink or rename of its path. One thread's calls keep their order either way, as
// each starts after the last returned.
std::uint64_t seenAtNs(const TraceEvent& event, trace::System system)
{
    using trace::Call;
    if (system != trace::System::Windows)
        return event.startNs;
    switch (event.call) {
    case Call::Open:
    case Call::FOpen:
    case Call::Dup:
    case Call::Mmap:
        return event.endNs;
    default:
        return event.startNs;
    }
}

} // namespace

void TraceReader::forEachEvent(const std::function<bool(const TraceEvent&)>& visit)
{
    std::vector<Cursor> cursors;
    for (const Part& part : m_parts) {
        std::map<std::uint32_t, std::size_t> byThread;
        for (std::size_t i = 0; i < part.chunks.size(); ++i) {
            auto [it, added] = byThread.try_emplace(part.chunks[i].tid, cursors.size());
            if (added) {
                cursors.emplace_back();
                cursors.back().part = &part;
                cursors.back().system = static_cast<trace::System>(part.header.system);
            }
            cursors[it->second].chunks.push_back(i);
        }
    }
    // Moves a cursor to its next call; false when it has none left.
    auto advance = [this](Cursor& cursor) {
        for (;;) {
            while (cursor.at >= cursor.records.size()) {
                if (cursor.nextChunk >= cursor.chunks.size())
                    return false;
                const Part::Chunk& chunk = cursor.part->chunks[cursor.chunks[cursor.nextChunk++]];
                cursor.records.resize(chunk.usedBytes);
                if (!readAt(m_in, chunk.at, cursor.records.data(), cursor.records.size()))
                    corrupt(chunk.at, "a chunk's records are cut short");
                cursor.at = 0;
            }
            const auto header = recordAt<trace::RecordHeader>(cursor.records, cursor.at);
            const std::size_t at = cursor.at;
            cursor.at += header.bytes;
            if (static_cast<trace::RecordType>(header.type) != trace::RecordType::Event)
                continue;
            const auto record = recordAt<trace::EventRecord>(cursor.records, at);
            TraceEvent& event = cursor.event;
            event.call = static_cast<trace::Call>(record.call);
            event.process = cursor.part->process;
            event.tid = record.tid;
            event.error = record.error;
            event.count = record.count;
            event.flags = record.flags;
            event.handle = record.handle;
            event.bytes = record.bytes_;
            event.offset = record.offset;
            event.result = record.result;
            event.startNs = cursor.part->offsetNs + record.startNs;
            event.endNs = cursor.part->offsetNs + std::max(record.endNs, record.startNs);
            event.insideNs = record.insideNs;
            const char* text = reinterpret_cast<const char*>(cursor.records.data() + at + sizeof record);
            event.path.assign(text, record.pathBytes);
            event.path2.assign(text + record.pathBytes, record.path2Bytes);
            return true;
        }
    };
    auto later = [&cursors](std::size_t a, std::size_t b) {
        return seenAtNs(cursors[a].event, cursors[a].system) > seenAtNs(cursors[b].event, cursors[b].system);
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> next(later);
    for (std::size_t i = 0; i < cursors.size(); ++i) {
        if (advance(cursors[i]))
            next.push(i);
    }
    while (!next.empty()) {
        const std::size_t i = next.top();
        next.pop();
        if (!visit(cursors[i].event))
            return;
        if (advance(cursors[i]))
            next.push(i);
    }
}

void mergeTraceParts(const std::vector<std::pair<std::istream*, std::string>>& parts, std::ostream& out)
{
    for (const auto& [in, name] : parts) {
        // The reader checks the part; its chunks are then copied as they are, without their unused room.
        TraceReader reader(*in, name);
        (void)reader;
        const std::uint64_t fileBytes = streamBytes(*in);
        trace::PartHeader header{};
        readAt(*in, 0, &header, sizeof header);
        std::vector<std::pair<trace::ChunkHeader, std::uint64_t>> chunks;
        std::uint64_t at = header.headerBytes;
        const bool compact = (header.partFlags & trace::PartCompact) != 0;
        const std::uint64_t end = header.partBytes != 0 ? header.partBytes : fileBytes;
        std::uint64_t partBytes = sizeof header;
        while (at + sizeof(trace::ChunkHeader) <= end) {
            trace::ChunkHeader chunk{};
            if (!readAt(*in, at, &chunk, sizeof chunk))
                break;
            if (chunk.magic == trace::kChunkMagic && chunk.usedBytes > 0 &&
                (compact || at + header.chunkBytes <= end)) {
                chunks.emplace_back(chunk, at + sizeof chunk);
                partBytes += sizeof chunk + chunk.usedBytes;
            }
            at += compact ? sizeof chunk + chunk.usedBytes : header.chunkBytes;
        }
        trace::PartHeader merged = header;
        merged.headerBytes = sizeof merged;
        merged.partFlags = static_cast<std::uint16_t>(merged.partFlags | trace::PartCompact);
        merged.partBytes = partBytes;
        out.write(reinterpret_cast<const char*>(&merged), sizeof merged);
        std::vector<char> records;
        for (const auto& [chunk, recordsAt] : chunks) {
            out.write(reinterpret_cast<const char*>(&chunk), sizeof chunk);
            records.resize(chunk.usedBytes);
            readAt(*in, recordsAt, records.data(), records.size());
            out.write(records.data(), static_cast<std::streamsize>(records.size()));
        }
    }
}

} // namespace iolab
