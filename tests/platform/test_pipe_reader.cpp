// SPDX-License-Identifier: MIT
// The pipe reader's check, over a stream the test hands it: it compares every read against the writer's own
// pattern, whose buffer (one period plus the writer's chunk) is smaller than a read, so a read compares in
// several spans; a wrong byte is found at its offset wherever it falls, and a short stream is counted.
#include "core/engine/pattern.h"
#include "platform/pipe_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace iolab {
namespace {

// A pipe that holds a prepared stream and hands it out in reads of at most kReadBytes (and, like a pipe,
// sometimes less: every third read is cut short, so that reads start at offsets of no particular alignment).
struct FakePipe
{
    static inline std::vector<std::byte> stream;
    static inline std::size_t position = 0;
    static inline std::size_t reads = 0;
    static constexpr std::size_t kReadBytes = 256 * 1024;

    struct Handle
    {
        bool open = true;
        void reset() { open = false; }
    };

    static bool discardAll(Handle&, StreamCheck&) { return false; }

    static std::int64_t read(Handle&, std::byte* into, std::size_t bytes, Outcome&)
    {
        std::size_t n = std::min(bytes, stream.size() - position);
        if (++reads % 3 == 0)
            n = std::min<std::size_t>(n, 4093);
        std::memcpy(into, stream.data() + position, n);
        position += n;
        return static_cast<std::int64_t>(n);
    }
};

class PipeReaderCheck : public ::testing::Test
{
protected:
    // The stream a writer with a 64 KiB chunk sends: its pattern's buffer is 320 KiB, less than a read.
    const Pattern pattern{64 * 1024};
    const std::size_t bytes = 3 * 1024 * 1024 + 12345;

    void SetUp() override
    {
        FakePipe::stream.resize(bytes);
        for (std::size_t done = 0; done < bytes; done += 64 * 1024)
            std::memcpy(FakePipe::stream.data() + done, pattern.at(done),
                        std::min<std::size_t>(64 * 1024, bytes - done));
        FakePipe::position = 0;
        FakePipe::reads = 0;
    }

    Outcome drain(bool verify)
    {
        PipeReader<FakePipe> reader(FakePipe::Handle{}, pattern, verify, std::nullopt);
        Outcome started;
        EXPECT_TRUE(reader.start(started)) << started.message;
        reader.join();
        return reader.outcome(bytes);
    }
};

TEST_F(PipeReaderCheck, AStreamAsWrittenPasses)
{
    const Outcome outcome = drain(true);
    EXPECT_TRUE(outcome.ok()) << outcome.message;
    EXPECT_GT(FakePipe::reads, bytes / FakePipe::kReadBytes) << "the stream came in many reads";
}

TEST_F(PipeReaderCheck, AWrongByteIsFoundAtItsOffsetWhereverItFalls)
{
    // In the first read, at a read's wrap of the pattern's buffer (320 KiB), past a period, and the last
    // byte.
    for (const std::size_t at :
         {std::size_t{17}, std::size_t{320 * 1024 + 1}, std::size_t{1024 * 1024 + 3}, bytes - 1}) {
        SetUp();
        FakePipe::stream[at] ^= std::byte{0x5a};
        const Outcome outcome = drain(true);
        EXPECT_EQ(outcome.status, Status::Failed) << at;
        EXPECT_THAT(outcome.message, ::testing::HasSubstr(fmt::format("byte {} differs", at)));
    }
}

TEST_F(PipeReaderCheck, WithoutVerificationTheBytesAreCountedOnly)
{
    FakePipe::stream[1000] ^= std::byte{1};
    EXPECT_TRUE(drain(false).ok());
}

TEST_F(PipeReaderCheck, ABackendWithoutAReaderProcessSaysSo)
{
    PipeReader<FakePipe> reader(FakePipe::Handle{}, pattern, true, std::nullopt, {.process = true});
    Outcome started;
    EXPECT_FALSE(reader.start(started));
    EXPECT_EQ(started.status, Status::Unsupported);
    EXPECT_THAT(started.message, ::testing::HasSubstr("runs the pipe's reader as a thread"));
}

TEST_F(PipeReaderCheck, AShortStreamSaysHowMuchArrived)
{
    FakePipe::stream.resize(bytes - 100);
    const Outcome outcome = drain(true);
    EXPECT_EQ(outcome.status, Status::Failed);
    EXPECT_THAT(outcome.message,
                ::testing::HasSubstr(fmt::format("{} bytes arrived, expected {}", bytes - 100, bytes)));
}

} // namespace
} // namespace iolab
