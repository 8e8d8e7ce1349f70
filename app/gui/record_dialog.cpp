// SPDX-License-Identifier: MIT
#include "app/gui/record_dialog.h"

#include "app/gui/record_job.h"
#include "app/gui/workers.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <thread>

namespace iolab::gui {

namespace {

constexpr int kPollMs = 500;

// A line edit with a Browse... button beside it.
QWidget* withBrowse(QLineEdit* field, QPushButton* browse, QWidget* parent)
{
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field, 1);
    layout->addWidget(browse);
    return row;
}

} // namespace

RecordDialog::RecordDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Record a program"));
    setObjectName(QStringLiteral("recordDialog"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("IOLab runs the program with its recorder inside (Linux: preloaded into the program) and writes "
           "what the program does with files (its stdio and system calls: sizes, offsets, flags, syncs, "
           "times; no data) into a trace, then shows it in the Program tab. The program's standard input is "
           "the null device; its output goes where IOLab's goes."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    m_program = new QLineEdit(this);
    m_program->setObjectName(QStringLiteral("recordProgram"));
    m_program->setPlaceholderText(tr("a name on PATH (sqlite3) or a path"));
    auto* browseProgram = new QPushButton(tr("Browse..."), this);
    form->addRow(tr("&Program:"), withBrowse(m_program, browseProgram, this));
    m_arguments = new QLineEdit(this);
    m_arguments->setObjectName(QStringLiteral("recordArguments"));
    m_arguments->setPlaceholderText(tr("as in a shell: test.db 'insert into t values (1)'"));
    form->addRow(tr("&Arguments:"), m_arguments);
    m_folder = new QLineEdit(QDir::homePath(), this);
    m_folder->setObjectName(QStringLiteral("recordFolder"));
    auto* browseFolder = new QPushButton(tr("Browse..."), this);
    form->addRow(tr("&Working folder:"), withBrowse(m_folder, browseFolder, this));
    m_trace = new QLineEdit(this);
    m_trace->setObjectName(QStringLiteral("recordTrace"));
    auto* browseTrace = new QPushButton(tr("Browse..."), this);
    form->addRow(tr("&Save the trace as:"), withBrowse(m_trace, browseTrace, this));
    m_traceNote = new QLabel(
        tr("By default in the working folder, named after the program and the time it was recorded."), this);
    m_traceNote->setWordWrap(true);
    form->addRow(QString(), m_traceNote);
    layout->addLayout(form);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("recordStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_rate = new QLabel(this);
    m_rate->setObjectName(QStringLiteral("recordRate"));
    m_rate->setWordWrap(true);
    layout->addWidget(m_rate);
    layout->addStretch(1);

    auto* buttons = new QDialogButtonBox(this);
    m_record = buttons->addButton(tr("&Record"), QDialogButtonBox::AcceptRole);
    m_record->setObjectName(QStringLiteral("recordButton"));
    m_record->setDefault(true);
    m_stop = buttons->addButton(tr("&Stop"), QDialogButtonBox::ActionRole);
    m_stop->setObjectName(QStringLiteral("stopRecordingButton"));
    m_stop->setToolTip(tr("Kill the program (and what it started); what it did until then is the trace"));
    m_close = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);

    m_pollTimer = new QTimer(this);
    m_pollTimer->setInterval(kPollMs);
    connect(m_pollTimer, &QTimer::timeout, this, &RecordDialog::poll);
    connect(browseProgram, &QPushButton::clicked, this, &RecordDialog::chooseProgram);
    connect(browseFolder, &QPushButton::clicked, this, &RecordDialog::chooseFolder);
    connect(browseTrace, &QPushButton::clicked, this, &RecordDialog::chooseTrace);
    connect(m_record, &QPushButton::clicked, this, &RecordDialog::record);
    connect(m_stop, &QPushButton::clicked, this, &RecordDialog::stop);
    connect(m_close, &QPushButton::clicked, this, &QDialog::hide);
    connect(m_program, &QLineEdit::textChanged, this, &RecordDialog::updateDefaultTrace);
    connect(m_folder, &QLineEdit::textChanged, this, &RecordDialog::updateDefaultTrace);
    connect(m_trace, &QLineEdit::textEdited, this, [this] { m_traceEdited = !m_trace->text().isEmpty(); });
    updateDefaultTrace();
    updateButtons();
    resize(640, sizeHint().height());
}

RecordDialog::~RecordDialog()
{
    m_stopSource.request_stop(); // the program is killed; its thread merges what it recorded and ends
}

void RecordDialog::updateDefaultTrace()
{
    if (m_traceEdited || m_recording)
        return;
    m_trace->setText(m_program->text().trimmed().isEmpty()
                         ? QString()
                         : defaultTracePath(m_program->text(), m_folder->text().trimmed()));
}

void RecordDialog::chooseProgram()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("The program to record"), m_folder->text());
    if (!path.isEmpty())
        m_program->setText(path);
}

void RecordDialog::chooseFolder()
{
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("The program's working folder"), m_folder->text());
    if (!path.isEmpty())
        m_folder->setText(path);
}

void RecordDialog::chooseTrace()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save the trace as"), m_trace->text(),
                                                      tr("Traces of a program (*.iolab-trace)"), nullptr,
                                                      QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    m_trace->setText(path);
    m_traceEdited = true;
}

bool RecordDialog::record()
{
    if (m_recording)
        return false;
    QString error;
    const QStringList arguments = splitArguments(m_arguments->text(), &error);
    if (!error.isEmpty()) {
        error[0] = error[0].toUpper();
        setStatus(error + QLatin1Char('.'), true);
        return false;
    }
    RecordRequest request{m_program->text(), arguments, m_folder->text().trimmed(), m_trace->text()};
    m_stopSource = {};
    m_recording = true;
    m_partsFolder.clear();
    m_lastRecords = 0;
    m_lastSeconds = 0;
    m_rate->clear();
    setStatus(tr("Checking %1...").arg(request.program.trimmed()), false);
    updateButtons();
    // The program may run for hours: a thread of its own, not a pool's. Its answers come back queued and are
    // dropped once the dialog is gone.
    // The answers go through a pool, which lives as long as the process (qApp may be gone at exit).
    QObject* context = targetPool();
    std::thread([context, receiver = QPointer<RecordDialog>(this), request, stop = m_stopSource.get_token()] {
        const RecordOutcome outcome = recordProgram(request, stop, [context, receiver](const QString& parts) {
            QMetaObject::invokeMethod(
                context,
                [receiver, parts] {
                    if (receiver != nullptr)
                        receiver->started(parts);
                },
                Qt::QueuedConnection);
        });
        QMetaObject::invokeMethod(
            context,
            [receiver, outcome] {
                if (receiver != nullptr)
                    receiver->finished(outcome);
            },
            Qt::QueuedConnection);
    }).detach();
    return true;
}

void RecordDialog::stop()
{
    if (!m_recording)
        return;
    m_stopSource.request_stop();
    setStatus(tr("Stopping: the program is killed, then what it recorded is saved..."), false);
    updateButtons();
}

void RecordDialog::started(const QString& partsFolder)
{
    if (!m_recording)
        return;
    m_partsFolder = partsFolder;
    m_clock.start();
    setStatus(tr("Recording %1 in %2... Stop kills it.").arg(m_program->text().trimmed(), m_folder->text()),
              false);
    m_rate->setText(tr("No call recorded yet."));
    m_pollTimer->start();
}

void RecordDialog::poll()
{
    if (m_polling || m_partsFolder.isEmpty())
        return;
    m_polling = true;
    runOffGuiThread(
        targetPool(), this, [folder = m_partsFolder] { return estimatedRecords(folder); },
        [](RecordDialog& dialog, std::uint64_t records) {
            dialog.m_polling = false;
            if (!dialog.m_recording)
                return;
            const double seconds = static_cast<double>(dialog.m_clock.elapsed()) / 1000.0;
            const double interval = seconds - dialog.m_lastSeconds;
            const double rate = interval > 0 && records >= dialog.m_lastRecords
                                    ? static_cast<double>(records - dialog.m_lastRecords) / interval
                                    : 0;
            dialog.m_lastRecords = records;
            dialog.m_lastSeconds = seconds;
            dialog.m_rate->setText(
                tr("About %L1 records so far, %L2 a second now, after %3 s (an estimate from the "
                   "bytes the recorder has used, 88 a record; a run of identical calls is one "
                   "record).")
                    .arg(records)
                    .arg(rate, 0, 'f', 0)
                    .arg(seconds, 0, 'f', 1));
        });
}

void RecordDialog::finished(const RecordOutcome& outcome)
{
    m_recording = false;
    m_pollTimer->stop();
    m_partsFolder.clear();
    m_rate->clear();
    if (!outcome.recorded) {
        QString text = outcome.problem;
        if (!outcome.straceCommand.isEmpty())
            text += tr("<br>In a terminal, in the working folder: <tt>%1</tt><br>then <tt>iolab-cli import "
                       "trace.strace</tt>, and open the trace it writes here.")
                        .arg(outcome.straceCommand.toHtmlEscaped());
        setStatus(text, true);
    } else {
        setStatus(outcome.summary(), outcome.exitStatus != 0 && !outcome.stopped);
        m_traceEdited = false;
        updateDefaultTrace();
        Q_EMIT traceWritten(outcome.tracePath);
    }
    updateButtons();
    Q_EMIT recordingEnded();
}

void RecordDialog::setStatus(const QString& text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #c0392b; font-weight: 600;") : QString());
}

QString RecordDialog::statusText() const
{
    return m_status->text();
}

QString RecordDialog::rateText() const
{
    return m_rate->text();
}

void RecordDialog::updateButtons()
{
    m_record->setEnabled(!m_recording);
    m_stop->setEnabled(m_recording && !m_stopSource.stop_requested());
    for (QLineEdit* field : {m_program, m_arguments, m_folder, m_trace})
        field->setReadOnly(m_recording);
}

} // namespace iolab::gui
