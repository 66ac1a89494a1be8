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

Runtime: about 60 s on an idle machine."""
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
