/* fcsim — a study's runs as separate fcsim processes (jobs.h). Moved out of refine.c so that
 * `study compare` starts, polls and stops its runs the same way. */
#define _XOPEN_SOURCE 700
#include "jobs.h"
#include "../core/fsutil.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double Now_Private(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void Sleep_Private(double s)
{
  struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
  (void)nanosleep(&ts, NULL);
}

/* Whether `cmd` names an executable file: as a path when it has a '/', else in PATH (as
 * posix_spawnp will search it). */
static PetscBool Executable_Private(const char *cmd)
{
  const char *path = getenv("PATH");
  char        buf[PETSC_MAX_PATH_LEN];

  if (strchr(cmd, '/')) return (PetscBool)(access(cmd, X_OK) == 0);
  for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
    size_t n = strcspn(p, ":");
    if (n && n + strlen(cmd) + 2 < sizeof buf) {
      memcpy(buf, p, n);
      buf[n] = '/';
      strcpy(buf + n + 1, cmd);
      if (access(buf, X_OK) == 0) return PETSC_TRUE;
    }
    p += n + (p[n] == ':');
  }
  return PETSC_FALSE;
}

/* --mpiexec "mpiexec -n 2": its words, at blanks (no quoting: a launcher's options have none) */
static PetscErrorCode Launcher_Private(const char *mpiexec, FcStudyExec *x)
{
  char          *p;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  if (!mpiexec) PetscFunctionReturn(0);
  PetscCall(PetscStrallocpy(mpiexec, &x->launchbuf));
  for (p = strtok(x->launchbuf, " \t"); p && x->nlaunch < FC_STUDY_MAX_LAUNCH; p = strtok(NULL, " \t")) x->launch[x->nlaunch++] = p;
  if (p) ierr = FcInputError("command line", "--mpiexec", "'%s': at most %d words", mpiexec, FC_STUDY_MAX_LAUNCH);
  else if (!x->nlaunch) ierr = FcInputError("command line", "--mpiexec", "'%s': the launcher is empty (e.g. --mpiexec \"mpiexec -n 2\")", mpiexec);
  else if (!Executable_Private(x->launch[0])) ierr = FcInputError("command line", "--mpiexec", "'%s': no executable '%s' (searched in PATH)", mpiexec, x->launch[0]);
  if (ierr) { /* an input error leaves nothing behind */
    PetscCall(PetscFree(x->launchbuf));
    x->nlaunch = 0;
  }
  return ierr;
}

PetscErrorCode FcStudyExecInit(const char *what, const char *const *envp, const char *mpiexec, FcStudyExec *x)
{
  PetscMPIInt size;
  ssize_t     n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(x, sizeof *x));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  FcCheckInput(size == 1, "command line", what, "starts one fcsim process per run itself: run it as one process (without mpiexec)");
  for (const char *const *e = envp; e && *e; e++)
    FcCheckInput(strncmp(*e, "OMPI_COMM_WORLD_SIZE=", 21) && strncmp(*e, "PMI_RANK=", 9) && strncmp(*e, "PMIX_RANK=", 10), "command line", what, "starts one fcsim process per run itself: run it without mpiexec");
  n = readlink("/proc/self/exe", x->exe, sizeof x->exe - 1);
  PetscCheck(n > 0 && (size_t)n < sizeof x->exe - 1, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot find the fcsim executable (/proc/self/exe): %s", strerror(errno));
  x->exe[n] = 0;
  PetscCall(Launcher_Private(mpiexec, x));
  {
    /* The runs die with the study: FCSIM_PARENT_PID makes each one's watchdog end it as an
     * interrupt once its parent is no longer this process, however this one ends (src/fcsim.c);
     * a kill -9 of the study left its runs writing into its dead temporary folder. */
    const char *const *e = envp ? envp : (const char *const *)environ;
    PetscInt           ne = 0, k = 0;
    while (e[ne]) ne++;
    PetscCall(PetscMalloc1(ne + 2, &x->envp));
    for (PetscInt i = 0; i < ne; i++)
      if (strncmp(e[i], "FCSIM_PARENT_PID=", 17)) x->envp[k++] = (char *)e[i];
    PetscCall(PetscSNPrintf(x->parent, sizeof x->parent, "FCSIM_PARENT_PID=%d", (int)getpid()));
    /* under a launcher a run's parent is the launcher's daemon, not this process: the watchdog's
     * test would end it at once. The launcher forwards the study's SIGTERM (FcStudyJobsStop) to
     * the ranks; a study killed with SIGKILL leaves the launcher and its runs (doc/study.md) */
    if (!x->nlaunch) x->envp[k++] = x->parent;
    x->envp[k]   = NULL;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyExecDestroy(FcStudyExec *x)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(x->envp));
  PetscCall(PetscFree(x->launchbuf));
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyJobStart(const FcStudyExec *x, char **argv, const char *log, const char *header, FcStudyJob *j)
{
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t          at;
  sigset_t                   none, dflt;
  FILE                      *f;
  int                        rc, na = 0;
  char                      *full[FC_STUDY_MAX_LAUNCH + 256];

  PetscFunctionBegin;
  argv[0] = (char *)x->exe;
  /* --mpiexec: launch... exe args... (argv of the run after the launcher's words) */
  for (int i = 0; i < x->nlaunch; i++) full[na++] = x->launch[i];
  for (PetscInt i = 0; argv[i]; i++) {
    PetscCheck(na < FC_STUDY_MAX_LAUNCH + 255, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "A run's command line has more than 255 words");
    full[na++] = argv[i];
  }
  full[na] = NULL;
  argv     = full;
  PetscCall(PetscStrncpy(j->log, log, sizeof j->log));
  f = fopen(log, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", log, strerror(errno));
  fprintf(f, "%s", header);
  for (PetscInt i = 0; argv[i]; i++) fprintf(f, " %s", argv[i]);
  fprintf(f, "\n");
  fclose(f);
  /* the child starts with default SIGINT/SIGTERM dispositions and no blocked signal, so it
   * handles an interrupt as any run does (removes its temporary directory, exit 130) */
  sigemptyset(&none);
  sigemptyset(&dflt);
  sigaddset(&dflt, SIGINT);
  sigaddset(&dflt, SIGTERM);
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_APPEND, 0);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawnattr_init(&at);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &dflt);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  j->t0 = Now_Private();
  if (x->nlaunch) rc = posix_spawnp(&j->pid, x->launch[0], &fa, &at, argv, x->envp); /* the launcher in PATH */
  else rc = posix_spawn(&j->pid, x->exe, &fa, &at, argv, x->envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot start %s (log %s): %s", argv[0], log, strerror(rc));
  j->running = j->started = PETSC_TRUE;
  PetscFunctionReturn(0);
}

void FcStudyJobsStop(FcStudyJob *job, PetscInt n)
{
  double t0 = Now_Private();

  for (PetscInt i = 0; i < n; i++)
    if (job[i].running) (void)kill(job[i].pid, SIGTERM);
  for (;;) {
    PetscInt left = 0;
    for (PetscInt i = 0; i < n; i++) {
      int st;
      if (!job[i].running) continue;
      if (waitpid(job[i].pid, &st, WNOHANG) != 0) job[i].running = PETSC_FALSE;
      else left++;
    }
    if (!left) return;
    if (Now_Private() - t0 > 10) {
      for (PetscInt i = 0; i < n; i++) {
        int st;
        if (!job[i].running) continue;
        (void)kill(job[i].pid, SIGKILL);
        (void)waitpid(job[i].pid, &st, 0);
        job[i].running = PETSC_FALSE;
      }
      return;
    }
    Sleep_Private(0.01);
  }
}

/* The children are polled every 10 ms, which also checks FcInterrupted without a race with the
 * signal. */
PetscErrorCode FcStudyJobsRun(FcStudyJob *job, PetscInt n, PetscInt jobs, PetscBool reverse, PetscErrorCode (*start)(void *, PetscInt), void *ctx, const char *what, const char *(*name)(void *, PetscInt))
{
  PetscInt started = 0, running = 0;

  PetscFunctionBegin;
  for (;;) {
    PetscBool any = PETSC_FALSE;
    while (!FcInterrupted && running < jobs && started < n) {
      PetscInt i = reverse ? n - 1 - started : started;
      PetscCall(start(ctx, i));
      if (FcVerbosity > 0) fprintf(stderr, "fcsim: %s: %s started (pid %d, log %s)\n", what, name(ctx, i), (int)job[i].pid, job[i].log);
      started++;
      running++;
    }
    if (FcInterrupted || !running) break;
    for (PetscInt i = 0; i < n; i++) {
      int   st = 0;
      pid_t r;
      if (!job[i].running) continue;
      r = waitpid(job[i].pid, &st, WNOHANG);
      if (r == 0 || (r < 0 && errno == EINTR)) continue;
      job[i].wall    = Now_Private() - job[i].t0;
      job[i].running = PETSC_FALSE;
      running--;
      any = PETSC_TRUE;
      if (r < 0) job[i].exit_status = -1;
      else if (WIFEXITED(st)) job[i].exit_status = WEXITSTATUS(st);
      else if (WIFSIGNALED(st)) job[i].exit_status = 128 + WTERMSIG(st);
      else job[i].exit_status = -1;
      if (FcVerbosity > 0) fprintf(stderr, "fcsim: %s: %s finished in %.2f s, exit status %d\n", what, name(ctx, i), job[i].wall, job[i].exit_status);
    }
    if (!any) Sleep_Private(0.01);
  }
  PetscFunctionReturn(0);
}

void FcStudyLastLine(const char *path, char *out, size_t len)
{
  FILE *f = fopen(path, "r");
  char  line[1024];
  out[0] = 0;
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    char  *s = line;
    size_t k;
    while (*s && isspace((unsigned char)*s)) s++;
    k = strlen(s);
    while (k && isspace((unsigned char)s[k - 1])) s[--k] = 0;
    if (s[0]) snprintf(out, len, "%s", s);
  }
  fclose(f);
}
