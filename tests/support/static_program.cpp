// SPDX-License-Identifier: MIT
// A statically linked program, which iolab-cli record must refuse (no loader to put its recorder in).
#include <cstdio>

int main()
{
    std::puts("a static program");
    return 0;
}
