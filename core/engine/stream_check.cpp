// SPDX-License-Identifier: MIT
#include "core/engine/stream_check.h"

#include <fmt/format.h>

namespace iolab {

Outcome StreamCheck::outcome(std::uint64_t expected, const std::string& operation) const
{
    if (m_mismatchAt)
        return {Status::Failed, 0, operation,
                fmt::format("{}: byte {} differs from what was written", m_subject, *m_mismatchAt)};
    if (m_received != expected)
        return {Status::Failed, 0, operation,
                fmt::format("{}: {} bytes arrived, expected {}", m_subject, m_received, expected)};
    return Outcome::success();
}

} // namespace iolab
