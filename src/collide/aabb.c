/* fcsim — AABB tree over target triangles: build, refit, ball and closest-triangle queries,
 * and the surface topology behind edge and vertex normals.
 *
 * Bounding-volume hierarchy of axis-aligned boxes (Ericson, "Real-Time Collision Detection",
 * ch. 6, "Bounding Volume Hierarchies": §6.2.1 top-down construction, §6.3 traversal; the
 * refit keeps the topology and recomputes the boxes bottom-up). One triangle per
 * leaf, so a leaf box is exactly its triangle's (fattened) box and a ball query reports
 * triangles, not buckets. */
#include "collide_impl.h"
#include <stdlib.h>

/* ------------------------------------------------------------------------------------------ */
/* construction                                                                               */

/* Strict total order on triangles along one axis: centroid coordinate, then index. Ties in
 * the coordinate (structured meshes have many) are broken by the index so the partition, and
 * hence the tree, is the same on every machine and every run. */
static inline PetscBool CentLess(const PetscReal *cent, int axis, PetscInt a, PetscInt b)
{
  const PetscReal ca = cent[3 * a + axis], cb = cent[3 * b + axis];
  return (ca < cb || (ca == cb && a < b)) ? PETSC_TRUE : PETSC_FALSE;
}

static inline void Swap(PetscInt *v, PetscInt i, PetscInt j)
{
  PetscInt t = v[i];
  v[i]       = v[j];
  v[j]       = t;
}

/* Reorder v[0..n) so that v[m] is the element of rank m and v[0..m) precede it, v(m..n)
 * follow it (Hoare's FIND / quickselect with a median-of-three pivot: expected O(n)). This
 * is what makes the median split O(n) per level and the build O(n log n) overall, instead of
 * a full sort per node. */
static void SelectMedian(const PetscReal *cent, int axis, PetscInt *v, PetscInt n, PetscInt m)
{
  PetscInt lo = 0, hi = n - 1;

  while (hi > lo) {
    PetscInt mid = lo + (hi - lo) / 2, pivot, i = lo, j = hi;

    /* median of three: sorts v[lo], v[mid], v[hi] so the pivot is never an extreme of them,
     * which defeats already-sorted input (meshes often come sorted along an axis) */
    if (CentLess(cent, axis, v[mid], v[lo])) Swap(v, mid, lo);
    if (CentLess(cent, axis, v[hi], v[lo])) Swap(v, hi, lo);
    if (CentLess(cent, axis, v[hi], v[mid])) Swap(v, hi, mid);
    pivot = v[mid];
    while (i <= j) {
      while (CentLess(cent, axis, v[i], pivot)) i++;
      while (CentLess(cent, axis, pivot, v[j])) j--;
      if (i <= j) {
        Swap(v, i, j);
        i++;
        j--;
      }
    }
    /* now v[lo..j] <= pivot <= v[i..hi], and v(j..i) (at most one entry) is the pivot */
    if (m <= j) hi = j;
    else if (m >= i) lo = i;
    else break;
  }
}

/* Top-down build of the subtree of node `id` over triangles perm[0..n): split at the median
 * along the longest axis of the box of their centroids. The median (not the spatial middle)
 * makes the tree balanced whatever the mesh grading, so its depth is ceil(log2 n) and a
 * query visits O(log n) nodes plus those near the answer. */
static PetscErrorCode Build(FcAABBTree tree, const PetscReal *cent, PetscInt *perm, PetscInt n, PetscInt id, PetscInt depth)
{
  PetscReal lo[3], hi[3], ext = -1;
  int       axis = 0;
  PetscInt  m, c;

  PetscFunctionBegin;
  if (depth > tree->depth) tree->depth = depth;
  if (n == 1) {
    tree->node[id].child = -1 - perm[0];
    PetscFunctionReturn(0);
  }
  for (int d = 0; d < 3; d++) lo[d] = hi[d] = cent[3 * perm[0] + d];
  for (PetscInt i = 1; i < n; i++) {
    for (int d = 0; d < 3; d++) {
      PetscReal x = cent[3 * perm[i] + d];
      if (x < lo[d]) lo[d] = x;
      if (x > hi[d]) hi[d] = x;
    }
  }
  for (int d = 0; d < 3; d++) {
    if (hi[d] - lo[d] > ext) {
      ext  = hi[d] - lo[d];
      axis = d;
    }
  }
  m = n / 2;
  SelectMedian(cent, axis, perm, n, m);
  c = tree->nnode;
  tree->nnode += 2;
  tree->node[id].child = c;
  PetscCall(Build(tree, cent, perm, m, c, depth + 1));
  PetscCall(Build(tree, cent, perm + m, n - m, c + 1, depth + 1));
  PetscFunctionReturn(0);
}

/* (key, value) pairs sorted by key then value: corner incidences by node, edges by their
 * sorted end nodes. qsort is O(n log n) and the order is total, so ids are deterministic. */
typedef struct {
  PetscInt a, b, v;
} Triple;

static int TripleCmp(const void *x, const void *y)
{
  const Triple *p = (const Triple *)x, *q = (const Triple *)y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  if (p->v != q->v) return p->v < q->v ? -1 : 1;
  return 0;
}

/* Vertices (distinct corner nodes) and edges (distinct unordered corner pairs) with the
 * triangles around them, so normals of edges and vertices can be evaluated on the fly from
 * the current coordinates, whatever moved since the last refit. */
static PetscErrorCode BuildTopology(FcAABBTree tree)
{
  const PetscInt n3 = 3 * tree->ntri;
  Triple        *s;
  PetscInt       nv = 0, ne = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n3 > 0 ? n3 : 1, &s));
  PetscCall(PetscMalloc1(n3, &tree->tri_vert));
  PetscCall(PetscMalloc1(n3, &tree->tri_edge));
  PetscCall(PetscMalloc1(n3, &tree->vert_inc));
  PetscCall(PetscMalloc1(n3, &tree->edge_inc));

  /* vertices */
  for (PetscInt i = 0; i < n3; i++) {
    s[i].a = tree->tri[i];
    s[i].b = 0;
    s[i].v = i;
  }
  qsort(s, (size_t)n3, sizeof *s, TripleCmp);
  for (PetscInt i = 0; i < n3; i++)
    if (i == 0 || s[i].a != s[i - 1].a) nv++;
  PetscCall(PetscMalloc1(nv + 1, &tree->vert_off));
  nv = 0;
  for (PetscInt i = 0; i < n3; i++) {
    if (i == 0 || s[i].a != s[i - 1].a) tree->vert_off[nv++] = i;
    tree->vert_inc[i]      = s[i].v;
    tree->tri_vert[s[i].v] = nv - 1;
  }
  tree->vert_off[nv] = n3;
  tree->nvert        = nv;

  /* edges: edge k of triangle t joins corners k and k+1 */
  for (PetscInt t = 0; t < tree->ntri; t++) {
    for (int k = 0; k < 3; k++) {
      PetscInt p = tree->tri[3 * t + k], q = tree->tri[3 * t + (k + 1) % 3];
      s[3 * t + k].a = PetscMin(p, q);
      s[3 * t + k].b = PetscMax(p, q);
      s[3 * t + k].v = 3 * t + k;
    }
  }
  qsort(s, (size_t)n3, sizeof *s, TripleCmp);
  for (PetscInt i = 0; i < n3; i++)
    if (i == 0 || s[i].a != s[i - 1].a || s[i].b != s[i - 1].b) ne++;
  PetscCall(PetscMalloc1(ne + 1, &tree->edge_off));
  ne = 0;
  for (PetscInt i = 0; i < n3; i++) {
    if (i == 0 || s[i].a != s[i - 1].a || s[i].b != s[i - 1].b) tree->edge_off[ne++] = i;
    tree->edge_inc[i]      = s[i].v / 3;
    tree->tri_edge[s[i].v] = ne - 1;
  }
  tree->edge_off[ne] = n3;
  tree->nedge        = ne;
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeCreate(PetscInt ntri, PetscInt stride, const PetscInt tri[], const PetscReal X[], FcAABBTree *tree)
{
  FcAABBTree t;
  PetscReal *cent;
  PetscInt  *perm;

  PetscFunctionBegin;
  PetscCheck(ntri >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative number of triangles %" PetscInt_FMT, ntri);
  PetscCheck(stride >= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Triangle stride %" PetscInt_FMT " < 3", stride);
  PetscCall(PetscNew(&t));
  t->ntri = ntri;
  PetscCall(PetscMalloc1(3 * ntri, &t->tri));
  for (PetscInt i = 0; i < ntri; i++) {
    for (int k = 0; k < 3; k++) {
      t->tri[3 * i + k] = tri[stride * i + k];
      PetscCheck(t->tri[3 * i + k] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Triangle %" PetscInt_FMT " has a negative node index", i);
    }
  }
  t->nnode = ntri > 0 ? 2 * ntri - 1 : 0;
  PetscCall(PetscMalloc1(t->nnode, &t->node));
  if (ntri > 0) {
    PetscCall(PetscMalloc1(3 * ntri, &cent));
    PetscCall(PetscMalloc1(ntri, &perm));
    for (PetscInt i = 0; i < ntri; i++) {
      perm[i] = i;
      for (int d = 0; d < 3; d++) cent[3 * i + d] = (X[3 * t->tri[3 * i] + d] + X[3 * t->tri[3 * i + 1] + d] + X[3 * t->tri[3 * i + 2] + d]) / 3;
    }
    t->nnode = 1; /* the root; Build allocates children in pairs after it */
    PetscCall(Build(t, cent, perm, ntri, 0, 0));
    PetscCheck(
      t->nnode == 2 * ntri - 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "AABB tree has %" PetscInt_FMT " nodes, expected %" PetscInt_FMT, t->nnode, 2 * ntri - 1);
    PetscCall(PetscFree(cent));
    PetscCall(PetscFree(perm));
  }
  PetscCall(PetscMalloc1(t->depth + 2, &t->stack));
  PetscCall(BuildTopology(t));
  PetscCall(FcAABBTreeRefit(t, X, 0));
  *tree = t;
  PetscFunctionReturn(0);
}

/* Children come after their parent (Build allocates them in pairs), so one reverse sweep
 * refits leaves before the internal nodes that enclose them: O(n), no recursion. */
PetscErrorCode FcAABBTreeRefit(FcAABBTree tree, const PetscReal X[], PetscReal fatten)
{
  PetscFunctionBegin;
  PetscCheck(fatten >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative fattening %g", (double)fatten);
  tree->fatten = fatten;
  for (PetscInt i = tree->nnode - 1; i >= 0; i--) {
    FcAABBNode *nd = &tree->node[i];
    if (nd->child < 0) {
      const PetscInt *c = tree->tri + 3 * (-1 - nd->child);
      for (int d = 0; d < 3; d++) {
        PetscReal x0 = X[3 * c[0] + d], x1 = X[3 * c[1] + d], x2 = X[3 * c[2] + d];
        nd->lo[d] = PetscMin(x0, PetscMin(x1, x2)) - fatten;
        nd->hi[d] = PetscMax(x0, PetscMax(x1, x2)) + fatten;
      }
    } else {
      const FcAABBNode *l = &tree->node[nd->child], *r = &tree->node[nd->child + 1];
      for (int d = 0; d < 3; d++) {
        nd->lo[d] = PetscMin(l->lo[d], r->lo[d]);
        nd->hi[d] = PetscMax(l->hi[d], r->hi[d]);
      }
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeDestroy(FcAABBTree *tree)
{
  FcAABBTree t;

  PetscFunctionBegin;
  if (!tree || !*tree) PetscFunctionReturn(0);
  t = *tree;
  PetscCall(PetscFree(t->tri));
  PetscCall(PetscFree(t->node));
  PetscCall(PetscFree(t->stack));
  PetscCall(PetscFree(t->tri_vert));
  PetscCall(PetscFree(t->tri_edge));
  PetscCall(PetscFree(t->vert_off));
  PetscCall(PetscFree(t->vert_inc));
  PetscCall(PetscFree(t->edge_off));
  PetscCall(PetscFree(t->edge_inc));
  PetscCall(PetscFree(t->hit));
  PetscCall(PetscFree(t));
  *tree = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeGetSizes(FcAABBTree tree, PetscInt *ntri, PetscInt *nnodes, PetscInt *depth)
{
  PetscFunctionBegin;
  if (ntri) *ntri = tree->ntri;
  if (nnodes) *nnodes = tree->nnode;
  if (depth) *depth = tree->depth;
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeGetVisits(FcAABBTree tree, PetscBool reset, PetscInt64 *visits)
{
  PetscFunctionBegin;
  if (visits) *visits = tree->visits;
  if (reset) tree->visits = 0;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* queries                                                                                    */

static PetscErrorCode PushHit(FcAABBTree tree, PetscInt t)
{
  PetscFunctionBegin;
  if (tree->nhit == tree->maxhit) {
    PetscInt  cap = tree->maxhit ? 2 * tree->maxhit : 64;
    PetscInt *h;
    PetscCall(PetscMalloc1(cap, &h));
    if (tree->nhit) PetscCall(PetscArraycpy(h, tree->hit, tree->nhit));
    PetscCall(PetscFree(tree->hit));
    tree->hit    = h;
    tree->maxhit = cap;
  }
  tree->hit[tree->nhit++] = t;
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeQueryBall_Private(FcAABBTree tree, const PetscReal p[3], PetscReal d, const PetscBool mask[], PetscInt *n, const PetscInt *list[])
{
  const PetscReal d2    = d * d;
  PetscInt       *stack = tree->stack, sp = 0;

  PetscFunctionBegin;
  tree->nhit = 0;
  if (tree->nnode > 0 && d >= 0) {
    tree->visits++;
    if (FcBoxDist2(tree->node[0].lo, tree->node[0].hi, p) <= d2) stack[sp++] = 0;
  }
  /* depth-first; a node is pushed only when its box passed, so at most one pending sibling
   * per level is on the stack (depth + 1 entries) */
  while (sp > 0) {
    const FcAABBNode *nd = &tree->node[stack[--sp]];
    if (nd->child < 0) {
      PetscInt t = -1 - nd->child;
      if (!mask || mask[t]) PetscCall(PushHit(tree, t));
    } else {
      for (PetscInt c = nd->child + 1; c >= nd->child; c--) {
        tree->visits++;
        if (FcBoxDist2(tree->node[c].lo, tree->node[c].hi, p) <= d2) stack[sp++] = c;
      }
    }
  }
  PetscCall(PetscSortInt(tree->nhit, tree->hit));
  *n    = tree->nhit;
  *list = tree->hit;
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeQueryBall(FcAABBTree tree, const PetscReal p[3], PetscReal d, PetscInt *n, const PetscInt *list[])
{
  PetscFunctionBegin;
  PetscCall(FcAABBTreeQueryBall_Private(tree, p, d, NULL, n, list));
  PetscFunctionReturn(0);
}

/* Branch and bound (a BVH traversal, Ericson ch. 6, with a shrinking query radius): descend into the nearer
 * child first so the running best distance drops early, and skip every box farther than it.
 * A box is re-tested when popped because the best may have dropped since it was pushed. */
PetscErrorCode FcAABBTreeClosest_Private(
  FcAABBTree tree, const PetscReal X[], const PetscReal p[3], PetscReal d2max, const PetscBool mask[], PetscInt *tri, PetscReal *d2)
{
  PetscInt *stack = tree->stack, sp = 0, bt = -1;
  PetscReal best = d2max;

  PetscFunctionBegin;
  if (tree->nnode > 0) {
    tree->visits++;
    if (FcBoxDist2(tree->node[0].lo, tree->node[0].hi, p) <= best) stack[sp++] = 0;
  }
  while (sp > 0) {
    const FcAABBNode *nd = &tree->node[stack[--sp]];
    if (FcBoxDist2(nd->lo, nd->hi, p) > best) continue;
    if (nd->child < 0) {
      const PetscInt t = -1 - nd->child, *c = tree->tri + 3 * t;
      PetscReal      xc[3], w[3], e2 = 0;
      if (mask && !mask[t]) continue;
      (void)FcClosestPointTriangle(p, X + 3 * c[0], X + 3 * c[1], X + 3 * c[2], xc, w);
      for (int d = 0; d < 3; d++) e2 += (p[d] - xc[d]) * (p[d] - xc[d]);
      /* <= with the lowest index on ties: the answer does not depend on the tree's shape */
      if (e2 < best || (e2 == best && (bt < 0 || t < bt))) {
        best = e2;
        bt   = t;
      }
    } else {
      const PetscInt c  = nd->child;
      PetscReal      dl = FcBoxDist2(tree->node[c].lo, tree->node[c].hi, p), dr = FcBoxDist2(tree->node[c + 1].lo, tree->node[c + 1].hi, p);
      tree->visits += 2;
      if (dl <= dr) { /* far child first on the stack, so the near one is popped first */
        if (dr <= best) stack[sp++] = c + 1;
        if (dl <= best) stack[sp++] = c;
      } else {
        if (dl <= best) stack[sp++] = c;
        if (dr <= best) stack[sp++] = c + 1;
      }
    }
  }
  *tri = bt;
  *d2  = bt >= 0 ? best : PETSC_MAX_REAL;
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeClosest(FcAABBTree tree, const PetscReal X[], const PetscReal p[3], PetscReal dmax, PetscInt *tri, PetscReal *dist, PetscReal xc[3])
{
  PetscReal d2;

  PetscFunctionBegin;
  PetscCall(FcAABBTreeClosest_Private(tree, X, p, dmax >= 0 ? dmax * dmax : -1, NULL, tri, &d2));
  if (dist) *dist = *tri >= 0 ? PetscSqrtReal(d2) : PETSC_MAX_REAL;
  if (xc && *tri >= 0) {
    const PetscInt *c = tree->tri + 3 * (*tri);
    PetscReal       w[3];
    (void)FcClosestPointTriangle(p, X + 3 * c[0], X + 3 * c[1], X + 3 * c[2], xc, w);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcAABBTreeGetScale(FcAABBTree tree, PetscReal *L)
{
  PetscFunctionBegin;
  *L = 0;
  if (tree->nnode > 0) {
    for (int d = 0; d < 3; d++) *L += PetscSqr(tree->node[0].hi[d] - tree->node[0].lo[d]);
    *L = PetscSqrtReal(*L);
  }
  PetscFunctionReturn(0);
}

static inline PetscBool BoxesMeet(const PetscReal lo[3], const PetscReal hi[3], const PetscReal qlo[3], const PetscReal qhi[3])
{
  return (PetscBool)(lo[0] <= qhi[0] && hi[0] >= qlo[0] && lo[1] <= qhi[1] && hi[1] >= qlo[1] && lo[2] <= qhi[2] && hi[2] >= qlo[2]);
}

/* Depth-first over the (fattened) boxes, which enclose the triangles' exact boxes; a leaf is
 * tested with its triangle's exact box from X, so the selection does not depend on the fattening.
 * Why no ring of neighbours is needed for the normals of edges and vertices: a search of a point p
 * whose box is inflated by at least its search radius r chooses a feature whose closest point xc
 * is within r of p, hence inside the box; every triangle around that edge or vertex contains xc,
 * so its box meets the query box: it is selected, and the feature's neighbours in the subset are
 * the whole surface's. */
PetscErrorCode FcAABBTreeSelect(FcAABBTree tree, const PetscReal X[], PetscInt nbox, const PetscReal box[], PetscInt *nsel, PetscInt **sel)
{
  PetscInt *stack = tree->stack, n = 0, cap = 64, *s;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cap, &s));
  for (PetscInt i = 0; i < nbox; i++) {
    const PetscReal *qlo = box + 6 * i, *qhi = box + 6 * i + 3;
    PetscInt         sp = 0;
    if (tree->nnode > 0 && BoxesMeet(tree->node[0].lo, tree->node[0].hi, qlo, qhi)) stack[sp++] = 0;
    while (sp > 0) {
      const FcAABBNode *nd = &tree->node[stack[--sp]];
      if (nd->child < 0) {
        const PetscInt t = -1 - nd->child, *c = tree->tri + 3 * t;
        PetscReal      lo[3], hi[3];
        for (int d = 0; d < 3; d++) {
          lo[d] = PetscMin(X[3 * c[0] + d], PetscMin(X[3 * c[1] + d], X[3 * c[2] + d]));
          hi[d] = PetscMax(X[3 * c[0] + d], PetscMax(X[3 * c[1] + d], X[3 * c[2] + d]));
        }
        if (!BoxesMeet(lo, hi, qlo, qhi)) continue;
        if (n == cap) PetscCall(PetscRealloc(sizeof(PetscInt) * (size_t)(cap *= 2), &s));
        s[n++] = t;
      } else
        for (PetscInt c = nd->child; c <= nd->child + 1; c++)
          if (BoxesMeet(tree->node[c].lo, tree->node[c].hi, qlo, qhi)) stack[sp++] = c;
    }
  }
  PetscCall(PetscSortRemoveDupsInt(&n, s));
  *nsel = n;
  *sel  = s;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* normals of features                                                                        */

static void Normalize(PetscReal v[3])
{
  PetscReal s = PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (s > 0) {
    for (int d = 0; d < 3; d++) v[d] /= s;
  } else {
    for (int d = 0; d < 3; d++) v[d] = 0;
  }
}

/* Edges: the sum of the unit normals of the faces sharing the edge (both weigh the same: the
 * edge is a full edge of each). Vertices: each incident face weighted by its interior angle at
 * the vertex — the angle-weighted pseudo-normal of Baerentzen & Aanaes, "Signed distance
 * computation using the angle weighted pseudonormal", IEEE TVCG 11(3), 2005. With it the sign
 * of (p - xc) . N is the inside/outside sign of p for a closed, consistently oriented surface
 * whenever xc is the closest surface point, which an area-weighted average does not
 * guarantee (one large sliver face at a vertex would dominate it). It depends only on the
 * local geometry, not on how the surface was triangulated around the vertex. */
PetscErrorCode FcAABBTreeFeatureNormal(FcAABBTree tree, const PetscReal X[], PetscInt t, FcRegion region, PetscReal N[3])
{
  PetscReal f[3];

  PetscFunctionBegin;
  PetscCheck(t >= 0 && t < tree->ntri, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Triangle %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", t, tree->ntri);
  N[0] = N[1] = N[2] = 0;
  if (region == FC_REGION_FACE) {
    FcTriCross(X, tree->tri + 3 * t, N);
  } else if (FcRegionIsEdge(region)) {
    PetscInt e = tree->tri_edge[3 * t + (region - FC_REGION_EDGE0)];
    for (PetscInt j = tree->edge_off[e]; j < tree->edge_off[e + 1]; j++) {
      FcTriCross(X, tree->tri + 3 * tree->edge_inc[j], f);
      Normalize(f);
      for (int d = 0; d < 3; d++) N[d] += f[d];
    }
  } else if (FcRegionIsVertex(region)) {
    PetscInt v = tree->tri_vert[3 * t + (region - FC_REGION_VERTEX0)];
    for (PetscInt j = tree->vert_off[v]; j < tree->vert_off[v + 1]; j++) {
      const PetscInt   s = tree->vert_inc[j] / 3, k = tree->vert_inc[j] % 3, *c = tree->tri + 3 * s;
      const PetscReal *x0 = X + 3 * c[k], *x1 = X + 3 * c[(k + 1) % 3], *x2 = X + 3 * c[(k + 2) % 3];
      PetscReal        u[3], w[3], uw[3], sn, cs, angle;
      for (int d = 0; d < 3; d++) {
        u[d] = x1[d] - x0[d];
        w[d] = x2[d] - x0[d];
      }
      uw[0] = u[1] * w[2] - u[2] * w[1];
      uw[1] = u[2] * w[0] - u[0] * w[2];
      uw[2] = u[0] * w[1] - u[1] * w[0];
      sn    = PetscSqrtReal(uw[0] * uw[0] + uw[1] * uw[1] + uw[2] * uw[2]);
      cs    = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
      angle = PetscAtan2Real(sn, cs); /* accurate for small and obtuse angles alike, unlike acos */
      if (sn > 0)
        for (int d = 0; d < 3; d++) N[d] += angle * uw[d] / sn;
    }
  } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown region %d", (int)region);
  Normalize(N);
  PetscFunctionReturn(0);
}
