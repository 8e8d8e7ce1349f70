// SPDX-License-Identifier: MIT
// The profile of a recorded program, from calls made up here: each statement fires where it must and stays
// silent where it must not (no "never synced" for a program that synced or wrote O_DSYNC, no data at risk on
// a terminal, nothing "not seen" that was seen).
#include "core/analysis/program_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace iolab;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

TraceEvent event(trace::Call call, std::uint64_t handle, std::uint64_t bytes, std::int64_t result,
                 std::uint64_t atNs, std::uint32_t flags = 0, std::string path = {})
{
    TraceEvent e;
    e.call = call;
    e.handle = handle;
    e.bytes = bytes;
    e.result = result;
    e.flags = flags;
    e.startNs = atNs;
    e.endNs = atNs + 10;
    e.insideNs = 10;
    e.path = std::move(path);
    return e;
}

std::string wordsOf(const std::vector<TraceEvent>& events)
{
    ProgramProfiler profiler;
    for (const TraceEvent& e : events)
        profiler.add(e);
    TraceProcess process;
    process.arguments = {"prog"};
    process.endNs = 1'000'000;
    std::string text;
    for (const std::string& line : describeProgramProfile(profiler.finish({process}, {})))
        text += line + "\n";
    return text;
}

constexpr std::uint32_t kCreate = trace::OpenWrite | trace::OpenCreate | trace::OpenTruncate;

} // namespace

TEST(ProgramProfile, DataWrittenAndSyncedIsNotAtRiskAfterTheSync)
{
    ProgramProfiler profiler;
    profiler.add(event(trace::Call::Open, 3, 0, 3, 0, kCreate, "/d/f"));
    auto writes = event(trace::Call::Write, 3, 4096, 4096, 100);
    writes.count = 4;
    profiler.add(writes);
    profiler.add(event(trace::Call::Fsync, 3, 0, 0, 200));
    profiler.add(event(trace::Call::Write, 3, 4096, 4096, 300));
    const ProgramProfile profile = profiler.finish({}, {});
    EXPECT_EQ(profile.maxAtRiskBytes, 4u * 4096);
    EXPECT_EQ(profile.syncs, 1u);
    EXPECT_EQ(profile.bytesWritten, 5u * 4096);
    EXPECT_EQ(profile.largestBytesBetweenSyncs, 4u * 4096);
}

TEST(ProgramProfile, NeverSyncedIsSaidOnlyOfAProgramThatNeitherSyncedNorWroteDurably)
{
    const std::vector<TraceEvent> unsynced = {event(trace::Call::Open, 3, 0, 3, 0, kCreate, "/d/f"),
                                              event(trace::Call::Write, 3, 10, 10, 100)};
    EXPECT_THAT(wordsOf(unsynced), HasSubstr("it never asked for its data to be on the device"));

    std::vector<TraceEvent> synced = unsynced;
    synced.push_back(event(trace::Call::Fdatasync, 3, 0, 0, 200));
    EXPECT_THAT(wordsOf(synced), Not(HasSubstr("never asked")));

    const std::vector<TraceEvent> dsync = {
        event(trace::Call::Open, 3, 0, 3, 0, kCreate | trace::OpenDSync, "/d/f"),
        event(trace::Call::Write, 3, 10, 10, 100)};
    const std::string words = wordsOf(dsync);
    EXPECT_THAT(words, Not(HasSubstr("never asked")));
    EXPECT_THAT(words, HasSubstr("1 write returned durable"));
    EXPECT_THAT(words, HasSubstr("At worst 0 B"));
}

TEST(ProgramProfile, WritesToATerminalOrPipeAreNeitherFileBytesNorAtRisk)
{
    const std::vector<TraceEvent> events = {
        event(trace::Call::Open, 1, 0, 1, 0, trace::OpenWrite | trace::OpenInherited, "/dev/pts/3"),
        event(trace::Call::Open, 4, 0, 4, 0, trace::OpenWrite | trace::OpenInherited, "pipe:[77]"),
        event(trace::Call::Write, 1, 100, 100, 10), event(trace::Call::Write, 4, 100, 100, 20)};
    const std::string words = wordsOf(events);
    EXPECT_THAT(words, Not(HasSubstr("It wrote")));
    EXPECT_THAT(words, Not(HasSubstr("never asked")));
    EXPECT_THAT(words, Not(HasSubstr("Files (")));
    EXPECT_THAT(words, Not(HasSubstr("Not seen")));
}

TEST(ProgramProfile, OnlyWhatItWasGivenIsNoFileIo)
{
    const std::vector<TraceEvent> events = {
        event(trace::Call::Open, 1, 0, 1, 0, trace::OpenWrite | trace::OpenInherited, "/tmp/out.txt")};
    const std::string words = wordsOf(events);
    EXPECT_THAT(words, HasSubstr("prog made no call on a file that the recorder saw."));
    EXPECT_THAT(words, Not(HasSubstr("/tmp/out.txt")));
}

TEST(ProgramProfile, ARenameOverAnExistingFileIsAnAtomicReplaceAndARenameToANewNameIsNot)
{
    std::vector<TraceEvent> events = {event(trace::Call::Open, 3, 0, 3, 0, kCreate, "/d/new"),
                                      event(trace::Call::Close, 3, 0, 0, 10)};
    auto rename = event(trace::Call::Rename, 0, 0, 0, 20, 0, "/d/new");
    rename.path2 = "/d/other";
    events.push_back(rename);
    EXPECT_THAT(wordsOf(events), Not(HasSubstr("atomic-replace")));

    events.insert(events.begin(), event(trace::Call::Open, 5, 0, 5, 0, trace::OpenRead, "/d/other"));
    EXPECT_THAT(wordsOf(events), HasSubstr("renaming another over it once (the atomic-replace pattern)"));
}

// fputs returns a non-negative number, not the bytes it wrote (glibc returns 1): the string's length, which
// the record keeps, is what the file got. Found by the replay, whose own count of the bytes at risk had two
// more than the profile's for sqlite3's "wal\n".
TEST(ProgramProfile, AnFputsCountsItsStringsBytesNotItsReturnValue)
{
    ProgramProfiler profiler;
    TraceEvent open = event(trace::Call::FOpen, 0x5000, 0, 0, 100, kCreate, "/data/log.txt");
    open.offset = 3;
    profiler.add(open);
    TraceEvent puts = event(trace::Call::FPuts, 0x5000, 12, 1, 200);
    puts.count = 3;
    profiler.add(puts);
    TraceProcess process;
    process.arguments = {"prog"};
    const ProgramProfile profile = profiler.finish({process}, {});
    EXPECT_EQ(profile.bytesWritten, 36u);
    EXPECT_EQ(profile.maxAtRiskBytes, 36u);
    ASSERT_FALSE(profile.files.empty());
    EXPECT_EQ(profile.files.front().bytesWritten, 36u);
}
