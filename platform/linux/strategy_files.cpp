// SPDX-License-Identifier: MIT
// files-serial, files-pool, files-per-thread on Linux: each file opened, read(2) of the chunk size to the end
// with the posix_fadvise hint, closed.
#include "platform/builtin_strategies.h"
#include "platform/files_strategy.h"
#include "platform/posix/file_reader.h"
#include "platform/strategy_declarations.h"

namespace iolab::linux_backend {

namespace {

std::unique_ptr<Strategy> makeFiles(Parallelism parallelism)
{
    return std::make_unique<FilesStrategy<posix::FileReader>>(filesDeclaration(parallelism));
}

} // namespace

} // namespace iolab::linux_backend

namespace iolab {

std::unique_ptr<Strategy> builtin::makeFilesSerialStrategy()
{
    return linux_backend::makeFiles(Parallelism::Single);
}

std::unique_ptr<Strategy> builtin::makeFilesPoolStrategy()
{
    return linux_backend::makeFiles(Parallelism::Threads);
}

std::unique_ptr<Strategy> builtin::makeFilesPerThreadStrategy()
{
    return linux_backend::makeFiles(Parallelism::PerFile);
}

} // namespace iolab
