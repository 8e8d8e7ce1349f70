// SPDX-License-Identifier: MIT
#include "core/engine/replay_script.h"

#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/base/units.h"
#include "core/engine/data_sets.h"
#include "core/model/axes.h"
#include "core/model/case.h"
#include "core/model/result.h"
#include "core/model/trace_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <unordered_map>

namespace iolab {

bool isReplayWrite(trace::Call call)
{
    using trace::Call;
    switch (call) {
    case Call::Write:
    case Call::PWrite:
    case Call::WriteV:
    case Call::PWriteV:
    case Call::FWrite:
    case Call::FPutc:
    case Call::FPuts:
    case Call::FPrintf:
    case Call::CopyFileRange:
    case Call::SendFile:
        return true;
    default:
        return false;
    }
}

bool isReplaySync(const ReplayStep& step)
{
    using trace::Call;
    switch (step.call) {
    case Call::Fsync:
    case Call::Fdatasync:
    case Call::SyncFileRange:
    case Call::Syncfs:
    case Call::Sync:
        return true;
    case Call::Msync:
        return (step.flags & trace::MapSyncWait) != 0;
    default:
        return false;
    }
}

bool mayRunBesideSync(const ReplayStep& step)
{
    using trace::Call;
    return isReplayWrite(step.call) || isReplaySync(step) || step.call == Call::Read ||
           step.call == Call::PRead || step.call == Call::ReadV || step.call == Call::PReadV ||
           step.call == Call::FRead;
}

void countReplayStep(ReplayScript& script, const ReplayStep& step, bool recorded)
{
    using trace::Call;
    if (recorded) {
        script.calls += step.count;
        if (isReplayWrite(step.call))
            script.writeCalls += step.count;
        if (isReplaySync(step))
            script.syncCalls += step.count;
    }
    if (isReplayWrite(step.call) || step.call == Call::Read || step.call == Call::PRead ||
        step.call == Call::ReadV || step.call == Call::PReadV || step.call == Call::FRead)
        script.largestCallBytes = std::max(script.largestCallBytes, step.bytes);
}

namespace {

using trace::Call;

constexpr std::uint32_t kNone = kNoReplaySlot;
constexpr std::uint32_t kSeekEnd = 2; // SEEK_END, FILE_END
constexpr std::uint32_t kSeekCurrent = 1;

const char* const kNotAFile = "on a terminal, pipe, socket or device (not a file)";
const char* const kUnseenHandle = "on a handle the recording never saw opened";
const char* const kFailed = "that failed when recorded (other than opens)";
const char* const kFreopen = "freopen (a stream reopened in place)";
const char* const kPartialMap = "msync or munmap of part of a mapping";

// A file's contents as the replay will have them: its size, and for a file that existed before the program
// ran, the size it must have been (grown as reads and seeks past the known end show more).
struct Inode
{
    std::uint64_t size = 0;
    std::uint64_t initial = 0;
    bool staged = false;
    std::uint32_t firstFile = kNone; // the name it was first seen under
};

// An open file description: what a descriptor and its dups share.
struct Description
{
    std::uint32_t inode = kNone; // kNone: not a file (terminal, pipe): calls on it are left out
    std::uint64_t position = 0;
    bool append = false;
    bool durable = false; // O_SYNC, O_DSYNC, write-through: each write returns durable
};

enum class SlotKind
{
    Descriptor,
    Stream,
    Mapping
};

struct Slot
{
    SlotKind kind = SlotKind::Descriptor;
    std::uint32_t description = kNone;
    // streams
    std::uint64_t position = 0;
    std::uint64_t buffer = kDefaultStreamBuffer;
    bool writes = false;
    std::uint64_t fd = 0; // the descriptor under it, in its process's numbers
    bool ownsFd = false;  // fopen's: fclose closes the descriptor
    std::uint64_t mappedBytes = 0;
};

// The last step that touched a handle or a file: which thread, how far it had got, and when (the global order
// of steps) so that the two most recent of a step's touches become its waits.
struct Touch
{
    std::uint32_t thread = kNone;
    std::uint32_t steps = 0;
    std::uint64_t order = 0;
    std::uint64_t endNs = 0; // when the touching call returned, in the recording
    bool sync = false;       // the touching call was a sync: it changed no byte
};

struct HandleKey
{
    std::uint32_t pid;
    std::uint8_t space; // 0 descriptors, 1 streams, 2 mappings
    std::uint64_t handle;
    bool operator==(const HandleKey&) const = default;
};

struct HandleKeyHash
{
    std::size_t operator()(const HandleKey& k) const noexcept
    {
        return std::hash<std::uint64_t>()(k.handle * 1315423911u + std::uint64_t{k.pid} * 2654435761u +
                                          k.space);
    }
};

struct PendingFork
{
    std::uint32_t parentPid = 0;
    std::uint32_t parentThread = kNone;
    std::uint32_t parentSteps = 0;
    std::uint64_t order = 0;
    bool copied = false;
};

// A call on a handle as a step: its kind, run length, flags, size and offset as recorded.
ReplayStep stepOf(const TraceEvent& event, std::uint32_t slot)
{
    ReplayStep step;
    step.call = event.call;
    step.count = event.count;
    step.flags = event.flags;
    step.slot = slot;
    step.bytes = event.bytes;
    step.offset = event.offset;
    return step;
}

class Builder
{
public:
    Builder(ReplayScript& script, const std::vector<TraceProcess>& processes)
        : m_script(script), m_processes(processes)
    {}

    void add(const TraceEvent& event);
    void finish();

private:
    std::uint32_t threadFor(const TraceEvent& event);
    std::uint32_t fileFor(const std::string& path, bool directory);
    std::uint32_t inodeAt(std::uint32_t file) const;
    std::uint32_t stageAt(std::uint32_t file);
    void setInodeSize(std::uint32_t inode, std::uint64_t size);
    // A read or a seek shows the file held at least `end` bytes.
    void sawEnd(std::uint32_t inode, std::uint64_t end);
    std::uint32_t newSlot(Slot slot);
    std::uint32_t bound(std::uint32_t pid, std::uint8_t space, std::uint64_t handle) const;
    void bind(std::uint32_t pid, std::uint8_t space, std::uint64_t handle, std::uint32_t slot);
    void unbind(std::uint32_t pid, std::uint8_t space, std::uint64_t handle);
    void leaveOut(const char* reason, std::uint64_t calls) { m_script.leftOut[reason] += calls; }
    void copyForkedHandles(std::uint32_t pid, std::uint32_t thread);
    // Appends `step` to `thread` with its waits on the other threads that last touched what it touches.
    void push(std::uint32_t thread, ReplayStep step, const TraceEvent* event,
              std::initializer_list<Touch*> touches);
    Touch& slotTouch(std::uint32_t slot);
    Touch& fileTouch(std::uint32_t file);

    void open(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid);
    void openStream(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid);
    void onDescriptor(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid);
    void onStream(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid);
    void onMapping(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid);
    void onNames(const TraceEvent& event, std::uint32_t thread);

    ReplayScript& m_script;
    const std::vector<TraceProcess>& m_processes;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> m_threads; // (pid, tid)
    std::vector<std::uint64_t> m_threadEnd;
    std::unordered_map<std::string, std::uint32_t> m_fileIndex;
    std::vector<bool> m_openedAsDirectory;
    std::vector<std::uint32_t> m_fileInode; // each name's current file, kNone when there is none
    std::vector<bool> m_fileSeen;           // the name was touched (for staging: first touch decides)
    std::vector<Inode> m_inodes;
    std::vector<Description> m_descriptions;
    std::vector<Slot> m_slots;
    std::unordered_map<HandleKey, std::uint32_t, HandleKeyHash> m_handles;
    std::vector<Touch> m_slotTouches;
    std::vector<Touch> m_fileTouches;
    std::map<std::uint32_t, PendingFork> m_forks; // by the child's pid
    std::uint64_t m_order = 0;
    std::uint64_t m_liveBytes = 0;
};

std::uint32_t Builder::threadFor(const TraceEvent& event)
{
    const std::uint32_t pid = m_processes.at(event.process).pid;
    const auto key = std::make_pair(pid, event.tid);
    if (const auto it = m_threads.find(key); it != m_threads.end())
        return it->second;
    const auto index = static_cast<std::uint32_t>(m_script.threads.size());
    ReplayThread thread;
    thread.pid = pid;
    thread.tid = event.tid;
    thread.startNs = event.startNs;
    m_script.threads.push_back(std::move(thread));
    m_threadEnd.push_back(0);
    m_threads.emplace(key, index);
    return index;
}

std::uint32_t Builder::fileFor(const std::string& path, bool directory)
{
    auto [it, added] = m_fileIndex.try_emplace(path, static_cast<std::uint32_t>(m_script.files.size()));
    if (added) {
        ReplayFile file;
        file.recordedPath = path;
        m_script.files.push_back(std::move(file));
        m_openedAsDirectory.push_back(false);
        m_fileInode.push_back(kNone);
        m_fileSeen.push_back(false);
        m_fileTouches.emplace_back();
    }
    if (directory)
        m_openedAsDirectory[it->second] = true;
    return it->second;
}

std::uint32_t Builder::inodeAt(std::uint32_t file) const
{
    return m_fileInode[file];
}

// The name's file, which existed before the program ran when this is the first the recording saw of it.
std::uint32_t Builder::stageAt(std::uint32_t file)
{
    if (m_fileInode[file] != kNone)
        return m_fileInode[file];
    Inode inode;
    inode.staged = !m_fileSeen[file];
    inode.firstFile = file;
    m_inodes.push_back(inode);
    m_fileInode[file] = static_cast<std::uint32_t>(m_inodes.size() - 1);
    m_fileSeen[file] = true;
    return m_fileInode[file];
}

void Builder::setInodeSize(std::uint32_t inode, std::uint64_t size)
{
    Inode& node = m_inodes[inode];
    m_liveBytes = m_liveBytes - node.size + size;
    node.size = size;
    m_script.peakFileBytes = std::max(m_script.peakFileBytes, m_liveBytes);
}

void Builder::sawEnd(std::uint32_t inode, std::uint64_t end)
{
    Inode& node = m_inodes[inode];
    if (node.staged && end > node.size) {
        node.initial += end - node.size;
        setInodeSize(inode, end);
    }
}

std::uint32_t Builder::newSlot(Slot slot)
{
    m_slots.push_back(slot);
    m_slotTouches.emplace_back();
    return static_cast<std::uint32_t>(m_slots.size() - 1);
}

std::uint32_t Builder::bound(std::uint32_t pid, std::uint8_t space, std::uint64_t handle) const
{
    const auto it = m_handles.find(HandleKey{pid, space, handle});
    return it == m_handles.end() ? kNone : it->second;
}

void Builder::bind(std::uint32_t pid, std::uint8_t space, std::uint64_t handle, std::uint32_t slot)
{
    m_handles[HandleKey{pid, space, handle}] = slot;
}

void Builder::unbind(std::uint32_t pid, std::uint8_t space, std::uint64_t handle)
{
    m_handles.erase(HandleKey{pid, space, handle});
}

Touch& Builder::slotTouch(std::uint32_t slot)
{
    return m_slotTouches[slot];
}

Touch& Builder::fileTouch(std::uint32_t file)
{
    return m_fileTouches[file];
}

void Builder::push(std::uint32_t thread, ReplayStep step, const TraceEvent* event,
                   std::initializer_list<Touch*> touches)
{
    ReplayThread& t = m_script.threads[thread];
    const auto index = static_cast<std::uint32_t>(t.steps.size());
    // The two most recent touches by other threads.
    std::array<const Touch*, 2> latest{nullptr, nullptr};
    for (const Touch* touch : touches) {
        if (touch == nullptr || touch->thread == kNone || touch->thread == thread)
            continue;
        if (latest[0] == nullptr || touch->order > latest[0]->order) {
            latest[1] = latest[0];
            latest[0] = touch;
        } else if (latest[1] == nullptr || touch->order > latest[1]->order) {
            latest[1] = touch;
        }
    }
    // A call the program made while another thread's sync of the same handle or file was still under way
    // waits only for that sync to have begun: the two overlapped in the program, and a sync changes no byte.
    for (std::size_t i = 0; i < latest.size(); ++i)
        if (latest[i] != nullptr)
            step.waits[i] = ReplayWait{latest[i]->thread, latest[i]->steps,
                                       latest[i]->sync && event != nullptr &&
                                           latest[i]->endNs > event->startNs && mayRunBesideSync(step)};
    ++m_order;
    const bool sync = isReplaySync(step);
    for (Touch* touch : touches)
        if (touch != nullptr)
            *touch = Touch{thread, index + 1, m_order, event != nullptr ? event->endNs : 0, sync};
    if (event != nullptr) {
        step.gapNs = event->startNs > m_threadEnd[thread] ? event->startNs - m_threadEnd[thread] : 0;
        m_threadEnd[thread] = std::max(m_threadEnd[thread], event->endNs);
        step.recordedNs = event->insideNs;
        m_script.recordedInsideNs += event->insideNs;
    }
    countReplayStep(m_script, step, event != nullptr);
    t.steps.push_back(step);
}

void Builder::copyForkedHandles(std::uint32_t pid, std::uint32_t thread)
{
    auto it = m_forks.find(pid);
    if (it == m_forks.end() || it->second.copied)
        return;
    it->second.copied = true;
    const PendingFork& fork = it->second;
    std::vector<std::pair<HandleKey, std::uint32_t>> parents;
    for (const auto& [key, slot] : m_handles)
        if (key.pid == fork.parentPid)
            parents.emplace_back(key, slot);
    std::sort(parents.begin(), parents.end(), [](const auto& a, const auto& b) {
        return a.first.space != b.first.space ? a.first.space < b.first.space
                                              : a.first.handle < b.first.handle;
    });
    Touch parent{fork.parentThread, fork.parentSteps, fork.order};
    for (const auto& [key, slot] : parents) {
        if (key.space != 0) { // streams and mappings: the child works on the same ones
            bind(pid, key.space, key.handle, slot);
            continue;
        }
        const Slot& from = m_slots[slot];
        if (from.description == kNone || m_descriptions[from.description].inode == kNone) {
            bind(pid, key.space, key.handle, slot); // not a file: its calls are left out either way
            continue;
        }
        Slot copy = from;
        const std::uint32_t child = newSlot(copy);
        bind(pid, 0, key.handle, child);
        ReplayStep step;
        step.call = Call::Dup;
        step.synthetic = 1;
        step.slot = slot;
        step.slot2 = child;
        push(thread, step, nullptr, {&parent, &slotTouch(slot), &slotTouch(child)});
    }
}

void Builder::add(const TraceEvent& event)
{
    const std::uint32_t pid = m_processes.at(event.process).pid;
    switch (event.call) {
    case Call::Fork:
        if (event.result > 0 && event.error == 0) {
            PendingFork fork;
            fork.parentPid = pid;
            fork.parentThread = threadFor(event);
            fork.parentSteps = static_cast<std::uint32_t>(m_script.threads[fork.parentThread].steps.size());
            fork.order = ++m_order;
            m_forks[static_cast<std::uint32_t>(event.result)] = fork;
        }
        return;
    case Call::Exec:
        return;
    default:
        break;
    }
    const std::uint32_t thread = threadFor(event);
    copyForkedHandles(pid, thread);
    switch (event.call) {
    case Call::Open:
        open(event, thread, pid);
        return;
    case Call::FOpen:
        openStream(event, thread, pid);
        return;
    case Call::Rename:
    case Call::Unlink:
        onNames(event, thread);
        return;
    case Call::Sync: {
        if (event.error != 0)
            return leaveOut(kFailed, event.count);
        ReplayStep step;
        step.call = Call::Sync;
        step.count = event.count;
        step.risk = RiskSyncAll;
        push(thread, step, &event, {});
        return;
    }
    case Call::Mmap:
    case Call::Msync:
    case Call::Munmap:
        onMapping(event, thread, pid);
        return;
    case Call::FClose:
    case Call::SetVBuf:
    case Call::FWrite:
    case Call::FPutc:
    case Call::FPuts:
    case Call::FPrintf:
    case Call::FFlush:
    case Call::FRead:
    case Call::FGetc:
    case Call::FGets:
    case Call::FSeek:
    case Call::StreamSpill:
        onStream(event, thread, pid);
        return;
    default:
        onDescriptor(event, thread, pid);
        return;
    }
}

void Builder::open(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid)
{
    const bool inherited = (event.flags & trace::OpenInherited) != 0;
    const auto fd = static_cast<std::uint64_t>(event.result);
    if (inherited && bound(pid, 0, fd) != kNone)
        return; // an exec'd image's descriptor: the same one its process had before the exec
    if (fileKindOf(event.path) != FileKind::Regular || event.path.empty()) {
        if (event.error == 0) { // calls on it are left out, as not on a file
            Description d;
            m_descriptions.push_back(d);
            Slot slot;
            slot.description = static_cast<std::uint32_t>(m_descriptions.size() - 1);
            bind(pid, 0, fd, newSlot(slot));
        }
        if (!inherited)
            leaveOut(kNotAFile, event.count);
        return;
    }
    const bool directory = (event.flags & trace::OpenDirectory) != 0;
    const std::uint32_t file = fileFor(event.path, directory);
    ReplayStep step;
    step.call = Call::Open;
    step.count = 1;
    step.file = file;
    step.flags = event.flags;
    if (event.error != 0) {
        // Re-issued: it fails again, since the replay's file is where the program's was not.
        m_fileSeen[file] = true;
        step.error = event.error;
        push(thread, step, &event, {&fileTouch(file)});
        return;
    }
    const bool creates = (event.flags & trace::OpenCreate) != 0;
    std::uint32_t inode = inodeAt(file);
    if (inode == kNone) {
        if (creates && m_fileSeen[file]) { // known not to exist: made now
            m_inodes.push_back(Inode{});
            inode = static_cast<std::uint32_t>(m_inodes.size() - 1);
            m_inodes[inode].firstFile = file;
            m_fileInode[file] = inode;
        } else if (creates && (event.flags & (trace::OpenTruncate | trace::OpenExclusive)) != 0) {
            m_fileSeen[file] = true; // whatever was there, the open leaves an empty file
            m_inodes.push_back(Inode{});
            inode = static_cast<std::uint32_t>(m_inodes.size() - 1);
            m_inodes[inode].firstFile = file;
            m_fileInode[file] = inode;
        } else {
            inode = stageAt(file);
        }
    }
    m_fileSeen[file] = true;
    if ((event.flags & trace::OpenTruncate) != 0 && (event.flags & trace::OpenWrite) != 0)
        setInodeSize(inode, 0);
    Description d;
    d.inode = inode;
    d.append = (event.flags & trace::OpenAppend) != 0;
    d.durable = (event.flags & (trace::OpenSync | trace::OpenDSync | trace::OpenWriteThrough)) != 0;
    m_descriptions.push_back(d);
    Slot slot;
    slot.description = static_cast<std::uint32_t>(m_descriptions.size() - 1);
    const std::uint32_t index = newSlot(slot);
    bind(pid, 0, fd, index);
    step.slot2 = index;
    if (inherited) {
        // Open before the program ran: opened again as it is (nothing created or emptied), untimed.
        step.flags &= ~(trace::OpenCreate | trace::OpenTruncate | trace::OpenExclusive);
        step.synthetic = 1;
        push(thread, step, nullptr, {&fileTouch(file), &slotTouch(index)});
        return;
    }
    push(thread, step, &event, {&fileTouch(file), &slotTouch(index)});
}

void Builder::openStream(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid)
{
    const bool inherited = (event.flags & trace::OpenInherited) != 0;
    if (event.error != 0 && event.path.empty())
        return leaveOut(kFailed, event.count);
    if (!event.path.empty() && !inherited) {
        if (event.error == 0 && bound(pid, 1, event.handle) != kNone &&
            m_slots[bound(pid, 1, event.handle)].ownsFd) {
            // freopen of a stream that is still open: the stream's calls after it are left out.
            unbind(pid, 1, event.handle);
            return leaveOut(kFreopen, event.count);
        }
        // fopen: a descriptor of its own, under the stream.
        TraceEvent asOpen = event;
        asOpen.call = Call::Open;
        asOpen.result = event.error == 0 ? event.offset : -1;
        const std::size_t before = m_script.threads[thread].steps.size();
        open(asOpen, thread, pid);
        auto& steps = m_script.threads[thread].steps;
        if (steps.size() == before) // not a file
            return;
        ReplayStep& step = steps.back();
        step.call = Call::FOpen;
        if (event.error != 0)
            return;
        Slot stream;
        stream.kind = SlotKind::Stream;
        stream.description = m_slots[step.slot2].description;
        stream.writes = (event.flags & trace::OpenWrite) != 0;
        stream.fd = static_cast<std::uint64_t>(event.offset);
        stream.ownsFd = true;
        const Description& d = m_descriptions[stream.description];
        stream.position = d.append ? m_inodes[d.inode].size : 0;
        // The step makes the stream; the descriptor under it is bound to the stream's own.
        step.slot = step.slot2;
        step.slot2 = newSlot(stream);
        bind(pid, 1, event.handle, step.slot2);
        return;
    }
    // fdopen, or the standard streams over inherited descriptors.
    const std::uint32_t fdSlot = bound(pid, 0, static_cast<std::uint64_t>(event.offset));
    if (fdSlot == kNone) {
        if (!inherited)
            leaveOut(kUnseenHandle, event.count);
        return;
    }
    Slot stream;
    stream.kind = SlotKind::Stream;
    stream.description = m_slots[fdSlot].description;
    stream.writes = (event.flags & trace::OpenWrite) != 0;
    stream.fd = static_cast<std::uint64_t>(event.offset);
    const Description& d = m_descriptions[stream.description];
    stream.position = d.append && d.inode != kNone ? m_inodes[d.inode].size : d.position;
    const std::uint32_t index = newSlot(stream);
    bind(pid, 1, event.handle, index);
    if (d.inode == kNone) {
        if (!inherited)
            leaveOut(kNotAFile, event.count);
        return;
    }
    ReplayStep step;
    step.call = Call::FOpen;
    step.flags = event.flags;
    step.slot = fdSlot;
    step.slot2 = index;
    step.synthetic = inherited ? 1 : 0;
    push(thread, step, inherited ? nullptr : &event, {&slotTouch(fdSlot), &slotTouch(index)});
}

void Builder::onNames(const TraceEvent& event, std::uint32_t thread)
{
    const bool rename = event.call == Call::Rename;
    if (fileKindOf(event.path) != FileKind::Regular || event.path.empty() ||
        (rename && (fileKindOf(event.path2) != FileKind::Regular || event.path2.empty())))
        return leaveOut(kNotAFile, event.count);
    if (event.error != 0)
        return leaveOut(kFailed, event.count);
    ReplayStep step;
    step.call = event.call;
    step.file = fileFor(event.path, false);
    const std::uint32_t inode = stageAt(step.file);
    m_fileInode[step.file] = kNone;
    if (rename) {
        step.file2 = fileFor(event.path2, false);
        if (const std::uint32_t replaced = m_fileInode[step.file2]; replaced != kNone)
            setInodeSize(replaced, 0);
        m_fileInode[step.file2] = inode;
        m_fileSeen[step.file2] = true;
        step.content = inode; // no change to what is at risk: the file's publication (replay_variants.h)
        push(thread, step, &event, {&fileTouch(step.file), &fileTouch(step.file2)});
        return;
    }
    setInodeSize(inode, 0); // gone once closed; its space counted free at once
    step.content = inode;
    step.risk = RiskGone;
    push(thread, step, &event, {&fileTouch(step.file)});
}

void Builder::onDescriptor(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid)
{
    const std::uint32_t slot = bound(pid, 0, event.handle);
    if (slot == kNone)
        return leaveOut(kUnseenHandle, event.count);
    const Slot& s = m_slots[slot];
    Description& d = m_descriptions[s.description];
    if (event.call == Call::Close) {
        unbind(pid, 0, event.handle);
        if (d.inode == kNone)
            return;
        ReplayStep step;
        step.call = Call::Close;
        step.slot = slot;
        if (event.error != 0)
            return leaveOut(kFailed, event.count);
        push(thread, step, &event, {&slotTouch(slot)});
        return;
    }
    if (event.call == Call::Dup) {
        if (event.error != 0 || event.result < 0)
            return leaveOut(kFailed, event.count);
        const std::uint32_t copy = newSlot(s);
        bind(pid, 0, static_cast<std::uint64_t>(event.result), copy);
        if (d.inode == kNone)
            return;
        ReplayStep step;
        step.call = Call::Dup;
        step.slot = slot;
        step.slot2 = copy;
        push(thread, step, &event, {&slotTouch(slot), &slotTouch(copy)});
        return;
    }
    if (d.inode == kNone)
        return leaveOut(kNotAFile, event.count);
    if (event.error != 0)
        return leaveOut(kFailed, event.count);
    ReplayStep step = stepOf(event, slot);
    const std::uint64_t total = event.bytes * event.count;
    const std::uint64_t got =
        event.bytes * (event.count - 1) + static_cast<std::uint64_t>(std::max<std::int64_t>(event.result, 0));
    switch (event.call) {
    case Call::Write:
    case Call::WriteV: {
        const std::uint64_t at = d.append ? m_inodes[d.inode].size : d.position;
        step.dataAt = at;
        d.position = at + total;
        setInodeSize(d.inode, std::max(m_inodes[d.inode].size, at + total));
        m_script.bytesWritten += total;
        break;
    }
    case Call::PWrite:
    case Call::PWriteV: {
        const bool append = d.append || (event.flags & trace::WriteAppend) != 0;
        const std::uint64_t at = append ? m_inodes[d.inode].size : static_cast<std::uint64_t>(event.offset);
        step.dataAt = at;
        setInodeSize(d.inode, std::max(m_inodes[d.inode].size, at + total));
        m_script.bytesWritten += total;
        break;
    }
    case Call::Read:
    case Call::ReadV:
        sawEnd(d.inode, d.position + got);
        d.position += got;
        m_script.bytesRead += total;
        break;
    case Call::PRead:
    case Call::PReadV:
        sawEnd(d.inode, static_cast<std::uint64_t>(event.offset) + got);
        m_script.bytesRead += total;
        break;
    case Call::Seek:
        if (event.flags == kSeekEnd && event.result >= event.offset)
            sawEnd(d.inode, static_cast<std::uint64_t>(event.result - event.offset));
        d.position = static_cast<std::uint64_t>(std::max<std::int64_t>(event.result, 0));
        break;
    case Call::Ftruncate:
        setInodeSize(d.inode, event.bytes);
        break;
    case Call::Fallocate:
        if ((event.flags & kFallocKeepSize) == 0)
            setInodeSize(d.inode, std::max(m_inodes[d.inode].size,
                                           static_cast<std::uint64_t>(event.offset) + event.bytes));
        break;
    case Call::CopyFileRange:
    case Call::SendFile: {
        const std::uint32_t input = bound(pid, 0, event.flags);
        if (input == kNone || m_descriptions[m_slots[input].description].inode == kNone)
            return leaveOut(kNotAFile, event.count);
        step.slot2 = input;
        Description& in = m_descriptions[m_slots[input].description];
        const auto moved = static_cast<std::uint64_t>(std::max<std::int64_t>(event.result, 0));
        sawEnd(in.inode, in.position + moved);
        in.position += moved;
        step.bytes = moved; // what it moved, so that the replay's files grow the same
        const std::uint64_t at = event.offset >= 0 ? static_cast<std::uint64_t>(event.offset) : d.position;
        step.dataAt = at;
        if (event.offset < 0)
            d.position += moved;
        setInodeSize(d.inode, std::max(m_inodes[d.inode].size, at + moved));
        m_script.bytesWritten += moved;
        step.content = d.inode;
        step.risk = d.durable ? RiskNone : RiskWrite;
        push(thread, step, &event, {&slotTouch(slot), &slotTouch(input)});
        return;
    }
    case Call::SetFlags:
        d.append = (event.flags & trace::OpenAppend) != 0;
        break;
    default:
        break;
    }
    step.content = d.inode;
    if (event.call == Call::Write || event.call == Call::WriteV || event.call == Call::PWrite ||
        event.call == Call::PWriteV)
        step.risk =
            d.durable || (event.flags & (trace::WriteDSync | trace::WriteSync)) != 0 ? RiskNone : RiskWrite;
    else if (event.call == Call::Fsync || event.call == Call::Fdatasync)
        step.risk = RiskSync;
    else if (event.call == Call::Syncfs)
        step.risk = RiskSyncAll;
    push(thread, step, &event, {&slotTouch(slot)});
}

void Builder::onStream(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid)
{
    const std::uint32_t slot = bound(pid, 1, event.handle);
    if (slot == kNone)
        return leaveOut(kUnseenHandle, event.count);
    Slot& s = m_slots[slot];
    const std::uint32_t inode = s.description == kNone ? kNone : m_descriptions[s.description].inode;
    if (event.call == Call::FClose) {
        unbind(pid, 1, event.handle);
        if (s.ownsFd || inode != kNone)
            unbind(pid, 0, s.fd);
        if (inode == kNone)
            return;
        ReplayStep step;
        step.call = Call::FClose;
        step.slot = slot;
        step.content = inode;
        step.risk = m_descriptions[s.description].durable ? RiskFlushDurable : RiskFlush;
        push(thread, step, &event, {&slotTouch(slot)});
        return;
    }
    if (inode == kNone)
        return leaveOut(kNotAFile, event.count);
    if (event.error != 0 && event.call != Call::FGetc && event.call != Call::FGets &&
        event.call != Call::FRead)
        return leaveOut(kFailed, event.count);
    ReplayStep step = stepOf(event, slot);
    const bool append = m_descriptions[s.description].append;
    auto put = [&](std::uint64_t bytes) {
        const std::uint64_t at = append ? m_inodes[inode].size : s.position;
        step.dataAt = at;
        s.position = at + bytes;
        setInodeSize(inode, std::max(m_inodes[inode].size, at + bytes));
        m_script.bytesWritten += bytes;
    };
    auto get = [&](std::uint64_t asked, std::uint64_t got) {
        sawEnd(inode, s.position + got);
        s.position += got;
        m_script.bytesRead += asked;
    };
    const std::uint64_t total = event.bytes * event.count;
    const auto lastGot = static_cast<std::uint64_t>(std::max<std::int64_t>(event.result, 0));
    switch (event.call) {
    case Call::SetVBuf:
        s.buffer = event.bytes;
        break;
    case Call::FWrite:
    case Call::FPutc:
    case Call::FPuts:
    case Call::FPrintf:
        put(total);
        break;
    case Call::StreamSpill:
        // The buffer filled by putc macros the program inlined (or emptied by its getc ones): re-issued as
        // a whole buffer's fwrite (fread), which spills it the same way.
        step.bytes = s.buffer != 0 ? s.buffer : kDefaultStreamBuffer;
        step.flags = s.writes ? 1u : 0u;
        if (s.writes)
            put(step.bytes * event.count);
        else
            get(step.bytes * event.count, step.bytes * event.count);
        break;
    case Call::FRead:
        get(total, event.bytes * (event.count - 1) + lastGot);
        break;
    case Call::FGetc:
        get(event.count, event.result < 0 ? event.count - 1 : event.count);
        break;
    case Call::FGets:
        get(total, event.result < 0 ? 0 : total);
        break;
    case Call::FSeek:
        if (event.flags == kSeekEnd)
            s.position = static_cast<std::uint64_t>(
                std::max<std::int64_t>(static_cast<std::int64_t>(m_inodes[inode].size) + event.offset, 0));
        else if (event.flags == kSeekCurrent)
            s.position = static_cast<std::uint64_t>(
                std::max<std::int64_t>(static_cast<std::int64_t>(s.position) + event.offset, 0));
        else
            s.position = static_cast<std::uint64_t>(std::max<std::int64_t>(event.offset, 0));
        break;
    default:
        break;
    }
    step.content = inode;
    const bool durable = m_descriptions[s.description].durable;
    if (event.call == Call::FWrite || event.call == Call::FPutc || event.call == Call::FPuts ||
        event.call == Call::FPrintf)
        step.risk = RiskBuffered;
    else if (event.call == Call::FFlush || (event.call == Call::StreamSpill && s.writes))
        step.risk = RiskFlush;
    if (durable && step.risk == RiskFlush)
        step.risk = RiskFlushDurable; // handed over, durable at once: the buffer is all that waited
    push(thread, step, &event, {&slotTouch(slot)});
}

void Builder::onMapping(const TraceEvent& event, std::uint32_t thread, std::uint32_t pid)
{
    if (event.call == Call::Mmap) {
        const std::uint32_t fdSlot = bound(pid, 0, event.handle);
        if (fdSlot == kNone)
            return leaveOut(kUnseenHandle, event.count);
        if (m_descriptions[m_slots[fdSlot].description].inode == kNone)
            return leaveOut(kNotAFile, event.count);
        if (event.error != 0)
            return leaveOut(kFailed, event.count);
        Slot mapping;
        mapping.kind = SlotKind::Mapping;
        mapping.description = m_slots[fdSlot].description;
        mapping.mappedBytes = event.bytes;
        const std::uint32_t index = newSlot(mapping);
        bind(pid, 2, static_cast<std::uint64_t>(event.result), index);
        ReplayStep step = stepOf(event, fdSlot);
        step.slot2 = index;
        push(thread, step, &event, {&slotTouch(fdSlot), &slotTouch(index)});
        return;
    }
    const std::uint32_t slot = bound(pid, 2, event.handle);
    if (slot == kNone)
        return; // an anonymous mapping's, or one of a file the recording did not follow: not file I/O
    if (event.error != 0)
        return leaveOut(kFailed, event.count);
    if (event.bytes != m_slots[slot].mappedBytes)
        return leaveOut(kPartialMap, event.count);
    if (event.call == Call::Munmap)
        unbind(pid, 2, event.handle);
    ReplayStep step = stepOf(event, slot);
    step.content = m_descriptions[m_slots[slot].description].inode;
    if (event.call == Call::Msync && (event.flags & trace::MapSyncWait) != 0)
        step.risk = RiskSync;
    push(thread, step, &event, {&slotTouch(slot)});
}

std::string parentOf(const std::string& path)
{
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

void Builder::finish()
{
    // Folders: each folder a file was named in, and each directory the program opened, one d<N> each.
    std::map<std::string, std::uint32_t> folderIndex;
    const auto folderFor = [&](const std::string& path) {
        auto [it, added] = folderIndex.try_emplace(path, static_cast<std::uint32_t>(m_script.folders.size()));
        if (added)
            m_script.folders.push_back(fmt::format("d{}", m_script.folders.size() + 1));
        return it->second;
    };
    std::vector<bool> isFolder(m_script.files.size(), false);
    for (std::size_t i = 0; i < m_script.files.size(); ++i) {
        if (m_openedAsDirectory[i])
            isFolder[i] = true;
        if (const auto it = m_fileIndex.find(parentOf(m_script.files[i].recordedPath));
            it != m_fileIndex.end())
            isFolder[it->second] = true;
    }
    std::uint32_t fileNumber = 0;
    for (std::size_t i = 0; i < m_script.files.size(); ++i) {
        ReplayFile& file = m_script.files[i];
        if (isFolder[i]) {
            file.directory = true;
            file.folder = folderFor(file.recordedPath);
            file.relativePath = m_script.folders[file.folder];
            continue;
        }
        file.folder = folderFor(parentOf(file.recordedPath));
        file.relativePath = fmt::format("{}/f{:06}.dat", m_script.folders[file.folder], ++fileNumber);
    }
    for (const Inode& inode : m_inodes) {
        if (!inode.staged || inode.firstFile == kNone || isFolder[inode.firstFile])
            continue;
        ReplayFile& file = m_script.files[inode.firstFile];
        file.staged = true;
        file.stagedBytes = inode.initial;
        m_script.stagedBytes += inode.initial;
    }
    for (std::size_t i = 0; i < m_script.files.size(); ++i)
        if (!isFolder[i] && m_fileInode[i] != kNone)
            m_script.leftFiles.push_back({static_cast<std::uint32_t>(i), m_inodes[m_fileInode[i]].size});
    m_script.slots = static_cast<std::uint32_t>(m_slots.size());
    m_script.contents = static_cast<std::uint32_t>(m_inodes.size());
    for (const Inode& inode : m_inodes)
        m_script.contentFiles.push_back(inode.firstFile);
    // Threads that only had calls left out go; the waits are renumbered (none waits on such a thread: a wait
    // names a thread that made a step).
    std::vector<std::uint32_t> renumbered(m_script.threads.size(), kNone);
    std::vector<ReplayThread> kept;
    for (std::size_t i = 0; i < m_script.threads.size(); ++i) {
        if (m_script.threads[i].steps.empty())
            continue;
        renumbered[i] = static_cast<std::uint32_t>(kept.size());
        kept.push_back(std::move(m_script.threads[i]));
    }
    for (ReplayThread& thread : kept)
        for (ReplayStep& step : thread.steps)
            for (ReplayWait& wait : step.waits)
                if (wait.thread != kNone)
                    wait.thread = renumbered[wait.thread];
    m_script.threads = std::move(kept);
}

} // namespace

ReplayScript buildReplayScript(TraceReader& reader, const std::string& traceName)
{
    ReplayScript script;
    script.traceName = traceName;
    const auto& processes = reader.processes();
    if (!processes.empty()) {
        script.system = processes.front().system;
        const auto& arguments = processes.front().arguments;
        script.program = arguments.empty() ? processes.front().executable : std::string();
        for (const auto& argument : arguments)
            script.program += (script.program.empty() ? "" : " ") + argument;
    }
    Builder builder(script, processes);
    reader.forEachEvent([&](const TraceEvent& event) {
        builder.add(event);
        return true;
    });
    builder.finish();
    if (script.threads.empty() || script.calls == 0)
        throw InputError(fmt::format("{} holds no call on a file that a replay can make: the program did no "
                                     "file I/O the recorder saw (iolab-cli profile {} says what it did)",
                                     traceName, traceName));
    return script;
}

ReplayScript loadReplayScript(const std::string& path)
{
    if (path.empty())
        throw InputError("a replay needs a trace: --replay TRACE, or the matrix's \"replay\" key");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(fmt::format("cannot open the trace {}: check the path (iolab-cli record or import "
                                     "makes one)",
                                     path));
    TraceReader reader(in, path);
    return buildReplayScript(reader, path);
}

void fitCaseToReplay(Case& c, const ReplayScript& script)
{
    c.chunkBytes = std::max<std::uint64_t>(script.largestCallBytes, 1);
    c.totalBytes = script.caseBytes();
    c.threads = static_cast<std::uint32_t>(std::max<std::size_t>(script.threads.size(), 1));
}

std::uint64_t replaySpaceNeeded(const ReplayScript& script)
{
    return script.peakFileBytes + spaceMarginBytes(script.peakFileBytes);
}

std::vector<std::string> describeReplayScript(const ReplayScript& script)
{
    std::vector<std::string> lines;
    std::uint64_t staged = 0;
    std::uint64_t ahead = 0; // staged by the rewrite-segment way, not found by the program
    std::uint64_t aheadBytes = 0;
    std::uint64_t folders = script.folders.size();
    std::uint64_t files = 0;
    for (const auto& file : script.files) {
        staged += file.staged && !file.overwritten ? 1 : 0;
        ahead += file.staged && file.overwritten ? 1 : 0;
        aheadBytes += file.staged && file.overwritten ? file.stagedBytes : 0;
        files += file.directory ? 0 : 1;
    }
    const auto plural = [](std::uint64_t n) {
        return n == 1 ? "" : "s";
    };
    lines.push_back(fmt::format(
        "Replay of {}: {} call{} on {} file{} in {} thread{}: {} written in {} write call{}, {} read, {} "
        "sync{}; the program spent {} inside them.",
        script.traceName, script.calls, plural(script.calls), files, plural(files), script.threads.size(),
        plural(script.threads.size()), formatBytes(script.bytesWritten), script.writeCalls,
        plural(script.writeCalls), formatBytes(script.bytesRead), script.syncCalls, plural(script.syncCalls),
        formatDuration(static_cast<double>(script.recordedInsideNs) / 1e9)));
    if (staged != 0)
        lines.push_back(fmt::format("{} file{} existed before the program ran ({}): written before the timed "
                                    "part, in {} folder{} of the run folder.",
                                    staged, plural(staged), formatBytes(script.stagedBytes - aheadBytes),
                                    folders, plural(folders)));
    if (ahead != 0)
        lines.push_back(
            fmt::format("{} file{} written ahead to {} final size ({}) and made durable before the "
                        "timed part, as a recycled log segment is.",
                        ahead, plural(ahead), ahead == 1 ? "its" : "their", formatBytes(aheadBytes)));
    for (const auto& [reason, calls] : script.leftOut)
        lines.push_back(fmt::format("Left out: {} calls {}.", calls, reason));
    return lines;
}

ReplayRecord replayRecord(const ReplayScript& script)
{
    ReplayRecord record;
    record.program = script.program;
    record.recordedInsideSeconds = static_cast<double>(script.recordedInsideNs) / 1e9;
    record.calls = script.calls;
    record.writeCalls = script.writeCalls;
    record.syncCalls = script.syncCalls;
    record.bytesWritten = script.bytesWritten;
    return record;
}

std::optional<ReplayFidelity> replayFidelity(const CaseResult& result, const ReplayScript& script)
{
    std::vector<double> inside;
    ReplayFidelity fidelity;
    for (const auto& rep : result.repetitions) {
        if (rep.warmup || !rep.outcome.ok() || !rep.insideSeconds)
            continue;
        inside.push_back(*rep.insideSeconds);
        fidelity.calls = rep.replayedCalls;
    }
    if (inside.empty() || script.recordedInsideNs == 0)
        return std::nullopt;
    fidelity.repetitions = static_cast<std::uint32_t>(inside.size());
    fidelity.insideSeconds = median(inside);
    fidelity.lowestSeconds = *std::min_element(inside.begin(), inside.end());
    fidelity.highestSeconds = *std::max_element(inside.begin(), inside.end());
    fidelity.recordedSeconds = static_cast<double>(script.recordedInsideNs) / 1e9;
    fidelity.ratio = fidelity.insideSeconds / fidelity.recordedSeconds;
    return fidelity;
}

std::vector<std::string> describeReplayResult(const CaseResult& result, const ReplayScript& script)
{
    std::vector<std::string> lines = describeReplayScript(script);
    const auto fidelity = replayFidelity(result, script);
    if (!fidelity) {
        lines.emplace_back(
            "No measured repetition of the replay finished: nothing to set beside the program.");
        return lines;
    }
    const double off = fidelity->ratio - 1.0;
    const std::string range = fidelity->repetitions > 1
                                  ? fmt::format(", {} to {}", formatDuration(fidelity->lowestSeconds),
                                                formatDuration(fidelity->highestSeconds))
                                  : std::string();
    const std::string variant =
        extraAxisValue(result.testCase, "replay-variant", std::string(kRecordedCalls));
    if (variant != kRecordedCalls) {
        // Another way of making the calls: how it compares with the program is the point, not fidelity.
        lines.push_back(fmt::format(
            "Made as {} (the same bytes, {}): inside its calls it took {} (median of {} repetition{}{}), the "
            "program {} when recorded: {:.2f}x the program's time.",
            variant,
            parseReplayVariant(variant).weakens() ? "fewer durability points"
                                                  : "the program's durability points",
            formatDuration(fidelity->insideSeconds), fidelity->repetitions,
            fidelity->repetitions == 1 ? "" : "s", range, formatDuration(fidelity->recordedSeconds),
            fidelity->ratio));
        return lines;
    }
    lines.push_back(fmt::format(
        "Inside the calls the replay took {} (median of {} repetition{}{}), the program {} when recorded: "
        "{:.2f}x, {}.",
        formatDuration(fidelity->insideSeconds), fidelity->repetitions, fidelity->repetitions == 1 ? "" : "s",
        range, formatDuration(fidelity->recordedSeconds), fidelity->ratio,
        std::abs(off) <= kReplayFidelityTolerance
            ? fmt::format("within {:.0f}%: the replay does what the program did",
                          kReplayFidelityTolerance * 100)
            : fmt::format("{:.0f}% {}: the machine's state differs from the recording's (a cache warm or "
                          "cold, other programs' I/O) or the program's calls depend on what it read",
                          std::abs(off) * 100, off > 0 ? "slower" : "faster")));
    if (fidelity->calls != script.calls)
        lines.push_back(fmt::format("The replay made {} calls where the trace holds {} it can re-issue.",
                                    fidelity->calls, script.calls));
    return lines;
}

} // namespace iolab
