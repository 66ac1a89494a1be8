/* fcsim — the frictional contact problem in FCLIB's local form, the Coulomb cone projection and
 * the common error every contact solver reports (doc/contact.md).
 *
 * Problem: m contacts, each with 3 rows in its local frame (n, t1, t2):
 *
 *     u = W r + q,     K_μ ∋ r ⊥ û ∈ K_μ*,     û_a = u_a + μ_a ‖u_a,T‖ n       (De Saxcé)
 *
 * K_μ = {r : ‖r_T‖ ≤ μ r_N} is the Coulomb cone, K_μ* = K_{1/μ} its dual; r_N ≥ 0 pushes the
 * pair apart, u_N ≥ 0 separates it. This is duriez2006 eq. 18–21 (W is the Delassus operator
 * Σ H C Hᵀ, q the free motion δ^free) with Coulomb's law written as one complementarity
 * problem over the cone instead of the stick/slip cases of eq. 19.
 *
 * Solvers see nothing but this struct: what u and r mean (velocity and impulse, displacement
 * and force) is the stepper's business. */
#ifndef FC_CONTACT_PROBLEM_H
#define FC_CONTACT_PROBLEM_H

#include "../core/fc.h"

typedef struct _n_FcContactProblem *FcContactProblem;

/* Plain data: a stepper or a reader fills W, q and mu in place after FcContactProblemCreate.
 * W is dense, row-major: W[(3a+i)*3m + 3b+j] couples row i of contact a with column j of contact
 * b. Dense storage is fine up to a few thousand contacts (9m² doubles: 72 MB at m = 1000); a
 * sparse block (BSR 3×3) form may follow when steps with many weakly coupled contacts need it. */
struct _n_FcContactProblem {
  PetscInt   m;  /* number of contacts */
  PetscReal *W;  /* 3m × 3m Delassus operator, row-major */
  PetscReal *q;  /* 3m: free velocity (u when r = 0) */
  PetscReal *mu; /* m: Coulomb friction coefficients, μ_a ≥ 0 */
};

/* Allocate a problem of m ≥ 0 contacts with W, q, mu zeroed. */
PetscErrorCode FcContactProblemCreate(PetscInt m, FcContactProblem *problem);
PetscErrorCode FcContactProblemDestroy(FcContactProblem *problem);
/* u = W r + q (3m entries). */
PetscErrorCode FcContactProblemComputeVelocity(FcContactProblem problem, const PetscReal r[], PetscReal u[]);

/* The common error (ONE definition for every solver, doc/contact.md):
 *
 *     e_a   = r_a − P_{K_μa}(r_a − ũ_a),   ũ_a = [u_N + μ_a ‖u_T‖, u_T],   u = W r + q
 *     error = sqrt(Σ_a ‖e_a‖²) / max(‖q‖, ‖r‖, ‖u‖)     (absolute when that max < DBL_EPSILON)
 *
 * e = 0 exactly when r solves the problem (the natural map of the complementarity problem
 * K ∋ r ⊥ ũ ∈ K*, whose zeros are its solutions); the normalisation is Siconos' (fc3d
 * error). The error a solve reports is computed by the contact-solver object from the r the
 * type returned, never taken from the type (a type may call this for its own stopping test),
 * so that solvers are compared on the same number. */
PetscErrorCode FcContactProblemComputeError(FcContactProblem problem, const PetscReal r[], PetscReal *error);
/* Same error when the caller already has u = W r + q (the solver types' cheap stopping test). */
PetscErrorCode FcContactProblemComputeErrorWithVelocity(FcContactProblem problem, const PetscReal r[], const PetscReal u[], PetscReal *error);

/* Small kernels (pure functions, no error path). */
/* p = P_{K_μ}(x), the Euclidean projection onto K_μ = {‖x_T‖ ≤ μ x_N}, μ ≥ 0 (μ = 0: the ray
 * x_T = 0, x_N ≥ 0). x and p may alias. */
/* W exactly symmetric? (the Delassus operator is; then column a is read as the contiguous rows
 * of contact a, which is what makes the Gauss–Seidel updates below fast) */
PetscBool FcContactProblemIsSymmetric(FcContactProblem problem);
/* u += W_{:,a} d, the incremental update of u = W r + q when r_a changes by d (9·3m flops);
 * symmetric as returned by FcContactProblemIsSymmetric. */
void FcContactProblemAddColumn(FcContactProblem problem, PetscBool symmetric, PetscInt a, const PetscReal d[3], PetscReal u[]);

void      FcConeProject(PetscReal mu, const PetscReal x[3], PetscReal p[3]);
/* ‖e_a‖² of one contact (the summand of the common error). */
PetscReal FcContactLocalError2(PetscReal mu, const PetscReal r[3], const PetscReal u[3]);

#endif
