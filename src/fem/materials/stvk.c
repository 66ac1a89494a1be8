/* fcsim — `stvk`: the Saint Venant–Kirchhoff solid, Hooke's law between the Green–Lagrange
 * strain and the second Piola–Kirchhoff stress (e.g. Holzapfel, "Nonlinear Solid Mechanics",
 * 2000, §6.5; Bonet & Wood, "Nonlinear Continuum Mechanics for FEA", 2nd ed. 2008, §6.4.1):
 *   E = ½ (FᵀF − I),   S = λ tr(E) I + 2μ E,   P = F S,   W = μ E:E + λ/2 (tr E)²,
 *   A_iJkL = ∂P_iJ/∂F_kL = δ_ik S_JL + F_iM C_MJNL F_kN
 *          = δ_ik S_JL + λ F_iJ F_kL + μ (b_ik δ_JL + F_iL F_kJ),      b = F Fᵀ,
 * with C_MJNL = λ δ_MJ δ_NL + μ (δ_MN δ_JL + δ_ML δ_JN) (FcHookeModuli) and ∂E_MJ/∂F_kL =
 * ½ (δ_JL F_kM + δ_ML F_kJ). λ, μ are the Lamé parameters of E, ν; the model is objective and
 * matches `linear` to first order in the strain.
 *
 * Limitations: S grows only linearly in E, so the model softens and loses stability in strong
 * compression (in 1-D, ν = 0: P = E l (l² − 1)/2 decreases for a stretch l < 1/√3) and does not
 * resist inversion: W is finite at det F <= 0. It is therefore evaluated for every F, inverted ones
 * included, and returns finite values (no error); use it for large rotations with small strains. */
#include "../material.h"
#include "../../core/mat3.h"

/* E = ½ (FᵀF − I) and S = λ tr(E) I + 2μ E */
static void StVKStrainStress(FcMaterial mat, const PetscReal F[9], PetscReal E[9], PetscReal S[9])
{
  FcMat3MultTN(F, F, E);
  for (int i = 0; i < 9; i++) E[i] *= 0.5;
  for (int i = 0; i < 3; i++) E[4 * i] -= 0.5;
  FcHookeStress(mat->lambda, mat->mu, E, S);
}

static PetscErrorCode Energy_StVK(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W)
{
  PetscReal E[9], S[9], w = 0;

  PetscFunctionBegin;
  (void)R;
  StVKStrainStress(mat, F, E, S);
  for (int i = 0; i < 9; i++) w += E[i] * S[i]; /* E:S = 2μ E:E + λ (tr E)² */
  *W = 0.5 * w;
  PetscFunctionReturn(0);
}

static PetscErrorCode Stress_StVK(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal P[9])
{
  PetscReal E[9], S[9];

  PetscFunctionBegin;
  (void)R;
  StVKStrainStress(mat, F, E, S);
  FcMat3Mult(F, S, P);
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent_StVK(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal A[81])
{
  const PetscReal lambda = mat->lambda, mu = mat->mu;
  PetscReal       E[9], S[9], b[9];

  PetscFunctionBegin;
  (void)R;
  StVKStrainStress(mat, F, E, S);
  FcMat3MultNT(F, F, b);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
          A[(3 * i + j) * 9 + 3 * k + l] = (i == k) * S[3 * j + l] + lambda * F[3 * i + j] * F[3 * k + l] +
            mu * (b[3 * i + k] * (j == l) + F[3 * i + l] * F[3 * k + j]);
  PetscFunctionReturn(0);
}

/* bodies[i].material of a "stvk" body (besides "model") */
static const FcParamSpec Params_StVK[] = {FC_MATERIAL_PARAM_E, FC_MATERIAL_PARAM_NU, FC_MATERIAL_PARAM_DENSITY, {.name = NULL}};

static PetscErrorCode Create_StVK(FcMaterial mat, const FcMaterialParams *p)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialSetENu(mat, p));
  mat->data        = NULL;
  mat->ops.frame   = NULL;
  mat->ops.energy  = Energy_StVK;
  mat->ops.stress  = Stress_StVK;
  mat->ops.tangent = Tangent_StVK;
  mat->ops.destroy = NULL;
  PetscFunctionReturn(0);
}

const FcMaterialModel FcMaterialStVK = {.create = Create_StVK, .params = Params_StVK, .check = FcMaterialCheckENu};
