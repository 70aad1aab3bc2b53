#!/usr/bin/env bash
# A day into `hp2ps --serve` (issue 39), in one run: generated -hT eventlogs of 200 bands
# (examples/live_day.rs: 100,000 and 400,000 censuses, 0.8 and 3.3 GB, the eventlogs of
# scripts/measure-memory.sh, and the day, 864,000 censuses every 0.1 s, 7.1 GB), each
# written to a file, read once into the page cache and timed with `wc -l`, then replayed
# into `hp2ps --serve FIFO -o page.html --spool DIR` as a running program writes its
# log into a FIFO (`+RTS -olFIFO`), as fast as the server reads it. For each:
#   - the time to read the run (the replay's start to "the program ended" on stderr)
#     and the server's peak RSS then (VmHWM, from /proc: what following costs);
#   - the time the whole run's page took (to "wrote page.html"), and the peak RSS of
#     the child that made it (`--serve-whole-run`): GNU time around the server gives
#     the largest of the server's and its children's peaks (wait4's rusage), and the
#     server's own VmHWM read just before it ends tells which one that is; the child
#     is also polled in /proc every 0.1 s, as a check;
#   - the server's peak RSS at its end; the saved page's size; the spool file's size
#     (in DIR, found by the server's open descriptors) against the eventlog's, and
#     the size the server said (its status, from the page's event stream);
#   - that the spool is gone once the server has ended (Ctrl-C: SIGINT).
# The longest run is replayed a second time with `--spool-max CAP`: what the cap does to
# the whole run's page's child (it reads what the spool kept, the run up to the cap).
#
# usage: scripts/measure-day.sh [--censuses "C..."] [--cap SIZE] [BIN]
#   BIN          the binary (default: `cargo build --release`, then
#                ${CARGO_TARGET_DIR:-target}/release/hp2ps), copied into the work
#                directory first (a rebuild during the run cannot change it)
#   --censuses   the runs' lengths in censuses of 200 bands, default
#                "100000 400000 864000"
#   --cap SIZE   --spool-max of the longest run's second replay (default 1G; "" for none)
#
# environment: WORK, the work directory (default: a new mktemp -d). Each eventlog is
# deleted once measured (the day's is 7.1 GB, its spool as much again: keep 15 GB free).
# Results go to stdout as Markdown, progress to stderr.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

censuses="100000 400000 864000"
cap=1G
bin=
while (($# > 0)); do
    case "$1" in
    --censuses)
        censuses=${2:?--censuses needs a list}
        shift
        ;;
    --cap)
        cap=${2?--cap needs a size}
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
    *) bin=$1 ;;
    esac
    shift
done

# shellcheck source=scripts/lib/measure.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/measure.sh"
[[ -x /usr/bin/time ]] || { log "needs GNU time (/usr/bin/time: apt-get install time)"; exit 1; }
command -v curl >/dev/null || { log "needs curl"; exit 1; }

target_dir=${CARGO_TARGET_DIR:-target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
if [[ -z $bin ]]; then
    log "building hp2ps (cargo build --release)"
    (cd "$root" && cargo build --release --quiet)
    bin=$target_dir/release/hp2ps
fi
[[ -x $bin ]] || { log "no executable at $bin"; exit 1; }
cp "$bin" "$work/hp2ps"
hp2ps=$work/hp2ps
log "building examples/live_day.rs"
(cd "$root" && cargo build --release --quiet --example live_day)
gen=$target_dir/release/examples/live_day

hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
mb() { echo "scale=1; $1 / 1000000" | bc -l | sed 's/^\./0./'; }
kib_mb() { echo "scale=0; $1 * 1024 / 1000000" | bc -l; }
elapsed() { echo "$2 - $1" | bc -l; }
# The size the server says it keeps, from the status of the newest update on the page's
# event stream ("kept in a spool file …: 7.1 GB").
said_size() {
    timeout 3 curl -s -N "$(cat "$work/url")events" 2>/dev/null |
        grep -o '"kept":"[^"]*"' | head -n 1 | sed -e 's/^"kept":"//' -e 's/"$//' || true
}

# serve LOG LABEL [FLAGS...]: replays LOG into a new server (with FLAGS) and appends its
# row to `rows` (LABEL: the run's name; wc_s: `wc -l`'s time of LOG).
serve() {
    local log_file=$1 label=$2
    shift 2
    local size spool=$work/spool
    size=$(stat -c %s "$log_file")
    rm -rf "$spool" "$work/page.html" "$work/fifo"
    mkdir -p "$spool"
    mkfifo "$work/fifo"
    /usr/bin/time -f %M -o "$work/time" \
        "$hp2ps" --serve "$work/fifo" -o "$work/page.html" --spool "$spool" "$@" \
        >"$work/url" 2>"$work/stderr" &
    local timer=$! server=
    until [[ -n $server ]]; do server=$(pgrep -P "$timer" || true); sleep 0.05; done
    until [[ -s $work/url ]]; do sleep 0.05; done
    log "replaying $label into the server ($server) $*"
    local t0 t_read t_page following polled=0 k child
    t0=$(date +%s.%N)
    cat "$log_file" >"$work/fifo"
    until grep -q "the program ended" "$work/stderr"; do sleep 0.02; done
    t_read=$(date +%s.%N)
    following=$(hwm "$server")
    log "read in $(elapsed "$t0" "$t_read") s; the whole run's page"
    until grep -qE "wrote .*page.html|cannot|error" "$work/stderr"; do
        for child in $(pgrep -P "$server" || true); do
            k=$(hwm "$child")
            ((${k:-0} > polled)) && polled=$k
        done
        sleep 0.1
    done
    t_page=$(date +%s.%N)
    sleep 1
    local said spool_fd spool_file spool_size listed server_end both left page_size
    said=$(said_size)
    spool_fd=$(find "/proc/$server/fd" -lname '*.spool*' | head -n 1)
    spool_file=$(readlink "$spool_fd")
    spool_size=$(stat -L -c %s "$spool_fd")
    listed=$(find "$spool" -type f -printf '%f %s\n')
    server_end=$(hwm "$server")
    kill -INT "$server"
    wait "$timer" || true
    both=$(tail -n 1 "$work/time")
    child="$(kib_mb "$both") MB"
    ((both > server_end)) || child="at most the server's"
    left=$(find "$spool" -type f | wc -l)
    page_size=$(stat -c %s "$work/page.html")
    log "spool: $spool_file, $spool_size bytes (said: $said; in $spool: ${listed:-nothing}); after the end: $left files"
    [[ -n $* || $spool_size == "$size" ]] || log "THE SPOOL IS NOT THE EVENTLOG'S SIZE: $spool_size, $size"
    grep -o 'this page covers the run [^"]*' "$work/page.html" | head -n 1 >&2 || true
    rows+=("| $label | $(printf '%.2f' "$wc_s") s | $(printf '%.1f' "$(elapsed "$t0" "$t_read")") s, $(kib_mb "$following") MB | $(printf '%.1f' "$(elapsed "$t_read" "$t_page")") s, $child (polled $(kib_mb "$polled") MB) | $(kib_mb "$server_end") MB | $(mb "$page_size") MB | $(mb "$spool_size") MB, said: $(sed -n 's/.*: \([0-9.]* [kMG]*B\).*/\1/p' <<<"$said"); $left left after |")
    rm -rf "$spool" "$work/page.html" "$work/fifo"
}

rows=()
longest=$(printf '%s\n' $censuses | sort -n | tail -n 1)
for c in $censuses; do
    log "run of $c censuses: generating"
    log "$(df -h "$work" | tail -n 1)"
    log_file=$work/l$c.eventlog
    "$gen" "$c" 200 >"$log_file"
    size=$(stat -c %s "$log_file")
    cat "$log_file" >/dev/null
    t0=$(date +%s.%N)
    wc -l "$log_file" >/dev/null
    wc_s=$(elapsed "$t0" "$(date +%s.%N)")
    serve "$log_file" "$c ($(mb "$size") MB)"
    if [[ $c == "$longest" && -n $cap ]]; then
        serve "$log_file" "$c, \`--spool-max $cap\`" --spool-max "$cap"
    fi
    rm -f "$log_file"
done

echo "| censuses × 200 bands (eventlog) | \`wc -l\` | reading it: time, server's peak | whole run's page: time, child's peak | server's peak at the end | page | spool |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "binary: $(sha256sum "$hp2ps" | cut -c1-12); $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
