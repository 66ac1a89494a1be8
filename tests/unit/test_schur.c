/* Unit test of src/model/schur.c (doc/schur.md): the Schur complement of a Newton matrix onto
 * the participating DoFs (han2023 §VI-A, VI-B, eq. 14–18), computed by MUMPS through PETSc.
 * The matrices are fcsim's own: meshes/cube.geo (refine 1, tet4) loaded by src/mesh, linear
 * elastic K and consistent M assembled by src/fem, Dirichlet rows/columns on the face z = 0
 * replaced by the mean diagonal (MatZeroRowsColumns, as src/model/body_deformable.c does).
 *  1. Â = A_pp − A_pn A_nn⁻¹ A_np against a dense Gaussian elimination of our own (n block
 *     eliminated first), for a random unsorted set of surface DoFs, with the Cholesky (LDLᵀ) and
 *     the LU factorization;
 *  2. FcSchurSolve / FcSchurMatSolve against a plain KSP(PREONLY) + MUMPS Cholesky solve of the
 *     full system (a step through participating DoFs equals the full-DoF step); eq. 15
 *     (FcSchurRecoverInterior) for the exact x_p and for an arbitrary x_p (residual of the n
 *     rows); FcSchurUpdate with new values (2A);
 *  3. W = J_p Â⁻¹ J_pᵀ (FcSchurDelassus) against J A⁻¹ Jᵀ from full solves, for a random contact
 *     Jacobian (barycentric weights × local frames on boundary triangles) with the participating
 *     set its support, and with a larger candidate set (every free surface DoF);
 *  4. edge cases: empty participating set, all DoFs participating, invalid index sets.
 * Tolerances: each compared pair comes from two backward-stable eliminations of the same matrix
 * (different orders), so they differ by O(κ ε) relative; the measured differences are ~1e-15
 * and the bounds (1e-10 for Â and W, 1e-8 for the solves as the acceptance criterion states,
 * 1e-12 for the backward error of eq. 15 and for the exact scaling under FcSchurUpdate) fail on
 * any algebraic mistake (a wrong block, order or sign gives O(1) errors) and leave room for
 * κ(A) up to ~1e5.
 * Key figures are printed on lines containing "FIGURE". */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/model/schur.h"
#include "../../src/fem/fem.h"

static uint64_t rng_state = 0x5c4e11c0a1e5eedULL;
static double   Uniform(double a, double b) { return FcTestUniform(&rng_state, a, b); }

/* The body: mesh, K and M (Dirichlet applied), constrained flags, free surface DoFs. */
typedef struct {
  FcMesh     mesh;
  Mat        K, Adyn; /* quasi-static A = K; dynamic A = M + Δt² K (han2023 eq. 11, θ = θ_vq = 1) */
  PetscInt   n;
  PetscBool *isbc;
  PetscInt   nsurf;
  PetscInt  *surf; /* free DoFs of boundary nodes, ascending */
} Body;

static Body body;

static PetscReal Elapsed(PetscLogDouble t0)
{
  PetscLogDouble t1;
  PetscTime(&t1);
  return (PetscReal)(t1 - t0);
}

/* Dirichlet as body_deformable.c: zero rows and columns, diagonal = mean diagonal. */
static PetscErrorCode ApplyDirichlet(Mat A, PetscInt nbc, const PetscInt *bc)
{
  Vec       dg;
  PetscReal diag;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(A, &dg, NULL));
  PetscCall(MatGetDiagonal(A, dg));
  PetscCall(VecNorm(dg, NORM_1, &diag));
  PetscCall(VecDestroy(&dg));
  PetscCall(MatZeroRowsColumns(A, nbc, bc, diag / body.n, NULL, NULL));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(0);
}

static int SetupBody(void **state)
{
  FcMaterialParams   p;
  FcMaterial         mat;
  const FcMeshGroup *g;
  Mat                M;
  Vec                u;
  PetscInt          *bc, nbc = 0;
  PetscBool         *onb;
  const PetscReal    dt = 1e-3;

  (void)state;
  CHK(FcMeshLoad("meshes/cube.geo", 1, 1, &body.mesh));
  body.n = 3 * body.mesh.nnodes;
  CHK(FcMaterialParamsInit(&p, "linear"));
  CHK(FcMaterialParamsSetReal(&p, "E", 1e7));
  CHK(FcMaterialParamsSetReal(&p, "nu", 0.3));
  CHK(FcMaterialParamsSetReal(&p, "density", 1000));
  CHK(FcMaterialCreate(&p, &mat));
  CHK(FcAssemblyCreateMatrix(PETSC_COMM_SELF, &body.mesh, &body.K));
  CHK(MatDuplicate(body.K, MAT_DO_NOT_COPY_VALUES, &M));
  CHK(MatCreateVecs(body.K, &u, NULL));
  CHK(VecSet(u, 0.0));
  CHK(FcAssembleInternal(&body.mesh, mat, u, NULL, NULL, body.K));
  CHK(FcAssembleMass(&body.mesh, p.density, M));
  CHK(MatDuplicate(M, MAT_COPY_VALUES, &body.Adyn));
  CHK(MatAXPY(body.Adyn, dt * dt, body.K, SAME_NONZERO_PATTERN));
  CHK(FcMeshFindGroup(&body.mesh, "zmin", 2, &g));
  assert_non_null(g);
  CHK(PetscCalloc1(body.n, &body.isbc));
  CHK(PetscMalloc1(3 * g->nnodes, &bc));
  for (PetscInt i = 0; i < g->nnodes; i++)
    for (int k = 0; k < 3; k++) {
      bc[nbc++]                      = 3 * g->nodes[i] + k;
      body.isbc[3 * g->nodes[i] + k] = PETSC_TRUE;
    }
  CHK(ApplyDirichlet(body.K, nbc, bc));
  CHK(ApplyDirichlet(body.Adyn, nbc, bc));
  CHK(PetscCalloc1(body.mesh.nnodes, &onb));
  for (PetscInt f = 0; f < body.mesh.nbfaces * body.mesh.npf; f++) onb[body.mesh.bfaces[f]] = PETSC_TRUE;
  CHK(PetscMalloc1(body.n, &body.surf));
  body.nsurf = 0;
  for (PetscInt d = 0; d < body.n; d++)
    if (onb[d / 3] && !body.isbc[d]) body.surf[body.nsurf++] = d;
  printf(
    "  body: cube.geo refine 1 tet4, %d nodes, %d DoFs, %d constrained, %d free surface DoFs\n", (int)body.mesh.nnodes, (int)body.n, (int)nbc, (int)body.nsurf);
  CHK(PetscFree(onb));
  CHK(PetscFree(bc));
  CHK(VecDestroy(&u));
  CHK(MatDestroy(&M));
  CHK(FcMaterialDestroy(&mat));
  return 0;
}

static int TeardownBody(void **state)
{
  (void)state;
  CHK(MatDestroy(&body.K));
  CHK(MatDestroy(&body.Adyn));
  CHK(PetscFree(body.isbc));
  CHK(PetscFree(body.surf));
  CHK(FcMeshDestroy(&body.mesh));
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* references                                                                               */

/* A as a dense row-major n × n array. */
static void DenseOf(Mat A, PetscReal *D)
{
  for (PetscInt i = 0; i < body.n; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;
    for (PetscInt j = 0; j < body.n; j++) D[i * body.n + j] = 0;
    CHK(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt j = 0; j < nc; j++) D[i * body.n + cols[j]] = vals[j];
    CHK(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
}

/* Â_ref (np × np row-major) by Gaussian elimination without pivoting of the permuted dense
 * matrix [A_nn A_np; A_pn A_pp] over its n block (A is SPD on that block), eq. 18 computed by
 * hand: after the n pivots the trailing block is A_pp − A_pn A_nn⁻¹ A_np. */
static void ReferenceSchur(Mat A, PetscInt np, const PetscInt *idx, PetscReal *S)
{
  const PetscInt n = body.n, nn = n - np;
  PetscInt      *perm, *pos, c = 0;
  PetscReal     *A0, *D;

  CHK(PetscMalloc4(n, &perm, n, &pos, n * n, &A0, n * n, &D));
  for (PetscInt i = 0; i < n; i++) pos[i] = -1;
  for (PetscInt k = 0; k < np; k++) pos[idx[k]] = k;
  for (PetscInt i = 0; i < n; i++)
    if (pos[i] < 0) perm[c++] = i;
  for (PetscInt k = 0; k < np; k++) perm[c++] = idx[k];
  DenseOf(A, A0);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) D[i * n + j] = A0[perm[i] * n + perm[j]];
  for (PetscInt k = 0; k < nn; k++) {
    const PetscReal piv = D[k * n + k];
    assert_true(piv > 0);
    for (PetscInt i = k + 1; i < n; i++) {
      const PetscReal l = D[i * n + k] / piv;
      if (l == 0) continue;
      for (PetscInt j = k + 1; j < n; j++) D[i * n + j] -= l * D[k * n + j];
    }
  }
  for (PetscInt i = 0; i < np; i++)
    for (PetscInt j = 0; j < np; j++) S[i * np + j] = D[(nn + i) * n + nn + j];
  CHK(PetscFree4(perm, pos, A0, D));
}

/* The plain full-DoF solver of fcsim: KSP(PREONLY) + Cholesky (MUMPS), no Schur indices. */
static void ReferenceKSP(Mat A, KSP *ksp)
{
  PC pc;
  CHK(KSPCreate(PETSC_COMM_SELF, ksp));
  CHK(KSPSetType(*ksp, KSPPREONLY));
  CHK(KSPGetPC(*ksp, &pc));
  CHK(PCSetType(pc, PCCHOLESKY));
  CHK(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  CHK(KSPSetOperators(*ksp, A, A));
  CHK(KSPSetUp(*ksp));
}

/* max |a − b| / max |b| over len entries */
static PetscReal RelErr(PetscInt len, const PetscReal *a, const PetscReal *b)
{
  PetscReal e = 0, s = 0;
  for (PetscInt i = 0; i < len; i++) {
    e = PetscMax(e, PetscAbsReal(a[i] - b[i]));
    s = PetscMax(s, PetscAbsReal(b[i]));
  }
  return s > 0 ? e / s : e;
}

static PetscReal VecRelErr(Vec a, Vec b)
{
  Vec       d;
  PetscReal e, s;
  CHK(VecDuplicate(a, &d));
  CHK(VecWAXPY(d, -1.0, b, a));
  CHK(VecNorm(d, NORM_2, &e));
  CHK(VecNorm(b, NORM_2, &s));
  CHK(VecDestroy(&d));
  return e / s;
}

/* A random subset (fraction frac) of the free surface DoFs, shuffled (Â's order is the IS's). */
static PetscInt RandomSurfaceSet(PetscReal frac, PetscInt *idx)
{
  PetscInt np = 0;
  for (PetscInt i = 0; i < body.nsurf; i++)
    if (Uniform(0, 1) < frac) idx[np++] = body.surf[i];
  for (PetscInt i = np - 1; i > 0; i--) {
    PetscInt j = (PetscInt)Uniform(0, (double)(i + 1)), t = idx[i];
    if (j > i) j = i;
    idx[i] = idx[j];
    idx[j] = t;
  }
  return np;
}

static void RandomVec(Vec v)
{
  PetscScalar *a;
  PetscInt     n;
  CHK(VecGetLocalSize(v, &n));
  CHK(VecGetArray(v, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = Uniform(-1, 1);
  CHK(VecRestoreArray(v, &a));
}

/* ---------------------------------------------------------------------------------------- */
/* 1. the Schur complement                                                                  */

static void test_complement(void **state)
{
  PetscInt      *idx, np;
  PetscReal     *Sref, *Sm, err[2], t[2];
  IS             is;
  const char    *name[2] = {"Cholesky (LDLt)", "LU"};
  PetscLogDouble t0;

  (void)state;
  CHK(PetscMalloc1(body.nsurf, &idx));
  np = RandomSurfaceSet(0.35, idx);
  CHK(ISCreateGeneral(PETSC_COMM_SELF, np, idx, PETSC_USE_POINTER, &is));
  CHK(PetscMalloc2(np * np, &Sref, np * np, &Sm));
  PetscTime(&t0);
  ReferenceSchur(body.K, np, idx, Sref);
  printf("  dense reference Schur complement (own Gaussian elimination, n = %d): %.3f s\n", (int)body.n, (double)Elapsed(t0));
  for (int f = 0; f < 2; f++) {
    FcSchur            s;
    FcSchurInfo        info;
    Mat                Ahat;
    const PetscScalar *a;
    PetscInt           m, nc;
    /* the factorization follows the symmetry flag: set → Cholesky, unset → LU */
    CHK(MatSetOption(body.K, MAT_SYMMETRIC, f == 0 ? PETSC_TRUE : PETSC_FALSE));
    PetscTime(&t0);
    CHK(FcSchurCreate(body.K, is, &s));
    t[f] = Elapsed(t0);
    CHK(FcSchurGetInfo(s, &info));
    assert_int_equal(info.ftype, f == 0 ? MAT_FACTOR_CHOLESKY : MAT_FACTOR_LU);
    assert_int_equal(info.np, np);
    assert_int_equal(info.n, body.n);
    CHK(FcSchurGetComplement(s, &Ahat));
    CHK(MatGetSize(Ahat, &m, &nc));
    assert_int_equal(m, np);
    assert_int_equal(nc, np);
    CHK(MatDenseGetArrayRead(Ahat, &a));
    for (PetscInt i = 0; i < np; i++)
      for (PetscInt j = 0; j < np; j++) Sm[i * np + j] = a[i + j * np];
    CHK(MatDenseRestoreArrayRead(Ahat, &a));
    err[f] = RelErr(np * np, Sm, Sref);
    printf(
      "  %s: np = %d, max|Ahat - Ahat_ref| / max|Ahat_ref| = %.2e, create %.4f s (symbolic %.4f, numeric %.4f, Ahat copy + dense factor %.4f), %lld factor entries\n",
      name[f], (int)np, (double)err[f], (double)t[f], (double)info.t_symbolic, (double)info.t_numeric, (double)info.t_complement,
      (long long)info.factor_entries);
    CHK(FcSchurDestroy(&s));
  }
  CHK(MatSetOption(body.K, MAT_SYMMETRIC, PETSC_TRUE));
  printf("FIGURE schur: Ahat = A_pp - A_pn A_nn^-1 A_np vs dense elimination, n = %d, np = %d: rel err %.1e (Cholesky), %.1e (LU) (tol 1e-10)\n", (int)body.n,
    (int)np, (double)err[0], (double)err[1]);
  assert_true(err[0] <= 1e-10);
  assert_true(err[1] <= 1e-10);
  CHK(ISDestroy(&is));
  CHK(PetscFree2(Sref, Sm));
  CHK(PetscFree(idx));
}

/* ---------------------------------------------------------------------------------------- */
/* 2. solves through the Schur complement                                                   */

static void test_solve(void **state)
{
  PetscInt      *idx, np;
  IS             is;
  FcSchur        s;
  KSP            ksp;
  Vec            b, x, xref, xp, xr;
  Mat            B, X, Xref, A2, Ahat, Ahat2;
  PetscReal      e_solve, e_mat, e_cpl, e_rec, e_res, e_upd, e_upd2, tk, ts;
  PetscLogDouble t0;
  const PetscInt k = 7;

  (void)state;
  CHK(PetscMalloc1(body.nsurf, &idx));
  np = RandomSurfaceSet(0.5, idx);
  CHK(ISCreateGeneral(PETSC_COMM_SELF, np, idx, PETSC_USE_POINTER, &is));
  CHK(FcSchurCreate(body.K, is, &s));
  ReferenceKSP(body.K, &ksp);
  CHK(MatCreateVecs(body.K, &b, &x));
  CHK(VecDuplicate(b, &xref));
  CHK(VecDuplicate(b, &xp));
  CHK(VecDuplicate(b, &xr));
  RandomVec(b);
  PetscTime(&t0);
  CHK(KSPSolve(ksp, b, xref));
  tk = Elapsed(t0);
  PetscTime(&t0);
  CHK(FcSchurSolve(s, b, x));
  ts      = Elapsed(t0);
  e_solve = VecRelErr(x, xref);
  /* several right-hand sides at once */
  CHK(MatCreateSeqDense(PETSC_COMM_SELF, body.n, k, NULL, &B));
  {
    PetscScalar *a;
    CHK(MatDenseGetArrayWrite(B, &a));
    for (PetscInt i = 0; i < body.n * k; i++) a[i] = Uniform(-1, 1);
    CHK(MatDenseRestoreArrayWrite(B, &a));
  }
  CHK(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  CHK(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &Xref));
  CHK(FcSchurMatSolve(s, B, X));
  CHK(KSPMatSolve(ksp, B, Xref));
  {
    const PetscScalar *a, *r;
    CHK(MatDenseGetArrayRead(X, &a));
    CHK(MatDenseGetArrayRead(Xref, &r));
    e_mat = RelErr(body.n * k, a, r);
    CHK(MatDenseRestoreArrayRead(X, &a));
    CHK(MatDenseRestoreArrayRead(Xref, &r));
  }
  /* Y = Â⁻¹ B on the participating DoFs: Â Y = B */
  {
    Mat                Bp, Yp, R;
    const PetscScalar *r, *bp;
    PetscScalar       *a;
    PetscReal          rmax = 0, bmax = 0;
    CHK(FcSchurGetComplement(s, &Ahat));
    CHK(MatCreateSeqDense(PETSC_COMM_SELF, np, 3, NULL, &Bp));
    CHK(MatCreateSeqDense(PETSC_COMM_SELF, np, 3, NULL, &Yp));
    CHK(MatDenseGetArrayWrite(Bp, &a));
    for (PetscInt i = 0; i < 3 * np; i++) a[i] = Uniform(-1, 1);
    CHK(MatDenseRestoreArrayWrite(Bp, &a));
    CHK(FcSchurSolveComplement(s, Bp, Yp));
    CHK(MatMatMult(Ahat, Yp, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
    CHK(MatDenseGetArrayRead(R, &r));
    CHK(MatDenseGetArrayRead(Bp, &bp));
    for (PetscInt i = 0; i < 3 * np; i++) {
      rmax = PetscMax(rmax, PetscAbsReal(r[i] - bp[i]));
      bmax = PetscMax(bmax, PetscAbsReal(bp[i]));
    }
    CHK(MatDenseRestoreArrayRead(R, &r));
    CHK(MatDenseRestoreArrayRead(Bp, &bp));
    e_cpl = rmax / bmax;
    CHK(MatDestroy(&Bp));
    CHK(MatDestroy(&Yp));
    CHK(MatDestroy(&R));
  }
  /* eq. 15 with the exact x_p gives back the full solution */
  CHK(FcSchurRecoverInterior(s, b, xref, xr));
  e_rec = VecRelErr(xr, xref);
  /* eq. 15 with an arbitrary x_p: the n rows of A x = b hold, the p entries are x_p */
  RandomVec(xp);
  CHK(FcSchurRecoverInterior(s, b, xp, xr));
  {
    Vec                r;
    const PetscScalar *ra, *xa, *pa, *ba;
    PetscReal          rn = 0, scale, anorm, xnorm, bnorm;
    CHK(VecDuplicate(b, &r));
    CHK(MatMult(body.K, xr, r));
    CHK(MatNorm(body.K, NORM_INFINITY, &anorm));
    CHK(VecNorm(xr, NORM_INFINITY, &xnorm));
    CHK(VecNorm(b, NORM_INFINITY, &bnorm));
    scale = anorm * xnorm + bnorm;
    CHK(VecGetArrayRead(r, &ra));
    CHK(VecGetArrayRead(b, &ba));
    CHK(VecGetArrayRead(xr, &xa));
    CHK(VecGetArrayRead(xp, &pa));
    {
      PetscBool *isp;
      CHK(PetscCalloc1(body.n, &isp));
      for (PetscInt i = 0; i < np; i++) isp[idx[i]] = PETSC_TRUE;
      for (PetscInt i = 0; i < body.n; i++) {
        if (isp[i]) assert_true(xa[i] == pa[i]);
        else rn = PetscMax(rn, PetscAbsReal(ra[i] - ba[i]));
      }
      CHK(PetscFree(isp));
    }
    CHK(VecRestoreArrayRead(r, &ra));
    CHK(VecRestoreArrayRead(b, &ba));
    CHK(VecRestoreArrayRead(xr, &xa));
    CHK(VecRestoreArrayRead(xp, &pa));
    CHK(VecDestroy(&r));
    e_res = rn / scale;
  }
  /* new values, same pattern: A2 = 2A gives Â2 = 2Â and half the solution */
  CHK(FcSchurGetComplement(s, &Ahat));
  CHK(MatDuplicate(Ahat, MAT_COPY_VALUES, &Ahat2));
  CHK(MatDuplicate(body.K, MAT_COPY_VALUES, &A2));
  CHK(MatScale(A2, 2.0));
  CHK(FcSchurUpdate(s, A2));
  CHK(FcSchurGetComplement(s, &Ahat));
  {
    const PetscScalar *a, *r;
    PetscReal         *h;
    CHK(PetscMalloc1(np * np, &h));
    CHK(MatDenseGetArrayRead(Ahat, &a));
    CHK(MatDenseGetArrayRead(Ahat2, &r));
    for (PetscInt i = 0; i < np * np; i++) h[i] = 0.5 * a[i];
    e_upd = RelErr(np * np, h, r);
    CHK(MatDenseRestoreArrayRead(Ahat, &a));
    CHK(MatDenseRestoreArrayRead(Ahat2, &r));
    CHK(PetscFree(h));
  }
  CHK(FcSchurSolve(s, b, x));
  CHK(VecScale(x, 2.0));
  e_upd2 = VecRelErr(x, xref);
  printf(
    "FIGURE schur: A^-1 b through the Schur complement vs full-DoF KSP+MUMPS, n = %d, np = %d: rel err %.1e (1 rhs), %.1e (%d rhs) (tol 1e-8); solve %.2e s vs %.2e s\n",
    (int)body.n, (int)np, (double)e_solve, (double)e_mat, (int)k, (double)ts, (double)tk);
  printf("FIGURE schur: Ahat^-1 B (dense factor of Ahat): max|Ahat Y - B| / max|B| = %.1e (tol 1e-10)\n", (double)e_cpl);
  printf("FIGURE schur: eq. 15 recovery: exact x_p -> rel err %.1e (tol 1e-8); arbitrary x_p -> n-row residual / (|A||x|+|b|) %.1e (tol 1e-12)\n",
    (double)e_rec, (double)e_res);
  printf("FIGURE schur: update with 2A (numeric only): Ahat rel err %.1e, solution rel err %.1e (tol 1e-12)\n", (double)e_upd, (double)e_upd2);
  assert_true(e_solve <= 1e-8);
  assert_true(e_mat <= 1e-8);
  assert_true(e_cpl <= 1e-10);
  assert_true(e_rec <= 1e-8);
  assert_true(e_res <= 1e-12);
  assert_true(e_upd <= 1e-12);
  assert_true(e_upd2 <= 1e-12);
  CHK(MatDestroy(&A2));
  CHK(MatDestroy(&Ahat2));
  CHK(MatDestroy(&B));
  CHK(MatDestroy(&X));
  CHK(MatDestroy(&Xref));
  CHK(VecDestroy(&b));
  CHK(VecDestroy(&x));
  CHK(VecDestroy(&xref));
  CHK(VecDestroy(&xp));
  CHK(VecDestroy(&xr));
  CHK(KSPDestroy(&ksp));
  CHK(FcSchurDestroy(&s));
  CHK(ISDestroy(&is));
  CHK(PetscFree(idx));
}

/* ---------------------------------------------------------------------------------------- */
/* 3. the Delassus operator                                                                 */

/* A random contact Jacobian J (3m × n, row-major dense): contact a on a random boundary
 * triangle with random barycentric weights w and a random orthonormal frame (n, t1, t2);
 * row 3a+i = Σ_v w_v F_i ⊗ e_v, zero on constrained DoFs (as src/step/contact_step.c). */
static void RandomJacobian(PetscInt m, PetscReal *J)
{
  const PetscInt n = body.n;
  for (PetscInt i = 0; i < 3 * m * n; i++) J[i] = 0;
  for (PetscInt a = 0; a < m; a++) {
    PetscInt  f = (PetscInt)Uniform(0, (double)body.mesh.nbfaces), nfree = 0;
    PetscReal w[3], ws                                                   = 0, F[3][3], len;
    if (f >= body.mesh.nbfaces) f = body.mesh.nbfaces - 1;
    for (int v = 0; v < 3; v++) nfree += !body.isbc[3 * body.mesh.bfaces[f * body.mesh.npf + v]];
    if (!nfree) {
      a--;
      continue;
    }
    for (int v = 0; v < 3; v++) ws += (w[v] = Uniform(0.05, 1));
    for (int v = 0; v < 3; v++) w[v] /= ws;
    /* frame: random unit n, t1 ⟂ n, t2 = n × t1 */
    for (int k = 0; k < 3; k++) F[0][k] = Uniform(-1, 1);
    len = PetscSqrtReal(F[0][0] * F[0][0] + F[0][1] * F[0][1] + F[0][2] * F[0][2]);
    for (int k = 0; k < 3; k++) F[0][k] /= len;
    {
      PetscReal e[3] = {PetscAbsReal(F[0][0]) < 0.6 ? 1.0 : 0.0, PetscAbsReal(F[0][0]) < 0.6 ? 0.0 : 1.0, 0}, d = 0;
      for (int k = 0; k < 3; k++) d += e[k] * F[0][k];
      for (int k = 0; k < 3; k++) F[1][k] = e[k] - d * F[0][k];
      len = PetscSqrtReal(F[1][0] * F[1][0] + F[1][1] * F[1][1] + F[1][2] * F[1][2]);
      for (int k = 0; k < 3; k++) F[1][k] /= len;
      F[2][0] = F[0][1] * F[1][2] - F[0][2] * F[1][1];
      F[2][1] = F[0][2] * F[1][0] - F[0][0] * F[1][2];
      F[2][2] = F[0][0] * F[1][1] - F[0][1] * F[1][0];
    }
    for (int v = 0; v < 3; v++) {
      const PetscInt node = body.mesh.bfaces[f * body.mesh.npf + v];
      for (int k = 0; k < 3; k++) {
        const PetscInt d = 3 * node + k;
        if (body.isbc[d]) continue;
        for (int i = 0; i < 3; i++) J[(3 * a + i) * n + d] += w[v] * F[i][k];
      }
    }
  }
}

/* W_ref = J A⁻¹ Jᵀ by the full solves A⁻¹ Jᵀ (KSPMatSolve, as contact_step.c's "exact"). */
static PetscReal ReferenceDelassus(KSP ksp, PetscInt nr, const PetscReal *J, PetscReal *W)
{
  const PetscInt     n = body.n;
  Mat                B, X;
  PetscScalar       *b;
  const PetscScalar *x;
  PetscLogDouble     t0;
  PetscReal          t;

  PetscTime(&t0);
  CHK(MatCreateSeqDense(PETSC_COMM_SELF, n, nr, NULL, &B));
  CHK(MatDenseGetArrayWrite(B, &b));
  for (PetscInt r = 0; r < nr; r++)
    for (PetscInt d = 0; d < n; d++) b[d + r * n] = J[r * n + d];
  CHK(MatDenseRestoreArrayWrite(B, &b));
  CHK(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
  CHK(KSPMatSolve(ksp, B, X));
  CHK(MatDenseGetArrayRead(X, &x));
  for (PetscInt i = 0; i < nr; i++)
    for (PetscInt j = 0; j < nr; j++) {
      PetscReal v = 0;
      for (PetscInt d = 0; d < n; d++) v += J[i * n + d] * x[d + j * n];
      W[i * nr + j] = v;
    }
  CHK(MatDenseRestoreArrayRead(X, &x));
  t = Elapsed(t0);
  CHK(MatDestroy(&B));
  CHK(MatDestroy(&X));
  return t;
}

/* W through FcSchur for participating set idx (J restricted to its columns); then, with Â in
 * whatever form the Delassus computation left it (factored or inverted), a full solve against
 * the reference and Y = Â⁻¹ B: *esolve = max(|x − x_ref| / |x_ref|, max|Â Y − B| / max|B|). */
static PetscReal SchurDelassus(Mat A, KSP ksp, PetscInt np, const PetscInt *idx, PetscInt nr, const PetscReal *J, PetscReal *W, PetscReal *tcreate,
  PetscBool *inverted, PetscReal *esolve, PetscReal *eupdate)
{
  IS             is;
  FcSchur        s;
  FcSchurInfo    info;
  PetscReal     *Jp, t;
  PetscLogDouble t0;
  Vec            b, x, xref;

  CHK(PetscMalloc1(nr * np + 1, &Jp));
  for (PetscInt r = 0; r < nr; r++)
    for (PetscInt k = 0; k < np; k++) Jp[r * np + k] = J[r * body.n + idx[k]];
  CHK(ISCreateGeneral(PETSC_COMM_SELF, np, idx, PETSC_USE_POINTER, &is));
  PetscTime(&t0);
  CHK(FcSchurCreate(A, is, &s));
  *tcreate = Elapsed(t0);
  PetscTime(&t0);
  CHK(FcSchurDelassus(s, nr, Jp, W));
  t = Elapsed(t0);
  CHK(FcSchurGetInfo(s, &info));
  *inverted = info.inverted;
  CHK(MatCreateVecs(A, &b, &x));
  CHK(VecDuplicate(b, &xref));
  RandomVec(b);
  CHK(KSPSolve(ksp, b, xref));
  CHK(FcSchurSolve(s, b, x));
  *esolve = VecRelErr(x, xref);
  /* and Y = Â⁻¹ B in that form: Â Y = B */
  {
    Mat                Ahat, Bp, Yp, R;
    const PetscScalar *r, *bp;
    PetscScalar       *a;
    PetscReal          rmax = 0, bmax = 0;
    CHK(FcSchurGetComplement(s, &Ahat));
    CHK(MatCreateSeqDense(PETSC_COMM_SELF, np, 2, NULL, &Bp));
    CHK(MatCreateSeqDense(PETSC_COMM_SELF, np, 2, NULL, &Yp));
    CHK(MatDenseGetArrayWrite(Bp, &a));
    for (PetscInt i = 0; i < 2 * np; i++) a[i] = Uniform(-1, 1);
    CHK(MatDenseRestoreArrayWrite(Bp, &a));
    CHK(FcSchurSolveComplement(s, Bp, Yp));
    CHK(MatMatMult(Ahat, Yp, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &R));
    CHK(MatDenseGetArrayRead(R, &r));
    CHK(MatDenseGetArrayRead(Bp, &bp));
    for (PetscInt i = 0; i < 2 * np; i++) {
      rmax = PetscMax(rmax, PetscAbsReal(r[i] - bp[i]));
      bmax = PetscMax(bmax, PetscAbsReal(bp[i]));
    }
    CHK(MatDenseRestoreArrayRead(R, &r));
    CHK(MatDenseRestoreArrayRead(Bp, &bp));
    *esolve = PetscMax(*esolve, rmax / bmax);
    CHK(MatDestroy(&Bp));
    CHK(MatDestroy(&Yp));
    CHK(MatDestroy(&R));
  }
  CHK(VecDestroy(&b));
  CHK(VecDestroy(&x));
  CHK(VecDestroy(&xref));
  /* new values after the Delassus call (Â possibly inverted in place): 2A gives W/2 */
  {
    PetscReal *W2;
    CHK(PetscMalloc1(nr * nr, &W2));
    CHK(MatScale(A, 2.0));
    CHK(FcSchurUpdate(s, A));
    CHK(FcSchurDelassus(s, nr, Jp, W2));
    CHK(MatScale(A, 0.5)); /* exact: powers of 2 */
    for (PetscInt i = 0; i < nr * nr; i++) W2[i] *= 2;
    *eupdate = RelErr(nr * nr, W2, W);
    CHK(PetscFree(W2));
  }
  CHK(FcSchurDestroy(&s));
  CHK(ISDestroy(&is));
  CHK(PetscFree(Jp));
  return t;
}

static void test_delassus(void **state)
{
  const PetscInt m = 30, nr = 3 * m, n = body.n;
  PetscReal     *J, *W, *Wref, e_sup, e_cand, tref, tsup, tcand, tc_sup, tc_cand, wmax = 0, es_sup, es_cand, eu_sup, eu_cand;
  PetscBool      inv_sup, inv_cand;
  PetscInt      *idx, np = 0;
  KSP            ksp;

  (void)state;
  CHK(PetscMalloc3(nr * n, &J, nr * nr, &W, nr * nr, &Wref));
  CHK(PetscMalloc1(n, &idx));
  RandomJacobian(m, J);
  ReferenceKSP(body.Adyn, &ksp);
  tref = ReferenceDelassus(ksp, nr, J, Wref);
  for (PetscInt i = 0; i < nr * nr; i++) wmax = PetscMax(wmax, PetscAbsReal(Wref[i]));
  /* participating = the support of J (han2023 §VI-A), in decreasing order */
  for (PetscInt d = n - 1; d >= 0; d--) {
    PetscBool nz = PETSC_FALSE;
    for (PetscInt r = 0; r < nr && !nz; r++) nz = (PetscBool)(J[r * n + d] != 0);
    if (nz) idx[np++] = d;
  }
  /* A flagged symmetric (MUMPS LDLᵀ, dense sytrf/sytri) and flagged SPD (MUMPS LLᵀ, potrf/potri) */
  for (int spd = 0; spd < 2; spd++) {
    const char *kind = spd ? "SPD" : "symmetric";
    CHK(MatSetOption(body.Adyn, MAT_SPD, spd ? PETSC_TRUE : PETSC_FALSE));
    CHK(MatSetOption(body.Adyn, MAT_SYMMETRIC, PETSC_TRUE));
    tsup  = SchurDelassus(body.Adyn, ksp, np, idx, nr, J, W, &tc_sup, &inv_sup, &es_sup, &eu_sup);
    e_sup = RelErr(nr * nr, W, Wref);
    printf(
      "  A %s, support of J: np = %d, W rel err %.2e (Schur create %.4f s + W %.4f s, Ahat %s; reference factor + %d solves %.4f s); then a solve: rel err %.2e\n",
      kind, (int)np, (double)e_sup, (double)tc_sup, (double)tsup, inv_sup ? "inverted" : "factored", (int)nr, (double)tref, (double)es_sup);
    /* participating = every free surface DoF (a fixed candidate set; J_p has zero columns) */
    tcand  = SchurDelassus(body.Adyn, ksp, body.nsurf, body.surf, nr, J, W, &tc_cand, &inv_cand, &es_cand, &eu_cand);
    e_cand = RelErr(nr * nr, W, Wref);
    printf("  A %s, candidate set (all free surface DoFs): np = %d, W rel err %.2e (Schur create %.4f s + W %.4f s, Ahat %s); then a solve: rel err %.2e\n",
      kind, (int)body.nsurf, (double)e_cand, (double)tc_cand, (double)tcand, inv_cand ? "inverted" : "factored", (double)es_cand);
    printf(
      "FIGURE schur: W = J_p Ahat^-1 J_p^T vs J A^-1 J^T (full solves), A = M + dt^2 K flagged %s, n = %d, %d contacts: rel err %.1e (np = %d, support of J: Ahat inverted in place, nrows %d > np/3), %.1e (np = %d, all surface DoFs: triangular solves, nrows <= np/3) (tol 1e-10); a full solve and Ahat^-1 B afterwards: rel err %.1e, %.1e (tol 1e-8)\n",
      kind, (int)n, (int)m, (double)e_sup, (int)np, (int)nr, (double)e_cand, (int)body.nsurf, (double)es_sup, (double)es_cand);
    printf("FIGURE schur: W after FcSchurUpdate with 2A (A %s; from inverted / factored Ahat): |2 W2 - W| / |W| = %.1e, %.1e (tol 1e-12)\n", kind,
      (double)eu_sup, (double)eu_cand);
    assert_true(eu_sup <= 1e-12);
    assert_true(eu_cand <= 1e-12);
    /* the two ways of forming Â⁻¹ J_pᵀ are both exercised: 3·90 > 171 and 3·90 < 306 */
    assert_true(inv_sup);
    assert_false(inv_cand);
    assert_true(es_sup <= 1e-8);
    assert_true(es_cand <= 1e-8);
    assert_true(e_sup <= 1e-10);
    assert_true(e_cand <= 1e-10);
  }
  CHK(MatSetOption(body.Adyn, MAT_SPD, PETSC_FALSE));
  CHK(MatSetOption(body.Adyn, MAT_SYMMETRIC, PETSC_TRUE));
  printf("  max|W| = %.3e\n", (double)wmax);
  assert_true(wmax > 0);
  CHK(KSPDestroy(&ksp));
  CHK(PetscFree3(J, W, Wref));
  CHK(PetscFree(idx));
}

/* ---------------------------------------------------------------------------------------- */
/* 4. edge cases                                                                            */

static void test_edges(void **state)
{
  const PetscInt m = 5, nr = 3 * m, n = body.n;
  PetscInt      *all;
  IS             is;
  FcSchur        s;
  FcSchurInfo    info;
  KSP            ksp;
  Mat            Ahat;
  Vec            b, x, xref;
  PetscReal     *J, *W, *Wref, *D, *H, e_empty, e_emptyrec, e_all, e_allW, e_allA, e_allrec;
  PetscInt       nn, nc;

  (void)state;
  CHK(PetscMalloc1(n, &all));
  CHK(PetscMalloc5(nr * n, &J, nr * nr, &W, nr * nr, &Wref, n * n, &D, n * n, &H));
  ReferenceKSP(body.K, &ksp);
  CHK(MatCreateVecs(body.K, &b, &x));
  CHK(VecDuplicate(b, &xref));
  RandomVec(b);
  CHK(KSPSolve(ksp, b, xref));

  /* empty participating set: a plain factorization; Â is 0 × 0, W = 0 */
  CHK(ISCreateGeneral(PETSC_COMM_SELF, 0, NULL, PETSC_USE_POINTER, &is));
  CHK(FcSchurCreate(body.K, is, &s));
  CHK(FcSchurGetComplement(s, &Ahat));
  CHK(MatGetSize(Ahat, &nn, &nc));
  assert_int_equal(nn, 0);
  assert_int_equal(nc, 0);
  CHK(FcSchurSolve(s, b, x));
  e_empty = VecRelErr(x, xref);
  CHK(FcSchurRecoverInterior(s, b, b, x));
  e_emptyrec = VecRelErr(x, xref);
  for (PetscInt i = 0; i < nr * nr; i++) W[i] = 1;
  CHK(FcSchurDelassus(s, nr, NULL, W));
  for (PetscInt i = 0; i < nr * nr; i++) assert_true(W[i] == 0);
  CHK(FcSchurDestroy(&s));
  CHK(ISDestroy(&is));

  /* every DoF participating (reverse order): Â = A permuted, W = J A⁻¹ Jᵀ with J_p = J permuted */
  for (PetscInt i = 0; i < n; i++) all[i] = n - 1 - i;
  CHK(ISCreateGeneral(PETSC_COMM_SELF, n, all, PETSC_USE_POINTER, &is));
  CHK(FcSchurCreate(body.K, is, &s));
  CHK(FcSchurGetInfo(s, &info));
  assert_int_equal(info.np, n);
  CHK(FcSchurGetComplement(s, &Ahat));
  DenseOf(body.K, D);
  {
    const PetscScalar *a;
    CHK(MatDenseGetArrayRead(Ahat, &a));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++) H[all[i] * n + all[j]] = a[i + j * n];
    CHK(MatDenseRestoreArrayRead(Ahat, &a));
  }
  e_allA = RelErr(n * n, H, D);
  CHK(FcSchurSolve(s, b, x));
  e_all = VecRelErr(x, xref);
  CHK(FcSchurRecoverInterior(s, b, xref, x));
  e_allrec = VecRelErr(x, xref);
  RandomJacobian(m, J);
  ReferenceDelassus(ksp, nr, J, Wref);
  {
    PetscReal *Jp;
    CHK(PetscMalloc1(nr * n, &Jp));
    for (PetscInt r = 0; r < nr; r++)
      for (PetscInt k = 0; k < n; k++) Jp[r * n + k] = J[r * n + all[k]];
    CHK(FcSchurDelassus(s, nr, Jp, W));
    CHK(PetscFree(Jp));
  }
  e_allW = RelErr(nr * nr, W, Wref);
  CHK(FcSchurDestroy(&s));
  CHK(ISDestroy(&is));
  printf(
    "FIGURE schur: edge cases: np = 0: solve rel err %.1e, recovery %.1e, W = 0 exactly; np = n = %d: Ahat = A (rel err %.1e), solve %.1e, recovery %.1e, W %.1e (tol 1e-8 / 1e-10)\n",
    (double)e_empty, (double)e_emptyrec, (int)n, (double)e_allA, (double)e_all, (double)e_allrec, (double)e_allW);
  assert_true(e_empty <= 1e-8);
  assert_true(e_emptyrec <= 1e-8);
  assert_true(e_allA == 0);
  assert_true(e_all <= 1e-8);
  assert_true(e_allrec <= 1e-8);
  assert_true(e_allW <= 1e-10);

  /* invalid sets: an out-of-range and a repeated DoF are errors, nothing leaks */
  {
    PetscInt       bad1[2] = {0, n}, bad2[3] = {4, 1, 4};
    PetscErrorCode rc;
    CHK(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    CHK(ISCreateGeneral(PETSC_COMM_SELF, 2, bad1, PETSC_USE_POINTER, &is));
    rc = FcSchurCreate(body.K, is, &s);
    assert_int_equal(rc, PETSC_ERR_ARG_OUTOFRANGE);
    assert_null(s);
    CHK(ISDestroy(&is));
    CHK(ISCreateGeneral(PETSC_COMM_SELF, 3, bad2, PETSC_USE_POINTER, &is));
    rc = FcSchurCreate(body.K, is, &s);
    assert_int_equal(rc, PETSC_ERR_ARG_OUTOFRANGE);
    assert_null(s);
    CHK(ISDestroy(&is));
    CHK(PetscPopErrorHandler());
  }
  CHK(VecDestroy(&b));
  CHK(VecDestroy(&x));
  CHK(VecDestroy(&xref));
  CHK(KSPDestroy(&ksp));
  CHK(PetscFree5(J, W, Wref, D, H));
  CHK(PetscFree(all));
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_complement),
    cmocka_unit_test(test_solve),
    cmocka_unit_test(test_delassus),
    cmocka_unit_test(test_edges),
  };
  // clang-format on

  return FcTestRun(&argc, &argv, "tests", tests, sizeof tests / sizeof tests[0], SetupBody, TeardownBody, NULL, FcMeshFinalizePackage);
}
