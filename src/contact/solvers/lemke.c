/* fcsim — contact solver type "lemke": k-sided friction pyramids and Lemke's complementary
 * pivoting (duriez2006 §4.2, eq. 22–24; doc/contact.md, section "lemke").
 *
 * A block-sparse W (problem.h) is read block by block into the dense LCP matrix (M is N × N dense
 * in any case; no dense W is formed); View says so.
 *
 * 1. The LCP solver (FcLCPLemkeSolve). Find z with w = M z + q ≥ 0, z ≥ 0, wᵀz = 0. Lemke's
 *    method adds an artificial variable z0 and the covering vector e = (1, …, 1):
 *
 *        w − M z − e z0 = q,      w, z, z0 ≥ 0,      w_i z_i = 0 for all i.
 *
 *    A basis B holds n of the 2n+1 columns of A = [I, −M, −e]; x_B = B⁻¹q are the values of the
 *    basic variables, the others are 0. Start: the basis of all w (B = I, x_B = q); if q ≥ 0, z = 0
 *    is the solution. Else z0 enters at the value −min q_i and the w_r of the most negative q_r
 *    leaves: all w_i = q_i − q_r ≥ 0. Then the complement of the variable that just left enters
 *    (w_j ↔ z_j), its column y = B⁻¹a is computed, and the minimum-ratio test on x_B − θ y ≥ 0
 *    chooses the row that leaves; stop when z0 leaves (solution: every pair has one nonbasic,
 *    i.e. zero, member) or when y has no positive entry (ray termination).
 *
 *    Degeneracy. Ties in the ratio test (several basic variables reaching 0 together, the rule
 *    in the contact LCPs: every separated or frictionless contact gives zero rows) can make the
 *    method cycle. The lexicographic rule breaks them as if q were perturbed to
 *    q(ε) = q + (ε, ε², …, εⁿ): row i is compared through the row vector (x_i, (B⁻¹)_i,1..n)/y_i
 *    and the lexicographically smallest leaves. Every basic row stays lexicographically
 *    positive, so no basis repeats and the method terminates (Cottle, Pang & Stone, The Linear
 *    Complementarity Problem, §4.4 and §4.9). A tie with z0's row is broken in favour of z0
 *    (that pivot ends the run with a solution). FC_LCP_TIE_FIRST (smallest row index) is kept
 *    only to show, in the test, an LCP on which it cycles and the lexicographic rule does not.
 *
 *    Floating point. "Equal" in the ratio test means within 64 ε of the scale of the compared
 *    quantities. z0's tie is looser (LEMKE_Z0_TIE = 1e-11 of ‖x_B‖∞, measured as
 *    (θ_z0 − θ_min)·‖y‖∞, which bounds what any basic variable can lose by the choice): in
 *    pyramid LCPs z0 and a β often reach 0 at the same step, and a rounding gap of 1.6e-13 once
 *    lost that tie and led to a spurious ray one pivot later. A ray met with z0 already
 *    ≤ LEMKE_Z0_TIE ‖x_B‖∞ is likewise taken as a solution.
 *
 *    B⁻¹ is kept explicitly and updated by each pivot (row r /= y_r, row i −= y_i row r): O(n²)
 *    per pivot. On rank-deficient LCPs (W = HᵀM⁻¹H of stacked rigid bodies: four contacts per
 *    face, 12 rows of W for 6 degrees of freedom) the updates alone failed: a y_r of 9e-11 with
 *    ‖y‖∞ = 2e3 — rounding noise of a true zero — passed the old test y_r > 64 ε ‖y‖∞, the next
 *    basis was numerically singular, and the run "solved" the LCP with w ≥ −10¹² or ended on a
 *    spurious ray (common errors 0.03–0.36 at any k). Three safeguards (LemkeColumn_Private,
 *    LemkeDrift_Private, LemkeRefactor_Private):
 *    - a pivot must exceed the noise floor of y_i, LEMKE_PIVOT_TOL ‖(B⁻¹)_i,·‖₁ (‖a‖∞ + Σ_j |y_j|
 *      ‖a_basis(j)‖∞): the error bound of y = B⁻¹a for a B⁻¹ of relative accuracy LEMKE_PIVOT_TOL
 *      (relative to the row of B⁻¹ and the column scales; unchanged by a scaling of M or q, so
 *      no separate row/column scaling of the LCP is done);
 *    - before each pivot the residuals of B y = a and B x_B = q are measured (O(n²), the cost of
 *      the pivot) relative to what rounding explains; above LEMKE_DRIFT_TOL, B⁻¹ and x_B are
 *      recomputed from the basis columns (LU, PETSc's MatSeqDenseInvert), and so they are before
 *      a ray is declared (a ray is then a property of the basis, not of the drift);
 *    - at the end the final basis is recomputed from scratch and its values x_B = B⁻¹q refined
 *      (x_B += B⁻¹(q − B x_B), at most 3 steps, kept while the residual decreases). If one is
 *      negative beyond LEMKE_FEAS_TOL ‖x_B‖∞ the status is FC_LCP_INACCURATE, never SOLVED;
 *      otherwise values ≤ 64 ε ‖x_B‖∞ (degenerate basic variables, true value 0) are set to 0.
 *    Memory 3 n² reals (M, B⁻¹, and a work matrix for the recomputation, allocated on first use).
 *
 * 2. The contact problem as an LCP (duriez2006 eq. 22–24). Per contact a, the cone K_μ is
 *    replaced by the pyramid spanned by n + μ d_j, d_j = (cos 2πj/k, sin 2πj/k), j = 1..k, in
 *    (t1, t2) (eq. 22: inscribed, its k edges on the cone): r_a = (r_n, D β_a), β_a ∈ R^k ≥ 0,
 *    Σ_j β_aj ≤ μ_a r_n, D = [d_1 … d_k] (2×k). The unknowns of contact a are the k+2 values
 *    z_a = (r_n, β_1, …, β_k, λ) and eq. 23–24 read, with u = W r + q:
 *
 *        0 ≤ u_n                   ⊥ r_n ≥ 0              (Signorini)
 *        0 ≤ λ + d_jᵀ u_T          ⊥ β_j ≥ 0,  j = 1..k   (sliding opposite the force, eq. 21)
 *        0 ≤ μ r_n − Σ_j β_j       ⊥ λ ≥ 0                (pyramidal Coulomb condition)
 *
 *    λ is the sliding rate (λ = max_j −d_jᵀu_T when the contact slides). With H_a = diag(1, D)
 *    (3 × (k+1)) and H = diag(H_a), r = H x for x = (r_n, β)_a, so the LCP of size N = m(k+2), ordered
 *    contact by contact, is
 *
 *        M = [ HᵀWH   E ]      q̄ = [ Hᵀq ]      (E: a 1 at row β_aj, column λ_a;
 *            [ U − Eᵀ 0 ]          [  0  ]       U: μ_a at row λ_a, column r_n,a)
 *
 *    i.e. block (a, b) of HᵀWH is [[W_nn, W_nT D], [Dᵀ W_Tn, Dᵀ W_TT D]] of the 3×3 block W_ab
 *    (eq. 24's W_{n t_j} = W_nT d_j, W_{t_i t_j} = d_iᵀ W_TT d_j), and q̄ = (q_n, d_jᵀ q_T, 0).
 *    M is copositive when W is positive semidefinite (zᵀMz = xᵀHᵀWHx + Σ_a μ_a λ_a r_n,a ≥ 0),
 *    duriez2006's argument for Lemke. The solution is mapped back to r_a = (r_n, Σ_j β_j d_j).
 *
 * The common error (true cone) is computed by the object; the type reports CONVERGED_TOL when the
 * LCP was solved (the object turns it into DIVERGED_INEXACT when the pyramid's answer is not a
 * cone solution to tol), DIVERGED_BREAKDOWN on ray termination (FC_LCP_RAY; also on
 * FC_LCP_SINGULAR and FC_LCP_INACCURATE — View and -info name which), with r and the common error
 * of the last basis; DIVERGED_MAX_IT at the pivot limit, DIVERGED_NAN on non-finite data. One iteration = one pivot. Warm start is ignored
 * (Lemke starts from its own basis). */
#include "lemke.h"
#include <petscmat.h>

const char *FcLCPStatusName(FcLCPStatus status)
{
  switch (status) {
  case FC_LCP_SOLVED: return "SOLVED";
  case FC_LCP_RAY: return "RAY";
  case FC_LCP_MAX_PIVOTS: return "MAX_PIVOTS";
  case FC_LCP_SINGULAR: return "SINGULAR";
  case FC_LCP_INACCURATE: return "INACCURATE";
  }
  return "UNKNOWN";
}

/* ---------------------------------------------------------------------------------------------
 * 1. Lemke's method
 * Variables are numbered w_i = i, z_i = n + i, z0 = 2n. */

typedef struct {
  PetscInt         n;
  const PetscReal *M, *q;
  PetscReal       *Binv;   /* n×n, row-major */
  PetscReal       *x;      /* B⁻¹q: values of the basic variables, row by row */
  PetscReal       *y;      /* entering column B⁻¹a */
  PetscReal       *yfloor; /* noise floor of y_i (LemkeColumn_Private) */
  PetscReal       *cmax;   /* max_k |M_kj| per column j */
  PetscReal       *rown;   /* ‖(B⁻¹)_i,·‖₁ per row, kept by every pivot */
  PetscReal       *zval;   /* work: values of the basic z (residuals) */
  PetscInt        *zcol;   /* work: their columns of M */
  PetscReal       *a;      /* the entering column a, its nonzeros (values; rows in aidx) */
  PetscReal       *col;    /* work: residuals */
  PetscReal       *work;   /* work: refinement (3n) */
  PetscReal       *B;      /* work: the basis matrix for a refactorization (n×n, allocated on first use) */
  PetscInt        *basis;  /* variable basic in each row */
  PetscInt        *cand;   /* rows still tied in the lexicographic test */
  PetscInt        *aidx;
  PetscInt         annz;
  PetscReal        anorm; /* ‖a‖∞ */
  PetscInt         nrefactor;
} Lemke;

#define LEMKE_TIE       (64 * PETSC_MACHINE_EPSILON)
#define LEMKE_Z0_TIE    1e-11
#define LEMKE_PIVOT_TOL 1e-11 /* relative accuracy of B⁻¹ assumed by the noise floor of y (LemkeColumn_Private) */
#define LEMKE_DRIFT_TOL 1e-10 /* relative residual of B y = a or B x = q that triggers a refactorization */
#define LEMKE_FEAS_TOL  1e-9  /* a basic value below −this ‖x_B‖∞ after the final refactorization: inaccurate */

/* The entering column a_var (e_j for w_j, −M[:, j] for z_j, −e for z0) as its nonzeros. */
static void LemkeGather_Private(Lemke *L, PetscInt var)
{
  const PetscInt n = L->n;

  L->annz  = 0;
  L->anorm = 1;
  if (var < n) {
    L->a[0]    = 1;
    L->aidx[0] = var;
    L->annz    = 1;
  } else if (var < 2 * n) {
    const PetscInt j = var - n;
    L->anorm         = 0;
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal v = L->M[(size_t)k * n + j];
      if (v != 0) {
        L->a[L->annz]    = -v;
        L->aidx[L->annz] = k;
        L->annz++;
        L->anorm = PetscMax(L->anorm, PetscAbsReal(v));
      }
    }
  } else {
    for (PetscInt k = 0; k < n; k++) {
      L->a[k]    = -1;
      L->aidx[k] = k;
    }
    L->annz = n;
  }
}

/* y = B⁻¹ a (a gathered) and the noise floor of every y_i. Computed with an inexact B⁻¹, y solves
 * B y = a + ρ with a residual ‖ρ‖∞ ≈ η (‖a‖∞ + Σ_j |y_j| ‖a_basis(j)‖∞) (η: the relative accuracy
 * of B⁻¹, a backward error, measured as the "drift" below and kept ≤ LEMKE_DRIFT_TOL by
 * refactorization), hence |δy_i| = |(B⁻¹ρ)_i| ≤ ‖(B⁻¹)_i,·‖₁ ‖ρ‖∞. A y_i below that bound (with
 * η = LEMKE_PIVOT_TOL) is not known to be positive: pivoting on it divides row i of B⁻¹ by noise
 * and makes the next basis numerically singular (observed: a pivot of 9e-11 with ‖y‖∞ = 2e3 ruined
 * B⁻¹ of a pyramid-of-boxes LCP). The floor is relative to the row and column scales, hence
 * invariant under a scaling of M or q. */
static void LemkeColumn_Private(Lemke *L)
{
  const PetscInt n     = L->n;
  PetscReal      scale = L->anorm;

  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *Bi = L->Binv + (size_t)i * n;
    PetscReal        s  = 0;
    for (PetscInt t = 0; t < L->annz; t++) s += Bi[L->aidx[t]] * L->a[t];
    L->y[i] = s;
  }
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt var = L->basis[i];
    scale += PetscAbsReal(L->y[i]) * (var >= n && var < 2 * n ? L->cmax[var - n] : 1);
  }
  for (PetscInt i = 0; i < n; i++) L->yfloor[i] = LEMKE_PIVOT_TOL * scale * L->rown[i];
}

/* res = rhs − B v with B v = Σ_rows v_i a_basis(i); returns ‖res‖∞ / (‖rhs‖∞ + Σ_i |v_i| ‖a_basis(i)‖∞)
 * (the size of res relative to what rounding in forming B v can explain). The z columns are
 * applied row by row of M (contiguous reads). */
static PetscReal LemkeResidual_Private(Lemke *L, const PetscReal *rhs, const PetscReal *v, PetscReal *res)
{
  const PetscInt n     = L->n;
  PetscReal      scale = 0, rmax = 0, *zv = L->zval;
  PetscInt       nz = 0, *zj = L->zcol;

  for (PetscInt i = 0; i < n; i++) {
    res[i] = rhs[i];
    scale  = PetscMax(scale, PetscAbsReal(rhs[i]));
  }
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt var = L->basis[i];
    if (v[i] == 0) continue;
    if (var < n) {
      res[var] -= v[i];
      scale += PetscAbsReal(v[i]);
    } else if (var < 2 * n) {
      zj[nz]   = var - n;
      zv[nz++] = v[i];
      scale += L->cmax[var - n] * PetscAbsReal(v[i]);
    } else {
      for (PetscInt k = 0; k < n; k++) res[k] += v[i];
      scale += PetscAbsReal(v[i]);
    }
  }
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *Mk = L->M + (size_t)k * n;
    PetscReal        t  = 0;
    for (PetscInt u = 0; u < nz; u++) t += Mk[zj[u]] * zv[u];
    res[k] += t;
    rmax = PetscMax(rmax, PetscAbsReal(res[k]));
  }
  return scale > 0 ? rmax / scale : 0;
}

/* The drift of B⁻¹ and x_B before a pivot: the relative residuals (as LemkeResidual_Private) of
 * B y = a and B x_B = q, both in one pass over the rows of M. */
static void LemkeDrift_Private(Lemke *L, PetscReal *ey, PetscReal *ex)
{
  const PetscInt n  = L->n;
  PetscReal     *ry = L->col, *rx = L->work, sy = L->anorm, sx = 0, my = 0, mx = 0;
  PetscReal     *zy = L->zval, *zx = L->work + n;
  PetscInt       nz = 0, *zj = L->zcol;

  for (PetscInt i = 0; i < n; i++) {
    ry[i] = 0;
    rx[i] = L->q[i];
    sx    = PetscMax(sx, PetscAbsReal(L->q[i]));
  }
  for (PetscInt t = 0; t < L->annz; t++) ry[L->aidx[t]] = L->a[t];
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt  var = L->basis[i];
    const PetscReal yi = L->y[i], xi = L->x[i];
    if (var < n) {
      ry[var] -= yi;
      rx[var] -= xi;
      sy += PetscAbsReal(yi);
      sx += PetscAbsReal(xi);
    } else if (var < 2 * n) {
      zj[nz]   = var - n;
      zy[nz]   = yi;
      zx[nz++] = xi;
      sy += L->cmax[var - n] * PetscAbsReal(yi);
      sx += L->cmax[var - n] * PetscAbsReal(xi);
    } else {
      for (PetscInt k = 0; k < n; k++) {
        ry[k] += yi;
        rx[k] += xi;
      }
      sy += PetscAbsReal(yi);
      sx += PetscAbsReal(xi);
    }
  }
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *Mk = L->M + (size_t)k * n;
    PetscReal        ty = 0, tx = 0;
    for (PetscInt u = 0; u < nz; u++) {
      ty += Mk[zj[u]] * zy[u];
      tx += Mk[zj[u]] * zx[u];
    }
    my = PetscMax(my, PetscAbsReal(ry[k] + ty));
    mx = PetscMax(mx, PetscAbsReal(rx[k] + tx));
  }
  *ey = sy > 0 ? my / sy : 0;
  *ex = sx > 0 ? mx / sx : 0;
}

/* B⁻¹ and x_B = B⁻¹q recomputed from the basis columns (PETSc's MatSeqDenseInvert: LU with
 * partial pivoting, LAPACK getrf/getri): the explicit inverse updated pivot after pivot accumulates
 * rounding, and on the rank-deficient contact LCPs (W = HᵀM⁻¹H of stacked rigid bodies) it drifted
 * until "solutions" violated w ≥ 0 by 10¹². *ok = PETSC_FALSE (B⁻¹ kept) when B is singular. */
static PetscErrorCode LemkeRefactor_Private(Lemke *L, PetscBool *ok)
{
  const PetscInt n = L->n;
  Mat            A;
  MatFactorError err;
  PetscReal     *t;

  PetscFunctionBegin;
  if (!L->B) PetscCall(PetscMalloc1((size_t)n * n, &L->B));
  /* Row-major B, i.e. Bᵀ in PETSc's column-major dense storage: the inverse computed in place is
   * (Bᵀ)⁻¹ column-major, which read row-major is B⁻¹. */
  PetscCall(PetscArrayzero(L->B, (size_t)n * n));
  for (PetscInt c = 0; c < n; c++) {
    const PetscInt var = L->basis[c];
    if (var < n) L->B[(size_t)var * n + c] = 1;
    else if (var < 2 * n)
      for (PetscInt i = 0; i < n; i++) L->B[(size_t)i * n + c] = -L->M[(size_t)i * n + var - n];
    else
      for (PetscInt i = 0; i < n; i++) L->B[(size_t)i * n + c] = -1;
  }
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, L->B, &A));
  PetscCall(MatSeqDenseInvert(A));
  PetscCall(MatFactorGetError(A, &err));
  PetscCall(MatDestroy(&A));
  *ok = (PetscBool)(err == MAT_FACTOR_NOERROR);
  for (size_t i = 0; *ok && i < (size_t)n * n; i++)
    if (PetscIsInfOrNanReal(L->B[i])) *ok = PETSC_FALSE;
  if (!*ok) PetscFunctionReturn(0);
  t       = L->Binv; /* the new inverse becomes B⁻¹, the old array the next work space */
  L->Binv = L->B;
  L->B    = t;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *Bi = L->Binv + (size_t)i * n;
    PetscReal        s = 0, rn = 0;
    for (PetscInt k = 0; k < n; k++) {
      s += Bi[k] * L->q[k];
      rn += PetscAbsReal(Bi[k]);
    }
    L->x[i]    = s;
    L->rown[i] = rn;
  }
  L->nrefactor++;
  PetscFunctionReturn(0);
}

/* Lexicographic minimum of (x_i⁺, (B⁻¹)_i,1..n) / d_i over the nc rows in cand (destroyed), with
 * d_i = y_i > 0 for the ratio test, or of (x_i, (B⁻¹)_i) (d = NULL: the first pivot, where x = q
 * may be negative and the most negative leaves). Ties within LEMKE_TIE of the scale. */
static PetscInt LemkeLexMin_Private(Lemke *L, const PetscReal *d, PetscInt nc, PetscReal xscale, FcLCPTieRule tie)
{
  const PetscInt n    = L->n;
  PetscInt      *cand = L->cand, nt = 0;
  PetscReal      vmin = PETSC_MAX_REAL;

  /* level 0: the ratio itself; row i ties when its value after the step, x_i − θ d_i, is 0 to
   * rounding of the basic values. */
  for (PetscInt t = 0; t < nc; t++) {
    const PetscInt  i = cand[t];
    const PetscReal v = d ? PetscMax(L->x[i], 0) / d[i] : L->x[i];
    vmin              = PetscMin(vmin, v);
  }
  for (PetscInt t = 0; t < nc; t++) {
    const PetscInt  i = cand[t];
    const PetscReal e = d ? PetscMax(L->x[i], 0) - vmin * d[i] : L->x[i] - vmin;
    if (e <= LEMKE_TIE * xscale) cand[nt++] = i;
  }
  if (tie == FC_LCP_TIE_FIRST) return cand[0]; /* cand is in increasing row order */
  /* levels 1..n: the columns of B⁻¹ (linearly independent rows: the tie ends) */
  for (PetscInt c = 0; c < n && nt > 1; c++) {
    PetscReal amax = 0;
    PetscInt  nk   = 0;
    vmin           = PETSC_MAX_REAL;
    for (PetscInt t = 0; t < nt; t++) {
      const PetscInt  i = cand[t];
      const PetscReal v = L->Binv[(size_t)i * n + c] / (d ? d[i] : 1);
      vmin              = PetscMin(vmin, v);
      amax              = PetscMax(amax, PetscAbsReal(v));
    }
    for (PetscInt t = 0; t < nt; t++) {
      const PetscInt  i = cand[t];
      const PetscReal v = L->Binv[(size_t)i * n + c] / (d ? d[i] : 1);
      if (v - vmin <= LEMKE_TIE * amax) cand[nk++] = i;
    }
    nt = nk;
  }
  return cand[0];
}

/* Pivot on row r with the entering column y: the entering variable takes row r. */
static void LemkePivot_Private(Lemke *L, PetscInt r, PetscInt entering)
{
  const PetscInt  n   = L->n;
  const PetscReal inv = 1.0 / L->y[r];
  PetscReal      *Br  = L->Binv + (size_t)r * n;

  PetscReal rn = 0;

  L->x[r] *= inv;
  for (PetscInt k = 0; k < n; k++) {
    Br[k] *= inv;
    rn += PetscAbsReal(Br[k]);
  }
  L->rown[r] = rn;
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal f = L->y[i];
    PetscReal      *Bi;
    if (i == r || f == 0) continue;
    Bi = L->Binv + (size_t)i * n;
    L->x[i] -= f * L->x[r];
    rn = 0;
    for (PetscInt k = 0; k < n; k++) {
      Bi[k] -= f * Br[k];
      rn += PetscAbsReal(Bi[k]);
    }
    L->rown[i] = rn;
  }
  L->basis[r] = entering;
}

/* Iterative refinement of the basic values: x_B += B⁻¹(q − B x_B), at most 3 steps, kept while
 * the residual decreases. */
static void LemkeRefine_Private(Lemke *L)
{
  const PetscInt n   = L->n;
  PetscReal     *res = L->col, *xn = L->work, *res2 = L->work + n;
  PetscReal      nr = LemkeResidual_Private(L, L->q, L->x, res);

  for (int it = 0; it < 3 && nr > 0; it++) {
    PetscReal nr2;
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal *Bi = L->Binv + (size_t)i * n;
      PetscReal        s  = 0;
      for (PetscInt k = 0; k < n; k++) s += Bi[k] * res[k];
      xn[i] = L->x[i] + s;
    }
    nr2 = LemkeResidual_Private(L, L->q, xn, res2);
    if (!(nr2 < nr)) break;
    for (PetscInt i = 0; i < n; i++) {
      L->x[i] = xn[i];
      res[i]  = res2[i];
    }
    nr = nr2;
  }
}

/* Accuracy of B⁻¹ and x_B, checked on the column about to be pivoted on (B y = a) and on the
 * basic values (B x_B = q): both O(n²), the cost of the pivot itself. Above LEMKE_DRIFT_TOL
 * (relative to what rounding in forming B y explains), B⁻¹ is recomputed from scratch and the
 * column formed again (*fresh); *ok false when that basis is singular. */
static PetscErrorCode LemkeCheckDrift_Private(Lemke *L, FcLCPLemkeInfo *info, PetscBool *ok, PetscBool *fresh)
{
  PetscReal ey, ex;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  LemkeDrift_Private(L, &ey, &ex);
  info->drift = PetscMax(info->drift, PetscMax(ey, ex));
  if (ey > LEMKE_DRIFT_TOL || ex > LEMKE_DRIFT_TOL) {
    PetscCall(LemkeRefactor_Private(L, ok));
    if (!*ok) PetscFunctionReturn(0);
    LemkeColumn_Private(L);
    *fresh = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* The work of one run: B⁻¹ = I, x_B = q, the basis w (row i holds w_i), the column maxima of M. */
static PetscErrorCode LemkeSetUp_Private(Lemke *L, PetscInt n, const PetscReal *M, const PetscReal *q)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(L, sizeof(*L)));
  L->n = n;
  L->M = M;
  L->q = q;
  PetscCall(PetscCalloc1((size_t)n * n, &L->Binv));
  PetscCall(PetscMalloc6(n, &L->x, n, &L->y, n, &L->yfloor, n, &L->a, n, &L->col, 3 * (size_t)n, &L->work));
  PetscCall(PetscCalloc1(n, &L->cmax));
  PetscCall(PetscMalloc3(n, &L->rown, n, &L->zval, n, &L->zcol));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++) L->cmax[j] = PetscMax(L->cmax[j], PetscAbsReal(M[(size_t)k * n + j]));
  PetscCall(PetscMalloc3(n, &L->basis, n, &L->cand, n, &L->aidx));
  for (PetscInt i = 0; i < n; i++) {
    L->Binv[(size_t)i * n + i] = 1;
    L->x[i]                    = q[i];
    L->basis[i]                = i;
    L->cand[i]                 = i;
    L->rown[i]                 = 1;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LemkeDestroy_Private(Lemke *L)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(L->B));
  PetscCall(PetscFree(L->cmax));
  PetscCall(PetscFree3(L->rown, L->zval, L->zcol));
  PetscCall(PetscFree3(L->basis, L->cand, L->aidx));
  PetscCall(PetscFree6(L->x, L->y, L->yfloor, L->a, L->col, L->work));
  PetscCall(PetscFree(L->Binv));
  PetscFunctionReturn(0);
}

/* z0 left the basis: the final basis from scratch, so that the answer does not depend on the
 * drift of the updates, refined; *st becomes SINGULAR or INACCURATE when it is no solution. */
static PetscErrorCode LemkeFinal_Private(Lemke *L, FcLCPStatus *st, FcLCPLemkeInfo *info)
{
  const PetscInt n    = L->n;
  PetscReal      xmax = 0, xmin = 0;
  PetscBool      ok;

  PetscFunctionBegin;
  PetscCall(LemkeRefactor_Private(L, &ok));
  if (!ok) {
    *st = FC_LCP_SINGULAR;
    PetscFunctionReturn(0);
  }
  LemkeRefine_Private(L);
  for (PetscInt i = 0; i < n; i++) {
    xmax = PetscMax(xmax, PetscAbsReal(L->x[i]));
    xmin = PetscMin(xmin, L->x[i]);
  }
  info->infeasibility = xmax > 0 ? -xmin / xmax : 0;
  /* a complementary basis whose values, computed from scratch, are negative beyond rounding
   * is no solution: the pivoting lost the feasible path */
  if (-xmin > LEMKE_FEAS_TOL * xmax) *st = FC_LCP_INACCURATE;
  /* degenerate basic variables (true value 0) come out at rounding level, of either sign */
  else
    for (PetscInt i = 0; i < n; i++)
      if (L->x[i] <= LEMKE_TIE * xmax) L->x[i] = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcLCPLemkeSolve(PetscInt n, const PetscReal *M, const PetscReal *q, PetscReal *z, PetscInt maxpivots, PetscInt *pivots, FcLCPStatus *status)
{
  FcLCPLemkeInfo info;

  PetscFunctionBegin;
  PetscCall(FcLCPLemkeSolveInfo(n, M, q, z, maxpivots, FC_LCP_TIE_LEXICOGRAPHIC, &info));
  if (pivots) *pivots = info.pivots;
  if (status) *status = info.status;
  PetscFunctionReturn(0);
}

PetscErrorCode FcLCPLemkeSolveInfo(PetscInt n, const PetscReal *M, const PetscReal *q, PetscReal *z, PetscInt maxpivots, FcLCPTieRule tie, FcLCPLemkeInfo *info)
{
  Lemke       L;
  PetscInt    npiv = 0, entering, r = -1, prev;
  PetscReal   qmin = 0, qscale = 0;
  FcLCPStatus st = FC_LCP_SOLVED;
  PetscBool   ok = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "LCP size %" PetscInt_FMT " < 0", n);
  PetscCheck(maxpivots >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "maxpivots %" PetscInt_FMT " < 0", maxpivots);
  PetscCheck(!n || (M && q && z), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null M, q or z");
  PetscCheck(info, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null info");
  for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
    PetscCheck(!PetscIsInfOrNanReal(M[i]), PETSC_COMM_SELF, PETSC_ERR_FP, "LCP matrix entry %zu is not finite", i);
  for (PetscInt i = 0; i < n; i++) {
    PetscCheck(!PetscIsInfOrNanReal(q[i]), PETSC_COMM_SELF, PETSC_ERR_FP, "LCP vector entry %" PetscInt_FMT " is not finite", i);
    qmin   = PetscMin(qmin, q[i]);
    qscale = PetscMax(qscale, PetscAbsReal(q[i]));
    z[i]   = 0;
  }
  PetscCall(PetscMemzero(info, sizeof(*info)));
  info->status = FC_LCP_SOLVED;
  if (qmin >= 0) PetscFunctionReturn(0); /* z = 0, w = q ≥ 0 */
  if (maxpivots == 0) {
    info->status = FC_LCP_MAX_PIVOTS;
    PetscFunctionReturn(0);
  }

  PetscCall(LemkeSetUp_Private(&L, n, M, q));

  /* First pivot: z0 enters (y = −e), the lexicographically most negative row leaves. */
  entering = 2 * n;
  LemkeGather_Private(&L, entering);
  LemkeColumn_Private(&L);
  r    = LemkeLexMin_Private(&L, NULL, n, qscale, tie);
  prev = L.basis[r]; /* the variable that left at the last pivot: here w_r */
  LemkePivot_Private(&L, r, entering);
  npiv++;
  PetscCall(PetscLogFlops(2.0 * n * n));
  for (;;) {
    PetscInt  nc = 0, r0 = -1;
    PetscReal ymax = 0, xscale = qscale, vmin = PETSC_MAX_REAL;
    PetscBool fresh = PETSC_FALSE; /* B⁻¹ refactorized for this column */

    ok = PETSC_TRUE;

    if (prev == 2 * n) break; /* z0 left: solution */
    if (npiv >= maxpivots) {
      st = FC_LCP_MAX_PIVOTS;
      break;
    }
    entering = prev < n ? prev + n : prev - n; /* the complement enters */
    LemkeGather_Private(&L, entering);
    LemkeColumn_Private(&L);
    PetscCall(LemkeCheckDrift_Private(&L, info, &ok, &fresh));
    if (!ok) {
      st = FC_LCP_SINGULAR;
      break;
    }
    for (;;) {
      nc     = 0;
      r0     = -1;
      ymax   = 0;
      xscale = qscale;
      vmin   = PETSC_MAX_REAL;
      for (PetscInt i = 0; i < n; i++) {
        ymax   = PetscMax(ymax, PetscAbsReal(L.y[i]));
        xscale = PetscMax(xscale, PetscAbsReal(L.x[i]));
      }
      /* ratio test over the rows with y_i > 0, above its noise floor (x_i − θ y_i reaches 0 at
       * θ = x_i / y_i) */
      for (PetscInt i = 0; i < n; i++)
        if (L.y[i] > L.yfloor[i] && L.y[i] > LEMKE_TIE * ymax) {
          L.cand[nc++] = i;
          if (L.basis[i] == 2 * n) r0 = i;
          vmin = PetscMin(vmin, PetscMax(L.x[i], 0) / L.y[i]);
        }
      if (nc || fresh) break;
      /* no pivot: before declaring a ray, make sure it is not an artefact of a drifted B⁻¹ */
      PetscCall(LemkeRefactor_Private(&L, &ok));
      if (!ok) break;
      LemkeColumn_Private(&L);
      fresh = PETSC_TRUE;
    }
    if (!ok) {
      st = FC_LCP_SINGULAR;
      break;
    }
    if (!nc) { /* θ can grow without bound: secondary ray */
      /* ... unless z0 is already 0 to rounding: then the basis is a solution whose exact tie
       * with z0 was missed by rounding (observed with pyramid LCPs) */
      for (PetscInt i = 0; i < n; i++)
        if (L.basis[i] == 2 * n && L.x[i] <= LEMKE_Z0_TIE * xscale) prev = 2 * n;
      if (prev == 2 * n) break;
      st = FC_LCP_RAY;
      break;
    }
    /* z0 leaves (and ends the run) when its ratio ties with the minimum; the tie is measured as
     * the gap of ratios times ‖y‖∞, which bounds what any basic variable can lose by the choice */
    if (r0 >= 0 && (PetscMax(L.x[r0], 0) / L.y[r0] - vmin) * ymax <= LEMKE_Z0_TIE * xscale) r = r0;
    else r = LemkeLexMin_Private(&L, L.y, nc, xscale, tie);
    prev = L.basis[r];
    LemkePivot_Private(&L, r, entering);
    npiv++;
    PetscCall(PetscLogFlops(6.0 * n * n));
  }
  if (st == FC_LCP_SOLVED) PetscCall(LemkeFinal_Private(&L, &st, info));
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt v = L.basis[i];
    if (v >= n && v < 2 * n) z[v - n] = L.x[i];
    if (v == 2 * n) info->z0 = L.x[i];
  }
  info->pivots    = npiv;
  info->refactors = L.nrefactor;
  info->status    = st;
  PetscCall(LemkeDestroy_Private(&L));
  PetscFunctionReturn(0);
}

PetscErrorCode FcLCPLemke(PetscInt n, const PetscReal *M, const PetscReal *q, PetscReal *z, PetscInt maxpivots, PetscInt *pivots, PetscBool *ray)
{
  FcLCPStatus st = FC_LCP_SOLVED;

  PetscFunctionBegin;
  PetscCall(FcLCPLemkeSolve(n, M, q, z, maxpivots, pivots, &st));
  if (ray) *ray = st == FC_LCP_RAY ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------------------------
 * 2. The contact-solver type */

typedef struct {
  /* parameters (defaults in FcContactSolverCreate_Lemke) */
  PetscInt k;          /* 8: sides of the friction pyramid, ≥ 3 */
  PetscInt max_size;   /* 3000: largest LCP (N unknowns: k+2 per frictional, 1 per frictionless contact) Solve accepts */
  PetscInt max_pivots; /* -1: automatic, max(max_it, 10 N) */
  /* last solve */
  PetscInt       size, limit, pivots;
  FcLCPStatus    status;
  PetscInt       nsep, nstick, nslide; /* contacts by state in the LCP solution */
  PetscInt64     wblocks;              /* stored blocks of a block-sparse W (−1: W was dense) */
  FcLCPLemkeInfo info;                 /* what Lemke's method measured */
} FcContactSolver_Lemke;

/* M and q̄ of the pyramid LCP (duriez2006 eq. 24, block (a, b) as in the header comment), row-major
 * N×N. Contact a owns the rows/columns off[a] + {0: r_n, 1..k: β_j, k+1: λ}, or only off[a] + 0
 * (r_n) when μ_a = 0: a frictionless contact's pyramid is the ray r_T = 0 (Σβ ≤ 0 forces β = 0),
 * so its β and λ carry nothing but degenerate pivots and are left out; the LCP is then the
 * Signorini problem 0 ≤ W_nn r_n + q_n ⊥ r_n ≥ 0 on those contacts. */
static void LemkeBuildLCP_Private(FcContactProblem p, PetscInt k, const PetscInt *off, const PetscReal *c, const PetscReal *s, PetscReal *M, PetscReal *qb)
{
  const PetscInt m = p->m, N = off[m];

  for (PetscInt a = 0; a < m; a++) {
    const PetscReal *qa = p->q + 3 * a;
    const PetscInt   ra = off[a];
    const PetscBool  fa = (PetscBool)(off[a + 1] - off[a] > 1); /* contact a has friction */
    for (PetscInt b = 0; b < m; b++) {
      const PetscInt  cb = off[b];
      const PetscBool fb = (PetscBool)(off[b + 1] - off[b] > 1);
      PetscReal       Wv[9];
      const PetscReal(*Wab)[3] = (const PetscReal(*)[3])Wv;
      /* Either storage of W (problem.h): a block-sparse W is read block by block (zero where not
       * stored), never formed dense; M is dense in both cases. */
      FcContactProblemGetBlock(p, a, b, Wv);
      /* row r_n,a: [W_nn, W_nT d_j] */
      M[(size_t)ra * N + cb] = Wab[0][0];
      if (fb)
        for (PetscInt j = 0; j < k; j++) M[(size_t)ra * N + cb + 1 + j] = Wab[0][1] * c[j] + Wab[0][2] * s[j];
      if (!fa) continue;
      /* rows β_a,i: [d_iᵀ W_Tn, d_iᵀ W_TT d_j] */
      for (PetscInt i = 0; i < k; i++) {
        PetscReal      *Mi = M + (size_t)(ra + 1 + i) * N + cb;
        const PetscReal t1 = c[i] * Wab[1][1] + s[i] * Wab[2][1], t2 = c[i] * Wab[1][2] + s[i] * Wab[2][2];
        Mi[0] = c[i] * Wab[1][0] + s[i] * Wab[2][0];
        if (fb)
          for (PetscInt j = 0; j < k; j++) Mi[1 + j] = t1 * c[j] + t2 * s[j];
      }
    }
    qb[ra] = qa[0];
    if (!fa) continue;
    /* λ_a: column of ones in the β_a rows; row [μ_a, −1 … −1, 0] */
    for (PetscInt i = 0; i < k; i++) M[(size_t)(ra + 1 + i) * N + ra + k + 1] = 1;
    M[(size_t)(ra + k + 1) * N + ra] = p->mu[a];
    for (PetscInt j = 0; j < k; j++) M[(size_t)(ra + k + 1) * N + ra + 1 + j] = -1;
    for (PetscInt i = 0; i < k; i++) qb[ra + 1 + i] = c[i] * qa[1] + s[i] * qa[2];
    qb[ra + k + 1] = 0;
  }
}

static PetscErrorCode FcContactSolverSolve_Lemke(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_Lemke *lk = (FcContactSolver_Lemke *)s->data;
  const PetscInt         m = p->m, k = lk->k, nb = k + 2;
  PetscInt64             N64 = 0;
  PetscReal             *M, *qb, *z, *c, *sn;
  PetscInt               N, pivots = 0, *off;
  FcLCPStatus            status;
  PetscBool              finite = PETSC_TRUE;

  PetscFunctionBegin;
  st->iterations = 0;
  lk->size = lk->limit = lk->pivots = 0;
  lk->status                        = FC_LCP_SOLVED;
  lk->nsep = lk->nstick = lk->nslide = 0;
  lk->wblocks                        = FcContactProblemIsSparse(p) ? p->nb : -1;
  if (lk->wblocks >= 0)
    PetscCall(PetscInfo(
      NULL, "lemke: W is block-sparse (%" PetscInt_FMT " blocks of %" PetscInt_FMT "^2): the LCP matrix is formed dense from its blocks\n", p->nb, m));
  if (m == 0) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  for (PetscInt a = 0; a < m; a++) N64 += p->mu[a] > 0 ? nb : 1;
  PetscCheck(N64 <= lk->max_size, PETSC_COMM_SELF, PETSC_ERR_SUP,
    "lemke: %" PetscInt_FMT " contacts with a %" PetscInt_FMT "-sided pyramid make an LCP of %" PetscInt64_FMT
    " unknowns (k+2 per frictional contact, 1 per frictionless one), above the limit of %" PetscInt_FMT
    " (a dense LCP needs 3 N^2 doubles, %.3g MB here, and O(N^3) work); raise the limit with -fc_contact_solver_lemke_max_size, lower -fc_contact_solver_lemke_k, or use another solver type",
    m, k, N64, lk->max_size, 3.0 * (double)N64 * (double)N64 * sizeof(PetscReal) / 1048576.0);
  N         = (PetscInt)N64;
  lk->size  = N;
  lk->limit = lk->max_pivots >= 0 ? lk->max_pivots : PetscMax(s->params.max_it, 10 * N);

  PetscCall(PetscCalloc1((size_t)N * N, &M));
  PetscCall(PetscMalloc5(N, &qb, N, &z, k, &c, k, &sn, m + 1, &off));
  off[0] = 0;
  for (PetscInt a = 0; a < m; a++) off[a + 1] = off[a] + (p->mu[a] > 0 ? nb : 1);
  for (PetscInt j = 0; j < k; j++) { /* d_j, j = 1..k (index j−1); angle 2πj/k ≡ 2π(j mod k)/k */
    const PetscReal th = 2 * PETSC_PI * (PetscReal)((j + 1) % k) / (PetscReal)k;
    c[j]               = PetscCosReal(th);
    sn[j]              = PetscSinReal(th);
  }
  LemkeBuildLCP_Private(p, k, off, c, sn, M, qb);
  for (size_t i = 0; i < (size_t)N * N && finite; i++)
    if (PetscIsInfOrNanReal(M[i])) finite = PETSC_FALSE;
  for (PetscInt i = 0; i < N && finite; i++)
    if (PetscIsInfOrNanReal(qb[i])) finite = PETSC_FALSE;
  if (!finite) {
    PetscCall(PetscInfo(NULL, "lemke: non-finite W or q\n"));
    st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
  } else {
    PetscCall(FcLCPLemkeSolveInfo(N, M, qb, z, lk->limit, FC_LCP_TIE_LEXICOGRAPHIC, &lk->info));
    pivots         = lk->info.pivots;
    status         = lk->info.status;
    lk->pivots     = pivots;
    lk->status     = status;
    st->iterations = pivots;
    st->reason     = status == FC_LCP_SOLVED ? FC_CONTACT_SOLVER_CONVERGED_TOL
          : status == FC_LCP_MAX_PIVOTS      ? FC_CONTACT_SOLVER_DIVERGED_MAX_IT
                                             : FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
    /* r_a = (r_n, Σ_j β_j d_j). Σ_j β_j ≤ μ r_n holds to rounding; where rounding exceeds it, β
     * is scaled onto the pyramid so that r lies in it (hence in the cone) in floating point. */
    for (PetscInt a = 0; a < m; a++) {
      PetscReal *za = z + off[a], t1 = 0, t2 = 0, sb = 0;
      za[0] = PetscMax(za[0], 0);     /* only a run stopped early may leave negatives (its last basis) */
      if (off[a + 1] - off[a] == 1) { /* frictionless: r = (r_n, 0, 0) */
        r[3 * a]     = za[0];
        r[3 * a + 1] = r[3 * a + 2] = 0;
        if (!(za[0] > 0)) lk->nsep++;
        else lk->nslide++;
        continue;
      }
      for (PetscInt j = 0; j < k; j++) {
        za[1 + j] = PetscMax(za[1 + j], 0);
        sb += za[1 + j];
      }
      if (sb > p->mu[a] * za[0])
        for (PetscInt j = 0; j < k; j++) za[1 + j] *= p->mu[a] * za[0] / sb;
      for (PetscInt j = 0; j < k; j++) {
        t1 += za[1 + j] * c[j];
        t2 += za[1 + j] * sn[j];
      }
      r[3 * a]     = za[0];
      r[3 * a + 1] = t1;
      r[3 * a + 2] = t2;
      if (!(za[0] > 0)) lk->nsep++;
      else if (za[k + 1] > 0) lk->nslide++;
      else lk->nstick++;
    }
    if (status != FC_LCP_SOLVED)
      PetscCall(PetscInfo(NULL, "lemke: LCP of size %" PetscInt_FMT " ended by %s after %" PetscInt_FMT " pivots (z0 %g)\n", N, FcLCPStatusName(status), pivots,
        (double)lk->info.z0));
  }
  PetscCall(PetscFree5(qb, z, c, sn, off));
  PetscCall(PetscFree(M));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSetFromOptions_Lemke(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_Lemke *lk = (FcContactSolver_Lemke *)s->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "lemke: k-sided friction pyramids, one LCP solved by Lemke's method");
  PetscCall(FcContactSolverOptionsBoundedInt(
    s, PetscOptionsObject, "-lemke_k", "Sides of the pyramid replacing the friction cone (k+2 LCP unknowns per frictional contact)", &lk->k, 3));
  PetscCall(FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-lemke_max_size",
    "Largest LCP (N unknowns: k+2 per frictional, 1 per frictionless contact) a solve accepts; dense: 3 N^2 doubles, O(N^3) work", &lk->max_size, 1));
  PetscCall(
    FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-lemke_max_pivots", "Pivot limit (-1: max(max_it, 10 N), N the LCP size)", &lk->max_pivots, -1));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_Lemke(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_Lemke *lk = (FcContactSolver_Lemke *)s->data;

  PetscFunctionBegin;
  if (lk->max_pivots >= 0)
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "lemke: k %" PetscInt_FMT " (pyramid sides), max_size %" PetscInt_FMT " (LCP unknowns), max_pivots %" PetscInt_FMT "\n",
        lk->k, lk->max_size, lk->max_pivots));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "lemke: k %" PetscInt_FMT " (pyramid sides), max_size %" PetscInt_FMT " (LCP unknowns), max_pivots automatic (max(max_it, 10 N))\n", lk->k,
      lk->max_size));
  if (s->nsolves && lk->size)
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "lemke: last LCP: %" PetscInt_FMT " unknowns, %" PetscInt_FMT " pivots (limit %" PetscInt_FMT "), %s; B^-1 recomputed %" PetscInt_FMT
      " times, largest drift %.2g; contacts: %" PetscInt_FMT " separated, %" PetscInt_FMT " sticking, %" PetscInt_FMT " sliding\n",
      lk->size, lk->pivots, lk->limit, FcLCPStatusName(lk->status), lk->info.refactors, (double)lk->info.drift, lk->nsep, lk->nstick, lk->nslide));
  if (s->nsolves && lk->wblocks >= 0)
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "lemke: last W block-sparse (%" PetscInt64_FMT " stored 3x3 blocks): its blocks were copied into the dense LCP matrix (N^2 doubles)\n", lk->wblocks));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_Lemke(FcContactSolver s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_Lemke(FcContactSolver s)
{
  FcContactSolver_Lemke *lk;

  PetscFunctionBegin;
  PetscCall(PetscNew(&lk));
  lk->k                 = 8;
  lk->max_size          = 3000;
  lk->max_pivots        = -1;
  lk->wblocks           = -1;
  s->data               = lk;
  s->noguess            = "Lemke's method starts from its own basis, doc/contact.md";
  s->ops.solve          = FcContactSolverSolve_Lemke;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_Lemke;
  s->ops.view           = FcContactSolverView_Lemke;
  s->ops.destroy        = FcContactSolverDestroy_Lemke;
  PetscFunctionReturn(0);
}
