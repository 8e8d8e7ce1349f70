// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/file_set_job.h"
#include "platform/basic_strategy.h"

#include <memory>
#include <string>
#include <vector>

namespace iolab {

// files-serial, files-pool, files-per-thread: every file of a generated set opened, read in chunks to the end
// and closed by `Reader` (the backend's), the three ways the .NET reading article compares: one thread in
// order, a pool capped at the threads axis, a new thread per file.
template <class Reader> class FilesStrategy final : public BasicStrategy
{
public:
    FilesStrategy(Parallelism parallelism, std::vector<ReadHint> hints, std::string hintRefusal)
        : BasicStrategy(readerInfo({.id = idOf(parallelism),
                                    .description = descriptionOf(parallelism),
                                    .layout = DataLayout::FileSet,
                                    .hints = std::move(hints),
                                    .hintRefusal = std::move(hintRefusal),
                                    .parallelism = parallelism,
                                    .timesCalls = false}))
    {}

    std::unique_ptr<Job> prepare(const JobSpec& spec, Outcome& outcome) const override
    {
        if (spec.files == nullptr || spec.files->empty()) {
            outcome = {Status::Failed, 0, "prepare",
                       spec.testCase.strategy + " reads a generated file set, and the job was given none"};
            return nullptr;
        }
        Reader reader{spec.testCase.hint, spec.verifyData ? spec.pattern : nullptr};
        return std::make_unique<FileSetJob<Reader>>(spec, info().parallelism, reader);
    }

private:
    static const char* idOf(Parallelism p)
    {
        return p == Parallelism::Single    ? "files-serial"
               : p == Parallelism::Threads ? "files-pool"
                                           : "files-per-thread";
    }
    static const char* descriptionOf(Parallelism p)
    {
        return p == Parallelism::Single ? "every file of the set, one after another, in one thread"
               : p == Parallelism::Threads
                   ? "the set's files shared out to a pool of threads (the threads axis caps it)"
                   : "a new thread for every file of the set, all at once";
    }
};

} // namespace iolab
