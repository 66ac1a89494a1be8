#!/usr/bin/python3
"""The force a haptic device would render during a replay (issue 16 item 5), against time.

Reads RUN_DIR/probes.csv of a run whose case has a rigid body driven by a device log (motion
"trajectory" or a "coupling": doc/rigid.md §2d): the columns <body>_dev_fx, _fy, _fz are the
force on the device at each simulation step (minus the coupling's force on the tool;
doc/output-format.md). If RUN_DIR/haptic.csv exists (the haptic-rate ticks of the multi-rate loop,
columns time,fx,fy,fz at least), it is drawn too, thin, over the per-step force. One panel per
component and one for the magnitude. Writes RUN_DIR/haptic_force.png and .pdf (or -o PREFIX).

    scripts/plot_haptic.py RUN_DIR [--body NAME] [-o PREFIX]

Uses /usr/bin/python3 with matplotlib (Agg backend: no display needed).
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
import numpy as np  # noqa: E402


def read_csv(path):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    head = [h.strip() for h in rows[0]]
    return {h: np.array([float(r[i]) for r in rows[1:]]) for i, h in enumerate(head)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run_dir")
    ap.add_argument("--body", help="the device-driven body (default: the first with <body>_dev_fx)")
    ap.add_argument("-o", "--output", help="output prefix (default RUN_DIR/haptic_force)")
    ap.add_argument("--title", help="what the run is (default: the run folder's name)")
    a = ap.parse_args()
    probes_csv = os.path.join(a.run_dir, "probes.csv")
    if not os.path.exists(probes_csv):
        sys.exit("plot_haptic.py: %s: no such file (is %s a run folder?)" % (probes_csv, a.run_dir))
    p = read_csv(probes_csv)
    bodies = [h[: -len("_dev_fx")] for h in p if h.endswith("_dev_fx")]
    if not bodies:
        sys.exit("plot_haptic.py: %s: no <body>_dev_fx column: the case has no body driven by a device log" % probes_csv)
    body = a.body or bodies[0]
    if body not in bodies:
        sys.exit("plot_haptic.py: %s: no body '%s' driven by a device (there are: %s)" % (probes_csv, body, ", ".join(bodies)))
    t = p["time"]
    f = np.stack([p[body + "_dev_f" + c] for c in "xyz"], axis=1)

    tick = None
    haptic_csv = os.path.join(a.run_dir, "haptic.csv")
    if os.path.exists(haptic_csv):
        h = read_csv(haptic_csv)
        tcol = "time" if "time" in h else "t"  # doc/output-format.md names it time (t in older runs)
        missing = [c for c in (tcol, "fx", "fy", "fz") if c not in h]
        if missing:
            sys.exit("plot_haptic.py: %s: missing column(s) %s" % (haptic_csv, ", ".join(missing)))
        tick = (h[tcol], np.stack([h["fx"], h["fy"], h["fz"]], axis=1))

    fig, axes = plt.subplots(4, 1, figsize=(8, 9), sharex=True)
    labels = ["$f_x$", "$f_y$", "$f_z$", "$|f|$"]
    for k, ax in enumerate(axes):
        ys = np.linalg.norm(f, axis=1) if k == 3 else f[:, k]
        ax.plot(t, ys, lw=1.5, color="tab:blue", marker="." if len(t) < 200 else None, label="simulation rate (probes.csv)")
        if tick is not None:  # thin, over the per-step force
            yt = np.linalg.norm(tick[1], axis=1) if k == 3 else tick[1][:, k]
            ax.plot(tick[0], yt, lw=0.5, color="tab:orange", zorder=3, label="haptic rate (haptic.csv)")
        ax.set_ylabel(labels[k] + " [N]")
        ax.grid(True, lw=0.3)
    axes[0].set_title("force rendered on the device (%s): %s" % (body, a.title or os.path.basename(os.path.normpath(a.run_dir))))
    axes[0].legend(loc="best", fontsize=8)
    axes[-1].set_xlabel("time [s]")
    fig.tight_layout()
    prefix = a.output or os.path.join(a.run_dir, "haptic_force")
    for ext in ("png", "pdf"):
        fig.savefig(prefix + "." + ext, dpi=150)
        print(prefix + "." + ext)


if __name__ == "__main__":
    main()
