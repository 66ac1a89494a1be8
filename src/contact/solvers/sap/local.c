/* fcsim — contact solver type "sap": the Semi-Analytic Primal solver of Castro, Permenter & Han,
 * "An unconstrained convex formulation of compliant contact", IEEE T-RO 2022 (arXiv 2110.10107,
 * below [C22]), as used for deformable bodies by han2023 (§VI, eq. 12–13 and 17), written on the
 * local form every fcsim solver sees, u = W r + q (problem.h). doc/sap.md has the derivations and
 * the measured figures. [C22]'s text was not available here (only its abstract): its results are
 * cited by name and section and written out in full, checked against Drake's implementation by
 * its authors (multibody/contact_solvers/sap); equation numbers are han2023's.
 *
 * 1. The problem. han2023 eq. 12–13 (= [C22]'s time step: Anitescu's convex approximation):
 *        min_v ½‖v − v*‖²_A   s.t.  J v + b − v̂ ∈ F*,
 *    whose optimality conditions are A(v − v*) = Jᵀγ, F ∋ γ ⊥ v_c − v̂ ∈ F*. [C22] regularizes it
 *    (§"analytical inverse dynamics"): with y = −R⁻¹(v_c − v̂) the impulse is the analytic
 *    projection γ = P_F^R(y) = argmin_{g ∈ F} ½‖g − y‖²_R, and v is the minimizer of the
 *    UNCONSTRAINED convex cost
 *        ℓ(v) = ½‖v − v*‖²_A + ℓ_R(v_c),   ℓ_R(v_c) = ½ γ(v_c)ᵀ R γ(v_c),              [C22, SAP cost]
 *        ∇ℓ   = A(v − v*) − Jᵀγ        (momentum balance residual; dℓ_R/dv_c = −γ)
 *        ∇²ℓ  = A + Jᵀ G J,    G = −dγ/dv_c = (dP/dy) R⁻¹ (block diagonal, 3×3 SPSD per contact).
 *    In fcsim's local form: W = J A⁻¹ Jᵀ, q = J v* + b − v̂ (the free contact velocity) and r = γ.
 *    v̂ = 0 here: the stepper already puts the gap term in q (u_N = g/Δt + v_N at velocity level,
 *    the gap itself at displacement level), which is exactly [C22]'s v̂_n = −φ₀/δt moved into q.
 *
 * 2. The variable. The optimal v satisfies v − v* = A⁻¹Jᵀγ ∈ range(A⁻¹Jᵀ), so ℓ restricted to
 *    v = v* + A⁻¹Jᵀλ, λ ∈ R^{3m}, has the same minimum and the same γ:
 *        f(λ) = ½ λᵀWλ + ℓ_R(q + Wλ),   ∇f = W(λ − γ),   ∇²f = W + W G W.
 *    λ is an impulse (λ = γ at the solution when W is nonsingular), so the warm start is r itself.
 *    f is SAP's cost ℓ at that v (cost and its monotone decrease are SAP's), and nothing needs W⁻¹
 *    or A: with W singular (redundant contacts) f is flat along null(W), which changes neither
 *    v_c nor γ, and the regularized solution γ is still unique (its dual, below, has W + R SPD).
 *
 * 3. Newton step. Multiplying ∇²f Δλ = −∇f by W⁻¹ on the left (on range(W); the result solves the
 *    original system whatever W) gives (I + G W) Δλ = γ − λ. With G = L Lᵀ per contact (L_a: 3×3,
 *    below) the Woodbury identity
 *        (I + L LᵀW)⁻¹ = I − L (I + LᵀW L)⁻¹ LᵀW
 *    turns it into ONE dense Cholesky of S = I + LᵀWL, which is SPD with eigenvalues in
 *    [1, 1 + ‖G‖‖W‖] whatever W (PSD, possibly singular): Δλ = g − L S⁻¹ LᵀW g, g = γ − λ. Columns
 *    of L that vanish (separated contacts) are dropped, so S is k×k with k = 3·(sticking) +
 *    2·(sliding) contacts. Cost per iteration: 3 products by W (3m×3m), S block by block (O(m²)),
 *    its dense Cholesky (k³/3 flops).
 *    On a block-sparse W (problem.h) S = I + LᵀWL has W's block pattern (L is block diagonal):
 *    it is assembled as a PETSc AIJ matrix on that pattern with all three columns of every
 *    contact kept (a vanishing column of L gives a row and column of S equal to those of I, and
 *    a zero entry of LᵀWg, so Δλ is the same as with the column dropped), which keeps the pattern,
 *    hence the symbolic factorization, the same for every iteration of a solve. It is factored by
 *    a sparse Cholesky through a KSP (preonly, PCCHOLESKY, quotient minimum degree ordering —
 *    George & Liu, "The evolution of the minimum degree ordering algorithm", SIAM Review 31, 1989:
 *    on the arch's S, a chain of cliques (the contacts of a body), it leaves no fill where nested
 *    dissection filled 48 %, and factors 3–4× faster; on walls of 300–3000 contacts a sap solve is 1.0–3.0×
 *    faster, doc/performance.md; -fc_contact_solver_sap_pc_factor_mat_ordering_type nd restores
 *    the former one —, PETSc's own
 *    factorization by default; options prefix fc_contact_solver_sap_, e.g.
 *    -fc_contact_solver_sap_pc_factor_mat_solver_type cholmod or mumps), and the products by W
 *    read the stored blocks: O(nb) per product instead of O(m²). Below SAP_SPARSE_MIN_M contacts
 *    a dense copy of W is solved instead (where the dense path is faster; option
 *    -fc_contact_solver_sap_sparse_factor forces either). The same Δλ to rounding
 *    (another elimination order; tests/unit/test_sap.c compares both paths). One difference:
 *    the dense Cholesky stops on a non-positive pivot (W indefinite: DIVERGED_BREAKDOWN), while
 *    PETSc's sparse Cholesky (and CHOLMOD's and MUMPS' through PETSc, measured) factors an
 *    indefinite S without a complaint, so on an indefinite W — outside SAP's domain, W = J A⁻¹ Jᵀ
 *    is positive semidefinite — the sparse path may end at a stationary point of the nonconvex
 *    cost instead (test_sap.c shows both).
 *
 * 8. Warm start with a velocity hint (fcsim's, not [C22]'s: Drake warm-starts v, fcsim λ). From
 *    λ = r_old alone, the first γ = P(−R⁻¹v_c) can be far from r_old: with a stiff R (the arch's
 *    β = 0.01, σ = 1e-7: R ~ 1e-7 w_a) a change δq of the free contact velocity between two time
 *    steps moves y = −R⁻¹v_c by R⁻¹δq, which nm/s of δq make larger than γ itself; Newton then
 *    spends tens of iterations on contacts that cross region boundaries one per line search (the
 *    stiction curvature 1/R_t is ~25× the sliding one there). The contact velocity itself changes
 *    little between steps. So with a hint ū (the previous solve's v_c, FcContactSolverGetOwnVelocity,
 *    mapped by the stepper contact by contact), the first Newton step linearizes γ at ū instead of
 *    at v_c(λ): γ(v) ≈ γ(ū) − G(ū)(v − ū), and the model's stationarity λ = γ_lin(q + Wλ) gives
 *        (I + G(ū)W) Δλ = −g̃,   g̃ = λ − γ(ū) + G(ū)(v_c − ū),
 *    the Newton system of §3 with g̃ for g and G(ū) for G (same S, same factorization). When no
 *    contact changes region between ū and the new optimum, the step lands on it (f is quadratic
 *    there). The step is kept only when it is a descent direction of f (∇fᵀΔλ < 0), with the same
 *    exact line search, so any hint — wrong, or NaN for a contact without one (that contact keeps
 *    γ(v_c) and G(v_c)) — costs at most one factorization, never convergence: f decreases at every
 *    step as before. The arch at μ = 1: 30 → 2.5 Newton iterations per step (doc/sap.md §2).
 *
 * The returned r is γ(v_c(λ)) at the last iterate: always in the cone. One iteration = one
 * Newton step (a solve that starts at the optimum takes 0). Failure is a status: DIVERGED_
 * LINE_SEARCH (no descent along Δλ — round-off at a tolerance below what the conditioning allows —
 * or the line search failed: a non-finite f', or ls_max_it evaluations), DIVERGED_MAX_IT,
 * DIVERGED_NAN, DIVERGED_BREAKDOWN (W not symmetric, a contact with W_aa = 0, S not positive
 * definite).
 *
 * §4–§7 (the analytic projection, the regularization, the exact line search, the stopping tests)
 * are in core.c, which this form shares with SAP on FCLIB's global form (global.c, Newton in v on
 * M v = H r + f): the kernels and the Newton iteration itself (FcSAPNewton), which calls back
 * here for the cost and gradient at λ (SAPEval_Private), the step Δλ (SAPNewtonStep_Private) and
 * the move (SAPMove_Private). */
#include "sap_impl.h"
#include <math.h>

#define SAP_SYM_TOL 1e-8 /* max |W − Wᵀ| ≤ SAP_SYM_TOL max |W|, else the problem has no SAP cost */
/* A block-sparse W of fewer contacts is solved on a dense copy unless -sap_sparse_factor says
 * otherwise: the dense Cholesky of S costs at most (3m)³/3 flops (9 Mflop at m = 100, about a
 * millisecond), while the sparse path's set-up (KSP, symbolic factorization) and PETSc's sparse
 * Cholesky cost as much or more there: measured (bench/fill_rule, doc/performance.md) 30× slower
 * at m = 36, 2–9× slower at m = 100 with fill ≥ 0.1, 2× faster at m = 100 with fill 0.06, and 11×
 * faster on a 292-contact wall (fill 0.11). */
#define SAP_SPARSE_MIN_M 200

typedef struct {
  FcSAPParams par;                              /* β, σ, ε_r, ε_a, cost criterion, ls_max_it, monitor (sap_impl.h; defaults there) */
  PetscBool   sparse_factor, sparse_factor_set; /* a block-sparse W: sparse S (comment §3) or a dense copy of W; unset: by size */
  /* work, sized for mcap contacts */
  PetscInt   mcap, scap; /* work for mcap contacts; dense S for scap contacts */
  PetscReal *lam, *u, *vc, *gam, *g, *Wg, *dlam, *dvc, *R, *L, *S, *z;
  PetscReal *gt, *Wgt; /* the hinted first step's g̃ and W g̃ (comment §8) */
  /* block-sparse W (comment §3): S in AIJ form on W's pattern, its Cholesky in a KSP */
  Mat Ssp;
  Vec zb, zx;
  KSP ksp;
  /* W's block pattern Ssp was made for (m, nb, bptr, bcol): a solve on the same pattern keeps
   * Ssp and the KSP, hence the ordering and the symbolic factorization (comment §3) */
  PetscInt   pm, pnb, *pbptr, *pbcol;
  PetscInt  *mode, *col0; /* per contact: region (0 none, 1 stick, 2 slide), first column in S */
  FcSAPState run;         /* the last solve: status, history, line-search evaluations, regions (sap_impl.h) */
  PetscReal  lWl;         /* λᵀWλ at the current iterate (the line's a0 = ½λᵀWλ) */
  PetscInt64 ls_it_all;
  PetscBool  hinted; /* the last solve's first step was the hinted one (comment §8) */
  PetscInt64 nhint;  /* hinted first steps taken, since creation */
  PetscReal  wmin, wmax;
  PetscBool  global; /* the last solve was in the global form (wmin, wmax not set) */
} FcContactSolver_SAP;

/* ---- the local form's linear algebra ---- */

static PetscReal Dot_Private(PetscInt n, const PetscReal *x, const PetscReal *y)
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

/* y = W x, W dense row-major 3m×3m or block-sparse (its stored blocks, row by row). (Plain
 * loops: fcsim links LAPACK/BLAS only through PETSc's shared library, whose symbols are not on
 * the link line.) */
static void SAPMult_Private(FcContactProblem p, const PetscReal *x, PetscReal *y)
{
  const PetscInt n = 3 * p->m;

  if (!FcContactProblemIsSparse(p)) {
    for (PetscInt i = 0; i < n; i++) y[i] = Dot_Private(n, p->W + (size_t)i * n, x);
    return;
  }
  for (PetscInt a = 0; a < p->m; a++) {
    PetscReal y0 = 0, y1 = 0, y2 = 0;
    for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
      const PetscReal *B = p->bval + 9 * k, *xb = x + 3 * p->bcol[k];
      y0 += B[0] * xb[0] + B[1] * xb[1] + B[2] * xb[2];
      y1 += B[3] * xb[0] + B[4] * xb[1] + B[5] * xb[2];
      y2 += B[6] * xb[0] + B[7] * xb[1] + B[8] * xb[2];
    }
    y[3 * a]     = y0;
    y[3 * a + 1] = y1;
    y[3 * a + 2] = y2;
  }
}

/* S_ab = L_aᵀ W_ab L_b for 3×3 blocks (W_ab row-major, L column-major as FcSAPProject gives it:
 * L[3c + i]), na and nb columns; out[ca·3 + cb]. */
static void SAPBlockLtWL_Private(const PetscReal *La, PetscInt na, const PetscReal Wab[9], const PetscReal *Lb, PetscInt nb, PetscReal out[9])
{
  PetscReal WL[9];

  for (int i = 0; i < 3; i++)
    for (PetscInt c = 0; c < nb; c++) WL[3 * c + i] = Wab[3 * i] * Lb[3 * c] + Wab[3 * i + 1] * Lb[3 * c + 1] + Wab[3 * i + 2] * Lb[3 * c + 2];
  for (PetscInt ca = 0; ca < na; ca++)
    for (PetscInt cb = 0; cb < nb; cb++) out[3 * ca + cb] = La[3 * ca] * WL[3 * cb] + La[3 * ca + 1] * WL[3 * cb + 1] + La[3 * ca + 2] * WL[3 * cb + 2];
}

/* In place Cholesky S = C Cᵀ of a dense row-major SPD k×k matrix (Cholesky–Banachiewicz, the
 * lower triangle is overwritten by C, row by row; inner products over contiguous rows). Returns
 * the 1-based index of a non-positive pivot, 0 on success. k³/3 flops. */
static PetscInt SAPCholesky_Private(PetscInt k, PetscReal *S)
{
  for (PetscInt i = 0; i < k; i++) {
    PetscReal *Si = S + (size_t)i * k;
    for (PetscInt j = 0; j < i; j++) {
      const PetscReal *Sj = S + (size_t)j * k;
      Si[j]               = (Si[j] - Dot_Private(j, Si, Sj)) / Sj[j];
    }
    {
      const PetscReal d = Si[i] - Dot_Private(i, Si, Si);
      if (!(d > 0) || PetscIsInfOrNanReal(d)) return i + 1;
      Si[i] = PetscSqrtReal(d);
    }
  }
  return 0;
}

/* z ← S⁻¹ z with the factor of SAPCholesky_Private: C y = z, then Cᵀ x = y. */
static void SAPCholeskySolve_Private(PetscInt k, const PetscReal *C, PetscReal *z)
{
  for (PetscInt i = 0; i < k; i++) z[i] = (z[i] - Dot_Private(i, C + (size_t)i * k, z)) / C[(size_t)i * k + i];
  for (PetscInt i = k - 1; i >= 0; i--) {
    z[i] /= C[(size_t)i * k + i];
    for (PetscInt j = 0; j < i; j++) z[j] -= C[(size_t)i * k + j] * z[i];
  }
}

/* ---- the local type ---- */

/* Work for m contacts; the dense S (9m² doubles) only for a dense W. */
static PetscErrorCode SAPEnsureCapacity_Private(FcContactSolver_SAP *sp, PetscInt m, PetscBool dense)
{
  PetscFunctionBegin;
  if (dense && m > sp->scap) {
    PetscCall(PetscFree(sp->S));
    PetscCall(PetscMalloc1((size_t)9 * m * m, &sp->S));
    sp->scap = m;
  }
  if (m <= sp->mcap) PetscFunctionReturn(0);
  PetscCall(PetscFree5(sp->lam, sp->u, sp->vc, sp->gam, sp->g));
  PetscCall(PetscFree5(sp->Wg, sp->dlam, sp->dvc, sp->R, sp->L));
  PetscCall(PetscFree5(sp->z, sp->mode, sp->col0, sp->gt, sp->Wgt));
  PetscCall(PetscMalloc5(3 * m, &sp->lam, 3 * m, &sp->u, 3 * m, &sp->vc, 3 * m, &sp->gam, 3 * m, &sp->g));
  PetscCall(PetscMalloc5(3 * m, &sp->Wg, 3 * m, &sp->dlam, 3 * m, &sp->dvc, 3 * m, &sp->R, 9 * m, &sp->L));
  PetscCall(PetscMalloc5(3 * m, &sp->z, m, &sp->mode, m, &sp->col0, 3 * m, &sp->gt, 3 * m, &sp->Wgt));
  sp->mcap = m;
  PetscFunctionReturn(0);
}

/* The sparse S of a block-sparse W (comment §3): an AIJ matrix of W's pattern, 3 scalar columns
 * per stored block, whose values SAPSparseS_Private overwrites in place; z wrapped in two Vecs
 * (right-hand side and solution share it: the KSP solves in place through a copy); the KSP made
 * once per solver object (options read then). */
static PetscErrorCode SAPSparseSetUp_Private(FcContactSolver s, FcContactSolver_SAP *sp, FcContactProblem p)
{
  const PetscInt m = p->m, n = 3 * m;
  PetscInt      *ia, *ja;
  PC             pc;

  PetscFunctionBegin;
  /* The same block pattern as the last solve (the contact set and the bodies it couples did not
   * change, as from one time step to the next of a resting structure): S keeps its pattern, so
   * Ssp and the KSP are kept and only S's numeric factorization is redone; PETSc's factorization
   * with the same ordering gives the same factor, bit for bit. */
  if (sp->Ssp && sp->pm == m && sp->pnb == p->nb) {
    PetscBool same;
    PetscCall(PetscArraycmp(sp->pbptr, p->bptr, m + 1, &same));
    if (same) PetscCall(PetscArraycmp(sp->pbcol, p->bcol, p->nb, &same));
    if (same) PetscFunctionReturn(0);
  }
  PetscCall(PetscFree2(sp->pbptr, sp->pbcol));
  PetscCall(PetscMalloc2(m + 1, &sp->pbptr, p->nb, &sp->pbcol));
  PetscCall(PetscArraycpy(sp->pbptr, p->bptr, m + 1));
  PetscCall(PetscArraycpy(sp->pbcol, p->bcol, p->nb));
  sp->pm  = m;
  sp->pnb = p->nb;
  /* a KSP keeps its operators' sizes: a problem with another number of contacts (the contact
   * set of a time step changes) needs it reset, or KSPSetOperators refuses the new S */
  if (sp->ksp) PetscCall(KSPReset(sp->ksp));
  PetscCall(MatDestroy(&sp->Ssp));
  PetscCall(VecDestroy(&sp->zb));
  PetscCall(VecDestroy(&sp->zx));
  PetscCall(PetscMalloc2(n + 1, &ia, (size_t)9 * p->nb, &ja));
  ia[0] = 0;
  for (PetscInt a = 0; a < m; a++) {
    const PetscInt nba = p->bptr[a + 1] - p->bptr[a];
    for (int i = 0; i < 3; i++) {
      const PetscInt row = 3 * a + i;
      ia[row + 1]        = ia[row] + 3 * nba;
      for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++)
        for (int j = 0; j < 3; j++) ja[ia[row] + 3 * (k - p->bptr[a]) + j] = 3 * p->bcol[k] + j;
    }
  }
  PetscCall(MatCreate(PETSC_COMM_SELF, &sp->Ssp));
  PetscCall(MatSetSizes(sp->Ssp, n, n, n, n));
  PetscCall(MatSetType(sp->Ssp, MATSEQAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(sp->Ssp, ia, ja, NULL));
  PetscCall(PetscFree2(ia, ja));
  PetscCall(MatSetOption(sp->Ssp, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(sp->Ssp, MAT_SPD, PETSC_TRUE));
  PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, NULL, &sp->zb));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &sp->zx));
  if (!sp->ksp) {
    PetscCall(KSPCreate(PETSC_COMM_SELF, &sp->ksp));
    if (s->prefix) PetscCall(KSPSetOptionsPrefix(sp->ksp, s->prefix));
    PetscCall(KSPAppendOptionsPrefix(sp->ksp, "fc_contact_solver_sap_"));
    PetscCall(KSPSetType(sp->ksp, KSPPREONLY));
    PetscCall(KSPGetPC(sp->ksp, &pc));
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGQMD));
    PetscCall(KSPSetFromOptions(sp->ksp));
  }
  PetscFunctionReturn(0);
}

/* S = I + LᵀWL in place in the AIJ values (all three columns of every contact, comment §3),
 * then z ← S⁻¹ z. *ok false when the factorization failed (S not positive definite). */
static PetscErrorCode SAPSparseSolve_Private(FcContactSolver_SAP *sp, FcContactProblem p, PetscBool *ok)
{
  PetscScalar       *v;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJGetArray(sp->Ssp, &v));
  for (PetscInt a = 0; a < p->m; a++) {
    const PetscInt   nba = p->bptr[a + 1] - p->bptr[a], na = FcSAPRegionColumns(sp->mode[a]);
    const PetscReal *La = sp->L + 9 * a;
    PetscScalar     *va = v + 9 * p->bptr[a]; /* rows 3a..3a+2 follow each other, 3·nba entries each */
    for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
      const PetscInt b = p->bcol[k], nb = FcSAPRegionColumns(sp->mode[b]);
      PetscReal      Sab[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      if (na && nb) SAPBlockLtWL_Private(La, na, p->bval + 9 * k, sp->L + 9 * b, nb, Sab);
      if (b == a)
        for (int i = 0; i < 3; i++) Sab[4 * i] += 1;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) va[i * 3 * nba + 3 * (k - p->bptr[a]) + j] = Sab[3 * i + j];
    }
  }
  PetscCall(MatSeqAIJRestoreArray(sp->Ssp, &v));
  PetscCall(KSPSetOperators(sp->ksp, sp->Ssp, sp->Ssp));
  PetscCall(VecPlaceArray(sp->zb, sp->z));
  PetscCall(KSPSolve(sp->ksp, sp->zb, sp->zx));
  PetscCall(VecResetArray(sp->zb));
  PetscCall(KSPGetConvergedReason(sp->ksp, &reason));
  *ok = reason > 0 ? PETSC_TRUE : PETSC_FALSE;
  if (*ok) {
    const PetscScalar *x;
    PetscCall(VecGetArrayRead(sp->zx, &x));
    PetscCall(PetscArraycpy(sp->z, x, 3 * p->m));
    PetscCall(VecRestoreArrayRead(sp->zx, &x));
  }
  PetscFunctionReturn(0);
}

/* Checks of W (finite, symmetric to SAP_SYM_TOL) in either storage: *bad names what is wrong. */
static void SAPCheckW_Private(FcContactProblem p, PetscReal *wmax, PetscReal *asym, const char **bad)
{
  const PetscInt n = 3 * p->m;

  *wmax = *asym = 0;
  *bad          = NULL;
  if (!FcContactProblemIsSparse(p)) {
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j <= i; j++) {
        const PetscReal a = p->W[(size_t)i * n + j], b = p->W[(size_t)j * n + i];
        if (PetscIsInfOrNanReal(a) || PetscIsInfOrNanReal(b)) {
          *bad = "W is not finite";
          return;
        }
        *wmax = PetscMax(*wmax, PetscAbsReal(a));
        *asym = PetscMax(*asym, PetscAbsReal(a - b));
      }
    return;
  }
  for (PetscInt k = 0; k < p->nb; k++) { /* block k = (a, b) against its transpose btr[k] = (b, a) */
    const PetscReal *B = p->bval + 9 * k, *T = p->bval + 9 * p->btr[k];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        if (PetscIsInfOrNanReal(B[3 * i + j])) {
          *bad = "W is not finite";
          return;
        }
        *wmax = PetscMax(*wmax, PetscAbsReal(B[3 * i + j]));
        *asym = PetscMax(*asym, PetscAbsReal(B[3 * i + j] - T[3 * j + i]));
      }
  }
}

/* The Newton direction (comment §3) for the regions sp->mode and factors sp->L of every contact:
 * Δλ = −(I + GW)⁻¹ g = −(g − L S⁻¹ LᵀW g), G = L Lᵀ, S = I + LᵀWL over the active columns, into
 * sp->dlam; Wg = W g. Sets sp->col0. *fail: NULL, or why S could not be factored. */
static PetscErrorCode SAPDirection_Private(FcContactSolver_SAP *sp, FcContactProblem p, const PetscReal *g, const PetscReal *Wg, const char **fail)
{
  const PetscInt  m = p->m, n = 3 * m;
  const PetscBool sparse = FcContactProblemIsSparse(p);
  PetscInt        ncol   = 0;

  PetscFunctionBegin;
  *fail = NULL;
  for (PetscInt a = 0; a < m; a++) {
    sp->col0[a] = sparse ? 3 * a : ncol; /* sparse S: three columns per contact (comment §3) */
    ncol += FcSAPRegionColumns(sp->mode[a]);
  }
  if (ncol && sparse) {
    PetscBool ok;
    for (PetscInt i = 0; i < n; i++) sp->z[i] = 0; /* the columns of L that vanish */
    for (PetscInt a = 0; a < m; a++) {
      const PetscInt   na = FcSAPRegionColumns(sp->mode[a]);
      const PetscReal *La = sp->L + 9 * a, *wg = Wg + 3 * a;
      for (PetscInt c = 0; c < na; c++) sp->z[3 * a + c] = La[3 * c] * wg[0] + La[3 * c + 1] * wg[1] + La[3 * c + 2] * wg[2];
    }
    PetscCall(SAPSparseSolve_Private(sp, p, &ok));
    if (!ok) {
      PetscCall(PetscInfo(NULL, "sap: the sparse Cholesky factorization of I + L^T W L failed: W is not positive semidefinite\n"));
      *fail = "I + L^T W L not positive definite (W indefinite)";
      PetscFunctionReturn(0);
    }
  } else if (ncol) {
    PetscInt info;
    for (PetscInt a = 0; a < m; a++) {
      const PetscInt   na = FcSAPRegionColumns(sp->mode[a]);
      const PetscReal *La = sp->L + 9 * a;
      if (!na) continue;
      for (PetscInt b = 0; b <= a; b++) {
        const PetscInt   nb = FcSAPRegionColumns(sp->mode[b]);
        const PetscReal *Lb = sp->L + 9 * b;
        PetscReal        Wab[9], Sab[9];
        if (!nb) continue;
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) Wab[3 * i + j] = p->W[(size_t)(3 * a + i) * n + 3 * b + j];
        SAPBlockLtWL_Private(La, na, Wab, Lb, nb, Sab);
        for (PetscInt ca = 0; ca < na; ca++)
          for (PetscInt cb = 0; cb < nb; cb++) {
            const PetscReal v  = Sab[3 * ca + cb];
            const PetscInt  ia = sp->col0[a] + ca, ib = sp->col0[b] + cb;
            sp->S[(size_t)ia * ncol + ib] = v; /* S is symmetric: fill both triangles */
            sp->S[(size_t)ib * ncol + ia] = v;
          }
      }
    }
    for (PetscInt i = 0; i < ncol; i++) sp->S[(size_t)i * ncol + i] += 1;
    /* z = Lᵀ W g */
    for (PetscInt a = 0; a < m; a++) {
      const PetscInt   na = FcSAPRegionColumns(sp->mode[a]);
      const PetscReal *La = sp->L + 9 * a, *wg = Wg + 3 * a;
      for (PetscInt c = 0; c < na; c++) sp->z[sp->col0[a] + c] = La[3 * c] * wg[0] + La[3 * c + 1] * wg[1] + La[3 * c + 2] * wg[2];
    }
    info = SAPCholesky_Private(ncol, sp->S);
    if (info) {
      PetscCall(PetscInfo(NULL, "sap: I + L^T W L is not positive definite (pivot %" PetscInt_FMT "): W is not positive semidefinite\n", info));
      *fail = "I + L^T W L not positive definite (W indefinite)";
      PetscFunctionReturn(0);
    }
    SAPCholeskySolve_Private(ncol, sp->S, sp->z);
  }
  for (PetscInt a = 0; a < m; a++) {
    const PetscInt   na = FcSAPRegionColumns(sp->mode[a]);
    const PetscReal *La = sp->L + 9 * a;
    for (int i = 0; i < 3; i++) {
      PetscReal t = g[3 * a + i];
      for (PetscInt c = 0; c < na; c++) t -= La[3 * c + i] * sp->z[sp->col0[a] + c];
      sp->dlam[3 * a + i] = -t;
    }
  }
  PetscFunctionReturn(0);
}

/* The context of FcSAPNewton's callbacks (core.c): the solver and the problem of this solve. */
typedef struct {
  FcContactSolver  s;
  FcContactProblem p;
} SAPLocal;

/* At λ: v_c = q + Wλ, γ = P(−R⁻¹v_c), G = L Lᵀ, f(λ) (SAP's cost, comment §2), ‖∇f‖ and the
 * scale of the stopping test (comment §7 of core.c). */
static PetscErrorCode SAPEval_Private(void *ctx, PetscReal *cost, PetscReal *grad, PetscReal *scale)
{
  const SAPLocal      *lc = (const SAPLocal *)ctx;
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)lc->s->data;
  FcContactProblem     p  = lc->p;
  const PetscInt       m = p->m, n = 3 * m;
  PetscReal            c = 0, gWg, gamWgam;

  PetscFunctionBegin;
  SAPMult_Private(p, sp->lam, sp->u);
  for (PetscInt i = 0; i < n; i++) sp->vc[i] = p->q[i] + sp->u[i];
  for (PetscInt a = 0; a < m; a++) {
    const PetscReal *gm = sp->gam + 3 * a;
    sp->mode[a]         = FcSAPProject(p->mu[a], sp->R[3 * a], sp->R[3 * a + 1], sp->vc + 3 * a, sp->gam + 3 * a, sp->L + 9 * a);
    c += 0.5 * (sp->R[3 * a] * gm[0] * gm[0] + sp->R[3 * a + 1] * (gm[1] * gm[1] + gm[2] * gm[2]));
  }
  for (PetscInt i = 0; i < n; i++) sp->g[i] = sp->lam[i] - sp->gam[i]; /* W g = ∇f */
  SAPMult_Private(p, sp->g, sp->Wg);
  sp->lWl = Dot_Private(n, sp->lam, sp->u);
  gWg     = Dot_Private(n, sp->g, sp->Wg);
  gamWgam = sp->lWl - 2 * Dot_Private(n, sp->g, sp->u) + gWg; /* γᵀWγ with γ = λ − g, W symmetric */
  c += 0.5 * sp->lWl;
  *cost  = c;
  *grad  = PetscSqrtReal(PetscMax(gWg, 0));
  *scale = PetscSqrtReal(PetscMax(PetscMax(sp->lWl, gamWgam), 0));
  PetscFunctionReturn(0);
}

/* The first Newton step of a warm start with a velocity hint ū (FcContactSolverSetVelocityHint;
 * comment §8) linearizes γ at ū instead: γ ≈ γ(ū) − G(ū)(v_c − ū), i.e. g̃ = λ − γ(ū) + G(ū)(v_c − ū)
 * and G(ū) in place of g and G(v_c). Kept when it is a descent direction of f (f'(0) = ∇fᵀΔλ < 0):
 * *df0 < 0, else *df0 = 0 and the regions and factors are those at v_c again. */
static PetscErrorCode SAPHintedStep_Private(FcContactSolver s, FcContactProblem p, PetscReal *df0)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;
  const PetscInt       m = p->m, n = 3 * m;
  const PetscReal     *uh   = s->uhint;
  const char          *fail = NULL;

  PetscFunctionBegin;
  *df0 = 0;
  for (PetscInt a = 0; a < m; a++) {
    const PetscReal *ub = uh + 3 * a, *va = sp->vc + 3 * a;
    PetscReal        gb[3], dv[3];
    if (PetscIsInfOrNanReal(ub[0]) || PetscIsInfOrNanReal(ub[1]) || PetscIsInfOrNanReal(ub[2])) {
      for (int i = 0; i < 3; i++) sp->gt[3 * a + i] = sp->g[3 * a + i];
      continue;
    }
    sp->mode[a] = FcSAPProject(p->mu[a], sp->R[3 * a], sp->R[3 * a + 1], ub, gb, sp->L + 9 * a);
    for (int i = 0; i < 3; i++) dv[i] = va[i] - ub[i];
    for (int i = 0; i < 3; i++) sp->gt[3 * a + i] = sp->lam[3 * a + i] - gb[i];
    for (PetscInt c = 0; c < FcSAPRegionColumns(sp->mode[a]); c++) {
      const PetscReal *Lc = sp->L + 9 * a + 3 * c, t = Lc[0] * dv[0] + Lc[1] * dv[1] + Lc[2] * dv[2];
      for (int i = 0; i < 3; i++) sp->gt[3 * a + i] += Lc[i] * t;
    }
  }
  SAPMult_Private(p, sp->gt, sp->Wgt);
  PetscCall(SAPDirection_Private(sp, p, sp->gt, sp->Wgt, &fail));
  if (!fail) *df0 = Dot_Private(n, sp->dlam, sp->Wg);
  if (!(*df0 < 0)) { /* not a descent direction: the ordinary step, at v_c */
    PetscCall(PetscInfo(NULL, "sap: the hinted first step is no descent direction (df/dalpha(0) = %g): the Newton step instead\n", (double)*df0));
    for (PetscInt a = 0; a < m; a++) sp->mode[a] = FcSAPProject(p->mu[a], sp->R[3 * a], sp->R[3 * a + 1], sp->vc + 3 * a, sp->gam + 3 * a, sp->L + 9 * a);
    *df0 = 0;
  } else {
    sp->hinted = PETSC_TRUE;
    sp->nhint++;
  }
  PetscFunctionReturn(0);
}

/* The Newton step Δλ (comment §3; the hinted one first, comment §8) and the line along it:
 * f_A(α) = a0 + a1α + ½a2α², v_c + α WΔλ, f'(0) = ∇fᵀΔλ (comment §6 of core.c). */
static PetscErrorCode SAPNewtonStep_Private(void *ctx, PetscInt k, FcSAPLine *line, const char **fail)
{
  const SAPLocal      *lc  = (const SAPLocal *)ctx;
  FcContactSolver_SAP *sp  = (FcContactSolver_SAP *)lc->s->data;
  FcContactProblem     p   = lc->p;
  const PetscInt       n   = 3 * p->m;
  PetscReal            df0 = 0;

  PetscFunctionBegin;
  *fail = NULL;
  if (k == 0 && lc->s->uhint) PetscCall(SAPHintedStep_Private(lc->s, p, &df0));
  if (!(df0 < 0)) {
    PetscCall(SAPDirection_Private(sp, p, sp->g, sp->Wg, fail));
    if (*fail) PetscFunctionReturn(0);
    df0 = Dot_Private(n, sp->dlam, sp->Wg); /* ∇fᵀΔλ = −gᵀW(I + GW)⁻¹g < 0 unless ∇f = 0 */
  }
  SAPMult_Private(p, sp->dlam, sp->dvc);
  line->m   = p->m;
  line->mu  = p->mu;
  line->R   = sp->R;
  line->vc  = sp->vc;
  line->dvc = sp->dvc;
  line->a0  = 0.5 * sp->lWl;
  line->a1  = Dot_Private(n, sp->dlam, sp->u);
  line->a2  = Dot_Private(n, sp->dlam, sp->dvc);
  line->df0 = df0;
  PetscFunctionReturn(0);
}

static PetscErrorCode SAPMove_Private(void *ctx, PetscReal alpha)
{
  const SAPLocal      *lc = (const SAPLocal *)ctx;
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)lc->s->data;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < 3 * lc->p->m; i++) sp->lam[i] += alpha * sp->dlam[i];
  PetscFunctionReturn(0);
}

/* The data checks (finite, W symmetric: the SAP cost needs W = J A⁻¹ Jᵀ symmetric, w_a > 0) and the
 * regularization (comment §5 of core.c). *ok false: sp->run says why. */
static PetscErrorCode SAPSetUp_Private(FcContactSolver_SAP *sp, FcContactProblem p, PetscBool *ok)
{
  const PetscInt m = p->m, n = 3 * m;
  PetscReal      wmax = 0, asym = 0;
  const char    *bad;

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  for (PetscInt i = 0; i < n; i++) {
    if (PetscIsInfOrNanReal(p->q[i])) {
      sp->run.reason  = FC_CONTACT_SOLVER_DIVERGED_NAN;
      sp->run.failure = "q is not finite";
      PetscFunctionReturn(0);
    }
  }
  SAPCheckW_Private(p, &wmax, &asym, &bad);
  if (bad) {
    sp->run.reason  = FC_CONTACT_SOLVER_DIVERGED_NAN;
    sp->run.failure = bad;
    PetscFunctionReturn(0);
  }
  if (asym > SAP_SYM_TOL * wmax) {
    PetscCall(PetscInfo(NULL, "sap: W is not symmetric (max |W - W^T| = %g, max |W| = %g)\n", (double)asym, (double)wmax));
    sp->run.reason  = FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
    sp->run.failure = "W is not symmetric";
    PetscFunctionReturn(0);
  }
  sp->wmin = PETSC_MAX_REAL;
  sp->wmax = 0;
  for (PetscInt a = 0; a < m; a++) {
    PetscReal f2 = 0, w, blk[9];
    FcContactProblemGetBlock(p, a, a, blk);
    for (int i = 0; i < 9; i++) f2 += PetscSqr(blk[i]);
    w = PetscSqrtReal(f2) / 3;
    if (!(w > 0)) {
      PetscCall(PetscInfo(NULL, "sap: contact %" PetscInt_FMT " has W_aa = 0: no regularization can be scaled on it\n", a));
      sp->run.reason  = FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
      sp->run.failure = "a contact has W_aa = 0";
      PetscFunctionReturn(0);
    }
    sp->wmin = PetscMin(sp->wmin, w);
    sp->wmax = PetscMax(sp->wmax, w);
    FcSAPRegularization(&sp->par, w, sp->R + 3 * a);
  }
  *ok = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode SAPSolve_Private(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;
  const PetscInt       m = p->m, n = 3 * m;
  const PetscBool      sparse = FcContactProblemIsSparse(p);
  const FcSAPNewtonOps ops    = {.name = "sap", .eval = SAPEval_Private, .direction = SAPNewtonStep_Private, .release = NULL, .step = SAPMove_Private};
  SAPLocal             lc     = {s, p};
  PetscInt             k;
  PetscBool            ok;
  char                 head[256];

  PetscFunctionBegin;
  FcSAPStateReset(&sp->run);
  sp->hinted     = PETSC_FALSE;
  sp->global     = PETSC_FALSE;
  st->iterations = 0;
  if (!m) {
    sp->run.reason   = FC_CONTACT_SOLVER_CONVERGED_REGULARIZED;
    st->reason       = sp->run.reason;
    st->own_residual = 0;
    PetscFunctionReturn(0);
  }
  PetscCall(SAPEnsureCapacity_Private(sp, m, (PetscBool)!sparse));
  PetscCall(SAPSetUp_Private(sp, p, &ok));
  if (!ok) {
    st->reason = sp->run.reason;
    PetscFunctionReturn(0);
  }
  if (sparse) PetscCall(SAPSparseSetUp_Private(s, sp, p));

  /* Warm start: λ = r (comment §2); Newton with the exact line search (core.c). */
  PetscCall(PetscArraycpy(sp->lam, r, n));
  snprintf(head, sizeof head, "(m = %" PetscInt_FMT ", w in [%g, %g], beta %g, sigma %g)", m, (double)sp->wmin, (double)sp->wmax, (double)sp->par.beta,
    (double)sp->par.sigma);
  PetscCall(FcSAPNewton(&ops, &lc, &sp->par, s->params.max_it, head, &sp->run, &k));
  st->iterations   = k;
  st->reason       = sp->run.reason;
  st->own_residual = sp->run.own;
  sp->ls_it_all += sp->run.ls_it;
  /* r = γ at the last iterate (in the cone whatever the status), the projection of v_c */
  PetscCall(PetscArraycpy(r, sp->gam, n));
  s->uown = sp->vc;
  FcSAPStateCountRegions(&sp->run, m, sp->mode);
  if (sp->run.failure) PetscCall(PetscInfo(NULL, "sap: stopped after %" PetscInt_FMT " iterations: %s\n", k, sp->run.failure));
  PetscFunctionReturn(0);
}

/* Either storage of W (comment §3): dense, S dense and its Cholesky written here; block-sparse,
 * S sparse on W's pattern and a sparse Cholesky through PETSc. */
static PetscErrorCode FcContactSolverSolve_SAP(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;
  FcContactProblem     d;

  PetscFunctionBegin;
  if (!FcContactProblemIsSparse(p) || (sp->sparse_factor_set ? sp->sparse_factor : p->m >= SAP_SPARSE_MIN_M)) {
    PetscCall(SAPSolve_Private(s, p, r, st));
    PetscFunctionReturn(0);
  }
  /* a small problem, or -sap_sparse_factor false: the dense path on a dense copy (the 16 GB limit of Convert applies) */
  PetscCall(PetscInfo(NULL, "sap: W is block-sparse (%" PetscInt_FMT " blocks of %" PetscInt_FMT "^2): solved on a dense copy\n", p->nb, p->m));
  PetscCall(FcContactProblemConvert(p, FC_CONTACT_W_DENSE, &d));
  PetscCall(SAPSolve_Private(s, d, r, st));
  PetscCall(FcContactProblemDestroy(&d));
  PetscFunctionReturn(0);
}

/* ---- options, view, life cycle ---- */

/* A bad value: the type's options are read inside the object's options block, which is closed
 * (as PetscOptionsEnd would) before the one-line input error, so nothing leaks. */
static PetscErrorCode SAPBadOption_Private(PetscOptionItems *PetscOptionsObject, const char *name, const char *what, PetscReal value)
{
  char opt[FC_NAME_LEN + 64];

  snprintf(opt, sizeof opt, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", name);
  PetscCall(PetscOptionsEnd_Private(PetscOptionsObject));
  return FcInputError("options", opt, "%s (got %g)", what, (double)value);
}

static PetscErrorCode FcContactSolverSetFromOptions_SAP(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_SAP *sp  = (FcContactSolver_SAP *)s->data;
  FcSAPParams          par = sp->par;
  const char          *bad, *what = NULL;
  PetscReal            value = 0;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "sap: Semi-Analytic Primal solver (Castro, Permenter & Han 2022), regularized");
  PetscCall(FcSAPParamsOptions(PetscOptionsObject, &par));
  if ((bad = FcSAPParamsInvalid(&par, &what, &value))) return SAPBadOption_Private(PetscOptionsObject, bad, what, value);
  sp->par = par;
  PetscCall(PetscOptionsBool("-sap_sparse_factor",
    "Block-sparse W: factor I + L^T W L sparse on W's pattern (true) or solve on a dense copy of W (false); default: sparse from 200 contacts", "",
    sp->sparse_factor, &sp->sparse_factor, &sp->sparse_factor_set));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_SAP(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer,
    "sap: beta %g (R_n = %.4g w_a), sigma %g (R_t = sigma w_a), w_a = |W_aa|_F/3; stop |grad| <= %g + %g max(|p - p*|, |j_c|) or a full step changes the cost by < %g + %g |cost|; line search: exact, ls_max_it %" PetscInt_FMT
    "\n",
    (double)sp->par.beta, (double)(sp->par.beta * sp->par.beta / (4 * PETSC_PI * PETSC_PI)), (double)sp->par.sigma, (double)sp->par.atol, (double)sp->par.rtol,
    (double)sp->par.cost_atol, (double)sp->par.cost_rtol, sp->par.ls_max_it));
  if (s->nsolves && sp->run.hist.n) {
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "sap: last solve: %" PetscInt_FMT " Newton iterations, %" PetscInt_FMT " line-search iterations (%" PetscInt64_FMT
      " since creation), w_a in [%g, %g]; contacts: %" PetscInt_FMT " stiction, %" PetscInt_FMT " sliding, %" PetscInt_FMT " no contact\n",
      sp->run.hist.n - 1, sp->run.ls_it, sp->ls_it_all, (double)sp->wmin, (double)sp->wmax, sp->run.nstick, sp->run.nslide, sp->run.nsep));
    PetscCall(PetscViewerASCIIPrintf(viewer, "sap: cost %.10e -> %.10e, |grad| %.3e -> %.3e (scale %.3e)\n", (double)sp->run.hist.cost[0],
      (double)sp->run.hist.cost[sp->run.hist.n - 1], (double)sp->run.hist.grad[0], (double)sp->run.hist.grad[sp->run.hist.n - 1],
      (double)sp->run.hist.scale[sp->run.hist.n - 1]));
  }
  if (s->nsolves)
    PetscCall(PetscViewerASCIIPrintf(viewer, "sap: first steps from a velocity hint (comment 8 of sap/local.c): %" PetscInt64_FMT " since creation%s\n",
      sp->nhint, sp->hinted ? ", the last solve's among them" : ""));
  if (s->nsolves && sp->run.cost_stop)
    PetscCall(PetscViewerASCIIPrintf(viewer, "sap: last solve stopped on the cost criterion (round-off), relative gradient %.3e\n",
      (double)(sp->run.hist.grad[sp->run.hist.n - 1] / PetscMax(sp->run.hist.scale[sp->run.hist.n - 1], PETSC_SMALL))));
  if (s->nsolves && sp->run.failure) PetscCall(PetscViewerASCIIPrintf(viewer, "sap: last solve failed: %s\n", sp->run.failure));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_SAP(FcContactSolver s)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscFree(sp->S));
  PetscCall(PetscFree5(sp->lam, sp->u, sp->vc, sp->gam, sp->g));
  PetscCall(PetscFree5(sp->Wg, sp->dlam, sp->dvc, sp->R, sp->L));
  PetscCall(PetscFree5(sp->z, sp->mode, sp->col0, sp->gt, sp->Wgt));
  PetscCall(MatDestroy(&sp->Ssp));
  PetscCall(VecDestroy(&sp->zb));
  PetscCall(VecDestroy(&sp->zx));
  PetscCall(KSPDestroy(&sp->ksp));
  PetscCall(PetscFree2(sp->pbptr, sp->pbcol));
  PetscCall(FcSAPHistoryDestroy(&sp->run.hist));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

/* The global form (ops.solveglobal): SAP in the velocities (global.c) with this type's
 * parameters and the object's max_it, so that both forms answer the same options. */
static PetscErrorCode FcContactSolverSolveGlobal_SAP(
  FcContactSolver s, FcGlobalProblem gp, PetscReal r[], PetscReal v[], FcContactProblem *local, FcContactSolverStats *st)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;
  FcSAPGlobal          g;
  FcSAPInfo            info;
  PetscErrorCode       ierr;

  PetscFunctionBegin;
  sp->global = PETSC_TRUE;
  PetscCall(FcSAPGlobalCreate(&g));
  ierr = FcSAPGlobalConfigure(g, &sp->par, s->params.max_it);
  if (!ierr) ierr = FcSAPGlobalSetUp(g, gp);                      /* input error: M indefinite */
  if (!ierr && !*local) ierr = FcSAPGlobalComputeLocal(g, local); /* with M̃ */
  if (!ierr) ierr = FcSAPGlobalSolve(g, r, v);
  if (!ierr) ierr = FcSAPGlobalGetInfo(g, &info);
  if (ierr) {
    PetscCall(FcSAPGlobalDestroy(&g));
    return ierr;
  }
  st->iterations   = info.newton_iterations;
  st->reason       = info.reason;
  st->own_residual = info.own_residual;
  st->time_setup   = info.time_setup;
  st->time         = info.time_setup + info.time_solve;
  PetscCall(FcSAPGlobalDestroy(&g));
  PetscFunctionReturn(0);
}

/* ops.summary: the regularization behind the answer, for a result line that must say why the
 * common error is what it is (issue 25: "what was reached and why"). */
static PetscErrorCode FcContactSolverSummary_SAP(FcContactSolver s, char *buf, size_t len)
{
  FcContactSolver_SAP *sp = (FcContactSolver_SAP *)s->data;
  const PetscReal      rn = sp->par.beta * sp->par.beta / (4 * PETSC_PI * PETSC_PI);

  PetscFunctionBegin;
  if (sp->global || !(sp->wmax > 0))
    snprintf(buf, len, "regularized: beta %g, sigma %g: R_n = beta^2/(4 pi^2) w_a = %.3g w_a, R_t = sigma w_a", (double)sp->par.beta, (double)sp->par.sigma,
      (double)rn);
  else
    snprintf(buf, len,
      "regularized: beta %g, sigma %g: R_n = beta^2/(4 pi^2) w_a = %.3g w_a, R_t = sigma w_a, w_a = |W_aa|_F/3 in [%.3g, %.3g]; %d stick, %d slide, %d separated",
      (double)sp->par.beta, (double)sp->par.sigma, (double)rn, (double)sp->wmin, (double)sp->wmax, (int)sp->run.nstick, (int)sp->run.nslide, (int)sp->run.nsep);
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_SAP(FcContactSolver s)
{
  FcContactSolver_SAP *sp;

  PetscFunctionBegin;
  PetscCall(PetscNew(&sp));
  FcSAPParamsDefault(&sp->par);
  s->data               = sp;
  s->regularized        = PETSC_TRUE;
  s->needs_symmetric    = PETSC_TRUE; /* the SAP cost has gradient W r only when W = Wᵀ */
  s->ops.summary        = FcContactSolverSummary_SAP;
  s->ops.solve          = FcContactSolverSolve_SAP;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_SAP;
  s->ops.view           = FcContactSolverView_SAP;
  s->ops.destroy        = FcContactSolverDestroy_SAP;
  s->ops.solveglobal    = FcContactSolverSolveGlobal_SAP;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSAPGetInfo(FcContactSolver s, FcSAPInfo *info)
{
  FcContactSolver_SAP *sp;

  PetscFunctionBegin;
  PetscCheck(s && info, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver or info");
  PetscCheck(
    s->ops.solve == FcContactSolverSolve_SAP, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Contact solver of type %s is not sap", s->type[0] ? s->type : "(not set)");
  sp = (FcContactSolver_SAP *)s->data;
  FcSAPStateInfo(&sp->run, info);
  info->ls_iterations_all = sp->ls_it_all;
  info->R                 = sp->R;
  info->wmin              = sp->global ? (PetscReal)NAN : sp->wmin;
  info->wmax              = sp->global ? (PetscReal)NAN : sp->wmax;
  info->hinted            = sp->hinted;
  info->hinted_all        = sp->nhint;
  info->asymmetry         = (PetscReal)NAN;
  info->shift             = (PetscReal)NAN;
  info->time_setup        = (PetscReal)NAN;
  info->time_solve        = (PetscReal)NAN;
  PetscFunctionReturn(0);
}
