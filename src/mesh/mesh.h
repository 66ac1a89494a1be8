/* fcsim — volume meshes read through libgmsh (plain data; no PETSc objects). */
#ifndef FC_MESH_H
#define FC_MESH_H

#include "../core/fc.h"

/* A physical group of the Gmsh model. Node and face lists are derived from the mesh. dim 0
 * and 1 groups (physical points and curves) are kept with nodes only (nfaces = nelems = 0), so
 * a case can still refer to, e.g., a physical point. */
typedef struct {
  char      name[FC_NAME_LEN]; /* physical name, "" when unnamed */
  PetscInt  dim, tag;          /* dim 2: surface, 3: volume (0, 1: nodes only) */
  PetscInt  nnodes;
  PetscInt *nodes; /* 0-based mesh node indices, sorted, unique (all nodes incl. mid-edge) */
  PetscInt  nfaces;
  PetscInt *faces; /* dim 2: indices into FcMesh.bfaces of the boundary faces in the group,
                       sorted (triangles not on the boundary contribute nodes only) */
  PetscInt  nelems;
  PetscInt *elems; /* dim 3: element indices in the group, sorted */
  /* A rank's part of a distributed mesh (FcMesh.parted): the whole group's counts (the lists
   * above are the part's, in its local numbering); 0 in a whole mesh (FcMeshGroupNFacesAll). */
  PetscInt  nnodes_all, nfaces_all, nelems_all;
  PetscInt *faces_at; /* a part: each face's place in the whole group's list (NULL in a whole mesh) */
} FcMeshGroup;

/* The whole group's counts, in a part as in a whole mesh. */
static inline PetscInt FcMeshGroupNNodesAll(const FcMeshGroup *g) { return g->nnodes_all > g->nnodes ? g->nnodes_all : g->nnodes; }
static inline PetscInt FcMeshGroupNFacesAll(const FcMeshGroup *g) { return g->nfaces_all > g->nfaces ? g->nfaces_all : g->nfaces; }

/* Why FcMeshLoad refused a file, for a caller that adds advice of its own to the loader's message
 * (which already names the file and what is wrong): the caller tests this, never the text. */
typedef enum {
  FC_MESH_FAULT_NONE,          /* loaded */
  FC_MESH_FAULT_NO_TETRAHEDRA, /* the model has no volume elements (e.g. a surface-only mesh) */
  FC_MESH_FAULT_OTHER          /* any other error */
} FcMeshFault;

typedef struct {
  char         file[PETSC_MAX_PATH_LEN];
  PetscInt     order; /* 1: tet4, 2: tet10 */
  PetscInt     nnodes;
  PetscReal   *X;            /* reference coordinates, 3*nnodes */
  PetscInt    *node_id;      /* Gmsh node tag of each node (nodes are numbered in increasing tag
                              order; only those the tetrahedra use are kept) */
  PetscInt     nelems, npe;  /* npe = 4 or 10 */
  PetscInt    *conn;         /* nelems*npe, Gmsh node ordering (tet10 edges 01,12,20,30,32,31) */
  PetscInt    *elem_id;      /* Gmsh element tag of each element, for messages (the file's tag
                              unless refine or an order change made Gmsh renumber) */
  PetscInt     nbfaces, npf; /* boundary faces of the volume mesh; npf = 3 or 6 */
  PetscInt    *bfaces;       /* nbfaces*npf; corners ordered so (x1-x0)x(x2-x0) points outward;
                              6-node faces: corners 0,1,2 then mid-edges 01,12,20 */
  PetscInt    *bface_elem;   /* element that owns each boundary face */
  PetscInt     ngroups;
  FcMeshGroup *groups;
  FcMeshFault  fault; /* set by FcMeshLoad, also when it fails */
  /* On several MPI ranks (FcAssemblyPartition, src/fem): node n's index in the distributed
   * vectors and matrices (NULL: n itself, one rank) and the nodes this rank owns */
  PetscInt *part_perm;
  PetscInt  part_nown;
  /* Several ranks (FcAssemblyPartition): part_own[i], the mesh node of the i-th distributed node
   * this rank owns (part_nown of them); part_block[i], the distributed node of mesh node
   * nnodes r/N + i, the rank's block of rows in run.h5 (nnodes (r+1)/N − nnodes r/N of them):
   * O(nodes/N) each, what messages and the collective output read of the partition. */
  PetscInt *part_own, *part_block;
  /* A trimmed mesh (FcAssemblyTrim, src/fem; doc/mpi.md "Meshes on several ranks"): after the
   * set-up, a rank other than 0 keeps (in a case without contact) only the elements it assembles
   * and their nodes, numbered locally; gnode[n] / gelem[e] the whole mesh's node / element,
   * nnodes_all / nelems_all the whole mesh's counts (FcMeshNNodesAll). NULL / 0: a whole mesh.
   * A trimmed mesh has no boundary faces and no groups (the set-up read them). */
  PetscInt *gnode, *gelem;
  PetscInt  nnodes_all, nelems_all;
  PetscBool trimmed; /* FcAssemblyTrim made it */
  /* A distributed mesh (FcAssemblyPartitionParted, issue 29; doc/mpi.md "Meshes on several
   * ranks"): rank 0 holds the whole mesh, every other rank only its part from the start — the
   * elements with a node it owns and their nodes, boundary faces and groups, numbered locally
   * (gnode, gelem as above). Set on every rank of such a run. */
  PetscBool parted;
  PetscInt  nbfaces_all; /* a part: the whole mesh's boundary faces (FcMeshNBFacesAll) */
  PetscInt *gface;       /* a part: the whole mesh's index of each boundary face (a contact
                            surface's faces keep their whole order: src/model/contact_pairs.c) */
} FcMesh;

/* The whole mesh's counts, of a trimmed mesh as of a whole one. */
static inline PetscInt FcMeshNNodesAll(const FcMesh *m) { return m->nnodes_all > m->nnodes ? m->nnodes_all : m->nnodes; }
static inline PetscInt FcMeshNElemsAll(const FcMesh *m) { return m->nelems_all > m->nelems ? m->nelems_all : m->nelems; }
static inline PetscInt FcMeshNBFacesAll(const FcMesh *m) { return m->nbfaces_all > m->nbfaces ? m->nbfaces_all : m->nbfaces; }

/* How a .geo script is meshed (doc/mesh.md, "The sandbox"): in a sandboxed child process, at
 * most `timeout` seconds. Set from fcsim's own command line (src/fcsim.c) and never from a case:
 * a shared case must not be able to lift the sandbox. */
#define FC_MESH_GEO_TIMEOUT_DEFAULT 300.0
typedef struct {
  double    timeout;           /* -fc_mesh_timeout SECONDS: wall-clock limit of one meshing */
  PetscBool unsandboxed;       /* -fc_mesh_geo_unsandboxed: run the script in fcsim's own process,
                                  without the sandbox (where none can be set up) */
  PetscBool skip_script_check; /* -fc_mesh_skip_script_check: a test hook that skips the text
                                  check (mesh_script.c), to show that the sandbox alone holds */
} FcMeshGeoOptions;
extern FcMeshGeoOptions FcMeshGeo;

/* Read FILE (.msh 2.2/4.1 ASCII or binary; .geo meshed in 3D at load time).
 * refine: .geo → Mesh.MeshSizeFactor = 2^-refine (every characteristic length halved per
 * level); .msh → `refine` uniform subdivisions (gmsh::model::mesh::refine).
 * order: 1 or 2 (elements are converted with gmsh::model::mesh::setOrder when needed).
 * Only regular files. Before Gmsh opens anything: a .geo (and every script it includes or
 * merges) may only describe geometry and meshing — no commands, file writes, Exit, or reads
 * outside the file's folder (the text check) — and an ASCII .msh must hold as many node and
 * element lines as it declares, at most 50,000 physical names. A .geo is then meshed in a
 * sandboxed child process that cannot run, start or write anything, within FcMeshGeo.timeout
 * (doc/mesh.md, "The sandbox").
 * Errors (input errors naming the file): missing/unreadable file, refused script construct (with
 * its line), inconsistent MSH counts (with the line), not MSH data, Gmsh parse or meshing error,
 * non-finite node coordinate, no tetrahedra, other volume elements, mixed orders, inverted or
 * zero-volume element (with its Gmsh id), face shared by 3+ elements (see doc/mesh.md). On
 * error *mesh is left empty (zeroed, but for `fault`: which of these errors it was, where a
 * caller acts on it), so FcMeshDestroy on it is harmless. */
PetscErrorCode FcMeshLoad(const char *file, PetscInt refine, PetscInt order, FcMesh *mesh);
/* The same, keeping only the tetrahedra of the physical volume named `volume` (NULL or "": all)
 * and the nodes they use: one body of a multi-volume mesh (doc/case-format.md, mesh.volumes).
 * Groups are restricted alike, and faces between this volume and another are boundary faces.
 * A volume with no tetrahedra is an input error naming the file and the volume. */
PetscErrorCode FcMeshLoadVolume(const char *file, PetscInt refine, PetscInt order, const char *volume, FcMesh *mesh);
/* Several ranks (doc/mpi.md "The distributed set-up"): rank 0 loads as FcMeshLoadVolume and keeps
 * the whole mesh; the others receive only its header (counts, groups' names and whole sizes) and
 * an empty mesh marked parted, until FcMeshSendParts gives each its part. One rank: FcMeshLoadVolume. */
PetscErrorCode FcMeshLoadVolumeParted(const char *file, PetscInt refine, PetscInt order, const char *volume, FcMesh *mesh);
/* Rank 0 (whole mesh, perm[n] the distributed index of node n, lo[r] the first distributed node
 * of rank r, size + 1 entries) sends every other rank its part (mesh.h "a distributed mesh"),
 * with part_perm, part_nown, part_own, part_block; rank 0's mesh is left as it is. Collective. */
PetscErrorCode FcMeshSendParts(FcMesh *mesh, const PetscInt perm[], const PetscInt lo[]);
/* A load of one volume keeps Gmsh's model of the file open for the next volume of the same file
 * (at the same refine and order), so n bodies of an n-volume mesh parse it once; this frees it
 * (call once the bodies are loaded; any other load frees it too). */
PetscErrorCode FcMeshReleaseKept(void);
/* The physical volumes of FILE (.msh as read; .geo meshed at its own sizes): their names and
 * tetrahedron counts at refine 0 (*n of each, freed with PetscFree2(*names, *ntets)). */
PetscErrorCode FcMeshListVolumes(const char *file, PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets);
/* Number of tetrahedra of FILE at refine 0 (.msh: those of the file; .geo: the script meshed at
 * its own sizes), after the same checks as FcMeshLoad before Gmsh opens the file. For the
 * element-count estimate of a refined mesh (bodies[i].mesh.max_elements in a case), made
 * before anything is meshed at that level. 0 when the model has no tetrahedra (FcMeshLoad
 * reports that). */
PetscErrorCode FcMeshCountTetrahedra(const char *file, PetscInt64 *ntets);
PetscErrorCode FcMeshDestroy(FcMesh *mesh);
/* gmshFinalize() if gmsh was initialized (call once before PetscFinalize). */
PetscErrorCode FcMeshFinalizePackage(void);

/* Look a group up by physical name, or by tag when `key` is an integer string; dim = -1 for
 * any dimension. *g = NULL when not found. Names are compared exactly (case-sensitive) and
 * take precedence over tags. Gmsh numbers tags per dimension, so with dim = -1 a key matching
 * groups of several dimensions (or a name shared by several groups) is ambiguous: that is an
 * input error naming the mesh file. */
PetscErrorCode FcMeshFindGroup(const FcMesh *mesh, const char *key, PetscInt dim, const FcMeshGroup **g);
/* "name (dim 2, tag 3), ..." listing of all groups, for error messages. */
void FcMeshGroupList(const FcMesh *mesh, char *buf, size_t len);

/* Volume of the mesh (exact for straight-sided and curved tet10 by quadrature). */
PetscErrorCode FcMeshVolume(const FcMesh *mesh, PetscReal *volume);
/* Area of a set of boundary faces. */
PetscErrorCode FcMeshFacesArea(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, PetscReal *area);
/* Area of a group's boundary faces; of a distributed mesh (parted) rank 0's whole group's,
 * broadcast (collective then). */
PetscErrorCode FcMeshGroupArea(const FcMesh *mesh, const FcMeshGroup *g, PetscReal *area);
/* Index of the node nearest to point p (linear scan; the lowest index on ties, -1 if the mesh
 * has no nodes). */
PetscInt FcMeshNearestNode(const FcMesh *mesh, const PetscReal p[3]);

#endif
