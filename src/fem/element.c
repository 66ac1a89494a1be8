/* fcsim — element kernels of the isoparametric tet4/tet10 (total Lagrangian form).
 *
 * Kinematics at a reference point ξ (total Lagrangian discretization, e.g. Bonet & Wood,
 * "Nonlinear Continuum Mechanics for Finite Element Analysis", 2nd ed., 2008):
 *   J = ∂X/∂ξ = Σ_a X_a ⊗ ∂N_a/∂ξ,  ∂N_a/∂X = J⁻ᵀ ∂N_a/∂ξ,  F = I + Σ_a u_a ⊗ ∂N_a/∂X,
 *   fe_ai = ∫ P_iJ ∂N_a/∂X_J dV,  Ke_ai,bk = ∫ ∂N_a/∂X_J A_iJkL ∂N_b/∂X_L dV,  We = ∫ W dV,
 * with dV = det J dξ evaluated by a quadrature rule on the reference tetrahedron.
 *
 * Quadrature degree of the internal force and stiffness (FcElementStiffnessDegree):
 *  - tet4: degree 1. ∂N/∂X is constant, so the integrand of a linear material is constant and
 *    the centroid rule is exact (the constant-strain tetrahedron).
 *  - tet10 with straight edges (mid-edge nodes at the edge midpoints, the usual case): degree 2,
 *    4 points. det J is constant and ∂N/∂X linear, so BᵀCB is quadratic and the rule is exact
 *    for `linear` and, with the frame frozen, for `corotational`; 4 points × 6 strain
 *    components = 24 = 30 − 6 rigid modes, so the stiffness has no spurious zero-energy mode.
 *  - curved tet10 (some mid-edge node off its midpoint, e.g. on a curved boundary): degree 3,
 *    8 points. Then ∫ ∂N_a/∂X dV = ∫ cof(J) ∂N_a/∂ξ dξ has a cubic integrand (cof J quadratic,
 *    ∂N/∂ξ linear); integrating it exactly is what makes a constant stress produce zero net
 *    force on interior nodes, i.e. the patch test pass on curved meshes. The degree-2 rule does
 *    not, and no rule is exact for the rational stiffness integrand of a curved element anyway.
 * The mass uses degree 2 (tet4) and 4 (tet10): N_a N_b is then integrated exactly on straight
 * elements (and ∫ det J, hence the total mass, exactly on curved ones).
 *
 * Frame: for models with ops.frame (corotational), R is evaluated ONCE per element from F at the
 * centroid ξ = (¼, ¼, ¼) and held fixed over the quadrature points; both fe and Ke use it. */
#include "fem.h"
#include "../core/mat3.h"

static const PetscReal Centroid[3] = {0.25, 0.25, 0.25};

static PetscErrorCode ElementNpe(PetscInt order, PetscInt *npe)
{
  PetscFunctionBegin;
  PetscCheck(order == 1 || order == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Element order %" PetscInt_FMT " not supported (1: tet4, 2: tet10)", order);
  *npe = order == 1 ? 4 : 10;
  PetscFunctionReturn(0);
}

/* Shape functions, their X-derivatives dNdX[3a+J] and det J at ξ. An element with det J <= 0
 * at a point it is evaluated at is inverted (or degenerate) in the reference configuration:
 * the mesh reader rejects those as input errors, so meeting one here is a program error. */
static PetscErrorCode ElementGeometry(PetscInt order, PetscInt npe, const PetscReal *Xe, const PetscReal xi[3], PetscReal N[], PetscReal dNdX[], PetscReal *detJ)
{
  PetscReal dN[3 * FC_MAX_NPE], J[9] = {0}, Ji[9];

  PetscFunctionBegin;
  FcTetShape(order, xi, N, dN);
  for (PetscInt a = 0; a < npe; a++)
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 3; j++) J[3 * r + j] += Xe[3 * a + r] * dN[3 * a + j];
  *detJ = FcMat3Inv(J, Ji);
  PetscCheck(*detJ > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Element inverted or degenerate in the reference configuration: det J = %g at xi = (%g, %g, %g)", (double)*detJ, (double)xi[0], (double)xi[1], (double)xi[2]);
  /* ∂N_a/∂X_J = Σ_j ∂N_a/∂ξ_j (J⁻¹)_jJ */
  for (PetscInt a = 0; a < npe; a++)
    for (int K = 0; K < 3; K++) dNdX[3 * a + K] = dN[3 * a] * Ji[K] + dN[3 * a + 1] * Ji[3 + K] + dN[3 * a + 2] * Ji[6 + K];
  PetscFunctionReturn(0);
}

/* F = I + Σ_a u_a ⊗ ∂N_a/∂X */
static void DeformationGradient(PetscInt npe, const PetscReal dNdX[], const PetscReal *ue, PetscReal F[9])
{
  FcMat3Identity(F);
  if (!ue) return;
  for (PetscInt a = 0; a < npe; a++)
    for (int i = 0; i < 3; i++)
      for (int J = 0; J < 3; J++) F[3 * i + J] += ue[3 * a + i] * dNdX[3 * a + J];
}

PetscBool FcElementIsStraight(PetscInt order, const PetscReal *Xe)
{
  if (order == 1) return PETSC_TRUE;
  for (int e = 0; e < 6; e++) {
    const PetscReal *p = Xe + 3 * FcTetEdgeNodes[e][0], *q = Xe + 3 * FcTetEdgeNodes[e][1], *m = Xe + 3 * (4 + e);
    PetscReal        off = 0, len = 0;
    for (int k = 0; k < 3; k++) {
      const PetscReal d = m[k] - 0.5 * (p[k] + q[k]), l = q[k] - p[k];
      off += d * d;
      len += l * l;
    }
    /* 1e-10 of the edge length: far above the rounding of a mesh file's coordinates, far below
     * any curvature that matters to the quadrature. */
    if (off > 1e-20 * len) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

PetscInt FcElementStiffnessDegree(PetscInt order, const PetscReal *Xe)
{
  if (order == 1) return 1;
  return FcElementIsStraight(order, Xe) ? 2 : 3;
}

PetscErrorCode FcElementGradient(PetscInt order, const PetscReal *Xe, const PetscReal *ue, const PetscReal xi[3], PetscReal F[9])
{
  PetscInt  npe = 0;
  PetscReal N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ;

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  PetscCall(ElementGeometry(order, npe, Xe, xi ? xi : Centroid, N, dNdX, &detJ));
  DeformationGradient(npe, dNdX, ue, F);
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementFrame(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal R[9])
{
  PetscReal Fc[9];

  PetscFunctionBegin;
  if (!mat->ops.frame) {
    FcMat3Identity(R);
    PetscFunctionReturn(0);
  }
  PetscCall(FcElementGradient(order, Xe, ue, Centroid, Fc));
  PetscCall((*mat->ops.frame)(mat, Fc, R));
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementInternalFrame(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, const PetscReal *Rin, PetscReal *We, PetscReal *fe, PetscReal *Ke)
{
  PetscInt     npe = 0, ndof;
  FcQuadrature q;
  PetscReal    R[9], N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ, F[9], P[9], A[81], W;
  PetscReal    BA[FC_MAX_NPE][3][9]; /* BA[a][i][3k+L] = Σ_J ∂N_a/∂X_J A_iJkL */

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  ndof = 3 * npe;
  if (Rin) PetscCall(PetscArraycpy(R, Rin, 9));
  else PetscCall(FcElementFrame(mat, order, Xe, ue, R));
  PetscCall(FcTetQuadrature(FcElementStiffnessDegree(order, Xe), &q));
  if (We) *We = 0;
  if (fe) PetscCall(PetscArrayzero(fe, ndof));
  if (Ke) PetscCall(PetscArrayzero(Ke, ndof * ndof));
  for (PetscInt g = 0; g < q.n; g++) {
    PetscReal wd;

    PetscCall(ElementGeometry(order, npe, Xe, &q.xi[3 * g], N, dNdX, &detJ));
    wd = q.w[g] * detJ;
    DeformationGradient(npe, dNdX, ue, F);
    if (We) {
      PetscCall((*mat->ops.energy)(mat, F, R, &W));
      *We += wd * W;
    }
    if (fe) {
      PetscCall((*mat->ops.stress)(mat, F, R, P));
      for (PetscInt a = 0; a < npe; a++)
        for (int i = 0; i < 3; i++) fe[3 * a + i] += wd * (P[3 * i] * dNdX[3 * a] + P[3 * i + 1] * dNdX[3 * a + 1] + P[3 * i + 2] * dNdX[3 * a + 2]);
    }
    if (Ke) {
      PetscCall((*mat->ops.tangent)(mat, F, R, A));
      for (PetscInt a = 0; a < npe; a++)
        for (int i = 0; i < 3; i++)
          for (int kL = 0; kL < 9; kL++) BA[a][i][kL] = dNdX[3 * a] * A[(3 * i) * 9 + kL] + dNdX[3 * a + 1] * A[(3 * i + 1) * 9 + kL] + dNdX[3 * a + 2] * A[(3 * i + 2) * 9 + kL];
      for (PetscInt a = 0; a < npe; a++)
        for (int i = 0; i < 3; i++) {
          PetscReal *row = Ke + (3 * a + i) * ndof;
          for (PetscInt b = 0; b < npe; b++) {
            const PetscReal *db = dNdX + 3 * b;
            for (int k = 0; k < 3; k++) row[3 * b + k] += wd * (BA[a][i][3 * k] * db[0] + BA[a][i][3 * k + 1] * db[1] + BA[a][i][3 * k + 2] * db[2]);
          }
        }
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementInternal(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal *We, PetscReal *fe, PetscReal *Ke)
{
  PetscFunctionBegin;
  PetscCall(FcElementInternalFrame(mat, order, Xe, ue, NULL, We, fe, Ke));
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementMass(PetscInt order, const PetscReal *Xe, PetscReal rho, PetscReal *Me)
{
  PetscInt     npe = 0, ndof;
  FcQuadrature q;
  PetscReal    N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ;

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  ndof = 3 * npe;
  PetscCall(FcTetQuadrature(2 * order, &q));
  PetscCall(PetscArrayzero(Me, ndof * ndof));
  for (PetscInt g = 0; g < q.n; g++) {
    PetscReal wd;
    PetscCall(ElementGeometry(order, npe, Xe, &q.xi[3 * g], N, dNdX, &detJ));
    wd = rho * q.w[g] * detJ;
    for (PetscInt a = 0; a < npe; a++)
      for (PetscInt b = 0; b < npe; b++) {
        const PetscReal m = wd * N[a] * N[b];
        for (int i = 0; i < 3; i++) Me[(3 * a + i) * ndof + 3 * b + i] += m;
      }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementBodyForce(PetscInt order, const PetscReal *Xe, PetscReal rho, const PetscReal g[3], PetscReal *fe)
{
  PetscInt     npe = 0;
  FcQuadrature q;
  PetscReal    N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ;

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  /* The mass rule, so that fe = Me · (g at every node) exactly: consistent with the mass. */
  PetscCall(FcTetQuadrature(2 * order, &q));
  PetscCall(PetscArrayzero(fe, 3 * npe));
  for (PetscInt k = 0; k < q.n; k++) {
    PetscReal wd;
    PetscCall(ElementGeometry(order, npe, Xe, &q.xi[3 * k], N, dNdX, &detJ));
    wd = rho * q.w[k] * detJ;
    for (PetscInt a = 0; a < npe; a++)
      for (int i = 0; i < 3; i++) fe[3 * a + i] += wd * N[a] * g[i];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementVolume(PetscInt order, const PetscReal *Xe, PetscReal *vol)
{
  PetscInt     npe = 0;
  FcQuadrature q;
  PetscReal    N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ;

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  /* det J is a polynomial of degree 3(order − 1): degree 1 for tet4, 3 for curved tet10. */
  PetscCall(FcTetQuadrature(order == 1 ? 1 : 3, &q));
  *vol = 0;
  for (PetscInt k = 0; k < q.n; k++) {
    PetscCall(ElementGeometry(order, npe, Xe, &q.xi[3 * k], N, dNdX, &detJ));
    *vol += q.w[k] * detJ;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementCauchy(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal sigma[9])
{
  PetscInt  npe = 0;
  PetscReal N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ, F[9], R[9], P[9], PFt[9], J;

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  PetscCall(ElementGeometry(order, npe, Xe, Centroid, N, dNdX, &detJ));
  DeformationGradient(npe, dNdX, ue, F);
  if (mat->ops.frame) PetscCall((*mat->ops.frame)(mat, F, R));
  else FcMat3Identity(R);
  PetscCall((*mat->ops.stress)(mat, F, R, P));
  /* σ = P Fᵀ / det F. The small-strain models are not hyperelastic in F, so P Fᵀ is symmetric
   * only to first order in the strain: its symmetric part is returned (von Mises and the
   * output assume a symmetric tensor). An element inverted in the current configuration has no
   * meaningful Cauchy stress; sym(P) is returned so that output of a bad state still works. */
  FcMat3MultNT(P, F, PFt);
  J = FcMat3Det(F);
  if (!(J > 0)) {
    PetscCall(PetscArraycpy(PFt, P, 9));
    J = 1;
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) sigma[3 * i + j] = 0.5 * (PFt[3 * i + j] + PFt[3 * j + i]) / J;
  PetscFunctionReturn(0);
}
