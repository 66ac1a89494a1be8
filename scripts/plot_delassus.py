#!/usr/bin/python3
"""The Delassus operator W of one contact problem as an image (duriez2006 §5.3, Fig. 9 and 11):

    /usr/bin/python3 scripts/plot_delassus.py FCLIB.hdf5 [--run RUN.h5 --step K] [-o W.png]
        [--csv LEGS.csv] [--title TEXT]

FCLIB.hdf5 is a step's problem written by `fcsim run CASE --set output.fclib=true`
(RUN/fclib/step_<K>.hdf5). With --run, the run's /contacts/<K>/pair and /x (doc/output-format.md)
group the contacts by contact pair: cases/table.json has one pair per foot, so the groups are the
legs 1-4 (in each group, contacts ordered by x then y). Without it the file's order is kept, one
group. The image is log10 |W_ij| with the rows and columns of each group ordered as its normal
rows, then its t1 rows, then its t2 rows: thick lines between groups, thin lines between the
n / t1 / t2 sub-blocks, so a normal-normal, normal-tangential and tangential-tangential coupling
each has its own tile.

Printed (and with --csv written): the mean Frobenius norm of the 3x3 blocks W_ab between the
contacts of groups g and h (mean over a in g, b in h, a != b), and the coupling ratio

    c = mean ||W_ab|| over a, b on different legs / mean ||W_ab|| over a != b on the same leg

which measures how much a force at one leg moves the other legs, relative to its own.
"""
import argparse
import os
import sys

import h5py
import numpy as np


def die(msg):
    print("plot_delassus.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_w(path):
    try:
        with h5py.File(path, "r") as f:
            g = f["fclib_local/W"]
            n, pp, ii, xx = int(g["n"][0]), g["p"][()], g["i"][()], g["x"][()]
    except (OSError, KeyError) as e:
        die("%s: not an FCLIB local problem (%s)" % (path, e))
    W = np.zeros((n, n))
    for j in range(n):
        W[ii[pp[j]:pp[j + 1]], j] += xx[pp[j]:pp[j + 1]]
    return W


def main():
    ap = argparse.ArgumentParser(description="|W| of an FCLIB problem as an image")
    ap.add_argument("fclib")
    ap.add_argument("--run", help="run.h5 of the run that wrote the file (groups contacts by pair)")
    ap.add_argument("--step", type=int, help="the step of the file (with --run)")
    ap.add_argument("-o", default="delassus.png")
    ap.add_argument("--csv", help="write the mean block norms between groups here")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    W = read_w(a.fclib)
    m = W.shape[0] // 3
    order = list(range(m))
    group = [0] * m
    if a.run:
        if a.step is None:
            die("--run needs --step")
        try:
            with h5py.File(a.run, "r") as f:
                key = "contacts/%06d" % a.step
                if key not in f:
                    die("%s: no /%s (steps written: %s)" % (a.run, key, ", ".join(sorted(f["contacts"].keys())[:5])))
                pair, x = f[key]["pair"][()], f[key]["x"][()]
        except OSError as e:
            die("%s: cannot read (%s)" % (a.run, e))
        if len(pair) != m:
            die("%s: /contacts/%06d has %d contacts, %s has %d" % (a.run, a.step, len(pair), a.fclib, m))
        group = [int(p) for p in pair]
        order = sorted(range(m), key=lambda c: (group[c], round(x[c][0], 9), round(x[c][1], 9)))
    groups = sorted(set(group))
    # rows: per group its n rows, then t1, then t2
    rows, bounds, sub = [], [], []
    for g in groups:
        cs = [c for c in order if group[c] == g]
        for comp in range(3):
            sub.append(len(rows))
            rows += [3 * c + comp for c in cs]
        bounds.append(len(rows))
    Wp = np.abs(W[np.ix_(rows, rows)])
    # block norms
    B = np.zeros((m, m))
    for i in range(m):
        for j in range(m):
            B[i, j] = np.linalg.norm(W[3 * i:3 * i + 3, 3 * j:3 * j + 3])
    G = np.zeros((len(groups), len(groups)))
    same, diff = [], []
    for gi, g in enumerate(groups):
        for hi, h in enumerate(groups):
            vals = [B[i, j] for i in range(m) for j in range(m) if group[i] == g and group[j] == h and i != j]
            G[gi, hi] = np.mean(vals) if vals else float("nan")
            (same if g == h else diff).extend(vals)
    ratio = np.mean(diff) / np.mean(same) if diff and same else float("nan")
    names = ["leg%d" % (g + 1) for g in groups] if a.run else ["all"]
    print("mean ||W_ab|| between groups (row: a's group, column: b's group):")
    print("        " + " ".join("%11s" % n for n in names))
    for gi, n in enumerate(names):
        print("%7s " % n + " ".join("%11.4e" % v for v in G[gi]))
    print("coupling ratio c = mean between legs / mean within a leg = %.4e" % ratio)
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("group," + ",".join(names) + "\n")
            for gi, n in enumerate(names):
                f.write(n + "," + ",".join("%.6e" % v for v in G[gi]) + "\n")
            f.write("# coupling_ratio,%.6e\n" % ratio)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import figstyle  # one style for every figure: scripts/figstyle.py
    figstyle.apply()
    fig, ax = plt.subplots(figsize=(6.5, 5.5))
    tiny = Wp[Wp > 0].max() * 1e-12 if (Wp > 0).any() else 1.0
    im = ax.imshow(np.log10(np.maximum(Wp, tiny)), cmap="viridis", interpolation="nearest")
    ax.grid(False)  # the common style's grid would cross the image's cells
    fig.colorbar(im, ax=ax, label="log10 |W_ij|, W in m/(N s^2) = 1/kg (velocity per impulse)")
    ax.set_xlabel("contacts of each group: n | t1 | t2 columns")
    ax.set_ylabel("contacts of each group: n | t1 | t2 rows")
    for s in sub:
        if s:
            ax.axhline(s - 0.5, color="w", lw=0.4)
            ax.axvline(s - 0.5, color="w", lw=0.4)
    for b in bounds[:-1]:
        ax.axhline(b - 0.5, color="r", lw=1.5)
        ax.axvline(b - 0.5, color="r", lw=1.5)
    starts = [0] + bounds[:-1]
    ax.set_xticks([s + (b - s) / 2 for s, b in zip(starts, bounds)])
    ax.set_xticklabels(names)
    ax.set_yticks([s + (b - s) / 2 for s, b in zip(starts, bounds)])
    ax.set_yticklabels(names)
    ax.set_title((a.title + "\n" if a.title else "") + "|W|: per leg n | t1 | t2 rows; c = %.3g" % ratio, fontsize=9)
    fig.tight_layout()
    fig.savefig(a.o, dpi=110)
    print("wrote " + a.o)


if __name__ == "__main__":
    main()
