#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Linux packages from a build tree (cpack: DEB and TGZ) into OUT_DIR and checks what they hold:
# both programs, the desktop entry, the icons, the AppStream metainfo and the man pages, each valid
# (desktop-file-validate, appstreamcli, groff), dependencies found by dpkg-shlibdeps, no path into the build
# tree, and the version in every name.
#   check_package_contents.sh BUILD_DIR OUT_DIR VERSION APP_ID
set -euo pipefail
build="$1"
out="$2"
version="$3"
app_id="$4"
failed=0
fail() { echo "FAIL: $*"; failed=1; }

rm -rf "$out"
mkdir -p "$out"
echo "== cpack (DEB, TGZ) from $build"
if ! cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$out/cpack" >"$out/cpack.log" 2>&1; then
  cat "$out/cpack.log"
  echo "FAIL: cpack failed"
  exit 1
fi
arch="$(dpkg --print-architecture)"
deb="$out/cpack/iolab_${version}-1_${arch}.deb"
tgz="$out/cpack/iolab-${version}-linux-$(uname -m).tar.gz"
for f in "$deb" "$tgz"; do
  [[ -s "$f" ]] || { echo "FAIL: cpack made no $f:"; ls -l "$out/cpack" || true; exit 1; }
done
mv "$deb" "$tgz" "$out/"
deb="$out/$(basename "$deb")"
tgz="$out/$(basename "$tgz")"
echo "made $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) and $(basename "$tgz")"

echo "== control"
dpkg-deb --field "$deb" Package Version Architecture Depends Section
[[ "$(dpkg-deb --field "$deb" Version)" == "${version}-1" ]] || fail "the package version is not ${version}-1"
depends="$(dpkg-deb --field "$deb" Depends)"
for lib in libqt6charts6 libqt6widgets6 libqt6gui6 libqt6core6 libstdc++6 libc6; do
  grep -qE "(^|, )${lib//+/\\+}( |,|$)" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps did not run?)"
done
[[ -n "$(dpkg-deb --field "$deb" Description)" ]] || fail "no Description"

expected=(
  usr/bin/iolab
  usr/bin/iolab-cli
  "usr/share/applications/$app_id.desktop"
  "usr/share/metainfo/$app_id.metainfo.xml"
  "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
  usr/share/man/man1/iolab.1.gz
  usr/share/man/man1/iolab-cli.1.gz
  usr/share/doc/iolab/copyright
  usr/share/doc/iolab/README.md
  usr/share/doc/iolab/CHANGELOG.md
  usr/share/doc/iolab/examples/example.json
  usr/share/doc/iolab/manual/index.md
  usr/share/doc/iolab/manual/presets.md
  usr/share/doc/iolab/screenshots/start-1366.png
)
for size in 16 24 32 48 64 128 256; do
  expected+=("usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png")
done

echo "== files"
root="$out/root"
dpkg-deb -x "$deb" "$root"
for f in "${expected[@]}"; do
  [[ -f "$root/$f" ]] || fail "the .deb lacks /$f"
done
tar -tzf "$tgz" >"$out/tgz.list"
top="iolab-${version}-linux-$(uname -m)"
for f in "${expected[@]}"; do
  grep -qxF "$top/${f#usr/}" "$out/tgz.list" || fail "the tarball lacks $top/${f#usr/}"
done
for size in 16 24 32 48 64 128 256; do
  got="$(file -b "$root/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png")"
  [[ "$got" == *"PNG image data, $size x $size"* ]] || fail "the ${size}x${size} icon is $got"
done
for bin in iolab iolab-cli; do
  f="$root/usr/bin/$bin"
  file -b "$f" | grep -q 'not stripped' && fail "/usr/bin/$bin is not stripped"
  if readelf -d "$f" | grep -E 'RPATH|RUNPATH'; then
    fail "/usr/bin/$bin carries a library search path"
  fi
done

echo "== desktop-file-validate"
if ! desktop-file-validate "$root/usr/share/applications/$app_id.desktop"; then
  fail "desktop-file-validate rejects the desktop entry"
fi
grep -qx "Icon=$app_id" "$root/usr/share/applications/$app_id.desktop" || fail "the desktop entry's Icon is not $app_id"
grep -qx "Exec=iolab %f" "$root/usr/share/applications/$app_id.desktop" || fail "the desktop entry does not start iolab"

echo "== appstreamcli validate"
# --no-net: the screenshot and homepage URLs are checked for form, not fetched (CI may be offline).
if ! appstreamcli validate --no-net --pedantic --explain "$root/usr/share/metainfo/$app_id.metainfo.xml"; then
  fail "appstreamcli rejects the metainfo"
fi
if ! appstreamcli validate-tree --no-net "$root"; then
  fail "appstreamcli rejects the installed tree (metainfo, desktop entry and icon together)"
fi
grep -q "<release version=\"$version\"" "$root/usr/share/metainfo/$app_id.metainfo.xml" ||
  fail "the metainfo has no release $version"
grep -c '<screenshot' "$root/usr/share/metainfo/$app_id.metainfo.xml" | grep -qv '^0$' || fail "no screenshots"

echo "== man pages"
for page in iolab iolab-cli; do
  f="$root/usr/share/man/man1/$page.1.gz"
  gzip -t "$f" || fail "$page.1.gz is not gzip"
  warnings="$(zcat "$f" | groff -man -ww -z -Tutf8 2>&1 || true)"
  [[ -z "$warnings" ]] || fail "groff warns about $page.1: $warnings"
  # grep reads the whole page: with -q it would stop at the first match and zcat, writing on into a closed pipe,
  # would fail the pipeline (pipefail) once the page outgrows the pipe's buffer.
  zcat "$f" | grep "IOLab $version" >/dev/null || fail "$page.1 does not carry version $version"
done

# The tarball and the .deb hold the same programs.
mkdir -p "$out/tgz"
tar -xzf "$tgz" -C "$out/tgz"
cmp -s "$out/tgz/$top/bin/iolab-cli" "$root/usr/bin/iolab-cli" || fail "the tarball's iolab-cli differs from the .deb's"

if [[ "$failed" -ne 0 ]]; then
  exit 1
fi
echo "the packages hold what they should"
