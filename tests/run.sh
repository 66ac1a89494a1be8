#!/bin/sh
# fcsim test runner (make check): every unit test (build/tests/test_*) and every integration
# test (tests/integration/test_*.py), each with its log in tests/out/<name>.log. A test prints
# its figures (lines with "FIGURE"), which are shown here. Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
mkdir -p tests/out
pass=0
fail=0
failed=""
start=$(date +%s)
run_one() {
  name=$1
  shift
  t0=$(date +%s)
  if "$@" > "tests/out/$name.log" 2>&1; then
    st=PASS
    pass=$((pass + 1))
  else
    st=FAIL
    fail=$((fail + 1))
    failed="$failed $name"
  fi
  t1=$(date +%s)
  echo "$st $name ($((t1 - t0))s)"
  grep -h "FIGURE" "tests/out/$name.log" | sed 's/^/    /'
  if [ "$st" = FAIL ]; then
    echo "    --- last lines of tests/out/$name.log:"
    tail -n 25 "tests/out/$name.log" | sed 's/^/    | /'
  fi
}
for t in build/tests/test_*; do
  [ -x "$t" ] || continue
  run_one "$(basename "$t")" "$t"
done
for t in tests/integration/test_*.py; do
  [ -f "$t" ] || continue
  run_one "$(basename "$t" .py)" /usr/bin/python3 "$t"
done
end=$(date +%s)
echo "make check: $((end - start))s"
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
