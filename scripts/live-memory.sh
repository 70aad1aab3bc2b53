#!/usr/bin/env bash
# What `hp2ps --serve` keeps while it follows a long run, and what it costs idle:
#   - a generated day (examples/live_day.rs: 864,000 censuses of 200 bands every 0.1 s,
#     5.2 GB of eventlog) is piped into `hp2ps --serve -` as fast as it reads it; the
#     server's peak RSS (VmHWM) is read from /proc when the last census has been read
#     (the stated bound: 300 MB), and again once the whole run's page has been made by
#     its child (whose peak, what --format html of the whole log costs, is read too);
#   - then, the run over and nothing coming, its CPU time over IDLE seconds (default 60).
#
# usage: scripts/live-memory.sh [CENSUSES [BANDS]]
# environment: WORK (work directory, default mktemp -d), IDLE (seconds, default 60),
#              TMPDIR (where the spool of the run goes: 5.2 GB for a day)
# Results go to stdout as Markdown; progress to stderr.
set -euo pipefail
censuses=${1:-864000}
bands=${2:-200}
idle=${IDLE:-60}
source "$(dirname "$0")/lib/measure.sh"

log "building hp2ps and the generator (release)"
(cd "$root" && cargo build --release --quiet && cargo build --release --quiet --example live_day)
hp2ps=$root/target/release/hp2ps
gen=$root/target/release/examples/live_day

# jiffies PID: user + system CPU time of a process, in clock ticks.
jiffies() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }
rss() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }

log "following $censuses censuses of $bands bands"
fifo=$work/in.fifo
rm -f "$fifo"
mkfifo "$fifo"
"$hp2ps" --serve "$fifo" -o "$work/whole.html" >"$work/url" 2>"$work/stderr" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
start=$(date +%s.%N)
"$gen" "$censuses" "$bands" >"$fifo"
# The end marker read: the peak so far is the following's (the whole run's page is
# made after it, by the publisher, from the spool).
until grep -q "the program ended" "$work/stderr"; do sleep 0.02; done
read_done=$(date +%s.%N)
following_kib=$(hwm "$server")
log "read in $(echo "$read_done - $start" | bc) s; making the whole run's page"
# The whole run's page is made by a child (hp2ps --serve-whole-run): its peak too.
child_kib=0
until grep -qE "wrote .*whole.html|cannot" "$work/stderr"; do
    for child in $(pgrep -P "$server" || true); do
        kib=$(hwm "$child" 2>/dev/null || echo 0)
        (( ${kib:-0} > child_kib )) && child_kib=$kib
    done
    sleep 0.1
done
whole_done=$(date +%s.%N)
whole_kib=$(hwm "$server")
sleep 2
log "idle for $idle s"
cpu0=$(jiffies "$server")
sleep "$idle"
cpu1=$(jiffies "$server")
ticks=$(getconf CLK_TCK)
printf '| measure | value |\n|---|---|\n'
printf '| censuses × bands | %s × %s |\n' "$censuses" "$bands"
printf '| reading the run (s) | %.1f |\n' "$(echo "$read_done - $start" | bc)"
printf '| peak RSS while following (MB) | %.1f |\n' "$(echo "$following_kib / 1024" | bc -l)"
printf '| the whole run'"'"'s page made (s) | %.1f |\n' "$(echo "$whole_done - $read_done" | bc)"
printf '| peak RSS of the server after it (MB) | %.1f |\n' "$(echo "$whole_kib / 1024" | bc -l)"
printf '| peak RSS of the child that made it (MB) | %.1f |\n' "$(echo "$child_kib / 1024" | bc -l)"
printf '| RSS idle (MB) | %.1f |\n' "$(echo "$(rss "$server") / 1024" | bc -l)"
printf '| CPU idle over %s s (s) | %.2f |\n' "$idle" "$(echo "($cpu1 - $cpu0) / $ticks" | bc -l)"
log "stderr of the server:"
cat "$work/stderr" >&2
