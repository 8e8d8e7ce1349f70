// SPDX-License-Identifier: MIT
// stdio-unlocked: fwrite_unlocked(3) per chunk, compiled as a user's loop is. For chunks of 1 to 8 bytes the
// loop is built with the size as a constant, and a constant-size fwrite_unlocked of at most 8 bytes is what
// glibc's <stdio.h> expands inline in a C program: one putc_unlocked per byte, into the FILE's buffer, with
// no library call until the buffer is full. That macro is C-only (g++ keeps the call), so the expansion is
// spelled out here. stdio-unlocked-call keeps the library call at every size.
#include "core/engine/chunk_loop.h"
#include "platform/builtin_strategies.h"
#include "platform/posix/stdio_job.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

struct UnlockedWrite
{
    static constexpr const char* kCall = "fwrite_unlocked";
    static constexpr bool kFixedChunks = true;

    std::size_t operator()(const std::byte* data, std::size_t size, std::FILE* file) const noexcept
    {
        return ::fwrite_unlocked(data, 1, size, file);
    }

    // glibc's expansion of fwrite_unlocked(data, 1, N, file) for a constant N <= 8.
    template <std::uint64_t N>
    std::size_t operator()(const std::byte* data, FixedChunk<N>, std::FILE* file) const noexcept
    {
        for (std::size_t i = 0; i < N; ++i) {
            if (putc_unlocked(std::to_integer<unsigned char>(data[i]), file) == EOF) [[unlikely]]
                return i;
        }
        return N;
    }
};

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeStdioUnlockedStrategy()
{
    return std::make_unique<posix::StdioStrategy<linux_backend::UnlockedWrite>>(stdioUnlockedDeclaration());
}

} // namespace iolab
