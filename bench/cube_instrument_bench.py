#!/usr/bin/python3
"""make bench: courtecuisse Fig. 4's cube (cases/cube_instrument.json, issue 27's benchmark): time per
step of compliance `lagged` (async on and off) against `exact` and `schur`, at two mesh sizes, in
one run, with the force's error against exact; and the 1 kHz haptic tick on the lagged W.

Per mesh size (refine levels of meshes/cube_hinge.geo: 1 is 384-ish tetrahedra, 2 is 2540) and
variant, one fcsim run of the frictionless case (one at a time, so that the timings compare; the
haptic loop on: it runs after the step and is not in stats.csv's step_time):
  exact; schur; lagged sync (refresh every 3 steps, made in the step's thread); lagged async
  (refresh every 3 steps, CHOLMOD in a thread, taken 3 steps after its request: the paper's delay).
Prints per variant the mean step_time, its ratio to exact's (the goal of the issue: lagged async
>= 3x faster than exact, the paper's 3-5x), the cost split (factorization, W, Krylov iterations,
correction, refresh time) and the contact force's error (max |F - F_exact| over exact's peak), and
for the haptic ticks (run.h5:/haptic/wall_time: shift of q, solve, force) the median, the 99th
percentile and the fraction within 1 ms. Timings on a shared machine vary: figures, never assertions.

    /usr/bin/python3 bench/cube_instrument_bench.py [--refines 1,2] [--t-end 3] [--repeat N] [--variants exact,"lagged async"]

--repeat N runs the variants N times in turn (exact, schur, ..., exact, schur, ...) and prints, per
variant, the median step time and the median of its ratios to exact's run of the same round: on a
machine shared with other jobs, the pairs see the same load (doc/architecture.md quotes them).
"""
import argparse
import csv
import math
import os
import shutil
import statistics
import subprocess
import tempfile

import h5py
import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")
CASE = os.path.join(ROOT, "cases", "cube_instrument.json")
VARIANTS = [
    ("exact", ["compliance.type=exact"]),
    ("schur", ["compliance.type=schur"]),
    ("lagged sync", ["compliance.type=lagged", "compliance.refresh=3"]),
    ("lagged async", ["compliance.type=lagged", "compliance.refresh=3", "compliance.async=true", "compliance.delay=3"]),
]


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(ln for ln in f if not ln.startswith("#")))


def one(tmp, refine, t_end, name, sets):
    out = os.path.join(tmp, "r%d_%s" % (refine, name.replace(" ", "_")))
    cmd = [FCSIM, "run", CASE, "-q", "-o", out, "--set", "bodies[0].mesh.refine=%d" % refine, "--set", "time.t_end=%r" % t_end,
           "--set", "haptic.rate=1000", "--set", "output.hdf5=true"]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        print("BENCH cube_instrument refine %d %s: failed (%d) %s" % (refine, name, p.returncode, p.stderr.strip().splitlines()[-1:]))
        return None
    st = rows(os.path.join(out, "stats.csv"))
    f = [[float(r["contact_" + c]) for c in "xyz"] for r in rows(os.path.join(out, "probes.csv"))]
    with h5py.File(os.path.join(out, "run.h5"), "r") as h:
        ticks = np.array(h["/haptic/wall_time"][:])
        contacts = np.array(h["/haptic/contacts"][:])
    return st, f, ticks, contacts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--refines", default="1,2")
    ap.add_argument("--t-end", type=float, default=3.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--variants", default=",".join(n for n, _ in VARIANTS))
    a = ap.parse_args()
    want = a.variants.split(",")
    variants = [v for v in VARIANTS if v[0] in want]
    tmp = tempfile.mkdtemp(prefix="fcsim-cube-instrument-bench-")
    try:
        for refine in [int(x) for x in a.refines.split(",")]:
            steps = {name: [] for name, _ in variants}
            for rep in range(a.repeat):
                ref = None
                for name, sets in variants:
                    res = one(tmp, refine, a.t_end, name, sets)
                    if res is None:
                        continue
                    st, f, ticks, contacts = res
                    step = sum(float(r["step_time"]) for r in st) / len(st)
                    if ref is None:
                        ref = (f, step)
                    steps[name].append((step, ref[1]))
                    peak = max(math.sqrt(sum(v * v for v in x)) for x in ref[0])
                    err = max(math.sqrt(sum((u - v) ** 2 for u, v in zip(x, y))) for x, y in zip(f, ref[0])) / peak
                    tot = lambda k: sum(float(r[k]) for r in st)
                    print("BENCH cube_instrument refine %d %-12s step %.4f s (exact's / this: %.2fx), Newton %d, Krylov %d, factor %.2f s, W %.2f s, correction %.2f s, refresh %.2f s, force vs exact %.1e"
                          % (refine, name, step, ref[1] / step, tot("newton_it"), tot("krylov_it"), tot("factor_time"), tot("w_time"), tot("correction_time"),
                             tot("refresh_time"), err))
                    if name == "lagged async" and len(ticks):
                        print("BENCH cube_instrument refine %d haptic tick on the lagged W: %d ticks, contacts up to %d, median %.1f us, p99 %.1f us, within 1 ms %.2f %%"
                              % (refine, len(ticks), int(contacts.max()), 1e6 * np.median(ticks), 1e6 * np.percentile(ticks, 99), 100.0 * np.mean(ticks <= 1e-3)))
            if a.repeat > 1:
                for name, v in steps.items():
                    if v:
                        print("BENCH cube_instrument refine %d %-12s %d runs in turn: median step %.4f s, median ratio exact's / this %.2f (pairs %s)"
                              % (refine, name, len(v), statistics.median(x for x, _ in v), statistics.median(e / x for x, e in v),
                                 ", ".join("%.2f" % (e / x) for x, e in v)))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
