/* fcsim bench — the Delassus operator W = J A⁻¹ Jᵀ of one body two ways (doc/schur.md):
 *
 *   multi-RHS (compliance "exact" in src/step/contact_step.c): factor A (MUMPS Cholesky), solve
 *     A⁻¹ Jᵀ in blocks of 128 right-hand sides, W = J (A⁻¹ Jᵀ) with the sparse rows of J;
 *   Schur (han2023 §VI-B): factor A with the participating DoFs as MUMPS Schur indices, which
 *     yields Â, then W = J_p Â⁻¹ J_pᵀ with the dense factor of Â or its in-place inverse
 *     (src/model/schur.c).
 *
 * The body is meshes/beam.geo (linear elastic, fixed at x = 0), A = M + Δt² K (han2023 eq. 11,
 * backward Euler), m contacts at random points of the bottom face z = 0 (barycentric weights
 * on its triangles, frame n = −z, t1 = x, t2 = y). Times are medians of -runs runs of:
 *   multi-RHS      numeric factorization + W                (symbolic analysis reused)
 *   Schur/support  participating = the support of J: analysis + numeric + Â + W
 *                  (the set changes with the contacts, so MUMPS re-analyses)
 *   Schur/face     participating = every free DoF of the bottom face (fixed candidate set):
 *                  numeric + Â + W (analysis reused, FcSchurUpdate)
 * and the largest relative difference between the W's. Ratios > 1: Schur is faster.
 *
 * Build and run from the repository root (doc/schur.md §6):
 *   mpicc -std=c11 -O2 $(grep PKG_CFLAGS build/config.mk | cut -d= -f2-) bench/schur_bench.c \
 *         -o build/bench/schur_bench build/libfcsim.a $(grep PKG_LIBS build/config.mk | cut -d= -f2-) -lgmsh -lm
 *   OPENBLAS_NUM_THREADS=1 build/bench/schur_bench -refine 2 -order 1 -m 50,100,200,500 -runs 3 [-spd]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/model/schur.h"
#include "../src/core/mpienv.h"
#include "../src/fem/fem.h"

static unsigned long long rng = 0x2545F4914F6CDD1DULL;

static double Uniform(double a, double b)
{
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return a + (b - a) * (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static int CmpReal(const void *a, const void *b)
{
  const PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

static PetscReal Median(PetscInt n, PetscReal *v)
{
  qsort(v, (size_t)n, sizeof *v, CmpReal);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One contact row block: 9 (DoF, coefficient) pairs per row at most (3 nodes × 3 components). */
typedef struct {
  PetscInt  nnz[3];
  PetscInt  dof[3][9];
  PetscReal c[3][9];
} ContactRows;

int main(int argc, char **argv)
{
  FcMesh             mesh;
  FcMaterialParams   p;
  FcMaterial         mat;
  const FcMeshGroup *gfix, *gbot;
  Mat                K, A;
  Vec                u, dg;
  PetscInt           refine = 1, order = 1, runs = 3, mlist[16] = {50, 100, 200, 500}, nm = 4, n, nbc = 0, *bc, nface = 0, *face;
  PetscBool         *isbc, *onbot, mset, spd = PETSC_FALSE;
  PetscReal          dt = 1e-3, diag;
  KSP                ksp;
  PC                 pc;
  FcSchur            sface;
  IS                 isface;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, "fcsim bench: Delassus operator by multi-RHS solves vs Schur complement"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-refine", &refine, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-order", &order, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-runs", &runs, NULL));
  nm = 16;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-m", mlist, &nm, &mset));
  if (!mset) nm = 4;
  PetscCall(FcMeshLoad("meshes/beam.geo", refine, order, &mesh));
  n = 3 * mesh.nnodes;
  PetscCall(FcMaterialParamsInit(&p, "linear"));
  PetscCall(FcMaterialParamsSetReal(&p, "E", 1e7));
  PetscCall(FcMaterialParamsSetReal(&p, "nu", 0.3));
  PetscCall(FcMaterialParamsSetReal(&p, "density", 1000));
  PetscCall(FcMaterialCreate(&p, &mat));
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_SELF, &mesh, &K));
  PetscCall(MatDuplicate(K, MAT_DO_NOT_COPY_VALUES, &A));
  PetscCall(MatCreateVecs(K, &u, NULL));
  PetscCall(VecSet(u, 0.0));
  PetscCall(FcAssembleInternal(&mesh, mat, u, NULL, NULL, K));
  PetscCall(FcAssembleMass(&mesh, p.density, A));
  PetscCall(MatAXPY(A, dt * dt, K, SAME_NONZERO_PATTERN));
  PetscCall(FcMeshFindGroup(&mesh, "fixed", 2, &gfix));
  PetscCall(FcMeshFindGroup(&mesh, "bottom", 2, &gbot));
  PetscCheck(gfix && gbot, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "beam.geo without groups fixed/bottom");
  PetscCall(PetscCalloc1(n, &isbc));
  PetscCall(PetscMalloc1(3 * gfix->nnodes, &bc));
  for (PetscInt i = 0; i < gfix->nnodes; i++)
    for (int k = 0; k < 3; k++) isbc[bc[nbc++] = 3 * gfix->nodes[i] + k] = PETSC_TRUE;
  PetscCall(MatCreateVecs(A, &dg, NULL));
  PetscCall(MatGetDiagonal(A, dg));
  PetscCall(VecNorm(dg, NORM_1, &diag));
  PetscCall(VecDestroy(&dg));
  PetscCall(MatZeroRowsColumns(A, nbc, bc, diag / n, NULL, NULL));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  /* -spd: flag A symmetric positive definite (it is: M + Δt² K with Dirichlet rows): MUMPS then
   * factors LLᵀ (sym = 1) and the dense Schur complement is factored and inverted by
   * potrf/potri (BLAS 3) instead of the Bunch–Kaufman sytrf/sytri */
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-spd", &spd, NULL));
  if (spd) PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscCalloc1(n, &onbot));
  PetscCall(PetscMalloc1(n, &face));
  for (PetscInt i = 0; i < gbot->nnodes; i++)
    for (int k = 0; k < 3; k++) onbot[3 * gbot->nodes[i] + k] = PETSC_TRUE;
  for (PetscInt d = 0; d < n; d++)
    if (onbot[d] && !isbc[d]) face[nface++] = d;
  PetscCall(
    PetscPrintf(PETSC_COMM_SELF, "beam.geo refine %d order %d (A flagged %s): %d nodes, %d DoFs, %d elements; bottom face: %d triangles, %d free DoFs\n",
      (int)refine, (int)order, spd ? "SPD" : "symmetric", (int)mesh.nnodes, (int)n, (int)mesh.nelems, (int)gbot->nfaces, (int)nface));

  /* the multi-RHS path: fcsim's default KSP, analysis once */
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetUp(ksp));
  /* the fixed candidate set: analysis once */
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nface, face, PETSC_USE_POINTER, &isface));
  PetscCall(FcSchurCreate(A, isface, &sface));

  PetscCall(
    PetscPrintf(PETSC_COMM_SELF, "%6s %6s %6s | %10s %10s %10s | %10s %10s %10s %10s | %10s %10s %10s | %8s %8s | %9s\n", "m", "rows", "np", "mRHS fact",
      "mRHS W", "mRHS tot", "S/sup sym", "S/sup num", "S/sup W", "S/sup tot", "S/face num", "S/face W", "S/face tot", "ratio sup", "ratio fc", "max dW"));
  for (PetscInt im = 0; im < nm; im++) {
    const PetscInt m = mlist[im], nr = 3 * m;
    ContactRows   *rows;
    PetscReal     *Wm, *Ws, *Wf, *Jp, *Jf, *tm[2], *ts[3], *tf[2], dmax = 0, wmax = 0;
    PetscInt      *sup, np = 0, *posf;
    PetscBool     *insup;
    PetscCall(PetscMalloc1(m, &rows));
    for (PetscInt a = 0; a < m; a++) {
      PetscInt        f = (PetscInt)Uniform(0, (double)gbot->nfaces), fi;
      PetscReal       w[3], ws = 0;
      const PetscReal F[3][3] = {{0, 0, -1}, {1, 0, 0}, {0, 1, 0}};
      if (f >= gbot->nfaces) f = gbot->nfaces - 1;
      fi = gbot->faces[f];
      for (int v = 0; v < 3; v++) ws += (w[v] = Uniform(0.05, 1));
      for (int i = 0; i < 3; i++) {
        rows[a].nnz[i] = 0;
        for (int v = 0; v < 3; v++)
          for (int k = 0; k < 3; k++) {
            const PetscInt d = 3 * mesh.bfaces[fi * mesh.npf + v] + k;
            if (isbc[d] || F[i][k] == 0) continue;
            rows[a].dof[i][rows[a].nnz[i]] = d;
            rows[a].c[i][rows[a].nnz[i]++] = w[v] / ws * F[i][k];
          }
      }
    }
    PetscCall(PetscMalloc3(nr * nr, &Wm, nr * nr, &Ws, nr * nr, &Wf));
    PetscCall(PetscMalloc5(runs, &tm[0], runs, &tm[1], runs, &ts[0], runs, &ts[1], runs, &ts[2]));
    PetscCall(PetscMalloc2(runs, &tf[0], runs, &tf[1]));
    PetscCall(PetscCalloc1(n, &insup));
    PetscCall(PetscMalloc2(n, &sup, n, &posf));
    for (PetscInt a = 0; a < m; a++)
      for (int i = 0; i < 3; i++)
        for (PetscInt q = 0; q < rows[a].nnz[i]; q++) insup[rows[a].dof[i][q]] = PETSC_TRUE;
    for (PetscInt d = 0; d < n; d++) {
      posf[d] = -1;
      if (insup[d]) sup[np++] = d;
    }
    for (PetscInt k = 0; k < nface; k++) posf[face[k]] = k;
    PetscCall(PetscCalloc2(nr * np, &Jp, nr * nface, &Jf));
    {
      PetscInt *pos;
      PetscCall(PetscMalloc1(n, &pos));
      for (PetscInt k = 0; k < np; k++) pos[sup[k]] = k;
      for (PetscInt a = 0; a < m; a++)
        for (int i = 0; i < 3; i++)
          for (PetscInt q = 0; q < rows[a].nnz[i]; q++) {
            Jp[(3 * a + i) * np + pos[rows[a].dof[i][q]]] += rows[a].c[i][q];
            Jf[(3 * a + i) * nface + posf[rows[a].dof[i][q]]] += rows[a].c[i][q];
          }
      PetscCall(PetscFree(pos));
    }
    for (PetscInt run = 0; run < runs; run++) {
      PetscLogDouble t0, t1, t2, t3;
      /* multi-RHS: numeric factorization (new values, same pattern) + W in blocks of 128 */
      PetscCall(MatScale(A, run % 2 ? 0.5 : 2.0)); /* new values (exact: a power of 2); the next KSPSetUp refactors */
      PetscCall(PetscTime(&t0));
      PetscCall(KSPSetOperators(ksp, A, A)); /* as body_deformable.c: numeric factorization, analysis kept */
      PetscCall(KSPSetUp(ksp));
      PetscCall(PetscTime(&t1));
      PetscCall(PetscArrayzero(Wm, nr * nr));
      for (PetscInt c0 = 0; c0 < nr; c0 += 128) {
        const PetscInt     nb = PetscMin(128, nr - c0);
        Mat                B, X;
        PetscScalar       *h;
        const PetscScalar *x;
        PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, nb, NULL, &B));
        PetscCall(MatDenseGetArrayWrite(B, &h));
        PetscCall(PetscArrayzero(h, n * nb));
        for (PetscInt j = 0; j < nb; j++) {
          const PetscInt a = (c0 + j) / 3, i = (c0 + j) % 3;
          for (PetscInt q = 0; q < rows[a].nnz[i]; q++) h[j * n + rows[a].dof[i][q]] += rows[a].c[i][q];
        }
        PetscCall(MatDenseRestoreArrayWrite(B, &h));
        PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
        PetscCall(KSPMatSolve(ksp, B, X));
        PetscCall(MatDenseGetArrayRead(X, &x));
        for (PetscInt r = 0; r < nr; r++) {
          const PetscInt a = r / 3, i = r % 3;
          for (PetscInt q = 0; q < rows[a].nnz[i]; q++)
            for (PetscInt j = 0; j < nb; j++) Wm[r * nr + c0 + j] += rows[a].c[i][q] * x[j * n + rows[a].dof[i][q]];
        }
        PetscCall(MatDenseRestoreArrayRead(X, &x));
        PetscCall(MatDestroy(&B));
        PetscCall(MatDestroy(&X));
      }
      PetscCall(PetscTime(&t2));
      tm[0][run] = t1 - t0;
      tm[1][run] = t2 - t1;
      /* Schur, participating = support of J: analysis + numeric + Â, then W */
      {
        IS          is;
        FcSchur     s;
        FcSchurInfo info;
        PetscCall(ISCreateGeneral(PETSC_COMM_SELF, np, sup, PETSC_USE_POINTER, &is));
        PetscCall(PetscTime(&t0));
        PetscCall(FcSchurCreate(A, is, &s));
        PetscCall(PetscTime(&t1));
        PetscCall(FcSchurDelassus(s, nr, Jp, Ws));
        PetscCall(PetscTime(&t2));
        PetscCall(FcSchurGetInfo(s, &info));
        ts[0][run] = info.t_symbolic;
        ts[1][run] = t1 - t0 - info.t_symbolic;
        ts[2][run] = t2 - t1;
        PetscCall(FcSchurDestroy(&s));
        PetscCall(ISDestroy(&is));
      }
      /* Schur, fixed candidate set: numeric + Â (analysis reused), then W */
      PetscCall(PetscTime(&t0));
      PetscCall(FcSchurUpdate(sface, A));
      PetscCall(PetscTime(&t1));
      PetscCall(FcSchurDelassus(sface, nr, Jf, Wf));
      PetscCall(PetscTime(&t3));
      tf[0][run] = t1 - t0;
      tf[1][run] = t3 - t1;
    }
    for (PetscInt i = 0; i < nr * nr; i++) {
      wmax = PetscMax(wmax, PetscAbsReal(Wm[i]));
      dmax = PetscMax(dmax, PetscMax(PetscAbsReal(Ws[i] - Wm[i]), PetscAbsReal(Wf[i] - Wm[i])));
    }
    {
      const PetscReal mf = Median(runs, tm[0]), mw = Median(runs, tm[1]), s0 = Median(runs, ts[0]), s1 = Median(runs, ts[1]), s2 = Median(runs, ts[2]),
                      f0 = Median(runs, tf[0]), f1 = Median(runs, tf[1]);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%6d %6d %6d | %10.4f %10.4f %10.4f | %10.4f %10.4f %10.4f %10.4f | %10.4f %10.4f %10.4f | %8.2f %8.2f | %9.1e\n",
        (int)m, (int)nr, (int)np, (double)mf, (double)mw, (double)(mf + mw), (double)s0, (double)s1, (double)s2, (double)(s0 + s1 + s2), (double)f0, (double)f1,
        (double)(f0 + f1), (double)((mf + mw) / (s0 + s1 + s2)), (double)((mf + mw) / (f0 + f1)), (double)(dmax / wmax)));
    }
    PetscCall(PetscFree(rows));
    PetscCall(PetscFree3(Wm, Ws, Wf));
    PetscCall(PetscFree5(tm[0], tm[1], ts[0], ts[1], ts[2]));
    PetscCall(PetscFree2(tf[0], tf[1]));
    PetscCall(PetscFree(insup));
    PetscCall(PetscFree2(sup, posf));
    PetscCall(PetscFree2(Jp, Jf));
  }
  {
    FcSchurInfo info;
    PetscCall(FcSchurGetInfo(sface, &info));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "face set np = %d: last update: MUMPS numeric %.4f s, Ahat copy + dense factor/inverse %.4f s\n", (int)info.np,
      (double)info.t_numeric, (double)info.t_complement));
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
      "face set np = %d: Schur factor entries %lld; columns: fact = numeric factorization, W = Delassus (solves + product), sym = MUMPS analysis; ratio = multi-RHS total / Schur total\n",
      (int)info.np, (long long)info.factor_entries));
  }
  PetscCall(FcSchurDestroy(&sface));
  PetscCall(ISDestroy(&isface));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&K));
  PetscCall(VecDestroy(&u));
  PetscCall(PetscFree(isbc));
  PetscCall(PetscFree(onbot));
  PetscCall(PetscFree(face));
  PetscCall(PetscFree(bc));
  PetscCall(FcMaterialDestroy(&mat));
  PetscCall(FcMeshDestroy(&mesh));
  PetscCall(FcMeshFinalizePackage());
  PetscCall(PetscFinalize());
  return 0;
}
