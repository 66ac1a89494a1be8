/* fcsim — the runs of a study as separate fcsim processes (jobs.c): started with posix_spawn
 * from this binary, at most N at once, polled, stopped on an interrupt. Shared by `study refine`
 * (one job per level) and `study compare` (one job per cell of the matrix); doc/study.md. */
#ifndef FC_STUDY_JOBS_H
#define FC_STUDY_JOBS_H
#include "../core/fc.h"
#include <sys/types.h>

/* What every job of a study shares: this executable, the runs' environment and the launcher. */
#define FC_STUDY_LAUNCH_MAX 32
typedef struct {
  char   exe[PETSC_MAX_PATH_LEN];
  char **envp;                            /* fcsim's environment (as before MPI started) + FCSIM_PARENT_PID */
  char   parent[48];                      /* its FCSIM_PARENT_PID=<this pid> entry */
  char   launch_buf[1024];                /* --mpiexec's words, NUL-separated */
  char  *launch[FC_STUDY_LAUNCH_MAX + 1]; /* the launcher's argv (launch[0] looked up in PATH), or none */
  int    nlaunch;
} FcStudyExec;

typedef struct {
  pid_t     pid;
  PetscBool running, started;
  int       exit_status;                   /* 0–255; 128 + signal when killed; -1 not run */
  double    t0, wall;                      /* start (monotonic clock) and wall time, s */
  char      log[PETSC_MAX_PATH_LEN + 512]; /* its log file */
} FcStudyJob;

/* A study starts its runs itself: it must be one process (not under mpiexec). `what` names the
 * study in the message ("study refine"). envp: the environment given to fcsim (NULL: environ).
 * launcher: NULL, or the command every run starts under (--mpiexec "mpiexec -n 2": split on
 * blanks, no shell; its first word must be an executable in PATH, else bad input). A run then
 * is `LAUNCHER... fcsim run ...`; its ranks see the study die by FCSIM_PARENT_PID (src/fcsim.c). */
PetscErrorCode FcStudyExecInit(const char *what, const char *const *envp, const char *launcher, FcStudyExec *x);
PetscErrorCode FcStudyExecDestroy(FcStudyExec *x);

/* Starts `argv` (argv[0] is replaced by the executable) with stdin /dev/null, stdout and stderr
 * appended to `log`, whose first line is `header` followed by the command. */
PetscErrorCode FcStudyJobStart(const FcStudyExec *x, char **argv, const char *log, const char *header, FcStudyJob *j);

/* Runs n jobs, at most `jobs` at once: start(ctx, i) for i = n−1 down to 0 when `reverse`, else
 * 0 up to n−1 (start must call FcStudyJobStart on job[i]). Polls every 10 ms (the wall-time
 * resolution); returns early when FcInterrupted is set (then call FcStudyJobsStop). `what`
 * and name(ctx, i) label the -v progress lines. */
PetscErrorCode FcStudyJobsRun(FcStudyJob *job, PetscInt n, PetscInt jobs, PetscBool reverse, PetscErrorCode (*start)(void *, PetscInt), void *ctx,
  const char *what, const char *(*name)(void *, PetscInt));

/* SIGTERM to every running job (a run treats it as SIGINT), SIGKILL after 10 s. */
void FcStudyJobsStop(FcStudyJob *job, PetscInt n);

/* The last non-empty line of a log (the message of a failed run). */
void FcStudyLastLine(const char *path, char *out, size_t len);
#endif
