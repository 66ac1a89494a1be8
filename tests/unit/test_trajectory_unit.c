/* Unit test of the trajectory logs (src/io/trajectory.c, doc/trajectory.md). Run from the
 * repository root (it reads cases/trajectories/).
 *
 *  1. The synthetic stylus motion written in four formats (fcsim; OpenHaptics in mm with the
 *     column-major transform; ROS PoseStamped in m with integer-ns stamps; ROS JointState x,y,z in
 *     mm), with repeated publishes and garbage velocity columns in the device logs, resampled at
 *     1 kHz: the same positions to 1e-9 m (issue 16's acceptance figure; every value is stored
 *     with >= 15 significant digits, so what differs is a unit conversion's or a time shift's
 *     rounding, ~1e-18 m) and the same orientations to 1e-12 (the OpenHaptics rotation goes
 *     through a matrix and Shepperd's conversion: a few ulps).
 *  2. Units and frames against hand-computed values: 12.5 mm is 0.0125 m; a device-to-world
 *     transform of 90 degrees about z, translation (1, 2, 3) m and scale 2 sends the device point
 *     (1, 0, 0) mm to (1, 2.002, 3) m and the identity orientation to (cos 45°, 0, 0, sin 45°);
 *     an HD_CURRENT_TRANSFORM of 90 degrees about x is the quaternion (√2/2, √2/2, 0, 0); all to
 *     1e-15 (one rounding of each operation on numbers of order 1).
 *  3. Slerp at the midpoint of a 90-degree rotation about z is the 45-degree rotation (to 1e-15),
 *     also when the log writes the second orientation with the opposite sign (the same rotation:
 *     sign continuity keeps the short arc); the angular velocity is (0, 0, π/2 / Δt).
 *  4. Dropouts: a 0.1 s gap in a 100 Hz log is one dropout, bridged linearly (the midpoint of the
 *     gap is the mean of its ends to 1e-15 m); repeated samples are dropped, repeated positions at
 *     new times kept; the velocity is derived from positions (a logged velocity column ignored).
 *  5. A log shorter than a required end time (a case's t_end) is an input error naming the file
 *     and its last line; so is an unknown format. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, dup in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "../../src/io/trajectory.h"
#include "testutil.h"

static const char *const sample = "cases/trajectories/stylus_press_slide";

static void Load(const char *file, const char *format, const char *units, FcTrajectory *tr)
{
  FcTrajectoryOptions o = {.format = format, .units = units};
  CHK(FcTrajectoryLoad(file, &o, tr));
}

/* Write text to a temporary file; its name in path. */
static void TempLog(char *path, size_t len, const char *text)
{
  int fd;
  snprintf(path, len, "/tmp/fcsim_traj_XXXXXX");
  fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  FcTestWriteFile(path, text);
}

static void test_formats_agree(void **state)
{
  static const char *const suffix[] = {".csv", "_openhaptics.csv", "_ros_pose.csv", "_ros_joint.csv"};
  static const char *const format[] = {"fcsim", "openhaptics", "ros_pose", "ros_jointstate"};
  static const char *const units[]  = {NULL, NULL, NULL, "mm"};
  FcTrajectory             rs[4];
  PetscReal                dp = 0, dq = 0;
  (void)state;
  for (int f = 0; f < 4; f++) {
    char         file[PETSC_MAX_PATH_LEN];
    FcTrajectory tr;
    snprintf(file, sizeof file, "%s%s", sample, suffix[f]);
    Load(file, format[f], units[f], &tr);
    assert_int_equal(tr.n, 301);
    assert_int_equal(tr.nduplicates, f >= 2 ? 8 : 0); /* every 40th message of the ROS logs published twice */
    assert_int_equal(tr.ndropouts, 0);
    CHK(FcTrajectoryResample(&tr, 1000, &rs[f]));
    CHK(FcTrajectoryDestroy(&tr));
    assert_int_equal(rs[f].n, 3001);
  }
  for (int f = 1; f < 4; f++)
    for (PetscInt i = 0; i < rs[0].n; i++) {
      assert_true(rs[f].t[i] == rs[0].t[i]);
      for (int c = 0; c < 3; c++) dp = PetscMax(dp, PetscAbsReal(rs[f].p[3 * i + c] - rs[0].p[3 * i + c]));
      if (rs[f].q)
        for (int c = 0; c < 4; c++) dq = PetscMax(dq, PetscAbsReal(rs[f].q[4 * i + c] - rs[0].q[4 * i + c]));
    }
  printf("FIGURE trajectory: four formats resampled at 1 kHz: max position difference %.3g m, max quaternion difference %.3g\n", (double)dp, (double)dq);
  assert_true(dp <= 1e-9);
  assert_true(dq <= 1e-12);
  /* The sample's known points: 10 mm up at t = 0, 5 mm at the start of the slide, x = 20 mm and a
   * 30-degree tilt about y at its end (2.5 s). */
  {
    PetscReal p[3], q[4];
    CHK(FcTrajectoryEvaluate(&rs[0], 0, p, q, NULL, NULL, NULL));
    assert_true(PetscAbsReal(p[2] - 0.010) <= 1e-15);
    CHK(FcTrajectoryEvaluate(&rs[1], 2.5, p, q, NULL, NULL, NULL));
    assert_true(PetscAbsReal(p[0] - 0.020) <= 1e-15 && PetscAbsReal(p[2] - 0.005) <= 1e-15);
    assert_true(PetscAbsReal(q[0] - PetscCosReal(PETSC_PI / 12)) <= 1e-14 && PetscAbsReal(q[2] - PetscSinReal(PETSC_PI / 12)) <= 1e-14);
  }
  for (int f = 0; f < 4; f++) CHK(FcTrajectoryDestroy(&rs[f]));
}

static void test_units_and_frames(void **state)
{
  char                  path[64];
  FcTrajectory          tr;
  FcTrajectoryTransform T;
  FcTrajectoryOptions   o    = {.format = "ros_jointstate", .units = "mm"};
  const PetscReal       z[3] = {0, 0, 1}, tr3[3] = {1, 2, 3}, h = PetscSqrtReal(2) / 2;
  PetscReal             p[3], q[4];
  (void)state;
  TempLog(path, sizeof path,
    "%time,field.header.seq,field.header.stamp,field.header.frame_id,field.name0,field.name1,field.name2,field.position0,field.position1,field.position2\n"
    "1700000000000000000,0,1700000000000000000,,x,y,z,12.5,0,-3\n"
    "1700000000000000123,1,1700000000010000000,,z,x,y,7,1,0\n");
  CHK(FcTrajectoryLoad(path, &o, &tr));
  assert_true(tr.p[0] == 0.0125 && tr.p[1] == 0 && tr.p[2] == -0.003);
  /* the second row lists the joints as z, x, y: names, not positions in the row, decide */
  assert_true(tr.p[3] == 0.001 && tr.p[4] == 0 && tr.p[5] == 0.007);
  assert_true(tr.t[1] == 0.01); /* header.stamp, not %time */
  CHK(FcTrajectoryDestroy(&tr));
  unlink(path);

  /* device-to-world: 90 degrees about z, translation (1, 2, 3) m, scale 2 */
  CHK(FcTrajectoryTransformFromAxisAngle(z, PETSC_PI / 2, tr3, 2, &T));
  TempLog(path, sizeof path, "# units: m\nt,px,py,pz,qw,qx,qy,qz\n0,0.001,0,0,1,0,0,0\n0.5,0,0,0,1,0,0,0\n");
  o.format    = "fcsim";
  o.units     = NULL;
  o.transform = &T;
  CHK(FcTrajectoryLoad(path, &o, &tr));
  CHK(FcTrajectoryEvaluate(&tr, 0, p, q, NULL, NULL, NULL));
  assert_true(PetscAbsReal(p[0] - 1) <= 1e-15 && PetscAbsReal(p[1] - 2.002) <= 1e-15 && PetscAbsReal(p[2] - 3) <= 1e-15);
  assert_true(PetscAbsReal(q[0] - h) <= 1e-15 && PetscAbsReal(q[1]) <= 1e-15 && PetscAbsReal(q[2]) <= 1e-15 && PetscAbsReal(q[3] - h) <= 1e-15);
  CHK(FcTrajectoryDestroy(&tr));
  unlink(path);

  /* HD_CURRENT_TRANSFORM, column-major: 90 degrees about x maps y to z: R = [1 0 0; 0 0 -1; 0 1 0],
   * so T5 = R(1,1) = 0, T6 = R(2,1) = 1, T9 = R(1,2) = -1, T10 = R(2,2) = 0; translation 3 mm */
  TempLog(path, sizeof path,
    "time,pos_x,pos_y,pos_z,T0,T1,T2,T3,T4,T5,T6,T7,T8,T9,T10,T11,T12,T13,T14,T15\n"
    "4.0,3,0,0,1,0,0,0,0,0,1,0,0,-1,0,0,3,0,0,1\n"
    "4.001,3,0,0,1,0,0,0,0,0,1,0,0,-1,0,0,3,0,0,1\n");
  o.format    = "openhaptics";
  o.transform = NULL;
  CHK(FcTrajectoryLoad(path, &o, &tr));
  assert_true(PetscAbsReal(tr.q[0] - h) <= 1e-15 && PetscAbsReal(tr.q[1] - h) <= 1e-15 && tr.q[2] == 0 && tr.q[3] == 0);
  assert_true(tr.p[0] == 0.003);
  CHK(FcTrajectoryDestroy(&tr));
  unlink(path);
}

static void test_slerp(void **state)
{
  const PetscReal q0[4] = {1, 0, 0, 0}, q1[4] = {PetscSqrtReal(2) / 2, 0, 0, PetscSqrtReal(2) / 2};
  const PetscReal c = PetscCosReal(PETSC_PI / 8), s = PetscSinReal(PETSC_PI / 8);
  PetscReal       q[4], w[3];
  char            path[64];
  FcTrajectory    tr;
  (void)state;
  FcQuaternionSlerp(q0, q1, 0.5, q);
  assert_true(PetscAbsReal(q[0] - c) <= 1e-15 && PetscAbsReal(q[3] - s) <= 1e-15 && q[1] == 0 && q[2] == 0);
  /* the second orientation written as -q1: the same rotation, and the short arc is kept */
  TempLog(path, sizeof path, "# units: m\nt,px,py,pz,qw,qx,qy,qz\n0,0,0,0,1,0,0,0\n0.2,0,0,0,-0.70710678118654757,0,0,-0.70710678118654757\n");
  Load(path, "fcsim", NULL, &tr);
  CHK(FcTrajectoryEvaluate(&tr, 0.1, NULL, q, NULL, w, NULL));
  assert_true(PetscAbsReal(q[0] - c) <= 1e-15 && PetscAbsReal(q[3] - s) <= 1e-15);
  assert_true(PetscAbsReal(w[2] - (PETSC_PI / 2) / 0.2) <= 1e-13 && w[0] == 0 && w[1] == 0);
  CHK(FcTrajectoryDestroy(&tr));
  unlink(path);
}

static void test_imperfections(void **state)
{
  char                path[64], text[8192];
  size_t              o = 0;
  FcTrajectory        tr;
  PetscReal           p[3], v[3];
  FcTrajectoryOptions opt = {.format = "fcsim"};
  (void)state;
  /* 100 Hz, x = t m/s ... but nothing between 0.3 and 0.4 s (a 0.1 s dropout); a logged velocity
   * column with garbage; the sample at 0.05 s published twice; the position held from 0.06 to 0.07 s */
  o += (size_t)snprintf(text + o, sizeof text - o, "# units: m\nt,px,py,pz,vx,vy,vz\n");
  for (int k = 0; k <= 50; k++) {
    double t = k / 100.0, x = (k == 7) ? 0.06 : t;
    if (k > 30 && k < 40) continue;
    o += (size_t)snprintf(text + o, sizeof text - o, "%.17g,%.17g,0,0,1e300,nan,-4\n", t, x);
    if (k == 5) o += (size_t)snprintf(text + o, sizeof text - o, "%.17g,%.17g,0,0,1e300,nan,-4\n", t, x);
  }
  TempLog(path, sizeof path, text);
  CHK(FcTrajectoryLoad(path, &opt, &tr));
  assert_int_equal(tr.nrows, 43);
  assert_int_equal(tr.nduplicates, 1);
  assert_int_equal(tr.n, 42); /* the repeated position at a new time is kept */
  assert_int_equal(tr.nignored, 3);
  assert_int_equal(tr.ndropouts, 1);
  assert_true(PetscAbsReal(tr.median_dt - 0.01) <= 1e-15 && PetscAbsReal(tr.max_dt - 0.1) <= 1e-15);
  CHK(FcTrajectoryEvaluate(&tr, 0.35, p, NULL, v, NULL, NULL));
  assert_true(PetscAbsReal(p[0] - 0.35) <= 1e-15); /* bridged linearly: the mean of 0.3 and 0.4 */
  assert_true(PetscAbsReal(v[0] - 1) <= 1e-13);    /* derived: (0.4 - 0.3) / 0.1, not the logged 1e300 */
  CHK(FcTrajectoryEvaluate(&tr, 0.065, p, NULL, v, NULL, NULL));
  assert_true(PetscAbsReal(v[0]) == 0); /* the held position: no motion */
  CHK(FcTrajectoryDestroy(&tr));
  /* a window keeps [0.1, 0.2] s and starts it at t = 0 */
  opt.window  = PETSC_TRUE;
  opt.t_begin = 0.1;
  opt.t_end   = 0.2;
  CHK(FcTrajectoryLoad(path, &opt, &tr));
  assert_int_equal(tr.n, 11);
  assert_true(tr.t[0] == 0 && PetscAbsReal(tr.t_offset - 0.1) <= 1e-15 && PetscAbsReal(tr.p[0] - 0.1) <= 1e-15);
  CHK(FcTrajectoryDestroy(&tr));
  unlink(path);
}

static void test_input_errors(void **state)
{
  char                path[64], msg[4096], needle[128];
  FcTestCapture       cap;
  FcTrajectory        tr;
  PetscErrorCode      ierr;
  FcTrajectoryOptions o = {.format = "fcsim", .t_required = 1.0};
  (void)state;
  TempLog(path, sizeof path, "# units: m\nt,px,py,pz\n0,0,0,0\n0.5,0,0,0\n0.75,0,0,0\n");
  FcTestCaptureStart(&cap);
  ierr = FcTrajectoryLoad(path, &o, &tr);
  FcTestCaptureStop(&cap, msg, sizeof msg);
  snprintf(needle, sizeof needle, "%s: line 5: the log ends 0.75 s", path);
  FcTestAssertInputError(ierr, msg, needle);
  assert_non_null(strstr(msg, "required end 1 s"));
  CHK(FcTrajectoryDestroy(&tr));
  o.t_required = 0.75; /* exactly long enough */
  CHK(FcTrajectoryLoad(path, &o, &tr));
  CHK(FcTrajectoryDestroy(&tr));
  o.format = "vrpn";
  FcTestCaptureStart(&cap);
  ierr = FcTrajectoryLoad(path, &o, &tr);
  FcTestCaptureStop(&cap, msg, sizeof msg);
  FcTestAssertInputError(ierr, msg, "unknown trajectory format 'vrpn'");
  CHK(FcTrajectoryDestroy(&tr));
  unlink(path);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_formats_agree),
    cmocka_unit_test(test_units_and_frames),
    cmocka_unit_test(test_slerp),
    cmocka_unit_test(test_imperfections),
    cmocka_unit_test(test_input_errors),
  };
  return FcTestMain(argc, argv, tests, NULL, NULL);
}
