/* fcsim — one run of a case: output directory (temporary name, renamed on success), the time
 * loop, outputs; and `fcsim info`. */
#ifndef FC_RUN_H
#define FC_RUN_H

#include "../case/case.h"

typedef struct {
  const char *outdir;       /* -o; NULL → <output.dir>/<name>/<run id> */
  const char *command_line;
} FcRunOptions;

/* *converged = PETSC_FALSE when some step did not converge and the case does not allow it
 * (the outputs are still written: they record what happened). */
PetscErrorCode FcRun(const FcCase *c, const FcRunOptions *o, PetscBool *converged);
/* Print the resolved case and per-body mesh statistics on stdout. */
PetscErrorCode FcInfo(const FcCase *c);

#endif
