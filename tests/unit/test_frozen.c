/* Unit test of the frozen problem (src/contact/solver.h FcContactSolverFreeze, the nsgs frozen
 * path in solvers/nsgs.c; doc/contact.md "Frozen problem"), the haptic loop's ticks: one W, q
 * shifted between solves, each solve warm-started from the last and capped at a few sweeps.
 *  1. a sequence of shifted solves, frozen against the same solves unfrozen, dense and
 *     block-sparse W: the frozen solver's reported error is the common error of its r (recomputed
 *     here from scratch) to a measured drift bound, its verdict (converged or not) is the exact
 *     one, and its r agrees with the unfrozen solver's to rounding;
 *  2. what invalidates the carried u: an r that is not the last solve's, a solve of another
 *     problem in between, a new freeze after W changed, the end of the freeze;
 *  3. no allocation in a frozen solve after the first (a counting PetscMalloc).
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

#include "../../src/contact/solver.h"

static FcContactSolver Make(double tol, PetscInt max_it)
{
  FcContactSolver s = FcTestMakeSolver("nsgs", NULL, tol, max_it, NULL);
  CHK(FcContactSolverSetWarmStart(s, PETSC_TRUE));
  return s;
}

static double MaxAbsDiff(int n, const double *a, const double *b, double *scale)
{
  double d = 0;
  *scale   = 0;
  for (int i = 0; i < n; i++) {
    d      = fmax(d, fabs(a[i] - b[i]));
    *scale = fmax(*scale, fmax(fabs(a[i]), fabs(b[i])));
  }
  return d;
}

/* ---- 1. frozen against unfrozen over a sequence of shifted solves ----
 * m = 40 contacts, μ ∈ [0, 0.5), W exactly symmetric (the Delassus operator is), q moved by a
 * random walk of steps 1e-3 of its size (a tool moving between ticks), budgets 1, 10 and 50
 * sweeps, 300 solves each, tol 1e-10. Bounds:
 * - the reported error against the common error recomputed from r: the carried u drifts by
 *   rounding, at most 64 updates of O(eps·‖W‖‖r‖) each before it is formed again, and the common
 *   error is Lipschitz in u with constant (1 + μ)/scale: measured ≤ 1e-16, asserted 1e-12;
 * - r against the unfrozen solves: the same iteration from a u that differs by rounding; budget-
 *   capped Gauss–Seidel is a contraction here, so the rounding does not grow: measured ≤ 2e-15
 *   relative, asserted 1e-9;
 * - the verdict is exact: converged ⇔ recomputed error ≤ tol, for every solve. */
static void Sequence(FcTestWForm form, PetscBool sparse, PetscInt budget, uint64_t seed)
{
  uint64_t         rng = seed;
  const int        m = 40, n = 3 * m, nsolves = 300;
  FcContactProblem p0, pa, pb;
  FcContactSolver  sa = Make(1e-10, budget), sb = Make(1e-10, budget);
  double          *ra = calloc(n, sizeof(double)), *rb = calloc(n, sizeof(double)), *q0 = malloc(sizeof(double) * n);
  double           maxerr = 0, maxr = 0, err, scale;
  int              nconv = 0;

  FcTestRandomProblem(&rng, m, form, 0.5, 0, &p0);
  CHK(FcContactProblemConvert(p0, sparse ? FC_CONTACT_W_SPARSE : FC_CONTACT_W_DENSE, &pa));
  CHK(FcContactProblemConvert(p0, sparse ? FC_CONTACT_W_SPARSE : FC_CONTACT_W_DENSE, &pb));
  assert_true(FcContactProblemIsSymmetric(pa));
  memcpy(q0, pa->q, sizeof(double) * n);
  CHK(FcContactSolverFreeze(sa, pa));
  for (int k = 0; k < nsolves; k++) {
    FcContactSolverStats sta, stb;
    for (int i = 0; i < n; i++) pa->q[i] = pb->q[i] = pa->q[i] + 1e-3 * FcTestUniform(&rng, -1, 1);
    CHK(FcContactSolverSolve(sa, pa, ra));
    CHK(FcContactSolverSolve(sb, pb, rb));
    CHK(FcContactSolverGetStats(sa, &sta));
    CHK(FcContactSolverGetStats(sb, &stb));
    CHK(FcContactProblemComputeError(pa, ra, &err));
    maxerr = fmax(maxerr, fabs(sta.error - err));
    assert_true(sta.converged == (err <= 1e-10));
    assert_true(sta.converged == stb.converged);
    nconv += sta.converged;
    maxr = fmax(maxr, MaxAbsDiff(n, ra, rb, &scale) / fmax(scale, 1e-300));
  }
  printf("FIGURE frozen %s W, budget %d: %d solves (%d converged), |reported - recomputed error| max %.2e, r vs unfrozen max %.2e relative\n",
    sparse ? "sparse" : "dense", (int)budget, nsolves, nconv, maxerr, maxr);
  assert_true(maxerr <= 1e-12);
  assert_true(maxr <= 1e-9);
  CHK(FcContactSolverFreeze(sa, NULL));
  CHK(FcContactSolverDestroy(&sa));
  CHK(FcContactSolverDestroy(&sb));
  CHK(FcContactProblemDestroy(&p0));
  CHK(FcContactProblemDestroy(&pa));
  CHK(FcContactProblemDestroy(&pb));
  free(ra);
  free(rb);
  free(q0);
}

static void test_sequence(void **state)
{
  (void)state;
  for (int sp = 0; sp < 2; sp++) {
    Sequence(FC_TEST_W_LOWER, (PetscBool)sp, 1, 11);
    Sequence(FC_TEST_W_LOWER, (PetscBool)sp, 10, 12);
    Sequence(FC_TEST_W_LOWER, (PetscBool)sp, 50, 13);
  }
}

/* ---- 2. what invalidates the carried u ----
 * Each case would give a wrong u if the carried one were used; the result must be the unfrozen
 * solver's, to rounding (1e-9 relative as above), with the verdict exact. */
static void Compare(FcContactSolver sa, FcContactProblem pa, double *ra, FcContactSolver sb, FcContactProblem pb, double *rb)
{
  FcContactSolverStats sta;
  double               err, scale, d;
  const int            n = 3 * pa->m;

  CHK(FcContactSolverSolve(sa, pa, ra));
  CHK(FcContactSolverSolve(sb, pb, rb));
  CHK(FcContactSolverGetStats(sa, &sta));
  CHK(FcContactProblemComputeError(pa, ra, &err));
  d = MaxAbsDiff(n, ra, rb, &scale);
  assert_true(d <= 1e-9 * scale);
  assert_true(fabs(sta.error - err) <= 1e-12);
  assert_true(sta.converged == (err <= 1e-10));
}

static void test_invalidate(void **state)
{
  uint64_t         rng = 21;
  const int        m = 12, n = 3 * m;
  FcContactProblem pa, pb, other;
  FcContactSolver  sa = Make(1e-10, 2), sb = Make(1e-10, 2);
  double          *ra = calloc(n, sizeof(double)), *rb = calloc(n, sizeof(double)), *ro = calloc(3 * 5, sizeof(double));
  char             buf[4096];

  (void)state;
  FcTestRandomProblem(&rng, m, FC_TEST_W_LOWER, 0.3, 0, &pa);
  CHK(FcContactProblemConvert(pa, FC_CONTACT_W_DENSE, &pb));
  FcTestRandomProblem(&rng, 5, FC_TEST_W_LOWER, 0.3, 0, &other);
  CHK(FcContactSolverFreeze(sa, pa));
  Compare(sa, pa, ra, sb, pb, rb);
  Compare(sa, pa, ra, sb, pb, rb); /* carried */
  /* an r that is not the last solve's */
  for (int i = 0; i < n; i++) ra[i] = rb[i] = 0.5 * ra[i];
  Compare(sa, pa, ra, sb, pb, rb);
  /* another problem solved in between (the normal path reuses the work arrays) */
  CHK(FcContactSolverSolve(sa, other, ro));
  for (int i = 0; i < n; i++) pa->q[i] = pb->q[i] = pa->q[i] + 1e-2;
  Compare(sa, pa, ra, sb, pb, rb);
  /* W changed, frozen again: the set-up is redone */
  for (int i = 0; i < n * n; i++) pa->W[i] = pb->W[i] = 2 * pa->W[i];
  CHK(FcContactSolverFreeze(sa, pa));
  Compare(sa, pa, ra, sb, pb, rb);
  Compare(sa, pa, ra, sb, pb, rb);
  /* View reports the frozen solves */
  FcTestSolverView(sa, buf, sizeof buf);
  assert_non_null(strstr(buf, "frozen problem: 2 solves since the freeze (1 formed u"));
  /* the end of the freeze: the normal path */
  CHK(FcContactSolverFreeze(sa, NULL));
  Compare(sa, pa, ra, sb, pb, rb);
  CHK(FcContactSolverDestroy(&sa));
  CHK(FcContactSolverDestroy(&sb));
  CHK(FcContactProblemDestroy(&pa));
  CHK(FcContactProblemDestroy(&pb));
  CHK(FcContactProblemDestroy(&other));
  free(ra);
  free(rb);
  free(ro);
}

/* ---- 3. no allocation per frozen solve ---- */
static long           Nalloc;
static PetscErrorCode CountMalloc(size_t sz, PetscBool clear, int line, const char fn[], const char file[], void **res)
{
  (void)line;
  (void)fn;
  (void)file;
  Nalloc++;
  *res = clear ? calloc(1, sz ? sz : 1) : malloc(sz ? sz : 1);
  return *res ? 0 : PETSC_ERR_MEM;
}
static PetscErrorCode CountFree(void *ptr, int line, const char fn[], const char file[])
{
  (void)line;
  (void)fn;
  (void)file;
  free(ptr);
  return 0;
}

static void test_no_allocation(void **state)
{
  uint64_t         rng = 31;
  const int        m = 50, n = 3 * m;
  FcContactProblem p;
  FcContactSolver  s = Make(1e-10, 3);
  double          *r = calloc(n, sizeof(double));
  long             before;

  (void)state;
  FcTestRandomProblem(&rng, m, FC_TEST_W_LOWER, 0.3, 0, &p);
  CHK(FcContactSolverFreeze(s, p));
  CHK(FcContactSolverSolve(s, p, r)); /* the first solve allocates the work */
  CHK(PetscMallocSet(CountMalloc, CountFree, NULL));
  before = Nalloc;
  for (int k = 0; k < 20; k++) {
    for (int i = 0; i < n; i++) p->q[i] += 1e-3;
    CHK(FcContactSolverSolve(s, p, r));
  }
  CHK(PetscMallocClear());
  printf("FIGURE frozen: %ld allocations in 20 frozen solves after the first\n", Nalloc - before);
  assert_int_equal(Nalloc - before, 0);
  CHK(FcContactSolverDestroy(&s));
  CHK(FcContactProblemDestroy(&p));
  free(r);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_sequence),
    cmocka_unit_test(test_invalidate),
    cmocka_unit_test(test_no_allocation),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, FcContactSolverRegisterAll, NULL);
}
