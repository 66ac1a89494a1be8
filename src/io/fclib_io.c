/* fcsim — FCLIB input/output: files read with fcsim's own HDF5 C API calls, written through
 * libfclib (fclib_io.h, doc/contact.md "FCLIB").
 *
 * Why not libfclib's readers: they wrap every HDF5 call in a macro that prints "ERROR: HDF5 call
 * failed" and calls exit(1) on failure (a missing dataset, a damaged object header), leaving
 * the file open; they read each dataset whole into a buffer sized from *other* datasets (x from
 * nzmax, q from W/m), so a dataset of the wrong length overruns the heap; and libfclib is linked
 * to the serial HDF5 library, a second copy of HDF5 in the process besides the MPI one fcsim and
 * PETSc use, whose error printing fcsim's H5Eset_auto2 does not reach (a damaged file printed
 * dozens of HDF5-DIAG lines). So everything is checked here — presence, kind, class, number of
 * elements — then read here, then the values (indices in range, finite numbers, μ ≥ 0) are
 * checked. Each failure is one FcInputError line "FILE: /dataset/path: message", with HDF5's
 * error printing off meanwhile and every HDF5 object closed. What this reader accepts, libfclib
 * reads too (every dataset it would read is read here). A global problem is handed over as plain
 * data (FcGlobalProblem); its reformulation is src/contact's (global_problem.c). */
#include "fclib_io.h"
#include <fclib.h>
#include <hdf5.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------------------------------ */
/* HDF5 probing helpers: each opens, queries and closes, so an early error return leaks nothing. */

typedef struct {
  const char *file; /* as given by the user, for messages */
  hid_t       fid;
} FcH5;

enum {
  FC_LINK_MISSING,
  FC_LINK_GROUP,
  FC_LINK_DATASET,
  FC_LINK_OTHER,
  FC_LINK_BROKEN /* the link exists but it, or its object's header, cannot be read: damaged */
};

/* An object that opens and is not a group (a dataset on the way of a path). */
static PetscBool IsNonGroup_Private(hid_t fid, const char *path)
{
  hid_t     obj = H5Oopen(fid, path, H5P_DEFAULT);
  PetscBool ng  = PETSC_FALSE;

  if (obj >= 0) {
    ng = H5Iget_type(obj) != H5I_GROUP ? PETSC_TRUE : PETSC_FALSE;
    H5Oclose(obj);
  }
  return ng;
}

static int LinkKind_Private(hid_t fid, const char *path)
{
  char       buf[512];
  size_t     len = strlen(path);
  hid_t      obj;
  H5I_type_t t;

  if (len >= sizeof buf) return FC_LINK_MISSING;
  /* H5Lexists fails (rather than answering no) when an intermediate group is missing: walk the
   * path one component at a time. It also fails on a path through a dataset (absent) and on a
   * damaged group (broken), told apart by opening the parent. */
  for (size_t k = 1, parent = 1; k <= len; k++) {
    htri_t e;
    if (k < len && path[k] != '/') continue;
    memcpy(buf, path, k);
    buf[k] = 0;
    if ((e = H5Lexists(fid, buf, H5P_DEFAULT)) == 0) return FC_LINK_MISSING;
    if (e < 0) {
      buf[parent] = 0;
      return IsNonGroup_Private(fid, buf) ? FC_LINK_MISSING : FC_LINK_BROKEN;
    }
    parent = k;
  }
  obj = H5Oopen(fid, path, H5P_DEFAULT);
  if (obj < 0) { /* a dangling soft or external link is absent; a hard link, damaged */
    H5L_info_t li;
    return H5Lget_info(fid, path, &li, H5P_DEFAULT) >= 0 && li.type != H5L_TYPE_HARD ? FC_LINK_MISSING : FC_LINK_BROKEN;
  }
  t = H5Iget_type(obj);
  H5Oclose(obj);
  return t == H5I_GROUP ? FC_LINK_GROUP : t == H5I_DATASET ? FC_LINK_DATASET : FC_LINK_OTHER;
}

/* LinkKind_Private, a damaged link or object being an input error. */
static PetscErrorCode Link_Private(FcH5 *h, const char *path, int *kind)
{
  PetscFunctionBegin;
  *kind = LinkKind_Private(h->fid, path);
  if (*kind == FC_LINK_BROKEN) return FcInputError(h->file, path, "cannot be read: the file is damaged");
  PetscFunctionReturn(0);
}

typedef struct {
  H5T_class_t cls;
  long long   npoints;
  PetscBool   vlen; /* variable-length string */
} FcDsetInfo;

static PetscBool DsetInfo_Private(hid_t fid, const char *path, FcDsetInfo *di)
{
  hid_t     did, tid, sid;
  hssize_t  np;
  PetscBool ok = PETSC_FALSE;

  if ((did = H5Dopen2(fid, path, H5P_DEFAULT)) < 0) return PETSC_FALSE;
  tid = H5Dget_type(did);
  sid = H5Dget_space(did);
  if (tid >= 0 && sid >= 0) {
    di->cls  = H5Tget_class(tid);
    di->vlen = (di->cls == H5T_STRING && H5Tis_variable_str(tid) > 0) ? PETSC_TRUE : PETSC_FALSE;
    np       = H5Sget_simple_extent_npoints(sid);
    if (np >= 0 && di->cls != H5T_NO_CLASS) {
      di->npoints = (long long)np;
      ok          = PETSC_TRUE;
    }
  }
  if (sid >= 0) H5Sclose(sid);
  if (tid >= 0) H5Tclose(tid);
  H5Dclose(did);
  return ok;
}

static const char *ClassName_Private(H5T_class_t c)
{
  switch (c) {
  case H5T_INTEGER:
    return "integer";
  case H5T_FLOAT:
    return "floating-point";
  case H5T_STRING:
    return "string";
  default:
    return "non-numeric";
  }
}

static PetscErrorCode RequireGroup_Private(FcH5 *h, const char *path)
{
  int k;

  PetscFunctionBegin;
  PetscCall(Link_Private(h, path, &k));
  if (k == FC_LINK_MISSING) return FcInputError(h->file, path, "missing (an FCLIB group is expected here)");
  if (k != FC_LINK_GROUP) return FcInputError(h->file, path, "is not a group");
  PetscFunctionReturn(0);
}

static PetscErrorCode RequireDataset_Private(FcH5 *h, const char *path, FcDsetInfo *di)
{
  int k;

  PetscFunctionBegin;
  PetscCall(Link_Private(h, path, &k));
  if (k == FC_LINK_MISSING) return FcInputError(h->file, path, "missing dataset");
  if (k != FC_LINK_DATASET) return FcInputError(h->file, path, "is not a dataset");
  if (!DsetInfo_Private(h->fid, path, di)) return FcInputError(h->file, path, "dataset cannot be read");
  PetscFunctionReturn(0);
}

/* One integer (libfclib reads sizes with H5LTread_dataset_int into a single int). */
static PetscErrorCode ReadInt_Private(FcH5 *h, const char *path, int *val)
{
  FcDsetInfo di;
  hid_t      did;
  herr_t     st;

  PetscFunctionBegin;
  PetscCall(RequireDataset_Private(h, path, &di));
  if (di.cls != H5T_INTEGER || di.npoints != 1) return FcInputError(h->file, path, "expected one integer, found %lld %s value(s)", di.npoints, ClassName_Private(di.cls));
  did = H5Dopen2(h->fid, path, H5P_DEFAULT);
  st  = did < 0 ? -1 : H5Dread(did, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, val);
  if (did >= 0) H5Dclose(did);
  if (st < 0) return FcInputError(h->file, path, "cannot be read as an integer");
  PetscFunctionReturn(0);
}

static PetscErrorCode RequireNumbers_Private(FcH5 *h, const char *path, PetscBool integer, long long n, const char *what)
{
  FcDsetInfo di;

  PetscFunctionBegin;
  PetscCall(RequireDataset_Private(h, path, &di));
  if (integer && di.cls != H5T_INTEGER) return FcInputError(h->file, path, "expected integers (%s), found %s values", what, ClassName_Private(di.cls));
  if (!integer && di.cls != H5T_FLOAT && di.cls != H5T_INTEGER) return FcInputError(h->file, path, "expected numbers (%s), found %s values", what, ClassName_Private(di.cls));
  if (di.npoints != n) return FcInputError(h->file, path, "has %lld entries, expected %lld (%s)", di.npoints, n, what);
  PetscFunctionReturn(0);
}

/* The whole dataset `path` (validated: its class and number of elements) into buf, converted
 * to memtype. The data of a damaged file can fail here even when its metadata did not. */
static PetscErrorCode ReadData_Private(FcH5 *h, const char *path, hid_t memtype, void *buf)
{
  hid_t  did;
  herr_t st;

  PetscFunctionBegin;
  did = H5Dopen2(h->fid, path, H5P_DEFAULT);
  st  = did < 0 ? -1 : H5Dread(did, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
  if (did >= 0) H5Dclose(did);
  if (st < 0) return FcInputError(h->file, path, "its data cannot be read (a damaged file?)");
  PetscFunctionReturn(0);
}

/* Read a small validated dataset (matrix and problem information: fcsim does not use it) in its
 * own type, into scratch memory, only to know that it can be read. */
static PetscErrorCode ReadUnused_Private(FcH5 *h, const char *path, long long npoints)
{
  hid_t          did, tid = -1;
  size_t         size = 0;
  char          *buf;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if ((did = H5Dopen2(h->fid, path, H5P_DEFAULT)) >= 0 && (tid = H5Dget_type(did)) >= 0) size = H5Tget_size(tid);
  if (!size || npoints < 1 || npoints > 1 << 20) {
    if (tid >= 0) H5Tclose(tid);
    if (did >= 0) H5Dclose(did);
    return FcInputError(h->file, path, "its data cannot be read (a damaged file?)");
  }
  ierr = PetscMalloc1(size * (size_t)npoints, &buf);
  if (!ierr && H5Dread(did, tid, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) ierr = FcInputError(h->file, path, "its data cannot be read (a damaged file?)");
  H5Tclose(tid);
  H5Dclose(did);
  if (!ierr) ierr = PetscFree(buf);
  else (void)PetscFree(buf);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* libfclib reads strings into a buffer of the type's size: one fixed-length string only. */
static PetscErrorCode OptionalString_Private(FcH5 *h, const char *path)
{
  int        k;
  FcDsetInfo di;

  PetscFunctionBegin;
  PetscCall(Link_Private(h, path, &k));
  if (k == FC_LINK_MISSING) PetscFunctionReturn(0);
  PetscCall(RequireDataset_Private(h, path, &di));
  if (di.cls != H5T_STRING) return FcInputError(h->file, path, "expected a string, found %s values", ClassName_Private(di.cls));
  if (di.vlen) return FcInputError(h->file, path, "variable-length string: libfclib reads fixed-length strings only");
  if (di.npoints != 1) return FcInputError(h->file, path, "expected one string, found %lld", di.npoints);
  PetscCall(ReadUnused_Private(h, path, 1));
  PetscFunctionReturn(0);
}

static PetscErrorCode OptionalInfo_Private(FcH5 *h, const char *grp)
{
  char path[256];
  int  k;

  PetscFunctionBegin;
  snprintf(path, sizeof path, "%s/info", grp);
  PetscCall(Link_Private(h, path, &k));
  if (k == FC_LINK_MISSING) PetscFunctionReturn(0);
  PetscCall(RequireGroup_Private(h, path));
  snprintf(path, sizeof path, "%s/info/title", grp);
  PetscCall(OptionalString_Private(h, path));
  snprintf(path, sizeof path, "%s/info/description", grp);
  PetscCall(OptionalString_Private(h, path));
  snprintf(path, sizeof path, "%s/info/math_info", grp);
  PetscCall(OptionalString_Private(h, path));
  PetscFunctionReturn(0);
}

typedef struct {
  int m, n, nz, nzmax;
} FcMatShape;

/* Everything libfclib's read_matrix reads from a matrix group, with the sizes it allocates. */
static PetscErrorCode CheckMatrixShape_Private(FcH5 *h, const char *grp, FcMatShape *s)
{
  char path[256];
  int  k;

  PetscFunctionBegin;
  PetscCall(RequireGroup_Private(h, grp));
  snprintf(path, sizeof path, "%s/nzmax", grp);
  PetscCall(ReadInt_Private(h, path, &s->nzmax));
  snprintf(path, sizeof path, "%s/m", grp);
  PetscCall(ReadInt_Private(h, path, &s->m));
  FcCheckInput(s->m >= 0, h->file, path, "negative number of rows %d", s->m);
  snprintf(path, sizeof path, "%s/n", grp);
  PetscCall(ReadInt_Private(h, path, &s->n));
  FcCheckInput(s->n >= 0, h->file, path, "negative number of columns %d", s->n);
  snprintf(path, sizeof path, "%s/nz", grp);
  PetscCall(ReadInt_Private(h, path, &s->nz));
  FcCheckInput(s->nz >= -2, h->file, path, "nz = %d: unknown storage (-1 compressed columns, -2 compressed rows, >= 0 triplets)", s->nz);
  snprintf(path, sizeof path, "%s/nzmax", grp);
  FcCheckInput(s->nzmax >= 1, h->file, path, "no stored entries (nzmax = %d)", s->nzmax);
  if (s->nz == -1) {
    snprintf(path, sizeof path, "%s/p", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, (long long)s->n + 1, "n + 1 column pointers"));
    snprintf(path, sizeof path, "%s/i", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, s->nzmax, "nzmax row indices"));
  } else if (s->nz == -2) {
    snprintf(path, sizeof path, "%s/p", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, (long long)s->m + 1, "m + 1 row pointers"));
    snprintf(path, sizeof path, "%s/i", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, s->nzmax, "nzmax column indices"));
  } else {
    snprintf(path, sizeof path, "%s/nz", grp);
    FcCheckInput(s->nz >= 1 && s->nz <= s->nzmax, h->file, path, "%d triplets, expected 1 to nzmax = %d", s->nz, s->nzmax);
    snprintf(path, sizeof path, "%s/p", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, s->nz, "nz row indices of the triplets"));
    snprintf(path, sizeof path, "%s/i", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, s->nz, "nz column indices of the triplets"));
  }
  snprintf(path, sizeof path, "%s/x", grp);
  PetscCall(RequireNumbers_Private(h, path, PETSC_FALSE, s->nzmax, "nzmax values"));
  /* Optional matrix information: read as a whole by libfclib when "conditioning" is present. */
  snprintf(path, sizeof path, "%s/conditioning", grp);
  PetscCall(Link_Private(h, path, &k));
  if (k != FC_LINK_MISSING) {
    PetscCall(RequireNumbers_Private(h, path, PETSC_FALSE, 1, "one number"));
    PetscCall(ReadUnused_Private(h, path, 1));
    snprintf(path, sizeof path, "%s/determinant", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_FALSE, 1, "one number"));
    PetscCall(ReadUnused_Private(h, path, 1));
    snprintf(path, sizeof path, "%s/rank", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, 1, "one integer"));
    PetscCall(ReadUnused_Private(h, path, 1));
    snprintf(path, sizeof path, "%s/comment", grp);
    PetscCall(OptionalString_Private(h, path));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckSpacedim_Private(FcH5 *h, const char *grp)
{
  char path[256];
  int  d;

  PetscFunctionBegin;
  snprintf(path, sizeof path, "%s/spacedim", grp);
  PetscCall(ReadInt_Private(h, path, &d));
  FcCheckInput(d == 3, h->file, path, "spacedim = %d: only 3-D contact (spacedim 3) is supported", d);
  PetscFunctionReturn(0);
}

/* fcsim holds W dense (problem.h): refuse, as input, what could not be allocated anyway. */
static PetscErrorCode CheckDenseSize_Private(FcH5 *h, const char *path, int n)
{
  const double gb = 8.0 * (double)n * (double)n / 1e9;

  PetscFunctionBegin;
  FcCheckInput(gb <= 16.0, h->file, path, "%d contacts: the dense Delassus operator W would need %.0f GB (limit 16 GB)", n / 3, gb);
  PetscFunctionReturn(0);
}

static PetscErrorCode ValidateLocal_Private(FcH5 *h, FcMatShape *Wp)
{
  FcMatShape W;
  int        k;

  PetscFunctionBegin;
  PetscCall(RequireGroup_Private(h, "/fclib_local"));
  PetscCall(CheckSpacedim_Private(h, "/fclib_local"));
  PetscCall(CheckMatrixShape_Private(h, "/fclib_local/W", &W));
  FcCheckInput(W.m == W.n, h->file, "/fclib_local/W", "not square (%d x %d)", W.m, W.n);
  FcCheckInput(W.m > 0, h->file, "/fclib_local/W", "empty (no contacts)");
  FcCheckInput(W.m % 3 == 0, h->file, "/fclib_local/W", "size %d is not a multiple of 3 (3 rows per contact)", W.m);
  PetscCall(CheckDenseSize_Private(h, "/fclib_local/W", W.m));
  *Wp = W;
  PetscCall(Link_Private(h, "/fclib_local/V", &k));
  FcCheckInput(k == FC_LINK_MISSING, h->file, "/fclib_local/V", "mixed problems (V, R, s) are not supported");
  PetscCall(Link_Private(h, "/fclib_local/R", &k));
  FcCheckInput(k == FC_LINK_MISSING, h->file, "/fclib_local/R", "mixed problems (V, R, s) are not supported");
  PetscCall(RequireGroup_Private(h, "/fclib_local/vectors"));
  PetscCall(RequireNumbers_Private(h, "/fclib_local/vectors/q", PETSC_FALSE, W.m, "3 per contact, the size of W"));
  PetscCall(RequireNumbers_Private(h, "/fclib_local/vectors/mu", PETSC_FALSE, W.m / 3, "one per contact"));
  PetscCall(OptionalInfo_Private(h, "/fclib_local"));
  PetscFunctionReturn(0);
}

static PetscErrorCode ValidateGlobal_Private(FcH5 *h, FcMatShape *Mp, FcMatShape *Hp)
{
  FcMatShape M, H;
  int        k;

  PetscFunctionBegin;
  PetscCall(RequireGroup_Private(h, "/fclib_global"));
  PetscCall(CheckSpacedim_Private(h, "/fclib_global"));
  PetscCall(CheckMatrixShape_Private(h, "/fclib_global/M", &M));
  FcCheckInput(M.m == M.n, h->file, "/fclib_global/M", "not square (%d x %d)", M.m, M.n);
  FcCheckInput(M.m > 0, h->file, "/fclib_global/M", "empty (no degrees of freedom)");
  PetscCall(CheckMatrixShape_Private(h, "/fclib_global/H", &H));
  FcCheckInput(H.m == M.m, h->file, "/fclib_global/H", "has %d rows, expected %d (the size of M)", H.m, M.m);
  FcCheckInput(H.n > 0, h->file, "/fclib_global/H", "no columns (no contacts)");
  FcCheckInput(H.n % 3 == 0, h->file, "/fclib_global/H", "%d columns is not a multiple of 3 (3 per contact)", H.n);
  PetscCall(CheckDenseSize_Private(h, "/fclib_global/H", H.n));
  PetscCall(Link_Private(h, "/fclib_global/G", &k));
  FcCheckInput(k == FC_LINK_MISSING, h->file, "/fclib_global/G", "equality constraints (G, b) are not supported");
  PetscCall(RequireGroup_Private(h, "/fclib_global/vectors"));
  PetscCall(RequireNumbers_Private(h, "/fclib_global/vectors/f", PETSC_FALSE, M.m, "the size of M"));
  PetscCall(RequireNumbers_Private(h, "/fclib_global/vectors/w", PETSC_FALSE, H.n, "the number of columns of H"));
  PetscCall(RequireNumbers_Private(h, "/fclib_global/vectors/mu", PETSC_FALSE, H.n / 3, "one per contact"));
  PetscCall(OptionalInfo_Private(h, "/fclib_global"));
  *Mp = M;
  *Hp = H;
  PetscFunctionReturn(0);
}

typedef enum {
  FC_FCLIB_LOCAL,
  FC_FCLIB_GLOBAL
} FcFCLIBKind;

/* The file as a whole: readable, HDF5, and which problem it holds. */
static PetscErrorCode ProbeFile_Private(const char *path, FcH5 *h, FcFCLIBKind *kind)
{
  htri_t is;
  hid_t  fapl;
  int    kl, kg;

  PetscFunctionBegin;
  h->file = path;
  h->fid  = -1;
  if (access(path, F_OK)) return FcInputError(path, NULL, "no such file");
  if (!FcFileReadable(path)) return FcInputError(path, NULL, "cannot read the file (%s)", strerror(errno));
  is = H5Fis_hdf5(path);
  if (is <= 0) return FcInputError(path, NULL, "not an HDF5 file");
  /* "strong" close: H5Fclose also closes whatever object a failed call may have left open */
  if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) >= 0) {
    if (H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0) h->fid = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
  }
  if (h->fid < 0) return FcInputError(path, NULL, "cannot be opened as an HDF5 file");
  PetscCall(Link_Private(h, "/fclib_local", &kl));
  PetscCall(Link_Private(h, "/fclib_global", &kg));
  if (kl == FC_LINK_MISSING && kg == FC_LINK_MISSING) return FcInputError(path, NULL, "no FCLIB problem (neither /fclib_local nor /fclib_global)");
  /* libfclib's solution reader takes the global problem when both are present; so do we. */
  *kind = kg != FC_LINK_MISSING ? FC_FCLIB_GLOBAL : FC_FCLIB_LOCAL;
  PetscFunctionReturn(0);
}

/* HDF5 prints its error stack on every failed call by default; probing fails on purpose. */
typedef struct {
  H5E_auto2_t func;
  void       *data;
} FcH5Quiet;

static void QuietBegin_Private(FcH5Quiet *q)
{
  H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void QuietEnd_Private(FcH5Quiet *q)
{
  H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

/* HDF5 1.10 leaks internal free-list blocks when it parses damaged metadata, with every id
 * closed (nothing a caller can release), and its shutdown then prints "HDF5: infinite loop
 * closing library" and a line of interface names, but only when error printing is on (it checks
 * H5Eget_auto2 first). The MPI build of HDF5 shuts down in MPI_Finalize (PetscFinalize), from
 * the delete callback of an attribute it puts on MPI_COMM_SELF when it initializes; MPI calls
 * those callbacks in the reverse order of their creation, so an attribute set after HDF5's runs
 * first, and turns error printing off. (Without MPI, HDF5 shuts down from atexit(), which also
 * runs handlers last-in first-out.) Set up at the first read, since even a read that succeeds
 * may have stepped over damaged links on its way. */
static void QuietShutdown_Private(void)
{
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static int QuietShutdownMPI_Private(MPI_Comm comm, int keyval, void *attr, void *extra)
{
  (void)comm;
  (void)keyval;
  (void)attr;
  (void)extra;
  QuietShutdown_Private();
  return MPI_SUCCESS;
}

static void QuietShutdownSetup_Private(void)
{
  static PetscBool done = PETSC_FALSE;
  int              init = 0, fin = 0, key;

  if (done) return;
  done = PETSC_TRUE;
  if (H5open() < 0) return; /* HDF5's own callback and handler are registered first */
  (void)atexit(QuietShutdown_Private);
  if (MPI_Initialized(&init) != MPI_SUCCESS || MPI_Finalized(&fin) != MPI_SUCCESS || !init || fin) return;
  if (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, QuietShutdownMPI_Private, &key, NULL) != MPI_SUCCESS) return;
  (void)MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
  (void)MPI_Comm_free_keyval(&key);
}

static void CloseFile_Private(FcH5 *h)
{
  if (h->fid >= 0) H5Fclose(h->fid);
  h->fid = -1;
}

/* ------------------------------------------------------------------------------------------ */
/* Values, on what was read (sizes already guaranteed by the validation). */

static PetscErrorCode CheckMatrixValues_Private(const char *file, const char *grp, const struct fclib_matrix *A)
{
  char path[256];

  PetscFunctionBegin;
  if (A->nz < 0) { /* compressed: nz == -1 columns, -2 rows */
    const int  nout = A->nz == -1 ? A->n : A->m, nin = A->nz == -1 ? A->m : A->n;
    const char *in  = A->nz == -1 ? "row" : "column";
    snprintf(path, sizeof path, "%s/p", grp);
    for (int j = 0; j < nout; j++) FcCheckInput(A->p[j] >= 0 && A->p[j] <= A->p[j + 1] && A->p[j + 1] <= A->nzmax, file, path, "pointers must be nondecreasing within [0, nzmax = %d] (p[%d] = %d, p[%d] = %d)", A->nzmax, j, A->p[j], j + 1, A->p[j + 1]);
    for (int k = A->p[0]; k < A->p[nout]; k++) {
      snprintf(path, sizeof path, "%s/i", grp);
      FcCheckInput(A->i[k] >= 0 && A->i[k] < nin, file, path, "%s index %d out of range [0, %d) (entry %d)", in, A->i[k], nin, k);
      snprintf(path, sizeof path, "%s/x", grp);
      FcCheckInput(!PetscIsInfOrNanReal(A->x[k]), file, path, "value %g (entry %d) is not finite", A->x[k], k);
    }
  } else {
    for (int k = 0; k < A->nz; k++) {
      snprintf(path, sizeof path, "%s/p", grp);
      FcCheckInput(A->p[k] >= 0 && A->p[k] < A->m, file, path, "row index %d out of range [0, %d) (triplet %d)", A->p[k], A->m, k);
      snprintf(path, sizeof path, "%s/i", grp);
      FcCheckInput(A->i[k] >= 0 && A->i[k] < A->n, file, path, "column index %d out of range [0, %d) (triplet %d)", A->i[k], A->n, k);
      snprintf(path, sizeof path, "%s/x", grp);
      FcCheckInput(!PetscIsInfOrNanReal(A->x[k]), file, path, "value %g (triplet %d) is not finite", A->x[k], k);
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckFinite_Private(const char *file, const char *path, const char *name, int n, const double *v)
{
  PetscFunctionBegin;
  for (int i = 0; i < n; i++) FcCheckInput(!PetscIsInfOrNanReal(v[i]), file, path, "%s[%d] = %g is not finite", name, i, v[i]);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckMu_Private(const char *file, const char *path, int m, const double *mu)
{
  PetscFunctionBegin;
  for (int a = 0; a < m; a++) FcCheckInput(mu[a] >= 0 && !PetscIsInfOrNanReal(mu[a]), file, path, "mu = %g for contact %d must be finite and >= 0", mu[a], a);
  PetscFunctionReturn(0);
}

/* Calls f(ctx, row, col, value) for every stored entry (duplicates are summed by the callers,
 * the usual reading of compressed and triplet forms). */
#define FC_FOR_EACH_ENTRY(A, ROW, COL, VAL, BODY) \
  do { \
    if ((A)->nz == -1) { \
      for (int j_ = 0; j_ < (A)->n; j_++) \
        for (int k_ = (A)->p[j_]; k_ < (A)->p[j_ + 1]; k_++) { \
          const int    ROW = (A)->i[k_], COL = j_; \
          const double VAL = (A)->x[k_]; \
          BODY; \
        } \
    } else if ((A)->nz == -2) { \
      for (int i_ = 0; i_ < (A)->m; i_++) \
        for (int k_ = (A)->p[i_]; k_ < (A)->p[i_ + 1]; k_++) { \
          const int    ROW = i_, COL = (A)->i[k_]; \
          const double VAL = (A)->x[k_]; \
          BODY; \
        } \
    } else { \
      for (int k_ = 0; k_ < (A)->nz; k_++) { \
        const int    ROW = (A)->p[k_], COL = (A)->i[k_]; \
        const double VAL = (A)->x[k_]; \
        BODY; \
      } \
    } \
  } while (0)

static PetscErrorCode LocalToProblem_Private(const char *file, struct fclib_local *L, FcContactProblem *problem)
{
  const int        n = L->W->m, m = n / 3;
  FcContactProblem p;

  PetscFunctionBegin;
  PetscCall(CheckMatrixValues_Private(file, "/fclib_local/W", L->W));
  PetscCall(CheckFinite_Private(file, "/fclib_local/vectors/q", "q", n, L->q));
  PetscCall(CheckMu_Private(file, "/fclib_local/vectors/mu", m, L->mu));
  PetscCall(FcContactProblemCreate(m, &p));
  FC_FOR_EACH_ENTRY(L->W, i, j, v, p->W[(size_t)i * n + j] += v);
  for (int i = 0; i < n; i++) p->q[i] = L->q[i];
  for (int a = 0; a < m; a++) p->mu[a] = L->mu[a];
  *problem = p;
  PetscFunctionReturn(0);
}

/* A validated matrix as a sequential AIJ matrix, duplicates summed. With diag, every diagonal
 * entry is stored (PETSc's factorizations want it; a zero there then shows up as a zero pivot of
 * M rather than a missing entry, and a shift of M needs no new nonzero). */
static PetscErrorCode MatrixToAIJ_Private(const struct fclib_matrix *A, PetscBool diag, Mat *B)
{
  PetscInt *nnz;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(A->m, &nnz));
  for (int i = 0; i < A->m; i++) nnz[i] = diag ? 1 : 0;
  FC_FOR_EACH_ENTRY(A, i, j, v, (void)j; (void)v; nnz[i]++);
  for (int i = 0; i < A->m; i++) nnz[i] = PetscMin(nnz[i], A->n);
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, A->m, A->n, 0, nnz, B));
  PetscCall(PetscFree(nnz));
  if (diag)
    for (PetscInt i = 0; i < PetscMin(A->m, A->n); i++) PetscCall(MatSetValue(*B, i, i, 0.0, ADD_VALUES));
  FC_FOR_EACH_ENTRY(A, i, j, v, PetscCall(MatSetValue(*B, i, j, v, ADD_VALUES)));
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* The values of a global problem read from file (checked here: indices, finite numbers, μ ≥ 0)
 * into an FcGlobalProblem (src/contact/global_problem.h); its numerics are contact's. */
static PetscErrorCode GlobalToProblem_Private(const char *file, struct fclib_global *G, FcGlobalProblem *global)
{
  const int       nd = G->M->m, n = G->H->n, m = n / 3;
  FcGlobalProblem g;
  PetscReal      *a;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(CheckMatrixValues_Private(file, "/fclib_global/M", G->M));
  PetscCall(CheckMatrixValues_Private(file, "/fclib_global/H", G->H));
  PetscCall(CheckFinite_Private(file, "/fclib_global/vectors/f", "f", nd, G->f));
  PetscCall(CheckFinite_Private(file, "/fclib_global/vectors/w", "w", n, G->w));
  PetscCall(CheckMu_Private(file, "/fclib_global/vectors/mu", m, G->mu));
  PetscCall(FcGlobalProblemCreate(nd, m, &g));
  ierr = PetscStrncpy(g->source, file, sizeof g->source);
  if (!ierr) ierr = MatrixToAIJ_Private(G->M, PETSC_TRUE, &g->M);
  if (!ierr) ierr = MatrixToAIJ_Private(G->H, PETSC_FALSE, &g->H);
  if (!ierr) ierr = VecGetArrayWrite(g->f, &a);
  if (!ierr) {
    for (int i = 0; i < nd; i++) a[i] = G->f[i];
    ierr = VecRestoreArrayWrite(g->f, &a);
  }
  if (!ierr) ierr = VecGetArrayWrite(g->w, &a);
  if (!ierr) {
    for (int i = 0; i < n; i++) a[i] = G->w[i];
    ierr = VecRestoreArrayWrite(g->w, &a);
  }
  if (ierr) {
    PetscCall(FcGlobalProblemDestroy(&g));
    PetscCall(ierr);
  }
  for (int k = 0; k < m; k++) g->mu[k] = G->mu[k];
  *global = g;
  PetscFunctionReturn(0);
}

/* A validated matrix group into A (PetscMalloc'd p, i, x; A->info NULL), sizes as libfclib's
 * read_matrix allocates them. Free with FreeMatrix_Private, also after a failure. */
static PetscErrorCode ReadMatrix_Private(FcH5 *h, const char *grp, const FcMatShape *s, struct fclib_matrix *A)
{
  const int np = s->nz >= 0 ? s->nz : (s->nz == -1 ? s->n : s->m) + 1, ni = s->nz >= 0 ? s->nz : s->nzmax;
  char      path[256];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(A, sizeof *A));
  A->nzmax = s->nzmax;
  A->m     = s->m;
  A->n     = s->n;
  A->nz    = s->nz;
  PetscCall(PetscMalloc3(np, &A->p, ni, &A->i, s->nzmax, &A->x));
  snprintf(path, sizeof path, "%s/p", grp);
  PetscCall(ReadData_Private(h, path, H5T_NATIVE_INT, A->p));
  snprintf(path, sizeof path, "%s/i", grp);
  PetscCall(ReadData_Private(h, path, H5T_NATIVE_INT, A->i));
  snprintf(path, sizeof path, "%s/x", grp);
  PetscCall(ReadData_Private(h, path, H5T_NATIVE_DOUBLE, A->x));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeMatrix_Private(struct fclib_matrix *A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(A->p, A->i, A->x));
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadLocal_Private(FcH5 *h, FcContactProblem *problem)
{
  FcMatShape          Ws;
  struct fclib_matrix W = {0};
  struct fclib_local  L = {0};
  PetscReal          *q = NULL, *mu = NULL;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  PetscCall(ValidateLocal_Private(h, &Ws));
  ierr = ReadMatrix_Private(h, "/fclib_local/W", &Ws, &W);
  if (!ierr) ierr = PetscMalloc2(Ws.m, &q, Ws.m / 3, &mu);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_local/vectors/q", H5T_NATIVE_DOUBLE, q);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, mu);
  if (!ierr) {
    L.W        = &W;
    L.q        = q;
    L.mu       = mu;
    L.spacedim = 3;
    ierr       = LocalToProblem_Private(h->file, &L, problem);
  }
  PetscCall(FreeMatrix_Private(&W));
  PetscCall(PetscFree2(q, mu));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadGlobal_Private(FcH5 *h, FcGlobalProblem *global)
{
  FcMatShape          Ms, Hs;
  struct fclib_matrix M = {0}, H = {0};
  struct fclib_global G = {0};
  PetscReal          *f = NULL, *w = NULL, *mu = NULL;
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  PetscCall(ValidateGlobal_Private(h, &Ms, &Hs));
  ierr = ReadMatrix_Private(h, "/fclib_global/M", &Ms, &M);
  if (!ierr) ierr = ReadMatrix_Private(h, "/fclib_global/H", &Hs, &H);
  if (!ierr) ierr = PetscMalloc3(Ms.m, &f, Hs.n, &w, Hs.n / 3, &mu);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_global/vectors/f", H5T_NATIVE_DOUBLE, f);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_global/vectors/w", H5T_NATIVE_DOUBLE, w);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_global/vectors/mu", H5T_NATIVE_DOUBLE, mu);
  if (!ierr) {
    G.M        = &M;
    G.H        = &H;
    G.f        = f;
    G.w        = w;
    G.mu       = mu;
    G.spacedim = 3;
    ierr       = GlobalToProblem_Private(h->file, &G, global);
  }
  PetscCall(FreeMatrix_Private(&M));
  PetscCall(FreeMatrix_Private(&H));
  PetscCall(PetscFree3(f, w, mu));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadFile_Private(const char *path, FcContactProblem *local, FcGlobalProblem *global)
{
  FcH5           h;
  FcFCLIBKind    kind = FC_FCLIB_LOCAL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = ProbeFile_Private(path, &h, &kind);
  if (!ierr) ierr = kind == FC_FCLIB_LOCAL ? ReadLocal_Private(&h, local) : ReadGlobal_Private(&h, global);
  CloseFile_Private(&h);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBRead(const char *path, FcContactProblem *local, FcGlobalProblem *global)
{
  FcH5Quiet      q;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(path && local && global, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null argument");
  *local  = NULL;
  *global = NULL;
  QuietShutdownSetup_Private();
  QuietBegin_Private(&q);
  ierr = ReadFile_Private(path, local, global);
  QuietEnd_Private(&q);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* A global file whose M is not symmetric positive definite has no local form: one input-error
 * line per status (FcGlobalProblemComputeLocal). */
static PetscErrorCode MassError_Private(const char *file, const FcGlobalMass *mass)
{
  PetscFunctionBegin;
  switch (mass->status) {
  case FC_GLOBAL_MASS_SPD:
    break;
  case FC_GLOBAL_MASS_NOT_SYMMETRIC:
    return FcInputError(file, "/fclib_global/M", "not symmetric (FCLIB's M is symmetric positive definite)");
  case FC_GLOBAL_MASS_SINGULAR:
    return FcInputError(file, "/fclib_global/M", "singular (zero pivot in its Cholesky factorization)");
  case FC_GLOBAL_MASS_NOT_SPD:
    return FcInputError(file, "/fclib_global/M", "not positive definite (%" PetscInt_FMT " negative, %" PetscInt_FMT " zero eigenvalues)", mass->nneg, mass->nzero);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBReadProblem(const char *path, FcContactProblem *problem)
{
  FcGlobalProblem global = NULL;
  FcGlobalMass    mass;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCheck(path && problem, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null argument");
  *problem = NULL;
  PetscCall(FcFCLIBRead(path, problem, &global));
  if (!global) PetscFunctionReturn(0);
  ierr = FcGlobalProblemComputeLocal(global, problem, &mass);
  if (!ierr) ierr = MassError_Private(path, &mass);
  PetscCall(FcGlobalProblemDestroy(&global));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* Writing */

/* W as CSC without its exact zeros (at least one entry is kept: libfclib cannot write an empty
 * dataset, and nzmax >= 1 is what the reader above demands). */
static PetscErrorCode DenseToCSC_Private(FcContactProblem p, struct fclib_matrix *A)
{
  const PetscInt n = 3 * p->m;
  PetscInt       nnz = 0, k = 0;

  PetscFunctionBegin;
  for (size_t i = 0; i < (size_t)n * n; i++) nnz += p->W[i] != 0;
  PetscCall(PetscMalloc3(n + 1, &A->p, PetscMax(nnz, 1), &A->i, PetscMax(nnz, 1), &A->x));
  for (PetscInt j = 0; j < n; j++) {
    A->p[j] = (int)k;
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal v = p->W[(size_t)i * n + j];
      if (v == 0) continue;
      A->i[k]   = (int)i;
      A->x[k++] = v;
    }
  }
  A->p[n] = (int)k;
  if (!nnz) { /* all-zero W: one explicit zero */
    A->i[0] = 0;
    A->x[0] = 0;
    for (PetscInt j = 1; j <= n; j++) A->p[j] = 1;
    nnz = 1;
  }
  A->nzmax = (int)nnz;
  A->m     = (int)n;
  A->n     = (int)n;
  A->nz    = -1;
  A->info  = NULL;
  PetscFunctionReturn(0);
}

/* Write the local problem (and the solution when r) to path through a temporary file renamed at
 * the end, so that a failed write never leaves a file that looks complete. */
static PetscErrorCode WriteFile_Private(const char *path, FcContactProblem p, const FcFCLIBInfo *info, const PetscReal r[], const PetscReal u[])
{
  char                tmp[PETSC_MAX_PATH_LEN + 32];
  FILE               *fp;
  struct fclib_matrix W;
  struct fclib_local  L;
  struct fclib_info   pinfo;
  struct fclib_solution sol;
  PetscReal          *uw = NULL;
  FcH5Quiet           q;
  int                 ok;

  PetscFunctionBegin;
  PetscCheck(p->m >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FCLIB cannot store a problem without contacts");
  PetscCheck(3 * p->m <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Problem too large for FCLIB's int indices");
  snprintf(tmp, sizeof tmp, "%s.partial-%ld", path, (long)getpid());
  /* libfclib appends to an existing file; ours must be new. Its own failure to create a file is
   * a message on stdout/stderr; check first so that the user gets one clear line. */
  (void)unlink(tmp);
  fp = fopen(tmp, "w");
  if (!fp) return FcInputError(path, NULL, "cannot create the file (%s)", strerror(errno));
  fclose(fp);
  (void)unlink(tmp);

  PetscCall(DenseToCSC_Private(p, &W));
  L.W        = &W;
  L.V        = NULL;
  L.R        = NULL;
  L.mu       = p->mu;
  L.q        = p->q;
  L.s        = NULL;
  L.spacedim = 3;
  L.info     = NULL;
  if (info && (info->title || info->description || info->math_info)) {
    /* libfclib's struct has char *, but only reads these strings when writing */
    pinfo.title       = (char *)info->title;
    pinfo.description = (char *)info->description;
    pinfo.math_info   = (char *)info->math_info;
    L.info            = &pinfo;
  }
  QuietBegin_Private(&q);
  ok = fclib_write_local(&L, tmp);
  QuietEnd_Private(&q);
  PetscCall(PetscFree3(W.p, W.i, W.x));
  if (ok && r) {
    if (!u) {
      PetscCall(PetscMalloc1(3 * p->m, &uw));
      PetscCall(FcContactProblemComputeVelocity(p, r, uw));
      u = uw;
    }
    sol.v = NULL;
    sol.l = NULL;
    sol.r = (double *)r; /* read only by libfclib */
    sol.u = (double *)u;
    QuietBegin_Private(&q);
    ok = fclib_write_solution(&sol, tmp);
    QuietEnd_Private(&q);
    PetscCall(PetscFree(uw));
  }
  if (!ok) {
    (void)unlink(tmp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "libfclib could not write %s", tmp);
  }
  if (rename(tmp, path)) {
    const int e = errno;
    (void)unlink(tmp);
    return FcInputError(path, NULL, "cannot replace the file (%s)", strerror(e));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBWriteLocal(const char *path, FcContactProblem problem, const FcFCLIBInfo *info)
{
  PetscFunctionBegin;
  PetscCall(WriteFile_Private(path, problem, info, NULL, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBWriteSolution(const char *path, FcContactProblem problem, const FcFCLIBInfo *info, const PetscReal r[], const PetscReal u[])
{
  PetscFunctionBegin;
  PetscCheck(r, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null r");
  PetscCall(WriteFile_Private(path, problem, info, r, u));
  PetscFunctionReturn(0);
}

/* What fclib_read_solution reads: sizes from the problem (global: M/n, H/n, G/n; local: W/n,
 * R/n), then /solution/v (global), /solution/l (G or R), /solution/u and /solution/r. */
static PetscErrorCode ValidateSolution_Private(FcH5 *h, FcFCLIBKind kind, PetscInt m)
{
  int nv = 0, nr, nl = 0, k;

  PetscFunctionBegin;
  if (kind == FC_FCLIB_GLOBAL) {
    PetscCall(Link_Private(h, "/fclib_global/G", &k));
    FcCheckInput(k == FC_LINK_MISSING, h->file, "/fclib_global/G", "equality constraints (G, b) are not supported");
    PetscCall(ReadInt_Private(h, "/fclib_global/M/n", &nv));
    PetscCall(ReadInt_Private(h, "/fclib_global/H/n", &nr));
    FcCheckInput(nr == 3 * m, h->file, "/fclib_global/H/n", "%d contact rows, expected %" PetscInt_FMT " (3 per contact)", nr, 3 * m);
  } else {
    PetscCall(Link_Private(h, "/fclib_local/R", &k));
    FcCheckInput(k == FC_LINK_MISSING, h->file, "/fclib_local/R", "mixed problems (V, R, s) are not supported");
    PetscCall(ReadInt_Private(h, "/fclib_local/W/n", &nr));
    FcCheckInput(nr == 3 * m, h->file, "/fclib_local/W/n", "%d contact rows, expected %" PetscInt_FMT " (3 per contact)", nr, 3 * m);
  }
  FcCheckInput(nv >= 0 && nr > 0, h->file, kind == FC_FCLIB_GLOBAL ? "/fclib_global" : "/fclib_local", "invalid sizes");
  PetscCall(RequireGroup_Private(h, "/solution"));
  if (nv) PetscCall(RequireNumbers_Private(h, "/solution/v", PETSC_FALSE, nv, "the size of M"));
  if (nl) PetscCall(RequireNumbers_Private(h, "/solution/l", PETSC_FALSE, nl, "the multipliers"));
  PetscCall(RequireNumbers_Private(h, "/solution/u", PETSC_FALSE, nr, "3 per contact"));
  PetscCall(RequireNumbers_Private(h, "/solution/r", PETSC_FALSE, nr, "3 per contact"));
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadSolution_Private(const char *path, PetscInt m, PetscReal r[], PetscReal u[])
{
  FcH5           h;
  FcFCLIBKind    kind = FC_FCLIB_LOCAL;
  PetscErrorCode ierr;
  PetscReal     *rr = NULL, *uu = NULL;

  PetscFunctionBegin;
  ierr = ProbeFile_Private(path, &h, &kind);
  if (!ierr) ierr = ValidateSolution_Private(&h, kind, m);
  if (!ierr) ierr = PetscMalloc2(3 * m, &rr, 3 * m, &uu);
  if (!ierr) ierr = ReadData_Private(&h, "/solution/r", H5T_NATIVE_DOUBLE, rr);
  if (!ierr) ierr = ReadData_Private(&h, "/solution/u", H5T_NATIVE_DOUBLE, uu);
  CloseFile_Private(&h);
  if (!ierr) ierr = CheckFinite_Private(path, "/solution/r", "r", 3 * (int)m, rr);
  if (!ierr && u) ierr = CheckFinite_Private(path, "/solution/u", "u", 3 * (int)m, uu);
  if (!ierr) {
    for (PetscInt i = 0; i < 3 * m; i++) r[i] = rr[i];
    if (u)
      for (PetscInt i = 0; i < 3 * m; i++) u[i] = uu[i];
  }
  PetscCall(PetscFree2(rr, uu));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBReadSolution(const char *path, PetscInt m, PetscReal r[], PetscReal u[])
{
  FcH5Quiet      q;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(path && r, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null argument");
  PetscCheck(m >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FCLIB solutions have at least one contact");
  QuietShutdownSetup_Private();
  QuietBegin_Private(&q);
  ierr = ReadSolution_Private(path, m, r, u);
  QuietEnd_Private(&q);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}
