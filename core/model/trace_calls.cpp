// SPDX-License-Identifier: MIT
#include "core/model/trace_calls.h"

namespace iolab {

FileKind fileKindOf(const std::string& path)
{
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
