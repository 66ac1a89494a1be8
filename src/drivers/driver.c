/* fcsim — drivers: ramps and vector functions of time (driver.h). */
#include "driver.h"

/* Piecewise-linear interpolation of (x[i*stride], y[i*stride]), held constant outside. */
static PetscReal Interp_Private(PetscInt n, const PetscReal *x, const PetscReal *y, PetscInt stride, PetscReal t)
{
  PetscInt lo = 0, hi = n - 1;

  if (t <= x[0]) return y[0];
  if (t >= x[stride * hi]) return y[stride * hi];
  while (hi - lo > 1) { /* invariant: x[lo] < t < x[hi] */
    PetscInt mid = (lo + hi) / 2;
    if (x[stride * mid] <= t) lo = mid;
    else hi = mid;
  }
  return y[stride * lo] + (y[stride * hi] - y[stride * lo]) * (t - x[stride * lo]) / (x[stride * hi] - x[stride * lo]);
}

PetscReal FcRampEval(const FcRamp *r, PetscReal t)
{
  switch (r->type) {
  case FC_RAMP_CONSTANT: return r->value;
  case FC_RAMP_LINEAR: return PetscMin(PetscMax((t - r->t0) / (r->t1 - r->t0), 0.0), 1.0);
  case FC_RAMP_TABLE: return Interp_Private(r->n, r->t, r->s, 1, t);
  }
  return 0;
}

PetscErrorCode FcRampDuplicate(const FcRamp *r, FcRamp *copy)
{
  PetscFunctionBegin;
  *copy   = *r;
  copy->t = copy->s = NULL;
  if (r->type == FC_RAMP_TABLE && r->n > 0) {
    PetscCall(PetscMalloc2(r->n, &copy->t, r->n, &copy->s));
    PetscCall(PetscArraycpy(copy->t, r->t, r->n));
    PetscCall(PetscArraycpy(copy->s, r->s, r->n));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcRampDestroy(FcRamp *r)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(r->t, r->s));
  r->n = 0;
  PetscFunctionReturn(0);
}

void FcDriverInit(FcDriver *d, PetscInt dim) { *d = (FcDriver){.dim = dim, .ramp = {.type = FC_RAMP_CONSTANT, .value = 1}}; }

PetscReal FcDriverComponent(const FcDriver *d, PetscInt k, PetscReal t)
{
  if (d->ntab > 0) return Interp_Private(d->ntab, d->tab, d->tab + 1 + k, d->dim + 1, t);
  return d->value[k] * FcRampEval(&d->ramp, t);
}

void FcDriverEval(const FcDriver *d, PetscReal t, PetscReal v[])
{
  for (PetscInt k = 0; k < d->dim; k++) v[k] = FcDriverComponent(d, k, t);
}

PetscErrorCode FcDriverDestroy(FcDriver *d)
{
  PetscFunctionBegin;
  PetscCall(FcRampDestroy(&d->ramp));
  PetscCall(PetscFree(d->tab));
  d->ntab = 0;
  PetscFunctionReturn(0);
}
