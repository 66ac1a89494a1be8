/* fcsim fclib solve, fcsim fclib compare: FCLIB files (src/fclib). */
#include "cli.h"
#include "../fclib/fclib_cmd.h"
#include <errno.h>
#include <string.h>

static int Solver_Private(FcCli *a, const char *name, const char *v)
{
  (void)name;
  a->solver = v;
  return 0;
}

static int Solvers_Private(FcCli *a, const char *name, const char *v)
{
  (void)name;
  a->solvers = v;
  return 0;
}

/* table | csv | markdown, checked in src/fclib/fclib_cmd.c */
static int Format_Private(FcCli *a, const char *name, const char *v)
{
  (void)name;
  a->format = v;
  return 0;
}

static int Tol_Private(FcCli *a, const char *name, const char *v)
{
  double t;
  if (FcCliPositive(name, v, &t)) return FC_EXIT_INPUT;
  a->tol = t;
  return 0;
}

/* An iteration count is a PetscInt: a value past PETSC_MAX_INT (or past long, ERANGE) would
 * wrap around when converted, and a wrapped count is not what the user asked. */
static int MaxIt_Private(FcCli *a, const char *name, const char *v)
{
  char *end = NULL;
  (void)name;
  errno     = 0;
  a->max_it = strtol(v, &end, 10);
  if (*end || !v[0] || errno || a->max_it < 1 || a->max_it > PETSC_MAX_INT) {
    fprintf(stderr, "fcsim: command line: --max-it %s: must be an integer in [1, %d]\n", v, (int)PETSC_MAX_INT);
    return FC_EXIT_INPUT;
  }
  return 0;
}

/* local | global: which FCLIB form sap solves (checked in src/fclib/fclib_cmd.c) */
static int Form_Private(FcCli *a, const char *name, const char *v)
{
  (void)name;
  a->pargv[a->pargc++] = (char *)"-fc_fclib_form";
  a->pargv[a->pargc++] = (char *)v;
  return 0;
}

/* checked against the solver in src/fclib/fclib_cmd.c */
static int AcceptRegularized_Private(FcCli *a, const char *name, const char *v)
{
  (void)name;
  (void)v;
  a->accept_regularized = PETSC_TRUE;
  return 0;
}

static PetscErrorCode Main_Solve(FcCli *a, PetscBool *ok)
{
  FcFCLIBSolveOptions o = {.file = a->casefile,
    .solver                      = a->solver,
    .tol                         = a->tol > 0 ? (PetscReal)a->tol : PETSC_DEFAULT,
    .max_it                      = a->max_it > 0 ? (PetscInt)a->max_it : PETSC_DEFAULT,
    .out                         = a->outdir,
    .overwrite                   = a->overwrite,
    .accept_regularized          = a->accept_regularized};

  PetscFunctionBegin;
  PetscCall(FcCliRegisterTypes());
  return FcFCLIBSolve(&o, ok);
}

static PetscErrorCode Main_Compare(FcCli *a, PetscBool *ok)
{
  FcFCLIBCompareOptions o = {a->nfiles, a->files, a->solvers, a->tol > 0 ? (PetscReal)a->tol : PETSC_DEFAULT,
    a->max_it > 0 ? (PetscInt)a->max_it : PETSC_DEFAULT, a->format, a->accept_regularized};

  PetscFunctionBegin;
  PetscCall(FcCliRegisterTypes());
  return FcFCLIBCompare(&o, ok);
}

// clang-format off
static const FcCliOption solve_options[] = {
  {"--solver", "S", Solver_Private},
  {"--tol", "T", Tol_Private},
  {"--max-it", "N", MaxIt_Private},
  {"--form", "F", Form_Private},
  {"--accept-regularized", NULL, AcceptRegularized_Private},
  {NULL, NULL, NULL},
};
// clang-format on

// clang-format off
static const FcCliOption compare_options[] = {
  {"--solvers", "LIST", Solvers_Private},
  {"--format", "F", Format_Private},
  {"--tol", "T", Tol_Private},
  {"--max-it", "N", MaxIt_Private},
  {"--accept-regularized", NULL, AcceptRegularized_Private},
  {NULL, NULL, NULL},
};
// clang-format on

const FcCliCommand FcCliCommandFCLIBSolve = {
  .group    = "fclib",
  .sub      = "solve",
  .synopsis = "fclib solve FILE.hdf5",
  .file     = "FILE.hdf5",
  .usage    = "fcsim fclib solve FILE.hdf5 [--solver nsgs] [--tol T] [--max-it N] [--form local|global]\n"
              "                         [--accept-regularized] [-o SOLUTION.hdf5 [--overwrite]] [-v]\n",
  .help     = "  fclib solve  solve the local contact problem of an FCLIB file (a global one is\n"
              "          reformulated) and print contacts, iterations, common error, time\n",
  .flags    = FC_CLI_OUT | FC_CLI_FCLIB | FC_CLI_UNUSED,
  .options  = solve_options,
  .main     = Main_Solve,
};

const FcCliCommand FcCliCommandFCLIBCompare = {
  .group    = "fclib",
  .sub      = "compare",
  .synopsis = "fclib compare FILE...",
  .file     = "FILE.hdf5",
  .usage    = "fcsim fclib compare FILE.hdf5... [--solvers nsgs,lemke:k=8,...] [--tol T] [--max-it N]\n"
              "                           [--accept-regularized] [--format table|csv|markdown] [-v]\n",
  .help     = "  fclib compare  every problem with every solver (type:key=value sets a type option):\n"
              "          iterations, common error, time, converged, delta% against the most accurate\n",
  .flags    = FC_CLI_FILES | FC_CLI_FCLIB | FC_CLI_UNUSED,
  .options  = compare_options,
  .main     = Main_Compare,
};
