/* fcsim — rigid bodies: a shape and a motion. The shape is analytic (plane, sphere, box,
 * cylinder) or "mesh": the boundary of a tetrahedral mesh (LoadMesh_Private below); either is
 * translated by the body's current translation d and never rotates.
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
 * (han2023 eq. 1–11, model.h) with no internal force: unknown x = v(t1) = ṗ(t1),
 *     p    = p0 + Δt (θ_vq v + (1 − θ_vq) v0)                      (han2023 eq. 4)
 *     m(v) = M (v − v0) − Δt e·F(t^θ) − e·(−Σ_a r_a)              (han2023 eq. 8, the contact impulse)
 *     A    = ∂m/∂v = M,
 * so the free increment is exact in one Newton iteration and the contact correction is
 * Δv += A⁻¹ Hᵀ r. Backward Euler is θ = θ_vq = 1. A quasi-static case has no inertia to balance
 * the applied force (A = 0): rejected. */
#include "../model/model.h"
#include <string.h>

typedef struct {
  const FcCase *c;
  PetscReal     axis[3];          /* e (prismatic) */
  PetscReal     theta, theta_vq;  /* θ-method parameters (1, 1 for backward Euler) */
  Vec           x, dx, rfree, u0, v0;
} Rigid;

static PetscErrorCode Position_Private(FcBody b, PetscReal t, PetscReal d[3])
{
  PetscFunctionBegin;
  FcCaseMotionDisplacement(&b->spec->motion, t, d);
  PetscFunctionReturn(0);
}

static PetscErrorCode BeginStep_Rigid(FcBody b, const FcStepInfo *s)
{
  PetscFunctionBegin;
  b->incscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : s->dt;
  PetscCall(Position_Private(b, s->t0, b->rigid_d0));
  PetscCall(Position_Private(b, s->t1, b->rigid_d1));
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
  p[0] = u0[0] + s->dt * (r->theta_vq * x[0] + (1.0 - r->theta_vq) * v0[0]);
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
  b->incscale = s->dt * r->theta_vq;
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
  const PetscReal    th   = r->theta;
  const PetscReal    tth  = th == 1.0 ? s->t1 : th * s->t1 + (1.0 - th) * s->t0;
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

static PetscErrorCode Update_RigidDynamic(FcBody b, const FcStepInfo *s)
{
  Rigid *r = (Rigid *)b->data;

  PetscFunctionBegin;
  PetscCall(VecAXPY(r->x, 1.0, r->dx));
  PetscCall(Kinematics_Private(b, s));
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
  r->theta    = c->integrator == FC_INTEGRATOR_THETA ? c->theta : 1.0;
  r->theta_vq = c->integrator == FC_INTEGRATOR_THETA ? c->theta_vq : 1.0;
  b->ops.destroy = Destroy_RigidDynamic;
  snprintf(path, sizeof path, "bodies[%d].motion.type", (int)index);
  FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC, c->file, path,
               "a dynamic rigid body with a prismatic joint needs inertia, but time.integrator is \"quasi_static\" (only contact would balance its force): use a dynamic integrator or a kinematic motion");
  FcCheckInput(r->theta_vq > 0, c->file, "time.theta_vq", "theta_vq = 0 makes the positions at the end of a step independent of the unknown velocity (q = q0 + dt v0), so contact cannot act on them; use theta_vq > 0");
  /* the joint allows velocities along e only */
  for (int k = 0; k < 3; k++) ve += r->axis[k] * mo->initial_velocity[k];
  for (int k = 0; k < 3; k++) {
    PetscReal o = mo->initial_velocity[k] - ve * r->axis[k];
    voff += o * o;
    vn += mo->initial_velocity[k] * mo->initial_velocity[k];
  }
  snprintf(path, sizeof path, "bodies[%d].motion.initial_velocity", (int)index);
  FcCheckInput(voff <= 1e-20 * vn, c->file, path, "must be parallel to the prismatic joint's axis (its component normal to the axis is %g m/s)", (double)PetscSqrtReal(voff));
  b->ndof = 1;
  b->mass = mo->mass;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, b->ndof, &b->u));
  PetscCall(VecSet(b->u, 0.0));
  PetscCall(VecDuplicate(b->u, &b->v));
  PetscCall(VecSet(b->v, ve));
  PetscCall(VecDuplicate(b->u, &b->ucur));
  PetscCall(VecSet(b->ucur, 0.0));
  PetscCall(VecDuplicate(b->u, &b->rate));
  PetscCall(VecSet(b->rate, 0.0));
  PetscCall(VecDuplicate(b->u, &r->x));
  PetscCall(VecDuplicate(b->u, &r->dx));
  PetscCall(VecSet(r->dx, 0.0));
  b->dx = r->dx; /* shared with the contact step; owned here */
  PetscCall(VecDuplicate(b->u, &r->rfree));
  PetscCall(VecSet(r->rfree, 0.0));
  PetscCall(VecDuplicate(b->u, &r->u0));
  PetscCall(VecDuplicate(b->u, &r->v0));
  b->ops.beginstep     = BeginStep_RigidDynamic;
  b->ops.residual      = Residual_RigidDynamic;
  b->ops.solve         = Solve_RigidDynamic;
  b->ops.solvemulti    = SolveMulti_RigidDynamic;
  b->ops.update        = Update_RigidDynamic;
  b->ops.endstep       = EndStep_RigidDynamic;
  b->ops.pointjacobian = PointJacobian_RigidDynamic;
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
 * coordinates and refits it at X + d at each detection (a translation: the body never rotates). */
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
  if (ierr == FC_ERR_INPUT) return FcInputError(c->file, path, "%s%s", mc.msg, strstr(mc.msg, "no tetrahedra") ? "; a rigid \"mesh\" shape is the boundary of a tetrahedral volume mesh (surface-only meshes are not read)" : "");
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
  PetscCall(Position_Private(b, 0.0, b->rigid_d0));
  PetscCall(Position_Private(b, 0.0, b->rigid_d1));
  if (spec->motion.type == FC_MOTION_DYNAMIC) {
    snprintf(path, sizeof path, "bodies[%d].motion.joint.type", (int)index);
    FcCheckInput(spec->motion.joint != FC_JOINT_FREE, c->file, path, "free joints are not implemented yet: use prismatic or fixed");
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
