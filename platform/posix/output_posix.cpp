// SPDX-License-Identifier: MIT
#include "platform/platform.h"
#include "platform/posix/posix_io.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace iolab {

namespace {

std::string parentOf(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos)
        return ".";
    if (slash == 0)
        return "/";
    return path.substr(0, slash);
}

} // namespace

std::string outputPathProblem(const std::string& path)
{
    if (path.empty())
        return "the output path is empty";
    struct stat st
    {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return fmt::format("output '{}' is a folder; give a file name", path);
        if (!S_ISREG(st.st_mode))
            return fmt::format(
                "output '{}' is not a regular file (a device, pipe or socket); give a file name", path);
    }
    const std::string parent = parentOf(path);
    if (::stat(parent.c_str(), &st) != 0) {
        if (errno == ENOTDIR)
            return fmt::format("output '{}': a file stands in its path, so '{}' is not a folder", path,
                               parent);
        return fmt::format("output '{}': folder '{}' does not exist", path, parent);
    }
    if (!S_ISDIR(st.st_mode))
        return fmt::format("output '{}': '{}' is not a folder", path, parent);
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
        return fmt::format("output '{}': folder '{}' is not writable: {}", path, parent,
                           std::strerror(errno));
    // Permissions do not tell everything (root passes access() on /proc and on read-only mounts' folders):
    // create and remove a file where the output's temporary file will go.
    const std::string probe = fmt::format("{}.iolab-check-{}", path, ::getpid());
    posix::UniqueFd fd(::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!fd)
        return fmt::format("output '{}': no file can be created in folder '{}': {}", path, parent,
                           std::strerror(errno));
    fd.reset();
    ::unlink(probe.c_str());
    return {};
}

Outcome writeFileAtomically(const std::string& path, std::string_view content)
{
    const std::string temporary = fmt::format("{}.tmp-{}", path, ::getpid());
    posix::UniqueFd fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (!fd)
        return posix::errnoOutcome(errno, "open", path); // the user's path: the temporary name is ours
    auto fail = [&](const char* call) {
        const int error = errno;
        fd.reset();
        ::unlink(temporary.c_str());
        return posix::errnoOutcome(error, call, path);
    };
    if (!posix::writeFully(fd.get(), reinterpret_cast<const std::byte*>(content.data()), content.size()))
        return fail("write");
    if (::fsync(fd.get()) != 0)
        return fail("fsync");
    if (const int error = fd.close(); error != 0) {
        errno = error;
        return fail("close");
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0)
        return fail("rename");
    return Outcome::success();
}

} // namespace iolab
