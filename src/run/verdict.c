/* fcsim — the run's verdict (verdict.h): stands / collapses / undecided. */
#include "verdict.h"

PetscErrorCode FcVerdictInit(const FcCaseVerdict *cv, PetscInt idrop, PetscInt ienergy, PetscReal mgh, FcVerdict *v)
{
  PetscFunctionBegin;
  PetscCheck(
    cv->rise > 0 && mgh > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcVerdictInit: rise %g and m g H %g must be positive", (double)cv->rise, (double)mgh);
  PetscCall(PetscMemzero(v, sizeof *v));
  v->rise          = cv->rise;
  v->after         = cv->after;
  v->stand_drop    = cv->stand_drop;
  v->stand_energy  = cv->stand_energy;
  v->collapse_drop = cv->collapse_drop;
  v->mgh           = mgh;
  v->idrop         = idrop;
  v->ienergy       = ienergy;
  v->collapse_time = -1.0;
  v->max_drop      = PETSC_NINFINITY;
  PetscFunctionReturn(0);
}

PetscErrorCode FcVerdictAddRow(FcVerdict *v, PetscReal t, const PetscReal *row)
{
  const PetscReal d = -row[v->idrop], e = row[v->ienergy];

  PetscFunctionBegin;
  v->nrows++;
  v->t_last    = t;
  v->drop_last = d;
  v->max_drop  = PetscMax(v->max_drop, d);
  if (v->collapse_time < 0 && d > v->collapse_drop * v->rise) v->collapse_time = t;
  if (t > v->after) {
    v->nafter++;
    v->max_abs_drop_after = PetscMax(v->max_abs_drop_after, PetscAbsReal(d));
    v->max_energy_after   = PetscMax(v->max_energy_after, e);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcVerdictDecide(const FcVerdict *v, FcVerdictKind *kind)
{
  PetscFunctionBegin;
  *kind = FC_VERDICT_UNDECIDED;
  if (v->collapse_time >= 0) *kind = FC_VERDICT_COLLAPSES;
  else if (v->nafter > 0 && v->max_abs_drop_after < v->stand_drop * v->rise && v->max_energy_after < v->stand_energy * v->mgh) *kind = FC_VERDICT_STANDS;
  PetscFunctionReturn(0);
}

const char *FcVerdictName(FcVerdictKind kind)
{
  switch (kind) {
  case FC_VERDICT_STANDS: return "stands";
  case FC_VERDICT_COLLAPSES: return "collapses";
  default: return "undecided";
  }
}
