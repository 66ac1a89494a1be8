"""FCLIB round trip of the contact cases (issue 3: "every problem written by the cases above is
solved again by fcsim fclib solve to the same r (1e-8 relative)").

Each case runs with output.fclib = true; every step's problem is solved again from its file by
`fcsim fclib solve` with the run's solver and tolerance, and r must agree to 1e-8 relative.
block_on_floor is checked in test_contact_cases.py and two_blocks in test_two_pass.py.

Solvers: nsgs to 1e-13 for the deformable-on-rigid cases. For the deformable-on-deformable
contact patch, the solver is lemke, which solves the frictionless (Signorini) LCP exactly. nsgs
there agrees only to 1e-7 in r: its common error mixes N and m (max(|q|, |r|, |u|) with
r ~ 1e5 N), so a tolerance of 1e-13 bounds r to about 1e-7, not the file (measured and printed
below, not asserted).

Runtime: about 10 s."""
import glob
import os
import subprocess
import h5py
import numpy as np
from fctest import ROOT, FCSIM, run, outdir, figure, check


def roundtrip(name, case, solver, sets=()):
    d = outdir("fclib_roundtrip/" + name)
    args = ["run", case, "-o", d, "--set", "output.fclib=true", "--set", "output.vtk=false",
            "--set", 'contact_solver={"type": "%s", "tol": 1e-13, "max_it": 100000}' % solver]
    for x in sets:
        args += ["--set", x]
    run(args)
    files = sorted(glob.glob(os.path.join(d, "fclib", "step_*.hdf5")))
    worst = 0.0
    for k, fn in enumerate(files):
        out = os.path.join(d, "resolve_%d.hdf5" % k)
        c = subprocess.run([FCSIM, "fclib", "solve", fn, "--solver", solver, "--tol", "1e-13", "--max-it", "100000", "-o", out],
                           cwd=ROOT, capture_output=True, text=True)
        check(c.returncode == 0, "%s: fclib solve %s" % (name, os.path.basename(fn)))
        with h5py.File(fn, "r") as a, h5py.File(out, "r") as b:
            r0, r1 = a["solution/r"][()], b["solution/r"][()]
        worst = max(worst, np.linalg.norm(r1 - r0) / max(np.linalg.norm(r0), 1e-300))
    return len(files), worst


for name, case, solver, sets, assert_it in (
        ("hertz", "cases/hertz.json", "nsgs", (), True),
        ("incline_mu0.49", "cases/incline.json", "nsgs", ("contacts[0].mu=0.49", "time.t_end=0.1"), True),
        ("contact_patch", "cases/contact_patch.json", "lemke", (), True),
        ("contact_patch_mortar", "cases/contact_patch.json", "lemke", ('contacts[0].formulation="mortar"',), True),
        ("contact_patch_nsgs", "cases/contact_patch.json", "nsgs", (), False)):
    n, worst = roundtrip(name, case, solver, sets)
    figure("FCLIB round trip %s (%s to 1e-13): %d problems, max |r - r_run| / |r| = %.1e%s" % (name, solver, n, worst, "" if assert_it else " (not asserted)"))
    check(n >= 1, "%s: the run wrote its FCLIB problems" % name)
    if assert_it:
        check(worst <= 1e-8, "%s: every problem re-solved to the same r (1e-8)" % name)
