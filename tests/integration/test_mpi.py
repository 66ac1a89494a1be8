#!/usr/bin/env python3
"""mpiexec -n N fcsim run (issue 29, items 1-2; doc/mpi.md).

Deformable bodies run distributed: each rank assembles its share of the
elements into PETSc's MPIAIJ matrices, MUMPS factors in parallel; run.h5 is written collectively
by every rank (parallel HDF5), the other outputs by rank 0 from vectors gathered to it. Checked here, on the cantilever (quasi-static, tet10), the dynamic bar
(backward Euler, tet4, 50 steps) and a neo-Hookean beam in large deformation under gravity, a
pressure and a prescribed displacement, at 2 ranks and at 3 ranks oversubscribed on this 2-core
machine:

- the probes equal the 1-rank run's to 1e-9 of each probe's scale (the largest |value| of its
  columns over the run). Why 1e-9: the first two cases are linear and solved by a direct factorization
  per step; 1 rank and N ranks factor with different codes or orderings (PETSc's Cholesky or
  MUMPS, sequential or distributed elimination trees), which differ in round-off only, bounded by
  cond(A) eps |x| ~ 1e6 x 1e-16 = 1e-10 relative for these meshes; the dynamic run adds the
  round-off of 50 steps, damped by the Rayleigh term. Measured: ~1e-12 and below;
- probes.csv and stats.csv have the 1-rank layout (header and rows); run.h5 records the number of
  ranks (/fcsim@ranks) and the partition (/bodies/<b>/mesh/partition: nodes owned and elements
  assembled per rank, summing to the mesh's), and its last displacement field equals the 1-rank
  one to the same tolerance; every group, dataset and attribute of run.h5 is compared with the
  1-rank file (compare_h5: link order, types, shapes, integers and strings exactly, reals to the
  case's tolerance of their scale; /fcsim/petsc_options_unused, and the warnings, name the contact
  views, which act on several ranks only, in the 1-rank run alone) and run.xdmf is the 1-rank file;
- contact (doc/mpi.md "Contact": each contact detected by the rank that owns its contactor node,
  the detections gathered so that the contact list and H are alike on every rank, W by
  distributed solves, each rank's rows of it gathered to rank 0, q formed and solved there, r
  sent to each rank for the contacts it touches only) against a rigid plane
  (block_on_floor, the cylinder press at level 0), between two deformable bodies whose contact
  surfaces are split across the ranks (two_blocks, -fc_contact_ranks_view), with a dynamic rigid
  body (cylinder_press_force), rigid bodies driven by a device log (replayed: cube_instrument;
  coupled by a spring: haptic_probe without its haptic loop) and the masonry arch for 1 s: the
  probes equal the 1-rank run's to the contact solver's tolerance (stated at each case below);
- everything not yet distributed is refused before anything is computed: one line on stderr,
  exit 2, nothing written (compliance strategies other than exact, the once and fast
  linearizations, the haptic loop, the co-rotated kinematics, a command other than
  `run`);
- under mpiexec fcsim leaves Open MPI's start-up alone (src/core/mpienv.c prepares only a
  singleton): the runs start on an empty TMPDIR, and no fcsim-mpi-* session folder is made.
"""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from fctest import ROOT, FCSIM, figure, check, probes

CANT = os.path.join(ROOT, "cases", "cantilever.json")
BAR = os.path.join(ROOT, "cases", "bar_dynamic.json")
FLOOR = os.path.join(ROOT, "cases", "block_on_floor.json")
TWO = os.path.join(ROOT, "cases", "two_blocks.json")
RTOL = 1e-9

mpiexec = shutil.which("mpiexec")
check(mpiexec is not None, "mpiexec is installed (openmpi-bin, with petsc-dev: scripts/deps.sh)")
tmp = tempfile.mkdtemp(prefix="fcsim-test-mpi-")
tmpdir = os.path.join(tmp, "tmpdir")  # an empty TMPDIR for every process
os.makedirs(tmpdir)
# mpi_yield_when_idle: a rank waiting in a collective gives its core away instead of spinning; make
# check runs two tests at once on 2 cores, where the spinning ranks of -n 2 and -n 3 made this test
# take 5 min 40 s beside another test instead of 49 s (measured, doc/mpi.md)
env = dict(os.environ, TMPDIR=tmpdir, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
for k in list(env):  # no MPI setting of the caller's: the start-up as a user would have it
    if k.startswith("OMPI_MCA") or k.startswith("PMIX_"):
        del env[k]
env["OMPI_MCA_mpi_yield_when_idle"] = "1"  # after the clean-up above, which removed it when set before


def fcsim(n, args, timeout=600):
    # -q: Open MPI prints no banner of its own when a rank exits non-zero (fcsim's line is alone)
    pre = [] if n == 1 else [mpiexec, "-q", "-n", str(n)] + (["--oversubscribe"] if n > 2 else [])
    return subprocess.run(pre + [FCSIM] + args, cwd=tmp, capture_output=True, text=True, timeout=timeout, env=env)


def scales(cols):
    """The scale of each column: the largest |value| over the run of its probe's columns
    (tip_x, tip_y, tip_z share one: a vector's components are judged against its size)."""
    out = {}
    for h in cols:
        if h in ("step", "time"):
            continue
        base = h[:-2] if h[-2:] in ("_x", "_y", "_z") else h
        group = [g for g in cols if g == base or (g[:-2] == base and g[-2:] in ("_x", "_y", "_z"))]
        out[h] = max(abs(v) for g in group for v in cols[g])
    return out


def read_h5(run):
    import h5py
    with h5py.File(os.path.join(run, "run.h5"), "r") as f:
        ranks = int(f["fcsim"].attrs["ranks"])
        body = [b for b in sorted(f["bodies"].keys()) if "mesh/partition" in f["bodies/" + b]][0]  # the first partitioned body
        part = f["bodies/%s/mesh/partition" % body][()]
        nnodes = f["bodies/%s/mesh/X" % body].shape[0]
        nelems = f["bodies/%s/mesh/cells" % body].shape[0]
        fields = sorted(f["bodies/%s/fields" % body].keys())
        u = f["bodies/%s/fields/%s/displacement" % (body, fields[-1])][()]
    return ranks, part, nnodes, nelems, len(fields), u


def h5_walk(path):
    """Every group and dataset of a run.h5: {path: (kind, link order or array, attributes)}."""
    import h5py
    import numpy
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            attrs = {k: obj.attrs[k] for k in obj.attrs}
            if isinstance(obj, h5py.Group):
                out[name] = ("group", list(obj.keys()), attrs)
            else:
                text = h5py.check_string_dtype(obj.dtype) is not None
                out[name] = ("dataset", numpy.asarray(obj[()]), attrs, "str" if text else obj.dtype.str, obj.shape)
        visit("/", f)
        f.visititems(visit)
    return out


def h5py_file(path):
    import h5py
    return h5py.File(path, "r")


def attr_equal(x, y, rtol):
    """Attributes: strings and integers equal; a real (the verdict's drops, computed from the
    probes) to rtol of its own size."""
    import numpy as np
    x, y = np.asarray(x), np.asarray(y)
    if x.dtype.kind == "f" and y.dtype.kind == "f" and x.shape == y.shape:
        return bool((np.abs(x - y) <= rtol * np.maximum(np.abs(x), np.abs(y))).all())
    return np.array_equal(x, y)


def compare_h5(name, n, ref, run, rtol, probe_scale, frame_ties=False):
    """run.h5 of n ranks against the 1-rank file, every group, dataset and attribute (doc/mpi.md
    "Outputs"): the same paths in the same link order, shapes, types and attributes; integers and
    strings equal (but for what records the ranks: /fcsim@ranks, @command_line, mesh/partition), a
    real attribute (the verdict's) to rtol of its size;
    reals to rtol of their scale -- a field's the largest |value| of that field over the run's
    output steps (as a probe's; a contact gap's: the displacements', a velocity's at least the
    displacement's over dt), a probe column's its probe scale. /stats holds the step's
    statistics: its columns and row steps and times equal, its values are timings and round-off
    (the final residuals) and are not compared, as stats.csv."""
    import numpy as np
    import re
    a, b = h5_walk(os.path.join(ref, "run.h5")), h5_walk(os.path.join(run, "run.h5"))
    check(sorted(a) == sorted(b), "%s, %d ranks: run.h5 has the 1-rank file's groups and datasets (only 1 rank: %s, only %d: %s)" % (name, n, sorted(set(a) - set(b))[:5], n, sorted(set(b) - set(a))[:5]))
    scale = {}  # the run's scale of each field: bodies/<b>/fields/*/<f> and contacts/*/<f>
    for k, v in a.items():
        if v[0] == "dataset" and v[3] != "str" and v[1].dtype.kind == "f" and v[1].size:
            key = re.sub(r"/\d{6}/", "/*/", k)
            scale[key] = max(scale.get(key, 0.0), float(np.abs(v[1]).max()))
    # a gap is a difference of positions: its error is that of the displacements, its scale theirs
    # (the gaps of the contacts that carry force are ~1e-12 m, round-off of the contact solve);
    # a velocity is a difference of displacements over the time step (v = (u1 - u0)/dt, both
    # integrators), its error that of u over dt: the scale of a body's velocity is at least its
    # displacement's over dt (the arch at rest has velocities of 1e-13 m/s, round-off)
    import json
    with h5py_file(os.path.join(ref, "run.h5")) as f:
        dt = json.loads(f["fcsim/case_json"][()])["time"]["dt"]
    scale["contacts/*/gap"] = max([scale.get("contacts/*/gap", 0.0)] + [v for k, v in scale.items() if k.endswith("/*/displacement")])
    for k in [k for k in scale if k.endswith("/*/displacement")]:
        kv = k[:-len("displacement")] + "velocity"
        scale[kv] = max(scale.get(kv, 0.0), scale[k] / dt)
    # A contact's local frame (normal, t1, t2; r_local, the force in it) is that of the target face
    # its point projects on. A point on the edge between two faces of one flat side projects on
    # either (a tie that round-off breaks, the same on every rank count but not between them:
    # detection keeps the face it had, doc/collide.md): both frames are right, and they differ by
    # the angle between the two faces, which the deformation opened, at most the bodies' largest
    # rotation, ~ max|u| / the body's size. Where a case has such ties (frame_ties: the arch, whose
    # blocks' flat sides touch edge on edge; the normals of 2 ranks differed from 1 rank's by 6e-6:
    # contacts 68 and 69 of its first output step have the 1-rank normals exchanged; max|u|/size
    # 7e-5) the frame is compared to that bound, elsewhere to rtol; the contact's
    # position, gap and world force (frame-independent) always to rtol above.
    FRAME = ("contacts/*/normal", "contacts/*/t1", "contacts/*/t2", "contacts/*/r_local")
    rot = 0.0
    with h5py_file(os.path.join(ref, "run.h5")) as f:
        for bname in f["bodies"]:
            X = f["bodies/%s/mesh/X" % bname][()]
            size = float((X.max(axis=0) - X.min(axis=0)).max())
            rot = max([rot] + [float(np.abs(g["displacement"][()]).max()) / size for g in f["bodies/%s/fields" % bname].values()])
    for k in ("contacts/*/normal", "contacts/*/t1", "contacts/*/t2"):
        scale[k] = 1.0  # unit vectors
    scale["contacts/*/r_local"] = scale.get("contacts/*/force", 0.0)
    wframe = 0.0
    worst, where, nreal, bad = 0.0, "", 0, []
    for k in sorted(a):
        x, y = a[k], b[k]
        skip = {"ranks", "command_line"} if k == "fcsim" else set()
        if k == "fcsim/petsc_options_unused":
            continue  # what the ranks read differs (the views act on several only): compare() checks it
        if x[0] != y[0] or sorted(x[2]) != sorted(y[2]) or any(not attr_equal(x[2][t], y[2][t], rtol) for t in x[2] if t not in skip):
            bad.append(k + " (kind or attributes)")
        elif x[0] == "group":
            if x[1] != y[1]:
                bad.append(k + " (link order)")
        elif k.endswith("mesh/partition"):
            pass  # (ranks, 2): checked by read_h5
        elif x[3] != y[3] or x[4] != y[4]:
            bad.append(k + " (type or shape)")
        elif k.startswith("stats/") and k not in ("stats/step", "stats/time", "stats/columns"):
            pass
        elif x[3] == "str" or x[1].dtype.kind != "f" or k.endswith("/time"):
            if not np.array_equal(x[1], y[1]):
                bad.append(k + " (not equal)")
        else:
            key = re.sub(r"/\d{6}/", "/*/", k)
            sc = probe_scale.get(k[len("probes/"):], 0.0) if k.startswith("probes/") else scale.get(key, 0.0)
            d = float(np.abs(x[1] - y[1]).max()) / (sc or 1.0) if x[1].size else 0.0
            if key in FRAME:
                wframe = max(wframe, d)
                continue
            nreal += 1
            if d > worst:
                worst, where = d, k
    check(not bad, "%s, %d ranks: run.h5's %d groups and datasets have the 1-rank link order, types, shapes and attributes, its integers and strings equal (%s)" % (name, n, len(a), bad[:5]))
    figure("%s: %d ranks vs 1: run.h5, %d datasets of reals: max |difference| / scale <= 1e%d at %s (tolerance %g)" % (name, n, nreal, math.ceil(math.log10(worst)) if worst > 0 else -99, where, rtol))
    check(worst <= rtol, "%s, %d ranks: every dataset of reals in run.h5 equals the 1-rank file's to %g of its scale (%.2e at %s)" % (name, n, rtol, worst, where))
    if "contacts" in a:
        tol = max(rtol, rot) if frame_ties else rtol
        figure("%s: %d ranks vs 1: run.h5, the contacts' frames (normal, t1, t2, r_local): max |difference| / scale <= 1e%d (tolerance %s)" % (
            name, n, math.ceil(math.log10(wframe)) if wframe > 0 else -99, "max|u|/size = %.1e" % rot if frame_ties else "%g" % rtol))
        check(wframe <= tol, "%s, %d ranks: the contacts' frames in run.h5 equal the 1-rank ones to %.1e (%.2e)" % (name, n, tol, wframe))
    with open(os.path.join(ref, "run.xdmf")) as f1, open(os.path.join(run, "run.xdmf")) as f2:
        check(f1.read() == f2.read(), "%s, %d ranks: run.xdmf is the 1-rank file (one dataset per body)" % (name, n))


G = 9  # the view's groups per rank (below)


def ghost_checked(name, n, err, fewer=False, total=False):
    """-fc_contact_ranks_check_ghost (doc/mpi.md "Contact"): each rank's narrow phase against its
    ghosted targets (the faces in reach of its contactor points, in a tree of their own) compared, record by record and bit for bit, with the same points against the whole target
    surface, at every correction of the run: none may differ, and the ghosted trees must hold
    fewer faces than the whole surfaces (the view's last correction)."""
    chk = [x for x in err.splitlines() if x.startswith("fcsim: contact ranks ghost check:")][-1:]
    nums = [int(w) for w in chk[0].replace(",", " ").split() if w.isdigit()] if chk else []
    figure("%s, %d ranks: detections against ghosted targets compared with the whole surface's over the run: %s" % (name, n, chk[0].split("check: ", 1)[1] if chk else "none"))
    check(len(nums) == 2 and nums[0] > 0 and nums[1] == 0, "%s, %d ranks: the detections against ghosted targets are the whole surface's bit for bit (%s)" % (name, n, chk))
    hold = [x for x in err.splitlines() if x.startswith("fcsim: contact ranks hold")][-1:]
    f = hold[0].split(":")[-1].split() if hold else []
    faces = [[int(y) for y in f[G * i + 1].split("/")] for i in range(len(f) // G)]
    figure("%s, %d ranks: target faces per rank, in reach/ghosted/whole (last correction): %s" % (name, n, " ".join(f[G * i + 1] for i in range(len(f) // G))))
    check(len(faces) == n and all(len(x) == 3 and x[0] <= x[1] < x[2] for x in faces), "%s, %d ranks: each rank's ghosted targets hold fewer faces than the whole surfaces (%s)" % (name, n, faces))
    detection_received(name, n, hold[0] if hold else "", f, total)
    r_sent(name, n, f, fewer)


def detection_received(name, n, hold, f, total):
    """What a rank receives for detection (doc/mpi.md "Contact"; the view's eighth group per rank,
    "places/boxes": reals of node places that other ranks own, then of boxes and sizes): before,
    every rank received every partitioned body's whole u (the header's DoFs) at every correction.
    Now no rank other than 0 receives the places of as many DoFs as the whole bodies hold, and where
    the bodies are large against the boxes (total: two_blocks) not as many reals in all either (the
    arch's 25 blocks of 12 nodes, each split over every rank, next to every rank's points: a rank
    receives nearly every node it does not own, and the boxes, 6 reals per block and rank, make the
    total more than the whole u: doc/mpi.md)."""
    whole = int(hold.split("partitioned bodies' DoFs: ")[1].split(";")[0]) if "DoFs: " in hold else -1
    det = [[int(y) for y in f[G * i + 7].split("/")] for i in range(len(f) // G)]
    figure("%s, %d ranks: reals received for detection per rank, places/boxes (last correction; before: the whole u, %d each): %s" % (name, n, whole, " ".join("%d/%d" % tuple(x[:2]) for x in det)))
    check(len(det) == n and whole > 0 and all(det[i][0] < whole for i in range(1, n)), "%s, %d ranks: no rank other than 0 receives the places of the whole bodies for detection (%s of %d)" % (name, n, det, whole))
    if total:
        check(all(sum(det[i][:2]) < whole for i in range(1, n)), "%s, %d ranks: each rank other than 0 receives fewer reals for detection than the whole bodies' DoFs (%s of %d)" % (name, n, det, whole))
    surfaces_held(name, n, f, det)


def surfaces_held(name, n, f, det):
    """No whole target surface on a rank other than 0 (issue 29: "candidate target faces ghosted
    within the search radius, never whole surfaces on every rank"; doc/mpi.md "Contact"): the view's
    last group per rank, "catalogue-faces-held/whole", is the target surfaces' faces its catalogue
    holds — rank 0 the whole surfaces (it builds the list), another rank only the faces whose
    corner 0 it owns (FcContactPairsShed: it freed the whole triangles and trees) — and the third
    number of the eighth group the faces whose topology it received from their owners at the last
    correction (4 ints each): its detection reads no face but those and its own. Before, every rank
    held every whole target surface and its tree."""
    cat = [[int(y) for y in f[G * i + 8].split("/")] for i in range(len(f) // G)]
    figure("%s, %d ranks: target faces held by the contact catalogue per rank, held/whole: %s; faces received for detection (last correction): %s" % (name, n, " ".join("%d/%d" % tuple(x) for x in cat), " ".join(str(x[2]) for x in det)))
    check(len(cat) == n and cat[0][0] == cat[0][1] > 0 and all(0 < cat[i][0] < cat[i][1] == cat[0][1] for i in range(1, n)),
          "%s, %d ranks: rank 0's catalogue holds the whole target surfaces, every other rank's only its own faces (%s)" % (name, n, cat))
    check(len(det) == n and det[0][2] == 0 and all(0 < det[i][2] < cat[i][1] for i in range(1, n)),
          "%s, %d ranks: each rank other than 0 receives some faces for detection, fewer than the whole surfaces (%s)" % (name, n, det))


def r_sent(name, n, f, fewer):
    """r sent only to the ranks its contacts touch (doc/mpi.md "Contact"): in the view's fifth group
    per rank, "r-contacts-received/bytes", rank 0 (which solved) holds all m contacts and received
    nothing, every other rank received the r (3 reals) of exactly the contacts whose rows of W its
    share touches ("W-rows-touched": an entry of H on a DoF it owns), counted by the view from H
    and the ownership, apart from the scatter's own graph. Where some contact has no DoF on a
    rank (fewer: the arch at 3 ranks), that rank receives fewer than m: before, every rank got
    the whole r and u (6 m reals)."""
    v = [[int(y) for y in x.split("/")] for x in f]
    m = v[0][1] if v else -1
    recv = [v[G * i + 4] for i in range(len(v) // G)]
    figure("%s, %d ranks: r received per rank, contacts/bytes (of m = %d; before: every rank but 0 got r and u, 48 m bytes): %s" % (name, n, m, " ".join("%d/%d" % tuple(x) for x in recv)))
    check(len(v) == G * n and recv[0] == [m, 0] and all(recv[i] == [v[G * i + 2][0], 24 * v[G * i + 2][0]] for i in range(1, n)),
          "%s, %d ranks: each rank other than 0 receives the r of exactly the contacts it touches (%s)" % (name, n, f))
    check(not fewer or all(recv[i][0] < m for i in range(1, n)), "%s, %d ranks: each rank other than 0 receives fewer than the m = %d contacts' r (%s)" % (name, n, m, recv))
    # q is rank 0's (its solve's): the free increment and rate at the contacts' DoFs go to rank 0
    # alone; before, every rank gathered both vectors of every body whole
    q = [v[G * i + 5][0] for i in range(len(v) // G)]
    figure("%s, %d ranks: reals of dx and rate received for q per rank: %s" % (name, n, " ".join(map(str, q))))
    check(len(q) == n and q[0] > 0 and q[0] % 6 == 0 and not any(q[1:]), "%s, %d ranks: only rank 0 receives dx and rate for q, whole nodes (%s)" % (name, n, q))
    held(name, n, v, m, fewer)


def held(name, n, v, m, fewer):
    """The contact list held by its ranks (doc/mpi.md "Contact"): in the view's seventh group per
    rank, "list-contacts-held/bytes-received", rank 0 (which builds the list from every detection and
    solves) holds all m contacts; every other rank exactly the contacts its share touches (the fourth
    group's W-rows-touched, counted by the view from that rank's H and the ownership) and received
    bytes for them. Before, every rank held the whole list (m), received every other rank's
    detection records, and its H, r and u were sized by m."""
    lst = [v[G * i + 6] for i in range(len(v) // G)]
    figure("%s, %d ranks: contact list held per rank, contacts/bytes received (of m = %d): %s" % (name, n, m, " ".join("%d/%d" % tuple(x) for x in lst)))
    check(len(lst) == n and lst[0][0] == m and all(lst[i][0] == v[G * i + 2][0] and lst[i][1] > 0 for i in range(1, n)),
          "%s, %d ranks: rank 0 holds the whole contact list, every other rank exactly the contacts it touches (%s)" % (name, n, lst))
    check(not fewer or all(lst[i][0] < m for i in range(1, n)), "%s, %d ranks: each rank other than 0 holds fewer than the m = %d contacts (%s)" % (name, n, m, lst))


def compare(name, case, extra, rtol=RTOL, frame_ties=False, ghost=False, fewer=(), total=False):
    ref = os.path.join(tmp, name + "-1")
    # the views' options on 1 rank too (they do nothing there): run.h5 records the options
    views = ["-fc_contact_ranks_view", "-fc_contact_ranks_check_ghost"] if ghost else []
    p = fcsim(1, ["run", case, "-q", "-o", ref] + extra + views)
    check(p.returncode == 0, "%s, 1 rank: exit 0 (%d: %s)" % (name, p.returncode, p.stderr.strip()[-300:]))
    # the options no rank read are a warning each (a case's options for another solver: the arch's
    # sap settings, kept for its study over solvers); on 1 rank the views as well
    WARN = "fcsim: warning: option "
    w1 = sorted(x for x in p.stderr.splitlines() if x.startswith(WARN) and not any(x.startswith(WARN + v + " ") for v in views))
    a = probes(ref)
    sc = scales(a)
    r1 = read_h5(ref)
    for n in (2, 3):
        run = os.path.join(tmp, "%s-%d" % (name, n))
        p = fcsim(n, ["run", case, "-q", "-o", run] + extra + views)
        check(p.returncode == 0, "%s, %d ranks: exit 0 (%d: %s)" % (name, n, p.returncode, p.stderr.strip()[-300:]))
        rest = "\n".join(x for x in p.stderr.splitlines() if not x.startswith("fcsim: contact ranks") and not x.startswith(WARN))
        check(rest.strip() == "", "%s, %d ranks: nothing on stderr with -q but the views asked for (%r)" % (name, n, rest[:200]))
        wn = sorted(x for x in p.stderr.splitlines() if x.startswith(WARN))
        check(wn == w1, "%s, %d ranks: the warnings about unused options are the 1-rank run's but the views' (%s)" % (name, n, wn))
        if ghost:
            ghost_checked(name, n, p.stderr, n in fewer, total)
        b = probes(run)
        check(list(b) == list(a) and len(b["step"]) == len(a["step"]), "%s, %d ranks: probes.csv has the 1-rank columns and rows" % (name, n))
        worst, col = 0.0, ""
        for h in sc:
            d = max(abs(x - y) for x, y in zip(a[h], b[h])) / (sc[h] or 1.0)
            if d > worst:
                worst, col = d, h
        # the decade, not the digits: on several ranks the sums of the assembly and of MUMPS come in
        # the order messages arrive, so the round-off differs from run to run (doc/mpi.md)
        figure("%s: %d ranks vs 1: max |probe difference| / probe scale <= 1e%d (tolerance %g)" % (name, n, math.ceil(math.log10(worst)) if worst > 0 else -99, rtol))
        check(worst <= rtol, "%s, %d ranks: probes equal the 1-rank run's to %g of their scale (%.2e at %s)" % (name, n, rtol, worst, col))
        with open(os.path.join(ref, "stats.csv")) as f1, open(os.path.join(run, "stats.csv")) as f2:
            s1, s2 = f1.read().splitlines(), f2.read().splitlines()
        check(s1[0] == s2[0] and len(s1) == len(s2), "%s, %d ranks: stats.csv has the 1-rank header and %d rows" % (name, n, len(s1) - 1))
        ranks, part, nnodes, nelems, nout, u = read_h5(run)
        check(ranks == n and part.shape == (n, 2), "%s, %d ranks: run.h5 records %d ranks and a partition of %d rows (%s)" % (name, n, ranks, part.shape[0], part.tolist()))
        # every rank owns nodes; a rank may integrate no element of a tiny body (an arch block of 12
        # nodes: an element is integrated by the owner of its first node)
        check(int(part[:, 0].sum()) == nnodes and int(part[:, 1].sum()) == nelems and part[:, 0].min() > 0 and part[:, 1].min() >= 0, "%s, %d ranks: the partition covers the %d nodes and %d elements, every rank some nodes (%s)" % (name, n, nnodes, nelems, part.tolist()))
        check(nout == r1[4], "%s, %d ranks: run.h5 has the 1-rank run's %d output steps" % (name, n, r1[4]))
        du = abs(u - r1[5]).max() / (abs(r1[5]).max() or 1.0)
        check(du <= rtol, "%s, %d ranks: the last displacement field in run.h5 equals the 1-rank one (%.2e of max|u|)" % (name, n, du))
        compare_h5(name, n, ref, run, rtol, sc, frame_ties)
        with h5py_file(os.path.join(ref, "run.h5")) as f1, h5py_file(os.path.join(run, "run.h5")) as f2:
            u1 = sorted(x.decode() for x in f1["fcsim/petsc_options_unused"][()])
            u2 = sorted(x.decode() for x in f2["fcsim/petsc_options_unused"][()])
        # recorded: the options it warned about and, unwarned, another contact solver's parameters
        # (the arch's sap ones under newton: FcContactSolverDormantOptions)
        dormant = [x for x in u2 if x.startswith("-fc_contact_solver_") and not any(x in l for l in wn)]
        check(u1 == sorted(u2 + views) and len(u2) == len(wn) + len(dormant),
              "%s, %d ranks: run.h5 records the options it warned about, another solver's parameters unwarned, and on 1 rank the views (%s; %d ranks: %s)" % (name, n, u1, n, u2))
    check(r1[0] == 1 and r1[1].tolist() == [[r1[2], r1[3]]], "%s, 1 rank: run.h5 records 1 rank holding everything (%s)" % (name, r1[1].tolist()))


def refused(label, args, subs):
    target = os.path.join(tmp, "refused")
    p = fcsim(2, args + (["-o", target] if args[0] == "run" else []))
    err = p.stderr.strip().splitlines()
    figure("mpiexec -n 2 %s: exit %d, '%s'" % (label, p.returncode, err[0][:110] if err else ""))
    check(p.returncode == 2 and len(err) == 1 and all(s in err[0] for s in subs), "%s on 2 ranks: exit 2, one line naming %s (%d: %s)" % (label, subs, p.returncode, err[:3]))
    check(not os.path.exists(target), "%s on 2 ranks: nothing written" % label)


compare("cantilever", CANT, [])
compare("bar_dynamic", BAR, ["--set", "time.t_end=0.02"])
# the assembly reads u at its elements' nodes only (src/fem/assembly.c UAccess: the rank's own DoFs
# and the ghosts, doc/mpi.md "Design"), not a copy of all of u: each rank's count (PetscInfo, one
# line per assembly) below the body's DoFs, and together at least all of them (every node is in
# some rank's element); the probes above are the 1-rank ones with it
p = fcsim(3, ["run", CANT, "-q", "-o", os.path.join(tmp, "ghost-u"), "-info", ":sys"])
seen = {}
for x in p.stdout.splitlines() + p.stderr.splitlines():
    if "u at the nodes of this rank's elements:" in x:
        w = x.split("elements:")[1].split()
        seen[x.split("]")[0].strip("[ ")] = (int(w[0]), int(w[2]))
figure("cantilever, 3 ranks: u read by the assembly per rank, of the body's DoFs: %s" % " ".join("%d/%d" % seen[r] for r in sorted(seen)))
check(p.returncode == 0 and len(seen) == 3 and all(k < n for k, n in seen.values()) and sum(k for k, n in seen.values()) >= max(n for k, n in seen.values()),
      "cantilever, 3 ranks: each rank's assembly reads u at its elements' nodes only, fewer than all DoFs, together all of them (%s)" % seen)
# the mesh trimmed (src/fem/assembly.c FcAssemblyTrim, doc/mpi.md "Meshes on several ranks"): after
# the set-up, ranks 1 and 2 keep of the beam (no contact) only the elements they assemble and their
# nodes; rank 0 keeps the whole mesh (it writes it). Together the ranks other than 0 hold fewer
# elements than the mesh, each fewer nodes; the probes and run.h5 above are the 1-rank ones with it
trim = {}
for x in p.stdout.splitlines() + p.stderr.splitlines():
    if "trimmed on this rank:" in x:
        w = x.split("rank:")[1].replace(",", "").split()
        trim[x.split("]")[0].strip("[ ")] = (int(w[0]), int(w[2]), int(w[4]), int(w[6]))
figure("cantilever, 3 ranks: mesh held after the set-up by ranks 1, 2 (nodes/whole elements/whole): %s; rank 0 whole" %
       " ".join("%d/%d %d/%d" % trim[r] for r in sorted(trim)))
check(p.returncode == 0 and sorted(trim) == ["1", "2"] and all(k < n and e < ne for k, n, e, ne in trim.values()) and
      sum(e for k, n, e, ne in trim.values()) < max(ne for k, n, e, ne in trim.values()),
      "cantilever, 3 ranks: ranks 1 and 2 keep only their elements' part of the mesh, rank 0 the whole (%s)" % trim)
# the distributed set-up (src/mesh/mesh_part.c, src/fem/assembly.c FcAssemblyPartitionParted; doc/mpi.md
# "The distributed set-up"): ranks 1 and 2 never hold the whole mesh, they receive from rank 0 only the
# header and their part (the elements with a node they own), before the trim above
part = {}
for x in p.stdout.splitlines() + p.stderr.splitlines():
    if "this rank's part," in x:
        w = x.split("part,")[1].split()
        part[x.split("]")[0].strip("[ ")] = (int(w[0]), int(w[2]), int(w[5]), int(w[7]))
figure("cantilever, 3 ranks: mesh received by ranks 1, 2 in the set-up (nodes/whole elements/whole): %s; rank 0 reads it whole" %
       " ".join("%d/%d %d/%d" % part[r] for r in sorted(part)))
check(sorted(part) == ["1", "2"] and all(k < n and e < ne for k, n, e, ne in part.values()),
      "cantilever, 3 ranks: ranks 1 and 2 receive only their part of the mesh, never the whole (%s)" % part)
# the probes read their DoFs only (src/model/model.c ProbePicks_Private, FcVecPick): the tip node's 3
# and the fixed face's reactions, not u and the reactions gathered whole to every rank per probe and
# step (the probes above equal the 1-rank ones with it)
picks = [x.split("evaluation")[0].split("probes read")[1].split()[0] + " " + x.split("per probe:")[1].strip(" )") for x in p.stderr.splitlines() + p.stdout.splitlines() if "probes read" in x]
figure("cantilever, 3 ranks: reals each rank receives per probe evaluation: %s (before, the vectors gathered whole: %s)" % (picks[0].split()[0] if picks else "?", picks[0].split()[1] if picks else "?"))
check(len(picks) == 3 and all(int(x.split()[0]) * 10 <= int(x.split()[1]) for x in picks),
      "cantilever, 3 ranks: every rank's probes receive their DoFs only, under a tenth of the whole vectors (%s)" % picks)
# a nonlinear material in large deformation (tip 0.74 m on a 1 m beam), gravity, a pressure and a
# prescribed displacement: every Newton step converges quadratically to a relative residual of
# ~1e-13 on either side (stats.csv), so both runs sit within cond(A) x 1e-13 of one solution
compare("neohookean", CANT, ["--set", 'bodies[0].material={"model":"neohookean","E":1e6,"nu":0.3,"density":1000}', "--set", "gravity=[0,0,-9.81]",
                             "--set", 'bodies[0].loads=[{"group":"tip","pressure":2000,"ramp":"linear"}]',
                             "--set", 'bodies[0].boundary=[{"group":"fixed","displacement":[0.01,0,0],"ramp":"linear"}]', "--set", "bodies[0].mesh.order=1"])
# Contact (doc/mpi.md "Contact"): detection by the owner of the contactor node, gathered to every
# rank (the contact list and H alike on every rank), W by distributed solves gathered to rank 0 as rows and
# solved there, its solution broadcast. The tolerance of a case is
# its solvers': where the contact solve stops at its tol (the common error), round-off in W moves
# its last iterate, hence r, by about that tol; the rest is the round-off above.
# A deformable block on a rigid plane (backward Euler, nsgs tol 1e-10 on the common error: the
# nsgs sweeps from the same warm start differ only by W's round-off; measured 5e-11 over 100 steps)
compare("block_on_floor", FLOOR, ["--set", "time.t_end=0.1"])
# the cylinder press (tet10, Mooney-Rivlin, the inertia correction's penalty rows, lemke: exact
# pivoting, so r is W's round-off from the 1-rank one; measured 3e-16)
compare("cylinder_press", os.path.join(ROOT, "cases", "cylinder_press.json"), ["--set", "time.t_end=0.05"])
# two deformable bodies, both passes: each body partitioned on its own, so the contact surface of
# each is split across the ranks (checked below with -fc_contact_ranks_view); nsgs
compare("two_blocks", TWO, [], ghost=True, total=True)
# compliance "precomputed" on several ranks: C_b = P_b^T A_b^-1 P_b from the first factorization by
# distributed solves, gathered to rank 0, which forms every row of W from it (src/compliance/
# precomputed.c); the correction is the distributed solve of exact. The same tolerance as exact's
# (nsgs tol 1e-10 on the common error, W's round-off from another order of the sums)
compare("two_blocks_precomputed", TWO, ["--set", 'compliance.type="precomputed"'])
# a dynamic rigid plate (prismatic joint, replicated on every rank) pressing the cylinder, sap at
# rtol 1e-10: its stopping point moves by about that (measured 3e-10); tolerance 1e-8
compare("cylinder_press_force", os.path.join(ROOT, "cases", "cylinder_press_force.json"), ["--set", "time.t_end=10"], rtol=1e-8)
# the masonry arch for 1 s (25 deformable blocks, two rigid supports, both passes, newton contact
# solver): at the case's tol 1e-10 the runs differed by 1.2e-8 to 9e-8 (the contact solve's
# stopping point amplified ~100 by W's conditioning: too close to any tolerance that says so), at
# tol 1e-13 by 1.4e-10; compared at tol 1e-13, tolerance 1e-8 (the same amplification of 1e-13
# with a margin of 100 for the round-off of the W sums)
# (frame_ties: its contacts' frames in run.h5, compare_h5)
compare("masonry_arch", os.path.join(ROOT, "cases", "masonry_arch.json"), ["--set", "time.t_end=1", "--set", "contact_solver.tol=1e-13"], rtol=1e-8, frame_ties=True, ghost=True, fewer=(3,))
# mortar contact (HapCo benchmark 1, 37 quasi-static steps, mu 0.3): of a mortar pass a contact's
# frame is made after its detection record, so a rank other than 0 receives its own contacts whole
# and puts their frames into the records its next detection continues (contact_mpi.c
# MortarPrev_Private); measured 3.4e-12 / 2.4e-12, and 1.3e-7 with that step left out
compare("hapco_bench1_mortar", os.path.join(ROOT, "cases", "hapco_bench1.json"), [])
# rigid bodies driven by a device log, replicated like every rigid body: each rank reads the log.
# Courtecuisse's Fig. 4 instrument replaying its log (nsgs tol 1e-10 as block_on_floor; the
# instrument touches the cube from 0.37 s; measured 7e-14 over 0.6 s), and haptic_probe's tool
# coupled to its device by a spring (a free rigid body, nsgs; measured 6e-14 over 0.5 s) without the
# haptic loop, which stays on one process (refused below)
compare("cube_instrument", os.path.join(ROOT, "cases", "cube_instrument.json"), ["--set", "time.t_end=0.45"])
coupled = json.load(open(os.path.join(ROOT, "cases", "haptic_probe.json")))
del coupled["haptic"]
coupled["bodies"][0]["mesh"]["file"] = os.path.join(ROOT, "meshes", "probe_block.geo")
coupled["bodies"][1]["motion"]["coupling"]["file"] = os.path.join(ROOT, "cases", "trajectories", "stylus_press_slide_openhaptics.csv")
with open(os.path.join(tmp, "coupled.json"), "w") as f:
    json.dump(coupled, f)
compare("haptic_probe_coupled", os.path.join(tmp, "coupled.json"), ["--set", "time.t_end=0.3"])
for n in (2, 3):
    p = fcsim(n, ["run", TWO, "-q", "-o", os.path.join(tmp, "split-%d" % n), "-fc_contact_ranks_view"] + (["-info", ":sys"] if n == 3 else []))
    if n == 3:
        # with contact too, the distributed set-up (doc/mpi.md "Meshes on several ranks"): ranks 1
        # and 2 receive only their part of each body's mesh and make their contact catalogue from it
        # (src/model/contact_pairs.c SetFromPart_Private); the comparisons above (compare(), the
        # ghost check) are those runs
        cpart = {}
        for x in p.stdout.splitlines() + p.stderr.splitlines():
            if "this rank's part," in x:
                w = x.split("part,")[1].split()
                cpart[(x.split("]")[0].strip("[ "), x.split("mesh ")[1].split(":")[0])] = (int(w[0]), int(w[2]), int(w[5]), int(w[7]))
        figure("two_blocks, 3 ranks: meshes received by ranks 1, 2 in the set-up (nodes/whole elements/whole): %s; rank 0 reads them whole" %
               " ".join("%s:%s %d/%d %d/%d" % ((r, os.path.basename(m)) + cpart[(r, m)]) for r, m in sorted(cpart)))
        check(sorted(set(r for r, m in cpart)) == ["1", "2"] and len(cpart) == 4 and all(k < n_ and e < ne for k, n_, e, ne in cpart.values()),
              "two_blocks, 3 ranks: with contact, ranks 1 and 2 receive only their part of each mesh, never the whole (%s)" % cpart)
    last = [x for x in p.stderr.splitlines() if x.startswith("fcsim: contact ranks:")][-1:]
    owned = [int(x) for x in last[0].split(":")[-1].split()] if last else []
    figure("two_blocks, %d ranks: contacts carrying force by the rank of their contactor node: %s" % (n, owned))
    check(p.returncode == 0 and len(owned) == n and min(owned) > 0, "two_blocks, %d ranks: every rank owns contactor nodes of contacts that carry force: the contact surface is split (%s)" % (n, last))
    # what each rank holds (the view's second line, after the whole W's reals, per rank
    # "detected/m faces-in-reach/ghosted/whole W-rows-touched/W-rows-held W-reals-held/bytes-sent
    # r-contacts-received/bytes q-reals-received list-contacts-held/bytes-received
    # detection-places/boxes-reals-received"):
    # each contact detected by exactly one rank (its contactor node's owner); W gathered to rank 0
    # as rows: rank 0 holds all of W's rows (its reals: the whole W), every other rank exactly the
    # rows its share touches, in at most 9 m reals per row (+ one scratch block), and sends those
    hold = [x for x in p.stderr.splitlines() if x.startswith("fcsim: contact ranks hold")][-1:]
    f = hold[0].split(":")[-1].split() if hold else []
    whole = int(hold[0].split("W whole: ")[1].split()[0]) if hold else -1
    v = [[int(y) for y in x.split("/")] for x in f]
    figure("two_blocks, %d ranks: per rank detected/contacts faces-in-reach/ghosted/whole W-rows-touched/W-rows-held W-reals-held/bytes-sent: %s" % (n, " | ".join(" ".join(f[G * i:G * i + 4]) for i in range(len(f) // G))))
    m = v[0][1] if v else -1
    check(len(v) == G * n and sum(v[G * i][0] for i in range(n)) == m and min(v[G * i][0] for i in range(n)) > 0,
          "two_blocks, %d ranks: every contact detected by one rank, every rank detecting some (%s)" % (n, hold))
    check(len(v) == G * n and all(v[G * i + 1][1] < v[G * i + 1][2] for i in range(n)), "two_blocks, %d ranks: each rank's narrow phase holds fewer target faces than the whole surfaces (%s)" % (n, hold))
    check(len(v) == G * n and v[2][1] == m and v[3] == [whole, 0] and all(v[G * i + 2][1] == v[G * i + 2][0] and 0 < v[G * i + 3][0] <= 9 * m * v[G * i + 2][1] + 9 and v[G * i + 3][1] > 8 * (v[G * i + 3][0] - 9) for i in range(1, n)),
          "two_blocks, %d ranks: W gathered to rank 0 as rows: rank 0 holds the whole W, each other rank only the rows its share touches, and sends them (%s)" % (n, hold))
    # the contact list held by its ranks (held(), from compare() above: rank 0 the whole list, every
    # other rank exactly its touched contacts); at 3 ranks rank 2's share touches fewer than m (18 of
    # 41 at the last correction)
    check(n == 2 or any(v[G * i + 6][0] < m for i in range(1, n)), "two_blocks, 3 ranks: a rank other than 0 holds fewer than the m = %d contacts (%s)" % (m, hold))
for strat in ("schur", "lagged"):
    refused("compliance " + strat, ["run", TWO, "-q", "--set", 'compliance.type="%s"' % strat], ["two_blocks.json", "compliance.type", strat, "one process"])
for lin in ("once", "fast"):
    refused("linearization " + lin, ["run", TWO, "-q", "--set", 'contact_step.linearization="%s"' % lin], ["two_blocks.json", "contact_step.linearization", lin, "one process"])
refused("the haptic loop", ["run", os.path.join(ROOT, "cases", "haptic_probe.json"), "-q"], ["haptic_probe.json", "haptic", "one process"])
refused("global_corotational", ["run", BAR, "-q", "--set", 'bodies[0].kinematics="global_corotational"', "--set", "bodies[0].boundary=[]"], ["bar_dynamic.json", "kinematics", "one process"])
refused("fcsim info", ["info", CANT], ["command line", "mpiexec", "fcsim info", "one process"])
# an input error found after meshing, which every rank raises: still one line (rank 0's)
refused("an unknown group", ["run", CANT, "-q", "--set", 'bodies[0].boundary[0].group="nosuch"'], ["cantilever.json", "bodies[0].boundary[0].group", "nosuch"])
# with contact, on distributed meshes: a contact group a rank's part does not hold is still every
# rank's error (the groups' names travel with the header), and an overlap at t = 0 is rank 0's
# finding (it holds the whole surfaces), raised by every rank
refused("an unknown contact group", ["run", TWO, "-q", "--set", 'contacts[0].target_surface="nosuch"'], ["two_blocks.json", "contacts[0].target_surface", "nosuch"])
refused("an overlap at t = 0", ["run", os.path.join(ROOT, "tests", "bad", "case", "overlap_t0.json"), "-q"], ["overlap_t0.json", "contacts[0]", "largest penetration 0.1 m"])
# a PETSc option of the wrong kind or type, which every rank raises alike in its solver's set-up:
# one line (rank 0's), exit 2, the case's JSON path when the case set it
refused("an unknown KSP type", ["run", CANT, "-q", "-ksp_type", "cgg"], ["options", "-ksp_type", "'cgg'"])
refused("a case's option not a number", ["run", CANT, "-q", "--set", 'petsc.ksp_type="cg"', "--set", 'petsc.ksp_rtol="abc"'], ["cantilever.json", "petsc.ksp_rtol", "'abc' is not a number"])
# item 3 (a study whose runs start under a launcher): tests/integration/test_study_mpiexec.py
left = os.listdir(tmpdir)
check(not [x for x in left if x.startswith("fcsim-mpi-")], "under mpiexec fcsim makes no session folder of its own in TMPDIR (%s)" % left)
shutil.rmtree(tmp, ignore_errors=True)
print("ok")
