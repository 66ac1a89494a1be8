/* fcsim — mesh module internals shared by mesh_gmsh.c, mesh_surface.c and mesh_geom.c.
 * Not part of the module's contract (mesh.h); nothing outside src/mesh/ includes this. */
#ifndef FC_MESH_IMPL_H
#define FC_MESH_IMPL_H

#include "mesh.h"

/* Local faces of a Gmsh tetrahedron (tet10 edge nodes 4..9 = 01,12,20,30,32,31), each listed
 * as corners a,b,c then mid-edge nodes ab,bc,ca, ordered so that (x_b-x_a)x(x_c-x_a) points
 * out of a positively oriented element. */
extern const PetscInt FcTetFace[4][6];

/* Open-addressing hash of the element faces keyed on their sorted corner triple. Slots hold
 * only the first owner (4*element + local face) and are compared by recomputing the key from
 * the connectivity: 12 bytes per slot instead of storing the triple. */
typedef struct {
  PetscInt owner; /* 4*e + local face, -1 when empty */
  PetscInt count; /* elements sharing the face */
  PetscInt bface; /* index in mesh->bfaces when count == 1, else -1 */
} FcFaceSlot;

typedef struct {
  size_t      mask; /* size - 1, size a power of two */
  FcFaceSlot *slots;
} FcFaceHash;

/* Boundary faces (mesh->nbfaces, npf, bfaces, bface_elem) from the connectivity. The hash is
 * returned so that surface triangles of physical groups can be matched to boundary faces. */
PetscErrorCode FcMeshBuildBoundary_Private(FcMesh *mesh, FcFaceHash *hash);
/* Boundary face with corners {a,b,c} (any order), -1 if it is not a boundary face. */
PetscInt       FcFaceHashFindBoundary(const FcMesh *mesh, const FcFaceHash *hash, const PetscInt corners[3]);
PetscErrorCode FcFaceHashDestroy(FcFaceHash *hash);

/* Checks made before Gmsh opens a file (Gmsh would act on what they refuse): the .geo script
 * and everything it includes or merges may describe geometry and meshing only (mesh_script.c);
 * the counts of an ASCII MSH 2.2/4.1 file must match its lines (mesh_mshcheck.c). Input errors
 * naming the file and the line. */
PetscErrorCode FcMeshCheckScript_Private(const char *file);
PetscErrorCode FcMeshCheckMshCounts_Private(const char *file);
/* What a .msh file starts with, blanks skipped: -1 nothing (empty, or unreadable), 1 the
 * "$MeshFormat" of MSH 2 and 4 data, 0 anything else (which Gmsh would parse as a script). */
int FcMeshMshHead_Private(const char *file);

/* The folder a script's reads must stay below: the real path of the folder the mesh file is
 * named in (mesh_script.c; the sandbox's Landlock root too). */
PetscErrorCode FcMeshScriptRoot_Private(const char *file, char *root, size_t len);

/* Check the Gmsh call just made (its ierr, and the errors it logged): an input error
 * "FILE: gmsh: WHAT<Gmsh's message>" if it failed (mesh_gmshlog.c). */
PetscErrorCode FcMeshGmshCheck_Private(const char *file, const char *what, int ierr);
/* Free what gmshModelMeshGetElements allocated (ntypes element types; mesh_gmshlog.c). */
void FcMeshGmshFreeElements_Private(int *types, size_t ntypes, size_t **etags, size_t *netags, size_t **ntags, size_t *nntags);

/* Run `work` (which opens and meshes the .geo `file` in the current Gmsh session) in a
 * sandboxed child process and rebuild the mesh it made as the current model of this session
 * (mesh_sandbox.c; doc/mesh.md, "The sandbox"); `root` is the folder the child may read below.
 * The caller clears the model first. An error of `work` (with its *fault), a forbidden system
 * call, a crash, the time limit: one input error naming the file. With
 * FcMeshGeo.unsandboxed, `work` runs here. */
PetscErrorCode FcMeshGeoRun_Private(const char *file, const char *root, PetscErrorCode (*work)(void *, FcMeshFault *), void *ctx, FcMeshFault *fault);

/* A mesh read once on several MPI ranks (mesh_share.c): whether PETSC_COMM_WORLD has more than
 * one rank (and this one's), rank 0's outcome (error code, load fault) to every rank, its mesh
 * and its volume list. Collective: every rank calls them in the same order. */
PetscBool      FcMeshShared_Private(PetscMPIInt *rank);
PetscErrorCode FcMeshShareOutcome_Private(PetscErrorCode *rc, FcMeshFault *fault);
PetscErrorCode FcMeshShareMesh_Private(FcMesh *mesh);
PetscErrorCode FcMeshShareHeader_Private(FcMesh *mesh); /* mesh_part.c */
/* Rank 0's counts (order, nnodes, nelems, npe, nbfaces, npf, ngroups) into n on every rank, and
 * its file name into mesh->file; into the mesh's counts too, on a rank other than 0 of a
 * distributed mesh (parted) its whole counts (nnodes_all, nelems_all, nbfaces_all). Collective. */
PetscErrorCode FcMeshShareCounts_Private(FcMesh *mesh, PetscBool parted, PetscInt n[7]);
/* The groups' headers (name, dim, tag, the three counts) from rank 0 to every rank; on the others
 * mesh->groups is made, the counts into the lists' (their lists follow) or, parted, into *_all
 * (a part's lists come with it, mesh_part.c). Collective. */
PetscErrorCode FcMeshShareGroupHeads_Private(FcMesh *mesh, PetscMPIInt rank, PetscInt ng, PetscBool parted);
PetscErrorCode FcMeshShareVolumes_Private(PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets);

/* Input error naming the first inverted or zero-volume element (by Gmsh id). */
PetscErrorCode FcMeshCheckElements_Private(const FcMesh *mesh);

/* Tet10 shape function derivatives dN[10*3] (dN_a/dxi_j) at reference point xi; tet4
 * derivatives are the constant corner part (first 4 rows with order 1). */
void FcMeshTetShapeDeriv_Private(PetscInt order, const PetscReal xi[3], PetscReal dN[]);
/* det(dx/dxi) of element e at reference point xi. */
PetscReal FcMeshTetDetJ_Private(const FcMesh *mesh, PetscInt e, const PetscReal xi[3]);

#endif
