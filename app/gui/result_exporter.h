// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace iolab {
class Registry;
}

namespace iolab::gui {

// Export: the Export dialog (PDF, JSON or CSV; the name follows the type; it opens where the last export
// went) and the writing of a result in the format its file name asks for.
class ResultExporter : public QObject
{
    Q_OBJECT

public:
    // `registry` is the process's one registry; it outlives the exporter.
    explicit ResultExporter(const Registry& registry, QObject* parent = nullptr);

    // Writes a result to a path on a worker thread; "" or why it failed.
    using Writer = std::function<QString(const RunResult& result, const QString& path)>;

    // Writes `result` to `path` off the GUI thread and says so: statusChanged "Exporting to ..." now, then,
    // queued, statusChanged with where it went or why not, failed when it failed, and finished.
    void exportTo(const RunResult& result, const QString& path);
    // True while an export is being written.
    bool isExporting() const { return m_writing > 0; }
    // Tests hold the writing back with it; it runs on the worker thread.
    void setWriter(Writer writer) { m_writer = std::move(writer); }
    // Asks where (the Export dialog over `parent`) and exports there. `forSharing`: the result made fit to
    // share first (core/formats/result_redact.h), the dialog saying so.
    void choose(QWidget* parent, const RunResult& result, bool forSharing = false);

Q_SIGNALS:
    void statusChanged(const QString& text);
    void failed(const QString& text);
    // An export is over: `error` is "" when it was written.
    void finished(const QString& path, const QString& error);

private:
    void written(const QString& path, const QString& error);

    Writer m_writer;
    int m_writing = 0;
    QString m_lastFolder;
};

} // namespace iolab::gui
