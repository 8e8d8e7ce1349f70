// SPDX-License-Identifier: MIT
// iolab-cli record and iolab-cli profile: record a program's calls on files into a trace, and say what the
// program did with files.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace iolab::cli {

struct RecordArgs
{
    std::vector<std::string> command; // the program, then its arguments
    std::string output;               // the trace; default: <program>-<time>.iolab-trace here
    bool quiet = false;               // no profile after the run
};

struct ProfileArgs
{
    std::string trace;
};

CLI::App* addRecordCommand(CLI::App& app, RecordArgs& args);
CLI::App* addProfileCommand(CLI::App& app, ProfileArgs& args);

// Exit status: the program's own (128 + the signal that ended it), or kExitUsage when it could not be started
// or recorded (nothing is left behind then).
int commandRecord(const RecordArgs& args);
int commandProfile(const ProfileArgs& args);

} // namespace iolab::cli
