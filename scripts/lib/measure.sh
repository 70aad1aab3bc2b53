# What the measuring scripts (compare-hp2ps.sh, compare-eventlog.sh, measure-html.sh)
# share: their work directory, progress lines, medians and the generated profiles.
# Sourced after a script has read its options; it sets `root` (the repository) and
# `work` (an absolute path: $WORK, made if missing, or a new mktemp -d).

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)

log() { printf '%s\n' "$*" >&2; }

# median NUMBER...: the middle one (the upper of the two middle ones of an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# generator: sets `gen` to examples/gen_profile.rs compiled into $work, compiling it
# when missing or older than its source. It only needs std, so it is compiled on its
# own with rustc: a library that does not build at the moment cannot hold up the data.
generator() {
    gen=$work/gen_profile
    local src=$root/examples/gen_profile.rs
    if [[ ! -x $gen || $src -nt $gen ]]; then
        log "building the generator"
        rustc --edition 2021 -C opt-level=3 -o "$gen" "$src"
    fi
}

# generated NAME ARGS...: $work/NAME from the generator (see `generator`) with ARGS,
# unless it is there already; through a temporary name, so an interrupted run is not
# reused.
generated() {
    local name=$1
    shift
    if [[ ! -s $work/$name ]]; then
        log "generating $name ($*)"
        "$gen" "$@" >"$work/$name.tmp"
        mv "$work/$name.tmp" "$work/$name"
    fi
}
