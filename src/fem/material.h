/* fcsim — material models as a pluggable type: a registry of name → create function and an
 * ops table {frame, energy, stress, tangent, destroy} acting on the deformation gradient F at
 * a quadrature point (PETSc style; see doc/architecture.md). R is the element frame given by
 * ops.frame (identity for models without one): `corotational` evaluates the small-strain law
 * in the frame rotated by the polar rotation of the element's centroid deformation gradient. */
#ifndef FC_MATERIAL_H
#define FC_MATERIAL_H

#include "../core/fc.h"
#include "../case/case.h"

typedef struct _p_FcMaterial *FcMaterial;

struct _FcMaterialOps {
  /* Element frame R from the centroid deformation gradient Fc; NULL → identity. */
  PetscErrorCode (*frame)(FcMaterial, const PetscReal Fc[9], PetscReal R[9]);
  PetscErrorCode (*energy)(FcMaterial, const PetscReal F[9], const PetscReal R[9], PetscReal *W);
  /* First Piola–Kirchhoff stress P (row-major P[3*i+J]). */
  PetscErrorCode (*stress)(FcMaterial, const PetscReal F[9], const PetscReal R[9], PetscReal P[9]);
  /* A[(3*i+J)*9 + 3*k+L] = ∂P_iJ/∂F_kL (with R held fixed for frame-based models). */
  PetscErrorCode (*tangent)(FcMaterial, const PetscReal F[9], const PetscReal R[9], PetscReal A[81]);
  PetscErrorCode (*destroy)(FcMaterial);
};

struct _p_FcMaterial {
  char                  type[FC_NAME_LEN];
  struct _FcMaterialOps ops;
  PetscReal             E, nu, density, lambda, mu; /* Lamé parameters from E, nu */
  void                 *data;
};

PetscErrorCode FcMaterialRegister(const char *name, PetscErrorCode (*create)(FcMaterial));
PetscErrorCode FcMaterialRegisterAll(void);
PetscErrorCode FcMaterialFinalizePackage(void); /* frees the registry */
/* Unknown type → FC_ERR_INPUT naming the type and the registered ones. */
PetscErrorCode FcMaterialCreate(const FcCaseMaterial *params, FcMaterial *mat);
PetscErrorCode FcMaterialDestroy(FcMaterial *mat);
/* Registered names, comma separated (for messages and the case validator). */
void FcMaterialTypes(char *buf, size_t len);

/* Built-in models (registered by FcMaterialRegisterAll). */
PetscErrorCode FcMaterialCreate_Linear(FcMaterial);       /* "linear"       (materials/linear.c)       */
PetscErrorCode FcMaterialCreate_Corotational(FcMaterial); /* "corotational" (materials/corotational.c) */

/* Isotropic Hooke's law shared by the small-strain models (materials/linear.c):
 * sigma = lambda tr(eps) I + 2 mu eps for a symmetric eps, and the moduli
 * C[(3i+j)*9 + 3k+l] = lambda d_ij d_kl + mu (d_ik d_jl + d_il d_jk) (major and minor symmetric). */
void FcHookeStress(PetscReal lambda, PetscReal mu, const PetscReal eps[9], PetscReal sigma[9]);
void FcHookeModuli(PetscReal lambda, PetscReal mu, PetscReal C[81]);

#endif
