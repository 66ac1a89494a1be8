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
 * centroid ξ = (¼, ¼, ¼) and held fixed over the quadrature points; both fe and Ke use it.
 *
 * Mean dilatation (decoupled models with ops.volumetric and mat->volumetric ==
 * FC_VOLUMETRIC_MEAN_DILATATION; Nagtegaal, Parks & Rice, CMAME 4, 1974; Simo, Taylor & Pister,
 * CMAME 51, 1985; Bonet & Wood 2008, §8.6): the material returns the isochoric part only and the
 * volumetric energy of the element is V U(J̄) with
 *   V = ∫ dV,  v = ∫ det F dV,  J̄ = v / V                     (same quadrature rule),
 * i.e. a pressure p = U'(J̄) constant per element (P2/P0 on tet10). Its derivatives, with
 * ∂(det F)/∂F = J F⁻ᵀ and ∂²J/∂F_iJ∂F_kL = J (F⁻¹_Ji F⁻¹_Lk − F⁻¹_Li F⁻¹_Jk), and the spatial
 * gradient g_a = F⁻ᵀ ∂N_a/∂X (so ∂v/∂u_ai = ∫ J g_ai dV):
 *   fe_ai  += p ∫ J g_ai dV,
 *   Ke_aibk += p ∫ J (g_ai g_bk − g_ak g_bi) dV + U''(J̄)/V (∂v/∂u_ai)(∂v/∂u_bk),
 *   We     += V U(J̄).
 * On tet4 F is constant, J̄ = J, and this equals the pointwise integration exactly. */
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
static PetscErrorCode ElementGeometry(
  PetscInt order, PetscInt npe, const PetscReal *Xe, const PetscReal xi[3], PetscReal N[], PetscReal dNdX[], PetscReal *detJ)
{
  PetscReal dN[3 * FC_MAX_NPE], J[9] = {0}, Ji[9];

  PetscFunctionBegin;
  FcTetShape(order, xi, N, dN);
  for (PetscInt a = 0; a < npe; a++)
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 3; j++) J[3 * r + j] += Xe[3 * a + r] * dN[3 * a + j];
  *detJ = FcMat3Inv(J, Ji);
  PetscCheck(*detJ > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Element inverted or degenerate in the reference configuration: det J = %g at xi = (%g, %g, %g)",
    (double)*detJ, (double)xi[0], (double)xi[1], (double)xi[2]);
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

static PetscBool MeanDilatation(FcMaterial mat) { return (PetscBool)(mat->ops.volumetric && mat->volumetric == FC_VOLUMETRIC_MEAN_DILATATION); }

/* det F <= 0 (or not finite) where the volumetric term needs F⁻¹: the same error as the
 * decoupled material kernel (materials/mooney_rivlin.c). */
static PetscErrorCode CheckDetF(FcMaterial mat, PetscReal J)
{
  PetscFunctionBegin;
  PetscCheck(J > 0, PETSC_COMM_SELF, PETSC_ERR_FP,
    "Material %s: det F = %g <= 0 in an element (inverted in the current configuration); the Newton iterate is not admissible: reduce the load or time increment",
    mat->type, (double)J);
  PetscFunctionReturn(0);
}

/* Element volume V and deformed volume v = ∫ det F dV with the stiffness rule q. */
static PetscErrorCode ElementDilatation(
  FcMaterial mat, PetscInt order, PetscInt npe, const PetscReal *Xe, const PetscReal *ue, const FcQuadrature *q, PetscReal *V, PetscReal *v)
{
  PetscReal N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ, F[9], J;

  PetscFunctionBegin;
  *V = *v = 0;
  for (PetscInt g = 0; g < q->n; g++) {
    PetscCall(ElementGeometry(order, npe, Xe, &q->xi[3 * g], N, dNdX, &detJ));
    DeformationGradient(npe, dNdX, ue, F);
    J = FcMat3Det(F);
    PetscCall(CheckDetF(mat, J));
    *V += q->w[g] * detJ;
    *v += q->w[g] * detJ * J;
  }
  PetscFunctionReturn(0);
}

/* det F > 0 (and finite) at every quadrature point FcElementInternalFrame evaluates, for the
 * models whose energy is only defined there (the decoupled ones: U(J) and J^(-2/3) need J > 0);
 * the small-strain models and stvk are defined for every F. */
PetscErrorCode FcElementAdmissible(FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscBool *ok)
{
  PetscInt     npe = 0;
  FcQuadrature q;
  PetscReal    N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ, F[9];

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (!mat->ops.volumetric) PetscFunctionReturn(0);
  PetscCall(ElementNpe(order, &npe));
  PetscCall(FcTetQuadrature(FcElementStiffnessDegree(order, Xe), &q));
  for (PetscInt g = 0; g < q.n && *ok; g++) {
    PetscReal J;
    PetscCall(ElementGeometry(order, npe, Xe, &q.xi[3 * g], N, dNdX, &detJ));
    DeformationGradient(npe, dNdX, ue, F);
    J = FcMat3Det(F);
    if (!(J > 0) || PetscIsInfOrNanReal(J)) *ok = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* The kinematics of every quadrature point of an element, computed once per call and used by the
 * admissibility check, the mean dilatation's first pass and the integration (before, each of the
 * three recomputed them: 0.61e9 of the 3.57e9 instructions an assembly spent on the Fig. 4 cube,
 * callgrind, doc/architecture.md). The same operations on the same inputs: the same bits. */
typedef struct {
  PetscInt     npe;
  FcQuadrature q;
  PetscReal    dNdX[FC_MAX_QP][3 * FC_MAX_NPE], detJ[FC_MAX_QP], F[FC_MAX_QP][9];
} ElementPoints;

static PetscErrorCode ElementPointsSetUp(PetscInt order, const PetscReal *Xe, const PetscReal *ue, ElementPoints *ep)
{
  PetscReal N[FC_MAX_NPE];

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &ep->npe));
  PetscCall(FcTetQuadrature(FcElementStiffnessDegree(order, Xe), &ep->q));
  for (PetscInt g = 0; g < ep->q.n; g++) {
    PetscCall(ElementGeometry(order, ep->npe, Xe, &ep->q.xi[3 * g], N, ep->dNdX[g], &ep->detJ[g]));
    DeformationGradient(ep->npe, ep->dNdX[g], ue, ep->F[g]);
  }
  PetscFunctionReturn(0);
}

/* FcElementAdmissible's test on the points' F */
static PetscBool ElementPointsAdmissible(FcMaterial mat, const ElementPoints *ep)
{
  if (!mat->ops.volumetric) return PETSC_TRUE;
  for (PetscInt g = 0; g < ep->q.n; g++) {
    const PetscReal J = FcMat3Det(ep->F[g]);
    if (!(J > 0) || PetscIsInfOrNanReal(J)) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* The mean dilatation's contribution at point g (element.c head comment): fe, Ke and ∂v/∂u. */
static PetscErrorCode MeanDilatationPoint(
  FcMaterial mat, const ElementPoints *ep, PetscInt g, PetscReal wd, PetscReal p, PetscReal *dv, PetscReal *fe, PetscReal *Ke)
{
  const PetscInt   npe = ep->npe, ndof = 3 * npe;
  const PetscReal *dNdX = ep->dNdX[g];
  PetscReal        Finv[9], J, gx[3 * FC_MAX_NPE]; /* gx[3a+i] = Σ_J F⁻¹_Ji ∂N_a/∂X_J */

  PetscFunctionBegin;
  J = FcMat3Inv(ep->F[g], Finv);
  PetscCall(CheckDetF(mat, J));
  for (PetscInt a = 0; a < npe; a++)
    for (int i = 0; i < 3; i++) gx[3 * a + i] = Finv[i] * dNdX[3 * a] + Finv[3 + i] * dNdX[3 * a + 1] + Finv[6 + i] * dNdX[3 * a + 2];
  for (PetscInt r = 0; r < ndof; r++) dv[r] += wd * J * gx[r];
  if (fe)
    for (PetscInt r = 0; r < ndof; r++) fe[r] += wd * J * p * gx[r];
  if (Ke)
    for (PetscInt a = 0; a < npe; a++)
      for (int i = 0; i < 3; i++) {
        PetscReal *row = Ke + (3 * a + i) * ndof;
        for (PetscInt b = 0; b < npe; b++)
          for (int k = 0; k < 3; k++) row[3 * b + k] += wd * J * p * (gx[3 * a + i] * gx[3 * b + k] - gx[3 * a + k] * gx[3 * b + i]);
      }
  PetscFunctionReturn(0);
}

/* Ke += wd ∫ ∂N_a/∂X_J A_iJkL ∂N_b/∂X_L at one point */
static void TangentPoint(PetscInt npe, const PetscReal dNdX[], const PetscReal A[81], PetscReal wd, PetscReal *Ke)
{
  const PetscInt ndof = 3 * npe;
  PetscReal      BA[FC_MAX_NPE][3][9]; /* BA[a][i][3k+L] = Σ_J ∂N_a/∂X_J A_iJkL */

  for (PetscInt a = 0; a < npe; a++)
    for (int i = 0; i < 3; i++)
      for (int kL = 0; kL < 9; kL++)
        BA[a][i][kL] = dNdX[3 * a] * A[(3 * i) * 9 + kL] + dNdX[3 * a + 1] * A[(3 * i + 1) * 9 + kL] + dNdX[3 * a + 2] * A[(3 * i + 2) * 9 + kL];
  for (PetscInt a = 0; a < npe; a++)
    for (int i = 0; i < 3; i++) {
      PetscReal *row = Ke + (3 * a + i) * ndof;
      for (PetscInt b = 0; b < npe; b++) {
        const PetscReal *db = dNdX + 3 * b;
        for (int k = 0; k < 3; k++) row[3 * b + k] += wd * (BA[a][i][3 * k] * db[0] + BA[a][i][3 * k + 1] * db[1] + BA[a][i][3 * k + 2] * db[2]);
      }
    }
}

/* FcElementInternalFrame; ok != NULL: FcElementAdmissible's test first, and nothing computed
 * (*ok false) for an inadmissible element (FcElementInternalChecked). */
static PetscErrorCode ElementInternal_Private(
  FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, const PetscReal *Rin, PetscReal *We, PetscReal *fe, PetscReal *Ke, PetscBool *ok)
{
  PetscInt        npe, ndof;
  ElementPoints   ep;
  PetscReal       R[9], P[9], A[81], W;
  PetscReal       Vol = 0, vol = 0, U = 0, p = 0, d2U = 0, dv[3 * FC_MAX_NPE];
  const PetscBool md = MeanDilatation(mat);

  PetscFunctionBegin;
  PetscCall(ElementPointsSetUp(order, Xe, ue, &ep));
  if (ok && !(*ok = ElementPointsAdmissible(mat, &ep))) PetscFunctionReturn(0);
  npe  = ep.npe;
  ndof = 3 * npe;
  if (Rin) PetscCall(PetscArraycpy(R, Rin, 9));
  else PetscCall(FcElementFrame(mat, order, Xe, ue, R));
  if (We) *We = 0;
  if (fe) PetscCall(PetscArrayzero(fe, ndof));
  if (Ke) PetscCall(PetscArrayzero(Ke, ndof * ndof));
  if (md) {
    /* first pass: J̄ = v / V, then p = U'(J̄) enters every quadrature point below */
    for (PetscInt g = 0; g < ep.q.n; g++) {
      const PetscReal J = FcMat3Det(ep.F[g]);
      PetscCall(CheckDetF(mat, J));
      Vol += ep.q.w[g] * ep.detJ[g];
      vol += ep.q.w[g] * ep.detJ[g] * J;
    }
    PetscCall((*mat->ops.volumetric)(mat, vol / Vol, &U, &p, &d2U));
    if (We) *We += Vol * U;
    PetscCall(PetscArrayzero(dv, ndof));
  }
  for (PetscInt g = 0; g < ep.q.n; g++) {
    const PetscReal wd = ep.q.w[g] * ep.detJ[g], *dNdX = ep.dNdX[g], *F = ep.F[g];
    if (md && (fe || Ke)) PetscCall(MeanDilatationPoint(mat, &ep, g, wd, p, dv, fe, Ke));
    if (We && fe && mat->ops.energystress) { /* one evaluation for both (material.h) */
      PetscCall((*mat->ops.energystress)(mat, F, R, &W, P));
      *We += wd * W;
    } else if (We) {
      PetscCall((*mat->ops.energy)(mat, F, R, &W));
      *We += wd * W;
    }
    if (fe) {
      if (!We || !mat->ops.energystress) PetscCall((*mat->ops.stress)(mat, F, R, P));
      for (PetscInt a = 0; a < npe; a++)
        for (int i = 0; i < 3; i++) fe[3 * a + i] += wd * (P[3 * i] * dNdX[3 * a] + P[3 * i + 1] * dNdX[3 * a + 1] + P[3 * i + 2] * dNdX[3 * a + 2]);
    }
    if (Ke) {
      PetscCall((*mat->ops.tangent)(mat, F, R, A));
      TangentPoint(npe, dNdX, A, wd, Ke);
    }
  }
  if (md && Ke) /* U''(J̄)/V (∂v/∂u)(∂v/∂u)ᵀ */
    for (PetscInt r = 0; r < ndof; r++)
      for (PetscInt c = 0; c < ndof; c++) Ke[r * ndof + c] += d2U / Vol * dv[r] * dv[c];
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementInternalFrame(
  FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, const PetscReal *Rin, PetscReal *We, PetscReal *fe, PetscReal *Ke)
{
  PetscFunctionBegin;
  PetscCall(ElementInternal_Private(mat, order, Xe, ue, Rin, We, fe, Ke, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode FcElementInternalChecked(
  FcMaterial mat, PetscInt order, const PetscReal *Xe, const PetscReal *ue, PetscReal *We, PetscReal *fe, PetscReal *Ke, PetscBool *ok)
{
  PetscFunctionBegin;
  PetscCall(ElementInternal_Private(mat, order, Xe, ue, NULL, We, fe, Ke, ok));
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
  PetscReal N[FC_MAX_NPE], dNdX[3 * FC_MAX_NPE], detJ, F[9], R[9], P[9], PFt[9], J, p = 0;

  PetscFunctionBegin;
  PetscCall(ElementNpe(order, &npe));
  if (MeanDilatation(mat)) {
    /* the isochoric stress at the centroid plus the element's pressure p = U'(J̄) */
    FcQuadrature q;
    PetscReal    Vol, vol;
    PetscCall(FcTetQuadrature(FcElementStiffnessDegree(order, Xe), &q));
    PetscCall(ElementDilatation(mat, order, npe, Xe, ue, &q, &Vol, &vol));
    PetscCall((*mat->ops.volumetric)(mat, vol / Vol, NULL, &p, NULL));
  }
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
    for (int j = 0; j < 3; j++) sigma[3 * i + j] = 0.5 * (PFt[3 * i + j] + PFt[3 * j + i]) / J + (i == j) * p;
  PetscFunctionReturn(0);
}
