// SPDX-License-Identifier: MIT
// A trace anonymised for handing over: no name of a file, folder or argument survives, each name always
// becomes the same stable one (so renames, re-opens and the profile's per-file figures still hold), files
// keep their extensions, terminals and devices keep theirs, and everything else (sizes, offsets, flags,
// threads, times) is untouched: the replay's script is the same, step for step.
#include "core/engine/replay_script.h"
#include "core/formats/trace_anonymise.h"
#include "core/model/trace_reader.h"
#include "tests/support/synthetic_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <sstream>

using namespace iolab;
using iolab::test::SyntheticTrace;
using ::testing::HasSubstr;
using ::testing::Not;
using trace::Call;

namespace {

std::string anonymised(const std::string& bytes)
{
    std::istringstream in(bytes);
    TraceReader reader(in, "secret.iolab-trace");
    std::vector<std::unique_ptr<std::stringstream>> parts;
    anonymiseTrace(reader, [&](std::size_t) -> std::ostream& {
        parts.push_back(std::make_unique<std::stringstream>());
        return *parts.back();
    });
    std::vector<std::pair<std::istream*, std::string>> inputs;
    for (auto& part : parts) {
        part->seekg(0);
        inputs.emplace_back(part.get(), "part");
    }
    std::ostringstream out;
    mergeTraceParts(inputs, out);
    return out.str();
}

SyntheticTrace customerTrace()
{
    SyntheticTrace t;
    t.open(10, 10, "/home/acme/payroll/2026/salaries.db", trace::OpenRead | trace::OpenWrite, 3);
    t.transfer(10, 10, Call::PRead, 3, 4096, 0);
    t.transfer(10, 10, Call::PWrite, 3, 4096, 8192);
    t.call(10, 10, Call::Fsync, 3);
    t.open(10, 10, "/home/acme/payroll/2026/salaries.db-journal", trace::OpenWrite | trace::OpenCreate, 4);
    t.transfer(10, 10, Call::Write, 4, 512, -1, 3);
    auto& rename = t.call(10, 10, Call::Rename);
    rename.path = "/home/acme/payroll/2026/salaries.db-journal";
    rename.path2 = "/home/acme/payroll/old/salaries.db-journal";
    t.open(10, 11, "/dev/pts/3", trace::OpenWrite, 5);
    t.transfer(10, 11, Call::Write, 5, 80);
    return t;
}

} // namespace

TEST(TraceAnonymise, NoNameSurvivesAndEachNameBecomesTheSameStableOne)
{
    const std::string bytes = anonymised(customerTrace().bytes());
    EXPECT_THAT(bytes, Not(HasSubstr("acme")));
    EXPECT_THAT(bytes, Not(HasSubstr("payroll")));
    EXPECT_THAT(bytes, Not(HasSubstr("salaries")));
    EXPECT_THAT(bytes, Not(HasSubstr("--test"))) << "the arguments go too";

    std::istringstream in(bytes);
    TraceReader reader(in, "anonymised.iolab-trace");
    std::vector<TraceEvent> events;
    reader.forEachEvent([&](const TraceEvent& e) {
        events.push_back(e);
        return true;
    });
    ASSERT_EQ(reader.processes().size(), 1u);
    EXPECT_EQ(reader.processes()[0].executable, "synthetic") << "what ran stays named";
    EXPECT_EQ(reader.processes()[0].workingFolder, "/anonymised");
    EXPECT_EQ(events[0].path, "/d1/f1.db");
    EXPECT_EQ(events[4].path, "/d1/f2.db-journal") << "an extension of up to 12 characters is kept";
    EXPECT_EQ(events[6].path, "/d1/f2.db-journal") << "the same name, the same stable name";
    EXPECT_EQ(events[6].path2, "/d2/f3.db-journal");
    EXPECT_EQ(events[7].path, "/dev/pts/3") << "a terminal names no one's data";
}

TEST(TraceAnonymise, TheReplayOfTheAnonymisedTraceIsTheSameReplay)
{
    const std::string plain = customerTrace().bytes();
    const std::string anonymous = anonymised(plain);
    const auto script = [](const std::string& bytes) {
        std::istringstream in(bytes);
        TraceReader reader(in, "t.iolab-trace");
        return buildReplayScript(reader, "t.iolab-trace");
    };
    const ReplayScript a = script(plain);
    const ReplayScript b = script(anonymous);
    ASSERT_EQ(a.threads.size(), b.threads.size());
    for (std::size_t t = 0; t < a.threads.size(); ++t) {
        ASSERT_EQ(a.threads[t].steps.size(), b.threads[t].steps.size());
        for (std::size_t s = 0; s < a.threads[t].steps.size(); ++s) {
            const ReplayStep& x = a.threads[t].steps[s];
            const ReplayStep& y = b.threads[t].steps[s];
            EXPECT_EQ(x.call, y.call);
            EXPECT_EQ(x.count, y.count);
            EXPECT_EQ(x.bytes, y.bytes);
            EXPECT_EQ(x.offset, y.offset);
            EXPECT_EQ(x.dataAt, y.dataAt);
            EXPECT_EQ(x.flags, y.flags);
            EXPECT_EQ(x.recordedNs, y.recordedNs);
            EXPECT_EQ(x.gapNs, y.gapNs);
        }
    }
    EXPECT_EQ(a.bytesWritten, b.bytesWritten);
    EXPECT_EQ(a.recordedInsideNs, b.recordedInsideNs);
    EXPECT_EQ(a.leftFiles.size(), b.leftFiles.size());
}
