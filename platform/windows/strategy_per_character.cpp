// SPDX-License-Identifier: MIT
// The per-character writers of bonnie++ on Windows: one C runtime call per byte through a FILE with setvbuf.
//   putc, fputc      C runtime calls that lock the FILE on every byte
//   putc-unlocked    _putc_nolock. With the Universal CRT (MSVC) it is a call into ucrtbase.dll, whose
//                    FILE is opaque; mingw-w64's headers for msvcrt.dll define it as a macro on the FILE's
//                    public _ptr and _cnt that calls _flsbuf only when the buffer is full, so there it is
//                    inline, as putc_unlocked is in glibc.
// Each is one Put type (putc and fputc in platform/stdio_write_job.h); the loop
// (platform/per_character_write.h) and the strategy (platform/stdio_write_job.h) are shared.
#include "platform/builtin_strategies.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/stdio_job.h"

namespace iolab::windows_backend {

namespace {

struct PutcNolock
{
    static constexpr const char* kCall = "_putc_nolock";
    static int put(int c, std::FILE* file) noexcept { return _putc_nolock(c, file); }
};

template <class Put> using CharacterStrategy = PerCharacterStrategy<Put, StdioCrt>;

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makePutcStrategy()
{
    return std::make_unique<windows_backend::CharacterStrategy<Putc>>(putcDeclaration());
}

std::unique_ptr<Strategy> builtin::makeFputcStrategy()
{
    return std::make_unique<windows_backend::CharacterStrategy<Fputc>>(fputcDeclaration());
}

std::unique_ptr<Strategy> builtin::makePutcUnlockedStrategy()
{
    return std::make_unique<windows_backend::CharacterStrategy<windows_backend::PutcNolock>>(
        putcUnlockedDeclaration());
}

} // namespace iolab
