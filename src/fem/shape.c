/* fcsim — Lagrange shape functions of the linear and quadratic tetrahedron and triangle.
 *
 * Written in volume (area) coordinates L: the corner functions of the quadratic elements are
 * L_i (2 L_i − 1) and the mid-edge functions 4 L_i L_j (Zienkiewicz, Taylor & Zhu, "The Finite
 * Element Method: Its Basis and Fundamentals", 6th ed., 2005, ch. 8, complete polynomial
 * families for triangles and tetrahedra in area/volume coordinates). The node numbering is
 * Gmsh's (Gmsh reference manual, "Node ordering"): tet10 vertices 0-3 then the edges
 * (0,1),(1,2),(2,0),(3,0),(3,2),(3,1); tri6 corners 0-2 then the edges (0,1),(1,2),(2,0). */
#include "fem.h"

/* Edges of the tet10 and tri6 elements, in Gmsh order (node 4+e, resp. 3+e, sits on edge e). */
// clang-format off
const int FcTetEdgeNodes[6][2] = {
  {0, 1},
  {1, 2},
  {2, 0},
  {3, 0},
  {3, 2},
  {3, 1}
};
// clang-format on
// clang-format off
const int FcTriEdgeNodes[3][2] = {
  {0, 1},
  {1, 2},
  {2, 0}
};
// clang-format on

/* L0 = 1 − ξ − η − ζ, L1 = ξ, L2 = η, L3 = ζ; dL[k][j] = ∂L_k/∂ξ_j. */
// clang-format off
static const PetscReal TetdL[4][3] = {
  {-1, -1, -1},
  {1,  0,  0 },
  {0,  1,  0 },
  {0,  0,  1 }
};
// clang-format on
// clang-format off
static const PetscReal TridL[3][2] = {
  {-1, -1},
  {1,  0 },
  {0,  1 }
};
// clang-format on

void FcTetShape(PetscInt order, const PetscReal xi[3], PetscReal N[], PetscReal dN[])
{
  const PetscReal L[4] = {1.0 - xi[0] - xi[1] - xi[2], xi[0], xi[1], xi[2]};

  if (order == 1) {
    for (int a = 0; a < 4; a++) {
      if (N) N[a] = L[a];
      if (dN)
        for (int j = 0; j < 3; j++) dN[3 * a + j] = TetdL[a][j];
    }
    return;
  }
  for (int a = 0; a < 4; a++) {
    if (N) N[a] = L[a] * (2.0 * L[a] - 1.0);
    if (dN)
      for (int j = 0; j < 3; j++) dN[3 * a + j] = (4.0 * L[a] - 1.0) * TetdL[a][j];
  }
  for (int e = 0; e < 6; e++) {
    const int p = FcTetEdgeNodes[e][0], q = FcTetEdgeNodes[e][1];
    if (N) N[4 + e] = 4.0 * L[p] * L[q];
    if (dN)
      for (int j = 0; j < 3; j++) dN[3 * (4 + e) + j] = 4.0 * (TetdL[p][j] * L[q] + L[p] * TetdL[q][j]);
  }
}

void FcTriShape(PetscInt order, const PetscReal xi[2], PetscReal N[], PetscReal dN[])
{
  const PetscReal L[3] = {1.0 - xi[0] - xi[1], xi[0], xi[1]};

  if (order == 1) {
    for (int a = 0; a < 3; a++) {
      if (N) N[a] = L[a];
      if (dN)
        for (int j = 0; j < 2; j++) dN[2 * a + j] = TridL[a][j];
    }
    return;
  }
  for (int a = 0; a < 3; a++) {
    if (N) N[a] = L[a] * (2.0 * L[a] - 1.0);
    if (dN)
      for (int j = 0; j < 2; j++) dN[2 * a + j] = (4.0 * L[a] - 1.0) * TridL[a][j];
  }
  for (int e = 0; e < 3; e++) {
    const int p = FcTriEdgeNodes[e][0], q = FcTriEdgeNodes[e][1];
    if (N) N[3 + e] = 4.0 * L[p] * L[q];
    if (dN)
      for (int j = 0; j < 2; j++) dN[2 * (3 + e) + j] = 4.0 * (TridL[p][j] * L[q] + L[p] * TridL[q][j]);
  }
}

void FcTetNodes(PetscInt order, PetscReal xi[])
{
  // clang-format off
  static const PetscReal V[4][3] = {
    {0, 0, 0},
    {1, 0, 0},
    {0, 1, 0},
    {0, 0, 1}
  };
  // clang-format on
  for (int a = 0; a < 4; a++)
    for (int j = 0; j < 3; j++) xi[3 * a + j] = V[a][j];
  if (order == 1) return;
  for (int e = 0; e < 6; e++)
    for (int j = 0; j < 3; j++) xi[3 * (4 + e) + j] = 0.5 * (V[FcTetEdgeNodes[e][0]][j] + V[FcTetEdgeNodes[e][1]][j]);
}

void FcTriNodes(PetscInt order, PetscReal xi[])
{
  // clang-format off
  static const PetscReal V[3][2] = {
    {0, 0},
    {1, 0},
    {0, 1}
  };
  // clang-format on
  for (int a = 0; a < 3; a++)
    for (int j = 0; j < 2; j++) xi[2 * a + j] = V[a][j];
  if (order == 1) return;
  for (int e = 0; e < 3; e++)
    for (int j = 0; j < 2; j++) xi[2 * (3 + e) + j] = 0.5 * (V[FcTriEdgeNodes[e][0]][j] + V[FcTriEdgeNodes[e][1]][j]);
}
