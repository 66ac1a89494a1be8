#!/usr/bin/python3
"""Set-up cost of many bodies (issues 13 and 29): walls of about N blocks (one body per physical
volume of one generated .msh, every pair among them in contact with both passes, a rigid floor),
timed through `fcsim info` (case load, meshes, contact pairs and their t = 0 checks, no time step).
Reports the CPU time (user + system) and the peak memory of each run, and the log-log slope of
the CPU time against the number of blocks. Usage: bench/setup_scaling.py [--sizes 500,1000,2000,5000]
[--bin bin/fcsim]; bench/setup_scaling.py --write N PREFIX writes PREFIX.msh and PREFIX.json (a
wall of about N blocks, for `fcsim run`). A wall of N blocks has rows = round(sqrt(N / 2)) courses
of ceil(N / rows) blocks. Each block is one hexahedron in 6 tetrahedra, stack bond with half-block
offsets on odd rows (the blocks touch along faces and edges, none overlap)."""
import argparse, json, math, os, resource, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEX = [(0, 1, 3, 7), (0, 1, 5, 7), (0, 2, 3, 7), (0, 2, 6, 7), (0, 4, 5, 7), (0, 4, 6, 7)]


def wall_shape(blocks):
    """(courses, blocks per course) of a wall of at least `blocks` blocks, about twice as long as high."""
    rows = max(1, int(round(math.sqrt(blocks / 2.0))))
    return rows, -(-blocks // rows)


def write_wall(n, path, cols=None, joint=0.0, inset=0.0):
    """n courses of cols (default n) blocks 1 x 0.5 x 0.5 m as path.msh (MSH 2.2, one physical
    volume per block) and path.json. By default the blocks of a course touch and the odd courses,
    offset by half a block, overhang the wall's end by half a block: each block's corner nodes lie
    on its neighbours' edges (the set-up measurements). A wall for time steps (wall_steps.py) needs
    each contact node inside the face it touches, or its normal is a tie between two faces: joint
    [m] opens the head joints (blocks of a course apart), inset [m] makes the odd courses that much
    shallower on each side (z), and with either the odd courses have one block fewer (no overhang)."""
    L, H, D = 1.0, 0.5, 0.5
    nodes, els, names = [], [], []
    for j in range(n):
        odd = j % 2
        ncol = (n if cols is None else cols) - (1 if odd and (joint or inset) else 0)
        for i in range(ncol):
            b = len(names) + 1
            names.append((b, "block_%04d" % b))
            x0, y0, base = i * (L + joint) + (0.5 * (L + joint) if odd else 0.0), j * H, len(nodes)
            z0, dz = (inset, D - 2 * inset) if odd else (0.0, D)
            for c in range(8):
                nodes.append((x0 + L * (c & 1), y0 + H * ((c >> 1) & 1), z0 + dz * ((c >> 2) & 1)))
            for t in HEX:
                p = [nodes[base + k] for k in t]
                a, bb, cc = ([p[m][d] - p[0][d] for d in range(3)] for m in (1, 2, 3))
                det = a[0] * (bb[1] * cc[2] - bb[2] * cc[1]) - a[1] * (bb[0] * cc[2] - bb[2] * cc[0]) + a[2] * (bb[0] * cc[1] - bb[1] * cc[0])
                tt = list(t) if det > 0 else [t[0], t[2], t[1], t[3]]
                els.append((b, [base + k + 1 for k in tt]))
    with open(path + ".msh", "w") as f:
        f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n%d\n" % len(names))
        f.writelines('3 %d "%s"\n' % bn for bn in names)
        f.write("$EndPhysicalNames\n$Nodes\n%d\n" % len(nodes))
        f.writelines("%d %.17g %.17g %.17g\n" % (k + 1, *p) for k, p in enumerate(nodes))
        f.write("$EndNodes\n$Elements\n%d\n" % len(els))
        f.writelines("%d 4 2 %d %d %s\n" % (k + 1, b, b, " ".join(map(str, t))) for k, (b, t) in enumerate(els))
        f.write("$EndElements\n")
    case = {"name": "wall_%d" % n, "time": {"integrator": "backward_euler", "dt": 0.04, "t_end": 0.04},
            "gravity": [0, -9.81, 0],
            "bodies": [{"mesh": {"file": os.path.basename(path) + ".msh", "volumes": "block_*"},
                        "material": {"model": "linear", "E": 2e10, "nu": 0.3, "density": 2300}},
                       {"name": "floor", "type": "rigid", "shape": {"type": "plane", "point": [0, 0, 0], "normal": [0, 1, 0]}}],
            "contacts": [{"bodies": ["block_*"], "mu": 0.8, "both_passes": True, "alarm": 0.01},
                         {"pair": ["block_*", "floor"], "mu": 0.8, "alarm": 0.01}]}
    with open(path + ".json", "w") as f:
        json.dump(case, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="500,1000,2000,5000", help="numbers of blocks")
    ap.add_argument("--write", nargs=2, metavar=("N", "PREFIX"), help="only write a wall of about N blocks as PREFIX.msh, PREFIX.json")
    ap.add_argument("--bin", default=os.environ.get("FCSIM_BIN", os.path.join(ROOT, "bin", "fcsim")))
    a = ap.parse_args()
    if a.write:
        r, cl = wall_shape(int(a.write[0]))
        write_wall(r, a.write[1], cl)
        print("%s.json: %d blocks (%d courses of %d)" % (a.write[1], r * cl, r, cl))
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(s) for s in a.sizes.split(",")]:
            path = os.path.join(tmp, "wall_%d" % n)
            r, cl = wall_shape(n)
            write_wall(r, path, cl)
            n = r * cl
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run([a.bin, "info", path + ".json"], capture_output=True, text=True)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode:
                sys.exit("fcsim info %s.json failed: %s" % (path, p.stderr.strip()))
            cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            # ru_maxrss of the children is the largest child so far (KiB): the sizes grow, so it is this run's
            rows.append((n, n * (n - 1) // 2, cpu, r1.ru_maxrss / 1024.0))
    print("| blocks | pairs of the group | CPU [s] | peak memory [MB] |\n|---|---|---|---|")
    for b, np_, cpu, mb in rows:
        print("| %d | %d | %.2f | %.0f |" % (b, np_, cpu, mb))
    if len(rows) > 1:
        (b0, _, c0, _), (b1, _, c1, _) = rows[-2], rows[-1]
        print("FIGURE set-up of many bodies: %d blocks %.2f s CPU, %.0f MB; log-log slope of CPU against blocks (last two sizes) %.2f"
              % (rows[-1][0], rows[-1][2], rows[-1][3], math.log(c1 / c0) / math.log(b1 / b0)))


if __name__ == "__main__":
    main()
