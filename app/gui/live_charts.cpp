// SPDX-License-Identifier: MIT
#include "app/gui/live_charts.h"

#include "core/base/units.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <QHBoxLayout>
#include <QLabel>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace iolab::gui {

namespace {

// 10^exponent, exact where a double can be (|exponent| <= 22): the mingw build's std::pow(10.0, -2.0) is
// 0.010000000000000002, which made a ceiling of 0.07 come out a hair above 0.1.
double powerOfTen(int exponent)
{
    double power = 1;
    for (int i = 0; i < std::abs(exponent); ++i)
        power *= 10;
    return exponent < 0 ? 1 / power : power;
}

} // namespace

double niceCeiling(double value)
{
    if (!(value > 0))
        return 1;
    const double magnitude = powerOfTen(static_cast<int>(std::floor(std::log10(value))));
    for (double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * magnitude >= value)
            return step * magnitude;
    }
    return 10 * magnitude;
}

void PointBuffer::append(QPointF p)
{
    // The last point is the running average of a bucket of up to m_factor samples; the others are full ones.
    if (m_pendingCount == 0) {
        m_points.push_back(p);
        m_pendingSum = p;
    } else {
        m_pendingSum += p;
        m_points.back() = m_pendingSum / static_cast<double>(m_pendingCount + 1);
    }
    m_pendingCount = m_pendingCount + 1 == m_factor ? 0 : m_pendingCount + 1;
    m_dirty = true;
    if (m_window > 0) {
        const double oldest = p.x() - m_window;
        const auto keep =
            std::find_if(m_points.begin(), m_points.end(), [&](QPointF q) { return q.x() >= oldest; });
        m_points.erase(m_points.begin(), keep);
    }
    if (m_points.size() <= m_capacity)
        return;
    // Average neighbours in pairs across the whole buffer and double the bucket size, so that every point
    // stands for the same number of samples, old or new.
    const double full = static_cast<double>(m_factor);
    const double last = m_pendingCount == 0 ? full : static_cast<double>(m_pendingCount);
    std::vector<QPointF> out;
    out.reserve(m_capacity);
    const std::size_t n = m_points.size();
    for (std::size_t i = 0; i + 1 < n; i += 2) {
        const double weight = i + 2 == n ? last : full;
        out.push_back((m_points[i] * full + m_points[i + 1] * weight) / (full + weight));
    }
    double lastSamples = full + last;
    if (n % 2 == 1) {
        out.push_back(m_points.back());
        lastSamples = last;
    }
    m_points = std::move(out);
    m_factor *= 2;
    const auto samples = static_cast<std::size_t>(lastSamples);
    m_pendingCount = samples == m_factor ? 0 : samples;
    m_pendingSum = m_points.back() * lastSamples;
}

void PointBuffer::clear()
{
    m_points.clear();
    m_factor = 1;
    m_pendingCount = 0;
    m_dirty = true;
}

bool PointBuffer::takeDirty()
{
    return std::exchange(m_dirty, false);
}

double PointBuffer::maxY() const
{
    double y = 0;
    for (const auto& p : m_points)
        y = std::max(y, p.y());
    return y;
}

void setNiceRange(QValueAxis* axis, double low, double high)
{
    const double span = std::max(high - low, 1e-9);
    const double step = niceCeiling(span / 5);
    const double anchor = std::floor(low / step) * step;
    const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step)));
    // Qt Charts lays out ticks on every change: change range and step in the order that never pairs a wide
    // range with a fine step, or a single update creates tens of thousands of tick items.
    if (axis->tickType() == QValueAxis::TicksDynamic && step < axis->tickInterval()) {
        axis->setRange(low, high);
        axis->setTickAnchor(anchor);
        axis->setTickInterval(step);
    } else {
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(anchor);
        axis->setTickInterval(step);
        axis->setRange(low, high);
    }
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

LiveCharts::LiveCharts(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_throughputChart = makeChart(tr("Throughput"), tr("seconds into the case"), tr("MB/s"));
    m_apparent = addSeries(m_throughputChart, tr("apparent (bytes handed to the API)"));
    m_device = addSeries(m_throughputChart, tr("device (read + written)"));
    m_cpuChart =
        makeChart(tr("CPU of the process running the case"), tr("seconds into the run"), tr("% of one core"));
    m_cpuUser = addSeries(m_cpuChart, tr("user"));
    m_cpuSystem = addSeries(m_cpuChart, tr("system"));
    m_memoryChart = makeChart(tr("Memory"), tr("seconds into the run"), tr("MiB"));
    m_rss = addSeries(m_memoryChart, tr("process RSS"));
    m_dirty = addSeries(m_memoryChart, tr("system Dirty + Writeback"));
    m_atRisk = addSeries(m_memoryChart, tr("at risk (acknowledged, not yet durable)"));
    m_budgetUsage = addSeries(m_memoryChart, tr("cgroup"));
    m_budgetCache = addSeries(m_memoryChart, tr("cgroup cache"));
    m_budgetDirty = addSeries(m_memoryChart, tr("cgroup dirty"));
    for (QLineSeries* s : {m_budgetUsage, m_budgetCache, m_budgetDirty})
        s->setVisible(false);
    layout->addWidget(m_throughputChart.box, 3);
    // CPU and memory side by side: stacked, each is too short on a 768-pixel screen to label its axis.
    auto* lower = new QHBoxLayout;
    lower->setSpacing(2);
    // The memory chart is the wider: its legend names three lines, one of them long.
    lower->addWidget(m_cpuChart.box, 2);
    lower->addWidget(m_memoryChart.box, 3);
    layout->addLayout(lower, 2);
    setDark(false);

    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &LiveCharts::flush);
}

LiveCharts::Chart LiveCharts::makeChart(const QString& title, const QString& xTitle, const QString& yTitle)
{
    Chart c;
    c.chart = new QChart;
    c.chart->setTitle(title);
    c.chart->legend()->setAlignment(Qt::AlignBottom);
    c.chart->setMargins(QMargins(4, 4, 4, 4));
    c.chart->setAnimationOptions(QChart::NoAnimation);
    c.x = new QValueAxis;
    c.x->setTitleText(xTitle);
    setNiceRange(c.x, 0, 10);
    c.y = new QValueAxis;
    c.y->setTitleText(yTitle);
    setNiceRange(c.y, 0, 1);
    c.chart->addAxis(c.x, Qt::AlignBottom);
    c.chart->addAxis(c.y, Qt::AlignLeft);
    // Qt's legend elides what does not fit on its one line: a label under the chart wraps instead.
    c.chart->legend()->hide();
    c.box = new QWidget(this);
    auto* boxLayout = new QVBoxLayout(c.box);
    boxLayout->setContentsMargins(0, 0, 0, 0);
    boxLayout->setSpacing(0);
    c.view = new QChartView(c.chart, c.box);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->setMinimumHeight(130);
    boxLayout->addWidget(c.view, 1);
    c.legend = new QLabel(c.box);
    c.legend->setWordWrap(true);
    c.legend->setTextFormat(Qt::RichText);
    c.legend->setAlignment(Qt::AlignHCenter);
    c.legend->setContentsMargins(6, 2, 6, 4);
    boxLayout->addWidget(c.legend);
    return c;
}

QLineSeries* LiveCharts::addSeries(Chart& chart, const QString& name)
{
    auto* series = new QLineSeries;
    series->setName(name);
    series->setUseOpenGL(false);
    chart.chart->addSeries(series);
    series->attachAxis(chart.x);
    series->attachAxis(chart.y);
    return series;
}

void LiveCharts::setDark(bool dark)
{
    m_dark = dark;
    for (Chart* c : {&m_throughputChart, &m_cpuChart, &m_memoryChart}) {
        c->chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        c->chart->setBackgroundRoundness(0);
        c->chart->setAnimationOptions(QChart::NoAnimation);
    }
    // Fixed colours, legible on both backgrounds, the same meaning in every chart.
    const QColor primary(dark ? QColor(0x4f, 0xc3, 0xf7) : QColor(0x1f, 0x6f, 0xb4));
    const QColor secondary(dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xd3, 0x6b, 0x00));
    auto style = [](QLineSeries* s, const QColor& colour, Qt::PenStyle penStyle) {
        QPen pen(colour);
        pen.setWidthF(2);
        pen.setStyle(penStyle);
        s->setPen(pen);
    };
    style(m_apparent, primary, Qt::SolidLine);
    style(m_device, secondary, Qt::DashLine);
    style(m_cpuUser, primary, Qt::SolidLine);
    style(m_cpuSystem, secondary, Qt::SolidLine);
    style(m_rss, primary, Qt::SolidLine);
    style(m_dirty, secondary, Qt::SolidLine);
    style(m_atRisk, dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28), Qt::DashLine);
    const QColor budget = dark ? QColor(0x66, 0xbb, 0x6a) : QColor(0x2e, 0x7d, 0x32);
    style(m_budgetUsage, budget, Qt::SolidLine);
    style(m_budgetCache, budget, Qt::DashLine);
    style(m_budgetDirty, budget, Qt::DotLine);
    restyleFaded();
    rebuildLegends();
}

void LiveCharts::rebuildLegends()
{
    for (Chart* c : {&m_throughputChart, &m_cpuChart, &m_memoryChart}) {
        QStringList entries;
        for (QAbstractSeries* series : c->chart->series()) {
            auto* line = qobject_cast<QLineSeries*>(series);
            if (line == nullptr || !line->isVisible() ||
                std::find(m_faded.begin(), m_faded.end(), line) != m_faded.end())
                continue;
            const QPen pen = line->pen();
            const QString swatch = pen.style() == Qt::DashLine  ? QStringLiteral("\u254D\u254D")
                                   : pen.style() == Qt::DotLine ? QStringLiteral("\u2505\u2505")
                                                                : QStringLiteral("\u2501\u2501");
            // The swatch stays with the name's first word; the name wraps only where it must.
            entries << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                           .arg(pen.color().name(), swatch, line->name().toHtmlEscaped());
        }
        c->legend->setText(entries.join(QStringLiteral(" &nbsp;&nbsp; ")));
    }
}

QStringList LiveCharts::legendTexts() const
{
    QStringList texts;
    for (const Chart* c : {&m_throughputChart, &m_cpuChart, &m_memoryChart}) {
        QTextDocument document;
        document.setHtml(c->legend->text());
        texts << document.toPlainText();
    }
    return texts;
}

void LiveCharts::restyleFaded()
{
    QColor faded = m_dark ? QColor(200, 200, 200) : QColor(90, 90, 90);
    for (std::size_t i = 0; i < m_faded.size(); ++i) {
        // Older cases fade further.
        faded.setAlphaF(0.15F + 0.25F * static_cast<float>(i + 1) / static_cast<float>(m_faded.size()));
        QPen pen(faded);
        pen.setWidthF(1.2);
        m_faded[i]->setPen(pen);
    }
}

void LiveCharts::runStarted()
{
    for (auto* series : m_faded) {
        m_throughputChart.chart->removeSeries(series);
        delete series;
    }
    m_faded.clear();
    for (PointBuffer* b :
         {&m_apparentPoints, &m_devicePoints, &m_cpuUserPoints, &m_cpuSystemPoints, &m_rssPoints,
          &m_dirtyPoints, &m_atRiskPoints, &m_budgetUsagePoints, &m_budgetCachePoints, &m_budgetDirtyPoints})
        b->clear();
    for (QLineSeries* s : {m_budgetUsage, m_budgetCache, m_budgetDirty})
        s->setVisible(false);
    rebuildLegends();
    m_caseIndex = -1;
    m_caseStartSeconds = -1;
    m_lastRunSeconds = 0;
    m_caseTitle.clear();
    flush();
    m_refresh.start();
}

void LiveCharts::fadeCurrentCase()
{
    if (m_apparentPoints.points().empty())
        return;
    auto* series = new QLineSeries;
    series->setName(m_caseTitle);
    // A faded copy needs only the shape: a few hundred points.
    const auto& points = m_apparentPoints.points();
    const std::size_t step = std::max<std::size_t>(1, points.size() / 300);
    QList<QPointF> coarse;
    for (std::size_t i = 0; i < points.size(); i += step)
        coarse.append(points[i]);
    series->replace(coarse);
    m_throughputChart.chart->addSeries(series);
    series->attachAxis(m_throughputChart.x);
    series->attachAxis(m_throughputChart.y);
    for (auto* marker : m_throughputChart.chart->legend()->markers(series))
        marker->setVisible(false);
    m_faded.push_back(series);
    if (m_faded.size() > static_cast<std::size_t>(kFadedCases)) {
        m_throughputChart.chart->removeSeries(m_faded.front());
        delete m_faded.front();
        m_faded.erase(m_faded.begin());
    }
    restyleFaded();
}

void LiveCharts::caseStarted(const CaseStarted& started)
{
    fadeCurrentCase();
    m_apparentPoints.clear();
    m_devicePoints.clear();
    m_caseIndex = started.index;
    m_caseStartSeconds = -1;
    m_caseTitle = tr("case %1/%2: %3")
                      .arg(started.index + 1)
                      .arg(started.count)
                      .arg(QString::fromStdString(started.testCase.label()));
    // Cases that take turns: each turn is one repetition, drawn from its own start (the turns before fade).
    if (started.alternate && started.repetition < started.repetitions)
        m_caseTitle += tr(", round %1 of %2").arg(started.repetition + 1).arg(started.repetitions);
    flush();
}

void LiveCharts::addSample(const Sample& sample)
{
    if (static_cast<std::int64_t>(sample.caseIndex) == m_caseIndex) {
        if (m_caseStartSeconds < 0)
            m_caseStartSeconds = sample.runSeconds;
        const double t = sample.runSeconds - m_caseStartSeconds;
        m_apparentPoints.append({t, sample.intervalMBps});
        m_devicePoints.append({t, sample.deviceWriteMBps + sample.deviceReadMBps});
    }
    m_warmup = sample.warmup;
    m_syncing = sample.syncing;
    m_lastRunSeconds = sample.runSeconds;
    m_cpuUserPoints.append({sample.runSeconds, sample.cpuUserPercent});
    m_cpuSystemPoints.append({sample.runSeconds, sample.cpuSystemPercent});
    m_rssPoints.append({sample.runSeconds, static_cast<double>(sample.rssBytes) / static_cast<double>(kMiB)});
    m_dirtyPoints.append({sample.runSeconds, static_cast<double>(sample.dirtyBytes + sample.writebackBytes) /
                                                 static_cast<double>(kMiB)});
    m_atRiskPoints.append(
        {sample.runSeconds, static_cast<double>(sample.atRiskBytes) / static_cast<double>(kMiB)});
    if (sample.budgetUsageBytes != 0 || !m_budgetUsagePoints.points().empty()) {
        const auto mib = [](std::uint64_t bytes) {
            return static_cast<double>(bytes) / static_cast<double>(kMiB);
        };
        m_budgetUsagePoints.append({sample.runSeconds, mib(sample.budgetUsageBytes)});
        m_budgetCachePoints.append({sample.runSeconds, mib(sample.budgetPageCacheBytes)});
        m_budgetDirtyPoints.append(
            {sample.runSeconds, mib(sample.budgetDirtyBytes + sample.budgetWritebackBytes)});
        if (!m_budgetUsage->isVisible()) {
            for (QLineSeries* s : {m_budgetUsage, m_budgetCache, m_budgetDirty})
                s->setVisible(true);
            rebuildLegends();
        }
    }
}

void LiveCharts::runFinished()
{
    flush();
    m_refresh.stop();
}

void LiveCharts::flush()
{
    auto push = [](PointBuffer& buffer, QLineSeries* series) {
        if (!buffer.takeDirty())
            return;
        const auto& points = buffer.points();
        series->replace(QList<QPointF>(points.begin(), points.end()));
    };
    push(m_apparentPoints, m_apparent);
    push(m_devicePoints, m_device);
    push(m_cpuUserPoints, m_cpuUser);
    push(m_cpuSystemPoints, m_cpuSystem);
    push(m_rssPoints, m_rss);
    push(m_dirtyPoints, m_dirty);
    push(m_atRiskPoints, m_atRisk);
    push(m_budgetUsagePoints, m_budgetUsage);
    push(m_budgetCachePoints, m_budgetCache);
    push(m_budgetDirtyPoints, m_budgetDirty);

    // Throughput: the running case and the faded ones share "seconds into the case".
    // The running case sets the scale once it has a few points; faded cases that are far faster run off the
    // top rather than flatten the one being measured.
    // The time axis fits the running case as soon as it has two points (and the last case at the end of the
    // run, however short): an earlier, longer case runs off the right instead of squashing it against 0.
    const auto& current = m_apparentPoints.points();
    const bool currentSetsTime = current.size() >= 2;
    const bool currentSetsScale = current.size() >= 5;
    double caseSeconds = current.empty() ? 0 : current.back().x();
    double yMax = std::max(m_apparentPoints.maxY(), m_devicePoints.maxY());
    for (auto* faded : m_faded) {
        for (const auto& p : faded->points()) {
            if (!currentSetsTime)
                caseSeconds = std::max(caseSeconds, p.x());
            if (!currentSetsScale)
                yMax = std::max(yMax, p.y());
        }
    }
    setNiceRange(m_throughputChart.x, 0,
                 currentSetsTime ? niceCeiling(std::max(1.0, caseSeconds))
                                 : std::max(5.0, std::ceil(caseSeconds)));
    setNiceRange(m_throughputChart.y, 0, niceCeiling(std::max(yMax * 1.05, 1.0)));
    QString phase;
    if (m_syncing)
        phase = tr(" (final fsync)");
    else if (m_warmup)
        phase = tr(" (warm-up)");
    m_throughputChart.chart->setTitle(m_caseTitle.isEmpty() ? tr("Throughput") : m_caseTitle + phase);

    const double right = std::max(10.0, std::ceil(m_lastRunSeconds));
    const double left = std::max(0.0, right - kWindowSeconds);
    setNiceRange(m_cpuChart.x, left, right);
    setNiceRange(m_memoryChart.x, left, right);
    setNiceRange(m_cpuChart.y, 0,
                 std::max(100.0, niceCeiling(std::max(m_cpuUserPoints.maxY(), m_cpuSystemPoints.maxY()))));
    setNiceRange(m_memoryChart.y, 0,
                 niceCeiling(std::max(1.0, std::max({m_rssPoints.maxY(), m_dirtyPoints.maxY(),
                                                     m_atRiskPoints.maxY(), m_budgetUsagePoints.maxY()}) *
                                               1.05)));
}

std::size_t LiveCharts::pointsHeld() const
{
    std::size_t n = 0;
    for (const PointBuffer* b :
         {&m_apparentPoints, &m_devicePoints, &m_cpuUserPoints, &m_cpuSystemPoints, &m_rssPoints,
          &m_dirtyPoints, &m_atRiskPoints, &m_budgetUsagePoints, &m_budgetCachePoints, &m_budgetDirtyPoints})
        n += b->points().size();
    for (QLineSeries* s : {m_apparent, m_device, m_cpuUser, m_cpuSystem, m_rss, m_dirty, m_atRisk,
                           m_budgetUsage, m_budgetCache, m_budgetDirty})
        n += static_cast<std::size_t>(s->count());
    for (auto* s : m_faded)
        n += static_cast<std::size_t>(s->count());
    return n;
}

} // namespace iolab::gui
