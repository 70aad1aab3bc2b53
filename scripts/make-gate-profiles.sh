#!/usr/bin/env bash
# Makes the real profiles of the CI gate's tests (tests/data/gate/; tests/check.rs):
# LeakMap with its leak, the same program without it (tests/data/gate/LeakMapFixed.hs),
# 20 runs of the fixed build (one unchanged build, run again and again), and a run of
# docs/examples/live/Service.hs for 30 seconds, whose cache grows for the whole run while
# its working set comes and goes (six rounds of it: a shorter run cannot tell them apart).
#
#   scripts/make-gate-profiles.sh [OUT_DIR]      (default: tests/data/gate)
#
# Needs the machine's GHC 9.0.2 with profiling libraries (Debian: ghc, ghc-prof). Builds
# in a temporary directory; the DATE lines and the sample times differ from run to run
# (they are the clock's), the shapes do not. About a minute on a 2-core machine.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/tests/data/gate}
leakmap=$here/../shared/corpus/programs/LeakMap.hs
[ -f "$leakmap" ] || { echo "no $leakmap (the shared corpus beside the repository)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# The build the corpus uses (shared/corpus/programs/build.sh): profiled, every top-level
# binding a cost centre, at -O0.
build() { # build NAME SOURCE [ghc flags...]
  local name=$1 src=$2; shift 2
  ghc -prof -fprof-auto -rtsopts "$@" -outputdir "$work/obj-$name" "$src" -o "$work/$name" >"$work/$name.log" 2>&1 ||
    { cat "$work/$name.log" >&2; exit 1; }
}
# run NAME OUT [program args...] -- RTS options: the .hp is named after the binary.
run() {
  local name=$1 dest=$2; shift 2
  local args=()
  while [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift
  (cd "$work" && rm -f "$name.hp" && "./$name" "${args[@]}" +RTS "$@" -RTS >/dev/null)
  mv "$work/$name.hp" "$out/$dest"
  printf '%s\t%s %s+RTS %s -RTS\n' "$dest" "$name" "${args[*]:+${args[*]} }" "$*" >>"$out/COMMANDS.tsv"
}

build LeakMap "$leakmap"
build LeakMapFixed "$here/tests/data/gate/LeakMapFixed.hs"
build Service "$here/docs/examples/live/Service.hs" -O

printf 'file\tcommand\n' >"$out/COMMANDS.tsv"
run LeakMap leakmap-leak.hp -- -hc -i0.02
run LeakMapFixed leakmap-fixed.hp -- -hc -i0.02
for i in $(seq -w 1 20); do
  run LeakMapFixed "leakmap-fixed-run$i.hp" -- -hc -i0.02
done
run Service service-hc.hp 30 -- -hc -i0.1
echo "$(ls "$out"/*.hp | wc -l) profiles in $out" >&2
