// SPDX-License-Identifier: MIT
// What the built-in strategies' declarations give their callers. Each registered strategy's row of methods
// (core/model/strategy_methods.h), which the exports, the sync lab and the findings read, agrees with its
// declaration, and each has a fio, a DiskSpd and a C mapping or a stated reason it has none. Every registered
// strategy's exports (fio job, DiskSpd command line, C program) for a spread of its cases, against golden
// files under tests/data/exports/ written before the strategies were declared once for both OSes (issue 35):
// one file per strategy, byte for byte, so that a change to a declaration or to a mapping that moves an
// export shows here. IOLAB_WRITE_EXPORT_GOLDEN=1 rewrites the files (and fails, so that a rewrite is never a
// pass).
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/formats/c_program.h"
#include "core/formats/diskspd_job.h"
#include "core/formats/fio_job.h"
#include "core/model/strategy_methods.h"
#include "platform/common/one_os_strategies.h"
#include "platform/platform.h"
#include "platform/strategy_declarations.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace iolab;

namespace {

// The strategy's first target (a read through the cache with the sequential hint), at 64 KiB chunks of 16
// MiB: what a matrix naming only the strategy runs.
Case plainCaseOf(const StrategyInfo& info)
{
    Case c;
    c.strategy = info.id;
    c.direction = info.direction;
    c.chunkBytes = 64 * kKiB;
    c.totalBytes = 16 * kMiB;
    c.target = info.targets.empty() ? TargetKind::Directory : info.targets.front();
    if (info.usesStdioBuffer)
        c.buffer = {BufferMode::Default, 0};
    if (info.maxQueueDepth > 0)
        c.queueDepth = 8;
    if (info.direction == Direction::Read) {
        // Not from info.hints: a queued reader's hints are its OS's, and empty where it is unavailable.
        c.hint = info.needsDirectIo ? ReadHint::NotApplicable : ReadHint::Sequential;
        c.cache = CacheState::Cold;
    }
    if (info.layout == DataLayout::FileSet) {
        c.fileSet = {
            .files = 200, .mix = SizeMix::None, .minBytes = 0, .maxBytes = 0, .meanBytes = 0, .name = ""};
        c.totalBytes = 200 * 16 * kKiB;
        c.chunkBytes = 4 * kKiB;
    }
    return c;
}

// The plain case and its variations along the axes the exports read.
std::vector<Case> casesOf(const StrategyInfo& info)
{
    const Case plain = plainCaseOf(info);
    std::vector<Case> cases{plain};
    Case threads = plain;
    threads.threads = 3;
    cases.push_back(threads);
    Case small = plain;
    small.chunkBytes = 4 * kKiB;
    if (small.queueDepth > 0)
        small.queueDepth = 2;
    cases.push_back(small);
    Case odd = plain;
    odd.chunkBytes = 100;
    odd.totalBytes = 100 * 1000;
    cases.push_back(odd);
    if (info.maxQueueDepth > 0) {
        Case deep = plain;
        deep.queueDepth = 32;
        cases.push_back(deep);
    }
    if (info.usesStdioBuffer) {
        for (const StdioBuffer buffer :
             {StdioBuffer{BufferMode::Bytes, 8 * kKiB}, StdioBuffer{BufferMode::None, 0}}) {
            Case c = plain;
            c.buffer = buffer;
            cases.push_back(c);
        }
    }
    // Every sync policy, preallocation and hint, whether or not this OS's declaration takes it: the exports
    // are the same on every OS, and so are these files.
    if (info.direction == Direction::Write) {
        for (const SyncMode mode :
             {SyncMode::None, SyncMode::FsyncEnd, SyncMode::FdatasyncEnd, SyncMode::FsyncEvery,
              SyncMode::FdatasyncEvery, SyncMode::OSync, SyncMode::ODsync}) {
            Case c = plain;
            c.sync = {mode, syncsEveryN(mode) ? 1U : 0U};
            cases.push_back(c);
        }
        for (const Preallocate preallocate :
             {Preallocate::None, Preallocate::Fallocate, Preallocate::Overwrite, Preallocate::Rewrite}) {
            Case c = plain;
            c.preallocate = preallocate;
            cases.push_back(c);
        }
        Case patterned = plain;
        patterned.pattern = {PatternKind::Compressible, 50};
        patterned.timeLimitMs = 2000;
        patterned.memoryLimitBytes = 256 * kMiB;
        cases.push_back(patterned);
    } else {
        for (const ReadHint hint :
             {ReadHint::Sequential, ReadHint::Normal, ReadHint::Random, ReadHint::NoReuse}) {
            Case c = plain;
            c.hint = hint;
            cases.push_back(c);
        }
        Case warm = plain;
        warm.cache = CacheState::Warm;
        warm.pattern = {PatternKind::Zeros, 0};
        cases.push_back(warm);
    }
    return cases;
}

// FNV-1a, 64 bits: the same on every compiler and OS, so that the golden files hold each export's checksum
// rather than its whole text (the C programs alone would be megabytes).
std::uint64_t fnv1a(const std::string& text)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char ch : text) {
        hash ^= static_cast<unsigned char>(ch);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

// One export in a golden file: a line naming it with its size and checksum, and the whole text for the plain
// case's fio job and DiskSpd command line, to read.
struct Exports
{
    std::string golden;
    std::map<std::string, std::string> texts; // each line's export, to show what differs
    void add(const std::string& what, const std::string& text, bool whole)
    {
        const std::string line = fmt::format("{}: {} bytes, fnv1a {:016x}", what, text.size(), fnv1a(text));
        golden += line + "\n";
        texts[line] = text;
        if (whole)
            golden += text;
    }
};

Exports exportsOf(const StrategyInfo& info)
{
    Exports out;
    int index = 0;
    for (const Case& c : casesOf(info)) {
        ++index;
        const std::string stem = "iolab-case-" + std::to_string(index);
        const bool plain = index == 1;
        out.golden += "==== case " + std::to_string(index) + ": " + c.label() + "\n";
        FioJobOptions fio;
        fio.directory = "/srv/data:1";
        fio.name = stem;
        fio.verify = index % 2 == 0;
        fio.title = c.label();
        const FioJob job = fioJob(c, fio);
        out.add(fmt::format("fio, verify {}, equivalent {}", fio.verify, job.equivalent), job.text, plain);
        DiskspdJobOptions diskspd;
        diskspd.directory = "D:\\data";
        diskspd.fileStem = stem;
        diskspd.seconds = 2.5;
        diskspd.verify = true;
        diskspd.title = c.label();
        diskspd.ranOn = index % 2 == 0 ? "" : "Debian GNU/Linux 12";
        const DiskspdJob command = diskspdJob(c, diskspd);
        out.add(fmt::format("diskspd, ran on '{}', equivalent {}", diskspd.ranOn, command.equivalent),
                command.text, plain);
        for (const char* ranOn : {"Debian GNU/Linux 12", "Windows 10.0.19045"}) {
            CProgramOptions options;
            options.directory = "/srv/data";
            options.fileStem = stem;
            options.title = c.label();
            options.ranOn = ranOn;
            options.repetitions = 3;
            options.warmups = 1;
            options.verify = true;
            options.timedCalls = index % 2 == 0;
            const CProgram program = cProgram(c, options);
            out.add(fmt::format("C, ran on '{}', available {}, build '{}'", ranOn, program.available,
                                program.buildCommand),
                    program.text, false);
        }
    }
    return out;
}

std::string goldenPath(const std::string& id)
{
    return std::string(IOLAB_SOURCE_DIR) + "/tests/data/exports/" + id + ".txt";
}

TEST(StrategyExports, EveryRegisteredStrategyExportsAsItsGoldenFileSays)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    const bool write = std::getenv("IOLAB_WRITE_EXPORT_GOLDEN") != nullptr;
    ASSERT_FALSE(registry.all().empty());
    for (const auto& strategy : registry.all()) {
        const StrategyInfo& info = strategy->info();
        const Exports exports = exportsOf(info);
        if (write) {
            std::ofstream(goldenPath(info.id), std::ios::binary) << exports.golden;
            ADD_FAILURE() << "wrote " << goldenPath(info.id);
            continue;
        }
        std::ifstream in(goldenPath(info.id), std::ios::binary);
        ASSERT_TRUE(in) << "no golden file for " << info.id << " at " << goldenPath(info.id);
        std::ostringstream golden;
        golden << in.rdbuf();
        if (exports.golden == golden.str())
            continue;
        // The first line that differs, with the export it names as it is now.
        std::istringstream now(exports.golden);
        std::istringstream was(golden.str());
        std::string nowLine;
        std::string wasLine;
        while (std::getline(now, nowLine) && std::getline(was, wasLine) && nowLine == wasLine) {
        }
        const auto text = exports.texts.find(nowLine);
        ADD_FAILURE() << info.id << "'s exports differ from " << goldenPath(info.id) << "\nnow: " << nowLine
                      << "\nwas: " << wasLine << "\n"
                      << (text != exports.texts.end() ? text->second : std::string());
    }
}

// The row of methods the exports and analyses read says of each strategy what its declaration says.
TEST(StrategyMethods, EveryRegisteredStrategyHasARowThatAgreesWithItsDeclaration)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    for (const auto& strategy : registry.all()) {
        const StrategyInfo& info = strategy->info();
        SCOPED_TRACE(info.id);
        const StrategyMethod* method = strategyMethod(info.id);
        ASSERT_NE(method, nullptr) << "core/model/strategy_methods.cpp has no row for " << info.id;
        EXPECT_EQ(method->direct, info.needsDirectIo);
        EXPECT_EQ(method->random, info.randomOffsets);
        EXPECT_EQ(method->sharedFile, info.layout == DataLayout::SharedFile || info.threadsShareOneFile);
        EXPECT_EQ(method->method == IoMethod::FileSet, info.layout == DataLayout::FileSet);
        if (method->method == IoMethod::FileSet) {
            EXPECT_EQ(method->fileSetThreads, info.parallelism);
        }
        EXPECT_EQ(method->method == IoMethod::StdioChunk || method->method == IoMethod::StdioByte,
                  info.usesStdioBuffer);
        EXPECT_EQ(method->method == IoMethod::Pipe,
                  !info.targets.empty() && info.targets.front() == TargetKind::Pipe);
        EXPECT_EQ(method->method == IoMethod::UringQueue || method->method == IoMethod::OverlappedQueue,
                  info.maxQueueDepth > 0);
        EXPECT_EQ(method->method == IoMethod::Pwritev2Dsync || method->method == IoMethod::UringLinkedSync,
                  info.durableEachWrite || info.syncInsideCalls);
        EXPECT_EQ(method->method == IoMethod::GroupCommit, info.countsCommittedWrites);
        if (method->syncLab != SyncLabMethod::None) {
            EXPECT_EQ(info.direction, Direction::Write);
        }
    }
    // Each baseline role is one strategy's, and the registry has it.
    for (const BaselineRole role :
         {BaselineRole::Writes, BaselineRole::Reads, BaselineRole::PipeWrites, BaselineRole::FileSets})
        EXPECT_NE(registry.find(baselineOf(role)), nullptr) << baselineOf(role);
}

// An export either maps the case or says why it cannot: fio and DiskSpd in a sentence naming themselves, a C
// program with a reason. "IOLab does not know the strategy" is for a result written by another version, never
// for a strategy registered here.
TEST(StrategyMethods, EveryRegisteredStrategyHasAFioADiskSpdAndACMappingOrAStatedReason)
{
    Registry registry;
    registerBuiltinStrategies(registry);
    for (const auto& strategy : registry.all()) {
        const StrategyInfo& info = strategy->info();
        SCOPED_TRACE(info.id);
        const Case c = plainCaseOf(info);
        const FioJob fio = fioJob(c, {.directory = "/tmp", .name = "job", .verify = false, .title = "t"});
        EXPECT_EQ(fio.text.find("does not know"), std::string::npos) << fio.text;
        if (fio.equivalent) {
            EXPECT_NE(fio.text.find("ioengine="), std::string::npos) << fio.text;
        } else {
            EXPECT_NE(fio.text.find("; fio has no equivalent: "), std::string::npos) << fio.text;
        }
        DiskspdJobOptions diskspdOptions;
        diskspdOptions.title = "t";
        const DiskspdJob diskspd = diskspdJob(c, diskspdOptions);
        EXPECT_EQ(diskspd.text.find("does not know"), std::string::npos) << diskspd.text;
        if (diskspd.equivalent)
            EXPECT_NE(diskspd.text.find("diskspd"), std::string::npos) << diskspd.text;
        else
            EXPECT_NE(diskspd.text.find("REM DiskSpd has no equivalent: "), std::string::npos)
                << diskspd.text;
        CProgramOptions cOptions;
        cOptions.title = "t";
        const CProgram program = cProgram(c, cOptions);
        EXPECT_TRUE(program.available) << program.text;
        EXPECT_FALSE(cTemplateOf(info.id).empty());
    }
}

// A strategy this IOLab does not know (a result written by a newer one) is said to be unknown by each export,
// not passed off as one fio or DiskSpd has no equivalent of.
TEST(StrategyMethods, AnUnknownStrategyIsSaidToBeUnknown)
{
    Case c;
    c.strategy = "teleport";
    c.chunkBytes = 64 * kKiB;
    c.totalBytes = kMiB;
    EXPECT_EQ(strategyMethod("teleport"), nullptr);
    const FioJob fio = fioJob(c, {.directory = "/tmp", .name = "job", .verify = false, .title = "t"});
    EXPECT_FALSE(fio.equivalent);
    EXPECT_NE(fio.text.find("IOLab does not know the teleport strategy"), std::string::npos) << fio.text;
    const DiskspdJob diskspd = diskspdJob(c, {});
    EXPECT_FALSE(diskspd.equivalent);
    EXPECT_NE(diskspd.text.find("IOLab does not know the teleport strategy"), std::string::npos)
        << diskspd.text;
    const CProgram program = cProgram(c, {});
    EXPECT_FALSE(program.available);
    EXPECT_NE(program.text.find("IOLab does not know the teleport strategy"), std::string::npos)
        << program.text;
}

} // namespace

// Issue 39: the pipe writers say what their backend's reader can be. Linux forks a reader process and spins
// a reader; the Windows backend says why it does neither, which the axes' refusals quote.
TEST(StrategyDeclarations, PipeWritersSayWhetherTheirReaderCanBeAProcessOrSpin)
{
    const StrategyInfo info = pipeWriteDeclaration();
#ifdef _WIN32
    EXPECT_THAT(info.readerProcessRefusal, ::testing::HasSubstr("no fork"));
    EXPECT_THAT(info.readerSpinRefusal, ::testing::HasSubstr("no non-blocking read"));
#else
    EXPECT_EQ(info.readerProcessRefusal, "");
    EXPECT_EQ(info.readerSpinRefusal, "");
#endif
    EXPECT_FALSE(info.ownsPipePages) << "write(2) copies: the pipe gets no page of the writer's";
    EXPECT_TRUE(vmspliceDeclaration().info.ownsPipePages);
}
