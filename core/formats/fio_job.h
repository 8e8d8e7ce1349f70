// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/case.h"
#include "core/model/result.h"

#include <string>

namespace iolab {

// A case as a fio job file, for someone to rerun the workload elsewhere (issue 18). Where fio has the same
// thing (psync, pvsync2, mmap, io_uring, windowsaio; rw, bs, iodepth, direct, sync, fsync, fdatasync,
// end_fsync, sync_file_range, numjobs, size, io_size, runtime, norandommap, registerfiles, fixedbufs, verify)
// it is used; every difference is stated in a comment line at the top ("; differs: fio has no fwrite engine;
// closest: ioengine=psync with bs=..."), with what it was measured to move where that is known, a condition
// for running the job as such in a "; note:" line, and a case with no fio equivalent at all (a pipe, group
// commit) says so instead of inventing one.
struct FioJobOptions
{
    std::string directory; // where fio puts its files: the target folder
    std::string name;      // the job's section name
    bool verify = false;   // IOLab read every byte back: verify=crc32c
    std::string title;     // first comment line: what the case was ("case 3 of quick: write 64 KiB ...")
};

struct FioJob
{
    bool equivalent = true; // false: fio cannot run this workload (the text says why and holds no job)
    std::string text;
};

FioJob fioJob(const Case& c, const FioJobOptions& options);

// The job of a result's case (its index in `cases`): in the result's target folder, named after the case,
// verifying when the run verified.
FioJob fioJobOf(const RunResult& result, std::size_t caseIndex);

} // namespace iolab
