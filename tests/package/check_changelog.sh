#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The changelog names the project's version: its newest "## [X.Y.Z] - YYYY-MM-DD" heading is project()'s
# version, and the versions below it are older.
#   check_changelog.sh CHANGELOG.md VERSION
set -euo pipefail
changelog="$1"
version="$2"
mapfile -t headings < <(grep -E '^## \[' "$changelog" || true)
if ((${#headings[@]} == 0)); then
  echo "$changelog has no '## [X.Y.Z] - YYYY-MM-DD' heading"
  exit 1
fi
for heading in "${headings[@]}"; do
  if ! [[ "$heading" =~ ^'## ['[0-9]+\.[0-9]+\.[0-9]+'] - '[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]]; then
    echo "$changelog: '$heading' is not '## [X.Y.Z] - YYYY-MM-DD'"
    exit 1
  fi
done
newest="$(sed -E 's/^## \[([^]]+)\].*/\1/' <<<"${headings[0]}")"
if [[ "$newest" != "$version" ]]; then
  echo "$changelog: the newest entry is $newest, but CMakeLists.txt's project() says $version:"
  echo "add a '## [$version] - $(date +%F)' entry (or fix the version)"
  exit 1
fi
previous=""
for heading in "${headings[@]}"; do
  v="$(sed -E 's/^## \[([^]]+)\].*/\1/' <<<"$heading")"
  if [[ -n "$previous" ]] && [[ "$(printf '%s\n%s\n' "$v" "$previous" | sort -V | tail -1)" != "$previous" || "$v" == "$previous" ]]; then
    echo "$changelog: $v is listed below $previous but is not older"
    exit 1
  fi
  previous="$v"
done
echo "$changelog: newest entry $newest matches the project version; ${#headings[@]} release(s)"
