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
# A unity build compiles the sources in batches (Unity/unity_N_cxx.cxx): clang-tidy checks each batch once, and
# the header filter takes in the .cpp files a batch includes, so every source is still checked, its headers
# parsed once per batch instead of once per file. tidy_files.py fails if a source is in no unit at all. The
# batches live in the build folder, where clang-tidy would not find .clang-tidy: the configuration is given.
units="$("$source_dir/tests/lint/tidy_files.py" "$build_dir" "${files[@]/#/$source_dir/}")"
mapfile -t units <<<"$units"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
if ! run-clang-tidy -quiet -p "$build_dir" -j "$(nproc)" -config="$(cat "$source_dir/.clang-tidy")" -header-filter='(core|platform|app)/.*\.(h|cpp)$' \
    "${extra[@]}" "${units[@]}" >"$out" 2>&1; then
  grep -E 'warning:|error:' "$out" | sort -u | head -50
  echo "clang-tidy found problems (full output above is trimmed)"
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean (in ${#units[@]} translation units)"
