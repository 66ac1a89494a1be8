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
} P;

static double Now_Private(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void FcProgressStepBegin(long step, double t)
{
  const double now = Now_Private();
  pthread_mutex_lock(&lock);
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
  pthread_mutex_lock(&lock);
  P.active = 0;
  pthread_mutex_unlock(&lock);
}

void FcProgressReport(void)
{
  const double now = Now_Private();
  char         line[384];
  int          n = 0;

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
