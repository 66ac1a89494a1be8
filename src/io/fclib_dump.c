/* fcsim — the FCLIB dump of a run (writer.h; case output.fclib): the last contact problem of every
 * step and its solution, fclib/step_<step>.hdf5 (doc/output-format.md), through the FCLIB writer
 * of fclib_io.c. */
#include "writer.h"
#include "fclib_io.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
  char title[FC_NAME_LEN];
  char meaning[160];
} FCLIBOut;

static PetscBool FCLIBWant(const FcOutputSpec *spec) { return spec->fclib; }

static PetscErrorCode FCLIBOpen(const FcOutputSpec *spec, const FcOutputState *s, void **ctx)
{
  FCLIBOut *o;

  PetscFunctionBegin;
  (void)s;
  PetscCall(PetscNew(&o));
  PetscCall(PetscStrncpy(o->title, spec->case_name ? spec->case_name : "", sizeof o->title));
  PetscCall(PetscStrncpy(o->meaning, spec->fclib_meaning ? spec->fclib_meaning : "", sizeof o->meaning));
  *ctx = o;
  PetscFunctionReturn(0);
}

static PetscErrorCode FCLIBProblem(void *ctx, const FcOutputState *s, PetscInt step, FcContactProblem p, const PetscReal *r)
{
  FCLIBOut *o = (FCLIBOut *)ctx;
  char      path[PETSC_MAX_PATH_LEN + 64], info[256];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/fclib", s->dir));
  PetscCheck(mkdir(path, 0777) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create directory %s: %s", path, strerror(errno));
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/fclib/step_%06d.hdf5", s->dir, (int)step));
  PetscCall(PetscSNPrintf(info, sizeof info, "fcsim case %s, step %d, %s", o->title, (int)step, o->meaning));
  {
    FcFCLIBInfo fi = {o->title, info, "fcsim local contact problem (W = sum_b H_b A_b^-1 H_b^T)"};
    PetscCall(FcFCLIBWriteSolution(path, p, &fi, r, NULL));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FCLIBDestroy(void **ctx, PetscBool report)
{
  PetscFunctionBegin;
  (void)report;
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(0);
}

const FcWriterType FcWriterFCLIB = {
  .name    = "fclib",
  .want    = FCLIBWant,
  .open    = FCLIBOpen,
  .problem = FCLIBProblem,
  .destroy = FCLIBDestroy,
};
