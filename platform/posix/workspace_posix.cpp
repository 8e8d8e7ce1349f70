// SPDX-License-Identifier: MIT
// The workspace's calls on POSIX systems: what touches a file's data (durability, the page cache, free
// space) and the folder and whole-file primitives under the run folder's bookkeeping, verification and data
// sets (platform/run_folder_workspace.h) and `iolab-cli clean` (platform/common/run_folders.cpp).
#include "core/base/error.h"
#include "platform/os_primitives.h"
#include "platform/platform.h"
#include "platform/posix/posix_io.h"
#include "platform/run_folder_workspace.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

namespace iolab {

namespace {

// What touches a file's data; the run folder's bookkeeping is RunFolderWorkspace's.
class PosixWorkspace final : public RunFolderWorkspace
{
public:
    using RunFolderWorkspace::RunFolderWorkspace;

    std::uint64_t freeBytes() override { return freeSpaceAt(target().path); }

    Outcome makeDurable(const std::string& path) override
    {
        posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd)
            return posix::errnoOutcome(errno, "open", path);
        if (::fsync(fd.get()) != 0)
            return posix::errnoOutcome(errno, "fsync", path);
        return Outcome::success();
    }

    Outcome settle() override
    {
        posix::UniqueFd fd(::open(target().path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!fd)
            return posix::errnoOutcome(errno, "open", target().path);
        if (::syncfs(fd.get()) != 0)
            return posix::errnoOutcome(errno, "syncfs", target().path);
        return Outcome::success();
    }

    Outcome evict(const std::string& path) override
    {
        posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd)
            return posix::errnoOutcome(errno, "open (evict)", path);
        // Dirty pages cannot be dropped: write them back first.
        if (::fdatasync(fd.get()) != 0)
            return posix::errnoOutcome(errno, "fdatasync (evict)", path);
        if (const int error = ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED); error != 0)
            return posix::errnoOutcome(error, "posix_fadvise(DONTNEED)", path);
        return Outcome::success();
    }

    Outcome dropCaches() override
    {
        ::sync();
        posix::UniqueFd fd(::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC));
        if (!fd) {
            Outcome o = posix::errnoOutcome(errno, "open", "/proc/sys/vm/drop_caches");
            if (errno == EACCES || errno == EPERM)
                o.message += "; dropping the page cache needs root";
            return o;
        }
        const char three[] = "3\n";
        if (!posix::writeFully(fd.get(), reinterpret_cast<const std::byte*>(three), 2))
            return posix::errnoOutcome(errno, "write", "/proc/sys/vm/drop_caches");
        return Outcome::success();
    }

    std::optional<std::uint64_t> cachedBytes(const std::string& path) override
    {
        posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        struct stat st
        {};
        if (!fd || ::fstat(fd.get(), &st) != 0)
            return std::nullopt;
        if (st.st_size == 0)
            return 0;
        const auto size = static_cast<std::size_t>(st.st_size);
        void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd.get(), 0);
        if (map == MAP_FAILED)
            return std::nullopt;
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        std::vector<unsigned char> resident((size + page - 1) / page);
        const bool ok = ::mincore(map, size, resident.data()) == 0;
        ::munmap(map, size);
        if (!ok)
            return std::nullopt;
        std::uint64_t bytes = 0;
        for (std::size_t i = 0; i < resident.size(); ++i) {
            if ((resident[i] & 1U) != 0)
                bytes += std::min(page, size - i * page);
        }
        return bytes;
    }

    std::string evictionMethod(bool dropCaches) const override
    {
        return dropCaches
                   ? "cold: sync, then echo 3 > /proc/sys/vm/drop_caches (as root) before each repetition"
                   : "cold: fdatasync + posix_fadvise(DONTNEED) on every file before each repetition";
    }
};

} // namespace

std::unique_ptr<Workspace> makeWorkspace(const TargetInfo& target)
{
    return std::make_unique<PosixWorkspace>(target);
}

// The primitives under platform/common/run_folders.cpp and platform/common/run_folder_workspace.cpp.
namespace os {

std::vector<FolderEntry> listFolder(const std::string& folder, std::string_view prefix, std::string& error)
{
    std::vector<FolderEntry> entries;
    DIR* dir = ::opendir(folder.c_str());
    if (dir == nullptr) {
        error = std::strerror(errno);
        return entries;
    }
    while (const dirent* entry = ::readdir(dir)) {
        const std::string_view name = entry->d_name;
        if (name == "." || name == ".." || !name.starts_with(prefix))
            continue;
        struct stat st
        {};
        if (::lstat(joinPath(folder, name).c_str(), &st) != 0)
            continue;
        const EntryKind kind = S_ISREG(st.st_mode)   ? EntryKind::File
                               : S_ISDIR(st.st_mode) ? EntryKind::Folder
                                                     : EntryKind::Other;
        entries.push_back({std::string(name), kind, static_cast<std::uint64_t>(st.st_blocks) * 512U});
    }
    ::closedir(dir);
    return entries;
}

EntryKind kindOf(const std::string& path, bool followLinks)
{
    struct stat st
    {};
    if ((followLinks ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0)
        return EntryKind::Missing;
    if (S_ISREG(st.st_mode))
        return EntryKind::File;
    return S_ISDIR(st.st_mode) ? EntryKind::Folder : EntryKind::Other;
}

std::string joinPath(const std::string& folder, std::string_view name)
{
    return fmt::format("{}/{}", folder, name);
}

std::string nestedEntryName(const std::string& path)
{
    return path.substr(path.find(runfolder::kPrefix));
}

std::string readSmallFile(const std::string& path)
{
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

long currentPid()
{
    return ::getpid();
}

bool processAlive(long pid)
{
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

namespace {

Removal removal(int result)
{
    if (result == 0)
        return {};
    const int error = errno;
    return {std::strerror(error), error == ENOENT};
}

} // namespace

Removal removeFile(const std::string& path)
{
    return removal(::unlink(path.c_str()));
}

Removal removeFolder(const std::string& path)
{
    return removal(::rmdir(path.c_str()));
}

struct WholeFile::Native
{
    posix::UniqueFd fd;
    int error = 0;
    const char* call = "";

    bool fail(const char* failedCall, int failedError = errno)
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
    m_native->fd.reset(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    return m_native->fd || m_native->fail("open");
}

bool WholeFile::size(std::uint64_t& bytes)
{
    struct stat st
    {};
    if (::fstat(m_native->fd.get(), &st) != 0)
        return m_native->fail("fstat");
    bytes = static_cast<std::uint64_t>(st.st_size);
    return true;
}

std::int64_t WholeFile::read(std::byte* data, std::size_t size)
{
    for (;;) {
        const ssize_t n = ::read(m_native->fd.get(), data, size);
        if (n >= 0)
            return n;
        if (errno != EINTR) {
            m_native->fail("read");
            return -1;
        }
    }
}

bool WholeFile::create(const std::string& path, Outcome& error)
{
    m_native->fd = posix::createScratch(path, O_WRONLY, error);
    return static_cast<bool>(m_native->fd);
}

bool WholeFile::writeFully(const std::byte* data, std::uint64_t size)
{
    return posix::writeFully(m_native->fd.get(), data, size) || m_native->fail("write");
}

bool WholeFile::close()
{
    const int error = m_native->fd.close();
    return error == 0 || m_native->fail("close", error);
}

Outcome WholeFile::failure(std::string_view purpose, const std::string& path) const
{
    return posix::errnoOutcome(m_native->error, fmt::format("{} ({})", m_native->call, purpose), path);
}

Outcome makeFolder(const std::string& path)
{
    if (::mkdir(path.c_str(), 0755) != 0)
        return posix::errnoOutcome(errno, "mkdir", path);
    return Outcome::success();
}

Outcome createMarker(const std::string& path, std::string_view text)
{
    posix::UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!fd || !posix::writeFully(fd.get(), reinterpret_cast<const std::byte*>(text.data()), text.size()))
        return posix::errnoOutcome(errno, "create marker", path);
    return Outcome::success();
}

} // namespace os

std::string homeDirectory()
{
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
        return home;
    return "/tmp";
}

std::string defaultLogDirectory()
{
    if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state == '/')
        return std::string(state) + "/iolab";
    return homeDirectory() + "/.local/state/iolab";
}

bool canDropCaches()
{
    return ::geteuid() == 0 && ::access("/proc/sys/vm/drop_caches", W_OK) == 0;
}

bool stderrIsTerminal()
{
    return ::isatty(STDERR_FILENO) == 1;
}

std::vector<std::string> consoleArguments(int argc, char** argv)
{
    return std::vector<std::string>(argv, argv + argc);
}

void attachParentConsole() {}

} // namespace iolab
