#!/bin/sh
# SPDX-License-Identifier: MIT
# Renders the SVG sources to the PNG sizes Qt picks from for each device pixel ratio (16 to 64 px, and up to
# 256 px for the app icon). Needs rsvg-convert (Debian: librsvg2-bin); the PNGs are committed, so building
# IOLab does not need it.
set -eu
cd "$(dirname "$0")"
for svg in svg/*.svg; do
    name=$(basename "$svg" .svg)
    sizes="16 24 32 48 64"
    [ "$name" = iolab ] && sizes="16 24 32 48 64 128 256"
    for size in $sizes; do
        rsvg-convert -w "$size" -h "$size" "$svg" -o "png/$name-$size.png"
    done
done
# The Windows icon (the installer's and Add/Remove Programs'), all sizes in one .ico (ImageMagick).
convert png/iolab-16.png png/iolab-24.png png/iolab-32.png png/iolab-48.png png/iolab-64.png png/iolab-256.png iolab.ico
