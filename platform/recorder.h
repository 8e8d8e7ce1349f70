// SPDX-License-Identifier: MIT
// Recording a program's calls on files (iolab-cli record, File > Record a program... in the app): start it
// with this system's recorder inside (Linux: libiolab-record.so preloaded), wait for it, and leave its parts
// of the trace in a folder for the caller to merge (core/model/trace_reader.h's mergeTraceParts).
#pragma once

#include <stop_token>
#include <string>
#include <vector>

namespace iolab {

// Whether `program` can be recorded here, and the file that would run.
struct RecordableProgram
{
    enum class Problem
    {
        None,
        NotFound,      // no such file, or not on PATH
        NotExecutable, // a folder, or no permission to run it
        Static,        // statically linked: no loader to put the recorder in
        NoRecorder,    // this installation has no recorder library, or this system no recorder
    };
    Problem problem = Problem::None;
    std::string path;    // resolved (a name without '/' is looked up on PATH)
    std::string message; // one sentence for the user when problem != None
};

RecordableProgram checkRecordable(const std::string& program);

struct RecordedRun
{
    bool started = false;
    std::string error;  // why it did not start
    int exitStatus = 0; // its exit status, or 128 + the signal that ended it
    int signal = 0;     // the signal that ended it, 0 if it exited
    double wallSeconds = 0;
    bool stopped = false; // ended by the stop requested
};

// Runs `program` (a path checkRecordable gave) with `arguments` in `workingFolder`, its standard streams the
// caller's, the recorder writing its parts into `partsFolder` (which exists and is empty). Blocks until the
// program and every process it started that kept the recorder have ended.
//
// With a `stop` that can be requested (the app's File > Record a program...), the program runs in a process
// group of its own with its standard input from the null device, only that group is waited for (the caller's
// other children are left to it), and a stop requested kills the group (SIGKILL): RecordedRun::stopped.
// Without one (iolab-cli), the program shares the caller's terminal and Ctrl+C reaches it.
RecordedRun runRecorded(const std::string& program, const std::vector<std::string>& arguments,
                        const std::string& partsFolder, const std::string& workingFolder,
                        const std::stop_token& stop = {});

// Why a program that ran left no part of a trace, for the message that says nothing was recorded.
std::string recorderNotLoadedReason();

// The strace command that records the same calls where IOLab cannot (a static program, a machine without
// IOLab): its output is what `iolab-cli profile` imports.
std::string straceCommandFor(const std::string& program, const std::vector<std::string>& arguments);

} // namespace iolab
