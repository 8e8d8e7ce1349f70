// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <string>

namespace iolab::test {

// A path or text from the engine as the Qt side takes it.
inline QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace iolab::test
