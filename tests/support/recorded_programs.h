// SPDX-License-Identifier: MIT
// Programs nobody here wrote, as the recording and replay tests run them (dd, sqlite3 in both journal modes,
// tar, gzip), and the write-type and sync-type calls on their files as IOLab's trace and as strace count
// them.
#pragma once

#include "core/analysis/program_profile.h"
#include "core/model/trace_reader.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace iolab::test {

// The calls that write or make durable, by the system call's name strace prints.
inline const std::map<std::string, std::string> kStraceNames = {
    {"write", "write"},
    {"pwrite64", "pwrite"},
    {"writev", "writev"},
    {"pwritev", "pwritev"},
    {"pwritev2", "pwritev"},
    {"fsync", "fsync"},
    {"fdatasync", "fdatasync"},
    {"sync_file_range", "sync_file_range"},
    {"copy_file_range", "copy_file_range"},
};

using Counts = std::map<std::pair<std::string, std::string>, std::uint64_t>; // (path, call) -> calls

inline bool counted(trace::Call call)
{
    using trace::Call;
    return call == Call::Write || call == Call::PWrite || call == Call::WriteV || call == Call::PWriteV ||
           call == Call::Fsync || call == Call::Fdatasync || call == Call::SyncFileRange ||
           call == Call::CopyFileRange;
}

// What the recorder saw: per path under `folder`, the write-type and sync-type calls on descriptors.
inline Counts recordedCounts(const std::string& tracePath, const std::string& folder)
{
    std::ifstream in(tracePath, std::ios::binary);
    TraceReader reader(in, tracePath);
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::string> open; // (process, fd) -> path
    Counts counts;
    reader.forEachEvent([&](const TraceEvent& event) {
        const std::pair<std::uint32_t, std::uint64_t> key{event.process, event.handle};
        if (event.call == trace::Call::Open && event.result >= 0) {
            open[{event.process, static_cast<std::uint64_t>(event.result)}] = event.path;
        } else if (event.call == trace::Call::Dup && event.result >= 0) {
            open[{event.process, static_cast<std::uint64_t>(event.result)}] = open[key];
        } else if (event.call == trace::Call::Close) {
            open.erase(key);
        } else if (counted(event.call) && open.contains(key) && open[key].starts_with(folder)) {
            counts[{open[key], callName(event.call)}] += event.count;
        }
        return true;
    });
    return counts;
}

// What strace saw (-f -y, and -tt's time when given): the same calls, each line naming its descriptor's path
// as <path>. The calls of thread `skipTid` (0: none) are left out.
inline Counts straceCounts(const std::string& logPath, const std::string& folder, long skipTid = 0)
{
    std::ifstream in(logPath);
    const std::regex call(R"(^(?:\[pid +(\d+)\] |(\d+) +)?(?:[\d:.]+ +)?([a-z_0-9]+)\(\d+<([^>]*)>)");
    Counts counts;
    std::string line;
    while (std::getline(in, line)) {
        std::smatch match;
        if (!std::regex_search(line, match, call))
            continue;
        const std::string tid = match[1].matched ? match[1].str() : match[2].str();
        if (skipTid != 0 && !tid.empty() && std::stol(tid) == skipTid)
            continue;
        const auto name = kStraceNames.find(match[3].str());
        if (name == kStraceNames.end() || !match[4].str().starts_with(folder))
            continue;
        counts[{match[4].str(), name->second}] += 1;
    }
    return counts;
}

inline std::string describe(const Counts& counts)
{
    std::ostringstream text;
    for (const auto& [key, n] : counts)
        text << "  " << key.first << " " << key.second << ": " << n << "\n";
    return text.str();
}

struct Program
{
    std::string name;
    // The command, given the test's folder; run in that folder.
    std::vector<std::string> (*command)(const std::string& folder);
    void (*prepare)(const std::string& folder) = nullptr;
};

inline void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

inline std::string sqlScript(const std::string& journalMode, int rows)
{
    std::string sql =
        "PRAGMA journal_mode=" + journalMode + ";\nPRAGMA synchronous=FULL;\ncreate table t(a, b);\n";
    for (int i = 0; i < rows; ++i)
        sql += "insert into t values(" + std::to_string(i) + ", 'row " + std::to_string(i) + "');\n";
    return sql;
}

inline const Program kPrograms[] = {
    {"dd_dsync",
     [](const std::string& folder) {
         return std::vector<std::string>{"/usr/bin/dd", "if=/dev/zero", "of=" + folder + "/out",
                                         "bs=4k",       "count=300",    "oflag=dsync",
                                         "status=none"};
     }},
    {"sqlite3_delete",
     [](const std::string& folder) {
         return std::vector<std::string>{"/usr/bin/sqlite3", folder + "/db.sqlite",
                                         ".read " + folder + "/script.sql"};
     },
     [](const std::string& folder) {
         writeFile(folder + "/script.sql", sqlScript("DELETE", 100));
     }},
    {"sqlite3_wal",
     [](const std::string& folder) {
         return std::vector<std::string>{"/usr/bin/sqlite3", folder + "/db.sqlite",
                                         ".read " + folder + "/script.sql"};
     },
     [](const std::string& folder) {
         writeFile(folder + "/script.sql", sqlScript("WAL", 100));
     }},
    {"tar_extract",
     [](const std::string& folder) {
         return std::vector<std::string>{"/usr/bin/tar", "-xf", folder + "/in.tar", "-C", folder + "/out"};
     },
     [](const std::string& folder) {
         std::filesystem::create_directories(folder + "/src");
         for (int i = 0; i < 200; ++i)
             writeFile(folder + "/src/f" + std::to_string(i),
                       std::string(static_cast<std::size_t>(100 + i * 37), 'x'));
         ASSERT_EQ(runProcess("/usr/bin/tar", {"-cf", folder + "/in.tar", "-C", folder, "src"}).exitCode, 0);
         std::filesystem::create_directories(folder + "/out");
     }},
    {"gzip",
     [](const std::string& folder) {
         return std::vector<std::string>{"/usr/bin/gzip", "-k", folder + "/big"};
     },
     [](const std::string& folder) {
         std::string text;
         for (int i = 0; i < 200'000; ++i)
             text += "line " + std::to_string(i * 7919 % 100'003) + "\n";
         writeFile(folder + "/big", text);
     }},
};

} // namespace iolab::test
