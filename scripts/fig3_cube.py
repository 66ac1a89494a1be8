#!/usr/bin/python3
"""courtecuisse Fig. 3: the elongation and compression tests of the four materials on a cube.

Runs cases/cube_stretch.json (a unit cube clamped at z = 0, its top face displaced along z) for
each material with the paper's parameters (the small-strain equivalents of E = 1, nu = 0.45, scaled
by 1000: the forces, proportional to the moduli under prescribed displacements, are divided by
1000 again) and each direction: elongation to +0.5, compression to -0.3, 10 steps each. Writes
OUT/fig3_cube.csv (columns: material, test, displacement, force; force = the z reaction on the
top face / 1000, signed) and OUT/fig3_cube.png, .pdf: force against displacement, one curve per
material.

    scripts/fig3_cube.py [-o OUT] [--fcsim BIN]

Uses /usr/bin/python3 with matplotlib (Agg backend: no display needed).
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile
import shutil

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SCALE = 1000.0  # the moduli's scale in cases/cube_stretch.json
MATERIALS = [
    ("corotational", {"model": "corotational", "E": SCALE, "nu": 0.45, "density": 1}),
    ("stvk", {"model": "stvk", "E": SCALE, "nu": 0.45, "density": 1}),
    ("neohookean", {"model": "neohookean", "E": SCALE, "nu": 0.45, "density": 1}),
    ("mooney_rivlin", {"model": "mooney_rivlin", "C10": 0.086 * SCALE, "C01": 0.086 * SCALE, "kappa": 3.33 * SCALE, "density": 1}),
]
TESTS = [("elongation", 0.5), ("compression", -0.3)]


def run_all(fcsim, out):
    """The eight runs; rows (material, test, displacement, force)."""
    import json
    rows = []
    tmp = tempfile.mkdtemp(prefix="fcsim-fig3-")
    try:
        for name, mat in MATERIALS:
            for test, d in TESTS:
                rd = os.path.join(tmp, "%s_%s" % (name, test))
                cmd = [fcsim, "run", os.path.join(ROOT, "cases", "cube_stretch.json"), "-o", rd, "-q",
                       "--set", "bodies[0].material=" + json.dumps(mat),
                       "--set", "bodies[0].boundary[1].displacement=[0,0,%r]" % d]
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    sys.exit("fig3_cube: %s failed (exit %d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
                with open(os.path.join(rd, "probes.csv")) as f:
                    for r in csv.DictReader(f):
                        rows.append((name, test, float(r["top_z"]), float(r["force_z"]) / SCALE))
    finally:
        shutil.rmtree(tmp)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "fig3_cube.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["material", "test", "displacement", "force"])
        w.writerows([(m, t, repr(d), repr(F)) for m, t, d, F in rows])
    return rows


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import figstyle
    figstyle.apply()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    for ax, (test, _) in zip(axes, TESTS):
        for name, _ in MATERIALS:
            pts = [(abs(d), abs(F)) for m, t, d, F in rows if m == name and t == test]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=name)
        ax.set_title(test)
        ax.set_xlabel("|displacement| of the top face")
        ax.set_ylabel("|force| (E = 1)")
        ax.legend()
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(out, "fig3_cube." + ext))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", default=os.path.join(ROOT, "results", "fig3_cube"), help="output folder")
    ap.add_argument("--fcsim", default=os.environ.get("FCSIM_BIN") or os.path.join(ROOT, "bin", "fcsim"))
    ap.add_argument("--no-plot", action="store_true", help="the CSV only")
    a = ap.parse_args()
    rows = run_all(a.fcsim, a.o)
    if not a.no_plot:
        plot(rows, a.o)
    for name, _ in MATERIALS:
        ends = {t: F for m, t, d, F in rows if m == name}  # the last row of each test: its end
        print("%-14s elongation +0.5: %8.4f   compression -0.3: %8.4f" % (name, ends.get("elongation", float("nan")), ends.get("compression", float("nan"))))


if __name__ == "__main__":
    main()
