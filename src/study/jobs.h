/* fcsim — the runs of a study as separate fcsim processes (jobs.c): started with posix_spawn
 * from this binary, at most N at once, polled, stopped on an interrupt. Shared by `study refine`
 * (one job per level) and `study compare` (one job per cell of the matrix); doc/study.md. */
#ifndef FC_STUDY_JOBS_H
#define FC_STUDY_JOBS_H
#include "../core/fc.h"
#include <sys/types.h>

#define FC_STUDY_MAX_LAUNCH 32
/* What every job of a study shares: this executable and the runs' environment. */
typedef struct {
  char   exe[PETSC_MAX_PATH_LEN];
  char **envp;       /* fcsim's environment (as before MPI started) + FCSIM_PARENT_PID */
  char   parent[48]; /* its FCSIM_PARENT_PID=<this pid> entry */
  /* --mpiexec: the launcher's words (launch[0] searched in PATH), every run started as
   * launch... exe args...; nlaunch 0: none */
  char  *launchbuf, *launch[FC_STUDY_MAX_LAUNCH];
  int    nlaunch;
} FcStudyExec;

typedef struct {
  pid_t     pid;
  PetscBool running, started;
  int       exit_status; /* 0–255; 128 + signal when killed; -1 not run */
  double    t0, wall;    /* start (monotonic clock) and wall time, s */
  char      log[PETSC_MAX_PATH_LEN + 512]; /* its log file */
} FcStudyJob;

/* A study starts its runs itself: it must be one process (not under mpiexec). `what` names the
 * study in the message ("study refine"). envp: the environment given to fcsim (NULL: environ).
 * mpiexec: the launcher each run starts under, split at blanks ("mpiexec -n 2"; NULL: none): an
 * empty one is an input error at --mpiexec. */
PetscErrorCode FcStudyExecInit(const char *what, const char *const *envp, const char *mpiexec, FcStudyExec *x);
PetscErrorCode FcStudyExecDestroy(FcStudyExec *x);

/* Starts `argv` (argv[0] is replaced by the executable) with stdin /dev/null, stdout and stderr
 * appended to `log`, whose first line is `header` followed by the command. */
PetscErrorCode FcStudyJobStart(const FcStudyExec *x, char **argv, const char *log, const char *header, FcStudyJob *j);

/* Runs n jobs, at most `jobs` at once: start(ctx, i) for i = n−1 down to 0 when `reverse`, else
 * 0 up to n−1 (start must call FcStudyJobStart on job[i]). Polls every 10 ms (the wall-time
 * resolution); returns early when FcInterrupted is set (then call FcStudyJobsStop). `what`
 * and name(ctx, i) label the -v progress lines. */
PetscErrorCode FcStudyJobsRun(FcStudyJob *job, PetscInt n, PetscInt jobs, PetscBool reverse, PetscErrorCode (*start)(void *, PetscInt), void *ctx, const char *what, const char *(*name)(void *, PetscInt));

/* SIGTERM to every running job (a run treats it as SIGINT), SIGKILL after 10 s. */
void FcStudyJobsStop(FcStudyJob *job, PetscInt n);

/* The last non-empty line of a log (the message of a failed run). */
void FcStudyLastLine(const char *path, char *out, size_t len);
#endif
