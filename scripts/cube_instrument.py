#!/usr/bin/python3
"""courtecuisse2010 Fig. 4: the contact force on an instrument pressing a Mooney-Rivlin cube, with the
compliance `exact`, `precomputed` (from the rest configuration) and `lagged` (async, delay 3).

cases/cube_instrument.json: the unit cube hinged on its bottom edge x = 1, z = 0 is pushed down by a
rigid sphere replaying cases/trajectories/cube_instrument_push.csv; it turns by about 75 degrees.
Every run also runs the 1 kHz haptic loop (haptic.csv: the force the device renders between two
steps, from the step's frozen contact problem and so from that compliance's W; doc/haptic.md). The
haptic loop runs after each step and does not change the simulation.

Runs (RUNS below): exact; precomputed; lagged = async CHOLMOD factorization requested every 3 steps
and taken 3 steps after its request (the paper's delay for 512 nodes, its Table: 3 steps), shape
matching rotation; lagged_none = the same, not rotated; frozen / frozen_none = lagged never
refreshed (the first step's factorization through the whole 75 degree turn), rotated or not; and
with mu = 0.3: exact_mu, lagged_mu, frozen_mu.

Per run and per step, the force on the instrument (minus the contact force on the cube) and the
cube's rotation (the angle in the xz-plane of the segment from the node nearest (0, 0.5, 0) to the
one nearest (0, 0.5, 1)). Errors against exact (of the same mu): max over the steps of |F - F_exact|
over the peak |F_exact|, for the step forces (probes.csv) and for the haptic ticks (haptic.csv),
over the whole trajectory and over the steps where the cube has turned >= 60 degrees. A run is stopped at its first step that
does not converge (status "failed: step N ...").

Writes OUT/steps.csv (run, step, time, fx, fy, fz, |f|, rotation), OUT/ticks.csv (run, time, |f|)
and OUT/summary.csv (one row per run).

  /usr/bin/python3 scripts/cube_instrument.py [--fcsim bin/fcsim] [--refine 2] [--dt 0.01] [--runs a,b] -o OUT
"""
import argparse
import csv
import glob
import math
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = os.path.join(ROOT, "cases", "cube_instrument.json")
LAG = ["compliance.type=lagged", "compliance.refresh=3", "compliance.async=true", "compliance.delay=3"]
FROZEN = ["compliance.type=lagged", "compliance.refresh=100000"]
RUNS = [
    ("exact", 0.0, ["compliance.type=exact"]),
    ("precomputed", 0.0, ["compliance.type=precomputed"]),
    ("lagged", 0.0, LAG + ["compliance.rotation=shape_matching"]),
    ("lagged_none", 0.0, LAG + ["compliance.rotation=none"]),
    ("frozen", 0.0, FROZEN + ["compliance.rotation=shape_matching"]),
    ("frozen_none", 0.0, FROZEN + ["compliance.rotation=none"]),
    ("exact_mu", 0.3, ["compliance.type=exact"]),
    ("lagged_mu", 0.3, LAG + ["compliance.rotation=shape_matching"]),
    ("frozen_mu", 0.3, FROZEN + ["compliance.rotation=shape_matching"]),
]
ROT_BIG = 60.0  # degrees: the part of the trajectory the acceptance looks at separately


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(ln for ln in f if not ln.startswith("#")))


def run(fcsim, out, name, mu, sets, refine, dt, reuse):
    """one fcsim run; its status: "ok", the first step that did not converge (the run is stopped
    there), or for exit 1 fcsim's last line (an error that ends the run leaves no steps)"""
    odir = os.path.join(out, name)
    if reuse and os.path.exists(os.path.join(odir, "probes.csv")):
        return name, mu, odir, "ok"
    for old in glob.glob(odir + ".failed-*"):
        shutil.rmtree(old)
    argv = [fcsim, "run", CASE, "-o", odir, "--overwrite", "--set", "bodies[0].mesh.refine=%d" % refine,
            "--set", "time.dt=%r" % dt, "--set", "contacts[0].mu=%r" % mu, "--set", "haptic.rate=1000"]
    for s in sets:
        argv += ["--set", s]
    # the first step that does not converge ends the run: fcsim would go on to t_end and fail then
    # (exit 1), and each further step costs the 40 Newton iterations of a failed one (about 25 s at
    # refine 2 for frozen_none)
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = []
    for ln in p.stderr:
        lines.append(ln.strip())
        if re.search(r"warning: step \d+ .*not converged", ln):
            p.terminate()
            p.wait()
            return name, mu, None, "failed: " + ln.strip().replace("fcsim: warning: ", "") + " (the run stopped there)"
    rc = p.wait()
    if rc == 0:
        return name, mu, odir, "ok"
    if rc != 1:
        sys.exit("cube_instrument: %s: exit %d (%s)" % (name, rc, lines[-1] if lines else ""))
    failed = sorted(glob.glob(odir + ".failed-*"))
    return name, mu, (failed[-1] if failed else None), "exit 1: " + (lines[-1] if lines else "")


def rotation_deg(r):
    """the cube's turn: the far side's segment (0, 0.5, 0)-(0, 0.5, 1) against its reference (0, 0, 1)"""
    vx = float(r["top_x"]) - float(r["far_x"])
    vz = 1.0 + float(r["top_z"]) - float(r["far_z"])
    return math.degrees(math.atan2(-vx, vz))


def load(name, odir):
    """per step (time, force on the tool, rotation), per tick (time, force), stats rows"""
    if odir is None:
        return [], [], []
    pr = read_csv(os.path.join(odir, "probes.csv"))
    steps = [(float(r["time"]), [-float(r["contact_" + c]) for c in "xyz"], rotation_deg(r)) for r in pr]
    hp = os.path.join(odir, "haptic.csv")
    ticks = [(float(r["time"]), [float(r["f" + c]) for c in "xyz"]) for r in read_csv(hp)] if os.path.exists(hp) else []
    st = read_csv(os.path.join(odir, "stats.csv"))
    return steps, ticks, st


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def errors(steps, ticks, ref_steps, ref_ticks):
    """max |F - F_ref| / peak |F_ref| over the steps both runs made, all and where the turn >= ROT_BIG;
    the same over the haptic ticks"""
    peak = max(math.sqrt(sum(v * v for v in f)) for _, f, _ in ref_steps)
    n = min(len(steps), len(ref_steps))
    if n == 0:
        return peak, float("nan"), float("nan"), float("nan"), float("nan")
    e_all = max(dist(steps[i][1], ref_steps[i][1]) for i in range(n)) / peak
    big = [i for i in range(n) if ref_steps[i][2] >= ROT_BIG]
    e_big = max(dist(steps[i][1], ref_steps[i][1]) for i in big) / peak if big else float("nan")
    m = min(len(ticks), len(ref_ticks))
    e_tick = max(dist(ticks[i][1], ref_ticks[i][1]) for i in range(m)) / peak if m else float("nan")
    t_big = ref_steps[big[0]][0] if big else float("inf")
    tb = [i for i in range(m) if ref_ticks[i][0] >= t_big]
    e_tick_big = max(dist(ticks[i][1], ref_ticks[i][1]) for i in tb) / peak if tb else float("nan")
    return peak, e_all, e_big, e_tick, e_tick_big


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("--refine", type=int, default=2)
    ap.add_argument("--dt", type=float, default=0.01)
    ap.add_argument("--runs", default=",".join(r[0] for r in RUNS), help="names of RUNS (exact and exact_mu are always run)")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--reuse", action="store_true", help="keep the runs already in OUT (a run folder with probes.csv)")
    ap.add_argument("-o", dest="out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    want = set(a.runs.split(",")) | {"exact"} | ({"exact_mu"} if any(n.endswith("_mu") for n in a.runs.split(",")) else set())
    todo = [r for r in RUNS if r[0] in want]
    with ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
        done = list(ex.map(lambda r: run(a.fcsim, a.out, r[0], r[1], r[2], a.refine, a.dt, a.reuse), todo))
    data = {name: (mu, status) + load(name, odir) for name, mu, odir, status in done}
    with open(os.path.join(a.out, "steps.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "mu", "time", "fx", "fy", "fz", "f", "rotation_deg"])
        for name, (mu, _, steps, _, _) in data.items():
            for t, fv, rot in steps:
                w.writerow([name, mu, "%.6g" % t] + ["%.10g" % v for v in fv] + ["%.10g" % math.sqrt(sum(v * v for v in fv)), "%.6g" % rot])
    with open(os.path.join(a.out, "ticks.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "mu", "time", "f"])
        for name, (mu, _, _, ticks, _) in data.items():
            for t, fv in ticks:
                w.writerow([name, mu, "%.6g" % t, "%.10g" % math.sqrt(sum(v * v for v in fv))])
    with open(os.path.join(a.out, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "mu", "status", "steps", "max_rotation_deg", "peak_force_N", "err_steps", "err_steps_rot60", "err_ticks", "err_ticks_rot60",
                    "step_time_s", "newton_it", "krylov_it", "w_time_s", "max_refresh_lag"])
        for name, (mu, status, steps, ticks, st) in data.items():
            ref = data["exact_mu" if mu > 0 else "exact"]
            peak, e_all, e_big, e_tick, e_tick_big = errors(steps, ticks, ref[2], ref[3])
            w.writerow([name, mu, status, max(0, len(steps) - 1), "%.2f" % max([s[2] for s in steps] or [float("nan")]), "%.6g" % peak,
                        "%.3e" % e_all, "%.3e" % e_big, "%.3e" % e_tick, "%.3e" % e_tick_big,
                        "%.4f" % (sum(float(r["step_time"]) for r in st) / max(1, len(st))),
                        sum(int(r["newton_it"]) for r in st), sum(int(float(r["krylov_it"])) for r in st),
                        "%.3f" % sum(float(r["w_time"]) for r in st), max([int(float(r["refresh_lag"])) for r in st] or [0])])
    for r in read_csv(os.path.join(a.out, "summary.csv")):
        print("cube_instrument %-15s %s" % (r["run"], " ".join("%s=%s" % (k, v) for k, v in r.items() if k != "run")))


if __name__ == "__main__":
    main()
