// SPDX-License-Identifier: MIT
#include "app/gui/workers.h"

#include "core/base/log.h"

namespace iolab::gui {

namespace {

QThreadPool* makePool(int threads)
{
    // Not the application's child: its destructor would wait for every job, a stuck one too.
    auto* pool = new QThreadPool;
    pool->setMaxThreadCount(threads);
    return pool;
}

} // namespace

QThreadPool* planningPool()
{
    static QThreadPool* pool = makePool(1); // a newer request makes an older waiting one moot
    return pool;
}

QThreadPool* historyPool()
{
    static QThreadPool* pool = makePool(1);
    return pool;
}

QThreadPool* targetPool()
{
    // Several: a look stuck on a hung mount must not hold back the looks at other targets.
    static QThreadPool* pool = makePool(4);
    return pool;
}

bool finishWorkers(std::chrono::milliseconds grace)
{
    planningPool()->clear();
    targetPool()->clear();
    planningPool()->waitForDone();
    historyPool()->waitForDone();
    const bool ended = targetPool()->waitForDone(static_cast<int>(grace.count()));
    if (!ended)
        logger(LogModule::Gui)
            .warn("exit: {} look(s) at a target still going (a hung mount?) are left behind",
                  targetPool()->activeThreadCount());
    return ended;
}

} // namespace iolab::gui
