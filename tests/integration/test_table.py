"""The table with legs (issue 14; cases/table.json, cases/table_reinforced.json): analytic checks
and small smoke runs of the table's scripts.

1. Equilibrium (quasi-static, so exact up to Newton's tolerance): the table's weight is
   rho g V = 1000 * 9.81 * (0.40*0.30*0.03 + 4*0.03*0.03*0.30) = 45.9108 N; with the 50 N load
   on the top's centre patch the floor carries 95.9108 N (the issue's 95.91 N), asserted to 1e-6
   relative, and by the mesh's two mirror symmetries (scripts/table_mesh.py) each leg a quarter,
   23.9777 N, to 1e-3. Gravity alone: 45.9108 N. The braced table: 52.03224 + 50 N.
2. Onset of global sliding under a horizontal push H on the top's end face (x = -0.20, along
   +x), with gravity + 50 N and mu = 0.3: a quasi-static equilibrium exists only while the
   floor's friction can balance H, i.e. H <= mu (W + F_v) = 28.773 N (Coulomb, whatever the
   distribution of the normal forces among the legs). At H = 28 N the step converges with
   sum r_x = -H to 1e-6 (the table is held); at H = 29 N it does not converge (no equilibrium:
   the table slides), every active contact slips (status 2) with its friction force along -x,
   and the push face moves 10x more in that step than per newton of load before. So sliding
   starts within the 1 N increment 28 -> 29 N that contains 28.773 N, and not before. (The
   contact statuses alone cannot tell: the soft legs bend and every foot contact is already in
   "slip" at 25 N; what changes at 28.77 N is that the slips no longer stop.)
3. Smoke: scripts/table_study.py (2 loads), scripts/table_cpu.py (2 levels),
   scripts/plot_delassus.py (plain and braced table) write their tables and figures; the figures'
   properties that theory fixes are asserted (pyramid error falls with k; contacts per level
   4 (na+1)^2; braces couple the legs).
4. Bad input: lemke's k below 3 or not an integer, N = 0 loads, no levels: one line, exit 2."""
import csv
import math
import os
import subprocess
import h5py
from fctest import ROOT, FCSIM, run, outdir, probes, stats, figure, check

W_TABLE = 1000 * 9.81 * (0.40 * 0.30 * 0.03 + 4 * 0.03 * 0.03 * 0.30)
W_BRACED = W_TABLE + 1000 * 9.81 * (2 * 0.31 + 2 * 0.21) * 0.03 * 0.02
FV = 50.0
MU = 0.3
check(abs(W_TABLE - 45.9108) < 1e-9 and abs(W_TABLE + FV - 95.9108) < 1e-9, "weight from the dimensions")


def legs(d):
    p = probes(d)
    return [p["leg%d_z" % i][-1] for i in range(1, 5)], p


# 1. equilibrium
for case, weight, load in (("table", W_TABLE, FV), ("table", W_TABLE, 0.0), ("table_reinforced", W_BRACED, FV)):
    d = outdir("table/%s_%g" % (case, load))
    run(["run", "cases/%s.json" % case, "-o", d, "--set", "time.steps=1",
         "--set", "bodies[0].loads[0].force=[0,0,%g]" % -load])
    z, p = legs(d)
    total = weight + load
    spread = max(abs(v - total / 4) for v in z) / (total / 4)
    figure("%s, gravity + %g N: sum of normal reactions %.9f N vs %.5f N (relative %.1e); legs %s N, "
           "largest departure from a quarter %.1e" % (case, load, sum(z), total, abs(sum(z) - total) / total,
                                                      ", ".join("%.5f" % v for v in z), spread))
    check(abs(sum(z) - total) <= 1e-6 * total, "sum of normal reactions = weight + load to 1e-6")
    check(spread <= 1e-3, "each leg carries a quarter to 1e-3")
    tang = max(abs(sum(p["leg%d_%s" % (i, c)][-1] for i in range(1, 5))) for c in "xy")
    check(tang <= 1e-6 * total, "no horizontal load, no horizontal resultant (%.1e N)" % tang)

# 2. onset of global sliding
HS = [28.0, 29.0]
d = outdir("table/push")
ramp = '{"type":"table","table":[[0,0]%s]}' % "".join(",[%d,%.17g]" % (k + 1, h / 40) for k, h in enumerate(HS))
run(["run", "cases/table.json", "-o", d, "--set", "time.steps=%d" % len(HS),
     "--set", "bodies[0].loads[0].force=[0,0,-50]", "--set", "bodies[0].loads[1].force=[40,0,0]",
     "--set", "bodies[0].loads[1].ramp=" + ramp, "--set", "time.newton.allow_failure=true"])
p, s = probes(d), stats(d)
Hc = MU * (W_TABLE + FV)
with h5py.File(os.path.join(d, "run.h5"), "r") as f:
    status = {int(f["contacts"][k].attrs["step"]): (f["contacts"][k]["status"][()], f["contacts"][k]["force"][()])
              for k in f["contacts"]}
held = []
for k, h in enumerate(HS):
    step = k + 1
    conv = s["converged"][k] == 1
    rx = sum(p["leg%d_x" % i][step] for i in range(1, 5))
    rn = sum(p["leg%d_z" % i][step] for i in range(1, 5))
    st, force = status[step]
    act = st > 0
    du = p["push_x"][step] - p["push_x"][step - 1]
    figure("push H = %.1f N (mu (W + F_v) = %.3f N): converged %d, sum r_x %.6f N, sum r_n %.6f N, "
           "active %d of which slip %d, push face moved %.4f m in the step"
           % (h, Hc, conv, rx, rn, act.sum(), (st == 2).sum(), du))
    if h < Hc:
        check(conv, "H = %g < %.3f N: static equilibrium found" % (h, Hc))
        check(abs(rx + h) <= 1e-6 * h, "held: the floor's friction balances the push")
        check(abs(rn - (W_TABLE + FV)) <= 1e-6 * (W_TABLE + FV), "normal reactions unchanged by the push")
        held.append(du / (h - (HS[k - 1] if k else 0)))
    else:
        check(not conv, "H = %g > %.3f N: no static equilibrium (global sliding)" % (h, Hc))
        check(act.sum() > 0 and (st[act] == 2).all(), "every active contact slips")
        check((force[act, 0] < 0).all(), "every friction force opposes the push")
        check(du >= 10 * held[-1], "the slide is not a small increment (%.3f m vs %.4f m/N held)" % (du, held[-1]))
figure("global sliding starts between H = 28 and 29 N (one load increment), predicted mu (W + F_v) = %.4f N" % Hc)

# 3. smoke runs of the scripts
py = "/usr/bin/python3"
env = dict(os.environ, FCSIM_BIN=FCSIM)
d = outdir("table/study")
c = subprocess.run([py, "scripts/table_study.py", "--n", "2", "--ks", "4,16", "-o", d], cwd=ROOT,
                   capture_output=True, text=True, env=env)
print(c.stdout[-2000:], c.stderr[-2000:])
check(c.returncode == 0, "table_study.py runs")
for f in ("study.csv", "study.md", "study.png"):
    check(os.path.isfile(os.path.join(d, f)), "table_study.py wrote " + f)
rows = list(csv.DictReader(open(os.path.join(d, "study.csv"))))
mean = {k: sum(float(r["delta_percent"]) for r in rows if int(r["k"]) == k) / 2 for k in (0, 4, 16)}
figure("study smoke (2 loads): mean delta%% lemke k=4 %.3g, k=16 %.3g (nsgs %.1g)" % (mean[4], mean[16], mean[0]))
check(mean[0] == 0, "delta is measured against nsgs")
# the inscribed pyramid's force direction is off by up to pi/k: the error falls as k grows
check(0 < mean[16] < mean[4], "lemke's pyramid error falls from k = 4 to k = 16")

d = outdir("table/cpu")
c = subprocess.run([py, "scripts/table_cpu.py", "--levels", "1,2", "--reps", "1", "-o", d], cwd=ROOT,
                   capture_output=True, text=True, env=env)
print(c.stdout[-2000:], c.stderr[-2000:])
check(c.returncode == 0, "table_cpu.py runs")
rows = list(csv.DictReader(open(os.path.join(d, "cpu.csv"))))
check([int(r["contacts"]) for r in rows] == [4 * 2 ** 2, 4 * 3 ** 2], "every foot node is a contact: 4 (na+1)^2")
check(os.path.isfile(os.path.join(d, "cpu.png")) and os.path.isfile(os.path.join(d, "cpu.md")), "cpu.png, cpu.md")

ratios = {}
for case in ("table", "table_reinforced"):
    d = outdir("table/delassus_" + case)
    run(["run", "cases/%s.json" % case, "-o", d, "--set", "time.steps=1", "--set", "time.integrator=backward_euler",
         "--set", "time.dt=0.01", "--set", "time.newton.shift=0", "--set", "output.fclib=true",
         "--set", "bodies[0].loads[0].force=[0,0,-50]"])
    png, cs = os.path.join(d, "W.png"), os.path.join(d, "legs.csv")
    c = subprocess.run([py, "scripts/plot_delassus.py", os.path.join(d, "fclib", "step_000001.hdf5"), "--run",
                        os.path.join(d, "run.h5"), "--step", "1", "-o", png, "--csv", cs], cwd=ROOT,
                       capture_output=True, text=True)
    print(c.stdout, c.stderr)
    check(c.returncode == 0 and os.path.isfile(png), "plot_delassus.py draws " + case)
    lines = open(cs).read().splitlines()
    G = [[float(v) for v in l.split(",")[1:]] for l in lines[1:5]]
    ratios[case] = (float(lines[5].split(",")[1]), G[0][1], G[0][3], G[0][2])
    # the mesh's mirror symmetries: leg 1 sees legs 2 and 4 as leg 3 sees legs 4 and 2
    check(abs(G[0][1] - G[2][3]) <= 1e-6 * G[0][1] and abs(G[0][3] - G[2][1]) <= 1e-6 * G[0][3], "symmetric couplings")
pl, re_ = ratios["table"], ratios["table_reinforced"]
figure("Delassus coupling between legs / within a leg: plain %.3e, braced %.3e (x%.0f); braced pair 1-2 %.3e vs %.3e, "
       "1-4 %.3e vs %.3e, unbraced diagonal 1-3 %.3e vs %.3e" % (pl[0], re_[0], re_[0] / pl[0], re_[1], pl[1], re_[2], pl[2], re_[3], pl[3]))
check(re_[0] > 10 * pl[0], "the braces couple the legs (ratio at least 10x the plain table's)")
check(re_[1] > 10 * pl[1] and re_[2] > 10 * pl[2], "braced neighbours at least 10x more coupled")

# 4. bad input: one line, exit 2
bad = [("lemke k below 3", [FCSIM, "run", "cases/table.json", "-o", os.path.join(ROOT, "tests", "out", "table", "bad1"),
                            "--set", "time.steps=1", "--set", "contact_solver.type=lemke", "-fc_contact_solver_lemke_k", "2"],
        ["-fc_contact_solver_lemke_k", ">= 3"]),
       ("lemke k not an integer", [FCSIM, "run", "cases/table.json", "-o", os.path.join(ROOT, "tests", "out", "table", "bad2"),
                                   "--set", "time.steps=1", "--set", "contact_solver.type=lemke", "-fc_contact_solver_lemke_k", "2.5"],
        ["-fc_contact_solver_lemke_k", "expected an integer", "2.5"]),
       ("lemke:k=4.5 in fclib compare", [FCSIM, "fclib", "compare", "tests/bad/fclib/baseline_local.hdf5", "--solvers", "nsgs,lemke:k=4.5"],
        ["lemke_k", "expected an integer"]),
       ("empty random study", [py, "scripts/table_study.py", "--n", "0", "-o", os.path.join(ROOT, "tests", "out", "table", "bad3")],
        ["table_study.py", "--n", "at least one"]),
       ("study, lemke k below 3", [py, "scripts/table_study.py", "--ks", "2,4", "-o", os.path.join(ROOT, "tests", "out", "table", "bad4")],
        ["table_study.py", "--ks", "3 sides"]),
       ("cpu, no level", [py, "scripts/table_cpu.py", "--levels", "0", "-o", os.path.join(ROOT, "tests", "out", "table", "bad5")],
        ["table_cpu.py", "--levels"])]
for name, cmd, subs in bad:
    c = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    err = c.stderr.strip()
    ok = c.returncode == 2 and len(err.splitlines()) == 1 and all(x in err for x in subs)
    print("bad input %s: exit %d: %s" % (name, c.returncode, err))
    check(ok, "bad input %s: one line naming it, exit 2" % name)
figure("table bad inputs: %d cases, one line and exit 2 each" % len(bad))
print("test_table: OK")
