/* Unit test of the contact-solver types pgs, uzawa_local and uzawa_global
 * (src/contact/solvers/pgs.c, uzawa.c; doc/contact.md "pgs, uzawa_local, uzawa_global"):
 *  - single-contact closed forms (separation, stick, slip isotropic and coupled, μ = 0);
 *  - random problems W = J A⁻¹ Jᵀ (m = 1..20, μ ∈ [0,1]): uzawa_local and uzawa_global converge,
 *    their iteration counts against nsgs's on the same problems (talbi2008 §3.3.3's comparison),
 *    the inner iterations of uzawa_local, the choice of ρ, the inner tolerance;
 *  - frictionless problems: pgs, uzawa_local, uzawa_global agree with nsgs;
 *  - pgs on a frictional problem: what the user sees;
 *  - for every type the reported error equals the common error recomputed from r (and an
 *    independent reimplementation of it);
 *  - statuses (talbi2008's own stopping tests ε₁, ε₃ → DIVERGED_INEXACT when the common error is
 *    above tol; max_it; NaN; breakdown; m = 0; warm start), options and bad option values;
 *  - the generated multi-body wall on which uzawa_local stalled with talbi2008's single ρ
 *    (issue 12): converged to 1e-8 with the per-contact ρ now default, no inner loop capped.
 * Each test prints its key figures on lines starting with "FIGURE ". */
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

#include "../../src/contact/solvers/uzawa.h"
#include "../../src/io/fclib_io.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
static double   Uniform(double a, double b) { return FcTestUniform(&rng_state, a, b); }

/* ---- the common error written out again, with talbi2008's form of the projection ----
 * Proj_K(x) = x (stick), 0 (no contact), x − (‖x_T‖ − μ x_N)/(1 + μ²) (x_T/‖x_T‖ − μ n) (sliding). */
static void TalbiProject(double mu, const double x[3], double p[3])
{
  const double t = hypot(x[1], x[2]);
  if (t <= mu * x[0] && x[0] >= 0) {
    memcpy(p, x, 3 * sizeof(double));
  } else if (mu * t <= -x[0]) {
    p[0] = p[1] = p[2] = 0;
  } else {
    const double c = (t - mu * x[0]) / (1 + mu * mu);
    p[0]           = x[0] + c * mu;
    p[1]           = x[1] - c * x[1] / t;
    p[2]           = x[2] - c * x[2] / t;
  }
}

static double ReferenceError(FcContactProblem p, const double *r)
{
  const int        n = 3 * (int)p->m;
  double          *u = malloc(sizeof(double) * (size_t)(n ? n : 1)), e2 = 0, q2 = 0, r2 = 0, u2 = 0, s;
  FcContactProblem d = NULL; /* a dense copy of a block-sparse W (the FCLIB reader stores sparse below fill 0.75) */
  const double    *W;
  if (FcContactProblemIsSparse(p)) assert_int_equal(FcContactProblemConvert(p, FC_CONTACT_W_DENSE, &d), 0);
  W = d ? d->W : p->W;
  for (int i = 0; i < n; i++) {
    u[i] = p->q[i];
    for (int j = 0; j < n; j++) u[i] += W[(size_t)i * n + j] * r[j];
    q2 += p->q[i] * p->q[i];
    r2 += r[i] * r[i];
    u2 += u[i] * u[i];
  }
  for (int a = 0; a < (int)p->m; a++) {
    const double *ua = u + 3 * a, *ra = r + 3 * a, mu = p->mu[a];
    double        x[3], pr[3];
    x[0] = ra[0] - ua[0] - mu * hypot(ua[1], ua[2]);
    x[1] = ra[1] - ua[1];
    x[2] = ra[2] - ua[2];
    TalbiProject(mu, x, pr);
    for (int i = 0; i < 3; i++) e2 += (ra[i] - pr[i]) * (ra[i] - pr[i]);
  }
  free(u);
  if (d) assert_int_equal(FcContactProblemDestroy(&d), 0);
  s = sqrt(fmax(q2, fmax(r2, u2)));
  return s >= DBL_EPSILON ? sqrt(e2) / s : sqrt(e2);
}

/* ---- random problems: W = J A⁻¹ Jᵀ, A = BᵀB + nI SPD (n×n, n = 3m + 2..7), J (3m×n) random,
 * q ∈ [−1,1]^{3m} (normal components of both signs), μ ∈ [0, mu_max]. het > 0 scales contact a
 * by d_a = 10^U(−het, het) (W_ab → d_a d_b W_ab, q_a → d_a q_a): contacts of different
 * stiffness, the case where talbi2008's single ρ is tuned to the softest one only. ---- */
static void RandomProblem(int m, double mu_max, double het, int symmetric, FcContactProblem *prob)
{
  FcTestRandomProblem(&rng_state, m, symmetric ? FC_TEST_W_LOWER : FC_TEST_W_AS_COMPUTED, mu_max, het, prob);
}

/* ---- solver set-up: type options go through the options database under a prefix ---- */
/* opts: NULL-terminated pairs {"uzawa_rho_local", "true", ...} (names after fc_contact_solver_). */
static FcContactSolver MakeSolver(const char *type, const char *prefix, PetscReal tol, PetscInt max_it, const char *const opts[])
{
  return FcTestMakeSolver(type, opts ? prefix : NULL, tol, max_it, opts); /* no options: no prefix */
}

/* Solve from r = 0; check that the reported error is the common error of r (the one function,
 * and the independent reimplementation). Returns the stats; *dev receives the larger of the
 * two deviations. */
static FcContactSolverStats Solve(FcContactSolver s, FcContactProblem p, double *r, double *dev)
{
  FcContactSolverStats st;
  double               err, ref;
  memset(r, 0, sizeof(double) * 3 * (size_t)p->m);
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_int_equal(FcContactProblemComputeError(p, r, &err), 0);
  ref = ReferenceError(p, r);
  /* the object's number is exactly the common error of r (both NaN after a NaN status) */
  assert_true(st.error == err || (isnan(st.error) && isnan(err)));
  if (dev && !isnan(err)) *dev = fmax(*dev, fabs(ref - err));
  return st;
}

/* ---- 1. single-contact closed forms ---- */
static FcContactSolverStats SolveOne(FcContactSolver s, const double W[9], const double q[3], double mu, double r[3], double u[3])
{
  FcContactProblem     p  = FcTestOneContact(W, q, mu);
  FcContactSolverStats st = Solve(s, p, r, NULL);
  assert_int_equal(FcContactProblemComputeVelocity(p, r, u), 0);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  return st;
}

static void test_single_contact(void **state)
{
  const char  *types[] = {"uzawa_local", "uzawa_global", "pgs"};
  const double Wc[9] = {2.0, 0.3, -0.2, 0.3, 1.5, 0.4, -0.2, 0.4, 1.0}, tol = 1e-13;
  (void)state;

  for (int t = 0; t < 3; t++) {
    FcContactSolver      s = MakeSolver(types[t], "", tol, 100000, NULL);
    FcContactSolverStats st;
    double               r[3], u[3], dev_sep, dev_stick = 0, dev_slip = 0, dev_slip_c = 0, dev_mu0 = 0, max_err = 0;
    int                  it_sep, it_stick = 0, it_slip = 0, it_mu0;
    const PetscBool      pgs = t == 2;

    { /* separation: q_N > 0 → r = 0, already the solution at r = 0: no iteration */
      const double q[3] = {0.5, 0.3, -0.2};
      st                = SolveOne(s, Wc, q, 0.5, r, u);
      assert_true(st.converged);
      assert_true(r[0] == 0 && r[1] == 0 && r[2] == 0);
      dev_sep = fmax(fabs(r[0]), fmax(fabs(r[1]), fabs(r[2])));
      it_sep  = (int)st.iterations;
      assert_int_equal(it_sep, 0);
    }
    { /* μ = 0: r = (−q_N/W_nn, 0, 0) */
      const double q[3] = {-0.8, 0.6, 0.9};
      st                = SolveOne(s, Wc, q, 0.0, r, u);
      assert_true(st.converged);
      max_err = fmax(max_err, st.error);
      dev_mu0 = fmax(fabs(r[1]), fabs(r[2]));
      dev_mu0 = fmax(dev_mu0, fabs(r[0] - 0.8 / Wc[0]) / (0.8 / Wc[0]));
      it_mu0  = (int)st.iterations;
    }
    if (!pgs) {
      { /* stick: r = −W⁻¹q inside the cone */
        const double q[3] = {-1.0, 0.1, 0.05};
        double       x[3];
        FcTestSolve3(Wc, q, x);
        assert_true(hypot(x[1], x[2]) < -x[0]);
        st = SolveOne(s, Wc, q, 1.0, r, u);
        assert_true(st.converged);
        max_err  = fmax(max_err, st.error);
        it_stick = (int)st.iterations;
        for (int i = 0; i < 3; i++) dev_stick = fmax(dev_stick, fabs(r[i] + x[i]) / fabs(x[0]));
      }
      { /* slip, isotropic tangential block: r_N = −q_N/W_nn, r_T = −μ r_N q_T/‖q_T‖ */
        const double W[9] = {2.0, 0, 0, 0, 0.5, 0, 0, 0, 0.5}, q[3] = {-1.0, 2.0, -1.0}, mu = 0.3;
        const double rn = 0.5, nt = hypot(2.0, -1.0), ex[3] = {rn, -mu * rn * 2.0 / nt, -mu * rn * -1.0 / nt};
        st = SolveOne(s, W, q, mu, r, u);
        assert_true(st.converged);
        max_err = fmax(max_err, st.error);
        it_slip = (int)st.iterations;
        for (int i = 0; i < 3; i++) dev_slip = fmax(dev_slip, fabs(r[i] - ex[i]) / rn);
      }
      { /* slip, coupled block: on the boundary, u_N = 0, u_T opposite to r_T */
        const double q[3] = {-1.0, 1.5, -0.7}, mu = 0.3;
        double       x[3], rt, ut;
        FcTestSolve3(Wc, q, x);
        assert_true(hypot(x[1], x[2]) > mu * -x[0]); /* not a stick case */
        st = SolveOne(s, Wc, q, mu, r, u);
        assert_true(st.converged);
        max_err = fmax(max_err, st.error);
        rt      = hypot(r[1], r[2]);
        ut      = hypot(u[1], u[2]);
        assert_true(r[0] > 0 && ut > 0);
        dev_slip_c = fmax(dev_slip_c, fabs(rt - mu * r[0]) / r[0]);
        dev_slip_c = fmax(dev_slip_c, fabs(u[0]) / hypot(q[0], hypot(q[1], q[2])));
        for (int i = 1; i < 3; i++) dev_slip_c = fmax(dev_slip_c, fabs(u[i] / ut + r[i] / rt));
      }
      printf(
        "FIGURE %s single contact (tol %.0e): deviation separation %.1e (%d it), stick %.1e (%d it), slip isotropic %.1e (%d it), slip coupled (cone, u_N, direction) %.1e, mu=0 %.1e (%d it); max common error %.1e\n",
        types[t], tol, dev_sep, it_sep, dev_stick, it_stick, dev_slip, it_slip, dev_slip_c, dev_mu0, it_mu0, max_err);
      assert_true(dev_stick <= 1e-11 && dev_slip <= 1e-11 && dev_slip_c <= 1e-11);
    } else {
      printf("FIGURE pgs single contact (tol %.0e): deviation separation %.1e (%d it), mu=0 %.1e (%d it)\n", tol, dev_sep, it_sep, dev_mu0, it_mu0);
    }
    assert_true(dev_mu0 <= 1e-11);
    assert_true(max_err <= tol);

    { /* random single contacts: every one converges */
      double W[9], B[9], q[3], maxe = 0;
      int    maxit = 0;
      for (int k = 0; k < 300; k++) {
        const double mu = pgs || k % 7 == 0 ? 0.0 : Uniform(0, 1);
        for (int i = 0; i < 9; i++) B[i] = Uniform(-1, 1);
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            double v = (i == j) ? 0.3 : 0;
            for (int l = 0; l < 3; l++) v += B[3 * l + i] * B[3 * l + j];
            W[3 * i + j] = v;
          }
        for (int i = 0; i < 3; i++) q[i] = Uniform(-1, 1);
        st = SolveOne(s, W, q, mu, r, u);
        if (!st.converged) printf("%s: random single contact %d: %s, error %g\n", types[t], k, st.reason_name, st.error);
        assert_true(st.converged);
        maxe  = fmax(maxe, st.error);
        maxit = st.iterations > maxit ? (int)st.iterations : maxit;
      }
      printf("FIGURE %s 300 random single contacts (%s): all converged, max common error %.1e, max iterations %d\n", types[t], pgs ? "mu = 0" : "mu in [0,1]",
        maxe, maxit);
    }
    assert_int_equal(FcContactSolverDestroy(&s), 0);
  }
}

/* ---- 2. random frictional problems: convergence and iteration counts against nsgs ---- */
typedef struct {
  const char        *label, *type, *prefix;
  const char *const *opts;
  double             sum_it, max_err, sum_inner, loops, time;
  int                max_it, nconv, nfewer, nmore;
} Config;
// clang-format off
#define CFG(l, t, p, o) {.label = l, .type = t, .prefix = p, .opts = o}
// clang-format on

static void RunConfigs(Config *cfg, int ncfg, int nprob, double mu_max, double het, double tol, PetscInt max_it, double *dev)
{
  FcContactSolver s[16];
  assert_true(ncfg <= 16);
  for (int c = 0; c < ncfg; c++) s[c] = MakeSolver(cfg[c].type, cfg[c].prefix, tol, max_it, cfg[c].opts);
  for (int k = 0; k < nprob; k++) {
    const int        m = 1 + k % 20;
    FcContactProblem p;
    double          *r      = malloc(sizeof(double) * 3 * m);
    int              it_ref = 0;
    RandomProblem(
      m, mu_max, het, k % 2, &p); /* odd k: exactly symmetric W; even k: J (A⁻¹Jᵀ) as computed, asymmetric by rounding (the strided column update) */
    for (int c = 0; c < ncfg; c++) {
      FcContactSolverStats st = Solve(s[c], p, r, dev);
      if (!st.converged)
        printf("%s: problem %d (m = %d): %s after %d iterations, error %g\n", cfg[c].label, k, m, st.reason_name, (int)st.iterations, st.error);
      cfg[c].nconv += st.converged ? 1 : 0;
      cfg[c].sum_it += st.iterations;
      cfg[c].max_it  = st.iterations > cfg[c].max_it ? (int)st.iterations : cfg[c].max_it;
      cfg[c].max_err = fmax(cfg[c].max_err, st.error);
      cfg[c].time += st.time;
      if (c == 0) it_ref = (int)st.iterations; /* config 0 is nsgs */
      else {
        cfg[c].nfewer += st.iterations < it_ref;
        cfg[c].nmore += st.iterations > it_ref;
      }
      if (!strcmp(cfg[c].type, "uzawa_local")) {
        PetscInt64 last;
        assert_int_equal(FcContactSolverUzawaGetInnerIterations(s[c], &last, NULL), 0);
        cfg[c].sum_inner += (double)last;
        cfg[c].loops += (double)m * st.iterations;
      }
    }
    free(r);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
  }
  for (int c = 0; c < ncfg; c++) assert_int_equal(FcContactSolverDestroy(&s[c]), 0);
}

static void PrintConfigs(const char *what, const Config *cfg, int ncfg, int nprob)
{
  for (int c = 0; c < ncfg; c++) {
    printf("FIGURE %s: %-34s converged %d/%d, sweeps mean %6.1f max %5d, max common error %.2e", what, cfg[c].label, cfg[c].nconv, nprob, cfg[c].sum_it / nprob,
      cfg[c].max_it, cfg[c].max_err);
    if (c) printf(", fewer/more sweeps than nsgs on %d/%d problems", cfg[c].nfewer, cfg[c].nmore);
    if (cfg[c].loops > 0) printf(", inner steps %.2f per contact and sweep", cfg[c].sum_inner / cfg[c].loops);
    printf(", time %.2f ms (all problems)", 1e3 * cfg[c].time);
    printf("\n");
  }
}

static void test_random_problems(void **state)
{
  static const char *const wnn[]   = {"uzawa_rho_rule", "wnn", NULL};
  static const char *const talbi[] = {"uzawa_rho_rule", "talbi2008", NULL};
  static const char *const zero[]  = {"uzawa_inner_zero_start", "true", NULL};
  static const char *const in2[] = {"uzawa_inner_tol", "1e-2", NULL}, *const in4[] = {"uzawa_inner_tol", "1e-4", NULL},
                           *const in6[] = {"uzawa_inner_tol", "1e-6", NULL}, *const in8[] = {"uzawa_inner_tol", "1e-8", NULL},
                           *const in10[] = {"uzawa_inner_tol", "1e-10", NULL};
  const int                       nprob  = 40;
  const double                    tol    = 1e-10;
  double                          dev    = 0;
  // clang-format off
  Config       cfg[] = {
    CFG("nsgs", "nsgs", "", NULL),
    CFG("uzawa_local (defaults: rho block)", "uzawa_local", "l0_", NULL),
    CFG("uzawa_local rho talbi2008", "uzawa_local", "l1_", talbi),
    CFG("uzawa_local inner_zero_start", "uzawa_local", "l2_", zero),
    CFG("uzawa_local inner_tol 1e-10", "uzawa_local", "l3_", in10),
    CFG("uzawa_local inner_tol 1e-8", "uzawa_local", "l4_", in8),
    CFG("uzawa_local inner_tol 1e-6", "uzawa_local", "l5_", in6),
    CFG("uzawa_local inner_tol 1e-4", "uzawa_local", "l6_", in4),
    CFG("uzawa_local inner_tol 1e-2", "uzawa_local", "l7_", in2),
    CFG("uzawa_global (defaults: rho lambda)", "uzawa_global", "g0_", NULL),
    CFG("uzawa_global rho wnn", "uzawa_global", "g1_", wnn),
    CFG("uzawa_local rho wnn (issue 12)", "uzawa_local", "l8_", wnn),
    CFG("uzawa_global rho talbi2008", "uzawa_global", "g2_", talbi),
  };
  // clang-format on
  const int ncfg = (int)(sizeof cfg / sizeof cfg[0]);
  (void)state;

  /* tol 1e-10, the object's default, for every type: the acceptance threshold 1e-8 is then met
   * with two digits to spare, and the iteration counts are compared at the tolerance nsgs is
   * run at. max_it 100000: uzawa_global converges linearly (hundreds of sweeps here). */
  RunConfigs(cfg, ncfg, nprob, 1.0, 0, tol, 100000, &dev);
  PrintConfigs("random mu in [0,1]", cfg, ncfg, nprob);
  printf(
    "FIGURE random problems: %d problems (m = 1..20, W = J A^-1 J^T, mu in [0,1]), tol %.0e; every reported error == common error of r (exact), independent reimplementation max |difference| %.1e\n",
    nprob, tol, dev);
  for (int c = 0; c < ncfg; c++) {
    assert_int_equal(cfg[c].nconv, nprob);
    assert_true(cfg[c].max_err <= tol && tol <= 1e-8);
  }
  assert_true(dev <= 1e-14);
  /* talbi2008 §3.3.3: local Uzawa needs fewer sweeps than ... Measured here: with its default
   * inner tolerance (tol/100) uzawa_local is the same nonlinear block Gauss–Seidel as nsgs with
   * an iterative local solver — never fewer sweeps than nsgs; with looser inner tolerances more
   * sweeps. It does need far fewer sweeps than uzawa_global (talbi2008's other comparison). */
  assert_int_equal(cfg[1].nfewer, 0);
  assert_true(cfg[1].sum_it <= 1.1 * cfg[0].sum_it);
  assert_true(cfg[2].sum_it <= 1.1 * cfg[0].sum_it); /* talbi2008's ρ: as many sweeps here, more inner steps */
  assert_true(cfg[8].sum_it > cfg[1].sum_it);
  assert_true(cfg[1].sum_it < cfg[9].sum_it / 5);

  { /* contacts of different stiffness: talbi2008's single ρ against ρ_a per contact */
    const int nh = 20;
    // clang-format off
    Config    hc[] = {
      CFG("nsgs", "nsgs", "", NULL),
      CFG("uzawa_local rho talbi2008", "uzawa_local", "h0_", talbi),
      CFG("uzawa_local (defaults: rho block)", "uzawa_local", "h1_", NULL),
      CFG("uzawa_global (defaults: rho lambda)", "uzawa_global", "h2_", NULL),
      CFG("uzawa_global rho wnn", "uzawa_global", "h3_", wnn),
      CFG("uzawa_global rho talbi2008", "uzawa_global", "h4_", talbi),
    };
    // clang-format on
    dev = 0;
    RunConfigs(hc, 6, nh, 1.0, 0.5, tol, 100000, &dev);
    PrintConfigs("stiffness spread 10^+-0.5 per contact", hc, 6, nh);
    for (int c = 0; c < 6; c++) assert_int_equal(hc[c].nconv, nh);
    /* ρ per contact against talbi2008's single ρ sized by the most compliant contact: fewer inner
     * steps (uzawa_local), fewer sweeps (uzawa_global) */
    assert_true(hc[2].sum_inner / hc[2].loops < hc[1].sum_inner / hc[1].loops);
    assert_true(hc[3].sum_it < hc[5].sum_it);
  }
}

/* ---- 3. frictionless problems: pgs, uzawa_local, uzawa_global agree with nsgs ---- */
static void test_frictionless(void **state)
{
  const char     *types[] = {"nsgs", "pgs", "uzawa_local", "uzawa_global"};
  const int       nprob   = 24;
  const double    tol     = 1e-10;
  FcContactSolver s[4];
  double          maxdev[4] = {0}, maxerr[4] = {0}, sumit[4] = {0}, edev = 0;
  int             maxit[4] = {0}, nactive = 0, ncontacts = 0;
  (void)state;

  for (int t = 0; t < 4; t++) s[t] = MakeSolver(types[t], "", tol, 100000, NULL);
  for (int k = 0; k < nprob; k++) {
    const int        m = 1 + k % 20;
    FcContactProblem p;
    double          *r[4];
    RandomProblem(m, 0.0, 0, k % 2, &p);
    ncontacts += m;
    for (int t = 0; t < 4; t++) {
      FcContactSolverStats st;
      r[t] = malloc(sizeof(double) * 3 * m);
      st   = Solve(s[t], p, r[t], &edev);
      assert_true(st.converged);
      maxerr[t] = fmax(maxerr[t], st.error);
      sumit[t] += st.iterations;
      maxit[t] = st.iterations > maxit[t] ? (int)st.iterations : maxit[t];
      if (t) maxdev[t] = fmax(maxdev[t], FcTestRelDist(3 * m, r[t], r[0]));
    }
    for (int a = 0; a < m; a++) nactive += r[0][3 * a] > 0;
    for (int t = 0; t < 4; t++) free(r[t]);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
  }
  printf(
    "FIGURE frictionless: %d problems (%d contacts, %d active at the solution), tol %.0e: |r - r_nsgs|/|r_nsgs| max pgs %.1e, uzawa_local %.1e, uzawa_global %.1e\n",
    nprob, ncontacts, nactive, tol, maxdev[1], maxdev[2], maxdev[3]);
  for (int t = 0; t < 4; t++)
    printf("FIGURE frictionless: %-12s sweeps mean %6.1f max %5d, max common error %.2e\n", types[t], sumit[t] / nprob, maxit[t], maxerr[t]);
  assert_true(nactive > 0 && nactive < ncontacts);
  for (int t = 1; t < 4; t++) {
    assert_true(maxdev[t] < 1e-6);
    assert_true(maxerr[t] <= tol);
  }
  assert_true(edev <= 1e-14);
  for (int t = 0; t < 4; t++) assert_int_equal(FcContactSolverDestroy(&s[t]), 0);
}

/* ---- 4. pgs on a frictional problem: what the user sees ---- */
static void test_pgs_friction(void **state)
{
  FcContactSolver      pgs = MakeSolver("pgs", "", 1e-10, 10000, NULL), ref = MakeSolver("nsgs", "", 1e-10, 10000, NULL);
  FcContactSolverStats st;
  FcContactProblem     p, p0;
  char                 view[4096];
  const int            m = 12;
  double              *r = malloc(sizeof(double) * 3 * m), *r0 = malloc(sizeof(double) * 3 * m), *u = malloc(sizeof(double) * 3 * m), err, err0, dev;
  long                 nmu = 0, nmu_view;
  (void)state;

  RandomProblem(m, 1.0, 0, 1, &p);
  for (int a = 0; a < m; a++) nmu += p->mu[a] > 0;
  /* the same problem with μ = 0, solved by nsgs */
  assert_int_equal(FcContactProblemCreate(m, &p0), 0);
  memcpy(p0->W, p->W, sizeof(double) * 9 * m * m);
  memcpy(p0->q, p->q, sizeof(double) * 3 * m);
  st = Solve(ref, p0, r0, NULL);
  assert_true(st.converged);

  /* warm start with tangential forces: pgs zeroes them */
  assert_int_equal(FcContactSolverSetWarmStart(pgs, PETSC_TRUE), 0);
  for (int i = 0; i < 3 * m; i++) r[i] = Uniform(0, 1);
  assert_int_equal(FcContactSolverSolve(pgs, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(pgs, &st), 0);
  assert_int_equal(FcContactProblemComputeError(p, r, &err), 0);
  assert_int_equal(FcContactProblemComputeError(p0, r, &err0), 0);
  dev = FcTestRelDist(3 * m, r, r0);
  for (int a = 0; a < m; a++) assert_true(r[3 * a + 1] == 0 && r[3 * a + 2] == 0);
  FcTestSolverView(pgs, view, sizeof view);
  assert_non_null(strstr(view, "treated as frictionless: "));
  assert_int_equal(sscanf(strstr(view, "treated as frictionless: "), "treated as frictionless: %ld", &nmu_view), 1);
  printf(
    "FIGURE pgs on a frictional problem (m = %d, %ld contacts with mu > 0): reason %s, reported error %.2e (= common error with the problem's mu %.2e), frictionless error of r %.1e, |r - r_nsgs(mu=0)|/|r| %.1e, %d sweeps\n",
    m, nmu, st.reason_name, st.error, err, err0, dev, (int)st.iterations);
  assert_true(st.error == err);
  assert_true(err > 1e-3);                                         /* the frictionless solution violates Coulomb here */
  assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_INEXACT); /* never CONVERGED_TOL */
  assert_false(st.converged);
  assert_true(err0 <= 1e-10); /* but it is the solution of the frictionless problem */
  assert_true(dev < 1e-6);
  assert_int_equal(nmu_view, nmu);

  { /* a frictional problem whose frictionless solution is also its solution: stick with r_T = 0 */
    const double     W[9] = {2.0, 0, 0, 0, 1.0, 0.2, 0, 0.2, 1.0}, q[3] = {-1.0, 0, 0};
    double           rr[3] = {0, 0, 0};
    FcContactProblem p1;
    assert_int_equal(FcContactProblemCreate(1, &p1), 0);
    memcpy(p1->W, W, sizeof W);
    memcpy(p1->q, q, sizeof q);
    p1->mu[0] = 0.5;
    assert_int_equal(FcContactSolverSolve(pgs, p1, rr), 0);
    assert_int_equal(FcContactSolverGetStats(pgs, &st), 0);
    printf("FIGURE pgs on a frictional stick contact with q_T = 0: %s, error %.1e, r = (%.3f, %g, %g)\n", st.reason_name, st.error, rr[0], rr[1], rr[2]);
    assert_true(st.converged);
    assert_true(fabs(rr[0] - 0.5) < 1e-14 && rr[1] == 0 && rr[2] == 0);
    assert_int_equal(FcContactProblemDestroy(&p1), 0);
  }
  free(r);
  free(r0);
  free(u);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  assert_int_equal(FcContactProblemDestroy(&p0), 0);
  assert_int_equal(FcContactSolverDestroy(&pgs), 0);
  assert_int_equal(FcContactSolverDestroy(&ref), 0);
}

/* ---- 5. statuses and talbi2008's own stopping tests ---- */
static void test_statuses(void **state)
{
  static const char *const eps3[] = {"uzawa_rel_tol", "1e-3", NULL}, *const eps1[] = {"uzawa_outer_tol", "1e-3", NULL},
                           *const rho[]   = {"uzawa_rho", "0.2", NULL};
  const char                     *types[] = {"pgs", "uzawa_local", "uzawa_global"};
  FcContactProblem                p, z;
  const int                       m = 20;
  double                         *r = malloc(sizeof(double) * 3 * m), err;
  char                            view[4096];
  (void)state;

  RandomProblem(m, 1.0, 0, 1, &p);
  { /* ε₃ (uzawa_global) and ε₁ (uzawa_local): the type stops on its own test; the object
     * measures the common error and says DIVERGED_INEXACT when it is above tol */
    FcContactSolver      g = MakeSolver("uzawa_global", "e3_", 1e-10, 100000, eps3), l = MakeSolver("uzawa_local", "e1_", 1e-10, 100000, eps1);
    FcContactSolverStats sg, sl;
    sg = Solve(g, p, r, NULL);
    FcTestSolverView(g, view, sizeof view);
    assert_non_null(strstr(view, "stopped on rel_tol"));
    assert_non_null(strstr(view, "rel_tol 0.001"));
    sl = Solve(l, p, r, NULL);
    printf(
      "FIGURE talbi2008 stopping tests on m = %d: uzawa_global rel_tol (eps3) 1e-3 -> %s after %d sweeps, common error %.2e; uzawa_local outer_tol (eps1) 1e-3 -> %s after %d sweeps, common error %.2e (tol 1e-10)\n",
      m, sg.reason_name, (int)sg.iterations, sg.error, sl.reason_name, (int)sl.iterations, sl.error);
    assert_int_equal(sg.reason, FC_CONTACT_SOLVER_DIVERGED_INEXACT);
    assert_true(sg.error > 1e-10 && !sg.converged);
    assert_true(sl.reason == FC_CONTACT_SOLVER_DIVERGED_INEXACT || sl.reason == FC_CONTACT_SOLVER_CONVERGED_TOL);
    FcTestSolverView(l, view, sizeof view);
    if (sl.reason == FC_CONTACT_SOLVER_DIVERGED_INEXACT) assert_non_null(strstr(view, "stopped on outer_tol"));
    assert_int_equal(FcContactSolverDestroy(&g), 0);
    assert_int_equal(FcContactSolverDestroy(&l), 0);
  }
  for (int t = 0; t < 3; t++) {
    FcContactSolver      s = MakeSolver(types[t], "", 1e-15, 1, NULL);
    FcContactSolverStats st;
    /* max_it */
    st = Solve(s, p, r, NULL);
    assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_MAX_IT);
    assert_int_equal(st.iterations, 1);
    assert_false(st.converged);
    /* warm start from a solution: no sweep */
    assert_int_equal(FcContactSolverSetTolerances(s, 1e-10, 100000), 0);
    st = Solve(s, p, r, NULL);
    assert_int_equal(FcContactSolverSetWarmStart(s, PETSC_TRUE), 0);
    if (t) { /* (pgs solves another problem: its r is not a solution of p) */
      assert_true(st.converged);
      assert_int_equal(FcContactSolverSolve(s, p, r), 0);
      assert_int_equal(FcContactSolverGetStats(s, &st), 0);
      assert_true(st.converged);
      assert_int_equal(st.iterations, 0);
    }
    /* NaN in the data */
    p->q[4] = NAN;
    st      = Solve(s, p, r, NULL);
    assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_NAN);
    p->q[4] = 0.1;
    /* a contact with W_nn = 0: no Signorini step (pgs), no automatic ρ (Uzawa) */
    {
      const double w      = p->W[3 * 3 * m + 3];
      p->W[3 * 3 * m + 3] = 0;
      st                  = Solve(s, p, r, NULL);
      assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN);
      assert_int_equal(st.iterations, 0);
      p->W[3 * 3 * m + 3] = w;
    }
    /* no contacts */
    assert_int_equal(FcContactProblemCreate(0, &z), 0);
    assert_int_equal(FcContactSolverSolve(s, z, NULL), 0);
    assert_int_equal(FcContactSolverGetStats(s, &st), 0);
    assert_true(st.converged && st.error == 0 && st.iterations == 0);
    assert_int_equal(FcContactProblemDestroy(&z), 0);
    assert_int_equal(FcContactSolverDestroy(&s), 0);
  }
  { /* an explicit ρ needs no W_nn: the Uzawa step still runs on a contact with W_nn = 0 */
    FcContactSolver      s = MakeSolver("uzawa_global", "rho_", 1e-10, 3, rho);
    FcContactSolverStats st;
    const double         w = p->W[3 * 3 * m + 3];
    p->W[3 * 3 * m + 3]    = 0;
    st                     = Solve(s, p, r, NULL);
    assert_int_equal(st.reason, FC_CONTACT_SOLVER_DIVERGED_MAX_IT);
    assert_int_equal(st.iterations, 3);
    p->W[3 * 3 * m + 3] = w;
    FcTestSolverView(s, view, sizeof view);
    assert_non_null(strstr(view, "rho 0.2 (every contact)"));
    assert_int_equal(FcContactSolverDestroy(&s), 0);
  }
  assert_int_equal(FcContactProblemComputeError(p, r, &err), 0);
  free(r);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
}

/* ---- 6. ρ default, inner iteration count, options, bad values ---- */
/* ---- 7. the multi-body problem on which uzawa_local stalled with talbi2008's single ρ ----
 * bench/fclib_multibody.py (run from the source tree, as make check does): a running-bond brick
 * wall of 96 contacts, μ in [0.3, 1], densities log-uniform over a factor 10⁶, so W_aa,nn spread
 * over 3.8e5. With ρ = 0.3 / max W_nn for every contact the inner loops of the stiff contacts
 * contract by 1 − 0.3 W_aa,nn / max W_nn per step and stop at inner_max_it: measured, uzawa_local
 * was at a common error of 1.3e-5 after 1000 sweeps (7 s) where nsgs converges in 16. With
 * ρ_a = 0.3 / W_aa,nn (the default now) no inner loop reaches the cap and uzawa_local converges
 * in as many sweeps as nsgs. Asserted: convergence to 1e-8 (the acceptance threshold) with the
 * defaults, the common error equal to that of r; the cause (capped inner loops with talbi's ρ,
 * none with the default) as counted by View. talbi's ρ runs 150 sweeps only (1 s), to show it. */
static long ViewCapped(FcContactSolver s)
{
  char  view[4096];
  long  inner, loops, capped;
  char *at;
  FcTestSolverView(s, view, sizeof view);
  at = strstr(view, "(last solve): ");
  assert_non_null(at);
  assert_int_equal(sscanf(at, "(last solve): %ld in %ld inner loops (%*f per contact and sweep), %ld stopped at inner_max_it", &inner, &loops, &capped), 3);
  return capped;
}

static void test_multibody_stall(void **state)
{
  char                 dir[64] = "/tmp/fcsim_test_uzawa_XXXXXX", file[128], cmd[512];
  const char          *gen     = "bench/fclib_multibody.py";
  FcContactProblem     p;
  FcContactSolver      s;
  FcContactSolverStats st, sn;
  double              *r;
  long                 capped_talbi, capped;
  (void)state;

  assert_int_equal(access(gen, R_OK), 0); /* run from the source tree */
  assert_non_null(mkdtemp(dir));
  snprintf(file, sizeof file, "%s/wall.hdf5", dir);
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s --layout wall --contacts 100 --mu 0.3,1.0 --mass-ratio 1e6 --seed 1 -o %s > /dev/null", gen, file);
  assert_int_equal(system(cmd), 0);
  assert_int_equal(FcFCLIBReadProblem(file, &p), 0);
  assert_int_equal(p->m, 96);
  r = malloc(sizeof(double) * 3 * (size_t)p->m);

  s  = MakeSolver("nsgs", "", 1e-8, 1000, NULL);
  sn = Solve(s, p, r, NULL);
  assert_true(sn.converged);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
  {
    static const char *const talbi[] = {"uzawa_rho_local", "false", NULL};
    s                                = MakeSolver("uzawa_local", "t_", 1e-8, 150, talbi);
    st                               = Solve(s, p, r, NULL);
    capped_talbi                     = ViewCapped(s);
    printf(
      "FIGURE uzawa_local on the wall of 96 contacts (mass ratio 1e6), talbi2008 rho (0.3/max W_nn): %s after %d sweeps, common error %.1e, %ld inner loops stopped at inner_max_it\n",
      st.reason_name, (int)st.iterations, st.error, capped_talbi);
    assert_true(capped_talbi > 0);
    assert_int_equal(FcContactSolverDestroy(&s), 0);
  }
  s      = MakeSolver("uzawa_local", "", 1e-8, 1000, NULL);
  st     = Solve(s, p, r, NULL);
  capped = ViewCapped(s);
  printf(
    "FIGURE uzawa_local on the wall of 96 contacts (mass ratio 1e6), defaults (rho_a = 1/lambda_max(W_aa)): %s after %d sweeps (nsgs: %d), common error %.1e, %ld inner loops stopped at inner_max_it\n",
    st.reason_name, (int)st.iterations, (int)sn.iterations, st.error, capped);
  assert_true(st.converged && st.error <= 1e-8);
  assert_int_equal(capped, 0);
  assert_int_equal(FcContactSolverDestroy(&s), 0);

  free(r);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  assert_int_equal(unlink(file), 0);
  assert_int_equal(rmdir(dir), 0);
}

static void test_options(void **state)
{
  FcContactSolver      s;
  FcContactSolverStats st;
  FcContactProblem     p;
  FcTestCapture        c;
  char                 view[4096], err[4096];
  const char          *type;
  const int            m = 8;
  double              *r = malloc(sizeof(double) * 3 * m), lo, hi, wmax = 0, wmin = PETSC_MAX_REAL;
  long                 inner_view, loops_view;
  PetscInt64           last, total, total2;
  PetscErrorCode       ierr;
  (void)state;

  RandomProblem(m, 1.0, 0.5, 1, &p);
  for (int a = 0; a < m; a++) {
    wmax = fmax(wmax, p->W[(3 * a) * 3 * m + 3 * a]);
    wmin = fmin(wmin, p->W[(3 * a) * 3 * m + 3 * a]);
  }
  /* λ_max of the symmetric part of each diagonal block (the default rule block), by 500 power
   * iterations (an independent computation of what uzawa.c gets in closed form) */
  double lmin = PETSC_MAX_REAL, lmx = 0;
  for (int a = 0; a < m; a++) {
    double B[9], x[3] = {1, 0.7, 0.3}, lam = 0;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) B[3 * i + j] = 0.5 * (p->W[(3 * a + i) * 3 * m + 3 * a + j] + p->W[(3 * a + j) * 3 * m + 3 * a + i]);
    for (int k = 0; k < 500; k++) {
      double y[3], ny;
      for (int i = 0; i < 3; i++) y[i] = B[3 * i] * x[0] + B[3 * i + 1] * x[1] + B[3 * i + 2] * x[2];
      ny  = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
      lam = (x[0] * y[0] + x[1] * y[1] + x[2] * y[2]) / (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
      for (int i = 0; i < 3; i++) x[i] = y[i] / ny;
    }
    lmin = fmin(lmin, lam);
    lmx  = fmax(lmx, lam);
  }
  /* talbi2008 §3.3.3, -uzawa_rho_local false (= -uzawa_rho_rule talbi2008): ρ = 0.3 · min_a 1/W_aa,nn for every contact */
  {
    static const char *const talbi[] = {"uzawa_rho_local", "false", NULL};
    s                                = MakeSolver("uzawa_local", "t_", 1e-10, 10000, talbi);
    st                               = Solve(s, p, r, NULL);
    assert_true(st.converged);
    FcTestSolverView(s, view, sizeof view);
    assert_non_null(strstr(view, "rho automatic, 0.3 x min_a 1/W_aa,nn (rule talbi2008)"));
    assert_int_equal(sscanf(strstr(view, "rho in ["), "rho in [%lf, %lf]", &lo, &hi), 2);
    assert_true(fabs(lo - 0.3 / wmax) <= 1e-5 * lo && fabs(hi - lo) <= 1e-5 * lo);
    assert_int_equal(FcContactSolverUzawaGetInnerIterations(s, &last, NULL), 0);
    printf(
      "FIGURE uzawa_local talbi2008 rho on m = %d (stiffness spread 10^+-0.5): rho = 0.3/max W_nn = %.4g for every contact, %d sweeps, %d inner steps (%.1f per contact and sweep)\n",
      m, lo, (int)st.iterations, (int)last, (double)last / (double)(m * st.iterations));
    assert_int_equal(FcContactSolverDestroy(&s), 0);
  }
  /* defaults: ρ_a = 1 / λ_max(W_aa) per contact (rule block) */
  s  = MakeSolver("uzawa_local", "", 1e-10, 10000, NULL);
  st = Solve(s, p, r, NULL);
  assert_true(st.converged);
  FcTestSolverView(s, view, sizeof view);
  fputs(view, stdout);
  assert_non_null(strstr(view, "rho automatic, 1 x 1/lambda_max(W_aa) per contact (rule block)"));
  assert_non_null(strstr(view, "inner_tol tol/100 = 1e-12, inner_max_it 1000, inner loops start from the current r_a, outer_tol off"));
  assert_int_equal(sscanf(strstr(view, "rho in ["), "rho in [%lf, %lf]", &lo, &hi), 2);
  assert_true(fabs(lo - 1 / lmx) <= 1e-5 * lo && fabs(hi - 1 / lmin) <= 1e-5 * hi); /* the view prints 6 digits */
  /* inner iterations: the getter and View agree; totals accumulate */
  assert_int_equal(FcContactSolverUzawaGetInnerIterations(s, &last, &total), 0);
  assert_int_equal(sscanf(strstr(view, "(last solve): "), "(last solve): %ld in %ld inner loops", &inner_view, &loops_view), 2);
  assert_int_equal(inner_view, last);
  assert_int_equal(loops_view, (long)m * st.iterations);
  assert_true(last >= loops_view && last == total);
  st = Solve(s, p, r, NULL);
  assert_int_equal(FcContactSolverUzawaGetInnerIterations(s, NULL, &total2), 0);
  assert_int_equal(total2, 2 * total);
  printf(
    "FIGURE uzawa_local defaults on m = %d (stiffness spread 10^+-0.5): rho_a = 1/lambda_max(W_aa) in [%.4g, %.4g], %d sweeps, %d inner steps (%.1f per contact and sweep)\n",
    m, lo, hi, (int)st.iterations, (int)last, (double)last / (double)loops_view);
  assert_int_equal(FcContactSolverDestroy(&s), 0);

  /* every option, through the options database */
  assert_int_equal(FcContactSolverCreate(&s), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_type", "uzawa_local"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_rho_local", "true"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_rho_factor", "0.25"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_inner_tol", "1e-9"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_inner_max_it", "77"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_inner_zero_start", "true"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_outer_tol", "1e-7"), 0);
  assert_int_equal(FcContactSolverSetFromOptions(s), 0);
  assert_int_equal(FcContactSolverGetType(s, &type), 0);
  assert_string_equal(type, "uzawa_local");
  st = Solve(s, p, r, NULL);
  FcTestSolverView(s, view, sizeof view);
  assert_non_null(strstr(view, "rho automatic, 0.25 x 1/W_aa,nn per contact (rule wnn)"));
  assert_non_null(strstr(view, "inner_tol 1e-09, inner_max_it 77, inner loops start from 0, outer_tol 1e-07"));
  assert_int_equal(sscanf(strstr(view, "rho in ["), "rho in [%lf, %lf]", &lo, &hi), 2);
  assert_true(fabs(lo - 0.25 / wmax) <= 1e-5 * lo && fabs(hi - 0.25 / wmin) <= 1e-5 * hi);
  printf("FIGURE uzawa_local with rho_local: rho_a = 0.25/W_aa,nn in [%.4g, %.4g]; outer_tol (eps1) 1e-7 stopped it: %s after %d sweeps, common error %.1e\n",
    lo, hi, st.reason_name, (int)st.iterations, st.error);
  assert_true(st.reason == FC_CONTACT_SOLVER_DIVERGED_INEXACT || st.reason == FC_CONTACT_SOLVER_CONVERGED_TOL);
  if (st.reason == FC_CONTACT_SOLVER_DIVERGED_INEXACT) assert_non_null(strstr(view, "stopped on outer_tol"));
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_rho_local"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_rho_factor"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_inner_tol"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_inner_max_it"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_inner_zero_start"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_outer_tol"), 0);
  /* switch to uzawa_global by option: its own options */
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_type", "uzawa_global"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_rho", "0.125"), 0);
  assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_uzawa_rel_tol", "1e-12"), 0);
  assert_int_equal(FcContactSolverSetFromOptions(s), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_rho"), 0);
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_uzawa_rel_tol"), 0);
  FcTestSolverView(s, view, sizeof view);
  assert_non_null(strstr(view, "uzawa_global: rho 0.125 (every contact)"));
  assert_non_null(strstr(view, "uzawa_global: rel_tol 1e-12"));
  /* the inner-iteration getter refuses another type */
  FcTestCaptureStart(&c);
  ierr = FcContactSolverUzawaGetInnerIterations(s, &last, NULL);
  FcTestCaptureStop(&c, err, sizeof err);
  assert_int_equal(ierr, PETSC_ERR_ARG_WRONG);
  /* bad values: one input-error line naming the option (and nothing leaks: -malloc_dump) */
  {
    const char *bad[][2] = {
      {"-fc_contact_solver_uzawa_rho", "-1"}, {"-fc_contact_solver_uzawa_rel_tol", "-1e-3"}, {"-fc_contact_solver_uzawa_rho_factor", "0"}};
    for (int k = 0; k < 3; k++) {
      FcTestSolverBadOption(s, bad[k][0], bad[k][1], err, sizeof err);
      if (k == 0) printf("FIGURE bad option: %s", err);
    }
    assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_type", "uzawa_local"), 0);
    FcTestSolverBadOption(s, "-fc_contact_solver_uzawa_inner_tol", "nan", err, sizeof err);
  }
  assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_type"), 0);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
  /* pgs options and the types in the list of registered ones */
  {
    char list[1024];
    FcContactSolverTypes(list, sizeof list);
    assert_non_null(strstr(list, "pgs"));
    assert_non_null(strstr(list, "uzawa_local"));
    assert_non_null(strstr(list, "uzawa_global"));
  }
  free(r);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
}

/* (re-registering a name replaces it: harmless once solver.c lists these types itself) */
static PetscErrorCode RegisterTypes(void)
{
  PetscFunctionBegin;
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(FcContactSolverRegister("pgs", FcContactSolverCreate_PGS));
  PetscCall(FcContactSolverRegister("uzawa_local", FcContactSolverCreate_UzawaLocal));
  PetscCall(FcContactSolverRegister("uzawa_global", FcContactSolverCreate_UzawaGlobal));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_single_contact),
    cmocka_unit_test(test_random_problems),
    cmocka_unit_test(test_frictionless),
    cmocka_unit_test(test_pgs_friction),
    cmocka_unit_test(test_statuses),
    cmocka_unit_test(test_multibody_stall),
    cmocka_unit_test(test_options),
  };

  return FcTestMain(argc, argv, tests, RegisterTypes, NULL);
}
