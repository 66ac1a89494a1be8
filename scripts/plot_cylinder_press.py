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
        head, rows = read_csv(study)
        if "level" in head and "dofs" in head:
            for r in rows:
                dofs[int(r[head.index("level")])] = int(r[head.index("dofs")])
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

    fig, ax = plt.subplots(figsize=(6.0, 4.5))
    for d in a.dirs:
        for label, p in runs_of(d):
            ax.plot(column(p, a.x), [y / 1e6 for y in column(p, a.y)], "-", lw=1.2, label=label)
    rh, rr = read_csv(a.reference)
    ax.plot([r[0] for r in rr], [r[1] / 1e6 for r in rr], "ko", ms=4, mfc="none", label="Bijelonja et al. 2005")
    ax.set_xlabel("total compression [m]")
    ax.set_ylabel("force per unit length [MN/m]")
    ax.set_title("Rubber cylinder press (Mooney-Rivlin, plane strain)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
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
