// SPDX-License-Identifier: MIT
#pragma once

#include "core/base/embedded_file.h"

#include <span>
#include <string_view>
#include <vector>

// The templates of the standalone C programs (core/formats/c_program.h): one per strategy, or per family of
// strategies whose loop is the same but for a few parameters (write and direct: O_DIRECT or not). A template
// is C as it will be printed, a .c file of resources/c_templates/ compiled in, with @NAME@ placeholders that
// the generator fills from the case; it lists the headers it includes (written out by the generator: core/
// must not name an OS header, even in a string), the shared snippets it uses (fail(), the pattern, the thread
// split...) and the case's #defines it reads.
namespace iolab::c_templates {

enum class Os
{
    Linux,  // C11 + POSIX (+ Linux calls under _GNU_SOURCE, + liburing for the io_uring ones)
    Windows // C11 + windows.h
};

// A shared piece of C: helper functions several templates use, printed once, in the order snippets() has.
struct Snippet
{
    std::string_view name;
    std::string_view code;
};

struct CTemplate
{
    std::string_view name; // "fd-write"
    Os os = Os::Linux;
    std::vector<std::string_view> headers; // "stdio.h", "liburing.h", ...
    std::vector<std::string_view> snippets;
    std::vector<std::string_view> defines; // the case's #defines it reads, in the order they are printed
    std::string_view libraries;            // after the source on the build line: "-luring", ""
    std::string_view body;                 // the strategy's loop and main()
};

// Every file of resources/c_templates/ as compiled in: templates, snippets/ and parts/.
std::span<const EmbeddedFile> files();

const std::vector<Snippet>& snippets();
const std::vector<CTemplate>& templates();
const CTemplate* findTemplate(std::string_view name);

} // namespace iolab::c_templates
