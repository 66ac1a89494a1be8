/* fcsim study compare, fcsim study refine: studies over runs (src/study). */
#include "cli.h"
#include "../study/compare.h"
#include "../study/refine.h"
#include <errno.h>
#include <math.h>
#include <string.h>

/* --solvers, --levels, --bodies, --reference, --quantity, --over, --mpiexec: a string each, checked by the study */
static int String_Private(FcCli *a, const char *name, const char *v)
{
  if (!strcmp(name, "--solvers")) a->solvers = v;
  else if (!strcmp(name, "--over")) a->over = v;
  else if (!strcmp(name, "--mpiexec")) a->mpiexec = v;
  else if (!strcmp(name, "--levels")) a->levels = v;
  else if (!strcmp(name, "--bodies")) a->bodies = v;
  else if (!strcmp(name, "--reference")) a->reference = v;
  else a->quantity = v;
  return 0;
}

/* --axis NAME=V1,V2,...: repeated, checked by the study */
static int Axis_Private(FcCli *a, const char *name, const char *v)
{
  if (a->naxes >= (int)(sizeof a->axes / sizeof a->axes[0])) {
    fprintf(stderr, "fcsim: command line: %s %s: at most %d axes\n", name, v, (int)(sizeof a->axes / sizeof a->axes[0]));
    return FC_EXIT_INPUT;
  }
  a->axes[a->naxes++] = v;
  return 0;
}

static int Scale_Private(FcCli *a, const char *name, const char *v)
{
  char  *end = NULL;
  double s   = strtod(v, &end);
  if (*end || !v[0] || !isfinite(s) || s == 0) {
    fprintf(stderr, "fcsim: command line: %s %s: must be a finite non-zero number\n", name, v);
    return FC_EXIT_INPUT;
  }
  if (!strcmp(name, "--scale-x")) a->scale_x = s;
  else a->scale_y = s;
  return 0;
}

static int Jobs_Private(FcCli *a, const char *name, const char *v)
{
  char *end = NULL;
  (void)name;
  errno   = 0;
  a->jobs = strtol(v, &end, 10);
  if (*end || !v[0] || errno || a->jobs < 1 || a->jobs > 1024) {
    fprintf(stderr, "fcsim: command line: -j %s: must be an integer in [1, 1024]\n", v);
    return FC_EXIT_INPUT;
  }
  return 0;
}

static int CheckRefine_Private(FcCli *a)
{
  if (!a->levels) {
    fprintf(stderr, "fcsim: command line: study refine needs --levels, e.g. --levels 0,1,2\n");
    return FC_EXIT_INPUT;
  }
  return 0;
}

static PetscErrorCode Main_Compare(FcCli *a, PetscBool *ok)
{
  FcStudyCompareOptions o = {.casefile = a->casefile,
    .nsets                             = a->nsets,
    .sets                              = a->sets,
    .solvers                           = a->solvers,
    .naxes                             = a->naxes,
    .axes                              = a->axes,
    .jobs                              = (PetscInt)a->jobs,
    .mpiexec                           = a->mpiexec,
    .outdir                            = a->outdir,
    .command_line                      = a->cmdline,
    .overwrite                         = a->overwrite,
    .force                             = a->force,
    .npetsc                            = a->pargc - 1,
    .petsc                             = (const char *const *)a->pargv + 1,
    .envp                              = (const char *const *)a->envp};

  PetscFunctionBegin;
  PetscCall(FcCliRegisterTypes());
  return FcStudyCompare(&o, ok);
}

static PetscErrorCode Main_Refine(FcCli *a, PetscBool *ok)
{
  FcStudyRefineOptions o = {.casefile = a->casefile,
    .nsets                            = a->nsets,
    .sets                             = a->sets,
    .levels                           = a->levels,
    .over                             = a->over,
    .bodies                           = a->bodies,
    .reference                        = a->reference,
    .scale_x                          = (PetscReal)a->scale_x,
    .scale_y                          = (PetscReal)a->scale_y,
    .quantity                         = a->quantity,
    .jobs                             = (PetscInt)a->jobs,
    .mpiexec                          = a->mpiexec,
    .outdir                           = a->outdir,
    .overwrite                        = a->overwrite,
    .force                            = a->force,
    .command_line                     = a->cmdline,
    .npetsc                           = a->pargc - 1,
    .petsc                            = (const char *const *)a->pargv + 1,
    .envp                             = (const char *const *)a->envp};

  PetscFunctionBegin;
  PetscCall(FcCliRegisterTypes());
  return FcStudyRefine(&o, ok);
}

// clang-format off
static const FcCliOption compare_options[] = {
  {"--solvers", "LIST", String_Private},
  {"--axis", "NAME=LIST", Axis_Private},
  {"-j", "N", Jobs_Private},
  {"--mpiexec", "LAUNCHER", String_Private},
  {NULL, NULL, NULL},
};
// clang-format on

// clang-format off
static const FcCliOption refine_options[] = {
  {"--levels", "LIST", String_Private},
  {"--over", "mesh|dt", String_Private},
  {"--bodies", "LIST", String_Private},
  {"--reference", "FILE", String_Private},
  {"--quantity", "COLUMN", String_Private},
  {"--scale-x", "S", Scale_Private},
  {"--scale-y", "S", Scale_Private},
  {"-j", "N", Jobs_Private},
  {"--mpiexec", "LAUNCHER", String_Private},
  {NULL, NULL, NULL},
};
// clang-format on

const FcCliCommand FcCliCommandStudyCompare = {
  .group    = "study",
  .sub      = "compare",
  .synopsis = "study compare CASE.json --axis solver=A,B,...",
  .file     = "CASE.json",
  .usage    = "fcsim study compare CASE.json [--axis NAME=V1,V2,...]... [--solvers A,B,...] [-j N]\n"
              "                           [--mpiexec \"mpiexec -n R\"] [--set PATH=VALUE]... [-o DIR [--overwrite]] [-q] [PETSc options]\n",
  .help     = "  study compare  run a case once per cell of the cross product of the axes: solver (variants\n"
              "          as fclib compare takes them, lemke:k=16; --solvers LIST is --axis solver=LIST),\n"
              "          compliance, dt, integrator, level (mesh.refine of the deformable bodies); N runs\n"
              "          at once (-j, default 1: timings that compare); DIR/compare.csv and compare.md\n"
              "          list per run the steps, contact iterations and error, the cost split (assembly,\n"
              "          factorization, W, detection, contact solve, output), the wall time and the probe\n"
              "          differences against the first run; --mpiexec: every run under that launcher\n"
              "          (split on spaces, no shell; doc/mpi.md); see doc/study.md\n",
  .flags    = FC_CLI_SET | FC_CLI_OUT | FC_CLI_FORCE | FC_CLI_CASE | FC_CLI_ENV,
  .options  = compare_options,
  .main     = Main_Compare,
};

const FcCliCommand FcCliCommandStudyRefine = {
  .group    = "study",
  .sub      = "refine",
  .synopsis = "study refine CASE.json --levels 0,1,2",
  .file     = "CASE.json",
  .usage    = "fcsim study refine CASE.json --levels 0,1,2,3 [--over mesh|dt] [--bodies A,B] [--reference FILE.csv]\n"
              "                          [--scale-x S] [--scale-y S] [--quantity COLUMN] [-j N]\n"
              "                          [--mpiexec \"mpiexec -n R\"]\n"
              "                          [--set PATH=VALUE]... [-o DIR [--overwrite]] [-q] [PETSc options]\n",
  .help     = "  study refine  run a case once per mesh refinement level (bodies[i].mesh.refine = L for\n"
              "          every deformable body, or those of --bodies; --over dt: time.dt / 2^L instead),\n"
              "          N runs at once (-j, default: the\n"
              "          number of processors); DIR/study.csv and study.md list DoFs, elements, wall\n"
              "          time, the errors against the reference curve (--reference: '#' comment lines,\n"
              "          a header X,Y naming probe columns, then x,y rows; --scale-x/-y multiply the\n"
              "          run's columns), the observed order and the Richardson-extrapolated quantity;\n"
              "          --mpiexec: every run under that launcher (split on spaces, no shell; doc/mpi.md);\n"
              "          DIR defaults to <output.dir>/<name>/refine_<date-time>; see doc/study.md\n",
  .flags    = FC_CLI_SET | FC_CLI_OUT | FC_CLI_FORCE | FC_CLI_CASE | FC_CLI_ENV,
  .options  = refine_options,
  .check    = CheckRefine_Private,
  .main     = Main_Refine,
};
