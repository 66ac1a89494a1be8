/* fcsim — rigid bodies: a shape and a motion (doc/rigid.md). The shape is analytic (plane,
 * sphere, box, cylinder) or "mesh": the boundary of a tetrahedral mesh (LoadMesh_Private below);
 * either is placed at the body's current pose x = c + d + R (X − c) (model.h FcRigidPlace): d the
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
 * SO(3) (the section "dynamic, free joint" below). */
#include "model.h"
#include "theta.h"
#include "../core/mat3.h"

/* A dynamic rigid body (prismatic or free joint). */
typedef struct {
  const FcCase *c;
  PetscReal     axis[3];          /* e (prismatic) */
  PetscReal     Jb[3];            /* free: principal moments of inertia (body axes = world axes at t = 0) */
  PetscReal     Jw[9], Jwinv[9];  /* free: R0 diag(Jb) R0ᵀ and its inverse, for the step */
  FcTheta       th;               /* θ-method parameters (1, 1 for backward Euler) */
  Vec           x, dx, rfree, u0, v0;
  PetscErrorCode (*kinematics)(FcBody, const FcStepInfo *); /* positions at the iterate x */
} Rigid;

static PetscErrorCode Position_Private(FcBody b, PetscReal t, PetscReal d[3])
{
  PetscFunctionBegin;
  FcCaseMotionDisplacement(&b->spec->motion, t, d);
  PetscFunctionReturn(0);
}

/* Prescribed rotation at t: exp(angle(t) [a]×), a the unit axis (I without a rotation). */
static void Rotation_Private(FcBody b, PetscReal t, PetscReal R[9])
{
  const FcCaseMotion *mo = &b->spec->motion;
  PetscReal           th = FcCaseMotionAngle(mo, t), phi[3];
  for (int k = 0; k < 3; k++) phi[k] = th * mo->rot_axis[k];
  FcMat3Exp(phi, R);
}

static PetscErrorCode BeginStep_Rigid(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  b->incscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : s->dt;
  PetscCall(Position_Private(b, s->t0, b->rigid_d0));
  PetscCall(Position_Private(b, s->t1, b->rigid_d1));
  Rotation_Private(b, s->t0, b->rigid_R0);
  Rotation_Private(b, s->t1, b->rigid_R1);
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
  (void)s;
  b->kinetic_energy = 0; /* prescribed motion carries no modelled inertia */
  b->strain_energy  = 0;
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
  Rigid             *r    = (Rigid *)b->data;
  const FcCaseMotion *mo  = &b->spec->motion;
  const PetscReal    tth  = FcThetaTime(&r->th, s->t0, s->t1);
  PetscReal          g[3], F = 0, inert, ramp = FcRampEval(&mo->force_ramp, tth);
  const PetscScalar *x, *v0, *fc = NULL;
  PetscScalar       *rf;

  PetscFunctionBegin;
  PetscCall(Kinematics_Private(b, s));
  FcCaseGravity(r->c, tth, g);
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

static PetscErrorCode CreateDynamic_Private(const FcCase *c, PetscInt index, FcBody b)
{
  const FcCaseMotion *mo = &b->spec->motion;
  Rigid              *r;
  PetscReal           ve = 0, voff = 0, vn = 0;
  char                path[128];

  PetscFunctionBegin;
  PetscCall(PetscNew(&r));
  b->data = r;
  r->c    = c;
  for (int k = 0; k < 3; k++) r->axis[k] = mo->axis[k]; /* unit (case.c normalizes it) */
  FcThetaFromCase(c, &r->th);
  r->kinematics  = Kinematics_Private;
  b->ops.destroy = Destroy_RigidDynamic;
  snprintf(path, sizeof path, "bodies[%d].motion.type", (int)index);
  FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC, c->file, path,
               "a dynamic rigid body with a prismatic joint needs inertia, but time.integrator is \"quasi_static\" (only contact would balance its force): use a dynamic integrator or a kinematic motion");
  PetscCall(FcThetaCheckInput(c, &r->th, "contact"));
  /* the joint allows velocities along e only */
  for (int k = 0; k < 3; k++) ve += r->axis[k] * mo->initial_velocity[k];
  for (int k = 0; k < 3; k++) {
    PetscReal o = mo->initial_velocity[k] - ve * r->axis[k];
    voff += o * o;
    vn += mo->initial_velocity[k] * mo->initial_velocity[k];
  }
  snprintf(path, sizeof path, "bodies[%d].motion.initial_velocity", (int)index);
  FcCheckInput(voff <= 1e-20 * vn, c->file, path, "must be parallel to the prismatic joint's axis (its component normal to the axis is %g m/s)", (double)PetscSqrtReal(voff));
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
  (void)FcMat3Inv(r->Jw, r->Jwinv);
  PetscCall(KinematicsFree_Private(b, s));
  PetscFunctionReturn(0);
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
  FcCaseGravity(r->c, tth, g);
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

/* y = A⁻¹ z for A = diag(m I, J_w) */
static void ApplyAinv_Private(FcBody b, const PetscScalar *z, PetscScalar *y)
{
  Rigid *r = (Rigid *)b->data;
  PetscReal  a[3];
  for (int k = 0; k < 3; k++) a[k] = z[3 + k];
  for (int k = 0; k < 3; k++) y[k] = z[k] / b->mass;
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

static PetscErrorCode CreateFree_Private(const FcCase *c, PetscInt index, FcBody b)
{
  const FcCaseMotion *mo = &b->spec->motion;
  Rigid              *r;
  PetscScalar        *v;
  FcTheta             th;
  char                path[128];

  PetscFunctionBegin;
  FcThetaFromCase(c, &th);
  snprintf(path, sizeof path, "bodies[%d].motion.type", (int)index);
  FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC, c->file, path,
               "a dynamic rigid body with a free joint needs inertia, but time.integrator is \"quasi_static\": use a dynamic integrator or a kinematic motion");
  PetscCall(FcThetaCheckInput(c, &th, "contact"));
  snprintf(path, sizeof path, "bodies[%d].shape.type", (int)index);
  FcCheckInput(b->spec->shape.type != FC_SHAPE_PLANE, c->file, path, "a plane is infinite: it has no centre of mass to rotate about, so it cannot have a free joint (use prismatic or fixed)");
  PetscCall(PetscNew(&r));
  b->data = r;
  r->c    = c;
  for (int k = 0; k < 3; k++) r->Jb[k] = mo->inertia[k];
  r->th          = th;
  r->kinematics  = KinematicsFree_Private;
  b->ops.destroy = Destroy_RigidDynamic; /* both joints */
  b->mass = mo->mass;
  PetscCall(CreateStateVecs_Private(b, 6, &r->x, &r->dx, &r->rfree, &r->u0, &r->v0));
  PetscCall(VecGetArray(b->v, &v));
  for (int k = 0; k < 3; k++) {
    v[k]     = mo->initial_velocity[k];
    v[3 + k] = mo->initial_angular_velocity[k];
  }
  PetscCall(VecRestoreArray(b->v, &v));
  b->ops.beginstep     = BeginStep_RigidFree;
  b->ops.residual      = Residual_RigidFree;
  b->ops.solve         = Solve_RigidFree;
  b->ops.solvemulti    = SolveMulti_RigidFree;
  b->ops.update        = Update_RigidDynamic;
  b->ops.endstep       = EndStep_RigidFree;
  b->ops.pointjacobian = PointJacobian_RigidFree;
  PetscFunctionReturn(0);
}

/* ---- mesh shape -------------------------------------------------------------------------------- */

/* An input error of the mesh loader names the mesh file only; a rigid shape's mesh is named by
 * the case, so the loader's line is caught here (not printed) and raised again prefixed with the
 * case file and JSON path. Other errors keep PETSc's traceback. */
typedef struct {
  char msg[4096];
} MeshCatch;

static PetscErrorCode MeshCatchHandler_Private(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
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
  char               path[128];

  PetscFunctionBegin;
  snprintf(path, sizeof path, "bodies[%d].shape.file", (int)index);
  PetscCall(PetscPushErrorHandler(MeshCatchHandler_Private, &mc));
  ierr = FcMeshLoad(sh->mesh_file, sh->refine, 1, &b->mesh);
  PetscCall(PetscPopErrorHandler());
  /* a triangle-only mesh has no inside: the solid's volume mesh defines the outward orientation
   * of its boundary faces, hence the sign of the gap (doc/rigid.md) */
  if (ierr == FC_ERR_INPUT) return FcInputError(c->file, path, "%s%s", mc.msg, b->mesh.fault == FC_MESH_FAULT_NO_TETRAHEDRA ? "; a rigid \"mesh\" shape is the boundary of a tetrahedral volume mesh (surface-only meshes are not read)" : "");
  PetscCall(ierr);
  if (sh->group[0]) {
    const FcMeshGroup *g;
    snprintf(path, sizeof path, "bodies[%d].shape.group", (int)index);
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
    const FcMesh *m = &b->mesh;
    PetscReal     vt = 0, xs[3] = {0, 0, 0};
    for (PetscInt e = 0; e < m->nelems; e++) {
      const PetscInt  *n = &m->conn[e * m->npe];
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

PetscErrorCode FcBodyCreateRigid(const FcCase *c, PetscInt index, FcBody *body)
{
  FcBody            b;
  const FcCaseBody *spec = &c->bodies[index];
  char              path[128];

  PetscFunctionBegin;
  PetscCall(PetscNew(&b));
  *body   = b;
  b->spec = spec;
  b->rigid = PETSC_TRUE;
  PetscCall(PetscStrncpy(b->name, spec->name, sizeof b->name));
  if (spec->shape.type == FC_SHAPE_MESH) PetscCall(LoadMesh_Private(c, index, b));
  b->incscale = 1;
  PetscCall(Centre_Private(b));
  if (spec->motion.type == FC_MOTION_KINEMATIC && spec->motion.rot_has_center)
    for (int k = 0; k < 3; k++) b->rigid_c[k] = spec->motion.rot_center[k];
  Rotation_Private(b, 0.0, b->rigid_R0);
  Rotation_Private(b, 0.0, b->rigid_R1);
  PetscCall(Position_Private(b, 0.0, b->rigid_d0));
  PetscCall(Position_Private(b, 0.0, b->rigid_d1));
  if (spec->motion.type == FC_MOTION_DYNAMIC) {
    if (spec->motion.joint == FC_JOINT_FREE) {
      PetscCall(CreateFree_Private(c, index, b));
      PetscFunctionReturn(0);
    }
    snprintf(path, sizeof path, "bodies[%d].motion.initial_angular_velocity", (int)index);
    FcCheckInput(spec->motion.initial_angular_velocity[0] == 0 && spec->motion.initial_angular_velocity[1] == 0 && spec->motion.initial_angular_velocity[2] == 0, c->file, path, "must be [0, 0, 0]: only a free joint rotates");
    if (spec->motion.joint == FC_JOINT_PRISMATIC) {
      PetscCall(CreateDynamic_Private(c, index, b));
      PetscFunctionReturn(0);
    }
    /* a fixed joint holds the body where it is: a prescribed (zero) motion */
    snprintf(path, sizeof path, "bodies[%d].motion.initial_velocity", (int)index);
    FcCheckInput(spec->motion.initial_velocity[0] == 0 && spec->motion.initial_velocity[1] == 0 && spec->motion.initial_velocity[2] == 0, c->file, path, "must be [0, 0, 0] with a fixed joint");
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
