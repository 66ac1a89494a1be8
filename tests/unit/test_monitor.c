/* Unit test of the run's monitor list (src/run/monitor.h): the callbacks run in the order the
 * monitors were set, step 0 included; a monitor that ends the run (the verdict's stop on a
 * collapse) is seen by the monitors after it in the same call; an error stops the call at that
 * monitor; every context is freed, also that of a monitor the full list refuses. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../src/run/monitor.h"
#include "testutil.h"

static char trace[512]; /* "<name>:<callback><step>[L] " per call */

typedef struct {
  const char *name;
  PetscInt    stop_at; /* sets last at this step (> 0) */
  PetscInt    fail_at; /* fails at this step (> 0) */
} Mon;

static int ndestroyed;

static void Trace(const Mon *m, const char *what, const FcRunEvent *ev)
{
  size_t n = strlen(trace);
  snprintf(trace + n, sizeof trace - n, "%s:%s%d%s ", m->name, what, (int)ev->step, ev->last ? "L" : "");
}

static PetscErrorCode Open(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  (void)rc;
  Trace((Mon *)ctx, "open", ev);
  return 0;
}

static PetscErrorCode Step(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  Mon *m = (Mon *)ctx;

  (void)rc;
  Trace(m, "step", ev);
  if (m->stop_at && ev->step == m->stop_at) ev->last = PETSC_TRUE;
  PetscCheck(!(m->fail_at && ev->step == m->fail_at), PETSC_COMM_SELF, PETSC_ERR_LIB, "monitor %s fails at step %d", m->name, (int)ev->step);
  return 0;
}

static PetscErrorCode Close(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  (void)rc;
  Trace((Mon *)ctx, "close", ev);
  return 0;
}

static PetscErrorCode Destroy(void **ctx)
{
  ndestroyed++;
  *ctx = NULL;
  return 0;
}

static void test_order(void **state)
{
  FcRunMonitors l;
  FcRunContext  rc;
  FcRunEvent    ev = {0, 0.0, NULL, PETSC_FALSE};
  Mon           a = {"a", 0, 0}, b = {"b", 2, 0}, c = {"c", 0, 0};

  (void)state;
  memset(&l, 0, sizeof l);
  memset(&rc, 0, sizeof rc);
  trace[0]   = 0;
  ndestroyed = 0;
  assert_int_equal(FcRunMonitorSet(&l, "a", Open, Step, Close, Destroy, &a), 0);
  assert_int_equal(FcRunMonitorSet(&l, "b", NULL, Step, NULL, NULL, &b), 0); /* callbacks may be NULL */
  assert_int_equal(FcRunMonitorSet(&l, "c", Open, Step, Close, Destroy, &c), 0);
  assert_int_equal(FcRunMonitorsOpen(&l, &rc, &ev), 0);
  for (PetscInt n = 0; n <= 2; n++) {
    ev = (FcRunEvent){n, 0.1 * n, NULL, PETSC_FALSE};
    assert_int_equal(FcRunMonitorsStep(&l, &rc, &ev), 0);
  }
  assert_true(ev.last); /* b ended the run at step 2 */
  assert_int_equal(FcRunMonitorsClose(&l, &rc, &ev), 0);
  assert_string_equal(trace, "a:open0 c:open0 a:step0 b:step0 c:step0 a:step1 b:step1 c:step1 a:step2 b:step2 c:step2L a:close2L c:close2L ");
  assert_int_equal(FcRunMonitorsDestroy(&l), 0);
  assert_int_equal(ndestroyed, 2);
  assert_int_equal(l.n, 0);
}

static void test_errors(void **state)
{
  FcRunMonitors l;
  FcRunContext  rc;
  FcRunEvent    ev = {1, 0.1, NULL, PETSC_FALSE};
  Mon           a = {"a", 0, 0}, b = {"b", 0, 1}, c = {"c", 0, 0}, extra = {"x", 0, 0};

  (void)state;
  memset(&l, 0, sizeof l);
  memset(&rc, 0, sizeof rc);
  trace[0]   = 0;
  ndestroyed = 0;
  assert_int_equal(FcRunMonitorSet(&l, "a", NULL, Step, NULL, Destroy, &a), 0);
  assert_int_equal(FcRunMonitorSet(&l, "b", NULL, Step, NULL, Destroy, &b), 0);
  assert_int_equal(FcRunMonitorSet(&l, "c", NULL, Step, NULL, Destroy, &c), 0);
  assert_int_equal(PetscPushErrorHandler(PetscReturnErrorHandler, NULL), 0);
  assert_int_not_equal(FcRunMonitorsStep(&l, &rc, &ev), 0);
  assert_string_equal(trace, "a:step1 b:step1 "); /* c is not called after b's error */
  for (int k = l.n; k < FC_RUN_MAX_MONITORS; k++) assert_int_equal(FcRunMonitorSet(&l, "a", NULL, Step, NULL, Destroy, &a), 0);
  assert_int_not_equal(FcRunMonitorSet(&l, "x", NULL, Step, NULL, Destroy, &extra), 0);
  assert_int_equal(PetscPopErrorHandler(), 0);
  assert_int_equal(ndestroyed, 1); /* the refused monitor's context, at once */
  assert_int_equal(FcRunMonitorsDestroy(&l), 0);
  assert_int_equal(ndestroyed, 1 + FC_RUN_MAX_MONITORS);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_order), cmocka_unit_test(test_errors)};

  return FcTestMain(argc, argv, tests, NULL, NULL);
}
