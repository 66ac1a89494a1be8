/* fcsim — compliance "schur" (han2023 §VI-A/B): every deformable body factors A once per Newton
 * iteration through its Schur complement on the participating DoFs p (MUMPS with a Schur IS,
 * src/model/schur.h): Â = A_pp − A_pn A_nn⁻¹ A_np comes out of the factorization, and
 * W_b = J_p Â_b⁻¹ J_pᵀ (han2023 eq. 16–17) needs no right-hand side per contact row. The free
 * solve and the correction recover the other DoFs by eq. 15 with the same factorization (the
 * body's solvemulti). Bodies without a Schur factorization (dynamic rigid bodies) get the exact
 * W_b = H_b A_b⁻¹ H_bᵀ. It is the "exact" W to round-off (tests/integration/test_schur_step.py).
 * MUMPS reports no inertia of Â, so the Newton matrix's inertia correction cannot run. */
#include "compliance.h"

/* W += J_b Â_b⁻¹ J_bᵀ, J_b = H_b restricted to the participating DoFs, as CSR. On a dense W over
 * the 3m rows (the dense path as it always was); on a block-sparse W over the 3 n_b rows of the
 * n_b contacts body b touches only, whose 3n_b × 3n_b product then goes into the blocks of those
 * contacts (no 3m × 3m array). */
static PetscErrorCode AddBody_Private(FcCompliance c, PetscInt b, const FcContactJacobian *H, FcContactProblem p)
{
  FcBody                 body   = c->model->bodies[b];
  const FcJacobianBlock *J      = &H->body[b];
  const PetscInt         nnzmax = 3 * J->ptr[H->m] + 1;
  FcSchur                sch    = NULL;
  PetscInt              *rowptr, *cols, *con, *pos = NULL, nnz = 0, nc = 0, n3;
  PetscReal             *vals, *Wb;

  PetscFunctionBegin;
  PetscCall(FcBodyGetSchur(body, &sch));
  PetscCheck(sch, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Body %s has no Schur complement", FcBodyName(body));
  PetscCall(PetscMalloc1(H->m, &con)); /* the contacts whose rows enter: all (dense), or b's */
  for (PetscInt a = 0; a < H->m; a++)
    if (p->W || J->ptr[a + 1] > J->ptr[a]) con[nc++] = a;
  n3 = 3 * nc;
  PetscCall(PetscMalloc3(n3 + 1, &rowptr, nnzmax, &cols, nnzmax, &vals));
  rowptr[0] = 0;
  for (PetscInt ia = 0; ia < nc; ia++)
    for (int i = 0; i < 3; i++) {
      const PetscInt a = con[ia];
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++) {
        PetscCheck(c->sidx[b][J->dof[e]] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "contact DoF %" PetscInt_FMT " of body %s is not participating", J->dof[e],
          FcBodyName(body));
        cols[nnz]   = c->sidx[b][J->dof[e]];
        vals[nnz++] = J->coef[e][i];
      }
      rowptr[3 * ia + i + 1] = nnz;
    }
  PetscCall(PetscMalloc1((size_t)n3 * n3, &Wb));
  PetscCall(FcSchurDelassusCSR(sch, n3, rowptr, cols, vals, Wb));
  if (p->W)
    for (PetscInt i = 0; i < n3 * n3; i++) p->W[i] += Wb[i];
  else {
    PetscCall(PetscMalloc1(H->m, &pos));
    for (PetscInt ia = 0; ia < nc; ia++) {
      FcComplianceRowMap(p, con[ia], pos);
      for (int i = 0; i < 3; i++)
        for (PetscInt ia2 = 0; ia2 < nc; ia2++)
          for (int j = 0; j < 3; j++) *FcComplianceWEntry(p, pos, con[ia], i, con[ia2], j) += Wb[(size_t)(3 * ia + i) * n3 + 3 * ia2 + j];
    }
    PetscCall(PetscFree(pos));
  }
  PetscCall(PetscFree(Wb));
  PetscCall(PetscFree3(rowptr, cols, vals));
  PetscCall(PetscFree(con));
  PetscFunctionReturn(0);
}

static PetscErrorCode Delassus_Schur(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  FcModel *model = c->model;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < H->nbodies; b++)
    if (H->involved[b] && FcBodyHasSchur(model->bodies[b])) PetscCall(AddBody_Private(c, b, H, p));
  for (PetscInt b = 0; b < H->nbodies; b++)
    if (H->involved[b] && !FcBodyHasSchur(model->bodies[b])) PetscCall(FcComplianceDelassusBySolve(c, b, H, p));
  PetscFunctionReturn(0);
}

/* The deformable bodies factor A through the Schur complement onto the participating DoFs. */
static PetscErrorCode SetUp_Schur(FcCompliance c)
{
  FcModel *model = c->model;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) PetscCall(FcBodySetParticipating(model->bodies[b], c->ns[b], c->sdof[b]));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCreate_Schur(FcCompliance c)
{
  PetscFunctionBegin;
  c->participating = PETSC_TRUE;
  c->noinertia     = "its Schur-complement factorization reports no inertia, doc/architecture.md";
  c->ops.setup     = SetUp_Schur;
  c->ops.delassus  = Delassus_Schur;
  PetscFunctionReturn(0);
}
