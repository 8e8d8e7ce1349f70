// SPDX-License-Identifier: MIT
// promtool (Debian's prometheus package), Prometheus's own check of the text exposition format, as the tests
// of iolab-cli --prometheus run it: installed when missing and the tests run as root (as installer/dev.sh
// installs what the tests use), else the test is skipped with the reason. A failed installation is a failure,
// not a skip. Under wine (the Windows tests) the Linux promtool checks the file on the Z: drive.
#pragma once

#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace iolab::test {

// Why promtool cannot be had (a reason to skip with), or nullopt when it is there. Adds a failure when root's
// installation of it failed.
inline std::optional<std::string> promtoolMissing()
{
    const auto found = [] {
        return runHostTool("sh", {"-c", "command -v promtool"}).exitCode == 0;
    };
    if (found())
        return std::nullopt;
    if (runHostTool("id", {"-u"}).out != "0\n")
        return "promtool is not installed and only root can install it: apt-get install prometheus (Debian's "
               "package holds promtool)";
    const ProcessResult installed = runHostTool(
        "sh", {"-c", "DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "
                     "-q --no-install-recommends prometheus"});
    if (installed.exitCode != 0 || !found()) {
        ADD_FAILURE() << "installing Debian's prometheus package (for promtool) failed:\n"
                      << installed.out << installed.err;
        return "promtool could not be installed (the failure above says why)";
    }
    return std::nullopt;
}

// `promtool check metrics` of the file at `path`: its exit status and what it said.
inline ProcessResult promtoolCheckMetrics(const std::string& path)
{
    return runHostTool("sh", {"-c", "promtool check metrics <\"$1\"", "sh", path});
}

} // namespace iolab::test
