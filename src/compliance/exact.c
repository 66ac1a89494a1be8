/* fcsim — compliance "exact": C_b = A_b⁻¹ of the current Newton iterate (duriez2006 eq. 16–18).
 * W = Σ_b H_b (A_b⁻¹ H_bᵀ), the columns solved with the factorization of the body's free motion,
 * only for the rows the problem needs (H->keep). A frictionless contact's tangential rows are
 * not computed: its tangential block is set to W_nn·I, uncoupled, so that the local problem
 * stays positive definite for every solver (u_t = W_nn r_t + q_t = q_t carries no information,
 * r_t = 0). The correction is the default one, A_b⁻¹ f with the same factorization. */
#include "compliance.h"

static PetscErrorCode Delassus_Exact(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < H->nbodies; b++)
    if (H->involved[b]) PetscCall(FcComplianceDelassusBySolve(c, b, H, p));
  for (PetscInt a = 0; a < H->m; a++)
    if (!H->keep[3 * a + 1]) { /* the diagonal block: pos[a] = bdiag[a] */
      PetscReal *D = FcComplianceWEntry(p, p->W ? NULL : p->bdiag, a, 0, a, 0);
      const PetscInt ld = p->W ? 3 * p->m : 3;
      D[ld + 1] = D[2 * ld + 2] = D[0];
    }
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCreate_Exact(FcCompliance c)
{
  PetscFunctionBegin;
  c->ops.delassus = Delassus_Exact;
  PetscFunctionReturn(0);
}
