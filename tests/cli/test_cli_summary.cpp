// SPDX-License-Identifier: MIT
// Issue 14: iolab-cli prints a Summary under its table (the matrix's question and the answer with its
// numbers), --no-summary leaves it out, --rank chooses what file writes are ranked by, and the trimmed mean
// is shown only from kTrimmedMeanMinCount repetitions on.
#include "core/base/stats.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

constexpr const char* kQuestion = "Which of two write calls suits a small log file?";

class CliSummary : public ::testing::Test
{
protected:
    CliSummary()
    {
        m_matrix = m_out.path() + "/matrix.json";
        std::ofstream(m_matrix) << R"({"name": "summary-test", "question": ")" << kQuestion
                                << R"(", "strategies": ["stdio", "write"], "chunks": "64K", "sizes": "8M"})";
    }

    ProcessResult run(std::vector<std::string> extra)
    {
        std::vector<std::string> args{"run",       "--target", m_target.path(), "--matrix",     m_matrix,
                                      "--warmups", "0",        "--quiet",       "--no-sampling"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runProcess(IOLAB_CLI_PATH, args, {stateHome(m_state.path())});
    }

    // The table row of case `index` (1-based), split at blanks.
    static std::vector<std::string> row(const std::string& out, int index)
    {
        std::istringstream lines(out);
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream words(line);
            std::vector<std::string> cells;
            for (std::string w; words >> w;)
                cells.push_back(w);
            if (cells.size() > 10 && cells[0] == std::to_string(index) && cells[1] != "#")
                return cells;
        }
        return {};
    }

    TempDir m_target;
    TempDir m_out;
    TempDir m_state;
    std::string m_matrix;
};

} // namespace

TEST_F(CliSummary, PrintsTheQuestionAndTheAnswerUnderTheTable)
{
    const auto r = run({"--reps", "1"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto table = r.out.find("MB/s = 10^6 bytes/s");
    const auto summary = r.out.find("\nSummary\n");
    ASSERT_NE(table, std::string::npos) << r.out;
    ASSERT_NE(summary, std::string::npos) << r.out;
    EXPECT_LT(table, summary) << "the summary comes under the table";
    EXPECT_THAT(r.out, HasSubstr(std::string("Question: ") + kQuestion));
    EXPECT_THAT(r.out, HasSubstr("Answer:   To write 64 KiB chunks to a file here,"));
    EXPECT_THAT(r.out, HasSubstr("durable"));
    EXPECT_THAT(r.out, HasSubstr("Terms:"));
    EXPECT_THAT(r.out.substr(summary), Not(HasSubstr("case 1"))) << "no case numbers in the summary";
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(m_target.path()), {}), 0);
}

TEST_F(CliSummary, NoSummarySkipsIt)
{
    const auto r = run({"--reps", "1", "--no-summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("MB/s = 10^6 bytes/s"));
    EXPECT_THAT(r.out, Not(HasSubstr("Summary")));
    EXPECT_THAT(r.out, Not(HasSubstr(kQuestion)));
}

TEST_F(CliSummary, RankChoosesDurableOrApparentAndRefusesOtherWords)
{
    auto r = run({"--reps", "1", "--rank", "apparent"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    // The Summary's lines wrap where they will: read them as one text.
    std::string summary = r.out;
    for (auto at = summary.find("\n          "); at != std::string::npos; at = summary.find("\n          "))
        summary.replace(at, 11, " ");
    EXPECT_THAT(summary, HasSubstr("apparent ("));
    r = run({"--reps", "1", "--rank", "fastest"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_THAT(r.err, HasSubstr("--rank: unknown ranking 'fastest' (use durable, apparent)"));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(m_target.path()), {}), 0)
        << "a bad option costs nothing";
}

TEST_F(CliSummary, TrimmedMeanOnlyFromFiveRepetitions)
{
    auto r = run({"--reps", "3", "--no-summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    auto cells = row(r.out, 1);
    ASSERT_GT(cells.size(), 9u) << r.out;
    EXPECT_EQ(cells[10], "-") << "with 3 repetitions the trimmed mean is the median: not shown";
    EXPECT_THAT(r.out, HasSubstr("shown from 5 repetitions on"));

    r = run({"--reps", std::to_string(kTrimmedMeanMinCount), "--no-summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    cells = row(r.out, 1);
    ASSERT_GT(cells.size(), 9u) << r.out;
    EXPECT_NE(cells[10], "-");

    r = runProcess(IOLAB_CLI_PATH, {"run", "--help"}, {stateHome(m_state.path())});
    EXPECT_THAT(r.out, HasSubstr("the trimmed mean is shown from 5 on"));
    EXPECT_THAT(r.out, HasSubstr("--no-summary"));
}

// Issue 16: the table's qd and p99 columns (the case's p99 per call where it timed its calls, "-" where it
// did not); --latency-table lists every percentile of every timed case and says why the others were not
// timed.
TEST_F(CliSummary, P99ColumnAndTheLatencyTable)
{
    std::ofstream(m_matrix)
        << R"({"name": "latency-test", "strategies": ["write"], "chunks": "64K", "sizes": "8M",
                                  "latencies": ["off", "on"]})";
    auto r = run({"--reps", "3", "--no-summary"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(" p99 "));
    const auto first = row(r.out, 1);
    const auto second = row(r.out, 2);
    ASSERT_GT(first.size(), 15u) << r.out;
    ASSERT_GT(second.size(), 15u) << r.out;
    EXPECT_EQ(first[6], "-") << "qd: a strategy without a queue";
    EXPECT_EQ((first[14] == "-") + (second[14] == "-"), 1) << "one case timed its calls, one did not\n"
                                                           << r.out;
    EXPECT_THAT(r.out, Not(HasSubstr("Latency per call")));

    r = run({"--reps", "3", "--no-summary", "--latency-table"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Latency per call"));
    EXPECT_THAT(r.out, HasSubstr("p99.99"));
    EXPECT_THAT(r.out, HasSubstr("not recorded: latency off"));
}
