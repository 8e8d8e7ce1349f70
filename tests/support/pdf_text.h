// SPDX-License-Identifier: MIT
// Reading back what a PDF says (pdftotext) in the report tests.
#pragma once

#include <string>
#include <utility>

namespace iolab::test {

// The fonts' ligatures come back from pdftotext as single characters: "fi" and "ff" as one.
inline std::string withoutLigatures(std::string out)
{
    for (const auto& [ligature, letters] :
         {std::pair{"\xEF\xAC\x81", "fi"}, std::pair{"\xEF\xAC\x80", "ff"}, std::pair{"\xEF\xAC\x82", "fl"},
          std::pair{"\xEF\xAC\x83", "ffi"}}) {
        for (auto at = out.find(ligature); at != std::string::npos; at = out.find(ligature, at))
            out.replace(at, 3, letters);
    }
    return out;
}

} // namespace iolab::test
