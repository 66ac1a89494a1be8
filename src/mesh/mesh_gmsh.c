/* fcsim — reading volume meshes through libgmsh (.msh 2.2/4.1 ASCII or binary, .geo).
 *
 * Gmsh is one process-wide session (gmshInitialize once, gmshFinalize in
 * FcMeshFinalizePackage); each load clears the model, so several bodies load several files.
 * Everything read is copied into PETSc-allocated arrays and the model is cleared again, so
 * no Gmsh memory outlives FcMeshLoad, with one exception: a load of one physical volume
 * (FcMeshLoadVolume with a volume) keeps the model open, and the next load of another volume
 * of the same file at the same refine and order reads it from there instead of opening the
 * file again. A case with one body per volume of an n-volume mesh (doc/case-format.md "Many
 * bodies") would otherwise parse the whole file n times: O(n²) (400 blocks: 44 s of set-up,
 * measured). Any other Gmsh use clears the kept model, and FcMeshReleaseKept frees it once
 * the bodies are loaded.
 *
 * Arrays returned by Gmsh must be released with gmshFree whatever happens, so code holding
 * them keeps the first error in `rc`, frees, and only then propagates it with PetscCall. */
#define _POSIX_C_SOURCE 200809L /* open, fstat */
#include "mesh_impl.h"
#include <gmshc.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static PetscBool gmsh_initialized = PETSC_FALSE;

/* The model kept open after a load of one physical volume (file header comment), and the
 * table of its physical groups (name, entities), read from Gmsh once per model: Gmsh's own
 * lookups (gmshModelGetEntitiesForPhysicalGroup, gmshModelGetPhysicalName) walk every entity of
 * the model, so asking them again for every group of every body was O(n³) in the number of
 * volumes. */
typedef struct {
  int    dim, tag;
  char   name[FC_NAME_LEN];
  int   *ents; /* Gmsh-allocated (gmshFree) */
  size_t nents;
} GroupEntry;
static struct {
  PetscBool   valid;
  char        file[PETSC_MAX_PATH_LEN];
  PetscInt    refine, order;
  PetscInt    ngroups; /* -1: the table of the current model is not read yet */
  GroupEntry *groups;
} kept = {PETSC_FALSE, "", 0, 0, -1, NULL};

/* Forget the current model's group table (the model is about to change or be cleared). */
static void GroupTableForget(void)
{
  for (PetscInt i = 0; i < kept.ngroups; i++) gmshFree(kept.groups[i].ents);
  free(kept.groups);
  kept.groups  = NULL;
  kept.ngroups = -1;
}

/* Forget the kept model and clear Gmsh's. */
static void ModelForget(void)
{
  int ierr;
  GroupTableForget();
  kept.valid = PETSC_FALSE;
  gmshClear(&ierr);
}

/* Options a .geo script may set that change what we read (size, order, element types) or
 * how Gmsh reports (terminal output, errors). Options are global in Gmsh and survive
 * gmshClear, so their values at initialization (Gmsh's defaults; ours for the General ones)
 * are restored before every load: one body's script must not change the next body's mesh. */
// clang-format off
static const char *const session_opts[] = {
  "General.Terminal",           "General.Verbosity",      "General.AbortOnError",
  "Mesh.MeshSizeFactor",        "Mesh.MeshSizeMin",       "Mesh.MeshSizeMax",
  "Mesh.MeshSizeFromPoints",    "Mesh.MeshSizeFromCurvature", "Mesh.MeshSizeExtendFromBoundary",
  "Mesh.ElementOrder",          "Mesh.SecondOrderLinear", "Mesh.HighOrderOptimize",
  "Mesh.RecombineAll",          "Mesh.Recombine3DAll",    "Mesh.SubdivisionAlgorithm",
};
// clang-format on
#define NSESSION_OPTS (sizeof session_opts / sizeof session_opts[0])
static double session_vals[NSESSION_OPTS];

static PetscErrorCode GmshInitialize(void)
{
  int ierr;

  PetscFunctionBegin;
  if (gmsh_initialized) PetscFunctionReturn(0);
  /* No argv and no configuration files: a user's ~/.gmshrc must not change our meshes. */
  gmshInitialize(0, NULL, 0, &ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshInitialize failed");
  gmsh_initialized = PETSC_TRUE;
  /* Silent on success; errors are turned into one fcsim line (GmshCheck). Verbosity 2 keeps
   * errors and warnings in the logger, and skips formatting info lines. */
  gmshOptionSetNumber("General.Terminal", 0, &ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: cannot set General.Terminal");
  gmshOptionSetNumber("General.Verbosity", 2, &ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: cannot set General.Verbosity");
  /* The API's default (2) throws an exception on every error; one thrown from the .geo parser
   * leaves Gmsh's parser lock set, after which every file (.msh included) silently loads as
   * an empty model. With 0, errors are only logged: GmshCheck looks for them after each
   * call. */
  gmshOptionSetNumber("General.AbortOnError", 0, &ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: cannot set General.AbortOnError");
  for (size_t i = 0; i < NSESSION_OPTS; i++) {
    gmshOptionGetNumber(session_opts[i], &session_vals[i], &ierr);
    PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: unknown option %s", session_opts[i]);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshFinalizePackage(void)
{
  int ierr;

  PetscFunctionBegin;
  if (!gmsh_initialized) PetscFunctionReturn(0);
  GroupTableForget();
  kept.valid = PETSC_FALSE;
  gmshFinalize(&ierr);
  gmsh_initialized = PETSC_FALSE;
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshFinalize failed");
  PetscFunctionReturn(0);
}

static PetscErrorCode GmshRestoreOptions(void)
{
  int ierr;

  PetscFunctionBegin;
  for (size_t i = 0; i < NSESSION_OPTS; i++) {
    gmshOptionSetNumber(session_opts[i], session_vals[i], &ierr);
    PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: cannot set %s", session_opts[i]);
  }
  PetscFunctionReturn(0);
}

/* For Gmsh queries that report failure only through ierr. */
static PetscErrorCode GmshFailure(const char *file, const char *what)
{
  PetscFunctionBegin;
  PetscCall(FcMeshGmshCheck_Private(file, what, 1));
  PetscFunctionReturn(0);
}

/* Order of the tetrahedra of the model (1 or 2), after checking that the volume mesh holds
 * tetrahedra of a single order and nothing else (*fault = FC_MESH_FAULT_NO_TETRAHEDRA with the
 * input error of a model without any).
 *
 * Gmsh keeps all tetrahedra of a volume in one list whatever their order and reports the type
 * of the first one; gmshModelMeshGetElementsByType then writes every element's nodes into an
 * array sized for that type, which overruns the array when orders are mixed. So the number of
 * elements of exactly that type (gmshModelMeshGetElements, which filters by type) is compared
 * with the size of the list (one barycentre per element) before anything else is read. */
static PetscErrorCode ScanVolumeTypes(const char *file, PetscInt *order, FcMeshFault *fault)
{
  int           *ents  = NULL, ierr;
  size_t         nents = 0;
  PetscInt       found = 0; /* bit 0: tet4, bit 1: tet10 */
  PetscErrorCode rc    = 0;

  PetscFunctionBegin;
  gmshModelGetEntities(&ents, &nents, 3, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(file, ""));
  for (size_t i = 0; i < nents / 2 && !rc; i++) {
    const int tag    = ents[2 * i + 1];
    int      *types  = NULL;
    size_t    ntypes = 0, **etags = NULL, *netags = NULL, nnetags = 0, **ntags = NULL, *nntags = NULL, nnntags = 0;

    gmshModelMeshGetElements(&types, &ntypes, &etags, &netags, &nnetags, &ntags, &nntags, &nnntags, 3, tag, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    for (size_t t = 0; t < ntypes && !rc; t++) {
      if (types[t] == 4 || types[t] == 11) {
        double *bary  = NULL;
        size_t  nbary = 0;

        found |= types[t] == 4 ? 1 : 2;
        gmshModelMeshGetBarycenters(types[t], tag, 1, 1, &bary, &nbary, 0, 1, &ierr);
        gmshFree(bary);
        if (ierr) rc = GmshFailure(file, "");
        else if (nbary / 3 != netags[t])
          rc = FcInputError(file, NULL, "mixed element orders: volume %d has both 4-node and 10-node tetrahedra (save the mesh with one order)", tag);
      } else {
        char   *name = NULL;
        int     dim, ord, nn, np;
        double *lc  = NULL;
        size_t  nlc = 0;

        gmshModelMeshGetElementProperties(types[t], &name, &dim, &ord, &nn, &lc, &nlc, &np, &ierr);
        rc = FcInputError(
          file, NULL, "unsupported volume elements: %s (Gmsh type %d) in volume %d; fcsim needs 4- or 10-node tetrahedra", ierr ? "?" : name, types[t], tag);
        gmshFree(name);
        gmshFree(lc);
      }
    }
    FcMeshGmshFreeElements_Private(types, ntypes, etags, netags, ntags, nntags);
  }
  gmshFree(ents);
  PetscCall(rc);
  if (found == 3) return FcInputError(file, NULL, "mixed element orders: the mesh has both 4-node and 10-node tetrahedra (save the mesh with one order)");
  if (!found) {
    *fault = FC_MESH_FAULT_NO_TETRAHEDRA;
    return FcInputError(file, NULL,
      "no tetrahedra in the mesh (a file saved by Gmsh with physical groups keeps only their elements: define a Physical Volume, or set Mesh.SaveAll = 1)");
  }
  *order = found == 1 ? 1 : 2;
  PetscFunctionReturn(0);
}

typedef struct ReadCtx_ ReadCtx;
static PetscErrorCode   CheckFileElements(const char *file, PetscInt file_order);

/* A fresh, empty Gmsh model (options restored to the session's). */
static PetscErrorCode GmshFreshModel(void)
{
  int ierr;

  PetscFunctionBegin;
  GroupTableForget(); /* the kept model goes with the clear */
  kept.valid = PETSC_FALSE;
  gmshClear(&ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshClear failed");
  PetscCall(GmshRestoreOptions());
  PetscFunctionReturn(0);
}

/* Open the file into a fresh Gmsh model. */
static PetscErrorCode GmshOpenFile(const char *file)
{
  int ierr;

  PetscFunctionBegin;
  PetscCall(GmshFreshModel());
  gmshOpen(file, &ierr);
  PetscCall(FcMeshGmshCheck_Private(file, "", ierr));
  PetscFunctionReturn(0);
}

/* Mesh the opened .geo in 3D with every size scaled by 2^-refine. */
static PetscErrorCode GmshMeshGeo(const char *file, PetscInt refine)
{
  int    ierr;
  double factor;

  PetscFunctionBegin;
  /* Scale whatever factor the script set, and remesh even if the script ran "Mesh 3;"
   * (gmsh does not regenerate an existing mesh, so it is cleared first). */
  gmshOptionGetNumber("Mesh.MeshSizeFactor", &factor, &ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: cannot read Mesh.MeshSizeFactor");
  gmshOptionSetNumber("Mesh.MeshSizeFactor", ldexp(factor, -(int)refine), &ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh: cannot set Mesh.MeshSizeFactor");
  gmshModelMeshClear(NULL, 0, &ierr);
  PetscCall(FcMeshGmshCheck_Private(file, "", ierr));
  gmshModelMeshGenerate(3, &ierr);
  PetscCall(FcMeshGmshCheck_Private(file, "3D meshing failed: ", ierr));
  PetscFunctionReturn(0);
}

/* What the sandboxed child does with a .geo (mesh_sandbox.c): open and mesh it at `refine`;
 * for a load (order > 0), check its volume elements and convert them to `order` there, where
 * the CAD geometry is (mid-edge nodes are placed on it). */
typedef struct {
  const char *file;
  PetscInt    refine, order;
} GeoJob;

static PetscErrorCode GeoWork(void *ctx, FcMeshFault *fault)
{
  const GeoJob *j = ctx;
  PetscInt      file_order;
  int           ierr;

  PetscFunctionBegin;
  PetscCall(GmshOpenFile(j->file));
  PetscCall(GmshMeshGeo(j->file, j->refine));
  if (j->order > 0) {
    PetscCall(ScanVolumeTypes(j->file, &file_order, fault));
    if (file_order != j->order) {
      gmshModelMeshSetOrder((int)j->order, &ierr);
      PetscCall(FcMeshGmshCheck_Private(j->file, "order conversion failed: ", ierr));
    }
  }
  PetscFunctionReturn(0);
}

/* The .geo meshed by GeoWork in the sandbox, rebuilt as this session's model. */
static PetscErrorCode GmshLoadGeo(const char *file, PetscInt refine, PetscInt order, FcMeshFault *fault)
{
  GeoJob j = {file, refine, order};
  char   root[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(FcMeshScriptRoot_Private(file, root, sizeof root));
  PetscCall(GmshFreshModel());
  PetscCall(FcMeshGeoRun_Private(file, root, GeoWork, &j, fault));
  PetscFunctionReturn(0);
}

/* Open the file into a fresh Gmsh model and bring it to the requested refinement and order
 * (*fault: see ScanVolumeTypes). */
static PetscErrorCode GmshLoadModel(const char *file, PetscBool geo, PetscInt refine, PetscInt order, FcMeshFault *fault)
{
  int      ierr;
  PetscInt file_order;

  PetscFunctionBegin;
  if (geo) {
    PetscCall(GmshLoadGeo(file, refine, order, fault));
    PetscFunctionReturn(0);
  }
  PetscCall(GmshOpenFile(file));
  {
    /* Check before refining: Gmsh's refinement of a mixed-order volume is not safe. */
    PetscCall(ScanVolumeTypes(file, &file_order, fault));
    /* Refinement and order conversion renumber Gmsh's nodes and elements: check the elements
     * as the file has them, so that a bad element is reported with the ids the user can find
     * (and before Gmsh refines or converts a broken mesh). */
    if (refine || file_order != order) PetscCall(CheckFileElements(file, file_order));
    for (PetscInt r = 0; r < refine; r++) {
      gmshModelMeshRefine(&ierr);
      PetscCall(FcMeshGmshCheck_Private(file, "refinement failed: ", ierr));
      /* Refining splits tet10 into straight tet4 through the mid-edge nodes. */
      PetscCall(ScanVolumeTypes(file, &file_order, fault));
    }
  }
  if (file_order != order) {
    gmshModelMeshSetOrder((int)order, &ierr);
    PetscCall(FcMeshGmshCheck_Private(file, "order conversion failed: ", ierr));
  }
  PetscFunctionReturn(0);
}

/* Gmsh node tag -> position in the gmshModelMeshGetNodes list. Tags are usually dense
 * (1..n), then a direct table is O(n); sparse tags fall back to a sorted copy. */
typedef struct {
  size_t   tag;
  PetscInt pos;
} TagPos;

typedef struct {
  size_t    n, maxtag;
  PetscInt *dense;  /* maxtag+1 entries, -1 for unused tags */
  TagPos   *sorted; /* n entries sorted by tag */
} NodeMap;

static int CompareTag(const void *a, const void *b)
{
  const size_t ta = ((const TagPos *)a)->tag, tb = ((const TagPos *)b)->tag;
  return ta < tb ? -1 : ta > tb;
}

static PetscErrorCode NodeMapCreate(const size_t *tags, size_t n, NodeMap *map)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(map, sizeof *map));
  map->n = n;
  for (size_t i = 0; i < n; i++) map->maxtag = PetscMax(map->maxtag, tags[i]);
  if (map->maxtag <= 4 * n + 1024) {
    PetscCall(PetscMalloc1(map->maxtag + 1, &map->dense));
    for (size_t t = 0; t <= map->maxtag; t++) map->dense[t] = -1;
    for (size_t i = 0; i < n; i++) map->dense[tags[i]] = (PetscInt)i;
  } else {
    PetscCall(PetscMalloc1(n, &map->sorted));
    for (size_t i = 0; i < n; i++) {
      map->sorted[i].tag = tags[i];
      map->sorted[i].pos = (PetscInt)i;
    }
    qsort(map->sorted, n, sizeof *map->sorted, CompareTag);
  }
  PetscFunctionReturn(0);
}

static PetscInt NodeMapFind(const NodeMap *map, size_t tag)
{
  size_t lo = 0, hi = map->n;

  if (map->dense) return tag <= map->maxtag ? map->dense[tag] : -1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (map->sorted[mid].tag < tag) lo = mid + 1;
    else hi = mid;
  }
  return lo < map->n && map->sorted[lo].tag == tag ? map->sorted[lo].pos : -1;
}

/* Position of the k-th node in increasing tag order (-1 for a gap in a dense table). */
static PetscInt NodeMapPosInTagOrder(const NodeMap *map, size_t k) { return map->dense ? map->dense[k] : map->sorted[k].pos; }

static size_t NodeMapTagOrderSize(const NodeMap *map) { return map->dense ? map->maxtag + 1 : map->n; }

static PetscErrorCode NodeMapDestroy(NodeMap *map)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(map->dense));
  PetscCall(PetscFree(map->sorted));
  PetscFunctionReturn(0);
}

/* What reading the tetrahedra leaves for building the groups. */
struct ReadCtx_ {
  NodeMap    map;
  PetscInt  *index;               /* position in the Gmsh node list -> mesh node index, -1 if unused */
  PetscInt  *id_sorted, *id_elem; /* element tags sorted, with their element indices */
  FcFaceHash faces;
};

static PetscErrorCode ReadCtxDestroy(ReadCtx *ctx)
{
  PetscFunctionBegin;
  PetscCall(NodeMapDestroy(&ctx->map));
  PetscCall(PetscFree(ctx->index));
  PetscCall(PetscFree2(ctx->id_sorted, ctx->id_elem));
  PetscCall(FcFaceHashDestroy(&ctx->faces));
  PetscFunctionReturn(0);
}

/* Gmsh reads "nan" and "inf" in a MSH file as coordinates (and a .geo can compute them, e.g.
 * 0/0), and no element check sees them (every comparison with NaN is false): the volume is
 * then NaN and the first assembly fails. Every node of the model must be finite. */
static PetscErrorCode CheckCoordinates(const char *file, const size_t *tag, const double *x, size_t n)
{
  size_t first = n, nbad = 0;

  PetscFunctionBegin;
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[3 * i]) || !isfinite(x[3 * i + 1]) || !isfinite(x[3 * i + 2])) {
      if (!nbad || tag[i] < tag[first]) first = i;
      nbad++;
    }
  if (nbad) {
    char more[64] = "";
    if (nbad > 1) snprintf(more, sizeof more, " (%zu such nodes)", nbad);
    return FcInputError(file, NULL, "node %zu has a non-finite coordinate (%g, %g, %g)%s", tag[first], x[3 * first], x[3 * first + 1], x[3 * first + 2], more);
  }
  PetscFunctionReturn(0);
}

/* The tetrahedra (tags and node tags) of the physical volume named `volume`, entity after
 * entity, in the arrays gmshModelMeshGetElementsByType would give for the whole model. A name
 * that is no physical volume is an input error (the case loader checks names first). */
static PetscErrorCode GroupTable(const char *);

static PetscErrorCode VolumeElements(const char *file, const char *volume, int type, size_t npe, size_t **et, size_t *net, size_t **nt, size_t *nnt)
{
  int           *ents = NULL, ierr, tag = -1;
  size_t         nents = 0, cap = 0;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *et  = NULL;
  *nt  = NULL;
  *net = *nnt = 0;
  /* the group table read once per model (GroupTable): a scan of Gmsh's groups by name per body
   * was O(n) Gmsh lookups for each of n bodies */
  PetscCall(GroupTable(file));
  for (PetscInt i = 0; i < kept.ngroups && tag < 0; i++)
    if (kept.groups[i].dim == 3 && !strcmp(kept.groups[i].name, volume)) {
      tag   = kept.groups[i].tag;
      nents = kept.groups[i].nents;
      PetscCall(PetscMalloc1(nents + 1, &ents));
      for (size_t k = 0; k < nents; k++) ents[k] = kept.groups[i].ents[k];
    }
  if (tag < 0) return FcInputError(file, NULL, "no physical volume named '%s'", volume);
  for (size_t i = 0; i < nents && !rc; i++) {
    size_t *e = NULL, ne = 0, *n = NULL, nn = 0;
    gmshModelMeshGetElementsByType(type, &e, &ne, &n, &nn, ents[i], 0, 1, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    else if (nn != ne * npe)
      rc = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_LIB, PETSC_ERROR_INITIAL,
        "gmsh returned %zu node tags for %zu elements of type %d", nn, ne, type);
    if (!rc && *net + ne > cap) {
      size_t *a = NULL, *b = NULL;
      cap = PetscMax(2 * cap, *net + ne);
      rc  = PetscMalloc2(cap, &a, cap * npe, &b);
      if (!rc && *net) {
        memcpy(a, *et, *net * sizeof *a);
        memcpy(b, *nt, *nnt * sizeof *b);
      }
      if (!rc) rc = PetscFree2(*et, *nt);
      *et = a;
      *nt = b;
    }
    if (!rc) {
      memcpy(*et + *net, e, ne * sizeof *e);
      memcpy(*nt + *nnt, n, nn * sizeof *n);
      *net += ne;
      *nnt += nn;
    }
    gmshFree(e);
    gmshFree(n);
  }
  PetscCall(PetscFree(ents));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Nodes and tetrahedra of the model into mesh (X, node_id, conn, elem_id); with `volume` (not
 * "") only those of that physical volume: the mesh of one body of a multi-volume file. */
static PetscErrorCode ReadVolume(FcMesh *mesh, PetscInt order, const char *volume, ReadCtx *ctx)
{
  const int      type = order == 1 ? 4 : 11;
  size_t        *ntag = NULL, nntag = 0, ncoord = 0, npc = 0, *et = NULL, net = 0, *nt = NULL, nnt = 0;
  double        *coord = NULL, *pc = NULL;
  int            ierr;
  PetscInt       nused = 0;
  PetscErrorCode rc    = 0;

  PetscFunctionBegin;
  mesh->order = order;
  mesh->npe   = order == 1 ? 4 : 10;
  gmshModelMeshGetNodes(&ntag, &nntag, &coord, &ncoord, &pc, &npc, -1, -1, 0, 0, &ierr);
  gmshFree(pc);
  if (ierr) rc = GmshFailure(mesh->file, "");
  if (!rc) rc = CheckCoordinates(mesh->file, ntag, coord, nntag);
  if (!rc) {
    /* Safe now that ScanVolumeTypes has ruled out mixed orders; all volumes, in order. */
    if (volume && volume[0]) rc = VolumeElements(mesh->file, volume, type, (size_t)mesh->npe, &et, &net, &nt, &nnt);
    else gmshModelMeshGetElementsByType(type, &et, &net, &nt, &nnt, -1, 0, 1, &ierr);
    if (rc)
      ;
    else if (volume && volume[0] && !net) rc = FcInputError(mesh->file, NULL, "physical volume '%s' has no tetrahedra", volume);
    else if (ierr) rc = GmshFailure(mesh->file, "");
    else if (nnt != net * (size_t)mesh->npe)
      rc = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_LIB, PETSC_ERROR_INITIAL,
        "gmsh returned %zu node tags for %zu elements of type %d", nnt, net, type);
  }
  /* Gmsh tags and counts are size_t; PetscInt is 32-bit in this build. */
  if (!rc && (nntag >= (size_t)PETSC_MAX_INT || net >= (size_t)PETSC_MAX_INT / 10))
    rc = FcInputError(mesh->file, NULL, "mesh too large for 32-bit indices (%zu nodes, %zu elements)", nntag, net);
  if (!rc) rc = NodeMapCreate(ntag, nntag, &ctx->map);
  if (!rc) rc = PetscMalloc1(nntag, &ctx->index);
  if (!rc) rc = PetscMalloc1(net * mesh->npe, &mesh->conn);
  if (!rc) rc = PetscMalloc1(net, &mesh->elem_id);
  if (!rc) mesh->nelems = (PetscInt)net;
  for (size_t e = 0; e < net && !rc; e++) {
    if (et[e] > (size_t)PETSC_MAX_INT) rc = FcInputError(mesh->file, NULL, "element tag %zu too large (at most %d)", et[e], (int)PETSC_MAX_INT);
    else mesh->elem_id[e] = (PetscInt)et[e];
    for (PetscInt a = 0; a < mesh->npe && !rc; a++) {
      const PetscInt pos = NodeMapFind(&ctx->map, nt[e * mesh->npe + a]);
      if (pos < 0) rc = FcInputError(mesh->file, NULL, "element %zu refers to node %zu, which is not defined", et[e], nt[e * mesh->npe + a]);
      else mesh->conn[e * mesh->npe + a] = pos; /* position in the Gmsh list; renumbered below */
    }
  }

  /* Keep only the nodes the tetrahedra use, numbered in increasing Gmsh tag order: the same
   * numbering whatever the file format (Gmsh lists nodes by entity, and MSH 2.2 and 4.1 files
   * classify them differently); surface-only and unused nodes are dropped. */
  if (!rc) {
    const size_t nk = NodeMapTagOrderSize(&ctx->map);
    for (size_t i = 0; i < nntag; i++) ctx->index[i] = -1;                                  /* unused */
    for (PetscInt k = 0; k < mesh->nelems * mesh->npe; k++) ctx->index[mesh->conn[k]] = -2; /* used */
    for (size_t k = 0; k < nk; k++) {
      const PetscInt pos = NodeMapPosInTagOrder(&ctx->map, k);
      if (pos >= 0 && ctx->index[pos] == -2) ctx->index[pos] = nused++;
    }
    mesh->nnodes = nused;
    rc           = PetscMalloc1(3 * nused, &mesh->X);
    if (!rc) rc = PetscMalloc1(nused, &mesh->node_id);
  }
  for (size_t i = 0; i < nntag && !rc; i++) {
    const PetscInt n = ctx->index[i];
    if (n < 0) continue;
    if (ntag[i] > (size_t)PETSC_MAX_INT) rc = FcInputError(mesh->file, NULL, "node tag %zu too large (at most %d)", ntag[i], (int)PETSC_MAX_INT);
    for (PetscInt d = 0; d < 3; d++) mesh->X[3 * n + d] = coord[3 * i + d];
    mesh->node_id[n] = (PetscInt)ntag[i];
  }
  if (!rc)
    for (PetscInt k = 0; k < mesh->nelems * mesh->npe; k++) mesh->conn[k] = ctx->index[mesh->conn[k]];
  gmshFree(ntag);
  gmshFree(coord);
  if (volume && volume[0]) PetscCall(PetscFree2(et, nt));
  else {
    gmshFree(et);
    gmshFree(nt);
  }
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Append v to a growable PetscInt array. */
static PetscErrorCode Push(PetscInt **a, PetscInt *n, PetscInt *cap, PetscInt v)
{
  PetscFunctionBegin;
  if (*n == *cap) {
    PetscInt *b;
    *cap = PetscMax(16, 2 * *cap);
    PetscCall(PetscMalloc1(*cap, &b));
    PetscCall(PetscArraycpy(b, *a, *n));
    PetscCall(PetscFree(*a));
    *a = b;
  }
  (*a)[(*n)++] = v;
  PetscFunctionReturn(0);
}

/* Nodes (and, for triangles, boundary faces) of the elements of dimension dim on one entity. */
static PetscErrorCode GroupAddEntity(FcMesh *mesh, ReadCtx *ctx, FcMeshGroup *g, int dim, int ent, PetscInt *ncap, PetscInt *fcap)
{
  int           *types  = NULL, ierr;
  size_t         ntypes = 0, **etags = NULL, *netags = NULL, nnetags = 0, **ntags = NULL, *nntags = NULL, nnntags = 0;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  gmshModelMeshGetElements(&types, &ntypes, &etags, &netags, &nnetags, &ntags, &nntags, &nnntags, dim, ent, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(mesh->file, ""));
  for (size_t t = 0; t < ntypes && !rc; t++) {
    const size_t npe = netags[t] ? nntags[t] / netags[t] : 0;
    /* Triangles (3- or 6-node) are matched to boundary faces by their corners. */
    const PetscBool tri = (types[t] == 2 || types[t] == 9) && dim == 2;

    for (size_t e = 0; e < netags[t] && !rc; e++) {
      PetscInt c[3], nc = 0;
      for (size_t a = 0; a < npe && !rc; a++) {
        const PetscInt pos = NodeMapFind(&ctx->map, ntags[t][e * npe + a]);
        const PetscInt n   = pos < 0 ? -1 : ctx->index[pos];
        /* Nodes no tetrahedron uses (a surface away from the volume) are not mesh nodes. */
        if (n < 0) continue;
        rc = Push(&g->nodes, &g->nnodes, ncap, n);
        if (a < 3) c[nc++] = n;
      }
      if (!rc && tri && nc == 3) {
        const PetscInt f = FcFaceHashFindBoundary(mesh, &ctx->faces, c);
        /* An interior surface (between two volumes) contributes nodes only. */
        if (f >= 0) rc = Push(&g->faces, &g->nfaces, fcap, f);
      }
    }
  }
  FcMeshGmshFreeElements_Private(types, ntypes, etags, netags, ntags, nntags);
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Elements (by their Gmsh tags) and nodes of one volume entity. */
static PetscErrorCode GroupAddVolume(FcMesh *mesh, ReadCtx *ctx, FcMeshGroup *g, int ent, PetscInt *ncap, PetscInt *ecap)
{
  const int      type = mesh->order == 1 ? 4 : 11;
  size_t        *et = NULL, net = 0, *nt = NULL, nnt = 0;
  int            ierr;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  if (!ctx->id_sorted) {
    /* Tag -> element index, built once for all volume groups. */
    PetscCall(PetscMalloc2(mesh->nelems, &ctx->id_sorted, mesh->nelems, &ctx->id_elem));
    for (PetscInt e = 0; e < mesh->nelems; e++) {
      ctx->id_sorted[e] = mesh->elem_id[e];
      ctx->id_elem[e]   = e;
    }
    PetscCall(PetscSortIntWithArray(mesh->nelems, ctx->id_sorted, ctx->id_elem));
  }
  gmshModelMeshGetElementsByType(type, &et, &net, &nt, &nnt, ent, 0, 1, &ierr);
  if (ierr) rc = GmshFailure(mesh->file, "");
  for (size_t k = 0; k < net && !rc; k++) {
    PetscInt loc, e;
    rc = PetscFindInt((PetscInt)et[k], mesh->nelems, ctx->id_sorted, &loc);
    if (rc || loc < 0) continue;
    e  = ctx->id_elem[loc];
    rc = Push(&g->elems, &g->nelems, ecap, e);
    for (PetscInt a = 0; a < mesh->npe && !rc; a++) rc = Push(&g->nodes, &g->nnodes, ncap, mesh->conn[e * mesh->npe + a]);
  }
  gmshFree(et);
  gmshFree(nt);
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* The table of the current model's physical groups (kept.groups), read once per model. */
static PetscErrorCode GroupTable(const char *file)
{
  int           *dimtags  = NULL, ierr;
  size_t         ndimtags = 0;
  PetscErrorCode rc       = 0;

  PetscFunctionBegin;
  if (kept.ngroups >= 0) PetscFunctionReturn(0);
  gmshModelGetPhysicalGroups(&dimtags, &ndimtags, -1, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(file, ""));
  kept.groups = calloc(ndimtags / 2 + 1, sizeof *kept.groups);
  if (!kept.groups)
    rc = PetscError(
      PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "out of memory for %zu physical groups", ndimtags / 2);
  else kept.ngroups = 0;
  for (size_t i = 0; i < ndimtags / 2 && !rc; i++) {
    GroupEntry *g    = &kept.groups[kept.ngroups++];
    char       *name = NULL;
    g->dim           = dimtags[2 * i];
    g->tag           = dimtags[2 * i + 1];
    gmshModelGetPhysicalName(g->dim, g->tag, &name, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    else if (strlen(name) >= sizeof g->name)
      rc = FcInputError(file, NULL, "physical group name too long (%zu characters, at most %zu): %.40s...", strlen(name), sizeof g->name - 1, name);
    else snprintf(g->name, sizeof g->name, "%s", name);
    gmshFree(name);
    if (!rc) gmshModelGetEntitiesForPhysicalGroup(g->dim, g->tag, &g->ents, &g->nents, &ierr);
    if (!rc && ierr) rc = GmshFailure(file, "");
  }
  gmshFree(dimtags);
  if (rc) GroupTableForget();
  PetscCall(rc);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadGroup(FcMesh *mesh, ReadCtx *ctx, const GroupEntry *ge, FcMeshGroup *g)
{
  PetscInt       ncap = 0, fcap = 0;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  g->dim = ge->dim;
  g->tag = ge->tag;
  snprintf(g->name, sizeof g->name, "%s", ge->name);
  if (g->dim == 3) {
    for (size_t i = 0; i < ge->nents && !rc; i++) rc = GroupAddVolume(mesh, ctx, g, ge->ents[i], &ncap, &fcap);
  } else {
    for (size_t i = 0; i < ge->nents && !rc; i++) rc = GroupAddEntity(mesh, ctx, g, (int)g->dim, ge->ents[i], &ncap, &fcap);
  }
  PetscCall(rc);
  PetscCall(PetscSortRemoveDupsInt(&g->nnodes, g->nodes));
  PetscCall(PetscSortRemoveDupsInt(&g->nfaces, g->faces));
  PetscCall(PetscSortRemoveDupsInt(&g->nelems, g->elems));
  PetscFunctionReturn(0);
}

/* The model's physical groups restricted to the mesh. With `volume` (one body of a multi-volume
 * file) only the groups that touch it are kept (one with a node, a boundary face or an element
 * of this body): each of n bodies keeping all n volumes' groups, empty, was O(n²) memory. */
/* Whether volume group ge shares an entity with the body's volume `vol` (NULL: not one body): the
 * elements of its other entities cannot be the body's, so it would be read empty. */
static PetscBool GroupMayTouch_Private(const GroupEntry *ge, const GroupEntry *vol)
{
  if (!vol || ge->dim != 3) return PETSC_TRUE;
  for (size_t i = 0; i < ge->nents; i++)
    for (size_t j = 0; j < vol->nents; j++)
      if (ge->ents[i] == vol->ents[j]) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscErrorCode ReadGroups(FcMesh *mesh, const char *volume, ReadCtx *ctx)
{
  const PetscBool   one = (PetscBool)(volume && volume[0]);
  PetscInt          k   = 0;
  const GroupEntry *vol = NULL;

  PetscFunctionBegin;
  PetscCall(GroupTable(mesh->file));
  for (PetscInt i = 0; one && i < kept.ngroups && !vol; i++)
    if (kept.groups[i].dim == 3 && !strcmp(kept.groups[i].name, volume)) vol = &kept.groups[i];
  PetscCall(PetscCalloc1(kept.ngroups + 1, &mesh->groups));
  mesh->ngroups = 0;
  for (PetscInt i = 0; i < kept.ngroups; i++) {
    FcMeshGroup *g = &mesh->groups[k];
    if (!GroupMayTouch_Private(&kept.groups[i], vol)) continue; /* n bodies × n volumes: O(n²) reads */
    mesh->ngroups = k + 1;                                      /* so that FcMeshDestroy frees this group on an error */
    PetscCall(ReadGroup(mesh, ctx, &kept.groups[i], g));
    if (one && !g->nnodes && !g->nfaces && !g->nelems) {
      PetscCall(PetscFree(g->nodes));
      PetscCall(PetscFree(g->faces));
      PetscCall(PetscFree(g->elems));
      PetscCall(PetscMemzero(g, sizeof *g));
      mesh->ngroups = k;
      continue;
    }
    k++;
  }
  mesh->ngroups = k;
  if (one && k < kept.ngroups) { /* keep room for the groups kept only (n bodies × n groups) */
    FcMeshGroup *kg;
    PetscCall(PetscMalloc1(k + 1, &kg));
    PetscCall(PetscArraycpy(kg, mesh->groups, k));
    PetscCall(PetscFree(mesh->groups));
    mesh->groups = kg;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckFileElements(const char *file, PetscInt file_order)
{
  FcMesh         tmp;
  ReadCtx        ctx;
  PetscErrorCode rc;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&tmp, sizeof tmp));
  PetscCall(PetscMemzero(&ctx, sizeof ctx));
  snprintf(tmp.file, sizeof tmp.file, "%s", file);
  rc = ReadVolume(&tmp, file_order, NULL, &ctx);
  if (!rc) rc = FcMeshCheckElements_Private(&tmp);
  if (!rc) rc = FcMeshBuildBoundary_Private(&tmp, &ctx.faces); /* faces shared by 3+ elements */
  PetscCall(ReadCtxDestroy(&ctx));
  PetscCall(FcMeshDestroy(&tmp));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadMesh(FcMesh *mesh, PetscInt order, const char *volume, ReadCtx *ctx)
{
  PetscFunctionBegin;
  PetscCall(ReadVolume(mesh, order, volume, ctx));
  /* Validity before the boundary: outward face orientation assumes positive elements. */
  PetscCall(FcMeshCheckElements_Private(mesh));
  PetscCall(FcMeshBuildBoundary_Private(mesh, &ctx->faces));
  PetscCall(ReadGroups(mesh, volume, ctx));
  PetscFunctionReturn(0);
}

/* Everything checked before Gmsh opens the file: Gmsh would act on what these refuse (run a
 * script's commands, read a non-MSH .msh as a script, trust inconsistent counts). */
static PetscErrorCode CheckBeforeGmsh(const char *file, PetscBool *geo)
{
  const char *ext = strrchr(file, '.');
  PetscBool   msh;
  struct stat st;
  int         fd;

  PetscFunctionBegin;
  *geo = ext && !strcasecmp(ext, ".geo") ? PETSC_TRUE : PETSC_FALSE;
  msh  = ext && !strcasecmp(ext, ".msh") ? PETSC_TRUE : PETSC_FALSE;
  if (!*geo && !msh) return FcInputError(file, NULL, "unsupported mesh file type (expected .msh or .geo)");
  /* Gmsh only warns about a missing file and leaves an empty model, so check first; open
   * also catches permissions' errors with a precise reason. O_NONBLOCK: opening a FIFO must not
   * wait for a writer. Only a regular file: a FIFO or a device (/dev/zero) would be read
   * forever. */
  fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return FcInputError(file, NULL, "cannot read mesh file: %s", strerror(errno));
  if (fstat(fd, &st)) {
    close(fd);
    return FcInputError(file, NULL, "cannot read mesh file: %s", strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return FcInputError(file, NULL, "not a regular file (a mesh must be a .msh or .geo file, not a %s)",
      S_ISDIR(st.st_mode)                            ? "folder"
        : S_ISFIFO(st.st_mode)                       ? "FIFO"
        : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device"
        : S_ISSOCK(st.st_mode)                       ? "socket"
                                                     : "special file");
  }
  close(fd);
  if (msh) {
    /* Gmsh reads anything that is not MSH data as a .geo script (which may run commands), and
     * its parser leaks on errors: refuse such files here. MSH 2 and 4 start with $MeshFormat. */
    const int head = FcMeshMshHead_Private(file);
    if (head < 0) return FcInputError(file, NULL, "the mesh file is empty");
    if (!head) return FcInputError(file, NULL, "not a Gmsh MSH file (it does not start with $MeshFormat)");
    PetscCall(FcMeshCheckMshCounts_Private(file));
  } else if (!FcMeshGeo.skip_script_check) PetscCall(FcMeshCheckScript_Private(file));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshReleaseKept(void)
{
  int ierr;

  PetscFunctionBegin;
  if (!kept.valid) PetscFunctionReturn(0);
  GroupTableForget();
  kept.valid = PETSC_FALSE;
  gmshClear(&ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshClear failed");
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshLoad(const char *file, PetscInt refine, PetscInt order, FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(FcMeshLoadVolume(file, refine, order, NULL, mesh));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshLoadVolume(const char *file, PetscInt refine, PetscInt order, const char *volume, FcMesh *mesh)
{
  PetscBool      geo;
  ReadCtx        ctx;
  PetscErrorCode rc;
  FcMeshFault    fault = FC_MESH_FAULT_OTHER;
  PetscBool      reuse;
  int            ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(mesh, sizeof *mesh));
  PetscCall(PetscMemzero(&ctx, sizeof ctx));
  mesh->fault = FC_MESH_FAULT_OTHER; /* until the mesh is read */
  if (strlen(file) >= sizeof mesh->file) return FcInputError(file, NULL, "mesh file name too long");
  snprintf(mesh->file, sizeof mesh->file, "%s", file);
  if (order != 1 && order != 2) return FcInputError(file, NULL, "element order %" PetscInt_FMT " not supported (1: 4-node, 2: 10-node tetrahedra)", order);
  if (refine < 0 || refine > 10)
    return FcInputError(file, NULL, "refine %" PetscInt_FMT " out of range [0, 10] (each level multiplies the element count by about 8)", refine);
  /* another volume of the model kept by the previous load (file header comment) */
  reuse = (PetscBool)(volume && volume[0] && kept.valid && !strcmp(kept.file, file) && kept.refine == refine && kept.order == order);
  if (!reuse) PetscCall(CheckBeforeGmsh(file, &geo));

  PetscCall(GmshInitialize());
  gmshLoggerStart(&ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshLoggerStart failed");
  rc = reuse ? 0 : GmshLoadModel(file, geo, refine, order, &fault);
  if (!rc) rc = ReadMesh(mesh, order, volume, &ctx);
  /* The logger only serves this load's messages, and the model is not needed any more (unless
   * the next load may read another of its volumes): free both now rather than at the next load
   * (a large mesh would otherwise stay in memory). */
  gmshLoggerStop(&ierr);
  if (!rc && volume && volume[0] && strlen(file) < sizeof kept.file) {
    kept.valid  = PETSC_TRUE;
    kept.refine = refine;
    kept.order  = order;
    snprintf(kept.file, sizeof kept.file, "%s", file);
  } else ModelForget();
  PetscCall(ReadCtxDestroy(&ctx));
  if (rc) {
    PetscCall(FcMeshDestroy(mesh));
    mesh->fault = fault;
  }
  PetscCall(rc);
  mesh->fault = FC_MESH_FAULT_NONE;
  PetscFunctionReturn(0);
}

/* Tetrahedra of every volume, counted per type with gmshModelMeshGetElements (which filters by
 * type, unlike gmshModelMeshGetElementsByType on a mixed-order volume, see ScanVolumeTypes). */
static PetscErrorCode CountTetrahedra(const char *file, PetscInt64 *ntets)
{
  int   *types  = NULL, ierr;
  size_t ntypes = 0, **etags = NULL, *netags = NULL, nnetags = 0, **ntags = NULL, *nntags = NULL, nnntags = 0;

  PetscFunctionBegin;
  *ntets = 0;
  gmshModelMeshGetElements(&types, &ntypes, &etags, &netags, &nnetags, &ntags, &nntags, &nnntags, 3, -1, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(file, ""));
  for (size_t t = 0; t < ntypes; t++)
    if (types[t] == 4 || types[t] == 11) *ntets += (PetscInt64)netags[t];
  FcMeshGmshFreeElements_Private(types, ntypes, etags, netags, ntags, nntags);
  PetscFunctionReturn(0);
}

/* What Inspect asks of the file: the tetrahedra of every volume (ntets set), or the physical
 * volumes with their tetrahedra (ListVolumes). */
typedef struct {
  PetscInt64 *ntets; /* CountTetrahedra */
  PetscInt   *n;     /* ListVolumes */
  char (**names)[FC_NAME_LEN];
  PetscInt **vtets;
} Inspect_Private;

static PetscErrorCode ListVolumes(const char *, PetscInt *, char (**)[FC_NAME_LEN], PetscInt **);

/* Open `file` (a .geo meshed at refine 0) in a model of its own, answer q, clear the model: the
 * common frame of the queries that read a file without loading a body from it. */
static PetscErrorCode Inspect(const char *file, Inspect_Private *q)
{
  PetscBool      geo;
  PetscErrorCode rc;
  int            ierr;

  PetscFunctionBegin;
  PetscCall(CheckBeforeGmsh(file, &geo));
  PetscCall(GmshInitialize());
  gmshLoggerStart(&ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshLoggerStart failed");
  if (geo) {
    FcMeshFault fault;
    rc = GmshLoadGeo(file, 0, 0, &fault);
  } else rc = GmshOpenFile(file);
  if (!rc) rc = q->ntets ? CountTetrahedra(file, q->ntets) : ListVolumes(file, q->n, q->names, q->vtets);
  gmshLoggerStop(&ierr);
  gmshClear(&ierr);
  PetscCall(rc);
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshCountTetrahedra(const char *file, PetscInt64 *ntets)
{
  Inspect_Private q = {ntets, NULL, NULL, NULL};

  PetscFunctionBegin;
  *ntets = 0;
  PetscCall(Inspect(file, &q));
  PetscFunctionReturn(0);
}

/* Names and tetrahedron counts of the physical volumes of the opened model. */
static PetscErrorCode ListVolumes(const char *file, PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets)
{
  int           *dimtags  = NULL, ierr;
  size_t         ndimtags = 0;
  PetscErrorCode rc       = 0;

  PetscFunctionBegin;
  gmshModelGetPhysicalGroups(&dimtags, &ndimtags, 3, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(file, ""));
  *n = (PetscInt)(ndimtags / 2);
  rc = PetscCalloc2(*n + 1, names, *n + 1, ntets);
  for (PetscInt i = 0; i < *n && !rc; i++) {
    char  *name  = NULL;
    int   *ents  = NULL;
    size_t nents = 0;
    gmshModelGetPhysicalName(3, dimtags[2 * i + 1], &name, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    else if (strlen(name) >= FC_NAME_LEN)
      rc = FcInputError(file, NULL, "physical group name too long (%zu characters, at most %d): %.40s...", strlen(name), FC_NAME_LEN - 1, name);
    else snprintf((*names)[i], FC_NAME_LEN, "%s", name);
    gmshFree(name);
    if (!rc) gmshModelGetEntitiesForPhysicalGroup(3, dimtags[2 * i + 1], &ents, &nents, &ierr);
    if (!rc && ierr) rc = GmshFailure(file, "");
    for (size_t k = 0; k < nents && !rc; k++) {
      int   *types  = NULL;
      size_t ntypes = 0, **etags = NULL, *netags = NULL, nnetags = 0, **ntags = NULL, *nntags = NULL, nnntags = 0;
      gmshModelMeshGetElements(&types, &ntypes, &etags, &netags, &nnetags, &ntags, &nntags, &nnntags, 3, ents[k], &ierr);
      if (ierr) rc = GmshFailure(file, "");
      for (size_t t = 0; t < ntypes && !rc; t++)
        if (types[t] == 4 || types[t] == 11) (*ntets)[i] += (PetscInt)netags[t];
      if (!ierr) FcMeshGmshFreeElements_Private(types, ntypes, etags, netags, ntags, nntags);
    }
    gmshFree(ents);
  }
  gmshFree(dimtags);
  PetscCall(rc);
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshListVolumes(const char *file, PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets)
{
  Inspect_Private q = {NULL, n, names, ntets};
  PetscErrorCode  rc;

  PetscFunctionBegin;
  *n     = 0;
  *names = NULL;
  *ntets = NULL;
  rc     = Inspect(file, &q);
  if (rc) {
    PetscCall(PetscFree2(*names, *ntets));
    *n = 0;
  }
  PetscCall(rc);
  PetscFunctionReturn(0);
}
