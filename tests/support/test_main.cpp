// SPDX-License-Identifier: MIT
// The main of the test programs whose runs start case children (the kill -9 probe): re-executed as
// `<test program> __case-child <link>`, the program is the child, with the built-in strategies and the test
// ones (tests/support/memory_hog.h), and runs no test.
#include "platform/platform.h"
#include "tests/support/memory_hog.h"

#include <gmock/gmock.h>

int main(int argc, char** argv)
{
    if (const auto code = iolab::runCaseChildIfAsked(argc, argv, iolab::test::testRegistry()))
        return *code;
    ::testing::InitGoogleMock(&argc, argv);
    return RUN_ALL_TESTS();
}
