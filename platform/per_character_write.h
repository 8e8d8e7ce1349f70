// SPDX-License-Identifier: MIT
#pragma once
// The per-character writers' loop (putc, fputc and their unlocked forms), shared by both backends: `Put`
// supplies the C runtime call (static int put(int, FILE*)) and its name (kCall). The loop is compiled for
// the 1-byte chunk the strategies take, so the call is what a user's own loop makes.

#include <cstddef>
#include <cstdio>

namespace iolab {

template <class Put> struct PerCharacterWrite
{
    static constexpr const char* kCall = Put::kCall;
    static constexpr bool kFixedChunks = true;

    template <class Size>
    std::size_t operator()(const std::byte* data, Size size, std::FILE* file) const noexcept
    {
        for (std::size_t i = 0; i < size; ++i) {
            if (Put::put(std::to_integer<unsigned char>(data[i]), file) == EOF) [[unlikely]]
                return i;
        }
        return size;
    }
};

} // namespace iolab
