/* fcsim fuzzing — build an HDF5 file from a short text description ("spec"), so that the FCLIB
 * target can mutate the *content* of an FCLIB file (which datasets exist, their types, shapes,
 * sizes and values) rather than HDF5's binary layout. Used by fuzz_fclib.c and by the spec2h5
 * tool (fuzz/spec2h5.c). doc/fuzzing.md describes the format:
 *
 *   # comment                      (blank lines and unknown operations are skipped)
 *   g PATH                         group (missing intermediate groups are created)
 *   TYPE PATH [@SHAPE] [V1 V2 ...] dataset; TYPE: i int32, l int64, u uint8, I int32 big-endian,
 *                                  d float64, f float32, D float64 big-endian;
 *                                  SHAPE: "@" scalar, "@-" null (no elements), "@N" or
 *                                  "@NxMx..." (up to 4 dimensions); without SHAPE, 1-D of the
 *                                  number of values given. Missing values are 0; with no value at
 *                                  all nothing is written (HDF5 fill values), so a huge extent
 *                                  costs nothing to build.
 *   s PATH TEXT                    fixed-length string (scalar; "@N" before TEXT: N strings)
 *   v PATH TEXT                    variable-length string (scalar)
 *   S PATH TARGET                  soft link
 *   H PATH TARGET                  hard link to an existing object
 *
 * Values are strtod/strtoll numbers ("nan", "inf", "-1e308", "0x10" work). Errors in a line (a
 * path that exists, a bad shape) make HDF5 refuse that line only. */
#ifndef FCSIM_FUZZ_FCLIB_SPEC_H
#define FCSIM_FUZZ_FCLIB_SPEC_H

#include <hdf5.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FZ_SPEC_MAX_WRITE (1u << 22) /* elements written at most per dataset */

static char *FzSpecToken_Private(char **s)
{
  char *t;

  while (**s == ' ' || **s == '\t' || **s == '\r') (*s)++;
  if (!**s) return NULL;
  t = *s;
  while (**s && **s != ' ' && **s != '\t' && **s != '\r') (*s)++;
  if (**s) *(*s)++ = 0;
  return t;
}

/* "@..." → dataspace; NULL on a bad shape. */
static hid_t FzSpecShape_Private(const char *shape, hsize_t nvalues, hsize_t *npoints)
{
  hsize_t dims[4];
  int     rank = 0;

  if (!shape) { /* 1-D, as many as given */
    dims[0]  = nvalues;
    *npoints = nvalues;
    return H5Screate_simple(1, dims, NULL);
  }
  shape++;
  if (!*shape) {
    *npoints = 1;
    return H5Screate(H5S_SCALAR);
  }
  if (!strcmp(shape, "-")) {
    *npoints = 0;
    return H5Screate(H5S_NULL);
  }
  *npoints = 1;
  while (*shape && rank < 4) {
    char              *end;
    unsigned long long d = strtoull(shape, &end, 10);
    if (end == shape || d > (unsigned long long)INT_MAX) return -1;
    dims[rank++] = (hsize_t)d;
    if (d && *npoints > (1ull << 40) / d) return -1; /* keep the extent sane */
    *npoints *= d;
    shape = end;
    if (*shape == 'x') shape++;
    else if (*shape) return -1;
  }
  if (*shape || !rank) return -1;
  return H5Screate_simple(rank, dims, NULL);
}

static void FzSpecNumbers_Private(hid_t fid, hid_t lcpl, const char *path, char op, char *rest)
{
  const int integer = op == 'i' || op == 'l' || op == 'u' || op == 'I';
  hid_t     ftype   = op == 'i' ? H5T_STD_I32LE
          : op == 'l'           ? H5T_STD_I64LE
          : op == 'u'           ? H5T_STD_U8LE
          : op == 'I'           ? H5T_STD_I32BE
          : op == 'd'           ? H5T_IEEE_F64LE
          : op == 'f'           ? H5T_IEEE_F32LE
                                : H5T_IEEE_F64BE;
  char     *shape = NULL, *save = rest, *t;
  hsize_t   nvalues = 0, npoints = 0, k = 0;
  hid_t     sid, did;
  void     *buf = NULL;

  /* count the values first */
  {
    char *p = rest;
    for (;;) {
      while (*p == ' ' || *p == '\t' || *p == '\r') p++;
      if (!*p) break;
      if (*p == '@' && !shape && !nvalues) shape = p;
      else nvalues++;
      while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
    }
  }
  if (shape) { /* terminate the shape token */
    char *e = shape;
    while (*e && *e != ' ' && *e != '\t' && *e != '\r') e++;
    if (*e) {
      *e   = 0;
      save = e + 1;
    } else save = e;
  }
  if ((sid = FzSpecShape_Private(shape, nvalues, &npoints)) < 0) return;
  did = H5Dcreate2(fid, path, ftype, sid, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (did >= 0 && nvalues && npoints && npoints <= FZ_SPEC_MAX_WRITE) {
    buf = calloc((size_t)npoints, 8);
    if (buf) {
      while ((t = FzSpecToken_Private(&save)) && k < npoints) {
        if (integer) ((long long *)buf)[k++] = strtoll(t, NULL, 0);
        else ((double *)buf)[k++] = strtod(t, NULL);
      }
      (void)H5Dwrite(did, integer ? H5T_NATIVE_LLONG : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
      free(buf);
    }
  }
  if (did >= 0) H5Dclose(did);
  H5Sclose(sid);
}

static void FzSpecString_Private(hid_t fid, hid_t lcpl, const char *path, char op, char *rest)
{
  hsize_t n = 1, np;
  hid_t   tid, sid, did;
  char   *text;

  while (*rest == ' ' || *rest == '\t') rest++;
  if (op == 's' && rest[0] == '@' && rest[1] >= '1' && rest[1] <= '9') {
    n = strtoull(rest + 1, &rest, 10);
    if (n > 64) n = 64;
    while (*rest == ' ' || *rest == '\t') rest++;
  }
  text = rest;
  tid  = H5Tcopy(H5T_C_S1);
  if (op == 'v') H5Tset_size(tid, H5T_VARIABLE);
  else H5Tset_size(tid, strlen(text) ? strlen(text) : 1);
  sid = n == 1 && op == 'v' ? H5Screate(H5S_SCALAR) : FzSpecShape_Private(n == 1 ? "@" : NULL, n, &np);
  did = H5Dcreate2(fid, path, tid, sid, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (did >= 0) {
    if (op == 'v') (void)H5Dwrite(did, tid, H5S_ALL, H5S_ALL, H5P_DEFAULT, &text);
    else {
      const size_t len = strlen(text) ? strlen(text) : 1;
      char        *buf = calloc((size_t)n, len);
      if (buf) {
        for (hsize_t i = 0; i < n; i++) memcpy(buf + i * len, text, strlen(text));
        (void)H5Dwrite(did, tid, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        free(buf);
      }
    }
    H5Dclose(did);
  }
  if (sid >= 0) H5Sclose(sid);
  H5Tclose(tid);
}

/* Build path from the spec in data[0..size). Returns 0, or -1 when the file cannot be created.
 * HDF5's error printing should be off (H5Eset_auto2) around this. */
static int FzSpecBuild(const uint8_t *data, size_t size, const char *path)
{
  char *text = malloc(size + 1), *line, *next;
  hid_t fid, lcpl;

  if (!text) return -1;
  memcpy(text, data, size);
  text[size] = 0;
  if ((fid = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) < 0) {
    free(text);
    return -1;
  }
  lcpl = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(lcpl, 1);
  for (line = text; line < text + size; line = next) {
    char *s = line, *op, *p;
    next    = line + strlen(line) + 1; /* a NUL byte ends a line too */
    if ((p = strchr(line, '\n'))) {
      *p   = 0;
      next = p + 1;
    }
    if (!(op = FzSpecToken_Private(&s)) || op[1] || !(p = FzSpecToken_Private(&s))) continue;
    switch (op[0]) {
    case 'g': {
      hid_t gid = H5Gcreate2(fid, p, lcpl, H5P_DEFAULT, H5P_DEFAULT);
      if (gid >= 0) H5Gclose(gid);
    } break;
    case 'S':
    case 'H': {
      char *target = FzSpecToken_Private(&s);
      if (!target) break;
      if (op[0] == 'S') (void)H5Lcreate_soft(target, fid, p, lcpl, H5P_DEFAULT);
      else (void)H5Lcreate_hard(fid, target, fid, p, lcpl, H5P_DEFAULT);
    } break;
    case 'i':
    case 'l':
    case 'u':
    case 'I':
    case 'd':
    case 'f':
    case 'D': FzSpecNumbers_Private(fid, lcpl, p, op[0], s); break;
    case 's':
    case 'v': FzSpecString_Private(fid, lcpl, p, op[0], s); break;
    default: break;
    }
  }
  H5Pclose(lcpl);
  H5Fclose(fid);
  free(text);
  return 0;
}

#endif
