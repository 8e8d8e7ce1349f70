// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <string>

namespace iolab::report {

// The core's text is UTF-8 std::string; Qt's is QString.
inline QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace iolab::report
