#!/usr/bin/env bash
# Two builds of hp2ps, before and after a change meant to keep their speed, timed on the
# same inputs in the same session: a generated profile (100 MB of .hp, 200 bands; set
# HP2PS_COMPARE_MB) and the eventlog its run would have written, through the ways in a
# change to the readers, the page builder or the command touches.
#
# usage: scripts/compare-binaries.sh OLD_BIN NEW_BIN [--runs N] [--instructions]
#   --runs N   rounds (default 7, after one warm-up): each round runs every case with
#              OLD then NEW, so that the machine's drift falls on both alike; the time is
#              the median of the rounds
#   --instructions  instead of timing, count the instructions each case runs once
#              (valgrind's callgrind, user space): what other processes on a shared
#              machine cannot change (its times moved by 5 % from one session to the
#              next at a load of 3 on two cores)
#
# The cases: a .hp and its eventlog in file mode (-c: each mapped, read on every core,
# PostScript), the eventlog as a stream (a pipe: the one-pass reader), the HTML page of
# each, and --summary of the eventlog. Each line says both medians and NEW / OLD, and
# whether both wrote the same bytes.
#
# environment: WORK (work directory, reused; default a new mktemp -d).
# Results go to stdout as Markdown; progress goes to stderr.
set -euo pipefail

old=${1:?usage: compare-binaries.sh OLD_BIN NEW_BIN [--runs N]}
new=${2:?usage: compare-binaries.sh OLD_BIN NEW_BIN [--runs N]}
shift 2
runs=7
instructions=0
while (($# > 0)); do
    case "$1" in
    --runs) runs=${2:?--runs needs a number}; shift ;;
    --instructions) instructions=1 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
    shift
done
old=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")

# shellcheck source=scripts/lib/measure.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/measure.sh"

target_dir=${CARGO_TARGET_DIR:-$root/target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
convert=$target_dir/release/examples/hp_to_eventlog
[[ -x $convert ]] || (cd "$root" && cargo build --release --quiet --example hp_to_eventlog)
generator

mb=${HP2PS_COMPARE_MB:-100}
name=p${mb}M
if [[ ! -s $work/$name.hp ]]; then
    log "generating $name.hp"
    "$gen" --size "${mb}M" --bands 200 >"$work/$name.hp.tmp"
    # GHC ends every .hp with an empty sample at exit, which the eventlog has too.
    last=$(tail -n 1 "$work/$name.hp.tmp" | awk '{ print $2 }')
    end=$(awk -v t="$last" 'BEGIN { printf "%.2f", t + 0.01 }')
    printf 'BEGIN_SAMPLE %s\nEND_SAMPLE %s\n' "$end" "$end" >>"$work/$name.hp.tmp"
    mv "$work/$name.hp.tmp" "$work/$name.hp"
fi
if [[ ! -s $work/$name.eventlog ]]; then
    log "converting $name.hp to an eventlog"
    "$convert" "$work/$name.hp" "$work/$name.eventlog.tmp"
    mv "$work/$name.eventlog.tmp" "$work/$name.eventlog"
fi

hp=$work/$name.hp
log_=$work/$name.eventlog
# name|command (BIN stands for the binary, OUT for its output file)
cases=(
    "hp -c|BIN -c $hp -o OUT"
    "eventlog -c|BIN -c --time elapsed $log_ -o OUT"
    "eventlog stream|cat $log_ | BIN -c --time elapsed > OUT"
    "hp html|BIN --format html $hp -o OUT"
    "eventlog html|BIN --format html --time elapsed $log_ -o OUT"
    "eventlog summary|BIN --summary=json --time elapsed $log_ > OUT"
)

# run_case BIN CMD OUT: sets wall (s) of one run.
run_case() {
    local cmd=${2//BIN/$1}
    cmd=${cmd//OUT/$3}
    rm -f "$3"
    local t0 t1
    t0=$(date +%s.%N)
    (cd "$work" && bash -c "$cmd" 2>/dev/null)
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}

# count_case BIN CMD OUT: sets wall to the instructions of one run (callgrind's total).
count_case() {
    local cmd=${2//BIN/valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file=$work/vg.log $1}
    cmd=${cmd//OUT/$3}
    rm -f "$3"
    (cd "$work" && bash -c "$cmd" 2>/dev/null)
    wall=$(awk '/Collected/ { print $4 }' "$work/vg.log")
}
if ((instructions)); then
    runs=0
    run_case() { count_case "$@"; }
fi

unit=s
((instructions)) && unit=instructions
echo "| case | before ($unit) | after ($unit) | after / before | same output |"
echo "|---|---|---|---|---|"
for c in "${cases[@]}"; do
    label=${c%%|*}
    cmd=${c#*|}
    olds=() news=()
    log "measuring $label"
    for ((i = 0; i <= runs; i++)); do
        run_case "$old" "$cmd" "$work/old.out"
        ((i > 0 || instructions)) && olds+=("$wall")
        run_case "$new" "$cmd" "$work/new.out"
        ((i > 0 || instructions)) && news+=("$wall")
    done
    o=$(median "${olds[@]}")
    n=$(median "${news[@]}")
    same=no
    if cmp -s "$work/old.out" "$work/new.out"; then
        same=yes
    fi
    ratio=$(awk -v a="$n" -v b="$o" 'BEGIN { printf "%.3f", a / b }')
    echo "| $label | $o | $n | $ratio | $same |"
done
