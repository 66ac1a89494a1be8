/* fcsim — run output: run.h5 + run.xdmf, legacy VTK series (bodies, contacts), probes.csv and
 * stats.csv.
 * The layout is documented in doc/output-format.md and checked by scripts/check_output.py. */
#include "output.h"
#include <errno.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#if !defined(PETSC_USE_REAL_DOUBLE)
  #error "fcsim output writes float64 data: PetscReal must be double"
#endif

/* HDF5 calls return a negative id or status on failure. HDF5's own error-stack printing is
 * switched off (FcOutputOpen), so the failure becomes a PETSc error naming the file, the call and
 * HDF5's innermost reason (captured at once: the next HDF5 call clears the stack).
 * FcH5Check returns at once: for code that holds no HDF5 handle of its own. */
#define FcH5Check(call, file) \
  do { \
    if (PetscUnlikely((call) < 0)) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: %s failed: %s", (file), #call, H5Reason()); \
  } while (0)
/* FcH5Try jumps to the function's `cleanup:` label, which closes the handles it holds and then
 * raises the error with FcH5Raise. */
#define FcH5Try(call) \
  do { \
    if (PetscUnlikely((call) < 0)) { \
      h5failed = #call; \
      (void)H5Reason(); \
      goto cleanup; \
    } \
  } while (0)
#define FcH5Raise(file) \
  do { \
    if (PetscUnlikely(h5failed)) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: %s failed: %s", (file), h5failed, h5reason); \
  } while (0)

/* The reason of the last HDF5 failure (one process writes: a module buffer is enough). */
static char h5reason[256];

static herr_t H5ReasonWalk(unsigned n, const H5E_error2_t *err, void *ctx)
{
  const char *m;
  (void)ctx;
  /* Walking upward, entry 0 is the innermost error: the actual cause. A failed write's
   * description is long ("file write failed: time = ..., filename = ..., errno = 27, error
   * message = 'File too large', buf = ..."): keep the system's message. */
  if (n == 0 && err->desc) {
    if ((m = strstr(err->desc, "error message = '"))) {
      const char *e;
      m += strlen("error message = '");
      e = strchr(m, '\'');
      snprintf(h5reason, sizeof h5reason, "%.*s", e ? (int)(e - m) : (int)strlen(m), m);
    } else snprintf(h5reason, sizeof h5reason, "%s", err->desc);
  }
  return 0;
}

/* HDF5 1.10 cannot recover from a failed H5Fclose: the file stays half-closed and the library's
 * own termination (at MPI_Finalize) crashes in H5F__close_cb. fcsim then ends without
 * finalizing HDF5 (src/fcsim.c asks FcOutputHDF5Unusable). */
static PetscBool h5unusable = PETSC_FALSE;

PetscBool FcOutputHDF5Unusable(void)
{
  return h5unusable;
}

static const char *H5Reason(void)
{
  snprintf(h5reason, sizeof h5reason, "%s", "no HDF5 error description");
  (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, H5ReasonWalk, NULL);
  return h5reason;
}

/* Rows of one time-series table (probes or stats): the CSV is written row by row, and the rows
 * are kept for run.h5, where a table is written once at close. */
typedef struct {
  const char *name; /* "probes" or "stats": CSV base name and HDF5 group */
  char        csv[PETSC_MAX_PATH_LEN];
  FILE       *fp;
  PetscInt    ncols;
  char      **cols;
  PetscInt    nrows, cap;
  PetscInt64 *step;
  PetscReal  *time;
  PetscReal  *values; /* nrows*ncols, row-major */
} FcTable;

struct _p_FcOutput {
  char          dir[PETSC_MAX_PATH_LEN];
  char          h5path[PETSC_MAX_PATH_LEN];
  PetscBool     hdf5, vtk, vtk_binary, keep_rows;
  hid_t         h5;
  PetscInt      nbodies;
  FcOutputMesh *meshes; /* copies owned by the output: name, X and conn allocated here */
  PetscInt      nout, outcap;
  PetscInt64   *outstep;
  PetscReal    *outtime;
  FcTable       probes, stats;
  /* Contact output (FcOutputWriteContacts): one entry per call, in order of k. */
  PetscInt      ncon, concap;
  PetscInt     *conk; /* output step index k of each call */
  PetscInt     *conm; /* number of contacts of each call */
  /* FcOutputSetVerdict: the verdict, written at close as /verdict */
  PetscBool       has_verdict;
  FcOutputVerdict verdict;
  char            verdict_name[32];
};

/* ----------------------------------------------------------------------------- helpers */

static PetscErrorCode PathJoin(char *out, size_t len, const char *dir, const char *name)
{
  int n;

  PetscFunctionBegin;
  n = snprintf(out, len, "%s/%s", dir, name);
  PetscCheck(n >= 0 && (size_t)n < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Output path too long: %s/%s", dir, name);
  PetscFunctionReturn(0);
}

/* Names become HDF5 link names, file names and XML/JSON text: refuse what cannot be all of
 * these safely instead of mangling it silently. */
static PetscErrorCode CheckName(const char *what, const char *name)
{
  PetscFunctionBegin;
  PetscCheck(name && name[0], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: empty %s name", what);
  PetscCheck(strcmp(name, ".") && strcmp(name, ".."), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: invalid %s name \"%s\"", what, name);
  PetscCheck(strlen(name) < FC_NAME_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: %s name longer than %d characters", what, FC_NAME_LEN - 1);
  for (const char *c = name; *c; c++) PetscCheck(*c != '/' && (unsigned char)*c >= 0x20 && *c != 0x7f, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: %s name \"%s\" contains '/' or a control character", what, name);
  PetscFunctionReturn(0);
}

/* Grow the per-row arrays of a table or of the output-step list to hold `need` rows. */
static PetscErrorCode GrowReal(PetscInt oldcap, PetscInt newcap, PetscInt width, PetscReal **a)
{
  PetscReal *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)newcap * (size_t)width, &b));
  if (*a) PetscCall(PetscArraycpy(b, *a, (size_t)oldcap * (size_t)width));
  PetscCall(PetscFree(*a));
  *a = b;
  PetscFunctionReturn(0);
}

static PetscErrorCode GrowInt(PetscInt oldcap, PetscInt newcap, PetscInt **a)
{
  PetscInt *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)newcap, &b));
  if (*a) PetscCall(PetscArraycpy(b, *a, (size_t)oldcap));
  PetscCall(PetscFree(*a));
  *a = b;
  PetscFunctionReturn(0);
}

static PetscErrorCode GrowInt64(PetscInt oldcap, PetscInt newcap, PetscInt64 **a)
{
  PetscInt64 *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)newcap, &b));
  if (*a) PetscCall(PetscArraycpy(b, *a, (size_t)oldcap));
  PetscCall(PetscFree(*a));
  *a = b;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------ HDF5 writers */

static PetscErrorCode H5CreateGroup(hid_t loc, const char *path, hid_t *group, const char *file)
{
  const char *h5failed = NULL;
  hid_t       lcpl = H5I_INVALID_HID, gcpl = H5I_INVALID_HID;

  PetscFunctionBegin;
  *group = H5I_INVALID_HID;
  /* Intermediate groups (/bodies/<name>/...) are created on the way. */
  FcH5Try(lcpl = H5Pcreate(H5P_LINK_CREATE));
  FcH5Try(H5Pset_create_intermediate_group(lcpl, 1));
  /* Groups that track the creation order of their links are stored in HDF5 1.8's format: links
   * in a fractal heap indexed by a v2 B-tree. A table's group holds one dataset per column, and
   * the original format keeps all link names of a group in one local heap that is rewritten as
   * it grows: a million probe columns took quadratic time. (Readers also list them in the order
   * written.) */
  FcH5Try(gcpl = H5Pcreate(H5P_GROUP_CREATE));
  FcH5Try(H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
  FcH5Try(*group = H5Gcreate2(loc, path, lcpl, gcpl, H5P_DEFAULT));
cleanup:
  if (gcpl >= 0) H5Pclose(gcpl);
  if (lcpl >= 0) H5Pclose(lcpl);
  FcH5Raise(file);
  PetscFunctionReturn(0);
}

/* An n-dimensional dataset written in one go (contiguous; data may be NULL when empty). */
static PetscErrorCode H5WriteArray(hid_t loc, const char *name, hid_t memtype, hid_t filetype, int rank, const hsize_t dims[], const void *data, const char *file)
{
  const char *h5failed = NULL;
  hid_t       space = H5I_INVALID_HID, dset = H5I_INVALID_HID;
  hsize_t     count = 1;

  PetscFunctionBegin;
  for (int i = 0; i < rank; i++) count *= dims[i];
  FcH5Try(space = H5Screate_simple(rank, dims, NULL));
  FcH5Try(dset = H5Dcreate2(loc, name, filetype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (count) FcH5Try(H5Dwrite(dset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  FcH5Try(H5Dclose(dset));
  dset = H5I_INVALID_HID;
cleanup:
  if (dset >= 0) H5Dclose(dset);
  if (space >= 0) H5Sclose(space);
  FcH5Raise(file);
  PetscFunctionReturn(0);
}

/* Variable-length UTF-8 strings: no size limit and no special case for empty text (a
 * fixed-length string type cannot have size 0). n < 0: one scalar string; n >= 0: a 1-D array
 * of n strings. As an attribute of loc (attr) or as a dataset. */
static PetscErrorCode H5WriteStrings(hid_t loc, const char *name, PetscBool attr, PetscInt n, const char *const *values, const char *file)
{
  const char *h5failed = NULL;
  hid_t       type = H5I_INVALID_HID, space = H5I_INVALID_HID, obj = H5I_INVALID_HID;
  hsize_t     dim  = (hsize_t)(n < 0 ? 0 : n);

  PetscFunctionBegin;
  FcH5Try(type = H5Tcopy(H5T_C_S1));
  FcH5Try(H5Tset_size(type, H5T_VARIABLE));
  FcH5Try(H5Tset_cset(type, H5T_CSET_UTF8));
  if (n < 0) FcH5Try(space = H5Screate(H5S_SCALAR));
  else FcH5Try(space = H5Screate_simple(1, &dim, NULL));
  if (attr) {
    FcH5Try(obj = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
    if (n) FcH5Try(H5Awrite(obj, type, values));
    FcH5Try(H5Aclose(obj));
  } else {
    FcH5Try(obj = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (n) FcH5Try(H5Dwrite(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values));
    FcH5Try(H5Dclose(obj));
  }
  obj = H5I_INVALID_HID;
cleanup:
  if (obj >= 0) {
    if (attr) H5Aclose(obj);
    else H5Dclose(obj);
  }
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  FcH5Raise(file);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteString(hid_t loc, const char *name, PetscBool attr, const char *value, const char *file)
{
  const char *v = value ? value : "";

  PetscFunctionBegin;
  PetscCall(H5WriteStrings(loc, name, attr, -1, &v, file));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteScalarAttr(hid_t loc, const char *name, hid_t memtype, hid_t filetype, const void *value, const char *file)
{
  const char *h5failed = NULL;
  hid_t       space = H5I_INVALID_HID, attr = H5I_INVALID_HID;

  PetscFunctionBegin;
  FcH5Try(space = H5Screate(H5S_SCALAR));
  FcH5Try(attr = H5Acreate2(loc, name, filetype, space, H5P_DEFAULT, H5P_DEFAULT));
  FcH5Try(H5Awrite(attr, memtype, value));
  FcH5Try(H5Aclose(attr));
  attr = H5I_INVALID_HID;
cleanup:
  if (attr >= 0) H5Aclose(attr);
  if (space >= 0) H5Sclose(space);
  FcH5Raise(file);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteReals(hid_t loc, const char *name, int rank, const hsize_t dims[], const PetscReal *data, const char *file)
{
  PetscFunctionBegin;
  PetscCall(H5WriteArray(loc, name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, rank, dims, data, file));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteInt64s(hid_t loc, const char *name, int rank, const hsize_t dims[], const PetscInt64 *data, const char *file)
{
  PetscFunctionBegin;
  PetscCall(H5WriteArray(loc, name, H5T_NATIVE_INT64, H5T_STD_I64LE, rank, dims, data, file));
  PetscFunctionReturn(0);
}

/* Body of H5WriteMeta/H5WriteMesh/...: the group handle is closed by the caller on every path. */
static PetscErrorCode H5WriteMetaContents(hid_t g, const FcOutputSpec *spec, const char *file)
{
  const PetscInt64 fmt = FC_OUTPUT_FORMAT_VERSION;

  PetscFunctionBegin;
  PetscCall(H5WriteString(g, "version", PETSC_TRUE, spec->version, file));
  PetscCall(H5WriteString(g, "case_file", PETSC_TRUE, spec->case_file, file));
  PetscCall(H5WriteString(g, "command_line", PETSC_TRUE, spec->command_line, file));
  PetscCall(H5WriteScalarAttr(g, "format_version", H5T_NATIVE_INT64, H5T_STD_I64LE, &fmt, file));
  PetscCall(H5WriteString(g, "case_json", PETSC_FALSE, spec->case_json, file));
  PetscCall(H5WriteString(g, "petsc_options", PETSC_FALSE, spec->petsc_options, file));
  PetscFunctionReturn(0);
}

/* Run a writer on a new group, closing the group whatever happens. */
#define FcH5WithGroup(o, path, g, body) \
  do { \
    PetscErrorCode ierr_g_; \
    herr_t         hrc_g_; \
    PetscCall(H5CreateGroup((o)->h5, (path), &(g), (o)->h5path)); \
    ierr_g_ = (body); \
    hrc_g_  = H5Gclose(g); \
    PetscCall(ierr_g_); \
    FcH5Check(hrc_g_, (o)->h5path); \
  } while (0)

static PetscErrorCode H5WriteMeshContents(hid_t g, const FcOutputMesh *m, const char *file)
{
  PetscInt64    *cells = NULL;
  hsize_t        dims[2];
  const char    *etype = m->npe == 4 ? "tet4" : "tet10";
  PetscErrorCode ierr;
  hid_t          dset;

  PetscFunctionBegin;
  dims[0] = (hsize_t)m->nnodes;
  dims[1] = 3;
  PetscCall(H5WriteReals(g, "X", 2, dims, m->X, file));
  PetscCall(PetscMalloc1((size_t)m->nelems * (size_t)m->npe, &cells));
  ierr = FcOutputCellsToVTK(m->nelems, m->npe, m->conn, cells);
  if (!ierr) {
    dims[0] = (hsize_t)m->nelems;
    dims[1] = (hsize_t)m->npe;
    ierr    = H5WriteInt64s(g, "cells", 2, dims, cells, file);
  }
  PetscCall(PetscFree(cells));
  PetscCall(ierr);
  /* element_type on the mesh group and on the cells dataset: readers find it with either. */
  PetscCall(H5WriteString(g, "element_type", PETSC_TRUE, etype, file));
  FcH5Check(dset = H5Dopen2(g, "cells", H5P_DEFAULT), file);
  ierr = H5WriteString(dset, "element_type", PETSC_TRUE, etype, file);
  FcH5Check(H5Dclose(dset), file);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteFieldsContents(hid_t g, const FcOutputMesh *m, const FcOutputFields *f, PetscInt64 step, PetscReal time, const char *file)
{
  hsize_t dims[2];

  PetscFunctionBegin;
  dims[0] = (hsize_t)m->nnodes;
  dims[1] = 3;
  PetscCall(H5WriteReals(g, "displacement", 2, dims, f->u, file));
  PetscCall(H5WriteReals(g, "velocity", 2, dims, f->v, file));
  dims[0] = (hsize_t)m->nelems;
  PetscCall(H5WriteReals(g, "von_mises", 1, dims, f->vm, file));
  PetscCall(H5WriteScalarAttr(g, "time", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &time, file));
  PetscCall(H5WriteScalarAttr(g, "step", H5T_NATIVE_INT64, H5T_STD_I64LE, &step, file));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteContactsContents(hid_t g, const FcOutputContacts *c, const PetscReal *force, PetscInt64 step, PetscReal time, const char *file)
{
  PetscInt64    *ibuf = NULL;
  hsize_t        dims[2];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* m = 0 gives empty (0, 3) and (0,) datasets: the group looks the same at every step. */
  dims[0] = (hsize_t)c->m;
  dims[1] = 3;
  PetscCall(H5WriteReals(g, "x", 2, dims, c->x, file));
  PetscCall(H5WriteReals(g, "normal", 2, dims, c->normal, file));
  PetscCall(H5WriteReals(g, "t1", 2, dims, c->t1, file));
  PetscCall(H5WriteReals(g, "t2", 2, dims, c->t2, file));
  PetscCall(H5WriteReals(g, "force", 2, dims, force, file));
  PetscCall(H5WriteReals(g, "r_local", 2, dims, c->r, file));
  PetscCall(H5WriteReals(g, "gap", 1, dims, c->gap, file));
  PetscCall(PetscMalloc1((size_t)PetscMax(c->m, 1), &ibuf));
  for (PetscInt i = 0; i < c->m; i++) ibuf[i] = (PetscInt64)c->status[i];
  ierr = H5WriteInt64s(g, "status", 1, dims, ibuf, file);
  for (PetscInt i = 0; i < c->m && !ierr; i++) ibuf[i] = (PetscInt64)c->pair[i];
  if (!ierr) ierr = H5WriteInt64s(g, "pair", 1, dims, ibuf, file);
  PetscCall(PetscFree(ibuf));
  PetscCall(ierr);
  PetscCall(H5WriteScalarAttr(g, "time", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &time, file));
  PetscCall(H5WriteScalarAttr(g, "step", H5T_NATIVE_INT64, H5T_STD_I64LE, &step, file));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteTableContents(hid_t g, const FcTable *t, const char *file)
{
  PetscReal     *col = NULL;
  hsize_t        dim = (hsize_t)t->nrows;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(H5WriteInt64s(g, "step", 1, &dim, t->step, file));
  PetscCall(H5WriteReals(g, "time", 1, &dim, t->time, file));
  /* Datasets are listed alphabetically by HDF5 tools: keep the CSV column order as well, in a
   * dataset (an attribute is limited to 64 KB of object header: about a thousand names). */
  PetscCall(H5WriteStrings(g, "columns", PETSC_FALSE, t->ncols, (const char *const *)t->cols, file));
  PetscCall(PetscMalloc1((size_t)PetscMax(t->nrows, 1), &col));
  for (PetscInt c = 0; c < t->ncols && !ierr; c++) {
    for (PetscInt r = 0; r < t->nrows; r++) col[r] = t->values[r * t->ncols + c];
    ierr = H5WriteReals(g, t->cols[c], 1, &dim, col, file);
  }
  PetscCall(PetscFree(col));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteOutputContents(hid_t g, FcOutput o)
{
  hsize_t dim = (hsize_t)o->nout;

  PetscFunctionBegin;
  PetscCall(H5WriteReals(g, "time", 1, &dim, o->outtime, o->h5path));
  PetscCall(H5WriteInt64s(g, "step", 1, &dim, o->outstep, o->h5path));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Open(FcOutput o, const FcOutputSpec *spec)
{
  const char *h5failed = NULL;
  hid_t       fapl     = H5I_INVALID_HID, g;
  char        path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PathJoin(o->h5path, sizeof o->h5path, o->dir, "run.h5"));
  /* Serial file access even in the OpenMPI build of HDF5: one process writes. STRONG close
   * degree: closing the file also closes anything an error path might have left open. */
  FcH5Try(fapl = H5Pcreate(H5P_FILE_ACCESS));
  FcH5Try(H5Pset_fapl_sec2(fapl));
  FcH5Try(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG));
  FcH5Try(o->h5 = H5Fcreate(o->h5path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
cleanup:
  if (fapl >= 0) H5Pclose(fapl);
  FcH5Raise(o->h5path);

  FcH5WithGroup(o, "/fcsim", g, H5WriteMetaContents(g, spec, o->h5path));
  for (PetscInt b = 0; b < o->nbodies; b++) {
    PetscCall(PetscSNPrintf(path, sizeof path, "/bodies/%s/mesh", o->meshes[b].name));
    FcH5WithGroup(o, path, g, H5WriteMeshContents(g, &o->meshes[b], o->h5path));
  }
  FcH5Check(H5Fflush(o->h5, H5F_SCOPE_LOCAL), o->h5path);
  PetscFunctionReturn(0);
}

/* --------------------------------------------------------------------------------- CSV */

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

static PetscErrorCode CSVFlush(FcTable *t)
{
  PetscFunctionBegin;
  /* Flushed per row so that a long run can be watched (tail -f, plotting while running). */
  PetscCheck(fflush(t->fp) == 0 && !ferror(t->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s: %s", t->csv, strerror(errno));
  PetscFunctionReturn(0);
}

static PetscErrorCode TableOpen(FcOutput o, FcTable *t, const char *name, PetscInt ncols, const char *const *cols)
{
  char fname[64];

  PetscFunctionBegin;
  t->name  = name;
  t->ncols = ncols;
  PetscCall(PetscCalloc1((size_t)PetscMax(ncols, 1), &t->cols));
  for (PetscInt c = 0; c < ncols; c++) PetscCall(PetscStrallocpy(cols[c], &t->cols[c]));
  PetscCall(PetscSNPrintf(fname, sizeof fname, "%s.csv", name));
  PetscCall(PathJoin(t->csv, sizeof t->csv, o->dir, fname));
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

static PetscErrorCode TableAppend(FcOutput o, FcTable *t, PetscInt step, PetscReal time, const PetscReal *values)
{
  PetscFunctionBegin;
  PetscCheck(t->fp, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Output: %s table is not open", t->name);
  PetscCheck(values || !t->ncols, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: NULL %s values", t->name);
  fprintf(t->fp, "%" PetscInt_FMT ",%.17g", step, (double)time);
  for (PetscInt c = 0; c < t->ncols; c++) fprintf(t->fp, ",%.17g", (double)values[c]);
  fputc('\n', t->fp);
  PetscCall(CSVFlush(t));
  if (!o->keep_rows) PetscFunctionReturn(0);
  if (t->nrows == t->cap) {
    PetscInt cap = PetscMax(64, 2 * t->cap);
    PetscCall(GrowInt64(t->cap, cap, &t->step));
    PetscCall(GrowReal(t->cap, cap, 1, &t->time));
    PetscCall(GrowReal(t->cap, cap, PetscMax(t->ncols, 1), &t->values));
    t->cap = cap;
  }
  t->step[t->nrows] = step;
  t->time[t->nrows] = time;
  if (t->ncols) PetscCall(PetscArraycpy(&t->values[t->nrows * t->ncols], values, (size_t)t->ncols));
  t->nrows++;
  PetscFunctionReturn(0);
}

/* Frees the table; returns nonzero if closing the CSV failed (its last data may be lost). */
static PetscErrorCode TableDestroy(FcTable *t, PetscBool *write_failed)
{
  PetscFunctionBegin;
  if (t->fp && fclose(t->fp) != 0) *write_failed = PETSC_TRUE;
  t->fp = NULL;
  for (PetscInt c = 0; c < t->ncols && t->cols; c++) PetscCall(PetscFree(t->cols[c]));
  PetscCall(PetscFree(t->cols));
  PetscCall(PetscFree(t->step));
  PetscCall(PetscFree(t->time));
  PetscCall(PetscFree(t->values));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------- VTK series, XDMF */

static void JSONPutString(FILE *fp, const char *s)
{
  fputc('"', fp);
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '"' || *c == '\\') fprintf(fp, "\\%c", *c);
    else if (*c < 0x20) fprintf(fp, "\\u%04x", *c);
    else fputc(*c, fp);
  }
  fputc('"', fp);
}

/* Lists <base>_<k>.vtk for the n output steps ks[] (NULL: k = 0..n-1). */
static PetscErrorCode SeriesContents(FILE *fp, FcOutput o, const char *base, PetscInt n, const PetscInt *ks, const char *path)
{
  char name[FC_NAME_LEN + 32];

  PetscFunctionBegin;
  fputs("{\n  \"file-series-version\": \"1.0\",\n  \"files\": [", fp);
  for (PetscInt i = 0; i < n; i++) {
    PetscInt k = ks ? ks[i] : i;

    PetscCall(PetscSNPrintf(name, sizeof name, "%s_%06" PetscInt_FMT ".vtk", base, k));
    fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", fp);
    JSONPutString(fp, name);
    fprintf(fp, ", \"time\": %.17g}", (double)o->outtime[k]);
  }
  fputs(n ? "\n  ]\n}\n" : "]\n}\n", fp);
  PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", path);
  PetscFunctionReturn(0);
}

/* ParaView's JSON index of the VTK files of a body (b >= 0) or of the contacts (b < 0). Written
 * to a temporary name and renamed, so a ParaView session watching the run never reads half a
 * file. */
static PetscErrorCode SeriesWrite(FcOutput o, PetscInt b)
{
  const char    *base = b < 0 ? "contacts" : o->meshes[b].name;
  char           path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN], name[FC_NAME_LEN + 32];
  FILE          *fp;
  PetscErrorCode ierr;
  int            rc;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof name, "vtk/%s.vtk.series", base));
  PetscCall(PathJoin(path, sizeof path, o->dir, name));
  PetscCall(PetscSNPrintf(name, sizeof name, "vtk/.%s.vtk.series.tmp", base));
  PetscCall(PathJoin(tmp, sizeof tmp, o->dir, name));
  fp = fopen(tmp, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", tmp, strerror(errno));
  ierr = b < 0 ? SeriesContents(fp, o, base, o->ncon, o->conk, path) : SeriesContents(fp, o, base, o->nout, NULL, path);
  rc   = fclose(fp);
  if (ierr || rc) remove(tmp);
  PetscCall(ierr);
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", tmp);
  if (rename(tmp, path)) {
    remove(tmp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename %s to %s: %s", tmp, path, strerror(errno));
  }
  PetscFunctionReturn(0);
}

static void XMLPutString(FILE *fp, const char *s)
{
  for (const char *c = s; *c; c++) {
    switch (*c) {
    case '&':
      fputs("&amp;", fp);
      break;
    case '<':
      fputs("&lt;", fp);
      break;
    case '>':
      fputs("&gt;", fp);
      break;
    case '"':
      fputs("&quot;", fp);
      break;
    case '\'':
      fputs("&apos;", fp);
      break;
    default:
      fputc(*c, fp);
    }
  }
}

/* <DataItem> referencing a run.h5 dataset; dims has 1 or 2 entries (dim1 = 0: 1-D). */
static void XMLPutDataItem(FILE *fp, const char *indent, PetscInt dim0, PetscInt dim1, PetscBool isint, const char *body, const char *what)
{
  fprintf(fp, "%s<DataItem Dimensions=\"%" PetscInt_FMT, indent, dim0);
  if (dim1) fprintf(fp, " %" PetscInt_FMT, dim1);
  fprintf(fp, "\" NumberType=\"%s\" Precision=\"8\" Format=\"HDF\">run.h5:/bodies/", isint ? "Int" : "Float");
  XMLPutString(fp, body);
  fprintf(fp, "/%s</DataItem>\n", what);
}

static void XMLPutMesh(FILE *fp, const char *ind, const FcOutputMesh *m)
{
  char in2[64];

  snprintf(in2, sizeof in2, "%s  ", ind);
  fprintf(fp, "%s<Topology TopologyType=\"%s\" NumberOfElements=\"%" PetscInt_FMT "\">\n", ind, m->npe == 4 ? "Tetrahedron" : "Tetrahedron_10", m->nelems);
  XMLPutDataItem(fp, in2, m->nelems, m->npe, PETSC_TRUE, m->name, "mesh/cells");
  fprintf(fp, "%s</Topology>\n%s<Geometry GeometryType=\"XYZ\">\n", ind, ind);
  XMLPutDataItem(fp, in2, m->nnodes, 3, PETSC_FALSE, m->name, "mesh/X");
  fprintf(fp, "%s</Geometry>\n", ind);
}

/* <DataItem> referencing run.h5:/contacts/<k>/<what> (dim1 = 0: 1-D). */
static void XMLPutContactItem(FILE *fp, const char *indent, PetscInt dim0, PetscInt dim1, PetscBool isint, PetscInt k, const char *what)
{
  fprintf(fp, "%s<DataItem Dimensions=\"%" PetscInt_FMT, indent, dim0);
  if (dim1) fprintf(fp, " %" PetscInt_FMT, dim1);
  fprintf(fp, "\" NumberType=\"%s\" Precision=\"8\" Format=\"HDF\">run.h5:/contacts/%06" PetscInt_FMT "/%s</DataItem>\n", isint ? "Int" : "Float", k, what);
}

/* The "contacts" grid: a temporal collection of point clouds, one Polyvertex grid per contacts
 * call, a vertex per contact point. The connectivity 0 1 ... m-1 is written inline: without it
 * ParaView's Xdmf3 readers make points but no cells (nothing to see in the Surface
 * representation). A step without contact has no connectivity item (an empty inline item aborts
 * the Xdmf3 reader; an empty grid referencing the empty (0, 3) datasets reads fine), so the
 * collection keeps one grid per step and the contacts disappear at times without contact. */
static void XDMFContacts(FILE *fp, FcOutput o)
{
  static const struct {
    const char *name, *type;
    PetscBool   vector, isint;
  } attrs[] = {
    {"force",   "Vector", PETSC_TRUE,  PETSC_FALSE},
    {"normal",  "Vector", PETSC_TRUE,  PETSC_FALSE},
    {"r_local", "Vector", PETSC_TRUE,  PETSC_FALSE},
    {"gap",     "Scalar", PETSC_FALSE, PETSC_FALSE},
    {"status",  "Scalar", PETSC_FALSE, PETSC_TRUE },
    {"pair",    "Scalar", PETSC_FALSE, PETSC_TRUE },
  };

  if (!o->ncon) return;
  fputs("    <Grid Name=\"contacts\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", fp);
  for (PetscInt i = 0; i < o->ncon; i++) {
    PetscInt k = o->conk[i], m = o->conm[i];

    fprintf(fp, "      <Grid Name=\"contacts_%06" PetscInt_FMT "\" GridType=\"Uniform\">\n", k);
    fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)o->outtime[k]);
    fprintf(fp, "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%" PetscInt_FMT "\" NodesPerElement=\"1\"", m);
    if (m) {
      fprintf(fp, ">\n          <DataItem Dimensions=\"%" PetscInt_FMT "\" NumberType=\"Int\" Precision=\"8\" Format=\"XML\">", m);
      for (PetscInt j = 0; j < m; j++) fprintf(fp, j ? " %" PetscInt_FMT : "%" PetscInt_FMT, j);
      fputs("</DataItem>\n        </Topology>\n", fp);
    } else fputs("/>\n", fp);
    fputs("        <Geometry GeometryType=\"XYZ\">\n", fp);
    XMLPutContactItem(fp, "          ", m, 3, PETSC_FALSE, k, "x");
    fputs("        </Geometry>\n", fp);
    for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++) {
      fprintf(fp, "        <Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"Node\">\n", attrs[a].name, attrs[a].type);
      XMLPutContactItem(fp, "          ", m, attrs[a].vector ? 3 : 0, attrs[a].isint, k, attrs[a].name);
      fputs("        </Attribute>\n", fp);
    }
    fputs("      </Grid>\n", fp);
  }
  fputs("    </Grid>\n", fp);
}

static PetscErrorCode XDMFContents(FILE *fp, FcOutput o, const char *path)
{
  char what[64];

  PetscFunctionBegin;
  fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n", fp);
  fputs("<Xdmf xmlns:xi=\"http://www.w3.org/2001/XInclude\" Version=\"3.0\">\n  <Domain>\n", fp);
  for (PetscInt b = 0; b < o->nbodies; b++) {
    const FcOutputMesh *m = &o->meshes[b];

    if (!o->nout) {
      /* No output step: an empty temporal collection confuses readers, show the mesh alone. */
      fputs("    <Grid Name=\"", fp);
      XMLPutString(fp, m->name);
      fputs("\" GridType=\"Uniform\">\n", fp);
      XMLPutMesh(fp, "      ", m);
      fputs("    </Grid>\n", fp);
      continue;
    }
    fputs("    <Grid Name=\"", fp);
    XMLPutString(fp, m->name);
    fputs("\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", fp);
    for (PetscInt k = 0; k < o->nout; k++) {
      fputs("      <Grid Name=\"", fp);
      XMLPutString(fp, m->name);
      fprintf(fp, "_%06" PetscInt_FMT "\" GridType=\"Uniform\">\n", k);
      fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)o->outtime[k]);
      /* Every step references the same mesh datasets: the mesh is stored once. */
      XMLPutMesh(fp, "        ", m);
      PetscCall(PetscSNPrintf(what, sizeof what, "fields/%06" PetscInt_FMT "/displacement", k));
      fputs("        <Attribute Name=\"displacement\" AttributeType=\"Vector\" Center=\"Node\">\n", fp);
      XMLPutDataItem(fp, "          ", m->nnodes, 3, PETSC_FALSE, m->name, what);
      PetscCall(PetscSNPrintf(what, sizeof what, "fields/%06" PetscInt_FMT "/velocity", k));
      fputs("        </Attribute>\n        <Attribute Name=\"velocity\" AttributeType=\"Vector\" Center=\"Node\">\n", fp);
      XMLPutDataItem(fp, "          ", m->nnodes, 3, PETSC_FALSE, m->name, what);
      PetscCall(PetscSNPrintf(what, sizeof what, "fields/%06" PetscInt_FMT "/von_mises", k));
      fputs("        </Attribute>\n        <Attribute Name=\"von_mises\" AttributeType=\"Scalar\" Center=\"Cell\">\n", fp);
      XMLPutDataItem(fp, "          ", m->nelems, 0, PETSC_FALSE, m->name, what);
      fputs("        </Attribute>\n      </Grid>\n", fp);
    }
    fputs("    </Grid>\n", fp);
  }
  XDMFContacts(fp, o);
  fputs("  </Domain>\n</Xdmf>\n", fp);
  PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", path);
  PetscFunctionReturn(0);
}

static PetscErrorCode XDMFWrite(FcOutput o)
{
  char           path[PETSC_MAX_PATH_LEN];
  FILE          *fp;
  PetscErrorCode ierr;
  int            rc;

  PetscFunctionBegin;
  PetscCall(PathJoin(path, sizeof path, o->dir, "run.xdmf"));
  fp = fopen(path, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", path, strerror(errno));
  ierr = XDMFContents(fp, o, path);
  rc   = fclose(fp);
  PetscCall(ierr);
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", path);
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------- public API */

/* Frees everything, then returns an error if closing a file failed (its last data may be
 * missing): freeing first keeps failures leak-free. */
static PetscErrorCode FcOutputDestroy_Private(FcOutput *out, PetscBool report)
{
  FcOutput  o = *out;
  PetscBool csv_failed = PETSC_FALSE;
  herr_t    h5rc = 0;
  char      h5path[PETSC_MAX_PATH_LEN], dir[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  if (!o) PetscFunctionReturn(0);
  *out = NULL;
  PetscCall(PetscStrncpy(h5path, o->h5path, sizeof h5path));
  PetscCall(PetscStrncpy(dir, o->dir, sizeof dir));
  if (o->h5 >= 0) h5rc = H5Fclose(o->h5);
  PetscCall(TableDestroy(&o->probes, &csv_failed));
  PetscCall(TableDestroy(&o->stats, &csv_failed));
  for (PetscInt b = 0; b < o->nbodies && o->meshes; b++) {
    PetscCall(PetscFree(o->meshes[b].name));
    PetscCall(PetscFree(o->meshes[b].X));
    PetscCall(PetscFree(o->meshes[b].conn));
  }
  PetscCall(PetscFree(o->meshes));
  PetscCall(PetscFree(o->outstep));
  PetscCall(PetscFree(o->outtime));
  PetscCall(PetscFree(o->conk));
  PetscCall(PetscFree(o->conm));
  PetscCall(PetscFree(o));
  if (h5rc < 0) h5unusable = PETSC_TRUE;
  if (!report) PetscFunctionReturn(0); /* an error is on its way up already: one line only */
  PetscCheck(h5rc >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: H5Fclose failed: %s", h5path, H5Reason());
  PetscCheck(!csv_failed, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing probes.csv or stats.csv in %s (a full disk or a file-size limit?)", dir);
  PetscFunctionReturn(0);
}

static int StrPtrCmp(const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static PetscErrorCode CheckSpec(const FcOutputSpec *spec)
{
  PetscFunctionBegin;
  PetscCheck(spec->dir && spec->dir[0], PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no directory");
  PetscCheck(spec->nbodies >= 0 && (spec->meshes || !spec->nbodies), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no meshes");
  for (PetscInt b = 0; b < spec->nbodies; b++) {
    const FcOutputMesh *m = &spec->meshes[b];

    PetscCall(CheckName("body", m->name));
    for (PetscInt c = 0; c < b; c++) PetscCheck(strcmp(m->name, spec->meshes[c].name), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: duplicate body name \"%s\"", m->name);
    PetscCheck(m->npe == 4 || m->npe == 10, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Output: body %s: unsupported nodes per element %" PetscInt_FMT " (4 or 10)", m->name, m->npe);
    PetscCheck(m->nnodes > 0 && m->nelems > 0 && m->X && m->conn, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: body %s: empty mesh", m->name);
    /* A bad index would produce files that look fine but crash or mislead viewers. */
    for (PetscInt i = 0; i < m->nelems * m->npe; i++) PetscCheck(m->conn[i] >= 0 && m->conn[i] < m->nnodes, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Output: body %s: node index %" PetscInt_FMT " out of range", m->name, m->conn[i]);
  }
  PetscCheck(spec->nprobe_cols >= 0 && (spec->probe_cols || !spec->nprobe_cols), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no probe columns");
  PetscCheck(spec->nstat_cols >= 0 && (spec->stat_cols || !spec->nstat_cols), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no stat columns");
  for (int tab = 0; tab < 2; tab++) {
    PetscInt           n    = tab ? spec->nstat_cols : spec->nprobe_cols;
    const char *const *cols = tab ? spec->stat_cols : spec->probe_cols;
    const char        *what = tab ? "stat column" : "probe column";

    const char **sorted;

    for (PetscInt c = 0; c < n; c++) {
      PetscCall(CheckName(what, cols[c]));
      PetscCheck(strcmp(cols[c], "step") && strcmp(cols[c], "time") && strcmp(cols[c], "columns"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: %s name \"%s\" is reserved", what, cols[c]);
    }
    /* duplicates by sorting, O(n log n): a case may have a million probe columns */
    PetscCall(PetscMalloc1(n + 1, &sorted));
    for (PetscInt c = 0; c < n; c++) sorted[c] = cols[c];
    qsort(sorted, (size_t)n, sizeof *sorted, StrPtrCmp);
    for (PetscInt c = 1; c < n; c++)
      if (!strcmp(sorted[c], sorted[c - 1])) {
        const char *dup = sorted[c];
        PetscCall(PetscFree(sorted));
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: duplicate %s \"%s\"", what, dup);
      }
    PetscCall(PetscFree(sorted));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcOutputOpen_Private(const FcOutputSpec *spec, FcOutput o)
{
  struct stat st;
  char        vtkdir[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCheck(strlen(spec->dir) < sizeof o->dir, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Output directory name too long: %s", spec->dir);
  PetscCall(PetscStrncpy(o->dir, spec->dir, sizeof o->dir));
  PetscCheck(stat(o->dir, &st) == 0 && S_ISDIR(st.st_mode), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Output directory %s does not exist or is not a directory", o->dir);

  PetscCall(PetscCalloc1((size_t)PetscMax(spec->nbodies, 1), &o->meshes));
  o->nbodies = spec->nbodies;
  for (PetscInt b = 0; b < spec->nbodies; b++) {
    const FcOutputMesh *m = &spec->meshes[b];
    FcOutputMesh       *c = &o->meshes[b];
    char               *name;
    PetscReal          *X;
    PetscInt           *conn;

    /* Own copies: the caller may free its mesh before close, and VTK needs it every step. */
    PetscCall(PetscStrallocpy(m->name, &name));
    c->name = name;
    PetscCall(PetscMalloc1((size_t)m->nnodes * 3, &X));
    c->X = X;
    PetscCall(PetscArraycpy(X, m->X, (size_t)m->nnodes * 3));
    PetscCall(PetscMalloc1((size_t)m->nelems * (size_t)m->npe, &conn));
    c->conn = conn;
    PetscCall(PetscArraycpy(conn, m->conn, (size_t)m->nelems * (size_t)m->npe));
    c->nnodes = m->nnodes;
    c->nelems = m->nelems;
    c->npe    = m->npe;
  }

  if (o->hdf5) PetscCall(H5Open(o, spec));
  if (o->vtk) {
    PetscCall(PathJoin(vtkdir, sizeof vtkdir, o->dir, "vtk"));
    PetscCheck(mkdir(vtkdir, 0777) == 0 || (errno == EEXIST && stat(vtkdir, &st) == 0 && S_ISDIR(st.st_mode)), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create directory %s: %s", vtkdir, strerror(errno));
  }
  PetscCall(TableOpen(o, &o->probes, "probes", spec->nprobe_cols, spec->probe_cols));
  PetscCall(TableOpen(o, &o->stats, "stats", spec->nstat_cols, spec->stat_cols));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputOpen(const FcOutputSpec *spec, FcOutput *out)
{
  FcOutput       o;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(spec && out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputOpen: NULL argument");
  *out = NULL;
  PetscCall(CheckSpec(spec));
  /* fcsim reports HDF5 failures as PETSc errors naming the file: HDF5's own error-stack dump
   * on stderr would be duplicate noise (also when the reader of run.h5 probes for objects). */
  if (spec->hdf5) FcH5Check(H5Eset_auto2(H5E_DEFAULT, NULL, NULL), "run.h5");

  PetscCall(PetscNew(&o));
  o->h5         = H5I_INVALID_HID;
  o->hdf5       = spec->hdf5;
  o->vtk        = spec->vtk;
  o->vtk_binary = spec->vtk_binary;
  o->keep_rows  = spec->hdf5; /* rows are only needed for the HDF5 tables */
  ierr          = FcOutputOpen_Private(spec, o);
  if (ierr) {
    /* The error was reported where it happened; release what was opened, then propagate. */
    PetscCall(FcOutputDestroy_Private(&o, PETSC_FALSE));
    PetscCall(ierr);
  }
  *out = o;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputGetNumOutputSteps(FcOutput out, PetscInt *nout)
{
  PetscFunctionBegin;
  PetscCheck(out && nout, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputGetNumOutputSteps: NULL argument");
  *nout = out->nout;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteFields(FcOutput o, PetscInt step, PetscReal time, const FcOutputFields *fields)
{
  char    path[PETSC_MAX_PATH_LEN], name[FC_NAME_LEN + 32];
  PetscInt k;
  hid_t    g;

  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteFields: NULL output");
  PetscCheck(fields || !o->nbodies, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteFields: NULL fields");
  /* The time goes into JSON (.vtk.series) and XML, where NaN/Inf are not numbers. */
  PetscCheck(!PetscIsInfOrNanReal(time), PETSC_COMM_SELF, PETSC_ERR_FP, "FcOutputWriteFields: time is not finite");
  for (PetscInt b = 0; b < o->nbodies; b++) PetscCheck(fields[b].u && fields[b].v && fields[b].vm, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteFields: body %s: NULL field array", o->meshes[b].name);
  k = o->nout;
  if (o->hdf5) {
    for (PetscInt b = 0; b < o->nbodies; b++) {
      PetscCall(PetscSNPrintf(path, sizeof path, "/bodies/%s/fields/%06" PetscInt_FMT, o->meshes[b].name, k));
      FcH5WithGroup(o, path, g, H5WriteFieldsContents(g, &o->meshes[b], &fields[b], (PetscInt64)step, time, o->h5path));
    }
    /* Data of finished steps reaches the disk even if the run dies later. */
    FcH5Check(H5Fflush(o->h5, H5F_SCOPE_LOCAL), o->h5path);
  }
  if (o->vtk) {
    for (PetscInt b = 0; b < o->nbodies; b++) {
      PetscCall(PetscSNPrintf(name, sizeof name, "vtk/%s_%06" PetscInt_FMT ".vtk", o->meshes[b].name, k));
      PetscCall(PathJoin(path, sizeof path, o->dir, name));
      PetscCall(FcVTKWriteBody(path, o->vtk_binary, &o->meshes[b], &fields[b], time));
    }
  }
  if (o->nout == o->outcap) {
    PetscInt cap = PetscMax(16, 2 * o->outcap);
    PetscCall(GrowInt64(o->outcap, cap, &o->outstep));
    PetscCall(GrowReal(o->outcap, cap, 1, &o->outtime));
    o->outcap = cap;
  }
  o->outstep[o->nout] = step;
  o->outtime[o->nout] = time;
  o->nout++;
  /* The series is kept current so that ParaView can follow a running simulation. Each rewrite
   * costs O(nout): past 1000 output steps only every 100th is rewritten (close always is). */
  if (o->vtk && (o->nout <= 1000 || o->nout % 100 == 0))
    for (PetscInt b = 0; b < o->nbodies; b++) PetscCall(SeriesWrite(o, b));
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckContacts(FcOutput o, PetscInt step, PetscReal time, const FcOutputContacts *c)
{
  PetscInt k;

  PetscFunctionBegin;
  PetscCheck(o && c, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteContacts: NULL argument");
  PetscCheck(c->m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcOutputWriteContacts: negative number of contacts %" PetscInt_FMT, c->m);
  PetscCheck(!c->m || (c->x && c->normal && c->t1 && c->t2 && c->r && c->gap && c->status && c->pair), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteContacts: NULL contact array");
  /* Contacts belong to the output step just written: same k as the fields, hence same time. */
  PetscCheck(o->nout > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputWriteContacts: no output step yet (call FcOutputWriteFields first)");
  k = o->nout - 1;
  PetscCheck(step == o->outstep[k] && time == o->outtime[k], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FcOutputWriteContacts: step %" PetscInt_FMT " time %g is not the last output step (step %" PetscInt64_FMT " time %g)", step, (double)time, o->outstep[k], (double)o->outtime[k]);
  PetscCheck(!o->ncon || o->conk[o->ncon - 1] < k, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputWriteContacts: contacts of output step %" PetscInt_FMT " already written", k);
  /* vtk/contacts_<k>.vtk, contacts.vtk.series and the XDMF grid "contacts" would collide. */
  if (o->hdf5 || o->vtk)
    for (PetscInt b = 0; b < o->nbodies; b++) PetscCheck(strcmp(o->meshes[b].name, "contacts"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FcOutputWriteContacts: a body is named \"contacts\", the name of the contact output");
  for (PetscInt i = 0; i < c->m; i++) {
    PetscCheck(c->status[i] >= FC_CONTACT_SEPARATED && c->status[i] <= FC_CONTACT_SLIP, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcOutputWriteContacts: contact %" PetscInt_FMT ": status %" PetscInt_FMT " (0 separated, 1 stick, 2 slip)", i, c->status[i]);
    PetscCheck(c->pair[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcOutputWriteContacts: contact %" PetscInt_FMT ": negative pair index %" PetscInt_FMT, i, c->pair[i]);
  }
  PetscFunctionReturn(0);
}

/* /contacts/<k>, flushed like the fields; force is a 3m work array. */
static PetscErrorCode H5WriteContacts(FcOutput o, PetscInt k, PetscInt step, PetscReal time, const FcOutputContacts *c, PetscReal *force)
{
  char  path[64];
  hid_t g;

  PetscFunctionBegin;
  PetscCall(FcOutputContactForces(c, force));
  PetscCall(PetscSNPrintf(path, sizeof path, "/contacts/%06" PetscInt_FMT, k));
  FcH5WithGroup(o, path, g, H5WriteContactsContents(g, c, force, (PetscInt64)step, time, o->h5path));
  FcH5Check(H5Fflush(o->h5, H5F_SCOPE_LOCAL), o->h5path);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteContacts(FcOutput o, PetscInt step, PetscReal time, const FcOutputContacts *c)
{
  char           path[PETSC_MAX_PATH_LEN], name[64];
  PetscReal     *force = NULL;
  PetscErrorCode ierr;
  PetscInt       k;

  PetscFunctionBegin;
  PetscCall(CheckContacts(o, step, time, c));
  k = o->nout - 1;
  if (o->hdf5) {
    PetscCall(PetscMalloc1(3 * (size_t)PetscMax(c->m, 1), &force));
    ierr = H5WriteContacts(o, k, step, time, c, force);
    PetscCall(PetscFree(force));
    PetscCall(ierr);
  }
  if (o->vtk) {
    PetscCall(PetscSNPrintf(name, sizeof name, "vtk/contacts_%06" PetscInt_FMT ".vtk", k));
    PetscCall(PathJoin(path, sizeof path, o->dir, name));
    PetscCall(FcVTKWriteContacts(path, o->vtk_binary, c, time));
  }
  if (o->ncon == o->concap) {
    PetscInt cap = PetscMax(16, 2 * o->concap);
    PetscCall(GrowInt(o->concap, cap, &o->conk));
    PetscCall(GrowInt(o->concap, cap, &o->conm));
    o->concap = cap;
  }
  o->conk[o->ncon] = k;
  o->conm[o->ncon] = c->m;
  o->ncon++;
  /* Kept current like the bodies' series (same rewrite policy). */
  if (o->vtk && (o->ncon <= 1000 || o->ncon % 100 == 0)) PetscCall(SeriesWrite(o, -1));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteProbes(FcOutput o, PetscInt step, PetscReal time, const PetscReal *values)
{
  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteProbes: NULL output");
  PetscCall(TableAppend(o, &o->probes, step, time, values));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteStats(FcOutput o, PetscInt step, PetscReal time, const PetscReal *values)
{
  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteStats: NULL output");
  PetscCall(TableAppend(o, &o->stats, step, time, values));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputSetVerdict(FcOutput o, const FcOutputVerdict *v)
{
  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputSetVerdict: NULL output");
  PetscCheck(!o->has_verdict, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputSetVerdict: the verdict is already set");
  PetscCheck(v->verdict && strlen(v->verdict) < sizeof o->verdict_name, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FcOutputSetVerdict: missing or too long verdict name");
  o->verdict = *v;
  PetscCall(PetscStrncpy(o->verdict_name, v->verdict, sizeof o->verdict_name));
  o->verdict.verdict = o->verdict_name;
  o->has_verdict     = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* /verdict: the verdict as a string attribute, its numbers as scalar attributes. */
static PetscErrorCode H5WriteVerdictContents(hid_t g, const FcOutputVerdict *v, const char *file)
{
  const struct {
    const char *name;
    PetscReal   value;
  } num[] = {
    {"collapse_time", v->collapse_time}, {"rise", v->rise}, {"mgh", v->mgh}, {"after", v->after}, {"t_last", v->t_last},
    {"drop_last", v->drop_last}, {"max_drop", v->max_drop}, {"max_abs_drop_after", v->max_abs_drop_after}, {"max_energy_after", v->max_energy_after},
  };

  PetscFunctionBegin;
  PetscCall(H5WriteString(g, "verdict", PETSC_TRUE, v->verdict, file));
  for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) PetscCall(H5WriteScalarAttr(g, num[i].name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &num[i].value, file));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcOutputFinish_Private(FcOutput o)
{
  hid_t    g;
  herr_t   rc;

  PetscFunctionBegin;
  if (o->hdf5) {
    FcH5WithGroup(o, "/output", g, H5WriteOutputContents(g, o));
    FcH5WithGroup(o, "/probes", g, H5WriteTableContents(g, &o->probes, o->h5path));
    FcH5WithGroup(o, "/stats", g, H5WriteTableContents(g, &o->stats, o->h5path));
    if (o->has_verdict) FcH5WithGroup(o, "/verdict", g, H5WriteVerdictContents(g, &o->verdict, o->h5path));
    rc    = H5Fclose(o->h5);
    o->h5 = H5I_INVALID_HID;
    FcH5Check(rc, o->h5path);
    /* XDMF only after run.h5 is complete: it describes what is in there. */
    PetscCall(XDMFWrite(o));
  }
  if (o->vtk) {
    for (PetscInt b = 0; b < o->nbodies; b++) PetscCall(SeriesWrite(o, b));
    if (o->ncon) PetscCall(SeriesWrite(o, -1));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputClose(FcOutput *out)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!out || !*out) PetscFunctionReturn(0);
  ierr = FcOutputFinish_Private(*out);
  /* Freed whatever happened above, then the error (already reported) is propagated. */
  PetscCall(FcOutputDestroy_Private(out, (PetscBool)!ierr));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputAbandon(FcOutput *out)
{
  PetscFunctionBegin;
  if (!out || !*out) PetscFunctionReturn(0);
  PetscCall(FcOutputDestroy_Private(out, PETSC_FALSE));
  PetscFunctionReturn(0);
}
