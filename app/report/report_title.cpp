// SPDX-License-Identifier: MIT
#include "app/report/report_title.h"

#include "core/base/units.h"

#include <QStringList>

#include <algorithm>

namespace iolab::report {

namespace {

// The name the CLI gives a matrix built from its axis options; older results carry it too.
constexpr const char* kAdHocName = "command line";

// "a", "a and b", "a, b and c".
QString listText(const QStringList& items)
{
    if (items.size() <= 1)
        return items.join(QString());
    return QStringList(items.begin(), items.end() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") +
           items.back();
}

QString describe(const RunResult& result)
{
    QStringList strategies;
    std::vector<std::uint64_t> chunks;
    auto addStrategy = [&](const std::string& s) {
        if (!strategies.contains(QString::fromStdString(s)))
            strategies << QString::fromStdString(s);
    };
    auto addChunk = [&](std::uint64_t c) {
        if (std::find(chunks.begin(), chunks.end(), c) == chunks.end())
            chunks.push_back(c);
    };
    for (const auto& g : result.matrix.groups) {
        for (const auto& s : g.strategies)
            addStrategy(s);
        for (const auto c : g.chunks)
            addChunk(c);
    }
    if (strategies.isEmpty()) {
        for (const auto& c : result.cases) {
            addStrategy(c.testCase.strategy);
            addChunk(c.testCase.chunkBytes);
        }
    }
    if (strategies.isEmpty())
        return QStringLiteral("an empty matrix");
    std::sort(chunks.begin(), chunks.end());
    constexpr qsizetype kNamed = 4;
    QString who = strategies.size() <= kNamed ? listText(strategies)
                                              : QStringLiteral("%1 strategies").arg(strategies.size());
    QStringList sizes;
    for (const auto c : chunks)
        sizes << QString::fromStdString(formatBytes(c));
    if (sizes.isEmpty())
        return who;
    const QString at = sizes.size() <= 3 ? listText(sizes)
                                         : QStringLiteral("%1 chunk sizes from %2 to %3")
                                               .arg(sizes.size())
                                               .arg(sizes.front(), sizes.back());
    return QStringLiteral("%1 at %2").arg(who, at);
}

} // namespace

QString matrixTitle(const RunResult& result)
{
    const std::string& name = result.matrix.name;
    if (name.empty() || name == kAdHocName)
        return describe(result);
    return QString::fromStdString(name);
}

QString reportTitle(const RunResult& result)
{
    return QStringLiteral("IOLab report: %1").arg(matrixTitle(result));
}

} // namespace iolab::report
