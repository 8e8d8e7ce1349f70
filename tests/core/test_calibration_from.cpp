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

std::optional<LatencyDistribution> p50(std::uint64_t ns)
{
    LatencyDistribution d;
    d.summary.count = 10;
    d.summary.p50Ns = ns;
    return d;
}

} // namespace

TEST(CalibrationFrom, EachFigureComesFromItsCaseAndLookalikesSetNothing)
{
    RunResult result;
    // Lookalikes first and last, so that neither order lets them in.
    result.cases.push_back(measured("write-random", Direction::Write, 11, 12));
    result.cases.push_back(measured("read", Direction::Read, 13, 13));
    result.cases.push_back(measured("write", Direction::Write, 100, 50));
    CaseResult sync = measured("write", Direction::Write, 5, 5, SyncMode::FdatasyncEvery);
    sync.syncLatency = p50(2'000'000);
    result.cases.push_back(sync);
    result.cases.push_back(measured("direct", Direction::Write, 300, 200));
    CaseResult randomWrite = measured("direct-random", Direction::Write, 7, 7);
    randomWrite.callLatency = p50(300'000);
    result.cases.push_back(randomWrite);
    CaseResult randomRead = measured("read-random-direct", Direction::Read, 8, 8);
    randomRead.callLatency = p50(200'000);
    result.cases.push_back(randomRead);
    result.cases.push_back(measured("read-direct", Direction::Read, 400, 400));
    CaseResult stdio = measured("stdio", Direction::Write, 900, 900);
    stdio.syncLatency = p50(9'000'000);
    result.cases.push_back(stdio);
    CaseResult bufferedRandomRead = measured("read-random", Direction::Read, 14, 14);
    bufferedRandomRead.callLatency = p50(9'000'000);
    result.cases.push_back(bufferedRandomRead);

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
