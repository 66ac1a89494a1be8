/* fcsim — a recorded device trajectory as a function of time (issue 16; doc/trajectory.md): the
 * plain data a log becomes once read (src/io/trajectory.h: FcTrajectoryLoad, the formats, the
 * transform), evaluated at t by a rigid body it drives (src/model/body_rigid.c) at every step and
 * by the haptic loop at every tick. Includes only PETSc's system layer. */
#ifndef FC_DRIVERS_TRAJECTORY_H
#define FC_DRIVERS_TRAJECTORY_H

#include <petscsys.h>

typedef struct {
  char       file[PETSC_MAX_PATH_LEN];
  char       format[32], device[128], frame[128];
  PetscInt   n;        /* samples */
  PetscReal *t;        /* n, s, t[0] = 0 */
  PetscReal *p;        /* 3n, m, world */
  PetscReal *q;        /* 4n, (w, x, y, z) world, signs continuous; NULL without orientation */
  PetscInt  *buttons;  /* n; NULL without buttons */
  PetscReal  t_offset; /* log time of t = 0, s from the log's first sample */
  PetscReal  median_dt, max_dt;
  PetscInt   nrows;       /* data rows read */
  PetscInt   nduplicates; /* repeated samples dropped */
  PetscInt   ndropouts;   /* steps longer than k * median_dt (bridged linearly) */
  PetscInt   nignored;    /* header columns not used (velocities, effort, seq, ...) */
} FcTrajectory;

/* Pose at time t in [0, t[n-1]] (linear in position, slerp in orientation, buttons held from the
 * sample at or before t) and the velocities of the piecewise-linear motion (those of the interval
 * [t_i, t_i+1) holding t; the last interval at its end): v in m/s, w the world angular velocity
 * in rad/s. Any output may be NULL; q and w need orientation. */
PetscErrorCode FcTrajectoryEvaluate(const FcTrajectory *tr, PetscReal t, PetscReal p[3], PetscReal q[4], PetscReal v[3], PetscReal w[3], PetscInt *buttons);
/* The trajectory at t_k = k / rate, k = 0 .. floor(t_end * rate) (out is a new trajectory). */
PetscErrorCode FcTrajectoryResample(const FcTrajectory *tr, PetscReal rate, FcTrajectory *out);
PetscErrorCode FcTrajectoryDestroy(FcTrajectory *tr);

/* Spherical linear interpolation of unit quaternions (Shoemake 1985), along the shorter arc. */
void FcQuaternionSlerp(const PetscReal q0[4], const PetscReal q1[4], PetscReal s, PetscReal q[4]);

/* c = a b (Hamilton product; c may alias a or b). */
void FcQuaternionMult(const PetscReal a[4], const PetscReal b[4], PetscReal c[4]);

#endif
