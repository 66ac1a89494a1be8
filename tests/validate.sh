#!/bin/sh
# make validate: the long validation runs (finer meshes than make check), same runner.
set -u
cd "$(dirname "$0")/.."
mkdir -p tests/out
export FCSIM_VALIDATE=1
fail=0
for t in tests/integration/test_hertz.py tests/integration/validate_cylinder_study.py; do
  name=$(basename "$t" .py)
  if /usr/bin/python3 "$t" > "tests/out/validate_$name.log" 2>&1; then echo "PASS $name"; else echo "FAIL $name"; fail=$((fail + 1)); fi
  grep -h FIGURE "tests/out/validate_$name.log" | sed 's/^/    /'
done
[ "$fail" -eq 0 ]
