// SPDX-License-Identifier: MIT
#include "core/engine/workspace.h"

#include <fmt/format.h>

#include <charconv>

namespace iolab::runfolder {

std::string folderName(std::string_view stamp, long pid)
{
    return fmt::format("{}{}-{}", kPrefix, stamp, pid);
}

namespace {

bool digitsOnly(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

} // namespace

bool isRunFileName(std::string_view name)
{
    if (name.size() > 5 && name.front() == 'f' && name.ends_with(".dat"))
        return digitsOnly(name.substr(1, name.size() - 5));
    if (name.empty() || name.front() != 'c')
        return false;
    // .link: the block a case child shares with the runner (core/engine/case_child.h).
    return name.ends_with(".dat") || name.ends_with(".batch") || name.ends_with(".link");
}

bool isRunDirectoryName(std::string_view name)
{
    if (name.starts_with("set-"))
        return digitsOnly(name.substr(4));
    return name.size() > 1 && name.front() == 'd' && digitsOnly(name.substr(1));
}

std::string markerText(long pid)
{
    return fmt::format("IOLab run folder: IOLab removes it when the run ends; "
                       "`iolab-cli clean` removes it if IOLab was killed.\npid={}\n",
                       pid);
}

long markerPid(std::string_view text)
{
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (line.starts_with("pid=")) {
            long pid = 0;
            const auto digits = line.substr(4);
            if (std::from_chars(digits.data(), digits.data() + digits.size(), pid).ec == std::errc())
                return pid;
            return 0;
        }
        at = end + 1;
    }
    return 0;
}

} // namespace iolab::runfolder
