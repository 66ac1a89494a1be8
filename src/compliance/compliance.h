/* fcsim — compliance strategies: how the contact step gets the Delassus operator
 * W = Σ_b H_b C_b H_bᵀ (duriez2006 eq. 16–18; C_b = A_b⁻¹, or an approximation of it) and how it
 * applies a correction Δx_b += C_b H_bᵀ r. A pluggable type like the contact solvers
 * (src/contact/solver.h) and the materials: a registry of name → create function and an ops
 * table; a new strategy is one file in this folder plus one line in FcComplianceRegisterAll.
 *
 *   FcCompliance c;
 *   FcComplianceCreate(model, "exact", &c);        // unknown name: one input-error line
 *   FcComplianceSetParticipating(c, mark);         // per body: the DoFs a contact can touch
 *   FcComplianceSetUp(c);
 *   per contact correction:
 *     FcComplianceCreateProblem(c, &H, storage, &p); // W dense or block-sparse (its pattern from H)
 *     FcComplianceDelassus(c, &H, p);              // p's W = Σ_b H_b C_b H_bᵀ, symmetrized
 *     FcComplianceCorrect(c, b, f, dx);            // dx += C_b f, f = H_bᵀ r
 *   FcComplianceDestroy(&c);
 *
 * Types (doc/architecture.md "Contact in the step"):
 *   exact       C_b = A_b⁻¹ of the current Newton iterate: A_b⁻¹ H_bᵀ by multi-right-hand-side
 *               solves with the body's factorization (exact.c)
 *   precomputed C_b = A_b⁻¹ restricted to the participating DoFs, computed once from the first
 *               factorization of the run (duriez2006 §3; precomputed.c)
 *   schur       W_b = J_p Â_b⁻¹ J_pᵀ from the body's factorization through its Schur complement
 *               on the participating DoFs (han2023 §VI-A/B, src/model/schur.h; schur.c)
 *   lagged      C_b = P_b⁻¹, P_b = R F Rᵀ a factorization F of A_b made every N steps (optionally in
 *               a thread of its own), rotated to the current nodes; the Newton solves and the
 *               correction are Krylov solves with A_b preconditioned by P_b (courtecuisse eq. 13;
 *               lagged.c) */
#ifndef FC_COMPLIANCE_H
#define FC_COMPLIANCE_H

#include "../model/model.h"
#include "../contact/problem.h"

/* H, the contact Jacobian of one correction, as plain data (filled by the contact step). Rows
 * 3a + i, i = 0, 1, 2: the frame rows (n, t1, t2) of contact a. Per body b, the entries of the
 * row block of contact a are e = ptr[a] .. ptr[a+1]: DoF dof[e] with the coefficients coef[e][i]
 * of the three rows (zero on constrained DoFs are not listed). */
typedef struct {
  PetscInt *ptr; /* m + 1 */
  PetscInt *dof;
  PetscReal (*coef)[3];
  PetscInt mcap, ecap;
} FcJacobianBlock;

typedef struct {
  PetscInt         m;
  PetscInt         nbodies;
  const PetscBool *involved; /* per body: touched by a contact (only those have entries in body[b]) */
  FcJacobianBlock *body;     /* per body */
  /* The rows (and columns) of W the problem needs: every row of a frictional contact, the normal
   * one of a frictionless contact (μ = 0: r_t = 0, so its tangential rows enter neither the
   * solution nor the common error). kcol lists them ascending. A strategy may compute more. */
  const PetscBool *keep; /* 3m */
  const PetscInt  *kcol;
  PetscInt         nkeep;
  /* Several ranks, a rank other than 0 (doc/mpi.md "Contact"): H holds only the m contacts this
   * rank touches (an entry on a DoF it owns), gidx[a] their indices in rank 0's list of mg (ascending);
   * W's columns are the whole list's, rank 0's: its kept columns gkcol (gnkeep, in the whole list's
   * numbering) and per body its contacts ggcon[ggptr[b] .. ggptr[b+1]−1] (FcComplianceBodyContacts
   * of the whole H), the same on every rank (the solves are collective). On one rank and on rank 0:
   * part false, mg = m, gidx = gkcol = ggptr = ggcon = NULL (H is the whole list). */
  PetscBool       part;
  PetscInt        mg;
  const PetscInt *gidx;
  const PetscInt *gkcol, *ggptr, *ggcon;
  PetscInt        gnkeep;
} FcContactJacobian;

typedef struct _p_FcCompliance *FcCompliance;

/* The strategy's share of a step's cost (stats.csv, doc/output-format.md), every strategy:
 * Krylov iterations of the solves with A (0: direct, or converged by their first iterate), seconds
 * of the corrections Δx += C Hᵀ r, and
 * of "lagged": the factorization it took into use in the step (seconds, whichever thread made it;
 * taken: 1), the age in steps of the factorization in use at the step's end (refresh lag). */
typedef struct {
  PetscInt  krylov_it;
  PetscReal correct_time, refresh_time;
  PetscInt  refresh_lag, refresh_taken;
  PetscBool failed; /* a Krylov solve of a correction failed: the step fails (src/step/step.c) */
} FcComplianceStats;

struct _FcComplianceOps {
  /* After the participating DoFs are known (FcComplianceSetUp); optional. */
  PetscErrorCode (*setup)(FcCompliance);
  /* The W of p (zero on entry; dense, or block-sparse with the pattern of
   * FcComplianceCreateProblem) += Σ_b H_b C_b H_bᵀ over the involved bodies, at least on the rows
   * and columns H->keep; the object symmetrizes W afterwards. A sparse W has exactly the blocks
   * (a, a') of contacts that share a body: a type adds body b's contribution only to the blocks
   * of the contacts b touches (FcComplianceBodyContacts), never forms a 3m × 3m array. */
  PetscErrorCode (*delassus)(FcCompliance, const FcContactJacobian *H, FcContactProblem p);
  /* The same W from the entries of A_b⁻¹ at the participating DoFs where the bodies' factorization
   * gives them without whole solves (exact.c); optional (NULL: delassus). Asked for only by the
   * fast linearization's W_H (FcComplianceDelassusEntries). */
  PetscErrorCode (*delassusentries)(FcCompliance, const FcContactJacobian *H, FcContactProblem p);
  /* dx += C_b f (f: the body's ndof entries of H_bᵀ r). NULL: A_b⁻¹ f with the body's current
   * factorization (FcComplianceCorrectBySolve). */
  PetscErrorCode (*correct)(FcCompliance, PetscInt b, const PetscScalar f[], Vec dx);
  PetscErrorCode (*destroy)(FcCompliance);
  /* At the start of every step (and sub-step of a cutback), before any solve; optional. */
  PetscErrorCode (*beginstep)(FcCompliance);
  /* q += Σ_b H_b (A_b⁻¹ − C_b) H_bᵀ r0, r0 the warm start of p's solve (in the contacts of H):
   * a strategy whose C_b is not A_b⁻¹ but whose correction is, moves the linearization point of the
   * contact problem to the state with the warm-start forces applied, so that a converged Newton
   * step satisfies the contact law at its state (lagged.c); optional (NULL: q as formed). */
  PetscErrorCode (*shiftq)(FcCompliance, const FcContactJacobian *H, const PetscReal r0[], FcContactProblem p);
  /* At the start of every contact correction, after the bodies' free increments and before
   * anything else (the bodies' contact forces Hᵀ r_last of the last correction, which their
   * residual holds, are still set): a strategy whose bodies solve their free increment with those
   * forces (FcBodySetContactInFree) takes C Hᵀ r_last out of it here, so that its correction
   * C Hᵀ r makes the increment C (Hᵀ r − Hᵀ r_last) (lagged.c); optional. */
  PetscErrorCode (*begincorrect)(FcCompliance);
};

struct _p_FcCompliance {
  char                    type[FC_NAME_LEN];
  struct _FcComplianceOps ops;
  FcModel                *model;
  /* set by a type's create function */
  PetscBool   participating; /* uses the participating DoFs below */
  const char *noinertia;     /* why the Newton matrix's inertia correction cannot run with this
                                          * strategy (a warning names it), or NULL */
  PetscBool   incremental;   /* its correction applies an increment of the contact forces
                                          * (ops.begincorrect): the fast linearization cannot form its q */
  PetscBool   wdense;        /* the last FcComplianceCreateProblem chose a dense W: on several ranks
                                          * the columns every rank solves for follow it (a rank other than 0
                                          * holds its rows of W only, block-sparse: doc/mpi.md "Contact") */
  PetscBool   current;       /* needs-the-current-A capability: C_b is A_b⁻¹ of the current Newton
                                          * iterate applied through the body's own solves (ops.solve,
                                          * ops.solvemulti), so a body whose solve is more than a factorization
                                          * (the co-rotated split, kinematics "global_corotational") gets it;
                                          * FcComplianceCreate refuses such a body with a strategy without it */
  /* the participating DoFs (han2023 §VI-A): per body, the DoFs a contact can touch minus the
   * constrained ones; fixed for the run */
  PetscInt          *ns;    /* count */
  PetscInt         **sdof;  /* sorted DoFs (NULL when ns = 0) */
  PetscInt         **sidx;  /* DoF → index in sdof, or −1 (NULL when ns = 0) */
  void              *data;  /* the type's */
  FcComplianceStats *stats; /* the step's (FcComplianceBeginStep) */
};

/* What a strategy can do, declared with its registration (compliance.c, FC_COMPLIANCE_REGISTER),
 * for the checks made before anything is computed (FcComplianceCheckCase): */
#define FC_COMPLIANCE_RANKS      0x1u /* runs on several MPI ranks (doc/mpi.md "Contact") */
#define FC_COMPLIANCE_DEFORMABLE 0x2u /* needs a deformable body: it factors one's Newton matrix */
PetscErrorCode FcComplianceRegister(const char *name, PetscErrorCode (*create)(FcCompliance), unsigned flags);
PetscErrorCode FcComplianceRegisterAll(void);
PetscErrorCode FcComplianceFinalizePackage(void);
/* Registered names, comma separated. */
void FcComplianceTypes(char *buf, size_t len);
/* The case's compliance.type: an unknown name is one input-error line naming `file` and the key
 * compliance.type and listing the registered names (before anything is computed). */
PetscErrorCode FcComplianceCheckType(const char *file, const char *type);
/* The case's compliance.type against its bodies and the rank count, by the type's registered
 * capabilities (one line, exit 2): a type that needs a deformable body, a type that runs on one
 * rank only under mpiexec (with contact). Before the meshes are read. */
PetscErrorCode FcComplianceCheckCase(const FcCase *c, PetscMPIInt size);

/* model->c names the case (messages). */
PetscErrorCode FcComplianceCreate(FcModel *model, const char *type, FcCompliance *c);
PetscErrorCode FcComplianceDestroy(FcCompliance *c);
/* mark[b] (ndof entries, or NULL for a body without DoFs): the DoFs a contact can touch.
 * Constrained DoFs are dropped. Only strategies with `participating` keep them. */
PetscErrorCode FcComplianceSetParticipating(FcCompliance c, PetscBool *const mark[]);
PetscErrorCode FcComplianceSetUp(FcCompliance c);
/* Per involved body b, the contacts with entries in H_b, ascending: contacts gcon[gptr[b] ..
 * gptr[b+1]−1] (gptr has nbodies + 1 entries; a body not involved has none). The groups of
 * FcContactBlockPatternFromGroups (src/contact/problem.h). Free both with PetscFree. */
PetscErrorCode FcComplianceBodyContacts(const FcContactJacobian *H, PetscInt **gptr, PetscInt **gcon);
/* A problem of H->m contacts whose W can hold Σ_b H_b C_b H_bᵀ: block-sparse with the blocks of
 * contacts that share a body, or dense (by storage; auto: sparse when the pattern's fill is below
 * FC_CONTACT_SPARSE_MAX_FILL). *p on entry: NULL, or the previous problem, kept when it is dense
 * of the same size and dense is chosen (its q and mu not zeroed), else destroyed and replaced.
 * *nblocks (may be NULL): the blocks of the pattern. Several ranks: on a rank other than 0, a
 * problem holding only the block rows of W this rank's share touches (compliance.c
 * RowsProblem_Private; FcComplianceDelassus sends them to rank 0, whose p holds W). */
PetscErrorCode FcComplianceCreateProblem(FcCompliance c, const FcContactJacobian *H, FcContactWChoice storage, FcContactProblem *p, PetscInt64 *nblocks);
/* p's W = Σ_b H_b C_b H_bᵀ (overwritten; dense, or block-sparse with the pattern of
 * FcComplianceCreateProblem), symmetrized: W ← ½ (W + Wᵀ) removes the round-off of the two
 * triangular solves (the same operation on each entry in both storages). Several ranks
 * (collective): each rank's share gathered to rank 0 as rows; only rank 0's p holds W. */
PetscErrorCode FcComplianceDelassus(FcCompliance c, const FcContactJacobian *H, FcContactProblem p);
/* FcComplianceDelassus through ops.delassusentries when the strategy has it (the same W to
 * round-off; exact: by the entries of A⁻¹ at the participating DoFs, not by whole solves). */
PetscErrorCode FcComplianceDelassusEntries(FcCompliance c, const FcContactJacobian *H, FcContactProblem p);
/* ops.shiftq, when the strategy has one (after q and the warm start r0 are formed). */
PetscErrorCode FcComplianceShiftQ(FcCompliance c, const FcContactJacobian *H, const PetscReal r0[], FcContactProblem p);
/* ops.begincorrect, when the strategy has one (its time in the step's correct_time). */
PetscErrorCode FcComplianceBeginCorrection(FcCompliance c);
/* A step begins: st (zeroed here) receives the step's costs until the next call. */
PetscErrorCode FcComplianceBeginStep(FcCompliance c, FcComplianceStats *st);
/* dx_b += C_b f. */
PetscErrorCode FcComplianceCorrect(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx);

/* Shared kernels of the types. */
/* W += H_b A_b⁻¹ H_bᵀ on the kept rows and columns, A_b⁻¹ H_bᵀ solved with the body's current
 * factorization in blocks of FC_COMPLIANCE_BLOCK right-hand sides (memory ndof × block, not
 * ndof × 3m). */
#define FC_COMPLIANCE_BLOCK 128
PetscErrorCode FcComplianceDelassusBySolve(FcCompliance c, PetscInt b, const FcContactJacobian *H, FcContactProblem p);
/* The same with the body's solve given: solve(ctx, body, B, X) sets X = C_b B for a block of
 * columns B (dense, ndof × nb; B may be changed); FcComplianceDelassusBySolve is it with A_b⁻¹ by
 * FcBodySolveMulti, lagged with its rotated factorization (lagged.c). */
PetscErrorCode FcComplianceDelassusByOperator(
  FcCompliance c, PetscInt b, const FcContactJacobian *H, FcContactProblem p, PetscErrorCode (*solve)(void *, FcBody, Mat, Mat), void *ctx);
/* Entry (3a + i, 3a' + j) of p's W. Dense: pos is ignored. Block-sparse: pos[a'] is the index of
 * the stored block (a, a') (FcComplianceRowMap filled it for row a). */
static inline PetscReal *FcComplianceWEntry(FcContactProblem p, const PetscInt pos[], PetscInt a, PetscInt i, PetscInt a2, PetscInt j)
{
  if (p->W) return &p->W[(3 * (size_t)a + i) * (3 * (size_t)p->m) + 3 * (size_t)a2 + j];
  return &p->bval[9 * (size_t)pos[a2] + 3 * i + j];
}
/* pos[bcol[k]] = k for the blocks k of block row a of a block-sparse W (nothing when dense). */
static inline void FcComplianceRowMap(FcContactProblem p, PetscInt a, PetscInt pos[])
{
  if (p->W) return;
  for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) pos[p->bcol[k]] = k;
}
/* The columns of A_b⁻¹ at body b's participating DoFs (c->sdof[b], n = c->ns[b] of them), solved
 * with the body's current factorization in blocks of FC_COMPLIANCE_BLOCK right-hand sides:
 * out[i n + j] = (A_b⁻¹ e_{sdof[b][j]})_{rows[i]} for i < nrows (rows NULL: row i itself). */
PetscErrorCode FcComplianceParticipatingInverse(FcCompliance c, PetscInt b, PetscInt nrows, const PetscInt rows[], PetscReal out[]);
/* dx_b += A_b⁻¹ f with the body's current factorization. */
PetscErrorCode FcComplianceCorrectBySolve(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx);

#endif
