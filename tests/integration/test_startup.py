#!/usr/bin/env python3
"""Start-up on a fresh machine (issue 25, item 1; src/core/mpienv.c).

Plain fcsim processes started together, as a batch of runs or `study refine -j N` starts them,
each under a new empty TMPDIR and with none of the caller's MPI settings: every one must exit
0 (Open MPI 4.1's singletons raced to create the shared session folder $TMPDIR/ompi.<host>.<uid>
and failed with `orte_session_dir failed`), and none may leave a folder behind. A user's own
Open MPI setting wins; a folder left by a process killed with SIGKILL is removed by a later
start."""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from fctest import FCSIM, ROOT, check, figure  # noqa: E402

CANT = os.path.join(ROOT, "cases", "cantilever.json")
BATCHES, AT_ONCE = 10, 8


def plain_env(tmpdir, **extra):
    """The caller's environment without any Open MPI / PMIx setting, TMPDIR set."""
    e = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PMI_"))}
    e["TMPDIR"] = tmpdir
    e.update(extra)
    return e


def batch(tmpdir):
    procs = []
    for i in range(AT_ONCE):
        out = os.path.join(tmpdir, "out%d" % i)
        procs.append(subprocess.Popen([FCSIM, "run", CANT, "-q", "-o", out, "--set", "time.dt=0.5"], env=plain_env(tmpdir),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    codes = []
    for p in procs:
        _, err = p.communicate(timeout=300)
        if p.returncode:
            print("exit %d: %s" % (p.returncode, err.strip()[-400:]))
        codes.append(p.returncode)
    return codes


def main():
    top = tempfile.mkdtemp(prefix="fc_startup_")
    try:
        # A run killed with SIGKILL leaves its private session folder; a start more than 10 s
        # later (the age below which a folder is never taken) must remove it.
        stale_tmp = os.path.join(top, "stale")
        os.makedirs(stale_tmp)
        victim = subprocess.Popen([FCSIM, "run", CANT, "-q", "-o", os.path.join(stale_tmp, "out"), "--set", "time.dt=0.0005"],
                                  env=plain_env(stale_tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if any(x.startswith("fcsim-mpi-") for x in os.listdir(stale_tmp)):
                break
            time.sleep(0.05)
        time.sleep(0.5)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        killed_at = time.time()
        left = [x for x in os.listdir(stale_tmp) if x.startswith("fcsim-mpi-")]
        check(len(left) == 1, "a SIGKILLed run leaves its private session folder (%s)" % left)

        ok = total = leftover = 0
        for b in range(BATCHES):
            tmpdir = os.path.join(top, "b%d" % b)
            os.makedirs(tmpdir)
            codes = batch(tmpdir)
            total += len(codes)
            ok += sum(1 for c in codes if c == 0)
            rest = sorted(x for x in os.listdir(tmpdir) if not x.startswith("out"))
            leftover += len(rest)
            if rest:
                print("batch %d left %s" % (b, rest))
        figure("start-up: %d of %d concurrent runs exit 0 (%d at a time x %d batches, each under a new empty TMPDIR, "
               "no MPI settings), %d folders left behind" % (ok, total, AT_ONCE, BATCHES, leftover))
        check(ok == total, "every concurrent run starts and exits 0 (%d of %d)" % (ok, total))
        check(leftover == 0, "no session folder is left in TMPDIR (%d)" % leftover)

        # the stale folder of the killed run: removed by the next start once it is 10 s old
        time.sleep(max(0.0, 10.5 - (time.time() - killed_at)))
        p = subprocess.run([FCSIM, "info", CANT], env=plain_env(stale_tmp), capture_output=True, text=True, timeout=120)
        left = [x for x in os.listdir(stale_tmp) if x.startswith("fcsim-mpi-")]
        check(p.returncode == 0 and not left, "the next start removes a killed run's folder (left: %s)" % left)

        # a user's own session folder wins: Open MPI's folder goes there (looked at while the run
        # lasts: Open MPI removes it at exit), nothing of fcsim's in TMPDIR
        own_tmp, own_base = os.path.join(top, "own_tmp"), os.path.join(top, "own_base")
        os.makedirs(own_tmp)
        os.makedirs(own_base)
        p = subprocess.Popen([FCSIM, "run", CANT, "-q", "-o", os.path.join(top, "own_out"), "--set", "time.dt=0.0005"],
                             env=plain_env(own_tmp, OMPI_MCA_orte_tmpdir_base=own_base), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen = False
        for _ in range(200):
            if any(x.startswith("ompi.") for x in os.listdir(own_base)):
                seen = True
                break
            time.sleep(0.05)
        in_tmp = os.listdir(own_tmp)
        p.send_signal(signal.SIGKILL)
        p.wait()
        check(seen and in_tmp == [], "a user's OMPI_MCA_orte_tmpdir_base is used as it is (Open MPI's folder there: %s; in TMPDIR: %s)" % (seen, in_tmp))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print("test_startup: OK")


if __name__ == "__main__":
    main()
