// SPDX-License-Identifier: MIT
#pragma once

#include <cstdlib>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#ifdef _WIN32
#include <process.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace iolab::test {

// This OS's path separator, for building the paths the platform layer hands back.
inline constexpr char kSeparator = static_cast<char>(std::filesystem::path::preferred_separator);

// A fresh folder under the temp folder ($TMPDIR or /tmp; %TEMP% on Windows), removed with everything in it
// at the end of the test.
class TempDir
{
public:
    TempDir()
    {
#ifdef _WIN32
        // IOLAB_TEST_TMPDIR first: under wine the Windows tests keep their folders on the Z: drive (the Linux
        // root), where the Linux tools they run (runHostTool) find them; wine sets %TEMP% itself, to C:.
        const char* chosen = std::getenv("IOLAB_TEST_TMPDIR");
        const std::string base = std::filesystem::path(chosen != nullptr && *chosen != '\0'
                                                           ? std::filesystem::path(chosen)
                                                           : std::filesystem::temp_directory_path())
                                     .make_preferred()
                                     .string();
        std::random_device random;
        for (int attempt = 0; attempt < 100 && m_path.empty(); ++attempt) {
            std::string candidate = base;
            if (candidate.back() != kSeparator)
                candidate += kSeparator;
            candidate += "iolab-test-" + std::to_string(random());
            if (std::filesystem::create_directory(candidate))
                m_path = candidate;
        }
        if (m_path.empty())
            throw std::runtime_error("could not create a temporary folder");
#else
        const char* base = std::getenv("TMPDIR");
        std::string pattern =
            std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/iolab-test-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_path = pattern;
#endif
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const
    {
        return m_path;
    }
    std::string operator/(const std::string& name) const
    {
        return m_path + kSeparator + name;
    }

    // Entries directly inside, for "nothing left behind" checks.
    std::size_t entryCount() const
    {
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(m_path))
            ++n;
        return n;
    }

private:
    std::string m_path;
};

// A path the tests hold as UTF-8 (as IOLab does) for std::filesystem: on Windows a plain std::string is read
// in the ANSI code page, and "données-データ" would be made under another name.
inline std::filesystem::path fsPath(const std::string& utf8)
{
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

inline bool runningAsRoot()
{
#ifdef _WIN32
    return false;
#else
    return ::geteuid() == 0;
#endif
}

// POSIX file modes, for the refusals that rest on them (a folder made unwritable by chmod). Windows has ACLs
// instead, which wine does not enforce: there those tests say so and skip, and setMode does nothing.
inline std::string whyNoFileModes()
{
#ifdef _WIN32
    return "this rests on a POSIX file mode (a folder made unwritable by chmod); Windows has ACLs instead, "
           "which wine does not enforce";
#else
    return runningAsRoot() ? "root ignores file modes" : "";
#endif
}

inline void setMode(const std::string& path, unsigned mode)
{
#ifdef _WIN32
    (void)path;
    (void)mode;
#else
    ::chmod(path.c_str(), static_cast<mode_t>(mode));
#endif
}

// A new folder with this mode (see whyNoFileModes); a folder that is already there keeps its own.
inline void makeFolderWithMode(const std::string& path, unsigned mode)
{
    if (std::filesystem::create_directory(path))
        setMode(path, mode);
}

// The environment entry that puts IOLab's log under `folder` (as `folder`/iolab/iolab.log; Windows' folders
// ignore case): XDG_STATE_HOME on Linux, LOCALAPPDATA on Windows.
inline std::string stateHome(const std::string& folder)
{
#ifdef _WIN32
    return "LOCALAPPDATA=" + folder;
#else
    return "XDG_STATE_HOME=" + folder;
#endif
}

inline long thisProcessId()
{
#ifdef _WIN32
    return static_cast<long>(::_getpid());
#else
    return static_cast<long>(::getpid());
#endif
}

} // namespace iolab::test
