/* Unit test of src/collide: closest point on a triangle against an independent optimality
 * check and dense sampling; the AABB tree's closest-triangle and ball queries against brute
 * force on a randomly perturbed triangulated sphere; the signed gap against the generalized
 * winding number; refit after a rigid motion (and fattened boxes without refit) against a
 * rebuild; contact frames (orthonormal, right-handed, continuous); analytic shapes; and the
 * growth of the query work with the number of triangles. Each test prints its key figures on
 * lines starting with "FIGURE ".
 * Option -fc_test_small shrinks every size (for valgrind --leak-check=full, -malloc_debug
 * -malloc_dump). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, dup in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/collide/collide.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* helpers                                                                                    */

static PetscBool small = PETSC_FALSE;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* Uniform in [-1, 1): xorshift64* (testutil.h), so the test does not depend on the C library's
 * rand(). */
static PetscReal Rand(void) { return FcTestXorshift(&rng_state); }

static PetscReal Dot(const PetscReal u[3], const PetscReal v[3]) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

static void Cross(const PetscReal u[3], const PetscReal v[3], PetscReal w[3])
{
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

static PetscReal Dist(const PetscReal u[3], const PetscReal v[3])
{
  PetscReal s = 0;
  for (int d = 0; d < 3; d++) s += (u[d] - v[d]) * (u[d] - v[d]);
  return PetscSqrtReal(s);
}

static PetscReal Norm(const PetscReal u[3]) { return PetscSqrtReal(Dot(u, u)); }

static void RandomUnit(PetscReal n[3])
{
  PetscReal s;
  do {
    for (int d = 0; d < 3; d++) n[d] = Rand();
    s = Norm(n);
  } while (s > 1 || s < 1e-3);
  for (int d = 0; d < 3; d++) n[d] /= s;
}

/* Rotation matrix (row-major) of a random unit quaternion. */
static void RandomRotation(PetscReal R[9])
{
  PetscReal q[4], s = 0;
  do {
    s = 0;
    for (int k = 0; k < 4; k++) {
      q[k] = Rand();
      s += q[k] * q[k];
    }
  } while (s > 1 || s < 1e-3);
  s = PetscSqrtReal(s);
  for (int k = 0; k < 4; k++) q[k] /= s;
  {
    PetscReal w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
  }
}

/* Rotate v about unit axis a by angle th (Rodrigues). */
static void Rotate(const PetscReal v[3], const PetscReal a[3], PetscReal th, PetscReal out[3])
{
  PetscReal axv[3], ad = Dot(a, v), c = PetscCosReal(th), s = PetscSinReal(th);
  Cross(a, v, axv);
  for (int d = 0; d < 3; d++) out[d] = v[d] * c + axv[d] * s + a[d] * ad * (1 - c);
}

/* Closed triangulated sphere: latitude-longitude grid (nlat bands, nlon meridians, fans at the
 * poles), every vertex moved randomly (radius by up to `jitter`, angles by up to 15% of the
 * spacing, which keeps it star-shaped about the origin, hence embedded), oriented outward. */
static PetscErrorCode BuildSphere(PetscInt nlat, PetscInt nlon, PetscReal jitter, PetscInt *nv, PetscReal **Xo, PetscInt *nt, PetscInt **To)
{
  const PetscReal dth = PETSC_PI / nlat, dph = 2 * PETSC_PI / nlon;
  PetscInt        n = 2 + (nlat - 1) * nlon, m = 2 * nlon * (nlat - 1), k = 0;
  PetscReal      *X, vol = 0;
  PetscInt       *T;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * n, &X));
  PetscCall(PetscMalloc1(3 * m, &T));
  for (PetscInt v = 0; v < n; v++) {
    PetscReal th, ph, r = 1 + jitter * Rand();
    if (v == 0) th = 0, ph = 0;
    else if (v == n - 1) th = PETSC_PI, ph = 0;
    else {
      PetscInt i = 1 + (v - 1) / nlon, j = (v - 1) % nlon;
      th = i * dth + 0.15 * dth * Rand();
      ph = j * dph + 0.15 * dph * Rand();
    }
    X[3 * v + 0] = r * PetscSinReal(th) * PetscCosReal(ph);
    X[3 * v + 1] = r * PetscSinReal(th) * PetscSinReal(ph);
    X[3 * v + 2] = r * PetscCosReal(th);
  }
#define IDX(i, j) (1 + ((i)-1) * nlon + ((j) % nlon))
  for (PetscInt j = 0; j < nlon; j++) {
    T[3 * k] = 0, T[3 * k + 1] = IDX(1, j), T[3 * k + 2] = IDX(1, j + 1), k++;
    T[3 * k] = n - 1, T[3 * k + 1] = IDX(nlat - 1, j + 1), T[3 * k + 2] = IDX(nlat - 1, j), k++;
  }
  for (PetscInt i = 1; i < nlat - 1; i++) {
    for (PetscInt j = 0; j < nlon; j++) {
      T[3 * k] = IDX(i, j), T[3 * k + 1] = IDX(i + 1, j), T[3 * k + 2] = IDX(i + 1, j + 1), k++;
      T[3 * k] = IDX(i, j), T[3 * k + 1] = IDX(i + 1, j + 1), T[3 * k + 2] = IDX(i, j + 1), k++;
    }
  }
#undef IDX
  PetscCheck(k == m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sphere: %" PetscInt_FMT " triangles, expected %" PetscInt_FMT, k, m);
  for (PetscInt t = 0; t < m; t++) {
    PetscReal c[3];
    Cross(X + 3 * T[3 * t + 1], X + 3 * T[3 * t + 2], c);
    vol += Dot(X + 3 * T[3 * t], c) / 6;
  }
  if (vol < 0) {
    for (PetscInt t = 0; t < m; t++) {
      PetscInt s   = T[3 * t + 1];
      T[3 * t + 1] = T[3 * t + 2];
      T[3 * t + 2] = s;
    }
  }
  *nv = n, *Xo = X, *nt = m, *To = T;
  PetscFunctionReturn(0);
}

/* Brute force: the closest triangle (lowest index on ties) and its distance. */
static void BruteClosest(PetscInt nt, const PetscInt *T, const PetscReal *X, const PetscReal p[3], PetscInt *bt, PetscReal *bd)
{
  *bt = -1;
  *bd = PETSC_MAX_REAL;
  for (PetscInt t = 0; t < nt; t++) {
    PetscReal xc[3], w[3], d;
    (void)FcClosestPointTriangle(p, X + 3 * T[3 * t], X + 3 * T[3 * t + 1], X + 3 * T[3 * t + 2], xc, w);
    d = Dist(p, xc);
    if (d < *bd) *bt = t, *bd = d;
  }
}

/* Generalized winding number of a closed oriented surface around p (sum of the solid angles of
 * the triangles, Van Oosterom & Strackee 1983, over 4 pi): 1 inside, 0 outside. Independent of
 * the distance machinery under test. */
static PetscReal Winding(PetscInt nt, const PetscInt *T, const PetscReal *X, const PetscReal p[3])
{
  PetscReal w = 0;
  for (PetscInt t = 0; t < nt; t++) {
    PetscReal a[3], b[3], c[3], bc[3], la, lb, lc;
    for (int d = 0; d < 3; d++) {
      a[d] = X[3 * T[3 * t] + d] - p[d];
      b[d] = X[3 * T[3 * t + 1] + d] - p[d];
      c[d] = X[3 * T[3 * t + 2] + d] - p[d];
    }
    Cross(b, c, bc);
    la = Norm(a), lb = Norm(b), lc = Norm(c);
    w += 2 * PetscAtan2Real(Dot(a, bc), la * lb * lc + Dot(a, b) * lc + Dot(a, c) * lb + Dot(b, c) * la);
  }
  return w / (4 * PETSC_PI);
}

/* ------------------------------------------------------------------------------------------ */
/* closest point on a triangle                                                                */

static PetscErrorCode TestClosestPoint(void)
{
  const PetscInt npts = small ? 1000 : 10000, ns = 60;
  PetscReal      max_excess = -PETSC_MAX_REAL, max_opt = 0, max_sum = 0, max_rep = 0, min_w = 1, max_res = 0;
  PetscInt       count[3] = {0, 0, 0}, nsliver = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < npts; i++) {
    PetscReal x[3][3], p[3], xc[3], w[3], rep[3] = {0, 0, 0}, d, dmin = PETSC_MAX_REAL, sum;
    FcRegion  r;

    for (int k = 0; k < 3; k++)
      for (int j = 0; j < 3; j++) x[k][j] = Rand();
    if (i % 10 == 3) { /* sliver: c almost on segment ab */
      for (int j = 0; j < 3; j++) x[2][j] = 0.3 * x[0][j] + 0.7 * x[1][j] + 1e-7 * Rand();
      nsliver++;
    } else if (i % 50 == 7) { /* exactly degenerate: c on segment ab, or two corners equal */
      for (int j = 0; j < 3; j++) x[2][j] = (i % 100 == 7) ? x[0][j] : 0.5 * x[0][j] + 0.5 * x[1][j];
      nsliver++;
    }
    for (int j = 0; j < 3; j++) p[j] = 2 * Rand();
    r = FcClosestPointTriangle(p, x[0], x[1], x[2], xc, w);
    d = Dist(p, xc);
    /* weights: >= 0, sum 1, reproduce xc, consistent with the region */
    sum = w[0] + w[1] + w[2];
    for (int k = 0; k < 3; k++) {
      min_w = PetscMin(min_w, w[k]);
      for (int j = 0; j < 3; j++) rep[j] += w[k] * x[k][j];
    }
    max_sum = PetscMax(max_sum, PetscAbsReal(sum - 1));
    max_rep = PetscMax(max_rep, Dist(rep, xc));
    if (r == FC_REGION_FACE) {
      count[0]++;
      assert_true(w[0] > 0 && w[1] > 0 && w[2] > 0);
    } else if (FcRegionIsEdge(r)) {
      count[1]++;
      assert_true(w[(r - FC_REGION_EDGE0 + 2) % 3] == 0);
    } else {
      assert_true(FcRegionIsVertex(r));
      count[2]++;
      assert_true(w[r - FC_REGION_VERTEX0] == 1);
    }
    /* optimality of the projection on a convex set: (p - xc) . (y - xc) <= 0 for every y of
     * the triangle, enough to check at the corners (exact, independent of the sampling) */
    for (int k = 0; k < 3; k++) {
      PetscReal a[3], b[3];
      for (int j = 0; j < 3; j++) a[j] = p[j] - xc[j], b[j] = x[k][j] - xc[j];
      max_opt = PetscMax(max_opt, Dot(a, b));
    }
    /* dense sampling: the analytic distance is below every sampled one */
    for (PetscInt a = 0; a <= ns; a++) {
      for (PetscInt b = 0; a + b <= ns; b++) {
        PetscReal u = (PetscReal)a / ns, v = (PetscReal)b / ns, y[3];
        for (int j = 0; j < 3; j++) y[j] = (1 - u - v) * x[0][j] + u * x[1][j] + v * x[2][j];
        dmin = PetscMin(dmin, Dist(p, y));
      }
    }
    max_excess = PetscMax(max_excess, d - dmin);
    max_res    = PetscMax(max_res, dmin - d);
  }
  printf("FIGURE closest point on triangle: %" PetscInt_FMT " points (%" PetscInt_FMT " sliver/degenerate triangles), regions face/edge/vertex %" PetscInt_FMT
         "/%" PetscInt_FMT "/%" PetscInt_FMT "\n",
    npts, nsliver, count[0], count[1], count[2]);
  printf(
    "FIGURE closest point: max(d - min sampled d) = %.3e (<= 1e-12), max optimality (p-xc).(x_k-xc) = %.3e, max |sum w - 1| = %.3e, min w = %.3e, max |sum w x - xc| = %.3e, max sampling slack = %.3e\n",
    (double)max_excess, (double)max_opt, (double)max_sum, (double)min_w, (double)max_rep, (double)max_res);
  assert_true(max_excess <= 1e-12);
  assert_true(max_opt <= 1e-12);
  assert_true(max_sum <= 1e-14);
  assert_true(min_w >= 0);
  assert_true(max_rep <= 1e-14);
  assert_true(count[0] > 0 && count[1] > 0 && count[2] > 0);
  PetscFunctionReturn(0);
}

static void test_closest_point(void **state)
{
  (void)state;
  assert_int_equal(TestClosestPoint(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* tree against brute force on a sphere                                                       */

/* Compare tree answers with brute force for npts points; returns the number of mismatches. */
static PetscErrorCode CompareClosest(
  FcAABBTree tree, PetscInt nt, const PetscInt *T, const PetscReal *X, PetscInt npts, const PetscReal *P, PetscInt *mismatch, PetscReal *maxdiff)
{
  PetscFunctionBegin;
  *mismatch = 0;
  *maxdiff  = 0;
  for (PetscInt i = 0; i < npts; i++) {
    PetscInt  t, bt;
    PetscReal d, bd, xc[3];
    PetscCall(FcAABBTreeClosest(tree, X, P + 3 * i, PETSC_MAX_REAL, &t, &d, xc));
    BruteClosest(nt, T, X, P + 3 * i, &bt, &bd);
    if (t != bt && PetscAbsReal(d - bd) > 1e-14) (*mismatch)++;
    *maxdiff = PetscMax(*maxdiff, PetscAbsReal(d - bd));
    assert_true(PetscAbsReal(Dist(P + 3 * i, xc) - d) <= 1e-15);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode TestTreeSphere(void)
{
  const PetscInt     nlat = small ? 20 : 50, nlon = small ? 22 : 52, npts = small ? 300 : 2000;
  const PetscReal    rball = 0.1, alarm = 0.3;
  PetscInt           nv, nt, *T, mismatch, ball_miss = 0, ball_extra = 0, nfound, sign_err = 0, not_found = 0, nreg[3] = {0, 0, 0}, depth, nnodes, ninside = 0;
  PetscReal         *X, *P, maxdiff, max_gap = 0, max_rec = 0;
  FcAABBTree         tree;
  FcProximity       *res;
  FcProximityOptions opt;

  PetscFunctionBegin;
  PetscCall(BuildSphere(nlat, nlon, 0.05, &nv, &X, &nt, &T));
  PetscCall(FcAABBTreeCreate(nt, 3, T, X, &tree));
  PetscCall(FcAABBTreeGetSizes(tree, NULL, &nnodes, &depth));
  assert_int_equal(nnodes, 2 * nt - 1);
  PetscCall(PetscMalloc1(3 * npts, &P));
  for (PetscInt i = 0; i < 3 * npts; i++) P[i] = 1.5 * Rand();

  /* closest triangle, unbounded */
  PetscCall(CompareClosest(tree, nt, T, X, npts, P, &mismatch, &maxdiff));

  /* ball query: contains every triangle within rball, and only triangles whose box is */
  for (PetscInt i = 0; i < npts; i++) {
    const PetscReal *p = P + 3 * i;
    const PetscInt  *list;
    PetscInt         n, j = 0;
    PetscCall(FcAABBTreeQueryBall(tree, p, rball, &n, &list));
    for (PetscInt t = 0; t < nt; t++) {
      PetscReal xc[3], w[3], lo[3], hi[3], bd = 0, d;
      PetscBool in;
      (void)FcClosestPointTriangle(p, X + 3 * T[3 * t], X + 3 * T[3 * t + 1], X + 3 * T[3 * t + 2], xc, w);
      d = Dist(p, xc);
      for (int k = 0; k < 3; k++) {
        lo[k] = PetscMin(X[3 * T[3 * t] + k], PetscMin(X[3 * T[3 * t + 1] + k], X[3 * T[3 * t + 2] + k]));
        hi[k] = PetscMax(X[3 * T[3 * t] + k], PetscMax(X[3 * T[3 * t + 1] + k], X[3 * T[3 * t + 2] + k]));
        bd += PetscSqr(PetscMax(0, PetscMax(lo[k] - p[k], p[k] - hi[k])));
      }
      bd = PetscSqrtReal(bd);
      while (j < n && list[j] < t) j++; /* list is sorted */
      in = (j < n && list[j] == t) ? PETSC_TRUE : PETSC_FALSE;
      if (!in && (d <= rball || bd <= rball - 1e-14)) ball_miss++;
      if (in && bd > rball + 1e-14) ball_extra++;
    }
  }

  /* proximity: every point within alarm found, same distance as brute force, sign of the gap
   * equal to the inside/outside of the winding number */
  PetscCall(PetscMemzero(&opt, sizeof opt));
  opt.alarm = alarm;
  PetscCall(FcProximityFind(tree, X, npts, NULL, P, &opt, &nfound, &res));
  {
    PetscInt j = 0;
    for (PetscInt i = 0; i < npts; i++) {
      PetscInt  bt;
      PetscReal bd, wn;
      BruteClosest(nt, T, X, P + 3 * i, &bt, &bd);
      if (j < nfound && res[j].point == i) {
        const FcProximity *c = &res[j++];
        PetscReal          rec[3];
        max_gap = PetscMax(max_gap, PetscAbsReal(PetscAbsReal(c->gap) - bd));
        for (int d = 0; d < 3; d++) rec[d] = c->xc[d] + c->gap * c->n[d];
        max_rec = PetscMax(max_rec, Dist(rec, P + 3 * i));
        wn      = Winding(nt, T, X, P + 3 * i);
        assert_true(PetscAbsReal(wn - round(wn)) < 1e-6);
        if (wn > 0.5) ninside++;
        if (PetscAbsReal(c->gap) > 1e-10 && ((c->gap < 0) != (wn > 0.5))) sign_err++;
        nreg[c->region == FC_REGION_FACE ? 0 : (FcRegionIsEdge(c->region) ? 1 : 2)]++;
        assert_true(PetscAbsReal(Norm(c->n) - 1) < 1e-14);
      } else if (bd <= alarm) not_found++;
    }
  }
  printf("FIGURE aabb vs brute force: sphere %" PetscInt_FMT " triangles (tree depth %" PetscInt_FMT "), %" PetscInt_FMT
         " points: closest mismatches %" PetscInt_FMT ", max |d - d_bf| = %.3e; ball r=%g: %" PetscInt_FMT " missed, %" PetscInt_FMT " extra\n",
    nt, depth, npts, mismatch, (double)maxdiff, (double)rball, ball_miss, ball_extra);
  printf("FIGURE proximity on sphere: alarm %g: %" PetscInt_FMT " found (%" PetscInt_FMT " inside), %" PetscInt_FMT
         " missed, max ||gap| - d_bf| = %.3e, max |xc + gap n - p| = %.3e, gap sign vs winding number: %" PetscInt_FMT
         " errors, regions face/edge/vertex %" PetscInt_FMT "/%" PetscInt_FMT "/%" PetscInt_FMT "\n",
    (double)alarm, nfound, ninside, not_found, (double)max_gap, (double)max_rec, sign_err, nreg[0], nreg[1], nreg[2]);
  assert_int_equal(mismatch, 0);
  assert_int_equal(ball_miss, 0);
  assert_int_equal(ball_extra, 0);
  assert_int_equal(not_found, 0);
  assert_int_equal(sign_err, 0);
  assert_true(max_gap <= 1e-14);
  assert_true(max_rec <= 1e-12);
  assert_true(nreg[1] + nreg[2] > 0);
  PetscCall(PetscFree(res));
  PetscCall(FcAABBTreeDestroy(&tree));
  PetscCall(PetscFree(P));
  PetscCall(PetscFree(X));
  PetscCall(PetscFree(T));
  PetscFunctionReturn(0);
}

static void test_tree_sphere(void **state)
{
  (void)state;
  assert_int_equal(TestTreeSphere(), 0);
}

/* Ghosted targets (FcAABBTreeSelect, doc/mpi.md "Contact"): points split in 64 groups by the cell
 * of a grid (a rank's contactor points each); a group's search in a tree over only the triangles whose box meets
 * the group's box inflated by the alarm (+ a margin far above the ties' 1e-12), with the whole
 * tree's scene size and the previous triangles renumbered, finds what the whole tree finds, every
 * field bit for bit, the normals of edges and vertices included (no ring of neighbours selected),
 * from a first detection (no previous) and a second one after a move (the previous triangle's
 * tie rule); and each subset holds fewer triangles than the surface. */
static PetscBool SameBits(const FcProximity *x, const FcProximity *y)
{
  return (PetscBool)(x->point == y->point && x->tri == y->tri && x->region == y->region && !memcmp(x->nodes, y->nodes, sizeof x->nodes) &&
    !memcmp(x->bary, y->bary, sizeof x->bary) && !memcmp(&x->gap, &y->gap, sizeof x->gap) && !memcmp(x->n, y->n, sizeof x->n) &&
    !memcmp(x->t1, y->t1, sizeof x->t1) && !memcmp(x->t2, y->t2, sizeof x->t2) && !memcmp(x->xc, y->xc, sizeof x->xc));
}

/* The cell of p in a 4 × 4 × 4 grid over [−1.2, 1.2]³ (cells 0.6 wide, 4 alarms) */
static int Cell_Private(const PetscReal p[3])
{
  int c = 0;
  for (int k = 2; k >= 0; k--) c = 4 * c + (int)PetscMin(3, PetscMax(0, PetscFloorReal((p[k] + 1.2) / 0.6)));
  return c;
}

static PetscErrorCode TestTreeSubset(void)
{
  const PetscInt  nlat = 40, nlon = 42, npts = small ? 1000 : 3000;
  const PetscReal alarm = 0.15;
  PetscInt        nv, nt, *T, differ = 0, compared = 0, maxsel = 0;
  PetscReal      *X, *P, L;
  FcAABBTree      tree;

  PetscFunctionBegin;
  PetscCall(BuildSphere(nlat, nlon, 0.05, &nv, &X, &nt, &T));
  PetscCall(FcAABBTreeCreate(nt, 3, T, X, &tree));
  PetscCall(FcAABBTreeGetScale(tree, &L));
  PetscCall(PetscMalloc1(3 * npts, &P));
  for (PetscInt i = 0; i < 3 * npts; i++) P[i] = 1.2 * Rand();
  for (int cell = 0; cell < 64; cell++) {
    PetscInt           np     = 0, *pts, nsel, *sel, *sub, nw, ns, nw2, ns2;
    PetscReal          box[6] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL};
    FcAABBTree         st;
    FcProximity       *w, *g, *w2, *g2, *prevl;
    FcProximityOptions opt, os;
    PetscCall(PetscMalloc1(npts, &pts));
    for (PetscInt i = 0; i < npts; i++)
      if (Cell_Private(P + 3 * i) == cell) pts[np++] = i;
    for (PetscInt i = 0; i < np; i++)
      for (int k = 0; k < 3; k++) {
        box[k]     = PetscMin(box[k], P[3 * pts[i] + k] - alarm - 1e-9 * (L + 2));
        box[3 + k] = PetscMax(box[3 + k], P[3 * pts[i] + k] + alarm + 1e-9 * (L + 2));
      }
    PetscCall(FcAABBTreeSelect(tree, X, 1, box, &nsel, &sel));
    maxsel = PetscMax(maxsel, nsel);
    PetscCall(PetscMalloc1(3 * nsel + 1, &sub));
    for (PetscInt j = 0; j < nsel; j++)
      for (int c = 0; c < 3; c++) sub[3 * j + c] = T[3 * sel[j] + c];
    PetscCall(FcAABBTreeCreate(nsel, 3, sub, X, &st));
    PetscCall(PetscMemzero(&opt, sizeof opt));
    opt.alarm = alarm;
    os        = opt;
    os.scale  = L;
    PetscCall(FcProximityFind(tree, X, np, pts, P, &opt, &nw, &w));
    PetscCall(FcProximityFind(st, X, np, pts, P, &os, &ns, &g));
    for (PetscInt i = 0; i < ns; i++) g[i].tri = sel[g[i].tri];
    compared += nw;
    differ += PetscAbsInt(nw - ns);
    for (PetscInt i = 0; i < PetscMin(nw, ns); i++) differ += !SameBits(&w[i], &g[i]);
    /* a second detection from the first (its triangles as the previous ones) after a small move */
    for (PetscInt i = 0; i < np; i++)
      for (int k = 0; k < 3; k++) P[3 * pts[i] + k] += 1e-3 * Rand();
    PetscCall(PetscMalloc1(nw + 1, &prevl));
    for (PetscInt i = 0; i < nw; i++) {
      PetscInt loc;
      prevl[i] = w[i];
      PetscCall(PetscFindInt(w[i].tri, nsel, sel, &loc));
      prevl[i].tri = loc;
    }
    opt.prev  = w;
    opt.nprev = nw;
    os.prev   = prevl;
    os.nprev  = nw;
    PetscCall(FcProximityFind(tree, X, np, pts, P, &opt, &nw2, &w2));
    PetscCall(FcProximityFind(st, X, np, pts, P, &os, &ns2, &g2));
    for (PetscInt i = 0; i < ns2; i++) g2[i].tri = sel[g2[i].tri];
    compared += nw2;
    differ += PetscAbsInt(nw2 - ns2);
    for (PetscInt i = 0; i < PetscMin(nw2, ns2); i++) differ += !SameBits(&w2[i], &g2[i]);
    PetscCall(PetscFree(w));
    PetscCall(PetscFree(g));
    PetscCall(PetscFree(w2));
    PetscCall(PetscFree(g2));
    PetscCall(PetscFree(prevl));
    PetscCall(PetscFree(sub));
    PetscCall(PetscFree(sel));
    PetscCall(PetscFree(pts));
    PetscCall(FcAABBTreeDestroy(&st));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF,
    "FIGURE collide subset trees: %" PetscInt_FMT " detections of 64 groups against the triangles in reach (at most %" PetscInt_FMT " of %" PetscInt_FMT
    "): %" PetscInt_FMT " differ from the whole tree's\n",
    compared, maxsel, nt, differ));
  assert_true(compared > 100);
  assert_int_equal(differ, 0);
  assert_true(maxsel < nt);
  PetscCall(PetscFree(P));
  PetscCall(PetscFree(X));
  PetscCall(PetscFree(T));
  PetscCall(FcAABBTreeDestroy(&tree));
  PetscFunctionReturn(0);
}

static void test_tree_subset(void **state)
{
  (void)state;
  assert_int_equal(TestTreeSubset(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* refit after a rigid motion, fattened boxes without refit                                   */

/* Same contacts (point, triangle, region, gap, normal) from two trees; returns the largest
 * difference of gaps and counts differing labels. */
static PetscErrorCode CompareFind(
  FcAABBTree a, FcAABBTree b, const PetscReal *X, PetscInt npts, const PetscReal *P, PetscReal alarm, PetscInt *ndiff, PetscReal *gdiff, PetscInt *nfound)
{
  FcProximityOptions opt;
  FcProximity       *ra, *rb;
  PetscInt           na, nb;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&opt, sizeof opt));
  opt.alarm = alarm;
  PetscCall(FcProximityFind(a, X, npts, NULL, P, &opt, &na, &ra));
  PetscCall(FcProximityFind(b, X, npts, NULL, P, &opt, &nb, &rb));
  assert_int_equal(na, nb);
  *ndiff = 0;
  *gdiff = 0;
  for (PetscInt i = 0; i < na; i++) {
    if (ra[i].point != rb[i].point || ra[i].tri != rb[i].tri || ra[i].region != rb[i].region) (*ndiff)++;
    *gdiff = PetscMax(*gdiff, PetscAbsReal(ra[i].gap - rb[i].gap));
    for (int d = 0; d < 3; d++) *gdiff = PetscMax(*gdiff, PetscAbsReal(ra[i].n[d] - rb[i].n[d]));
  }
  *nfound = na;
  PetscCall(PetscFree(ra));
  PetscCall(PetscFree(rb));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestRefit(void)
{
  const PetscInt  nlat = small ? 20 : 50, nlon = small ? 22 : 52, npts = small ? 300 : 2000;
  const PetscReal alarm = 0.3, fat = 0.02;
  PetscInt        nv, nt, *T, mm, nd1, nd2, nf1, nf2, mm3;
  PetscReal      *X, *X2, *X3, *P, R[9], tr[3], gd1, gd2, md, md3;
  FcAABBTree      a, b, c;

  PetscFunctionBegin;
  PetscCall(BuildSphere(nlat, nlon, 0.05, &nv, &X, &nt, &T));
  PetscCall(PetscMalloc3(3 * nv, &X2, 3 * nv, &X3, 3 * npts, &P));
  PetscCall(FcAABBTreeCreate(nt, 3, T, X, &a));
  /* random rigid motion: the mesh moves and turns, the tree topology stays */
  RandomRotation(R);
  for (int d = 0; d < 3; d++) tr[d] = 2 * Rand();
  for (PetscInt v = 0; v < nv; v++)
    for (int i = 0; i < 3; i++) X2[3 * v + i] = tr[i] + R[3 * i] * X[3 * v] + R[3 * i + 1] * X[3 * v + 1] + R[3 * i + 2] * X[3 * v + 2];
  for (PetscInt i = 0; i < npts; i++)
    for (int d = 0; d < 3; d++) P[3 * i + d] = tr[d] + 1.5 * Rand();
  PetscCall(FcAABBTreeRefit(a, X2, 0));
  PetscCall(FcAABBTreeCreate(nt, 3, T, X2, &b));
  PetscCall(CompareClosest(a, nt, T, X2, npts, P, &mm, &md));
  PetscCall(CompareFind(a, b, X2, npts, P, alarm, &nd1, &gd1, &nf1));

  /* fattened refit, then every node moved by less than the fattening, no refit: still exact */
  PetscCall(FcAABBTreeRefit(a, X2, fat));
  for (PetscInt i = 0; i < 3 * nv; i++) X3[i] = X2[i] + 0.9 * fat * Rand();
  PetscCall(FcAABBTreeCreate(nt, 3, T, X3, &c));
  PetscCall(CompareClosest(a, nt, T, X3, npts, P, &mm3, &md3));
  PetscCall(CompareFind(a, c, X3, npts, P, alarm, &nd2, &gd2, &nf2));
  printf("FIGURE refit after rigid motion vs rebuild: %" PetscInt_FMT " points, %" PetscInt_FMT " contacts: %" PetscInt_FMT
         " differ, max |diff gap, n| = %.3e; closest vs brute force: %" PetscInt_FMT " mismatches (max |d - d_bf| = %.3e)\n",
    npts, nf1, nd1, (double)gd1, mm, (double)md);
  printf("FIGURE fattened by %g, nodes moved < fattening, no refit, vs rebuild: %" PetscInt_FMT " contacts: %" PetscInt_FMT
         " differ, max |diff| = %.3e; closest vs brute force: %" PetscInt_FMT " mismatches\n",
    (double)fat, nf2, nd2, (double)gd2, mm3);
  assert_int_equal(mm, 0);
  assert_int_equal(nd1, 0);
  assert_true(gd1 <= 1e-14);
  assert_int_equal(mm3, 0);
  assert_int_equal(nd2, 0);
  assert_true(gd2 <= 1e-14);
  assert_true(nf1 > 0 && nf2 > 0);
  PetscCall(FcAABBTreeDestroy(&a));
  PetscCall(FcAABBTreeDestroy(&b));
  PetscCall(FcAABBTreeDestroy(&c));
  PetscCall(PetscFree3(X2, X3, P));
  PetscCall(PetscFree(X));
  PetscCall(PetscFree(T));
  PetscFunctionReturn(0);
}

static void test_refit(void **state)
{
  (void)state;
  assert_int_equal(TestRefit(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* frames                                                                                     */

static PetscReal FrameError(const PetscReal n[3], const PetscReal t1[3], const PetscReal t2[3])
{
  PetscReal e = 0, c[3];
  e           = PetscMax(e, PetscAbsReal(Dot(t1, t1) - 1));
  e           = PetscMax(e, PetscAbsReal(Dot(t2, t2) - 1));
  e           = PetscMax(e, PetscAbsReal(Dot(n, t1)));
  e           = PetscMax(e, PetscAbsReal(Dot(n, t2)));
  e           = PetscMax(e, PetscAbsReal(Dot(t1, t2)));
  Cross(t1, t2, c); /* right-handed: t1 x t2 = n */
  e = PetscMax(e, Dist(c, n));
  return e;
}

static PetscErrorCode TestFrame(void)
{
  const PetscInt nf   = small ? 1000 : 10000;
  PetscReal      emax = 0, ratio[3] = {0, 0, 0}, th[3] = {1e-2, 1e-4, 1e-6}, walk_max = 0, walk_fb = 0, walk_err = 0;
  PetscReal      n[3], t1[3], t2[3], prev[3];

  PetscFunctionBegin;
  /* orthonormal and right-handed: random normals, the axes and near-axis normals, with and
   * without a previous tangent (random, parallel to n, zero) */
  for (PetscInt i = 0; i < nf; i++) {
    if (i < 6) {
      n[0] = n[1] = n[2] = 0;
      n[i % 3]           = i < 3 ? 1 : -1;
    } else if (i < 100) {
      RandomUnit(n);
      n[i % 3] += 1e8 * (i % 2 ? 1 : -1); /* within 1e-8 of an axis */
      PetscReal s = Norm(n);
      for (int d = 0; d < 3; d++) n[d] /= s;
    } else RandomUnit(n);
    PetscCall(FcContactFrame(n, NULL, t1, t2));
    emax = PetscMax(emax, FrameError(n, t1, t2));
    RandomUnit(prev);
    PetscCall(FcContactFrame(n, prev, t1, t2));
    emax = PetscMax(emax, FrameError(n, t1, t2));
    PetscCall(FcContactFrame(n, n, t1, t2)); /* t1_prev parallel to n: deterministic fallback */
    emax    = PetscMax(emax, FrameError(n, t1, t2));
    prev[0] = prev[1] = prev[2] = 0;
    PetscCall(FcContactFrame(n, prev, t1, t2));
    emax = PetscMax(emax, FrameError(n, t1, t2));
  }
  /* n = e_z gives the canonical frame */
  n[0] = n[1] = 0, n[2] = 1;
  PetscCall(FcContactFrame(n, NULL, t1, t2));
  assert_true(t1[0] == 1 && t1[1] == 0 && t1[2] == 0 && t2[0] == 0 && t2[1] == 1 && t2[2] == 0);

  /* continuity: rotating n by a small angle changes t1 by O(angle) */
  for (PetscInt i = 0; i < nf; i++) {
    PetscReal ax[3], m[3], u1[3], u2[3], s;
    RandomUnit(n);
    PetscCall(FcContactFrame(n, NULL, t1, t2));
    RandomUnit(ax); /* rotation axis, made orthogonal to n so the angle between n and n' is th */
    s = Dot(ax, n);
    for (int d = 0; d < 3; d++) ax[d] -= s * n[d];
    s = Norm(ax);
    for (int d = 0; d < 3; d++) ax[d] /= s;
    for (int k = 0; k < 3; k++) {
      Rotate(n, ax, th[k], m);
      PetscCall(FcContactFrame(m, t1, u1, u2));
      ratio[k] = PetscMax(ratio[k], Dist(u1, t1) / th[k]);
    }
  }
  /* a normal turning by 1e-3 per step through 3000 steps (3 rad, about an axis that takes it
   * through the diagonals where the deterministic choice switches axes): the continued t1
   * never jumps; the deterministic frame alone would */
  {
    PetscReal ax[3] = {1, -2, 0.5}, s = Norm(ax), c1[3], c2[3];
    for (int d = 0; d < 3; d++) ax[d] /= s;
    n[0] = 2, n[1] = 1, n[2] = 0.3;
    s = Dot(n, ax);
    for (int d = 0; d < 3; d++) n[d] -= s * ax[d];
    s = Norm(n);
    for (int d = 0; d < 3; d++) n[d] /= s;
    PetscCall(FcContactFrame(n, NULL, t1, t2));
    PetscCall(FcContactFrame(n, NULL, c1, c2));
    for (int k = 0; k < 3000; k++) {
      PetscReal m[3], u1[3], u2[3], f1[3], f2[3];
      Rotate(n, ax, 1e-3, m);
      s = Norm(m); /* keep n unit: 3000 rotations accumulate round-off in its length */
      for (int d = 0; d < 3; d++) m[d] /= s;
      PetscCall(FcContactFrame(m, t1, u1, u2));
      PetscCall(FcContactFrame(m, NULL, f1, f2));
      walk_max = PetscMax(walk_max, Dist(u1, t1));
      walk_fb  = PetscMax(walk_fb, Dist(f1, c1));
      walk_err = PetscMax(walk_err, FrameError(m, u1, u2));
      for (int d = 0; d < 3; d++) n[d] = m[d], t1[d] = u1[d], c1[d] = f1[d];
    }
  }
  printf("FIGURE frame: max orthonormality/right-handedness error %.3e over %" PetscInt_FMT " normals x 4 variants\n", (double)emax, nf);
  printf(
    "FIGURE frame continuity: max |dt1|/angle = %.3f (angle 1e-2), %.3f (1e-4), %.3f (1e-6); 3000 steps of 1e-3 rad: max step |dt1| = %.2e continued, %.2e deterministic only (error %.1e)\n",
    (double)ratio[0], (double)ratio[1], (double)ratio[2], (double)walk_max, (double)walk_fb, (double)walk_err);
  assert_true(emax <= 1e-14);
  for (int k = 0; k < 3; k++) assert_true(ratio[k] <= 1.01);
  assert_true(walk_max <= 1.01e-3);
  assert_true(walk_err <= 1e-14);
  PetscFunctionReturn(0);
}

static void test_frame(void **state)
{
  (void)state;
  assert_int_equal(TestFrame(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* frames and hysteresis through FcProximityFind                                             */

/* Two triangles forming a valley (concave edge along y): a point moving across the bisector
 * switches faces without hysteresis, keeps its face with it; t1 is carried over. */
static PetscErrorCode TestValley(void)
{
  /* nodes: edge (0,0,0)-(0,1,0); left wall up to (-1,*,1), right wall up to (1,*,1) */
  const PetscReal    X[12] = {0, -1, 0, 0, 2, 0, -1, 0.5, 1, 1, 0.5, 1};
  const PetscInt     T[6]  = {0, 1, 2, 1, 0, 3}; /* normals point up into the valley */
  PetscReal          P[3]  = {-0.01, 0.5, 0.3}, tprev[3];
  FcAABBTree         tree;
  FcProximityOptions opt;
  FcProximity       *r0, *r1, *r2;
  PetscInt           n0, n1, n2;

  PetscFunctionBegin;
  PetscCall(FcAABBTreeCreate(2, 3, T, X, &tree));
  PetscCall(PetscMemzero(&opt, sizeof opt));
  opt.alarm = 1;
  PetscCall(FcProximityFind(tree, X, 1, NULL, P, &opt, &n0, &r0));
  assert_int_equal(n0, 1);
  assert_true(r0[0].n[2] > 0); /* normals from the target towards the point */
  for (int d = 0; d < 3; d++) tprev[d] = r0[0].t1[d];
  P[0] = 0.01; /* across the bisector */
  PetscCall(FcProximityFind(tree, X, 1, NULL, P, &opt, &n1, &r1));
  opt.nprev      = n0;
  opt.prev       = r0;
  opt.hysteresis = 0.05;
  PetscCall(FcProximityFind(tree, X, 1, NULL, P, &opt, &n2, &r2));
  printf("FIGURE valley: point crossing the bisector: triangle %" PetscInt_FMT " -> %" PetscInt_FMT " without hysteresis, %" PetscInt_FMT
         " with hysteresis 0.05 (gap %.4f vs best %.4f); t1 moved by %.2e\n",
    r0[0].tri, r1[0].tri, r2[0].tri, (double)r2[0].gap, (double)r1[0].gap, (double)Dist(r2[0].t1, tprev));
  assert_true(r1[0].tri != r0[0].tri);
  assert_int_equal(r2[0].tri, r0[0].tri);
  assert_true(Dist(r2[0].t1, tprev) < 1e-14); /* same face, same normal: t1 kept exactly */
  PetscCall(PetscFree(r0));
  PetscCall(PetscFree(r1));
  PetscCall(PetscFree(r2));
  PetscCall(FcAABBTreeDestroy(&tree));
  PetscFunctionReturn(0);
}

/* Flat square of 2 x 2 quads, tri6-style stride, allowed filter, points: above, below, on a
 * shared edge (both triangles equally close: the face wins / the lowest index), outside the
 * alarm. */
static PetscErrorCode TestFlat(void)
{
  PetscReal          X[27];
  PetscInt           T[8 * 6], k = 0, nout, allowed[4] = {0, 1, 2, 3};
  PetscReal          P[5 * 3] = {0.3, 0.2, 0.1, 0.7, 0.6, -0.05, 0.25, 0.25, 0.2, 0.5, 0.5, 0.0, 1.6, 0.5, 0.0};
  FcAABBTree         tree;
  FcProximity       *r;
  FcProximityOptions opt;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < 3; j++)
    for (PetscInt i = 0; i < 3; i++) X[3 * (3 * j + i)] = 0.5 * i, X[3 * (3 * j + i) + 1] = 0.5 * j, X[3 * (3 * j + i) + 2] = 0;
  for (PetscInt j = 0; j < 2; j++) {
    for (PetscInt i = 0; i < 2; i++) {
      PetscInt a = 3 * j + i, b = a + 1, c = a + 4, d = a + 3;
      PetscInt t0[6] = {a, b, c, -7, -7, -7}, t1[6] = {a, c, d, -7, -7, -7}; /* mid-edge entries ignored */
      for (int m = 0; m < 6; m++) T[6 * k + m] = t0[m];
      k++;
      for (int m = 0; m < 6; m++) T[6 * k + m] = t1[m];
      k++;
    }
  }
  PetscCall(FcAABBTreeCreate(8, 6, T, X, &tree));
  PetscCall(PetscMemzero(&opt, sizeof opt));
  opt.alarm = 0.5;
  PetscCall(FcProximityFind(tree, X, 5, NULL, P, &opt, &nout, &r));
  assert_int_equal(nout, 4); /* the last point is 0.6 away */
  assert_true(PetscAbsReal(r[0].gap - 0.1) < 1e-15 && r[0].region == FC_REGION_FACE && r[0].n[2] == 1);
  assert_true(PetscAbsReal(r[1].gap + 0.05) < 1e-15 && r[1].n[2] == 1); /* below: penetration */
  /* (0.25, 0.25) is on the diagonal of the first quad: triangles 0 and 1 tie on their shared
   * edge, neither is a face: the lowest index */
  assert_int_equal(r[2].tri, 0);
  /* (0.5, 0.5) is the centre vertex, on 6 triangles: tie, all vertices: the lowest index,
   * the normal from the pseudo-normal (distance 0) */
  assert_true(r[3].gap == 0 && FcRegionIsVertex(r[3].region) && r[3].n[2] == 1 && r[3].tri == 0);
  for (PetscInt i = 0; i < nout; i++) {
    PetscReal rec[3] = {0, 0, 0};
    for (int m = 0; m < 3; m++)
      for (int d = 0; d < 3; d++) rec[d] += r[i].bary[m] * X[3 * r[i].nodes[m] + d];
    assert_true(Dist(rec, r[i].xc) < 1e-15);
  }
  PetscCall(PetscFree(r));
  /* only the two quads at x >= 0.5 (triangles 2, 3, 6, 7) allowed: point 0 then finds its edge */
  allowed[0] = 2, allowed[1] = 3, allowed[2] = 6, allowed[3] = 7;
  opt.nallowed = 4;
  opt.allowed  = allowed;
  PetscCall(FcProximityFind(tree, X, 1, NULL, P, &opt, &nout, &r));
  assert_int_equal(nout, 1);
  assert_true(r[0].tri == 2 || r[0].tri == 3);
  assert_true(PetscAbsReal(r[0].gap - PetscSqrtReal(0.04 + 0.01)) < 1e-15);
  printf("FIGURE flat square: allowed filter -> triangle %" PetscInt_FMT " region %d gap %.6f\n", r[0].tri, (int)r[0].region, (double)r[0].gap);
  PetscCall(PetscFree(r));
  /* the alarm's hysteresis (opt.keep, contact_detect.c): points 3 and 4 — 4 is 0.6 away, beyond
   * the alarm 0.5 — found with a wide alarm become the previous detection; with keep = ∞ point 4
   * keeps its contact at its true distance, with keep 0.55 < 0.6 it does not, and a point that is
   * not in prev never gets keep */
  {
    FcProximity *prev, *rk;
    PetscInt     nprev, nk;
    PetscReal    gkeep;
    opt.nallowed = 0;
    opt.allowed  = NULL;
    opt.alarm    = 1.0;
    PetscCall(FcProximityFind(tree, X, 2, NULL, P + 9, &opt, &nprev, &prev));
    assert_int_equal(nprev, 2);
    prev[0].point = 3, prev[1].point = 4; /* as if found for points 3 and 4 of P */
    opt.alarm = 0.5;
    opt.nprev = nprev;
    opt.prev  = prev;
    opt.keep  = PETSC_INFINITY;
    PetscCall(FcProximityFind(tree, X, 5, NULL, P, &opt, &nk, &rk));
    assert_int_equal(nk, 5);
    assert_true(rk[4].point == 4 && PetscAbsReal(rk[4].gap - 0.6) < 1e-15);
    gkeep = rk[4].gap;
    PetscCall(PetscFree(rk));
    opt.keep = 0.55;
    PetscCall(FcProximityFind(tree, X, 5, NULL, P, &opt, &nk, &rk));
    assert_int_equal(nk, 4);
    PetscCall(PetscFree(rk));
    opt.nprev = 1; /* point 4 not in prev: the alarm alone */
    opt.keep  = PETSC_INFINITY;
    PetscCall(FcProximityFind(tree, X, 5, NULL, P, &opt, &nk, &rk));
    assert_int_equal(nk, 4);
    PetscCall(PetscFree(rk));
    PetscCall(PetscFree(prev));
    opt.nprev = 0;
    opt.prev  = NULL;
    opt.keep  = -1;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    assert_int_not_equal(FcProximityFind(tree, X, 5, NULL, P, &opt, &nk, &rk), 0);
    PetscCall(PetscPopErrorHandler());
    printf("FIGURE flat square: a previous contact 0.6 away (alarm 0.5) kept with keep = inf (gap %.3f), dropped with keep 0.55 or when not in prev\n",
      (double)gkeep);
  }
  PetscCall(FcAABBTreeDestroy(&tree));
  PetscFunctionReturn(0);
}

static void test_valley_flat(void **state)
{
  (void)state;
  assert_int_equal(TestValley(), 0);
  assert_int_equal(TestFlat(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* analytic shapes                                                                            */

/* The shape's answer for p against sampled surface points y: |gap| <= |p - y| + tol for all
 * samples (closest), p = xc + gap n, the sign of gap matches `inside`. */
static void CheckShape(const FcProximity *c, const PetscReal p[3], PetscBool inside, PetscInt ns, const PetscReal *Y, PetscReal *emax)
{
  PetscReal rec[3], e = 0;
  for (int d = 0; d < 3; d++) rec[d] = c->xc[d] + c->gap * c->n[d];
  e = PetscMax(e, Dist(rec, p));
  e = PetscMax(e, FrameError(c->n, c->t1, c->t2));
  for (PetscInt s = 0; s < ns; s++) e = PetscMax(e, PetscAbsReal(c->gap) - Dist(p, Y + 3 * s));
  *emax = PetscMax(*emax, e);
  assert_true((c->gap < 0) == (inside ? 1 : 0) || PetscAbsReal(c->gap) < 1e-14);
}

static PetscErrorCode TestShapes(void)
{
  const PetscInt ns = small ? 500 : 4000, np = small ? 100 : 1000;
  PetscReal     *Y, emax[4] = {0, 0, 0, 0}, R[9], half[3] = {0.3, 0.5, 0.2}, ctr[3] = {0.1, -0.2, 0.3}, ax[3] = {1, 2, 2}, rad = 0.4, hl = 0.6, a[3];
  FcProximity    c;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * ns, &Y));
  /* plane */
  {
    PetscReal x0[3] = {0, 0, 1}, nr[3] = {0, 0, 2}, p[3] = {0.3, 0.4, 0.5};
    PetscCall(FcProximityPlane(p, x0, nr, NULL, &c));
    assert_true(PetscAbsReal(c.gap + 0.5) < 1e-15 && c.n[2] == 1 && c.xc[2] == 1 && c.tri == -1);
  }
  /* sphere */
  for (PetscInt s = 0; s < ns; s++) {
    RandomUnit(Y + 3 * s);
    for (int d = 0; d < 3; d++) Y[3 * s + d] = ctr[d] + rad * Y[3 * s + d];
  }
  for (PetscInt i = 0; i < np; i++) {
    PetscReal p[3];
    for (int d = 0; d < 3; d++) p[d] = ctr[d] + Rand();
    PetscCall(FcProximitySphere(p, ctr, rad, NULL, &c));
    CheckShape(&c, p, Dist(p, ctr) < rad ? PETSC_TRUE : PETSC_FALSE, ns, Y, &emax[0]);
  }
  /* box */
  RandomRotation(R);
  for (PetscInt s = 0; s < ns; s++) {
    PetscReal q[3];
    int       f = (int)(s % 6);
    for (int d = 0; d < 3; d++) q[d] = half[d] * Rand();
    q[f / 2] = f % 2 ? half[f / 2] : -half[f / 2];
    for (int i = 0; i < 3; i++) Y[3 * s + i] = ctr[i] + R[3 * i] * q[0] + R[3 * i + 1] * q[1] + R[3 * i + 2] * q[2];
  }
  for (PetscInt i = 0; i < np; i++) {
    PetscReal p[3], q[3];
    PetscBool in = PETSC_TRUE;
    for (int d = 0; d < 3; d++) p[d] = ctr[d] + Rand();
    for (int j = 0; j < 3; j++) {
      q[j] = R[j] * (p[0] - ctr[0]) + R[3 + j] * (p[1] - ctr[1]) + R[6 + j] * (p[2] - ctr[2]);
      if (PetscAbsReal(q[j]) > half[j]) in = PETSC_FALSE;
    }
    PetscCall(FcProximityBox(p, ctr, R, half, NULL, &c));
    CheckShape(&c, p, in, ns, Y, &emax[1]);
  }
  /* cylinder */
  {
    PetscReal s = Norm(ax), u[3], v[3];
    for (int d = 0; d < 3; d++) a[d] = ax[d] / s;
    u[0] = 2 / 3.0, u[1] = -2 / 3.0, u[2] = 1 / 3.0; /* u, v, a orthonormal */
    Cross(a, u, v);
    for (PetscInt k = 0; k < ns; k++) {
      PetscReal th = PETSC_PI * Rand(), z = hl * Rand(), rr = rad;
      if (k % 3 == 0) z = k % 2 ? hl : -hl, rr = rad * PetscSqrtReal(0.5 * (Rand() + 1)); /* caps */
      for (int d = 0; d < 3; d++) Y[3 * k + d] = ctr[d] + z * a[d] + rr * (PetscCosReal(th) * u[d] + PetscSinReal(th) * v[d]);
    }
  }
  for (PetscInt i = 0; i < np; i++) {
    PetscReal p[3], w[3], sa, rr;
    for (int d = 0; d < 3; d++) p[d] = ctr[d] + 1.2 * Rand();
    for (int d = 0; d < 3; d++) w[d] = p[d] - ctr[d];
    sa = Dot(w, a);
    for (int d = 0; d < 3; d++) w[d] -= sa * a[d];
    rr = Norm(w);
    PetscCall(FcProximityCylinder(p, ctr, ax, rad, hl, NULL, &c));
    CheckShape(&c, p, (rr < rad && PetscAbsReal(sa) < hl) ? PETSC_TRUE : PETSC_FALSE, ns, Y, &emax[2]);
  }
  /* on the axis: the radial direction is undefined, the answer is still a frame */
  PetscCall(FcProximityCylinder(ctr, ctr, ax, rad, hl, NULL, &c));
  assert_true(PetscAbsReal(c.gap + rad) < 1e-15 && FrameError(c.n, c.t1, c.t2) < 1e-14);
  printf("FIGURE analytic shapes: %" PetscInt_FMT " points vs %" PetscInt_FMT
         " surface samples: max error (|gap| - sampled distance, |xc + gap n - p|, frame) sphere %.2e, box %.2e, cylinder %.2e\n",
    np, ns, (double)emax[0], (double)emax[1], (double)emax[2]);
  for (int k = 0; k < 3; k++) assert_true(emax[k] <= 1e-14);
  PetscCall(PetscFree(Y));
  PetscFunctionReturn(0);
}

static void test_shapes(void **state)
{
  (void)state;
  assert_int_equal(TestShapes(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* growth of the query work                                                                   */

static PetscReal Height(PetscReal x, PetscReal y) { return 0.1 * PetscSinReal(2 * PETSC_PI * x) * PetscSinReal(2 * PETSC_PI * y); }

/* n points against n triangles of a wavy height field, alarm = 2 h: the work per query is the
 * number of tree nodes whose box is tested. With a balanced tree and a constant number of
 * triangles within the alarm it grows like log n. */
static PetscErrorCode ScalingOne(PetscInt mgrid, PetscInt *ntri, PetscReal *vpq, PetscReal tim[3], PetscInt *nfound)
{
  const PetscInt     nv = (mgrid + 1) * (mgrid + 1), nt = 2 * mgrid * mgrid;
  const PetscReal    h = 1.0 / mgrid, alarm = 2 * h;
  PetscReal         *X, *P, t0, t1, t2, t3;
  PetscInt          *T, k = 0, nout;
  PetscInt64         visits;
  FcAABBTree         tree;
  FcProximity       *res;
  FcProximityOptions opt;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(3 * nv, &X, 3 * nt, &T, 3 * nt, &P));
  for (PetscInt j = 0; j <= mgrid; j++)
    for (PetscInt i = 0; i <= mgrid; i++) {
      PetscInt v   = j * (mgrid + 1) + i;
      X[3 * v]     = i * h;
      X[3 * v + 1] = j * h;
      X[3 * v + 2] = Height(i * h, j * h);
    }
  for (PetscInt j = 0; j < mgrid; j++)
    for (PetscInt i = 0; i < mgrid; i++) {
      PetscInt a = j * (mgrid + 1) + i, b = a + 1, c = a + mgrid + 2, d = a + mgrid + 1;
      T[3 * k] = a, T[3 * k + 1] = b, T[3 * k + 2] = c, k++;
      T[3 * k] = a, T[3 * k + 1] = c, T[3 * k + 2] = d, k++;
    }
  for (PetscInt i = 0; i < nt; i++) {
    PetscReal x = 0.5 * (Rand() + 1), y = 0.5 * (Rand() + 1);
    P[3 * i] = x, P[3 * i + 1] = y, P[3 * i + 2] = Height(x, y) + alarm * Rand();
  }
  PetscCall(PetscTime(&t0));
  PetscCall(FcAABBTreeCreate(nt, 3, T, X, &tree));
  PetscCall(PetscTime(&t1));
  PetscCall(FcAABBTreeRefit(tree, X, 0));
  PetscCall(PetscTime(&t2));
  PetscCall(PetscMemzero(&opt, sizeof opt));
  opt.alarm = alarm;
  PetscCall(FcAABBTreeGetVisits(tree, PETSC_TRUE, NULL));
  PetscCall(FcProximityFind(tree, X, nt, NULL, P, &opt, &nout, &res));
  PetscCall(PetscTime(&t3));
  PetscCall(FcAABBTreeGetVisits(tree, PETSC_FALSE, &visits));
  /* spot check against brute force */
  for (PetscInt i = 0, j = 0; i < PetscMin(nt, 100); i++) {
    PetscInt  bt;
    PetscReal bd;
    BruteClosest(nt, T, X, P + 3 * i, &bt, &bd);
    while (j < nout && res[j].point < i) j++;
    assert_true((j < nout && res[j].point == i) == (bd <= alarm));
    if (bd <= alarm) assert_true(PetscAbsReal(PetscAbsReal(res[j].gap) - bd) <= 1e-14);
  }
  *ntri   = nt;
  *nfound = nout;
  *vpq    = (PetscReal)visits / nt;
  tim[0]  = t1 - t0;
  tim[1]  = t2 - t1;
  tim[2]  = t3 - t2;
  PetscCall(PetscFree(res));
  PetscCall(FcAABBTreeDestroy(&tree));
  PetscCall(PetscFree3(X, T, P));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestScaling(void)
{
  /* 2 m^2 triangles: about 1e4, 4e4, 1.6e5 (small: 1e3, 4e3, 1.6e4) */
  const PetscInt mg[3] = {small ? 22 : 71, small ? 45 : 141, small ? 89 : 283};
  PetscReal      vpq[3], tim[3][3];
  PetscInt       nt[3], nf[3];

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) {
    PetscCall(ScalingOne(mg[k], &nt[k], &vpq[k], tim[k], &nf[k]));
    printf("FIGURE scaling: n = %" PetscInt_FMT " points vs %" PetscInt_FMT " triangles: build %.3f s, refit %.4f s, find %.3f s (%" PetscInt_FMT
           " contacts), %.1f node visits per query\n",
      nt[k], nt[k], (double)tim[k][0], (double)tim[k][1], (double)tim[k][2], nf[k], (double)vpq[k]);
  }
  printf("FIGURE scaling: visits per query ratio n x16: %.3f (< 4 asserted; log-like growth %.3f, quadratic would be 16)\n", (double)(vpq[2] / vpq[0]),
    (double)(PetscLogReal((PetscReal)nt[2]) / PetscLogReal((PetscReal)nt[0])));
  assert_true(vpq[2] / vpq[0] < 4);
  PetscFunctionReturn(0);
}

static void test_scaling(void **state)
{
  (void)state;
  assert_int_equal(TestScaling(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* errors and edge cases                                                                       */

static PetscErrorCode TestEdgeCases(void)
{
  const PetscReal    X[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, p[3] = {0.2, 0.2, 0.1}, zero[3] = {0, 0, 0};
  const PetscInt     T[3] = {0, 1, 2};
  FcAABBTree         tree, empty;
  FcProximityOptions opt;
  FcProximity       *r;
  PetscInt           n, t;
  PetscReal          t1[3], t2[3];
  PetscErrorCode     e1, e2, e3;

  PetscFunctionBegin;
  PetscCall(FcAABBTreeCreate(0, 3, NULL, X, &empty));
  PetscCall(FcAABBTreeClosest(empty, X, p, 1, &t, NULL, NULL));
  assert_int_equal(t, -1);
  PetscCall(PetscMemzero(&opt, sizeof opt));
  opt.alarm = 1;
  PetscCall(FcProximityFind(empty, X, 1, NULL, p, &opt, &n, &r));
  assert_true(n == 0 && r == NULL);
  PetscCall(FcAABBTreeDestroy(&empty));
  PetscCall(FcAABBTreeDestroy(&empty)); /* NULL: no-op */
  PetscCall(FcAABBTreeCreate(1, 3, T, X, &tree));
  PetscCall(FcAABBTreeClosest(tree, X, p, 0.05, &t, NULL, NULL));
  assert_int_equal(t, -1);
  opt.alarm = 0.05;
  PetscCall(FcProximityFind(tree, X, 1, NULL, p, &opt, &n, &r));
  assert_true(n == 0 && r == NULL);
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  opt.alarm = -1;
  e1        = FcProximityFind(tree, X, 1, NULL, p, &opt, &n, &r);
  e2        = FcContactFrame(zero, NULL, t1, t2);
  e3        = FcAABBTreeRefit(tree, X, -1);
  PetscCall(PetscPopErrorHandler());
  printf("FIGURE errors: negative alarm %d, zero normal %d, negative fattening %d\n", (int)e1, (int)e2, (int)e3);
  assert_true(e1 != 0 && e2 != 0 && e3 != 0);
  PetscCall(FcAABBTreeDestroy(&tree));
  PetscFunctionReturn(0);
}

static void test_edge_cases(void **state)
{
  (void)state;
  assert_int_equal(TestEdgeCases(), 0);
}

static PetscErrorCode SmallOption(void)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_test_small", &small, NULL));
  PetscFunctionReturn(0);
}

/* Broad phase: 4 unit blocks in a row along x, blocks 0-1 touching face to face (hi = lo), 1-2
 * 0.5 apart, 2-3 overlapping by 0.25 (block 3 raised by 0.5 in y and z), and an unbounded box
 * (the half-space y <= 0 of a floor) that blocks 0-2 touch and block 3 clears by 0.5: the pairs
 * are exactly (0,1), (2,3) and blocks 0-2 with the floor; and a random set of 200 boxes gives the
 * same pairs as the O(n^2) test of every pair. */
static void test_broadphase(void **state)
{
  (void)state;
  const PetscReal inf         = PETSC_MAX_REAL;
  PetscReal       box[5 * 6]  = {0, 0, 0, 1, 1, 1, 1, 0, 0, 2, 1, 1, 2.5, 0, 0, 3.5, 1, 1, 3.25, 0.5, 0.5, 4.25, 1.5, 1.5, -inf, -inf, -inf, inf, 0, inf};
  const PetscInt  expect[][2] = {{0, 1}, {0, 4}, {1, 4}, {2, 3}, {2, 4}};
  PetscInt        np, *pairs;
  assert_int_equal(FcBroadPhaseSweep(5, box, &np, &pairs), 0);
  assert_int_equal(np, 5);
  for (int k = 0; k < 5; k++) {
    assert_int_equal(pairs[2 * k], expect[k][0]);
    assert_int_equal(pairs[2 * k + 1], expect[k][1]);
  }
  assert_int_equal(PetscFree(pairs), 0);
  {
    enum { n = 200 };
    static PetscReal b[6 * n];
    PetscInt         nb = 0, k = 0;
    unsigned         seed = 12345;
    for (int i = 0; i < n; i++)
      for (int d = 0; d < 3; d++) {
        seed             = seed * 1103515245u + 12345u;
        b[6 * i + d]     = (seed >> 8) % 1000 / 100.0;
        b[6 * i + 3 + d] = b[6 * i + d] + 0.5 + (seed >> 20) % 10 / 10.0;
      }
    assert_int_equal(FcBroadPhaseSweep(n, b, &np, &pairs), 0);
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        PetscBool hit = PETSC_TRUE;
        for (int d = 0; d < 3; d++)
          if (b[6 * i + d] > b[6 * j + 3 + d] || b[6 * j + d] > b[6 * i + 3 + d]) hit = PETSC_FALSE;
        if (!hit) continue;
        nb++;
        assert_true(k < np);
        assert_int_equal(pairs[2 * k], i); /* sorted by (i, j), as the double loop */
        assert_int_equal(pairs[2 * k + 1], j);
        k++;
      }
    assert_int_equal(np, nb);
    assert_true(nb > 0);
    assert_int_equal(PetscFree(pairs), 0);
  }
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_broadphase), cmocka_unit_test(test_closest_point), cmocka_unit_test(test_tree_sphere), cmocka_unit_test(test_refit),   cmocka_unit_test(test_frame),
    cmocka_unit_test(test_valley_flat),   cmocka_unit_test(test_shapes),      cmocka_unit_test(test_scaling), cmocka_unit_test(test_edge_cases),
    cmocka_unit_test(test_tree_subset),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, SmallOption, NULL);
}
