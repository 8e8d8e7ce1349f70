#!/usr/bin/env bash
# Runs clang-tidy with the repository's .clang-tidy over the engine, backends and apps; any finding fails.
#   check_tidy.sh SOURCE_DIR BUILD_DIR           the Linux build: app, core and platform sources
#   check_tidy.sh SOURCE_DIR BUILD_DIR windows   the mingw cross build: platform/windows, with the mingw
#                                                C++ and Windows headers (clang brings its own intrinsics)
set -euo pipefail
source_dir="$1"
build_dir="$2"
cd "$source_dir"
extra=()
if [[ "${3:-}" == windows ]]; then
  mapfile -t files < <(find platform/windows -name '*.cpp' | sort)
  gcc_version="$(x86_64-w64-mingw32-g++-posix -dumpversion)"
  for dir in "/usr/lib/gcc/x86_64-w64-mingw32/$gcc_version/include/c++" \
             "/usr/lib/gcc/x86_64-w64-mingw32/$gcc_version/include/c++/x86_64-w64-mingw32" \
             /usr/x86_64-w64-mingw32/include; do
    extra+=("-extra-arg=-isystem$dir")
  done
else
  mapfile -t files < <(find app core platform -name '*.cpp' -not -path 'platform/windows/*' | sort)
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
if ! run-clang-tidy -quiet -p "$build_dir" -j "$(nproc)" "${extra[@]}" "${files[@]/#/$source_dir/}" >"$out" 2>&1; then
  grep -E 'warning:|error:' "$out" | sort -u | head -50
  echo "clang-tidy found problems (full output above is trimmed)"
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"
