#!/usr/bin/env bash
# The tests are GoogleTest tests: QtTest's checking macros (QVERIFY, QCOMPARE, QTRY_*, QFAIL) report to
# QtTest, which no one asks, and return from the test, so a failure passes. tests/support/qt_wait.h has the
# waiting ones that fail the test.
set -euo pipefail
cd "$1"
bad=$(grep -rnE '\b(QTRY_[A-Z_]+|QVERIFY2?|QCOMPARE|QFAIL|QEXPECT_FAIL)\s*\(' tests --include='*.cpp' --include='*.h' || true)
if [[ -n "$bad" ]]; then
  echo "QtTest's checking macros do not fail a GoogleTest test (use tests/support/qt_wait.h or ASSERT_/EXPECT_):"
  echo "$bad"
  exit 1
fi
echo "test macros: no QtTest checking macro in the GoogleTest tests"
