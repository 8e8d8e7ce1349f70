#!/bin/sh
# SPDX-License-Identifier: MIT
# Every apt-get that installs, updates or removes in the project's scripts waits for the dpkg lock (held by
# background updates on any desktop) instead of failing at once: -o DPkg::Lock::Timeout=300.
set -eu
root=${1:?usage: check_apt_lock.sh SOURCE_DIR}
status=0
for script in "$root"/installer/*.sh "$root"/tests/package/*.sh; do
  # Commands, not comments or echoed advice.
  bad=$(grep -nE 'apt-get[^|;&]* (update|install|upgrade|purge|remove|autoremove)( |$)' "$script" |
        grep -vE '^[0-9]+:[[:space:]]*#|echo ' | grep -v 'DPkg::Lock::Timeout=300' || true)
  if [ -n "$bad" ]; then
    printf '%s: apt-get without -o DPkg::Lock::Timeout=300:\n%s\n' "$script" "$bad"
    status=1
  fi
done
[ $status -eq 0 ] && echo "every apt-get waits for the dpkg lock"
exit $status
