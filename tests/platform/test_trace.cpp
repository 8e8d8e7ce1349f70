// SPDX-License-Identifier: MIT
// A trace written by the recorder's writer (platform/common/trace_part_writer.h) and read back by core's
// reader (core/model/trace_reader.h): the calls as they were, identical calls kept as one record, a part a
// killed program left, the merge, and every kind of bad trace refused with its reason.
#include "core/base/error.h"
#include "core/model/trace_reader.h"
#include "platform/common/trace_part_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <thread>

using namespace iolab;
using ::testing::HasSubstr;

namespace {

// A part file in memory: the room reserved up front, so that base() never moves, as the mapping's does.
class MemoryPartFile final : public recorder::PartFile
{
public:
    explicit MemoryPartFile(std::uint64_t largestBytes = 64ull << 20) : m_largest(largestBytes)
    {
        m_bytes.reserve(largestBytes);
    }
    bool growTo(std::uint64_t bytes) override
    {
        if (bytes > m_largest)
            return false;
        if (bytes > m_bytes.size())
            m_bytes.resize(bytes, 0);
        return true;
    }
    unsigned char* base() override { return m_bytes.data(); }
    std::string text() const { return {reinterpret_cast<const char*>(m_bytes.data()), m_bytes.size()}; }

private:
    std::uint64_t m_largest;
    std::vector<unsigned char> m_bytes;
};

recorder::Call call(trace::Call kind, std::uint64_t handle, std::uint64_t bytes, std::int64_t offset,
                    std::int64_t result, std::uint64_t startNs, std::uint64_t endNs)
{
    recorder::Call c{kind};
    c.handle = handle;
    c.bytes = bytes;
    c.offset = offset;
    c.result = result;
    c.startNs = startNs;
    c.endNs = endNs;
    return c;
}

std::vector<TraceEvent> eventsOf(TraceReader& reader)
{
    std::vector<TraceEvent> events;
    reader.forEachEvent([&](const TraceEvent& event) {
        events.push_back(event);
        return true;
    });
    return events;
}

// A part of one process: its program, an open, ten identical writes, a write elsewhere, a failed fsync, exit.
std::string samplePart(MemoryPartFile& file)
{
    recorder::PartWriter::forgetThread();
    recorder::PartWriter part(file, trace::System::Linux, 4242, 1, 1'700'000'000'000'000'000ull, 5'000'000);
    EXPECT_TRUE(part.ready());
    const std::string program = std::string("/usr/bin/prog\0prog\0-x\0\0/home/u", 31);
    part.process(4242, program, 2);
    auto open = call(trace::Call::Open, 3, 0, -1, 3, 100, 200);
    open.path = "/data/out.bin";
    open.flags = trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate;
    EXPECT_TRUE(part.record(4242, open));
    for (int i = 0; i < 10; ++i)
        EXPECT_TRUE(
            part.record(4242, call(trace::Call::Write, 3, 4096, -1, 4096, 1000 + i * 100, 1050 + i * 100)));
    EXPECT_TRUE(part.record(4242, call(trace::Call::PWrite, 3, 512, 0, 512, 3000, 3100)));
    EXPECT_TRUE(part.record(4242, call(trace::Call::PWrite, 3, 512, 512, 512, 3200, 3300)));
    auto failed = call(trace::Call::Fsync, 3, 0, -1, -1, 4000, 9000);
    failed.error = 5;
    EXPECT_TRUE(part.record(4242, failed));
    part.note(4242, trace::NoteKind::RawSyscall, 1, 9500, "write");
    part.exit(4242, 3, 10'000);
    return file.text();
}

} // namespace

TEST(Trace, ACallsRecordsReadBackAsTheyWereWithIdenticalCallsKeptAsOne)
{
    MemoryPartFile file;
    std::istringstream in(samplePart(file));
    TraceReader reader(in, "sample.part");
    ASSERT_EQ(reader.processes().size(), 1u);
    const TraceProcess& process = reader.processes()[0];
    EXPECT_EQ(process.pid, 4242u);
    EXPECT_EQ(process.parentPid, 1u);
    EXPECT_EQ(process.executable, "/usr/bin/prog");
    EXPECT_EQ(process.arguments, (std::vector<std::string>{"prog", "-x"}));
    EXPECT_EQ(process.workingFolder, "/home/u");
    ASSERT_TRUE(process.exitStatus.has_value());
    EXPECT_EQ(*process.exitStatus, 3);
    EXPECT_TRUE(process.ended);

    const std::vector<TraceEvent> events = eventsOf(reader);
    ASSERT_EQ(events.size(), 4u); // open, the ten writes as one, two pwrites as one, the fsync
    EXPECT_EQ(reader.eventRecords(), 4u);
    EXPECT_EQ(events[0].call, trace::Call::Open);
    EXPECT_EQ(events[0].path, "/data/out.bin");
    EXPECT_EQ(events[0].flags, trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate);
    EXPECT_EQ(events[1].call, trace::Call::Write);
    EXPECT_EQ(events[1].count, 10u);
    EXPECT_EQ(events[1].bytes, 4096u);
    EXPECT_EQ(events[1].startNs, 1000u);
    EXPECT_EQ(events[1].endNs, 1950u);
    EXPECT_EQ(events[1].insideNs, 500u); // ten calls of 50 ns; the time between them is not inside a call
    EXPECT_EQ(events[2].call, trace::Call::PWrite);
    EXPECT_EQ(events[2].count, 2u); // contiguous: 0 then 512
    EXPECT_EQ(events[3].call, trace::Call::Fsync);
    EXPECT_EQ(events[3].error, 5);
    EXPECT_EQ(events[3].result, -1);
    ASSERT_EQ(reader.notes().size(), 1u);
    EXPECT_EQ(reader.notes()[0].text, "write");
    EXPECT_EQ(reader.notes()[0].kind, trace::NoteKind::RawSyscall);
}

TEST(Trace, CallsThatDifferOrFailAreNeverFoldedIntoARun)
{
    MemoryPartFile file;
    recorder::PartWriter::forgetThread();
    recorder::PartWriter part(file, trace::System::Linux, 1, 0, 0, 0);
    part.record(1, call(trace::Call::PWrite, 3, 512, 0, 512, 10, 20));
    part.record(1, call(trace::Call::PWrite, 3, 512, 4096, 512, 30, 40)); // not contiguous
    part.record(1, call(trace::Call::PWrite, 3, 256, 4608, 256, 50, 60)); // another size
    part.record(1, call(trace::Call::PWrite, 4, 256, 4864, 256, 70, 80)); // another descriptor
    part.record(1, call(trace::Call::Write, 4, 256, -1, 100, 90, 95));    // short
    part.record(1, call(trace::Call::Write, 4, 256, -1, 256, 96, 99));    // full again: another result
    std::istringstream in(file.text());
    TraceReader reader(in, "part");
    const auto events = eventsOf(reader);
    ASSERT_EQ(events.size(), 6u);
    for (const TraceEvent& event : events)
        EXPECT_EQ(event.count, 1u);
}

TEST(Trace, EachThreadWritesItsOwnChunksAndTheCallsComeBackInTheOrderTheyStarted)
{
    MemoryPartFile file;
    recorder::PartWriter::forgetThread();
    recorder::PartWriter part(file, trace::System::Linux, 7, 0, 0, 0);
    constexpr int kCalls = 3000; // several chunks each: distinct offsets, so no two fold into one
    auto writer = [&](std::uint32_t tid, std::uint64_t firstNs) {
        recorder::PartWriter::forgetThread();
        for (int i = 0; i < kCalls; ++i) {
            const std::uint64_t at = firstNs + static_cast<std::uint64_t>(i) * 10;
            part.record(tid, call(trace::Call::PWrite, tid, 100, static_cast<std::int64_t>(i) * 1000, 100, at,
                                  at + 1));
        }
    };
    std::thread a(writer, 100u, 0u);
    std::thread b(writer, 200u, 5u);
    a.join();
    b.join();
    std::istringstream in(file.text());
    TraceReader reader(in, "part");
    const auto events = eventsOf(reader);
    ASSERT_EQ(events.size(), 2u * kCalls);
    std::uint64_t last = 0;
    std::map<std::uint32_t, int> perThread;
    for (const TraceEvent& event : events) {
        EXPECT_GE(event.startNs, last);
        last = event.startNs;
        EXPECT_EQ(event.handle, event.tid);
        ++perThread[event.tid];
    }
    EXPECT_EQ(perThread[100], kCalls);
    EXPECT_EQ(perThread[200], kCalls);
}

TEST(Trace, APartLeftByAKilledProgramIsReadUpToItsLastFinishedRecord)
{
    MemoryPartFile file;
    recorder::PartWriter::forgetThread();
    recorder::PartWriter part(file, trace::System::Linux, 9, 1, 0, 0);
    part.record(9, call(trace::Call::Write, 1, 10, -1, 10, 1, 2));
    part.record(9, call(trace::Call::Fsync, 1, 0, -1, 0, 3, 4));
    // Killed here: no Exit record, the file as long as the mapping was, and in the middle of it a chunk taken
    // but never written (a thread killed between taking it and writing its header).
    std::string bytes = file.text();
    bytes.resize(bytes.size() + recorder::PartWriter::kChunkBytes, '\0');
    std::istringstream in(bytes);
    TraceReader reader(in, "killed.part");
    EXPECT_EQ(eventsOf(reader).size(), 2u);
    EXPECT_FALSE(reader.processes()[0].ended);
    EXPECT_FALSE(reader.processes()[0].exitStatus.has_value());
}

TEST(Trace, MergedPartsKeepEveryCallAndOnlyTheRoomTheyUse)
{
    MemoryPartFile first;
    MemoryPartFile second;
    samplePart(first);
    recorder::PartWriter::forgetThread();
    recorder::PartWriter child(second, trace::System::Linux, 4243, 4242, 0, 5'000'500);
    child.record(4243, call(trace::Call::Fsync, 9, 0, -1, 0, 10, 20));
    std::istringstream a(first.text());
    std::istringstream b(second.text());
    std::ostringstream merged;
    mergeTraceParts({{&a, "a.part"}, {&b, "b.part"}}, merged);
    const std::string trace = merged.str();
    EXPECT_LT(trace.size(), 2000u); // two parts of 1 MiB each, compacted
    std::istringstream in(trace);
    TraceReader reader(in, "merged.iolab-trace");
    ASSERT_EQ(reader.processes().size(), 2u);
    EXPECT_EQ(reader.processes()[1].parentPid, 4242u);
    const auto events = eventsOf(reader);
    ASSERT_EQ(events.size(), 5u);
    // The child started 500 ns after the parent: its fsync at 10 ns of its own clock is at 510 ns.
    EXPECT_EQ(events[0].call, trace::Call::Open); // at 100 ns
    const auto childFsync =
        std::find_if(events.begin(), events.end(), [](const TraceEvent& e) { return e.process == 1; });
    ASSERT_NE(childFsync, events.end());
    EXPECT_EQ(childFsync->startNs, 510u);
}

TEST(Trace, APartThatCannotGrowDropsCallsAndCountsThem)
{
    MemoryPartFile file(recorder::PartWriter::kFirstBytes); // never more than its first megabyte
    recorder::PartWriter::forgetThread();
    recorder::PartWriter part(file, trace::System::Linux, 1, 0, 0, 0);
    int kept = 0;
    for (int i = 0; i < 20'000; ++i)
        kept += part.record(1, call(trace::Call::PWrite, 3, 1, i * 7, 1, static_cast<std::uint64_t>(i),
                                    static_cast<std::uint64_t>(i)))
                    ? 1
                    : 0;
    EXPECT_GT(kept, 10'000);
    EXPECT_LT(kept, 20'000);
    EXPECT_EQ(part.dropped(), static_cast<std::uint64_t>(20'000 - kept));
    std::istringstream in(file.text());
    TraceReader reader(in, "full.part");
    EXPECT_EQ(eventsOf(reader).size(), static_cast<std::size_t>(kept));
}

// Bad traces: each refused with what is wrong, never read as something else.
TEST(Trace, BadTracesAreRefusedWithTheirReason)
{
    auto refusal = [](const std::string& bytes) {
        std::istringstream in(bytes);
        try {
            TraceReader reader(in, "t.iolab-trace");
            eventsOf(reader);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_THAT(refusal(""), HasSubstr("t.iolab-trace is empty"));
    EXPECT_THAT(refusal("IOLAB"), HasSubstr("is not an IOLab trace"));
    EXPECT_THAT(refusal(std::string(200, 'x')),
                HasSubstr("is not an IOLab trace (it does not start with IOLABTRC)"));

    MemoryPartFile file;
    const std::string good = samplePart(file);
    std::string future = good;
    const std::uint32_t version = 7;
    std::memcpy(future.data() + 8, &version, sizeof version);
    EXPECT_THAT(refusal(future),
                HasSubstr("was written by a newer IOLab (trace version 7; this IOLab reads version 1)"));

    std::istringstream part(good);
    std::ostringstream merged;
    mergeTraceParts({{&part, "p"}}, merged);
    const std::string trace = merged.str();
    EXPECT_THAT(refusal(trace.substr(0, trace.size() - 40)), HasSubstr("is truncated"));
    EXPECT_THAT(
        refusal(trace + "garbage-garbage-garbage-garbage-garbage-garbage-garbage-garbage-garbage-garbage"),
        HasSubstr("corrupt at byte"));
    std::string badRecord = trace;
    // The first record of the first chunk (after the 72-byte header and the 16-byte chunk header) says it is
    // longer than its chunk.
    const std::uint16_t huge = 65000;
    std::memcpy(badRecord.data() + 72 + 16 + 2, &huge, sizeof huge);
    EXPECT_THAT(refusal(badRecord), HasSubstr("corrupt at byte 88: a record says it is 65000 bytes long"));
    std::string unknownType = trace;
    const std::uint16_t type = 99;
    std::memcpy(unknownType.data() + 72 + 16, &type, sizeof type);
    EXPECT_THAT(refusal(unknownType), HasSubstr("a record of unknown type 99"));
}

TEST(Trace, WhatAPathNamesOnEitherSystem)
{
    EXPECT_EQ(fileKindOf("/home/u/out.bin"), FileKind::Regular);
    EXPECT_EQ(fileKindOf("/dev/pts/3"), FileKind::Terminal);
    EXPECT_EQ(fileKindOf("pipe:[4021]"), FileKind::Pipe);
    EXPECT_EQ(fileKindOf("/dev/null"), FileKind::Device);
    // The Windows recorder's paths: made absolute, devices in the \\.\ namespace.
    EXPECT_EQ(fileKindOf("C:\\Users\\u\\out.bin"), FileKind::Regular);
    EXPECT_EQ(fileKindOf("\\\\.\\CON"), FileKind::Terminal);
    EXPECT_EQ(fileKindOf("\\\\.\\CONOUT$"), FileKind::Terminal);
    EXPECT_EQ(fileKindOf("\\\\.\\pipe\\build-log"), FileKind::Pipe);
    EXPECT_EQ(fileKindOf("\\\\.\\NUL"), FileKind::Device);
    EXPECT_EQ(fileKindOf("\\\\.\\nul"), FileKind::Device);
}
