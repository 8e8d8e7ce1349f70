// SPDX-License-Identifier: MIT
#pragma once

#include <QMetaObject>
#include <QPointer>
#include <QThreadPool>

#include <utility>

namespace iolab::gui {

// The app's worker pools. Each is owned by the application, which waits for their jobs when it exits; a
// window never waits for one. Not the global pool: Qt's raster painting waits for that one.
QThreadPool* planningPool(); // plans of large matrices, one at a time
QThreadPool* historyPool();  // history saves and listings, one at a time and in order
QThreadPool*
targetPool(); // looks at targets (mount scans, inspections, probes, leftover runs), several at once

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
