/* fcsim — progress inside a long step (progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"
#include "fc.h"
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  int         active;
  long        step, it;
  double      t, residual, since, phase_since, last;
  const char *phase;
  char        phase_buf[96];
  /* the run's rate (FC_PROGRESS_RATE_AFTER); the case file's name copied (the case may be
   * destroyed while the watchdog still wakes) */
  const char *file;
  char        file_buf[256];
  long        nsteps, first, done; /* the first step seen, the last one completed */
  double      start, done_at;      /* when the first step began, when the last one ended */
  int         rate_checked;
} P;

static double Now_Private(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void FcProgressStepBegin(long step, long nsteps, double t, const char *file)
{
  const double now = Now_Private();
  pthread_mutex_lock(&lock);
  if (!P.file) {
    snprintf(P.file_buf, sizeof P.file_buf, "%s", file ? file : "?");
    P.file  = P.file_buf;
    P.first = step;
    P.done  = step - 1;
    P.start = P.done_at = now;
  }
  P.nsteps   = nsteps;
  P.active   = 1;
  P.step     = step;
  P.t        = t;
  P.it       = -1;
  P.residual = -1;
  P.since = P.last = now;
  P.phase          = NULL;
  pthread_mutex_unlock(&lock);
}

void FcProgressNewton(long it, double residual)
{
  pthread_mutex_lock(&lock);
  P.it       = it;
  P.residual = residual;
  pthread_mutex_unlock(&lock);
}

void FcProgressPhase(const char *what)
{
  const double now = Now_Private();
  pthread_mutex_lock(&lock);
  if (what) snprintf(P.phase_buf, sizeof P.phase_buf, "%s", what);
  P.phase       = what ? P.phase_buf : NULL;
  P.phase_since = now;
  pthread_mutex_unlock(&lock);
}

void FcProgressStepEnd(void)
{
  const double now = Now_Private();
  pthread_mutex_lock(&lock);
  P.active  = 0;
  P.done    = P.step;
  P.done_at = now;
  pthread_mutex_unlock(&lock);
}

static const char *Duration_Private(double s, char *buf, size_t len)
{
  if (s >= 86400) snprintf(buf, len, "%.3g days", s / 86400);
  else snprintf(buf, len, "%.3g h", s / 3600);
  return buf;
}

/* Once, FC_PROGRESS_RATE_AFTER seconds after the first step began: the steps completed so far,
 * extrapolated (progress.h). Under the lock. */
static int RateWarning_Private(double now, char *line, size_t len)
{
  const long   completed = P.done - P.first + 1;
  const double spent     = P.done_at - P.start;
  char         d[32];

  if (P.rate_checked || !P.file || now - P.start < FC_PROGRESS_RATE_AFTER) return 0;
  P.rate_checked = 1;
  if (completed < 1 || spent <= 0 || P.nsteps <= P.done) return 0; /* a step that never ends: the progress lines say so */
  const double more = (double)(P.nsteps - P.done) * spent / (double)completed;
  if (more < FC_PROGRESS_WARN_SECONDS) return 0;
  return snprintf(line, len, "fcsim: warning: %s: %ld of %ld steps in the first %.0f s: at that rate the run needs about %s more", P.file, P.done, P.nsteps,
    now - P.start, Duration_Private(more, d, sizeof d));
}

void FcProgressReport(void)
{
  const double now = Now_Private();
  char         line[384], warn[384];
  int          n = 0, w;

  pthread_mutex_lock(&lock);
  w = RateWarning_Private(now, warn, sizeof warn);
  pthread_mutex_unlock(&lock);
  if (w > 0) fprintf(stderr, "%s\n", warn);
  if (FcVerbosity < 1) return;
  pthread_mutex_lock(&lock);
  if (P.active && now - P.last >= FC_PROGRESS_EVERY) {
    P.last = now;
    n      = snprintf(line, sizeof line, "fcsim: step %ld (t = %g): %.0f s in this step", P.step, P.t, now - P.since);
    if (P.it >= 0 && n < (int)sizeof line) n += snprintf(line + n, sizeof line - (size_t)n, ", Newton iteration %ld, residual %.3g", P.it, P.residual);
    if (P.phase && n < (int)sizeof line) n += snprintf(line + n, sizeof line - (size_t)n, "; in the %s for %.1f s", P.phase, now - P.phase_since);
  }
  pthread_mutex_unlock(&lock);
  if (n > 0) fprintf(stderr, "%s\n", line);
}
