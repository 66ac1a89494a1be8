#!/usr/bin/python3
"""courtecuisse Fig. 5 (issue 27 item 5): the time of one factorization of A and the resulting delay
in steps of the `lagged` compliance against mesh size, on a cube of n^3 nodes (n = 8, 10, 12, 14:
512, 1000, 1728, 2744 nodes; a transfinite mesh of the unit cube, 6 tetrahedra per cell), neo-Hookean
(E = 1 MPa, nu = 0.3), fixed at z = 0 and pressed 5 % by a rigid plate on its whole top face
(frictionless, 4 quasi-static steps).

Per size, `lagged` with `async`, `w_cache` and no refresh after the first (refresh 1000): the first
factorization is CHOLMOD's, made in the main thread by the function the refresh thread runs (its
wall time is stats.csv refresh_time of step 1); the later steps use it and do everything else a
lagged step does (Newton with preconditioned CG, W = H P^-1 H^T, the correction), so their
step_time is "the rest". delay = ceil(factor time / step time of the rest): the number of steps a
refresh started in another thread takes to be ready (compliance.delay). Each size is run --repeat
times and the least of each time taken (the machine is shared; the least is the one least
disturbed). `exact`'s step time is printed for comparison. Never asserted (timings).

    bench/lagged_fig5.py [--nodes 8,10,12,14] [--repeat 3]
"""
import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")


def geo(tmp, n):
    """meshes/cube.geo with every curve, surface and the volume transfinite: n nodes per edge"""
    src = open(os.path.join(ROOT, "meshes", "cube.geo")).read()
    tf = "Transfinite Curve{:} = %d;\nTransfinite Surface{:};\nTransfinite Volume{:};\n" % n
    i = src.index('Physical Surface("xmin"')
    path = os.path.join(tmp, "cube_n%d.geo" % n)
    open(path, "w").write(src[:i] + tf + src[i:])
    return path


def case(tmp, n):
    c = {"name": "fig5_cube_n%d" % n,
         "time": {"integrator": "quasi_static", "dt": 0.25, "steps": 4},
         "bodies": [{"name": "cube", "mesh": {"file": geo(tmp, n)},
                     "material": {"model": "neohookean", "E": 1e6, "nu": 0.3, "density": 1000},
                     "boundary": [{"group": "zmin", "fix": [True, True, True]}]},
                    {"name": "plate", "type": "rigid", "shape": {"type": "plane", "point": [0, 0, 1.0], "normal": [0, 0, -1]},
                     "motion": {"type": "kinematic", "displacement": [0, 0, -0.05], "ramp": "linear"}}],
         "contacts": [{"pair": ["cube", "plate"], "surface": "zmax", "mu": 0}],
         "probes": [{"name": "f", "type": "contact_force", "pair": 0, "component": "z"}],
         "output": {"vtk": False, "hdf5": False}}
    path = os.path.join(tmp, "cube_n%d.json" % n)
    json.dump(c, open(path, "w"), indent=1)
    return path


def run(path, out, sets):
    cmd = [FCSIM, "run", path, "-o", out, "-q"] + sum((["--set", s] for s in sets), [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("lagged_fig5: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return list(csv.DictReader(open(os.path.join(out, "stats.csv"))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", default="8,10,12,14", help="nodes per cube edge")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="fcsim-fig5-")
    try:
        print("| nodes | CHOLMOD factorization (s) | lagged step, the rest (s) | delay (steps) | Krylov it./step | exact step (s) |")
        print("|---|---|---|---|---|---|")
        for n in [int(x) for x in a.nodes.split(",")]:
            path = case(tmp, n)
            fac, rest, ex, kit = [], [], [], []
            for r in range(a.repeat):
                st = run(path, os.path.join(tmp, "l%d_%d" % (n, r)),
                         ["compliance.type=\"lagged\"", "compliance.async=true", "compliance.refresh=1000", "compliance.w_cache=true"])
                fac.append(float(st[0]["refresh_time"]))
                rest.append(sorted(float(s["step_time"]) for s in st[1:])[(len(st) - 1) // 2])
                kit.append(sum(int(float(s["krylov_it"])) for s in st[1:]) / (len(st) - 1))
                se = run(path, os.path.join(tmp, "e%d_%d" % (n, r)), ["compliance.type=\"exact\""])
                ex.append(sorted(float(s["step_time"]) for s in se)[len(se) // 2])
            print("| %d | %.4f | %.4f | %d | %.0f | %.4f |" % (n ** 3, min(fac), min(rest), max(1, math.ceil(min(fac) / min(rest))), kit[0], min(ex)), flush=True)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
