#!/usr/bin/env bash
# Benchmark our hp2ps against GHC's on large generated heap profiles, and
# check that both write the same PostScript.
#
# usage: scripts/compare-hp2ps.sh [--quick] [--replace] [--runs N]
#   --quick    only the 10 MB profile, one run of each (a smoke test)
#   --runs N   runs per measurement of ours (default 5); the reported time
#              is the median
#   --replace  keep the previous run's outputs (see below)
#
# environment:
#   WORK              work directory (default: a new mktemp -d); generated
#                     profiles found there are reused, delete them to
#                     regenerate
#   HP2PS_OURS        our binary (default: `cargo build --release`, then
#                     ${CARGO_TARGET_DIR:-target}/release/hp2ps)
#   HP2PS_REF         the reference (default /usr/bin/hp2ps, from GHC)
#   HP2PS_REF_MAX_MB  largest profile given to the reference (default 100:
#                     GHC's hp2ps slows down quadratically with file size)
#   HP2PS_TIMEOUT     seconds allowed per reference run (default 600: on a
#                     busy 2-CPU machine one run on 100 MB took 552 s)
#   HP2PS_REF_BIG_RUNS  reference runs on profiles of 50 MB and more
#                     (default 1; they take minutes each)
#
# Besides the file mode and filter mode runs, every profile is also read by
# `wc -l` and `cat > /dev/null`: the floor of reading the file at all. A
# profile of 10^6 distinct identifiers (two samples) is timed too. All of
# these are interleaved: each of the N rounds runs every one of them once,
# and each reported time is the median over the rounds, so a slow minute of
# this shared machine is spread over every row rather than landing on one.
# (The reference runs afterwards, on its own.)
#
# Each timed run starts without the output it writes (the previous run's .ps,
# .aux or redirected stdout is deleted before the clock starts), for ours and
# the reference alike: replacing a 100 MB file costs the kernel about 50 ms on
# this machine's ext4 (mounted with `discard`: the old file's blocks are freed
# inside the rename, or inside the truncation of `>`), whoever writes it.
# `--replace` keeps the previous outputs, so every run pays that too.
#
# Results go to stdout as Markdown; progress goes to stderr.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

quick=0
replace=0
runs=5
while (($# > 0)); do
    case "$1" in
    --quick) quick=1 ;;
    --replace) replace=1 ;;
    --runs)
        runs=${2:?--runs needs a number}
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        printf 'unknown option: %s\n\n' "$1" >&2
        usage >&2
        exit 2
        ;;
    esac
    shift
done

# shellcheck source=scripts/lib/measure.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/measure.sh"
ref=${HP2PS_REF:-/usr/bin/hp2ps}
ref_max_mb=${HP2PS_REF_MAX_MB:-100}
ref_timeout=${HP2PS_TIMEOUT:-600}
ref_big_runs=${HP2PS_REF_BIG_RUNS:-1}

# GNU time gives the peak RSS; Debian images often lack it.
if [[ ! -x /usr/bin/time ]]; then
    log "installing GNU time"
    apt-get install -y time >/dev/null || { apt-get update >/dev/null && apt-get install -y time >/dev/null; }
fi

# --- build -------------------------------------------------------------------

if [[ -n "${HP2PS_OURS:-}" ]]; then
    ours=$HP2PS_OURS
else
    log "building ours (cargo build --release)"
    (cd "$root" && cargo build --release --quiet)
    target_dir=${CARGO_TARGET_DIR:-target}
    [[ $target_dir == /* ]] || target_dir=$root/$target_dir
    ours=$target_dir/release/hp2ps
fi
[[ -x $ours ]] || { log "no executable at $ours"; exit 1; }
ours=$(cd "$(dirname "$ours")" && pwd)/$(basename "$ours")

generator

# --- profiles ----------------------------------------------------------------

# name and generator arguments
profiles=(
    "p10M.hp|--size 10M --bands 200"
    "p100M.hp|--size 100M --bands 200"
    "p400M.hp|--size 400M --bands 200"
    "p2000x5000.hp|--bands 2000 --samples 5000"
)
if ((quick)); then
    profiles=("${profiles[0]}")
    runs=1
fi

# 10^6 distinct identifiers in one sample (the shape of tests/hostile.rs).
if ((!quick)) && [[ ! -s $work/ids1M.hp ]]; then
    log "generating ids1M.hp"
    {
        printf 'JOB "many"\nDATE "today"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.0\n'
        awk 'BEGIN { for (i = 0; i < 1000000; i++) printf "(id%d)name/of/a/cost/centre\t%d\n", i, 1000 + i % 977 }'
        printf 'END_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n'
    } >"$work/ids1M.hp.tmp"
    mv "$work/ids1M.hp.tmp" "$work/ids1M.hp"
fi

for p in "${profiles[@]}"; do
    name=${p%%|*}
    read -r -a gen_args <<<"${p#*|}"
    generated "$name" "${gen_args[@]}"
done

# --- measuring ---------------------------------------------------------------

rss_file=$work/.rss
# timed DIR STDIN STDOUT CMD...: runs CMD once in DIR; sets wall (seconds,
# from date +%s.%N, finer than time's %e), rss_kb (peak RSS) and rc.
timed() {
    local dir=$1 in=$2 out=$3 t0 t1
    shift 3
    if ((!replace)); then
        # The outputs of this run only: in file mode (the command's last
        # argument is ../NAME.hp) NAME.ps and NAME.aux in $dir; else $out. The
        # other profiles' outputs stay, for the comparison with the reference.
        local last=${!#} base
        if [[ $last == ../*.hp ]]; then
            base=${last##*/}
            base=${base%.hp}
            rm -f "$dir/$base.ps" "$dir/$base.aux"
        fi
        if [[ -f $out ]]; then rm -f "$out"; fi
    fi
    t0=$(date +%s.%N)
    set +e
    (cd "$dir" && /usr/bin/time -f '%M' -o "$rss_file" "$@" <"$in" >"$out")
    rc=$?
    set -e
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    # On failure time(1) writes a "Command exited..." line first.
    rss_kb=$(tail -n 1 "$rss_file")
}

maximum() { printf '%s\n' "$@" | sort -g | tail -n 1; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

# measure N DIR STDIN STDOUT CMD...: N runs; sets m_wall (median), m_rss_kb
# (largest) and m_rc (0, or the status of the first failure, which ends
# the series).
measure() {
    local n=$1 i walls=() rsss=()
    shift
    m_rc=0
    for ((i = 0; i < n; i++)); do
        timed "$@"
        if ((rc != 0)); then
            m_rc=$rc
            return
        fi
        walls+=("$wall")
        rsss+=("$rss_kb")
    done
    m_wall=$(median "${walls[@]}")
    m_rss_kb=$(maximum "${rsss[@]}")
}

# Interleaved series: `record KEY` after `timed` adds the run to series KEY;
# `summary KEY` sets m_wall, m_rss_kb and m_rc from it as `measure` does.
declare -A series_walls series_rss series_rc
record() {
    if ((rc != 0)); then
        series_rc[$1]=${series_rc[$1]:-$rc}
        return
    fi
    series_walls[$1]+="$wall "
    series_rss[$1]+="$rss_kb "
}
summary() {
    m_rc=${series_rc[$1]:-0}
    if ((m_rc != 0)); then
        return
    fi
    # shellcheck disable=SC2086 # the series are space-separated numbers
    m_wall=$(median ${series_walls[$1]})
    # shellcheck disable=SC2086
    m_rss_kb=$(maximum ${series_rss[$1]})
}

# body_of PS: line number just after %%EndComments (0 if there is none). The
# header above it names the creator and so always differs.
body_of() {
    local n
    n=$(grep -n -m 1 '^%%EndComments' "$1" | cut -d: -f1 || true)
    echo $((${n:-0} > 0 ? n + 1 : 0))
}

# same_output NAME: compares ours/NAME.ps and ref/NAME.ps after the header,
# and the .aux files.
same_output() {
    local a=$work/ours/$1 b=$work/ref/$1 na nb diff
    na=$(body_of "$a.ps")
    nb=$(body_of "$b.ps")
    if ((na == 0 || nb == 0)); then
        echo "no (%%EndComments missing)"
        return
    fi
    if ! diff=$(cmp <(tail -n "+$na" "$a.ps") <(tail -n "+$nb" "$b.ps") 2>&1); then
        echo "no (.ps body differs at ${diff##*, })"
    elif ! cmp -s "$a.aux" "$b.aux"; then
        echo "no (.aux differs)"
    else
        echo "yes"
    fi
}

mkdir -p "$work/ours" "$work/ours-filter" "$work/ref"
declare -A size_mb lines ours_wall ref_wall
rows=()
filter_rows=()
floor_rows=()

# Our runs and the floors are interleaved: each round runs `wc -l`, `cat`,
# ours in file mode and ours in filter mode on every profile (and ours on
# ids1M.hp), then the next round begins. This machine's speed drifts from one
# minute to the next; interleaving spreads the drift over every measurement
# instead of letting a slow minute land on one profile or one mode.
for ((round = 1; round <= runs; round++)); do
    log "round $round of $runs: wc -l, cat, ours (file mode, filter mode) on every profile"
    for p in "${profiles[@]}"; do
        name=${p%%|*}
        base=${name%.hp}
        hp=$work/$name
        timed "$work" "$hp" /dev/null wc -l
        record "$name wc"
        timed "$work" "$hp" /dev/null cat
        record "$name cat"
        timed "$work/ours" /dev/null /dev/null "$ours" -c "../$name"
        record "$name file"
        timed "$work/ours-filter" "$hp" "$work/ours-filter/$base.ps" "$ours" -c
        record "$name filter"
    done
    if ((!quick)) && [[ -s $work/ids1M.hp ]]; then
        timed "$work/ours" /dev/null /dev/null "$ours" -c ../ids1M.hp
        record ids1M
    fi
done

for p in "${profiles[@]}"; do
    name=${p%%|*}
    base=${name%.hp}
    hp=$work/$name
    bytes=$(stat -c %s "$hp")
    size_mb[$name]=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
    lines[$name]=$(wc -l <"$hp")

    summary "$name wc"
    wc_wall=$m_wall
    summary "$name cat"
    cat_wall=$m_wall

    summary "$name file"
    if ((m_rc == 0)); then
        ours_wall[$name]=$m_wall
        o_wall=$m_wall
        o_rss=$(mib "$m_rss_kb")
        o_speed=$(div "${size_mb[$name]}" "$m_wall")
    else
        o_wall="FAILED (exit $m_rc)"
        o_rss=-
        o_speed=-
    fi

    summary "$name filter"
    floor_rows+=("| $name | $wc_wall | $cat_wall | ${ours_wall[$name]:--} | $(div "${ours_wall[$name]:-0}" "$wc_wall") | $(div "${ours_wall[$name]:-0}" "$cat_wall") |")
    if ((m_rc == 0)); then
        filter_rows+=("| $name | ${ours_wall[$name]:--} | $m_wall | $(div "$m_wall" "${ours_wall[$name]:-0}") | $(mib "$m_rss_kb") |")
    else
        filter_rows+=("| $name | ${ours_wall[$name]:--} | FAILED (exit $m_rc) | - | - |")
    fi

    # GHC's hp2ps is quadratic: beyond ~100 MB it takes minutes per run.
    if awk -v s="${size_mb[$name]}" -v m="$ref_max_mb" 'BEGIN { exit !(s > m) }'; then
        rows+=("| $name | ${size_mb[$name]} | ${lines[$name]} | $o_wall | $o_rss | $o_speed | not run (> $ref_max_mb MB) | - | - | - |")
        continue
    fi
    ref_runs=$runs
    if ((!quick)) && awk -v s="${size_mb[$name]}" 'BEGIN { exit !(s >= 50) }'; then
        ref_runs=$((runs < ref_big_runs ? runs : ref_big_runs))
    fi
    log "$name: reference, $ref_runs run(s)"
    measure "$ref_runs" "$work/ref" /dev/null /dev/null timeout "$ref_timeout" "$ref" -c "../$name"
    if ((m_rc == 0)); then
        ref_wall[$name]=$m_wall
        r_wall="$m_wall (n=$ref_runs)"
        r_rss=$(mib "$m_rss_kb")
        ratio=$(div "$m_wall" "${ours_wall[$name]:-0}")
        if [[ -n ${ours_wall[$name]:-} ]]; then same=$(same_output "$base"); else same=-; fi
    else
        if ((m_rc == 124)); then r_wall="timeout (> $ref_timeout s)"; else r_wall="FAILED (exit $m_rc)"; fi
        r_rss=-
        ratio=-
        same=-
    fi
    rows+=("| $name | ${size_mb[$name]} | ${lines[$name]} | $o_wall | $o_rss | $o_speed | $r_wall | $r_rss | $ratio | $same |")
done

# --- report ------------------------------------------------------------------

echo "## hp2ps: ours vs GHC's"
echo
echo "- ours: \`$ours\`; reference: \`$ref\`; work dir: \`$work\`"
echo "- $(nproc) CPU(s), $(uname -sr); wall = median of $runs run(s) for ours;" \
    "the reference's run count is in its column (n); peak RSS = largest of the runs"
echo "- identical = same .ps after \`%%EndComments\` and same .aux"
echo
echo "| file | size MB | lines | ours wall s | ours peak RSS MiB | ours MB/s | hp2ps wall s | hp2ps peak RSS MiB | hp2ps/ours | identical? |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Filter mode (\`hp2ps -c < big.hp > big.ps\`), ours:"
echo
echo "| file | file mode wall s | filter wall s | filter/file | filter peak RSS MiB |"
echo "|---|---:|---:|---:|---:|"
printf '%s\n' "${filter_rows[@]}"
echo
echo "The floor: reading each file with \`wc -l\` and \`cat > /dev/null\` (median of $runs), in the same rounds as ours:"
echo
echo "| file | wc -l s | cat s | ours (file mode) s | ours / wc -l | ours / cat |"
echo "|---|---:|---:|---:|---:|---:|"
printf '%s\n' "${floor_rows[@]}"
echo
if ((!quick)) && [[ -s $work/ids1M.hp ]]; then
    summary ids1M
    if ((m_rc == 0)); then
        echo "- 10^6 distinct identifiers (ids1M.hp, $(awk -v b="$(stat -c %s "$work/ids1M.hp")" 'BEGIN { printf "%.0f", b / 1e6 }') MB, two samples): $m_wall s, peak RSS $(mib "$m_rss_kb") MiB"
    else
        echo "- 10^6 distinct identifiers: FAILED (exit $m_rc)"
    fi
fi
if [[ -n ${ours_wall[p400M.hp]:-} && -n ${ours_wall[p100M.hp]:-} ]]; then
    echo "- ours: time(400 MB) / time(100 MB) = $(div "${ours_wall[p400M.hp]}" "${ours_wall[p100M.hp]}")" \
        "(linear scaling would give the size ratio, $(div "${size_mb[p400M.hp]}" "${size_mb[p100M.hp]}"))"
fi
if [[ -n ${ref_wall[p100M.hp]:-} && -n ${ref_wall[p10M.hp]:-} ]]; then
    echo "- hp2ps: time(100 MB) / time(10 MB) = $(div "${ref_wall[p100M.hp]}" "${ref_wall[p10M.hp]}")" \
        "(size ratio $(div "${size_mb[p100M.hp]}" "${size_mb[p10M.hp]}"))"
fi
