// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/pattern.h"
#include "core/engine/strategy.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace iolab {

// Checks bytes against the pattern as they arrive, in order: a file read back by a workspace's verify() and
// a pipe drained by its reader thread use the same count, the same comparison and the same messages.
class StreamCheck
{
public:
    // `subject` names the stream in messages: a path, or "the pipe reader".
    // `patternOffset`: the pattern byte the stream's first byte must equal (data-set files start at
    // different places).
    StreamCheck(const Pattern& pattern, std::string subject, std::uint64_t patternOffset = 0)
        : m_pattern(&pattern), m_subject(std::move(subject)), m_patternOffset(patternOffset)
    {}

    // Counts `size` bytes and compares them, until the first wrong byte (later ones are only counted).
    void add(const std::byte* data, std::size_t size) noexcept
    {
        if (!m_mismatchAt) {
            if (auto at = m_pattern->firstMismatch(m_patternOffset + m_received, data, size))
                m_mismatchAt = m_received + *at;
        }
        m_received += size;
    }
    // Counts bytes that went by unseen (a pipe reader splicing to the null device).
    void skip(std::uint64_t size) noexcept { m_received += size; }

    std::uint64_t received() const noexcept { return m_received; }

    // What it has counted and found, plain data that can cross to another process (a pipe reader in a
    // process of its own hands it back to the writer's, whose check then says what the reader saw).
    struct Tally
    {
        std::uint64_t received = 0;
        bool mismatch = false;
        std::uint64_t mismatchAt = 0;
    };
    Tally tally() const noexcept { return {m_received, m_mismatchAt.has_value(), m_mismatchAt.value_or(0)}; }
    void setTally(const Tally& tally) noexcept
    {
        m_received = tally.received;
        m_mismatchAt = tally.mismatch ? std::optional<std::uint64_t>(tally.mismatchAt) : std::nullopt;
    }

    // Ok, or Failed with the first wrong byte's offset, or with how many bytes came instead of `expected`.
    Outcome outcome(std::uint64_t expected, const std::string& operation) const;

private:
    const Pattern* m_pattern;
    std::string m_subject;
    std::uint64_t m_patternOffset = 0;
    std::uint64_t m_received = 0;
    std::optional<std::uint64_t> m_mismatchAt;
};

} // namespace iolab
