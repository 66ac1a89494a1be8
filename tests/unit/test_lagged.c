/* Unit test of the material `corotational_lagged` (han2023 §V-B, src/fem/materials/
 * corotational_lagged.c) and of the lagged-frame assembly FcAssembleInternalLagged
 * (src/fem/assembly.c): the element frames come from the step-start displacements u0, the
 * force and stiffness are evaluated at u.
 *
 * Checks, on a structured cube of tet4 and tet10 elements (6 Kuhn tetrahedra per cell, interior
 * vertices perturbed) and random large deformations u0 (a finite rotation plus random nodal
 * perturbations):
 *  1. K is symmetric and positive semi-definite (han2023 Proposition 1): all eigenvalues of the
 *     dense K (LAPACK, through KSPComputeEigenvaluesExplicitly) >= -1e-12 ‖K‖ (round-off of an assembled matrix is ~1e-15 ‖K‖);
 *     translations are exact null vectors.
 *  2. A step-start configuration that is a rigid motion of the reference (u0 = (Q − I)X + c)
 *     gives no force at u = u0: ‖f‖ <= 1e-12 ‖f‖ of a non-rigid state (the polar rotation of an
 *     exact rotation is exact to round-off); `linear` at the same state gives a force of the
 *     order of the non-rigid one (the test would fail for a model without the frame). A further
 *     rotation by φ within the step gives a force of second order in φ (relative ~φ/2).
 *  3. The model is linear within a step: f(u_b) = f(u_a) + K (u_b − u_a) and
 *     W(u_b) = W(u_a) + f(u_a)·Δu + ½ Δuᵀ K Δu to 1e-12 relative, for arbitrary u_a, u_b.
 * Run under valgrind --leak-check=full. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, dup in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/model/model.h"
#include "../../src/core/mat3.h"
#include "testutil.h"

static uint64_t seed = 20230611;

/* E = 2 MPa, ν = 0.3, ρ = 1000 kg/m³ */
static PetscErrorCode CreateMaterial(const char *model, FcMaterial *mat)
{
  PetscFunctionBegin;
  PetscCall(FcTestCreateMaterial(model, 2e6, 0.3, 1000, mat));
  PetscFunctionReturn(0);
}

/* Cube [0,1]^3 of n^3 cells, 6 Kuhn tetrahedra each (FcTestCubeMesh, testutil.h), interior vertices
 * moved by up to 0.15 h; order 2: straight tet10. FcMeshDestroy frees it. */
static PetscErrorCode BuildCube(PetscInt n, PetscInt order, FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(FcTestCubeMesh(n, order, 1.0, 0.15, 0.0, FcTestUniformCtx, &seed, mesh));
  PetscFunctionReturn(0);
}

/* u = (Q − I) X + c + amp · random */
static PetscErrorCode SetMotion(const FcMesh *mesh, const PetscReal Q[9], const PetscReal c[3], PetscReal amp, Vec u)
{
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetArray(u, &a));
  for (PetscInt k = 0; k < mesh->nnodes; k++) {
    const PetscReal *X = mesh->X + 3 * k;
    for (int i = 0; i < 3; i++) a[3 * k + i] = Q[3 * i] * X[0] + Q[3 * i + 1] * X[1] + Q[3 * i + 2] * X[2] - X[i] + c[i] + amp * FcTestUniform(&seed, -1, 1);
  }
  PetscCall(VecRestoreArray(u, &a));
  PetscFunctionReturn(0);
}

/* Eigenvalues (ascending) of the assembled K and the largest asymmetry |K_ij − K_ji|. The
 * eigenvalues come from KSPComputeEigenvaluesExplicitly (the explicit operator, LAPACK geev
 * inside libpetsc: the test needs no LAPACK of its own); K is symmetric, so the imaginary parts
 * are round-off and *imag returns the largest. */
static PetscErrorCode DenseEigenvalues(Mat K, PetscReal *w, PetscReal *asym, PetscReal *imag)
{
  Mat                Kd;
  const PetscScalar *k;
  PetscInt           n;
  PetscReal         *wi;
  KSP                ksp;
  PC                 pc;

  PetscFunctionBegin;
  PetscCall(MatGetSize(K, &n, NULL));
  PetscCall(MatConvert(K, MATSEQDENSE, MAT_INITIAL_MATRIX, &Kd));
  PetscCall(MatDenseGetArrayRead(Kd, &k));
  *asym = 0;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) *asym = PetscMax(*asym, PetscAbsScalar(k[i * n + j] - k[j * n + i]));
  PetscCall(MatDenseRestoreArrayRead(Kd, &k));
  PetscCall(MatDestroy(&Kd));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, K, K));
  PetscCall(KSPSetType(ksp, KSPGMRES));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCNONE));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscMalloc1(n, &wi));
  PetscCall(KSPComputeEigenvaluesExplicitly(ksp, n, w, wi));
  *imag = 0;
  for (PetscInt i = 0; i < n; i++) *imag = PetscMax(*imag, PetscAbsReal(wi[i]));
  PetscCall(PetscSortReal(n, w));
  PetscCall(PetscFree(wi));
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestPSD(PetscInt order)
{
  FcMesh          mesh;
  FcMaterial      mat;
  Mat             K;
  Vec             u0, u;
  PetscReal      *w, asym, imag, worst = 0, knorm = 0;
  PetscInt        n;
  const PetscReal axis[3] = {0.48, 0.6, 0.64}, c[3] = {0.1, -0.2, 0.3};

  PetscFunctionBegin;
  PetscCall(BuildCube(2, order, &mesh));
  PetscCall(CreateMaterial("corotational_lagged", &mat));
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_SELF, &mesh, &K));
  PetscCall(MatCreateVecs(K, &u0, NULL));
  PetscCall(VecDuplicate(u0, &u));
  n = 3 * mesh.nnodes;
  PetscCall(PetscMalloc1(n, &w));
  for (int trial = 0; trial < 4; trial++) {
    PetscReal Q[9], rel, t0;
    /* finite rotations up to 2.4 rad, nodal perturbations of 0.2 h (elements stay proper) */
    FcTestRotation(axis, 0.8 * trial, FC_TEST_ROT_K2, Q);
    PetscCall(SetMotion(&mesh, Q, c, 0.1, u0));
    PetscCall(VecSet(u, 0.0)); /* K does not depend on u within a step */
    PetscCall(FcAssembleInternalLagged(&mesh, mat, u, u0, NULL, NULL, K));
    PetscCall(DenseEigenvalues(K, w, &asym, &imag));
    knorm = PetscMax(PetscAbsReal(w[0]), PetscAbsReal(w[n - 1]));
    rel   = w[0] / knorm;
    worst = PetscMin(worst, rel);
    /* translations: K 1_i = 0 */
    {
      Vec       t, Kt;
      PetscReal nt;
      PetscCall(VecDuplicate(u, &t));
      PetscCall(VecDuplicate(u, &Kt));
      PetscCall(VecSet(t, 0.0));
      PetscCall(VecStrideSet(t, trial % 3, 1.0));
      PetscCall(MatMult(K, t, Kt));
      PetscCall(VecNorm(Kt, NORM_2, &nt));
      t0 = nt / knorm;
      PetscCall(VecDestroy(&t));
      PetscCall(VecDestroy(&Kt));
    }
    printf("FIGURE lagged K tet%d rotation %.1f rad: eigenvalues [%.3e, %.3e], min/|K| = %.2e, "
           "asymmetry/|K| = %.1e, |K 1|/|K| = %.1e\n",
      order == 1 ? 4 : 10, 0.8 * trial, (double)w[0], (double)w[n - 1], (double)rel, (double)(asym / knorm), (double)t0);
    assert_true(asym <= 1e-14 * knorm);
    assert_true(imag <= 1e-12 * knorm);
    assert_true(rel >= -1e-12);
    assert_true(t0 <= 1e-12);
  }
  printf("FIGURE lagged K is PSD (tet%d): worst smallest eigenvalue / |K| = %.2e (bound -1e-12)\n", order == 1 ? 4 : 10, (double)worst);
  PetscCall(PetscFree(w));
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&u));
  PetscCall(MatDestroy(&K));
  PetscCall(FcMaterialDestroy(&mat));
  PetscCall(FcMeshDestroy(&mesh));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestRigid(PetscInt order)
{
  FcMesh          mesh;
  FcMaterial      mat, lin;
  Mat             K;
  Vec             u0, u, f;
  PetscReal       Q[9], Qs[9], QQ[9], fr, fnr, flin, fphi[2], phi = 1e-3;
  const PetscReal axis[3] = {0.0, 0.6, 0.8}, axis2[3] = {1, 0, 0}, c[3] = {0.3, 0.1, -0.2}, zero[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCall(BuildCube(2, order, &mesh));
  PetscCall(CreateMaterial("corotational_lagged", &mat));
  PetscCall(CreateMaterial("linear", &lin));
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_SELF, &mesh, &K));
  PetscCall(MatCreateVecs(K, &u0, NULL));
  PetscCall(VecDuplicate(u0, &u));
  PetscCall(VecDuplicate(u0, &f));
  FcTestRotation(axis, 1.1, FC_TEST_ROT_K2, Q);
  PetscCall(SetMotion(&mesh, Q, c, 0.0, u0)); /* the step starts from a rigid motion */
  /* reference force: a non-rigid state reached within the step, 1 % strain-sized perturbation */
  PetscCall(VecCopy(u0, u));
  {
    Vec p;
    PetscCall(VecDuplicate(u, &p));
    PetscCall(SetMotion(&mesh, (PetscReal[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, zero, 0.01, p));
    PetscCall(VecAXPY(u, 1.0, p));
    PetscCall(VecDestroy(&p));
  }
  PetscCall(FcAssembleInternalLagged(&mesh, mat, u, u0, NULL, f, NULL));
  PetscCall(VecNorm(f, NORM_2, &fnr));
  /* no motion within the step: zero force */
  PetscCall(FcAssembleInternalLagged(&mesh, mat, u0, u0, NULL, f, NULL));
  PetscCall(VecNorm(f, NORM_2, &fr));
  /* the linear model at the same rigidly rotated state */
  PetscCall(FcAssembleInternal(&mesh, lin, u0, NULL, f, NULL));
  PetscCall(VecNorm(f, NORM_2, &flin));
  /* a further rotation by phi within the step is not filtered: Ê = sym(Q') − I = O(phi²), so
   * doubling phi multiplies the force by 4 (to O(phi²) relative) */
  for (int k = 0; k < 2; k++) {
    FcTestRotation(axis2, (k + 1) * phi, FC_TEST_ROT_K2, Qs);
    FcMat3Mult(Qs, Q, QQ);
    PetscCall(SetMotion(&mesh, QQ, c, 0.0, u));
    PetscCall(FcAssembleInternalLagged(&mesh, mat, u, u0, NULL, f, NULL));
    PetscCall(VecNorm(f, NORM_2, &fphi[k]));
  }
  printf("FIGURE lagged tet%d, rigid step start (1.1 rad): |f| / |f_nonrigid| = %.2e (bound 1e-12); "
         "linear model: %.2e; rotation phi = %.0e rad within the step: |f| ratio 2phi/phi = %.6f (second order: 4)\n",
    order == 1 ? 4 : 10, (double)(fr / fnr), (double)(flin / fnr), (double)phi, (double)(fphi[1] / fphi[0]));
  assert_true(fr <= 1e-12 * fnr);
  assert_true(flin >= 1.0 * fnr);
  assert_true(PetscAbsReal(fphi[1] / fphi[0] - 4.0) <= 1e-3);
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&f));
  PetscCall(MatDestroy(&K));
  PetscCall(FcMaterialDestroy(&mat));
  PetscCall(FcMaterialDestroy(&lin));
  PetscCall(FcMeshDestroy(&mesh));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestLinear(PetscInt order)
{
  FcMesh          mesh;
  FcMaterial      mat;
  Mat             K;
  Vec             u0, ua, ub, fa, fb, du, Kdu;
  PetscReal       Q[9], Wa, Wb, fdu, duKdu, nfb, ferr, werr;
  const PetscReal axis[3] = {0.6, 0.0, 0.8}, c[3] = {0, 0, 0};

  PetscFunctionBegin;
  PetscCall(BuildCube(2, order, &mesh));
  PetscCall(CreateMaterial("corotational_lagged", &mat));
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_SELF, &mesh, &K));
  PetscCall(MatCreateVecs(K, &u0, NULL));
  PetscCall(VecDuplicate(u0, &ua));
  PetscCall(VecDuplicate(u0, &ub));
  PetscCall(VecDuplicate(u0, &fa));
  PetscCall(VecDuplicate(u0, &fb));
  PetscCall(VecDuplicate(u0, &du));
  PetscCall(VecDuplicate(u0, &Kdu));
  FcTestRotation(axis, 0.7, FC_TEST_ROT_K2, Q);
  PetscCall(SetMotion(&mesh, Q, c, 0.1, u0));
  FcTestRotation(axis, 1.0, FC_TEST_ROT_K2, Q);
  PetscCall(SetMotion(&mesh, Q, c, 0.1, ua)); /* far from u0: large motion within the step */
  FcTestRotation(axis, 0.2, FC_TEST_ROT_K2, Q);
  PetscCall(SetMotion(&mesh, Q, c, 0.1, ub));
  PetscCall(FcAssembleInternalLagged(&mesh, mat, ua, u0, &Wa, fa, K));
  PetscCall(FcAssembleInternalLagged(&mesh, mat, ub, u0, &Wb, fb, NULL));
  PetscCall(VecWAXPY(du, -1.0, ua, ub));
  PetscCall(MatMult(K, du, Kdu));
  PetscCall(VecDot(fa, du, &fdu));
  PetscCall(VecDot(du, Kdu, &duKdu));
  /* f(ub) − f(ua) − K (ub − ua) */
  PetscCall(VecNorm(fb, NORM_2, &nfb));
  PetscCall(VecAXPY(fb, -1.0, fa));
  PetscCall(VecAXPY(fb, -1.0, Kdu));
  PetscCall(VecNorm(fb, NORM_2, &ferr));
  ferr /= nfb;
  werr = PetscAbsReal(Wb - Wa - fdu - 0.5 * duKdu) / PetscMax(PetscAbsReal(Wa), PetscAbsReal(Wb));
  printf("FIGURE lagged tet%d linear within a step: |f(ub) - f(ua) - K du| / |f(ub)| = %.2e, "
         "energy quadratic to %.2e (bounds 1e-12)\n",
    order == 1 ? 4 : 10, (double)ferr, (double)werr);
  assert_true(ferr <= 1e-12);
  assert_true(werr <= 1e-12);
  PetscCall(VecDestroy(&u0));
  PetscCall(VecDestroy(&ua));
  PetscCall(VecDestroy(&ub));
  PetscCall(VecDestroy(&fa));
  PetscCall(VecDestroy(&fb));
  PetscCall(VecDestroy(&du));
  PetscCall(VecDestroy(&Kdu));
  PetscCall(MatDestroy(&K));
  PetscCall(FcMaterialDestroy(&mat));
  PetscCall(FcMeshDestroy(&mesh));
  PetscFunctionReturn(0);
}

static void test_psd(void **state)
{
  (void)state;
  assert_int_equal(TestPSD(1), 0);
  assert_int_equal(TestPSD(2), 0);
}

static void test_rigid(void **state)
{
  (void)state;
  assert_int_equal(TestRigid(1), 0);
  assert_int_equal(TestRigid(2), 0);
}

static void test_linear(void **state)
{
  (void)state;
  assert_int_equal(TestLinear(1), 0);
  assert_int_equal(TestLinear(2), 0);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_psd),
    cmocka_unit_test(test_rigid),
    cmocka_unit_test(test_linear),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, FcMaterialRegisterAll, FcMaterialFinalizePackage);
}
