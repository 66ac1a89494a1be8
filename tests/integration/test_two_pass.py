"""Two-pass (symmetric) node-to-surface contact between deformable bodies (contacts[i].both_passes;
doc/contact.md "Two-pass contact").

a) cases/two_blocks.json (a quarter punch on a cube, non-matching meshes, partial overlap), with
   and without both_passes: every step converges; action = reaction (the contact force on the
   punch equals the cube's support reaction and minus the punch's top reaction, the load, to
   1e-10: a property of W = sum_b H_b A_b^-1 H_b^T and of the probes, which give the force on
   the pair's first body for both passes); the two-pass resultant within 1 % of the single-pass
   one (measured 1.5e-6).
b) cases/contact_patch.json with both_passes (El-Abbasi & Bathe patch test, exact pressure 1e5 Pa,
   interface displacement -0.05 m): resultant and mean interface displacement within 1 %,
   action = reaction 1e-10. The Newton iteration of this over-constrained case does not settle
   its active set (doc/contact.md: the limits of two-pass contact): the test records it as a
   FIGURE and runs with time.newton.allow_failure.
c) cases/two_blocks_matching.json (coincident interface nodes, uniform uniaxial stress): after
   duplicate removal the two-pass run has as many contacts as the single-pass one and the same
   result (probes and displacement fields to 1e-8).
d) FCLIB round trip on the two-pass run of a): every problem re-solved by `fcsim fclib solve`
   gives the run's u = W r + q to 1e-8 of |q| and its r to 1e-6 (measured 2.5e-7)."""
import glob
import os
import subprocess
import h5py
import numpy as np
from fctest import fclib_local_wq, ROOT, FCSIM, run, outdir, probes, stats, figure, check

# a) two_blocks, single pass vs both passes
res = {}
for bp in ("false", "true"):
    d = outdir("two_pass/two_blocks_" + bp)
    args = ["run", "cases/two_blocks.json", "-o", d, "--set", "contacts[0].both_passes=" + bp, "--set", "output.vtk=false"]
    if bp == "true":
        args += ["--set", "output.fclib=true", "--set", "contact_solver.tol=1e-13"]
    run(args)
    p, s = probes(d), stats(d)
    check(all(c == 1 for c in s["converged"]) and all(c == 1 for c in s["contact_converged"]), "two_blocks both_passes=%s: every step converged" % bp)
    fz, sz, lz = p["contact_z"][-1], p["support_z"][-1], p["load_z"][-1]
    check(abs(fz - sz) <= 1e-10 * fz and abs(fz + lz) <= 1e-10 * fz, "two_blocks both_passes=%s: contact force = support reaction = load (1e-10)" % bp)
    res[bp] = (fz, sz, lz, s["contacts"][-1], p["active"][-1], d)
f1, f2 = res["false"][0], res["true"][0]
figure("two_blocks: resultant single pass %.6f N, both passes %.6f N (relative change %.1e); contacts %d vs %d, active %d vs %d; action-reaction %.1e"
       % (f1, f2, abs(f2 - f1) / f1, res["false"][3], res["true"][3], res["false"][4], res["true"][4], abs(f2 - res["true"][1]) / f2))
check(abs(f2 - f1) <= 0.01 * f1, "two_blocks: the two-pass resultant within 1 % of the single-pass one")
check(res["true"][3] > res["false"][3], "two_blocks: the second pass adds contacts (%d > %d)" % (res["true"][3], res["false"][3]))

# d) FCLIB round trip on the two-pass run
d = res["true"][5]
files = sorted(glob.glob(os.path.join(d, "fclib", "step_*.hdf5")))
check(len(files) == 2, "two-pass run wrote one FCLIB file per step")
wq = fclib_local_wq


# The round trip of test_contact_cases.py compares r to 1e-8. Here the re-solved r differs from
# the run's by 2.5e-7 (measured; both solves stop at the common error 1e-13, and this problem
# with its second-pass rows has cond(W) ~ 2e3, printed), while the relative motion u = W r + q
# agrees to 1e-9 of |q|: u is asserted to 1e-8 of |q|, r to 1e-6 (4x the measured difference).
worst_r = worst_u = cond = 0.0
for k, fn in enumerate(files):
    out = os.path.join(d, "resolve_%d.hdf5" % k)
    c = subprocess.run([FCSIM, "fclib", "solve", fn, "--tol", "1e-13", "-o", out], cwd=ROOT, capture_output=True, text=True)
    check(c.returncode == 0, "fclib solve %s" % os.path.basename(fn))
    with h5py.File(fn, "r") as a, h5py.File(out, "r") as b:
        r0, r1 = a["solution/r"][()], b["solution/r"][()]
    W, q = wq(fn)
    worst_r = max(worst_r, np.linalg.norm(r1 - r0) / max(np.linalg.norm(r0), 1e-300))
    worst_u = max(worst_u, np.linalg.norm(W @ (r1 - r0)) / np.linalg.norm(q))
    cond = max(cond, np.linalg.cond(W))
figure("FCLIB round trip (two-pass two_blocks): %d problems, max |u - u_run|/|q| = %.2e, max |r - r_run|/|r| = %.2e (cond W = %.1e)"
       % (len(files), worst_u, worst_r, cond))
check(worst_u <= 1e-8, "re-solved u = W r + q equals the two-pass run's within 1e-8 of |q|")
check(worst_r <= 1e-6, "re-solved r equals the two-pass run's within 1e-6")
# The 2.5e-7 above is nsgs's accuracy on r, not the file's: the common error mixes N and m
# (max(|q|, |r|, |u|) with r ~ 1e4 N, u ~ 1e-3 m), so 1e-13 bounds r to ~1e-6 only. The
# frictionless problem solved exactly (lemke: the Signorini LCP, one unknown per contact), in the
# run and again from the file, gives the same r to the 1e-8 (measured 0).
dl = outdir("two_pass/two_blocks_lemke")
run(["run", "cases/two_blocks.json", "-o", dl, "--set", 'contact_solver={"type":"lemke","tol":1e-10}', "--set", "output.fclib=true", "--set", "output.vtk=false"])
worst_l = 0.0
lfiles = sorted(glob.glob(os.path.join(dl, "fclib", "step_*.hdf5")))
check(len(lfiles) == 2, "lemke two-pass run wrote one FCLIB file per step")
for k, fn in enumerate(lfiles):
    out = os.path.join(dl, "resolve_%d.hdf5" % k)
    c = subprocess.run([FCSIM, "fclib", "solve", fn, "--solver", "lemke", "--tol", "1e-10", "-o", out], cwd=ROOT, capture_output=True, text=True)
    check(c.returncode == 0, "fclib solve --solver lemke %s" % os.path.basename(fn))
    with h5py.File(fn, "r") as a, h5py.File(out, "r") as b:
        r0, r1 = a["solution/r"][()], b["solution/r"][()]
    worst_l = max(worst_l, np.linalg.norm(r1 - r0) / max(np.linalg.norm(r0), 1e-300))
figure("FCLIB round trip (two-pass two_blocks, lemke in the run and from the file): max |r - r_run|/|r| = %.1e" % worst_l)
check(worst_l <= 1e-8, "exact solves: the re-solved r equals the run's within 1e-8")

# b) contact patch with both passes
d = outdir("two_pass/patch")
run(["run", "cases/contact_patch.json", "-o", d, "--set", "contacts[0].both_passes=true", "--set", "time.newton.allow_failure=true", "--set", "output.vtk=false"])
p, s = probes(d), stats(d)
fz, uz, sz = p["contact_z"][-1], p["interface_z"][-1], p["support_z"][-1]
with h5py.File(os.path.join(d, "run.h5"), "r") as f:
    # the interface nodes of both blocks (z = 1 in the reference): the exact u_z is -0.05 at each
    X, u = f["bodies/top/mesh/X"][()], f["bodies/top/fields/000001/displacement"][()]
    uzt = u[np.abs(X[:, 2] - 1) < 1e-9, 2]
    X, u = f["bodies/bottom/mesh/X"][()], f["bodies/bottom/fields/000001/displacement"][()]
    uzb = u[np.abs(X[:, 2] - 1) < 1e-9, 2]
    last = sorted(f["contacts"].keys())[-1]
    fzc = f["contacts"][last]["force"][:, 2].sum()
spread = max(np.abs(uzt + 0.05).max(), np.abs(uzb + 0.05).max()) / 0.05
figure("contact patch, both passes: resultant %.3f N vs 1e5 (%.3f %%), interface %.6f m vs -0.05 (%.3f %%), interface u_z spread %.2f %% of 0.05 m, "
       "action-reaction %.1e, contacts %d, Newton converged: %d (%d iterations)"
       % (fz, 100 * abs(fz - 1e5) / 1e5, uz, 100 * abs(uz + 0.05) / 0.05, 100 * spread, abs(fz - sz) / fz, s["contacts"][-1], s["converged"][-1], s["newton_it"][-1]))
check(abs(fz - 1e5) <= 0.01 * 1e5, "patch, both passes: resultant within 1 %")
check(abs(uz + 0.05) <= 0.01 * 0.05, "patch, both passes: interface displacement within 1 %")
check(abs(fz - sz) <= 1e-10 * fz, "patch, both passes: contact force = support reaction")
check(abs(fzc - fz) <= 1e-9 * fz, "patch, both passes: run.h5 contact forces (reverse pass flipped) sum to the probe")

# c) matching meshes: duplicates removed, same result as one pass
out = {}
for bp in ("false", "true"):
    d = outdir("two_pass/matching_" + bp)
    run(["run", "cases/two_blocks_matching.json", "-o", d, "--set", "contacts[0].both_passes=" + bp, "--set", "output.vtk=false"])
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        U = np.concatenate([f["bodies/%s/fields/000001/displacement" % b][()].ravel() for b in ("upper", "lower")])
    out[bp] = (probes(d), stats(d), U)
(p1, s1, U1), (p2, s2, U2) = out["false"], out["true"]
du = np.abs(U2 - U1).max() / np.abs(U1).max()
dfz = abs(p2["contact_z"][-1] - p1["contact_z"][-1]) / p1["contact_z"][-1]
figure("matching meshes: contacts single %d, both passes %d after duplicate removal; resultant %.6f vs %.6f N (relative %.1e, exact 1e5: %.3f %%); max |du|/max|u| = %.1e"
       % (s1["contacts"][-1], s2["contacts"][-1], p1["contact_z"][-1], p2["contact_z"][-1], dfz, 100 * abs(p2["contact_z"][-1] - 1e5) / 1e5, du))
check(s2["converged"][-1] == 1 and s1["converged"][-1] == 1, "matching: both runs converged")
check(s2["contacts"][-1] == s1["contacts"][-1], "matching: no duplicate contacts (%d = %d)" % (s2["contacts"][-1], s1["contacts"][-1]))
check(dfz <= 1e-8 and du <= 1e-8, "matching: two-pass result = single-pass result (1e-8)")
check(abs(p2["contact_z"][-1] - 1e5) <= 0.01 * 1e5, "matching: resultant within 1 % of E*0.1/2 = 1e5 N")
