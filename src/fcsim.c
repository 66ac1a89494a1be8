/* fcsim — command-line entry: the process around a command (signals, the interrupt watchdog,
 * Open MPI's start-up, PETSc); the commands and their options are in src/cli (cli.h).
 *
 *   fcsim run|info CASE.json ..., fcsim fclib solve|compare ..., fcsim study compare|refine ...,
 *   fcsim trajectory check ...; fcsim --help | --version; fcsim COMMAND [SUB] --help
 *
 * Exit status: 0 success; 1 the run failed (non-convergence the case does not allow, a failed
 * solve, an I/O error); 2 bad input (case, mesh, command line); 130 interrupted (SIGINT). */
#define _POSIX_C_SOURCE 200809L
#include "core/fc.h"
#include "cli/cli.h"
#include "mesh/mesh.h"
#include "fem/material.h"
#include "compliance/compliance.h"
#include "contact/solver.h"
#include "core/fsutil.h"
#include "core/mpienv.h"
#include "core/progress.h"
#include "io/output.h"
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* A copy of the environment as fcsim received it: MPI_Init (inside PetscInitialize) adds its
 * own variables (Open MPI's singleton sets OMPI_* and PMIX_*, naming this process's PMIx
 * server), and a run started by `study refine` must not inherit them: it is a separate MPI
 * job. NULL on allocation failure (the caller then reports it). */
static char **EnvCopy_Private(void)
{
  /* The levels run side by side on all cores: one BLAS/OpenMP thread per run, unless the user
   * chose otherwise, so that concurrent runs do not oversubscribe the cores (and their wall
   * times stay comparable). */
  static const char *const single[] = {"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1"};
  size_t                   n = 0, k = 0;
  char                   **e;
  while (environ && environ[n]) n++;
  if (!(e = calloc(n + 3, sizeof *e))) return NULL;
  for (size_t i = 0; i < n; i++)
    if (!(e[k++] = strdup(environ[i]))) {
      for (size_t j = 0; j < i; j++) free(e[j]);
      free(e);
      return NULL;
    }
  for (size_t v = 0; v < 2; v++) {
    const char *name = single[v];
    size_t      len  = strchr(name, '=') - name + 1;
    PetscBool   set  = PETSC_FALSE;
    for (size_t i = 0; i < n; i++)
      if (!strncmp(environ[i], name, len)) set = PETSC_TRUE;
    if (!set && !(e[k++] = strdup(name))) {
      for (size_t j = 0; j + 1 < k; j++) free(e[j]);
      free(e);
      return NULL;
    }
  }
  return e;
}

/* Interrupts (SIGINT, SIGTERM). Both are blocked in every thread fcsim starts (set before
 * PetscInitialize, so MPI's, Gmsh's and BLAS's threads inherit the mask) and caught by a handler
 * that only sets FcInterrupted and wakes this watchdog thread (sem_post is async-signal-safe):
 * the time loop, Newton and `study refine` poll FcInterrupted and the command stops by itself
 * (exit 130, its temporary folder removed). The watchdog is the one fcsim thread that leaves
 * them unblocked; a library thread that unblocks every signal for itself (Open MPI's isolated
 * singleton starts one) may take the signal instead, and the handler makes that the same. A
 * long phase that polls nothing (meshing a fine .geo inside Gmsh, a large factorization inside
 * MUMPS) cannot be stopped from inside: after FcInterruptGrace seconds the watchdog removes every
 * registered temporary folder itself and ends the process with _exit(130), so that an interrupt
 * always ends fcsim within a second or two and leaves nothing behind. */
static sigset_t watched;
static pid_t    watch_parent; /* the study that started this run (FCSIM_PARENT_PID), or 0 */
static int      watch_alive;  /* 1: started through a launcher (study --mpiexec): watch that the study lives */
static sem_t    wake;

static void OnInterrupt_Private(int sig)
{
  (void)sig;
  FcInterrupted = 1;
  (void)sem_post(&wake);
}

/* (Re)install the handler: PetscInitialize installs PETSc's own for SIGTERM. */
static int CatchInterrupts_Private(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = OnInterrupt_Private;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  return sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ? -1 : 0;
}

/* The signals PETSc's default handler takes (src/sys/error/signal.c), SIGTERM aside: it prints
 * where the crash happened and aborts. Set while PETSc is initialized, the default otherwise. */
static void OnCrash_Private(int sig)
{
  (void)PetscSignalHandlerDefault(sig, NULL);
  _exit(FC_EXIT_RUN);
}

static int CatchCrashes_Private(PetscBool on)
{
  static const int crash[] = {SIGBUS, SIGFPE, SIGHUP, SIGILL, SIGPIPE, SIGQUIT, SIGSEGV, SIGSYS, SIGTRAP, SIGURG};
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on ? OnCrash_Private : SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
    if (sigaction(crash[i], &sa, NULL)) return -1;
  return 0;
}

static void *Watchdog_Private(void *arg)
{
  (void)arg;
  (void)pthread_sigmask(SIG_UNBLOCK, &watched, NULL);
  /* Once a second: progress inside a long step (core/progress.h), until an interrupt wakes it.
   * EINTR: the handler ran on this thread and its post follows. */
  for (;;) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 1;
    if (!sem_timedwait(&wake, &ts)) break;
    const int err = errno;
    /* the study died: as an interrupt. A rank started by a launcher (study --mpiexec) has the
     * launcher as parent, which may outlive the study: it asks whether the study still exists. */
    if (watch_parent && (watch_alive ? kill(watch_parent, 0) && errno == ESRCH : getppid() != watch_parent)) break;
    if (err == ETIMEDOUT) FcProgressReport();
  }
  for (double t = 0; t < FcInterruptGrace; t += 0.01) {
    struct timespec ts = {0, 10000000};
    nanosleep(&ts, NULL);
  }
  {
    const char *done = FcOutDirAbandonAllForSignal();
    char        msg[PETSC_MAX_PATH_LEN + 128];
    int         n;
    FcMPIEnvCleanup();
    if (done) n = snprintf(msg, sizeof msg, "fcsim: interrupted after the results were complete: they are in %s\n", done);
    else n = snprintf(msg, sizeof msg, "fcsim: interrupted; nothing was kept (an earlier result in the target folder is as it was)\n");
    if (n > 0 && !FcInterruptReported) {
      ssize_t w = write(2, msg, (size_t)PetscMin(n, (int)sizeof msg - 1));
      (void)w;
    }
  }
  _exit(130);
  return NULL;
}

static int StartWatchdog_Private(void)
{
  pthread_t      t;
  pthread_attr_t at;
  int            rc;
  sigemptyset(&watched);
  sigaddset(&watched, SIGINT);
  sigaddset(&watched, SIGTERM);
  if (pthread_sigmask(SIG_BLOCK, &watched, NULL)) return -1;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  rc = pthread_create(&t, &at, Watchdog_Private, NULL);
  pthread_attr_destroy(&at);
  return rc ? -1 : 0;
}

/* PetscInitialize, whose errors come before fcsim's handler exists: PETSc would print them as a
 * traceback of a dozen lines (an -options_file that is not one: 13). Its printing is off while
 * it runs, and a failure is one line: an options file PETSc cannot read is bad input (exit 2),
 * anything else a failure (exit 1). */
static int Initialize_Private(FcCli *a)
{
  PetscErrorCode (*print)(const char[], ...) = PetscErrorPrintf;
  PetscErrorCode ierr;
  char          *specific = NULL;
  PetscBool      none     = PETSC_FALSE;

  PetscErrorPrintf = PetscErrorPrintfNone;
  ierr             = PetscInitialize(&a->pargc, &a->pargv, NULL, NULL);
  if (!ierr) {
    /* -error_output_none keeps PETSc quiet for good */
    if (!PetscOptionsHasName(NULL, NULL, "-error_output_none", &none) && !none) PetscErrorPrintf = print;
    return 0;
  }
  PetscErrorPrintf = print;
  (void)PetscErrorMessage(ierr, NULL, &specific);
  for (char *c = specific; c && *c; c++)
    if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
  if (specific && (strstr(specific, "options file") || strstr(specific, "-options_file"))) {
    fprintf(stderr, "command line: -options_file: %s\n", specific);
    return FC_EXIT_INPUT;
  }
  fprintf(stderr, "fcsim: error: PETSc could not start: %s\n", specific && specific[0] ? specific : "unknown error");
  return FC_EXIT_RUN;
}

int main(int argc, char **argv)
{
  FcCli          a;
  int            rc;
  PetscErrorCode ierr;
  PetscBool      ok = PETSC_FALSE;

  /* SIGINT/SIGTERM are fcsim's from the first line: one that comes before the watchdog thread
   * exists is kept (the flag, the semaphore) and acted on when it starts; before, the default
   * action ended a run that was starting without a word (exit -2) */
  if (sem_init(&wake, 0, 0) || CatchInterrupts_Private()) {
    fprintf(stderr, "fcsim: cannot install the interrupt handler\n");
    return FC_EXIT_RUN;
  }
  rc = FcCliParse(argc, argv, &a);
  if (rc) {
    FcCliFree(&a);
    return rc < 0 ? FC_EXIT_OK : rc;
  }
  if (FcCliNeedsEnvironment(&a) && !(a.envp = EnvCopy_Private())) {
    fprintf(stderr, "fcsim: out of memory\n");
    return FC_EXIT_RUN;
  }
  /* Open MPI's start-up for a plain process (core/mpienv.h), after the environment was copied
   * for study refine's runs (each prepares its own) and before any thread exists (setenv). */
  FcMPIEnvPrepare();
  {
    /* A run started by `study refine` dies with the study (an interrupt: its temporary folder
     * removed), even when the study is killed with SIGKILL (src/study/refine.c): the watchdog
     * sees the parent change. Not PR_SET_PDEATHSIG: its signal went to the main thread, where
     * SIGINT/SIGTERM are blocked (the watchdog takes them), and stayed pending for ever. */
    const char *pp = getenv("FCSIM_PARENT_PID");
    if (pp) {
      watch_parent = (pid_t)strtol(pp, NULL, 10);
      watch_alive  = getppid() != watch_parent;
      (void)unsetenv("FCSIM_PARENT_PID");
    }
  }
  if (StartWatchdog_Private()) {
    fprintf(stderr, "fcsim: cannot start the interrupt watchdog thread\n");
    return FC_EXIT_RUN;
  }
  /* PETSc's signal handling would take SIGTERM, and PetscFinalize resets every signal it took to
   * the default before MPI_Finalize: a SIGTERM in those milliseconds, after the results were in
   * place, killed fcsim without a word (Open MPI's isolated singleton keeps a thread with every
   * signal unblocked, which takes it). So PETSc installs none (-no_signal_handler, cleared from
   * the options once read so that run.h5 records the user's own), and fcsim installs PETSc's
   * default handler for the crash signals itself, SIGINT/SIGTERM staying its own throughout. */
  (void)PetscOptionsSetValue(NULL, "-no_signal_handler", NULL);
  if ((rc = Initialize_Private(&a))) {
    FcCliFree(&a);
    return rc;
  }
  if (PetscOptionsClearValue(NULL, "-no_signal_handler") || CatchInterrupts_Private() || CatchCrashes_Private(PETSC_TRUE)) {
    fprintf(stderr, "fcsim: cannot install the signal handlers\n");
    return FC_EXIT_RUN;
  }
  /* A file-size limit (ulimit -f) or a full disk must be a failed write that fcsim reports, not
   * a kill by SIGXFSZ. */
  signal(SIGXFSZ, SIG_IGN);
  ierr = FcPushErrorHandler();
  {
    /* fcsim's own -fc_mesh_* options (src/cli/cli.c) stay in PETSc's list only to reach study
     * refine's runs: marked as used, so that -options_left does not call them unused */
    static const char *const own[] = {"-fc_mesh_timeout", "-fc_mesh_geo_unsandboxed", "-fc_mesh_skip_script_check"};
    PetscBool                set;
    for (size_t k = 0; !ierr && k < sizeof own / sizeof own[0]; k++) ierr = PetscOptionsHasName(NULL, NULL, own[k], &set);
  }
  /* what the user gave PETSc and nothing used yet: a run warns about what stayed unused (fc.h) */
  if (!ierr) ierr = FcOptionsRecordUser(a.pargc, a.pargv);
  if (!ierr) ierr = FcCliExecute(&a, &ok);
  (void)FcMeshFinalizePackage();
  (void)FcMaterialFinalizePackage();
  (void)FcContactSolverFinalizePackage();
  (void)FcComplianceFinalizePackage();
  (void)PetscPopErrorHandler();
  if (FcInterrupted) {
    /* An interrupt the command did not stop at (it came during the commit or after): say what
     * is where. One it stopped at was reported by the error handler (PETSC_ERR_SIG). */
    FcInterruptReported = 1;
    if (ierr != PETSC_ERR_SIG && FcOutDirCommitted())
      fprintf(stderr, "fcsim: interrupted after the results were complete: they are in %s\n", FcOutDirCommitted());
    else if (!ierr) fprintf(stderr, "fcsim: interrupted; nothing was kept (an earlier result in the target folder is as it was)\n");
    rc = 130;
  } else if (ierr == FC_ERR_INPUT) rc = FC_EXIT_INPUT;
  else if (ierr || !ok) rc = FC_EXIT_RUN;
  else rc = FC_EXIT_OK;
  if (FcOutputHDF5Unusable()) {
    /* HDF5 1.10 crashes finalizing a file whose close failed (src/io/output.c): the error is
     * reported and the temporary folder removed already; end without finalizing. */
    fflush(stdout);
    fflush(stderr);
    FcMPIEnvCleanup();
    _exit(rc ? rc : FC_EXIT_RUN);
  }
  (void)CatchCrashes_Private(PETSC_FALSE); /* PETSc's handler needs PETSc */
  if (PetscFinalize()) rc = rc ? rc : FC_EXIT_RUN;
  FcCliFree(&a);
  return rc;
}
