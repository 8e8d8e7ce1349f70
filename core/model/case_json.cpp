// SPDX-License-Identifier: MIT
#include "core/model/case_json.h"

#include "core/model/axes.h"

#include <nlohmann/json.hpp>

#include <string>

namespace iolab {

using nlohmann::json;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceCalibration, pageCacheWriteBytesPerSecond,
                                                bufferedDurableBytesPerSecond, deviceWriteBytesPerSecond,
                                                directReturnedBytesPerSecond, deviceReadBytesPerSecond,
                                                syncSeconds, directWriteSeconds, directReadSeconds,
                                                measuredAt, tookSeconds)

void to_json(json& j, const TargetInfo& t)
{
    j = json{{"path", t.path},
             {"mountPoint", t.mountPoint},
             {"fsType", t.fsType},
             {"mountOptions", t.mountOptions},
             {"mountSource", t.mountSource},
             {"device", t.device},
             {"deviceModel", t.deviceModel},
             {"rotational", t.rotational ? json(*t.rotational) : json(nullptr)},
             {"writeCache", t.writeCache},
             {"logicalBlockBytes", t.logicalBlockBytes},
             {"physicalBlockBytes", t.physicalBlockBytes},
             {"maxTransferBytes", t.maxTransferBytes},
             {"totalBytes", t.totalBytes},
             {"freeBytes", t.freeBytes},
             {"capabilitiesProbed", t.capabilitiesProbed},
             {"directIoProblem", t.directIoProblem},
             {"fallocateProblem", t.fallocateProblem}};
    // Written only where known, so that files of targets without them read and save as before.
    const auto optionalFlag = [&](const char* key, const std::optional<bool>& value) {
        if (value)
            j[key] = *value;
    };
    optionalFlag("fua", t.fua);
    optionalFlag("flushSupported", t.flushSupported);
    optionalFlag("powerProtected", t.powerProtected);
    optionalFlag("writeThroughSupported", t.writeThroughSupported);
    if (!t.memoryLimitProblem.empty())
        j["memoryLimitProblem"] = t.memoryLimitProblem;
    if (t.calibration)
        j["calibration"] = *t.calibration;
    if (t.fileBlockBytes != 0)
        j["fileBlockBytes"] = t.fileBlockBytes;
}

void from_json(const json& j, TargetInfo& t)
{
    j.at("path").get_to(t.path);
    j.at("mountPoint").get_to(t.mountPoint);
    j.at("fsType").get_to(t.fsType);
    j.at("mountOptions").get_to(t.mountOptions);
    j.at("mountSource").get_to(t.mountSource);
    j.at("device").get_to(t.device);
    j.at("deviceModel").get_to(t.deviceModel);
    const auto& rotational = j.at("rotational");
    t.rotational = rotational.is_null() ? std::nullopt : std::optional<bool>(rotational.get<bool>());
    j.at("writeCache").get_to(t.writeCache);
    j.at("logicalBlockBytes").get_to(t.logicalBlockBytes);
    j.at("physicalBlockBytes").get_to(t.physicalBlockBytes);
    j.at("maxTransferBytes").get_to(t.maxTransferBytes);
    t.fileBlockBytes = j.value("fileBlockBytes", std::uint32_t{0}); // files from before issue 34 lack it
    j.at("totalBytes").get_to(t.totalBytes);
    j.at("freeBytes").get_to(t.freeBytes);
    j.at("capabilitiesProbed").get_to(t.capabilitiesProbed);
    j.at("directIoProblem").get_to(t.directIoProblem);
    j.at("fallocateProblem").get_to(t.fallocateProblem);
    t.memoryLimitProblem = j.value("memoryLimitProblem", std::string());
    // Keys added with issue 17; files from before lack them (unknown).
    const auto optionalFlag = [&](const char* key, std::optional<bool>& value) {
        const auto it = j.find(key);
        value = it == j.end() || it->is_null() ? std::nullopt : std::optional<bool>(it->get<bool>());
    };
    optionalFlag("fua", t.fua);
    optionalFlag("flushSupported", t.flushSupported);
    optionalFlag("powerProtected", t.powerProtected);
    optionalFlag("writeThroughSupported", t.writeThroughSupported);
    if (const auto it = j.find("calibration"); it != j.end() && it->is_object())
        t.calibration = it->get<DeviceCalibration>();
}

json caseToJson(const Case& c)
{
    json j = json::object();
    for (const auto& axis : caseAxes()) {
        if (axis.extra() && !c.extraAxes.contains(axis.matrixKey))
            continue; // a case the axis does not apply to carries no value, and its file says none
        const std::string value = axis.format(c);
        if (axis.kind == AxisValueKind::Text)
            j[axis.resultKey] = value;
        else
            j[axis.resultKey] = std::stoull(value);
    }
    j["label"] = c.label();
    return j;
}

Case caseFromJson(const json& j)
{
    Case c;
    for (const auto& axis : caseAxes()) {
        const auto it = j.find(axis.resultKey);
        if (it == j.end()) {
            if (!axis.oldFileValue && !axis.extra())
                j.at(axis.resultKey); // throws: the key is required
            // Results from before the axis existed stand for its old value (or, for an extra axis, none).
            if (axis.oldFileValue)
                axis.parse(c, *axis.oldFileValue);
            continue;
        }
        if (axis.kind == AxisValueKind::Text)
            axis.parse(c, it->get<std::string>());
        else
            axis.parse(c, std::to_string(it->get<std::uint64_t>()));
    }
    return c;
}

json calibrationToJson(const DeviceCalibration& calibration)
{
    return json(calibration);
}

DeviceCalibration calibrationFromJson(const json& j)
{
    return j.get<DeviceCalibration>();
}

} // namespace iolab
