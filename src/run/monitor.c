/* fcsim — the run's list of monitors (monitor.h). */
#include "monitor.h"

PetscErrorCode FcRunMonitorSet(
  FcRunMonitors *l, const char *name, FcRunMonitorFn open, FcRunMonitorFn step, FcRunMonitorFn close, PetscErrorCode (*destroy)(void **), void *ctx)
{
  PetscFunctionBegin;
  if (l->n == FC_RUN_MAX_MONITORS) {
    if (destroy) PetscCall(destroy(&ctx));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Too many run monitors (at most %d): %s", FC_RUN_MAX_MONITORS, name);
  }
  l->m[l->n].name    = name;
  l->m[l->n].open    = open;
  l->m[l->n].step    = step;
  l->m[l->n].close   = close;
  l->m[l->n].destroy = destroy;
  l->m[l->n].ctx     = ctx;
  l->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorsOpen(FcRunMonitors *l, FcRunContext *rc, FcRunEvent *ev)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < l->n; i++)
    if (l->m[i].open) PetscCall(l->m[i].open(rc, ev, l->m[i].ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorsStep(FcRunMonitors *l, FcRunContext *rc, FcRunEvent *ev)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < l->n; i++)
    if (l->m[i].step) PetscCall(l->m[i].step(rc, ev, l->m[i].ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorsClose(FcRunMonitors *l, FcRunContext *rc, FcRunEvent *ev)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < l->n; i++)
    if (l->m[i].close) PetscCall(l->m[i].close(rc, ev, l->m[i].ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorsDestroy(FcRunMonitors *l)
{
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < l->n; i++) {
    PetscErrorCode ierr_i = l->m[i].destroy ? l->m[i].destroy(&l->m[i].ctx) : 0;
    if (!ierr) ierr = ierr_i;
  }
  l->n = 0;
  PetscCall(ierr);
  PetscFunctionReturn(0);
}
