/* fcsim — the contact step on several MPI ranks (doc/mpi.md "Contact", issue 29 item 1, first
 * design). The mesh is replicated and every rank detects the same contacts from the same gathered
 * state, in the one-rank order: the contact list, its keys and H are the same on every rank and
 * number a partitioned body's DoFs as its mesh does (3 node + component). What touches a body's
 * distributed vectors goes through its DoF maps (FcBodyDofMaps): the free increment and the rate
 * read for q (gathered here, in the mesh's order), the contact force Hᵀ r written into this rank's
 * rows, the correction A⁻¹ Hᵀ r by the distributed factorization, W by distributed solves with
 * the rows of each rank summed (src/compliance/compliance.c). Every rank then solves the same
 * problem; rank 0's r, u and verdict are broadcast so that every rank applies the same forces
 * bit for bit and takes the same branches. Nothing here runs on one rank. */
#include "contact_impl.h"

/* Whether body b's vectors are distributed in another numbering than its mesh's. */
static PetscErrorCode Partitioned_Private(FcBody body, const PetscInt **n2d, const PetscInt **d2n, PetscInt *rs, PetscInt *re)
{
  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(body, n2d, d2n, rs, re));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksSetUp_Private(FcContactStep cs)
{
  FcModel    *model = cs->model;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(PetscCalloc2(model->nbodies, &cs->gdx, model->nbodies, &cs->grate));
  for (PetscInt b = 0; b < model->nbodies; b++) { /* the constrained DoFs in the mesh's numbering */
    FcBody          body = model->bodies[b];
    const PetscInt *bc, nbc = FcBodyConstrained(body, &bc), *n2d, *d2n;
    PetscInt        rs, re;
    PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
    if (!d2n || !cs->isbc[b]) continue;
    for (PetscInt i = 0; i < FcBodyNDof(body); i++) cs->isbc[b][i] = PETSC_FALSE;
    for (PetscInt i = 0; i < nbc; i++) cs->isbc[b][d2n[bc[i]]] = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksDestroy_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  if (!cs->gdx) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < cs->model->nbodies; b++) PetscCall(PetscFree2(cs->gdx[b], cs->grate[b]));
  PetscCall(PetscFree2(cs->gdx, cs->grate));
  PetscFunctionReturn(0);
}

/* a copy of v in the mesh's order (collective over the body's ranks) */
static PetscErrorCode GatherNatural_Private(Vec v, PetscInt n, PetscScalar *out)
{
  FcVecAll all;

  PetscFunctionBegin;
  PetscCall(FcVecAllBegin(v, &all));
  PetscCall(PetscArraycpy(out, all.a, n));
  PetscCall(FcVecAllEnd(&all));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksGather_Private(FcContactStep cs)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  if (!cs->gdx) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody          body = model->bodies[b];
    const PetscInt *n2d, *d2n, nd = FcBodyNDof(body);
    PetscInt        rs, re;
    Vec             dx, rate;
    PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
    if (!d2n) continue; /* the same on every rank (the body decides alike everywhere) */
    if (!cs->gdx[b]) PetscCall(PetscMalloc2(nd, &cs->gdx[b], nd, &cs->grate[b]));
    PetscCall(FcBodyGetIncrement(body, &dx, &rate, NULL));
    PetscCall(GatherNatural_Private(dx, nd, cs->gdx[b]));
    PetscCall(GatherNatural_Private(rate, nd, cs->grate[b]));
  }
  PetscFunctionReturn(0);
}

void FcContactStepRanksRead_Private(FcContactStep cs, PetscInt b, const PetscScalar **dx, const PetscScalar **rate)
{
  if (!cs->gdx || !cs->gdx[b]) return;
  *dx   = cs->gdx[b];
  *rate = cs->grate[b];
}

PetscErrorCode FcContactStepRanksApply_Private(FcContactStep cs, PetscInt b, PetscBool *done)
{
  FcBody                 body = cs->model->bodies[b];
  const FcJacobianBlock *J    = &cs->H.body[b];
  const PetscInt        *n2d, *d2n, nd = FcBodyNDof(body);
  PetscInt               rs, re;
  PetscScalar           *f, *fl;
  Vec                    fc, dx;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!cs->gdx) PetscFunctionReturn(0);
  PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
  if (!d2n) PetscFunctionReturn(0);
  *done = PETSC_TRUE;
  PetscCall(FcBodyGetContactForce(body, PETSC_TRUE, &fc));
  PetscCall(FcBodyGetIncrement(body, &dx, NULL, NULL));
  PetscCall(PetscCalloc1(nd, &f)); /* Hᵀ r in the mesh's numbering, the same on every rank */
  for (PetscInt a = 0; a < cs->m; a++)
    for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++)
      for (int i = 0; i < 3; i++) f[J->dof[e]] += J->coef[e][i] * cs->r[3 * a + i];
  PetscCall(VecGetArray(fc, &fl));
  for (PetscInt i = rs; i < re; i++) fl[i - rs] = f[d2n[i]];
  PetscCall(VecRestoreArray(fc, &fl));
  PetscCall(FcComplianceCorrect(cs->compliance, b, f, dx)); /* collective: the distributed solve */
  PetscCall(PetscFree(f));
  PetscFunctionReturn(0);
}

/* -fc_contact_ranks_view: one line per correction (rank 0's stderr) with the contacts that carry
 * force and, per rank, those whose contactor node it owns (the owner the design gives a
 * contact): shows that a contact surface is split across the ranks (tests/integration/test_mpi.py). */
static PetscErrorCode View_Private(FcContactStep cs, PetscMPIInt size)
{
  PetscInt    own = 0, act = 0, *all;
  PetscMPIInt rank;
  PetscBool   view = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_contact_ranks_view", &view, NULL));
  if (!view) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt a = 0; a < cs->m; a++) {
    FcBody          A = cs->model->bodies[cs->pairs[cs->pair[a]].A];
    const PetscInt *n2d, *d2n, k = 3 * cs->point[a];
    PetscInt        rs, re, g;
    if (!(cs->r[3 * a] > 0)) continue;
    act++;
    PetscCall(Partitioned_Private(A, &n2d, &d2n, &rs, &re));
    g = n2d ? n2d[k] : (rank ? -1 : k); /* a body every rank holds: rank 0's */
    own += g >= rs && g < re;
  }
  PetscCall(PetscMalloc1(size, &all));
  PetscCallMPI(MPI_Gather(&own, 1, MPIU_INT, all, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  if (!rank) {
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "fcsim: contact ranks: %" PetscInt_FMT " contacts carry force, by the rank of their contactor node:", act));
    for (PetscMPIInt i = 0; i < size; i++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, " %" PetscInt_FMT, all[i]));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "\n"));
  }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksShare_Private(FcContactStep cs, FcContactStats *st)
{
  PetscMPIInt size;
  PetscInt    flags[3];
  PetscReal   err;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1 || !cs->m) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Bcast(cs->r, (PetscMPIInt)(3 * cs->m), MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(cs->u, (PetscMPIInt)(3 * cs->m), MPIU_REAL, 0, PETSC_COMM_WORLD));
  flags[0] = st->converged;
  flags[1] = st->failed;
  flags[2] = st->iterations;
  err      = st->error;
  PetscCallMPI(MPI_Bcast(flags, 3, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&err, 1, MPIU_REAL, 0, PETSC_COMM_WORLD));
  st->converged  = (PetscBool)flags[0];
  st->failed     = (PetscBool)flags[1];
  st->iterations = flags[2];
  st->error      = err;
  PetscCall(View_Private(cs, size));
  PetscFunctionReturn(0);
}
