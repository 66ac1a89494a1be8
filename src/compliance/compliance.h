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
 *     FcComplianceDelassus(c, &H, W);              // W = Σ_b H_b C_b H_bᵀ, symmetrized
 *     FcComplianceCorrect(c, b, f, dx);            // dx += C_b f, f = H_bᵀ r
 *   FcComplianceDestroy(&c);
 *
 * Types (doc/architecture.md "Contact in the step"):
 *   exact       C_b = A_b⁻¹ of the current Newton iterate: A_b⁻¹ H_bᵀ by multi-right-hand-side
 *               solves with the body's factorization (exact.c)
 *   precomputed C_b = A_b⁻¹ restricted to the participating DoFs, computed once from the first
 *               factorization of the run (duriez2006 §3; precomputed.c)
 *   schur       W_b = J_p Â_b⁻¹ J_pᵀ from the body's factorization through its Schur complement
 *               on the participating DoFs (han2023 §VI-A/B, src/model/schur.h; schur.c) */
#ifndef FC_COMPLIANCE_H
#define FC_COMPLIANCE_H

#include "../model/model.h"

/* H, the contact Jacobian of one correction, as plain data (filled by the contact step). Rows
 * 3a + i, i = 0, 1, 2: the frame rows (n, t1, t2) of contact a. Per body b, the entries of the
 * row block of contact a are e = ptr[a] .. ptr[a+1]: DoF dof[e] with the coefficients coef[e][i]
 * of the three rows (zero on constrained DoFs are not listed). */
typedef struct {
  PetscInt   *ptr;      /* m + 1 */
  PetscInt   *dof;
  PetscReal (*coef)[3];
  PetscInt    mcap, ecap;
} FcJacobianBlock;

typedef struct {
  PetscInt         m;
  PetscInt         nbodies;
  const PetscBool *involved; /* per body: touched by a contact (only those have entries in body[b]) */
  FcJacobianBlock *body;     /* per body */
  /* The rows (and columns) of W the problem needs: every row of a frictional contact, the normal
   * one of a frictionless contact (μ = 0: r_t = 0, so its tangential rows enter neither the
   * solution nor the common error). kcol lists them ascending. A strategy may compute more. */
  const PetscBool *keep;     /* 3m */
  const PetscInt  *kcol;
  PetscInt         nkeep;
} FcContactJacobian;

typedef struct _p_FcCompliance *FcCompliance;

struct _FcComplianceOps {
  /* After the participating DoFs are known (FcComplianceSetUp); optional. */
  PetscErrorCode (*setup)(FcCompliance);
  /* W (3m × 3m row-major, zero on entry) += Σ_b H_b C_b H_bᵀ over the involved bodies, at least
   * on the rows and columns H->keep; the object symmetrizes W afterwards. */
  PetscErrorCode (*delassus)(FcCompliance, const FcContactJacobian *H, PetscReal *W);
  /* dx += C_b f (f: the body's ndof entries of H_bᵀ r). NULL: A_b⁻¹ f with the body's current
   * factorization (FcComplianceCorrectBySolve). */
  PetscErrorCode (*correct)(FcCompliance, PetscInt b, const PetscScalar f[], Vec dx);
  PetscErrorCode (*destroy)(FcCompliance);
};

struct _p_FcCompliance {
  char                    type[FC_NAME_LEN];
  struct _FcComplianceOps ops;
  FcModel                *model;
  /* set by a type's create function */
  PetscBool               participating; /* uses the participating DoFs below */
  const char             *noinertia;     /* why the Newton matrix's inertia correction cannot run with this
                                          * strategy (a warning names it), or NULL */
  /* the participating DoFs (han2023 §VI-A): per body, the DoFs a contact can touch minus the
   * constrained ones; fixed for the run */
  PetscInt               *ns;   /* count */
  PetscInt              **sdof; /* sorted DoFs (NULL when ns = 0) */
  PetscInt              **sidx; /* DoF → index in sdof, or −1 (NULL when ns = 0) */
  void                   *data; /* the type's */
};

PetscErrorCode FcComplianceRegister(const char *name, PetscErrorCode (*create)(FcCompliance));
PetscErrorCode FcComplianceRegisterAll(void);
PetscErrorCode FcComplianceFinalizePackage(void);
/* Registered names, comma separated. */
void FcComplianceTypes(char *buf, size_t len);
/* The case's compliance.type: an unknown name is one input-error line naming `file` and the key
 * compliance.type and listing the registered names (before anything is computed). */
PetscErrorCode FcComplianceCheckType(const char *file, const char *type);

/* model->c names the case (messages). */
PetscErrorCode FcComplianceCreate(FcModel *model, const char *type, FcCompliance *c);
PetscErrorCode FcComplianceDestroy(FcCompliance *c);
/* mark[b] (ndof entries, or NULL for a body without DoFs): the DoFs a contact can touch.
 * Constrained DoFs are dropped. Only strategies with `participating` keep them. */
PetscErrorCode FcComplianceSetParticipating(FcCompliance c, PetscBool *const mark[]);
PetscErrorCode FcComplianceSetUp(FcCompliance c);
/* W = Σ_b H_b C_b H_bᵀ (3m × 3m row-major, overwritten), symmetrized: W ← ½ (W + Wᵀ) removes
 * the round-off of the two triangular solves. */
PetscErrorCode FcComplianceDelassus(FcCompliance c, const FcContactJacobian *H, PetscReal *W);
/* dx_b += C_b f. */
PetscErrorCode FcComplianceCorrect(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx);

/* Shared kernels of the types. */
/* W += H_b A_b⁻¹ H_bᵀ on the kept rows and columns, A_b⁻¹ H_bᵀ solved with the body's current
 * factorization in blocks of FC_COMPLIANCE_BLOCK right-hand sides (memory ndof × block, not
 * ndof × 3m). */
#define FC_COMPLIANCE_BLOCK 128
PetscErrorCode FcComplianceDelassusBySolve(FcCompliance c, PetscInt b, const FcContactJacobian *H, PetscReal *W);
/* dx_b += A_b⁻¹ f with the body's current factorization. */
PetscErrorCode FcComplianceCorrectBySolve(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx);

#endif
