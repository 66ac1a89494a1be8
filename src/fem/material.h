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
  /* Decoupled models only (NULL otherwise): the volumetric energy U(J) per reference volume and
   * its derivatives (any output may be NULL). With volumetric == FC_VOLUMETRIC_MEAN_DILATATION
   * the energy/stress/tangent above are the isochoric part only and the element kernel adds
   * V U(J̄) with the element's mean dilatation J̄ (element.c); with FC_VOLUMETRIC_POINTWISE
   * they include U(J) at the point and this op is not used by the element. */
  PetscErrorCode (*volumetric)(FcMaterial, PetscReal J, PetscReal *U, PetscReal *dU, PetscReal *d2U);
  PetscErrorCode (*destroy)(FcMaterial);
};

struct _p_FcMaterial {
  char                  type[FC_NAME_LEN];
  struct _FcMaterialOps ops;
  PetscReal             E, nu, density, lambda, mu; /* Lamé parameters from E, nu */
  PetscReal             kappa, C10, C01;            /* bulk modulus; Mooney–Rivlin constants */
  FcVolumetricType      volumetric;                 /* decoupled models: how U(J) is integrated */
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
PetscErrorCode FcMaterialCreate_CorotationalLagged(FcMaterial); /* "corotational_lagged" (materials/corotational_lagged.c) */
PetscErrorCode FcMaterialCreate_StVK(FcMaterial);         /* "stvk"          (materials/stvk.c)          */
PetscErrorCode FcMaterialCreate_NeoHookean(FcMaterial);   /* "neohookean"    (materials/neohookean.c)    */
PetscErrorCode FcMaterialCreate_MooneyRivlin(FcMaterial); /* "mooney_rivlin" (materials/mooney_rivlin.c) */

/* Isotropic Hooke's law shared by the small-strain models (materials/linear.c):
 * sigma = lambda tr(eps) I + 2 mu eps for a symmetric eps, and the moduli
 * C[(3i+j)*9 + 3k+l] = lambda d_ij d_kl + mu (d_ik d_jl + d_il d_jk) (major and minor symmetric). */
void FcHookeStress(PetscReal lambda, PetscReal mu, const PetscReal eps[9], PetscReal sigma[9]);
void FcHookeModuli(PetscReal lambda, PetscReal mu, PetscReal C[81]);

/* Decoupled hyperelastic kernel shared by `neohookean` (c1 = μ/2, c2 = 0) and `mooney_rivlin`
 * (c1 = C10, c2 = C01), materials/mooney_rivlin.c: W = c1 (Ī1 − 3) + c2 (Ī2 − 3) [+ U(J) when
 * mat->volumetric is pointwise], its first Piola stress P and tangent A = ∂P/∂F (any output
 * may be NULL). det F <= 0 (or not finite) raises PETSC_ERR_FP: no value is returned. */
PetscErrorCode FcMooneyRivlinEval(FcMaterial mat, PetscReal c1, PetscReal c2, const PetscReal F[9], PetscReal *W, PetscReal P[9], PetscReal A[81]);
/* U(J) = κ/2 (J − 1)² (Abaqus' form with κ = 2/D1) and its first two derivatives. */
PetscErrorCode FcVolumetricQuadratic(FcMaterial mat, PetscReal J, PetscReal *U, PetscReal *dU, PetscReal *d2U);

#endif
