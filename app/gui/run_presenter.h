// SPDX-License-Identifier: MIT
#pragma once

#include "app/gui/engine_types.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace iolab::gui {

// The status line and the progress bar: how far the running plan is, weighed by each case's estimated
// duration, how long it has run and about how long it has left; between runs, what the window last did.
class RunPresenter : public QObject
{
    Q_OBJECT

public:
    // Puts its label and bar into `statusBar`.
    explicit RunPresenter(QStatusBar* statusBar, QObject* parent = nullptr);

    QString text() const;
    void setText(const QString& text);

    // A run of the plan whose cases take about `caseSeconds` each (indexed as the plan's cases, which are the
    // run's case numbers) starts, each case with `repetitionsPerCase` repetitions, warm-ups included, then
    // `probeKills` runs of the kill -9 probe (each about half a repetition; none when empty).
    void runStarting(const std::vector<double>& caseSeconds, std::uint32_t repetitionsPerCase,
                     const std::vector<std::uint32_t>& probeKills = {});
    void runStarted(int caseCount);
    void caseStarted(const CaseStarted& started);
    void sample(const Sample& sample);
    void repetitionFinished(const RepetitionFinished& finished);
    // A case is over, whatever it ran (refused, failed, cut short): its whole share counts as done.
    void caseFinished(const CaseResult& result);
    void probeKillStarted(const ProbeKillStarted& kill);
    void stopping();
    bool isStopping() const { return m_stopping; }
    void runFinished(bool cancelled);
    void runFailed();

private:
    // Sets the running case's share done, then redraws.
    void update(double caseFraction);
    void redraw();
    // The running case's share done, after `repetitions` of its repetitions and `kills` of its probe's.
    double caseFraction(double repetitions, double kills) const;
    // The running case's entry in a per-case vector.
    std::size_t current() const { return static_cast<std::size_t>(m_currentCase); }
    bool hasCurrent() const { return m_currentCase >= 0 && current() < m_caseWeights.size(); }

    QLabel* m_label = nullptr;
    QProgressBar* m_bar = nullptr;
    std::vector<double> m_caseWeights;      // estimated seconds per case
    std::vector<double> m_caseSecondsTaken; // what each finished case really took (cases in order)
    std::vector<double> m_caseShareDone;    // per case, 0 to 1
    std::vector<std::uint32_t> m_repsDone;  // per case
    double m_caseStartedAt = 0;             // run clock seconds when the running case started
    int m_caseCount = 0;
    int m_currentCase = -1;
    std::uint32_t m_repsPerCase = 1;
    // Cases that take turns: the round running (its repetition's index) and how many.
    bool m_alternate = false;
    double m_turnsStartedAt = -1; // run clock seconds at the first turn (the preparation is not paced)
    std::uint32_t m_round = 0;
    std::uint32_t m_rounds = 0;
    std::vector<std::uint32_t> m_probeKills; // per case
    std::uint32_t m_killsStarted = 0;        // of the running case's probe
    std::uint32_t m_killsOf = 0;
    std::uint64_t m_caseBytes = 0;
    QString m_caseLabel;
    QElapsedTimer m_runClock;
    bool m_stopping = false;
};

} // namespace iolab::gui
