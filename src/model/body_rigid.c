/* fcsim — rigid bodies: a shape and a motion (doc/rigid.md). The shape is analytic (plane,
 * sphere, box, cylinder) or "mesh": the boundary of a tetrahedral mesh (LoadMesh_Private below);
 * either is placed at the body's current pose x = c + d + R (X − c) (body_impl.h FcRigidPlace): d the
 * translation, R the rotation (the identity unless a kinematic rotation or a free joint turns
 * the body), c the point it turns about (Centre_Private).
 *
 * Prescribed motion (fixed, kinematic, or dynamic with a fixed joint): no DoFs; the motion enters
 * the contact problem through q only (duriez2006 §3: a body whose motion is imposed contributes
 * nothing to the Delassus operator W).
 *
 * Dynamic with a prismatic joint (doc/rigid.md): one DoF, the translation p along the unit axis e,
 * d = e p. With the generalized mass M = m (a translation; the inertia is unused because rotation is
 * locked) the rigid dynamic model of duriez2006 eq. 28 reduces to m p̈ = e·(F_applied + m g) + e·f_c,
 * and the body enters W through J_c A⁻¹ J_cᵀ (duriez2006 eq. 29), J = e being the velocity of any of
 * its points per unit DoF velocity. Time integration is the θ-method of the deformable bodies
 * (han2023 eq. 1–11, theta.h) with no internal force: unknown x = v(t1) = ṗ(t1),
 *     p    = p0 + Δt (θ_vq v + (1 − θ_vq) v0)                      (han2023 eq. 4)
 *     m(v) = M (v − v0) − Δt e·F(t^θ) − e·(−Σ_a r_a)              (han2023 eq. 8, the contact impulse)
 *     A    = ∂m/∂v = M,
 * so the free increment is exact in one Newton iteration and the contact correction is
 * Δv += A⁻¹ Hᵀ r. Backward Euler is θ = θ_vq = 1. A quasi-static case has no inertia to balance
 * the applied force (A = 0): rejected.
 *
 * Dynamic with a free joint: six DoFs, the translation of the centre of mass and the rotation on
 * SO(3) (the section "dynamic, free joint" below).
 *
 * Driven by a device log (src/io/trajectory.h, the section "device" below): motion "trajectory"
 * replays the resampled device pose kinematically; a free body with a "coupling" follows it
 * through a 6-DoF spring-damper (duriez2006 §7), integrated implicitly with the body. */
#include "body_impl.h"
#include "theta.h"
#include "../core/mat3.h"
#include "../io/trajectory.h"

/* The device driving a rigid body (doc/rigid.md §2d). The device pose at t, (p_dev, R_dev), is
 * the log's resampled pose in world axes; the tool point Xo (offset, reference coordinates) is
 * driven to p_dev and the body's rotation to R_dev: the body's centre of mass is driven to the
 * target p_tgt = p_dev + R_dev (c − Xo). */
struct _FcRigidDevice {
  FcTrajectory tr;
  PetscBool    coupled;
  PetscReal    Xo[3];
  PetscReal    K, B, Kr, Br;         /* coupling (N/m, N s/m, N m/rad, N m s/rad) */
  PetscReal    ptgt1[3], Rdev1[9];   /* target of the centre of mass and rotation at t1 */
  PetscReal    vdev[3], wdev[3];     /* their velocities over the step, from the positions */
  PetscReal    row[FC_DEVICE_NCOLS]; /* the record of the last step (FcBodyDeviceRow) */
};

const char *const FcDeviceColumns[FC_DEVICE_NCOLS] = {"dev_px", "dev_py", "dev_pz", "dev_qw", "dev_qx", "dev_qy", "dev_qz", "tool_px", "tool_py", "tool_pz",
  "tool_qw", "tool_qx", "tool_qy", "tool_qz", "dev_fx", "dev_fy", "dev_fz", "dev_tx", "dev_ty", "dev_tz"};

/* The quaternion of R (FcMat3ToQuat), of the sign of ref (q · ref >= 0). */
static void MatToQuat_Private(const PetscReal R[9], const PetscReal ref[4], PetscReal q[4])
{
  PetscReal dot = 0;
  FcMat3ToQuat(R, q);
  for (int k = 0; k < 4; k++) dot += q[k] * ref[k];
  if (dot < 0)
    for (int k = 0; k < 4; k++) q[k] = -q[k];
}

/* Device pose at t: position, quaternion (identity for a log without orientation) and rotation.
 * t may pass the log's end by the round-off of n·dt (the loader checked t_last >= the case's end). */
static PetscErrorCode DevicePose_Private(FcBody b, PetscReal t, PetscReal p[3], PetscReal q[4], PetscReal R[9])
{
  const FcTrajectory *tr = &b->device->tr;

  PetscFunctionBegin;
  t    = PetscMin(PetscMax(t, 0.0), tr->t[tr->n - 1]);
  q[0] = 1;
  q[1] = q[2] = q[3] = 0;
  PetscCall(FcTrajectoryEvaluate(tr, t, p, tr->q ? q : NULL, NULL, NULL, NULL));
  FcMat3FromQuat(q, R);
  PetscFunctionReturn(0);
}

/* The target of the centre of mass: p_tgt = p_dev + R_dev (c − Xo) */
static void Target_Private(FcBody b, const PetscReal p[3], const PetscReal R[9], PetscReal ptgt[3])
{
  const PetscReal *Xo = b->device->Xo, *c = b->rigid_c;
  for (int i = 0; i < 3; i++) {
    ptgt[i] = p[i];
    for (int j = 0; j < 3; j++) ptgt[i] += R[3 * i + j] * (c[j] - Xo[j]);
  }
}

/* The record of the step ending at t (FcBodyDeviceRow): device pose, tool pose (the tool point
 * at c + d1 + R1 (Xo − c) and R1), force and torque on the device (minus those on the tool). */
static PetscErrorCode DeviceRecord_Private(FcBody b, PetscReal t, const PetscReal Ftool[3], const PetscReal Ttool[3])
{
  PetscReal *row = b->device->row, R[9];

  PetscFunctionBegin;
  PetscCall(DevicePose_Private(b, t, row, row + 3, R));
  FcRigidPlace(b, PETSC_FALSE, b->device->Xo, row + 7);
  MatToQuat_Private(b->rigid_R1, row + 3, row + 10);
  for (int k = 0; k < 3; k++) {
    row[14 + k] = 0.0 - Ftool[k]; /* 0 − F: no "-0" in the CSV when F = 0 */
    row[17 + k] = 0.0 - Ttool[k];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyDeviceRow(FcBody b, PetscReal *row)
{
  PetscFunctionBegin;
  PetscCheck(b->device, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %s is not driven by a device", b->name);
  for (int k = 0; k < FC_DEVICE_NCOLS; k++) row[k] = b->device->row[k];
  PetscFunctionReturn(0);
}

static PetscErrorCode DeviceDestroy_Private(FcBody b)
{
  PetscFunctionBegin;
  if (!b->device) PetscFunctionReturn(0);
  PetscCall(FcTrajectoryDestroy(&b->device->tr));
  PetscCall(PetscFree(b->device));
  PetscFunctionReturn(0);
}

/* A dynamic rigid body (prismatic or free joint). */
typedef struct {
  const FcCase *c;
  PetscReal     axis[3];         /* e (prismatic) */
  PetscReal     Jb[3];           /* free: principal moments of inertia (body axes = world axes at t = 0) */
  PetscReal     Jw[9], Jwinv[9]; /* free: R0 diag(Jb) R0ᵀ and its inverse, for the step */
  FcTheta       th;              /* θ-method parameters (1, 1 for backward Euler) */
  Vec           x, dx, rfree, u0, v0;
  PetscErrorCode (*kinematics)(FcBody, const FcStepInfo *); /* positions at the iterate x */
  /* free joint with a coupling: the translational and rotational tangents of the coupling,
   * dt B + dt² θ_vq K and dt B_r + dt² θ_vq K_r, added to A (0 without a coupling) */
  PetscReal ct, cr;
} Rigid;

/* Prescribed translation at t: the case's, or that of a kinematic device replay (the tool point
 * Xo, which is also the point the body turns about, goes to p_dev: d = p_dev − Xo). */
static PetscErrorCode Position_Private(FcBody b, PetscReal t, PetscReal d[3])
{
  PetscFunctionBegin;
  if (b->device && !b->device->coupled) {
    PetscReal q[4], R[9];
    PetscCall(DevicePose_Private(b, t, d, q, R));
    for (int k = 0; k < 3; k++) d[k] -= b->device->Xo[k];
  } else FcDriverEval(&b->spec->motion.translation, t, d);
  PetscFunctionReturn(0);
}

/* Prescribed rotation at t: exp(angle(t) [a]×), a the unit axis (I without a rotation), or the
 * device's rotation R(q_dev(t)) of a kinematic replay. */
static PetscErrorCode Rotation_Private(FcBody b, PetscReal t, PetscReal R[9])
{
  const FcCaseMotion *mo = &b->spec->motion;
  PetscReal           th = FcDriverComponent(&mo->angle, 0, t), phi[3];

  PetscFunctionBegin;
  if (b->device && !b->device->coupled) {
    PetscReal p[3], q[4];
    PetscCall(DevicePose_Private(b, t, p, q, R));
    PetscFunctionReturn(0);
  }
  for (int k = 0; k < 3; k++) phi[k] = th * mo->rot_axis[k];
  FcMat3Exp(phi, R);
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyPrescribedPose(FcBody b, PetscReal t, PetscReal d[3], PetscReal R[9])
{
  PetscFunctionBegin;
  PetscCheck(b->rigid && b->ndof == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %s has no prescribed pose (it has %d DoFs)", b->name, (int)b->ndof);
  PetscCall(Position_Private(b, t, d));
  PetscCall(Rotation_Private(b, t, R));
  PetscFunctionReturn(0);
}

static PetscErrorCode BeginStep_Rigid(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  b->incscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : s->dt;
  PetscCall(Position_Private(b, s->t0, b->rigid_d0));
  PetscCall(Position_Private(b, s->t1, b->rigid_d1));
  PetscCall(Rotation_Private(b, s->t0, b->rigid_R0));
  PetscCall(Rotation_Private(b, s->t1, b->rigid_R1));
  PetscFunctionReturn(0);
}

static PetscErrorCode Residual_Rigid(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale)
{
  PetscFunctionBegin;
  (void)b;
  (void)s;
  *rnorm = 0;
  *scale = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve_Rigid(FcBody b, const FcStepInfo *s, PetscReal *dxnorm)
{
  PetscFunctionBegin;
  (void)b;
  (void)s;
  *dxnorm = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode Update_Rigid(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  (void)b;
  (void)s;
  PetscFunctionReturn(0);
}

static PetscErrorCode EndStep_Rigid(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  b->kinetic_energy = 0; /* prescribed motion carries no modelled inertia */
  b->strain_energy  = 0;
  if (b->device) {
    const PetscReal zero[3] = {0, 0, 0};
    PetscCall(DeviceRecord_Private(b, s->t1, zero, zero));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_RigidPrescribed(FcBody b)
{
  PetscFunctionBegin;
  PetscCall(DeviceDestroy_Private(b));
  PetscFunctionReturn(0);
}

/* ---- dynamic, prismatic joint ---------------------------------------------------------------- */

/* p(x) = p0 + Δt (θ_vq v + (1 − θ_vq) v0) (han2023 eq. 4) into ucur, and d1 = e p (the
 * translation at the current iterate, which detection reads). */
static PetscErrorCode Kinematics_Private(FcBody b, const FcStepInfo *s)
{
  Rigid             *r = (Rigid *)b->data;
  const PetscScalar *x, *u0, *v0;
  PetscScalar       *p;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(r->x, &x));
  PetscCall(VecGetArrayRead(r->u0, &u0));
  PetscCall(VecGetArrayRead(r->v0, &v0));
  PetscCall(VecGetArray(b->ucur, &p));
  p[0] = FcThetaPosition(&r->th, s->dt, u0[0], v0[0], x[0]);
  for (int k = 0; k < 3; k++) b->rigid_d1[k] = r->axis[k] * p[0];
  PetscCall(VecRestoreArray(b->ucur, &p));
  PetscCall(VecRestoreArrayRead(r->v0, &v0));
  PetscCall(VecRestoreArrayRead(r->u0, &u0));
  PetscCall(VecRestoreArrayRead(r->x, &x));
  PetscFunctionReturn(0);
}

static PetscErrorCode BeginStep_RigidDynamic(FcBody b, const FcStepInfo *s)
{
  Rigid             *r = (Rigid *)b->data;
  const PetscScalar *u;

  PetscFunctionBegin;
  /* a displacement increment is Δt θ_vq times an increment of v (han2023 eq. 4) */
  b->incscale = FcThetaIncrementScale(&r->th, s->dt);
  PetscCall(VecCopy(b->u, r->u0));
  PetscCall(VecCopy(b->v, r->v0));
  PetscCall(VecCopy(r->v0, r->x)); /* predictor v = v0 */
  PetscCall(VecGetArrayRead(b->u, &u));
  for (int k = 0; k < 3; k++) b->rigid_d0[k] = r->axis[k] * u[0];
  PetscCall(VecRestoreArrayRead(b->u, &u));
  PetscCall(Kinematics_Private(b, s));
  PetscFunctionReturn(0);
}

/* m(v) = M (v − v0) − Δt e·F(t^θ) − f_c, F = force·ramp + m g (han2023 eq. 8 with no internal
 * force; f_c = Hᵀr of the last contact solve, an impulse). The free residual (without f_c) is
 * kept for the free increment; convergence is judged on the full one. */
static PetscErrorCode Residual_RigidDynamic(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale)
{
  Rigid              *r   = (Rigid *)b->data;
  const FcCaseMotion *mo  = &b->spec->motion;
  const PetscReal     tth = FcThetaTime(&r->th, s->t0, s->t1);
  PetscReal           g[3], F = 0, inert, ramp = FcRampEval(&mo->force_ramp, tth);
  const PetscScalar  *x, *v0, *fc = NULL;
  PetscScalar        *rf;

  PetscFunctionBegin;
  PetscCall(Kinematics_Private(b, s));
  FcDriverEval(&r->c->gravity, tth, g);
  for (int k = 0; k < 3; k++) F += r->axis[k] * (mo->force[k] * ramp + b->mass * g[k]);
  PetscCall(VecGetArrayRead(r->x, &x));
  PetscCall(VecGetArrayRead(r->v0, &v0));
  PetscCall(VecGetArray(r->rfree, &rf));
  inert = b->mass * (x[0] - v0[0]);
  rf[0] = inert - s->dt * F;
  if (b->fcontact) PetscCall(VecGetArrayRead(b->fcontact, &fc));
  *rnorm = PetscAbsReal(rf[0] - (fc ? fc[0] : 0.0));
  if (fc) PetscCall(VecRestoreArrayRead(b->fcontact, &fc));
  *scale = PetscMax(PetscAbsReal(inert), s->dt * PetscAbsReal(F));
  PetscCall(VecRestoreArray(r->rfree, &rf));
  PetscCall(VecRestoreArrayRead(r->v0, &v0));
  PetscCall(VecRestoreArrayRead(r->x, &x));
  /* state part of the tangential relative motion for the contact step: v at t1 */
  PetscCall(VecCopy(r->x, b->rate));
  PetscFunctionReturn(0);
}

/* dx = −A⁻¹ m_free(v), A = M. */
static PetscErrorCode Solve_RigidDynamic(FcBody b, const FcStepInfo *s, PetscReal *dxnorm)
{
  Rigid *r = (Rigid *)b->data;

  PetscFunctionBegin;
  (void)s;
  PetscCall(VecCopy(r->rfree, r->dx));
  PetscCall(VecScale(r->dx, -1.0 / b->mass));
  PetscCall(VecNorm(r->dx, NORM_2, dxnorm));
  PetscFunctionReturn(0);
}

/* X = A⁻¹ B = B / m (the body's column of the Delassus operator, duriez2006 eq. 29). */
static PetscErrorCode SolveMulti_RigidDynamic(FcBody b, Mat B, Mat X)
{
  PetscFunctionBegin;
  PetscCall(MatCopy(B, X, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(X, 1.0 / b->mass));
  PetscFunctionReturn(0);
}

/* x += dx and the positions at the new iterate (both joints). */
static PetscErrorCode Update_RigidDynamic(FcBody b, const FcStepInfo *s)
{
  Rigid *r = (Rigid *)b->data;

  PetscFunctionBegin;
  PetscCall(VecAXPY(r->x, 1.0, r->dx));
  PetscCall(r->kinematics(b, s));
  PetscFunctionReturn(0);
}

static PetscErrorCode EndStep_RigidDynamic(FcBody b, const FcStepInfo *s)
{
  Rigid    *r = (Rigid *)b->data;
  PetscReal v2;

  PetscFunctionBegin;
  PetscCall(Kinematics_Private(b, s));
  PetscCall(VecCopy(b->ucur, b->u));
  PetscCall(VecCopy(r->x, b->v));
  PetscCall(VecDot(b->v, b->v, &v2));
  b->kinetic_energy = 0.5 * b->mass * v2; /* ½ m v² at t1 */
  b->strain_energy  = 0;
  PetscFunctionReturn(0);
}

/* Every point of a translating body moves with e ṗ. */
static void PointJacobian_RigidDynamic(FcBody b, const PetscReal x[3], PetscReal *J)
{
  Rigid *r = (Rigid *)b->data;
  (void)x;
  for (int k = 0; k < 3; k++) J[k] = r->axis[k];
}

static PetscErrorCode Destroy_RigidDynamic(FcBody b)
{
  Rigid *r = (Rigid *)b->data;

  PetscFunctionBegin;
  PetscCall(DeviceDestroy_Private(b));
  if (!r) PetscFunctionReturn(0);
  PetscCall(VecDestroy(&r->x));
  PetscCall(VecDestroy(&r->dx));
  PetscCall(VecDestroy(&r->rfree));
  PetscCall(VecDestroy(&r->u0));
  PetscCall(VecDestroy(&r->v0));
  PetscCall(PetscFree(b->data));
  PetscFunctionReturn(0);
}

/* The state of a dynamic rigid body with ndof DoFs: u, v (zero), ucur, rate, and the work vectors
 * of its Newton step (x = v at the iterate, its increment dx — shared with the contact step as
 * b->dx, owned here — the free residual, u0 and v0 of the step start). */
static PetscErrorCode CreateStateVecs_Private(FcBody b, PetscInt ndof, Vec *x, Vec *dx, Vec *rfree, Vec *u0, Vec *v0)
{
  PetscFunctionBegin;
  b->ndof = ndof;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, ndof, &b->u));
  PetscCall(VecSet(b->u, 0.0));
  PetscCall(VecDuplicate(b->u, &b->v));
  PetscCall(VecSet(b->v, 0.0));
  PetscCall(VecDuplicate(b->u, &b->ucur));
  PetscCall(VecSet(b->ucur, 0.0));
  PetscCall(VecDuplicate(b->u, &b->rate));
  PetscCall(VecSet(b->rate, 0.0));
  PetscCall(VecDuplicate(b->u, x));
  PetscCall(VecDuplicate(b->u, dx));
  PetscCall(VecSet(*dx, 0.0));
  b->dx = *dx;
  PetscCall(VecDuplicate(b->u, rfree));
  PetscCall(VecSet(*rfree, 0.0));
  PetscCall(VecDuplicate(b->u, u0));
  PetscCall(VecDuplicate(b->u, v0));
  PetscFunctionReturn(0);
}

static PetscErrorCode CreateDynamic_Private(const FcCase *c, FcBody b)
{
  const FcCaseMotion *mo = &b->spec->motion;
  Rigid              *r;
  PetscReal           ve = 0;

  PetscFunctionBegin;
  PetscCall(PetscNew(&r));
  b->data = r;
  r->c    = c;
  for (int k = 0; k < 3; k++) r->axis[k] = mo->axis[k]; /* unit (case.c normalizes it) */
  FcThetaFromCase(c, &r->th);
  r->kinematics  = Kinematics_Private;
  b->ops.destroy = Destroy_RigidDynamic;
  /* the joint allows velocities along e only (the case checked the initial one is along e) */
  for (int k = 0; k < 3; k++) ve += r->axis[k] * mo->initial_velocity[k];
  b->mass = mo->mass;
  PetscCall(CreateStateVecs_Private(b, 1, &r->x, &r->dx, &r->rfree, &r->u0, &r->v0));
  PetscCall(VecSet(b->v, ve));
  b->ops.beginstep     = BeginStep_RigidDynamic;
  b->ops.residual      = Residual_RigidDynamic;
  b->ops.solve         = Solve_RigidDynamic;
  b->ops.solvemulti    = SolveMulti_RigidDynamic;
  b->ops.update        = Update_RigidDynamic;
  b->ops.endstep       = EndStep_RigidDynamic;
  b->ops.pointjacobian = PointJacobian_RigidDynamic;
  PetscFunctionReturn(0);
}

/* ---- dynamic, free joint ----------------------------------------------------------------------- */

/* Six DoFs: x = (v, ω) at t1, the velocity of the centre of mass and the angular velocity, both
 * in world coordinates; u = (d, φ) with d the translation of the centre of mass and φ the
 * rotation vector of R (for output; the rotation itself is kept as the matrix R). The θ-method
 * of the translation (han2023 eq. 4, 8) is kept as for the prismatic joint; the rotation is
 * advanced on SO(3) by the exponential map, R = exp(Δt [ω_q]×) R0 with
 * ω_q = θ_vq ω + (1 − θ_vq) ω0 (the Lie-group form of eq. 4: Simo & Wong, "Unconditionally stable
 * algorithms for rigid body dynamics that exactly preserve energy and momentum", IJNME 31 (1991),
 * eq. 3.6 with the world-frame angular velocity). Euler's equations in the world frame at the
 * step start, J_w = R0 J_b R0ᵀ, with the gyroscopic term taken at ω0 (explicit):
 *
 *   m (v − v0) − Δt (F(t^θ) + m g(t^θ))                 = Hᵀr (linear part)
 *   J_w (ω − ω0) + Δt ω0 × (J_w ω0)                      = Hᵀr (angular part: torques of the
 *                                                            contact impulses about the centre)
 *
 * A = diag(m I, J_w) is constant within a step, so W gets J_c A⁻¹ J_cᵀ with the point Jacobian
 * J_c = [I, −[x − p]×] (duriez2006 eq. 29: the velocity of the material point at x is
 * v + ω × (x − p), p = c + d the current centre of mass). The gyroscopic term is exact for a
 * rotation about a principal axis (ω0 × J_w ω0 = 0) and first order otherwise. The rotation
 * helpers (skew matrix, exponential and logarithm maps, R diag(J_b) Rᵀ) are src/core/mat3.h's. */

/* d1 = d0 + Δt (θ_vq v + (1 − θ_vq) v0), R1 = exp(Δt ω_q) R0 at the current iterate x. */
static PetscErrorCode KinematicsFree_Private(FcBody b, const FcStepInfo *s)
{
  Rigid             *r = (Rigid *)b->data;
  const PetscScalar *x, *u0, *v0;
  PetscScalar       *p;
  PetscReal          phi[3], E[9];

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(r->x, &x));
  PetscCall(VecGetArrayRead(r->u0, &u0));
  PetscCall(VecGetArrayRead(r->v0, &v0));
  PetscCall(VecGetArray(b->ucur, &p));
  for (int k = 0; k < 3; k++) {
    p[k]           = FcThetaPosition(&r->th, s->dt, u0[k], v0[k], x[k]);
    b->rigid_d1[k] = p[k];
    phi[k]         = FcThetaDisplacement(&r->th, s->dt, v0[3 + k], x[3 + k]);
  }
  FcMat3Exp(phi, E);
  FcMat3Mult(E, b->rigid_R0, b->rigid_R1);
  FcMat3Log(b->rigid_R1, phi);
  for (int k = 0; k < 3; k++) p[3 + k] = phi[k];
  PetscCall(VecRestoreArray(b->ucur, &p));
  PetscCall(VecRestoreArrayRead(r->v0, &v0));
  PetscCall(VecRestoreArrayRead(r->u0, &u0));
  PetscCall(VecRestoreArrayRead(r->x, &x));
  PetscFunctionReturn(0);
}

static PetscErrorCode BeginStep_RigidFree(FcBody b, const FcStepInfo *s)
{
  Rigid *r = (Rigid *)b->data;

  PetscFunctionBegin;
  b->incscale = FcThetaIncrementScale(&r->th, s->dt);
  PetscCall(VecCopy(b->u, r->u0));
  PetscCall(VecCopy(b->v, r->v0));
  PetscCall(VecCopy(r->v0, r->x)); /* predictor v = v0 */
  for (int k = 0; k < 3; k++) b->rigid_d0[k] = b->rigid_d1[k];
  for (int k = 0; k < 9; k++) b->rigid_R0[k] = b->rigid_R1[k];
  FcMat3RotateDiag(b->rigid_R0, r->Jb, r->Jw); /* J_w = R0 diag(Jb) R0ᵀ */
  if (b->device) {
    /* the coupling's target at t0 and t1; its velocities over the step from those positions
     * (the log's own velocities are never used): v_dev = Δp_tgt/Δt, ω_dev = log(R_dev1 R_dev0ᵀ)/Δt */
    struct _FcRigidDevice *dv = b->device;
    PetscReal              p0[3], q[4], R0[9], pt0[3], dR[9];
    const PetscReal        cq = FcThetaIncrementScale(&r->th, s->dt); /* dt θ_vq */
    PetscCall(DevicePose_Private(b, s->t0, p0, q, R0));
    Target_Private(b, p0, R0, pt0);
    PetscCall(DevicePose_Private(b, s->t1, p0, q, dv->Rdev1));
    Target_Private(b, p0, dv->Rdev1, dv->ptgt1);
    FcMat3MultNT(dv->Rdev1, R0, dR);
    FcMat3Log(dR, dv->wdev);
    for (int k = 0; k < 3; k++) {
      dv->vdev[k] = (dv->ptgt1[k] - pt0[k]) / s->dt;
      dv->wdev[k] /= s->dt;
    }
    r->ct = s->dt * (dv->B + cq * dv->K);
    r->cr = s->dt * (dv->Br + cq * dv->Kr);
  }
  {
    PetscReal Jeff[9];
    for (int k = 0; k < 9; k++) Jeff[k] = r->Jw[k] + (k % 4 == 0 ? r->cr : 0.0);
    (void)FcMat3Inv(Jeff, r->Jwinv);
  }
  PetscCall(KinematicsFree_Private(b, s));
  PetscFunctionReturn(0);
}

/* The coupling's force and torque on the tool at the iterate (R1, d1, x = (v, ω)) (duriez2006 §7,
 * a spring-damper on position and orientation):
 *   F = K (p_tgt(t1) − (c + d1)) + B (v_dev − v),   τ = K_r log(R_dev(t1) R1ᵀ) + B_r (ω_dev − ω). */
static void Coupling_Private(FcBody b, const PetscScalar *x, PetscReal F[3], PetscReal T[3])
{
  const struct _FcRigidDevice *dv = b->device;
  const FcRigidCoupling        cp = {.K = dv->K, .B = dv->B, .Kr = dv->Kr, .Br = dv->Br};

  FcRigidCouplingForce(&cp, b->rigid_c, dv->ptgt1, dv->Rdev1, dv->vdev, dv->wdev, b->rigid_d1, b->rigid_R1, x, F, T);
}

void FcRigidCouplingForce(const FcRigidCoupling *cp, const PetscReal c[3], const PetscReal ptgt[3], const PetscReal Rdev[9], const PetscReal vdev[3],
  const PetscReal wdev[3], const PetscReal d[3], const PetscReal R[9], const PetscReal V[6], PetscReal F[3], PetscReal T[3])
{
  PetscReal dR[9], phi[3];

  FcMat3MultNT(Rdev, R, dR);
  FcMat3Log(dR, phi);
  for (int k = 0; k < 3; k++) {
    F[k] = cp->K * (ptgt[k] - c[k] - d[k]) + cp->B * (vdev[k] - V[k]);
    T[k] = cp->Kr * phi[k] + cp->Br * (wdev[k] - V[3 + k]);
  }
}

static PetscErrorCode Residual_RigidFree(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale)
{
  Rigid              *r   = (Rigid *)b->data;
  const FcCaseMotion *mo  = &b->spec->motion;
  const PetscReal     tth = FcThetaTime(&r->th, s->t0, s->t1);
  PetscReal           g[3], F[3], ramp = FcRampEval(&mo->force_ramp, tth), Jw0[3], gyro[3], inert = 0, ext = 0, rn = 0;
  const PetscScalar  *x, *v0, *fc = NULL;
  PetscScalar        *rf;

  PetscFunctionBegin;
  PetscCall(KinematicsFree_Private(b, s));
  FcDriverEval(&r->c->gravity, tth, g);
  for (int k = 0; k < 3; k++) F[k] = mo->force[k] * ramp + b->mass * g[k];
  PetscCall(VecGetArrayRead(r->x, &x));
  PetscCall(VecGetArrayRead(r->v0, &v0));
  PetscCall(VecGetArray(r->rfree, &rf));
  for (int i = 0; i < 3; i++) {
    Jw0[i] = 0;
    for (int j = 0; j < 3; j++) Jw0[i] += r->Jw[3 * i + j] * v0[3 + j];
  }
  gyro[0] = v0[4] * Jw0[2] - v0[5] * Jw0[1];
  gyro[1] = v0[5] * Jw0[0] - v0[3] * Jw0[2];
  gyro[2] = v0[3] * Jw0[1] - v0[4] * Jw0[0];
  for (int k = 0; k < 3; k++) {
    PetscReal li = b->mass * (x[k] - v0[k]), ai = 0;
    for (int j = 0; j < 3; j++) ai += r->Jw[3 * k + j] * (x[3 + j] - v0[3 + j]);
    rf[k]     = li - s->dt * F[k];
    rf[3 + k] = ai + s->dt * gyro[k];
    inert += li * li + ai * ai;
    ext += s->dt * s->dt * (F[k] * F[k] + gyro[k] * gyro[k]);
  }
  if (b->device) {
    /* the coupling at t1, implicit (its tangent is in A: ApplyAinv_Private) */
    PetscReal Fc[3], Tc[3];
    Coupling_Private(b, x, Fc, Tc);
    for (int k = 0; k < 3; k++) {
      rf[k] -= s->dt * Fc[k];
      rf[3 + k] -= s->dt * Tc[k];
      ext += s->dt * s->dt * (Fc[k] * Fc[k] + Tc[k] * Tc[k]);
    }
  }
  if (b->fcontact) PetscCall(VecGetArrayRead(b->fcontact, &fc));
  for (int k = 0; k < 6; k++) rn += PetscSqr(rf[k] - (fc ? fc[k] : 0.0));
  if (fc) PetscCall(VecRestoreArrayRead(b->fcontact, &fc));
  *rnorm = PetscSqrtReal(rn);
  *scale = PetscSqrtReal(PetscMax(inert, ext));
  PetscCall(VecRestoreArray(r->rfree, &rf));
  PetscCall(VecRestoreArrayRead(r->v0, &v0));
  PetscCall(VecRestoreArrayRead(r->x, &x));
  PetscCall(VecCopy(r->x, b->rate)); /* (v, ω) at t1 for the tangential relative motion */
  PetscFunctionReturn(0);
}

/* y = A⁻¹ z for A = diag((m + c_t) I, J_w + c_r I), c_t = dt B + dt² θ_vq K and
 * c_r = dt B_r + dt² θ_vq K_r the coupling's tangent (0 without one). The translational part is
 * the exact derivative of the linear spring-damper; the rotational part takes
 * ∂ log(R_dev R1ᵀ)/∂ω ≈ −dt θ_vq I, exact when R1 = R_dev and first order in their distance
 * (the Newton iteration converges on the residual, which is exact). */
static void ApplyAinv_Private(FcBody b, const PetscScalar *z, PetscScalar *y)
{
  Rigid    *r = (Rigid *)b->data;
  PetscReal a[3];
  for (int k = 0; k < 3; k++) a[k] = z[3 + k];
  for (int k = 0; k < 3; k++) y[k] = z[k] / (b->mass + r->ct);
  for (int i = 0; i < 3; i++) y[3 + i] = r->Jwinv[3 * i] * a[0] + r->Jwinv[3 * i + 1] * a[1] + r->Jwinv[3 * i + 2] * a[2];
}

static PetscErrorCode Solve_RigidFree(FcBody b, const FcStepInfo *s, PetscReal *dxnorm)
{
  Rigid             *r = (Rigid *)b->data;
  const PetscScalar *rf;
  PetscScalar       *dx, z[6];

  PetscFunctionBegin;
  (void)s;
  PetscCall(VecGetArrayRead(r->rfree, &rf));
  for (int k = 0; k < 6; k++) z[k] = -rf[k];
  PetscCall(VecRestoreArrayRead(r->rfree, &rf));
  PetscCall(VecGetArray(r->dx, &dx));
  ApplyAinv_Private(b, z, dx);
  PetscCall(VecRestoreArray(r->dx, &dx));
  PetscCall(VecNorm(r->dx, NORM_2, dxnorm));
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveMulti_RigidFree(FcBody b, Mat B, Mat X)
{
  const PetscScalar *bb;
  PetscScalar       *xx;
  PetscInt           n, ldb, ldx;

  PetscFunctionBegin;
  PetscCall(MatGetSize(B, NULL, &n));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(MatDenseGetLDA(X, &ldx));
  PetscCall(MatDenseGetArrayRead(B, &bb));
  PetscCall(MatDenseGetArray(X, &xx));
  for (PetscInt j = 0; j < n; j++) ApplyAinv_Private(b, bb + j * ldb, xx + j * ldx);
  PetscCall(MatDenseRestoreArray(X, &xx));
  PetscCall(MatDenseRestoreArrayRead(B, &bb));
  PetscFunctionReturn(0);
}

static PetscErrorCode EndStep_RigidFree(FcBody b, const FcStepInfo *s)
{
  Rigid             *r = (Rigid *)b->data;
  const PetscScalar *v;
  PetscReal          J1[9], ke = 0;

  PetscFunctionBegin;
  PetscCall(KinematicsFree_Private(b, s));
  PetscCall(VecCopy(b->ucur, b->u));
  PetscCall(VecCopy(r->x, b->v));
  /* ½ m |v|² + ½ ωᵀ J_w(t1) ω */
  FcMat3RotateDiag(b->rigid_R1, r->Jb, J1);
  PetscCall(VecGetArrayRead(b->v, &v));
  for (int i = 0; i < 3; i++) {
    ke += b->mass * v[i] * v[i];
    for (int j = 0; j < 3; j++) ke += v[3 + i] * J1[3 * i + j] * v[3 + j];
  }
  if (b->device) {
    PetscReal Fc[3], Tc[3];
    Coupling_Private(b, v, Fc, Tc);
    PetscCall(DeviceRecord_Private(b, s->t1, Fc, Tc));
  }
  PetscCall(VecRestoreArrayRead(b->v, &v));
  b->kinetic_energy = 0.5 * ke;
  b->strain_energy  = 0;
  PetscFunctionReturn(0);
}

/* J_c = [I, −[x − p]×], p = c + d1 (row-major 3 × 6) */
static void PointJacobian_RigidFree(FcBody b, const PetscReal x[3], PetscReal *J)
{
  PetscReal rr[3], S[9];
  for (int k = 0; k < 3; k++) rr[k] = x[k] - (b->rigid_c[k] + b->rigid_d1[k]);
  FcMat3Skew(rr, S);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      J[6 * i + j]     = i == j ? 1.0 : 0.0;
      J[6 * i + 3 + j] = -S[3 * i + j];
    }
}

static PetscErrorCode CreateFree_Private(const FcCase *c, FcBody b)
{
  const FcCaseMotion *mo = &b->spec->motion;
  Rigid              *r;
  PetscScalar        *v;
  FcTheta             th;

  PetscFunctionBegin;
  FcThetaFromCase(c, &th);
  PetscCall(PetscNew(&r));
  b->data = r;
  r->c    = c;
  for (int k = 0; k < 3; k++) r->Jb[k] = mo->inertia[k];
  r->th          = th;
  r->kinematics  = KinematicsFree_Private;
  b->ops.destroy = Destroy_RigidDynamic; /* both joints */
  b->mass        = mo->mass;
  PetscCall(CreateStateVecs_Private(b, 6, &r->x, &r->dx, &r->rfree, &r->u0, &r->v0));
  PetscCall(VecGetArray(b->v, &v));
  for (int k = 0; k < 3; k++) {
    v[k]     = mo->initial_velocity[k];
    v[3 + k] = mo->initial_angular_velocity[k];
  }
  PetscCall(VecRestoreArray(b->v, &v));
  if (b->device) {
    /* a coupled tool starts at the device's pose of t = 0: d = p_tgt(0) − c, R = R_dev(0) */
    PetscReal    p[3], q[4], R[9], pt[3], phi[3], zero[3] = {0, 0, 0};
    PetscScalar *u;
    PetscCall(DevicePose_Private(b, 0.0, p, q, R));
    Target_Private(b, p, R, pt);
    FcMat3Log(R, phi);
    PetscCall(VecGetArray(b->u, &u));
    for (int k = 0; k < 3; k++) {
      b->rigid_d0[k] = b->rigid_d1[k] = u[k] = pt[k] - b->rigid_c[k];
      u[3 + k]                               = phi[k];
    }
    PetscCall(VecRestoreArray(b->u, &u));
    for (int k = 0; k < 9; k++) b->rigid_R0[k] = b->rigid_R1[k] = R[k];
    PetscCall(DeviceRecord_Private(b, 0.0, zero, zero));
  }
  b->ops.beginstep     = BeginStep_RigidFree;
  b->ops.residual      = Residual_RigidFree;
  b->ops.solve         = Solve_RigidFree;
  b->ops.solvemulti    = SolveMulti_RigidFree;
  b->ops.update        = Update_RigidDynamic;
  b->ops.endstep       = EndStep_RigidFree;
  b->ops.pointjacobian = PointJacobian_RigidFree;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyGetCoupling(FcBody b, FcRigidCoupling *cp)
{
  Rigid *r;

  PetscFunctionBegin;
  PetscCheck(b->placed && b->device && b->device->coupled && b->ndof == 6, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
    "body %s is not a free rigid body driven through a coupling", b->name);
  r        = (Rigid *)b->data;
  cp->mass = b->mass;
  for (int k = 0; k < 3; k++) cp->Jb[k] = r->Jb[k];
  cp->K  = b->device->K;
  cp->B  = b->device->B;
  cp->Kr = b->device->Kr;
  cp->Br = b->device->Br;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyCouplingTarget(FcBody b, PetscReal t, PetscReal ptgt[3], PetscReal Rdev[9])
{
  PetscReal p[3], q[4];

  PetscFunctionBegin;
  PetscCheck(b->placed && b->device && b->device->coupled, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %s is not driven through a coupling", b->name);
  PetscCall(DevicePose_Private(b, t, p, q, Rdev));
  Target_Private(b, p, Rdev, ptgt);
  PetscFunctionReturn(0);
}

/* ---- mesh shape -------------------------------------------------------------------------------- */

/* An input error of the mesh loader names the mesh file only; a rigid shape's mesh is named by
 * the case, so the loader's line is caught here (not printed) and raised again prefixed with the
 * case file and JSON path. Other errors keep PETSc's traceback. */
typedef struct {
  char msg[4096];
} MeshCatch;

static PetscErrorCode MeshCatchHandler_Private(
  MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  MeshCatch *mc = (MeshCatch *)ctx;
  if (n == FC_ERR_INPUT) {
    if (p == PETSC_ERROR_INITIAL && mess) snprintf(mc->msg, sizeof mc->msg, "%s", mess);
    return n;
  }
  return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
}

/* shape "mesh": the solid is a tetrahedral mesh (FcMeshLoad: .msh or .geo, `refine` levels as
 * for deformable bodies, doc/mesh.md); its surface is the outward-oriented boundary faces,
 * restricted to the physical surface group `group` when given. Only the linear (corner) geometry
 * is used, so the mesh is read with order 1. The surface itself is assembled by the contact step
 * (contact_step.c, TargetSurface_Private), which builds the AABB tree over it in reference
 * coordinates and refits it at the current pose c + d + R (X − c) at each detection. */
static PetscErrorCode LoadMesh_Private(const FcCase *c, PetscInt index, FcBody b)
{
  const FcCaseShape *sh = &b->spec->shape;
  MeshCatch          mc = {{0}};
  PetscErrorCode     ierr;
  char               path[256];

  PetscFunctionBegin;
  FcCaseBodyPath(c, index, "shape.file", path, sizeof path);
  PetscCall(PetscPushErrorHandler(MeshCatchHandler_Private, &mc));
  ierr = FcMeshLoad(sh->mesh_file, sh->refine, 1, &b->mesh);
  PetscCall(PetscPopErrorHandler());
  /* a triangle-only mesh has no inside: the solid's volume mesh defines the outward orientation
   * of its boundary faces, hence the sign of the gap (doc/rigid.md) */
  if (ierr == FC_ERR_INPUT)
    return FcInputError(c->file, path, "%s%s", mc.msg,
      b->mesh.fault == FC_MESH_FAULT_NO_TETRAHEDRA ? "; a rigid \"mesh\" shape is the boundary of a tetrahedral volume mesh (surface-only meshes are not read)"
                                                   : "");
  PetscCall(ierr);
  if (sh->group[0]) {
    const FcMeshGroup *g;
    FcCaseBodyPath(c, index, "shape.group", path, sizeof path);
    PetscCall(FcMeshFindGroup(&b->mesh, sh->group, 2, &g));
    if (!g) {
      char list[1024];
      FcMeshGroupList(&b->mesh, list, sizeof list);
      return FcInputError(c->file, path, "no physical surface group '%s' in %s (available: %s)", sh->group, b->mesh.file, list);
    }
    FcCheckInput(g->nfaces > 0, c->file, path, "surface group '%s' of %s has no faces on the boundary of the mesh", sh->group, b->mesh.file);
  }
  FcCheckInput(b->mesh.nbfaces > 0, c->file, path, "the mesh %s has no boundary faces", b->mesh.file);
  PetscFunctionReturn(0);
}

/* The point a rigid body rotates about, c: the centre of a box, sphere or cylinder, the volume
 * centroid of a mesh shape (its centre of mass at uniform density: Σ_e V_e x̄_e / Σ_e V_e over the
 * corner tetrahedra), the reference point of a plane. */
static PetscErrorCode Centre_Private(FcBody b)
{
  const FcCaseShape *sh = &b->spec->shape;

  PetscFunctionBegin;
  if (sh->type == FC_SHAPE_PLANE)
    for (int k = 0; k < 3; k++) b->rigid_c[k] = sh->point[k];
  else if (sh->type != FC_SHAPE_MESH)
    for (int k = 0; k < 3; k++) b->rigid_c[k] = sh->center[k];
  else {
    const FcMesh *m  = &b->mesh;
    PetscReal     vt = 0, xs[3] = {0, 0, 0};
    for (PetscInt e = 0; e < m->nelems; e++) {
      const PetscInt  *n  = &m->conn[e * m->npe];
      const PetscReal *x0 = &m->X[3 * n[0]], *x1 = &m->X[3 * n[1]], *x2 = &m->X[3 * n[2]], *x3 = &m->X[3 * n[3]];
      PetscReal        a[3], bb[3], cc[3], v;
      for (int k = 0; k < 3; k++) {
        a[k]  = x1[k] - x0[k];
        bb[k] = x2[k] - x0[k];
        cc[k] = x3[k] - x0[k];
      }
      v = PetscAbsReal(a[0] * (bb[1] * cc[2] - bb[2] * cc[1]) - a[1] * (bb[0] * cc[2] - bb[2] * cc[0]) + a[2] * (bb[0] * cc[1] - bb[1] * cc[0])) / 6;
      vt += v;
      for (int k = 0; k < 3; k++) xs[k] += v * 0.25 * (x0[k] + x1[k] + x2[k] + x3[k]);
    }
    for (int k = 0; k < 3; k++) b->rigid_c[k] = vt > 0 ? xs[k] / vt : 0.0;
  }
  PetscFunctionReturn(0);
}

/* ---- device ------------------------------------------------------------------------------------ */

/* Load the device log of bodies[index].motion (or of its coupling): the case's format, units,
 * transform and window, and the case's end as the required end (a log shorter than the run is
 * refused: fcsim never extrapolates a recorded motion). The loader's one-line error "LOG: line N:
 * message" is raised again prefixed with the case file and the JSON path of the log's file. The
 * coupling's defaults: K = 1000 N/m, K_r = K J_max / m (the rotation's natural frequency about the
 * axis of largest inertia equals the translation's, sqrt(K/m)), critical damping B = 2 sqrt(K m),
 * B_r = 2 sqrt(K_r J_max). */
static PetscErrorCode DeviceCreate_Private(const FcCase *c, PetscInt index, FcBody b)
{
  const FcCaseMotion    *mo = &b->spec->motion;
  struct _FcRigidDevice *dv;
  FcTrajectoryTransform  T;
  FcTrajectoryOptions    o;
  MeshCatch              mc = {{0}};
  PetscErrorCode         ierr;
  char                   path[256];

  PetscFunctionBegin;
  PetscCall(PetscNew(&dv));
  b->device   = dv;
  dv->coupled = mo->coupled;
  for (int k = 0; k < 4; k++) T.q[k] = mo->dev_q[k];
  for (int k = 0; k < 3; k++) T.translation[k] = mo->dev_translation[k];
  T.scale = mo->dev_scale;
  PetscCall(PetscMemzero(&o, sizeof o));
  o.format     = mo->dev_format;
  o.units      = mo->dev_units[0] ? mo->dev_units : NULL;
  o.transform  = &T;
  o.window     = mo->dev_window;
  o.t_begin    = mo->dev_t0;
  o.t_end      = mo->dev_t1;
  o.t_required = c->steps * c->dt;
  FcCaseBodyPath(c, index, mo->coupled ? "motion.coupling.file" : "motion.file", path, sizeof path);
  PetscCall(PetscPushErrorHandler(MeshCatchHandler_Private, &mc));
  ierr = FcTrajectoryLoad(mo->dev_file, &o, &dv->tr);
  PetscCall(PetscPopErrorHandler());
  if (ierr == FC_ERR_INPUT) return FcInputError(c->file, path, "%s", mc.msg);
  PetscCall(ierr);
  for (int k = 0; k < 3; k++) dv->Xo[k] = mo->dev_has_offset ? mo->dev_offset[k] : b->rigid_c[k];
  if (mo->coupled) {
    const PetscReal Jmax = PetscMax(mo->inertia[0], PetscMax(mo->inertia[1], mo->inertia[2]));
    dv->K                = mo->K > 0 ? mo->K : 1000.0;
    dv->Kr               = mo->Kr > 0 ? mo->Kr : dv->K * Jmax / mo->mass;
    dv->B                = mo->B >= 0 ? mo->B : 2 * PetscSqrtReal(dv->K * mo->mass);
    dv->Br               = mo->Br >= 0 ? mo->Br : 2 * PetscSqrtReal(dv->Kr * Jmax);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode CreateRigid_Private(const FcCase *c, PetscInt index, FcBody *body)
{
  FcBody            b;
  const FcCaseBody *spec = &c->bodies[index];

  PetscFunctionBegin;
  PetscCall(PetscNew(&b));
  *body     = b;
  b->spec   = spec;
  b->rigid  = PETSC_TRUE;
  b->placed = PETSC_TRUE;
  PetscCall(PetscStrncpy(b->name, spec->name, sizeof b->name));
  if (spec->shape.type == FC_SHAPE_MESH) PetscCall(LoadMesh_Private(c, index, b));
  b->incscale = 1;
  PetscCall(Centre_Private(b));
  if (spec->motion.type == FC_MOTION_KINEMATIC && spec->motion.rot_has_center)
    for (int k = 0; k < 3; k++) b->rigid_c[k] = spec->motion.rot_center[k];
  if (spec->motion.has_device) {
    b->ops.destroy = Destroy_RigidPrescribed; /* frees the device also when what follows fails */
    PetscCall(DeviceCreate_Private(c, index, b));
    /* a kinematic replay turns the body about the tool point it drives */
    if (!spec->motion.coupled)
      for (int k = 0; k < 3; k++) b->rigid_c[k] = b->device->Xo[k];
  }
  PetscCall(Rotation_Private(b, 0.0, b->rigid_R0));
  PetscCall(Rotation_Private(b, 0.0, b->rigid_R1));
  PetscCall(Position_Private(b, 0.0, b->rigid_d0));
  PetscCall(Position_Private(b, 0.0, b->rigid_d1));
  if (b->device && !b->device->coupled) {
    const PetscReal zero[3] = {0, 0, 0};
    PetscCall(DeviceRecord_Private(b, 0.0, zero, zero));
  }
  if (spec->motion.type == FC_MOTION_DYNAMIC) {
    if (spec->motion.joint == FC_JOINT_FREE) {
      PetscCall(CreateFree_Private(c, b));
      PetscFunctionReturn(0);
    }
    if (spec->motion.joint == FC_JOINT_PRISMATIC) {
      PetscCall(CreateDynamic_Private(c, b));
      PetscFunctionReturn(0);
    }
    /* a fixed joint holds the body where it is: a prescribed (zero) motion */
    b->mass = spec->motion.mass;
  }
  b->ops.beginstep = BeginStep_Rigid;
  b->ops.residual  = Residual_Rigid;
  b->ops.solve     = Solve_Rigid;
  b->ops.update    = Update_Rigid;
  b->ops.endstep   = EndStep_Rigid;
  b->ndof          = 0;
  PetscFunctionReturn(0);
}

/* Body type "rigid" (FcBodyRegisterAll). Fixed, kinematic, or dynamic with a fixed joint: no
 * DoFs, its motion enters q only. Dynamic with a prismatic joint: one DoF, it enters W through its
 * mass (duriez2006 eq. 28–29); with a free joint: six DoFs (translation and rotation on SO(3)), it
 * enters W through its mass and inertia (doc/rigid.md). */
PetscErrorCode FcBodyCreate_Rigid(const FcCase *c, PetscInt index, FcBody *body)
{
  PetscFunctionBegin;
  PetscCall(CreateRigid_Private(c, index, body));
  PetscCall(FcBodySetRigidGeometry(*body));
  PetscFunctionReturn(0);
}
