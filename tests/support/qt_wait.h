// SPDX-License-Identifier: MIT
// Waiting in a GoogleTest test for what the event loop brings. QtTest's QTRY_VERIFY and QTRY_COMPARE report
// a timeout to QtTest, which a GoogleTest test never asks, and then return from the test: it passes. These
// wait the same way (the event loop runs, the condition is checked every few milliseconds) and fail the
// test, fatally, with the condition and the time waited. tests/lint/check_test_macros.sh keeps the QtTest
// macros out of the tests.
#pragma once

#include <QTest>

#include <gtest/gtest.h>

// Waits until `condition` holds, at most `timeoutMs`.
#define IOLAB_TRY_VERIFY(condition, timeoutMs)                                                               \
    ASSERT_TRUE(::QTest::qWaitFor([&] { return static_cast<bool>(condition); }, (timeoutMs)))                \
        << "still false after " << (timeoutMs) << " ms: " #condition

// Waits until `actual == expected`, at most `timeoutMs`, then compares them as ASSERT_EQ does.
#define IOLAB_TRY_COMPARE(actual, expected, timeoutMs)                                                       \
    do {                                                                                                     \
        (void)::QTest::qWaitFor([&] { return (actual) == (expected); }, (timeoutMs));                        \
        ASSERT_EQ((actual), (expected)) << "after waiting " << (timeoutMs) << " ms";                         \
    } while (false)
