/* fcsim — the geometry of a rigid body for contact detection (model.h, ops nodes, proximity,
 * startpoint): every shape is placed at x = c + d + R (X − c) (FcRigidPlace; doc/rigid.md §2b),
 * an analytic shape's directions rotated by R. */
#include "body_impl.h"

/* y = R a (a direction of a rigid shape at its current rotation) */
static void Rotate_Private(const PetscReal R[9], const PetscReal a[3], PetscReal y[3])
{
  for (int i = 0; i < 3; i++) y[i] = R[3 * i] * a[0] + R[3 * i + 1] * a[1] + R[3 * i + 2] * a[2];
}

/* a rigid "mesh" shape: its nodes at c + d1 + R1 (X − c) */
static PetscErrorCode Nodes_RigidMesh(FcBody b, PetscReal *x)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < b->mesh.nnodes; i++) FcRigidPlace(b, PETSC_FALSE, &b->mesh.X[3 * i], &x[3 * i]);
  PetscFunctionReturn(0);
}

/* an analytic shape placed at the current pose: points c + d1 + R1 (X − c), directions R1 a */
static PetscErrorCode Proximity_RigidShape(FcBody b, const PetscReal p[3], const PetscReal t1_prev[3], FcProximity *c)
{
  const FcCaseShape *sh = &b->spec->shape;
  PetscReal          x0[3], dir[3];

  PetscFunctionBegin;
  switch (sh->type) {
  case FC_SHAPE_PLANE:
    FcRigidPlace(b, PETSC_FALSE, sh->point, x0);
    Rotate_Private(b->rigid_R1, sh->normal, dir);
    PetscCall(FcProximityPlane(p, x0, dir, t1_prev, c));
    break;
  case FC_SHAPE_SPHERE:
    FcRigidPlace(b, PETSC_FALSE, sh->center, x0);
    PetscCall(FcProximitySphere(p, x0, sh->radius, t1_prev, c));
    break;
  case FC_SHAPE_BOX:
    /* axis-aligned in the reference configuration: its axes are R1's columns */
    FcRigidPlace(b, PETSC_FALSE, sh->center, x0);
    PetscCall(FcProximityBox(p, x0, b->rigid_R1, sh->half_extents, t1_prev, c));
    break;
  case FC_SHAPE_CYLINDER:
    FcRigidPlace(b, PETSC_FALSE, sh->center, x0);
    Rotate_Private(b->rigid_R1, sh->axis, dir);
    PetscCall(FcProximityCylinder(p, x0, dir, sh->radius, sh->half_length, t1_prev, c));
    break;
  default: SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "rigid shape type %d", (int)sh->type);
  }
  PetscFunctionReturn(0);
}

/* the material point now at x (t1) was at x0 at t0: X = c + R1ᵀ (x − c − d1), x0 = place(t0, X) */
static void StartPoint_Rigid(FcBody b, const PetscReal x[3], PetscReal x0[3])
{
  const PetscReal *R1 = b->rigid_R1;
  PetscReal        X[3];
  for (int i = 0; i < 3; i++) {
    X[i] = b->rigid_c[i];
    for (int j = 0; j < 3; j++) X[i] += R1[3 * j + i] * (x[j] - b->rigid_c[j] - b->rigid_d1[j]);
  }
  FcRigidPlace(b, PETSC_TRUE, X, x0);
}

PetscErrorCode FcBodySetRigidGeometry(FcBody b)
{
  PetscFunctionBegin;
  if (b->spec->shape.type == FC_SHAPE_MESH) b->ops.nodes = Nodes_RigidMesh;
  else b->ops.proximity = Proximity_RigidShape;
  if (!b->ndof) b->ops.startpoint = StartPoint_Rigid;
  PetscFunctionReturn(0);
}
