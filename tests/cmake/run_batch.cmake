# SPDX-License-Identifier: MIT
# One batch of a GoogleTest program's tests (batches.cmake declares them): runs EXE (under EMULATOR, if any)
# with --gtest_filter=FILTER, its output shown as it comes, and fails unless the program exited with 0 having
# run EXPECTED tests. A sanitizer's report makes the exit status non-zero; a test that ends the process early
# leaves the count short.
execute_process(COMMAND ${EMULATOR} "${EXE}" "--gtest_filter=${FILTER}" RESULT_VARIABLE status
                OUTPUT_VARIABLE output ECHO_OUTPUT_VARIABLE)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the batch's program ended with ${status}")
endif()
if(NOT output MATCHES "\\[==========\\] ([0-9]+) tests? from [0-9]+ test suites? ran\\.")
  message(FATAL_ERROR "the batch's program did not say how many tests it ran: it ended before its last test")
endif()
if(NOT CMAKE_MATCH_1 EQUAL EXPECTED)
  message(FATAL_ERROR "the batch ran ${CMAKE_MATCH_1} tests of the ${EXPECTED} it was given")
endif()
