#!/usr/bin/python3
"""Generate the masonry arch scene of issue 13 (after han2023 §VII-B): meshes and cases/masonry_arch.json.

Centre line: the weighted catenary y(x) = f_c - A (cosh(C x / L) - 1), x in [-L, L], with
f_c = 60, L = 30, Q_b = 100, Q_t = 49, A = f_c / (Q_b/Q_t - 1), C = acosh(Q_b/Q_t) (so y(+-L) = 0),
in units of 20/82 m. It is cut into N = 25 pieces of equal arc length; the joints are normal to the
centre line. Block k has thickness = depth = w(y) = sqrt(Q_b) + (y/f_c)(sqrt(Q_t) - sqrt(Q_b)),
taken at its joint nearer the base, and is one hexahedron cut in two along the centre surface
(s = 0), each half split into 6 tetrahedra (Kuhn's split along one diagonal): 12 nodes, 12
tetrahedra. The cut puts nodes on the centre line of every joint face: fcsim's contact points are
the deformable bodies' nodes (node-to-surface), and the supports' edges meet the end faces on that
line. The arch lies in the x-y plane (y up), depth along z. Each end face rests on the inner top
edge (a 90 degree edge along z) of a fixed rigid support block, placed EDGE = 1 mm inward of the
end of the centre line so that the end face's centre-line nodes rest on the support's top face
(an edge exactly under a node would leave its normal to a tie between the two faces); the end
faces are tilted, so the arch touches each support along that edge only.

Writes meshes/masonry_arch.msh (one physical volume per block, block_01..block_25),
meshes/masonry_support_left.msh, meshes/masonry_support_right.msh and cases/masonry_arch.json,
and prints the block sizes, total mass and span. Usage: scripts/make_masonry_arch.py [--mu MU]
[--out DIR] (DIR: the tree to write into, default: the repository).
"""
import argparse, json, math, os, sys
import numpy as np

F_C, L, Q_B, Q_T, N = 60.0, 30.0, 100.0, 49.0, 25
UNIT = 20.0 / 82.0                       # m per unit
A = F_C / (Q_B / Q_T - 1.0)
C = math.acosh(Q_B / Q_T)
RHO, E, NU, BETA = 2300.0, 20e9, 0.3, 0.01
# Kuhn's split of the hexahedron 0..3 (bottom, counter-clockwise) 4..7 (top) along the diagonal 0-6
KUHN = [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]


def y(x):
    return F_C - A * (np.cosh(C * x / L) - 1.0)


def dy(x):
    return -A * C / L * np.sinh(C * x / L)


def w(yv):
    return math.sqrt(Q_B) + yv / F_C * (math.sqrt(Q_T) - math.sqrt(Q_B))


def joints():
    """x of the N+1 joints: equal arc lengths of the centre line (arc length by composite
    Simpson on a fine grid, inverted by interpolation)."""
    xs = np.linspace(-L, L, 200001)
    f = np.sqrt(1.0 + dy(xs) ** 2)
    h = xs[1] - xs[0]
    s = np.concatenate([[0.0], np.cumsum(0.5 * h * (f[1:] + f[:-1]))])  # trapezoid, h = 3e-4
    return np.interp(np.linspace(0, s[-1], N + 1), s, xs), s[-1]


EDGE = 1e-3                               # m, support edge inward of the centre line's end
# Alarm distance of every pair: below the smallest step in half width between neighbouring blocks
# (17 mm at the crown), so that the corner nodes of the wider block of a joint, which lie beyond
# the narrower block's face in its plane, are not taken as contacts with an in-plane normal.
ALARM = 0.01


def tets(X, ids):
    """Positive tetrahedra of the hexahedron X (8 x 3) whose nodes are numbered ids (8)."""
    out = []
    for t in KUHN:
        a, b, c, d = (X[i] for i in t)
        if np.dot(np.cross(b - a, c - a), d - a) < 0:
            t = (t[0], t[2], t[1], t[3])
        out.append([ids[i] for i in t])
    return out


# A block's nodes: per joint end e (0, 1), across s (-1, 0, 1), depth side (-z, +z):
# node 6 e + 2 (s + 1) + (z > 0). Its two hexahedra (s from -1 to 0, and from 0 to 1), corners in
# the order of hexa() below.
def halves(s0):
    return [6 * 0 + 2 * s0, 6 * 1 + 2 * s0, 6 * 1 + 2 * (s0 + 1), 6 * 0 + 2 * (s0 + 1),
            6 * 0 + 2 * s0 + 1, 6 * 1 + 2 * s0 + 1, 6 * 1 + 2 * (s0 + 1) + 1, 6 * 0 + 2 * (s0 + 1) + 1]


def write_msh(path, blocks, names):
    """MSH 2.2 ASCII: blocks is a list of (nodes x 3 coordinates, hexahedra as 8 node indices),
    one physical volume (and elementary entity) each, every hexahedron in 6 tetrahedra."""
    nn = sum(len(X) for X, _ in blocks)
    ne = sum(6 * len(H) for _, H in blocks)
    with open(path, "w") as f:
        f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n%d\n" % len(blocks))
        for k, n in enumerate(names):
            f.write('3 %d "%s"\n' % (k + 1, n))
        f.write("$EndPhysicalNames\n$Nodes\n%d\n" % nn)
        base = 0
        for X, _ in blocks:
            for i in range(len(X)):
                f.write("%d %.17g %.17g %.17g\n" % (base + i + 1, *X[i]))
            base += len(X)
        f.write("$EndNodes\n$Elements\n%d\n" % ne)
        e = base = 0
        for k, (X, H) in enumerate(blocks):
            for h in H:
                for t in tets(X[h], [base + i + 1 for i in h]):
                    e += 1
                    f.write("%d 4 2 %d %d %d %d %d %d\n" % (e, k + 1, k + 1, *t))
            base += len(X)
        f.write("$EndElements\n")


def block(p0, p1, n0, n1, w, z):
    """A block between joint points p0, p1 (x, y) with joint directions n0, n1 (unit, normal to
    the centre line), thickness w across, half depth z along z: 12 nodes (see halves) and its two
    hexahedra."""
    X = np.zeros((12, 3))
    for e, (p, n) in enumerate([(p0, n0), (p1, n1)]):
        for s in (-1, 0, 1):
            for side, zz in enumerate((-z, z)):
                i = 6 * e + 2 * (s + 1) + side
                X[i, :2] = p + s * 0.5 * w * n
                X[i, 2] = zz
    return X, [halves(0), halves(1)]


def box(lo, hi):
    """An axis-aligned box as one hexahedron."""
    X = np.array([[lo[0], lo[1], lo[2]], [hi[0], lo[1], lo[2]], [hi[0], hi[1], lo[2]], [lo[0], hi[1], lo[2]],
                  [lo[0], lo[1], hi[2]], [hi[0], lo[1], hi[2]], [hi[0], hi[1], hi[2]], [lo[0], hi[1], hi[2]]])
    return X, [list(range(8))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mu", type=float, default=1.0)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = ap.parse_args()
    xj, S = joints()
    P = np.stack([xj, y(xj)], 1)
    T = np.stack([np.ones_like(xj), dy(xj)], 1)
    T /= np.linalg.norm(T, axis=1)[:, None]
    Nn = np.stack([-T[:, 1], T[:, 0]], 1)                  # joint direction, normal to the centre line
    blocks, names, mass, sizes = [], [], 0.0, []
    for k in range(N):
        wk = w(min(P[k, 1], P[k + 1, 1]))                  # at the joint nearer the base
        X, H = block(P[k], P[k + 1], Nn[k], Nn[k + 1], wk, 0.5 * wk)
        X = X * UNIT
        vol = sum(abs(np.dot(np.cross(X[h[t[1]]] - X[h[t[0]]], X[h[t[2]]] - X[h[t[0]]]), X[h[t[3]]] - X[h[t[0]]])) / 6 for h in H for t in KUHN)
        blocks.append((X, H))
        names.append("block_%02d" % (k + 1))
        mass += RHO * vol
        sizes.append((names[-1], wk * UNIT, np.linalg.norm(P[k + 1] - P[k]) * UNIT, RHO * vol))
    # supports: boxes below y = 0 on the outer side of each end, inner top edge along z EDGE
    # inward of the end point of the centre line (a 90 degree edge); deeper than the end blocks
    HS, D, Z = 12.0 * UNIT, 12.0 * UNIT, 0.75 * w(0.0) * UNIT
    sup = {}
    for side, sgn in (("left", -1), ("right", 1)):
        xe = sgn * (L * UNIT - EDGE)
        xo = xe + sgn * D
        sup[side] = box((min(xe, xo), -HS, -Z), (max(xe, xo), 0.0, Z))
    os.makedirs(os.path.join(a.out, "meshes"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "cases"), exist_ok=True)
    write_msh(os.path.join(a.out, "meshes", "masonry_arch.msh"), blocks, names)
    for side in sup:
        write_msh(os.path.join(a.out, "meshes", "masonry_support_%s.msh" % side), [sup[side]], ["support"])
    dw = min(abs(w(min(P[k, 1], P[k + 1, 1])) - w(min(P[k + 1, 1], P[k + 2, 1]))) for k in range(N - 1)) * UNIT / 2
    assert dw > ALARM, "alarm %g above the smallest half-width step %g" % (ALARM, dw)
    case = {
        "name": "masonry_arch",
        "description": "Masonry arch of issue 13 / han2023 SVII-B, generated by scripts/make_masonry_arch.py: 25 blocks on a "
                       "weighted catenary (f_c = 60, L = 30, Q_b = 100, Q_t = 49; 20/82 m per unit), equal arc lengths, "
                       "joints normal to the centre line, thickness = depth = w(y), each block one hexahedron in 6 tetrahedra; "
                       "E = 20 GPa, nu = 0.3, rho = 2300, Rayleigh beta = 0.01 s; the end faces rest on the inner top edges "
                       "of two fixed rigid supports. mu = %g." % a.mu,
        "time": {"integrator": "backward_euler", "dt": 0.04, "t_end": 600.0,
                 "newton": {"max_it": 25, "rtol": 1e-8, "atol": 1e-9}},
        "gravity": [0, -9.81, 0],
        "bodies": [
            {"mesh": {"file": "../meshes/masonry_arch.msh", "volumes": "block_*"},
             "material": {"model": "linear", "E": E, "nu": NU, "density": RHO},
             "damping": {"alpha": 0, "beta": BETA}},
            {"name": "support_left", "type": "rigid", "shape": {"type": "mesh", "file": "../meshes/masonry_support_left.msh"}},
            {"name": "support_right", "type": "rigid", "shape": {"type": "mesh", "file": "../meshes/masonry_support_right.msh"}},
        ],
        "contacts": [
            {"bodies": ["block_*"], "mu": a.mu, "both_passes": True, "alarm": ALARM},
            {"pair": ["block_01", "support_left"], "mu": a.mu, "alarm": ALARM},
            {"pair": ["block_25", "support_right"], "mu": a.mu, "alarm": ALARM},
        ],
        # newton (the exact Coulomb cone, semismooth Newton; issue 25 item 7): the rate of sap with
        # no regularized creep (doc/validation.md "Masonry arch"). tol 1e-10: at 1e-8 nsgs's
        # inexact solves kept ~1 J of kinetic energy in the arch and the keystone wandered by
        # +-30 um (of a 0.11 mm sag); at 1e-10 it is steady to 0.3 um. max_it 20000 is the budget
        # of nsgs (2500 sweeps per step standing, 14000 collapsing) when a study selects it; newton
        # takes 1 step per time step standing, 11 collapsing.
        "contact_solver": {"type": "newton", "tol": 1e-10, "max_it": 20000},
        "probes": [
            {"name": "keystone", "type": "displacement", "body": "block_13", "point": [0.0, float(F_C * UNIT), 0.0]},
            {"name": "kinetic", "type": "kinetic_energy"},
        ],
        # issue 13 item 3: stands (after 5 s the keystone's drop < 1 % of the rise and the kinetic
        # energy < 1e-6 m g H) or collapses (drop > 10 % of the rise); after a collapse the blocks
        # fall freely and decide nothing, so the run stops there (doc/case-format.md "verdict")
        "verdict": {"drop": "keystone_y", "energy": "kinetic", "rise": float(F_C * UNIT), "after": 5.0,
                    "stand_drop": 0.01, "stand_energy": 1e-6, "collapse_drop": 0.1, "stop_on_collapse": True},
        "output": {"dir": "results/masonry_arch", "every": 25},
        # sap's regularization (doc/sap.md section 3) for stiff deformable blocks, measured on
        # the keystone's drop (2 s runs at mu = 1, doc/validation.md "Masonry arch"): Drake's
        # near-rigid defaults (beta = 1, sigma = 1e-3) make the joints soft and creeping against
        # the blocks' own compliance (W is elastic here, not a rigid body's mass): the arch sags
        # 0.77 m in 0.4 s and Newton fails in the first steps. beta = 0.1 leaves 15-30 um of
        # penetration per joint (drop 0.27 mm against nsgs's 0.11 mm); beta = 0.01 (R_n =
        # 2.5e-6 w_a) agrees with nsgs to 1.5 %. sigma (slip at stiction sigma w_a |r_t| per step)
        # makes the crown creep: 1 um/s at 1e-6, 0.1 um/s at 1e-7, none at 1e-8 (but 2x slower).
        # sap_sparse_factor: W is block-sparse here (148 contacts, each coupled to those of its two
        # blocks), but below 200 contacts sap factors a dense copy (444^3/3 flops per Newton
        # iteration, 95 % of a step); the sparse Cholesky of the same S is 16x faster on the
        # arch (10 steps: 18.9 s against 1.17 s of contact solve, the same drop to 3e-9 m).
        # Read by sap only; nsgs ignores them.
        # newton_nonmonotone 10: the Armijo test against the largest theta of the last 10 iterates
        # (newton.c). Monotone, the first step (r = 0 against the arch's weight) took 800 Newton
        # steps of alpha down to 1e-4 and the collapse at mu = 0.2 53 per time step; nonmonotone
        # 71 and 11.4 (doc/validation.md). Not newton's default: on the generated walls and
        # pyramids (bench/newton_hard.py) it takes 391 steps in all against 214.
        "petsc": {"fc_contact_solver_sap_beta": 0.01, "fc_contact_solver_sap_sigma": 1e-7, "fc_contact_solver_sap_sparse_factor": True,
                  "fc_contact_solver_newton_nonmonotone": 10},
    }
    with open(os.path.join(a.out, "cases", "masonry_arch.json"), "w") as f:
        json.dump(case, f, indent=2)
        f.write("\n")
    print("arc length %.6g m, span %.6g m, rise %.6g m (centre line)" % (S * UNIT, 2 * L * UNIT, F_C * UNIT))
    print("block        w [m]   chord [m]   mass [kg]")
    for n, wk, ch, m in sizes:
        print("%-10s %7.4f %10.4f %11.1f" % (n, wk, ch, m))
    print("total mass %.6g kg, %d blocks" % (mass, N))
    # neighbouring blocks touch: the joint-face nodes of each block lie in the plane of its
    # neighbour's joint face (both through the joint point, normal to the centre line's tangent)
    gap = 0.0
    for k in range(N - 1):
        Xa, Xb = blocks[k][0], blocks[k + 1][0]
        t = np.array([T[k + 1, 0], T[k + 1, 1], 0.0])
        for i in range(6):
            gap = max(gap, abs(np.dot(Xa[6 + i] - Xb[i], t)), abs(np.dot(Xb[i] - Xa[6], t)))
    print("largest joint gap %.3g m" % gap)


if __name__ == "__main__":
    sys.exit(main())
