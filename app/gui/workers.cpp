// SPDX-License-Identifier: MIT
#include "app/gui/workers.h"

#include <QCoreApplication>

namespace iolab::gui {

namespace {

QThreadPool* makePool(int threads)
{
    auto* pool = new QThreadPool(QCoreApplication::instance());
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

} // namespace iolab::gui
