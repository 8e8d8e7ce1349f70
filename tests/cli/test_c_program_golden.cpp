// SPDX-License-Identifier: MIT
// The C programs' text, pinned (issue 35): for every strategy that has a template, and for the axes that
// change what a template prints, the program generated for one fixed case has the size and hash that
// tests/data/golden-c-programs.txt holds. The file was made from the templates as they were before they moved
// out of C++ raw strings into resources/c_templates/ (and made again on purpose when the Windows program took
// the shared snippets), so a template file or a shared part that prints one byte differently fails here,
// naming the program. A deliberate change to a template updates the file: the failure prints every line as
// it is now.
#include "core/base/units.h"
#include "core/engine/registry.h"
#include "core/formats/c_program.h"
#include "core/formats/c_templates.h"
#include "platform/platform.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace iolab;

namespace {

// FNV-1a, 64 bits: enough to tell two program texts apart, and written out in a few lines of C++.
[[maybe_unused]] std::uint64_t fnv1a(const std::string& text)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

// One fixed case per strategy: 256 KiB in 4 KiB chunks (a byte per call for the per-character writers), two
// threads, its first target and sync policy, a queue of 4, 24 files of 4 KiB for a file set.
Case pinnedCase(const StrategyInfo& info)
{
    Case c;
    c.strategy = info.id;
    c.direction = info.direction;
    c.chunkBytes = cTemplateOf(info.id) == "putc" ? 1 : 4 * kKiB;
    c.totalBytes = 256 * kKiB;
    c.threads = 2;
    c.target = info.targets.front();
    if (info.usesStdioBuffer)
        c.buffer = {BufferMode::Default, 0};
    if (std::find(info.syncModes.begin(), info.syncModes.end(), SyncMode::None) == info.syncModes.end())
        c.sync = {info.syncModes.front(), syncsEveryN(info.syncModes.front()) ? 1u : 0u};
    if (c.direction == Direction::Read) {
        c.hint = info.hints.empty() ? ReadHint::Normal : info.hints.front();
        c.cache = CacheState::Cold;
    }
    if (info.maxQueueDepth > 0)
        c.queueDepth = 4;
    if (info.layout == DataLayout::FileSet) {
        c.fileSet = {24, SizeMix::Fixed, 4 * kKiB, 4 * kKiB, 0, {}};
        c.totalBytes = 24 * 4 * kKiB;
    }
    return c;
}

// Every program the golden file names, as name -> case: each strategy's pinned case, then the variants whose
// axes change what a template prints (sync policies, preallocations, the null device, stdio buffers, warm
// reads, an article size mix, a time limit, the reader CPU, a pattern).
[[maybe_unused]] std::vector<std::pair<std::string, Case>> pinnedCases()
{
    std::vector<std::pair<std::string, Case>> cases;
    for (const auto& strategy : builtinRegistry().all()) {
        if (!cTemplateOf(strategy->info().id).empty())
            cases.emplace_back(strategy->info().id, pinnedCase(strategy->info()));
    }
    const auto base = [](const std::string& id) {
        return pinnedCase(builtinRegistry().find(id)->info());
    };
    Case c = base("write");
    c.sync = {SyncMode::FdatasyncEvery, 4};
    c.preallocate = Preallocate::Overwrite;
    cases.emplace_back("write-fdatasync-every-overwrite", c);
    c = base("direct-random");
    c.sync = {SyncMode::ODsync, 0};
    c.preallocate = Preallocate::Fallocate;
    cases.emplace_back("direct-random-odsync-fallocate", c);
    c = base("stdio");
    c.target = TargetKind::Null;
    c.buffer = {BufferMode::None, 0};
    cases.emplace_back("stdio-null-unbuffered", c);
    c = base("stdio-unlocked");
    c.chunkBytes = 4;
    c.totalBytes = 64 * kKiB;
    c.buffer = {BufferMode::Bytes, 64 * kKiB};
    c.sync = {SyncMode::FsyncEnd, 0};
    cases.emplace_back("stdio-unlocked-4-bytes", c);
    c = base("uring-write-direct");
    c.sync = {SyncMode::FsyncEvery, 8};
    cases.emplace_back("uring-write-direct-fsync-every", c);
    c = base("read-random");
    c.cache = CacheState::Warm;
    c.hint = ReadHint::Random;
    cases.emplace_back("read-random-warm", c);
    c = base("files-pool");
    c.fileSet = {40, SizeMix::Article, 100, 64 * kKiB, 8 * kKiB, "article-test"};
    cases.emplace_back("files-pool-article", c);
    c = base("pwritev2-dsync");
    c.preallocate = Preallocate::Rewrite;
    c.totalBytes = kGiB;
    c.timeLimitMs = 100;
    cases.emplace_back("pwritev2-dsync-rewrite-limit", c);
    c = base("pipe-write");
    c.readerCpu = ReaderCpu::Same;
    cases.emplace_back("pipe-write-same-cpu", c);
    c = base("write");
    c.pattern = DataPattern{PatternKind::Compressible, 50};
    cases.emplace_back("write-compressible", c);
    c = base("overlapped-write-direct");
    c.sync = {SyncMode::FsyncEvery, 8};
    cases.emplace_back("overlapped-write-direct-fsync-every", c);
    return cases;
}

[[maybe_unused]] CProgramOptions pinnedOptions()
{
    CProgramOptions options;
    options.directory = "/srv/data";
    options.fileStem = "iolab-case-1";
    options.title = "Generated by IOLab 0.5.0 from case 1 of the run started 2026-11-27T05:00:00Z: the case";
    options.ranOn = "Debian GNU/Linux 12 (bookworm)";
    options.repetitions = 3;
    options.warmups = 1;
    return options;
}

} // namespace

#ifndef _WIN32 // the golden texts are the Linux build's programs (the Windows registry declares other facts)
TEST(CProgramGolden, EveryProgramIsTheSameTextAsBefore)
{
    std::ifstream in(IOLAB_SOURCE_DIR "/tests/data/golden-c-programs.txt");
    ASSERT_TRUE(in.good()) << "tests/data/golden-c-programs.txt is missing";
    std::map<std::string, std::string> golden; // name -> "bytes hash"
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        const auto space = line.find(' ');
        golden[line.substr(0, space)] = line.substr(space + 1);
    }
    std::string now;
    std::string differences;
    std::size_t checked = 0;
    for (const auto& [name, c] : pinnedCases()) {
        const CProgram program = cProgram(c, pinnedOptions());
        ASSERT_TRUE(program.available) << name << "\n" << program.text;
        const std::string entry = fmt::format("{} {:016x}", program.text.size(), fnv1a(program.text));
        now += fmt::format("{} {}\n", name, entry);
        const auto it = golden.find(name);
        if (it == golden.end())
            differences += name + ": not in the golden file\n";
        else if (it->second != entry)
            differences += fmt::format("{}: {} now, {} before\n", name, entry, it->second);
        else
            ++checked;
    }
    EXPECT_EQ(checked, golden.size()) << "the golden file names programs that are no longer made";
    EXPECT_TRUE(differences.empty()) << differences << "\nEvery program now:\n" << now;
}
#endif

// Every file of resources/c_templates/ is a template, a snippet or a part that a template takes, and no part
// line is left in a program.
TEST(CProgramGolden, EveryTemplateFileIsUsed)
{
    namespace ct = c_templates;
    ASSERT_FALSE(ct::files().empty());
    for (const EmbeddedFile& file : ct::files()) {
        const std::string name(file.name);
        ASSERT_TRUE(name.ends_with(".c")) << name;
        const std::string stem = name.substr(0, name.size() - 2);
        if (name.starts_with("snippets/")) {
            const auto& all = ct::snippets();
            EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                                    [&](const ct::Snippet& s) {
                                        return "snippets/" + std::string(s.name) == stem &&
                                               s.code == file.text;
                                    }))
                << name << " is no snippet";
        } else if (name.starts_with("parts/")) {
            const std::string line = "#include \"" + name + "\"\n";
            EXPECT_TRUE(std::any_of(
                ct::files().begin(), ct::files().end(),
                [&](const EmbeddedFile& f) { return f.text.find(line) != std::string_view::npos; }))
                << name << " is taken by no template";
        } else {
            EXPECT_NE(ct::findTemplate(stem), nullptr) << name << " is no template";
        }
    }
    for (const auto& t : ct::templates())
        EXPECT_EQ(t.body.find("#include \"parts/"), std::string_view::npos) << t.name;
}
