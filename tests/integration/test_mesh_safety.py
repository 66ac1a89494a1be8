"""A mesh file must not act outside the mesh (issue 17, items 5 and 7c; doc/mesh.md, "What a .geo
may do"; doc/case-format.md, bodies[i].mesh.max_elements).

A .geo is a Gmsh script: SystemCall runs a shell command, Exit ends the process with status 0 and
no output, Printf > / Save / CreateDir write files, Include / Merge read any file. fcsim checks
the script (and every script it includes or merges) before Gmsh opens it. Each refused script
below would leave a marker file in the temporary folder if its command ran; the test asserts
exit status 2, exactly one stderr line naming the file, the line and the construct, that no
marker exists and that no output folder was written. Scripts that only describe geometry
(comments and strings mentioning the refused words, an Include inside the case's folder tree,
every shipped mesh and case) still load.

`refine` is estimated before meshing at that level: (tetrahedra at refine 0) x 8^refine must not
exceed bodies[i].mesh.max_elements (default 2e7), for deformable bodies and rigid "mesh" shapes.

Every check runs and reports; the test fails at the end if any did (so that a run against an
older binary shows each behaviour it lacks)."""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from fctest import ROOT, FCSIM, figure

tmp = tempfile.mkdtemp(prefix="fcsim-mesh-safety-")
tree = os.path.join(tmp, "project")  # the case's folder tree
meshes = os.path.join(tree, "meshes")
os.makedirs(os.path.join(meshes, "parts"))
shutil.copy(os.path.join(ROOT, "meshes", "cube.geo"), os.path.join(meshes, "parts", "cube.geo"))
failures = []
nchecks = 0


def check(cond, msg):
    global nchecks
    nchecks += 1
    print(("ok   " if cond else "FAIL ") + msg)
    sys.stdout.flush()
    if not cond:
        failures.append(msg)


def marker(name):
    return os.path.join(tmp, name)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def geo(name, text):
    """A mesh script in the tree's meshes/ folder; the cube's geometry comes first, so that an
    fcsim that ran the script would mesh and run successfully."""
    return write(os.path.join(meshes, name), 'Include "parts/cube.geo";\n' + text)


def case(name, mesh, refine=0, mesh_extra=None, rigid=None):
    m = {"file": os.path.relpath(mesh, tree), "refine": refine}
    m.update(mesh_extra or {})
    bodies = [{"name": "block", "mesh": m,
               "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000},
               "boundary": [{"group": "zmin", "fix": [True, True, True]}]}]
    if rigid:
        bodies.append({"name": "floor", "type": "rigid", "shape": rigid})
    path = os.path.join(tree, name + ".json")
    with open(path, "w") as f:
        json.dump({"name": name, "time": {"dt": 1, "steps": 1}, "bodies": bodies}, f)
    return path


def limit_memory():
    # an fcsim without the refine estimate would start meshing a huge mesh: keep it bounded
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def fcsim(args, timeout=120):
    cmd = [FCSIM] + args
    try:
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, preexec_fn=limit_memory)
        return p.returncode, [l for l in p.stderr.splitlines() if l.strip()], p.stdout
    except subprocess.TimeoutExpired:
        return None, ["(timed out after %d s)" % timeout], ""


def refused(label, args, subs, markers=(), outdir=None, timeout=120):
    """Exit 2, one stderr line holding every substring, no marker, no output folder."""
    rc, lines, _ = fcsim(args, timeout)
    line = lines[0] if lines else ""
    ok = rc == 2 and len(lines) == 1 and all(s in line for s in subs)
    check(ok, "%s: exit 2 and one line with %s (got exit %s, %d lines: %s)" % (label, subs, rc, len(lines), " | ".join(lines)[:400]))
    for m in markers:
        check(not os.path.exists(m), "%s: the command did not run (no %s)" % (label, os.path.basename(m)))
    if outdir:
        check(not os.path.exists(outdir) and not any(x.startswith(os.path.basename(outdir)) for x in os.listdir(os.path.dirname(outdir))),
              "%s: nothing written at %s" % (label, outdir))


def run_refused(label, name, text, construct, markers=()):
    g = geo(name + ".geo", text)
    c = case(name, g)
    out = os.path.join(tmp, "out_" + name)
    refused(label, ["run", c, "-o", out, "-q"], [g + ": " + construct], markers, out)


# 1. Commands that run programs.
m1 = marker("MARKER_systemcall")
run_refused("SystemCall", "systemcall", '// SystemCall "touch %s" in a comment is only text\nSystemCall "touch %s";\n' % (m1, m1),
            "line 3: SystemCall is refused", [m1])
m2 = marker("MARKER_quotes")
run_refused("SystemCall with single quotes", "quotes", "Printf('SystemCall in a string');\nSystemCall 'touch %s';\n" % m2,
            "line 3: SystemCall is refused", [m2])
m3 = marker("MARKER_s2n")
run_refused("S2N-built command name", "s2n", 'S2N[StrCat("System", "Call")] "touch %s";\n' % m3, "line 2: S2N is refused", [m3])
m4 = marker("MARKER_nonblocking")
run_refused("NonBlockingSystemCall", "nonblocking", 'NonBlockingSystemCall "touch %s";\n' % m4, "line 2: NonBlockingSystemCall is refused", [m4])
m5 = marker("MARKER_included")
write(os.path.join(meshes, "parts", "evil.geo"), '// included\nSystemCall "touch %s";\n' % m5)
run_refused("SystemCall in an included script", "include_evil", 'Include "parts/evil.geo";\n', os.path.join(meshes, "parts", "evil.geo") + ", line 2: SystemCall is refused", [m5])
m6 = marker("MARKER_merged")
write(os.path.join(meshes, "parts", "notmesh.msh"), 'System "touch %s";\n' % m6)  # no $MeshFormat: Gmsh runs it as a script
run_refused("System in a merged non-MSH file", "merge_evil", 'Merge "parts/notmesh.msh";\n', os.path.join(meshes, "parts", "notmesh.msh") + ", line 1: System is refused", [m6])

# 2. Exit: today fcsim would stop with status 0 and print nothing.
run_refused("Exit", "exit", "Exit;\n", "line 2: Exit is refused")

# 3. Writing files.
m7 = marker("MARKER_printf")
run_refused("Printf > file", "printf", 'Printf("plain Printf is allowed");\nPrintf("x") > "%s";\n' % m7, "line 3: Printf(...) > FILE is refused", [m7])
m8 = marker("MARKER_save.msh")
run_refused("Save", "save", 'Mesh 3;\nSave "%s";\n' % m8, "line 3: Save is refused", [m8])
m9 = marker("MARKER_dir")
run_refused("CreateDir", "createdir", 'CreateDir "%s";\n' % m9, "line 2: CreateDir is refused", [m9])
run_refused("General option", "general", "General.Terminal = 1;\n", "line 2: General.Terminal = ... is refused")

# 4. Reading files outside the mesh's folder tree (the folder of the top-level .geo).
outside = write(os.path.join(tmp, "outside.geo"), open(os.path.join(ROOT, "meshes", "cube.geo")).read() + 'SystemCall "touch %s";\n' % marker("MARKER_outside"))
g = write(os.path.join(meshes, "abs.geo"), 'Include "/etc/hostname";\n')
refused("Include of /etc/hostname", ["run", case("abs", g), "-o", os.path.join(tmp, "out_abs"), "-q"],
        ["meshes/abs.geo", "line 1: Include is refused: it reads /etc/hostname, outside the mesh file's folder"], (), os.path.join(tmp, "out_abs"))
g = write(os.path.join(meshes, "dotdot.geo"), 'Include "../../outside.geo";\n')
refused("Include of ../../outside.geo", ["run", case("dotdot", g), "-o", os.path.join(tmp, "out_dotdot"), "-q"],
        ["meshes/dotdot.geo", "line 1: Include is refused", "outside.geo), outside the mesh file's folder"], [marker("MARKER_outside")], os.path.join(tmp, "out_dotdot"))
os.symlink(outside, os.path.join(meshes, "parts", "link.geo"))
g = write(os.path.join(meshes, "symlink.geo"), 'Include "parts/link.geo";\n')
refused("Include of a symbolic link leading outside", ["run", case("symlink", g), "-o", os.path.join(tmp, "out_symlink"), "-q"],
        ["meshes/symlink.geo", "line 1: Include is refused", "outside the mesh file's folder"], [marker("MARKER_outside")], os.path.join(tmp, "out_symlink"))

# 5. A script that only describes geometry still loads and runs: refused words in comments and
# strings, a plain Printf, an Include inside the tree.
g = write(os.path.join(meshes, "good.geo"), '// SystemCall "x"; Exit; Include "/etc/passwd";\n/* Save "y"; */\n'
          'Printf("SystemCall, Exit and Save are only text here");\nInclude "parts/cube.geo";\n')
out = os.path.join(tmp, "out_good")
rc, lines, _ = fcsim(["run", case("good", g), "-o", out, "-q"])
check(rc == 0 and os.path.isfile(os.path.join(out, "run.h5")), "Include inside the tree: the run succeeds (exit %s, %s)" % (rc, " | ".join(lines)[:300]))
rc, lines, stdout = fcsim(["info", case("good_info", g)])
check(rc == 0 and "100 elements" in stdout, "Include inside the tree: the cube's 100 tetrahedra (exit %s)" % rc)

# 6. Element-count estimate for refine (default limit 2e7, checked by `fcsim info` already).
cube = os.path.join(meshes, "parts", "cube.geo")
c = case("refine6", cube, refine=6)
refused("refine 6 of a 100-tetrahedra .geo (default limit)", ["info", c], timeout=60, subs=
        [c + ": ", "bodies[0].mesh.refine", "about 2.62e+07 tetrahedra (100 at refine 0 x 8^6)", "max_elements = 20000000"])
c = case("refine_max", cube, refine=1, mesh_extra={"max_elements": 500})
refused("refine 1 above max_elements 500", ["info", c], [c + ": ", "bodies[0].mesh.refine", "about 800 tetrahedra", "max_elements = 500"])
c = case("refine_raised", cube, refine=1, mesh_extra={"max_elements": 800})
rc, lines, stdout = fcsim(["info", c])
check(rc == 0 and "373 elements" in stdout, "refine 1 at max_elements 800 (= the estimate) loads (exit %s, %s)" % (rc, " | ".join(lines)[:300]))
msh = shutil.copy(os.path.join(ROOT, "tests", "data", "cube_v41.msh"), os.path.join(meshes, "parts", "cube_v41.msh"))
c = case("refine_msh", msh, refine=3, mesh_extra={"max_elements": 51199})
refused("refine 3 of a 100-tetrahedra .msh above 51199", ["info", c], ["bodies[0].mesh.refine", "about 5.12e+04 tetrahedra (100 at refine 0 x 8^3)"])
slab = shutil.copy(os.path.join(ROOT, "meshes", "slab.geo"), os.path.join(meshes, "parts", "slab.geo"))
c = case("refine_rigid", cube, rigid={"type": "mesh", "file": os.path.relpath(slab, tree), "refine": 2, "max_elements": 10})
refused("rigid mesh shape: refine 2 above max_elements 10", ["info", c], [c + ": ", "bodies[1].shape.refine", "more than max_elements = 10"])

# 7. Every shipped mesh and case still loads.
for f in sorted(os.listdir(os.path.join(ROOT, "meshes"))):
    if f.endswith(".geo"):
        c = os.path.join(tmp, "shipped_" + f + ".json")
        with open(c, "w") as fp:
            json.dump({"name": "shipped", "time": {"dt": 1, "steps": 1},
                       "bodies": [{"name": "b", "mesh": {"file": os.path.join(ROOT, "meshes", f)},
                                   "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000}}]}, fp)
        rc, lines, _ = fcsim(["info", c])
        check(rc == 0, "meshes/%s loads (exit %s %s)" % (f, rc, " | ".join(lines)[:300]))
for f in sorted(os.listdir(os.path.join(ROOT, "cases"))):
    if f.endswith(".json"):
        rc, lines, _ = fcsim(["info", os.path.join("cases", f)])
        check(rc == 0, "cases/%s: fcsim info (exit %s %s)" % (f, rc, " | ".join(lines)[:300]))

if failures:
    print("FAIL: %d of %d checks failed" % (len(failures), nchecks))
    sys.exit(1)
figure("mesh safety: %d checks; refused scripts ran nothing and wrote nothing, in-tree Include and shipped meshes load, refine estimate enforced" % nchecks)
shutil.rmtree(tmp)
