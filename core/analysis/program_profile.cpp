// SPDX-License-Identifier: MIT
#include "program_profile.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

namespace iolab {

void SizeHistogram::add(std::uint64_t bytes, std::uint64_t count)
{
    const auto bucket = std::min<std::size_t>(static_cast<std::size_t>(std::bit_width(bytes)), kBuckets - 1);
    if (calls[bucket] == 0 || bytes < smallest[bucket])
        smallest[bucket] = bytes;
    largest[bucket] = std::max(largest[bucket], bytes);
    calls[bucket] += count;
}

std::uint64_t SizeHistogram::total() const
{
    std::uint64_t sum = 0;
    for (std::uint64_t c : calls)
        sum += c;
    return sum;
}

std::uint64_t SizeHistogram::lowerBound(std::size_t bucket)
{
    return bucket == 0 ? 0 : std::uint64_t{1} << (bucket - 1);
}

std::size_t SizeHistogram::fullest() const
{
    const auto most = std::max_element(calls.begin(), calls.end());
    return *most == 0 ? kBuckets : static_cast<std::size_t>(most - calls.begin());
}

namespace {

constexpr std::size_t kNoFile = SIZE_MAX;

bool isStreamPut(trace::Call call)
{
    using trace::Call;
    return call == Call::FWrite || call == Call::FPutc || call == Call::FPuts || call == Call::FPrintf;
}

bool isStreamGet(trace::Call call)
{
    using trace::Call;
    return call == Call::FRead || call == Call::FGetc || call == Call::FGets;
}

bool createsFile(std::uint32_t flags)
{
    return (flags & trace::OpenInherited) == 0 &&
           (((flags & trace::OpenCreate) && (flags & trace::OpenTruncate)) ||
            (flags & trace::OpenExclusive) || (flags & trace::OpenTmpfile));
}

} // namespace

struct ProgramProfiler::State
{
    using Key = std::pair<std::uint32_t, std::uint64_t>; // (process, handle)
    struct KeyHash
    {
        std::size_t operator()(const Key& key) const noexcept
        {
            return std::hash<std::uint64_t>()(key.second * 0x9E3779B97F4A7C15ull ^ key.first);
        }
    };
    struct Descriptor
    {
        std::size_t file = kNoFile;
        std::int64_t position = 0;      // -1: not known
        std::int64_t lastWriteEnd = -1; // where the last write ended, -1: none yet or not known
        bool append = false;
        bool durable = false; // O_SYNC or O_DSYNC: each write returns durable
    };
    struct Stream
    {
        std::size_t file = kNoFile;
        std::uint64_t buffered = 0; // put, not yet handed to the system
    };

    std::vector<FileProfile> files;
    std::vector<std::uint64_t> pending;   // per file: handed to the system, not yet durable
    std::vector<std::uint64_t> sinceSync; // per file: written since its last sync
    std::unordered_map<std::string, std::size_t> byPath;
    std::unordered_map<Key, Descriptor, KeyHash> descriptors;
    std::unordered_map<Key, Stream, KeyHash> streams;
    std::unordered_map<Key, std::size_t, KeyHash> mappings;
    std::set<std::pair<std::uint32_t, std::uint32_t>> threads;
    std::uint64_t atRisk = 0;
    ProgramProfile profile;

    std::size_t fileFor(const std::string& path)
    {
        if (path.empty())
            return kNoFile;
        auto [it, added] = byPath.try_emplace(path, files.size());
        if (added) {
            FileProfile file;
            file.path = path;
            file.kind = fileKindOf(path);
            files.push_back(std::move(file));
            pending.push_back(0);
            sinceSync.push_back(0);
        }
        return it->second;
    }

    bool regular(std::size_t file) const { return file != kNoFile && files[file].kind == FileKind::Regular; }

    void addPending(std::size_t file, std::uint64_t bytes)
    {
        if (!regular(file))
            return;
        pending[file] += bytes;
        sinceSync[file] += bytes;
        atRisk += bytes;
    }

    void noteRisk(std::uint64_t atNs)
    {
        if (atRisk > profile.maxAtRiskBytes) {
            profile.maxAtRiskBytes = atRisk;
            profile.maxAtRiskAtNs = atNs;
        }
    }

    void makeDurable(std::size_t file)
    {
        if (file == kNoFile)
            return;
        atRisk -= pending[file];
        pending[file] = 0;
        profile.largestBytesBetweenSyncs = std::max(profile.largestBytesBetweenSyncs, sinceSync[file]);
        sinceSync[file] = 0;
    }

    // A stream's buffered bytes handed to the system (a flush, a close, a buffer that filled): still at risk
    // (counted when put), now until the file's next sync.
    void flushStream(Stream& stream)
    {
        if (regular(stream.file))
            pending[stream.file] += stream.buffered;
        stream.buffered = 0;
    }

    Descriptor* descriptor(std::uint32_t process, std::uint64_t handle)
    {
        const auto it = descriptors.find({process, handle});
        return it == descriptors.end() ? nullptr : &it->second;
    }

    void recordSync(const TraceEvent& event, std::size_t file)
    {
        profile.syncs += event.count;
        const std::uint64_t each = event.insideNs / std::max<std::uint32_t>(event.count, 1);
        for (std::uint32_t i = 0; i < event.count; ++i)
            profile.syncTimes.record(each);
        if (file != kNoFile)
            files[file].syncs += event.count;
    }

    void open(const TraceEvent& event)
    {
        if (event.result < 0)
            return;
        const std::size_t file = fileFor(event.path);
        Descriptor descriptor;
        descriptor.file = file;
        descriptor.append = (event.flags & trace::OpenAppend) != 0;
        descriptor.durable =
            (event.flags & (trace::OpenSync | trace::OpenDSync | trace::OpenWriteThrough)) != 0;
        descriptor.position = (event.flags & trace::OpenInherited) ? -1 : 0;
        descriptors[{event.process, static_cast<std::uint64_t>(event.result)}] = descriptor;
        countOpen(file, event.flags);
    }

    // An open by the program itself (fopen or open): not one it was given.
    void countOpen(std::size_t file, std::uint32_t flags)
    {
        if (file == kNoFile || (flags & trace::OpenInherited))
            return;
        FileProfile& profileOfFile = files[file];
        profileOfFile.opens += 1;
        profileOfFile.openFlags |= flags;
        if (createsFile(flags))
            profileOfFile.creations += 1;
        if (flags & trace::OpenAppend)
            profileOfFile.appendOpens += 1;
    }

    void openStream(const TraceEvent& event)
    {
        if (event.result < 0)
            return;
        std::size_t file = fileFor(event.path);
        if (file == kNoFile && event.offset >= 0) {
            // fdopen, or a standard stream: the file of the descriptor under it
            if (const Descriptor* under = descriptor(event.process, static_cast<std::uint64_t>(event.offset)))
                file = under->file;
        }
        Stream& stream = streams[{event.process, event.handle}];
        flushStream(stream);
        stream.file = file;
        if (!event.path.empty() && event.offset >= 0) {
            Descriptor under;
            under.file = file;
            under.append = (event.flags & trace::OpenAppend) != 0;
            descriptors[{event.process, static_cast<std::uint64_t>(event.offset)}] = under;
        }
        if (!event.path.empty()) // fdopen's file was counted when its descriptor was opened
            countOpen(file, event.flags);
    }

    void write(const TraceEvent& event)
    {
        Descriptor* target = descriptor(event.process, event.handle);
        const std::uint64_t moved =
            event.result > 0 ? static_cast<std::uint64_t>(event.result) * event.count : 0;
        if (!target || target->file == kNoFile) {
            if (event.handle > 2) {
                profile.unseenDescriptorWrites += event.count;
                profile.unseenDescriptors.insert(event.handle);
            }
            return;
        }
        FileProfile& file = files[target->file];
        file.writeCalls += event.count;
        file.bytesWritten += moved;
        file.writeSizes.add(event.bytes, event.count);
        if (file.kind == FileKind::Regular) {
            profile.writeCalls += event.count;
            profile.bytesWritten += moved;
            profile.writeSizes.add(event.bytes, event.count);
        }
        // Sequential: where the descriptor's last write ended (the first write counts as sequential).
        std::int64_t start = event.offset;
        if (start < 0)
            start = target->append ? target->lastWriteEnd : target->position;
        const bool first = target->lastWriteEnd < 0 || start < 0 || start == target->lastWriteEnd;
        file.sequentialWrites += (first ? 1 : 0) + (event.count - 1);
        file.randomWrites += first ? 0 : 1;
        const std::int64_t end = start >= 0 ? start + static_cast<std::int64_t>(moved) : -1;
        target->lastWriteEnd = end;
        if (event.offset < 0)
            target->position = target->position >= 0 && !target->append ? end : -1;
        const bool durable = target->durable || (event.call == trace::Call::PWriteV &&
                                                 (event.flags & (trace::WriteDSync | trace::WriteSync)) != 0);
        if (durable)
            profile.durableWrites += event.count;
        else
            addPending(target->file, moved);
    }

    void read(const TraceEvent& event, std::size_t file)
    {
        const std::uint64_t moved =
            event.result > 0 ? static_cast<std::uint64_t>(event.result) * event.count : 0;
        if (file == kNoFile)
            return;
        FileProfile& profileOfFile = files[file];
        profileOfFile.readCalls += event.count;
        profileOfFile.bytesRead += moved;
        profileOfFile.readSizes.add(event.bytes, event.count);
        if (profileOfFile.kind == FileKind::Regular) {
            profile.readCalls += event.count;
            profile.bytesRead += moved;
            profile.readSizes.add(event.bytes, event.count);
        }
    }

    void streamPut(const TraceEvent& event)
    {
        auto it = streams.find({event.process, event.handle});
        // fputs returns a non-negative number, not its length (glibc: 1): the record's bytes are the
        // string's.
        const std::uint64_t each = event.call == trace::Call::FPuts
                                       ? (event.result >= 0 ? event.bytes : 0)
                                       : static_cast<std::uint64_t>(std::max<std::int64_t>(event.result, 0));
        const std::uint64_t moved = each * event.count;
        if (it == streams.end() || it->second.file == kNoFile)
            return;
        Stream& stream = it->second;
        FileProfile& file = files[stream.file];
        file.writeCalls += event.count;
        file.bytesWritten += moved;
        file.writeSizes.add(event.bytes, event.count);
        file.sequentialWrites += event.count;
        if (file.kind == FileKind::Regular) {
            profile.writeCalls += event.count;
            profile.bytesWritten += moved;
            profile.writeSizes.add(event.bytes, event.count);
            stream.buffered += moved;
            sinceSync[stream.file] += moved;
            atRisk += moved;
        }
    }

    void add(const TraceEvent& event)
    {
        using trace::Call;
        if ((event.call == Call::Open || event.call == Call::FOpen) && (event.flags & trace::OpenInherited)) {
            // What the program was given (its standard streams, a redirection): known by path, not a call of
            // its.
            if (event.call == Call::Open)
                open(event);
            else
                openStream(event);
            return;
        }
        profile.calls += event.count;
        profile.callCounts[event.call] += event.count;
        profile.insideNs += event.insideNs;
        threads.insert({event.process, event.tid});
        std::size_t file = kNoFile;
        if (const Descriptor* d = descriptor(event.process, event.handle);
            d && event.call != Call::Open && event.call != Call::FOpen && !isStreamPut(event.call) &&
            !isStreamGet(event.call) && event.call != Call::FFlush && event.call != Call::FClose &&
            event.call != Call::SetVBuf && event.call != Call::StreamSpill && event.call != Call::FSeek &&
            event.call != Call::Msync && event.call != Call::Munmap)
            file = d->file;
        if (isStreamPut(event.call) || isStreamGet(event.call) || event.call == Call::FFlush ||
            event.call == Call::FClose || event.call == Call::SetVBuf || event.call == Call::StreamSpill ||
            event.call == Call::FSeek) {
            const auto it = streams.find({event.process, event.handle});
            if (it != streams.end())
                file = it->second.file;
        }
        switch (event.call) {
        case Call::Open:
            open(event);
            file = fileFor(event.path);
            break;
        case Call::FOpen:
            openStream(event);
            file = fileFor(event.path);
            break;
        case Call::Close:
            descriptors.erase({event.process, event.handle});
            break;
        case Call::FClose:
            if (const auto it = streams.find({event.process, event.handle}); it != streams.end()) {
                flushStream(it->second);
                streams.erase(it);
            }
            break;
        case Call::Dup:
            if (event.result >= 0) {
                if (const Descriptor* d = descriptor(event.process, event.handle))
                    descriptors[{event.process, static_cast<std::uint64_t>(event.result)}] = *d;
            }
            break;
        case Call::SetFlags:
            if (Descriptor* d = descriptor(event.process, event.handle))
                d->append = (event.flags & trace::OpenAppend) != 0;
            break;
        case Call::Write:
        case Call::PWrite:
        case Call::WriteV:
        case Call::PWriteV:
            write(event);
            break;
        case Call::Read:
        case Call::PRead:
        case Call::ReadV:
        case Call::PReadV:
            read(event, file);
            break;
        case Call::Seek:
            if (Descriptor* d = descriptor(event.process, event.handle))
                d->position = event.result >= 0 ? event.result : -1;
            break;
        case Call::Fsync:
        case Call::Fdatasync:
            recordSync(event, file);
            if (event.result == 0)
                makeDurable(file);
            break;
        case Call::SyncFileRange:
            // Starts or waits for write-back of a range, without the metadata or a cache flush: not durable.
            if (file != kNoFile)
                files[file].syncs += event.count;
            break;
        case Call::Syncfs:
        case Call::Sync:
            recordSync(event, kNoFile);
            for (std::size_t f = 0; f < files.size(); ++f)
                makeDurable(f);
            break;
        case Call::Mmap:
            if (event.result != -1 && file != kNoFile)
                mappings[{event.process, static_cast<std::uint64_t>(event.result)}] = file;
            break;
        case Call::Msync:
            if (const auto it = mappings.find({event.process, event.handle}); it != mappings.end()) {
                file = it->second;
                if (event.flags & trace::MapSyncWait) {
                    recordSync(event, file);
                    makeDurable(file);
                }
            }
            break;
        case Call::Munmap:
            mappings.erase({event.process, event.handle});
            break;
        case Call::Rename:
            if (event.result == 0) {
                const std::size_t from = fileFor(event.path);
                const bool replaces = byPath.contains(event.path2);
                const std::size_t to = fileFor(event.path2);
                files[from].renamedAway += 1;
                if (replaces) {
                    files[to].replacedByRename += 1;
                    profile.atomicReplaces += 1;
                }
            }
            break;
        case Call::Unlink:
            if (event.result == 0)
                files[fileFor(event.path)].deletions += 1;
            break;
        case Call::CopyFileRange:
        case Call::SendFile:
            write(event);
            if (const Descriptor* in = descriptor(event.process, event.flags))
                read(event, in->file);
            break;
        case Call::FFlush:
            if (event.handle == 0) {
                for (auto& [key, stream] : streams) {
                    if (key.first == event.process)
                        flushStream(stream);
                }
            } else if (const auto it = streams.find({event.process, event.handle}); it != streams.end()) {
                flushStream(it->second);
            }
            break;
        case Call::StreamSpill:
            if (const auto it = streams.find({event.process, event.handle}); it != streams.end())
                flushStream(it->second);
            break;
        case Call::FWrite:
        case Call::FPutc:
        case Call::FPuts:
        case Call::FPrintf:
            streamPut(event);
            break;
        case Call::FRead:
        case Call::FGetc:
        case Call::FGets:
            read(event, file);
            break;
        default:
            break;
        }
        if (file != kNoFile) {
            files[file].calls[event.call] += event.count;
            files[file].insideNs += event.insideNs;
            files[file].threads.insert({event.process, event.tid});
        }
        noteRisk(event.endNs);
    }
};

ProgramProfiler::ProgramProfiler() : m_state(std::make_unique<State>()) {}
ProgramProfiler::~ProgramProfiler() = default;

void ProgramProfiler::add(const TraceEvent& event)
{
    m_state->add(event);
}

ProgramProfile ProgramProfiler::finish(std::vector<TraceProcess> processes, std::vector<TraceNote> notes)
{
    State& state = *m_state;
    ProgramProfile profile = std::move(state.profile);
    profile.threads = state.threads.size();
    std::uint64_t first = UINT64_MAX;
    std::uint64_t last = 0;
    for (const TraceProcess& process : processes) {
        first = std::min(first, process.startNs);
        last = std::max(last, process.endNs);
    }
    profile.wallNs = last > first && first != UINT64_MAX ? last - first : 0;
    for (std::size_t f = 0; f < state.files.size(); ++f)
        profile.largestBytesBetweenSyncs = std::max(profile.largestBytesBetweenSyncs, state.sinceSync[f]);
    profile.files = std::move(state.files);
    std::stable_sort(profile.files.begin(), profile.files.end(),
                     [](const FileProfile& a, const FileProfile& b) {
                         const bool aRegular = a.kind == FileKind::Regular;
                         const bool bRegular = b.kind == FileKind::Regular;
                         if (aRegular != bRegular)
                             return aRegular;
                         return a.bytesWritten + a.bytesRead > b.bytesWritten + b.bytesRead;
                     });
    profile.processes = std::move(processes);
    profile.notes = std::move(notes);
    m_state = std::make_unique<State>();
    return profile;
}

} // namespace iolab
