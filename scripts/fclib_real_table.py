#!/usr/bin/python3
"""Every contact solver on every problem of the real FCLIB set (../shared/fclib-real: 20 problems
written by Siconos, README there), one command (issue 25):

    /usr/bin/python3 scripts/fclib_real_table.py [--tol 1e-8] [--update doc/contact.md] [-o DIR]

Each solver runs through `bin/fcsim fclib compare FILES --solvers S --tol T --max-it N --format csv`
(one process per solver; N = 100000, a bound none of the converging solves comes near), so every
figure is fcsim's common error of the r the solver returned, on the problem as the file states it.
Prints (and with --update writes between the markers `<!-- fclib-real table -->` and
`<!-- /fclib-real table -->` of the file) a markdown table: per problem and solver the iterations,
the common error, the time and the status (converged at tol: the reason, CONVERGED_TOL; otherwise
the reason fcsim gave, e.g. DIVERGED_REGULARIZED for sap's answer above tol, DIVERGED_INEXACT for
lemke's pyramid answer), then the counts per solver and lemke's mean common error per number of
pyramid sides k. Times are one run's on whatever machine runs it: figures, not results."""
import argparse
import csv
import io
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVERS = ["nsgs", "newton", "auto", "uzawa_local", "uzawa_global", "lemke", "sap", "pgs"]
LEMKE_K = [4, 8, 16, 32]
SHORT = {"CONVERGED_TOL": "ok", "CONVERGED_REGULARIZED": "accepted", "DIVERGED_REGULARIZED": "tol not met (regularized)", "DIVERGED_INEXACT": "inexact",
         "DIVERGED_MAX_IT": "max_it", "DIVERGED_BREAKDOWN": "breakdown", "DIVERGED_NAN": "NaN", "DIVERGED_LINE_SEARCH": "line search", "REFUSED": "refused"}


def fclib_real():
    """../shared/fclib-real from the project root (from a git worktree: the nearest ancestor's)."""
    d = ROOT
    while os.path.dirname(d) != d:
        cand = os.path.join(os.path.dirname(d), "shared", "fclib-real")
        if os.path.isdir(cand):
            return cand
        d = os.path.dirname(d)
    sys.exit("fclib_real_table: no shared/fclib-real above %s" % ROOT)


def compare(fcsim, files, spec, tol, max_it):
    p = subprocess.run([fcsim, "fclib", "compare"] + files + ["--solvers", spec, "--tol", "%g" % tol, "--max-it", str(max_it), "--format", "csv"],
                       capture_output=True, text=True, cwd=ROOT)
    if p.returncode not in (0, 1):
        sys.exit("fclib_real_table: fcsim fclib compare --solvers %s failed (exit %d): %s" % (spec, p.returncode, p.stderr.strip()))
    return {os.path.basename(r["problem"]): r for r in csv.DictReader(io.StringIO(p.stdout))}


def fmt_time(t):
    return "%.2g ms" % (1e3 * t) if t >= 1e-4 else "%.2g µs" % (1e6 * t)


def write_dir(d, text, names, res, lem, tol):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "fclib_real.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["problem", "contacts", "solver", "iterations", "error", "time", "reason", "converged", "tol"])
        for spec, by in list(res.items()) + [("lemke:k=%d" % k, v) for k, v in lem.items()]:
            for n in names:
                r = by[n]
                w.writerow([n[:-5], r["contacts"], spec, r["iterations"], r["error"], r["time"], r["reason"], r["converged"], "%g" % tol])
    with open(os.path.join(d, "fclib_real.md"), "w") as f:
        f.write(text + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--max-it", type=int, default=100000)
    ap.add_argument("--fcsim", default=os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("--update", help="write the table into this markdown file between its markers")
    ap.add_argument("-o", help="also write DIR/fclib_real.csv (one row per problem and solver) and DIR/fclib_real.md (make figures)")
    a = ap.parse_args()
    d = fclib_real()
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".hdf5"))
    res = {s: compare(a.fcsim, files, s, a.tol, a.max_it) for s in SOLVERS}
    lem = {k: compare(a.fcsim, files, "lemke:k=%d" % k, a.tol, a.max_it) for k in LEMKE_K}
    names = [os.path.basename(f) for f in files]
    out = ["Common error tolerance %g, `--max-it %d`; each cell: iterations · common error · time · status "
           "(`ok`: CONVERGED_TOL; sap's line says `tol met` or `tol not met` with its regularization, "
           "here `tol not met (regularized)` = DIVERGED_REGULARIZED; lemke's pyramid answer above tol is `inexact`). "
           "Produced by `/usr/bin/python3 scripts/fclib_real_table.py --update doc/contact.md`." % (a.tol, a.max_it), "",
           "| problem | m | " + " | ".join(SOLVERS) + " |", "|---|---|" + "---|" * len(SOLVERS)]
    for n in names:
        cells = []
        for s in SOLVERS:
            r = res[s][n]
            if r["reason"] == "REFUSED":
                cells.append("refused")
                continue
            cells.append("%s · %.1e · %s · %s" % (r["iterations"], float(r["error"]), fmt_time(float(r["time"])), SHORT.get(r["reason"], r["reason"])))
        out.append("| %s | %s | %s |" % (n[:-5], res["nsgs"][n]["contacts"], " | ".join(cells)))
    out += ["", "| solver | converged at tol | largest common error | total time |", "|---|---|---|---|"]
    for s in SOLVERS:
        rows = [res[s][n] for n in names]
        conv = sum(r["converged"] == "1" for r in rows)
        errs = [float(r["error"]) for r in rows if r["error"]]
        out.append("| %s | %d of %d | %.1e | %s |" % (s, conv, len(rows), max(errs) if errs else float("nan"), fmt_time(sum(float(r["time"] or 0) for r in rows))))
    means = []
    for k in LEMKE_K:
        errs = [float(lem[k][n]["error"]) for n in names if lem[k][n]["error"]]
        means.append(math.exp(sum(math.log(max(e, 1e-300)) for e in errs) / len(errs)))
    out += ["", "lemke's pyramid error against its sides k (geometric mean of the common error over the %d problems): " % len(names) +
            ", ".join("k = %d: %.2e" % (k, m) for k, m in zip(LEMKE_K, means)) +
            (" (falls with k at every doubling)" if all(means[i + 1] < means[i] for i in range(len(means) - 1)) else " (NOT monotone in k)")]
    text = "\n".join(out)
    print(text)
    if a.o:
        write_dir(a.o, text, names, res, lem, a.tol)
    if a.update:
        path = os.path.join(ROOT, a.update) if not os.path.isabs(a.update) else a.update
        doc = open(path).read()
        b, e = "<!-- fclib-real table -->", "<!-- /fclib-real table -->"
        if b not in doc or e not in doc:
            sys.exit("fclib_real_table: %s has no markers %s ... %s" % (a.update, b, e))
        doc = doc[:doc.index(b) + len(b)] + "\n" + text + "\n" + doc[doc.index(e):]
        with open(path, "w") as f:
            f.write(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
