/* fcsim — trajectory logs of a haptic device (issue 16, item 1; doc/trajectory.md).
 *
 * A log is read by a format name into one plain-data trajectory in SI units and world axes:
 *   fcsim           fcsim's own CSV: '#' metadata lines (device, units: m, frame), then the header
 *                   t,px,py,pz[,qw,qx,qy,qz][,buttons] (seconds, metres, unit quaternion w first)
 *   openhaptics     time,pos_x,pos_y,pos_z,T0..T15[,buttons]: seconds, millimetres, the 4x4
 *                   column-major HD_CURRENT_TRANSFORM (T12..T14 the translation in mm), the
 *                   HD_CURRENT_BUTTONS bitmask
 *   ros_pose        `rostopic echo -p` of geometry_msgs/PoseStamped (%time, field.header.stamp in
 *                   integer nanoseconds, field.pose.position.x.., field.pose.orientation.x..w)
 *   ros_jointstate  `rostopic echo -p` of a sensor_msgs/JointState carrying the end-effector
 *                   position as joints named x, y, z (field.nameK, field.positionK); the Omni
 *                   drivers write millimetres, so the units argument is required (no default)
 * Columns are found by their header names; any other column (velocities above all: they are never
 * trusted, velocities are derived from positions) is ignored.
 *
 * On load: every value finite, quaternions of non-zero norm (normalized), time strictly
 * increasing except a repeated sample (same time, same pose: a driver publishing faster than the
 * device updates), which is dropped and counted; units converted; the device-to-world transform
 * applied (p_w = s R p_d + t, q_w = q_R q_d); an optional time window; time shifted so that the
 * first kept sample is t = 0; quaternion signs made continuous (q_i . q_{i-1} >= 0); gaps longer
 * than k times the median step counted as dropouts (bridged linearly, like any other interval).
 * Bad input is one line "FILE: line N: message" (FcInputError, exit 2). */
#ifndef FC_TRAJECTORY_H
#define FC_TRAJECTORY_H

#include <stdio.h>
#include <petscsys.h>

/* Device-to-world transform: p_world = scale * R(q) p_device + translation (metres, after the unit
 * conversion), q_world = q * q_device (Hamilton product). q = (w, x, y, z), unit. */
typedef struct {
  PetscReal q[4];
  PetscReal translation[3];
  PetscReal scale;
} FcTrajectoryTransform;

void           FcTrajectoryTransformIdentity(FcTrajectoryTransform *T);
/* Rotation by `angle` (rad) about `axis` (any non-zero length); scale > 0. */
PetscErrorCode FcTrajectoryTransformFromAxisAngle(const PetscReal axis[3], PetscReal angle, const PetscReal translation[3], PetscReal scale, FcTrajectoryTransform *T);

typedef struct {
  const char                  *format;         /* fcsim | openhaptics | ros_pose | ros_jointstate */
  const char                  *units;          /* m | mm; NULL: the format's own (none for ros_jointstate) */
  const FcTrajectoryTransform *transform;      /* NULL: identity */
  PetscBool                    window;         /* keep t_begin <= t <= t_end only (t from the first sample) */
  PetscReal                    t_begin, t_end;
  PetscReal                    t_required;     /* > 0: the kept log must last at least this long (a case's t_end) */
  PetscReal                    dropout_factor; /* k: a step > k * median step is a dropout; 0: 5 */
} FcTrajectoryOptions;

typedef struct {
  char       file[PETSC_MAX_PATH_LEN];
  char       format[32], device[128], frame[128];
  PetscInt   n;           /* samples */
  PetscReal *t;           /* n, s, t[0] = 0 */
  PetscReal *p;           /* 3n, m, world */
  PetscReal *q;           /* 4n, (w, x, y, z) world, signs continuous; NULL without orientation */
  PetscInt  *buttons;     /* n; NULL without buttons */
  PetscReal  t_offset;    /* log time of t = 0, s from the log's first sample */
  PetscReal  median_dt, max_dt;
  PetscInt   nrows;       /* data rows read */
  PetscInt   nduplicates; /* repeated samples dropped */
  PetscInt   ndropouts;   /* steps longer than k * median_dt (bridged linearly) */
  PetscInt   nignored;    /* header columns not used (velocities, effort, seq, ...) */
} FcTrajectory;

/* Read, validate and convert a log; the trajectory's arrays are freed by FcTrajectoryDestroy
 * (also after a failed load: every pointer is then NULL). */
PetscErrorCode FcTrajectoryLoad(const char *file, const FcTrajectoryOptions *o, FcTrajectory *tr);
/* Pose at time t in [0, t[n-1]] (linear in position, slerp in orientation, buttons held from the
 * sample at or before t) and the velocities of the piecewise-linear motion (those of the interval
 * [t_i, t_i+1) holding t; the last interval at its end): v in m/s, w the world angular velocity
 * in rad/s. Any output may be NULL; q and w need orientation. */
PetscErrorCode FcTrajectoryEvaluate(const FcTrajectory *tr, PetscReal t, PetscReal p[3], PetscReal q[4], PetscReal v[3], PetscReal w[3], PetscInt *buttons);
/* The trajectory at t_k = k / rate, k = 0 .. floor(t_end * rate) (out is a new trajectory). */
PetscErrorCode FcTrajectoryResample(const FcTrajectory *tr, PetscReal rate, FcTrajectory *out);
/* The trajectory in the fcsim format (metadata, header, rows with 17 significant digits). */
PetscErrorCode FcTrajectoryWrite(const FcTrajectory *tr, FILE *f);
PetscErrorCode FcTrajectoryDestroy(FcTrajectory *tr);

/* Spherical linear interpolation of unit quaternions (Shoemake 1985), along the shorter arc. */
void FcQuaternionSlerp(const PetscReal q0[4], const PetscReal q1[4], PetscReal s, PetscReal q[4]);

/* `fcsim trajectory check FILE --format F [--units U] [--rate HZ] [--t-end T] [--window A,B]`:
 * load, print a summary as '#' lines on stdout and, with rate > 0, the resampled trajectory in the
 * fcsim format. */
PetscErrorCode FcTrajectoryCheck(const char *file, const FcTrajectoryOptions *o, PetscReal rate);

#endif
