// SPDX-License-Identifier: MIT
// iolab-cli record, import and profile: record a program's calls on files into a trace (or read strace's log
// of them into one), and say what the program did with files.
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
    std::string json;                 // the profile as JSON here too
    bool anonymise = false;           // stable names instead of the files', folders' and arguments'
};

struct ProfileArgs
{
    std::string trace;
    std::string json;
};

struct ImportArgs
{
    std::string log;    // strace -f -tt -T -y's output
    std::string output; // the trace; default: the log's name with .iolab-trace
    bool quiet = false;
    std::string json;
    bool anonymise = false;
};

CLI::App* addRecordCommand(CLI::App& app, RecordArgs& args);
CLI::App* addProfileCommand(CLI::App& app, ProfileArgs& args);
CLI::App* addImportCommand(CLI::App& app, ImportArgs& args);

// Exit status: the program's own (128 + the signal that ended it), or kExitUsage when it could not be started
// or recorded (nothing is left behind then).
int commandRecord(const RecordArgs& args);
int commandProfile(const ProfileArgs& args);
// Reads a capture another tool made (strace's log) into a trace and prints its profile; kExitUsage (nothing
// left behind) for a log that is none.
int commandImport(const ImportArgs& args);

} // namespace iolab::cli
