/* fcsim — compliance "precomputed" (duriez2006 §3): the compliance of the DoFs that can carry a
 * contact, C_b = A_b⁻¹ restricted to the participating DoFs, is computed once, in column blocks,
 * from the first factorization of the run (the first correction); every correction then gathers
 * W = Σ_b H_b C_b H_bᵀ with no solve. The correction Δx_b += A_b⁻¹ H_bᵀ r is one solve with the
 * current factorization. For linear bodies at fixed Δt this is the exact W to round-off (tested);
 * for other materials an approximation, and the run says so. C_b is dense in the number of
 * participating DoFs. On several MPI ranks C_b comes from distributed solves, summed onto rank 0
 * (compliance.c), which alone keeps it and forms W (doc/mpi.md). */
#include "compliance.h"
#include <string.h>

typedef struct {
  PetscBool   have_C;
  PetscReal **C; /* per body: ns × ns, row-major */
} Precomputed;

/* C_b = A_b⁻¹ restricted to the participating DoFs, from the body's current factorization. */
static PetscErrorCode Compute_Private(FcCompliance c)
{
  Precomputed *pc    = (Precomputed *)c->data;
  FcModel     *model = c->model;

  PetscMPIInt rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody   body = model->bodies[b];
    PetscInt n    = c->ns[b];
    if (!FcBodyNDof(body) || !n) continue;
    if (rank) {
      /* several ranks: C_b is rank 0's (Delassus_Precomputed forms W there alone). A partitioned
       * body's solves are collective: this rank takes part and keeps nothing; a body every rank
       * holds whole (a rigid one) is solved by rank 0 alone */
      const PetscInt *n2d, *d2n;
      PetscInt        rstart, rend;
      PetscCall(FcBodyDofMaps(body, &n2d, &d2n, &rstart, &rend));
      if (n2d) PetscCall(FcComplianceParticipatingInverse(c, b, n, c->sdof[b], NULL));
      continue;
    }
    PetscCall(PetscMalloc1(n * n, &pc->C[b]));
    PetscCall(FcComplianceParticipatingInverse(c, b, n, c->sdof[b], pc->C[b]));
  }
  pc->have_C = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* W_{3a+i, 3a'+j} += Σ_{k,l} H_b[3a+i, k] C_b[k, l] H_b[3a'+j, l] over the entries of H_b, for
 * the pairs (a, a') of contacts body b touches (the others have no entry), ascending: each entry
 * of W receives its terms in the same order whatever the storage. */
static PetscErrorCode Delassus_Precomputed(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  Precomputed *pc = (Precomputed *)c->data;
  PetscInt    *gptr, *gcon, *pos = NULL;

  PetscFunctionBegin;
  if (!pc->have_C) PetscCall(Compute_Private(c)); /* collective: the solves */
  {
    /* several ranks (doc/mpi.md "Contact"): C_b is rank 0's (gathered there), and so is every row
     * of W, formed from rank 0's whole H; the other ranks' shares stay zero for the gather */
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    if (rank) PetscFunctionReturn(0);
  }
  PetscCall(FcComplianceBodyContacts(H, &gptr, &gcon));
  if (!p->W) PetscCall(PetscMalloc1(H->m, &pos));
  for (PetscInt b = 0; b < H->nbodies; b++) {
    const FcJacobianBlock *J = &H->body[b];
    for (PetscInt ia = gptr[b]; ia < gptr[b + 1]; ia++) {
      const PetscInt a = gcon[ia];
      FcComplianceRowMap(p, a, pos);
      for (PetscInt ia2 = gptr[b]; ia2 < gptr[b + 1]; ia2++) {
        const PetscInt a2  = gcon[ia2];
        PetscReal     *Wab = FcComplianceWEntry(p, pos, a, 0, a2, 0);
        const PetscInt ld  = p->W ? 3 * p->m : 3;
        for (PetscInt k = J->ptr[a]; k < J->ptr[a + 1]; k++) {
          const PetscReal *Crow = &pc->C[b][c->sidx[b][J->dof[k]] * c->ns[b]];
          for (PetscInt l = J->ptr[a2]; l < J->ptr[a2 + 1]; l++) {
            PetscReal cv = Crow[c->sidx[b][J->dof[l]]];
            for (int i = 0; i < 3; i++)
              for (int j = 0; j < 3; j++) Wab[i * ld + j] += J->coef[k][i] * cv * J->coef[l][j];
          }
        }
      }
    }
  }
  PetscCall(PetscFree(pos));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree(gcon));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_Precomputed(FcCompliance c)
{
  FcModel *model = c->model;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody body = model->bodies[b];
    if (FcBodyMaterial(body) && !FcBodyMaterial(body)->linear)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD,
        "fcsim: warning: %s: compliance \"precomputed\" uses the first factorization of body %s, whose material (%s) is not linear: W is then an approximation\n",
        model->c->file, FcBodyName(body), FcBodyMaterial(body)->type));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_Precomputed(FcCompliance c)
{
  Precomputed *pc = (Precomputed *)c->data;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < c->model->nbodies; b++) PetscCall(PetscFree(pc->C[b]));
  PetscCall(PetscFree(pc->C));
  PetscCall(PetscFree(c->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCreate_Precomputed(FcCompliance c)
{
  Precomputed *pc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&pc));
  PetscCall(PetscCalloc1(c->model->nbodies, &pc->C));
  c->data          = pc;
  c->participating = PETSC_TRUE;
  c->ops.setup     = SetUp_Precomputed;
  c->ops.delassus  = Delassus_Precomputed;
  c->ops.destroy   = Destroy_Precomputed;
  PetscFunctionReturn(0);
}
