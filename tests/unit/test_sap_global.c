/* Unit test of SAP on FCLIB's global form (src/contact/sap_global.c, doc/sap.md "Global form"):
 * M v = H r + f, u = Hᵀ v + w, solved as Castro, Permenter & Han 2022's primal problem in v.
 *  1. random global problems (sparse SPD M, sparse H, m = 1..12 contacts, some with 3m > n, i.e.
 *     W singular): with the local type's R, global SAP returns the local type's r on W = Hᵀ M⁻¹ H,
 *     q = Hᵀ M⁻¹ f + w (both computed here with a dense Cholesky) to 1e-8, in the same number of
 *     Newton iterations (the iterates are the same: sap_global.c §7); -fc_sap_global_delassus
 *     exact computes that R itself; FcSAPGlobalComputeLocal gives the same W, q;
 *  2. the default (Jacobi) regularization: monotone cost, convergence by its own test, r solves
 *     the regularized problem with its own R to the bound of the stopping test; how far its R
 *     and r are from the exact-Delassus ones (figures);
 *  3. M not symmetric (a skew part added): one warning line, ½(M + Mᵀ) used (the same r as the
 *     symmetric M); M singular: one warning line, M + ε mean|diag M| I used; M indefinite, or
 *     singular with -fc_sap_global_reg 0: one input-error line; bad option values; statuses
 *     (max_it, a contact with H_a = 0) and the warm start;
 *  4. an FCLIB global file written with libfclib (fclib_write_global): FcFCLIBRead (src/io)
 *     reads it back (compressed columns, rows and triplets), FcGlobalProblemComputeLocal's local
 *     reformulation equals FcSAPGlobalComputeLocal's, the sap solver has a global form and nsgs
 *     none (FcContactSolverHasGlobal), and
 *     `fcsim fclib solve FILE --solver sap` (FcFCLIBSolve) solves it in the global form (one line
 *     with own_residual and error), forced local with -fc_fclib_form local gives the same r when
 *     both use the exact Delassus scale; a file with a non-symmetric M is reported so by
 *     FcGlobalProblemComputeLocal (a status, no local form) and solved by sap with a warning.
 * Key figures are printed on lines starting with "FIGURE ". */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include <fclib.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/contact/solvers/sap/sap.h"
#include "../../src/contact/solver.h"
#include "../../src/io/fclib_io.h"
#include "../../src/fclib/fclib_cmd.h"

static uint64_t rng_state = 0x6c0ba15a9e11d0ffULL;
static double   Uniform(double a, double b) { return FcTestUniform(&rng_state, a, b); }

#define NPROB 16 /* random problems per test */

/* ---- a random global problem, dense copies kept for the reference computations ---- */
typedef struct {
  int     n, m;
  double *M, *H, *f, *w, *mu; /* M n×n, H n×3m (row-major) */
} Dense;

static void DenseFree(Dense *d)
{
  free(d->M);
  free(d->H);
  free(d->f);
  free(d->w);
  free(d->mu);
}

/* M: random sparse symmetric, strictly diagonally dominant (so SPD), then scaled S M S with
 * S = diag(s_i), s_i ∈ [0.3, 3] (masses of different sizes); H: each contact touches 2..5 random
 * DoFs with a dense 3×k block in [−1, 1]; f, w ∈ [−1, 1]; μ ∈ [0, mu_max]. */
static void RandomDense(int n, int m, double mu_max, Dense *d)
{
  double *s = malloc(sizeof(double) * n);
  d->n      = n;
  d->m      = m;
  d->M      = calloc((size_t)n * n, sizeof(double));
  d->H      = calloc((size_t)n * 3 * m, sizeof(double));
  d->f      = malloc(sizeof(double) * n);
  d->w      = malloc(sizeof(double) * 3 * m);
  d->mu     = malloc(sizeof(double) * m);
  for (int i = 0; i < n; i++)
    for (int t = 0; t < 2; t++) {
      int          j = (int)Uniform(0, n);
      const double v = Uniform(-1, 1);
      if (j == i) continue;
      d->M[i * n + j] += v;
      d->M[j * n + i] += v;
    }
  for (int i = 0; i < n; i++) {
    double r = 0;
    for (int j = 0; j < n; j++)
      if (j != i) r += fabs(d->M[i * n + j]);
    d->M[i * n + i] = r + Uniform(0.1, 1);
    s[i]            = Uniform(0.3, 3);
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) d->M[i * n + j] *= s[i] * s[j];
  for (int a = 0; a < m; a++) {
    const int k = 2 + (int)Uniform(0, 4);
    for (int t = 0; t < k; t++) {
      const int dof = (int)Uniform(0, n);
      for (int i = 0; i < 3; i++) d->H[dof * 3 * m + 3 * a + i] = Uniform(-1, 1);
    }
  }
  for (int i = 0; i < n; i++) d->f[i] = Uniform(-1, 1);
  for (int i = 0; i < 3 * m; i++) d->w[i] = Uniform(-1, 1);
  for (int a = 0; a < m; a++) d->mu[a] = Uniform(0, mu_max);
  free(s);
}

/* A dense row-major matrix as SeqAIJ, its nonzeros only (plus the diagonal when square). */
static Mat DenseToAIJ(int nr, int nc, const double *A)
{
  Mat       B;
  PetscInt *nnz = calloc((size_t)nr, sizeof(PetscInt));
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++) nnz[i] += A[i * nc + j] != 0 || (i == j && nr == nc);
  assert_int_equal(MatCreateSeqAIJ(PETSC_COMM_SELF, nr, nc, 0, nnz, &B), 0);
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++)
      if (A[i * nc + j] != 0 || (i == j && nr == nc)) assert_int_equal(MatSetValue(B, i, j, A[i * nc + j], INSERT_VALUES), 0);
  assert_int_equal(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY), 0);
  assert_int_equal(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY), 0);
  free(nnz);
  return B;
}

static FcGlobalProblem MakeGlobal(const Dense *d)
{
  FcGlobalProblem gp;
  PetscScalar    *a;
  assert_int_equal(FcGlobalProblemCreate(d->n, d->m, &gp), 0);
  gp->M = DenseToAIJ(d->n, d->n, d->M);
  gp->H = DenseToAIJ(d->n, 3 * d->m, d->H);
  assert_int_equal(VecGetArray(gp->f, &a), 0);
  for (int i = 0; i < d->n; i++) a[i] = d->f[i];
  assert_int_equal(VecRestoreArray(gp->f, &a), 0);
  assert_int_equal(VecGetArray(gp->w, &a), 0);
  for (int i = 0; i < 3 * d->m; i++) a[i] = d->w[i];
  assert_int_equal(VecRestoreArray(gp->w, &a), 0);
  for (int k = 0; k < d->m; k++) gp->mu[k] = d->mu[k];
  return gp;
}

/* The local reformulation W = Hᵀ M⁻¹ H (exactly symmetrized), q = Hᵀ M⁻¹ f + w, by a dense
 * Cholesky of M (independent of PETSc's factorizations). */
static FcContactProblem DenseLocal(const Dense *d)
{
  const int        n = d->n, n3 = 3 * d->m;
  double          *C = malloc(sizeof(double) * n * n), *X = malloc(sizeof(double) * n * (n3 + 1));
  FcContactProblem p;

  memcpy(C, d->M, sizeof(double) * n * n);
  assert_int_equal(FcTestCholesky(n, C), 0); /* C = lower Cholesky factor */
  for (int c = 0; c <= n3; c++) {            /* column c of X = M⁻¹ [H f] */
    double *x = X + (size_t)c * n;
    for (int i = 0; i < n; i++) x[i] = c < n3 ? d->H[i * n3 + c] : d->f[i];
    FcTestCholeskySolve(n, C, x);
  }
  assert_int_equal(FcContactProblemCreate(d->m, &p), 0);
  for (int i = 0; i < n3; i++) {
    for (int j = 0; j <= i; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += d->H[k * n3 + i] * X[(size_t)j * n + k];
      p->W[i * n3 + j] = p->W[j * n3 + i] = s;
    }
    p->q[i] = d->w[i];
    for (int k = 0; k < n; k++) p->q[i] += d->H[k * n3 + i] * X[(size_t)n3 * n + k];
  }
  for (int a = 0; a < d->m; a++) p->mu[a] = d->mu[a];
  free(C);
  free(X);
  return p;
}

/* ‖x − y‖ / ‖y‖ (or ‖x − y‖ when y = 0) */
static double Dist(int n, const double *x, const double *y) { return FcTestNorm(n, y) > 0 ? FcTestDist(n, x, y) / FcTestNorm(n, y) : FcTestDist(n, x, y); }

/* Natural map of the regularized convex problem F ∋ r ⊥ (W + R) r + q ∈ F* (absolute). */
static double RegularizedResidual(FcContactProblem p, const double *R, const double *r)
{
  const int n = 3 * (int)p->m;
  double   *u = malloc(sizeof(double) * n), e2 = 0;
  assert_int_equal(FcContactProblemComputeVelocity(p, r, u), 0);
  for (int i = 0; i < n; i++) u[i] += R[i] * r[i];
  for (int a = 0; a < (int)p->m; a++) {
    double x[3], pr[3];
    for (int i = 0; i < 3; i++) x[i] = r[3 * a + i] - u[3 * a + i];
    FcConeProject(p->mu[a], x, pr);
    for (int i = 0; i < 3; i++) e2 += (r[3 * a + i] - pr[i]) * (r[3 * a + i] - pr[i]);
  }
  free(u);
  return sqrt(e2);
}

/* Options through the database, cleared after use: pairs {name, value, ..., NULL}. */
static void SetOptions(const char *const opts[])
{
  for (int k = 0; opts && opts[k]; k += 2) assert_int_equal(PetscOptionsSetValue(NULL, opts[k], opts[k + 1]), 0);
}
static void ClearOptions(const char *const opts[])
{
  for (int k = 0; opts && opts[k]; k += 2) assert_int_equal(PetscOptionsClearValue(NULL, opts[k]), 0);
}

/* Global SAP on gp: options opts (NULL-terminated pairs), R (NULL: computed). */
static void SolveGlobal(FcGlobalProblem gp, const char *const opts[], const double *R, double *r, FcSAPGlobal *out)
{
  FcSAPGlobal s;
  SetOptions(opts);
  assert_int_equal(FcSAPGlobalCreate(&s), 0);
  assert_int_equal(FcSAPGlobalSetFromOptions(s), 0);
  ClearOptions(opts);
  if (R) assert_int_equal(FcSAPGlobalSetRegularization(s, gp->m, R), 0);
  assert_int_equal(FcSAPGlobalSetUp(s, gp), 0);
  for (int i = 0; i < 3 * gp->m; i++) r[i] = 0;
  assert_int_equal(FcSAPGlobalSolve(s, r, NULL), 0);
  *out = s;
}

/* Problem k of a family: m = 1..12; every fourth has n < 3m (W singular), the others n > 3m. */
static void Sizes(int k, int *n, int *m)
{
  *m = 1 + (5 * k) % 12;
  *n = (k % 4 == 3) ? 3 * *m - 1 - (int)Uniform(0, *m) : 3 * *m + 2 + (int)Uniform(0, 20);
  if (*n < 2) *n = 2;
}

/* ---- 1. global SAP = local SAP with the same R ---- */
static void test_same_as_local(void **state)
{
  const char *const lopts[] = {"-l_fc_contact_solver_sap_rtol", "1e-10", NULL};
  const char *const gopts[] = {"-fc_contact_solver_sap_rtol", "1e-10", NULL};
  const char *const xopts[] = {"-fc_contact_solver_sap_rtol", "1e-10", "-fc_sap_global_delassus", "exact", NULL};
  double            dmax = 0, dxmax = 0, rxmax = 0, wlmax = 0, tl = 0, tg = 0;
  int               same_it = 0, nsing = 0;
  FcContactSolver   ls;
  (void)state;

  SetOptions(lopts);
  assert_int_equal(FcContactSolverCreate(&ls), 0);
  assert_int_equal(FcContactSolverSetType(ls, "sap"), 0);
  assert_int_equal(FcContactSolverSetOptionsPrefix(ls, "l_"), 0);
  assert_int_equal(FcContactSolverSetWarmStart(ls, PETSC_FALSE), 0);
  assert_int_equal(FcContactSolverSetAcceptRegularized(ls, PETSC_INFINITY), 0); /* its own test is what is compared */
  assert_int_equal(FcContactSolverSetFromOptions(ls), 0);
  ClearOptions(lopts);
  for (int k = 0; k < NPROB; k++) {
    int                  n, m;
    Dense                d;
    FcGlobalProblem      gp;
    FcContactProblem     p, pg;
    FcSAPGlobal          gs, xs;
    FcSAPInfo            gi, xi;
    FcContactSolverStats st;
    FcSAPInfo            li;
    double              *rl, *rg, *rx;

    Sizes(k, &n, &m);
    nsing += n < 3 * m;
    RandomDense(n, m, 1.0, &d);
    gp = MakeGlobal(&d);
    p  = DenseLocal(&d);
    rl = calloc(3 * m, sizeof(double));
    rg = calloc(3 * m, sizeof(double));
    rx = calloc(3 * m, sizeof(double));
    assert_int_equal(FcContactSolverSolve(ls, p, rl), 0);
    assert_int_equal(FcContactSolverGetStats(ls, &st), 0);
    assert_int_equal(FcContactSolverSAPGetInfo(ls, &li), 0);
    assert_true(st.converged);
    /* the local type's R given to the global form */
    SolveGlobal(gp, gopts, li.R, rg, &gs);
    assert_int_equal(FcSAPGlobalGetInfo(gs, &gi), 0);
    if (!gi.converged) printf("problem %d (n %d, m %d): %s (%s)\n", k, n, m, gi.reason_name, gi.failure ? gi.failure : "");
    assert_true(gi.converged);
    assert_int_equal(gi.reason, FC_CONTACT_SOLVER_CONVERGED_REGULARIZED);
    assert_true(gi.user_R);
    /* same iterates (sap_global.c §7): the same r, and the same iteration count up to one
     * (round-off may decide the last stopping test differently) */
    dmax = fmax(dmax, Dist(3 * m, rg, rl));
    assert_true(Dist(3 * m, rg, rl) <= 1e-8);
    assert_true(abs((int)gi.newton_iterations - (int)st.iterations) <= 1);
    same_it += gi.newton_iterations == st.iterations;
    tl += st.time;
    tg += gi.time_setup + gi.time_solve;
    /* the exact Delassus scale: the local type's R computed by the global form itself */
    SolveGlobal(gp, xopts, NULL, rx, &xs);
    assert_int_equal(FcSAPGlobalGetInfo(xs, &xi), 0);
    assert_true(xi.converged);
    for (int i = 0; i < 3 * m; i++) {
      rxmax = fmax(rxmax, fabs(xi.R[i] - li.R[i]) / li.R[i]);
      assert_true(fabs(xi.R[i] - li.R[i]) <= 1e-10 * li.R[i]); /* W_aa by MUMPS vs the dense Cholesky */
    }
    dxmax = fmax(dxmax, Dist(3 * m, rx, rl));
    assert_true(Dist(3 * m, rx, rl) <= 1e-8);
    /* the global form's own local reformulation */
    assert_int_equal(FcSAPGlobalComputeLocal(xs, &pg), 0);
    {
      double dw = 0, wn = 0;
      for (int i = 0; i < 9 * m * m; i++) {
        dw = fmax(dw, fabs(pg->W[i] - p->W[i]));
        wn = fmax(wn, fabs(p->W[i]));
      }
      wlmax = fmax(wlmax, fmax(dw / wn, Dist(3 * m, pg->q, p->q)));
      assert_true(dw <= 1e-10 * wn && Dist(3 * m, pg->q, p->q) <= 1e-10);
    }
    assert_int_equal(FcContactProblemDestroy(&pg), 0);
    assert_int_equal(FcSAPGlobalDestroy(&gs), 0);
    assert_int_equal(FcSAPGlobalDestroy(&xs), 0);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
    DenseFree(&d);
    free(rl);
    free(rg);
    free(rx);
  }
  assert_int_equal(FcContactSolverDestroy(&ls), 0);
  printf(
    "FIGURE sap global = local (%d problems, m = 1..12, %d with 3m > n, eps_r 1e-10): same R: max |r_g - r_l|/|r_l| %.1e, same iteration count %d/%d; -fc_sap_global_delassus exact: max |R_g - R_l|/R_l %.1e, |r_g - r_l|/|r_l| %.1e; W, q of ComputeLocal vs dense %.1e; time local %.1f ms, global %.1f ms (all, with setup)\n",
    NPROB, nsing, dmax, same_it, NPROB, rxmax, dxmax, wlmax, 1e3 * tl, 1e3 * tg);
}

/* ---- 2. the default (Jacobi) regularization: monotone cost, own convergence ---- */
static void test_default(void **state)
{
  const char *const xopts[] = {"-fc_sap_global_delassus", "exact", NULL};
  double            it_sum = 0, own_max = 0, bound_max = 0, wr_min = 1e300, wr_max = 0, dr_sum = 0, dr_max = 0;
  int               it_max = 0, nmono = 0, nconv = 0;
  (void)state;

  for (int k = 0; k < NPROB; k++) {
    int              n, m, mono = 1;
    Dense            d;
    FcGlobalProblem  gp;
    FcContactProblem p;
    FcSAPGlobal      gs, xs;
    FcSAPInfo        gi, xi;
    double          *rg, *rx, Wf = 0, res, bound;

    Sizes(k, &n, &m);
    RandomDense(n, m, 1.0, &d);
    gp = MakeGlobal(&d);
    p  = DenseLocal(&d);
    rg = calloc(3 * m, sizeof(double));
    rx = calloc(3 * m, sizeof(double));
    SolveGlobal(gp, NULL, NULL, rg, &gs); /* defaults: β 1, σ 1e-3, ε_r 1e-6, Jacobi w_a */
    assert_int_equal(FcSAPGlobalGetInfo(gs, &gi), 0);
    assert_true(gi.converged);
    assert_false(gi.user_R);
    assert_int_equal(gi.delassus, FC_SAP_GLOBAL_DELASSUS_DIAG);
    nconv++;
    /* its own test: ‖∇ℓ‖ ≤ ε_a + ε_r scale at the last iterate, own_residual = their ratio */
    assert_int_equal(gi.nhistory, gi.newton_iterations + 1);
    assert_true(gi.gradient[gi.newton_iterations] <= 1e-14 + 1e-6 * gi.scale[gi.newton_iterations]);
    assert_false(gi.cost_criterion);
    own_max = fmax(own_max, gi.own_residual);
    /* monotone cost: the exact line search minimizes ℓ along a descent direction; slop for
     * round-off 1000 ε max(1, |ℓ|) (the local test's) */
    for (int j = 0; j + 1 < gi.nhistory; j++)
      if (gi.cost[j + 1] > gi.cost[j] + 1000 * DBL_EPSILON * fmax(1.0, fabs(gi.cost[j]))) mono = 0;
    assert_true(mono);
    nmono += mono;
    /* r solves the regularized problem with its own R: natural map ≤ ‖W‖_F^{1/2}(ε_a + ε_r scale)
     * (test_sap.c's bound; the stopping test is the same quantity, sap_global.c §6) */
    for (int i = 0; i < 9 * m * m; i++) Wf += p->W[i] * p->W[i];
    res   = RegularizedResidual(p, gi.R, rg);
    bound = sqrt(sqrt(Wf)) * (1e-14 + 1e-6 * gi.scale[gi.newton_iterations]);
    assert_true(res <= bound);
    bound_max = fmax(bound_max, res / bound);
    for (int a = 0; a < m; a++) assert_true(rg[3 * a] >= 0 && hypot(rg[3 * a + 1], rg[3 * a + 2]) <= d.mu[a] * rg[3 * a] * (1 + 1e-12) + 1e-300);
    /* against the exact Delassus scale: how different R and r are (figures) */
    SolveGlobal(gp, xopts, NULL, rx, &xs);
    assert_int_equal(FcSAPGlobalGetInfo(xs, &xi), 0);
    assert_true(xi.converged);
    for (int a = 0; a < m; a++) {
      wr_min = fmin(wr_min, gi.R[3 * a] / xi.R[3 * a]);
      wr_max = fmax(wr_max, gi.R[3 * a] / xi.R[3 * a]);
    }
    dr_sum += Dist(3 * m, rg, rx);
    dr_max = fmax(dr_max, Dist(3 * m, rg, rx));
    it_sum += gi.newton_iterations;
    it_max = gi.newton_iterations > it_max ? (int)gi.newton_iterations : it_max;
    assert_int_equal(FcSAPGlobalDestroy(&gs), 0);
    assert_int_equal(FcSAPGlobalDestroy(&xs), 0);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
    DenseFree(&d);
    free(rg);
    free(rx);
  }
  printf(
    "FIGURE sap global defaults (%d problems, Jacobi w_a): converged by its own test %d/%d, monotone cost %d/%d, Newton iterations mean %.1f max %d, own residual max %.1e, regularized natural map / its bound max %.2f\n",
    NPROB, nconv, NPROB, nmono, NPROB, it_sum / NPROB, it_max, own_max, bound_max);
  printf("FIGURE sap global Jacobi vs exact Delassus scale: w_diag/w_exact in [%.2f, %.2f]; |r_diag - r_exact|/|r_exact| mean %.1e max %.1e\n", wr_min, wr_max,
    dr_sum / NPROB, dr_max);
}

/* ---- 3. M not symmetric, singular, indefinite; options ---- */
static void test_bad_mass(void **state)
{
  Dense           d;
  FcGlobalProblem gp, gq;
  FcSAPGlobal     s, t;
  FcSAPInfo       info, tinfo;
  FcTestCapture   c;
  char            out[8192];
  double         *r0, *r1, asym;
  const int       n = 20, m = 5;
  PetscErrorCode  ierr;
  (void)state;

  RandomDense(n, m, 0.8, &d);
  r0 = calloc(3 * m, sizeof(double));
  r1 = calloc(3 * m, sizeof(double));
  gp = MakeGlobal(&d);
  FcTestCaptureStart(&c);
  SolveGlobal(gp, NULL, NULL, r0, &s);
  FcTestCaptureStop(&c, out, sizeof out);
  assert_int_equal(FcTestCountLines(out), 0); /* a symmetric SPD M: no warning */
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_true(info.converged && !info.symmetrized && !info.regularized);
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);

  /* a skew part K = −Kᵀ: ½(M + Mᵀ) is M exactly, so r must not change */
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (d.M[i * n + j] != 0) {
        const double k = 0.3 * d.M[i * n + j];
        d.M[i * n + j] += k;
        d.M[j * n + i] -= k;
      }
  gq = MakeGlobal(&d);
  FcTestCaptureStart(&c);
  SolveGlobal(gq, NULL, NULL, r1, &s);
  FcTestCaptureStop(&c, out, sizeof out);
  assert_int_equal(FcTestCountLines(out), 1);
  assert_non_null(strstr(out, "/fclib_global/M: warning: not symmetric"));
  assert_non_null(strstr(out, "(M + M^T)/2"));
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_true(info.converged && info.symmetrized && !info.regularized);
  asym = info.asymmetry;
  assert_true(Dist(3 * m, r1, r0) <= 1e-12); /* the same matrix up to the rounding of ½(a + b) */
  printf("FIGURE sap global non-symmetric M (max |M - M^T|/max|M| = %.2f): one warning line, converged (%s, %d it), |r - r_sym|/|r_sym| = %.1e\n", asym,
    info.reason_name, (int)info.newton_iterations, Dist(3 * m, r1, r0));
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  assert_int_equal(FcGlobalProblemDestroy(&gq), 0);
  assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
  DenseFree(&d);

  /* M singular: DoF 0 has no mass and no coupling (a zero row and column), a contact on it */
  RandomDense(n, m, 0.8, &d);
  for (int j = 0; j < n; j++) d.M[j] = d.M[j * n] = 0;
  for (int i = 0; i < 3; i++) d.H[0 * 3 * m + i] = 1.0; /* contact 0 acts on DoF 0 */
  gp = MakeGlobal(&d);
  FcTestCaptureStart(&c);
  SolveGlobal(gp, NULL, NULL, r0, &s);
  FcTestCaptureStop(&c, out, sizeof out);
  assert_int_equal(FcTestCountLines(out), 1);
  assert_non_null(strstr(out, "/fclib_global/M: warning: singular"));
  assert_non_null(strstr(out, "-fc_sap_global_reg"));
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_true(info.converged && info.regularized && !info.symmetrized);
  {
    /* the same problem with the shift written into M: the same r (same M̃; R from its diagonal) */
    double mean = 0;
    for (int i = 0; i < n; i++) mean += fabs(d.M[i * n + i]);
    mean /= n;
    assert_true(fabs(info.shift - 1e-10 * mean) <= 1e-15 * mean);
    for (int i = 0; i < n; i++) d.M[i * n + i] += info.shift;
    gq = MakeGlobal(&d);
    FcTestCaptureStart(&c);
    SolveGlobal(gq, NULL, NULL, r1, &t);
    FcTestCaptureStop(&c, out, sizeof out);
    assert_int_equal(FcTestCountLines(out), 0);
    assert_int_equal(FcSAPGlobalGetInfo(t, &tinfo), 0);
    assert_true(tinfo.converged && !tinfo.regularized);
    printf(
      "FIGURE sap global singular M (zero row/column, eps 1e-10): one warning line, converged (%d it, own residual %.1e), shift %.2e; |r - r(M + shift I)|/|r| = %.1e\n",
      (int)info.newton_iterations, info.own_residual, info.shift, Dist(3 * m, r0, r1));
    assert_true(Dist(3 * m, r0, r1) <= 1e-8);
    assert_int_equal(FcSAPGlobalDestroy(&t), 0);
    assert_int_equal(FcGlobalProblemDestroy(&gq), 0);
  }
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  /* -fc_sap_global_reg 0: no regularization, an input error */
  {
    const char *const opts[] = {"-fc_sap_global_reg", "0", NULL};
    SetOptions(opts);
    assert_int_equal(FcSAPGlobalCreate(&s), 0);
    assert_int_equal(FcSAPGlobalSetFromOptions(s), 0);
    ClearOptions(opts);
    FcTestCaptureStart(&c);
    ierr = FcSAPGlobalSetUp(s, gp);
    FcTestCaptureStop(&c, out, sizeof out);
    FcTestAssertInputError(ierr, out, "global problem: /fclib_global/M: not positive definite");
    assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  }
  assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
  DenseFree(&d);

  /* M indefinite: one negative diagonal entry; ε mean|diag| cannot fix it → one input-error line */
  RandomDense(n, m, 0.8, &d);
  d.M[3 * n + 3] = -d.M[3 * n + 3];
  gp             = MakeGlobal(&d);
  assert_int_equal(FcSAPGlobalCreate(&s), 0);
  FcTestCaptureStart(&c);
  ierr = FcSAPGlobalSetUp(s, gp);
  FcTestCaptureStop(&c, out, sizeof out);
  FcTestAssertInputError(ierr, out, "/fclib_global/M: not positive definite");
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
  DenseFree(&d);

  /* bad option values: one line naming the option */
  {
    const char *bad[][2] = {
      {"-fc_sap_global_reg", "-1"}, {"-fc_sap_global_reg", "inf"}, {"-fc_contact_solver_sap_beta", "0"}, {"-fc_contact_solver_sap_rtol", "nan"}};
    for (int k = 0; k < 4; k++) {
      assert_int_equal(PetscOptionsSetValue(NULL, bad[k][0], bad[k][1]), 0);
      assert_int_equal(FcSAPGlobalCreate(&s), 0);
      FcTestCaptureStart(&c);
      ierr = FcSAPGlobalSetFromOptions(s);
      FcTestCaptureStop(&c, out, sizeof out);
      assert_int_equal(PetscOptionsClearValue(NULL, bad[k][0]), 0);
      FcTestAssertInputError(ierr, out, bad[k][0]);
      assert_int_equal(FcSAPGlobalDestroy(&s), 0);
    }
  }
  free(r0);
  free(r1);
}

/* ---- statuses: non-convergence is a status, never an error ---- */
static void test_statuses(void **state)
{
  Dense           d;
  FcGlobalProblem gp;
  FcSAPGlobal     s;
  FcSAPInfo       info;
  double         *r;
  const int       n = 15, m = 3;
  (void)state;

  RandomDense(n, m, 0.5, &d);
  r = calloc(3 * m, sizeof(double));
  /* max_it 1: DIVERGED_MAX_IT after one Newton step, r (γ of the last iterate) in the cone */
  gp = MakeGlobal(&d);
  assert_int_equal(FcSAPGlobalCreate(&s), 0);
  assert_int_equal(FcSAPGlobalSetMaxIt(s, 1), 0);
  assert_int_equal(FcSAPGlobalSetUp(s, gp), 0);
  assert_int_equal(FcSAPGlobalSolve(s, r, NULL), 0);
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_int_equal(info.reason, FC_CONTACT_SOLVER_DIVERGED_MAX_IT);
  assert_false(info.converged);
  assert_int_equal(info.newton_iterations, 1);
  for (int a = 0; a < m; a++) assert_true(r[3 * a] >= 0 && hypot(r[3 * a + 1], r[3 * a + 2]) <= d.mu[a] * r[3 * a] * (1 + 1e-12) + 1e-300);
  /* warm start from the converged r: v = v* + M⁻¹Hr, at most one iteration */
  assert_int_equal(FcSAPGlobalSetMaxIt(s, 1000), 0);
  assert_int_equal(FcSAPGlobalSolve(s, r, NULL), 0);
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_true(info.converged);
  assert_int_equal(FcSAPGlobalSolve(s, r, NULL), 0);
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_true(info.converged && info.newton_iterations <= 1);
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
  /* a contact with H_a = 0: w_a = 0, no regularization: DIVERGED_BREAKDOWN, r = 0 */
  for (int i = 0; i < n; i++)
    for (int c = 0; c < 3; c++) d.H[i * 3 * m + 3 + c] = 0;
  gp = MakeGlobal(&d);
  assert_int_equal(FcSAPGlobalCreate(&s), 0);
  assert_int_equal(FcSAPGlobalSetUp(s, gp), 0);
  for (int i = 0; i < 3 * m; i++) r[i] = 1;
  assert_int_equal(FcSAPGlobalSolve(s, r, NULL), 0);
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_int_equal(info.reason, FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN);
  assert_non_null(info.failure);
  assert_true(FcTestNorm(3 * m, r) == 0);
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
  DenseFree(&d);
  free(r);
}

/* ---- 4. FCLIB global files ---- */

/* dense row-major → fclib CSC (exact zeros dropped) */
static void ToCSC(int nr, int nc, const double *A, struct fclib_matrix *B)
{
  int nnz = 0, k = 0;
  for (int i = 0; i < nr * nc; i++) nnz += A[i] != 0;
  B->p = malloc(sizeof(int) * (nc + 1));
  B->i = malloc(sizeof(int) * nnz);
  B->x = malloc(sizeof(double) * nnz);
  for (int j = 0; j < nc; j++) {
    B->p[j] = k;
    for (int i = 0; i < nr; i++)
      if (A[i * nc + j] != 0) {
        B->i[k]   = i;
        B->x[k++] = A[i * nc + j];
      }
  }
  B->p[nc] = k;
  B->nzmax = nnz;
  B->m     = nr;
  B->n     = nc;
  B->nz    = -1;
  B->info  = NULL;
}

/* dense row-major → fclib compressed rows (nz = −2) or triplets (nz = number of entries) */
static void ToCSROrTriplet(int nr, int nc, const double *A, PetscBool triplet, struct fclib_matrix *B)
{
  int nnz = 0, k = 0;
  for (int i = 0; i < nr * nc; i++) nnz += A[i] != 0;
  B->p = malloc(sizeof(int) * (triplet ? nnz : nr + 1));
  B->i = malloc(sizeof(int) * nnz);
  B->x = malloc(sizeof(double) * nnz);
  for (int i = 0; i < nr; i++) {
    if (!triplet) B->p[i] = k;
    for (int j = 0; j < nc; j++)
      if (A[i * nc + j] != 0) {
        if (triplet) B->p[k] = i;
        B->i[k]   = j;
        B->x[k++] = A[i * nc + j];
      }
  }
  if (!triplet) B->p[nr] = k;
  B->nzmax = nnz;
  B->m     = nr;
  B->n     = nc;
  B->nz    = triplet ? nnz : -2;
  B->info  = NULL;
}

/* format 0: M and H compressed columns; 1: M triplets, H compressed rows */
static void WriteGlobal(const char *path, const Dense *d, int format)
{
  struct fclib_matrix M, H;
  struct fclib_global G;
  struct fclib_info   info = {"test_sap_global", "random global problem", "M v = H r + f, u = H^T v + w"};
  unlink(path);
  if (format) {
    ToCSROrTriplet(d->n, d->n, d->M, PETSC_TRUE, &M);
    ToCSROrTriplet(d->n, 3 * d->m, d->H, PETSC_FALSE, &H);
  } else {
    ToCSC(d->n, d->n, d->M, &M);
    ToCSC(d->n, 3 * d->m, d->H, &H);
  }
  G.M        = &M;
  G.H        = &H;
  G.G        = NULL;
  G.mu       = d->mu;
  G.f        = d->f;
  G.b        = NULL;
  G.w        = d->w;
  G.spacedim = 3;
  G.info     = &info;
  assert_int_equal(fclib_write_global(&G, path), 1);
  free(M.p);
  free(M.i);
  free(M.x);
  free(H.p);
  free(H.i);
  free(H.x);
}

/* `fcsim fclib solve FILE --solver T [-o OUT]`: *ierr, its stdout in out, its stderr in err. */
static void RunSolve(
  const char *file, const char *solver, const char *sol, PetscErrorCode *ierr, PetscBool *conv, char *out, size_t olen, char *err, size_t elen)
{
  FcFCLIBSolveOptions o = {.file = file, .solver = solver, .tol = PETSC_DEFAULT, .max_it = PETSC_DEFAULT, .out = sol};
  FcTestCapture       c, e;
  /* sap's own convergence is what these solves test: its answer is accepted whatever its common
   * error (the judgement against tol is tested in tests/integration/test_solver_honesty.py) */
  if (!strcmp(solver, "sap")) assert_int_equal(PetscOptionsSetValue(NULL, "-fc_contact_solver_accept_regularized", "1e300"), 0);
  FcTestCaptureFd(&c, STDOUT_FILENO); /* FcFCLIBSolve prints its result line with printf */
  FcTestCaptureStart(&e);
  *ierr = FcFCLIBSolve(&o, conv);
  FcTestCaptureStop(&e, err, elen);
  FcTestCaptureStop(&c, out, olen);
  if (!strcmp(solver, "sap")) assert_int_equal(PetscOptionsClearValue(NULL, "-fc_contact_solver_accept_regularized"), 0);
}

/* A file as `fcsim fclib solve --solver sap` reads it: the global problem (NULL for a local
 * file) and the local reformulation (NULL when M is not symmetric positive definite). */
static void LoadFile(const char *path, FcGlobalProblem *gp, FcContactProblem *p, FcGlobalMass *mass)
{
  assert_int_equal(FcFCLIBRead(path, p, gp), 0);
  mass->status = FC_GLOBAL_MASS_SPD;
  if (*gp) {
    assert_null(*p);
    assert_int_equal(FcGlobalProblemComputeLocal(*gp, p, mass), 0);
  }
}

static void test_fclib_file(void **state)
{
  char             path[] = "/tmp/fcsim_test_sapg_XXXXXX", bad[64], sol[64], sol2[64];
  const int        n = 40, m = 8;
  Dense            d;
  FcGlobalProblem  gp;
  FcContactProblem p, pg;
  FcSAPGlobal      s;
  FcSAPInfo        info;
  FcGlobalMass     mass;
  double          *r, *rl, *rg;
  int              fd;
  (void)state;

  fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  snprintf(bad, sizeof bad, "%s_ns.hdf5", path);
  snprintf(sol, sizeof sol, "%s_sol_g.hdf5", path);
  snprintf(sol2, sizeof sol2, "%s_sol_l.hdf5", path);
  RandomDense(n, m, 0.6, &d);
  WriteGlobal(path, &d, 0);

  /* read back: the global problem and fclib_io's local reformulation; ComputeLocal agrees */
  LoadFile(path, &gp, &p, &mass);
  assert_non_null(gp);
  assert_non_null(p);
  assert_int_equal(mass.status, FC_GLOBAL_MASS_SPD);
  assert_int_equal(gp->n, n);
  assert_int_equal(gp->m, m);
  assert_string_equal(gp->source, path);
  assert_int_equal(FcSAPGlobalCreate(&s), 0);
  assert_int_equal(FcSAPGlobalSetUp(s, gp), 0);
  assert_int_equal(FcSAPGlobalComputeLocal(s, &pg), 0);
  {
    double dw = 0, wn = 0;
    for (int i = 0; i < 9 * m * m; i++) {
      dw = fmax(dw, fabs(pg->W[i] - p->W[i]));
      wn = fmax(wn, fabs(p->W[i]));
    }
    assert_true(dw <= 1e-12 * wn);
    assert_true(Dist(3 * m, pg->q, p->q) <= 1e-12);
  }
  r = calloc(3 * m, sizeof(double));
  assert_int_equal(FcSAPGlobalSolve(s, r, NULL), 0);
  assert_int_equal(FcSAPGlobalGetInfo(s, &info), 0);
  assert_true(info.converged);
  assert_int_equal(FcSAPGlobalDestroy(&s), 0);
  assert_int_equal(FcContactProblemDestroy(&pg), 0);
  assert_int_equal(FcGlobalProblemDestroy(&gp), 0);

  /* M as triplets, H as compressed rows: the same problem read back */
  {
    char             tpath[64];
    FcGlobalProblem  g2;
    FcContactProblem p2;
    FcSAPGlobal      s2;
    double          *r2 = calloc(3 * m, sizeof(double));
    snprintf(tpath, sizeof tpath, "%s_triplet.hdf5", path);
    WriteGlobal(tpath, &d, 1);
    LoadFile(tpath, &g2, &p2, &mass);
    assert_non_null(g2);
    assert_int_equal(FcSAPGlobalCreate(&s2), 0);
    assert_int_equal(FcSAPGlobalSetUp(s2, g2), 0);
    assert_int_equal(FcSAPGlobalSolve(s2, r2, NULL), 0);
    assert_true(Dist(3 * m, r2, r) <= 1e-12); /* the same M, H: the same r */
    assert_true(Dist(3 * m, p2->q, p->q) <= 1e-12);
    assert_int_equal(FcSAPGlobalDestroy(&s2), 0);
    assert_int_equal(FcGlobalProblemDestroy(&g2), 0);
    assert_int_equal(FcContactProblemDestroy(&p2), 0);
    free(r2);
    unlink(tpath);
  }

  /* a local file: gp NULL, p the problem */
  {
    char lpath[64];
    snprintf(lpath, sizeof lpath, "%s_local.hdf5", path);
    assert_int_equal(FcFCLIBWriteLocal(lpath, p, NULL), 0);
    LoadFile(lpath, &gp, &pg, &mass);
    assert_null(gp);
    assert_non_null(pg);
    assert_int_equal(pg->m, m);
    assert_int_equal(FcContactProblemDestroy(&pg), 0);
    unlink(lpath);
  }

  /* fclib solve --solver sap: the global form, one line with own_residual and error; forced
   * local (-fc_fclib_form local) with the exact Delassus scale: the same r */
  {
    PetscBool         conv;
    PetscErrorCode    ierr;
    char              o1[4096], o2[4096], err[4096];
    const char *const x[] = {"-fc_sap_global_delassus", "exact", "-fc_contact_solver_sap_rtol", "1e-10", NULL};
    SetOptions(x);
    RunSolve(path, "sap", sol, &ierr, &conv, o1, sizeof o1, err, sizeof err);
    assert_int_equal(ierr, 0);
    assert_true(conv);
    assert_int_equal(FcTestCountLines(err), 0); /* SPD M: no warning */
    assert_int_equal(FcTestCountLines(o1), 1);
    assert_non_null(strstr(o1, "own_residual"));
    assert_non_null(strstr(o1, " error "));
    assert_non_null(strstr(o1, "CONVERGED_REGULARIZED (global form: n 40"));
    printf("FIGURE sap global fclib solve: %s", o1);
    assert_int_equal(PetscOptionsSetValue(NULL, "-fc_fclib_form", "local"), 0);
    RunSolve(path, "sap", sol2, &ierr, &conv, o2, sizeof o2, err, sizeof err);
    assert_int_equal(PetscOptionsClearValue(NULL, "-fc_fclib_form"), 0);
    ClearOptions(x);
    assert_int_equal(ierr, 0);
    assert_true(conv);
    assert_null(strstr(o2, "global form"));
    assert_non_null(strstr(o2, "own_residual"));
    rg = calloc(3 * m, sizeof(double));
    rl = calloc(3 * m, sizeof(double));
    assert_int_equal(FcFCLIBReadSolution(sol, m, rg, NULL), 0);
    assert_int_equal(FcFCLIBReadSolution(sol2, m, rl, NULL), 0);
    printf("FIGURE sap global fclib solve, global vs local form (exact Delassus scale, eps_r 1e-10): |r_g - r_l|/|r_l| = %.1e\n", Dist(3 * m, rg, rl));
    assert_true(Dist(3 * m, rg, rl) <= 1e-8);
    free(rg);
    free(rl);
    unlink(sol);
    unlink(sol2);
  }

  /* a file with an M symmetric only to round-off (1e-7 of max|M|, LMGC90's level): every solver
   * accepts it, with one warning line; the reformulation is M as stated (LU, W not symmetrized),
   * and sap's global form, which solves with (M + Mᵀ)/2, is judged on it */
  {
    PetscBool        conv;
    PetscErrorCode   ierr;
    char             o[4096], err[4096];
    double          *Ms = malloc(sizeof(double) * n * n), mmax = 0, err_sap, err_file;
    FcGlobalProblem  gb;
    FcContactProblem pb;
    for (int i = 0; i < n * n; i++) {
      Ms[i] = d.M[i];
      mmax  = fmax(mmax, fabs(d.M[i]));
    }
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        if (d.M[i * n + j] != 0) {
          d.M[i * n + j] += 1e-7 * mmax;
          d.M[j * n + i] -= 1e-7 * mmax;
        }
    WriteGlobal(bad, &d, 0);
    LoadFile(bad, &gb, &pb, &mass);
    assert_non_null(pb);
    assert_int_equal(mass.status, FC_GLOBAL_MASS_SPD);
    assert_true(mass.asym > 1e-7 && mass.asym < 3e-7);
    assert_false(FcContactProblemIsSymmetric(pb)); /* the problem as stated, not symmetrized */
    RunSolve(bad, "nsgs", NULL, &ierr, &conv, o, sizeof o, err, sizeof err);
    assert_int_equal(ierr, 0);
    assert_true(conv);
    assert_int_equal(FcTestCountLines(err), 1);
    assert_non_null(strstr(err, "/fclib_global/M: warning: symmetric only to"));
    RunSolve(bad, "sap", sol, &ierr, &conv, o, sizeof o, err, sizeof err);
    assert_int_equal(ierr, 0);
    assert_int_equal(FcTestCountLines(err), 1);
    assert_non_null(strstr(err, "/fclib_global/M: warning: not symmetric"));
    rg = calloc(3 * m, sizeof(double));
    assert_int_equal(FcFCLIBReadSolution(sol, m, rg, NULL), 0);
    assert_int_equal(FcContactProblemComputeError(pb, rg, &err_file), 0);
    assert_non_null(strstr(o, " error "));
    err_sap = atof(strstr(o, " error ") + 7);
    printf("FIGURE sap global, M symmetric to %.1e: printed error %.6e, common error of r on the file's problem (LU reformulation) %.6e\n", (double)mass.asym,
      err_sap, err_file);
    assert_true(fabs(err_sap - err_file) <= 1e-6 * err_file); /* the printed error is the file's problem's */
    free(rg);
    unlink(sol);
    assert_int_equal(FcGlobalProblemDestroy(&gb), 0);
    assert_int_equal(FcContactProblemDestroy(&pb), 0);
    for (int i = 0; i < n * n; i++) d.M[i] = Ms[i];
    free(Ms);
  }
  /* a file with a genuinely non-symmetric M (20 % of its entries): refused for every solver */
  {
    PetscBool      conv;
    PetscErrorCode ierr;
    char           o[4096], err[4096];
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        if (d.M[i * n + j] != 0) {
          d.M[i * n + j] *= 1.2;
          d.M[j * n + i] *= 0.8;
        }
    WriteGlobal(bad, &d, 0);
    {
      FcGlobalProblem  gb;
      FcContactProblem pb;
      LoadFile(bad, &gb, &pb, &mass);
      assert_non_null(gb);
      assert_null(pb);
      assert_int_equal(mass.status, FC_GLOBAL_MASS_NOT_SYMMETRIC);
      assert_int_equal(FcGlobalProblemDestroy(&gb), 0);
    }
    RunSolve(bad, "nsgs", NULL, &ierr, &conv, o, sizeof o, err, sizeof err);
    FcTestAssertInputError(ierr, err, "/fclib_global/M: not symmetric");
    RunSolve(bad, "sap", NULL, &ierr, &conv, o, sizeof o, err, sizeof err);
    FcTestAssertInputError(ierr, err, "/fclib_global/M: not symmetric");
    printf("FIGURE sap global fclib solve, non-symmetric M: %s", err);
    unlink(bad);
  }
  /* which types have a global form: asked of the type, not of its name */
  {
    FcContactSolver cs;
    PetscBool       has;
    assert_int_equal(FcContactSolverCreate(&cs), 0);
    assert_int_equal(FcContactSolverSetType(cs, "sap"), 0);
    assert_int_equal(FcContactSolverHasGlobal(cs, &has), 0);
    assert_true(has);
    assert_int_equal(FcContactSolverSetType(cs, "nsgs"), 0);
    assert_int_equal(FcContactSolverHasGlobal(cs, &has), 0);
    assert_false(has);
    assert_int_equal(FcContactSolverDestroy(&cs), 0);
  }
  /* -fc_fclib_form global with another solver, or a bad value: one input-error line */
  {
    PetscBool      conv;
    PetscErrorCode ierr;
    char           o[4096], err[4096];
    assert_int_equal(PetscOptionsSetValue(NULL, "-fc_fclib_form", "global"), 0);
    RunSolve(path, "nsgs", NULL, &ierr, &conv, o, sizeof o, err, sizeof err);
    FcTestAssertInputError(ierr, err, "only the sap solver has a global form");
    assert_int_equal(PetscOptionsSetValue(NULL, "-fc_fclib_form", "sideways"), 0);
    RunSolve(path, "sap", NULL, &ierr, &conv, o, sizeof o, err, sizeof err);
    FcTestAssertInputError(ierr, err, "expected local or global");
    assert_int_equal(PetscOptionsClearValue(NULL, "-fc_fclib_form"), 0);
  }
  free(r);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  DenseFree(&d);
  unlink(path);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_same_as_local),
    cmocka_unit_test(test_default),
    cmocka_unit_test(test_bad_mass),
    cmocka_unit_test(test_statuses),
    cmocka_unit_test(test_fclib_file),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, FcContactSolverRegisterAll, NULL);
}
