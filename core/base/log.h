// SPDX-License-Identifier: MIT
#pragma once

#include <spdlog/logger.h>

#include <string>
#include <vector>

namespace iolab {

enum class LogModule
{
    Core,
    Platform,
    Cli,
    Gui
};

// Named loggers ("core", "platform", "cli", "gui"), created once and cached; they share the sinks that
// configureLogging set up (until then: warnings and errors to stderr).
spdlog::logger& logger(LogModule module);

struct LogConfig
{
    std::string filePath; // "" for no log file
    spdlog::level::level_enum fileLevel = spdlog::level::info;
    spdlog::level::level_enum consoleLevel = spdlog::level::warn;
    std::vector<spdlog::sink_ptr> extraSinks; // e.g. the GUI's log panel; each keeps its own level
};

// Points every module logger at a rotating log file and stderr. Returns an error text if the file cannot be
// opened (logging then goes to stderr only).
std::string configureLogging(const LogConfig& config);

} // namespace iolab
