/* fcsim — `fcsim fclib solve`: solve the local problem of any FCLIB file. */
#ifndef FC_FCLIB_CMD_H
#define FC_FCLIB_CMD_H
#include "../core/fc.h"

typedef struct {
  const char *file;    /* FCLIB HDF5 file (local or global problem) */
  const char *solver;  /* contact solver type, default "nsgs" */
  PetscReal   tol;     /* PETSC_DEFAULT: the solver's default */
  PetscInt    max_it;  /* PETSC_DEFAULT: the solver's default */
  const char *out;     /* solution file (FCLIB /solution layout) or NULL */
} FcFCLIBSolveOptions;

/* Prints one line: contacts, iterations, common error, time, reason. *converged reports the
 * solver's status (exit 1 when false). */
PetscErrorCode FcFCLIBSolve(const FcFCLIBSolveOptions *o, PetscBool *converged);
#endif
