/* fcsim — the sweep of the Gauss–Seidel types nsgs and pgs: the order in which it visits the
 * contacts and the over-relaxation ω (doc/contact.md, "Sweep order and over-relaxation").
 *
 *   natural    0, 1, …, m−1 every sweep (the default, today's order)
 *   reversed   m−1, …, 0 every sweep
 *   symmetric  natural and reversed in turn (forward then backward: symmetric Gauss–Seidel)
 *   random     a fresh uniformly random permutation every sweep (Fisher–Yates), drawn from a
 *              generator seeded with `seed` at the start of every solve: the same problem, guess
 *              and seed give the same iterates
 *
 * Options (read by FcContactSweepSetFromOptions inside the type's options block, names after the
 * type's prefix, e.g. -fc_contact_solver_nsgs_omega): <pre>_omega (0 < ω < 2), <pre>_order,
 * <pre>_seed. A bad value is recorded as the object's option error (solver.h: one input-error
 * line naming the option after the options block, exit 2). */
#ifndef FC_CONTACT_SOLVERS_SWEEP_H
#define FC_CONTACT_SOLVERS_SWEEP_H

#include "../solver.h"
#include <stdint.h>

typedef enum { FC_CONTACT_SWEEP_NATURAL, FC_CONTACT_SWEEP_REVERSED, FC_CONTACT_SWEEP_SYMMETRIC, FC_CONTACT_SWEEP_RANDOM } FcContactSweepOrder;

typedef struct {
  /* parameters */
  FcContactSweepOrder order; /* natural */
  PetscReal           omega; /* 1: plain Gauss–Seidel */
  PetscInt            seed;  /* 1: of the random order */
  /* work */
  uint64_t  state; /* generator state, reset from seed by FcContactSweepBegin */
  PetscInt  cap;
  PetscInt *perm; /* cap */
} FcContactSweep;

/* Defaults (natural order, ω = 1, seed 1) and no work. */
void FcContactSweepInit(FcContactSweep *sw);
/* -<pre>_omega, -<pre>_order, -<pre>_seed; a bad value is recorded in s->opterr (solver.h). */
PetscErrorCode FcContactSweepSetFromOptions(FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char *pre, FcContactSweep *sw);
/* Before the first sweep of a solve of m contacts: work sized, the generator reset from seed. */
PetscErrorCode FcContactSweepBegin(FcContactSweep *sw, PetscInt m);
/* The order of sweep `it` (1, 2, …): NULL for 0, 1, …, m−1, else m contact indices. */
const PetscInt *FcContactSweepOrderOf(FcContactSweep *sw, PetscInt it, PetscInt m);
/* "order natural, omega 1" (and the seed of a random order) into buf. */
void           FcContactSweepDescribe(const FcContactSweep *sw, char *buf, size_t len);
PetscErrorCode FcContactSweepDestroy(FcContactSweep *sw);

#endif
