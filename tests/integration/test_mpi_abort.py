#!/usr/bin/env python3
"""A write that fails on one rank alone, inside the steps of `mpiexec -n 2 fcsim run`
(doc/mpi.md "Failures on several ranks"; src/run/run.c, the MPI_Abort after a step error).

The other rank is then waiting in a collective call that never completes: the failing rank must
print its line, remove the temporary folder and end the job with MPI_Abort. The failure is real,
not simulated: once rank 0 has created its temporary run.h5, the test lowers one rank's file-size
limit (prlimit(2) on that process alone, rank 0 or rank 1; fcsim ignores SIGXFSZ, so the next write that grows
run.h5 fails with EFBIG). A limit set before the start would stop Open MPI's own start-up (its
shared-memory files need 8-32 MB, measured), not fcsim. Checked:

- the job ends with exit 1 (MPI_Abort's code) within the timeout: no rank is left waiting;
- fcsim prints one line naming the file whose write failed (Open MPI's OMPIO may print one line
  of its own before it: `mca_fbtl_posix_pwritev: error in (p)write(v):File too large`);
- both of Open MPI's MPI-IO components, OMPIO (the default) and ROMIO. The first write to fail
  is run.h5's (OMPIO reported it on both ranks once) or rank 0's stats.csv, rank 0's alone (most
  runs, with either component). That path hung before MPI_Abort was moved ahead of the clean-up
  (rank 0 destroying MUMPS' factor, a collective call, while rank 1 waited in a MatMult);
- a failure of rank 1 (its share of run.h5's collective write): rank 1 removes rank 0's temporary
  folder itself before the abort (the ranks share the file system run.h5 is on);
- an error every rank raises alike (a non-finite result, 2 and 3 ranks) is one line, rank 0's;
- the target folder of an earlier run is untouched (the same run.h5 bytes), no temporary folder
  `out.partial-*` is left, no fcsim process of the job survives, and the empty TMPDIR the job
  started with is still empty.
"""
import glob
import hashlib
import os
import resource
import shutil
import subprocess
import tempfile
import time
from fctest import ROOT, FCSIM, figure, check, mpi_env

FLOOR = os.path.join(ROOT, "cases", "block_on_floor.json")
mpiexec = shutil.which("mpiexec")
check(mpiexec is not None, "mpiexec is installed (openmpi-bin, with petsc-dev: scripts/deps.sh)")
tmp = tempfile.mkdtemp(prefix="fcsim-test-mpi-abort-")
tmpdir = os.path.join(tmp, "tmpdir")
os.makedirs(tmpdir)
env0 = mpi_env(tmpdir)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def job_pids():
    """The fcsim processes started under this test's TMPDIR, with their rank."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            if os.readlink("/proc/%s/exe" % d) != os.path.realpath(FCSIM):
                continue
            environ = open("/proc/%s/environ" % d, "rb").read().split(b"\0")
        except OSError:
            continue
        if ("TMPDIR=" + tmpdir).encode() in environ:
            rank = [e for e in environ if e.startswith(b"OMPI_COMM_WORLD_RANK=")]
            out[int(d)] = int(rank[0].split(b"=")[1]) if rank else -1
    return out


def abort_case(io, failing):
    """One failing run with Open MPI's MPI-IO component io (None: its default, OMPIO), the write
    of rank `failing` failing."""
    env = dict(env0, OMPI_MCA_io=io) if io else env0
    label = "%s, rank %d" % (io or "OMPIO", failing)
    out = "out_%s_%d" % (io or "ompio", failing)
    cmd = [mpiexec, "-q", "-n", "2", FCSIM, "run", "-q", FLOOR, "-o", out]
    # an earlier result at the target
    p = subprocess.run(cmd + ["--set", "time.t_end=0.05"], cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "%s: the earlier 2-rank run writes its target (exit %d: %s)" % (label, p.returncode, p.stderr.strip()[:300]))
    before = digest(os.path.join(tmp, out, "run.h5"))
    # the failing run: long enough (t_end 50 s of simulated time) to be inside the steps when the limit falls
    p = subprocess.Popen(cmd + ["--set", "time.t_end=50"], cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0, part = time.time(), []
    while time.time() - t0 < 120 and p.poll() is None:
        part = glob.glob(os.path.join(tmp, out + ".partial-*", "run.h5"))
        if part and os.path.getsize(part[0]) > 0:
            break
        time.sleep(0.05)
    ranks = job_pids()
    victim = [pid for pid, r in ranks.items() if r == failing]
    check(part and len(victim) == 1, "%s: rank %d (%s of %s) is inside the steps, run.h5 open (%s)" % (label, failing, victim, ranks, part))
    resource.prlimit(victim[0], resource.RLIMIT_FSIZE, (1024, 1024))  # run.h5 is larger: its next growth fails
    t1 = time.time()
    try:
        _, err = p.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        for pid in job_pids():
            os.kill(pid, 9)
        p.kill()
        _, err = p.communicate()
        check(False, "%s: the job ends after the failed write (still running after 300 s: a rank waits for ever)" % label)
    lines = [l for l in err.splitlines() if l.strip()]
    ours = [l for l in lines if l.startswith("fcsim")]
    others = [l for l in lines if not l.startswith("fcsim")]
    check(p.returncode == 1, "%s: the job exits 1 (MPI_Abort) (got %d)" % (label, p.returncode))
    # which write fails first depends on timing: run.h5 (a collective write) or rank 0's
    # stats.csv (rank 0's alone: the path that hung before the abort preceded the clean-up)
    check(len(ours) == 1 and out + ".partial-" in ours[0] and ("File too large" in ours[0] or "HDF5 error writing" in ours[0]),
          "%s: fcsim prints one line naming the failed file (got %s)" % (label, " | ".join(ours)[:400]))
    check(all("mca_fbtl" in l for l in others) and len(others) <= 1, "%s: no other line but Open MPI's own write error (got %s)" % (label, " | ".join(others)[:400]))
    check(digest(os.path.join(tmp, out, "run.h5")) == before, "%s: the earlier result at the target is untouched" % label)
    left = glob.glob(os.path.join(tmp, out + ".partial-*"))
    check(not left, "%s: no temporary folder is left (%s)" % (label, left))
    for _ in range(50):  # MPI_Abort's kill of the other rank is asynchronous to mpiexec's exit
        if not job_pids():
            break
        time.sleep(0.1)
    check(not job_pids(), "%s: no fcsim process of the job survives (%s)" % (label, job_pids()))
    check(os.listdir(tmpdir) == [], "%s: the job's TMPDIR is still empty (%s)" % (label, os.listdir(tmpdir)))
    figure("MPI abort (%s): a write fails inside the steps of a 2-rank run: exit %d %.1f s after the limit, '%s'; target untouched, nothing left"
           % (label, p.returncode, time.time() - t1, ours[0][:100]))


def nonfinite(n):
    """An error every rank raises alike: the result of a converged step is not finite (a 1 Pa beam
    under 1e152 N). The ranks agree on what overflowed (the lowest rank that found a value tells
    the others: src/step/step.c; before, the finder could return alone while the others waited in
    the probes' broadcast) and rank 0 alone prints the line."""
    cant = os.path.join(ROOT, "cases", "cantilever.json")
    pre = [mpiexec, "-q", "-n", str(n)] + (["--oversubscribe"] if n > 2 else [])
    p = subprocess.run(pre + [FCSIM, "run", "-q", cant, "-o", "out_nf%d" % n, "--set", "bodies[0].material.E=1", "--set", "bodies[0].loads[0].force=[0, 0, -1e152]"],
                       cwd=tmp, env=env0, capture_output=True, text=True, timeout=300)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(p.returncode == 1 and len(lines) == 1 and "the result is not finite" in lines[0],
          "%d ranks, a non-finite result: exit 1, one line (got %d: %s)" % (n, p.returncode, " | ".join(lines)[:400]))
    check(not os.path.exists(os.path.join(tmp, "out_nf%d" % n)) and not glob.glob(os.path.join(tmp, "out_nf%d.partial-*" % n)),
          "%d ranks, a non-finite result: nothing written" % n)


try:
    for n in (2, 3):
        nonfinite(n)
    # rank 1 failing under ROMIO too: it hung inside HDF5 1.10's H5Fflush (one rank in a barrier,
    # the other in a broadcast) until run.h5 was no longer flushed per step on several ranks
    # (src/io/h5out.c H5FlushSteps, doc/mpi.md)
    for io, failing in ((None, 0), ("romio321", 0), (None, 1), ("romio321", 1)):
        abort_case(io, failing)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
