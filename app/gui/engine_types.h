// SPDX-License-Identifier: MIT
#pragma once

// The engine's value types, known to Qt's meta-type system so that they can travel in signals and QVariants.
#include "core/engine/runner.h"
#include "core/model/result.h"

#include <QMetaType>

Q_DECLARE_METATYPE(iolab::CaseStarted)
Q_DECLARE_METATYPE(iolab::Sample)
Q_DECLARE_METATYPE(iolab::RepetitionFinished)
Q_DECLARE_METATYPE(iolab::ProbeKillStarted)
Q_DECLARE_METATYPE(iolab::CaseResult)
Q_DECLARE_METATYPE(iolab::RunResult)
Q_DECLARE_METATYPE(std::vector<iolab::RefusedCase>)
