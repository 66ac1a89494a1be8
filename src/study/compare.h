/* fcsim — `fcsim study compare`: one case over a matrix of variants (compare.c, doc/study.md). */
#ifndef FC_STUDY_COMPARE_H
#define FC_STUDY_COMPARE_H
#include "../case/case.h"
typedef struct {
  const char        *casefile;
  PetscInt           nsets;
  const char *const *sets;
  const char        *solvers; /* --solvers "nsgs,lemke:k=16,...": the same as --axis solver=... */
  PetscInt           naxes;   /* --axis NAME=V1,V2,...: solver, compliance, dt, integrator, level */
  const char *const *axes;
  PetscInt           jobs;   /* runs at once; 0: 1 (timings that compare) */
  const char        *outdir; /* NULL: <output.dir>/<name>/compare */
  const char        *command_line;
  PetscBool          overwrite; /* --overwrite: a foreign folder at outdir may be replaced */
  PetscBool          force;     /* --force: every run, even what the size estimate refuses */
  PetscInt           npetsc;    /* PETSc options of the command line, passed on to every run */
  const char *const *petsc;
  const char *const *envp;    /* environment of the runs (NULL: the current one) */
  const char        *mpiexec; /* --mpiexec: the launcher every run starts under ("mpiexec -n 2"); NULL: none */
} FcStudyCompareOptions;
/* One run per cell of the cross product of the axes (separate fcsim processes, -j at once),
 * DIR/compare.csv and compare.md. *ok: every run converged. Input errors (an unknown axis, a
 * bad value, a variant the case refuses) are raised before anything is started or written. */
PetscErrorCode FcStudyCompare(const FcStudyCompareOptions *o, PetscBool *ok);
#endif
