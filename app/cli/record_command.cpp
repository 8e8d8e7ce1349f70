// SPDX-License-Identifier: MIT
#include "record_command.h"

#include "app/cli/cli.h"
#include "app/common/recording.h"
#include "core/analysis/program_profile.h"
#include "core/base/error.h"
#include "core/formats/procmon_import.h"
#include "core/formats/profile_json.h"
#include "core/formats/strace_import.h"
#include "core/formats/trace_anonymise.h"
#include "core/model/trace_reader.h"
#include "platform/platform.h"
#include "platform/recorder.h"

#include <CLI/CLI.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace iolab::cli {

namespace {

std::string straceRoute()
{
    return fmt::format(
        "Where IOLab cannot record (a statically linked program, a machine without IOLab), strace "
        "records the system calls: {}\nthen: iolab-cli import trace.strace\nOn Windows, Process Monitor "
        "captures them: {}, then iolab-cli import it.",
        kStraceCommand, kProcmonHowTo);
}

std::string defaultOutput(const std::string& program)
{
    return fmt::format("{}-{:%Y%m%d-%H%M%S}.iolab-trace", fs::path(program).filename().string(),
                       fmt::localtime(std::time(nullptr)));
}

void printProfile(const ProgramProfile& profile)
{
    for (const std::string& line : describeProgramProfile(profile))
        std::printf("%s\n", line.c_str());
}

constexpr const char* kAnonymiseHelp =
    "Replace the names of files, folders and arguments in the trace with stable ones (/d1/f3.db): a trace to "
    "hand over without them; sizes, offsets, flags and times stay, so it profiles and replays the same";

// Merges the parts into `output`, anonymised when asked: merged first inside the parts folder, then
// rewritten with stable names (core/formats/trace_anonymise.h) into parts of its own, merged into `output`.
void writeTrace(const std::vector<fs::path>& parts, const fs::path& folder, const fs::path& output,
                bool anonymise)
{
    if (!anonymise) {
        mergeParts(parts, output);
        return;
    }
    const fs::path plain = folder / "plain.iolab-trace";
    mergeParts(parts, plain);
    std::ifstream in(plain, std::ios::binary);
    TraceReader reader(in, output.string());
    std::vector<std::unique_ptr<std::ofstream>> streams;
    std::vector<fs::path> anonymised;
    anonymiseTrace(reader, [&](std::size_t n) -> std::ostream& {
        anonymised.push_back(folder / fmt::format("anonymised-{:06}.part", n));
        streams.push_back(
            std::make_unique<std::ofstream>(anonymised.back(), std::ios::binary | std::ios::trunc));
        if (!*streams.back())
            throw InputError(fmt::format("cannot write {}", anonymised.back().string()));
        return *streams.back();
    });
    for (auto& stream : streams) {
        stream->close();
        if (!*stream)
            throw InputError(fmt::format("cannot write beside {} (is the disk full?)", output.string()));
    }
    mergeParts(anonymised, output);
}

constexpr const char* kJsonHelp =
    "Write the profile as JSON here too (its layout: resources/schemas/iolab-profile.schema.json)";

// A --json path that cannot be written is refused before anything runs.
void checkJsonPath(const std::string& path)
{
    if (path.empty())
        return;
    if (const std::string problem = outputPathProblem(path); !problem.empty())
        throw InputError(fmt::format("--json {}: {}", path, problem));
}

// Writes the profile's JSON; false (said on standard error) when it cannot be written.
bool writeProfileJson(const ProgramProfile& profile, const std::string& path)
{
    if (path.empty())
        return true;
    const Outcome outcome = writeFileAtomically(path, profileToJson(profile).dump(1) + "\n");
    if (!outcome.ok()) {
        std::fprintf(stderr, "iolab-cli: %s\n", outcome.message.c_str());
        return false;
    }
    return true;
}

} // namespace

CLI::App* addRecordCommand(CLI::App& app, RecordArgs& args)
{
    auto* record = app.add_subcommand(
        "record",
        "Run a program and record what it does with files (stdio and system calls) into a trace, then "
        "say what it did");
    record->add_option("--output,-o", args.output,
                       "The trace file to write (default: PROGRAM-DATE-TIME.iolab-trace in this folder)");
    record->add_flag("--quiet", args.quiet, "Do not print the profile after the run");
    record->add_option("--json", args.json, kJsonHelp);
    record->add_flag("--anonymise", args.anonymise, kAnonymiseHelp);
    record->add_option("command", args.command, "The program, then its arguments (put -- before them)")
        ->required();
    record->footer(std::string("Example: iolab-cli record -- sqlite3 test.db 'insert into t values(1)'\n") +
                   straceRoute());
    return record;
}

CLI::App* addProfileCommand(CLI::App& app, ProfileArgs& args)
{
    auto* profile = app.add_subcommand("profile", "Say what a recorded program did with files");
    profile->add_option("trace", args.trace, "A trace iolab-cli record or import wrote")->required();
    profile->add_option("--json", args.json, kJsonHelp);
    return profile;
}

int commandRecord(const RecordArgs& args)
{
    checkJsonPath(args.json);
    const RecordableProgram program = checkRecordable(args.command.front());
    const std::vector<std::string> arguments(args.command.begin() + 1, args.command.end());
    if (program.problem != RecordableProgram::Problem::None) {
        std::fprintf(stderr, "iolab-cli: %s.\n", program.message.c_str());
        if (program.problem == RecordableProgram::Problem::Static)
            std::fprintf(stderr, "  %s\n", straceCommandFor(program.path, arguments).c_str());
        return kExitUsage;
    }
    const fs::path output =
        args.output.empty() ? fs::path(defaultOutput(program.path)) : fs::path(args.output);
    newTraceName(output);
    const PartsFolder partsFolder(output);
    const fs::path& parts = partsFolder.path;
    const RecordedRun run =
        runRecorded(program.path, arguments, fs::absolute(parts).string(), fs::current_path().string());
    if (!run.started) {
        std::fprintf(stderr, "iolab-cli: %s\n", run.error.c_str());
        return kExitUsage;
    }
    const std::vector<fs::path> found = partsIn(parts);
    if (found.empty()) {
        std::fprintf(stderr,
                     "iolab-cli: the recorder did not load into %s, so nothing was recorded (%s).\n%s\n",
                     program.path.c_str(), recorderNotLoadedReason().c_str(), straceRoute().c_str());
        return run.exitStatus != 0 ? run.exitStatus : kExitUsage;
    }
    writeTrace(found, parts, output, args.anonymise);
    std::uint64_t records = 0;
    const ProgramProfile profile = profileOf(output, &records);
    if (!args.quiet) {
        printProfile(profile);
        std::printf("\n");
    }
    const std::string how = run.signal != 0 ? fmt::format("was ended by signal {}", run.signal)
                                            : fmt::format("exited with status {}", run.exitStatus);
    std::fprintf(stderr, "%s\n",
                 fmt::format("{} {}. Trace: {} ({} calls in {} records, {} {}).",
                             fs::path(program.path).filename().string(), how, output.string(), profile.calls,
                             records, profile.processes.size(),
                             profile.processes.size() == 1 ? "process" : "processes")
                     .c_str());
    if (!writeProfileJson(profile, args.json) && run.exitStatus == 0)
        return kExitCasesFailed;
    return run.exitStatus;
}

CLI::App* addImportCommand(CLI::App& app, ImportArgs& args)
{
    auto* command =
        app.add_subcommand("import", "Read strace's log (strace -f -tt -T -y) or Process Monitor's "
                                     "CSV of a program into a trace, then say what it did");
    command->add_option("log", args.log, "The file strace -o wrote, or the CSV Process Monitor saved")
        ->required();
    command->add_option("--output,-o", args.output, "The trace file to write (default: LOG.iolab-trace)");
    command->add_flag("--quiet", args.quiet, "Do not print the profile");
    command->add_option("--json", args.json, kJsonHelp);
    command->add_flag("--anonymise", args.anonymise, kAnonymiseHelp);
    command->footer(
        std::string("Linux, record with: ") + kStraceCommand +
        "\nstrace sees system calls only: a stdio stream's writes show as what its buffer flushed."
        "\nWindows: " +
        kProcmonHowTo +
        ".\nProcess Monitor sees the file system's requests: the cache manager's own writes (paging "
        "I/O) are left out.");
    return command;
}

int commandImport(const ImportArgs& args)
{
    checkJsonPath(args.json);
    const fs::path log(args.log);
    std::ifstream in(log, std::ios::binary);
    if (!in)
        throw InputError(fmt::format("cannot open {}: {}", args.log, std::strerror(errno)));
    std::string firstLine;
    if (!std::getline(in, firstLine))
        throw InputError(
            fmt::format("{} is empty: no capture to import (make one with: {}; or on Windows, {})", args.log,
                        kStraceCommand, kProcmonHowTo));
    in.clear();
    in.seekg(0);
    const bool procmon = looksLikeProcmonCsv(firstLine);
    const fs::path output =
        args.output.empty() ? fs::path(log.string() + ".iolab-trace") : fs::path(args.output);
    newTraceName(output);
    const PartsFolder partsFolder(output);
    const fs::path& parts = partsFolder.path;
    std::vector<std::string> warnings;
    std::string read;
    {
        std::vector<std::unique_ptr<std::ofstream>> streams;
        const auto openPart = [&](std::size_t n) -> std::ostream& {
            // <n>-<n>.part: partsIn keeps the order the processes were seen in
            const fs::path part = parts / fmt::format("{}-{}.part", n, n);
            streams.push_back(std::make_unique<std::ofstream>(part, std::ios::binary | std::ios::trunc));
            if (!*streams.back())
                throw InputError(fmt::format("cannot write {}", part.string()));
            return *streams.back();
        };
        if (procmon) {
            const ProcmonImport imported = importProcmonCsv(in, args.log, openPart);
            warnings = imported.warnings;
            read = fmt::format("Read {} rows of {}: {} calls on files in {} {}", imported.rows, args.log,
                               imported.calls, imported.processes,
                               imported.processes == 1 ? "process" : "processes");
        } else {
            const StraceImport imported = importStrace(in, args.log, openPart);
            warnings = imported.warnings;
            read = fmt::format("Read {} lines of {}: {} calls on files in {} {}", imported.lines, args.log,
                               imported.calls, imported.processes,
                               imported.processes == 1 ? "process" : "processes");
        }
        for (auto& stream : streams) {
            stream->close();
            if (!*stream)
                throw InputError(fmt::format("cannot write beside {} (is the disk full?)", output.string()));
        }
    }
    writeTrace(partsIn(parts), parts, output, args.anonymise);
    std::uint64_t records = 0;
    const ProgramProfile profile = profileOf(output, &records);
    if (!args.quiet) {
        printProfile(profile);
        std::printf("\n");
    }
    for (const std::string& warning : warnings)
        std::fprintf(stderr, "iolab-cli: note: %s.\n", warning.c_str());
    std::fprintf(stderr, "%s\n",
                 fmt::format("{}. Trace: {} ({} records).", read, output.string(), records).c_str());
    return writeProfileJson(profile, args.json) ? kExitOk : kExitCasesFailed;
}

int commandProfile(const ProfileArgs& args)
{
    checkJsonPath(args.json);
    const ProgramProfile profile = profileOf(args.trace);
    printProfile(profile);
    return writeProfileJson(profile, args.json) ? kExitOk : kExitCasesFailed;
}

} // namespace iolab::cli
