// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/result.h"

#include <QObject>
#include <QString>

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

    // Writes `result` to `path`; "" or why it failed.
    QString write(const RunResult& result, const QString& path) const;
    // Writes and says so: statusChanged with where it went or why not, and failed when it failed.
    bool exportTo(const RunResult& result, const QString& path);
    // Asks where (the Export dialog over `parent`) and exports there.
    void choose(QWidget* parent, const RunResult& result);

Q_SIGNALS:
    void statusChanged(const QString& text);
    void failed(const QString& text);

private:
    const Registry& m_registry;
    QString m_lastFolder;
};

} // namespace iolab::gui
