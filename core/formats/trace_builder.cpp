// SPDX-License-Identifier: MIT
#include "trace_builder.h"

#include <algorithm>
#include <cstring>

namespace iolab {

namespace {

std::uint64_t since(std::uint64_t ns, std::uint64_t startNs)
{
    return ns > startNs ? ns - startNs : 0;
}

} // namespace

TracePartBuilder::TracePartBuilder(std::ostream& out, trace::System system, std::uint32_t pid,
                                   std::uint32_t parentPid, std::uint64_t startRealtimeNs,
                                   std::uint64_t startNs)
    : m_out(out), m_headerAt(out.tellp()), m_startNs(startNs)
{
    trace::PartHeader& header = m_header;
    std::memcpy(header.magic, trace::kMagic, sizeof header.magic);
    header.version = trace::kVersion;
    header.headerBytes = sizeof header;
    header.chunkBytes = kChunkBytes;
    header.system = static_cast<std::uint16_t>(system);
    header.partFlags = trace::PartCompact;
    header.partBytes = 0;
    header.pid = pid;
    header.parentPid = parentPid;
    header.startRealtimeNs = startRealtimeNs;
    header.startMonotonicNs = startNs;
    m_out.write(reinterpret_cast<const char*>(&header), sizeof header);
}

TracePartBuilder::Thread& TracePartBuilder::thread(std::uint32_t tid, std::size_t bytes)
{
    Thread& state = m_threads[tid];
    if (state.records.size() + bytes > kChunkBytes - sizeof(trace::ChunkHeader))
        flush(tid, state);
    return state;
}

void TracePartBuilder::flush(std::uint32_t tid, Thread& state)
{
    if (state.records.empty())
        return;
    trace::ChunkHeader chunk{};
    chunk.magic = trace::kChunkMagic;
    chunk.tid = tid;
    chunk.usedBytes = static_cast<std::uint32_t>(state.records.size());
    m_out.write(reinterpret_cast<const char*>(&chunk), sizeof chunk);
    m_out.write(reinterpret_cast<const char*>(state.records.data()),
                static_cast<std::streamsize>(state.records.size()));
    state.records.clear();
    state.lastEventAt = SIZE_MAX;
}

void TracePartBuilder::append(std::uint32_t tid, const void* record, std::size_t recordBytes,
                              std::string_view text1, std::string_view text2)
{
    const std::size_t bytes =
        trace::roundUp8(static_cast<std::uint32_t>(recordBytes + text1.size() + text2.size()));
    Thread& state = thread(tid, bytes);
    const std::size_t at = state.records.size();
    state.records.resize(at + bytes, 0);
    std::memcpy(state.records.data() + at, record, recordBytes);
    if (!text1.empty())
        std::memcpy(state.records.data() + at + recordBytes, text1.data(), text1.size());
    if (!text2.empty())
        std::memcpy(state.records.data() + at + recordBytes + text1.size(), text2.data(), text2.size());
    // the record's own size field (second 16 bits of every record)
    const auto size16 = static_cast<std::uint16_t>(bytes);
    std::memcpy(state.records.data() + at + 2, &size16, sizeof size16);
}

void TracePartBuilder::add(const TraceEvent& event)
{
    // A path longer than a record can say is cut (the format's lengths are 16 bits; no real path is that
    // long).
    const std::string_view path = std::string_view(event.path).substr(0, 16384);
    const std::string_view path2 = std::string_view(event.path2).substr(0, 16384);
    const std::uint64_t startNs = since(event.startNs, m_startNs);
    const std::uint64_t endNs = std::max(startNs, since(event.endNs, m_startNs));
    Thread& state = m_threads[event.tid];
    if (state.lastEventAt != SIZE_MAX && path.empty() && path2.empty()) {
        trace::EventRecord last{};
        std::memcpy(&last, state.records.data() + state.lastEventAt, sizeof last);
        // the same call on the same handle, of the same size and result (a short read or write is a call of
        // its own, as the recorders keep it), where the last one ended
        const bool continues =
            last.call == static_cast<std::uint16_t>(event.call) && last.handle == event.handle &&
            last.result == event.result && last.bytes_ == event.bytes && last.flags == event.flags &&
            last.error == event.error && last.pathBytes == 0 && last.path2Bytes == 0 && event.error == 0 &&
            (event.offset < 0 ? last.offset < 0
                              : last.offset >= 0 && static_cast<std::uint64_t>(event.offset) ==
                                                        static_cast<std::uint64_t>(last.offset) +
                                                            std::uint64_t{last.count} * last.bytes_) &&
            last.count < UINT32_MAX - event.count;
        if (continues) {
            last.count += event.count;
            last.result = event.result;
            last.endNs = std::max<std::uint64_t>(last.endNs, endNs);
            last.insideNs += event.insideNs;
            std::memcpy(state.records.data() + state.lastEventAt, &last, sizeof last);
            return;
        }
    }
    trace::EventRecord record{};
    record.type = static_cast<std::uint16_t>(trace::RecordType::Event);
    record.call = static_cast<std::uint16_t>(event.call);
    record.pathBytes = static_cast<std::uint16_t>(path.size());
    record.path2Bytes = static_cast<std::uint16_t>(path2.size());
    record.tid = event.tid;
    record.error = event.error;
    record.count = std::max<std::uint32_t>(event.count, 1);
    record.flags = event.flags;
    record.handle = event.handle;
    record.bytes_ = event.bytes;
    record.offset = event.offset;
    record.result = event.result;
    record.startNs = startNs;
    record.endNs = endNs;
    record.insideNs = event.insideNs;
    append(event.tid, &record, sizeof record, path, path2);
    Thread& after = m_threads[event.tid];
    after.lastEventAt =
        after.records.size() -
        trace::roundUp8(static_cast<std::uint32_t>(sizeof record + path.size() + path2.size()));
}

void TracePartBuilder::note(std::uint32_t tid, trace::NoteKind kind, std::uint32_t count, std::uint64_t atNs,
                            std::string_view text)
{
    text = text.substr(0, 4096);
    trace::NoteRecord record{};
    record.type = static_cast<std::uint16_t>(trace::RecordType::Note);
    record.kind = static_cast<std::uint16_t>(kind);
    record.textBytes = static_cast<std::uint16_t>(text.size());
    record.tid = tid;
    record.count = count;
    record.atNs = since(atNs, m_startNs);
    append(tid, &record, sizeof record, text, {});
    m_threads[tid].lastEventAt = SIZE_MAX;
}

void TracePartBuilder::program(std::uint32_t tid, std::string_view executable,
                               const std::vector<std::string>& arguments, std::string_view workingFolder)
{
    // executable NUL argument NUL ... NUL NUL working folder (trace_format.h's ProcessRecord)
    std::string text(executable);
    text.push_back('\0');
    std::uint16_t count = 0;
    for (const std::string& argument : arguments) {
        if (text.size() + argument.size() + 2 + workingFolder.size() > 32768)
            break;
        text += argument;
        text.push_back('\0');
        ++count;
    }
    text.push_back('\0');
    text += workingFolder;
    trace::ProcessRecord record{};
    record.type = static_cast<std::uint16_t>(trace::RecordType::Process);
    record.textBytes = static_cast<std::uint16_t>(text.size());
    record.argumentCount = count;
    append(tid, &record, sizeof record, text, {});
    m_threads[tid].lastEventAt = SIZE_MAX;
}

void TracePartBuilder::exit(std::uint32_t tid, std::int32_t status, std::uint64_t atNs)
{
    trace::ExitRecord record{};
    record.type = static_cast<std::uint16_t>(trace::RecordType::Exit);
    record.status = status;
    record.atNs = since(atNs, m_startNs);
    append(tid, &record, sizeof record, {}, {});
    m_threads[tid].lastEventAt = SIZE_MAX;
}

void TracePartBuilder::finish()
{
    for (auto& [tid, state] : m_threads)
        flush(tid, state);
    if (m_header.pid != 0 && m_headerAt != std::streampos(-1)) {
        const std::streampos end = m_out.tellp();
        m_out.seekp(m_headerAt);
        m_out.write(reinterpret_cast<const char*>(&m_header), sizeof m_header);
        m_out.seekp(end);
    }
    m_out.flush();
}

} // namespace iolab
