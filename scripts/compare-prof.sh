#!/usr/bin/env bash
# `hp2ps --summary` and the page (`--format html`) of a large time profile against `wc -l`
# of the same file, in the same rounds, their peak memory against the file's size, and
# the page's size: the targets of issue 34 are at most 10 × `wc -l` for --summary and
# 30 × for the page, a peak RSS of at most 3 × the file and a page of at most 6 MB. The
# profiles are generated (examples/gen_prof.rs): a million stacks as `+RTS -p` writes
# them (about 99 MB) and as `+RTS -P` does (with ticks and bytes, about 116 MB).
#
# usage: scripts/compare-prof.sh [--quick] [--runs N]
#   --quick    a tenth of the stacks, one run of each
#   --runs N   rounds (default 9, after one warm-up); each round runs `wc -l`, then
#              ours (--summary, then the page), on every profile; the times are the
#              medians
#
# environment: WORK (work directory, reused; default a new mktemp -d), HP2PS_OURS (the
# binary; default: cargo build --release).
# Results go to stdout as Markdown; progress goes to stderr.
set -euo pipefail

quick=0
runs=9
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

if [[ -n "${HP2PS_OURS:-}" ]]; then
    ours=$(cd "$(dirname "$HP2PS_OURS")" && pwd)/$(basename "$HP2PS_OURS")
else
    log "building (cargo build --release)"
    (cd "$root" && cargo build --release --quiet)
    target_dir=${CARGO_TARGET_DIR:-$root/target}
    [[ $target_dir == /* ]] || target_dir=$root/$target_dir
    ours=$target_dir/release/hp2ps
fi

# The generator needs only std: built with rustc, as lib/measure.sh builds gen_profile.
gen=$work/gen_prof
if [[ ! -x $gen || $root/examples/gen_prof.rs -nt $gen ]]; then
    log "building the generator"
    rustc --edition 2021 -C opt-level=3 -o "$gen" "$root/examples/gen_prof.rs"
fi

stacks=1000000
if ((quick)); then
    stacks=100000
    runs=1
fi
profiles=("p$stacks.prof|--stacks $stacks" "P$stacks.prof|--stacks $stacks --counts")
for p in "${profiles[@]}"; do
    name=${p%%|*}
    read -r -a args <<<"${p#*|}"
    if [[ ! -s $work/$name ]]; then
        log "generating $name (${args[*]})"
        "$gen" "${args[@]}" >"$work/$name.tmp"
        mv "$work/$name.tmp" "$work/$name"
    fi
done

# timed CMD...: sets wall (s, from date +%s.%N) and rss (KiB) of one run, stdout dropped.
timed() {
    local t0 t1
    t0=$(date +%s.%N)
    /usr/bin/time -f '%M' -o "$work/.rss" "$@" >/dev/null
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
    rss=$(cat "$work/.rss")
}

declare -A wc_walls ours_walls ours_rss page_walls page_rss
for p in "${profiles[@]}"; do
    name=${p%%|*}
    wc_walls[$name]=""
    ours_walls[$name]=""
    ours_rss[$name]=0
    page_walls[$name]=""
    page_rss[$name]=0
done
log "measuring: $runs round(s) after a warm-up"
for ((i = 0; i <= runs; i++)); do
    for p in "${profiles[@]}"; do
        name=${p%%|*}
        timed wc -l "$work/$name"
        ((i > 0)) && wc_walls[$name]+=" $wall"
        timed "$ours" --summary "$work/$name"
        if ((i > 0)); then
            ours_walls[$name]+=" $wall"
            ((rss > ours_rss[$name])) && ours_rss[$name]=$rss
        fi
        timed "$ours" --format html -o "$work/$name.html" "$work/$name" 2>/dev/null
        if ((i > 0)); then
            page_walls[$name]+=" $wall"
            ((rss > page_rss[$name])) && page_rss[$name]=$rss
        fi
    done
done

echo "| profile | size | stacks | \`wc -l\` s | \`--summary\` s | / \`wc -l\` (target ≤ 10) | peak RSS | / size (target ≤ 3) |"
echo "|---|---|---|---|---|---|---|---|"
for p in "${profiles[@]}"; do
    name=${p%%|*}
    size=$(stat -c %s "$work/$name")
    # shellcheck disable=SC2086
    w=$(median ${wc_walls[$name]})
    # shellcheck disable=SC2086
    o=$(median ${ours_walls[$name]})
    awk -v n="$name" -v s="$size" -v st="$stacks" -v w="$w" -v o="$o" -v r="${ours_rss[$name]}" 'BEGIN {
        printf "| %s | %.1f MB | %d | %.3f | %.3f | %.2f | %.0f MiB | %.2f |\n",
            n, s / 1e6, st, w, o, o / w, r / 1024, r * 1024 / s }'
done
echo
echo "| profile | \`wc -l\` s | page s | / \`wc -l\` (target ≤ 30) | peak RSS | / size (target ≤ 3) | page | (target ≤ 6 MB) |"
echo "|---|---|---|---|---|---|---|---|"
for p in "${profiles[@]}"; do
    name=${p%%|*}
    size=$(stat -c %s "$work/$name")
    page=$(stat -c %s "$work/$name.html")
    # shellcheck disable=SC2086
    w=$(median ${wc_walls[$name]})
    # shellcheck disable=SC2086
    o=$(median ${page_walls[$name]})
    awk -v n="$name" -v s="$size" -v w="$w" -v o="$o" -v r="${page_rss[$name]}" -v pg="$page" 'BEGIN {
        printf "| %s | %.3f | %.3f | %.2f | %.0f MiB | %.2f | %.2f MB | %s |\n",
            n, w, o, o / w, r / 1024, r * 1024 / s, pg / 1e6, (pg <= 6e6 ? "ok" : "over") }'
done
echo
echo "$(nproc) CPU(s), $(uname -sr); times = medians of $runs round(s) after a warm-up, \`wc -l\` and ours alternating; RSS = the largest peak (GNU time)."
