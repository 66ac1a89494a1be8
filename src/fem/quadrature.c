/* fcsim — symmetric quadrature rules on the reference tetrahedron and triangle.
 *
 * All rules are fully symmetric (invariant under every permutation of the vertices) and have
 * positive weights with every point strictly inside the simplex, so integrating a positive
 * quantity (mass, volume) never gives a negative contribution. Points are listed in reference
 * coordinates ξ = (L1, L2, L3) (tet) or (L1, L2) (triangle) of barycentric orbits:
 *   tet  S31(a, b): one barycentric coordinate b = 1 − 3a, the other three a   (4 points)
 *        S22(a, b): two coordinates a, two b = 1/2 − a                        (6 points)
 *   tri  S21(a, b): one coordinate b = 1 − 2a, the other two a                  (3 points)
 * Weights include the simplex measure: they sum to 1/6 (tet) or 1/2 (triangle).
 * Every constant below was re-derived in 40-digit arithmetic by solving the moment equations
 * ∫ L0^p L1^q L2^r L3^s = p! q! r! s! / (p+q+r+s+3)! for the orbit structure of the cited rule,
 * and the unit test checks every monomial up to the rule's degree to 1e-14.
 *
 * Tetrahedron:
 *   degree 1, 1 point: the centroid.
 *   degree 2, 4 points, S31 with a = (5 − √5)/20 (Hammer, Marlowe & Stroud, Math. Tables Aids
 *     Comput. 10, 1956; Keast, CMAME 55, 1986, rule 2).
 *   degree 3, 8 points, two S31 orbits (Witherden & Vincent, "On the identification of
 *     symmetric quadrature rules for finite element methods", Comput. Math. Appl. 69, 2015):
 *     positive weights, unlike the classical 5-point degree-3 rule whose centroid weight is
 *     −2/15. The two-S31 family has one free parameter; a1 is Witherden–Vincent's choice.
 *   degree 4 and 5, 14 points, two S31 orbits and one S22 orbit (Grundmann & Möller,
 *     "Invariant integration formulas for the n-simplex by combinatorial methods", SIAM J.
 *     Numer. Anal. 15, 1978; Walkington, "Quadrature on simplices of arbitrary dimension", CMU
 *     tech. report, 2000): six orbit unknowns for the six symmetric moment equations of degree
 *     <= 5, positive weights; also used for degree 4 because the classical 11-point degree-4
 *     rule (Keast 1986) has a negative weight.
 * Triangle:
 *   degree 1, 1 point: the centroid.
 *   degree 2, 3 points, S21 with a = 1/6 (Strang & Fix, "An Analysis of the Finite Element
 *     Method", 1973; Dunavant, "High degree efficient symmetrical Gaussian quadrature rules for
 *     the triangle", IJNME 21, 1985).
 *   degree 3 and 4, 6 points, two S21 orbits (Dunavant 1985, degree-4 rule): positive weights,
 *     unlike Dunavant's 4-point degree-3 rule.
 *   degree 5, 7 points, centroid and two S21 orbits with a = (6 ∓ √15)/21 (Radon, Monatsh. Math.
 *     52, 1948; Dunavant 1985, degree-5 rule). */
#include "fem.h"

// clang-format off
#define S31(a, b) {a, a, a}, {b, a, a}, {a, b, a}, {a, a, b}
// clang-format on
// clang-format off
#define S22(a, b) {a, b, b}, {b, a, b}, {b, b, a}, {b, a, a}, {a, b, a}, {a, a, b}
// clang-format on
// clang-format off
#define S21(a, b) {a, a}, {b, a}, {a, b}
// clang-format on
#define W4(w) w, w, w, w
#define W6(w) w, w, w, w, w, w
#define W3(w) w, w, w

/* ---- tetrahedron ---- */
static const PetscReal TetX1[1][3] = {{0.25, 0.25, 0.25}};
static const PetscReal TetW1[1]    = {1.0 / 6.0};

#define T2A 0.138196601125010515180
#define T2B 0.585410196624968454461
static const PetscReal TetX2[4][3] = {S31(T2A, T2B)};
static const PetscReal TetW2[4]    = {W4(1.0 / 24.0)};

#define T3A1 0.32816330251638168679
#define T3B1 0.01551009245085493963
#define T3W1 0.022702973756181226178
#define T3A2 0.10804724989842860412
#define T3B2 0.67585825030471418764
#define T3W2 0.018963692910485440489
static const PetscReal TetX3[8][3] = {S31(T3A1, T3B1), S31(T3A2, T3B2)};
static const PetscReal TetW3[8]    = {W4(T3W1), W4(T3W2)};

#define T5A1 0.092735250310891226402
#define T5B1 0.721794249067326320794
#define T5W1 0.012248840519393658257
#define T5A2 0.3108859192633006098
#define T5B2 0.0673422422100981706
#define T5W2 0.0187813209530026418
#define T5A3 0.045503704125649649492
#define T5B3 0.454496295874350350508
#define T5W3 0.007091003462846911073
static const PetscReal TetX5[14][3] = {S31(T5A1, T5B1), S31(T5A2, T5B2), S22(T5A3, T5B3)};
static const PetscReal TetW5[14]    = {W4(T5W1), W4(T5W2), W6(T5W3)};

/* ---- triangle ---- */
static const PetscReal TriX1[1][2] = {{1.0 / 3.0, 1.0 / 3.0}};
static const PetscReal TriW1[1]    = {0.5};

static const PetscReal TriX2[3][2] = {S21(1.0 / 6.0, 2.0 / 3.0)};
static const PetscReal TriW2[3]    = {W3(1.0 / 6.0)};

#define R4A1 0.44594849091596488632
#define R4B1 0.10810301816807022736
#define R4W1 0.11169079483900573285
#define R4A2 0.09157621350977074346
#define R4B2 0.81684757298045851308
#define R4W2 0.054975871827660933819
static const PetscReal TriX4[6][2] = {S21(R4A1, R4B1), S21(R4A2, R4B2)};
static const PetscReal TriW4[6]    = {W3(R4W1), W3(R4W2)};

#define R5A1 0.1012865073234563388
#define R5B1 0.7974269853530873224
#define R5W1 0.062969590272413576298
#define R5A2 0.47014206410511508977
#define R5B2 0.059715871789769820459
#define R5W2 0.066197076394253090369
// clang-format off
static const PetscReal TriX5[7][2] = {
  {1.0 / 3.0, 1.0 / 3.0},
  S21(R5A1, R5B1),
  S21(R5A2, R5B2)
};
// clang-format on
static const PetscReal TriW5[7] = {9.0 / 80.0, W3(R5W1), W3(R5W2)};

PetscErrorCode FcTetQuadrature(PetscInt degree, FcQuadrature *q)
{
  PetscFunctionBegin;
  PetscCheck(degree <= 5, PETSC_COMM_SELF, PETSC_ERR_SUP, "No tetrahedron quadrature rule of degree %" PetscInt_FMT " (at most 5)", degree);
  if (degree <= 1) {
    q->n  = 1;
    q->xi = &TetX1[0][0];
    q->w  = TetW1;
  } else if (degree == 2) {
    q->n  = 4;
    q->xi = &TetX2[0][0];
    q->w  = TetW2;
  } else if (degree == 3) {
    q->n  = 8;
    q->xi = &TetX3[0][0];
    q->w  = TetW3;
  } else {
    q->n  = 14;
    q->xi = &TetX5[0][0];
    q->w  = TetW5;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcTriQuadrature(PetscInt degree, FcQuadrature *q)
{
  PetscFunctionBegin;
  PetscCheck(degree <= 5, PETSC_COMM_SELF, PETSC_ERR_SUP, "No triangle quadrature rule of degree %" PetscInt_FMT " (at most 5)", degree);
  if (degree <= 1) {
    q->n  = 1;
    q->xi = &TriX1[0][0];
    q->w  = TriW1;
  } else if (degree == 2) {
    q->n  = 3;
    q->xi = &TriX2[0][0];
    q->w  = TriW2;
  } else if (degree <= 4) {
    q->n  = 6;
    q->xi = &TriX4[0][0];
    q->w  = TriW4;
  } else {
    q->n  = 7;
    q->xi = &TriX5[0][0];
    q->w  = TriW5;
  }
  PetscFunctionReturn(0);
}

PetscInt FcTetQuadratureDegree(PetscInt degree)
{
  if (degree <= 1) return 1;
  if (degree <= 3) return degree;
  if (degree <= 5) return 5;
  return -1;
}

PetscInt FcTriQuadratureDegree(PetscInt degree)
{
  if (degree <= 2) return PetscMax(degree, 1);
  if (degree <= 4) return 4;
  if (degree == 5) return 5;
  return -1;
}
