// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>

#include <chrono>
#include <utility>

namespace iolab::gui {

// The app's worker pools; a window never waits for one. They live as long as the process: at exit
// finishWorkers waits for the work that can end and leaves the rest. Not the global pool: Qt's raster
// painting waits for that one.
QThreadPool* planningPool(); // plans of large matrices, one at a time
QThreadPool* historyPool();  // history saves and listings, one at a time and in order
QThreadPool*
targetPool(); // looks at targets (mount scans, inspections, probes, leftover runs), several at once

// At exit, after the event loop: plans not started are dropped and the one being made finishes; history saves
// and deletes finish (a saved run is never half written); looks at targets, opens and exports not started are
// dropped, and the running ones get `grace` to end. One that does not (a probe on a hung mount) is left
// behind: the process ends without it. True when nothing was left behind.
bool finishWorkers(std::chrono::milliseconds grace);

// Runs `work` on `pool` and hands what it returns to `done(receiver, value)` on the GUI thread as a queued
// call. The call goes through the pool (it outlives its jobs) and is dropped when the receiver is gone: the
// QPointer is only read on the GUI thread. `work` and its value are plain values; no widget crosses.
template <class Receiver, class Work, class Done>
void runOffGuiThread(QThreadPool* pool, Receiver* receiver, Work work, Done done)
{
    pool->start([pool, receiver = QPointer<Receiver>(receiver), work = std::move(work),
                 done = std::move(done)]() mutable {
        auto value = work();
        QMetaObject::invokeMethod(
            pool,
            [receiver, done, value = std::move(value)]() mutable {
                if (receiver != nullptr)
                    done(*receiver, std::move(value));
            },
            Qt::QueuedConnection);
    });
}

} // namespace iolab::gui
