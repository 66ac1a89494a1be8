/* Unit test of the drivers (src/drivers/driver.h): the functions of time a case prescribes, as
 * the bodies and the haptic loop evaluate them.
 *
 *  1. The zero driver (what a motion without a prescribed translation, or without a rotation,
 *     holds) is 0 at every time, in every component, exactly.
 *  2. value·ramp(t): a constant ramp scales exactly (0.5 · (1, −2, 3)); a linear ramp from 1 to
 *     3 s gives a quarter of the value at 1.5 s and all of it from 3 s on (1e-15: one rounding).
 *  3. A table of one component (rows t, angle: stride 2) and of three (rows t, x, y, z: stride 4)
 *     is interpolated piecewise linearly and held constant before its first and after its last
 *     row; at a row it is that row's value exactly.
 *  4. A duplicated table ramp owns its table: changing the original leaves the copy's values,
 *     and destroying both frees everything (the run is clean under -malloc_debug -malloc_dump). */
#define _POSIX_C_SOURCE 200809L /* mkstemp in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/drivers/driver.h"
#include "testutil.h"

static void test_zero(void **state)
{
  FcDriver  z3, z1;
  PetscReal v[3] = {7, 7, 7};

  (void)state;
  FcDriverInit(&z3, 3);
  FcDriverInit(&z1, 1);
  for (PetscReal t = -1; t <= 5; t += 0.5) {
    FcDriverEval(&z3, t, v);
    assert_true(v[0] == 0 && v[1] == 0 && v[2] == 0);
    assert_true(FcDriverComponent(&z1, 0, t) == 0);
  }
  CHK(FcDriverDestroy(&z3));
  CHK(FcDriverDestroy(&z1));
}

static void test_ramped(void **state)
{
  FcDriver  c = {.dim = 3, .value = {1, -2, 3}, .ramp = {.type = FC_RAMP_CONSTANT, .value = 0.5}};
  FcDriver  l = {.dim = 3, .value = {2, 0, -4}, .ramp = {.type = FC_RAMP_LINEAR, .t0 = 1, .t1 = 3}};
  PetscReal v[3];

  (void)state;
  FcDriverEval(&c, 9, v);
  assert_true(v[0] == 0.5 && v[1] == -1 && v[2] == 1.5);
  FcDriverEval(&l, 0, v);
  assert_true(v[0] == 0 && v[2] == 0);
  FcDriverEval(&l, 1.5, v);
  assert_true(PetscAbsReal(v[0] - 0.5) < 1e-15 && PetscAbsReal(v[2] + 1) < 1e-15);
  FcDriverEval(&l, 3, v);
  assert_true(v[0] == 2 && v[2] == -4);
  FcDriverEval(&l, 30, v);
  assert_true(v[0] == 2 && v[2] == -4);
}

static void test_tables(void **state)
{
  PetscReal angle[] = {0, 0, 2, 1, 4, -1};                  /* (t, angle) */
  PetscReal xyz[]   = {1, 0, 0, 0, 2, 1, 2, 3, 4, 1, 2, 3}; /* (t, x, y, z) */
  FcDriver  a = {.dim = 1, .ntab = 3, .tab = angle}, p = {.dim = 3, .ntab = 3, .tab = xyz};
  PetscReal v[3];

  (void)state;
  assert_true(FcDriverComponent(&a, 0, -1) == 0); /* held before */
  assert_true(FcDriverComponent(&a, 0, 2) == 1);  /* at a row */
  assert_true(PetscAbsReal(FcDriverComponent(&a, 0, 1) - 0.5) < 1e-15);
  assert_true(PetscAbsReal(FcDriverComponent(&a, 0, 3) - 0) < 1e-15);
  assert_true(FcDriverComponent(&a, 0, 10) == -1); /* held after */
  FcDriverEval(&p, 0, v);
  assert_true(v[0] == 0 && v[1] == 0 && v[2] == 0);
  FcDriverEval(&p, 1.5, v);
  assert_true(PetscAbsReal(v[0] - 0.5) < 1e-15 && PetscAbsReal(v[1] - 1) < 1e-15 && PetscAbsReal(v[2] - 1.5) < 1e-15);
  FcDriverEval(&p, 3, v); /* between two equal rows */
  assert_true(v[0] == 1 && v[1] == 2 && v[2] == 3);
}

static void test_duplicate(void **state)
{
  FcRamp r = {.type = FC_RAMP_TABLE, .n = 2}, copy;

  (void)state;
  CHK(PetscMalloc2(2, &r.t, 2, &r.s));
  r.t[0] = 0;
  r.t[1] = 1;
  r.s[0] = 0;
  r.s[1] = 4;
  CHK(FcRampDuplicate(&r, &copy));
  r.s[1] = -4;
  assert_true(copy.t != r.t && copy.s != r.s);
  assert_true(FcRampEval(&copy, 0.5) == 2 && FcRampEval(&r, 0.5) == -2);
  CHK(FcRampDestroy(&r));
  CHK(FcRampDestroy(&copy));
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_zero),
    cmocka_unit_test(test_ramped),
    cmocka_unit_test(test_tables),
    cmocka_unit_test(test_duplicate),
  };
  // clang-format on
  return FcTestMain(argc, argv, tests, NULL, NULL);
}
