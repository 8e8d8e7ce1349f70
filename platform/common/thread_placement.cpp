// SPDX-License-Identifier: MIT
// The reader CPU axis's placement rule, the same on every OS; the OS calls are in thread_placement_<os>.cpp.
#include "platform/thread_placement.h"

#include <fmt/format.h>

namespace iolab {

std::optional<PipePlacement> pipePlacement(ReaderCpu placement, std::uint32_t thread,
                                           const std::vector<unsigned>& cpus, Outcome& outcome)
{
    const std::string unknown =
        "this system did not say which CPUs IOLab may run on, so it cannot pin the threads";
    const auto refuse = [&outcome, placement](const std::string& why) {
        outcome = {Status::Refused, 0, "reader CPU",
                   fmt::format("reader CPU {}: {}", toString(placement), why)};
        return std::nullopt;
    };
    switch (placement) {
    case ReaderCpu::Any:
        return PipePlacement{};
    case ReaderCpu::Same:
        if (cpus.empty())
            return refuse(unknown);
        return PipePlacement{cpus[thread % cpus.size()], cpus[thread % cpus.size()]};
    case ReaderCpu::Other: {
        if (cpus.size() < 2)
            return refuse(cpus.empty()
                              ? unknown
                              : fmt::format("IOLab may run on one CPU only (CPU {}), and the writer and "
                                            "the reader need two",
                                            cpus.front()));
        const std::size_t pairs = cpus.size() / 2;
        const std::size_t first = (thread % pairs) * 2;
        return PipePlacement{cpus[first], cpus[first + 1]};
    }
    }
    return PipePlacement{};
}

} // namespace iolab
