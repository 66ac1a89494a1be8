/* fcsim — the model of one run: bodies built from the case, their state, and the probes.
 *
 * A body answers the few questions the time step asks (DESIGN.md "Body"): its DoFs, the
 * linearized momentum matrix A and residual for the current iterate, a solve for the free
 * increment, how to apply a correction, and its end-of-step state. Deformable bodies do it
 * with FEM (src/model/body_deformable.c); rigid bodies (src/model/body_rigid.c) join through the
 * same ops table. Both integrate in time with the θ-method of src/model/theta.h. */
#ifndef FC_MODEL_H
#define FC_MODEL_H

#include "../core/fc.h"
#include "../case/case.h"
#include "../mesh/mesh.h"
#include "../fem/fem.h"
#include "../collide/collide.h"
#include "../contact/status.h"
#include "schur.h"

/* What one step asks of a body. Quasi-static: unknown x = u(t1), residual f_int(u) − f_ext.
 * Dynamics, the θ-method of han2023 eq. 1–11 (backward Euler θ = θ_vq = 1, midpoint ½, ½,
 * symplectic Euler θ = 0, θ_vq = 1; the case's theta, theta_vq): unknown x = v(t1),
 *   q    = q0 + dt (θ_vq v + (1 − θ_vq) v0),   q^θ = θ q + (1 − θ) q0,   v^θ = θ v + (1 − θ) v0,
 *   m(v) = M (v − v0) + dt [f_int(q^θ) + (αM + βK) v^θ − f_ext(t^θ)],
 *   A    = ∂m/∂v = (1 + α θ dt) M + θ dt (θ_vq dt + β) K.
 * (theta.h, doc/dynamics.md). */
typedef struct {
  FcIntegratorType integrator;
  PetscInt         step;
  PetscReal        t0, t1, dt;
} FcStepInfo;

/* Per-step timings (seconds) accumulated by the body, reset by the step. */
typedef struct {
  PetscReal assembly, factor, solve;
} FcBodyTimes;

typedef struct _p_FcBody *FcBody;

struct _FcBodyOps {
  /* Predictor: x = x0, constrained DoFs set to their prescribed values at t1. */
  PetscErrorCode (*beginstep)(FcBody, const FcStepInfo *);
  /* Residual and matrix at the current iterate; *rnorm = ‖residual‖ on free DoFs,
   * *scale = the largest of the norms of the residual's terms (for relative tests). */
  PetscErrorCode (*residual)(FcBody, const FcStepInfo *, PetscReal *rnorm, PetscReal *scale);
  /* Free increment dx = −A⁻¹ residual (zero on constrained DoFs); not applied yet. */
  PetscErrorCode (*solve)(FcBody, const FcStepInfo *, PetscReal *dxnorm);
  /* X = A⁻¹ B for a dense B (ndof × k, zero rows on constrained DoFs): the compliance columns. */
  PetscErrorCode (*solvemulti)(FcBody, Mat B, Mat X);
  /* x += dx (after the contact correction has been added to dx). */
  PetscErrorCode (*update)(FcBody, const FcStepInfo *);
  /* Accept the step: u, v at t1, reactions. */
  PetscErrorCode (*endstep)(FcBody, const FcStepInfo *);
  PetscErrorCode (*destroy)(FcBody);
  /* Rigid bodies with DoFs: J (3 × ndof, row-major) with ẋ = J ẋ_dof the velocity of the body's
   * material point at x per unit DoF velocity (duriez2006 eq. 29: the contact Jacobian J_c of a
   * rigid body is the frame rows times J). NULL for deformable bodies. */
  void (*pointjacobian)(FcBody, const PetscReal x[3], PetscReal *J);
  /* Compliance "schur" (deformable bodies; NULL otherwise): factor A through its Schur complement
   * onto the participating DoFs idx (han2023 §VI-A, src/model/schur.h), and get that
   * factorization (valid after a solve of the current iteration). */
  PetscErrorCode (*setparticipating)(FcBody, PetscInt np, const PetscInt *idx);
  PetscErrorCode (*getschur)(FcBody, FcSchur *);
  /* Geometry for contact detection (the contact step asks these, never the body's kind).
   * nodes: the current place x (3 per node) of the body's mesh nodes at the iterate, X + u
   * (deformable) or c + d1 + R1 (X − c) (a rigid "mesh" shape); NULL for a body without a mesh.
   * proximity: the closest point to p of the body's analytic shape at its current place, the
   * frame's t1 continued from t1_prev (may be NULL); NULL for a body whose surface is a mesh.
   * startpoint: for a body without DoFs (a prescribed motion), x0, the place at t0 of the material
   * point now at x; NULL otherwise. */
  PetscErrorCode (*nodes)(FcBody, PetscReal *x);
  PetscErrorCode (*proximity)(FcBody, const PetscReal p[3], const PetscReal t1_prev[3], FcProximity *c);
  void (*startpoint)(FcBody, const PetscReal x[3], PetscReal x0[3]);
};

#define FC_RIGID_MAX_DOF 6 /* a free rigid body: 3 translations and 3 rotations */

typedef struct {
  PetscInt   nnodes;   /* nodes of a probe's group (owned by the mesh) */
  PetscInt  *nodes;
  PetscReal *weight;   /* displacement probes on a group: ∫N_a dA / A per node (owned) */
} FcNodeSet;

struct _p_FcBody {
  char               name[FC_NAME_LEN];
  const FcCaseBody  *spec;
  struct _FcBodyOps  ops;
  FcMesh             mesh;
  FcMaterial         material;
  PetscReal          volume, mass;
  PetscInt           ndof;
  /* Rigid body (src/model/body_rigid.c): an analytic shape, or a mesh shape (mesh: the
   * tetrahedral mesh whose boundary is the shape; no material, no field). ndof = 0 for a
   * prescribed motion (fixed, kinematic, or a dynamic body with a fixed joint), else the joint's
   * DoFs (prismatic: 1, free: 6); then u, v hold the joint coordinates and velocities, ucur, dx,
   * rate and fcontact are ndof long, and reaction is NULL. */
  PetscBool          rigid;
  Vec                u, v;        /* state at the end of the last accepted step */
  Vec                reaction;    /* support reactions (all DoFs; zero off the constraints) */
  PetscReal          strain_energy, kinetic_energy;
  PetscInt           nbc;         /* constrained DoFs (sorted, unique) */
  PetscInt          *bc_dofs;
  FcBodyTimes        times;
  /* Version of the operator solve and solvemulti apply (A⁻¹): a deformable body without the
   * co-rotated split counts its factorizations of A (1, 2, ...), so a compliance may keep what it
   * derived from A⁻¹ while this stays the same (src/compliance/exact.c); 0: not tracked, the
   * operator may change at any call (rigid bodies, the co-rotated split: R enters the solves). */
  PetscInt64         opstate;
  /* Inertia correction of the Newton matrix in the step (body_deformable.c FormMatrix_Private):
   * the largest shift δ used (relative to diag(A)/diag(M); 0: none) and the extra
   * factorizations it took. Reset by the step. */
  PetscReal          shift;
  PetscInt           refactors;
  PetscReal          penalty;     /* largest ρ of the step (relative to the mean diagonal of A; 0: none) */
  /* Rows for that correction, set by the contact step (src/step/contact_step.c): the normal rows
   * h_a of H (restricted to this body's free DoFs) of the contacts active in the last contact
   * correction, CSR: row s has stab_dof/stab_val[stab_ptr[s] .. stab_ptr[s+1]). */
  PetscInt           nstab, stab_nnz, stab_cap, stab_nnzcap;
  PetscInt          *stab_ptr, *stab_dof;
  PetscReal         *stab_val;
  /* Contact coupling (src/step/contact_step.c). The unknown x is v (dynamics) or u (quasi-static);
   * a displacement increment is incscale·Δx (dt θ_vq by han2023 eq. 4, or 1). */
  Vec                ucur;        /* displacement at the current Newton iterate */
  Vec                dx;          /* increment of x: free part, then + A⁻¹ Hᵀ r */
  Vec                rate;        /* state part of the tangential motion: v_k, or u_k − u0 */
  Vec                fcontact;    /* Hᵀ r of the last contact solve (force or impulse), in the residual */
  PetscReal          incscale;
  PetscReal          rigid_d0[3], rigid_d1[3]; /* rigid bodies: translation at t0 and at t1 (dynamic: at the
                                                 * current Newton iterate; detection reads d1) */
  PetscReal          rigid_R0[9], rigid_R1[9]; /* rigid bodies: rotation (row-major, world from reference)
                                                 * at t0 and at t1 / the iterate; I unless the body rotates */
  PetscReal          rigid_c[3];                /* rigid bodies: the point the rotation is about (the centre
                                                 * of mass of a free body), reference coordinates */
  struct _FcRigidDevice *device;               /* rigid bodies driven by a device log (motion "trajectory" or a
                                                 * coupling, doc/rigid.md §2d); NULL otherwise */
  void              *data;        /* type-specific */
};

typedef struct {
  const FcCase *c;
  PetscInt      nbodies;
  FcBody       *bodies;
  /* probes: resolved to bodies, nodes and groups */
  PetscInt      nprobe_cols;
  char        **probe_cols;
  PetscInt     *probe_node;   /* displacement probes: node index, else -1 */
  PetscInt     *probe_body;   /* body index, -1 = all bodies */
  FcNodeSet    *probe_group;  /* reaction probes */
} FcModel;

/* The current contacts as plain data (filled by the contact step): contact point x (3m), frame
 * vectors n, t1, t2 with stride 9 (n at 9a, t1 at 9a+3, t2 at 9a+6), r the force on the pair's
 * first body (contacts[i].pair[0], the contactor of the first pass) in the local frame [N] (3m),
 * n pointing from the pair's second body towards the first, gap (m), status an FcContactStatus
 * (separated, stick, slip), pair the case's contact pair index. A second-pass contact of a both_passes pair
 * (contactor: the second body) is given with its frame flipped so that this holds for it too
 * (contact_step.c, FcContactStepGetView; doc/contact.md "Two-pass contact"). */
typedef struct {
  PetscInt         m;
  const PetscReal *x, *n, *t1, *t2, *r, *gap;
  const PetscInt  *status, *pair;
} FcContactView;

/* Build bodies (load meshes, create materials, resolve groups, assemble what is constant).
 * Unknown groups and the like are input errors naming the case file and JSON path. */
PetscErrorCode FcModelCreate(const FcCase *c, FcModel *m);
PetscErrorCode FcModelDestroy(FcModel *m);
/* Probe values (nprobe_cols) for the current state; cv may be NULL (no contact pairs). */
PetscErrorCode FcModelProbes(FcModel *m, const FcContactView *cv, PetscReal *values);

PetscErrorCode FcBodyCreateDeformable(const FcCase *c, PetscInt index, FcBody *b);
/* The geometry ops of a rigid body (nodes for a "mesh" shape, proximity for an analytic one,
 * startpoint without DoFs), from its shape and place (rigid_shape.c); FcModelCreate calls it
 * after FcBodyCreateRigid. */
PetscErrorCode FcBodySetRigidGeometry(FcBody b);
/* Rigid body (analytic or mesh shape). Fixed, kinematic, or dynamic with a fixed joint: no DoFs,
 * its motion enters q only. Dynamic with a prismatic joint: one DoF, it enters W through its mass
 * (duriez2006 eq. 28–29); with a free joint: six DoFs (translation and rotation on SO(3)), it
 * enters W through its mass and inertia (doc/rigid.md). */
PetscErrorCode FcBodyCreateRigid(const FcCase *c, PetscInt index, FcBody *b);
PetscErrorCode FcBodyDestroy(FcBody *b);

/* A rigid body driven by a device log (doc/rigid.md §2d): its per-step record, FC_DEVICE_NCOLS
 * values named by FcDeviceColumns (suffixes of "<body>_"): the device pose at t1 (position [m],
 * unit quaternion w, x, y, z, world), the tool pose (the world position of the tool point the
 * device drives, `offset`, and the body's rotation as a quaternion of the same sign as the
 * device's), and the force [N] and torque [N m] the device renders: minus the coupling's force
 * on the tool and minus its torque (about the centre of mass); zero for a kinematic replay. */
#define FC_DEVICE_NCOLS 20
extern const char *const FcDeviceColumns[FC_DEVICE_NCOLS];
PetscErrorCode FcBodyDeviceRow(FcBody b, PetscReal *row);
/* The pose at time t of a rigid body whose motion is prescribed (fixed, kinematic, or a kinematic
 * device replay): its points X are at c + d + R (X − c), c = b->rigid_c (doc/rigid.md §2b), the
 * same d and R the body's steps use. An error for a body with DoFs. */
PetscErrorCode FcBodyPrescribedPose(FcBody b, PetscReal t, PetscReal d[3], PetscReal R[9]);
/* A free rigid tool driven through the virtual coupling (doc/rigid.md §2d), as the haptic loop
 * integrates it between steps (src/run/haptic.c): mass m [kg], principal moments Jb [kg m²]
 * (body axes = world axes at t = 0, so J_w = R diag(Jb) Rᵀ), the coupling's constants K [N/m],
 * B [N s/m], K_r [N m/rad], B_r [N m s/rad]. FcBodyGetCoupling is an error for a body without a
 * coupling. FcBodyCouplingTarget: the coupling's target at t, p_tgt = p_dev + R_dev (c − X_o) for
 * the centre of mass and R_dev for the rotation (the same the body's steps use). The tool's
 * state is the body's: rigid_d1, rigid_R1 and b->v = (v, ω) after a step. */
typedef struct {
  PetscReal mass, Jb[3], K, B, Kr, Br;
} FcRigidCoupling;
PetscErrorCode FcBodyGetCoupling(FcBody b, FcRigidCoupling *cp);
PetscErrorCode FcBodyCouplingTarget(FcBody b, PetscReal t, PetscReal ptgt[3], PetscReal Rdev[9]);

/* Von Mises stress per element of the current state (array of mesh.nelems). */
PetscErrorCode FcBodyVonMises(FcBody b, PetscReal *vm);

/* Current (R1, d1) or step-start (R0, d0) place of the reference point X of a rigid body:
 * x = c + d + R (X − c) (a body that does not rotate: x = X + d). */
static inline void FcRigidPlace(FcBody b, PetscBool start, const PetscReal X[3], PetscReal x[3])
{
  const PetscReal *R = start ? b->rigid_R0 : b->rigid_R1, *d = start ? b->rigid_d0 : b->rigid_d1;
  for (int i = 0; i < 3; i++) {
    x[i] = b->rigid_c[i] + d[i];
    for (int j = 0; j < 3; j++) x[i] += R[3 * i + j] * (X[j] - b->rigid_c[j]);
  }
}

/* PETSc log events (registered once by FcModelCreate). */
extern PetscLogEvent FC_EVENT_Assembly, FC_EVENT_Factor, FC_EVENT_Solve, FC_EVENT_Output;
extern PetscLogStage FC_STAGE_Setup, FC_STAGE_Steps;

#endif
