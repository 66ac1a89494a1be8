/* fcsim — reading a run's outputs back (results.h). */
#define _XOPEN_SOURCE 700
#include "results.h"
#include "h5check.h"
#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

PetscInt FcCSVSplit(char *line, char **field, PetscInt max)
{
  PetscInt n = 0;
  char    *p = line;

  for (;;) {
    if (n == max) return max + 1;
    if (*p == '"') {
      char *w    = ++p;
      field[n++] = w;
      while (*p) {
        if (*p == '"' && p[1] == '"') {
          *w++ = '"';
          p += 2;
        } else if (*p == '"') {
          p++;
          break;
        } else *w++ = *p++;
      }
      while (*p && *p != ',') p++;
      *w = 0; /* w < p here unless the line ended inside the quotes (*p == 0 then) */
    } else {
      field[n++] = p;
      while (*p && *p != ',') p++;
    }
    if (*p != ',') return n;
    *p++ = 0;
  }
}

PetscErrorCode FcResultsTableDestroy(FcResultsTable *t)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < t->ncols; i++) PetscCall(PetscFree(t->head[i]));
  PetscCall(PetscFree(t->head));
  PetscCall(PetscFree(t->v));
  PetscCall(PetscMemzero(t, sizeof *t));
  PetscFunctionReturn(0);
}

PetscInt FcResultsTableColumn(const FcResultsTable *t, const char *name)
{
  for (PetscInt i = 0; i < t->ncols; i++)
    if (!strcmp(t->head[i], name)) return i;
  return -1;
}

/* The rows after the header: numbers (nan and inf too) split at the commas. */
static PetscErrorCode ReadRows_Private(FILE *f, char **line, size_t *cap, FcResultsTable *t)
{
  const PetscInt nf   = t->ncols;
  PetscInt       rcap = 64;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(rcap * nf, &t->v));
  while (getline(line, cap, f) >= 0) {
    PetscInt c = 0;
    char    *p;
    (*line)[strcspn(*line, "\r\n")] = 0;
    if (!(*line)[0]) continue;
    if (t->nrows == rcap) {
      rcap *= 2;
      PetscCall(PetscRealloc(sizeof(PetscReal) * (size_t)(rcap * nf), &t->v));
    }
    for (p = *line; c < nf; c++) {
      char *end;
      t->v[t->nrows * nf + c] = p && *p && *p != ',' ? strtod(p, &end) : NAN;
      p                       = p ? strchr(p, ',') : NULL;
      if (p) p++;
    }
    t->nrows++;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcResultsReadTable(const char *dir, const char *name, PetscBool required, FcResultsTable *t, PetscBool *found)
{
  char     path[PETSC_MAX_PATH_LEN + 64], *line = NULL, **fld;
  size_t   cap = 0;
  FILE    *f;
  PetscInt nf;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(t, sizeof *t));
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/%s.csv", dir, name));
  f      = fopen(path, "r");
  *found = f ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(f || !required, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read %s: %s", path, strerror(errno));
  if (!f) PetscFunctionReturn(0);
  if (getline(&line, &cap, f) < 0) {
    free(line);
    fclose(f);
    *found = PETSC_FALSE;
    PetscCheck(!required, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s is empty", path);
    PetscFunctionReturn(0);
  }
  line[strcspn(line, "\r\n")] = 0;
  PetscCall(PetscMalloc1(strlen(line) + 2, &fld));
  nf = FcCSVSplit(line, fld, (PetscInt)strlen(line) + 1);
  PetscCall(PetscMalloc1(nf, &t->head));
  for (PetscInt i = 0; i < nf; i++) PetscCall(PetscStrallocpy(fld[i], &t->head[i]));
  t->ncols = nf;
  PetscCall(PetscFree(fld));
  PetscCall(ReadRows_Private(f, &line, &cap, t));
  free(line);
  fclose(f);
  PetscFunctionReturn(0);
}

void FcResultsMeshCounts(const char *rundir, PetscInt nb, char *const *names, long long *nodes, long long *elems)
{
  char        path[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN];
  H5E_auto2_t func;
  void       *data;
  hid_t       fid;

  *nodes = *elems = 0;
  snprintf(path, sizeof path, "%s/run.h5", rundir);
  H5Eget_auto2(H5E_DEFAULT, &func, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  {
    /* the run's own run.h5, read for information: a file that is not regular, or that names
     * anything outside itself (src/io/h5check.h), leaves the counts to the VTK files or unknown */
    struct stat st;
    fid = FcFileReadable(path) && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    if (fid >= 0 && !FcH5FileIsSafe(fid, (PetscInt64)st.st_size)) {
      H5Fclose(fid);
      fid = -1;
    }
  }
  for (PetscInt b = 0; fid >= 0 && b < nb; b++) {
    for (int k = 0; k < 2; k++) {
      hid_t   d, s;
      hsize_t dims[2] = {0, 0};
      snprintf(path, sizeof path, "/bodies/%s/mesh/%s", names[b], k ? "cells" : "X");
      d = H5Dopen2(fid, path, H5P_DEFAULT);
      s = d >= 0 ? H5Dget_space(d) : -1;
      if (s < 0 || H5Sget_simple_extent_ndims(s) != 2 || H5Sget_simple_extent_dims(s, dims, NULL) < 0) *nodes = -1;
      else if (k) *elems += (long long)dims[0];
      else *nodes += (long long)dims[0];
      if (s >= 0) H5Sclose(s);
      if (d >= 0) H5Dclose(d);
    }
  }
  if (fid >= 0) H5Fclose(fid);
  H5Eset_auto2(H5E_DEFAULT, func, data);
  if (fid >= 0 && *nodes >= 0) return;
  *nodes = *elems = 0;
  for (PetscInt b = 0; b < nb; b++) {
    FILE     *f;
    char      line[512];
    long long n = -1, e = -1;
    PetscBool binary = PETSC_FALSE;
    snprintf(path, sizeof path, "%s/vtk/%s_000000.vtk", rundir, names[b]);
    if (!(f = fopen(path, "rb"))) {
      *nodes = *elems = -1;
      return;
    }
    for (int l = 0; fgets(line, sizeof line, f); l++) {
      if (l == 2) binary = (PetscBool)!strncmp(line, "BINARY", 6);
      if (n < 0 && sscanf(line, "POINTS %lld", &n) == 1 && binary && fseek(f, 24 * n + 1, SEEK_CUR)) break; /* 3 float64 per point, then '\n' */
      if (sscanf(line, "CELLS %lld", &e) == 1) break;
    }
    fclose(f);
    if (n < 0 || e < 0) {
      *nodes = *elems = -1;
      return;
    }
    *nodes += n;
    *elems += e;
  }
}
