/* Unit test of the run's verdict (src/run/verdict.c): stands / collapses / undecided from the
 * probe rows, on synthetic histories whose verdict is known by construction. Columns: 0 the
 * watched point's upward displacement (drop = −value), 1 the kinetic energy. H = 10 m,
 * m g H = 1e6 J, after = 5 s, thresholds 1 % / 1e-6 / 10 % (the issue's).
 *  1. A settling history d(t) = 0.05 (1 − e^{−t}) m (0.5 % of H) with energy 1e-7 m g H after
 *     5 s and a transient of 1e3 m g H before: "stands" (the transient before `after` does not
 *     count); the recorded maxima are the exact row values.
 *  2. The same with one row of energy 2e-6 m g H at t = 7 s: "undecided"; with |d| = 0.11 m
 *     (1.1 %, a rise of the crown: d < 0) at t = 6 s: "undecided".
 *  3. A collapse d(t) = 0.5 t² m: the collapse time is the first row with d > 1 m, t = 1.5 s
 *     on a 0.1 s grid (d(1.4) = 0.98, d(1.5) = 1.125), "collapses" even if the run ends before
 *     `after`.
 *  4. A history that ends at t = 5 s (no row with t > after) is "undecided", however still. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, dup in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../../src/run/verdict.h"
#include "testutil.h"

static const FcCaseVerdict spec = {
  .set = PETSC_TRUE, .drop = "d", .energy = "e", .rise = 10.0, .after = 5.0, .stand_drop = 0.01, .stand_energy = 1e-6, .collapse_drop = 0.1};

static void Settling(FcVerdict *v, PetscReal t_end, PetscReal t_bad, PetscReal e_bad, PetscReal d_bad)
{
  for (int k = 0; k <= (int)round(t_end / 0.1); k++) {
    PetscReal t = 0.1 * k, row[2];
    row[0]      = -0.05 * (1 - exp(-t));
    row[1]      = t <= 5.0 ? 1e9 : 1e-1; /* 1e3 m g H before, 1e-7 m g H after */
    if (fabs(t - t_bad) < 1e-9) {
      if (e_bad > 0) row[1] = e_bad;
      if (d_bad != 0) row[0] = -d_bad;
    }
    assert_int_equal(FcVerdictAddRow(v, t, row), 0);
  }
}

static void test_stands(void **state)
{
  FcVerdict     v;
  FcVerdictKind k;

  (void)state;
  assert_int_equal(FcVerdictInit(&spec, 0, 1, 1e6, &v), 0);
  Settling(&v, 20.0, -1, 0, 0);
  assert_int_equal(FcVerdictDecide(&v, &k), 0);
  assert_int_equal(k, FC_VERDICT_STANDS);
  assert_string_equal(FcVerdictName(k), "stands");
  assert_true(v.collapse_time < 0);
  assert_true(fabs(v.max_abs_drop_after - 0.05 * (1 - exp(-20.0))) < 1e-15);
  assert_true(fabs(v.drop_last - 0.05 * (1 - exp(-20.0))) < 1e-15);
  assert_true(v.max_energy_after == 1e-1);
  assert_true(fabs(v.t_last - 20.0) < 1e-12);
}

static void test_undecided(void **state)
{
  FcVerdict     v;
  FcVerdictKind k;

  (void)state;
  assert_int_equal(FcVerdictInit(&spec, 0, 1, 1e6, &v), 0);
  Settling(&v, 20.0, 7.0, 2.0, 0);
  assert_int_equal(FcVerdictDecide(&v, &k), 0);
  assert_int_equal(k, FC_VERDICT_UNDECIDED);
  assert_int_equal(FcVerdictInit(&spec, 0, 1, 1e6, &v), 0);
  Settling(&v, 20.0, 6.0, 0, -0.11);
  assert_int_equal(FcVerdictDecide(&v, &k), 0);
  assert_int_equal(k, FC_VERDICT_UNDECIDED);
  assert_true(fabs(v.max_abs_drop_after - 0.11) < 1e-15);
  assert_true(v.collapse_time < 0); /* a rise is not a drop */
}

static void test_collapses(void **state)
{
  FcVerdict     v;
  FcVerdictKind k;

  (void)state;
  assert_int_equal(FcVerdictInit(&spec, 0, 1, 1e6, &v), 0);
  for (int i = 0; i <= 30; i++) {
    PetscReal t = 0.1 * i, row[2] = {-0.5 * t * t, 1e5};
    assert_int_equal(FcVerdictAddRow(&v, t, row), 0);
  }
  assert_int_equal(FcVerdictDecide(&v, &k), 0);
  assert_int_equal(k, FC_VERDICT_COLLAPSES);
  assert_string_equal(FcVerdictName(k), "collapses");
  assert_true(fabs(v.collapse_time - 1.5) < 1e-12);
  assert_true(fabs(v.max_drop - 4.5) < 1e-12);
}

static void test_too_short(void **state)
{
  FcVerdict     v;
  FcVerdictKind k;

  (void)state;
  assert_int_equal(FcVerdictInit(&spec, 0, 1, 1e6, &v), 0);
  for (int i = 0; i <= 50; i++) {
    PetscReal t = 0.1 * i, row[2] = {0, 0};
    if (i == 50) t = 5.0; /* exactly `after`: not after it */
    assert_int_equal(FcVerdictAddRow(&v, t, row), 0);
  }
  assert_int_equal(FcVerdictDecide(&v, &k), 0);
  assert_int_equal(k, FC_VERDICT_UNDECIDED);
  assert_string_equal(FcVerdictName(k), "undecided");
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stands),
    cmocka_unit_test(test_undecided),
    cmocka_unit_test(test_collapses),
    cmocka_unit_test(test_too_short),
  };
  // clang-format on
  return FcTestMain(argc, argv, tests, NULL, NULL);
}
