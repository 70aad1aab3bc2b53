#!/usr/bin/env bash
# Regenerates the pictures of docs/guide.md (docs/images/*.png) from profiles in
# golden/inputs, with this repository's hp2ps and ghostscript (and rsvg-convert for the
# SVG example). Usage: scripts/make-guide-images.sh [path/to/hp2ps]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
hp2ps="${1:-}"
if [ -z "$hp2ps" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
  hp2ps="${CARGO_TARGET_DIR:-$root/target}/release/hp2ps"
fi
hp2ps="$(cd "$(dirname "$hp2ps")" && pwd)/$(basename "$hp2ps")"
out="$root/docs/images"
inputs="$root/golden/inputs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$work"

cp "$inputs/leakmap-O0-hc-bio-dragvoid.hp" leak.hp
cp "$inputs/arrays-O1-hc.hp" many.hp
cp "$inputs/edge-marks.hp" marks.hp

gs_png() { # gs_png IN OUT DPI [extra gs args]
  local in="$1" png="$2" dpi="$3"
  shift 3
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=png16m -r"$dpi" \
     -dTextAlphaBits=4 -dGraphicsAlphaBits=4 "$@" -sOutputFile="$png" "$in"
}

# One picture per flag: the chart as EPS (`--format eps`, the same drawing as the page,
# cropped and unrotated), 60 dpi. Each name says what it shows.
eps() { # eps NAME INPUT FLAGS...
  local name="$1" input="$2"
  shift 2
  "$hp2ps" "$@" --format eps -o "$name.eps" "$input"
  gs_png "$name.eps" "$out/$name.png" 60 -dEPSCrop
}

eps default leak.hp
eps flag-c leak.hp -c
eps flag-s leak.hp -c -s
eps many many.hp -c
eps flag-d many.hp -c -d
eps flag-i many.hp -c -i
eps flag-i-minus many.hp -c -i-
eps flag-t0 many.hp -c -t0
eps flag-t5 many.hp -c -t5
eps flag-m5 many.hp -c -t0 -m5
eps flag-m0 many.hp -c -t0 -m0
eps marks marks.hp -c
eps flag-y marks.hp -c -y
eps window leak.hp -c --from 0.5 --to 1.0

# Eventlogs, and comparing runs.
cp "$root/tests/data/eventlog/leakmap-hc.eventlog" leakmap.eventlog
eps eventlog leakmap.eventlog -c
eps heap-size leakmap.eventlog -c --heap-size
# The same run on both time axes: the mutator axis's slope at the end (guide, eventlog.md).
eps time-mutator leakmap.eventlog -c --time mutator
eps time-elapsed leakmap.eventlog -c --time elapsed
cp "$inputs/longnames-O0-hc-L200.hp" long.hp
eps key-labels-cut long.hp -c
eps key-labels-fit long.hp -c --key-labels fit
eps sort-growth many.hp -c --sort growth
eps include many.hp -c --include '^\([0-9]+\)(memoTable|buckets|smoothing)'
mkdir -p uniform
"$hp2ps" -c --uniform-scale both --format eps --output-dir uniform leak.hp many.hp
gs_png uniform/leak.eps "$out/uniform-leak.png" 40 -dEPSCrop
gs_png uniform/many.eps "$out/uniform-many.png" 40 -dEPSCrop
# --palette, --colour-by name, --pattern: one picture per palette, a name-coloured pair
# (the second file without the lazyCounter bands), and the print patterns in grey.
for palette in okabe-ito tol-bright tol-muted viridis; do
  eps "palette-$palette" many.hp --palette "$palette"
done
grep -v lazyCounter many.hp > fewer.hp
eps colour-by-name-a many.hp -c -m7 --colour-by name --palette tol-muted
eps colour-by-name-b fewer.hp -c -m7 --colour-by name --palette tol-muted
"$hp2ps" --pattern --format eps -o pattern.eps many.hp
gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pnggray -r60 -dTextAlphaBits=4 \
   -dGraphicsAlphaBits=4 -dEPSCrop -sOutputFile="$out/pattern.png" pattern.eps

# -e: the width of the picture (same 60 dpi: a 3-inch chart is a smaller image).
"$hp2ps" -c -e3in -o flag-e3in.eps leak.hp
gs_png flag-e3in.eps "$out/flag-e3in.png" 60 -dEPSCrop

# -p: a zoomed-in window drawn with the scale, order and shades of the whole profile.
"$hp2ps" leak.hp
"$hp2ps" -p --to 0.6 --format eps leak.hp
gs_png leak.eps "$out/flag-p.png" 60 -dEPSCrop

# Whole pages: the default landscape page (rotated on the paper), -g portrait, -M pages.
"$hp2ps" -c -o page.ps leak.hp
gs_png page.ps "$out/page-default.png" 30
"$hp2ps" -c -g -o page-g.ps leak.hp
gs_png page-g.ps "$out/page-g.png" 30
"$hp2ps" -c -M -o page-M.ps leak.hp
gs_png page-M.ps "$out/page-M-%d.png" 30

# docs/profiling.md: the example program's profile.
"$hp2ps" -c --format eps -o leak-example.eps "$root/docs/examples/leak.hp"
gs_png leak-example.eps "$out/profiling-leak.png" 60 -dEPSCrop

# SVG, through rsvg-convert: the same picture as the EPS.
if command -v rsvg-convert >/dev/null; then
  "$hp2ps" -c --format svg -o leak.svg leak.hp
  rsvg-convert --zoom 0.8333 -o "$out/format-svg.png" leak.svg
fi
# The HTML page, in headless Chromium (chromium, chromedriver), at 1280×800: as it opens,
# pointing at the chart, zoomed into the lines view, in the dark, and the band table of a
# profile with traces and OTHER (examples/html_page.rs, built with this repository's
# cargo); the marks of a GHC 9.10.3 run; then a zoomed window's numbers and the
# cost-centre icicle, and two runs compared in one page (LeakMap -hc: the GHC 9.0.2 .hp
# of tests/data/page against the GHC 9.10.3 eventlog).
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" --example html_page
  driver="${CARGO_TARGET_DIR:-$root/target}/release/examples/html_page"
  "$hp2ps" --format html leak.hp
  "$driver" shots leak.html "$out" html
  rm -f "$out"/html-table.png
  "$hp2ps" --format html many.hp
  "$driver" shots many.html "$out" html-many
  rm -f "$out"/html-many-page.png "$out"/html-many-hover.png "$out"/html-many-zoom-lines.png \
    "$out"/html-many-dark.png
  cp "$root/tests/data/ghc-9.10/marker-hc.eventlog" marker.eventlog
  "$hp2ps" --format html marker.eventlog
  "$driver" shots marker.html "$out" html-marker
  mv "$out"/html-marker-marks.png "$out"/html-marks.png
  rm -f "$out"/html-marker-*.png
  "$driver" views leak.html "$out" html
  cp "$root/tests/data/page/leakmap-O1-hc.hp" leakmap-9.0.hp
  cp "$root/tests/data/ghc-9.10/leakmap-hc.eventlog" leakmap-9.10.eventlog
  "$hp2ps" --format html -o compare.html leakmap-9.0.hp leakmap-9.10.eventlog
  "$driver" views compare.html "$out" html
fi
ls -l "$out"
