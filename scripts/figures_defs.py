"""The figures `make figures` makes (scripts/figures.py): what each runs and how it is drawn.

A figure is (name, title, make(ctx) -> written files). make runs what it needs through
ctx.run (cached by key), draws doc/figures/NAME.png/.pdf in the common style, and, where the
figure carries numbers the documentation quotes, writes the table doc/figures/NAME.md (and .csv)
from the same data. doc/validation.md shows each table between <!-- table:NAME --> and
<!-- /table:NAME -->; update_validation_doc copies them in."""
import csv
import os
import re
import subprocess

import numpy as np

import figstyle

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

figstyle.apply()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = "/usr/bin/python3"


def script(name, *args):
    return [PY, os.path.join(ROOT, "scripts", name)] + list(args)


def plot_with(ctx, name, argv):
    """Run a plotting script of scripts/ (it writes PREFIX.png and .pdf)."""
    p = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s: %s" % (os.path.basename(argv[1]), (p.stderr or p.stdout).strip().splitlines()[-1:]))
    return [os.path.join(ctx.out, name + "." + e) for e in ("png", "pdf")]


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(ln for ln in f if not ln.startswith("#")))


def write_table(ctx, name, header, rows, note=""):
    """doc/figures/NAME.csv and NAME.md (the Markdown that doc/validation.md shows)."""
    with open(os.path.join(ctx.out, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    with open(os.path.join(ctx.out, name + ".md"), "w") as f:
        f.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
        for r in rows:
            f.write("| " + " | ".join(str(v) for v in r) + " |\n")
        if note:
            f.write("\n" + note.strip() + "\n")
    return [os.path.join(ctx.out, name + e) for e in (".md", ".csv")]


def g(v, d=3):
    return ("%%.%dg" % d) % v


# ---- rubber cylinder press (han2023 §VII-A, Fig. 4) --------------------------------------------
def cylinder_press(ctx):
    ref = "cases/reference/cylinder_press_bijelonja2005.csv"
    out, _ = ctx.run("cylinder_press", ["{fcsim}", "study", "refine", os.path.join(ROOT, "cases", "cylinder_press.json"), "--levels", "0,1,2",
                                        "--reference", os.path.join(ROOT, ref), "-j", "2", "-q", "-o", "{out}"],
                     files=["cases/cylinder_press.json", ref, "meshes/cylinder.geo"], cases=[("cases/cylinder_press.json",)])
    written = plot_with(ctx, "cylinder_press", script("plot_cylinder_press.py", out, "-o", os.path.join(ctx.out, "cylinder_press")))
    rows = [[r["level"], r["dofs"], r["elements"], g(float(r["wall_time_s"])), r["status"], g(100 * float(r["max_rel_error"])), g(100 * float(r["rms_rel_error"])), r["compared"]]
            for r in read_rows(os.path.join(out, "study.csv"))]
    return written + write_table(ctx, "cylinder_press", ["level", "DoFs", "elements", "wall time [s]", "status", "max error vs reference [%]", "RMS error [%]", "reference points"], rows)


# ---- masonry arch (han2023 §VII-B, Fig. 5) -----------------------------------------------------
def arch(ctx):
    out, _ = ctx.run("arch", script("arch_study.py", "--mus", "1.0,0.5,0.2", "--sweep", "0.2:0.5:0.05", "--t-end", "7", "-j", "1", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/arch_study.py", "scripts/make_masonry_arch.py", "cases/masonry_arch.json"], cases=[("cases/masonry_arch.json",)])
    runs = read_rows(os.path.join(out, "arch_runs.csv"))
    mus = sorted({float(r["mu"]) for r in runs}, reverse=True)
    solvers = sorted({r["solver"] for r in runs})
    fig, axes = plt.subplots(2, 1, figsize=(6.5, 5.5), sharex=True)
    for mu in (1.0, 0.5, 0.2):
        for s, ls in zip(solvers, ("-", "--", ":")):
            p = os.path.join(out, "mu_%.2f" % mu, s, "probes.csv")
            if not os.path.exists(p):
                continue
            a = np.genfromtxt(p, delimiter=",", names=True)
            cols = a.dtype.names
            drop = [c for c in cols if c.startswith("keystone") and c.endswith(("_y", "uy", "y"))]
            ke = [c for c in cols if c.startswith("kinetic")]
            if drop:
                axes[0].plot(a["time"], -1e3 * a[drop[0]], ls, label="mu = %.1f, %s" % (mu, s))
            if ke:
                axes[1].semilogy(a["time"], np.maximum(a[ke[0]], 1e-12), ls, label="mu = %.1f, %s" % (mu, s))
    axes[0].set_ylabel("keystone drop [mm]")
    axes[1].set_ylabel("kinetic energy [J]")
    axes[1].set_xlabel("time [s]")
    axes[0].legend(ncol=2)
    axes[0].set_title("Masonry arch of 25 blocks: keystone drop and kinetic energy")
    written = figstyle.save(fig, os.path.join(ctx.out, "arch"))
    plt.close(fig)
    # the stands/collapses map over mu
    fig, ax = plt.subplots(figsize=(6.5, 2.2))
    for k, s in enumerate(solvers):
        for r in runs:
            if r["solver"] != s:
                continue
            st = r["verdict"] == "stands"
            ax.plot(float(r["mu"]), k, "o" if st else "x", color="#2ca02c" if st else "#d62728", ms=7)
    ax.set_yticks(range(len(solvers)))
    ax.set_yticklabels(solvers)
    ax.set_ylim(-0.7, len(solvers) - 0.3)
    ax.set_xlabel("friction coefficient mu")
    ax.set_title("Stands (o) or collapses (x)")
    written += figstyle.save(fig, os.path.join(ctx.out, "arch_map"))
    plt.close(fig)
    rows = []
    for r in sorted(runs, key=lambda r: (-float(r["mu"]), r["solver"])):
        if float(r["mu"]) not in (1.0, 0.5, 0.2):
            continue
        ct = float(r["collapse_time"])
        rows.append([g(float(r["mu"]), 2), r["solver"], r["verdict"] + (" at %.2f s" % ct if r["verdict"] == "collapses" else ""), g(1e3 * float(r["drop_last"]), 4),
                     "%d / %d" % (int(r["newton_failed"]), int(r["contact_failed"])), g(float(r["max_contact_error"]), 2), g(float(r["rate"]), 3)])
    smallest = []
    for s in solvers:
        st = sorted(float(r["mu"]) for r in runs if r["solver"] == s and r["verdict"] == "stands")
        smallest.append("%s %s" % (s, g(st[0], 2) if st else "none"))
    note = "Smallest mu of the sweep at which the arch stands: %s." % ", ".join(smallest)
    return written + write_table(ctx, "arch", ["mu", "solver", "verdict", "keystone drop [mm]", "failed steps (Newton / contact)", "max common error", "real-time rate"], rows, note)


# ---- HapCo benchmarks (talbi2008 Figs. 6-9) ----------------------------------------------------
def hapco(ctx):
    out, _ = ctx.run("hapco", script("hapco_study.py", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/hapco_study.py", "cases/hapco_bench1.json", "cases/hapco_bench2.json"], cases=[("cases/hapco_bench1.json",), ("cases/hapco_bench2.json",)])
    written = plot_with(ctx, "hapco", script("plot_hapco.py", out, "-o", os.path.join(ctx.out, "hapco")))
    for ext in ("png", "pdf"):
        p = os.path.join(ctx.out, "hapco_fig8." + ext)
        if os.path.exists(p):
            written.append(p)
    rows = []
    for r in read_rows(os.path.join(out, "phases.csv")):
        if r.get("test", "common") != "common":
            continue
        rows.append([r["bench"], r["mu"], r["phase"], r["solver"], g(float(r["mean_it"]), 4), r.get("failed", r.get("nonconverged", ""))])
    if rows:
        written += write_table(ctx, "hapco", ["benchmark", "mu", "phase", "solver", "mean iterations per increment", "non-converged increments"], rows)
    return written


# ---- haptic replay (courtecuisse §IV-B; doc/haptic.md) -----------------------------------------
def haptic(ctx):
    out, _ = ctx.run("haptic", ["{fcsim}", "run", os.path.join(ROOT, "cases", "haptic_probe.json"), "-q", "-o", "{out}"],
                     files=["cases/haptic_probe.json"], cases=[("cases/haptic_probe.json",)])
    return plot_with(ctx, "haptic", script("plot_haptic.py", out, "-o", os.path.join(ctx.out, "haptic"),
                                                             "--title", "cases/haptic_probe.json, a stylus coupled to a recorded device log"))


FIGURES = [
    ("cylinder_press", "Rubber cylinder press: force against compression per mesh level, with the reference (han2023 Fig. 4)", cylinder_press),
    ("arch", "Masonry arch: keystone drop and kinetic energy per mu; stands/collapses over mu (han2023 Fig. 5)", arch),
    ("hapco", "HapCo benchmarks: contact-solver iterations per increment, nsgs vs Uzawa (talbi2008 Figs. 6-9)", hapco),
    ("haptic", "Haptic replay: the rendered force against time (courtecuisse §IV-B)", haptic),
]


# ---- doc/validation.md -------------------------------------------------------------------------
MARK = re.compile(r"(<!-- table:([a-z0-9_]+) -->\n)(.*?)(<!-- /table:\2 -->)", re.S)


def update_validation_doc(figdir):
    """Copy doc/figures/NAME.md between the markers of doc/validation.md."""
    path = os.path.join(ROOT, "doc", "validation.md")
    with open(path) as f:
        text = f.read()

    def repl(m):
        p = os.path.join(figdir, m.group(2) + ".md")
        if not os.path.exists(p):
            return m.group(0)
        with open(p) as f:
            return m.group(1) + f.read() + m.group(4)

    new = MARK.sub(repl, text)
    if new != text:
        with open(path + ".tmp", "w") as f:
            f.write(new)
        os.replace(path + ".tmp", path)
