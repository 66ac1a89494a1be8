/* fcsim — FCLIB's global frictional contact problem as plain data, and its local reformulation
 * (doc/contact.md "FCLIB", doc/sap.md "Global form").
 *
 *     M v = H r + f,   u = Hᵀ v + w,   K_μ ∋ r ⊥ û ∈ K_μ*  per contact (De Saxcé, problem.h)
 *
 * (fclib.h, without the equality constraints G, b): v ∈ Rⁿ generalized velocities, r, u ∈ R^{3m}.
 * Eliminating v = M⁻¹(H r + f) gives the local form u = W r + q of problem.h with
 *
 *     W = Hᵀ M⁻¹ H,   q = Hᵀ M⁻¹ f + w.
 *
 * Files are read into this struct by src/io/fclib_io.c (FcFCLIBRead); the numerics on it live
 * here and in the solvers (solvers/sap/global.c solves it without the reformulation). */
#ifndef FC_CONTACT_GLOBAL_PROBLEM_H
#define FC_CONTACT_GLOBAL_PROBLEM_H

#include "problem.h"

typedef struct _n_FcGlobalProblem *FcGlobalProblem;

/* Plain data, filled in place after FcGlobalProblemCreate (M and H are the caller's: set them to
 * sequential AIJ matrices of sizes n×n and n×3m; Destroy destroys them). M as given may be
 * non-symmetric or singular: FcGlobalProblemComputeLocal says so, a solver of the global form may
 * work on a symmetrized, regularized copy (FcSAPGlobalSetUp). */
struct _n_FcGlobalProblem {
  PetscInt   n;                   /* generalized velocities */
  PetscInt   m;                   /* contacts */
  Mat        M;                   /* n × n */
  Mat        H;                   /* n × 3m, column 3a + i: row i (n, t1, t2) of contact a */
  Vec        f;                   /* n */
  Vec        w;                   /* 3m */
  PetscReal *mu;                  /* m, μ_a ≥ 0 */
  char       source[FC_NAME_LEN]; /* the file, for messages ("global problem" by default) */
};

/* f, w (zeroed) and mu (zeroed) allocated; M, H NULL. n ≥ 1, m ≥ 1. */
PetscErrorCode FcGlobalProblemCreate(PetscInt n, PetscInt m, FcGlobalProblem *gp);
PetscErrorCode FcGlobalProblemDestroy(FcGlobalProblem *gp);

/* What the reformulation found M to be. FCLIB's M is symmetric positive definite; any other M
 * is a property of the data, not an error here: a caller that needs the local form refuses the
 * file (FcFCLIBReadProblem: one input-error line per status), a solver of the global form may
 * symmetrize or regularize M instead (solvers/sap/global.c §2). */
typedef enum {
  FC_GLOBAL_MASS_SPD           = 0, /* symmetric positive definite: the reformulation was formed */
  FC_GLOBAL_MASS_NOT_SYMMETRIC = 1, /* max|M − Mᵀ| > FC_CONTACT_ASYM_ROUNDOFF max|M| (stored entries): genuinely non-symmetric */
  FC_GLOBAL_MASS_SINGULAR      = 2, /* a zero pivot in its Cholesky factorization */
  FC_GLOBAL_MASS_NOT_SPD       = 3  /* negative or zero eigenvalues (the factorization's inertia) */
} FcGlobalMassStatus;

typedef struct {
  FcGlobalMassStatus status;
  PetscInt           nneg, nzero; /* the inertia counts behind FC_GLOBAL_MASS_NOT_SPD (else 0) */
  PetscReal          asym;        /* max|M − Mᵀ| / max|M| as measured; above FC_GLOBAL_MASS_SYM_TOL (and within the round-off
                                   * bound) the reformulation used M as given, by an LU factorization, and W is not symmetrized */
} FcGlobalMass;

/* An M symmetric to this relative tolerance is symmetric to double round-off (an assembly's
 * ε·(terms summed)): the reformulation factors it by Cholesky and symmetrizes W = Hᵀ M⁻¹ H, whose
 * asymmetry is then the rounding of the column-wise solves. */
#define FC_GLOBAL_MASS_SYM_TOL 1e-12

/* The local reformulation W = Hᵀ M⁻¹ H (symmetrized: (W + Wᵀ)/2), q = Hᵀ M⁻¹ f + w, mu copied.
 * M: its asymmetry measured (mass->asym); nested-dissection ordering, PETSc's sparse Cholesky in
 * SBAIJ form, whose inertia says whether M (its symmetric part) is positive definite; one solve
 * per column of H and one for f (3m + 1 solves). An M symmetric only to a producer's round-off
 * (FC_GLOBAL_MASS_SYM_TOL < asym ≤ FC_CONTACT_ASYM_ROUNDOFF, problem.h) is the problem as the file
 * states it: the solves use an LU factorization of M itself and W is not symmetrized (the caller
 * warns); beyond the bound M is FC_GLOBAL_MASS_NOT_SYMMETRIC. W is stored as choice says (auto: block-sparse when the pattern of
 * FcGlobalProblemContactGroups is below the fill rule; then only the stored blocks of each column
 * are formed, no 3m × 3m array). *local is created when mass->status is FC_GLOBAL_MASS_SPD, else
 * NULL (no error raised). */
PetscErrorCode FcGlobalProblemComputeLocalStorage(FcGlobalProblem gp, FcContactWChoice choice, FcContactProblem *local, FcGlobalMass *mass);
/* The same with the storage chosen by the fill rule (auto). */
PetscErrorCode FcGlobalProblemComputeLocal(FcGlobalProblem gp, FcContactProblem *local, FcGlobalMass *mass);
/* The groups of FcContactBlockPatternFromGroups for W = Hᵀ M⁻¹ H: the connected components of the
 * graph of M (M⁻¹ is block-diagonal over them, and generically full within each), each listing,
 * ascending, the contacts whose columns of H have a stored entry on one of its DoFs. A
 * block-diagonal M (a body per block) gives a group per body; a diagonal M a group per DoF.
 * *ngroups components; free *gptr and *gcon with PetscFree. */
PetscErrorCode FcGlobalProblemContactGroups(Mat M, Mat H, PetscInt m, PetscInt *ngroups, PetscInt **gptr, PetscInt **gcon);

/* max |A_ij| over the stored entries of a sequential AIJ matrix. */
PetscErrorCode FcMatMaxAbs(Mat A, PetscReal *mx);

#endif
