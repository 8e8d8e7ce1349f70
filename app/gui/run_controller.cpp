// SPDX-License-Identifier: MIT
#include "app/gui/run_controller.h"

#include "core/base/error.h"
#include "core/base/log.h"
#include "core/engine/registry.h"
#include "platform/platform.h"

#include <QMetaObject>
#include <QPointer>

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

RunController::RunController(QObject* parent) : QObject(parent)
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

bool RunController::start(const Matrix& matrix, const QString& target, const RunOptions& options,
                          QString* why)
{
    if (m_running) {
        if (why != nullptr)
            *why = tr("A run is already in progress.");
        return false;
    }
    if (m_worker.joinable())
        m_worker.join(); // the previous run has finished; its thread is done or about to be
    m_running = true;
    m_worker = std::jthread([this, matrix, path = target.toStdString(),
                             options](const std::stop_token& stop) { work(stop, matrix, path, options); });
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

void RunController::work(const std::stop_token& stop, const Matrix& matrix, const std::string& target,
                         const RunOptions& options)
{
    QueuedObserver observer(this);
    try {
        Registry registry;
        registerBuiltinStrategies(registry);
        TargetInfo info = inspectTarget(target);
        probeCapabilities(info);
        const ExpandedMatrix expanded = expand(matrix, registry, info);
        if (expanded.cases.empty())
            throw InputError("nothing to run: every case of the matrix was refused");
        const int caseCount = static_cast<int>(expanded.cases.size());
        const QString folder = QString::fromStdString(info.path);
        observer.post([caseCount, refused = expanded.refused, folder](RunController* c) {
            Q_EMIT c->runStarted(caseCount, refused, folder);
        });
        auto probe = makeSystemProbe();
        auto workspace = makeWorkspace(info);
        Runner runner(registry, *workspace, *probe);
        RunResult result = runner.run(matrix, expanded, options, stop, &observer);
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
