// SPDX-License-Identifier: MIT
#include "app/gui/run_controller.h"

#include "core/base/error.h"
#include "core/base/log.h"
#include "core/engine/registry.h"
#include "platform/platform.h"

#include <QMetaObject>
#include <QPointer>

#include <algorithm>
#include <filesystem>

namespace iolab::gui {

namespace {

// Forwards engine callbacks to the controller's thread. The controller outlives the worker (its destructor
// joins it), and invokeMethod drops a call whose context object is gone.
class QueuedObserver final : public RunObserver
{
public:
    explicit QueuedObserver(RunController* controller) : m_controller(controller) {}

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
    void caseFinished(const CaseResult& result) override
    {
        post([result](RunController* c) { Q_EMIT c->caseFinished(result); });
    }

    template <class F> void post(F&& f)
    {
        RunController* controller = m_controller;
        QMetaObject::invokeMethod(
            controller, [controller, f = std::forward<F>(f)] { f(controller); }, Qt::QueuedConnection);
    }

private:
    RunController* m_controller;
};

} // namespace

RunController::RunController(const Registry& registry, QObject* parent)
    : QObject(parent), m_registry(registry)
{
    qRegisterMetaType<iolab::CaseStarted>();
    qRegisterMetaType<iolab::Sample>();
    qRegisterMetaType<iolab::RepetitionFinished>();
    qRegisterMetaType<iolab::CaseResult>();
    qRegisterMetaType<iolab::RunResult>();
    qRegisterMetaType<std::vector<iolab::RefusedCase>>();
}

RunController::~RunController()
{
    // jthread's destructor requests stop and joins; the run removes its files before it returns.
    m_worker = {};
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
    // The previous run's thread has posted its last call and is returning: this join does not wait on a run.
    if (m_worker.joinable())
        m_worker.join();
    m_running = true;
    m_worker = std::jthread(
        [this, plan = std::move(plan), options](const std::stop_token& stop) { work(stop, *plan, options); });
    return true;
}

void RunController::stop()
{
    if (m_running)
        m_worker.request_stop();
}

void RunController::finished()
{
    m_running = false;
}

void RunController::work(const std::stop_token& stop, const RunPlan& plan, const RunOptions& options)
{
    QueuedObserver observer(this);
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
        auto probe = makeSystemProbe();
        auto workspace = makeWorkspace(plan.target);
        Runner runner(m_registry, *workspace, *probe);
        RunResult result = runner.run(plan, options, stop, &observer);
        observer.post([result = std::move(result)](RunController* c) {
            c->finished();
            Q_EMIT c->runFinished(result);
        });
    } catch (const InputError& e) {
        const QString message = QString::fromStdString(e.what());
        logger(LogModule::Gui).warn("run not started: {}", e.what());
        observer.post([message](RunController* c) {
            c->finished();
            Q_EMIT c->runFailed(message);
        });
    }
}

} // namespace iolab::gui
