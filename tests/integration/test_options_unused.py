"""PETSc options the user gave that nothing used are a warning each (src/core/fc.c,
FcOptionsReportUnused; doc/case-format.md "petsc", fcsim --help): a typo on the command line, an
option the default preonly KSP never reads, an option of a case's "petsc" object. One line per
option on stderr, even with -q, naming where it came from; the exit status and the results are
those of the same run without it; run.h5 records the list (/fcsim/petsc_options_unused, its
attribute "source"). Options that are read (also those PETSc reads only in PetscFinalize) are
never reported; on two ranks the line is printed once (an option is reported when no rank used it)."""
import json
import os
import shutil
import subprocess
import h5py
from fctest import ROOT, FCSIM, run, outdir, probes, figure, check, mpi_env

CANT = ["run", "cases/cantilever.json", "--set", "time.dt=1"]  # one load step
WARN = "fcsim: warning: option "


def warnings(p):
    return [l for l in p.stderr.splitlines() if l.startswith(WARN)]


def unused_record(d):
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        ds = f["fcsim/petsc_options_unused"]
        names = [x.decode() if isinstance(x, bytes) else str(x) for x in ds[()]]
        srcs = [x.decode() if isinstance(x, bytes) else str(x) for x in ds.attrs["source"]]
    return names, srcs


# The run without any option of the user's: no warning, an empty record.
base = outdir("options_unused/base")
p = run(CANT + ["-o", base])
check(warnings(p) == [], "a run without options of the user's warns about none")
check(unused_record(base) == ([], []), "run.h5 records an empty list of unused options")
ref = probes(base)

# A typo on the command line: one line naming it, exit 0, the same results.
d = outdir("options_unused/typo")
p = run(CANT + ["-o", d, "-ksp_rtoll", "1e-8"])
w = warnings(p)
figure("typo on the command line: %s" % (w[0] if w else "(no line)"))
check(len(w) == 1, "-ksp_rtoll 1e-8: exactly one warning line (%d)" % len(w))
check(w[0] == WARN + "-ksp_rtoll (command line) was never used by this run", "the line names the option and the command line")
check(probes(d) == ref, "the run's probes are those of the run without the option, bit for bit")
check(unused_record(d) == (["-ksp_rtoll"], ["command line"]), "run.h5 records -ksp_rtoll from the command line (%s)" % (unused_record(d),))

# An option the default preonly KSP never reads, on the command line and from a case's "petsc"
# object (a case file of its own; a view option "snes_view": nothing makes a SNES).
tmp = outdir("options_unused/case")
os.makedirs(tmp)
case = json.load(open(os.path.join(ROOT, "cases", "cantilever.json")))
case["bodies"][0]["mesh"]["file"] = os.path.join(ROOT, "meshes", "beam.geo")
case["petsc"] = {"ksp_rtol": 1e-8, "ksp_type": "preonly", "snes_view": True}
cfile = os.path.join(tmp, "case.json")
json.dump(case, open(cfile, "w"))
d = os.path.join(tmp, "out")
p = run(["run", cfile, "--set", "time.dt=1", "-o", d, "-ksp_atol", "1e-30"])
w = warnings(p)
for l in w:
    figure("unused options: %s" % l)
check(len(w) == 3, "three unused options, three lines (%d)" % len(w))
check(WARN + "-ksp_atol (command line) was never used by this run" in w, "-ksp_atol named with the command line")
check(WARN + "-ksp_rtol (%s: petsc.ksp_rtol) was never used by this run" % cfile in w, "-ksp_rtol named with the case file and its JSON path")
check(WARN + "-snes_view (%s: petsc.snes_view) was never used by this run" % cfile in w, "a case's view option too")
check(not [l for l in w if "ksp_type" in l], "the case's ksp_type, read, is not reported")
names, srcs = unused_record(d)
check(sorted(zip(names, srcs)) == sorted([("-ksp_atol", "command line"), ("-ksp_rtol", cfile + ": petsc.ksp_rtol"),
                                          ("-snes_view", cfile + ": petsc.snes_view")]), "run.h5 records the three with their sources")

# The command line's option that the case's object also sets: the command line's, reported once
# (the case's is not inserted; checking that did not mark the command line's as used).
d = outdir("options_unused/both")
p = run(CANT + ["-o", d, "--set", "petsc.ksp_rtol=1e-9", "-ksp_rtol", "1e-8"])
w = warnings(p)
check(w == [WARN + "-ksp_rtol (command line) was never used by this run"], "an option of both is the command line's, reported once (%s)" % w)

# Options that are read, on the run's path or in PetscFinalize: no warning. -options_left keeps
# PETSc's own list (stdout), which names a typo too.
d = outdir("options_unused/used")
logv = os.path.join(os.path.dirname(d), "log_view.txt")
p = run(CANT + ["-o", d, "-ksp_type", "preonly", "-pc_factor_mat_solver_type", "mumps", "-fc_newton_monitor", "-fc_debug",
                "-log_view", ":" + logv, "-malloc_dump", "-memory_view", "-options_left", "-fc_mesh_timeout", "100"])
check(warnings(p) == [], "options that are read (solver, -fc_* of the path, PetscFinalize's) are not reported (%s)" % warnings(p))
check("There are no unused options" in p.stdout, "-options_left: PETSc's own line, no unused option")
p = run(CANT + ["-o", d, "-options_left", "-ksp_rtoll", "1"])
check(len(warnings(p)) == 1 and "-ksp_rtoll" in p.stdout and "unused" in p.stdout, "-options_left with a typo: PETSc's list names it as before, fcsim's line beside")

# A run that fails (a step does not converge, exit 1) still ends: the warning, the same exit status.
d = outdir("options_unused/failed")
for x in os.listdir(os.path.dirname(d)):  # an earlier run's kept folder
    if x.startswith("failed.failed-"):
        shutil.rmtree(os.path.join(os.path.dirname(d), x))
p = run(CANT + ["-o", d, "--set", "time.newton.max_it=1", "--set", "time.newton.rtol=1e-30", "--set", "time.newton.atol=0", "-ksp_rtoll", "1"], expect=1)
check(warnings(p) == [WARN + "-ksp_rtoll (command line) was never used by this run"], "a failed run warns too, exit 1 as without the option")
kept = [x for x in os.listdir(os.path.dirname(d)) if x.startswith("failed.failed-")]
check(len(kept) == 1 and unused_record(os.path.join(os.path.dirname(d), kept[0]))[0] == ["-ksp_rtoll"], "the failed run's run.h5 records it")

# Not reported where no run ends: an input error (exit 2) and `info`.
p = run(CANT + ["-o", outdir("options_unused/bad"), "--set", "time.dt=-1", "-ksp_rtoll", "1"], expect=2)
check(warnings(p) == [], "an input error: no warning about options (the run never read any)")
p = run(["info", "cases/cantilever.json", "-ksp_rtoll", "1"])
check(warnings(p) == [], "fcsim info: no warning (it runs no solver)")

# fclib solve: the same, in its own words.
p = run(["fclib", "solve", "tests/bad/fclib/baseline_local.hdf5", "-fc_contact_solver_max_it", "50", "-fc_contact_solver_tpyo", "1"])
w = warnings(p)
check(w == [WARN + "-fc_contact_solver_tpyo (command line) was never used by fcsim fclib solve"], "fclib solve names the typo only (%s)" % w)

# Two ranks: the line once; the contact solver's option, read, is not reported.
mpiexec = shutil.which("mpiexec")
check(mpiexec is not None, "mpiexec is installed")
tmpdir = outdir("options_unused/tmp")
os.makedirs(tmpdir)
for case, extra in (("cantilever.json", ["--set", "time.dt=1"]), ("two_blocks.json", ["-fc_contact_solver_max_it", "500"])):
    d = outdir("options_unused/mpi_" + case.split(".")[0])
    p = subprocess.run([mpiexec, "-q", "-n", "2", FCSIM, "run", "cases/" + case, "-q", "-o", d, "-ksp_rtoll", "1e-8"] + extra,
                       cwd=ROOT, capture_output=True, text=True, timeout=600, env=mpi_env(tmpdir))
    w = warnings(p)
    figure("mpiexec -n 2 %s: exit %d, %d warning line(s)" % (case, p.returncode, len(w)))
    check(p.returncode == 0, "%s on 2 ranks: exit 0" % case)
    check(w == [WARN + "-ksp_rtoll (command line) was never used by this run"], "%s on 2 ranks: the line once, nothing else (%s)" % (case, w))
    check(unused_record(d) == (["-ksp_rtoll"], ["command line"]), "%s on 2 ranks: run.h5 records it" % case)

# A case carrying the parameters of the solvers its study compares (cases/masonry_arch.json: sap's,
# for `study compare --solvers newton,sap`; its own solver is newton): the other solver's options
# are recorded in run.h5 but not warned about (FcContactSolverDormantOptions), so the named case's
# default run prints no warning; a typo of the solver it uses is still one line.
ARCH = ["run", "cases/masonry_arch.json", "--set", "time.t_end=0.08", "-q"]
d = outdir("options_unused/arch")
p = run(ARCH + ["-o", d])
names, srcs = unused_record(d)
figure("masonry_arch (newton): %d warning line(s), %d dormant option(s) recorded: %s" % (len(warnings(p)), len(names), names))
check(warnings(p) == [], "masonry_arch's default run: no warning (%s)" % warnings(p))
check(sorted(names) == ["-fc_contact_solver_sap_beta", "-fc_contact_solver_sap_sigma", "-fc_contact_solver_sap_sparse_factor"] and
      all(s.endswith("masonry_arch.json: petsc." + n[1:]) for n, s in zip(names, srcs)),
      "masonry_arch: run.h5 records sap's three parameters, from the case, as unused (%s)" % ((names, srcs),))
d = outdir("options_unused/arch_sap")
p = run(ARCH + ["-o", d, "--set", "contact_solver.type=sap"])
check(warnings(p) == [] and unused_record(d)[0] == ["-fc_contact_solver_newton_nonmonotone"],
      "masonry_arch with sap: sap's parameters read, newton's recorded as unused, no warning (%s)" % (unused_record(d),))
d = outdir("options_unused/arch_typo")
p = run(ARCH + ["-o", d, "-fc_contact_solver_newton_nonmonotne", "5"])
check(warnings(p) == [WARN + "-fc_contact_solver_newton_nonmonotne (command line) was never used by this run"],
      "masonry_arch: a typo of the solver it uses is one line (%s)" % warnings(p))
