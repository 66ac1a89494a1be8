"""The log-driven tool (issue 16 items 2 and 4; doc/rigid.md §2d, src/model/body_rigid.c): a rigid
body driven by a recorded device log, kinematically (motion "trajectory") or through a 6-DoF
virtual coupling (a free dynamic motion with "coupling"), and cases/haptic_probe.json.

1. Kinematic replay: the SYNTHETIC OpenHaptics sample log (millimetres) through a transform
   (rotation 90 deg about z, translation, scale 1.5) drives a sphere. At every step (dt = 0.01 s,
   the log's own sample times) the tool pose recorded in probes.csv (the tool point `offset` and
   the body's rotation) equals the log's fcsim-format twin (metres) transformed by hand here,
   p_w = s R p + t, q_w = q_R q: to 1e-12 m and 1e-12.
2. The coupling (free tool, no contact, no gravity; m = 0.05 kg, K = 1000 N/m, so
   omega = sqrt(K/m) = 141 rad/s, and the default critical damping B = 2 sqrt(K m)):
   a. released with a velocity v0 (and an angular velocity w0) while the device holds still,
      the continuous response v0 t exp(-omega t) never crosses zero: critically damped. Backward
      Euler keeps that (its map has the double real eigenvalue 1/(1 + omega dt)): no overshoot
      beyond the round-off of a double root (sqrt(eps): 1e-7 of the peak), asserted (and a half-critical damping, run as a control, does overshoot);
      the response follows the continuous one to first order in omega dt (bound measured).
   b. the device jumps by d = 10 mm within one step: the damper on the device's velocity
      (F = K (p_dev - x) + B (v_dev - v), the issue's law) drives the tool with
      x(t) = d (1 - (1 - omega t) exp(-omega t)) (the step response of (2 omega s + omega^2) /
      (s + omega)^2), whose peak overshoot is exp(-2) d = 13.5 %: that is the coupling's, not
      the integrator's; the tool follows an RK4 solution of the continuous system for the
      log's piecewise-linear jump to a first-order bound.
   c. a stiff coupling (K = 1e7 N/m, omega dt = 14, far beyond an explicit spring's limit
      omega dt = 2) stays bounded by the first step's motion and decays: implicit, no step limit.
3. cases/haptic_probe.json, shortened to 1.2 s (press, hold, start of the slide):
   determinism (two runs give bit-identical probes.csv, device columns included, and contact
   forces in run.h5).
4. Static check: the same block and tool, the device pressing 4 mm and holding still. At rest
   the coupling force on the tool, the contact force on it and its weight balance (Newton's third
   law on the tool): |F_coupling - F_contact,block + m g| is bounded by the tool's remaining
   momentum change m |Delta v| / dt (the dynamic residual at rest, measured from the tool's
   positions) plus the Newton tolerance's share.

5. The haptic loop on the coupled tool (doc/haptic.md §3b, §4b; the case's "haptic" key):
   a. free flight at a tick rate equal to the FEM rate (1 ms): a tick from the step's state is the
      next step, rendered force to round-off;
   b. a frictionless press and hold (Newton to 1e-12): every step replayed by one tick of h = dt
      from the tool's previous state reproduces the step's contact force and tool velocity to
      round-off (run.h5:/haptic replay_* attributes), and no interval generates energy;
   c. the static check of issue 16 on the hold run of section 4: the force rendered at the
      haptic rate converges to the simulation-rate contact force plus the weight (1 % asserted;
      1.5e-16 measured at rest);
   d. the bound against the FEM stepped at the haptic rate (dt = 1 ms) over the press; section 3
      also asserts that two runs write bit-identical haptic.csv.

Runtime: about 2 min on an idle machine (the 1 ms reference of 5d: 400 steps)."""
import csv
import filecmp
import json
import math
import os
import numpy as np
from fctest import ROOT, OUT, run, outdir, probes, figure, check

tmp = os.path.join(OUT, "haptic_probe")
os.makedirs(tmp, exist_ok=True)
TRAJ = os.path.join(ROOT, "cases", "trajectories")


def write(name, case):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(case, f, indent=1)
    return path


def write_log(name, rows, header="t,px,py,pz"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("# units: m\n# device: synthetic (test_haptic_probe.py)\n%s\n" % header)
        for r in rows:
            f.write(",".join("%.17g" % v for v in r) + "\n")
    return path


def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def qmat(q):
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def vec(p, prefix, names):
    return np.stack([np.array(p[prefix + n]) for n in names], axis=1)


# ---- 1. kinematic replay ---------------------------------------------------------------------
ang, tr, sc = math.pi / 2, np.array([0.1, -0.2, 0.05]), 1.5
qR = np.array([math.cos(ang / 2), 0, 0, math.sin(ang / 2)])
kin = {
    "name": "haptic_kinematic",
    "time": {"integrator": "backward_euler", "dt": 0.01, "t_end": 3.0},
    "bodies": [{"name": "tool", "type": "rigid",
                "shape": {"type": "sphere", "center": [0.0, 0.0, 0.0], "radius": 0.005},
                "motion": {"type": "trajectory", "file": os.path.join(TRAJ, "stylus_press_slide_openhaptics.csv"),
                           "format": "openhaptics", "offset": [0.0, 0.0, -0.005],
                           "transform": {"rotation": {"axis": [0, 0, 1], "angle": ang},
                                         "translation": list(tr), "scale": sc}}}],
    "probes": [],
    "output": {"vtk": False},
}
d = outdir("haptic_probe/kinematic")
run(["run", write("kinematic", kin), "-o", d])
p = probes(d)
with open(os.path.join(TRAJ, "stylus_press_slide.csv")) as f:
    lines = [ln for ln in f if not ln.startswith("#")]
ref = {h: np.array([float(ln.split(",")[i]) for ln in lines[1:]]) for i, h in enumerate(lines[0].strip().split(","))}
check(len(ref["t"]) == len(p["time"]) and np.abs(ref["t"] - np.array(p["time"])).max() < 1e-12,
      "kinematic replay: one step per log sample (dt = 0.01 s = the log's step)")
pw = sc * (qmat(qR) @ np.stack([ref["px"], ref["py"], ref["pz"]])).T + tr
qw = np.array([qmul(qR, q) for q in np.stack([ref["qw"], ref["qx"], ref["qy"], ref["qz"]], axis=1)])
tp = vec(p, "tool_tool_", ["px", "py", "pz"])
tq = vec(p, "tool_tool_", ["qw", "qx", "qy", "qz"])
dq = vec(p, "tool_dev_", ["qw", "qx", "qy", "qz"])
ep = np.abs(tp - pw).max()
eq = np.abs(tq - qw).max()
edq = np.abs(dq - qw).max()
figure("kinematic replay (OpenHaptics log in mm, rotation 90 deg about z, scale 1.5, translation): max |tool point - s R p_log + t| = %.1e m, max |q_tool - q_R q_log| = %.1e, device quaternion %.1e, over %d steps" % (ep, eq, edq, len(tp)))
check(ep <= 1e-12, "kinematic replay: the tool point is the transformed log position at every step (1e-12 m)")
check(eq <= 1e-12 and edq <= 1e-12, "kinematic replay: the tool's orientation is the transformed log orientation at every step (1e-12)")
check(np.abs(vec(p, "tool_dev_", ["fx", "fy", "fz", "tx", "ty", "tz"])).max() == 0, "kinematic replay: no coupling, zero rendered force")

# ---- 2. the coupling ---------------------------------------------------------------------------
m, K, J = 0.05, 1000.0, 5e-7
omega = math.sqrt(K / m)
dt, T = 0.001, 0.2


def free_tool(name, log, extra=None, motion_extra=None):
    coupling = {"file": log, "format": "fcsim", "stiffness": K}
    coupling.update(extra or {})
    motion = {"type": "dynamic", "mass": m, "inertia": [J, J, J], "joint": {"type": "free"}, "coupling": coupling}
    motion.update(motion_extra or {})
    case = {"name": name, "time": {"integrator": "backward_euler", "dt": dt, "t_end": T},
            "bodies": [{"name": "tool", "type": "rigid", "shape": {"type": "sphere", "center": [0, 0, 0], "radius": 0.005},
                        "motion": motion}],
            "probes": [], "output": {"vtk": False}}
    dd = outdir("haptic_probe/" + name)
    run(["run", write(name, case), "-o", dd])
    return probes(dd)


still = write_log("still.csv", [[0, 0, 0, 0, 1, 0, 0, 0], [1, 0, 0, 0, 1, 0, 0, 0]], "t,px,py,pz,qw,qx,qy,qz")
v0, w0 = 0.1, 2.0
p = free_tool("kick", still, motion_extra={"initial_velocity": [v0, 0, 0], "initial_angular_velocity": [0, 0, w0]})
t = np.array(p["time"])
x = np.array(p["tool_tool_px"])
th = 2 * np.arctan2(np.array(p["tool_tool_qz"]), np.array(p["tool_tool_qw"]))
xc = v0 * t * np.exp(-omega * t)
thc = w0 * t * np.exp(-omega * t)  # K_r = K J / m, B_r = 2 sqrt(K_r J): the same omega
under, under_r = -x.min() / xc.max(), -th.min() / thc.max()
ex, er = np.abs(x - xc).max() / xc.max(), np.abs(th - thc).max() / thc.max()
pc = free_tool("kick_half", still, extra={"damping": math.sqrt(K * m)}, motion_extra={"initial_velocity": [v0, 0, 0]})
under_half = -np.array(pc["tool_tool_px"]).min() / xc.max()
figure("coupling, released with v0 = %g m/s and w0 = %g rad/s (omega = %.1f rad/s, omega dt = %.3f, backward Euler): overshoot below zero %.1e (translation), %.1e (rotation) of the peak; max |x - v0 t exp(-omega t)| = %.3f of the peak (rotation %.3f); control with half the critical damping: overshoot %.3f" % (v0, w0, omega, omega * dt, under, under_r, ex, er, under_half))
# The critically damped map has a double eigenvalue; round-off (in B = 2 sqrt(K m) and in every
# step) splits a double root by O(sqrt(eps)) = 1.5e-8, into a complex pair whose oscillation can
# dip below zero by that relative amount: the bound is 1e-7 of the peak (measured 1.8e-9).
check(under <= 1e-7 and under_r <= 1e-7, "coupling: the default damping is critical, the released tool returns without crossing (no overshoot beyond the round-off of a double root, 1e-7)")
check(under_half > 0.05, "coupling: the control (half the critical damping) does overshoot, so the check above can fail")
check(ex <= 1.5 * omega * dt and er <= 1.5 * omega * dt, "coupling: the response follows the continuous one to first order (<= 1.5 omega dt of the peak)")

# a stiff coupling: K = 1e7 N/m, omega dt = 14 (an explicit spring would blow up beyond
# omega dt = 2): the implicit coupling stays bounded by the first step's motion and decays
ps = free_tool("kick_stiff", still, extra={"stiffness": 1e7}, motion_extra={"initial_velocity": [v0, 0, 0]})
xs = np.abs(np.array(ps["tool_tool_px"]))
ws = math.sqrt(1e7 / m)
figure("stiff coupling (K = 1e7 N/m, omega dt = %.1f): max |x| = %.2e m (v0 dt = %.1e m), |x| at t = %g s: %.1e m" % (ws * dt, xs.max(), v0 * dt, T, xs[-1]))
check(xs.max() <= v0 * dt and xs[-1] <= 1e-6 * xs.max(), "stiff coupling: no blow-up at omega dt = 14 (implicit), the kick decays")

dj = 0.01
jump = write_log("jump.csv", [[0, 0, 0, 0], [dt, dj, 0, 0], [1, dj, 0, 0]])
p = free_tool("jump", jump)
t = np.array(p["time"])
x = np.array(p["tool_tool_px"])


def pin(s):
    return dj * min(s / dt, 1.0), (dj / dt if s < dt else 0.0)


def rhs(s, y):
    pd, vd = pin(s)
    return np.array([y[1], omega ** 2 * (pd - y[0]) + 2 * omega * (vd - y[1])])


h, y, s, xr = dt / 200, np.zeros(2), 0.0, [0.0]
for n in range(1, len(t)):
    for _ in range(200):
        k1 = rhs(s, y)
        k2 = rhs(s + h / 2, y + h / 2 * k1)
        k3 = rhs(s + h / 2, y + h / 2 * k2)
        k4 = rhs(s + h, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        s += h
    xr.append(y[0])
xr = np.array(xr)
ej = np.abs(x - xr).max() / dj
over, over_ref = x.max() / dj - 1, xr.max() / dj - 1
figure("coupling, device jump d = %g m within one step: peak overshoot %.4f d (continuous system: %.4f d; an ideal step: exp(-2) = %.4f), max |x - x_continuous| = %.4f d (omega dt = %.3f)" % (dj, over, over_ref, math.exp(-2), ej, omega * dt))
check(ej <= omega * dt, "coupling, jump: the tool follows the continuous coupled system to first order (<= omega dt of d)")
check(over <= over_ref + omega * dt and over_ref <= math.exp(-2) + 1e-3, "coupling, jump: the overshoot is the continuous coupling's (the damper on v_dev; <= exp(-2) d), not the integrator's")

# ---- 3. determinism on cases/haptic_probe.json ---------------------------------------------
probe = os.path.join(ROOT, "cases", "haptic_probe.json")
runs = []
for k in range(2):
    dd = outdir("haptic_probe/probe_%d" % k)
    run(["run", probe, "--set", "time.t_end=1.2", "--set", "output.vtk=false", "-o", dd])
    runs.append(dd)
same_csv = filecmp.cmp(os.path.join(runs[0], "probes.csv"), os.path.join(runs[1], "probes.csv"), shallow=False)
same_hap = filecmp.cmp(os.path.join(runs[0], "haptic.csv"), os.path.join(runs[1], "haptic.csv"), shallow=False)
import h5py
ndiff, nsteps = 0, 0
with h5py.File(os.path.join(runs[0], "run.h5"), "r") as a, h5py.File(os.path.join(runs[1], "run.h5"), "r") as b:
    for k in a["contacts"]:
        nsteps += 1
        fa, fb = a["contacts"][k]["force"][()], b["contacts"][k]["force"][()]
        if fa.shape != fb.shape or not np.array_equal(fa, fb):
            ndiff += 1
pp = probes(runs[0])
fz = np.array(pp["tool_dev_fz"])
figure("haptic_probe (to t = 1.2 s), two runs: probes.csv (device record included) identical: %s; contact forces in run.h5 differing in %d of %d output steps; rendered force at t = 1.2 s: (%.4f, %.4f, %.4f) N, peak |f_z| %.3f N" % (same_csv, ndiff, nsteps, pp["tool_dev_fx"][-1], pp["tool_dev_fy"][-1], fz[-1], np.abs(fz).max()))
check(same_csv and ndiff == 0 and nsteps > 0, "determinism: two replays give bit-identical probes.csv and contact forces")
nt = sum(1 for _ in open(os.path.join(runs[0], "haptic.csv"))) - 1
figure("haptic_probe (to t = 1.2 s), the haptic loop on the coupled tool: two runs' haptic.csv (%d ticks) identical: %s" % (nt, same_hap))
check(same_hap and nt == 119 * 10, "determinism: two replays give bit-identical haptic.csv (the loop on the coupled tool)")

# ---- 4. static check: pressed and held still -------------------------------------------------
rows = []
for i in range(0, 151):
    s = i * 0.01
    z = 0.0051 - 0.004 * min(s / 0.3, 1.0) ** 2 * (3 - 2 * min(s / 0.3, 1.0))
    rows.append([s, -0.0, 0.0, z, 1, 0, 0, 0])
hold = write_log("press_hold.csv", rows, "t,px,py,pz,qw,qx,qy,qz")
with open(probe) as f:
    case = json.load(f)
case["name"] = "haptic_hold"
case["time"]["t_end"] = 1.5
case["bodies"][0]["mesh"]["file"] = os.path.join(ROOT, "meshes", "probe_block.geo")
cp = case["bodies"][1]["motion"]["coupling"]
cp.update({"file": hold, "format": "fcsim"})
cp.pop("transform")
case["output"] = {"vtk": False}
dd = outdir("haptic_probe/hold")
run(["run", write("hold", case), "-o", dd])
outdir_hold = dd
p = probes(dd)
mt = case["bodies"][1]["motion"]["mass"]
g = np.array(case["gravity"])
fdev = vec(p, "tool_dev_", ["fx", "fy", "fz"])       # minus the coupling force on the tool
fcon = vec(p, "contact_", ["x", "y", "z"])           # contact force on the block (the tool gets minus it)
xt = vec(p, "tool_tool_", ["px", "py", "pz"])
dtc = case["time"]["dt"]
res = -fdev - fcon + mt * g                          # coupling + contact on the tool + weight
acc = mt * np.abs(xt[2:] - 2 * xt[1:-1] + xt[:-2]).max(axis=1) / dtc ** 2  # m |Delta v| / dt
r_end, a_end = np.linalg.norm(res[-1]), acc[-1]
figure("static check (device pressed 4 mm and held, t = %.1f s): coupling force on the tool (%.5f, %.5f, %.5f) N, contact force on the tool (%.5f, %.5f, %.5f) N, weight %.4f N; |coupling + contact + weight| = %.2e N = %.1e of the contact force; tool's m |dv|/dt at rest %.1e N" % (p["time"][-1], *(-fdev[-1]), *(-fcon[-1]), mt * 9.81, r_end, r_end / np.linalg.norm(fcon[-1]), a_end))
check(np.linalg.norm(fcon[-1]) > 0.5, "static check: the tool presses the block (contact force > 0.5 N)")
check(r_end <= 2 * a_end + 1e-6 * np.linalg.norm(fcon[-1]), "static check: at rest coupling force + contact force + weight = 0 on the tool, within its remaining momentum change (the dynamic residual)")
check(r_end <= 1e-3 * np.linalg.norm(fcon[-1]), "static check: the coupling force equals the contact force (less the weight) to 0.1 %")

# ---- 5. the haptic loop on the coupled tool (doc/haptic.md §3b) ------------------------------
# The loop integrates the tool at h = 1/rate between two steps, from the step's state, with the
# coupling toward the device at t_k and the contact implicit for it (W_tick = W_step
# − G A_dt⁻¹ Gᵀ + (h/dt)² G A_h⁻¹ Gᵀ); the device renders minus the coupling force.


def haptic_csv(d):
    with open(os.path.join(d, "haptic.csv")) as f:
        r = list(csv.reader(f))
    return {k: np.array([float(x[i]) for x in r[1:]]) for i, k in enumerate(r[0])}


def h5attrs(d):
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        return {k: float(np.array(v).ravel()[0]) for k, v in f["haptic"].attrs.items() if k not in ("columns", "solver")}


# a. free flight at a tick rate equal to the FEM rate (dt = 1 ms, 1 kHz): a tick from the step's
#    state at t_n is the next step's integration of the same tool (the same backward Euler, the
#    same coupling and device velocities): the rendered force at t_{n+1} is the step's to round-off.
rows = []
for i in range(0, 121):
    s = i * 0.001
    a = 0.3 * math.sin(20 * s)
    rows.append([s, 0.01 * math.sin(15 * s), 0.004 * s, 0.02 + 0.005 * math.cos(25 * s), math.cos(a / 2), 0, math.sin(a / 2), 0])
flight = write_log("flight.csv", rows, "t,px,py,pz,qw,qx,qy,qz")
with open(probe) as f:
    case = json.load(f)
case["name"] = "haptic_flight"
case["time"].update({"dt": 0.001, "t_end": 0.1})
case["bodies"][0]["mesh"]["file"] = os.path.join(ROOT, "meshes", "probe_block.geo")
cp = case["bodies"][1]["motion"]["coupling"]
cp.update({"file": flight, "format": "fcsim"})
cp.pop("transform")
case["haptic"] = {"rate": 1000}
case["output"] = {"vtk": False}
dd = outdir("haptic_probe/flight")
run(["run", write("flight", case), "-o", dd])
hf, pf = haptic_csv(dd), probes(dd)
idx = np.rint(hf["time"] / 0.001).astype(int)
ren = np.stack([hf[k] for k in ("fx", "fy", "fz", "tx", "ty", "tz")], 1)
stp = vec(pf, "tool_dev_", ["fx", "fy", "fz", "tx", "ty", "tz"])[idx]
ef = np.abs(ren[:, :3] - stp[:, :3]).max() / np.abs(stp[:, :3]).max()
et = np.abs(ren[:, 3:] - stp[:, 3:]).max() / np.abs(stp[:, 3:]).max()
figure("coupled tool in free flight, 1 kHz ticks on 1 ms steps (%d ticks, no contact): max |F_tick - F_step| = %.1e of max |F| (%.3f N), torque %.1e of max |tau|" % (len(idx), ef, np.abs(stp[:, :3]).max(), et))
check(hf["contacts"].max() == 0 and len(idx) == 99, "free flight: no contact, one tick per step")
# The translation is linear: one Newton iteration in the step and in the tick, round-off apart.
# The rotation is not: the step stops at its Newton tolerance, the tick iterates to 1e-15 (measured
# 2.8e-13 of the torque; asserted 1e-10).
check(ef <= 1e-12 and et <= 1e-10, "free flight: a tick of h = dt from the step's state reproduces the next step's coupling force to round-off (1e-12) and its torque to the rotation's Newton convergence (1e-10)")

# b. frictionless press and hold with the loop, Newton to 1e-12: the replay check (one tick of
#    h = dt from the tool's state at t_{n-1} on step n's own problem reproduces the step's tool
#    velocity and contact force) and the passivity check (no interval generates energy)
with open(probe) as f:
    case = json.load(f)
case["name"] = "haptic_hold_frictionless"
case["time"].update({"t_end": 0.6, "newton": {"max_it": 60, "rtol": 1e-12}})
case["bodies"][0]["mesh"]["file"] = os.path.join(ROOT, "meshes", "probe_block.geo")
cp = case["bodies"][1]["motion"]["coupling"]
cp.update({"file": hold, "format": "fcsim"})
cp.pop("transform")
case["contacts"][0]["mu"] = 0.0
case["output"] = {"vtk": False}
dd = outdir("haptic_probe/hold_frictionless")
run(["run", write("hold_frictionless", case), "-o", dd])
at = h5attrs(dd)
figure("coupled tool, frictionless press and hold (Newton rtol 1e-12): %d steps replayed by one tick of dt: max |dv| = %.1e m/s, |dw| = %.1e rad/s, |dF| = %.1e N of %.3f N; passivity: %d of %d intervals generate energy"
       % (at["replay_steps"], at["replay_max_dv"], at["replay_max_dw"], at["replay_max_df"], at["replay_max_force"], at["generating_intervals"], at["intervals"]))
check(at["coupled_tool"] == 1 and at["replay_steps"] >= 50, "replay check: run on every step with contacts")
check(at["replay_max_df"] <= 1e-12 * at["replay_max_force"] and at["replay_max_dv"] <= 1e-12, "replay check: a tick of h = dt reproduces the step's contact force and tool velocity to round-off (frictionless, Newton converged to 1e-12)")
check(at["generating_intervals"] == 0, "passivity: a frictionless press and hold generates no energy in any interval")

# c. the static check on the hold run of section 4 (mu = 0.3, the case's tolerances): the device
#    holds still from t = 0.3 s; the force the device renders at the haptic rate converges to the
#    simulation-rate contact force on the tool plus its weight
hh = haptic_csv(outdir_hold)
ren = np.stack([hh["fx"], hh["fy"], hh["fz"]], 1)
fsim = -fcon + mt * g                                 # contact force on the tool + weight, per step
n_of = np.floor(hh["time"] / dtc - 1e-6).astype(int)  # tick in (t_n, t_{n+1}]: the step n's state
rel = np.linalg.norm(ren - fsim[n_of + 1], axis=1) / np.linalg.norm(fsim[n_of + 1], axis=1)
end = hh["step"] == hh["step"].max()
press_end = (hh["time"] > 0.3) & (hh["time"] <= 0.31 + 1e-9)
figure("static check with the haptic loop (device pressed 4 mm and held, mu = 0.3): |F_rendered - (F_contact + m g)| / |F_contact + m g|: %.1e in the first interval of the hold (t = 0.3 s), %.1e in the last (t = %.2f s)" % (rel[press_end].max(), rel[end].max(), hh["time"][-1]))
check(rel[end].max() <= 0.01, "static check: the haptic-rate rendered force converges to the simulation-rate contact force (plus weight) within 1 %")
check(rel[end].max() <= 1e-3 and rel[end].max() < rel[press_end].max(), "static check: at rest the coupling force equals the contact force plus the weight (0.1 %), closer than at the end of the press")

# d. against a reference that steps the FEM at the haptic rate (dt = 1 ms; its loop has one tick
#    per step and changes nothing of the FEM) on the probe case, over the press (t <= 0.4 s): the
#    force the loop renders at each tick (from the 100 Hz run of section 3) against the reference's
#    rendered force at the same time. Measured: max 6.6 % of the largest force (0.095 N at
#    t = 0.011 s: the tool's first fall under gravity, where the 100 Hz step the loop starts from
#    is itself off: backward Euler at omega dt = 1.4), RMS 0.67 %; holding the 100 Hz step's force
#    instead: max 9.8 %, RMS 3.0 %. Asserted with a margin of 1.5 on each.
T_REF = 0.4
dref = outdir("haptic_probe/reference")
run(["run", probe, "--set", "time.t_end=%g" % T_REF, "--set", "time.dt=0.001", "--set", "output.every=1000", "--set", "output.vtk=false", "-o", dref])
pr, hl, pl = probes(dref), haptic_csv(runs[0]), probes(runs[0])
fr = vec(pr, "tool_dev_", ["fx", "fy", "fz"])
tr = np.array(pr["time"])
ok = hl["time"] <= T_REF + 1e-9
ir = np.rint(hl["time"][ok] / 0.001).astype(int)
fl = np.stack([hl["fx"], hl["fy"], hl["fz"]], 1)[ok]
fmax = np.linalg.norm(fr, axis=1).max()
dl = np.linalg.norm(fl - fr[ir], axis=1)
nstep = np.floor(hl["time"][ok] / 0.01 - 1e-6).astype(int)       # the step the tick's interval starts from
dh = np.linalg.norm(vec(pl, "tool_dev_", ["fx", "fy", "fz"])[nstep] - fr[ir], axis=1)
lmax, lrms, hmax, hrms = dl.max() / fmax, math.sqrt((dl ** 2).mean()) / fmax, dh.max() / fmax, math.sqrt((dh ** 2).mean()) / fmax
figure("coupled tool, loop at 1 kHz on 100 Hz steps against the FEM at 1 kHz (probe case, t <= %g s, %d ticks): rendered force max %.2f %% (%.4f N at t = %.3f s), RMS %.2f %% of %.3f N; the 100 Hz step force held: max %.2f %%, RMS %.2f %%"
       % (T_REF, int(ok.sum()), 100 * lmax, dl.max(), hl["time"][ok][np.argmax(dl)], 100 * lrms, fmax, 100 * hmax, 100 * hrms))
check(len(tr) == int(round(T_REF / 0.001)) + 1 and ok.sum() == 390, "reference: one FEM step per tick time")
check(lmax <= 0.10 and lrms <= 0.01, "the frozen-W loop's rendered force stays within 10 % (max) and 1 % (RMS) of the 1 kHz FEM's over the press")
check(lrms <= 0.5 * hrms, "the loop renders the 1 kHz force more closely than holding the 100 Hz step's force (RMS)")
