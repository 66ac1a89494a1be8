/* fcsim — one time step of the whole model: predictor, Newton iterations over all bodies
 * (free motion; the contact correction slots in between the free solve and the convergence
 * test, DESIGN.md "Data flow"), end of step. */
#ifndef FC_STEP_H
#define FC_STEP_H

#include "../model/model.h"
#include "contact_step.h"

typedef struct {
  PetscInt       newton_it;    /* linear solves performed */
  PetscReal      residual;     /* max over bodies of ‖r‖ / max(scale, ‖r₀‖) at exit */
  PetscReal      residual_abs; /* max over bodies of ‖r‖ */
  PetscBool      converged;
  PetscReal      assembly, factor, solve, output, total; /* seconds */
  PetscInt       substeps;                               /* 1, or the sub-steps the step was cut into after a failure (time.cutback) */
  PetscBool      nonfinite;                              /* a Newton iterate had a non-finite residual (e.g. an inverted element), or
                          the end state of a non-converged step is not finite */
  PetscInt       backtracks;                             /* increments halved because they led to an inadmissible iterate */
  PetscReal      shift;                                  /* largest inertia-correcting shift of the Newton matrix (relative; 0: none) */
  PetscReal      penalty;                                /* largest contact-constraint penalty ρ of the inertia correction (relative; 0: none) */
  PetscInt       refactors;                              /* extra factorizations the inertia correction took */
  FcContactStats contact;
} FcStepStats;

/* Statistic column names, in the order FcStepStatsRow fills them. */
extern const char *const FcStepStatNames[];
extern const PetscInt    FcStepNumStats;
void                     FcStepStatsRow(const FcStepStats *st, PetscReal *row);

/* Advance from s->t0 to s->t1 (cs NULL: no contact pairs). Converged when every body's residual
 * passes the Newton test and, with contact, the active contact set did not change in the last
 * correction and every contact solve converged. Non-convergence is reported in st->converged,
 * not as an error, also when an iterate's residual is not finite (st->nonfinite: an inverted
 * element, fem.h, or a non-converged step whose end state is not finite); a failed linear solve
 * is an error, and so is the end state of a converged step that is not finite (PETSC_ERR_FP,
 * "Step N (t = T): the result is not finite: <what>"): a displacement, velocity, reaction,
 * contact force, rigid placement, energy or probe value that overflowed. */
PetscErrorCode FcStep(FcModel *m, FcContactStep cs, const FcStepInfo *s, FcStepStats *st);

/* Set by the SIGINT/SIGTERM handler; the step loop stops at the next Newton iteration. */
extern volatile int FcInterrupted;

#endif
