#!/usr/bin/python3
"""First time steps of a wall of thousands of blocks (issue 29 item 4): a wall of about N blocks
(bench/setup_scaling.py's generator, one body per physical volume of one .msh, every pair among
the blocks in contact with both passes, a rigid floor) run for a few steps by `fcsim run`, and per
step: contacts, active ones, the step's Newton iterations, the contact solver's iterations and
common error, whether it converged, the step time and its W and contact-solve parts; the whole
run's CPU time and peak memory. The run must converge (exit 0): this script fails otherwise.

The wall is the well-posed variant of setup_scaling's (doc/performance.md "Thousands of bodies"):
head joints open by JOINT m, the odd courses INSET m shallower on each side and one block shorter,
so that every contact node lies inside the face it touches (in the set-up wall the corner nodes lie
on the neighbours' edges, where the normal flips between two faces from one Newton iteration to
the next: the step never converged). The step's Newton tolerances are the masonry arch's (rtol
1e-8, atol 1e-9). Contact solver nsgs with a budget of MAX_IT sweeps and a tolerance from the
physics (tolerance()): on a stack of 32 courses Gauss-Seidel gains a decade in about a thousand
sweeps near 1e-6 and ever less below (information crosses one contact per sweep; 100,000 sweeps
reached 3.2e-8 on 512 blocks), and newton's global phase stalls there (doc/performance.md).

Usage: bench/wall_steps.py [--blocks 2000] [--steps 2] [--solver nsgs] [--tol T] [--bin bin/fcsim]
[--keep DIR]."""
import argparse, csv, os, resource, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from setup_scaling import ROOT, wall_shape, write_wall  # noqa: E402

JOINT, INSET, DT, MAX_IT = 0.02, 0.02, 0.04, 20000
MU = 0.8  # the friction coefficient of setup_scaling.write_wall's case


def bond_shape(blocks):
    """(courses, blocks of an even course) of a bond wall (odd courses one block shorter) of at
    least `blocks` blocks, about twice as long as high."""
    rows, _ = wall_shape(blocks)
    cols = -(-(blocks + rows // 2) // rows)
    return rows, cols


def tolerance(rows, cols, share=1e-2):
    """Tolerance on the common error (doc/contact.md §3: |e| / max(|q|, |r|, |u|)) that bounds the
    residual impulse of the whole wall, |e| (2-norm over all contacts), by `share` of one block's
    weight over a step, m g dt. At rest every bed joint carries the weight of the blocks above it,
    so the normal impulses sum to S = m g dt sum over blocks of (course index + 1), and
    |r| <= sum |r_a| <= sqrt(1 + mu^2) S (|r_T| <= mu r_N); |q| and |u| are velocities of order
    g dt sqrt(3 contacts), far below |r| (in N s) here. Hence |e| <= tol sqrt(1 + mu^2) S, and
    tol = share m g dt / (sqrt(1 + mu^2) S) = share / (sqrt(1 + mu^2) sum (course + 1))."""
    courses = sum((j + 1) * (cols - (j % 2)) for j in range(rows))
    return share / ((1.0 + MU * MU) ** 0.5 * courses)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blocks", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--solver", default="nsgs", help="contact_solver.type")
    ap.add_argument("--tol", type=float, help="contact_solver.tol (default: tolerance(), 1 %% of a block's weight)")
    ap.add_argument("--bin", default=os.environ.get("FCSIM_BIN", os.path.join(ROOT, "bin", "fcsim")))
    ap.add_argument("--keep", help="write the wall and the run's outputs in this folder (kept)")
    a = ap.parse_args()
    rows, cols = bond_shape(a.blocks)
    tol = a.tol or tolerance(rows, cols)
    with tempfile.TemporaryDirectory() as tmp:
        work = a.keep or tmp
        os.makedirs(work, exist_ok=True)
        path = os.path.join(work, "wall_%d" % a.blocks)
        write_wall(rows, path, cols, joint=JOINT, inset=INSET)
        nblocks = rows * cols - rows // 2
        out = os.path.join(work, "run")
        cmd = [a.bin, "run", path + ".json", "-q", "-o", out, "--overwrite",
               "--set", "time.t_end=%.17g" % (a.steps * DT), "--set", "time.newton.rtol=1e-8",
               "--set", "time.newton.atol=1e-9", "--set", "contact_solver.type=" + a.solver,
               "--set", "contact_solver.tol=%.3g" % tol, "--set", "contact_solver.max_it=%d" % MAX_IT]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, capture_output=True, text=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        if p.returncode:
            sys.exit("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
        with open(os.path.join(out, "stats.csv")) as f:
            steps = list(csv.DictReader(f))
    print("wall of %d blocks (%d courses of %d and %d), contact solver %s (tol %.3g, %d iterations at most), %d steps of %g s; CPU %.1f s, peak %.0f MB"
          % (nblocks, rows, cols, cols - 1, a.solver, tol, MAX_IT, len(steps), DT, cpu, r1.ru_maxrss / 1024.0))
    print("| step | contacts | active | Newton it. | contact it. | common error | converged | step [s] | W [s] | contact solve [s] |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in steps:
        print("| %s | %s | %s | %s | %s | %.2e | %s | %.1f | %.1f | %.1f |" % (
            s["step"], s["contacts"], s["active"], s["newton_it"], s["contact_it"], float(s["contact_error"]),
            s["converged"], float(s["step_time"]), float(s["w_time"]), float(s["contact_solve_time"])))
    print("FIGURE wall of %d blocks, %s tol %.2g: %d steps converged, %s contacts, step time %s s, contact error %s, contact iterations %s, Newton iterations %s; CPU %.1f s, %.0f MB"
          % (nblocks, a.solver, tol, sum(int(s["converged"]) for s in steps), steps[0]["contacts"],
             "/".join("%.1f" % float(s["step_time"]) for s in steps),
             "/".join("%.1e" % float(s["contact_error"]) for s in steps),
             "/".join(s["contact_it"] for s in steps), "/".join(s["newton_it"] for s in steps), cpu, r1.ru_maxrss / 1024.0))


if __name__ == "__main__":
    main()
