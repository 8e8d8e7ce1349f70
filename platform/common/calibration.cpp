// SPDX-License-Identifier: MIT
#include "platform/calibration.h"

#include "core/analysis/estimate.h"
#include "core/base/log.h"
#include "core/engine/run_plan.h"
#include "core/engine/runner.h"
#include "core/formats/result_json.h"
#include "platform/os_primitives.h"
#include "platform/platform.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace iolab {

namespace {

// Which target a kept calibration is of: its filesystem's mount, its device and its type.
std::string keyOf(const TargetInfo& target)
{
    return fmt::format("{}|{}|{}", target.mountPoint, target.device, target.fsType);
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm), for the age of an ISO 8601 time.
long daysFromCivil(int year, unsigned month, unsigned day)
{
    year -= month <= 2 ? 1 : 0;
    const int era = (year >= 0 ? year : year - 399) / 400;
    const auto yearOfEra = static_cast<unsigned>(year - era * 400);
    const unsigned dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return static_cast<long>(era) * 146097 + static_cast<long>(dayOfEra) - 719468;
}

// The age in days of "2026-11-27T23:00:00Z"; a large age when it cannot be read.
double ageDays(const std::string& iso)
{
    int year = 0;
    unsigned month = 0;
    unsigned day = 0;
    unsigned hour = 0;
    unsigned minute = 0;
    unsigned second = 0;
    if (std::sscanf(iso.c_str(), "%d-%u-%uT%u:%u:%u", &year, &month, &day, &hour, &minute, &second) != 6)
        return 1e9;
    const double then = static_cast<double>(daysFromCivil(year, month, day)) * 86400.0 + hour * 3600.0 +
                        minute * 60.0 + second;
    const double now = static_cast<double>(std::time(nullptr));
    return (now - then) / 86400.0;
}

std::string storePath(const std::string& folder)
{
    return os::joinPath(folder, "calibration.json");
}

nlohmann::json readStore(const std::string& folder)
{
    if (os::kindOf(storePath(folder), true) != os::EntryKind::File)
        return nlohmann::json::object();
    const auto parsed = nlohmann::json::parse(os::readSmallFile(storePath(folder)), nullptr, false);
    return parsed.is_object() ? parsed : nlohmann::json::object();
}

} // namespace

std::optional<DeviceCalibration> calibrateTarget(const TargetInfo& target, const Registry& registry,
                                                 const std::stop_token& stop)
{
    auto& log = logger(LogModule::Platform);
    try {
        const auto plan = makeRunPlan(calibrationMatrix(), registry, target);
        if (plan->expanded.cases.empty())
            return std::nullopt;
        RunOptions options;
        options.repetitions = 1;
        options.warmups = 1;
        options.sampling = false;
        auto probe = makeSystemProbe();
        auto workspace = makeWorkspace(target);
        Runner runner(registry, *workspace, *probe);
        const RunResult result = runner.run(*plan, options, stop);
        if (result.cancelled)
            return std::nullopt;
        DeviceCalibration calibration = calibrationFrom(result);
        log.info(
            "calibration of {}: page cache {:.0f} MB/s, buffered durable {:.0f} MB/s, direct write {:.0f} "
            "MB/s durable ({:.0f} MB/s returned), read {:.0f} MB/s, sync {:.3f} ms, 4 KiB direct write "
            "{:.0f} us, read {:.0f} us, in {:.2f} "
            "s",
            target.path, calibration.pageCacheWriteBytesPerSecond / 1e6,
            calibration.bufferedDurableBytesPerSecond / 1e6, calibration.deviceWriteBytesPerSecond / 1e6,
            calibration.directReturnedBytesPerSecond / 1e6, calibration.deviceReadBytesPerSecond / 1e6,
            calibration.syncSeconds * 1e3, calibration.directWriteSeconds * 1e6,
            calibration.directReadSeconds * 1e6, calibration.tookSeconds);
        if (calibration.bufferedDurableBytesPerSecond <= 0 && calibration.deviceWriteBytesPerSecond <= 0)
            return std::nullopt;
        return calibration;
    } catch (const std::exception& e) {
        log.warn("calibration of {} failed: {}", target.path, e.what());
        return std::nullopt;
    }
}

std::optional<DeviceCalibration> storedCalibration(const std::string& folder, const TargetInfo& target)
{
    try {
        const nlohmann::json store = readStore(folder);
        const auto it = store.find(keyOf(target));
        if (it == store.end())
            return std::nullopt;
        DeviceCalibration calibration = calibrationFromJson(*it);
        if (ageDays(calibration.measuredAt) > kCalibrationMaxAgeDays)
            return std::nullopt;
        return calibration;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void storeCalibration(const std::string& folder, const TargetInfo& target,
                      const DeviceCalibration& calibration)
{
    nlohmann::json store = readStore(folder);
    store[keyOf(target)] = calibrationToJson(calibration);
    if (os::kindOf(folder, true) != os::EntryKind::Folder) {
        if (const Outcome made = os::makeFolder(folder); !made.ok()) {
            logger(LogModule::Platform).warn("calibration not kept: {}", made.message);
            return;
        }
    }
    if (const Outcome written = writeFileAtomically(storePath(folder), store.dump(1) + "\n"); !written.ok())
        logger(LogModule::Platform).warn("calibration not kept: {}", written.message);
}

} // namespace iolab
