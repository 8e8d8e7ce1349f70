// SPDX-License-Identifier: MIT
// The run command's axis flags come from the axis declarations (issue 15 §1): a test-only axis gets its flag,
// its help and its parsing from its declaration alone.
#include "app/cli/axis_flags.h"
#include "core/base/error.h"
#include "tests/support/test_axis.h"

#include <CLI/CLI.hpp>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

namespace iolab::cli {
namespace {

using ::testing::HasSubstr;

MatrixGroup parse(std::vector<std::string> args)
{
    CLI::App app;
    AxisFlagValues values;
    addAxisOptions(app, values);
    std::reverse(args.begin(), args.end()); // CLI11 takes a reversed vector
    app.parse(args);
    return groupFromAxisFlags(values);
}

TEST(AxisFlags, TestOnlyAxisHasItsFlagHelpAndParsing)
{
    test::QueueDepthAxis axis;
    CLI::App app;
    AxisFlagValues values;
    addAxisOptions(app, values);
    EXPECT_THAT(app.help(), HasSubstr("--depth"));
    EXPECT_THAT(app.help(), HasSubstr("Writes: requests in flight, 1 to 128"));

    const MatrixGroup g = parse({"--strategy", "fake", "--chunk", "4K", "--depth", "1,8", "--depth", "32"});
    EXPECT_EQ(g.strategies, std::vector<std::string>{"fake"});
    EXPECT_EQ(g.chunks, std::vector<std::uint64_t>{4096});
    EXPECT_EQ(g.extraAxes.at("depths"), (std::vector<std::string>{"1", "8", "32"}));

    try {
        parse({"--depth", "1,500"});
        FAIL() << "500 is outside the declared range";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "--depth: queue depth 500 is outside 1 to 128");
    }
}

TEST(AxisFlags, WithoutTheTestAxisThereIsNoFlag)
{
    EXPECT_THROW(parse({"--depth", "8"}), CLI::ParseError);
}

TEST(AxisFlags, BuiltinAxesParseAsTheyDid)
{
    const MatrixGroup g =
        parse({"--threads", "1,4", "--hint", "random", "--files", "2000x4K", "--size", "64M"});
    EXPECT_EQ(g.threads, (std::vector<std::uint32_t>{1, 4}));
    EXPECT_EQ(g.hints, std::vector<ReadHint>{ReadHint::Random});
    EXPECT_EQ(g.fileSets.size(), 1u);
    EXPECT_EQ(g.sizes, std::vector<std::uint64_t>{64ULL << 20});
    try {
        parse({"--threads", "2,abc"});
        FAIL();
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "--threads: 'abc' is not a whole number");
    }
}

TEST(AxisFlags, ReaderCpuTakesItsThreePlacements)
{
    EXPECT_EQ(parse({"--reader-cpu", "same,other"}).readerCpus,
              (std::vector<ReaderCpu>{ReaderCpu::Same, ReaderCpu::Other}));
    EXPECT_TRUE(parse({}).readerCpus.empty()) << "not given: the scheduler places the reader";
    try {
        parse({"--reader-cpu", "near"});
        FAIL();
    } catch (const InputError& e) {
        EXPECT_THAT(e.what(), HasSubstr("unknown reader CPU 'near' (use any, same or other)"));
    }
}

} // namespace
} // namespace iolab::cli
