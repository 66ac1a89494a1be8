/* fcsim — haptic.csv and run.h5:/haptic (haptic_out.h; layout in doc/output-format.md). */
#include "haptic_out.h"
#include <errno.h>
#include <hdf5.h>
#include <string.h>

/* Every HDF5 call of this file goes through H5Try: a failure jumps to the function's cleanup
 * label, which closes what it holds, then raises one error naming the file and the call. */
#define H5Try(call) \
  do { \
    if (PetscUnlikely((call) < 0)) { \
      failed = #call; \
      goto cleanup; \
    } \
  } while (0)

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

static PetscErrorCode WriteH5_Private(const char *path, const FcHapticOutput *o)
{
  const char *failed = NULL;
  hid_t       fapl = H5I_INVALID_HID, f = H5I_INVALID_HID, g = H5I_INVALID_HID, space = H5I_INVALID_HID, dset = H5I_INVALID_HID, obj = H5I_INVALID_HID, st = H5I_INVALID_HID;
  hsize_t     dim = (hsize_t)o->nrows, n = (hsize_t)o->ncols;
  PetscReal  *col = NULL;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(o->nrows + 1, &col));
  H5Try(fapl = H5Pcreate(H5P_FILE_ACCESS));
  H5Try(H5Pset_fapl_sec2(fapl));
  H5Try(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG));
  H5Try(f = H5Fopen(path, H5F_ACC_RDWR, fapl));
  H5Try(g = H5Gcreate2(f, "/haptic", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  /* one dataset per column, in the CSV's order recorded as the attribute "columns" */
  H5Try(space = H5Screate_simple(1, &dim, NULL));
  for (PetscInt c = 0; c <= o->ncols; c++) {
    const char      *name = c < o->ncols ? o->cols[c] : "wall_time";
    const PetscReal *src  = c < o->ncols ? NULL : o->wall_time;
    for (PetscInt r = 0; r < o->nrows; r++) col[r] = src ? src[r] : o->values[r * o->ncols + c];
    H5Try(dset = H5Dcreate2(g, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (o->nrows) H5Try(H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, col));
    H5Try(H5Dclose(dset));
    dset = H5I_INVALID_HID;
  }
  H5Try(H5Sclose(space));
  space = H5I_INVALID_HID;
  H5Try(st = H5Tcopy(H5T_C_S1));
  H5Try(H5Tset_size(st, H5T_VARIABLE));
  H5Try(H5Tset_cset(st, H5T_CSET_UTF8));
  H5Try(space = H5Screate_simple(1, &n, NULL));
  H5Try(obj = H5Acreate2(g, "columns", st, space, H5P_DEFAULT, H5P_DEFAULT));
  if (n) H5Try(H5Awrite(obj, st, o->cols));
  H5Try(H5Aclose(obj));
  obj = H5I_INVALID_HID;
  H5Try(H5Sclose(space));
  space = H5I_INVALID_HID;
  H5Try(space = H5Screate(H5S_SCALAR));
  H5Try(obj = H5Acreate2(g, "solver", st, space, H5P_DEFAULT, H5P_DEFAULT));
  H5Try(H5Awrite(obj, st, &o->solver));
  H5Try(H5Aclose(obj));
  obj = H5I_INVALID_HID;
  for (PetscInt k = 0; k < o->nattrs; k++) {
    H5Try(obj = H5Acreate2(g, o->attr_names[k], H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT));
    H5Try(H5Awrite(obj, H5T_NATIVE_DOUBLE, &o->attr_values[k]));
    H5Try(H5Aclose(obj));
    obj = H5I_INVALID_HID;
  }
  H5Try(H5Gclose(g));
  g = H5I_INVALID_HID;
  H5Try(H5Fclose(f));
  f = H5I_INVALID_HID;
cleanup:
  if (dset >= 0) H5Dclose(dset);
  if (obj >= 0) H5Aclose(obj);
  if (space >= 0) H5Sclose(space);
  if (st >= 0) H5Tclose(st);
  if (g >= 0) H5Gclose(g);
  if (f >= 0) H5Fclose(f);
  if (fapl >= 0) H5Pclose(fapl);
  PetscCall(PetscFree(col));
  PetscCheck(!failed, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: %s failed", path, failed);
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticOutputWrite(const char *dir, PetscBool h5, const FcHapticOutput *o)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/haptic.csv", dir));
  PetscCall(WriteCSV_Private(path, o));
  if (!h5) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/run.h5", dir));
  PetscCall(WriteH5_Private(path, o));
  PetscFunctionReturn(0);
}
