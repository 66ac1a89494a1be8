/* fcsim — proximity detection for node-to-triangle contact (plain data in, plain data out).
 *
 * A contactor is a set of points (mesh nodes), a target is a surface of triangles given as
 * indices into a coordinate array. An AABB tree over the target triangles finds, for every
 * contactor point, the closest target triangle within an alarm distance, with the closest
 * point, its barycentric weights, the signed gap and a contact frame (n, t1, t2).
 * Analytic rigid shapes (plane, sphere, box, cylinder) give the same record for one point.
 *
 * Conventions (doc/collide.md has the details and the reasons):
 *  - coordinates are arrays of 3 reals per node, X[3*i + d];
 *  - target triangles are oriented so (x1 - x0) x (x2 - x0) points OUT of the target body
 *    (FcMesh.bfaces obey this); 6-node triangles are handled by their 3 corners: a curved
 *    tet10 face is approximated by its flat corner triangle and the barycentric weights
 *    refer to that flat triangle;
 *  - n points from the target surface towards the contactor, so that a normal reaction
 *    r_n >= 0 on the contactor (along +n) separates the pair; gap = distance, signed
 *    negative when the point is behind the target surface (penetration);
 *  - (n, t1, t2) is a right-handed orthonormal frame: t2 = n x t1;
 *  - edge k of a triangle joins corners k and k+1 (mod 3): edges 01, 12, 20 like the
 *    mid-edge nodes of a 6-node triangle. */
#ifndef FC_COLLIDE_H
#define FC_COLLIDE_H

#include "../core/fc.h"

/* Feature of a triangle that holds the closest point. Analytic shapes use only the kind
 * (FC_REGION_FACE, FC_REGION_EDGE0, FC_REGION_VERTEX0). */
typedef enum {
  FC_REGION_FACE    = 0, /* interior of the triangle: all three weights > 0 */
  FC_REGION_EDGE0   = 1, /* edge from corner 0 to corner 1 (weight of corner 2 is 0) */
  FC_REGION_EDGE1   = 2, /* edge 1-2 */
  FC_REGION_EDGE2   = 3, /* edge 2-0 */
  FC_REGION_VERTEX0 = 4, /* corner 0 (weight 1) */
  FC_REGION_VERTEX1 = 5,
  FC_REGION_VERTEX2 = 6
} FcRegion;

#define FcRegionIsEdge(r)   ((r) >= FC_REGION_EDGE0 && (r) <= FC_REGION_EDGE2)
#define FcRegionIsVertex(r) ((r) >= FC_REGION_VERTEX0 && (r) <= FC_REGION_VERTEX2)

/* One contactor point against its closest target feature. */
typedef struct {
  PetscInt  point;    /* contactor point: its index in the contactor coordinate array */
  PetscInt  tri;      /* target triangle: index in the tree's triangle list (-1: analytic shape) */
  PetscInt  nodes[3]; /* target corner node indices of `tri` (-1: analytic shape) */
  PetscReal bary[3];  /* weights of the corners: xc = sum_k bary[k] x(nodes[k]); >= 0, sum 1 */
  PetscReal gap;      /* signed distance; < 0 when the point is behind the target surface */
  PetscReal n[3];     /* contact normal, from the target towards the contactor, unit */
  PetscReal t1[3], t2[3];
  PetscReal xc[3];  /* closest point on the target */
  FcRegion  region; /* feature holding xc */
} FcProximity;

/* ------------------------------------------------------------------------------------------ */
/* AABB tree over triangles                                                                  */

typedef struct _n_FcAABBTree *FcAABBTree;

/* Build the tree (top-down, median split on the longest axis of the centroids' box,
 * O(n log n)) and the surface topology used for edge and vertex normals.
 * tri: ntri*stride node indices; the first 3 of each triangle are its corners (stride 3 for
 * 3-node triangles, 6 for FcMesh.bfaces of tet10 meshes). X: coordinates, indexed by node.
 * The tree keeps its own copy of the corner indices, never X. */
PetscErrorCode FcAABBTreeCreate(PetscInt ntri, PetscInt stride, const PetscInt tri[], const PetscReal X[], FcAABBTree *tree);
/* Recompute the boxes from new coordinates, same topology: O(n). Each triangle's box is
 * inflated by fatten >= 0; queries then stay correct while every node has moved by less than
 * fatten (per coordinate) since this refit, so a caller may skip refits in between. */
PetscErrorCode FcAABBTreeRefit(FcAABBTree tree, const PetscReal X[], PetscReal fatten);
PetscErrorCode FcAABBTreeDestroy(FcAABBTree *tree);

/* Number of triangles, tree nodes and depth (root at depth 0). Any pointer may be NULL. */
PetscErrorCode FcAABBTreeGetSizes(FcAABBTree tree, PetscInt *ntri, PetscInt *nnodes, PetscInt *depth);
/* Number of tree nodes whose box was tested by queries since the last reset (the work of
 * the queries, independent of the machine); reset to 0 when `reset`. */
PetscErrorCode FcAABBTreeGetVisits(FcAABBTree tree, PetscBool reset, PetscInt64 *visits);

/* Every triangle whose (fattened) box is within distance d of point p, in increasing index
 * order. The list belongs to the tree and is valid until its next query. */
PetscErrorCode FcAABBTreeQueryBall(FcAABBTree tree, const PetscReal p[3], PetscReal d, PetscInt *n, const PetscInt *list[]);
/* The triangle closest to p among those within distance dmax (branch and bound on the
 * running best distance; exact point-triangle distances with coordinates X, which must be
 * those of the last refit up to its fattening). Ties: the lowest index. *tri = -1 when no
 * triangle is within dmax. dist and xc may be NULL. */
PetscErrorCode FcAABBTreeClosest(FcAABBTree tree, const PetscReal X[], const PetscReal p[3], PetscReal dmax, PetscInt *tri, PetscReal *dist, PetscReal xc[3]);

/* The triangles a search around some boxes needs (ghosted targets on several ranks, doc/mpi.md
 * "Contact"): every triangle whose box (its corners' in X, the coordinates of the last refit up
 * to its fattening) meets one of the nbox boxes box[6i .. 6i+2] (lo), box[6i+3 .. 6i+5] (hi);
 * ascending, PetscMalloc'ed (free *sel). A tree created over tri[sel[j]] in this order (ascending,
 * so the lowest-index rule of the ties is kept) and searched from a point whose box is inflated by
 * at least the search radius finds what the whole tree finds, with the same normals of edges and
 * vertices (every triangle around the chosen feature contains its closest point, inside the box:
 * aabb.c), bit for bit. */
PetscErrorCode FcAABBTreeSelect(FcAABBTree tree, const PetscReal X[], PetscInt nbox, const PetscReal box[], PetscInt *nsel, PetscInt **sel);
/* The diagonal of the tree's root box: FcProximityFind's scene size (FcProximityOptions.scale). */
PetscErrorCode FcAABBTreeGetScale(FcAABBTree tree, PetscReal *L);

/* Unit normal of the surface at a feature of triangle t, in coordinates X:
 * face: the face normal; edge: normalized sum of the unit normals of the faces sharing the
 * edge; vertex: the angle-weighted pseudo-normal (Baerentzen & Aanaes 2005), normalized.
 * Zero vector when undefined (degenerate faces). */
PetscErrorCode FcAABBTreeFeatureNormal(FcAABBTree tree, const PetscReal X[], PetscInt t, FcRegion region, PetscReal N[3]);

/* ------------------------------------------------------------------------------------------ */
/* Point-triangle geometry (pure helpers)                                                    */

/* Closest point xc to p on triangle (a, b, c), its barycentric weights (xc = w0 a + w1 b +
 * w2 c, w >= 0, sum 1) and the feature holding it (Voronoi regions, Ericson, "Real-Time
 * Collision Detection" §5.1.5). Degenerate (zero-area) triangles are handled as their three
 * edges. Returns the region. */
FcRegion FcClosestPointTriangle(const PetscReal p[3], const PetscReal a[3], const PetscReal b[3], const PetscReal c[3], PetscReal xc[3], PetscReal w[3]);

/* ------------------------------------------------------------------------------------------ */
/* Contactor points against a target surface                                                 */

typedef struct {
  PetscReal          alarm;      /* report pairs whose distance |gap| <= alarm (>= 0) */
  PetscInt           nallowed;   /* optional filter: the only target triangles considered */
  const PetscInt    *allowed;    /*   (indices into the tree's list); NULL: every triangle */
  PetscInt           nprev;      /* optional: the previous output of FcProximityFind for the */
  const FcProximity *prev;       /*   same contactor, matched by `point`: t1 continuity and hysteresis */
  PetscReal          hysteresis; /* keep the previous triangle of a point while its distance
                                    exceeds the best one by at most this (0: only round-off ties) */
  PetscReal          keep;       /* a point that has an entry in prev is reported up to distance
                                    max(alarm, keep) (0: alarm for every point; PETSC_INFINITY:
                                    wherever it is): the alarm's hysteresis (contact_detect.c) */
  PetscReal          scale;      /* the scene size the round-off ties are relative to (> 0), or 0:
                                    the diagonal of the tree's root box. A tree over a part of a
                                    surface (FcAABBTreeSelect) passes the whole tree's
                                    (FcAABBTreeGetScale), so that it selects as the whole would */
} FcProximityOptions;

/* For every contactor point (points[i], or i when points is NULL; coordinates Xc[3*point]),
 * the closest target triangle within opt->alarm (opt->keep for a point in opt->prev, when
 * larger; target coordinates X, those of the last
 * Create/Refit of the tree up to its fattening). Selection: the smallest distance; triangles
 * within round-off of it (or within opt->hysteresis for the previous step's triangle) are
 * ties, resolved by: the previous triangle of the point, then a face over an edge over a
 * vertex, then the lowest index (doc/collide.md explains why a point does not flip).
 * *out (PetscMalloc'ed, NULL when *nout = 0; free with PetscFree) lists the points that found
 * a triangle, in the order of `points`, each with a frame continued from opt->prev. */
PetscErrorCode FcProximityFind(FcAABBTree tree, const PetscReal X[], PetscInt npoints, const PetscInt points[], const PetscReal Xc[],
  const FcProximityOptions *opt, PetscInt *nout, FcProximity **out);

/* Tangent vectors completing the unit normal direction of n (normalized here; n != 0):
 * t1 = t1_prev projected on the plane orthogonal to n and normalized, so friction directions
 * do not spin between steps; when t1_prev is NULL or (nearly) parallel to n, t1 = the
 * coordinate axis least aligned with n, projected likewise. t2 = n x t1. t1 may alias t1_prev. */
PetscErrorCode FcContactFrame(const PetscReal n[3], const PetscReal t1_prev[3], PetscReal t1[3], PetscReal t2[3]);

/* ------------------------------------------------------------------------------------------ */
/* A point against analytic rigid shapes: signed distance with the outward normal of the   */
/* shape as n, the closest point on its surface, frame (t1 continued from t1_prev, may be   */
/* NULL). point, tri and nodes are set to -1, bary to 0.                                    */

/* Half-space behind the plane through x0 with normal `normal` (outward, need not be unit). */
PetscErrorCode FcProximityPlane(const PetscReal p[3], const PetscReal x0[3], const PetscReal normal[3], const PetscReal t1_prev[3], FcProximity *c);
/* Solid sphere. */
PetscErrorCode FcProximitySphere(const PetscReal p[3], const PetscReal center[3], PetscReal radius, const PetscReal t1_prev[3], FcProximity *c);
/* Solid box: center, rotation R (row-major, its columns are the box axes in world
 * coordinates), half extents along those axes. */
PetscErrorCode FcProximityBox(
  const PetscReal p[3], const PetscReal center[3], const PetscReal R[9], const PetscReal half[3], const PetscReal t1_prev[3], FcProximity *c);
/* Solid capped cylinder: center, axis (need not be unit), radius, half length along the axis. */
PetscErrorCode FcProximityCylinder(const PetscReal p[3], const PetscReal center[3], const PetscReal axis[3], PetscReal radius, PetscReal half_length,
  const PetscReal t1_prev[3], FcProximity *c);

/* ------------------------------------------------------------------------------------------ */
/* Broad phase (broadphase.c): which of n axis-aligned boxes overlap, by sort and sweep on one  */
/* axis (Baraff 1992, "Dynamic simulation of non-penetrating rigid bodies", §6.2; one axis, the */
/* one along which the box centres spread most). O(n log n + k + s): the sort, the k pairs     */
/* found, and the s pairs whose intervals overlap on the sweep axis only. Boxes are lo[3],      */
/* hi[3] per box (6 numbers, box i at 6i); an infinite bound (an unbounded shape: a plane) is   */
/* allowed. Boxes that touch (hi = lo) overlap. *pairs: 2 per pair (i < j), sorted by (i, j),   */
/* PetscMalloc'ed (NULL when none), freed with PetscFree.                                        */
PetscErrorCode FcBroadPhaseSweep(PetscInt n, const PetscReal box[], PetscInt *npairs, PetscInt **pairs);

#endif
