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
 * error printing off meanwhile and every HDF5 object closed. Matrices are read as producers write
 * them, which is more than libfclib reads: triplets in fclib.h's convention (p rows, i columns)
 * or in CSparse's (i rows, p columns: Siconos), decided per file ("Triplet conventions" below),
 * and arrays of any length from the entries used (nz, or p[end]) to nzmax, CSparse's cs struct
 * holding nzmax entries of which it uses those. A global problem is handed over as plain data
 * (FcGlobalProblem); its reformulation is src/contact's (global_problem.c). */
#include "fclib_io.h"
#include "h5check.h"
#include "../core/fsutil.h"
#include <fclib.h>
#include <hdf5.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
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
  case H5T_INTEGER: return "integer";
  case H5T_FLOAT: return "floating-point";
  case H5T_STRING: return "string";
  default: return "non-numeric";
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
  if (di.cls != H5T_INTEGER || di.npoints != 1)
    return FcInputError(h->file, path, "expected one integer, found %lld %s value(s)", di.npoints, ClassName_Private(di.cls));
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
  if (!integer && di.cls != H5T_FLOAT && di.cls != H5T_INTEGER)
    return FcInputError(h->file, path, "expected numbers (%s), found %s values", what, ClassName_Private(di.cls));
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
  int       m, n, nz, nzmax;
  long long lp, li, lx; /* lengths of the datasets p, i, x */
} FcMatShape;

/* A dataset of integers or numbers of lo (nz, or 0) to hi (nzmax) entries; its length in *len. */
static PetscErrorCode RequireLength_Private(FcH5 *h, const char *path, PetscBool integer, long long lo, long long hi, const char *what, long long *len)
{
  FcDsetInfo di;

  PetscFunctionBegin;
  PetscCall(RequireDataset_Private(h, path, &di));
  if (integer && di.cls != H5T_INTEGER) return FcInputError(h->file, path, "expected integers (%s), found %s values", what, ClassName_Private(di.cls));
  if (!integer && di.cls != H5T_FLOAT && di.cls != H5T_INTEGER)
    return FcInputError(h->file, path, "expected numbers (%s), found %s values", what, ClassName_Private(di.cls));
  if (di.npoints > hi) return FcInputError(h->file, path, "has %lld entries, expected at most nzmax = %lld (%s)", di.npoints, hi, what);
  if (di.npoints < lo) return FcInputError(h->file, path, "has %lld entries, expected at least nz = %lld (%s)", di.npoints, lo, what);
  *len = di.npoints;
  PetscFunctionReturn(0);
}

/* Everything a matrix group holds (what libfclib's read_matrix reads), with the array lengths
 * CSparse's conventions allow. */
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
  /* CSparse (cs_spalloc) allocates nzmax entries and uses the first nz (triplets) or p[end]
   * (compressed); producers write either the used part or the whole arrays. So i and x (and the
   * p of triplets) may have any length from the entries used to nzmax; the entries past those
   * used are ignored. For compressed forms, p[end] against these lengths is checked once p is
   * read (CheckMatrixValues_Private). */
  if (s->nz == -1) {
    snprintf(path, sizeof path, "%s/p", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, (long long)s->n + 1, "n + 1 column pointers"));
    s->lp = (long long)s->n + 1;
    snprintf(path, sizeof path, "%s/i", grp);
    PetscCall(RequireLength_Private(h, path, PETSC_TRUE, 0, s->nzmax, "row indices", &s->li));
  } else if (s->nz == -2) {
    snprintf(path, sizeof path, "%s/p", grp);
    PetscCall(RequireNumbers_Private(h, path, PETSC_TRUE, (long long)s->m + 1, "m + 1 row pointers"));
    s->lp = (long long)s->m + 1;
    snprintf(path, sizeof path, "%s/i", grp);
    PetscCall(RequireLength_Private(h, path, PETSC_TRUE, 0, s->nzmax, "column indices", &s->li));
  } else {
    snprintf(path, sizeof path, "%s/nz", grp);
    FcCheckInput(s->nz >= 1 && s->nz <= s->nzmax, h->file, path, "%d triplets, expected 1 to nzmax = %d", s->nz, s->nzmax);
    snprintf(path, sizeof path, "%s/p", grp);
    PetscCall(RequireLength_Private(h, path, PETSC_TRUE, s->nz, s->nzmax, "row or column indices of the triplets", &s->lp));
    snprintf(path, sizeof path, "%s/i", grp);
    PetscCall(RequireLength_Private(h, path, PETSC_TRUE, s->nz, s->nzmax, "row or column indices of the triplets", &s->li));
  }
  snprintf(path, sizeof path, "%s/x", grp);
  PetscCall(RequireLength_Private(h, path, PETSC_FALSE, s->nz >= 0 ? s->nz : 0, s->nzmax, "values", &s->lx));
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

/* A dense W (problem.h) of n rows: refuse, as input, what could not be allocated anyway. The reader
 * stores W dense only when its blocks fill 75 % of it (LocalToProblem_Private); a global problem's
 * local reformulation (contact/global_problem.c) forms W from H's 3m columns. */
static PetscErrorCode CheckDenseSize_Private(const char *file, const char *path, int n)
{
  const double gb = 8.0 * (double)n * (double)n / 1e9;

  PetscFunctionBegin;
  FcCheckInput(gb <= 16.0, file, path, "%d contacts: the dense Delassus operator W would need %.0f GB (limit 16 GB)", n / 3, gb);
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
  PetscCall(CheckDenseSize_Private(h->file, "/fclib_global/H", H.n));
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

typedef enum { FC_FCLIB_LOCAL, FC_FCLIB_GLOBAL } FcFCLIBKind;

/* The file as a whole: readable, HDF5, and which problem it holds. */
static PetscErrorCode ProbeFile_Private(const char *path, FcH5 *h, FcFCLIBKind *kind)
{
  htri_t     is;
  hid_t      fapl;
  int        kl, kg;
  PetscInt64 size = 0;

  PetscFunctionBegin;
  h->file = path;
  h->fid  = -1;
  /* a regular file only (H5Fis_hdf5 would block on a FIFO and read a device forever) */
  {
    const char *kind;
    int         fd = FcInputFileOpenFd(path, &size, &kind);
    if (fd >= 0) close(fd);
    else if (fd == -2) return FcInputError(path, NULL, "is %s, not a regular file: not an HDF5 file fcsim can read", kind);
    else if (errno == ENOENT) return FcInputError(path, NULL, "no such file");
    else return FcInputError(path, NULL, "cannot read the file (%s)", strerror(errno));
  }
  is = H5Fis_hdf5(path);
  if (is <= 0) return FcInputError(path, NULL, "not an HDF5 file");
  /* "strong" close: H5Fclose also closes whatever object a failed call may have left open */
  if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) >= 0) {
    if (H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0) h->fid = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
  }
  if (h->fid < 0) return FcInputError(path, NULL, "cannot be opened as an HDF5 file");
  /* before any dataset is read: the file names only itself and declares no more than it holds */
  PetscCall(FcH5CheckFile(h->fid, path, size));
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

static void QuietEnd_Private(FcH5Quiet *q) { H5Eset_auto2(H5E_DEFAULT, q->func, q->data); }

/* HDF5 1.10 leaks internal free-list blocks when it parses damaged metadata, with every id
 * closed (nothing a caller can release), and its shutdown then prints "HDF5: infinite loop
 * closing library" and a line of interface names, but only when error printing is on (it checks
 * H5Eget_auto2 first). The MPI build of HDF5 shuts down in MPI_Finalize (PetscFinalize), from
 * the delete callback of an attribute it puts on MPI_COMM_SELF when it initializes; MPI calls
 * those callbacks in the reverse order of their creation, so an attribute set after HDF5's runs
 * first, and turns error printing off. (Without MPI, HDF5 shuts down from atexit(), which also
 * runs handlers last-in first-out.) Set up at the first read, since even a read that succeeds
 * may have stepped over damaged links on its way. */
static void QuietShutdown_Private(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

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

/* A compressed column (row) lists each of its rows (columns) once: that is the compressed form
 * (Davis, "Direct Methods for Sparse Linear Systems", SIAM 2006, §2.2, after cs_dupl; fclib.h's
 * CSC/CSR are CSparse's), and a repeated index there cannot be told from a damaged file, whose
 * meaning (summed? the last one?) nothing defines. Refused, naming the index and both entries.
 * Triplets may repeat an entry: those are summed (§2.1, cs_entry then cs_compress and cs_dupl).
 * O(entries + inner dimension): last[r] is the last entry of index r seen; it lies in the current
 * column exactly when it is at or after the column's first entry (pointers checked nondecreasing). */
static PetscErrorCode CheckCompressedDuplicates_Private(const char *file, const char *grp, const struct fclib_matrix *A)
{
  const int nout = A->nz == -1 ? A->n : A->m, nin = A->nz == -1 ? A->m : A->n;
  int      *last, dk = -1, dprev = -1, dout = -1;
  char      path[256];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)nin + 1, &last));
  for (int r = 0; r < nin; r++) last[r] = -1;
  for (int j = 0; j < nout && dk < 0; j++)
    for (int k = A->p[j]; k < A->p[j + 1]; k++) {
      if (last[A->i[k]] >= A->p[j]) {
        dk    = k;
        dprev = last[A->i[k]];
        dout  = j;
        break;
      }
      last[A->i[k]] = k;
    }
  PetscCall(PetscFree(last));
  snprintf(path, sizeof path, "%s/i", grp);
  FcCheckInput(dk < 0, file, path,
    "%s index %d given twice in %s %d (entries %d and %d): a compressed %s lists each %s once (only triplets may repeat an entry, and are summed)",
    A->nz == -1 ? "row" : "column", dk >= 0 ? A->i[dk] : 0, A->nz == -1 ? "column" : "row", dout, dprev, dk, A->nz == -1 ? "column" : "row",
    A->nz == -1 ? "row" : "column");
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckMatrixValues_Private(const char *file, const char *grp, const struct fclib_matrix *A, const FcMatShape *s)
{
  char path[256];

  PetscFunctionBegin;
  if (A->nz < 0) { /* compressed: nz == -1 columns, -2 rows */
    const int   nout = A->nz == -1 ? A->n : A->m, nin = A->nz == -1 ? A->m : A->n;
    const char *in = A->nz == -1 ? "row" : "column";
    snprintf(path, sizeof path, "%s/p", grp);
    for (int j = 0; j < nout; j++)
      FcCheckInput(A->p[j] >= 0 && A->p[j] <= A->p[j + 1] && A->p[j + 1] <= A->nzmax, file, path,
        "pointers must be nondecreasing within [0, nzmax = %d] (p[%d] = %d, p[%d] = %d)", A->nzmax, j, A->p[j], j + 1, A->p[j + 1]);
    snprintf(path, sizeof path, "%s/i", grp);
    FcCheckInput(A->p[nout] <= s->li, file, path, "has %lld entries, fewer than the p[%d] = %d that the pointers address", s->li, nout, A->p[nout]);
    snprintf(path, sizeof path, "%s/x", grp);
    FcCheckInput(A->p[nout] <= s->lx, file, path, "has %lld entries, fewer than the p[%d] = %d that the pointers address", s->lx, nout, A->p[nout]);
    for (int k = A->p[0]; k < A->p[nout]; k++) {
      snprintf(path, sizeof path, "%s/i", grp);
      FcCheckInput(A->i[k] >= 0 && A->i[k] < nin, file, path, "%s index %d out of range [0, %d) (entry %d)", in, A->i[k], nin, k);
      snprintf(path, sizeof path, "%s/x", grp);
      FcCheckInput(!PetscIsInfOrNanReal(A->x[k]), file, path, "value %g (entry %d) is not finite", A->x[k], k);
    }
    PetscCall(CheckCompressedDuplicates_Private(file, grp, A));
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

/* ------------------------------------------------------------------------------------------ */
/* Triplet conventions. fclib.h documents triplets as p = row indices, i = column indices (the
 * "FCLIB convention"); CSparse's cs struct (Davis, "Direct Methods for Sparse Linear Systems",
 * SIAM 2006, §2.1), which Siconos — the main producer of FCLIB files — fills and writes, has
 * i = row indices, p = column indices (the "CSparse convention"). A file does not say which.
 * The index ranges tell for a matrix that is not square when only one reading fits in
 * [0, m) × [0, n) (H is n × 3m in a global problem: a row index is below n). For a square
 * matrix the two readings are transposes of each other: it takes the convention another matrix
 * of the same file revealed (one producer writes a file, so one convention holds for all its
 * triplet matrices); without one, a symmetric matrix reads the same either way, and any other is
 * refused ("cannot be decided"): a guess would silently solve the transposed problem. */

typedef enum {
  FC_TRIPLET_FCLIB,     /* p rows, i columns (fclib.h) */
  FC_TRIPLET_CSPARSE,   /* i rows, p columns (CSparse, Siconos) */
  FC_TRIPLET_SYMMETRIC, /* both readings fit and agree (square, symmetric) */
  FC_TRIPLET_UNDECIDED  /* both readings fit and differ */
} FcTripletFit;

static const char *const FcTripletConvName[2] = {"FCLIB convention (p rows, i columns)", "CSparse convention (i rows, p columns)"};

/* One matrix of a file being read: what the reader decided, for the file-wide decision and the
 * -v line. */
typedef struct {
  const char          *grp; /* "/fclib_global/H" */
  struct fclib_matrix *A;
  FcTripletFit         fit;
  int                  conv; /* FC_TRIPLET_FCLIB or FC_TRIPLET_CSPARSE, once decided */
  PetscReal            asym; /* square, both readings fit: max |a_ij - a_ji| / max |a_ij| */
  const char          *by;   /* the matrix whose ranges revealed conv, or NULL */
} FcMatRead;

typedef struct {
  long long key; /* row * n + column */
  double    v;
} FcTripletEntry;

static int CompareTripletEntry_Private(const void *a, const void *b)
{
  const long long x = ((const FcTripletEntry *)a)->key, y = ((const FcTripletEntry *)b)->key;
  return x < y ? -1 : x > y;
}

/* max |a_ij - a_ji| / max |a_ij| of a square triplet matrix in either reading (the same number:
 * the readings are transposes), duplicates summed first as CSparse's cs_compress sums them. */
static PetscErrorCode TripletAsymmetry_Private(const struct fclib_matrix *A, PetscReal *asym)
{
  const long long n  = A->n;
  int             nu = 0;
  FcTripletEntry *e;
  PetscReal       amax = 0, d = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(A->nz, &e));
  for (int k = 0; k < A->nz; k++) {
    e[k].key = (long long)A->p[k] * n + A->i[k];
    e[k].v   = A->x[k];
  }
  qsort(e, (size_t)A->nz, sizeof *e, CompareTripletEntry_Private);
  for (int k = 0; k < A->nz; k++) {
    if (nu && e[nu - 1].key == e[k].key) e[nu - 1].v += e[k].v;
    else e[nu++] = e[k];
  }
  for (int k = 0; k < nu; k++) amax = PetscMax(amax, PetscAbsReal(e[k].v));
  for (int k = 0; k < nu; k++) {
    const FcTripletEntry  t = {(e[k].key % n) * n + e[k].key / n, 0};
    const FcTripletEntry *f = bsearch(&t, e, (size_t)nu, sizeof *e, CompareTripletEntry_Private);
    d                       = PetscMax(d, PetscAbsReal(e[k].v - (f ? f->v : 0.0)));
  }
  *asym = amax > 0 ? d / amax : 0;
  PetscCall(PetscFree(e));
  PetscFunctionReturn(0);
}

/* Whether a square matrix is symmetric enough for its two readings to be the same problem: the
 * tolerance src/contact uses for M (global_problem.c, 1e-12 max|M|); the readings then differ
 * by at most that, far below any solver tolerance. */
#define FC_TRIPLET_SYMMETRY_TOL 1e-12

/* Which readings of the triplets of mr->A fit its shape (values checked finite first, so that a
 * NaN is reported as such rather than as an asymmetry). Fitting neither is an input error. */
static PetscErrorCode TripletFit_Private(const char *file, FcMatRead *mr)
{
  const struct fclib_matrix *A    = mr->A;
  int                        badF = -1, badC = -1; /* first triplet out of range in each reading */
  char                       path[256];

  PetscFunctionBegin;
  snprintf(path, sizeof path, "%s/x", mr->grp);
  for (int k = 0; k < A->nz; k++) FcCheckInput(!PetscIsInfOrNanReal(A->x[k]), file, path, "value %g (triplet %d) is not finite", A->x[k], k);
  for (int k = 0; k < A->nz && (badF < 0 || badC < 0); k++) {
    if (badF < 0 && !(A->p[k] >= 0 && A->p[k] < A->m && A->i[k] >= 0 && A->i[k] < A->n)) badF = k;
    if (badC < 0 && !(A->i[k] >= 0 && A->i[k] < A->m && A->p[k] >= 0 && A->p[k] < A->n)) badC = k;
  }
  if (badF >= 0 && badC >= 0) {
    if (A->m == A->n) { /* the same range for both arrays in both readings: name the array */
      const PetscBool inp = A->p[badF] < 0 || A->p[badF] >= A->m;
      snprintf(path, sizeof path, "%s/%s", mr->grp, inp ? "p" : "i");
      return FcInputError(file, path, "index %d out of range [0, %d) in either triplet convention (triplet %d)", inp ? A->p[badF] : A->i[badF], A->m, badF);
    }
    return FcInputError(file, mr->grp,
      "triplet indices fit neither convention in %d x %d: FCLIB's (p rows, i columns) has (p, i)[%d] = (%d, %d), CSparse's (i rows, p columns) has (i, p)[%d] = (%d, %d)",
      A->m, A->n, badF, A->p[badF], A->i[badF], badC, A->i[badC], A->p[badC]);
  }
  mr->asym = 0;
  if (badF < 0 && badC >= 0) mr->fit = FC_TRIPLET_FCLIB;
  else if (badC < 0 && badF >= 0) mr->fit = FC_TRIPLET_CSPARSE;
  else if (A->m != A->n) mr->fit = FC_TRIPLET_UNDECIDED;
  else {
    PetscCall(TripletAsymmetry_Private(A, &mr->asym));
    mr->fit = mr->asym <= FC_TRIPLET_SYMMETRY_TOL ? FC_TRIPLET_SYMMETRIC : FC_TRIPLET_UNDECIDED;
  }
  PetscFunctionReturn(0);
}

/* The -v line of one matrix: its storage and, for triplets, the convention and why. */
static PetscErrorCode MatrixVerbose_Private(const char *file, const FcMatRead *mr)
{
  const struct fclib_matrix *A = mr->A;
  char                       why[256];

  PetscFunctionBegin;
  if (FcVerbosity < 2) PetscFunctionReturn(0);
  if (A->nz == -1 || A->nz == -2) {
    const int np = A->nz == -1 ? A->n : A->m;
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "%s: %s: compressed %s (nz %d: p %d %s pointers, i %s indices), %d entries of nzmax %d\n", file, mr->grp,
      A->nz == -1 ? "columns" : "rows", A->nz, np + 1, A->nz == -1 ? "column" : "row", A->nz == -1 ? "row" : "column", A->p[np] - A->p[0], A->nzmax));
    PetscFunctionReturn(0);
  }
  switch (mr->fit) {
  case FC_TRIPLET_FCLIB:
  case FC_TRIPLET_CSPARSE: snprintf(why, sizeof why, "the only reading whose indices fit %d x %d", A->m, A->n); break;
  case FC_TRIPLET_SYMMETRIC:
    snprintf(why, sizeof why, "symmetric: both conventions read the same matrix, asymmetry %.1e of max|a|%s%s%s", (double)mr->asym, mr->by ? "; as " : "",
      mr->by ? mr->by : "", mr->by ? " revealed" : "");
    break;
  case FC_TRIPLET_UNDECIDED: snprintf(why, sizeof why, "as %s revealed", mr->by); break;
  }
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "%s: %s: triplet, %s (%s), nz %d of nzmax %d\n", file, mr->grp,
    mr->fit == FC_TRIPLET_SYMMETRIC && !mr->by ? "either convention" : FcTripletConvName[mr->conv], why, A->nz, A->nzmax));
  PetscFunctionReturn(0);
}

/* Decide the convention of every triplet matrix of one file (mr[0..nm)), read in place: in
 * CSparse's convention p and i are swapped, so that what follows reads fclib.h's (p rows, i
 * columns). Then one -v line per matrix. At most one matrix of a file can reveal a convention by
 * its ranges, the one that is not square (H of a global problem; W and M are square). */
static PetscErrorCode DecideTriplets_Private(const char *file, int nm, FcMatRead mr[])
{
  const FcMatRead *rev = NULL; /* the matrix whose ranges revealed a convention */

  PetscFunctionBegin;
  for (int k = 0; k < nm; k++) {
    if (mr[k].A->nz < 0) continue;
    PetscCall(TripletFit_Private(file, &mr[k]));
    if (!rev && (mr[k].fit == FC_TRIPLET_FCLIB || mr[k].fit == FC_TRIPLET_CSPARSE)) rev = &mr[k];
  }
  for (int k = 0; k < nm; k++) {
    struct fclib_matrix *A = mr[k].A;
    if (A->nz < 0) {
      PetscCall(MatrixVerbose_Private(file, &mr[k]));
      continue;
    }
    mr[k].by = NULL;
    if (mr[k].fit == FC_TRIPLET_FCLIB || mr[k].fit == FC_TRIPLET_CSPARSE) mr[k].conv = (int)mr[k].fit;
    else if (rev) {
      mr[k].conv = (int)rev->fit;
      mr[k].by   = rev->grp;
    } else if (mr[k].fit == FC_TRIPLET_SYMMETRIC) mr[k].conv = FC_TRIPLET_FCLIB; /* either: the same matrix */
    else if (A->m == A->n)
      return FcInputError(file, mr[k].grp,
        "triplet convention cannot be decided (square, not symmetric: asymmetry %.1e of max|a|, so FCLIB's reading (p rows, i columns) and CSparse's (i rows, p columns) are transposes, and no other matrix of the file tells which)",
        (double)mr[k].asym);
    else
      return FcInputError(file, mr[k].grp,
        "triplet convention cannot be decided (every index fits %d x %d in both FCLIB's reading (p rows, i columns) and CSparse's (i rows, p columns), and no other matrix of the file tells which)",
        A->m, A->n);
    if (mr[k].conv == FC_TRIPLET_CSPARSE) {
      int *t = A->p;
      A->p   = A->i;
      A->i   = t;
    }
    PetscCall(MatrixVerbose_Private(file, &mr[k]));
  }
  PetscFunctionReturn(0);
}

/* The 3×3 block pattern of W (n = 3m) from its entries, without a dense array: block row a lists
 * the block columns b of the entries (3a+i, 3b+j) with a nonzero value (explicit zeros add no
 * block), sorted, each once. ptr (m+1) and col (*nb) are PetscMalloc'd; O(entries) time and
 * memory (counting sort by block row, then a sort of each row). */
static PetscErrorCode BlockPattern_Private(const struct fclib_matrix *A, PetscInt m, PetscInt **ptr, PetscInt **col, PetscInt *nb)
{
  PetscInt  *cnt, *p, *c, *fill, k = 0;
  PetscInt64 ne = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1((size_t)m + 1, &cnt));
  FC_FOR_EACH_ENTRY(A, i, j, v, (void)j; if (v != 0) cnt[i / 3]++);
  PetscCall(PetscMalloc1((size_t)m + 1, &p));
  fill = cnt; /* reused: cnt[a] is read before fill[a] is written */
  p[0] = 0;
  for (PetscInt a = 0; a < m; a++) {
    ne += cnt[a];
    p[a + 1] = p[a] + cnt[a];
    fill[a]  = p[a];
  }
  PetscCall(PetscMalloc1((size_t)ne + 1, &c));
  FC_FOR_EACH_ENTRY(A, i, j, v, if (v != 0) c[fill[i / 3]++] = j / 3);
  for (PetscInt a = 0; a < m; a++) { /* sorted, each block once, compacted in place */
    PetscInt len = p[a + 1] - p[a];
    PetscCall(PetscSortRemoveDupsInt(&len, c + p[a]));
    PetscCall(PetscArraymove(c + k, c + p[a], len));
    p[a] = k;
    k += len;
  }
  p[m] = k;
  PetscCall(PetscFree(cnt));
  /* one block column per entry was allocated (an entry per block in the worst case, 9 per block
   * for a full block): give the rest back before the caller allocates the blocks' values */
  PetscCall(PetscRealloc(sizeof(PetscInt) * ((size_t)k + 1), &c));
  *ptr = p;
  *col = c;
  *nb  = k;
  PetscFunctionReturn(0);
}

/* W of a local file into a problem, stored as FcContactProblemPreferSparse chooses from its block
 * pattern (doc/contact.md, "Storage of W"): block-sparse below fill 0.75, filled block by block
 * from the entries (no dense n × n array at any point: a 10 000-contact W with 20 coupled contacts
 * per contact needs about 16 MB, not 7.2 GB), dense otherwise (then limited to 16 GB). Duplicate
 * entries (triplets) are summed in file order in either storage, so both give the same values. */
static PetscErrorCode LocalToProblem_Private(const char *file, struct fclib_local *L, const FcMatShape *Ws, FcContactProblem *problem)
{
  const int        n = L->W->m, m = n / 3;
  FcContactProblem p   = NULL;
  PetscInt        *ptr = NULL, *col = NULL, nb = 0;
  PetscBool        sparse;
  PetscErrorCode   ierr = 0;

  PetscFunctionBegin;
  PetscCall(CheckMatrixValues_Private(file, "/fclib_local/W", L->W, Ws));
  PetscCall(CheckFinite_Private(file, "/fclib_local/vectors/q", "q", n, L->q));
  PetscCall(CheckMu_Private(file, "/fclib_local/vectors/mu", m, L->mu));
  PetscCall(BlockPattern_Private(L->W, m, &ptr, &col, &nb));
  sparse = FcContactProblemPreferSparse(m, nb);
  if (sparse) ierr = FcContactProblemCreateSparse(m, ptr, col, &p);
  else {
    ierr = CheckDenseSize_Private(file, "/fclib_local/W", n);
    if (!ierr) ierr = FcContactProblemCreate(m, &p);
  }
  PetscCall(PetscFree(ptr));
  PetscCall(PetscFree(col));
  PetscCall(ierr);
  if (sparse) {
    FC_FOR_EACH_ENTRY(L->W, i, j, v, if (v != 0) p->bval[9 * (size_t)FcContactProblemFindBlock(p, i / 3, j / 3) + 3 * (i % 3) + j % 3] += v);
  } else {
    FC_FOR_EACH_ENTRY(L->W, i, j, v, p->W[(size_t)i * n + j] += v);
  }
  for (int i = 0; i < n; i++) p->q[i] = L->q[i];
  for (int a = 0; a < m; a++) p->mu[a] = L->mu[a];
  if (FcVerbosity >= 2) {
    const double fill = (double)nb / ((double)m * (double)m);
    ierr              = PetscFPrintf(PETSC_COMM_SELF, stderr,
                   "%s: /fclib_local/W: stored %s: %" PetscInt_FMT " nonzero 3x3 blocks of %d x %d (fill %.3g %%, %s 75 %%), %.3g MB\n", file,
      sparse ? "block-sparse" : "dense", nb, m, m, 100.0 * fill, sparse ? "below" : "not below", (double)FcContactProblemStorageBytes(p) / 1e6);
    if (ierr) {
      PetscCall(FcContactProblemDestroy(&p));
      PetscCall(ierr);
    }
  }
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
static PetscErrorCode GlobalToProblem_Private(const char *file, struct fclib_global *G, const FcMatShape *Ms, const FcMatShape *Hs, FcGlobalProblem *global)
{
  const int       nd = G->M->m, n = G->H->n, m = n / 3;
  FcGlobalProblem g;
  PetscReal      *a;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(CheckMatrixValues_Private(file, "/fclib_global/M", G->M, Ms));
  PetscCall(CheckMatrixValues_Private(file, "/fclib_global/H", G->H, Hs));
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

/* A validated matrix group into A (PetscMalloc'd p, i, x, each the length of its dataset;
 * A->info NULL). Free with FreeMatrix_Private, also after a failure. The arrays are allocated
 * one by one: a triplet matrix in CSparse's convention has p and i swapped afterwards. */
static PetscErrorCode ReadMatrix_Private(FcH5 *h, const char *grp, const FcMatShape *s, struct fclib_matrix *A)
{
  char path[256];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(A, sizeof *A));
  A->nzmax = s->nzmax;
  A->m     = s->m;
  A->n     = s->n;
  A->nz    = s->nz;
  PetscCall(PetscMalloc1(PetscMax(s->lp, 1), &A->p));
  PetscCall(PetscMalloc1(PetscMax(s->li, 1), &A->i));
  PetscCall(PetscMalloc1(PetscMax(s->lx, 1), &A->x));
  snprintf(path, sizeof path, "%s/p", grp);
  if (s->lp) PetscCall(ReadData_Private(h, path, H5T_NATIVE_INT, A->p));
  snprintf(path, sizeof path, "%s/i", grp);
  if (s->li) PetscCall(ReadData_Private(h, path, H5T_NATIVE_INT, A->i));
  snprintf(path, sizeof path, "%s/x", grp);
  if (s->lx) PetscCall(ReadData_Private(h, path, H5T_NATIVE_DOUBLE, A->x));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeMatrix_Private(struct fclib_matrix *A)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(A->p));
  PetscCall(PetscFree(A->i));
  PetscCall(PetscFree(A->x));
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
  if (!ierr) {
    FcMatRead mr[1] = {{.grp = "/fclib_local/W", .A = &W}};
    ierr            = DecideTriplets_Private(h->file, 1, mr);
  }
  if (!ierr) ierr = PetscMalloc2(Ws.m, &q, Ws.m / 3, &mu);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_local/vectors/q", H5T_NATIVE_DOUBLE, q);
  if (!ierr) ierr = ReadData_Private(h, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, mu);
  if (!ierr) {
    L.W        = &W;
    L.q        = q;
    L.mu       = mu;
    L.spacedim = 3;
    ierr       = LocalToProblem_Private(h->file, &L, &Ws, problem);
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
  if (!ierr) { /* H first: being n x 3m, it is the matrix whose index ranges can tell */
    // clang-format off
    FcMatRead mr[2] = {
      {.grp = "/fclib_global/H", .A = &H},
      {.grp = "/fclib_global/M", .A = &M}
    };
    // clang-format on
    ierr = DecideTriplets_Private(h->file, 2, mr);
  }
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
    ierr       = GlobalToProblem_Private(h->file, &G, &Ms, &Hs, global);
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
  case FC_GLOBAL_MASS_SPD: break;
  case FC_GLOBAL_MASS_NOT_SYMMETRIC:
    return FcInputError(file, "/fclib_global/M",
      "not symmetric: max |M_ij - M_ji| = %.3g of max|M|, beyond the %g of a producer's round-off (FCLIB's M is symmetric positive definite)",
      (double)mass->asym, FC_CONTACT_ASYM_ROUNDOFF);
  case FC_GLOBAL_MASS_SINGULAR: return FcInputError(file, "/fclib_global/M", "singular (zero pivot in its Cholesky factorization)");
  case FC_GLOBAL_MASS_NOT_SPD:
    return FcInputError(
      file, "/fclib_global/M", "not positive definite (%" PetscInt_FMT " negative, %" PetscInt_FMT " zero eigenvalues)", mass->nneg, mass->nzero);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBWarnMassAsymmetry(const char *file, const FcGlobalMass *mass)
{
  PetscFunctionBegin;
  if (mass->status == FC_GLOBAL_MASS_SPD && mass->asym > FC_GLOBAL_MASS_SYM_TOL)
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR,
      "%s: /fclib_global/M: warning: symmetric only to %.2g of max|M| (within the %g of a producer's round-off): the local form W = H^T M^-1 H uses M as the file states it (LU factorization), not symmetrized\n",
      file, (double)mass->asym, FC_CONTACT_ASYM_ROUNDOFF));
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
  if (!ierr) ierr = FcFCLIBWarnMassAsymmetry(path, &mass);
  PetscCall(FcGlobalProblemDestroy(&global));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* Writing */

/* W as CSC without its exact zeros (at least one entry is kept: libfclib cannot write an empty
 * dataset, and nzmax >= 1 is what the reader above demands), from either storage without forming
 * the other. Block-sparse: column 3b+j holds entries (3a+i, 3b+j) of the blocks (a, b), which by
 * the symmetric pattern (problem.h) are the transposes btr[k] of the blocks k of row b, in
 * increasing a (bcol sorted): the rows of each column come out increasing, as from the dense W. */
static PetscErrorCode WToCSC_Private(FcContactProblem p, struct fclib_matrix *A)
{
  const PetscInt n   = 3 * p->m;
  PetscInt64     nnz = 0;
  PetscInt       k   = 0;

  PetscFunctionBegin;
  if (p->W) {
    for (size_t i = 0; i < (size_t)n * n; i++) nnz += p->W[i] != 0;
  } else {
    for (PetscInt i = 0; i < 9 * p->nb; i++) nnz += p->bval[i] != 0;
  }
  PetscCheck(nnz <= PETSC_MAX_INT && nnz <= 2147483647, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
    "W has %" PetscInt64_FMT " nonzero entries, beyond FCLIB's int indices", nnz);
  PetscCall(PetscMalloc3(n + 1, &A->p, PetscMax(nnz, 1), &A->i, PetscMax(nnz, 1), &A->x));
  for (PetscInt c = 0; c < n; c++) {
    A->p[c] = (int)k;
    if (p->W) {
      for (PetscInt i = 0; i < n; i++) {
        const PetscReal v = p->W[(size_t)i * n + c];
        if (v == 0) continue;
        A->i[k]   = (int)i;
        A->x[k++] = v;
      }
    } else {
      const PetscInt b = c / 3, j = c % 3;
      for (PetscInt kb = p->bptr[b]; kb < p->bptr[b + 1]; kb++) {
        const PetscInt   a = p->bcol[kb];
        const PetscReal *T = p->bval + 9 * (size_t)p->btr[kb]; /* block (a, b) */
        for (int i = 0; i < 3; i++) {
          const PetscReal v = T[3 * i + j];
          if (v == 0) continue;
          A->i[k]   = (int)(3 * a + i);
          A->x[k++] = v;
        }
      }
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

/* libfclib's writers call exit(1) on any HDF5 failure (its IO/ASSERT macros, after printing
 * "ERROR: HDF5 call failed"), and its serial HDF5 then crashes in its own atexit shutdown on the
 * half-written file: a full disk during a run's FCLIB output printed 42 lines and ended fcsim by
 * SIGSEGV. So the write runs in a forked child (fork without exec: the problem is already in
 * memory) whose stderr is a pipe and whose exit() is made an immediate _exit: whatever libfclib
 * does, fcsim gets the child's status and the serial HDF5's own error stack, and turns them into
 * one line. *reason is "" on success, else the system's message from that stack (or what the
 * child's status says). The child never calls MPI or PETSc, and dies with fcsim. */
static void ChildExit_Private(void) { _exit(3); /* before every other exit handler (atexit runs the last registered first) */ }

static PetscErrorCode WriteInChild_Private(struct fclib_local *L, struct fclib_solution *sol, const char *tmp, char *reason, size_t len)
{
  int     fd[2], st = 0, devnull;
  pid_t   pid;
  char    text[8192];
  size_t  n = 0;
  ssize_t k;

  PetscFunctionBegin;
  reason[0] = 0;
  PetscCheck(pipe(fd) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot write %s: pipe: %s", tmp, strerror(errno));
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fd[0]);
    close(fd[1]);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot write %s: fork: %s", tmp, strerror(e));
  }
  if (pid == 0) {
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    close(fd[0]);
    devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) (void)dup2(devnull, 1);
    (void)dup2(fd[1], 2);
    if (atexit(ChildExit_Private)) _exit(4);
    if (!fclib_write_local(L, tmp)) _exit(5);
    if (sol && !fclib_write_solution(sol, tmp)) _exit(5);
    _exit(0);
  }
  close(fd[1]);
  for (;;) {
    k = read(fd[0], text + n, n + 1 < sizeof text ? sizeof text - 1 - n : 0);
    if (k < 0 && errno == EINTR) continue;
    if (k > 0) n += (size_t)k;
    else if (k == 0 && n + 1 >= sizeof text) { /* full: drain the rest */ char sink[4096];
      while ((k = read(fd[0], sink, sizeof sink)) > 0 || (k < 0 && errno == EINTR)) continue;
      break;
    } else break;
  }
  text[n] = 0;
  close(fd[0]);
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) continue;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) PetscFunctionReturn(0);
  {
    const char *m = strstr(text, "error message = '");
    if (m) {
      const char *e;
      m += strlen("error message = '");
      e = strchr(m, '\'');
      snprintf(reason, len, "%.*s", e ? (int)(e - m) : (int)strlen(m), m);
    } else if (WIFSIGNALED(st)) snprintf(reason, len, "libfclib's writer was killed by signal %d", WTERMSIG(st));
    else snprintf(reason, len, "libfclib could not write it (HDF5 failed%s%s)", n ? ": " : "", n ? strtok(text, "\n") : "");
  }
  PetscFunctionReturn(0);
}

/* Write the local problem (and the solution when r) to path through a temporary file renamed at
 * the end, so that a failed write never leaves a file that looks complete. */
static PetscErrorCode WriteFile_Private(const char *path, FcContactProblem p, const FcFCLIBInfo *info, const PetscReal r[], const PetscReal u[])
{
  char                  tmp[PETSC_MAX_PATH_LEN + 32];
  FILE                 *fp;
  struct fclib_matrix   W;
  struct fclib_local    L;
  struct fclib_info     pinfo;
  struct fclib_solution sol;
  PetscReal            *uw = NULL;
  FcH5Quiet             q;
  char                  reason[256];
  PetscErrorCode        ierr;

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

  PetscCall(WToCSC_Private(p, &W));
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
  if (r && !u) {
    PetscCall(PetscMalloc1(3 * p->m, &uw));
    PetscCall(FcContactProblemComputeVelocity(p, r, uw));
    u = uw;
  }
  sol.v = NULL;
  sol.l = NULL;
  sol.r = (double *)r; /* read only by libfclib */
  sol.u = (double *)u;
  QuietBegin_Private(&q);
  ierr = WriteInChild_Private(&L, r ? &sol : NULL, tmp, reason, sizeof reason);
  QuietEnd_Private(&q);
  PetscCall(PetscFree3(W.p, W.i, W.x));
  PetscCall(PetscFree(uw));
  PetscCall(ierr);
  if (reason[0]) {
    (void)unlink(tmp);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s: %s", path, reason);
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
