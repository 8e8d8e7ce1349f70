// SPDX-License-Identifier: MIT
#include "core/model/system_facts.h"

#include "core/base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace iolab {

namespace {

constexpr std::array<std::pair<LayerKind, std::string_view>, 11> kLayerNames{{
    {LayerKind::Filesystem, "filesystem"},
    {LayerKind::Partition, "partition"},
    {LayerKind::DmCrypt, "dm-crypt"},
    {LayerKind::Lvm, "lvm"},
    {LayerKind::DeviceMapper, "device-mapper"},
    {LayerKind::Md, "md"},
    {LayerKind::Loop, "loop"},
    {LayerKind::Disk, "disk"},
    {LayerKind::Network, "network"},
    {LayerKind::Fuse, "fuse"},
    {LayerKind::Memory, "memory"},
}};

struct ClassName
{
    DeviceClass kind;
    std::string_view id;
    std::string_view words;
};
constexpr std::array<ClassName, 9> kClassNames{{
    {DeviceClass::Unknown, "unknown", "device of unknown kind"},
    {DeviceClass::NvmeSsd, "nvme-ssd", "NVMe SSD"},
    {DeviceClass::SataSsd, "sata-ssd", "SATA SSD"},
    {DeviceClass::SataHdd, "sata-hdd", "hard disk"},
    {DeviceClass::UsbDrive, "usb", "USB drive"},
    {DeviceClass::SdCard, "sd-card", "SD card or eMMC"},
    {DeviceClass::VirtualDisk, "virtual", "virtual disk"},
    {DeviceClass::NetworkShare, "network", "network share"},
    {DeviceClass::Memory, "memory", "memory (tmpfs)"},
}};

} // namespace

std::string_view toString(LayerKind kind)
{
    for (const auto& [k, name] : kLayerNames) {
        if (k == kind)
            return name;
    }
    return "disk";
}

LayerKind layerKindFromString(std::string_view text)
{
    for (const auto& [k, name] : kLayerNames) {
        if (name == text)
            return k;
    }
    throw InputError(fmt::format("unknown storage layer kind '{}'", text));
}

std::string_view toString(DeviceClass kind)
{
    for (const auto& entry : kClassNames) {
        if (entry.kind == kind)
            return entry.id;
    }
    return "unknown";
}

DeviceClass deviceClassFromString(std::string_view text)
{
    for (const auto& entry : kClassNames) {
        if (entry.id == text)
            return entry.kind;
    }
    throw InputError(fmt::format("unknown device class '{}'", text));
}

std::string describe(DeviceClass kind)
{
    for (const auto& entry : kClassNames) {
        if (entry.kind == kind)
            return std::string(entry.words);
    }
    return "device of unknown kind";
}

const Fact* SystemFacts::find(std::string_view id) const
{
    for (const auto& section : sections) {
        for (const auto& fact : section.facts) {
            if (fact.id == id)
                return &fact;
        }
    }
    return nullptr;
}

std::string SystemFacts::valueOf(std::string_view id) const
{
    const auto* fact = find(id);
    return fact == nullptr ? std::string() : fact->value;
}

bool SystemFacts::hasLayer(LayerKind kind) const
{
    return std::any_of(stack.begin(), stack.end(), [kind](const StorageLayer& l) { return l.kind == kind; });
}

std::string describeStack(const SystemFacts& facts)
{
    std::string text;
    for (const auto& layer : facts.stack) {
        std::string part;
        switch (layer.kind) {
        case LayerKind::Filesystem:
            part = layer.name;
            break;
        case LayerKind::Disk:
            part = layer.detail.empty() ? "disk " + layer.name : layer.detail + " disk " + layer.name;
            break;
        default:
            part = fmt::format("{} {}", toString(layer.kind), layer.name);
            break;
        }
        text += (text.empty() ? "" : " → ") + part;
    }
    return text;
}

void FactsBuilder::add(std::string_view section, Fact fact)
{
    auto it = std::find_if(m_sections.begin(), m_sections.end(),
                           [section](const FactSection& s) { return s.title == section; });
    if (it == m_sections.end()) {
        m_sections.push_back({std::string(section), {}});
        it = std::prev(m_sections.end());
    }
    it->facts.push_back(std::move(fact));
}

void FactsBuilder::known(std::string_view section, std::string id, std::string label, std::string value,
                         std::string source)
{
    add(section, Fact{std::move(id), std::move(label), std::move(value), {}, std::move(source)});
}

void FactsBuilder::unknown(std::string_view section, std::string id, std::string label, std::string why,
                           std::string source)
{
    add(section, Fact{std::move(id), std::move(label), {}, std::move(why), std::move(source)});
}

void FactsBuilder::either(std::string_view section, std::string id, std::string label, std::string value,
                          std::string why, std::string source)
{
    if (value.empty())
        unknown(section, std::move(id), std::move(label), std::move(why), std::move(source));
    else
        known(section, std::move(id), std::move(label), std::move(value), std::move(source));
}

std::vector<FactDifference> compareFacts(const SystemFacts& left, const SystemFacts& right)
{
    const auto shown = [](const Fact* fact) {
        if (fact == nullptr)
            return std::string("—");
        return fact->known() ? fact->value : std::string("unknown");
    };
    std::vector<FactDifference> rows;
    const auto whole = [&](std::string id, std::string label, std::string l, std::string r) {
        FactDifference row{"Storage", std::move(id), std::move(label), std::move(l), std::move(r), false};
        row.differs = row.left != row.right;
        rows.push_back(std::move(row));
    };
    const auto stackOf = [](const SystemFacts& f) {
        return f.gathered ? describeStack(f) : std::string("not recorded");
    };
    whole("stack", "Storage stack", stackOf(left), stackOf(right));
    whole("class", "Device class", describe(left.deviceClass), describe(right.deviceClass));
    const auto addFrom = [&](const SystemFacts& from) {
        for (const auto& section : from.sections) {
            for (const auto& fact : section.facts) {
                if (std::any_of(rows.begin(), rows.end(),
                                [&](const FactDifference& r) { return r.id == fact.id; }))
                    continue;
                const auto* l = left.find(fact.id);
                const auto* r = right.find(fact.id);
                FactDifference row{section.title, fact.id, fact.label, shown(l), shown(r), false};
                row.differs = row.left != row.right;
                rows.push_back(std::move(row));
            }
        }
    };
    addFrom(left);
    addFrom(right);
    return rows;
}

} // namespace iolab
