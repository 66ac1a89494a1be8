#!/usr/bin/python3
"""Check an fcsim run directory against doc/output-format.md.

usage: check_output.py [--hdf5 | --no-hdf5] [--vtk | --no-vtk] RUNDIR

Checks run.h5 (h5py), run.xdmf (every HDF reference exists in run.h5 with the declared
Dimensions and number type), every legacy VTK file (own parser, ASCII and BINARY; counts, and
data equal to run.h5 within 1e-12), every vtk/<body>.vtk.series, probes.csv and stats.csv;
and the contact output when there is one (run.h5:/contacts, the "contacts" grid of run.xdmf,
vtk/contacts_<k>.vtk POLYDATA files and vtk/contacts.vtk.series).
By default the optional outputs (run.h5 + run.xdmf, vtk/) are checked when present;
--hdf5/--vtk require them, --no-hdf5/--no-vtk require their absence.

Exit 0 with one summary line, or 1 listing what failed. Used by the integration tests.
"""
import argparse
import csv
import json
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np

FORMAT_VERSION = 2
TOL = 1e-12
# VTK/XDMF tet10 edges of mid-edge nodes 4..9 (run.h5 stores cells in this order).
VTK_TET10_EDGES = [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
VTK_CELL_TYPE = {4: 10, 10: 24}  # VTK_TETRA, VTK_QUADRATIC_TETRA
XDMF_TOPOLOGY = {4: "Tetrahedron", 10: "Tetrahedron_10"}
STEP_NAME = re.compile(r"^\d{6,}$")
VTK_FILE_NAME = re.compile(r"^(.*)_(\d{6,})\.vtk$")
CONTACTS = "contacts"  # run.h5 group, run.xdmf grid and vtk/ base name of the contact output
CONTACT_VECTORS = ("x", "normal", "t1", "t2", "force", "r_local")
CONTACT_STATUS = (0, 1, 2)  # separated, stick, slip
# Frame-dependent identities (|n| = 1, force from r_local and the frame) hold to round-off of
# the frame, which the contact code builds orthonormal to ~1e-14.
FRAME_TOL = 1e-9
# run.xdmf attributes of a contact step: name -> (AttributeType, run.h5 dtype kind)
XDMF_CONTACT_ATTRS = {"force": ("Vector", "f8"), "normal": ("Vector", "f8"), "r_local": ("Vector", "f8"), "gap": ("Scalar", "f8"), "status": ("Scalar", "i8"), "pair": ("Scalar", "i8")}


class Failure(Exception):
    """A check that cannot go on (the rest of that file is skipped)."""


class Report:
    def __init__(self):
        self.failures = []

    def fail(self, msg):
        self.failures.append(msg)

    def check(self, cond, msg):
        if not cond:
            self.fail(msg)
        return cond


def close(a, b):
    """Arrays equal within TOL (relative to the magnitude of the data, absolute near 0)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    if a.size == 0:
        return True
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    ok = ~np.isnan(a)
    scale = max(1.0, float(np.max(np.abs(b[ok]), initial=0.0)))
    return bool(np.all(np.abs(a[ok] - b[ok]) <= TOL * scale))


def as_str(v):
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, np.ndarray) and v.shape == ():
        return as_str(v[()])
    return v


# --------------------------------------------------------------------------- run.h5


class H5Run:
    """What run.h5 holds, as far as the other files are compared with it."""

    def __init__(self):
        self.file = None
        self.ndatasets = 0
        self.bodies = {}  # name -> dict(nnodes, nelems, npe, etype)
        self.out_time = np.zeros(0)
        self.out_step = np.zeros(0, dtype=np.int64)
        self.tables = {}  # probes/stats -> dict(columns, step, time, cols{})
        self.contacts = None  # None: no contact output; else {k: number of contacts}


def check_dataset(rep, f, path, shape, kind):
    """Dataset at path with the given shape (None entries: any) and kind 'f8', 'i8' or 'str'."""
    obj = f.get(path)
    if obj is None or not hasattr(obj, "shape") or not hasattr(obj, "dtype"):
        rep.fail(f"run.h5: missing dataset {path}")
        return None
    if kind == "str":
        if not rep.check(obj.dtype.kind in "OS" and obj.shape == (), f"run.h5: {path} is not a scalar string"):
            return None
        return obj
    want = np.dtype("<" + kind)
    ok = rep.check(obj.dtype == want, f"run.h5: {path} has dtype {obj.dtype}, expected {want}")
    if len(obj.shape) != len(shape) or any(s is not None and s != g for s, g in zip(shape, obj.shape)):
        rep.fail(f"run.h5: {path} has shape {obj.shape}, expected {tuple('*' if s is None else s for s in shape)}")
        ok = False
    return obj if ok else None


def check_h5(rep, path):
    import h5py  # only needed when there is a run.h5

    h5 = H5Run()
    f = h5py.File(path, "r")
    h5.file = f

    def count(_name, obj):
        if isinstance(obj, h5py.Dataset):
            h5.ndatasets += 1

    f.visititems(count)

    g = f.get("fcsim")
    if rep.check(isinstance(g, h5py.Group), "run.h5: missing group /fcsim"):
        for a in ("version", "case_file", "command_line"):
            rep.check(a in g.attrs and isinstance(as_str(g.attrs[a]), str), f"run.h5: /fcsim attribute {a} missing or not a string")
        fv = g.attrs.get("format_version")
        rep.check(fv is not None and int(fv) == FORMAT_VERSION, f"run.h5: /fcsim format_version {fv}, expected {FORMAT_VERSION}")
        cj = check_dataset(rep, f, "/fcsim/case_json", (), "str")
        if cj is not None:
            text = as_str(cj[()])
            if text:
                try:
                    json.loads(text)
                except ValueError as e:
                    rep.fail(f"run.h5: /fcsim/case_json is not JSON: {e}")
        check_dataset(rep, f, "/fcsim/petsc_options", (), "str")

    t = check_dataset(rep, f, "/output/time", (None,), "f8")
    s = check_dataset(rep, f, "/output/step", (None,), "i8")
    if t is not None and s is not None:
        h5.out_time, h5.out_step = t[()], s[()]
        rep.check(h5.out_time.shape == h5.out_step.shape, "run.h5: /output/time and /output/step differ in length")
        rep.check(bool(np.all(np.diff(h5.out_time) >= 0)), "run.h5: /output/time decreases")
    nout = len(h5.out_time)

    bodies = f.get("bodies")
    if rep.check(isinstance(bodies, h5py.Group), "run.h5: missing group /bodies"):
        for name, b in bodies.items():
            check_h5_body(rep, f, name, b, nout, h5)

    for tab in ("probes", "stats"):
        check_h5_table(rep, f, tab, h5)
    if CONTACTS in f:
        check_h5_contacts(rep, f, h5)
    return h5


def case_npairs(f):
    """Number of contact pairs of the case (len of its contacts[]), or None if unknown."""
    try:
        case = json.loads(as_str(f["/fcsim/case_json"][()]))
    except (KeyError, ValueError, TypeError):
        return None
    pairs = case.get(CONTACTS) if isinstance(case, dict) else None
    return len(pairs) if isinstance(pairs, list) else None


def check_h5_contacts(rep, f, h5):
    import h5py

    g = f[CONTACTS]
    h5.contacts = {}
    if not rep.check(isinstance(g, h5py.Group), f"run.h5: /{CONTACTS} is not a group"):
        return
    rep.check(CONTACTS not in h5.bodies, f"run.h5: a body is named '{CONTACTS}', like the contact output")
    nout = len(h5.out_time)
    npairs = case_npairs(f)
    names = list(g.keys())
    bad = [n for n in names if not STEP_NAME.match(n) or int(n) >= nout]
    rep.check(not bad, f"run.h5: /{CONTACTS} has groups {bad[:5]} that are not output steps 000000..{nout - 1:06d}")
    for gname in sorted((n for n in names if n not in bad), key=int):
        k, p = int(gname), f"/{CONTACTS}/{gname}"
        grp = g[gname]
        if not rep.check(isinstance(grp, h5py.Group), f"run.h5: {p} is not a group"):
            continue
        expected = set(CONTACT_VECTORS) | {"gap", "status", "pair"}
        rep.check(set(grp.keys()) == expected, f"run.h5: {p} has {sorted(grp.keys())}, expected {sorted(expected)}")
        x = check_dataset(rep, f, f"{p}/x", (None, 3), "f8")
        if x is None:
            continue
        m = x.shape[0]
        d = {"x": x[()]}
        for name in CONTACT_VECTORS[1:]:
            a = check_dataset(rep, f, f"{p}/{name}", (m, 3), "f8")
            d[name] = None if a is None else a[()]
        for name, kind in (("gap", "f8"), ("status", "i8"), ("pair", "i8")):
            a = check_dataset(rep, f, f"{p}/{name}", (m,), kind)
            d[name] = None if a is None else a[()]
        at = grp.attrs
        rep.check("time" in at and float(at["time"]) == float(h5.out_time[k]), f"run.h5: {p} time attribute differs from /output/time[{k}]")
        rep.check("step" in at and int(at["step"]) == int(h5.out_step[k]), f"run.h5: {p} step attribute differs from /output/step[{k}]")
        h5.contacts[k] = m
        if m == 0:
            continue
        if d["status"] is not None:
            rep.check(bool(np.all(np.isin(d["status"], CONTACT_STATUS))), f"run.h5: {p}/status has values other than 0, 1, 2")
        if d["pair"] is not None:
            rep.check(bool(np.all(d["pair"] >= 0)), f"run.h5: {p}/pair has a negative index")
            if npairs is not None:
                rep.check(bool(np.all(d["pair"] < npairs)), f"run.h5: {p}/pair has an index >= {npairs}, the case's number of contact pairs")
        if any(d[n] is None for n in CONTACT_VECTORS):
            continue
        n, t1, t2, r = d["normal"], d["t1"], d["t2"], d["r_local"]
        frame = np.stack([n, t1, t2], axis=1)  # m,3(n,t1,t2),3
        gram = np.einsum("mij,mkj->mik", frame, frame)
        rep.check(bool(np.all(np.abs(gram - np.eye(3)) <= FRAME_TOL)), f"run.h5: {p}: (normal, t1, t2) is not an orthonormal frame")
        rep.check(bool(np.all(np.abs(np.linalg.det(frame) - 1) <= FRAME_TOL)), f"run.h5: {p}: (normal, t1, t2) is not right-handed")
        rep.check(close(d["force"], r[:, 0:1] * n + r[:, 1:2] * t1 + r[:, 2:3] * t2), f"run.h5: {p}/force differs from r_n normal + r_t1 t1 + r_t2 t2 (tolerance {TOL})")


def check_h5_body(rep, f, name, b, nout, h5):
    where = f"/bodies/{name}"
    X = check_dataset(rep, f, f"{where}/mesh/X", (None, 3), "f8")
    cells = check_dataset(rep, f, f"{where}/mesh/cells", (None, None), "i8")
    if X is None or cells is None:
        return
    X, npe = X[()], cells.shape[1]
    etype = as_str(cells.attrs.get("element_type", ""))
    gtype = as_str(f[f"{where}/mesh"].attrs.get("element_type", ""))
    if not rep.check(npe in (4, 10), f"run.h5: {where}/mesh/cells has {npe} nodes per element"):
        return
    expect = "tet4" if npe == 4 else "tet10"
    rep.check(etype == expect, f"run.h5: {where}/mesh/cells element_type '{etype}', expected '{expect}'")
    rep.check(gtype == expect, f"run.h5: {where}/mesh element_type '{gtype}', expected '{expect}'")
    c = cells[()]
    n, e = X.shape[0], c.shape[0]
    rep.check(n > 0 and e > 0, f"run.h5: {where}: empty mesh")
    if not rep.check(c.size == 0 or (c.min() >= 0 and c.max() < n), f"run.h5: {where}/mesh/cells: node index out of range"):
        return
    srt = np.sort(c, axis=1)
    rep.check(not np.any(srt[:, 1:] == srt[:, :-1]), f"run.h5: {where}/mesh/cells: repeated node in an element")
    if npe == 10 and e:
        # Each mid-edge node must be nearest to the midpoint of its own VTK edge: catches a
        # Gmsh-ordered (unconverted) tet10, also for curved elements.
        mids = np.stack([0.5 * (X[c[:, i]] + X[c[:, j]]) for i, j in VTK_TET10_EDGES], axis=1)  # e,6,3
        nodes = X[c[:, 4:10]]  # e,6,3
        d = np.linalg.norm(nodes[:, :, None, :] - mids[:, None, :, :], axis=3)
        bad = np.nonzero(np.any(np.argmin(d, axis=2) != np.arange(6), axis=1))[0]
        rep.check(bad.size == 0, f"run.h5: {where}/mesh/cells: tet10 mid-edge nodes not in VTK order (element {bad[:1]})")
    h5.bodies[name] = dict(nnodes=n, nelems=e, npe=npe, etype=expect)

    fields = b.get("fields")
    names = sorted(fields.keys()) if fields is not None else []
    expected = [f"{k:06d}" for k in range(nout)]
    if not rep.check(names == expected, f"run.h5: {where}/fields has groups {names[:5]}..., expected {nout} groups 000000..."):
        return
    for k, gname in enumerate(names):
        p = f"{where}/fields/{gname}"
        check_dataset(rep, f, f"{p}/displacement", (n, 3), "f8")
        check_dataset(rep, f, f"{p}/velocity", (n, 3), "f8")
        check_dataset(rep, f, f"{p}/von_mises", (e,), "f8")
        at = fields[gname].attrs
        rep.check("time" in at and float(at["time"]) == float(h5.out_time[k]), f"run.h5: {p} time attribute differs from /output/time[{k}]")
        rep.check("step" in at and int(at["step"]) == int(h5.out_step[k]), f"run.h5: {p} step attribute differs from /output/step[{k}]")


def check_h5_table(rep, f, tab, h5):
    import h5py
    g = f.get(tab)
    if not rep.check(g is not None, f"run.h5: missing group /{tab}"):
        return
    # the column names: a dataset /{tab}/columns (an attribute before issue 24: attributes are
    # limited to 64 KB, about a thousand names)
    cols = g["columns"][()] if isinstance(g.get("columns"), h5py.Dataset) else g.attrs.get("columns")
    rep.check(isinstance(g.get("columns"), h5py.Dataset), f"run.h5: /{tab}/columns is not a dataset")
    cols = [] if cols is None or cols.size == 0 else [as_str(x) for x in cols]
    step = check_dataset(rep, f, f"/{tab}/step", (None,), "i8")
    time = check_dataset(rep, f, f"/{tab}/time", (None,), "f8")
    if step is None or time is None:
        return
    nrows = step.shape[0]
    rep.check(time.shape[0] == nrows, f"run.h5: /{tab}/time and /{tab}/step differ in length")
    rep.check(set(g.keys()) == set(cols) | {"step", "time", "columns"}, f"run.h5: /{tab} datasets {sorted(g.keys())} do not match its columns {cols}")
    data = {}
    for c in cols:
        d = check_dataset(rep, f, f"/{tab}/{c}", (nrows,), "f8")
        if d is not None:
            data[c] = d[()]
    h5.tables[tab] = dict(columns=cols, step=step[()], time=time[()], cols=data)


# ------------------------------------------------------------------------- run.xdmf


XDMF_TYPES = {("Float", "8"): np.dtype("<f8"), ("Int", "8"): np.dtype("<i8"), ("Float", "4"): np.dtype("<f4"), ("Int", "4"): np.dtype("<i4")}


def check_xdmf(rep, path, h5):
    """Returns the number of HDF references."""
    root = ET.parse(path).getroot()
    if not rep.check(root.tag == "Xdmf" and root.get("Version", "").startswith("3"), "run.xdmf: root is not <Xdmf Version=\"3...\">"):
        return 0
    f = h5.file
    nrefs = 0
    for item in root.iter("DataItem"):
        if item.get("Format") != "HDF":
            continue
        nrefs += 1
        ref = (item.text or "").strip()
        fname, _, dpath = ref.partition(":")
        if not rep.check(fname == "run.h5" and dpath.startswith("/"), f"run.xdmf: bad HDF reference '{ref}'"):
            continue
        d = f.get(dpath)
        if not rep.check(d is not None and hasattr(d, "shape"), f"run.xdmf: {ref} is not a dataset in run.h5"):
            continue
        try:
            dims = tuple(int(x) for x in item.get("Dimensions", "").split())
        except ValueError:
            dims = None
        rep.check(dims == d.shape, f"run.xdmf: {ref} Dimensions {item.get('Dimensions')} but the dataset has shape {d.shape}")
        want = XDMF_TYPES.get((item.get("NumberType", "Float"), item.get("Precision", "4")))
        rep.check(want == d.dtype, f"run.xdmf: {ref} NumberType/Precision {item.get('NumberType')}/{item.get('Precision')} but the dataset is {d.dtype}")

    domain = root.find("Domain")
    if not rep.check(domain is not None, "run.xdmf: no <Domain>"):
        return nrefs
    seen = set()
    nout = len(h5.out_time)
    contact_grids = 0
    for grid in domain.findall("Grid"):
        name = grid.get("Name")
        if name == CONTACTS and h5.contacts is not None:
            contact_grids += 1
            check_xdmf_contacts(rep, grid, h5)
            continue
        if not rep.check(name in h5.bodies, f"run.xdmf: grid '{name}' is not a body of run.h5"):
            continue
        seen.add(name)
        body = h5.bodies[name]
        if nout == 0:
            rep.check(grid.get("GridType") == "Uniform", f"run.xdmf: {name}: no output step, expected one Uniform grid")
            check_xdmf_grid(rep, grid, name, body, None, None)
            continue
        if not rep.check(grid.get("GridType") == "Collection" and grid.get("CollectionType") == "Temporal", f"run.xdmf: {name}: not a temporal collection"):
            continue
        steps = grid.findall("Grid")
        if not rep.check(len(steps) == nout, f"run.xdmf: {name}: {len(steps)} steps, run.h5 has {nout}"):
            continue
        for k, sg in enumerate(steps):
            check_xdmf_grid(rep, sg, name, body, k, h5.out_time[k])
    rep.check(seen == set(h5.bodies), f"run.xdmf: bodies {sorted(set(h5.bodies) - seen)} missing")
    if h5.contacts is not None:
        want = 1 if h5.contacts else 0
        rep.check(contact_grids == want, f"run.xdmf: {contact_grids} '{CONTACTS}' grids, expected {want}")
    return nrefs


def check_xdmf_contacts(rep, grid, h5):
    where = f"run.xdmf: {CONTACTS}"
    if not rep.check(grid.get("GridType") == "Collection" and grid.get("CollectionType") == "Temporal", f"{where}: not a temporal collection"):
        return
    ks = sorted(h5.contacts)
    steps = grid.findall("Grid")
    names = [sg.get("Name") for sg in steps]
    if not rep.check(names == [f"{CONTACTS}_{k:06d}" for k in ks], f"{where}: steps {names[:5]}..., expected the run.h5 /{CONTACTS} steps {ks[:5]}..."):
        return
    for k, sg in zip(ks, steps):
        m, p, w = h5.contacts[k], f"run.h5:/{CONTACTS}/{k:06d}", f"{where} step {k}"
        rep.check(sg.get("GridType") == "Uniform", f"{w}: not a Uniform grid")
        t = sg.find("Time")
        rep.check(t is not None and float(t.get("Value", "nan")) == float(h5.out_time[k]), f"{w}: Time differs from /output/time")
        topo = sg.find("Topology")
        if rep.check(topo is not None, f"{w}: no Topology"):
            rep.check(topo.get("TopologyType") == "Polyvertex" and topo.get("NodesPerElement") == "1", f"{w}: topology is not Polyvertex with NodesPerElement 1")
            rep.check(topo.get("NumberOfElements") == str(m), f"{w}: NumberOfElements {topo.get('NumberOfElements')}, run.h5 has {m} contacts")
            # Inline connectivity 0 .. m-1; none for m = 0 (an empty inline item aborts ParaView).
            item = topo.find("DataItem")
            if m == 0:
                rep.check(item is None, f"{w}: no contact, but the topology has a DataItem")
            elif rep.check(item is not None and item.get("Format") == "XML" and item.get("Dimensions") == str(m) and item.get("NumberType") == "Int", f"{w}: topology without an inline Int DataItem of {m} vertices"):
                try:
                    ids = [int(t) for t in (item.text or "").split()]
                except ValueError:
                    ids = None
                rep.check(ids == list(range(m)), f"{w}: topology connectivity is not 0 .. {m - 1}")
        geom = sg.find("Geometry")
        if rep.check(geom is not None and geom.get("GeometryType") == "XYZ", f"{w}: no XYZ Geometry"):
            item = geom.find("DataItem")
            rep.check(item is not None and (item.text or "").strip() == f"{p}/x", f"{w}: geometry does not reference {p}/x")
        attrs = {a.get("Name"): a for a in sg.findall("Attribute")}
        rep.check(set(attrs) == set(XDMF_CONTACT_ATTRS), f"{w}: attributes {sorted(attrs)}, expected {sorted(XDMF_CONTACT_ATTRS)}")
        for aname, (atype, _kind) in XDMF_CONTACT_ATTRS.items():
            a = attrs.get(aname)
            if a is None:
                continue
            rep.check(a.get("AttributeType") == atype and a.get("Center") == "Node", f"{w}: {aname} is not {atype} at Node")
            item = a.find("DataItem")
            rep.check(item is not None and (item.text or "").strip() == f"{p}/{aname}", f"{w}: {aname} does not reference {p}/{aname}")


def check_xdmf_grid(rep, g, name, body, k, time):
    where = f"run.xdmf: {name}" + ("" if k is None else f" step {k}")
    topo = g.find("Topology")
    if rep.check(topo is not None, f"{where}: no Topology"):
        rep.check(topo.get("TopologyType") == XDMF_TOPOLOGY[body["npe"]], f"{where}: TopologyType {topo.get('TopologyType')}")
        rep.check(topo.get("NumberOfElements") == str(body["nelems"]), f"{where}: NumberOfElements {topo.get('NumberOfElements')}, expected {body['nelems']}")
        item = topo.find("DataItem")
        rep.check(item is not None and (item.text or "").strip() == f"run.h5:/bodies/{name}/mesh/cells", f"{where}: topology does not reference mesh/cells")
    geom = g.find("Geometry")
    if rep.check(geom is not None and geom.get("GeometryType") == "XYZ", f"{where}: no XYZ Geometry"):
        item = geom.find("DataItem")
        rep.check(item is not None and (item.text or "").strip() == f"run.h5:/bodies/{name}/mesh/X", f"{where}: geometry does not reference mesh/X")
    if k is None:
        return
    t = g.find("Time")
    rep.check(t is not None and float(t.get("Value", "nan")) == float(time), f"{where}: Time differs from /output/time")
    attrs = {a.get("Name"): a for a in g.findall("Attribute")}
    for aname, atype, center in (("displacement", "Vector", "Node"), ("velocity", "Vector", "Node"), ("von_mises", "Scalar", "Cell")):
        a = attrs.get(aname)
        if not rep.check(a is not None, f"{where}: no attribute {aname}"):
            continue
        rep.check(a.get("AttributeType") == atype and a.get("Center") == center, f"{where}: {aname} is not {atype} at {center}")
        item = a.find("DataItem")
        rep.check(item is not None and (item.text or "").strip() == f"run.h5:/bodies/{name}/fields/{k:06d}/{aname}", f"{where}: {aname} does not reference fields/{k:06d}/{aname}")


# ----------------------------------------------------------------------- legacy VTK


VTK_DTYPES = {"double": ">f8", "float": ">f4", "int": ">i4", "unsigned_int": ">u4", "long": ">i8", "vtktypeint64": ">i8", "short": ">i2", "unsigned_char": ">u1", "char": ">i1"}


class LegacyVTK:
    """Small reader of legacy VTK unstructured grids and polydata (ASCII and BINARY, classic
    CELLS/VERTICES layout)."""

    DATASETS = ("UNSTRUCTURED_GRID", "POLYDATA")
    POLY_KEYS = ("VERTICES", "LINES", "POLYGONS", "TRIANGLE_STRIPS")

    def __init__(self, path):
        self.path = path
        self.data = open(path, "rb").read()
        self.pos = 0
        self.point_data, self.cell_data = {}, {}
        self.points = self.cells = self.cell_types = None
        self.polys = {}  # POLYDATA: VERTICES/LINES/... -> list of index arrays
        if not self._line(raw=True).startswith("# vtk DataFile Version"):
            raise Failure(f"{path}: not a legacy VTK file")
        self.title = self._line(raw=True)
        fmt = self._line().upper()
        if fmt not in ("ASCII", "BINARY"):
            raise Failure(f"{path}: format line '{fmt}'")
        self.binary = fmt == "BINARY"
        w = self._line().split()
        if len(w) != 2 or w[0] != "DATASET" or w[1] not in self.DATASETS:
            raise Failure(f"{path}: not DATASET UNSTRUCTURED_GRID or POLYDATA")
        self.dataset = w[1]
        self._parse()

    def _line(self, raw=False):
        """Next line; keyword lines skip blank lines (raw: the very next line, for the header)."""
        while True:
            if self.pos >= len(self.data):
                if raw:
                    raise Failure(f"{self.path}: truncated header")
                return None
            end = self.data.find(b"\n", self.pos)
            end = len(self.data) if end < 0 else end
            line = self.data[self.pos:end].decode("latin-1").rstrip("\r")
            self.pos = end + 1
            if raw or line.strip():
                return line if raw else line.strip()

    def _values(self, n, vtype):
        if vtype not in VTK_DTYPES:
            raise Failure(f"{self.path}: unsupported data type '{vtype}'")
        dt = np.dtype(VTK_DTYPES[vtype])
        if self.binary:
            nbytes = n * dt.itemsize
            if self.pos + nbytes > len(self.data):
                raise Failure(f"{self.path}: binary data truncated")
            a = np.frombuffer(self.data, dtype=dt, count=n, offset=self.pos)
            self.pos += nbytes
            return a.astype(dt.newbyteorder("="))
        parts = self.data[self.pos:].split(None, n)
        if len(parts) < n:
            raise Failure(f"{self.path}: ASCII data truncated")
        self.pos = len(self.data) - (len(parts[n]) if len(parts) > n else 0)
        toks = [p.decode("ascii") for p in parts[:n]]
        try:
            return np.array(toks, dtype=np.float64 if dt.kind == "f" else np.int64)
        except ValueError as e:
            raise Failure(f"{self.path}: bad number: {e}")

    def _cell_list(self, key, n, size):
        """n cells of a CELLS/VERTICES/... block of `size` ints (count followed by indices)."""
        a = self._values(size, "int")
        cells, i = [], 0
        for _ in range(n):
            if i >= size:
                raise Failure(f"{self.path}: {key} size {size} too small")
            m = int(a[i])
            cells.append(a[i + 1:i + 1 + m])
            i += 1 + m
        if i != size:
            raise Failure(f"{self.path}: {key} size {size} but the cells take {i}")
        return cells

    def _parse(self):
        assoc, count = None, 0
        while True:
            line = self._line()
            if line is None:
                return
            w = line.split()
            key = w[0].upper()
            if key == "POINTS":
                n = int(w[1])
                self.points = self._values(3 * n, w[2]).reshape(n, 3)
            elif key == "CELLS" and self.dataset == "UNSTRUCTURED_GRID":
                self.cells = self._cell_list(key, int(w[1]), int(w[2]))
            elif key in self.POLY_KEYS and self.dataset == "POLYDATA":
                self.polys[key] = self._cell_list(key, int(w[1]), int(w[2]))
            elif key == "CELL_TYPES" and self.dataset == "UNSTRUCTURED_GRID":
                self.cell_types = self._values(int(w[1]), "int")
            elif key in ("POINT_DATA", "CELL_DATA"):
                assoc = self.point_data if key == "POINT_DATA" else self.cell_data
                count = int(w[1])
            elif key in ("SCALARS", "VECTORS", "NORMALS"):
                if assoc is None:
                    raise Failure(f"{self.path}: {key} outside POINT_DATA/CELL_DATA")
                ncomp = 3 if key != "SCALARS" else (int(w[3]) if len(w) > 3 else 1)
                if key == "SCALARS":
                    lt = self._line()
                    if not lt or not lt.upper().startswith("LOOKUP_TABLE"):
                        raise Failure(f"{self.path}: SCALARS {w[1]} without LOOKUP_TABLE")
                a = self._values(count * ncomp, w[2])
                assoc[w[1]] = a.reshape(count, ncomp) if ncomp > 1 else a
            elif key == "FIELD":
                if assoc is None:
                    raise Failure(f"{self.path}: FIELD data outside POINT_DATA/CELL_DATA is not supported")
                for _ in range(int(w[2])):
                    aw = self._line().split()
                    ncomp, ntup = int(aw[1]), int(aw[2])
                    a = self._values(ncomp * ntup, aw[3])
                    assoc[aw[0]] = a.reshape(ntup, ncomp) if ncomp > 1 else a
            else:
                raise Failure(f"{self.path}: unsupported keyword '{w[0]}'")


def vtk_dataset(path):
    """DATASET type of a legacy VTK file (4th line), or None."""
    try:
        with open(path, "rb") as fp:
            lines = [fp.readline() for _ in range(4)]
        w = lines[3].decode("latin-1").split()
        return w[1] if len(w) == 2 and w[0] == "DATASET" else None
    except (OSError, IndexError):
        return None


def has_contact_vtk(vdir, entries, h5):
    """Whether vtk/contacts* is the contact output (rather than a body named "contacts")."""
    if h5 is not None:
        return h5.contacts is not None
    # No run.h5 to ask: contact files are POLYDATA, body files UNSTRUCTURED_GRID.
    for e in entries:
        fm = VTK_FILE_NAME.match(e)
        if fm and fm.group(1) == CONTACTS:
            return vtk_dataset(os.path.join(vdir, e)) == "POLYDATA"
    return f"{CONTACTS}.vtk.series" in entries


def read_series(rep, vdir, s):
    """(names, times) of a .vtk.series file, or None after reporting why not."""
    where = f"vtk/{s}"
    try:
        with open(os.path.join(vdir, s)) as fp:
            js = json.load(fp)
    except (OSError, ValueError) as e:
        rep.fail(f"{where}: not JSON: {e}")
        return None
    if not rep.check(isinstance(js, dict) and js.get("file-series-version") == "1.0" and isinstance(js.get("files"), list), f"{where}: not a file-series-version 1.0 index"):
        return None
    if not rep.check(all(isinstance(x, dict) for x in js["files"]), f"{where}: a files entry is not an object"):
        return None
    names = [x.get("name") for x in js["files"]]
    times = [x.get("time") for x in js["files"]]
    if not rep.check(all(isinstance(t, (int, float)) and math.isfinite(t) for t in times), f"{where}: non-numeric time"):
        return None
    rep.check(all(b >= a for a, b in zip(times, times[1:])), f"{where}: times decrease")
    return names, times


def check_contact_series(rep, vdir, h5, listed):
    """vtk/contacts.vtk.series: contacts_<k>.vtk for the output steps with a contacts call
    (all of them normally, those without contact too). Returns {k: time} or None."""
    s = f"{CONTACTS}.vtk.series"
    where = f"vtk/{s}"
    if not rep.check(os.path.isfile(os.path.join(vdir, s)), f"{where} is missing"):
        return None
    got = read_series(rep, vdir, s)
    if got is None:
        return None
    names, times = got
    ks = []
    for n in names:
        fm = VTK_FILE_NAME.match(n) if isinstance(n, str) else None
        if not rep.check(fm is not None and fm.group(1) == CONTACTS and n == f"{CONTACTS}_{int(fm.group(2)):06d}.vtk", f"{where}: listed file {n} is not {CONTACTS}_<k>.vtk"):
            return None
        ks.append(int(fm.group(2)))
        if rep.check(os.path.isfile(os.path.join(vdir, n)), f"{where}: listed file {n} does not exist"):
            listed.add(n)
    rep.check(len(ks) > 0, f"{where}: lists no file")
    rep.check(all(b > a for a, b in zip(ks, ks[1:])), f"{where}: steps k are not increasing")
    if h5 is not None:
        want = sorted(h5.contacts)
        rep.check(ks == want, f"{where}: lists steps {ks[:5]}..., run.h5 /{CONTACTS} has {want[:5]}...")
        rep.check(all(k < len(h5.out_time) and float(t) == float(h5.out_time[k]) for k, t in zip(ks, times)), f"{where}: times differ from run.h5 /output/time")
    return dict(zip(ks, times))


def check_vtk(rep, rundir, h5, require):
    """Returns the number of VTK files."""
    vdir = os.path.join(rundir, "vtk")
    if not os.path.isdir(vdir):
        rep.check(not require, "vtk/ is missing")
        return 0
    entries = sorted(os.listdir(vdir))
    vtk_files = [e for e in entries if e.endswith(".vtk")]
    series = [e for e in entries if e.endswith(".vtk.series")]
    rep.check(not require or series, "vtk/ has no .vtk.series")
    listed = set()
    per_body = {}
    contacts = has_contact_vtk(vdir, entries, h5)
    contact_times = check_contact_series(rep, vdir, h5, listed) if contacts else None
    for s in series:
        body = s[:-len(".vtk.series")]
        where = f"vtk/{s}"
        if contacts and body == CONTACTS:
            continue
        got = read_series(rep, vdir, s)
        if got is None:
            continue
        names, times = got
        rep.check(names == [f"{body}_{k:06d}.vtk" for k in range(len(names))], f"{where}: files are not {body}_000000.vtk, {body}_000001.vtk, ...")
        # An empty index is only right for a run that wrote no output step of that body.
        rep.check(len(names) > 0 or not any(VTK_FILE_NAME.match(v) and VTK_FILE_NAME.match(v).group(1) == body for v in vtk_files), f"{where}: lists no file (step 0 missing)")
        for n in names:
            if rep.check(isinstance(n, str) and "/" not in n and os.path.isfile(os.path.join(vdir, n)), f"{where}: listed file {n} does not exist"):
                listed.add(n)
        per_body[body] = (names, times)
        if h5 is not None:
            if rep.check(body in h5.bodies, f"{where}: {body} is not a body of run.h5"):
                rep.check(len(names) == len(h5.out_time) and all(float(t) == float(h) for t, h in zip(times, h5.out_time)), f"{where}: times differ from run.h5 /output/time")
    rep.check(not require or vtk_files, "vtk/ has no .vtk file")
    if h5 is not None and require:
        rep.check(set(per_body) == set(h5.bodies), f"vtk/: series for {sorted(per_body)}, run.h5 bodies {sorted(h5.bodies)}")
    for v in vtk_files:
        rep.check(v in listed, f"vtk/{v} is not listed in any .vtk.series")
        fm = VTK_FILE_NAME.match(v)
        try:
            if contacts and fm and fm.group(1) == CONTACTS:
                check_contact_vtk_file(rep, os.path.join(vdir, v), v, int(fm.group(2)), h5, contact_times)
            else:
                check_vtk_file(rep, os.path.join(vdir, v), v, h5, per_body)
        except Failure as e:
            rep.fail(str(e))
        except (OSError, ValueError, IndexError) as e:
            rep.fail(f"vtk/{v}: {e}")
    return len(vtk_files)


def check_contact_vtk_file(rep, path, fname, k, h5, series_times):
    vtk = LegacyVTK(path)
    where = f"vtk/{fname}"
    if not rep.check(vtk.dataset == "POLYDATA", f"{where}: not DATASET POLYDATA"):
        return
    if not rep.check(vtk.points is not None and "VERTICES" in vtk.polys, f"{where}: POINTS or VERTICES missing"):
        return
    m = vtk.points.shape[0]
    verts = vtk.polys["VERTICES"]
    rep.check(set(vtk.polys) == {"VERTICES"}, f"{where}: has {sorted(vtk.polys)}, expected VERTICES only")
    rep.check(len(verts) == m and all(len(c) == 1 and int(c[0]) == i for i, c in enumerate(verts)), f"{where}: VERTICES is not one vertex per point, in order")
    rep.check(not vtk.cell_data, f"{where}: unexpected cell data {sorted(vtk.cell_data)}")
    want = {"force": (m, 3), "normal": (m, 3), "r_local": (m, 3), "gap": (m,), "status": (m,), "pair": (m,)}
    got = {n: a.shape for n, a in vtk.point_data.items()}
    rep.check(got == want, f"{where}: point data {got}, expected {want}")
    for name in ("status", "pair"):
        if name in vtk.point_data:
            rep.check(vtk.point_data[name].dtype.kind == "i", f"{where}: {name} is not an int array")
    m_time = re.search(r"time=(\S+)", vtk.title)
    title_time = float(m_time.group(1)) if m_time else None
    rep.check(title_time is not None, f"{where}: no time=... in the title line")
    if series_times is not None and k in series_times and title_time is not None:
        rep.check(title_time == float(series_times[k]), f"{where}: title time {title_time} differs from the series")
    if h5 is None:
        return
    if not rep.check(h5.contacts is not None and k in h5.contacts, f"{where}: no matching /{CONTACTS}/{k:06d} in run.h5"):
        return
    grp = h5.file[f"/{CONTACTS}/{k:06d}"]
    rep.check(m == h5.contacts[k], f"{where}: {m} points, run.h5 has {h5.contacts[k]} contacts")
    rep.check(title_time is None or title_time == float(grp.attrs["time"]), f"{where}: title time differs from run.h5")
    if m != h5.contacts[k]:
        return
    rep.check(close(vtk.points, grp["x"][()]), f"{where}: POINTS differ from run.h5 x (tolerance {TOL})")
    for name in ("force", "normal", "r_local", "gap"):
        if name in vtk.point_data and name in grp:
            rep.check(close(vtk.point_data[name], grp[name][()]), f"{where}: {name} differs from run.h5 (tolerance {TOL})")
    for name in ("status", "pair"):
        if name in vtk.point_data and name in grp:
            rep.check(np.array_equal(vtk.point_data[name], grp[name][()]), f"{where}: {name} differs from run.h5")


def check_vtk_file(rep, path, fname, h5, per_body):
    vtk = LegacyVTK(path)
    where = f"vtk/{fname}"
    if not rep.check(vtk.dataset == "UNSTRUCTURED_GRID", f"{where}: not DATASET UNSTRUCTURED_GRID"):
        return
    if not rep.check(vtk.points is not None and vtk.cells is not None and vtk.cell_types is not None, f"{where}: POINTS, CELLS or CELL_TYPES missing"):
        return
    n, e = vtk.points.shape[0], len(vtk.cells)
    rep.check(len(vtk.cell_types) == e, f"{where}: {len(vtk.cell_types)} cell types for {e} cells")
    for name, a in vtk.point_data.items():
        rep.check(a.shape[0] == n, f"{where}: point array {name} has {a.shape[0]} tuples for {n} points")
    for name, a in vtk.cell_data.items():
        rep.check(a.shape[0] == e, f"{where}: cell array {name} has {a.shape[0]} tuples for {e} cells")
    for name in ("displacement", "velocity"):
        rep.check(name in vtk.point_data and vtk.point_data[name].shape == (n, 3), f"{where}: point vector {name} missing")
    rep.check("von_mises" in vtk.cell_data, f"{where}: cell scalar von_mises missing")
    m = re.search(r"time=(\S+)", vtk.title)
    title_time = float(m.group(1)) if m else None
    rep.check(title_time is not None, f"{where}: no time=... in the title line")

    fm = VTK_FILE_NAME.match(fname)
    if not rep.check(fm is not None, f"{where}: name is not <body>_<k>.vtk"):
        return
    body, k = fm.group(1), int(fm.group(2))
    if body in per_body and k < len(per_body[body][1]) and title_time is not None:
        rep.check(title_time == float(per_body[body][1][k]), f"{where}: title time {title_time} differs from the series")
    if h5 is None:
        return
    if not rep.check(body in h5.bodies and k < len(h5.out_time), f"{where}: no matching /bodies/{body}/fields/{k:06d} in run.h5"):
        return
    b, f = h5.bodies[body], h5.file
    rep.check(n == b["nnodes"] and e == b["nelems"], f"{where}: {n} points/{e} cells, run.h5 has {b['nnodes']}/{b['nelems']}")
    if n != b["nnodes"] or e != b["nelems"]:
        return
    rep.check(all(len(c) == b["npe"] for c in vtk.cells) and np.all(vtk.cell_types == VTK_CELL_TYPE[b["npe"]]), f"{where}: cells are not all {b['etype']}")
    rep.check(close(vtk.points, f[f"/bodies/{body}/mesh/X"][()]), f"{where}: POINTS differ from mesh/X")
    if all(len(c) == b["npe"] for c in vtk.cells):
        rep.check(np.array_equal(np.array(vtk.cells), f[f"/bodies/{body}/mesh/cells"][()]), f"{where}: CELLS differ from mesh/cells")
    grp = f[f"/bodies/{body}/fields/{k:06d}"]
    rep.check(title_time is None or title_time == float(grp.attrs["time"]), f"{where}: title time differs from run.h5")
    for name, arrays in (("displacement", vtk.point_data), ("velocity", vtk.point_data), ("von_mises", vtk.cell_data)):
        if name in arrays and name in grp:
            rep.check(close(arrays[name], grp[name][()]), f"{where}: {name} differs from run.h5 (tolerance {TOL})")


# ------------------------------------------------------------------------------ CSV


def check_csv(rep, rundir, tab, h5):
    path = os.path.join(rundir, f"{tab}.csv")
    if not rep.check(os.path.isfile(path), f"{tab}.csv is missing"):
        return 0
    with open(path, newline="") as fp:
        rows = list(csv.reader(fp))
    if not rep.check(len(rows) > 0, f"{tab}.csv is empty"):
        return 0
    header, body = rows[0], rows[1:]
    if not rep.check(header[:2] == ["step", "time"], f"{tab}.csv: header starts {header[:2]}, expected step,time"):
        return 0
    rep.check(len(set(header)) == len(header), f"{tab}.csv: repeated column in header")
    try:
        data = np.array([[float(x) for x in r] for r in body], dtype=np.float64).reshape(len(body), len(header))
        steps = [int(r[0]) for r in body]
    except ValueError as e:
        rep.fail(f"{tab}.csv: a row is not {len(header)} numbers (step an integer): {e}")
        return 0
    rep.check(all(b >= a for a, b in zip(steps, steps[1:])), f"{tab}.csv: step decreases")
    rep.check(bool(np.all(np.diff(data[:, 1]) >= 0)), f"{tab}.csv: time decreases")
    if h5 is not None and tab in h5.tables:
        t = h5.tables[tab]
        rep.check(header[2:] == t["columns"], f"{tab}.csv: columns {header[2:]} differ from run.h5 /{tab} columns {t['columns']}")
        if rep.check(len(body) == len(t["step"]), f"{tab}.csv: {len(body)} rows, run.h5 /{tab} has {len(t['step'])}"):
            rep.check(np.array_equal(np.array(steps, dtype=np.int64), t["step"]), f"{tab}.csv: steps differ from run.h5")
            rep.check(close(data[:, 1], t["time"]), f"{tab}.csv: times differ from run.h5")
            for j, c in enumerate(header[2:]):
                if c in t["cols"]:
                    rep.check(close(data[:, 2 + j], t["cols"][c]), f"{tab}.csv: column {c} differs from run.h5")
    return len(body)


# ----------------------------------------------------------------------------- main


def main(argv):
    ap = argparse.ArgumentParser(description="Check an fcsim run directory (doc/output-format.md).")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--hdf5", dest="hdf5", action="store_true", default=None, help="require run.h5 and run.xdmf")
    g.add_argument("--no-hdf5", dest="hdf5", action="store_false", help="require no run.h5/run.xdmf")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--vtk", dest="vtk", action="store_true", default=None, help="require vtk/ with files")
    g.add_argument("--no-vtk", dest="vtk", action="store_false", help="require no vtk/")
    ap.add_argument("rundir")
    args = ap.parse_args(argv)

    rep = Report()
    rundir = args.rundir
    if not os.path.isdir(rundir):
        print(f"check_output: FAIL: {rundir} is not a directory")
        return 1
    h5path, xpath = os.path.join(rundir, "run.h5"), os.path.join(rundir, "run.xdmf")
    has_h5, has_x = os.path.isfile(h5path), os.path.isfile(xpath)
    if args.hdf5 is True:
        rep.check(has_h5 and has_x, "run.h5 or run.xdmf is missing")
    elif args.hdf5 is False:
        rep.check(not has_h5 and not has_x, "run.h5/run.xdmf present although not expected")
    else:
        rep.check(has_h5 == has_x, "run.h5 and run.xdmf must both be present or both absent")
    if args.vtk is False:
        rep.check(not os.path.exists(os.path.join(rundir, "vtk")), "vtk/ present although not expected")

    h5 = None
    ndatasets = nrefs = nvtk = 0
    try:
        if has_h5:
            try:
                h5 = check_h5(rep, h5path)
                ndatasets = h5.ndatasets
            except (OSError, ImportError, KeyError, ValueError) as e:
                rep.fail(f"run.h5: {e}")
        if has_x and h5 is not None:
            try:
                nrefs = check_xdmf(rep, xpath, h5)
            except ET.ParseError as e:
                rep.fail(f"run.xdmf: not valid XML: {e}")
        if args.vtk is not False:
            nvtk = check_vtk(rep, rundir, h5, args.vtk is True)
        for tab in ("probes", "stats"):
            check_csv(rep, rundir, tab, h5)
    finally:
        if h5 is not None and h5.file is not None:
            h5.file.close()

    if rep.failures:
        for msg in rep.failures[:50]:
            print(f"check_output: FAIL: {msg}")
        if len(rep.failures) > 50:
            print(f"check_output: ... {len(rep.failures) - 50} more failures")
        return 1
    h5s = f"run.h5 ({ndatasets} datasets)" if has_h5 else "run.h5 (absent)"
    xs = f"run.xdmf ({nrefs} refs)" if has_x else "run.xdmf (absent)"
    print(f"check_output: OK {h5s}, {xs}, {nvtk} vtk files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
