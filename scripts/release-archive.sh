#!/usr/bin/env bash
# Builds the release archive of hp2ps for one target, with its checksum, and checks it.
#
# usage: scripts/release-archive.sh [--out DIR] TARGET
#   TARGET   a Rust target triple: x86_64-unknown-linux-gnu, x86_64-pc-windows-gnu, ...
#   --out    where the archive goes (default: target/dist)
#
# It writes DIR/hp2ps-VERSION-TARGET.tar.gz (.zip for a Windows target) and beside it
# DIR/hp2ps-VERSION-TARGET.tar.gz.sha256 (sha256sum's format), holding one folder of
# the same name:
#
#   hp2ps-VERSION-TARGET/
#     hp2ps (hp2ps.exe)   the release build (stripped: Cargo.toml's profile.release)
#     README.md CHANGELOG.md LICENSE LICENSE-MIT LICENSE-APACHE
#     doc/hp2ps.1         the man page
#     complete/hp2ps.bash complete/_hp2ps complete/hp2ps.fish complete/_hp2ps.ps1
#                         bash, zsh, fish and PowerShell completions
#
# the layout `cargo binstall` reads (Cargo.toml's [package.metadata.binstall]) and the one
# ripgrep and most Rust tools ship. The man page and completions come from the program
# itself (`hp2ps --generate`), run from the host's build of the same source (they do not
# depend on the target). For the host's own archive that build is the binary shipped.
#
# The archive is reproducible: files sorted, owner 0, every time the last commit's
# (SOURCE_DATE_EPOCH if set), gzip without a name or time.
#
# Then it checks the archive: the list of its files (printed), the checksum, and, for a
# target this machine runs, the binary inside (--version, the man page, a render of the
# README's sample profile byte-identical to the build's own). The Windows binary is
# run under Wine by scripts/windows-wine.sh.
#
# environment:
#   CARGO_TARGET_DIR   as for cargo (default: target)
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$root/target/dist
target=""
while (($# > 0)); do
    case "$1" in
    --out)
        out=${2:?--out needs a directory}
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
    *) target=$1 ;;
    esac
    shift
done
[[ -n $target ]] || {
    usage >&2
    exit 2
}
log() { printf 'release-archive: %s\n' "$*" >&2; }
die() {
    log "$*"
    exit 1
}

cd "$root"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[[ -n $version ]] || die "no version in Cargo.toml"
name=hp2ps-$version-$target
host=$(rustc -vV | sed -n 's/^host: //p')
case $target in
*windows*) exe=hp2ps.exe kind=zip ;;
*) exe=hp2ps kind=tar.gz ;;
esac
target_dir=${CARGO_TARGET_DIR:-target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The host's build is cargo's plain release build (target/release), which the man page
# and completions of every target come from.
log "building $name"
cargo build --release --locked --quiet
generator=$target_dir/release/hp2ps
if [[ $target == "$host" ]]; then
    binary=$generator
else
    cargo build --release --locked --quiet --target "$target"
    binary=$target_dir/$target/release/$exe
fi
[[ -f $binary ]] || die "no binary at $binary"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dir=$stage/$name
mkdir -p "$dir/doc" "$dir/complete"
cp "$binary" "$dir/$exe"
cp README.md CHANGELOG.md LICENSE LICENSE-MIT LICENSE-APACHE "$dir/"
"$generator" --generate man "$dir/doc"
for shell in bash zsh fish powershell; do
    "$generator" --generate "$shell" "$dir/complete"
done

epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
find "$dir" -exec touch -h -d "@$epoch" {} +
chmod -R u=rwX,go=rX "$dir"
chmod 755 "$dir/$exe"
archive=$out/$name.$kind
rm -f "$archive" "$archive.sha256"
if [[ $kind == zip ]]; then
    (cd "$stage" && find "$name" -print | LC_ALL=C sort | TZ=UTC zip -X -q -@ "$archive")
else
    tar -C "$stage" --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
        -cf - "$name" | gzip -n -9 >"$archive"
fi
(cd "$out" && sha256sum "$name.$kind" >"$name.$kind.sha256")

# --- the checks ----------------------------------------------------------------------

(cd "$out" && sha256sum --quiet -c "$name.$kind.sha256") || die "checksum does not match"
if [[ $kind == zip ]]; then
    listing=$(unzip -Z1 "$archive" | LC_ALL=C sort)
else
    listing=$(tar tzf "$archive" | LC_ALL=C sort)
fi
expected=$(printf '%s\n' "$name/" "$name/$exe" "$name/README.md" "$name/CHANGELOG.md" \
    "$name/LICENSE" "$name/LICENSE-MIT" "$name/LICENSE-APACHE" "$name/doc/" \
    "$name/doc/hp2ps.1" "$name/complete/" "$name/complete/hp2ps.bash" \
    "$name/complete/_hp2ps" "$name/complete/hp2ps.fish" "$name/complete/_hp2ps.ps1" |
    LC_ALL=C sort)
if [[ $listing != "$expected" ]]; then
    diff <(echo "$expected") <(echo "$listing") >&2 || true
    die "$archive does not hold the expected files (above: < expected, > found)"
fi
log "$archive ($(stat -c %s "$archive") bytes):"
if [[ $kind == zip ]]; then unzip -l "$archive" >&2; else tar tvzf "$archive" >&2; fi

if [[ $target == "$host" ]]; then
    check=$stage/check
    mkdir -p "$check"
    tar -C "$check" -xzf "$archive"
    inside=$check/$name/hp2ps
    size=$(stat -c %s "$inside")
    ((size <= 8 * 1024 * 1024)) || die "the binary is $size bytes, over 8 MiB"
    [[ $("$inside" --version) == "hp2ps $version "* ]] || die "$inside --version: $("$inside" --version)"
    "$inside" --generate man | cmp -s - "$check/$name/doc/hp2ps.1" || die "the man page differs from --generate man"
    sample=golden/inputs/manycc-O0-hc.hp
    "$inside" -c <"$sample" >"$check/inside.ps"
    "$generator" -c <"$sample" >"$check/built.ps"
    cmp -s "$check/inside.ps" "$check/built.ps" || die "the archived binary renders $sample differently"
    log "the binary inside ($size bytes) runs: $("$inside" --version); renders $sample as the build does"
fi
echo "$archive"
