"""SAP and the participating-DoF reduction (issue 5's benchmark): the same contact steps run with
compliance "exact" (W from multi-right-hand-side solves with the full factorization) and
"schur" (W = J A_hat^-1 J^T from the Schur complement onto the participating DoFs, han2023
Sec. VI), each with the contact solvers sap and nsgs. Reported per configuration, as means per
step: the time to form W (and q), the contact-solve time, the whole step, and the contact-solver
iterations; then the ratios measured in this one run: W time exact/schur (the speedup of the
reduction) and contact-solve time sap/nsgs on the same steps.

Case: cases/hertz.json at mesh level 1 (quarter sphere, about 12k DoFs) with a 1 mm alarm
distance (about 400 contacts in the problem)."""
import csv
import os
import statistics
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FCSIM = os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim")
res = {}
for comp in ("exact", "schur"):
    for solver in ("nsgs", "sap"):
        d = os.path.join(ROOT, "bench", "out", "sap_schur", "%s_%s" % (comp, solver))
        subprocess.run([FCSIM, "run", "cases/hertz.json", "-o", d, "-q", "--set", "bodies[0].mesh.refine=1", "--set", "contacts[0].alarm=1e-3",
                        "--set", "compliance.type=%s" % comp, "--set", "contact_solver.type=%s" % solver, "--set", "output.vtk=false",
                        "--set", "time.newton.allow_failure=true"], cwd=ROOT, check=True)
        with open(os.path.join(d, "stats.csv")) as f:
            st = list(csv.DictReader(f))
        with open(os.path.join(d, "probes.csv")) as f:
            pr = list(csv.DictReader(f))
        mean = lambda k: statistics.mean(float(r[k]) for r in st)
        res[(comp, solver)] = dict(w=mean("w_time"), solve=mean("contact_solve_time"), step=mean("step_time"), it=mean("contact_it"), contacts=mean("contacts"),
                                   conv=all(float(r["converged"]) == 1 for r in st), fz=float(pr[-1]["contact_z"]))
print("| compliance | solver | contacts | W time [s] | contact solve [s] | step [s] | solver iterations | converged | contact force at the last step [N] |")
print("|---|---|---|---|---|---|---|---|---|")
for (comp, solver), r in res.items():
    print("| %s | %s | %.0f | %.4f | %.4f | %.3f | %.1f | %s | %.6g |" % (comp, solver, r["contacts"], r["w"], r["solve"], r["step"], r["it"], r["conv"], r["fz"]))
print()
for solver in ("nsgs", "sap"):
    print("W time exact/schur with %s: %.2f" % (solver, res[("exact", solver)]["w"] / res[("schur", solver)]["w"]))
for comp in ("exact", "schur"):
    print("contact-solve time sap/nsgs with compliance %s: %.2f" % (comp, res[(comp, "sap")]["solve"] / res[(comp, "nsgs")]["solve"]))
