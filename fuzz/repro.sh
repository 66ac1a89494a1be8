#!/bin/sh
# Replay inputs on a fuzz target with full reports (doc/fuzzing.md):
#   sh fuzz/repro.sh case|fclib FILE...
# from the repository root. Each FILE is run on its own, from a private directory (libFuzzer
# checks leaks only for inputs it runs from a corpus directory), with fcsim's error line printed
# (FCSIM_FUZZ_VERBOSE=1) and full allocation stacks (fast_unwind_on_malloc=0: PETSc and Open MPI
# are built without frame pointers). Exit status 1 when any input fails.
set -u
B=${FUZZ_BUILD:-build-fuzz}
[ $# -ge 2 ] || { echo "usage: sh fuzz/repro.sh case|fclib FILE..." >&2; exit 2; }
t=$1
shift
[ -x "$B/fuzz_$t" ] || { echo "repro: $B/fuzz_$t is missing: make -f fuzz/Makefile build" >&2; exit 2; }
tmp=$(mktemp -d /dev/shm/fcsim-repro.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
export FCSIM_FUZZ_TMPDIR="$tmp" FCSIM_FUZZ_MESHES="$PWD/meshes" FCSIM_FUZZ_VERBOSE=1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
status=0
for f in "$@"; do
  rm -rf "$tmp/in" "$tmp/out"
  mkdir -p "$tmp/in" "$tmp/out"
  cp "$f" "$tmp/in/"
  echo "== $t $f"
  # -runs=0: execute the corpus (the one input) once, without mutating it
  "$B/fuzz_$t" -runs=0 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$tmp/out/" "$tmp/in" 2>&1 |
    grep -v '^INFO: \|^MS: \|^artifact_prefix\|^Base64\|^base unit\|^0x' || true
  [ -z "$(ls "$tmp/out")" ] || status=1
done
exit $status
