// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/file_set_job.h"
#include "core/engine/read_buffer.h"
#include "platform/posix/posix_io.h"

namespace iolab::posix {

// Reads one file of a set the plain way: open(2), the hint, read(2) of the buffer's size until the end of
// the file, close(2). With verification on, every byte is compared with the pattern.
struct FileReader
{
    ReadHint hint = ReadHint::NotApplicable;
    const Pattern* pattern = nullptr; // set: verify

    Outcome operator()(const DataFile& file, ReadBuffer& buffer, std::uint64_t& bytes) const
    {
        Outcome outcome;
        UniqueFd fd = openInput(file.relativePath, false, outcome);
        if (!fd || !adviseRead(fd.get(), hint, file.relativePath, outcome))
            return outcome;
        for (;;) {
            const ssize_t n = readFully(fd.get(), buffer.data(), buffer.size());
            if (n < 0)
                return errnoOutcome(errno, "read", file.relativePath);
            if (pattern != nullptr) {
                outcome = checkReadBytes(*pattern, file.relativePath, file.patternOffset, bytes,
                                         buffer.data(), static_cast<std::size_t>(n));
                if (!outcome.ok())
                    return outcome;
            }
            bytes += static_cast<std::uint64_t>(n);
            if (static_cast<std::size_t>(n) < buffer.size())
                break;
        }
        if (const int error = fd.close(); error != 0)
            return errnoOutcome(error, "close", file.relativePath);
        return checkReadLength(file.relativePath, bytes, file.bytes);
    }
};

} // namespace iolab::posix
