"""Outputs and command line: run.h5 holds what doc/output-format.md lists (checked by
scripts/check_output.py, which also validates run.xdmf's references and parses every VTK file
and the .vtk.series index), for ASCII and binary VTK; the resolved case, version and PETSc
options are stored; --set, the case's "petsc" object and the command-line override reach the
run; fcsim info prints mesh statistics."""
import json
import os
import subprocess
import h5py
from fctest import ROOT, FCSIM, run, outdir, probes, figure, check

# info: resolved case with defaults and mesh statistics (beam 1 x 0.1 x 0.1 m, rho = 1000).
p = run(["info", "cases/cantilever.json", "--set", "bodies[0].mesh.order=1"])
line = [l for l in p.stdout.splitlines() if l.startswith("body beam")]
check(len(line) == 1, "info prints one statistics line per body")
vol = float(line[0].split("volume ")[1].split()[0])
mass = float(line[0].split("mass ")[1].split()[0])
figure("info: beam volume %.12g m^3, mass %.12g kg" % (vol, mass))
check(abs(vol - 0.01) < 1e-12 and abs(mass - 10.0) < 1e-9, "volume 0.01 m^3 and mass 10 kg")
js = json.loads(p.stdout[:p.stdout.index("\nbody ")])
check(js["bodies"][0]["mesh"]["order"] == 1, "--set reaches the resolved case")
check(js["time"]["newton"]["max_it"] == 25, "defaults are filled in the resolved case")

for fmt in ("ascii", "binary"):
    d = outdir("outputs/" + fmt)
    run(["run", "cases/cantilever.json", "-o", d, "--set", "output.vtk_format=\"%s\"" % fmt,
         "--set", "petsc.ksp_type=\"preonly\"", "--set", "petsc.pc_factor_mat_solver_type=\"petsc\"",
         "-pc_factor_mat_solver_type", "mumps", "-options_left", "0"])
    c = subprocess.run(["/usr/bin/python3", "scripts/check_output.py", "--hdf5", "--vtk", d], cwd=ROOT, capture_output=True, text=True)
    print(c.stdout, c.stderr)
    check(c.returncode == 0, "check_output.py accepts the %s run" % fmt)
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        def text(x):
            v = x[()] if hasattr(x, "shape") else x
            return v.decode() if isinstance(v, bytes) else str(v)
        case = json.loads(text(f["fcsim/case_json"]))
        opts = text(f["fcsim/petsc_options"])
        ver = text(f["fcsim"].attrs["version"])
        check(case["name"] == "cantilever", "resolved case stored in run.h5")
        check("-ksp_type preonly" in opts, "the case's petsc object reaches PETSc (%s)" % opts.strip())
        check("-pc_factor_mat_solver_type mumps" in opts, "the command line overrides the case's petsc object")
        check(ver and ver != "unknown", "fcsim version stored (%s)" % ver)
        nsteps = len(f["output/time"])
        check(nsteps == 5, "step 0 and 4 load steps written (%d)" % nsteps)
    series = json.load(open(os.path.join(d, "vtk", "beam.vtk.series")))
    check(series["files"][0]["time"] == 0.0 and len(series["files"]) == 5, ".vtk.series lists step 0 and every output step")
    figure("outputs (%s VTK): %s" % (fmt, c.stdout.strip().splitlines()[-1] if c.stdout.strip() else "?"))

# --version and --help
p = subprocess.run([FCSIM, "--version"], capture_output=True, text=True)
check(p.returncode == 0 and p.stdout.startswith("fcsim "), "--version prints the version")
p = subprocess.run([FCSIM, "--help"], capture_output=True, text=True)
check(p.returncode == 0 and "fcsim run" in p.stdout, "--help prints usage")

# The default output directory: results/<name>/<run id>/ under output.dir.
base = outdir("outputs/default")
os.makedirs(base)
run(["run", "cases/cantilever.json", "--set", "output.dir=\"%s\"" % base, "--set", "time.t_end=1", "--set", "time.dt=1"])
runs = os.listdir(os.path.join(base, "cantilever"))
check(len(runs) == 1 and not runs[0].count("partial"), "one completed run directory under output.dir/cantilever (%s)" % runs)
check(os.path.exists(os.path.join(base, "cantilever", runs[0], "run.xdmf")), "run.xdmf written")
