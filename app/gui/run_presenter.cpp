// SPDX-License-Identifier: MIT
#include "app/gui/run_presenter.h"
#include "app/gui/widget_helpers.h"

#include "core/analysis/estimate.h"
#include "core/base/units.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <algorithm>

namespace iolab::gui {

RunPresenter::RunPresenter(QStatusBar* statusBar, QObject* parent) : QObject(parent)
{
    m_label = new QLabel(tr("Idle"), statusBar);
    m_bar = new QProgressBar(statusBar);
    m_bar->setRange(0, 1000);
    m_bar->setMaximumWidth(320);
    m_bar->setTextVisible(false);
    statusBar->addWidget(m_label, 1);
    statusBar->addPermanentWidget(m_bar);
}

QString RunPresenter::text() const
{
    return m_label->text();
}

void RunPresenter::setText(const QString& text)
{
    m_label->setText(text);
}

void RunPresenter::runStarting(const std::vector<double>& caseSeconds, std::uint32_t repetitionsPerCase,
                               const std::vector<std::uint32_t>& probeKills)
{
    m_probeKills = probeKills;
    m_stopping = false;
    m_caseWeights = caseSeconds;
    m_caseCount = static_cast<int>(caseSeconds.size());
    m_caseSecondsTaken.assign(m_caseWeights.size(), 0.0);
    m_caseStartedAt = 0;
    m_currentCase = -1;
    m_repsPerCase = repetitionsPerCase;
    m_runClock.start();
    m_bar->setValue(0);
    m_label->setText(tr("Starting..."));
}

void RunPresenter::runStarted(int caseCount)
{
    m_caseCount = caseCount;
}

void RunPresenter::caseStarted(const CaseStarted& started)
{
    const double now = static_cast<double>(m_runClock.elapsed()) / 1000.0;
    if (m_currentCase >= 0 && static_cast<std::size_t>(m_currentCase) < m_caseSecondsTaken.size())
        m_caseSecondsTaken[static_cast<std::size_t>(m_currentCase)] = now - m_caseStartedAt;
    m_caseStartedAt = now;
    m_currentCase = static_cast<int>(started.index);
    m_repsDone = 0;
    m_killsStarted = 0;
    m_caseBytes = started.testCase.totalBytes;
    m_caseLabel = qs(started.testCase.label());
    update(0);
}

void RunPresenter::sample(const Sample& sample)
{
    if (static_cast<int>(sample.caseIndex) == m_currentCase && m_caseBytes > 0 && m_killsStarted == 0) {
        const double inRep =
            std::min(1.0, static_cast<double>(sample.bytesDone) / static_cast<double>(m_caseBytes));
        update(caseFraction(m_repsDone + inRep, 0));
    }
}

void RunPresenter::repetitionFinished(const RepetitionFinished& finished)
{
    if (static_cast<int>(finished.caseIndex) != m_currentCase)
        return;
    ++m_repsDone;
    update(caseFraction(m_repsDone, 0));
}

void RunPresenter::probeKillStarted(const ProbeKillStarted& kill)
{
    if (static_cast<int>(kill.caseIndex) != m_currentCase)
        return;
    m_killsStarted = kill.kill;
    m_killsOf = kill.kills;
    update(caseFraction(m_repsPerCase, kill.kill - 1));
}

double RunPresenter::caseFraction(double repetitions, double kills) const
{
    // A probe's run lasts about half a repetition.
    const auto index = static_cast<std::size_t>(m_currentCase);
    const double probe = index < m_probeKills.size() ? m_probeKills[index] : 0.0;
    const double whole = std::max<std::uint32_t>(1, m_repsPerCase) + probe / 2;
    return (repetitions + kills / 2) / whole;
}

void RunPresenter::update(double caseFraction)
{
    if (m_currentCase < 0 || m_caseWeights.empty())
        return;
    double total = 0;
    for (double w : m_caseWeights)
        total += w;
    const auto index =
        static_cast<std::size_t>(std::min<int>(m_currentCase, static_cast<int>(m_caseWeights.size()) - 1));
    double done = 0;
    for (std::size_t i = 0; i < index; ++i)
        done += m_caseWeights[i];
    done += m_caseWeights[index] * std::clamp(caseFraction, 0.0, 1.0);
    const double fraction = total > 0 ? done / total : 0;
    m_bar->setValue(static_cast<int>(fraction * 1000));
    const double elapsed = static_cast<double>(m_runClock.elapsed()) / 1000.0;
    const std::vector<double> finished(m_caseSecondsTaken.begin(),
                                       m_caseSecondsTaken.begin() + static_cast<std::ptrdiff_t>(index));
    const double remaining = estimateSecondsLeft(m_caseWeights, finished, index, elapsed - m_caseStartedAt);
    if (m_stopping)
        return;
    const QString probe = m_killsStarted == 0
                              ? QString()
                              : tr(" · kill -9 probe: kill %1 of %2").arg(m_killsStarted).arg(m_killsOf);
    m_label->setText(
        tr("Case %1 of %2: %3%4 · %5 elapsed · about %6 left")
            .arg(m_currentCase + 1)
            .arg(m_caseCount)
            .arg(m_caseLabel, probe, qs(formatDuration(elapsed)), qs(formatDuration(remaining))));
}

void RunPresenter::stopping()
{
    m_stopping = true;
    m_label->setText(tr("Stopping: removing the run's files..."));
}

void RunPresenter::runFinished(bool cancelled)
{
    m_stopping = false;
    m_bar->setValue(cancelled ? m_bar->value() : 1000);
    m_label->setText(cancelled
                         ? tr("Stopped; the run's files were removed.")
                         : tr("Finished in %1.")
                               .arg(qs(formatDuration(static_cast<double>(m_runClock.elapsed()) / 1000.0))));
}

void RunPresenter::runFailed()
{
    m_stopping = false;
    m_label->setText(tr("The run did not start."));
}

} // namespace iolab::gui
