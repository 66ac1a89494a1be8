/* fcsim — `fcsim study compare`: one case, every listed contact solver (compare.c). */
#ifndef FC_STUDY_COMPARE_H
#define FC_STUDY_COMPARE_H
#include "../case/case.h"
typedef struct {
  const char         *casefile;
  PetscInt            nsets;
  const char *const  *sets;
  const char         *solvers;  /* "nsgs,lemke,..." */
  const char         *outdir;   /* NULL: <output.dir>/<name>/compare */
  const char         *command_line;
  PetscBool           overwrite; /* --overwrite: a foreign folder at outdir may be replaced */
  PetscBool           force;     /* --force: every run, even what the size estimate refuses */
} FcStudyCompareOptions;
/* *ok: every run converged (each run keeps its own statistics). */
PetscErrorCode FcStudyCompare(const FcStudyCompareOptions *o, PetscBool *ok);
#endif
