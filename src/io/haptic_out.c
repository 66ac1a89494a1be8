/* fcsim — the haptic loop's writer (writer.h, haptic_out.h): haptic.csv, one row per tick. The
 * same columns go into run.h5:/haptic by the run.h5 writer (h5out.c), while the file is open.
 * Layout in doc/output-format.md. */
#include "writer.h"
#include <errno.h>
#include <string.h>

static PetscErrorCode WriteCSV_Private(const char *path, const FcHapticOutput *o)
{
  FILE *fp;
  int   bad;

  PetscFunctionBegin;
  fp = fopen(path, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", path, strerror(errno));
  for (PetscInt c = 0; c < o->ncols; c++) fprintf(fp, "%s%s", c ? "," : "", o->cols[c]);
  fputc('\n', fp);
  for (PetscInt r = 0; r < o->nrows; r++) {
    for (PetscInt c = 0; c < o->ncols; c++) fprintf(fp, c ? ",%.17g" : "%.17g", (double)o->values[r * o->ncols + c]);
    fputc('\n', fp);
  }
  bad = ferror(fp);
  bad = fclose(fp) || bad;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s: %s", path, strerror(errno));
  PetscFunctionReturn(0);
}

static PetscBool HapticWant(const FcOutputSpec *spec)
{
  (void)spec;
  return PETSC_TRUE; /* acts only when the run has a haptic loop (FcOutputWriteHaptic) */
}

static PetscErrorCode HapticWrite(void *ctx, const FcOutputState *s, const FcHapticOutput *h)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  (void)ctx;
  PetscCall(FcOutputPathJoin(path, sizeof path, s->dir, "haptic.csv"));
  PetscCall(WriteCSV_Private(path, h));
  PetscFunctionReturn(0);
}

const FcWriterType FcWriterHaptic = {
  .name   = "haptic",
  .want   = HapticWant,
  .haptic = HapticWrite,
};
