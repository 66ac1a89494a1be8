/* fcsim — the run's monitors: the consumers of every step, in a list the run iterates (in the
 * spirit of PETSc's TSMonitorSet: a function and a context per consumer, called in the order they
 * were set). A monitor has up to four callbacks, each optional:
 *
 *   open     once, before the initial state (allocations)
 *   step     at the initial state (step 0) and after every accepted step
 *   close    once, after the last step (summaries; what goes into the files at the end)
 *   destroy  always, on success or error (frees the context)
 *
 * The run registers its consumers (monitors.h: probes, verdict, fields and contacts, the FCLIB
 * dump, the haptic loop), RunSteps calls the list. A monitor reads the model through the run's
 * context and writes through its output (src/io/output.h); the probe row of a step is shared:
 * the probes monitor, set first, fills it. */
#ifndef FC_RUN_MONITOR_H
#define FC_RUN_MONITOR_H

#include "../model/model.h"
#include "../step/step.h"
#include "../io/output.h"

/* What every monitor sees of the run. */
typedef struct {
  const FcCase *c;
  FcModel      *model;
  FcContactStep contact; /* NULL without contacts */
  FcOutput      out;     /* the run's writers */
  PetscInt      ncols;   /* probe columns: the model's, then FC_DEVICE_NCOLS per body driven by a device */
  char        **cols;
  PetscReal    *row; /* the step's probe row (the probes monitor fills it) */
} FcRunContext;

/* One call of the monitors. */
typedef struct {
  PetscInt          step; /* 0: the initial state */
  PetscReal         time;
  const FcStepInfo *info; /* the step just made; NULL at step 0 */
  PetscBool         last; /* no step follows; a monitor may set it (the verdict's stop on collapse) */
} FcRunEvent;

typedef PetscErrorCode (*FcRunMonitorFn)(FcRunContext *rc, FcRunEvent *ev, void *ctx);

#define FC_RUN_MAX_MONITORS 16

typedef struct {
  PetscInt n;
  struct {
    const char    *name;
    FcRunMonitorFn open, step, close;
    PetscErrorCode (*destroy)(void **ctx);
    void *ctx;
  } m[FC_RUN_MAX_MONITORS];
} FcRunMonitors;

/* Add a monitor at the end of the list (any callback may be NULL). The list owns ctx from here
 * on: destroy (if any) frees it in FcRunMonitorsDestroy, also when this call fails. */
PetscErrorCode FcRunMonitorSet(
  FcRunMonitors *l, const char *name, FcRunMonitorFn open, FcRunMonitorFn step, FcRunMonitorFn close, PetscErrorCode (*destroy)(void **), void *ctx);
/* Call every monitor's open, step or close, in the list's order. */
PetscErrorCode FcRunMonitorsOpen(FcRunMonitors *l, FcRunContext *rc, FcRunEvent *ev);
PetscErrorCode FcRunMonitorsStep(FcRunMonitors *l, FcRunContext *rc, FcRunEvent *ev);
PetscErrorCode FcRunMonitorsClose(FcRunMonitors *l, FcRunContext *rc, FcRunEvent *ev);
/* Free every context (every destroy is called, the first error returned); the list is empty after. */
PetscErrorCode FcRunMonitorsDestroy(FcRunMonitors *l);

#endif
