#!/usr/bin/env bash
# Fails when any C++ source differs from what .clang-format asks for.
set -euo pipefail
cd "$1"
mapfile -t files < <(find app core platform tests -name '*.cpp' -o -name '*.h' | sort)
clang-format --dry-run -Werror "${files[@]}"
echo "clang-format: ${#files[@]} files clean"
