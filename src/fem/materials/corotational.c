/* fcsim — `corotational`: small-strain isotropic elasticity in a frame that rotates with the
 * element (Felippa & Haugen, "A unified formulation of small-strain corotational finite
 * elements: I. Theory", CMAME 194, 2005; Müller & Gross, "Interactive virtual materials",
 * Graphics Interface 2004; Nesme, Payan & Faure, "Efficient, physically plausible finite
 * elements", Eurographics 2005).
 *
 * Frame: R = polar rotation of the deformation gradient at the element centroid, F_c = R U
 * (FcMat3Polar, Higham's scaled Newton iteration), computed once per element by ops.frame.
 * At each quadrature point, with F the local deformation gradient:
 *   ε = sym(Rᵀ F − I),   σ(ε) = λ tr(ε) I + 2 μ ε,   P = R σ(ε),   W = ½ ε : σ(ε).
 * A rigid motion F = Q gives R = Q, Rᵀ F = I and exactly zero strain, stress and force (up to
 * the rounding of the polar iteration), which is what `linear` lacks.
 *
 * Tangent with R held fixed (the consistent derivative of P for a frozen frame):
 *   A_iJkL = ∂P_iJ/∂F_kL = Σ_ab R_ia C_aJbL R_kb
 *          = λ R_iJ R_kL + μ (δ_ik δ_JL + R_iL R_kJ)        (C isotropic, RᵀR = I),
 * i.e. the element stiffness is the classical K = R K0 Rᵀ of the corotational method. It
 * omits the terms coming from the variation of R with the displacements (the part of the
 * consistent tangent that Felippa & Haugen derive from the spin of the frame; they are of the
 * order of the stress times ∂R/∂u). Newton's method with this tangent is therefore a
 * quasi-Newton iteration: linear, not quadratic, convergence once rotations are large, with a
 * rate that degrades as the stress grows. fe is, with R frozen, exactly ∂We/∂ue; for a tet4
 * it is the full derivative too, because ∂W/∂R ∝ skew(σ U) = 0 when σ is an isotropic
 * function of U − I and R is the polar rotation of the (constant) F.
 *
 * Inverted elements in the current configuration (det F_c <= 0) have no proper polar rotation;
 * FcMat3Polar then returns the identity and the element behaves as `linear` until it is
 * restored (a Newton iterate may pass through such a state; a converged state should not). */
#include "../material.h"
#include "../../core/mat3.h"

static PetscErrorCode Frame_Corotational(FcMaterial mat, const PetscReal Fc[9], PetscReal R[9])
{
  PetscFunctionBegin;
  (void)mat;
  (void)FcMat3Polar(Fc, R); /* identity when det F_c <= 0, see above */
  PetscFunctionReturn(0);
}

/* ε = sym(Rᵀ F) − I */
static void CorotStrain(const PetscReal F[9], const PetscReal R[9], PetscReal eps[9])
{
  PetscReal G[9];

  FcMat3MultTN(R, F, G);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) eps[3 * i + j] = 0.5 * (G[3 * i + j] + G[3 * j + i]) - (i == j);
}

static PetscErrorCode Energy_Corotational(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W)
{
  PetscReal eps[9], sig[9], w = 0;

  PetscFunctionBegin;
  CorotStrain(F, R, eps);
  FcHookeStress(mat->lambda, mat->mu, eps, sig);
  for (int i = 0; i < 9; i++) w += eps[i] * sig[i];
  *W = 0.5 * w;
  PetscFunctionReturn(0);
}

static PetscErrorCode Stress_Corotational(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal P[9])
{
  PetscReal eps[9], sig[9];

  PetscFunctionBegin;
  CorotStrain(F, R, eps);
  FcHookeStress(mat->lambda, mat->mu, eps, sig);
  FcMat3Mult(R, sig, P);
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent_Corotational(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal A[81])
{
  const PetscReal lambda = mat->lambda, mu = mat->mu;

  PetscFunctionBegin;
  (void)F;
  for (int i = 0; i < 3; i++)
    for (int J = 0; J < 3; J++)
      for (int k = 0; k < 3; k++)
        for (int L = 0; L < 3; L++)
          A[(3 * i + J) * 9 + 3 * k + L] = lambda * R[3 * i + J] * R[3 * k + L] + mu * ((i == k) * (J == L) + R[3 * i + L] * R[3 * k + J]);
  PetscFunctionReturn(0);
}

/* bodies[i].material of a "corotational" body (besides "model") */
static const FcParamSpec Params_Corotational[] = {FC_MATERIAL_PARAM_E, FC_MATERIAL_PARAM_NU, FC_MATERIAL_PARAM_DENSITY, {.name = NULL}};

static PetscErrorCode Create_Corotational(FcMaterial mat, const FcMaterialParams *p)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialSetENu(mat, p));
  mat->data        = NULL;
  mat->ops.frame   = Frame_Corotational;
  mat->ops.energy  = Energy_Corotational;
  mat->ops.stress  = Stress_Corotational;
  mat->ops.tangent = Tangent_Corotational;
  mat->ops.destroy = NULL;
  PetscFunctionReturn(0);
}

const FcMaterialModel FcMaterialCorotational = {.create = Create_Corotational, .params = Params_Corotational, .check = FcMaterialCheckENu};
