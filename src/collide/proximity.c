/* fcsim — point-triangle closest point, contactor points against a target surface, contact
 * frames, and points against analytic rigid shapes. doc/collide.md explains the rules. */
#include "collide_impl.h"

static inline PetscReal Dot(const PetscReal u[3], const PetscReal v[3])
{
  return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
}

static inline void Cross(const PetscReal u[3], const PetscReal v[3], PetscReal w[3])
{
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

static inline PetscReal Norm(const PetscReal u[3])
{
  return PetscSqrtReal(Dot(u, u));
}

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
  l2 = Dot(e, e);
  if (l2 > 0) t = PetscMin(1, PetscMax(0, Dot(r, e) / l2));
  for (int d = 0; d < 3; d++) y[d] = (1 - t) * x0[d] + t * x1[d];
  return t;
}

/* The closest of the three edges (with their end points): used for degenerate triangles and
 * as the safety net when round-off leaves a point outside every Voronoi test. Ties: the first
 * edge. */
static FcRegion ClosestOnEdges(const PetscReal p[3], const PetscReal *x[3], PetscReal xc[3], PetscReal w[3])
{
  PetscReal best = PETSC_MAX_REAL;
  FcRegion  region = FC_REGION_VERTEX0;

  for (int k = 0; k < 3; k++) {
    PetscReal y[3], t, e2 = 0;
    t = ClosestOnSegment(p, x[k], x[(k + 1) % 3], y);
    for (int d = 0; d < 3; d++) e2 += (p[d] - y[d]) * (p[d] - y[d]);
    if (e2 < best) {
      best = e2;
      for (int d = 0; d < 3; d++) xc[d] = y[d];
      w[0] = w[1] = w[2] = 0;
      w[k]           = 1 - t;
      w[(k + 1) % 3] = t;
      region         = t == 0 ? (FcRegion)(FC_REGION_VERTEX0 + k) : (t == 1 ? (FcRegion)(FC_REGION_VERTEX0 + (k + 1) % 3) : (FcRegion)(FC_REGION_EDGE0 + k));
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
    emax2 = PetscMax(emax2, Dot(E[k], E[k]));
  }
  Cross(E[0], E[1], N); /* = (b - a) x (c - b) = (b - a) x (c - a) */
  if (!(Norm(N) > 16 * PETSC_MACHINE_EPSILON * emax2)) return ClosestOnEdges(p, x, xc, w);

  /* fwd[k] = r_k . E_k: how far p is past x_k along edge k; bwd[k] = r_{k+1} . E_k: past x_{k+1} */
  for (int k = 0; k < 3; k++) {
    fwd[k] = Dot(r[k], E[k]);
    bwd[k] = Dot(r[(k + 1) % 3], E[k]);
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
    Cross(E[(j + 1) % 3], r[(j + 1) % 3], ex);
    lam[j] = Dot(N, ex);
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

/* ------------------------------------------------------------------------------------------ */
/* contact frame                                                                              */

PetscErrorCode FcContactFrame(const PetscReal n[3], const PetscReal t1_prev[3], PetscReal t1[3], PetscReal t2[3])
{
  PetscReal nn[3], a[3], s, len;
  PetscBool ok = PETSC_FALSE;

  PetscFunctionBegin;
  s = Norm(n);
  PetscCheck(s > 0 && PetscIsNormalReal(s), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Contact normal (%g, %g, %g) has no direction", (double)n[0], (double)n[1], (double)n[2]);
  for (int d = 0; d < 3; d++) nn[d] = n[d] / s;
  if (t1_prev) {
    /* continuity: the previous tangent moved onto the new tangent plane. Below a projected
     * length of 1e-6 the direction would be dominated by the tilt of n rather than by the
     * previous t1, so the deterministic choice below is as good and better conditioned. */
    PetscReal lp = Norm(t1_prev), an;
    for (int d = 0; d < 3; d++) a[d] = t1_prev[d];
    an = Dot(a, nn);
    for (int d = 0; d < 3; d++) a[d] -= an * nn[d];
    ok = (lp > 0 && Norm(a) > 1e-6 * lp) ? PETSC_TRUE : PETSC_FALSE;
  }
  if (!ok) {
    /* deterministic: the coordinate axis least aligned with n (lowest index on ties),
     * projected on the plane, i.e. (n x e_k) x n normalised. |n_k| <= 1/sqrt(3), so the
     * projection has length >= sqrt(2/3): well conditioned. n = e_z gives t1 = e_x, t2 = e_y. */
    int k = 0;
    for (int d = 1; d < 3; d++)
      if (PetscAbsReal(nn[d]) < PetscAbsReal(nn[k])) k = d;
    for (int d = 0; d < 3; d++) a[d] = -nn[k] * nn[d];
    a[k] += 1;
  }
  /* a second projection removes what cancellation left along n, so n . t1 is at round-off */
  s = Dot(a, nn);
  for (int d = 0; d < 3; d++) a[d] -= s * nn[d];
  len = Norm(a);
  for (int d = 0; d < 3; d++) t1[d] = a[d] / len;
  Cross(nn, t1, t2); /* right-handed: n x t1 = t2, t1 x t2 = n */
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* contactor points against a target surface                                                  */

/* Gap, normal and frame of point p against triangle t of the tree.
 * Face: gap = (p - xc) . n_face, n = n_face.
 * Edge or vertex: the sign comes from the feature's pseudo-normal N (FcAABBTreeFeatureNormal),
 * the direction from p - xc when |p - xc| is not tiny: it is the true direction of closest
 * approach, the gradient of the distance, and it turns continuously as p moves around a
 * convex edge or corner (n_face on the face side of the region boundary, the neighbour's on
 * the other), so the contact normal does not jump when the closest feature changes. At tiny
 * distances the difference p - xc is round-off noise and N, which only depends on the
 * surface, is used instead. Tiny: sqrt(eps) times the longest edge of the triangle. */
static PetscErrorCode FillContact(FcAABBTree tree, const PetscReal X[], const PetscReal p[3], PetscInt t, const PetscReal t1_prev[3], FcProximity *c)
{
  const PetscInt *v = tree->tri + 3 * t;
  PetscReal       dp[3], N[3], d, h = 0, s;

  PetscFunctionBegin;
  c->tri = t;
  for (int k = 0; k < 3; k++) c->nodes[k] = v[k];
  c->region = FcClosestPointTriangle(p, X + 3 * v[0], X + 3 * v[1], X + 3 * v[2], c->xc, c->bary);
  for (int k = 0; k < 3; k++) {
    PetscReal e[3];
    for (int j = 0; j < 3; j++) e[j] = X[3 * v[(k + 1) % 3] + j] - X[3 * v[k] + j];
    h = PetscMax(h, Norm(e));
  }
  for (int j = 0; j < 3; j++) dp[j] = p[j] - c->xc[j];
  d = Norm(dp);
  PetscCall(FcAABBTreeFeatureNormal(tree, X, t, c->region, N));
  if (Norm(N) == 0) PetscCall(FcAABBTreeFeatureNormal(tree, X, t, FC_REGION_FACE, N));
  if (Norm(N) == 0) { /* every face around is degenerate: only p - xc is left */
    if (d > 0) {
      for (int j = 0; j < 3; j++) N[j] = dp[j] / d;
    } else {
      N[0] = N[1] = 0;
      N[2]        = 1;
    }
  }
  if (c->region == FC_REGION_FACE) {
    c->gap = Dot(dp, N);
    for (int j = 0; j < 3; j++) c->n[j] = N[j];
  } else {
    s      = Dot(dp, N) >= 0 ? 1 : -1;
    c->gap = s * d;
    if (d > PetscSqrtReal(PETSC_MACHINE_EPSILON) * h) {
      for (int j = 0; j < 3; j++) c->n[j] = s * dp[j] / d;
    } else {
      for (int j = 0; j < 3; j++) c->n[j] = N[j];
    }
  }
  PetscCall(FcContactFrame(c->n, t1_prev, c->t1, c->t2));
  PetscFunctionReturn(0);
}

static PetscReal TriDist(FcAABBTree tree, const PetscReal X[], const PetscReal p[3], PetscInt t, FcRegion *region)
{
  const PetscInt *v = tree->tri + 3 * t;
  PetscReal       xc[3], w[3], e2 = 0;

  *region = FcClosestPointTriangle(p, X + 3 * v[0], X + 3 * v[1], X + 3 * v[2], xc, w);
  for (int d = 0; d < 3; d++) e2 += (p[d] - xc[d]) * (p[d] - xc[d]);
  return PetscSqrtReal(e2);
}

/* Selection rule (doc/collide.md, "Which triangle"):
 *  1. dmin = the smallest distance to an allowed triangle, if <= alarm (branch and bound);
 *  2. ties are the triangles within tol of dmin, tol = 1e-12 (scene size + |p|): round-off;
 *  3. the previous step's triangle of the point wins if within max(tol, hysteresis) of dmin;
 *     else among the ties a face beats an edge beats a vertex, then the lowest index.
 * Two triangles sharing an edge on which p projects give the same closest point, hence the same
 * gap, normal and nodal weights, so the choice between them (rule 3) changes only the label;
 * it is made deterministic so the label does not flicker with round-off either. */
PetscErrorCode FcProximityFind(FcAABBTree tree, const PetscReal X[], PetscInt npoints, const PetscInt points[], const PetscReal Xc[], const FcProximityOptions *opt, PetscInt *nout, FcProximity **out)
{
  PetscBool   *mask = NULL;
  PetscInt    *key = NULL, *pos = NULL, nprev = 0, m = 0;
  PetscReal    alarm, hyst, L = 0;
  FcProximity *res = NULL;

  PetscFunctionBegin;
  PetscCheck(opt, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcProximityFind needs options (at least the alarm distance)");
  alarm = opt->alarm;
  hyst  = opt->hysteresis;
  PetscCheck(alarm >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Alarm distance %g must be >= 0", (double)alarm);
  PetscCheck(hyst >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Hysteresis %g must be >= 0", (double)hyst);
  PetscCheck(opt->keep >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Keep distance %g must be >= 0", (double)opt->keep);
  *nout = 0;
  *out  = NULL;
  if (npoints <= 0 || tree->ntri == 0) PetscFunctionReturn(0);
  if (opt->allowed) {
    PetscCall(PetscCalloc1(tree->ntri, &mask));
    for (PetscInt j = 0; j < opt->nallowed; j++) {
      PetscInt t = opt->allowed[j];
      PetscCheck(t >= 0 && t < tree->ntri, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Allowed triangle %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", t, tree->ntri);
      mask[t] = PETSC_TRUE;
    }
  }
  if (opt->prev && opt->nprev > 0) { /* previous contacts sorted by point for O(log m) look-up */
    nprev = opt->nprev;
    PetscCall(PetscMalloc2(nprev, &key, nprev, &pos));
    for (PetscInt j = 0; j < nprev; j++) {
      key[j] = opt->prev[j].point;
      pos[j] = j;
    }
    PetscCall(PetscSortIntWithArray(nprev, key, pos));
  }
  for (int d = 0; d < 3; d++) L += PetscSqr(tree->node[0].hi[d] - tree->node[0].lo[d]);
  L = PetscSqrtReal(L);

  PetscCall(PetscMalloc1(npoints, &res));
  for (PetscInt i = 0; i < npoints; i++) {
    const PetscInt     q = points ? points[i] : i;
    const PetscReal   *p = Xc + 3 * q;
    const FcProximity *pr = NULL;
    PetscInt           bt, chosen = -1, loc = -1;
    PetscReal          d2, dmin, tol, reach = alarm;

    if (nprev) {
      PetscCall(PetscFindInt(q, nprev, key, &loc));
      if (loc >= 0) pr = &opt->prev[pos[loc]];
    }
    if (pr) reach = PetscMax(alarm, opt->keep); /* the alarm's hysteresis for a point already in contact */
    PetscCall(FcAABBTreeClosest_Private(tree, X, p, reach * reach, mask, &bt, &d2));
    if (bt < 0) continue;
    dmin = PetscSqrtReal(d2);
    tol  = 1e-12 * (L + PetscMax(PetscAbsReal(p[0]), PetscMax(PetscAbsReal(p[1]), PetscAbsReal(p[2]))));
    if (pr && pr->tri >= 0 && pr->tri < tree->ntri && (!mask || mask[pr->tri])) {
      FcRegion  r;
      PetscReal dp = TriDist(tree, X, p, pr->tri, &r);
      if (dp <= reach && dp <= dmin + PetscMax(tol, hyst)) chosen = pr->tri;
    }
    if (chosen < 0) {
      const PetscInt *hit;
      PetscInt        nhit;
      int             rank = 3;
      PetscCall(FcAABBTreeQueryBall_Private(tree, p, dmin + tol, mask, &nhit, &hit));
      for (PetscInt j = 0; j < nhit; j++) { /* hit is sorted: the first of a rank has the lowest index */
        FcRegion  r;
        PetscReal dt = TriDist(tree, X, p, hit[j], &r);
        int       rk = r == FC_REGION_FACE ? 0 : (FcRegionIsEdge(r) ? 1 : 2);
        if (dt <= dmin + tol && rk < rank) {
          rank   = rk;
          chosen = hit[j];
        }
      }
      if (chosen < 0) chosen = bt; /* not reached: bt itself is within tol */
    }
    res[m].point = q;
    PetscCall(FillContact(tree, X, p, chosen, pr ? pr->t1 : NULL, &res[m]));
    m++;
  }
  PetscCall(PetscFree(mask));
  PetscCall(PetscFree2(key, pos));
  if (m == 0) PetscCall(PetscFree(res));
  *nout = m;
  *out  = res;
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* analytic shapes                                                                            */

static void InitShapeContact(FcProximity *c)
{
  c->point = -1;
  c->tri   = -1;
  for (int k = 0; k < 3; k++) {
    c->nodes[k] = -1;
    c->bary[k]  = 0;
  }
}

/* A unit vector orthogonal to unit a: the axis least aligned with a, projected (the same
 * deterministic choice as FcContactFrame). */
static void AnyPerpendicular(const PetscReal a[3], PetscReal u[3])
{
  int       k = 0;
  PetscReal s;

  for (int d = 1; d < 3; d++)
    if (PetscAbsReal(a[d]) < PetscAbsReal(a[k])) k = d;
  for (int d = 0; d < 3; d++) u[d] = -a[k] * a[d];
  u[k] += 1;
  s = Norm(u);
  for (int d = 0; d < 3; d++) u[d] /= s;
}

PetscErrorCode FcProximityPlane(const PetscReal p[3], const PetscReal x0[3], const PetscReal normal[3], const PetscReal t1_prev[3], FcProximity *c)
{
  PetscReal s = Norm(normal);

  PetscFunctionBegin;
  PetscCheck(s > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Plane normal is zero");
  InitShapeContact(c);
  c->gap = 0;
  for (int d = 0; d < 3; d++) {
    c->n[d] = normal[d] / s;
    c->gap += (p[d] - x0[d]) * c->n[d];
  }
  for (int d = 0; d < 3; d++) c->xc[d] = p[d] - c->gap * c->n[d];
  c->region = FC_REGION_FACE;
  PetscCall(FcContactFrame(c->n, t1_prev, c->t1, c->t2));
  PetscFunctionReturn(0);
}

PetscErrorCode FcProximitySphere(const PetscReal p[3], const PetscReal center[3], PetscReal radius, const PetscReal t1_prev[3], FcProximity *c)
{
  PetscReal v[3], r;

  PetscFunctionBegin;
  PetscCheck(radius > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Sphere radius %g must be > 0", (double)radius);
  InitShapeContact(c);
  for (int d = 0; d < 3; d++) v[d] = p[d] - center[d];
  r = Norm(v);
  if (r > PETSC_MACHINE_EPSILON * radius) {
    for (int d = 0; d < 3; d++) c->n[d] = v[d] / r;
  } else { /* the centre: every direction is closest; +z by convention */
    c->n[0] = c->n[1] = 0;
    c->n[2]           = 1;
  }
  c->gap = r - radius;
  for (int d = 0; d < 3; d++) c->xc[d] = center[d] + radius * c->n[d];
  c->region = FC_REGION_FACE;
  PetscCall(FcContactFrame(c->n, t1_prev, c->t1, c->t2));
  PetscFunctionReturn(0);
}

/* In the box's frame (q = R^T (p - center)): outside, the closest point is q clamped to the
 * box and n the direction from it (a face, edge or corner by the number of clamped
 * coordinates); inside or on the surface, the nearest face (largest |q_j| - half_j, lowest j
 * on ties) with its outward normal. */
PetscErrorCode FcProximityBox(const PetscReal p[3], const PetscReal center[3], const PetscReal R[9], const PetscReal half[3], const PetscReal t1_prev[3], FcProximity *c)
{
  PetscReal q[3], y[3], nl[3] = {0, 0, 0}, o[3];
  int       nout = 0;

  PetscFunctionBegin;
  for (int j = 0; j < 3; j++) PetscCheck(half[j] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Box half extent %g must be >= 0", (double)half[j]);
  InitShapeContact(c);
  for (int j = 0; j < 3; j++) {
    q[j] = 0;
    for (int i = 0; i < 3; i++) q[j] += R[3 * i + j] * (p[i] - center[i]);
    o[j] = PetscAbsReal(q[j]) - half[j];
    if (o[j] > 0) nout++;
  }
  if (nout > 0) {
    PetscReal dl[3], d;
    for (int j = 0; j < 3; j++) {
      y[j]  = PetscMin(half[j], PetscMax(-half[j], q[j]));
      dl[j] = q[j] - y[j];
    }
    d = Norm(dl);
    for (int j = 0; j < 3; j++) nl[j] = dl[j] / d;
    c->gap    = d;
    c->region = nout == 1 ? FC_REGION_FACE : (nout == 2 ? FC_REGION_EDGE0 : FC_REGION_VERTEX0);
  } else {
    int       k = 0;
    PetscReal sg;
    for (int j = 1; j < 3; j++)
      if (o[j] > o[k]) k = j;
    sg = q[k] >= 0 ? 1 : -1;
    for (int j = 0; j < 3; j++) y[j] = q[j];
    y[k]      = sg * half[k];
    nl[k]     = sg;
    c->gap    = o[k];
    c->region = FC_REGION_FACE;
  }
  for (int i = 0; i < 3; i++) {
    c->n[i]  = 0;
    c->xc[i] = center[i];
    for (int j = 0; j < 3; j++) {
      c->n[i] += R[3 * i + j] * nl[j];
      c->xc[i] += R[3 * i + j] * y[j];
    }
  }
  PetscCall(FcContactFrame(c->n, t1_prev, c->t1, c->t2));
  PetscFunctionReturn(0);
}

/* Capped cylinder in its axial/radial coordinates: s along the axis, rho from it. dr = rho - R
 * and ds = |s| - H are the signed distances to the lateral surface and to the cap planes;
 * outside both, the closest point is on the rim circle. On the axis the radial direction is
 * undefined and the deterministic perpendicular of AnyPerpendicular is used. */
PetscErrorCode FcProximityCylinder(const PetscReal p[3], const PetscReal center[3], const PetscReal axis[3], PetscReal radius, PetscReal half_length, const PetscReal t1_prev[3], FcProximity *c)
{
  PetscReal a[3], v[3], rv[3], u[3], s, rho, dr, ds, sg, la = Norm(axis);
  PetscBool lateral;

  PetscFunctionBegin;
  PetscCheck(la > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cylinder axis is zero");
  PetscCheck(radius > 0 && half_length >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cylinder radius %g must be > 0 and half length %g >= 0", (double)radius, (double)half_length);
  InitShapeContact(c);
  for (int d = 0; d < 3; d++) {
    a[d] = axis[d] / la;
    v[d] = p[d] - center[d];
  }
  s = Dot(v, a);
  for (int d = 0; d < 3; d++) rv[d] = v[d] - s * a[d];
  rho = Norm(rv);
  if (rho > PETSC_MACHINE_EPSILON * radius) {
    for (int d = 0; d < 3; d++) u[d] = rv[d] / rho;
  } else AnyPerpendicular(a, u);
  dr = rho - radius;
  ds = PetscAbsReal(s) - half_length;
  sg = s >= 0 ? 1 : -1;
  if (dr > 0 && ds > 0) { /* beyond the rim */
    PetscReal dl[3], d;
    for (int k = 0; k < 3; k++) {
      c->xc[k] = center[k] + sg * half_length * a[k] + radius * u[k];
      dl[k]    = p[k] - c->xc[k];
    }
    d = Norm(dl);
    for (int k = 0; k < 3; k++) c->n[k] = dl[k] / d;
    c->gap    = d;
    c->region = FC_REGION_EDGE0;
  } else {
    /* outside one surface only: that one; inside: the nearer (larger signed distance),
     * the lateral surface on ties */
    lateral = (dr > 0 || (ds <= 0 && dr >= ds)) ? PETSC_TRUE : PETSC_FALSE;
    if (lateral) {
      c->gap = dr;
      for (int k = 0; k < 3; k++) {
        c->n[k]  = u[k];
        c->xc[k] = center[k] + s * a[k] + radius * u[k];
      }
    } else {
      c->gap = ds;
      for (int k = 0; k < 3; k++) {
        c->n[k]  = sg * a[k];
        c->xc[k] = center[k] + sg * half_length * a[k] + rv[k];
      }
    }
    c->region = FC_REGION_FACE;
  }
  PetscCall(FcContactFrame(c->n, t1_prev, c->t1, c->t2));
  PetscFunctionReturn(0);
}
