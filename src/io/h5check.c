/* fcsim — an HDF5 file fcsim reads names only itself (h5check.h). */
#include "h5check.h"
#include "../core/fsutil.h"
#include <string.h>

typedef struct {
  double filesize;
  double declared;  /* the bytes every dataset visited declares */
  char   path[512]; /* the first refusal: the object (H5Lvisit stops on a negative return) */
  char   msg[1536]; /* and why */
} Visit_Private;

#define Refuse_Private(v, p, ...) \
  do { \
    snprintf((v)->path, sizeof(v)->path, "%s", p); \
    snprintf((v)->msg, sizeof(v)->msg, __VA_ARGS__); \
  } while (0)

/* A name or a path from the file, as it may be echoed in one line: control characters become
 * '?', and at most len - 1 characters are kept. */
static const char *Shown_Private(const char *in, char *out, size_t len)
{
  size_t k = 0;
  for (; in && *in && k + 1 < len; in++) out[k++] = ((unsigned char)*in < 0x20 || *in == 0x7f) ? '?' : *in;
  out[k] = 0;
  return out;
}

/* The dataset at `name` (below group g): no storage outside the file, no more declared than the
 * storage may hold (h5check.h). `path`: its absolute path, for messages. PETSC_TRUE: refused
 * (v->path, v->msg say why). */
static PetscBool Dataset_Private(hid_t g, const char *name, const char *path, Visit_Private *v)
{
  hid_t        did, dcpl = -1, tid = -1, sid = -1;
  int          next;
  H5D_layout_t layout = H5D_LAYOUT_ERROR;
  hssize_t     np     = -1;
  size_t       esize  = 0;
  double       declared, stored;
  char         a[512], b[512], sa[256], sb[256];
  PetscBool    refused = PETSC_FALSE;

  /* opening a dataset reads its header only: neither an external raw file nor a virtual
   * dataset's source files are opened before the data is read */
  if ((did = H5Dopen2(g, name, H5P_DEFAULT)) < 0) {
    Refuse_Private(v, path, "dataset cannot be opened: the file is damaged");
    return PETSC_TRUE;
  }
  if ((dcpl = H5Dget_create_plist(did)) >= 0) {
    layout = H5Pget_layout(dcpl);
    next   = H5Pget_external_count(dcpl);
    if (layout == H5D_VIRTUAL) {
      size_t nmap = 0;
      a[0] = b[0] = 0;
      if (H5Pget_virtual_count(dcpl, &nmap) >= 0 && nmap > 0) {
        if (H5Pget_virtual_filename(dcpl, 0, a, sizeof a) < 0) a[0] = 0;
        if (H5Pget_virtual_dsetname(dcpl, 0, b, sizeof b) < 0) b[0] = 0;
      }
      refused = PETSC_TRUE;
      Refuse_Private(v, path, "a virtual dataset (its data is mapped from %s in the file %s): fcsim reads only data stored in the file itself",
        b[0] ? Shown_Private(b, sb, sizeof sb) : "a dataset", a[0] ? Shown_Private(a, sa, sizeof sa) : "another file");
    } else if (next != 0) {
      off_t   off  = 0;
      hsize_t size = 0;
      a[0]         = 0;
      if (next < 0 || H5Pget_external(dcpl, 0, sizeof a, a, &off, &size) < 0) a[0] = 0;
      a[sizeof a - 1] = 0;
      refused         = PETSC_TRUE;
      Refuse_Private(v, path, "its data is stored outside the file (HDF5 external storage in %s): fcsim reads only data stored in the file itself",
        a[0] ? Shown_Private(a, sa, sizeof sa) : "another file");
    }
  } else {
    refused = PETSC_TRUE;
    Refuse_Private(v, path, "dataset cannot be read: the file is damaged");
  }
  if (!refused) {
    tid = H5Dget_type(did);
    sid = H5Dget_space(did);
    if (tid >= 0) esize = H5Tget_size(tid);
    if (sid >= 0) np = H5Sget_simple_extent_npoints(sid);
    if (tid < 0 || sid < 0 || !esize || np < 0) {
      refused = PETSC_TRUE;
      Refuse_Private(v, path, "dataset cannot be read: the file is damaged");
    }
  }
  if (!refused) {
    declared = (double)np * (double)esize;
    stored   = (double)H5Dget_storage_size(did);
    v->declared += declared;
    if (stored > v->filesize) {
      refused = PETSC_TRUE;
      Refuse_Private(v, path, "its data claims %.0f bytes of storage, more than the whole file (%.0f bytes): the file is damaged", stored, v->filesize);
    } else if (declared > FC_H5_MAX_RATIO * stored + FC_H5_SLACK) {
      refused = PETSC_TRUE;
      Refuse_Private(v, path,
        "declares %lld elements (%.3g bytes) stored in %.0f bytes of the file: a ratio above %.0f, deflate's largest, is not real data (a compression bomb?)",
        (long long)np, declared, stored, FC_H5_MAX_RATIO);
    }
  }
  if (sid >= 0) H5Sclose(sid);
  if (tid >= 0) H5Tclose(tid);
  if (dcpl >= 0) H5Pclose(dcpl);
  H5Dclose(did);
  return refused;
}

static herr_t Link_Private(hid_t g, const char *name, const H5L_info_t *info, void *ctx)
{
  Visit_Private *v = (Visit_Private *)ctx;
  char           path[1024], sp[512], a[512], sa[256], sb[256];
  H5O_info_t     oi;

  snprintf(path, sizeof path, "/%s", name);
  Shown_Private(path, sp, sizeof sp);
  if (info->type == H5L_TYPE_EXTERNAL) {
    const char *efile = NULL, *eobj = NULL;
    unsigned    flags = 0;
    size_t      n     = info->u.val_size;
    a[0]              = 0;
    if (n <= sizeof a && H5Lget_val(g, name, a, sizeof a, H5P_DEFAULT) >= 0 && H5Lunpack_elink_val(a, n, &flags, &efile, &eobj) >= 0)
      Refuse_Private(v, sp, "an external link to %s in the file %s: fcsim reads only what the file itself holds", Shown_Private(eobj, sb, sizeof sb),
        Shown_Private(efile, sa, sizeof sa));
    else Refuse_Private(v, sp, "an external link to another file: fcsim reads only what the file itself holds");
    return -1;
  }
  if (info->type != H5L_TYPE_HARD && info->type != H5L_TYPE_SOFT) {
    Refuse_Private(v, sp, "a user-defined link (type %d), which may resolve anywhere: fcsim reads only what the file itself holds", (int)info->type);
    return -1;
  }
  if (info->type == H5L_TYPE_SOFT) return 0; /* a path in this file: its target is visited itself */
  if (H5Oget_info_by_name2(g, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0) {
    Refuse_Private(v, sp, "cannot be read: the file is damaged");
    return -1;
  }
  if (oi.type == H5O_TYPE_DATASET && Dataset_Private(g, name, sp, v)) return -1;
  return 0;
}

/* The visit; msg empty when the file passes. */
static void Check_Private(hid_t fid, PetscInt64 filesize, Visit_Private *v)
{
  herr_t st;
  double mem = FcPhysicalMemory();

  PetscMemzero(v, sizeof *v);
  v->filesize = (double)filesize;
  /* H5Lvisit recurses into groups through hard links only (each group once), and reports soft,
   * external and user-defined links without following them */
  st = H5Lvisit(fid, H5_INDEX_NAME, H5_ITER_NATIVE, Link_Private, v);
  if (v->msg[0]) return;
  if (st < 0) Refuse_Private(v, "", "its groups cannot be listed: the file is damaged");
  else if (mem > 0 && v->declared > mem)
    Refuse_Private(v, "", "its datasets declare %.3g GB, more than this machine's memory (%.3g GB)", v->declared / 1e9, mem / 1e9);
}

PetscErrorCode FcH5CheckFile(hid_t fid, const char *file, PetscInt64 filesize)
{
  Visit_Private v;

  PetscFunctionBegin;
  Check_Private(fid, filesize, &v);
  if (v.msg[0]) return FcInputError(file, v.path, "%s", v.msg);
  PetscFunctionReturn(0);
}

PetscBool FcH5FileIsSafe(hid_t fid, PetscInt64 filesize)
{
  Visit_Private v;

  Check_Private(fid, filesize, &v);
  return v.msg[0] ? PETSC_FALSE : PETSC_TRUE;
}
