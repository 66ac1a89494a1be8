"""make bench: wall time per haptic tick (src/run/haptic.c, doc/haptic.md; issue 16 item 3).

Runs cases/haptic_sphere.json (a few contacts) and the same case refined, with a large sphere
pressing most of the block's top (about 300 contacts), with the contact solver(s) given, and
reads the ticks' wall times from run.h5:/haptic/wall_time (shift of q + solve + force). Prints a
table: ticks, contacts, median and 99th percentile of the tick time, the fraction of ticks within
1 ms (the goal: 99 % for up to 300 contacts), the mean iterations and the exhausted ticks.
Timings on a shared machine vary from run to run: figures, never assertions.

    /usr/bin/python3 bench/haptic_tick.py [--solvers nsgs,pgs] [--budgets 20] [--runs 1] [--baseline BIN]

--baseline BIN also runs every configuration with another fcsim binary (e.g. one built from main),
each run of this tree followed by the baseline's, and adds the baseline's rows and the ratio of
the medians (this tree / baseline): a before/after on the same machine load.

At ~300 contacts all the contacts touch one body, so W is dense (fill 1, doc/contact.md "Storage
of W"): (3m)² doubles = 8.3 MB at m = 340. nsgs solves a tick's frozen problem through
FcContactSolverFreeze (doc/haptic.md §6): W's set-up once per step interval, u carried from tick
to tick, so a tick costs its sweeps, and a sweep reads the rows of the contacts whose force
changes (u += W_{:,a} d): 3 rows of 8 KB each per pressed contact, none for a separated one.
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")
OUT = os.path.join(ROOT, "bench", "out", "haptic_tick")

CASES = [
    ("haptic_sphere", []),
    # refine 3: 17 x 17 = 289 nodes on the top, all within the alarm distance of a sphere of
    # radius 10 m pressed 0.02 m in (the top's corners sag 0.025 m below its lowest point)
    ("haptic_sphere_300", ["bodies[0].mesh.refine=3", 'bodies[1].shape={"type": "sphere", "center": [0.5, 0.5, 11.0], "radius": 10.0}',
                           'bodies[1].motion.displacement={"table": [[0, 0, 0, 0], [0.2, 0, 0, -0.02], [0.5, 0.05, 0, -0.02]]}',
                           "time.t_end=0.5", "contacts[0].alarm=0.1"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--solvers", default="nsgs")
    ap.add_argument("--budgets", default="20", help="haptic.max_iterations values")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--baseline", default=None, help="another fcsim binary, run after each run of this tree")
    a = ap.parse_args()
    bins = [("", FCSIM)] + ([("baseline", os.path.abspath(a.baseline))] if a.baseline else [])
    rows = []
    for name, sets in CASES:
        for solver, budget in [(s, b) for s in a.solvers.split(",") for b in a.budgets.split(",")]:
            acc = {tag: ([], [], [0], [], [0], []) for tag, _ in bins}
            for k in range(a.runs):
                for tag, exe in bins:
                    w, it, ex, m, nt, act = acc[tag]
                    d = os.path.join(OUT, "%s_%s_%s_%d%s" % (name, solver, budget, k, "_" + tag if tag else ""))
                    cmd = [exe, "run", os.path.join("cases", "haptic_sphere.json"), "-q", "-o", d, "--overwrite", "--set", "contact_solver.type=" + solver, "--set", "output.vtk=false",
                           "--set", "haptic.max_iterations=" + budget]
                    for s in sets:
                        cmd += ["--set", s]
                    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
                    if p.returncode != 0:
                        sys.exit("haptic_tick: %s failed:\n%s" % (" ".join(cmd), p.stderr))
                    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
                        g = f["haptic"]
                        w.append(g["wall_time"][()])
                        it.append(g["iterations"][()])
                        m.append(g["contacts"][()])
                        act.append(g["active"][()])
                        ex[0] += int(g.attrs["exhausted"])
                        nt[0] += int(g.attrs["ticks"])
            for tag, _ in bins:
                w, it, ex, m, nt, act = acc[tag]
                w, it, m, act = np.concatenate(w), np.concatenate(it), np.concatenate(m), np.concatenate(act)
                rows.append((name, solver + " (budget %s)" % budget + (" " + tag if tag else ""), nt[0], int(np.median(m)), int(m.max()), np.median(w) * 1e6, np.percentile(w, 99) * 1e6, np.mean(w <= 1e-3), np.mean(it), ex[0], int(np.median(act))))
    print("haptic tick wall time (shift + solve + force; %d run(s) each; goal: 99 %% of ticks within 1 ms for <= 300 contacts)" % a.runs)
    print("| case | solver | ticks | contacts (median/max) | tool contacts pressed (median) | median µs | p99 µs | within 1 ms | mean iterations | exhausted |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %d | %d / %d | %d | %.1f | %.1f | %.2f %% | %.2f | %d |" % (r[0], r[1], r[2], r[3], r[4], r[10], r[5], r[6], 100 * r[7], r[8], r[9]))
        print("FIGURE haptic tick %s %s: median %.1f us, p99 %.1f us, %.2f %% within 1 ms (%d contacts max)" % (r[0], r[1], r[5], r[6], 100 * r[7], r[4]))
    if a.baseline:
        for i in range(0, len(rows), 2):
            print("FIGURE haptic tick %s %s: median %.3g x the baseline's, p99 %.3g x" % (rows[i][0], rows[i][1], rows[i][5] / rows[i + 1][5], rows[i][6] / rows[i + 1][6]))


if __name__ == "__main__":
    main()
