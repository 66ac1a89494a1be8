#!/bin/sh
# Run fcsim's libFuzzer targets one after the other (fuzz/Makefile; doc/fuzzing.md):
#   sh fuzz/run.sh case fclib
# from the repository root, after `make -f fuzz/Makefile build`. Per target, for FUZZ_SECONDS
# (default 600) on one core (FUZZ_NICE, default 10): the corpus is build-fuzz/corpus/TARGET
# (the seeds of fuzz/corpus/TARGET are copied there first; new entries go there, never into
# fuzz/), findings go to build-fuzz/artifacts/TARGET/, the log to build-fuzz/logs/TARGET-DATE.log
# and the findings' full reports (fuzz/repro.sh) to build-fuzz/logs/TARGET-DATE-findings.log
# (TARGET.log and TARGET-findings.log link to the latest).
# Exit status 1 when this run saved a finding (crash, leak, timeout, out-of-memory).
set -eu
B=${FUZZ_BUILD:-build-fuzz}
SECONDS_PER_TARGET=${FUZZ_SECONDS:-600}
NICE=${FUZZ_NICE:-10}
FORK=${FUZZ_FORK:-1}
[ $# -gt 0 ] || set -- case fclib

tmp=$(mktemp -d /dev/shm/fcsim-fuzz.XXXXXX 2>/dev/null || mktemp -d)
stamp="$tmp/stamp"
touch "$stamp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# The targets set leak_check_at_exit=0 and their LeakSanitizer suppressions themselves
# (fuzz/fuzz_common.h): libFuzzer checks leaks after every input that allocated more than it freed.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
export FCSIM_FUZZ_TMPDIR="$tmp"
export FCSIM_FUZZ_MESHES="$PWD/meshes"
export OMPI_MCA_btl="${OMPI_MCA_btl:-self}" # one process: no shared-memory or network transports

status=0
for t in "$@"; do
  case $t in
    case)  max_len=16384 ;; # the shipped cases are under 4 KB
    fclib) max_len=16384 ;; # the binary seeds are under 13 KB
    *) echo "fuzz: unknown target '$t' (case, fclib)" >&2; exit 2 ;;
  esac
  [ -x "$B/fuzz_$t" ] || { echo "fuzz: $B/fuzz_$t is missing: make -f fuzz/Makefile build" >&2; exit 2; }
  corpus="$B/corpus/$t"
  art="$B/artifacts/$t"
  log="$B/logs/$t-$(date +%Y%m%d-%H%M%S).log" # TARGET.log: a link to the latest
  mkdir -p "$corpus" "$art" "$B/logs"
  cp -n fuzz/corpus/"$t"/* "$corpus"/
  set -- -max_total_time="$SECONDS_PER_TARGET" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -dict="fuzz/$t.dict" -artifact_prefix="$art/" -print_final_stats=1 -reload=0
  # -fork=1: one worker process, restarted after a finding, which is saved and skipped
  [ "$FORK" = 0 ] || set -- "$@" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
  echo "fuzz: $t for ${SECONDS_PER_TARGET} s (corpus $corpus, findings $art/, log $log)"
  ln -sfn "$(basename "$log")" "$B/logs/$t.log"
  rc=0
  nice -n "$NICE" "$B/fuzz_$t" "$@" "$corpus" >"$log" 2>&1 || rc=$?
  grep -E '^#[0-9]+: cov:|^#[0-9]+.*(DONE|pulse)|^stat::|^Done|^INFO: fuzzing|^INFO: exiting' "$log" | tail -n 8 || true
  new=$(find "$art" -type f -newer "$stamp" | sort)
  if [ -n "$new" ]; then
    echo "fuzz: $t: findings saved (full reports: ${log%.log}-findings.log):"
    echo "$new" | sed 's/^/  /'
    # fork mode logs only the first line of each report: replay them for the stacks
    # shellcheck disable=SC2086
    FUZZ_BUILD="$B" nice -n "$NICE" sh fuzz/repro.sh "$t" $new >"${log%.log}-findings.log" 2>&1 || true
    ln -sfn "$(basename "${log%.log}-findings.log")" "$B/logs/$t-findings.log"
    status=1
  elif [ "$rc" != 0 ]; then
    echo "fuzz: $t: the fuzzer exited with status $rc (see $log)"
    status=1
  else
    echo "fuzz: $t: no finding"
  fi
done
exit $status
