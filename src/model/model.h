/* fcsim — the model of one run: bodies built from the case, their state, and the probes.
 *
 * A body answers the few questions the time step asks (DESIGN.md "Body"): its DoFs, the
 * linearized momentum matrix A and residual for the current iterate, a solve for the free
 * increment, how to apply a correction, and its end-of-step state. Deformable bodies do it
 * with FEM (src/model/body_deformable.c); rigid bodies (src/model/body_rigid.c) join through the
 * same ops table. Both integrate in time with the θ-method of src/model/theta.h. Outside
 * src/model a body is an opaque FcBody asked through the functions below; its struct and ops
 * table are the model's (src/model/body_impl.h), and its types are registered by name
 * (src/model/body.c). */
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

#define FC_RIGID_MAX_DOF 6 /* a free rigid body: 3 translations and 3 rotations */

typedef struct {
  PetscInt   nnodes; /* nodes of a probe's group (owned by the mesh) */
  PetscInt  *nodes;
  PetscReal *weight; /* displacement probes on a group: ∫N_a dA / A per node (owned) */
} FcNodeSet;

typedef struct {
  const FcCase *c;
  PetscInt      nbodies;
  FcBody       *bodies;
  /* probes: resolved to bodies, nodes and groups */
  PetscInt   nprobe_cols;
  char     **probe_cols;
  PetscInt  *probe_node;  /* displacement probes: node index, else -1 */
  PetscInt  *probe_body;  /* body index, -1 = all bodies */
  FcNodeSet *probe_group; /* reaction probes */
  FcVecPick *probe_pick;  /* displacement and reaction probes on a deformable body: the DoFs read */
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

/* Bodies are created through a registry of body types (src/model/body.c, the shape of the
 * contact solvers' and compliance strategies'): FcBodyCreate looks up the case's bodies[index].type
 * ("deformable", "rigid"); a new type is one file of src/model plus one line in FcBodyRegisterAll
 * (and, for the case to admit the name, its keys as a variant of the schema's bodies[i].type). */
PetscErrorCode FcBodyRegister(const char *type, PetscErrorCode (*create)(const FcCase *, PetscInt, FcBody *));
PetscErrorCode FcBodyRegisterAll(void);
PetscErrorCode FcBodyCreate(const FcCase *c, PetscInt index, FcBody *b);
PetscErrorCode FcBodyDestroy(FcBody *b);

/* A rigid body driven by a device log (doc/rigid.md §2d): its per-step record, FC_DEVICE_NCOLS
 * values named by FcDeviceColumns (suffixes of "<body>_"): the device pose at t1 (position [m],
 * unit quaternion w, x, y, z, world), the tool pose (the world position of the tool point the
 * device drives, `offset`, and the body's rotation as a quaternion of the same sign as the
 * device's), and the force [N] and torque [N m] the device renders: minus the coupling's force
 * on the tool and minus its torque (about the centre of mass); zero for a kinematic replay. */
#define FC_DEVICE_NCOLS 20
extern const char *const FcDeviceColumns[FC_DEVICE_NCOLS];
PetscErrorCode           FcBodyDeviceRow(FcBody b, PetscReal *row);
/* The pose at time t of a rigid body whose motion is prescribed (fixed, kinematic, or a kinematic
 * device replay): its points X are at c + d + R (X − c), c from FcBodyGetPlace (doc/rigid.md §2b), the
 * same d and R the body's steps use. An error for a body with DoFs. */
PetscErrorCode FcBodyPrescribedPose(FcBody b, PetscReal t, PetscReal d[3], PetscReal R[9]);
/* A free rigid tool driven through the virtual coupling (doc/rigid.md §2d), as the haptic loop
 * integrates it between steps (src/run/haptic.c): mass m [kg], principal moments Jb [kg m²]
 * (body axes = world axes at t = 0, so J_w = R diag(Jb) Rᵀ), the coupling's constants K [N/m],
 * B [N s/m], K_r [N m/rad], B_r [N m s/rad]. FcBodyGetCoupling is an error for a body without a
 * coupling. FcBodyCouplingTarget: the coupling's target at t, p_tgt = p_dev + R_dev (c − X_o) for
 * the centre of mass and R_dev for the rotation (the same the body's steps use). The tool's
 * state is the body's: d1, R1 of FcBodyGetPlace and FcBodyV = (v, ω) after a step. */
typedef struct {
  PetscReal mass, Jb[3], K, B, Kr, Br;
} FcRigidCoupling;
PetscErrorCode FcBodyGetCoupling(FcBody b, FcRigidCoupling *cp);
PetscErrorCode FcBodyCouplingTarget(FcBody b, PetscReal t, PetscReal ptgt[3], PetscReal Rdev[9]);

/* ---- A body seen from outside the model ----
 * FcBody is opaque outside src/model (its struct is src/model/body_impl.h). The step, the contact
 * step, the compliances, the writers and the haptic loop use these. The plain accessors cannot
 * fail and return their value (an exception to "functions return PetscErrorCode", like PETSc's
 * inline getters). */
const char       *FcBodyName(FcBody b);
const FcCaseBody *FcBodySpec(FcBody b);
/* DoFs: 0 for a body whose motion is prescribed (it enters the contact problem through q only) */
PetscInt   FcBodyNDof(FcBody b);
PetscReal  FcBodyMass(FcBody b);
PetscReal  FcBodyVolume(FcBody b);
FcMaterial FcBodyMaterial(FcBody b); /* NULL: a body without a material (rigid) */
/* Version of the operator that solve and solvemulti apply (A⁻¹; 0: not tracked): a compliance may
 * keep what it derived from A⁻¹ while this stays the same (src/compliance/exact.c). */
PetscInt64 FcBodyOpState(FcBody b);
/* Constrained DoFs (sorted, unique): their number, and the list in *dofs. */
PetscInt FcBodyConstrained(FcBody b, const PetscInt **dofs);
/* The output mesh: the mesh whose nodes carry the body's fields (u, v, reaction: 3 per node) for
 * writers, probes and the size estimate; NULL for a body without nodal fields (rigid). */
const FcMesh *FcBodyFieldMesh(FcBody b);
/* State at the end of the last accepted step (ndof long; reaction: NULL without nodal fields),
 * and its energies. The vectors are the body's: a caller may save and restore them (a cut back
 * step, src/run/run.c) but not replace them. */
Vec       FcBodyU(FcBody b);
Vec       FcBodyV(FcBody b);
Vec       FcBodyReaction(FcBody b);
PetscReal FcBodyStrainEnergy(FcBody b);
PetscReal FcBodyKineticEnergy(FcBody b);

/* The place of a body whose points move rigidly (rigid bodies, doc/rigid.md §2b): a reference
 * point X is at c + d + R (X − c), at the step's start (d0, R0) and at t1 (d1, R1; dynamic: at
 * the current Newton iterate); R row-major, world from reference. *has = PETSC_FALSE for a body
 * without one (deformable; *p is then zeroed). */
typedef struct {
  PetscReal c[3], d0[3], d1[3], R0[9], R1[9];
} FcBodyPlace;
PetscErrorCode FcBodyGetPlace(FcBody b, FcBodyPlace *p, PetscBool *has);
/* Whether the body records a device log (doc/rigid.md §2d): then FcBodyDeviceRow gives its
 * FC_DEVICE_NCOLS columns per step. */
PetscBool FcBodyHasDevice(FcBody b);

/* ---- What one step asks of a body (the ops of body_impl.h; src/step/step.c) ---- */
/* Predictor (x = x0, prescribed values at t1); resets the step's timings and inertia-correction
 * figures (FcBodyGetStepStats). */
PetscErrorCode FcBodyBeginStep(FcBody b, const FcStepInfo *s);
PetscErrorCode FcBodyResidual(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale);
/* *dxnorm < 0: the Krylov solve of the Newton system failed (FcBodyKrylovSolve): the step fails */
PetscErrorCode FcBodySolve(FcBody b, const FcStepInfo *s, PetscReal *dxnorm);
PetscErrorCode FcBodySolveMulti(FcBody b, Mat B, Mat X);
/* The entries of A⁻¹ at the sorted DoFs idx (n × n, row-major, the body's ops.inverseentries);
 * *done false when the body's factorization cannot give them (then out is untouched). */
PetscErrorCode FcBodyInverseEntries(FcBody b, PetscInt n, const PetscInt idx[], PetscReal out[], PetscBool *done);
PetscErrorCode FcBodyUpdate(FcBody b, const FcStepInfo *s);
PetscErrorCode FcBodyEndStep(FcBody b, const FcStepInfo *s);
/* The step's timings, the largest inertia-correction shift and penalty, and the extra
 * factorizations (body_deformable.c FormMatrix_Private), since FcBodyBeginStep. */
typedef struct {
  FcBodyTimes times;
  PetscReal   shift, penalty;
  PetscInt    refactors;
} FcBodyStepStats;
PetscErrorCode FcBodyGetStepStats(FcBody b, FcBodyStepStats *st);

/* ---- What the contact step asks of a body (src/step, src/compliance) ----
 * Capabilities, never the body's kind: HasX says whether the body answers X. */
PetscBool      FcBodyHasNodes(FcBody b);         /* its surface is a mesh: FcBodyNodes */
PetscBool      FcBodyHasPointJacobian(FcBody b); /* its points move with J ẋ_dof (rigid with DoFs) */
PetscBool      FcBodyHasSchur(FcBody b);         /* it factors A through a Schur complement */
PetscInt       FcBodyNNodes(FcBody b);           /* nodes of its surface mesh (0 without) */
PetscErrorCode FcBodyNodes(FcBody b, PetscReal *x);
PetscErrorCode FcBodyProximity(FcBody b, const PetscReal p[3], const PetscReal t1_prev[3], FcProximity *c);
/* x0 of a body without DoFs, and J (3 × ndof, row-major) of a body with a point Jacobian: pure
 * functions of the body's place, which cannot fail (void, like the ops they call) */
void           FcBodyStartPoint(FcBody b, const PetscReal x[3], PetscReal x0[3]);
void           FcBodyPointJacobian(FcBody b, const PetscReal x[3], PetscReal *J);
PetscErrorCode FcBodySetParticipating(FcBody b, PetscInt np, const PetscInt *idx);
PetscErrorCode FcBodyGetSchur(FcBody b, FcSchur *sch);
/* A deformable body's linear solver, whose Newton systems KSPSetOperators/KSPSetUp/KSPSolve at
 * every new A (compliance "lagged" makes it a Krylov method with its own preconditioner); NULL for
 * other bodies. */
PetscErrorCode FcBodyGetKSP(FcBody b, KSP *ksp);
/* x = A⁻¹ rhs by that KSP when it is a Krylov method: a CG that fails is retried with GMRES; *ok
 * false if the solve still failed (the Newton iteration fails, not the run; body_deformable.c). */
PetscErrorCode FcBodyKrylovSolve(FcBody b, Vec rhs, Vec x, PetscBool *ok);
/* The unknown's increment dx (free part, then + A⁻¹ Hᵀ r: the contact step adds its correction),
 * the state part of the tangential motion (rate: v_k, or u_k − u0) and incscale (a displacement
 * increment is incscale·Δx: dt θ_vq by han2023 eq. 4, or 1). NULL vectors for a body without DoFs. */
PetscErrorCode FcBodyGetIncrement(FcBody b, Vec *dx, Vec *rate, PetscReal *incscale);
/* Hᵀ r of the last contact solve (force or impulse), which the residual adds: *f = NULL until the
 * contact step first creates it (create = PETSC_TRUE: created, zero, if missing). */
PetscErrorCode FcBodyGetContactForce(FcBody b, PetscBool create, Vec *f);
/* on: the free increment solves A dx = −(r − Hᵀ r_last), the full residual with the last contact
 * forces, instead of −r without them; the correction then adds C (Hᵀ r − Hᵀ r_last), an increment
 * of the contact forces (compliance "lagged", src/compliance/lagged.c). Off by default. */
PetscErrorCode FcBodySetContactInFree(FcBody b, PetscBool on);
/* on: a nonlinear body assembles its tangent K at the first iterate of a step only and keeps A
 * within the step (a chord Newton method: the residual, hence the converged state, is exact; the
 * rate linear), unless its residual needs K (Rayleigh β). Off by default. */
PetscErrorCode FcBodySetChordTangent(FcBody b, PetscBool on);
/* Several ranks (doc/mpi.md "Contact"): the contact step numbers a body's DoFs as its mesh does
 * (3 node + component, the same on every rank); a partitioned body's vectors number them
 * distributed (src/fem/assembly.c FcAssemblyPartition). n2d[k]: the distributed index of mesh DoF
 * k, d2n its inverse, [rstart, rend) this rank's rows; n2d = d2n = NULL when the numberings are
 * the same (one rank, a body whose vectors are sequential), rows [0, ndof). */
PetscErrorCode FcBodyDofMaps(FcBody b, const PetscInt **n2d, const PetscInt **d2n, PetscInt *rstart, PetscInt *rend);
/* mask[k] (ndof entries, the mesh's numbering): whether DoF k is constrained, on every rank; a
 * distributed mesh's ranks each know their own (FcBodyConstrained), combined here (collective then). */
PetscErrorCode FcBodyConstrainedMask(FcBody b, PetscBool mask[]);
/* The displacement at the current Newton iterate, whose nodes x = X + u contact detection reads
 * (a deformable body's ops.nodes; a rigid body's holds its joint coordinates): on several ranks it reads
 * the entries it needs through FcVecPick (src/step/contact_ghost.c) instead of the whole vector. */
Vec FcBodyUCurrent(FcBody b);
/* The normal rows h_a of H (on this body's free DoFs) of the contacts that carry force after the
 * last contact correction, CSR (row s: dof/val[ptr[s] .. ptr[s+1])), copied: the inertia
 * correction tries A + ρ Σ h_a h_aᵀ with them when A is indefinite (body_deformable.c). */
PetscErrorCode FcBodySetContactRows(FcBody b, PetscInt nrow, const PetscInt *ptr, const PetscInt *dof, const PetscReal *val);

/* The virtual coupling's force law (doc/rigid.md §2d; duriez2006 §7, a spring–damper on position
 * and orientation), the one used by the rigid body's steps and by the haptic loop's ticks:
 *   F = K (p_tgt − (c + d)) + B (v_dev − v),   τ = K_r log(R_dev Rᵀ) + B_r (ω_dev − ω),
 * for the tool's centre c, translation d, rotation R and velocity V = (v, ω). */
void FcRigidCouplingForce(const FcRigidCoupling *cp, const PetscReal c[3], const PetscReal ptgt[3], const PetscReal Rdev[9], const PetscReal vdev[3],
  const PetscReal wdev[3], const PetscReal d[3], const PetscReal R[9], const PetscReal V[6], PetscReal F[3], PetscReal T[3]);

/* Von Mises stress per element of the current state (array of mesh.nelems). */
PetscErrorCode FcBodyVonMises(FcBody b, PetscReal *vm);
/* The same into vm, a vector of the whole mesh's elements (several ranks: FcComputeVonMisesVec). */
PetscErrorCode FcBodyVonMisesVec(FcBody b, Vec vm);
/* Several ranks, after the set-up (FcModelCreate): a rank other than 0 keeps of the body's mesh
 * only what its steps read (FcAssemblyTrim), in a case without contact (with contact it keeps the
 * part it received, FcMeshSendParts); its whole DoF maps
 * go too (FcBodyDofMaps then refuses). A no-op on one rank, on rank 0 and for a body without a
 * partitioned mesh. */
PetscErrorCode FcBodyTrimMesh(FcBody b);

/* PETSc log events (registered once by FcModelCreate). */
extern PetscLogEvent FC_EVENT_Assembly, FC_EVENT_Factor, FC_EVENT_Solve, FC_EVENT_Output;
extern PetscLogStage FC_STAGE_Setup, FC_STAGE_Steps;

#endif
