/* fcsim — one run of a case: output directory (temporary name, renamed on success), the time
 * loop, outputs; and `fcsim info`. */
#ifndef FC_RUN_H
#define FC_RUN_H

#include "../case/case.h"

typedef struct {
  const char *outdir; /* -o; NULL → <output.dir>/<name>/<run id> */
  const char *command_line;
  PetscBool   overwrite; /* --overwrite: a foreign folder at outdir may be replaced */
  PetscBool   nested;    /* inside a study's temporary folder: a failed run keeps its name */
  PetscBool   force;     /* --force: run even what the size estimate refuses (estimate.h) */
} FcRunOptions;

/* The output folder is checked before anything is computed and every check of the case against
 * its meshes is made before anything is written (src/core/fsutil.h). *converged = PETSC_FALSE
 * when some step did not converge and the case does not allow it, or a step became
 * inadmissible: the outputs are then kept in <dir>.failed-<pid>, never on <dir> (unless
 * nested). */
PetscErrorCode FcRun(const FcCase *c, const FcRunOptions *o, PetscBool *converged);
/* Print the resolved case, per-body mesh statistics and the size estimate on stdout, after every
 * check that `run` makes before computing (groups, contact surfaces, probes, the size estimate
 * but for the free disk space: force skips it). */
PetscErrorCode FcInfo(const FcCase *c, PetscBool force);

#endif
