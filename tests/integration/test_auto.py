"""The `auto` contact solver's switching rule on generated problems (doc/contact.md "auto").
Counts only (sweeps, steps, the printed common error): auto's path is deterministic (costs in
sweeps and flops, never wall time), so these are exact; timings are in `make bench`
(bench/auto_hard.py).

1. A wall of 292 contacts with mass ratio 1000 (bench/auto_hard.py's wall-300-mr1000): nsgs needs
   thousands of sweeps (5634), newton alone 21 steps from r = 0, whose first steps lower the common
   error slowly. auto probes newton (one step from the initial r), returns to nsgs, and when it
   probes again resumes newton's own path: newton then does the work, with exactly newton alone's
   steps and final r (the same printed error, 7 digits), and auto's sweeps are a small part of
   nsgs alone's (< 1/5: the goal is auto within 1.2x the faster solver; before the resumed path,
   auto restarted newton from nsgs's iterate, where its steps bought nothing, and did all 5634 sweeps
   of nsgs).
2. A wall of 96 contacts (wall-100 there): nsgs does the work, and auto's sweeps are nsgs's own
   bit for bit (the same count and printed error).
3. OneObject-i1028-138 of the real set (23 contacts, block-sparse W; skipped without
   ../shared/fclib-real): nsgs needs about a thousand sweeps (954), newton alone 17 steps from
   r = 0, whose first 11 steps leave the common error where it was (newton's global phase), so that
   auto's one-step probe from r = 0 buys next to nothing. auto drops that path and probes again
   from nsgs's iterate, where newton finishes in a few steps: newton finishes the solve, auto's
   sweeps are < 1/5 of nsgs alone's (the goal's margin: auto within 1.2x the faster solver), and
   its newton steps (the probe from r = 0 included) fewer than newton alone's 17 from r = 0 (before:
   the probe's path judged newton for good, and nsgs did all 954 sweeps: 3x newton alone's time)."""
import os
import re
import sys

from fctest import ROOT, run, outdir, figure, check, fclib_real

sys.path.insert(0, os.path.join(ROOT, "bench"))
import fclib_multibody as gen  # noqa: E402

d = outdir("auto")
os.makedirs(d)
LINE = re.compile(r"iterations (\d+) error (\S+) time \S+ s (\S+)")
NOTE = re.compile(r"nsgs (\d+) sweeps \S+ s, newton (\d+) steps \S+ s, (\d+) switches, started with (\w+), finished by (\w+)")


def problem(name, contacts, **kw):
    """The problem of bench/auto_hard.py's HARD list (same generator call, seed 1)."""
    fn = os.path.join(d, name + ".hdf5")
    P = gen.generate("wall", contacts // 4 + 1, 1, 0.3, 1.0, kw.get("mass_ratio", 1.0), 1e-2, None, 0.0, 0.0, 0.0, max_contacts=contacts)
    gen.write_fclib(P, fn)
    return fn


def solve(fn, solver):
    p = run(["fclib", "solve", fn, "--solver", solver, "--tol", "1e-8", "--max-it", "20000"])
    m = LINE.search(p.stdout)
    check(m and m.group(3) == "CONVERGED_TOL" and float(m.group(2)) <= 1e-8, "%s converges on %s: %s" % (solver, os.path.basename(fn), p.stdout.strip()))
    note = NOTE.search(p.stdout)
    return int(m.group(1)), m.group(2), note


# ---- 1. newton's path resumed ----
fw = problem("wall-300-mr1000", 300, mass_ratio=1000.0)
it_gs, err_gs, _ = solve(fw, "nsgs")
it_nt, err_nt, _ = solve(fw, "newton")
it_au, err_au, note = solve(fw, "auto")
sweeps, steps, switches, started, finished = int(note.group(1)), int(note.group(2)), int(note.group(3)), note.group(4), note.group(5)
figure("auto on the wall of 292 contacts, mass ratio 1000: %d nsgs sweeps + %d newton steps (%d switches, finished by %s); nsgs alone %d sweeps, newton alone %d steps"
       % (sweeps, steps, switches, finished, it_gs, it_nt))
check(finished == "newton" and steps == it_nt and err_au == err_nt,
      "newton did the work on its own path: %d steps and error %s as newton alone (%d, %s)" % (steps, err_au, it_nt, err_nt))
check(sweeps < it_gs / 5, "auto's sweeps are < 1/5 of nsgs alone's (%d of %d)" % (sweeps, it_gs))

# ---- 2. nsgs's sweeps bit for bit where nsgs does the work ----
f96 = problem("wall-100", 100)
it_gs, err_gs, _ = solve(f96, "nsgs")
it_au, err_au, note = solve(f96, "auto")
check(note.group(5) == "nsgs" and int(note.group(1)) == it_gs == it_au and err_au == err_gs,
      "auto made nsgs's sweeps on the wall of 96 contacts: %s iterations, error %s (nsgs: %d, %s)" % (it_au, err_au, it_gs, err_gs))

# ---- 3. newton's path from r = 0 dropped, a new one from nsgs's iterate ----
REAL = fclib_real()
if REAL is None:
    figure("auto on OneObject-i1028-138: no ../shared/fclib-real above the project root: skipped")
else:
    fo = os.path.join(REAL, "OneObject-i1028-138.hdf5")
    it_gs, _, _ = solve(fo, "nsgs")
    it_nt, _, _ = solve(fo, "newton")
    it_au, err_au, note = solve(fo, "auto")
    sweeps, steps, switches, started, finished = int(note.group(1)), int(note.group(2)), int(note.group(3)), note.group(4), note.group(5)
    figure("auto on OneObject-i1028-138: %d nsgs sweeps + %d newton steps (%d switches, finished by %s, error %s); nsgs alone %d sweeps, newton alone %d steps"
           % (sweeps, steps, switches, finished, err_au, it_gs, it_nt))
    check(finished == "newton" and switches >= 3,
          "newton finished OneObject after a second probe (finished by %s, %d switches: to newton, back to nsgs, to newton)" % (finished, switches))
    check(sweeps < it_gs / 5, "auto's sweeps on OneObject are < 1/5 of nsgs alone's (%d of %d)" % (sweeps, it_gs))
    check(steps < it_nt, "auto's newton steps on OneObject, the probe from r = 0 included, are fewer than newton alone's from r = 0 (%d < %d)" % (steps, it_nt))
