// SPDX-License-Identifier: MIT
#include "app/report/chart_axis.h"
#include "app/report/qt_text.h"

#include "core/base/units.h"

#include <algorithm>
#include <stdexcept>

namespace iolab::report {

namespace {

bool varies(const std::vector<CaseResult>& cases, const AxisSpec& axis)
{
    if (cases.empty())
        return false;
    const AxisValue first = numericValue(axis, cases.front().testCase);
    return std::any_of(cases.begin() + 1, cases.end(),
                       [&](const CaseResult& c) { return numericValue(axis, c.testCase) != first; });
}

} // namespace

ChartAxis ChartAxis::of(const AxisSpec& axis)
{
    return {axis.resultKey, qs(chartName(axis)), axis.kind};
}

ChartAxis ChartAxis::first()
{
    const auto& automatic = automaticChartAxes();
    if (automatic.empty()) // the built-in declarations give chunk size and threads a rank
        throw std::logic_error("no axis is declared as a chart's automatic choice");
    return of(*automatic.front());
}

AxisValue ChartAxis::valueOf(const Case& c) const
{
    const AxisSpec* axis = findAxisByResultKey(key);
    return axis != nullptr ? numericValue(*axis, c) : std::nullopt;
}

QString ChartAxis::label(AxisValue value) const
{
    if (!value)
        return QStringLiteral("n/a");
    return kind == AxisValueKind::Bytes ? qs(formatBytesCompact(*value)) : QString::number(*value);
}

QString ChartAxis::words(AxisValue value) const
{
    if (!value)
        return QStringLiteral("no %1").arg(name);
    const QString number = kind == AxisValueKind::Bytes ? qs(formatBytes(*value)) : QString::number(*value);
    return QStringLiteral("%1 %2").arg(number, name);
}

QString ChartAxis::title() const
{
    QString text = name;
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

std::vector<AxisValue> axisValues(const std::vector<CaseResult>& cases, const ChartAxis& axis)
{
    std::vector<AxisValue> values;
    const AxisSpec* spec = findAxisByResultKey(axis.key);
    for (const auto& c : cases) {
        const AxisValue v = spec != nullptr ? numericValue(*spec, c.testCase) : std::nullopt;
        if (std::find(values.begin(), values.end(), v) == values.end())
            values.push_back(v);
    }
    std::sort(values.begin(), values.end());
    return values;
}

std::vector<ChartAxis> varyingAxes(const std::vector<CaseResult>& cases)
{
    std::vector<ChartAxis> out;
    for (const AxisSpec* axis : numericAxes()) {
        if (varies(cases, *axis))
            out.push_back(ChartAxis::of(*axis));
    }
    return out;
}

ChartAxis preferredAxis(const std::vector<CaseResult>& cases)
{
    for (const AxisSpec* axis : automaticChartAxes()) {
        if (varies(cases, *axis))
            return ChartAxis::of(*axis);
    }
    return ChartAxis::first();
}

} // namespace iolab::report
