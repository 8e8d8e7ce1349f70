// SPDX-License-Identifier: MIT
#include "app/cli/cli.h"
#include "platform/platform.h"

#include <vector>

int main(int argc, char** argv)
{
    // A case child of this program's own run (the kill -9 probe) does its case and nothing else.
    if (const auto code = iolab::runCaseChildIfAsked(argc, argv, iolab::builtinRegistry()))
        return *code;
    const std::vector<std::string> arguments = iolab::consoleArguments(argc, argv);
    std::vector<const char*> pointers;
    pointers.reserve(arguments.size() + 1);
    for (const auto& argument : arguments)
        pointers.push_back(argument.c_str());
    pointers.push_back(nullptr);
    return iolab::cli::runCli(static_cast<int>(arguments.size()), pointers.data());
}
