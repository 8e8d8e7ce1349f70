// SPDX-License-Identifier: MIT
#include "app/cli/cli.h"

int main(int argc, char** argv)
{
    return iolab::cli::runCli(argc, argv);
}
