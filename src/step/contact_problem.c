/* fcsim — the contact problem of one correction (issue 28 split it out of contact_step.c so that
 * the correction's driver, contact_step.c, and the re-linearizations, contact_linearize.c, both
 * build on it and neither calls the other back): q from the step's free motion (H, the rows of every
 * contact, is contact_list.c's), the warm start kept by contact key, and the solve
 * with its statistics. doc/contact.md explains the formulation. */
#include "contact_impl.h"

static PetscInt64 *BSearch64_Private(PetscInt64 key, PetscInt64 *a, PetscInt n)
{
  PetscInt lo = 0, hi = n - 1;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (a[mid] == key) return &a[mid];
    if (a[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

/* Relative motion of contact a, from per-body vectors v_A (contactor) and v_B (target B; NULL for
 * a target without DoFs). A target with a point Jacobian (a rigid body) moves its point with J v_B,
 * a mesh target with the weighted target nodes. */
static void Relative_Private(FcContactStep cs, PetscInt a, FcBody B, const PetscScalar *vA, const PetscScalar *vB, PetscReal rel[3])
{
  PetscInt p = cs->point[a];
  for (int k = 0; k < 3; k++) rel[k] = vA[3 * p + k];
  if (vB && FcBodyHasPointJacobian(B)) {
    const PetscInt nd = FcBodyNDof(B);
    PetscReal      J[3 * FC_RIGID_MAX_DOF];
    FcBodyPointJacobian(B, &cs->xc[3 * a], J);
    for (int k = 0; k < 3; k++)
      for (PetscInt j = 0; j < nd; j++) rel[k] -= J[k * nd + j] * vB[j];
  } else if (vB)
    for (PetscInt j = 0; j < cs->nt[a]; j++)
      for (int k = 0; k < 3; k++) rel[k] -= cs->tw[FC_CONTACT_MAXT * a + j] * vB[3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k];
}

/* q from the free increment and the state (header comment); rscale: 1 (quasi-static) or Δt. */
PetscErrorCode FcContactStepFormQ_Private(FcContactStep cs, PetscReal rscale)
{
  FcModel  *model = cs->model;
  PetscBool skip;

  PetscFunctionBegin;
  PetscCall(FcContactStepRanksGather_Private(cs, &skip)); /* several ranks: contact_mpi.c */
  if (skip) PetscFunctionReturn(0);                       /* q is rank 0's, which solves */
  for (PetscInt a = 0; a < cs->m; a++) {
    const FcContactPair *P = &cs->pairs[cs->pair[a]];
    FcBody               A = model->bodies[P->A], B = model->bodies[P->B];
    const PetscScalar   *dxA, *dxB = NULL, *sA, *sB = NULL;
    PetscReal            rdx[3], rs[3], c;
    Vec                  dA, rA, dB = NULL, rB = NULL;
    PetscCall(FcBodyGetIncrement(A, &dA, &rA, &c));
    PetscCall(FcBodyGetIncrement(B, &dB, &rB, NULL));
    PetscCall(VecGetArrayRead(dA, &dxA));
    PetscCall(VecGetArrayRead(rA, &sA));
    if (FcBodyNDof(B)) {
      PetscCall(VecGetArrayRead(dB, &dxB));
      PetscCall(VecGetArrayRead(rB, &sB));
    }
    {
      const PetscScalar *gA = dxA, *gsA = sA, *gB = dxB, *gsB = sB; /* several ranks: the mesh-order copies */
      FcContactStepRanksRead_Private(cs, P->A, &gA, &gsA);
      if (FcBodyNDof(B)) FcContactStepRanksRead_Private(cs, P->B, &gB, &gsB);
      Relative_Private(cs, a, B, gA, gB, rdx);
      Relative_Private(cs, a, B, gsA, gsB, rs);
    }
    if (!FcBodyNDof(B)) { /* prescribed motion: the target's material point at xc moved from x0 (t0) to xc (t1) */
      const PetscReal *xc = &cs->xc[3 * a];
      PetscReal        x0[3];
      FcBodyStartPoint(B, xc, x0);
      for (int k = 0; k < 3; k++) rs[k] -= (xc[k] - x0[k]) / rscale;
    }
    PetscCall(VecRestoreArrayRead(dA, &dxA));
    PetscCall(VecRestoreArrayRead(rA, &sA));
    if (FcBodyNDof(B)) {
      PetscCall(VecRestoreArrayRead(dB, &dxB));
      PetscCall(VecRestoreArrayRead(rB, &sB));
    }
    for (int i = 0; i < 3; i++) {
      const PetscReal *F = &cs->frame[9 * a + 3 * i];
      PetscReal        v = 0;
      for (int k = 0; k < 3; k++) v += F[k] * (rdx[k] + (i ? rs[k] : 0.0));
      cs->prob->q[3 * a + i] = v + (i ? 0.0 : cs->gap[a] / c);
    }
    cs->prob->mu[a] = P->mu;
  }
  PetscFunctionReturn(0);
}

/* warm start by contact identity (pair, contactor node): r, and the velocity hint u (NaN for a
 * contact new to this correction) */
void FcContactStepWarmStart_Private(FcContactStep cs)
{
  for (PetscInt a = 0; a < cs->m; a++) {
    PetscInt64 *k = BSearch64_Private(cs->key[a], cs->prevkey, cs->nprev);
    for (int i = 0; i < 3; i++) cs->r[3 * a + i] = k ? cs->prevr[3 * (k - cs->prevkey) + i] : 0.0;
    for (int i = 0; i < 3; i++) cs->uhint[3 * a + i] = k ? cs->prevu[3 * (k - cs->prevkey) + i] : (PetscReal)NAN;
    /* a failed (cut back) attempt may leave non-finite impulses: never warm start from them */
    if (PetscIsInfOrNanReal(cs->r[3 * a]) || PetscIsInfOrNanReal(cs->r[3 * a + 1]) || PetscIsInfOrNanReal(cs->r[3 * a + 2]))
      cs->r[3 * a] = cs->r[3 * a + 1] = cs->r[3 * a + 2] = 0.0;
  }
}

/* The contact solve, and u = W r + q. */
PetscErrorCode FcContactStepSolve_Private(FcContactStep cs, FcContactStats *st)
{
  const PetscInt       n3 = 3 * cs->m;
  FcContactSolverStats ss;
  PetscReal            rWr = 0, rr = 0, wmax = 0;

  PetscFunctionBegin;
  PetscCall(FcContactSolverSetVelocityHint(cs->solver, cs->uhint));
  PetscCall(FcContactSolverSolve(cs->solver, cs->prob, cs->r));
  PetscCall(FcContactSolverGetStats(cs->solver, &ss));
  st->solves++;
  st->iterations += ss.iterations;
  st->error = ss.error;
  /* the step's contact state is the last solve's: an intermediate Newton iterate's solve may
   * stop short (its W and q are superseded by the next iterate's); the last one may not */
  st->converged = ss.converged;
  st->reason    = ss.reason_name;
  {
    FcContactSolverParams par;
    PetscCall(FcContactSolverGetParams(cs->solver, &par));
    st->tol = par.tol;
  }
  /* W = Σ H A⁻¹ Hᵀ is PSD when every A is; a Newton iterate where A (the tangent K of a
   * hyperelastic body in strong compression) is indefinite can make W indefinite, and then a
   * solver can run off to an unbounded r whose relative common error still looks small.
   * rᵀ W r = rᵀ (u − q) < 0, or a non-finite r, makes this correction unusable: the step fails
   * (cut back by the caller) instead of using it. */
  PetscCall(FcContactProblemComputeVelocity(cs->prob, cs->r, cs->u));
  for (PetscInt i = 0; i < n3; i++) {
    rWr += cs->r[i] * (cs->u[i] - cs->prob->q[i]);
    rr += cs->r[i] * cs->r[i];
  }
  for (PetscInt a = 0; a < cs->m; a++) { /* the diagonal of W, in either storage */
    PetscReal D[9];
    FcContactProblemGetBlock(cs->prob, a, a, D);
    for (int i = 0; i < 3; i++) wmax = PetscMax(wmax, PetscAbsReal(D[4 * i]));
  }
  st->failed = (PetscBool)(!PetscIsNormalReal(rr) && rr != 0);
  if (!st->failed && rWr < -1e-8 * wmax * rr) st->failed = PETSC_TRUE;
  if (st->failed) st->converged = PETSC_FALSE;
  PetscFunctionReturn(0);
}
