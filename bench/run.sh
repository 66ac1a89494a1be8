#!/bin/sh
# make bench: performance figures as ratios measured in one run (never timed assertions).
set -eu
cd "$(dirname "$0")/.."
mkdir -p bench/out
/usr/bin/python3 bench/step_breakdown.py
/usr/bin/python3 bench/contact_breakdown.py
