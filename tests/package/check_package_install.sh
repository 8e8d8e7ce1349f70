#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the .deb the normal way (apt-get install ./iolab_*.deb), uses the installed programs with the
# source and build trees hidden (a private mount namespace with empty folders over them): iolab-cli --version,
# a tiny verified run, iolab started offscreen until its window is up; then purges the package and whatever
# it pulled in, and checks that nothing it added is left in /usr. Needs root; exits 77 (skipped) without.
#   check_package_install.sh PACKAGE_DIR VERSION APP_ID SOURCE_DIR BUILD_DIR
set -euo pipefail
packages="$1"
version="$2"
app_id="$3"
source_dir="$4"
build_dir="$5"

if [[ $(id -u) -ne 0 ]]; then
  echo "skipped: installing a package needs root (CI runs as root)"
  exit 77
fi
if dpkg-query -W -f='${Status}' iolab 2>/dev/null | grep -q 'install ok installed'; then
  echo "skipped: an iolab package is already installed here; this test would replace and then remove it"
  exit 77
fi
shopt -s nullglob
debs=("$packages"/iolab_"${version}"-1_*.deb)
if ((${#debs[@]} != 1)); then
  echo "FAIL: expected one iolab_${version}-1_*.deb in $packages (the package.contents test makes it)"
  exit 1
fi

work="$(mktemp -d /tmp/iolab-package-test.XXXXXX)"
cp "${debs[0]}" "$work/"
deb="./$(basename "${debs[0]}")"
installed=0
pulled=()
cleanup() {
  if [[ $installed -eq 1 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y -q iolab "${pulled[@]}" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# What was there before: every path under /usr and every installed package.
find /usr -xdev | sort >"$work/usr.before"
dpkg-query -W -f='${Package}\n' | sort >"$work/packages.before"

echo "== apt-get install $deb"
installed=1
(cd "$work" && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "$deb") >"$work/apt.log" 2>&1 || {
  cat "$work/apt.log"; echo "FAIL: apt-get install failed"; exit 1
}
dpkg-query -W -f='${Package}\n' | sort >"$work/packages.after"
mapfile -t pulled < <(comm -13 "$work/packages.before" "$work/packages.after" | grep -vx iolab || true)
echo "installed iolab $(dpkg-query -W -f='${Version}' iolab)${pulled:+, pulling in: ${pulled[*]}}"
for f in /usr/bin/iolab /usr/bin/iolab-cli "/usr/share/applications/$app_id.desktop"; do
  [[ -f "$f" ]] || { echo "FAIL: $f is not installed"; exit 1; }
done

# The smoke run, inside a private mount namespace where the source and build trees are empty folders, so
# that nothing can come from them.
cat >"$work/smoke.sh" <<SMOKE
set -euo pipefail
for hide in "$source_dir" "$build_dir"; do
  [[ -d "\$hide" ]] && mount -t tmpfs -o size=1m,ro iolab-hidden "\$hide"
done
[[ -z "\$(ls -A "$source_dir")" ]] || { echo "FAIL: the source tree is still visible"; exit 1; }
cd "$work"
export HOME="$work/home" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
mkdir -p "\$HOME" target

echo "== iolab-cli --version"
got="\$(iolab-cli --version)"
echo "\$got"
[[ "\$got" == "iolab-cli $version" ]] || { echo "FAIL: expected 'iolab-cli $version'"; exit 1; }

echo "== iolab-cli run (tiny, verified)"
iolab-cli run --target "$work/target" --strategy write,stdio --chunk 64K --size 1M --reps 1 --warmups 0 \
  --verify --quiet --json "$work/result.json"
grep -q '"toolVersion": "$version"' "$work/result.json" || { echo "FAIL: the result does not name version $version"; exit 1; }
grep -q '"status": "ok"' "$work/result.json" || { echo "FAIL: no ok case"; exit 1; }
[[ -z "\$(ls -A "$work/target")" ]] || { echo "FAIL: the run left files in its target"; ls -lA "$work/target"; exit 1; }

echo "== iolab (offscreen) until its window is up"
export QT_QPA_PLATFORM=offscreen
got="\$(iolab --version 2>/dev/null)"
[[ "\$got" == *"$version"* ]] || { echo "FAIL: iolab --version says '\$got'"; exit 1; }
timeout 120 iolab --quit-after-shown --data-dir "$work/appdata" --settings "$work/settings.ini" \
  --perf-report "$work/perf.json" 2>"$work/gui.err" || { cat "$work/gui.err"; echo "FAIL: iolab did not start and quit"; exit 1; }
grep -qE '"startToShownMs": [0-9]+' "$work/perf.json" || { cat "$work/perf.json"; echo "FAIL: the window never came up"; exit 1; }
grep -q "IOLab $version started" "$work/state/iolab/iolab.log" || { echo "FAIL: the log does not name the version"; exit 1; }
echo "window up after \$(grep -oE '"startToShownMs": [0-9]+' "$work/perf.json" | grep -oE '[0-9]+$') ms"
iolab report "$work/result.json" --pdf "$work/result.pdf" 2>/dev/null
[[ "\$(head -c 5 "$work/result.pdf")" == "%PDF-" ]] || { echo "FAIL: iolab report wrote no PDF"; exit 1; }
if command -v man >/dev/null; then
  [[ "\$(man -w iolab-cli)" == /usr/share/man/man1/iolab-cli.1.gz ]] || { echo "FAIL: man does not find iolab-cli(1)"; exit 1; }
fi
SMOKE
unshare --mount --propagation private bash "$work/smoke.sh"

echo "== apt-get purge iolab${pulled:+ ${pulled[*]}}"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y -q iolab "${pulled[@]}" >"$work/purge.log" 2>&1 || {
  cat "$work/purge.log"; echo "FAIL: apt-get purge failed"; exit 1
}
installed=0
if dpkg-query -W -f='${Status}' iolab 2>/dev/null | grep -q 'installed'; then
  echo "FAIL: iolab is still installed"; exit 1
fi
find /usr -xdev | sort >"$work/usr.after"
# The desktop and icon caches belong to the system: dpkg triggers rebuild them whenever any package adds or
# removes a desktop entry or icon, and create them if they were missing.
left="$(comm -13 "$work/usr.before" "$work/usr.after" |
  grep -vxE '/usr/share/applications/mimeinfo\.cache|/usr/share/icons/hicolor/icon-theme\.cache' || true)"
if [[ -n "$left" ]]; then
  echo "FAIL: left in /usr after the purge:"
  echo "$left"
  exit 1
fi
echo "installed, used and removed; nothing left in /usr"
