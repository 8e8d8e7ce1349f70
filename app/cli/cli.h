// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace iolab::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCasesFailed = 1;
inline constexpr int kExitUsage = 2;

// Runs `iolab-cli` with the given arguments (argv[0] first); returns the exit code.
int runCli(int argc, const char* const* argv);

} // namespace iolab::cli
