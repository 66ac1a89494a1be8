/* fcsim — assembly of the element kernels into PETSc objects.
 *
 * Matrix: MATAIJ with block size 3 (the 3 displacement components of a node) and EXACT
 * preallocation from the node graph: nodes m and n are coupled iff some element contains both,
 * so block row n holds one 3×3 block per node in the union of the elements around n (itself
 * included), i.e. 3 × (number of coupled nodes) nonzeros per scalar row. The graph is walked
 * through a node → element table with a marker array: O(nelems·npe²) time, O(nnodes + nelems·npe)
 * memory, no adjacency lists stored. The split into diagonal / off-diagonal blocks follows the
 * row ownership range, so the same code preallocates a distributed matrix.
 *
 * Loops over elements (faces) are O(nelems): each rank integrates a contiguous share and adds
 * with ADD_VALUES (off-rank rows travel through PETSc's stash at assembly), which is correct on
 * any number of ranks; on several ranks with a partition each rank reads u at its elements' nodes
 * only (its own DoFs and the ghosts, scattered into a local form: UAccess), without one u is
 * gathered to every rank (VecScatterCreateToAll, O(ndof)). */
#define _XOPEN_SOURCE 700 /* setenv */
#include "fem.h"
#include "../core/mat3.h"
#include <stdlib.h>

static PetscErrorCode MeshCheck(const FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCheck(mesh->order == 1 || mesh->order == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Mesh order %" PetscInt_FMT " not supported", mesh->order);
  PetscCheck(mesh->npe == (mesh->order == 1 ? 4 : 10), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
    "Mesh of order %" PetscInt_FMT " with %" PetscInt_FMT " nodes per element", mesh->order, mesh->npe);
  PetscFunctionReturn(0);
}

static PetscErrorCode NodeElements_Private(const FcMesh *mesh, PetscInt **off_, PetscInt **eln_);

/* [start, end) of this rank's share of n items (elements or faces), contiguous blocks. */
static PetscErrorCode LocalRange(MPI_Comm comm, PetscInt n, PetscInt *start, PetscInt *end)
{
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  *start = (PetscInt)(((PetscInt64)n * rank) / size);
  *end   = (PetscInt)(((PetscInt64)n * (rank + 1)) / size);
  PetscFunctionReturn(0);
}

/* The IS composed on a partitioned body's vectors: DoF k of the mesh → its distributed index.
 * Emptied on a rank whose mesh is trimmed (FcAssemblyTrim): no whole copy is made there. */
#define FC_NATURAL_KEY "FcNaturalDoFs"

static PetscErrorCode NaturalWhole_Private(Vec v, IS natural)
{
  PetscInt n, N;

  PetscFunctionBegin;
  PetscCall(ISGetLocalSize(natural, &n));
  PetscCall(VecGetSize(v, &N));
  PetscCheck(n == N, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
    "The body's mesh is trimmed on this rank (FcAssemblyTrim): its vectors are not read whole or by mesh DoF here");
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecAllBegin(Vec v, FcVecAll *all)
{
  PetscMPIInt size;
  IS          natural = NULL;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(all, sizeof *all));
  all->v = v;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  PetscCall(PetscObjectQuery((PetscObject)v, FC_NATURAL_KEY, (PetscObject *)&natural));
  if (size == 1) {
    PetscCall(VecGetArrayRead(v, &all->a));
  } else if (natural) { /* a partitioned layout: entry k of the copy is the mesh's DoF k */
    PetscInt n;
    PetscCall(NaturalWhole_Private(v, natural));
    PetscCall(ISGetLocalSize(natural, &n));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &all->vall));
    PetscCall(VecScatterCreate(v, natural, all->vall, NULL, &all->scatter));
    PetscCall(VecScatterBegin(all->scatter, v, all->vall, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(all->scatter, v, all->vall, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(all->vall, &all->held));
    all->a = all->held;
  } else {
    PetscCall(VecScatterCreateToAll(v, &all->scatter, &all->vall));
    PetscCall(VecScatterBegin(all->scatter, v, all->vall, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(all->scatter, v, all->vall, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(all->vall, &all->held));
    all->a = all->held;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecRootBegin(Vec v, FcVecAll *all)
{
  PetscMPIInt size, rank;
  IS          natural = NULL, from;
  PetscInt    n;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  if (size == 1) {
    PetscCall(FcVecAllBegin(v, all));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMemzero(all, sizeof *all));
  all->v = v;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)v), &rank));
  PetscCall(PetscObjectQuery((PetscObject)v, FC_NATURAL_KEY, (PetscObject *)&natural));
  PetscCall(VecGetSize(v, &n));
  /* rank 0: every entry in the mesh's order (the natural map, or the identity); the others none */
  if (!rank && natural) {
    PetscCall(PetscObjectReference((PetscObject)natural));
    from = natural;
  } else PetscCall(ISCreateStride(PETSC_COMM_SELF, rank ? 0 : n, 0, 1, &from));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, rank ? 0 : n, &all->vall));
  PetscCall(VecScatterCreate(v, from, all->vall, NULL, &all->scatter));
  PetscCall(ISDestroy(&from));
  PetscCall(VecScatterBegin(all->scatter, v, all->vall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(all->scatter, v, all->vall, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(all->vall, &all->held));
  all->a = rank ? NULL : all->held; /* nothing here: a writer of rank 0 alone reads it */
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecAllEnd(FcVecAll *all)
{
  PetscFunctionBegin;
  if (!all->v) PetscFunctionReturn(0);
  if (all->vall) {
    PetscCall(VecRestoreArrayRead(all->vall, &all->held));
    PetscCall(VecScatterDestroy(&all->scatter));
    PetscCall(VecDestroy(&all->vall));
  } else {
    PetscCall(VecRestoreArrayRead(all->v, &all->a));
  }
  all->v = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecPickCreate(Vec v, PetscInt n, const PetscInt dof[], FcVecPick *pk)
{
  PetscMPIInt size;
  IS          natural = NULL, from;
  PetscInt   *idx;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(pk, sizeof *pk));
  pk->n = n;
  PetscCall(PetscMalloc2(n, &pk->dof, n, &pk->val));
  PetscCall(PetscArraycpy(pk->dof, dof, n));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)v), &size));
  if (size == 1) PetscFunctionReturn(0);
  /* the entries' places in the distributed vector: through the partition's map when the body is
   * partitioned (FcAssemblyComposeNatural), else the mesh's DoF itself */
  PetscCall(PetscObjectQuery((PetscObject)v, FC_NATURAL_KEY, (PetscObject *)&natural));
  PetscCall(PetscMalloc1(n, &idx));
  if (natural) {
    const PetscInt *nat;
    PetscCall(NaturalWhole_Private(v, natural));
    PetscCall(ISGetIndices(natural, &nat));
    for (PetscInt i = 0; i < n; i++) idx[i] = nat[dof[i]];
    PetscCall(ISRestoreIndices(natural, &nat));
  } else PetscCall(PetscArraycpy(idx, dof, n));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, idx, PETSC_OWN_POINTER, &from));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &pk->sub));
  PetscCall(VecScatterCreate(v, from, pk->sub, NULL, &pk->scatter));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecPickCreateAt(Vec v, PetscInt n, const PetscInt dof[], const PetscInt didx[], FcVecPick *pk)
{
  IS       from;
  PetscInt N;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(pk, sizeof *pk));
  pk->n = n;
  PetscCall(PetscMalloc2(n, &pk->dof, n, &pk->val));
  PetscCall(PetscArraycpy(pk->dof, dof, n));
  PetscCall(VecGetSize(v, &N));
  for (PetscInt i = 0; i < n; i++)
    PetscCheck(
      didx[i] >= 0 && didx[i] < N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Picked entry %" PetscInt_FMT " of a vector of %" PetscInt_FMT, didx[i], N);
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, didx, PETSC_COPY_VALUES, &from));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &pk->sub));
  PetscCall(VecScatterCreate(v, from, pk->sub, NULL, &pk->scatter));
  PetscCall(ISDestroy(&from));
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecPickRead(FcVecPick *pk, Vec v)
{
  const PetscScalar *a;

  PetscFunctionBegin;
  if (!pk->scatter) {
    PetscCall(VecGetArrayRead(v, &a));
    for (PetscInt i = 0; i < pk->n; i++) pk->val[i] = a[pk->dof[i]];
    PetscCall(VecRestoreArrayRead(v, &a));
    PetscFunctionReturn(0);
  }
  PetscCall(VecScatterBegin(pk->scatter, v, pk->sub, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(pk->scatter, v, pk->sub, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(pk->sub, &a));
  PetscCall(PetscArraycpy(pk->val, a, pk->n));
  PetscCall(VecRestoreArrayRead(pk->sub, &a));
  PetscFunctionReturn(0);
}

PetscErrorCode FcVecPickDestroy(FcVecPick *pk)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(pk->dof, pk->val));
  PetscCall(VecScatterDestroy(&pk->scatter));
  PetscCall(VecDestroy(&pk->sub));
  PetscCall(PetscMemzero(pk, sizeof *pk));
  PetscFunctionReturn(0);
}

/* Node n's index in the distributed vectors and matrices (FcAssemblyPartition). */
static inline PetscInt NodeIndex(const FcMesh *mesh, PetscInt n) { return mesh->part_perm ? mesh->part_perm[n] : n; }

/* The elements a rank integrates. One rank, or several without a partition: the contiguous
 * share [estart, eend) (assembly.c's first distributed form). With a partition
 * (FcAssemblyPartition): every element whose first node the rank owns (distributed nodes
 * [nstart, nend)), so an element's rows are mostly the rank's own and each element is
 * integrated by exactly one rank. */
typedef struct {
  PetscInt estart, eend, nstart, nend;
} ElemShare;

static PetscErrorCode ElementShare_Private(const FcMesh *mesh, MPI_Comm comm, PetscInt rstart, PetscInt rend, ElemShare *sh)
{
  PetscFunctionBegin;
  sh->nstart = rstart / 3;
  sh->nend   = rend / 3;
  if (mesh->part_perm) {
    sh->estart = 0;
    sh->eend   = mesh->nelems;
  } else PetscCall(LocalRange(comm, mesh->nelems, &sh->estart, &sh->eend));
  PetscFunctionReturn(0);
}

static inline PetscBool ElementMine(const FcMesh *mesh, const ElemShare *sh, PetscInt e)
{
  PetscInt p;
  if (!mesh->part_perm) return PETSC_TRUE;
  p = mesh->part_perm[mesh->conn[e * mesh->npe]];
  return (PetscBool)(p >= sh->nstart && p < sh->nend);
}

/* Read access to u at the nodes of the elements this rank integrates. One rank, or a layout
 * without a partition: all of u (its own array, or FcVecAll's copy). With a partition
 * (FcAssemblyPartition; issue 29, doc/mpi.md "Next steps" 3): the ghosted form of u, the rank's
 * own DoFs of its elements' nodes and the ghosts (the DoFs of those nodes that other ranks own),
 * scattered into a sequential vector of 3 per node (VecScatter, the update of VecCreateGhost's
 * local form: u itself stays a plain MPI vector, which every other use of it reads as before),
 * and lnode, each mesh node's place there (−1: not a node of the rank's elements). Before, every
 * rank copied all of u (3 N reals) at every assembly. */
typedef struct {
  FcVecAll           all; /* without a partition */
  Vec                loc; /* with one: the ghosted local form */
  VecScatter         sc;
  PetscInt          *lnode;
  const PetscScalar *a;
} UAccess;

static PetscErrorCode UAccessBegin(const FcMesh *mesh, Vec u, UAccess *ua)
{
  PetscInt    n, rstart, rend, k = 0, *idx;
  PetscMPIInt size;
  ElemShare   sh;
  IS          is;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(ua, sizeof *ua));
  PetscCall(VecGetSize(u, &n));
  PetscCheck(n == 3 * FcMeshNNodesAll(mesh), PetscObjectComm((PetscObject)u), PETSC_ERR_ARG_SIZ,
    "Displacement vector of size %" PetscInt_FMT ", mesh has %" PetscInt_FMT " DoFs", n, 3 * FcMeshNNodesAll(mesh));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)u), &size));
  if (size == 1 || !mesh->part_perm) {
    PetscCall(FcVecAllBegin(u, &ua->all));
    ua->a = ua->all.a;
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetOwnershipRange(u, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, PetscObjectComm((PetscObject)u), rstart, rend, &sh));
  PetscCall(PetscMalloc1(mesh->nnodes, &ua->lnode));
  for (PetscInt m = 0; m < mesh->nnodes; m++) ua->lnode[m] = -1;
  for (PetscInt e = sh.estart; e < sh.eend; e++)
    if (ElementMine(mesh, &sh, e))
      for (PetscInt a = 0; a < mesh->npe; a++)
        if (ua->lnode[mesh->conn[e * mesh->npe + a]] < 0) ua->lnode[mesh->conn[e * mesh->npe + a]] = k++;
  PetscCall(PetscMalloc1(3 * k + 1, &idx));
  for (PetscInt m = 0; m < mesh->nnodes; m++)
    if (ua->lnode[m] >= 0)
      for (int i = 0; i < 3; i++) idx[3 * ua->lnode[m] + i] = 3 * mesh->part_perm[m] + i;
  PetscCall(PetscInfo(NULL, "u at the nodes of this rank's elements: %" PetscInt_FMT " of %" PetscInt_FMT " DoFs\n", 3 * k, n));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 3 * k, idx, PETSC_OWN_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 3 * k, &ua->loc));
  PetscCall(VecScatterCreate(u, is, ua->loc, NULL, &ua->sc));
  PetscCall(ISDestroy(&is));
  PetscCall(VecScatterBegin(ua->sc, u, ua->loc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(ua->sc, u, ua->loc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(ua->loc, &ua->a));
  PetscFunctionReturn(0);
}

static PetscErrorCode UAccessEnd(UAccess *ua)
{
  PetscFunctionBegin;
  if (!ua->loc) {
    PetscCall(FcVecAllEnd(&ua->all));
    PetscFunctionReturn(0);
  }
  PetscCall(VecRestoreArrayRead(ua->loc, &ua->a));
  PetscCall(VecScatterDestroy(&ua->sc));
  PetscCall(VecDestroy(&ua->loc));
  PetscCall(PetscFree(ua->lnode));
  PetscFunctionReturn(0);
}

/* The node graph of the rows [nstart, nend) of the even split, without the diagonal, as the CSR
 * arrays MatCreateMPIAdj takes (and frees). */
static PetscErrorCode NodeGraph_Private(const FcMesh *mesh, PetscInt nstart, PetscInt nend, PetscInt **ia, PetscInt **ja)
{
  PetscInt      *off, *eln, *marker;
  const PetscInt npe = mesh->npe;

  PetscFunctionBegin;
  PetscCall(NodeElements_Private(mesh, &off, &eln));
  PetscCall(PetscMalloc1(mesh->nnodes, &marker));
  for (int pass = 0; pass < 2; pass++) { /* 0: count, 1: fill */
    for (PetscInt n = 0; n < mesh->nnodes; n++) marker[n] = -1;
    if (pass == 0) PetscCall(PetscCalloc1(nend - nstart + 1, ia));
    else PetscCall(PetscMalloc1((*ia)[nend - nstart] + 1, ja));
    for (PetscInt n = nstart; n < nend; n++) {
      PetscInt k = 0;
      marker[n]  = n;
      for (PetscInt j = off[n]; j < off[n + 1]; j++)
        for (PetscInt a = 0; a < npe; a++) {
          const PetscInt m = mesh->conn[eln[j] * npe + a];
          if (marker[m] == n) continue;
          marker[m] = n;
          if (pass) (*ja)[(*ia)[n - nstart] + k] = m;
          k++;
        }
      if (pass == 0) (*ia)[n - nstart + 1] = (*ia)[n - nstart] + k;
      else PetscCall(PetscSortInt(k, *ja + (*ia)[n - nstart]));
    }
  }
  PetscCall(PetscFree(marker));
  PetscCall(PetscFree(eln));
  PetscCall(PetscFree(off));
  PetscFunctionReturn(0);
}

/* part_own and part_block (mesh.h) from the whole map part_perm: O(nodes/N) each; ostart: this
 * rank's first distributed node. */
static PetscErrorCode PartitionMapsOf_Private(FcMesh *mesh, PetscInt ostart, PetscMPIInt rank, PetscMPIInt size)
{
  const PetscInt N = mesh->nnodes;
  PetscInt       a = (PetscInt)(((PetscInt64)N * rank) / size), z = (PetscInt)(((PetscInt64)N * (rank + 1)) / size);

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(mesh->part_nown + 1, &mesh->part_own, z - a + 1, &mesh->part_block));
  for (PetscInt m = 0; m < N; m++)
    if (mesh->part_perm[m] >= ostart && mesh->part_perm[m] < ostart + mesh->part_nown) mesh->part_own[mesh->part_perm[m] - ostart] = m;
  for (PetscInt m = a; m < z; m++) mesh->part_block[m - a] = mesh->part_perm[m];
  PetscFunctionReturn(0);
}

static PetscErrorCode PartitionMaps_Private(MPI_Comm comm, FcMesh *mesh)
{
  PetscMPIInt size, rank;
  PetscInt    ostart = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Exscan(&mesh->part_nown, &ostart, 1, MPIU_INT, MPI_SUM, comm));
  if (!rank) ostart = 0;
  PetscCall(PartitionMapsOf_Private(mesh, ostart, rank, size));
  PetscFunctionReturn(0);
}

/* PT-Scotch (or -mat_partitioning_type) on the node graph whose rows [nstart, nstart + nloc) of
 * the even split this rank gives (ia, ja: owned by the graph): each node's rank, and the numbering
 * rank after rank (*isnum, the entries of this rank's rows); mesh->part_nown. */
static PetscErrorCode PartitionGraph_Private(MPI_Comm comm, PetscInt nloc, PetscInt N, PetscInt *ia, PetscInt *ja, FcMesh *mesh, IS *isnum)
{
  PetscMPIInt     size, rank;
  PetscInt       *counts;
  Mat             adj;
  MatPartitioning part;
  IS              isrank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatCreateMPIAdj(comm, nloc, N, ia, ja, NULL, &adj)); /* adj owns ia, ja */
  PetscCall(MatPartitioningCreate(comm, &part));
  PetscCall(MatPartitioningSetAdjacency(part, adj));
#if defined(PETSC_HAVE_PTSCOTCH)
  PetscCall(MatPartitioningSetType(part, MATPARTITIONINGPTSCOTCH));
  /* Scotch 7 partitions with threads, and the partition then depends on their timing: the same
   * run on the same ranks gave three partitions (hence results differing in round-off) in three
   * runs. One thread per process makes it reproducible (5 runs of 5 the same); Scotch reads
   * SCOTCH_PTHREAD_NUMBER when it sets up its context (Scotch 7 user's guide, "Threads"). The
   * user's own value is kept. */
  (void)setenv("SCOTCH_PTHREAD_NUMBER", "1", 0);
#endif
  PetscCall(MatPartitioningSetFromOptions(part));
  PetscCall(MatPartitioningApply(part, &isrank));
  PetscCall(ISPartitioningToNumbering(isrank, isnum));
  PetscCall(PetscMalloc1(size, &counts));
  PetscCall(ISPartitioningCount(isrank, size, counts));
  mesh->part_nown = counts[rank];
  PetscCall(PetscFree(counts));
  PetscCall(ISDestroy(&isrank));
  PetscCall(MatPartitioningDestroy(&part));
  PetscCall(MatDestroy(&adj));
  PetscFunctionReturn(0);
}

/* A graph partition of the nodes (PT-Scotch: Debian's PETSc has no ParMETIS) gives each node a
 * rank; ISPartitioningToNumbering numbers the nodes rank after rank, so that each rank owns a
 * contiguous range of the distributed numbering, and the whole map is gathered to every rank
 * (the mesh is replicated: O(nodes) per rank, doc/mpi.md). */
PetscErrorCode FcAssemblyPartition(MPI_Comm comm, FcMesh *mesh)
{
  PetscMPIInt     size, rank;
  PetscInt        nloc = PETSC_DECIDE, N = mesh->nnodes, nstart = 0, *ia, *ja;
  IS              isnum, isall;
  const PetscInt *perm;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(MeshCheck(mesh));
  PetscCall(PetscSplitOwnership(comm, &nloc, &N));
  PetscCallMPI(MPI_Exscan(&nloc, &nstart, 1, MPIU_INT, MPI_SUM, comm));
  if (!rank) nstart = 0;
  PetscCall(NodeGraph_Private(mesh, nstart, nstart + nloc, &ia, &ja));
  PetscCall(PartitionGraph_Private(comm, nloc, N, ia, ja, mesh, &isnum));
  PetscCall(ISAllGather(isnum, &isall));
  PetscCall(PetscMalloc1(N, &mesh->part_perm));
  PetscCall(ISGetIndices(isall, &perm));
  PetscCall(PetscArraycpy(mesh->part_perm, perm, N));
  PetscCall(ISRestoreIndices(isall, &perm));
  PetscCall(ISDestroy(&isall));
  PetscCall(PartitionMaps_Private(comm, mesh));
  PetscCall(ISDestroy(&isnum));
  PetscFunctionReturn(0);
}

/* The distributed set-up (doc/mpi.md "The distributed set-up"): the same partition as
 * FcAssemblyPartition's (the same graph rows on the same ranks: the same PT-Scotch answer), but
 * the graph is built by rank 0, the only rank with the whole mesh (FcMeshLoadVolumeParted), and
 * its rows sent to their ranks; the numbering goes back to rank 0 alone, which then sends every
 * other rank its part of the mesh (FcMeshSendParts). No rank but 0 holds anything of the whole
 * mesh's size. */
PetscErrorCode FcAssemblyPartitionParted(MPI_Comm comm, FcMesh *mesh)
{
  PetscMPIInt     size, rank, *cnt = NULL, *dsp = NULL;
  PetscInt        nloc = PETSC_DECIDE, N = FcMeshNNodesAll(mesh), *ia = NULL, *ja = NULL, *lo = NULL, *perm = NULL, *nlocs = NULL;
  const PetscInt *num;
  IS              isnum;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(MeshCheck(mesh));
  PetscCall(PetscSplitOwnership(comm, &nloc, &N));
  PetscCall(PetscMalloc4(size + 1, &nlocs, size + 1, &lo, size + 1, &cnt, size + 1, &dsp));
  PetscCallMPI(MPI_Allgather(&nloc, 1, MPIU_INT, nlocs, 1, MPIU_INT, comm));
  if (!rank) { /* every rank's rows of the node graph, from the whole graph */
    PetscInt *gia, *gja, s = 0;
    PetscCall(NodeGraph_Private(mesh, 0, N, &gia, &gja));
    for (PetscMPIInt r = 0; r < size; r++) {
      PetscInt *ria, *rja, nnz = gia[s + nlocs[r]] - gia[s];
      PetscCall(PetscMalloc1(nlocs[r] + 1, &ria));
      PetscCall(PetscMalloc1(nnz + 1, &rja));
      for (PetscInt i = 0; i <= nlocs[r]; i++) ria[i] = gia[s + i] - gia[s];
      PetscCall(PetscArraycpy(rja, gja + gia[s], nnz));
      if (!r) {
        ia = ria;
        ja = rja;
      } else {
        PetscCallMPI(MPI_Send(&nnz, 1, MPIU_INT, r, 10, comm));
        PetscCallMPI(MPI_Send(ria, (PetscMPIInt)(nlocs[r] + 1), MPIU_INT, r, 11, comm));
        PetscCallMPI(MPI_Send(rja, (PetscMPIInt)nnz, MPIU_INT, r, 12, comm));
        PetscCall(PetscFree(ria));
        PetscCall(PetscFree(rja));
      }
      s += nlocs[r];
    }
    PetscCall(PetscFree(gia));
    PetscCall(PetscFree(gja));
  } else {
    PetscInt nnz;
    PetscCallMPI(MPI_Recv(&nnz, 1, MPIU_INT, 0, 10, comm, MPI_STATUS_IGNORE));
    PetscCall(PetscMalloc1(nloc + 1, &ia));
    PetscCall(PetscMalloc1(nnz + 1, &ja));
    PetscCallMPI(MPI_Recv(ia, (PetscMPIInt)(nloc + 1), MPIU_INT, 0, 11, comm, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(ja, (PetscMPIInt)nnz, MPIU_INT, 0, 12, comm, MPI_STATUS_IGNORE));
  }
  PetscCall(PartitionGraph_Private(comm, nloc, N, ia, ja, mesh, &isnum));
  /* the numbering of the even split's rows, to rank 0 in the mesh's order; the owned counts */
  PetscCallMPI(MPI_Allgather(&mesh->part_nown, 1, MPIU_INT, lo + 1, 1, MPIU_INT, comm));
  lo[0] = 0;
  for (PetscMPIInt r = 0; r < size; r++) lo[r + 1] += lo[r];
  for (PetscMPIInt r = 0, s = 0; r < size; r++) {
    cnt[r] = (PetscMPIInt)nlocs[r];
    dsp[r] = s;
    s += cnt[r];
  }
  if (!rank) PetscCall(PetscMalloc1(N + 1, &perm));
  PetscCall(ISGetIndices(isnum, &num));
  PetscCallMPI(MPI_Gatherv(num, (PetscMPIInt)nloc, MPIU_INT, perm, cnt, dsp, MPIU_INT, 0, comm));
  PetscCall(ISRestoreIndices(isnum, &num));
  PetscCall(ISDestroy(&isnum));
  PetscCall(FcMeshSendParts(mesh, perm, lo));
  if (!rank) {
    mesh->part_perm = perm; /* rank 0: the whole map, as FcAssemblyPartition's */
    PetscCall(PartitionMapsOf_Private(mesh, 0, 0, size));
  }
  PetscCall(PetscFree4(nlocs, lo, cnt, dsp));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssemblyComposeNatural(const FcMesh *mesh, Vec u)
{
  IS        is;
  PetscInt *idx;

  PetscFunctionBegin;
  if (!mesh->part_perm) PetscFunctionReturn(0);
  if (mesh->gnode) { /* a rank's part: no whole map here (NaturalWhole_Private refuses a whole copy) */
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 0, NULL, PETSC_COPY_VALUES, &is));
    PetscCall(PetscObjectCompose((PetscObject)u, FC_NATURAL_KEY, (PetscObject)is));
    PetscCall(ISDestroy(&is));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscMalloc1(3 * mesh->nnodes, &idx));
  for (PetscInt n = 0; n < mesh->nnodes; n++)
    for (int i = 0; i < 3; i++) idx[3 * n + i] = 3 * mesh->part_perm[n] + i;
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 3 * mesh->nnodes, idx, PETSC_OWN_POINTER, &is));
  PetscCall(PetscObjectCompose((PetscObject)u, FC_NATURAL_KEY, (PetscObject)is));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssemblyOwnedElements(const FcMesh *mesh, Vec u, PetscInt *n)
{
  ElemShare sh;
  PetscInt  rstart, rend;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(u, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, PetscObjectComm((PetscObject)u), rstart, rend, &sh));
  *n = 0;
  for (PetscInt e = sh.estart; e < sh.eend; e++) *n += ElementMine(mesh, &sh, e);
  PetscFunctionReturn(0);
}

/* Trim a partitioned mesh on a rank other than 0 to the elements the rank assembles and their
 * nodes (issue 29, doc/mpi.md "Meshes on several ranks"): what the steps read of it (the
 * assembly, the von Mises stress), numbered locally in the whole mesh's order, with gnode and
 * gelem back to the whole numbering. Every such element keeps its place in the order of the
 * rank's elements, so the direct-assembly map (FcAssemblySetUpDirect, by that order) stays
 * valid, and every sum is the one made before the trim: the same bits. The boundary faces and
 * groups go (the set-up read them), and u's natural map is emptied on this rank (NaturalWhole).
 * Rank 0 keeps the whole mesh: it writes the meshes and the VTK files. */
PetscErrorCode FcAssemblyTrim(FcMesh *mesh, Vec u)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)u);
  PetscMPIInt size, rank;
  PetscInt    rstart, rend, ne = 0, k = 0, *lnode, *conn, *elem_id, *gelem, *gnode, *perm, *node_id;
  PetscReal  *X;
  ElemShare   sh;
  IS          natural = NULL;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (size == 1 || !rank || !mesh->part_perm || mesh->trimmed) PetscFunctionReturn(0);
  PetscCall(VecGetOwnershipRange(u, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  PetscCall(PetscMalloc1(mesh->nnodes, &lnode));
  for (PetscInt m = 0; m < mesh->nnodes; m++) lnode[m] = -1;
  for (PetscInt e = sh.estart; e < sh.eend; e++)
    if (ElementMine(mesh, &sh, e)) {
      ne++;
      for (PetscInt a = 0; a < mesh->npe; a++) lnode[mesh->conn[e * mesh->npe + a]] = 0;
    }
  for (PetscInt m = 0; m < mesh->nnodes; m++)
    if (!lnode[m]) lnode[m] = k++;
  /* each array its own block: FcMeshDestroy (src/mesh) frees them one by one */
  PetscCall(PetscMalloc1(3 * k + 1, &X));
  PetscCall(PetscMalloc1(k + 1, &node_id));
  PetscCall(PetscMalloc1(k + 1, &perm));
  PetscCall(PetscMalloc1(k + 1, &gnode));
  for (PetscInt m = 0; m < mesh->nnodes; m++) {
    const PetscInt l = lnode[m];
    if (l < 0) continue;
    for (int i = 0; i < 3; i++) X[3 * l + i] = mesh->X[3 * m + i];
    node_id[l] = mesh->node_id ? mesh->node_id[m] : m;
    perm[l]    = mesh->part_perm[m];
    gnode[l]   = mesh->gnode ? mesh->gnode[m] : m; /* a part of a distributed mesh: its own map */
  }
  PetscCall(PetscMalloc1(ne * mesh->npe + 1, &conn));
  PetscCall(PetscMalloc1(ne + 1, &elem_id));
  PetscCall(PetscMalloc1(ne + 1, &gelem));
  for (PetscInt e = sh.estart, q = 0; e < sh.eend; e++) {
    if (!ElementMine(mesh, &sh, e)) continue;
    for (PetscInt a = 0; a < mesh->npe; a++) conn[q * mesh->npe + a] = lnode[mesh->conn[e * mesh->npe + a]];
    elem_id[q] = mesh->elem_id ? mesh->elem_id[e] : e;
    gelem[q++] = mesh->gelem ? mesh->gelem[e] : e;
  }
  {
    size_t before = sizeof(PetscInt) * ((size_t)mesh->nnodes * 2 + (size_t)mesh->nelems * (mesh->npe + 1) + (size_t)mesh->nbfaces * (mesh->npf + 1)) +
      sizeof(PetscReal) * 3 * (size_t)mesh->nnodes,
           after = sizeof(PetscInt) * ((size_t)k * 3 + (size_t)ne * (mesh->npe + 2)) + sizeof(PetscReal) * 3 * (size_t)k;
    for (PetscInt i = 0; i < mesh->ngroups; i++)
      before += sizeof(PetscInt) * (size_t)(mesh->groups[i].nnodes + mesh->groups[i].nfaces + mesh->groups[i].nelems);
    PetscCall(PetscInfo(NULL,
      "mesh %s trimmed on this rank: %" PetscInt_FMT " of %" PetscInt_FMT " nodes, %" PetscInt_FMT " of %" PetscInt_FMT
      " elements, %zu of %zu bytes (held: %" PetscInt_FMT " nodes, %" PetscInt_FMT " elements)\n",
      mesh->file, k, FcMeshNNodesAll(mesh), ne, FcMeshNElemsAll(mesh), after, before, mesh->nnodes, mesh->nelems));
  }
  PetscCall(PetscFree(lnode));
  for (PetscInt i = 0; i < mesh->ngroups; i++) {
    PetscCall(PetscFree(mesh->groups[i].nodes));
    PetscCall(PetscFree(mesh->groups[i].faces));
    PetscCall(PetscFree(mesh->groups[i].elems));
    PetscCall(PetscFree(mesh->groups[i].faces_at));
  }
  PetscCall(PetscFree(mesh->groups));
  mesh->ngroups = 0;
  PetscCall(PetscFree(mesh->bfaces));
  PetscCall(PetscFree(mesh->bface_elem));
  PetscCall(PetscFree(mesh->gface));
  mesh->nbfaces = 0;
  PetscCall(PetscFree(mesh->X));
  PetscCall(PetscFree(mesh->node_id));
  PetscCall(PetscFree(mesh->part_perm));
  PetscCall(PetscFree(mesh->conn));
  PetscCall(PetscFree(mesh->elem_id));
  PetscCall(PetscFree(mesh->gnode));
  PetscCall(PetscFree(mesh->gelem));
  if (!mesh->parted) {
    mesh->nnodes_all = mesh->nnodes;
    mesh->nelems_all = mesh->nelems;
  }
  mesh->trimmed   = PETSC_TRUE;
  mesh->X         = X;
  mesh->node_id   = node_id;
  mesh->part_perm = perm;
  mesh->gnode     = gnode;
  mesh->conn      = conn;
  mesh->elem_id   = elem_id;
  mesh->gelem     = gelem;
  mesh->nnodes    = k;
  mesh->nelems    = ne;
  PetscCall(PetscObjectQuery((PetscObject)u, FC_NATURAL_KEY, (PetscObject *)&natural));
  if (natural) PetscCall(ISGeneralSetIndices(natural, 0, &rstart, PETSC_COPY_VALUES));
  PetscFunctionReturn(0);
}

/* Coordinates, displacements (if ua) and global DoF indices of element e. */
static void ElementGather(const FcMesh *mesh, PetscInt e, const UAccess *ua, PetscReal *Xe, PetscReal *ue, PetscInt *idx)
{
  const PetscInt *nodes = mesh->conn + e * mesh->npe;

  for (PetscInt a = 0; a < mesh->npe; a++)
    for (int i = 0; i < 3; i++) {
      Xe[3 * a + i] = mesh->X[3 * nodes[a] + i];
      if (ue) ue[3 * a + i] = PetscRealPart(ua->a[3 * (ua->lnode ? ua->lnode[nodes[a]] : nodes[a]) + i]);
      if (idx) idx[3 * a + i] = 3 * NodeIndex(mesh, nodes[a]) + i;
    }
}

/* node → element table (CSR): the elements of node n are eln[off[n] .. off[n+1]). */
static PetscErrorCode NodeElements_Private(const FcMesh *mesh, PetscInt **off_, PetscInt **eln_)
{
  const PetscInt N = mesh->nnodes, npe = mesh->npe;
  PetscInt      *off, *eln, *pos;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(N + 1, &off));
  for (PetscInt k = 0; k < mesh->nelems * npe; k++) {
    const PetscInt n = mesh->conn[k];
    if (n < 0 || n >= N) PetscCall(PetscFree(off));
    PetscCheck(n >= 0 && n < N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Element %" PetscInt_FMT " refers to node %" PetscInt_FMT " of %" PetscInt_FMT,
      k / npe, n, N);
    off[n + 1]++;
  }
  for (PetscInt n = 0; n < N; n++) off[n + 1] += off[n];
  PetscCall(PetscMalloc1(off[N], &eln));
  PetscCall(PetscMalloc1(N, &pos));
  PetscCall(PetscArraycpy(pos, off, N));
  for (PetscInt e = 0; e < mesh->nelems; e++)
    for (PetscInt a = 0; a < npe; a++) eln[pos[mesh->conn[e * npe + a]]++] = e;
  PetscCall(PetscFree(pos));
  *off_ = off;
  *eln_ = eln;
  PetscFunctionReturn(0);
}

/* The mesh nodes of the distributed nodes [nstart, nend): ip[n − nstart] (NULL: the identity). */
static PetscErrorCode OwnedNodes_Private(const FcMesh *mesh, PetscInt nstart, PetscInt nend, PetscInt **ip)
{
  PetscFunctionBegin;
  *ip = NULL;
  if (!mesh->part_perm) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(nend - nstart + 1, ip));
  for (PetscInt m = 0; m < mesh->nnodes; m++)
    if (mesh->part_perm[m] >= nstart && mesh->part_perm[m] < nend) (*ip)[mesh->part_perm[m] - nstart] = m;
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssemblyCreateMatrix(MPI_Comm comm, const FcMesh *mesh, Mat *A)
{
  const PetscInt N = mesh->nnodes, npe = mesh->npe;
  PetscLayout    rmap, cmap;
  PetscInt       rstart, rend, nstart, nend, nown, *off = NULL, *eln = NULL, *ip = NULL, *marker, *dnnz, *onnz, *nbr, *rows, *cols, maxk = 0;
  PetscScalar   *zeros;

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  PetscCheck(!mesh->trimmed, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "A trimmed mesh (FcAssemblyTrim) has not every element around its nodes");
  PetscCall(MatCreate(comm, A));
  /* on several ranks the partition's sizes (FcAssemblyPartition), else PETSc's even split */
  if (mesh->part_perm) PetscCall(MatSetSizes(*A, 3 * mesh->part_nown, 3 * mesh->part_nown, 3 * FcMeshNNodesAll(mesh), 3 * FcMeshNNodesAll(mesh)));
  else PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, 3 * N, 3 * N));
  PetscCall(MatSetType(*A, MATAIJ));
  /* Block size before the layout is set up, so PETSc splits the rows by whole nodes. */
  PetscCall(MatSetBlockSize(*A, 3));
  PetscCall(MatGetLayouts(*A, &rmap, &cmap));
  PetscCall(PetscLayoutSetUp(rmap));
  PetscCall(PetscLayoutSetUp(cmap));
  PetscCall(PetscLayoutGetRange(rmap, &rstart, &rend));
  PetscCheck(rstart % 3 == 0 && rend % 3 == 0, comm, PETSC_ERR_PLIB, "Row ownership [%" PetscInt_FMT ", %" PetscInt_FMT ") not aligned to nodes", rstart, rend);
  nstart = rstart / 3;
  nend   = rend / 3;
  nown   = nend - nstart;
  PetscCall(NodeElements_Private(mesh, &off, &eln));
  PetscCall(OwnedNodes_Private(mesh, nstart, nend, &ip));

  /* Pass 1: count coupled nodes per owned node, split by column ownership. n: the distributed
   * index (row), nm: its mesh node; marker by mesh node. */
  PetscCall(PetscMalloc1(N, &marker));
  for (PetscInt n = 0; n < N; n++) marker[n] = -1;
  PetscCall(PetscMalloc2(3 * nown, &dnnz, 3 * nown, &onnz));
  for (PetscInt n = nstart; n < nend; n++) {
    const PetscInt nm = ip ? ip[n - nstart] : n;
    PetscInt       cd = 0, co = 0;
    for (PetscInt k = off[nm]; k < off[nm + 1]; k++) {
      const PetscInt *nodes = mesh->conn + eln[k] * npe;
      for (PetscInt a = 0; a < npe; a++) {
        const PetscInt m = nodes[a], mi = NodeIndex(mesh, m);
        if (marker[m] == n) continue;
        marker[m] = n;
        if (mi >= nstart && mi < nend) cd++;
        else co++;
      }
    }
    for (int i = 0; i < 3; i++) {
      dnnz[3 * (n - nstart) + i] = 3 * cd;
      onnz[3 * (n - nstart) + i] = 3 * co;
    }
    maxk = PetscMax(maxk, cd + co);
  }
  {
    PetscInt64 sd = 0, so = 0;
    for (PetscInt i = 0; i < 3 * nown; i++) {
      sd += dnnz[i];
      so += onnz[i];
    }
    PetscCall(
      PetscInfo(*A, "fcsim: rows [%" PetscInt_FMT ", %" PetscInt_FMT "): %" PetscInt64_FMT " nonzeros in the diagonal block, %" PetscInt64_FMT " off it\n",
        rstart, rend, sd, so));
  }
  /* Both calls, PETSc's idiom: each is a no-op for the other matrix type. */
  PetscCall(MatSeqAIJSetPreallocation(*A, 0, dnnz));
  PetscCall(MatMPIAIJSetPreallocation(*A, 0, dnnz, 0, onnz));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));

  /* Pass 2: insert the pattern as explicit zeros so the assembled matrix carries it (MatDuplicate,
   * MatAXPY with SAME_NONZERO_PATTERN, MatZeroRows keep it). */
  PetscCall(PetscMalloc4(maxk, &nbr, 3, &rows, 3 * maxk, &cols, 9 * maxk, &zeros));
  PetscCall(PetscArrayzero(zeros, 9 * maxk));
  for (PetscInt n = 0; n < N; n++) marker[n] = -1;
  for (PetscInt n = nstart; n < nend; n++) {
    const PetscInt nm = ip ? ip[n - nstart] : n;
    PetscInt       k  = 0;
    for (PetscInt j = off[nm]; j < off[nm + 1]; j++) {
      const PetscInt *nodes = mesh->conn + eln[j] * npe;
      for (PetscInt a = 0; a < npe; a++) {
        const PetscInt m = nodes[a];
        if (marker[m] == n) continue;
        marker[m] = n;
        nbr[k++]  = NodeIndex(mesh, m);
      }
    }
    PetscCall(PetscSortInt(k, nbr));
    for (PetscInt j = 0; j < k; j++)
      for (int i = 0; i < 3; i++) cols[3 * j + i] = 3 * nbr[j] + i;
    for (int i = 0; i < 3; i++) rows[i] = 3 * n + i;
    PetscCall(MatSetValues(*A, 3, rows, 3 * k, cols, zeros, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree4(nbr, rows, cols, zeros));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscCall(PetscFree(marker));
  PetscCall(PetscFree(ip));
  PetscCall(PetscFree(eln));
  PetscCall(PetscFree(off));
  PetscFunctionReturn(0);
}

/* ADD an element matrix with its rows/columns in increasing global order: MatSetValues for
 * AIJ then finds each row's columns in one forward scan instead of a search per value (the
 * element's node order is arbitrary). Node blocks of 3 DoFs keep their internal order. The rows
 * in [skip0, skip1) are left out (given as −1: DirectAdd_Private adds them itself). */
static PetscErrorCode AddElementMatrix_Private(
  Mat A, PetscInt npe, const PetscInt idx[], const PetscReal Ke[], PetscReal work[], PetscInt skip0, PetscInt skip1)
{
  PetscInt       perm[FC_MAX_NPE], sidx[3 * FC_MAX_NPE], rows[3 * FC_MAX_NPE];
  const PetscInt ndof = 3 * npe;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < npe; a++) perm[a] = a;
  for (PetscInt a = 1; a < npe; a++) /* insertion sort of the nodes by global DoF */
    for (PetscInt b = a; b > 0 && idx[3 * perm[b - 1]] > idx[3 * perm[b]]; b--) {
      PetscInt t  = perm[b];
      perm[b]     = perm[b - 1];
      perm[b - 1] = t;
    }
  for (PetscInt a = 0; a < npe; a++)
    for (int i = 0; i < 3; i++) {
      sidx[3 * a + i] = idx[3 * perm[a] + i];
      rows[3 * a + i] = sidx[3 * a + i] >= skip0 && sidx[3 * a + i] < skip1 ? -1 : sidx[3 * a + i];
    }
  for (PetscInt a = 0; a < npe; a++)
    for (int i = 0; i < 3; i++)
      for (PetscInt b = 0; b < npe; b++)
        for (int j = 0; j < 3; j++) work[(3 * a + i) * ndof + 3 * b + j] = Ke[(3 * perm[a] + i) * ndof + 3 * perm[b] + j];
  PetscCall(MatSetValues(A, ndof, rows, ndof, sidx, work, ADD_VALUES));
  PetscFunctionReturn(0);
}

/* Direct assembly (FcAssemblySetUpDirect), composed on the matrix: for every owned element, in
 * the order of the element loops below, and every entry (r, s) of its row-major ndof × ndof matrix
 * (the element's own node order), the entry's place in the matrix storage: p < nzd in the values
 * of the (diagonal block's) SeqAIJ, nzd + p in those of the off-diagonal block (MPIAIJ), −1 for a
 * row of another rank, which still goes through MatSetValues and PETSc's stash. Each entry is then
 * the sum of the same terms in the same order as by MatSetValues(ADD_VALUES) after
 * MatZeroEntries: the same bits (PETSc's MatSetValuesCOO sums in an order of its own: 1.5e-9 of
 * max|u| on cases/two_blocks.json, where test_mpi asks 1e-9 between 1 and 2 ranks). `mat` is the
 * matrix the map was made for (a duplicate that would inherit the composition falls back). */
#define FC_DIRECT_KEY "FcAssemblyDirect"
typedef struct {
  Mat              mat;
  PetscObjectState nzstate; /* the pattern the map was made for (MatGetNonzeroState) */
  PetscInt         nel, ndof, nzd, nzo;
  PetscInt        *pos;    /* nel · ndof² places */
  PetscBool        remote; /* some entry is in another rank's rows */
} DirectData;

static PetscErrorCode DirectDestroy_Private(void *ctx)
{
  DirectData *dd = (DirectData *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscFree(dd->pos));
  PetscCall(PetscFree(dd));
  PetscFunctionReturn(0);
}

/* The place of global column c in local row lr of the diagonal block (columns cstart + ja) or of
 * the off-diagonal one (columns garray[jb], increasing), −1 if absent. */
static PetscInt DirectPlace(PetscInt lr, PetscInt c, PetscInt cstart, PetscInt cend, const PetscInt *ia, const PetscInt *ja, const PetscInt *ib,
  const PetscInt *jb, const PetscInt *garray, PetscInt nzd)
{
  if (c >= cstart && c < cend) {
    for (PetscInt k = ia[lr]; k < ia[lr + 1]; k++)
      if (ja[k] == c - cstart) return k;
  } else if (ib) {
    for (PetscInt k = ib[lr]; k < ib[lr + 1]; k++)
      if (garray[jb[k]] == c) return nzd + k;
  }
  return -1;
}

static PetscErrorCode DirectMap_Private(const FcMesh *mesh, Mat A, DirectData *dd)
{
  Mat             Ad = A, Ao = NULL;
  const PetscInt *garray = NULL, *ia, *ja, *ib = NULL, *jb = NULL;
  PetscInt        rstart, rend, cstart, cend, n, idx[3 * FC_MAX_NPE], k = 0;
  PetscReal       Xe[3 * FC_MAX_NPE];
  PetscBool       mpi, done;
  ElemShare       sh;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(A, &cstart, &cend));
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "No CSR access to the matrix");
  dd->nzd = ia[n];
  dd->nzo = 0;
  if (Ao) {
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &ib, &jb, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "No CSR access to the matrix");
    dd->nzo = ib[n];
  }
  dd->remote = PETSC_FALSE;
  PetscCall(ElementShare_Private(mesh, PetscObjectComm((PetscObject)A), rstart, rend, &sh));
  for (PetscInt e = sh.estart; e < sh.eend; e++) {
    if (!ElementMine(mesh, &sh, e)) continue;
    ElementGather(mesh, e, NULL, Xe, NULL, idx);
    for (PetscInt r = 0; r < dd->ndof; r++)
      for (PetscInt c = 0; c < dd->ndof; c++, k++) {
        if (idx[r] < rstart || idx[r] >= rend) {
          dd->pos[k] = -1;
          dd->remote = PETSC_TRUE;
          continue;
        }
        dd->pos[k] = DirectPlace(idx[r] - rstart, idx[c], cstart, cend, ia, ja, ib, jb, garray, dd->nzd);
        PetscCheck(dd->pos[k] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Entry (%" PetscInt_FMT ", %" PetscInt_FMT ") not in the matrix pattern", idx[r], idx[c]);
      }
  }
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  if (Ao) PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_FALSE, &n, &ib, &jb, &done));
  PetscCall(MatGetNonzeroState(A, &dd->nzstate));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssemblySetUpDirect(const FcMesh *mesh, Mat A)
{
  ElemShare      sh;
  PetscInt       rstart, rend;
  DirectData    *dd;
  PetscContainer c;

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  PetscCall(PetscNew(&dd));
  dd->mat  = A;
  dd->ndof = 3 * mesh->npe;
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, PetscObjectComm((PetscObject)A), rstart, rend, &sh));
  for (PetscInt e = sh.estart; e < sh.eend; e++) dd->nel += ElementMine(mesh, &sh, e);
  PetscCall(PetscMalloc1((size_t)dd->nel * dd->ndof * dd->ndof, &dd->pos));
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, dd));
  PetscCall(PetscContainerSetUserDestroy(c, DirectDestroy_Private));
  PetscCall(PetscObjectCompose((PetscObject)A, FC_DIRECT_KEY, (PetscObject)c));
  PetscCall(PetscContainerDestroy(&c));
  PetscCall(DirectMap_Private(mesh, A, dd));
  PetscFunctionReturn(0);
}

/* An assembly into A by its map (dd NULL: A has none, MatSetValues it is): the values zeroed. */
typedef struct {
  DirectData  *dd;
  Mat          Ad, Ao;
  PetscScalar *ad, *ao;
} Direct;

static PetscErrorCode DirectBegin_Private(const FcMesh *mesh, Mat A, Direct *D)
{
  PetscContainer   c = NULL;
  PetscObjectState st;
  PetscBool        mpi;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(D, sizeof *D));
  PetscCall(PetscObjectQuery((PetscObject)A, FC_DIRECT_KEY, (PetscObject *)&c));
  if (c) PetscCall(PetscContainerGetPointer(c, (void **)&D->dd));
  if (!D->dd || D->dd->mat != A) {
    D->dd = NULL;
    PetscFunctionReturn(0);
  }
  PetscCall(MatGetNonzeroState(A, &st));
  if (st != D->dd->nzstate) PetscCall(DirectMap_Private(mesh, A, D->dd)); /* a new pattern: a new map */
  D->Ad = A;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &D->Ad, &D->Ao, NULL));
  PetscCall(MatSeqAIJGetArray(D->Ad, &D->ad));
  PetscCall(PetscArrayzero(D->ad, D->dd->nzd));
  if (D->Ao) {
    PetscCall(MatSeqAIJGetArray(D->Ao, &D->ao));
    PetscCall(PetscArrayzero(D->ao, D->dd->nzo));
  }
  PetscFunctionReturn(0);
}

/* Element q's matrix Ke added at its places; its rows of other ranks by MatSetValues, in the
 * order the MatSetValues assembly gave them to PETSc's stash, which sorts and sums them before
 * sending (an unstable sort: another order, other round-off): work NULL, the element's own (the
 * mass), else sorted by AddElementMatrix_Private (the stiffness). */
static PetscErrorCode DirectAdd_Private(Mat A, Direct *D, PetscInt q, const PetscInt idx[], const PetscReal Ke[], PetscReal work[])
{
  const PetscInt  ndof = D->dd->ndof, nzd = D->dd->nzd;
  const PetscInt *pos = D->dd->pos + (size_t)q * ndof * ndof;
  PetscInt        rows[3 * FC_MAX_NPE], rstart, rend;
  PetscBool       remote = PETSC_FALSE;

  PetscFunctionBegin;
  if (!D->Ao) { /* one rank: every place in the one SeqAIJ (the loop without a branch) */
    for (PetscInt k = 0; k < ndof * ndof; k++) D->ad[pos[k]] += Ke[k];
    PetscFunctionReturn(0);
  }
  for (PetscInt k = 0; k < ndof * ndof; k++) {
    const PetscInt p = pos[k];
    if (p >= nzd) D->ao[p - nzd] += Ke[k];
    else if (p >= 0) D->ad[p] += Ke[k];
  }
  if (!D->dd->remote) PetscFunctionReturn(0);
  for (PetscInt r = 0; r < ndof; r++) { /* MatSetValues skips the rows given as −1: the local ones */
    rows[r] = pos[r * ndof] < 0 ? idx[r] : -1;
    remote  = (PetscBool)(remote || rows[r] >= 0);
  }
  if (!remote) PetscFunctionReturn(0);
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  if (work) PetscCall(AddElementMatrix_Private(A, ndof / 3, idx, Ke, work, rstart, rend));
  else PetscCall(MatSetValues(A, ndof, rows, ndof, idx, Ke, ADD_VALUES));
  PetscFunctionReturn(0);
}

static PetscErrorCode DirectEnd_Private(Mat A, Direct *D)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(MatSeqAIJRestoreArray(D->Ad, &D->ad));
  if (D->Ao) PetscCall(MatSeqAIJRestoreArray(D->Ao, &D->ao));
  /* several ranks: the stash's rows of other ranks (collective); one rank: the pattern is the
   * assembled one and RestoreArray marked the values changed */
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (size > 1) {
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* Internal force, stiffness and energy at u, with every element's frame taken from uframe when
 * it is given (the lagged frame of `corotational_lagged`, han2023 §V-B: R̂ = R0, the polar
 * rotation of the element's deformation gradient at the start of the step), else from u. */
static PetscErrorCode AssembleInternal_Private(const FcMesh *mesh, FcMaterial mat, Vec u, Vec uframe, PetscReal *energy, Vec fint, Mat K)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)u);
  UAccess        ua, uf;
  ElemShare      sh;
  PetscInt       rstart, rend, idx[3 * FC_MAX_NPE], nbad = 0, nbad_all = 0;
  PetscReal      Xe[3 * FC_MAX_NPE], ue[3 * FC_MAX_NPE], ufe[3 * FC_MAX_NPE], fe[3 * FC_MAX_NPE], R[9], *Ke = NULL, *Kw = NULL, We, Wsum = 0;
  Direct         D    = {0};
  const PetscInt ndof = 3 * mesh->npe;

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  if (fint) PetscCall(VecZeroEntries(fint));
  if (K) {
    PetscCall(PetscMalloc2(ndof * ndof, &Ke, ndof * ndof, &Kw));
    PetscCall(DirectBegin_Private(mesh, K, &D));
    if (!D.dd) PetscCall(MatZeroEntries(K));
  }
  PetscCall(VecGetOwnershipRange(u, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  PetscCall(UAccessBegin(mesh, u, &ua));
  if (uframe) PetscCall(UAccessBegin(mesh, uframe, &uf));
  for (PetscInt e = sh.estart, q = 0; e < sh.eend; e++) {
    PetscBool ok;
    if (!ElementMine(mesh, &sh, e)) continue;
    ElementGather(mesh, e, &ua, Xe, ue, idx);
    if (uframe) PetscCall(FcElementAdmissible(mat, mesh->order, Xe, ue, &ok));
    else PetscCall(FcElementInternalChecked(mat, mesh->order, Xe, ue, energy ? &We : NULL, fint ? fe : NULL, Ke, &ok)); /* the check inside */
    if (!ok) { /* inverted element: the state is inadmissible (fem.h), skip it */
      nbad++;
      q++;
      continue;
    }
    if (uframe) {
      ElementGather(mesh, e, &uf, Xe, ufe, NULL);
      PetscCall(FcElementFrame(mat, mesh->order, Xe, ufe, R));
      PetscCall(FcElementInternalFrame(mat, mesh->order, Xe, ue, R, energy ? &We : NULL, fint ? fe : NULL, Ke));
    }
    if (energy) Wsum += We;
    if (fint) PetscCall(VecSetValues(fint, ndof, idx, fe, ADD_VALUES));
    if (K && D.dd) PetscCall(DirectAdd_Private(K, &D, q, idx, Ke, Kw));
    else if (K) PetscCall(AddElementMatrix_Private(K, mesh->npe, idx, Ke, Kw, 0, 0));
    q++;
  }
  if (uframe) PetscCall(UAccessEnd(&uf));
  PetscCall(UAccessEnd(&ua));
  PetscCall(PetscFree2(Ke, Kw));
  if (fint) {
    PetscCall(VecAssemblyBegin(fint));
    PetscCall(VecAssemblyEnd(fint));
  }
  if (D.dd) PetscCall(DirectEnd_Private(K, &D));
  else if (K) {
    PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  }
  if (energy) PetscCall(MPIU_Allreduce(&Wsum, energy, 1, MPIU_REAL, MPIU_SUM, comm));
  PetscCall(MPIU_Allreduce(&nbad, &nbad_all, 1, MPIU_INT, MPI_SUM, comm));
  if (nbad_all) {
    if (energy) *energy = PETSC_INFINITY;
    if (fint) PetscCall(VecSet(fint, PETSC_INFINITY));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssembleInternal(const FcMesh *mesh, FcMaterial mat, Vec u, PetscReal *energy, Vec fint, Mat K)
{
  PetscFunctionBegin;
  PetscCall(AssembleInternal_Private(mesh, mat, u, NULL, energy, fint, K));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssembleInternalLagged(const FcMesh *mesh, FcMaterial mat, Vec u, Vec uframe, PetscReal *energy, Vec fint, Mat K)
{
  PetscFunctionBegin;
  PetscCall(AssembleInternal_Private(mesh, mat, u, uframe, energy, fint, K));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssembleMass(const FcMesh *mesh, PetscReal rho, Mat M)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)M);
  ElemShare sh;
  PetscInt  rstart, rend, idx[3 * FC_MAX_NPE];
  /* on the stack (7.2 kB for tet10): an error inside the loop (a degenerate element) then
   * leaks nothing, where a heap copy freed after the loop would be lost */
  PetscReal      Xe[3 * FC_MAX_NPE], Me[9 * FC_MAX_NPE * FC_MAX_NPE];
  Direct         D;
  const PetscInt ndof = 3 * mesh->npe;

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  PetscCall(DirectBegin_Private(mesh, M, &D));
  if (!D.dd) PetscCall(MatZeroEntries(M));
  PetscCall(MatGetOwnershipRange(M, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  for (PetscInt e = sh.estart, q = 0; e < sh.eend; e++) {
    if (!ElementMine(mesh, &sh, e)) continue;
    ElementGather(mesh, e, NULL, Xe, NULL, idx);
    PetscCall(FcElementMass(mesh->order, Xe, rho, Me));
    if (D.dd) PetscCall(DirectAdd_Private(M, &D, q++, idx, Me, NULL));
    else PetscCall(MatSetValues(M, ndof, idx, ndof, idx, Me, ADD_VALUES));
  }
  if (D.dd) PetscCall(DirectEnd_Private(M, &D));
  else {
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssembleBodyForce(const FcMesh *mesh, PetscReal rho, const PetscReal g[3], Vec f)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)f);
  ElemShare      sh;
  PetscInt       rstart, rend, idx[3 * FC_MAX_NPE];
  PetscReal      Xe[3 * FC_MAX_NPE], fe[3 * FC_MAX_NPE];
  const PetscInt ndof = 3 * mesh->npe;

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  if (rho == 0 || (g[0] == 0 && g[1] == 0 && g[2] == 0)) PetscFunctionReturn(0);
  PetscCall(VecGetOwnershipRange(f, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  for (PetscInt e = sh.estart; e < sh.eend; e++) {
    if (!ElementMine(mesh, &sh, e)) continue;
    ElementGather(mesh, e, NULL, Xe, NULL, idx);
    PetscCall(FcElementBodyForce(mesh->order, Xe, rho, g, fe));
    PetscCall(VecSetValues(f, ndof, idx, fe, ADD_VALUES));
  }
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

/* Surface loads on boundary faces (tri3/tri6, Gmsh order, corners oriented so that
 * a1 × a2 = ∂x/∂ξ × ∂x/∂η points outward; |a1 × a2| dξ dη = dA). Rule of degree 2 (tri3) or
 * 4 (tri6): ∫ N_a (a1 × a2) is then exact even on a curved tri6 (N quadratic, a1 × a2
 * quadratic), so a pressure on a closed surface has exactly zero resultant; a traction is
 * exact on flat faces. pressure == PETSC_TRUE: load −p n, else the traction t. */
static PetscErrorCode AssembleFaces(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, PetscBool pressure, const PetscReal t[3], PetscReal p, Vec f)
{
  MPI_Comm       comm = PetscObjectComm((PetscObject)f);
  const PetscInt npf = mesh->npf, order = npf == 3 ? 1 : 2;
  FcQuadrature   q;
  PetscInt       fstart, fend, idx[18], rstart, rend;
  PetscReal      Xf[18], fe[18], N[6], dN[12];
  ElemShare      sh;

  PetscFunctionBegin;
  PetscCheck(npf == 3 || npf == 6, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Boundary faces with %" PetscInt_FMT " nodes", npf);
  PetscCall(FcTriQuadrature(2 * order, &q));
  /* a distributed mesh: each rank the faces of the elements it assembles (each face on one rank);
   * else a contiguous share of the list */
  if (mesh->parted) {
    fstart = 0;
    fend   = nfaces;
    PetscCall(VecGetOwnershipRange(f, &rstart, &rend));
    PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  } else PetscCall(LocalRange(comm, nfaces, &fstart, &fend));
  for (PetscInt k = fstart; k < fend; k++) {
    const PetscInt  fi = faces[k];
    const PetscInt *nodes;
    PetscCheck(fi >= 0 && fi < mesh->nbfaces, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Boundary face %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")",
      fi, mesh->nbfaces);
    if (mesh->parted && !ElementMine(mesh, &sh, mesh->bface_elem[fi])) continue;
    nodes = mesh->bfaces + fi * npf;
    for (PetscInt a = 0; a < npf; a++)
      for (int i = 0; i < 3; i++) {
        Xf[3 * a + i]  = mesh->X[3 * nodes[a] + i];
        idx[3 * a + i] = 3 * NodeIndex(mesh, nodes[a]) + i;
      }
    PetscCall(PetscArrayzero(fe, 3 * npf));
    for (PetscInt g = 0; g < q.n; g++) {
      PetscReal a1[3] = {0, 0, 0}, a2[3] = {0, 0, 0}, n[3], load[3];
      FcTriShape(order, &q.xi[2 * g], N, dN);
      for (PetscInt a = 0; a < npf; a++)
        for (int i = 0; i < 3; i++) {
          a1[i] += Xf[3 * a + i] * dN[2 * a];
          a2[i] += Xf[3 * a + i] * dN[2 * a + 1];
        }
      n[0] = a1[1] * a2[2] - a1[2] * a2[1];
      n[1] = a1[2] * a2[0] - a1[0] * a2[2];
      n[2] = a1[0] * a2[1] - a1[1] * a2[0];
      if (pressure) {
        for (int i = 0; i < 3; i++) load[i] = -p * n[i];
      } else {
        const PetscReal dA = PetscSqrtReal(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < 3; i++) load[i] = t[i] * dA;
      }
      for (PetscInt a = 0; a < npf; a++)
        for (int i = 0; i < 3; i++) fe[3 * a + i] += q.w[g] * N[a] * load[i];
    }
    PetscCall(VecSetValues(f, 3 * npf, idx, fe, ADD_VALUES));
  }
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssembleTraction(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, const PetscReal t[3], Vec f)
{
  PetscFunctionBegin;
  PetscCall(AssembleFaces(mesh, nfaces, faces, PETSC_FALSE, t, 0, f));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAssemblePressure(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, PetscReal p, Vec f)
{
  PetscFunctionBegin;
  PetscCall(AssembleFaces(mesh, nfaces, faces, PETSC_TRUE, NULL, p, f));
  PetscFunctionReturn(0);
}

/* Several ranks: each rank sets the stress of the elements it assembles, by the whole mesh's
 * element index (gelem on a trimmed mesh), into vm, a vector of every element of the mesh: its
 * rows are then where the writer wants them (run.h5's blocks, doc/mpi.md), and no rank sums an
 * array of every element as FcComputeVonMises does. Collective. */
PetscErrorCode FcComputeVonMisesVec(const FcMesh *mesh, FcMaterial mat, Vec u, Vec vm)
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)u);
  UAccess   ua;
  ElemShare sh;
  PetscInt  rstart, rend, n;
  PetscReal Xe[3 * FC_MAX_NPE], ue[3 * FC_MAX_NPE], sigma[9];

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  PetscCall(VecGetSize(vm, &n));
  PetscCheck(n == FcMeshNElemsAll(mesh), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "von Mises vector of size %" PetscInt_FMT ", mesh has %" PetscInt_FMT " elements",
    n, FcMeshNElemsAll(mesh));
  PetscCall(VecGetOwnershipRange(u, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  PetscCall(UAccessBegin(mesh, u, &ua));
  for (PetscInt e = sh.estart; e < sh.eend; e++) {
    if (!ElementMine(mesh, &sh, e)) continue;
    ElementGather(mesh, e, &ua, Xe, ue, NULL);
    PetscCall(FcElementCauchy(mat, mesh->order, Xe, ue, sigma));
    PetscCall(VecSetValue(vm, mesh->gelem ? mesh->gelem[e] : e, FcMat3VonMises(sigma), INSERT_VALUES));
  }
  PetscCall(UAccessEnd(&ua));
  PetscCall(VecAssemblyBegin(vm));
  PetscCall(VecAssemblyEnd(vm));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComputeVonMises(const FcMesh *mesh, FcMaterial mat, Vec u, PetscReal *vm)
{
  MPI_Comm    comm = PetscObjectComm((PetscObject)u);
  UAccess     ua;
  ElemShare   sh;
  PetscInt    rstart, rend;
  PetscMPIInt size;
  PetscReal   Xe[3 * FC_MAX_NPE], ue[3 * FC_MAX_NPE], sigma[9];

  PetscFunctionBegin;
  PetscCall(MeshCheck(mesh));
  PetscCheck(!mesh->gnode, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "A trimmed mesh's von Mises stress is a vector (FcComputeVonMisesVec)");
  PetscCall(PetscArrayzero(vm, mesh->nelems));
  PetscCall(VecGetOwnershipRange(u, &rstart, &rend));
  PetscCall(ElementShare_Private(mesh, comm, rstart, rend, &sh));
  PetscCall(UAccessBegin(mesh, u, &ua));
  for (PetscInt e = sh.estart; e < sh.eend; e++) {
    if (!ElementMine(mesh, &sh, e)) continue;
    ElementGather(mesh, e, &ua, Xe, ue, NULL);
    PetscCall(FcElementCauchy(mat, mesh->order, Xe, ue, sigma));
    vm[e] = FcMat3VonMises(sigma);
  }
  PetscCall(UAccessEnd(&ua));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  if (size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, vm, (PetscMPIInt)mesh->nelems, MPIU_REAL, MPIU_SUM, comm));
  PetscFunctionReturn(0);
}
