/* fcsim — legacy VTK writer (unstructured grid for bodies, polydata for contact points), fcsim's
 * own: no libvtk dependency. Layout in doc/output-format.md. POINTS of a body are the reference
 * coordinates and the displacement is a point vector, so ParaView's "Warp By Vector" shows the
 * deformed shape at any scale; contact points are in the current configuration. The writer of a
 * run (writer.h): vtk/<body>_<k>.vtk and vtk/contacts_<k>.vtk per output step, and their
 * ParaView indexes vtk/<name>.vtk.series. */
#include "writer.h"
#include <sys/stat.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>

#if !defined(PETSC_USE_REAL_DOUBLE)
#error "fcsim output writes float64 data: PetscReal must be double"
#endif

#define VTK_TETRA           10
#define VTK_QUADRATIC_TETRA 24

PetscErrorCode FcOutputCellsToVTK(PetscInt nelems, PetscInt npe, const PetscInt *conn, PetscInt64 *cells)
{
  /* vtk_from_gmsh[i] = Gmsh position of VTK node i. Only the last two mid-edge nodes differ:
   * Gmsh numbers edges (3,2),(3,1) where VTK/XDMF expect (1,3),(2,3). */
  static const PetscInt vtk_from_gmsh[10] = {0, 1, 2, 3, 4, 5, 6, 7, 9, 8};

  PetscFunctionBegin;
  PetscCheck(npe == 4 || npe == 10, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unsupported nodes per element %" PetscInt_FMT " (4 or 10)", npe);
  for (PetscInt e = 0; e < nelems; e++)
    for (PetscInt i = 0; i < npe; i++) cells[e * npe + i] = (PetscInt64)conn[e * npe + vtk_from_gmsh[i]];
  PetscFunctionReturn(0);
}

/* One contact's world-frame force: the single definition, so run.h5 and VTK hold the same bits. */
static inline void ContactForce(const FcOutputContacts *c, PetscInt i, PetscReal f[3])
{
  const PetscReal *r = &c->r[3 * i];

  for (int j = 0; j < 3; j++) f[j] = r[0] * c->normal[3 * i + j] + r[1] * c->t1[3 * i + j] + r[2] * c->t2[3 * i + j];
}

PetscErrorCode FcOutputContactForces(const FcOutputContacts *c, PetscReal *force)
{
  PetscFunctionBegin;
  PetscCheck(c && (force || !c->m), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputContactForces: NULL argument");
  PetscCheck(c->m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcOutputContactForces: negative number of contacts");
  PetscCheck(!c->m || (c->r && c->normal && c->t1 && c->t2), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputContactForces: NULL contact array");
  for (PetscInt i = 0; i < c->m; i++) ContactForce(c, i, &force[3 * i]);
  PetscFunctionReturn(0);
}

/* Values go through a small buffer: the binary format wants big-endian bytes whatever the host
 * order, and one fwrite per value would be slow on large meshes. */
typedef struct {
  FILE         *fp;
  PetscBool     binary;
  unsigned char buf[4096];
  size_t        n;
} VTKStream;

static void VTKFlush(VTKStream *s)
{
  if (s->n) (void)fwrite(s->buf, 1, s->n, s->fp);
  s->n = 0;
}

static void VTKPutBytes(VTKStream *s, uint64_t bits, int nbytes)
{
  if (s->n + (size_t)nbytes > sizeof s->buf) VTKFlush(s);
  /* Shifting builds the big-endian byte sequence independently of the host byte order. */
  for (int i = 0; i < nbytes; i++) s->buf[s->n++] = (unsigned char)(bits >> (8 * (nbytes - 1 - i)));
}

static void VTKPutReal(VTKStream *s, double x, PetscBool last_on_line)
{
  if (s->binary) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    VTKPutBytes(s, bits, 8);
  } else {
    /* %.17g round-trips every double exactly, so ASCII and BINARY files hold the same values. */
    fprintf(s->fp, last_on_line ? "%.17g\n" : "%.17g ", x);
  }
}

static void VTKPutInt(VTKStream *s, int32_t v, PetscBool last_on_line)
{
  if (s->binary) VTKPutBytes(s, (uint64_t)(uint32_t)v, 4);
  else fprintf(s->fp, last_on_line ? "%d\n" : "%d ", (int)v);
}

/* End of a data block: binary data is followed by a newline before the next keyword line. */
static void VTKEndBlock(VTKStream *s)
{
  VTKFlush(s);
  if (s->binary) fputc('\n', s->fp);
}

static PetscErrorCode VTKCheckStream(VTKStream *s, const char *path)
{
  PetscFunctionBegin;
  PetscCheck(!ferror(s->fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing VTK file %s: %s", path, strerror(errno));
  PetscFunctionReturn(0);
}

static PetscErrorCode VTKWriteReals(VTKStream *s, PetscInt n, PetscInt ncomp, const PetscReal *x, const char *path)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt c = 0; c < ncomp; c++) VTKPutReal(s, x[i * ncomp + c], c == ncomp - 1 ? PETSC_TRUE : PETSC_FALSE);
  VTKEndBlock(s);
  PetscCall(VTKCheckStream(s, path));
  PetscFunctionReturn(0);
}

/* Everything but opening/closing the file, so the caller closes it on every path. */
static PetscErrorCode VTKWriteContents(VTKStream *s, const char *path, const FcOutputMesh *mesh, const FcOutputFields *f, PetscReal time, PetscInt64 *cells)
{
  char  title[256];
  FILE *fp = s->fp;

  PetscFunctionBegin;
  /* The title line is limited to 256 characters and must stay one line: truncate the body name
   * and replace any control character. */
  snprintf(title, sizeof title, "fcsim time=%.17g body=%s", (double)time, mesh->name ? mesh->name : "");
  for (char *c = title; *c; c++)
    if ((unsigned char)*c < 0x20) *c = '_';
  fprintf(fp, "# vtk DataFile Version 3.0\n%s\n%s\nDATASET UNSTRUCTURED_GRID\n", title, s->binary ? "BINARY" : "ASCII");

  fprintf(fp, "POINTS %" PetscInt_FMT " double\n", mesh->nnodes);
  PetscCall(VTKWriteReals(s, mesh->nnodes, 3, mesh->X, path));

  PetscCall(FcOutputCellsToVTK(mesh->nelems, mesh->npe, mesh->conn, cells));
  fprintf(fp, "CELLS %" PetscInt_FMT " %" PetscInt64_FMT "\n", mesh->nelems, (PetscInt64)mesh->nelems * (mesh->npe + 1));
  for (PetscInt e = 0; e < mesh->nelems; e++) {
    VTKPutInt(s, (int32_t)mesh->npe, PETSC_FALSE);
    for (PetscInt i = 0; i < mesh->npe; i++) VTKPutInt(s, (int32_t)cells[e * mesh->npe + i], i == mesh->npe - 1 ? PETSC_TRUE : PETSC_FALSE);
  }
  VTKEndBlock(s);
  fprintf(fp, "CELL_TYPES %" PetscInt_FMT "\n", mesh->nelems);
  for (PetscInt e = 0; e < mesh->nelems; e++) VTKPutInt(s, mesh->npe == 4 ? VTK_TETRA : VTK_QUADRATIC_TETRA, PETSC_TRUE);
  VTKEndBlock(s);
  PetscCall(VTKCheckStream(s, path));

  fprintf(fp, "POINT_DATA %" PetscInt_FMT "\nVECTORS displacement double\n", mesh->nnodes);
  PetscCall(VTKWriteReals(s, mesh->nnodes, 3, f->u, path));
  fprintf(fp, "VECTORS velocity double\n");
  PetscCall(VTKWriteReals(s, mesh->nnodes, 3, f->v, path));
  fprintf(fp, "CELL_DATA %" PetscInt_FMT "\nSCALARS von_mises double 1\nLOOKUP_TABLE default\n", mesh->nelems);
  PetscCall(VTKWriteReals(s, mesh->nelems, 1, f->vm, path));
  PetscFunctionReturn(0);
}

PetscErrorCode FcVTKWriteBody(const char *path, PetscBool binary, const FcOutputMesh *mesh, const FcOutputFields *f, PetscReal time)
{
  VTKStream     *s     = NULL;
  PetscInt64    *cells = NULL;
  PetscErrorCode ierr;
  int            rc;

  PetscFunctionBegin;
  PetscCheck(path && mesh && f, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcVTKWriteBody: NULL argument");
  PetscCheck(mesh->npe == 4 || mesh->npe == 10, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: unsupported nodes per element %" PetscInt_FMT " (4 or 10)",
    path, mesh->npe);
  PetscCheck(mesh->nnodes >= 0 && mesh->nelems >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: negative mesh size", path);
  PetscCheck((mesh->X || !mesh->nnodes) && (mesh->conn || !mesh->nelems) && (f->u || !mesh->nnodes) && (f->v || !mesh->nnodes) && (f->vm || !mesh->nelems),
    PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "%s: NULL mesh or field array", path);
  /* Legacy VTK stores indices and the CELLS size as 32-bit ints. */
  PetscCheck((PetscInt64)mesh->nelems * (mesh->npe + 1) <= INT32_MAX && (PetscInt64)mesh->nnodes <= INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
    "%s: mesh too large for legacy VTK (32-bit indices)", path);

  PetscCall(PetscNew(&s));
  PetscCall(PetscMalloc1((size_t)mesh->nelems * (size_t)mesh->npe, &cells));
  s->binary = binary;
  s->fp     = fopen(path, binary ? "wb" : "w");
  if (!s->fp) {
    PetscCall(PetscFree(cells));
    PetscCall(PetscFree(s));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create VTK file %s", path);
  }
  ierr = VTKWriteContents(s, path, mesh, f, time, cells);
  /* fclose flushes stdio's buffer: a full disk may only show up here. */
  rc = fclose(s->fp);
  PetscCall(PetscFree(cells));
  PetscCall(PetscFree(s));
  PetscCall(ierr);
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing VTK file %s: %s", path, strerror(errno));
  PetscFunctionReturn(0);
}

/* Contact points as POLYDATA with one VERTEX each (ParaView shows them as points; Glyph with
 * "force" or "normal" draws arrows). */
static PetscErrorCode VTKWriteContactsContents(VTKStream *s, const char *path, const FcOutputContacts *c, PetscReal time)
{
  FILE    *fp = s->fp;
  PetscInt m  = c->m;

  PetscFunctionBegin;
  fprintf(fp, "# vtk DataFile Version 3.0\nfcsim time=%.17g contacts\n%s\nDATASET POLYDATA\n", (double)time, s->binary ? "BINARY" : "ASCII");
  fprintf(fp, "POINTS %" PetscInt_FMT " double\n", m);
  PetscCall(VTKWriteReals(s, m, 3, c->x, path));
  fprintf(fp, "VERTICES %" PetscInt_FMT " %" PetscInt64_FMT "\n", m, 2 * (PetscInt64)m);
  for (PetscInt i = 0; i < m; i++) {
    VTKPutInt(s, 1, PETSC_FALSE);
    VTKPutInt(s, (int32_t)i, PETSC_TRUE);
  }
  VTKEndBlock(s);
  PetscCall(VTKCheckStream(s, path));

  fprintf(fp, "POINT_DATA %" PetscInt_FMT "\nVECTORS force double\n", m);
  for (PetscInt i = 0; i < m; i++) {
    PetscReal f[3];

    ContactForce(c, i, f);
    for (int j = 0; j < 3; j++) VTKPutReal(s, f[j], j == 2 ? PETSC_TRUE : PETSC_FALSE);
  }
  VTKEndBlock(s);
  PetscCall(VTKCheckStream(s, path));
  fprintf(fp, "VECTORS normal double\n");
  PetscCall(VTKWriteReals(s, m, 3, c->normal, path));
  fprintf(fp, "VECTORS r_local double\n");
  PetscCall(VTKWriteReals(s, m, 3, c->r, path));
  fprintf(fp, "SCALARS gap double 1\nLOOKUP_TABLE default\n");
  PetscCall(VTKWriteReals(s, m, 1, c->gap, path));
  fprintf(fp, "SCALARS status int 1\nLOOKUP_TABLE default\n");
  for (PetscInt i = 0; i < m; i++) VTKPutInt(s, (int32_t)c->status[i], PETSC_TRUE);
  VTKEndBlock(s);
  fprintf(fp, "SCALARS pair int 1\nLOOKUP_TABLE default\n");
  for (PetscInt i = 0; i < m; i++) VTKPutInt(s, (int32_t)c->pair[i], PETSC_TRUE);
  VTKEndBlock(s);
  PetscCall(VTKCheckStream(s, path));
  PetscFunctionReturn(0);
}

PetscErrorCode FcVTKWriteContacts(const char *path, PetscBool binary, const FcOutputContacts *c, PetscReal time)
{
  VTKStream     *s = NULL;
  PetscErrorCode ierr;
  int            rc;

  PetscFunctionBegin;
  PetscCheck(path && c, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcVTKWriteContacts: NULL argument");
  PetscCheck(c->m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: negative number of contacts", path);
  PetscCheck(!c->m || (c->x && c->normal && c->t1 && c->t2 && c->r && c->gap && c->status && c->pair), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
    "%s: NULL contact array", path);
  /* Legacy VTK stores indices, the VERTICES size and int scalars as 32-bit ints. */
  PetscCheck(2 * (PetscInt64)c->m <= INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: too many contacts for legacy VTK (32-bit indices)", path);
  for (PetscInt i = 0; i < c->m; i++)
    PetscCheck((PetscInt64)c->status[i] >= INT32_MIN && (PetscInt64)c->status[i] <= INT32_MAX && (PetscInt64)c->pair[i] >= INT32_MIN &&
        (PetscInt64)c->pair[i] <= INT32_MAX,
      PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: contact %" PetscInt_FMT ": status or pair does not fit a 32-bit int", path, i);

  PetscCall(PetscNew(&s));
  s->binary = binary;
  s->fp     = fopen(path, binary ? "wb" : "w");
  if (!s->fp) {
    PetscCall(PetscFree(s));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create VTK file %s", path);
  }
  ierr = VTKWriteContactsContents(s, path, c, time);
  rc   = fclose(s->fp);
  PetscCall(PetscFree(s));
  PetscCall(ierr);
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing VTK file %s: %s", path, strerror(errno));
  PetscFunctionReturn(0);
}
/* ------------------------------------------------------------------- the VTK writer */

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
static PetscErrorCode SeriesContents(FILE *fp, const FcOutputState *s, const char *base, PetscInt n, const PetscInt *ks, const char *path)
{
  char name[FC_NAME_LEN + 32];

  PetscFunctionBegin;
  fputs("{\n  \"file-series-version\": \"1.0\",\n  \"files\": [", fp);
  for (PetscInt i = 0; i < n; i++) {
    PetscInt k = ks ? ks[i] : i;

    PetscCall(PetscSNPrintf(name, sizeof name, "%s_%06" PetscInt_FMT ".vtk", base, k));
    fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", fp);
    JSONPutString(fp, name);
    fprintf(fp, ", \"time\": %.17g}", (double)s->outtime[k]);
  }
  fputs(n ? "\n  ]\n}\n" : "]\n}\n", fp);
  PetscCheck(!ferror(fp), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Error writing %s", path);
  PetscFunctionReturn(0);
}

/* ParaView's JSON index of the VTK files of a body (b >= 0) or of the contacts (b < 0). Written
 * to a temporary name and renamed, so a ParaView session watching the run never reads half a
 * file. */
static PetscErrorCode SeriesWrite(const FcOutputState *s, PetscInt b)
{
  const char    *base = b < 0 ? "contacts" : s->meshes[b].name;
  char           path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN], name[FC_NAME_LEN + 32];
  FILE          *fp;
  PetscErrorCode ierr;
  int            rc;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, sizeof name, "vtk/%s.vtk.series", base));
  PetscCall(FcOutputPathJoin(path, sizeof path, s->dir, name));
  PetscCall(PetscSNPrintf(name, sizeof name, "vtk/.%s.vtk.series.tmp", base));
  PetscCall(FcOutputPathJoin(tmp, sizeof tmp, s->dir, name));
  fp = fopen(tmp, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s: %s", tmp, strerror(errno));
  ierr = b < 0 ? SeriesContents(fp, s, base, s->ncon, s->conk, path) : SeriesContents(fp, s, base, s->nout, NULL, path);
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

typedef struct {
  PetscBool binary;
} VTKOut;

static PetscBool VTKWant(const FcOutputSpec *spec) { return spec->vtk; }

static PetscErrorCode VTKOpen(const FcOutputSpec *spec, const FcOutputState *s, void **ctx)
{
  VTKOut     *o;
  char        vtkdir[PETSC_MAX_PATH_LEN];
  struct stat st;

  PetscFunctionBegin;
  PetscCall(FcOutputPathJoin(vtkdir, sizeof vtkdir, s->dir, "vtk"));
  PetscCheck(mkdir(vtkdir, 0777) == 0 || (errno == EEXIST && stat(vtkdir, &st) == 0 && S_ISDIR(st.st_mode)), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN,
    "Cannot create directory %s: %s", vtkdir, strerror(errno));
  PetscCall(PetscNew(&o));
  o->binary = spec->vtk_binary;
  *ctx      = o;
  PetscFunctionReturn(0);
}

static PetscErrorCode VTKFields(void *ctx, const FcOutputState *s, PetscInt step, PetscReal time, const FcOutputFields *fields)
{
  VTKOut  *o = (VTKOut *)ctx;
  char     path[PETSC_MAX_PATH_LEN], name[FC_NAME_LEN + 32];
  PetscInt k = s->nout - 1;

  PetscFunctionBegin;
  (void)step;
  for (PetscInt b = 0; b < s->nbodies; b++) {
    PetscCall(PetscSNPrintf(name, sizeof name, "vtk/%s_%06" PetscInt_FMT ".vtk", s->meshes[b].name, k));
    PetscCall(FcOutputPathJoin(path, sizeof path, s->dir, name));
    PetscCall(FcVTKWriteBody(path, o->binary, &s->meshes[b], &fields[b], time));
  }
  /* The series is kept current so that ParaView can follow a running simulation. Each rewrite
   * costs O(nout): past 1000 output steps only every 100th is rewritten (close always is). */
  if (s->nout <= 1000 || s->nout % 100 == 0)
    for (PetscInt b = 0; b < s->nbodies; b++) PetscCall(SeriesWrite(s, b));
  PetscFunctionReturn(0);
}

static PetscErrorCode VTKContacts(void *ctx, const FcOutputState *s, PetscInt step, PetscReal time, const FcOutputContacts *c)
{
  VTKOut *o = (VTKOut *)ctx;
  char    path[PETSC_MAX_PATH_LEN], name[64];

  PetscFunctionBegin;
  (void)step;
  PetscCall(PetscSNPrintf(name, sizeof name, "vtk/contacts_%06" PetscInt_FMT ".vtk", s->conk[s->ncon - 1]));
  PetscCall(FcOutputPathJoin(path, sizeof path, s->dir, name));
  PetscCall(FcVTKWriteContacts(path, o->binary, c, time));
  /* Kept current like the bodies' series (same rewrite policy). */
  if (s->ncon <= 1000 || s->ncon % 100 == 0) PetscCall(SeriesWrite(s, -1));
  PetscFunctionReturn(0);
}

static PetscErrorCode VTKFinish(void *ctx, const FcOutputState *s)
{
  PetscFunctionBegin;
  (void)ctx;
  for (PetscInt b = 0; b < s->nbodies; b++) PetscCall(SeriesWrite(s, b));
  if (s->ncon) PetscCall(SeriesWrite(s, -1));
  PetscFunctionReturn(0);
}

static PetscErrorCode VTKDestroy(void **ctx, PetscBool report)
{
  PetscFunctionBegin;
  (void)report;
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(0);
}

const FcWriterType FcWriterVTK = {
  .name           = "vtk",
  .names_contacts = PETSC_TRUE, /* vtk/contacts_<k>.vtk and contacts.vtk.series */
  .want           = VTKWant,
  .open           = VTKOpen,
  .fields         = VTKFields,
  .contacts       = VTKContacts,
  .finish         = VTKFinish,
  .destroy        = VTKDestroy,
};
