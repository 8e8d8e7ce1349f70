#!/bin/sh
# SPDX-License-Identifier: MIT
# Starts a Windows test program under wine for ctest and gtest_discover_tests (the toolchain's emulator).
# Now and then wine starts nothing: the run fails in a few milliseconds without one line of output, which a
# test program never does (GoogleTest prints before it runs anything). Only that is retried, twice, with a
# note on stderr; a program that printed anything keeps its own exit status and output, failure or not.
set -u
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
attempt=1
while :; do
  status=0
  wine "$@" >"$out" 2>"$err" </dev/null || status=$?
  if [ "$status" -eq 0 ] || [ -s "$out" ] || [ -s "$err" ] || [ "$attempt" -ge 3 ]; then
    break
  fi
  echo "wine-run: wine started nothing for $1 (exit $status, no output); attempt $((attempt + 1)) of 3" >&2
  attempt=$((attempt + 1))
  sleep 1
done
cat "$out"
cat "$err" >&2
exit "$status"
