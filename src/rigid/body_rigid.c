/* fcsim — rigid bodies with prescribed motion (fixed or kinematic translation): no DoFs, an
 * analytic shape, and a motion that enters the contact problem through q only (duriez2006 §3:
 * a body whose motion is imposed contributes nothing to the Delassus operator W). Dynamic rigid
 * bodies (mass, joints) join the same ops table in a later step of the contact issue. */
#include "../model/model.h"

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

PetscErrorCode FcBodyCreateRigid(const FcCase *c, PetscInt index, FcBody *body)
{
  FcBody            b;
  const FcCaseBody *spec = &c->bodies[index];
  char              path[128];

  PetscFunctionBegin;
  PetscCall(PetscNew(&b));
  *body   = b;
  b->spec = spec;
  PetscCall(PetscStrncpy(b->name, spec->name, sizeof b->name));
  snprintf(path, sizeof path, "bodies[%d].motion.type", (int)index);
  FcCheckInput(spec->motion.type != FC_MOTION_DYNAMIC, c->file, path, "dynamic rigid bodies are not implemented yet (use \"fixed\" or \"kinematic\")");
  snprintf(path, sizeof path, "bodies[%d].shape.type", (int)index);
  FcCheckInput(spec->shape.type != FC_SHAPE_MESH, c->file, path, "rigid \"mesh\" shapes are not implemented yet (use plane, box, sphere or cylinder)");
  b->ops.beginstep = BeginStep_Rigid;
  b->ops.residual  = Residual_Rigid;
  b->ops.solve     = Solve_Rigid;
  b->ops.update    = Update_Rigid;
  b->ops.endstep   = EndStep_Rigid;
  b->ndof          = 0;
  b->incscale      = 1;
  PetscCall(Position_Private(b, 0.0, b->rigid_d0));
  PetscCall(Position_Private(b, 0.0, b->rigid_d1));
  PetscFunctionReturn(0);
}
