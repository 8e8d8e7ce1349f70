// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/chunk_order.h"

#include <cstdint>

namespace iolab::win {

// The random writers' chunks one after another: the i-th call of next() is the i-th chunk of a thread's
// ChunkOrder (core/engine/chunk_order.h), seeded as the Linux writers seed theirs, so that both OSes write a
// thread's file in the same order.
class ChunkSequence
{
public:
    ChunkSequence(std::uint32_t thread, std::uint64_t chunks) noexcept
        : m_order(chunks, thread + std::uint64_t{1})
    {}

    std::uint64_t next() noexcept { return m_order.at(m_next++); }

private:
    ChunkOrder m_order;
    std::uint64_t m_next = 0;
};

} // namespace iolab::win
