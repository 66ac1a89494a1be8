/* fcsim — deformable body: FEM state, linearized momentum and free-motion solve.
 *
 * Unknown x per integrator (model.h, doc/dynamics.md): quasi-static x = u(t1); dynamics x = v(t1)
 * with the θ-method of han2023 eq. 1–11 (theta.h: q = q0 + dt (θ_vq v + (1 − θ_vq) v0), eq. 4,
 * the θ-points, the Newton matrix coefficients): internal force at q^θ = θ q + (1 − θ) q0,
 * Rayleigh damping at v^θ (eq. 5, 6), momentum residual m(v) = M (v − v0) − dt k(v) (eq. 8) and
 * Newton matrix A = (1 + αθdt) M + θdt (θ_vq dt + β) K (eq. 11). Backward Euler is θ = θ_vq = 1
 * (duriez2006 eq. 27 in velocity form); its operations are kept exactly as they were before the
 * general θ-method (same results bit for bit).
 * Dirichlet conditions are imposed by giving x its prescribed values in the predictor and
 * zeroing the increment on constrained DoFs: rows and columns of A are zeroed with a unit-scaled
 * diagonal (MatZeroRowsColumns), which keeps A symmetric so the Cholesky factorization applies,
 * and keeps its nonzero pattern so the symbolic factorization is reused across steps. A prescribed
 * displacement ū(t1) fixes v on its DoF through eq. 4: v = ((ū − u0)/dt − (1 − θ_vq) v0)/θ_vq,
 * which is why θ_vq = 0 (q independent of v) is rejected. `plane_strain` adds u_z = 0 at every
 * node to the constrained set (han2023 §VII-A). */
#include "model.h"
#include "theta.h"
#include <string.h>

/* Inertia correction (FormMatrix_Private): Wächter & Biegler 2006, Algorithm IC */
#define FC_IC_DELTA_0   1e-4  /* first trial shift, relative to diag(A)/diag(M) */
#define FC_IC_DELTA_MIN 1e-20 /* smallest shift tried */
#define FC_IC_MAX_TRIES 20    /* 1e-4 · 100 · 8^18 ≈ 2e18 diag(A)/diag(M): A + δM is then PD */
#define FC_IC_RHO_0     1e-2  /* first contact-constraint penalty, relative to the mean diagonal of A */
#define FC_IC_RHO_TRIES 4     /* ρ = ρ0 … 1000 ρ0 before falling back to A + δM */

PetscLogEvent FC_EVENT_Assembly, FC_EVENT_Factor, FC_EVENT_Solve, FC_EVENT_Output;
PetscLogStage FC_STAGE_Setup, FC_STAGE_Steps;

typedef struct {
  Mat        M, K, A;
  KSP        ksp;
  Vec        x, dx, r, rfree, fint, fext, work, u0, v0;
  Vec        uth, vth, vq;   /* q^θ, v^θ and θ_vq v + (1 − θ_vq) v0 (θ-method, han2023 eq. 1) */
  Vec        fbody[3];       /* ∫ ρ N e_k dV: body force per unit gravity component k */
  const FcCase *c;
  PetscInt   nloads;
  Vec       *fload;          /* unit-ramp load vectors, one per loads[] entry */
  PetscBool  linear;         /* K independent of u: assembled once, f_int = K u */
  PetscBool  lagged;         /* element frames from u0, the step start (corotational_lagged) */
  FcTheta    th;             /* θ-method parameters (1, 1 for backward Euler) */
  PetscBool  K_assembled;
  PetscBool  A_valid;        /* A holds cM M + cK K for the values below and the current K */
  PetscReal  A_cM, A_cK;
  PetscInt  *bc_entry, *bc_comp; /* per constrained DoF: boundary[] entry (-1: plane strain) and component */
  PetscReal  last_scale;
  PetscReal  cM, cK;         /* A = cM M + cK K for the current integrator and dt */
  IS         schur_is;       /* compliance "schur": participating DoFs (NULL: plain factorization) */
  FcSchur    schur;          /* A factored through its Schur complement onto schur_is */
  PetscBool  inertia;        /* inertia correction on (time.newton.inertia_correction, MUMPS LDLᵀ) */
  PetscReal  shift_last;     /* last inertia-correcting shift δ (relative), 0: none yet */
  PetscReal  rho_last;       /* last contact-constraint penalty ρ that made A definite (relative), 0: none yet */
} Deformable;

/* q(x): quasi-static q = x; dynamics q = q0 + dt (θ_vq v + (1 − θ_vq) v0) (han2023 eq. 4, the
 * kinematic map N is the identity for a deformable body). */
static PetscErrorCode ModelUAtX_Private(FcBody b, const FcStepInfo *s, Vec u)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) PetscCall(VecCopy(d->x, u));
  else PetscCall(FcThetaPositionVec(&d->th, s->dt, d->u0, d->v0, d->x, d->vq, u));
  PetscFunctionReturn(0);
}

/* Frame source of the internal force: u0 for lagged frames, else the displacement itself. */
static Vec FrameSource_Private(Deformable *d)
{
  return d->lagged ? d->u0 : NULL;
}

static PetscErrorCode BeginStep_Deformable(FcBody b, const FcStepInfo *s)
{
  Deformable *d = (Deformable *)b->data;
  PetscScalar *x;
  const PetscScalar *u0, *v0;

  PetscFunctionBegin;
  /* a displacement increment is dt θ_vq times an increment of v (han2023 eq. 4) */
  b->incscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : FcThetaIncrementScale(&d->th, s->dt);
  PetscCall(VecCopy(b->u, d->u0));
  PetscCall(VecCopy(b->v, d->v0));
  if (d->lagged && d->th.theta != 0.0) d->A_valid = PETSC_FALSE; /* new frames, new K */
  /* Predictor: quasi-static keeps u0; dynamics starts from v0. */
  PetscCall(VecCopy(s->integrator == FC_INTEGRATOR_QUASI_STATIC ? d->u0 : d->v0, d->x));
  PetscCall(VecGetArray(d->x, &x));
  PetscCall(VecGetArrayRead(d->u0, &u0));
  PetscCall(VecGetArrayRead(d->v0, &v0));
  for (PetscInt i = 0; i < b->nbc; i++) {
    /* plane strain (bc_entry -1): u_z = 0 */
    PetscReal val = d->bc_entry[i] < 0 ? 0.0 : FcCaseBoundaryValue(&b->spec->boundary[d->bc_entry[i]], d->bc_comp[i], s->t1);
    PetscInt  k   = b->bc_dofs[i];
    if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) x[k] = val;
    else x[k] = FcThetaVelocity(&d->th, s->dt, u0[k], v0[k], val); /* han2023 eq. 4 solved for v */
  }
  PetscCall(VecRestoreArrayRead(d->v0, &v0));
  PetscCall(VecRestoreArrayRead(d->u0, &u0));
  PetscCall(VecRestoreArray(d->x, &x));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExternalForce_Private(FcBody b, PetscReal t)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   g[3];

  PetscFunctionBegin;
  FcCaseGravity(d->c, t, g);
  PetscCall(VecSet(d->fext, 0.0));
  for (int k = 0; k < 3; k++)
    if (g[k] != 0) PetscCall(VecAXPY(d->fext, g[k], d->fbody[k]));
  for (PetscInt l = 0; l < d->nloads; l++) PetscCall(VecAXPY(d->fext, FcRampEval(&b->spec->loads[l].ramp, t), d->fload[l]));
  PetscFunctionReturn(0);
}

/* A = cM M + cK K with the constrained rows/columns replaced by a scaled identity (not factored). */
static PetscErrorCode BuildMatrix_Private(FcBody b, PetscReal cM, PetscReal cK, PetscReal rho)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   diag = 1.0;
  Vec         dg;

  PetscFunctionBegin;
  PetscCall(MatCopy(d->K, d->A, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(d->A, cK));
  if (cM != 0) PetscCall(MatAXPY(d->A, cM, d->M, SAME_NONZERO_PATTERN));
  if (rho > 0) { /* + ρ Σ_a h_a h_aᵀ: a row's DoFs are one node's or one face's, inside A's pattern */
    for (PetscInt sr = 0; sr < b->nstab; sr++)
      for (PetscInt k = b->stab_ptr[sr]; k < b->stab_ptr[sr + 1]; k++)
        for (PetscInt l = b->stab_ptr[sr]; l < b->stab_ptr[sr + 1]; l++) PetscCall(MatSetValue(d->A, b->stab_dof[k], b->stab_dof[l], rho * b->stab_val[k] * b->stab_val[l], ADD_VALUES));
    PetscCall(MatAssemblyBegin(d->A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(d->A, MAT_FINAL_ASSEMBLY));
  }
  /* The identity on constrained DoFs is scaled to the mean diagonal so the factorization's
   * pivots stay of one magnitude. */
  PetscCall(MatCreateVecs(d->A, &dg, NULL));
  PetscCall(MatGetDiagonal(d->A, dg));
  PetscCall(VecNorm(dg, NORM_1, &diag));
  diag = diag > 0 ? diag / b->ndof : 1.0;
  PetscCall(VecDestroy(&dg));
  PetscCall(MatZeroRowsColumns(d->A, b->nbc, b->bc_dofs, diag, NULL, NULL));
  PetscFunctionReturn(0);
}

/* Number of negative eigenvalues of the factored A (MUMPS LDLᵀ: the negative pivots, INFOG(12),
 * by Sylvester's law of inertia); -1 when the factorization in use cannot tell (a user -pc_type
 * or -pc_factor_mat_solver_type other than Cholesky by MUMPS, or MUMPS on several ranks without
 * -mat_mumps_icntl_13 1). */
static PetscErrorCode NegativeEigenvalues_Private(Deformable *d, PetscInt *nneg)
{
  PC        pc;
  Mat       F;
  PetscBool chol;
  MatSolverType st;

  PetscFunctionBegin;
  *nneg = -1;
  PetscCall(KSPGetPC(d->ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  if (!chol) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatSolverType(pc, &st));
  if (!st || strcmp(st, MATSOLVERMUMPS)) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatrix(pc, &F));
  {
    /* distributed: MUMPS counts the global negative pivots only with ICNTL(13) = 1 (no
     * ScaLAPACK root node), which PETSc requires for MatGetInertia; otherwise no check */
    PetscMPIInt size;
    PetscInt    icntl13 = 1;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)F), &size));
    if (size > 1) PetscCall(MatMumpsGetIcntl(F, 13, &icntl13));
    if (icntl13 != 1) PetscFunctionReturn(0);
  }
  PetscCall(MatGetInertia(F, nneg, NULL, NULL));
  PetscFunctionReturn(0);
}

/* Form and factor A = cM M + cK K. With the inertia correction on, an A with negative
 * eigenvalues is replaced by a positive definite one, in two ways (doc/architecture.md,
 * "Indefinite Newton matrices"):
 *
 * 1. A + ρ Σ_a h_a h_aᵀ, h_a the normal rows of H of the contacts active in the last contact
 *    correction (set by the contact step). K is typically indefinite only in modes the contacts
 *    hold: a body pressed by frictionless plates is unstable under the same forces applied as
 *    dead loads. At a stable constrained equilibrium K is positive definite on the null space of
 *    the active H (second-order sufficiency), hence K + ρ H_Aᵀ H_A is positive definite for ρ
 *    large enough (Finsler's lemma; the augmented Lagrangian's term, Bertsekas, Constrained
 *    Optimization and Lagrange Multiplier Methods, 1982, §2.1). Where the contact solve makes the
 *    same contacts active, H_A Δx = c_A and the increment is unchanged — the Newton increment of
 *    the constrained problem (the multipliers absorb ρ (H_A Δx)) — so Newton keeps its quadratic
 *    rate. ρ = 1e-2, 1e-1, … (4 values, starting from the last one that worked) times the mean
 *    diagonal of A.
 * 2. If that is not enough (no active contact, or modes no contact holds): A + δ M with δ the
 *    smallest of the inertia-correction sequence of Wächter & Biegler, Math. Program. 106
 *    (2006), §3.1 (Algorithm IC), M in place of the identity — a modified Newton step, linear
 *    rate.
 *
 * A positive definite A keeps W = H A⁻¹ Hᵀ positive semidefinite (a convex contact problem)
 * and the Newton direction a descent direction of the energy. The residual, hence the
 * converged state, is the unmodified one. */
static PetscErrorCode FormMatrix_Private(FcBody b, PetscReal cM, PetscReal cK)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   t0, t1, delta = 0, unit = 0, rho = 0, rhounit = 0;
  PetscInt    nneg, tries = 0, rtries = 0;

  PetscFunctionBegin;
  if (d->A_valid && d->A_cM == cM && d->A_cK == cK) PetscFunctionReturn(0);
  for (;;) {
    PetscCall(PetscTime(&t0));
    PetscCall(PetscLogEventBegin(FC_EVENT_Assembly, 0, 0, 0, 0));
    PetscCall(BuildMatrix_Private(b, cM + delta * unit, cK, rho * rhounit));
    PetscCall(PetscLogEventEnd(FC_EVENT_Assembly, 0, 0, 0, 0));
    PetscCall(PetscTime(&t1));
    b->times.assembly += t1 - t0;

    PetscCall(PetscLogEventBegin(FC_EVENT_Factor, 0, 0, 0, 0));
    if (d->schur_is) { /* one MUMPS factorization with the Schur IS serves the free solve, W and the correction */
      if (!d->schur) PetscCall(FcSchurCreate(d->A, d->schur_is, &d->schur));
      else PetscCall(FcSchurUpdate(d->schur, d->A));
    } else {
      PetscCall(KSPSetOperators(d->ksp, d->A, d->A));
      PetscCall(KSPSetUp(d->ksp));
    }
    PetscCall(PetscLogEventEnd(FC_EVENT_Factor, 0, 0, 0, 0));
    PetscCall(PetscTime(&t0));
    b->times.factor += t0 - t1;
    if (!d->inertia || d->schur_is) break;
    PetscCall(NegativeEigenvalues_Private(d, &nneg));
    if (nneg <= 0) break;
    if (unit == 0) { /* mean diagonals of A and M */
      PetscReal dK, dM;
      Vec       dg;
      PetscCall(MatCreateVecs(d->M, &dg, NULL));
      PetscCall(MatGetDiagonal(d->M, dg));
      PetscCall(VecNorm(dg, NORM_1, &dM));
      PetscCall(MatGetDiagonal(d->K, dg));
      PetscCall(VecNorm(dg, NORM_1, &dK));
      PetscCall(VecDestroy(&dg));
      rhounit = (PetscAbsReal(cK) * dK + PetscAbsReal(cM) * dM) / b->ndof;
      unit    = rhounit * b->ndof / dM;
    }
    b->refactors++;
    if (b->nstab > 0 && rtries < FC_IC_RHO_TRIES) { /* 1: the active contacts' penalty */
      rho = rtries++ == 0 ? (d->rho_last > 0 ? d->rho_last : FC_IC_RHO_0) : 10.0 * rho;
      continue;
    }
    rho = 0; /* 2: A + δM */
    PetscCheck(tries < FC_IC_MAX_TRIES, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "Body %s: the Newton matrix stays indefinite (%d negative eigenvalues) after %d inertia-correcting shifts, the last %g x diag(A)/diag(M)", b->name, (int)nneg, (int)tries, (double)delta);
    /* Algorithm IC: first δ = max(δ_min, δ_last/3), or δ_0 when no shift was needed before,
     * then δ ← 8δ (100δ while no shift has ever worked). δ is relative to the ratio of the mean
     * diagonals of A and M, so it does not depend on the units, the mesh or the material. */
    if (tries++ == 0) delta = d->shift_last > 0 ? PetscMax(FC_IC_DELTA_MIN, d->shift_last / 3.0) : FC_IC_DELTA_0;
    else delta *= d->shift_last > 0 ? 8.0 : 100.0;
  }
  if (delta > 0) {
    d->shift_last = delta;
    b->shift      = PetscMax(b->shift, delta);
  }
  if (rho > 0) {
    d->rho_last = rho;
    b->penalty  = PetscMax(b->penalty, rho);
  }
  d->A_valid = PETSC_TRUE;
  d->A_cM    = cM;
  d->A_cK    = cK;
  PetscFunctionReturn(0);
}

static PetscErrorCode Residual_Deformable(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   t0, t1, nint, next, cM, cK;
  const PetscBool qs = (PetscBool)(s->integrator == FC_INTEGRATOR_QUASI_STATIC);
  /* θ-method intermediate quantities (han2023 eq. 1); θ = 1 (quasi-static, backward Euler)
   * evaluates everything at t1 with the very vectors used before the θ-method existed. */
  const PetscReal theta = qs ? 1.0 : d->th.theta;
  Vec         u = b->ucur, uth = u, vth = d->x;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FC_EVENT_Assembly, 0, 0, 0, 0));
  PetscCall(ModelUAtX_Private(b, s, u));
  if (theta != 1.0) {
    uth = d->uth; /* q^θ = θ q + (1 − θ) q0 */
    PetscCall(FcThetaPointVec(&d->th, d->u0, u, uth));
    vth = d->vth; /* v^θ = θ v + (1 − θ) v0 */
    PetscCall(FcThetaPointVec(&d->th, d->v0, d->x, vth));
  }
  if (d->linear) {
    if (!d->K_assembled) {
      PetscCall(MatZeroEntries(d->K));
      PetscCall(FcAssembleInternal(&b->mesh, b->material, u, NULL, NULL, d->K));
      d->K_assembled = PETSC_TRUE;
    }
    PetscCall(MatMult(d->K, uth, d->fint));
    /* ½ uᵀK u at t1 (for θ ≠ 1 EndStep evaluates it at q, not at q^θ) */
    PetscCall(VecDot(d->fint, uth, &b->strain_energy));
    b->strain_energy *= 0.5;
  } else {
    /* K and f_int at q^θ; a lagged frame (corotational_lagged) comes from u0, the step start,
     * so f_int is affine in q and K constant within the step (han2023 Proposition 1). */
    PetscCall(MatZeroEntries(d->K));
    PetscCall(FcAssembleInternalLagged(&b->mesh, b->material, uth, FrameSource_Private(d), &b->strain_energy, d->fint, d->K));
    d->K_assembled = PETSC_TRUE;
    /* A changes with K, except with a lagged frame within a step (K constant, A invalidated by
     * BeginStep) and when A does not involve K (θ = 0: A = (1 + 0) M, explicit) */
    if (!d->lagged && theta != 0.0) d->A_valid = PETSC_FALSE;
  }
  /* f_ext at t^θ = θ t1 + (1 − θ) t0 */
  PetscCall(ExternalForce_Private(b, FcThetaTime(&d->th, s->t0, s->t1)));
  PetscCall(VecNorm(d->fint, NORM_2, &nint));
  PetscCall(VecNorm(d->fext, NORM_2, &next));
  if (qs) {
    /* r = f_int(u) − f_ext(t1) */
    PetscCall(VecWAXPY(d->r, -1.0, d->fext, d->fint));
    *scale = PetscMax(nint, next);
    cM     = d->c->newton_shift; /* modified Newton A = K + s M (case.h: time.newton.shift) */
    cK     = 1.0;
  } else {
    /* m(v) = M (v − v0) + dt [f_int(q^θ) + (αM + βK) v^θ − f_ext(t^θ)]   (han2023 eq. 5, 6, 8) */
    PetscReal alpha = b->spec->alpha, beta = b->spec->beta, ninert, ndamp = 0;
    Vec       tmp = d->rfree;
    PetscCall(VecWAXPY(d->dx, -1.0, d->v0, d->x));
    PetscCall(MatMult(d->M, d->dx, d->r)); /* r = M (v − v0) */
    PetscCall(VecNorm(d->r, NORM_2, &ninert));
    PetscCall(VecAXPY(d->r, s->dt, d->fint));
    PetscCall(VecAXPY(d->r, -s->dt, d->fext));
    if (alpha != 0 || beta != 0) {
      PetscCall(MatMult(d->M, vth, tmp));
      PetscCall(VecScale(tmp, alpha));
      if (beta != 0) {
        PetscCall(MatMult(d->K, vth, d->dx)); /* dx is scratch here */
        PetscCall(VecAXPY(tmp, beta, d->dx));
      }
      PetscCall(VecNorm(tmp, NORM_2, &ndamp));
      PetscCall(VecAXPY(d->r, s->dt, tmp));
    }
    *scale = PetscMax(ninert, s->dt * PetscMax(PetscMax(nint, next), ndamp));
    /* A = ∂m/∂v (han2023 eq. 11) */
    FcThetaMatrixCoefficients(&d->th, s->dt, alpha, beta, &cM, &cK);
  }
  /* The free increment solves with the residual without contact (the contact correction
   * A⁻¹Hᵀr is added by the contact step with this iteration's H); convergence is judged on the
   * full residual, contact forces of the last contact solve included. */
  PetscCall(VecCopy(d->r, d->rfree));
  if (b->fcontact) PetscCall(VecAXPY(d->r, -1.0, b->fcontact));
  PetscCall(VecCopy(d->r, d->work));
  {
    PetscScalar *rf, *rw;
    PetscCall(VecGetArray(d->rfree, &rf));
    PetscCall(VecGetArray(d->work, &rw));
    for (PetscInt i = 0; i < b->nbc; i++) rf[b->bc_dofs[i]] = rw[b->bc_dofs[i]] = 0.0;
    PetscCall(VecRestoreArray(d->work, &rw));
    PetscCall(VecRestoreArray(d->rfree, &rf));
  }
  PetscCall(VecNorm(d->work, NORM_2, rnorm));
  /* state part of the tangential relative motion for the contact step */
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) PetscCall(VecWAXPY(b->rate, -1.0, d->u0, b->ucur));
  else PetscCall(VecCopy(d->x, b->rate));
  PetscCall(PetscLogEventEnd(FC_EVENT_Assembly, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  b->times.assembly += t1 - t0;
  d->last_scale = *scale;
  d->cM         = cM;
  d->cK         = cK;
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve_Deformable(FcBody b, const FcStepInfo *s, PetscReal *dxnorm)
{
  Deformable        *d = (Deformable *)b->data;
  KSPConvergedReason reason;
  PetscReal          t0, t1;

  PetscFunctionBegin;
  (void)s;
  /* A is formed (and factored) only when an increment is needed, never for the final
   * convergence check of a step. */
  PetscCall(FormMatrix_Private(b, d->cM, d->cK));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FC_EVENT_Solve, 0, 0, 0, 0));
  PetscCall(VecScale(d->rfree, -1.0));
  if (d->schur) PetscCall(FcSchurSolve(d->schur, d->rfree, d->dx));
  else PetscCall(KSPSolve(d->ksp, d->rfree, d->dx));
  PetscCall(PetscLogEventEnd(FC_EVENT_Solve, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  b->times.solve += t1 - t0;
  if (!d->schur) {
    PetscCall(KSPGetConvergedReason(d->ksp, &reason));
    PetscCheck(reason >= 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "Body %s: linear solve failed (%s); is the body constrained against rigid motion?", b->name, KSPConvergedReasons[reason]);
  }
  PetscCall(VecNorm(d->dx, NORM_2, dxnorm));
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveMulti_Deformable(FcBody b, Mat B, Mat X)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FC_EVENT_Solve, 0, 0, 0, 0));
  if (d->schur) PetscCall(FcSchurMatSolve(d->schur, B, X));
  else PetscCall(KSPMatSolve(d->ksp, B, X));
  PetscCall(PetscLogEventEnd(FC_EVENT_Solve, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  b->times.solve += t1 - t0;
  PetscFunctionReturn(0);
}

static PetscErrorCode SetParticipating_Deformable(FcBody b, PetscInt np, const PetscInt *idx)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  PetscCall(FcSchurDestroy(&d->schur));
  PetscCall(ISDestroy(&d->schur_is));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, np, idx, PETSC_COPY_VALUES, &d->schur_is));
  d->A_valid = PETSC_FALSE; /* refactor with the Schur IS */
  PetscFunctionReturn(0);
}

static PetscErrorCode GetSchur_Deformable(FcBody b, FcSchur *sch)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  *sch = d->schur;
  PetscFunctionReturn(0);
}

static PetscErrorCode Update_Deformable(FcBody b, const FcStepInfo *s)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  (void)s;
  PetscCall(VecAXPY(d->x, 1.0, d->dx));
  PetscFunctionReturn(0);
}

static PetscErrorCode EndStep_Deformable(FcBody b, const FcStepInfo *s)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  PetscCall(ModelUAtX_Private(b, s, b->u));
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) {
    PetscCall(VecWAXPY(b->v, -1.0, d->u0, b->u));
    PetscCall(VecScale(b->v, 1.0 / s->dt));
    PetscCall(VecCopy(d->r, b->reaction)); /* support force = f_int − f_ext */
  } else {
    PetscCall(VecCopy(d->x, b->v));
    PetscCall(VecCopy(d->r, b->reaction)); /* support force = m(v)/dt (mean over the step) */
    PetscCall(VecScale(b->reaction, 1.0 / s->dt));
    if (d->th.theta != 1.0) {
      /* the residual evaluated the energy at q^θ; the probe reports it at t1 */
      if (d->linear) {
        PetscCall(MatMult(d->K, b->u, d->work));
        PetscCall(VecDot(d->work, b->u, &b->strain_energy));
        b->strain_energy *= 0.5;
      } else PetscCall(FcAssembleInternalLagged(&b->mesh, b->material, b->u, FrameSource_Private(d), &b->strain_energy, NULL, NULL));
    }
  }
  PetscCall(MatMult(d->M, b->v, d->work));
  PetscCall(VecDot(d->work, b->v, &b->kinetic_energy));
  b->kinetic_energy *= 0.5;
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_Deformable(FcBody b)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(0);
  PetscCall(FcSchurDestroy(&d->schur));
  PetscCall(ISDestroy(&d->schur_is));
  PetscCall(MatDestroy(&d->M));
  PetscCall(MatDestroy(&d->K));
  PetscCall(MatDestroy(&d->A));
  PetscCall(KSPDestroy(&d->ksp));
  PetscCall(VecDestroy(&d->x));
  PetscCall(VecDestroy(&d->dx));
  PetscCall(VecDestroy(&d->r));
  PetscCall(VecDestroy(&d->rfree));
  PetscCall(VecDestroy(&d->fint));
  PetscCall(VecDestroy(&d->fext));
  for (int k = 0; k < 3; k++) PetscCall(VecDestroy(&d->fbody[k]));
  PetscCall(VecDestroy(&d->work));
  PetscCall(VecDestroy(&d->u0));
  PetscCall(VecDestroy(&d->v0));
  PetscCall(VecDestroy(&d->uth));
  PetscCall(VecDestroy(&d->vth));
  PetscCall(VecDestroy(&d->vq));
  if (d->fload) PetscCall(VecDestroyVecs(d->nloads, &d->fload));
  PetscCall(PetscFree(d->bc_entry));
  PetscCall(PetscFree(d->bc_comp));
  PetscCall(PetscFree(b->data));
  PetscFunctionReturn(0);
}

/* Constrained DoFs from the boundary[] entries; where entries overlap, the later one wins.
 * plane_strain adds u_z = 0 at every node not already constrained in z by an entry (han2023
 * §VII-A: two layers of tetrahedra along z with zero out-of-plane displacement); an entry that
 * constrains z keeps its own value there. */
static PetscErrorCode SetupDirichlet_Private(const FcCase *c, PetscInt index, FcBody b)
{
  Deformable       *d    = (Deformable *)b->data;
  const FcCaseBody *spec = b->spec;
  PetscInt         *owner, n = 0;
  char              path[128];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(b->ndof, &owner));
  for (PetscInt i = 0; i < b->ndof; i++) owner[i] = -1;
  for (PetscInt j = 0; j < spec->nboundary; j++) {
    const FcMeshGroup *g;
    const FcCaseBoundary *bc = &spec->boundary[j];
    PetscCall(FcMeshFindGroup(&b->mesh, bc->group, -1, &g));
    if (!g) {
      char list[1024];
      FcMeshGroupList(&b->mesh, list, sizeof list);
      snprintf(path, sizeof path, "bodies[%d].boundary[%d].group", (int)index, (int)j);
      PetscCall(PetscFree(owner));
      return FcInputError(c->file, path, "no physical group '%s' in %s (available: %s)", bc->group, b->mesh.file, list);
    }
    for (PetscInt k = 0; k < g->nnodes; k++)
      for (PetscInt cc = 0; cc < 3; cc++)
        if (bc->comp[cc]) owner[3 * g->nodes[k] + cc] = 3 * j + cc;
  }
  if (spec->plane_strain)
    for (PetscInt k = 0; k < b->mesh.nnodes; k++)
      if (owner[3 * k + 2] < 0) owner[3 * k + 2] = -2; /* u_z = 0 */
  for (PetscInt i = 0; i < b->ndof; i++) n += owner[i] != -1;
  b->nbc = n;
  PetscCall(PetscMalloc1(n, &b->bc_dofs));
  PetscCall(PetscMalloc1(n, &d->bc_entry));
  PetscCall(PetscMalloc1(n, &d->bc_comp));
  n = 0;
  for (PetscInt i = 0; i < b->ndof; i++)
    if (owner[i] >= 0) {
      b->bc_dofs[n]   = i;
      d->bc_entry[n]  = owner[i] / 3;
      d->bc_comp[n++] = owner[i] % 3;
    } else if (owner[i] == -2) {
      b->bc_dofs[n]   = i;
      d->bc_entry[n]  = -1;
      d->bc_comp[n++] = 2;
    }
  PetscCall(PetscFree(owner));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetupLoads_Private(const FcCase *c, PetscInt index, FcBody b)
{
  Deformable       *d    = (Deformable *)b->data;
  const FcCaseBody *spec = b->spec;
  char              path[128];

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) {
    PetscReal e[3] = {0, 0, 0};
    e[k]           = 1.0;
    PetscCall(VecDuplicate(b->u, &d->fbody[k]));
    PetscCall(VecSet(d->fbody[k], 0.0));
    PetscCall(FcAssembleBodyForce(&b->mesh, spec->material.density, e, d->fbody[k]));
  }
  d->nloads = spec->nloads;
  if (d->nloads) PetscCall(VecDuplicateVecs(b->u, d->nloads, &d->fload));
  for (PetscInt l = 0; l < spec->nloads; l++) {
    const FcCaseBodyLoad *ld = &spec->loads[l];
    const FcMeshGroup *g;
    PetscCall(VecSet(d->fload[l], 0.0));
    PetscCall(FcMeshFindGroup(&b->mesh, ld->group, 2, &g));
    snprintf(path, sizeof path, "bodies[%d].loads[%d].group", (int)index, (int)l);
    if (!g) {
      char list[1024];
      FcMeshGroupList(&b->mesh, list, sizeof list);
      return FcInputError(c->file, path, "no physical surface group '%s' in %s (available: %s)", ld->group, b->mesh.file, list);
    }
    FcCheckInput(g->nfaces > 0, c->file, path, "surface group '%s' has no faces on the boundary of the mesh", ld->group);
    if (ld->type == FC_LOAD_TRACTION) PetscCall(FcAssembleTraction(&b->mesh, g->nfaces, g->faces, ld->vec, d->fload[l]));
    else if (ld->type == FC_LOAD_PRESSURE) PetscCall(FcAssemblePressure(&b->mesh, g->nfaces, g->faces, ld->pressure, d->fload[l]));
    else {
      PetscReal area, t[3];
      PetscCall(FcMeshFacesArea(&b->mesh, g->nfaces, g->faces, &area));
      for (int k = 0; k < 3; k++) t[k] = ld->vec[k] / area;
      PetscCall(FcAssembleTraction(&b->mesh, g->nfaces, g->faces, t, d->fload[l]));
    }
  }
  PetscFunctionReturn(0);
}

/* contact detection: the mesh nodes at the current iterate, X + u */
static PetscErrorCode Nodes_Deformable(FcBody b, PetscReal *x)
{
  const PetscScalar *u;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(b->ucur, &u));
  for (PetscInt i = 0; i < b->ndof; i++) x[i] = b->mesh.X[i] + u[i];
  PetscCall(VecRestoreArrayRead(b->ucur, &u));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyCreateDeformable(const FcCase *c, PetscInt index, FcBody *body)
{
  FcBody            b;
  Deformable       *d;
  const FcCaseBody *spec = &c->bodies[index];
  PC                pc;
  Vec               ones;

  PetscFunctionBegin;
  PetscCall(PetscNew(&b));
  *body = b;
  PetscCall(PetscNew(&d));
  b->data = d;
  b->spec = spec;
  d->c    = c;
  FcThetaFromCase(c, &d->th);
  PetscCall(PetscStrncpy(b->name, spec->name, sizeof b->name));
  b->ops.beginstep = BeginStep_Deformable;
  b->ops.residual  = Residual_Deformable;
  b->ops.solve     = Solve_Deformable;
  b->ops.solvemulti = SolveMulti_Deformable;
  b->ops.update    = Update_Deformable;
  b->ops.setparticipating = SetParticipating_Deformable;
  b->ops.getschur         = GetSchur_Deformable;
  b->ops.nodes            = Nodes_Deformable;
  b->ops.endstep   = EndStep_Deformable;
  b->ops.destroy   = Destroy_Deformable;
  /* θ_vq = 0 makes q(t1) = q0 + dt v0 independent of the unknown v (han2023 eq. 4): a prescribed
   * displacement could not be imposed, contact could not change a gap, and the Delassus operator
   * would be zero. */
  PetscCall(FcThetaCheckInput(c, &d->th, "boundary conditions and contact"));

  PetscCall(FcMeshLoadVolume(spec->mesh_file, spec->refine, spec->order, spec->mesh_volume, &b->mesh));
  PetscCall(FcMaterialCreate(&spec->material, &b->material));
  d->linear = (PetscBool)(strcmp(spec->material.model, "linear") == 0);
  d->lagged = (PetscBool)(strcmp(spec->material.model, "corotational_lagged") == 0);
  b->ndof   = 3 * b->mesh.nnodes;
  PetscCall(FcMeshVolume(&b->mesh, &b->volume));

  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_WORLD, &b->mesh, &d->M));
  PetscCall(MatDuplicate(d->M, MAT_DO_NOT_COPY_VALUES, &d->K));
  PetscCall(MatDuplicate(d->M, MAT_DO_NOT_COPY_VALUES, &d->A));
  PetscCall(MatSetOption(d->A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(d->A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscCall(FcAssembleMass(&b->mesh, spec->material.density, d->M));
  PetscCall(MatCreateVecs(d->M, &b->u, NULL));
  PetscCall(VecSet(b->u, 0.0));
  PetscCall(VecDuplicate(b->u, &b->v));
  PetscCall(VecSet(b->v, 0.0));
  PetscCall(VecDuplicate(b->u, &b->reaction));
  PetscCall(VecSet(b->reaction, 0.0));
  PetscCall(VecDuplicate(b->u, &ones));
  PetscCall(VecDuplicate(b->u, &d->work));
  /* mass = Σ over x-DoFs of M·1_x */
  PetscCall(VecStrideSet(ones, 0, 1.0));
  PetscCall(VecStrideSet(ones, 1, 0.0));
  PetscCall(VecStrideSet(ones, 2, 0.0));
  PetscCall(MatMult(d->M, ones, d->work));
  PetscCall(VecSum(d->work, &b->mass));
  PetscCall(VecDestroy(&ones));
  PetscCall(VecDuplicate(b->u, &d->x));
  PetscCall(VecDuplicate(b->u, &d->dx));
  b->dx = d->dx; /* shared with the contact step; owned here */
  PetscCall(VecDuplicate(b->u, &b->ucur));
  PetscCall(VecSet(b->ucur, 0.0));
  PetscCall(VecDuplicate(b->u, &b->rate));
  PetscCall(VecSet(b->rate, 0.0));
  PetscCall(VecDuplicate(b->u, &d->r));
  PetscCall(VecDuplicate(b->u, &d->rfree));
  PetscCall(VecDuplicate(b->u, &d->fint));
  PetscCall(VecDuplicate(b->u, &d->fext));
  PetscCall(VecDuplicate(b->u, &d->u0));
  PetscCall(VecDuplicate(b->u, &d->v0));
  PetscCall(VecDuplicate(b->u, &d->uth));
  PetscCall(VecSet(d->uth, 0.0));
  PetscCall(VecDuplicate(b->u, &d->vth));
  PetscCall(VecSet(d->vth, 0.0));
  PetscCall(VecDuplicate(b->u, &d->vq));
  PetscCall(VecSet(d->vq, 0.0));
  d->inertia = c->inertia_correction;
  PetscCall(SetupDirichlet_Private(c, index, b));
  PetscCall(SetupLoads_Private(c, index, b));

  /* Default linear solver: sparse direct Cholesky (LDLᵀ) by MUMPS — symmetric storage, the
   * symbolic analysis reused while the pattern is unchanged, runs distributed under MPI, and
   * offers the Schur complement the participating-DoF reduction needs (doc/architecture.md).
   * Any -ksp_ / -pc_ option overrides it. */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &d->ksp));
  PetscCall(KSPSetType(d->ksp, KSPPREONLY));
  PetscCall(KSPGetPC(d->ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetFromOptions(d->ksp));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyDestroy(FcBody *b)
{
  PetscFunctionBegin;
  if (!*b) PetscFunctionReturn(0);
  if ((*b)->ops.destroy) PetscCall((*b)->ops.destroy(*b));
  PetscCall(VecDestroy(&(*b)->u));
  PetscCall(VecDestroy(&(*b)->v));
  PetscCall(VecDestroy(&(*b)->reaction));
  PetscCall(VecDestroy(&(*b)->ucur));
  PetscCall(VecDestroy(&(*b)->rate));
  PetscCall(VecDestroy(&(*b)->fcontact));
  PetscCall(PetscFree((*b)->bc_dofs));
  PetscCall(PetscFree((*b)->stab_ptr));
  PetscCall(PetscFree2((*b)->stab_dof, (*b)->stab_val));
  PetscCall(FcMaterialDestroy(&(*b)->material));
  PetscCall(FcMeshDestroy(&(*b)->mesh));
  PetscCall(PetscFree(*b));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyVonMises(FcBody b, PetscReal *vm)
{
  PetscFunctionBegin;
  PetscCall(FcComputeVonMises(&b->mesh, b->material, b->u, vm));
  PetscFunctionReturn(0);
}
