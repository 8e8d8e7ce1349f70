// SPDX-License-Identifier: MIT
#include "app/common/recording.h"

#include "core/base/error.h"
#include "core/model/trace_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>

namespace fs = std::filesystem;

namespace iolab {

namespace {

// A folder of its own beside the trace for the recorder's parts, removed once they are merged.
fs::path makePartsFolder(const fs::path& output)
{
    const fs::path parent = output.parent_path().empty() ? fs::path(".") : output.parent_path();
    std::random_device random;
    for (int attempt = 0; attempt < 16; ++attempt) {
        fs::path folder = parent / fmt::format(".iolab-record-{:08x}", random());
        std::error_code error;
        if (fs::create_directory(folder, error))
            return folder;
        if (error && error != std::errc::file_exists)
            throw InputError(fmt::format("cannot write beside {}: {}", output.string(), error.message()));
    }
    throw InputError(fmt::format("cannot make a folder beside {} for the recording", output.string()));
}

} // namespace

fs::path newTraceName(const fs::path& output)
{
    std::error_code error;
    if (fs::exists(output, error))
        throw InputError(
            fmt::format("{} already exists: name another file with --output, or remove it", output.string()));
    return output;
}

PartsFolder::PartsFolder(const fs::path& output) : path(makePartsFolder(output)) {}

PartsFolder::~PartsFolder()
{
    std::error_code ignored;
    fs::remove_all(path, ignored);
}

std::vector<fs::path> partsIn(const fs::path& folder)
{
    std::vector<std::pair<std::uint64_t, fs::path>> parts;
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.path().extension() != ".part")
            continue;
        // <pid>-<monotonic ns>.part: in the order the processes started
        const std::string stem = entry.path().stem().string();
        const auto dash = stem.find('-');
        std::uint64_t started = 0;
        if (dash != std::string::npos)
            started = std::strtoull(stem.c_str() + dash + 1, nullptr, 10);
        parts.emplace_back(started, entry.path());
    }
    std::sort(parts.begin(), parts.end());
    std::vector<fs::path> paths;
    paths.reserve(parts.size());
    for (auto& [started, path] : parts)
        paths.push_back(std::move(path));
    return paths;
}

void mergeParts(const std::vector<fs::path>& parts, const fs::path& output)
{
    std::vector<std::unique_ptr<std::ifstream>> streams;
    std::vector<std::pair<std::istream*, std::string>> inputs;
    for (const fs::path& part : parts) {
        streams.push_back(std::make_unique<std::ifstream>(part, std::ios::binary));
        inputs.emplace_back(streams.back().get(), part.string());
    }
    const fs::path temporary = output.string() + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError(fmt::format("cannot write {}", temporary.string()));
        mergeTraceParts(inputs, out);
        out.flush();
        if (!out) {
            out.close();
            fs::remove(temporary);
            throw InputError(fmt::format("cannot write {} (is the disk full?)", output.string()));
        }
    }
    fs::rename(temporary, output);
}

ProgramProfile profileOf(const fs::path& tracePath, std::uint64_t* records)
{
    std::ifstream in(tracePath, std::ios::binary);
    if (!in)
        throw InputError(fmt::format("cannot open {}: {}", tracePath.string(), std::strerror(errno)));
    TraceReader reader(in, tracePath.string());
    ProgramProfiler profiler;
    reader.forEachEvent([&](const TraceEvent& event) {
        profiler.add(event);
        return true;
    });
    if (records)
        *records = reader.eventRecords();
    return profiler.finish(reader.processes(), reader.notes());
}

} // namespace iolab
