/* fcsim — material models as a pluggable type: a registry of name → model, and an ops table
 * {frame, energy, stress, tangent, destroy} acting on the deformation gradient F at a quadrature
 * point (PETSc style; see doc/architecture.md). R is the element frame given by ops.frame
 * (identity for models without one): `corotational` evaluates the small-strain law in the frame
 * rotated by the polar rotation of the element's centroid deformation gradient.
 *
 * A model is one file (materials/NAME.c) that exports an FcMaterialModel: its create function,
 * the table of its parameters (the keys of a case's bodies[i].material besides "model", see
 * src/core/param.h) and an optional check of their combination; FcMaterialRegisterAll has one
 * FcMaterialRegister line per model. The case layer validates the user's input against the
 * registered table and hands the values over as plain data (FcMaterialParams): nothing here
 * knows the case file. */
#ifndef FC_MATERIAL_H
#define FC_MATERIAL_H

#include "../core/fc.h"
#include "../core/param.h"

/* Decoupled models (ops.volumetric): how the volumetric energy U(J) is integrated. */
typedef enum { FC_VOLUMETRIC_POINTWISE, FC_VOLUMETRIC_MEAN_DILATATION } FcVolumetricType;

/* The parameter values of one material, as plain data: the model's registry name, the mass
 * density (every model has one; the mass matrix and body forces read it here) and the other
 * parameters by name: a number for FC_PARAM_REAL rows of the model's table, a choice for
 * FC_PARAM_CHOICE rows. Fill with FcMaterialParamsInit/Set*; "density" set or read through the
 * accessors is the field `density`. */
#define FC_MATERIAL_MAX_PARAMS 16
#define FC_MATERIAL_PARAM_LEN  32
typedef struct {
  char      model[FC_NAME_LEN];
  PetscReal density; /* [kg/m^3] */
  PetscInt  n;
  struct {
    char      name[FC_MATERIAL_PARAM_LEN];
    PetscReal value;                         /* FC_PARAM_REAL */
    char      choice[FC_MATERIAL_PARAM_LEN]; /* FC_PARAM_CHOICE */
  } param[FC_MATERIAL_MAX_PARAMS];
} FcMaterialParams;

/* Zero p and name its model. */
PetscErrorCode FcMaterialParamsInit(FcMaterialParams *p, const char *model);
/* Add or replace a parameter. */
PetscErrorCode FcMaterialParamsSetReal(FcMaterialParams *p, const char *name, PetscReal value);
PetscErrorCode FcMaterialParamsSetChoice(FcMaterialParams *p, const char *name, const char *choice);
PetscBool      FcMaterialParamsHas(const FcMaterialParams *p, const char *name);
/* A parameter that is not there is an error (PETSC_ERR_ARG_WRONG): a model's create function
 * gets every parameter of its table, defaults filled in by FcMaterialCreate. */
PetscErrorCode FcMaterialParamsGetReal(const FcMaterialParams *p, const char *name, PetscReal *value);
PetscErrorCode FcMaterialParamsGetChoice(const FcMaterialParams *p, const char *name, const char **choice);

typedef struct _p_FcMaterial *FcMaterial;

struct _FcMaterialOps {
  /* Element frame R from the centroid deformation gradient Fc; NULL → identity. */
  PetscErrorCode (*frame)(FcMaterial, const PetscReal Fc[9], PetscReal R[9]);
  PetscErrorCode (*energy)(FcMaterial, const PetscReal F[9], const PetscReal R[9], PetscReal *W);
  /* First Piola–Kirchhoff stress P (row-major P[3*i+J]). */
  PetscErrorCode (*stress)(FcMaterial, const PetscReal F[9], const PetscReal R[9], PetscReal P[9]);
  /* Optional (NULL: energy, then stress): W and P of one evaluation, the same values as the two
   * ops give. The residual asks for both at every Newton iterate, and a hyperelastic model's W
   * needs only what P computes anyway (J, the invariants, J^(−2/3)): one evaluation, not two. */
  PetscErrorCode (*energystress)(FcMaterial, const PetscReal F[9], const PetscReal R[9], PetscReal *W, PetscReal P[9]);
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
  /* Set by the model's create: E, ν and the Lamé parameters λ, μ (FcMaterialSetIsotropic; for
   * mooney_rivlin those of its small-strain limit), the bulk modulus κ, Mooney–Rivlin's C10, C01. */
  PetscReal        E, nu, density, lambda, mu;
  PetscReal        kappa, C10, C01;
  FcVolumetricType volumetric; /* decoupled models: how U(J) is integrated */
  /* Capabilities, copied from the model's registry entry by FcMaterialCreate, so that a body or a
   * compliance strategy asks the material instead of testing its name: */
  PetscBool linear;       /* P is linear in F: K is independent of u (assembled once, f_int = K u) */
  PetscBool lagged_frame; /* ops.frame is evaluated at the step's start u0, not at the iterate
                                       * (corotational_lagged: R̂ = R0 within a step) */
  void     *data;
};

/* What a model registers. create fills mat->ops (and optionally mat->data, which
 * FcMaterialDestroy frees with PetscFree) and reads its values from p; params is its table of
 * parameters (terminated by a row with a NULL name) in the order they are documented and written
 * to the resolved case; check, when set, tests what the table cannot say (a relation between
 * parameters) and raises an input error at "path.key" (path: the JSON path of the material). */
typedef struct {
  PetscErrorCode (*create)(FcMaterial mat, const FcMaterialParams *p);
  const FcParamSpec *params;
  PetscErrorCode (*check)(const FcMaterialParams *p, const char *where, const char *path);
  /* Capabilities of every material of the model (struct _p_FcMaterial above), declared here so
   * that the case can check them before any material exists (case_refs.c: global_corotational
   * needs a linear one). */
  PetscBool linear, lagged_frame;
} FcMaterialModel;

PetscErrorCode FcMaterialRegister(const char *name, const FcMaterialModel *model);
PetscErrorCode FcMaterialRegisterAll(void);
PetscErrorCode FcMaterialFinalizePackage(void); /* frees the registry */
/* The i-th registered model (registration order), or *name = NULL when i is past the last. */
PetscErrorCode FcMaterialModelGet(PetscInt i, const char **name, const FcMaterialModel **model);
/* The model registered under name, or NULL. */
const FcMaterialModel *FcMaterialModelFind(const char *name);
/* The model's check of p (nothing when it has none); an unknown model is an input error. */
PetscErrorCode FcMaterialCheckParams(const FcMaterialParams *p, const char *where, const char *path);
/* Unknown model, a parameter not in its table, a required one missing, a number not finite or
 * out of its range, a choice not allowed: FC_ERR_INPUT "material: MODEL: ...". Absent
 * parameters with a default get it. */
PetscErrorCode FcMaterialCreate(const FcMaterialParams *p, FcMaterial *mat);
PetscErrorCode FcMaterialDestroy(FcMaterial *mat);
/* Registered names, comma separated (for messages). */
void FcMaterialTypes(char *buf, size_t len);

/* Built-in models (registered by FcMaterialRegisterAll). */
extern const FcMaterialModel FcMaterialLinear;             /* "linear"              (materials/linear.c)              */
extern const FcMaterialModel FcMaterialCorotational;       /* "corotational"        (materials/corotational.c)        */
extern const FcMaterialModel FcMaterialCorotationalLagged; /* "corotational_lagged" (materials/corotational_lagged.c) */
extern const FcMaterialModel FcMaterialStVK;               /* "stvk"                (materials/stvk.c)                */
extern const FcMaterialModel FcMaterialNeoHookean;         /* "neohookean"          (materials/neohookean.c)          */
extern const FcMaterialModel FcMaterialMooneyRivlin;       /* "mooney_rivlin"       (materials/mooney_rivlin.c)       */

/* Rows shared by the models' tables. Moduli and densities have the physical bounds of solids
 * (FcModulusBound, FcDensityBound, material.c): a value outside is a mistake of unit. */
extern const FcBound     FcModulusBound, FcModulusUpperBound, FcDensityBound;
extern const char *const FcVolumetricChoices[];
// clang-format off
#define FC_MATERIAL_PARAM_E       {.name = "E", .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &FcModulusBound, .doc = "Young's modulus [Pa]"}
// clang-format on
/* nu = 0.5 is incompressible: λ is infinite. */
// clang-format off
#define FC_MATERIAL_PARAM_NU      {.name = "nu", .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_CO(0, 0.5), .doc = "Poisson's ratio [-]"}
// clang-format on
// clang-format off
#define FC_MATERIAL_PARAM_DENSITY {.name = "density", .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &FcDensityBound, .doc = "mass density [kg/m^3]"}
// clang-format on
#define FC_MATERIAL_PARAM_VOLUMETRIC \
  { \
    .name = "volumetric", .type = FC_PARAM_CHOICE, .def = "auto", .choices = FcVolumetricChoices, \
    .doc = "how U(J) is integrated: at the element's mean dilatation, at every quadrature point, or auto (mean dilatation when kappa >= 10 mu)" \
  }

/* For the models given by Young's modulus and Poisson's ratio: sets E, ν, the Lamé parameters
 * λ = Eν / ((1+ν)(1−2ν)), μ = E / (2(1+ν)) and the bulk modulus κ = E / (3(1−2ν)). */
PetscErrorCode FcMaterialSetIsotropic(FcMaterial mat, PetscReal E, PetscReal nu);
/* The same from the parameters "E" and "nu". */
PetscErrorCode FcMaterialSetENu(FcMaterial mat, const FcMaterialParams *p);
/* mat->volumetric from the choice "volumetric" (mat->mu and mat->kappa set before). */
PetscErrorCode FcMaterialSetVolumetric(FcMaterial mat, const FcMaterialParams *p);
/* Bulk over shear modulus κ/μ at most 1e8, else an input error at "path.key"; hint is appended
 * to "(at most 1e8" (e.g. ", nu <= 0.499999995"). */
PetscErrorCode FcMaterialCheckBulkShear(const char *where, const char *path, const char *key, const char *hint, PetscReal kappa, PetscReal mu);
/* The check of the models given by E and ν (κ/μ from E, ν; blames "nu"). */
PetscErrorCode FcMaterialCheckENu(const FcMaterialParams *p, const char *where, const char *path);

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
