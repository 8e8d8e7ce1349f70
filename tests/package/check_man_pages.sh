#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The man pages describe the programs as they are: every option a program's --help lists is in its man page,
# every option the man page names (outside its examples) exists, and groff renders the pages without a
# warning.
#   check_man_pages.sh MAN_DIR IOLAB_CLI [IOLAB]
set -euo pipefail
man_dir="$1"
cli="$2"
gui="${3:-}"
failed=0

# Long options in help text, one per line, sorted.
help_options() { grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
# Long options a man page names outside .EX/.EE example blocks (roff writes '-' as '\-').
man_options() {
  awk '/^\.EX/{skip=1} /^\.EE/{skip=0; next} !skip' "$1" | sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z0-9-]*' |
    sort -u
}
compare() {
  local page="$1" help="$2"
  local documented
  documented="$(man_options "$page")"
  local missing extra
  missing="$(comm -23 <(printf '%s\n' "$help") <(printf '%s\n' "$documented"))"
  extra="$(comm -13 <(printf '%s\n' "$help") <(printf '%s\n' "$documented"))"
  if [[ -n "$missing" ]]; then
    echo "$page does not describe: $(echo $missing)"
    failed=1
  fi
  if [[ -n "$extra" ]]; then
    echo "$page names options the program does not have: $(echo $extra)"
    failed=1
  fi
  local warnings
  warnings="$(groff -man -ww -z -Tutf8 "$page" 2>&1 || true)"
  if [[ -n "$warnings" ]]; then
    echo "groff warns about $page:"
    echo "$warnings"
    failed=1
  fi
  [[ $failed -ne 0 ]] || echo "$page: $(wc -l <<<"$help") options, all described; groff renders it cleanly"
}

cli_help="$("$cli" --help)"
for command in $(awk '/^Subcommands:/{on=1; next} on && NF {print $1}' <<<"$cli_help"); do
  cli_help+=$'\n'"$("$cli" "$command" --help)"
done
compare "$man_dir/iolab-cli.1" "$(help_options <<<"$cli_help")"

if [[ -n "$gui" ]]; then
  gui_help="$(QT_QPA_PLATFORM=offscreen "$gui" --help 2>/dev/null)"$'\n'"$(QT_QPA_PLATFORM=offscreen "$gui" report --help 2>/dev/null)"
  compare "$man_dir/iolab.1" "$(help_options <<<"$gui_help")"
fi
exit $failed
