// SPDX-License-Identifier: MIT
#include "core/base/log.h"

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <array>
#include <memory>
#include <mutex>

namespace iolab {

namespace {

constexpr std::array<const char*, 4> kNames{"core", "platform", "cli", "gui"};

struct Loggers
{
    std::mutex mutex;
    std::array<std::shared_ptr<spdlog::logger>, kNames.size()> loggers;

    Loggers()
    {
        auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
        console->set_level(spdlog::level::warn);
        for (std::size_t i = 0; i < kNames.size(); ++i) {
            loggers[i] = std::make_shared<spdlog::logger>(kNames[i], console);
            loggers[i]->set_level(spdlog::level::trace);
        }
    }
};

Loggers& instance()
{
    static Loggers loggers;
    return loggers;
}

} // namespace

spdlog::logger& logger(LogModule module)
{
    return *instance().loggers[static_cast<std::size_t>(module)];
}

std::string configureLogging(const LogConfig& config)
{
    auto& all = instance();
    std::lock_guard lock(all.mutex);
    std::vector<spdlog::sink_ptr> sinks;
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    console->set_level(config.consoleLevel);
    console->set_pattern("%^%l%$: %v");
    sinks.push_back(console);
    std::string error;
    if (!config.filePath.empty()) {
        try {
            auto file =
                std::make_shared<spdlog::sinks::rotating_file_sink_mt>(config.filePath, 5 * 1024 * 1024, 3);
            file->set_level(config.fileLevel);
            file->set_pattern("%Y-%m-%d %H:%M:%S.%e [%n] %l: %v");
            sinks.push_back(file);
        } catch (const spdlog::spdlog_ex& e) {
            error = e.what();
        }
    }
    sinks.insert(sinks.end(), config.extraSinks.begin(), config.extraSinks.end());
    for (auto& l : all.loggers) {
        l->sinks() = sinks;
        l->flush_on(spdlog::level::warn);
    }
    return error;
}

} // namespace iolab
