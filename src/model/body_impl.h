/* fcsim — the body object's inside, private to the model (included by the .c files of src/model only).
 *
 * Callers outside src/model see FcBody as an opaque handle and use the functions of model.h:
 * the ops wrappers (FcBodyResidual, ...), the output mesh and fields, the prescribed pose, the
 * coupling, and the contact step's view of a body (FcBodyContactData). A body type fills the
 * ops table and the fields below in its create function, registered by name (FcBodyRegister). */
#ifndef FC_BODY_IMPL_H
#define FC_BODY_IMPL_H
#include "model.h"

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
  /* out[i n + j] = (A⁻¹)_{idx[i], idx[j]} for the sorted DoFs idx (n × n, row-major) from the
   * factorization solve and solvemulti use, without solving for whole columns; *done false (out
   * untouched) when the body's factorization cannot give them. Optional (NULL: not done). */
  PetscErrorCode (*inverseentries)(FcBody, PetscInt n, const PetscInt idx[], PetscReal out[], PetscBool *done);
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

struct _p_FcBody {
  char              name[FC_NAME_LEN];
  const FcCaseBody *spec;
  struct _FcBodyOps ops;
  FcMesh            mesh;
  FcMaterial        material;
  PetscReal         volume, mass;
  PetscInt          ndof;
  /* Rigid body (src/model/body_rigid.c): an analytic shape, or a mesh shape (mesh: the
   * tetrahedral mesh whose boundary is the shape; no material, no field). ndof = 0 for a
   * prescribed motion (fixed, kinematic, or a dynamic body with a fixed joint), else the joint's
   * DoFs (prismatic: 1, free: 6); then u, v hold the joint coordinates and velocities, ucur, dx,
   * rate and fcontact are ndof long, and reaction is NULL.
   * What a body is asked is said by what it has, never by its kind: placed, its points move
   * rigidly with the rigid_* place below (FcBodyGetPlace; set by the rigid body); meshfields, the
   * mesh's nodes carry u, v, reaction (FcBodyFieldMesh; set by the deformable body). */
  PetscBool   placed, meshfields;
  PetscBool   rigid;    /* the kind: read only by the two-pass input check of contact_pairs.c,
                                   * which moves to the case (issue 26 knot 1); no operation branches on it */
  Vec         u, v;     /* state at the end of the last accepted step */
  Vec         reaction; /* support reactions (all DoFs; zero off the constraints) */
  PetscReal   strain_energy, kinetic_energy;
  PetscInt    nbc; /* constrained DoFs (sorted, unique) */
  PetscInt   *bc_dofs;
  FcBodyTimes times;
  /* Version of the operator solve and solvemulti apply (A⁻¹): a deformable body without the
   * co-rotated split counts its factorizations of A (1, 2, ...), so a compliance may keep what it
   * derived from A⁻¹ while this stays the same (src/compliance/exact.c); 0: not tracked, the
   * operator may change at any call (rigid bodies, the co-rotated split: R enters the solves). */
  PetscInt64 opstate;
  /* Inertia correction of the Newton matrix in the step (body_deformable.c FormMatrix_Private):
   * the largest shift δ used (relative to diag(A)/diag(M); 0: none) and the extra
   * factorizations it took. Reset by the step. */
  PetscReal shift;
  PetscInt  refactors;
  PetscReal penalty; /* largest ρ of the step (relative to the mean diagonal of A; 0: none) */
  /* Rows for that correction, copied in by the contact step (FcBodySetContactRows): the normal rows
   * h_a of H (restricted to this body's free DoFs) of the contacts active in the last contact
   * correction, CSR: row s has stab_dof/stab_val[stab_ptr[s] .. stab_ptr[s+1]). */
  PetscInt   nstab, stab_nnz, stab_cap, stab_nnzcap;
  PetscInt  *stab_ptr, *stab_dof;
  PetscReal *stab_val;
  /* Contact coupling (src/step/contact_step.c). The unknown x is v (dynamics) or u (quasi-static);
   * a displacement increment is incscale·Δx (dt θ_vq by han2023 eq. 4, or 1). */
  Vec       ucur;            /* displacement at the current Newton iterate */
  Vec       dx;              /* increment of x: free part, then + A⁻¹ Hᵀ r */
  Vec       rate;            /* state part of the tangential motion: v_k, or u_k − u0 */
  Vec       fcontact;        /* Hᵀ r of the last contact solve (force or impulse), in the residual */
  PetscBool chord;           /* FcBodySetChordTangent */
  PetscBool contact_in_free; /* the free increment solves with fcontact in its right-hand side
                              * (FcBodySetContactInFree: compliance "lagged") */
  PetscReal incscale;
  PetscReal rigid_d0[3], rigid_d1[3]; /* rigid bodies: translation at t0 and at t1 (dynamic: at the
                                                 * current Newton iterate; detection reads d1) */
  PetscReal rigid_R0[9], rigid_R1[9]; /* rigid bodies: rotation (row-major, world from reference)
                                                 * at t0 and at t1 / the iterate; I unless the body rotates */
  PetscReal rigid_c[3];               /* rigid bodies: the point the rotation is about (the centre
                                                 * of mass of a free body), reference coordinates */
  /* Several ranks (doc/mpi.md "Contact"): a partitioned body's DoF maps, mesh DoF k → distributed
   * index n2d[k] and back (d2n), for the contact step's H (mesh numbering); NULL when the two
   * numberings are the same (one rank, a rigid body). On a rank's part of a distributed mesh, in a
   * case with contact: over the part's nodes, −1 elsewhere (O(DoFs) ints each: doc/mpi.md). */
  PetscInt              *part_n2d, *part_d2n;
  struct _FcRigidDevice *device; /* rigid bodies driven by a device log (motion "trajectory" or a
                                                 * coupling, doc/rigid.md §2d); NULL otherwise */
  void                  *data;   /* type-specific */
};

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

/* The geometry ops of a rigid body (nodes for a "mesh" shape, proximity for an analytic one,
 * startpoint without DoFs), from its shape and place (rigid_shape.c); FcBodyCreate_Rigid ends
 * with it. */
PetscErrorCode FcBodySetRigidGeometry(FcBody b);
#endif
