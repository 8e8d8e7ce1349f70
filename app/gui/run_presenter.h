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
    void probeKillStarted(const ProbeKillStarted& kill);
    void stopping();
    bool isStopping() const { return m_stopping; }
    void runFinished(bool cancelled);
    void runFailed();

private:
    void update(double caseFraction);
    // The running case's share done, after `repetitions` of its repetitions and `kills` of its probe's.
    double caseFraction(double repetitions, double kills) const;

    QLabel* m_label = nullptr;
    QProgressBar* m_bar = nullptr;
    std::vector<double> m_caseWeights;      // estimated seconds per case
    std::vector<double> m_caseSecondsTaken; // what each finished case really took
    double m_caseStartedAt = 0;             // run clock seconds when the running case started
    int m_caseCount = 0;
    int m_currentCase = -1;
    std::uint32_t m_repsPerCase = 1;
    std::uint32_t m_repsDone = 0;
    std::vector<std::uint32_t> m_probeKills; // per case
    std::uint32_t m_killsStarted = 0;        // of the running case's probe
    std::uint32_t m_killsOf = 0;
    std::uint64_t m_caseBytes = 0;
    QString m_caseLabel;
    QElapsedTimer m_runClock;
    bool m_stopping = false;
};

} // namespace iolab::gui
