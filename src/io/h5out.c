/* fcsim — the run.h5 + run.xdmf writer (writer.h): metadata and meshes at open, fields and
 * contacts per output step (flushed), the probe and statistics tables, the verdict and the haptic
 * loop's group at the end, then run.xdmf describing what run.h5 holds.
 * On several MPI ranks every rank opens this writer and run.h5 is written collectively, each rank
 * a block of the rows in the mesh's order, in the 1-rank layout (H5OpenPar below; doc/mpi.md "Outputs on several ranks").
 * The layout is documented in doc/output-format.md and checked by scripts/check_output.py. */
#include "writer.h"
#include <errno.h>
#include <hdf5.h>
#include <string.h>
#if !defined(PETSC_USE_REAL_DOUBLE)
#error "fcsim output writes float64 data: PetscReal must be double"
#endif

/* HDF5 calls return a negative id or status on failure. HDF5's own error-stack printing is
 * switched off (FcOutputOpen), so the failure becomes a PETSc error naming the file, the HDF5
 * function (the call's text up to its parenthesis: its arguments are source code, not a user's
 * business) and HDF5's innermost reason (captured at once: the next HDF5 call clears the stack).
 * FcH5Check returns at once: for code that holds no HDF5 handle of its own. */
#define FcH5Name(text) ((int)strcspn((text), "("))
#define FcH5Check(call, file) \
  do { \
    if (PetscUnlikely((call) < 0)) \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: %.*s failed: %s", (file), FcH5Name(#call), #call, H5Reason()); \
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
    if (PetscUnlikely(h5failed)) \
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: %.*s failed: %s", (file), FcH5Name(h5failed), h5failed, h5reason); \
  } while (0)

/* The reason of the last HDF5 failure (one output per process: a module buffer is enough). */
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

PetscBool FcOutputHDF5Unusable(void) { return h5unusable; }

static const char *H5Reason(void)
{
  snprintf(h5reason, sizeof h5reason, "%s", "no HDF5 error description");
  (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, H5ReasonWalk, NULL);
  return h5reason;
}
/* Rows of one time-series table (probes or stats), kept for run.h5, where a table is written
 * once at close. */
typedef struct {
  PetscInt    ncols;
  char      **cols;
  PetscInt    nrows, cap;
  PetscInt64 *step;
  PetscReal  *time;
  PetscReal  *values; /* nrows*ncols, row-major */
} FcTable;

typedef struct {
  char      h5path[PETSC_MAX_PATH_LEN];
  hid_t     h5;
  PetscBool par; /* several ranks: run.h5 open on every rank (H5OpenPar) */
  FcTable   probes, stats;
  /* FcOutputSetVerdict: the verdict, written at close as /verdict */
  PetscBool       has_verdict;
  FcOutputVerdict verdict;
  char            verdict_name[32];
  /* FcOutputSetUnusedOptions: written at close as /fcsim/petsc_options_unused */
  PetscBool has_unused;
  PetscInt  nunused;
  char    **unused_names, **unused_sources;
} H5Out;

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

/* While run.h5 is open on every rank (several ranks, the output steps): the ranks, and the
 * collective transfer list of every H5Dwrite. Off (size 0) while one process writes the file. */
static struct {
  PetscMPIInt rank, size;
  hid_t       dxpl;
  PetscBool   root; /* rank 0 writes every row (the contacts: only it holds their r and status) */
} h5par = {0, 0, H5I_INVALID_HID, PETSC_FALSE};

/* Several ranks: the memory and file selections of this rank's share of a dataset, its block of
 * rows [n0 r/N, n0 (r+1)/N): every row written once, the ranks sharing the work, one contiguous
 * hyperslab each (a union of many is built in quadratic time by HDF5 1.10). *offset: the block's
 * first value, for data that every rank holds whole (contacts, von Mises stress: replicated). */
static herr_t H5SelectBlock(hid_t fspace, int rank, const hsize_t dims[], hid_t *mspace, hsize_t *offset)
{
  hsize_t start[2] = {0, 0}, count[2] = {0, 0}, row = rank > 1 ? dims[1] : 1, n;

  start[0] = h5par.root ? 0 : dims[0] * (hsize_t)h5par.rank / (hsize_t)h5par.size;
  count[0] = h5par.root ? (h5par.rank ? 0 : dims[0]) : dims[0] * (hsize_t)(h5par.rank + 1) / (hsize_t)h5par.size - start[0];
  count[1] = row;
  n        = count[0] * row;
  *offset  = start[0] * row;
  *mspace  = H5Screate_simple(1, n ? &n : (hsize_t[]){1}, NULL);
  if (*mspace < 0) return -1;
  if (!n) return H5Sselect_none(*mspace) < 0 || H5Sselect_none(fspace) < 0 ? -1 : 0;
  return H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
}

/* An n-dimensional dataset written in one go (contiguous; data may be NULL when empty). On
 * several ranks (h5par) collectively: every rank holds the same data and writes its block. */
static PetscErrorCode H5WriteArray(
  hid_t loc, const char *name, hid_t memtype, hid_t filetype, int rank, const hsize_t dims[], const void *data, const char *file)
{
  const char *h5failed = NULL;
  hid_t       space = H5I_INVALID_HID, dset = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
  hsize_t     count = 1, offset = 0;

  PetscFunctionBegin;
  for (int i = 0; i < rank; i++) count *= dims[i];
  FcH5Try(space = H5Screate_simple(rank, dims, NULL));
  FcH5Try(dset = H5Dcreate2(loc, name, filetype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (count && h5par.size > 1) {
    FcH5Try(H5SelectBlock(space, rank, dims, &mspace, &offset));
    /* a rank that writes no row may hold no data (the contacts: rank 0's rows) */
    FcH5Try(H5Dwrite(dset, memtype, mspace, space, h5par.dxpl, data ? (const void *)((const char *)data + offset * H5Tget_size(memtype)) : (const void *)dims));
  } else if (count) FcH5Try(H5Dwrite(dset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  FcH5Try(H5Dclose(dset));
  dset = H5I_INVALID_HID;
cleanup:
  if (dset >= 0) H5Dclose(dset);
  if (mspace >= 0) H5Sclose(mspace);
  if (space >= 0) H5Sclose(space);
  FcH5Raise(file);
  PetscFunctionReturn(0);
}

/* Several ranks: a body's (N, 3) nodal field or (E) element field (ncols 1), each rank its block
 * of rows in the mesh's order (block: the rows [n r/P, n (r+1)/P) only, FcOutputFields.u_block,
 * vm_block), in one collective H5Dwrite. */
static PetscErrorCode H5WriteBlockRows(hid_t loc, const char *name, hsize_t nrows, int ncols, const PetscReal *block, const char *file)
{
  const char *h5failed = NULL;
  hid_t       space = H5I_INVALID_HID, dset = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
  hsize_t     dims[2] = {nrows, (hsize_t)ncols}, offset;
  const int   rank    = ncols > 1 ? 2 : 1;

  PetscFunctionBegin;
  FcH5Try(space = H5Screate_simple(rank, dims, NULL));
  FcH5Try(dset = H5Dcreate2(loc, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  FcH5Try(H5SelectBlock(space, rank, dims, &mspace, &offset));
  if (H5Sget_select_npoints(mspace) > 0 && !block) {
    h5failed = "H5Dwrite (no rows of this rank)";
    goto cleanup;
  }
  FcH5Try(H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, space, h5par.dxpl, block ? (const void *)block : (const void *)dims));
  FcH5Try(H5Dclose(dset));
  dset = H5I_INVALID_HID;
cleanup:
  if (dset >= 0) H5Dclose(dset);
  if (mspace >= 0) H5Sclose(mspace);
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
  hsize_t     dim = (hsize_t)(n < 0 ? 0 : n);

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
  const PetscInt64 fmt = FC_OUTPUT_FORMAT_VERSION, ranks = PetscMax(spec->nranks, 1);

  PetscFunctionBegin;
  PetscCall(H5WriteString(g, "version", PETSC_TRUE, spec->version, file));
  PetscCall(H5WriteString(g, "case_file", PETSC_TRUE, spec->case_file, file));
  PetscCall(H5WriteString(g, "command_line", PETSC_TRUE, spec->command_line, file));
  PetscCall(H5WriteScalarAttr(g, "format_version", H5T_NATIVE_INT64, H5T_STD_I64LE, &fmt, file));
  PetscCall(H5WriteScalarAttr(g, "ranks", H5T_NATIVE_INT64, H5T_STD_I64LE, &ranks, file));
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

/* par: several ranks, this rank's block of the rows of u and v (one rank: the whole arrays) */
static PetscErrorCode H5WriteFieldsContents(
  hid_t g, const FcOutputMesh *m, PetscBool par, const FcOutputFields *f, PetscInt64 step, PetscReal time, const char *file)
{
  hsize_t dims[2];

  PetscFunctionBegin;
  dims[0] = (hsize_t)m->nnodes;
  dims[1] = 3;
  if (par) {
    PetscCall(H5WriteBlockRows(g, "displacement", dims[0], 3, f->u_block, file));
    PetscCall(H5WriteBlockRows(g, "velocity", dims[0], 3, f->v_block, file));
    PetscCall(H5WriteBlockRows(g, "von_mises", (hsize_t)m->nelems, 1, f->vm_block, file));
  } else {
    PetscCall(H5WriteReals(g, "displacement", 2, dims, f->u, file));
    PetscCall(H5WriteReals(g, "velocity", 2, dims, f->v, file));
    dims[0] = (hsize_t)m->nelems;
    PetscCall(H5WriteReals(g, "von_mises", 1, dims, f->vm, file));
  }
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
  PetscCall(PetscMalloc1((size_t)PetscMax(c->status ? c->m : 0, 1), &ibuf)); /* several ranks: none on a rank that writes no row */
  for (PetscInt i = 0; c->status && i < c->m; i++) ibuf[i] = (PetscInt64)c->status[i];
  ierr = H5WriteInt64s(g, "status", 1, dims, ibuf, file);
  for (PetscInt i = 0; c->pair && i < c->m && !ierr; i++) ibuf[i] = (PetscInt64)c->pair[i];
  if (!ierr) ierr = H5WriteInt64s(g, "pair", 1, dims, ibuf, file);
  PetscCall(PetscFree(ibuf));
  PetscCall(ierr);
  PetscCall(H5WriteScalarAttr(g, "time", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &time, file));
  PetscCall(H5WriteScalarAttr(g, "step", H5T_NATIVE_INT64, H5T_STD_I64LE, &step, file));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5WriteTableContents(hid_t g, const FcTable *t, const char *file)
{
  PetscReal     *col  = NULL;
  hsize_t        dim  = (hsize_t)t->nrows;
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

static PetscErrorCode H5WriteOutputContents(hid_t g, const FcOutputState *s, const char *file)
{
  hsize_t dim = (hsize_t)s->nout;

  PetscFunctionBegin;
  PetscCall(H5WriteReals(g, "time", 1, &dim, s->outtime, file));
  PetscCall(H5WriteInt64s(g, "step", 1, &dim, s->outstep, file));
  PetscFunctionReturn(0);
}

/* /bodies/<name>/mesh/partition: per rank, the nodes it owns and the elements it assembles. */
static PetscErrorCode H5WritePartition(H5Out *o, const char *name, PetscInt nranks, const PetscInt *part)
{
  PetscInt64 *p;
  hsize_t     dims[2] = {(hsize_t)nranks, 2};
  char        path[PETSC_MAX_PATH_LEN];
  hid_t       g;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof path, "/bodies/%s/mesh", name));
  FcH5Check(g = H5Gopen2(o->h5, path, H5P_DEFAULT), o->h5path);
  PetscCall(PetscMalloc1(2 * nranks, &p)); /* an error here leaves g to the file's STRONG close */
  for (PetscInt i = 0; i < 2 * nranks; i++) p[i] = part[i];
  {
    PetscErrorCode ierr = H5WriteInt64s(g, "partition", 2, dims, p, o->h5path);
    herr_t         hrc  = H5Gclose(g);
    PetscCall(PetscFree(p));
    PetscCall(ierr);
    FcH5Check(hrc, o->h5path);
  }
  PetscFunctionReturn(0);
}

/* What was written reaches the disk, so that a run that dies later leaves a readable run.h5 in its
 * kept folder: on one rank only. On several, H5Fflush is collective and HDF5 1.10 deadlocks
 * inside it when one rank's write fails and the others' do not (rank 0 in the metadata cache's
 * barrier, rank 1 in the MPI-IO driver's truncate broadcast: seen with gdb under OMPIO, and under
 * ROMIO, doc/mpi.md "Failures on several ranks"), where fcsim cannot reach to abort the job; and
 * a failed several-rank run's folder is removed (MPI_Abort), so the flush kept nothing there. The
 * file is complete at its close. */
static PetscErrorCode H5FlushSteps(H5Out *o)
{
  PetscFunctionBegin;
  if (!o->par) FcH5Check(H5Fflush(o->h5, H5F_SCOPE_LOCAL), o->h5path);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Open(H5Out *o, const FcOutputSpec *spec, const FcOutputState *s)
{
  const char *h5failed = NULL;
  hid_t       fapl     = H5I_INVALID_HID, g;
  char        path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(FcOutputPathJoin(o->h5path, sizeof o->h5path, s->dir, "run.h5"));
  /* Serial file access even in the OpenMPI build of HDF5: one process writes (on several ranks,
   * rank 0 in this phase: H5OpenPar). STRONG close
   * degree: closing the file also closes anything an error path might have left open. */
  FcH5Try(fapl = H5Pcreate(H5P_FILE_ACCESS));
  FcH5Try(H5Pset_fapl_sec2(fapl));
  FcH5Try(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG));
  FcH5Try(o->h5 = H5Fcreate(o->h5path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
cleanup:
  if (fapl >= 0) H5Pclose(fapl);
  FcH5Raise(o->h5path);

  FcH5WithGroup(o, "/fcsim", g, H5WriteMetaContents(g, spec, o->h5path));
  for (PetscInt b = 0; b < s->nbodies; b++) {
    PetscCall(PetscSNPrintf(path, sizeof path, "/bodies/%s/mesh", s->meshes[b].name));
    FcH5WithGroup(o, path, g, H5WriteMeshContents(g, &s->meshes[b], o->h5path));
    if (spec->partition && spec->partition[b]) PetscCall(H5WritePartition(o, s->meshes[b].name, PetscMax(spec->nranks, 1), spec->partition[b]));
  }
  PetscCall(H5FlushSteps(o));
  PetscFunctionReturn(0);
}

/* Close run.h5 (either driver); a failed close leaves HDF5 unusable (h5unusable). */
static PetscErrorCode H5CloseFile(H5Out *o)
{
  herr_t rc;

  PetscFunctionBegin;
  rc    = H5Fclose(o->h5);
  o->h5 = H5I_INVALID_HID;
  if (rc < 0) h5unusable = PETSC_TRUE;
  FcH5Check(rc, o->h5path);
  PetscFunctionReturn(0);
}

/* Several ranks (doc/mpi.md "Outputs"): rank 0 creates run.h5 and writes the metadata and meshes
 * with the serial driver, as one process does (the variable-length strings of /fcsim are datasets,
 * which HDF5 1.10 cannot write through MPI-IO), and closes it; then every rank reopens it with the
 * MPI-IO driver (H5Pset_fapl_mpio) for the output steps. Rank 0's outcome is broadcast first: the
 * other ranks return its error silently (rank 0 printed the line). */
static PetscErrorCode H5OpenPar(H5Out *o, const FcOutputSpec *spec, const FcOutputState *s)
{
  const char    *h5failed = NULL;
  hid_t          fapl     = H5I_INVALID_HID;
  PetscErrorCode ierr     = 0;
  int            code;

  PetscFunctionBegin;
  if (!s->rank) {
    ierr = H5Open(o, spec, s);
    if (!ierr) ierr = H5CloseFile(o);
  }
  code = (int)ierr;
  PetscCallMPI(MPI_Bcast(&code, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  if (code) return s->rank ? (PetscErrorCode)code : ierr;
  PetscCall(FcOutputPathJoin(o->h5path, sizeof o->h5path, s->dir, "run.h5"));
  FcH5Try(fapl = H5Pcreate(H5P_FILE_ACCESS));
  FcH5Try(H5Pset_fapl_mpio(fapl, PETSC_COMM_WORLD, MPI_INFO_NULL));
  FcH5Try(o->h5 = H5Fopen(o->h5path, H5F_ACC_RDWR, fapl));
  FcH5Try(h5par.dxpl = H5Pcreate(H5P_DATASET_XFER));
  FcH5Try(H5Pset_dxpl_mpio(h5par.dxpl, H5FD_MPIO_COLLECTIVE));
  h5par.rank = s->rank;
  h5par.size = s->size;
  o->par     = PETSC_TRUE;
cleanup:
  if (fapl >= 0) H5Pclose(fapl);
  FcH5Raise(o->h5path);
  PetscFunctionReturn(0);
}

/* Several ranks, at the end: close the file on every rank (collective), then rank 0 reopens it
 * with the serial driver for the tables of the end (their column names are variable-length
 * strings) and the verdict, which it holds. *done: a rank other than 0, nothing more to write. */
static PetscErrorCode H5ReopenSerial(H5Out *o, PetscBool *done)
{
  const char *h5failed = NULL;
  hid_t       fapl     = H5I_INVALID_HID;

  PetscFunctionBegin;
  h5par.size = 0;
  if (h5par.dxpl >= 0) H5Pclose(h5par.dxpl);
  h5par.dxpl = H5I_INVALID_HID;
  PetscCall(H5CloseFile(o));
  *done = (PetscBool)(h5par.rank != 0);
  if (*done) PetscFunctionReturn(0);
  FcH5Try(fapl = H5Pcreate(H5P_FILE_ACCESS));
  FcH5Try(H5Pset_fapl_sec2(fapl));
  FcH5Try(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG));
  FcH5Try(o->h5 = H5Fopen(o->h5path, H5F_ACC_RDWR, fapl));
cleanup:
  if (fapl >= 0) H5Pclose(fapl);
  FcH5Raise(o->h5path);
  PetscFunctionReturn(0);
}

static void XMLPutString(FILE *fp, const char *s)
{
  for (const char *c = s; *c; c++) {
    switch (*c) {
    case '&': fputs("&amp;", fp); break;
    case '<': fputs("&lt;", fp); break;
    case '>': fputs("&gt;", fp); break;
    case '"': fputs("&quot;", fp); break;
    case '\'': fputs("&apos;", fp); break;
    default: fputc(*c, fp);
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
static void XDMFContacts(FILE *fp, const FcOutputState *s)
{
  static const struct {
    const char *name, *type;
    PetscBool   vector, isint;
  } attrs[] = {
    {"force", "Vector", PETSC_TRUE, PETSC_FALSE},
    {"normal", "Vector", PETSC_TRUE, PETSC_FALSE},
    {"r_local", "Vector", PETSC_TRUE, PETSC_FALSE},
    {"gap", "Scalar", PETSC_FALSE, PETSC_FALSE},
    {"status", "Scalar", PETSC_FALSE, PETSC_TRUE},
    {"pair", "Scalar", PETSC_FALSE, PETSC_TRUE},
  };

  if (!s->ncon) return;
  fputs("    <Grid Name=\"contacts\" GridType=\"Collection\" CollectionType=\"Temporal\">\n", fp);
  for (PetscInt i = 0; i < s->ncon; i++) {
    PetscInt k = s->conk[i], m = s->conm[i];

    fprintf(fp, "      <Grid Name=\"contacts_%06" PetscInt_FMT "\" GridType=\"Uniform\">\n", k);
    fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)s->outtime[k]);
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

static PetscErrorCode XDMFContents(FILE *fp, const FcOutputState *s, const char *path)
{
  char what[64];

  PetscFunctionBegin;
  fputs("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n", fp);
  fputs("<Xdmf xmlns:xi=\"http://www.w3.org/2001/XInclude\" Version=\"3.0\">\n  <Domain>\n", fp);
  for (PetscInt b = 0; b < s->nbodies; b++) {
    const FcOutputMesh *m = &s->meshes[b];

    if (!s->nout) {
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
    for (PetscInt k = 0; k < s->nout; k++) {
      fputs("      <Grid Name=\"", fp);
      XMLPutString(fp, m->name);
      fprintf(fp, "_%06" PetscInt_FMT "\" GridType=\"Uniform\">\n", k);
      fprintf(fp, "        <Time Value=\"%.17g\"/>\n", (double)s->outtime[k]);
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
  XDMFContacts(fp, s);
  fputs("  </Domain>\n</Xdmf>\n", fp);
  PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", path);
  PetscFunctionReturn(0);
}

static PetscErrorCode XDMFWrite(const FcOutputState *s)
{
  char           path[PETSC_MAX_PATH_LEN];
  FILE          *fp;
  PetscErrorCode ierr;
  int            rc;

  PetscFunctionBegin;
  PetscCall(FcOutputPathJoin(path, sizeof path, s->dir, "run.xdmf"));
  fp = fopen(path, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", path, strerror(errno));
  ierr = XDMFContents(fp, s, path);
  rc   = fclose(fp);
  PetscCall(ierr);
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", path);
  PetscFunctionReturn(0);
}
/* Several ranks: the contact datasets' rows are rank 0's alone (it solved the contact problem and
 * holds every contact's r and status; another rank holds the r of the contacts it touches only:
 * src/step/contact_mpi.c), the others join each collective write with an empty selection. */
static PetscErrorCode H5WriteContactsRoot(hid_t g, const FcOutputContacts *c, const PetscReal *force, PetscInt64 step, PetscReal time, const char *file)
{
  PetscErrorCode   ierr;
  FcOutputContacts all = *c;
  PetscInt         m   = c->m;

  /* the datasets' sizes are rank 0's count (another rank holds only its contacts' rows: none is written) */
  if (h5par.size > 1 && MPI_Bcast(&m, 1, MPIU_INT, 0, PETSC_COMM_WORLD) != MPI_SUCCESS) return PETSC_ERR_MPI;
  if (h5par.rank) {
    all.m = m;
    all.x = all.normal = all.t1 = all.t2 = all.r = all.gap = NULL;
    all.status = all.pair = NULL;
    force                 = NULL;
  }
  h5par.root = PETSC_TRUE;
  ierr       = H5WriteContactsContents(g, &all, force, step, time, file);
  h5par.root = PETSC_FALSE;
  return ierr;
}

/* /contacts/<k>, flushed like the fields; force is a 3m work array. */
static PetscErrorCode H5WriteContacts(H5Out *o, PetscInt k, PetscInt step, PetscReal time, const FcOutputContacts *c, PetscReal *force)
{
  char  path[64];
  hid_t g;

  PetscFunctionBegin;
  PetscCall(FcOutputContactForces(c, force));
  PetscCall(PetscSNPrintf(path, sizeof path, "/contacts/%06" PetscInt_FMT, k));
  FcH5WithGroup(o, path, g, H5WriteContactsRoot(g, c, force, (PetscInt64)step, time, o->h5path));
  PetscCall(H5FlushSteps(o));
  PetscFunctionReturn(0);
}
/* /verdict: the verdict as a string attribute, its numbers as scalar attributes. */
static PetscErrorCode H5WriteVerdictContents(hid_t g, const FcOutputVerdict *v, const char *file)
{
  const struct {
    const char *name;
    PetscReal   value;
  } num[] = {
    {"collapse_time", v->collapse_time},
    {"rise", v->rise},
    {"mgh", v->mgh},
    {"after", v->after},
    {"t_last", v->t_last},
    {"drop_last", v->drop_last},
    {"max_drop", v->max_drop},
    {"max_abs_drop_after", v->max_abs_drop_after},
    {"max_energy_after", v->max_energy_after},
  };

  PetscFunctionBegin;
  PetscCall(H5WriteString(g, "verdict", PETSC_TRUE, v->verdict, file));
  for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) PetscCall(H5WriteScalarAttr(g, num[i].name, H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &num[i].value, file));
  PetscFunctionReturn(0);
}

/* /haptic (doc/output-format.md): one dataset per column of haptic.csv and the per-tick wall
 * times, the column order, the solver and the run's counts as attributes. A plain group (links
 * by name), as the haptic loop's group has always been. */
static PetscErrorCode H5WriteHapticContents(hid_t g, const FcHapticOutput *o, const char *file)
{
  hsize_t        dim = (hsize_t)o->nrows;
  PetscReal     *col;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(o->nrows + 1, &col));
  for (PetscInt c = 0; c <= o->ncols && !ierr; c++) {
    const char      *name = c < o->ncols ? o->cols[c] : "wall_time";
    const PetscReal *src  = c < o->ncols ? NULL : o->wall_time;
    for (PetscInt r = 0; r < o->nrows; r++) col[r] = src ? src[r] : o->values[r * o->ncols + c];
    ierr = H5WriteReals(g, name, 1, &dim, col, file);
  }
  PetscCall(PetscFree(col));
  PetscCall(ierr);
  PetscCall(H5WriteStrings(g, "columns", PETSC_TRUE, o->ncols, o->cols, file));
  PetscCall(H5WriteString(g, "solver", PETSC_TRUE, o->solver, file));
  for (PetscInt k = 0; k < o->nattrs; k++) PetscCall(H5WriteScalarAttr(g, o->attr_names[k], H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &o->attr_values[k], file));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------ the writer */

static PetscBool H5Want(const FcOutputSpec *spec) { return spec->hdf5; }

static PetscErrorCode H5TableInit(FcTable *t, PetscInt ncols, const char *const *cols)
{
  PetscFunctionBegin;
  t->ncols = ncols;
  PetscCall(PetscCalloc1((size_t)PetscMax(ncols, 1), &t->cols));
  for (PetscInt c = 0; c < ncols; c++) PetscCall(PetscStrallocpy(cols[c], &t->cols[c]));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5TableFree(FcTable *t)
{
  PetscFunctionBegin;
  for (PetscInt c = 0; c < t->ncols && t->cols; c++) PetscCall(PetscFree(t->cols[c]));
  PetscCall(PetscFree(t->cols));
  PetscCall(PetscFree(t->step));
  PetscCall(PetscFree(t->time));
  PetscCall(PetscFree(t->values));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5FreeUnused_Private(H5Out *o)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < o->nunused; k++) {
    PetscCall(PetscFree(o->unused_names[k]));
    PetscCall(PetscFree(o->unused_sources[k]));
  }
  PetscCall(PetscFree2(o->unused_names, o->unused_sources));
  o->nunused = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode H5DestroyOut(void **ctx, PetscBool report)
{
  H5Out *o    = (H5Out *)*ctx;
  herr_t h5rc = 0;
  char   h5path[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  if (!o) PetscFunctionReturn(0);
  *ctx = NULL;
  PetscCall(PetscStrncpy(h5path, o->h5path, sizeof h5path));
  if (o->h5 >= 0 && h5par.size > 1) {
    /* run.h5 still open on every rank: after an error, which may be this rank's alone, a
     * collective close could wait for ever. It stays open, and fcsim ends without finalizing
     * HDF5 (the run's folder is removed; doc/mpi.md "Failures on several ranks"). */
    h5unusable = PETSC_TRUE;
    o->h5      = H5I_INVALID_HID;
    report     = PETSC_FALSE;
  }
  if (h5par.dxpl >= 0) H5Pclose(h5par.dxpl);
  h5par.dxpl = H5I_INVALID_HID;
  h5par.size = 0;
  if (o->h5 >= 0) h5rc = H5Fclose(o->h5);
  PetscCall(H5TableFree(&o->probes));
  PetscCall(H5TableFree(&o->stats));
  PetscCall(H5FreeUnused_Private(o));
  PetscCall(PetscFree(o));
  if (h5rc < 0) h5unusable = PETSC_TRUE;
  if (!report) PetscFunctionReturn(0); /* an error is on its way up already: one line only */
  PetscCheck(h5rc >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error writing %s: H5Fclose failed: %s", h5path, H5Reason());
  PetscFunctionReturn(0);
}

static PetscErrorCode H5OpenOut(const FcOutputSpec *spec, const FcOutputState *s, void **ctx)
{
  H5Out         *o;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* fcsim reports HDF5 failures as PETSc errors naming the file: HDF5's own error-stack dump
   * on stderr would be duplicate noise (also when the reader of run.h5 probes for objects). */
  FcH5Check(H5Eset_auto2(H5E_DEFAULT, NULL, NULL), "run.h5");
  PetscCall(PetscNew(&o));
  o->h5 = H5I_INVALID_HID;
  *ctx  = o;
  ierr  = H5TableInit(&o->probes, spec->nprobe_cols, spec->probe_cols);
  if (!ierr) ierr = H5TableInit(&o->stats, spec->nstat_cols, spec->stat_cols);
  if (!ierr) ierr = s->size > 1 ? H5OpenPar(o, spec, s) : H5Open(o, spec, s);
  if (ierr) PetscCall(H5DestroyOut(ctx, PETSC_FALSE));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Fields(void *ctx, const FcOutputState *s, PetscInt step, PetscReal time, const FcOutputFields *fields)
{
  H5Out   *o = (H5Out *)ctx;
  char     path[PETSC_MAX_PATH_LEN];
  PetscInt k = s->nout - 1;
  hid_t    g;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < s->nbodies; b++) {
    PetscCall(PetscSNPrintf(path, sizeof path, "/bodies/%s/fields/%06" PetscInt_FMT, s->meshes[b].name, k));
    FcH5WithGroup(o, path, g, H5WriteFieldsContents(g, &s->meshes[b], o->par, &fields[b], (PetscInt64)step, time, o->h5path));
  }
  /* Data of finished steps reaches the disk even if the run dies later. */
  PetscCall(H5FlushSteps(o));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Contacts(void *ctx, const FcOutputState *s, PetscInt step, PetscReal time, const FcOutputContacts *c)
{
  PetscReal     *force = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * (size_t)PetscMax(c->m, 1), &force));
  ierr = H5WriteContacts((H5Out *)ctx, s->conk[s->ncon - 1], step, time, c, force);
  PetscCall(PetscFree(force));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Row(void *ctx, const FcOutputState *s, FcOutputTable table, PetscInt step, PetscReal time, const PetscReal *values)
{
  H5Out   *o = (H5Out *)ctx;
  FcTable *t = table == FC_OUTPUT_PROBES ? &o->probes : &o->stats;

  PetscFunctionBegin;
  (void)s;
  if (t->nrows == t->cap) {
    PetscInt cap = PetscMax(64, 2 * t->cap);
    PetscCall(FcOutputGrowInt64(t->cap, cap, &t->step));
    PetscCall(FcOutputGrowReal(t->cap, cap, 1, &t->time));
    PetscCall(FcOutputGrowReal(t->cap, cap, PetscMax(t->ncols, 1), &t->values));
    t->cap = cap;
  }
  t->step[t->nrows] = step;
  t->time[t->nrows] = time;
  if (t->ncols) PetscCall(PetscArraycpy(&t->values[t->nrows * t->ncols], values, (size_t)t->ncols));
  t->nrows++;
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Haptic(void *ctx, const FcOutputState *s, const FcHapticOutput *h)
{
  H5Out *o = (H5Out *)ctx;
  hid_t  g;

  PetscFunctionBegin;
  (void)s;
  FcH5Check(g = H5Gcreate2(o->h5, "/haptic", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), o->h5path);
  {
    PetscErrorCode ierr = H5WriteHapticContents(g, h, o->h5path);
    herr_t         rc   = H5Gclose(g);
    PetscCall(ierr);
    FcH5Check(rc, o->h5path);
  }
  PetscCall(H5FlushSteps(o));
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Verdict(void *ctx, const FcOutputState *s, const FcOutputVerdict *v)
{
  H5Out *o = (H5Out *)ctx;

  PetscFunctionBegin;
  (void)s;
  o->verdict = *v;
  PetscCall(PetscStrncpy(o->verdict_name, v->verdict, sizeof o->verdict_name));
  o->verdict.verdict = o->verdict_name;
  o->has_verdict     = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode H5UnusedOptions(void *ctx, const FcOutputState *s, PetscInt n, const char *const *names, const char *const *sources)
{
  H5Out *o = (H5Out *)ctx;

  PetscFunctionBegin;
  (void)s;
  PetscCall(PetscCalloc2(n + 1, &o->unused_names, n + 1, &o->unused_sources));
  o->has_unused = PETSC_TRUE;
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(PetscStrallocpy(names[k], &o->unused_names[k]));
    PetscCall(PetscStrallocpy(sources[k], &o->unused_sources[k]));
    o->nunused = k + 1;
  }
  PetscFunctionReturn(0);
}

/* /fcsim/petsc_options_unused: the names, one string each (an empty array when every option the
 * user gave was used), and their attribute "source", where each came from (the same order). The
 * group exists (H5Open); rank 0 alone writes it, with the serial driver (variable-length strings). */
static PetscErrorCode H5WriteUnused_Private(H5Out *o)
{
  const char    *h5failed = NULL;
  hid_t          g = H5I_INVALID_HID, dset = H5I_INVALID_HID;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  FcH5Try(g = H5Gopen2(o->h5, "/fcsim", H5P_DEFAULT));
  ierr = H5WriteStrings(g, "petsc_options_unused", PETSC_FALSE, o->nunused, (const char *const *)o->unused_names, o->h5path);
  if (ierr) goto cleanup;
  FcH5Try(dset = H5Dopen2(g, "petsc_options_unused", H5P_DEFAULT));
  ierr = H5WriteStrings(dset, "source", PETSC_TRUE, o->nunused, (const char *const *)o->unused_sources, o->h5path);
cleanup:
  /* a failed close of these handles shows when the file is closed (H5F_CLOSE_STRONG) */
  if (dset >= 0) H5Dclose(dset);
  if (g >= 0) H5Gclose(g);
  PetscCall(ierr);
  FcH5Raise(o->h5path);
  PetscFunctionReturn(0);
}

static PetscErrorCode H5Finish(void *ctx, const FcOutputState *s)
{
  H5Out *o = (H5Out *)ctx;
  hid_t  g;
  herr_t rc;

  PetscFunctionBegin;
  if (o->par) {
    PetscBool done;
    PetscCall(H5ReopenSerial(o, &done));
    if (done) PetscFunctionReturn(0);
  }
  FcH5WithGroup(o, "/output", g, H5WriteOutputContents(g, s, o->h5path));
  FcH5WithGroup(o, "/probes", g, H5WriteTableContents(g, &o->probes, o->h5path));
  FcH5WithGroup(o, "/stats", g, H5WriteTableContents(g, &o->stats, o->h5path));
  if (o->has_verdict) FcH5WithGroup(o, "/verdict", g, H5WriteVerdictContents(g, &o->verdict, o->h5path));
  if (o->has_unused) PetscCall(H5WriteUnused_Private(o));
  rc    = H5Fclose(o->h5);
  o->h5 = H5I_INVALID_HID;
  FcH5Check(rc, o->h5path);
  /* XDMF only after run.h5 is complete: it describes what is in there. */
  PetscCall(XDMFWrite(s));
  PetscFunctionReturn(0);
}

const FcWriterType FcWriterH5 = {
  .name           = "hdf5",
  .names_contacts = PETSC_TRUE, /* the XDMF grid "contacts" */
  .collective     = PETSC_TRUE, /* run.h5 on several ranks: collective HDF5 */
  .want           = H5Want,
  .open           = H5OpenOut,
  .fields         = H5Fields,
  .contacts       = H5Contacts,
  .row            = H5Row,
  .haptic         = H5Haptic,
  .verdict        = H5Verdict,
  .unused_options = H5UnusedOptions,
  .finish         = H5Finish,
  .destroy        = H5DestroyOut,
};
