// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_loop.h"
#include "core/engine/chunk_order.h"
#include "core/engine/pattern.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace iolab {

// How a writer walks its file: front to back, every chunk once in a random order (ChunkOrder), or the first
// chunk again and again (preallocate rewrite).
enum class WriteOrder
{
    Sequential,
    Random,
    Rewrite
};

// One plain write call per chunk on a file the backend opened with the case's flags (and its direct-I/O flag
// for the direct strategies): at the file position front to back, at every chunk's offset once in a random
// order, or, under preallocate rewrite, the first chunk at offset 0 on every call. Byte p of the file is the
// pattern's byte p every way, so the runner verifies them the same way. `Os` holds the OS's calls, all
// static, so that the loop inlines them:
//   Opened open(spec, direct, outcome)             the file (`file`, false when it failed) and `source`,
//                                                  the pattern's first byte as the writes read it
//   bool write(file, data, size)                   all of it at the file position
//   bool writeAt(file, data, size, offset)         all of it at `offset`
//   const char* writeCall(direct), writeAtCall(direct)   their names in errors
//   bool sync(file, mode)                          the sync policy's call (none for a policy without one)
//   const char* syncCall(mode)                     its name
//   Outcome failure(call, path)                    a failed call, from the OS's last error
//   Outcome closeFailure(error, path)              the error closing the file returned (not 0)
template <class Os> class PlainWriteJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, bool direct, Outcome& outcome,
                                       WriteOrder order = WriteOrder::Sequential)
    {
        typename Os::Opened opened = Os::open(spec, direct, outcome);
        if (!opened.file)
            return nullptr;
        if (spec.testCase.preallocate == Preallocate::Rewrite)
            order = WriteOrder::Rewrite;
        return std::unique_ptr<Job>(new PlainWriteJob(spec, std::move(opened), direct, order));
    }

    Outcome execute(Progress& progress) override
    {
        const Pattern::View pattern{m_opened.source};
        const SyncPolicy sync = m_spec.testCase.sync;
        const auto file = m_opened.file.get();
        const std::uint32_t every = sync.loopSyncEvery();
        const std::uint64_t chunk = m_spec.testCase.chunkBytes;
        const auto syncEvery = [&] {
            return Os::sync(file, sync.mode) || fail(Os::syncCall(sync.mode));
        };
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            if (m_order == WriteOrder::Random) {
                // The loop's n-th call writes the order's n-th chunk (seeded by the thread, the same on every
                // OS); the short tail chunk, wherever it falls, is the file's last.
                const std::uint64_t total = m_spec.bytes;
                const ChunkOrder order((total + chunk - 1) / chunk, m_spec.thread + 1);
                return runChunks(
                    total, chunk, every, progress, timer,
                    [&](std::uint64_t offset, std::uint64_t) {
                        const std::uint64_t at = order.at(offset / chunk) * chunk;
                        if (Os::writeAt(file, pattern.at(at), std::min(chunk, total - at), at)) [[likely]]
                            return true;
                        return fail(Os::writeAtCall(m_direct));
                    },
                    syncEvery);
            }
            if (m_order == WriteOrder::Rewrite) {
                return runChunks(
                    m_spec.bytes, chunk, every, progress, timer,
                    [&](std::uint64_t, std::uint64_t size) {
                        if (Os::writeAt(file, pattern.at(0), size, 0)) [[likely]]
                            return true;
                        return fail(Os::writeAtCall(m_direct));
                    },
                    syncEvery);
            }
            return runChunks(
                m_spec.bytes, chunk, every, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    if (Os::write(file, pattern.at(offset), size)) [[likely]]
                        return true;
                    return fail(Os::writeCall(m_direct));
                },
                syncEvery);
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (!timedFinalSync(m_spec.latency, sync.mode, [&] { return Os::sync(file, sync.mode); }))
            return Os::failure(Os::syncCall(sync.mode), m_spec.path);
        if (const auto error = m_opened.file.close(); error != 0)
            return Os::closeFailure(error, m_spec.path);
        return Outcome::success();
    }

private:
    PlainWriteJob(const JobSpec& spec, typename Os::Opened opened, bool direct, WriteOrder order)
        : m_spec(spec), m_opened(std::move(opened)), m_direct(direct), m_order(order)
    {}

    bool fail(const char* call)
    {
        m_error = Os::failure(call, m_spec.path);
        return false;
    }

    JobSpec m_spec;
    typename Os::Opened m_opened;
    bool m_direct;
    WriteOrder m_order;
    Outcome m_error;
};

} // namespace iolab
