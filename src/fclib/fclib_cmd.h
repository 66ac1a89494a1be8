/* fcsim — `fcsim fclib solve`: solve the local problem of any FCLIB file. */
#ifndef FC_FCLIB_CMD_H
#define FC_FCLIB_CMD_H
#include "../core/fc.h"

typedef struct {
  const char *file;               /* FCLIB HDF5 file (local or global problem) */
  const char *solver;             /* contact solver type, default "nsgs" */
  PetscReal   tol;                /* PETSC_DEFAULT: the solver's default */
  PetscInt    max_it;             /* PETSC_DEFAULT: the solver's default */
  const char *out;                /* solution file (FCLIB /solution layout) or NULL */
  PetscBool   overwrite;          /* --overwrite: an existing regular file at out may be replaced */
  PetscBool   accept_regularized; /* --accept-regularized: a regularized solver's answer above tol converges up to
                                   * FC_CONTACT_SOLVER_ACCEPT_REGULARIZED (solver.h); with another solver an input error */
} FcFCLIBSolveOptions;

/* Prints one line: contacts, iterations, common error, time, reason; for a regularized solver
 * (sap) also whether tol was met and its regularization, for a composite one (auto) which part did
 * the work. *converged reports the solver's status (exit 1 when false): the common error against
 * tol for every solver (a regularized one's above tol only with accept_regularized),
 * -fc_contact_solver_max_error included (the global form of sap too). */
PetscErrorCode FcFCLIBSolve(const FcFCLIBSolveOptions *o, PetscBool *converged);

/* `fcsim fclib compare FILE... [--solvers nsgs,lemke:k=8,...] [--tol T] [--max-it N]
 * [--format table|csv|markdown]`: a row per (problem, solver) with contacts, iterations,
 * common error, time, converged and δ% = 100‖r − r_ref‖/‖r_ref‖ against the most accurate
 * converged solution of that problem (duriez2006 eq. 26). "type:key=value" sets the type's
 * option -fc_contact_solver_<type>_<key> value for that solver only. */
typedef struct {
  PetscInt           nfiles;
  const char *const *files;
  const char        *solvers; /* comma-separated, default "nsgs" */
  PetscReal          tol;
  PetscInt           max_it;
  const char        *format;             /* "table" (default), "csv", "markdown" */
  PetscBool          accept_regularized; /* --accept-regularized, for the regularized solvers of the list (none: input error) */
} FcFCLIBCompareOptions;
/* *ok: false when a requested solver did not converge on a problem (its status, max_error
 * included) or refused it; the whole table is printed either way (exit 1 when false). */
PetscErrorCode FcFCLIBCompare(const FcFCLIBCompareOptions *o, PetscBool *ok);
#endif
