/* fcsim fuzzing — what both libFuzzer targets share (doc/fuzzing.md).
 *
 * Once per process (FzInitialize, from LLVMFuzzerInitialize): PETSc is initialized with
 * -no_signal_handler (the sanitizers report crashes, not PETSc), fcsim's error handler is pushed
 * as src/fcsim.c does, materials and contact solvers are registered, FcVerbosity = 0, and a
 * private temporary directory is made (under $FCSIM_FUZZ_TMPDIR, else $TMPDIR when set, else
 * /dev/shm, else /tmp) and removed at exit.
 *
 * Messages: by default a silent handler (PetscReturnErrorHandler) is pushed over fcsim's, so an
 * input error costs no write to stderr (the fuzzer runs thousands of them a second). With
 * FCSIM_FUZZ_VERBOSE=1 (use it to replay a reproducer) fcsim's handler prints as fcsim does.
 *
 * Contract checked (FzCheckError): a reader may return 0 or FC_ERR_INPUT (bad input: one line,
 * exit status 2). Any other PETSc error on input is a finding — fcsim would exit 1 with a
 * traceback for what is the user's input — and aborts with the PETSc message, so that libFuzzer
 * saves the input. FCSIM_FUZZ_ALLOW_RUN_ERRORS=1 turns that check off. */
#ifndef FCSIM_FUZZ_COMMON_H
#define FCSIM_FUZZ_COMMON_H

#define _XOPEN_SOURCE 700 /* mkdtemp, realpath, setenv, symlink */
#include "../src/core/fc.h"
#include "../src/core/mpienv.h"
#include "../src/contact/solver.h"
#include "../src/fem/material.h"
#include "../src/mesh/mesh.h"
#include <errno.h>
#include <ftw.h>
#include <sanitizer/lsan_interface.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fz_dir[PETSC_MAX_PATH_LEN]; /* this process's temporary directory */
static int  fz_allow_run_errors;        /* FCSIM_FUZZ_ALLOW_RUN_ERRORS */

const char *__asan_default_options(void);
const char *__lsan_default_suppressions(void);

/* No leak check at exit: Open MPI's progress threads allocate at MPI_Init what MPI_Finalize
 * drops, in frames the fast unwinder cannot name. libFuzzer checks after each input instead
 * (reproduce a leak from a directory: fuzz/repro.sh). */
const char *__asan_default_options(void) { return "leak_check_at_exit=0"; }

/* LeakSanitizer: what Open MPI (and the libraries under it: PMIx, hwloc, libevent, its MCA
 * components) allocates in MPI_Init and drops is not fcsim's; __lsan_disable() around
 * PetscInitialize does not cover it all (other threads, lazy initialization on the first
 * communicator duplication). glibc's vasprintf is only called by Open MPI (fcsim and PETSc use
 * their own printf), and its caller cannot be unwound. The MCA components are kept loaded
 * (OMPI_MCA_mca_base_component_disable_dlclose, FzInitialize) so that their frames have names.
 * tests/valgrind.supp suppresses the same for valgrind. HDF5 and libfclib are not suppressed. */
const char *__lsan_default_suppressions(void)
{
  return "leak:libmpi.so\n"
         "leak:libopen-pal.so\n"
         "leak:libopen-rte.so\n"
         "leak:libpmix.so\n"
         "leak:libhwloc.so\n"
         "leak:libevent\n"
         "leak:/openmpi/lib/openmpi3/mca_\n"
         "leak:pmix_mca_\n"
         "leak:__vasprintf_internal\n"
         /* Gmsh (the only C++ library here) leaks in its surface mesher and on its parser's
          * error paths, as tests/valgrind.supp records (gmsh-surface-mesher,
          * gmsh-open-error-paths); the fast unwinder stops at operator new. */
         "leak:libgmsh.so\n"
         "leak:libstdc++.so\n";
}

static void FzFatal(const char *fmt, ...) PETSC_ATTRIBUTE_FORMAT(1, 2);
static void FzFatal(const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, "fuzz: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  fflush(stderr);
  abort();
}

/* Write size bytes to path (created or truncated). */
static void FzWriteFile(const char *path, const uint8_t *data, size_t size)
{
  FILE *f = fopen(path, "wb");

  if (!f) FzFatal("cannot create %s: %s", path, strerror(errno));
  if (size && fwrite(data, 1, size, f) != size) FzFatal("cannot write %s: %s", path, strerror(errno));
  if (fclose(f)) FzFatal("cannot write %s: %s", path, strerror(errno));
}

static int FzRemove_Private(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  (void)remove(path);
  return 0;
}

/* At a normal exit only: after a crash the directory stays (fuzz/run.sh removes its parent). */
static void FzCleanup(void)
{
  if (!fz_dir[0]) return;
  (void)nftw(fz_dir, FzRemove_Private, 16, FTW_DEPTH | FTW_PHYS);
  fz_dir[0] = 0;
}

static void FzFinalize(void)
{
  FzCleanup();
  (void)FcMeshFinalizePackage();
  (void)FcMaterialFinalizePackage();
  (void)FcContactSolverFinalizePackage();
  (void)PetscFinalize();
}

static void FzInitialize(const char *name)
{
  static char  arg0[64], arg1[] = "-no_signal_handler";
  static char *args[3];
  char       **argv = args;
  int          argc = 2;
  const char  *base = getenv("FCSIM_FUZZ_TMPDIR");

  snprintf(arg0, sizeof arg0, "%s", name);
  args[0] = arg0;
  args[1] = arg1;
  args[2] = NULL;
  /* What MPI_Init (inside PetscInitialize) allocates and drops is Open MPI's business, not a
   * finding: LeakSanitizer ignores the allocations made here. */
  (void)setenv("OMPI_MCA_mca_base_component_disable_dlclose", "1", 0);
  (void)setenv("PMIX_MCA_mca_base_component_disable_dlclose", "1", 0);
  FcMPIEnvPrepare(); /* fuzzers may run side by side (-jobs): each its own session folder */
  __lsan_disable();
  if (PetscInitialize(&argc, &argv, NULL, NULL)) FzFatal("PetscInitialize failed");
  __lsan_enable();
  if (FcPushErrorHandler()) FzFatal("FcPushErrorHandler failed");
  if (!getenv("FCSIM_FUZZ_VERBOSE") || !strcmp(getenv("FCSIM_FUZZ_VERBOSE"), "0"))
    if (PetscPushErrorHandler(PetscReturnErrorHandler, NULL)) FzFatal("PetscPushErrorHandler failed");
  fz_allow_run_errors = getenv("FCSIM_FUZZ_ALLOW_RUN_ERRORS") && strcmp(getenv("FCSIM_FUZZ_ALLOW_RUN_ERRORS"), "0");
  FcVerbosity         = 0;
  if (FcMaterialRegisterAll() || FcContactSolverRegisterAll()) FzFatal("registering materials and solvers failed");

  if (!base || !base[0]) base = getenv("TMPDIR");
  if (!base || !base[0]) base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
  snprintf(fz_dir, sizeof fz_dir, "%s/fcsim-%s-XXXXXX", base, name);
  if (!mkdtemp(fz_dir)) FzFatal("cannot create a temporary directory %s: %s", fz_dir, strerror(errno));
  atexit(FzFinalize);
}

static void FzCheckError(PetscErrorCode ierr, const char *what)
{
  const char *text     = NULL;
  char       *specific = NULL;

  if (!ierr || ierr == FC_ERR_INPUT || fz_allow_run_errors) return;
  (void)PetscErrorMessage(ierr, &text, &specific);
  FzFatal("%s returned PETSc error %d (%s: %s), not an input error (FC_ERR_INPUT = %d): bad input must give one line and exit status 2", what, (int)ierr,
    text ? text : "?", specific ? specific : "", (int)FC_ERR_INPUT);
}

#endif
