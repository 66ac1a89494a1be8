"""Multi-volume test meshes of axis-aligned blocks (MSH 4.1 ASCII), one physical volume per block.

write_blocks(path, boxes, names, empty=()) writes every box (lo, hi) as one hexahedron split into 6
tetrahedra (Kuhn's split along the diagonal lo-hi), in its own volume entity with the physical
volume `names[k]`, and the physical surfaces "xmin" and "xmax" (the faces x = lo_x and x = hi_x of
every block, 2 triangles each). Every name of `empty` is a physical volume of an entity with no
element (a multi-volume mesh with an empty volume). Used by tests/integration/test_arch_blocks.py
and tests/bad/case/make_blocks.py.
"""

KUHN = [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]


def _corners(lo, hi):
    return [(lo[0], lo[1], lo[2]), (hi[0], lo[1], lo[2]), (hi[0], hi[1], lo[2]), (lo[0], hi[1], lo[2]),
            (lo[0], lo[1], hi[2]), (hi[0], lo[1], hi[2]), (hi[0], hi[1], hi[2]), (lo[0], hi[1], hi[2])]


def _vol(a, b, c, d):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    w = [d[i] - a[i] for i in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6


def write_blocks(path, boxes, names, empty=()):
    nb = len(boxes)
    nv = nb + len(empty)
    # physical tags: volumes 1..nv, surfaces xmin = 1, xmax = 2
    out = ["$MeshFormat", "4.1 0 8", "$EndMeshFormat", "$PhysicalNames", str(nv + 2)]
    out += ['3 %d "%s"' % (k + 1, n) for k, n in enumerate(list(names) + list(empty))]
    out += ['2 1 "xmin"', '2 2 "xmax"', "$EndPhysicalNames", "$Entities", "0 0 %d %d" % (2 * nb, nv)]
    for k, (lo, hi) in enumerate(boxes):  # surface entities 2k+1 (xmin), 2k+2 (xmax)
        out.append("%d %r %r %r %r %r %r 1 1 0" % (2 * k + 1, lo[0], lo[1], lo[2], lo[0], hi[1], hi[2]))
        out.append("%d %r %r %r %r %r %r 1 2 0" % (2 * k + 2, hi[0], lo[1], lo[2], hi[0], hi[1], hi[2]))
    for k in range(nv):
        lo, hi = boxes[k] if k < nb else ((0, 0, 0), (0, 0, 0))
        out.append("%d %r %r %r %r %r %r 1 %d 0" % (k + 1, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], k + 1))
    out += ["$EndEntities", "$Nodes", "%d %d 1 %d" % (nb, 8 * nb, 8 * nb)]
    for k, (lo, hi) in enumerate(boxes):
        out.append("3 %d 0 8" % (k + 1))
        out += [str(8 * k + i + 1) for i in range(8)]
        out += ["%r %r %r" % c for c in _corners(lo, hi)]
    out.append("$EndNodes")
    blocks, e = [], 0
    for k, (lo, hi) in enumerate(boxes):
        X = _corners(lo, hi)
        n = lambda i: 8 * k + i + 1
        for s, face in ((2 * k + 1, (0, 3, 7, 4)), (2 * k + 2, (1, 2, 6, 5))):
            a, b, c, d = face
            blocks.append(["2 %d 2 2" % s, "%d %d %d %d" % (e + 1, n(a), n(b), n(c)), "%d %d %d %d" % (e + 2, n(a), n(c), n(d))])
            e += 2
        tets = []
        for t in KUHN:
            if _vol(*(X[i] for i in t)) < 0:
                t = (t[0], t[2], t[1], t[3])
            e += 1
            tets.append("%d %d %d %d %d" % (e, *(n(i) for i in t)))
        blocks.append(["3 %d 4 6" % (k + 1)] + tets)
    out += ["$Elements", "%d %d 1 %d" % (len(blocks), e, e)]
    for b in blocks:
        out += b
    out.append("$EndElements")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
