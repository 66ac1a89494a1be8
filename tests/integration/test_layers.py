"""The folders of src/ form a one-way dependency graph (doc/architecture.md, "Layers").

Each folder of src/ stands on a floor; a file may include (hence call: -Werror refuses an
implicit declaration) only headers of its own folder or of a folder on a LOWER floor. The check
resolves every `#include "..."` of src/ to the folder it names and fails on
  - an include of a folder on the same or a higher floor (an upward or sideways edge),
  - a folder of src/ that is not on the list (a new folder must be given its floor),
  - an include that does not resolve to a file of the tree.
No cycle can exist between folders when every edge points down. The checker is first run on two
small synthetic trees (one clean, one with an upward edge and one with a cycle), so it is known
to catch what it is for.
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from fctest import ROOT, figure, fail  # noqa: E402

# Floors from the ground up. Folders on one floor do not include each other.
FLOORS = [
    ["core"],                            # errors, registry, 3x3 algebra, output folders
    ["drivers"],                         # the case's functions of time (ramps, motions, gravity, logs)
    ["mesh", "collide", "contact"],      # plain-data meshes, proximity, the contact problem + solvers
    ["fem", "io"],                       # elements/materials (on mesh); files (on contact's types)
    ["case"],                            # case files (material schemas from fem)
    ["model"],                           # bodies: deformable, rigid; probes
    ["compliance"],                      # W = H A^-1 H^T strategies
    ["step"],                            # one time step: Newton + contact correction
    ["run", "fclib"],                    # the run driver; the FCLIB commands
    ["study"],                           # studies over runs
    ["cli"],                             # the commands: their options, help and mains
    ["fcsim.c"],                         # the process: signals, MPI start-up, PETSc
]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(src, path):
    rel = os.path.relpath(path, src)
    return rel.split(os.sep)[0]


def check(src, floors):
    """Return (violations, unknown folders, unresolved includes, edge count)."""
    floor = {f: i for i, names in enumerate(floors) for f in names}
    violations, unknown, unresolved, edges = [], set(), [], 0
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            a = folder_of(src, path)
            if a not in floor:
                unknown.add(a)
                continue
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            for inc in INCLUDE.findall(text):
                target = os.path.normpath(os.path.join(dirpath, inc))
                if not os.path.exists(target):
                    unresolved.append("%s: %s" % (os.path.relpath(path, src), inc))
                    continue
                if os.path.relpath(target, src).startswith(".."):
                    unresolved.append("%s: %s (outside src/)" % (os.path.relpath(path, src), inc))
                    continue
                b = folder_of(src, target)
                if b == a:
                    continue
                edges += 1
                if b not in floor:
                    unknown.add(b)
                elif floor[b] >= floor[a]:
                    violations.append("%s includes %s (%s on floor %d, %s on floor %d)" % (
                        os.path.relpath(path, src), os.path.relpath(target, src), a, floor[a], b, floor[b]))
    return violations, unknown, unresolved, edges


def synthetic(files):
    d = tempfile.mkdtemp(prefix="fc_layers_")
    for rel, text in files.items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as fh:
            fh.write(text)
    return d


# 1. the checker itself: a clean tree passes, an upward edge and a cycle are caught
floors = [["low"], ["high"]]
clean = synthetic({"low/a.h": "", "high/b.c": '#include "../low/a.h"\n'})
upward = synthetic({"low/a.h": "", "low/a.c": '#include "../high/b.h"\n', "high/b.h": '#include "../low/a.h"\n'})
side = synthetic({"low/a.h": "", "other/c.c": '#include "../low/a.h"\n'})
v0, u0, r0, _ = check(clean, floors)
v1, _, _, _ = check(upward, floors)
_, u2, _, _ = check(side, floors)
for d in (clean, upward, side):
    shutil.rmtree(d)
figure("layers self-test: clean tree %d violations, upward edge/cycle %d, unknown folder %d" % (len(v0) + len(u0) + len(r0), len(v1), len(u2)))
if v0 or u0 or r0 or len(v1) != 1 or u2 != {"other"}:
    fail("the layer checker does not tell a clean tree from a bad one")

# 2. fcsim's tree
src = os.path.join(ROOT, "src")
violations, unknown, unresolved, edges = check(src, FLOORS)
for v in violations:
    print("upward edge:", v)
for u in sorted(unknown):
    print("folder without a floor (add it to FLOORS and doc/architecture.md):", u)
for u in unresolved:
    print("unresolved include:", u)
figure("src/ include edges between folders: %d, upward or sideways: %d, folders without a floor: %d, unresolved: %d"
       % (edges, len(violations), len(unknown), len(unresolved)))
if violations or unknown or unresolved:
    fail("the include graph of src/ is not one-way (doc/architecture.md, Layers)")
print("PASS")
