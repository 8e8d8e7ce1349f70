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
    m_caseShareDone.assign(m_caseWeights.size(), 0.0);
    m_repsDone.assign(m_caseWeights.size(), 0);
    m_caseStartedAt = 0;
    m_currentCase = -1;
    m_alternate = false;
    m_turnsStartedAt = -1;
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
    m_alternate = started.alternate;
    m_round = started.repetition;
    m_rounds = started.repetitions;
    if (m_alternate && m_round < m_rounds && m_turnsStartedAt < 0)
        m_turnsStartedAt = now;
    if (!m_alternate) {
        // In order: the case before is over, whatever it ran, and so is every case before it.
        if (hasCurrent())
            m_caseSecondsTaken[current()] = now - m_caseStartedAt;
        for (std::size_t i = 0; i < std::min<std::size_t>(started.index, m_caseShareDone.size()); ++i)
            m_caseShareDone[i] = 1.0;
    }
    m_caseStartedAt = now;
    m_currentCase = static_cast<int>(started.index);
    m_killsStarted = 0;
    m_caseBytes = started.testCase.totalBytes;
    m_caseLabel = qs(started.testCase.label());
    update(hasCurrent() ? caseFraction(m_repsDone[current()], 0) : 0);
}

void RunPresenter::sample(const Sample& sample)
{
    if (static_cast<int>(sample.caseIndex) == m_currentCase && hasCurrent() && m_caseBytes > 0 &&
        m_killsStarted == 0) {
        const double inRep =
            std::min(1.0, static_cast<double>(sample.bytesDone) / static_cast<double>(m_caseBytes));
        update(caseFraction(m_repsDone[current()] + inRep, 0));
    }
}

void RunPresenter::repetitionFinished(const RepetitionFinished& finished)
{
    if (static_cast<int>(finished.caseIndex) != m_currentCase || !hasCurrent())
        return;
    ++m_repsDone[current()];
    // A repetition that did not succeed ends its case: none of its repetitions is left to wait for.
    update(finished.repetition.outcome.ok() ? caseFraction(m_repsDone[current()], 0) : 1.0);
}

void RunPresenter::caseFinished(const CaseResult& result)
{
    if (result.index >= m_caseShareDone.size())
        return;
    m_caseShareDone[result.index] = 1.0;
    redraw();
}

void RunPresenter::probeKillStarted(const ProbeKillStarted& kill)
{
    if (static_cast<int>(kill.caseIndex) != m_currentCase || !hasCurrent())
        return;
    m_killsStarted = kill.kill;
    m_killsOf = kill.kills;
    update(caseFraction(m_repsPerCase, kill.kill - 1));
}

double RunPresenter::caseFraction(double repetitions, double kills) const
{
    // A probe's run lasts about half a repetition.
    const double probe = current() < m_probeKills.size() ? m_probeKills[current()] : 0.0;
    const double whole = std::max<std::uint32_t>(1, m_repsPerCase) + probe / 2;
    return (repetitions + kills / 2) / whole;
}

void RunPresenter::update(double caseFraction)
{
    if (!hasCurrent())
        return;
    m_caseShareDone[current()] = std::clamp(caseFraction, 0.0, 1.0);
    redraw();
}

void RunPresenter::redraw()
{
    if (!hasCurrent())
        return;
    double total = 0;
    double done = 0;
    for (std::size_t i = 0; i < m_caseWeights.size(); ++i) {
        total += m_caseWeights[i];
        done += m_caseWeights[i] * m_caseShareDone[i];
    }
    const double fraction = total > 0 ? done / total : 0;
    m_bar->setValue(static_cast<int>(fraction * 1000));
    const double elapsed = static_cast<double>(m_runClock.elapsed()) / 1000.0;
    double remaining = 0;
    if (m_alternate) {
        remaining = estimateSecondsLeftInTurns(m_caseWeights, m_caseShareDone,
                                               m_turnsStartedAt < 0 ? 0.0 : elapsed - m_turnsStartedAt);
    } else {
        const std::vector<double> finished(
            m_caseSecondsTaken.begin(), m_caseSecondsTaken.begin() + static_cast<std::ptrdiff_t>(current()));
        remaining = estimateSecondsLeft(m_caseWeights, finished, current(), elapsed - m_caseStartedAt);
    }
    if (m_stopping)
        return;
    const QString probe = m_killsStarted == 0
                              ? QString()
                              : tr(" · kill -9 probe: kill %1 of %2").arg(m_killsStarted).arg(m_killsOf);
    // Cases that take turns: the round first (its repetition of each case), then the case whose turn it is.
    const QString round = m_alternate && m_round < m_rounds
                              ? tr("Round %1 of %2 · ").arg(m_round + 1).arg(m_rounds)
                              : QString();
    m_label->setText(
        tr("%1Case %2 of %3: %4%5 · %6 elapsed · about %7 left")
            .arg(round)
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
