"""HapCo benchmarks (talbi2008 §3.3.3, cases/hapco_bench1.json and hapco_bench2.json), shortened to
the first two phases of the displacement series so that make check stays short
(scripts/hapco_study.py runs the whole study).

1. Stick, then slide (bench 1, mu = 0.6): the green block pressed 5P down, then pushed along +x
   in increments of P/10 (the paper's P = 1 mm is about the tangential displacement at which the
   whole contact slides, so at P no sticking increment is seen). The first tangential increments
   must have sticking contacts, later ones only sliding contacts, and on every sliding contact
   |r_t| = mu r_n in its local frame to 1e-6 relative (the solver tolerance is 1e-10 on the
   common error, so the cone is met to about that; 1e-6 is the issue's bound).
2. mu = 0: the tangential force is zero to round-off (|r_t| <= 1e-12 max r_n) on every contact.
3. The three solvers (bench 2, mu = 0.3, 5P down and 3P along x): nsgs, uzawa_local and
   uzawa_global with its default rho (rule lambda: below the Jacobi bound 2/lambda_max(W), issue 25)
   give the same contact force as nsgs on every increment to 1e-6 relative. With talbi2008's rho =
   0.3 min 1/W_nn (-fc_contact_solver_uzawa_rho_rule talbi2008, HapCo Fig. 9) the step is above
   2/lambda_max(W) on this problem: uzawa_global must then report non-convergence (exit 1,
   DIVERGED_MAX_IT with its error) rather than a wrong answer.
"""
import json
import math
import os

import h5py
import numpy as np

from fctest import ROOT, check, figure, outdir, run, stats

case1 = os.path.join("cases", "hapco_bench1.json")
case2 = os.path.join("cases", "hapco_bench2.json")


def series(unit, phases):
    return "bodies[0].boundary[0].displacement=" + json.dumps({"series": {"unit": unit, "phases": [{"direction": d, "increments": n} for d, n in phases]}})


def local(rundir):
    """{step: (r_local (M,3), status (M,))} from run.h5."""
    out = {}
    with h5py.File(os.path.join(rundir, "run.h5"), "r") as f:
        for k in f["contacts"]:
            g = f["contacts"][k]
            out[int(g.attrs["step"])] = (g["r_local"][()], g["status"][()])
    return out


# 1. stick then slide, Coulomb saturation
d1 = outdir("hapco/stick_slide")
run(["run", case1, "-o", d1, "--set", "contacts[0].mu=0.6", "--set", "time.steps=70", "--set", series(1e-4, [("-z", 50), ("+x", 20)]), "--set", "output.vtk=false"])
st = stats(d1)
check(all(c == 1 for c in st["converged"]), "every increment converged")
loc = local(d1)
first_x = 51
stick = [int(st["stick"][k - 1]) for k in range(first_x, 71)]
slip = [int(st["slip"][k - 1]) for k in range(first_x, 71)]
figure("stick/slip contacts over the first 20 increments along +x (P/10 each): stick %s, slip %s" % (stick, slip))
check(stick[0] > 0, "contacts stick at the first tangential increment (%d)" % stick[0])
full = next((i for i, s in enumerate(stick) if s == 0), None)
check(full is not None and full > 0, "the whole contact slides after some increments (first at increment %s of the phase)" % (full + 1 if full is not None else None))
check(all(s == 0 for s in stick[full:]), "once sliding, no contact sticks again while the push continues")
dev, n = 0.0, 0
for k in range(first_x, 71):
    r, s = loc[k]
    for x, sk in zip(r, s):
        if sk == 2:
            n += 1
            dev = max(dev, abs(math.hypot(x[1], x[2]) - 0.6 * x[0]) / (0.6 * x[0]))
r, s = loc[70]
act = s > 0
sat = np.hypot(r[act, 1], r[act, 2]).sum() / (0.6 * r[act, 0].sum())
figure("sliding contacts: max | |r_t| - mu r_n | / (mu r_n) = %.2e over %d contact-increments; at the last increment sum |r_t| / (mu sum r_n) = %.10f" % (dev, n, sat))
check(n > 0 and dev < 1e-6, "|r_t| = mu r_n on sliding contacts to 1e-6")
check(abs(sat - 1) < 1e-6, "the tangential reaction saturates at mu x the normal reaction to 1e-6 once everything slides")

# 2. frictionless: no tangential force
d2 = outdir("hapco/mu0")
run(["run", case1, "-o", d2, "--set", "contacts[0].mu=0", "--set", "time.steps=8", "--set", series(1e-3, [("-z", 5), ("+x", 3)]), "--set", "output.vtk=false"])
loc = local(d2)
rt = max(float(np.hypot(r[:, 1], r[:, 2]).max(initial=0)) for r, s in loc.values())
rn = max(float(r[:, 0].max(initial=0)) for r, s in loc.values())
figure("mu = 0: max |r_t| = %.2e N, max r_n = %.3e N" % (rt, rn))
check(rn > 0 and rt <= 1e-12 * rn, "no tangential force at mu = 0 (round-off)")

# 3. the three solvers on bench 2: nsgs and uzawa_local over 8 increments
d3 = outdir("hapco/compare")
sets = ["--set", "contacts[0].mu=0.3", "--set", "time.steps=8", "--set", series(1e-3, [("-z", 5), ("+x", 3)]), "--set", "output.vtk=false",
        "--set", "output.fclib=true", "--set", "contact_solver.tol=1e-11"]
run(["study", "compare", case2, "--solvers", "nsgs,uzawa_local", "-o", d3, "-q"] + sets)
ref = None
for s in ("nsgs", "uzawa_local"):
    st = stats(os.path.join(d3, s))
    check(all(c == 1 for c in st["converged"]), "%s: every increment converged" % s)
    with open(os.path.join(d3, s, "probes.csv")) as f:
        rows = [list(map(float, ln.split(","))) for ln in f.read().splitlines()[1:]]
    F = np.array([r[2:5] for r in rows])
    if ref is None:
        ref = F
        continue
    rel = max(np.linalg.norm(a - b) / np.linalg.norm(b) for a, b in zip(F, ref) if np.linalg.norm(b) > 0)
    figure("bench 2, mu 0.3: %s vs nsgs, max |F - F_nsgs| / |F_nsgs| over 8 increments = %.2e (mean contact iterations per step %.0f)" % (s, rel, np.mean(st["contact_it"])))
    check(rel < 1e-6, "%s gives nsgs's contact force to 1e-6" % s)

# uzawa_global on the problem of increment 5 (W of 30 contacts, written by the nsgs run): its
# Jacobi step is slow (thousands of sweeps), so one problem rather than a run. W's condition number
# is about 1e5 here, so the forces are fixed to about cond(W) x tol (measured: 9.5e-6 relative at tol 1e-10, 9.5e-7 at 1e-11, 9.4e-8 at 1e-12): tol 1e-12.
prob = os.path.join(d3, "nsgs", "fclib", "step_000005.hdf5")
with h5py.File(prob, "r") as f:
    g = f["fclib_local/W"]
    n = int(g["m"][()])
    W = np.zeros((n, n))
    p, i, x = g["p"][()], g["i"][()], g["x"][()]
    nz = int(g["nz"][()])
    if nz >= 0:
        W[i[:nz], p[:nz]] = x[:nz]
    else:
        for j in range(n):
            W[i[p[j]:p[j + 1]], j] = x[p[j]:p[j + 1]]
ev = np.linalg.eigvalsh(0.5 * (W + W.T))
rho_lam = 0.3 / np.diag(W)[0::3].max() * ev.max()
pc = run(["fclib", "compare", prob, "--solvers", "nsgs,uzawa_local,uzawa_global", "--max-it", "300000", "--tol", "1e-12", "--format", "csv"])
rows = [ln.split(",") for ln in pc.stdout.strip().splitlines()]
head = rows[0]
for r in rows[1:]:
    d = dict(zip(head, r))
    figure("bench 2, increment 5 (cond(W) = %.1e): %s %s iterations, common error %s, converged %s, force difference to nsgs %s %%" % (ev.max() / ev.min(), d["solver"], d["iterations"], d["error"], d["converged"], d["delta_percent"]))
    check(d["converged"] == "1" and float(d["delta_percent"]) < 1e-4, "%s: converged, same forces as nsgs to 1e-6" % d["solver"])
pb = run(["fclib", "solve", prob, "--solver", "uzawa_global", "--max-it", "20000", "-fc_contact_solver_uzawa_rho_rule", "talbi2008"], expect=None)
figure("bench 2, increment 5: rho lambda_max(W) = %.2f with rho = 0.3 min 1/W_nn (talbi2008); uzawa_global: %s" % (rho_lam, pb.stdout.strip().splitlines()[-1]))
check(rho_lam > 2, "talbi2008's rho is above the Jacobi bound 2/lambda_max(W) here")
check(pb.returncode == 1 and "DIVERGED" in pb.stdout, "uzawa_global with that rho reports non-convergence (exit %d)" % pb.returncode)
