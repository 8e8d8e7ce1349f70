// SPDX-License-Identifier: MIT
// The run folder on POSIX systems: <target>/iolab-run-<time>-<pid>/ with a marker file; the files a run
// writes, and nothing else, are removed after each repetition, at the end and by `iolab-cli clean`.
#include "core/error.h"
#include "core/log.h"
#include "core/pattern.h"
#include "core/stream_check.h"
#include "platform/platform.h"
#include "platform/posix/posix_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <vector>

namespace iolab {

namespace {

using runfolder::isRunFileName;

class PosixWorkspace final : public Workspace
{
public:
    explicit PosixWorkspace(TargetInfo target) : m_target(std::move(target)) {}
    ~PosixWorkspace() override { close(); }
    PosixWorkspace(const PosixWorkspace&) = delete;
    PosixWorkspace& operator=(const PosixWorkspace&) = delete;

    const TargetInfo& target() const override { return m_target; }

    std::string pathFor(const std::string& name, Outcome& outcome) override
    {
        if (m_folder.empty() && !createFolder(outcome))
            return {};
        std::string path = m_folder + "/" + name;
        m_files.insert(path);
        return path;
    }

    std::uint64_t freeBytes() override
    {
        struct statvfs vfs
        {};
        if (::statvfs(m_target.path.c_str(), &vfs) != 0)
            return 0;
        return static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    }

    Outcome makeDurable(const std::string& path) override
    {
        posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd)
            return posix::errnoOutcome(errno, "open", path);
        if (::fsync(fd.get()) != 0)
            return posix::errnoOutcome(errno, "fsync", path);
        return Outcome::success();
    }

    Outcome verify(const std::string& path, std::uint64_t expectedBytes, const Pattern& pattern) override
    {
        posix::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
        if (!fd)
            return posix::errnoOutcome(errno, "open (verify)", path);
        struct stat st
        {};
        if (::fstat(fd.get(), &st) != 0)
            return posix::errnoOutcome(errno, "fstat (verify)", path);
        if (static_cast<std::uint64_t>(st.st_size) != expectedBytes)
            return {Status::Failed, 0, "verify",
                    fmt::format("{} holds {} bytes, expected {}", path, st.st_size, expectedBytes)};
        std::vector<std::byte> buffer(1 << 20);
        StreamCheck check(pattern, path);
        while (check.received() < expectedBytes) {
            const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return posix::errnoOutcome(errno, "read (verify)", path);
            }
            if (n == 0)
                break;
            check.add(buffer.data(), static_cast<std::size_t>(n));
        }
        return check.outcome(expectedBytes, "verify");
    }

    void remove(const std::string& path) override
    {
        if (::unlink(path.c_str()) != 0 && errno != ENOENT)
            logger(LogModule::Platform).warn("could not remove {}: {}", path, std::strerror(errno));
        m_files.erase(path);
    }

    void close() override
    {
        if (m_folder.empty())
            return;
        for (const auto& path : std::set<std::string>(m_files))
            remove(path);
        ::unlink((m_folder + "/" + std::string(runfolder::kMarkerName)).c_str());
        if (::rmdir(m_folder.c_str()) != 0)
            logger(LogModule::Platform)
                .warn("could not remove run folder {}: {}", m_folder, std::strerror(errno));
        m_folder.clear();
    }

    std::string folder() const override { return m_folder; }

private:
    bool createFolder(Outcome& outcome)
    {
        const auto stamp = fmt::format("{:%Y%m%d-%H%M%S}", fmt::localtime(std::time(nullptr)));
        const std::string folder =
            fmt::format("{}/{}", m_target.path, runfolder::folderName(stamp, ::getpid()));
        if (::mkdir(folder.c_str(), 0755) != 0) {
            outcome = posix::errnoOutcome(errno, "mkdir", folder);
            return false;
        }
        const std::string marker = folder + "/" + std::string(runfolder::kMarkerName);
        posix::UniqueFd fd(
            ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
        const std::string text = runfolder::markerText(::getpid());
        if (!fd ||
            !posix::writeFully(fd.get(), reinterpret_cast<const std::byte*>(text.data()), text.size())) {
            outcome = posix::errnoOutcome(errno, "create marker", marker);
            fd.reset();
            ::unlink(marker.c_str());
            ::rmdir(folder.c_str());
            return false;
        }
        m_folder = folder;
        logger(LogModule::Platform).info("run folder {}", m_folder);
        return true;
    }

    TargetInfo m_target;
    std::string m_folder;
    std::set<std::string> m_files;
};

long markerPid(const std::string& marker)
{
    std::ifstream in(marker);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return runfolder::markerPid(text);
}

bool processAlive(long pid)
{
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

} // namespace

std::unique_ptr<Workspace> makeWorkspace(const TargetInfo& target)
{
    return std::make_unique<PosixWorkspace>(target);
}

CleanReport cleanStaleRuns(const std::string& target, CleanMode mode)
{
    struct stat st
    {};
    if (::stat(target.c_str(), &st) != 0)
        throw InputError(fmt::format("target '{}' does not exist", target));
    if (!S_ISDIR(st.st_mode))
        throw InputError(fmt::format("target '{}' is not a folder", target));
    DIR* dir = ::opendir(target.c_str());
    if (dir == nullptr)
        throw InputError(fmt::format("target '{}' cannot be read: {}", target, std::strerror(errno)));
    std::vector<std::string> candidates;
    while (const dirent* entry = ::readdir(dir)) {
        if (std::string_view(entry->d_name).starts_with(runfolder::kPrefix))
            candidates.emplace_back(entry->d_name);
    }
    ::closedir(dir);

    CleanReport report;
    for (const auto& name : candidates) {
        const std::string folder = fmt::format("{}/{}", target, name);
        struct stat fst
        {};
        if (::lstat(folder.c_str(), &fst) != 0 || !S_ISDIR(fst.st_mode))
            continue;
        const std::string marker = folder + "/" + std::string(runfolder::kMarkerName);
        struct stat mst
        {};
        if (::lstat(marker.c_str(), &mst) != 0 || !S_ISREG(mst.st_mode)) {
            report.kept.emplace_back(folder, "no IOLab marker inside: not ours");
            continue;
        }
        const long pid = markerPid(marker);
        if (pid == ::getpid() || processAlive(pid)) {
            report.kept.emplace_back(folder, fmt::format("in use by running process {}", pid));
            continue;
        }
        std::vector<std::string> ours;
        std::string foreign;
        std::uint64_t folderBytes = 0;
        if (DIR* inner = ::opendir(folder.c_str())) {
            while (const dirent* entry = ::readdir(inner)) {
                const std::string_view n = entry->d_name;
                if (n == "." || n == ".." || n == runfolder::kMarkerName)
                    continue;
                struct stat est
                {};
                const std::string path = folder + "/" + std::string(n);
                if (isRunFileName(n) && ::lstat(path.c_str(), &est) == 0 && S_ISREG(est.st_mode)) {
                    ours.push_back(path);
                    folderBytes += static_cast<std::uint64_t>(est.st_blocks) * 512U;
                } else
                    foreign = std::string(n);
            }
            ::closedir(inner);
        }
        if (!foreign.empty()) {
            report.kept.emplace_back(
                folder, fmt::format("holds '{}', which IOLab did not write: left alone", foreign));
            continue;
        }
        if (mode == CleanMode::ListOnly) {
            report.removed.push_back(folder);
            report.removedBytes += folderBytes;
            continue;
        }
        for (const auto& path : ours)
            ::unlink(path.c_str());
        ::unlink(marker.c_str());
        if (::rmdir(folder.c_str()) == 0) {
            report.removed.push_back(folder);
            report.removedBytes += folderBytes;
        } else
            report.kept.emplace_back(folder, fmt::format("could not be removed: {}", std::strerror(errno)));
    }
    return report;
}

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

bool stderrIsTerminal()
{
    return ::isatty(STDERR_FILENO) == 1;
}

std::vector<std::string> consoleArguments(int argc, char** argv)
{
    return std::vector<std::string>(argv, argv + argc);
}

} // namespace iolab
