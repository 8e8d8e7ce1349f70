// SPDX-License-Identifier: MIT
// What the duration estimate takes from a calibration run (calibrationFrom): each figure from the case of the
// calibration that measures it, told apart by the strategy's method (core/model/strategy_methods.h), and
// nothing from a case that only looks like one: a buffered random write, a buffered read or a stdio write
// must not set the page cache's, the device's or a sync's figure.
#include "core/analysis/estimate.h"

#include <gtest/gtest.h>

using namespace iolab;

namespace {

CaseResult measured(const std::string& strategy, Direction direction, double apparentMBps, double durableMBps,
                    SyncMode sync = SyncMode::None)
{
    CaseResult c;
    c.status = Status::Ok;
    c.testCase.strategy = strategy;
    c.testCase.direction = direction;
    c.testCase.sync = {sync, syncsEveryN(sync) ? 1U : 0U};
    c.apparentMBps.count = 1;
    c.apparentMBps.median = apparentMBps;
    c.durableMBps.count = 1;
    c.durableMBps.median = durableMBps;
    return c;
}

// Ten calls with a median of `ns`; a case with it as its call or its sync latency.
LatencyDistribution p50(std::uint64_t ns)
{
    LatencyDistribution d;
    d.summary.count = 10;
    d.summary.p50Ns = ns;
    return d;
}

CaseResult withCallP50(CaseResult c, std::uint64_t ns)
{
    c.callLatency = p50(ns);
    return c;
}

CaseResult withSyncP50(CaseResult c, std::uint64_t ns)
{
    c.syncLatency = p50(ns);
    return c;
}

} // namespace

TEST(CalibrationFrom, EachFigureComesFromItsCaseAndLookalikesSetNothing)
{
    RunResult result;
    // Lookalikes first and last, so that neither order lets them in.
    result.cases.push_back(measured("write-random", Direction::Write, 11, 12));
    result.cases.push_back(measured("read", Direction::Read, 13, 13));
    result.cases.push_back(measured("write", Direction::Write, 100, 50));
    result.cases.push_back(
        withSyncP50(measured("write", Direction::Write, 5, 5, SyncMode::FdatasyncEvery), 2'000'000));
    result.cases.push_back(measured("direct", Direction::Write, 300, 200));
    result.cases.push_back(withCallP50(measured("direct-random", Direction::Write, 7, 7), 300'000));
    result.cases.push_back(withCallP50(measured("read-random-direct", Direction::Read, 8, 8), 200'000));
    result.cases.push_back(measured("read-direct", Direction::Read, 400, 400));
    result.cases.push_back(withSyncP50(measured("stdio", Direction::Write, 900, 900), 9'000'000));
    result.cases.push_back(withCallP50(measured("read-random", Direction::Read, 14, 14), 9'000'000));

    const DeviceCalibration d = calibrationFrom(result);
    EXPECT_DOUBLE_EQ(d.pageCacheWriteBytesPerSecond, 100e6);
    EXPECT_DOUBLE_EQ(d.bufferedDurableBytesPerSecond, 50e6);
    EXPECT_DOUBLE_EQ(d.syncSeconds, 2e-3);
    EXPECT_DOUBLE_EQ(d.deviceWriteBytesPerSecond, 200e6);
    EXPECT_DOUBLE_EQ(d.directReturnedBytesPerSecond, 300e6);
    EXPECT_DOUBLE_EQ(d.directWriteSeconds, 300e-6);
    EXPECT_DOUBLE_EQ(d.directReadSeconds, 200e-6);
    EXPECT_DOUBLE_EQ(d.deviceReadBytesPerSecond, 400e6);
}

TEST(CalibrationFrom, ACaseItCannotPlaceLeavesEveryFigureUnset)
{
    RunResult result;
    result.cases.push_back(measured("write-random", Direction::Write, 11, 12));
    result.cases.push_back(measured("read", Direction::Read, 13, 13));
    result.cases.push_back(measured("stdio", Direction::Write, 900, 900));
    result.cases.push_back(measured("a-strategy-from-elsewhere", Direction::Write, 900, 900));
    const DeviceCalibration d = calibrationFrom(result);
    DeviceCalibration none;
    none.measuredAt = d.measuredAt;
    none.tookSeconds = d.tookSeconds;
    EXPECT_EQ(d, none);
}
