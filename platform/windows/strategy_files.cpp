// SPDX-License-Identifier: MIT
// files-serial, files-pool, files-per-thread: every file of a generated set read with CreateFile, ReadFile of
// the chunk size to the end and CloseHandle: in order in one thread, by a pool capped at the threads axis,
// or by a new thread per file.
#include "core/file_set_job.h"
#include "platform/basic_strategy.h"
#include "platform/windows/read_jobs.h"
#include "platform/windows/strategies.h"

namespace iolab::windows_backend {

namespace {

class FilesStrategy final : public BasicStrategy
{
public:
    FilesStrategy(const char* id, const char* description, Parallelism parallelism)
        : BasicStrategy({.id = id,
                         .description = description,
                         .direction = Direction::Read,
                         .layout = DataLayout::FileSet,
                         .hints = win::windowsReadHints(),
                         .hintRefusal = win::windowsHintRefusal(),
                         .parallelism = parallelism,
                         .targets = {TargetKind::Directory},
                         .syncModes = {SyncMode::None},
                         .syncRefusal = "reads have no sync policy"})
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        if (spec.files == nullptr || spec.files->empty()) {
            outcome = {Status::Failed, 0, "prepare",
                       spec.testCase.strategy + " reads a generated file set, and the job was given none"};
            return nullptr;
        }
        FileReader reader{spec.testCase.hint, spec.verifyData ? spec.pattern : nullptr};
        return std::make_unique<FileSetJob<FileReader>>(spec, info().parallelism, reader);
    }
};

} // namespace

std::unique_ptr<Strategy> makeFilesSerialStrategy()
{
    return std::make_unique<FilesStrategy>(
        "files-serial", "every file of the set, one after another, in one thread", Parallelism::Single);
}

std::unique_ptr<Strategy> makeFilesPoolStrategy()
{
    return std::make_unique<FilesStrategy>(
        "files-pool", "the set's files shared out to a pool of threads (the threads axis caps it)",
        Parallelism::Threads);
}

std::unique_ptr<Strategy> makeFilesPerThreadStrategy()
{
    return std::make_unique<FilesStrategy>(
        "files-per-thread", "a new thread for every file of the set, all at once", Parallelism::PerFile);
}

} // namespace iolab::windows_backend
