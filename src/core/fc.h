/* fcsim — common definitions: exit codes, input errors, small helpers.
 *
 * Error convention (see doc/architecture.md):
 *  - every function returns PetscErrorCode and every call is wrapped in PetscCall;
 *  - bad user input (case file, mesh, command line, trajectory, FCLIB file) is raised with
 *    FcInputError(), which formats ONE line "FILE: PATH: message", and returns
 *    PETSC_ERR_USER_INPUT; fcsim's error handler prints that line once, without a traceback,
 *    and main() maps it to exit status FC_EXIT_INPUT (2);
 *  - any other error is a failure of the run (exit FC_EXIT_RUN, 1) with PETSc's traceback. */
#ifndef FC_H
#define FC_H

#include <petsc.h>

#define FC_EXIT_OK    0
#define FC_EXIT_RUN   1 /* the run failed: non-convergence not allowed by the case, I/O failure */
#define FC_EXIT_INPUT 2 /* bad input: case, mesh, command line */

#define FC_ERR_INPUT PETSC_ERR_USER_INPUT
#define FC_NAME_LEN  256

/* Raise an input error: prints "where: path: message" (path may be NULL or "") once on stderr
 * through fcsim's error handler and returns FC_ERR_INPUT. Use as `return FcInputError(...)`
 * or via the FcCheckInput macro. */
PetscErrorCode FcInputError(const char *where, const char *path, const char *fmt, ...) PETSC_ATTRIBUTE_FORMAT(3, 4);

#define FcCheckInput(cond, where, path, ...) \
  do { \
    if (PetscUnlikely(!(cond))) return FcInputError(where, path, __VA_ARGS__); \
  } while (0)

/* Install the handler that prints input errors as one line and everything else with PETSc's
 * traceback. Call right after PetscInitialize. */
PetscErrorCode FcPushErrorHandler(void);
/* Record that the case file `file` set the PETSc option `name` ("-ksp_rtol") from its JSON path
 * `path` ("petsc.ksp_rtol"), so that a bad value of it is named by the file and path (exit 2), as
 * every input error; options of the command line are named "options: -NAME". No PETSc call: the
 * error handler reads it. */
void FcOptionSourceAdd(const char *file, const char *name, const char *path);

/* The user's PETSc options that this process had not used when fcsim took over (the command
 * line's, with PETSC_OPTIONS, an options file and .petscrc, which PetscInitialize reads), named
 * "command line" when a word of argv (argc words) is the option. Call once, after PetscInitialize
 * and fcsim's own reads of its start-up options. No collective call. */
PetscErrorCode FcOptionsRecordUser(int argc, char **argv);
/* Whether the options database holds `name` ("-ksp_rtol"), without marking it used as
 * PetscOptionsHasName would (fcsim's check of unused options and -options_left would miss it). */
PetscErrorCode FcOptionsHas(const char *name, PetscBool *set);
/* The user's options (FcOptionsRecordUser, FcOptionSourceAdd) that no rank used (PETSc marks an
 * option used when any code reads it, PetscOptionsUsed): one line each on rank 0's stderr, even
 * with -q, "fcsim: warning: option -NAME (SOURCE) was never used by WHAT", SOURCE "command line"
 * or "FILE: petsc.KEY"; *n of them in names[] and sources[] (static storage, valid until the next
 * call; n may be NULL). Options PETSc reads only in PetscFinalize (-log_view, -options_left,
 * -malloc_dump, ...) are never reported. Collective on PETSC_COMM_WORLD: call at the end of a
 * command that every rank reaches alike (not on an error path). A warning, never an error: an
 * option may be legitimately unused on one path of a study. */
PetscErrorCode FcOptionsReportUnused(const char *what, PetscInt *n, const char *const **names, const char *const **sources);
/* Options named PREFIX... are configuration of a part this run did not use (FcOptionsReportUnused
 * records them, unwarned): a contact solver's parameters when the run uses another solver. */
void FcOptionsDormant(const char *prefix);

/* Set to 1 just before raising an error that every rank raises alike (the same message, agreed
 * beforehand): only rank 0 prints it, so that a run on N ranks says it once. The handler resets
 * it. An error that may be one rank's alone is printed by the rank that raises it. */
extern int FcErrorOnEveryRank;

/* fcsim version string (git describe at build time). */
const char *FcVersion(void);

/* Verbosity: 0 quiet (-q), 1 normal (one progress line per step), 2 verbose (-v: e.g. how each
 * FCLIB matrix is stored). */
extern int FcVerbosity;

/* Path helpers (plain C, no PETSc objects). */
/* Join dir of `relative_to` with `path` unless `path` is absolute; result in out (len bytes). */
PetscErrorCode FcPathResolve(const char *relative_to, const char *path, char *out, size_t len);
PetscBool      FcFileReadable(const char *path);

/* Set once a line about the interrupt was printed (the error handler's "interrupted at step N;
 * nothing was kept", or main's): the watchdog, when the grace runs out while the main thread is
 * still cleaning up, then ends the process without a second line. */
extern volatile int FcInterruptReported;

#endif
