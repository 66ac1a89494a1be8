#!/bin/sh
# fcsim test runner (make check): every unit test (build/tests/test_*) and every integration
# test (tests/integration/test_*.py), each with its log in tests/out/<name>.log. A test prints
# its figures (lines with "FIGURE"), which are shown here. Ends with "N passed, N failed".
#
# The tests are independent processes (each writes under its own tests/out/<name>/), so they
# run FC_TEST_JOBS at a time (default: the number of processors); results are reported in the
# order of the list, the longest tests first so that the slots stay filled.
set -u
cd "$(dirname "$0")/.."

# name and command of every test, one per line: "name|command"; unit tests, then integration
# (from the sources, not from build/tests, which may hold a renamed test's old binary; a unit
# test and an integration test of one name would share a log and a status: refused below)
unit_list() {
  for s in tests/unit/test_*.c; do
    t=build/tests/$(basename "$s" .c)
    [ -x "$t" ] && echo "$(basename "$t")|$t"
  done
}
integration_list() {
  # the slowest first (durations of make check on main 8835879, those of 30 s or more, loaded), then
  # the rest in name order
  slow="test_mpi test_cylinder_hertz test_data_safety test_hostile_input test_haptic_probe test_study_compare test_cylinder_press test_output_safety test_mesh_safety test_table_corot test_table test_mesh_sandbox test_startup test_solver_honesty test_compliance_lagged test_hertz test_bad_input test_rigid_free test_cantilever test_arch_verdict test_trajectory test_fclib_conventions test_haptic test_theta test_corrupt_hdf5 test_contact_cases test_convergence_claims test_fclib_roundtrip test_study_refine test_cli"
  for n in $slow; do
    [ -f "tests/integration/$n.py" ] && echo "$n|/usr/bin/python3 tests/integration/$n.py"
  done
  for t in tests/integration/test_*.py; do
    n=$(basename "$t" .py)
    case " $slow " in *" $n "*) continue ;; esac
    echo "$n|/usr/bin/python3 $t"
  done
}

run_one() {
  name=${1%%|*}
  cmd=${1#*|}
  t0=$(date +%s)
  # shellcheck disable=SC2086
  if $cmd > "tests/out/$name.log" 2>&1; then st=PASS; else st=FAIL; fi
  t1=$(date +%s)
  echo "$st $((t1 - t0))" > "tests/out/.status/$name"
}

# `run.sh --one "name|command"`: one test (what xargs starts below)
if [ "${1:-}" = --one ]; then
  run_one "$2"
  exit 0
fi

mkdir -p tests/out/.status
rm -f tests/out/.status/*
# No MPI settings here: fcsim and the unit tests prepare Open MPI's start-up themselves
# (src/core/mpienv.c), and the tests must see what a user's plain shell gets.
jobs=${FC_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
start=$(date +%s)

report() {
  name=$1
  set -- $(cat "tests/out/.status/$name")
  echo "$1 $name (${2}s)"
  grep -h "FIGURE" "tests/out/$name.log" | sed 's/^/    /'
  if [ "$1" = FAIL ]; then
    echo "    --- last lines of tests/out/$name.log:"
    tail -n 25 "tests/out/$name.log" | sed 's/^/    | /'
  fi
}

# Every test is its own process: `jobs` at a time from one queue (xargs keeps every slot busy),
# the five slowest integration tests first, then the unit tests (test_fclib takes ~20 s), then
# the rest (longest first keeps both slots busy to the end).
# Reported in the order unit tests, integration tests.
unit_list > tests/out/.status/list
integration_list > tests/out/.status/ilist
{
  head -n 5 tests/out/.status/ilist
  cat tests/out/.status/list
  tail -n +6 tests/out/.status/ilist
} > tests/out/.status/queue
dup=$(cut -d'|' -f1 tests/out/.status/queue | sort | uniq -d)
if [ -n "$dup" ]; then
  echo "tests/run.sh: two tests named $(echo $dup) (a unit and an integration test?): they would share tests/out/<name>.log; rename one" >&2
  exit 2
fi
xargs -d '\n' -P "$jobs" -n 1 sh tests/run.sh --one < tests/out/.status/queue
cat tests/out/.status/ilist >> tests/out/.status/list

pass=0
fail=0
failed=""
while IFS= read -r line; do
  name=${line%%|*}
  report "$name"
  if [ "$(cut -d' ' -f1 "tests/out/.status/$name")" = PASS ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failed="$failed $name"
  fi
done < tests/out/.status/list
end=$(date +%s)
echo "make check: $((end - start))s ($jobs at a time)"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
