#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Windows packages (cpack: NSIS with makensis, and ZIP) from the mingw build tree, then, under wine,
# installs the NSIS one silently, checks its files, Start-menu entries and uninstall entry, runs the installed
# iolab-cli, uninstalls it silently and checks that the folder, the entries and the keys are gone.
# With the GUI (GUI=1: the build found the Qt for MinGW), the package is IOLab's: iolab.exe and the CLI, Qt's
# DLLs beside them (every import of the installed iolab.exe resolved, read from its import tables), a
# Start-menu entry for the app, "Open with > IOLab" for .json files; the installed iolab.exe writes a PDF.
#   check_windows_installer.sh BUILD_DIR OUT_DIR VERSION [GUI]
# Expects WINEPREFIX (and a running wineserver) as installer/dev.sh sets them up.
set -euo pipefail
build="$1"
out="$2"
version="$3"
gui="${4:-0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ "$gui" == 1 ]]; then
  package="IOLab" menu_name="IOLab" key_name="IOLab"
  files=(bin/iolab.exe bin/iolab-cli.exe bin/iolab-record.dll bin/Qt6Core.dll bin/Qt6Charts.dll bin/libstdc++-6.dll
    bin/platforms/qwindows.dll bin/styles/qwindowsvistastyle.dll README.md LICENSE CHANGELOG.md Uninstall.exe)
  links=("IOLab.lnk" "IOLab command line.lnk" "Read me.lnk" "Changes.lnk" "Uninstall.lnk")
else
  package="iolab-cli" menu_name="IOLab command line" key_name="iolab-cli"
  files=(bin/iolab-cli.exe bin/iolab-record.dll README.md LICENSE CHANGELOG.md Uninstall.exe)
  links=("IOLab command line.lnk" "Read me.lnk" "Changes.lnk" "Uninstall.lnk")
fi
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
installer="$out/cpack/${package}-${version}-windows-x86_64.exe"
zip="$out/cpack/${package}-${version}-windows-x86_64.zip"
for f in "$installer" "$zip"; do
  [[ -s "$f" ]] || { echo "FAIL: cpack made no $f"; ls -l "$out/cpack" || true; exit 1; }
done
echo "made $(basename "$installer") ($(du -k "$installer" | cut -f1) KiB) and $(basename "$zip")"
cmake -E tar tf "$zip" >"$out/zip.list"
for f in "${files[@]}"; do
  [[ "$f" == Uninstall.exe ]] && continue
  grep -qx "${package}-${version}-windows-x86_64/$f" "$out/zip.list" || { echo "FAIL: the ZIP lacks $f"; exit 1; }
done

# A folder of its own on wine's C: drive (the /D= path must be last and unquoted, as NSIS wants).
drive_c="$WINEPREFIX/drive_c"
[[ -d "$drive_c" ]] || { echo "FAIL: no wine prefix at $WINEPREFIX"; exit 1; }
name="iolab-installer-test-$$"
target="$drive_c/$name"
rm -rf "$target"
chmod +x "$installer" # wine runs a file without the x bit as a document, through the shell
echo "== silent install to C:\\$name"
run_wine "$out/install.log" "$installer" /S "/D=C:\\$name" || { echo "FAIL: the silent install failed"; exit 1; }
for f in "${files[@]}"; do
  [[ -f "$target/$f" ]] || { echo "FAIL: the installer did not install $f"; ls -R "$target" || true; exit 1; }
done
run_wine "$out/version.log" "$target/bin/iolab-cli.exe" --version || { echo "FAIL: the installed iolab-cli failed"; exit 1; }
got="$(tr -d '\r' <"$out/version.log")"
[[ "$got" == "iolab-cli $version" ]] || { echo "FAIL: the installed iolab-cli says '$got'"; exit 1; }
echo "installed iolab-cli says: $got"
# The installed recorder (iolab-record.dll beside iolab-cli.exe) records a program: wine's cmd.exe writing a line.
run_wine "$out/record.log" "$target/bin/iolab-cli.exe" record --output "C:\\$name-cmd.iolab-trace" -- cmd.exe /c \
  "echo recorded>C:\\$name-hello.txt" || { echo "FAIL: the installed iolab-cli did not record cmd.exe"; exit 1; }
tr -d '\r' <"$out/record.log" >"$out/record.txt"
grep -q "$name-hello.txt: wrote 10 B" "$out/record.txt" ||
  { cat "$out/record.txt"; echo "FAIL: the installed recorder did not see cmd.exe write its 10 bytes"; exit 1; }
rm -f "$drive_c/$name-cmd.iolab-trace" "$drive_c/$name-hello.txt"
echo "the installed iolab-cli recorded cmd.exe writing its line"
if [[ "$gui" == 1 ]]; then
  # What a clean Windows would need: every DLL the installed app and its plugins import is installed too.
  python3 "$here/check_windows_imports.py" "$target/bin/iolab.exe" >"$out/imports.log" ||
    { cat "$out/imports.log"; echo "FAIL: the installed iolab.exe imports a DLL the package lacks"; exit 1; }
  tail -1 "$out/imports.log"
  # The installed app runs: it writes a report from a result (the windows platform plugin, wine's fonts).
  cp "$here/../data/golden-result.json" "$drive_c/$name-result.json"
  run_wine "$out/report.log" "$target/bin/iolab.exe" report "C:\\$name-result.json" --pdf "C:\\$name-report.pdf" ||
    { echo "FAIL: the installed iolab.exe did not write a report"; exit 1; }
  # Into a file first: `grep -q` ends the pipe early, and pipefail would take pdftotext's SIGPIPE for a failure.
  pdftotext "$drive_c/$name-report.pdf" "$out/report.txt"
  grep -q "IOLab report: golden" "$out/report.txt" ||
    { echo "FAIL: the installed iolab.exe's PDF has no readable text"; exit 1; }
  rm -f "$drive_c/$name-result.json" "$drive_c/$name-report.pdf"
  echo "the installed iolab.exe wrote a PDF with readable text"
  progid='HKLM\Software\Classes\IOLab.Result\shell\open\command'
  { run_wine "$out/progid.log" reg query "$progid" && tr -d '\r' <"$out/progid.log" | grep -qi 'bin\\iolab.exe" "%1"'; } ||
    { cat "$out/progid.log"; echo "FAIL: no 'Open with IOLab' command under $progid"; exit 1; }
  { run_wine "$out/openwith.log" reg query 'HKLM\Software\Classes\.json\OpenWithProgids' /v IOLab.Result; } ||
    { echo "FAIL: .json files do not offer IOLab under Open with"; exit 1; }
fi
menu="$(find "$drive_c" -type d -path "*/Start Menu/Programs/$menu_name" | head -1)"
[[ -n "$menu" ]] || { echo "FAIL: no Start-menu folder '$menu_name'"; exit 1; }
for link in "${links[@]}"; do
  [[ -f "$menu/$link" ]] || { echo "FAIL: the Start menu lacks $link"; ls "$menu"; exit 1; }
done
key="HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\$key_name"
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
if [[ "$gui" == 1 ]]; then
  if timeout 60 wine reg query 'HKLM\Software\Classes\IOLab.Result' >/dev/null 2>&1 </dev/null ||
    timeout 60 wine reg query 'HKLM\Software\Classes\.json\OpenWithProgids' /v IOLab.Result >/dev/null 2>&1 </dev/null; then
    echo "FAIL: the uninstaller left IOLab's 'Open with' entries for .json"; exit 1
  fi
fi
echo "installed, ran and uninstalled under wine; nothing left"
