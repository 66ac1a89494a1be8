#!/usr/bin/python3
"""CPU time against the number of contacts as the table's feet are refined (issue 14 item 3,
duriez2006 Fig. 8): one command,

    /usr/bin/python3 scripts/table_cpu.py [--levels 1,2,3,4,5] [--k 16] [--reps 3] [-o results/table_cpu]

Level na is the table of scripts/table_mesh.py with na cells across each leg, so (na + 1)^2
contact nodes per foot (the grid lines of the legs run through the top: the whole mesh grows
with na, but only the feet change the contact problem). Each level runs one implicit step (backward Euler,
dt = 0.01 s, from rest: every foot node is a contact) of cases/table.json (gravity, 50 N down
and 15 N along +x on the top's centre patch, mu = 0.3: most feet nodes sliding) with output.fclib=true, and its contact problem is solved by nsgs and by
lemke with k sides (`fcsim fclib compare`, the best of --reps solves of each: the contact solve
alone, not the FE step). Writes DIR/cpu.csv, DIR/cpu.md (with the least-squares slopes of
log t against log m) and DIR/cpu.png (log-log). Exit 2 with one line on bad arguments.
"""
import argparse
import csv
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import table_mesh  # noqa: E402


def die(msg):
    print("table_cpu.py: " + msg, file=sys.stderr)
    sys.exit(2)


def slope(xs, ys):
    """least-squares slope of log y against log x"""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((x - mx) ** 2 for x in lx)
    return sum((x - mx) * (y - my) for x, y in zip(lx, ly)) / sxx if sxx > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description="CPU time against contacts on the table (issue 14)")
    ap.add_argument("--levels", default="1,2,3,4,5", help="cells across a leg, one level each")
    ap.add_argument("--k", type=int, default=16, help="lemke's pyramid sides")
    ap.add_argument("--reps", type=int, default=3, help="solves per solver and level (the best counts)")
    ap.add_argument("--fcsim", default=os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("-o", default="results/table_cpu", help="output directory (replaced)")
    a = ap.parse_args()
    try:
        levels = [int(x) for x in a.levels.split(",")]
    except ValueError:
        die("--levels: expected integers separated by commas, got '%s'" % a.levels)
    if not levels or min(levels) < 1:
        die("--levels: every level is at least 1 cell across a leg, got '%s'" % a.levels)
    if a.k < 3:
        die("--k: a pyramid has at least 3 sides, got %d" % a.k)
    if a.reps < 1:
        die("--reps: at least 1, got %d" % a.reps)
    if os.path.exists(a.o):
        shutil.rmtree(a.o)
    os.makedirs(a.o)
    rows = []
    for na in levels:
        msh = os.path.abspath(os.path.join(a.o, "table_na%d.msh" % na))
        coords, tets, groups = table_mesh.build(False, na, 0.025, 0.03)
        table_mesh.write(msh, coords, tets, groups)
        d = os.path.join(a.o, "na%d" % na)
        cmd = [a.fcsim, "run", os.path.join(ROOT, "cases", "table.json"), "-o", d, "-q",
               "--set", "time.steps=1", "--set", "time.integrator=backward_euler", "--set", "time.dt=0.01",
               "--set", "time.newton.shift=0", "--set", "output.fclib=true", "--set", "output.vtk=false",
               "--set", "bodies[0].mesh.file=%s" % msh, "--set", "bodies[0].loads[0].force=[15,0,-50]"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print(" ".join(cmd) + "\n" + p.stderr, file=sys.stderr)
            sys.exit(1)
        fcl = os.path.join(d, "fclib", "step_000001.hdf5")
        best = {}
        for _ in range(a.reps):
            cmd = [a.fcsim, "fclib", "compare", fcl, "--solvers",
                   "nsgs,lemke:k=%d:max_size=1000000" % a.k, "--format", "csv", "--tol", "1e-10", "--max-it", "1000000"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode not in (0, 1):   # 1: lemke's pyramid answer is not a cone solution
                print(" ".join(cmd) + "\n" + p.stderr, file=sys.stderr)
                sys.exit(1)
            for r in csv.DictReader(p.stdout.splitlines()):
                s = "nsgs" if r["solver"] == "nsgs" else "lemke"
                t = float(r["time"])
                if s not in best or t < best[s]["time"]:
                    best[s] = {"time": t, "it": int(r["iterations"]), "m": int(r["contacts"]),
                               "error": float(r["error"]), "delta": float(r["delta_percent"])}
        rows.append({"na": na, "nodes": len(coords), "tets": len(tets), "contacts": best["nsgs"]["m"],
                     "nsgs_time_s": best["nsgs"]["time"], "nsgs_iterations": best["nsgs"]["it"],
                     "nsgs_error": best["nsgs"]["error"], "lemke_time_s": best["lemke"]["time"],
                     "lemke_pivots": best["lemke"]["it"], "lemke_error": best["lemke"]["error"],
                     "lemke_delta_percent": best["lemke"]["delta"]})
        print("na %d: %d contacts, nsgs %.3e s (%d sweeps), lemke k=%d %.3e s (%d pivots)" % (
            na, rows[-1]["contacts"], rows[-1]["nsgs_time_s"], rows[-1]["nsgs_iterations"], a.k,
            rows[-1]["lemke_time_s"], rows[-1]["lemke_pivots"]))
        sys.stdout.flush()
    with open(os.path.join(a.o, "cpu.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    ms = [r["contacts"] for r in rows]
    s_n = slope(ms, [r["nsgs_time_s"] for r in rows]) if len(rows) > 1 else float("nan")
    s_l = slope(ms, [r["lemke_time_s"] for r in rows]) if len(rows) > 1 else float("nan")
    lines = ["# CPU time against contacts on the table (issue 14, duriez2006 Fig. 8)", "",
             "Command: `/usr/bin/python3 scripts/table_cpu.py --levels %s --k %d --reps %d`" % (a.levels, a.k, a.reps), "",
             "| cells per leg | contacts | tets | nsgs time [s] | nsgs sweeps | lemke k=%d time [s] | pivots | delta%% |" % a.k,
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %d | %d | %d | %.3e | %d | %.3e | %d | %.3g |" % (
            r["na"], r["contacts"], r["tets"], r["nsgs_time_s"], r["nsgs_iterations"], r["lemke_time_s"],
            r["lemke_pivots"], r["lemke_delta_percent"]))
    lines += ["", "Fitted slopes of log t against log m: nsgs %.2f, lemke k=%d %.2f." % (s_n, a.k, s_l)]
    with open(os.path.join(a.o, "cpu.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import figstyle  # one style for every figure: scripts/figstyle.py
        figstyle.apply()
        fig, ax = plt.subplots(figsize=(5, 4))
        ax.loglog(ms, [r["nsgs_time_s"] for r in rows], "o-", label="nsgs (slope %.2f)" % s_n)
        ax.loglog(ms, [r["lemke_time_s"] for r in rows], "s-", label="lemke k=%d (slope %.2f)" % (a.k, s_l))
        ax.set_xlabel("contacts m")
        ax.set_ylabel("contact solve time [s]")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(a.o, "cpu.png"), dpi=100)
    except ImportError:
        print("table_cpu.py: matplotlib missing, no cpu.png", file=sys.stderr)


if __name__ == "__main__":
    main()
