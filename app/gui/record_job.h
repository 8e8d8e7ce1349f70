// SPDX-License-Identifier: MIT
// File > Record a program... without its window: a program recorded into a new trace on a thread of its own
// (platform/recorder.h's runRecorded with app/common/recording.h's helpers, as iolab-cli record does), the
// recorder's parts counted while it runs, and every refusal said in one sentence with nothing left behind.
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <stop_token>

namespace iolab::gui {

struct RecordRequest
{
    QString program; // a path, or a name looked up on PATH
    QStringList arguments;
    QString workingFolder;
    QString tracePath; // "" = defaultTracePath(program, workingFolder)
};

struct RecordOutcome
{
    bool recorded = false; // the trace was written
    QString tracePath;
    QString problem;       // why nothing was recorded (the program was refused, did not start, ...)
    QString straceCommand; // for a program IOLab cannot record: the command that records it instead
    int exitStatus = 0;
    int signal = 0;
    bool stopped = false; // killed by Stop
    double wallSeconds = 0;
    // "sqlite3 exited with status 0 after 48 ms." and the like: one sentence for the user.
    QString summary() const;
};

// A command line's arguments as a POSIX shell splits them: 'single' and "double" quotes, a backslash
// escaping the next character (within double quotes only before " \\ $ `). `error` says why it does not
// split (a quote not closed); then the list is empty.
QStringList splitArguments(const QString& text, QString* error);

// <working folder>/<program>-<date>-<time>.iolab-trace, the name iolab-cli record gives in its folder.
QString defaultTracePath(const QString& program, const QString& workingFolder);

// Records `request` (blocking: call it off the GUI thread). `started` gets the parts folder once the program
// is about to start; a stop requested kills the program, and what it recorded until then is the trace.
RecordOutcome recordProgram(const RecordRequest& request, const std::stop_token& stop,
                            const std::function<void(const QString& partsFolder)>& started);

// The recorder's records in a parts folder so far, estimated from the bytes its chunks have used (a record is
// 88 bytes, more with a path; a run of identical calls is one record). Reads the parts' headers only.
std::uint64_t estimatedRecords(const QString& partsFolder);

} // namespace iolab::gui
