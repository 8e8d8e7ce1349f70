// SPDX-License-Identifier: MIT
// The workspace's calls on Windows: what touches a file's data (durability, the cache, free space) and the
// folder and whole-file primitives under the run folder's bookkeeping, verification and data sets
// (platform/run_folder_workspace.h) and `iolab-cli clean` (platform/common/run_folders.cpp). Also the small
// file helpers the front ends use (output checks, atomic writes, the log folder).
#include "core/base/error.h"
#include "platform/os_primitives.h"
#include "platform/platform.h"
#include "platform/run_folder_workspace.h"
#include "platform/windows/win_io.h"

#include <fmt/format.h>
#include <shellapi.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace iolab {

namespace {

using win::narrow;
using win::widen;

bool isFolder(const std::string& path)
{
    const DWORD attributes = ::GetFileAttributesW(widen(path).c_str());
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
}

// What touches a file's data; the run folder's bookkeeping is RunFolderWorkspace's.
class WindowsWorkspace final : public RunFolderWorkspace
{
public:
    using RunFolderWorkspace::RunFolderWorkspace;

    std::uint64_t freeBytes() override { return freeSpaceAt(target().path); }

    Outcome makeDurable(const std::string& path) override
    {
        // FlushFileBuffers needs write access; the file is opened for it and nothing is written.
        win::UniqueHandle file(::CreateFileW(widen(path).c_str(), GENERIC_WRITE,
                                             FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                                             FILE_ATTRIBUTE_NORMAL, nullptr));
        if (!file)
            return win::errorOutcome(::GetLastError(), "CreateFile", path);
        if (::FlushFileBuffers(file.get()) == 0)
            return win::errorOutcome(::GetLastError(), "FlushFileBuffers", path);
        return Outcome::success();
    }

    // FlushFileBuffers on the volume would write back everything, but it needs an administrator.
    Outcome settle() override { return Outcome::success(); }

    Outcome evict(const std::string& path) override
    {
        {
            // Written-back first: the cache manager keeps dirty pages.
            win::UniqueHandle file(::CreateFileW(widen(path).c_str(), GENERIC_READ | GENERIC_WRITE,
                                                 FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                                                 FILE_ATTRIBUTE_NORMAL, nullptr));
            if (!file)
                return win::errorOutcome(::GetLastError(), "CreateFile (evict)", path);
            if (::FlushFileBuffers(file.get()) == 0)
                return win::errorOutcome(::GetLastError(), "FlushFileBuffers (evict)", path);
        }
        // A non-cached open of a file with no other handle or mapping makes NTFS purge its cached pages.
        win::UniqueHandle file(::CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr,
                                             OPEN_EXISTING, FILE_FLAG_NO_BUFFERING, nullptr));
        if (!file)
            return win::errorOutcome(::GetLastError(), "CreateFile(NO_BUFFERING) (evict)", path);
        return Outcome::success();
    }

    Outcome dropCaches() override
    {
        return {
            Status::Unsupported, 0, "drop caches",
            "emptying the whole Windows standby list needs a privileged tool such as RAMMap; IOLab evicts "
            "the data set's files instead"};
    }

    std::optional<std::uint64_t> cachedBytes(const std::string&) override
    {
        return std::nullopt; // Windows has no mincore for the file cache
    }

    std::string evictionMethod(bool) const override
    {
        return "cold: FlushFileBuffers, then a non-cached open of every file (NTFS purges its cached pages) "
               "before each repetition; Windows cannot show what stayed cached";
    }
};

} // namespace

std::unique_ptr<Workspace> makeWorkspace(const TargetInfo& target)
{
    return std::make_unique<WindowsWorkspace>(target);
}

// The primitives under platform/common/run_folders.cpp and platform/common/run_folder_workspace.cpp.
namespace os {

namespace {

constexpr DWORD kNotAPlainFile = FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT;

EntryKind kindOfAttributes(DWORD attributes)
{
    if ((attributes & kNotAPlainFile) == 0)
        return EntryKind::File;
    return (attributes & kNotAPlainFile) == FILE_ATTRIBUTE_DIRECTORY ? EntryKind::Folder : EntryKind::Other;
}

} // namespace

// A folder FindFirstFile cannot open reads as empty.
std::vector<FolderEntry> listFolder(const std::string& folder, std::string_view prefix, std::string&)
{
    std::vector<FolderEntry> entries;
    WIN32_FIND_DATAW data{};
    HANDLE find = ::FindFirstFileW(widen(joinPath(folder, std::string(prefix) + "*")).c_str(), &data);
    if (find == INVALID_HANDLE_VALUE)
        return entries;
    do {
        const std::string name = narrow(data.cFileName);
        if (name == "." || name == "..")
            continue;
        entries.push_back({name, kindOfAttributes(data.dwFileAttributes),
                           (static_cast<std::uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow});
    } while (::FindNextFileW(find, &data) != 0);
    ::FindClose(find);
    return entries;
}

EntryKind kindOf(const std::string& path, bool followLinks)
{
    const DWORD attributes = ::GetFileAttributesW(widen(path).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES)
        return EntryKind::Missing;
    if (followLinks)
        return (attributes & FILE_ATTRIBUTE_DIRECTORY) != 0 ? EntryKind::Folder : EntryKind::File;
    return kindOfAttributes(attributes);
}

// `name` may hold '/' (data-set paths are written that way in core); Windows paths get '\\'.
std::string joinPath(const std::string& folder, std::string_view name)
{
    std::string tail(name);
    std::replace(tail.begin(), tail.end(), '/', '\\');
    if (!folder.empty() && (folder.back() == '\\' || folder.back() == '/'))
        return folder + tail;
    return folder + "\\" + tail;
}

std::string nestedEntryName(const std::string& path)
{
    return path;
}

std::string readSmallFile(const std::string& path)
{
    win::UniqueHandle file(::CreateFileW(widen(path).c_str(), GENERIC_READ,
                                         FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                                         FILE_FLAG_OPEN_REPARSE_POINT, nullptr));
    if (!file)
        return {};
    char buffer[4096];
    DWORD n = 0;
    if (::ReadFile(file.get(), buffer, sizeof buffer, &n, nullptr) == 0)
        return {};
    return std::string(buffer, n);
}

long currentPid()
{
    return static_cast<long>(::GetCurrentProcessId());
}

bool processAlive(long pid)
{
    if (pid <= 0)
        return false;
    win::UniqueHandle process(
        ::OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid)));
    if (!process)
        return ::GetLastError() == ERROR_ACCESS_DENIED; // someone else's process: it exists
    return ::WaitForSingleObject(process.get(), 0) == WAIT_TIMEOUT;
}

namespace {

// A file another handle still holds (without FILE_SHARE_DELETE: a sharing violation) cannot be deleted, and
// one deleted while a handle holds it stays in its folder until that handle closes, so the folder is not
// empty yet. Both pass on their own when the holder lets go: a process that has just ended (whose handles
// the system closes as it goes), a virus scanner or an indexer looking at a new file. Such a removal is tried
// again for up to about two seconds; a handle that is never closed still fails it, with the system's reason.
template <typename Remove> Removal removeWithPatience(Remove remove)
{
    constexpr int kTries = 100;
    for (int attempt = 1;; ++attempt) {
        if (remove() != 0)
            return {};
        const DWORD error = ::GetLastError();
        const bool passing = error == ERROR_SHARING_VIOLATION || error == ERROR_DIR_NOT_EMPTY;
        if (!passing || attempt == kTries)
            return {win::errorText(error), error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND};
        ::Sleep(20);
    }
}

} // namespace

Removal removeFile(const std::string& path)
{
    const std::wstring wide = widen(path);
    return removeWithPatience([&] { return ::DeleteFileW(wide.c_str()); });
}

Removal removeFolder(const std::string& path)
{
    const std::wstring wide = widen(path);
    return removeWithPatience([&] { return ::RemoveDirectoryW(wide.c_str()); });
}

struct WholeFile::Native
{
    win::UniqueHandle file;
    DWORD error = 0;
    const char* call = "";

    bool fail(const char* failedCall, DWORD failedError = ::GetLastError())
    {
        call = failedCall;
        error = failedError;
        return false;
    }
};

WholeFile::WholeFile() : m_native(std::make_unique<Native>()) {}
WholeFile::~WholeFile() = default;

bool WholeFile::openToRead(const std::string& path)
{
    m_native->file.reset(::CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr,
                                       OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN, nullptr));
    return m_native->file || m_native->fail("CreateFile");
}

bool WholeFile::size(std::uint64_t& bytes)
{
    LARGE_INTEGER size{};
    if (::GetFileSizeEx(m_native->file.get(), &size) == 0)
        return m_native->fail("GetFileSizeEx");
    bytes = static_cast<std::uint64_t>(size.QuadPart);
    return true;
}

std::int64_t WholeFile::read(std::byte* data, std::size_t size)
{
    DWORD n = 0;
    if (::ReadFile(m_native->file.get(), data, static_cast<DWORD>(std::min<std::size_t>(size, MAXDWORD)), &n,
                   nullptr) == 0) {
        m_native->fail("ReadFile");
        return -1;
    }
    return n;
}

bool WholeFile::create(const std::string& path, Outcome& error)
{
    m_native->file = win::createScratch(path, error);
    return static_cast<bool>(m_native->file);
}

bool WholeFile::writeFully(const std::byte* data, std::uint64_t size)
{
    return win::writeFully(m_native->file.get(), data, size) || m_native->fail("WriteFile");
}

bool WholeFile::close()
{
    const DWORD error = m_native->file.close();
    return error == 0 || m_native->fail("CloseHandle", error);
}

Outcome WholeFile::failure(std::string_view purpose, const std::string& path) const
{
    return win::errorOutcome(m_native->error, fmt::format("{} ({})", m_native->call, purpose), path);
}

Outcome makeFolder(const std::string& path)
{
    if (::CreateDirectoryW(widen(path).c_str(), nullptr) == 0)
        return win::errorOutcome(::GetLastError(), "CreateDirectory", path);
    return Outcome::success();
}

Outcome createMarker(const std::string& path, std::string_view text)
{
    win::UniqueHandle file(::CreateFileW(widen(path).c_str(), GENERIC_WRITE, FILE_SHARE_READ, nullptr,
                                         CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!file || !win::writeFully(file.get(), reinterpret_cast<const std::byte*>(text.data()), text.size()))
        return win::errorOutcome(::GetLastError(), "create marker", path);
    return Outcome::success();
}

} // namespace os

std::string homeDirectory()
{
    if (const wchar_t* profile = ::_wgetenv(L"USERPROFILE"); profile != nullptr && *profile != L'\0')
        return narrow(profile);
    return "C:\\";
}

std::string defaultLogDirectory()
{
    if (const wchar_t* local = ::_wgetenv(L"LOCALAPPDATA"); local != nullptr && *local != L'\0')
        return narrow(local) + "\\IOLab";
    return homeDirectory() + "\\AppData\\Local\\IOLab";
}

bool canDropCaches()
{
    return false; // see WindowsWorkspace::dropCaches
}

bool stderrIsTerminal()
{
    DWORD mode = 0;
    return ::GetConsoleMode(::GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

std::vector<std::string> consoleArguments(int argc, char** argv)
{
    // The C runtime's argv is in the ANSI code page, which cannot hold every path; the UTF-16 command line
    // can. Console output is switched to UTF-8, which is what every message here is.
    ::SetConsoleOutputCP(CP_UTF8);
    int count = 0;
    wchar_t** wide = ::CommandLineToArgvW(::GetCommandLineW(), &count);
    std::vector<std::string> arguments;
    if (wide == nullptr || count != argc) {
        for (int i = 0; i < argc; ++i)
            arguments.emplace_back(argv[i]);
    } else {
        for (int i = 0; i < count; ++i)
            arguments.push_back(narrow(wide[i]));
    }
    if (wide != nullptr)
        ::LocalFree(wide);
    return arguments;
}

void attachParentConsole()
{
    // Output that is already redirected (to a file or a pipe) stays where it goes.
    if (::GetStdHandle(STD_ERROR_HANDLE) != nullptr || !::AttachConsole(ATTACH_PARENT_PROCESS))
        return;
    ::SetConsoleOutputCP(CP_UTF8);
    FILE* ignored = nullptr;
    ::freopen_s(&ignored, "CONOUT$", "w", stdout);
    ::freopen_s(&ignored, "CONOUT$", "w", stderr);
}

std::string outputPathProblem(const std::string& path)
{
    if (path.empty())
        return "the output path is empty";
    if (isFolder(path))
        return fmt::format("output '{}' is a folder; give a file name", path);
    const auto slash = path.find_last_of("/\\");
    std::string parent = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
    if (parent.size() == 2 && parent[1] == ':')
        parent += "\\"; // "C:" alone means the current folder on C:
    const DWORD attributes = ::GetFileAttributesW(widen(parent).c_str());
    if (attributes == INVALID_FILE_ATTRIBUTES)
        return fmt::format("output '{}': folder '{}' does not exist", path, parent);
    if ((attributes & FILE_ATTRIBUTE_DIRECTORY) == 0)
        return fmt::format("output '{}': '{}' is not a folder", path, parent);
    win::UniqueHandle handle(::CreateFileW(widen(parent).c_str(), FILE_ADD_FILE,
                                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr));
    if (!handle)
        return fmt::format("output '{}': folder '{}' is not writable: {}", path, parent,
                           win::errorText(::GetLastError()));
    return {};
}

Outcome writeFileAtomically(const std::string& path, std::string_view content)
{
    const std::string temporary = fmt::format("{}.tmp-{}", path, ::GetCurrentProcessId());
    const std::wstring wideTemporary = widen(temporary);
    win::UniqueHandle file(::CreateFileW(wideTemporary.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                                         FILE_ATTRIBUTE_NORMAL, nullptr));
    if (!file)
        return win::errorOutcome(::GetLastError(), "CreateFile", path); // the user's path, not ours
    auto fail = [&](const char* call) {
        const DWORD error = ::GetLastError();
        file.reset();
        ::DeleteFileW(wideTemporary.c_str());
        return win::errorOutcome(error, call, path);
    };
    if (!win::writeFully(file.get(), reinterpret_cast<const std::byte*>(content.data()), content.size()))
        return fail("WriteFile");
    if (::FlushFileBuffers(file.get()) == 0)
        return fail("FlushFileBuffers");
    if (const DWORD error = file.close(); error != 0) {
        ::SetLastError(error);
        return fail("CloseHandle");
    }
    if (::MoveFileExW(wideTemporary.c_str(), widen(path).c_str(),
                      MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) == 0)
        return fail("MoveFileEx");
    return Outcome::success();
}

} // namespace iolab
