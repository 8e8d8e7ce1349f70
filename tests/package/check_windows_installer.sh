#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Windows CLI packages (cpack: NSIS with makensis, and ZIP) from the mingw build tree, then, under
# wine, installs the NSIS one silently, checks its files, Start-menu entries and uninstall entry, runs the
# installed iolab-cli, uninstalls it silently and checks that the folder, the entries and the key are gone.
#   check_windows_installer.sh BUILD_DIR OUT_DIR VERSION
# Expects WINEPREFIX (and a running wineserver) as installer/dev.sh sets them up.
set -euo pipefail
build="$1"
out="$2"
version="$3"
export WINEDEBUG=-all
# Creating the Start-menu links makes wine start winemenubuilder, which the test does not need (it writes host
# desktop entries) and which can outlive the installer.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:+$WINEDLLOVERRIDES;}winemenubuilder.exe=d"
# What wine starts inherits its standard output: a process that outlives the command (the uninstaller's copy
# of itself in %TEMP%, a helper the installer started) would hold ctest's pipe open, and ctest waits for the
# pipe, not for this script, so the test would run into its timeout after passing. Every wine command writes to
# a log here instead, shown when a step fails, and is bounded in time.
run_wine() {
  local log="$1"
  shift
  if ! timeout 120 wine "$@" >"$log" 2>&1 </dev/null; then
    cat "$log"
    return 1
  fi
}

rm -rf "$out"
mkdir -p "$out"
echo "== cpack (NSIS, ZIP) from $build"
if ! cpack --config "$build/CPackConfig.cmake" -G "NSIS;ZIP" -B "$out/cpack" >"$out/cpack.log" 2>&1; then
  cat "$out/cpack.log"; echo "FAIL: cpack failed"; exit 1
fi
installer="$out/cpack/iolab-cli-${version}-windows-x86_64.exe"
zip="$out/cpack/iolab-cli-${version}-windows-x86_64.zip"
for f in "$installer" "$zip"; do
  [[ -s "$f" ]] || { echo "FAIL: cpack made no $f"; ls -l "$out/cpack" || true; exit 1; }
done
echo "made $(basename "$installer") ($(du -k "$installer" | cut -f1) KiB) and $(basename "$zip")"
cmake -E tar tf "$zip" | grep -q "iolab-cli-${version}-windows-x86_64/bin/iolab-cli.exe" || { echo "FAIL: the ZIP lacks bin/iolab-cli.exe"; exit 1; }

# A folder of its own on wine's C: drive (the /D= path must be last and unquoted, as NSIS wants).
drive_c="$WINEPREFIX/drive_c"
[[ -d "$drive_c" ]] || { echo "FAIL: no wine prefix at $WINEPREFIX"; exit 1; }
name="iolab-installer-test-$$"
target="$drive_c/$name"
rm -rf "$target"
chmod +x "$installer" # wine runs a file without the x bit as a document, through the shell
echo "== silent install to C:\\$name"
run_wine "$out/install.log" "$installer" /S "/D=C:\\$name" || { echo "FAIL: the silent install failed"; exit 1; }
for f in bin/iolab-cli.exe README.md LICENSE CHANGELOG.md Uninstall.exe; do
  [[ -f "$target/$f" ]] || { echo "FAIL: the installer did not install $f"; ls -R "$target" || true; exit 1; }
done
run_wine "$out/version.log" "$target/bin/iolab-cli.exe" --version || { echo "FAIL: the installed iolab-cli failed"; exit 1; }
got="$(tr -d '\r' <"$out/version.log")"
[[ "$got" == "iolab-cli $version" ]] || { echo "FAIL: the installed iolab-cli says '$got'"; exit 1; }
echo "installed iolab-cli says: $got"
menu="$(find "$drive_c" -type d -path '*/Start Menu/Programs/IOLab command line' | head -1)"
[[ -n "$menu" ]] || { echo "FAIL: no Start-menu folder 'IOLab command line'"; exit 1; }
for link in "IOLab command line.lnk" "Read me.lnk" "Changes.lnk" "Uninstall.lnk"; do
  [[ -f "$menu/$link" ]] || { echo "FAIL: the Start menu lacks $link"; ls "$menu"; exit 1; }
done
key='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\iolab-cli'
{ run_wine "$out/reg.log" reg query "$key" /v DisplayVersion && tr -d '\r' <"$out/reg.log" | grep -q "$version"; } ||
  { echo "FAIL: no uninstall entry with version $version under $key"; exit 1; }

echo "== silent uninstall"
# The uninstaller copies itself to %TEMP% and returns at once, then removes the folder, the Start-menu
# entries and the key in that order; wait (up to 60 s) until all three are gone before judging.
run_wine "$out/uninstall.log" "$target/Uninstall.exe" /S || { echo "FAIL: the silent uninstall failed"; exit 1; }
for _ in $(seq 1 300); do
  if [[ ! -e "$target" && ! -e "$menu" ]] && ! timeout 60 wine reg query "$key" >/dev/null 2>&1 </dev/null; then
    break
  fi
  sleep 0.2
done
if [[ -e "$target" ]]; then
  echo "FAIL: left after uninstalling:"; find "$target"; exit 1
fi
if [[ -e "$menu" ]]; then
  echo "FAIL: the Start-menu folder is left:"; ls "$menu"; exit 1
fi
if timeout 60 wine reg query "$key" >/dev/null 2>&1 </dev/null; then
  echo "FAIL: the uninstall entry is still in the registry"; exit 1
fi
echo "installed, ran and uninstalled under wine; nothing left"
