#!/usr/bin/python3
"""Compliance "lagged" (courtecuisse §IV, issue 27) against "exact" and "schur": wall time per step
and the contact force's distance to exact's, on the neo-Hookean two-block press of
tests/integration/test_compliance_lagged.py (15 % press in 8 steps, single-pass frictionless) at two
sizes of the base cube (refine 1 and 2). lagged: refresh every 4 steps, shape matching, synchronous
and async (delay 2), each also with compliance.w_cache (W from columns of F^-1 kept between refreshes). Ratios of one run, never asserted (make bench).

    bench/lagged_step.py [--refines 1,2]
"""
import argparse
import csv
import json
import os
import subprocess
import tempfile
import shutil
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")
VARIANTS = [
    ("exact", ["compliance.type=exact"]),
    ("schur", ["compliance.type=schur"]),
    ("lagged sync", ["compliance.type=lagged", "compliance.refresh=4"]),
    ("lagged async", ["compliance.type=lagged", "compliance.refresh=4", "compliance.async=true", "compliance.delay=2"]),
    ("lagged sync w_cache", ["compliance.type=lagged", "compliance.refresh=4", "compliance.w_cache=true"]),
    ("lagged async w_cache", ["compliance.type=lagged", "compliance.refresh=4", "compliance.async=true", "compliance.delay=2", "compliance.w_cache=true"]),
]


def case(tmp, refine):
    c = json.load(open(os.path.join(ROOT, "cases", "two_blocks.json")))
    for b in c["bodies"]:
        b["mesh"]["file"] = os.path.join(ROOT, "meshes", os.path.basename(b["mesh"]["file"]))
        b["material"] = {"model": "neohookean", "E": 1e7, "nu": 0.3, "density": 1000}
    c["bodies"][1]["mesh"]["refine"] = refine
    c["bodies"][0]["boundary"][0]["displacement"] = [None, None, -0.15]
    c["time"] = {"integrator": "quasi_static", "dt": 0.125, "steps": 8}
    c["contacts"][0]["both_passes"] = False
    c["output"] = {"vtk": False, "hdf5": False}
    path = os.path.join(tmp, "press_r%d.json" % refine)
    json.dump(c, open(path, "w"), indent=1)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--refines", default="1,2")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fcsim-lagged-bench-")
    try:
        for refine in [int(x) for x in a.refines.split(",")]:
            path = case(tmp, refine)
            ref = None
            for name, sets in VARIANTS:
                out = os.path.join(tmp, "r%d_%s" % (refine, name.replace(" ", "_")))
                cmd = [FCSIM, "run", path, "-o", out, "-q"] + sum((["--set", s] for s in sets), [])
                t0 = time.time()
                p = subprocess.run(cmd, capture_output=True, text=True)
                wall = time.time() - t0
                if p.returncode != 0:
                    print("BENCH lagged refine %d %s: failed (%d) %s" % (refine, name, p.returncode, p.stderr.strip()))
                    continue
                st = list(csv.DictReader(open(os.path.join(out, "stats.csv"))))
                pr = list(csv.DictReader(open(os.path.join(out, "probes.csv"))))
                fz = [float(r["contact_z"]) for r in pr]
                if ref is None:
                    ref = (fz, wall)
                err = max(abs(x - y) for x, y in zip(fz, ref[0])) / max(abs(v) for v in ref[0])
                steps = sum(float(r["step_time"]) for r in st) / len(st)
                print("BENCH lagged refine %d %-20s step %.3f s (%.2fx exact's run), Newton %d, Krylov %d, refresh %.3f s, W %.3f s, correction %.3f s, contact force vs exact %.1e"
                      % (refine, name, steps, wall / ref[1], sum(int(r["newton_it"]) for r in st), sum(int(float(r["krylov_it"])) for r in st),
                         sum(float(r["refresh_time"]) for r in st), sum(float(r["w_time"]) for r in st), sum(float(r["correction_time"]) for r in st), err))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
