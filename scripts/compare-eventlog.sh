#!/usr/bin/env bash
# Reading an eventlog against reading the .hp of the same samples: the same generated
# profiles as scripts/compare-hp2ps.sh, each also written as the eventlog its run would
# have written (examples/hp_to_eventlog.rs), then `hp2ps -c` on both, side by side, with
# a check that both charts are the same bytes after the header comments.
#
# usage: scripts/compare-eventlog.sh [--quick] [--runs N]
#   --quick    only the 10 MB profile, one run of each
#   --runs N   runs per measurement (default 5, after one warm-up; the .hp and the
#              eventlog runs alternate); the time is the median
#
# environment: WORK (work directory, reused; default a new mktemp -d), HP2PS_OURS (the
# binary; default: cargo build --release).
# Results go to stdout as Markdown; progress goes to stderr.
set -euo pipefail

quick=0
runs=5
while (($# > 0)); do
    case "$1" in
    --quick) quick=1 ;;
    --runs) runs=${2:?--runs needs a number}; shift ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
    shift
done

# shellcheck source=scripts/lib/measure.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/measure.sh"
[[ -x /usr/bin/time ]] || { log "needs GNU time (apt-get install time)"; exit 1; }

target_dir=${CARGO_TARGET_DIR:-$root/target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
if [[ -n "${HP2PS_OURS:-}" ]]; then
    ours=$(cd "$(dirname "$HP2PS_OURS")" && pwd)/$(basename "$HP2PS_OURS")
else
    log "building (cargo build --release)"
    (cd "$root" && cargo build --release --quiet && cargo build --release --quiet --example hp_to_eventlog)
    ours=$target_dir/release/hp2ps
fi
convert=$target_dir/release/examples/hp_to_eventlog
[[ -x $convert ]] || (cd "$root" && cargo build --release --quiet --example hp_to_eventlog)
generator

profiles=("p10M|--size 10M --bands 200" "p100M|--size 100M --bands 200" "p400M|--size 400M --bands 200")
if ((quick)); then
    profiles=("${profiles[0]}")
    runs=1
fi

# run_once CMD...: sets wall (s) and rss (MiB) of one run in $work/out.
run_once() {
    local t0 t1
    # Start without the previous run's output (see scripts/compare-hp2ps.sh): replacing a
    # 100 MB file costs the kernel tens of milliseconds on some file systems.
    find "$work/out" -maxdepth 1 \( -name '*.ps' -o -name '*.aux' \) ! -name '*.hp.ps' -delete
    t0=$(date +%s.%N)
    (cd "$work/out" && /usr/bin/time -f '%M' -o "$work/.rss" "$@" >/dev/null)
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    rss=$(awk '{ printf "%.0f", $1 / 1024 }' "$work/.rss")
}
# measure_pair NAME: one warm-up of each, then $runs rounds of `hp2ps -c NAME.hp` followed
# by `hp2ps -c NAME.eventlog`, alternating so that the machine's drift from one minute to
# the next falls on both alike; sets hp_wall, el_wall (medians), hp_rss and el_rss
# (largest), and keeps the .hp's chart as NAME.hp.ps.
measure_pair() {
    local name=$1 hp_walls=() el_walls=() i
    hp_rss=0 el_rss=0
    for ((i = 0; i <= runs; i++)); do
        run_once "$ours" -c "$pairs/$name.hp"
        cp "$work/out/$name.ps" "$work/out/$name.hp.ps"
        if ((i > 0)); then
            hp_walls+=("$wall")
            ((rss > hp_rss)) && hp_rss=$rss
        fi
        # The converted log has no GC events: elapsed time is the .hp's time (and no
        # warning).
        run_once "$ours" -c --time elapsed "$pairs/$name.eventlog"
        if ((i > 0)); then
            el_walls+=("$wall")
            ((rss > el_rss)) && el_rss=$rss
        fi
    done
    hp_wall=$(median "${hp_walls[@]}")
    el_wall=$(median "${el_walls[@]}")
}

# The profiles live in a folder of their own: compare-hp2ps.sh's profiles of the same
# names (in a shared WORK) lack the empty sample at exit that the eventlog needs.
pairs=$work/eventlog-pairs
mkdir -p "$work/out" "$pairs"
echo "| profile | .hp size | eventlog size | .hp: wall, RSS | eventlog: wall, RSS | eventlog / .hp | same chart |"
echo "|---|---|---|---|---|---|---|"
for p in "${profiles[@]}"; do
    name=${p%%|*}
    read -r -a gen_args <<<"${p#*|}"
    if [[ ! -s $pairs/$name.hp ]]; then
        log "generating $name.hp (${gen_args[*]})"
        "$gen" "${gen_args[@]}" >"$pairs/$name.hp.tmp"
        # GHC ends every .hp with an empty sample at exit; the generator does not, and the
        # eventlog reader (like the runtime) puts one there.
        last=$(tail -n 1 "$pairs/$name.hp.tmp" | awk '{ print $2 }')
        end=$(awk -v t="$last" 'BEGIN { printf "%.2f", t + 0.01 }')
        printf 'BEGIN_SAMPLE %s\nEND_SAMPLE %s\n' "$end" "$end" >>"$pairs/$name.hp.tmp"
        mv "$pairs/$name.hp.tmp" "$pairs/$name.hp"
    fi
    if [[ ! -s $pairs/$name.eventlog ]]; then
        log "converting $name.hp to an eventlog"
        "$convert" "$pairs/$name.hp" "$pairs/$name.eventlog.tmp" && mv "$pairs/$name.eventlog.tmp" "$pairs/$name.eventlog"
    fi
    log "measuring $name"
    measure_pair "$name"
    same=no
    if cmp -s <(sed -n '/^%%EndComments/,$p' "$work/out/$name.hp.ps") \
        <(sed -n '/^%%EndComments/,$p' "$work/out/$name.ps"); then
        same=yes
    fi
    size() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f MB", b / 1e6 }'; }
    ratio=$(awk -v a="$el_wall" -v b="$hp_wall" 'BEGIN { printf "%.2f", a / b }')
    echo "| $name | $(size "$pairs/$name.hp") | $(size "$pairs/$name.eventlog") | ${hp_wall} s, ${hp_rss} MiB | ${el_wall} s, ${el_rss} MiB | $ratio | $same |"
done
echo
echo "$(nproc) CPU(s), $(uname -sr); wall = median of $runs run(s) after a warm-up, the .hp and the eventlog alternating; RSS = largest peak."
