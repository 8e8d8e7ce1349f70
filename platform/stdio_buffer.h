// SPDX-License-Identifier: MIT
// The C stdio pieces both backends share: the case's setvbuf, and a C runtime error as an Outcome.
#pragma once

#include "core/base/units.h"
#include "core/engine/strategy.h"
#include "core/model/case.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace iolab {

// Applies the case's stdio buffer axis to a fresh FILE; `owned` keeps a sized buffer alive (glibc ignores the
// size when setvbuf gets no buffer). Returns setvbuf's result.
inline int applyStdioBuffer(std::FILE* file, const StdioBuffer& buffer, std::unique_ptr<char[]>& owned)
{
    if (buffer.mode == BufferMode::None)
        return std::setvbuf(file, nullptr, _IONBF, 0);
    if (buffer.mode == BufferMode::Bytes) {
        owned = std::make_unique<char[]>(buffer.bytes);
        return std::setvbuf(file, owned.get(), _IOFBF, buffer.bytes);
    }
    return 0;
}

// The per-character strategies (putc, fputc and their unlocked forms) write one byte per call, so the only
// chunk they take is 1 byte; any other would label a result with a size that nothing wrote at.
inline std::optional<std::string> perCharacterRefusal(const Case& c)
{
    if (c.chunkBytes == 1)
        return std::nullopt;
    return c.strategy + " writes one byte per call, so its chunk must be 1 B, not " +
           formatBytes(c.chunkBytes);
}

// A failed C runtime call (errno `error`) on `path`, in the words of this OS's backend.
Outcome crtErrorOutcome(int error, std::string_view call, const std::string& path);

} // namespace iolab
