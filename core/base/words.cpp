// SPDX-License-Identifier: MIT
#include "core/base/words.h"

#include <string_view>

namespace iolab {

std::string joinWords(const std::vector<std::string>& parts)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += i + 1 == parts.size() ? " and " : ", ";
        out += parts[i];
    }
    return out;
}

std::string withArticle(const std::string& noun)
{
    const bool vowelSound =
        noun.starts_with("NVMe") || noun.starts_with("SD") ||
        (!noun.empty() && std::string_view("aeiou").find(noun.front()) != std::string_view::npos);
    return (vowelSound ? "an " : "a ") + noun;
}

} // namespace iolab
