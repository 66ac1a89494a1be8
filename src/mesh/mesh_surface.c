/* fcsim — boundary faces of a tetrahedral mesh, group lookup, destruction. */
#include "mesh_impl.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Faces opposite vertex 3, 2, 1, 0 of the Gmsh tetrahedron (reference vertices (0,0,0),
 * (1,0,0), (0,1,0), (0,0,1)); e.g. face 0 = (0,2,1) has normal (x2-x0)x(x1-x0) = -z, out of
 * the element. Mid-edge nodes: 4 = 01, 5 = 12, 6 = 20, 7 = 30, 8 = 32, 9 = 31. */
// clang-format off
const PetscInt FcTetFace[4][6] = {
  {0, 2, 1, 6, 5, 4},
  {0, 1, 3, 4, 9, 7},
  {0, 3, 2, 7, 8, 6},
  {1, 2, 3, 5, 8, 9}
};
// clang-format on

static void SortTriple(PetscInt k[3])
{
  PetscInt t;
  if (k[0] > k[1]) {
    t    = k[0];
    k[0] = k[1];
    k[1] = t;
  }
  if (k[1] > k[2]) {
    t    = k[1];
    k[1] = k[2];
    k[2] = t;
  }
  if (k[0] > k[1]) {
    t    = k[0];
    k[0] = k[1];
    k[1] = t;
  }
}

static void FaceKey(const FcMesh *mesh, PetscInt owner, PetscInt k[3])
{
  const PetscInt *c = mesh->conn + (owner / 4) * mesh->npe;
  for (PetscInt j = 0; j < 3; j++) k[j] = c[FcTetFace[owner % 4][j]];
  SortTriple(k);
}

static size_t HashTriple(const PetscInt k[3])
{
  /* 64-bit multiply-xorshift mix; node indices of a face are close to each other, so the
   * final avalanche matters more than the combination. */
  uint64_t h = (uint64_t)k[0] * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)k[1] + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
  h ^= (uint64_t)k[2] + 0x8CB92BA72F3D8DD7ull + (h << 6) + (h >> 2);
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  return (size_t)h;
}

/* Slot holding the face with sorted corners k, or the empty slot where it belongs. The table
 * always has more slots than faces, so the probe ends. */
static size_t Probe(const FcMesh *mesh, const FcFaceHash *hash, const PetscInt k[3], PetscBool *found)
{
  size_t i = HashTriple(k) & hash->mask;

  for (;; i = (i + 1) & hash->mask) {
    PetscInt o[3];
    if (hash->slots[i].owner < 0) break;
    FaceKey(mesh, hash->slots[i].owner, o);
    if (o[0] == k[0] && o[1] == k[1] && o[2] == k[2]) {
      *found = PETSC_TRUE;
      return i;
    }
  }
  *found = PETSC_FALSE;
  return i;
}

PetscErrorCode FcMeshBuildBoundary_Private(FcMesh *mesh, FcFaceHash *hash)
{
  const PetscInt nf   = 4 * mesh->nelems;
  size_t         size = 16;
  PetscInt       nb   = 0;

  PetscFunctionBegin;
  PetscCheck(mesh->nelems < PETSC_MAX_INT / 8, PETSC_COMM_SELF, PETSC_ERR_SUP, "Too many elements for 32-bit indices: %" PetscInt_FMT, mesh->nelems);
  /* Typically ~2 distinct faces per element; 5 per element (rounded up to a power of two)
   * keeps probes short and leaves free slots even if no face is shared. */
  while (size < (size_t)nf + (size_t)mesh->nelems) size *= 2;
  hash->mask = size - 1;
  PetscCall(PetscMalloc1(size, &hash->slots));
  for (size_t i = 0; i < size; i++) {
    hash->slots[i].owner = -1;
    hash->slots[i].count = 0;
    hash->slots[i].bface = -1;
  }
  for (PetscInt f = 0; f < nf; f++) {
    PetscInt  k[3];
    PetscBool found;
    size_t    i;

    FaceKey(mesh, f, k);
    i = Probe(mesh, hash, k, &found);
    if (!found) {
      hash->slots[i].owner = f;
      hash->slots[i].count = 1;
      nb++;
    } else if (++hash->slots[i].count == 3) {
      const PetscInt other = hash->slots[i].owner / 4;
      PetscCall(FcFaceHashDestroy(hash));
      return FcInputError(mesh->file, NULL,
        "elements %" PetscInt_FMT " and %" PetscInt_FMT " share a face (nodes %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT
        ") with at least one other element: duplicated or overlapping elements",
        mesh->elem_id[other], mesh->elem_id[f / 4], mesh->node_id[k[0]], mesh->node_id[k[1]], mesh->node_id[k[2]]);
    } else nb--; /* a shared face is not on the boundary */
  }

  mesh->npf     = mesh->order == 1 ? 3 : 6;
  mesh->nbfaces = nb;
  PetscCall(PetscMalloc1(nb * mesh->npf, &mesh->bfaces));
  PetscCall(PetscMalloc1(nb, &mesh->bface_elem));
  /* Second pass in element order, so that the face numbering follows the element numbering
   * (deterministic and cache-friendly) rather than the hash order. */
  nb = 0;
  for (PetscInt f = 0; f < nf; f++) {
    PetscInt  k[3];
    PetscBool found;
    size_t    i;

    FaceKey(mesh, f, k);
    i = Probe(mesh, hash, k, &found);
    if (hash->slots[i].count != 1) continue;
    {
      const PetscInt  e = f / 4, lf = f % 4;
      const PetscInt *c = mesh->conn + e * mesh->npe;
      for (PetscInt j = 0; j < mesh->npf; j++) mesh->bfaces[nb * mesh->npf + j] = c[FcTetFace[lf][j]];
      mesh->bface_elem[nb] = e;
      hash->slots[i].bface = nb++;
    }
  }
  PetscFunctionReturn(0);
}

PetscInt FcFaceHashFindBoundary(const FcMesh *mesh, const FcFaceHash *hash, const PetscInt corners[3])
{
  PetscInt  k[3] = {corners[0], corners[1], corners[2]};
  PetscBool found;
  size_t    i;

  if (!hash->slots) return -1;
  SortTriple(k);
  i = Probe(mesh, hash, k, &found);
  return found ? hash->slots[i].bface : -1;
}

PetscErrorCode FcFaceHashDestroy(FcFaceHash *hash)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(hash->slots));
  hash->mask = 0;
  PetscFunctionReturn(0);
}

/* Integer strings ("3", "-1", "+7") select groups by tag. */
static PetscBool ParseTag(const char *key, PetscInt *tag)
{
  char *end;
  long  v;

  if (!key[0]) return PETSC_FALSE;
  v = strtol(key, &end, 10);
  if (*end || end == key || v < PETSC_MIN_INT || v > PETSC_MAX_INT) return PETSC_FALSE;
  *tag = (PetscInt)v;
  return PETSC_TRUE;
}

static void GroupLabel(const FcMeshGroup *g, char *buf, size_t len)
{
  snprintf(buf, len, "%s (dim %" PetscInt_FMT ", tag %" PetscInt_FMT ")", g->name[0] ? g->name : "(unnamed)", g->dim, g->tag);
}

PetscErrorCode FcMeshFindGroup(const FcMesh *mesh, const char *key, PetscInt dim, const FcMeshGroup **g)
{
  PetscInt nmatch = 0, tag, m[2] = {-1, -1};

  PetscFunctionBegin;
  *g = NULL;
  if (!key || !key[0]) PetscFunctionReturn(0);
  /* Names first: a group may well be named "1". */
  for (PetscInt i = 0; i < mesh->ngroups; i++) {
    const FcMeshGroup *q = &mesh->groups[i];
    if ((dim < 0 || q->dim == dim) && !strcmp(q->name, key)) {
      if (nmatch < 2) m[nmatch] = i;
      nmatch++;
    }
  }
  if (!nmatch && ParseTag(key, &tag)) {
    for (PetscInt i = 0; i < mesh->ngroups; i++) {
      const FcMeshGroup *q = &mesh->groups[i];
      if ((dim < 0 || q->dim == dim) && q->tag == tag) {
        if (nmatch < 2) m[nmatch] = i;
        nmatch++;
      }
    }
  }
  if (nmatch > 1) {
    char a[FC_NAME_LEN + 64], b[FC_NAME_LEN + 64];
    GroupLabel(&mesh->groups[m[0]], a, sizeof a);
    GroupLabel(&mesh->groups[m[1]], b, sizeof b);
    return FcInputError(mesh->file, NULL, "group \"%s\" is ambiguous: it matches %s and %s%s", key, a, b,
      dim < 0 ? " (Gmsh numbers groups per dimension; use a unique name)" : " (several groups share that name)");
  }
  if (nmatch) *g = &mesh->groups[m[0]];
  PetscFunctionReturn(0);
}

void FcMeshGroupList(const FcMesh *mesh, char *buf, size_t len)
{
  size_t used = 0;

  if (!len) return;
  buf[0] = '\0';
  if (!mesh->ngroups) {
    snprintf(buf, len, "(no physical groups)");
    return;
  }
  for (PetscInt i = 0; i < mesh->ngroups; i++) {
    char item[FC_NAME_LEN + 64];
    int  n;

    GroupLabel(&mesh->groups[i], item, sizeof item);
    n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", item);
    if (n < 0 || (size_t)n >= len - used) {
      /* Truncated: end with an ellipsis so the reader knows the list goes on. */
      if (len > 4) snprintf(buf + len - 4, 4, "...");
      return;
    }
    used += (size_t)n;
  }
}

PetscErrorCode FcMeshDestroy(FcMesh *mesh)
{
  PetscFunctionBegin;
  if (!mesh) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < mesh->ngroups; i++) {
    PetscCall(PetscFree(mesh->groups[i].nodes));
    PetscCall(PetscFree(mesh->groups[i].faces));
    PetscCall(PetscFree(mesh->groups[i].elems));
    PetscCall(PetscFree(mesh->groups[i].faces_at));
  }
  PetscCall(PetscFree(mesh->groups));
  PetscCall(PetscFree(mesh->X));
  PetscCall(PetscFree(mesh->node_id));
  PetscCall(PetscFree(mesh->conn));
  PetscCall(PetscFree(mesh->elem_id));
  PetscCall(PetscFree(mesh->bfaces));
  PetscCall(PetscFree(mesh->bface_elem));
  PetscCall(PetscFree(mesh->part_perm));
  PetscCall(PetscFree2(mesh->part_own, mesh->part_block));
  PetscCall(PetscFree(mesh->gnode));
  PetscCall(PetscFree(mesh->gelem));
  PetscCall(PetscFree(mesh->gface));
  PetscCall(PetscMemzero(mesh, sizeof *mesh));
  PetscFunctionReturn(0);
}
