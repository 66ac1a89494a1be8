"""Rotating rigid bodies (src/model/body_rigid.c, doc/rigid.md §2b): free joints (6 DoFs) and
prescribed (kinematic) rotations.

1. Free flight of a box (no contact): gravity g and an initial velocity v0, an initial angular
   velocity about a principal axis. Backward Euler on the translation: v_n = v0 + n dt g,
   d_n = n dt v0 + dt^2 g n(n+1)/2 exactly (1e-12 relative, round-off); the rotation about a
   principal axis keeps omega constant (no gyroscopic torque): the kinetic energy
   1/2 m |v_n|^2 + 1/2 J_z omega^2 is exact (1e-12).
2. A rigid block on a rigid support at the friction limit (issue 3: "mu = tan theta sticks"). The
   block is a free rigid box 0.5 x 0.5 x 0.1 m, 25 kg. The support is a deformable slab
   (meshes/slab.geo, level 2) whose top and bottom are clamped: its top nodes are the contact
   points and carry no DoF, so the contact problem sees only the block (a rigid block on a rigid
   incline, the rigid-body theory's setting). Gravity is tilted by theta, tan theta = 0.5; nsgs
   to 1e-12:
   - mu = 0.5 = tan theta: the block sticks, its displacement after 1 s below 1e-6 m (measured
     2.6e-8 m: a creep at the contact solver's tolerance), normal force m g cos theta (1e-6);
   - mu = 0.49: it slides with a = g (sin theta - mu cos theta) = 0.0877 m/s^2 (2 %);
   - theta = 30 deg, mu = 0.2: a = 3.206 m/s^2 (1 %);
   - sliding, it does not tip: rotational kinetic energy <= 1e-9 of the translational (measured
     1e-15).
   A thick block (0.5 m cube) on the same support tips instead: the resultant of gravity and
   friction meets its base h tan theta = 0.125 m downhill of the centre, just outside the convex
   hull of the slab nodes under it (level 2, lc = 0.25 m), so on those point supports tipping is
   the right answer (at theta = 20 deg, inside the hull, the cube stays put to 1e-14 m).

3. A free body in a quasi-static case is rejected (exit 2, one line).
4. A kinematic rotation (a turntable carrying a block, below).

Not tested here: the gyroscopic term for a spin off a principal axis (explicit, first order in
dt: doc/rigid.md).

Runtime: about 15 s."""
import json
import math
import os
import numpy as np
from fctest import OUT, run, outdir, probes, stats, figure, check

tmp = os.path.join(OUT, "rigid_free")
os.makedirs(tmp, exist_ok=True)


def write(name, case):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(case, f, indent=1)
    return path


# ---- 1. free flight ----------------------------------------------------------------------------
m, a, b, c = 6.0, 1.0, 0.5, 0.25              # box 1 x 0.5 x 0.25 m (half extents below)
Jx, Jy, Jz = m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12
g = np.array([0.0, 0.0, -9.81])
v0 = np.array([0.3, -0.2, 1.5])
wz, dt, n = 2.0, 0.01, 50
fly = {
    "name": "rigid_fly",
    "time": {"integrator": "backward_euler", "dt": dt, "t_end": dt * n},
    "gravity": list(g),
    "bodies": [{"name": "box", "type": "rigid",
                "shape": {"type": "box", "center": [0, 0, 0], "half_extents": [a / 2, b / 2, c / 2]},
                "motion": {"type": "dynamic", "mass": m, "inertia": [Jx, Jy, Jz], "joint": {"type": "free"},
                           "initial_velocity": list(v0), "initial_angular_velocity": [0, 0, wz]}}],
    "probes": [{"name": "d", "type": "displacement", "body": "box"},
               {"name": "ke", "type": "kinetic_energy", "body": "box"}],
    "output": {"vtk": False, "hdf5": False},
}
d = outdir("rigid_free/fly")
run(["run", write("fly", fly), "-o", d])
p = probes(d)
k = np.arange(len(p["time"]))
dn = np.stack([p["d_x"], p["d_y"], p["d_z"]], axis=1)
exact = k[:, None] * dt * v0[None, :] + dt * dt * g[None, :] * (k * (k + 1) / 2)[:, None]
err = np.abs(dn - exact).max() / np.abs(exact).max()
vn = v0[None, :] + k[:, None] * dt * g[None, :]
ke = 0.5 * m * (vn ** 2).sum(axis=1) + 0.5 * Jz * wz * wz
eke = np.abs(np.array(p["ke"])[1:] - ke[1:]).max() / ke.max()
figure("free flight (backward Euler): max |d - exact| / max |d| = %.1e; kinetic energy with the spin about the principal axis z: max relative error %.1e" % (err, eke))
check(err <= 1e-12, "free flight: translation exact (round-off)")
check(eke <= 1e-12, "free flight: kinetic energy 1/2 m v^2 + 1/2 J_z w^2 exact: the spin is kept")


# ---- 2. box on a clamped slab, tilted gravity --------------------------------------------------
def incline(name, theta, mu, x0=0.53, t_end=1.0):
    gg = 9.81
    case = {
        "name": "rigid_incline_" + name,
        "time": {"integrator": "backward_euler", "dt": 0.005, "t_end": t_end},
        "gravity": [gg * math.sin(theta), 0, -gg * math.cos(theta)],
        "bodies": [
            {"name": "slab", "mesh": {"file": os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "meshes", "slab.geo"), "refine": 2, "order": 1},
             "material": {"model": "linear", "E": 1e9, "nu": 0.3, "density": 1000},
             "boundary": [{"group": "top", "fix": [True, True, True]}, {"group": "bottom", "fix": [True, True, True]}]},
            {"name": "box", "type": "rigid",
             "shape": {"type": "box", "center": [x0, 0.47, 0.05], "half_extents": [0.25, 0.25, 0.05]},
             "motion": {"type": "dynamic", "mass": 25.0, "inertia": [25.0 * 0.26 / 12, 25.0 * 0.26 / 12, 25.0 * 0.5 / 12], "joint": {"type": "free"}}},
        ],
        "contacts": [{"pair": ["slab", "box"], "surface": "top", "mu": mu, "alarm": 0.05}],
        "contact_solver": {"type": "nsgs", "tol": 1e-12, "max_it": 20000},
        "probes": [{"name": "d", "type": "displacement", "body": "box"},
                   {"name": "f", "type": "contact_force", "pair": 0},
                   {"name": "ke", "type": "kinetic_energy", "body": "box"}],
        "output": {"vtk": False, "hdf5": False},
    }
    d = outdir("rigid_free/incline_" + name)
    run(["run", write("incline_" + name, case), "-o", d])
    return probes(d), stats(d), 25.0, gg


th = math.atan(0.5)
p, st, mb, gg = incline("stick", th, 0.5)
dx = max(abs(v) for v in p["d_x"])
N = mb * gg * math.cos(th)
figure("rigid box at mu = tan theta = 0.5: max |displacement along the slope| over 1 s %.2e m; normal force %.6f N vs m g cos theta %.6f N" % (dx, abs(p["f_z"][-1]), N))
check(all(c == 1 for c in st["converged"]), "mu = tan theta: every step converged")
check(dx <= 1e-6, "mu = tan theta: the box sticks (displacement after 1 s below 1e-6 m)")
check(abs(abs(p["f_z"][-1]) - N) <= 1e-6 * N, "mu = tan theta: normal force m g cos theta (1e-6)")

for name, theta, mu, tol, x0 in (("tan0.5_mu0.49", th, 0.49, 0.02, 0.53), ("30deg_mu0.2", math.radians(30), 0.2, 0.01, -0.45)):
    p, st, mb, gg = incline(name, theta, mu, x0)
    t, x = np.array(p["time"]), np.array(p["d_x"])
    msk = t >= 0.2
    acc = 2 * np.polyfit(t[msk], x[msk], 2)[0]
    a0 = gg * (math.sin(theta) - mu * math.cos(theta))
    vx = np.gradient(x, t)
    ktr = 0.5 * mb * vx[-1] ** 2
    krot = max(p["ke"][-1] - ktr, 0.0)
    figure("rigid box sliding %s: acceleration %.6f m/s^2 vs g(sin - mu cos) = %.6f (error %.3f %%); rotational / translational kinetic energy %.1e" % (name, acc, a0, 100 * abs(acc - a0) / a0, krot / ktr))
    check(all(c == 1 for c in st["converged"]), "%s: every step converged" % name)
    check(abs(acc - a0) <= tol * a0, "%s: acceleration within %g %%" % (name, 100 * tol))
    check(krot <= 1e-9 * ktr, "%s: the box slides without tipping (rotational kinetic energy <= 1e-9 of the translational)" % name)

# ---- 3. rejected: a free body in a quasi-static case (nothing but contact would balance it) ----
cq = write("fly", fly)
r = run(["run", cq, "-o", os.path.join(tmp, "bad"), "--set", "time.integrator=quasi_static"], expect=2)
lines = r.stderr.strip().splitlines()
check(len(lines) == 1 and lines[0].startswith(cq + ": bodies[0].motion.type:"), "free joint in a quasi-static case rejected: %s" % r.stderr.strip())
check(not os.path.exists(os.path.join(tmp, "bad")), "no output directory left")

# ---- 4. a prescribed rotation: a block carried by a turntable -----------------------------------
# A rigid plane z = 0 turns about the vertical axis through (-0.5, 0.5, 0) by theta(t) = 0.1 t^2
# (table, 0.05 s rows); the unit cube (meshes/cube.geo) rests on it at 1 m from the axis under
# gravity, mu = 0.8: the tangential acceleration (0.2 m/s^2 at most) is far below mu g, so the
# block sticks and its bottom face turns with the table: its mean displacement is the rotation of
# its centroid (0.5, 0.5, 0) about the axis, (cos theta - 1, sin theta, 0) m. This checks the
# rotating shape in detection and the velocity of the table's material point in q (doc/rigid.md
# §3): a table that only translated, or q with the translation velocity only, leaves the block
# behind. The reference angle is the table's, interpolated linearly as fcsim does (against the
# exact 0.1 t^2 the interpolation alone differs by 6e-4 of |d|). Bound: 1e-3 of |d| for the
# block's elastic response and settling (measured 3.5e-4).
rows = [[0.05 * i, 0.1 * (0.05 * i) ** 2] for i in range(21)]
turn = {
    "name": "turntable",
    "time": {"integrator": "backward_euler", "dt": 0.005, "t_end": 1.0},
    "gravity": [0, 0, -9.81],
    "bodies": [
        {"name": "block", "mesh": {"file": os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "meshes", "cube.geo"), "refine": 0, "order": 1},
         "material": {"model": "linear", "E": 1e8, "nu": 0.3, "density": 1000}, "damping": {"alpha": 0, "beta": 0.001}},
        {"name": "table", "type": "rigid", "shape": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
         "motion": {"type": "kinematic", "displacement": [0, 0, 0], "rotation": {"axis": [0, 0, 1], "center": [-0.5, 0.5, 0], "table": rows}}}],
    "contacts": [{"pair": ["block", "table"], "surface": "zmin", "mu": 0.8, "alarm": 0.05}],
    "contact_solver": {"type": "nsgs", "tol": 1e-12, "max_it": 5000},
    "probes": [{"name": "bottom", "type": "displacement", "body": "block", "group": "zmin"}],
    "output": {"vtk": False, "hdf5": False},
}
d = outdir("rigid_free/turntable")
run(["run", write("turntable", turn), "-o", d])
p, st = probes(d), stats(d)
t = np.array(p["time"])
th_t = np.interp(t, [r[0] for r in rows], [r[1] for r in rows])  # the table's (piecewise linear) angle
ex = np.stack([np.cos(th_t) - 1, np.sin(th_t), 0 * t], axis=1)
got = np.stack([p["bottom_x"], p["bottom_y"], p["bottom_z"]], axis=1)
late = t >= 0.5
err = np.abs(got[late, :2] - ex[late, :2]).max() / np.abs(ex[-1]).max()
figure("turntable (kinematic rotation theta = 0.1 t^2 about a vertical axis 1 m away): bottom face displacement %s m at 1 s vs the table's (%.6f, %.6f); max in-plane error over t >= 0.5 s %.1e of |d|" %
       (np.array2string(got[-1], precision=6), ex[-1, 0], ex[-1, 1], err))
check(all(c == 1 for c in st["converged"]), "turntable: every step converged")
check(err <= 1e-3, "turntable: the block turns with the table (1e-3)")

# rejected rotations: one line naming the JSON path, exit 2
ct = write("turntable", turn)
for label, sets, path in (
        ("angle and table", ["bodies[1].motion.rotation.angle=0.1"], "bodies[1].motion.rotation"),
        ("angle without a ramp", ['bodies[1].motion.rotation={"axis":[0,0,1],"angle":0.1}', 'bodies[1].motion.displacement={"table":[[0,0,0,0],[1,0,0,0]]}'], "bodies[1].motion.rotation.angle"),
        ("zero axis", ['bodies[1].motion.rotation.axis=[0,0,0]'], "bodies[1].motion.rotation.axis")):
    args = ["run", ct, "-o", os.path.join(tmp, "bad")]
    for x in sets:
        args += ["--set", x]
    r = run(args, expect=2)
    lines = r.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith(ct + ": " + path + ":"), "%s rejected: %s" % (label, r.stderr.strip()))
    check(not os.path.exists(os.path.join(tmp, "bad")), "%s: no output directory left" % label)
