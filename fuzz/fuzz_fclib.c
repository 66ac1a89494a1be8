/* fcsim fuzzing — the FCLIB reader: FcFCLIBReadProblem (src/io/fclib_io.c: validation with the
 * HDF5 C API, then the values, and for a global problem the reformulation W = Hᵀ M⁻¹ H by
 * src/contact/global_problem.c) as `fcsim fclib solve FILE` calls it, then FcFCLIBRead (the file
 * as plain data) followed by FcGlobalProblemComputeLocal, which `fcsim fclib solve FILE --solver
 * sap` calls instead. doc/fuzzing.md.
 *
 * Input, two kinds (the corpus holds both; the fuzzer may turn one into the other):
 *  - an HDF5 file (it starts with the signature "\211HDF"): written as is — this fuzzes the
 *    file format itself, HDF5's parsing included;
 *  - anything else is a text description of the file's content (fclib_spec.h): which groups
 *    and datasets exist, with which types, shapes and values; the file is built from it with
 *    HDF5 and then read. This reaches fcsim's validation and libfclib far more often than
 *    mutated binary files do (HDF5 metadata checksums reject most of those).
 *
 * Findings besides sanitizer reports: a reader returning a PETSc error other than FC_ERR_INPUT
 * (fuzz_common.h), a successful read with an inconsistent problem, and HDF5 objects left open
 * (a leak no sanitizer sees: HDF5 keeps them reachable). */
#include "fuzz_common.h"
#include "fclib_spec.h"
#include "../src/contact/problem.h"
#include "../src/contact/global_problem.h"
#include "../src/io/fclib_io.h"

static char h5_path[PETSC_MAX_PATH_LEN + 64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  FzInitialize("fuzz_fclib");
  snprintf(h5_path, sizeof h5_path, "%s/fuzz.hdf5", fz_dir);
  /* HDF5 prints its error stack on every failed call (fcsim silences it around its reads; the
   * spec builder fails on purpose too). */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  return 0;
}

static void CheckProblem_Private(FcContactProblem p, const char *what)
{
  if (!p) FzFatal("%s succeeded without a problem", what);
  if (p->m < 1) FzFatal("%s succeeded with %d contacts", what, (int)p->m);
  for (PetscInt i = 0; i < 3 * p->m; i++)
    if (PetscIsInfOrNanReal(p->q[i])) FzFatal("%s succeeded with q[%d] = %g", what, (int)i, (double)p->q[i]);
  for (PetscInt a = 0; a < p->m; a++)
    if (!(p->mu[a] >= 0) || PetscIsInfOrNanReal(p->mu[a])) FzFatal("%s succeeded with mu[%d] = %g", what, (int)a, (double)p->mu[a]);
}

static void CheckOpen_Private(const char *what)
{
  ssize_t n = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);

  if (n != 0)
    FzFatal("%zd HDF5 object(s) left open after %s (files %zd, datasets %zd, groups %zd, datatypes %zd, attributes %zd)", n, what,
      H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE), H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_DATASET), H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_GROUP),
      H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_DATATYPE), H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ATTR));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  FcContactProblem p  = NULL;
  FcGlobalProblem  gp = NULL;
  PetscErrorCode   ierr;

  if (size >= 4 && !memcmp(data, "\211HDF", 4)) FzWriteFile(h5_path, data, size);
  else if (FzSpecBuild(data, size, h5_path)) FzFatal("cannot build %s from the description", h5_path);
  CheckOpen_Private("building the file");

  /* fcsim fclib solve FILE (every solver but sap) */
  ierr = FcFCLIBReadProblem(h5_path, &p);
  FzCheckError(ierr, "FcFCLIBReadProblem");
  if (!ierr) CheckProblem_Private(p, "FcFCLIBReadProblem");
  if (FcContactProblemDestroy(&p)) FzFatal("FcContactProblemDestroy failed");
  CheckOpen_Private("FcFCLIBReadProblem");

  /* fcsim fclib solve FILE --solver sap */
  ierr = FcFCLIBRead(h5_path, &p, &gp);
  FzCheckError(ierr, "FcFCLIBRead");
  if (!ierr && p) CheckProblem_Private(p, "FcFCLIBRead");
  if (!ierr && !gp == !p) FzFatal("FcFCLIBRead succeeded with %s", gp ? "both a global and a local problem" : "neither a global nor a local problem");
  if (!ierr && gp && (gp->n < 1 || gp->m < 1 || !gp->M || !gp->H))
    FzFatal("FcFCLIBRead succeeded with an incomplete global problem (n %d, m %d)", (int)gp->n, (int)gp->m);
  CheckOpen_Private("FcFCLIBRead");
  if (!ierr && gp) {
    FcGlobalMass mass;
    /* M not symmetric positive definite is a status, not an error */
    if (FcGlobalProblemComputeLocal(gp, &p, &mass)) FzFatal("FcGlobalProblemComputeLocal failed on a problem FcFCLIBRead accepted");
    if ((mass.status == FC_GLOBAL_MASS_SPD) != (p != NULL))
      FzFatal("FcGlobalProblemComputeLocal: status %d with%s a local problem", (int)mass.status, p ? "" : "out");
    if (p) CheckProblem_Private(p, "FcGlobalProblemComputeLocal");
  }
  if (FcGlobalProblemDestroy(&gp) || FcContactProblemDestroy(&p)) FzFatal("destroying the problems failed");
  (void)unlink(h5_path);
  return 0;
}
