// SPDX-License-Identifier: MIT
// Recording on Windows is not in this version: the recorder DLL that patches a program's import tables is
// still to come (the manual's recording.md says so). Until then every program is refused with that reason,
// and strace's route is Linux's.
#include "platform/recorder.h"

namespace iolab {

RecordableProgram checkRecordable(const std::string& program)
{
    RecordableProgram result;
    result.path = program;
    result.problem = RecordableProgram::Problem::NoRecorder;
    result.message =
        "this version of IOLab records programs on Linux only; on Windows, record on a Linux machine "
        "or wait for the Windows recorder";
    return result;
}

RecordedRun runRecorded(const std::string& program, const std::vector<std::string>&, const std::string&,
                        const std::string&, const std::stop_token&)
{
    RecordedRun run;
    run.error = program + " was not started: this version of IOLab records programs on Linux only";
    return run;
}

std::string straceCommandFor(const std::string& program, const std::vector<std::string>& arguments)
{
    std::string command = "strace -f -tt -T -y -o trace.strace -- " + program;
    for (const std::string& argument : arguments)
        command += " " + argument;
    return command;
}

} // namespace iolab
