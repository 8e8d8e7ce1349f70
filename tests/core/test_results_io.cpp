// SPDX-License-Identifier: MIT
#include "core/base/error.h"
#include "core/base/stats.h"
#include "core/formats/csv.h"
#include "core/formats/presets.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace iolab;
using ::testing::HasSubstr;

namespace {

RunResult sampleResult()
{
    RunResult r;
    r.toolVersion = "0.1.0";
    r.startedAt = "2026-11-22T06:00:00Z";
    r.finishedAt = "2026-11-22T06:01:00Z";
    r.host = {"box", "Debian GNU/Linux 12", "Linux 6.1", "CPU, \"fast\" one", 2, 24ULL << 30};
    r.target.path = "/data/with, comma/\"quoted\"/naïve\nnewline";
    r.target.fsType = "ext4";
    r.target.device = "vda";
    r.target.rotational = false;
    r.matrix = *findPreset("quick");
    Case c{"stdio", Direction::Write,     1, 1 << 20, {BufferMode::Bytes, 65536}, {SyncMode::FsyncEvery, 4},
           2,       TargetKind::Directory};
    c.preallocate = Preallocate::Overwrite;
    r.warnings = {
        "another IOLab run (process 7, run folder /x/iolab-run-1) was writing into the same target"};
    r.refused.push_back({c, "a reason, with \"quotes\"\nand a newline"});
    CaseResult cr;
    cr.index = 0;
    cr.testCase = c;
    cr.status = Status::Failed;
    cr.reason = "write /x failed: No space left on device (ENOSPC)";
    RepetitionResult rep;
    rep.index = 1;
    rep.outcome = {Status::Failed, 28, "write", "write /x, y failed"};
    rep.bytes = 12345;
    rep.returnSeconds = 0.5;
    rep.durableSeconds = 0.75;
    rep.apparentMBps = 0.02469;
    rep.deviceObserved = true;
    rep.deviceWrittenBytes = 4096;
    rep.cachedAfterBytes = 0;
    rep.dirtyBeforeBytes = 1 << 20;
    rep.dirtyAfterBytes = 3 << 20;
    cr.repetitions.push_back(rep);
    cr.apparentMBps.median = 1.5;
    Sample s;
    s.runSeconds = 0.1;
    s.bytesDone = 100;
    s.intervalMBps = 3.25;
    s.syncing = true;
    cr.samples.push_back(s);
    r.cases.push_back(cr);
    r.cancelled = true;
    return r;
}

} // namespace

TEST(Csv, QuotesWhatNeedsQuoting)
{
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvRecord({"a", "b,c"}), "a,\"b,c\"\r\n");
}

TEST(Csv, RoundTripsAwkwardStrings)
{
    const std::vector<CsvRow> rows{{"path", "note"},
                                   {"/home/jörg/données, 2026", "he said \"no\""},
                                   {"multi\r\nline", ""},
                                   {"", "trailing,"}};
    EXPECT_EQ(parseCsv(toCsv(rows)), rows);
}

TEST(Csv, UnterminatedQuoteIsAnError)
{
    EXPECT_THROW(parseCsv("a,\"b\r\n"), InputError);
}

TEST(ResultCsv, OneRowPerCaseAndRepetitionWithUnits)
{
    const auto r = sampleResult();
    const auto rows = parseCsv(toCsv(repetitionRows(r)));
    ASSERT_EQ(rows.size(), 2u);
    const auto& header = rows[0];
    EXPECT_NE(std::find(header.begin(), header.end(), "apparent_MBps"), header.end());
    EXPECT_NE(std::find(header.begin(), header.end(), "durable_s"), header.end());
    EXPECT_NE(std::find(header.begin(), header.end(), "peak_rss_bytes"), header.end());
    const auto column = [&](const char* name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    EXPECT_EQ(rows[1][column("message")], "write /x, y failed");
    EXPECT_EQ(rows[1][column("stdio_buffer")], "64K");
    EXPECT_EQ(rows[1][column("sync")], "fsync-every:4");
    EXPECT_EQ(rows[1][column("device_written_bytes")], "4096");
    EXPECT_EQ(rows[1][column("cached_after_bytes")], "0");
    EXPECT_EQ(rows[1][column("dirty_before_bytes")], "1048576");
    EXPECT_EQ(rows[1][column("dirty_after_bytes")], "3145728");
    EXPECT_EQ(rows[1][column("cached_bytes")], "") << "unknown stays empty";
    const auto samples = parseCsv(toCsv(sampleRows(r)));
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[1][5], "3.25");
    EXPECT_EQ(samplesCsvPath("out/x.csv"), "out/x.samples.csv");
    EXPECT_EQ(samplesCsvPath("x"), "x.samples.csv");
    EXPECT_EQ(summaryCsvPath("out/x.csv"), "out/x.summary.csv");
}

TEST(ResultCsv, SummaryHasACaseRowAndARowPerRefusedCombination)
{
    const auto r = sampleResult();
    const auto rows = parseCsv(toCsv(summaryRows(r)));
    ASSERT_EQ(rows.size(), 3u);
    const auto& header = rows[0];
    for (const char* name :
         {"median_MBps", "trimmed_mean_MBps", "ci95_low_MBps", "durable_MBps", "cpu_s_per_GiB",
          "peak_rss_bytes", "stability_MBps", "speedup_vs_stdio", "status", "reason"})
        EXPECT_NE(std::find(header.begin(), header.end(), name), header.end()) << name;
    EXPECT_EQ(rows[1].size(), header.size());
    const auto column = [&header](const char* name) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    EXPECT_EQ(rows[2][column("status")], "refused");
    EXPECT_EQ(rows[2][column("reason")], "a reason, with \"quotes\"\nand a newline")
        << "quotes, commas, newlines survive";
    EXPECT_EQ(rows[1][column("preallocate")], "overwrite");
}

TEST(ResultJson, RoundTripsEverything)
{
    const auto r = sampleResult();
    const auto text = resultToJson(r).dump();
    const auto back = resultFromJson(text, "r.json");
    EXPECT_EQ(back, r);
    EXPECT_EQ(resultToJson(back)["schema"], "iolab.result/2");
    // What IOLab did before the timed part is stated with each case; results from before the axis read as
    // new files, and before run warnings as none.
    auto j = resultToJson(r);
    EXPECT_EQ(j["cases"][0]["case"]["preallocate"], "overwrite");
    j["cases"][0]["case"].erase("preallocate");
    j.erase("warnings");
    const auto old = resultFromJson(j.dump(), "old.json");
    EXPECT_EQ(old.cases[0].testCase.preallocate, Preallocate::None);
    EXPECT_TRUE(old.warnings.empty());
}

TEST(ResultJson, PageCacheEvidenceIsOptional)
{
    auto r = sampleResult();
    auto j = resultToJson(r);
    auto& rep = j["cases"][0]["repetitions"][0];
    EXPECT_EQ(rep["dirtyAfterBytes"], 3 << 20);
    for (const char* key : {"cachedAfterBytes", "dirtyBeforeBytes", "dirtyAfterBytes"})
        rep.erase(key);
    const auto back = resultFromJson(j.dump(), "old.json");
    const auto& loaded = back.cases.front().repetitions.front();
    EXPECT_FALSE(loaded.cachedAfterBytes.has_value()) << "a file from before the evidence loads as unknown";
    EXPECT_FALSE(loaded.dirtyBeforeBytes.has_value());
    EXPECT_FALSE(loaded.dirtyAfterBytes.has_value());
    EXPECT_FALSE(resultToJson(back)["cases"][0]["repetitions"][0].contains("cachedAfterBytes"))
        << "unknown is not written";
}

// Issue 17: the device's FUA (Linux) and its flush, power protection and write-through (Windows) are written
// where known and read back; a file from before them, or from a system that did not say, reads as unknown.
TEST(ResultJson, DeviceCacheFactsRoundTripAndOldFilesReadAsUnknown)
{
    auto r = sampleResult();
    r.target.fua = true;
    r.target.flushSupported = false;
    r.target.powerProtected = true;
    r.target.writeThroughSupported = false;
    auto j = resultToJson(r);
    EXPECT_EQ(j["target"]["fua"], true);
    EXPECT_EQ(j["target"]["flushSupported"], false);
    EXPECT_EQ(j["target"]["powerProtected"], true);
    EXPECT_EQ(j["target"]["writeThroughSupported"], false);
    EXPECT_EQ(resultFromJson(j.dump(), "r.json"), r);
    EXPECT_EQ(j["schema"], "iolab.result/2") << "optional keys, old readers ignore them: no new schema";

    for (const char* key : {"fua", "flushSupported", "powerProtected", "writeThroughSupported"})
        j["target"].erase(key);
    const auto old = resultFromJson(j.dump(), "old.json");
    EXPECT_FALSE(old.target.fua.has_value());
    EXPECT_FALSE(old.target.flushSupported.has_value());
    EXPECT_FALSE(old.target.powerProtected.has_value());
    EXPECT_FALSE(old.target.writeThroughSupported.has_value());
    const auto resaved = resultToJson(old);
    for (const char* key : {"fua", "flushSupported", "powerProtected", "writeThroughSupported"})
        EXPECT_FALSE(resaved["target"].contains(key)) << key << ": unknown is not written";
    j["target"]["fua"] = nullptr;
    EXPECT_FALSE(resultFromJson(j.dump(), "null.json").target.fua.has_value());
}

// Issue 17: power-loss exposure, per repetition, per case and per sample; a figure the case could not tell is
// null, and a file from before it loads without one.
TEST(ResultJson, ExposureRoundTripsAndOldFilesHaveNone)
{
    auto r = sampleResult();
    auto& cr = r.cases.front();
    cr.repetitions.front().atRisk =
        Exposure{.maxBytes = 64 * 4096, .maxSeconds = 1.25, .method = "fsync every 4 writes"};
    cr.atRisk = Exposure{
        .maxBytes = std::nullopt, .maxSeconds = 0.5, .basis = ExposureBasis::AtMost, .method = "held back"};
    cr.samples.front().atRiskBytes = 12345;
    auto j = resultToJson(r);
    const auto& rep = j["cases"][0]["repetitions"][0]["atRisk"];
    EXPECT_EQ(rep["maxBytes"], 64 * 4096);
    EXPECT_EQ(rep["maxSeconds"], 1.25);
    EXPECT_EQ(rep["basis"], "exact");
    EXPECT_TRUE(j["cases"][0]["atRisk"]["maxBytes"].is_null()) << "unknown is null, not 0";
    EXPECT_EQ(j["cases"][0]["atRisk"]["basis"], "at most");
    EXPECT_EQ(j["cases"][0]["samples"][0]["atRiskBytes"], 12345);
    EXPECT_EQ(resultFromJson(j.dump(), "r.json"), r);

    j["cases"][0].erase("atRisk");
    j["cases"][0]["repetitions"][0].erase("atRisk");
    j["cases"][0]["samples"][0].erase("atRiskBytes");
    const auto old = resultFromJson(j.dump(), "old.json");
    EXPECT_FALSE(old.cases[0].atRisk.has_value());
    EXPECT_FALSE(old.cases[0].repetitions[0].atRisk.has_value());
    EXPECT_EQ(old.cases[0].samples[0].atRiskBytes, 0u);
    EXPECT_FALSE(resultToJson(old)["cases"][0].contains("atRisk")) << "none is not written";

    const auto csv = toCsv(summaryRows(r));
    EXPECT_THAT(csv, HasSubstr("at_risk_max_bytes,at_risk_max_s,at_risk_basis"));
    const auto reps = toCsv(repetitionRows(r));
    EXPECT_THAT(reps, HasSubstr("262144,1.25,exact"));
}

TEST(ResultJson, FilesFromBeforeTheTrimmedMeanGetItRecomputed)
{
    auto r = sampleResult();
    const std::vector<double> rates{100, 102, 98, -35, 101};
    r.cases.front().apparentMBps = summarize(rates);
    auto j = resultToJson(r);
    for (auto& c : j["cases"]) {
        for (auto& [key, value] : c.items()) {
            if (value.is_object() && value.contains("trimmedMean"))
                value.erase("trimmedMean");
        }
    }
    const auto back = resultFromJson(j.dump(), "old.json");
    EXPECT_NEAR(back.cases.front().apparentMBps.trimmedMean, (100.0 + 98 + 101) / 3, 1e-9);
}

TEST(ResultJson, RejectsDamageWithAClearMessage)
{
    auto message = [](const std::string& text) {
        try {
            resultFromJson(text, "r.json");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message("{not json"),
              "r.json: not valid JSON at line 1, column 3 (byte 3): unexpected character "
              "'o' (invalid literal); expected string literal");
    EXPECT_EQ(message(""), "r.json: not valid JSON: the file is empty");
    EXPECT_THAT(message("{}"), HasSubstr("no \"schema\""));
    EXPECT_THAT(message(R"({"schema": "iolab.result/3"})"), HasSubstr("a newer IOLab is needed"));
    auto json = resultToJson(sampleResult());
    json.erase("cases");
    EXPECT_THAT(message(json.dump()), HasSubstr("damaged result file"));
    json = resultToJson(sampleResult());
    json["cases"][0]["status"] = "exploded";
    EXPECT_THAT(message(json.dump()), HasSubstr("unknown status 'exploded'"));
}
