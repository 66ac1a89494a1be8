/* fcsim — compliance "exact": C_b = A_b⁻¹ of the current Newton iterate (duriez2006 eq. 16–18).
 * W = Σ_b H_b (A_b⁻¹ H_bᵀ), the columns solved with the factorization of the body's free motion,
 * only for the rows the problem needs (H->keep). A frictionless contact's tangential rows are
 * not computed: its tangential block is set to W_nn·I, uncoupled, so that the local problem
 * stays positive definite for every solver (u_t = W_nn r_t + q_t = q_t carries no information,
 * r_t = 0). The correction is A_b⁻¹ f with the same factorization.
 *
 * Kept columns. A body whose A_b is factored once and reused (a linear material at fixed Δt: A =
 * cM M + cK K is constant, han2023 eq. 11) would otherwise solve the same A_b⁻¹ for new right-hand
 * sides at every correction, although H_b changes only through its contact points and frames.
 * So, per body, X_b = A_b⁻¹ P_b (P_b: the identity's columns at the participating DoFs, the only
 * DoFs an entry of H_b can have, compliance.h) is computed once per factorization and kept while
 * the body reports the same factorization (FcBody.opstate, model.h: the exact criterion — not a
 * tolerance on H or on the state). Then W_b = H_b (P_bᵀ X_b) H_bᵀ is gathered with no solve, for
 * any H_b: A_b⁻¹ to round-off, the same W summed in another order. The correction stays one solve
 * with the factorization: X_b f_p is A_b⁻¹ f to round-off in the forward sense only, and its
 * residual ‖A_b X_b f − f‖ grows with cond(A_b) where a backward-stable solve's does not. On the
 * quasi-static table (cases/table.json, shift 10) the step's Newton then stalled at a relative
 * residual of 1.14e-10 for 60 iterations against rtol 1e-10, where the solved correction
 * converges in 6. X_b is built at the
 * second correction that sees a factorization (a factorization used once — a nonlinear material's
 * Newton iterate — is never worth its n_p solves), and only when ndof·n_p ≤ FC_EXACT_KEEP_MAX
 * (memory). Bodies that do not track their operator (opstate 0: rigid bodies, the co-rotated
 * split) are always solved. -fc_compliance_exact_keep false turns the kept columns off. */
#include "compliance.h"

#define FC_EXACT_KEEP_MAX (1 << 22) /* entries of X_b (32 MB) */

typedef struct {
  PetscBool   keep;  /* -fc_compliance_exact_keep */
  PetscInt64 *state; /* per body: the factorization X_b was computed from (0: no X_b) */
  PetscInt64 *seen;  /* per body: the factorization of the previous correction that involved it */
  PetscReal **X;     /* per body: ndof × n_p, row-major: X[i n_p + j] = (A⁻¹ e_{sdof[j]})_i */
} Exact;

/* X_b from the body's current factorization, in column blocks of FC_COMPLIANCE_BLOCK. */
static PetscErrorCode Keep_Private(FcCompliance c, PetscInt b)
{
  Exact         *ex   = (Exact *)c->data;
  FcBody         body = c->model->bodies[b];
  const PetscInt n = c->ns[b], nd = FcBodyNDof(body);

  PetscFunctionBegin;
  if (!ex->X[b]) PetscCall(PetscMalloc1((size_t)nd * n, &ex->X[b]));
  PetscCall(FcComplianceParticipatingInverse(c, b, nd, NULL, ex->X[b]));
  ex->state[b] = FcBodyOpState(body);
  PetscFunctionReturn(0);
}

/* Whether body b's kept X_b is A_b⁻¹ P_b now, building it when the same factorization is seen
 * a second time (head comment). */
static PetscErrorCode UseKept_Private(FcCompliance c, PetscInt b, PetscBool *use)
{
  Exact           *ex   = (Exact *)c->data;
  FcBody           body = c->model->bodies[b];
  const PetscInt64 s    = FcBodyOpState(body);

  PetscFunctionBegin;
  *use = PETSC_FALSE;
  if (!ex->keep || !s || !c->ns[b] || (PetscInt64)FcBodyNDof(body) * c->ns[b] > FC_EXACT_KEEP_MAX) PetscFunctionReturn(0);
  if (ex->state[b] != s && ex->seen[b] == s) PetscCall(Keep_Private(c, b));
  ex->seen[b] = s;
  *use        = (PetscBool)(ex->state[b] == s);
  PetscFunctionReturn(0);
}

/* W_{3a+i, 3a'+j} += Σ_{k,l} H_b[3a+i, k] X_b[k, l] H_b[3a'+j, l] over the entries of H_b, for
 * the pairs (a, a') of contacts body b touches, on the kept rows and columns (as the solves
 * compute them). */
static void Gather_Private(FcCompliance c, PetscInt b, const FcContactJacobian *H, const PetscInt *gcon, PetscInt g0, PetscInt g1, FcContactProblem p,
  PetscInt *pos, const PetscReal *X, PetscBool square)
{
  const FcJacobianBlock *J = &H->body[b];
  const PetscInt         n = c->ns[b], *sidx = c->sidx[b];
  const PetscInt         ld = p->W ? 3 * p->m : 3;

  for (PetscInt ia = g0; ia < g1; ia++) {
    const PetscInt a = gcon[ia];
    FcComplianceRowMap(p, a, pos);
    for (PetscInt ia2 = g0; ia2 < g1; ia2++) {
      const PetscInt a2   = gcon[ia2];
      PetscReal     *Wab  = FcComplianceWEntry(p, pos, a, 0, a2, 0);
      PetscReal      w[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      for (PetscInt k = J->ptr[a]; k < J->ptr[a + 1]; k++) {
        const PetscReal *Xrow = X + (size_t)(square ? sidx[J->dof[k]] : J->dof[k]) * n;
        PetscReal        t[3] = {0, 0, 0}; /* Σ_l X[k, l] H[3a'+j, l] */
        for (PetscInt l = J->ptr[a2]; l < J->ptr[a2 + 1]; l++) {
          const PetscReal xv = Xrow[sidx[J->dof[l]]];
          for (int j = 0; j < 3; j++) t[j] += xv * J->coef[l][j];
        }
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) w[3 * i + j] += J->coef[k][i] * t[j];
      }
      for (int i = 0; i < 3; i++) {
        if (!H->keep[3 * a + i]) continue;
        for (int j = 0; j < 3; j++)
          if (H->keep[3 * a2 + j]) Wab[i * ld + j] += w[3 * i + j];
      }
    }
  }
}

/* A frictionless contact's tangential block: W_nn I (head comment) */
static void FrictionlessDiagonal_Private(const FcContactJacobian *H, FcContactProblem p)
{
  for (PetscInt a = 0; a < H->m; a++)
    if (!H->keep[3 * a + 1]) { /* the diagonal block: pos[a] = bdiag[a] */
      PetscReal     *D  = FcComplianceWEntry(p, p->W ? NULL : p->bdiag, a, 0, a, 0);
      const PetscInt ld = p->W ? 3 * p->m : 3;
      D[ld + 1] = D[2 * ld + 2] = D[0];
    }
}

static PetscErrorCode Delassus_Exact(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  PetscInt *gptr = NULL, *gcon = NULL, *pos = NULL;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < H->nbodies; b++) {
    PetscBool use;
    if (!H->involved[b]) continue;
    PetscCall(UseKept_Private(c, b, &use));
    if (!use) {
      PetscCall(FcComplianceDelassusBySolve(c, b, H, p));
      continue;
    }
    if (!gptr) {
      PetscCall(FcComplianceBodyContacts(H, &gptr, &gcon));
      PetscCall(PetscMalloc1(H->m, &pos));
    }
    Gather_Private(c, b, H, gcon, gptr[b], gptr[b + 1], p, pos, ((Exact *)c->data)->X[b], PETSC_FALSE);
  }
  PetscCall(PetscFree(pos));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree(gcon));
  FrictionlessDiagonal_Private(H, p);
  PetscFunctionReturn(0);
}

/* W by the entries of A_b⁻¹ at the participating DoFs, Y_b = P_bᵀ A_b⁻¹ P_b (n_p × n_p), which the
 * body's factorization gives without solving for whole columns (FcBodyInverseEntries: MUMPS
 * ICNTL(30)); W_b = H_b Y_b H_bᵀ as with the kept columns, in n_p² memory instead of ndof × n_p.
 * A body that cannot give them is solved as in Delassus_Exact. Asked for by the fast
 * linearization's W_H (contact_linearize.c), whose rows are unit vectors at the contactor nodes:
 * A⁻¹ at those DoFs is all it needs; the recursive W keeps Delassus_Exact (its results as they
 * were). */
static PetscErrorCode DelassusEntries_Exact(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  PetscInt  *gptr = NULL, *gcon = NULL, *pos = NULL;
  PetscReal *Y = NULL;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < H->nbodies; b++) {
    PetscBool done = PETSC_FALSE;
    if (!H->involved[b]) continue;
    if (c->ns[b]) {
      PetscCall(PetscFree(Y));
      PetscCall(PetscMalloc1((size_t)c->ns[b] * c->ns[b], &Y));
      PetscCall(FcBodyInverseEntries(c->model->bodies[b], c->ns[b], c->sdof[b], Y, &done));
    }
    if (!done) {
      PetscCall(FcComplianceDelassusBySolve(c, b, H, p));
      continue;
    }
    if (!gptr) {
      PetscCall(FcComplianceBodyContacts(H, &gptr, &gcon));
      PetscCall(PetscMalloc1(H->m, &pos));
    }
    Gather_Private(c, b, H, gcon, gptr[b], gptr[b + 1], p, pos, Y, PETSC_TRUE);
  }
  PetscCall(PetscFree(Y));
  PetscCall(PetscFree(pos));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree(gcon));
  FrictionlessDiagonal_Private(H, p);
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_Exact(FcCompliance c)
{
  Exact *ex = (Exact *)c->data;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < c->model->nbodies; b++) PetscCall(PetscFree(ex->X[b]));
  PetscCall(PetscFree3(ex->state, ex->seen, ex->X));
  PetscCall(PetscFree(c->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCreate_Exact(FcCompliance c)
{
  Exact   *ex;
  PetscInt nb = c->model->nbodies;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ex));
  PetscCall(PetscCalloc3(nb, &ex->state, nb, &ex->seen, nb, &ex->X));
  ex->keep = PETSC_TRUE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_compliance_exact_keep", &ex->keep, NULL));
  {
    PetscMPIInt size; /* several ranks: X_b's rows would be split among them; W by solves (doc/mpi.md) */
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (size > 1) ex->keep = PETSC_FALSE;
  }
  c->data                = ex;
  c->participating       = PETSC_TRUE; /* the DoFs of X_b's columns (none is solved for before X_b is kept) */
  c->current             = PETSC_TRUE; /* A_b⁻¹ by the body's solves (a co-rotated body's is never kept, head comment) */
  c->ops.delassus        = Delassus_Exact;
  c->ops.delassusentries = DelassusEntries_Exact;
  c->ops.correct         = NULL; /* one solve (head comment: not X_b f) */
  c->ops.destroy         = Destroy_Exact;
  PetscFunctionReturn(0);
}
