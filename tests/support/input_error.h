// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/error.h"

#include <functional>
#include <string>

namespace iolab::test {

// The message of the InputError `f` throws, or "no error".
inline std::string inputError(const std::function<void()>& f)
{
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace iolab::test
