#!/usr/bin/python3
"""Write the mirror-symmetric tetrahedral mesh of the table of issue 14 (MSH 2.2 ASCII).

    /usr/bin/python3 scripts/table_mesh.py [--braces] [--na N] [--h H] [--hz HZ] -o FILE.msh

The table (fcsim's parametrisation; duriez2006 gives no dimensions): top 0.40 x 0.30 x 0.03 m
on four legs 0.03 x 0.03 x 0.30 m centred at (+-0.17, +-0.12); the floor is z = 0, the legs span
0 <= z <= 0.30, the top 0.30 <= z <= 0.33. With --braces four braces of section 0.03 (the leg
width) x 0.02 m at 0.06 <= z <= 0.08 join each pair of neighbouring legs (table_reinforced.msh).

Why a generated mesh and not a Gmsh .geo: the per-leg check of issue 14 (each leg carries a
quarter of the load, to 1e-3) holds only on a mesh with the table's two mirror symmetries, and
Gmsh's unstructured mesher does not make one (its table.geo mesh gave legs 2.6e-3 apart). Here
the body is a union of cells of a tensor grid whose lines are symmetric about x = 0 and y = 0,
each cell split into the 6 tetrahedra around one of its diagonals (Kuhn's split), the diagonal
mirrored with the cell's quadrant: the split is conforming (a face x = const is cut along the
same diagonal from both sides, since mirroring x leaves its (y, z) diagonal unchanged) and the
mesh maps onto itself under x -> -x and y -> -y.

Physical groups: surfaces "foot1" (leg at -x,-y), "foot2" (+x,-y), "foot3" (+x,+y), "foot4"
(-x,+y) (the bottom faces of the legs), "load" (the 0.05 x 0.05 m patch at the centre of the top
face), "top" (the rest of the top face), "push" (the top's end face x = -0.20); volume "table".
--na: cells across a leg (the feet have (na+1)^2 nodes each: scripts/table_cpu.py refines them);
--h: cell size in x, y elsewhere; --hz: cell size along the legs.
"""
import argparse
import itertools
import math
import sys

LX, LY, T = 0.40, 0.30, 0.03
A, H = 0.03, 0.30
XL, YL = 0.17, 0.12
P = 0.05
ZB0, ZB1 = 0.06, 0.08


def axis_lines(half, leg_c, na, h, extra):
    """Grid lines on [0, half] (mirrored to [-half, 0]): the leg's faces leg_c +- A/2 cut into na
    cells, the other intervals into cells of at most h."""
    brk = sorted(set([0.0, half, leg_c - A / 2, leg_c + A / 2] + extra))
    pos = [0.0]
    for lo, hi in zip(brk[:-1], brk[1:]):
        n = na if abs(lo - (leg_c - A / 2)) < 1e-12 else max(1, math.ceil((hi - lo) / h - 1e-9))
        pos += [lo + (hi - lo) * (i + 1) / n for i in range(n)]
    pos = sorted(set(round(p, 12) for p in pos))
    return sorted(set([-p for p in pos] + pos))


def inside(x, y, z, braces):
    """Is the point (a cell centre) in the table?"""
    if H <= z <= H + T and abs(x) <= LX / 2 and abs(y) <= LY / 2:
        return True
    if 0 <= z <= H and abs(abs(x) - XL) <= A / 2 and abs(abs(y) - YL) <= A / 2:
        return True
    if braces and ZB0 <= z <= ZB1:
        if abs(abs(y) - YL) <= A / 2 and abs(x) <= XL:   # along x
            return True
        if abs(abs(x) - XL) <= A / 2 and abs(y) <= YL:   # along y
            return True
    return False


def build(braces, na, h, hz):
    xs = axis_lines(LX / 2, XL, na, h, [P / 2])
    ys = axis_lines(LY / 2, YL, na, h, [P / 2])
    zlist = [ZB0, ZB1, H]
    zs = [0.0]
    for lo, hi in zip([0.0] + zlist, zlist + [H + T]):
        n = max(1, math.ceil((hi - lo) / (hz if hi <= H else T / 2) - 1e-9))
        zs += [lo + (hi - lo) * (i + 1) / n for i in range(n)]
    nodes = {}
    coords = []

    def node(i, j, k):
        key = (i, j, k)
        if key not in nodes:
            nodes[key] = len(coords) + 1
            coords.append((xs[i], ys[j], zs[k]))
        return nodes[key]

    tets = []
    for i, j, k in itertools.product(range(len(xs) - 1), range(len(ys) - 1), range(len(zs) - 1)):
        cx, cy, cz = (xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2, (zs[k] + zs[k + 1]) / 2
        if not inside(cx, cy, cz, braces):
            continue
        fx, fy = int(cx < 0), int(cy < 0)

        def corner(b):
            return node(i + (b[0] ^ fx), j + (b[1] ^ fy), k + b[2])
        for perm in itertools.permutations(range(3)):
            b = [0, 0, 0]
            path = [corner(b)]
            for ax in perm:
                b[ax] = 1
                path.append(corner(tuple(b)))
            tets.append(path)
    # orient every tetrahedron positively
    for t in tets:
        p = [coords[v - 1] for v in t]
        d = [[p[m][c] - p[0][c] for c in range(3)] for m in (1, 2, 3)]
        vol = (d[0][0] * (d[1][1] * d[2][2] - d[1][2] * d[2][1])
               - d[0][1] * (d[1][0] * d[2][2] - d[1][2] * d[2][0])
               + d[0][2] * (d[1][0] * d[2][1] - d[1][1] * d[2][0]))
        if vol < 0:
            t[1], t[2] = t[2], t[1]
    # boundary triangles: faces of exactly one tetrahedron, outward (opposite the fourth vertex)
    count = {}
    for t in tets:
        for f in ((t[0], t[2], t[1]), (t[0], t[1], t[3]), (t[1], t[2], t[3]), (t[0], t[3], t[2])):
            key = tuple(sorted(f))
            count.setdefault(key, []).append(f)
    groups = {name: [] for name in ("foot1", "foot2", "foot3", "foot4", "load", "top", "push")}
    e = 1e-9
    for faces in count.values():
        if len(faces) != 1:
            continue
        f = faces[0]
        c = [sum(coords[v - 1][m] for v in f) / 3 for m in range(3)]
        if abs(c[2]) < e:
            sx, sy = c[0] > 0, c[1] > 0
            groups["foot" + str({(False, False): 1, (True, False): 2, (True, True): 3, (False, True): 4}[(sx, sy)])].append(f)
        elif abs(c[2] - (H + T)) < e:
            groups["load" if abs(c[0]) < P / 2 and abs(c[1]) < P / 2 else "top"].append(f)
        elif abs(c[0] + LX / 2) < e and c[2] > H - e:
            groups["push"].append(f)
    return coords, tets, groups


def write(path, coords, tets, groups):
    names = list(groups)
    with open(path, "w") as out:
        out.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n%d\n" % (len(names) + 1))
        for tag, name in enumerate(names, 1):
            out.write('2 %d "%s"\n' % (tag, name))
        out.write('3 %d "table"\n$EndPhysicalNames\n' % (len(names) + 1))
        out.write("$Nodes\n%d\n" % len(coords))
        for n, (x, y, z) in enumerate(coords, 1):
            out.write("%d %.17g %.17g %.17g\n" % (n, x, y, z))
        out.write("$EndNodes\n$Elements\n%d\n" % (sum(len(g) for g in groups.values()) + len(tets)))
        eid = 1
        for tag, name in enumerate(names, 1):
            for f in groups[name]:
                out.write("%d 2 2 %d %d %d %d %d\n" % (eid, tag, tag, *f))
                eid += 1
        for t in tets:
            out.write("%d 4 2 %d 1 %d %d %d %d\n" % (eid, len(names) + 1, *t))
            eid += 1
        out.write("$EndElements\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--braces", action="store_true", help="the reinforced table")
    ap.add_argument("--na", type=int, default=2, help="cells across a leg (default 2)")
    ap.add_argument("--h", type=float, default=0.025, help="cell size in x, y (default 0.025 m)")
    ap.add_argument("--hz", type=float, default=0.03, help="cell size along the legs (default 0.03 m)")
    ap.add_argument("-o", required=True, help="output .msh")
    a = ap.parse_args()
    if a.na < 1 or not (a.h > 0) or not (a.hz > 0):
        sys.exit("table_mesh.py: --na must be >= 1 and --h, --hz > 0")
    coords, tets, groups = build(a.braces, a.na, a.h, a.hz)
    write(a.o, coords, tets, groups)
    print("%s: %d nodes, %d tetrahedra, %d nodes per foot" % (
        a.o, len(coords), len(tets), len({v for f in groups["foot1"] for v in f})))


if __name__ == "__main__":
    main()
