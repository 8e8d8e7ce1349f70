// SPDX-License-Identifier: MIT
#include "core/model/target.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

namespace iolab {

namespace {

std::string yesNo(bool value)
{
    return value ? "yes" : "no";
}

} // namespace

std::string describeWriteCache(const TargetInfo& target)
{
    std::vector<std::string> parts;
    if (!target.writeCache.empty())
        parts.push_back(target.writeCache);
    if (target.fua)
        parts.push_back("FUA: " + yesNo(*target.fua));
    if (target.flushSupported)
        parts.push_back("flush: " + yesNo(*target.flushSupported));
    if (target.powerProtected)
        parts.push_back("power-protected: " + yesNo(*target.powerProtected));
    if (target.writeThroughSupported)
        parts.push_back("write-through: " + yesNo(*target.writeThroughSupported));
    if (parts.empty())
        return "unknown";
    if (target.writeCache.empty())
        parts.insert(parts.begin(), "mode unknown");
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : ", ") + part;
    return text;
}

bool looksVirtual(const TargetInfo& target)
{
    std::string model = target.deviceModel;
    std::transform(model.begin(), model.end(), model.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    const auto has = [&](std::string_view word) {
        return model.find(word) != std::string::npos;
    };
    return target.device.starts_with("vd") || target.device.starts_with("xvd") || has("qemu") ||
           has("virtio") || has("vbox") || has("virtual") || has("vmware");
}

bool hasMountOption(std::string_view options, std::string_view option)
{
    while (!options.empty()) {
        const auto comma = options.find(',');
        if (options.substr(0, comma) == option)
            return true;
        options = comma == std::string_view::npos ? std::string_view() : options.substr(comma + 1);
    }
    return false;
}

} // namespace iolab
