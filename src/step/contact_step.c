/* fcsim — contact correction inside the Newton loop.
 *
 * Conventions (DESIGN.md, FCLIB local form): contact a has a frame (n, t1, t2) with n pointing
 * from the target towards the contactor; u_a = H_a Δx + q_a is the relative motion of the
 * contactor point with respect to the target point, r_a the force on the contactor in that
 * frame (the target gets −r_a), r_n ≥ 0 separates. With Δx_b = Δx_b^free + A_b⁻¹ H_bᵀ r
 * (the linearized momentum balance, duriez2006 eq. 13–15):
 *     u = W r + q,  W = Σ_b H_b A_b⁻¹ H_bᵀ   (Delassus operator, duriez2006 eq. 16–18),
 *     q_n = g/c + n·Δx_rel^free,   q_t = t·(Δx_rel^free + s_rel),
 * where c = incscale, the displacement per unit of x: c = 1 (quasi-static: u_n is the gap after
 * the increment, u_t the slip since the start of the step) or c = Δt θ_vq (dynamics, the
 * θ-method's q = q0 + Δt (θ_vq v + (1 − θ_vq) v0), han2023 eq. 4, with H evaluated at the
 * current iterate: the gap changes by Δt θ_vq n·Δv, so u_n = g/c + relative normal velocity
 * change ≥ 0 keeps the end-of-step gap ≥ 0; backward Euler c = Δt), g the gap at the current
 * iterate and s the state part of the tangential motion (u_k − u_0, or v_k: u_t is the relative
 * tangential velocity at t1, han2023 v_c = J v). A rigid body with prescribed motion enters q
 * only (through g and s, with its mean velocity (d1 − d0)/Δt). Its shape is analytic, or a rigid
 * "mesh" shape: the boundary triangles of a tetrahedral mesh, detected like a deformable target
 * (AABB tree, refit at its current place) but entering H, q and the correction exactly as an
 * analytic shape (the closest point's mesh nodes carry no DoFs: the branches below ask the body
 * for a point Jacobian, never look at tnodes). A rigid target with DoFs (a
 * dynamic body, src/model/body_rigid.c) enters like a deformable one through its point Jacobian J
 * (target point velocity = J ẋ_B): its row block of H is −(frame rows)·J, so W gets
 * J_c A_B⁻¹ J_cᵀ (duriez2006 eq. 29, A_B its mass), q its free increment and velocity, and the
 * correction Δx_B += A_B⁻¹ H_Bᵀ r applies −r_a to it. r is a force (quasi-static) or
 * an impulse over the step (dynamics): the force reported is r/Δt.
 *
 * W is symmetric positive semi-definite because every A_b is SPD (Dirichlet rows replaced by a
 * scaled identity, zero columns in H_bᵀ on constrained DoFs). How W and the correction are
 * obtained is the case's compliance strategy (src/compliance/compliance.h: exact, precomputed,
 * schur); this file builds H as plain data (FcContactJacobian) and hands it over.
 *
 * One correction (FcContactStepCorrect): detection (contact_detect.c) → H → W (compliance) → q
 * → warm start → solve → correction Δx_b += C_b H_bᵀ r → statuses and active set → the rows for
 * the bodies' inertia correction → the warm-start table. */
#include "contact_impl.h"
#include <string.h>

/* One warning line per option the user asked for and this run does not honour, printed once per
 * run (here, at set-up, not per step) and whatever the verbosity: a setting that silently does
 * nothing misleads a validation study. Only what was asked for: a case key that was given (not
 * its default, FcCase.given) or a PETSc option that is set; and only when the request differs
 * from what happens (warm_start false and inertia_correction false ask for what the run does
 * anyway). */
static PetscErrorCode WarnIgnored_Private(const FcCase *c, FcContactSolver solver, FcCompliance compliance)
{
  const char           *type, *why;
  FcContactSolverParams par;
  char                  v[64];
  PetscBool             set;

  PetscFunctionBegin;
  PetscCall(FcContactSolverGetType(solver, &type));
  PetscCall(FcContactSolverGetParams(solver, &par));
  if ((why = FcContactSolverIgnoredReason(solver, "accept_regularized"))) {
    /* its default (true) asks for nothing a type that is not regularized would do otherwise */
    if (c->given.contact_solver_accept_regularized && c->contact_solver_accept_regularized > 0)
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: contact_solver.accept_regularized: ignored by %s (%s)\n", c->file, type, why));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-fc_contact_solver_accept_regularized", &set));
    if (set)
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: options: -fc_contact_solver_accept_regularized: ignored by %s (%s)\n", type, why));
  }
  if (par.warm_start && (why = FcContactSolverIgnoredReason(solver, "warm_start"))) {
    if (c->given.contact_solver_warm_start && c->contact_solver_warm_start)
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: contact_solver.warm_start: ignored by %s (%s)\n", c->file, type, why));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-fc_contact_solver_warm_start", &set));
    if (set) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: options: -fc_contact_solver_warm_start: ignored by %s (%s)\n", type, why));
  }
  if (c->given.inertia_correction && c->inertia_correction) {
    /* the correction needs the inertia of A, which only MUMPS' LDLᵀ of the body's own
     * factorization reports (body_deformable.c NegativeEigenvalues_Private) */
    if (compliance->noinertia)
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: time.newton.inertia_correction: ignored with compliance \"%s\" (%s)\n", c->file,
        compliance->type, compliance->noinertia));
    else {
      PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", v, sizeof v, &set));
      if (set && strcmp(v, "cholesky"))
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
          "fcsim: warning: %s: time.newton.inertia_correction: ignored with -pc_type %s (only MUMPS' Cholesky factorization, the default, counts the negative eigenvalues, doc/architecture.md)\n",
          c->file, v));
      else {
        PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_factor_mat_solver_type", v, sizeof v, &set));
        if (set && strcmp(v, "mumps"))
          PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
            "fcsim: warning: %s: time.newton.inertia_correction: ignored with -pc_factor_mat_solver_type %s (only MUMPS' Cholesky factorization, the default, counts the negative eigenvalues, doc/architecture.md)\n",
            c->file, v));
      }
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepCreate(FcModel *model, FcContactStep *out)
{
  const FcCase *c = model->c;
  FcContactStep cs;
  PetscBool   **mark;

  PetscFunctionBegin;
  PetscCall(PetscNew(&cs));
  *out      = cs;
  cs->model = model;
  cs->first = PETSC_TRUE; /* the first correction of the run has nothing to compare with */
  PetscCall(PetscCalloc1(model->nbodies, &cs->isbc));
  PetscCall(PetscCalloc1(model->nbodies, &cs->Xcur));
  PetscCall(PetscCalloc1(model->nbodies, &cs->involved));
  PetscCall(PetscCalloc1(model->nbodies, &cs->H.body));
  cs->H.nbodies  = model->nbodies;
  cs->H.involved = cs->involved;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody          body = model->bodies[b];
    const PetscInt *bc, nbc = FcBodyConstrained(body, &bc);
    if (FcBodyHasNodes(body)) PetscCall(PetscMalloc1(PetscMax(3 * FcBodyNNodes(body), FcBodyNDof(body)), &cs->Xcur[b]));
    if (FcBodyNDof(body) == 0) continue;
    PetscCall(PetscCalloc1(FcBodyNDof(body), &cs->isbc[b]));
    for (PetscInt i = 0; i < nbc; i++) cs->isbc[b][bc[i]] = PETSC_TRUE;
  }
  PetscCall(FcContactStepRanksSetUp_Private(cs)); /* several ranks: contact_mpi.c */
  PetscCall(FcContactPairsCreate(model, &cs->cat, &cs->npairs, &cs->pairs));
  cs->lin        = c->contact_linearization;
  cs->lin_max_it = c->contact_lin_max_it;
  cs->lin_tol    = c->contact_lin_tol;
  cs->wh_entries = PETSC_TRUE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_fast_wh_entries", &cs->wh_entries, NULL));
  PetscCall(FcContactStepCheckLinearization_Private(cs));
  PetscCall(FcComplianceCreate(model, c->compliance_type, &cs->compliance));
  /* fast forms each re-linearization's q itself (contact_linearize.c); a strategy that shifts q or
   * corrects by an increment of the contact forces (lagged: W = H P⁻¹ Hᵀ with −P⁻¹ Hᵀ r_last in the
   * free increment) would have its W without the q that makes a converged step hold the contact law */
  if (cs->lin == FC_LINEARIZATION_FAST && (cs->compliance->ops.shiftq || cs->compliance->incremental))
    return FcInputError(c->file, "contact_step.linearization",
      "\"fast\" cannot use compliance \"%s\" (its W is not A's and needs a q formed from an increment of the contact forces, which fast's re-linearizations do not make); use \"exact\", \"schur\" or \"precomputed\", or linearization \"recursive\"",
      cs->compliance->type);
  PetscCall(PetscCalloc1(model->nbodies, &mark));
  PetscCall(FcContactPairsMark(model, cs->cat, mark));
  PetscCall(FcComplianceSetParticipating(cs->compliance, mark));
  PetscCall(FcContactStepGhostSetUp_Private(cs, mark)); /* several ranks: rank 0's places of the contact surfaces */
  for (PetscInt b = 0; b < model->nbodies; b++) PetscCall(PetscFree(mark[b]));
  PetscCall(PetscFree(mark));
  PetscCall(FcComplianceSetUp(cs->compliance));
  PetscCall(FcContactSolverCreate(&cs->solver));
  PetscCall(FcContactSolverSetType(cs->solver, c->contact_solver_type));
  /* max_it: the case's when given, else the type's own default (nsgs 1000 sweeps, newton, auto) */
  PetscCall(FcContactSolverSetTolerances(cs->solver, c->contact_solver_tol, c->given.contact_solver_max_it ? c->contact_solver_max_it : PETSC_DEFAULT));
  PetscCall(FcContactSolverSetWarmStart(cs->solver, c->contact_solver_warm_start));
  PetscCall(FcContactSolverSetMaxError(cs->solver, c->contact_solver_max_error));
  PetscCall(FcContactSolverSetAcceptRegularized(cs->solver, c->contact_solver_accept_regularized));
  PetscCall(FcContactSolverSetFromOptions(cs->solver));
  PetscCall(WarnIgnored_Private(c, cs->solver, cs->compliance));
  PetscCall(FcContactWChoiceFromOptions(&cs->wstorage));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepDestroy(FcContactStep *pcs)
{
  FcContactStep cs = *pcs;

  PetscFunctionBegin;
  if (!cs) PetscFunctionReturn(0);
  PetscCall(FcContactPairsDestroy(&cs->cat, cs->npairs, &cs->pairs));
  for (PetscInt b = 0; b < cs->model->nbodies; b++) {
    PetscCall(PetscFree(cs->isbc[b]));
    PetscCall(PetscFree(cs->Xcur[b]));
    PetscCall(PetscFree(cs->H.body[b].ptr));
    PetscCall(PetscFree2(cs->H.body[b].dof, cs->H.body[b].coef));
  }
  PetscCall(PetscFree(cs->H.body));
  PetscCall(PetscFree(cs->isbc));
  PetscCall(PetscFree(cs->Xcur));
  PetscCall(PetscFree(cs->involved));
  PetscCall(FcContactStepListDestroy_Private(cs));
  PetscCall(PetscFree(cs->prevkey));
  PetscCall(PetscFree(cs->prevr));
  PetscCall(PetscFree(cs->prevu));
  PetscCall(PetscFree(cs->actkey));
  PetscCall(PetscFree(cs->stab_ptr));
  PetscCall(PetscFree2(cs->stab_dof, cs->stab_val));
  PetscCall(FcContactStepLinDestroy_Private(cs));
  PetscCall(FcContactStepRanksDestroy_Private(cs));
  PetscCall(FcContactStepGhostDestroy_Private(cs));
  PetscCall(FcComplianceDestroy(&cs->compliance));
  if (cs->prob) PetscCall(FcContactProblemDestroy(&cs->prob));
  if (cs->solver) PetscCall(FcContactSolverDestroy(&cs->solver));
  PetscCall(PetscFree(*pcs));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepBegin(FcContactStep cs, FcContactStats *st)
{
  PetscFunctionBegin;
  cs->ncorr = 0;
  cs->nlast = 0;
  PetscCall(PetscMemzero(st, sizeof *st));
  st->converged = PETSC_TRUE;
  PetscCall(FcComplianceBeginStep(cs->compliance, &st->compliance));
  PetscFunctionReturn(0);
}

/* contact forces f_b = H_bᵀ r (into the body's residual) and the correction Δx_b += C_b f_b */
static PetscErrorCode Apply_Private(FcContactStep cs)
{
  FcModel    *model = cs->model;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody                 body = model->bodies[b];
    const FcJacobianBlock *J    = &cs->H.body[b];
    PetscScalar           *f;
    const PetscScalar     *fr;
    Vec                    fc, dx;
    PetscBool              done;
    if (!cs->involved[b]) continue;
    PetscCall(FcContactStepRanksApply_Private(cs, b, &done)); /* several ranks: a partitioned body */
    if (done) continue;
    PetscCall(FcBodyGetContactForce(body, PETSC_TRUE, &fc));
    PetscCall(FcBodyGetIncrement(body, &dx, NULL, NULL));
    PetscCall(VecSet(fc, 0.0));
    PetscCall(VecGetArray(fc, &f));
    if (!rank) /* several ranks: a body every rank holds whole (rigid); only rank 0 holds all of r */
      for (PetscInt a = 0; a < cs->m; a++)
        for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++)
          for (int i = 0; i < 3; i++) f[J->dof[e]] += J->coef[e][i] * cs->r[3 * a + i];
    PetscCall(FcContactStepRanksBcastForce_Private(f, FcBodyNDof(body)));
    PetscCall(VecRestoreArray(fc, &f));
    PetscCall(VecGetArrayRead(fc, &fr));
    PetscCall(FcComplianceCorrect(cs->compliance, b, fr, dx));
    PetscCall(VecRestoreArrayRead(fc, &fr));
  }
  PetscFunctionReturn(0);
}

/* Status of every contact, the counts, the force in N (r/rscale), and whether the set of
 * contacts that carry force changed since the last correction (u = W r + q is the solve's). */
static PetscErrorCode ActiveSet_Private(FcContactStep cs, PetscReal rscale, FcContactStats *st, PetscBool *changed)
{
  const PetscInt m    = cs->m;
  PetscReal      rmax = 0;
  PetscInt       nact = 0;
  PetscInt64    *act;
  PetscBool      same;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < m; a++) rmax = PetscMax(rmax, PetscAbsReal(cs->r[3 * a]));
  st->contacts = m;
  st->active = st->stick = st->slip = 0;
  PetscCall(PetscMalloc1(m, &act));
  for (PetscInt a = 0; a < m; a++) {
    PetscReal rn = cs->r[3 * a], rt = PetscSqrtReal(cs->r[3 * a + 1] * cs->r[3 * a + 1] + cs->r[3 * a + 2] * cs->r[3 * a + 2]);
    PetscReal ut = PetscSqrtReal(cs->u[3 * a + 1] * cs->u[3 * a + 1] + cs->u[3 * a + 2] * cs->u[3 * a + 2]);
    PetscReal un = PetscAbsReal(cs->u[3 * a]) + ut;
    if (!(rn > 1e-10 * rmax) || rn <= 0) cs->status[a] = FC_CONTACT_SEPARATED;
    else if (cs->prob->mu[a] > 0 && rt >= (1 - 1e-6) * cs->prob->mu[a] * rn && ut > 1e-8 * PetscMax(un, PETSC_SMALL)) cs->status[a] = FC_CONTACT_SLIP;
    else if (cs->prob->mu[a] == 0) cs->status[a] = FC_CONTACT_SLIP; /* frictionless contacts slide freely */
    else cs->status[a] = FC_CONTACT_STICK;
    if (cs->status[a] != FC_CONTACT_SEPARATED) {
      /* The Newton test compares the set of contacts that carry force: a contact below 1e-6 of
       * the largest force that comes and goes between iterations (a node grazing the surface)
       * changes the residual by less than that, which the residual test already judges. */
      if (rn > 1e-6 * rmax) act[nact++] = cs->key[a];
      st->active++;
      if (cs->status[a] == FC_CONTACT_STICK) st->stick++;
      else st->slip++;
    }
    for (int i = 0; i < 3; i++) cs->rforce[3 * a + i] = cs->r[3 * a + i] / rscale;
  }
  PetscCall(PetscSortInt64(nact, act));
  same = (PetscBool)(!cs->first && nact == cs->nact);
  for (PetscInt i = 0; same && i < nact; i++) same = (PetscBool)(act[i] == cs->actkey[i]);
  *changed = (PetscBool)!same;
  PetscCall(PetscFree(cs->actkey));
  cs->actkey = act;
  cs->nact   = nact;
  cs->first  = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The normal rows of H, per body whose DoFs are nodal (deformable), of the contacts that carry
 * force after this correction: the bodies' inertia correction tries A + ρ Σ h_a h_aᵀ with them
 * when A is indefinite (body_deformable.c, FormMatrix_Private). */
static PetscErrorCode StabilizationRows_Private(FcContactStep cs)
{
  FcModel    *model = cs->model;
  PetscInt   *nrows;
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (cs->stab_cap < cs->m + 1) {
    PetscCall(PetscFree(cs->stab_ptr));
    cs->stab_cap = cs->m + 1;
    PetscCall(PetscMalloc1(cs->stab_cap, &cs->stab_ptr));
  }
  if (cs->stab_nnzcap < FC_CONTACT_MAXDOF * cs->m) {
    PetscCall(PetscFree2(cs->stab_dof, cs->stab_val));
    cs->stab_nnzcap = FC_CONTACT_MAXDOF * cs->m;
    PetscCall(PetscMalloc2(cs->stab_nnzcap, &cs->stab_dof, cs->stab_nnzcap, &cs->stab_val));
  }
  PetscCall(PetscCalloc1(model->nbodies, &nrows));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody                 body = model->bodies[b];
    const FcJacobianBlock *J    = &cs->H.body[b];
    PetscInt               nrow = 0, nnz = 0;
    if (!FcBodyNDof(body) || FcBodyHasPointJacobian(body)) continue;
    if (cs->involved[b] && !rank) { /* several ranks: the statuses are rank 0's, which alone adds the rows to A */
      cs->stab_ptr[0] = 0;
      for (PetscInt a = 0; a < cs->m; a++) {
        if (cs->status[a] == FC_CONTACT_SEPARATED || J->ptr[a] == J->ptr[a + 1]) continue;
        for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++) {
          cs->stab_dof[nnz] = J->dof[e];
          cs->stab_val[nnz] = J->coef[e][0];
          nnz++;
        }
        cs->stab_ptr[++nrow] = nnz;
      }
    }
    nrows[b] = nrow;
    if (!rank) PetscCall(FcBodySetContactRows(body, nrow, cs->stab_ptr, cs->stab_dof, cs->stab_val));
  }
  /* another rank: as many empty rows (the count decides whether the inertia correction tries the
   * contacts' penalty, on every rank alike: body_deformable.c) */
  PetscCall(FcContactStepRanksRows_Private(cs, nrows));
  for (PetscInt b = 0; b < model->nbodies && rank; b++) /* rank 0's counts: up to its whole list's m */
    if (nrows[b] + 1 > cs->stab_cap) {
      PetscCall(PetscFree(cs->stab_ptr));
      cs->stab_cap = nrows[b] + 1;
      PetscCall(PetscMalloc1(cs->stab_cap, &cs->stab_ptr));
    }
  if (rank) PetscCall(PetscArrayzero(cs->stab_ptr, cs->stab_cap));
  for (PetscInt b = 0; b < model->nbodies && rank; b++)
    if (FcBodyNDof(model->bodies[b]) && !FcBodyHasPointJacobian(model->bodies[b]))
      PetscCall(FcBodySetContactRows(model->bodies[b], nrows[b], cs->stab_ptr, cs->stab_dof, cs->stab_val));
  PetscCall(PetscFree(nrows));
  PetscFunctionReturn(0);
}

/* the warm-start table of the next correction: r and u by contact key, sorted (u: the solver's own
 * when it has one, FcContactSolverGetOwnVelocity) */
static PetscErrorCode SaveWarmStart_Private(FcContactStep cs)
{
  const PetscInt   m = cs->m;
  PetscInt        *perm;
  const PetscReal *u;

  PetscFunctionBegin;
  PetscCall(FcContactSolverGetOwnVelocity(cs->solver, &u));
  if (!u) u = cs->u;
  PetscCall(PetscFree(cs->prevkey));
  PetscCall(PetscFree(cs->prevr));
  PetscCall(PetscFree(cs->prevu));
  PetscCall(PetscMalloc1(m, &cs->prevkey));
  PetscCall(PetscMalloc1(3 * m, &cs->prevr));
  PetscCall(PetscMalloc1(3 * m, &cs->prevu));
  PetscCall(PetscMalloc1(m, &perm));
  for (PetscInt a = 0; a < m; a++) perm[a] = a;
  PetscCall(PetscSortInt64(m, cs->key)); /* keys are unique and detection lists them sorted by pair, then point */
  for (PetscInt a = 0; a < m; a++) {
    cs->prevkey[a] = cs->key[a];
    for (int i = 0; i < 3; i++) cs->prevr[3 * a + i] = cs->r[3 * perm[a] + i];
    for (int i = 0; i < 3; i++) cs->prevu[3 * a + i] = u[3 * perm[a] + i];
  }
  cs->nprev = m;
  PetscCall(PetscFree(perm));
  PetscFunctionReturn(0);
}

/* The contact solve (issue 29 item 1: W gathered to one rank, solved there): on several ranks W
 * was gathered to rank 0 alone, which alone runs the solver; the others receive its r, u and verdict
 * (contact_mpi.c FcContactStepRanksShare_Private). On one rank: the solve itself. */
static PetscErrorCode Solve_Private(FcContactStep cs, FcContactStats *st)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(FcContactStepSolve_Private(cs, st));
  PetscCall(FcContactStepRanksShare_Private(cs, st));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepCorrect(FcContactStep cs, const FcStepInfo *s, FcContactStats *st, PetscBool *changed)
{
  FcModel    *model = cs->model;
  PetscReal   t0, t1, t2, t3;
  PetscMPIInt rank;
  PetscBool   hdone;

  /* dynamics: r is an impulse over Δt (force r/Δt), a rigid body moves at (d1 − d0)/Δt; 1 quasi-static */
  const PetscReal rscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : s->dt;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscTime(&t0));
  PetscCall(FcComplianceBeginCorrection(cs->compliance)); /* before the contact forces are zeroed below */
  /* once (Algorithm 1): the step's first detection is kept; later Newton iterations only move
   * its gaps linearly (contact_linearize.c) */
  if (cs->lin == FC_LINEARIZATION_ONCE && cs->ncorr > 0) PetscCall(FcContactStepOnceGaps_Private(cs));
  else PetscCall(FcContactStepDetect_Private(cs));
  if (cs->lin == FC_LINEARIZATION_ONCE && cs->ncorr == 0) PetscCall(FcContactStepOnceKeep_Private(cs));
  cs->ncorr++;
  PetscCall(PetscTime(&t1));
  st->detect_time += t1 - t0;
  /* several ranks: rank 0 forms H of the whole list and sends every other rank its part, whose H it
   * forms (contact_mpi.c; its time is W's, as H's is); cs->mg the whole list's count. One rank: mg = m. */
  PetscCall(FcContactStepRanksDistribute_Private(cs, &hdone));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    Vec fc;
    PetscCall(FcBodyGetContactForce(model->bodies[b], PETSC_FALSE, &fc));
    if (fc) PetscCall(VecSet(fc, 0.0));
  }
  if (cs->mg == 0) {
    *changed      = (PetscBool)(cs->nact > 0);
    st->converged = PETSC_TRUE; /* nothing to solve */
    st->failed    = PETSC_FALSE;
    cs->nact      = 0;
    cs->first     = PETSC_FALSE;
    st->contacts = st->active = st->stick = st->slip = 0;
    PetscFunctionReturn(0);
  }
  if (cs->lin == FC_LINEARIZATION_FAST) PetscCall(FcContactStepFast_Private(cs, rscale, st)); /* times its own phases */
  else {
    if (!hdone) PetscCall(FcContactStepJacobian_Private(cs));
    /* W's storage follows its block pattern, which changes with the contacts: a new problem per
     * correction, except a dense one of the same size (reused, as it always was) */
    PetscCall(FcComplianceCreateProblem(cs->compliance, &cs->H, cs->wstorage, &cs->prob, &cs->wblocks));
    PetscCall(FcComplianceDelassus(cs->compliance, &cs->H, cs->prob));
    PetscCall(FcContactStepFormQ_Private(cs, rscale));
    FcContactStepWarmStart_Private(cs);
    PetscCall(FcComplianceShiftQ(cs->compliance, &cs->H, cs->r, cs->prob)); /* compliance.h */
    PetscCall(PetscTime(&t2));
    st->w_time += t2 - t1;
    PetscCall(Solve_Private(cs, st));
    PetscCall(PetscTime(&t3));
    st->solve_time += t3 - t2;
    st->lin_it++;
    st->lin_pen = 0;
    for (PetscInt a = 0; a < cs->m; a++) st->lin_pen = PetscMax(st->lin_pen, -cs->gap[a]);
    if (!rank) PetscCall(FcContactStepLinChange_Private(cs, st, PETSC_TRUE)); /* statistics: rank 0's */
  }
  PetscCall(Apply_Private(cs));
  /* several ranks: the active set and the warm start are rank 0's, which holds all of r and u
   * (the others hold the r of the contacts they touch: contact_mpi.c) */
  if (!rank) PetscCall(ActiveSet_Private(cs, rscale, st, changed));
  PetscCall(FcContactStepRanksActive_Private(cs, rscale, st, changed));
  PetscCall(StabilizationRows_Private(cs));
  if (!rank) PetscCall(SaveWarmStart_Private(cs));
  PetscCall(PetscTime(&t1));
  st->time += t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepForget(FcContactStep cs)
{
  PetscFunctionBegin;
  cs->nprev = 0; /* warm start */
  for (PetscInt p = 0; p < cs->npairs; p++) {
    PetscCall(PetscFree(cs->pairs[p].prev)); /* frame continuity */
    cs->pairs[p].nprev = 0;
  }
  cs->nact  = 0;
  cs->first = PETSC_TRUE;
  for (PetscInt b = 0; b < cs->model->nbodies; b++) PetscCall(FcBodySetContactRows(cs->model->bodies[b], 0, NULL, NULL, NULL));
  PetscFunctionReturn(0);
}

/* The view expresses every contact for the pair's first body, contacts[i].body[0] (model.h): a
 * first-pass contact as it is; a second-pass contact (contactor B, its r the force on B, n from A
 * towards B) with the frame flipped to the right-handed (−n, t1, −t2) and r to (r_n, −r_t1, r_t2),
 * so that n points from B towards A and r_n n + r_t1 t1 + r_t2 t2 is the force on A, −(the force on
 * B) by action = reaction. The normal component r_n and the gap keep their value and meaning. */
PetscErrorCode FcContactStepGetView(FcContactStep cs, FcContactView *v)
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < cs->m; a++) {
    const FcContactPair *P = &cs->pairs[cs->pair[a]];
    const int            s = P->reverse ? -1 : 1;
    cs->vpair[a]           = P->casepair;
    for (int k = 0; k < 3; k++) {
      cs->vframe[9 * a + k]     = s * cs->frame[9 * a + k];
      cs->vframe[9 * a + 3 + k] = cs->frame[9 * a + 3 + k];
      cs->vframe[9 * a + 6 + k] = s * cs->frame[9 * a + 6 + k];
    }
    cs->vr[3 * a]     = cs->rforce[3 * a];
    cs->vr[3 * a + 1] = s * cs->rforce[3 * a + 1];
    cs->vr[3 * a + 2] = cs->rforce[3 * a + 2];
  }
  v->m      = cs->m;
  v->x      = cs->xc;
  v->n      = cs->vframe; /* stride 9: n at 9a, t1 at 9a+3, t2 at 9a+6 */
  v->t1     = cs->vframe + 3;
  v->t2     = cs->vframe + 6;
  v->r      = cs->vr;
  v->gap    = cs->gap;
  v->status = cs->status;
  v->pair   = cs->vpair;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepGetProblem(FcContactStep cs, FcContactProblem *p, const PetscReal **r)
{
  PetscFunctionBegin;
  *p = cs->m ? cs->prob : NULL;
  *r = cs->r;
  PetscFunctionReturn(0);
}
