/* fcsim — the run's verdict on a structure that should stand (issue 13 item 3): "stands",
 * "collapses" or "undecided", from two probe columns recorded at every step (the case's
 * "verdict" object, case.h FcCaseVerdict; doc/case-format.md "verdict").
 *
 *   collapses  the drop d(t) = −(drop column) exceeds collapse_drop·H at some t ≤ t_end; the
 *              collapse time is the first such t
 *   stands     not collapsed, some row has t > after, and every row with t > after has
 *              |d| < stand_drop·H and kinetic energy < stand_energy·m g H
 *   undecided  anything else (the run ended before `after`, or it still moves, or it sags
 *              between the two thresholds)
 *
 * H is the rise, m the mass of the bodies with a state (deformable and dynamic rigid), g the
 * norm of gravity. |d| rather than d for "stands": a crown that rises by 1 % of the rise is not
 * standing either (a collapse mechanism may lift the crown first). The state is updated row by
 * row (nothing kept per step), so the verdict is a pure function of the probe rows. */
#ifndef FC_VERDICT_H
#define FC_VERDICT_H

#include "../case/case.h"

typedef enum { FC_VERDICT_UNDECIDED = 0, FC_VERDICT_STANDS = 1, FC_VERDICT_COLLAPSES = 2 } FcVerdictKind;

typedef struct {
  /* criteria */
  PetscReal rise, after, stand_drop, stand_energy, collapse_drop;
  PetscReal mgh;            /* m g H, J */
  PetscInt  idrop, ienergy; /* probe column indices */
  /* state after the rows seen so far */
  PetscInt  nrows, nafter; /* rows, rows with t > after */
  PetscReal t_last;
  PetscReal drop_last;          /* d at the last row, m */
  PetscReal max_drop;           /* max d over the run, m */
  PetscReal max_abs_drop_after; /* max |d| over t > after, m */
  PetscReal max_energy_after;   /* max kinetic energy over t > after, J */
  PetscReal collapse_time;      /* first t with d > collapse_drop·H; < 0: none */
} FcVerdict;

/* Criteria from the case; idrop, ienergy: the columns' indices; mgh = m g H (> 0). */
PetscErrorCode FcVerdictInit(const FcCaseVerdict *cv, PetscInt idrop, PetscInt ienergy, PetscReal mgh, FcVerdict *v);
/* One probe row (all probe columns) at time t. */
PetscErrorCode FcVerdictAddRow(FcVerdict *v, PetscReal t, const PetscReal *row);
/* The verdict of the rows so far. */
PetscErrorCode FcVerdictDecide(const FcVerdict *v, FcVerdictKind *kind);
const char    *FcVerdictName(FcVerdictKind kind);

#endif
