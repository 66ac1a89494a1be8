/* fcsim — the contact correction inside a Newton iteration (DESIGN.md data flow):
 * detection at the current iterate → contact problem u = W r + q in local frames
 * (W = Σ_b H_b A_b⁻¹ H_bᵀ, duriez2006 eq. 13–18) → contact solver → correction
 * Δx_b += A_b⁻¹ H_bᵀ r and contact forces H_bᵀ r in the bodies' residuals. */
#ifndef FC_CONTACT_STEP_H
#define FC_CONTACT_STEP_H

#include "../model/model.h"
#include "../contact/solver.h"
#include "../compliance/compliance.h"

typedef struct {
  PetscInt    contacts, active, stick, slip;
  PetscInt    solves, iterations; /* contact solves and solver iterations in the step */
  PetscReal   error;              /* common error of the last solve */
  PetscReal   time;               /* detection + W + solve + correction, seconds */
  PetscReal   detect_time, w_time, solve_time;
  PetscBool   converged; /* the step's last contact solve converged (or had no contacts) */
  const char *reason;    /* that solve's reason name (static text; NULL before any solve) */
  PetscReal   tol;       /* the tol it was judged against */
  PetscBool   failed;    /* the last solve is unusable: r not finite, or rᵀWr < 0 (W indefinite) */
  /* the linearization (contact_step.linearization, doc/contact.md): */
  PetscInt          lin_it;     /* linearizations in the step (recursive, once: one per correction; fast: its inner ones) */
  PetscReal         lin_turn;   /* fast: largest turn of a contact normal (rad) in the last correction's last re-linearization */
  PetscReal         lin_pen;    /* largest penetration (−gap, m) at the last linearization point; fast: at the predicted end */
  PetscReal         lin_dforce; /* ‖f_k − f_{k−1}‖ / ‖f_k‖ of the world contact forces between the last two linearizations:
                                  * the step's last two corrections, by contact (1 after its first), or fast's last two
                                  * inner ones */
  PetscReal         wh_time;    /* fast: building W_H = G A⁻¹ Gᵀ, seconds (included in w_time) */
  FcComplianceStats compliance; /* the compliance strategy's costs (compliance.h) */
} FcContactStats;

typedef struct _p_FcContactStep *FcContactStep;

PetscErrorCode FcContactStepCreate(FcModel *m, FcContactStep *cs);
PetscErrorCode FcContactStepDestroy(FcContactStep *cs);
PetscErrorCode FcContactStepBegin(FcContactStep cs, FcContactStats *st);
/* One correction at the current iterate. *changed: the active set differs from the previous
 * correction of this step (or this is the first). */
PetscErrorCode FcContactStepCorrect(FcContactStep cs, const FcStepInfo *s, FcContactStats *st, PetscBool *changed);

/* Forget what the failed attempt of a step left behind (warm-start impulses, previous frames,
 * active set): a step that is retried after a cutback starts its contact solves from r = 0. */
PetscErrorCode                                                                                                FcContactStepForget(FcContactStep cs);
/* Current contacts for output and probes (FcContactView, model.h). Arrays are owned by cs. */ PetscErrorCode FcContactStepGetView(
  FcContactStep cs, FcContactView *v);
/* Last contact problem (NULL when there was none this step). */
PetscErrorCode FcContactStepGetProblem(FcContactStep cs, FcContactProblem *p, const PetscReal **r);

#endif
