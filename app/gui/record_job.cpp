// SPDX-License-Identifier: MIT
#include "app/gui/record_job.h"

#include "app/common/recording.h"
#include "app/gui/text_helpers.h"
#include "core/base/error.h"
#include "core/base/units.h"
#include "core/model/trace_format.h"
#include "platform/recorder.h"

#include <QDateTime>
#include <QFileInfo>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace iolab::gui {

QString RecordOutcome::summary() const
{
    const QString name = QFileInfo(tracePath).fileName();
    if (!recorded)
        return problem;
    const QString wall = qs(formatDuration(wallSeconds));
    if (stopped)
        return QObject::tr("The program was stopped (killed) after %1; its calls until then are in %2.")
            .arg(wall, name);
    if (signal != 0)
        return QObject::tr("The program was ended by signal %1 after %2; its calls until then are in %3.")
            .arg(signal)
            .arg(wall, name);
    return QObject::tr("The program exited with status %1 after %2; its calls are in %3.")
        .arg(exitStatus)
        .arg(wall, name);
}

QStringList splitArguments(const QString& text, QString* error)
{
    QStringList arguments;
    QString current;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quote == QLatin1Char('\'')) {
            if (c == QLatin1Char('\''))
                quote = QChar();
            else
                current += c;
        } else if (quote == QLatin1Char('"')) {
            if (c == QLatin1Char('"'))
                quote = QChar();
            else if (c == QLatin1Char('\\') && i + 1 < text.size() &&
                     QStringLiteral("\"\\$`").contains(text[i + 1]))
                current += text[++i];
            else
                current += c;
        } else if (c.isSpace()) {
            if (inWord)
                arguments << std::exchange(current, QString());
            inWord = false;
        } else {
            inWord = true;
            if (c == QLatin1Char('\'') || c == QLatin1Char('"'))
                quote = c;
            else if (c == QLatin1Char('\\') && i + 1 < text.size())
                current += text[++i];
            else
                current += c;
        }
    }
    if (!quote.isNull()) {
        *error = QObject::tr("a %1 quote in the arguments is not closed")
                     .arg(quote == QLatin1Char('"') ? QObject::tr("double") : QObject::tr("single"));
        return {};
    }
    if (inWord)
        arguments << current;
    return arguments;
}

QString defaultTracePath(const QString& program, const QString& workingFolder)
{
    const QString name = QFileInfo(program.trimmed()).fileName();
    return QDir(workingFolder)
        .filePath(QStringLiteral("%1-%2.iolab-trace")
                      .arg(name.isEmpty() ? QStringLiteral("program") : name,
                           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
}

RecordOutcome recordProgram(const RecordRequest& request, const std::stop_token& stop,
                            const std::function<void(const QString& partsFolder)>& started)
{
    RecordOutcome outcome;
    const QString programText = request.program.trimmed();
    if (programText.isEmpty()) {
        outcome.problem = QObject::tr("Name the program to record.");
        return outcome;
    }
    const QFileInfo folder(request.workingFolder);
    if (request.workingFolder.isEmpty() || !folder.isDir()) {
        outcome.problem = QObject::tr("The working folder %1 is not a folder.").arg(request.workingFolder);
        return outcome;
    }
    // A path with a '/' is the user's, from the working folder where it is relative; a bare name is looked
    // up on PATH.
    std::string program = programText.toStdString();
    if (programText.contains(QLatin1Char('/')) && QFileInfo(programText).isRelative())
        program = QDir::cleanPath(QDir(request.workingFolder).absoluteFilePath(programText)).toStdString();
    const RecordableProgram recordable = checkRecordable(program);
    std::vector<std::string> arguments;
    for (const QString& argument : request.arguments)
        arguments.push_back(argument.toStdString());
    if (recordable.problem != RecordableProgram::Problem::None) {
        outcome.problem = qs(recordable.message) + QLatin1Char('.');
        if (recordable.problem == RecordableProgram::Problem::Static)
            outcome.straceCommand = qs(straceCommandFor(recordable.path, arguments));
        return outcome;
    }
    outcome.tracePath = request.tracePath.trimmed().isEmpty()
                            ? defaultTracePath(programText, request.workingFolder)
                            : QFileInfo(request.tracePath.trimmed()).absoluteFilePath();
    const fs::path output = outcome.tracePath.toStdString();
    try {
        if (!QFileInfo(QFileInfo(outcome.tracePath).absolutePath()).isDir())
            throw InputError(QObject::tr("cannot save the trace in %1: no such folder")
                                 .arg(QFileInfo(outcome.tracePath).absolutePath())
                                 .toStdString());
        if (QFileInfo::exists(outcome.tracePath))
            throw InputError(QObject::tr("%1 already exists: name another file, or remove it")
                                 .arg(outcome.tracePath)
                                 .toStdString());
        newTraceName(output);
        const PartsFolder parts(output);
        const std::string partsPath = fs::absolute(parts.path).string();
        started(qs(partsPath));
        const RecordedRun run =
            runRecorded(recordable.path, arguments, partsPath, request.workingFolder.toStdString(), stop);
        if (!run.started)
            throw InputError(run.error);
        outcome.exitStatus = run.exitStatus;
        outcome.signal = run.signal;
        outcome.stopped = run.stopped;
        outcome.wallSeconds = run.wallSeconds;
        const std::vector<fs::path> found = partsIn(parts.path);
        if (found.empty())
            throw InputError(
                QObject::tr("the recorder did not load into %1, so nothing was recorded (%2); the program %3")
                    .arg(qs(recordable.path), qs(recorderNotLoadedReason()),
                         run.stopped       ? QObject::tr("was stopped")
                         : run.signal != 0 ? QObject::tr("was ended by signal %1").arg(run.signal)
                                           : QObject::tr("exited with status %1").arg(run.exitStatus))
                    .toStdString());
        mergeParts(found, output);
        outcome.recorded = true;
    } catch (const std::exception& e) {
        QString text = qs(e.what());
        if (!text.isEmpty())
            text[0] = text[0].toUpper();
        outcome.problem = text.endsWith(QLatin1Char('.')) ? text : text + QLatin1Char('.');
        outcome.recorded = false;
    }
    return outcome;
}

std::uint64_t estimatedRecords(const QString& partsFolder)
{
    std::uint64_t usedBytes = 0;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(partsFolder.toStdString(), error)) {
        if (entry.path().extension() != ".part")
            continue;
        std::ifstream in(entry.path(), std::ios::binary);
        trace::PartHeader header{};
        if (!in.read(reinterpret_cast<char*>(&header), sizeof header) ||
            header.chunkBytes < sizeof(trace::ChunkHeader))
            continue;
        const std::uint64_t fileBytes = entry.file_size(error);
        for (std::uint64_t at = header.headerBytes; at + sizeof(trace::ChunkHeader) <= fileBytes;
             at += header.chunkBytes) {
            trace::ChunkHeader chunk{};
            in.seekg(static_cast<std::streamoff>(at));
            if (!in.read(reinterpret_cast<char*>(&chunk), sizeof chunk))
                break;
            // Threads take chunks in order: the first never taken ends what is in use (the Windows
            // recorder's part is a sparse file as large as a recording may grow). A chunk taken but not yet
            // headed ends the count a moment early: an estimate.
            if (chunk.magic != trace::kChunkMagic)
                break;
            usedBytes += chunk.usedBytes;
        }
    }
    return usedBytes / sizeof(trace::EventRecord);
}

} // namespace iolab::gui
