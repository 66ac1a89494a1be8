/* Unit test of the contact solver type "newton" (src/contact/solvers/newton.c: semismooth Newton
 * on the Alart–Curnier function, Armijo line search, nsgs fallback):
 *
 *  1. random problems (FcTestRandomProblem: m = 1..24, μ ∈ [0, 1), four forms of W, stiffness
 *     heterogeneity up to 10^±2): the common error reaches tol = 1e-10 on every one, and the r it
 *     returns solves the problem nsgs solves (same common error definition; r compared where the
 *     solution is unique, μ < 0.3 and a well-conditioned W);
 *  2. stacks of rigid boxes, the multi-body problems Gauss–Seidel is slow on: N boxes standing on
 *     each other and on the ground, four corner contacts per interface, W = H M⁻¹ Hᵀ of rank 6N
 *     for 12N rows (rank deficient: four contacts hold a box with six DoFs), mass ratio 100 between
 *     neighbours, μ = 1. Newton reaches 1e-10; the normal impulses carry the weights (Σ r_N of the
 *     ground contacts = total weight × h, to 1e-8 relative); nsgs, given the same number of
 *     matrix-vector products' worth of sweeps, is reported beside it;
 *  3. the type's options are refused when out of range, one line naming the option;
 *  4. rho "inverse" (doc/contact.md, "The scaling ρ near a rigid limit") computes the right
 *     answer: on a rigid slab on four elastic feet, W = J M⁻¹ Jᵀ + W_e with the elastic part 1e-9
 *     of the rigid one, its r is the direct solution −W⁻¹q (every contact sticks) to cond(W) ε;
 *     on a box stack (W rank deficient) it falls back to the diagonal, says so in its view, and
 *     still converges. Both scalings solve the slab in one step (all contacts stick: Φ is linear
 *     there); the problem rho inverse is for, where stick, slip and separation mix, is the
 *     table's at E = 1e11, tested in tests/integration/test_table_corot.py;
 *  5. the envelope LU (envelope.h), the LU of newton on a block-sparse W of more than 32 contacts:
 *     on random nonsymmetric matrices of random block patterns (a shuffled chain with long-range
 *     blocks and several components) it solves to a residual of rounding size; reverse
 *     Cuthill–McKee recovers the band of a shuffled chain exactly (the envelope of a block
 *     tridiagonal matrix); a singular matrix is a "zero" pivot; and newton on the box stacks of 2
 *     in their block-sparse form converges with it (auto: on to PETSc's LU at the zero pivot;
 *     envelope: restarts with a shift);
 *  6. the velocity hint (newton.c HintStep_Private): a problem with a known solution r0, u0 (contacts
 *     sticking near the cone's edge, separated, and in a second family sliding too), then the next
 *     problem q' = q + s W r0, whose solution is r1 = (1 − s) r0 with the same velocity u0 (the
 *     load scaled: every contact keeps its state, the slip directions too). From the warm start
 *     r0 the new x = r0 − ρ(u0 + s W r0) moves contacts to other pieces of Φ; the hint u0 gives
 *     the pieces of the answer: where all stick or separate the hint step is the answer (1 step),
 *     the hinted solves take fewer Newton steps in both families, a junk hint costs steps, never
 *     the answer, and the hint is for one solve. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include "../../src/contact/solvers/envelope.h"

static uint64_t rng_state = 0x5eed5eedULL;

static void test_random(void **state)
{
  const FcTestWForm forms[4] = {FC_TEST_W_AS_COMPUTED, FC_TEST_W_MEAN, FC_TEST_W_LOWER, FC_TEST_W_GRAM};
  FcContactSolver   nt, gs;
  PetscInt          nprob = 0, nconv = 0, steps = 0, maxsteps = 0, ncmp = 0;
  PetscReal         emax = 0, dmax = 0;
  (void)state;

  nt = FcTestMakeSolver("newton", NULL, 1e-10, 100, NULL);
  gs = FcTestMakeSolver("nsgs", NULL, 1e-12, 100000, NULL);
  for (int k = 0; k < 48; k++) {
    const int            m = 1 + k / 2, f = k % 4;
    const double         mu_max = k % 3 == 0 ? 0.3 : 1.0, het = (f == 0 || f == 2) && k % 5 == 0 ? 2.0 : 0.0;
    FcContactProblem     p;
    FcContactSolverStats st, sg;
    PetscReal           *r, *rg;
    FcTestRandomProblem(&rng_state, m, forms[f], mu_max, het, &p);
    r  = calloc(3 * m, sizeof *r);
    rg = calloc(3 * m, sizeof *rg);
    assert_int_equal(FcContactSolverSolve(nt, p, r), 0);
    assert_int_equal(FcContactSolverGetStats(nt, &st), 0);
    assert_int_equal(FcContactSolverSolve(gs, p, rg), 0);
    assert_int_equal(FcContactSolverGetStats(gs, &sg), 0);
    nprob++;
    nconv += st.converged;
    steps += st.iterations;
    maxsteps = PetscMax(maxsteps, st.iterations);
    emax     = PetscMax(emax, st.error);
    if (mu_max < 0.5 && het == 0 && sg.converged) { /* a unique solution (μ small, W well conditioned) */
      dmax = PetscMax(dmax, FcTestRelDist(3 * m, r, rg));
      ncmp++;
    }
    free(r);
    free(rg);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
  }
  printf(
    "FIGURE newton random problems: %d problems (m = 1..24, mu in [0, 1), 4 forms of W), converged %d, max common error %.2e, Newton steps mean %.1f max %d; |r - r_nsgs| / |r_nsgs| max %.1e on the %d problems with a unique solution\n",
    (int)nprob, (int)nconv, (double)emax, (double)steps / nprob, (int)maxsteps, (double)dmax, (int)ncmp);
  assert_int_equal(nconv, nprob);
  assert_true(emax <= 1e-10);
  /* nsgs at 1e-12 and newton at 1e-10 on a unique solution: the r agree to the conditioning of W
   * (≤ 1e3 here) times the errors */
  assert_true(dmax <= 1e-6);
  assert_int_equal(FcContactSolverDestroy(&nt), 0);
  assert_int_equal(FcContactSolverDestroy(&gs), 0);
}

/* A stack of N unit-size boxes (side L), box i resting on box i−1 (box 0 on the ground), four
 * corner contacts per interface with the normal +z. Body DoFs (v, ω) ∈ R⁶; a contact point x on
 * the interface below body i moves with v_i + ω_i × (x − c_i) (body i, above) minus the same for
 * body i−1 (below; the ground does not move). Rows of H: n = e_z, t1 = e_x, t2 = e_y. M⁻¹ is
 * block diagonal (1/m_i, 1/I_i with I = m L²/6 for a cube). q = H v_free, v_free = g h (one
 * backward-Euler step of free fall from rest). Masses alternate 1 and `ratio` kg. */
static FcContactProblem BoxStack(int N, double mu, double h, double ratio, double *weight)
{
  const int        m = 4 * N, n3 = 3 * m, ndof = 6 * N;
  const double     L = 1.0, g = 9.81;
  double          *H = calloc((size_t)n3 * ndof, sizeof *H), *Minv = calloc(ndof, sizeof *Minv), *vfree = calloc(ndof, sizeof *vfree);
  FcContactProblem p;

  *weight = 0;
  for (int i = 0; i < N; i++) {
    const double mass = i % 2 ? ratio : 1.0, Ib = mass * L * L / 6;
    for (int k = 0; k < 3; k++) {
      Minv[6 * i + k]     = 1 / mass;
      Minv[6 * i + 3 + k] = 1 / Ib;
    }
    vfree[6 * i + 2] = -g * h;
    *weight += mass * g;
  }
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 4; c++) {
      const int    a       = 4 * i + c;
      const double x[3]    = {(c & 1 ? 0.5 : -0.5) * L, (c & 2 ? 0.5 : -0.5) * L, i * L}; /* on the interface z = i L */
      const double F[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};                           /* n, t1, t2 */
      for (int side = 0; side < 2; side++) {
        const int    b = side ? i - 1 : i; /* side 0: the body above (+), 1: below (−) */
        const double s = side ? -1.0 : 1.0, cz = (b + 0.5) * L, rx[3] = {x[0], x[1], x[2] - cz};
        if (b < 0) continue; /* the ground */
        for (int row = 0; row < 3; row++) {
          double *Hr = &H[(size_t)(3 * a + row) * ndof + 6 * b];
          /* F·(v + ω × r) = F·v + (r × F)·ω */
          for (int k = 0; k < 3; k++) Hr[k] += s * F[row][k];
          Hr[3] += s * (rx[1] * F[row][2] - rx[2] * F[row][1]);
          Hr[4] += s * (rx[2] * F[row][0] - rx[0] * F[row][2]);
          Hr[5] += s * (rx[0] * F[row][1] - rx[1] * F[row][0]);
        }
      }
    }
  assert_int_equal(FcContactProblemCreate(m, &p), 0);
  for (int i = 0; i < n3; i++) {
    double qi = 0;
    for (int j = 0; j < n3; j++) {
      double w = 0;
      for (int k = 0; k < ndof; k++) w += H[(size_t)i * ndof + k] * Minv[k] * H[(size_t)j * ndof + k];
      p->W[i * n3 + j] = w;
    }
    for (int k = 0; k < ndof; k++) qi += H[(size_t)i * ndof + k] * vfree[k];
    p->q[i] = qi;
  }
  for (int a = 0; a < m; a++) p->mu[a] = mu;
  free(H);
  free(Minv);
  free(vfree);
  return p;
}

/* The stacks Gauss–Seidel stalls on: N = 5, 10, 20 boxes, mass ratio 100 and 10⁴ between
 * neighbours, μ = 0.3 and 1, W dense and block-sparse (24 problems). nsgs gets 10⁴ sweeps (each
 * about one product by W; newton's steps are each one sparse LU of J and a few products by W):
 * the premise, asserted, is that it stays above a common error of 1e-6 on every one; newton
 * reaches 1e-10 on every one, without a fallback round. The interfaces between boxes start at the
 * kink x_N = 0 of the Alart–Curnier function (r = 0, and the boxes fall together: u_N = 0), so the
 * first step is the one with those contacts active (newton.c, head comment); it solves the stack
 * at once where taking them inactive activated one interface per step (2, 5, 10 steps measured
 * before). Equilibrium: the ground's normal impulse is the weight times h, to the error. */
static void test_box_stack(void **state)
{
  const int    sizes[3] = {5, 10, 20};
  const double h = 1e-2, ratios[2] = {100, 1e4}, mus[2] = {0.3, 1.0};
  int          nprob = 0, nstall = 0, nconv = 0, steps_max = 0, fb_max = 0;
  double       gs_min = INFINITY, nt_max = 0, eq_max = 0;
  (void)state;

  for (int t = 0; t < 3; t++)
    for (int kr = 0; kr < 2; kr++)
      for (int km = 0; km < 2; km++)
        for (int sparse = 0; sparse < 2; sparse++) {
          const int            N = sizes[t], m = 4 * N;
          double               weight, rn0     = 0;
          FcContactProblem     pd = BoxStack(N, mus[km], h, ratios[kr], &weight), p;
          FcContactSolver      nt = FcTestMakeSolver("newton", NULL, 1e-10, 100, NULL);
          FcContactSolver      gs = FcTestMakeSolver("nsgs", NULL, 1e-10, 10000, NULL);
          FcContactSolverStats st, sg;
          PetscReal           *r = calloc(3 * m, sizeof *r), *rg = calloc(3 * m, sizeof *rg);
          char                 view[4096];
          const char          *fb;

          if (sparse) assert_int_equal(FcContactProblemConvert(pd, FC_CONTACT_W_SPARSE, &p), 0);
          else p = pd;
          assert_int_equal(FcContactSolverSolve(nt, p, r), 0);
          assert_int_equal(FcContactSolverGetStats(nt, &st), 0);
          assert_int_equal(FcContactSolverSolve(gs, p, rg), 0);
          assert_int_equal(FcContactSolverGetStats(gs, &sg), 0);
          FcTestSolverView(nt, view, sizeof view);
          fb = strstr(view, "fallback rounds ");
          assert_non_null(fb);
          for (int c = 0; c < 4; c++) rn0 += r[3 * c]; /* the ground's four contacts */
          if (t == 1 && kr == 0 && km == 1 && !sparse) {
            printf(
              "FIGURE newton box stack N = %d (%d contacts, W rank %d of %d, masses 1/%g kg, mu %g): newton %s in %d steps, error %.2e, ground impulse / (weight h) - 1 = %.1e; nsgs %s after %d sweeps, error %.2e\n",
              N, m, 6 * N, 3 * m, ratios[kr], mus[km], st.reason_name, (int)st.iterations, (double)st.error, rn0 / (weight * h) - 1, sg.reason_name,
              (int)sg.iterations, (double)sg.error);
            printf("    %s", view);
          }
          nprob++;
          nstall += sg.error > 1e-6;
          nconv += st.converged && st.error <= 1e-10;
          steps_max = PetscMax(steps_max, (int)st.iterations);
          fb_max    = PetscMax(fb_max, atoi(fb + strlen("fallback rounds ")));
          gs_min    = fmin(gs_min, sg.error);
          nt_max    = fmax(nt_max, st.error);
          eq_max    = fmax(eq_max, PetscAbsReal(rn0 / (weight * h) - 1) / (ratios[kr] / 100));
          free(r);
          free(rg);
          assert_int_equal(FcContactSolverDestroy(&nt), 0);
          assert_int_equal(FcContactSolverDestroy(&gs), 0);
          if (sparse) assert_int_equal(FcContactProblemDestroy(&p), 0);
          assert_int_equal(FcContactProblemDestroy(&pd), 0);
        }
  printf(
    "FIGURE newton box stacks (N = 5, 10, 20; mass ratio 100, 1e4; mu 0.3, 1; W dense and sparse): %d problems, nsgs after 10000 sweeps above 1e-6 on %d (smallest error %.1e); newton converged to 1e-10 on %d (largest error %.1e), at most %d steps, %d fallback rounds; |ground impulse / (weight h) - 1| / (mass ratio / 100) at most %.1e\n",
    nprob, nstall, gs_min, nconv, nt_max, steps_max, fb_max, eq_max);
  assert_int_equal(nstall, nprob); /* the premise: Gauss–Seidel stalls on these */
  assert_int_equal(nconv, nprob);
  assert_int_equal(fb_max, 0);
  /* equilibrium of the whole stack over the step: the boxes end it at rest (u_N = 0 on every
   * pressed contact), so the ground's normal impulse is the weight times h. The common error
   * (1e-10, relative to max(‖q‖, ‖r‖, ‖u‖)) is a residual: r's error is that times the
   * conditioning of W on its range, which grows with the mass ratio (W ∝ M⁻¹); 1e-8 per factor
   * 100 of mass ratio (measured 2.0e-10 at ratio 100, 2.0e-8 at 1e4 with N = 10) */
  assert_true(eq_max <= 1e-8);
}

/* A rigid slab (mass 4.68 kg, 0.40 × 0.30 m, inertia of a 0.03 m plate) on four elastic feet at
 * (±0.17, ±0.12) m in the plane of its centre of mass, normal +z: W = J M⁻¹ Jᵀ + W_e, the feet's
 * compliances W_e = s·diag-ish (normal c_a = s (1, 1.5, 2, 2.5) coupled by 0.2 √(c_a c_b),
 * tangential s c_a I₂) with s = 1e-9 s/kg against the rigid part's ~0.5: the split of the load
 * among the feet is decided by W_e alone (four supports, three equilibrium equations). q = J ξ_free
 * with ξ_free = −g h e_z (one backward Euler step from rest): every contact sticks, u = 0 and
 * r = −W⁻¹q (the tangential rows decouple: the feet are in the plane of the centre of mass and
 * the load is vertical, so r_T = 0 and the normal impulses are positive). */
static void test_near_rigid(void **state)
{
  const int            m = 4, n = 12;
  const double         mass = 4.68, g = 9.81, h = 0.2, sc = 1e-9, ca[4] = {1, 1.5, 2, 2.5};
  const double         Ix = mass * (0.30 * 0.30 + 0.03 * 0.03) / 12, Iy = mass * (0.40 * 0.40 + 0.03 * 0.03) / 12, Iz = mass * (0.40 * 0.40 + 0.30 * 0.30) / 12;
  const double         Minv[6]  = {1 / mass, 1 / mass, 1 / mass, 1 / Ix, 1 / Iy, 1 / Iz};
  double               J[12][6] = {{0}}, A[12][13], rd[12], rn = 0, dist = 0, nrm = 0;
  FcContactProblem     p;
  const char *const    rho_inv[] = {"newton_rho", "inverse", NULL};
  FcContactSolver      inv = FcTestMakeSolver("newton", "inv_", 1e-10, 100, rho_inv), dg = FcTestMakeSolver("newton", NULL, 1e-10, 100, NULL);
  FcContactSolverStats si, sd;
  PetscReal            ri[12] = {0}, rg[12] = {0};
  (void)state;

  for (int a = 0; a < m; a++) {
    const double x[3] = {(a == 1 || a == 2) ? 0.17 : -0.17, a >= 2 ? 0.12 : -0.12, 0}, F[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}};
    for (int row = 0; row < 3; row++) { /* F·(v + ω × x) = F·v + (x × F)·ω */
      for (int k = 0; k < 3; k++) J[3 * a + row][k] = F[row][k];
      J[3 * a + row][3] = x[1] * F[row][2] - x[2] * F[row][1];
      J[3 * a + row][4] = x[2] * F[row][0] - x[0] * F[row][2];
      J[3 * a + row][5] = x[0] * F[row][1] - x[1] * F[row][0];
    }
  }
  assert_int_equal(FcContactProblemCreate(m, &p), 0);
  for (int i = 0; i < n; i++) {
    p->q[i] = -g * h * J[i][2];
    for (int j = 0; j < n; j++) {
      double w = 0;
      for (int k = 0; k < 6; k++) w += J[i][k] * Minv[k] * J[j][k];
      if (i % 3 == 0 && j % 3 == 0) w += sc * (i == j ? ca[i / 3] : 0.2 * sqrt(ca[i / 3] * ca[j / 3]));
      else if (i == j) w += sc * ca[i / 3];
      p->W[i * n + j] = w;
    }
  }
  for (int a = 0; a < m; a++) p->mu[a] = 0.5;
  /* the direct solution W rd = −q, Gaussian elimination with partial pivoting */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) A[i][j] = p->W[i * n + j];
    A[i][n] = -p->q[i];
  }
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[i][k]) > fabs(A[piv][k])) piv = i;
    for (int j = 0; j <= n; j++) {
      double t  = A[k][j];
      A[k][j]   = A[piv][j];
      A[piv][j] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = A[i][k] / A[k][k];
      for (int j = k; j <= n; j++) A[i][j] -= f * A[k][j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double v = A[i][n];
    for (int j = i + 1; j < n; j++) v -= A[i][j] * rd[j];
    rd[i] = v / A[i][i];
  }
  assert_int_equal(FcContactSolverSolve(inv, p, ri), 0);
  assert_int_equal(FcContactSolverGetStats(inv, &si), 0);
  assert_int_equal(FcContactSolverSolve(dg, p, rg), 0);
  assert_int_equal(FcContactSolverGetStats(dg, &sd), 0);
  for (int i = 0; i < n; i++) {
    dist += (ri[i] - rd[i]) * (ri[i] - rd[i]);
    nrm += rd[i] * rd[i];
  }
  dist = sqrt(dist / nrm);
  for (int a = 0; a < m; a++) rn += ri[3 * a];
  printf(
    "FIGURE newton near-rigid slab (W_e = 1e-9 of the rigid part): rho inverse %s in %d steps, error %.1e, r_N %.6f %.6f %.6f %.6f (x 1/h), |r - (-W^-1 q)|/|r| %.1e, sum r_N/(m g h) - 1 = %.1e; rho diag %s in %d steps, error %.1e, r_N %.6f %.6f %.6f %.6f\n",
    si.reason_name, (int)si.iterations, (double)si.error, ri[0] / h, ri[3] / h, ri[6] / h, ri[9] / h, dist, rn / (mass * g * h) - 1, sd.reason_name,
    (int)sd.iterations, (double)sd.error, rg[0] / h, rg[3] / h, rg[6] / h, rg[9] / h);
  assert_true(si.converged && si.error <= 1e-10);
  assert_true(rd[0] > 0 && rd[3] > 0 && rd[6] > 0 && rd[9] > 0); /* the premise: every foot pressed */
  /* cond(W) ≈ 0.5/1e-9: a backward-stable direct solve and a converged Newton both sit within
   * cond(W) ε ≈ 1e-7 of the exact r; the common error 1e-10 adds at most tol·cond(W) relative to
   * |q| in the split, ~1e-1 as a bound, measured far below: 1e-6 asserted */
  assert_true(dist <= 1e-6);
  /* momentum of the slab over the step: Σ r_N = m g h up to its rigid velocity at the end, O(s) */
  assert_true(fabs(rn / (mass * g * h) - 1) <= 1e-6);
  assert_int_equal(FcContactSolverDestroy(&inv), 0);
  assert_int_equal(FcContactSolverDestroy(&dg), 0);
  assert_int_equal(FcContactProblemDestroy(&p), 0);

  { /* a rank-deficient W (box stack, 5 boxes: rank 30 of 60): rho inverse falls back and converges */
    double               weight;
    FcContactProblem     ps = BoxStack(5, 0.3, 1e-2, 100, &weight);
    FcContactSolver      s  = FcTestMakeSolver("newton", "inv2_", 1e-10, 100, rho_inv);
    FcContactSolverStats st;
    PetscReal           *r = calloc(60, sizeof *r);
    char                 view[4096];
    assert_int_equal(FcContactSolverSolve(s, ps, r), 0);
    assert_int_equal(FcContactSolverGetStats(s, &st), 0);
    FcTestSolverView(s, view, sizeof view);
    printf("FIGURE newton rho inverse on a 5-box stack (W rank 30 of 60): %s in %d steps, error %.1e\n", st.reason_name, (int)st.iterations, (double)st.error);
    assert_non_null(strstr(view, "fell back to diag (W not positive definite) in 1 of 1 solves"));
    assert_true(st.converged && st.error <= 1e-10);
    free(r);
    assert_int_equal(FcContactSolverDestroy(&s), 0);
    assert_int_equal(FcContactProblemDestroy(&ps), 0);
  }
}

/* A random block pattern of m blocks: a chain visited in a random order (block a couples with its
 * neighbours in the chain), `extra` random long-range couplings, the chain cut into `ncomp` pieces
 * (components); made symmetric, the diagonal added. Values: random in [-1, 1], nonsymmetric, the
 * diagonal made dominant (no pivoting needed, as for J on a positive definite W). Returns block CSR
 * and the dense matrix (row-major, 3m × 3m). */
static void RandomBlockMatrix(uint64_t *rs, int m, int extra, int ncomp, PetscInt **bptr, PetscInt **bcol, double **bval, double **A)
{
  const int n     = 3 * m;
  int      *order = malloc(m * sizeof *order), *adj = calloc((size_t)m * m, sizeof *adj), nb = 0;

  for (int a = 0; a < m; a++) order[a] = a;
  for (int a = m - 1; a > 0; a--) { /* Fisher–Yates */
    const int b = (int)FcTestUniform(rs, 0, a + 1 - 1e-12), t = order[a];
    order[a] = order[b];
    order[b] = t;
  }
  for (int a = 0; a < m; a++) adj[a * m + a] = 1;
  for (int k = 0; k + 1 < m; k++)
    if (!(ncomp > 1 && (k + 1) % ((m + ncomp - 1) / ncomp) == 0)) adj[order[k] * m + order[k + 1]] = adj[order[k + 1] * m + order[k]] = 1;
  for (int e = 0; e < extra; e++) {
    const int a = (int)FcTestUniform(rs, 0, m - 1e-12), b = (int)FcTestUniform(rs, 0, m - 1e-12);
    adj[a * m + b] = adj[b * m + a] = 1;
  }
  for (int k = 0; k < m * m; k++) nb += adj[k];
  *bptr      = malloc((m + 1) * sizeof **bptr);
  *bcol      = malloc(nb * sizeof **bcol);
  *bval      = malloc(9 * (size_t)nb * sizeof **bval);
  *A         = calloc((size_t)n * n, sizeof **A);
  (*bptr)[0] = 0;
  for (int a = 0, k = 0; a < m; a++) {
    for (int b = 0; b < m; b++) {
      if (!adj[a * m + b]) continue;
      (*bcol)[k] = b;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) (*bval)[9 * k + 3 * i + j] = (*A)[(size_t)(3 * a + i) * n + 3 * b + j] = FcTestUniform(rs, -1, 1);
      k++;
    }
    (*bptr)[a + 1] = k;
  }
  for (int i = 0; i < n; i++) { /* diagonal dominance, in both copies */
    double rsum = 0;
    for (int j = 0; j < n; j++) rsum += fabs((*A)[(size_t)i * n + j]);
    (*A)[(size_t)i * n + i] += rsum + 1;
    for (int k = (*bptr)[i / 3]; k < (*bptr)[i / 3 + 1]; k++)
      if ((*bcol)[k] == i / 3) (*bval)[9 * k + 4 * (i % 3)] = (*A)[(size_t)i * n + i];
  }
  free(order);
  free(adj);
}

static void test_envelope(void **state)
{
  uint64_t rs     = 0xe47e10bULL;
  double   resmax = 0;
  int      nsolve = 0;
  (void)state;

  /* 1. random patterns and values: the residual of the solve, relative to |A| |x| (backward error) */
  for (int t = 0; t < 40; t++) {
    const int    m = 1 + (t * 7) % 61, n = 3 * m, extra = t % 3 ? m / 4 : 0, ncomp = 1 + t % 4;
    PetscInt    *bptr, *bcol;
    double      *bval, *A, *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
    FcEnvelopeLU e;
    PetscBool    ok;
    RandomBlockMatrix(&rs, m, extra, ncomp, &bptr, &bcol, &bval, &A);
    FcEnvelopeLUInit(&e);
    CHK(FcEnvelopeLUSetPattern(&e, m, bptr, bcol));
    for (int rep = 0; rep < 2; rep++) { /* twice: the second factorization reuses the arrays */
      double res = 0, ax = 0, xn = 0;
      FcEnvelopeLUZero(&e);
      for (int a = 0; a < m; a++)
        for (int k = bptr[a]; k < bptr[a + 1]; k++) FcEnvelopeLUSetBlock(&e, a, bcol[k], &bval[9 * k]);
      FcEnvelopeLUFactor(&e, 100 * PETSC_MACHINE_EPSILON, &ok);
      assert_true(ok);
      for (int i = 0; i < n; i++) x[i] = b[i] = FcTestUniform(&rs, -1, 1);
      FcEnvelopeLUSolve(&e, x);
      for (int i = 0; i < n; i++) {
        double v = -b[i], av = 0;
        for (int j = 0; j < n; j++) {
          v += A[(size_t)i * n + j] * x[j];
          av += fabs(A[(size_t)i * n + j] * x[j]);
        }
        res = fmax(res, fabs(v));
        ax  = fmax(ax, av);
        xn  = fmax(xn, fabs(x[i]));
      }
      assert_true(xn > 0);
      resmax = fmax(resmax, res / ax);
      nsolve++;
    }
    CHK(FcEnvelopeLUDestroy(&e));
    free(bptr);
    free(bcol);
    free(bval);
    free(A);
    free(b);
    free(x);
  }
  /* a backward-stable elimination's residual is a few ε |A| |x| (no pivoting is needed with a
   * dominant diagonal: the growth factor is at most 2) */
  printf(
    "FIGURE envelope LU: %d solves of random block patterns (m = 1..61, 1-4 components, long-range blocks): max |Ax - b| / (|A| |x|) %.1e\n", nsolve, resmax);
  assert_true(resmax <= 1e-14);

  /* 2. RCM recovers a shuffled chain's band: every block row starts at most one block to the left,
   * and the envelope is that of a block tridiagonal matrix, 3 + 12 (m − 1) entries per triangle,
   * also with the chain in 3 pieces (3 components: 2 blocks fewer) */
  for (int ncomp = 1; ncomp <= 3; ncomp += 2) {
    const int    m = 50;
    PetscInt    *bptr, *bcol;
    double      *bval, *A;
    FcEnvelopeLU e;
    RandomBlockMatrix(&rs, m, 0, ncomp, &bptr, &bcol, &bval, &A);
    FcEnvelopeLUInit(&e);
    CHK(FcEnvelopeLUSetPattern(&e, m, bptr, bcol));
    for (int k = 0; k < m; k++) assert_true(e.first[k] >= k - 1);
    printf("FIGURE envelope LU: a shuffled chain of %d blocks in %d piece(s): envelope %d entries (block tridiagonal: %d)\n", m, ncomp, (int)e.nenv,
      3 * ncomp + 12 * (m - ncomp));
    assert_int_equal((int)e.nenv, 3 * ncomp + 12 * (m - ncomp));
    CHK(FcEnvelopeLUDestroy(&e));
    free(bptr);
    free(bcol);
    free(bval);
    free(A);
  }

  /* 3. a singular matrix (block 1's rows zero): a zero pivot */
  {
    const PetscInt bptr[3] = {0, 2, 4}, bcol[4] = {0, 1, 0, 1};
    const double   I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Z[9] = {0};
    FcEnvelopeLU   e;
    PetscBool      ok;
    FcEnvelopeLUInit(&e);
    CHK(FcEnvelopeLUSetPattern(&e, 2, bptr, bcol));
    FcEnvelopeLUZero(&e);
    FcEnvelopeLUSetBlock(&e, 0, 0, I3);
    FcEnvelopeLUSetBlock(&e, 0, 1, I3);
    FcEnvelopeLUSetBlock(&e, 1, 0, Z);
    FcEnvelopeLUSetBlock(&e, 1, 1, Z);
    FcEnvelopeLUFactor(&e, 100 * PETSC_MACHINE_EPSILON, &ok);
    assert_false(ok);
    CHK(FcEnvelopeLUDestroy(&e));
  }

  /* 4. newton on block-sparse box stacks of 40 and 80 contacts, W of rank 6N: J is singular where
   * every contact sticks. lu auto meets a zero pivot in the envelope LU and goes on with PETSc's LU
   * (its view says so), converging as test_box_stack does (1 step, the weight carried to 1e-8);
   * lu envelope restarts with J + δI (newton.c NEWTON_ENVELOPE_SHIFT) and converges too, its r
   * solving the problem to 1e-10 in the common error: the weight is carried to that error times
   * the conditioning of W on its range (test_box_stack: 1e-8 per factor 100 of mass ratio with
   * PETSc's exact steps; the shifted steps end elsewhere within tol, measured 1.4e-8 and 5.6e-9),
   * bounded by 1e-7. */
  for (int N = 10; N <= 20; N += 10)
    for (int lu = 0; lu < 2; lu++) {
      const char          *opts[] = {"newton_lu", lu ? "envelope" : "auto", NULL};
      double               weight, rn0 = 0;
      FcContactProblem     pd = BoxStack(N, 1.0, 1e-2, 100, &weight), p;
      FcContactSolver      nt = FcTestMakeSolver("newton", "env_", 1e-10, 100, opts);
      FcContactSolverStats st;
      PetscReal           *r = calloc(12 * N, sizeof *r);
      char                 view[4096];
      CHK(FcContactSolverSetFromOptions(nt));
      CHK(FcContactProblemConvert(pd, FC_CONTACT_W_SPARSE, &p));
      CHK(FcContactSolverSolve(nt, p, r));
      CHK(FcContactSolverGetStats(nt, &st));
      FcTestSolverView(nt, view, sizeof view);
      for (int c = 0; c < 4; c++) rn0 += r[3 * c];
      printf("FIGURE envelope LU: newton on a block-sparse stack of %d contacts, lu %s: %s in %d steps, error %.1e, ground impulse / (weight h) - 1 = %.1e\n",
        4 * N, opts[1], st.reason_name, (int)st.iterations, (double)st.error, rn0 / (weight * 1e-2) - 1);
      assert_true(st.converged && st.error <= 1e-10);
      if (!lu) {
        assert_non_null(strstr(view, "the envelope LU 1 (1 of them went on with PETSc's at a zero pivot)"));
        assert_int_equal(st.iterations, 1);
        assert_true(fabs(rn0 / (weight * 1e-2) - 1) <= 1e-8);
      } else {
        assert_non_null(strstr(view, "the envelope LU 1 (0 of them"));
        assert_true(fabs(rn0 / (weight * 1e-2) - 1) <= 1e-7);
      }
      free(r);
      CHK(FcContactSolverDestroy(&nt));
      CHK(FcContactProblemDestroy(&p));
      CHK(FcContactProblemDestroy(&pd));
    }
}

/* The newton view's count of hint steps (all solves): taken, tried. */
static void HintCounts(FcContactSolver s, int *taken, int *tried)
{
  char        view[4096];
  const char *h;
  FcTestSolverView(s, view, sizeof view);
  h      = strstr(view, "hint steps taken ");
  *taken = *tried = 0;
  if (h) assert_int_equal(sscanf(h, "hint steps taken %d of %d", taken, tried), 2);
}

/* A problem with a known solution r* and velocity u*: W random (FcTestRandomDelassus), μ = 0.5;
 * contact a separated (r* = 0, u*_N > 0) with probability 1/4, sliding (u*_N = 0, u*_T ≠ 0, r*_T
 * on the cone's edge against u*_T) with probability pslip, else sticking near the cone's edge
 * (u* = 0, ‖r*_T‖ = 0.9 μ r*_N); q = u* − W r*. */
static void KnownProblem(uint64_t *rs, int m, double pslip, FcContactProblem *prob, double *rstar, double *ustar)
{
  const int n = 3 * m;
  FcTestRandomDelassus(rs, m, FC_TEST_W_AS_COMPUTED, prob);
  for (int a = 0; a < m; a++) {
    const double c = FcTestUniform(rs, 0, 1), th = FcTestUniform(rs, 0, 2 * PETSC_PI), mu = 0.5, rn = FcTestUniform(rs, 0.5, 1.5);
    double      *r = &rstar[3 * a], *u = &ustar[3 * a];
    (*prob)->mu[a] = mu;
    for (int i = 0; i < 3; i++) r[i] = u[i] = 0;
    if (c < 0.25) u[0] = FcTestUniform(rs, 0.1, 1); /* separated */
    else if (c < 0.25 + pslip) { /* sliding along (cos th, sin th) */ const double v = FcTestUniform(rs, 0.1, 1);
      u[1]                                                                           = v * cos(th);
      u[2]                                                                           = v * sin(th);
      r[0]                                                                           = rn;
      r[1]                                                                           = -mu * rn * cos(th);
      r[2]                                                                           = -mu * rn * sin(th);
    } else { /* sticking */
      r[0] = rn;
      r[1] = 0.9 * mu * rn * cos(th);
      r[2] = 0.9 * mu * rn * sin(th);
    }
  }
  CHK(FcContactProblemComputeVelocity(*prob, rstar, (*prob)->q)); /* q = 0 here: W r* */
  for (int i = 0; i < n; i++) (*prob)->q[i] = ustar[i] - (*prob)->q[i];
}

static void test_hint(void **state)
{
  const int       nprob     = 24;
  const double    sc        = 0.5;
  FcContactSolver nt        = FcTestMakeSolver("newton", NULL, 1e-10, 200, NULL);
  int             nplain[2] = {0, 0}, nhint[2] = {0, 0}, njunk = 0, worst[2] = {0, 0}, ntaken = 0, ntried = 0, taken, tried;
  double          dmax[2] = {0, 0}, djunk = 0;
  uint64_t        rs = 0x41e7ULL;
  (void)state;

  for (int fam = 0; fam < 2; fam++) /* 0: stick and separated; 1: a third sliding as well */
    for (int k = 0; k < nprob; k++) {
      const int            m = 4 + k, n = 3 * m;
      FcContactProblem     p;
      FcContactSolverStats st;
      double              *r0 = malloc(n * sizeof *r0), *u0 = malloc(n * sizeof *u0), *r1 = malloc(n * sizeof *r1), *ra = malloc(n * sizeof *ra),
             *rb = malloc(n * sizeof *rb), *rc = malloc(n * sizeof *rc), *junk = malloc(n * sizeof *junk), *wr = malloc(n * sizeof *wr);
      KnownProblem(&rs, m, fam ? 0.35 : 0.0, &p, r0, u0);
      /* the next problem: q' = q + s W r0, solved by r1 = (1 − s) r0 at the same velocity u0 (every
       * contact in the state it had, a sliding one along the same direction) */
      for (int i = 0; i < n; i++) wr[i] = u0[i] - p->q[i];
      for (int i = 0; i < n; i++) {
        p->q[i] += sc * wr[i];
        r1[i] = (1 - sc) * r0[i];
      }
      CHK(FcContactSolverSetWarmStart(nt, PETSC_TRUE));
      memcpy(ra, r0, n * sizeof *ra); /* no hint */
      CHK(FcContactSolverSolve(nt, p, ra));
      CHK(FcContactSolverGetStats(nt, &st));
      assert_true(st.converged);
      nplain[fam] += (int)st.iterations;
      memcpy(rb, r0, n * sizeof *rb); /* the hint */
      CHK(FcContactSolverSetVelocityHint(nt, u0));
      CHK(FcContactSolverSolve(nt, p, rb));
      CHK(FcContactSolverGetStats(nt, &st));
      assert_true(st.converged);
      HintCounts(nt, &taken, &tried);
      assert_true(tried == ntried + 1 && taken == ntaken + 1); /* tried and taken */
      ntaken = taken;
      ntried = tried;
      nhint[fam] += (int)st.iterations;
      worst[fam] = PetscMax(worst[fam], (int)st.iterations);
      dmax[fam]  = fmax(dmax[fam], FcTestRelDist(n, rb, r1));
      /* a junk hint (and contacts without one, NaN) costs steps, never the answer */
      for (int i = 0; i < n; i++) junk[i] = (i % 7 == 3) ? NAN : 1e3 * FcTestUniform(&rs, -1, 1) * FcTestNorm(n, p->q);
      memcpy(rc, r0, n * sizeof *rc);
      CHK(FcContactSolverSetVelocityHint(nt, junk));
      CHK(FcContactSolverSolve(nt, p, rc));
      CHK(FcContactSolverGetStats(nt, &st));
      assert_true(st.converged);
      njunk += (int)st.iterations;
      djunk = fmax(djunk, FcTestRelDist(n, rc, r1));
      HintCounts(nt, &ntaken, &ntried);
      /* the hint is for one solve: the next one, given none, is the plain solve bit for bit; a hint
       * of no contact (all NaN) is no hint step at all */
      memcpy(rc, r0, n * sizeof *rc);
      CHK(FcContactSolverSolve(nt, p, rc));
      assert_true(memcmp(rc, ra, n * sizeof *rc) == 0);
      for (int i = 0; i < n; i++) junk[i] = NAN;
      memcpy(rc, r0, n * sizeof *rc);
      CHK(FcContactSolverSetVelocityHint(nt, junk));
      CHK(FcContactSolverSolve(nt, p, rc));
      assert_true(memcmp(rc, ra, n * sizeof *rc) == 0);
      HintCounts(nt, &taken, &tried);
      assert_int_equal(tried, ntried);
      free(r0);
      free(u0);
      free(r1);
      free(ra);
      free(rb);
      free(rc);
      free(junk);
      free(wr);
      CHK(FcContactProblemDestroy(&p));
    }
  printf(
    "FIGURE newton velocity hint (%d random problems of 4..%d contacts per family, mu 0.5, known solution r0 near the cone's edge; q' = q + %g W r0, solution (1 - %g) r0): stick and separated: Newton steps from r0 %.2f mean, with the hint u0 %.2f (max %d), |r_hint - r1|/|r1| max %.1e; a third sliding too: %.2f, with the hint %.2f (max %d), %.1e; junk hints %.2f, %.1e\n",
    nprob, 3 + nprob, sc, sc, (double)nplain[0] / nprob, (double)nhint[0] / nprob, worst[0], dmax[0], (double)nplain[1] / nprob, (double)nhint[1] / nprob,
    worst[1], dmax[1], (double)njunk / (2 * nprob), djunk);
  /* where every contact sticks or separates, Φ is affine on the hint's pieces: the hint step is the
   * answer, to the rounding of one solve with J (cond ≤ 1e3 here) */
  assert_int_equal(worst[0], 1);
  assert_true(dmax[0] <= 1e-12);
  /* sliding contacts: the slip piece is not affine (the direction x_T/‖x_T‖), its step is not the
   * answer but starts the quadratic phase there */
  assert_true(nhint[0] < nplain[0] && nhint[1] < nplain[1]);
  /* both stop at a common error of 1e-10; r1 is the problem's one solution at this μ and W, to
   * that error times the conditioning (≤ 1e3) */
  assert_true(dmax[1] <= 1e-6 && djunk <= 1e-6);
  CHK(FcContactSolverDestroy(&nt));
}

static void test_options(void **state)
{
  FcContactSolver s = FcTestMakeSolver("newton", "nt_", 1e-10, 100, NULL);
  char            msg[512];
  (void)state;

  FcTestSolverBadOption(s, "-nt_fc_contact_solver_newton_gs_sweeps", "0", msg, sizeof msg);
  assert_non_null(strstr(msg, "-nt_fc_contact_solver_newton_gs_sweeps"));
  FcTestSolverBadOption(s, "-nt_fc_contact_solver_newton_ls_max_it", "-1", msg, sizeof msg);
  assert_non_null(strstr(msg, "-nt_fc_contact_solver_newton_ls_max_it"));
  FcTestSolverBadOption(s, "-nt_fc_contact_solver_newton_reg", "-1", msg, sizeof msg);
  assert_non_null(strstr(msg, "-nt_fc_contact_solver_newton_reg"));
  FcTestSolverBadOption(s, "-nt_fc_contact_solver_newton_reg_max", "nan", msg, sizeof msg);
  assert_non_null(strstr(msg, "-nt_fc_contact_solver_newton_reg_max"));
  FcTestSolverBadOption(s, "-nt_fc_contact_solver_newton_rho", "schur", msg, sizeof msg);
  assert_non_null(strstr(msg, "-nt_fc_contact_solver_newton_rho"));
  FcTestSolverBadOption(s, "-nt_fc_contact_solver_newton_lu", "band", msg, sizeof msg);
  assert_non_null(strstr(msg, "-nt_fc_contact_solver_newton_lu"));
  assert_int_equal(FcContactSolverDestroy(&s), 0);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_random),
    cmocka_unit_test(test_box_stack),
    cmocka_unit_test(test_options),
    cmocka_unit_test(test_near_rigid),
    cmocka_unit_test(test_envelope),
    cmocka_unit_test(test_hint),
  };
  // clang-format on
  return FcTestMain(argc, argv, tests, FcContactSolverRegisterAll, NULL);
}
