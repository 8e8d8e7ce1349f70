// SPDX-License-Identifier: MIT
// iolab-cli import of a Process Monitor CSV (Linux and, under wine, Windows): the capture of
// tests/data/procmon/writer.csv, written by hand after Process Monitor's documented CSV layout (no Process
// Monitor runs here), becomes a trace and a profile in Windows' words; a CSV that cannot be read is refused
// with what to do, and nothing is left beside it.
#include "core/model/trace_reader.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

namespace fs = std::filesystem;

class ProcmonCli : public ::testing::Test
{
protected:
    std::vector<std::string> entries() const
    {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(m_dir.path()))
            names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    void write(const std::string& name, const std::string& text) const
    {
        std::ofstream(fs::path(m_dir.path()) / name, std::ios::binary) << text;
    }
    TempDir m_dir;
};

} // namespace

TEST_F(ProcmonCli, ACaptureBecomesATraceAndAProfileInWindowsWords)
{
    const std::string csv = (fs::path(m_dir.path()) / "capture.csv").string();
    fs::copy_file(fs::path(IOLAB_SOURCE_DIR) / "tests" / "data" / "procmon" / "writer.csv", csv);
    const ProcessResult result = runProcess(IOLAB_CLI_PATH, {"import", csv});
    ASSERT_EQ(result.exitCode, 0) << result.err;
    EXPECT_THAT(result.out, HasSubstr("writer.exe ran 200 ms"));
    EXPECT_THAT(result.out, HasSubstr("Durability: 2 syncs (2 FlushFileBuffers)"));
    EXPECT_THAT(result.out,
                HasSubstr("wrote 12 KiB (3 WriteFile), 1 FlushFileBuffers, opened WRITE_THROUGH"));
    EXPECT_THAT(result.out, HasSubstr("read from Process Monitor's CSV"));
    EXPECT_THAT(result.err, HasSubstr("1 paging write was left out"));
    EXPECT_THAT(result.err, HasSubstr("Read 24 rows of " + csv + ": 19 calls on files in 1 process"));
    EXPECT_THAT(entries(), ::testing::ElementsAre("capture.csv", "capture.csv.iolab-trace"));
    // the trace is one a reader takes, and `profile` says the same of it
    std::ifstream in(csv + ".iolab-trace", std::ios::binary);
    TraceReader reader(in, "trace");
    std::uint64_t calls = 0;
    reader.forEachEvent([&](const TraceEvent& event) {
        calls += event.count;
        return true;
    });
    EXPECT_EQ(calls, 19u);
    const ProcessResult profile = runProcess(IOLAB_CLI_PATH, {"profile", csv + ".iolab-trace"});
    EXPECT_EQ(profile.exitCode, 0);
    EXPECT_EQ(profile.out, result.out.substr(0, result.out.size() - 1)); // import adds a blank line
}

TEST_F(ProcmonCli, ACsvThatCannotBeReadIsRefusedWithWhatToDoAndNothingIsWritten)
{
    write("columns.csv", "\"Time of Day\",\"Process Name\",\"PID\",\"Operation\",\"Result\"\r\n");
    write("semicolons.csv", "Time of Day;Process Name;PID;Operation;Path;Result;Detail\r\n");
    write("registry.csv",
          "\"Time of Day\",\"Process Name\",\"PID\",\"Operation\",\"Path\",\"Result\",\"Detail\"\r\n"
          "\"9:00:00.0000000\",\"c.exe\",\"3\",\"RegQueryValue\",\"HKCU\\x\",\"SUCCESS\",\"\"\r\n");
    const std::pair<const char*, const char*> cases[] = {
        {"columns.csv", "lacks the columns Path, Detail that Process Monitor shows by default"},
        {"semicolons.csv", "separated by semicolons"},
        {"registry.csv", "none of the 1 rows"},
    };
    for (const auto& [name, message] : cases) {
        const ProcessResult result =
            runProcess(IOLAB_CLI_PATH, {"import", (fs::path(m_dir.path()) / name).string()});
        EXPECT_EQ(result.exitCode, 2) << name;
        EXPECT_THAT(result.err, HasSubstr(message)) << name;
        EXPECT_THAT(result.err, HasSubstr("Options > Select Columns")) << name;
    }
    EXPECT_THAT(entries(), ::testing::ElementsAre("columns.csv", "registry.csv", "semicolons.csv"));
}
