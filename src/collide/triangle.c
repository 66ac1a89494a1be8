/* fcsim — the closest point of a triangle to a point (Voronoi regions), which the AABB tree's
 * queries (aabb.c) and the proximity search (proximity.c) both use: its own file below both, so
 * that neither calls the other for it. doc/collide.md explains the rules. */
#include "collide_impl.h"

/* ------------------------------------------------------------------------------------------ */
/* closest point on a triangle                                                                */

/* Closest point of the segment x0 + t (x1 - x0), t in [0, 1]: the projection clamped to the
 * segment. Returns t; a zero-length segment gives t = 0. */
static PetscReal ClosestOnSegment(const PetscReal p[3], const PetscReal x0[3], const PetscReal x1[3], PetscReal y[3])
{
  PetscReal e[3], r[3], l2, t = 0;

  for (int d = 0; d < 3; d++) {
    e[d] = x1[d] - x0[d];
    r[d] = p[d] - x0[d];
  }
  l2 = FcDot3(e, e);
  if (l2 > 0) t = PetscMin(1, PetscMax(0, FcDot3(r, e) / l2));
  for (int d = 0; d < 3; d++) y[d] = (1 - t) * x0[d] + t * x1[d];
  return t;
}

/* The closest of the three edges (with their end points): used for degenerate triangles and
 * as the safety net when round-off leaves a point outside every Voronoi test. Ties: the first
 * edge. */
static FcRegion ClosestOnEdges(const PetscReal p[3], const PetscReal *x[3], PetscReal xc[3], PetscReal w[3])
{
  PetscReal best   = PETSC_MAX_REAL;
  FcRegion  region = FC_REGION_VERTEX0;

  for (int k = 0; k < 3; k++) {
    PetscReal y[3], t, e2 = 0;
    t = ClosestOnSegment(p, x[k], x[(k + 1) % 3], y);
    for (int d = 0; d < 3; d++) e2 += (p[d] - y[d]) * (p[d] - y[d]);
    if (e2 < best) {
      best = e2;
      for (int d = 0; d < 3; d++) xc[d] = y[d];
      w[0] = w[1] = w[2] = 0;
      w[k]               = 1 - t;
      w[(k + 1) % 3]     = t;
      region = t == 0 ? (FcRegion)(FC_REGION_VERTEX0 + k) : (t == 1 ? (FcRegion)(FC_REGION_VERTEX0 + (k + 1) % 3) : (FcRegion)(FC_REGION_EDGE0 + k));
    }
  }
  return region;
}

/* Voronoi-region method (Ericson, "Real-Time Collision Detection", §5.1.5): the closest point
 * lies in the feature — vertex, edge or face — whose Voronoi region contains p, and each
 * region is recognised from signs of dot products, so the answer is exact up to round-off
 * and needs no iteration. Written here in a cyclic form over the corners x_k with edges
 * E_k = x_{k+1} - x_k (edge k) and r_k = p - x_k:
 *   vertex k:  r_k . E_k <= 0 and r_k . (x_{k+2} - x_k) <= 0  (behind both edges leaving x_k)
 *   edge k:    r_k . E_k >= 0, r_{k+1} . E_k <= 0 (between the planes through its ends
 *              normal to it) and lambda_{k+2} <= 0 (beyond edge k seen from the face)
 *   face:      otherwise, all lambda_j > 0, weights lambda_j / sum lambda.
 * lambda_j = N . (E_{j+1} x r_{j+1}) with N = E_0 x (x_2 - x_0) is the unnormalised
 * barycentric weight of corner j for the projection of p on the plane (signed area of the
 * sub-triangle opposite x_j). That form multiplies an edge by a point offset instead of two
 * point offsets (N . (r_{j+1} x r_{j+2}), equal in exact arithmetic), so its round-off
 * is relative to the edge length rather than to the distance of p. Zero-area triangles
 * (|N| at round-off level) have no face and are treated as their three edges. */
FcRegion FcClosestPointTriangle(const PetscReal p[3], const PetscReal a[3], const PetscReal b[3], const PetscReal c[3], PetscReal xc[3], PetscReal w[3])
{
  const PetscReal *x[3] = {a, b, c};
  PetscReal        E[3][3], r[3][3], N[3], lam[3], fwd[3], bwd[3], emax2 = 0, sum;

  for (int k = 0; k < 3; k++) {
    for (int d = 0; d < 3; d++) {
      E[k][d] = x[(k + 1) % 3][d] - x[k][d];
      r[k][d] = p[d] - x[k][d];
    }
    emax2 = PetscMax(emax2, FcDot3(E[k], E[k]));
  }
  FcCross3(E[0], E[1], N); /* = (b - a) x (c - b) = (b - a) x (c - a) */
  if (!(FcNorm3(N) > 16 * PETSC_MACHINE_EPSILON * emax2)) return ClosestOnEdges(p, x, xc, w);

  /* fwd[k] = r_k . E_k: how far p is past x_k along edge k; bwd[k] = r_{k+1} . E_k: past x_{k+1} */
  for (int k = 0; k < 3; k++) {
    fwd[k] = FcDot3(r[k], E[k]);
    bwd[k] = FcDot3(r[(k + 1) % 3], E[k]);
  }
  /* vertex k: r_k . (x_{k+2} - x_k) = -r_k . E_{k+2} = -bwd[k+2] (since r_{(k+2)+1} = r_k) */
  for (int k = 0; k < 3; k++) {
    if (fwd[k] <= 0 && bwd[(k + 2) % 3] >= 0) {
      for (int d = 0; d < 3; d++) xc[d] = x[k][d];
      w[0] = w[1] = w[2] = 0;
      w[k]               = 1;
      return (FcRegion)(FC_REGION_VERTEX0 + k);
    }
  }
  for (int j = 0; j < 3; j++) {
    PetscReal ex[3];
    FcCross3(E[(j + 1) % 3], r[(j + 1) % 3], ex);
    lam[j] = FcDot3(N, ex);
  }
  /* edge k is opposite corner k+2 */
  for (int k = 0; k < 3; k++) {
    if (fwd[k] >= 0 && bwd[k] <= 0 && lam[(k + 2) % 3] <= 0) {
      /* fwd - bwd = |E_k|^2 >= fwd >= 0, so t is in [0, 1] even in floating point */
      PetscReal den = fwd[k] - bwd[k], t = den > 0 ? fwd[k] / den : 0;
      w[k]           = 1 - t;
      w[(k + 1) % 3] = t;
      w[(k + 2) % 3] = 0;
      for (int d = 0; d < 3; d++) xc[d] = w[k] * x[k][d] + w[(k + 1) % 3] * x[(k + 1) % 3][d];
      return (FcRegion)(FC_REGION_EDGE0 + k);
    }
  }
  /* Face. In exact arithmetic every lambda is > 0 here; a round-off sign is settled by the
   * edges, whose answer is then within round-off of the face's. */
  if (!(lam[0] > 0 && lam[1] > 0 && lam[2] > 0)) return ClosestOnEdges(p, x, xc, w);
  sum = lam[0] + lam[1] + lam[2];
  for (int j = 0; j < 3; j++) w[j] = lam[j] / sum;
  for (int d = 0; d < 3; d++) xc[d] = w[0] * a[d] + w[1] * b[d] + w[2] * c[d];
  return FC_REGION_FACE;
}
