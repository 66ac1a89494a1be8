#!/usr/bin/env python3
"""ParaView opens the outputs of a run on 2 ranks as one dataset (issue 29 item 2; doc/mpi.md
"Outputs"). Run by `make check-paraview`, not by make check (ParaView is about 800 MB installed;
scripts/deps.sh installs it for that target only; not named test_*.py, which make check runs).

two_blocks (two deformable bodies and their contacts) runs under `mpiexec -n 2`; its run.h5 is
written collectively by both ranks. ParaView's own Python (pvpython, Debian's python3-paraview
5.11) then opens:

- run.xdmf with the Xdmf3ReaderS: one block per body plus the contacts, each with the point and
  cell counts of run.h5 (read with h5py) and, at the last time, the ranges of `displacement`
  (each component) and `von_mises` equal to run.h5's: ParaView reads the same float64 values
  from the same file, so the ranges are compared exactly (no arithmetic between them);
- each body's vtk/<body>.vtk.series (rank 0's legacy VTK files, one per body and step): the
  same counts, its time steps those of run.h5:/output/time, and the ranges at the last step
  equal to run.h5's to 1e-15 relative (the ASCII files print %.17g: an exact round trip; the
  tolerance covers a last-bit difference in the range's reduction only).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from fctest import ROOT, FCSIM, figure, check

pvpython = shutil.which("pvpython")
mpiexec = shutil.which("mpiexec")
check(pvpython is not None, "pvpython is installed (python3-paraview: scripts/deps.sh paraview)")
check(mpiexec is not None, "mpiexec is installed (openmpi-bin, with petsc-dev: scripts/deps.sh)")
tmp = tempfile.mkdtemp(prefix="fcsim-test-paraview-")
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_mpi_yield_when_idle="1")
run = os.path.join(tmp, "two_blocks-2")
p = subprocess.run([mpiexec, "-q", "-n", "2", FCSIM, "run", os.path.join(ROOT, "cases", "two_blocks.json"), "-q", "-o", run],
                   capture_output=True, text=True, timeout=600, env=env)
check(p.returncode == 0, "two_blocks on 2 ranks: exit 0 (%d: %s)" % (p.returncode, p.stderr.strip()[-300:]))

# What ParaView reads, printed as JSON by pvpython (which has no h5py of its own).
PV = r'''
import json, sys
from paraview.simple import Xdmf3ReaderS, OpenDataFile
from paraview import servermanager as sm

def leaves(d):
    """The grids in the reader's order (it names none: the Xdmf3 readers give the top-level grids
    of run.xdmf, in the file's order, as the blocks or pieces of one composite dataset)."""
    if d is None:
        return []
    if d.IsA("vtkMultiBlockDataSet"):
        return [x for i in range(d.GetNumberOfBlocks()) for x in leaves(d.GetBlock(i))]
    if d.IsA("vtkMultiPieceDataSet"):
        return [x for i in range(d.GetNumberOfPieces()) for x in leaves(d.GetPiece(i))]
    return [d]

def ranges(b):
    r = {"points": b.GetNumberOfPoints(), "cells": b.GetNumberOfCells()}
    for data, kind in ((b.GetPointData(), "point"), (b.GetCellData(), "cell")):
        for i in range(data.GetNumberOfArrays()):
            a = data.GetArray(i)
            r[a.GetName()] = [list(a.GetRange(c)) for c in range(a.GetNumberOfComponents())]
    return r

xdmf, series = sys.argv[1], sys.argv[2:]
out = {"series": {}}
rd = Xdmf3ReaderS(FileName=[xdmf])
t = list(rd.TimestepValues)
rd.UpdatePipeline(time=t[-1])
out["xdmf_times"] = t
out["xdmf"] = [ranges(b) for b in leaves(sm.Fetch(rd))]
for s in series:
    rs = OpenDataFile(s)
    ts = list(rs.TimestepValues)
    rs.UpdatePipeline(time=ts[-1])
    d = leaves(sm.Fetch(rs))
    out["series"][s] = {"times": ts, "data": ranges(d[0]) if len(d) == 1 else {"grids": len(d)}}
print("PVJSON " + json.dumps(out))
'''
script = os.path.join(tmp, "pv.py")
with open(script, "w") as f:
    f.write(PV)

import h5py  # noqa: E402  (Debian's, with /usr/bin/python3)
import numpy as np  # noqa: E402

with h5py.File(os.path.join(run, "run.h5"), "r") as f:
    check(int(f["fcsim"].attrs["ranks"]) == 2, "run.h5 records 2 ranks")
    times = f["output/time"][()]
    bodies = list(f["bodies"].keys())
    last = "%06d" % (len(times) - 1)
    ref = {}
    for b in bodies:
        g = f["bodies/" + b]
        u, vm = g["fields/%s/displacement" % last][()], g["fields/%s/von_mises" % last][()]
        ref[b] = {"points": g["mesh/X"].shape[0], "cells": g["mesh/cells"].shape[0],
                  "displacement": [[float(u[:, c].min()), float(u[:, c].max())] for c in range(3)], "von_mises": [[float(vm.min()), float(vm.max())]]}
    m = f["contacts/%s/x" % last].shape[0] if "contacts" in f else None
series = [os.path.join(run, "vtk", b + ".vtk.series") for b in bodies]
p = subprocess.run([pvpython, "--force-offscreen-rendering", script, os.path.join(run, "run.xdmf")] + series, capture_output=True, text=True, timeout=600)
line = [x for x in p.stdout.splitlines() if x.startswith("PVJSON ")]
ok = p.returncode == 0 and len(line) == 1
check(ok, "pvpython opens run.xdmf and the .vtk.series (exit %d%s)" % (p.returncode, "" if ok else ": " + (p.stderr or p.stdout).strip()[-400:]))
pv = json.loads(line[0][len("PVJSON "):])
# the top-level grids of run.xdmf, in the file's order: the bodies, then the contacts
grids = [g.get("Name") for g in ET.parse(os.path.join(run, "run.xdmf")).getroot().find("Domain").findall("Grid")]
check(len(pv["xdmf"]) == len(grids), "XDMF: ParaView reads one grid per top-level grid of run.xdmf (%d: %s)" % (len(pv["xdmf"]), grids))
pv["xdmf"] = dict(zip(grids, pv["xdmf"]))
figure("ParaView %s (pvpython, Xdmf3ReaderS) on the 2-rank run.xdmf of two_blocks: grids %s" % (
    subprocess.run([pvpython, "--version"], capture_output=True, text=True).stdout.strip().split()[-1], grids))
check(np.allclose(pv["xdmf_times"], times, rtol=0, atol=0), "XDMF: ParaView's time steps are run.h5:/output/time (%d)" % len(times))
check(sorted(pv["xdmf"]) == sorted(bodies + (["contacts"] if m is not None else [])), "XDMF: one block per body and the contacts (%s)" % sorted(pv["xdmf"]))
for b in bodies:
    got = pv["xdmf"][b]
    check(got["points"] == ref[b]["points"] and got["cells"] == ref[b]["cells"],
          "XDMF, body %s: %d points and %d cells, as run.h5 (%d, %d)" % (b, got["points"], got["cells"], ref[b]["points"], ref[b]["cells"]))
    check(got["displacement"] == ref[b]["displacement"] and got["von_mises"] == ref[b]["von_mises"],
          "XDMF, body %s: the ranges of displacement and von_mises at t = %g equal run.h5's exactly (von_mises %s)" % (b, times[-1], got["von_mises"]))
    s = pv["series"][os.path.join(run, "vtk", b + ".vtk.series")]
    check(np.array_equal(s["times"], times), "VTK series, body %s: the time steps of run.h5" % b)
    d = s["data"]
    dr = max(abs(x - y) / (abs(y) or 1.0) for k in ("displacement", "von_mises") for gx, gy in zip(d[k], ref[b][k]) for x, y in zip(gx, gy))
    check(d["points"] == ref[b]["points"] and d["cells"] == ref[b]["cells"] and dr <= 1e-15,
          "VTK series, body %s: one dataset of %d points, %d cells, ranges equal to run.h5's (%.1e relative)" % (b, d["points"], d["cells"], dr))
if m is not None:
    check(pv["xdmf"]["contacts"]["points"] == m, "XDMF: the contacts block has run.h5's %d contact points at the last step" % m)
figure("ParaView reads the 2-rank two_blocks: bodies %s with %s points, contacts %s" % (bodies, [ref[b]["points"] for b in bodies], m))
shutil.rmtree(tmp, ignore_errors=True)
print("ok")
