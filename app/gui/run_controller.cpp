// SPDX-License-Identifier: MIT
#include "app/gui/run_controller.h"

#include "app/common/plan_runner.h"
#include "core/base/error.h"
#include "core/base/log.h"
#include "core/engine/registry.h"
#include "platform/platform.h"

#include <QMetaObject>

#include <algorithm>
#include <filesystem>
#include <stop_token>
#include <thread>

namespace iolab::gui {

// One run's stop request and its end, shared by the controller and the run's detached thread.
// Forwards engine callbacks to the controller's thread, tagged with the run. The controller outlives every
// call made here: it waits for a run still going when it is destroyed, and a run that is over makes no more.
// invokeMethod drops a call whose context object is gone, and the call drops itself when it is from an older
// run than the controller's.
class QueuedObserver final : public RunObserver
{
public:
    QueuedObserver(RunController* controller, std::uint64_t run) : m_controller(controller), m_run(run) {}

    void caseStarted(const CaseStarted& started) override
    {
        post([started](RunController* c) { Q_EMIT c->caseStarted(started); });
    }
    void sample(const Sample& sample) override
    {
        post([sample](RunController* c) { Q_EMIT c->sampleArrived(sample); });
    }
    void repetitionFinished(const RepetitionFinished& finished) override
    {
        post([finished](RunController* c) { Q_EMIT c->repetitionFinished(finished); });
    }
    void probeKillStarted(const ProbeKillStarted& kill) override
    {
        post([kill](RunController* c) { Q_EMIT c->probeKillStarted(kill); });
    }
    void caseFinished(const CaseResult& result) override
    {
        post([result](RunController* c) { Q_EMIT c->caseFinished(result); });
    }
    // The run's last call: the controller is no longer running when its signal goes out.
    template <class F> void postLast(F&& f)
    {
        post([run = m_run, f = std::forward<F>(f)](RunController* c) {
            c->finished(run);
            f(c);
        });
    }

    template <class F> void post(F&& f)
    {
        RunController* controller = m_controller;
        QMetaObject::invokeMethod(
            controller,
            [controller, run = m_run, f = std::forward<F>(f)] {
                if (controller->m_runId == run)
                    f(controller);
            },
            Qt::QueuedConnection);
    }

private:
    RunController* m_controller;
    std::uint64_t m_run;
};

namespace {

// The body of a run's thread. Every engine object is gone before the last call is posted.
void runPlan(const Registry& registry, const std::stop_token& stop, const RunPlan& plan,
             const RunOptions& options, QueuedObserver& observer)
{
    try {
        // The target was inspected and probed when the plan was made; only its still being there is checked.
        const bool writesFiles = std::any_of(plan.cases().begin(), plan.cases().end(),
                                             [](const Case& c) { return c.target == TargetKind::Directory; });
        std::error_code error;
        if (writesFiles && !std::filesystem::is_directory(std::filesystem::path(plan.target.path), error))
            throw InputError(plan.target.path +
                             " does not exist any more (it was there when the run was planned)");
        const int caseCount = static_cast<int>(plan.cases().size());
        const QString folder = QString::fromStdString(plan.target.path);
        observer.post([caseCount, refused = plan.refused(), folder](RunController* c) {
            Q_EMIT c->runStarted(caseCount, refused, folder);
        });
        // On this worker thread, which outlives the probe's children (PR_SET_PDEATHSIG).
        RunResult result = runPlanOnTarget(registry, plan, options, stop, &observer);
        observer.postLast([result = std::move(result)](RunController* c) { Q_EMIT c->runFinished(result); });
    } catch (const InputError& e) {
        const QString message = QString::fromStdString(e.what());
        logger(LogModule::Gui).warn("run not started: {}", e.what());
        observer.postLast([message](RunController* c) { Q_EMIT c->runFailed(message); });
    }
}

} // namespace

RunController::RunController(const Registry& registry, QObject* parent)
    : QObject(parent), m_registry(registry)
{
    qRegisterMetaType<iolab::CaseStarted>();
    qRegisterMetaType<iolab::Sample>();
    qRegisterMetaType<iolab::RepetitionFinished>();
    qRegisterMetaType<iolab::ProbeKillStarted>();
    qRegisterMetaType<iolab::CaseResult>();
    qRegisterMetaType<iolab::RunResult>();
    qRegisterMetaType<std::vector<iolab::RefusedCase>>();
}

RunController::~RunController()
{
    // Destroyed mid-run (a window never is: it stops the run and closes when it is over): the run stops and
    // removes its files before its thread lets go of this controller.
    if (m_running)
        m_stop.request_stop();
    if (m_thread.joinable())
        m_thread.join();
}

bool RunController::start(std::shared_ptr<const RunPlan> plan, const RunOptions& options, QString* why)
{
    const auto refuse = [why](const QString& text) {
        if (why != nullptr)
            *why = text;
        return false;
    };
    if (m_running)
        return refuse(tr("A run is already in progress."));
    if (!plan || plan->cases().empty())
        return refuse(tr("Nothing to run: every case of the matrix was refused."));
    // The previous run's thread, if any, has made its last call: joining it waits for its exit only.
    if (m_thread.joinable())
        m_thread.join();
    m_stop = {};
    m_running = true;
    m_thread = std::thread([stop = m_stop.get_token(), registry = &m_registry, controller = this,
                            id = ++m_runId, plan = std::move(plan), options] {
        QueuedObserver observer(controller, id);
        runPlan(*registry, stop, *plan, options, observer);
    });
    return true;
}

void RunController::stop()
{
    if (m_running)
        m_stop.request_stop();
}

void RunController::finished(std::uint64_t run)
{
    if (run == m_runId)
        m_running = false;
}

} // namespace iolab::gui
