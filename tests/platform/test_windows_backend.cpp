// SPDX-License-Identifier: MIT
// What only the Windows backend has: the option -> CreateFile flag mapping, FILE_FLAG_NO_BUFFERING's
// alignment rules (checked by our code because wine does not enforce them), UTF-8 <-> UTF-16 paths, the
// policies and strategies Windows has no meaning for, the volume facts, and which run folders are live (a
// symbolic link or junction is never one).
#include "core/base/units.h"
#include "core/engine/pattern.h"
#include "core/formats/facts_text.h"
#include "core/model/matrix.h"
#include "platform/platform.h"
#include "platform/windows/defender_exclusions.h"
#include "platform/windows/win_io.h"
#include "tests/support/builtin_registry.h"
#include "tests/support/system_facts.h"
#include "tests/support/temp_dir.h"

#include <winioctl.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

using namespace iolab;
using namespace iolab::test;
using ::testing::HasSubstr;

namespace {

struct FlagRow
{
    const char* name;
    SyncMode sync;
    bool direct;
    std::optional<DWORD> flags;
};

class CreateFileFlags : public ::testing::TestWithParam<FlagRow>
{};

Case caseWith(SyncMode sync)
{
    return Case{"write", Direction::Write, 4096, 1 << 20, {}, {sync, sync == SyncMode::FsyncEvery ? 8u : 0u}};
}

} // namespace

TEST_P(CreateFileFlags, MapOneToOne)
{
    const auto& row = GetParam();
    EXPECT_EQ(win::createFileFlags(caseWith(row.sync), row.direct), row.flags);
    EXPECT_EQ(win::syncUnavailable(row.sync).has_value(), !row.flags.has_value());
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Windows, CreateFileFlags, ::testing::Values(
    FlagRow{"None", SyncMode::None, false, FILE_ATTRIBUTE_NORMAL},
    FlagRow{"NoneDirect", SyncMode::None, true, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_NO_BUFFERING},
    FlagRow{"FsyncEndFlushesLater", SyncMode::FsyncEnd, false, FILE_ATTRIBUTE_NORMAL},
    FlagRow{"FsyncEveryFlushesLater", SyncMode::FsyncEvery, true, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_NO_BUFFERING},
    FlagRow{"ODsyncIsWriteThrough", SyncMode::ODsync, false, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_WRITE_THROUGH},
    FlagRow{"ODsyncDirect", SyncMode::ODsync, true, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_WRITE_THROUGH | FILE_FLAG_NO_BUFFERING},
    FlagRow{"OSyncHasNoMeaning", SyncMode::OSync, false, std::nullopt},
    FlagRow{"FdatasyncHasNoMeaning", SyncMode::FdatasyncEnd, true, std::nullopt}),
    [](const auto& row) { return std::string(row.param.name); });
// clang-format on

TEST(NoBuffering, AlignmentRules)
{
    struct Row
    {
        std::uint64_t offset;
        std::uint64_t length;
        std::uintptr_t address;
        std::uint32_t sector;
        const char* problem; // "" = fine
    };
    const Row rows[] = {
        {0, 4096, 0x10000, 512, ""},
        {0, 4096, 0x10000, 4096, ""},
        {8192, 512, 0x10200, 512, ""},
        {1ULL << 40, 1 << 20, 0x20000, 4096, ""},
        {0, 1000, 0x10000, 512, "not a multiple"},
        {0, 512, 0x10000, 4096, "not a multiple of the volume's 4 KiB sectors"},
        {100, 512, 0x10000, 512, "offset 100"},
        {4096, 4096, 0x10010, 4096, "not aligned"},
        {0, 4096, 0x10200, 4096, "not aligned"},
        {0, 4096, 0x10000, 0, "not a power of two"},
        {0, 4096, 0x10000, 1536, "not a power of two"},
    };
    for (const auto& row : rows) {
        const auto problem = win::noBufferingProblem(row.offset, row.length, row.address, row.sector);
        if (*row.problem == '\0')
            EXPECT_FALSE(problem.has_value())
                << row.offset << "+" << row.length << ": " << problem.value_or("");
        else
            EXPECT_THAT(problem.value_or("fine"), HasSubstr(row.problem)) << row.offset << "+" << row.length;
    }
}

TEST(NoBuffering, DirectJobChecksAlignmentItselfAndCreatesNothing)
{
    // The matrix refuses such a case; this calls the strategy directly, as a bug past the matrix would, and
    // pretends the volume has 4 KiB sectors: wine would accept the writes, a real volume would not.
    TempDir dir;
    auto target = inspectTarget(dir.path());
    target.logicalBlockBytes = 4096;
    const Pattern pattern(4096);
    for (const auto& [chunk, bytes] : {std::pair<std::uint64_t, std::uint64_t>{1000, 1000 * 64},
                                       std::pair<std::uint64_t, std::uint64_t>{4096, 4096 * 10 + 512}}) {
        JobSpec spec;
        spec.testCase = Case{"direct", Direction::Write, chunk, bytes, {}, {}, 1, TargetKind::Directory};
        spec.bytes = bytes;
        spec.path = dir / "data.dat";
        spec.pattern = &pattern;
        spec.target = target;
        Outcome outcome;
        EXPECT_EQ(builtinRegistry().find("direct")->prepare(spec, outcome), nullptr) << chunk;
        EXPECT_EQ(outcome.status, Status::Refused) << chunk;
        EXPECT_THAT(outcome.message, HasSubstr("4 KiB sectors")) << chunk;
        EXPECT_EQ(dir.entryCount(), 0u) << "nothing may be created for a refused case";
    }
    Case misaligned{"direct", Direction::Write, 1000, 1 << 20, {}, {}, 1, TargetKind::Directory};
    EXPECT_THAT(refusalReason(misaligned, builtinRegistry(), target), HasSubstr("logical block size"));
    Case batch{"mmap-batch-direct", Direction::Write, 4096, 4096 * 3 + 512, {}, {}, 1, TargetKind::Directory};
    EXPECT_THAT(refusalReason(batch, builtinRegistry(), target), HasSubstr("sector size"));
}

TEST(WindowsStrings, Utf8AndUtf16RoundTrip)
{
    const std::string text = "C:\\donn\xC3\xA9\x65s\\\xE2\x9C\x93 \xF0\x9F\x93\x81";
    const std::wstring wide = win::widen(text);
    EXPECT_EQ(wide, L"C:\\donn\u00e9es\\\u2713 \U0001F4C1");
    EXPECT_EQ(win::narrow(wide), text);
    EXPECT_EQ(win::widen(""), L"");
}

TEST(WindowsErrors, CarryCodeNameTextAndTheFullDiskHint)
{
    const auto full = win::errorOutcome(ERROR_DISK_FULL, "WriteFile", "C:\\x\\c000-r0-t0.dat");
    EXPECT_EQ(full.status, Status::Failed);
    EXPECT_EQ(full.errorCode, static_cast<int>(ERROR_DISK_FULL));
    EXPECT_EQ(full.operation, "WriteFile");
    EXPECT_THAT(full.message, HasSubstr("WriteFile C:\\x\\c000-r0-t0.dat failed: "));
    EXPECT_THAT(full.message, HasSubstr("(ERROR_DISK_FULL); the target is full"));
    EXPECT_EQ(win::errorName(123456), "error 123456");
}

TEST(WindowsStrategies, LinuxOnlyAndMissingRuntimeCallsSayWhy)
{
    const auto& registry = builtinRegistry();
    ASSERT_NE(registry.find("vmsplice"), nullptr);
    EXPECT_THAT(registry.find("vmsplice")->info().unavailable.value_or(""), HasSubstr("Linux-only"));
    const auto& unlocked = registry.find("stdio-unlocked")->info();
#if defined(_UCRT)
    EXPECT_FALSE(unlocked.unavailable.has_value());
#else
    EXPECT_THAT(unlocked.unavailable.value_or(""), HasSubstr("msvcrt.dll, which has no _fwrite_nolock"));
    TempDir dir;
    const Pattern pattern(1);
    JobSpec spec;
    spec.testCase = Case{"stdio-unlocked", Direction::Write, 1, 100, {BufferMode::Default, 0}, {}};
    spec.bytes = 100;
    spec.path = dir / "data.dat";
    spec.pattern = &pattern;
    Outcome outcome;
    EXPECT_EQ(registry.find("stdio-unlocked")->prepare(spec, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Unsupported);
    EXPECT_EQ(dir.entryCount(), 0u);
#endif
    Case tiny{"stdio", Direction::Write, 1, 1000, {BufferMode::Bytes, 1}, {}};
    EXPECT_THAT(refusalReason(tiny, registry, inspectTarget(TempDir().path())), HasSubstr("2 bytes"));
}

TEST(WindowsTargets, UnicodeFolderRunsAndReportsItsPath)
{
    TempDir dir;
    const std::string folder = dir / "donn\xC3\xA9\x65s \xE2\x9C\x93";
    ASSERT_TRUE(std::filesystem::create_directory(std::filesystem::u8path(folder)));
    const auto target = inspectTarget(folder);
    EXPECT_THAT(target.path, HasSubstr("donn\xC3\xA9\x65s \xE2\x9C\x93"));
    auto workspace = makeWorkspace(target);
    Outcome outcome;
    const auto path = workspace->pathFor("c000-r0-t0.dat", outcome);
    ASSERT_TRUE(outcome.ok()) << outcome.message;
    const Pattern pattern(4096);
    JobSpec spec;
    spec.testCase = Case{"write", Direction::Write, 4096, 64 * kKiB, {}, {SyncMode::FsyncEnd, 0}};
    spec.bytes = 64 * kKiB;
    spec.path = path;
    spec.pattern = &pattern;
    spec.target = target;
    auto job = builtinRegistry().find("write")->prepare(spec, outcome);
    ASSERT_TRUE(job) << outcome.message;
    std::atomic<bool> stop{false};
    Progress progress;
    progress.stop = &stop;
    EXPECT_TRUE(job->execute(progress).ok());
    job.reset();
    EXPECT_TRUE(workspace->verify(path, 64 * kKiB, pattern).ok());
    workspace->close();
    EXPECT_TRUE(std::filesystem::is_empty(std::filesystem::u8path(folder)));
}

TEST(WindowsTargets, DrivesAreListedWithTheirVolumeFacts)
{
    const auto targets = listWritableTargets();
    ASSERT_FALSE(targets.empty());
    bool sawC = false;
    for (const auto& t : targets) {
        EXPECT_EQ(t.path.size(), 3u) << t.path; // "C:\"
        EXPECT_EQ(t.mountPoint, t.path);
        EXPECT_GT(t.totalBytes, 0u) << t.path;
        EXPECT_GE(t.logicalBlockBytes, 512u) << t.path;
        sawC = sawC || t.path == "C:\\";
    }
    EXPECT_TRUE(sawC) << "the system drive is writable and must be listed";
    TempDir dir;
    const auto info = inspectTarget(dir.path());
    EXPECT_EQ(info.mountPoint.size(), 3u) << info.mountPoint;
    // The volume is the device to watch where it answers IOCTL_DISK_PERFORMANCE (not under wine).
    EXPECT_TRUE(info.device.empty() || info.device.rfind("\\\\.\\", 0) == 0) << info.device;
    EXPECT_FALSE(info.fsType.empty());
}

TEST(WindowsProbe, NamesWindowsAndReadsMemory)
{
    auto probe = makeSystemProbe();
    const auto host = probe->host();
    EXPECT_THAT(host.os, HasSubstr("Windows"));
    EXPECT_GT(host.ramBytes, 0u);
    const auto before = probe->process();
    volatile double sink = 0;
    for (int i = 0; i < 20'000'000; ++i)
        sink = sink + i * 0.5;
    EXPECT_GT(probe->process().userSeconds, before.userSeconds);
}

TEST(WindowsOutput, AtomicWriteReplacesAndLeavesNoTemporary)
{
    TempDir dir;
    const std::string path = dir / "result.json";
    ASSERT_TRUE(writeFileAtomically(path, "first").ok());
    ASSERT_TRUE(writeFileAtomically(path, "second").ok());
    std::ifstream in(path);
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "second");
    EXPECT_EQ(dir.entryCount(), 1u);
    EXPECT_THAT(outputPathProblem(dir / "missing\\x.json"), HasSubstr("does not exist"));
    EXPECT_THAT(outputPathProblem(dir.path()), HasSubstr("is a folder"));
    EXPECT_EQ(outputPathProblem(dir / "ok.json"), "");
}

TEST(WindowsReads, NoReuseAndTheUnlockedReaderAreRefusedWithReasons)
{
    TempDir dir;
    const auto target = inspectTarget(dir.path());
    Case c{"read",          Direction::Read, 4096, kMiB, {}, {}, 1, TargetKind::Directory, ReadHint::NoReuse,
           CacheState::Cold};
    EXPECT_THAT(refusalReason(c, builtinRegistry(), target), HasSubstr("nothing like noreuse"));
    c.hint = ReadHint::Random;
    EXPECT_EQ(refusalReason(c, builtinRegistry(), target), "");
    const auto& unlocked = builtinRegistry().find("fread-unlocked")->info();
    ASSERT_TRUE(unlocked.unavailable.has_value());
    EXPECT_THAT(*unlocked.unavailable, HasSubstr("_fread_nolock"));
}

TEST(WindowsReads, TheDirectReaderRefusesMisalignedTransfersItself)
{
    TempDir dir;
    const Pattern pattern(4096);
    JobSpec spec;
    spec.testCase =
        Case{"read-direct",           Direction::Read, 1000, 4000, {}, {}, 1, TargetKind::Directory,
             ReadHint::NotApplicable, CacheState::Cold};
    spec.bytes = 4000;
    spec.path = dir / "f000000.dat";
    spec.pattern = &pattern;
    spec.target.logicalBlockBytes = 512;
    Outcome outcome;
    EXPECT_EQ(builtinRegistry().find("read-direct")->prepare(spec, outcome), nullptr);
    EXPECT_EQ(outcome.status, Status::Refused);
    EXPECT_THAT(outcome.message, HasSubstr("not a multiple of the volume's 512 B sectors"));
}

namespace {

// Another IOLab run as far as liveRunsIn can tell: a live process, here this test program started suspended
// (it runs nothing and is ended with the test).
class StandInRun
{
public:
    StandInRun()
    {
        std::wstring self(MAX_PATH, L'\0');
        self.resize(::GetModuleFileNameW(nullptr, self.data(), MAX_PATH));
        std::wstring commandLine = L"\"" + self + L"\" --gtest_list_tests";
        STARTUPINFOW startup{};
        startup.cb = sizeof startup;
        if (::CreateProcessW(self.c_str(), commandLine.data(), nullptr, nullptr, FALSE, CREATE_SUSPENDED,
                             nullptr, nullptr, &startup, &m_process) == 0)
            m_process = {};
    }
    ~StandInRun() { end(); }
    StandInRun(const StandInRun&) = delete;
    StandInRun& operator=(const StandInRun&) = delete;

    bool started() const { return m_process.hProcess != nullptr; }
    long pid() const { return static_cast<long>(m_process.dwProcessId); }
    void end()
    {
        if (m_process.hProcess == nullptr)
            return;
        ::TerminateProcess(m_process.hProcess, 1);
        ::WaitForSingleObject(m_process.hProcess, INFINITE);
        ::CloseHandle(m_process.hThread);
        ::CloseHandle(m_process.hProcess);
        m_process = {};
    }

private:
    PROCESS_INFORMATION m_process{};
};

void writeMarker(const std::string& folder, long pid)
{
    std::ofstream(std::filesystem::u8path(folder + "\\.iolab-run"))
        << "IOLab run folder\npid=" << pid << "\n";
}

// A directory symbolic link at `link` to `folder`; "" when made, else why not.
std::string makeDirectorySymlink(const std::string& link, const std::string& folder)
{
    if (::CreateSymbolicLinkW(win::widen(link).c_str(), win::widen(folder).c_str(),
                              SYMBOLIC_LINK_FLAG_DIRECTORY | SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE) ==
        0)
        return win::errorText(::GetLastError());
    return {};
}

// A junction (a mount-point reparse point, what `mklink /J` makes) at `link` to `folder`; "" when made, else
// why not.
std::string makeJunction(const std::string& link, const std::string& folder)
{
    if (::CreateDirectoryW(win::widen(link).c_str(), nullptr) == 0)
        return win::errorText(::GetLastError());
    win::UniqueHandle handle(::CreateFileW(win::widen(link).c_str(), GENERIC_WRITE, 0, nullptr, OPEN_EXISTING,
                                           FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS,
                                           nullptr));
    if (!handle)
        return win::errorText(::GetLastError());
    // The mount-point form of REPARSE_DATA_BUFFER: the substitute name "\??\<folder>", then the print name.
    const std::wstring substitute = L"\\??\\" + win::widen(folder);
    const std::wstring print = win::widen(folder);
    std::vector<wchar_t> names(substitute.begin(), substitute.end());
    names.push_back(L'\0');
    names.insert(names.end(), print.begin(), print.end());
    names.push_back(L'\0');
    const auto substituteBytes = static_cast<WORD>(substitute.size() * sizeof(wchar_t));
    const auto printBytes = static_cast<WORD>(print.size() * sizeof(wchar_t));
    const WORD header[] = {0, substituteBytes, static_cast<WORD>(substituteBytes + sizeof(wchar_t)),
                           printBytes};
    const auto dataBytes = static_cast<WORD>(sizeof header + names.size() * sizeof(wchar_t));
    std::vector<std::byte> buffer(8 + dataBytes);
    const DWORD tag = IO_REPARSE_TAG_MOUNT_POINT;
    std::memcpy(buffer.data(), &tag, sizeof tag);
    std::memcpy(buffer.data() + 4, &dataBytes, sizeof dataBytes);
    std::memcpy(buffer.data() + 8, header, sizeof header);
    std::memcpy(buffer.data() + 8 + sizeof header, names.data(), names.size() * sizeof(wchar_t));
    DWORD returned = 0;
    if (::DeviceIoControl(handle.get(), FSCTL_SET_REPARSE_POINT, buffer.data(),
                          static_cast<DWORD>(buffer.size()), nullptr, 0, &returned, nullptr) == 0)
        return win::errorText(::GetLastError());
    return {};
}

} // namespace

TEST(WindowsRunFolders, LiveRunsAreOtherLiveMarkedFoldersInTheTarget)
{
    TempDir target;
    StandInRun other;
    ASSERT_TRUE(other.started()) << win::errorText(::GetLastError());
    const auto live = target / "iolab-run-20260101-000000-1";
    const auto dead = target / "iolab-run-20260101-000000-2";
    const auto mine = target / "iolab-run-20260101-000000-3";
    const auto unmarked = target / "iolab-run-20260101-000000-4";
    for (const auto& folder : {live, dead, mine, unmarked})
        std::filesystem::create_directory(std::filesystem::u8path(folder));
    writeMarker(live, other.pid());
    writeMarker(dead, 999999999);
    writeMarker(mine, thisProcessId());
    std::ofstream(std::filesystem::u8path(target / "iolab-run-20260101-000000-5")) << "a file";
    const auto runs = liveRunsIn(target.path());
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].folder, live);
    EXPECT_EQ(runs[0].pid, other.pid());
    other.end();
    EXPECT_TRUE(liveRunsIn(target.path()).empty()) << "its process has ended";
    EXPECT_TRUE(liveRunsIn(target / "missing").empty());
}

// A symbolic link or a junction named like a run folder is never one, even when it leads to a live run's
// folder (the one rule for liveRunsIn and clean, on Linux too). A link this system cannot make is named on
// the output; with neither, the test skips.
TEST(WindowsRunFolders, ALinkIsNeverARunFolder)
{
    TempDir target;
    TempDir elsewhere;
    StandInRun other;
    ASSERT_TRUE(other.started()) << win::errorText(::GetLastError());
    const auto real = elsewhere / "iolab-run-20260101-000000-1";
    std::filesystem::create_directory(std::filesystem::u8path(real));
    writeMarker(real, other.pid());
    std::vector<std::string> made;
    std::string unmade;
    for (const auto& [kind, make, name] :
         {std::tuple{"a symbolic link", &makeDirectorySymlink, "iolab-run-20260101-000000-2"},
          std::tuple{"a junction", &makeJunction, "iolab-run-20260101-000000-3"}}) {
        const auto link = target / name;
        if (const std::string why = make(link, real); !why.empty())
            unmade += fmt::format(" {} ({})", kind, why);
        else if (!std::filesystem::exists(std::filesystem::u8path(link + "\\.iolab-run")))
            unmade += fmt::format(" {} (made, but it does not lead to the folder)", kind); // tests nothing
        else
            made.push_back(link);
    }
    if (made.empty())
        GTEST_SKIP() << "this system could make neither link:" << unmade;
    if (!unmade.empty())
        std::printf("[   NOTE   ] not tested:%s\n", unmade.c_str());
    const auto atTheFolder = liveRunsIn(elsewhere.path());
    const auto inTarget = liveRunsIn(target.path());
    other.end();
    ASSERT_EQ(atTheFolder.size(), 1u) << "the real folder is a live run";
    EXPECT_TRUE(inTarget.empty()) << "listed "
                                  << (inTarget.empty() ? std::string() : inTarget.front().folder);
    // With the run gone, clean removes the real folder from its own target only, never through a link.
    const auto report = cleanStaleRuns(target.path());
    EXPECT_TRUE(report.removed.empty());
    EXPECT_TRUE(report.kept.empty());
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::u8path(real + "\\.iolab-run")));
    EXPECT_EQ(cleanStaleRuns(elsewhere.path()).removed, std::vector<std::string>{real});
}

// Issue 18: a folder's system facts on Windows: the volume's filesystem, the folder's compression and
// encryption, the bus where the device answers, the power plan, Defender and the machine; whatever Windows
// (or wine) does not tell is unknown with its reason, never guessed.
TEST(WindowsSystemFacts, AFoldersFactsAreReadAndEveryUnknownSaysWhy)
{
    TempDir dir;
    const auto target = inspectTarget(dir.path());
    const auto facts = gatherSystemFacts(target);
    ASSERT_TRUE(facts.gathered);
    ASSERT_FALSE(facts.stack.empty());
    EXPECT_EQ(facts.stack.front().name, target.fsType);
    EXPECT_EQ(facts.valueOf("fs.type"), target.fsType);
    EXPECT_EQ(facts.valueOf("fs.compression"), "off on the target folder");
    EXPECT_EQ(facts.valueOf("fs.encryption"), "off on the target folder");
    EXPECT_THAT(facts.valueOf("memory.total"), HasSubstr("available"));
    EXPECT_THAT(facts.valueOf("machine.virtual"), ::testing::Not(::testing::IsEmpty()));
    const auto* bitlocker = facts.find("bitlocker");
    ASSERT_NE(bitlocker, nullptr);
    EXPECT_FALSE(bitlocker->known());
    // Each is a value or unknown with the reason Windows (or wine) gave: no administrator rights for the
    // disk's cache setting or Defender's exclusions, no Defender, a device that does not answer.
    for (const char* id : {"device.power_protection", "device.write_cache_changeable", "device.cache_setting",
                           "defender.excluded_path", "defender.excluded_process"})
        EXPECT_NE(facts.find(id), nullptr) << id;
    expectEveryFactExplained(facts);
    const auto text = factsToText(facts);
    EXPECT_THAT(text, HasSubstr("Defender real-time scanning"));
    EXPECT_THAT(text, HasSubstr("Power plan"));
}

namespace {

struct ExclusionRow
{
    const char* name;
    const wchar_t* exclusion;
    const wchar_t* target;
    bool covers;
};

class DefenderPathExclusion : public ::testing::TestWithParam<ExclusionRow>
{};

} // namespace

// Issue 18: whether one of Defender's path exclusions covers the target folder, name by name.
TEST_P(DefenderPathExclusion, CoversOnFolderBoundariesOnly)
{
    const auto& row = GetParam();
    EXPECT_EQ(win::exclusionCovers(row.exclusion, row.target), row.covers)
        << win::narrow(row.exclusion) << " over " << win::narrow(row.target);
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Windows, DefenderPathExclusion, ::testing::Values(
    ExclusionRow{"SameFolder", L"C:\\Data", L"C:\\Data", true},
    ExclusionRow{"Subfolder", L"C:\\Data", L"C:\\Data\\runs\\today", true},
    ExclusionRow{"SiblingWithTheSamePrefix", L"C:\\Data", L"C:\\Database", false},
    ExclusionRow{"ParentIsNotCoveredByItsChild", L"C:\\Data\\runs", L"C:\\Data", false},
    ExclusionRow{"TrailingBackslashes", L"C:\\Data\\", L"C:\\Data\\\\runs\\", true},
    ExclusionRow{"Case", L"c:\\DATA\\Runs", L"C:\\data\\runs\\x", true},
    ExclusionRow{"NonAsciiCase", L"C:\\Daten\\\u00c4rger", L"C:\\daten\\\u00e4rger", true},
    ExclusionRow{"ForwardSlashes", L"C:/Data", L"C:\\Data\\runs", true},
    ExclusionRow{"WholeDrive", L"C:\\", L"C:\\Data", true},
    ExclusionRow{"OtherDrive", L"D:\\Data", L"C:\\Data", false},
    ExclusionRow{"DriveRelativeCoversNothing", L"C:Data", L"C:\\Data", false},
    ExclusionRow{"BareDriveCoversNothing", L"C:", L"C:\\Data", false},
    ExclusionRow{"RootRelativeCoversNothing", L"\\Data", L"C:\\Data", false},
    ExclusionRow{"RelativeCoversNothing", L"Data", L"C:\\Data", false},
    ExclusionRow{"EmptyCoversNothing", L"", L"C:\\Data", false},
    ExclusionRow{"ExtendedPrefix", L"\\\\?\\C:\\Data", L"C:\\Data\\runs", true},
    ExclusionRow{"DotDot", L"C:\\Data\\..\\Work", L"C:\\Work\\runs", true},
    ExclusionRow{"Unc", L"\\\\server\\share\\io", L"\\\\SERVER\\Share\\io\\runs", true},
    ExclusionRow{"UncOtherShare", L"\\\\server\\share", L"\\\\server\\shared\\io", false},
    ExclusionRow{"ExtendedUnc", L"\\\\?\\UNC\\server\\share", L"\\\\server\\share\\io", true},
    ExclusionRow{"StarIsOneFolderName", L"C:\\Users\\*\\Bench", L"C:\\Users\\ann\\Bench\\x", true},
    ExclusionRow{"StarDoesNotCrossFolders", L"C:\\Users\\*\\Bench", L"C:\\Users\\ann\\x\\Bench", false},
    ExclusionRow{"QuestionMarkIsOneCharacter", L"C:\\Test0?", L"C:\\Test01\\x", true},
    ExclusionRow{"QuestionMarkIsNotTwo", L"C:\\Test0?", L"C:\\Test012", false},
    ExclusionRow{"StarSuffix", L"C:\\Data*", L"C:\\Database", true},
    ExclusionRow{"LastStarCoversTheContents", L"C:\\Data\\*", L"C:\\Data", true},
    ExclusionRow{"LastStarOnASibling", L"C:\\Database\\*", L"C:\\Data", false},
    ExclusionRow{"FilePatternInTheFolderIsNotTheFolder", L"C:\\Data\\*.tmp", L"C:\\Data", false}),
    [](const auto& row) { return std::string(row.param.name); });
// clang-format on

TEST(DefenderProcessExclusion, NamesOrPathsOfIOLabsPrograms)
{
    const wchar_t* cli = L"C:\\Program Files\\IOLab\\iolab-cli.exe";
    EXPECT_TRUE(win::processExclusionCovers(L"iolab-cli.exe", cli));
    EXPECT_TRUE(win::processExclusionCovers(L"IOLAB-CLI.EXE", cli));
    EXPECT_TRUE(win::processExclusionCovers(L"iolab*.exe", cli));
    EXPECT_TRUE(win::processExclusionCovers(L"c:\\program files\\iolab\\iolab-cli.exe", cli));
    EXPECT_TRUE(win::processExclusionCovers(L"C:\\Program Files\\IOLab\\*", cli));
    EXPECT_FALSE(win::processExclusionCovers(L"iolab.exe", cli));
    EXPECT_FALSE(win::processExclusionCovers(L"cli.exe", cli));
    EXPECT_FALSE(win::processExclusionCovers(L"D:\\Program Files\\IOLab\\iolab-cli.exe", cli));
    EXPECT_FALSE(win::processExclusionCovers(L"C:\\Program Files\\iolab-cli.exe", cli));
    EXPECT_FALSE(win::processExclusionCovers(L"C:iolab-cli.exe", cli)) << "drive-relative";
    EXPECT_FALSE(win::processExclusionCovers(L"iolab-cli.exe", L"iolab-cli.exe")) << "not a full path";
}

// The list reader over a key of our own (Defender's lists are under HKLM, which tests must not write): the
// value names, environment variables expanded; a missing key is ERROR_FILE_NOT_FOUND, not an empty answer.
TEST(DefenderExclusionList, ReadsValueNamesAndExpandsVariables)
{
    const std::wstring tree = L"Software\\IOLabTests-" + std::to_wstring(::GetCurrentProcessId());
    const std::wstring key = tree + L"\\Exclusions";
    HKEY handle = nullptr;
    ASSERT_EQ(::RegCreateKeyExW(HKEY_CURRENT_USER, key.c_str(), 0, nullptr, 0, KEY_ALL_ACCESS, nullptr,
                                &handle, nullptr),
              ERROR_SUCCESS);
    const DWORD zero = 0;
    for (const wchar_t* name : {L"C:\\Data", L"%SystemDrive%\\Bench"})
        ::RegSetValueExW(handle, name, 0, REG_DWORD, reinterpret_cast<const BYTE*>(&zero), sizeof zero);
    ::RegCloseKey(handle);
    const auto list = win::readExclusionList(HKEY_CURRENT_USER, key.c_str());
    ::RegDeleteTreeW(HKEY_CURRENT_USER, tree.c_str());
    EXPECT_EQ(list.error, static_cast<DWORD>(ERROR_SUCCESS));
    const std::wstring bench = win::expandEnvironment(L"%SystemDrive%") + L"\\Bench";
    EXPECT_NE(bench, L"%SystemDrive%\\Bench");
    EXPECT_THAT(list.entries, ::testing::UnorderedElementsAre(L"C:\\Data", bench));
    EXPECT_EQ(win::expandEnvironment(L"%IOLAB_NO_SUCH_VARIABLE%\\x"), L"%IOLAB_NO_SUCH_VARIABLE%\\x");

    const auto missing = win::readExclusionList(HKEY_CURRENT_USER, key.c_str());
    EXPECT_EQ(missing.error, static_cast<DWORD>(ERROR_FILE_NOT_FOUND));
    EXPECT_TRUE(missing.entries.empty());
}
