"""Cantilever tip deflection against Timoshenko beam theory, with mesh refinement.

Beam 1 x 0.1 x 0.1 m, E = 1e9 Pa, nu = 0 (so the clamped face adds no Poisson restraint),
tip shear force P = 100 N. Timoshenko: delta = P L^3 / (3 E I) + P L / (kappa G A), kappa = 5/6.
The remaining difference between the 3D elasticity solution and beam theory (end effects at
the clamp and at the loaded face, O((h/L)^2) of the shear term) is a few 1e-4, well inside 1 %.

Norm: the relative error of the tip deflection, a compliance-like functional. Expected order
in the element size h: it converges like the energy error squared, O(h^2) for tet4 and O(h^4)
for tet10 on smooth solutions; the clamped edges are singular lines, which can lower the rate.
The observed order is taken from three successive meshes (self-convergence,
p = log2(|d1 - d0| / |d2 - d1|), independent of the beam-theory reference)."""
import math
import h5py
from fctest import run, outdir, probes, figure, check

E, nu, L, h, P = 1e9, 0.0, 1.0, 0.1, 100.0
I = h ** 4 / 12
A = h * h
G = E / (2 * (1 + nu))
kappa = 5.0 / 6.0
delta = P * L ** 3 / (3 * E * I) + P * L / (kappa * G * A)
figure("cantilever Timoshenko tip deflection %.6e m" % delta)


def tip(order, level):
    d = outdir("cantilever/o%d_r%d" % (order, level))
    run(["run", "cases/cantilever.json", "-o", d, "--set", "bodies[0].mesh.order=%d" % order,
         "--set", "bodies[0].mesh.refine=%d" % level, "--set", "output.vtk=false"])
    p = probes(d)
    return d, -p["tip_z"][-1], p


results = {}
for order, levels in ((2, (0, 1, 2)), (1, (0, 1, 2))):
    for lev in levels:
        d, w, p = tip(order, lev)
        with h5py.File(d + "/run.h5", "r") as f:
            ndof = 3 * f["bodies/beam/mesh/X"].shape[0]
        err = abs(w - delta) / delta
        results[(order, lev)] = w
        figure("cantilever tet%d refine %d: %d DoFs, tip deflection %.6e m, error vs Timoshenko %.3f %%" % (4 if order == 1 else 10, lev, ndof, w, 100 * err))
        # Global equilibrium: the support reaction balances the applied load at every step.
        for k in range(1, len(p["step"])):
            applied = -P * p["time"][k] / p["time"][-1]
            check(abs(p["support_z"][k] + applied) <= 1e-8 * P, "tet%d r%d step %d: reaction %.10g N balances the load" % (4 if order == 1 else 10, lev, k, p["support_z"][k]))
        # Linearity: the quasi-static ramp gives a deflection proportional to the load.
        check(abs(-p["tip_z"][2] - 0.5 * w) <= 1e-9 * w, "linear response at half load")

for order in (2, 1):
    d0, d1, d2 = (results[(order, l)] for l in (0, 1, 2))
    rate = math.log2(abs(d1 - d0) / abs(d2 - d1))
    name = "tet10" if order == 2 else "tet4"
    figure("cantilever %s observed order of the tip deflection (levels 0,1,2): %.2f" % (name, rate))
    results[("rate", order)] = rate

err10 = abs(results[(2, 2)] - delta) / delta
check(err10 < 0.01, "tet10 finest mesh within 1 %% of Timoshenko (%.3f %%)" % (100 * err10))
# tet4 locks in bending: its error must fall monotonically with refinement.
check(results[(1, 0)] < results[(1, 1)] < results[(1, 2)] < delta * 1.001, "tet4 deflection increases towards the reference")
# Asserted orders. tet4: theory 2 asymptotically, but with 2 to 8 elements across the section the
# beam is still in the shear-locking, pre-asymptotic range (measured 1.36 on levels 0-2), so the
# test asserts convergence faster than first order. tet10: theory 4 for smooth solutions
# (compliance error = energy error squared), reduced by the clamped edges; measured 4.5.
check(results[("rate", 1)] > 1.0, "tet4 observed order > 1 (pre-asymptotic)")
check(results[("rate", 2)] > 3.0, "tet10 observed order > 3")
