#!/usr/bin/python3
"""The HapCo solver study (talbi2008 §3.3.3, Fig. 6-9): Gauss-Seidel (nsgs) against local and
global Uzawa (uzawa_local, uzawa_global) on cases/hapco_bench1.json and hapco_bench2.json, one
command.

usage: hapco_study.py [-o DIR] [--bench 1,2] [--mu 0,0.3,0.6] [--refine L] [--eps 1e-4]
                      [--tols 1e-3,...] [--max-it N] [--fcsim BIN] [--skip-runs]

What runs (every run through `fcsim study compare`, so the three solvers see the same mesh,
increments and tolerances; time.newton.allow_failure is set so that a non-converged increment is
recorded in stats.csv instead of stopping the run, and time.newton.max_it = 10, which every
converged increment needs at most (4 measured), so that a diverging solver costs 10 contact
solves per increment, not 25; an increment after a solver's first failure starts from a state
that is no longer comparable and is left out of every comparison):
  1. "common": per benchmark and mu, the three solvers stopped by the common error <= --tol
     (1e-12; doc/contact.md §4): the fair test for forces and iterations. W's condition number is
     about 1e5 on these problems, so the forces are fixed to about cond(W) x tol.
  2. "paper": the contact problems of the common nsgs run (its FCLIB files, one per increment: the
     same problems for every solver) solved by `fcsim fclib compare` with talbi2008's own stopping
     tests at the "Uzawa error" eps (default 1e-4), each from r = 0: uzawa_local with talbi2008's
     single rho (uzawa_rho_local=false) stopped by eps1 (the change of r over a sweep) with inner
     eps2 = eps, uzawa_global stopped by eps3 (||r^{k+1} - r^k|| / ||r^{k+1}||), both with the
     common-error test switched off (tol 1e-15); nsgs, for which the paper defines no test, on the
     common error <= eps. The iterations, the common error each reaches and its force difference
     to the accurate solution are recorded (DIR/paper.csv). The exact thresholds: doc/contact.md,
     "uzawa_local / uzawa_global".
  2b. "smallrho": nsgs and uzawa_global with talbi2008's rho rule and rho_factor --small-rho (0.05
     instead of talbi2008's 0.3), which puts rho lambda_max(W) below 2 (checks.md reports the product
     for talbi2008's); "talbirho": the same with talbi2008's 0.3 (HapCo Fig. 9's divergence). Since
     issue 25 uzawa_global's default rho (rule lambda, Jacobi-scaled 1/lambda_max(W)) is below the
     bound, so the "common" run's uzawa_global converges; the paper's runs (2.) set talbi2008's.
  3. "tols" (Fig. 8): benchmark 1, mu = 0.6, the common-error tolerance swept over --tols: total
     contact CPU time per solver.
Per step (= increment) it reads each run's stats.csv (contact_it, contact_solve_time,
contact_error, contact_converged) and probes.csv (the contact force on the green block), and the
run.h5 contact forces in the local frames for the physics checks.

Writes DIR/hapco.csv (one row per run x increment), DIR/phases.csv and DIR/phases.md (per
benchmark, mu, test, phase and solver: mean iterations per increment, contact CPU time,
non-converged increments), DIR/fig8.csv, DIR/checks.md (the acceptance figures: force agreement
between solvers, Coulomb saturation |r_t| = mu r_n on sliding contacts, zero friction at mu = 0,
and the Uzawa step rho against 2 / lambda_max(W) for uzawa_global). Figures: scripts/plot_hapco.py DIR.
"""
import argparse
import csv
import glob
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVERS = ["nsgs", "uzawa_local", "uzawa_global"]


def phases_of(case_path):
    """[(name, first step, last step)] of the green block's displacement series (1-based steps)."""
    case = json.load(open(case_path))
    for b in case["bodies"]:
        for bc in b.get("boundary", []):
            d = bc.get("displacement")
            if isinstance(d, dict) and "series" in d:
                out, k = [], 0
                for i, ph in enumerate(d["series"]["phases"]):
                    n = ph["increments"]
                    out.append(("%d: %d%s" % (i + 1, n, ph["direction"]), k + 1, k + n))
                    k += n
                return out
    raise SystemExit("%s: no displacement series in the case" % case_path)


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def compare(fcsim, case, out, sets, extra=(), solvers=SOLVERS):
    """One `fcsim study compare`; returns the study directory actually written (kept as
    DIR.failed-<pid> when a run exits 1, which allow_failure prevents for non-converged steps)."""
    cmd = [fcsim, "study", "compare", case, "--solvers", ",".join(solvers), "-o", out, "--overwrite", "-q"]
    for s in sets:
        cmd += ["--set", s]
    cmd += list(extra)
    print("+ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        sys.exit("hapco_study: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    if os.path.isdir(out):
        return out
    par = os.path.dirname(os.path.abspath(out))
    cand = [os.path.join(par, d) for d in os.listdir(par) if d.startswith(os.path.basename(out) + ".failed-")]
    if not cand:
        sys.exit("hapco_study: %s wrote no study directory: %s" % (out, p.stderr.strip()))
    return max(cand, key=os.path.getmtime)


def local_forces(run_dir):
    """Per output step: list of (r_n, |r_t|, status) from run.h5:/contacts."""
    import h5py

    out = {}
    with h5py.File(os.path.join(run_dir, "run.h5"), "r") as f:
        if "contacts" not in f:
            return out
        for k in f["contacts"]:
            g = f["contacts"][k]
            step = int(g.attrs["step"])
            r = g["r_local"][()]
            st = g["status"][()]
            out[step] = [(float(x[0]), math.hypot(x[1], x[2]), int(s)) for x, s in zip(r, st)]
    return out


def valid_steps(stats):
    """Steps before the first non-converged one."""
    out = set()
    for r in stats:
        if float(r["converged"]) == 0:
            break
        out.add(int(r["step"]))
    return out


def rho_lambda(run_dir):
    """rho lambda_max(W) per FCLIB problem of a run (fclib/step_*.hdf5), rho = 0.3 min_a 1/W_aa,nn
    (uzawa_global's default, talbi2008 §3.3.3): the Jacobi projected step on the normal forces
    converges only when rho lambda_max(W) < 2."""
    import glob
    import h5py
    import numpy as np

    out = []
    for path in sorted(glob.glob(os.path.join(run_dir, "fclib", "step_*.hdf5"))):
        with h5py.File(path, "r") as f:
            g = f["fclib_local/W"]
            n = int(g["m"][()])
            W = np.zeros((n, n))
            nz = int(g["nz"][()])
            if nz >= 0:  # triplets
                W[g["i"][()][:nz], g["p"][()][:nz]] = g["x"][()][:nz]
            else:  # compressed columns
                p, i, x = g["p"][()], g["i"][()], g["x"][()]
                for j in range(n):
                    W[i[p[j]:p[j + 1]], j] = x[p[j]:p[j + 1]]
        if n == 0:
            continue
        dn = np.diag(W)[0::3]
        if not (dn > 0).all():
            continue
        out.append(0.3 / dn.max() * np.linalg.eigvalsh(0.5 * (W + W.T)).max())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", default=os.path.join(ROOT, "results", "hapco"))
    ap.add_argument("--bench", default="1,2")
    ap.add_argument("--mu", default="0,0.3,0.6")
    ap.add_argument("--refine", type=int, default=0)
    ap.add_argument("--eps", type=float, default=1e-4, help="talbi2008's 'Uzawa error' for the paper's stopping tests")
    ap.add_argument("--tols", default="1e-3,1e-4,1e-5,1e-6,1e-7,1e-8", help="common-error tolerances of the Fig. 8 sweep ('' skips it)")
    ap.add_argument("--max-it", type=int, default=20000, help="contact solver iteration cap")
    ap.add_argument("--tol", type=float, default=1e-12, help="common-error tolerance of the 'common' and 'smallrho' runs (W's condition number is about 1e5: forces to 1e-6 need tol <= 1e-11)")
    ap.add_argument("--small-rho-max-it", type=int, default=150000, help="iteration cap of uzawa_global with the small rho (it needs about 85,000 sweeps at tol 1e-12 on benchmark 2)")
    ap.add_argument("--small-rho", type=float, default=0.05, help="rho_factor of the extra uzawa_global run (default rho_factor 0.3)")
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("--skip-runs", action="store_true", help="only tabulate the runs already in -o")
    a = ap.parse_args()
    os.makedirs(a.o, exist_ok=True)
    benches = [int(b) for b in a.bench.split(",") if b]
    mus = [float(m) for m in a.mu.split(",") if m]
    base = ["time.newton.allow_failure=true", "time.newton.max_it=10", "bodies[0].mesh.refine=%d" % a.refine, "bodies[1].mesh.refine=%d" % a.refine]

    # (bench, mu, test) -> study dir
    studies = {}
    for b in benches:
        case = os.path.join(ROOT, "cases", "hapco_bench%d.json" % b)
        for mu in mus:
            out = os.path.join(a.o, "bench%d_mu%g_common" % (b, mu))
            sets = base + ["contacts[0].mu=%g" % mu, "contact_solver.max_it=%d" % a.max_it, "output.fclib=true", "output.vtk=false", "contact_solver.tol=%g" % a.tol]
            studies[(b, mu, "common")] = out if a.skip_runs else compare(a.fcsim, case, out, sets)
            # uzawa_global with a step below its Jacobi bound (rho lambda_max(W) < 2)
            out = os.path.join(a.o, "bench%d_mu%g_smallrho" % (b, mu))
            sets = base + ["contacts[0].mu=%g" % mu, "petsc.fc_contact_solver_uzawa_rho_rule=\"talbi2008\"", "petsc.fc_contact_solver_uzawa_rho_factor=%g" % a.small_rho, "contact_solver.tol=%g" % a.tol, "contact_solver.max_it=%d" % a.small_rho_max_it]
            studies[(b, mu, "smallrho")] = out if a.skip_runs else compare(a.fcsim, case, out, sets, solvers=["nsgs", "uzawa_global"])
            # uzawa_global with talbi2008's rho (0.3 min 1/W_nn), above its Jacobi bound here (Fig. 9);
            # since issue 25 fcsim's default rho (rule lambda) is below it, so the "common" run converges
            out = os.path.join(a.o, "bench%d_mu%g_talbirho" % (b, mu))
            sets = base + ["contacts[0].mu=%g" % mu, "petsc.fc_contact_solver_uzawa_rho_rule=\"talbi2008\"", "contact_solver.tol=%g" % a.tol, "contact_solver.max_it=%d" % a.max_it]
            studies[(b, mu, "talbirho")] = out if a.skip_runs else compare(a.fcsim, case, out, sets, solvers=["nsgs", "uzawa_global"])

    rows, phase_rows, checks = [], [], []
    for (b, mu, test), d in sorted(studies.items()):
        phases = phases_of(os.path.join(ROOT, "cases", "hapco_bench%d.json" % b))
        per = {}
        solvers = [x for x in SOLVERS if os.path.isdir(os.path.join(d, x))]
        for s in solvers:
            st = read_rows(os.path.join(d, s, "stats.csv"))
            pr = read_rows(os.path.join(d, s, "probes.csv"))
            per[s] = (st, {int(r["step"]): r for r in pr})
            for r in st:
                k = int(r["step"])
                ph = next((i + 1 for i, p in enumerate(phases) if p[1] <= k <= p[2]), 0)
                rows.append({"bench": b, "mu": mu, "test": test, "solver": s, "step": k, "phase": ph,
                             "contact_it": r["contact_it"], "contact_solves": r["contact_solves"], "newton_it": r["newton_it"],
                             "contact_solve_time": r["contact_solve_time"], "contact_error": r["contact_error"],
                             "contact_converged": r["contact_converged"], "converged": r["converged"], "active": r["active"]})
            for i, (name, k0, k1) in enumerate(phases):
                v = valid_steps(st)
                sel = [r for r in st if k0 <= int(r["step"]) <= k1 and (int(r["step"]) in v or int(r["step"]) == min(set(range(1, len(st) + 1)) - v, default=0))]
                if not sel:
                    continue
                its = [float(r["contact_it"]) / max(1.0, float(r["contact_solves"])) for r in sel]
                phase_rows.append({"bench": b, "mu": mu, "test": test, "phase": name, "solver": s,
                                   "increments": len(sel),
                                   "mean_it_per_solve": sum(its) / len(its),
                                   "mean_it_per_increment": sum(float(r["contact_it"]) for r in sel) / len(sel),
                                   "cpu_s": sum(float(r["contact_solve_time"]) for r in sel),
                                   "max_error": max(float(r["contact_error"]) for r in sel),
                                   "not_converged": sum(1 for r in sel if float(r["converged"]) == 0 or float(r["contact_converged"]) == 0)})
        # forces: every solver against nsgs on the increments before either's first non-converged
        # one (a run continues after a failed increment from a state that is no longer comparable)
        st0, pr0 = per["nsgs"]
        ok0 = valid_steps(st0)
        for s in solvers[1:]:
            st, pr = per[s]
            ok = valid_steps(st) & ok0
            worst = 0.0
            for k in ok:
                f0 = [float(pr0[k]["contact_" + c]) for c in "xyz"]
                f1 = [float(pr[k]["contact_" + c]) for c in "xyz"]
                n0 = math.sqrt(sum(x * x for x in f0))
                if n0 > 0:
                    worst = max(worst, math.sqrt(sum((x - y) ** 2 for x, y in zip(f0, f1))) / n0)
            bad = [int(r["step"]) for r in st if float(r["converged"]) == 0]
            checks.append("bench %d, mu %g, %s: %s vs nsgs: max |F - F_nsgs| / |F_nsgs| = %.2e over the %d increments before the first non-converged one; %s"
                          % (b, mu, test, s, worst, len(ok), ("%s first fails at increment %d (%d not converged)" % (s, bad[0], len(bad))) if bad else "all converged"))
        if test != "common":
            continue
        # Coulomb saturation in the tangential phase (phase 2), nsgs, in the contact frames
        loc = local_forces(os.path.join(d, "nsgs"))
        _, k0, k1 = phases[1]
        if mu > 0:
            dev, nslip, nstick = 0.0, 0, 0
            for k in range(k0, k1 + 1):
                for rn, rt, stt in loc.get(k, []):
                    if stt == 2:
                        nslip += 1
                        dev = max(dev, abs(rt - mu * rn) / (mu * rn))
                    elif stt == 1:
                        nstick += 1
            checks.append("bench %d, mu %g, phase 2 (nsgs): max | |r_t| - mu r_n | / (mu r_n) over %d sliding contact-increments = %.2e (%d sticking)" % (b, mu, nslip, dev, nstick))
        else:
            rtmax = max((rt for k in loc for rn, rt, stt in loc[k]), default=0.0)
            rnmax = max((rn for k in loc for rn, rt, stt in loc[k]), default=0.0)
            checks.append("bench %d, mu 0 (nsgs): max |r_t| = %.2e N against max r_n = %.3e N" % (b, rtmax, rnmax))

        rho = rho_lambda(os.path.join(d, "nsgs"))
        if rho:
            checks.append("bench %d, mu %g: uzawa_global's rho = 0.3 min 1/W_nn against the Jacobi bound 2/lambda_max(W): rho lambda_max(W) from %.2f to %.2f over the increments (above 2 the Jacobi Uzawa step cannot converge on the normal forces)" % (b, mu, min(rho), max(rho)))

    # 2. the paper's stopping tests on the common run's problems
    claim, paper_rows = [], []
    specs = ["nsgs:tol=%g" % a.eps,
             "uzawa_local:tol=1e-15:uzawa_outer_tol=%g:uzawa_inner_tol=%g:uzawa_rho_local=false" % (a.eps, a.eps),
             "uzawa_global:tol=1e-15:uzawa_rel_tol=%g:uzawa_rho_rule=talbi2008" % a.eps]
    accurate = "nsgs:tol=%g" % a.tol
    for (b, mu, test), d in sorted(studies.items()):
        if test != "common":
            continue
        phases = phases_of(os.path.join(ROOT, "cases", "hapco_bench%d.json" % b))
        files = sorted(glob.glob(os.path.join(d, "nsgs", "fclib", "step_*.hdf5")))
        cmd = [a.fcsim, "fclib", "compare"] + files + ["--solvers", ",".join([accurate] + specs), "--max-it", str(a.max_it), "--format", "csv"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode not in (0, 1):
            sys.exit("hapco_study: %s failed (exit %d): %s" % (" ".join(cmd[:4]), p.returncode, p.stderr.strip()))
        for r in csv.DictReader(p.stdout.splitlines()):
            if r["solver"] == accurate:
                continue
            k = int(os.path.basename(r["problem"])[5:11])
            ph = next((i + 1 for i, q in enumerate(phases) if q[1] <= k <= q[2]), 0)
            paper_rows.append({"bench": b, "mu": mu, "step": k, "phase": ph, "solver": r["solver"].split(":")[0],
                               "iterations": int(r["iterations"]), "error": float(r["error"]),
                               "force_difference": float(r["delta_percent"]) / 100, "capped": int(r["iterations"]) >= a.max_it})
    if paper_rows:
        with open(os.path.join(a.o, "paper.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(paper_rows[0].keys()))
            w.writeheader()
            w.writerows(paper_rows)
        with open(os.path.join(a.o, "paper.md"), "w") as f:
            f.write("| bench | mu | phase | solver | problems | iterations (mean) | (max) | common error reached (max) | force difference to the accurate solution (max) | stopped by the iteration cap |\n|---|---|---|---|---|---|---|---|---|---|\n")
            keys = sorted({(r["bench"], r["mu"], r["phase"]) for r in paper_rows})
            for (b, mu, ph) in keys:
                for sv in SOLVERS:
                    sel = [r for r in paper_rows if (r["bench"], r["mu"], r["phase"], r["solver"]) == (b, mu, ph, sv)]
                    if sel:
                        its = [r["iterations"] for r in sel]
                        f.write("| %d | %g | %d | %s | %d | %.1f | %d | %.1e | %.1e | %d |\n" % (b, mu, ph, sv, len(sel), sum(its) / len(its), max(its), max(r["error"] for r in sel), max(r["force_difference"] for r in sel), sum(r["capped"] for r in sel)))
        for (b, mu) in sorted({(r["bench"], r["mu"]) for r in paper_rows}):
            nph = len(phases_of(os.path.join(ROOT, "cases", "hapco_bench%d.json" % b)))
            fewer = []
            for ph in range(1, nph + 1):
                m = {}
                for sv in ("nsgs", "uzawa_local"):
                    its = [r["iterations"] for r in paper_rows if (r["bench"], r["mu"], r["phase"], r["solver"]) == (b, mu, ph, sv)]
                    m[sv] = sum(its) / len(its) if its else float("nan")
                if m["uzawa_local"] < m["nsgs"]:
                    fewer.append(str(ph))
            claim.append("bench %d, mu %g, paper's tests at eps %g: uzawa_local needs fewer iterations than nsgs in %d of %d phases (%s)" % (b, mu, a.eps, len(fewer), nph, ", ".join(fewer) or "none"))

    with open(os.path.join(a.o, "hapco.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(a.o, "phases.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(phase_rows[0].keys()))
        w.writeheader()
        w.writerows(phase_rows)
    with open(os.path.join(a.o, "phases.md"), "w") as f:
        f.write("| bench | mu | test | phase | solver | increments | iterations per contact solve | iterations per increment | contact CPU [s] | max common error | not converged |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in phase_rows:
            f.write("| %d | %g | %s | %s | %s | %d | %.1f | %.1f | %.3f | %.1e | %d |\n" % (r["bench"], r["mu"], r["test"], r["phase"], r["solver"], r["increments"], r["mean_it_per_solve"], r["mean_it_per_increment"], r["cpu_s"], r["max_error"], r["not_converged"]))
    # the paper's claim: local Uzawa fewer iterations than Gauss-Seidel in all five phases
    for (b, mu, test) in sorted(studies):
        if test == "smallrho":
            continue
        sel = [r for r in phase_rows if r["bench"] == b and r["mu"] == mu and r["test"] == test]
        fewer = [r["phase"] for r in sel if r["solver"] == "uzawa_local" and r["mean_it_per_solve"] < next(x["mean_it_per_solve"] for x in sel if x["solver"] == "nsgs" and x["phase"] == r["phase"])]
        claim.append("bench %d, mu %g, %s test: uzawa_local needs fewer iterations per solve than nsgs in %d of %d phases (%s)" % (b, mu, test, len(fewer), len(phases_of(os.path.join(ROOT, "cases", "hapco_bench%d.json" % b))), ", ".join(fewer) or "none"))

    tols = [float(t) for t in a.tols.split(",") if t]
    if tols and 1 in benches:
        case = os.path.join(ROOT, "cases", "hapco_bench1.json")
        with open(os.path.join(a.o, "fig8.csv"), "w", newline="") as f:
            w = csv.writer(f)
            # totals over the increments before the first non-converged one
            w.writerow(["tol", "solver", "contact_cpu_s", "contact_it", "increments_not_counted"])
            for t in tols:
                out = os.path.join(a.o, "fig8_tol%g" % t)
                d = out if a.skip_runs else compare(a.fcsim, case, out, base + ["contacts[0].mu=0.6", "contact_solver.tol=%g" % t, "contact_solver.max_it=%d" % a.max_it])
                for s in SOLVERS:
                    st = read_rows(os.path.join(d, s, "stats.csv"))
                    v = valid_steps(st)
                    w.writerow([t, s, sum(float(r["contact_solve_time"]) for r in st if int(r["step"]) in v), sum(int(float(r["contact_it"])) for r in st if int(r["step"]) in v), len(st) - len(v)])
    with open(os.path.join(a.o, "checks.md"), "w") as f:
        f.write("# HapCo study checks\n\n" + "\n".join("- " + c for c in checks + claim) + "\n")
    print("\n".join(checks + claim))
    print("hapco_study: wrote %s/{hapco.csv,phases.csv,phases.md,checks.md%s}" % (a.o, ",fig8.csv" if tols else ""))


if __name__ == "__main__":
    main()
