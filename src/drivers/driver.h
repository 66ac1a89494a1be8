/* fcsim — drivers: the functions of time a case prescribes (load ramps, boundary displacements,
 * the translation and rotation angle of a kinematic rigid motion, gravity), as plain data that
 * the bodies evaluate at every step and the haptic loop at every tick. The case loader (src/case)
 * fills them once; evaluating one reads nothing else of the case. This folder includes only
 * src/core, so the model and the run call it without climbing back into the case.
 * (The device logs that drive a rigid body are sampled paths: src/drivers/trajectory.h.) */
#ifndef FC_DRIVERS_DRIVER_H
#define FC_DRIVERS_DRIVER_H

#include "../core/fc.h"

/* A scalar time function s(t). "constant": s = value (default 1); "linear": s = 0 at t0,
 * 1 at t1 (t0 = 0, t1 = time.t_end by default), constant outside; "table": piecewise linear
 * through (t_i, s_i), held constant outside the table. */
typedef enum { FC_RAMP_CONSTANT, FC_RAMP_LINEAR, FC_RAMP_TABLE } FcRampType;
typedef struct {
  FcRampType type;
  PetscReal  value;  /* constant */
  PetscReal  t0, t1; /* linear */
  PetscInt   n;      /* table size */
  PetscReal *t, *s;  /* table */
} FcRamp;
PetscReal FcRampEval(const FcRamp *r, PetscReal t);
/* A copy that owns its own table (a driver that shares another's ramp). */
PetscErrorCode FcRampDuplicate(const FcRamp *r, FcRamp *copy);
PetscErrorCode FcRampDestroy(FcRamp *r);

/* A vector time function v(t) of dim components (1 or 3): value·ramp(t), or, when ntab > 0, the
 * table of ntab rows (t, v_1, ..., v_dim) interpolated piecewise linearly and held constant
 * outside it. FcDriverInit makes the zero function (value 0, ramp constant 1). */
typedef struct {
  PetscInt   dim;
  PetscReal  value[3];
  FcRamp     ramp;
  PetscInt   ntab;
  PetscReal *tab; /* ntab rows of 1 + dim numbers */
} FcDriver;
void FcDriverInit(FcDriver *d, PetscInt dim);
/* Component k of v(t). */
PetscReal FcDriverComponent(const FcDriver *d, PetscInt k, PetscReal t);
/* v(t), dim components. */
void           FcDriverEval(const FcDriver *d, PetscReal t, PetscReal v[]);
PetscErrorCode FcDriverDestroy(FcDriver *d);

#endif
