#!/usr/bin/env bash
# Peak memory and time of hp2ps on long generated heap profiles (issue 39), against
# `wc -l` of the same files, in one run: the 200-band `.hp` of 400 MB and of 1.6 GB
# (examples/gen_profile.rs), each drawn with `-c` (PostScript, then EPS, SVG and PDF),
# as the HTML page (`--format html`) and summarised (`--summary=json`).
#
# usage: scripts/measure-memory.sh [--runs N] [--sizes S] [--censuses C] [BIN...]
#   BIN        the binaries to measure (default: `cargo build --release`, then
#              ${CARGO_TARGET_DIR:-target}/release/hp2ps); given two (before, after),
#              their runs alternate, and their outputs are compared byte for byte
#   --runs N   rounds (default 3); each cell is the median over the rounds of the
#              wall time, and the largest peak RSS
#   --sizes S  the .hp profiles' sizes (gen_profile's --size), default "400M 1600M"
#   --censuses C  the eventlogs' lengths in censuses of 200 bands (examples/live_day.rs,
#              a -hT log of a leaking program), default "100000 400000" (0.8 and 3.3 GB);
#              "" for none
#
# environment: WORK, the work directory (default: a new mktemp -d); generated profiles
# found there are reused. Set KEEP=1 to keep the profiles and outputs; by default they
# are deleted at the end (1.6 GB and more).
#
# The floor (issue 39): in the same rounds, for each .hp, examples/scan_floor.rs adds up
# every band's values (the least a chart needs, AVX2 on every core, the input already in
# memory: its own timer), and `cat` copies binary 0's `-c` output into a new file (the
# least its writing costs); a second table sets them beside `wc -l` and `-c`.
#
# Peak RSS is GNU time's (%M, KiB; the largest of the process's life); wall time from
# date +%s.%N around the run; with two binaries, their stdout and stderr are compared
# (the warnings too). Each round runs every command of every binary once, so a
# slow minute of this shared machine is spread over every row. Results go to stdout as
# Markdown, progress to stderr. Runs under `nice` when called so (`nice scripts/...`).
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

runs=3
sizes="400M 1600M"
censuses="100000 400000"
bins=()
while (($# > 0)); do
    case "$1" in
    --runs)
        runs=${2:?--runs needs a number}
        shift
        ;;
    --sizes)
        sizes=${2?--sizes needs a list}
        shift
        ;;
    --censuses)
        censuses=${2?--censuses needs a list}
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    -*)
        printf 'unknown option: %s\n\n' "$1" >&2
        usage >&2
        exit 2
        ;;
    *) bins+=("$1") ;;
    esac
    shift
done

# shellcheck source=scripts/lib/measure.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/measure.sh"
[[ -x /usr/bin/time ]] || { log "needs GNU time (/usr/bin/time: apt-get install time)"; exit 1; }

if ((${#bins[@]} == 0)); then
    log "building ours (cargo build --release)"
    (cd "$root" && cargo build --release --quiet)
    target_dir=${CARGO_TARGET_DIR:-target}
    [[ $target_dir == /* ]] || target_dir=$root/$target_dir
    bins=("$target_dir/release/hp2ps")
fi
for i in "${!bins[@]}"; do
    b=${bins[$i]}
    [[ -x $b ]] || { log "no executable at $b"; exit 1; }
    bins[i]=$(cd "$(dirname "$b")" && pwd)/$(basename "$b")
    # A copy, so that a rebuild during the run cannot change what is measured.
    cp "${bins[$i]}" "$work/hp2ps.$i"
    bins[i]=$work/hp2ps.$i
done

generator
floor=$work/scan_floor
if [[ ! -x $floor || $root/examples/scan_floor.rs -nt $floor ]]; then
    log "building the floor (examples/scan_floor.rs)"
    rustc --edition 2021 -C opt-level=3 -C codegen-units=1 -o "$floor" "$root/examples/scan_floor.rs"
fi
profiles=()
for s in $sizes; do
    generated "p$s.hp" --size "$s" --bands 200
    profiles+=("p$s.hp")
done
if [[ -n $censuses ]]; then
    log "building examples/live_day.rs"
    (cd "$root" && cargo build --release --quiet --example live_day)
    day=${CARGO_TARGET_DIR:-$root/target}/release/examples/live_day
    for c in $censuses; do
        if [[ ! -s $work/l$c.eventlog ]]; then
            log "generating l$c.eventlog ($c censuses of 200 bands)"
            "$day" "$c" 200 >"$work/l$c.eventlog.tmp"
            mv "$work/l$c.eventlog.tmp" "$work/l$c.eventlog"
        fi
        profiles+=("l$c.eventlog")
    done
fi

# timed OUT CMD...: runs CMD with stdout to OUT; sets wall (s) and rss (KiB).
timed() {
    local out=$1 t0 t1
    shift
    rm -f "$out"
    t0=$(date +%s.%N)
    /usr/bin/time -f %M -o "$work/.rss" "$@" >"$out"
    t1=$(date +%s.%N)
    wall=$(echo "$t1 - $t0" | bc -l)
    rss=$(tail -n 1 "$work/.rss")
}

# The commands: name|flags; the profile comes last. Each writes to stdout.
commands=(
    "-c|-c -o -"
    "EPS|-c --format eps -o -"
    "SVG|-c --format svg -o -"
    "PDF|-c --format pdf -o -"
    "page|--format html -o -"
    "summary|--summary=json"
)

declare -A walls peaks
for ((r = 1; r <= runs; r++)); do
    log "round $r of $runs"
    for p in "${profiles[@]}"; do
        # In the page cache first (untimed): what is measured is reading from memory.
        cat "$work/$p" >/dev/null
        timed "$work/out.wc" wc -l "$work/$p"
        walls["$p|wc"]+=" $wall"
        if [[ $p == *.hp ]]; then
            # "... 2 threads: 0.164 s": the scan's own time, the input read before it.
            "$floor" "$work/$p" >"$work/out.floor"
            walls["$p|floor"]+=" $(sed -n 's/.*: \([0-9.]*\) s$/\1/p' "$work/out.floor")"
            # The floor must have done the work: its lines are wc's, its sum awk's.
            read -r floor_lines _ <"$work/out.floor"
            read -r wc_lines _ <"$work/out.wc"
            [[ $floor_lines == "$wc_lines" ]] || { log "the floor read $floor_lines lines, wc $wc_lines"; exit 1; }
            if ((r == 1)); then
                awk_sum=$(awk -F'\t' 'NF == 2 { s += $2 } END { printf "%.0f", s }' "$work/$p")
                grep -q "sum $awk_sum," "$work/out.floor" || { log "the floor's sum is not awk's ($awk_sum)"; exit 1; }
            fi
        fi
        for c in "${commands[@]}"; do
            name=${c%%|*}
            read -r -a flags <<<"${c#*|}"
            for i in "${!bins[@]}"; do
                out=$work/out.$i.$p.$name
                timed "$out" "${bins[$i]}" "${flags[@]}" "$work/$p" 2>"$out.stderr"
                walls["$p|$name|$i"]+=" $wall"
                prev=${peaks["$p|$name|$i"]:-0}
                ((rss > prev)) && peaks["$p|$name|$i"]=$rss
            done
            if [[ $name == -c && $p == *.hp ]]; then
                timed "$work/out.copy" cat "$work/out.0.$p.-c"
                walls["$p|write"]+=" $wall"
            fi
            if ((r == 1 && ${#bins[@]} > 1)); then
                for ((i = 1; i < ${#bins[@]}; i++)); do
                    if ! cmp -s "$work/out.0.$p.$name" "$work/out.$i.$p.$name" ||
                        ! cmp -s "$work/out.0.$p.$name.stderr" "$work/out.$i.$p.$name.stderr"; then
                        log "DIFFERENT OUTPUT: $p $name, binary 0 and binary $i"
                        different=1
                    fi
                done
            fi
        done
    done
done

mib() { echo "scale=0; $1 / 1024" | bc; }
ratio() { echo "scale=1; $1 / $2" | bc -l | sed 's/^\./0./'; }

echo "| file | lines | \`wc -l\` | binary | \`-c\` | EPS | SVG | PDF | page | summary | \`-c\` / \`wc -l\` | page size |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for p in "${profiles[@]}"; do
    lines=–
    [[ $p != *.hp ]] || lines=$(wc -l <"$work/$p")
    # shellcheck disable=SC2086
    wc_med=$(median ${walls["$p|wc"]})
    size_mb=$(($(stat -c %s "$work/$p") / 1000000))
    for i in "${!bins[@]}"; do
        row="| $p ($size_mb MB) | $lines | $(printf '%.2f' "$wc_med") s | $i"
        for c in "${commands[@]}"; do
            name=${c%%|*}
            # shellcheck disable=SC2086
            w=$(median ${walls["$p|$name|$i"]})
            row+=" | $(printf '%.2f' "$w") s, $(mib "${peaks["$p|$name|$i"]}") MiB"
        done
        # shellcheck disable=SC2086
        cw=$(median ${walls["$p|-c|$i"]})
        row+=" | $(ratio "$cw" "$wc_med") | $(($(stat -c %s "$work/out.$i.$p.page") / 1000)) kB |"
        echo "$row"
    done
done
echo
echo "The floor: the least work of a chart (every band's values added up; examples/scan_floor.rs, $(sed -n 's/.*, \([0-9]* threads\):.*/\1/p' "$work/out.floor" 2>/dev/null || echo '?'), the input in memory) and the least writing (\`cat\` of binary 0's \`-c\` output into a new file), medians:"
echo
echo "| file | \`wc -l\` | floor: scan | floor: writing | floor | floor / \`wc -l\` | binary | \`-c\` | \`-c\` / floor |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in "${profiles[@]}"; do
    [[ $p == *.hp ]] || continue
    # shellcheck disable=SC2086
    wc_med=$(median ${walls["$p|wc"]})
    # shellcheck disable=SC2086
    scan_med=$(median ${walls["$p|floor"]})
    # shellcheck disable=SC2086
    write_med=$(median ${walls["$p|write"]})
    least=$(echo "$scan_med + $write_med" | bc -l)
    for i in "${!bins[@]}"; do
        # shellcheck disable=SC2086
        cw=$(median ${walls["$p|-c|$i"]})
        printf '| %s | %.2f s | %.2f s | %.2f s | %.2f s | %s | %s | %.2f s | %s |\n' "$p" "$wc_med" \
            "$scan_med" "$write_med" "$least" "$(ratio "$least" "$wc_med")" "$i" "$cw" "$(ratio "$cw" "$least")"
    done
done
echo
for i in "${!bins[@]}"; do
    echo "binary $i: $(sha256sum "${bins[$i]}" | cut -c1-12)"
done
if [[ -n ${different:-} ]]; then
    echo "**the binaries' outputs differ** (see stderr)"
elif ((${#bins[@]} > 1)); then
    echo "every output of every binary: the same bytes"
fi

if [[ -z ${KEEP:-} ]]; then
    rm -f "$work"/out.* "$work"/p*.hp "$work"/l*.eventlog
fi
