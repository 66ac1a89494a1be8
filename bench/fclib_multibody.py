#!/usr/bin/python3
"""Multi-body FCLIB problems: stacks, walls and pyramids of rigid boxes resting on a fixed ground.

    /usr/bin/python3 bench/fclib_multibody.py --layout wall --bodies 300 --seed 1 -o wall.hdf5 [--global]
    /usr/bin/python3 bench/fclib_multibody.py --layout stack --bodies 5 --contacts-only ...

Usable as a module (tests/integration/test_fclib_multibody.py, bench/run.sh):
generate(layout, bodies, ...) -> Problem, write_fclib(problem, path, global_=False).

Mechanics (one time step of Moreau–Jean's backward Euler, impulses r, velocities v after the step):

    M v = M v⁻ + h f_ext + H r,    u = Hᵀ v + w,    w = gap/h on the normal rows,

the global form FCLIB stores as /fclib_global {M, H, f = M v⁻ + h f_ext, w, mu}. Eliminating v
gives the local form /fclib_local {W, q, mu}:

    W = Hᵀ M⁻¹ H,    q = Hᵀ v_free + w,    v_free = v⁻ + h M⁻¹ f_ext

(Jean 1999, "The non-smooth contact dynamics method", eq. 22-26; Acary & Brogliato 2008 §10.1).
Each rigid body has 6 DoFs (v, ω) about its centre of mass c; M is block diagonal with
(m, m, m, I) and I the box's inertia tensor about c (axis-aligned boxes: I = m/3 diag(b²+c², a²+c²,
a²+b²) for half extents a, b, c). At contact a with frame (n, t1, t2) (n from body B into body A,
so r_N ≥ 0 pushes A away from B) and point x, the relative velocity in the frame is

    u_a,k = f_k · [(v_A + ω_A × (x − c_A)) − (v_B + ω_B × (x − c_B))],   f_k ∈ {n, t1, t2},

so H's 6×3 block of body A at contact a has column k = [f_k ; (x − c_A) × f_k] and body B's the
same with a minus sign and c_B (f·(ω × d) = ω·(d × f)). The fixed ground has no DoFs. W is formed
block by block, W_ab = Σ_{bodies k of a and b} H_kaᵀ M_k⁻¹ H_kb: only contacts sharing a body
couple, so W is built and written sparse (compressed columns, as fcsim writes it) for any size.

Contacts: a box resting on a box (or the ground) touches it on the rectangle where their faces
overlap; the rectangle's 4 corners are the contacts (4 corner contacts per face contact), normal
+z, tangents a random rotation of (x, y) about n. With side=True, boxes whose vertical faces touch
(bricks of one course, cubes of one layer) get the 4 corners of the shared face as contacts too.

Layouts (all boxes at rest on each other, gap 0, v⁻ = 0 unless asked):
  stack    a column of boxes (4 contacts per interface, 4 on the ground)
  wall     a running-bond brick wall: courses offset by half a brick, a brick on two below
  pyramid  a 3-D pyramid of cubes, each on 4 below (16 contacts per cube above the ground)
The mass of each body is its volume × a density drawn log-uniformly in [1, mass_ratio]
(×1000 kg/m³), μ uniformly in [mu_min, mu_max] per contact.
"""
import argparse
import math
import sys

import numpy as np

G = 9.81


class Problem:
    """The generated problem: local (W as CSC arrays) and global (M diagonal, H as CSC) data."""
    pass


def _boxes(layout, nbodies, rng, jitter):
    """Centres (N,3) and half extents (N,3) of the boxes of a layout, nbodies at most."""
    cen, half = [], []
    if layout == "stack":
        a = np.array([0.1, 0.1, 0.05])
        z = 0.0
        for k in range(nbodies):
            off = jitter * a[:2] * rng.uniform(-1, 1, 2) if k else np.zeros(2)
            cen.append([off[0], off[1], z + a[2]])
            half.append(a)
            z += 2 * a[2]
    elif layout == "wall":
        a = np.array([0.1, 0.05, 0.025])  # brick 0.2 x 0.1 x 0.05 m
        # a wall about twice as long as high, in courses of ncol bricks
        ncol = max(1, int(round(math.sqrt(2 * nbodies))))
        k = 0
        row = 0
        while k < nbodies:
            shift = a[0] if row % 2 else 0.0
            for j in range(ncol):
                if k == nbodies:
                    break
                cen.append([shift + 2 * a[0] * j, 0.0, (2 * row + 1) * a[2]])
                half.append(a)
                k += 1
            row += 1
    elif layout == "pyramid":
        a = np.array([0.05, 0.05, 0.05])
        # smallest base n with n² + (n-1)² + ... >= nbodies; fill from the bottom
        n = 1
        while n * (n + 1) * (2 * n + 1) // 6 < nbodies:
            n += 1
        k = 0
        for lev in range(n):
            side = n - lev
            for i in range(side):
                for j in range(side):
                    if k == nbodies:
                        break
                    cen.append([(2 * i + 1 + lev) * a[0], (2 * j + 1 + lev) * a[1], (2 * lev + 1) * a[2]])
                    half.append(a)
                    k += 1
    else:
        raise ValueError("layout: expected stack, wall or pyramid, got %r" % layout)
    return np.array(cen, float), np.array(half, float)


def _frame(n, rng):
    """(n, t1, t2): t1 a random unit vector orthogonal to n, t2 = n × t1."""
    e = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    u = np.cross(n, e)
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    th = rng.uniform(0, 2 * math.pi)
    t1 = math.cos(th) * u + math.sin(th) * v
    return np.array([n, t1, np.cross(n, t1)])


def _contacts(cen, half, side, tol=1e-9):
    """Contacts as (A, B, x, n): A rests on B (B = -1: the ground) at the corners of the overlap
    of A's bottom face and B's top face; side contacts between touching vertical faces."""
    out = []
    bot = cen[:, 2] - half[:, 2]
    top = cen[:, 2] + half[:, 2]
    lo = cen - half
    hi = cen + half
    # group boxes by the height of their top face (bodies above look up their supports there)
    bytop = {}
    for k in range(len(cen)):
        bytop.setdefault(round(top[k] / tol), []).append(k)
    for A in range(len(cen)):
        if abs(bot[A]) < tol:
            cands = [-1]
        else:
            cands = bytop.get(round(bot[A] / tol), [])
        for B in cands:
            if B < 0:
                x0, y0, x1, y1 = lo[A, 0], lo[A, 1], hi[A, 0], hi[A, 1]
            else:
                x0, y0 = max(lo[A, 0], lo[B, 0]), max(lo[A, 1], lo[B, 1])
                x1, y1 = min(hi[A, 0], hi[B, 0]), min(hi[A, 1], hi[B, 1])
            if x1 - x0 <= tol or y1 - y0 <= tol:
                continue
            for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]:
                out.append((A, B, np.array([x, y, bot[A]]), np.array([0.0, 0.0, 1.0])))
    if side:
        # touching vertical faces: A's low face in direction d on B's high face (normal +e_d)
        for d in (0, 1):
            o = [e for e in (0, 1, 2) if e != d]
            byhi = {}
            for k in range(len(cen)):
                byhi.setdefault(round(hi[k, d] / tol), []).append(k)
            for A in range(len(cen)):
                for B in byhi.get(round(lo[A, d] / tol), []):
                    if B == A:
                        continue
                    p0 = [max(lo[A, e], lo[B, e]) for e in o]
                    p1 = [min(hi[A, e], hi[B, e]) for e in o]
                    if p1[0] - p0[0] <= tol or p1[1] - p0[1] <= tol:
                        continue
                    nrm = np.zeros(3)
                    nrm[d] = 1.0
                    for (s, t) in [(p0[0], p0[1]), (p1[0], p0[1]), (p1[0], p1[1]), (p0[0], p1[1])]:
                        x = np.zeros(3)
                        x[d] = lo[A, d]
                        x[o[0]], x[o[1]] = s, t
                        out.append((A, B, x, nrm))
    return out


def generate(layout="stack", bodies=5, seed=0, mu_min=0.1, mu_max=1.0, mass_ratio=1.0, h=1e-2,
             side=None, jitter=0.0, gap=0.0, velocity=0.0, max_contacts=None):
    """A multi-body problem (see the module comment). side: contacts between touching vertical
    faces (default: on for wall and pyramid). gap: contacts get a gap uniform in [0, gap] m (the
    bodies stay where they are: q = Hᵀ v_free + gap/h). velocity: random initial velocities v⁻
    (uniform in [-velocity, velocity] per DoF, m/s and rad/s). max_contacts: stop adding bodies
    (layouts fill bottom up) once the contacts would exceed it."""
    if not 0 <= mu_min <= mu_max:
        raise ValueError("mu range: need 0 <= mu_min <= mu_max, got [%g, %g]" % (mu_min, mu_max))
    if mass_ratio < 1:
        raise ValueError("mass_ratio must be >= 1, got %g" % mass_ratio)
    if bodies < 1:
        raise ValueError("bodies must be >= 1, got %d" % bodies)
    if side is None:
        side = layout != "stack"
    rng = np.random.default_rng(seed)
    cen, half = _boxes(layout, bodies, rng, jitter)
    contacts = _contacts(cen, half, side)
    if max_contacts is not None and len(contacts) > max_contacts:
        # drop the top bodies until the contacts fit (bodies are numbered bottom up)
        top = np.sort([max(A, B) for (A, B, _, _) in contacts])
        nb = int(top[max_contacts])  # bodies 0..nb-1 carry at most max_contacts contacts
        contacts = [c for c in contacts if c[0] < nb and c[1] < nb]
        cen, half = cen[:nb], half[:nb]
    N, m = len(cen), len(contacts)
    dens = 1000.0 * np.exp(rng.uniform(0, math.log(mass_ratio), N)) if mass_ratio > 1 else 1000.0 * np.ones(N)
    mass = dens * 8 * np.prod(half, axis=1)
    a2 = half ** 2
    inertia = mass[:, None] / 3.0 * np.stack([a2[:, 1] + a2[:, 2], a2[:, 0] + a2[:, 2], a2[:, 0] + a2[:, 1]], axis=1)
    Mdiag = np.concatenate([np.repeat(mass[:, None], 3, axis=1), inertia], axis=1).reshape(-1)  # 6N

    # H blocks: hb[a, s] (6x3) of body bod[a, s] (s = 0: A, +; s = 1: B, -)
    bod = np.full((m, 2), -1, dtype=np.int64)
    hb = np.zeros((m, 2, 6, 3))
    frames = np.zeros((m, 3, 3))
    for a, (A, B, x, n) in enumerate(contacts):
        F = _frame(n, rng)
        frames[a] = F
        for s, (k, sign) in enumerate([(A, 1.0), (B, -1.0)]):
            if k < 0:
                continue
            bod[a, s] = k
            d = x - cen[k]
            for j in range(3):
                hb[a, s, :3, j] = sign * F[j]
                hb[a, s, 3:, j] = sign * np.cross(d, F[j])
    mu = rng.uniform(mu_min, mu_max, m)

    # W_ab = sum over shared bodies of H_kaᵀ M_k⁻¹ H_kb, per body: all pairs of its contacts
    per = {}
    for a in range(m):
        for s in range(2):
            if bod[a, s] >= 0:
                per.setdefault(int(bod[a, s]), []).append((a, s))
    rows, cols, vals = [], [], []
    for k, lst in per.items():
        idx = np.array([a for a, _ in lst])
        S = np.stack([hb[a, s] for a, s in lst]) / np.sqrt(Mdiag[6 * k:6 * k + 6])[None, :, None]  # M^-1/2 H
        blk = np.einsum("aik,bil->abkl", S, S)  # (na, na, 3, 3)
        na = len(idx)
        r = (3 * idx[:, None, None, None] + np.arange(3)[None, None, :, None])
        c = (3 * idx[None, :, None, None] + np.arange(3)[None, None, None, :])
        rows.append(np.broadcast_to(r, (na, na, 3, 3)).reshape(-1))
        cols.append(np.broadcast_to(c, (na, na, 3, 3)).reshape(-1))
        vals.append(blk.reshape(-1))
    n3 = 3 * m
    rows, cols, vals = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    key = cols.astype(np.int64) * n3 + rows
    ukey, inv = np.unique(key, return_inverse=True)
    x = np.bincount(inv, weights=vals)
    keep = x != 0
    ukey, x = ukey[keep], x[keep]
    p = np.searchsorted(ukey // n3, np.arange(n3 + 1))

    # global data: f = M v⁻ + h f_ext, v_free = M⁻¹ f, w = gap/h on the normal rows
    vm = rng.uniform(-velocity, velocity, 6 * N) if velocity > 0 else np.zeros(6 * N)
    fext = np.zeros(6 * N)
    fext[2::6] = -G * mass
    f = Mdiag * vm + h * fext
    vfree = f / Mdiag
    w = np.zeros(n3)
    if gap > 0:
        w[0::3] = rng.uniform(0, gap, m) / h
    # H as CSC (6N x 3m): column 3a+j has body A's 6 rows then body B's
    Hi, Hx, Hp = [], [], [0]
    q = w.copy()
    for a in range(m):
        for j in range(3):
            ent = []
            for s in range(2):
                k = bod[a, s]
                if k >= 0:
                    ent.extend((6 * k + i, hb[a, s, i, j]) for i in range(6))
                    q[3 * a + j] += hb[a, s, :, j] @ vfree[6 * k:6 * k + 6]
            ent.sort()
            ent = [(i, v) for i, v in ent if v != 0]
            Hi.extend(i for i, _ in ent)
            Hx.extend(v for _, v in ent)
            Hp.append(len(Hi))

    P = Problem()
    P.layout, P.seed, P.h = layout, seed, h
    P.nbodies, P.m = N, m
    P.centres, P.half, P.mass, P.Mdiag = cen, half, mass, Mdiag
    P.W_p, P.W_i, P.W_x = p.astype(np.int32), (ukey % n3).astype(np.int32), x
    P.H_p, P.H_i, P.H_x = np.array(Hp, np.int32), np.array(Hi, np.int32), np.array(Hx, float)
    P.q, P.mu, P.f, P.w, P.vfree = q, mu, f, w, vfree
    P.contacts = [(A, B) for (A, B, _, _) in contacts]
    P.frames = frames
    P.title = "fcsim multibody generator: %s of %d boxes, %d contacts, seed %d" % (layout, N, m, seed)
    P.description = ("rigid boxes at rest (Moreau-Jean step h = %g s, gravity %g), mu in [%g, %g], mass ratio %g, "
                     "side contacts %s, jitter %g, gap %g, velocity %g (bench/fclib_multibody.py)"
                     % (h, G, mu_min, mu_max, mass_ratio, "on" if side else "off", jitter, gap, velocity))
    return P


def dense_H(P):
    """H (6N x 3m) as a dense array (small problems, tests)."""
    H = np.zeros((6 * P.nbodies, 3 * P.m))
    for j in range(3 * P.m):
        H[P.H_i[P.H_p[j]:P.H_p[j + 1]], j] = P.H_x[P.H_p[j]:P.H_p[j + 1]]
    return H


def dense_W(P):
    n3 = 3 * P.m
    W = np.zeros((n3, n3))
    for j in range(n3):
        W[P.W_i[P.W_p[j]:P.W_p[j + 1]], j] = P.W_x[P.W_p[j]:P.W_p[j + 1]]
    return W


def _write_matrix(g, mrows, ncols, p, i, x):
    """One FCLIB matrix group in compressed columns (nz = -1), the layout fcsim's writer gives."""
    for k, v in dict(nzmax=len(x), m=mrows, n=ncols, nz=-1).items():
        g.create_dataset(k, data=np.array([v], dtype=np.int32))
    g.create_dataset("p", data=np.asarray(p, dtype=np.int32))
    g.create_dataset("i", data=np.asarray(i, dtype=np.int32))
    g.create_dataset("x", data=np.asarray(x, dtype=np.float64))


def write_fclib(P, path, global_=False, local=True):
    """/fclib_local {W, q, mu, spacedim, info} and, when global_, /fclib_global {M, H, f, w, mu}."""
    import h5py
    n3 = 3 * P.m
    with h5py.File(path, "w") as fh:
        groups = []
        if local:
            g = fh.create_group("fclib_local")
            _write_matrix(g.create_group("W"), n3, n3, P.W_p, P.W_i, P.W_x)
            v = g.create_group("vectors")
            v.create_dataset("q", data=P.q)
            v.create_dataset("mu", data=P.mu)
            groups.append(g)
        if global_:
            g = fh.create_group("fclib_global")
            n6 = 6 * P.nbodies
            _write_matrix(g.create_group("M"), n6, n6, np.arange(n6 + 1), np.arange(n6), P.Mdiag)
            _write_matrix(g.create_group("H"), n6, n3, P.H_p, P.H_i, P.H_x)
            v = g.create_group("vectors")
            v.create_dataset("f", data=P.f)
            v.create_dataset("w", data=P.w)
            v.create_dataset("mu", data=P.mu)
            groups.append(g)
        for g in groups:
            g.create_dataset("spacedim", data=np.array([3], dtype=np.int32))
            info = g.create_group("info")
            info.create_dataset("title", data=np.bytes_(P.title))
            info.create_dataset("description", data=np.bytes_(P.description))
            info.create_dataset("math_info", data=np.bytes_("W = H^T M^-1 H, q = H^T v_free + gap/h (rigid boxes, 6 DoFs each)"))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Multi-body FCLIB problem generator (rigid boxes at rest on a ground).")
    ap.add_argument("--layout", default="stack", choices=["stack", "wall", "pyramid"])
    ap.add_argument("--bodies", type=int, default=5, help="number of boxes (layouts fill bottom up)")
    ap.add_argument("--contacts", type=int, default=None, help="instead of --bodies: about this many contacts (at most)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mu", default="0.1,1.0", help="mu_min,mu_max (uniform per contact)")
    ap.add_argument("--mass-ratio", type=float, default=1.0, help="densities log-uniform in [1, ratio] x 1000 kg/m^3")
    ap.add_argument("--h", type=float, default=1e-2, help="time step [s]")
    ap.add_argument("--side", choices=["auto", "on", "off"], default="auto", help="contacts on touching vertical faces")
    ap.add_argument("--jitter", type=float, default=0.0, help="stack: random horizontal offsets, fraction of a half extent")
    ap.add_argument("--gap", type=float, default=0.0, help="random gaps up to this [m]")
    ap.add_argument("--velocity", type=float, default=0.0, help="random initial velocities up to this")
    ap.add_argument("--global", dest="global_", action="store_true", help="also write /fclib_global {M, H, f, w, mu}")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args(argv)
    try:
        mu_min, mu_max = (float(s) for s in a.mu.split(","))
    except ValueError:
        ap.error("--mu: expected mu_min,mu_max, got %r" % a.mu)
    side = None if a.side == "auto" else a.side == "on"
    bodies = a.bodies
    if a.contacts is not None:
        bodies = a.contacts // 4 + 1  # every box rests on >= 4 contacts: enough bodies, trimmed below
    try:
        P = generate(a.layout, bodies, a.seed, mu_min, mu_max, a.mass_ratio, a.h, side, a.jitter, a.gap, a.velocity,
                     max_contacts=a.contacts)
    except ValueError as e:
        ap.error(str(e))
    write_fclib(P, a.output, global_=a.global_)
    print("%s: %s, %d bodies, %d contacts, W %d nonzeros (%.2f %% full)" % (
        a.output, a.layout, P.nbodies, P.m, len(P.W_x), 100.0 * len(P.W_x) / (3 * P.m) ** 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
