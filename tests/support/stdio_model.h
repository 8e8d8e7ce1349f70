// SPDX-License-Identifier: MIT
// A step-by-step model of how a C runtime's FILE takes write calls, written from glibc's libio/fileops.c
// (_IO_new_file_xsputn, _IO_new_file_overflow) and the Microsoft C runtime's fwrite.c (wine's msvcrt does the
// same), for the tests to hold two things against it: the probe's closed form (stdioHeldBytes,
// core/engine/crash_probe.h), and what the real probe's kills lose right after a call returned.
#pragma once

#include <algorithm>
#include <cstdint>

namespace iolab::test {

class StdioStreamModel
{
public:
    enum class Runtime
    {
        Glibc,
        Microsoft
    };

    // `bufferBytes` 0: unbuffered.
    StdioStreamModel(Runtime runtime, std::uint64_t bufferBytes) : m_runtime(runtime), m_buffer(bufferBytes)
    {}

    // One call of `n` bytes; the bytes the buffer holds when it has returned.
    std::uint64_t call(std::uint64_t n)
    {
        if (m_buffer == 0)
            return 0; // every byte goes to the file before the call returns
        if (m_runtime == Runtime::Glibc)
            glibcCall(n);
        else
            microsoftCall(n);
        return m_fill;
    }

    // The bytes held after calls of `chunk` until `total` bytes have been acknowledged.
    static std::uint64_t heldAfter(Runtime runtime, std::uint64_t bufferBytes, std::uint64_t chunk,
                                   std::uint64_t total)
    {
        StdioStreamModel stream(runtime, bufferBytes);
        std::uint64_t held = 0;
        for (std::uint64_t done = 0; done < total; done += chunk)
            held = stream.call(std::min(chunk, total - done));
        return held;
    }

private:
    void glibcCall(std::uint64_t n)
    {
        // Free space first; none before the first overflow has set the put area up.
        std::uint64_t toDo = n;
        const std::uint64_t space = m_putArea ? m_buffer - m_fill : 0;
        const std::uint64_t copied = std::min(space, toDo);
        m_fill += copied;
        toDo -= copied;
        if (toDo == 0)
            return; // a buffer filled exactly stays full until the next call
        // _IO_OVERFLOW(f, EOF): the buffer goes to write(2); then whole blocks of the rest, and the
        // remainder into the buffer (_IO_default_xsputn).
        m_fill = 0;
        m_putArea = true;
        const std::uint64_t direct = m_buffer >= 128 ? toDo - toDo % m_buffer : toDo;
        toDo -= direct;
        m_fill = toDo;
    }

    void microsoftCall(std::uint64_t n)
    {
        std::uint64_t left = n;
        while (left != 0) {
            if (m_room != 0) { // the buffer is in use and has room: copy
                const std::uint64_t copied = std::min(m_room, left);
                m_fill += copied;
                m_room -= copied;
                left -= copied;
            } else if (left >= m_buffer) { // full or unused: flush, then whole buffers to _write
                m_fill = 0;
                left %= m_buffer;
            } else { // _flsbuf: flush, start the buffer over with one byte
                m_fill = 1;
                m_room = m_buffer - 1;
                left -= 1;
            }
        }
    }

    Runtime m_runtime;
    std::uint64_t m_buffer;
    std::uint64_t m_fill = 0;
    bool m_putArea = false;   // glibc
    std::uint64_t m_room = 0; // Microsoft: _cnt, the room left (0: full, or not in use)
};

} // namespace iolab::test
