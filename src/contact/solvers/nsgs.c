/* fcsim — contact solver type "nsgs": nonlinear block Gauss–Seidel over contacts on the exact
 * Coulomb cone (duriez2006 §5.1, eq. 25; Jean & Moreau's NSCD iteration).
 *
 * One sweep visits the contacts in order; contact a solves its own 3×3 problem
 *
 *     u_a = W_aa r_a + b_a,   b_a = q_a + Σ_{b≠a} W_ab r_b   (the others frozen, eq. 25)
 *     K_μ ∋ r_a ⊥ û_a ∈ K_μ*
 *
 * exactly, and its new r_a is used at once by the next contacts. u = W r + q is kept up to date
 * incrementally: when r_a changes by Δ, u += W_{:,a} Δ (9·3m flops, nothing when a contact stays
 * separated — the O(m·m') cost of duriez2006 §5.4), so b_a = u_a − W_aa r_a costs 9 flops and the
 * stopping test on the common error costs O(m) after every sweep. When W is symmetric (the
 * Delassus operator is) the column W_{:,a} is read as the contiguous rows W_{a,:}. With a
 * block-sparse W (problem.h) the update touches only the stored blocks of row a: 18 flops per
 * block, so a sweep costs O(stored blocks of the updated contacts) instead of O(m·m').
 *
 * Local solver (exact, see doc/contact.md): in order,
 *   separation  b_N ≥ 0 → r = 0 (then û = [b_N + μ‖b_T‖, b_T] ∈ K*);
 *   μ = 0       r = (−b_N/W_nn, 0, 0) (frictionless Signorini);
 *   stick       r = −W_aa⁻¹ b when it lies in K_μ (u = 0), with W_aa⁻¹ computed once per solve;
 *   slip        r on the cone boundary, r = r_N (1, μ cos θ, μ sin θ), u_N = 0 and u_T = −s e(θ),
 *               s ≥ 0 (eq. 21: the friction force opposes the sliding). u_N = 0 gives
 *               r_N = −b_N / D(θ), D = W_nn + μ W_nT·e; u_T ∥ e is one equation in θ,
 *               h(θ) = D(θ) (u_T × e) = 0, a trigonometric polynomial of degree 2, i.e. a quartic
 *               in tan(θ/2). Its real roots (Durand–Kerner iteration) start Newton on h along the
 *               unit circle (on e = (c, s) itself: no trigonometric function anywhere); among the
 *               roots with r_N > 0 that solve the local problem (natural-map residual ≤
 *               local_tol), the one closest to the current r_a is taken (the complex roots' real
 *               parts are tried too only when none does). Newton from the current direction is
 *               tried first (a contact that was sliding usually keeps sliding nearby), which
 *               skips the quartic.
 *   fallback    should no candidate satisfy the local problem to local_tol (rounding in a
 *               degenerate block), the projected fixed point r ← P_K(r − ρ ũ(r)), ρ = 1/‖W_aa‖_∞,
 *               is iterated from the best candidate; fallbacks are counted (view).
 * The single-contact closed forms (separation, stick, slip) are therefore reproduced to rounding.
 * Choices (doc/contact.md): -nsgs_local fixed_point replaces the whole local solver by the
 * projected fixed point (to local_tol, at most local_max_it steps, from the current r_a);
 * -nsgs_local_fallback none keeps the best candidate instead of iterating. View counts the
 * fallbacks and those that left the contact above local_tol.
 *
 * Sweep (sweep.h): the contacts in natural, reversed, symmetric (alternating) or random order,
 * and over-relaxation r_a ← P_K((1 − ω) r_a + ω r_a^local), 0 < ω < 2 (Relax_Private).
 *
 * Stopping: the common error (problem.h) is evaluated every error_every sweeps (default 1) with
 * the incrementally updated u; when it is ≤ tol, u is recomputed as W r + q and the test repeated,
 * so rounding drift in u can never stop the iteration early. u is also recomputed every 64
 * sweeps. An initial test before the first sweep makes a warm start from a solution cost no
 * sweep. One iteration = one sweep over all contacts. */
#include "sweep.h"
#include <string.h>

/* The local (one-contact) solver: the exact one above, or the projected fixed point alone. */
typedef enum { NSGS_LOCAL_EXACT, NSGS_LOCAL_FIXED_POINT } NSGSLocal;
static const char *const NSGSLocalNames[] = {"exact", "fixed_point"};

/* What the exact local solver does when no candidate reaches local_tol. */
typedef enum { NSGS_FALLBACK_FIXED_POINT, NSGS_FALLBACK_NONE } NSGSFallback;
static const char *const NSGSFallbackNames[] = {"fixed_point", "none"};

typedef struct {
  /* parameters (defaults in FcContactSolverCreate_NSGS) */
  PetscInt       error_every;  /* 1: sweeps between two stopping tests (each costs O(m)) */
  PetscReal      local_tol;    /* 1e-12: relative natural-map residual a local solution must reach */
  PetscInt       local_max_it; /* 500: iterations of the fallback fixed point */
  NSGSLocal      local;        /* exact */
  NSGSFallback   fallback;     /* fixed_point */
  FcContactSweep sweep;        /* order natural, ω = 1 (sweep.h) */
  /* work, sized for mcap contacts */
  PetscInt   mcap;
  PetscReal *Waa;  /* 9 per contact: W_aa, gathered once per solve (dense or block-sparse W) */
  PetscReal *Winv; /* 9 per contact: W_aa⁻¹ when inv_ok */
  PetscBool *inv_ok;
  PetscReal *u; /* 3m: W r + q, updated incrementally */
  /* a solve continued by the next (s->resume, auto's chunks): the problem, r and the state of u
   * (exact, since) and W's symmetry as the last solve left them, when carry */
  PetscReal       *rcarry; /* 3m */
  FcContactProblem cp;
  PetscBool        carry, cexact, csym;
  PetscInt         csince;
  /* the frozen problem (solver.h FcContactSolverFreeze): fp, whose Waa, Winv, inv_ok, symmetry
   * (fsym) and breakdown (fbad, 0 when none) are set up when fready; u = W rlast + qlast carried
   * from the last frozen solve when uvalid; nupd_since: incremental updates of u (sweeps and
   * shifts of q) since it was last formed as the product */
  FcContactProblem      fp;
  PetscBool             fready, fsym, uvalid;
  FcContactSolverReason fbad;
  PetscInt              fcap, nupd_since;
  PetscReal            *rlast, *qlast;
  PetscInt nfrozen[2], nproduct[2]; /* frozen solves, and those that formed u as the product at their start: [0] since the freeze, [1] since creation */
  /* local solves by outcome: [0] last solve, [1] since creation; nfbmiss: fallbacks that left the
   * contact above local_tol; nfixed: solves by the fixed-point local solver (local fixed_point),
   * nfixedmiss: those of them stopped by local_max_it above local_tol */
  PetscInt nsep[2], nstick[2], nslip[2], nquartic[2], nfallback[2], nfbmiss[2], nfixed[2], nfixedmiss[2];
} FcContactSolver_NSGS;

/* ---- 3×3 helpers ---- */

/* Inverse by cofactors; refused when |det| is at rounding level relative to the entries (the
 * stick candidate is then skipped and the slip/fallback paths decide). */
static PetscBool Inv3_Private(const PetscReal a[9], PetscReal inv[9])
{
  PetscReal c[9], det, nrm = 0;

  c[0] = a[4] * a[8] - a[5] * a[7];
  c[1] = a[2] * a[7] - a[1] * a[8];
  c[2] = a[1] * a[5] - a[2] * a[4];
  c[3] = a[5] * a[6] - a[3] * a[8];
  c[4] = a[0] * a[8] - a[2] * a[6];
  c[5] = a[2] * a[3] - a[0] * a[5];
  c[6] = a[3] * a[7] - a[4] * a[6];
  c[7] = a[1] * a[6] - a[0] * a[7];
  c[8] = a[0] * a[4] - a[1] * a[3];
  det  = a[0] * c[0] + a[1] * c[3] + a[2] * c[6];
  for (int i = 0; i < 9; i++) nrm = PetscMax(nrm, PetscAbsReal(a[i]));
  if (!(PetscAbsReal(det) > 1e-13 * nrm * nrm * nrm)) return PETSC_FALSE;
  for (int i = 0; i < 9; i++) inv[i] = c[i] / det;
  return PETSC_TRUE;
}

static inline void Mult3_Private(const PetscReal a[9], const PetscReal x[3], PetscReal y[3])
{
  y[0] = a[0] * x[0] + a[1] * x[1] + a[2] * x[2];
  y[1] = a[3] * x[0] + a[4] * x[1] + a[5] * x[2];
  y[2] = a[6] * x[0] + a[7] * x[1] + a[8] * x[2];
}

/* Relative natural-map residual of a local candidate: the common error of the one-contact problem
 * u = W r + b. */
static PetscReal LocalError_Private(const PetscReal W[9], const PetscReal b[3], PetscReal mu, const PetscReal r[3])
{
  PetscReal u[3], e2, s2;

  Mult3_Private(W, r, u);
  for (int i = 0; i < 3; i++) u[i] += b[i];
  e2 = FcContactLocalError2(mu, r, u);
  s2 = PetscMax(b[0] * b[0] + b[1] * b[1] + b[2] * b[2], PetscMax(r[0] * r[0] + r[1] * r[1] + r[2] * r[2], u[0] * u[0] + u[1] * u[1] + u[2] * u[2]));
  return s2 > 0 ? PetscSqrtReal(e2 / s2) : PetscSqrtReal(e2);
}

/* ---- slip on the cone boundary ---- */

/* h(θ) = al c² + be cs + ga s² + de c + ep s (c = cos θ, s = sin θ), the tangential parallelism
 * condition D(θ) (u_T(θ) × e(θ)) with u_T = r_N(θ)(W_TN + μ W_TT e) + b_T and r_N = −b_N/D(θ)
 * (duriez2006 eqs. 20-21: the 3×3 law of one contact and the slip direction). Everything below
 * works on the unit vector e = (c, s) itself, never on θ: h and h' are polynomials in (c, s), so
 * the slip solve needs no sine, cosine or arctangent (they were a quarter of nsgs's time, doc/contact.md
 * "Speed against Siconos"). */
typedef struct {
  PetscReal al, be, ga, de, ep;
} Trig2;

static inline PetscReal TrigEval_Private(const Trig2 *h, PetscReal c, PetscReal s)
{
  return h->al * c * c + h->be * c * s + h->ga * s * s + h->de * c + h->ep * s;
}

static void SlipSetup_Private(const PetscReal W[9], const PetscReal b[3], PetscReal mu, Trig2 *h)
{
  /* Blocks of W_aa in the (n, t1, t2) frame: W_nn, v = W_nT (row), w = W_TN (column), A = W_TT. */
  const PetscReal Wnn = W[0], v0 = W[1], v1 = W[2], w0 = W[3], w1 = W[6];
  const PetscReal A00 = W[4], A01 = W[5], A10 = W[7], A11 = W[8];
  const PetscReal bn = b[0], t0 = b[1], t1 = b[2];

  /* D (u_T × e) = −b_N (w × e) − b_N μ (A e × e) + W_nn (b_T × e) + μ (v·e)(b_T × e), with
   * x × e = x_1 s − x_2 c; collected by monomials c², cs, s², c, s. */
  h->al = bn * mu * A10 - mu * v0 * t1;
  h->be = -bn * mu * (A00 - A11) + mu * (v0 * t0 - v1 * t1);
  h->ga = -bn * mu * A01 + mu * v1 * t0;
  h->de = bn * w1 - Wnn * t1;
  h->ep = -bn * w0 + Wnn * t0;
}

/* The slip force for the direction e = (c, s); false when D ≤ 0 (no r_N > 0 on that generator). */
static PetscBool SlipForce_Private(const PetscReal W[9], const PetscReal b[3], PetscReal mu, const PetscReal e[2], PetscReal r[3])
{
  const PetscReal c = e[0], s = e[1], D = W[0] + mu * (W[1] * c + W[2] * s);

  if (!(D > 0)) return PETSC_FALSE;
  r[0] = -b[0] / D;
  r[1] = mu * r[0] * c;
  r[2] = mu * r[0] * s;
  return PETSC_TRUE;
}

/* Newton on h along the unit circle from e (in: the start, out: the root), steps limited to half
 * a radian so that it stays near the root it starts next to; stops at rounding level. A step δ =
 * h/h' (h' = dh/dθ) moves e along its tangent, e ← (e − δ e⊥)/‖e − δ e⊥‖ with e⊥ = (−s, c): the
 * angle moves by atan δ instead of δ, which has the same first derivative at δ = 0, so this is
 * Newton's method in the local coordinate tan(θ − θ_k) and converges quadratically to the same
 * roots as Newton on θ, at the cost of one square root per step instead of a sine and a cosine. */
static void SlipNewton_Private(const Trig2 *h, PetscReal e[2])
{
  PetscReal c = e[0], s = e[1];

  for (int k = 0; k < 60; k++) {
    const PetscReal f  = h->al * c * c + h->be * c * s + h->ga * s * s + h->de * c + h->ep * s;
    const PetscReal df = 2.0 * (h->ga - h->al) * c * s + h->be * (c * c - s * s) - h->de * s + h->ep * c;
    PetscReal       step, cn, sn, nrm;

    if (f == 0 || df == 0) break;
    step = f / df;
    if (step > 0.5) step = 0.5;
    if (step < -0.5) step = -0.5;
    cn  = c + step * s; /* e − δ e⊥ */
    sn  = s - step * c;
    nrm = PetscSqrtReal(cn * cn + sn * sn);
    c   = cn / nrm;
    s   = sn / nrm;
    if (PetscAbsReal(step) <= 8 * PETSC_MACHINE_EPSILON) break;
  }
  e[0] = c;
  e[1] = s;
}

/* Roots of the monic quartic t⁴ + c[3]t³ + c[2]t² + c[1]t + c[0] by the Durand–Kerner
 * (Weierstrass) simultaneous iteration, in complex arithmetic written out (re, im): all four
 * roots at once, no LAPACK. Only their real parts are used, as starting points of Newton on h,
 * so a modest accuracy suffices; returns 0 if the iteration produced non-finite values. */
static int QuarticRoots_Private(const PetscReal c[4], PetscReal re[4], PetscReal im[4])
{
  PetscReal R = 1;
  int       k, it;

  for (k = 0; k < 4; k++) R = PetscMax(R, 1 + PetscAbsReal(c[k])); /* Cauchy bound on |roots| */
  /* Classical starting points R (0.4 + 0.9i)^(k+1): distinct, off the real axis, not conjugate. */
  for (k = 0, re[0] = 0.4 * R, im[0] = 0.9 * R; k < 3; k++) {
    re[k + 1] = 0.4 * re[k] - 0.9 * im[k];
    im[k + 1] = 0.9 * re[k] + 0.4 * im[k];
  }
  for (it = 0; it < 500; it++) {
    PetscReal maxstep = 0;
    for (k = 0; k < 4; k++) {
      /* p(z) by Horner */
      PetscReal pr = 1, pi = 0, dr = 1, di = 0, qr, qi, den;
      for (int j = 3; j >= 0; j--) {
        const PetscReal t = pr * re[k] - pi * im[k] + c[j];
        pi                = pr * im[k] + pi * re[k];
        pr                = t;
      }
      /* Π_{j≠k} (z_k − z_j) */
      for (int j = 0; j < 4; j++) {
        PetscReal xr, xi, t;
        if (j == k) continue;
        xr = re[k] - re[j];
        xi = im[k] - im[j];
        t  = dr * xr - di * xi;
        di = dr * xi + di * xr;
        dr = t;
      }
      den = dr * dr + di * di;
      if (!(den > 0)) { /* coincident iterates: nudge apart */
        re[k] += 1e-8 * R;
        im[k] += 1e-8 * R;
        maxstep = PETSC_MAX_REAL;
        continue;
      }
      qr = (pr * dr + pi * di) / den;
      qi = (pi * dr - pr * di) / den;
      re[k] -= qr;
      im[k] -= qi;
      maxstep = PetscMax(maxstep, PetscAbsReal(qr) + PetscAbsReal(qi));
    }
    if (!(maxstep < PETSC_MAX_REAL)) {
      if (PetscIsInfOrNanReal(maxstep)) return 0;
      continue;
    }
    if (maxstep <= 1e-15 * R) break;
  }
  for (k = 0; k < 4; k++)
    if (PetscIsInfOrNanReal(re[k]) || PetscIsInfOrNanReal(im[k])) return 0;
  return 4;
}

/* Up to 8 starting directions for Newton, e[k] = (c, s), from the roots of the quartic in
 * t = tan(ψ/2), θ = φ + ψ, with φ chosen so that ψ = π (t = ∞, the root the substitution cannot
 * represent) is where |h| is largest among 8 samples — the leading coefficient is then h there, far
 * from 0. The roots become directions without trigonometry: e(ψ) = (1 − t², 2t)/(1 + t²) (the
 * rational parametrization of the circle) turned by φ. The real roots come first (*nreal of them,
 * |Im t| small: a double root splits into a pair at about √eps); the others' real parts follow.
 * Returns the number of directions. */
static int SlipQuarticRoots_Private(const Trig2 *h, PetscReal e[8][2], int *nreal)
{
  /* cos, sin of kπ/4, k = 0..7 */
  static const PetscReal S2       = 0.70710678118654752440;
  static const PetscReal Cs[8][2] = {{1, 0}, {S2, S2}, {0, 1}, {-S2, S2}, {-1, 0}, {-S2, -S2}, {0, -1}, {S2, -S2}};
  PetscReal              hbest = -1, cf = 1, sf = 0, Q00, Q01, Q11, a[5], c[4], re[4], im[4];
  Trig2                  g;
  int                    k, nth = 0, order[4], no = 0;

  *nreal = 0;
  for (k = 0; k < 8; k++) {
    const PetscReal v = PetscAbsReal(TrigEval_Private(h, Cs[k][0], Cs[k][1]));
    if (v > hbest) {
      hbest = v;
      cf    = -Cs[k][0]; /* φ = kπ/4 − π */
      sf    = -Cs[k][1];
    }
  }
  if (!(hbest > 0)) { /* h vanishes at 8 angles: identically zero (degenerate); try the samples */
    for (k = 0; k < 8; k++) {
      e[nth][0]   = Cs[k][0];
      e[nth++][1] = Cs[k][1];
    }
    *nreal = nth;
    return nth;
  }
  /* Rotate by φ: e = R(φ) e', so h = e'ᵀ (RᵀQR) e' + (Rᵀl)·e' with
   * Q = [[al, be/2], [be/2, ga]], l = (de, ep). */
  Q00  = h->al * cf * cf + h->be * cf * sf + h->ga * sf * sf;
  Q11  = h->al * sf * sf - h->be * cf * sf + h->ga * cf * cf;
  Q01  = (h->ga - h->al) * cf * sf + 0.5 * h->be * (cf * cf - sf * sf);
  g.al = Q00;
  g.be = 2 * Q01;
  g.ga = Q11;
  g.de = cf * h->de + sf * h->ep;
  g.ep = -sf * h->de + cf * h->ep;
  /* (1+t²)² h with cos ψ = (1−t²)/(1+t²), sin ψ = 2t/(1+t²). */
  a[4] = g.al - g.de;
  a[3] = 2 * (g.ep - g.be);
  a[2] = 4 * g.ga - 2 * g.al;
  a[1] = 2 * (g.be + g.ep);
  a[0] = g.al + g.de;
  for (k = 0; k < 4; k++) c[k] = a[k] / a[4];
  if (!QuarticRoots_Private(c, re, im)) return 0;
  for (k = 0; k < 4; k++)
    if (PetscAbsReal(im[k]) <= 1e-4 * (1 + PetscAbsReal(re[k]))) order[no++] = k;
  *nreal = no;
  for (k = 0; k < 4; k++)
    if (!(PetscAbsReal(im[k]) <= 1e-4 * (1 + PetscAbsReal(re[k])))) order[no++] = k;
  for (k = 0; k < 4; k++) {
    const PetscReal t = re[order[k]], w = 1 / (1 + t * t);
    PetscReal       x = (1 - t * t) * w, y = 2 * t * w;
    if (!(PetscAbsReal(x) <= 1 && PetscAbsReal(y) <= 1)) { /* t² overflowed: ψ = π */
      x = -1;
      y = 0;
    }
    e[nth][0]   = cf * x - sf * y;
    e[nth++][1] = sf * x + cf * y;
  }
  return nth;
}

/* Projected fixed point on De Saxcé's modified velocity, r ← P_K(r − ρ ũ(r)): the last resort of
 * the exact local solver (tol = 0: until the step is at rounding level), and the whole local
 * solver with -nsgs_local fixed_point (tol = local_tol: until the local natural-map residual is
 * ≤ tol, tested before every step so that a solved contact costs none). True when it stopped on
 * one of these tests rather than max_it. */
static PetscBool LocalFixedPoint_Private(const PetscReal W[9], const PetscReal b[3], PetscReal mu, PetscInt max_it, PetscReal tol, PetscReal r[3])
{
  PetscReal rho = 0, x[3], u[3], p[3];

  for (int i = 0; i < 3; i++) rho = PetscMax(rho, PetscAbsReal(W[3 * i]) + PetscAbsReal(W[3 * i + 1]) + PetscAbsReal(W[3 * i + 2]));
  rho = 1.0 / rho; /* ‖W_aa‖_∞ ≥ its largest eigenvalue modulus */
  for (PetscInt k = 0; k < max_it; k++) {
    PetscReal d2 = 0, r2 = 0;
    if (tol > 0 && LocalError_Private(W, b, mu, r) <= tol) return PETSC_TRUE;
    Mult3_Private(W, r, u);
    for (int i = 0; i < 3; i++) u[i] += b[i];
    x[0] = r[0] - rho * (u[0] + mu * PetscSqrtReal(u[1] * u[1] + u[2] * u[2]));
    x[1] = r[1] - rho * u[1];
    x[2] = r[2] - rho * u[2];
    FcConeProject(mu, x, p);
    for (int i = 0; i < 3; i++) {
      d2 += (p[i] - r[i]) * (p[i] - r[i]);
      r2 += p[i] * p[i];
      r[i] = p[i];
    }
    if (d2 <= 1e-32 * r2) return PETSC_TRUE;
  }
  return (PetscBool)(tol > 0 && LocalError_Private(W, b, mu, r) <= tol);
}

/* The slip candidates from the nth starting directions e[k] (the first nreal from the quartic's real
 * roots): Newton on h from each, the force and its local error; returns their number, *min_err the
 * least error. Newton from the real roots first: every root of h is a real root of the quartic
 * (ψ = π is not one, by the choice of φ), so Newton from the real parts of the complex roots can
 * only find the same roots again. It is run (the second pass) only when no candidate of the first
 * reaches local_tol, e.g. when the quartic's roots are inaccurate. */
static int SlipCandidates_Private(const Trig2 *h, const PetscReal W[9], const PetscReal b[3], PetscReal mu, PetscReal local_tol, int nth, int nreal,
  PetscReal e[8][2], PetscReal rc[8][3], PetscReal errs[8], PetscReal *min_err)
{
  int nc = 0;

  for (int k = 0; k < nth; k++) {
    if (k == nreal) {
      PetscBool solved = PETSC_FALSE;
      for (int j = 0; j < nc; j++)
        if (errs[j] <= local_tol && rc[j][0] > 0) solved = PETSC_TRUE;
      if (solved) break;
    }
    SlipNewton_Private(h, e[k]);
    if (!SlipForce_Private(W, b, mu, e[k], rc[nc])) continue;
    errs[nc] = LocalError_Private(W, b, mu, rc[nc]);
    *min_err = PetscMin(*min_err, errs[nc]);
    nc++;
  }
  return nc;
}

/* Solve the one-contact problem u = W r + b, K ∋ r ⊥ û ∈ K*, in place (r: current value in, new
 * value out). W_nn > 0 is guaranteed by the caller. */
static void LocalSolve_Private(
  FcContactSolver_NSGS *ns, const PetscReal W[9], const PetscReal Winv[9], PetscBool inv_ok, PetscReal mu, const PetscReal b[3], PetscReal r[3])
{
  PetscReal rs[3], th[8][2], cand[3], best[3], err, best_err = PETSC_MAX_REAL, best_d2 = PETSC_MAX_REAL, min_err = PETSC_MAX_REAL;
  PetscReal errs[8], rc[8][3];
  Trig2     h;
  int       nth = 0, nreal = 0, nc = 0, k;

  best[0] = r[0];
  best[1] = r[1];
  best[2] = r[2];
  if (ns->local == NSGS_LOCAL_FIXED_POINT) { /* the projected fixed point alone, from the current r_a */
    ns->nfixed[0]++;
    if (!LocalFixedPoint_Private(W, b, mu, ns->local_max_it, ns->local_tol, r)) ns->nfixedmiss[0]++;
    return;
  }
  if (b[0] >= 0) { /* separation */
    r[0] = r[1] = r[2] = 0;
    ns->nsep[0]++;
    return;
  }
  if (mu == 0) { /* frictionless: u_N = 0 with r_T = 0 */
    r[0] = -b[0] / W[0];
    r[1] = r[2] = 0;
    ns->nstick[0]++;
    return;
  }
  if (inv_ok) { /* stick: u = 0 */
    PetscReal res[3], cor[3];
    Mult3_Private(Winv, b, rs);
    rs[0] = -rs[0];
    rs[1] = -rs[1];
    rs[2] = -rs[2];
    /* One step of iterative refinement: the cofactor inverse is accurate to cond(W_aa)·eps only,
     * the residual W r + b after this step to rounding. */
    Mult3_Private(W, rs, res);
    for (int i = 0; i < 3; i++) res[i] += b[i];
    Mult3_Private(Winv, res, cor);
    for (int i = 0; i < 3; i++) rs[i] -= cor[i];
    if (rs[0] > 0 && PetscSqrtReal(rs[1] * rs[1] + rs[2] * rs[2]) <= mu * rs[0]) {
      r[0] = rs[0];
      r[1] = rs[1];
      r[2] = rs[2];
      ns->nstick[0]++;
      return;
    }
  }
  /* slip */
  SlipSetup_Private(W, b, mu, &h);
  if (r[0] > 0 && (r[1] != 0 || r[2] != 0)) { /* was sliding (or sticking off-axis): Newton from its direction */
    const PetscReal rt = PetscSqrtReal(r[1] * r[1] + r[2] * r[2]);
    PetscReal       e[2];
    e[0] = r[1] / rt;
    e[1] = r[2] / rt;
    SlipNewton_Private(&h, e);
    if (SlipForce_Private(W, b, mu, e, cand) && LocalError_Private(W, b, mu, cand) <= ns->local_tol) {
      r[0] = cand[0];
      r[1] = cand[1];
      r[2] = cand[2];
      ns->nslip[0]++;
      return;
    }
  }
  ns->nquartic[0]++;
  nth = SlipQuarticRoots_Private(&h, th, &nreal);
  nc  = SlipCandidates_Private(&h, W, b, mu, ns->local_tol, nth, nreal, th, rc, errs, &min_err);
  /* Among the candidates that solve the local problem (to local_tol, or the best ones if none
   * does) the one closest to the current force: the local problem may have several slip
   * solutions for large μ, and continuity keeps the Gauss–Seidel iteration from jumping. */
  for (k = 0; k < nc; k++) {
    PetscReal d2 = 0;
    if (errs[k] > PetscMax(ns->local_tol, 2 * min_err)) continue;
    for (int i = 0; i < 3; i++) d2 += (rc[k][i] - r[i]) * (rc[k][i] - r[i]);
    if (d2 < best_d2) {
      best_d2  = d2;
      best_err = errs[k];
      for (int i = 0; i < 3; i++) best[i] = rc[k][i];
    }
  }
  if (nc && best_err <= ns->local_tol) {
    r[0] = best[0];
    r[1] = best[1];
    r[2] = best[2];
    ns->nslip[0]++;
    return;
  }
  /* fallback: the fixed point from the best candidate, or (fallback none) that candidate */
  ns->nfallback[0]++;
  if (nc) {
    for (int i = 0; i < 3; i++) cand[i] = best[i];
  } else {
    for (int i = 0; i < 3; i++) cand[i] = r[i];
    best_err = LocalError_Private(W, b, mu, cand);
  }
  if (ns->fallback == NSGS_FALLBACK_FIXED_POINT) {
    for (int i = 0; i < 3; i++) rs[i] = cand[i];
    LocalFixedPoint_Private(W, b, mu, ns->local_max_it, 0, rs);
    err = LocalError_Private(W, b, mu, rs);
    if (err < best_err || PetscIsInfOrNanReal(best_err)) {
      for (int i = 0; i < 3; i++) cand[i] = rs[i];
      best_err = err;
    }
  }
  if (!(best_err <= ns->local_tol)) ns->nfbmiss[0]++;
  r[0] = cand[0];
  r[1] = cand[1];
  r[2] = cand[2];
}

/* Over-relaxation of the local solution: r_a ← P_K((1 − ω) r_a + ω r_a^local) (rn in: r_a^local,
 * out: the relaxed force). For ω ≤ 1 the point is a convex combination of two points of the
 * convex cone K_μ and stays in it; for ω > 1 it may leave K_μ and is projected back, the rule of
 * projected SOR (Cryer, SIAM J. Control 9, 385–392, 1971: the over-relaxed iterate projected
 * onto the feasible set), here blockwise on the cone. A fixed point of the relaxed sweep
 * (rn = r_a) is one of the plain sweep, so the solutions, hence the common error, are those of
 * ω = 1. */
static inline void Relax_Private(PetscReal omega, PetscReal mu, const PetscReal r[3], PetscReal rn[3])
{
  PetscReal x[3];

  for (int i = 0; i < 3; i++) x[i] = (1 - omega) * r[i] + omega * rn[i];
  if (omega > 1) FcConeProject(mu, x, rn);
  else
    for (int i = 0; i < 3; i++) rn[i] = x[i];
}

static PetscErrorCode NSGSWork_Private(FcContactSolver_NSGS *ns, PetscInt m)
{
  PetscFunctionBegin;
  if (m <= ns->mcap && ns->Winv) PetscFunctionReturn(0);
  PetscCall(PetscFree5(ns->Waa, ns->Winv, ns->inv_ok, ns->u, ns->rcarry));
  PetscCall(PetscMalloc5(9 * (size_t)m, &ns->Waa, 9 * (size_t)m, &ns->Winv, (size_t)m, &ns->inv_ok, 3 * (size_t)m, &ns->u, 3 * (size_t)m, &ns->rcarry));
  ns->carry = PETSC_FALSE;
  ns->mcap  = m;
  PetscFunctionReturn(0);
}

/* The per-problem work (W alone): the diagonal blocks, W_nn > 0 (every local case with contact
 * needs it: a contact with no normal compliance cannot be solved locally; *bad the reason when
 * not, else 0), W_aa⁻¹ for the stick case, and W's symmetry (*symmetric). */
static PetscErrorCode Setup_Private(FcContactSolver_NSGS *ns, FcContactProblem p, FcContactSolverReason *bad, PetscBool *symmetric)
{
  PetscFunctionBegin;
  *bad       = FC_CONTACT_SOLVER_ITERATING;
  *symmetric = PETSC_TRUE;
  for (PetscInt a = 0; a < p->m; a++) {
    PetscReal *Waa = ns->Waa + 9 * a;
    FcContactProblemGetBlock(p, a, a, Waa);
    if (!(Waa[0] > 0)) {
      PetscCall(PetscInfo(NULL, "nsgs: contact %" PetscInt_FMT " has W_nn = %g <= 0\n", a, (double)Waa[0]));
      *bad = PetscIsInfOrNanReal(Waa[0]) ? FC_CONTACT_SOLVER_DIVERGED_NAN : FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
      PetscFunctionReturn(0);
    }
    ns->inv_ok[a] = Inv3_Private(Waa, ns->Winv + 9 * a);
  }
  *symmetric = FcContactProblemIsSymmetric(p);
  PetscFunctionReturn(0);
}

/* u = W r + q for a frozen problem, as a sum of the columns of the contacts that carry force,
 * u = q + Σ_{a: r_a ≠ 0} W_{:,a} r_a (the sweep's own update, FcContactProblemAddColumn): it reads
 * W only where r ≠ 0 and vectorizes, where the row dot products of FcContactProblemComputeVelocity
 * read all of W through a dependent chain of additions (1.6 ms against 0.4 ms at m = 340 with half
 * the contacts pressed, bench/haptic_tick.py). The same u up to rounding, in another order; the
 * unfrozen path keeps the row form, so that its results do not move. */
static void FrozenProduct_Private(FcContactProblem p, PetscBool symmetric, const PetscReal r[], PetscReal u[])
{
  for (PetscInt i = 0; i < 3 * p->m; i++) u[i] = p->q[i];
  for (PetscInt a = 0; a < p->m; a++)
    if (r[3 * a] != 0 || r[3 * a + 1] != 0 || r[3 * a + 2] != 0) FcContactProblemAddColumn(p, symmetric, a, r + 3 * a, u);
}

/* u = W r + q: the frozen path's column form, or the row products of the unfrozen path. */
static PetscErrorCode Product_Private(FcContactProblem p, PetscBool frozen, PetscBool symmetric, const PetscReal r[], PetscReal u[])
{
  PetscFunctionBegin;
  if (frozen) FrozenProduct_Private(p, symmetric, r, u);
  else PetscCall(FcContactProblemComputeVelocity(p, r, u));
  PetscFunctionReturn(0);
}

/* The iteration from r and u = W r + q in ns->u (*exact: u formed as the product since r and q
 * last changed; *since: incremental updates of u since it was last formed so, counted across the
 * solves of a frozen problem). */
static PetscErrorCode Iterate_Private(
  FcContactSolver s, FcContactProblem p, PetscBool frozen, PetscBool symmetric, PetscReal r[], PetscBool *exact, PetscInt *since, FcContactSolverStats *st)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;
  const PetscInt        m = p->m, n = 3 * m;
  PetscReal            *u = ns->u, error;
  PetscInt              it;

  PetscFunctionBegin;
  s->err_first = (PetscReal)NAN;
  /* Test before the first sweep: a warm start from a solution costs no sweep. */
  PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, &error));
  if (!*exact && error <= s->params.tol) { /* a carried u: confirm with u formed from r */
    PetscCall(Product_Private(p, frozen, symmetric, r, u));
    PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, &error));
    *exact = PETSC_TRUE;
    *since = 0;
  }
  if (PetscIsInfOrNanReal(error)) {
    st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
    PetscFunctionReturn(0);
  }
  if (error <= s->params.tol) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  for (it = 1; it <= s->params.max_it; it++) {
    const PetscInt *order = FcContactSweepOrderOf(&ns->sweep, it, m); /* NULL: 0, 1, …, m−1 */
    const PetscReal omega = ns->sweep.omega;
    PetscInt        nupd  = 0;
    for (PetscInt k = 0; k < m; k++) {
      const PetscInt   a   = order ? order[k] : k;
      PetscReal       *ra  = r + 3 * a, b[3], rn[3], d[3];
      const PetscReal *Waa = ns->Waa + 9 * a;

      /* b_a = q_a + Σ_{b≠a} W_ab r_b = u_a − W_aa r_a (eq. 25, frozen contributions). */
      Mult3_Private(Waa, ra, b);
      for (int i = 0; i < 3; i++) {
        b[i]  = u[3 * a + i] - b[i];
        rn[i] = ra[i];
      }
      LocalSolve_Private(ns, Waa, ns->Winv + 9 * a, ns->inv_ok[a], p->mu[a], b, rn);
      if (omega != 1) Relax_Private(omega, p->mu[a], ra, rn);
      d[0] = rn[0] - ra[0];
      d[1] = rn[1] - ra[1];
      d[2] = rn[2] - ra[2];
      if (d[0] == 0 && d[1] == 0 && d[2] == 0) continue;
      FcContactProblemAddColumn(p, symmetric, a, d, u); /* u += W_{:,a} d */
      ra[0] = rn[0];
      ra[1] = rn[1];
      ra[2] = rn[2];
      nupd++;
    }
    PetscCall(PetscLogFlops((p->W ? 6.0 * n : 18.0 * p->nb / m) * nupd + 30.0 * m));
    st->iterations = it;
    if (nupd) *exact = PETSC_FALSE;
    if (++*since == 64) { /* bound the drift of the incremental u */
      PetscCall(Product_Private(p, frozen, symmetric, r, u));
      *exact = PETSC_TRUE;
      *since = 0;
    }
    if (it % ns->error_every && it != s->params.max_it) continue;
    PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, &error));
    if (it == 1) s->err_first = error;
    if (PetscIsInfOrNanReal(error)) {
      st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
      PetscFunctionReturn(0);
    }
    if (error <= s->params.tol) { /* confirm with u recomputed from r */
      if (!*exact) {
        PetscCall(Product_Private(p, frozen, symmetric, r, u));
        PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, &error));
        *exact = PETSC_TRUE;
        *since = 0;
      }
      if (error <= s->params.tol) {
        st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
        PetscFunctionReturn(0);
      }
    }
  }
  st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

/* After an unfrozen solve: u for the object's judgement when formed as the product for the r
 * returned (solver.h uexact), the incremental u for a parent's decisions (ucarry), and what a
 * continued solve (s->resume) starts from. */
static PetscErrorCode Carry_Private(FcContactSolver s, FcContactSolver_NSGS *ns, FcContactProblem p, const PetscReal r[], PetscBool exact, PetscInt since,
  PetscBool symmetric, const FcContactSolverStats *st)
{
  PetscFunctionBegin;
  if (exact) s->uexact = ns->u;
  s->ucarry  = ns->u;
  ns->carry  = (PetscBool)(st->reason != FC_CONTACT_SOLVER_DIVERGED_NAN);
  ns->cp     = p;
  ns->cexact = exact;
  ns->csince = since;
  ns->csym   = symmetric;
  PetscCall(PetscArraycpy(ns->rcarry, r, 3 * p->m));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolveNSGS_Private(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;
  FcContactSolverReason bad;
  PetscBool             symmetric, exact = PETSC_TRUE;
  PetscInt              since = 0;

  PetscFunctionBegin;
  ns->fready = ns->uvalid = PETSC_FALSE; /* the work arrays now hold this problem's */
  s->ucarry               = NULL;
  if (p->m == 0) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  if (s->resume && ns->carry && ns->cp == p && p->m <= ns->mcap && !memcmp(r, ns->rcarry, 3 * (size_t)p->m * sizeof *r)) {
    /* auto's next chunk from the r this solve returned: the diagonal blocks, their inverses, W's
     * symmetry and u (with its state: formed as the product or not, updates since) as they were —
     * the sweeps of one nsgs solve, bit for bit, without a set-up and a product W r + q per chunk */
    exact = ns->cexact;
    since = ns->csince;
    PetscCall(FcContactSweepBegin(&ns->sweep, p->m));
    PetscCall(Iterate_Private(s, p, PETSC_FALSE, ns->csym, r, &exact, &since, st));
    PetscCall(Carry_Private(s, ns, p, r, exact, since, ns->csym, st));
    PetscFunctionReturn(0);
  }
  PetscCall(NSGSWork_Private(ns, p->m));
  ns->carry = PETSC_FALSE;
  PetscCall(FcContactSweepBegin(&ns->sweep, p->m));
  PetscCall(Setup_Private(ns, p, &bad, &symmetric));
  if (bad) {
    st->reason = bad;
    PetscFunctionReturn(0);
  }
  {
    /* a cold start (r = 0): u = q without reading W (the product adds zeros); marked not exact,
     * so that convergence is still confirmed with u formed as the product, which also meets a
     * non-finite W there */
    PetscBool zero = PETSC_TRUE;
    for (PetscInt i = 0; i < 3 * p->m && zero; i++) zero = (PetscBool)(r[i] == 0);
    if (zero) {
      PetscCall(PetscArraycpy(ns->u, p->q, 3 * p->m));
      exact = PETSC_FALSE;
    } else PetscCall(FcContactProblemComputeVelocity(p, r, ns->u));
  }
  PetscCall(Iterate_Private(s, p, PETSC_FALSE, symmetric, r, &exact, &since, st));
  PetscCall(Carry_Private(s, ns, p, r, exact, since, symmetric, st));
  PetscFunctionReturn(0);
}

/* The set-up of a frozen problem (W alone): the work arrays, the diagonal blocks, the symmetry. */
static PetscErrorCode FrozenSetup_Private(FcContactSolver_NSGS *ns, FcContactProblem p)
{
  const PetscInt m = p->m;

  PetscFunctionBegin;
  PetscCall(NSGSWork_Private(ns, m));
  if (m > ns->fcap) {
    PetscCall(PetscFree2(ns->rlast, ns->qlast));
    PetscCall(PetscMalloc2(3 * (size_t)m, &ns->rlast, 3 * (size_t)m, &ns->qlast));
    ns->fcap = m;
  }
  PetscCall(Setup_Private(ns, p, &ns->fbad, &ns->fsym));
  ns->fp     = p;
  ns->fready = PETSC_TRUE;
  ns->uvalid = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The frozen path (solver.h FcContactSolverFreeze): the set-up of p once per freeze (at the
 * freeze), u carried
 * from the previous solve when r is the r it returned (u ← u + (q − q_prev): the sweeps kept
 * u = W r + q, and only q changed), formed as the product otherwise and after 64 incremental
 * updates (sweeps or shifts), as within one solve. Nothing is allocated after the first solve. */
static PetscErrorCode SolveFrozen_Private(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st, PetscReal **uout, PetscBool *exact)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;
  const PetscInt        m = p->m, n = 3 * m;
  PetscReal            *u;

  PetscFunctionBegin;
  *uout  = NULL;
  *exact = PETSC_FALSE;
  if (m == 0) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  ns->carry = PETSC_FALSE; /* u now follows the frozen problem */
  if (!ns->fready || ns->fp != p) PetscCall(FrozenSetup_Private(ns, p));
  if (ns->fbad) {
    st->reason = ns->fbad;
    PetscFunctionReturn(0);
  }
  PetscCall(FcContactSweepBegin(&ns->sweep, m));
  u = ns->u;
  ns->nfrozen[0]++;
  if (ns->uvalid && ns->nupd_since < 64 && !memcmp(r, ns->rlast, (size_t)n * sizeof *r)) {
    for (PetscInt i = 0; i < n; i++) u[i] += p->q[i] - ns->qlast[i];
    ns->nupd_since++;
  } else {
    FrozenProduct_Private(p, ns->fsym, r, u);
    ns->nupd_since = 0;
    *exact         = PETSC_TRUE;
    ns->nproduct[0]++;
  }
  PetscCall(Iterate_Private(s, p, PETSC_TRUE, ns->fsym, r, exact, &ns->nupd_since, st));
  PetscCall(PetscArraycpy(ns->rlast, r, n));
  PetscCall(PetscArraycpy(ns->qlast, p->q, n));
  ns->uvalid = (PetscBool)(st->reason != FC_CONTACT_SOLVER_DIVERGED_NAN);
  *uout      = u;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverFreeze_NSGS(FcContactSolver s, FcContactProblem p)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;

  PetscFunctionBegin;
  ns->fp         = p;
  ns->fready     = PETSC_FALSE;
  ns->uvalid     = PETSC_FALSE;
  ns->nfrozen[0] = ns->nproduct[0] = 0;
  /* the set-up now, before the solves (a haptic loop freezes between its ticks, so that the
   * first tick does not pay it); again at the first solve if another problem is solved between */
  if (p && p->m) PetscCall(FrozenSetup_Private(ns, p));
  PetscFunctionReturn(0);
}

/* Counts local outcomes per solve and in total around the iteration proper (frozen: u out). */
static PetscErrorCode Counted_Private(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st, PetscReal **u, PetscBool *exact)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;
  const PetscInt        nf = ns->nfrozen[0], np = ns->nproduct[0];

  PetscFunctionBegin;
  ns->nsep[0] = ns->nstick[0] = ns->nslip[0] = ns->nquartic[0] = ns->nfallback[0] = ns->nfbmiss[0] = ns->nfixed[0] = ns->nfixedmiss[0] = 0;
  st->iterations                                                                                                                       = 0;
  if (u) PetscCall(SolveFrozen_Private(s, p, r, st, u, exact));
  else PetscCall(FcContactSolverSolveNSGS_Private(s, p, r, st));
  ns->nsep[1] += ns->nsep[0];
  ns->nstick[1] += ns->nstick[0];
  ns->nslip[1] += ns->nslip[0];
  ns->nquartic[1] += ns->nquartic[0];
  ns->nfallback[1] += ns->nfallback[0];
  ns->nfbmiss[1] += ns->nfbmiss[0];
  ns->nfixed[1] += ns->nfixed[0];
  ns->nfixedmiss[1] += ns->nfixedmiss[0];
  ns->nfrozen[1] += ns->nfrozen[0] - nf;
  ns->nproduct[1] += ns->nproduct[0] - np;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolve_NSGS(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  PetscFunctionBegin;
  PetscCall(Counted_Private(s, p, r, st, NULL, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolveFrozen_NSGS(
  FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st, PetscReal **u, PetscBool *exact)
{
  PetscFunctionBegin;
  PetscCall(Counted_Private(s, p, r, st, u, exact));
  PetscFunctionReturn(0);
}

/* A choice among names; an unknown one is recorded as the object's option error (solver.h: one
 * input-error line naming the option after the options block). */
static PetscErrorCode EnumOption_Private(
  FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char *opt, const char *text, const char *const names[], int n, int *value)
{
  char      val[64];
  PetscBool set;
  int       k;

  PetscFunctionBegin;
  PetscCall(PetscOptionsString(opt, text, "", names[*value], val, sizeof val, &set));
  if (!set) PetscFunctionReturn(0);
  for (k = 0; k < n; k++)
    if (!strcmp(val, names[k])) break;
  if (k < n) *value = k;
  else if (!s->opterr[0]) {
    snprintf(s->optname, sizeof s->optname, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1);
    snprintf(s->opterr, sizeof s->opterr, "unknown value '%s' (%s or %s)", val, names[0], names[1]);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSetFromOptions_NSGS(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "nsgs: nonlinear block Gauss-Seidel on the exact Coulomb cone");
  PetscCall(FcContactSolverOptionsBoundedInt(
    s, PetscOptionsObject, "-nsgs_error_every", "Sweeps between two evaluations of the stopping test (each O(m))", &ns->error_every, 1));
  PetscCall(PetscOptionsReal(
    "-nsgs_local_tol", "Relative natural-map residual a local (one-contact) solution must reach before the fallback", "", ns->local_tol, &ns->local_tol, NULL));
  PetscCall(FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-nsgs_local_max_it",
    "Iterations of the local fixed point (the fallback, or the local solver with -nsgs_local fixed_point)", &ns->local_max_it, 0));
  PetscCall(EnumOption_Private(s, PetscOptionsObject, "-nsgs_local",
    "Local (one-contact) solver: exact (closed forms and the slip quartic) or fixed_point (the projected fixed point alone)", NSGSLocalNames, 2,
    (int *)&ns->local));
  PetscCall(EnumOption_Private(s, PetscOptionsObject, "-nsgs_local_fallback",
    "When no exact candidate reaches local_tol: fixed_point (iterate from the best candidate) or none (keep the best candidate)", NSGSFallbackNames, 2,
    (int *)&ns->fallback));
  PetscCall(FcContactSweepSetFromOptions(s, PetscOptionsObject, "nsgs", &ns->sweep));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_NSGS(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;
  char                  sweep[128];

  PetscFunctionBegin;
  FcContactSweepDescribe(&ns->sweep, sweep, sizeof sweep);
  PetscCall(PetscViewerASCIIPrintf(
    viewer, "nsgs: error_every %" PetscInt_FMT ", local_tol %g, local_max_it %" PetscInt_FMT "\n", ns->error_every, (double)ns->local_tol, ns->local_max_it));
  PetscCall(PetscViewerASCIIPrintf(viewer, "nsgs: %s, local solver %s, fallback %s\n", sweep, NSGSLocalNames[ns->local], NSGSFallbackNames[ns->fallback]));
  if (ns->nfrozen[1])
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "nsgs: frozen problem: %" PetscInt_FMT " solves since the freeze (%" PetscInt_FMT
      " formed u = W r + q as the product at their start, the others carried it), %" PetscInt_FMT " since creation (%" PetscInt_FMT ")\n",
      ns->nfrozen[0], ns->nproduct[0], ns->nfrozen[1], ns->nproduct[1]));
  for (int k = 0; k < 2 && s->nsolves; k++) {
    if (ns->local == NSGS_LOCAL_FIXED_POINT)
      PetscCall(PetscViewerASCIIPrintf(viewer,
        "nsgs: local solves (%s): %" PetscInt_FMT " by the fixed point, %" PetscInt_FMT " of them stopped at local_max_it above local_tol\n",
        k ? "all solves" : "last solve", ns->nfixed[k], ns->nfixedmiss[k]));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer,
        "nsgs: local solves (%s): %" PetscInt_FMT " separation, %" PetscInt_FMT " stick or frictionless, %" PetscInt_FMT " slip (%" PetscInt_FMT
        " through the quartic), %" PetscInt_FMT " fallback (%" PetscInt_FMT " left above local_tol)\n",
        k ? "all solves" : "last solve", ns->nsep[k], ns->nstick[k], ns->nslip[k], ns->nquartic[k], ns->nfallback[k], ns->nfbmiss[k]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_NSGS(FcContactSolver s)
{
  FcContactSolver_NSGS *ns = (FcContactSolver_NSGS *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscFree5(ns->Waa, ns->Winv, ns->inv_ok, ns->u, ns->rcarry));
  PetscCall(PetscFree2(ns->rlast, ns->qlast));
  PetscCall(FcContactSweepDestroy(&ns->sweep));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_NSGS(FcContactSolver s)
{
  FcContactSolver_NSGS *ns;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ns));
  ns->error_every  = 1;
  ns->local_tol    = 1e-12;
  ns->local_max_it = 500;
  ns->local        = NSGS_LOCAL_EXACT;
  ns->fallback     = NSGS_FALLBACK_FIXED_POINT;
  FcContactSweepInit(&ns->sweep);
  s->data               = ns;
  s->ops.solve          = FcContactSolverSolve_NSGS;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_NSGS;
  s->ops.view           = FcContactSolverView_NSGS;
  s->ops.destroy        = FcContactSolverDestroy_NSGS;
  s->ops.freeze         = FcContactSolverFreeze_NSGS;
  s->ops.solvefrozen    = FcContactSolverSolveFrozen_NSGS;
  PetscFunctionReturn(0);
}
