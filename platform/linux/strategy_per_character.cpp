// SPDX-License-Identifier: MIT
// The per-character writers of bonnie++: one C library call per byte through a FILE with setvbuf.
//   putc, fputc      library calls that take the FILE's lock on every byte (fputc may not be a macro; in
//                    glibc both are the same call)
//   putc-unlocked    putc_unlocked, which glibc's <stdio.h> expands inline: a store into the FILE's buffer,
//                    and a library call only when the buffer is full
// Each is one Put type (putc and fputc in platform/stdio_write_job.h); the loop
// (platform/per_character_write.h) and the strategy (platform/stdio_write_job.h) are shared.
#include "platform/builtin_strategies.h"
#include "platform/posix/stdio_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

struct PutcUnlocked
{
    static constexpr const char* kCall = "putc_unlocked";
    static int put(int c, std::FILE* file) noexcept { return putc_unlocked(c, file); }
};

template <class Put> using CharacterStrategy = PerCharacterStrategy<Put, posix::StdioCrt>;

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makePutcStrategy()
{
    return std::make_unique<linux_backend::CharacterStrategy<Putc>>(putcDeclaration());
}

std::unique_ptr<Strategy> builtin::makeFputcStrategy()
{
    return std::make_unique<linux_backend::CharacterStrategy<Fputc>>(fputcDeclaration());
}

std::unique_ptr<Strategy> builtin::makePutcUnlockedStrategy()
{
    return std::make_unique<linux_backend::CharacterStrategy<linux_backend::PutcUnlocked>>(
        putcUnlockedDeclaration());
}

} // namespace iolab
