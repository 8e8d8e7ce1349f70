// SPDX-License-Identifier: MIT
// Whether a result file a test had IOLab write follows the published schema
// (resources/schemas/iolab-result.schema.json), as python3-jsonschema, a validator nobody here wrote, judges:
//   EXPECT_TRUE(test::followsResultSchema(jsonPath));
// Under wine (the Windows tests) the Linux python3 validates the file on the Z: drive. For the tests that
// link tests/support/process.cpp and define IOLAB_SOURCE_DIR.
#pragma once

#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <string>

namespace iolab::test {

inline ::testing::AssertionResult followsResultSchema(const std::string& path)
{
    const ProcessResult check = runHostTool(
        "python3", {std::string(IOLAB_SOURCE_DIR) + "/tests/support/check_result_schema.py", path});
    if (check.exitCode == 0)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << path << " does not follow resources/schemas/iolab-result.schema.json "
           << "(exit " << check.exitCode << "):\n"
           << check.out << check.err;
}

} // namespace iolab::test
