"""Dynamic rigid bodies (src/model/body_rigid.c, doc/rigid.md): a prismatic joint, the θ-method,
and a rigid target that enters the contact problem through its mass (duriez2006 eq. 28-29).

1. No contact: a rigid plate on a prismatic joint along e = (1, 0, 1)/sqrt(2), constant force F.
   Only e.F drives it: a = e.F/m. Backward Euler: v_n = n dt a, p_n = p_{n-1} + dt v_n, so
   p_n = dt^2 a n(n+1)/2 exactly (asserted to 1e-12 relative, round-off). Midpoint (theta = 1/2):
   p_n = v0 t + a t^2/2 exactly (the trapezoidal rule is exact on a linear v). Midpoint with a
   linear force ramp F(t) = F t/T: the force is evaluated at t^theta = t_{n-1/2}, so
   v_n = a t_n^2 / (2T) exactly (midpoint rule on a linear integrand): checked on the kinetic
   energy 1/2 m v^2.
2. A rigid plate (mass 100 kg, prismatic along z, analytic plane) resting on a 1 m linear block
   (E = 1e6 Pa, nu = 0, rho = 100 kg/m^3, tet10, base clamped) under gravity, backward Euler with
   Rayleigh damping on the block: after settling the contact force on the plate is its weight m g
   (1e-6 relative) and the plate has moved down by the block's top displacement. With nu = 0 and
   a clamped base the stress is uniaxial, so the top displacement is exactly
   m g L/(E A) + rho g L^2/(2E) (the self-weight term is quadratic in z: exact on tet10); asserted
   to 1e-6. The same run with compliance "precomputed" gives the same trajectory (linear block:
   W identical up to round-off and the contact solver's tolerance). Force-controlled press
   (gravity off, plate force -F with a linear ramp, held): compression F L/(E A), contact force F.
   Midpoint on the gravity case: same static state once settled (t = 2 s).
3. Action = reaction: at every step of the transient the plate's discrete momentum balance
   m (v_n - v_{n-1}) / dt = -m g - f_z, with f the contact force on the block (probe) and v from
   the plate's positions, holds to 1e-9 m g: the plate receives exactly -r. At rest the block's
   support reaction carries both weights, (m_block + m_plate) g (1e-6).
4. Rejected combinations exit 2 with one line naming the JSON path (a free joint on an infinite
   plane; an angular velocity without a free joint; free joints: tests/integration/test_rigid_free.py).

Runtime: about 15 s."""
import json
import math
import os
import numpy as np
from fctest import ROOT, OUT, run, outdir, probes, stats, figure, check

tmp = os.path.join(OUT, "rigid_dynamic")
os.makedirs(tmp, exist_ok=True)


def write(name, case):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(case, f, indent=1)
    return path


# ---- 1. no contact ------------------------------------------------------------------------
m1, F1, dt1, n1 = 2.5, [3.0, 7.0, -1.0], 0.1, 10
e1 = np.array([1.0, 0.0, 1.0]) / math.sqrt(2.0)
a1 = float(e1 @ np.array(F1)) / m1
fall = {
    "name": "rigid_fall",
    "time": {"integrator": "backward_euler", "dt": dt1, "t_end": dt1 * n1},
    "gravity": [0, 0, 0],
    "bodies": [{"name": "plate", "type": "rigid",
                "shape": {"type": "plane", "point": [0, 0, 1], "normal": [0, 0, -1]},
                "motion": {"type": "dynamic", "mass": m1, "joint": {"type": "prismatic", "axis": [1, 0, 1]}, "force": F1}}],
    "probes": [{"name": "d", "type": "displacement", "body": "plate"},
               {"name": "ke", "type": "kinetic_energy", "body": "plate"}],
    "output": {"vtk": False, "hdf5": False},
}
cf = write("fall", fall)


def traj(p):
    return np.array([p["d_x"], p["d_y"], p["d_z"]]).T


d = outdir("rigid_dynamic/fall_be")
run(["run", cf, "-o", d])
p = probes(d)
n = np.arange(n1 + 1)
exact = np.outer(dt1 ** 2 * a1 * n * (n + 1) / 2, e1)
err = np.abs(traj(p) - exact).max() / np.abs(exact).max()
figure("rigid prismatic, backward Euler, constant force: max |d - dt^2 a n(n+1)/2 e| / max|d| = %.2e" % err)
check(err <= 1e-12, "backward Euler trajectory = its discrete solution dt^2 a n(n+1)/2 along the axis (1e-12)")
ke_exact = 0.5 * m1 * (n * dt1 * a1) ** 2
check(np.abs(np.array(p["ke"]) - ke_exact).max() <= 1e-12 * ke_exact.max(), "kinetic energy = 1/2 m v^2 with v_n = n dt a")

v0 = 0.3
d = outdir("rigid_dynamic/fall_mid")
run(["run", cf, "-o", d, "--set", "time.integrator=midpoint", "--set", "bodies[0].motion.initial_velocity=[%.17g,0,%.17g]" % (v0 * e1[0], v0 * e1[2])])
p = probes(d)
t = n * dt1
exact = np.outer(v0 * t + 0.5 * a1 * t ** 2, e1)
err = np.abs(traj(p) - exact).max() / np.abs(exact).max()
figure("rigid prismatic, midpoint, constant force, v0 = %g m/s: max |d - (v0 t + a t^2/2) e| / max|d| = %.2e" % (v0, err))
check(err <= 1e-12, "midpoint trajectory = v0 t + a t^2/2 exactly (1e-12)")

d = outdir("rigid_dynamic/fall_mid_ramp")
run(["run", cf, "-o", d, "--set", "time.integrator=midpoint", "--set", "bodies[0].motion.ramp=linear"])
p = probes(d)
T = dt1 * n1
v = a1 * t ** 2 / (2 * T)
ke_exact = 0.5 * m1 * v ** 2
err = np.abs(np.array(p["ke"]) - ke_exact).max() / ke_exact.max()
figure("rigid prismatic, midpoint, linear force ramp: max |KE - 1/2 m (a t^2/2T)^2| / max KE = %.2e" % err)
check(err <= 1e-12, "force evaluated at t^theta: v_n = a t_n^2/(2T) exactly (1e-12 on the kinetic energy)")

# ---- 2, 3. plate on a block ---------------------------------------------------------------
mp, g, E, rho, L = 100.0, 9.81, 1e6, 100.0, 1.0
press = {
    "name": "rigid_plate_on_block",
    "time": {"integrator": "backward_euler", "dt": 0.01, "t_end": 1.0},
    "gravity": [0, 0, -g],
    "bodies": [
        {"name": "block", "mesh": {"file": os.path.join(ROOT, "meshes", "cube.geo"), "refine": 0, "order": 2},
         "material": {"model": "linear", "E": E, "nu": 0.0, "density": rho},
         "damping": {"alpha": 20, "beta": 0.002},
         "boundary": [{"group": "zmin", "fix": [True, True, True]}]},
        {"name": "plate", "type": "rigid",
         "shape": {"type": "plane", "point": [0, 0, L], "normal": [0, 0, -1]},
         "motion": {"type": "dynamic", "mass": mp, "joint": {"type": "prismatic", "axis": [0, 0, 1]}}},
    ],
    "contacts": [{"pair": ["block", "plate"], "surface": "zmax", "mu": 0.3, "alarm": 0.05}],
    "contact_solver": {"tol": 1e-12},
    "probes": [{"name": "contact", "type": "contact_force", "pair": 0},
               {"name": "plate", "type": "displacement", "body": "plate", "component": "z"},
               {"name": "top", "type": "displacement", "body": "block", "group": "zmax", "component": "z"},
               {"name": "support", "type": "reaction", "body": "block", "group": "zmin", "component": "z"}],
    "output": {"vtk": False, "hdf5": False},
}
cp = write("press", press)
W = mp * g
delta = W * L / (E * L * L) + rho * g * L ** 2 / (2 * E)

d = outdir("rigid_dynamic/press_be")
run(["run", cp, "-o", d])
p, s = probes(d), stats(d)
check(all(c == 1 for c in s["converged"]) and all(c == 1 for c in s["contact_converged"]), "every step and contact solve converged")
fz, zp, zt, sup = -p["contact_z"][-1], p["plate"][-1], p["top"][-1], p["support"][-1]
figure("plate on block (backward Euler): contact force on the plate %.9f N vs m g = %.2f N (relative %.2e)" % (fz, W, abs(fz - W) / W))
check(abs(fz - W) <= 1e-6 * W, "contact force on the plate = its weight (1e-6)")
figure("plate on block: plate displacement %.9e m, block top %.9e m, m g L/(E A) + rho g L^2/(2E) = %.9e m (relative %.2e)"
       % (zp, zt, -delta, abs(-zp - delta) / delta))
check(abs(-zp - delta) <= 1e-6 * delta, "plate displacement = uniaxial compression under m g plus self-weight (1e-6)")
check(abs(zp - zt) <= 1e-10, "plate and block top move together (|gap| <= 1e-10 m)")
figure("plate on block: support reaction %.9f N vs (m_block + m_plate) g = %.2f N" % (sup, (rho * L ** 3 + mp) * g))
check(abs(sup - (rho * L ** 3 + mp) * g) <= 1e-6 * (rho * L ** 3 + mp) * g, "block support carries both weights (1e-6)")
# 3. the plate's momentum balance at every step (backward Euler: v_n = (p_n - p_{n-1})/dt)
dt = press["time"]["dt"]
zpl = np.array(p["plate"])
vel = np.concatenate([[0.0], np.diff(zpl) / dt])
lhs = mp * np.diff(vel) / dt
rhs = -W - np.array(p["contact_z"][1:])
err = np.abs(lhs - rhs).max()
figure("action = reaction: max over %d steps |m dv/dt - (-m g - f_block)| = %.2e N (peak contact force %.1f N)"
       % (len(lhs), err, max(-np.array(p["contact_z"]))))
check(err <= 1e-9 * W, "plate receives -r: its momentum balance holds at every step (1e-9 m g)")
check(max(-np.array(p["contact_z"])) > 1.1 * W, "the transient is dynamic (peak contact force above the weight)")

d2 = outdir("rigid_dynamic/press_precomputed")
run(["run", cp, "-o", d2, "--set", "compliance.type=precomputed"])
q = probes(d2)
err = np.abs(np.array(q["plate"]) - zpl).max() / delta
figure("plate on block: compliance precomputed vs exact, max plate displacement difference / delta = %.2e" % err)
check(err <= 1e-8, "precomputed compliance gives the same plate trajectory (1e-8)")

F = 2000.0
d3 = outdir("rigid_dynamic/press_force")
run(["run", cp, "-o", d3, "--set", "gravity=[0,0,0]", "--set", "bodies[1].motion.force=[0,0,%g]" % -F,
     "--set", 'bodies[1].motion.ramp={"type":"linear","t0":0,"t1":0.5}'])
p = probes(d3)
fz, zp = -p["contact_z"][-1], p["plate"][-1]
figure("force-controlled press: F = %g N, contact force %.9f N, compression %.9e m vs F L/(E A) = %.9e m (relative %.2e)"
       % (F, fz, -zp, F * L / (E * L * L), abs(-zp - F * L / (E * L * L)) / (F * L / (E * L * L))))
check(abs(fz - F) <= 1e-6 * F, "force-controlled press: contact force = applied force (1e-6)")
check(abs(-zp - F * L / (E * L * L)) <= 1e-6 * F * L / (E * L * L), "force-controlled press: compression = F L/(E A) (1e-6)")

d4 = outdir("rigid_dynamic/press_mid")
run(["run", cp, "-o", d4, "--set", "time.integrator=midpoint", "--set", "time.t_end=2"])
p, s = probes(d4), stats(d4)
fz, zp = -p["contact_z"][-1], p["plate"][-1]
figure("plate on block (midpoint, t = 2 s): contact force %.6f N (relative %.2e), plate %.9e m (relative %.2e), %d Newton iterations"
       % (fz, abs(fz - W) / W, zp, abs(-zp - delta) / delta, int(sum(s["newton_it"]))))
check(all(c == 1 for c in s["converged"]), "midpoint: every step converged")
check(abs(fz - W) <= 1e-6 * W and abs(-zp - delta) <= 1e-6 * delta, "midpoint settles to the same static state (1e-6)")
# midpoint momentum balance: p_n - p_{n-1} = dt (v_n + v_{n-1})/2
zpl = np.array(p["plate"])
vel = [0.0]
for k in range(1, len(zpl)):
    vel.append(2 * (zpl[k] - zpl[k - 1]) / dt - vel[-1])
lhs = mp * np.diff(vel) / dt
rhs = -W - np.array(p["contact_z"][1:])
err = np.abs(lhs - rhs).max()
figure("action = reaction (midpoint): max |m dv/dt - (-m g - f_block)| = %.2e N" % err)
check(err <= 1e-9 * W, "midpoint: plate momentum balance at every step (1e-9 m g)")

# ---- 4. rejected combinations ---------------------------------------------------------------
for label, sets, path in (
        ("quasi-static", ["time.integrator=quasi_static"], "bodies[1].motion.type"),
        ("free joint on a plane", ['bodies[1].motion.joint={"type":"free"}', "bodies[1].motion.inertia=[1,1,1]"], "bodies[1].shape.type"),
        ("angular velocity without a free joint", ["bodies[1].motion.initial_angular_velocity=[0,0,1]"], "bodies[1].motion.initial_angular_velocity"),
        ("off-axis initial velocity", ["bodies[1].motion.initial_velocity=[1,0,0]"], "bodies[1].motion.initial_velocity"),
        ("fixed joint with a velocity", ['bodies[1].motion.joint={"type":"fixed"}', "bodies[1].motion.initial_velocity=[0,0,1]"], "bodies[1].motion.initial_velocity")):
    args = ["run", cp, "-o", os.path.join(tmp, "bad")]
    for x in sets:
        args += ["--set", x]
    r = run(args, expect=2)
    lines = r.stderr.strip().splitlines()
    check(len(lines) == 1 and lines[0].startswith(cp + ": " + path + ":"), "%s rejected: %s" % (label, r.stderr.strip()))
    check(not os.path.exists(os.path.join(tmp, "bad")), "%s: no output directory left" % label)
