"""The multi-body FCLIB generator (bench/fclib_multibody.py) and fcsim on what it writes.

1. A stack of 5 rigid boxes (mass ratio 10, mu in [0.1, 1]) written with /fclib_local and
   /fclib_global: the W and q in the file are H^T M^-1 H and H^T M^-1 f + w of the global data in
   the same file (dense numpy, 1e-13 relative to max|W|: each entry is a sum of at most two
   products formed in another order, a few rounding errors of the largest term).
2. `fcsim fclib solve FILE --solver nsgs --tol 1e-10` converges on it, and the answer is the
   resting stack: the velocities after the step v+ = M^-1 (f + H r) vanish, and the normal
   impulses through each interface add up to the weight carried times h (h g sum_{j >= k} m_j).
   Tolerance, from the identity of box j's vertical momentum balance,
       sum_below r_N - sum_above r_N = m_j (v+_z,j - v_free_z,j),   v_free_z = -h g,
   the deviation of interface k is sum_{j >= k} m_j v+_z,j, and Hᵀ v+ = u (gap 0) with H of full
   column rank gives |v+| <= ‖u‖ / sigma_min(H). A converged solve has every contact sticking
   (r inside the cone: e_a = u_a), so ‖u‖ <= error · max(‖q‖, ‖r‖, ‖u‖) and the relative
   deviation is bounded by  error · scale / (sigma_min(H) h g)  (computed below, with a factor
   10 for contacts on the cone's boundary, where e_a bounds u_a only up to the cone's geometry).
3. A brick wall (40 bricks, side contacts between the bricks of a course): nsgs converges, and the
   ground carries the whole weight (the internal contacts cancel in the sum of the vertical
   balances; same bound with the total mass).
3b. With -v, fcsim says it stored the wall's W block-sparse, with the number of nonzero 3x3 blocks in the file.
4. A bad option of the generator (an empty mu range) is refused with exit 2 naming the option."""
import os
import subprocess
import sys

import h5py
import numpy as np
from fctest import ROOT, run, outdir, figure, check

sys.path.insert(0, os.path.join(ROOT, "bench"))
import fclib_multibody as gen  # noqa: E402

d = outdir("fclib_multibody")
os.makedirs(d)


def read_csc(g):
    m, n = int(g["m"][0]), int(g["n"][0])
    p, i, x = g["p"][()], g["i"][()], g["x"][()]
    A = np.zeros((m, n))
    for j in range(n):
        A[i[p[j]:p[j + 1]], j] = x[p[j]:p[j + 1]]
    return A


def solve(fn, extra=()):
    sol = fn.replace(".hdf5", "_sol.hdf5")
    p = run(["fclib", "solve", fn, "--solver", "nsgs", "--tol", "1e-10", "--max-it", "100000", "-o", sol] + list(extra))
    it, err = p.stdout.split()[4], float(p.stdout.split()[6])
    check("CONVERGED_TOL" in p.stdout and err <= 1e-10, "nsgs converges on %s: %s" % (os.path.basename(fn), p.stdout.strip()))
    with h5py.File(sol, "r") as fh:
        r = fh["solution/r"][()]
        u = fh["solution/u"][()]
    return r, u, int(it), err


# ---- 1. W = H^T M^-1 H, q = H^T M^-1 f + w, in the file ----
fn = os.path.join(d, "stack5.hdf5")
P = gen.generate("stack", 5, seed=3, mu_min=0.1, mu_max=1.0, mass_ratio=10.0)
gen.write_fclib(P, fn, global_=True)
with h5py.File(fn, "r") as fh:
    W = read_csc(fh["fclib_local/W"])
    q = fh["fclib_local/vectors/q"][()]
    M = read_csc(fh["fclib_global/M"])
    H = read_csc(fh["fclib_global/H"])
    f = fh["fclib_global/vectors/f"][()]
    w = fh["fclib_global/vectors/w"][()]
Minv = np.linalg.inv(M)
dW = np.abs(W - H.T @ Minv @ H).max() / np.abs(W).max()
dq = np.abs(q - (H.T @ Minv @ f + w)).max() / np.abs(q).max()
figure("multibody stack of 5 boxes (m %d, mass ratio %.1f): |W - H^T M^-1 H|/max|W| = %.1e, |q - H^T M^-1 f - w|/max|q| = %.1e"
       % (P.m, P.mass.max() / P.mass.min(), dW, dq))
check(P.m == 20 and W.shape == (60, 60) and H.shape == (30, 60), "5 boxes, 4 corner contacts per interface: m = 20, H 30 x 60")
check(dW <= 1e-13 and dq <= 1e-13, "W and q are the local reformulation of the global data (1e-13)")

# ---- 2. the resting stack ----
r, u, it, err = solve(fn)
rN = r[0::3]
vplus = Minv @ (f + H @ r)
sig = np.linalg.svd(H, compute_uv=False).min()
scale = max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))
hg = P.h * gen.G
bound = 10 * err * scale / (sig * hg)
worst = 0.0
for k in range(5):
    below = [a for a, (A, B) in enumerate(P.contacts) if A == k]
    carried = hg * P.mass[k:].sum()
    dev = abs(rN[below].sum() - carried) / carried
    worst = max(worst, dev)
figure("multibody stack of 5: nsgs %d sweeps to error %.1e; |v+|/|v_free| = %.1e; normal impulse per interface vs weight carried x h: worst relative deviation %.1e (bound %.1e)"
       % (it, err, np.linalg.norm(vplus) / np.linalg.norm(P.vfree), worst, bound))
check(worst <= bound, "every interface carries the weight above it (%.1e <= %.1e)" % (worst, bound))
check(np.abs(vplus).max() <= 10 * err * scale / sig, "the stack stays at rest: max|v+| = %.1e" % np.abs(vplus).max())
check(np.all(rN >= 0) and np.all(np.hypot(r[1::3], r[2::3]) <= P.mu * rN * (1 + 1e-12) + 1e-300), "r is in the friction cones")

# ---- 3. a wall: the ground carries everything ----
fw = os.path.join(d, "wall40.hdf5")
Pw = gen.generate("wall", 40, seed=5, mu_min=0.3, mu_max=1.0)
gen.write_fclib(Pw, fw)
rw, uw, itw, errw = solve(fw)
ground = [a for a, (A, B) in enumerate(Pw.contacts) if B < 0]
hgw = Pw.h * gen.G
total = hgw * Pw.mass.sum()
devw = abs(rw[0::3][ground].sum() - total) / total
Hw = gen.dense_H(Pw)
sigw = np.linalg.svd(Hw, compute_uv=False).min()
scalew = max(np.linalg.norm(Pw.q), np.linalg.norm(rw), np.linalg.norm(uw))
boundw = 10 * errw * scalew / (sigw * hgw)
nside = sum(1 for a, (A, B) in enumerate(Pw.contacts) if B >= 0 and abs(Pw.frames[a][0][2]) < 0.5)
figure("multibody wall of 40 bricks (m %d, %d side contacts, W %.1f %% full): nsgs %d sweeps to error %.1e; ground normal impulse vs total weight x h: %.1e (bound %.1e)"
       % (Pw.m, nside, 100.0 * len(Pw.W_x) / (3 * Pw.m) ** 2, itw, errw, devw, boundw))
check(nside > 0, "the wall has contacts between the bricks of a course")
check(devw <= boundw, "the ground carries the wall's weight")

# ---- 3b. the storage the reader chose, said by -v: the wall's W (8.8 % full) is block-sparse
# (below fill 0.75: FcContactProblemPreferSparse), and the answer above came from it. (The stack's
# file also holds /fclib_global, which is what fcsim reads there.) ----
for fn_, P_ in ((fw, Pw),):
    pv = run(["fclib", "solve", fn_, "-v", "--solver", "nsgs", "--tol", "1e-10", "--max-it", "100000"])
    line = [l for l in pv.stderr.splitlines() if "/fclib_local/W: stored" in l]
    ublocks = len({(i // 3, j // 3) for j in range(3 * P_.m) for i in P_.W_i[P_.W_p[j]:P_.W_p[j + 1]]})
    check(len(line) == 1 and "stored block-sparse: %d nonzero 3x3 blocks of %d x %d" % (ublocks, P_.m, P_.m) in line[0],
          "-v says W is stored block-sparse with its %d nonzero blocks: %s" % (ublocks, line))

# ---- 4. bad option ----
p = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "fclib_multibody.py"), "--mu", "1,0.1", "-o", os.path.join(d, "x.hdf5")],
                   capture_output=True, text=True)
check(p.returncode == 2 and "mu range" in p.stderr and not os.path.exists(os.path.join(d, "x.hdf5")),
      "an empty mu range is refused (exit 2): %s" % p.stderr.strip().splitlines()[-1])
