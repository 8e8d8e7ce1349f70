// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>

namespace iolab {

// A mistake in what the user asked for (bad path, size, strategy, matrix file). Front ends print what() as
// one line and exit with the usage status; nothing has been written when it is thrown.
class InputError : public std::runtime_error
{
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

} // namespace iolab
