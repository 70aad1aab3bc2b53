#!/usr/bin/env bash
# Renders every profile of the corpus with one hp2ps binary, in every format and with
# several sets of flags, so that a change meant to keep every output can be checked
# byte for byte against the binary from before it.
#
# usage:
#   scripts/same-outputs.sh render BIN DIR      render everything with BIN into DIR
#   scripts/same-outputs.sh compare OLD NEW     compare two such directories
#   scripts/same-outputs.sh OLD_BIN NEW_BIN     both: render with each into a new
#                                               temporary directory, then compare
#
# The inputs: golden/inputs, tests/data (its .hp, .hp.gz and .eventlog files) and, when
# present, /work/shared/corpus/{profiles,eventlog,ghc-9.10} (or $CORPUS/...). Each is
# copied once (by content) into DIR/in under a name that keeps a .hp and an eventlog of the
# same program apart. Every flag set renders every input in batch mode (`--output-dir`,
# so the .aux is compared too) as ps, eps, svg, pdf and html; stderr and the exit status
# of every run are kept beside the outputs and compared as well. Besides: filter mode
# (stdin to stdout), `-p` against the `.aux` of the `-c` run, `--summary` as text and
# JSON, and pages of several runs (`--format html -o page.html a b`).
#
# compare prints each file that differs or exists on one side only, a count per flag set,
# and exits 1 if anything differs outside the flag sets named in $ALLOW_SETS (space
# separated, e.g. ALLOW_SETS=heap-size when a change adds a line to --heap-size only:
# every output made with --heap-size, its summaries and pages of runs too, is in the set
# heap-size).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-/work/shared/corpus}

# name|flags: every set renders every input in every format.
SETS=(
    "plain|"
    "colour|-c"
    "bands|-c -m5 -t0 -d --reverse"
    "names|-i -M -g -b -y"
    "palette|-c --palette viridis --colour-by name --key-labels fit"
    "pattern|--pattern -e4in -s"
    "growth|-c --sort growth --exclude CAF"
    "window|-c --from 0.1 --to 2"
    "points|-c --max-points 50"
    "eventlog|-c --time elapsed --full-names --ipe-names address"
    "uniform|-c --uniform-scale both"
    "heap-size|-c --heap-size"
)
FORMATS=(ps eps svg pdf html)

gather_inputs() {
    local into=$1
    mkdir -p "$into"
    local dirs=("$here/golden/inputs" "$here/tests/data")
    for d in profiles eventlog ghc-9.10; do
        [ -d "$corpus/$d" ] && dirs+=("$corpus/$d")
    done
    declare -A seen=()
    local f sum base name
    while IFS= read -r f; do
        case "$f" in
        *.hp.gz) sum=$(gzip -dc "$f" | sha1sum | cut -c1-40) ;;
        *) sum=$(sha1sum <"$f" | cut -c1-40) ;;
        esac
        [ -n "${seen[$sum]:-}" ] && continue
        seen[$sum]=1
        base=$(basename "$f")
        case "$base" in
        *.hp.gz) name="${base%.hp.gz}__hp.hp" ;;
        *.eventlog) name="${base%.eventlog}__el.eventlog" ;;
        *) name="${base%.hp}__hp.hp" ;;
        esac
        # Two different files of one name: the later ones get a number.
        if [ -e "$into/$name" ]; then
            local n=2
            while [ -e "$into/${n}_$name" ]; do n=$((n + 1)); done
            name="${n}_$name"
        fi
        case "$base" in
        *.gz) gzip -dc "$f" >"$into/$name" ;;
        *) cp "$f" "$into/$name" ;;
        esac
    done < <(find "${dirs[@]}" -type f \( -name '*.hp' -o -name '*.hp.gz' -o -name '*.eventlog' \) | LC_ALL=C sort)
}

# run OUTDIR CMD...: runs CMD (in the render's directory, where every path is relative, so
# that the outputs and messages that name their input are the same wherever it is),
# keeping its stdout, stderr and status.
run() {
    local out=$1
    shift
    mkdir -p "$out"
    "$@" >"$out/stdout" 2>"$out/stderr" && echo 0 >"$out/status" || echo $? >"$out/status"
}

render() {
    local bin dir
    bin=$(realpath "$1")
    dir=$(realpath -m "$2")
    mkdir -p "$dir"
    gather_inputs "$dir/in"
    cd "$dir"
    local inputs=(in/*)
    echo "$(ls in | wc -l) inputs" >&2
    local set name flags format
    for set in "${SETS[@]}"; do
        name=${set%%|*}
        flags=${set#*|}
        for format in "${FORMATS[@]}"; do
            echo "render: $name $format" >&2
            # shellcheck disable=SC2086
            run "out/$name/$format" "$bin" $flags --format "$format" -j2 \
                --output-dir "out/$name/$format" "${inputs[@]}"
        done
    done
    # -p against the .aux files of the -c run, in every format.
    for format in "${FORMATS[@]}"; do
        echo "render: previous $format" >&2
        mkdir -p "out/previous/$format"
        cp "out/colour/ps/"*.aux "out/previous/$format/"
        run "out/previous/$format" "$bin" -p -c --format "$format" -j2 \
            --output-dir "out/previous/$format" "${inputs[@]}"
    done
    # Filter mode: stdin to stdout.
    echo "render: stdin" >&2
    local f
    for f in "${inputs[@]}"; do
        for format in ps svg html; do
            run "out/stdin/$format/$(basename "$f")" sh -c \
                "exec \"\$0\" -c --format $format < \"\$1\"" "$bin" "$f"
        done
    done
    echo "render: summaries" >&2
    run "out/summary/text" "$bin" --summary -j2 "${inputs[@]}"
    run "out/summary/json" "$bin" --summary=json --top 5 -j2 "${inputs[@]}"
    run "out/heap-size/summary-json" "$bin" --summary=json --heap-size -j2 "${inputs[@]}"
    echo "render: pages of several runs" >&2
    local pairs=(
        "leakmap-hc__el.eventlog 2_leakmap-hc__el.eventlog"
        "leakmap-hc__hp.hp leakmap-hc__el.eventlog"
        "textproc-hc__el.eventlog textproc-hT__el.eventlog 2_leakmap-hc__hp.hp"
    )
    local i=0 pair args a
    for pair in "${pairs[@]}"; do
        i=$((i + 1))
        args=()
        for a in $pair; do
            [ -e "in/$a" ] && args+=("in/$a")
        done
        [ "${#args[@]}" -ge 2 ] || continue
        run "out/runs/$i" "$bin" -c --format html -o "out/runs/$i/page.html" "${args[@]}"
        run "out/heap-size/runs-$i" "$bin" --heap-size --format html \
            -o "out/heap-size/runs-$i/page.html" "${args[@]}"
    done
    echo "$(find out -type f | wc -l) files in $dir/out" >&2
    cd - >/dev/null
}

compare() {
    local old=$1 new=$2 failed=0
    local allow=" ${ALLOW_SETS:-} "
    declare -A differ=() total=()
    local rel set
    while IFS= read -r rel; do
        set=${rel#./}
        set=${set%%/*}
        total[$set]=$((${total[$set]:-0} + 1))
        if ! cmp -s "$old/out/$rel" "$new/out/$rel"; then
            echo "differs: $rel"
            differ[$set]=$((${differ[$set]:-0} + 1))
        fi
    done < <( (cd "$old/out" && find . -type f; cd "$new/out" && find . -type f) | LC_ALL=C sort -u)
    for set in $(printf '%s\n' "${!total[@]}" | LC_ALL=C sort); do
        local d=${differ[$set]:-0}
        local note=""
        if [ "$d" -gt 0 ]; then
            case "$allow" in
            *" $set "*) note=" (allowed)" ;;
            *) note=" (NOT allowed)"; failed=1 ;;
            esac
        fi
        echo "$set: $d of ${total[$set]} files differ$note"
    done
    local all
    all=$(cd "$new/out" && find . -type f | wc -l)
    echo "$all files compared"
    return $failed
}

case "${1:-}" in
render) render "$2" "$3" ;;
compare) compare "$2" "$3" ;;
"" | -h | --help) sed -n '2,25p' "$0" ; exit 2 ;;
*)
    work=$(mktemp -d)
    render "$1" "$work/old"
    render "$2" "$work/new"
    echo "outputs in $work" >&2
    compare "$work/old" "$work/new"
    ;;
esac
