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
    for c in list(header) + [v for r in rows for v in r]:
        if "|" in str(c) or "\n" in str(c):  # would split a Markdown cell (use ‖ for norms)
            raise RuntimeError("table %s: a cell holds '|' or a newline: %r" % (name, c))
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
                                        "--reference", os.path.join(ROOT, ref), "-j", "1", "-q", "-o", "{out}"],
                     files=["cases/cylinder_press.json", ref, "meshes/cylinder.geo"], cases=[("cases/cylinder_press.json",)])
    written = plot_with(ctx, "cylinder_press", script("plot_cylinder_press.py", out, "-o", os.path.join(ctx.out, "cylinder_press")))
    rows = [[r["level"], r["dofs"], r["elements"], "%.0f" % float(r["wall_time_s"]), "yes" if r["converged"] == "1" else "no", "%.6g" % float(r["quantity"]),
             "%.1f %%" % (100 * float(r["max_rel_error"])), "%.1f %%" % (100 * float(r["rms_rel_error"])), r["status"]]
            for r in read_rows(os.path.join(out, "study.csv"))]
    written += write_table(ctx, "cylinder_press", ["level", "DoFs", "elements", "wall time [s]", "converged", "F at 0.2 m [N/m]", "max rel. error", "RMS rel. error", "status"], rows,
                           "`fcsim study refine ... -j 1` under `nice` on the shared 2-core machine: the wall times are that run's.")
    # the relative error at each reference point, one column per level (errors.csv of the study)
    errs = read_rows(os.path.join(out, "errors.csv"))
    levels = sorted({int(r["level"]) for r in errs})
    xs = sorted({float(r["x_ref"]) for r in errs})
    prow = []
    for x in xs:
        at = {int(r["level"]): r for r in errs if float(r["x_ref"]) == x}
        prow.append(["%.3f" % x, g(float(next(iter(at.values()))["y_ref"]), 4)] + ["%+.2f %%" % (100 * float(at[L]["rel_error"])) if L in at else "" for L in levels])
    return written + write_table(ctx, "cylinder_press_points", ["compression [m]", "reference [N/m]"] + ["level %d" % L for L in levels], prow)


# ---- masonry arch (han2023 §VII-B, Fig. 5) -----------------------------------------------------
def arch(ctx):
    out, _ = ctx.run("arch", script("arch_study.py", "--mus", "1.0,0.5,0.2", "--sweep", "0.2:0.5:0.05", "--t-end", "7", "-j", "1", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/arch_study.py", "scripts/make_masonry_arch.py", "cases/masonry_arch.json"], cases=[("cases/masonry_arch.json",)])
    return draw_arch(ctx, out)


def draw_arch(ctx, out):
    runs = read_rows(os.path.join(out, "arch_runs.csv"))
    solvers = list(dict.fromkeys(r["solver"] for r in runs))
    fig, axes = plt.subplots(2, 1, figsize=(7, 6.5), sharex=True)
    colors = {1.0: "#1f77b4", 0.5: "#2ca02c", 0.25: "#ff7f0e", 0.2: "#d62728"}
    for mu, c in colors.items():
        for s, ls in zip(solvers, ("-", "--", ":")):
            p = os.path.join(out, "mu_%.2f" % mu, s, "probes.csv")
            if not os.path.exists(p):
                continue
            a = np.genfromtxt(p, delimiter=",", names=True)
            t = a["time"][1:]
            # |drop| on a log scale: the standing arch settles at 0.11 mm, the collapse passes 1.4 m
            axes[0].semilogy(t, np.maximum(1e3 * np.abs(a["keystone_y"][1:]), 1e-6), ls, color=c, label="mu = %g, %s" % (mu, s))
            axes[1].semilogy(t, np.maximum(a["kinetic"][1:], 1e-12), ls, color=c)
    import h5py
    with h5py.File(os.path.join(out, "mu_%.2f" % float(runs[0]["mu"]), runs[0]["solver"], "run.h5"), "r") as f:
        H, mgh = float(f["verdict"].attrs["rise"]), float(f["verdict"].attrs["mgh"])  # the verdict's own scales
    axes[0].axhline(1e3 * 0.1 * H, color="k", lw=0.8, ls="-.", label="collapse: 10 % of the rise")
    axes[1].axhline(1e-6 * mgh, color="k", lw=0.8, ls="-.", label="standing bound 1e-6 m g H (after 5 s)")
    axes[0].set_ylabel("|keystone vertical displacement| [mm]")
    axes[1].set_ylabel("kinetic energy [J]")
    axes[1].set_xlabel("time [s]")
    axes[1].set_ylim(bottom=5e-13)  # an exactly zero kinetic energy is drawn at 1e-12
    fig.legend(*axes[0].get_legend_handles_labels(), loc="upper left", bbox_to_anchor=(0.99, 0.93), fontsize=7)
    axes[1].legend(fontsize=7, loc="center right")
    axes[0].set_title("Masonry arch of 25 blocks (han2023 Fig. 5): keystone and kinetic energy, 7 s")
    written = figstyle.save(fig, os.path.join(ctx.out, "arch"))
    plt.close(fig)
    # the stands/collapses map over mu
    fig, ax = plt.subplots(figsize=(7, 2.4))
    for k, s in enumerate(solvers):
        for r in runs:
            if r["solver"] != s:
                continue
            st = r["verdict"] == "stands"
            ax.plot(float(r["mu"]), k, "o" if st else "x", color="#2ca02c" if st else "#d62728", ms=8, mew=2)
    ax.plot([], [], "o", color="#2ca02c", label="stands")
    ax.plot([], [], "x", color="#d62728", mew=2, label="collapses")
    ax.set_yticks(range(len(solvers)))
    ax.set_yticklabels(solvers)
    ax.set_ylim(-0.7, len(solvers) - 0.3)
    ax.set_xlabel("friction coefficient mu [-]")
    ax.set_ylabel("contact solver")
    ax.legend(loc="center", bbox_to_anchor=(0.75, 0.5))  # the empty range between 0.5 and 1
    ax.set_title("Masonry arch, 7 s: verdict over mu")
    written += figstyle.save(fig, os.path.join(ctx.out, "arch_map"))
    plt.close(fig)
    rows = []
    for r in sorted(runs, key=lambda r: (-float(r["mu"]), solvers.index(r["solver"]))):
        col = r["verdict"] == "collapses"
        rows.append([g(float(r["mu"]), 2), r["solver"], r["verdict"] + (" at %.2f s" % float(r["collapse_time"]) if col else ""),
                     g(1e3 * float(r["drop_last"]), 4) + (" at %.2f s" % float(r["t_last"]) if col else ""),
                     "—" if col else "%.1e" % float(r["max_energy_after"]),
                     "%d / %d" % (int(r["newton_failed"]), int(r["contact_failed"])), "%.1e" % float(r["max_contact_error"]), g(float(r["mean_contact_it"]), 4)])
    smallest = []
    for s in solvers:
        mus = sorted({float(r["mu"]) for r in runs}, reverse=True)
        low = None
        for mu in mus:  # the smallest mu from which every larger mu of the sweep stands
            if any(r["solver"] == s and float(r["mu"]) == mu and r["verdict"] == "stands" for r in runs):
                low = mu
            else:
                break
        smallest.append("%s %s" % (s, g(low, 2) if low is not None else "none"))
    note = ("`scripts/arch_study.py --mus 1.0,0.5,0.2 --sweep 0.2:0.5:0.05 --t-end 7`. Smallest mu from which the arch stands at every larger mu of the sweep: %s. "
            "Keystone drop: positive down." % ", ".join(smallest))
    return written + write_table(ctx, "arch", ["mu", "solver", "verdict", "keystone drop at the end [mm]", "max KE after 5 s [J]", "steps not converged (Newton / contact)",
                                               "max common error", "contact it/step"], rows, note)


def arch_geometry(ctx):
    """The generated scene's numbers (doc/validation.md quotes them): the catenary's constants
    from the definitions that build the meshes (scripts/make_masonry_arch.py's A, C, dy), and the
    block table the generator prints when it writes the scene into the cache."""
    out, _ = ctx.run("arch_geometry", script("make_masonry_arch.py", "--out", "{out}"), files=["scripts/make_masonry_arch.py"])
    import make_masonry_arch as mma
    slope = float(mma.dy(-mma.L))  # the centre line's slope at the left springing (the right one mirrored)
    consts = [["f_c, L (units of 20/82 m)", "%g, %g" % (mma.F_C, mma.L)], ["Q_b, Q_t", "%g, %g" % (mma.Q_B, mma.Q_T)],
              ["A = f_c / (Q_b/Q_t - 1)", "%.6g" % mma.A], ["C = acosh(Q_b/Q_t)", "%.7g" % mma.C],
              ["springing slope y'(-L) = A C/L sinh C", "%.5g (%.2f deg)" % (slope, np.degrees(np.arctan(slope)))]]
    with open(out + ".log") as f:
        log = f.read().splitlines()
    blocks = {}
    for ln in log:
        p = ln.split()
        if ln.startswith("block_"):
            blocks[p[0]] = p[1:4]
        elif ln.startswith("arc length"):  # "arc length 34.207 m, span 14.6341 m, rise 14.6341 m (centre line)"
            consts.append(["arc length, span, rise of the centre line [m]", ", ".join(re.findall(r"([0-9.]+) m", ln))])
        elif ln.startswith("total mass"):
            consts.append(["total mass [kg]", p[2].rstrip(",")])
        elif ln.startswith("largest joint gap"):
            consts.append(["largest joint gap [m]", p[3]])
    written = write_table(ctx, "arch_constants", ["quantity", "value"], consts)
    n = len(blocks)
    rows = []
    for k in range(1, n // 2 + 2):
        a, b = "block_%02d" % k, "block_%02d" % (n + 1 - k)
        if blocks[a] != blocks[b]:
            raise RuntimeError("make_masonry_arch.py: %s and %s differ (%s, %s): the arch is not symmetric" % (a, b, blocks[a], blocks[b]))
        rows.append([a + (", " + b if a != b else " (keystone)")] + blocks[a])
    return written + write_table(ctx, "arch_geometry", ["block", "w = depth [m]", "chord [m]", "mass [kg]"], rows)


# ---- HapCo benchmarks (talbi2008 Figs. 6-9) ----------------------------------------------------
def hapco(ctx):
    out, _ = ctx.run("hapco", script("hapco_study.py", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/hapco_study.py", "cases/hapco_bench1.json", "cases/hapco_bench2.json"], cases=[("cases/hapco_bench1.json",), ("cases/hapco_bench2.json",)])
    written = plot_with(ctx, "hapco", script("plot_hapco.py", out, "-o", os.path.join(ctx.out, "hapco")))
    for ext in ("png", "pdf"):
        p = os.path.join(ctx.out, "hapco_fig8." + ext)
        if os.path.exists(p):
            written.append(p)
    # Fig. 9: uzawa_global with talbi2008's rho diverges from the first increment
    written += plot_with(ctx, "hapco_talbirho", script("plot_hapco.py", out, "--test", "talbirho", "-o", os.path.join(ctx.out, "hapco_talbirho")))
    for ext in ("png", "pdf"):  # plot_hapco.py draws Fig. 8 again with every test: hapco_fig8 is the one
        p = os.path.join(ctx.out, "hapco_talbirho_fig8." + ext)
        if os.path.exists(p):
            os.remove(p)
    # one row per benchmark, mu and solver of the "common" runs (every solver to the same common
    # error): the mean iterations per contact solve in each phase of the displacement series
    ph = [r for r in read_rows(os.path.join(out, "phases.csv")) if r["test"] == "common"]
    keys = list(dict.fromkeys((r["bench"], r["mu"], r["solver"]) for r in ph))
    rows = []
    for b, mu, sv in keys:
        sel = [r for r in ph if (r["bench"], r["mu"], r["solver"]) == (b, mu, sv)]
        rows.append([b, mu, sv, " / ".join("%.1f" % float(r["mean_it_per_solve"]) for r in sel),
                     "%.1f" % (sum(float(r["mean_it_per_increment"]) * int(r["increments"]) for r in sel) / sum(int(r["increments"]) for r in sel)),
                     "%.3g" % sum(float(r["cpu_s"]) for r in sel), "%.1e" % max(float(r["max_error"]) for r in sel), str(sum(int(r["not_converged"]) for r in sel))])
    written += write_table(ctx, "hapco", ["benchmark", "mu", "solver", "iterations per contact solve, phases 1-5", "iterations per increment (mean)",
                                          "contact CPU [s]", "max common error", "increments not converged"], rows,
                           "`scripts/hapco_study.py`, the \"common\" runs: every solver stopped by the common error <= 1e-12.")
    return written


# ---- haptic replay (courtecuisse §IV-B; doc/haptic.md) -----------------------------------------
def haptic(ctx):
    out, _ = ctx.run("haptic", ["{fcsim}", "run", os.path.join(ROOT, "cases", "haptic_probe.json"), "-q", "-o", "{out}"],
                     files=["cases/haptic_probe.json"], cases=[("cases/haptic_probe.json",)])
    return plot_with(ctx, "haptic", script("plot_haptic.py", out, "-o", os.path.join(ctx.out, "haptic"),
                                                             "--title", "cases/haptic_probe.json, a stylus coupled to a recorded device log"))


# ---- the four materials on a cube in compression and elongation (courtecuisse Fig. 3) ----------
def cube_materials(ctx):
    out, _ = ctx.run("cube_materials", script("cube_materials.py", "--fcsim", "{fcsim}", "--refine", "2", "-j", "1", "-o", "{out}"),
                     files=["scripts/cube_materials.py", "cases/cube_materials.json", "meshes/cube.geo"], cases=[("cases/cube_materials.json",)])
    rows = read_rows(os.path.join(out, "cube_materials.csv"))
    mats = list(dict.fromkeys(r["material"] for r in rows))
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for k, test in enumerate(("elongation", "compression")):
        for m, mk in zip(mats, ("o-", "s-", "^-", "v-")):
            rs = sorted((r for r in rows if r["material"] == m and r["test"] == test), key=lambda r: int(r["step"]))
            ax[k].plot([abs(float(r["displacement_m"])) for r in rs], [abs(float(r["force_N"])) / 1e6 for r in rs], mk, ms=3, label=m)
        ax[k].set_xlabel("|displacement| of the moved face [m] (unit cube)")
        ax[k].set_ylabel("|reaction| [MN] (moduli x 1e6 Pa)")
        ax[k].set_title("%s test (courtecuisse Fig. 3%s)" % (test.capitalize(), "a" if k == 0 else "b"))
        ax[k].legend()
    written = figstyle.save(fig, os.path.join(ctx.out, "cube_materials"))
    plt.close(fig)
    summ = read_rows(os.path.join(out, "summary.csv"))
    trows = [[r["material"], r["test"], g(float(r["k0_N_per_m"]), 4), g(float(r["secant_N_per_m"]), 4), "%.3f" % float(r["ratio"]), g(float(r["force_at_end_N"]), 4)] for r in summ]
    note = ("`scripts/cube_materials.py --refine 2` (3072 linear tetrahedra): the face z = 0 fixed, z = 1 moved by +/-0.3 m along z in 10 quasi-static steps. "
            "ratio = secant stiffness at 0.3 m over the first step's: > 1 stiffening, < 1 softening.")
    return written + write_table(ctx, "cube_materials", ["material", "test", "stiffness, first step [N/m]", "secant at 0.3 m [N/m]", "ratio", "reaction at 0.3 m [N]"], trows, note)


# ---- courtecuisse Fig. 4: the instrument pushing the hinged cube, per compliance (issue 27 item 4)
def cube_instrument(ctx):
    out, _ = ctx.run("cube_instrument", script("cube_instrument.py", "--fcsim", "{fcsim}", "--refine", "2", "-j", "2", "-o", "{out}"),
                     files=["scripts/cube_instrument.py", "cases/cube_instrument.json", "meshes/cube_hinge.geo", "cases/trajectories/cube_instrument_push.csv"],
                     cases=[("cases/cube_instrument.json",)])
    steps, ticks = read_rows(os.path.join(out, "steps.csv")), read_rows(os.path.join(out, "ticks.csv"))
    fig, ax = plt.subplots(1, 2, figsize=(13, 4.5))
    for k, runs in enumerate((("exact", "precomputed", "lagged", "frozen"), ("exact_mu", "lagged_mu", "frozen_mu"))):
        for name, st in zip(runs, ("-", ":", "--", "-.")):
            rs = [r for r in steps if r["run"] == name]
            ax[k].plot([float(r["time"]) for r in rs], [float(r["f"]) / 1e3 for r in rs], st, lw=1.3, label=name)
        ts = [r for r in ticks if r["run"] == runs[1 + (k == 0)]]
        # the ticks of a step interval push the tool into the step's frozen cube: the force climbs
        # from one step's value towards the next (doc/haptic.md; a dynamic step's W is stiff)
        ax[k].plot([float(r["time"]) for r in ts], [float(r["f"]) / 1e3 for r in ts], "-", color="0.55", lw=0.3, zorder=0,
                   label=runs[1 + (k == 0)] + ", 1 kHz haptic ticks")
        rot = ax[k].twinx()
        rs = [r for r in steps if r["run"] == runs[0]]
        rot.plot([float(r["time"]) for r in rs], [float(r["rotation_deg"]) for r in rs], color="0.7", lw=0.8)
        if k == 1:  # one label for both twin axes: the left one's would run into the right panel's
            rot.set_ylabel("turn of the cube [deg] (light grey line)")
        ax[k].set_xlabel("time [s]")
        ax[k].set_ylabel("|force on the instrument| [kN]")
        ax[k].set_title("courtecuisse Fig. 4, %s" % ("frictionless" if k == 0 else "mu = 0.3"))
        ax[k].legend(fontsize=7)
    written = figstyle.save(fig, os.path.join(ctx.out, "cube_instrument"))
    plt.close(fig)
    summ = read_rows(os.path.join(out, "summary.csv"))
    trows = [[r["run"], r["mu"], r["status"], r["max_rotation_deg"], g(float(r["peak_force_N"]), 4), r["err_steps"], r["err_steps_rot60"], r["err_ticks"],
              r["err_ticks_rot60"], r["max_refresh_lag"], r["krylov_it"]] for r in summ]
    note = ("`scripts/cube_instrument.py --refine 2` (2540 linear tetrahedra, 682 nodes; dt = 0.01 s, 300 steps; every run with the 1 kHz haptic loop). "
            "error = max over the steps (or haptic ticks) of the force's distance to exact's (same mu) over exact's peak force; >= 60 deg: the steps after the cube has turned 60 degrees. "
            "lagged: async, refresh every 3 steps taken 3 steps after its request; frozen: never refreshed; _none: not rotated.")
    return written + write_table(ctx, "cube_instrument", ["run", "mu", "status", "turn [deg]", "peak force [N]", "error, steps", "error, steps >= 60 deg",
                                                          "error, haptic ticks", "error, ticks >= 60 deg", "max lag [steps]", "Krylov iterations"], trows, note)


# ---- study compare: a matrix of solver variants x compliance (issue 30 item 4) ------------------
def study_compare(ctx):
    # tol 1e-3: lemke's 16-sided pyramid is not the Coulomb cone (its common error stays ~3e-4);
    # -j 1: the timings compare
    out, _ = ctx.run("study_compare", ["{fcsim}", "study", "compare", os.path.join(ROOT, "cases", "block_on_floor.json"), "--axis", "solver=nsgs,newton,lemke:k=16",
                                       "--axis", "compliance=exact,schur", "--set", "time.t_end=0.3", "--set", "contact_solver.tol=1e-3", "--set", "contact_solver.max_error=1e-2",
                                       "--set", "output.vtk=false", "-j", "1", "-q", "-o", "{out}"],
                     files=["cases/block_on_floor.json", "meshes/cube.geo"], cases=[("cases/block_on_floor.json",)])
    return plot_with(ctx, "study_compare", script("plot_study_compare.py", out, "-o", os.path.join(ctx.out, "study_compare")))


# ---- the press at small compression against 2-D Hertz (issue 30 item 3) ------------------------
def cylinder_hertz(ctx):
    out, _ = ctx.run("cylinder_hertz", script("cylinder_hertz.py", "--levels", "0,1,2", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/cylinder_hertz.py", "cases/cylinder_press.json", "meshes/cylinder_hertz.geo"], cases=[("cases/cylinder_press.json",)])
    import cylinder_hertz as ch
    with open(os.path.join(out, "hertz.csv")) as f:
        head = f.readline()
    consts = dict(kv.split("=") for kv in head.strip("# \n").split())
    R, Es = float(consts["R"]), float(consts["Estar"])
    rows = read_rows(os.path.join(out, "hertz.csv"))
    levels = sorted({int(r["level"]) for r in rows})
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    d = np.linspace(2.5e-4, 0.01, 60)
    ax[0].plot(1e3 * d, [ch.hertz_load(x, R, Es)[0] for x in d], "k-", lw=2.2, alpha=0.35, label="2-D Hertz (Johnson 1985 eq. 5.36)")
    for L in levels:
        pr = np.genfromtxt(os.path.join(out, "level_%d" % L, "probes.csv"), delimiter=",", names=True)
        dofs = [r["dofs"] for r in rows if int(r["level"]) == L][0]
        ax[0].plot(1e3 * pr["compression"], pr["force_per_length"], "o--", ms=3, label="fcsim level %d (%s DoFs)" % (L, dofs))
        sel = [r for r in rows if int(r["level"]) == L]
        ax[1].plot([1e3 * float(r["compression"]) for r in sel], [100 * float(r["rel_error"]) for r in sel], "o-", label="level %d" % L)
    ax[0].set_xlabel("total compression [mm]")
    ax[0].set_ylabel("force per unit length [N/m]")
    ax[0].legend()
    ax[0].set_title("Cylinder press at small compression")
    ax[1].axhline(0, color="k", lw=0.8)
    ax[1].set_xlabel("total compression [mm]")
    ax[1].set_ylabel("fcsim / Hertz - 1 [%]")
    ax[1].legend()
    ax[1].set_title("Relative difference to the Hertz line contact")
    written = figstyle.save(fig, os.path.join(ctx.out, "cylinder_hertz"))
    plt.close(fig)
    trows = [[r["level"], r["dofs"], r["compression"], g(float(r["force_per_length"]), 6), g(float(r["hertz"]), 6), "%.2f" % (1e3 * float(r["half_width"])),
              "%+.2f" % (100 * float(r["rel_error"]))] for r in rows]
    note = ("Hertz: R = %g m, E* = E/(1 - nu^2) = %.5g Pa (small-strain E = %.5g Pa, nu = %.6f of the case's Mooney-Rivlin material). "
            "Mesh meshes/cylinder_hertz.geo (graded towards the contact)." % (R, Es, float(consts["E"]), float(consts["nu"])))
    return written + write_table(ctx, "cylinder_hertz", ["level", "DoFs", "compression [m]", "fcsim F [N/m]", "Hertz P [N/m]", "half-width b [mm]", "error [%]"], trows, note)


# ---- the table with legs (duriez2006 Figs. 7-9, 11, 13) ----------------------------------------
def table_delta(ctx):
    out, _ = ctx.run("table_delta", script("table_study.py", "--n", "20", "--seed", "1", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/table_study.py", "cases/table.json", "meshes/table.msh"], cases=[("cases/table.json",)])
    rows = read_rows(os.path.join(out, "study.csv"))
    ks = sorted({int(r["k"]) for r in rows if int(r["k"]) > 0})
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for k in ks:
        ds = [float(r["delta_percent"]) for r in rows if int(r["k"]) == k]
        ax[0].plot([k] * len(ds), ds, ".", color="#7f7f7f", alpha=0.6, label="one load" if k == ks[0] else None)
    mean = [np.mean([float(r["delta_percent"]) for r in rows if int(r["k"]) == k]) for k in ks]
    mx = [max(float(r["delta_percent"]) for r in rows if int(r["k"]) == k) for k in ks]
    ax[0].plot(ks, mean, "o-", label="mean over the loads")
    ax[0].plot(ks, mx, "s--", label="largest")
    ax[0].axhline(5, color="k", lw=0.8, ls=":", label="5 % (duriez2006's threshold)")
    ax[0].set_xscale("log", base=2)
    ax[0].set_xticks(ks)
    ax[0].set_xticklabels([str(k) for k in ks])
    ax[0].set_xlabel("pyramid sides k of lemke")
    ax[0].set_ylabel("delta = |r_lemke - r_nsgs| / |r_nsgs| [%]")
    ax[0].set_title("Friction pyramid error (duriez2006 Fig. 7, eq. 26)")
    ax[0].legend()
    solvers = ["nsgs"] + ["lemke k=%d" % k for k in ks]
    times = [np.mean([float(r["time_s"]) for r in rows if int(r["k"]) == k]) for k in [0] + ks]
    ax[1].bar(["nsgs"] + ["lemke\nk = %d" % k for k in ks], times, color=["#1f77b4"] + ["#d62728"] * len(ks))
    ax[1].set_yscale("log")
    ax[1].set_xlabel("contact solver")
    ax[1].set_ylabel("mean contact solve time [s]")
    ax[1].set_title("%d random loads, %s contacts" % (len({r["load"] for r in rows}), rows[0]["contacts"]))
    written = figstyle.save(fig, os.path.join(ctx.out, "table_delta"))
    plt.close(fig)
    trows = []
    for k, s in zip([0] + ks, solvers):
        rs = [r for r in rows if int(r["k"]) == k]
        trows.append([s, g(np.mean([float(r["delta_percent"]) for r in rs])), g(max(float(r["delta_percent"]) for r in rs)),
                      "%.1f" % np.mean([int(r["iterations"]) for r in rs]), "%.2e" % np.mean([float(r["time_s"]) for r in rs]),
                      "%.2e" % np.mean([float(r["common_error"]) for r in rs])])
    note = "`scripts/table_study.py --n 20 --seed 1`; times: one run's, on the shared machine (comparable within the table only)."
    return written + write_table(ctx, "table_delta", ["solver", "mean delta %", "max delta %", "mean iterations", "mean time [s]", "mean common error"], trows, note)


def table_cpu(ctx):
    out, _ = ctx.run("table_cpu", script("table_cpu.py", "--levels", "1,2,3,4,5", "--k", "16", "--reps", "3", "-o", "{out}", "--fcsim", "{fcsim}"),
                     files=["scripts/table_cpu.py", "scripts/table_mesh.py", "cases/table.json"], cases=[("cases/table.json",)])
    rows = read_rows(os.path.join(out, "cpu.csv"))
    m = np.array([float(r["contacts"]) for r in rows])
    tn = np.array([float(r["nsgs_time_s"]) for r in rows])
    tl = np.array([float(r["lemke_time_s"]) for r in rows])
    sn, sl = np.polyfit(np.log(m), np.log(tn), 1)[0], np.polyfit(np.log(m), np.log(tl), 1)[0]
    fig, ax = plt.subplots(figsize=(5.5, 4))
    ax.loglog(m, tn, "o-", label="nsgs, tol 1e-10 (slope %.2f)" % sn)
    ax.loglog(m, tl, "s-", label="lemke k = 16 (slope %.2f)" % sl)
    ax.set_xticks(m)
    ax.set_xticklabels(["%d" % x for x in m])
    ax.minorticks_off()
    ax.set_xlabel("contacts m")
    ax.set_ylabel("contact solve time, best of 3 [s]")
    ax.set_title("CPU time against contacts (duriez2006 Fig. 8)")
    ax.legend()
    written = figstyle.save(fig, os.path.join(ctx.out, "table_cpu"))
    plt.close(fig)
    trows = [[r["na"], r["contacts"], "%.2e" % float(r["nsgs_time_s"]), r["nsgs_iterations"], "%.2e" % float(r["lemke_time_s"]), r["lemke_pivots"],
              g(float(r["lemke_delta_percent"]))] for r in rows]
    note = "Fitted slopes of log t against log m: nsgs %.2f, lemke k = 16 %.2f. Times: best of 3 solves, one run on the shared machine." % (sn, sl)
    return written + write_table(ctx, "table_cpu", ["cells per leg", "contacts", "nsgs time [s]", "nsgs sweeps", "lemke k=16 time [s]", "lemke pivots", "delta %"], trows, note)


def table_delassus(ctx):
    trows, written = [], []
    for name, case in (("plain", "table"), ("braced", "table_reinforced")):
        out, _ = ctx.run("table_delassus_" + name, ["{fcsim}", "run", os.path.join(ROOT, "cases", case + ".json"), "-q", "-o", "{out}", "--set", "time.steps=1",
                                                     "--set", "time.integrator=backward_euler", "--set", "time.dt=0.01", "--set", "time.newton.shift=0",
                                                     "--set", "output.fclib=true", "--set", "output.vtk=false", "--set", "bodies[0].loads[0].force=[0,0,-50]"],
                         files=["cases/%s.json" % case, "meshes/%s.msh" % case], cases=[("cases/%s.json" % case,)])
        prefix = os.path.join(ctx.out, "table_delassus_" + name)
        legs = os.path.join(out, "legs.csv")
        for ext in ("png", "pdf"):
            # plot_delassus.py writes one image per call, its format from the suffix
            plot_with(ctx, "table_delassus_" + name, script("plot_delassus.py", os.path.join(out, "fclib", "step_000001.hdf5"), "--run", os.path.join(out, "run.h5"),
                                                            "--step", "1", "--csv", legs, "-o", prefix + "." + ext,
                                                            "--title", "%s table (cases/%s.json), one backward Euler step" % (name, case)))
            written.append(prefix + "." + ext)
        G, ratio = [], None
        with open(legs) as f:
            for ln in f:
                if ln.startswith("# coupling_ratio"):
                    ratio = float(ln.split(",")[1])
                elif not ln.startswith("group"):
                    G.append([float(v) for v in ln.strip().split(",")[1:]])
        within = np.mean([G[i][i] for i in range(len(G))])
        trows.append([name, g(within), g(G[0][1]), g(G[0][3]), g(G[0][2]), g(ratio)])
    return written + write_table(ctx, "table_delassus", ["table", "mean ‖W_ab‖ within a leg", "legs 1-2 (x)", "legs 1-4 (y)", "legs 1-3 (diagonal)", "between / within"], trows)


def table_rigid(ctx):
    # table_rigid_sweep.py runs the tree's bin/fcsim (it has no --fcsim)
    out, _ = ctx.run("table_rigid", script("table_rigid_sweep.py", "--solver", "newton_inverse", "-o", "{out}"),
                     files=["scripts/table_rigid_sweep.py", "cases/table.json", "meshes/table.msh"], cases=[("cases/table.json",)])
    rows = read_rows(os.path.join(out, "sweep.csv"))
    models = list(dict.fromkeys(r["model"] for r in rows))
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    for mdl, mk in zip(models, ("o-", "s--")):
        rs = [r for r in rows if r["model"] == mdl]
        E = [float(r["E"]) for r in rs]
        ax[0].loglog(E, [float(r["cond_W"]) for r in rs], mk, label=mdl)
        ax[1].loglog(E, [max(float(r["max_leg_dev_rel"]), 1e-17) for r in rs], mk, label=mdl)
    ax[0].set_xlabel("Young's modulus E [Pa]")
    ax[0].set_ylabel("cond W = lambda_max / lambda_min [-]")
    ax[0].set_title("Delassus conditioning towards the rigid limit (duriez2006 Fig. 13)")
    ax[1].set_xlabel("Young's modulus E [Pa]")
    ax[1].set_ylabel("max ‖leg − sum/4‖ / (sum/4) [-]")
    ax[1].set_title("Equal legs by symmetry: departure")
    for a_ in ax:
        a_.legend()
    written = figstyle.save(fig, os.path.join(ctx.out, "table_rigid"))
    plt.close(fig)
    trows = [["%.0e" % float(r["E"]), r["model"], "%.9f" % float(r["sum_rz"]), "%.1e" % float(r["rel_err"]),
              ", ".join("%.5f" % float(r["leg%d_z" % k]) for k in range(1, 5)), "%.1e" % float(r["max_leg_dev_rel"]),
              "%.1e" % float(r["drift_vs_first_E"]), "%.3e" % float(r["cond_W"]), "%.3e" % float(r["lambda_min_W"]), r["newton_it"], r["steps_not_converged"]] for r in rows]
    note = "`scripts/table_rigid_sweep.py --solver newton_inverse` (newton with `-fc_contact_solver_newton_rho inverse`, rtol auto; gravity + 50 N, backward Euler dt = 0.2 s, 15 steps)."
    return written + write_table(ctx, "table_rigid", ["E [Pa]", "model", "sum r_z [N]", "rel. error", "leg z [N] (1-4)", "max ‖leg − sum/4‖ / (sum/4)", "drift", "cond W", "lambda_min W", "Newton it (last step)", "steps not converged"], trows, note)


# ---- the real FCLIB problems, every solver (issue 25; doc/contact.md) ---------------------------
def fclib_real(ctx):
    import fclib_real_table as frt
    try:
        d = frt.fclib_real()
    except SystemExit as e:  # the problems are not in the tree: say which folder is missing
        raise RuntimeError(str(e))
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".hdf5"))
    out, _ = ctx.run("fclib_real", script("fclib_real_table.py", "--fcsim", "{fcsim}", "-o", "{out}"), files=["scripts/fclib_real_table.py"] + files)
    rows = read_rows(os.path.join(out, "fclib_real.csv"))
    probs = list(dict.fromkeys(r["problem"] for r in rows))
    solvers = list(dict.fromkeys(r["solver"] for r in rows if not r["solver"].startswith("lemke:")))
    fig, ax = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
    marks = "os^vD<>xP*"
    for j, s in enumerate(solvers):
        xs, es, ts = [], [], []
        for i, p in enumerate(probs):
            r = [q for q in rows if q["problem"] == p and q["solver"] == s][0]
            if r["error"] and r["reason"] != "REFUSED":
                xs.append(i + (j - len(solvers) / 2) * 0.07)
                es.append(max(float(r["error"]), 1e-17))
                ts.append(max(float(r["time"]), 1e-7))
        ax[0].semilogy(xs, es, marks[j % len(marks)], label=s)
        ax[1].semilogy(xs, ts, marks[j % len(marks)], label=s)
    tol = float(rows[0]["tol"])
    ax[0].axhline(tol, color="k", lw=0.8, ls=":", label="tol %g" % tol)
    ax[0].set_ylabel("common error of the returned r [-]")
    ax[0].set_title("Every contact solver on the real FCLIB problems (../shared/fclib-real)")
    ax[0].legend(ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.02), fontsize=7)
    ax[1].set_ylabel("solve time [s]")
    ax[1].set_xticks(range(len(probs)))
    ax[1].set_xticklabels(["%s (m = %s)" % (p, [q for q in rows if q["problem"] == p][0]["contacts"]) for p in probs], rotation=60, ha="right", fontsize=7)
    written = figstyle.save(fig, os.path.join(ctx.out, "fclib_real"))
    plt.close(fig)
    trows = []
    for s in solvers:
        rs = [r for r in rows if r["solver"] == s]
        conv = sum(r["converged"] == "1" for r in rs)
        errs = [float(r["error"]) for r in rs if r["error"]]
        trows.append([s, "%d of %d" % (conv, len(rs)), "%.1e" % max(errs) if errs else "", "%.3g" % sum(float(r["time"] or 0) for r in rs)])
    return written + write_table(ctx, "fclib_real", ["solver", "converged at tol %g" % tol, "largest common error", "total time [s]"], trows,
                                 "The per-problem table: doc/contact.md (`scripts/fclib_real_table.py --update doc/contact.md`).")


FIGURES = [
    ("cylinder_press", "Rubber cylinder press: force against compression per mesh level, with the reference (han2023 Fig. 4)", cylinder_press),
    ("arch", "Masonry arch: keystone drop and kinetic energy per mu; stands/collapses over mu (han2023 Fig. 5)", arch),
    ("arch_geometry", "Masonry arch: the generated scene's catenary constants and blocks (tables; scripts/make_masonry_arch.py)", arch_geometry),
    ("hapco", "HapCo benchmarks: contact-solver iterations per increment, nsgs vs Uzawa (talbi2008 Figs. 6-9)", hapco),
    ("cylinder_hertz", "Rubber cylinder press at small compression against the 2-D Hertz line contact (Johnson 1985 §5.6)", cylinder_hertz),
    ("table_delta", "Table: lemke's pyramid error delta% against k, solve time per solver (duriez2006 Fig. 7)", table_delta),
    ("table_cpu", "Table: contact solve time against the number of contacts (duriez2006 Fig. 8)", table_cpu),
    ("table_delassus", "Table: the Delassus operator, plain and braced (duriez2006 Figs. 9, 11)", table_delassus),
    ("table_rigid", "Table: cond W and the legs' symmetry towards the rigid limit, plain and corotational (duriez2006 Fig. 13)", table_rigid),
    ("fclib_real", "Every contact solver on the real FCLIB problems (common error, time)", fclib_real),
    ("haptic", "Haptic replay: the rendered force against time (courtecuisse §IV-B)", haptic),
    ("cube_materials", "Cube in elongation and compression: the four materials' force against displacement (courtecuisse Fig. 3)", cube_materials),
    ("cube_instrument", "Instrument pushing a Mooney-Rivlin cube through a 75 degree turn: the force per compliance (courtecuisse Fig. 4)", cube_instrument),
    ("study_compare", "study compare: contact solver variants x compliance on the block on the floor, cost split per run", study_compare),
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
