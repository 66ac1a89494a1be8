/* fcsim benchmark peer: Siconos numerics 4.4 fc3d NSGS against fcsim's nsgs on the same FCLIB
 * problems, to the same tolerance of the same common error (Siconos' normalisation, computed
 * by fcsim's FcContactProblemComputeError on every solution). Linked only here, never into
 * fcsim. Two Siconos variants (Friction_cst.h):
 *   NSGS       SICONOS_FRICTION_3D_NSGS with its default local solver
 *   NSGS/proj  the same with SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnConeWithLocalIteration as
 *              local solver (solver_options_update_internal on internal solver 0)
 * Siconos' W storage: -siconos_storage dense (default; the problems' dense W as is) or sbm
 * (Siconos' sparse block matrix of 3x3 blocks, SBM_from_csparse: what Siconos builds when it reads
 * an FCLIB file, so only the nonzero blocks are swept). Runs alternate (fcsim, NSGS, NSGS/proj,
 * fcsim, ...) R times each; medians are reported. -csv FILE appends one row per problem (with the
 * medians, then the fastest run of each solver).
 *
 * -fcsim_types nsgs,newton,auto times each of these fcsim types against the same (calibrated once)
 * Siconos runs: one table row and one CSV row per problem and type, the type as the CSV's last
 * column; -siconos_max_it N bounds Siconos' sweeps (default 100000; its calibration tries up to 9
 * tolerances, each up to N sweeps where it stalls).
 *
 *   bench/siconos_peer [-tol T] [-runs R] [-siconos_storage dense|sbm] [-csv FILE] [-fcsim_types LIST] [-siconos_max_it N] FILE.hdf5...  */
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_Solvers.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SparseBlockMatrix.h>
#include <stdlib.h>
#include <string.h>
#include "../src/contact/solver.h"
#include "../src/core/mpienv.h"
#include "../src/io/fclib_io.h"

static int CmpReal(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define NVAR 2
static const char *VarName[NVAR] = {"NSGS", "NSGS/proj"};

/* Fresh options per solve (a reused SolverOptions keeps state and the next fc3d_driver call
 * returns at once). */
static int SiconosMaxIt = 100000; /* -siconos_max_it */

static SolverOptions *SiconosOptions(int var, double tol)
{
  SolverOptions *opt = solver_options_create(SICONOS_FRICTION_3D_NSGS);
  if (var == 1) solver_options_update_internal(opt, 0, SICONOS_FRICTION_3D_ONECONTACT_ProjectionOnConeWithLocalIteration);
  opt->dparam[SICONOS_DPARAM_TOL]      = tol;
  opt->iparam[SICONOS_IPARAM_MAX_ITER] = SiconosMaxIt;
  return opt;
}

/* Entry (i, j) of W in either of fcsim's storages, for the loops below: calls f for every nonzero
 * entry, row by row (dense) or block by block (block-sparse: no dense array is formed). */
#define FOR_EACH_W_ENTRY(p, I, J, V, BODY) \
  do { \
    const size_t n3_ = 3 * (size_t)(p)->m; \
    if ((p)->W) { \
      for (size_t I = 0; I < n3_; I++) \
        for (size_t J = 0; J < n3_; J++) { \
          const double V = (p)->W[I * n3_ + J]; \
          if (V != 0) { BODY; } \
        } \
    } else { \
      for (PetscInt a_ = 0; a_ < (p)->m; a_++) \
        for (PetscInt k_ = (p)->bptr[a_]; k_ < (p)->bptr[a_ + 1]; k_++) \
          for (int e_ = 0; e_ < 9; e_++) { \
            const size_t I = 3 * (size_t)a_ + (size_t)(e_ / 3), J = 3 * (size_t)(p)->bcol[k_] + (size_t)(e_ % 3); \
            const double V = (p)->bval[9 * (size_t)k_ + (size_t)e_]; \
            if (V != 0) { BODY; } \
          } \
    } \
  } while (0)

/* The problem handed to Siconos (Debian's Siconos is built without FCLIB): copies of W, q, mu
 * owned by the Siconos problem; W dense (symmetric, so its storage order is moot; refused above
 * 2 GB) or as Siconos' sparse block matrix of its nonzero 3x3 blocks (from fcsim's dense or
 * block-sparse W, whichever the reader chose). */
static FrictionContactProblem *SiconosProblem(FcContactProblem p, PetscBool sbm)
{
  size_t          n3 = 3 * (size_t)p->m;
  double         *q = malloc(n3 * sizeof *q), *mu = malloc((size_t)p->m * sizeof *mu);
  NumericsMatrix *W;
  if (!q || !mu) return NULL;
  for (size_t i = 0; i < n3; i++) q[i] = p->q[i];
  for (PetscInt i = 0; i < p->m; i++) mu[i] = p->mu[i];
  if (!sbm) {
    double *Wd;
    if ((double)n3 * (double)n3 * sizeof(double) > 2.0 * 1073741824.0) {
      fprintf(stderr, "siconos_peer: %d contacts: a dense W for Siconos would need %.1f GB (use -siconos_storage sbm)\n", (int)p->m,
        (double)n3 * (double)n3 * 8 / 1073741824.0);
      return NULL;
    }
    Wd = calloc(n3 * n3, sizeof *Wd);
    if (!Wd) return NULL;
    FOR_EACH_W_ENTRY(p, i, j, v, Wd[i * n3 + j] = v);
    W = NM_create_from_data(NM_DENSE, (int)n3, (int)n3, Wd);
  } else {
    NumericsMatrix              *T   = NM_create(NM_SPARSE, (int)n3, (int)n3);
    SparseBlockStructuredMatrix *blk = SBM_new();
    size_t                       nnz = 0;
    FOR_EACH_W_ENTRY(p, i, j, v, (void)i; (void)j; (void)v; nnz++);
    NM_triplet_alloc(T, (CS_INT)(nnz ? nnz : 1));
    FOR_EACH_W_ENTRY(p, i, j, v, NM_entry(T, (int)i, (int)j, v));
    if (SBM_from_csparse(3, NM_csc(T), blk)) return NULL;
    NM_free(T);
    W = NM_new_SBM((int)n3, (int)n3, blk);
  }
  return frictionContactProblem_new_with_data(3, (int)p->m, W, q, mu);
}

int main(int argc, char **argv)
{
  PetscReal tol  = 1e-8, ratios[4096];
  PetscInt  runs = 7, nr = 0;
  char      storage[16] = "dense", csv[PETSC_MAX_PATH_LEN] = "", types[256] = "nsgs", tname[8][32];
  int       ntypes = 0;
  PetscBool sbm, csvset;
  FILE     *fcsv = NULL;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FcPushErrorHandler());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-runs", &runs, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-siconos_storage", storage, sizeof storage, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-csv", csv, sizeof csv, &csvset));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-fcsim_types", types, sizeof types, NULL));
  {
    PetscInt mi = SiconosMaxIt;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-siconos_max_it", &mi, NULL));
    SiconosMaxIt = (int)PetscMax(1, mi);
  }
  for (char *t = strtok(types, ","); t && ntypes < 8; t = strtok(NULL, ",")) PetscCall(PetscStrncpy(tname[ntypes++], t, sizeof tname[0]));
  PetscCheck(
    !strcmp(storage, "dense") || !strcmp(storage, "sbm"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-siconos_storage: expected dense or sbm, got %s", storage);
  sbm  = !strcmp(storage, "sbm") ? PETSC_TRUE : PETSC_FALSE;
  runs = PetscMax(1, PetscMin(runs, 64));
  if (csvset) {
    fcsv = fopen(csv, "a");
    PetscCheck(fcsv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open %s", csv);
  }
  PetscCall(FcContactSolverRegisterAll());
  printf("Siconos W storage: %s; tolerance %g on the common error; medians of %d alternating runs\n\n", storage, (double)tol, (int)runs);
  printf(
    "| problem | contacts | fcsim it | NSGS it | NSGS/proj it | largest error | fcsim [s] | NSGS [s] | NSGS/proj [s] | fcsim/NSGS | fcsim/(NSGS/proj) | fcsim/faster |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int f = 1; f < argc; f++) {
    FcContactProblem        p;
    FrictionContactProblem *sp;
    FcContactSolver         s;
    FcContactSolverStats    st;
    SolverOptions          *opt;
    PetscReal               tf[64], ts[NVAR][64], tol_s[NVAR], ef = 0, es[NVAR] = {0, 0}, emax, *r, *rs, *vs, t0, t1, mf, ms[NVAR] = {0, 0}, faster;
    int                     info = 0, sit[NVAR] = {0, 0};
    if (argv[f][0] == '-') { /* a PETSc option and its value */
      f++;
      continue;
    }
    PetscCall(FcFCLIBReadProblem(argv[f], &p));
    sp = SiconosProblem(p, sbm);
    PetscCheck(sp, PETSC_COMM_SELF, PETSC_ERR_MEM, "cannot form the Siconos problem of %s", argv[f]);
    PetscCall(PetscMalloc3(3 * p->m, &r, 3 * p->m, &rs, 3 * p->m, &vs));
    /* Siconos' NSGS stops on its own error measure, whose normalisation differs from the common
     * error: calibrate its tolerance per problem and variant to the loosest 10^j tol (j = 8..0)
     * whose solution still has common error <= tol, so that all stop at the same accuracy. Tried
     * from the loosest down, so that the calibration costs about one solve to tol (the cheap loose
     * solves first) rather than several (a 10,000-contact wall needs minutes per solve). */
    for (int v = 0; v < NVAR; v++) {
      tol_s[v] = tol;
      for (int j = 8; j >= 0; j--) {
        PetscReal ts_try = tol * PetscPowReal(10.0, j), e;
        PetscCall(PetscArrayzero(rs, 3 * p->m));
        PetscCall(PetscArrayzero(vs, 3 * p->m));
        opt = SiconosOptions(v, ts_try);
        (void)fc3d_driver(sp, rs, vs, opt);
        solver_options_delete(opt);
        PetscCall(FcContactProblemComputeError(p, rs, &e));
        if (e <= tol) {
          tol_s[v] = ts_try;
          break;
        }
      }
    }
    for (int ty = 0; ty < ntypes; ty++) {
      PetscCall(FcContactSolverCreate(&s));
      PetscCall(FcContactSolverSetType(s, tname[ty]));
      PetscCall(FcContactSolverSetTolerances(s, tol, 100000));
      PetscCall(FcContactSolverSetWarmStart(s, PETSC_FALSE));
      PetscCall(FcContactSolverSetFromOptions(s));
      PetscCall(FcContactSolverSetType(s, tname[ty])); /* -fc_contact_solver_type would not override the list */
      for (PetscInt k = 0; k < runs; k++) {
        PetscCall(PetscArrayzero(r, 3 * p->m));
        PetscCall(PetscTime(&t0));
        PetscCall(FcContactSolverSolve(s, p, r));
        PetscCall(PetscTime(&t1));
        tf[k] = t1 - t0;
        if (ty) continue; /* Siconos once per run, beside the first type */
        for (int v = 0; v < NVAR; v++) {
          PetscCall(PetscArrayzero(rs, 3 * p->m));
          PetscCall(PetscArrayzero(vs, 3 * p->m));
          opt = SiconosOptions(v, tol_s[v]); /* outside the timing */
          PetscCall(PetscTime(&t0));
          info = fc3d_driver(sp, rs, vs, opt);
          PetscCall(PetscTime(&t1));
          ts[v][k] = t1 - t0;
          sit[v]   = opt->iparam[SICONOS_IPARAM_ITER_DONE];
          if (info) fprintf(stderr, "%s: Siconos %s: fc3d_driver info %d\n", argv[f], VarName[v], info);
          solver_options_delete(opt);
          PetscCall(FcContactProblemComputeError(p, rs, &es[v]));
        }
      }
      PetscCall(FcContactSolverGetStats(s, &st));
      PetscCall(FcContactProblemComputeError(p, r, &ef));
      emax = PetscMax(ef, PetscMax(es[0], es[1]));
      qsort(tf, (size_t)runs, sizeof tf[0], CmpReal);
      mf = tf[runs / 2];
      if (!ty)
        for (int v = 0; v < NVAR; v++) {
          qsort(ts[v], (size_t)runs, sizeof ts[v][0], CmpReal);
          ms[v] = ts[v][runs / 2];
        }
      faster = PetscMin(ms[0], ms[1]);
      if (nr < 4096) ratios[nr++] = mf / faster;
      printf("| %s%s%s | %d | %d | %d | %d | %.1e | %.3e | %.3e | %.3e | %.2f | %.2f | %.2f |\n", argv[f], ntypes > 1 ? " " : "", ntypes > 1 ? tname[ty] : "",
        (int)p->m, (int)st.iterations, sit[0], sit[1], (double)emax, (double)mf, (double)ms[0], (double)ms[1], (double)(mf / ms[0]), (double)(mf / ms[1]),
        (double)(mf / faster));
      /* the last three columns: the fastest of the runs (sorted above), the uncontended cost on a
       * loaded machine, where one descheduling can make a millisecond solve take 30 ms; then the type */
      if (fcsv)
        fprintf(fcsv, "%s,%d,%s,%d,%d,%d,%.3e,%.3e,%.3e,%.3e,%.3e,%.3e,%.6e,%.6e,%.6e,%d,%.6e,%.6e,%.6e,%s\n", argv[f], (int)p->m, storage, (int)st.iterations,
          sit[0], sit[1], (double)ef, (double)es[0], (double)es[1], (double)tol_s[0], (double)tol_s[1], (double)tol, (double)mf, (double)ms[0], (double)ms[1],
          st.converged ? 1 : 0, (double)tf[0], (double)ts[0][0], (double)ts[1][0], tname[ty]);
      fflush(stdout);
      PetscCall(FcContactSolverDestroy(&s));
    }
    frictionContactProblem_free(sp);
    PetscCall(PetscFree3(r, rs, vs));
    PetscCall(FcContactProblemDestroy(&p));
  }
  if (fcsv) fclose(fcsv);
  if (nr) {
    qsort(ratios, (size_t)nr, sizeof ratios[0], CmpReal);
    printf("\nbench siconos: median time ratio fcsim / faster Siconos variant over %d problems = %.2f (goal <= 0.67)\n", (int)nr, (double)ratios[nr / 2]);
  }
  PetscCall(FcContactSolverFinalizePackage());
  PetscCall(PetscFinalize());
  return 0;
}
