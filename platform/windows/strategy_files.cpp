// SPDX-License-Identifier: MIT
// files-serial, files-pool, files-per-thread on Windows: each file opened with CreateFile (the hint's flag),
// ReadFile of the chunk size to the end, CloseHandle.
#include "platform/files_strategy.h"
#include "platform/windows/read_jobs.h"
#include "platform/windows/strategies.h"

namespace iolab::windows_backend {

namespace {

std::unique_ptr<Strategy> makeFiles(Parallelism parallelism)
{
    return std::make_unique<FilesStrategy<FileReader>>(parallelism, win::windowsReadHints(),
                                                       win::windowsHintRefusal());
}

} // namespace

std::unique_ptr<Strategy> makeFilesSerialStrategy()
{
    return makeFiles(Parallelism::Single);
}

std::unique_ptr<Strategy> makeFilesPoolStrategy()
{
    return makeFiles(Parallelism::Threads);
}

std::unique_ptr<Strategy> makeFilesPerThreadStrategy()
{
    return makeFiles(Parallelism::PerFile);
}

} // namespace iolab::windows_backend
