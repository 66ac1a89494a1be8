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
 * measured). Likewise a query of a .msh (its volumes, its tetrahedra) leaves the file's model
 * open as read for the next query or load of it (`opened` below). Any other Gmsh use clears the
 * kept model, and FcMeshReleaseKept frees it once the bodies are loaded.
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

/* The model kept open after a load of one physical volume (file header comment), and what is
 * read from it once per model rather than once per body:
 * - the table of its physical groups (name, entities). Gmsh's own lookups
 *   (gmshModelGetEntitiesForPhysicalGroup, gmshModelGetPhysicalName by group) walk every entity
 *   of the model, so asking them for every group was O(n²) in the number of volumes (GroupTable
 *   walks the entities once instead), and asking them again for every body O(n³);
 * - which volume groups hold each volume entity, and the volume groups sorted by name, so that a
 *   body finds its volume and the groups that may touch it without a scan of all n groups;
 * - the model's nodes (tags, coordinates, tag map): every body asking Gmsh for all the nodes of
 *   the file was O(n) per body, O(n²) in all (issue 29: 23 s of CPU for `fcsim info` of a wall of
 *   5,000 blocks, 2.0 s now).
 * Everything here is malloc'd: the table may outlive PETSc's memory checks (FcMeshReleaseKept
 * frees it after the bodies are made). */
typedef struct {
  int    dim, tag;
  char   name[FC_NAME_LEN];
  int   *ents; /* into kept.ents */
  size_t nents;
} GroupEntry;

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

static struct {
  PetscBool   valid;
  char        file[PETSC_MAX_PATH_LEN];
  PetscInt    refine, order;
  PetscInt    ngroups; /* -1: the tables of the current model are not read yet */
  GroupEntry *groups;
  int        *ents;               /* the groups' entities, one after the other */
  PetscInt    nvol, *vol_by_name; /* the volume groups (indices) sorted by name, then index */
  size_t      nvent;              /* volume entities that are in some volume group ... */
  int        *vent;               /* ... their tags, increasing, */
  size_t     *vent_ptr;           /* ... and the volume groups of vent[i]: */
  PetscInt   *vent_groups;        /* vent_groups[vent_ptr[i] .. vent_ptr[i + 1]) */
  PetscInt    nlow, *low;         /* the groups of dimension < 3 (indices, increasing) */
  PetscBool   nodes_read;         /* the node table below is the current model's */
  size_t     *ntag, nntag;        /* Gmsh-allocated (gmshFree) */
  double     *coord;              /* Gmsh-allocated (gmshFree) */
  NodeMap     map;
} kept = {PETSC_FALSE, "", 0, 0, -1, NULL, NULL, 0, NULL, 0, NULL, NULL, NULL, 0, NULL, PETSC_FALSE, NULL, 0, NULL, {0, 0, NULL, NULL}};

/* The model holds a .msh file exactly as opened by a query (Inspect: its volumes, its
 * tetrahedra), not refined nor converted: the next query of the same file answers from it, and
 * the next load of it brings it to its refine and order instead of parsing the file again. A
 * case whose bodies are volumes of one file otherwise parsed it three times before the first
 * step (the volume list, the size estimate, the load: 3 x 7 % of `fcsim info`'s CPU on a wall
 * of 5,000 blocks). The file's identity (device, inode, size, modification time) must still be
 * the one opened. */
static struct {
  PetscBool       valid;
  char            file[PETSC_MAX_PATH_LEN];
  dev_t           dev;
  ino_t           ino;
  off_t           size;
  struct timespec mtime;
} opened;

static void OpenedKeep_Private(const char *file)
{
  struct stat st;

  opened.valid = (PetscBool)(strlen(file) < sizeof opened.file && !stat(file, &st));
  if (!opened.valid) return;
  snprintf(opened.file, sizeof opened.file, "%s", file);
  opened.dev   = st.st_dev;
  opened.ino   = st.st_ino;
  opened.size  = st.st_size;
  opened.mtime = st.st_mtim;
}

static PetscBool OpenedIs_Private(const char *file)
{
  struct stat st;

  if (!opened.valid || strcmp(opened.file, file) || stat(file, &st)) return PETSC_FALSE;
  return (PetscBool)(st.st_dev == opened.dev && st.st_ino == opened.ino && st.st_size == opened.size && st.st_mtim.tv_sec == opened.mtime.tv_sec &&
    st.st_mtim.tv_nsec == opened.mtime.tv_nsec);
}

static void NodeMapDestroy(NodeMap *map);

/* Forget the current model's tables (the model is about to change or be cleared). */
static void GroupTableForget(void)
{
  free(kept.groups);
  free(kept.ents);
  free(kept.vol_by_name);
  free(kept.vent);
  free(kept.vent_ptr);
  free(kept.vent_groups);
  free(kept.low);
  gmshFree(kept.ntag);
  gmshFree(kept.coord);
  NodeMapDestroy(&kept.map);
  kept.groups      = NULL;
  kept.ents        = NULL;
  kept.vol_by_name = NULL;
  kept.vent        = NULL;
  kept.vent_ptr    = NULL;
  kept.vent_groups = NULL;
  kept.low         = NULL;
  kept.ntag        = NULL;
  kept.coord       = NULL;
  kept.ngroups     = -1;
  kept.nvol = kept.nlow = 0;
  kept.nvent = kept.nntag = 0;
  kept.nodes_read         = PETSC_FALSE;
}

/* Forget the kept model and clear Gmsh's. */
static void ModelForget(void)
{
  int ierr;
  GroupTableForget();
  kept.valid   = PETSC_FALSE;
  opened.valid = PETSC_FALSE;
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
  kept.valid   = PETSC_FALSE;
  opened.valid = PETSC_FALSE;
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

/* Bring the opened .msh model to the requested refinement and order (*fault: see
 * ScanVolumeTypes). */
static PetscErrorCode GmshBringModel(const char *file, PetscInt refine, PetscInt order, FcMeshFault *fault)
{
  int      ierr;
  PetscInt file_order;

  PetscFunctionBegin;
  GroupTableForget(); /* refinement and order conversion renumber the model */
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

/* Open the file into a fresh Gmsh model and bring it to the requested refinement and order
 * (*fault: see ScanVolumeTypes). */
static PetscErrorCode GmshLoadModel(const char *file, PetscBool geo, PetscInt refine, PetscInt order, FcMeshFault *fault)
{
  PetscFunctionBegin;
  if (geo) PetscCall(GmshLoadGeo(file, refine, order, fault));
  else {
    PetscCall(GmshOpenFile(file));
    PetscCall(GmshBringModel(file, refine, order, fault));
  }
  PetscFunctionReturn(0);
}

static int CompareInt_Private(const void *a, const void *b)
{
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

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
  /* malloc: the kept model's map may outlive PETSc's memory checks (kept, above) */
  if (map->maxtag <= 4 * n + 1024) {
    map->dense = malloc((map->maxtag + 1) * sizeof *map->dense);
    PetscCheck(map->dense, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for a map of %zu node tags", map->maxtag + 1);
    for (size_t t = 0; t <= map->maxtag; t++) map->dense[t] = -1;
    for (size_t i = 0; i < n; i++) map->dense[tags[i]] = (PetscInt)i;
  } else {
    map->sorted = malloc((n + 1) * sizeof *map->sorted);
    PetscCheck(map->sorted, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for a map of %zu node tags", n);
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

static void NodeMapDestroy(NodeMap *map)
{
  free(map->dense);
  free(map->sorted);
  map->dense  = NULL;
  map->sorted = NULL;
}

/* What reading the tetrahedra leaves for building the groups. */
struct ReadCtx_ {
  NodeMap        own;                 /* a whole-model load's map of the model's nodes */
  const NodeMap *map;                 /* own, or the kept model's (a load of one volume) */
  PetscInt      *index;               /* whole model: position in the Gmsh node list -> mesh node index, -1 if unused */
  PetscInt       nused, *upos, *uidx; /* one volume: the positions its tetrahedra use (increasing), their mesh node indices */
  PetscInt      *id_sorted, *id_elem; /* element tags sorted, with their element indices */
  FcFaceHash     faces;
};

static PetscErrorCode ReadCtxDestroy(ReadCtx *ctx)
{
  PetscFunctionBegin;
  NodeMapDestroy(&ctx->own);
  PetscCall(PetscFree(ctx->index));
  PetscCall(PetscFree2(ctx->upos, ctx->uidx));
  PetscCall(PetscFree2(ctx->id_sorted, ctx->id_elem));
  PetscCall(FcFaceHashDestroy(&ctx->faces));
  PetscFunctionReturn(0);
}

/* Mesh node index of the node at position pos of the Gmsh node list, -1 if no tetrahedron of
 * the mesh uses it (or pos < 0: no such node). */
static PetscInt ReadCtxNode(const ReadCtx *ctx, PetscInt pos)
{
  PetscInt lo = 0, hi = ctx->nused;

  if (pos < 0) return -1;
  if (ctx->index) return ctx->index[pos];
  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;
    if (ctx->upos[mid] < pos) lo = mid + 1;
    else hi = mid;
  }
  return lo < ctx->nused && ctx->upos[lo] == pos ? ctx->uidx[lo] : -1;
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
static PetscErrorCode    GroupTable(const char *);
static const GroupEntry *FindVolume(const char *);

static PetscErrorCode VolumeElements(const char *file, const char *volume, int type, size_t npe, size_t **et, size_t *net, size_t **nt, size_t *nnt)
{
  const GroupEntry *vg;
  const int        *ents;
  int               ierr;
  size_t            nents, cap = 0;
  PetscErrorCode    rc = 0;

  PetscFunctionBegin;
  *et  = NULL;
  *nt  = NULL;
  *net = *nnt = 0;
  /* the group table read once per model (GroupTable): a scan of Gmsh's groups by name per body
   * was O(n) Gmsh lookups for each of n bodies */
  PetscCall(GroupTable(file));
  vg = FindVolume(volume);
  if (!vg) return FcInputError(file, NULL, "no physical volume named '%s'", volume);
  ents  = vg->ents;
  nents = vg->nents;
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
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* The kept model's nodes, read from Gmsh once per model (kept): each body of an n-volume file
 * asking Gmsh for all of the file's nodes was O(n) per body. All of them, not the nodes Gmsh
 * classifies on the body's entities: an MSH 2.2 file classifies a node shared by two volumes on
 * the entity of the first element that uses it, so a volume's entities need not hold all of its
 * nodes. */
static PetscErrorCode NodeTable(const char *file)
{
  double        *pc  = NULL;
  size_t         npc = 0, ncoord = 0;
  int            ierr;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  if (kept.nodes_read) PetscFunctionReturn(0);
  gmshModelMeshGetNodes(&kept.ntag, &kept.nntag, &kept.coord, &ncoord, &pc, &npc, -1, -1, 0, 0, &ierr);
  gmshFree(pc);
  if (ierr) rc = GmshFailure(file, "");
  if (!rc) rc = CheckCoordinates(file, kept.ntag, kept.coord, kept.nntag);
  if (!rc) rc = NodeMapCreate(kept.ntag, kept.nntag, &kept.map);
  if (!rc) kept.nodes_read = PETSC_TRUE;
  else GroupTableForget(); /* nothing half-read stays */
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Number the nodes the tetrahedra use (mesh->conn holds positions in the Gmsh node list) in
 * increasing Gmsh tag order: the same numbering whatever the file format (Gmsh lists nodes by
 * entity, and MSH 2.2 and 4.1 files classify them differently); surface-only and unused nodes
 * are dropped. The whole model marks a table over all of its nodes; one volume sorts the
 * positions it uses (O(its nodes), not O(the file's nodes)). */
static PetscErrorCode NumberNodes(FcMesh *mesh, ReadCtx *ctx, PetscBool one, const size_t *ntag, size_t nntag)
{
  const PetscInt m = mesh->nelems * mesh->npe;

  PetscFunctionBegin;
  if (!one) {
    const size_t nk    = NodeMapTagOrderSize(ctx->map);
    PetscInt     nused = 0;
    PetscCall(PetscMalloc1(nntag, &ctx->index));
    for (size_t i = 0; i < nntag; i++) ctx->index[i] = -1;           /* unused */
    for (PetscInt k = 0; k < m; k++) ctx->index[mesh->conn[k]] = -2; /* used */
    for (size_t k = 0; k < nk; k++) {
      const PetscInt pos = NodeMapPosInTagOrder(ctx->map, k);
      if (pos >= 0 && ctx->index[pos] == -2) ctx->index[pos] = nused++;
    }
    mesh->nnodes = nused;
  } else {
    TagPos *tp;
    PetscCall(PetscMalloc2(m + 1, &ctx->upos, m + 1, &ctx->uidx));
    PetscCall(PetscArraycpy(ctx->upos, mesh->conn, m));
    ctx->nused = m;
    PetscCall(PetscSortRemoveDupsInt(&ctx->nused, ctx->upos));
    PetscCall(PetscMalloc1(ctx->nused + 1, &tp));
    for (PetscInt j = 0; j < ctx->nused; j++) {
      tp[j].tag = ntag[ctx->upos[j]];
      tp[j].pos = j;
    }
    qsort(tp, (size_t)ctx->nused, sizeof *tp, CompareTag);
    for (PetscInt k = 0; k < ctx->nused; k++) ctx->uidx[tp[k].pos] = k;
    PetscCall(PetscFree(tp));
    mesh->nnodes = ctx->nused;
  }
  PetscFunctionReturn(0);
}

/* Coordinates and ids of the numbered nodes (NumberNodes), connectivity renumbered to them. */
static PetscErrorCode CopyNodes(FcMesh *mesh, ReadCtx *ctx, const size_t *ntag, const double *coord, size_t nntag)
{
  const size_t n = ctx->index ? nntag : (size_t)ctx->nused;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * mesh->nnodes, &mesh->X));
  PetscCall(PetscMalloc1(mesh->nnodes, &mesh->node_id));
  for (size_t j = 0; j < n; j++) {
    const size_t   i = ctx->index ? j : (size_t)ctx->upos[j];
    const PetscInt k = ctx->index ? ctx->index[i] : ctx->uidx[j];
    if (k < 0) continue;
    if (ntag[i] > (size_t)PETSC_MAX_INT) return FcInputError(mesh->file, NULL, "node tag %zu too large (at most %d)", ntag[i], (int)PETSC_MAX_INT);
    for (PetscInt d = 0; d < 3; d++) mesh->X[3 * k + d] = coord[3 * i + d];
    mesh->node_id[k] = (PetscInt)ntag[i];
  }
  for (PetscInt k = 0; k < mesh->nelems * mesh->npe; k++) mesh->conn[k] = ReadCtxNode(ctx, mesh->conn[k]);
  PetscFunctionReturn(0);
}

/* The tetrahedra (Gmsh tags and node tags) of the model, or of the physical volume `volume`. */
static PetscErrorCode ReadTetrahedra(FcMesh *mesh, const char *volume, size_t **et, size_t *net, size_t **nt, size_t *nnt)
{
  const int type = mesh->order == 1 ? 4 : 11;
  int       ierr = 0;

  PetscFunctionBegin;
  /* Safe now that ScanVolumeTypes has ruled out mixed orders; all volumes, in order. */
  if (volume && volume[0]) PetscCall(VolumeElements(mesh->file, volume, type, (size_t)mesh->npe, et, net, nt, nnt));
  else gmshModelMeshGetElementsByType(type, et, net, nt, nnt, -1, 0, 1, &ierr);
  if (volume && volume[0] && !*net) return FcInputError(mesh->file, NULL, "physical volume '%s' has no tetrahedra", volume);
  if (ierr) return GmshFailure(mesh->file, "");
  PetscCheck(*nnt == *net * (size_t)mesh->npe, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmsh returned %zu node tags for %zu elements of type %d", *nnt, *net, type);
  PetscFunctionReturn(0);
}

/* Element ids and connectivity (positions in the Gmsh node list) of the tetrahedra read. */
static PetscErrorCode SetElements(FcMesh *mesh, const NodeMap *map, const size_t *et, size_t net, const size_t *nt)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(net * mesh->npe, &mesh->conn));
  PetscCall(PetscMalloc1(net, &mesh->elem_id));
  mesh->nelems = (PetscInt)net;
  for (size_t e = 0; e < net; e++) {
    if (et[e] > (size_t)PETSC_MAX_INT) return FcInputError(mesh->file, NULL, "element tag %zu too large (at most %d)", et[e], (int)PETSC_MAX_INT);
    mesh->elem_id[e] = (PetscInt)et[e];
    for (PetscInt a = 0; a < mesh->npe; a++) {
      const PetscInt pos = NodeMapFind(map, nt[e * mesh->npe + a]);
      if (pos < 0) return FcInputError(mesh->file, NULL, "element %zu refers to node %zu, which is not defined", et[e], nt[e * mesh->npe + a]);
      mesh->conn[e * mesh->npe + a] = pos; /* position in the Gmsh list; renumbered by CopyNodes */
    }
  }
  PetscFunctionReturn(0);
}

/* Nodes and tetrahedra of the model into mesh (X, node_id, conn, elem_id); with `volume` (not
 * "") only those of that physical volume: the mesh of one body of a multi-volume file, its
 * nodes taken from the kept model's table (NodeTable). */
static PetscErrorCode ReadVolume(FcMesh *mesh, PetscInt order, const char *volume, ReadCtx *ctx)
{
  const PetscBool one  = (PetscBool)(volume && volume[0]);
  size_t         *wtag = NULL, nntag = 0, ncoord = 0, npc = 0, *et = NULL, net = 0, *nt = NULL, nnt = 0;
  double         *wcoord = NULL, *pc = NULL;
  const size_t   *ntag;
  const double   *coord;
  int             ierr = 0;
  PetscErrorCode  rc   = 0;

  PetscFunctionBegin;
  mesh->order = order;
  mesh->npe   = order == 1 ? 4 : 10;
  if (one) {
    rc       = NodeTable(mesh->file);
    ctx->map = &kept.map;
    ntag     = kept.ntag;
    coord    = kept.coord;
    nntag    = kept.nntag;
  } else {
    gmshModelMeshGetNodes(&wtag, &nntag, &wcoord, &ncoord, &pc, &npc, -1, -1, 0, 0, &ierr);
    gmshFree(pc);
    if (ierr) rc = GmshFailure(mesh->file, "");
    if (!rc) rc = CheckCoordinates(mesh->file, wtag, wcoord, nntag);
    if (!rc) rc = NodeMapCreate(wtag, nntag, &ctx->own);
    ctx->map = &ctx->own;
    ntag     = wtag;
    coord    = wcoord;
  }
  if (!rc) rc = ReadTetrahedra(mesh, volume, &et, &net, &nt, &nnt);
  /* Gmsh tags and counts are size_t; PetscInt is 32-bit in this build. */
  if (!rc && (nntag >= (size_t)PETSC_MAX_INT || net >= (size_t)PETSC_MAX_INT / 10))
    rc = FcInputError(mesh->file, NULL, "mesh too large for 32-bit indices (%zu nodes, %zu elements)", nntag, net);
  if (!rc) rc = SetElements(mesh, ctx->map, et, net, nt);
  if (!rc) rc = NumberNodes(mesh, ctx, one, ntag, nntag);
  if (!rc) rc = CopyNodes(mesh, ctx, ntag, coord, nntag);
  gmshFree(wtag);
  gmshFree(wcoord);
  if (one) PetscCall(PetscFree2(et, nt));
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
        const PetscInt n = ReadCtxNode(ctx, NodeMapFind(ctx->map, ntags[t][e * npe + a]));
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

/* A physical group's key (dimension, tag) with its position in Gmsh's list of groups. */
typedef struct {
  int    dim, tag;
  size_t g;
} GroupKey;

static int CompareGroupKey(const void *a, const void *b)
{
  const GroupKey *x = a, *y = b;
  if (x->dim != y->dim) return x->dim < y->dim ? -1 : 1;
  return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* Append (g, ent) to the growable pair arrays of GroupEntities. */
static PetscErrorCode PushPair(size_t **pg, int **pe, size_t *n, size_t *cap, size_t g, int ent)
{
  PetscFunctionBegin;
  if (*n == *cap) {
    size_t *a;
    int    *b;
    *cap = PetscMax(64, 2 * *cap);
    a    = realloc(*pg, *cap * sizeof *a);
    if (a) *pg = a;
    b = a ? realloc(*pe, *cap * sizeof *b) : NULL;
    if (b) *pe = b;
    PetscCheck(a && b, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for %zu entities of physical groups", *cap);
  }
  (*pg)[*n]     = g;
  (*pe)[(*n)++] = ent;
  PetscFunctionReturn(0);
}

/* The entities of the ng physical groups dimtags (as gmshModelGetPhysicalGroups(dim) lists them):
 * group g's are ents[ptr[g] .. ptr[g + 1]), in the order gmshModelGetEntitiesForPhysicalGroup
 * gives them (the model's entity order, each entity once). That function walks every entity of
 * the model for each group, O(n²) for a file of n volumes (38 % of the set-up of a 2,016-block
 * wall, perf); here the entities are walked once, each asked for its groups (a lookup by tag in
 * Gmsh). ptr and ents are malloc'd (free). */
static PetscErrorCode GroupEntities(const char *file, int dim, const int *dimtags, size_t ng, size_t **ptr, int **ents)
{
  GroupKey      *key = malloc((ng + 1) * sizeof *key);
  int           *et  = NULL, ierr;
  size_t         net = 0, np = 0, cap = 0, *pg = NULL;
  int           *pe = NULL;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *ptr  = calloc(ng + 1, sizeof **ptr);
  *ents = NULL;
  if (!key || !*ptr)
    rc = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "out of memory for %zu physical groups", ng);
  for (size_t g = 0; g < ng && !rc; g++) key[g] = (GroupKey){dimtags[2 * g], dimtags[2 * g + 1], g};
  if (!rc) qsort(key, ng, sizeof *key, CompareGroupKey);
  if (!rc) gmshModelGetEntities(&et, &net, dim, &ierr);
  if (!rc && ierr) rc = GmshFailure(file, "");
  for (size_t i = 0; i < net / 2 && !rc; i++) {
    int   *phys  = NULL;
    size_t nphys = 0;
    gmshModelGetPhysicalGroupsForEntity(et[2 * i], et[2 * i + 1], &phys, &nphys, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    for (size_t k = 0; k < nphys && !rc; k++) {
      const GroupKey  want = {et[2 * i], phys[k], 0};
      const GroupKey *f    = bsearch(&want, key, ng, sizeof *key, CompareGroupKey);
      PetscBool       seen = PETSC_FALSE;
      for (size_t l = 0; l < k; l++) seen = (PetscBool)(seen || phys[l] == phys[k]);
      if (f && !seen) rc = PushPair(&pg, &pe, &np, &cap, f->g, et[2 * i + 1]);
    }
    gmshFree(phys);
  }
  gmshFree(et);
  /* counting sort of the pairs by group, stable: each group's entities in the model's order */
  if (!rc) *ents = malloc((np + 1) * sizeof **ents);
  if (!rc && !*ents)
    rc = PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "out of memory for %zu entities", np);
  if (!rc) {
    for (size_t p = 0; p < np; p++) (*ptr)[pg[p] + 1]++;
    for (size_t g = 0; g < ng; g++) (*ptr)[g + 1] += (*ptr)[g];
    for (size_t p = 0; p < np; p++) (*ents)[(*ptr)[pg[p]]++] = pe[p];
    for (size_t g = ng; g > 0; g--) (*ptr)[g] = (*ptr)[g - 1];
    (*ptr)[0] = 0;
  }
  free(key);
  free(pg);
  free(pe);
  if (rc) {
    free(*ptr);
    free(*ents);
    *ptr  = NULL;
    *ents = NULL;
  }
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Order of the volume groups by name, then by index (kept.vol_by_name). */
static int CompareVolumeName(const void *a, const void *b)
{
  const PetscInt i = *(const PetscInt *)a, j = *(const PetscInt *)b;
  const int      c = strcmp(kept.groups[i].name, kept.groups[j].name);
  return c ? c : (i > j) - (i < j);
}

/* A volume entity with one of its volume groups (kept.vent). */
typedef struct {
  int      ent;
  PetscInt g;
} EntGroup;

static int CompareEntGroup(const void *a, const void *b)
{
  const EntGroup *x = a, *y = b;
  if (x->ent != y->ent) return x->ent < y->ent ? -1 : 1;
  return (x->g > y->g) - (x->g < y->g);
}

/* The indices of the group table (kept): volume groups by name, volume entities -> their
 * volume groups, the lower-dimensional groups. */
static PetscErrorCode GroupIndex(void)
{
  size_t    npairs = 0, u = 0;
  EntGroup *eg;

  PetscFunctionBegin;
  kept.vol_by_name = malloc((kept.ngroups + 1) * sizeof *kept.vol_by_name);
  kept.low         = malloc((kept.ngroups + 1) * sizeof *kept.low);
  PetscCheck(kept.vol_by_name && kept.low, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for %" PetscInt_FMT " physical groups", kept.ngroups);
  for (PetscInt i = 0; i < kept.ngroups; i++) {
    if (kept.groups[i].dim == 3) {
      kept.vol_by_name[kept.nvol++] = i;
      npairs += kept.groups[i].nents;
    } else kept.low[kept.nlow++] = i;
  }
  qsort(kept.vol_by_name, (size_t)kept.nvol, sizeof *kept.vol_by_name, CompareVolumeName);
  eg = malloc((npairs + 1) * sizeof *eg);
  PetscCheck(eg, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for %zu entities of volume groups", npairs);
  npairs = 0;
  for (PetscInt v = 0; v < kept.nvol; v++) {
    const GroupEntry *g = &kept.groups[kept.vol_by_name[v]];
    for (size_t k = 0; k < g->nents; k++) eg[npairs++] = (EntGroup){g->ents[k], kept.vol_by_name[v]};
  }
  qsort(eg, npairs, sizeof *eg, CompareEntGroup);
  kept.vent        = malloc((npairs + 1) * sizeof *kept.vent);
  kept.vent_ptr    = malloc((npairs + 2) * sizeof *kept.vent_ptr);
  kept.vent_groups = malloc((npairs + 1) * sizeof *kept.vent_groups);
  if (!kept.vent || !kept.vent_ptr || !kept.vent_groups) free(eg);
  PetscCheck(kept.vent && kept.vent_ptr && kept.vent_groups, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory for %zu entities of volume groups", npairs);
  for (size_t p = 0; p < npairs; p++) {
    if (!p || eg[p].ent != eg[p - 1].ent) {
      kept.vent[u]       = eg[p].ent;
      kept.vent_ptr[u++] = p;
    }
    kept.vent_groups[p] = eg[p].g;
  }
  kept.vent_ptr[u] = npairs;
  kept.nvent       = u;
  free(eg);
  PetscFunctionReturn(0);
}

/* The first volume group (in Gmsh's order) named `name`, NULL if none. */
static const GroupEntry *FindVolume(const char *name)
{
  PetscInt lo = 0, hi = kept.nvol;

  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;
    if (strcmp(kept.groups[kept.vol_by_name[mid]].name, name) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < kept.nvol && !strcmp(kept.groups[kept.vol_by_name[lo]].name, name) ? &kept.groups[kept.vol_by_name[lo]] : NULL;
}

/* The table of the current model's physical groups and its indices (kept), read once per model. */
static PetscErrorCode GroupTable(const char *file)
{
  int           *dimtags  = NULL, ierr;
  size_t         ndimtags = 0, *ptr = NULL;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  if (kept.ngroups >= 0) PetscFunctionReturn(0);
  gmshModelGetPhysicalGroups(&dimtags, &ndimtags, -1, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(file, ""));
  rc = GroupEntities(file, -1, dimtags, ndimtags / 2, &ptr, &kept.ents);
  if (!rc) kept.groups = calloc(ndimtags / 2 + 1, sizeof *kept.groups);
  if (!rc && !kept.groups)
    rc = PetscError(
      PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "out of memory for %zu physical groups", ndimtags / 2);
  else if (!rc) kept.ngroups = 0;
  for (size_t i = 0; i < ndimtags / 2 && !rc; i++) {
    GroupEntry *g    = &kept.groups[kept.ngroups++];
    char       *name = NULL;
    g->dim           = dimtags[2 * i];
    g->tag           = dimtags[2 * i + 1];
    g->ents          = kept.ents + ptr[i];
    g->nents         = ptr[i + 1] - ptr[i];
    gmshModelGetPhysicalName(g->dim, g->tag, &name, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    else if (strlen(name) >= sizeof g->name)
      rc = FcInputError(file, NULL, "physical group name too long (%zu characters, at most %zu): %.40s...", strlen(name), sizeof g->name - 1, name);
    else snprintf(g->name, sizeof g->name, "%s", name);
    gmshFree(name);
  }
  gmshFree(dimtags);
  free(ptr);
  if (!rc) rc = GroupIndex();
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

/* The groups that may touch the body of volume group vol (indices into kept.groups, increasing):
 * every group of dimension < 3, and the volume groups that share an entity with vol (the
 * elements of another entity cannot be the body's). Found through kept.vent, not by a scan of
 * all n volume groups for each of n bodies. PETSc-allocated (PetscFree). */
static PetscErrorCode GroupsNear(const GroupEntry *vol, PetscInt *n, PetscInt **idx)
{
  PetscInt cap = kept.nlow;

  PetscFunctionBegin;
  for (size_t i = 0; i < vol->nents; i++) {
    const int *f = bsearch(&vol->ents[i], kept.vent, kept.nvent, sizeof *kept.vent, CompareInt_Private);
    if (f) cap += (PetscInt)(kept.vent_ptr[f - kept.vent + 1] - kept.vent_ptr[f - kept.vent]);
  }
  PetscCall(PetscMalloc1(cap + 1, idx));
  PetscCall(PetscArraycpy(*idx, kept.low, kept.nlow));
  *n = kept.nlow;
  for (size_t i = 0; i < vol->nents; i++) {
    const int *f = bsearch(&vol->ents[i], kept.vent, kept.nvent, sizeof *kept.vent, CompareInt_Private);
    if (!f) continue;
    for (size_t p = kept.vent_ptr[f - kept.vent]; p < kept.vent_ptr[f - kept.vent + 1]; p++) (*idx)[(*n)++] = kept.vent_groups[p];
  }
  PetscCall(PetscSortRemoveDupsInt(n, *idx));
  PetscFunctionReturn(0);
}

/* The model's physical groups restricted to the mesh. With `volume` (one body of a multi-volume
 * file) only the groups that touch it are kept (one with a node, a boundary face or an element
 * of this body): each of n bodies keeping all n volumes' groups, empty, was O(n²) memory, and
 * only those that may touch it are read (GroupsNear). */
static PetscErrorCode ReadGroups(FcMesh *mesh, const char *volume, ReadCtx *ctx)
{
  const PetscBool one = (PetscBool)(volume && volume[0]);
  PetscInt        k = 0, ncand = 0, *cand = NULL;
  PetscErrorCode  rc = 0;

  PetscFunctionBegin;
  PetscCall(GroupTable(mesh->file));
  if (one) {
    const GroupEntry *vol = FindVolume(volume);
    PetscCheck(vol, PETSC_COMM_SELF, PETSC_ERR_PLIB, "physical volume '%s' not in the group table", volume);
    PetscCall(GroupsNear(vol, &ncand, &cand));
  } else ncand = kept.ngroups;
  rc            = PetscCalloc1(ncand + 1, &mesh->groups);
  mesh->ngroups = 0;
  for (PetscInt c = 0; c < ncand && !rc; c++) {
    FcMeshGroup *g = &mesh->groups[k];
    mesh->ngroups  = k + 1; /* so that FcMeshDestroy frees this group on an error */
    rc             = ReadGroup(mesh, ctx, &kept.groups[one ? cand[c] : c], g);
    if (!rc && one && !g->nnodes && !g->nfaces && !g->nelems) {
      rc = PetscFree(g->nodes);
      if (!rc) rc = PetscFree(g->faces);
      if (!rc) rc = PetscFree(g->elems);
      if (!rc) rc = PetscMemzero(g, sizeof *g);
      mesh->ngroups = k;
      continue;
    }
    if (!rc) k++;
  }
  if (!rc) mesh->ngroups = k;
  PetscCall(PetscFree(cand));
  PetscCall(rc);
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
  if (!kept.valid && !opened.valid) PetscFunctionReturn(0);
  GroupTableForget();
  kept.valid   = PETSC_FALSE;
  opened.valid = PETSC_FALSE;
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

static PetscErrorCode LoadVolume_Private(const char *, PetscInt, PetscInt, const char *, FcMesh *);

/* On several ranks rank 0 alone reads or meshes the file and the others receive the mesh
 * (mesh_share.c) or, parted, its header only (mesh_part.c); its error is every rank's, printed
 * once. */
static PetscErrorCode LoadShared_Private(const char *file, PetscInt refine, PetscInt order, const char *volume, PetscBool parted, FcMesh *mesh)
{
  PetscMPIInt    rank;
  PetscErrorCode rc = 0;
  FcMeshFault    fault;

  PetscFunctionBegin;
  if (!FcMeshShared_Private(&rank)) {
    PetscCall(LoadVolume_Private(file, refine, order, volume, mesh));
    PetscFunctionReturn(0);
  }
  if (!rank) rc = LoadVolume_Private(file, refine, order, volume, mesh);
  else {
    PetscCall(PetscMemzero(mesh, sizeof *mesh));
    mesh->fault = FC_MESH_FAULT_OTHER;
  }
  fault = mesh->fault;
  PetscCall(FcMeshShareOutcome_Private(&rc, &fault));
  mesh->fault = fault;
  if (rc) return rc; /* rank 0 raised and printed it; the others return the same code */
  if (parted) PetscCall(FcMeshShareHeader_Private(mesh));
  else PetscCall(FcMeshShareMesh_Private(mesh));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshLoadVolume(const char *file, PetscInt refine, PetscInt order, const char *volume, FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(LoadShared_Private(file, refine, order, volume, PETSC_FALSE, mesh));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshLoadVolumeParted(const char *file, PetscInt refine, PetscInt order, const char *volume, FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(LoadShared_Private(file, refine, order, volume, PETSC_TRUE, mesh));
  PetscFunctionReturn(0);
}

static PetscErrorCode LoadVolume_Private(const char *file, PetscInt refine, PetscInt order, const char *volume, FcMesh *mesh)
{
  PetscBool      geo = PETSC_FALSE;
  ReadCtx        ctx;
  PetscErrorCode rc;
  FcMeshFault    fault = FC_MESH_FAULT_OTHER;
  PetscBool      reuse, raw;
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
  /* or the .msh as a query opened it, checked by CheckBeforeGmsh then (`opened`) */
  raw          = (PetscBool)(!reuse && OpenedIs_Private(file));
  opened.valid = PETSC_FALSE; /* the model is brought to refine and order, or replaced */
  if (!reuse && !raw) PetscCall(CheckBeforeGmsh(file, &geo));

  PetscCall(GmshInitialize());
  gmshLoggerStart(&ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshLoggerStart failed");
  rc = reuse ? 0 : raw ? GmshBringModel(file, refine, order, &fault) : GmshLoadModel(file, geo, refine, order, &fault);
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

/* Open `file` (a .geo meshed at refine 0) in a model of its own and answer q: the common frame of
 * the queries that read a file without loading a body from it. A .msh stays open as read
 * (`opened`) for the next query or load of the same file; a .geo's model is cleared. */
static PetscErrorCode Inspect(const char *file, Inspect_Private *q)
{
  PetscBool      geo = PETSC_FALSE, again = OpenedIs_Private(file);
  PetscErrorCode rc = 0;
  int            ierr;

  PetscFunctionBegin;
  if (!again) PetscCall(CheckBeforeGmsh(file, &geo));
  PetscCall(GmshInitialize());
  gmshLoggerStart(&ierr);
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_LIB, "gmshLoggerStart failed");
  if (geo) {
    FcMeshFault fault;
    rc = GmshLoadGeo(file, 0, 0, &fault);
  } else if (!again) rc = GmshOpenFile(file);
  if (!rc) rc = q->ntets ? CountTetrahedra(file, q->ntets) : ListVolumes(file, q->n, q->names, q->vtets);
  gmshLoggerStop(&ierr);
  if (!rc && !geo) OpenedKeep_Private(file);
  else ModelForget();
  PetscCall(rc);
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshCountTetrahedra(const char *file, PetscInt64 *ntets)
{
  Inspect_Private q = {ntets, NULL, NULL, NULL};
  PetscMPIInt     rank;
  PetscErrorCode  rc = 0;

  PetscFunctionBegin;
  *ntets = 0;
  if (!FcMeshShared_Private(&rank)) {
    PetscCall(Inspect(file, &q));
    PetscFunctionReturn(0);
  }
  if (!rank) rc = Inspect(file, &q); /* rank 0's answer is every rank's (mesh_share.c) */
  PetscCall(FcMeshShareOutcome_Private(&rc, NULL));
  if (rc) return rc;
  PetscCallMPI(MPI_Bcast(ntets, 1, MPIU_INT64, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

/* Names and tetrahedron counts of the physical volumes of the opened model (their entities from
 * GroupEntities: Gmsh's lookup per group was O(n²) for n volumes). */
static PetscErrorCode ListVolumes(const char *file, PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets)
{
  int           *dimtags = NULL, ierr, *ents = NULL;
  size_t         ndimtags = 0, *ptr = NULL;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  gmshModelGetPhysicalGroups(&dimtags, &ndimtags, 3, &ierr);
  if (ierr) PetscFunctionReturn(GmshFailure(file, ""));
  *n = (PetscInt)(ndimtags / 2);
  rc = PetscCalloc2(*n + 1, names, *n + 1, ntets);
  if (!rc) rc = GroupEntities(file, 3, dimtags, ndimtags / 2, &ptr, &ents);
  for (PetscInt i = 0; i < *n && !rc; i++) {
    char *name = NULL;
    gmshModelGetPhysicalName(3, dimtags[2 * i + 1], &name, &ierr);
    if (ierr) rc = GmshFailure(file, "");
    else if (strlen(name) >= FC_NAME_LEN)
      rc = FcInputError(file, NULL, "physical group name too long (%zu characters, at most %d): %.40s...", strlen(name), FC_NAME_LEN - 1, name);
    else snprintf((*names)[i], FC_NAME_LEN, "%s", name);
    gmshFree(name);
    for (size_t k = ptr[i]; k < ptr[i + 1] && !rc; k++) {
      int   *types  = NULL;
      size_t ntypes = 0, **etags = NULL, *netags = NULL, nnetags = 0, **ntags = NULL, *nntags = NULL, nnntags = 0;
      gmshModelMeshGetElements(&types, &ntypes, &etags, &netags, &nnetags, &ntags, &nntags, &nnntags, 3, ents[k], &ierr);
      if (ierr) rc = GmshFailure(file, "");
      for (size_t t = 0; t < ntypes && !rc; t++)
        if (types[t] == 4 || types[t] == 11) (*ntets)[i] += (PetscInt)netags[t];
      if (!ierr) FcMeshGmshFreeElements_Private(types, ntypes, etags, netags, ntags, nntags);
    }
  }
  free(ptr);
  free(ents);
  gmshFree(dimtags);
  PetscCall(rc);
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshListVolumes(const char *file, PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets)
{
  Inspect_Private q = {NULL, n, names, ntets};
  PetscErrorCode  rc;

  PetscMPIInt rank = 0;
  PetscBool   shared;

  PetscFunctionBegin;
  *n     = 0;
  *names = NULL;
  *ntets = NULL;
  shared = FcMeshShared_Private(&rank);
  rc     = rank ? 0 : Inspect(file, &q); /* on several ranks rank 0's answer is every rank's */
  if (rc) {
    PetscCall(PetscFree2(*names, *ntets));
    *n = 0;
  }
  if (shared) {
    PetscCall(FcMeshShareOutcome_Private(&rc, NULL));
    if (rc) return rc;
    PetscCall(FcMeshShareVolumes_Private(n, names, ntets));
  }
  PetscCall(rc);
  PetscFunctionReturn(0);
}
