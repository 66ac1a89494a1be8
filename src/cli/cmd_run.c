/* fcsim run, fcsim info: a case file (src/run). */
#include "cli.h"
#include "../case/case.h"
#include "../run/run.h"

/* The case of the command line, its "petsc" object in the options database, then run or info. */
static PetscErrorCode RunOrInfo_Private(FcCli *a, PetscBool info, PetscBool *ok)
{
  FcCase         c;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(FcCliRegisterTypes());
  PetscCall(PetscMemzero(&c, sizeof c));
  ierr = FcCaseLoad(a->casefile, a->nsets, a->sets, &c);
  if (!ierr) ierr = FcCaseInsertOptions(&c);
  if (!ierr) {
    if (info) ierr = FcInfo(&c, a->force);
    else {
      FcRunOptions o = {.outdir = a->outdir, .command_line = a->cmdline, .overwrite = a->overwrite, .force = a->force};
      ierr           = FcRun(&c, &o, ok);
    }
  }
  (void)FcCaseDestroy(&c);
  return ierr;
}

static PetscErrorCode Main_Run(FcCli *a, PetscBool *ok) { return RunOrInfo_Private(a, PETSC_FALSE, ok); }

static PetscErrorCode Main_Info(FcCli *a, PetscBool *ok) { return RunOrInfo_Private(a, PETSC_TRUE, ok); }

const FcCliCommand FcCliCommandRun = {
  .group = "run",
  .file  = "CASE.json",
  .usage = "fcsim run  CASE.json [--set PATH=VALUE]... [-o OUTDIR [--overwrite]] [--force] [-q] [PETSc options]\n",
  .help  = "  run     run the case; outputs go to OUTDIR (default <output.dir>/<name>/<run id>/),\n"
           "          written under a temporary name and renamed when the run completes\n",
  .flags = FC_CLI_SET | FC_CLI_OUT | FC_CLI_FORCE | FC_CLI_CASE,
  .main  = Main_Run,
};

const FcCliCommand FcCliCommandInfo = {
  .group = "info",
  .file  = "CASE.json",
  .usage = "fcsim info CASE.json [--set PATH=VALUE]... [--force]\n",
  .help  = "  info    print the resolved case (every key, defaults filled in) and mesh statistics\n",
  .flags = FC_CLI_SET | FC_CLI_FORCE | FC_CLI_CASE,
  .main  = Main_Info,
};
