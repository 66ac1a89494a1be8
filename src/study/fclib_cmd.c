/* fcsim — `fcsim fclib solve FILE [--solver T] [--tol X] [--max-it N] [-o SOLUTION.hdf5]`. */
#include "fclib_cmd.h"
#include "../contact/solver.h"
#include "../io/fclib_io.h"

PetscErrorCode FcFCLIBSolve(const FcFCLIBSolveOptions *o, PetscBool *converged)
{
  FcContactProblem     p = NULL;
  FcContactSolver      s = NULL;
  FcContactSolverStats st;
  PetscReal           *r = NULL;
  PetscInt             m;

  PetscErrorCode       ierr;

  PetscFunctionBegin;
  *converged = PETSC_FALSE;
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(FcFCLIBReadProblem(o->file, &p));
  m = p->m;
  PetscCall(FcContactSolverCreate(&s));
  /* an unknown solver name is an input error: free what exists before returning it */
  ierr = FcContactSolverSetType(s, o->solver ? o->solver : "nsgs");
  if (!ierr) ierr = FcContactSolverSetTolerances(s, o->tol, o->max_it);
  if (!ierr) ierr = FcContactSolverSetFromOptions(s);
  if (ierr) {
    PetscCall(FcContactSolverDestroy(&s));
    PetscCall(FcContactProblemDestroy(&p));
    return ierr;
  }
  PetscCall(PetscCalloc1(3 * m + 1, &r));
  PetscCall(FcContactSolverSolve(s, p, r));
  PetscCall(FcContactSolverGetStats(s, &st));
  printf("%s: contacts %d iterations %d error %.6e time %.6e s %s\n", o->file, (int)m, (int)st.iterations, (double)st.error, (double)st.time, st.reason_name);
  if (o->out) {
    FcFCLIBInfo info = {o->file, "fcsim fclib solve", NULL};
    PetscCall(FcFCLIBWriteSolution(o->out, p, &info, r, NULL));
  }
  *converged = st.converged;
  PetscCall(PetscFree(r));
  PetscCall(FcContactSolverDestroy(&s));
  PetscCall(FcContactProblemDestroy(&p));
  PetscFunctionReturn(0);
}
