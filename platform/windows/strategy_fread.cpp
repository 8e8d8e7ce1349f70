// SPDX-License-Identifier: MIT
// fread, fread-unlocked: fread / _fread_nolock per chunk from a FILE on a CreateFile handle (with the hint's
// flag) and the case's setvbuf buffer. As with _fwrite_nolock, the msvcrt.dll that Debian's mingw-w64 links
// has no _fread_nolock; fread-unlocked then says so.
#include "core/chunk_loop.h"
#include "core/pattern.h"
#include "core/read_buffer.h"
#include "platform/basic_strategy.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/strategies.h"
#include "platform/windows/win_io.h"

#if defined(_MSC_VER) || defined(_UCRT)
#define IOLAB_HAS_FREAD_NOLOCK 1
#else
#define IOLAB_HAS_FREAD_NOLOCK 0
#endif

namespace iolab::windows_backend {

namespace {

template <class Read> class StdioReadJob final : public Job
{
public:
    static std::unique_ptr<Job> create(const JobSpec& spec, Outcome& outcome)
    {
        win::UniqueHandle handle = win::openInput(spec.path, spec.testCase.hint, false, outcome);
        if (!handle)
            return nullptr;
        const int fd =
            ::_open_osfhandle(reinterpret_cast<std::intptr_t>(handle.get()), _O_RDONLY | _O_BINARY);
        if (fd < 0) {
            outcome = {Status::Failed, errno, "_open_osfhandle", "the C runtime has no descriptor to spare"};
            return nullptr;
        }
        handle.release(); // the descriptor owns it now
        std::FILE* file = ::_fdopen(fd, "rb");
        if (file == nullptr) {
            ::_close(fd);
            outcome = {Status::Failed, errno, "_fdopen", "the C runtime could not open a FILE on the input"};
            return nullptr;
        }
        auto job = std::unique_ptr<StdioReadJob>(new StdioReadJob(spec, file));
        const auto& buffer = spec.testCase.buffer;
        int rc = 0;
        if (buffer.mode == BufferMode::None) {
            rc = std::setvbuf(file, nullptr, _IONBF, 0);
        } else if (buffer.mode == BufferMode::Bytes) {
            job->m_stdioBuffer = std::make_unique<char[]>(buffer.bytes);
            rc = std::setvbuf(file, job->m_stdioBuffer.get(), _IOFBF, buffer.bytes);
        }
        if (rc != 0) {
            outcome = {Status::Failed, EINVAL, "setvbuf",
                       "setvbuf " + spec.path + " failed: the C runtime refused the buffer"};
            return nullptr;
        }
        return job;
    }

    ~StdioReadJob() override
    {
        if (m_file != nullptr)
            std::fclose(m_file);
    }
    StdioReadJob(const StdioReadJob&) = delete;
    StdioReadJob& operator=(const StdioReadJob&) = delete;

    Outcome execute(Progress& progress) override
    {
        std::FILE* const file = m_file;
        std::byte* const buffer = m_buffer.data();
        errno = 0;
        const auto end = runChunks(
            m_spec.bytes, m_spec.testCase.chunkBytes, 0, progress,
            [&](std::uint64_t offset, std::uint64_t size) {
                const std::size_t n = Read{}(buffer, size, file);
                if (n == size) [[likely]] {
                    if (!m_spec.verifyData)
                        return true;
                    m_error = checkReadBytes(*m_spec.pattern, m_spec.path, m_spec.patternOffset, offset,
                                             buffer, size);
                    return m_error.ok();
                }
                if (std::ferror(file) != 0)
                    m_error = {Status::Failed, errno, "fread",
                               fmt::format("fread {} failed: {}", m_spec.path, std::strerror(errno))};
                else
                    m_error = checkReadLength(m_spec.path, offset + n, m_spec.bytes);
                return false;
            },
            [] { return true; });
        if (end == LoopEnd::Failed)
            return std::move(m_error);
        if (end == LoopEnd::Cancelled)
            return Outcome::cancelled();
        if (std::fclose(std::exchange(m_file, nullptr)) != 0)
            return {Status::Failed, errno, "fclose", fmt::format("fclose {} failed", m_spec.path)};
        return Outcome::success();
    }

private:
    StdioReadJob(const JobSpec& spec, std::FILE* file)
        : m_spec(spec), m_file(file), m_buffer(spec.testCase.chunkBytes)
    {}

    JobSpec m_spec;
    std::FILE* m_file = nullptr;
    std::unique_ptr<char[]> m_stdioBuffer; // outlives the FILE: the destructor body closes it first
    ReadBuffer m_buffer;
    Outcome m_error;
};

struct LockedRead
{
    std::size_t operator()(std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return std::fread(data, 1, size, file);
    }
};

#if IOLAB_HAS_FREAD_NOLOCK
struct UnlockedRead
{
    std::size_t operator()(std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return ::_fread_nolock(data, 1, size, file);
    }
};
#endif

StrategyInfo freadInfo(bool unlocked)
{
    StrategyInfo info{.id = unlocked ? "fread-unlocked" : "fread",
                      .description =
                          unlocked ? "_fread_nolock per chunk: stdio reads without the per-call FILE lock"
                                   : "fread per chunk with the case's setvbuf buffer and hint",
                      .direction = Direction::Read,
                      .layout = DataLayout::FilePerThread,
                      .hints = win::windowsReadHints(),
                      .hintRefusal = win::windowsHintRefusal(),
                      .usesStdioBuffer = true,
                      .targets = {TargetKind::Directory},
                      .syncModes = {SyncMode::None},
                      .syncRefusal = "reads have no sync policy"};
    if (unlocked && !IOLAB_HAS_FREAD_NOLOCK)
        info.unavailable =
            "this build links msvcrt.dll, which has no _fread_nolock; the MSVC (Universal CRT) "
            "build of IOLab runs it";
    return info;
}

class FreadStrategy final : public BasicStrategy
{
public:
    explicit FreadStrategy(bool unlocked) : BasicStrategy(freadInfo(unlocked)), m_unlocked(unlocked) {}

    std::optional<std::string> refusal(const Case& c, const TargetInfo&) const override
    {
        return stdioBufferRefusal(c.buffer);
    }

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        if (!m_unlocked)
            return StdioReadJob<LockedRead>::create(spec, outcome);
#if IOLAB_HAS_FREAD_NOLOCK
        return StdioReadJob<UnlockedRead>::create(spec, outcome);
#else
        outcome = {Status::Unsupported, 0, "_fread_nolock", *info().unavailable};
        return nullptr;
#endif
    }

private:
    bool m_unlocked;
};

} // namespace

std::unique_ptr<Strategy> makeFreadStrategy()
{
    return std::make_unique<FreadStrategy>(false);
}

std::unique_ptr<Strategy> makeFreadUnlockedStrategy()
{
    return std::make_unique<FreadStrategy>(true);
}

} // namespace iolab::windows_backend
