#!/usr/bin/python3
"""Generate the malformed FCLIB files of tests/bad/fclib/ and their MANIFEST.

Each bad file is a small valid problem (baseline_local.hdf5 / baseline_global.hdf5, which
fcsim must read) with exactly one defect. MANIFEST lines are `file|expected substring`: reading
the file must fail with an input error whose single stderr line names the file and contains the
substring. The files are committed; rerun this script (python3 + h5py) only to change them:

    cd tests/bad/fclib && /usr/bin/python3 generate.py

Layout written (libfclib 3.1, fclib.h): /fclib_local/{spacedim, W/{nzmax,m,n,nz,p,i,x},
vectors/{q,mu}, info/{title,...}}, /fclib_global/{spacedim, M/..., H/..., vectors/{f,w,mu}}.
Sizes and integers are stored as 1-element datasets, as libfclib does."""
import os
import numpy as np
import h5py

# Reproducible bytes: HDF5 stamps every dataset with its creation time unless told not to, so
# two runs of this script wrote different files for the same content.
_create_dataset = h5py.Group.create_dataset


def _create_dataset_untimed(self, *args, **kwargs):
    kwargs.setdefault("track_times", False)
    return _create_dataset(self, *args, **kwargs)


def _create_group_untimed(self, name):
    gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)
    gcpl.set_obj_track_times(False)
    return h5py.Group(h5py.h5g.create(self.id, name.encode(), gcpl=gcpl))


def _file_untimed(path, mode):
    """h5py.File(path, mode, libver="latest") with the root group untimed too (mode "w")."""
    if mode != "w":
        return h5py.File(path, mode)
    fcpl = h5py.h5p.create(h5py.h5p.FILE_CREATE)
    fcpl.set_obj_track_times(False)
    fapl = h5py.h5p.create(h5py.h5p.FILE_ACCESS)
    fapl.set_libver_bounds(h5py.h5f.LIBVER_LATEST, h5py.h5f.LIBVER_LATEST)
    return h5py.File(h5py.h5f.create(path.encode(), h5py.h5f.ACC_TRUNC, fcpl=fcpl, fapl=fapl))


h5py.Group.create_dataset = _create_dataset_untimed
h5py.Group.create_group = _create_group_untimed

HERE = os.path.dirname(os.path.abspath(__file__))
manifest = []


def csc(A):
    """Dense -> (p, i, x) compressed columns."""
    m, n = A.shape
    p, i, x = [0], [], []
    for j in range(n):
        for r in range(m):
            if A[r, j] != 0:
                i.append(r)
                x.append(A[r, j])
        p.append(len(i))
    return np.array(p), np.array(i), np.array(x, dtype=float)


def triplets(A, convention):
    """Dense -> (p, i, x) triplets, row by row: "fclib" p rows, i columns (fclib.h); "csparse"
    i rows, p columns (CSparse's cs struct, as Siconos writes them)."""
    r, c = np.nonzero(A)
    return (r, c, A[r, c]) if convention == "fclib" else (c, r, A[r, c])


def write_matrix(g, A, form="csc", **over):
    if form in ("csc", "csr"):
        p, i, x = csc(A if form == "csc" else A.T)  # compressed rows of A = compressed columns of A^T
        d = dict(nzmax=len(x), m=A.shape[0], n=A.shape[1], nz=-1 if form == "csc" else -2, p=p, i=i, x=x)
    else:
        p, i, x = triplets(A, form)
        d = dict(nzmax=len(x), m=A.shape[0], n=A.shape[1], nz=len(x), p=p, i=i, x=x)
    d.update(over)
    for k, v in d.items():
        if v is None:
            continue
        if np.isscalar(v):
            v = np.array([v], dtype=np.int32)
        g.create_dataset(k, data=v)


# Baseline local problem: 2 contacts, W SPD 6x6 with a few exact zeros.
W0 = np.array([[2.0, 0.3, 0.0, 0.5, 0.0, 0.1],
               [0.3, 1.5, 0.2, 0.0, 0.1, 0.0],
               [0.0, 0.2, 1.0, 0.0, 0.0, 0.2],
               [0.5, 0.0, 0.0, 2.5, 0.3, 0.0],
               [0.0, 0.1, 0.0, 0.3, 1.2, 0.1],
               [0.1, 0.0, 0.2, 0.0, 0.1, 1.1]])
q0 = np.array([-1.0, 0.2, -0.1, 0.5, 0.3, 0.0])
mu0 = np.array([0.3, 0.6])


def local(name, expected, W=W0, q=q0, mu=mu0, spacedim=3, drop=(), wover=None, extra=None, wform="csc"):
    path = os.path.join(HERE, name)
    with _file_untimed(path, "w") as f:
        g = f.create_group("fclib_local")
        if "spacedim" not in drop:
            g.create_dataset("spacedim", data=np.array([spacedim], dtype=np.int32))
        if "W" not in drop:
            write_matrix(g.create_group("W"), W, wform, **(wover or {}))
        if "vectors" not in drop:
            v = g.create_group("vectors")
            if "q" not in drop:
                v.create_dataset("q", data=q)
            if "mu" not in drop:
                v.create_dataset("mu", data=mu)
        info = g.create_group("info")
        info.create_dataset("title", data=np.bytes_(name.encode() + b"\0"))
        if extra:
            extra(f)
    if expected is not None:
        manifest.append((name, expected))


# Baseline global problem: 6 DoFs, 2 contacts; M SPD tridiagonal, H 6x6.
M0 = 4 * np.eye(6) - np.eye(6, k=1) - np.eye(6, k=-1)
H0 = np.array([[1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
               [0.0, 1.0, 0.0, 0.5, 0.0, 0.0],
               [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
               [0.2, 0.0, 0.0, 1.0, 0.0, 0.0],
               [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
               [0.0, 0.0, 0.3, 0.0, 0.0, 1.0]])
f0 = np.array([0.1, -0.2, 0.3, -0.1, 0.0, 0.2])
w0 = np.array([-0.5, 0.1, 0.0, 0.2, 0.0, 0.1])


def glob(name, expected, M=M0, H=H0, f=f0, w=w0, mu=mu0, drop=(), extra=None, mform="csc", hform="csc", hover=None):
    path = os.path.join(HERE, name)
    with _file_untimed(path, "w") as fh:
        g = fh.create_group("fclib_global")
        g.create_dataset("spacedim", data=np.array([3], dtype=np.int32))
        write_matrix(g.create_group("M"), M, mform)
        write_matrix(g.create_group("H"), H, hform, **(hover or {}))
        v = g.create_group("vectors")
        if "f" not in drop:
            v.create_dataset("f", data=f)
        v.create_dataset("w", data=w)
        v.create_dataset("mu", data=mu)
        if extra:
            extra(fh)
    if expected is not None:
        manifest.append((name, expected))


# ---- valid baselines (read by the test, not in the MANIFEST) ----
local("baseline_local.hdf5", None)
glob("baseline_global.hdf5", None)

# ---- not FCLIB at all ----
open(os.path.join(HERE, "empty.hdf5"), "wb").close()
manifest.append(("empty.hdf5", "not an HDF5 file"))
with open(os.path.join(HERE, "not_hdf5.hdf5"), "w") as fh:
    fh.write("this is a text file, not HDF5\n")
manifest.append(("not_hdf5.hdf5", "not an HDF5 file"))
with _file_untimed(os.path.join(HERE, "no_problem.hdf5"), "w") as fh:
    fh.create_group("something_else").create_dataset("x", data=np.zeros(3))
manifest.append(("no_problem.hdf5", "neither /fclib_local nor /fclib_global"))

# ---- local: missing pieces ----
local("local_missing_W.hdf5", "/fclib_local/W: missing", drop=("W",))
local("local_missing_q.hdf5", "/fclib_local/vectors/q: missing dataset", drop=("q",))
local("local_missing_mu.hdf5", "/fclib_local/vectors/mu: missing dataset", drop=("mu",))
local("local_missing_vectors.hdf5", "/fclib_local/vectors: missing", drop=("vectors",))
local("local_missing_spacedim.hdf5", "/fclib_local/spacedim: missing dataset", drop=("spacedim",))
local("local_W_missing_x.hdf5", "/fclib_local/W/x: missing dataset", wover=dict(x=None))

# ---- local: inconsistent sizes ----
W69 = np.hstack([W0, np.eye(6)[:, :3]])
local("local_W_not_square.hdf5", "/fclib_local/W: not square (6 x 9)", W=W69)
local("local_W_not_multiple_of_3.hdf5", "/fclib_local/W: size 4 is not a multiple of 3", W=W0[:4, :4], q=q0[:4])
local("local_q_wrong_length.hdf5", "/fclib_local/vectors/q: has 5 entries, expected 6", q=q0[:5])
local("local_mu_wrong_length.hdf5", "/fclib_local/vectors/mu: has 3 entries, expected 2", mu=np.array([0.1, 0.2, 0.3]))
local("local_W_p_wrong_length.hdf5", "/fclib_local/W/p: has 5 entries, expected 7", wover=dict(p=np.array([0, 2, 4, 6, 8])))
local("local_W_x_wrong_length.hdf5", "/fclib_local/W/x: has 30 entries, expected", wover=dict(x=np.ones(30)))
local("local_W_m_two_values.hdf5", "/fclib_local/W/m: expected one integer", wover=dict(m=np.array([6, 6], dtype=np.int32)))
local("local_W_m_negative.hdf5", "/fclib_local/W/m: negative number of rows", wover=dict(m=-6))
local("local_W_x_strings.hdf5", "/fclib_local/W/x: expected numbers", wover=dict(x=np.array([b"a"] * 20)))
local("local_W_nzmax_zero.hdf5", "/fclib_local/W/nzmax: no stored entries", wover=dict(nzmax=0))
local("local_W_nz_unknown.hdf5", "/fclib_local/W/nz: nz = -3: unknown storage", wover=dict(nz=-3))
local("local_W_triplets_exceed_nzmax.hdf5", "/fclib_local/W/nz: 25 triplets, expected 1 to nzmax = 22",
      wover=dict(nz=25, p=np.zeros(25, dtype=np.int32), i=np.zeros(25, dtype=np.int32)))
local("local_spacedim_2.hdf5", "/fclib_local/spacedim: spacedim = 2", spacedim=2)


path = os.path.join(HERE, "local_W_is_dataset.hdf5")
local("local_W_is_dataset.hdf5", None, drop=("W",))
with _file_untimed(path, "a") as fh:
    fh["fclib_local"].create_dataset("W", data=W0)
manifest.append(("local_W_is_dataset.hdf5", "/fclib_local/W: is not a group"))

# ---- local: bad values ----
local("local_mu_negative.hdf5", "mu = -0.5 for contact 1 must be finite and >= 0", mu=np.array([0.3, -0.5]))
local("local_mu_nan.hdf5", "for contact 0 must be finite and >= 0", mu=np.array([np.nan, 0.5]))
local("local_q_inf.hdf5", "/fclib_local/vectors/q: q[2] = inf is not finite", q=np.array([-1.0, 0.2, np.inf, 0.5, 0.3, 0.0]))
Wnan = W0.copy()
Wnan[1, 1] = np.nan
local("local_W_nan.hdf5", "/fclib_local/W/x: value nan", W=Wnan)
p0, i0, x0 = csc(W0)
ibad = i0.copy()
ibad[3] = 6
local("local_W_row_out_of_range.hdf5", "/fclib_local/W/i: row index 6 out of range [0, 6)", wover=dict(i=ibad))
pbad = p0.copy()
pbad[2], pbad[3] = pbad[3], pbad[2]
local("local_W_pointers_decreasing.hdf5", "/fclib_local/W/p: pointers must be nondecreasing", wover=dict(p=pbad))

# ---- local: what libfclib itself would crash or exit on ----
local("local_info_vlen_title.hdf5", "/fclib_local/info/title: variable-length string",
      extra=lambda f: (f["fclib_local/info"].__delitem__("title"),
                       f["fclib_local/info"].create_dataset("title", data="a Python str is variable-length")))
local("local_mixed_V_R.hdf5", "/fclib_local/V: mixed problems",
      extra=lambda f: write_matrix(f["fclib_local"].create_group("V"), np.eye(6)[:, :1]))
local("local_matrix_info_incomplete.hdf5", "/fclib_local/W/determinant: missing dataset",
      extra=lambda f: f["fclib_local/W"].create_dataset("conditioning", data=np.array([10.0])))

# ---- global ----
glob("global_H_rows.hdf5", "/fclib_global/H: has 5 rows, expected 6", H=H0[:5, :])
glob("global_missing_f.hdf5", "/fclib_global/vectors/f: missing dataset", drop=("f",))
glob("global_w_wrong_length.hdf5", "/fclib_global/vectors/w: has 4 entries, expected 6", w=w0[:4])
Mns = M0.copy()
Mns[0, 1] = -2.0
glob("global_M_not_symmetric.hdf5", "/fclib_global/M: not symmetric", M=Mns)
Mind = M0.copy()
Mind[2, 2] = -4.0
glob("global_M_indefinite.hdf5", "/fclib_global/M: not positive definite", M=Mind)
Msing = M0.copy()
Msing[3, :] = 0
Msing[:, 3] = 0
glob("global_M_singular.hdf5", "/fclib_global/M: singular", M=Msing)
glob("global_G_present.hdf5", "/fclib_global/G: equality constraints (G, b) are not supported",
     extra=lambda fh: write_matrix(fh["fclib_global"].create_group("G"), np.eye(6)[:, :1]))

# ---- triplets as producers write them (issue 12): what no reading makes consistent ----
# The files of this section were added on their own: the files above were not regenerated (h5py
# writes different bytes each run, and test_fclib flips every byte of the two baselines).
Wns = W0.copy()
Wns[0, 1] = 0.7  # W0 is symmetric; now W and its transpose differ
local("local_W_triplets_undecidable.hdf5", "/fclib_local/W: triplet convention cannot be decided", W=Wns, wform="csparse")
Wnan3 = W0.copy()
Wnan3[0, 1] = np.nan  # reported as a NaN, not as an asymmetry
local("local_W_triplets_nan.hdf5", "/fclib_local/W/x: value nan (triplet 1) is not finite", W=Wnan3, wform="fclib")
pt, it, xt = triplets(W0, "fclib")
pbad = pt.copy()
pbad[3] = 6
local("local_W_triplet_out_of_range.hdf5", "/fclib_local/W/p: index 6 out of range [0, 6) in either triplet convention (triplet 3)",
      wform="fclib", wover=dict(p=pbad))
local("local_W_triplets_p_too_long.hdf5", "/fclib_local/W/p: has 25 entries, expected at most nzmax = 22",
      wform="fclib", wover=dict(p=np.concatenate([pt, [0, 0, 0]])))
local("local_W_triplets_x_too_short.hdf5", "/fclib_local/W/x: has 20 entries, expected at least nz = 22",
      wform="fclib", wover=dict(x=xt[:20]))
p0, i0, x0 = csc(W0)
local("local_W_csc_i_too_short.hdf5", "/fclib_local/W/i: has 20 entries, fewer than the p[6] = 22 that the pointers address",
      wover=dict(i=i0[:20]))
# H0 is square (6 DoFs, 2 contacts) and not symmetric, M is CSC: nothing tells the convention
glob("global_H_triplets_undecidable.hdf5", "/fclib_global/H: triplet convention cannot be decided", hform="csparse")
# 9 DoFs, H 9 x 6: an index 8 fits as a row only, an index 7 in the other array too
M9 = 4 * np.eye(9) - np.eye(9, k=1) - np.eye(9, k=-1)
f9 = np.linspace(-0.4, 0.4, 9)
H9 = np.zeros((9, 6))
H9[:6, :] = H0
ph, ih, xh = triplets(H9, "csparse")
ph, ih = ph.copy(), ih.copy()
ih[0], ph[0] = 7, 8  # CSparse reading: row 7 fits, column 8 >= 6; FCLIB reading: row 8 fits, column 7 >= 6
glob("global_H_triplets_fit_neither.hdf5", "/fclib_global/H: triplet indices fit neither convention in 9 x 6",
     M=M9, H=H9, f=f9, hform="csparse", hover=dict(p=ph, i=ih))

# ---- block-sparse reading (issue 12): compressed forms list each index once; CSR ranges ----
# Added on their own like the section above. Triplets may repeat an entry (summed, as CSparse
# does); a compressed column (row) that lists a row (column) twice is refused.
p0, i0, x0 = csc(W0)
idup = i0.copy()
idup[1] = idup[0]  # column 0: rows 0, 1, ... -> 0, 0, ...
local("local_W_csc_duplicate.hdf5", "/fclib_local/W/i: row index 0 given twice in column 0 (entries 0 and 1)", wover=dict(i=idup))
pr, ir, xr = csc(W0.T)
irdup = ir.copy()
irdup[1] = irdup[0]
local("local_W_csr_duplicate.hdf5", "/fclib_local/W/i: column index 0 given twice in row 0 (entries 0 and 1)", wform="csr", wover=dict(i=irdup))
irbad = ir.copy()
irbad[2] = 6
local("local_W_csr_column_out_of_range.hdf5", "/fclib_local/W/i: column index 6 out of range [0, 6) (entry 2)", wform="csr", wover=dict(i=irbad))
ph, ih, xh = csc(H0)
ihdup = ih.copy()
ihdup[1] = ihdup[0]
glob("global_H_csc_duplicate.hdf5", "/fclib_global/H/i: row index 0 given twice in column 0 (entries 0 and 1)", hover=dict(i=ihdup))
# valid for the solvers that take any W (nsgs, ...), refused by sap, which needs W = W^T
# (tests/integration/test_bad_input.py runs it with --solver sap): not in the MANIFEST
local("local_W_not_symmetric.hdf5", None, W=Wns)

with open(os.path.join(HERE, "MANIFEST"), "w") as fh:
    fh.write("# Malformed FCLIB files (generated by generate.py): file|expected substring of the one error line.\n")
    fh.write("# baseline_local.hdf5 and baseline_global.hdf5 are the valid problems the others are made from.\n")
    for name, sub in manifest:
        fh.write("%s|%s\n" % (name, sub))
print("%d bad files" % len(manifest))
