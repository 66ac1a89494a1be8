#!/usr/bin/python3
"""Force-compression curves of the rubber-cylinder press, one per mesh level, with the reference
(like han2023 Fig. 4).

usage: plot_cylinder_press.py [-o OUT] [--reference CSV] [--x COL] [--y COL] DIR [DIR ...]

Each DIR is either a `fcsim study refine` directory (its level_<L>/probes.csv are plotted, one
curve per level, labelled with the level and its DoF count from study.csv) or one run directory
(its probes.csv). The curves are the probe columns COL (default: compression, force_per_length,
as cases/cylinder_press.json names them); the reference is
cases/reference/cylinder_press_bijelonja2005.csv by default (lines starting with '#' are its
source). Writes OUT.png and OUT.pdf (default OUT: cylinder_press next to the first DIR).
Exit 0, or 1 with a one-line message when a file is missing or a column is absent.
"""
import argparse
import csv
import os
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import figstyle  # noqa: E402  (one style for every figure: scripts/figstyle.py)

figstyle.apply()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REF = os.path.join(ROOT, "cases", "reference", "cylinder_press_bijelonja2005.csv")


def read_csv(path):
    """Header + float rows of a CSV whose '#' lines are comments."""
    with open(path) as f:
        lines = [ln for ln in f if ln.strip() and not ln.startswith("#")]
    rows = list(csv.reader(lines))
    head = [h.strip() for h in rows[0]]
    return head, [[float(v) for v in r] for r in rows[1:]]


def column(path, name):
    head, rows = read_csv(path)
    if name not in head:
        raise SystemExit(f"{path}: no column '{name}' (columns: {', '.join(head)})")
    j = head.index(name)
    return [r[j] for r in rows]


def runs_of(d):
    """[(label, probes.csv)] of a study directory or a run directory."""
    if os.path.isfile(os.path.join(d, "probes.csv")):
        return [(os.path.basename(os.path.normpath(d)), os.path.join(d, "probes.csv"))]
    study = os.path.join(d, "study.csv")
    dofs = {}
    if os.path.isfile(study):
        with open(study) as f:  # study.csv has text columns (status): not read_csv's floats
            for r in csv.DictReader(ln for ln in f if not ln.startswith("#")):
                if "level" in r and "dofs" in r:
                    dofs[int(r["level"])] = int(r["dofs"])
    out = []
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name, "probes.csv")
        if name.startswith("level_") and os.path.isfile(p):
            lev = int(name[len("level_"):])
            label = f"level {lev}" + (f" ({dofs[lev]} DoFs)" if lev in dofs else "")
            out.append((lev, label, p))
    if not out:
        raise SystemExit(f"{d}: neither a run directory (probes.csv) nor a study directory (level_<L>/probes.csv)")
    return [(label, p) for _, label, p in sorted(out)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("-o", "--output")
    ap.add_argument("--reference", default=DEFAULT_REF)
    ap.add_argument("--x", default="compression")
    ap.add_argument("--y", default="force_per_length")
    a = ap.parse_args()
    for path in [a.reference] + a.dirs:
        if not os.path.exists(path):
            raise SystemExit(f"{path}: no such file or directory")
    out = a.output or os.path.join(a.dirs[0], "cylinder_press")

    # left: the curves (levels agree to 0.1 %, so each has its own dash and marker); right: the
    # relative difference to the reference at its points (the run interpolated linearly in x, as
    # fcsim study refine's errors.csv)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10.0, 4.2))
    rh, rr = read_csv(a.reference)
    xr, yr = [r[0] for r in rr], [r[1] for r in rr]
    styles = [("-", None), ("--", None), (":", None), ("-.", None)]
    marks = ["s", "^", "v", "D"]
    k = 0
    for d in a.dirs:
        for label, p in runs_of(d):
            xs, ys = column(p, a.x), column(p, a.y)
            ax.plot(xs, [y / 1e6 for y in ys], styles[k % 4][0], lw=1.4, label=label)
            inside = [(x, y) for x, y in zip(xr, yr) if min(xs) <= x <= max(xs) and y != 0]
            ax2.plot([x for x, _ in inside], [100 * (float(np.interp(x, xs, ys)) - y) / abs(y) for x, y in inside], marks[k % 4] + styles[k % 4][0],
                     ms=4, label=label)
            k += 1
    ax.plot(xr, [y / 1e6 for y in yr], "ko", ms=4, mfc="none", label="Bijelonja et al. 2005 (solids4foam cylinderCrush data)")
    ax.set_xlabel("total compression [m]")
    ax.set_ylabel("force per unit length [MN/m]")
    ax.set_title("Rubber cylinder press (Mooney-Rivlin, plane strain; han2023 Fig. 4)")
    ax.legend(fontsize=8)
    ax2.axhline(0, color="k", lw=0.8)
    ax2.set_xlabel("total compression [m]")
    ax2.set_ylabel("(fcsim - reference) / reference [%]")
    ax2.set_title("Difference to the reference at its points")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    for ext in ("png", "pdf"):
        tmp = f"{out}.tmp.{ext}"
        fig.savefig(tmp)
        os.replace(tmp, f"{out}.{ext}")
    print(f"wrote {out}.png and {out}.pdf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
