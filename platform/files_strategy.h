// SPDX-License-Identifier: MIT
#pragma once

#include "core/engine/file_set_job.h"
#include "platform/basic_strategy.h"

#include <memory>
#include <utility>

namespace iolab {

// files-serial, files-pool, files-per-thread: every file of a generated set opened, read in chunks to the end
// and closed by `Reader` (the backend's), the three ways the .NET reading article compares: one thread in
// order, a pool capped at the threads axis, a new thread per file (filesDeclaration,
// platform/strategy_declarations.h).
template <class Reader> class FilesStrategy final : public BasicStrategy
{
public:
    explicit FilesStrategy(StrategyInfo declaration) : BasicStrategy(std::move(declaration)) {}

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
};

} // namespace iolab
