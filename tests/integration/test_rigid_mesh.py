"""Rigid "mesh" shapes (src/model/body_rigid.c, src/step/contact_step.c, doc/rigid.md): a rigid
target whose surface is the boundary of a tetrahedral Gmsh mesh, translated by the body's motion.

Every case runs twice, once with an analytic shape and once with meshes/slab.geo, a slab
[-1, 2] x [-1, 2] x [-0.2, 0] whose top face z = 0 is the contact surface. A flat triangulated
face is the plane exactly: for a contactor node above its interior the closest point, the signed
distance and the normal are those of the plane up to round-off (the edge and vertex normals of a
flat face are its face normal), and the frame's t1 follows the same rule (doc/collide.md). So the
two runs solve the same contact problems, and their probes must agree to the contact solver's
tolerance (tol 1e-13 here): asserted to 1e-8 relative to each probe's largest value, a margin of
1e5 for the Newton iterations amplifying the solver's error. Assertions:

a) block_on_floor (cases/block_on_floor.json: 1 m cube, 1000 kg/m^3, mu 0.5, backward Euler)
   with the analytic floor replaced by the slab ("group": "top"): total normal force = weight
   9810 N to 1e-6 (as the analytic run, test_contact_cases.py), every probe as the plane run (1e-8).
b) Hertz (cases/hertz.json, level 0, quasi-static, mu 0): the quarter sphere on the slab's top
   face (selected by the pair's target_surface this time) gives the analytic plane's force and
   support reaction at every load step (1e-8).
c) Kinematic press: the cube clamped on its top face, the slab moving by (0.01, 0, 0.02) m with a
   linear ramp (quasi-static, 4 steps, mu 0.3: compression plus a lateral drag that makes
   friction work); twin: the analytic box centre (0.5, 0.5, -0.1), half extents (1.5, 1.5, 0.1),
   same motion. Contact force (3 components) at every step: 1e-8. This checks that the mesh is
   detected at X + d(t1) and that its tangential velocity (d1 - d0)/dt enters q.
d) Dynamic prismatic slab (mass 100 kg, axis z, upward force 981 N, gravity off) pressing the
   clamped cube from below (backward Euler, damped block, nu = 0); twin: the analytic plane z = 0
   on the same joint. Slab displacement and contact force at every step: 1e-8; at rest the
   contact force is the applied force (1e-6) and the compression F L/(E A) (1e-6; nu = 0 and a
   clamped top make the stress uniaxial, exact on the linear mesh).

Runtime: about 10 s."""
import json
import os
import numpy as np
from fctest import ROOT, OUT, run, outdir, probes, stats, figure, check

tmp = os.path.join(OUT, "rigid_mesh")
os.makedirs(tmp, exist_ok=True)
CUBE = os.path.join(ROOT, "meshes", "cube.geo")
SLAB = os.path.join(ROOT, "meshes", "slab.geo")
HERTZ = os.path.join(ROOT, "meshes", "hertz_quarter.geo")
MESH_FLOOR = {"type": "mesh", "file": SLAB, "group": "top"}
QUIET = {"vtk": False, "hdf5": False}


def write(name, case):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(case, f, indent=1)
    return path


def pair_runs(name, case, mesh_shape, body=1, mesh_contact=None):
    """Run case (analytic shape) and its twin with bodies[body].shape = mesh_shape; probes of both."""
    twin = json.loads(json.dumps(case))
    twin["bodies"][body]["shape"] = mesh_shape
    if mesh_contact:
        twin["contacts"][0].update(mesh_contact)
    out = []
    for tag, c in (("analytic", case), ("mesh", twin)):
        d = outdir("rigid_mesh/%s_%s" % (name, tag))
        run(["run", write("%s_%s" % (name, tag), c), "-o", d])
        s = stats(d)
        check(all(v == 1 for v in s["converged"]) and all(v == 1 for v in s["contact_converged"]), "%s (%s): every step and contact solve converged" % (name, tag))
        out.append(probes(d))
    return out


def compare(name, pa, pm, cols, tol=1e-8):
    worst = 0.0
    for c in cols:
        a, m = np.array(pa[c]), np.array(pm[c])
        # the three columns of a vector probe share one scale, max |P_x|, |P_y|, |P_z| (as study
        # compare does): a component that is zero up to round-off is not compared with itself
        group = [c[:-1] + k for k in "xyz"] if c[-2:] in ("_x", "_y", "_z") and all(c[:-1] + k in pa for k in "xyz") else [c]
        scale = max(max(np.abs(np.array(pa[g])).max() for g in group), 1e-300)
        worst = max(worst, float(np.abs(a - m).max() / scale))
    figure("%s: rigid mesh vs analytic shape, max |probe difference| / max |probe| (vector probes: their largest component) = %.2e over %s (%d steps)" % (name, worst, ",".join(cols), len(pa["step"])))
    check(worst <= tol, "%s: mesh and analytic runs agree (%g)" % (name, tol))


# ---- a) block on a mesh floor ---------------------------------------------------------------
with open(os.path.join(ROOT, "cases", "block_on_floor.json")) as f:
    bof = json.load(f)
bof["bodies"][0]["mesh"]["file"] = CUBE
bof["contact_solver"] = {"tol": 1e-13}
bof["output"] = QUIET
pa, pm = pair_runs("block_on_floor", bof, MESH_FLOOR)
W = 1000 * 9.81
fz = pm["contact_z"][-1]
figure("block on a rigid mesh floor: normal force %.9f N vs weight %.1f N (relative %.2e), %d active contacts" % (fz, W, abs(fz - W) / W, pm["active"][-1]))
check(abs(fz - W) <= 1e-6 * W, "normal force = weight (1e-6)")
compare("block_on_floor", pa, pm, ["contact_x", "contact_y", "contact_z", "active", "bottom_x", "bottom_y", "bottom_z"])

# ---- b) Hertz on a mesh plane ---------------------------------------------------------------
with open(os.path.join(ROOT, "cases", "hertz.json")) as f:
    hz = json.load(f)
hz["bodies"][0]["mesh"]["file"] = HERTZ
hz["contact_solver"] = {"tol": 1e-13}
hz["output"] = QUIET
pa, pm = pair_runs("hertz", hz, {"type": "mesh", "file": SLAB}, mesh_contact={"target_surface": "top"})
figure("hertz on a rigid mesh plane: force on the quarter %.9f N (analytic plane %.9f N), %d active contacts" % (pm["contact_z"][-1], pa["contact_z"][-1], pm["active"][-1]))
check(pm["active"][-1] > 3, "the sphere touches the mesh plane on a patch (%d active nodes)" % pm["active"][-1])
compare("hertz", pa, pm, ["contact_z", "support_z", "active"])

# ---- c) kinematic press ---------------------------------------------------------------------
motion = {"type": "kinematic", "displacement": [0.01, 0, 0.02], "ramp": "linear"}
kin = {
    "name": "rigid_mesh_kinematic",
    "time": {"integrator": "quasi_static", "dt": 0.25, "t_end": 1.0},
    "bodies": [
        {"name": "block", "mesh": {"file": CUBE, "refine": 0, "order": 1},
         "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000},
         "boundary": [{"group": "zmax", "fix": [True, True, True]}]},
        {"name": "press", "type": "rigid",
         "shape": {"type": "box", "center": [0.5, 0.5, -0.1], "half_extents": [1.5, 1.5, 0.1]},
         "motion": motion},
    ],
    "contacts": [{"pair": ["block", "press"], "surface": "zmin", "mu": 0.3, "alarm": 0.05}],
    "contact_solver": {"tol": 1e-13},
    "probes": [{"name": "contact", "type": "contact_force", "pair": 0},
               {"name": "active", "type": "active_contacts", "pair": 0},
               {"name": "support", "type": "reaction", "body": "block", "group": "zmax"}],
    "output": QUIET,
}
pa, pm = pair_runs("kinematic", kin, MESH_FLOOR)
figure("kinematic rigid mesh press: contact force (%.6f, %.6f, %.6f) N at the end (analytic box (%.6f, %.6f, %.6f) N)"
       % (pm["contact_x"][-1], pm["contact_y"][-1], pm["contact_z"][-1], pa["contact_x"][-1], pa["contact_y"][-1], pa["contact_z"][-1]))
check(pm["contact_z"][-1] > 1e3 and abs(pm["contact_x"][-1]) > 10, "the press compresses the block and drags it sideways")
compare("kinematic", pa, pm, ["contact_x", "contact_y", "contact_z", "active", "support_x", "support_y", "support_z"])

# ---- d) dynamic prismatic slab --------------------------------------------------------------
F, E, L = 981.0, 1e6, 1.0
dyn = {
    "name": "rigid_mesh_dynamic",
    "time": {"integrator": "backward_euler", "dt": 0.01, "t_end": 1.0},
    "gravity": [0, 0, 0],
    "bodies": [
        {"name": "block", "mesh": {"file": CUBE, "refine": 0, "order": 1},
         "material": {"model": "linear", "E": E, "nu": 0.0, "density": 100},
         "damping": {"alpha": 20, "beta": 0.002},
         "boundary": [{"group": "zmax", "fix": [True, True, True]}]},
        {"name": "slab", "type": "rigid",
         "shape": {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1]},
         "motion": {"type": "dynamic", "mass": 100.0, "joint": {"type": "prismatic", "axis": [0, 0, 1]}, "force": [0, 0, F]}},
    ],
    "contacts": [{"pair": ["block", "slab"], "surface": "zmin", "mu": 0.3, "alarm": 0.05}],
    "contact_solver": {"tol": 1e-13},
    "probes": [{"name": "contact", "type": "contact_force", "pair": 0},
               {"name": "slab", "type": "displacement", "body": "slab", "component": "z"}],
    "output": QUIET,
}
pa, pm = pair_runs("dynamic", dyn, MESH_FLOOR)
fz, zs = pm["contact_z"][-1], pm["slab"][-1]  # the force on the block: the slab gets -fz
figure("dynamic prismatic rigid mesh: contact force on the block %.9f N vs applied %.1f N (relative %.2e); slab displacement %.9e m vs F L/(E A) = %.9e m (relative %.2e)"
       % (fz, F, abs(fz - F) / F, zs, F * L / (E * L * L), abs(zs - F * L / (E * L * L)) / (F * L / (E * L * L))))
check(abs(fz - F) <= 1e-6 * F, "at rest the contact force balances the applied force (1e-6)")
check(abs(zs - F * L / (E * L * L)) <= 1e-6 * F * L / (E * L * L), "compression F L/(E A) (1e-6)")
compare("dynamic", pa, pm, ["contact_x", "contact_y", "contact_z", "slab"])
