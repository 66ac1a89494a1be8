/* fcsim — a mesh distributed over MPI ranks (issue 29; doc/mpi.md "Meshes on several ranks",
 * "The distributed set-up"): rank 0 reads the file and keeps the whole mesh (it writes the meshes
 * and the VTK files); every other rank receives the header (counts, the physical groups' names and
 * sizes) and then, once the nodes are partitioned (FcAssemblyPartitionParted, src/fem), only its
 * part: the elements with a node it owns, their nodes, their boundary faces and the groups
 * restricted to them, numbered locally in the whole mesh's order (FcMesh.gnode, gelem).
 *
 * Before, every rank received the whole mesh (mesh_share.c) and held it for the whole run: O(mesh)
 * per rank. Entry points are collective on PETSC_COMM_WORLD. */
#include "mesh_impl.h"

/* The header of rank 0's mesh to the other ranks: counts, file, order, the groups' names, dims,
 * tags and whole sizes (FcMeshGroup.*_all); their lists come with the parts. */
PetscErrorCode FcMeshShareHeader_Private(FcMesh *mesh)
{
  PetscMPIInt rank;
  PetscInt    n[7], ng;

  PetscFunctionBegin;
  (void)FcMeshShared_Private(&rank);
  PetscCall(FcMeshShareCounts_Private(mesh, PETSC_TRUE, n));
  ng = n[6];
  PetscCall(FcMeshShareGroupHeads_Private(mesh, rank, ng, PETSC_TRUE));
  mesh->parted = PETSC_TRUE;
  mesh->fault  = FC_MESH_FAULT_NONE;
  PetscFunctionReturn(0);
}

/* The part of rank r, cut from the whole mesh on rank 0: the elements with a node whose
 * distributed index is in [lo, hi), in the whole mesh's order, their nodes (increasing), their
 * boundary faces and the groups restricted to them. ints: a header (k nodes, ne elements, nbf
 * faces, nown, nblock, then each group's three counts) and the lists; reals: X. */
typedef struct {
  PetscInt  *iv, ni, *hdr, nh;
  PetscReal *rv;
  PetscInt   nr;
} Part;

static PetscErrorCode CutPart_Private(
  const FcMesh *mesh, const PetscInt perm[], PetscInt lo, PetscInt hi, PetscInt a, PetscInt z, PetscInt *nmap, PetscInt *emap, PetscInt *fmap, Part *P)
{
  const PetscInt npe = mesh->npe, npf = mesh->npf, ng = mesh->ngroups;
  PetscInt       k = 0, ne = 0, nbf = 0, w = 0;

  PetscFunctionBegin;
  for (PetscInt m = 0; m < mesh->nnodes; m++) nmap[m] = -1;
  for (PetscInt e = 0; e < mesh->nelems; e++) {
    emap[e] = -1;
    for (PetscInt j = 0; j < npe; j++) {
      const PetscInt p = perm[mesh->conn[e * npe + j]];
      if (p >= lo && p < hi) {
        emap[e] = ne++;
        break;
      }
    }
    for (PetscInt j = 0; emap[e] >= 0 && j < npe; j++) nmap[mesh->conn[e * npe + j]] = 0;
  }
  for (PetscInt m = 0; m < mesh->nnodes; m++)
    if (!nmap[m]) nmap[m] = k++;
  for (PetscInt f = 0; f < mesh->nbfaces; f++) fmap[f] = emap[mesh->bface_elem[f]] >= 0 ? nbf++ : -1;
  P->nh = 5 + 3 * ng;
  PetscCall(PetscMalloc1(P->nh, &P->hdr));
  P->hdr[0] = k;
  P->hdr[1] = ne;
  P->hdr[2] = nbf;
  P->hdr[3] = hi - lo;
  P->hdr[4] = z - a;
  P->ni     = 3 * k + ne * (npe + 2) + nbf * (npf + 2) + (hi - lo) + (z - a);
  for (PetscInt i = 0; i < ng; i++) {
    const FcMeshGroup *g    = &mesh->groups[i];
    PetscInt           c[3] = {0, 0, 0};
    for (PetscInt j = 0; j < g->nnodes; j++) c[0] += nmap[g->nodes[j]] >= 0;
    for (PetscInt j = 0; j < g->nfaces; j++) c[1] += fmap[g->faces[j]] >= 0;
    for (PetscInt j = 0; j < g->nelems; j++) c[2] += emap[g->elems[j]] >= 0;
    for (int t = 0; t < 3; t++) P->hdr[5 + 3 * i + t] = c[t];
    P->ni += c[0] + 2 * c[1] + c[2]; /* the faces with their places in the whole group's list */
  }
  P->nr = 3 * k;
  PetscCall(PetscMalloc2(P->ni + 1, &P->iv, P->nr + 1, &P->rv));
  for (PetscInt m = 0; m < mesh->nnodes; m++) /* gnode, part_perm, node_id, X */
    if (nmap[m] >= 0) {
      P->iv[nmap[m]]         = m;
      P->iv[k + nmap[m]]     = perm[m];
      P->iv[2 * k + nmap[m]] = mesh->node_id ? mesh->node_id[m] : m;
      for (int c = 0; c < 3; c++) P->rv[3 * nmap[m] + c] = mesh->X[3 * m + c];
    }
  w = 3 * k;
  for (PetscInt e = 0; e < mesh->nelems; e++) /* conn, elem_id, gelem */
    if (emap[e] >= 0) {
      for (PetscInt j = 0; j < npe; j++) P->iv[w + emap[e] * npe + j] = nmap[mesh->conn[e * npe + j]];
      P->iv[w + ne * npe + emap[e]]       = mesh->elem_id ? mesh->elem_id[e] : e;
      P->iv[w + ne * (npe + 1) + emap[e]] = e;
    }
  w += ne * (npe + 2);
  for (PetscInt f = 0; f < mesh->nbfaces; f++) /* bfaces, bface_elem, gface */
    if (fmap[f] >= 0) {
      for (PetscInt j = 0; j < npf; j++) P->iv[w + fmap[f] * npf + j] = nmap[mesh->bfaces[f * npf + j]];
      P->iv[w + nbf * npf + fmap[f]]       = emap[mesh->bface_elem[f]];
      P->iv[w + nbf * (npf + 1) + fmap[f]] = f;
    }
  w += nbf * (npf + 2);
  for (PetscInt i = 0; i < ng; i++) { /* the groups' lists, local and increasing as the whole ones */
    const FcMeshGroup *g = &mesh->groups[i];
    for (PetscInt j = 0; j < g->nnodes; j++)
      if (nmap[g->nodes[j]] >= 0) P->iv[w++] = nmap[g->nodes[j]];
    for (PetscInt j = 0; j < g->nfaces; j++)
      if (fmap[g->faces[j]] >= 0) P->iv[w++] = fmap[g->faces[j]];
    for (PetscInt j = 0; j < g->nfaces; j++)
      if (fmap[g->faces[j]] >= 0) P->iv[w++] = j; /* faces_at */
    for (PetscInt j = 0; j < g->nelems; j++)
      if (emap[g->elems[j]] >= 0) P->iv[w++] = emap[g->elems[j]];
  }
  for (PetscInt m = 0; m < mesh->nnodes; m++) /* part_own: the mesh node of each owned node */
    if (perm[m] >= lo && perm[m] < hi) P->iv[w + perm[m] - lo] = m;
  w += hi - lo;
  for (PetscInt m = a; m < z; m++) P->iv[w++] = perm[m]; /* part_block */
  PetscFunctionReturn(0);
}

static PetscErrorCode AllocCopy_Private(PetscInt n, const PetscInt *src, PetscInt **dst)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n + 1, dst));
  PetscCall(PetscArraycpy(*dst, src, n));
  PetscFunctionReturn(0);
}

/* A received part into *mesh (its header from FcMeshShareHeader_Private). */
static PetscErrorCode UsePart_Private(FcMesh *mesh, const Part *P)
{
  const PetscInt  k = P->hdr[0], ne = P->hdr[1], nbf = P->hdr[2], nown = P->hdr[3], nblock = P->hdr[4], npe = mesh->npe, npf = mesh->npf;
  const PetscInt *iv = P->iv;

  PetscFunctionBegin;
  mesh->nnodes  = k;
  mesh->nelems  = ne;
  mesh->nbfaces = nbf;
  PetscCall(AllocCopy_Private(k, iv, &mesh->gnode));
  PetscCall(AllocCopy_Private(k, iv + k, &mesh->part_perm));
  PetscCall(AllocCopy_Private(k, iv + 2 * k, &mesh->node_id));
  PetscCall(PetscMalloc1(3 * k + 1, &mesh->X));
  PetscCall(PetscArraycpy(mesh->X, P->rv, 3 * k));
  iv += 3 * k;
  PetscCall(AllocCopy_Private(ne * npe, iv, &mesh->conn));
  PetscCall(AllocCopy_Private(ne, iv + ne * npe, &mesh->elem_id));
  PetscCall(AllocCopy_Private(ne, iv + ne * (npe + 1), &mesh->gelem));
  iv += ne * (npe + 2);
  PetscCall(AllocCopy_Private(nbf * npf, iv, &mesh->bfaces));
  PetscCall(AllocCopy_Private(nbf, iv + nbf * npf, &mesh->bface_elem));
  PetscCall(AllocCopy_Private(nbf, iv + nbf * (npf + 1), &mesh->gface));
  iv += nbf * (npf + 2);
  for (PetscInt i = 0; i < mesh->ngroups; i++) {
    FcMeshGroup *g = &mesh->groups[i];
    g->nnodes      = P->hdr[5 + 3 * i];
    g->nfaces      = P->hdr[5 + 3 * i + 1];
    g->nelems      = P->hdr[5 + 3 * i + 2];
    /* FcMeshDestroy frees each list: NULL when empty, as the reader leaves them */
    if (g->nnodes) PetscCall(AllocCopy_Private(g->nnodes, iv, &g->nodes));
    iv += g->nnodes;
    if (g->nfaces) PetscCall(AllocCopy_Private(g->nfaces, iv, &g->faces));
    iv += g->nfaces;
    if (g->nfaces) PetscCall(AllocCopy_Private(g->nfaces, iv, &g->faces_at));
    iv += g->nfaces;
    if (g->nelems) PetscCall(AllocCopy_Private(g->nelems, iv, &g->elems));
    iv += g->nelems;
  }
  mesh->part_nown = nown;
  PetscCall(PetscMalloc2(nown + 1, &mesh->part_own, nblock + 1, &mesh->part_block));
  PetscCall(PetscArraycpy(mesh->part_own, iv, nown));
  PetscCall(PetscArraycpy(mesh->part_block, iv + nown, nblock));
  PetscFunctionReturn(0);
}

static PetscErrorCode PartFree_Private(Part *P)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(P->hdr));
  PetscCall(PetscFree2(P->iv, P->rv));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshSendParts(FcMesh *mesh, const PetscInt perm[], const PetscInt lo[])
{
  PetscMPIInt size, rank;
  Part        P;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscMemzero(&P, sizeof P));
  if (!rank) {
    const PetscInt N = mesh->nnodes;
    PetscInt      *nmap, *emap, *fmap;
    PetscCall(PetscMalloc3(N + 1, &nmap, mesh->nelems + 1, &emap, mesh->nbfaces + 1, &fmap));
    for (PetscMPIInt r = 1; r < size; r++) {
      PetscInt n[3];
      PetscCall(
        CutPart_Private(mesh, perm, lo[r], lo[r + 1], (PetscInt)((PetscInt64)N * r / size), (PetscInt)((PetscInt64)N * (r + 1) / size), nmap, emap, fmap, &P));
      n[0] = P.nh;
      n[1] = P.ni;
      n[2] = P.nr;
      PetscCallMPI(MPI_Send(n, 3, MPIU_INT, r, 0, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Send(P.hdr, (PetscMPIInt)P.nh, MPIU_INT, r, 1, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Send(P.iv, (PetscMPIInt)P.ni, MPIU_INT, r, 2, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Send(P.rv, (PetscMPIInt)P.nr, MPIU_REAL, r, 3, PETSC_COMM_WORLD));
      PetscCall(
        PetscInfo(NULL, "mesh %s: rank %d's part, %" PetscInt_FMT " of %" PetscInt_FMT " nodes and %" PetscInt_FMT " of %" PetscInt_FMT " elements, sent\n",
          mesh->file, (int)r, P.hdr[0], N, P.hdr[1], mesh->nelems));
      PetscCall(PartFree_Private(&P));
    }
    PetscCall(PetscFree3(nmap, emap, fmap));
  } else {
    PetscInt n[3];
    PetscCallMPI(MPI_Recv(n, 3, MPIU_INT, 0, 0, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    P.nh = n[0];
    P.ni = n[1];
    P.nr = n[2];
    PetscCall(PetscMalloc1(P.nh, &P.hdr));
    PetscCall(PetscMalloc2(P.ni + 1, &P.iv, P.nr + 1, &P.rv));
    PetscCallMPI(MPI_Recv(P.hdr, (PetscMPIInt)P.nh, MPIU_INT, 0, 1, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(P.iv, (PetscMPIInt)P.ni, MPIU_INT, 0, 2, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(P.rv, (PetscMPIInt)P.nr, MPIU_REAL, 0, 3, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    PetscCall(UsePart_Private(mesh, &P));
    PetscCall(PartFree_Private(&P));
    PetscCall(
      PetscInfo(NULL, "mesh %s: this rank's part, %" PetscInt_FMT " of %" PetscInt_FMT " nodes and %" PetscInt_FMT " of %" PetscInt_FMT " elements, received\n",
        mesh->file, mesh->nnodes, mesh->nnodes_all, mesh->nelems, mesh->nelems_all));
  }
  PetscFunctionReturn(0);
}
