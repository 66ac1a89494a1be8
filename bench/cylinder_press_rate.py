"""Real-time rate of the force-controlled cylinder press at han2023's time step (issue 11).

han2023 (Table I) runs its cylinder press (Sec. VII-A: 4151 tetrahedra, 3796 DoFs counting 3 per
mesh vertex plus the rigid plate's) with dt = 0.01 s at a real-time rate of 0.06 (simulated time
over CPU time, one thread, Intel Xeon Gold 6226R). This runs cases/cylinder_press_force.json with
dt = 0.01 s through the first 20 s of its 500 s load ramp (well past the first contact, which is
at t = 0: the plate starts touching the cylinder) at mesh level 0, and through the first 2 s at
level 1, and prints the rate of each run beside Drake's.

The ramp is given explicitly (t1 = 500 s): a linear ramp ends at time.t_end by default
(doc/case-format.md, "Ramps"), so `--set time.t_end=20` alone would apply the whole 1.4 MN/m
within 20 s, a 25x faster load than the case's (and with t_end = 0.4 s, an impact: issue 11's
reproduction). One thread (OPENBLAS_NUM_THREADS=1), as han2023; no VTK output. Not a timed
assertion: make bench prints, make check does not run this."""
import csv
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")
CASE = "cases/cylinder_press_force.json"
RAMP = 'bodies[1].motion.ramp={"type":"linear","t1":500}'
DT = 0.01
DRAKE = dict(dofs=3796, elements="4151 tet4", dt=0.01, rate=0.06)
RUNS = [(0, 20.0), (1, 2.0)]  # (mesh level, simulated seconds); level 1 costs about 5x per step

env = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def mesh_info(level):
    p = subprocess.run([FCSIM, "info", CASE, "--set", "bodies[0].mesh.refine=%d" % level], cwd=ROOT, capture_output=True, text=True, check=True)
    m = re.search(r"^body rubber: .*?(\d+) elements \((\w+)\), (\d+) DoFs", p.stdout, re.M)
    return int(m.group(3)), "%s %s" % (m.group(1), m.group(2))


rows = []
for level, t_end in RUNS:
    dofs, elements = mesh_info(level)
    d = os.path.join(ROOT, "bench", "out", "cylinder_press_rate", "level%d" % level)
    cmd = [FCSIM, "run", CASE, "-o", d, "--overwrite", "-q", "--set", "bodies[0].mesh.refine=%d" % level, "--set", "time.dt=%g" % DT,
           "--set", "time.t_end=%g" % t_end, "--set", RAMP, "--set", "output.vtk=false"]
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - w0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    if p.returncode != 0:
        sys.exit("cylinder_press_rate: level %d failed (exit %d): %s" % (level, p.returncode, p.stderr.strip()))
    with open(os.path.join(d, "stats.csv")) as f:
        st = list(csv.DictReader(f))
    with open(os.path.join(d, "probes.csv")) as f:
        last = list(csv.DictReader(f))[-1]
    it = [int(float(r["newton_it"])) for r in st]
    rows.append(dict(level=level, dofs=dofs + 1, elements=elements, t=t_end, steps=len(st), conv=all(float(r["converged"]) == 1 for r in st),
                     it_mean=sum(it) / len(it), it_max=max(it), active=max(int(float(r["active"])) for r in st), wall=wall, cpu=cpu,
                     steps_time=sum(float(r["step_time"]) for r in st), x=float(last["compression"]), f=float(last["force_per_length"]),
                     split={k: sum(float(r[k]) for r in st) for k in ("assembly_time", "factor_time", "solve_time", "w_time", "contact_solve_time", "output_time")}))

print("Force-controlled cylinder press at dt = %g s (%s, load ramp 1.4 MN/m over 500 s), one thread:" % (DT, CASE))
print()
print("| run | DoFs | elements | simulated [s] | steps | all converged | Newton it/step mean (max) | max active contacts | compression at the end [m] | force at the end [N/m] | wall [s] | CPU [s] | real-time rate (simulated / CPU) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| fcsim level %d | %d | %s | %g | %d | %s | %.2f (%d) | %d | %.4f | %.4g | %.1f | %.1f | **%.3f** |" % (r["level"], r["dofs"], r["elements"], r["t"], r["steps"], "yes" if r["conv"] else "NO", r["it_mean"], r["it_max"], r["active"], r["x"], r["f"], r["wall"], r["cpu"], r["t"] / r["cpu"]))
print("| Drake (han2023 Table I) | %d | %s | 500 | 50000 | | | | 0.2 | 1.4e6 | | | **%.2f** |" % (DRAKE["dofs"], DRAKE["elements"], DRAKE["rate"]))
print()
print("DoFs: 3 per node of the rubber (the plane-strain u_z = 0 included, as han2023 counts them) plus the plate's 1 (prismatic joint).")
for r in rows:
    print("level %d: real-time rate %.3f = %.2fx Drake's %.2f at %d DoFs (%d DoFs here; time in the steps %.1f s of %.1f s wall)" % (r["level"], r["t"] / r["cpu"], r["t"] / r["cpu"] / DRAKE["rate"], DRAKE["rate"], DRAKE["dofs"], r["dofs"], r["steps_time"], r["wall"]))
print()
print("Where the time goes (sums over the steps [s]; the columns overlap: W = H A^-1 H^T is formed by")
print("multi-right-hand-side solves on the step's factorization, counted both in the linear solves and in W and q):")
print()
print("| run | steps | assembly (f_int, K, A) | factorization | linear solves (free motion and W's) | W and q | contact solve (SAP) | output |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    sp = r["split"]
    print("| fcsim level %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |" % (r["level"], r["steps_time"], sp["assembly_time"], sp["factor_time"], sp["solve_time"], sp["w_time"], sp["contact_solve_time"], sp["output_time"]))
