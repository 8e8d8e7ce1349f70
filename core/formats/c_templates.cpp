// SPDX-License-Identifier: MIT
// The C programs' templates. Their C lives in resources/c_templates/ as .c files, compiled in at build time
// (core/embed_files.cmake): one per strategy family, the snippets the programs share in snippets/, and in
// parts/ the pieces of C that several templates repeat (a thread's start and end, main()'s start, the timed
// part), which a template takes with a line `#include "parts/NAME.c"`, replaced here by the part's text.
// This file declares what each template needs: the headers, the snippets in the order a program prints them,
// the case's #defines. Placeholders: @NAME@, filled by core/formats/c_program.cpp (the case's values are
// #defines it prints above the snippets; a template's @NAME@s are its strategy's calls).
#include "core/formats/c_templates.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

namespace iolab::embedded {
// resources/c_templates/, generated into the build by core/embed_files.cmake.
std::span<const EmbeddedFile> cTemplateFiles();
} // namespace iolab::embedded

namespace iolab::c_templates {

namespace {

// The text of resources/c_templates/<name>; a name that is not there is a mistake in the tables below.
std::string_view file(std::string_view name)
{
    for (const EmbeddedFile& f : embedded::cTemplateFiles()) {
        if (f.name == name)
            return f.text;
    }
    throw std::logic_error("no C template file resources/c_templates/" + std::string(name));
}

constexpr std::string_view kPartLine = "#include \"parts/";

// A template's text with each of its `#include "parts/NAME.c"` lines replaced by that part. The texts live as
// long as the program: templates() keeps views of them.
std::string_view body(std::string_view name)
{
    static std::deque<std::string> bodies; // filled once, by templates()'s static initialiser
    const std::string_view text = file(name);
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        end = end == std::string_view::npos ? text.size() : end + 1;
        const std::string_view line = text.substr(at, end - at);
        if (line.starts_with(kPartLine)) {
            const std::string_view part = line.substr(kPartLine.size());
            const std::size_t quote = part.find('"');
            if (quote == std::string_view::npos)
                throw std::logic_error("C template " + std::string(name) + ": a part's name is not closed");
            out += file("parts/" + std::string(part.substr(0, quote)));
        } else {
            out += line;
        }
        at = end;
    }
    return bodies.emplace_back(std::move(out));
}

} // namespace

std::span<const EmbeddedFile> files()
{
    return embedded::cTemplateFiles();
}

const std::vector<Snippet>& snippets()
{
    static const std::vector<Snippet> all{
        {"base", file("snippets/base.c")},
        {"windows-base", file("snippets/windows-base.c")},
        {"arguments", file("snippets/arguments.c")},
        {"pattern", file("snippets/pattern.c")},
        {"deadline", file("snippets/deadline.c")},
        {"threads", file("snippets/threads.c")},
        {"thread-share", file("snippets/thread-share.c")},
        {"thread-path", file("snippets/thread-path.c")},
        {"write-fully", file("snippets/write-fully.c")},
        {"pwrite-fully", file("snippets/pwrite-fully.c")},
        {"short-read", file("snippets/short-read.c")},
        {"read-fully", file("snippets/read-fully.c")},
        {"pread-fully", file("snippets/pread-fully.c")},
        {"remove-files", file("snippets/remove-files.c")},
        {"remove-nothing-null", file("snippets/remove-nothing-null.c")},
        {"remove-nothing", file("snippets/remove-nothing.c")},
        {"sync", file("snippets/sync.c")},
        {"reserve-space", file("snippets/reserve-space.c")},
        {"write-beforehand", file("snippets/write-beforehand.c")},
        {"open-output", file("snippets/open-output.c")},
        {"open-null", file("snippets/open-null.c")},
        {"durable-files", file("snippets/durable-files.c")},
        {"durable-null", file("snippets/durable-null.c")},
        {"report-write", file("snippets/report-write.c")},
        {"report-read", file("snippets/report-read.c")},
        {"data-file", file("snippets/data-file.c")},
        {"cache-cold", file("snippets/cache-cold.c")},
        {"cache-warm", file("snippets/cache-warm.c")},
        {"advise", file("snippets/advise.c")},
        {"open-input", file("snippets/open-input.c")},
        {"prepare-data", file("snippets/prepare-data.c")},
        {"chunk-order", file("snippets/chunk-order.c")},
        {"random-offsets", file("snippets/random-offsets.c")},
        {"stdio-buffer", file("snippets/stdio-buffer.c")},
        {"stdio-sync", file("snippets/stdio-sync.c")},
        {"stdio-open", file("snippets/stdio-open.c")},
        {"pin", file("snippets/pin.c")},
        {"pipe-reader", file("snippets/pipe-reader.c")},
    };
    return all;
}

// Snippet names beginning with '@' are chosen per case by the generator: "@outputs" (a new file per thread
// or the null device, and the case's preallocation) and "@cache" (cold or warm). Every snippet a template
// lists is used by it: the tests compile each program with -Wall -Werror, where an unused function fails.
const std::vector<CTemplate>& templates()
{
    using Names = std::vector<std::string_view>;
    const auto join = [](Names a, const Names& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    const Names posix{"stdio.h",  "stdlib.h",  "string.h", "errno.h",  "stdint.h",   "time.h",
                      "limits.h", "pthread.h", "fcntl.h",  "unistd.h", "sys/types.h"};
    // What every writer to files reads and uses; each adds its own.
    const Names writeDefines{"DEFAULT_PATH", "CHUNK_BYTES",     "TOTAL_BYTES",       "THREADS",
                             "SHARED_FILE",  "OPEN_SYNC_FLAGS", "TIME_LIMIT_SECONDS"};
    const Names syncDefines{"SYNC_EVERY", "SYNC_AT_END", "SYNC_CALL", "SYNC_NAME"};
    const Names writer{"base",        "arguments", "pattern", "deadline",    "threads",
                       "thread-path", "@outputs",  "sync",    "report-write"};
    const Names readDefines{"DEFAULT_PATH", "CHUNK_BYTES",  "TOTAL_BYTES",       "THREADS",
                            "SHARED_FILE",  "FADVISE_HINT", "TIME_LIMIT_SECONDS"};
    const Names reader{"base",         "arguments",    "pattern",     "deadline",     "threads",
                       "thread-share", "thread-path",  "write-fully", "remove-files", "data-file",
                       "@cache",       "prepare-data", "report-read"};
    const Names pipeDefines{"CHUNK_BYTES", "TOTAL_BYTES", "THREADS", "READER_CPU", "TIME_LIMIT_SECONDS"};
    const Names pipe{"base",         "pattern",        "deadline", "threads",
                     "thread-share", "remove-nothing", "pin",      "pipe-reader"};
    static const std::vector<CTemplate> all{
        // write, direct, write-random, direct-random (IOLab's FdWriteJob: one loop, three orders).
        {"fd-write", Os::Linux, posix,
         join(writer, {"thread-share", "write-fully", "pwrite-fully", "chunk-order"}),
         join(join(writeDefines, syncDefines), {"DIRECT_FLAG", "RANDOM", "REWRITE"}), "", body("fd-write.c")},
        // stdio, stdio-unlocked, stdio-unlocked-call: @FWRITE@ is the call, @CHUNK_VALUE@ the size it gets.
        {"stdio-write", Os::Linux, posix,
         join(writer, {"thread-share", "stdio-buffer", "stdio-sync", "stdio-open"}),
         join(join(writeDefines, syncDefines), {"STDIO_BUFFER", "STDIO_BUFFER_BYTES", "TIME_CHECK_CALLS"}),
         "", body("stdio-write.c")},
        // putc, putc-unlocked, fputc: @PUTC@ is the call.
        {"putc", Os::Linux, posix, join(writer, {"thread-share", "stdio-buffer", "stdio-sync", "stdio-open"}),
         join(join(writeDefines, syncDefines), {"STDIO_BUFFER", "STDIO_BUFFER_BYTES", "TIME_CHECK_CALLS"}),
         "", body("putc.c")},
        {"mmap-window", Os::Linux, join(posix, {"sys/mman.h"}), join(writer, {"thread-share"}),
         join(join(writeDefines, syncDefines), {"WINDOW_BYTES", "TIME_CHECK_CALLS"}), "",
         body("mmap-window.c")},
        {"mmap-batch-direct", Os::Linux, join(posix, {"sys/mman.h"}),
         join(writer, {"thread-share", "pwrite-fully"}),
         join(join(writeDefines, syncDefines), {"WINDOW_BYTES", "TIME_CHECK_CALLS"}), "",
         body("mmap-batch-direct.c")},
        {"group-commit", Os::Linux, join(posix, {"stdatomic.h"}), join(writer, {"pwrite-fully"}),
         join(writeDefines, syncDefines), "", body("group-commit.c")},
        {"pipe-write", Os::Linux, join(posix, {"sched.h"}), join(pipe, {"write-fully"}), pipeDefines, "",
         body("pipe-write.c")},
        {"vmsplice", Os::Linux, join(posix, {"sched.h", "sys/mman.h", "sys/uio.h"}), pipe, pipeDefines, "",
         body("vmsplice.c")},
        // pwritev2-dsync and sync-file-range: one call per chunk that is itself the durability being
        // measured.
        {"pwritev2-dsync",
         Os::Linux,
         join(posix, {"sys/uio.h"}),
         {"base", "arguments", "pattern", "deadline", "threads", "thread-share", "thread-path", "@outputs",
          "report-write"},
         join(writeDefines, {"REWRITE"}),
         "",
         body("pwritev2-dsync.c")},
        {"sync-file-range",
         Os::Linux,
         posix,
         {"base", "arguments", "pattern", "deadline", "threads", "thread-share", "thread-path",
          "pwrite-fully", "@outputs", "report-write"},
         join(writeDefines, {"REWRITE"}),
         "",
         body("sync-file-range.c")},
        {"uring-linked-sync", Os::Linux, join(posix, {"liburing.h"}), join(writer, {"thread-share"}),
         join(join(writeDefines, syncDefines), {"SYNC_DATA_ONLY", "REWRITE"}), "-luring",
         body("uring-linked-sync.c")},
        // read, read-direct, read-random, read-random-direct (IOLab's FdReadJob: one loop, two orders).
        {"fd-read", Os::Linux, posix,
         join(reader, {"short-read", "read-fully", "pread-fully", "advise", "open-input", "random-offsets"}),
         join(readDefines, {"DIRECT_FLAG", "RANDOM"}), "", body("fd-read.c")},
        // fread, fread-unlocked: @FREAD@ is the call.
        {"fread", Os::Linux, posix, join(reader, {"short-read", "advise", "open-input", "stdio-buffer"}),
         join(readDefines, {"STDIO_BUFFER", "STDIO_BUFFER_BYTES", "TIME_CHECK_CALLS"}), "", body("fread.c")},
        {"mmap-read",
         Os::Linux,
         join(posix, {"sys/mman.h"}),
         reader,
         {"DEFAULT_PATH", "CHUNK_BYTES", "TOTAL_BYTES", "THREADS", "SHARED_FILE", "MADVISE_HINT",
          "TIME_LIMIT_SECONDS", "TIME_CHECK_CALLS"},
         "",
         body("mmap-read.c")},
        // files-serial, files-pool, files-per-thread: FILE_PARALLELISM says which.
        {"files",
         Os::Linux,
         join(posix, {"stdatomic.h", "sys/stat.h", "math.h"}),
         {"base", "arguments", "pattern", "write-fully", "short-read", "data-file", "@cache", "advise"},
         {"DEFAULT_PATH", "CHUNK_BYTES", "THREADS", "FADVISE_HINT", "FILES", "FILE_MIN_BYTES",
          "FILE_MAX_BYTES", "FILE_SHAPE", "FILE_PARALLELISM"},
         "",
         body("files.c")},
        // uring-write, uring-write-direct, uring-random-write, uring-random-write-direct.
        {"uring-write", Os::Linux, join(posix, {"liburing.h"}), join(writer, {"thread-share", "chunk-order"}),
         join(join(writeDefines, syncDefines),
              {"DIRECT_FLAG", "RANDOM", "QUEUE_DEPTH", "RING_ENTRIES", "SYNC_DATA_ONLY"}),
         "-luring", body("uring-write.c")},
        // uring-read, uring-read-direct, uring-random-read, uring-random-read-direct.
        {"uring-read", Os::Linux, join(posix, {"liburing.h"}),
         join(reader, {"short-read", "advise", "open-input", "random-offsets"}),
         join(readDefines, {"DIRECT_FLAG", "RANDOM", "QUEUE_DEPTH", "RING_ENTRIES"}), "-luring",
         body("uring-read.c")},
        // overlapped-write, overlapped-read and their random and -direct forms: a Windows program.
        {"overlapped",
         Os::Windows,
         {"windows.h", "stdio.h", "stdlib.h", "string.h", "stdint.h"},
         {"windows-base", "arguments", "pattern", "deadline", "thread-share", "thread-path", "chunk-order",
          "random-offsets"},
         {"DEFAULT_PATH", "CHUNK_BYTES", "TOTAL_BYTES", "THREADS", "SHARED_FILE", "WRITE", "RANDOM",
          "QUEUE_DEPTH", "NO_BUFFERING", "WRITE_THROUGH", "SYNC_EVERY", "SYNC_AT_END", "ACCESS_HINT",
          "CACHE_COLD", "TIME_LIMIT_SECONDS"},
         "",
         body("overlapped.c")},
    };
    return all;
}

const CTemplate* findTemplate(std::string_view name)
{
    const auto& all = templates();
    const auto it =
        std::find_if(all.begin(), all.end(), [name](const CTemplate& t) { return t.name == name; });
    return it == all.end() ? nullptr : &*it;
}

} // namespace iolab::c_templates
