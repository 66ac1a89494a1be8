/* fcsim benchmark peer: Siconos numerics 4.4 fc3d NSGS against fcsim's nsgs on the same FCLIB
 * problems, to the same tolerance of the same common error (Siconos' normalisation, computed
 * by fcsim's FcContactProblemComputeError on both solutions). Linked only here, never into
 * fcsim. Runs alternate (fcsim, Siconos, fcsim, ...) R times each; medians are reported.
 *
 *   bench/siconos_peer [-tol T] [-runs R] FILE.hdf5...                                      */
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_Solvers.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <stdlib.h>
#include "../src/contact/solver.h"
#include "../src/io/fclib_io.h"

static int CmpReal(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  PetscReal tol = 1e-8, ratios[4096];
  PetscInt  runs = 7, nr = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FcPushErrorHandler());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-runs", &runs, NULL));
  PetscCall(FcContactSolverRegisterAll());
  printf("| problem | contacts | fcsim it | Siconos it | Siconos tol | fcsim error | Siconos error | fcsim [s] | Siconos [s] | ratio fcsim/Siconos |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (int f = 1; f < argc; f++) {
    FcContactProblem        p;
    FrictionContactProblem *sp;
    FcContactSolver         s;
    FcContactSolverStats    st;
    SolverOptions          *opt;
    PetscReal               tf[64], ts[64], ef = 0, es = 0, *r, *rs, *vs, t0, t1;
    int                     info = 0, sit = 0;
    if (argv[f][0] == '-') { /* a PETSc option and its value */
      f++;
      continue;
    }
    PetscCall(FcFCLIBReadProblem(argv[f], &p));
    {
      /* Debian's Siconos is built without FCLIB: the same dense W, q, mu are handed over
       * (copies owned by the Siconos problem; W is symmetric, so its storage order is moot) */
      size_t  n3 = 3 * (size_t)p->m;
      double *W = malloc(n3 * n3 * sizeof *W), *q = malloc(n3 * sizeof *q), *mu = malloc((size_t)p->m * sizeof *mu);
      if (!W || !q || !mu) return 1;
      for (size_t i = 0; i < n3 * n3; i++) W[i] = p->W[i];
      for (size_t i = 0; i < n3; i++) q[i] = p->q[i];
      for (PetscInt i = 0; i < p->m; i++) mu[i] = p->mu[i];
      sp = frictionContactProblem_new_with_data(3, (int)p->m, NM_create_from_data(NM_DENSE, (int)n3, (int)n3, W), q, mu);
    }
    PetscCall(PetscMalloc3(3 * p->m, &r, 3 * p->m, &rs, 3 * p->m, &vs));
    PetscCall(FcContactSolverCreate(&s));
    PetscCall(FcContactSolverSetType(s, "nsgs"));
    PetscCall(FcContactSolverSetTolerances(s, tol, 100000));
    PetscCall(FcContactSolverSetWarmStart(s, PETSC_FALSE));
    PetscCall(FcContactSolverSetFromOptions(s));
    /* Siconos' NSGS stops on its own error measure, whose normalisation differs from the common
     * error: calibrate its tolerance per problem to the loosest 10^j tol (j = 0..8) whose
     * solution still has common error <= tol, so both stop at the same accuracy. */
    PetscReal tol_s = tol;
    for (int j = 0; j <= 8; j++) {
      PetscReal ts_try = tol * PetscPowReal(10.0, j), e;
      PetscCall(PetscArrayzero(rs, 3 * p->m));
      PetscCall(PetscArrayzero(vs, 3 * p->m));
      opt                                  = solver_options_create(SICONOS_FRICTION_3D_NSGS);
      opt->dparam[SICONOS_DPARAM_TOL]      = ts_try;
      opt->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
      (void)fc3d_driver(sp, rs, vs, opt);
      solver_options_delete(opt);
      PetscCall(FcContactProblemComputeError(p, rs, &e));
      if (e <= tol) tol_s = ts_try;
      else break;
    }
    for (PetscInt k = 0; k < PetscMin(runs, 64); k++) {
      PetscCall(PetscArrayzero(r, 3 * p->m));
      PetscCall(PetscTime(&t0));
      PetscCall(FcContactSolverSolve(s, p, r));
      PetscCall(PetscTime(&t1));
      tf[k] = t1 - t0;
      PetscCall(PetscArrayzero(rs, 3 * p->m));
      PetscCall(PetscArrayzero(vs, 3 * p->m));
      /* fresh options per run (outside the timing): a reused SolverOptions keeps state and the
       * next fc3d_driver call returns at once */
      opt                                  = solver_options_create(SICONOS_FRICTION_3D_NSGS);
      opt->dparam[SICONOS_DPARAM_TOL]      = tol_s;
      opt->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
      PetscCall(PetscTime(&t0));
      info = fc3d_driver(sp, rs, vs, opt);
      PetscCall(PetscTime(&t1));
      ts[k] = t1 - t0;
      sit   = opt->iparam[SICONOS_IPARAM_ITER_DONE];
      if (info) fprintf(stderr, "%s: Siconos fc3d_driver info %d\n", argv[f], info);
      solver_options_delete(opt);
    }
    PetscCall(FcContactSolverGetStats(s, &st));
    PetscCall(FcContactProblemComputeError(p, r, &ef));
    PetscCall(FcContactProblemComputeError(p, rs, &es));
    qsort(tf, (size_t)PetscMin(runs, 64), sizeof tf[0], CmpReal);
    qsort(ts, (size_t)PetscMin(runs, 64), sizeof ts[0], CmpReal);
    {
      PetscReal mf = tf[PetscMin(runs, 64) / 2], ms = ts[PetscMin(runs, 64) / 2];
      ratios[nr++] = mf / ms;
      printf("| %s | %d | %d | %d | %.0e | %.2e | %.2e | %.3e | %.3e | %.2f |\n", argv[f], (int)p->m, (int)st.iterations, sit, (double)tol_s, (double)ef, (double)es, (double)mf, (double)ms, (double)(mf / ms));
    }
    frictionContactProblem_free(sp);
    PetscCall(FcContactSolverDestroy(&s));
    PetscCall(PetscFree3(r, rs, vs));
    PetscCall(FcContactProblemDestroy(&p));
  }
  if (nr) {
    qsort(ratios, (size_t)nr, sizeof ratios[0], CmpReal);
    printf("\nbench siconos: median time ratio fcsim/Siconos over %d problems = %.2f (goal <= 0.67)\n", (int)nr, (double)ratios[nr / 2]);
  }
  PetscCall(FcContactSolverFinalizePackage());
  PetscCall(PetscFinalize());
  return 0;
}
