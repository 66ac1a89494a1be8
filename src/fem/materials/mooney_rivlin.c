/* fcsim — `mooney_rivlin`: the decoupled (compressible) Mooney–Rivlin solid, and the kernel it
 * shares with `neohookean` (the special case C01 = 0, C10 = μ/2).
 *
 * Strain energy per unit reference volume, decoupled into an isochoric and a volumetric part
 * (Holzapfel, "Nonlinear Solid Mechanics", Wiley 2000, §6.4 "compressible hyperelastic
 * materials", decoupled representation, and §6.5 for the Mooney–Rivlin form; Simo, Taylor &
 * Pister, CMAME 51, 1985):
 *   W(F) = C10 (Ī1 − 3) + C01 (Ī2 − 3) + U(J),
 *   J = det F,  C = FᵀF,  I1 = tr C,  I2 = ½ ((tr C)² − tr(C²)),
 *   Ī1 = J^(−2/3) I1,  Ī2 = J^(−4/3) I2          (invariants of C̄ = J^(−2/3) C, det C̄ = 1),
 *   U(J) = κ/2 (J − 1)²                          (Abaqus' "D1" form, κ = 2/D1).
 * Small-strain limit: shear modulus μ₀ = 2 (C10 + C01), bulk modulus κ.
 *
 * Derivation (own, by the chain rule on W = w(I1, I2, J); every term is checked against
 * central differences in tests/unit/test_hyperelastic.c). With H = F⁻ᵀ:
 *   ∂I1/∂F = 2F,                 ∂²I1/∂F_iJ∂F_kL = 2 δ_ik δ_JL,
 *   ∂I2/∂F = D := 2 (I1 F − F C),
 *   ∂²I2/∂F_iJ∂F_kL = 2 (2 F_iJ F_kL + I1 δ_ik δ_JL − δ_ik C_LJ − F_iL F_kJ − b_ik δ_JL), b = F Fᵀ,
 *   ∂J/∂F = J H,                 ∂²J/∂F_iJ∂F_kL = J (H_iJ H_kL − H_iL H_kJ)
 * (Bonet & Wood, "Nonlinear Continuum Mechanics for FEA", 2nd ed. 2008, §2.3 and §6.4.2, for ∂J).
 * With a1 = J^(−2/3), a2 = J^(−4/3) and w = c1 a1 I1 + c2 a2 I2 + U(J) (c1 = C10, c2 = C01):
 *   w_1 = c1 a1,  w_2 = c2 a2,  J w_J = −⅔ c1 a1 I1 − ⁴⁄₃ c2 a2 I2 + J U'(J) =: g,
 *   J w_1J = −⅔ c1 a1,  J w_2J = −⁴⁄₃ c2 a2,  J² w_JJ = ¹⁰⁄₉ c1 a1 I1 + ²⁸⁄₉ c2 a2 I2 + J² U''(J),
 * so that
 *   P = 2 c1 a1 F + c2 a2 D + g H,
 *   A_iJkL = 2 c1 a1 δ_ik δ_JL + c2 a2 ∂²I2/∂F_iJ∂F_kL + g (H_iJ H_kL − H_iL H_kJ)
 *          − ⅔ c1 a1 (2 F_iJ H_kL + 2 H_iJ F_kL) − ⁴⁄₃ c2 a2 (D_iJ H_kL + H_iJ D_kL)
 *          + (¹⁰⁄₉ c1 a1 I1 + ²⁸⁄₉ c2 a2 I2 + J² U'') H_iJ H_kL.
 * A has the major symmetry A_iJkL = A_kLiJ (it is a Hessian). The Cauchy stress this gives is
 * the classical σ = J⁻¹ dev[2 (C10 + C01 Ī1) b̄ − 2 C01 b̄²] + U'(J) I, b̄ = J^(−2/3) b
 * (Holzapfel §6.5), which the unit test uses as an independent closed form.
 *
 * Volumetric term: with mat->volumetric == FC_VOLUMETRIC_POINTWISE the kernel includes U(J) at
 * the point; with FC_VOLUMETRIC_MEAN_DILATATION it returns only the isochoric part and the
 * element kernel adds V U(J̄) from the element's mean dilatation J̄ (element.c, doc/fem.md).
 *
 * det F <= 0 (an element inverted in the current configuration, or a non-finite F): J^(−2/3) is
 * not defined and the energy is +∞ in the limit J → 0⁺. The kernel raises PETSC_ERR_FP with a
 * message naming det F rather than returning a number (a large energy would only mislead
 * Newton's method, a NaN would travel silently); the run stops with that message. */
#include "../material.h"
#include "../../core/mat3.h"

PetscErrorCode FcVolumetricQuadratic(FcMaterial mat, PetscReal J, PetscReal *U, PetscReal *dU, PetscReal *d2U)
{
  PetscFunctionBegin;
  /* U(J) = κ/2 (J − 1)², U' = κ (J − 1), U'' = κ */
  if (U) *U = 0.5 * mat->kappa * (J - 1.0) * (J - 1.0);
  if (dU) *dU = mat->kappa * (J - 1.0);
  if (d2U) *d2U = mat->kappa;
  PetscFunctionReturn(0);
}

PetscErrorCode FcMooneyRivlinEval(FcMaterial mat, PetscReal c1, PetscReal c2, const PetscReal F[9], PetscReal *W, PetscReal P[9], PetscReal A[81])
{
  PetscReal J, Finv[9], H[9], C[9], b[9], FC[9], D[9], I1 = 0, trC2 = 0, I2, cj, a1, a2, U = 0, dU = 0, d2U = 0, g, hh;

  PetscFunctionBegin;
  J = FcMat3Det(F);
  PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_FP,
    "Material %s: det F = %g <= 0 at a quadrature point (an element is inverted in the current configuration); the Newton iterate is not admissible: reduce the load or time increment",
    mat->type, (double)J);
  (void)FcMat3Inv(F, Finv);
  FcMat3Transpose(Finv, H);
  FcMat3MultTN(F, F, C);
  FcMat3MultNT(F, F, b);
  FcMat3Mult(F, C, FC);
  for (int i = 0; i < 3; i++) I1 += C[4 * i];
  for (int i = 0; i < 9; i++) trC2 += C[i] * C[i]; /* C symmetric: tr(C²) = C:C */
  I2 = 0.5 * (I1 * I1 - trC2);
  cj = PetscCbrtReal(J);
  a1 = 1.0 / (cj * cj);
  a2 = a1 * a1;
  if (mat->volumetric == FC_VOLUMETRIC_POINTWISE) PetscCall((*mat->ops.volumetric)(mat, J, &U, &dU, &d2U));
  if (W) *W = c1 * (a1 * I1 - 3.0) + c2 * (a2 * I2 - 3.0) + U;
  if (!P && !A) PetscFunctionReturn(0);
  for (int i = 0; i < 9; i++) D[i] = 2.0 * (I1 * F[i] - FC[i]);
  g = -2.0 / 3.0 * c1 * a1 * I1 - 4.0 / 3.0 * c2 * a2 * I2 + J * dU;
  if (P)
    for (int i = 0; i < 9; i++) P[i] = 2.0 * c1 * a1 * F[i] + c2 * a2 * D[i] + g * H[i];
  if (!A) PetscFunctionReturn(0);
  hh = 10.0 / 9.0 * c1 * a1 * I1 + 28.0 / 9.0 * c2 * a2 * I2 + J * J * d2U;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) {
          const int       iJ = 3 * i + j, kL = 3 * k + l;
          const PetscReal dd   = (PetscReal)((i == k) * (j == l));
          const PetscReal d2I2 = 2.0 * (2.0 * F[iJ] * F[kL] + I1 * dd - (i == k) * C[3 * l + j] - F[3 * i + l] * F[3 * k + j] - b[3 * i + k] * (j == l));
          A[9 * iJ + kL]       = 2.0 * c1 * a1 * dd + c2 * a2 * d2I2 + g * (H[iJ] * H[kL] - H[3 * i + l] * H[3 * k + j]) -
            4.0 / 3.0 * c1 * a1 * (F[iJ] * H[kL] + H[iJ] * F[kL]) - 4.0 / 3.0 * c2 * a2 * (D[iJ] * H[kL] + H[iJ] * D[kL]) + hh * H[iJ] * H[kL];
        }
  PetscFunctionReturn(0);
}

static PetscErrorCode Energy_MooneyRivlin(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W)
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, mat->C10, mat->C01, F, W, NULL, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode Stress_MooneyRivlin(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal P[9])
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, mat->C10, mat->C01, F, NULL, P, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode EnergyStress_MooneyRivlin(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal *W, PetscReal P[9])
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, mat->C10, mat->C01, F, W, P, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode Tangent_MooneyRivlin(FcMaterial mat, const PetscReal F[9], const PetscReal R[9], PetscReal A[81])
{
  PetscFunctionBegin;
  (void)R;
  PetscCall(FcMooneyRivlinEval(mat, mat->C10, mat->C01, F, NULL, NULL, A));
  PetscFunctionReturn(0);
}

/* bodies[i].material of a "mooney_rivlin" body (besides "model") */
// clang-format off
static const FcParamSpec Params_MooneyRivlin[] = {
  {.name = "C10",   .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &FcModulusBound,      .doc = "Mooney-Rivlin constant of (I1 - 3) [Pa]"},
  {.name = "C01",   .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_GE(0), .bound = &FcModulusUpperBound, .doc = "Mooney-Rivlin constant of (I2 - 3) [Pa]; small-strain shear modulus 2 (C10 + C01)"},
  {.name = "kappa", .type = FC_PARAM_REAL, .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &FcModulusBound,      .doc = "bulk modulus [Pa], U(J) = kappa/2 (J - 1)^2"},
  FC_MATERIAL_PARAM_DENSITY,
  FC_MATERIAL_PARAM_VOLUMETRIC,
  {.name = NULL}
};
// clang-format on

/* κ/μ₀ at most 1e8 (FcMaterialCheckBulkShear), μ₀ = 2 (C10 + C01). */
static PetscErrorCode Check_MooneyRivlin(const FcMaterialParams *p, const char *where, const char *path)
{
  PetscReal C10, C01, kappa;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsGetReal(p, "C10", &C10));
  PetscCall(FcMaterialParamsGetReal(p, "C01", &C01));
  PetscCall(FcMaterialParamsGetReal(p, "kappa", &kappa));
  PetscCall(FcMaterialCheckBulkShear(where, path, "kappa", "", kappa, 2.0 * (C10 + C01)));
  PetscFunctionReturn(0);
}

static PetscErrorCode Create_MooneyRivlin(FcMaterial mat, const FcMaterialParams *p)
{
  PetscReal C10, C01, kappa, mu0;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsGetReal(p, "C10", &C10));
  PetscCall(FcMaterialParamsGetReal(p, "C01", &C01));
  PetscCall(FcMaterialParamsGetReal(p, "kappa", &kappa));
  /* E and ν of the small-strain limit (shear modulus μ₀ = 2 (C10 + C01), bulk modulus κ), for
   * the Lamé parameters and for messages; κ stays the one given (not E/(3(1 − 2ν)) of the
   * rounded E, ν). */
  mu0 = 2.0 * (C10 + C01);
  PetscCall(FcMaterialSetIsotropic(mat, 9.0 * kappa * mu0 / (3.0 * kappa + mu0), (3.0 * kappa - 2.0 * mu0) / (2.0 * (3.0 * kappa + mu0))));
  mat->C10   = C10;
  mat->C01   = C01;
  mat->kappa = kappa;
  PetscCall(FcMaterialSetVolumetric(mat, p));
  mat->data             = NULL;
  mat->ops.frame        = NULL;
  mat->ops.energy       = Energy_MooneyRivlin;
  mat->ops.stress       = Stress_MooneyRivlin;
  mat->ops.energystress = EnergyStress_MooneyRivlin;
  mat->ops.tangent      = Tangent_MooneyRivlin;
  mat->ops.volumetric   = FcVolumetricQuadratic;
  mat->ops.destroy      = NULL;
  PetscFunctionReturn(0);
}

const FcMaterialModel FcMaterialMooneyRivlin = {.create = Create_MooneyRivlin, .params = Params_MooneyRivlin, .check = Check_MooneyRivlin};
