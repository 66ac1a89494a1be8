#!/usr/bin/python3
"""Draw a `fcsim study compare` matrix (DIR/compare.csv, doc/study.md): per run, the cost split
(seconds summed over the steps: assembly, factorization, Delassus operator W, contact detection,
contact solve, output, the rest of the step) as stacked bars beside its wall time, the contact
iterations per step, and the largest probe difference from the first run (log scale).

usage: plot_study_compare.py DIR [-o PREFIX]   (default PREFIX: DIR/compare; writes .png, .pdf)"""
import argparse
import csv
import math
import os
import sys

import figstyle

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

figstyle.apply()

PARTS = [("assembly_time", "assembly"), ("factor_time", "factorization"), ("w_time", "W (Delassus)"),
         ("detect_time", "detection"), ("contact_solve_time", "contact solve"), ("output_time", "output")]


def num(s):
    try:
        return float(s)
    except ValueError:
        return math.nan


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("-o", "--out", default=None, help="output prefix (default DIR/compare)")
    a = ap.parse_args()
    path = os.path.join(a.dir, "compare.csv")
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        print("plot_study_compare.py: %s: %s" % (path, e.strerror), file=sys.stderr)
        return 2
    need = ["run", "step_time", "wall_time_s", "mean_contact_it", "max_probe_difference"] + [p for p, _ in PARTS]
    if not rows or any(k not in rows[0] for k in need):
        print("plot_study_compare.py: %s: not a study compare table (columns %s)" % (path, ", ".join(need)), file=sys.stderr)
        return 2
    names = [r["run"] for r in rows]
    y = list(range(len(rows)))
    fig, ax = plt.subplots(1, 3, figsize=(13, 0.9 + 0.32 * len(rows)), sharey=True, gridspec_kw={"width_ratios": [2.2, 1, 1.2], "wspace": 0.25})
    left = [0.0] * len(rows)
    for col, label in PARTS:
        v = [max(0.0, num(r[col])) if math.isfinite(num(r[col])) else 0.0 for r in rows]
        ax[0].barh(y, v, left=left, label=label)
        left = [l + x for l, x in zip(left, v)]
    rest = [max(0.0, num(r["step_time"]) - l) if math.isfinite(num(r["step_time"])) else 0.0 for r, l in zip(rows, left)]
    ax[0].barh(y, rest, left=left, label="rest of the step", color="#bbbbbb")
    # the wall time (start-up, meshing and files included) as text: on a short run it dwarfs the steps
    for k, r in enumerate(rows):
        ax[0].text(left[k] + rest[k], k, "  wall %.3g s" % num(r["wall_time_s"]), va="center", fontsize=7)
    ax[0].set_xlim(0, 1.35 * max(1e-12, max(l + x for l, x in zip(left, rest))))
    ax[0].set_xlabel("time summed over the steps [s]")
    ax[0].set_title("Cost split per run")
    ax[0].legend(loc="upper center", bbox_to_anchor=(0.5, -0.5 / (0.8 * (0.9 + 0.32 * len(rows)))), ncol=4)  # below the x label (0.5 in)
    ax[0].set_yticks(y)
    ax[0].set_yticklabels(names)
    ax[0].invert_yaxis()
    ax[1].barh(y, [num(r["mean_contact_it"]) for r in rows], color="#1f77b4")
    ax[1].set_xlabel("contact-solver iterations\nper step (mean) [-]")
    ax[1].set_title("Contact solver")
    d = [num(r["max_probe_difference"]) for r in rows]
    pos = [v for v in d if math.isfinite(v) and v > 0]
    floor = min(pos) / 10 if pos else 1e-16
    ax[2].barh(y, [v if math.isfinite(v) and v > 0 else 0 for v in d], left=floor, color="#d62728")
    for k, v in enumerate(d):
        if not (math.isfinite(v) and v > 0):
            ax[2].text(floor, k, " reference" if k == 0 else (" 0" if v == 0 else " -"), va="center", fontsize=8)
    ax[2].set_xscale("log")
    ax[2].set_xlabel("probe difference [-]\nmax over t of |p - p_first| / max |p_first|")
    ax[2].set_title("Probes against %s" % names[0])
    ax[2].tick_params(axis="x", labelsize=7)
    prefix = a.out or os.path.join(a.dir, "compare")
    for w in figstyle.save(fig, prefix):
        print(w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
