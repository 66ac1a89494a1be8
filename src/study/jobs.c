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

/* Splits --mpiexec's value into words (blanks separate them; no quoting: no shell runs it) and
 * finds its first word in PATH, so that a typo is one line before any run starts. */
static PetscErrorCode Launcher_Private(const char *what, const char *launcher, FcStudyExec *x)
{
  char       *w, *save = NULL;
  PetscBool   found = PETSC_FALSE;
  const char *path  = getenv("PATH");

  PetscFunctionBegin;
  FcCheckInput(strlen(launcher) < sizeof x->launch_buf, "command line", "--mpiexec", "the launcher '%.40s...' is longer than %d characters", launcher,
    (int)sizeof x->launch_buf - 1);
  PetscCall(PetscStrncpy(x->launch_buf, launcher, sizeof x->launch_buf));
  for (w = strtok_r(x->launch_buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
    FcCheckInput(x->nlaunch < FC_STUDY_LAUNCH_MAX, "command line", "--mpiexec", "the launcher '%s' has more than %d words", launcher, FC_STUDY_LAUNCH_MAX);
    x->launch[x->nlaunch++] = w;
  }
  FcCheckInput(x->nlaunch > 0, "command line", "--mpiexec", "%s: the launcher is empty (give e.g. --mpiexec \"mpiexec -n 2\")", what);
  x->launch[x->nlaunch] = NULL;
  if (strchr(x->launch[0], '/')) found = access(x->launch[0], X_OK) == 0 ? PETSC_TRUE : PETSC_FALSE;
  else
    for (const char *d = path ? path : ""; *d && !found;) {
      const char *e = strchr(d, ':');
      size_t      n = e ? (size_t)(e - d) : strlen(d);
      char        f[PETSC_MAX_PATH_LEN];
      if (n && (size_t)snprintf(f, sizeof f, "%.*s/%s", (int)n, d, x->launch[0]) < sizeof f && access(f, X_OK) == 0) found = PETSC_TRUE;
      d += n + (e ? 1 : 0);
    }
  FcCheckInput(found, "command line", "--mpiexec",
    "the launcher '%s' is not an executable in PATH (e.g. --mpiexec \"mpiexec -n 2\"; Open MPI's is in openmpi-bin)", x->launch[0]);
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyExecInit(const char *what, const char *const *envp, const char *launcher, FcStudyExec *x)
{
  PetscMPIInt size;
  ssize_t     n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(x, sizeof *x));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  FcCheckInput(size == 1, "command line", what, "starts one fcsim process per run itself: run it as one process (without mpiexec)");
  for (const char *const *e = envp; e && *e; e++)
    FcCheckInput(strncmp(*e, "OMPI_COMM_WORLD_SIZE=", 21) && strncmp(*e, "PMI_RANK=", 9) && strncmp(*e, "PMIX_RANK=", 10), "command line", what,
      "starts one fcsim process per run itself: run it without mpiexec");
  if (launcher) PetscCall(Launcher_Private(what, launcher, x));
  n = readlink("/proc/self/exe", x->exe, sizeof x->exe - 1);
  PetscCheck(n > 0 && (size_t)n < sizeof x->exe - 1, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot find the fcsim executable (/proc/self/exe): %s", strerror(errno));
  x->exe[n] = 0;
  {
    /* The runs die with the study: FCSIM_PARENT_PID makes each one's watchdog end it as an
     * interrupt once its parent is no longer this process, however this one ends (src/fcsim.c);
     * a kill -9 of the study left its runs writing into its dead temporary folder. */
    const char *const *e  = envp ? envp : (const char *const *)environ;
    PetscInt           ne = 0, k = 0;
    while (e[ne]) ne++;
    PetscCall(PetscMalloc1(ne + 2, &x->envp));
    for (PetscInt i = 0; i < ne; i++)
      if (strncmp(e[i], "FCSIM_PARENT_PID=", 17)) x->envp[k++] = (char *)e[i];
    PetscCall(PetscSNPrintf(x->parent, sizeof x->parent, "FCSIM_PARENT_PID=%d", (int)getpid()));
    x->envp[k++] = x->parent;
    x->envp[k]   = NULL;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyExecDestroy(FcStudyExec *x)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(x->envp));
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyJobStart(const FcStudyExec *x, char **argv, const char *log, const char *header, FcStudyJob *j)
{
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t          at;
  sigset_t                   none, dflt;
  FILE                      *f;
  int                        rc;
  char                     **full = NULL;

  PetscFunctionBegin;
  argv[0] = (char *)x->exe;
  if (x->nlaunch) { /* LAUNCHER... fcsim ARGS */
    PetscInt na = 0;
    while (argv[na]) na++;
    PetscCall(PetscMalloc1(x->nlaunch + na + 1, &full));
    for (int i = 0; i < x->nlaunch; i++) full[i] = x->launch[i];
    for (PetscInt i = 0; i <= na; i++) full[x->nlaunch + i] = argv[i];
    argv = full;
  }
  PetscCall(PetscStrncpy(j->log, log, sizeof j->log));
  f = fopen(log, "w");
  if (!f) PetscCall(PetscFree(full));
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
  /* with a launcher, posix_spawnp finds it in PATH as Launcher_Private did */
  rc = x->nlaunch ? posix_spawnp(&j->pid, argv[0], &fa, &at, argv, x->envp) : posix_spawn(&j->pid, x->exe, &fa, &at, argv, x->envp);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  PetscCall(PetscFree(full)); /* argv was full: the message names the program from x */
  PetscCheck(rc == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot start %s (log %s): %s", x->nlaunch ? x->launch[0] : x->exe, log, strerror(rc));
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
PetscErrorCode FcStudyJobsRun(FcStudyJob *job, PetscInt n, PetscInt jobs, PetscBool reverse, PetscErrorCode (*start)(void *, PetscInt), void *ctx,
  const char *what, const char *(*name)(void *, PetscInt))
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
