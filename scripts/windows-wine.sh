#!/usr/bin/env bash
# Runs the Windows build of hp2ps (x86_64-pc-windows-gnu) under Wine and compares every
# file it writes, its stdout and its exit status with the Linux build's, byte for byte.
#
# usage: scripts/windows-wine.sh
#
# Both builds run the same cases, each in a directory of its own (WORK/linux/CASE and
# WORK/windows/CASE) over the same inputs (WORK/in); the Windows side is given its paths
# with `\` instead of `/`. The cases: every golden input in five formats (PS with -c,
# EPS, SVG, PDF, HTML) as batches into --output-dir; every real eventlog of
# tests/data (GHC 9.0.2 and 9.10.3) as PS and HTML, and their --summary=json; a -hi
# eventlog named by its program (--binary); file mode, -p with the .aux, -o; a .hp and
# an eventlog through the stdin filter; a .hp with CRLF line ends; a name that is not
# UTF-8; a generated 30 MB profile (the chunked reader on both); bad inputs (exit
# status and the outputs kept). What differs and why is in README.md ("Platforms").
#
# Needs wine (Debian's wine and wine64) and the MinGW-w64 cross compiler (Debian's
# gcc-mingw-w64-x86-64), and rustup's target (rustup target add x86_64-pc-windows-gnu);
# .ci/run installs them and runs this.
#
# Wine: Debian 12's Wine 8.0 lacks bcryptprimitives.dll, whose ProcessPrng every Rust
# program for Windows imports (Rust 1.78 on), so hp2ps.exe would not start. A stand-in
# DLL of one function (scripts/windows/bcryptprimitives.c, 13 KB, built here with the
# same MinGW compiler the cross build links with) is put beside hp2ps.exe for the test
# only: it forwards to advapi32's RtlGenRandom, which Wine 8.0 has. Lighter than Wine 9
# or 10 from elsewhere (bookworm-backports has no Wine; a Debian unstable chroot is
# about a gigabyte and minutes of debootstrap).
#
# environment:
#   WORK          work directory (default: a new mktemp -d)
#   HP2PS_LINUX   the Linux binary (default: cargo build --release, target/release/hp2ps)
#   HP2PS_WINDOWS the Windows binary (default: cargo build --release --target
#                 x86_64-pc-windows-gnu)
#
# Prints one line per case and a summary; exits 1 if any case differs.
set -euo pipefail

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
    exit 0
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
target=x86_64-pc-windows-gnu
log() { printf '%s\n' "$*" >&2; }
die() {
    log "windows-wine: $*"
    exit 1
}

for tool in wine x86_64-w64-mingw32-gcc; do
    command -v "$tool" >/dev/null || die "$tool not found (.ci/run installs wine, wine64, gcc-mingw-w64-x86-64)"
done

# --- the two builds ------------------------------------------------------------

target_dir=${CARGO_TARGET_DIR:-$root/target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
if [[ -z ${HP2PS_LINUX:-} ]]; then
    log "building the Linux binary (cargo build --release)"
    (cd "$root" && cargo build --release --locked --quiet)
fi
linux=${HP2PS_LINUX:-$target_dir/release/hp2ps}
[[ $linux == /* ]] || linux=$PWD/$linux
if [[ -z ${HP2PS_WINDOWS:-} ]]; then
    rustup target list --installed 2>/dev/null | grep -qx "$target" ||
        die "rustup target $target missing (rustup target add $target)"
    log "building the Windows binary (cargo build --release --target $target)"
    (cd "$root" && cargo build --release --locked --quiet --target "$target")
fi
windows=${HP2PS_WINDOWS:-$target_dir/$target/release/hp2ps.exe}
[[ $windows == /* ]] || windows=$PWD/$windows
[[ -x $linux ]] || die "no Linux binary at $linux"
[[ -f $windows ]] || die "no Windows binary at $windows"

mkdir -p "$work/bin"
cp "$windows" "$work/bin/hp2ps.exe"
x86_64-w64-mingw32-gcc -shared -O2 -s -o "$work/bin/bcryptprimitives.dll" \
    "$root/scripts/windows/bcryptprimitives.c" "$root/scripts/windows/bcryptprimitives.def" -ladvapi32

# A prefix of our own; no Mono or Gecko (nothing here needs .NET or a browser, and
# there is no network to fetch them); no debug chatter. The wineserver is started once
# and kept for every case (-p), then stopped.
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
started=$(date +%s)
mkdir -p "$WINEPREFIX"
wineserver -p
trap 'wineserver -k 2>/dev/null || true' EXIT
# The first run makes the prefix; what Wine says meanwhile is kept, shown on failure.
version_w=$(wine "$work/bin/hp2ps.exe" --version 2>"$work/wine-start.log") || {
    cat "$work/wine-start.log" >&2
    die "hp2ps.exe does not start under $(wine --version)"
}
version_l=$("$linux" --version)
[[ $version_w == "$version_l" ]] || die "--version: Windows '$version_w', Linux '$version_l'"
log "$(wine --version) starts hp2ps.exe ($version_w) in $(($(date +%s) - started)) s"

# --- the inputs ----------------------------------------------------------------

in=$work/in
rm -rf "$in" "$work/linux" "$work/windows"
mkdir -p "$in/golden" "$in/ghc-9.0.2" "$in/ghc-9.10.3" "$in/misc/sub dir"
cp "$root"/golden/inputs/*.hp "$in/golden/"
cp "$root"/tests/data/eventlog/*.eventlog "$in/ghc-9.0.2/"
cp "$root"/tests/data/ghc-9.10/*.eventlog "$in/ghc-9.10.3/"
# A -hi log, and its program beside it (found by the name the log gives).
mkdir -p "$in/hi"
cp "$root/tests/data/ghc-9.10/leakmap-hi.eventlog" "$in/hi/"
gzip -dc "$root/tests/data/ghc-9.10/bin/leakmap-ipe.gz" >"$in/hi/leakmap-ipe"
chmod +x "$in/hi/leakmap-ipe"
cp "$root/golden/inputs/manycc-O0-hc.hp" "$in/misc/sub dir/manycc.hp"
cp "$root/tests/data/ghc-9.10/leakmap-hc.eventlog" "$in/misc/leakmap-hc.eventlog"
# CRLF line ends throughout a real profile (the golden edge-crlf and spec7-44-crlf
# inputs have them too).
sed 's/$/\r/' "$root/golden/inputs/leakmap-O0-hc-bio-dragvoid.hp" >"$in/misc/crlf.hp"
# A name that is not UTF-8 (Latin-1 é).
cp "$root/golden/inputs/manycc-O0-hc.hp" "$in/misc/caf$(printf '\351').hp"
# Bad inputs.
printf 'JOB "x"\nBEGIN_SAMPLE 0\nfoo\n' >"$in/misc/bad.hp"
head -c 5000 "$root/tests/data/ghc-9.10/leakmap-hc.eventlog" >"$in/misc/cut.eventlog"
# A large profile: on Linux the file is mapped, on Windows read as a stream.
gen=$work/gen_profile
if [[ ! -x $gen || $root/examples/gen_profile.rs -nt $gen ]]; then
    rustc --edition 2021 -C opt-level=3 -o "$gen" "$root/examples/gen_profile.rs"
fi
"$gen" --size 30M --bands 150 >"$in/misc/big.hp"

# --- running and comparing -------------------------------------------------------

cases=0
failed=()
wine_crashes=()
# run SIDE CASE STDIN ARGS...: runs one build in WORK/SIDE/CASE (stdout to .stdout,
# stderr to .stderr, exit status to .status; these three are not outputs of hp2ps).
run() {
    local side=$1 name=$2 stdin=$3 dir
    shift 3
    dir=$work/$side/$name
    mkdir -p "$dir"
    local status=0
    if [[ $side == linux ]]; then
        (cd "$dir" && "$linux" "$@" <"$stdin" >.stdout 2>.stderr) || status=$?
    else
        (cd "$dir" && wine "$work/bin/hp2ps.exe" "$@" <"$stdin" >.stdout 2>.stderr) || status=$?
        # Status 139 is the wine process itself killed by SIGSEGV on the Linux side (a
        # fault in hp2ps.exe would be a Windows exception: wine reports it and exits
        # with its code). Debian 12's Wine 8.0 did so twice in one CI run of the 30
        # cases, and never again in three more runs of all 30 and 55 runs of those two
        # cases (alone and under load): that case runs again once, in a clean
        # directory, and the summary says so.
        if ((status == 139)); then
            wine_crashes+=("$name")
            echo "wine crashed (SIGSEGV of the wine process) in $name: running it again" >&2
            rm -rf "$dir"
            mkdir -p "$dir"
            status=0
            (cd "$dir" && wine "$work/bin/hp2ps.exe" "$@" <"$stdin" >.stdout 2>.stderr) || status=$?
        fi
    fi
    echo "$status" >"$dir/.status"
}

# windows_args ARGS...: the arguments with every `/` made `\` (the Windows side's paths).
windows_args() {
    wargs=()
    local a
    for a in "$@"; do wargs+=("${a//\//\\}"); done
}

# same [--slashes] CASE [STDIN] -- ARGS...: runs both builds and compares what they
# wrote. --slashes gives the Windows side the paths with `/` as they are (Windows takes
# both), for the outputs that carry the input's name as given: the HTML page
# (data-run) and --summary (its file line or field).
same() {
    local keep=0 name stdin=/dev/null
    if [[ $1 == --slashes ]]; then
        keep=1
        shift
    fi
    name=$1
    shift
    if [[ $1 != -- ]]; then
        stdin=$1
        shift
    fi
    shift
    run linux "$name" "$stdin" "$@"
    if ((keep)); then wargs=("$@"); else windows_args "$@"; fi
    run windows "$name" "$stdin" "${wargs[@]}"
    compare "$name"
}

# compare CASE: the same files with the same bytes, the same stdout and exit status.
# stderr is compared too, with the Windows side's `\` read as `/` (messages name a file
# as it was given) and without the text the operating system gives for an error
# ("No such file or directory" / "File not found."), which is cut from both.
compare() {
    local name=$1 l=$work/linux/$1 w=$work/windows/$1 diffs=""
    cases=$((cases + 1))
    local files_l files_w
    files_l=$(cd "$l" && find . -type f ! -name .stderr | LC_ALL=C sort)
    files_w=$(cd "$w" && find . -type f ! -name .stderr | LC_ALL=C sort)
    if [[ $files_l != "$files_w" ]]; then
        diffs+=" files: $(diff <(echo "$files_l") <(echo "$files_w") | grep '^[<>]' | head -6 | tr '\n' ' ' || true)"
    fi
    local f count=0
    while IFS= read -r f; do
        [[ -f $w/$f ]] || continue
        [[ $f == ./.stdout || $f == ./.status ]] || count=$((count + 1))
        cmp -s "$l/$f" "$w/$f" || diffs+=" $f differs ($(cmp "$l/$f" "$w/$f" 2>&1 | sed 's/.*differ: //' || true))"
    done <<<"$files_l"
    if ! diff -q <(os_text <"$l/.stderr") <(tr '\\' / <"$w/.stderr" | os_text) >/dev/null; then
        diffs+=" stderr: $(diff <(os_text <"$l/.stderr") <(tr '\\' / <"$w/.stderr" | os_text) | grep '^[<>]' | head -4 | tr '\n' ' ' || true)"
    fi
    if [[ -z $diffs ]]; then
        printf 'same       %-22s %3d files, stdout %7d bytes, exit %s\n' "$name" "$count" \
            "$(stat -c %s "$l/.stdout")" "$(cat "$l/.status")"
    else
        printf 'DIFFERENT  %-22s%s\n' "$name" "$diffs"
        failed+=("$name")
    fi
}

# The operating system's words for an I/O error, cut from a message
# ("cannot open x.hp: File not found. (os error 2)" -> "cannot open x.hp: (os error)").
os_text() { sed -E 's/: [^:]*\(os error [0-9]+\)$/: (os error)/'; }

log "running the cases"
golden=()
for f in "$in"/golden/*.hp; do golden+=("../../in/golden/${f##*/}"); done
declare -A logs
for ghc in ghc-9.0.2 ghc-9.10.3; do
    for f in "$in/$ghc"/*.eventlog; do logs[$ghc]+="../../in/$ghc/${f##*/} "; done
done

# Batches and --output-dir, every golden input in every format.
same golden-ps -- -c --output-dir out/ps "${golden[@]}"
same golden-eps -- -e6in --output-dir out/eps "${golden[@]}"
same golden-svg -- -c --format svg --output-dir out/svg "${golden[@]}"
same golden-pdf -- --format pdf --output-dir out/pdf "${golden[@]}"
same --slashes golden-html -- -c --format html --output-dir out/html "${golden[@]}"
same --slashes golden-summary -- --summary=json "${golden[@]}"
# Every real eventlog, of each GHC (their names repeat across the two).
for ghc in ghc-9.0.2 ghc-9.10.3; do
    read -r -a these <<<"${logs[$ghc]}"
    same "$ghc-ps" -- -c --output-dir out "${these[@]}"
    same --slashes "$ghc-html" -- -c --format html --output-dir out/html "${these[@]}"
    same --slashes "$ghc-summary" -- --summary=json "${these[@]}"
    same "$ghc-elapsed" -- -c --time elapsed --heap-size --format svg --output-dir out "${these[@]}"
done
# -hi names from the program beside the log, and given with --binary.
same hi-beside -- -c ../../in/hi/leakmap-hi.eventlog
same --slashes hi-binary -- -c --binary ../../in/hi/leakmap-ipe --summary=json -o hi.svg ../../in/hi/leakmap-hi.eventlog
# File mode (./NAME.ps and ./NAME.aux), through a directory with a space; -p reads the .aux.
same file-mode -- -c "../../in/misc/sub dir/manycc.hp" ../../in/misc/leakmap-hc.eventlog
for side in linux windows; do
    cp -r "$work/$side/file-mode" "$work/$side/file-mode-p"
done
same file-mode-p -- -p -c -d "../../in/misc/sub dir/manycc.hp" ../../in/misc/leakmap-hc.eventlog
mkdir -p "$work/linux/output-file/a b" "$work/windows/output-file/a b"
same output-file -- -c -o "a b/chart.pdf" --x-labels exact ../../in/golden/keywords-O0-hT.hp
same output-eps -- -e150mm -o chart.eps --x-labels exact ../../in/golden/keywords-O0-hT.hp
# An eventlog's DATE in the zone a POSIX TZ rule gives (on Linux and under Wine the
# default zone comes from /etc/localtime, which Wine shows hp2ps.exe through its Z:
# drive; on Windows itself only TZ gives one: see README.md).
TZ=NZST-12NZDT,M9.5.0,M4.1.0/3 same --slashes eventlog-tz -- --summary ../../in/misc/leakmap-hc.eventlog
# The stdin filter: a .hp and an eventlog.
same stdin-hp "$in/golden/manycc-O0-hc.hp" -- -c
same stdin-eventlog "$in/misc/leakmap-hc.eventlog" -- -c --format svg
same --slashes stdin-html "$in/misc/leakmap-hc.eventlog" -- -c -o - --format html
# CRLF line ends.
same crlf -- -c -d ../../in/misc/crlf.hp ../../in/golden/edge-crlf.hp ../../in/golden/spec7-44-crlf.hp
# The large profile, in file mode and through stdin.
same big -- -c ../../in/misc/big.hp
same big-stdin "$in/misc/big.hp" -- -c --format svg
# Bad inputs: the exit status, the message, nothing written for them.
same bad -- -c ../../in/misc/bad.hp ../../in/misc/cut.eventlog ../../in/misc/missing.hp ../../in/golden/manycc-O0-hc.hp

# A name that is not UTF-8: Linux writes caf\351.ps; a Windows name is UTF-16, so Wine
# hands hp2ps.exe the name with U+FFFD for the byte, opens the file by it, and names the
# outputs so (caf\357\277\275.ps on the Linux disk). The bytes must be the same.
non_utf8=$(printf 'caf\351')
run linux non-utf8 /dev/null -c "../../in/misc/$non_utf8.hp"
run windows non-utf8 /dev/null -c "..\\..\\in\\misc\\$non_utf8.hp"
cases=$((cases + 1))
replacement=$(printf 'caf\357\277\275')
if cmp -s "$work/linux/non-utf8/$non_utf8.ps" "$work/windows/non-utf8/$replacement.ps" &&
    cmp -s "$work/linux/non-utf8/$non_utf8.aux" "$work/windows/non-utf8/$replacement.aux" &&
    [[ $(cat "$work/linux/non-utf8/.status") == 0 && $(cat "$work/windows/non-utf8/.status") == 0 ]]; then
    printf 'same       %-22s %3d files, exit 0 (named caf\\uFFFD.* on Windows)\n' non-utf8 2
else
    printf 'DIFFERENT  %-22s %s\n' non-utf8 "$(cd "$work/windows/non-utf8" && ls -b)"
    failed+=(non-utf8)
fi

# The one difference Wine hides: Windows has no /etc/localtime, which Wine shows through
# its Z: drive (the whole Unix tree). Without that drive, as on Windows, an eventlog's
# DATE is UTC, with a warning (README.md, "Platforms"); the Linux build gives the same
# DATE with TZ=UTC0.
cases=$((cases + 1))
mkdir -p "$WINEPREFIX/drive_c/hp2ps"
cp "$work/bin/hp2ps.exe" "$work/bin/bcryptprimitives.dll" "$in/misc/leakmap-hc.eventlog" "$WINEPREFIX/drive_c/hp2ps/"
mv "$WINEPREFIX/dosdevices/z:" "$work/z-drive"
status=0
wine 'C:\hp2ps\hp2ps.exe' --summary 'C:\hp2ps\leakmap-hc.eventlog' >"$work/no-z.stdout" 2>"$work/no-z.stderr" || status=$?
mv "$work/z-drive" "$WINEPREFIX/dosdevices/z:"
date_w=$(sed -n 's/^  date *//p' "$work/no-z.stdout")
date_l=$(TZ=UTC0 "$linux" --summary "$in/misc/leakmap-hc.eventlog" | sed -n 's/^  date *//p')
if ((status == 0)) && [[ -n $date_w && $date_w == "$date_l" ]] &&
    grep -q 'DATE is in UTC: the local time zone is unreadable' "$work/no-z.stderr"; then
    printf 'as README  %-22s DATE %s (UTC, warned), as Linux with TZ=UTC0\n' no-unix-drive "$date_w"
else
    printf 'DIFFERENT  %-22s exit %s, DATE %s (Linux, UTC: %s): %s\n' no-unix-drive "$status" \
        "$date_w" "$date_l" "$(grep hp2ps "$work/no-z.stderr" | head -2)"
    failed+=(no-unix-drive)
fi

files=$(find "$work/windows" -type f ! -name '.std*' ! -name .status | wc -l)
# (file-mode-p starts as a copy of file-mode: its files count once.)
files=$((files - $(find "$work/windows/file-mode" -type f ! -name '.*' | wc -l)))
log "$cases cases, $files files written by the Windows build, $(($(date +%s) - started)) s under Wine and Linux"
if ((${#wine_crashes[@]})); then
    log "windows-wine: wine itself crashed (SIGSEGV) in ${#wine_crashes[@]} case(s), each run again once: ${wine_crashes[*]}"
fi
if ((${#failed[@]} > 0)); then
    log "windows-wine: ${#failed[@]} of $cases cases differ: ${failed[*]} (outputs in $work)"
    exit 1
fi
echo "windows-wine: $cases cases, $files files: the Windows build wrote the same bytes as the Linux build"
