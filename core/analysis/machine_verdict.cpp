// SPDX-License-Identifier: MIT
#include "core/analysis/machine_verdict.h"

#include "core/analysis/ranking.h"
#include "core/analysis/system_checks.h"
#include "core/analysis/warnings.h"
#include "core/base/units.h"
#include "core/base/words.h"
#include "core/engine/registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace iolab {

namespace {

// "200-530 MB/s", "1.0-5.0 GB/s", "800 MB/s-2.0 GB/s".
std::string rangeText(const TypicalRange& r)
{
    if (r.highMBps < 1000)
        return fmt::format("{:.0f}-{:.0f} MB/s", r.lowMBps, r.highMBps);
    if (r.lowMBps >= 1000)
        return fmt::format("{:.1f}-{:.1f} GB/s", r.lowMBps / 1000, r.highMBps / 1000);
    return fmt::format("{:.0f} MB/s-{:.1f} GB/s", r.lowMBps, r.highMBps / 1000);
}

// "a SATA SSD", "an NVMe SSD".

bool contains(const std::string& text, std::string_view part)
{
    return text.find(part) != std::string::npos;
}

// The best durable rate of the cases that can show the device's sequential write rate, and its case.
std::optional<std::pair<double, std::uint32_t>> bestDurableWrite(const RunResult& result,
                                                                 const Registry* registry)
{
    std::optional<std::pair<double, std::uint32_t>> best;
    for (const auto& c : result.cases) {
        if (!showsSequentialWriteRate(c, registry))
            continue;
        if (!best || c.durableMBps.median > best->first)
            best = std::pair{c.durableMBps.median, c.index};
    }
    return best;
}

bool anyFinding(const std::vector<Finding>& found, Finding::Kind kind,
                std::optional<std::uint32_t> caseIndex = {})
{
    return std::any_of(found.begin(), found.end(), [&](const Finding& f) {
        return f.kind == kind && (!caseIndex || f.caseIndex == caseIndex);
    });
}

std::size_t countFindings(const std::vector<Finding>& found, Finding::Kind kind)
{
    return static_cast<std::size_t>(
        std::count_if(found.begin(), found.end(), [kind](const Finding& f) { return f.kind == kind; }));
}

std::string factSource(const SystemFacts& facts, std::string_view id)
{
    const auto* fact = facts.find(id);
    return fact == nullptr || fact->source.empty() ? std::string() : " (" + fact->source + ")";
}

// The causes the facts and findings give evidence for, most likely first.
std::vector<LikelyCause> causes(const RunResult& result, const std::vector<Finding>& found)
{
    const SystemFacts& facts = result.system;
    std::vector<LikelyCause> out;
    const bool physical = facts.deviceClass != DeviceClass::VirtualDisk &&
                          facts.deviceClass != DeviceClass::Memory &&
                          facts.deviceClass != DeviceClass::NetworkShare;
    const std::string cache = facts.valueOf("queue.write_cache");
    // USB sticks and SD cards say "write through" because they have no cache the host can switch on.
    const bool switchableCache =
        physical && facts.deviceClass != DeviceClass::UsbDrive && facts.deviceClass != DeviceClass::SdCard;
    if (switchableCache && cache.starts_with("write through"))
        out.push_back(
            {"The drive's write cache is off: every write waits until the medium holds it",
             "write cache: " + cache + factSource(facts, "queue.write_cache"),
             "If the drive's cache is protected against power loss, turn it on (hdparm -W1 on Linux, "
             "the device's policy in Windows' Device Manager, or the RAID controller's setting); "
             "otherwise this rate is what durable writes cost on this drive."});
    const std::string link = facts.valueOf("device.link");
    if (contains(link, "(USB 2)") || contains(link, "(USB 1)"))
        out.push_back({"The drive is on a USB 2 link, which carries about 40 MB/s at most",
                       "link: " + link + factSource(facts, "device.link"),
                       "Plug it into a USB 3 port (often blue, or marked SS) with a USB 3 cable."});
    if (link.starts_with("SATA 1.5") || link.starts_with("SATA 3.0"))
        out.push_back(
            {fmt::format("The SATA link runs at {}, below the 6.0 Gbps SATA III carries", link.substr(5)),
             "link: " + link + factSource(facts, "device.link"),
             "Check the cable and the port, and that the controller is in AHCI mode."});
    if (facts.deviceClass == DeviceClass::NvmeSsd && !link.empty()) {
        const double gts = std::strtod(link.c_str(), nullptr);
        const auto x = link.rfind(" x");
        const int width = x == std::string::npos ? 0 : std::atoi(link.c_str() + x + 2);
        if ((gts > 0 && gts < 5.0) || (width > 0 && width < 4))
            out.push_back(
                {fmt::format("The NVMe drive runs on a narrow or slow PCIe link ({})", link),
                 "link: " + link + factSource(facts, "device.link"),
                 "Check which slot it sits in: a chipset or x1/x2 slot, or PCIe 1.x speed, caps it."});
    }
    if (facts.hasLayer(LayerKind::DmCrypt))
        out.push_back(
            {"Every block is encrypted by the CPU (dm-crypt)", "storage stack: " + describeStack(facts),
             "Compare with `cryptsetup benchmark`; a CPU without AES instructions, or a slow cipher, "
             "caps the rate below the disk's."});
    if (facts.hasLayer(LayerKind::Loop))
        out.push_back({"The target is a loop device: its writes go to a file on another filesystem",
                       "storage stack: " + describeStack(facts),
                       "Measure the filesystem that holds the backing file, or the disk under it."});
    if (facts.hasLayer(LayerKind::Fuse))
        out.push_back({"The target is a FUSE filesystem: a user-space program serves every call",
                       "storage stack: " + describeStack(facts),
                       "Measure a local filesystem to judge the disk."});
    if (facts.hasLayer(LayerKind::Network))
        out.push_back({"The target is a network filesystem: the network and the server set the rate",
                       "storage stack: " + describeStack(facts),
                       "Compare with the network's own speed (1 Gbit/s Ethernet carries about 115 MB/s)."});
    const std::string sync = facts.valueOf("fs.sync");
    if (sync.starts_with("sync"))
        out.push_back({"The filesystem is mounted sync: every write waits for the device",
                       "mount options: " + result.target.mountOptions,
                       "Remount without sync where durability "
                       "per write is not needed."});
    if (facts.valueOf("fs.data_mode") == "journal")
        out.push_back({"data=journal writes every data block twice",
                       "mount options: " + result.target.mountOptions,
                       "Remount with data=ordered (ext4's default)."});
    // CPU-bound cases, named, with the advice that fits the first (its strategy's costs).
    std::vector<const Finding*> cpuBound;
    for (const auto& f : found) {
        if (f.kind == Finding::Kind::CpuBound)
            cpuBound.push_back(&f);
    }
    if (!cpuBound.empty()) {
        std::string names;
        for (std::size_t i = 0; i < cpuBound.size(); ++i) {
            const std::string& text = cpuBound[i]->text;
            names += (i == 0                     ? ""
                      : i + 1 == cpuBound.size() ? " and "
                                                 : ", ") +
                     text.substr(0, text.find(": "));
        }
        out.push_back({fmt::format("{} kept the CPU busy nearly all the time", names),
                       cpuBound.front()->text.substr(cpuBound.front()->text.find(": ") + 2),
                       cpuBound.front()->advice.empty()
                           ? std::string("Fewer, larger calls move those figures; a faster disk would not.")
                           : cpuBound.front()->advice});
    }
    if (const auto n = countFindings(found, Finding::Kind::Compression); n > 0)
        out.push_back(
            {"Something below the program compresses or deduplicates: zeros moved far faster than "
             "random bytes",
             fmt::format("{} case{} with compressible data beat {} incompressible twin{} in every "
                         "repetition (see the findings)",
                         n, n == 1 ? "" : "s", n == 1 ? "its" : "their", n == 1 ? "" : "s"),
             "Judge the disk by the random-data rates; data like the application's own tells what it "
             "will get."});
    if (const auto n = countFindings(found, Finding::Kind::Heat); n > 0)
        out.push_back(
            {"The drive slowed itself down as it heated",
             fmt::format("{} case{} slowed while the drive's thermal counters rose or it reached its "
                         "warning temperature (see the findings)",
                         n, n == 1 ? "" : "s"),
             "Cool the drive or let it cool between runs; judge sustained loads by the slower rate."});
    if (anyFinding(found, Finding::Kind::CacheCliff))
        out.push_back({"A fast cache in front of the medium filled during a long write",
                       "the rate fell once and stayed down (see the findings)",
                       "Judge the rate after the drop: that is what long writes sustain."});
    // Defender scanning every file the run writes: on, and neither the target nor IOLab excluded. Said only
    // when all three facts are known (an administrator can read the exclusions; a normal user cannot).
    if (facts.valueOf("defender.realtime").starts_with("on") &&
        facts.valueOf("defender.excluded_path").starts_with("no") &&
        facts.valueOf("defender.excluded_process").starts_with("no"))
        out.push_back(
            {"Defender's real-time protection scans every file the run writes or opens",
             fmt::format("real-time protection: {}; path exclusions: {}; process exclusions: {}",
                         facts.valueOf("defender.realtime"), facts.valueOf("defender.excluded_path"),
                         facts.valueOf("defender.excluded_process")),
             "Add a Defender exclusion for the target folder (or run the test once with one) to see "
             "what the scanning costs; small files and many files pay most."});
    const std::string pressure = facts.valueOf("psi.memory");
    if (!pressure.empty()) {
        const auto at = pressure.find(", ");
        const double minute = at == std::string::npos ? 0 : std::strtod(pressure.c_str() + at + 2, nullptr);
        if (minute >= 10.0)
            out.push_back({"The machine was short of memory when the run began",
                           "memory pressure: " + pressure + factSource(facts, "psi.memory"),
                           "Close what holds the memory, or run again when the machine is idle."});
    }
    return out;
}

std::vector<std::string> unchecked(const RunResult& result, const Registry* registry)
{
    const SystemFacts& facts = result.system;
    std::vector<std::string> out;
    if (!facts.gathered) {
        out.emplace_back("The machine's facts: this result was saved before IOLab recorded them.");
        return out;
    }
    const auto unknownFact = [&](std::string_view id, std::string_view what) {
        const auto* fact = facts.find(id);
        if (fact != nullptr && !fact->known())
            out.push_back(fmt::format("{}: {}.", what, fact->unknownWhy));
    };
    const bool physical = facts.deviceClass != DeviceClass::VirtualDisk &&
                          facts.deviceClass != DeviceClass::Memory &&
                          facts.deviceClass != DeviceClass::NetworkShare;
    switch (facts.deviceClass) {
    case DeviceClass::VirtualDisk:
        out.emplace_back(
            "How fast the disk should be: a virtual disk's speed is the host's storage and cache, "
            "so there is no typical range to compare with.");
        break;
    case DeviceClass::NetworkShare:
        out.emplace_back("How fast the share should be: that is the network's and the server's.");
        break;
    case DeviceClass::Unknown: {
        const auto* transport = facts.find("device.transport");
        out.push_back(
            fmt::format("How fast the device should be: IOLab could not tell what kind of device it is{}.",
                        transport != nullptr && !transport->known() ? " (" + transport->unknownWhy + ")"
                                                                    : std::string()));
        break;
    }
    default:
        break;
    }
    if (const auto range = typicalWriteRange(facts); range && !bestDurableWrite(result, registry))
        out.push_back(fmt::format(
            "How the drive's sequential write rate compares with what such drives typically sustain ({}): "
            "no case here could show that rate, which takes one stream of writes of {} or more in order, "
            "without a sync after each write, a memory limit or compressible bytes, for at least a second "
            "or {}. The health-check and cdm presets write that way.",
            rangeText(*range), formatBytes(kSequentialChunkBytes), formatBytes(kSequentialLongBytes)));
    if (physical) {
        unknownFact("queue.write_cache", "Whether the drive's write cache is on");
        unknownFact("device.link", "The link's speed");
    }
    unknownFact("fs.compression", "Whether the filesystem compresses");
    const bool fileWrites = std::any_of(result.cases.begin(), result.cases.end(), [](const CaseResult& c) {
        return hasRate(c) && comparisonGroup(c.testCase) == ComparisonGroup::FileWrites;
    });
    if (fileWrites && compressionPairs(result, Ranking::Durable).empty())
        out.emplace_back(
            "Whether compression or deduplication flatters the rates: no case wrote zeros beside "
            "random bytes (the pattern axis; the health-check preset does).");
    unknownFact("bitlocker", "Whether BitLocker encrypts the volume");
    unknownFact("defender.realtime", "Whether Defender scans the files written");
    if (!facts.valueOf("defender.realtime").starts_with("off"))
        unknownFact("defender.excluded_path", "Whether Defender's exclusions cover the target");
    return out;
}

} // namespace

bool showsSequentialWriteRate(const CaseResult& c, const Registry* registry)
{
    const Case& k = c.testCase;
    if (!hasRate(c) || comparisonGroup(k) != ComparisonGroup::FileWrites || !k.fileSet.empty() ||
        c.durableMBps.count == 0 || c.durableMBps.median <= 0)
        return false;
    const bool syncsOnlyAtTheEnd = k.sync.mode == SyncMode::None || k.sync.mode == SyncMode::FsyncEnd ||
                                   k.sync.mode == SyncMode::FdatasyncEnd;
    if (k.chunkBytes < kSequentialChunkBytes || !syncsOnlyAtTheEnd || k.threads != 1 ||
        k.memoryLimitBytes != 0 || compressibleData(k) || !ratesAsThroughput(k.preallocate))
        return false;
    if (const Strategy* s = registry != nullptr ? registry->find(k.strategy) : nullptr) {
        const StrategyInfo& info = s->info();
        if (info.randomOffsets || info.durableEachWrite || !info.notDurable.empty())
            return false;
    }
    std::size_t measured = 0;
    for (const auto& r : c.repetitions) {
        if (r.warmup || !r.outcome.ok())
            continue;
        ++measured;
        const double seconds = std::max(r.returnSeconds, r.durableSeconds);
        if (r.bytes < kSequentialMinChunks * k.chunkBytes || seconds < kShortRepetitionSeconds ||
            (seconds < kSequentialLongSeconds && r.bytes < kSequentialLongBytes))
            return false;
    }
    return measured > 0;
}

std::optional<TypicalRange> typicalWriteRange(const SystemFacts& facts)
{
    switch (facts.deviceClass) {
    case DeviceClass::NvmeSsd:
        return TypicalRange{
            facts.deviceClass, 1000, 5000,
            "vendors' data sheets of PCIe 3.0 and 4.0 NVMe drives (Samsung 970 EVO Plus: up to "
            "3,300 MB/s; WD_BLACK SN770: up to 4,000 MB/s), while their SLC cache lasts"};
    case DeviceClass::SataSsd:
        return TypicalRange{
            facts.deviceClass, 200, 530,
            "the roughly 550 MB/s that SATA III's 6 Gbit/s link carries, and SATA SSD data sheets "
            "(Samsung 870 EVO: up to 530 MB/s)"};
    case DeviceClass::SataHdd:
        return TypicalRange{
            facts.deviceClass, 80, 250,
            "hard disk data sheets (3.5-inch 7200 rpm drives: about 200-270 MB/s on the outer "
            "tracks; 2.5-inch drives: about 100-140 MB/s; inner tracks about half)"};
    case DeviceClass::UsbDrive: {
        const std::string link = facts.valueOf("device.link");
        if (contains(link, "(USB 2)") || contains(link, "(USB 1)"))
            return TypicalRange{
                facts.deviceClass, 5, 40,
                "the roughly 40 MB/s that USB 2's 480 Mbit/s link carries; USB 2 sticks write 5-30 MB/s"};
        return TypicalRange{facts.deviceClass, 20, 400,
                            "makers' figures for USB 3 sticks (about 20-400 MB/s); USB SSDs write faster"};
    }
    case DeviceClass::SdCard:
        return TypicalRange{
            facts.deviceClass, 10, 90,
            "the SD Association's speed classes (at least 10 MB/s sustained for Class 10 and U1, "
            "30 MB/s for U3 and V30, up to 90 MB/s for V90)"};
    default:
        return std::nullopt;
    }
}

MachineVerdict machineVerdict(const RunResult& result, const std::vector<Finding>& found,
                              const Registry* registry)
{
    MachineVerdict v;
    const SystemFacts& facts = result.system;
    v.unchecked = unchecked(result, registry);
    if (!facts.gathered)
        return v;
    v.causes = causes(result, found);
    const auto best = bestDurableWrite(result, registry);
    const auto range = typicalWriteRange(facts);
    if (!best || !range)
        return v;
    const auto& [mbps, index] = *best;
    const std::string kind = describe(facts.deviceClass);
    std::string verdict;
    if (mbps < range->lowMBps) {
        v.belowTypical = true;
        verdict = fmt::format("below what such drives typically sustain ({})", rangeText(*range));
    } else if (mbps > range->highMBps) {
        verdict = fmt::format("above what such drives typically sustain ({}): a cache took part of "
                              "the writes, or this is a faster drive than most",
                              rangeText(*range));
    } else {
        verdict = fmt::format("within what such drives typically sustain ({})", rangeText(*range));
    }
    const Case& k = result.cases[index].testCase;
    v.comparison =
        fmt::format("The target is {}; its best durable sequential write rate here, {} (`{}` at {}), is {}.",
                    withArticle(kind), formatMBps(mbps), k.strategy, formatBytes(k.chunkBytes), verdict);
    if (anyFinding(found, Finding::Kind::CpuBound, index))
        v.comparison += " That case kept the CPU busy, so the drive may be faster than this.";
    v.comparison += fmt::format(" Typical range from {}.", range->source);
    return v;
}

} // namespace iolab
