#!/usr/bin/env bash
# How long a census takes from a running GHC program to the live page's screen
# (hp2ps --serve, issue 26's target: the flush interval plus at most 0.5 s).
#
# Builds docs/examples/live/Service.hs with GHC 9.10.3 in the chroot of
# ../shared/tools/ghc-9.10-chroot.sh, runs it for SECONDS with
#   +RTS -hT -l --eventlog-flush-interval=1 -i0.1 -RTS
# twice: writing its log into a FIFO (-ol), then into a file, each followed by
# `hp2ps --serve` with the page open in headless Chromium (examples/live_latency.rs),
# and prints each census's flush delay (program -> bytes), hp2ps's part (bytes ->
# screen) and the whole.
#
# usage: scripts/live-latency.sh [SECONDS]     (default 60)
# environment: CHROOT (default /tmp/ghc910); needs chromium and chromedriver.
set -euo pipefail
seconds=${1:-60}
chroot_dir=${CHROOT:-/tmp/ghc910}
root=$(cd "$(dirname "$0")/.." && pwd)
[[ -x $chroot_dir/usr/bin/ghc ]] || { echo "no GHC 9.10.3 chroot at $chroot_dir" >&2; exit 1; }
scratch=$chroot_dir/scratch/live-latency
mkdir -p "$scratch"
cp "$root/docs/examples/live/Service.hs" "$scratch/"
echo "building the service (GHC 9.10.3)" >&2
chroot "$chroot_dir" bash -c 'cd /scratch/live-latency && ghc -O -threaded -rtsopts -eventlog Service.hs -o service' >&2
echo "building hp2ps and the measurement (release)" >&2
(cd "$root" && cargo build --release --quiet && cargo build --release --quiet --example live_latency)
export HP2PS=$root/target/release/hp2ps
rts="+RTS -hT -l --eventlog-flush-interval=1 -i0.1"
for how in fifo file; do
    echo "## through a $how" 
    target=$scratch/service.$how
    rm -f "$target"
    "$root/target/release/examples/live_latency" "$how" "$target" -- \
        chroot "$chroot_dir" bash -c "'cd /scratch/live-latency && ./service $seconds $rts -olservice.$how -RTS >/dev/null'"
done
