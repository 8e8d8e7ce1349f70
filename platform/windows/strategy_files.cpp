// SPDX-License-Identifier: MIT
// files-serial, files-pool, files-per-thread on Windows: each file opened with CreateFile (the hint's flag),
// ReadFile of the chunk size to the end, CloseHandle.
#include "platform/builtin_strategies.h"
#include "platform/files_strategy.h"
#include "platform/strategy_declarations.h"
#include "platform/windows/read_jobs.h"

namespace iolab::windows_backend {

namespace {

std::unique_ptr<Strategy> makeFiles(Parallelism parallelism)
{
    return std::make_unique<FilesStrategy<FileReader>>(filesDeclaration(parallelism));
}

} // namespace

} // namespace iolab::windows_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeFilesSerialStrategy()
{
    return windows_backend::makeFiles(Parallelism::Single);
}

std::unique_ptr<Strategy> builtin::makeFilesPoolStrategy()
{
    return windows_backend::makeFiles(Parallelism::Threads);
}

std::unique_ptr<Strategy> builtin::makeFilesPerThreadStrategy()
{
    return windows_backend::makeFiles(Parallelism::PerFile);
}

} // namespace iolab
