#!/usr/bin/env bash
# Runs clang-tidy with the repository's .clang-tidy over the engine, backends and apps; any finding fails.
set -euo pipefail
source_dir="$1"
build_dir="$2"
cd "$source_dir"
mapfile -t files < <(find app core platform -name '*.cpp' | sort)
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
if ! run-clang-tidy -quiet -p "$build_dir" -j "$(nproc)" "${files[@]/#/$source_dir/}" >"$out" 2>&1; then
  grep -E 'warning:|error:' "$out" | sort -u | head -50
  echo "clang-tidy found problems (full output above is trimmed)"
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"
