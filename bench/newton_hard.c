/* fcsim bench — nsgs with a sweep cap and newton on FCLIB problems, W in the storage the fill rule
 * chooses (FcContactProblemConvertAuto: block-sparse below FC_CONTACT_SPARSE_MAX_FILL), as a
 * stepper would hand them over. bench/newton_hard.py generates the problems and prints the table.
 *
 *   ./build/bench/newton_hard [-cap 10000] [-tol 1e-10] [-newton_max_it 200] FILE.hdf5...
 *
 * One line per file:
 *   ROW file m fill storage nsgs_sweeps nsgs_error nsgs_time newton_steps newton_error newton_time fallback_rounds reason
 * (times in s, wall clock of one solve from r = 0; fallback rounds parsed from the newton view).
 * PETSc options reach both solvers (e.g. -fc_contact_solver_newton_monitor). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../src/contact/solver.h"
#include "../src/core/mpienv.h"
#include "../src/io/fclib_io.h"

static double Now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static PetscErrorCode Run(const char *type, PetscReal tol, PetscInt max_it, FcContactProblem p, FcContactSolverStats *st, double *time, PetscInt *fallback)
{
  FcContactSolver s;
  PetscReal      *r;

  PetscFunctionBegin;
  PetscCall(FcContactSolverCreate(&s));
  PetscCall(FcContactSolverSetType(s, type));
  PetscCall(FcContactSolverSetTolerances(s, tol, max_it));
  PetscCall(FcContactSolverSetFromOptions(s));
  PetscCall(PetscCalloc1(3 * p->m, &r));
  *time = Now();
  PetscCall(FcContactSolverSolve(s, p, r));
  *time = Now() - *time;
  PetscCall(FcContactSolverGetStats(s, st));
  *fallback = -1;
  if (fallback && !strcmp(type, "newton")) { /* "fallback rounds N (last solve)" in the view */
    char        buf[4096] = "", path[64] = "/tmp/fcsim_bench_view_XXXXXX";
    const char *k;
    PetscViewer v;
    FILE       *fp;
    const int   fd = mkstemp(path);
    PetscCheck(fd >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot create a temporary file");
    close(fd);
    PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v));
    PetscCall(FcContactSolverView(s, v));
    PetscCall(PetscViewerDestroy(&v));
    fp = fopen(path, "r");
    if (fp) {
      buf[fread(buf, 1, sizeof buf - 1, fp)] = 0;
      fclose(fp);
    }
    remove(path);
    if ((k = strstr(buf, "fallback rounds "))) *fallback = atoi(k + strlen("fallback rounds "));
  }
  PetscCall(PetscFree(r));
  PetscCall(FcContactSolverDestroy(&s));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscReal tol = 1e-10;
  PetscInt  cap = 10000, nmax = 200;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cap", &cap, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-newton_max_it", &nmax, NULL));
  for (int i = 1; i < argc; i++) {
    FcContactProblem     p0, p;
    FcContactSolverStats sg, sn;
    double               tg, tn;
    PetscInt             fb;

    if (argv[i][0] == '-') { /* an option (and its value, unless the next word is an option or a file) */
      if (i + 1 < argc && argv[i + 1][0] != '-' && !strstr(argv[i + 1], ".hdf5")) i++;
      continue;
    }
    PetscCall(FcFCLIBReadProblem(argv[i], &p0));
    PetscCall(FcContactProblemConvertAuto(p0, &p));
    PetscCall(FcContactProblemDestroy(&p0));
    PetscCall(Run("nsgs", tol, cap, p, &sg, &tg, &fb));
    PetscCall(Run("newton", tol, nmax, p, &sn, &tn, &fb));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ROW %s %" PetscInt_FMT " %.4f %s %" PetscInt_FMT " %.3e %.4e %" PetscInt_FMT " %.3e %.4e %" PetscInt_FMT " %s\n",
      argv[i], p->m, (double)FcContactProblemCountBlocks(p) / ((double)p->m * p->m), FcContactProblemIsSparse(p) ? "sparse" : "dense", sg.iterations,
      (double)sg.error, tg, sn.iterations, (double)sn.error, tn, fb, sn.reason_name));
    PetscCall(FcContactProblemDestroy(&p));
  }
  PetscCall(PetscFinalize());
  return 0;
}
