"""FCLIB matrices as producers write them (issue 12, item 2; doc/contact.md, "FCLIB files").

One local problem (W 9 x 9, symmetric positive definite, 3 contacts) and one global problem
(M 10 x 10 SPD, H 10 x 9: 10 DoFs, 3 contacts, a nonzero in row 9 so that H's index ranges tell
its convention) are written with h5py in every storage real files carry:
- compressed columns (nz = -1) — the reference — and compressed rows (nz = -2);
- triplets in fclib.h's convention (p rows, i columns) and in CSparse's (i rows, p columns, as
  Siconos writes them), in a shuffled order;
- nz < nzmax with arrays of length nz, and with arrays of length nzmax whose unused tail holds
  garbage (indices 999999, values NaN: only the first nz entries count);
- every entry split into two duplicate halves (summed on reading, as CSparse's cs_compress does;
  v/2 + v/2 = v exactly in binary);
- compressed forms with i, x shorter than nzmax (p[end] entries) or nzmax long with a NaN tail;
- a global problem whose M is in triplets and H in compressed rows (nothing reveals a
  convention: M symmetric reads the same either way).
Each file is solved by `fcsim fclib solve FILE --solver nsgs` and r must equal the reference's
to 1e-12 relative: every variant describes the same W, q (the same doubles: the reader sums only
exact halves), so nsgs runs the same iterations — any difference would be a misread entry, which
moves r by far more than 1e-12.
`-v` prints one line per matrix naming the storage and the convention detected (checked on two
files). The refusals (undecidable, out of range in both readings, wrong lengths) are bad files of
tests/bad/fclib (MANIFEST), checked by test_bad_input.py and test_fclib.

Runtime: about 25 s (22 runs of fcsim, 1 s each on a loaded 2-core machine)."""
import os
import h5py
import numpy as np
from fctest import run, outdir, figure, check

d = outdir("fclib_conventions")
os.makedirs(d)
rng = np.random.default_rng(12)
GARBAGE = 999999


def entries(A):
    r, c = np.nonzero(A)
    return r, c, A[r, c]


def storage(A, form, extra=0, full=False, dup=False):
    """(nz, nzmax, p, i, x) of A in the given form: "csc", "csr", "fclib" (triplets, p rows),
    "csparse" (triplets, i rows). extra: nzmax - (entries used); full: arrays of nzmax entries,
    the tail garbage; dup: every entry as two halves."""
    m, n = A.shape
    r, c, v = entries(A)
    if dup:
        r, c, v = np.repeat(r, 2), np.repeat(c, 2), np.repeat(v / 2, 2)
    used = len(v)
    nzmax = used + extra
    pad_i = np.full(nzmax - used if full else 0, GARBAGE)
    pad_x = np.full(nzmax - used if full else 0, np.nan)
    if form in ("csc", "csr"):
        outer, inner, size = (c, r, n) if form == "csc" else (r, c, m)
        order = np.lexsort((inner, outer))
        p = np.searchsorted(outer[order], np.arange(size + 1))
        return (-1 if form == "csc" else -2, nzmax, p,
                np.concatenate([inner[order], pad_i]), np.concatenate([v[order], pad_x]))
    order = rng.permutation(used)
    r, c, v = r[order], c[order], v[order]
    p, i = (r, c) if form == "fclib" else (c, r)
    return used, nzmax, np.concatenate([p, pad_i]), np.concatenate([i, pad_i]), np.concatenate([v, pad_x])


def write_matrix(g, A, form, **kw):
    nz, nzmax, p, i, x = storage(A, form, **kw)
    for k, val in dict(nzmax=nzmax, m=A.shape[0], n=A.shape[1], nz=nz).items():
        g.create_dataset(k, data=np.array([val], dtype=np.int32))
    g.create_dataset("p", data=np.asarray(p, dtype=np.int32))
    g.create_dataset("i", data=np.asarray(i, dtype=np.int32))
    g.create_dataset("x", data=np.asarray(x, dtype=float))


def sparse_spd(n, density):
    B = rng.uniform(-1, 1, (n, n)) * (rng.uniform(0, 1, (n, n)) < density)
    A = B + B.T
    A += np.diag(np.abs(A).sum(axis=1) + 1.0)  # diagonally dominant: SPD
    return A


# ---- the problems ----
m = 3
W = sparse_spd(3 * m, 0.3)
q = np.array([-1.0, 0.2, -0.1, -0.5, 0.3, 0.0, 0.4, -0.1, 0.2])
mu = np.array([0.3, 0.6, 0.1])
nd = 10
M = sparse_spd(nd, 0.2)
H = rng.uniform(-1, 1, (nd, 3 * m)) * (rng.uniform(0, 1, (nd, 3 * m)) < 0.35)
for j in range(3 * m):
    H[(j + 1) % nd, j] = 1.0  # full column rank, and row 9 (>= 3m = 9) has an entry
f = rng.uniform(-1, 1, nd)
w = np.array([-0.5, 0.1, 0.0, -0.2, 0.0, 0.1, -0.3, 0.05, -0.05])


def write_local(name, form, **kw):
    path = os.path.join(d, name + ".hdf5")
    with h5py.File(path, "w") as fh:
        g = fh.create_group("fclib_local")
        g.create_dataset("spacedim", data=np.array([3], dtype=np.int32))
        write_matrix(g.create_group("W"), W, form, **kw)
        g.create_dataset("vectors/q", data=q)
        g.create_dataset("vectors/mu", data=mu)
    return path


def write_global(name, mform, hform, mkw=None, hkw=None):
    path = os.path.join(d, name + ".hdf5")
    with h5py.File(path, "w") as fh:
        g = fh.create_group("fclib_global")
        g.create_dataset("spacedim", data=np.array([3], dtype=np.int32))
        write_matrix(g.create_group("M"), M, mform, **(mkw or {}))
        write_matrix(g.create_group("H"), H, hform, **(hkw or {}))
        g.create_dataset("vectors/f", data=f)
        g.create_dataset("vectors/w", data=w)
        g.create_dataset("vectors/mu", data=mu)
    return path


def solve(path, extra=()):
    out = path.replace(".hdf5", "_solution.hdf5")
    p = run(["fclib", "solve", path, "--solver", "nsgs", "--tol", "1e-13", "--max-it", "100000", "-o", out, "--overwrite"] + list(extra))
    with h5py.File(out, "r") as fh:
        return fh["solution/r"][()], p


local_variants = [
    ("local_csr", "csr", {}),
    ("local_fclib", "fclib", {}),
    ("local_csparse", "csparse", {}),
    ("local_csparse_nz_lt_nzmax", "csparse", dict(extra=7)),
    ("local_csparse_nzmax_arrays", "csparse", dict(extra=7, full=True)),
    ("local_fclib_duplicates", "fclib", dict(dup=True, extra=3, full=True)),
    ("local_csparse_duplicates", "csparse", dict(dup=True)),
    ("local_csc_short_arrays", "csc", dict(extra=5)),
    ("local_csr_nzmax_arrays", "csr", dict(extra=5, full=True)),
]
global_variants = [
    ("global_fclib", "fclib", "fclib", None, None),
    ("global_csparse", "csparse", "csparse", None, None),
    ("global_csparse_nz_lt_nzmax", "csparse", "csparse", dict(extra=4), dict(extra=6)),
    ("global_csparse_nzmax_arrays", "csparse", "csparse", dict(extra=4, full=True), dict(extra=6, full=True)),
    ("global_csparse_duplicates", "csparse", "csparse", dict(dup=True), dict(dup=True, extra=2, full=True)),
    ("global_M_csr_H_csparse", "csr", "csparse", None, None),
    ("global_M_triplets_H_csr", "csparse", "csr", None, None),
    ("global_M_fclib_H_csc_short", "fclib", "csc", dict(extra=2), dict(extra=3)),
]

r_local, _ = solve(write_local("local_csc", "csc"))
r_global, _ = solve(write_global("global_csc", "csc", "csc"))
check(np.abs(r_local).max() > 0.1 and np.abs(r_global).max() > 0.1, "the reference problems have contact forces (r != 0)")
worst = 0.0
for name, form, kw in local_variants:
    r, _ = solve(write_local(name, form, **kw))
    dev = np.abs(r - r_local).max() / np.abs(r_local).max()
    check(dev <= 1e-12, "%s: the same r as compressed columns (%.1e)" % (name, dev))
    worst = max(worst, dev)
for name, mform, hform, mkw, hkw in global_variants:
    r, _ = solve(write_global(name, mform, hform, mkw, hkw))
    dev = np.abs(r - r_global).max() / np.abs(r_global).max()
    check(dev <= 1e-12, "%s: the same r as compressed columns (%.1e)" % (name, dev))
    worst = max(worst, dev)
figure("FCLIB conventions: %d local and %d global variants (CSC, CSR, triplets in FCLIB's and CSparse's convention, nz < nzmax, arrays of nz or nzmax entries, duplicates) solved by nsgs: max |r - r_csc| / max |r_csc| = %.1e"
       % (len(local_variants) + 1, len(global_variants) + 1, worst))

# ---- what makes the global files discriminating ----
# In CSparse's convention H's row indices (i) reach 9 = 3m, beyond its 9 columns: read in fclib.h's
# convention they are out of range, so a reader that ignored the convention would refuse these
# files (or, with M's triplets transposed, solve another problem) rather than return r_global.
path = os.path.join(d, "global_csparse.hdf5")
with h5py.File(path, "r") as fh:
    hp, hi = fh["fclib_global/H/p"][()], fh["fclib_global/H/i"][()]
check(hi.max() == nd - 1 and hp.max() < 3 * m, "H in CSparse's convention: row indices (i) reach %d >= 3m = %d, column indices (p) stay below" % (hi.max(), 3 * m))
check(np.abs(M - M.T).max() == 0 and np.abs(W - W.T).max() == 0, "M and W symmetric: their two readings agree (a non-symmetric square matrix with nothing to tell is refused: tests/bad/fclib)")

# ---- -v: one line per matrix ----
_, p = solve(os.path.join(d, "global_csparse_nz_lt_nzmax.hdf5"), ["-v"])
lines = p.stderr.strip().split("\n")
print("\n".join(lines))
nzH = int(np.count_nonzero(H))
check(len(lines) == 2, "-v: one stderr line per matrix (M, H)")
check(any("/fclib_global/H: triplet, CSparse convention (i rows, p columns) (the only reading whose indices fit 10 x 9), nz %d of nzmax %d" % (nzH, nzH + 6) in l for l in lines),
      "-v: H's line names CSparse's convention, detected by the ranges, nz < nzmax")
check(any("/fclib_global/M: triplet, CSparse convention (i rows, p columns) (symmetric: both conventions read the same matrix" in l and "as /fclib_global/H revealed" in l for l in lines),
      "-v: M's line says it follows H's convention (and reads the same either way)")
_, p = solve(os.path.join(d, "local_csr_nzmax_arrays.hdf5"), ["-v"])
nzW = int(np.count_nonzero(W))
check(p.stderr.count("\n") == 2 and "/fclib_local/W: compressed rows (nz -2: p 10 row pointers, i column indices), %d entries of nzmax %d" % (nzW, nzW + 5) in p.stderr,
      "-v: compressed rows, entries used of nzmax")
nbW = len({(i // 3, j // 3) for i, j in zip(*np.nonzero(W))})
check(("/fclib_local/W: stored %s: %d nonzero 3x3 blocks of 3 x 3" % ("block-sparse" if nbW < 0.75 * 9 else "dense", nbW)) in p.stderr,
      "-v: the storage of W chosen by the fill of its %d nonzero blocks of 9 (block-sparse below 75 %%)" % nbW)
_, p = solve(os.path.join(d, "local_csparse.hdf5"))
check(p.stderr == "", "without -v: nothing on stderr")
