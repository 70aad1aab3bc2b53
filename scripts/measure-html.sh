#!/usr/bin/env bash
# Measures the HTML page (--format html) against the targets of its issue:
#   - writing the page takes at most 1.2 x the time of `-c` (PostScript) on the
#     same input (the 400 MB generated profile);
#   - the page of the 400 MB profile is at most 6 MB (with its finer levels of
#     detail for zooming), the page without data at most 150 KB, the script and
#     style it carries (without comments and needless spaces) at most 60 KB;
#   - in headless Chromium the 400 MB profile's page draws its chart within 1 s
#     of loading, and hover and zoom answer within 50 ms.
#
# usage: scripts/measure-html.sh [--runs N]
#   --runs N   runs of each timed command, alternating (default 7); the
#              reported time is the median
#
# environment:
#   WORK       work directory (default: a new mktemp -d); the generated 400 MB
#              profile is reused from there (the same p400M.hp as
#              scripts/compare-hp2ps.sh makes, so one WORK serves both)
#
# Needs chromium and chromedriver (Debian: chromium, chromium-driver) for the
# browser's numbers (examples/html_page.rs). Results go to stdout as Markdown;
# progress to stderr.
set -euo pipefail

runs=7
while (($# > 0)); do
    case "$1" in
    --runs)
        runs=${2:?--runs needs a number}
        shift
        ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
    *)
        printf 'unknown option: %s\n' "$1" >&2
        exit 2
        ;;
    esac
    shift
done

# shellcheck source=scripts/lib/measure.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/measure.sh"

log "building (cargo build --release, and the example html_page)"
(cd "$root" && cargo build --release --quiet && cargo build --release --quiet --example html_page)
target_dir=${CARGO_TARGET_DIR:-target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
hp2ps=$target_dir/release/hp2ps
driver=$target_dir/release/examples/html_page

generator
generated p400M.hp --size 400M --bands 200

# The corpus's largest real profile, the largest committed one, and a profile of
# one empty sample (the page without data).
cp "$root/golden/inputs/longrun-O1-hc.hp" "$work/longrun-O1-hc.hp"
gunzip -c "$root/tests/data/large/longrun-O1-hc-i0.0001.hp.gz" >"$work/longrun-O1-hc-i0.0001.hp"
cp "$root/golden/inputs/edge-header-empty-sample.hp" "$work/empty.hp"
# Two runs in one page: LeakMap -hc under GHC 9.0.2 and 9.10.3.
cp "$root/tests/data/eventlog/leakmap-hc.eventlog" "$work/leakmap-9.0.eventlog"
cp "$root/tests/data/ghc-9.10/leakmap-hc.eventlog" "$work/leakmap-9.10.eventlog"

seconds() { # seconds CMD...: the wall time of one run
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

cd "$work"
log "timing -c and --format html on p400M.hp, $runs runs each, alternating"
ps_times=()
html_times=()
for ((i = 0; i < runs; i++)); do
    rm -f p400M.ps p400M.html
    ps_times+=("$(seconds "$hp2ps" -c p400M.hp)")
    rm -f p400M.ps p400M.html
    html_times+=("$(seconds "$hp2ps" -c --format html p400M.hp)")
done
ps_median=$(median "${ps_times[@]}")
html_median=$(median "${html_times[@]}")

for f in longrun-O1-hc longrun-O1-hc-i0.0001 empty; do
    "$hp2ps" -c --format html "$f.hp"
done
"$hp2ps" -c --format html -o compare.html leakmap-9.0.eventlog leakmap-9.10.eventlog

size() { stat -c %s "$1"; }
# The bytes of the last <style> or <script> element of a page (the script: not the
# data, which comes before it).
carried() {
    perl -e 'my ($tag, $f) = @ARGV; open my $h, "<", $f or die "$f: $!"; local $/; my $t = <$h>;
        my @m = $t =~ /<\Q$tag\E>(.*?)<\/\Q$tag\E>/sg; print length($m[-1])' "$1" "$2"
}
echo "## HTML page, $(date -u '+%Y-%m-%d %H:%M UTC'), $(cd "$root" && git rev-parse --short HEAD)"
echo
echo "| what | measured |"
echo "|---|---|"
echo "| \`-c\` on p400M.hp (PostScript), median of $runs | ${ps_median} s (${ps_times[*]}) |"
echo "| \`-c --format html\` on p400M.hp, median of $runs | ${html_median} s (${html_times[*]}) |"
echo "| html / \`-c\` | $(awk -v a="$html_median" -v b="$ps_median" 'BEGIN { printf "%.2f", a / b }') |"
echo "| page of p400M.hp | $(size p400M.html) bytes |"
echo "| page of longrun-O1-hc.hp (the corpus's largest real profile) | $(size longrun-O1-hc.html) bytes |"
echo "| page of longrun-O1-hc-i0.0001.hp (tests/data/large, 11,205 samples) | $(size longrun-O1-hc-i0.0001.html) bytes |"
echo "| page without data (one empty sample) | $(size empty.html) bytes |"
echo "| script and style carried (without comments and needless spaces) | $(carried script empty.html) + $(carried style empty.html) bytes |"
echo "| page of two runs (LeakMap -hc, GHC 9.0.2 and 9.10.3 eventlogs) | $(size compare.html) bytes |"
echo
for page in p400M longrun-O1-hc-i0.0001 longrun-O1-hc compare; do
    log "measuring $page.html in Chromium"
    echo "### $page.html in headless Chromium"
    echo
    echo '```text'
    "$driver" measure "$page.html" --runs 5
    echo '```'
    echo
done
