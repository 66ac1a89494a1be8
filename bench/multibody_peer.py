#!/usr/bin/python3
"""make bench: fcsim nsgs against Siconos 4.4 NSGS (default local solver and the projection local
solver) on generated multi-body FCLIB problems (bench/fclib_multibody.py), same common error.

    /usr/bin/python3 bench/multibody_peer.py [--sizes 100,300,1000,3000,10000] [--runs 3] [--large-runs 1]
        [--large-from 5000] [--storage sbm|dense] [--tol 1e-8] [--types nsgs,newton,auto] [--real]
        [--siconos-max-it N]

With --types, every fcsim type listed is timed against the same Siconos runs, and a table gives per
size class and type the median ratio fcsim / faster Siconos variant (and of the fastest runs), and
the problems where the type converged to --tol and neither Siconos variant did (issue 25). --real
adds the real FCLIB set (../shared/fclib-real), in classes of 1-8 and 9-99 contacts.

Per size class (about N contacts) three problems: a running-bond brick wall (mu in [0.3, 1]), a
pyramid of cubes (mu in [0.1, 1]) and a pyramid with densities spread over a factor 100 (mu in
[0.1, 1]). build/bench/siconos_peer solves each with the three solvers (alternating runs, medians,
Siconos' tolerance calibrated per problem so that every solution has common error <= tol) and
appends a CSV row; this script prints the per-problem table, then per size class the median time
ratio fcsim / faster Siconos variant, and for each solver the least-squares slope of log(time)
against log(contacts) over all problems. Timings are figures, never assertions. Size classes of
--large-from contacts or more are run --large-runs times only (a 10,000-contact wall needs about
26,000 sweeps: a quarter of an hour per solve or more for each of the three solvers).

Siconos' W is its sparse block matrix by default (--storage sbm: what Siconos builds from an FCLIB
file); fcsim's W is what its FCLIB reader chooses: block-sparse below fill 0.75 (all of these
problems), dense above (src/contact/problem.h, doc/contact.md "Storage of W")."""
import argparse
import csv
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fclib_multibody as gen  # noqa: E402

LAYOUTS = [  # (name, layout, generator keywords)
    ("wall", "wall", dict(mu_min=0.3, mu_max=1.0)),
    ("pyramid", "pyramid", dict(mu_min=0.1, mu_max=1.0)),
    ("pyramid-mr100", "pyramid", dict(mu_min=0.1, mu_max=1.0, mass_ratio=100.0)),
]


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def slope(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    sxx = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sxx if sxx > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,300,1000,3000,10000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--large-runs", type=int, default=1, help="runs for the size classes from --large-from on")
    ap.add_argument("--large-from", type=int, default=5000)
    ap.add_argument("--reuse", action="store_true", help="keep problem files already generated (same name: same layout, size, seed)")
    ap.add_argument("--storage", default="sbm", choices=["sbm", "dense"])
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "multibody"))
    ap.add_argument("--types", default="nsgs", help="fcsim solver types timed against the same Siconos runs (issue 25: nsgs,newton,auto)")
    ap.add_argument("--real", action="store_true", help="also the real FCLIB set (../shared/fclib-real), size classes 1-8 and 9-99 contacts")
    ap.add_argument("--siconos-max-it", type=int, default=100000, help="Siconos' sweep budget (its tolerance calibration may try 9 solves of it where it stalls)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    files, cls = [], {}
    if a.real:
        d = ROOT
        real = None
        while os.path.dirname(d) != d and not real:
            cand = os.path.join(os.path.dirname(d), "shared", "fclib-real")
            real = cand if os.path.isdir(cand) else None
            d = os.path.dirname(d)
        if not real:
            sys.exit("multibody_peer: --real: no shared/fclib-real above %s" % ROOT)
        for f in sorted(os.listdir(real)):
            if f.endswith(".hdf5"):
                fn = os.path.join(real, f)
                files.append(fn)
                cls[fn] = -1  # classified by its contacts below
    for size in [int(s) for s in a.sizes.split(",") if s]:
        for k, (name, layout, kw) in enumerate(LAYOUTS):
            fn = os.path.join(a.out, "%s_%d_s%d.hdf5" % (name, size, a.seed))
            files.append(fn)
            cls[fn] = size
            if a.reuse and os.path.exists(fn):
                print("reused %s" % os.path.relpath(fn, ROOT))
                continue
            P = gen.generate(layout, size // 4 + 1, seed=a.seed + 10 * k, max_contacts=size, **kw)
            gen.write_fclib(P, fn)
            print("generated %s: %d bodies, %d contacts, W %.2f %% full" % (os.path.relpath(fn, ROOT), P.nbodies, P.m, 100.0 * len(P.W_x) / (3 * P.m) ** 2))
            sys.stdout.flush()
    fcsv = os.path.join(a.out, "peer_%s_%s.csv" % (a.storage, a.sizes.replace(",", "-")))
    if os.path.exists(fcsv):
        os.remove(fcsv)
    peer = os.path.join(ROOT, "build", "bench", "siconos_peer")
    if not os.access(peer, os.X_OK):
        sys.exit("bench/multibody_peer.py: %s is not built: run `make bench`, or `make %s` first" % (os.path.relpath(peer, ROOT), os.path.relpath(peer, ROOT)))
    for runs, group in ((a.runs, [f for f in files if cls[f] < a.large_from]),
                        (a.large_runs, [f for f in files if cls[f] >= a.large_from])):
        if group:
            subprocess.run([peer, "-tol", repr(a.tol), "-runs", str(runs), "-siconos_storage", a.storage, "-csv", fcsv,
                            "-fcsim_types", a.types, "-siconos_max_it", str(a.siconos_max_it)] + group,
                           check=True, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    allrows = list(csv.reader(open(fcsv)))
    for r in allrows:  # the real problems: size class by contacts
        if cls[r[0]] == -1:
            cls[r[0]] = 1 if int(r[1]) <= 8 else 9
    if a.types != "nsgs":
        types = a.types.split(",")
        print("\n| size class | problems | " + " | ".join("%s: median / faster Siconos (fastest runs)" % t for t in types) + " | %s converged, Siconos (both) not |" % "/".join(types))
        print("|---|---|" + "---|" * (len(types) + 1))
        for size in sorted(set(cls.values())):
            cells, wins = [], []
            for t in types:
                rs = [r for r in allrows if cls[r[0]] == size and r[19] == t]
                if not rs:
                    cells.append("-")
                    continue
                cells.append("%.2f (%.2f)" % (median([float(r[12]) / min(float(r[13]), float(r[14])) for r in rs]),
                                              median([float(r[16]) / min(float(r[17]), float(r[18])) for r in rs])))
                wins.append(str(sum(int(r[15]) == 1 and float(r[7]) > a.tol and float(r[8]) > a.tol for r in rs)))
            n = len({r[0] for r in allrows if cls[r[0]] == size})
            label = {1: "real, 1-8 contacts", 9: "real, 9-99 contacts"}.get(size, str(size))
            print("| %s | %d | %s | %s |" % (label, n, " | ".join(cells), "/".join(wins)))
        conv = {t: sum(int(r[15]) for r in allrows if r[19] == t) for t in types}
        print("\nconverged to %g: %s of %d problems; Siconos NSGS %d, NSGS/proj %d" % (a.tol, ", ".join("%s %d" % (t, conv[t]) for t in types), len({r[0] for r in allrows}),
              sum(float(r[7]) <= a.tol for r in allrows if r[19] == types[0]), sum(float(r[8]) <= a.tol for r in allrows if r[19] == types[0])))
    rows = [r for r in allrows if len(r) < 20 or r[19] == a.types.split(",")[0]]
    # columns: file, m, storage, it fcsim, it NSGS, it NSGS/proj, errors (3), tol_s (2), tol, t fcsim, t NSGS, t NSGS/proj,
    # converged, then the fastest run of fcsim, NSGS, NSGS/proj
    print("\n| size class | problems | contacts | median fcsim / NSGS | median fcsim / (NSGS/proj) | median fcsim / faster Siconos | the same, fastest runs |")
    print("|---|---|---|---|---|---|---|")
    for size in sorted(set(cls.values())):
        rs = [r for r in rows if cls[r[0]] == size]
        if not rs:
            continue
        tf = [float(r[12]) for r in rs]
        t0 = [float(r[13]) for r in rs]
        t1 = [float(r[14]) for r in rs]
        best = median([float(r[16]) / min(float(r[17]), float(r[18])) for r in rs]) if len(rs[0]) > 18 else float("nan")
        print("| %d | %d | %s | %.2f | %.2f | %.2f | %.2f |" % (
            size, len(rs), "-".join(sorted({r[1] for r in rs}, key=int)),
            median([f / s for f, s in zip(tf, t0)]), median([f / s for f, s in zip(tf, t1)]),
            median([f / min(s, p) for f, s, p in zip(tf, t0, t1)]), best))
    m = [int(r[1]) for r in rows]
    print("\nlog-log slope of solve time against contacts (all %d problems): fcsim nsgs %.2f, Siconos NSGS %.2f, Siconos NSGS/proj %.2f"
          % (len(rows), slope(m, [float(r[12]) for r in rows]), slope(m, [float(r[13]) for r in rows]), slope(m, [float(r[14]) for r in rows])))
    print("log-log slope of time per sweep against contacts: fcsim nsgs %.2f, Siconos NSGS %.2f, Siconos NSGS/proj %.2f"
          % tuple(slope(m, [float(r[12 + k]) / max(1, int(r[3 + k])) for r in rows]) for k in range(3)))
    worst = max(max(float(r[6]), float(r[7]), float(r[8])) for r in rows)
    print("largest common error of any solution: %.1e (tol %g); fcsim converged on %d of %d" % (worst, a.tol, sum(int(r[15]) for r in rows), len(rows)))
    print("bench multibody: median time ratio fcsim / faster Siconos over all problems = %.2f (goal <= 0.67)"
          % median([float(r[12]) / min(float(r[13]), float(r[14])) for r in rows]))


if __name__ == "__main__":
    main()
