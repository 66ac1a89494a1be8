/* fcsim — mesh geometry: element validity, volume, face areas, nearest node.
 *
 * The module carries its own small tet/triangle shape-function code so that it does not
 * depend on src/fem (which depends on the mesh): only the derivatives are needed here. */
#include "mesh_impl.h"
#include "../core/mat3.h"
#include <math.h>

/* Barycentric coordinates L0 = 1-xi-eta-zeta, L1 = xi, L2 = eta, L3 = zeta and their
 * (constant) derivatives with respect to (xi, eta, zeta). */
// clang-format off
static const PetscReal dL[4][3] = {
  {-1, -1, -1},
  {1,  0,  0 },
  {0,  1,  0 },
  {0,  0,  1 }
};
// clang-format on
/* Corner pairs of the tet10 mid-edge nodes 4..9 (Gmsh ordering). */
// clang-format off
static const PetscInt TetEdge[6][2] = {
  {0, 1},
  {1, 2},
  {2, 0},
  {3, 0},
  {3, 2},
  {3, 1}
};
// clang-format on

void FcMeshTetShapeDeriv_Private(PetscInt order, const PetscReal xi[3], PetscReal dN[])
{
  const PetscReal L[4] = {1 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};

  if (order == 1) {
    for (PetscInt a = 0; a < 4; a++)
      for (PetscInt j = 0; j < 3; j++) dN[3 * a + j] = dL[a][j];
    return;
  }
  /* Corners: N_a = L_a (2 L_a - 1); mid-edge (a,b): N = 4 L_a L_b. */
  for (PetscInt a = 0; a < 4; a++)
    for (PetscInt j = 0; j < 3; j++) dN[3 * a + j] = (4 * L[a] - 1) * dL[a][j];
  for (PetscInt k = 0; k < 6; k++) {
    const PetscInt a = TetEdge[k][0], b = TetEdge[k][1];
    for (PetscInt j = 0; j < 3; j++) dN[3 * (4 + k) + j] = 4 * (L[a] * dL[b][j] + L[b] * dL[a][j]);
  }
}

PetscReal FcMeshTetDetJ_Private(const FcMesh *mesh, PetscInt e, const PetscReal xi[3])
{
  PetscReal       dN[30], J[9] = {0};
  const PetscInt *c = mesh->conn + e * mesh->npe;

  FcMeshTetShapeDeriv_Private(mesh->order, xi, dN);
  for (PetscInt a = 0; a < mesh->npe; a++) {
    const PetscReal *x = mesh->X + 3 * c[a];
    for (PetscInt i = 0; i < 3; i++)
      for (PetscInt j = 0; j < 3; j++) J[3 * i + j] += x[i] * dN[3 * a + j];
  }
  return FcMat3Det(J);
}

/* Signed volume of the straight tetrahedron on the element's 4 corners. */
static PetscReal CornerVolume(const FcMesh *mesh, PetscInt e)
{
  const PetscInt  *c  = mesh->conn + e * mesh->npe;
  const PetscReal *x0 = mesh->X + 3 * c[0];
  PetscReal        A[9];

  for (PetscInt r = 0; r < 3; r++)
    for (PetscInt i = 0; i < 3; i++) A[3 * r + i] = mesh->X[3 * c[r + 1] + i] - x0[i];
  return FcMat3Det(A) / 6;
}

PetscErrorCode FcMeshCheckElements_Private(const FcMesh *mesh)
{
  /* Where the tet10 Jacobian is sampled: corners, edge midpoints, centroid. det J is a cubic
   * that no finite set of points bounds, but the usual folds show at these points: a mid-edge
   * node pushed past a quarter of its edge makes det J negative at the nearer corner, one
   * pushed into the element makes it negative at the edge midpoint. */
  // clang-format off
  static const PetscReal pts[11][3] = {
    {0,    0,    0   },
    {1,    0,    0   },
    {0,    1,    0   },
    {0,    0,    1   },
    {0.5,  0,    0   },
    {0.5,  0.5,  0   },
    {0,    0.5,  0   },
    {0,    0,    0.5 },
    {0,    0.5,  0.5 },
    {0.5,  0,    0.5 },
    {0.25, 0.25, 0.25}
  };
  // clang-format on
  static const char *const pt_name[11] = {"corner 0", "corner 1", "corner 2", "corner 3", "the midpoint of edge 0-1", "the midpoint of edge 1-2",
    "the midpoint of edge 2-0", "the midpoint of edge 3-0", "the midpoint of edge 3-2", "the midpoint of edge 3-1", "the centroid"};
  PetscReal                lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL};
  PetscReal                diag2 = 0, tol, bad_value = 0;
  PetscInt                 ninverted = 0, nzero = 0, first = -1, bad_point = -1;
  PetscBool                first_zero = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt n = 0; n < mesh->nnodes; n++)
    for (PetscInt i = 0; i < 3; i++) {
      lo[i] = PetscMin(lo[i], mesh->X[3 * n + i]);
      hi[i] = PetscMax(hi[i], mesh->X[3 * n + i]);
    }
  for (PetscInt i = 0; i < 3; i++) diag2 += (hi[i] - lo[i]) * (hi[i] - lo[i]);
  /* Relative to the body's size so that the test does not depend on the length unit. */
  tol = 1e-12 * diag2 * PetscSqrtReal(diag2);

  for (PetscInt e = 0; e < mesh->nelems; e++) {
    const PetscReal v    = CornerVolume(mesh, e);
    PetscBool       zero = PETSC_FALSE, inverted = PETSC_FALSE;
    PetscInt        where = -1;
    PetscReal       value = v;

    if (PetscAbsReal(v) <= tol) zero = PETSC_TRUE;
    else if (v < 0) inverted = PETSC_TRUE;
    else if (mesh->order == 2) {
      for (PetscInt p = 0; p < 11 && !inverted; p++) {
        const PetscReal d = FcMeshTetDetJ_Private(mesh, e, pts[p]);
        if (d <= 0) {
          inverted = PETSC_TRUE;
          where    = p;
          value    = d;
        }
      }
    }
    if (zero) nzero++;
    if (inverted) ninverted++;
    if ((zero || inverted) && first < 0) {
      first      = e;
      first_zero = zero;
      bad_point  = where;
      bad_value  = value;
    }
  }
  if (first >= 0) {
    char more[128] = "";

    if (nzero + ninverted > 1) snprintf(more, sizeof more, " (%" PetscInt_FMT " inverted and %" PetscInt_FMT " zero-volume elements in all)", ninverted, nzero);
    if (first_zero)
      return FcInputError(mesh->file, NULL, "zero-volume element %" PetscInt_FMT ": |corner volume| %g <= %g = 1e-12 x (bounding-box diagonal)^3%s",
        mesh->elem_id[first], (double)PetscAbsReal(bad_value), (double)tol, more);
    if (bad_point < 0)
      return FcInputError(mesh->file, NULL, "inverted element %" PetscInt_FMT ": signed corner volume %g < 0 (nodes in the wrong order)%s",
        mesh->elem_id[first], (double)bad_value, more);
    return FcInputError(mesh->file, NULL, "inverted element %" PetscInt_FMT ": Jacobian determinant %g <= 0 at %s (a mid-edge node folds the element)%s",
      mesh->elem_id[first], (double)bad_value, pt_name[bad_point], more);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshVolume(const FcMesh *mesh, PetscReal *volume)
{
  /* Keast's 5-point rule, exact for cubics: the tet10 Jacobian determinant is a cubic
   * polynomial, so curved elements are integrated exactly. Weights sum to 1/6. */
  // clang-format off
  static const PetscReal qx[5][3] = {
    {0.25,      0.25,      0.25     },
    {1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0},
    {0.5,       1.0 / 6.0, 1.0 / 6.0},
    {1.0 / 6.0, 0.5,       1.0 / 6.0},
    {1.0 / 6.0, 1.0 / 6.0, 0.5      }
  };
  // clang-format on
  static const PetscReal qw[5] = {-2.0 / 15.0, 3.0 / 40.0, 3.0 / 40.0, 3.0 / 40.0, 3.0 / 40.0};
  PetscReal              v     = 0;

  PetscFunctionBegin;
  for (PetscInt e = 0; e < mesh->nelems; e++) {
    if (mesh->order == 1) v += CornerVolume(mesh, e);
    else
      for (PetscInt q = 0; q < 5; q++) v += qw[q] * FcMeshTetDetJ_Private(mesh, e, qx[q]);
  }
  *volume = v;
  PetscFunctionReturn(0);
}

PetscErrorCode FcMeshFacesArea(const FcMesh *mesh, PetscInt nfaces, const PetscInt *faces, PetscReal *area)
{
  /* Radon's 7-point rule (degree 5) on the reference triangle, weights relative to its area:
   * a 6-node face has a non-polynomial area element, so a rule well above the shape-function
   * degree keeps curved faces accurate; flat faces are exact. */
  const PetscReal s15 = PetscSqrtReal(15.0), a1 = (6 - s15) / 21, a2 = (6 + s15) / 21;
  const PetscReal w1 = (155 - s15) / 1200, w2 = (155 + s15) / 1200;
  // clang-format off
  const PetscReal qL[7][3] = {
    {1.0 / 3,    1.0 / 3,    1.0 / 3   },
    {a1,         a1,         1 - 2 * a1},
    {a1,         1 - 2 * a1, a1        },
    {1 - 2 * a1, a1,         a1        },
    {a2,         a2,         1 - 2 * a2},
    {a2,         1 - 2 * a2, a2        },
    {1 - 2 * a2, a2,         a2        }
  };
  // clang-format on
  const PetscReal qw[7] = {9.0 / 40, w1, w1, w1, w2, w2, w2};
  // clang-format off
  static const PetscReal dLt[3][2] = {
    {-1, -1},
    {1,  0 },
    {0,  1 }
  };
  // clang-format on
  // clang-format off
  static const PetscInt TriEdge[3][2] = {
    {0, 1},
    {1, 2},
    {2, 0}
  };
  // clang-format on
  PetscReal A = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nfaces; k++) {
    const PetscInt *f = mesh->bfaces + faces[k] * mesh->npf;

    PetscCheck(faces[k] >= 0 && faces[k] < mesh->nbfaces, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "Face %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", faces[k], mesh->nbfaces);
    if (mesh->npf == 3) {
      PetscReal u[3], w[3], n[3];
      for (PetscInt i = 0; i < 3; i++) {
        u[i] = mesh->X[3 * f[1] + i] - mesh->X[3 * f[0] + i];
        w[i] = mesh->X[3 * f[2] + i] - mesh->X[3 * f[0] + i];
      }
      n[0] = u[1] * w[2] - u[2] * w[1];
      n[1] = u[2] * w[0] - u[0] * w[2];
      n[2] = u[0] * w[1] - u[1] * w[0];
      A += 0.5 * PetscSqrtReal(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      continue;
    }
    for (PetscInt q = 0; q < 7; q++) {
      PetscReal dN[6][2], t[2][3] = {{0}}, n[3];
      /* (u,v) = (L1,L2); corners N = L(2L-1), mid-edges N = 4 L_a L_b. */
      for (PetscInt a = 0; a < 3; a++)
        for (PetscInt j = 0; j < 2; j++) dN[a][j] = (4 * qL[q][a] - 1) * dLt[a][j];
      for (PetscInt m = 0; m < 3; m++) {
        const PetscInt a = TriEdge[m][0], b = TriEdge[m][1];
        for (PetscInt j = 0; j < 2; j++) dN[3 + m][j] = 4 * (qL[q][a] * dLt[b][j] + qL[q][b] * dLt[a][j]);
      }
      for (PetscInt a = 0; a < 6; a++)
        for (PetscInt j = 0; j < 2; j++)
          for (PetscInt i = 0; i < 3; i++) t[j][i] += mesh->X[3 * f[a] + i] * dN[a][j];
      n[0] = t[0][1] * t[1][2] - t[0][2] * t[1][1];
      n[1] = t[0][2] * t[1][0] - t[0][0] * t[1][2];
      n[2] = t[0][0] * t[1][1] - t[0][1] * t[1][0];
      A += 0.5 * qw[q] * PetscSqrtReal(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    }
  }
  *area = A;
  PetscFunctionReturn(0);
}

PetscInt FcMeshNearestNode(const FcMesh *mesh, const PetscReal p[3])
{
  PetscInt  best = -1;
  PetscReal dmin = PETSC_MAX_REAL;

  for (PetscInt n = 0; n < mesh->nnodes; n++) {
    const PetscReal *x = mesh->X + 3 * n;
    const PetscReal  d = (x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) + (x[2] - p[2]) * (x[2] - p[2]);
    if (d < dmin) {
      dmin = d;
      best = n;
    }
  }
  return best;
}

PetscErrorCode FcMeshGroupArea(const FcMesh *mesh, const FcMeshGroup *g, PetscReal *area)
{
  PetscMPIInt rank;
  double      a = 0;

  PetscFunctionBegin;
  if (!mesh->parted) {
    PetscCall(FcMeshFacesArea(mesh, g->nfaces, g->faces, area));
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) { /* rank 0 holds the whole mesh and group */
    PetscReal v;
    PetscCall(FcMeshFacesArea(mesh, g->nfaces, g->faces, &v));
    a = (double)v;
  }
  PetscCallMPI(MPI_Bcast(&a, 1, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  *area = (PetscReal)a;
  PetscFunctionReturn(0);
}
