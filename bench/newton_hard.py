#!/usr/bin/python3
"""make bench: the newton contact solver on generated multi-body problems, beside nsgs with a sweep cap.

    /usr/bin/python3 bench/newton_hard.py [--sizes 50,200,500,1000,2000] [--cap 10000] [--tol 1e-10]

Problems (bench/fclib_multibody.py, rigid boxes at rest, W = H M^-1 H^T exactly, rank deficient
wherever a box rests on more than two contacts): per size (about N contacts) a stack, a brick wall
and a pyramid, each with mu in [0.1, 0.3] and mu = 1, and each with equal densities and densities
spread over a factor 1000 (mass ratio). Each file is read by build/bench/newton_hard, its W stored as the fill rule
chooses (block-sparse below 75 %), and solved from r = 0 by nsgs (at most --cap sweeps) and by
newton (at most --newton-max-it steps), both to --tol; newton's view gives its nsgs fallback rounds. Prints one table row per problem (markdown) and a summary:
on how many problems nsgs stalls above 1e-6 and on how many of them newton reaches --tol.
Timings are figures, never assertions."""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fclib_multibody as gen  # noqa: E402

PROG = os.path.join(ROOT, "build", "bench", "newton_hard")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="50,200,500,1000,2000")
    ap.add_argument("--cap", type=int, default=10000, help="nsgs sweep cap")
    ap.add_argument("--tol", type=float, default=1e-10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layouts", default="stack,wall,pyramid")
    ap.add_argument("--newton-max-it", type=int, default=200)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "newton_hard"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    files = []
    for size in [int(x) for x in a.sizes.split(",")]:
        for layout in a.layouts.split(","):
            for mu in [(0.1, 0.3), (1.0, 1.0)]:
                for mr in [1.0, 1000.0]:
                    fn = os.path.join(a.out, "%s_%d_mu%g_mr%g.hdf5" % (layout, size, mu[1], mr))
                    P = gen.generate(layout, size // 4 + 1, seed=a.seed, mu_min=mu[0], mu_max=mu[1], mass_ratio=mr,
                                     max_contacts=size)
                    gen.write_fclib(P, fn)
                    files.append(fn)
    print("| problem | contacts | W fill % | storage | nsgs sweeps | nsgs error | nsgs time [s] | newton steps | newton error | newton time [s] | fallback rounds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    sys.stdout.flush()
    nstall = nstall_ok = nall = nok = 0
    worst = 0.0
    proc = subprocess.Popen([PROG, "-cap", str(a.cap), "-tol", repr(a.tol), "-newton_max_it", str(a.newton_max_it)] + files,
                            stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        w = line.split()
        if not w or w[0] != "ROW":
            continue
        fn, m, fill, storage, git, gerr, gt, nit, nerr, nt, fb = w[1:12]
        nall += 1
        nok += float(nerr) <= a.tol
        worst = max(worst, float(nerr))
        if float(gerr) > 1e-6:
            nstall += 1
            nstall_ok += float(nerr) <= a.tol
        print("| %s | %s | %.2f | %s | %s | %.1e | %.3f | %s | %.1e | %.3f | %s |" % (
            os.path.basename(fn)[:-5], m, 100 * float(fill), storage, git, float(gerr), float(gt), nit, float(nerr), float(nt), fb))
        sys.stdout.flush()
    if proc.wait():
        raise SystemExit("%s failed (exit %d)" % (PROG, proc.returncode))
    print("\nbench newton_hard: newton reached %g on %d of %d problems (largest error %.1e); nsgs (cap %d sweeps) stalled above 1e-6 on %d, newton converged on %d of those"
          % (a.tol, nok, nall, worst, a.cap, nstall, nstall_ok))


if __name__ == "__main__":
    main()
