/* Unit test of src/contact: the Coulomb cone projection (closed form against an independent
 * angular construction, idempotence, Moreau decomposition), the single-contact closed forms
 * (separation, stick, slip, μ = 0) solved by nsgs to 1e-12, random multi-contact problems
 * W = J A⁻¹ Jᵀ solved to a common error ≤ 1e-10, the statistics (the error reported equals the
 * common error recomputed from r, and an independent reimplementation of it), warm start,
 * statuses (max_it, NaN, breakdown), options and the unknown-type input error.
 * Each test prints its key figure on a line starting with "FIGURE ". */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/contact/solver.h"

/* ---- this test's random sequence (splitmix64, tests/unit/testutil.h) ---- */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static double   Uniform(double a, double b) { return FcTestUniform(&rng_state, a, b); }

/* ---- independent cone geometry: the projection built from angles in the (n, ‖t‖) half-plane ----
 * K_μ is the wedge of half-angle α = atan μ around n; its polar cone is the wedge of angles
 * ≥ α + π/2. A point at angle φ and radius ρ projects onto the ray at angle β with length
 * ρ cos(φ − β) when it is in neither cone. */
static void AngularProject(double mu, const double x[3], int polar, double p[3])
{
  const double t = hypot(x[1], x[2]), rho = hypot(x[0], t), phi = atan2(t, x[0]), alpha = atan(mu);
  double       beta, len;

  if (!polar) {
    if (phi <= alpha) {
      memcpy(p, x, 3 * sizeof(double));
      return;
    }
    if (phi >= alpha + PETSC_PI / 2) {
      p[0] = p[1] = p[2] = 0;
      return;
    }
    beta = alpha;
  } else {
    if (phi >= alpha + PETSC_PI / 2) {
      memcpy(p, x, 3 * sizeof(double));
      return;
    }
    if (phi <= alpha) {
      p[0] = p[1] = p[2] = 0;
      return;
    }
    beta = alpha + PETSC_PI / 2;
  }
  len  = rho * cos(phi - beta);
  p[0] = len * cos(beta);
  p[1] = t > 0 ? len * sin(beta) * x[1] / t : 0;
  p[2] = t > 0 ? len * sin(beta) * x[2] / t : 0;
}

/* The common error written out again from its definition, with the angular projection. */
static double ReferenceError(FcContactProblem p, const double *r)
{
  const int n = 3 * (int)p->m;
  double   *u = malloc(sizeof(double) * (size_t)(n ? n : 1)), e2 = 0, q2 = 0, r2 = 0, u2 = 0, scale;
  for (int i = 0; i < n; i++) {
    u[i] = p->q[i];
    for (int j = 0; j < n; j++) u[i] += p->W[(size_t)i * n + j] * r[j];
    q2 += p->q[i] * p->q[i];
    r2 += r[i] * r[i];
    u2 += u[i] * u[i];
  }
  for (int a = 0; a < (int)p->m; a++) {
    const double *ua = u + 3 * a, *ra = r + 3 * a, mu = p->mu[a];
    double        x[3], pr[3];
    x[0] = ra[0] - (ua[0] + mu * hypot(ua[1], ua[2]));
    x[1] = ra[1] - ua[1];
    x[2] = ra[2] - ua[2];
    AngularProject(mu, x, 0, pr);
    for (int i = 0; i < 3; i++) e2 += (ra[i] - pr[i]) * (ra[i] - pr[i]);
  }
  free(u);
  scale = sqrt(fmax(q2, fmax(r2, u2)));
  return scale >= DBL_EPSILON ? sqrt(e2) / scale : sqrt(e2);
}

/* Random problems of m contacts (FcTestRandomProblem): W = J A⁻¹ Jᵀ with A = BᵀB + nI (n×n SPD,
 * n ≥ 3m) and J (3m×n) random (full rank with probability 1), q ∈ [−1,1]^{3m} (normal parts of
 * both signs), μ ∈ [0,1]. symmetrize: store (W + Wᵀ)/2 (a Delassus operator), else J(A⁻¹Jᵀ) as
 * computed, whose rounding asymmetry exercises nsgs' non-symmetric update path. */
static void RandomProblem(int m, int symmetrize, FcContactProblem *prob)
{
  FcTestRandomProblem(&rng_state, m, symmetrize ? FC_TEST_W_MEAN : FC_TEST_W_AS_COMPUTED, 1.0, 0, prob);
}

/* ---- 1. cone projection ---- */
static void test_cone_projection(void **state)
{
  const double mus[]   = {0.0, 1e-8, 0.1, 0.5, 1.0, 2.0, 1e3};
  double       max_ref = 0, max_moreau = 0, max_orth = 0, max_idem = 0, max_out = 0;
  int          npts = 0, ninside = 0, npolar = 0, nboundary = 0;
  (void)state;

  for (int im = 0; im < (int)(sizeof mus / sizeof mus[0]) + 3; im++) {
    const double mu = im < (int)(sizeof mus / sizeof mus[0]) ? mus[im] : Uniform(0, 3);
    for (int k = 0; k < 5000; k++) {
      double x[3], p[3], pp[3], ref[3], pol[3], scale = pow(10.0, Uniform(-6, 6)), nx, d = 0, o = 0, idem = 0;
      for (int i = 0; i < 3; i++) x[i] = scale * Uniform(-1, 1);
      if (k % 10 == 0) x[1] = x[2] = 0; /* on the axis */
      if (k % 10 == 1) {                /* exactly on the boundary generator */
        x[0]     = fabs(x[0]);
        double t = hypot(x[1], x[2]);
        if (t > 0) {
          x[1] *= mu * x[0] / t;
          x[2] *= mu * x[0] / t;
        }
      }
      nx = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
      FcConeProject(mu, x, p);
      AngularProject(mu, x, 0, ref);
      AngularProject(mu, x, 1, pol);
      /* exact branches (away from their borders, where the branch taken is a rounding matter) */
      if (x[0] >= 0 && hypot(x[1], x[2]) <= mu * x[0] * (1 - 1e-12)) {
        ninside++;
        assert_true(p[0] == x[0] && p[1] == x[1] && p[2] == x[2]);
      } else if (mu * hypot(x[1], x[2]) <= -x[0] * (1 - 1e-12)) {
        npolar++;
        assert_true(p[0] == 0 && p[1] == 0 && p[2] == 0);
      } else nboundary++;
      for (int i = 0; i < 3; i++) {
        d = fmax(d, fabs(p[i] - ref[i]));
        o += p[i] * pol[i];
      }
      FcConeProject(mu, p, pp);
      for (int i = 0; i < 3; i++) idem = fmax(idem, fabs(pp[i] - p[i]));
      if (nx > 0) {
        double moreau = 0;
        for (int i = 0; i < 3; i++) moreau = fmax(moreau, fabs(x[i] - p[i] - pol[i]));
        max_ref    = fmax(max_ref, d / nx);
        max_moreau = fmax(max_moreau, moreau / nx);
        max_orth   = fmax(max_orth, fabs(o) / (nx * nx));
        max_idem   = fmax(max_idem, idem / nx);
        max_out    = fmax(max_out, fmax(0, hypot(p[1], p[2]) - mu * p[0]) / nx);
      }
      npts++;
    }
  }
  printf(
    "FIGURE cone projection: %d points (%d inside, %d polar, %d boundary), mu in {0..1e3}: max |P - angular| %.1e, Moreau |x - P_K - P_K°| %.1e, <P_K,P_K°> %.1e, idempotence %.1e, outside K %.1e (relative to |x|)\n",
    npts, ninside, npolar, nboundary, max_ref, max_moreau, max_orth, max_idem, max_out);
  assert_true(ninside > 1000 && npolar > 1000 && nboundary > 1000);
  assert_true(max_ref <= 1e-13);
  assert_true(max_moreau <= 1e-13);
  assert_true(max_orth <= 1e-13);
  assert_true(max_idem <= 1e-15);
  assert_true(max_out <= 1e-15);
}

/* ---- 2. single contact closed forms ---- */
static double SolveOne(FcContactSolver s, const double W[9], const double q[3], double mu, double r[3], double u[3])
{
  FcContactProblem     p = FcTestOneContact(W, q, mu);
  FcContactSolverStats st;
  r[0] = r[1] = r[2] = 0;
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_int_equal(FcContactProblemComputeVelocity(p, r, u), 0);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  assert_true(st.converged);
  assert_true(st.iterations <= 1);
  return st.error;
}

static void RandomSPD3(double W[9])
{
  double B[9];
  for (int i = 0; i < 9; i++) B[i] = Uniform(-1, 1);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = (i == j) ? 0.3 : 0;
      for (int k = 0; k < 3; k++) s += B[3 * k + i] * B[3 * k + j];
      W[3 * i + j] = s;
    }
}

static void test_single_contact(void **state)
{
  FcContactSolver s;
  double          r[3], u[3], dev_sep = 0, dev_stick = 0, dev_slip = 0, dev_slip_c = 0, dev_mu0 = 0, max_err = 0;
  const double    Wc[9]  = {2.0, 0.3, -0.2, 0.3, 1.5, 0.4, -0.2, 0.4, 1.0};
  int             nstick = 0, nslip = 0, nsep = 0;
  (void)state;

  assert_int_equal(FcContactSolverCreate(&s), 0);
  assert_int_equal(FcContactSolverSetType(s, "nsgs"), 0);
  assert_int_equal(FcContactSolverSetTolerances(s, 1e-14, 10), 0);

  { /* separation: q_N > 0 → r = 0 exactly, u = q */
    const double q[3] = {0.5, 0.3, -0.2};
    max_err           = fmax(max_err, SolveOne(s, Wc, q, 0.5, r, u));
    dev_sep           = fmax(fabs(r[0]), fmax(fabs(r[1]), fabs(r[2])));
    assert_true(r[0] == 0 && r[1] == 0 && r[2] == 0);
  }
  { /* stick: r = −W⁻¹q inside the cone, u = 0 */
    const double q[3] = {-1.0, 0.1, 0.05};
    double       x[3];
    FcTestSolve3(Wc, q, x);
    max_err = fmax(max_err, SolveOne(s, Wc, q, 1.0, r, u));
    assert_true(hypot(x[1], x[2]) < 1.0 * -x[0]);
    for (int i = 0; i < 3; i++) dev_stick = fmax(dev_stick, fabs(r[i] + x[i]) / fabs(x[0]));
  }
  { /* slip with an isotropic tangential block: r_N = −q_N/w_N, r_T = −μ r_N q_T/‖q_T‖ */
    const double W[9] = {2.0, 0, 0, 0, 0.5, 0, 0, 0, 0.5}, q[3] = {-1.0, 2.0, -1.0}, mu = 0.3;
    const double rn = 1.0 / 2.0, nt = hypot(2.0, -1.0), ex[3] = {rn, -mu * rn * 2.0 / nt, -mu * rn * -1.0 / nt};
    max_err = fmax(max_err, SolveOne(s, W, q, mu, r, u));
    for (int i = 0; i < 3; i++) dev_slip = fmax(dev_slip, fabs(r[i] - ex[i]) / rn);
  }
  { /* slip with a coupled block: on the boundary, u_N = 0, sliding opposite to the force */
    const double q[3] = {-1.0, 1.5, -0.7}, mu = 0.3;
    double       x[3], rt, ut, d = 0;
    FcTestSolve3(Wc, q, x);
    assert_true(hypot(x[1], x[2]) > mu * -x[0]); /* not a stick case */
    max_err = fmax(max_err, SolveOne(s, Wc, q, mu, r, u));
    rt      = hypot(r[1], r[2]);
    ut      = hypot(u[1], u[2]);
    assert_true(r[0] > 0 && ut > 0);
    d = fmax(d, fabs(rt - mu * r[0]) / r[0]);
    d = fmax(d, fabs(u[0]) / hypot(q[0], hypot(q[1], q[2])));
    for (int i = 1; i < 3; i++) d = fmax(d, fabs(u[i] / ut + r[i] / rt)); /* u_T/‖u_T‖ = −r_T/‖r_T‖ */
    dev_slip_c = d;
  }
  { /* μ = 0: r_T = 0, u_N = 0 */
    const double q[3] = {-0.8, 0.6, 0.9};
    max_err           = fmax(max_err, SolveOne(s, Wc, q, 0.0, r, u));
    dev_mu0           = fmax(fabs(r[1]), fabs(r[2]));
    dev_mu0           = fmax(dev_mu0, fabs(r[0] - 0.8 / Wc[0]) / (0.8 / Wc[0]));
    dev_mu0           = fmax(dev_mu0, fabs(u[0]));
  }
  printf(
    "FIGURE single contact closed forms: deviation separation %.1e, stick %.1e, slip (isotropic) %.1e, slip (coupled: cone, u_N, direction) %.1e, mu=0 %.1e; max common error %.1e\n",
    dev_sep, dev_stick, dev_slip, dev_slip_c, dev_mu0, max_err);
  assert_true(dev_stick <= 1e-12 && dev_slip <= 1e-12 && dev_slip_c <= 1e-12 && dev_mu0 <= 1e-12);

  /* Many random single contacts: one sweep must solve each one to rounding. */
  max_err = 0;
  for (int k = 0; k < 2000; k++) {
    double W[9], q[3], x[3], mu = (k % 7 == 0) ? 0.0 : Uniform(0, 2), e;
    RandomSPD3(W);
    for (int i = 0; i < 3; i++) q[i] = Uniform(-1, 1);
    FcTestSolve3(W, q, x);
    if (q[0] >= 0) nsep++;
    else if (-x[0] > 0 && hypot(x[1], x[2]) <= mu * -x[0]) nstick++;
    else nslip++;
    e       = SolveOne(s, W, q, mu, r, u);
    max_err = fmax(max_err, e);
  }
  printf("FIGURE single contact random: 2000 contacts (%d separation, %d stick, %d slip/frictionless), one sweep each, max common error %.1e\n", nsep, nstick,
    nslip, max_err);
  assert_true(max_err <= 1e-13);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
}

/* ---- 3. random multi-contact problems ---- */
static void test_random_problems(void **state)
{
  FcContactSolver      s;
  FcContactSolverStats st;
  const int            nprob   = 40;
  double               max_err = 0, sum_it = 0, max_stat_dev = 0, max_ref_dev = 0, max_time = 0;
  int                  max_it = 0, max_warm = 0, ncontacts = 0;
  (void)state;

  assert_int_equal(FcContactSolverCreate(&s), 0);
  assert_int_equal(FcContactSolverSetType(s, "nsgs"), 0);
  assert_int_equal(FcContactSolverSetTolerances(s, 1e-10, 5000), 0);
  for (int k = 0; k < nprob; k++) {
    const int        m = 1 + k % 20;
    FcContactProblem p;
    double          *r, err, ref;

    RandomProblem(m, k % 2 == 0, &p);
    ncontacts += m;
    r = malloc(sizeof(double) * 3 * m);
    /* cold start: garbage in r must be ignored */
    for (int i = 0; i < 3 * m; i++) r[i] = NAN;
    assert_int_equal(FcContactSolverSetWarmStart(s, PETSC_FALSE), 0);
    assert_int_equal(FcContactSolverSolve(s, p, r), 0);
    assert_int_equal(FcContactSolverGetStats(s, &st), 0);
    if (!st.converged) printf("problem %d (m = %d): %s after %d iterations, error %g\n", k, m, st.reason_name, (int)st.iterations, st.error);
    assert_true(st.converged);
    assert_int_equal(st.reason, FC_CONTACT_SOLVER_CONVERGED_TOL);
    assert_string_equal(st.reason_name, "CONVERGED_TOL");
    assert_true(st.error <= 1e-10);
    assert_true(st.time >= 0);
    assert_int_equal(FcContactProblemComputeError(p, r, &err), 0);
    ref          = ReferenceError(p, r);
    max_stat_dev = fmax(max_stat_dev, fabs(st.error - err) / fmax(err, DBL_MIN));
    /* Both are normalised residuals of O(1) quantities: they agree to rounding of those (the
     * residual is ~1e-11 here, so a relative comparison would only measure that rounding). */
    max_ref_dev = fmax(max_ref_dev, fabs(ref - err));
    max_err     = fmax(max_err, st.error);
    sum_it += st.iterations;
    max_it   = st.iterations > max_it ? (int)st.iterations : max_it;
    max_time = fmax(max_time, st.time);
    /* warm start from the solution: at most one sweep */
    assert_int_equal(FcContactSolverSetWarmStart(s, PETSC_TRUE), 0);
    assert_int_equal(FcContactSolverSolve(s, p, r), 0);
    assert_int_equal(FcContactSolverGetStats(s, &st), 0);
    assert_true(st.converged);
    max_warm = st.iterations > max_warm ? (int)st.iterations : max_warm;
    free(r);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
  }
  printf(
    "FIGURE nsgs random problems: %d problems (m = 1..20, %d contacts, mu in [0,1]), max common error %.3e, mean iterations %.1f, max iterations %d, max time %.2e s\n",
    nprob, ncontacts, max_err, sum_it / nprob, max_it, max_time);
  printf(
    "FIGURE nsgs statistics: |stats.error - common error(r)| / error max %.1e; independent reimplementation of the error (angular projection): max |difference| %.1e; warm start from the solution: max %d sweeps\n",
    max_stat_dev, max_ref_dev, max_warm);
  assert_true(max_stat_dev <= 1e-14);
  assert_true(max_ref_dev <= 1e-14);
  assert_true(max_warm <= 1);
  { /* the local solver never needed its fallback: every slip was solved exactly */
    char        view[4096];
    const char *all;
    long        nsep, nstick, nslip, nquartic, nfallback;
    FcTestSolverView(s, view, sizeof view);
    fputs(view, stdout);
    all = strstr(view, "(all solves): ");
    assert_non_null(all);
    assert_int_equal(sscanf(all, "(all solves): %ld separation, %ld stick or frictionless, %ld slip (%ld through the quartic), %ld fallback", &nsep, &nstick,
                       &nslip, &nquartic, &nfallback),
      5);
    printf("FIGURE nsgs local solves over all random problems: %ld separation, %ld stick or frictionless, %ld slip (%ld through the quartic), %ld fallback\n",
      nsep, nstick, nslip, nquartic, nfallback);
    assert_true(nslip > 0 && nstick > 0 && nsep > 0);
    assert_int_equal(nfallback, 0);
  }
  assert_int_equal(FcContactSolverDestroy(&s), 0);
}

/* ---- 4. statuses: non-convergence is a status, not an error ---- */
static void test_statuses(void **state)
{
  FcContactSolver      s;
  FcContactSolverStats st;
  FcContactProblem     p, z;
  double              *r;
  (void)state;

  assert_int_equal(FcContactSolverCreate(&s), 0); /* no type set: nsgs by default */
  RandomProblem(20, 1, &p);
  r = calloc(60, sizeof(double));
  assert_int_equal(FcContactSolverSetTolerances(s, 1e-15, 1), 0);
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_false(st.converged);
  assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_MAX_IT);
  assert_int_equal(st.iterations, 1);
  assert_string_equal(st.reason_name, "DIVERGED_MAX_IT");
  printf("FIGURE nsgs max_it = 1 on m = 20: %s, error %.2e\n", st.reason_name, st.error);

  /* a warm start from a non-finite guess starts from zero instead */
  assert_int_equal(FcContactSolverSetTolerances(s, 1e-10, 1000), 0);
  for (int i = 0; i < 60; i++) r[i] = i == 7 ? NAN : 1.0;
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_true(st.converged);

  /* NaN in the data */
  assert_int_equal(FcContactSolverSetTolerances(s, 1e-10, 100), 0);
  p->q[4] = NAN;
  memset(r, 0, 60 * sizeof(double));
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_false(st.converged);
  assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_NAN);
  p->q[4] = 0.1;

  /* a contact with no normal compliance */
  p->W[3 * 60 + 3] = 0;
  memset(r, 0, 60 * sizeof(double));
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN);
  assert_false(st.converged);

  /* no contacts at all */
  assert_int_equal(FcContactProblemCreate(0, &z), 0);
  assert_int_equal(FcContactSolverSolve(s, z, NULL), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_true(st.converged);
  assert_true(st.error == 0);
  assert_int_equal(FcContactProblemDestroy(&z), 0);

  free(r);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
}

/* ---- 5. options ---- */
static void test_options(void **state)
{
  FcContactSolver       s;
  FcContactSolverParams par;
  const char           *type;
  (void)state;

  assert_int_equal(FcContactSolverCreate(&s), 0);
  assert_int_equal(FcContactSolverGetParams(s, &par), 0);
  assert_true(par.tol == 1e-10 && par.max_it == 1000 && par.warm_start);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_type", "nsgs"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_tol", "1e-6"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_max_it", "7"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_warm_start", "false"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_nsgs_error_every", "3"), 0);
  assert_int_equal(FcContactSolverSetFromOptions(s), 0);
  assert_int_equal(FcContactSolverGetParams(s, &par), 0);
  assert_int_equal(FcContactSolverGetType(s, &type), 0);
  assert_string_equal(type, "nsgs");
  assert_true(par.tol == 1e-6 && par.max_it == 7 && !par.warm_start);
  /* a prefix keeps two solvers apart */
  assert_int_equal(FcContactSolverSetOptionsPrefix(s, "b_"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-b_fc_contact_solver_tol", "1e-4"), 0);
  assert_int_equal(FcContactSolverSetFromOptions(s), 0);
  assert_int_equal(FcContactSolverGetParams(s, &par), 0);
  assert_true(par.tol == 1e-4);
  assert_int_equal(PetscOptionsClearValue(NULL, "-b_fc_contact_solver_tol"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_type"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_tol"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_max_it"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_warm_start"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_nsgs_error_every"), 0);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
}

/* ---- 6. unknown type: one input-error line naming it and the registered ones ---- */
static void test_unknown_type(void **state)
{
  FcContactSolver s;
  FcTestCapture   c;
  char            err[4096];
  PetscErrorCode  ierr;
  (void)state;

  assert_int_equal(FcContactSolverCreate(&s), 0);
  FcTestCaptureStart(&c);
  ierr = FcContactSolverSetType(s, "lemkke");
  FcTestCaptureStop(&c, err, sizeof err);
  FcTestAssertInputError(ierr, err, "lemkke");
  assert_non_null(strstr(err, "nsgs"));
  printf("FIGURE unknown type: %s", err);

  FcTestSolverBadOption(s, "-fc_contact_solver_type", "nope", err, sizeof err);
  assert_non_null(strstr(err, "nope"));

  FcTestSolverBadOption(s, "-fc_contact_solver_tol", "-1", err, sizeof err);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cone_projection),
    cmocka_unit_test(test_single_contact),
    cmocka_unit_test(test_random_problems),
    cmocka_unit_test(test_statuses),
    cmocka_unit_test(test_options),
    cmocka_unit_test(test_unknown_type),
  };

  return FcTestMain(argc, argv, tests, FcContactSolverRegisterAll, NULL);
}
