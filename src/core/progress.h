/* fcsim — progress inside a long step (issue 31 item 6).
 *
 * A step can run for minutes or for ever (a Newton or contact max_it of 2^31 - 1 with a
 * tolerance out of reach) and, until it ends, nothing printed. The step publishes where it is
 * (step, time, Newton iteration, residual, the phase: a contact solve and its solver), and the
 * interrupt watchdog thread, which wakes once a second, prints one line from it every
 * FC_PROGRESS_EVERY seconds while a step has lasted that long (not with -q):
 *   fcsim: step 12 (t = 0.48): 25 s in this step, Newton iteration 9812, residual 3.1e-04; in the contact solve (nsgs) for 2.1 s
 * The publishing calls are plain stores under a mutex, a few per Newton iteration. */
#ifndef FC_PROGRESS_H
#define FC_PROGRESS_H

#define FC_PROGRESS_EVERY 5.0 /* seconds */
/* A run of many steps: once FC_PROGRESS_RATE_AFTER seconds of steps have passed, the rate of the
 * steps completed so far is extrapolated to the case's last step; when that means
 * FC_PROGRESS_WARN_SECONDS or more, one warning line (also with -q: it is not progress):
 *   fcsim: warning: cases/x.json: 2500 of 1e+09 steps in the first 10 s: at that rate the run needs about 46.3 days more
 * The size estimate at the start (src/run/estimate.c) is a lower bound made to refuse the
 * impossible; this is the measured rate, which is what a user weighs. */
#define FC_PROGRESS_RATE_AFTER   10.0
#define FC_PROGRESS_WARN_SECONDS 3600.0

/* step: 1-based; nsteps: the case's number of steps; file: the case file (its name is copied) */
void FcProgressStepBegin(long step, long nsteps, double t, const char *file);
void FcProgressNewton(long it, double residual);
/* what: a static string ("contact solve (nsgs)"), or NULL when the phase ends */
void FcProgressPhase(const char *what);
void FcProgressStepEnd(void);
/* From the watchdog thread, about once a second: prints the line when it is time. */
void FcProgressReport(void);

#endif
