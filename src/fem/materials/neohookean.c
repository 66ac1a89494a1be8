/* fcsim — `neohookean`: the decoupled compressible neo-Hookean solid
 *   W(F) = μ/2 (Ī1 − 3) + U(J),   Ī1 = J^(−2/3) tr(FᵀF),   U(J) = κ/2 (J − 1)²
 * (Simo, Taylor & Pister, CMAME 51, 1985; Holzapfel, "Nonlinear Solid Mechanics", 2000, §6.4–6.5;
 * the isochoric part is Abaqus' NEO HOOKE with C10 = μ/2 and the volumetric part its
 * U = (J − 1)²/D1 with D1 = 2/κ). μ = E / (2(1 + ν)) and κ = E / (3(1 − 2ν)) are the shear and
 * bulk moduli of the small-strain limit, so E and ν keep their usual meaning at small strain.
 *
 * It is the decoupled Mooney–Rivlin model with C10 = μ/2, C01 = 0, evaluated by the same kernel
 * (FcMooneyRivlinEval, materials/mooney_rivlin.c, where the stress and tangent are derived):
 *   P = μ J^(−2/3) (F − ⅓ I1 F⁻ᵀ) + J U'(J) F⁻ᵀ,
 *   σ = P Fᵀ / J = μ J^(−5/3) dev(b) + U'(J) I.
 * The volumetric mode (pointwise U(J) at each quadrature point, or the element's mean dilatation
 * added by element.c) and the behaviour at det F <= 0 (PETSC_ERR_FP, no value) are those of the
 * kernel. */
#include "../material.h"

static PetscErrorCode Energy_NeoHookean(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W)
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, 0.5 * mat->mu, 0.0, F, W, NULL, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode Stress_NeoHookean(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal P[9])
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, 0.5 * mat->mu, 0.0, F, NULL, P, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode EnergyStress_NeoHookean(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W, PetscReal P[9])
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, 0.5 * mat->mu, 0.0, F, W, P, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent_NeoHookean(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal A[81])
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, 0.5 * mat->mu, 0.0, F, NULL, NULL, A));
  PetscFunctionReturn(0);
}

/* bodies[i].material of a "neohookean" body (besides "model") */
static const FcParamSpec Params_NeoHookean[] = {
  FC_MATERIAL_PARAM_E, FC_MATERIAL_PARAM_NU, FC_MATERIAL_PARAM_DENSITY, FC_MATERIAL_PARAM_VOLUMETRIC, {.name = NULL}};

static PetscErrorCode Create_NeoHookean(FcMaterial mat, const FcMaterialParams *p)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialSetENu(mat, p));
  PetscCall(FcMaterialSetVolumetric(mat, p));
  mat->data             = NULL;
  mat->ops.frame        = NULL;
  mat->ops.energy       = Energy_NeoHookean;
  mat->ops.stress       = Stress_NeoHookean;
  mat->ops.energystress = EnergyStress_NeoHookean;
  mat->ops.tangent      = Tangent_NeoHookean;
  mat->ops.volumetric   = FcVolumetricQuadratic;
  mat->ops.destroy      = NULL;
  PetscFunctionReturn(0);
}

const FcMaterialModel FcMaterialNeoHookean = {.create = Create_NeoHookean, .params = Params_NeoHookean, .check = FcMaterialCheckENu};
