#!/usr/bin/python3
"""The masonry arch's acceptance runs (issue 13 item 3, issue 25 item 7): one command for the
verdicts, the mu sweep and the comparison of the contact solvers, written as CSV + Markdown.

For every friction coefficient mu of --mus (the acceptance values) and of --sweep (lo:hi:step),
`fcsim study compare cases/masonry_arch.json --solvers newton,sap,nsgs` (--solvers) runs the case with
contacts[*].mu = mu and time.t_end = --t-end, into OUT/mu_<mu>/. From each run it reads
run.h5:/verdict (src/run/verdict.h: stands / collapses / undecided, the collapse time, the
keystone's drop) and stats.csv (every step's Newton and contact-solver status and common error,
the cost split per step), and from the last contact output the per-joint opening (largest gap of
the joint's contact points) and slip (slipping points, largest friction use |r_t| / (mu r_n)).

Writes OUT/arch_runs.csv and OUT/arch_study.md: one row per (mu, solver); the smallest mu of the
sweep at which the arch stands, per solver; the keystone's settling drop at the largest mu, each
solver's against nsgs' (the exact cone to 1e-10, issue 13's reference) and nsgs' against the elastic
sag estimate (below); the real-time rate (simulated
time / wall time of the time steps) and the cost split per step (detection, W, contact solve,
rest). Usage:

    scripts/arch_study.py [--mus 1.0,0.5,0.2] [--sweep 0.2:0.5:0.05] [--t-end 10] [-o OUT]
                          [--solvers newton,sap,nsgs] [--fcsim bin/fcsim] [-j 1]

The elastic sag estimate (doc/validation.md "Masonry arch"): the arch as one elastic two-hinged
rib, a 2-D frame of Euler-Bernoulli beams with axial stiffness (EA, EI of each block's w x w
section, self weight rho g A per unit length, both ends pinned at the ends of the centre line:
the supports' edges are hinges), solved directly (frame_sag). It has no joints, so it is
stiffer than the blocks, whose joints carry the thrust through 6 node-to-face contacts each.
"""
import argparse, concurrent.futures, csv, os, subprocess, sys, time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import make_masonry_arch as gen  # noqa: E402  (the geometry: one definition)

SOLVERS = ["newton", "sap", "nsgs"]   # the case's default (newton) first; nsgs is the reference of the drops


def read_csv(path):
    a = np.genfromtxt(path, delimiter=",", names=True)
    return np.atleast_1d(a)


def frame_sag(nel=600):
    """Crown drop of the arch as one elastic two-hinged rib (2-D frame: Euler-Bernoulli beams
    with axial stiffness, EA and EI of the w x w section of each block, self weight rho g A per
    unit length lumped at the nodes, both ends pinned where the centre line ends), m. This is the
    monolithic arch: it has no joints, so it is stiffer than the blocks."""
    U = gen.UNIT
    xj, _ = gen.joints()
    ws = [gen.w(min(gen.y(xj[i]), gen.y(xj[i + 1]))) * U for i in range(gen.N)]
    xs = np.interp(np.linspace(0, 1, nel + 1), np.linspace(0, 1, len(xj)), xj)   # nel / N elements per block, x-equal within it
    P = np.stack([xs * U, gen.y(xs) * U], 1)
    ndof = 3 * (nel + 1)
    K = np.zeros((ndof, ndof))
    F = np.zeros(ndof)
    per = nel // gen.N
    for e in range(nel):
        wk = ws[min(e // per, gen.N - 1)]
        A, I = wk * wk, wk ** 4 / 12
        d = P[e + 1] - P[e]
        Le = np.hypot(*d)
        c, s_ = d / Le
        EA, EI = gen.E * A / Le, gen.E * I / Le ** 3
        k = np.zeros((6, 6))
        k[np.ix_([0, 3], [0, 3])] = EA * np.array([[1, -1], [-1, 1]])
        kb = EI * np.array([[12, 6 * Le, -12, 6 * Le], [6 * Le, 4 * Le ** 2, -6 * Le, 2 * Le ** 2],
                            [-12, -6 * Le, 12, -6 * Le], [6 * Le, 2 * Le ** 2, -6 * Le, 4 * Le ** 2]])
        k[np.ix_([1, 2, 4, 5], [1, 2, 4, 5])] = kb
        T = np.zeros((6, 6))
        for b in (0, 3):
            T[b:b + 2, b:b + 2] = [[c, s_], [-s_, c]]
            T[b + 2, b + 2] = 1
        idx = list(range(3 * e, 3 * e + 6))
        K[np.ix_(idx, idx)] += T.T @ k @ T
        wgt = gen.RHO * 9.81 * A * Le / 2
        F[3 * e + 1] -= wgt
        F[3 * e + 4] -= wgt
    fixed = [0, 1, 3 * nel, 3 * nel + 1]
    free = [i for i in range(ndof) if i not in fixed]
    u = np.zeros(ndof)
    u[free] = np.linalg.solve(K[np.ix_(free, free)], F[free])
    return -u[3 * (nel // 2) + 1]


def run_compare(fcsim, out, mu, t_end, solvers, log):
    d = os.path.join(out, "mu_%.2f" % mu)
    if os.path.exists(os.path.join(d, "compare.csv")) and all(os.path.isdir(os.path.join(d, s)) for s in solvers):
        return d                                              # kept from an earlier call
    cmd = [fcsim, "study", "compare", os.path.join(ROOT, "cases", "masonry_arch.json"), "--solvers", ",".join(solvers),
           "--set", "time.t_end=%g" % t_end, "--set", "output.every=100000", "-o", d, "--overwrite"]
    for i in range(3):
        cmd += ["--set", "contacts[%d].mu=%g" % (i, mu)]
    t0 = time.time()
    with open(os.path.join(out, "mu_%.2f.log" % mu), "w") as f:
        f.write(" ".join(cmd) + "\n")
        f.flush()
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)
    log("mu = %.2f: %s in %.0f s (exit %d)" % (mu, " ".join(cmd[1:]), time.time() - t0, rc))
    if os.path.isdir(d):
        return d
    # a study with a failed run is kept in DIR.failed-<pid>
    for e in os.listdir(out):
        if e.startswith("mu_%.2f.failed-" % mu):
            return os.path.join(out, e)
    raise SystemExit("arch_study: no output for mu = %.2f (see %s)" % (mu, os.path.join(out, "mu_%.2f.log" % mu)))


def joints(h5, mu):
    """Per contact pair at the last contact output: largest gap (m), slipping points, largest
    |r_t| / (mu r_n) over the pair's active points."""
    g = h5["contacts"]
    last = g[sorted(g.keys())[-1]]
    pair, gap, st = last["pair"][()], last["gap"][()], last["status"][()]
    r = last["r_local"][()] if "r_local" in last else None
    res = {}
    for p in np.unique(pair):
        sel = pair == p
        use = 0.0
        if r is not None:
            a = sel & (r[:, 0] > 0)
            if a.any():
                use = float(np.max(np.hypot(r[a, 1], r[a, 2]) / (mu * r[a, 0])))
        res[int(p)] = (float(gap[sel].max()), int((st[sel] == 2).sum()), use)
    return res


def summarize(d, mu, solver):
    run = os.path.join(d, solver)
    st = read_csv(os.path.join(run, "stats.csv"))
    row = {"mu": mu, "solver": solver}
    with h5py.File(os.path.join(run, "run.h5"), "r") as h5:
        v = h5["verdict"].attrs
        verdict = v["verdict"]
        row["verdict"] = verdict.decode() if isinstance(verdict, bytes) else str(verdict)
        for k in ("collapse_time", "t_last", "drop_last", "max_abs_drop_after", "max_energy_after", "mgh", "rise"):
            row[k] = float(v[k])
        jt = joints(h5, mu) if "contacts" in h5 else {}
    row["steps"] = len(st)
    row["newton_failed"] = int((st["converged"] == 0).sum())
    row["contact_failed"] = int((st["contact_converged"] == 0).sum())
    row["max_contact_error"] = float(np.max(st["contact_error"]))
    row["mean_contact_it"] = float(np.mean(st["contact_it"]))
    wall = float(np.sum(st["step_time"]))
    row["wall_s"] = wall
    row["rate"] = row["t_last"] / wall if wall > 0 else float("nan")
    for k in ("detect_time", "w_time", "contact_solve_time"):
        row[k] = float(np.mean(st[k]))
    row["rest_time"] = float(np.mean(st["step_time"] - st["detect_time"] - st["w_time"] - st["contact_solve_time"]))
    row["max_opening"] = max([j[0] for j in jt.values()] or [float("nan")])
    row["slipping"] = sum(j[1] for j in jt.values())
    row["max_friction_use"] = max([j[2] for j in jt.values()] or [float("nan")])
    return row


COLS = ["mu", "solver", "verdict", "collapse_time", "t_last", "drop_last", "max_abs_drop_after", "max_energy_after", "steps", "newton_failed",
        "contact_failed", "max_contact_error", "mean_contact_it", "wall_s", "rate", "detect_time", "w_time", "contact_solve_time", "rest_time",
        "max_opening", "slipping", "max_friction_use"]


def fmt(v):
    return "%.4g" % v if isinstance(v, float) else str(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mus", default="1.0,0.5,0.2")
    ap.add_argument("--sweep", default="0.2:0.5:0.05", help="lo:hi:step, or '' for none")
    ap.add_argument("--t-end", type=float, default=10.0)
    ap.add_argument("-o", "--out", default=os.path.join(ROOT, "results", "arch_study"))
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("-j", "--jobs", type=int, default=1, help="studies at once (each one process; -j 1 for timings that compare)")
    ap.add_argument("--solvers", default=",".join(SOLVERS), help="contact solvers, each run by the study (default %(default)s)")
    a = ap.parse_args()
    solvers = [s for s in a.solvers.split(",") if s]
    os.makedirs(a.out, exist_ok=True)
    lines = []

    def log(s):
        print(s, flush=True)
        lines.append(s)

    mus = [float(m) for m in a.mus.split(",") if m]
    sweep = []
    if a.sweep:
        lo, hi, step = (float(x) for x in a.sweep.split(":"))
        sweep = [round(lo + i * step, 10) for i in range(int(round((hi - lo) / step)) + 1)]
    allmu = sorted(set(mus) | set(sweep), reverse=True)
    order = mus + [m for m in sorted(sweep, reverse=True) if m not in mus]   # the acceptance values first
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        dirs = dict(zip(order, pool.map(lambda mu: run_compare(a.fcsim, a.out, mu, a.t_end, solvers, log), order)))
    rows = []
    for mu in allmu:
        d = dirs[mu]
        for s in solvers:
            r = summarize(d, mu, s)
            rows.append(r)
            log("mu = %.2f %-6s: %s%s, drop at t = %g s: %.4g mm, rate %.3g, %d steps (%d Newton, %d contact not converged), max contact error %.3g, "
                "contact iterations per step %.4g; per step (ms): detection %.3g, W %.3g, contact solve %.3g, rest %.3g" %
                (mu, s, r["verdict"], " at t = %g s" % r["collapse_time"] if r["collapse_time"] >= 0 else "", r["t_last"], 1e3 * r["drop_last"], r["rate"],
                 r["steps"], r["newton_failed"], r["contact_failed"], r["max_contact_error"], r["mean_contact_it"],
                 1e3 * r["detect_time"], 1e3 * r["w_time"], 1e3 * r["contact_solve_time"], 1e3 * r["rest_time"]))
    with open(os.path.join(a.out, "arch_runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLS)
        for r in rows:
            w.writerow([r[c] for c in COLS])
    md = ["# Masonry arch: verdicts, mu sweep, contact solvers (%s)" % ", ".join(solvers), "", "t_end = %g s, `%s`" % (a.t_end, " ".join(sys.argv)), "",
          "| " + " | ".join(COLS) + " |", "|" + "---|" * len(COLS)]
    md += ["| " + " | ".join(fmt(r[c]) for c in COLS) + " |" for r in rows]
    md.append("")
    if sweep:
        for s in solvers:
            st = [r["mu"] for r in rows if r["solver"] == s and r["mu"] in sweep and r["verdict"] == "stands"]
            # the smallest mu from which every larger mu of the sweep stands
            smallest = None
            for mu in sorted(sweep, reverse=True):
                if mu in st:
                    smallest = mu
                else:
                    break
            log("sweep %s: the arch stands from mu = %s (step %g)" % (s, "%.2f" % smallest if smallest is not None else "none", sweep[1] - sweep[0] if len(sweep) > 1 else 0))
    delta = frame_sag()
    log("elastic sag estimate, the monolithic two-hinged rib (2-D frame model): %.4g mm" % (1e3 * delta))
    top = max(allmu)
    d = {r["solver"]: r["drop_last"] for r in rows if r["mu"] == top}
    if "nsgs" in d:
        for s in solvers:
            if s != "nsgs":
                log("settling drop at mu = %.2f: %s %.4g mm, nsgs %.4g mm, |%s - nsgs| / nsgs = %.3g %%" %
                    (top, s, 1e3 * d[s], 1e3 * d["nsgs"], s, 100 * abs(d[s] - d["nsgs"]) / abs(d["nsgs"])))
        log("settling drop at mu = %.2f: nsgs / rib = %.3g" % (top, d["nsgs"] / delta))
    md += ["```"] + lines + ["```", ""]
    with open(os.path.join(a.out, "arch_study.md"), "w") as f:
        f.write("\n".join(md))
    print("arch_study: wrote %s and %s" % (os.path.join(a.out, "arch_runs.csv"), os.path.join(a.out, "arch_study.md")))


if __name__ == "__main__":
    sys.exit(main())
