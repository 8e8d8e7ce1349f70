// SPDX-License-Identifier: MIT
#pragma once

#include <span>
#include <string_view>

namespace iolab {

// A text file compiled into the program (core/embed_files.cmake): its path under the folder it was embedded
// from ("quick.json", "snippets/base.c") and its bytes.
struct EmbeddedFile
{
    std::string_view name;
    std::string_view text;
};

} // namespace iolab
