/* fcsim — contactor points against a target surface, contact frames, and points against
 * analytic rigid shapes (the closest point on a triangle is triangle.c). doc/collide.md explains
 * the rules. */
#include "collide_impl.h"

/* ------------------------------------------------------------------------------------------ */
/* contact frame                                                                              */

PetscErrorCode FcContactFrame(const PetscReal n[3], const PetscReal t1_prev[3], PetscReal t1[3], PetscReal t2[3])
{
  PetscReal nn[3], a[3], s, len;
  PetscBool ok = PETSC_FALSE;

  PetscFunctionBegin;
  s = FcNorm3(n);
  PetscCheck(s > 0 && PetscIsNormalReal(s), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Contact normal (%g, %g, %g) has no direction", (double)n[0],
    (double)n[1], (double)n[2]);
  for (int d = 0; d < 3; d++) nn[d] = n[d] / s;
  if (t1_prev) {
    /* continuity: the previous tangent moved onto the new tangent plane. Below a projected
     * length of 1e-6 the direction would be dominated by the tilt of n rather than by the
     * previous t1, so the deterministic choice below is as good and better conditioned. */
    PetscReal lp = FcNorm3(t1_prev), an;
    for (int d = 0; d < 3; d++) a[d] = t1_prev[d];
    an = FcDot3(a, nn);
    for (int d = 0; d < 3; d++) a[d] -= an * nn[d];
    ok = (lp > 0 && FcNorm3(a) > 1e-6 * lp) ? PETSC_TRUE : PETSC_FALSE;
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
  s = FcDot3(a, nn);
  for (int d = 0; d < 3; d++) a[d] -= s * nn[d];
  len = FcNorm3(a);
  for (int d = 0; d < 3; d++) t1[d] = a[d] / len;
  FcCross3(nn, t1, t2); /* right-handed: n x t1 = t2, t1 x t2 = n */
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
    h = PetscMax(h, FcNorm3(e));
  }
  for (int j = 0; j < 3; j++) dp[j] = p[j] - c->xc[j];
  d = FcNorm3(dp);
  PetscCall(FcAABBTreeFeatureNormal(tree, X, t, c->region, N));
  if (FcNorm3(N) == 0) PetscCall(FcAABBTreeFeatureNormal(tree, X, t, FC_REGION_FACE, N));
  if (FcNorm3(N) == 0) { /* every face around is degenerate: only p - xc is left */
    if (d > 0) {
      for (int j = 0; j < 3; j++) N[j] = dp[j] / d;
    } else {
      N[0] = N[1] = 0;
      N[2]        = 1;
    }
  }
  if (c->region == FC_REGION_FACE) {
    c->gap = FcDot3(dp, N);
    for (int j = 0; j < 3; j++) c->n[j] = N[j];
  } else {
    s      = FcDot3(dp, N) >= 0 ? 1 : -1;
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
PetscErrorCode FcProximityFind(FcAABBTree tree, const PetscReal X[], PetscInt npoints, const PetscInt points[], const PetscReal Xc[],
  const FcProximityOptions *opt, PetscInt *nout, FcProximity **out)
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
      PetscCheck(
        t >= 0 && t < tree->ntri, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Allowed triangle %" PetscInt_FMT " not in [0, %" PetscInt_FMT ")", t, tree->ntri);
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
  if (opt->scale > 0) L = opt->scale;
  else PetscCall(FcAABBTreeGetScale(tree, &L));

  PetscCall(PetscMalloc1(npoints, &res));
  for (PetscInt i = 0; i < npoints; i++) {
    const PetscInt     q  = points ? points[i] : i;
    const PetscReal   *p  = Xc + 3 * q;
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
  s = FcNorm3(u);
  for (int d = 0; d < 3; d++) u[d] /= s;
}

PetscErrorCode FcProximityPlane(const PetscReal p[3], const PetscReal x0[3], const PetscReal normal[3], const PetscReal t1_prev[3], FcProximity *c)
{
  PetscReal s = FcNorm3(normal);

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
  r = FcNorm3(v);
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
PetscErrorCode FcProximityBox(
  const PetscReal p[3], const PetscReal center[3], const PetscReal R[9], const PetscReal half[3], const PetscReal t1_prev[3], FcProximity *c)
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
    d = FcNorm3(dl);
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
PetscErrorCode FcProximityCylinder(
  const PetscReal p[3], const PetscReal center[3], const PetscReal axis[3], PetscReal radius, PetscReal half_length, const PetscReal t1_prev[3], FcProximity *c)
{
  PetscReal a[3], v[3], rv[3], u[3], s, rho, dr, ds, sg, la = FcNorm3(axis);
  PetscBool lateral;

  PetscFunctionBegin;
  PetscCheck(la > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cylinder axis is zero");
  PetscCheck(radius > 0 && half_length >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cylinder radius %g must be > 0 and half length %g >= 0",
    (double)radius, (double)half_length);
  InitShapeContact(c);
  for (int d = 0; d < 3; d++) {
    a[d] = axis[d] / la;
    v[d] = p[d] - center[d];
  }
  s = FcDot3(v, a);
  for (int d = 0; d < 3; d++) rv[d] = v[d] - s * a[d];
  rho = FcNorm3(rv);
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
    d = FcNorm3(dl);
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
