/* Unit test of src/fem: quadrature exactness, shape functions, the linear patch test on
 * perturbed (and curved) tet4/tet10 cubes solved with a direct KSP, element stiffness symmetry
 * and rigid-body null space, finite-difference consistency of energy / force / stiffness,
 * corotational invariance under a rigid rotation, mass, body force and surface loads, the
 * exact preallocation of the assembled matrix, the material registry and the inverted-element
 * error. Meshes are built by hand (a structured cube split into 6 Kuhn tetrahedra per cell),
 * independent of src/mesh. Each test prints its key figures on one line each.
 * Run under valgrind --leak-check=full and with -malloc_debug -malloc_dump. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, dup in testutil.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/fem/fem.h"
#include "../../src/core/mat3.h"
#include "testutil.h"

/* ------------------------------------------------------------------------------------------ */
/* helpers                                                                                    */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* Uniform in [-1, 1): xorshift64* (testutil.h), so the test does not depend on the C library's
 * rand(); FcTestXorshiftCtx with &rng_state draws from the same sequence. */
static PetscReal Rand(void) { return FcTestXorshift(&rng_state); }

static PetscReal Fact(int n)
{
  PetscReal f = 1;
  for (int i = 2; i <= n; i++) f *= i;
  return f;
}

static PetscBool OnBoundary(const PetscReal x[3], PetscReal L)
{
  for (int d = 0; d < 3; d++)
    if (PetscAbsReal(x[d]) < 1e-12 * L || PetscAbsReal(x[d] - L) < 1e-12 * L) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* ------------------------------------------------------------------------------------------ */
/* quadrature and shape functions                                                             */

static PetscErrorCode TestQuadrature(void)
{
  PetscFunctionBegin;
  for (PetscInt deg = 1; deg <= 5; deg++) {
    FcQuadrature   q;
    const PetscInt D    = FcTetQuadratureDegree(deg);
    PetscReal      emax = 0, enext = 0, wsum = 0, wmin = PETSC_MAX_REAL, lmin = PETSC_MAX_REAL;
    PetscCall(FcTetQuadrature(deg, &q));
    assert_true(D >= deg && q.n <= FC_MAX_QP);
    for (PetscInt g = 0; g < q.n; g++) {
      const PetscReal *x = q.xi + 3 * g;
      wsum += q.w[g];
      wmin = PetscMin(wmin, q.w[g]);
      lmin = PetscMin(lmin, PetscMin(1 - x[0] - x[1] - x[2], PetscMin(x[0], PetscMin(x[1], x[2]))));
    }
    for (int a = 0; a <= D + 1; a++)
      for (int b = 0; a + b <= D + 1; b++)
        for (int c = 0; a + b + c <= D + 1; c++) {
          const PetscReal exact = Fact(a) * Fact(b) * Fact(c) / Fact(a + b + c + 3);
          PetscReal       Q     = 0, err;
          for (PetscInt g = 0; g < q.n; g++)
            Q += q.w[g] * PetscPowRealInt(q.xi[3 * g], a) * PetscPowRealInt(q.xi[3 * g + 1], b) * PetscPowRealInt(q.xi[3 * g + 2], c);
          err = PetscAbsReal(Q - exact) / exact;
          if (a + b + c <= D) emax = PetscMax(emax, err);
          else enext = PetscMax(enext, err);
        }
    printf("tet quadrature degree %d (%2d points): max relative error %.1e up to degree %d, %.1e at degree %d; min weight %.3e, min barycentric %.3f\n",
      (int)deg, (int)q.n, (double)emax, (int)D, (double)enext, (int)D + 1, (double)wmin, (double)lmin);
    assert_true(emax <= 1e-14);
    assert_true(enext > 1e-6); /* the stated degree is the real one */
    assert_true(PetscAbsReal(wsum - 1.0 / 6.0) <= 1e-15);
    assert_true(wmin > 0 && lmin > 0);
  }
  for (PetscInt deg = 1; deg <= 5; deg++) {
    FcQuadrature   q;
    const PetscInt D    = FcTriQuadratureDegree(deg);
    PetscReal      emax = 0, enext = 0, wmin = PETSC_MAX_REAL, lmin = PETSC_MAX_REAL;
    PetscCall(FcTriQuadrature(deg, &q));
    assert_true(D >= deg);
    for (PetscInt g = 0; g < q.n; g++) {
      const PetscReal *x = q.xi + 2 * g;
      wmin               = PetscMin(wmin, q.w[g]);
      lmin               = PetscMin(lmin, PetscMin(1 - x[0] - x[1], PetscMin(x[0], x[1])));
    }
    for (int a = 0; a <= D + 1; a++)
      for (int b = 0; a + b <= D + 1; b++) {
        const PetscReal exact = Fact(a) * Fact(b) / Fact(a + b + 2);
        PetscReal       Q     = 0, err;
        for (PetscInt g = 0; g < q.n; g++) Q += q.w[g] * PetscPowRealInt(q.xi[2 * g], a) * PetscPowRealInt(q.xi[2 * g + 1], b);
        err = PetscAbsReal(Q - exact) / exact;
        if (a + b <= D) emax = PetscMax(emax, err);
        else enext = PetscMax(enext, err);
      }
    printf("tri quadrature degree %d (%d points): max relative error %.1e up to degree %d, %.1e at degree %d; min weight %.3e\n", (int)deg, (int)q.n,
      (double)emax, (int)D, (double)enext, (int)D + 1, (double)wmin);
    assert_true(emax <= 1e-14);
    assert_true(enext > 1e-6);
    assert_true(wmin > 0 && lmin > 0);
  }
  {
    FcQuadrature q;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    assert_int_not_equal(FcTetQuadrature(6, &q), 0);
    PetscCall(PetscPopErrorHandler());
  }
  PetscFunctionReturn(0);
}

static void test_quadrature(void **state)
{
  (void)state;
  assert_int_equal(TestQuadrature(), 0);
}

static PetscErrorCode TestShape(void)
{
  PetscFunctionBegin;
  for (PetscInt order = 1; order <= 2; order++) {
    const PetscInt npe = order == 1 ? 4 : 10, npf = order == 1 ? 3 : 6;
    PetscReal      nodes[30], N[10], dN[30], Np[10], Nm[10], epu = 0, ekr = 0, eds = 0, efd = 0;
    /* tetrahedron */
    FcTetNodes(order, nodes);
    for (PetscInt b = 0; b < npe; b++) {
      FcTetShape(order, nodes + 3 * b, N, NULL);
      for (PetscInt a = 0; a < npe; a++) ekr = PetscMax(ekr, PetscAbsReal(N[a] - (a == b)));
    }
    for (int s = 0; s < 20; s++) {
      PetscReal xi[3] = {0.5 * (1 + Rand()) / 3, 0.5 * (1 + Rand()) / 3, 0.5 * (1 + Rand()) / 3}, sum = 0, ds[3] = {0, 0, 0};
      FcTetShape(order, xi, N, dN);
      for (PetscInt a = 0; a < npe; a++) {
        sum += N[a];
        for (int j = 0; j < 3; j++) ds[j] += dN[3 * a + j];
      }
      epu = PetscMax(epu, PetscAbsReal(sum - 1));
      eds = PetscMax(eds, FcTestMaxAbs(3, ds));
      for (int j = 0; j < 3; j++) { /* central differences are exact for quadratics */
        PetscReal xp[3] = {xi[0], xi[1], xi[2]}, xm[3] = {xi[0], xi[1], xi[2]};
        xp[j] += 1e-3;
        xm[j] -= 1e-3;
        FcTetShape(order, xp, Np, NULL);
        FcTetShape(order, xm, Nm, NULL);
        for (PetscInt a = 0; a < npe; a++) efd = PetscMax(efd, PetscAbsReal((Np[a] - Nm[a]) / 2e-3 - dN[3 * a + j]));
      }
    }
    printf("shape %s: Kronecker %.1e, partition of unity %.1e, sum of derivatives %.1e, derivative vs finite difference %.1e\n", order == 1 ? "tet4" : "tet10",
      (double)ekr, (double)epu, (double)eds, (double)efd);
    assert_true(ekr <= 1e-15 && epu <= 1e-14 && eds <= 1e-14 && efd <= 1e-10);
    /* triangle */
    epu = ekr = eds = efd = 0;
    FcTriNodes(order, nodes);
    for (PetscInt b = 0; b < npf; b++) {
      FcTriShape(order, nodes + 2 * b, N, NULL);
      for (PetscInt a = 0; a < npf; a++) ekr = PetscMax(ekr, PetscAbsReal(N[a] - (a == b)));
    }
    for (int s = 0; s < 20; s++) {
      PetscReal xi[2] = {0.5 * (1 + Rand()) / 2, 0.5 * (1 + Rand()) / 2}, sum = 0, ds[2] = {0, 0};
      FcTriShape(order, xi, N, dN);
      for (PetscInt a = 0; a < npf; a++) {
        sum += N[a];
        for (int j = 0; j < 2; j++) ds[j] += dN[2 * a + j];
      }
      epu = PetscMax(epu, PetscAbsReal(sum - 1));
      eds = PetscMax(eds, FcTestMaxAbs(2, ds));
      for (int j = 0; j < 2; j++) {
        PetscReal xp[2] = {xi[0], xi[1]}, xm[2] = {xi[0], xi[1]};
        xp[j] += 1e-3;
        xm[j] -= 1e-3;
        FcTriShape(order, xp, Np, NULL);
        FcTriShape(order, xm, Nm, NULL);
        for (PetscInt a = 0; a < npf; a++) efd = PetscMax(efd, PetscAbsReal((Np[a] - Nm[a]) / 2e-3 - dN[2 * a + j]));
      }
    }
    printf("shape %s: Kronecker %.1e, partition of unity %.1e, sum of derivatives %.1e, derivative vs finite difference %.1e\n", order == 1 ? "tri3" : "tri6",
      (double)ekr, (double)epu, (double)eds, (double)efd);
    assert_true(ekr <= 1e-15 && epu <= 1e-14 && eds <= 1e-14 && efd <= 1e-10);
  }
  PetscFunctionReturn(0);
}

static void test_shape(void **state)
{
  (void)state;
  assert_int_equal(TestShape(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* patch test and assembled matrix                                                            */

/* Nonzeros of the node graph counted by brute force (dense node × node table). */
static PetscErrorCode PredictedNnz(const FcMesh *mesh, PetscInt *nnz)
{
  PetscBool *adj;
  PetscInt   N = mesh->nnodes, c = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(N * N, &adj));
  for (PetscInt e = 0; e < mesh->nelems; e++)
    for (PetscInt a = 0; a < mesh->npe; a++)
      for (PetscInt b = 0; b < mesh->npe; b++) adj[mesh->conn[e * mesh->npe + a] * N + mesh->conn[e * mesh->npe + b]] = PETSC_TRUE;
  for (PetscInt i = 0; i < N * N; i++) c += adj[i];
  *nnz = 9 * c;
  PetscCall(PetscFree(adj));
  PetscFunctionReturn(0);
}

static PetscErrorCode PatchTest(PetscInt order, PetscBool curved)
{
  const PetscReal    L = 2.0, E = 2.1e11, nu = 0.3;
  const PetscInt     n = order == 1 ? 4 : 3;
  FcMesh             mesh;
  FcMaterial         mat;
  Mat                K, Kii;
  Vec                u, ub, r, bi, xi, fint, Ku;
  IS                 isI;
  KSP                ksp;
  PC                 pc;
  MatInfo            info;
  PetscInt           nI = 0, *idxI, nnz_pred = -1, N;
  PetscReal          eps[9], c[3], umax = 0, err = 0, serr = 0, cerr = 0, vmerr = 0, smax, res, fmax, kuerr, energy, uKu, *vm;
  PetscScalar       *ua;
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(FcTestCubeMesh(n, order, L, 0.15, curved ? 0.06 : 0.0, FcTestXorshiftCtx, &rng_state, &mesh)); /* perturbed with this file's sequence */
  N = mesh.nnodes;
  PetscCall(FcTestCreateMaterial("linear", E, nu, 7800, &mat));
  for (int i = 0; i < 9; i++) eps[i] = 1e-3 * Rand(); /* a general, non-symmetric gradient */
  for (int i = 0; i < 3; i++) c[i] = 1e-3 * L * Rand();

  /* exact preallocation of the node graph */
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_WORLD, &mesh, &K));
  PetscCall(MatCreateVecs(K, &u, &r));
  PetscCall(VecZeroEntries(u));
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K));
  PetscCall(PredictedNnz(&mesh, &nnz_pred));
  PetscCall(MatGetInfo(K, MAT_LOCAL, &info));
  printf("assembled K %s: %d nodes, nnz %.0f (predicted %d), allocated %.0f, mallocs %.0f\n", FcTestElemName(order, curved), (int)N, info.nz_used,
    (int)nnz_pred, info.nz_allocated, info.mallocs);
  assert_true((PetscInt)info.nz_used == nnz_pred && (PetscInt)info.nz_allocated == nnz_pred && info.mallocs == 0);

  /* boundary values u = ε X + c, interior unknown */
  PetscCall(VecDuplicate(u, &ub));
  PetscCall(PetscMalloc1(3 * N, &idxI));
  PetscCall(VecGetArray(ub, &ua));
  for (PetscInt a = 0; a < N; a++) {
    const PetscReal *x = mesh.X + 3 * a;
    PetscBool        b = OnBoundary(x, L);
    for (int i = 0; i < 3; i++) {
      const PetscReal ue = eps[3 * i] * x[0] + eps[3 * i + 1] * x[1] + eps[3 * i + 2] * x[2] + c[i];
      umax               = PetscMax(umax, PetscAbsReal(ue));
      ua[3 * a + i]      = b ? ue : 0.0;
      if (!b) idxI[nI++] = 3 * a + i;
    }
  }
  PetscCall(VecRestoreArray(ub, &ua));
  PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, nI, idxI, PETSC_COPY_VALUES, &isI));
  PetscCall(MatMult(K, ub, r)); /* r_I = K_IB u_B */
  PetscCall(VecScale(r, -1.0));
  PetscCall(VecGetSubVector(r, isI, &bi));
  PetscCall(MatCreateSubMatrix(K, isI, isI, MAT_INITIAL_MATRIX, &Kii));
  PetscCall(VecDuplicate(bi, &xi));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, Kii, Kii));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERPETSC));
  PetscCall(KSPSolve(ksp, bi, xi));
  PetscCall(VecGetArrayRead(xi, &xa));
  for (PetscInt k = 0; k < nI; k++) {
    const PetscInt   a = idxI[k] / 3, i = idxI[k] % 3;
    const PetscReal *x  = mesh.X + 3 * a;
    const PetscReal  ue = eps[3 * i] * x[0] + eps[3 * i + 1] * x[1] + eps[3 * i + 2] * x[2] + c[i];
    err                 = PetscMax(err, PetscAbsReal(PetscRealPart(xa[k]) - ue));
  }
  PetscCall(VecRestoreArrayRead(xi, &xa));
  err /= umax;
  printf("patch test %s: %d interior DoFs, max relative error %.1e\n", FcTestElemName(order, curved), (int)nI, (double)err);
  assert_true(err <= 1e-10);

  /* the full solution; its element stresses must equal C : sym(ε) */
  PetscCall(VecCopy(ub, u));
  PetscCall(VecISCopy(u, isI, SCATTER_FORWARD, xi));
  {
    PetscReal sig[9], Fx[9], FxT[9], tmp[9], cau[9], symeps[9], J;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) symeps[3 * i + j] = 0.5 * (eps[3 * i + j] + eps[3 * j + i]);
    FcHookeStress(mat->lambda, mat->mu, symeps, sig);
    smax = FcTestMaxAbs(9, sig);
    for (int i = 0; i < 9; i++) Fx[i] = eps[i] + (i % 4 == 0);
    FcMat3Transpose(Fx, FxT);
    FcMat3Mult(sig, FxT, tmp);
    J = FcMat3Det(Fx);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) cau[3 * i + j] = 0.5 * (tmp[3 * i + j] + tmp[3 * j + i]) / J;
    PetscCall(PetscMalloc1(mesh.nelems, &vm));
    PetscCall(FcComputeVonMises(&mesh, mat, u, vm));
    PetscCall(VecGetArrayRead(u, &xa));
    for (PetscInt e = 0; e < mesh.nelems; e++) {
      PetscReal Xe[30], ue[30], F[9], R[9], P[9], s[9];
      for (PetscInt a = 0; a < mesh.npe; a++)
        for (int i = 0; i < 3; i++) {
          Xe[3 * a + i] = mesh.X[3 * mesh.conn[e * mesh.npe + a] + i];
          ue[3 * a + i] = PetscRealPart(xa[3 * mesh.conn[e * mesh.npe + a] + i]);
        }
      PetscCall(FcElementGradient(order, Xe, ue, NULL, F));
      FcMat3Identity(R);
      PetscCall((*mat->ops.stress)(mat, F, R, P));
      PetscCall(FcElementCauchy(mat, order, Xe, ue, s));
      for (int i = 0; i < 9; i++) {
        serr = PetscMax(serr, PetscAbsReal(P[i] - sig[i]) / smax);
        cerr = PetscMax(cerr, PetscAbsReal(s[i] - cau[i]) / smax);
      }
      vmerr = PetscMax(vmerr, PetscAbsReal(vm[e] - FcMat3VonMises(cau)) / smax);
    }
    PetscCall(VecRestoreArrayRead(u, &xa));
    PetscCall(PetscFree(vm));
  }
  printf("patch test %s: element stress vs C:sym(eps) max relative error %.1e, Cauchy sym(P F^T)/J %.1e, von Mises %.1e\n", FcTestElemName(order, curved),
    (double)serr, (double)cerr, (double)vmerr);
  assert_true(serr <= 1e-10 && cerr <= 1e-10 && vmerr <= 1e-10);

  /* f_int(u) vanishes at interior nodes; for `linear` f_int = K u and energy = ½ uᵀ K u */
  PetscCall(VecDuplicate(u, &fint));
  PetscCall(VecDuplicate(u, &Ku));
  PetscCall(FcAssembleInternal(&mesh, mat, u, &energy, fint, NULL));
  PetscCall(MatMult(K, u, Ku));
  PetscCall(VecDot(u, Ku, &uKu));
  PetscCall(VecNorm(fint, NORM_INFINITY, &fmax));
  PetscCall(VecAXPY(Ku, -1.0, fint));
  PetscCall(VecNorm(Ku, NORM_INFINITY, &kuerr));
  {
    Vec fi;
    PetscCall(VecGetSubVector(fint, isI, &fi));
    PetscCall(VecNorm(fi, NORM_INFINITY, &res));
    PetscCall(VecRestoreSubVector(fint, isI, &fi));
  }
  printf("patch test %s: interior residual |f_int|/max|f_int| %.1e, |K u - f_int| %.1e, energy vs u.Ku/2 %.1e\n", FcTestElemName(order, curved),
    (double)(res / fmax), (double)(kuerr / fmax), (double)PetscAbsReal(energy - 0.5 * uKu) / energy);
  assert_true(res <= 1e-10 * fmax && kuerr <= 1e-12 * fmax && PetscAbsReal(energy - 0.5 * uKu) <= 1e-12 * energy);

  PetscCall(VecRestoreSubVector(r, isI, &bi));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&xi));
  PetscCall(MatDestroy(&Kii));
  PetscCall(ISDestroy(&isI));
  PetscCall(PetscFree(idxI));
  PetscCall(VecDestroy(&fint));
  PetscCall(VecDestroy(&Ku));
  PetscCall(VecDestroy(&ub));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&r));
  PetscCall(MatDestroy(&K));
  PetscCall(FcMaterialDestroy(&mat));
  PetscCall(FcTestCubeMeshFree(&mesh));
  PetscFunctionReturn(0);
}

static void test_patch(void **state)
{
  (void)state;
  assert_int_equal(PatchTest(1, PETSC_FALSE), 0);
  assert_int_equal(PatchTest(2, PETSC_FALSE), 0);
  assert_int_equal(PatchTest(2, PETSC_TRUE), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* element stiffness: symmetry, rigid modes, finite differences                               */

static PetscErrorCode TestStiffnessRigid(void)
{
  const char *models[2] = {"linear", "corotational"};

  PetscFunctionBegin;
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 3; k++) {
      const PetscInt  order = k == 0 ? 1 : 2, npe = order == 1 ? 4 : 10, nd = 3 * npe;
      const PetscBool curved = (PetscBool)(k == 2);
      FcMaterial      mat;
      PetscReal       Xe[30], Ke[900], knorm = 0, asym = 0, kmax, rmax = 0;
      PetscCall(FcTestCreateMaterial(models[m], 1e7, 0.35, 1000, &mat));
      FcTestOneElement(order, curved, 0.3, Xe, FcTestXorshiftCtx, &rng_state);
      PetscCall(FcElementInternal(mat, order, Xe, NULL, NULL, NULL, Ke));
      kmax = FcTestMaxAbs(nd * nd, Ke);
      for (PetscInt i = 0; i < nd * nd; i++) knorm += Ke[i] * Ke[i];
      knorm = PetscSqrtReal(knorm);
      for (PetscInt i = 0; i < nd; i++)
        for (PetscInt j = 0; j < nd; j++) asym = PetscMax(asym, PetscAbsReal(Ke[i * nd + j] - Ke[j * nd + i]) / kmax);
      for (int mode = 0; mode < 6; mode++) {
        PetscReal rv[30], Kr[30], rn = 0, kn = 0;
        for (PetscInt a = 0; a < npe; a++) {
          const PetscReal *x = Xe + 3 * a;
          if (mode < 3) {
            for (int i = 0; i < 3; i++) rv[3 * a + i] = (i == mode);
          } else { /* infinitesimal rotation about axis mode − 3: ω × X */
            const PetscReal w[3] = {mode == 3, mode == 4, mode == 5};
            rv[3 * a]            = w[1] * x[2] - w[2] * x[1];
            rv[3 * a + 1]        = w[2] * x[0] - w[0] * x[2];
            rv[3 * a + 2]        = w[0] * x[1] - w[1] * x[0];
          }
        }
        for (PetscInt i = 0; i < nd; i++) {
          Kr[i] = 0;
          for (PetscInt j = 0; j < nd; j++) Kr[i] += Ke[i * nd + j] * rv[j];
          kn += Kr[i] * Kr[i];
          rn += rv[i] * rv[i];
        }
        rmax = PetscMax(rmax, PetscSqrtReal(kn) / (knorm * PetscSqrtReal(rn)));
      }
      printf("Ke %s %s (quadrature degree %d): asymmetry %.1e (relative), rigid modes |Ke r|/(|Ke||r|) %.1e\n", models[m], FcTestElemName(order, curved),
        (int)FcElementStiffnessDegree(order, Xe), (double)asym, (double)rmax);
      assert_true(asym <= 1e-12 && rmax <= 1e-10);
      assert_int_equal(FcElementStiffnessDegree(order, Xe), order == 1 ? 1 : (curved ? 3 : 2));
      PetscCall(FcMaterialDestroy(&mat));
    }
  PetscFunctionReturn(0);
}

static void test_stiffness_rigid(void **state)
{
  (void)state;
  assert_int_equal(TestStiffnessRigid(), 0);
}

/* Central differences with the element frame R frozen at its value for u (corotational), for
 * which fe = ∂We/∂ue and Ke = ∂fe/∂ue are exact; also, informational, the same differences
 * with R recomputed, which show what the corotational tangent omits. */
static PetscErrorCode TestFiniteDifferences(void)
{
  const char     *models[2] = {"linear", "corotational"};
  const PetscReal L         = 0.3;

  PetscFunctionBegin;
  for (int m = 0; m < 2; m++)
    for (int k = 0; k < 3; k++) {
      const PetscInt  order = k == 0 ? 1 : 2, npe = order == 1 ? 4 : 10, nd = 3 * npe;
      const PetscBool curved = (PetscBool)(k == 2);
      const PetscReal h      = 1e-6 * L;
      FcMaterial      mat;
      PetscReal       Xe[30], ue[30], up[30], um[30], R[9], W, fe[30], Ke[900], Wp, Wm, fp[30], fm[30], fmax, kmax, efW = 0, eKf = 0, efWfree = 0, eKffree = 0;
      PetscCall(FcTestCreateMaterial(models[m], 1e7, 0.3, 1000, &mat));
      FcTestOneElement(order, curved, L, Xe, FcTestXorshiftCtx, &rng_state);
      /* moderate deformation: a 40° rotation, 10 % stretch and random node displacements */
      {
        PetscReal       Q[9];
        const PetscReal axis[3] = {0.3, -0.5, 0.8};
        FcTestRotation(axis, 40.0 * PETSC_PI / 180.0, FC_TEST_ROT_KKT, Q);
        for (PetscInt a = 0; a < npe; a++) {
          const PetscReal *x = Xe + 3 * a;
          for (int i = 0; i < 3; i++) ue[3 * a + i] = (Q[3 * i] * x[0] * 1.1 + Q[3 * i + 1] * x[1] + Q[3 * i + 2] * x[2]) - x[i] + 0.05 * L * Rand();
        }
      }
      PetscCall(FcElementFrame(mat, order, Xe, ue, R));
      PetscCall(FcElementInternalFrame(mat, order, Xe, ue, R, &W, fe, Ke));
      fmax = FcTestMaxAbs(nd, fe);
      kmax = FcTestMaxAbs(nd * nd, Ke);
      for (PetscInt d = 0; d < nd; d++) {
        PetscCall(PetscArraycpy(up, ue, nd));
        PetscCall(PetscArraycpy(um, ue, nd));
        up[d] += h;
        um[d] -= h;
        PetscCall(FcElementInternalFrame(mat, order, Xe, up, R, &Wp, fp, NULL));
        PetscCall(FcElementInternalFrame(mat, order, Xe, um, R, &Wm, fm, NULL));
        efW = PetscMax(efW, PetscAbsReal((Wp - Wm) / (2 * h) - fe[d]) / fmax);
        for (PetscInt i = 0; i < nd; i++) eKf = PetscMax(eKf, PetscAbsReal((fp[i] - fm[i]) / (2 * h) - Ke[i * nd + d]) / kmax);
        PetscCall(FcElementInternal(mat, order, Xe, up, &Wp, fp, NULL));
        PetscCall(FcElementInternal(mat, order, Xe, um, &Wm, fm, NULL));
        efWfree = PetscMax(efWfree, PetscAbsReal((Wp - Wm) / (2 * h) - fe[d]) / fmax);
        for (PetscInt i = 0; i < nd; i++) eKffree = PetscMax(eKffree, PetscAbsReal((fp[i] - fm[i]) / (2 * h) - Ke[i * nd + d]) / kmax);
      }
      printf("finite differences %s %s (R fixed): fe vs dW/du %.1e, Ke vs dfe/du %.1e; with R varying: %.1e, %.1e\n", models[m], FcTestElemName(order, curved),
        (double)efW, (double)eKf, (double)efWfree, (double)eKffree);
      assert_true(efW <= 1e-6 && eKf <= 1e-6);
      if (m == 0 || order == 1) assert_true(efWfree <= 1e-6); /* tet4: ∂W/∂R = 0, see corotational.c */
      if (m == 1) assert_true(eKffree > 1e-4);                /* the omitted rotation terms are real */
      PetscCall(FcMaterialDestroy(&mat));
    }
  PetscFunctionReturn(0);
}

static void test_finite_differences(void **state)
{
  (void)state;
  assert_int_equal(TestFiniteDifferences(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* corotational                                                                               */

static PetscErrorCode TestCorotational(void)
{
  const PetscReal E = 1e7, L = 0.3, axis[3] = {1, 2, 3};
  FcMaterial      lin, cor;
  PetscReal       Q[9];

  PetscFunctionBegin;
  PetscCall(FcTestCreateMaterial("linear", E, 0.3, 1000, &lin));
  PetscCall(FcTestCreateMaterial("corotational", E, 0.3, 1000, &cor));
  FcTestRotation(axis, 0.5 * PETSC_PI, FC_TEST_ROT_KKT, Q);
  for (int k = 0; k < 3; k++) {
    const PetscInt  order = k == 0 ? 1 : 2, npe = order == 1 ? 4 : 10, nd = 3 * npe;
    const PetscBool curved = (PetscBool)(k == 2);
    PetscReal       Xe[30], ue[30], sc[9], sl[9], fc[30], fl[30], Kc[900], Kl[900], vol, scale, dfe = 0, dKe = 0, flmax, Klmax;
    FcTestOneElement(order, curved, L, Xe, FcTestXorshiftCtx, &rng_state);
    PetscCall(FcElementVolume(order, Xe, &vol));
    scale = E * PetscPowReal(vol, 2.0 / 3.0); /* a force of the order of E × element area */
    for (PetscInt a = 0; a < npe; a++) {
      const PetscReal *x = Xe + 3 * a;
      for (int i = 0; i < 3; i++) ue[3 * a + i] = Q[3 * i] * x[0] + Q[3 * i + 1] * x[1] + Q[3 * i + 2] * x[2] - x[i];
    }
    PetscCall(FcElementCauchy(cor, order, Xe, ue, sc));
    PetscCall(FcElementCauchy(lin, order, Xe, ue, sl));
    PetscCall(FcElementInternal(cor, order, Xe, ue, NULL, fc, NULL));
    PetscCall(FcElementInternal(lin, order, Xe, ue, NULL, fl, NULL));
    printf("rigid 90 deg rotation %s: corotational max|sigma|/E %.1e, max|fe|/(E V^(2/3)) %.1e; linear max|sigma|/E %.2f, max|fe|/(E V^(2/3)) %.2f\n",
      FcTestElemName(order, curved), (double)(FcTestMaxAbs(9, sc) / E), (double)(FcTestMaxAbs(nd, fc) / scale), (double)(FcTestMaxAbs(9, sl) / E),
      (double)(FcTestMaxAbs(nd, fl) / scale));
    assert_true(FcTestMaxAbs(9, sc) <= 1e-10 * E && FcTestMaxAbs(nd, fc) <= 1e-10 * scale);
    assert_true(FcTestMaxAbs(9, sl) > 0.1 * E);

    /* small strain: corotational ≈ linear (difference of the order of the strain, 1e-7) */
    for (PetscInt i = 0; i < nd; i++) ue[i] = 1e-7 * L * Rand();
    PetscCall(FcElementInternal(cor, order, Xe, ue, NULL, fc, Kc));
    PetscCall(FcElementInternal(lin, order, Xe, ue, NULL, fl, Kl));
    flmax = FcTestMaxAbs(nd, fl);
    Klmax = FcTestMaxAbs(nd * nd, Kl);
    for (PetscInt i = 0; i < nd; i++) dfe = PetscMax(dfe, PetscAbsReal(fc[i] - fl[i]) / flmax);
    for (PetscInt i = 0; i < nd * nd; i++) dKe = PetscMax(dKe, PetscAbsReal(Kc[i] - Kl[i]) / Klmax);
    printf("small strain (1e-7) %s: corotational vs linear fe %.1e, Ke %.1e (relative)\n", FcTestElemName(order, curved), (double)dfe, (double)dKe);
    assert_true(dfe <= 1e-5 && dKe <= 1e-5);
  }
  PetscCall(FcMaterialDestroy(&lin));
  PetscCall(FcMaterialDestroy(&cor));
  PetscFunctionReturn(0);
}

static void test_corotational(void **state)
{
  (void)state;
  assert_int_equal(TestCorotational(), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* mass, body force, surface loads                                                            */

static PetscErrorCode TestMassLoads(PetscInt order, PetscBool curved)
{
  const PetscReal    L = 2.0, rho = 7800, V = L * L * L, A = L * L, p = 3.5e5;
  const PetscReal    g[3] = {0.3, -1.2, -9.81}, t[3] = {1e5, -2e5, 3e5};
  FcMesh             mesh;
  Mat                M;
  Vec                ex, Mex, f;
  PetscReal          mx, mall, res[3], vol = 0, ebf = 0, etr = 0, epr = 0, epx = 0;
  PetscInt           nx = 0, *fx;
  PetscScalar       *a;
  const PetscScalar *fa;

  PetscFunctionBegin;
  PetscCall(FcTestCubeMesh(2, order, L, 0.15, curved ? 0.06 : 0.0, FcTestXorshiftCtx, &rng_state, &mesh)); /* perturbed with this file's sequence */
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_WORLD, &mesh, &M));
  PetscCall(FcAssembleMass(&mesh, rho, M));
  PetscCall(MatCreateVecs(M, &ex, &Mex));
  PetscCall(VecGetArray(ex, &a));
  for (PetscInt i = 0; i < 3 * mesh.nnodes; i++) a[i] = (i % 3 == 0);
  PetscCall(VecRestoreArray(ex, &a));
  PetscCall(MatMult(M, ex, Mex));
  PetscCall(VecDot(ex, Mex, &mx));
  PetscCall(VecSet(ex, 1.0));
  PetscCall(MatMult(M, ex, Mex));
  PetscCall(VecDot(ex, Mex, &mall));
  for (PetscInt e = 0; e < mesh.nelems; e++) {
    PetscReal Xe[30], ve;
    for (PetscInt k = 0; k < mesh.npe; k++)
      for (int i = 0; i < 3; i++) Xe[3 * k + i] = mesh.X[3 * mesh.conn[e * mesh.npe + k] + i];
    PetscCall(FcElementVolume(order, Xe, &ve));
    vol += ve;
  }
  printf("mass %s: sum over x-DoFs %.1e relative to rho V, over all DoFs vs 3 rho V %.1e, element volumes vs V %.1e\n", FcTestElemName(order, curved),
    (double)(PetscAbsReal(mx - rho * V) / (rho * V)), (double)(PetscAbsReal(mall - 3 * rho * V) / (3 * rho * V)), (double)(PetscAbsReal(vol - V) / V));
  assert_true(PetscAbsReal(mx - rho * V) <= 1e-12 * rho * V && PetscAbsReal(mall - 3 * rho * V) <= 1e-12 * 3 * rho * V && PetscAbsReal(vol - V) <= 1e-12 * V);

  /* body force resultant = ρ g V */
  PetscCall(VecDuplicate(ex, &f));
  PetscCall(VecZeroEntries(f));
  PetscCall(FcAssembleBodyForce(&mesh, rho, g, f));
  PetscCall(VecGetArrayRead(f, &fa));
  res[0] = res[1] = res[2] = 0;
  for (PetscInt i = 0; i < 3 * mesh.nnodes; i++) res[i % 3] += PetscRealPart(fa[i]);
  PetscCall(VecRestoreArrayRead(f, &fa));
  for (int i = 0; i < 3; i++) ebf = PetscMax(ebf, PetscAbsReal(res[i] - rho * g[i] * V) / (rho * 9.81 * V));

  /* traction on the face x = L: resultant t × area */
  PetscCall(PetscMalloc1(mesh.nbfaces, &fx));
  for (PetscInt k = 0; k < mesh.nbfaces; k++) {
    PetscBool on = PETSC_TRUE;
    for (int c = 0; c < 3; c++) on = (PetscBool)(on && PetscAbsReal(mesh.X[3 * mesh.bfaces[k * mesh.npf + c]] - L) < 1e-12);
    if (on) fx[nx++] = k;
  }
  PetscCall(VecZeroEntries(f));
  PetscCall(FcAssembleTraction(&mesh, nx, fx, t, f));
  PetscCall(VecGetArrayRead(f, &fa));
  res[0] = res[1] = res[2] = 0;
  for (PetscInt i = 0; i < 3 * mesh.nnodes; i++) res[i % 3] += PetscRealPart(fa[i]);
  PetscCall(VecRestoreArrayRead(f, &fa));
  for (int i = 0; i < 3; i++) etr = PetscMax(etr, PetscAbsReal(res[i] - t[i] * A) / (3e5 * A));

  /* pressure on the face x = L: resultant −p A e_x (outward normal +x) */
  PetscCall(VecZeroEntries(f));
  PetscCall(FcAssemblePressure(&mesh, nx, fx, p, f));
  PetscCall(VecGetArrayRead(f, &fa));
  res[0] = res[1] = res[2] = 0;
  for (PetscInt i = 0; i < 3 * mesh.nnodes; i++) res[i % 3] += PetscRealPart(fa[i]);
  PetscCall(VecRestoreArrayRead(f, &fa));
  epx = PetscMax(PetscAbsReal(res[0] + p * A), PetscMax(PetscAbsReal(res[1]), PetscAbsReal(res[2]))) / (p * A);

  /* pressure on the closed surface: zero resultant */
  for (PetscInt k = 0; k < mesh.nbfaces; k++) fx[k] = k;
  PetscCall(VecZeroEntries(f));
  PetscCall(FcAssemblePressure(&mesh, mesh.nbfaces, fx, p, f));
  PetscCall(VecGetArrayRead(f, &fa));
  res[0] = res[1] = res[2] = 0;
  for (PetscInt i = 0; i < 3 * mesh.nnodes; i++) res[i % 3] += PetscRealPart(fa[i]);
  PetscCall(VecRestoreArrayRead(f, &fa));
  epr = FcTestMaxAbs(3, res) / (p * 6 * A);
  printf(
    "loads %s: body force resultant vs rho g V %.1e, traction resultant vs t A %.1e (%d faces), pressure on x=L vs -p A e_x %.1e, pressure on the closed surface |resultant|/(p area) %.1e (%d faces)\n",
    FcTestElemName(order, curved), (double)ebf, (double)etr, (int)nx, (double)epx, (double)epr, (int)mesh.nbfaces);
  assert_true(ebf <= 1e-12 && etr <= 1e-12 && epx <= 1e-12 && epr <= 1e-12);
  assert_true(mesh.nbfaces == 12 * 2 * 2 && nx == 2 * 2 * 2);

  PetscCall(PetscFree(fx));
  PetscCall(VecDestroy(&f));
  PetscCall(VecDestroy(&ex));
  PetscCall(VecDestroy(&Mex));
  PetscCall(MatDestroy(&M));
  PetscCall(FcTestCubeMeshFree(&mesh));
  PetscFunctionReturn(0);
}

static void test_mass_loads(void **state)
{
  (void)state;
  assert_int_equal(TestMassLoads(1, PETSC_FALSE), 0);
  assert_int_equal(TestMassLoads(2, PETSC_FALSE), 0);
  assert_int_equal(TestMassLoads(2, PETSC_TRUE), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* material registry and errors                                                               */

static PetscErrorCode TestRegistry(void)
{
  char             types[256];
  FcMaterial       mat = NULL;
  FcMaterialParams p;
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  FcMaterialTypes(types, sizeof types);
  printf("material registry: %s\n", types);
  assert_string_equal(types, "linear, corotational, corotational_lagged, stvk, neohookean, mooney_rivlin");
  PetscCall(FcTestCreateMaterial("corotational", 200e9, 0.25, 7800, &mat));
  printf("material corotational E 2e11 nu 0.25: lambda %.6e (expected 8e10), mu %.6e (expected 8e10)\n", (double)mat->lambda, (double)mat->mu);
  assert_true(PetscAbsReal(mat->lambda - 8e10) <= 1e-15 * 8e10 * 4 && PetscAbsReal(mat->mu - 8e10) <= 1e-15 * 8e10 * 4);
  assert_string_equal(mat->type, "corotational");
  PetscCall(FcMaterialDestroy(&mat));
  assert_null(mat);
  PetscCall(FcMaterialDestroy(&mat)); /* NULL is fine */

  /* unknown model: an input error (its one line is printed by fcsim's handler) */
  PetscCall(FcMaterialParamsInit(&p, "neo-hookean"));
  PetscCall(FcMaterialParamsSetReal(&p, "E", 1e9));
  PetscCall(FcMaterialParamsSetReal(&p, "nu", 0.3));
  PetscCall(FcMaterialParamsSetReal(&p, "density", 1000));
  printf("material registry: unknown model and nu = 0.5 must be input errors (one line each on stderr)\n");
  fflush(stdout);
  ierr = FcMaterialCreate(&p, &mat);
  assert_int_equal(ierr, FC_ERR_INPUT);
  assert_null(mat);
  PetscCall(PetscStrncpy(p.model, "linear", sizeof p.model));
  PetscCall(FcMaterialParamsSetReal(&p, "nu", 0.5));
  ierr = FcMaterialCreate(&p, &mat);
  assert_int_equal(ierr, FC_ERR_INPUT);
  assert_null(mat);
  PetscFunctionReturn(0);
}

static void test_registry(void **state)
{
  (void)state;
  assert_int_equal(TestRegistry(), 0);
}

static PetscErrorCode TestInverted(void)
{
  FcMaterial     mat;
  PetscReal      Xe[30], Ke[900], Me[900], tmp;
  PetscErrorCode ierr1, ierr2, ierr3;

  PetscFunctionBegin;
  PetscCall(FcTestCreateMaterial("linear", 1e7, 0.3, 1000, &mat));
  for (PetscInt order = 1; order <= 2; order++) {
    FcTestOneElement(order, PETSC_FALSE, 1.0, Xe, FcTestXorshiftCtx, &rng_state);
    /* swap vertices 1 and 2 (and, for tet10, the mid-edge nodes to match): inverted */
    for (int d = 0; d < 3; d++) {
      tmp       = Xe[3 + d];
      Xe[3 + d] = Xe[6 + d];
      Xe[6 + d] = tmp;
      if (order == 2) { /* edges 01 ↔ 02 and 31 ↔ 32 swap roles */
        tmp           = Xe[3 * 4 + d];
        Xe[3 * 4 + d] = Xe[3 * 6 + d];
        Xe[3 * 6 + d] = tmp;
        tmp           = Xe[3 * 9 + d];
        Xe[3 * 9 + d] = Xe[3 * 8 + d];
        Xe[3 * 8 + d] = tmp;
      }
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr1 = FcElementInternal(mat, order, Xe, NULL, NULL, NULL, Ke);
    ierr2 = FcElementMass(order, Xe, 1000, Me);
    ierr3 = FcElementInternal(mat, 3, Xe, NULL, NULL, NULL, Ke);
    PetscCall(PetscPopErrorHandler());
    printf("inverted reference %s: FcElementInternal error %d, FcElementMass error %d (not the input error %d); order 3: error %d\n",
      order == 1 ? "tet4" : "tet10", (int)ierr1, (int)ierr2, (int)FC_ERR_INPUT, (int)ierr3);
    assert_true(ierr1 != 0 && ierr1 != FC_ERR_INPUT && ierr2 != 0 && ierr2 != FC_ERR_INPUT && ierr3 != 0);
  }
  PetscCall(FcMaterialDestroy(&mat));
  PetscFunctionReturn(0);
}

static void test_inverted(void **state)
{
  (void)state;
  assert_int_equal(TestInverted(), 0);
}

/* FcAssemblySetUpDirect: K and M assembled straight into the storage equal the MatSetValues
 * assembly bit for bit (the same pattern, the same sums in the same order), also assembled twice
 * in a row (the values are overwritten, not added to), with an inverted element (skipped, K holds the
 * others), on a hyperelastic material at a random displacement, tet4 and curved tet10. */
static PetscErrorCode MatRelDiff(Mat A, Mat B, PetscReal *d)
{
  Mat       C;
  PetscReal na, nc;

  PetscFunctionBegin;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &C));
  PetscCall(MatAXPY(C, -1.0, B, SAME_NONZERO_PATTERN)); /* an error if the patterns differed */
  PetscCall(MatNorm(A, NORM_MAX, &na));
  PetscCall(MatNorm(C, NORM_MAX, &nc));
  *d = nc / na;
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(0);
}

static PetscErrorCode TestAssemblyDirect(PetscInt order)
{
  FcMesh       mesh;
  FcMaterial   mat;
  Mat          K0, K1, M0, M1;
  Vec          u;
  MatInfo      i0, i1;
  PetscReal    dK, dK2, dKbad, dM;
  PetscScalar *ua;
  PetscInt     lo, hi;

  PetscFunctionBegin;
  PetscCall(FcTestCubeMesh(order == 1 ? 4 : 3, order, 1.0, 0.15, order == 2 ? 0.06 : 0.0, FcTestXorshiftCtx, &rng_state, &mesh));
  PetscCall(FcTestCreateMaterial("neohookean", 1e6, 0.45, 1000, &mat));
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_WORLD, &mesh, &K0));
  PetscCall(MatDuplicate(K0, MAT_DO_NOT_COPY_VALUES, &K1));
  PetscCall(MatDuplicate(K0, MAT_DO_NOT_COPY_VALUES, &M0));
  PetscCall(MatDuplicate(K0, MAT_DO_NOT_COPY_VALUES, &M1));
  PetscCall(FcAssemblySetUpDirect(&mesh, K1));
  PetscCall(FcAssemblySetUpDirect(&mesh, M1));
  PetscCall(MatCreateVecs(K0, &u, NULL));
  PetscCall(VecGetOwnershipRange(u, &lo, &hi));
  PetscCall(VecGetArray(u, &ua));
  for (PetscInt k = lo; k < hi; k++) ua[k - lo] = 0.02 * (Rand() - 0.5);
  PetscCall(VecRestoreArray(u, &ua));
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K0));
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K1));
  PetscCall(MatRelDiff(K0, K1, &dK));
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K1)); /* again: overwritten, not added */
  PetscCall(MatRelDiff(K0, K1, &dK2));
  PetscCall(FcAssembleMass(&mesh, 1000, M0));
  PetscCall(FcAssembleMass(&mesh, 1000, M1));
  PetscCall(MatRelDiff(M0, M1, &dM));
  PetscCall(MatGetInfo(K0, MAT_GLOBAL_SUM, &i0));
  PetscCall(MatGetInfo(K1, MAT_GLOBAL_SUM, &i1));
  /* node 0 pushed through its elements: some invert, both assemblies skip them */
  if (lo == 0) {
    PetscCall(VecGetArray(u, &ua));
    for (int i = 0; i < 3; i++) ua[i] = 2.0 * (0.5 - mesh.X[i]);
    PetscCall(VecRestoreArray(u, &ua));
  }
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K0));
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K1));
  PetscCall(MatRelDiff(K0, K1, &dKbad));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD,
    "direct assembly %s: %d nodes, nonzeros %.0f / %.0f; max |K_direct - K| / max|K| %.2e, assembled again %.2e, with inverted elements %.2e; M %.2e\n",
    FcTestElemName(order, order == 2), (int)mesh.nnodes, i0.nz_used, i1.nz_used, (double)dK, (double)dK2, (double)dKbad, (double)dM));
  assert_true(i0.nz_used == i1.nz_used && dK == 0 && dK2 == 0 && dKbad == 0 && dM == 0);
  PetscCall(VecDestroy(&u));
  PetscCall(MatDestroy(&K0));
  PetscCall(MatDestroy(&K1));
  PetscCall(MatDestroy(&M0));
  PetscCall(MatDestroy(&M1));
  PetscCall(FcMaterialDestroy(&mat));
  PetscCall(FcTestCubeMeshFree(&mesh));
  PetscFunctionReturn(0);
}

static void test_assembly_direct(void **state)
{
  (void)state;
  assert_int_equal(TestAssemblyDirect(1), 0);
  assert_int_equal(TestAssemblyDirect(2), 0);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_quadrature),    cmocka_unit_test(test_shape),        cmocka_unit_test(test_registry), cmocka_unit_test(test_patch), cmocka_unit_test(test_stiffness_rigid),
    cmocka_unit_test(test_finite_differences), cmocka_unit_test(test_corotational), cmocka_unit_test(test_mass_loads), cmocka_unit_test(test_inverted),
    cmocka_unit_test(test_assembly_direct),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, FcMaterialRegisterAll, FcMaterialFinalizePackage);
}
