// SPDX-License-Identifier: MIT
#include "core/model/trace_calls.h"

#include <algorithm>
#include <string_view>

namespace iolab {

FileKind fileKindOf(const std::string& path)
{
    // Windows' device namespace, as a recorder makes a path absolute: \\.\CON, \\.\pipe\name, \\.\NUL.
    if (path.starts_with("\\\\.\\")) {
        const std::string device = path.substr(4);
        const auto is = [&](std::string_view name) {
            return device.size() >= name.size() &&
                   std::equal(name.begin(), name.end(), device.begin(),
                              [](char a, char b) { return a == (b >= 'a' && b <= 'z' ? b - 32 : b); });
        };
        if (is("PIPE\\"))
            return FileKind::Pipe;
        if (is("CON"))
            return FileKind::Terminal;
        return FileKind::Device;
    }
    if (path.starts_with("pipe:") || path.starts_with("socket:") || path.starts_with("anon_inode:"))
        return FileKind::Pipe;
    if (path == "/dev/tty" || path.starts_with("/dev/pts/") || path.starts_with("/dev/tty") ||
        path.starts_with("/dev/console"))
        return FileKind::Terminal;
    if (path.starts_with("/dev/") || path.starts_with("/proc/") || path.starts_with("/sys/"))
        return FileKind::Device;
    return FileKind::Regular;
}

} // namespace iolab
