// SPDX-License-Identifier: MIT
// fread, fread-unlocked: fread / _fread_nolock per chunk from a FILE on a CreateFile handle (with the hint's
// flag) and the case's setvbuf buffer. As with _fwrite_nolock, the msvcrt.dll that Debian's mingw-w64 links
// has no _fread_nolock; fread-unlocked then says so.
#include "platform/basic_strategy.h"
#include "platform/builtin_strategies.h"
#include "platform/stdio_read_job.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/stdio_job.h"
#include "platform/windows/win_io.h"

#if defined(_MSC_VER) || defined(_UCRT)
#define IOLAB_HAS_FREAD_NOLOCK 1
#else
#define IOLAB_HAS_FREAD_NOLOCK 0
#endif

namespace iolab::windows_backend {

namespace {

// A FILE on a CreateFile handle opened with the hint's flag, for the shared stdio read loop.
std::FILE* openStdioInput(const JobSpec& spec, Outcome& outcome)
{
    win::UniqueHandle handle = win::openInput(spec.path, spec.testCase.hint, false, outcome);
    if (!handle)
        return nullptr;
    const int fd = ::_open_osfhandle(reinterpret_cast<std::intptr_t>(handle.get()), _O_RDONLY | _O_BINARY);
    if (fd < 0) {
        outcome = {Status::Failed, errno, "_open_osfhandle", "the C runtime has no descriptor to spare"};
        return nullptr;
    }
    handle.release(); // the descriptor owns it now
    std::FILE* file = ::_fdopen(fd, "rb");
    if (file == nullptr) {
        ::_close(fd);
        outcome = {Status::Failed, errno, "_fdopen", "the C runtime could not open a FILE on the input"};
    }
    return file;
}

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

// The declaration, unavailable where the build has no _fread_nolock.
StrategyInfo freadInfo(bool unlocked)
{
    StrategyInfo info = unlocked ? freadUnlockedDeclaration() : freadDeclaration();
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
        if (m_unlocked && info().unavailable) {
            outcome = {Status::Unsupported, 0, "_fread_nolock", *info().unavailable};
            return nullptr;
        }
        std::FILE* file = openStdioInput(spec, outcome);
        if (file == nullptr)
            return nullptr;
#if IOLAB_HAS_FREAD_NOLOCK
        if (m_unlocked)
            return StdioReadJob<UnlockedRead>::adopt(spec, file, outcome);
#endif
        return StdioReadJob<LockedRead>::adopt(spec, file, outcome);
    }

private:
    bool m_unlocked;
};

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeFreadStrategy()
{
    return std::make_unique<windows_backend::FreadStrategy>(false);
}

std::unique_ptr<Strategy> builtin::makeFreadUnlockedStrategy()
{
    return std::make_unique<windows_backend::FreadStrategy>(true);
}

} // namespace iolab
