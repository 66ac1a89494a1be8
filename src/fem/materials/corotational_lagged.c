/* fcsim — `corotational_lagged`: the linear corotational model of han2023 §V-B (Han, Castro,
 * Masterjohn, Lin, Tedrake, Sherman, "A convex formulation of frictional contact between rigid
 * and deformable bodies", IEEE RA-L 2023).
 *
 * Saint-Venant–Kirchhoff energy of the linearized corotated Green strain (han2023 eq. 7):
 *   F̂ = R̂ᵀ F,   Ê = ½ (F̂ + F̂ᵀ) − I,   Ψ(Ê) = μ ‖Ê‖_F² + (λ/2) tr(Ê)²,
 *   P = ∂Ψ/∂F = R̂ (2 μ Ê + λ tr(Ê) I),
 *   ∂²Ψ/∂F_iJ ∂F_kL = μ (δ_ik δ_JL + R̂_iL R̂_kJ) + λ R̂_iJ R̂_kL   (han2023 Appendix, Prop. 1).
 * The frame is lagged: R̂ = R0, the polar rotation of the element's deformation gradient at the
 * START of the step (the previous step's converged configuration), not of the current iterate.
 * ops.frame is the polar rotation of the centroid F like `corotational`; what makes the frame
 * lagged is where it is evaluated: the deformable body hands the step-start displacements u0 to
 * the assembly (FcAssembleInternalLagged) as the frame source. Within a step R̂ is a constant,
 * so Ψ is quadratic in F, the internal force is affine in q and the stiffness is constant,
 * symmetric and positive semi-definite (Proposition 1: dF : ∂²Ψ/∂F² : dF =
 * μ (tr(dFᵀdF) + tr((dF R̂ᵀ)²)) + λ tr(dF R̂ᵀ)² ≥ 0 by Lemma 1), so Newton converges in one
 * iteration and A of han2023 eq. 11 is SPD. A rigid rotation Q of the step-start configuration
 * (F = Q, R0 = Q) gives Ê = 0: no force. Within a step, a further rotation Q' is not filtered
 * (Ê = sym(Q') − I is of second order in its angle): the model is objective only to first order in
 * the rotation of one step, which is han2023's "rotational artifacts are negligible".
 *
 * Ψ and P are those of `corotational` for the same R (½ ε : σ(ε) = μ ‖ε‖² + (λ/2) tr² ε); this
 * file writes them in han2023's form. Inverted step-start elements (det F0 <= 0) have no polar
 * rotation: FcMat3Polar returns the identity and the element behaves as `linear` in that step. */
#include "../material.h"
#include "../../core/mat3.h"

static PetscErrorCode Frame_CorotationalLagged(FcMaterial mat, const PetscReal Fc[9], PetscReal R[9])
{
  PetscFunctionBegin;
  (void)mat;
  (void)FcMat3Polar(Fc, R); /* identity when det F_c <= 0, see above */
  PetscFunctionReturn(0);
}

/* Ê = ½ (R̂ᵀF + FᵀR̂) − I */
static void LinearizedGreen(const PetscReal F[9], const PetscReal R[9], PetscReal E[9])
{
  PetscReal Fh[9];

  FcMat3MultTN(R, F, Fh);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) E[3 * i + j] = 0.5 * (Fh[3 * i + j] + Fh[3 * j + i]) - (i == j);
}

static PetscErrorCode Energy_CorotationalLagged(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W)
{
  PetscReal E[9], EE = 0, tr;

  PetscFunctionBegin;
  LinearizedGreen(F, R, E);
  for (int i = 0; i < 9; i++) EE += E[i] * E[i];
  tr = E[0] + E[4] + E[8];
  *W = mat->mu * EE + 0.5 * mat->lambda * tr * tr; /* han2023 eq. 7 */
  PetscFunctionReturn(0);
}

static PetscErrorCode Stress_CorotationalLagged(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal P[9])
{
  PetscReal E[9], S[9], tr;

  PetscFunctionBegin;
  LinearizedGreen(F, R, E);
  tr = E[0] + E[4] + E[8];
  /* ∂Ψ/∂F = R̂ ∂Ψ/∂Ê (Ê depends on F only through R̂ᵀF, and ∂Ψ/∂Ê is symmetric) */
  for (int i = 0; i < 9; i++) S[i] = 2.0 * mat->mu * E[i];
  S[0] += mat->lambda * tr;
  S[4] += mat->lambda * tr;
  S[8] += mat->lambda * tr;
  FcMat3Mult(R, S, P);
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent_CorotationalLagged(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal A[81])
{
  const PetscReal lambda = mat->lambda, mu = mat->mu;

  PetscFunctionBegin;
  (void)F; /* constant in F: the model is linear within a step */
  for (int i = 0; i < 3; i++)
    for (int J = 0; J < 3; J++)
      for (int k = 0; k < 3; k++)
        for (int L = 0; L < 3; L++)
          A[(3 * i + J) * 9 + 3 * k + L] = mu * ((i == k) * (J == L) + R[3 * i + L] * R[3 * k + J]) + lambda * R[3 * i + J] * R[3 * k + L];
  PetscFunctionReturn(0);
}

/* bodies[i].material of a "corotational_lagged" body (besides "model") */
static const FcParamSpec Params_CorotationalLagged[] = {FC_MATERIAL_PARAM_E, FC_MATERIAL_PARAM_NU, FC_MATERIAL_PARAM_DENSITY, {.name = NULL}};

static PetscErrorCode Create_CorotationalLagged(FcMaterial mat, const FcMaterialParams *p)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialSetENu(mat, p));
  mat->data        = NULL;
  mat->ops.frame   = Frame_CorotationalLagged;
  mat->ops.energy  = Energy_CorotationalLagged;
  mat->ops.stress  = Stress_CorotationalLagged;
  mat->ops.tangent = Tangent_CorotationalLagged;
  mat->ops.destroy = NULL;
  PetscFunctionReturn(0);
}

const FcMaterialModel FcMaterialCorotationalLagged = {
  .create = Create_CorotationalLagged, .params = Params_CorotationalLagged, .check = FcMaterialCheckENu, .lagged_frame = PETSC_TRUE};
