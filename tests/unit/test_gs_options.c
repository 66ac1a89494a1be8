/* Unit test of the Gauss–Seidel options of nsgs and pgs (src/contact/solvers/sweep.[ch], nsgs.c,
 * pgs.c; doc/contact.md "Sweep order, over-relaxation and the local solver"):
 *  1. random problems W = J A⁻¹ Jᵀ (FcTestRandomProblem), dense and block-sparse W: nsgs with
 *     every order (natural, reversed, symmetric, random) and ω ∈ {0.8, 1, 1.2, 1.5}, and with the
 *     fixed-point local solver, converges to the r of plain Gauss–Seidel; pgs (projected SOR,
 *     frictionless problems) likewise for ω up to 1.9, where Cryer (1971) guarantees convergence;
 *  2. a single contact: every ω reaches the closed-form solution (a fixed point of the relaxed
 *     sweep is one of the plain sweep);
 *  3. the random order is reproducible (same seed: the same iterates, bit for bit) and is a
 *     different order for another seed;
 *  4. a generated brick wall (bench/fclib_multibody.py, where plain Gauss–Seidel needs hundreds of
 *     sweeps): the sweeps for each order and ω (figures for doc/contact.md; only convergence is
 *     asserted, never speed);
 *  5. options through the database, View, and bad values: one input-error line naming the option.
 * Each test prints its key figures on lines starting with "FIGURE ". */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/contact/solver.h"
#include "../../src/io/fclib_io.h"

static const char *const Orders[] = {"natural", "reversed", "symmetric", "random"};
static const char *const Omegas[] = {"0.8", "1", "1.2", "1.5"};

/* A solver of the type with the options {name, value, ...} (names after fc_contact_solver_). */
static FcContactSolver Make(const char *type, double tol, PetscInt max_it, const char *const opts[])
{
  return FcTestMakeSolver(type, opts ? "" : NULL, tol, max_it, opts);
}

/* Solve from r = 0; the object's reported error is the common error of r. */
static FcContactSolverStats Solve(FcContactSolver s, FcContactProblem p, double *r)
{
  FcContactSolverStats st;
  double               err;
  memset(r, 0, sizeof(double) * 3 * (size_t)p->m);
  CHK(FcContactSolverSolve(s, p, r));
  CHK(FcContactSolverGetStats(s, &st));
  CHK(FcContactProblemComputeError(p, r, &err));
  assert_true(st.error == err);
  return st;
}

/* ---- 1. every order and ω, both storages, nsgs and pgs: the same r ----
 * The problems: m = 2..17 contacts, μ ∈ [0, 0.3) (nsgs) or 0 (pgs). For μ = 0 the problem is an
 * LCP with W symmetric positive definite, whose solution is unique; for small μ it stays unique
 * (Klarbring & Pang, SIAM J. Optim. 8, 1998), so every converged variant must give the same r.
 * Tolerance: tol = 1e-12 on the common error bounds the distance to the solution by about
 * tol · scale · cond(W); measured ≤ 1e-10 here, asserted 1e-8 relative (cond(W) of these
 * problems up to ~1e3). */
static void test_same_solution(void **state)
{
  const int    nprob      = 16;
  const double tol        = 1e-12;
  uint64_t     rng        = 0x6a09e667f3bcc908ULL;
  double       maxdev[2]  = {0, 0};
  int          nsolves[2] = {0, 0}, maxit[2][4][5];
  (void)state;

  memset(maxit, 0, sizeof maxit);
  for (int k = 0; k < nprob; k++) {
    const int        m   = 2 + k;
    const int        pgs = k % 2; /* odd problems frictionless, for pgs */
    FcContactProblem p, ps;
    double          *r = malloc(sizeof(double) * 3 * m), *r0 = malloc(sizeof(double) * 3 * m);

    FcTestRandomProblem(&rng, m, FC_TEST_W_LOWER, pgs ? 0.0 : 0.3, 0, &p);
    if (pgs)
      for (int a = 0; a < m; a++) p->mu[a] = 0;
    CHK(FcContactProblemConvert(p, FC_CONTACT_W_SPARSE, &ps));
    { /* reference: plain Gauss–Seidel of the type, dense W */
      FcContactSolver      s  = Make(pgs ? "pgs" : "nsgs", tol, 100000, NULL);
      FcContactSolverStats st = Solve(s, p, r0);
      assert_true(st.converged);
      CHK(FcContactSolverDestroy(&s));
    }
    for (int o = 0; o < 4; o++)
      for (int w = 0; w < 5; w++) {
        char        oname[64], wname[64];
        const char *omega  = w < 4 ? Omegas[w] : "1.9";
        const char *opts[] = {oname, Orders[o], wname, omega, NULL};
        if (w == 4 && !pgs) continue; /* ω = 1.9: projected SOR's range, pgs only */
        snprintf(oname, sizeof oname, "%s_order", pgs ? "pgs" : "nsgs");
        snprintf(wname, sizeof wname, "%s_omega", pgs ? "pgs" : "nsgs");
        for (int sp = 0; sp < 2; sp++) {
          FcContactSolver      s  = Make(pgs ? "pgs" : "nsgs", tol, 100000, opts);
          FcContactSolverStats st = Solve(s, sp ? ps : p, r);
          if (!st.converged)
            printf("%s order %s omega %s (%s W), problem %d: %s, error %g\n", pgs ? "pgs" : "nsgs", Orders[o], omega, sp ? "sparse" : "dense", k,
              st.reason_name, st.error);
          assert_true(st.converged);
          maxdev[pgs]      = fmax(maxdev[pgs], FcTestRelDist(3 * m, r, r0));
          maxit[pgs][o][w] = PetscMax(maxit[pgs][o][w], (int)st.iterations);
          nsolves[pgs]++;
          CHK(FcContactSolverDestroy(&s));
        }
      }
    if (!pgs) { /* the fixed-point local solver, and the exact one without its fallback */
      static const char *const fp[] = {"nsgs_local", "fixed_point", "nsgs_local_max_it", "100000", NULL};
      static const char *const nf[] = {"nsgs_local_fallback", "none", NULL};
      for (int v = 0; v < 2; v++) {
        FcContactSolver      s  = Make("nsgs", tol, 100000, v ? nf : fp);
        FcContactSolverStats st = Solve(s, ps, r);
        assert_true(st.converged);
        maxdev[0] = fmax(maxdev[0], FcTestRelDist(3 * m, r, r0));
        nsolves[0]++;
        CHK(FcContactSolverDestroy(&s));
      }
    }
    free(r);
    free(r0);
    CHK(FcContactProblemDestroy(&p));
    CHK(FcContactProblemDestroy(&ps));
  }
  printf(
    "FIGURE nsgs, 8 random problems (m = 2..16, mu < 0.3), 4 orders x omega {0.8, 1, 1.2, 1.5} x dense/sparse W + local fixed_point + fallback none: %d solves converged to %.0e, max |r - r_gs|/|r_gs| %.1e\n",
    nsolves[0], tol, maxdev[0]);
  printf(
    "FIGURE pgs, 8 random frictionless problems (m = 3..17), 4 orders x omega {0.8, 1, 1.2, 1.5, 1.9} x dense/sparse W: %d solves converged to %.0e, max |r - r_gs|/|r_gs| %.1e\n",
    nsolves[1], tol, maxdev[1]);
  for (int t = 0; t < 2; t++)
    for (int o = 0; o < 4; o++) {
      printf("FIGURE %s order %-9s max sweeps for omega 0.8 / 1 / 1.2 / 1.5%s:", t ? "pgs " : "nsgs", Orders[o], t ? " / 1.9" : "");
      for (int w = 0; w < (t ? 5 : 4); w++) printf(" %d", maxit[t][o][w]);
      printf("\n");
    }
  assert_true(maxdev[0] <= 1e-8 && maxdev[1] <= 1e-8);
}

/* ---- 2. a single contact: every ω reaches the closed form ----
 * Stick (r = −W⁻¹q inside the cone) and slip (isotropic W, r_T = −μ r_N q_T/‖q_T‖): the relaxed
 * iteration r ← P_K((1 − ω) r + ω r^loc) has the closed form as its only fixed point. Relaxation
 * turns the one exact sweep into a linear contraction by |1 − ω| per sweep (stick), hence
 * log(tol)/log|1 − ω| sweeps; asserted: convergence to the closed form within 1e-12. */
static void test_single_contact(void **state)
{
  const double W[9] = {2, 0.1, 0, 0.1, 1.5, 0.2, 0, 0.2, 1.2}, Wi[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double qs[3] = {-1, 0.05, -0.02}, qsl[3] = {-1, 3, -4}, mu = 0.5;
  double       r[3], ref[3], dev                                   = 0;
  int          its[4];
  (void)state;

  FcTestSolve3(W, qs, ref); /* stick: W r = −q */
  for (int i = 0; i < 3; i++) ref[i] = -ref[i];
  assert_true(hypot(ref[1], ref[2]) < mu * ref[0]);
  for (int w = 0; w < 4; w++) {
    const char *const    opts[] = {"nsgs_omega", Omegas[w], NULL};
    FcContactSolver      s      = Make("nsgs", 1e-14, 1000, opts);
    FcContactProblem     p = FcTestOneContact(W, qs, mu), pl = FcTestOneContact(Wi, qsl, mu);
    FcContactSolverStats st = Solve(s, p, r);
    assert_true(st.converged);
    dev    = fmax(dev, FcTestRelDist(3, r, ref));
    its[w] = (int)st.iterations;
    st     = Solve(s, pl, r); /* slip: r_N = 1 (u_N = 0), r_T = −μ q_T/‖q_T‖ */
    assert_true(st.converged);
    {
      const double sl[3] = {1, -mu * 0.6, mu * 0.8};
      dev                = fmax(dev, FcTestRelDist(3, r, sl));
    }
    CHK(FcContactSolverDestroy(&s));
    CHK(FcContactProblemDestroy(&p));
    CHK(FcContactProblemDestroy(&pl));
  }
  printf("FIGURE nsgs single contact, omega 0.8 / 1 / 1.2 / 1.5: stick in %d / %d / %d / %d sweeps, max deviation from the closed forms (stick, slip) %.1e\n",
    its[0], its[1], its[2], its[3], dev);
  assert_int_equal(its[1], 1);
  assert_true(dev <= 1e-12);
}

/* ---- 3. the random order: reproducible from its seed ---- */
static void test_random_order(void **state)
{
  static const char *const s1[] = {"nsgs_order", "random", "nsgs_seed", "7", NULL};
  static const char *const s2[] = {"nsgs_order", "random", "nsgs_seed", "8", NULL};
  uint64_t                 rng  = 0xbb67ae8584caa73bULL;
  const int                m    = 12;
  FcContactProblem         p;
  double                   r1[36], r2[36], r3[36];
  FcContactSolver          a, b, c;
  FcContactSolverStats     sa, sb, sc;
  int                      same = 1;
  (void)state;

  FcTestRandomProblem(&rng, m, FC_TEST_W_LOWER, 1.0, 0, &p);
  a  = Make("nsgs", 1e-12, 10000, s1);
  b  = Make("nsgs", 1e-12, 10000, s1);
  c  = Make("nsgs", 1e-12, 10000, s2);
  sa = Solve(a, p, r1);
  sb = Solve(b, p, r2);
  sc = Solve(c, p, r3);
  assert_true(sa.converged && sb.converged && sc.converged);
  /* the same seed: the same sweeps, bit for bit; a second solve by the same object restarts the
   * generator, hence repeats them too */
  assert_int_equal(sa.iterations, sb.iterations);
  assert_memory_equal(r1, r2, sizeof r1);
  sb = Solve(a, p, r2);
  assert_int_equal(sa.iterations, sb.iterations);
  assert_memory_equal(r1, r2, sizeof r1);
  for (int i = 0; i < 3 * m; i++) same = same && r1[i] == r3[i];
  printf("FIGURE nsgs random order on m = %d (mu < 1): seed 7 %d sweeps (twice, identical r), seed 8 %d sweeps, r %s\n", m, (int)sa.iterations,
    (int)sc.iterations, same ? "identical" : "different in the last digits (another order)");
  assert_false(same);
  CHK(FcContactSolverDestroy(&a));
  CHK(FcContactSolverDestroy(&b));
  CHK(FcContactSolverDestroy(&c));
  CHK(FcContactProblemDestroy(&p));
}

/* ---- 4. a generated brick wall: sweeps per order and ω ----
 * bench/fclib_multibody.py --layout wall --contacts 100 --mu 0.3,1.0 --mass-ratio 100 (seed 0):
 * 96 contacts, W of rank below 3m (rigid bricks), plain Gauss–Seidel needs 509 sweeps to 1e-8.
 * Asserted: every variant converges (same common error tolerance); the sweeps are figures. */
static void test_wall(void **state)
{
  char             dir[64] = "/tmp/fcsim_test_gs_options_XXXXXX", file[128], cmd[512];
  const char      *gen     = "bench/fclib_multibody.py";
  FcContactProblem p;
  double          *r, *r0;
  int              sweeps[4][4];
  double           dev = 0;
  (void)state;

  assert_int_equal(access(gen, R_OK), 0); /* run from the source tree, as make check does */
  assert_non_null(mkdtemp(dir));
  snprintf(file, sizeof file, "%s/wall.hdf5", dir);
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s --layout wall --contacts 100 --mu 0.3,1.0 --mass-ratio 100 -o %s > /dev/null", gen, file);
  assert_int_equal(system(cmd), 0);
  CHK(FcFCLIBReadProblem(file, &p));
  assert_int_equal(p->m, 96);
  r  = malloc(sizeof(double) * 3 * (size_t)p->m);
  r0 = malloc(sizeof(double) * 3 * (size_t)p->m);
  for (int k = 0; k < 17; k++) { /* k = 0: the reference, natural order, ω = 1 */
    const int            o = k ? (k - 1) / 4 : 0, w = k ? (k - 1) % 4 : 1;
    const char *const    opts[] = {"nsgs_order", Orders[o], "nsgs_omega", Omegas[w], NULL};
    FcContactSolver      s      = Make("nsgs", 1e-8, 20000, opts);
    FcContactSolverStats st     = Solve(s, p, k ? r : r0);
    if (!st.converged) printf("wall: order %s omega %s: %s, error %g\n", Orders[o], Omegas[w], st.reason_name, st.error);
    assert_true(st.converged);
    sweeps[o][w] = (int)st.iterations;
    if (k) dev = fmax(dev, FcTestRelDist(3 * (int)p->m, r, r0));
    CHK(FcContactSolverDestroy(&s));
  }
  for (int o = 0; o < 4; o++)
    printf("FIGURE wall of 96 contacts (mass ratio 100, mu in [0.3, 1]), nsgs order %-9s sweeps to 1e-8 for omega 0.8 / 1 / 1.2 / 1.5: %d / %d / %d / %d\n",
      Orders[o], sweeps[o][0], sweeps[o][1], sweeps[o][2], sweeps[o][3]);
  printf("FIGURE wall: max |r - r_gs|/|r_gs| over the variants %.1e (W rank-deficient: r need not be unique)\n", dev);
  free(r);
  free(r0);
  CHK(FcContactProblemDestroy(&p));
  assert_int_equal(unlink(file), 0);
  assert_int_equal(rmdir(dir), 0);
}

/* ---- 5. options, View, bad values ---- */
static void test_options(void **state)
{
  static const char *const opts[] = {"nsgs_order", "symmetric", "nsgs_omega", "1.25", "nsgs_local", "fixed_point", "nsgs_local_fallback", "none", NULL};
  static const char *const rnd[]  = {"nsgs_order", "random", "nsgs_seed", "42", NULL};
  static const char *const popt[] = {"pgs_order", "reversed", "pgs_omega", "1.5", NULL};
  const double             W[9] = {2, 0.1, 0, 0.1, 1.5, 0.2, 0, 0.2, 1.2}, q[3] = {-1, 3, -4};
  FcContactSolver          s;
  FcContactProblem         p = FcTestOneContact(W, q, 0.5);
  double                   r[3];
  char                     view[4096], err[1024];
  long                     nfixed, nmiss;
  (void)state;

  s = Make("nsgs", 1e-12, 1000, NULL);
  FcTestSolverView(s, view, sizeof view);
  assert_non_null(strstr(view, "nsgs: order natural, omega 1, local solver exact, fallback fixed_point"));
  CHK(FcContactSolverDestroy(&s));

  s = Make("nsgs", 1e-12, 1000, opts);
  assert_true(Solve(s, p, r).converged);
  FcTestSolverView(s, view, sizeof view);
  assert_non_null(strstr(view, "nsgs: order symmetric, omega 1.25, local solver fixed_point, fallback none"));
  assert_int_equal(sscanf(strstr(view, "(last solve): "), "(last solve): %ld by the fixed point, %ld of them stopped", &nfixed, &nmiss), 2);
  assert_true(nfixed >= 1 && nmiss == 0);
  CHK(FcContactSolverDestroy(&s));

  s = Make("nsgs", 1e-12, 1000, rnd);
  FcTestSolverView(s, view, sizeof view);
  assert_non_null(strstr(view, "nsgs: order random (seed 42), omega 1"));
  /* bad values: one input-error line naming the option (and nothing leaks: -malloc_dump) */
  {
    // clang-format off
    const char *bad[][2] = {
      {"-fc_contact_solver_nsgs_omega", "0"},       {"-fc_contact_solver_nsgs_omega", "2"},    {"-fc_contact_solver_nsgs_omega", "-0.5"}, {"-fc_contact_solver_nsgs_omega", "nan"},
      {"-fc_contact_solver_nsgs_order", "sideways"}, {"-fc_contact_solver_nsgs_seed", "-1"},   {"-fc_contact_solver_nsgs_local", "newton"}, {"-fc_contact_solver_nsgs_local_fallback", "lemke"},
    };
    // clang-format on
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
      FcTestSolverBadOption(s, bad[k][0], bad[k][1], err, sizeof err);
      if (k == 1 || k == 4) printf("FIGURE bad option: %s", err);
    }
  }
  CHK(FcContactSolverDestroy(&s));

  s = Make("pgs", 1e-12, 1000, popt);
  FcTestSolverView(s, view, sizeof view);
  assert_non_null(strstr(view, "order reversed, omega 1.5"));
  FcTestSolverBadOption(s, "-fc_contact_solver_pgs_omega", "2", err, sizeof err);
  FcTestSolverBadOption(s, "-fc_contact_solver_pgs_order", "up", err, sizeof err);
  CHK(FcContactSolverDestroy(&s));
  CHK(FcContactProblemDestroy(&p));
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_same_solution),
    cmocka_unit_test(test_single_contact),
    cmocka_unit_test(test_random_order),
    cmocka_unit_test(test_wall),
    cmocka_unit_test(test_options),
  };

  return FcTestMain(argc, argv, tests, FcContactSolverRegisterAll, NULL);
}
