/* fcsim — contact-solver types "pgs", "uzawa_local" and "uzawa_global" (doc/contact.md,
 * section "pgs, uzawa_local, uzawa_global").
 *
 *   pgs           frictionless projected Gauss–Seidel (μ of the problem ignored; pgs.c)
 *   uzawa_local   talbi2008 §3.3.1: Gauss–Seidel over contacts, an inner Uzawa loop per contact
 *   uzawa_global  talbi2008 §3.3.2: one Uzawa predictor–corrector per contact and sweep (Jacobi)
 *
 * Register them with FcContactSolverRegister(name, FcContactSolverCreate_<Type>). */
#ifndef FC_CONTACT_SOLVERS_UZAWA_H
#define FC_CONTACT_SOLVERS_UZAWA_H

#include "../solver.h"

PetscErrorCode FcContactSolverCreate_PGS(FcContactSolver);
PetscErrorCode FcContactSolverCreate_UzawaLocal(FcContactSolver);
PetscErrorCode FcContactSolverCreate_UzawaGlobal(FcContactSolver);

/* Inner (local Uzawa) iterations of a uzawa_local solver: in the last solve and since creation.
 * One inner iteration is one predictor–corrector step at one contact (talbi2008 §3.3.1); the
 * object's stats.iterations counts outer sweeps. A solver of another type is a PETSc error
 * (PETSC_ERR_ARG_WRONG). Either pointer may be NULL. 64-bit counts: totals over many solves
 * exceed 2^31 easily (a few thousand inner steps per contact and sweep). */
PetscErrorCode FcContactSolverUzawaGetInnerIterations(FcContactSolver, PetscInt64 *last, PetscInt64 *total);

#endif
