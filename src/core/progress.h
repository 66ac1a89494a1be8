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

void FcProgressStepBegin(long step, double t);
void FcProgressNewton(long it, double residual);
/* what: a static string ("contact solve (nsgs)"), or NULL when the phase ends */
void FcProgressPhase(const char *what);
void FcProgressStepEnd(void);
/* From the watchdog thread, about once a second: prints the line when it is time. */
void FcProgressReport(void);

#endif
