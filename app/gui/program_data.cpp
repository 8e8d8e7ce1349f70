// SPDX-License-Identifier: MIT
#include "app/gui/program_data.h"

#include "app/common/recording.h"
#include "app/gui/text_helpers.h"
#include "core/analysis/program_advice.h"
#include "core/base/error.h"
#include "core/engine/replay_script.h"
#include "core/model/replay.h"
#include "core/model/trace_reader.h"

#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>

namespace iolab::gui {

namespace {

using Key = std::pair<std::uint32_t, std::uint64_t>; // (process, descriptor, stream or mapping address)

bool isStreamPut(trace::Call call)
{
    using trace::Call;
    return call == Call::FWrite || call == Call::FPutc || call == Call::FPuts || call == Call::FPrintf;
}

bool isDescriptorWrite(trace::Call call)
{
    using trace::Call;
    return call == Call::Write || call == Call::PWrite || call == Call::WriteV || call == Call::PWriteV ||
           call == Call::CopyFileRange || call == Call::SendFile;
}

// The files' writes and syncs as the calls come, each call's file found from its descriptor, stream or
// mapping; a process's descriptors it did not open itself are its parent's (a forked child's).
class TimelineBuilder
{
public:
    TimelineBuilder(const std::vector<TraceProcess>& processes, std::uint64_t wallNs)
    {
        for (std::uint32_t i = 0; i < processes.size(); ++i)
            m_processByPid[processes[i].pid] = i;
        for (const TraceProcess& p : processes) {
            const auto parent = m_processByPid.find(p.parentPid);
            m_parent.push_back(parent == m_processByPid.end() ? UINT32_MAX : parent->second);
        }
        m_timeline.spanSeconds = static_cast<double>(std::max<std::uint64_t>(wallNs, 1)) / 1e9;
        m_timeline.binSeconds = m_timeline.spanSeconds / WriteTimeline::kBins;
    }

    void add(const TraceEvent& event)
    {
        using trace::Call;
        switch (event.call) {
        case Call::Open:
            if (event.result >= 0)
                m_descriptors[{event.process, event.handle}] = event.path;
            break;
        case Call::FOpen:
            m_streams[{event.process, event.handle}] = event.path;
            break;
        case Call::Close:
            m_descriptors.erase({event.process, event.handle});
            break;
        case Call::FClose:
            m_streams.erase({event.process, event.handle});
            break;
        case Call::Dup:
            if (event.result >= 0) {
                if (const std::string* path = descriptor(event.process, event.handle))
                    m_descriptors[{event.process, static_cast<std::uint64_t>(event.result)}] = *path;
            }
            break;
        case Call::Mmap:
            if (event.result != -1) {
                if (const std::string* path = descriptor(event.process, event.handle))
                    m_mappings[{event.process, static_cast<std::uint64_t>(event.result)}] = *path;
            }
            break;
        case Call::Munmap:
            m_mappings.erase({event.process, event.handle});
            break;
        case Call::Fsync:
        case Call::Fdatasync:
        case Call::SyncFileRange:
            if (const std::string* path = descriptor(event.process, event.handle))
                sync(*path, event);
            break;
        case Call::Msync:
            if (event.flags & trace::MapSyncWait) {
                if (const auto it = m_mappings.find({event.process, event.handle}); it != m_mappings.end())
                    sync(it->second, event);
            }
            break;
        case Call::Syncfs:
        case Call::Sync:
            m_everyFileSyncs.push_back(seconds(event.startNs));
            m_timeline.syncs += event.count;
            break;
        default:
            if (event.error != 0)
                break;
            if (isDescriptorWrite(event.call)) {
                if (const std::string* path = descriptor(event.process, event.handle))
                    write(*path, event, event.result > 0 ? static_cast<std::uint64_t>(event.result) : 0);
            } else if (isStreamPut(event.call)) {
                if (const auto it = m_streams.find({event.process, event.handle}); it != m_streams.end())
                    write(it->second, event, event.bytes);
            }
            break;
        }
    }

    WriteTimeline finish()
    {
        std::vector<FileTimeline> files;
        for (auto& [path, file] : m_files) {
            file.path = path;
            if (file.totalBytes > 0 || !file.syncSeconds.empty())
                files.push_back(std::move(file));
        }
        std::stable_sort(files.begin(), files.end(), [](const FileTimeline& a, const FileTimeline& b) {
            return a.totalBytes != b.totalBytes ? a.totalBytes > b.totalBytes
                                                : a.syncSeconds.size() > b.syncSeconds.size();
        });
        if (files.size() > WriteTimeline::kFiles) {
            FileTimeline others;
            others.path = "other files";
            others.bytes.assign(WriteTimeline::kBins, 0);
            for (std::size_t i = WriteTimeline::kFiles; i < files.size(); ++i) {
                for (std::size_t bin = 0; bin < WriteTimeline::kBins; ++bin)
                    others.bytes[bin] += files[i].bytes[bin];
                others.totalBytes += files[i].totalBytes;
                others.syncSeconds.insert(others.syncSeconds.end(), files[i].syncSeconds.begin(),
                                          files[i].syncSeconds.end());
            }
            std::sort(others.syncSeconds.begin(), others.syncSeconds.end());
            files.resize(WriteTimeline::kFiles);
            files.push_back(std::move(others));
        }
        // A sync() or syncfs() makes every file durable: a mark on each line.
        for (FileTimeline& file : files) {
            file.syncSeconds.insert(file.syncSeconds.end(), m_everyFileSyncs.begin(), m_everyFileSyncs.end());
            std::sort(file.syncSeconds.begin(), file.syncSeconds.end());
        }
        m_timeline.files = std::move(files);
        return std::move(m_timeline);
    }

private:
    const std::string* descriptor(std::uint32_t process, std::uint64_t handle) const
    {
        for (std::uint32_t p = process; p != UINT32_MAX && p < m_parent.size(); p = m_parent[p]) {
            if (const auto it = m_descriptors.find({p, handle}); it != m_descriptors.end())
                return &it->second;
        }
        return nullptr;
    }
    double seconds(std::uint64_t ns) const { return static_cast<double>(ns) / 1e9; }
    FileTimeline* file(const std::string& path)
    {
        if (fileKindOf(path) != FileKind::Regular)
            return nullptr;
        FileTimeline& f = m_files[path];
        if (f.bytes.empty())
            f.bytes.assign(WriteTimeline::kBins, 0);
        return &f;
    }
    void write(const std::string& path, const TraceEvent& event, std::uint64_t bytesEach)
    {
        FileTimeline* f = file(path);
        if (f == nullptr)
            return;
        const std::uint64_t bytes = bytesEach * event.count;
        const auto bin =
            std::min<std::size_t>(static_cast<std::size_t>(seconds(event.startNs) / m_timeline.binSeconds),
                                  WriteTimeline::kBins - 1);
        f->bytes[bin] += bytes;
        f->totalBytes += bytes;
    }
    void sync(const std::string& path, const TraceEvent& event)
    {
        m_timeline.syncs += event.count;
        if (FileTimeline* f = file(path))
            f->syncSeconds.push_back(seconds(event.startNs));
    }

    WriteTimeline m_timeline;
    std::map<std::uint32_t, std::uint32_t> m_processByPid;
    std::vector<std::uint32_t> m_parent;
    std::map<Key, std::string> m_descriptors;
    std::map<Key, std::string> m_streams;
    std::map<Key, std::string> m_mappings;
    std::map<std::string, FileTimeline> m_files;
    std::vector<double> m_everyFileSyncs;
};

} // namespace

WriteTimeline writeTimelineOf(const std::string& tracePath, std::uint64_t wallNs)
{
    std::ifstream in(tracePath, std::ios::binary);
    if (!in)
        throw InputError(tracePath + ": " + std::strerror(errno));
    TraceReader reader(in, tracePath);
    TimelineBuilder builder(reader.processes(), wallNs);
    reader.forEachEvent([&](const TraceEvent& event) {
        builder.add(event);
        return true;
    });
    return builder.finish();
}

ProgramData readProgram(const QString& tracePath)
{
    ProgramData data;
    data.tracePath = tracePath;
    try {
        const std::string path = tracePath.toStdString();
        data.profile = profileOf(path, &data.records);
        data.lines = describeProgramProfile(data.profile);
        data.timeline = writeTimelineOf(path, data.profile.wallNs);
    } catch (const std::exception& e) {
        ProgramData failed;
        failed.tracePath = tracePath;
        failed.error = qs(e.what());
        return failed;
    }
    return data;
}

Matrix replayMatrix(const QString& tracePath)
{
    MatrixGroup group;
    group.strategies = {std::string(kReplayStrategy)};
    group.extraAxes["replay"] = {QFileInfo(tracePath).absoluteFilePath().toStdString()};
    Matrix matrix;
    matrix.name = "replay of " + QFileInfo(tracePath).fileName().toStdString();
    matrix.groups = {group};
    return matrix;
}

Matrix adviceMatrix(const QString& tracePath)
{
    Matrix matrix = replayMatrix(tracePath);
    const std::string path = QFileInfo(tracePath).absoluteFilePath().toStdString();
    matrix.groups.front().extraAxes["replay-variant"] = adviceVariantAxis(loadReplayScript(path));
    matrix.name = "other ways of writing what " + QFileInfo(tracePath).fileName().toStdString() + " wrote";
    matrix.repetitions = kAdviceRepetitions;
    matrix.alternate =
        true; // the answer is a ratio between the ways: a drift of the device must weigh on all
    return matrix;
}

} // namespace iolab::gui
