#!/usr/bin/env bash
# Regenerates the gallery in docs/images/: one real profile rendered as mono and colour
# PostScript (through ghostscript), SVG (through rsvg-convert) and PDF (through pdftoppm),
# all at 100 dpi. Needs ghostscript, librsvg2-bin and poppler-utils.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
hp2ps="$PWD/target/release/hp2ps"
out="$PWD/docs/images"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp golden/inputs/leakmap-O0-hc-bio-dragvoid.hp "$work/leak.hp"
cd "$work"
gs_png() { gs -q -dSAFER -dBATCH -dNOPAUSE -dEPSCrop -r100 -dTextAlphaBits=4 -dGraphicsAlphaBits=4 -sDEVICE=png16m -sOutputFile="$2" "$1"; }
"$hp2ps" --format eps -o mono.eps leak.hp
"$hp2ps" -c --format eps -o colour.eps leak.hp
"$hp2ps" -c -o colour.svg leak.hp
"$hp2ps" -c -o colour.pdf leak.hp
gs_png mono.eps "$out/gallery-mono-ps.png"
gs_png colour.eps "$out/gallery-colour-ps.png"
rsvg-convert --dpi-x 100 --dpi-y 100 -b white colour.svg -o "$out/gallery-colour-svg.png"
pdftoppm -r 100 -png -singlefile colour.pdf "$out/gallery-colour-pdf"
echo "wrote $out/gallery-*.png"
