/* fcsim — `fcsim study refine CASE --levels 0,1,2,3 [--over dt]`: one run of a case per mesh
 * refinement level, or per halving of the time step (separate fcsim processes, several at
 * once), their probes against a reference curve, the observed order of convergence and the
 * Richardson-extrapolated value (refine.c, doc/study.md). */
#ifndef FC_STUDY_REFINE_H
#define FC_STUDY_REFINE_H
#include "../case/case.h"

typedef struct {
  const char        *casefile;
  PetscInt           nsets;
  const char *const *sets;
  const char        *levels;    /* "0,1,2,3": distinct integers in [0, 8] (required) */
  const char        *over;      /* "mesh" (NULL: the same) or "dt": level L halves time.dt L times */
  const char        *bodies;    /* "a,b": the bodies to refine; NULL: every deformable body */
  const char        *reference; /* CSV reference curve "X,Y"; NULL: none */
  PetscReal          scale_x;   /* multiply the run's X column before the comparison (0: 1) */
  PetscReal          scale_y;   /* multiply the run's Y column before the comparison (0: 1) */
  const char        *quantity;  /* probe column of Q; NULL: Y at the last reference point, or the
                                   last probe column without a reference */
  PetscInt           jobs;      /* runs at once; 0: the number of online processors */
  const char        *outdir;    /* NULL: <output.dir>/<name>/refine_<YYYYmmdd-HHMMSS> */
  PetscBool          overwrite; /* --overwrite: a foreign folder at outdir may be replaced */
  PetscBool          force;     /* --force: passed on to every run (src/run/estimate.h) */
  const char        *command_line;
  PetscInt           npetsc; /* PETSc options of the command line, passed on to every run */
  const char *const *petsc;
  const char *const *envp;    /* environment of the runs (NULL: the current one); fcsim
                                   passes its environment as it was before MPI started */
  const char        *mpiexec; /* --mpiexec: the launcher every run starts under ("mpiexec -n 2"); NULL: none */
} FcStudyRefineOptions;

/* Runs every level, writes DIR/study.csv, study.md, errors.csv (with a reference), the runs
 * DIR/level_L/ and their logs DIR/level_L.log. *ok: every level ran and converged. Input
 * errors (command line, case, reference file) are raised before anything is started or
 * written. On SIGINT/SIGTERM the runs are stopped, DIR's temporary directory is removed and
 * PETSC_ERR_SIG is returned (without a traceback). */
PetscErrorCode FcStudyRefine(const FcStudyRefineOptions *o, PetscBool *ok);

/* The numerics, pure functions (refine.c cites the equations). */
/* Linear interpolation of (x, y) at xq in a strictly monotone table x (increasing or
 * decreasing); PETSC_FALSE when xq is outside [min x, max x]. */
PetscBool FcRefineInterpolate(PetscInt n, const PetscReal *x, const PetscReal *y, PetscReal xq, PetscReal *yq);
/* Observed order p from Q on three meshes with ratio r (coarse q0, q1, fine q2); PETSC_FALSE
 * when not defined (a zero or non-finite difference, or differences of opposite signs). */
PetscBool FcRefineOrder(PetscReal q0, PetscReal q1, PetscReal q2, PetscReal r, PetscReal *p);
/* Richardson extrapolation from the two finest values q1, q2, order p > 0 and ratio r. */
PetscBool FcRefineRichardson(PetscReal q1, PetscReal q2, PetscReal p, PetscReal r, PetscReal *qinf);
#endif
