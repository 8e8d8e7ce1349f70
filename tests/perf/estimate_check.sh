#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How close the one duration estimate (core/analysis/estimate.h) comes to the time a preset really takes, on a
# machine with no history (issue 34, §3; the README's table "The time estimate" comes from this script).
#   estimate_check.sh IOLAB_CLI TARGET_DIR [PRESET...]     (default: quick health-check cdm sync-lab stdio-per-byte)
# For each preset, in two fresh data folders (XDG_STATE_HOME), so that neither a kept calibration nor an earlier
# result informs the other:
#   1. `run --plan` calibrates on the target (none kept) and prints the calibrated estimate;
#   2. the run itself, started from this script (not a terminal, so it does not calibrate), prints the estimate
#      from typical figures and the strategies' costs as it starts; its wall time is the actual.
# RESULTS_DIR=FOLDER keeps each run's result there (PRESET.json).
# Prints one line per preset: both estimates, the actual, and each estimate over the actual.
set -euo pipefail
cli="$1"
target="$2"
shift 2
presets=("$@")
((${#presets[@]})) || presets=(quick health-check cdm sync-lab stdio-per-byte)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# "about 1 min 05 s", "about 48.3 s", "about 1 h 02 min" (core/base/units.cpp's formatDuration) -> seconds
seconds_of() {
  python3 -c '
import re, sys
m = re.search(r"about (?:(\d+) h )?(?:(\d+) min ?)?(?:([\d.]+) s)?", sys.argv[1])
print(0 if not m else int(m.group(1) or 0) * 3600 + int(m.group(2) or 0) * 60 + float(m.group(3) or 0))' "$1"
}
printf '%-16s %12s %12s %10s %9s %9s\n' preset calibrated typical actual cal/act typ/act
for preset in "${presets[@]}"; do
  plan_state="$scratch/$preset-plan" run_state="$scratch/$preset-run"
  mkdir -p "$plan_state" "$run_state" "$scratch/$preset-out"
  plan="$(XDG_STATE_HOME="$plan_state" "$cli" run --preset "$preset" --target "$target" --plan 2>/dev/null |
    grep '^Estimate:')"
  started=$(date +%s.%N)
  json=()
  [[ -z "${RESULTS_DIR:-}" ]] || json=(--json "$RESULTS_DIR/$preset.json")
  XDG_STATE_HOME="$run_state" "$cli" run --preset "$preset" --target "$target" --no-summary "${json[@]}" \
    >"$scratch/$preset-out/stdout" 2>"$scratch/$preset-out/stderr" || true
  ended=$(date +%s.%N)
  first="$(grep -m1 '^IOLab ' "$scratch/$preset-out/stderr" || true)"
  cal="$(seconds_of "$plan")"
  typ="$(seconds_of "$first")"
  actual="$(awk -v a="$started" -v b="$ended" 'BEGIN{printf "%.1f", b-a}')"
  printf '%-16s %12s %12s %10s %9s %9s\n' "$preset" "${cal}s" "${typ}s" "${actual}s" \
    "$(awk -v e="$cal" -v a="$actual" 'BEGIN{printf "%.2f", e/a}')" \
    "$(awk -v e="$typ" -v a="$actual" 'BEGIN{printf "%.2f", e/a}')"
  echo "  plan:  $plan"
  echo "  start: $first"
done
