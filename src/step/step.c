/* fcsim — the step: Newton iterations on the bodies' linearized momentum balance. */
#include "step.h"

volatile int FcInterrupted = 0;

const char *const FcStepStatNames[] = {"newton_it", "residual", "residual_abs", "converged", "assembly_time", "factor_time", "solve_time", "output_time", "step_time",
                                       "contacts", "active", "stick", "slip", "contact_solves", "contact_it", "contact_error", "contact_converged", "detect_time", "w_time", "contact_solve_time", "contact_time"};
const PetscInt    FcStepNumStats    = 21;

void FcStepStatsRow(const FcStepStats *st, PetscReal *row)
{
  row[0] = (PetscReal)st->newton_it;
  row[1] = st->residual;
  row[2] = st->residual_abs;
  row[3] = st->converged ? 1.0 : 0.0;
  row[4] = st->assembly;
  row[5] = st->factor;
  row[6] = st->solve;
  row[7] = st->output;
  row[8]  = st->total;
  row[9]  = (PetscReal)st->contact.contacts;
  row[10] = (PetscReal)st->contact.active;
  row[11] = (PetscReal)st->contact.stick;
  row[12] = (PetscReal)st->contact.slip;
  row[13] = (PetscReal)st->contact.solves;
  row[14] = (PetscReal)st->contact.iterations;
  row[15] = st->contact.error;
  row[16] = st->contact.converged ? 1.0 : 0.0;
  row[17] = st->contact.detect_time;
  row[18] = st->contact.w_time;
  row[19] = st->contact.solve_time;
  row[20] = st->contact.time;
}

/* Convergence (per body): ‖r_free‖ <= atol + rtol · max(‖r₀‖, scale), where scale is the
 * largest norm among the residual's terms (internal, external, inertial and damping forces):
 * a relative test that is meaningful both when the step starts far from equilibrium (‖r₀‖
 * large) and when it starts close to it (‖r₀‖ ≈ 0 but the forces in the body are not). */
PetscErrorCode FcStep(FcModel *m, FcContactStep cs, const FcStepInfo *s, FcStepStats *st)
{
  const FcCase *c = m->c;
  PetscReal     t0, t1, *r0;
  PetscInt      it;
  PetscBool     contact_stable = cs ? PETSC_FALSE : PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscMemzero(st, sizeof *st));
  if (cs) PetscCall(FcContactStepBegin(cs, &st->contact));
  else st->contact.converged = PETSC_TRUE;
  PetscCall(PetscMalloc1(m->nbodies, &r0));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    m->bodies[b]->times.assembly = m->bodies[b]->times.factor = m->bodies[b]->times.solve = 0;
    PetscCall(m->bodies[b]->ops.beginstep(m->bodies[b], s));
  }
  for (it = 0;; it++) {
    PetscBool all = PETSC_TRUE;
    st->residual = st->residual_abs = 0;
    for (PetscInt b = 0; b < m->nbodies; b++) {
      PetscReal rn, scale, ref;
      PetscCall(m->bodies[b]->ops.residual(m->bodies[b], s, &rn, &scale));
      PetscCheck(PetscIsNormalReal(rn) || rn == 0, PETSC_COMM_SELF, PETSC_ERR_FP, "Body %s: residual is not finite at step %d, Newton iteration %d", m->bodies[b]->name, (int)s->step, (int)it);
      if (it == 0) r0[b] = rn;
      ref = PetscMax(r0[b], scale);
      st->residual     = PetscMax(st->residual, ref > 0 ? rn / ref : 0.0);
      st->residual_abs = PetscMax(st->residual_abs, rn);
      if (!(rn <= c->newton_atol + c->newton_rtol * ref)) all = PETSC_FALSE;
    }
    if (all && contact_stable && st->contact.converged) {
      st->converged = PETSC_TRUE;
      break;
    }
    if (it >= c->newton_max_it || FcInterrupted) break;
    /* Free motion of every body, then the contact correction (detection → W, q → contact
     * solve → Δx += A⁻¹Hᵀr), then the update; the residual is re-evaluated next iteration. */
    for (PetscInt b = 0; b < m->nbodies; b++) {
      PetscReal dxn;
      PetscCall(m->bodies[b]->ops.solve(m->bodies[b], s, &dxn));
    }
    if (cs) {
      PetscBool changed;
      PetscCall(FcContactStepCorrect(cs, s, &st->contact, &changed));
      contact_stable = (PetscBool)!changed;
    }
    for (PetscInt b = 0; b < m->nbodies; b++) PetscCall(m->bodies[b]->ops.update(m->bodies[b], s));
    st->newton_it++;
  }
  for (PetscInt b = 0; b < m->nbodies; b++) {
    PetscCall(m->bodies[b]->ops.endstep(m->bodies[b], s));
    st->assembly += m->bodies[b]->times.assembly;
    st->factor += m->bodies[b]->times.factor;
    st->solve += m->bodies[b]->times.solve;
  }
  PetscCall(PetscFree(r0));
  PetscCall(PetscTime(&t1));
  st->total = t1 - t0;
  PetscFunctionReturn(0);
}
