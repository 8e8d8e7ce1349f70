// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace iolab {

// English lists for the verdicts' sentences: "a", "a and b", "a, b and c"; empty for none.
std::string joinWords(const std::vector<std::string>& parts);

// "an NVMe SSD", "an SD card", "a USB drive", "a hard disk": the article as the noun is said aloud (a
// capital letter stands for an initialism, so "USB" takes "a").
std::string withArticle(const std::string& noun);

} // namespace iolab
