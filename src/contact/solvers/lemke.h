/* fcsim — contact solver type "lemke": the friction cone replaced by a k-sided pyramid and the
 * frictional problem written as one linear complementarity problem (LCP) of size m(k+2)
 * (duriez2006 §4.2, eq. 22–24), solved by Lemke's complementary pivoting. doc/contact.md,
 * section "lemke".
 *
 * The dense LCP solver is public so that it can be tested (and used) on its own:
 *
 *     find z ∈ Rⁿ:   w = M z + q,   w ≥ 0,   z ≥ 0,   wᵀz = 0.
 */
#ifndef FC_CONTACT_SOLVERS_LEMKE_H
#define FC_CONTACT_SOLVERS_LEMKE_H

#include "../solver.h"

/* How Lemke's method ended. */
typedef enum {
  FC_LCP_SOLVED     = 0, /* the artificial variable z0 left the basis: z solves the LCP */
  FC_LCP_RAY        = 1, /* ray termination: the entering column has no positive entry (secondary
                          * ray). For a copositive-plus M (e.g. positive semidefinite) this proves
                          * the LCP infeasible; in general Lemke could not proceed. */
  FC_LCP_MAX_PIVOTS = 2, /* maxpivots pivots done without a solution */
  FC_LCP_SINGULAR   = 3, /* the basis, recomputed from its columns, is singular in floating point */
  FC_LCP_INACCURATE = 4  /* z0 left the basis, but the basic values recomputed from scratch violate
                          * z ≥ 0 / w ≥ 0 beyond rounding (1e-9 of their scale): rounding led the
                          * pivoting off the feasible path; z is that basis's answer, not a solution */
} FcLCPStatus;

/* How ties in the minimum-ratio test are broken. */
typedef enum {
  FC_LCP_TIE_LEXICOGRAPHIC = 0, /* the lexicographic rule (Cottle, Pang & Stone §4.9): cannot cycle */
  FC_LCP_TIE_FIRST         = 1  /* the smallest row index among the tied rows: the textbook rule
                                 * without anti-cycling, which can cycle on degenerate LCPs (kept to
                                 * show it in the tests; never used by the contact solver) */
} FcLCPTieRule;

/* What one run of Lemke's method did. */
typedef struct {
  FcLCPStatus status;
  PetscInt    pivots;        /* pivots performed (the first one, bringing z0 in, counts) */
  PetscInt    refactors;     /* recomputations of B⁻¹ from the basis columns (LU) */
  PetscReal   drift;         /* largest relative residual of B y = a or B x_B = q met before a pivot */
  PetscReal   infeasibility; /* −min(x_B)/‖x_B‖∞ of the final basis recomputed from scratch (0 if ≥ 0) */
  PetscReal   z0;            /* the artificial variable at the end (0 when solved) */
} FcLCPLemkeInfo;

/* "SOLVED", "RAY", "MAX_PIVOTS", "SINGULAR", "INACCURATE". */
const char *FcLCPStatusName(FcLCPStatus status);

/* Lemke's complementary pivoting with the covering vector e = (1, …, 1) and the lexicographic
 * minimum-ratio test (degeneracy-safe), on a dense row-major n×n M; pivots only on entries above
 * the rounding noise of the entering column, B⁻¹ recomputed from the basis when it drifts and at
 * the end (lemke.c, section 1).
 *   z          out (n): the solution when solved; otherwise the z part of the last basis
 *   maxpivots  pivots allowed (the first one, bringing z0 in, counts)
 *   pivots     out: pivots performed
 *   status     out: see FcLCPStatus
 * Memory: 2n² + O(n) reals (the explicit basis inverse, and a work matrix to recompute it). M and
 * q must be finite (PETSC_ERR_FP
 * otherwise). Non-termination is a status, never an error return. */
PetscErrorCode FcLCPLemkeSolve(PetscInt n, const PetscReal *M, const PetscReal *q, PetscReal *z, PetscInt maxpivots, PetscInt *pivots, FcLCPStatus *status);

/* The same with a choice of tie rule (FcLCPLemkeSolve: lexicographic) and everything the run
 * measured (status and pivots included). */
PetscErrorCode FcLCPLemkeSolveInfo(
  PetscInt n, const PetscReal *M, const PetscReal *q, PetscReal *z, PetscInt maxpivots, FcLCPTieRule tie, FcLCPLemkeInfo *info);

/* The same with a two-valued outcome: ray = PETSC_TRUE on ray termination. A run stopped by the
 * pivot limit returns ray = PETSC_FALSE and *pivots = maxpivots; when that ambiguity matters
 * (a solution found at exactly the last allowed pivot) use FcLCPLemkeSolve. */
PetscErrorCode FcLCPLemke(PetscInt n, const PetscReal *M, const PetscReal *q, PetscReal *z, PetscInt maxpivots, PetscInt *pivots, PetscBool *ray);

/* The contact-solver type (register with FcContactSolverRegister("lemke", ...)). */
PetscErrorCode FcContactSolverCreate_Lemke(FcContactSolver);

#endif
