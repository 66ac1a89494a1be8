#!/usr/bin/python3
"""The quasi-rigid sweep of issue 14 item 5 (duriez2006 §6.2-6.3, Fig. 13), one command:

    /usr/bin/python3 scripts/table_rigid_sweep.py [--E 1e6,1e7,...,1e11]
        [--models plain,global_corotational] [--dt 0.05] [--steps 40] [--refine 0]
        [--case cases/table.json] [--load 50] [--solver nsgs|newton|newton_inverse]
        [--rtol auto|R] [--compare SOLVER,...] [-o results/table_rigid_sweep]

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
  displacements scale as 1/E, the forces do not), so this measures how physical the forces stay
  (up to the history of the feet's friction, which the transient from rest sets and which does
  depend on E: the tangential components may move by a little); and the largest departure of a
  leg's vertical reaction from a quarter of the total, which the table's two mirror symmetries
  make exact for the unique solution (max_leg_dev_rel, relative to load/4);
- cond(W) = lambda_max / lambda_min of the assembled Delassus operator W of the last step's
  contact problem (its FCLIB file, `output.fclib=true`; W is symmetric, eigenvalues by numpy's
  eigvalsh: the ratio of extreme eigenvalues, not a norm estimate), its smallest eigenvalue, and
  the same for the normal-normal block W_nn;
- Newton iterations, contact-solver iterations and common error of the last step, and the number
  of steps whose Newton iteration did not converge. Newton is capped at --newton-max-it (10)
  iterations per step with time.newton.allow_failure: near the rigid limit nsgs does not reach the
  case's tolerance 1e-10 in its 10000 sweeps (cond W grows as E), and each Newton iteration
  then costs 10000 sweeps; the table reports it rather than hiding it.

--solver: the case's contact solver (nsgs, tolerance 1e-10, 10000 sweeps), or newton (the
semismooth Newton of doc/contact.md, 200 steps) with its default scaling rho = 1/W_aa (newton) or
rho from the diagonal of W^-1 (newton_inverse, the default: -fc_contact_solver_newton_rho inverse,
the scaling that stays right near the rigid limit, doc/contact.md). --rtol: Newton's relative
tolerance of the step (time.newton.rtol); auto (the default) is max(1e-10, 1e-16 E/Pa), ten times
the round-off floor of this case's residual, measured at 9e-18 E/Pa (doc/validation.md, "The
quasi-rigid sweep": the rounding of the nodal velocities, which carry the rigid motion, times the
stiffness); the plain 1e-10 of the case is below that floor from E = 1e8 Pa.

--compare: the last step's FCLIB problem of every run solved again, from r = 0, by each listed
solver (fcsim fclib solve, tolerance 1e-10, --compare-max-it iterations; lemke:k=K and
newton:rho=inverse set the type's option), with each solver's leg reactions (the contacts grouped
by the run's /contacts/<step>/pair, impulses / dt); DIR/solvers.csv and DIR/solvers.md.

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
SOLVERS = {"nsgs": [],
           "newton": ["--set", "contact_solver.type=newton", "--set", "contact_solver.max_it=200"],
           "newton_inverse": ["--set", "contact_solver.type=newton", "--set", "contact_solver.max_it=200",
                              "-fc_contact_solver_newton_rho", "inverse"]}


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


def rtol(arg, E):
    return max(1e-10, 1e-16 * E) if arg == "auto" else float(arg)


def compare_args(spec):
    """fcsim fclib solve arguments for a --compare entry, None if unknown."""
    t = spec.split(":")
    if t[0] in ("nsgs", "sap", "uzawa_local", "uzawa_global", "newton") and len(t) == 1:
        return ["--solver", t[0]]
    if spec == "newton:rho=inverse":
        return ["--solver", "newton", "-fc_contact_solver_newton_rho", "inverse"]
    if t[0] == "lemke" and len(t) == 2 and t[1].startswith("k=") and t[1][2:].isdigit() and int(t[1][2:]) >= 3:
        return ["--solver", "lemke", "-fc_contact_solver_lemke_k", t[1][2:]]
    return None


def solve_again(fclib, run_h5, step, dt, spec, max_it, out):
    """Solve the FCLIB problem again with one solver: (converged, iterations, error, legs z, sum z)."""
    cmd = [FCSIM, "fclib", "solve", fclib, "--tol", "1e-10", "--max-it", str(max_it), "-o", out,
           "--overwrite"] + compare_args(spec)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        print("table_rigid_sweep.py: fclib solve failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr),
              file=sys.stderr)
        sys.exit(1)
    w = p.stdout.split()
    it, err = int(w[w.index("iterations") + 1]), float(w[w.index("error") + 1])
    with h5py.File(out, "r") as f:
        r = f["solution/r"][()]
    with h5py.File(run_h5, "r") as f:
        pair = f["contacts/%06d/pair" % step][()]
    legs = [float(sum(r[3 * k] for k in range(len(pair)) if pair[k] == g)) / dt for g in range(4)]
    return p.returncode == 0, it, err, legs, sum(legs)


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
    ap.add_argument("--solver", default="newton_inverse")
    ap.add_argument("--rtol", default="auto")
    ap.add_argument("--compare", default="")
    ap.add_argument("--compare-max-it", type=int, default=10000)
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
    if a.solver not in SOLVERS:
        die("--solver: unknown solver '%s' (known: %s)" % (a.solver, ", ".join(SOLVERS)))
    if a.rtol != "auto":
        try:
            rt = float(a.rtol)
        except ValueError:
            rt = float("nan")
        if not (rt > 0 and math.isfinite(rt)):
            die("--rtol: must be auto or a positive number: %s" % a.rtol)
    compare = [c for c in a.compare.split(",") if c]
    for c in compare:
        if compare_args(c) is None:
            die("--compare: unknown solver '%s' (known: nsgs, newton, newton:rho=inverse, lemke:k=K, sap, "
                "uzawa_local, uzawa_global)" % c)
    if a.compare_max_it < 1:
        die("--compare-max-it: must be at least 1: %d" % a.compare_max_it)
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
                   "--set", "time.newton.rtol=%.17g" % rtol(a.rtol, E),
                   "--set", "output.fclib=true"] + SOLVERS[a.solver]
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
                "max_leg_dev_rel": max(abs(leg[2] - rz / 4) for leg in legs) / (rz / 4),
                "contacts": W.shape[0] // 3, "cond_W": kW, "lambda_min_W": lminW, "lambda_max_W": lmaxW,
                "cond_Wnn": kN, "lambda_min_Wnn": lminN,
                "newton_it": int(st["newton_it"]), "contact_it": int(st["contact_it"]),
                "converged": int(st["converged"]), "contact_converged": int(st["contact_converged"]),
                "contact_error": float(st["contact_error"]),
                "steps_not_converged": sum(1 for q in read_csv(os.path.join(d, "stats.csv")) if q["converged"] != "1")})
            r = rows[-1]
            print("E = %-7g %-19s sum r_z %.9f N (rel %.1e)  legs %s  max |leg - sum/4| %.1e  drift %.1e  cond W %.3e (lambda_min %.3e)  "
                  "cond W_nn %.3e" % (E, model, rz, r["rel_err"], " ".join("%.5f" % l[2] for l in legs),
                                      r["max_leg_dev_rel"], drift, kW, lminW, kN), flush=True)
    if compare:
        crow = []
        for r in rows:
            d = os.path.join(a.o, "runs", "%s_E%g" % (r["model"], r["E"]))
            for spec in compare:
                ok, it, err, legs, tot = solve_again(os.path.join(d, "fclib", "step_%06d.hdf5" % a.steps),
                                                     os.path.join(d, "run.h5"), a.steps, a.dt, spec,
                                                     a.compare_max_it, os.path.join(d, "solution.hdf5"))
                spread = max(abs(l - total / 4) for l in legs) / (total / 4)
                crow.append({"E": r["E"], "model": r["model"], "solver": spec, "converged": int(ok),
                             "iterations": it, "error": err, "leg1_z": legs[0], "leg2_z": legs[1],
                             "leg3_z": legs[2], "leg4_z": legs[3], "sum_z": tot, "max_leg_dev_rel": spread})
                print("  %-19s E = %-7g %-20s %s it %6d error %.1e  legs %s  max |leg - load/4| %.1e" % (
                    r["model"], r["E"], spec, "converged" if ok else "NOT converged", it, err,
                    " ".join("%.5f" % l for l in legs), spread), flush=True)
        with open(os.path.join(a.o, "solvers.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(crow[0].keys()))
            w.writeheader()
            for c in crow:
                w.writerow(c)
        with open(os.path.join(a.o, "solvers.md"), "w") as f:
            f.write("Last step's problem of each run, solved again from r = 0 (tolerance 1e-10, %d iterations); "
                    "legs = impulses / dt.\n\n" % a.compare_max_it)
            f.write("| E [Pa] | model | solver | converged | iterations | common error | leg z [N] (1-4) | "
                    "max abs(leg - load/4) / (load/4) |\n|---|---|---|---|---|---|---|---|\n")
            for c in crow:
                f.write("| %g | %s | %s | %s | %d | %.1e | %s | %.1e |\n" % (
                    c["E"], c["model"], c["solver"], "yes" if c["converged"] else "no", c["iterations"], c["error"],
                    ", ".join("%.5f" % c["leg%d_z" % i] for i in range(1, 5)), c["max_leg_dev_rel"]))
    keys = list(rows[0].keys())
    with open(os.path.join(a.o, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    with open(os.path.join(a.o, "sweep.md"), "w") as f:
        f.write("# The table's quasi-rigid sweep (duriez2006 Fig. 13)\n\n")
        f.write("`%s`\n\n" % " ".join(["scripts/table_rigid_sweep.py"] + sys.argv[1:]))
        f.write("Contact solver %s; Newton rtol %s.\n" % (a.solver, a.rtol if a.rtol != "auto" else "max(1e-10, 1e-16 E)"))
        f.write("Gravity + %g N, backward Euler, dt = %g s, %d steps from rest, mesh refine %d; load %.4f N.\n"
                "cond(W) = lambda_max/lambda_min of the last step's assembled W (numpy eigvalsh); drift = largest change "
                "of a leg's reaction component from E = %g, relative to the load.\n\n"
                % (a.load, a.dt, a.steps, a.refine, total, Es[0]))
        f.write("| E [Pa] | model | finite | sum r_z [N] | rel. error | leg z [N] (1-4) | max abs(leg - sum/4)/(sum/4) | "
                "max abs r_x, r_y [N] | drift | "
                "contacts | cond W | lambda_min W | cond W_nn | Newton it | contact it | contact error | steps not converged |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| %g | %s | %s | %.9f | %.1e | %s | %.1e | %.4f, %.4f | %.1e | %d | %.3e | %.3e | %.3e | %d | %d | %.1e | %d |\n" % (
                r["E"], r["model"], "yes" if r["finite"] else "NO", r["sum_rz"], r["rel_err"],
                ", ".join("%.5f" % r["leg%d_z" % i] for i in range(1, 5)), r["max_leg_dev_rel"], r["max_abs_rx"],
                r["max_abs_ry"], r["drift_vs_first_E"], r["contacts"], r["cond_W"], r["lambda_min_W"], r["cond_Wnn"],
                r["newton_it"], r["contact_it"], r["contact_error"], r["steps_not_converged"]))
    print("wrote %s and %s%s" % (os.path.join(a.o, "sweep.csv"), os.path.join(a.o, "sweep.md"),
                                 " and solvers.csv, solvers.md" if compare else ""))


if __name__ == "__main__":
    main()
