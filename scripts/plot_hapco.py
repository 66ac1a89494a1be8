#!/usr/bin/python3
"""Figures of the HapCo solver study (talbi2008 Fig. 6-9) from scripts/hapco_study.py's output.

usage: plot_hapco.py [-o OUT] [--test common|paper|smallrho|talbirho] DIR

DIR/hapco.csv (one row per run x increment; with --test paper, DIR/paper.csv) gives, per benchmark and friction coefficient, one
panel of contact-solver iterations per increment (the sweeps of every contact solve of the
increment's Newton iterations, summed) for nsgs, uzawa_local and uzawa_global, on a log scale,
with the five phases of the displacement series marked; a non-converged increment is drawn as a
cross and the curve of a solver stops after its first one (the run continues from a state that
is no longer comparable; with --test paper every increment is the same problem for every solver, and
the crosses are the solves stopped by the iteration cap). DIR/fig8.csv, when present, gives a second figure: contact CPU time
against the tolerance (talbi2008 Fig. 8). Writes OUT.png and OUT.pdf (default DIR/hapco_<test>)
and OUT_fig8.png/.pdf. Exit 0, or 1 with a one-line message when a file is missing.
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figstyle  # noqa: E402  (one style for every figure: scripts/figstyle.py)

figstyle.apply()

STYLE = {"nsgs": ("C0", "o"), "uzawa_local": ("C1", "s"), "uzawa_global": ("C3", "^")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("-o", default=None)
    ap.add_argument("--test", default="common", choices=["common", "paper", "smallrho", "talbirho"])
    a = ap.parse_args()
    path = os.path.join(a.dir, "paper.csv" if a.test == "paper" else "hapco.csv")
    if not os.path.isfile(path):
        sys.exit("plot_hapco.py: %s: no such file (run scripts/hapco_study.py first)" % path)
    if a.test == "paper":
        # one contact problem per increment: its iterations; "converged" = stopped before the cap
        rows = [dict(r, contact_it=r["iterations"], converged="0" if r["capped"] == "True" else "1") for r in csv.DictReader(open(path))]
    else:
        rows = [r for r in csv.DictReader(open(path)) if r["test"] == a.test]
    if not rows:
        sys.exit("plot_hapco.py: %s: no rows for test %s" % (path, a.test))
    out = a.o or os.path.join(a.dir, "hapco_%s" % a.test)
    keys = sorted({(int(r["bench"]), float(r["mu"])) for r in rows})
    benches = sorted({k[0] for k in keys})
    mus = sorted({k[1] for k in keys})
    fig, axes = plt.subplots(len(benches), len(mus), figsize=(4.2 * len(mus), 3.2 * len(benches)), squeeze=False, sharex=True)
    for (b, mu) in keys:
        ax = axes[benches.index(b)][mus.index(mu)]
        sel = [r for r in rows if int(r["bench"]) == b and float(r["mu"]) == mu]
        for s in ("nsgs", "uzawa_local", "uzawa_global"):
            rs = sorted((r for r in sel if r["solver"] == s), key=lambda r: int(r["step"]))
            if not rs:
                continue
            xs, ys, bad = [], [], []
            for r in rs:
                k, it = int(r["step"]), max(1.0, float(r["contact_it"]))
                if float(r["converged"]) == 0:
                    bad.append((k, it))
                    if a.test != "paper":  # a run continues from an unusable state; the paper test's problems are all the run's
                        break
                    continue
                xs.append(k)
                ys.append(it)
            col, mk = STYLE[s]
            # nsgs wide and pale underneath: uzawa_local often takes exactly its sweeps and lies on it
            wide = s == "nsgs"
            ax.plot(xs, ys, color=col, marker=mk, ms=5 if wide else 3, lw=4 if wide else 1, alpha=0.45 if wide else 1, label=s)
            if bad:
                ax.plot([p[0] for p in bad], [p[1] for p in bad], "x", color=col, ms=8, mew=2)
        # phase boundaries: where the phase number changes
        ph = sorted({(int(r["step"]), int(r["phase"])) for r in sel})
        last = None
        for k, p in ph:
            if p != last and last is not None:
                ax.axvline(k - 0.5, color="0.6", lw=0.8, ls="--")
            if p != last:
                ax.text(k, 0.93, "P%d" % p, transform=ax.get_xaxis_transform(), fontsize=8, color="0.3")
            last = p
        ax.set_yscale("log")
        ax.set_title("benchmark %d, mu = %g" % (b, mu), fontsize=9)
        ax.set_xlabel("increment")
        ax.set_ylabel("iterations per increment" if a.test != "paper" else "iterations (one solve per increment)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    what = {"common": "every solver to the common error 1e-12 (talbi2008 Figs. 6-7)", "paper": "talbi2008's own stopping tests at eps = 1e-4",
            "smallrho": "uzawa_global with rho_factor 0.05", "talbirho": "uzawa_global with talbi2008's rho = 0.3 min 1/W_nn (Fig. 9)"}[a.test]
    fig.suptitle("HapCo, %s (x: first failed increment)" % what, fontsize=9)
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(out + "." + ext, dpi=150)
    print("plot_hapco.py: wrote %s.png and %s.pdf" % (out, out))

    f8 = os.path.join(a.dir, "fig8.csv")
    if os.path.isfile(f8):
        rows = list(csv.DictReader(open(f8)))
        fig, ax = plt.subplots(figsize=(5, 3.6))
        for s in ("nsgs", "uzawa_local", "uzawa_global"):
            rs = sorted((r for r in rows if r["solver"] == s and int(r["increments_not_counted"]) == 0), key=lambda r: float(r["tol"]))
            if rs:
                col, mk = STYLE[s]
                ax.loglog([float(r["tol"]) for r in rs], [float(r["contact_cpu_s"]) for r in rs], color=col, marker=mk, label=s)
        ax.set_xlabel("tolerance on the common error")
        ax.set_ylabel("contact CPU time, 37 increments [s]")
        ax.set_title("benchmark 1, mu = 0.6 (talbi2008 Fig. 8); runs with a failed increment omitted", fontsize=8)
        ax.invert_xaxis()
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        for ext in ("png", "pdf"):
            fig.savefig(out + "_fig8." + ext, dpi=150)
        print("plot_hapco.py: wrote %s_fig8.png and %s_fig8.pdf" % (out, out))


if __name__ == "__main__":
    main()
