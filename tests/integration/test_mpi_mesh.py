#!/usr/bin/env python3
"""A mesh is read once on several ranks (doc/mpi.md "Meshes on several ranks"; src/mesh/mesh_share.c).

Under `mpiexec -n 2` rank 0 alone opens Gmsh: it lists a file's volumes, counts its tetrahedra
for the size estimate and loads each body, and the other ranks receive its answers. Checked:

- a .geo whose meshing never ends, with -fc_mesh_timeout 4: while the job meshes, exactly one
  sandboxed meshing child exists, and its parent is rank 0 (before, each rank meshed: two
  children); the job then ends with exit 2 and one line naming the script and the limit;
- an input error found in the mesh (a script that asks for a shell command) on 2 ranks: exit 2,
  one line (rank 0's), nothing written;
- a multi-volume .msh (the arch: its blocks are volumes of one file, listed, counted and loaded
  through the shared answers) run for two steps on 1 and on 2 ranks: every body's mesh in run.h5
  (X, cells) is the same, bit for bit. test_mpi.py compares whole runs on 2 and 3 ranks with 1
  (the cantilever's .geo, two_blocks, the arch for 1 s): their probes are the 1-rank ones.
This test fails on the binary before the change: two meshing children, one per rank.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
from fctest import ROOT, FCSIM, figure, check, mpi_env

mpiexec = shutil.which("mpiexec")
check(mpiexec is not None, "mpiexec is installed (openmpi-bin, with petsc-dev: scripts/deps.sh)")
tmp = tempfile.mkdtemp(prefix="fcsim-test-mpi-mesh-")
tmpdir = os.path.join(tmp, "tmpdir")
os.makedirs(tmpdir)
env = mpi_env(tmpdir)
real = os.path.realpath(FCSIM)


def case(name, mesh):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump({"name": name, "time": {"dt": 1, "steps": 1},
                   "bodies": [{"name": "block", "mesh": {"file": mesh},
                               "material": {"model": "linear", "E": 1e6, "nu": 0.3, "density": 1000},
                               "boundary": [{"group": "zmin", "fix": [True, True, True]}]}]}, f)
    return path


def script(name, tail):
    with open(os.path.join(ROOT, "meshes", "cube.geo")) as f:
        text = f.read()
    path = os.path.join(tmp, name + ".geo")
    with open(path, "w") as f:
        f.write(text + tail)
    return path


def exe(pid):
    try:
        return os.readlink("/proc/%d/exe" % pid)
    except OSError:
        return None


def ranks():
    """{pid: rank} of the fcsim ranks started with this test's TMPDIR."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit() or exe(int(d)) != real:
            continue
        try:
            environ = open("/proc/%s/environ" % d, "rb").read().split(b"\0")
        except OSError:
            continue
        rank = [e for e in environ if e.startswith(b"OMPI_COMM_WORLD_RANK=")]
        if ("TMPDIR=" + tmpdir).encode() in environ and rank:
            out[int(d)] = int(rank[0].split(b"=")[1])
    return out


def children(pid):
    try:
        kids = open("/proc/%d/task/%d/children" % (pid, pid)).read().split()
    except OSError:
        return []
    return [int(k) for k in kids if exe(int(k)) == real]  # the meshing child is fcsim itself (fork)


def mpirun(args, timeout=300):
    return subprocess.run([mpiexec, "-q", "-n", "2", FCSIM] + args, cwd=tmp, capture_output=True, text=True, timeout=timeout, env=env)


try:
    # 1. one meshing child for the job, rank 0's
    loop = script("loop", "For i In {1:1e12}\n  x = i;\nEndFor\n")
    c = case("loop", loop)
    p = subprocess.Popen([mpiexec, "-q", "-n", "2", FCSIM, "run", "-q", c, "-o", "out_loop", "-fc_mesh_timeout", "4"],
                         cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    seen, most, t0 = {}, 0, time.time()
    while p.poll() is None and time.time() - t0 < 60:
        rk = ranks()
        now = {pid: children(pid) for pid in rk}
        count = sum(len(k) for k in now.values())
        most = max(most, count)
        for pid, kids in now.items():
            if kids:
                seen[rk[pid]] = seen.get(rk[pid], 0) + 1
        time.sleep(0.05)
    _, err = p.communicate(timeout=120)
    lines = [l for l in err.splitlines() if l.strip()]
    check(list(seen) == [0] and most == 1, "2 ranks: one meshing child at a time, rank 0's (samples with a child, per rank: %s; most at once: %d)" % (seen, most))
    check(p.returncode == 2 and len(lines) == 1 and "longer than the limit of 4 s" in lines[0] and loop in lines[0],
          "2 ranks, endless script: exit 2, one line naming it (got %d: %s)" % (p.returncode, " | ".join(lines)[:300]))
    check(not os.path.exists(os.path.join(tmp, "out_loop")), "2 ranks, endless script: nothing written")

    # 2. an input error in the mesh: rank 0's line, every rank's exit
    bad = script("shell", 'SystemCall "touch pwned";\n')
    r = mpirun(["run", "-q", case("shell", bad), "-o", "out_shell"])
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(r.returncode == 2 and len(lines) == 1 and bad in lines[0],
          "2 ranks, a script with a command: exit 2, one line naming it (got %d: %s)" % (r.returncode, " | ".join(lines)[:300]))
    check(not os.path.exists(os.path.join(tmp, "pwned")) and not os.path.exists(os.path.join(tmp, "out_shell")),
          "2 ranks, a script with a command: no command ran, nothing written")

    # 3. the arch's volumes of one .msh, on 1 and on 2 ranks
    arch = os.path.join(ROOT, "cases", "masonry_arch.json")
    one = subprocess.run([FCSIM, "run", "-q", arch, "-o", "arch1", "--set", "time.t_end=0.08"], cwd=tmp, capture_output=True, text=True, timeout=300, env=env)
    two = mpirun(["run", "-q", arch, "-o", "arch2", "--set", "time.t_end=0.08"])
    check(one.returncode == 0 and two.returncode == 0, "the arch for 0.08 s on 1 and 2 ranks (exit %d, %d: %s)" % (one.returncode, two.returncode, two.stderr[-300:]))
    import h5py
    import numpy

    def meshes(run):
        out = {}
        with h5py.File(os.path.join(tmp, run, "run.h5"), "r") as f:
            for b in sorted(f["bodies"].keys()):
                if "mesh" in f["bodies/" + b] and "X" in f["bodies/%s/mesh" % b]:
                    out[b] = (f["bodies/%s/mesh/X" % b][()], f["bodies/%s/mesh/cells" % b][()])
        return out
    m1, m2 = meshes("arch1"), meshes("arch2")
    same = sorted(m1) == sorted(m2) and all(numpy.array_equal(m1[b][0], m2[b][0]) and numpy.array_equal(m1[b][1], m2[b][1]) for b in m1)
    check(len(m1) > 1 and same, "the arch's bodies from one .msh: %d meshes (X, cells) on 2 ranks equal to 1 rank's, bit for bit" % len(m1))
    figure("mesh read once on 2 ranks: one meshing child (rank 0's) for an endless script, exit 2; the arch's %d volume meshes equal to 1 rank's" % len(m1))
finally:
    shutil.rmtree(tmp, ignore_errors=True)
