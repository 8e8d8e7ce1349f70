// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QString>

#include <cstdint>
#include <memory>
#include <stop_token>

class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;

namespace iolab::gui {

struct RecordOutcome;

// File > Record a program...: the program, its arguments, its working folder and where the trace goes (by
// default in the working folder, named as iolab-cli record names it). Record runs it with IOLab's recorder
// on a thread of its own (record_job.h), shows the records made per second while it runs, Stop kills it, and
// the trace it wrote goes to the Program tab (traceWritten). Closed while recording, it hides: the recording
// goes on and its trace still opens; the app quitting stops it.
class RecordDialog : public QDialog
{
    Q_OBJECT

public:
    explicit RecordDialog(QWidget* parent = nullptr);
    ~RecordDialog() override;

    bool isRecording() const { return m_recording; }
    // Record and Stop as the buttons do; record() false with the reason shown when it cannot start.
    bool record();
    void stop();

    QLineEdit* programField() const { return m_program; }
    QLineEdit* argumentsField() const { return m_arguments; }
    QLineEdit* folderField() const { return m_folder; }
    QLineEdit* traceField() const { return m_trace; }
    QPushButton* recordButton() const { return m_record; }
    QPushButton* stopButton() const { return m_stop; }
    QString statusText() const;
    QString rateText() const;

Q_SIGNALS:
    // The trace a recording wrote: the window opens it in the Program tab.
    void traceWritten(const QString& path);
    // A recording is over, written or not (statusText says how).
    void recordingEnded();

private:
    void chooseProgram();
    void chooseFolder();
    void chooseTrace();
    void updateDefaultTrace();
    void started(const QString& partsFolder);
    void finished(const RecordOutcome& outcome);
    void poll();
    void setStatus(const QString& text, bool error);
    void updateButtons();

    QLineEdit* m_program = nullptr;
    QLineEdit* m_arguments = nullptr;
    QLineEdit* m_folder = nullptr;
    QLineEdit* m_trace = nullptr;
    QLabel* m_traceNote = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_rate = nullptr;
    QPushButton* m_record = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_close = nullptr;
    QTimer* m_pollTimer = nullptr;
    bool m_traceEdited = false; // the user named the trace: it no longer follows the program and folder
    bool m_recording = false;
    bool m_polling = false; // a count of the parts is under way on a worker
    QString m_partsFolder;
    std::stop_source m_stopSource;
    QElapsedTimer m_clock;
    std::uint64_t m_lastRecords = 0;
    double m_lastSeconds = 0;
};

} // namespace iolab::gui
