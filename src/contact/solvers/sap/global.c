/* fcsim — SAP on FCLIB's global form: the primal problem of Castro, Permenter & Han, "An
 * unconstrained convex formulation of compliant contact", IEEE T-RO 2022 ([C22]) in the
 * generalized velocities v, as han2023 eq. 12–13 write it (A → M, J → Hᵀ, b − v̂ → w). The
 * declarations and the interface are in sap.h; the derivations and the measured figures
 * in doc/sap.md, "Global form". [C22]'s text was not available here: its formulas are written
 * out in full and were checked against Drake's implementation (multibody/contact_solvers/sap).
 *
 * 1. Problem. M v = H r + f, u = Hᵀ v + w (fclib.h). The regularized convex problem is
 *        ℓ(v) = ½ (v − v*)ᵀ M̃ (v − v*) + ℓ_R(v_c),  v* = M̃⁻¹ f,  v_c = Hᵀ v + w,   [C22] SAP cost
 *    ∇ℓ = M̃(v − v*) − Hγ, ∇²ℓ = M̃ + H G Hᵀ, with γ(v_c) = P_F^R(−R⁻¹v_c), G = −dγ/dv_c = L Lᵀ and
 *    ℓ_R = ½γᵀRγ per contact from the shared kernel FcSAPProject (core.c §4).
 *
 * 2. M̃. FCLIB's M is symmetric positive definite; when it is not, SAP's cost needs it to be:
 *    M̃ = ½(M + Mᵀ) (the quadratic form vᵀMv is unchanged by this: it is the same energy), and
 *    if its Cholesky factorization fails (a zero pivot) or has negative pivots (indefinite),
 *    M̃ += ε s I with s = mean |M_ii| (1 if all are 0) and ε = -fc_sap_global_reg (1e-10): a
 *    Tikhonov shift of relative size ε that makes a positive semidefinite M definite while
 *    changing v* by O(ε) on range(M) (a direction of null(M) then costs ε s ‖v‖²: its velocity is
 *    set by the contacts alone). An indefinite M stays indefinite for any small ε: then an input
 *    error. Each change is one warning line on stderr.
 *
 * 3. Regularization R_a = (β²/(4π²) w_a, σ w_a, σ w_a) (core.c §5), w_a ≈ ‖W_aa‖_F/3 where
 *    W_aa = H_aᵀ M̃⁻¹ H_a is contact a's diagonal block of the Delassus operator. Drake computes
 *    W_aa with each tree's dense block of M ("cliques", SapModel::
 *    CalcDelassusDiagonalApproximation), which is exact when a single body carries the contact.
 *    An FCLIB global problem has no tree structure, so the default here is the Jacobi
 *    approximation W_aa ≈ H_aᵀ diag(M̃)⁻¹ H_a (no solve; exact for a diagonal, lumped M), and
 *    -fc_sap_global_delassus exact computes W_aa = H_aᵀ M̃⁻¹ H_a (3m solves, the local type's R:
 *    then global and local SAP solve the same problem). With the Jacobi w_a, R differs from the
 *    local type's by the ratio of the two, so r differs by O(R) (measured in doc/sap.md).
 *
 * 4. Newton. K = M̃ + H G Hᵀ as a sparse AIJ matrix: H G Hᵀ = (Hᵀ)ᵀ G Hᵀ by MatPtAP on a
 *    block-diagonal G whose 3×3 blocks are kept in the pattern even when zero, so the pattern of
 *    K is fixed and the sparse Cholesky (KSPPREONLY + PCCHOLESKY, MUMPS by default, prefix
 *    fc_sap_global_) redoes only its numeric factorization. K Δv = −∇ℓ.
 *
 * 5. Exact line search along Δv, the local type's (FcSAPLineSearch, core.c §6: safeguarded
 *    Newton on the slope of the convex cost along the step): ℓ(v + αΔv) = a0 + a1α + ½a2α² +
 *    ℓ_R(v_c + αHᵀΔv), a1 = Δvᵀ M̃ (v − v*), a2 = Δvᵀ M̃ Δv, slope at 0 Δvᵀ∇ℓ.
 *
 * 6. Stopping: [C22]'s ‖∇ℓ‖ ≤ ε_a + ε_r max(‖p − p*‖, ‖j_c‖) with the norms of generalized
 *    impulses in M̃⁻¹ (Drake weighs them by diag(M)^{-1/2}, the Jacobi approximation of it):
 *    ‖∇ℓ‖² = ∇ℓᵀ z, z = M̃⁻¹∇ℓ (one solve with M̃'s factor per iteration), ‖p − p*‖² =
 *    (v − v*)ᵀ M̃ (v − v*), ‖j_c‖² = ‖Hγ‖²_{M̃⁻¹} = (Hγ)ᵀ(v − v* − z) since M̃⁻¹Hγ = v − v* − z.
 *    These are exactly the local type's √(gᵀWg), √(λᵀWλ), √(γᵀWγ) at v = v* + M̃⁻¹Hλ; the cost
 *    criterion is the same too.
 *
 * 7. Why global and local SAP agree (same R). On v = v* + M̃⁻¹Hλ, ℓ(v) = f(λ) of the local type
 *    (local.c §2), ∇ℓ = H(λ − γ), and the global Newton step is Δv = M̃⁻¹HΔλ with the local Δλ:
 *    (M̃ + HGHᵀ) M̃⁻¹HΔλ = H(I + GW)Δλ = H(γ − λ) = −∇ℓ (local.c §3). The first iterate v = v* +
 *    M̃⁻¹Hr is the local warm start λ = r, so the iterates, the line searches, the stopping tests
 *    and the returned γ are the same up to rounding. */
#include "sap_impl.h"
#include <stdio.h>

#define SAP_GLOBAL_SYM_TOL 1e-12 /* max|M − Mᵀ| > this · max|M|: warn (FcGlobalProblemComputeLocal reports such an M) */

struct _n_FcSAPGlobal {
  FcSAPParams         par;
  PetscInt            max_it; /* 1000: Newton iterations (the contact-solver object's default) */
  PetscReal           reg;    /* ε of the regularization of M (1e-10) */
  FcSAPGlobalDelassus delassus;
  PetscReal          *R_user; /* 3m, or NULL */
  PetscInt            m_user;
  /* set up */
  FcGlobalProblem gp;
  Mat             Ms, Ht, Gm, P, K; /* M̃; Hᵀ; block-diagonal G (3m × 3m); H G Hᵀ; M̃ + H G Hᵀ */
  KSP             kspM, kspK;
  Vec             vstar, v, dv, Mdv, grad, z, Hg, dx, Mdx, vc, dvc, gam; /* n: v*…Mdx; 3m: vc, dvc, gam */
  PetscReal      *R, *L;
  PetscInt       *mode;
  /* the last solve */
  FcSAPState         run;        /* status, history, line-search evaluations, regions (sap_impl.h) */
  PetscReal          pp;         /* (v − v*)ᵀM̃(v − v*) at the current iterate (the line's a0 = ½ of it) */
  const PetscScalar *lvc, *ldvc; /* v_c and HᵀΔv lent to the line search (FcSAPNewtonOps.release) */
  PetscBool          symmetrized, regularized, setup;
  PetscReal          asym, shift, wmin, wmax, t_setup, t_solve;
};

/* ---- the solver ---- */

PetscErrorCode FcSAPGlobalCreate(FcSAPGlobal *s)
{
  FcSAPGlobal g;

  PetscFunctionBegin;
  PetscCall(PetscNew(&g));
  FcSAPParamsDefault(&g->par);
  g->max_it   = 1000;  /* FcContactSolverCreate's default */
  g->reg      = 1e-10; /* comment §2 */
  g->delassus = FC_SAP_GLOBAL_DELASSUS_DIAG;
  FcSAPStateReset(&g->run);
  *s = g;
  PetscFunctionReturn(0);
}

static PetscErrorCode SAPGlobalReset_Private(FcSAPGlobal s)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&s->Ms));
  PetscCall(MatDestroy(&s->Ht));
  PetscCall(MatDestroy(&s->Gm));
  PetscCall(MatDestroy(&s->P));
  PetscCall(MatDestroy(&s->K));
  PetscCall(KSPDestroy(&s->kspM));
  PetscCall(KSPDestroy(&s->kspK));
  PetscCall(VecDestroy(&s->vstar));
  PetscCall(VecDestroy(&s->v));
  PetscCall(VecDestroy(&s->dv));
  PetscCall(VecDestroy(&s->Mdv));
  PetscCall(VecDestroy(&s->grad));
  PetscCall(VecDestroy(&s->z));
  PetscCall(VecDestroy(&s->Hg));
  PetscCall(VecDestroy(&s->dx));
  PetscCall(VecDestroy(&s->Mdx));
  PetscCall(VecDestroy(&s->vc));
  PetscCall(VecDestroy(&s->dvc));
  PetscCall(VecDestroy(&s->gam));
  PetscCall(PetscFree3(s->R, s->L, s->mode));
  s->gp    = NULL;
  s->setup = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalDestroy(FcSAPGlobal *s)
{
  PetscFunctionBegin;
  if (!s || !*s) PetscFunctionReturn(0);
  PetscCall(SAPGlobalReset_Private(*s));
  PetscCall(FcSAPHistoryDestroy(&(*s)->run.hist));
  PetscCall(PetscFree((*s)->R_user));
  PetscCall(PetscFree(*s));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalSetMaxIt(FcSAPGlobal s, PetscInt max_it)
{
  PetscFunctionBegin;
  PetscCheck(max_it >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "max_it must be >= 0 (got %" PetscInt_FMT ")", max_it);
  s->max_it = max_it;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalSetRegularization(FcSAPGlobal s, PetscInt m, const PetscReal R[])
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->R_user));
  s->m_user = 0;
  if (!R) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < 3 * m; i++)
    PetscCheck(R[i] > 0 && !PetscIsInfOrNanReal(R[i]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "R[%" PetscInt_FMT "] = %g: the regularization must be finite and > 0", i, (double)R[i]);
  PetscCall(PetscMalloc1(3 * m, &s->R_user));
  PetscCall(PetscArraycpy(s->R_user, R, 3 * m));
  s->m_user = m;
  PetscFunctionReturn(0);
}

/* -fc_sap_global_{reg,delassus}: the options of the global form only. */
static PetscErrorCode GlobalOptions_Private(FcSAPGlobal s, PetscReal *reg, FcSAPGlobalDelassus *delassus)
{
  PetscInt    dl       = (PetscInt)s->delassus;
  const char *dnames[] = {"diag", "exact"};

  PetscFunctionBegin;
  *reg = s->reg;
  PetscOptionsBegin(PETSC_COMM_SELF, "fc_sap_global_", "SAP, global form", NULL);
  PetscCall(PetscOptionsReal("-reg", "eps: a singular or indefinite M gets eps mean|diag M| I added, >= 0 (0: no regularization)", "", *reg, reg, NULL));
  PetscCall(PetscOptionsEList(
    "-delassus", "w_a of the regularization from H_a^T diag(M)^-1 H_a (diag) or H_a^T M^-1 H_a (exact, 3m solves)", "", dnames, 2, dnames[dl], &dl, NULL));
  PetscOptionsEnd();
  *delassus = (FcSAPGlobalDelassus)dl;
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckReg_Private(PetscReal reg)
{
  PetscFunctionBegin;
  if (!(reg >= 0) || PetscIsInfOrNanReal(reg)) return FcInputError("options", "-fc_sap_global_reg", "must be finite and >= 0 (got %g)", (double)reg);
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalSetFromOptions(FcSAPGlobal s)
{
  FcSAPParams         par    = s->par;
  PetscInt            max_it = s->max_it;
  PetscReal           reg, value = 0;
  FcSAPGlobalDelassus dl;
  const char         *bad, *what = NULL;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, "fc_contact_solver_", "SAP, global form (Castro, Permenter & Han 2022): the local type's options", NULL);
  PetscCall(FcSAPParamsOptions(PetscOptionsObject, &par));
  PetscCall(PetscOptionsBoundedInt("-max_it", "Newton iterations", "", max_it, &max_it, NULL, 0));
  PetscOptionsEnd();
  PetscCall(GlobalOptions_Private(s, &reg, &dl));
  if ((bad = FcSAPParamsInvalid(&par, &what, &value))) {
    char opt[64];
    snprintf(opt, sizeof opt, "-fc_contact_solver_%s", bad);
    return FcInputError("options", opt, "%s (got %g)", what, (double)value);
  }
  PetscCall(CheckReg_Private(reg));
  s->par      = par;
  s->max_it   = max_it;
  s->reg      = reg;
  s->delassus = dl;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalConfigure(FcSAPGlobal s, const FcSAPParams *par, PetscInt max_it)
{
  PetscReal           reg;
  FcSAPGlobalDelassus dl;

  PetscFunctionBegin;
  PetscCheck(max_it >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "max_it must be >= 0 (got %" PetscInt_FMT ")", max_it);
  PetscCall(GlobalOptions_Private(s, &reg, &dl));
  PetscCall(CheckReg_Private(reg));
  s->par      = *par;
  s->max_it   = max_it;
  s->reg      = reg;
  s->delassus = dl;
  PetscFunctionReturn(0);
}

/* M̃ = ½(M + Mᵀ) with every diagonal entry stored; *asym = max|M − Mᵀ|. */
static PetscErrorCode Symmetrize_Private(Mat M, Mat *Ms, PetscReal *asym)
{
  Mat      Mt, D;
  PetscInt n, *nnz;

  PetscFunctionBegin;
  PetscCall(MatGetSize(M, &n, NULL));
  PetscCall(MatTranspose(M, MAT_INITIAL_MATRIX, &Mt));
  PetscCall(MatDuplicate(M, MAT_COPY_VALUES, &D));
  PetscCall(MatAXPY(D, -1.0, Mt, DIFFERENT_NONZERO_PATTERN));
  PetscCall(FcMatMaxAbs(D, asym));
  PetscCall(MatDestroy(&D));
  PetscCall(PetscMalloc1(n, &nnz));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt a, b, t; /* MatRestoreRow zeroes the count it is given: restore with t */
    PetscCall(MatGetRow(M, i, &a, NULL, NULL));
    t = a;
    PetscCall(MatRestoreRow(M, i, &t, NULL, NULL));
    PetscCall(MatGetRow(Mt, i, &b, NULL, NULL));
    t = b;
    PetscCall(MatRestoreRow(Mt, i, &t, NULL, NULL));
    nnz[i] = PetscMin(a + b + 1, n); /* the union is at most this; assembly squeezes the rest */
  }
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnz, Ms));
  PetscCall(PetscFree(nnz));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *v;
    PetscCall(MatSetValue(*Ms, i, i, 0.0, ADD_VALUES));
    for (int t = 0; t < 2; t++) {
      Mat A = t ? Mt : M;
      PetscCall(MatGetRow(A, i, &nc, &cols, &v));
      for (PetscInt k = 0; k < nc; k++) PetscCall(MatSetValue(*Ms, i, cols[k], 0.5 * v[k], ADD_VALUES));
      PetscCall(MatRestoreRow(A, i, &nc, &cols, &v));
    }
  }
  PetscCall(MatAssemblyBegin(*Ms, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*Ms, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDestroy(&Mt));
  PetscCall(MatSetOption(*Ms, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*Ms, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* A sparse Cholesky (LDLᵀ) KSP: MUMPS by default, any -<prefix>ksp_/pc_ option overrides it. */
static PetscErrorCode CholeskyKSP_Private(const char *prefix, Mat A, KSP *ksp)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(PETSC_COMM_SELF, ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, prefix));
  PetscCall(KSPSetType(*ksp, KSPPREONLY));
  PetscCall(KSPGetPC(*ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscFunctionReturn(0);
}

/* Factor M̃: *ok when the factorization succeeded with no negative pivot (*nneg; −1 when the
 * factorization package cannot count them, which is then not checked). */
static PetscErrorCode FactorM_Private(KSP ksp, PetscBool *ok, PetscInt *nneg)
{
  PC             pc;
  PCFailedReason fr;
  Mat            F;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *nneg = -1;
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetFailedReason(pc, &fr));
  *ok = fr == PC_NOERROR ? PETSC_TRUE : PETSC_FALSE;
  if (!*ok) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatGetInertia(F, nneg, NULL, NULL);
  PetscCall(PetscPopErrorHandler());
  if (ierr) *nneg = -1;
  else if (*nneg > 0) *ok = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* w_a = ‖W_aa‖_F/3 with W_aa ≈ H_aᵀ diag(M̃)⁻¹ H_a (comment §3). Row 3a + i of Hᵀ is column
 * 3a + i of H, sparse with sorted indices: W_aa(i, j) is a merge of two of them. */
static PetscErrorCode DelassusDiag_Private(FcSAPGlobal s, PetscReal *wa)
{
  const PetscInt     m = s->gp->m;
  Vec                d;
  const PetscScalar *dd;
  PetscInt           nmax = 0, nr[3], *cc[3];
  PetscReal         *vv[3];

  PetscFunctionBegin;
  PetscCall(VecDuplicate(s->vstar, &d));
  PetscCall(MatGetDiagonal(s->Ms, d));
  PetscCall(VecGetArrayRead(d, &dd));
  for (PetscInt i = 0; i < 3 * m; i++) {
    PetscInt nc;
    PetscCall(MatGetRow(s->Ht, i, &nc, NULL, NULL));
    nmax = PetscMax(nmax, nc);
    PetscCall(MatRestoreRow(s->Ht, i, &nc, NULL, NULL));
  }
  PetscCall(PetscMalloc6(nmax, &cc[0], nmax, &cc[1], nmax, &cc[2], nmax, &vv[0], nmax, &vv[1], nmax, &vv[2]));
  for (PetscInt a = 0; a < m; a++) {
    PetscReal f2 = 0;
    for (int i = 0; i < 3; i++) { /* MatGetRow holds one row at a time: copy the block's three */
      const PetscInt    *ci;
      const PetscScalar *vi;
      PetscInt           t;
      PetscCall(MatGetRow(s->Ht, 3 * a + i, &nr[i], &ci, &vi));
      PetscCall(PetscArraycpy(cc[i], ci, nr[i]));
      for (PetscInt k = 0; k < nr[i]; k++) vv[i][k] = PetscRealPart(vi[k]);
      t = nr[i]; /* MatRestoreRow zeroes the count it is given */
      PetscCall(MatRestoreRow(s->Ht, 3 * a + i, &t, &ci, &vi));
    }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        PetscInt  p = 0, q = 0;
        PetscReal sum = 0;
        while (p < nr[i] && q < nr[j]) {
          if (cc[i][p] < cc[j][q]) p++;
          else if (cc[i][p] > cc[j][q]) q++;
          else {
            sum += vv[i][p] * vv[j][q] / PetscRealPart(dd[cc[i][p]]);
            p++;
            q++;
          }
        }
        f2 += sum * sum;
      }
    wa[a] = PetscSqrtReal(f2) / 3;
  }
  PetscCall(PetscFree6(cc[0], cc[1], cc[2], vv[0], vv[1], vv[2]));
  PetscCall(VecRestoreArrayRead(d, &dd));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(0);
}

/* X = M̃⁻¹ H (n × 3m dense), by the factorization of M̃. */
static PetscErrorCode SolveH_Private(FcSAPGlobal s, Mat *X)
{
  Mat B;

  PetscFunctionBegin;
  PetscCall(MatConvert(s->gp->H, MATSEQDENSE, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, X));
  PetscCall(KSPMatSolve(s->kspM, B, *X));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(0);
}

/* w_a = ‖H_aᵀ M̃⁻¹ H_a‖_F/3, the local type's scale (3m solves). */
static PetscErrorCode DelassusExact_Private(FcSAPGlobal s, PetscReal *wa)
{
  const PetscInt m = s->gp->m;
  Mat            X;
  PetscInt       n;
  PetscScalar   *x;

  PetscFunctionBegin;
  PetscCall(SolveH_Private(s, &X));
  PetscCall(MatGetSize(X, &n, NULL));
  PetscCall(MatDenseGetArray(X, &x)); /* column-major, leading dimension n */
  for (PetscInt a = 0; a < m; a++) {
    PetscReal f2 = 0;
    for (int i = 0; i < 3; i++) {
      PetscInt           ni;
      const PetscInt    *ci;
      const PetscScalar *vi;
      PetscCall(MatGetRow(s->Ht, 3 * a + i, &ni, &ci, &vi));
      for (int j = 0; j < 3; j++) {
        const PetscScalar *xj  = x + (size_t)(3 * a + j) * n;
        PetscReal          sum = 0;
        for (PetscInt k = 0; k < ni; k++) sum += vi[k] * xj[ci[k]];
        f2 += sum * sum;
      }
      PetscCall(MatRestoreRow(s->Ht, 3 * a + i, &ni, &ci, &vi));
    }
    wa[a] = PetscSqrtReal(f2) / 3;
  }
  PetscCall(MatDenseRestoreArray(X, &x));
  PetscCall(MatDestroy(&X));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalSetUp(FcSAPGlobal s, FcGlobalProblem gp)
{
  const PetscInt m = gp->m;
  PetscInt       n, nr, nc, nneg;
  PetscReal      mx, *wa, t0, t1;
  PetscBool      ok;

  PetscFunctionBegin;
  PetscCheck(gp->M && gp->H, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The global problem has no M or H");
  PetscCall(MatGetSize(gp->M, &n, &nc));
  PetscCheck(n == gp->n && nc == gp->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
    "M is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT, n, nc, gp->n, gp->n);
  PetscCall(MatGetSize(gp->H, &nr, &nc));
  PetscCheck(nr == gp->n && nc == 3 * m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
    "H is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT, nr, nc, gp->n, 3 * m);
  PetscCheck(!s->R_user || s->m_user == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
    "The regularization given has %" PetscInt_FMT " contacts, the problem %" PetscInt_FMT, s->m_user, m);
  PetscCall(PetscTime(&t0));
  PetscCall(SAPGlobalReset_Private(s));
  s->gp          = gp;
  s->symmetrized = s->regularized = PETSC_FALSE;
  s->shift                        = 0;

  /* M̃ (comment §2) */
  PetscCall(Symmetrize_Private(gp->M, &s->Ms, &s->asym));
  PetscCall(FcMatMaxAbs(gp->M, &mx));
  s->asym = mx > 0 ? s->asym / mx : 0;
  if (s->asym > SAP_GLOBAL_SYM_TOL) {
    s->symmetrized = PETSC_TRUE;
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR,
      "%s: /fclib_global/M: warning: not symmetric (max |M - M^T| = %.3g max |M|); SAP uses (M + M^T)/2, the common error is that of M as the file states it\n",
      gp->source, (double)s->asym));
  }
  PetscCall(CholeskyKSP_Private("fc_sap_global_mass_", s->Ms, &s->kspM));
  PetscCall(FactorM_Private(s->kspM, &ok, &nneg));
  if (!ok) {
    Vec       d;
    PetscReal sdiag;
    PetscCall(MatCreateVecs(s->Ms, &d, NULL));
    PetscCall(MatGetDiagonal(s->Ms, d));
    PetscCall(VecNorm(d, NORM_1, &sdiag));
    PetscCall(VecDestroy(&d));
    sdiag = sdiag > 0 ? sdiag / n : 1.0;
    if (!(s->reg > 0))
      return FcInputError(
        gp->source, "/fclib_global/M", "not positive definite (%s); -fc_sap_global_reg > 0 would regularize it", nneg > 0 ? "negative pivots" : "zero pivot");
    s->shift       = s->reg * sdiag;
    s->regularized = PETSC_TRUE;
    PetscCall(MatShift(s->Ms, s->shift));
    /* a fresh factorization: MUMPS does not recover from a failed one in place */
    PetscCall(KSPDestroy(&s->kspM));
    PetscCall(CholeskyKSP_Private("fc_sap_global_mass_", s->Ms, &s->kspM));
    {
      const PetscInt nneg0 = nneg;
      PetscCall(FactorM_Private(s->kspM, &ok, &nneg));
      /* an indefinite M stays so for any small shift: one error line, no warning before it */
      if (!ok)
        return FcInputError(gp->source, "/fclib_global/M", "not positive definite (%s), even with %g I added (-fc_sap_global_reg %g)",
          nneg > 0 ? "negative pivots" : "zero pivot", (double)s->shift, (double)s->reg);
      PetscCall(
        PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR, "%s: /fclib_global/M: warning: %s; SAP adds %.3g I (eps mean|diag M| I, eps = %g, -fc_sap_global_reg)\n",
          gp->source, nneg0 > 0 ? "indefinite (negative pivots in its Cholesky factorization)" : "singular (zero pivot in its Cholesky factorization)",
          (double)s->shift, (double)s->reg));
    }
  }

  /* v* = M̃⁻¹ f, work vectors */
  PetscCall(MatCreateVecs(s->Ms, &s->vstar, NULL));
  PetscCall(KSPSolve(s->kspM, gp->f, s->vstar));
  PetscCall(VecDuplicate(s->vstar, &s->v));
  PetscCall(VecDuplicate(s->vstar, &s->dv));
  PetscCall(VecDuplicate(s->vstar, &s->Mdv));
  PetscCall(VecDuplicate(s->vstar, &s->grad));
  PetscCall(VecDuplicate(s->vstar, &s->z));
  PetscCall(VecDuplicate(s->vstar, &s->Hg));
  PetscCall(VecDuplicate(s->vstar, &s->dx));
  PetscCall(VecDuplicate(s->vstar, &s->Mdx));
  PetscCall(VecDuplicate(gp->w, &s->vc));
  PetscCall(VecDuplicate(gp->w, &s->dvc));
  PetscCall(VecDuplicate(gp->w, &s->gam));
  PetscCall(PetscMalloc3(3 * m, &s->R, 9 * m, &s->L, m, &s->mode));
  PetscCall(MatTranspose(gp->H, MAT_INITIAL_MATRIX, &s->Ht));

  /* R (comment §3) */
  s->wmin = PETSC_MAX_REAL;
  s->wmax = 0;
  if (s->R_user) PetscCall(PetscArraycpy(s->R, s->R_user, 3 * m));
  else {
    PetscCall(PetscMalloc1(m, &wa));
    if (s->delassus == FC_SAP_GLOBAL_DELASSUS_EXACT) PetscCall(DelassusExact_Private(s, wa));
    else PetscCall(DelassusDiag_Private(s, wa));
    for (PetscInt a = 0; a < m; a++) {
      FcSAPRegularization(&s->par, wa[a], s->R + 3 * a);
      s->wmin = PetscMin(s->wmin, wa[a]);
      s->wmax = PetscMax(s->wmax, wa[a]);
    }
    PetscCall(PetscFree(wa));
  }

  /* The Hessian's fixed pattern (comment §4): G with full 3×3 blocks, P = H G Hᵀ, K = M̃ + P. */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 3 * m, 3 * m, 3, NULL, &s->Gm));
  for (PetscInt a = 0; a < m; a++) {
    const PetscInt    idx[3] = {3 * a, 3 * a + 1, 3 * a + 2};
    const PetscScalar one[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    PetscCall(MatSetValues(s->Gm, 3, idx, 3, idx, one, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(s->Gm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(s->Gm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(s->Gm, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  PetscCall(MatPtAP(s->Gm, s->Ht, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &s->P));
  PetscCall(MatDuplicate(s->Ms, MAT_COPY_VALUES, &s->K));
  PetscCall(MatAXPY(s->K, 1.0, s->P, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatSetOption(s->K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(s->K, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscCall(CholeskyKSP_Private("fc_sap_global_", s->K, &s->kspK));
  s->setup = PETSC_TRUE;
  PetscCall(PetscTime(&t1));
  s->t_setup = t1 - t0;
  PetscFunctionReturn(0);
}

static PetscErrorCode ComputeLocalDense_Private(FcSAPGlobal s, FcContactProblem *p)
{
  const PetscInt     m = s->gp->m, n3 = 3 * m;
  Mat                X, W;
  FcContactProblem   q;
  const PetscScalar *wv, *qv;
  Vec                qq;

  PetscFunctionBegin;
  PetscCall(SolveH_Private(s, &X));
  PetscCall(MatTransposeMatMult(s->gp->H, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &W));
  PetscCall(MatDestroy(&X));
  PetscCall(FcContactProblemCreate(m, &q));
  PetscCall(MatDenseGetArrayRead(W, &wv)); /* column-major 3m × 3m */
  for (PetscInt i = 0; i < n3; i++)
    for (PetscInt j = 0; j < n3; j++) q->W[(size_t)i * n3 + j] = 0.5 * (wv[(size_t)j * n3 + i] + wv[(size_t)i * n3 + j]);
  PetscCall(MatDenseRestoreArrayRead(W, &wv));
  PetscCall(MatDestroy(&W));
  PetscCall(VecDuplicate(s->gp->w, &qq));
  PetscCall(MatMultTranspose(s->gp->H, s->vstar, qq));
  PetscCall(VecAXPY(qq, 1.0, s->gp->w));
  PetscCall(VecGetArrayRead(qq, &qv));
  for (PetscInt i = 0; i < n3; i++) q->q[i] = qv[i];
  PetscCall(VecRestoreArrayRead(qq, &qv));
  PetscCall(VecDestroy(&qq));
  for (PetscInt a = 0; a < m; a++) q->mu[a] = s->gp->mu[a];
  *p = q;
  PetscFunctionReturn(0);
}

/* q = Hᵀ v* + w and mu into p. */
static PetscErrorCode LocalQ_Private(FcSAPGlobal s, FcContactProblem q)
{
  const PetscScalar *qv;
  Vec                qq;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(s->gp->w, &qq));
  PetscCall(MatMultTranspose(s->gp->H, s->vstar, qq));
  PetscCall(VecAXPY(qq, 1.0, s->gp->w));
  PetscCall(VecGetArrayRead(qq, &qv));
  for (PetscInt i = 0; i < 3 * q->m; i++) q->q[i] = qv[i];
  PetscCall(VecRestoreArrayRead(qq, &qv));
  PetscCall(VecDestroy(&qq));
  for (PetscInt a = 0; a < q->m; a++) q->mu[a] = s->gp->mu[a];
  PetscFunctionReturn(0);
}

#define SAP_GLOBAL_LOCAL_BLOCK 128 /* columns of M̃⁻¹ H per multi-right-hand-side solve */

/* Block-sparse W = Hᵀ M̃⁻¹ H over the pattern of FcGlobalProblemContactGroups (components of M̃):
 * M̃⁻¹ H by chunks of columns (KSPMatSolve with the factorization of SetUp, memory n × chunk, not
 * n × 3m), then for column j of contact a2 the rows of the blocks (a, a2) stored, from the rows
 * of Hᵀ; symmetrized entry by entry. */
static PetscErrorCode ComputeLocalSparse_Private(FcSAPGlobal s, const PetscInt bptr[], const PetscInt bcol[], FcContactProblem *p)
{
  const PetscInt   m = s->gp->m, n3 = 3 * m;
  PetscInt         n;
  FcContactProblem q;

  PetscFunctionBegin;
  PetscCall(FcContactProblemCreateSparse(m, bptr, bcol, &q));
  PetscCall(MatGetSize(s->gp->H, &n, NULL));
  for (PetscInt c0 = 0; c0 < n3; c0 += SAP_GLOBAL_LOCAL_BLOCK) {
    const PetscInt     nb = PetscMin(SAP_GLOBAL_LOCAL_BLOCK, n3 - c0);
    Mat                B, X;
    PetscScalar       *b;
    const PetscScalar *x;
    PetscInt           ldb, ldx;
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, nb, NULL, &B));
    PetscCall(MatZeroEntries(B));
    PetscCall(MatDenseGetArray(B, &b));
    PetscCall(MatDenseGetLDA(B, &ldb));
    for (PetscInt j = 0; j < nb; j++) { /* column c0 + j of H: row c0 + j of Hᵀ */
      PetscInt           nc;
      const PetscInt    *ci;
      const PetscScalar *vi;
      PetscCall(MatGetRow(s->Ht, c0 + j, &nc, &ci, &vi));
      for (PetscInt k = 0; k < nc; k++) b[(size_t)j * ldb + ci[k]] = vi[k];
      PetscCall(MatRestoreRow(s->Ht, c0 + j, &nc, &ci, &vi));
    }
    PetscCall(MatDenseRestoreArray(B, &b));
    PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
    PetscCall(KSPMatSolve(s->kspM, B, X));
    PetscCall(MatDenseGetArrayRead(X, &x));
    PetscCall(MatDenseGetLDA(X, &ldx));
    for (PetscInt j = 0; j < nb; j++) {
      const PetscInt     jj = c0 + j, a2 = jj / 3;
      const PetscScalar *xj = x + (size_t)j * ldx;
      for (PetscInt kb = q->bptr[a2]; kb < q->bptr[a2 + 1]; kb++) {
        const PetscInt a = q->bcol[kb];
        for (int i = 0; i < 3; i++) { /* W(3a + i, jj) = (row 3a + i of Hᵀ) · M̃⁻¹ h_jj */
          PetscInt           nc;
          const PetscInt    *ci;
          const PetscScalar *vi;
          PetscReal          sum = 0;
          PetscCall(MatGetRow(s->Ht, 3 * a + i, &nc, &ci, &vi));
          for (PetscInt k = 0; k < nc; k++) sum += PetscRealPart(vi[k] * xj[ci[k]]);
          PetscCall(MatRestoreRow(s->Ht, 3 * a + i, &nc, &ci, &vi));
          q->bval[9 * (size_t)q->btr[kb] + 3 * i + jj % 3] = sum; /* block (a, a2) */
        }
      }
    }
    PetscCall(MatDenseRestoreArrayRead(X, &x));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&X));
  }
  PetscCall(FcContactProblemSymmetrizeBlocks(q));
  PetscCall(LocalQ_Private(s, q));
  *p = q;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalComputeLocalStorage(FcSAPGlobal s, FcContactWChoice choice, FcContactProblem *p)
{
  PetscInt   ng, *gptr, *gcon, *bptr = NULL, *bcol = NULL;
  PetscInt64 nblocks;

  PetscFunctionBegin;
  PetscCheck(s->setup, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call FcSAPGlobalSetUp first");
  *p = NULL;
  PetscCall(FcGlobalProblemContactGroups(s->Ms, s->gp->H, s->gp->m, &ng, &gptr, &gcon));
  PetscCall(FcContactBlockPatternFromGroups(s->gp->m, ng, gptr, gcon, NULL, NULL, &nblocks));
  if (FcContactWChooseSparse(choice, s->gp->m, nblocks)) {
    PetscCall(FcContactBlockPatternFromGroups(s->gp->m, ng, gptr, gcon, &bptr, &bcol, NULL));
    PetscCall(ComputeLocalSparse_Private(s, bptr, bcol, p));
    PetscCall(PetscFree(bptr));
    PetscCall(PetscFree(bcol));
  } else PetscCall(ComputeLocalDense_Private(s, p));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree(gcon));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalComputeLocal(FcSAPGlobal s, FcContactProblem *p)
{
  PetscFunctionBegin;
  PetscCall(FcSAPGlobalComputeLocalStorage(s, FC_CONTACT_W_CHOOSE_AUTO, p));
  PetscFunctionReturn(0);
}

/* G = L Lᵀ per contact into the block-diagonal Gm (explicit zeros keep the pattern), then
 * K = M̃ + (Hᵀ)ᵀ G Hᵀ (comment §4). */
static PetscErrorCode AssembleHessian_Private(FcSAPGlobal s)
{
  const PetscInt m = s->gp->m;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < m; a++) {
    const PetscInt   idx[3] = {3 * a, 3 * a + 1, 3 * a + 2};
    const PetscReal *L      = s->L + 9 * a;
    PetscScalar      G[9];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) G[3 * i + j] = L[i] * L[j] + L[3 + i] * L[3 + j] + L[6 + i] * L[6 + j]; /* Σ_c L_ic L_jc */
    PetscCall(MatSetValues(s->Gm, 3, idx, 3, idx, G, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(s->Gm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(s->Gm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatPtAP(s->Gm, s->Ht, MAT_REUSE_MATRIX, PETSC_DEFAULT, &s->P));
  PetscCall(MatZeroEntries(s->K));
  PetscCall(MatAXPY(s->K, 1.0, s->Ms, SUBSET_NONZERO_PATTERN));
  PetscCall(MatAXPY(s->K, 1.0, s->P, SUBSET_NONZERO_PATTERN));
  PetscFunctionReturn(0);
}

/* At v: v_c = Hᵀv + w, γ, G = L Lᵀ, ℓ_R; ∇ℓ = M̃(v − v*) − Hγ and the norms of the stopping test
 * (comment §6). */
static PetscErrorCode SAPGlobalEval_Private(void *ctx, PetscReal *cost, PetscReal *grad, PetscReal *scale)
{
  FcSAPGlobal        s  = (FcSAPGlobal)ctx;
  FcGlobalProblem    gp = s->gp;
  const PetscInt     m  = gp->m;
  PetscReal          c  = 0, gz, hd, hz, jj;
  const PetscScalar *vc;
  PetscScalar       *gm;

  PetscFunctionBegin;
  PetscCall(MatMultTranspose(gp->H, s->v, s->vc));
  PetscCall(VecAXPY(s->vc, 1.0, gp->w));
  PetscCall(VecGetArrayRead(s->vc, &vc));
  PetscCall(VecGetArrayWrite(s->gam, &gm));
  for (PetscInt a = 0; a < m; a++) {
    s->mode[a] = FcSAPProject(gp->mu[a], s->R[3 * a], s->R[3 * a + 1], vc + 3 * a, gm + 3 * a, s->L + 9 * a);
    c += FcSAPCostR(s->R + 3 * a, gm + 3 * a);
  }
  PetscCall(VecRestoreArrayWrite(s->gam, &gm));
  PetscCall(VecRestoreArrayRead(s->vc, &vc));
  PetscCall(VecWAXPY(s->dv, -1.0, s->vstar, s->v));
  PetscCall(MatMult(s->Ms, s->dv, s->Mdv));
  PetscCall(MatMult(gp->H, s->gam, s->Hg));
  PetscCall(VecWAXPY(s->grad, -1.0, s->Hg, s->Mdv));
  PetscCall(KSPSolve(s->kspM, s->grad, s->z));
  PetscCall(VecDot(s->dv, s->Mdv, &s->pp));
  PetscCall(VecDot(s->grad, s->z, &gz));
  PetscCall(VecDot(s->Hg, s->dv, &hd));
  PetscCall(VecDot(s->Hg, s->z, &hz));
  jj = hd - hz;
  c += 0.5 * s->pp;
  *cost  = c;
  *grad  = PetscSqrtReal(PetscMax(gz, 0));
  *scale = PetscSqrtReal(PetscMax(PetscMax(s->pp, jj), 0));
  PetscFunctionReturn(0);
}

/* Newton: (M̃ + H G Hᵀ) Δv = −∇ℓ (comment §4), and the line along Δv (comment §5): a1 = ΔvᵀM̃(v − v*),
 * a2 = ΔvᵀM̃Δv, the slope ∇ℓᵀΔv, v_c + α HᵀΔv (the arrays lent until SAPGlobalRelease_Private). */
static PetscErrorCode SAPGlobalNewtonStep_Private(void *ctx, PetscInt k, FcSAPLine *line, const char **fail)
{
  FcSAPGlobal        s  = (FcSAPGlobal)ctx;
  FcGlobalProblem    gp = s->gp;
  KSPConvergedReason kr;

  PetscFunctionBegin;
  (void)k;
  *fail = NULL;
  PetscCall(AssembleHessian_Private(s));
  PetscCall(KSPSetOperators(s->kspK, s->K, s->K));
  PetscCall(VecScale(s->grad, -1.0));
  PetscCall(KSPSolve(s->kspK, s->grad, s->dx));
  PetscCall(VecScale(s->grad, -1.0));
  PetscCall(KSPGetConvergedReason(s->kspK, &kr));
  if (kr < 0) {
    *fail = "the factorization of M + H G H^T failed";
    PetscFunctionReturn(0);
  }
  PetscCall(MatMultTranspose(gp->H, s->dx, s->dvc));
  PetscCall(MatMult(s->Ms, s->dx, s->Mdx));
  PetscCall(VecDot(s->dx, s->Mdv, &line->a1));
  PetscCall(VecDot(s->dx, s->Mdx, &line->a2));
  PetscCall(VecDot(s->dx, s->grad, &line->df0)); /* −∇ℓᵀK⁻¹∇ℓ < 0 unless ∇ℓ = 0 */
  PetscCall(VecGetArrayRead(s->vc, &s->lvc));
  PetscCall(VecGetArrayRead(s->dvc, &s->ldvc));
  line->m   = gp->m;
  line->mu  = gp->mu;
  line->R   = s->R;
  line->vc  = s->lvc;
  line->dvc = s->ldvc;
  line->a0  = 0.5 * s->pp;
  PetscFunctionReturn(0);
}

static PetscErrorCode SAPGlobalRelease_Private(void *ctx)
{
  FcSAPGlobal s = (FcSAPGlobal)ctx;

  PetscFunctionBegin;
  PetscCall(VecRestoreArrayRead(s->dvc, &s->ldvc));
  PetscCall(VecRestoreArrayRead(s->vc, &s->lvc));
  PetscFunctionReturn(0);
}

static PetscErrorCode SAPGlobalMove_Private(void *ctx, PetscReal alpha)
{
  FcSAPGlobal s = (FcSAPGlobal)ctx;

  PetscFunctionBegin;
  PetscCall(VecAXPY(s->v, alpha, s->dx));
  PetscFunctionReturn(0);
}

/* A contact with H_a = 0 has w_a = 0: no R can be scaled on it. r = 0, v = v*. */
static PetscErrorCode SAPGlobalNoScale_Private(FcSAPGlobal s, PetscReal r[], PetscReal v[])
{
  const PetscScalar *ca;

  PetscFunctionBegin;
  s->run.reason  = FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
  s->run.failure = "a contact has H_a = 0 (w_a = 0): no regularization can be scaled on it";
  PetscCall(PetscArrayzero(r, 3 * s->gp->m));
  if (v) {
    PetscCall(VecGetArrayRead(s->vstar, &ca));
    PetscCall(PetscArraycpy(v, ca, s->gp->n));
    PetscCall(VecRestoreArrayRead(s->vstar, &ca));
  }
  s->run.own = (PetscReal)NAN;
  s->t_solve = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalSolve(FcSAPGlobal s, PetscReal r[], PetscReal v[])
{
  const FcSAPNewtonOps ops = {.name = "sap global",
    .eval                           = SAPGlobalEval_Private,
    .direction                      = SAPGlobalNewtonStep_Private,
    .release                        = SAPGlobalRelease_Private,
    .step                           = SAPGlobalMove_Private};
  FcGlobalProblem      gp;
  PetscInt             m, n, k;
  PetscReal            t0, t1;
  PetscScalar         *a;
  const PetscScalar   *ca;
  char                 head[256];

  PetscFunctionBegin;
  PetscCheck(s->setup, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Call FcSAPGlobalSetUp first");
  PetscCall(PetscTime(&t0));
  gp = s->gp;
  m  = gp->m;
  n  = gp->n;
  FcSAPStateReset(&s->run);
  for (PetscInt i = 0; i < 3 * m; i++)
    if (!(s->R[i] > 0)) {
      PetscCall(SAPGlobalNoScale_Private(s, r, v));
      PetscFunctionReturn(0);
    }

  /* The start: v = v* + M̃⁻¹ H r, the local type's λ = r (comment §7); Newton with the exact line
   * search (core.c). */
  PetscCall(VecGetArrayWrite(s->gam, &a));
  for (PetscInt i = 0; i < 3 * m; i++) a[i] = r[i];
  PetscCall(VecRestoreArrayWrite(s->gam, &a));
  PetscCall(MatMult(gp->H, s->gam, s->Hg));
  PetscCall(KSPSolve(s->kspM, s->Hg, s->dv));
  PetscCall(VecWAXPY(s->v, 1.0, s->vstar, s->dv));
  snprintf(head, sizeof head, "(n = %" PetscInt_FMT ", m = %" PetscInt_FMT ", beta %g, sigma %g)", n, m, (double)s->par.beta, (double)s->par.sigma);
  PetscCall(FcSAPNewton(&ops, s, &s->par, s->max_it, head, &s->run, &k));

  PetscCall(VecGetArrayRead(s->gam, &ca));
  PetscCall(PetscArraycpy(r, ca, 3 * m));
  PetscCall(VecRestoreArrayRead(s->gam, &ca));
  if (v) {
    PetscCall(VecGetArrayRead(s->v, &ca));
    PetscCall(PetscArraycpy(v, ca, n));
    PetscCall(VecRestoreArrayRead(s->v, &ca));
  }
  FcSAPStateCountRegions(&s->run, m, s->mode);
  if (s->run.failure) PetscCall(PetscInfo(NULL, "sap global: stopped after %" PetscInt_FMT " iterations: %s\n", k, s->run.failure));
  PetscCall(PetscTime(&t1));
  s->t_solve = t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPGlobalGetInfo(FcSAPGlobal s, FcSAPInfo *info)
{
  PetscFunctionBegin;
  PetscCheck(s && info, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null argument");
  FcSAPStateInfo(&s->run, info);
  info->ls_iterations_all = s->run.ls_it;
  info->R                 = s->R;
  info->wmin              = s->R_user ? (PetscReal)NAN : s->wmin;
  info->wmax              = s->R_user ? (PetscReal)NAN : s->wmax;
  info->delassus          = s->delassus;
  info->user_R            = s->R_user ? PETSC_TRUE : PETSC_FALSE;
  info->asymmetry         = s->asym;
  info->symmetrized       = s->symmetrized;
  info->regularized       = s->regularized;
  info->shift             = s->shift;
  info->time_setup        = s->t_setup;
  info->time_solve        = s->t_solve;
  PetscFunctionReturn(0);
}
