"""The θ-method (han2023 eq. 1-11, doc/dynamics.md), plane strain, and corotational_lagged in a run.

Bar of meshes/beam.geo (1 m x 0.1 m x 0.1 m, tet4, clamped at x = 0), E = 1e9 Pa, nu = 0,
rho = 1000 kg/m^3: fundamental axial period T = 4 L / c = 4 ms. A tip force of 1e4 N is held
for 1 ms and released through a ramp table; afterwards the system is linear, undamped and free,
and the discrete energy E = 1/2 v'Mv + 1/2 u'Ku (probes kinetic_energy + strain_energy) obeys
exact identities of each scheme. M and K are rebuilt here with numpy from run.h5 (tet4 consistent
mass and B'CB stiffness) and checked against the probes first (1e-10), so the identities below are
checked on fcsim's own matrices:

(a) midpoint (theta = theta_vq = 1/2): M(v1-v0) = -dt K (u0+u1)/2, u1-u0 = dt (v0+v1)/2 conserves E
    exactly (multiply by (v0+v1)/2): 100 periods, E constant to 1e-6 relative (round-off:
    measured ~1e-13); backward Euler over the same time loses most of it.
(b) backward Euler: E_{n+1} - E_n = -1/2 |v_{n+1}-v_n|_M^2 - 1/2 |u_{n+1}-u_n|_K^2 exactly
    (multiply M(v1-v0) = -dt K u1 by v1): checked to 1e-9 E per step; per mode (K phi = w^2 M phi)
    the energy is multiplied by exactly 1/(1 + w^2 dt^2) per step (amplitude 1/sqrt(1 + w^2 dt^2)):
    checked to 1e-8 on the modes that carry energy.
(c) symplectic Euler (theta = 0, theta_vq = 1, explicit: A = M): stable iff w_max dt < 2. It
    conserves exactly I = E - dt/2 v'Ku (the modified energy of the linear map; doc/dynamics.md):
    at dt = 0.9 * 2/w_max, I constant to 1e-9 over 1000 steps and E bounded; at dt = 1.1 * 2/w_max
    the highest modes grow (E x > 1e6 in 100 steps).
(d) A prescribed displacement is met exactly at t1 by every theta method (v on the constrained
    DoF from eq. 4): theta = 0.7, theta_vq = 0.6, tip following a ramp, 1e-12.
(e) theta_vq = 0 is rejected (input error, exit 2, one line naming time.theta_vq).
(f) Contact with the midpoint rule: the block of cases/block_on_floor.json settles with the
    contact force equal to its weight (the impulse r is converted with dt, the gap with
    dt theta_vq), 1e-4 relative (the undamped remainder of the transient: exp(-alpha t/2) ~ 5e-5);
    on a floor moving at 0.1 m/s it sticks and moves with it (1e-6), friction carrying the
    Rayleigh drag alpha m v = 2000 N (1e-3).
(g) Plane strain (bodies[i].plane_strain: u_z = 0 at every node): a unit cube, rollers on x = 0
    and y = 0, pressure p on x = 1, quasi-static: sigma_xx = -p, sigma_yy = 0,
    sigma_zz = nu (sigma_xx + sigma_yy) = -nu p; u_x(1) = -p (1 - nu^2)/E,
    u_y(1) = p nu (1 + nu)/E. Linear fields: exact on tet4 to round-off (1e-10 relative); the
    reaction on z = 1 is sigma_zz times the area.
(h) corotational_lagged in backward Euler: linear within a step (han2023 Proposition 1), so
    every step converges in one Newton iteration at rtol 1e-10, and for this small-strain
    motion (strain eps = 1e-3) the tip follows the linear model to second order in the strain
    (the frames differ from I by O(eps) and only through shear: 10 eps^2 = 1e-5 relative).
Total run time ~15 s."""
import json
import math
import os
import numpy as np
import h5py
import scipy.linalg
from fctest import ROOT, run, outdir, probes, stats, figure, check

E, nu, rho, L, A, F = 1e9, 0.0, 1000.0, 1.0, 0.01, 1e4
T = 4 * L / math.sqrt(E / rho)
t_release = 1e-3


def bar_case(d, integrator, dt, steps, every=0, theta=None, material="linear", loads=None, boundary=None):
    """Write the bar case into d/case.json and return its path; every = 0: no run.h5."""
    time = {"integrator": integrator, "dt": dt, "steps": steps}
    if theta is not None:
        time["theta"], time["theta_vq"] = theta
    if loads is None:
        loads = [{"group": "tip", "force": [F, 0, 0],
                  "ramp": {"type": "table", "table": [[0, 1], [t_release, 1], [t_release + dt, 0]]}}]
    case = {
        "name": "theta_bar",
        "time": time,
        "bodies": [{
            "name": "bar",
            "mesh": {"file": os.path.join(ROOT, "meshes", "beam.geo"), "refine": 0, "order": 1},
            "material": {"model": material, "E": E, "nu": nu, "density": rho},
            "boundary": [{"group": "fixed", "fix": [True, True, True]}] + (boundary or []),
            "loads": loads,
        }],
        "probes": [
            {"name": "tip", "type": "displacement", "body": "bar", "group": "tip"},
            {"name": "kinetic_energy", "type": "kinetic_energy"},
            {"name": "strain_energy", "type": "strain_energy"},
        ],
        "output": {"every": max(every, 1), "vtk": False, "hdf5": every > 0},
    }
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "case.json")
    with open(path, "w") as f:
        json.dump(case, f, indent=1)
    return path


def tet4_matrices(X, cells, E, nu, rho):
    """Consistent mass and linear-elastic stiffness of a tet4 mesh (dense; small meshes)."""
    n = 3 * len(X)
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    C = np.zeros((6, 6))
    C[:3, :3] = lam
    C[:3, :3] += 2 * mu * np.eye(3)
    C[3:, 3:] = mu * np.eye(3)
    K, M = np.zeros((n, n)), np.zeros((n, n))
    Mref = np.kron((np.ones((4, 4)) + np.eye(4)) / 20, np.eye(3))
    for c in cells:
        D = (X[c[1:]] - X[c[0]]).T
        V = np.linalg.det(D) / 6
        G = np.linalg.inv(D)
        g = np.vstack([-G.sum(0), G])
        B = np.zeros((6, 12))
        for a in range(4):
            gx, gy, gz = g[a]
            B[:, 3 * a:3 * a + 3] = [[gx, 0, 0], [0, gy, 0], [0, 0, gz], [gy, gx, 0], [0, gz, gy], [gz, 0, gx]]
        idx = (3 * c[:, None] + np.arange(3)).ravel()
        K[np.ix_(idx, idx)] += V * B.T @ C @ B
        M[np.ix_(idx, idx)] += rho * V * Mref
    return M, K


def fields(d):
    """X, cells, times and the (steps, ndof) arrays of u and v from run.h5."""
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        b = f["bodies/bar"]
        keys = sorted(b["fields"].keys())
        X, cells = b["mesh/X"][()], b["mesh/cells"][()]
        t = np.array([b["fields"][k].attrs["time"] for k in keys])
        U = np.array([b["fields"][k]["displacement"][()].ravel() for k in keys])
        V = np.array([b["fields"][k]["velocity"][()].ravel() for k in keys])
    return X, cells, t, U, V


def energies(M, K, U, V):
    return 0.5 * np.einsum("ij,jk,ik->i", V, M, V), 0.5 * np.einsum("ij,jk,ik->i", U, K, U)


# (b) backward Euler: the exact energy identity, the per-mode factor, and the matrices themselves
dt = T / 40
d = outdir("theta/be_identity")
run(["run", bar_case(d, "backward_euler", dt, 60, every=1), "-o", os.path.join(d, "run")])
X, cells, t, U, V = fields(os.path.join(d, "run"))
p = probes(os.path.join(d, "run"))
M, K = tet4_matrices(X, cells, E, nu, rho)
KE, SE = energies(M, K, U, V)
err_k = np.max(np.abs(KE - p["kinetic_energy"])) / max(p["kinetic_energy"])
err_s = np.max(np.abs(SE - p["strain_energy"])) / max(p["strain_energy"])
figure("numpy M, K vs fcsim probes: kinetic %.1e, strain %.1e (relative)" % (err_k, err_s))
check(err_k < 1e-10 and err_s < 1e-10, "the test's tet4 M and K reproduce fcsim's energies (1e-10)")
n0 = int(round((t_release + dt) / dt))  # first step with zero load
Etot = KE + SE
dU, dV = np.diff(U, axis=0), np.diff(V, axis=0)
loss = 0.5 * np.einsum("ij,jk,ik->i", dV, M, dV) + 0.5 * np.einsum("ij,jk,ik->i", dU, K, dU)
resid = np.diff(Etot) + loss
worst = np.max(np.abs(resid[n0:]) / Etot[n0:-1])
figure("backward Euler: |E_n+1 - E_n + |dv|_M^2/2 + |du|_K^2/2| / E_n <= %.2e over %d free steps "
       "(energy lost per step %.3e of E)" % (worst, len(resid) - n0, np.mean(loss[n0:] / Etot[n0:-1])))
check(worst < 1e-9, "backward Euler numerical dissipation identity holds to 1e-9 E")
# modes of the free DoFs (x > 0): K phi = w^2 M phi, phi' M phi = 1
free = np.repeat(X[:, 0] > 1e-12, 3)
w2, Phi = scipy.linalg.eigh(K[np.ix_(free, free)], M[np.ix_(free, free)])
w2 = np.maximum(w2, 0.0)
Mf = M[np.ix_(free, free)]
a = (U[:, free] @ Mf) @ Phi  # modal displacement
b = (V[:, free] @ Mf) @ Phi  # modal velocity
e = 0.5 * (b ** 2 + w2 * a ** 2)
main = np.argsort(-e[n0])[:6]
worst, lines = 0.0, []
for k in main:
    theory = 1.0 / (1.0 + w2[k] * dt * dt)
    ok = e[n0:-1, k] > 1e-6 * Etot[n0]
    ratio = e[n0 + 1:, k][ok] / e[n0:-1, k][ok]
    worst = max(worst, np.max(np.abs(ratio / theory - 1)))
    lines.append("w dt %.3f: %.10f (theory %.10f)" % (math.sqrt(w2[k]) * dt, ratio.mean(), theory))
f1 = math.sqrt(w2[main[0]]) / (2 * math.pi)
figure("backward Euler per-mode energy factor per step, 6 most energetic modes: " + "; ".join(lines[:3]))
figure("backward Euler mode factors vs 1/(1 + w^2 dt^2): worst relative deviation %.2e; most energetic mode %.2f Hz "
       "(axial fundamental c/4L: %.2f Hz)" % (worst, f1, 1 / T))
check(worst < 1e-8, "backward Euler multiplies each mode's energy by 1/(1 + w^2 dt^2) per step (1e-8)")
w_max = math.sqrt(w2[-1])

# (a) midpoint: energy conserved over 100 periods
dt = T / 20
steps = 100 * 20 + int(round(t_release / dt)) + 1
d = outdir("theta/midpoint")
run(["run", bar_case(d, "midpoint", dt, steps), "-o", os.path.join(d, "run")])
p = probes(os.path.join(d, "run"))
Em = np.array(p["kinetic_energy"]) + np.array(p["strain_energy"])
n0 = int(round((t_release + dt) / dt))
drift = np.max(np.abs(Em[n0:] - Em[n0])) / Em[n0]
run(["run", bar_case(d, "backward_euler", dt, steps), "-o", os.path.join(d, "run_be")])
pb = probes(os.path.join(d, "run_be"))
Eb = np.array(pb["kinetic_energy"]) + np.array(pb["strain_energy"])
figure("midpoint, 100 periods (%d steps, dt = T/20): energy %.6e J, max relative drift %.2e; "
       "backward Euler keeps %.2e of it" % (steps - n0, Em[n0], drift, Eb[-1] / Eb[n0]))
check(drift < 1e-6, "midpoint conserves the energy of an undamped linear free vibration to 1e-6 over 100 periods")
check(Eb[-1] / Eb[n0] < 1e-2, "backward Euler dissipates it (control: the check above can fail)")

# (c) symplectic Euler below and above its stability limit 2/w_max
dt_crit = 2.0 / w_max
d = outdir("theta/symplectic")
dt = 0.9 * dt_crit
run(["run", bar_case(d, "symplectic_euler", dt, 1000, every=1), "-o", os.path.join(d, "stable")])
X, cells, t, U, V = fields(os.path.join(d, "stable"))
KE, SE = energies(M, K, U, V)
Es = KE + SE
I = Es - 0.5 * dt * np.einsum("ij,jk,ik->i", V, K, U)
n0 = int(math.ceil((t_release + dt) / dt))
driftI = np.max(np.abs(I[n0:] - I[n0])) / I[n0]
spread = Es[n0:].max() / Es[n0:].min()
run(["run", bar_case(d, "symplectic_euler", 1.1 * dt_crit, 100), "-o", os.path.join(d, "unstable")])
pu = probes(os.path.join(d, "unstable"))
Eu = np.array(pu["kinetic_energy"]) + np.array(pu["strain_energy"])
n0u = int(math.ceil((t_release + 1.1 * dt_crit) / (1.1 * dt_crit)))
growth = Eu[-1] / Eu[min(n0u, len(Eu) - 1)]
figure("symplectic Euler: w_max = %.4e rad/s, limit dt = 2/w_max = %.4e s; at 0.9 x: invariant E - dt/2 v'Ku "
       "drift %.2e over %d steps, max/min E = %.3f; at 1.1 x: E grows x %.2e in %d steps"
       % (w_max, dt_crit, driftI, len(I) - n0, spread, growth, len(Eu) - 1 - n0u))
check(driftI < 1e-9, "symplectic Euler conserves E - dt/2 v'Ku to 1e-9 below its stability limit")
check(spread < (1 + 0.9) / (1 - 0.9), "symplectic Euler energy stays bounded below the limit (max/min < 19)")
check(growth > 1e6, "symplectic Euler diverges above the limit (control)")

# (d) prescribed displacement met exactly at t1 with a general theta method
dt = T / 40
d = outdir("theta/dirichlet")
tip = [{"group": "tip", "displacement": [1e-3, None, None], "ramp": {"type": "table", "table": [[0, 0], [0.002, 1], [0.003, 0.5]]}}]
run(["run", bar_case(d, "theta", dt, 120, theta=(0.7, 0.6), loads=[], boundary=tip), "-o", os.path.join(d, "run")])
p = probes(os.path.join(d, "run"))
want = np.interp(p["time"], [0, 0.002, 0.003], [0, 1e-3, 5e-4])
err = np.max(np.abs(np.array(p["tip_x"]) - want)) / 1e-3
figure("theta = 0.7, theta_vq = 0.6: prescribed tip displacement reproduced to %.1e relative" % err)
check(err < 1e-12, "prescribed displacement met at t1 through eq. 4 (1e-12)")

# (e) theta_vq = 0 rejected
d = outdir("theta/bad_theta_vq")
c = run(["run", bar_case(d, "theta", dt, 5, theta=(1.0, 0.0)), "-o", os.path.join(d, "run")], expect=2)
msg = c.stderr.strip()
figure("theta_vq = 0: %s" % msg)
check(len(msg.splitlines()) == 1 and "time.theta_vq" in msg, "theta_vq = 0 is one input-error line naming time.theta_vq")

# (f) contact with the midpoint rule
d = outdir("theta/block_midpoint")
run(["run", "cases/block_on_floor.json", "-o", d, "--set", "time.integrator=midpoint", "--set", "output.vtk=false",
     "--set", "output.hdf5=false"])
p, s = probes(d), stats(d)
W = 1000 * 9.81 * 1.0
fz = p["contact_z"][-1]
pen = -min(0.0, min(p["bottom_z"]))
figure("midpoint block on floor: contact force %.4f N vs weight %.1f N (relative %.2e), max penetration %.1e m, "
       "Newton iterations %d..%d" % (fz, W, abs(fz - W) / W, pen, min(s["newton_it"]), max(s["newton_it"])))
check(abs(fz - W) <= 1e-4 * W, "midpoint: contact force = weight (1e-4)")
check(pen <= 1e-8, "midpoint: the bottom face does not penetrate (1e-8 m)")
check(all(x == 1 for x in s["converged"]), "midpoint contact run: every step converged")
# the floor moving at 0.1 m/s drags the block by friction (mu = 0.5 > the 0.02 needed to carry the
# Rayleigh drag alpha m v = 2000 N): the block sticks and moves with the floor, the rigid body's
# motion entering the tangential velocity as (d1 - d0)/dt
d = outdir("theta/block_dragged")
run(["run", "cases/block_on_floor.json", "-o", d, "--set", "time.integrator=midpoint", "--set", "output.vtk=false",
     "--set", "output.hdf5=false", "--set", 'bodies[1].motion={"type": "kinematic", "displacement": [0.1, 0, 0], "ramp": "linear"}'])
p = probes(d)
tt, xx = np.array(p["time"]), np.array(p["bottom_x"])
vel = np.polyfit(tt[tt >= 0.5], xx[tt >= 0.5], 1)[0]
figure("midpoint, floor moving at 0.1 m/s: block velocity %.12f m/s (relative error %.1e), friction force %.3f N "
       "(alpha m v = 2000 N)" % (vel, abs(vel - 0.1) / 0.1, p["contact_x"][-1]))
check(abs(vel - 0.1) <= 1e-6 * 0.1, "midpoint: the block sticks to the moving floor (velocity 0.1 m/s, 1e-6)")
check(abs(p["contact_x"][-1] - 2000) <= 1e-3 * 2000, "midpoint: friction carries the Rayleigh drag alpha m v (1e-3)")

# (g) plane strain
d = outdir("theta/plane_strain")
Eb_, nub, pr = 1e6, 0.3, 1e3
for ps in (True, False):
    case = {
        "name": "plane_strain",
        "time": {"integrator": "quasi_static", "dt": 1, "steps": 1},
        "bodies": [{
            "name": "block",
            "mesh": {"file": os.path.join(ROOT, "meshes", "cube.geo"), "refine": 0, "order": 1},
            "material": {"model": "linear", "E": Eb_, "nu": nub, "density": 1000},
            "plane_strain": ps,
            "boundary": [{"group": "xmin", "fix": [True, False, False]}, {"group": "ymin", "fix": [False, True, False]},
                         {"group": "zmin", "displacement": [None, None, 0.0]}],
            "loads": [{"group": "xmax", "pressure": pr}],
        }],
        "probes": [
            {"name": "ux", "type": "displacement", "body": "block", "group": "xmax", "component": "x"},
            {"name": "uy", "type": "displacement", "body": "block", "group": "ymax", "component": "y"},
            {"name": "uz", "type": "displacement", "body": "block", "group": "zmax", "component": "z"},
            {"name": "rz", "type": "reaction", "body": "block", "group": "zmax", "component": "z"},
        ],
        "output": {"vtk": False, "hdf5": False},
    }
    sub = os.path.join(d, "on" if ps else "off")
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "case.json"), "w") as f:
        json.dump(case, f)
    run(["run", os.path.join(sub, "case.json"), "-o", os.path.join(sub, "run")])
    p = probes(os.path.join(sub, "run"))
    if ps:
        ux, uy = -pr * (1 - nub ** 2) / Eb_, pr * nub * (1 + nub) / Eb_
        e1, e2 = abs(p["ux"][-1] - ux) / abs(ux), abs(p["uy"][-1] - uy) / abs(uy)
        e3 = abs(p["rz"][-1] - (-nub * pr)) / (nub * pr)
        figure("plane strain: u_x %.6e (analytic %.6e, %.1e), u_y %.6e (%.6e, %.1e), u_z %.1e, "
               "reaction on z = 1: %.6f N = sigma_zz A (analytic -nu p = %.1f N, %.1e)"
               % (p["ux"][-1], ux, e1, p["uy"][-1], uy, e2, p["uz"][-1], p["rz"][-1], -nub * pr, e3))
        check(max(e1, e2, e3) < 1e-10 and p["uz"][-1] == 0.0, "plane strain: sigma_zz = nu (sigma_xx + sigma_yy) and its displacements (1e-10)")
    else:
        uz = nub * pr / Eb_  # plane stress in z: free z = 1 face expands by nu p / E
        figure("control without plane_strain: u_z(z=1) %.6e (nu p / E = %.6e), reaction %.1e N" % (p["uz"][-1], uz, p["rz"][-1]))
        check(abs(p["uz"][-1] - uz) < 1e-10 * uz and abs(p["rz"][-1]) < 1e-9 * pr, "without plane_strain the z = 1 face is free (control)")

# (h) corotational_lagged in backward Euler: one Newton iteration per step, close to linear
dt = T / 40
d = outdir("theta/lagged")
run(["run", bar_case(d, "backward_euler", dt, 80, material="corotational_lagged"), "-o", os.path.join(d, "lagged")])
run(["run", bar_case(d, "backward_euler", dt, 80), "-o", os.path.join(d, "linear")])
pl, s, pn = probes(os.path.join(d, "lagged")), stats(os.path.join(d, "lagged")), probes(os.path.join(d, "linear"))
diff = np.max(np.abs(np.array(pl["tip_x"]) - np.array(pn["tip_x"]))) / np.max(np.abs(pn["tip_x"]))
figure("corotational_lagged bar (backward Euler, %d steps): Newton iterations per step %d..%d; tip vs linear %.2e relative"
       % (len(s["newton_it"]), min(s["newton_it"]), max(s["newton_it"]), diff))
check(all(x == 1 for x in s["newton_it"]) and all(x == 1 for x in s["converged"]), "lagged: linear within a step, one Newton iteration")
check(diff < 1e-5, "lagged: small-strain motion follows the linear model to second order in the strain (1e-5)")
