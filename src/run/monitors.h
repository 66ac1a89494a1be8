/* fcsim — the run's consumers of a step, each a monitor (monitor.h), set by the run in this
 * order: the probes (the shared probe row, probes.csv and run.h5:/probes), the verdict (its rows,
 * the stop on a collapse, the verdict line and run.h5:/verdict), the fields and contacts of the
 * output steps, the FCLIB dump of every step's contact problem, and the haptic loop between steps
 * (its summary line, haptic.csv and run.h5:/haptic). Adding a consumer is its callbacks (here or
 * in a file of its own) and one FcRunMonitorSet line in the run (src/run/run.c,
 * RunMonitors_Private). */
#ifndef FC_RUN_MONITORS_H
#define FC_RUN_MONITORS_H

#include "monitor.h"
#include "verdict.h"
#include "haptic.h"

PetscErrorCode FcRunMonitorProbes(FcRunMonitors *l);
/* v: the run's verdict, set up from the case (kept by the run) */
PetscErrorCode FcRunMonitorVerdict(FcRunMonitors *l, FcVerdict *v);
PetscErrorCode FcRunMonitorFields(FcRunMonitors *l);
PetscErrorCode FcRunMonitorFCLIB(FcRunMonitors *l);
/* h: the run's haptic loop (kept by the run); *failed at close: haptic.strict and a tick
 * exhausted its budget */
PetscErrorCode FcRunMonitorHaptic(FcRunMonitors *l, FcHaptic h, PetscBool *failed);

#endif
