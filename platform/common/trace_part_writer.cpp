// SPDX-License-Identifier: MIT
#include "trace_part_writer.h"

#include <algorithm>
#include <cstring>

namespace iolab::recorder {

namespace {

// Each writer a process makes (a new one in a forked child) gets a number, so that a thread's state from the
// parent's part is never used for the child's.
std::atomic<std::uint64_t> g_generations{0};

constexpr std::uint32_t kHeaderBytes = 4096; // the first chunk starts on a page

template <typename T> void storeRelease(T& field, T value)
{
    std::atomic_ref<T>(field).store(value, std::memory_order_release);
}

bool movesBytes(trace::Call call)
{
    using trace::Call;
    switch (call) {
    case Call::Write:
    case Call::PWrite:
    case Call::WriteV:
    case Call::PWriteV:
    case Call::Read:
    case Call::PRead:
    case Call::ReadV:
    case Call::PReadV:
    case Call::FWrite:
    case Call::FPutc:
    case Call::FPuts:
    case Call::FPrintf:
    case Call::FRead:
    case Call::FGetc:
    case Call::FGets:
        return true;
    default:
        return false;
    }
}

} // namespace

std::uint32_t openFlagsOfMode(const char* mode)
{
    std::uint32_t bits = 0;
    if (!mode)
        return bits;
    switch (mode[0]) {
    case 'r':
        bits |= trace::OpenRead;
        break;
    case 'w':
        bits |= trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate;
        break;
    case 'a':
        bits |= trace::OpenWrite | trace::OpenCreate | trace::OpenAppend;
        break;
    default:
        break;
    }
    for (const char* c = mode + 1; *c && *c != ','; ++c) {
        if (*c == '+')
            bits |= trace::OpenRead | trace::OpenWrite;
        else if (*c == 'x')
            bits |= trace::OpenExclusive;
    }
    return bits;
}

struct PartWriter::ThreadState
{
    std::uint64_t generation = 0;
    unsigned char* chunk = nullptr; // its ChunkHeader
    std::uint32_t used = 0;
    trace::EventRecord* last = nullptr; // the record the next identical call extends
};

PartWriter::ThreadState& PartWriter::threadState()
{
    // initial-exec: a preloaded library's thread_local must not go through __tls_get_addr on every call.
    [[gnu::tls_model("initial-exec")]] static thread_local ThreadState state;
    return state;
}

void PartWriter::forgetThread()
{
    threadState() = ThreadState{};
}

PartWriter::PartWriter(PartFile& file, trace::System system, std::uint32_t pid, std::uint32_t parentPid,
                       std::uint64_t startRealtimeNs, std::uint64_t startMonotonicNs)
    : m_file(file), m_generation(g_generations.fetch_add(1, std::memory_order_relaxed) + 1)
{
    if (!m_file.growTo(kFirstBytes))
        return;
    m_mappedBytes.store(kFirstBytes, std::memory_order_release);
    trace::PartHeader header{};
    std::memcpy(header.magic, trace::kMagic, sizeof header.magic);
    header.version = trace::kVersion;
    header.headerBytes = kHeaderBytes;
    header.chunkBytes = kChunkBytes;
    header.system = static_cast<std::uint16_t>(system);
    header.pid = pid;
    header.parentPid = parentPid;
    header.startRealtimeNs = startRealtimeNs;
    header.startMonotonicNs = startMonotonicNs;
    std::memcpy(m_file.base(), &header, sizeof header);
    m_ready = true;
}

unsigned char* PartWriter::reserve(ThreadState& state, std::uint32_t tid, std::uint32_t bytes)
{
    constexpr std::uint32_t room = kChunkBytes - sizeof(trace::ChunkHeader);
    if (state.generation == m_generation && state.chunk && state.used + bytes <= room)
        return state.chunk + sizeof(trace::ChunkHeader) + state.used;
    if (bytes > room)
        return nullptr;
    const std::uint64_t index = m_nextChunk.fetch_add(1, std::memory_order_relaxed);
    const std::uint64_t start = kHeaderBytes + index * kChunkBytes;
    const std::uint64_t end = start + kChunkBytes;
    while (end > m_mappedBytes.load(std::memory_order_acquire)) {
        // One thread grows the mapping; the others wait for it.
        if (m_growing.test_and_set(std::memory_order_acquire))
            continue;
        const std::uint64_t mapped = m_mappedBytes.load(std::memory_order_acquire);
        bool grown = true;
        if (end > mapped) {
            const std::uint64_t step = std::min(mapped, kLargestStepBytes);
            const std::uint64_t wanted =
                std::max((end + kFirstBytes - 1) / kFirstBytes * kFirstBytes, mapped + step);
            grown = m_file.growTo(wanted);
            if (grown)
                m_mappedBytes.store(wanted, std::memory_order_release);
        }
        m_growing.clear(std::memory_order_release);
        if (!grown) {
            state = ThreadState{};
            return nullptr;
        }
    }
    unsigned char* chunk = m_file.base() + start;
    auto* header = reinterpret_cast<trace::ChunkHeader*>(chunk);
    header->tid = tid;
    header->usedBytes = 0;
    storeRelease(header->magic, trace::kChunkMagic);
    state.generation = m_generation;
    state.chunk = chunk;
    state.used = 0;
    state.last = nullptr;
    return chunk + sizeof(trace::ChunkHeader);
}

std::uint64_t PartWriter::usedBytes() const
{
    const std::uint64_t taken = kHeaderBytes + m_nextChunk.load(std::memory_order_relaxed) * kChunkBytes;
    return std::min(taken, m_mappedBytes.load(std::memory_order_acquire));
}

void PartWriter::commit(ThreadState& state)
{
    storeRelease(reinterpret_cast<trace::ChunkHeader*>(state.chunk)->usedBytes, state.used);
}

bool PartWriter::extendsLast(const ThreadState& state, const Call& call) const
{
    const trace::EventRecord* last = state.last;
    if (!last || state.generation != m_generation || call.error != 0 || last->error != 0 ||
        !call.path.empty())
        return false;
    if (last->call != static_cast<std::uint16_t>(call.call) || last->handle != call.handle ||
        last->bytes_ != call.bytes || last->flags != call.flags || last->result != call.result ||
        last->pathBytes != 0 || last->count == UINT32_MAX)
        return false;
    if (!movesBytes(call.call))
        return last->offset == call.offset;
    if (call.offset < 0 || last->offset < 0)
        return call.offset < 0 && last->offset < 0;
    return static_cast<std::uint64_t>(call.offset) ==
           static_cast<std::uint64_t>(last->offset) + last->bytes_ * last->count;
}

bool PartWriter::record(std::uint32_t tid, const Call& call)
{
    if (!m_ready)
        return false;
    ThreadState& state = threadState();
    if (extendsLast(state, call)) {
        trace::EventRecord& last = *state.last;
        last.insideNs += call.endNs - call.startNs;
        last.endNs = call.endNs;
        last.count += 1;
        return true;
    }
    const auto pathBytes = static_cast<std::uint16_t>(std::min<std::size_t>(call.path.size(), 8192));
    const auto path2Bytes = static_cast<std::uint16_t>(std::min<std::size_t>(call.path2.size(), 8192));
    const std::uint32_t bytes =
        trace::roundUp8(static_cast<std::uint32_t>(sizeof(trace::EventRecord)) + pathBytes + path2Bytes);
    unsigned char* at = reserve(state, tid, bytes);
    if (!at) {
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    auto* event = reinterpret_cast<trace::EventRecord*>(at);
    event->type = static_cast<std::uint16_t>(trace::RecordType::Event);
    event->bytes = static_cast<std::uint16_t>(bytes);
    event->call = static_cast<std::uint16_t>(call.call);
    event->pathBytes = pathBytes;
    event->path2Bytes = path2Bytes;
    event->reserved = 0;
    event->reserved2 = 0;
    event->tid = tid;
    event->error = call.error;
    event->count = 1;
    event->flags = call.flags;
    event->handle = call.handle;
    event->bytes_ = call.bytes;
    event->offset = call.offset;
    event->result = call.result;
    event->startNs = call.startNs;
    event->endNs = call.endNs;
    event->insideNs = call.endNs - call.startNs;
    // An empty path's data() may be null, which memcpy must not be given even for no bytes.
    if (pathBytes > 0)
        std::memcpy(at + sizeof(trace::EventRecord), call.path.data(), pathBytes);
    if (path2Bytes > 0)
        std::memcpy(at + sizeof(trace::EventRecord) + pathBytes, call.path2.data(), path2Bytes);
    state.used += bytes;
    state.last = event;
    commit(state);
    return true;
}

bool PartWriter::extendUntimed(const Call& call)
{
    if (!m_ready)
        return false;
    ThreadState& state = threadState();
    if (!extendsLast(state, call))
        return false;
    state.last->count += 1;
    return true;
}

// A record of a fixed part (its type and bytes filled in here) and a text after it, in the calling thread's
// chunk.
template <typename Record>
void PartWriter::append(std::uint32_t tid, Record record, std::string_view text, std::size_t largestText)
{
    if (!m_ready)
        return;
    ThreadState& state = threadState();
    const auto textBytes = static_cast<std::uint16_t>(std::min(text.size(), largestText));
    const std::uint32_t bytes = trace::roundUp8(static_cast<std::uint32_t>(sizeof record) + textBytes);
    unsigned char* at = reserve(state, tid, bytes);
    if (!at)
        return;
    record.bytes = static_cast<std::uint16_t>(bytes);
    std::memcpy(at, &record, sizeof record);
    if (textBytes > 0)
        std::memcpy(at + sizeof record, text.data(), textBytes);
    state.used += bytes;
    state.last = nullptr;
    commit(state);
}

void PartWriter::note(std::uint32_t tid, trace::NoteKind kind, std::uint32_t count, std::uint64_t atNs,
                      std::string_view text)
{
    trace::NoteRecord note{};
    note.type = static_cast<std::uint16_t>(trace::RecordType::Note);
    note.kind = static_cast<std::uint16_t>(kind);
    note.textBytes = static_cast<std::uint16_t>(std::min<std::size_t>(text.size(), kLargestNoteText));
    note.tid = tid;
    note.count = count;
    note.atNs = atNs;
    append(tid, note, text, kLargestNoteText);
}

void PartWriter::process(std::uint32_t tid, std::string_view text, std::uint16_t argumentCount)
{
    trace::ProcessRecord record{};
    record.type = static_cast<std::uint16_t>(trace::RecordType::Process);
    record.textBytes = static_cast<std::uint16_t>(std::min<std::size_t>(text.size(), kLargestProcessText));
    record.argumentCount = argumentCount;
    append(tid, record, text, kLargestProcessText);
}

void PartWriter::exit(std::uint32_t tid, std::int32_t status, std::uint64_t atNs)
{
    trace::ExitRecord record{};
    record.type = static_cast<std::uint16_t>(trace::RecordType::Exit);
    record.status = status;
    record.atNs = atNs;
    append(tid, record, {}, 0);
}

} // namespace iolab::recorder
