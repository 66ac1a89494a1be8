"""Many bodies (issue 13 items 1-2): one body per physical volume (bodies[i].mesh.volumes), contacts
over a group of bodies (contacts[i].bodies, patterns), and the generated masonry arch.

a) Four blocks of one multi-volume mesh (tests/integration/blocks_msh.py) along x: unit cubes 1
   and 3, and 1 m long bars 2 and 4 of 0.5 m x 0.5 m section centred on their faces; 1-2 and 3-4
   touching, 2-3 0.5 m apart (a bar's corners lie inside its neighbour's face, not on its corners,
   where the closest-point normal of node-to-surface contact is a tie between three faces);
   quasi-static, blocks 1 and 3 held at their x-min faces, bars 2 and 4 pushed 1 mm towards them
   at their x-max faces; E = 1e7 Pa, alarm 0.1 m, both passes. With "bodies": ["block_*"] the
   contacts found (within the alarm distance) and the active ones are exactly those of the pairs
   (1, 2) and (3, 4); each pair's contact force equals the reaction at its pushed face (equilibrium
   of the pushed bar, 1e-9 relative) and is within 50 % of the force of a bar pressed by 1 mm,
   E A u / L = 2500 N (the 6-tetrahedron blocks, Poisson's ratio and the cube's compliance make it
   differ).
b) The same case with the six pairs listed one by one ("pair" entries in the same order): the same
   contacts, forces and probes (to round-off, 1e-12 relative: the same problem is built).
c) scripts/make_masonry_arch.py into a temporary tree: the printed sizes (25 blocks, span 60 units
   = 14.634 m, total mass), the joints closed (largest joint gap < 1e-12 m), and the case accepted
   by `fcsim info` (which refuses overlapping bodies); a smoke run of 3 steps (0.12 s): every step
   converges, every one of the 24 joints and both supports carry an active contact, and the
   keystone has moved less than 1 mm (a standing arch of 20 GPa blocks sags by a fraction of a
   millimetre, doc/validation.md "Masonry arch")."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

from blocks_msh import write_blocks
from fctest import ROOT, FCSIM, run, outdir, probes, stats, figure, check

tmp = tempfile.mkdtemp(prefix="fcsim_arch_")
B4 = [((0, 0, 0), (1, 1, 1)), ((1, 0.25, 0.25), (2, 0.75, 0.75)), ((2.5, 0, 0), (3.5, 1, 1)), ((3.5, 0.25, 0.25), (4.5, 0.75, 0.75))]
write_blocks(os.path.join(tmp, "blocks4.msh"), B4, ["block_1", "block_2", "block_3", "block_4"])
ORDER = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]  # the pairs of "bodies": [...] in order


def case(contacts):
    c = {"name": "blocks4", "time": {"dt": 1.0, "steps": 1},
         "bodies": [{"mesh": {"file": "blocks4.msh", "volumes": "block_*"},
                     "material": {"model": "linear", "E": 1e7, "nu": 0.3, "density": 1000}}],
         "contacts": contacts,
         "contact_solver": {"tol": 1e-13},
         "probes": [{"name": "r2", "type": "reaction", "body": "block_2", "group": "xmax"},
                    {"name": "r4", "type": "reaction", "body": "block_4", "group": "xmax"},
                    {"name": "f", "type": "contact_force", "pair": 0}]}
    return c


def with_bcs(c):
    """Boundary conditions of an entry apply to every body it stands for, and blocks 1, 3 and 2, 4
    need different ones: the entry is written as one body per block with mesh.volume (the key the
    expansion of mesh.volumes produces; `fcsim info` on the plain case checks the expansion)."""
    body = c["bodies"][0]
    bodies = []
    for k in range(4):
        b = json.loads(json.dumps(body))
        del b["mesh"]["volumes"]
        b["mesh"]["volume"] = "block_%d" % (k + 1)
        b["name"] = "block_%d" % (k + 1)
        b["boundary"] = [{"group": "xmin", "fix": [True, True, True]}] if k in (0, 2) else \
                        [{"group": "xmax", "displacement": [-1e-3, 0, 0]}]
        bodies.append(b)
    c["bodies"] = bodies
    return c


def contacts_of(d):
    with h5py.File(os.path.join(d, "run.h5"), "r") as f:
        g = f["contacts/000001"]
        return {k: g[k][()] for k in ("pair", "status", "force", "x", "gap")}


results = {}
for label, contacts in (("pattern", [{"bodies": ["block_*"], "mu": 0.5, "alarm": 0.1, "both_passes": True}]),
                        ("explicit", [{"pair": ["block_%d" % (a + 1), "block_%d" % (b + 1)], "mu": 0.5, "alarm": 0.1, "both_passes": True} for a, b in ORDER])):
    path = os.path.join(tmp, "blocks4_%s.json" % label)
    with open(path, "w") as f:
        json.dump(with_bcs(case(contacts)), f)
    d = outdir("arch_blocks/" + label)
    run(["run", path, "-o", d, "--set", "output.vtk=false"])
    s, p, c = stats(d), probes(d), contacts_of(d)
    check(all(v == 1 for v in s["converged"]), "%s: the step converged" % label)
    pairs = sorted(set(int(k) for k in c["pair"]))
    active = sorted(set(int(k) for k, st in zip(c["pair"], c["status"]) if st != 0))
    check(pairs == [0, 5] and active == [0, 5], "%s: contacts found and active exactly in the touching pairs 0 = (1, 2) and 5 = (3, 4) of 6 (found %s, active %s)" % (label, pairs, active))
    f12 = c["force"][c["pair"] == 0].sum(0)
    f34 = c["force"][c["pair"] == 5].sum(0)
    # force on the pair's first body: block_1 is pushed towards -x by block_2; the force on block_2
    # is -f12, which its support reaction at xmax balances: reaction = f12
    check(abs(f12[0] - p["r2_x"][-1]) <= 1e-9 * abs(f12[0]) and abs(f34[0] - p["r4_x"][-1]) <= 1e-9 * abs(f34[0]),
          "%s: contact force = reaction at the pushed face (1e-9)" % label)
    check(0.5 * 2500 < -f12[0] < 1.5 * 2500, "%s: contact force %.4g N within 50 %% of E A u / L = 2500 N" % (label, -f12[0]))
    figure("arch_blocks %s: contact force pair (1,2) %.10g N, (3,4) %.10g N, contacts %d" % (label, -f12[0], -f34[0], len(c["pair"])))
    results[label] = (c, p)

cp, pp = results["pattern"]
ce, pe = results["explicit"]
same = len(cp["pair"]) == len(ce["pair"]) and np.array_equal(cp["pair"], ce["pair"]) and \
    np.allclose(cp["force"], ce["force"], rtol=0, atol=1e-12 * np.abs(cp["force"]).max()) and np.array_equal(cp["x"], ce["x"])
check(same, "pattern and explicit listing: the same contacts and forces (1e-12)")
# the probe's pair is the entry: with the pattern it sums every pair of the group, with the explicit
# listing only contacts[0] = (1, 2)
check(abs(pp["f_x"][-1] - (cp["force"][:, 0].sum())) <= 1e-9 * abs(pp["f_x"][-1]), "pattern: the contact_force probe of the entry sums all its pairs")
check(abs(pe["f_x"][-1] - (ce["force"][ce["pair"] == 0, 0].sum())) <= 1e-9 * max(1, abs(pe["f_x"][-1])), "explicit: the probe of contacts[0] is that pair's force")

# c) the arch, generated into a temporary tree
tree = os.path.join(tmp, "arch")
out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_masonry_arch.py"), "--out", tree], capture_output=True, text=True, check=True).stdout
span = float(re.search(r"span ([0-9.e+-]+) m", out).group(1))
mass = float(re.search(r"total mass ([0-9.e+-]+) kg, (\d+) blocks", out).group(1))
nblk = int(re.search(r"total mass [0-9.e+-]+ kg, (\d+) blocks", out).group(1))
gap = float(re.search(r"largest joint gap ([0-9.e+-]+) m", out).group(1))
check(nblk == 25 and abs(span - 60 * 20 / 82) < 1e-4, "arch: 25 blocks, span 60 units = %.6g m (printed to 6 digits)" % span)
check(gap < 1e-12, "arch: joints closed (largest joint gap %.2g m)" % gap)
figure("arch: total mass %.6g kg" % mass)
casefile = os.path.join(tree, "cases", "masonry_arch.json")
info = run(["info", casefile])
check(info.stdout.count("\nbody block_") == 25, "arch: fcsim info accepts the case (no overlap), 25 block bodies")
d = outdir("arch_blocks/arch_smoke")
run(["run", casefile, "-o", d, "--set", "time.t_end=0.12", "--set", "output.vtk=false", "--set", "output.every=1"], timeout=900)
s, p = stats(d), probes(d)
check(all(v == 1 for v in s["converged"]) and all(v == 1 for v in s["contact_converged"]), "arch smoke: every step converged")
with h5py.File(os.path.join(d, "run.h5"), "r") as f:
    g = f["contacts/%06d" % len(s["converged"])]  # every step written (output.every = 1)
    pair, status = g["pair"][()], g["status"][()]
# expanded pairs: the 300 pairs among the blocks (i < j in block order), then the two supports
idx = {}
k = 0
for i in range(25):
    for j in range(i + 1, 25):
        idx[(i, j)] = k
        k += 1
joints = [idx[(i, i + 1)] for i in range(24)]
act = set(int(a) for a, st in zip(pair, status) if st != 0)
check(all(j in act for j in joints) and 300 in act and 301 in act, "arch smoke: every joint and both supports carry active contacts (%d active contacts)" % int(sum(status != 0)))
drop = -p["keystone_y"][-1]
check(abs(drop) < 1e-3, "arch smoke: keystone moved %.3g m (< 1 mm)" % drop)
figure("arch smoke (3 steps): keystone drop %.4g m, contacts %d, active %d, mean step time %.3g s" % (drop, s["contacts"][-1], s["active"][-1], np.mean(s["step_time"])))

# d) study refine on an entry with mesh.volumes: the entry is refined as a whole through its own
#    --set key, bodies[0].mesh.refine (the --set applies before the expansion: bodies[1..3] do not
#    exist in the file). Four free blocks falling for 2 steps; each block is one hexahedron in 6
#    tetrahedra: 8 nodes at level 0, 27 at level 1 (the 8 corners and the midpoints of the 19
#    edges), so 4 x 24 = 96 and 4 x 81 = 324 DoFs.
c = case([{"bodies": ["block_*"], "mu": 0.5, "alarm": 0.1}])
c["time"] = {"integrator": "backward_euler", "dt": 0.01, "steps": 2}
c["gravity"] = [0, 0, -9.81]
c["probes"] = [{"name": "z2", "type": "displacement", "body": "block_2", "point": [1.5, 0.5, 0.5]}]
path = os.path.join(tmp, "blocks4_free.json")
with open(path, "w") as f:
    json.dump(c, f)
d = outdir("arch_blocks/refine_volumes")
run(["study", "refine", path, "--levels", "0,1", "-j", "1", "-q", "-o", d])
import csv
with open(os.path.join(d, "study.csv")) as f:
    rows = list(csv.DictReader(f))
dofs = [int(float(r["dofs"])) for r in rows]
check(dofs == [96, 324], "study refine with mesh.volumes: every body of the entry refined (DoFs %s, expected [96, 324])" % dofs)
with open(os.path.join(d, "study.md")) as f:
    md = f.read()
check("the bodies of mesh.volumes" in md and "`bodies[0]`" in md, "study refine with mesh.volumes: study.md names the entry bodies[0]")
figure("study refine, mesh.volumes entry of 4 blocks: DoFs %s" % dofs)
shutil.rmtree(tmp)
