// SPDX-License-Identifier: MIT
// mmap-read: mmap(2) each thread's file whole, madvise with the case's hint, and copy every chunk out of the
// mapping (the page faults do the reading; the copy is what read(2) would have delivered).
#include "core/engine/chunk_loop.h"
#include "core/engine/pattern.h"
#include "core/engine/read_buffer.h"
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/posix_io.h"
#include "platform/strategy_declarations.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <cstring>

namespace iolab::linux_backend {

namespace {

class MmapReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        posix::UniqueFd fd = posix::openInput(spec.path, false, outcome);
        if (!fd)
            return nullptr;
        struct stat st
        {};
        if (::fstat(fd.get(), &st) != 0) {
            outcome = posix::errnoOutcome(errno, "fstat", spec.path);
            return nullptr;
        }
        if (static_cast<std::uint64_t>(st.st_size) < spec.bytes) {
            outcome = checkReadLength(spec.path, static_cast<std::uint64_t>(st.st_size), spec.bytes);
            return nullptr;
        }
        void* map = ::mmap(nullptr, spec.bytes, PROT_READ, MAP_SHARED, fd.get(), 0);
        if (map == MAP_FAILED) {
            outcome = posix::errnoOutcome(errno, "mmap", spec.path);
            return nullptr;
        }
        auto job = std::unique_ptr<MmapReadJob>(new MmapReadJob(spec, static_cast<const std::byte*>(map)));
        if (::madvise(map, spec.bytes, adviceFor(spec.testCase.hint)) != 0) {
            outcome = posix::errnoOutcome(errno, fmt::format("madvise({})", toString(spec.testCase.hint)),
                                          spec.path);
            return nullptr;
        }
        return job;
    }

    ~MmapReadJob() override { ::munmap(const_cast<std::byte*>(m_map), m_spec.bytes); }
    MmapReadJob(const MmapReadJob&) = delete;
    MmapReadJob& operator=(const MmapReadJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        const std::byte* const map = m_map;
        std::byte* const buffer = m_buffer.data();
        const auto end = withCallTimer(m_spec.latency, [&](const auto& timer) {
            return runChunks(
                m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress, timer,
                [&](std::uint64_t offset, std::uint64_t size) {
                    std::memcpy(buffer, map + offset, size);
                    // The copy is the point: keep the compiler from dropping it as a store nobody reads.
                    asm volatile("" : : "r"(buffer) : "memory");
                    if (!m_spec.verifyData) [[likely]]
                        return true;
                    m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset,
                                             buffer, size);
                    return m_error.ok();
                },
                [] { return true; });
        });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        return Outcome::success();
    }

    static int adviceFor(ReadHint hint)
    {
        switch (hint) {
        case ReadHint::Sequential:
            return MADV_SEQUENTIAL;
        case ReadHint::Random:
            return MADV_RANDOM;
        case ReadHint::NotApplicable:
        case ReadHint::Normal:
        case ReadHint::NoReuse:
            break;
        }
        return MADV_NORMAL;
    }

private:
    MmapReadJob(const JobSpec& spec, const std::byte* map)
        : m_spec(spec), m_map(map), m_buffer(spec.testCase.chunkBytes)
    {}

    JobSpec m_spec;
    const std::byte* m_map;
    ReadBuffer m_buffer;
    Outcome m_error;
};

class MmapReadStrategy final : public BasicStrategy
{
public:
    MmapReadStrategy() : BasicStrategy(mmapReadDeclaration()) {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        return MmapReadJob::create(spec, outcome);
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeMmapReadStrategy()
{
    return std::make_unique<linux_backend::MmapReadStrategy>();
}

} // namespace iolab
