/* Unit test of the nodal rotations of the compliance `lagged` (src/compliance/lagged.c,
 * courtecuisse eq. 13: P = R F Rᵀ): compliance.rotation "shape_matching" (Müller et al. 2005, the
 * paper's) and "polar" (the rotation of the polar decomposition of the volume-averaged
 * deformation gradient around each node). The file includes lagged.c to reach its static
 * functions (Clusters_Private, Rotations_Private, RotationsPolar_Private); the library's copy of
 * lagged.o is then not linked (nothing else the test calls is defined there).
 *
 * On a cube of 4^3 cells (6 Kuhn tetrahedra each, interior vertices moved by up to 0.15 h), tet4
 * and tet10, with X0 the reference nodes and one pinned node:
 *  1. a rigid motion x = Q X0 + c (70° about a skew axis): both methods give R_i = Q at every free
 *     node to 1e-13 (round-off of a polar decomposition), and I at the pinned node;
 *  2. a rotated homogeneous stretch x = Q U X0 (U = diag(1.3, 0.8, 1.1) in a skew frame): the
 *     rotation of the motion is Q; polar gives Q to 1e-13 (every element's gradient is Q U, so is
 *     their mean, whose polar rotation is Q); shape matching's cluster covariance is Q U S_i with
 *     S_i the cluster's own second moment, whose polar rotation is not Q when U and S_i do not
 *     commute: its error is printed (the reason doc/architecture.md gives for "polar"). */
#include "../../src/compliance/lagged.c"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"

static uint64_t seed = 20261128;

/* A LaggedBody with only what the rotations need, on mesh; node 0 pinned. */
static PetscErrorCode BodySetUp(const FcMesh *mesh, LaggedBody *lb)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(lb, sizeof *lb));
  lb->nnodes = mesh->nnodes;
  lb->mesh   = mesh;
  PetscCall(PetscMalloc3(3 * lb->nnodes, &lb->X0, 3 * lb->nnodes, &lb->x, 9 * lb->nnodes, &lb->R));
  PetscCall(PetscMalloc1(10 * lb->nnodes, &lb->Fsum));
  PetscCall(PetscCalloc1(lb->nnodes, &lb->pinned));
  lb->pinned[0] = PETSC_TRUE;
  PetscCall(Clusters_Private(lb, mesh));
  PetscCall(PetscArraycpy(lb->X0, mesh->X, 3 * lb->nnodes));
  PetscFunctionReturn(0);
}

static PetscErrorCode BodyFree(LaggedBody *lb)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(lb->X0, lb->x, lb->R));
  PetscCall(PetscFree(lb->Fsum));
  PetscCall(PetscFree(lb->pinned));
  PetscCall(PetscFree(lb->cptr));
  PetscCall(PetscFree(lb->cnode));
  PetscFunctionReturn(0);
}

/* max over free nodes of max |R_i − Q| (entries); *pin: max |R_0 − I| */
static PetscReal Worst(const LaggedBody *lb, const PetscReal Q[9], PetscReal *pin)
{
  PetscReal w = 0, Id[9];
  FcMat3Identity(Id);
  *pin = 0;
  for (PetscInt i = 0; i < lb->nnodes; i++)
    for (int k = 0; k < 9; k++) {
      if (lb->pinned[i]) *pin = PetscMax(*pin, PetscAbsReal(lb->R[9 * i + k] - Id[k]));
      else w = PetscMax(w, PetscAbsReal(lb->R[9 * i + k] - Q[k]));
    }
  return w;
}

/* x = M X0 + c */
static void Map(LaggedBody *lb, const PetscReal M[9], const PetscReal c[3])
{
  for (PetscInt i = 0; i < lb->nnodes; i++)
    for (int k = 0; k < 3; k++) lb->x[3 * i + k] = c[k] + M[3 * k] * lb->X0[3 * i] + M[3 * k + 1] * lb->X0[3 * i + 1] + M[3 * k + 2] * lb->X0[3 * i + 2];
}

static void run(PetscInt order)
{
  FcMesh          mesh;
  LaggedBody      lb;
  const PetscReal axis[3] = {1, -2, 0.5}, c[3] = {0.3, -1.1, 2.0}, axis2[3] = {0.2, 1, 0.7}, d[3] = {1.3, 0.8, 1.1};
  PetscReal       Q[9], V[9], U[9], QU[9], wsm, wpo, psm, ppo;

  memset(&mesh, 0, sizeof mesh);
  CHK(FcTestCubeMesh(4, order, 1.0, 0.15, 0.0, FcTestUniformCtx, &seed, &mesh));
  CHK(BodySetUp(&mesh, &lb));
  /* 1. rigid motion */
  FcTestRotation(axis, 70 * PETSC_PI / 180, FC_TEST_ROT_KKT, Q);
  Map(&lb, Q, c);
  CHK(Rotations_Private(&lb));
  wsm = Worst(&lb, Q, &psm);
  CHK(RotationsPolar_Private(&lb));
  wpo = Worst(&lb, Q, &ppo);
  printf(
    "FIGURE lagged rotation, tet%d cube (%d nodes), rigid motion by 70 deg: max |R_i - Q| shape matching %.1e, polar %.1e; pinned node |R - I| %.0e, %.0e\n",
    order == 1 ? 4 : 10, (int)lb.nnodes, (double)wsm, (double)wpo, (double)psm, (double)ppo);
  assert_true(wsm <= 1e-13 && wpo <= 1e-13);
  assert_true(psm == 0 && ppo == 0);
  /* 2. rotated homogeneous stretch: U = V diag(d) Vᵀ, x = Q U X0 */
  FcTestRotation(axis2, 0.6, FC_TEST_ROT_KKT, V);
  FcMat3RotateDiag(V, d, U);
  FcMat3Mult(Q, U, QU);
  Map(&lb, QU, c);
  CHK(Rotations_Private(&lb));
  wsm = Worst(&lb, Q, &psm);
  CHK(RotationsPolar_Private(&lb));
  wpo = Worst(&lb, Q, &ppo);
  printf(
    "FIGURE lagged rotation, tet%d cube, the same rotation of a homogeneous stretch (1.3, 0.8, 1.1 in a skew frame): max |R_i - Q| shape matching %.1e, polar %.1e\n",
    order == 1 ? 4 : 10, (double)wsm, (double)wpo);
  assert_true(wpo <= 1e-13);
  CHK(BodyFree(&lb));
  CHK(FcTestCubeMeshFree(&mesh));
}

static void test_tet4(void **state)
{
  (void)state;
  run(1);
}

static void test_tet10(void **state)
{
  (void)state;
  run(2);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tet4),
    cmocka_unit_test(test_tet10),
  };
  // clang-format on
  return FcTestMain(argc, argv, tests, NULL, NULL);
}
