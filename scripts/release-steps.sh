#!/usr/bin/env bash
# The release checks that CI runs after the tests (.ci/run), each timed:
#
#  1. the release archives for Linux and Windows (scripts/release-archive.sh: the files
#     listed and checked, the checksum, the Linux binary inside run);
#  2. the Windows binary of its archive run under Wine against the Linux binary of its
#     archive (scripts/windows-wine.sh);
#  3. the crate: `cargo package` (at most 6 MB, the left-out data not in it) and
#     `cargo publish --dry-run`;
#  4. `cargo install` from the packaged crate and `cargo install --path .`, each into a
#     temporary root, and the installed hp2ps run (--version, the man page and a
#     completion, a render byte-identical to the release build's);
#  5. two suites of the packaged crate, which lacks the large test data: they pass, and
#     the tests that need the data say SKIPPED.
#
# usage: scripts/release-steps.sh
#
# Under CI (CI=true) the git tree must be clean for `cargo publish --dry-run`; elsewhere
# --allow-dirty is passed, so that the steps can be tried before committing.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
dirty=()
[[ ${CI:-} == true ]] || dirty=(--allow-dirty)
started=$(date +%s)
step_start=$started
step() {
    local now
    now=$(date +%s)
    if ((now > started)); then printf '   (%d s)\n' $((now - step_start)); fi
    step_start=$now
    printf '\n== release: %s\n' "$*"
}
fail() {
    printf 'release: %s\n' "$*" >&2
    exit 1
}

step "the release archives"
dist=$CARGO_TARGET_DIR/dist
linux_archive=$(bash scripts/release-archive.sh --out "$dist" x86_64-unknown-linux-gnu)
windows_archive=$(bash scripts/release-archive.sh --out "$dist" x86_64-pc-windows-gnu)
ls -l "$linux_archive"* "$windows_archive"*

step "the Windows binary of its archive under Wine, against the Linux one"
mkdir -p "$work/archives"
tar -C "$work/archives" -xzf "$linux_archive"
unzip -q -d "$work/archives" "$windows_archive"
HP2PS_LINUX=$work/archives/hp2ps-$version-x86_64-unknown-linux-gnu/hp2ps \
    HP2PS_WINDOWS=$work/archives/hp2ps-$version-x86_64-pc-windows-gnu/hp2ps.exe \
    WORK=$work/wine bash scripts/windows-wine.sh

step "the crate: cargo package and cargo publish --dry-run"
cargo package --locked "${dirty[@]}"
crate=$CARGO_TARGET_DIR/package/hp2ps-$version.crate
size=$(stat -c %s "$crate")
echo "$crate: $size bytes, $(tar tzf "$crate" | wc -l) files"
# 5 MB until the time profile's test data (issue 34: 174 reports and their runs' logs in
# tests/data/prof, 0.7 MB compressed) took the crate to 5.3 MB; crates.io takes 10.
((size <= 6000000)) || fail "the crate is $size bytes, over 6 MB"
listing=$(tar tzf "$crate")
for left_out in tests/data/large/ tests/data/ghc-9.10/bin/ docs/images/ docs/review/ scripts/ fuzz/; do
    if grep -q "^hp2ps-$version/$left_out" <<<"$listing"; then
        fail "the crate holds $left_out"
    fi
done
for kept in Cargo.toml Cargo.lock README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE src/lib.rs \
    docs/library.md tests/golden.rs golden/inputs/manycc-O0-hc.hp; do
    grep -qx "hp2ps-$version/$kept" <<<"$listing" || fail "the crate lacks $kept"
done
cargo publish --dry-run --locked "${dirty[@]}"

step "cargo install from the packaged crate, and from the clone"
mkdir -p "$work/crate"
tar -C "$work/crate" -xzf "$crate"
# The crate's files carry one old time, and cargo names a path package's build by its
# path relative to its workspace, so the clone's build would look up to date for them
# and be reused: new times make cargo compile the packaged sources.
find "$work/crate" -exec touch {} +
cargo install --locked --quiet --path "$work/crate/hp2ps-$version" --root "$work/from-crate"
cargo install --locked --quiet --path . --root "$work/from-clone"
sample=golden/inputs/manycc-O0-hc.hp
"$CARGO_TARGET_DIR/release/hp2ps" -c <"$sample" >"$work/built.ps"
for root_dir in "$work/from-crate" "$work/from-clone"; do
    installed=$root_dir/bin/hp2ps
    [[ $("$installed" --version) == "hp2ps $version "* ]] || fail "$installed --version"
    "$installed" --generate man "$work/man-$(basename "$root_dir")"
    grep -q '^\.TH hp2ps 1' "$work/man-$(basename "$root_dir")/hp2ps.1" || fail "$installed: no man page"
    "$installed" --generate bash | grep -q '^_hp2ps() {' || fail "$installed: no bash completion"
    "$installed" -c <"$sample" | cmp -s - "$work/built.ps" || fail "$installed renders $sample differently"
    echo "$installed: $("$installed" --version), $(stat -c %s "$installed") bytes: runs, man page, completions, renders"
done

step "the packaged crate's tests without the left-out data"
out=$work/package-tests.log
(cd "$work/crate/hp2ps-$version" && env -u CI cargo test --locked \
    --test decimate --test symbolize_cli 2>&1) | tee "$out" | grep -E 'SKIPPED|^test result' || true
if grep -q 'test result: FAILED' "$out" || ! grep -q 'test result' "$out"; then
    fail "the packaged crate's tests failed"
fi
skipped=$(grep -o 'SKIPPED: [a-z_]*::[a-z_0-9]*: .* is not in this copy' "$out" | cut -d' ' -f2 | sort -u | wc -l)
# decimate: 2 tests of tests/data/large; symbolize_cli: 4 tests of the -hi programs.
((skipped == 6)) || fail "expected 6 tests to skip for the left-out data, $skipped did"
step "done in $(($(date +%s) - started)) s"
