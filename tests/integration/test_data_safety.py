"""Never destroy a user's data (issue 17, items 1-4, 6 and 9).

1. `-o PATH` replaces only fcsim's own earlier output (its marker file and layout) or an empty
   folder; a foreign folder only with --overwrite; a file, a device, a FIFO or a symbolic link
   never. The same for `study compare -o` and `fclib solve -o`. Refusals are exit 2, one line,
   before anything is computed.
2. A failed run (exit 1) never replaces a good result: its outputs go to DIR.failed-<pid>.
3. `-o DIR/` works; `-o ""`, `.`, `..`, `/` are refused; a commit that cannot happen names the
   folder that holds the complete output (never removed).
4. A full disk (a file-size limit here) is one line naming the file, exit 1, nothing left.
6. SIGINT while Gmsh meshes a fine mesh (a phase that polls nothing) ends fcsim with 130 within
   a second or two, leaving nothing.
9. A failed run prints one line, not PETSc's traceback (which -fc_debug shows).
Also: `info` makes every check `run` makes before computing (an unknown boundary group)."""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from fctest import ROOT, FCSIM, figure, check

tmp = tempfile.mkdtemp(prefix="fcsim-safety-")
CANT = os.path.join(ROOT, "cases", "cantilever.json")
FLOOR = os.path.join(ROOT, "cases", "block_on_floor.json")


def fcsim(args, env=None, preexec=None, timeout=600):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_MCA_", "PMIX_MCA_"))}
    if env:
        e.update(env)
    return subprocess.run([FCSIM] + args, cwd=tmp, capture_output=True, text=True, timeout=timeout, env=e, preexec_fn=preexec)


def lines(p):
    return [l for l in p.stderr.splitlines() if l.strip()]


def one_line(p, code, subs, label):
    ls = lines(p)
    ok = p.returncode == code and len(ls) == 1 and all(s in ls[0] for s in subs)
    if not ok:
        print("stderr:", p.stderr[-2000:])
    check(ok, "%s: exit %d (expected %d), %d stderr line(s) %s" % (label, p.returncode, code, len(ls), ls[0][:160] if ls else ""))


def snapshot(path):
    """Every file under path with its bytes (a user's data, to prove it untouched)."""
    out = {}
    for d, _, files in os.walk(path):
        for f in files:
            q = os.path.join(d, f)
            with open(q, "rb") as fh:
                out[os.path.relpath(q, path)] = fh.read()
    return out


def leftovers(prefix):
    return sorted(x for x in os.listdir(tmp) if x.startswith(prefix) and (".partial" in x or ".old" in x or ".interrupted" in x))


def limit(kib):
    import resource
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (kib * 1024, kib * 1024))


# No MPI setting of the caller's: fcsim's own start-up (src/core/mpienv.c) must survive a
# file-size limit by itself (Open MPI's PMIx data store in shared-memory files failed at MPI_Init
# under 64 KiB, with 16 lines of PMIx errors, until fcsim started its singletons isolated).
env = None


quick = ["-q", "--set", "time.dt=0.5"]  # two steps of the cantilever: a second or two

# ---- 1. foreign data is never replaced ------------------------------------------------------
def item1():
    prec = os.path.join(tmp, "precious")
    os.makedirs(os.path.join(prec, "chapter"))
    with open(os.path.join(prec, "thesis.tex"), "w") as f:
        f.write("thesis\n")
    with open(os.path.join(prec, "chapter", "one.tex"), "w") as f:
        f.write("one\n")
    before = snapshot(prec)
    p = fcsim(["run", CANT, "-o", "precious"] + quick)
    one_line(p, 2, ["-o", "precious", "not fcsim's output", "--overwrite"], "-o a folder of the user's")
    check(snapshot(prec) == before, "the user's folder is untouched (%d files)" % len(before))
    # a folder that looks like a run but holds one foreign file is not fcsim's either
    p = fcsim(["run", CANT, "-o", "ownrun"] + quick)
    check(p.returncode == 0, "a run into a new folder succeeds")
    check(os.path.isfile(os.path.join(tmp, "ownrun", "fcsim-output.txt")), "a results folder carries fcsim's marker file")
    with open(os.path.join(tmp, "ownrun", "vtk", "notes.txt"), "w") as f:
        f.write("mine\n")
    p = fcsim(["run", CANT, "-o", "ownrun"] + quick)
    one_line(p, 2, ["ownrun", "notes.txt"], "-o an fcsim folder holding a user's file")
    check(os.path.isfile(os.path.join(tmp, "ownrun", "vtk", "notes.txt")), "the user's file inside the results folder is untouched")
    os.remove(os.path.join(tmp, "ownrun", "vtk", "notes.txt"))
    p = fcsim(["run", CANT, "-o", "ownrun"] + quick)
    check(p.returncode == 0 and not lines(p), "fcsim's own earlier output is replaced (exit %d)" % p.returncode)
    check(not leftovers("ownrun"), "no .partial/.old folder left (%s)" % leftovers("ownrun"))

    with open(os.path.join(tmp, "notes.txt"), "w") as f:
        f.write("notes\n")
    p = fcsim(["run", CANT, "-o", "notes.txt"] + quick)
    one_line(p, 2, ["notes.txt", "is a file"], "-o a regular file")
    p = fcsim(["run", CANT, "-o", "notes.txt", "--overwrite"] + quick)
    one_line(p, 2, ["notes.txt", "is a file"], "-o a regular file with --overwrite")
    check(open(os.path.join(tmp, "notes.txt")).read() == "notes\n", "the file is untouched")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    p = fcsim(["run", CANT, "-o", "fifo", "--overwrite"] + quick)
    one_line(p, 2, ["fifo", "FIFO"], "-o a FIFO with --overwrite")
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is untouched")
    p = fcsim(["run", CANT, "-o", "/dev/null", "--overwrite"] + quick)
    one_line(p, 2, ["/dev/null", "device"], "-o /dev/null with --overwrite")
    check(stat.S_ISCHR(os.lstat("/dev/null").st_mode), "/dev/null is still a device")
    os.symlink("precious", os.path.join(tmp, "link"))
    p = fcsim(["run", CANT, "-o", "link", "--overwrite"] + quick)
    one_line(p, 2, ["link", "symbolic link"], "-o a symbolic link with --overwrite")
    check(snapshot(prec) == before and os.path.islink(os.path.join(tmp, "link")), "the link and its target are untouched")
    # --overwrite replaces a foreign folder, as asked; never the working folder or an ancestor
    victim = os.path.join(tmp, "victim")
    os.makedirs(victim)
    with open(os.path.join(victim, "old.txt"), "w") as f:
        f.write("old\n")
    p = fcsim(["run", CANT, "-o", "victim", "--overwrite"] + quick)
    check(p.returncode == 0 and os.path.isfile(os.path.join(victim, "run.h5")) and not os.path.exists(os.path.join(victim, "old.txt")), "--overwrite replaces a foreign folder (exit %d)" % p.returncode)
    p = fcsim(["run", CANT, "-o", tmp, "--overwrite"] + quick)
    one_line(p, 2, ["working folder"], "-o the working folder with --overwrite")
    # an empty folder is used (nothing is lost)
    os.makedirs(os.path.join(tmp, "empty"))
    p = fcsim(["run", CANT, "-o", "empty"] + quick)
    check(p.returncode == 0 and os.path.isfile(os.path.join(tmp, "empty", "probes.csv")), "an empty folder is used")
    # the same rule for study compare and fclib solve
    p = fcsim(["study", "compare", FLOOR, "--solvers", "nsgs", "-o", "precious", "-q"])
    one_line(p, 2, ["-o", "precious", "not fcsim's output"], "study compare -o a folder of the user's")
    check(snapshot(prec) == before, "the user's folder is untouched by study compare")
    fcl = os.path.join(ROOT, "tests", "bad", "fclib", "baseline_local.hdf5")
    p = fcsim(["fclib", "solve", fcl, "-o", "notes.txt"])
    one_line(p, 2, ["notes.txt", "exists", "--overwrite"], "fclib solve -o an existing file")
    check(open(os.path.join(tmp, "notes.txt")).read() == "notes\n", "the file is untouched by fclib solve")
    p = fcsim(["fclib", "solve", fcl, "-o", "precious"])
    one_line(p, 2, ["precious", "folder"], "fclib solve -o a folder")
    p = fcsim(["fclib", "solve", fcl, "-o", "sol.hdf5"])
    check(p.returncode == 0 and os.path.isfile(os.path.join(tmp, "sol.hdf5")), "fclib solve -o a new file")
    p = fcsim(["fclib", "solve", fcl, "-o", "sol.hdf5", "--overwrite"])
    check(p.returncode == 0, "fclib solve --overwrite replaces its earlier file")
    check(snapshot(prec) == before, "after every refusal the user's folder is byte for byte the same")


# ---- 2. a failed run never replaces a good result -------------------------------------------
def item2():
    good = os.path.join(tmp, "good")
    p = fcsim(["run", CANT, "-o", "good"] + quick)
    check(p.returncode == 0, "a good run")
    gold = snapshot(good)
    fail_args = ["--set", "bodies[0].material.model=\"stvk\"", "--set", "time.newton.max_it=1", "--set", "time.newton.rtol=1e-14", "--set", "time.newton.atol=0"]
    p = fcsim(["run", CANT, "-o", "good"] + quick + fail_args)
    one_line(p, 1, ["did not converge", "good.failed-", "not touched"], "a run that does not converge")
    check(snapshot(good) == gold, "the earlier good result is byte for byte the same")
    failed = [x for x in os.listdir(tmp) if x.startswith("good.failed-")]
    check(len(failed) == 1 and os.path.isfile(os.path.join(tmp, failed[0], "stats.csv")), "the failed run's outputs are kept in %s" % failed)
    with open(os.path.join(tmp, failed[0], "stats.csv")) as f:
        conv = [r.split(",") for r in f.read().splitlines()]
    ci = conv[0].index("converged")
    check(all(float(r[ci]) == 0 for r in conv[1:]), "its stats.csv records the non-converged steps")
    check(not leftovers("good"), "no .partial folder left")


# ---- 3. paths normalised and checked before computing ---------------------------------------
def item3():
    os.makedirs(os.path.join(tmp, "slash"))
    p = fcsim(["run", CANT, "-o", "slash/"] + quick)
    check(p.returncode == 0 and os.path.isfile(os.path.join(tmp, "slash", "run.h5")) and not os.listdir(tmp + "/slash/").count(".partial"), "-o DIR/ (trailing slash) writes DIR (exit %d)" % p.returncode)
    p = fcsim(["run", CANT, "-o", "slash/"] + quick)
    check(p.returncode == 0 and not leftovers("slash"), "-o DIR/ again replaces its own output")
    for bad, sub in (("", "empty"), (".", "'.'"), ("..", "'..'"), ("/", "'/'"), ("notes.txt/sub", "notes.txt/sub")):
        t0 = time.time()
        p = fcsim(["run", CANT, "-o", bad] + quick)
        one_line(p, 2, ["-o", sub], "-o %r" % bad)
    check(not [x for x in os.listdir(tmp) if ".partial" in x] and not [x for x in os.listdir(os.path.dirname(tmp)) if x.startswith(".partial")], "no .partial folder anywhere")
    # the target changes during the run: the commit refuses and says where the complete output is
    p0 = fcsim(["run", CANT, "-o", "race"] + quick)
    proc = subprocess.Popen([FCSIM, "run", os.path.join(ROOT, "cases", "bar_dynamic.json"), "-o", "race", "--set", "time.t_end=2", "--set", "output.every=1000"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stderr.readline()  # the time loop runs
    with open(os.path.join(tmp, "race", "mine.txt"), "w") as f:
        f.write("written during the run\n")
    out, err = proc.communicate(timeout=300)
    ls = [l for l in err.splitlines() if l.strip() and not l.startswith("step ")]
    part = [x for x in os.listdir(tmp) if x.startswith("race.partial-")]
    check(proc.returncode == 1 and len(part) == 1 and part[0] in ls[-1] and "complete output" in ls[-1], "a commit that cannot happen names the folder with the complete output: %s" % ls[-1][:200])
    check(os.path.isfile(os.path.join(tmp, part[0], "run.xdmf")) and os.path.isfile(os.path.join(tmp, "race", "mine.txt")), "that output is complete, and the user's file untouched")


# ---- 4. a full disk (file-size limit): one line, exit 1, nothing left -----------------------
def item4():
    for label, extra, sub in (("run.h5", [], "run.h5"), ("VTK", ["--set", "output.hdf5=false"], ".vtk"),
                              ("CSV", ["--set", "output.hdf5=false", "--set", "output.vtk=false", "--set", "time.dt=0.001"], ".csv")):
        kib = 16 if label == "CSV" else 64
        p = fcsim(["run", CANT, "-q", "-o", "full", "--set", "time.dt=0.01"] + extra, env=env, preexec=limit(kib))
        one_line(p, 1, [sub, "File too large"], "file-size limit %d KiB, %s" % (kib, label))
        check(not os.path.exists(os.path.join(tmp, "full")) and not leftovers("full"), "nothing left after the failed %s write" % label)
        figure("full disk (%s, ulimit -f %d): exit %d, '%s'" % (label, kib, p.returncode, lines(p)[0][:120]))
    # FCLIB files per step (libfclib exits on an HDF5 failure: written by a child process) and the
    # haptic loop's CSV
    BLOCK = os.path.join(ROOT, "cases", "block_on_floor.json")
    HS = os.path.join(ROOT, "cases", "haptic_sphere.json")
    for label, args, sub in (("FCLIB", ["run", BLOCK, "--set", "output.fclib=true"], "step_000001.hdf5"), ("haptic.csv", ["run", HS], "haptic.csv")):
        p = fcsim(args + ["-q", "-o", "full", "--set", "output.hdf5=false", "--set", "output.vtk=false"], env=env, preexec=limit(16))
        one_line(p, 1, [sub, "File too large"], "file-size limit 16 KiB, %s" % label)
        check(not os.path.exists(os.path.join(tmp, "full")) and not leftovers("full"), "nothing left after the failed %s write" % label)
        figure("full disk (%s, ulimit -f 16): exit %d, '%s'" % (label, p.returncode, lines(p)[0][:120]))
    # a small tmpfs, where this machine lets us mount one
    mnt = os.path.join(tmp, "mnt")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt], capture_output=True).returncode == 0:
        try:
            # the size estimate refuses a run whose output surely exceeds the free space (issue 24
            # item 5); --force insists, and the write then fails on the full file system
            p = fcsim(["run", CANT, "-q", "-o", os.path.join(mnt, "out"), "--set", "time.dt=0.01"])
            one_line(p, 2, ["output.every", "free where"], "a 256 KiB tmpfs: refused by the size estimate")
            p = fcsim(["run", CANT, "-q", "-o", os.path.join(mnt, "out"), "--set", "time.dt=0.01", "--force"])
            one_line(p, 1, ["No space left"], "a full 256 KiB tmpfs")
            check(os.listdir(mnt) == [], "nothing left on the full tmpfs")
        finally:
            subprocess.run(["umount", mnt])
    else:
        print("note: cannot mount a tmpfs here; the file-size limit stands in for a full disk")


# ---- 6. interrupt while Gmsh meshes (a phase that polls nothing) ----------------------------
def item6():
    proc = subprocess.Popen([FCSIM, "run", CANT, "-q", "-o", "intr", "--set", "bodies[0].mesh.refine=3"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3.0)  # Gmsh meshes refine 3 for ~20 s
    check(proc.poll() is None, "still meshing after 3 s")
    t0 = time.time()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    dt = time.time() - t0
    figure("SIGINT while meshing: exit %d after %.2f s" % (proc.returncode, dt))
    check(proc.returncode == 130 and dt < 3.0, "exit 130 within 3 s of SIGINT (%.2f s)" % dt)
    check(not [x for x in os.listdir(tmp) if x.startswith("intr")], "nothing left")


# ---- 9. one line, not a traceback; -fc_debug shows it ----------------------------------------
def item9():
    p = fcsim(["run", CANT, "-q", "-o", "full", "--set", "time.dt=0.01"], env=env, preexec=limit(64))
    check(p.returncode == 1 and len(lines(p)) == 1 and "PETSC ERROR" not in p.stderr, "an I/O failure: one line, no traceback")
    p = fcsim(["run", CANT, "-q", "-o", "full", "--set", "time.dt=0.01", "-fc_debug"], env=env, preexec=limit(64))
    check(p.returncode == 1 and "PETSC ERROR" in p.stderr, "-fc_debug: PETSc's traceback (%d lines)" % len(lines(p)))


# ---- info makes the checks run makes ----------------------------------------------------------
def info():
    p = fcsim(["info", CANT, "--set", "bodies[0].boundary[0].group=\"clamp\""])
    one_line(p, 2, ["cantilever.json", "bodies[0].boundary[0].group", "clamp"], "info: an unknown boundary group")


# ---- MPI: what does not run on several ranks is refused before anything is computed (issue 11;
# issue 29: deformable bodies, contact with compliance exact and rigid bodies do run,
# tests/integration/test_mpi.py; compliance schur does not) ----------------------------------------
def mpi():
    mpiexec = shutil.which("mpiexec")
    check(mpiexec is not None, "mpiexec is installed (openmpi-bin, with petsc-dev)")
    e = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.run([mpiexec, "-n", "2", FCSIM, "run", FLOOR, "-q", "-o", "mpi", "--set", 'compliance.type="schur"'], cwd=tmp, capture_output=True, text=True, timeout=300, env=e)
    ours = [l for l in p.stderr.splitlines() if "block_on_floor.json:" in l or "fcsim" in l]
    figure("mpiexec -n 2 fcsim run: exit %d, '%s'" % (p.returncode, ours[0][:100] if ours else ""))
    check(p.returncode == 2 and len(ours) == 1 and "one process" in ours[0], "mpiexec -n 2: exit 2, one line from fcsim (%d)" % len(ours))
    check(not [x for x in os.listdir(tmp) if x.startswith("mpi")], "nothing written under mpiexec")


ITEMS = {"mpi": mpi, "1": item1, "2": item2, "3": item3, "4": item4, "6": item6, "9": item9, "info": info}
# `test_data_safety.py 2 4` runs those items only (each was checked failing on the code before)
for key in (sys.argv[1:] or list(ITEMS)):
    print("== item %s" % key)
    ITEMS[key]()
shutil.rmtree(tmp, ignore_errors=True)


# ---- as a normal user too (issue 31): root writes where users cannot, and a user's limits differ
def as_user():
    runuser = shutil.which("runuser")
    probe = subprocess.run([runuser, "-u", "nobody", "--", "test", "-r", os.path.abspath(__file__), "-a", "-x", FCSIM], capture_output=True) if runuser else None
    if not probe or probe.returncode != 0:
        print("note: the user nobody cannot read this tree (or no runuser): the normal-user pass is skipped")
        return
    env = dict(HOME=tempfile.gettempdir(), TMPDIR=tempfile.gettempdir(), PATH=os.environ.get("PATH", "/usr/bin:/bin"), FC_DATA_SAFETY_AS_USER="1")
    p = subprocess.run([runuser, "-u", "nobody", "--", "env", "-i"] + ["%s=%s" % kv for kv in env.items()] + [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], cwd=tempfile.gettempdir(), capture_output=True, text=True, timeout=600)
    figure("as the user nobody: exit %d, %d checks ok" % (p.returncode, sum(1 for l in p.stdout.splitlines() if l.startswith("ok"))))
    check(p.returncode == 0, "the whole test passes as a normal user (exit %d: %s)" % (p.returncode, (p.stdout + p.stderr).strip().splitlines()[-1:]))


if os.geteuid() == 0 and not os.environ.get("FC_DATA_SAFETY_AS_USER"):
    print("== as a normal user")
    as_user()
