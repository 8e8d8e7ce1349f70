// SPDX-License-Identifier: MIT
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/base/words.h"
#include "core/model/case.h"
#include "core/model/target.h"

#include <gtest/gtest.h>

using namespace iolab;

struct BytesRow
{
    const char* text;
    std::uint64_t bytes;
};

class ParseBytes : public ::testing::TestWithParam<BytesRow>
{};

TEST_P(ParseBytes, Accepts)
{
    EXPECT_EQ(parseBytes(GetParam().text, "size"), GetParam().bytes);
}

INSTANTIATE_TEST_SUITE_P(Units, ParseBytes,
                         ::testing::Values(BytesRow{"1", 1}, BytesRow{"512", 512}, BytesRow{"4K", 4096},
                                           BytesRow{"4k", 4096}, BytesRow{"4KiB", 4096},
                                           BytesRow{"64 KB", 65536}, BytesRow{"1M", 1048576},
                                           BytesRow{"2G", 2147483648ULL}, BytesRow{"1T", 1099511627776ULL},
                                           BytesRow{" 8M ", 8388608}));

class RejectBytes : public ::testing::TestWithParam<const char*>
{};

TEST_P(RejectBytes, ThrowsInputError)
{
    EXPECT_THROW(parseBytes(GetParam(), "size"), InputError);
}

INSTANTIATE_TEST_SUITE_P(Units, RejectBytes,
                         ::testing::Values("", "-1", "-4K", "abc", "4Q", "K", "1.5M", "99999999999999999999",
                                           "20000000T"));

TEST(Units, NegativeSizeMessageSaysSo)
{
    try {
        parseBytes("-5", "--size");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("--size"), std::string::npos);
    }
}

TEST(Units, Formatting)
{
    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(4096), "4 KiB");
    EXPECT_EQ(formatBytes(1536 * 1024), "1.5 MiB");
    EXPECT_EQ(formatBytesCompact(1), "1");
    EXPECT_EQ(formatBytesCompact(65536), "64K");
    EXPECT_EQ(formatBytesCompact(1536), "1536");
    EXPECT_EQ(formatRate(2.1e9), "2.10 GB/s");
    EXPECT_EQ(formatRate(310e6), "310.0 MB/s");
    EXPECT_DOUBLE_EQ(toMBps(2000000, 2.0), 1.0);
    EXPECT_EQ(formatDuration(0.25), "250 ms");
    EXPECT_EQ(formatDuration(185), "3 min 05 s");
}

TEST(Units, TimeLimitsParseInTheirUnitsAndRoundTrip)
{
    EXPECT_EQ(parseTimeLimitMs("300ms", "--duration"), 300u);
    EXPECT_EQ(parseTimeLimitMs("5s", "--duration"), 5000u);
    EXPECT_EQ(parseTimeLimitMs(" 1.5S ", "--duration"), 1500u);
    EXPECT_EQ(parseTimeLimitMs("2m", "--duration"), 120'000u);
    EXPECT_EQ(parseTimeLimitMs("2min", "--duration"), 120'000u);
    for (const std::uint64_t ms : {std::uint64_t{1}, std::uint64_t{300}, std::uint64_t{1500},
                                   std::uint64_t{5000}, std::uint64_t{120000}, kMaxTimeLimitMs})
        EXPECT_EQ(parseTimeLimitMs(formatTimeLimitMs(ms), "x"), ms) << formatTimeLimitMs(ms);
    EXPECT_EQ(formatTimeLimitMs(5000), "5s");
    EXPECT_EQ(formatTimeLimitMs(1500), "1500ms");
    for (const char* bad : {"", "5", "s", "5h", "-1s", "0s", "0.5ms", "1.2.3s", "25h", "1441m"}) {
        try {
            parseTimeLimitMs(bad, "--duration");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("--duration"), std::string::npos) << e.what();
        }
    }
}

TEST(Words, ListsAndArticlesAsSaidAloud)
{
    EXPECT_EQ(joinWords({}), "");
    EXPECT_EQ(joinWords({"write"}), "write");
    EXPECT_EQ(joinWords({"write", "stdio"}), "write and stdio");
    EXPECT_EQ(joinWords({"write", "stdio", "mmap"}), "write, stdio and mmap");
    EXPECT_EQ(withArticle("NVMe SSD"), "an NVMe SSD");
    EXPECT_EQ(withArticle("SD card or eMMC"), "an SD card or eMMC");
    EXPECT_EQ(withArticle("SATA SSD"), "a SATA SSD");
    EXPECT_EQ(withArticle("USB drive"),
              "a USB drive"); // "you-ess-bee": the health verdict said "an USB drive"
    EXPECT_EQ(withArticle("hard disk"), "a hard disk");
    EXPECT_EQ(withArticle("virtual disk"), "a virtual disk");
    EXPECT_EQ(withArticle("device of unknown kind"), "a device of unknown kind");
    EXPECT_EQ(formatMBps(1234.0), formatRate(1234.0e6));
}

TEST(Target, MountOptionsAreMatchedWhole)
{
    EXPECT_TRUE(hasMountOption("rw,relatime,discard", "discard"));
    EXPECT_TRUE(hasMountOption("discard", "discard"));
    EXPECT_TRUE(hasMountOption("rw,barrier=0", "barrier=0"));
    EXPECT_FALSE(hasMountOption("rw,nodiscard", "discard"));
    EXPECT_FALSE(hasMountOption("rw,discard=async", "discard"));
    EXPECT_FALSE(hasMountOption("", "discard"));
    EXPECT_FALSE(hasMountOption("rw,,sync", "dirsync"));
}

TEST(Case, SyncPoliciesRoundTrip)
{
    for (const char* text :
         {"none", "fsync-end", "fdatasync-end", "fsync-every:16", "fdatasync-every:1", "O_SYNC", "O_DSYNC"})
        EXPECT_EQ(toString(parseSyncPolicy(text)), text);
    EXPECT_THROW(parseSyncPolicy("fsync-every:0"), InputError);
    EXPECT_THROW(parseSyncPolicy("fdatasync-every:0"), InputError);
    EXPECT_THROW(parseSyncPolicy("fsync-every:x"), InputError);
    EXPECT_THROW(parseSyncPolicy("sometimes"), InputError);
}

TEST(Case, DataPatternsRoundTripAndRefuseNonsense)
{
    for (const char* text :
         {"iolab", "zeros", "random", "compressible:50%", "compressible:1%", "compressible:99%"})
        EXPECT_EQ(toString(parseDataPattern(text)), text);
    EXPECT_EQ(parseDataPattern("compressible:30"), (DataPattern{PatternKind::Compressible, 30}));
    for (const char* bad : {"compressible:0%", "compressible:100%", "compressible:", "compressible:x%",
                            "compressible:-5%", "ones", ""})
        EXPECT_THROW(parseDataPattern(bad), InputError) << bad;
    try {
        parseDataPattern("compressible:100%");
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "pattern 'compressible:100%': a compressible share is 1 to 99 per cent (0% is "
                               "random, 100% is zeros)");
    }
}

TEST(Case, BuffersRoundTrip)
{
    EXPECT_EQ(parseStdioBuffer("none").mode, BufferMode::None);
    EXPECT_EQ(parseStdioBuffer("default").mode, BufferMode::Default);
    EXPECT_EQ(parseStdioBuffer("64K").bytes, 65536u);
    EXPECT_EQ(toString(parseStdioBuffer("64K")), "64K");
    EXPECT_THROW(parseStdioBuffer("0"), InputError);
}

TEST(Case, ThreadSharesAddUp)
{
    Case c;
    c.totalBytes = 1000;
    c.threads = 3;
    EXPECT_EQ(c.bytesForThread(0), 333u);
    EXPECT_EQ(c.bytesForThread(1), 333u);
    EXPECT_EQ(c.bytesForThread(2), 334u);
}

TEST(Case, LabelNamesEveryAxis)
{
    Case c{
        "stdio", Direction::Write,     1, 512 * kMiB, {BufferMode::Bytes, 64 * kKiB}, {SyncMode::FsyncEnd, 0},
        2,       TargetKind::Directory};
    EXPECT_EQ(c.label(), "stdio chunk=1 buf=64K sync=fsync-end threads=2 size=512M");
}
