/* fcsim — src/collide private definitions: the AABB tree layout and the mask-aware queries
 * FcProximityFind builds on. Not for use outside src/collide. */
#ifndef FC_COLLIDE_IMPL_H
#define FC_COLLIDE_IMPL_H

#include "collide.h"

/* A node of the tree. Children are allocated in consecutive pairs after their parent, so a
 * parent always has a smaller index than its children: a reverse sweep over the nodes is a
 * bottom-up refit. Leaves hold exactly one triangle, so a leaf's box is that triangle's box. */
typedef struct {
  PetscReal lo[3], hi[3];
  PetscInt  child; /* >= 0: children `child` and `child + 1`; < 0: leaf of triangle -1 - child */
} FcAABBNode;

struct _n_FcAABBTree {
  PetscInt    ntri;
  PetscInt   *tri;   /* 3*ntri corner node indices */
  PetscInt    nnode; /* 2*ntri - 1 (0 when empty) */
  PetscInt    depth; /* largest leaf depth, root at 0 */
  FcAABBNode *node;
  PetscReal   fatten;
  PetscInt   *stack; /* depth + 2 entries: traversal work array */

  /* surface topology, for the normals of edges and vertices */
  PetscInt  nvert, nedge;
  PetscInt *tri_vert; /* 3*ntri: vertex (0..nvert-1) of each corner */
  PetscInt *tri_edge; /* 3*ntri: edge (0..nedge-1) of each edge k = corners k, k+1 */
  PetscInt *vert_off; /* nvert+1: CSR vertex -> incidences 3*t+k (triangle t, corner k) */
  PetscInt *vert_inc;
  PetscInt *edge_off; /* nedge+1: CSR edge -> triangles sharing it */
  PetscInt *edge_inc;

  /* result of the last ball query */
  PetscInt  nhit, maxhit;
  PetscInt *hit;

  PetscInt64 visits; /* box tests since the last reset */
};

/* 3-vectors: u · v, w = u × v, |u| */
static inline PetscReal FcDot3(const PetscReal u[3], const PetscReal v[3]) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

static inline void FcCross3(const PetscReal u[3], const PetscReal v[3], PetscReal w[3])
{
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

static inline PetscReal FcNorm3(const PetscReal u[3]) { return PetscSqrtReal(FcDot3(u, u)); }

/* Squared distance from p to the box (0 inside). */
static inline PetscReal FcBoxDist2(const PetscReal lo[3], const PetscReal hi[3], const PetscReal p[3])
{
  PetscReal s = 0;
  for (int d = 0; d < 3; d++) {
    PetscReal e = lo[d] - p[d] > 0 ? lo[d] - p[d] : (p[d] - hi[d] > 0 ? p[d] - hi[d] : 0);
    s += e * e;
  }
  return s;
}

/* Twice the area vector (x1 - x0) x (x2 - x0) of the triangle with corners c[0..2]. */
static inline void FcTriCross(const PetscReal X[], const PetscInt c[3], PetscReal N[3])
{
  const PetscReal *x0 = X + 3 * c[0], *x1 = X + 3 * c[1], *x2 = X + 3 * c[2];
  PetscReal        u[3], v[3];

  for (int d = 0; d < 3; d++) {
    u[d] = x1[d] - x0[d];
    v[d] = x2[d] - x0[d];
  }
  N[0] = u[1] * v[2] - u[2] * v[1];
  N[1] = u[2] * v[0] - u[0] * v[2];
  N[2] = u[0] * v[1] - u[1] * v[0];
}

/* Closest triangle among those allowed by mask (NULL: all) with squared distance <= d2max;
 * ties: lowest index; *tri = -1 when none. */
PetscErrorCode FcAABBTreeClosest_Private(
  FcAABBTree tree, const PetscReal X[], const PetscReal p[3], PetscReal d2max, const PetscBool mask[], PetscInt *tri, PetscReal *d2);
/* Triangles allowed by mask whose box is within distance d of p, sorted; list owned by the tree. */
PetscErrorCode FcAABBTreeQueryBall_Private(FcAABBTree tree, const PetscReal p[3], PetscReal d, const PetscBool mask[], PetscInt *n, const PetscInt *list[]);

#endif
