/* fcsim — `linear`: isotropic linear elasticity in small strain.
 *
 *   ε = sym(F − I) = sym(∇_X u),   σ = λ tr(ε) I + 2 μ ε,   W = ½ ε : σ,
 *   P = σ (the stress is identified with the first Piola–Kirchhoff stress, which is exact to
 *   first order in ∇u), A = ∂P/∂F = C with C_ijkl = λ δ_ij δ_kl + μ (δ_ik δ_jl + δ_il δ_jk)
 * (Hooke's law for an isotropic solid, e.g. Timoshenko & Goodier, Theory of Elasticity, 3rd ed.,
 * 1970; Hughes, The Finite Element Method, 2000, ch. 2). C has the minor symmetries because ε only sees the
 * symmetric part of ∇u, so ∂P/∂F is C itself and the element stiffness is symmetric. The model
 * is not objective: a rigid rotation gives a non-zero stress (use `corotational`). */
#include "../material.h"

void FcHookeStress(PetscReal lambda, PetscReal mu, const PetscReal eps[9], PetscReal sigma[9])
{
  const PetscReal tr = eps[0] + eps[4] + eps[8];
  for (int i = 0; i < 9; i++) sigma[i] = 2.0 * mu * eps[i];
  sigma[0] += lambda * tr;
  sigma[4] += lambda * tr;
  sigma[8] += lambda * tr;
}

void FcHookeModuli(PetscReal lambda, PetscReal mu, PetscReal C[81])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) C[(3 * i + j) * 9 + 3 * k + l] = lambda * (i == j) * (k == l) + mu * ((i == k) * (j == l) + (i == l) * (j == k));
}

/* ε = sym(F) − I */
static void SmallStrain(const PetscReal F[9], PetscReal eps[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) eps[3 * i + j] = 0.5 * (F[3 * i + j] + F[3 * j + i]) - (i == j);
}

static PetscErrorCode Energy_Linear(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W)
{
  PetscReal eps[9], sig[9], w = 0;

  PetscFunctionBegin;
  (void)R;
  SmallStrain(F, eps);
  FcHookeStress(mat->lambda, mat->mu, eps, sig);
  for (int i = 0; i < 9; i++) w += eps[i] * sig[i];
  *W = 0.5 * w;
  PetscFunctionReturn(0);
}

static PetscErrorCode Stress_Linear(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal P[9])
{
  PetscReal eps[9];

  PetscFunctionBegin;
  (void)R;
  SmallStrain(F, eps);
  FcHookeStress(mat->lambda, mat->mu, eps, P);
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent_Linear(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal A[81])
{
  PetscFunctionBegin;
  (void)F;
  (void)R;
  PetscCall(PetscArraycpy(A, (const PetscReal *)mat->data, 81));
  PetscFunctionReturn(0);
}

/* bodies[i].material of a "linear" body (besides "model") */
static const FcParamSpec Params_Linear[] = {FC_MATERIAL_PARAM_E, FC_MATERIAL_PARAM_NU, FC_MATERIAL_PARAM_DENSITY, {.name = NULL}};

static PetscErrorCode Create_Linear(FcMaterial mat, const FcMaterialParams *p)
{
  PetscReal *C;

  PetscFunctionBegin;
  PetscCall(FcMaterialSetENu(mat, p));
  /* The moduli do not depend on F: computed once, copied by the tangent. */
  PetscCall(PetscMalloc1(81, &C));
  FcHookeModuli(mat->lambda, mat->mu, C);
  mat->data        = C;
  mat->ops.frame   = NULL;
  mat->ops.energy  = Energy_Linear;
  mat->ops.stress  = Stress_Linear;
  mat->ops.tangent = Tangent_Linear;
  mat->ops.destroy = NULL; /* FcMaterialDestroy frees data */
  PetscFunctionReturn(0);
}

const FcMaterialModel FcMaterialLinear = {.create = Create_Linear, .params = Params_Linear, .check = FcMaterialCheckENu, .linear = PETSC_TRUE};
