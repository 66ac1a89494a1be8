#!/usr/bin/python3
"""The quasi-rigid sweep of issue 14 item 5 (duriez2006 §6.2-6.3, Fig. 13), one command:

    /usr/bin/python3 scripts/table_rigid_sweep.py [--E 1e6,1e7,...,1e11]
        [--models plain,global_corotational] [--dt 0.05] [--steps 40] [--refine 0]
        [--case cases/table.json] [--load 50] [-o results/table_rigid_sweep]

The table with gravity + LOAD N down on the top's centre patch, run dynamically (backward Euler,
fixed dt, from rest; the floor's impulses divided by dt are the probes' forces) for each Young's
modulus E and each body kinematics (`bodies[0].kinematics`: plain FEM, or the global
corotational model of doc/case-format.md). After STEPS steps the table is at rest (backward
Euler damps every mode, by 1/sqrt(1 + (omega dt)^2) per step; dt = 0.2 s and 15 steps make that
below 1e-9 for the slowest mode that the vertical load excites), so the floor carries the load.

Per (E, model), from the last step:
- the total vertical reaction against the weight rho g V + LOAD (95.9108 N for the default
  table) and its relative error;
- the four legs' reactions (z; and the largest |x|, |y| among the legs), and the largest change
  of any leg reaction component from the first E of the same model, relative to the total: in
  linear elasticity the static distribution of the reactions does not depend on E (the
  displacements scale as 1/E, the forces do not), so this measures how physical the forces stay;
- cond(W) = lambda_max / lambda_min of the assembled Delassus operator W of the last step's
  contact problem (its FCLIB file, `output.fclib=true`; W is symmetric, eigenvalues by numpy's
  eigvalsh: the ratio of extreme eigenvalues, not a norm estimate), its smallest eigenvalue, and
  the same for the normal-normal block W_nn;
- Newton iterations, contact-solver iterations and common error of the last step, and the number
  of steps whose Newton iteration did not converge. Newton is capped at --newton-max-it (10)
  iterations per step with time.newton.allow_failure: near the rigid limit nsgs does not reach the
  case's tolerance 1e-10 in its 10000 sweeps (cond W grows as E), and each Newton iteration
  then costs 10000 sweeps; the table reports it rather than hiding it.

Writes DIR/sweep.csv (one row per E and model) and DIR/sweep.md. Exit 2 with one line on bad
arguments, 1 if a run failed.
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.path.join(ROOT, "bin", "fcsim")
MODELS = ("plain", "global_corotational")


def die(msg):
    print("table_rigid_sweep.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_w(path):
    with h5py.File(path, "r") as f:
        g = f["fclib_local/W"]
        n, pp, ii, xx = int(g["n"][0]), g["p"][()], g["i"][()], g["x"][()]
    W = np.zeros((n, n))
    for j in range(n):
        W[ii[pp[j]:pp[j + 1]], j] += xx[pp[j]:pp[j + 1]]
    return W


def cond(W):
    lam = np.linalg.eigvalsh(0.5 * (W + W.T))
    return (lam[-1] / lam[0] if lam[0] > 0 else math.inf), lam[0], lam[-1]


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return rows


def weight(case):
    """rho g V of the table from the case's dimensions (cases/table.json's description)."""
    return 1000 * 9.81 * (0.40 * 0.30 * 0.03 + 4 * 0.03 * 0.03 * 0.30)


def main():
    ap = argparse.ArgumentParser(description="the table's quasi-rigid sweep (duriez2006 Fig. 13)")
    ap.add_argument("--E", default="1e6,1e7,1e8,1e9,1e10,1e11")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--dt", type=float, default=0.2)
    ap.add_argument("--steps", type=int, default=15)
    ap.add_argument("--newton-max-it", type=int, default=10)
    ap.add_argument("--refine", type=int, default=0)
    ap.add_argument("--case", default=os.path.join(ROOT, "cases", "table.json"))
    ap.add_argument("--load", type=float, default=50.0)
    ap.add_argument("-o", default=os.path.join(ROOT, "results", "table_rigid_sweep"))
    a = ap.parse_args()
    try:
        Es = [float(e) for e in a.E.split(",")]
    except ValueError:
        die("--E: not a comma-separated list of numbers: %s" % a.E)
    if not Es or any(not (e > 0 and math.isfinite(e)) for e in Es):
        die("--E: Young's moduli must be positive and finite: %s" % a.E)
    models = a.models.split(",")
    for m in models:
        if m not in MODELS:
            die("--models: unknown model '%s' (known: %s)" % (m, ", ".join(MODELS)))
    if not (a.dt > 0 and math.isfinite(a.dt)):
        die("--dt: must be positive: %g" % a.dt)
    if a.steps < 1:
        die("--steps: must be at least 1: %d" % a.steps)
    if a.newton_max_it < 1:
        die("--newton-max-it: must be at least 1: %d" % a.newton_max_it)
    if a.refine < 0:
        die("--refine: must be >= 0: %d" % a.refine)
    if not os.path.isfile(a.case):
        die("--case: no such file: %s" % a.case)
    os.makedirs(a.o, exist_ok=True)
    total = weight(a.case) + a.load
    rows, first = [], {}
    for E in Es:
        for model in models:
            d = os.path.join(a.o, "runs", "%s_E%g" % (model, E))
            shutil.rmtree(d, ignore_errors=True)
            cmd = [FCSIM, "run", a.case, "-o", d,
                   "--set", "time.integrator=backward_euler", "--set", "time.newton.shift=0",
                   "--set", "time.dt=%.17g" % a.dt, "--set", "time.steps=%d" % a.steps,
                   "--set", "bodies[0].mesh.refine=%d" % a.refine,
                   "--set", "bodies[0].material.E=%.17g" % E,
                   "--set", "bodies[0].loads[0].force=[0,0,%.17g]" % -a.load,
                   "--set", "bodies[0].kinematics=" + model,
                   "--set", "time.newton.max_it=%d" % a.newton_max_it,
                   "--set", "time.newton.allow_failure=true",
                   "--set", "output.fclib=true"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print("table_rigid_sweep.py: run failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr),
                      file=sys.stderr)
                sys.exit(1)
            pr = read_csv(os.path.join(d, "probes.csv"))[-1]
            st = read_csv(os.path.join(d, "stats.csv"))[-1]
            legs = [[float(pr["leg%d_%s" % (i, c)]) for c in "xyz"] for i in range(1, 5)]
            finite = all(math.isfinite(v) for leg in legs for v in leg)
            rz = sum(leg[2] for leg in legs)
            W = read_w(os.path.join(d, "fclib", "step_%06d.hdf5" % a.steps))
            kW, lminW, lmaxW = cond(W)
            nn = [3 * i for i in range(W.shape[0] // 3)]
            kN, lminN, _ = cond(W[np.ix_(nn, nn)])
            flat = [v for leg in legs for v in leg]
            if model not in first:
                first[model] = flat
            drift = max(abs(u - v) for u, v in zip(flat, first[model])) / total
            rows.append({
                "E": E, "model": model, "finite": int(finite), "sum_rz": rz, "load": total,
                "rel_err": abs(rz - total) / total,
                "leg1_z": legs[0][2], "leg2_z": legs[1][2], "leg3_z": legs[2][2], "leg4_z": legs[3][2],
                "max_abs_rx": max(abs(leg[0]) for leg in legs), "max_abs_ry": max(abs(leg[1]) for leg in legs),
                "drift_vs_first_E": drift,
                "contacts": W.shape[0] // 3, "cond_W": kW, "lambda_min_W": lminW, "lambda_max_W": lmaxW,
                "cond_Wnn": kN, "lambda_min_Wnn": lminN,
                "newton_it": int(st["newton_it"]), "contact_it": int(st["contact_it"]),
                "converged": int(st["converged"]), "contact_converged": int(st["contact_converged"]),
                "contact_error": float(st["contact_error"]),
                "steps_not_converged": sum(1 for q in read_csv(os.path.join(d, "stats.csv")) if q["converged"] != "1")})
            r = rows[-1]
            print("E = %-7g %-19s sum r_z %.9f N (rel %.1e)  legs %s  drift %.1e  cond W %.3e (lambda_min %.3e)  "
                  "cond W_nn %.3e" % (E, model, rz, r["rel_err"], " ".join("%.5f" % l[2] for l in legs),
                                      drift, kW, lminW, kN), flush=True)
    keys = list(rows[0].keys())
    with open(os.path.join(a.o, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    with open(os.path.join(a.o, "sweep.md"), "w") as f:
        f.write("# The table's quasi-rigid sweep (duriez2006 Fig. 13)\n\n")
        f.write("`%s`\n\n" % " ".join(["scripts/table_rigid_sweep.py"] + sys.argv[1:]))
        f.write("Gravity + %g N, backward Euler, dt = %g s, %d steps from rest, mesh refine %d; load %.4f N.\n"
                "cond(W) = lambda_max/lambda_min of the last step's assembled W (numpy eigvalsh); drift = largest change "
                "of a leg's reaction component from E = %g, relative to the load.\n\n"
                % (a.load, a.dt, a.steps, a.refine, total, Es[0]))
        f.write("| E [Pa] | model | finite | sum r_z [N] | rel. error | leg z [N] (1-4) | max abs r_x, r_y [N] | drift | "
                "contacts | cond W | lambda_min W | cond W_nn | Newton it | contact it | contact error | steps not converged |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %g | %s | %s | %.9f | %.1e | %s | %.4f, %.4f | %.1e | %d | %.3e | %.3e | %.3e | %d | %d | %.1e | %d |\n" % (
                r["E"], r["model"], "yes" if r["finite"] else "NO", r["sum_rz"], r["rel_err"],
                ", ".join("%.5f" % r["leg%d_z" % i] for i in range(1, 5)), r["max_abs_rx"], r["max_abs_ry"],
                r["drift_vs_first_E"], r["contacts"], r["cond_W"], r["lambda_min_W"], r["cond_Wnn"],
                r["newton_it"], r["contact_it"], r["contact_error"], r["steps_not_converged"]))
    print("wrote %s and %s" % (os.path.join(a.o, "sweep.csv"), os.path.join(a.o, "sweep.md")))


if __name__ == "__main__":
    main()
