/* fcsim bench — the fixed cost of a small contact solve (issue 12: "a solve of a problem with 1–10
 * contacts costs under 10 µs beyond its sweeps").
 *
 * On random problems of m contacts (W = A Aᵀ + m·I/10 symmetric positive definite, q with
 * negative normal parts so that every contact is pressed, μ uniform in [0.1, 1]), the median time
 * per call of
 *
 *   sweep       FcContactSolverSolve from r = 0 with tol 0, max_it 1 and max_it K on one object:
 *               one sweep = (t_K − t_1)/(K − 1) (m = 1 is solved exactly by its first sweep and
 *               stops there: no figure)
 *   fixed       FcContactSolverSolve warm-started at a solution (common error 1e-13 < tol 1e-8):
 *               the type tests before its first sweep and returns, so this is everything a solve
 *               costs beyond its sweeps: the object's checks, the guess, the type's set-up (W_aa⁻¹),
 *               the error evaluations before the first sweep and the object's final judgement;
 *     reused      one solver object for all solves (a stepper, a haptic loop)
 *     life        Create, SetType, SetTolerances, SetWarmStart, Solve, Destroy per solve
 *     life+opts   the same with FcContactSolverSetFromOptions (what `fclib solve` and a stepper
 *                 do once per object)
 * Times are medians over batches (-batches, each -reps calls timed together by
 * clock_gettime(CLOCK_MONOTONIC) and divided), so that the clock's resolution does not enter.
 *
 *   make build/bench/solve_overhead
 *   ./build/bench/solve_overhead [-type nsgs] [-m 1,2,5,10] [-sweeps 101] [-reps 200] [-batches 51]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "../src/contact/solver.h"
#include "../src/core/mpienv.h"

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;

static double Uniform(double a, double b)
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return a + (b - a) * (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double Now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int CmpReal(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double Median(int n, double *v)
{
  qsort(v, (size_t)n, sizeof *v, CmpReal);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static PetscErrorCode RandomProblem(PetscInt m, FcContactProblem *pp)
{
  FcContactProblem p;
  const PetscInt   n = 3 * m;
  PetscReal       *A;

  PetscFunctionBegin;
  PetscCall(FcContactProblemCreate(m, &p));
  PetscCall(PetscMalloc1((size_t)n * n, &A));
  for (PetscInt i = 0; i < n * n; i++) A[i] = Uniform(-1, 1);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j <= i; j++) {
      PetscReal s = i == j ? 0.1 * m : 0;
      for (PetscInt k = 0; k < n; k++) s += A[i * n + k] * A[j * n + k];
      p->W[i * n + j] = p->W[j * n + i] = s;
    }
  for (PetscInt a = 0; a < m; a++) {
    p->q[3 * a]     = Uniform(-1, -0.1);
    p->q[3 * a + 1] = Uniform(-1, 1);
    p->q[3 * a + 2] = Uniform(-1, 1);
    p->mu[a]        = Uniform(0.1, 1);
  }
  PetscCall(PetscFree(A));
  *pp = p;
  PetscFunctionReturn(0);
}

typedef enum { MODE_REUSE, MODE_LIFE, MODE_LIFE_OPTS } Mode;

/* Median time per solve [s] of `mode` with (tol, max_it); r0: the warm start (NULL: cold). *it:
 * the iterations of the last solve. */
static PetscErrorCode Time_Private(
  const char *type, FcContactProblem p, Mode mode, PetscReal tol, PetscInt max_it, const PetscReal *r0, int reps, int batches, double *tmed, PetscInt *it)
{
  FcContactSolver s = NULL;
  PetscReal      *r;
  double         *tb;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(3 * p->m, &r, batches, &tb));
  PetscCall(PetscArrayzero(r, 3 * p->m));
  if (mode == MODE_REUSE) {
    PetscCall(FcContactSolverCreate(&s));
    PetscCall(FcContactSolverSetType(s, type));
    PetscCall(FcContactSolverSetTolerances(s, tol, max_it));
    PetscCall(FcContactSolverSetWarmStart(s, r0 ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(FcContactSolverSolve(s, p, r)); /* first-touch allocations outside the timing */
  }
  for (int b = 0; b < batches; b++) {
    const double t0 = Now();
    for (int k = 0; k < reps; k++) {
      if (r0) PetscCall(PetscArraycpy(r, r0, 3 * p->m));
      if (mode != MODE_REUSE) {
        PetscCall(FcContactSolverCreate(&s));
        PetscCall(FcContactSolverSetType(s, type));
        PetscCall(FcContactSolverSetTolerances(s, tol, max_it));
        PetscCall(FcContactSolverSetWarmStart(s, r0 ? PETSC_TRUE : PETSC_FALSE));
        if (mode == MODE_LIFE_OPTS) PetscCall(FcContactSolverSetFromOptions(s));
      }
      PetscCall(FcContactSolverSolve(s, p, r));
      if (mode != MODE_REUSE) {
        FcContactSolverStats st;
        PetscCall(FcContactSolverGetStats(s, &st));
        *it = st.iterations;
        PetscCall(FcContactSolverDestroy(&s));
      }
    }
    tb[b] = (Now() - t0) / reps;
  }
  if (mode == MODE_REUSE) {
    FcContactSolverStats st;
    PetscCall(FcContactSolverGetStats(s, &st));
    *it = st.iterations;
    PetscCall(FcContactSolverDestroy(&s));
  }
  *tmed = Median(batches, tb);
  PetscCall(PetscFree2(r, tb));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char     type[64]  = "nsgs";
  PetscInt mlist[16] = {1, 2, 5, 10}, nm = 16, sweeps = 101, reps = 200, batches = 51;
  double   worst = 0;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, "fcsim bench: fixed cost of a small contact solve"));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof type, NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-m", mlist, &nm, NULL));
  if (!nm) nm = 4;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-sweeps", &sweeps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-batches", &batches, NULL));
  PetscCheck(sweeps >= 2 && reps >= 1 && batches >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-sweeps >= 2, -reps >= 1, -batches >= 1");
  PetscCall(FcContactSolverRegisterAll());
  printf(
    "| type | contacts | one sweep [µs] | fixed, reused object [µs] | fixed, create..destroy [µs] | fixed, with SetFromOptions [µs] |\n|---|---|---|---|---|---|\n");
  for (PetscInt i = 0; i < nm; i++) {
    FcContactProblem     p;
    FcContactSolver      s;
    FcContactSolverStats st;
    PetscReal           *sol;
    double               t1, tk, tf, tl, to;
    PetscInt             it1, itk, itf, itl, ito;
    char                 sweep[32] = "—";

    PetscCall(RandomProblem(mlist[i], &p));
    /* a solution to warm-start the fixed-cost runs from */
    PetscCall(PetscCalloc1(3 * p->m, &sol));
    PetscCall(FcContactSolverCreate(&s));
    PetscCall(FcContactSolverSetType(s, type));
    PetscCall(FcContactSolverSetTolerances(s, 1e-13, 100000));
    PetscCall(FcContactSolverSolve(s, p, sol));
    PetscCall(FcContactSolverGetStats(s, &st));
    PetscCheck(st.converged, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s did not solve the random problem of %d contacts", type, (int)mlist[i]);
    PetscCall(FcContactSolverDestroy(&s));

    PetscCall(Time_Private(type, p, MODE_REUSE, 0.0, 1, NULL, reps, batches, &t1, &it1));
    PetscCall(Time_Private(type, p, MODE_REUSE, 0.0, sweeps, NULL, PetscMax(1, reps / 10), batches, &tk, &itk));
    if (it1 == 1 && itk == sweeps) snprintf(sweep, sizeof sweep, "%.3f", 1e6 * (tk - t1) / (double)(sweeps - 1));
    PetscCall(Time_Private(type, p, MODE_REUSE, 1e-8, 1, sol, reps, batches, &tf, &itf));
    PetscCall(Time_Private(type, p, MODE_LIFE, 1e-8, 1, sol, reps, batches, &tl, &itl));
    PetscCall(Time_Private(type, p, MODE_LIFE_OPTS, 1e-8, 1, sol, reps, batches, &to, &ito));
    PetscCheck(
      itf == 0 && itl == 0 && ito == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "warm-started at a solution, %s swept (%d %d %d)", type, (int)itf, (int)itl, (int)ito);
    worst = PetscMax(worst, PetscMax(tf, tl));
    printf("| %s | %d | %s | %.2f | %.2f | %.2f |\n", type, (int)mlist[i], sweep, 1e6 * tf, 1e6 * tl, 1e6 * to);
    PetscCall(PetscFree(sol));
    PetscCall(FcContactProblemDestroy(&p));
  }
  printf("\nbench solve overhead: %s, largest fixed cost (reused object or create..destroy) for %d..%d contacts = %.2f µs (goal < 10)\n", type, (int)mlist[0],
    (int)mlist[nm - 1], 1e6 * worst);
  PetscCall(FcContactSolverFinalizePackage());
  PetscCall(PetscFinalize());
  return 0;
}
