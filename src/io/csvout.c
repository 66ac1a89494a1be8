/* fcsim — the probes.csv and stats.csv writer (writer.h): a header `step,time,<columns>`, then
 * one row per call, every value "%.17g" (a run's tables are bit-reproducible), flushed per row so
 * that a long run can be watched (tail -f, plotting while running). Layout: doc/output-format.md. */
#include "writer.h"
#include <errno.h>
#include <string.h>

typedef struct {
  const char *name; /* "probes" or "stats": the CSV's base name */
  char        csv[PETSC_MAX_PATH_LEN];
  FILE       *fp;
  PetscInt    ncols;
} CSVTable;

typedef struct {
  char     dir[PETSC_MAX_PATH_LEN];
  CSVTable probes, stats;
} CSVOut;

/* RFC 4180 quoting, only when needed (names are normally plain identifiers). */
static void CSVPutField(FILE *fp, const char *s)
{
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, fp);
    return;
  }
  fputc('"', fp);
  for (const char *c = s; *c; c++) {
    if (*c == '"') fputc('"', fp);
    fputc(*c, fp);
  }
  fputc('"', fp);
}

static PetscErrorCode CSVFlush(CSVTable *t)
{
  PetscFunctionBegin;
  PetscCheck(fflush(t->fp) == 0 && !ferror(t->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s: %s", t->csv, strerror(errno));
  PetscFunctionReturn(0);
}

static PetscErrorCode CSVTableOpen(const char *dir, CSVTable *t, const char *name, PetscInt ncols, const char *const *cols)
{
  char fname[64];

  PetscFunctionBegin;
  t->name  = name;
  t->ncols = ncols;
  PetscCall(PetscSNPrintf(fname, sizeof fname, "%s.csv", name));
  PetscCall(FcOutputPathJoin(t->csv, sizeof t->csv, dir, fname));
  t->fp = fopen(t->csv, "w");
  PetscCheck(t->fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", t->csv, strerror(errno));
  fputs("step,time", t->fp);
  for (PetscInt c = 0; c < ncols; c++) {
    fputc(',', t->fp);
    CSVPutField(t->fp, cols[c]);
  }
  fputc('\n', t->fp);
  PetscCall(CSVFlush(t));
  PetscFunctionReturn(0);
}

static PetscBool CSVWant(const FcOutputSpec *spec)
{
  (void)spec;
  return PETSC_TRUE; /* always: the tables are the run's record */
}

/* Closing a CSV that fails (its last data may be lost) is reported, unless another error is on
 * its way up already (one line only). */
static PetscErrorCode CSVDestroy(void **ctx, PetscBool report)
{
  CSVOut   *o                       = (CSVOut *)*ctx;
  PetscBool failed                  = PETSC_FALSE;
  char      dir[PETSC_MAX_PATH_LEN] = "";

  PetscFunctionBegin;
  if (!o) PetscFunctionReturn(0);
  *ctx = NULL;
  PetscCall(PetscStrncpy(dir, o->dir, sizeof dir));
  if (o->probes.fp && fclose(o->probes.fp) != 0) failed = PETSC_TRUE;
  if (o->stats.fp && fclose(o->stats.fp) != 0) failed = PETSC_TRUE;
  PetscCall(PetscFree(o));
  if (!report) PetscFunctionReturn(0);
  PetscCheck(!failed, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing probes.csv or stats.csv in %s (a full disk or a file-size limit?)", dir);
  PetscFunctionReturn(0);
}

static PetscErrorCode CSVOpen(const FcOutputSpec *spec, const FcOutputState *s, void **ctx)
{
  CSVOut        *o;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscNew(&o));
  *ctx = o;
  PetscCall(PetscStrncpy(o->dir, s->dir, sizeof o->dir));
  ierr = CSVTableOpen(s->dir, &o->probes, "probes", spec->nprobe_cols, spec->probe_cols);
  if (!ierr) ierr = CSVTableOpen(s->dir, &o->stats, "stats", spec->nstat_cols, spec->stat_cols);
  if (ierr) PetscCall(CSVDestroy(ctx, PETSC_FALSE));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode CSVRow(void *ctx, const FcOutputState *s, FcOutputTable table, PetscInt step, PetscReal time, const PetscReal *values)
{
  CSVOut   *o = (CSVOut *)ctx;
  CSVTable *t = table == FC_OUTPUT_PROBES ? &o->probes : &o->stats;

  PetscFunctionBegin;
  (void)s;
  PetscCheck(t->fp, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Output: %s table is not open", t->name);
  fprintf(t->fp, "%" PetscInt_FMT ",%.17g", step, (double)time);
  for (PetscInt c = 0; c < t->ncols; c++) fprintf(t->fp, ",%.17g", (double)values[c]);
  fputc('\n', t->fp);
  PetscCall(CSVFlush(t));
  PetscFunctionReturn(0);
}

const FcWriterType FcWriterCSV = {
  .name    = "csv",
  .want    = CSVWant,
  .open    = CSVOpen,
  .row     = CSVRow,
  .destroy = CSVDestroy,
};
