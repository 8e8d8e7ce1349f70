// SPDX-License-Identifier: MIT
#include "app/gui/report_command.h"

#include "app/common/recording.h"
#include "app/gui/widget_helpers.h"
#include "app/report/pdf_report.h"
#include "core/analysis/ranking.h"
#include "core/base/error.h"
#include "core/formats/profile_json.h"
#include "core/formats/result_csv.h"
#include "core/formats/result_json.h"
#include "core/formats/result_prometheus.h"
#include "core/formats/result_redact.h"
#include "core/model/trace_format.h"
#include "core/version.h"
#include "platform/platform.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>

namespace iolab::gui {

namespace {

void fail(const QString& message)
{
    std::fprintf(stderr, "iolab report: %s\n", message.toLocal8Bit().constData());
}

// Whether `bytes` begin as an IOLab trace does (iolab-cli record's and import's files).
bool isTrace(const QByteArray& bytes)
{
    return bytes.size() >= static_cast<qsizetype>(sizeof trace::kMagic) &&
           std::memcmp(bytes.constData(), trace::kMagic, sizeof trace::kMagic) == 0;
}

// `iolab report TRACE --pdf OUT.pdf [--json PROFILE.json]`: a recorded program's profile.
int traceReport(const QString& tracePath, const QString& pdfPath, const QString& jsonPath,
                const report::ReportOptions& options)
{
    ProgramProfile profile;
    try {
        profile = profileOf(tracePath.toStdString());
    } catch (const std::exception& e) {
        fail(qs(e.what()));
        return 2;
    }
    int status = 0;
    if (!pdfPath.isEmpty()) {
        const QByteArray bytes =
            report::renderProfilePdf(profile, QDir::toNativeSeparators(tracePath), options);
        const Outcome outcome =
            writeFileAtomically(pdfPath.toStdString(),
                                std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        if (outcome.ok()) {
            std::fprintf(stderr, "report PDF: %s\n", pdfPath.toLocal8Bit().constData());
        } else {
            fail(qs(outcome.message));
            status = 1;
        }
    }
    if (!jsonPath.isEmpty()) {
        const Outcome outcome =
            writeFileAtomically(jsonPath.toStdString(), profileToJson(profile).dump(1) + "\n");
        if (outcome.ok()) {
            std::fprintf(stderr, "written: %s\n", jsonPath.toLocal8Bit().constData());
        } else {
            fail(qs(outcome.message));
            status = 1;
        }
    }
    return status;
}

} // namespace

QString exportResultFile(const RunResult& result, const QString& path, const Registry* registry,
                         Ranking ranking)
{
    const std::string file = path.toStdString();
    if (const auto problem = outputPathProblem(file); !problem.empty())
        return qs(problem);
    Outcome outcome;
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive)) {
        report::ReportOptions options;
        options.ranking = ranking;
        const QByteArray pdf = report::renderPdfReport(result, options, registry);
        outcome = writeFileAtomically(
            file, std::string_view(pdf.constData(), static_cast<std::size_t>(pdf.size())));
    } else if (path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)) {
        for (const auto& csv : resultCsvFiles(result, file)) {
            if (const auto problem = outputPathProblem(csv.path); !problem.empty())
                return qs(problem);
        }
        for (const auto& csv : resultCsvFiles(result, file)) {
            outcome = writeFileAtomically(csv.path, csv.content);
            if (!outcome.ok())
                break;
        }
    } else {
        outcome = writeFileAtomically(file, resultToJson(result).dump(2) + "\n");
    }
    return outcome.ok() ? QString() : qs(outcome.message);
}

int reportCommand(int argc, char** argv)
{
    // Headless unless the caller chose a platform: a report is made on servers without a display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", headlessQtPlatform());
    QGuiApplication app(argc, argv);
    QGuiApplication::setApplicationName(QStringLiteral("iolab"));
    QGuiApplication::setApplicationVersion(QStringLiteral(IOLAB_VERSION));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Renders a result file as a report."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("report"), QStringLiteral("the command"));
    parser.addPositionalArgument(
        QStringLiteral("result"),
        QStringLiteral("A result JSON (iolab or iolab-cli), or a trace (iolab-cli record or import): its "
                       "program's profile."));
    const QCommandLineOption pdf(QStringLiteral("pdf"), QStringLiteral("Write the PDF report here."),
                                 QStringLiteral("file"));
    const QCommandLineOption csv(
        QStringLiteral("csv"),
        QStringLiteral("Write the repetitions CSV here (summary and samples beside it)."),
        QStringLiteral("file"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Write the result JSON here."),
                                  QStringLiteral("file"));
    const QCommandLineOption prometheus(
        QStringLiteral("prometheus"),
        QStringLiteral("Write the headline figures here in Prometheus's text format, for node_exporter's "
                       "textfile collector (per case the rates, IOPS, latency and the health verdict)."),
        QStringLiteral("file"));
    const QCommandLineOption page(QStringLiteral("page"), QStringLiteral("a4, letter or auto (by locale)."),
                                  QStringLiteral("size"), QStringLiteral("auto"));
    const QCommandLineOption rank(
        QStringLiteral("rank"),
        QStringLiteral("What writes to a file are ranked and coloured by: durable (default: what reached the "
                       "disk, the final fsync included) or apparent (when the last write returned)."),
        QStringLiteral("rate"), QStringLiteral("durable"));
    const QCommandLineOption redact(
        QStringLiteral("redact"),
        QStringLiteral(
            "Write the report fit to share: the host name, paths, user names, serial numbers and MAC "
            "addresses replaced by placeholders (the same value by the same one), every figure "
            "kept, and the report saying so first."));
    parser.addOptions({pdf, csv, json, prometheus, page, rank, redact});
    // parse(), not process(): an unknown option exits 2 like every other bad input, not Qt's 1.
    if (!parser.parse(QCoreApplication::arguments())) {
        fail(parser.errorText());
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    const QStringList args = parser.positionalArguments();
    if (args.size() != 2) {
        fail(QStringLiteral("give one result file: iolab report RESULT.json --pdf OUT.pdf"));
        return 2;
    }
    if (!parser.isSet(pdf) && !parser.isSet(csv) && !parser.isSet(json) && !parser.isSet(prometheus)) {
        fail(QStringLiteral("nothing to write: give --pdf, --csv, --json or --prometheus"));
        return 2;
    }
    report::ReportOptions options;
    const QString pageName = parser.value(page).toLower();
    if (pageName == QStringLiteral("a4"))
        options.page = report::PageFormat::A4;
    else if (pageName == QStringLiteral("letter"))
        options.page = report::PageFormat::Letter;
    else if (pageName != QStringLiteral("auto")) {
        fail(QStringLiteral("--page must be a4, letter or auto, not '%1'").arg(parser.value(page)));
        return 2;
    }
    try {
        options.ranking = parseRanking(parser.value(rank).toLower().toStdString());
    } catch (const InputError&) {
        fail(QStringLiteral("--rank must be durable or apparent, not '%1'").arg(parser.value(rank)));
        return 2;
    }

    if (QFileInfo(args[1]).isDir()) {
        fail(QStringLiteral("%1 is a folder; give a result JSON file").arg(args[1]));
        return 2;
    }
    QFile in(args[1]);
    if (!in.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read %1: %2").arg(args[1], in.errorString()));
        return 2;
    }
    // A trace is read as it streams (it may hold millions of calls); a result JSON whole.
    if (isTrace(in.peek(sizeof trace::kMagic))) {
        if (parser.isSet(redact)) {
            fail(QStringLiteral("%1 is a trace: --redact applies to a result; a trace is made fit to share "
                                "when it is recorded or imported (iolab-cli record --anonymise, iolab-cli "
                                "import --anonymise)")
                     .arg(args[1]));
            return 2;
        }
        if (parser.isSet(csv) || parser.isSet(prometheus)) {
            fail(QStringLiteral("%1 is a trace: its profile has no %2; give --pdf or --json")
                     .arg(args[1], parser.isSet(csv) ? QStringLiteral("CSV") : QStringLiteral("metrics")));
            return 2;
        }
        for (const auto* option : {&pdf, &json}) {
            if (!parser.isSet(*option))
                continue;
            if (const auto problem = outputPathProblem(parser.value(*option).toStdString());
                !problem.empty()) {
                fail(qs(problem));
                return 2;
            }
        }
        return traceReport(args[1], parser.isSet(pdf) ? parser.value(pdf) : QString(),
                           parser.isSet(json) ? parser.value(json) : QString(), options);
    }
    const QByteArray text = in.readAll();
    RunResult result;
    try {
        result = resultFromJson(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                                args[1].toStdString());
    } catch (const InputError& e) {
        fail(qs(e.what()));
        return 2;
    }
    if (parser.isSet(redact))
        result = redactResult(result);
    // Every output path is checked before anything is written, so a bad one costs nothing.
    for (const auto* option : {&pdf, &csv, &json, &prometheus}) {
        if (!parser.isSet(*option))
            continue;
        if (const auto problem = outputPathProblem(parser.value(*option).toStdString()); !problem.empty()) {
            fail(qs(problem));
            return 2; // a bad output path is a bad input, as in iolab-cli
        }
    }
    const Registry& registry = builtinRegistry();
    int status = 0;
    if (parser.isSet(pdf)) {
        const QByteArray bytes = report::renderPdfReport(result, options, &registry);
        const Outcome outcome =
            writeFileAtomically(parser.value(pdf).toStdString(),
                                std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        if (outcome.ok()) {
            std::fprintf(stderr, "report PDF: %s\n", parser.value(pdf).toLocal8Bit().constData());
        } else {
            fail(qs(outcome.message));
            status = 1;
        }
    }
    for (const auto* option : {&csv, &json}) {
        if (!parser.isSet(*option))
            continue;
        const QString error = exportResultFile(result, parser.value(*option), &registry);
        if (error.isEmpty()) {
            std::fprintf(stderr, "written: %s\n", parser.value(*option).toLocal8Bit().constData());
        } else {
            fail(error);
            status = 1;
        }
    }
    if (parser.isSet(prometheus)) {
        const Outcome outcome = writeFileAtomically(parser.value(prometheus).toStdString(),
                                                    resultToPrometheus(result, &registry));
        if (outcome.ok()) {
            std::fprintf(stderr, "written: %s\n", parser.value(prometheus).toLocal8Bit().constData());
        } else {
            fail(qs(outcome.message));
            status = 1;
        }
    }
    return status;
}

} // namespace iolab::gui
