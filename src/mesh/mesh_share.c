/* fcsim — a mesh read once on several MPI ranks: rank 0 reads (or meshes) the file, the others
 * receive what it read (doc/mpi.md, "Meshes on several ranks").
 *
 * Before, every rank opened Gmsh on the same file: N parses of a .msh, N sandboxed meshings of a
 * .geo (up to three per file: the case's volume list, the size estimate, the load), each with
 * Gmsh's own model in memory at once, N times the CPU, competing for the cores the run is given.
 * Here the whole mesh goes to every rank: what every rank holds whole (a rigid body's mesh shape).
 * A deformable body's mesh on several ranks is distributed instead: the other ranks receive its
 * header here and their part only (mesh_part.c).
 *
 * Every entry point is collective on PETSC_COMM_WORLD: every rank calls it, in the same order
 * (the case is read and the bodies loaded on every rank). Rank 0's error (an input error it
 * printed, or any other) becomes every rank's, with the same code and, for a load, the same
 * `fault`, so that every rank takes the same path; only rank 0 prints. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <string.h>
#include <time.h>
#include "mesh_impl.h"

PetscBool FcMeshShared_Private(PetscMPIInt *rank)
{
  PetscMPIInt size = 1;

  *rank = 0;
  if (!PetscInitializeCalled || PetscFinalizeCalled) return PETSC_FALSE;
  if (MPI_Comm_size(PETSC_COMM_WORLD, &size) || MPI_Comm_rank(PETSC_COMM_WORLD, rank)) return PETSC_FALSE;
  return (PetscBool)(size > 1);
}

/* Rank 0's outcome (rc, and the load's fault when fault != NULL) to every rank. The other ranks
 * wait here while rank 0 meshes (seconds to minutes): a blocking MPI_Bcast would poll the whole
 * time (Open MPI's progress loop, a core each), so they test a non-blocking one every
 * millisecond and sleep in between, leaving the cores to the meshing. */
PetscErrorCode FcMeshShareOutcome_Private(PetscErrorCode *rc, FcMeshFault *fault)
{
  int         v[2], done = 0;
  MPI_Request req;

  PetscFunctionBegin;
  v[0] = (int)*rc;
  v[1] = fault ? (int)*fault : 0;
  PetscCallMPI(MPI_Ibcast(v, 2, MPI_INT, 0, PETSC_COMM_WORLD, &req));
  for (;;) {
    const struct timespec ms = {0, 1000000};
    PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (done) break;
    nanosleep(&ms, NULL);
  }
  *rc = (PetscErrorCode)v[0];
  if (fault) *fault = (FcMeshFault)v[1];
  PetscFunctionReturn(0);
}

/* MPI counts are int: arrays of any length go in pieces of at most 2^28 entries. */
static PetscErrorCode Bcast_Private(void *buf, size_t n, MPI_Datatype type, size_t width)
{
  const size_t piece = (size_t)1 << 28;

  PetscFunctionBegin;
  for (size_t k = 0; k < n; k += piece) {
    const size_t m = n - k < piece ? n - k : piece;
    PetscCallMPI(MPI_Bcast((char *)buf + k * width, (PetscMPIInt)m, type, 0, PETSC_COMM_WORLD));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode BcastInts_Private(PetscInt **a, size_t n, PetscBool alloc)
{
  PetscFunctionBegin;
  if (alloc) PetscCall(PetscMalloc1(n ? n : 1, a));
  PetscCall(Bcast_Private(*a, n, MPIU_INT, sizeof(PetscInt)));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshShareCounts_Private(FcMesh *mesh, PetscBool parted, PetscInt n[7])
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  n[0] = mesh->order;
  n[1] = mesh->nnodes;
  n[2] = mesh->nelems;
  n[3] = mesh->npe;
  n[4] = mesh->nbfaces;
  n[5] = mesh->npf;
  n[6] = mesh->ngroups;
  PetscCallMPI(MPI_Bcast(n, 7, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(mesh->file, (PetscMPIInt)sizeof mesh->file, MPI_CHAR, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (parted && !rank) PetscFunctionReturn(0); /* rank 0 keeps its whole mesh */
  mesh->order                                     = n[0];
  mesh->npe                                       = n[3];
  mesh->npf                                       = n[5];
  mesh->ngroups                                   = n[6];
  *(parted ? &mesh->nnodes_all : &mesh->nnodes)   = n[1]; /* a part: the whole counts; its own come with it */
  *(parted ? &mesh->nelems_all : &mesh->nelems)   = n[2];
  *(parted ? &mesh->nbfaces_all : &mesh->nbfaces) = n[4];
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshShareGroupHeads_Private(FcMesh *mesh, PetscMPIInt rank, PetscInt ng, PetscBool parted)
{
  PetscInt *head  = NULL;
  char     *names = NULL;

  PetscFunctionBegin;
  if (!ng) PetscFunctionReturn(0);
  PetscCall(PetscMalloc2(5 * ng, &head, (size_t)ng * FC_NAME_LEN, &names));
  for (PetscInt i = 0; !rank && i < ng; i++) {
    const FcMeshGroup *g = &mesh->groups[i];
    head[5 * i]          = g->dim;
    head[5 * i + 1]      = g->tag;
    head[5 * i + 2]      = g->nnodes;
    head[5 * i + 3]      = g->nfaces;
    head[5 * i + 4]      = g->nelems;
    memcpy(names + (size_t)i * FC_NAME_LEN, g->name, FC_NAME_LEN);
  }
  PetscCall(Bcast_Private(head, (size_t)(5 * ng), MPIU_INT, sizeof(PetscInt)));
  PetscCall(Bcast_Private(names, (size_t)ng * FC_NAME_LEN, MPI_CHAR, 1));
  if (rank) {
    PetscCall(PetscCalloc1(ng, &mesh->groups));
    for (PetscInt i = 0; i < ng; i++) {
      FcMeshGroup *g = &mesh->groups[i];
      PetscInt    *c = parted ? &g->nnodes_all : &g->nnodes, *f = parted ? &g->nfaces_all : &g->nfaces, *e = parted ? &g->nelems_all : &g->nelems;
      memcpy(g->name, names + (size_t)i * FC_NAME_LEN, FC_NAME_LEN);
      g->name[FC_NAME_LEN - 1] = 0;
      g->dim                   = head[5 * i];
      g->tag                   = head[5 * i + 1];
      *c                       = head[5 * i + 2];
      *f                       = head[5 * i + 3];
      *e                       = head[5 * i + 4];
    }
  }
  PetscCall(PetscFree2(head, names));
  PetscFunctionReturn(0);
}

/* The groups: their headers (FcMeshShareGroupHeads_Private), then the node, face and element
 * lists one after another, whatever their number (a multi-volume mesh has thousands). */
static PetscErrorCode ShareGroups_Private(FcMesh *mesh, PetscMPIInt rank)
{
  const PetscInt ng  = mesh->ngroups;
  PetscInt      *all = NULL, total = 0, k = 0;

  PetscFunctionBegin;
  if (!ng) PetscFunctionReturn(0);
  PetscCall(FcMeshShareGroupHeads_Private(mesh, rank, ng, PETSC_FALSE));
  for (PetscInt i = 0; i < ng; i++) total += mesh->groups[i].nnodes + mesh->groups[i].nfaces + mesh->groups[i].nelems;
  PetscCall(PetscMalloc1(total ? total : 1, &all));
  for (PetscInt i = 0; !rank && i < ng; i++) {
    const FcMeshGroup *g = &mesh->groups[i];
    PetscCall(PetscArraycpy(all + k, g->nodes, g->nnodes));
    k += g->nnodes;
    PetscCall(PetscArraycpy(all + k, g->faces, g->nfaces));
    k += g->nfaces;
    PetscCall(PetscArraycpy(all + k, g->elems, g->nelems));
    k += g->nelems;
  }
  PetscCall(Bcast_Private(all, (size_t)total, MPIU_INT, sizeof(PetscInt)));
  for (PetscInt i = 0; rank && i < ng; i++) {
    FcMeshGroup *g = &mesh->groups[i];
    /* FcMeshDestroy frees each list: NULL when empty, as the reader leaves them */
    if (g->nnodes) PetscCall(PetscMalloc1(g->nnodes, &g->nodes));
    if (g->nfaces) PetscCall(PetscMalloc1(g->nfaces, &g->faces));
    if (g->nelems) PetscCall(PetscMalloc1(g->nelems, &g->elems));
    PetscCall(PetscArraycpy(g->nodes, all + k, g->nnodes));
    k += g->nnodes;
    PetscCall(PetscArraycpy(g->faces, all + k, g->nfaces));
    k += g->nfaces;
    PetscCall(PetscArraycpy(g->elems, all + k, g->nelems));
    k += g->nelems;
  }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(0);
}

/* Rank 0's loaded mesh to every other rank (their *mesh: zeroed on entry, as after a failed
 * load). The partition fields are not set yet (FcAssemblyPartition comes later). */
PetscErrorCode FcMeshShareMesh_Private(FcMesh *mesh)
{
  PetscMPIInt rank;
  PetscInt    n[7];
  PetscBool   recv;

  PetscFunctionBegin;
  (void)FcMeshShared_Private(&rank);
  recv = (PetscBool)(rank != 0);
  PetscCall(FcMeshShareCounts_Private(mesh, PETSC_FALSE, n));
  if (recv) PetscCall(PetscMalloc1(3 * (size_t)mesh->nnodes, &mesh->X));
  PetscCall(Bcast_Private(mesh->X, 3 * (size_t)mesh->nnodes, MPIU_REAL, sizeof(PetscReal)));
  PetscCall(BcastInts_Private(&mesh->node_id, (size_t)mesh->nnodes, recv));
  PetscCall(BcastInts_Private(&mesh->conn, (size_t)mesh->nelems * (size_t)mesh->npe, recv));
  PetscCall(BcastInts_Private(&mesh->elem_id, (size_t)mesh->nelems, recv));
  PetscCall(BcastInts_Private(&mesh->bfaces, (size_t)mesh->nbfaces * (size_t)mesh->npf, recv));
  PetscCall(BcastInts_Private(&mesh->bface_elem, (size_t)mesh->nbfaces, recv));
  PetscCall(ShareGroups_Private(mesh, rank));
  mesh->fault = FC_MESH_FAULT_NONE;
  PetscFunctionReturn(0);
}

/* FcMeshListVolumes' answer to every rank (allocated there with PetscCalloc2, as the query's). */
PetscErrorCode FcMeshShareVolumes_Private(PetscInt *n, char (**names)[FC_NAME_LEN], PetscInt **ntets)
{
  PetscMPIInt rank;

  PetscFunctionBegin;
  (void)FcMeshShared_Private(&rank);
  PetscCallMPI(MPI_Bcast(n, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  if (rank) PetscCall(PetscCalloc2(*n + 1, names, *n + 1, ntets));
  PetscCall(Bcast_Private(*names, (size_t)*n * FC_NAME_LEN, MPI_CHAR, 1));
  PetscCall(Bcast_Private(*ntets, (size_t)*n, MPIU_INT, sizeof(PetscInt)));
  PetscFunctionReturn(0);
}
