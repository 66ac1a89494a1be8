/* fcsim — command-line entry.
 *
 *   fcsim run  CASE.json [--set PATH=VALUE]... [-o OUTDIR] [-q] [PETSc options]
 *   fcsim info CASE.json [--set PATH=VALUE]...
 *   fcsim fclib solve|compare ..., fcsim study compare|refine ..., fcsim trajectory check ... (usage below)
 *   fcsim --help | --version
 *
 * Exit status: 0 success; 1 the run failed (non-convergence the case does not allow, a failed
 * solve, an I/O error); 2 bad input (case, mesh, command line); 130 interrupted (SIGINT). */
#define _POSIX_C_SOURCE 200809L
#include "core/fc.h"
#include "case/case.h"
#include "mesh/mesh.h"
#include "fem/material.h"
#include "step/step.h"
#include "compliance/compliance.h"
#include "run/run.h"
#include "fclib/fclib_cmd.h"
#include "study/compare.h"
#include "study/refine.h"
#include "contact/solver.h"
#include "core/fsutil.h"
#include "core/mpienv.h"
#include "core/progress.h"
#include "io/output.h"
#include "io/trajectory.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/prctl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
  "usage: fcsim run  CASE.json [--set PATH=VALUE]... [-o OUTDIR [--overwrite]] [--force] [-q] [PETSc options]\n"
  "       fcsim info CASE.json [--set PATH=VALUE]... [--force]\n"
  "       fcsim fclib solve FILE.hdf5 [--solver nsgs] [--tol T] [--max-it N] [--form local|global]\n"
  "                         [--accept-regularized] [-o SOLUTION.hdf5 [--overwrite]] [-v]\n"
  "       fcsim fclib compare FILE.hdf5... [--solvers nsgs,lemke:k=8,...] [--tol T] [--max-it N]\n"
  "                           [--accept-regularized] [--format table|csv|markdown] [-v]\n"
  "       fcsim study compare CASE.json --solvers nsgs,lemke,... [--set PATH=VALUE]... [-o DIR [--overwrite]]\n"
  "       fcsim study refine CASE.json --levels 0,1,2,3 [--bodies A,B] [--reference FILE.csv]\n"
  "                          [--scale-x S] [--scale-y S] [--quantity COLUMN] [-j N]\n"
  "                          [--set PATH=VALUE]... [-o DIR [--overwrite]] [-q] [PETSc options]\n"
  "       fcsim trajectory check LOG --format fcsim|openhaptics|ros_pose|ros_jointstate [--units m|mm]\n"
  "                              [--rate HZ] [--t-end T] [--window T0,T1]\n"
  "       fcsim --help | --version\n"
  "\n"
  "  run     run the case; outputs go to OUTDIR (default <output.dir>/<name>/<run id>/),\n"
  "          written under a temporary name and renamed when the run completes\n"
  "  info    print the resolved case (every key, defaults filled in) and mesh statistics\n"
  "  fclib solve  solve the local contact problem of an FCLIB file (a global one is\n"
  "          reformulated) and print contacts, iterations, common error, time\n"
  "  fclib compare  every problem with every solver (type:key=value sets a type option):\n"
  "          iterations, common error, time, converged, delta% against the most accurate\n"
  "  study compare  run a contact case once per solver; DIR/compare.csv and compare.md list\n"
  "          contact iterations, common error and time per step and the probe differences\n"
  "  study refine  run a case once per mesh refinement level (bodies[i].mesh.refine = L for\n"
  "          every deformable body, or those of --bodies), N runs at once (-j, default: the\n"
  "          number of processors); DIR/study.csv and study.md list DoFs, elements, wall\n"
  "          time, the errors against the reference curve (--reference: '#' comment lines,\n"
  "          a header X,Y naming probe columns, then x,y rows; --scale-x/-y multiply the\n"
  "          run's columns), the observed order and the Richardson-extrapolated quantity;\n"
  "          DIR defaults to <output.dir>/<name>/refine_<date-time>; see doc/study.md\n"
  "  trajectory check  load and validate a device log (doc/trajectory.md): a summary as '#'\n"
  "          lines and, with --rate, the log resampled at HZ in the fcsim format; --t-end: the\n"
  "          log must last that long; --window: keep the samples of [T0, T1] s only\n"
  "  --set PATH=VALUE   override a case value by JSON path, e.g. --set bodies[0].material.E=2e6\n"
  "                     --set time.dt=0.01 (VALUE is JSON, or a plain string)\n"
  "  -o OUTDIR          output directory; fcsim replaces only a folder it wrote itself (or an\n"
  "                     empty one), never a file, and keeps a failed run in OUTDIR.failed-<pid>\n"
  "  --overwrite        with -o: also replace a folder fcsim did not write (never a file)\n"
  "  --accept-regularized  fclib: a regularized solver's answer (sap) whose common error is above\n"
  "                     --tol counts as converged up to 1e-2 (-fc_contact_solver_accept_regularized E)\n"
  "  --force            run (or show) a case whose size estimate exceeds this machine: memory,\n"
  "                     free disk space of the output folder, or 30 days at the least\n"
  "  -q                 no progress lines\n"
  "  -v                 more detail: for FCLIB files, one line per matrix saying how it is stored\n"
  "                     (compressed columns or rows, or triplets and which convention was detected)\n"
  "  -fc_debug          PETSc's traceback with every error (otherwise one line)\n"
  "  -fc_mesh_timeout S  a .geo script is meshed in a sandboxed process, stopped after S seconds\n"
  "                     (default 300; doc/mesh.md, \"The sandbox\")\n"
  "  -fc_mesh_geo_unsandboxed  run .geo scripts inside fcsim, without the sandbox (only where\n"
  "                     none can be set up: a script may then run commands and write files)\n"
  "  PETSc options      passed to PETSc (they override the case's \"petsc\" object), e.g.\n"
  "                     -ksp_type cg -pc_type gamg, -log_view, -options_left; options with a\n"
  "                     value go after CASE.json\n"
  "exit status: 0 success, 1 run failed, 2 bad input, 130 interrupted\n";

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
  size_t n = 0, k = 0;
  char **e;
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

static void EnvFree_Private(char **e)
{
  for (size_t i = 0; e && e[i]; i++) free(e[i]);
  free(e);
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
    if (errno == ETIMEDOUT) FcProgressReport();
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
    if (n > 0) {
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
  if (sem_init(&wake, 0, 0) || pthread_sigmask(SIG_BLOCK, &watched, NULL) || CatchInterrupts_Private()) return -1;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  rc = pthread_create(&t, &at, Watchdog_Private, NULL);
  pthread_attr_destroy(&at);
  return rc ? -1 : 0;
}

typedef struct {
  const char  *cmd, *casefile, *outdir;
  const char  *solver;   /* fclib solve */
  PetscBool    accept_regularized; /* fclib: --accept-regularized */
  const char  *solvers, *format; /* fclib compare */
  const char  *sub;      /* fclib / study subcommand */
  const char  *levels, *bodies, *reference, *quantity; /* study refine */
  FcTrajectoryOptions traj; /* trajectory check */
  double       rate;
  double       scale_x, scale_y;
  long         jobs;
  int          nfiles;
  const char **files;
  PetscBool    overwrite; /* --overwrite */
  PetscBool    force;     /* --force: run what the size estimate refuses */
  double       tol;
  long         max_it;
  int          nsets;
  const char **sets;
  int          pargc;
  char       **pargv;
  char        *cmdline;
} Args;

/* Our own arguments are taken out; everything else that starts with '-' is a PETSc option
 * (with its value when the next word does not start with '-'). */
static int ParseArgs(int argc, char **argv, Args *a)
{
  size_t len = 1;
  memset(a, 0, sizeof *a);
  a->sets  = calloc((size_t)argc, sizeof *a->sets);
  a->files = calloc((size_t)argc, sizeof *a->files);
  a->pargv = calloc((size_t)argc + 1, sizeof *a->pargv);
  for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
  a->cmdline = calloc(len, 1);
  if (!a->sets || !a->files || !a->pargv || !a->cmdline) return FC_EXIT_RUN;
  for (int i = 0; i < argc; i++) {
    if (i) strcat(a->cmdline, " ");
    strcat(a->cmdline, argv[i]);
  }
  a->pargv[a->pargc++] = argv[0];
  if (argc < 2) {
    fprintf(stderr, "fcsim: command line: missing command: fcsim run|info CASE.json, fcsim fclib|study|trajectory ... (fcsim --help for all)\n");
    return FC_EXIT_INPUT;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    fputs(usage, stdout);
    return -1;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("fcsim %s\n", FcVersion());
    return -1;
  }
  if (strcmp(argv[1], "run") && strcmp(argv[1], "info") && strcmp(argv[1], "fclib") && strcmp(argv[1], "study") && strcmp(argv[1], "trajectory")) {
    fprintf(stderr, "fcsim: command line: unknown command '%s' (expected run, info, fclib, study, trajectory, --help, --version)\n", argv[1]);
    return FC_EXIT_INPUT;
  }
  a->cmd    = argv[1];
  a->tol    = -1;
  a->max_it = -1;
  int first = 2;
  if (!strcmp(a->cmd, "fclib")) {
    if (argc < 3 || (strcmp(argv[2], "solve") && strcmp(argv[2], "compare"))) {
      fprintf(stderr, "fcsim: command line: fclib needs a subcommand: fclib solve FILE.hdf5 | fclib compare FILE...\n");
      return FC_EXIT_INPUT;
    }
    a->sub = argv[2];
    first  = 3;
  }
  if (!strcmp(a->cmd, "study")) {
    if (argc < 3 || (strcmp(argv[2], "compare") && strcmp(argv[2], "refine"))) {
      fprintf(stderr, "fcsim: command line: study needs a subcommand: study compare CASE.json --solvers A,B,... | study refine CASE.json --levels 0,1,2\n");
      return FC_EXIT_INPUT;
    }
    a->sub = argv[2];
    first  = 3;
  }
  if (!strcmp(a->cmd, "trajectory")) {
    if (argc < 3 || strcmp(argv[2], "check")) {
      fprintf(stderr, "fcsim: command line: trajectory needs a subcommand: trajectory check LOG --format F\n");
      return FC_EXIT_INPUT;
    }
    a->sub = argv[2];
    first  = 3;
  }
  for (int i = first; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(a->cmd, "trajectory") && (!strcmp(s, "--format") || !strcmp(s, "--units") || !strcmp(s, "--rate") || !strcmp(s, "--t-end") || !strcmp(s, "--window"))) {
      char  *end = NULL;
      double v   = 0, w = 0;
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
        return FC_EXIT_INPUT;
      }
      i++;
      if (!strcmp(s, "--format")) a->traj.format = argv[i];
      else if (!strcmp(s, "--units")) a->traj.units = argv[i];
      else if (!strcmp(s, "--window")) {
        v = strtod(argv[i], &end);
        if (*end == ',') w = strtod(end + 1, &end);
        if (*end || !strchr(argv[i], ',') || !isfinite(v) || !isfinite(w) || !(w > v)) {
          fprintf(stderr, "fcsim: command line: --window %s: must be T0,T1 with T0 < T1 (seconds from the log's first sample)\n", argv[i]);
          return FC_EXIT_INPUT;
        }
        a->traj.window  = PETSC_TRUE;
        a->traj.t_begin = (PetscReal)v;
        a->traj.t_end   = (PetscReal)w;
      } else {
        v = strtod(argv[i], &end);
        if (*end || !argv[i][0] || !isfinite(v) || !(v > 0)) {
          fprintf(stderr, "fcsim: command line: %s %s: must be a finite positive number\n", s, argv[i]);
          return FC_EXIT_INPUT;
        }
        if (!strcmp(s, "--rate")) a->rate = v;
        else a->traj.t_required = (PetscReal)v;
      }
    } else if (!strcmp(a->cmd, "study") && !strcmp(s, "--solvers")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
        return FC_EXIT_INPUT;
      }
      if (strcmp(a->sub, "compare")) {
        fprintf(stderr, "fcsim: command line: %s belongs to study compare\n", s);
        return FC_EXIT_INPUT;
      }
      a->solvers = argv[++i];
    } else if (!strcmp(a->cmd, "study") && (!strcmp(s, "--levels") || !strcmp(s, "--bodies") || !strcmp(s, "--reference") || !strcmp(s, "--quantity") || !strcmp(s, "--scale-x") || !strcmp(s, "--scale-y") || !strcmp(s, "-j"))) {
      char *end = NULL;
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
        return FC_EXIT_INPUT;
      }
      if (strcmp(a->sub, "refine")) {
        fprintf(stderr, "fcsim: command line: %s belongs to study refine\n", s);
        return FC_EXIT_INPUT;
      }
      i++;
      if (!strcmp(s, "--levels")) a->levels = argv[i];
      else if (!strcmp(s, "--bodies")) a->bodies = argv[i];
      else if (!strcmp(s, "--reference")) a->reference = argv[i];
      else if (!strcmp(s, "--quantity")) a->quantity = argv[i];
      else if (!strcmp(s, "-j")) {
        errno   = 0;
        a->jobs = strtol(argv[i], &end, 10);
        if (*end || !argv[i][0] || errno || a->jobs < 1 || a->jobs > 1024) {
          fprintf(stderr, "fcsim: command line: -j %s: must be an integer in [1, 1024]\n", argv[i]);
          return FC_EXIT_INPUT;
        }
      } else {
        double v = strtod(argv[i], &end);
        if (*end || !argv[i][0] || !isfinite(v) || v == 0) {
          fprintf(stderr, "fcsim: command line: %s %s: must be a finite non-zero number\n", s, argv[i]);
          return FC_EXIT_INPUT;
        }
        if (!strcmp(s, "--scale-x")) a->scale_x = v;
        else a->scale_y = v;
      }
    } else if (!strcmp(a->cmd, "fclib") && (!strcmp(s, "--solvers") || !strcmp(s, "--format"))) {
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
        return FC_EXIT_INPUT;
      }
      if (strcmp(a->sub, "compare")) {
        fprintf(stderr, "fcsim: command line: %s belongs to fclib compare\n", s);
        return FC_EXIT_INPUT;
      }
      if (!strcmp(s, "--solvers")) a->solvers = argv[++i];
      else a->format = argv[++i];
    } else if (!strcmp(a->cmd, "fclib") && !strcmp(s, "--form")) {
      /* local | global: which FCLIB form sap solves (checked in src/fclib/fclib_cmd.c) */
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
        return FC_EXIT_INPUT;
      }
      if (!a->sub || strcmp(a->sub, "solve")) {
        fprintf(stderr, "fcsim: command line: --form belongs to fclib solve\n");
        return FC_EXIT_INPUT;
      }
      a->pargv[a->pargc++] = (char *)"-fc_fclib_form";
      a->pargv[a->pargc++] = argv[++i];
    } else if (!strcmp(a->cmd, "fclib") && !strcmp(s, "--accept-regularized")) {
      a->accept_regularized = PETSC_TRUE; /* checked against the solver in src/fclib/fclib_cmd.c */
    } else if (!strcmp(a->cmd, "fclib") && (!strcmp(s, "--solver") || !strcmp(s, "--tol") || !strcmp(s, "--max-it"))) {
      char *end = NULL;
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
        return FC_EXIT_INPUT;
      }
      i++;
      if (!strcmp(s, "--solver")) a->solver = argv[i];
      else if (!strcmp(s, "--tol")) {
        a->tol = strtod(argv[i], &end);
        if (*end || !argv[i][0] || !isfinite(a->tol) || !(a->tol > 0)) {
          fprintf(stderr, "fcsim: command line: --tol %s: must be a finite positive number\n", argv[i]);
          return FC_EXIT_INPUT;
        }
      } else {
        /* an iteration count is a PetscInt: a value past PETSC_MAX_INT (or past long, ERANGE)
         * would wrap around when converted, and a wrapped count is not what the user asked */
        errno     = 0;
        a->max_it = strtol(argv[i], &end, 10);
        if (*end || !argv[i][0] || errno || a->max_it < 1 || a->max_it > PETSC_MAX_INT) {
          fprintf(stderr, "fcsim: command line: --max-it %s: must be an integer in [1, %d]\n", argv[i], (int)PETSC_MAX_INT);
          return FC_EXIT_INPUT;
        }
      }
    } else if (strcmp(a->cmd, "fclib") && !strcmp(s, "--set")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: --set needs PATH=VALUE\n");
        return FC_EXIT_INPUT;
      }
      a->sets[a->nsets++] = argv[++i];
    } else if (strcmp(a->cmd, "fclib") && !strncmp(s, "--set=", 6)) {
      a->sets[a->nsets++] = s + 6;
    } else if (!strcmp(s, "-o")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: -o needs a directory\n");
        return FC_EXIT_INPUT;
      }
      if (!strcmp(a->cmd, "info") || (!strcmp(a->cmd, "fclib") && !strcmp(a->sub, "compare"))) {
        fprintf(stderr, "fcsim: command line: -o: fcsim %s%s%s writes no output\n", a->cmd, a->sub ? " " : "", a->sub ? a->sub : "");
        return FC_EXIT_INPUT;
      }
      a->outdir = argv[++i];
    } else if (!strcmp(s, "--overwrite")) {
      if (!strcmp(a->cmd, "info") || (a->sub && !strcmp(a->sub, "compare") && !strcmp(a->cmd, "fclib"))) {
        fprintf(stderr, "fcsim: command line: --overwrite goes with -o (run, study, fclib solve)\n");
        return FC_EXIT_INPUT;
      }
      a->overwrite = PETSC_TRUE;
    } else if (!strcmp(s, "--force")) {
      if (strcmp(a->cmd, "run") && strcmp(a->cmd, "info") && strcmp(a->cmd, "study")) {
        fprintf(stderr, "fcsim: command line: --force belongs to run, info and study (the size estimate of a case)\n");
        return FC_EXIT_INPUT;
      }
      a->force = PETSC_TRUE;
    } else if (!strcmp(s, "-q")) {
      FcVerbosity = 0;
    } else if (!strcmp(s, "-v")) {
      FcVerbosity = 2;
    } else if (!strcmp(s, "-fc_mesh_timeout")) {
      /* fcsim's own (doc/mesh.md, "The sandbox"): read here, never from a case's "petsc"
       * object; also passed on to PETSc's list, so that study refine's runs get them */
      char  *end = NULL;
      double v;
      if (i + 1 >= argc) {
        fprintf(stderr, "fcsim: command line: %s needs a number of seconds\n", s);
        return FC_EXIT_INPUT;
      }
      v = strtod(argv[i + 1], &end);
      if (*end || !argv[i + 1][0] || !isfinite(v) || !(v > 0) || v > 1e7) {
        fprintf(stderr, "fcsim: command line: %s %s: must be a number of seconds in (0, 1e7]\n", s, argv[i + 1]);
        return FC_EXIT_INPUT;
      }
      FcMeshGeo.timeout    = v;
      a->pargv[a->pargc++] = argv[i];
      a->pargv[a->pargc++] = argv[++i];
    } else if (!strcmp(s, "-fc_mesh_geo_unsandboxed") || !strcmp(s, "-fc_mesh_skip_script_check")) {
      if (!strcmp(s, "-fc_mesh_geo_unsandboxed")) FcMeshGeo.unsandboxed = PETSC_TRUE;
      else FcMeshGeo.skip_script_check = PETSC_TRUE;
      a->pargv[a->pargc++] = argv[i];
    } else if (!strncmp(s, "--", 2)) {
      fprintf(stderr, "fcsim: command line: unknown option '%s' (see fcsim --help)\n", s);
      return FC_EXIT_INPUT;
    } else if (s[0] == '-' && s[1]) {
      /* A PETSc option takes the next word as its value when that word does not start with
       * '-'; before the case file is seen the next word is the case file, so PETSc options
       * written before CASE.json are flags. */
      a->pargv[a->pargc++] = argv[i];
      if (a->casefile && i + 1 < argc && argv[i + 1][0] != '-') a->pargv[a->pargc++] = argv[++i];
    } else if (!a->casefile) {
      a->casefile            = s;
      a->files[a->nfiles++] = s;
    } else if (!strcmp(a->cmd, "fclib") && !strcmp(a->sub, "compare")) {
      a->files[a->nfiles++] = s;
    } else {
      fprintf(stderr, "fcsim: command line: unexpected argument '%s' (one case file only)\n", s);
      return FC_EXIT_INPUT;
    }
  }
  if (!a->casefile) {
    fprintf(stderr, "fcsim: command line: missing %s\n", !strcmp(a->cmd, "trajectory") ? "LOG" : strcmp(a->cmd, "fclib") ? "CASE.json" : "FILE.hdf5");
    return FC_EXIT_INPUT;
  }
  if (!strcmp(a->cmd, "trajectory") && (a->nsets || a->outdir || a->overwrite)) {
    fprintf(stderr, "fcsim: command line: trajectory check takes no --set, -o or --overwrite (it prints to stdout)\n");
    return FC_EXIT_INPUT;
  }
  if (!strcmp(a->cmd, "trajectory") && !a->traj.format) {
    fprintf(stderr, "fcsim: command line: trajectory check needs --format (fcsim, openhaptics, ros_pose, ros_jointstate)\n");
    return FC_EXIT_INPUT;
  }
  if (a->sub && !strcmp(a->cmd, "study") && !strcmp(a->sub, "refine") && !a->levels) {
    fprintf(stderr, "fcsim: command line: study refine needs --levels, e.g. --levels 0,1,2\n");
    return FC_EXIT_INPUT;
  }
  return 0;
}

static PetscErrorCode Main(Args *a, char **envp, PetscBool *ok)
{
  FcCase         c;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  {
    /* Assembly, the contact step and the output are written for one process: under mpiexec
     * every rank would compute the whole case on its own and report nonsense (a linear case
     * "not converged", one output folder per rank). Refused before anything is read, with one
     * line from rank 0, until distributed runs exist (README, "MPI"). */
    PetscMPIInt size, rank;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    if (size > 1) {
      if (rank) PetscFunctionReturn(FC_ERR_INPUT);
      return FcInputError("command line", "mpiexec", "fcsim runs as one process today, and %d were started: distributed runs are planned (README, \"MPI\"); run it without mpiexec", (int)size);
    }
  }
  PetscCall(PetscMemzero(&c, sizeof c));
  if (!strcmp(a->cmd, "trajectory")) return FcTrajectoryCheck(a->casefile, &a->traj, (PetscReal)a->rate);
  PetscCall(FcMaterialRegisterAll());
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(FcComplianceRegisterAll());
  if (!strcmp(a->cmd, "study") && !strcmp(a->sub, "refine")) {
    FcStudyRefineOptions o = {.casefile = a->casefile, .nsets = a->nsets, .sets = a->sets, .levels = a->levels, .bodies = a->bodies, .reference = a->reference, .scale_x = (PetscReal)a->scale_x, .scale_y = (PetscReal)a->scale_y, .quantity = a->quantity, .jobs = (PetscInt)a->jobs, .outdir = a->outdir, .overwrite = a->overwrite, .force = a->force, .command_line = a->cmdline, .npetsc = a->pargc - 1, .petsc = (const char *const *)a->pargv + 1, .envp = (const char *const *)envp};
    return FcStudyRefine(&o, ok);
  }
  if (!strcmp(a->cmd, "study")) {
    FcStudyCompareOptions o = {.casefile = a->casefile, .nsets = a->nsets, .sets = a->sets, .solvers = a->solvers, .outdir = a->outdir, .command_line = a->cmdline, .overwrite = a->overwrite, .force = a->force};
    return FcStudyCompare(&o, ok);
  }
  if (!strcmp(a->cmd, "fclib") && !strcmp(a->sub, "compare")) {
    FcFCLIBCompareOptions o = {a->nfiles, a->files, a->solvers, a->tol > 0 ? (PetscReal)a->tol : PETSC_DEFAULT, a->max_it > 0 ? (PetscInt)a->max_it : PETSC_DEFAULT, a->format, a->accept_regularized};
    return FcFCLIBCompare(&o, ok);
  }
  if (!strcmp(a->cmd, "fclib")) {
    FcFCLIBSolveOptions o = {.file = a->casefile, .solver = a->solver, .tol = a->tol > 0 ? (PetscReal)a->tol : PETSC_DEFAULT, .max_it = a->max_it > 0 ? (PetscInt)a->max_it : PETSC_DEFAULT, .out = a->outdir, .overwrite = a->overwrite, .accept_regularized = a->accept_regularized};
    return FcFCLIBSolve(&o, ok);
  }
  ierr = FcCaseLoad(a->casefile, a->nsets, a->sets, &c);
  if (!ierr) ierr = FcCaseInsertOptions(&c);
  if (!ierr) {
    if (!strcmp(a->cmd, "info")) ierr = FcInfo(&c, a->force);
    else {
      FcRunOptions o = {.outdir = a->outdir, .command_line = a->cmdline, .overwrite = a->overwrite, .force = a->force};
      ierr           = FcRun(&c, &o, ok);
    }
  }
  (void)FcCaseDestroy(&c);
  return ierr;
}

int main(int argc, char **argv)
{
  Args           a;
  int            rc = ParseArgs(argc, argv, &a);
  PetscErrorCode ierr;
  PetscBool      ok   = PETSC_FALSE;
  char         **envp = NULL;

  if (rc) {
    free(a.sets);
    free(a.files);
    free(a.pargv);
    free(a.cmdline);
    return rc < 0 ? FC_EXIT_OK : rc;
  }
  if (!strcmp(a.cmd, "study") && !strcmp(a.sub, "refine") && !(envp = EnvCopy_Private())) {
    fprintf(stderr, "fcsim: out of memory\n");
    return FC_EXIT_RUN;
  }
  /* Open MPI's start-up for a plain process (core/mpienv.h), after the environment was copied
   * for study refine's runs (each prepares its own) and before any thread exists (setenv). */
  FcMPIEnvPrepare();
  if (StartWatchdog_Private()) {
    fprintf(stderr, "fcsim: cannot start the interrupt watchdog thread\n");
    return FC_EXIT_RUN;
  }
  {
    /* A run started by `study refine` dies with the study (SIGTERM: an interrupt, its temporary
     * folder removed), even when the study is killed with SIGKILL (src/study/refine.c). */
    const char *pp = getenv("FCSIM_PARENT_PID");
    if (pp) {
      const long parent = strtol(pp, NULL, 10);
      (void)unsetenv("FCSIM_PARENT_PID");
      /* the study may be gone already: SIGTERM to the process, not raise()'s to this thread,
       * which blocks it (the watchdog thread takes it) */
      if (prctl(PR_SET_PDEATHSIG, SIGTERM) || (long)getppid() != parent) (void)kill(getpid(), SIGTERM);
    }
  }
  /* PETSc's signal handling would take SIGTERM, and PetscFinalize resets every signal it took to
   * the default before MPI_Finalize: a SIGTERM in those milliseconds, after the results were in
   * place, killed fcsim without a word (Open MPI's isolated singleton keeps a thread with every
   * signal unblocked, which takes it). So PETSc installs none (-no_signal_handler, cleared from
   * the options once read so that run.h5 records the user's own), and fcsim installs PETSc's
   * default handler for the crash signals itself, SIGINT/SIGTERM staying its own throughout. */
  (void)PetscOptionsSetValue(NULL, "-no_signal_handler", NULL);
  ierr = PetscInitialize(&a.pargc, &a.pargv, NULL, NULL);
  if (ierr) return FC_EXIT_RUN;
  if (PetscOptionsClearValue(NULL, "-no_signal_handler") || CatchInterrupts_Private() || CatchCrashes_Private(PETSC_TRUE)) {
    fprintf(stderr, "fcsim: cannot install the signal handlers\n");
    return FC_EXIT_RUN;
  }
  /* A file-size limit (ulimit -f) or a full disk must be a failed write that fcsim reports, not
   * a kill by SIGXFSZ. */
  signal(SIGXFSZ, SIG_IGN);
  ierr = FcPushErrorHandler();
  {
    /* fcsim's own -fc_mesh_* options (ParseArgs) stay in PETSc's list only to reach study
     * refine's runs: marked as used, so that -options_left does not call them unused */
    static const char *const own[] = {"-fc_mesh_timeout", "-fc_mesh_geo_unsandboxed", "-fc_mesh_skip_script_check"};
    PetscBool                set;
    for (size_t k = 0; !ierr && k < sizeof own / sizeof own[0]; k++) ierr = PetscOptionsHasName(NULL, NULL, own[k], &set);
  }
  if (!ierr) ierr = Main(&a, envp, &ok);
  (void)FcMeshFinalizePackage();
  (void)FcMaterialFinalizePackage();
  (void)FcContactSolverFinalizePackage();
  (void)FcComplianceFinalizePackage();
  (void)PetscPopErrorHandler();
  if (FcInterrupted) {
    /* An interrupt the command did not stop at (it came during the commit or after): say what
     * is where. One it stopped at was reported by the error handler (PETSC_ERR_SIG). */
    if (ierr != PETSC_ERR_SIG && FcOutDirCommitted()) fprintf(stderr, "fcsim: interrupted after the results were complete: they are in %s\n", FcOutDirCommitted());
    else if (!ierr) fprintf(stderr, "fcsim: interrupted; nothing was kept (an earlier result in the target folder is as it was)\n");
    rc = 130;
  }
  else if (ierr == FC_ERR_INPUT) rc = FC_EXIT_INPUT;
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
  free(a.sets);
  free(a.files);
  free(a.pargv);
  free(a.cmdline);
  EnvFree_Private(envp);
  return rc;
}
