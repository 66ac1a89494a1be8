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
#include "../drivers/trajectory.h" /* FcTrajectory: the loaded log, evaluated at t */

/* Device-to-world transform: p_world = scale * R(q) p_device + translation (metres, after the unit
 * conversion), q_world = q * q_device (Hamilton product). q = (w, x, y, z), unit. */
typedef struct {
  PetscReal q[4];
  PetscReal translation[3];
  PetscReal scale;
} FcTrajectoryTransform;

void FcTrajectoryTransformIdentity(FcTrajectoryTransform *T);
/* Rotation by `angle` (rad) about `axis` (any non-zero length); scale > 0. */
PetscErrorCode FcTrajectoryTransformFromAxisAngle(
  const PetscReal axis[3], PetscReal angle, const PetscReal translation[3], PetscReal scale, FcTrajectoryTransform *T);

typedef struct {
  const char                  *format;    /* fcsim | openhaptics | ros_pose | ros_jointstate */
  const char                  *units;     /* m | mm; NULL: the format's own (none for ros_jointstate) */
  const FcTrajectoryTransform *transform; /* NULL: identity */
  PetscBool                    window;    /* keep t_begin <= t <= t_end only (t from the first sample) */
  PetscReal                    t_begin, t_end;
  PetscReal                    t_required;     /* > 0: the kept log must last at least this long (a case's t_end) */
  PetscReal                    dropout_factor; /* k: a step > k * median step is a dropout; 0: 5 */
} FcTrajectoryOptions;

/* Read, validate and convert a log; the trajectory's arrays are freed by FcTrajectoryDestroy
 * (also after a failed load: every pointer is then NULL). */
PetscErrorCode FcTrajectoryLoad(const char *file, const FcTrajectoryOptions *o, FcTrajectory *tr);
/* The trajectory in the fcsim format (metadata, header, rows with 17 significant digits). */
PetscErrorCode FcTrajectoryWrite(const FcTrajectory *tr, FILE *f);

/* `fcsim trajectory check FILE --format F [--units U] [--rate HZ] [--t-end T] [--window A,B]`:
 * load, print a summary as '#' lines on stdout and, with rate > 0, the resampled trajectory in the
 * fcsim format. */
PetscErrorCode FcTrajectoryCheck(const char *file, const FcTrajectoryOptions *o, PetscReal rate);

#endif
