#!/usr/bin/env python3
"""Data safety, second pass (issue 31, items 1, 2, 3, 5; src/core/fsutil.c, src/study/refine.c).

1. Two runs to the same -o: the second refuses at once (one line naming the first's pid, exit 2)
   and the first's result is in place.
2. An interrupt while an earlier output is being replaced: the old or the new output is complete
   in place, never neither, and the line says which (20 timed SIGINT/SIGTERM trials).
3. Folders -o created are removed after an interrupt; folders that existed stay.
5. `study refine` killed with SIGKILL: its runs die with it, and a later study to the same -o
   removes the dead one's temporary folder.
6. A step that never ends (max_it 2^31 - 1, a tolerance out of reach) prints a progress line every
   5 s (Newton iteration and residual, the contact correction it is in) and stops on SIGINT."""
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from fctest import FCSIM, ROOT, check, figure  # noqa: E402

CANT = os.path.join(ROOT, "cases", "cantilever.json")
tmp = tempfile.mkdtemp(prefix="fc_outsafe_")


def lines(err):
    return [l for l in err.splitlines() if l.strip()]


def wait_line(p, text, deadline):
    """stderr lines of p up to the first holding text (or its end, or the deadline)."""
    got = ""
    while time.time() < deadline:
        if select.select([p.stderr], [], [], 1.0)[0]:
            line = p.stderr.readline()
            got += line
            if not line or text in line:
                break
    return got


def start(args, **kw):
    return subprocess.Popen([FCSIM] + args, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def leftovers(name):
    return sorted(x for x in os.listdir(tmp) if x != name and x.startswith(name) or x == ".%s.fcsim-lock" % name)


def steps_of(folder):
    """Rows of stats.csv (one per step) when the folder holds a complete run, else None."""
    try:
        with open(os.path.join(tmp, folder, "fcsim-output.txt")) as f:
            if not f.readline().startswith("fcsim output"):
                return None
        with open(os.path.join(tmp, folder, "stats.csv")) as f:
            rows = len(f.read().splitlines()) - 1
        nvtk = len([x for x in os.listdir(os.path.join(tmp, folder, "vtk")) if x.endswith(".vtk")])
        import h5py
        with h5py.File(os.path.join(tmp, folder, "run.h5"), "r") as h:
            groups = len(h.keys())
        return (rows, nvtk, groups)
    except (OSError, KeyError):
        return None


# ---- 1. two runs to the same destination ------------------------------------------------------
def item1():
    for trial in range(5):
        # A runs ~1.5 s; B starts once A holds the lock (its start-up alone is 0.2 s, so a fixed
        # head start raced A's end on a quiet machine)
        a = start(["run", CANT, "-q", "-o", "same", "--set", "time.dt=0.001"])
        lock = os.path.join(tmp, ".same.fcsim-lock")
        t0 = time.time()
        while not os.path.exists(lock) and time.time() - t0 < 30 and a.poll() is None:
            time.sleep(0.01)
        b = start(["run", CANT, "-q", "-o", "same", "--set", "time.dt=0.01"])
        _, eb = b.communicate(timeout=300)
        _, ea = a.communicate(timeout=300)
        lb = lines(eb)
        ok = a.returncode == 0 and b.returncode == 2 and len(lb) == 1 and ("pid %d" % a.pid) in lb[0] and "being written" in lb[0]
        if not ok:
            print("A exit %d: %s\nB exit %d: %s" % (a.returncode, ea, b.returncode, eb))
        check(ok, "trial %d: the second run to the same -o refuses at once, naming the first's pid (exit %d)" % (trial, b.returncode))
        got = steps_of("same")
        check(got is not None and got[0] == 1000, "trial %d: the first run's result (1000 steps) is in place: %s" % (trial, got))
        check(not leftovers("same"), "trial %d: nothing left beside it (%s)" % (trial, leftovers("same")))
        if trial == 0:
            figure("two runs to the same -o, the second once the first holds the lock: first exit %d, second exit %d '%s'" % (a.returncode, b.returncode, lb[0][:110]))
    shutil.rmtree(os.path.join(tmp, "same"))


# ---- 2. interrupts during the replacement of an earlier output --------------------------------
def item2():
    # the earlier output: 501 steps written every step (250 files); copied by hard links per trial
    subprocess.run([FCSIM, "run", CANT, "-q", "-o", "template", "--set", "time.dt=0.002"], cwd=tmp, check=True)
    old = steps_of("template")
    t0 = time.time()
    subprocess.run([FCSIM, "run", CANT, "-q", "-o", "probe", "--set", "time.dt=0.01"], cwd=tmp, check=True)
    duration = time.time() - t0
    new = steps_of("probe")
    shutil.rmtree(os.path.join(tmp, "probe"))
    check(old and new and old != new, "the earlier and the new output differ (%s, %s)" % (old, new))
    before = after = 0
    for trial in range(20):
        sig = signal.SIGINT if trial % 2 == 0 else signal.SIGTERM
        subprocess.run(["cp", "-al", os.path.join(tmp, "template"), os.path.join(tmp, "out")], check=True)
        p = start(["run", CANT, "-q", "-o", "out", "--set", "time.dt=0.01"])
        partial = "out.partial-%d" % p.pid
        if trial < 10:
            # as soon as the temporary folder is renamed into place: the earlier output is being removed
            deadline = time.time() + 120
            seen = False
            while time.time() < deadline and p.poll() is None:
                present = os.path.exists(os.path.join(tmp, partial))
                if present:
                    seen = True
                elif seen:
                    break
                time.sleep(0.0005)
        else:
            time.sleep(duration * (0.6 + 0.04 * (trial - 10)))
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
        got, ls = steps_of("out"), lines(err)
        if got == new and p.returncode in (0, 130):
            after += 1
            says = p.returncode == 0 and not ls or (len(ls) == 1 and "results were complete" in ls[0] and "out" in ls[0])
        elif got == old and p.returncode == 130:
            before += 1
            says = len(ls) == 1 and "nothing was kept" in ls[0]
        elif got == old and p.returncode == -sig and not ls:
            # the signal came while the dynamic loader was still mapping fcsim's libraries, before
            # main (fcsim's handler is its first line): killed at once, nothing written
            before += 1
            says = True
        else:
            says = False
        if not says:
            print("trial %d: exit %d, output %s (old %s, new %s), stderr %s" % (trial, p.returncode, got, old, new, err))
        check(says, "trial %d (%s): a complete output in place (%s) and the line says which: %s" % (trial, signal.Signals(sig).name, "new" if got == new else "old" if got == old else "NEITHER", ls[:1]))
        check(not leftovers("out"), "trial %d: nothing left beside it (%s)" % (trial, leftovers("out")))
        shutil.rmtree(os.path.join(tmp, "out"))
    figure("20 SIGINT/SIGTERM trials during the replacement of an earlier output: %d with the earlier output complete in place, %d with the new one, 0 with neither" % (before, after))
    shutil.rmtree(os.path.join(tmp, "template"))


# ---- 3. folders -o created are removed after an interrupt -------------------------------------
def wait_for(p, path, limit=60.0):
    """Until path exists (the run made its output folders), at most limit seconds; the run must still be going."""
    t0 = time.time()
    while not os.path.exists(path) and time.time() - t0 < limit and p.poll() is None:
        time.sleep(0.02)
    check(os.path.exists(path) and p.poll() is None, "the run made %s and is still going (after %.1f s)" % (os.path.relpath(path, tmp), time.time() - t0))


def item3():
    # the signal once the folders exist (a fixed delay could come before main on a loaded machine:
    # the process then dies of the signal before it created anything, which item 1 covers)
    p = start(["run", CANT, "-q", "-o", "a/b/c/out", "--set", "time.dt=0.001"])
    wait_for(p, os.path.join(tmp, "a", "b", "c"))
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    check(p.returncode == 130 and not os.path.exists(os.path.join(tmp, "a")), "SIGINT: a/b/c that -o created are removed (exit %d, a/ exists: %s)" % (p.returncode, os.path.exists(os.path.join(tmp, "a"))))
    os.makedirs(os.path.join(tmp, "mine"))
    with open(os.path.join(tmp, "mine", "notes.txt"), "w") as f:
        f.write("mine\n")
    p = start(["run", CANT, "-q", "-o", "mine/b/out", "--set", "time.dt=0.001"])
    wait_for(p, os.path.join(tmp, "mine", "b"))
    p.send_signal(signal.SIGTERM)
    p.communicate(timeout=60)
    check(sorted(os.listdir(os.path.join(tmp, "mine"))) == ["notes.txt"], "SIGTERM: mine/b is removed, the user's mine/ and its file stay (%s)" % os.listdir(os.path.join(tmp, "mine")))
    # an error after the check (a bad value found when the model is made) removes them too
    p = subprocess.run([FCSIM, "run", CANT, "-q", "-o", "x/y/out", "--set", "bodies[0].mesh.file=missing.msh"], cwd=tmp, capture_output=True, text=True)
    check(p.returncode == 2 and not os.path.exists(os.path.join(tmp, "x")), "bad input: nothing created is left (exit %d)" % p.returncode)
    figure("SIGINT with -o a/b/c/out: exit %d, folders left: %s" % (130, [x for x in os.listdir(tmp) if x == "a"]))


# ---- 5. a killed study leaves no runs behind --------------------------------------------------
def item5():
    s = start(["study", "refine", CANT, "--levels", "0,1", "-j", "2", "-o", "study", "--set", "time.dt=0.001", "-q"])
    runs = []
    for _ in range(600):
        runs = [int(x) for x in subprocess.run(["pgrep", "-P", str(s.pid)], capture_output=True, text=True).stdout.split()]
        if len(runs) == 2:
            break
        time.sleep(0.05)
    check(len(runs) == 2, "the study started its two runs (%s)" % runs)
    time.sleep(0.5)
    s.send_signal(signal.SIGKILL)
    s.wait()
    t0 = time.time()
    alive = runs
    while alive and time.time() - t0 < 30:
        time.sleep(0.1)
        alive = [r for r in runs if os.path.exists("/proc/%d" % r) and open("/proc/%d/stat" % r).read().split()[2] != "Z"]
    dt = time.time() - t0
    figure("study refine killed with SIGKILL: its %d runs ended %.2f s later" % (len(runs), dt))
    check(not alive, "the runs die with the study (alive after 30 s: %s)" % alive)
    part = [x for x in os.listdir(tmp) if x.startswith("study.partial-")]
    check(len(part) == 1, "the killed study's temporary folder is left (%s)" % part)
    p = subprocess.run([FCSIM, "study", "refine", CANT, "--levels", "0", "-o", "study", "-q"], cwd=tmp, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and not leftovers("study"), "a later study to the same -o removes it (exit %d, left: %s)" % (p.returncode, leftovers("study")))


# ---- 6. no silent forever: progress lines inside a step that never ends -----------------------
def item6():
    BLOCK = os.path.join(ROOT, "cases", "block_on_floor.json")
    forever = 2 ** 31 - 1
    newton = start(["run", CANT, "-o", "nw", "--set", "time.newton.max_it=%d" % forever, "--set", "time.newton.rtol=1e-30", "--set", "time.newton.atol=0"])
    contact = start(["run", BLOCK, "-o", "ct", "--set", "contact_solver.max_it=%d" % forever, "--set", "contact_solver.tol=1e-300"])
    t0 = time.time()
    for p, label, want in ((newton, "a Newton loop", "Newton iteration"), (contact, "a contact solve", "in the contact correction")):
        # a line every 5 s once a step has lasted 5 s: wait for the first (the set-up takes 1-10 s
        # on a loaded machine), then interrupt
        first = wait_line(p, " s in this step", t0 + 60)
        waited = time.time() - t0
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
        prog = [l for l in lines(first + err) if " s in this step" in l]
        figure("%s that never ends: %d progress line(s) in %.0f s, e.g. '%s'; SIGINT: exit %d" % (label, len(prog), waited, prog[0][:140] if prog else "", p.returncode))
        check(prog and all(want in l for l in prog) and p.returncode == 130, "%s: progress every 5 s while the step lasts, then SIGINT ends it (exit %d)" % (label, p.returncode))
    # 4e7 steps of the cantilever (t_end 1e7 s at dt 0.25 s, no fields, no run.h5: forced past
    # the size check, whose time bound says 1.2 h): this machine runs 35-1100 steps/s (loaded or
    # not), 10-300 h, which the measured rate says once, 10 s after the first step, also with -q.
    # The runs above end their single step never, so they get no such line.
    many = subprocess.Popen([FCSIM, "run", CANT, "-q", "-o", "many", "--force", "--set", "time.t_end=1e7", "--set", "output.every=1000000000", "--set", "output.hdf5=false"], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first = wait_line(many, "at that rate", time.time() + 60)
    many.send_signal(signal.SIGINT)
    _, err = many.communicate(timeout=60)
    check(len([l for l in lines(first + err) if "interrupted" in l]) == 1, "one line about the interrupt (%s)" % [l for l in lines(first + err) if "interrupted" in l])
    warn = [l for l in lines(first + err) if "at that rate" in l]
    hours = None
    m = re.search(r"steps in the first \d+ s: at that rate the run needs about ([0-9.e+]+) (h|days) more", warn[0]) if warn else None
    if m:
        hours = float(m.group(1)) * (24 if m.group(2) == "days" else 1)
    figure("4e7 steps with -q: '%s'; SIGINT: exit %d" % (warn[0] if warn else "", many.returncode))
    check(len(warn) == 1 and hours is not None and hours >= 1 and "of 40000000 steps" in warn[0] and many.returncode == 130, "a run of hours: one warning line from the measured rate (%s h), also with -q" % hours)


if __name__ == "__main__":
    try:
        item6()
        item1()
        item3()
        item5()
        item2()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("test_output_safety: OK")
