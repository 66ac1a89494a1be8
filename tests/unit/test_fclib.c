/* Unit test of src/io/fclib_io: FCLIB local problems written and read back identical; a solve
 * written as an FCLIB solution and read back (and checked with libfclib's own merit function);
 * a global problem (sparse SPD M, H) written with fclib_write_global, read and reformulated equal
 * to the dense Hᵀ M⁻¹ H; triplets in fclib.h's and CSparse's conventions read as written (a
 * non-symmetric M oriented by H's index ranges) or refused when nothing tells; every malformed file of tests/bad/fclib/MANIFEST an input error with
 * one stderr line naming the file, no HDF5 object left open; every byte of a file flipped in
 * turn, the same or a whole read. Runs from the repository root.
 * Each test prints its key figure on a line starting with "FIGURE ". */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include <fclib.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/contact/solver.h"
#include "../../src/io/fclib_io.h"

static char tmpdir[256];

/* ---- this test's random sequence (splitmix64, tests/unit/testutil.h) ---- */
static uint64_t rng_state = 0x2545f4914f6cdd1dULL;
static double   Uniform(double a, double b) { return FcTestUniform(&rng_state, a, b); }

/* No HDF5 file, group or dataset may stay open after a read, successful or not. */
static void AssertNoOpenHDF5(void) { assert_int_equal(H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL), 0); }

/* Random local problem with exact zeros in W (whole coupling blocks, and some single entries). */
static void RandomProblem(int m, FcContactProblem *prob)
{
  const int        n = 3 * m;
  FcContactProblem p;
  assert_int_equal(FcContactProblemCreate(m, &p), 0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double v = Uniform(-1, 1) / n;
      if (i / 3 != j / 3 && Uniform(0, 1) < 0.5) v = 0; /* uncoupled pair of contacts */
      if (i == j) v = 1.0 + Uniform(0, 1);
      p->W[i * n + j] = p->W[j * n + i] = v;
    }
  for (int i = 0; i < n; i++) p->q[i] = Uniform(-1, 1) * pow(10, Uniform(-3, 3)); /* full mantissas, varied exponents */
  for (int a = 0; a < m; a++) p->mu[a] = a % 4 == 0 ? 0.0 : Uniform(0, 1);
  *prob = p;
}

/* Largest difference of W (block by block: either problem dense or block-sparse), q and mu. */
static double MaxDiffProblems(FcContactProblem a, FcContactProblem b)
{
  const int n = 3 * (int)a->m;
  double    d = 0, ba[9], bb[9];
  assert_int_equal(a->m, b->m);
  for (int i = 0; i < (int)a->m; i++)
    for (int j = 0; j < (int)a->m; j++) {
      FcContactProblemGetBlock(a, i, j, ba);
      FcContactProblemGetBlock(b, i, j, bb);
      for (int k = 0; k < 9; k++) d = fmax(d, fabs(ba[k] - bb[k]));
    }
  for (int i = 0; i < n; i++) d = fmax(d, fabs(a->q[i] - b->q[i]));
  for (int k = 0; k < (int)a->m; k++) d = fmax(d, fabs(a->mu[k] - b->mu[k]));
  return d;
}

/* ---- 1. local problems: write, read back identical ---- */
static void test_local_roundtrip(void **state)
{
  double      maxdiff = 0;
  long        zeros = 0, total = 0;
  char        path[512];
  FcFCLIBInfo info = {"fcsim test problem", "random W with exact zeros", "W symmetric positive definite"};
  (void)state;

  snprintf(path, sizeof path, "%s/local.hdf5", tmpdir);
  for (int k = 0; k < 12; k++) {
    const int           m = 1 + 3 * k;
    FcContactProblem    p, r;
    struct fclib_local *L;
    RandomProblem(m, &p);
    for (int i = 0; i < 9 * m * m; i++) zeros += p->W[i] == 0;
    total += 9 * m * m;
    /* writing twice replaces the file (libfclib alone would refuse a second problem) */
    assert_int_equal(FcFCLIBWriteLocal(path, p, &info), 0);
    assert_int_equal(FcFCLIBWriteLocal(path, p, &info), 0);
    assert_int_equal(FcFCLIBReadProblem(path, &r), 0);
    AssertNoOpenHDF5();
    maxdiff = fmax(maxdiff, MaxDiffProblems(p, r));
    /* what is in the file, through libfclib directly: CSC without the zeros, the info strings */
    L = fclib_read_local(path);
    assert_non_null(L);
    assert_int_equal(L->W->nz, -1);
    assert_int_equal(L->W->m, 3 * m);
    assert_int_equal(L->spacedim, 3);
    {
      int nnz = 0;
      for (int i = 0; i < 9 * m * m; i++) nnz += p->W[i] != 0;
      assert_int_equal(L->W->nzmax, nnz);
    }
    assert_non_null(L->info);
    assert_string_equal(L->info->title, info.title);
    assert_string_equal(L->info->description, info.description);
    assert_string_equal(L->info->math_info, info.math_info);
    fclib_delete_local(L);
    free(L);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    assert_int_equal(FcContactProblemDestroy(&r), 0);
  }
  printf("FIGURE fclib local round trip: 12 problems (m = 1..34), %.0f%% exact zeros dropped from W, max |difference| after write+read %.1e\n",
    100.0 * zeros / total, maxdiff);
  assert_true(maxdiff <= 1e-15);
  unlink(path);
}

/* ---- 1b. block-sparse problems: read and written without a dense W, bitwise round trip ---- */

/* Its own random sequence, so that the problems of the other tests stay those of before. */
static uint64_t srng_state = 0x9e3779b97f4a7c15ULL;
static double   SUniform(double a, double b) { return FcTestUniform(&srng_state, a, b); }

/* A block-sparse problem of m contacts, each coupled to the contacts a ± 1 .. a ± k/2 (mod m) and
 * to one at random, with values that make W NOT symmetric (so that the writer's use of the
 * transposed blocks is tested) unless sym; full mantissas, some exact zeros inside blocks. */
static void SparseProblem(int m, int k, PetscBool sym, FcContactProblem *prob)
{
  PetscInt        *ptr = malloc(sizeof(PetscInt) * (m + 1)), *col = malloc(sizeof(PetscInt) * (size_t)m * (k + 1) + 1), nb = 0;
  FcContactProblem p;
  ptr[0] = 0;
  for (int a = 0; a < m; a++) {
    for (int d = 1; d <= k / 2; d++) col[nb++] = (a + d) % m;
    col[nb++] = (int)SUniform(0, m) % m;
    /* a random column may repeat one above or be a: give each block once */
    for (PetscInt t = ptr[a]; t < nb - 1; t++)
      if (col[t] == col[nb - 1] || col[nb - 1] == a) {
        nb--;
        break;
      }
    ptr[a + 1] = nb;
  }
  assert_int_equal(FcContactProblemCreateSparse(m, ptr, col, &p), 0);
  for (PetscInt a = 0; a < m; a++)
    for (PetscInt t = p->bptr[a]; t < p->bptr[a + 1]; t++) {
      const PetscInt b = p->bcol[t];
      if (b < a && sym) continue; /* filled from (b, a) */
      for (int e = 0; e < 9; e++) {
        double v = SUniform(-1, 1) / m;
        if (SUniform(0, 1) < 0.1) v = 0; /* exact zeros within a block */
        if (a == b && e % 4 == 0) v = 1 + SUniform(0, 1);
        p->bval[9 * t + e] = v;
        if (sym) p->bval[9 * p->btr[t] + 3 * (e % 3) + e / 3] = v;
      }
    }
  for (int i = 0; i < 3 * m; i++) p->q[i] = SUniform(-1, 1) * pow(10, SUniform(-3, 3));
  for (int a = 0; a < m; a++) p->mu[a] = SUniform(0, 1);
  free(ptr);
  free(col);
  *prob = p;
}

static void test_sparse_roundtrip(void **state)
{
  const int sizes[4] = {20, 200, 2000, 10000};
  char      path[512];
  long      nblocks     = 0;
  double    maxasym_sym = 0, minasym_ns = INFINITY;
  (void)state;

  snprintf(path, sizeof path, "%s/sparse.hdf5", tmpdir);
  for (int t = 0; t < 8; t++) {
    const int           m   = sizes[t % 4];
    const PetscBool     sym = t < 4 ? PETSC_TRUE : PETSC_FALSE;
    FcContactProblem    p, r;
    PetscReal           asym, wmax;
    PetscInt            ai, aj;
    long                nnz = 0;
    struct fclib_local *L;
    SparseProblem(m, 6, sym, &p);
    assert_true(FcContactProblemPreferSparse(m, p->nb));
    assert_int_equal(FcFCLIBWriteLocal(path, p, NULL), 0);
    assert_int_equal(FcFCLIBReadProblem(path, &r), 0);
    AssertNoOpenHDF5();
    /* the same pattern (every block has a nonzero entry) and the same bits */
    assert_true(FcContactProblemIsSparse(r));
    assert_int_equal(r->nb, p->nb);
    assert_memory_equal(r->bptr, p->bptr, sizeof(PetscInt) * (m + 1));
    assert_memory_equal(r->bcol, p->bcol, sizeof(PetscInt) * p->nb);
    assert_memory_equal(r->bval, p->bval, sizeof(PetscReal) * 9 * p->nb);
    assert_memory_equal(r->q, p->q, sizeof(PetscReal) * 3 * m);
    assert_memory_equal(r->mu, p->mu, sizeof(PetscReal) * m);
    /* in the file: CSC of the nonzero entries, rows increasing in each column */
    L = fclib_read_local(path);
    assert_non_null(L);
    assert_int_equal(L->W->nz, -1);
    for (PetscInt e = 0; e < 9 * p->nb; e++) nnz += p->bval[e] != 0;
    assert_int_equal(L->W->nzmax, nnz);
    for (int j = 0; j < 3 * m; j++)
      for (int e = L->W->p[j] + 1; e < L->W->p[j + 1]; e++) assert_true(L->W->i[e - 1] < L->W->i[e]);
    fclib_delete_local(L);
    free(L);
    FcContactProblemAsymmetry(r, &asym, &wmax, &ai, &aj);
    if (sym) maxasym_sym = fmax(maxasym_sym, asym);
    else {
      double blk[9], blkt[9];
      minasym_ns = fmin(minasym_ns, asym / wmax);
      /* the location given is an entry whose transpose differs by that much */
      FcContactProblemGetBlock(r, ai / 3, aj / 3, blk);
      FcContactProblemGetBlock(r, aj / 3, ai / 3, blkt);
      assert_true(fabs(blk[3 * (ai % 3) + aj % 3] - blkt[3 * (aj % 3) + ai % 3]) == asym);
    }
    nblocks += p->nb;
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    assert_int_equal(FcContactProblemDestroy(&r), 0);
  }
  /* a full W (2 contacts, every block nonzero) stays dense */
  {
    FcContactProblem p;
    assert_int_equal(FcFCLIBReadProblem("tests/bad/fclib/baseline_local.hdf5", &p), 0);
    assert_false(FcContactProblemIsSparse(p));
    assert_int_equal(FcContactProblemDestroy(&p), 0);
  }
  printf(
    "FIGURE fclib sparse round trip: 8 block-sparse problems (m = 20..10000, %ld blocks, 4 with W not symmetric) written as CSC and read back block-sparse with the same pattern and bitwise equal W, q, mu; asymmetry found 0 when symmetric, >= %.2g of max|W| otherwise\n",
    nblocks, minasym_ns);
  assert_true(maxasym_sym == 0);
  assert_true(minasym_ns > 0);
  unlink(path);
}

/* ---- 2. solve, write the solution, read it back ---- */
static void test_solution(void **state)
{
  FcContactProblem     p, r2;
  FcContactSolver      s;
  FcContactSolverStats st;
  double              *r, *u, *rb, *ub, d = 0, err, merit, e_abs, qn = 0, dmerit;
  const int            m = 15;
  char                 path[512];
  FcFCLIBInfo          info = {"solution", NULL, NULL};
  (void)state;

  snprintf(path, sizeof path, "%s/solution.hdf5", tmpdir);
  RandomProblem(m, &p);
  r  = calloc(3 * m, sizeof(double));
  u  = calloc(3 * m, sizeof(double));
  rb = calloc(3 * m, sizeof(double));
  ub = calloc(3 * m, sizeof(double));
  assert_int_equal(FcContactSolverCreate(&s), 0);
  assert_int_equal(FcContactSolverSetType(s, "nsgs"), 0);
  assert_int_equal(FcContactSolverSolve(s, p, r), 0);
  assert_int_equal(FcContactSolverGetStats(s, &st), 0);
  assert_true(st.converged);
  assert_int_equal(FcContactProblemComputeVelocity(p, r, u), 0);
  assert_int_equal(FcFCLIBWriteSolution(path, p, &info, r, NULL), 0);
  assert_int_equal(FcFCLIBReadSolution(path, m, rb, ub), 0);
  AssertNoOpenHDF5();
  for (int i = 0; i < 3 * m; i++) d = fmax(d, fmax(fabs(r[i] - rb[i]), fabs(u[i] - ub[i])));
  /* the solution file holds the problem too */
  assert_int_equal(FcFCLIBReadProblem(path, &r2), 0);
  assert_true(MaxDiffProblems(p, r2) <= 1e-15);
  assert_int_equal(FcContactProblemComputeError(r2, rb, &err), 0);
  /* libfclib's own merit function on the file (the same natural map, normalised by 1 + sqrt‖q‖):
   * on the solution, and on a far-from-solution r where both are O(1) and must agree to rounding */
  {
    struct fclib_local    *L  = fclib_read_local(path);
    struct fclib_solution *S  = fclib_read_solution(path), S0;
    double                *r0 = malloc(sizeof(double) * 3 * m), *u0 = malloc(sizeof(double) * 3 * m), err0, scale0 = 0, q2 = 0, r2 = 0, u2 = 0;
    assert_non_null(L);
    assert_non_null(S);
    merit = fclib_merit_local(L, MERIT_1, S);
    for (int i = 0; i < 3 * m; i++) r0[i] = Uniform(0, 1);
    assert_int_equal(FcContactProblemComputeVelocity(p, r0, u0), 0);
    assert_int_equal(FcContactProblemComputeError(p, r0, &err0), 0);
    for (int i = 0; i < 3 * m; i++) {
      qn += p->q[i] * p->q[i];
      q2 += p->q[i] * p->q[i];
      r2 += r0[i] * r0[i];
      u2 += u0[i] * u0[i];
    }
    scale0 = sqrt(fmax(q2, fmax(r2, u2)));
    S0     = (struct fclib_solution){NULL, u0, r0, NULL};
    e_abs  = fclib_merit_local(L, MERIT_1, &S0) * (1 + sqrt(sqrt(qn))); /* back to sqrt(Σ‖e_a‖²) */
    dmerit = fabs(e_abs - err0 * scale0) / (err0 * scale0);
    fclib_delete_local(L);
    free(L);
    fclib_delete_solutions(S, 1);
    free(r0);
    free(u0);
  }
  printf(
    "FIGURE fclib solution: m = %d, nsgs error %.2e in %d iterations; r, u read back max |difference| %.1e; common error of the file %.2e; libfclib merit %.2e; common error vs libfclib's natural map on a random r: relative difference %.1e\n",
    m, st.error, (int)st.iterations, d, err, merit, dmerit);
  assert_true(d == 0);
  assert_true(err <= 1e-10);
  assert_true(merit <= 1e-9);
  assert_true(dmerit <= 1e-13);

  /* a mismatch of size is an input error */
  {
    FcTestCapture  c;
    char           msg[2048];
    PetscErrorCode ierr;
    FcTestCaptureStart(&c);
    ierr = FcFCLIBReadSolution(path, m + 1, rb, NULL);
    FcTestCaptureStop(&c, msg, sizeof msg);
    FcTestAssertInputError(ierr, msg, "/fclib_local/W/n");
    /* and a problem file without a solution */
    FcTestCaptureStart(&c);
    ierr = FcFCLIBReadSolution("tests/bad/fclib/baseline_local.hdf5", 2, rb, NULL);
    FcTestCaptureStop(&c, msg, sizeof msg);
    FcTestAssertInputError(ierr, msg, "/solution: missing");
    AssertNoOpenHDF5();
  }
  free(r);
  free(u);
  free(rb);
  free(ub);
  unlink(path);
  assert_int_equal(FcContactSolverDestroy(&s), 0);
  assert_int_equal(FcContactProblemDestroy(&p), 0);
  assert_int_equal(FcContactProblemDestroy(&r2), 0);
}

/* ---- 3. global problem: reformulation W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w ---- */
/* Dense matrix to an fclib_matrix in the given storage (-1 CSC, -2 CSR, >= 0 triplets). */
static void ToFclib(int m, int n, const double *A, int storage, struct fclib_matrix *F)
{
  int nnz = 0, k = 0;
  for (int i = 0; i < m * n; i++) nnz += A[i] != 0;
  F->m     = m;
  F->n     = n;
  F->nzmax = nnz;
  F->info  = NULL;
  F->x     = malloc(sizeof(double) * nnz);
  if (storage == -1) {
    F->nz = -1;
    F->p  = malloc(sizeof(int) * (n + 1));
    F->i  = malloc(sizeof(int) * nnz);
    for (int j = 0; j < n; j++) {
      F->p[j] = k;
      for (int i = 0; i < m; i++)
        if (A[i * n + j] != 0) {
          F->i[k]   = i;
          F->x[k++] = A[i * n + j];
        }
    }
    F->p[n] = k;
  } else if (storage == -2) {
    F->nz = -2;
    F->p  = malloc(sizeof(int) * (m + 1));
    F->i  = malloc(sizeof(int) * nnz);
    for (int i = 0; i < m; i++) {
      F->p[i] = k;
      for (int j = 0; j < n; j++)
        if (A[i * n + j] != 0) {
          F->i[k]   = j;
          F->x[k++] = A[i * n + j];
        }
    }
    F->p[m] = k;
  } else {
    F->nz = nnz;
    F->p  = malloc(sizeof(int) * nnz);
    F->i  = malloc(sizeof(int) * nnz);
    for (int i = m - 1; i >= 0; i--) /* any order: reversed rows */
      for (int j = 0; j < n; j++)
        if (A[i * n + j] != 0) {
          F->p[k]   = i;
          F->i[k]   = j;
          F->x[k++] = A[i * n + j];
        }
  }
}

static void FreeFclib(struct fclib_matrix *F)
{
  free(F->p);
  free(F->i);
  free(F->x);
}

static void test_global(void **state)
{
  // clang-format off
  const int storages[3][2] = {
    {-1, -1},
    {-2, 0 },
    {0,  -2}
  };
  // clang-format on
  double maxdev = 0, maxq = 0;
  int    nits = 0;
  char   path[512];
  (void)state;

  for (int t = 0; t < 3; t++) {
    const int            nd = 60 + 10 * t, m = 5 + 2 * t, n = 3 * m;
    double              *M = calloc(nd * nd, sizeof(double)), *L = malloc(sizeof(double) * nd * nd), *H = calloc(nd * n, sizeof(double));
    double              *f = malloc(sizeof(double) * nd), *w = malloc(sizeof(double) * n), *mu = malloc(sizeof(double) * m);
    double              *X = malloc(sizeof(double) * nd * (n + 1)), *col = malloc(sizeof(double) * nd), wscale = 0;
    struct fclib_matrix  FM, FH;
    struct fclib_global  G;
    FcContactProblem     p;
    FcContactSolver      s;
    FcContactSolverStats st;
    double              *r = calloc(n, sizeof(double));

    /* M: a sparse SPD "stiffness": 1-D chain + random long-range springs, diagonally dominant */
    for (int i = 0; i < nd; i++) {
      M[i * nd + i] += 2.0 + Uniform(0, 1);
      if (i + 1 < nd) {
        const double k = Uniform(0.2, 1);
        M[i * nd + i + 1] -= k;
        M[(i + 1) * nd + i] -= k;
        M[i * nd + i] += k;
        M[(i + 1) * nd + i + 1] += k;
      }
    }
    for (int e = 0; e < nd / 2; e++) {
      const int    a = (int)Uniform(0, nd), b = (int)Uniform(0, nd);
      const double k = Uniform(0.1, 0.5);
      if (a == b) continue;
      M[a * nd + b] -= k;
      M[b * nd + a] -= k;
      M[a * nd + a] += k;
      M[b * nd + b] += k;
    }
    /* H: each contact row touches 4 DoFs */
    for (int j = 0; j < n; j++)
      for (int k = 0; k < 4; k++) H[(int)Uniform(0, nd) * n + j] = Uniform(-1, 1);
    for (int i = 0; i < nd; i++) f[i] = Uniform(-1, 1);
    for (int i = 0; i < n; i++) w[i] = Uniform(-1, 1);
    for (int a = 0; a < m; a++) mu[a] = Uniform(0, 1);

    ToFclib(nd, nd, M, storages[t][0], &FM);
    ToFclib(nd, n, H, storages[t][1], &FH);
    G = (struct fclib_global){&FM, &FH, NULL, mu, f, NULL, w, 3, NULL};
    snprintf(path, sizeof path, "%s/global%d.hdf5", tmpdir, t);
    unlink(path);
    assert_int_equal(fclib_write_global(&G, path), 1);
    FreeFclib(&FM);
    FreeFclib(&FH);

    assert_int_equal(FcFCLIBReadProblem(path, &p), 0);
    AssertNoOpenHDF5();
    assert_int_equal(p->m, m);

    /* dense reference */
    memcpy(L, M, sizeof(double) * nd * nd);
    assert_int_equal(FcTestCholesky(nd, L), 0);
    for (int j = 0; j <= n; j++) {
      for (int i = 0; i < nd; i++) col[i] = j < n ? H[i * n + j] : f[i];
      FcTestCholeskySolve(nd, L, col);
      for (int i = 0; i < nd; i++) X[i * (n + 1) + j] = col[i];
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double v = 0;
        for (int k = 0; k < nd; k++) v += H[k * n + i] * X[k * (n + 1) + j];
        wscale = fmax(wscale, fabs(v));
      }
    for (int i = 0; i < n; i++) {
      double qv = w[i];
      for (int k = 0; k < nd; k++) qv += H[k * n + i] * X[k * (n + 1) + n];
      maxq = fmax(maxq, fabs(qv - p->q[i]) / fmax(1, fabs(qv)));
      for (int j = 0; j < n; j++) {
        double v = 0;
        for (int k = 0; k < nd; k++) v += H[k * n + i] * X[k * (n + 1) + j];
        maxdev = fmax(maxdev, fabs(v - p->W[i * n + j]) / wscale);
      }
    }
    for (int a = 0; a < m; a++) assert_true(p->mu[a] == mu[a]);

    /* and the reformulated problem is solvable */
    assert_int_equal(FcContactSolverCreate(&s), 0);
    assert_int_equal(FcContactSolverSolve(s, p, r), 0);
    assert_int_equal(FcContactSolverGetStats(s, &st), 0);
    assert_true(st.converged);
    nits += (int)st.iterations;
    assert_int_equal(FcContactSolverDestroy(&s), 0);

    assert_int_equal(FcContactProblemDestroy(&p), 0);
    free(M);
    free(L);
    free(H);
    free(f);
    free(w);
    free(mu);
    free(X);
    free(col);
    free(r);
    unlink(path);
  }
  /* the h5py-written baselines of tests/bad/fclib read too */
  {
    FcContactProblem p;
    assert_int_equal(FcFCLIBReadProblem("tests/bad/fclib/baseline_local.hdf5", &p), 0);
    assert_int_equal(p->m, 2);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    assert_int_equal(FcFCLIBReadProblem("tests/bad/fclib/baseline_global.hdf5", &p), 0);
    assert_int_equal(p->m, 2);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    AssertNoOpenHDF5();
  }
  printf(
    "FIGURE fclib global: 3 problems (M SPD sparse 60-80 DoFs in CSC/CSR, H in CSC/triplets/CSR), max |W - H^T M^-1 H| / max|W| %.1e, max q deviation %.1e; nsgs on them: %d iterations in all\n",
    maxdev, maxq, nits);
  assert_true(maxdev <= 1e-10);
  assert_true(maxq <= 1e-10);
}

/* ---- 4. triplet conventions (issue 12): what the reader makes of a non-symmetric M ---- */
/* A 1-D dataset of n ints or doubles at path (its groups created before). */
static void WriteDataset(hid_t fid, const char *path, hid_t type, int n, const void *buf)
{
  hsize_t dim = (hsize_t)n;
  hid_t   sid = H5Screate_simple(1, &dim, NULL), did;
  assert_true(sid >= 0);
  did = H5Dcreate2(fid, path, type, sid, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(did >= 0);
  assert_true(H5Dwrite(did, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
  H5Dclose(did);
  H5Sclose(sid);
}

/* The dense m x n matrix A (row-major) as a matrix group: storage -1 CSC, or triplets in fclib.h's
 * convention (csparse 0: p rows, i columns) or CSparse's (csparse 1: i rows, p columns), with
 * nzmax = nz + 3 and arrays of nz entries. */
static void WriteMatrixGroup(hid_t fid, const char *grp, int m, int n, const double *A, int storage, int csparse)
{
  struct fclib_matrix F;
  char                path[256];
  int                 nzmax;
  hid_t               gid = H5Gcreate2(fid, grp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(gid >= 0);
  H5Gclose(gid);
  ToFclib(m, n, A, storage, &F);
  nzmax = F.nzmax + (storage >= 0 ? 3 : 0);
  if (storage >= 0 && csparse) {
    int *t = F.p;
    F.p    = F.i;
    F.i    = t;
  }
  snprintf(path, sizeof path, "%s/nzmax", grp);
  WriteDataset(fid, path, H5T_NATIVE_INT, 1, &nzmax);
  snprintf(path, sizeof path, "%s/m", grp);
  WriteDataset(fid, path, H5T_NATIVE_INT, 1, &m);
  snprintf(path, sizeof path, "%s/n", grp);
  WriteDataset(fid, path, H5T_NATIVE_INT, 1, &n);
  snprintf(path, sizeof path, "%s/nz", grp);
  WriteDataset(fid, path, H5T_NATIVE_INT, 1, &F.nz);
  snprintf(path, sizeof path, "%s/p", grp);
  WriteDataset(fid, path, H5T_NATIVE_INT, storage == -1 ? n + 1 : F.nzmax, F.p);
  snprintf(path, sizeof path, "%s/i", grp);
  WriteDataset(fid, path, H5T_NATIVE_INT, F.nzmax, F.i);
  snprintf(path, sizeof path, "%s/x", grp);
  WriteDataset(fid, path, H5T_NATIVE_DOUBLE, F.nzmax, F.x);
  FreeFclib(&F);
}

/* A global problem (nd DoFs, H nd x 3m) with M and H in the given storages. */
static void WriteGlobalFile(const char *path, int nd, int m, const double *M, const double *H, int mstorage, int hstorage, int csparse)
{
  const int three = 3;
  double   *v     = calloc((size_t)nd, sizeof(double));
  hid_t     fid;
  unlink(path);
  fid = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  assert_true(fid >= 0);
  H5Gclose(H5Gcreate2(fid, "/fclib_global", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Gclose(H5Gcreate2(fid, "/fclib_global/vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  WriteDataset(fid, "/fclib_global/spacedim", H5T_NATIVE_INT, 1, &three);
  WriteMatrixGroup(fid, "/fclib_global/M", nd, nd, M, mstorage, csparse);
  WriteMatrixGroup(fid, "/fclib_global/H", nd, 3 * m, H, hstorage, csparse);
  WriteDataset(fid, "/fclib_global/vectors/f", H5T_NATIVE_DOUBLE, nd, v);
  WriteDataset(fid, "/fclib_global/vectors/w", H5T_NATIVE_DOUBLE, 3 * m, v);
  WriteDataset(fid, "/fclib_global/vectors/mu", H5T_NATIVE_DOUBLE, m, v);
  H5Fclose(fid);
  free(v);
}

/* max |B - A| over the dense m x n A (row-major) and the PETSc matrix B. */
static double MaxDiffMat(Mat B, int m, int n, const double *A)
{
  double d = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      PetscInt    r = i, c = j;
      PetscScalar v;
      assert_int_equal(MatGetValues(B, 1, &r, 1, &c, &v), 0);
      d = fmax(d, fabs(v - A[i * n + j]));
    }
  return d;
}

/* M not symmetric (the global form of sap accepts it, symmetrizing with a warning), H 8 x 6 with
 * an entry in row 7 >= 6 columns. In triplets, M's two readings are M and Mᵀ: M must come out as
 * written, in the convention H's ranges reveal, whichever it is; with H compressed nothing tells,
 * and the file is refused. With -v, one line per matrix. */
static void test_conventions(void **state)
{
  const int nd = 8, m = 2, n   = 3 * m;
  double    M[64], H[48], dmax = 0, asym = 0;
  char      path[512], msg[4096];
  int       nread = 0;
  (void)state;

  for (int i = 0; i < nd; i++)
    for (int j = 0; j < nd; j++) M[i * nd + j] = i == j ? 4.0 + i : (j == i + 1 ? -1.0 : (j == i - 1 ? -0.5 : (i == 0 && j == 5 ? 0.25 : 0.0)));
  for (int i = 0; i < nd; i++)
    for (int j = 0; j < n; j++) H[i * n + j] = (i + 1) % nd == j || i == 7 - j / 3 ? 1.0 + 0.1 * i - 0.05 * j : 0.0;
  for (int i = 0; i < nd; i++)
    for (int j = 0; j < nd; j++) asym = fmax(asym, fabs(M[i * nd + j] - M[j * nd + i]));
  assert_true(asym >= 0.25); /* a transposed M would show */
  snprintf(path, sizeof path, "%s/conventions.hdf5", tmpdir);
  for (int csparse = 0; csparse < 2; csparse++) {
    FcContactProblem p  = NULL;
    FcGlobalProblem  gp = NULL;
    FcTestCapture    c;
    WriteGlobalFile(path, nd, m, M, H, 0, 0, csparse);
    FcVerbosity = 2;
    FcTestCaptureStart(&c);
    assert_int_equal(FcFCLIBRead(path, &p, &gp), 0);
    FcTestCaptureStop(&c, msg, sizeof msg);
    FcVerbosity = 1;
    assert_null(p);
    assert_non_null(gp);
    dmax = fmax(dmax, fmax(MaxDiffMat(gp->M, nd, nd, M), MaxDiffMat(gp->H, nd, n, H)));
    printf("  %s", msg);
    assert_int_equal(FcTestCountLines(msg), 2);
    assert_non_null(strstr(msg,
      csparse ? "/fclib_global/H: triplet, CSparse convention (i rows, p columns) (the only reading whose indices fit 8 x 6)"
              : "/fclib_global/H: triplet, FCLIB convention (p rows, i columns) (the only reading whose indices fit 8 x 6)"));
    assert_non_null(strstr(msg,
      csparse ? "/fclib_global/M: triplet, CSparse convention (i rows, p columns) (as /fclib_global/H revealed)"
              : "/fclib_global/M: triplet, FCLIB convention (p rows, i columns) (as /fclib_global/H revealed)"));
    assert_int_equal(FcGlobalProblemDestroy(&gp), 0);
    AssertNoOpenHDF5();
    nread++;
  }
  /* H in compressed columns: M's convention cannot be decided */
  for (int csparse = 0; csparse < 2; csparse++) {
    FcContactProblem p  = NULL;
    FcGlobalProblem  gp = NULL;
    FcTestCapture    c;
    PetscErrorCode   ierr;
    WriteGlobalFile(path, nd, m, M, H, 0, -1, csparse);
    FcTestCaptureStart(&c);
    ierr = FcFCLIBRead(path, &p, &gp);
    FcTestCaptureStop(&c, msg, sizeof msg);
    FcTestAssertInputError(ierr, msg, path);
    assert_non_null(strstr(msg, "/fclib_global/M: triplet convention cannot be decided (square, not symmetric"));
    assert_null(gp);
    AssertNoOpenHDF5();
  }
  unlink(path);
  printf(
    "FIGURE fclib conventions: a non-symmetric M (max |M - M^T| = %.2f) in triplets read in both conventions, H revealing which: max |read - written| over M and H %.1e in %d files; with H compressed, refused as undecidable\n",
    asym, dmax, nread);
  assert_true(dmax == 0); /* the doubles of the file, placed: no arithmetic */
}

/* ---- 5. malformed files ---- */
static void test_bad_files(void **state)
{
  FILE *man = fopen("tests/bad/fclib/MANIFEST", "r");
  char  line[1024];
  int   nfiles = 0;
  (void)state;

  assert_non_null(man);
  while (fgets(line, sizeof line, man)) {
    char            *bar, path[1200], msg[4096];
    FcContactProblem p = NULL;
    FcTestCapture    c;
    PetscErrorCode   ierr;
    line[strcspn(line, "\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    bar = strchr(line, '|');
    assert_non_null(bar);
    *bar = 0;
    snprintf(path, sizeof path, "tests/bad/fclib/%s", line);
    FcTestCaptureStart(&c);
    ierr = FcFCLIBReadProblem(path, &p);
    FcTestCaptureStop(&c, msg, sizeof msg);
    if (ierr != FC_ERR_INPUT || FcTestCountLines(msg) != 1 || !strstr(msg, path) || !strstr(msg, bar + 1))
      printf("%s: error %d, expected '%s', got:\n%s", path, (int)ierr, bar + 1, msg);
    assert_int_equal(ierr, FC_ERR_INPUT);
    assert_null(p);
    assert_int_equal(FcTestCountLines(msg), 1);
    assert_non_null(strstr(msg, path));
    assert_non_null(strstr(msg, bar + 1));
    AssertNoOpenHDF5();
    if (nfiles < 3 || strstr(line, "not_square")) printf("  %s", msg);
    nfiles++;
  }
  fclose(man);
  /* a missing file, a directory */
  {
    const char      *paths[2] = {"tests/bad/fclib/no_such_file.hdf5", "tests/bad/fclib"};
    const char      *subs[2]  = {"no such file", "not an HDF5 file"};
    FcContactProblem p        = NULL;
    for (int k = 0; k < 2; k++) {
      FcTestCapture  c;
      char           msg[4096];
      PetscErrorCode ierr;
      FcTestCaptureStart(&c);
      ierr = FcFCLIBReadProblem(paths[k], &p);
      FcTestCaptureStop(&c, msg, sizeof msg);
      FcTestAssertInputError(ierr, msg, paths[k]);
      assert_non_null(strstr(msg, subs[k]));
      nfiles++;
    }
  }
  /* an output that cannot be created */
  {
    FcContactProblem p;
    FcTestCapture    c;
    char             msg[4096];
    PetscErrorCode   ierr;
    RandomProblem(2, &p);
    FcTestCaptureStart(&c);
    ierr = FcFCLIBWriteLocal("/nonexistent_dir/out.hdf5", p, NULL);
    FcTestCaptureStop(&c, msg, sizeof msg);
    FcTestAssertInputError(ierr, msg, "/nonexistent_dir/out.hdf5");
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    AssertNoOpenHDF5();
  }
  printf(
    "FIGURE fclib bad input: %d malformed or missing files, each FC_ERR_INPUT with one stderr line naming the file and the dataset, no HDF5 object left open\n",
    nfiles);
}

/* The bytes of a file, NULL if it cannot be read. */
static unsigned char *Slurp(const char *path, long *n)
{
  FILE          *f = fopen(path, "rb");
  unsigned char *b = NULL;

  *n = 0;
  if (!f) return NULL;
  if (!fseek(f, 0, SEEK_END) && (*n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) && (b = malloc((size_t)*n)) && fread(b, 1, (size_t)*n, f) != (size_t)*n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  return b;
}

/* Damaged files (issue 17): every byte of the two baselines, and every 4th of a solution file,
 * flipped in turn (one bit, which varies with the offset). Each read is either an input error, one stderr
 * line naming the file and nothing of HDF5's own diagnostics, or a problem (a solution) read
 * whole with finite values; no HDF5 object stays open either way. */
static void test_damaged_files(void **state)
{
  const char *srcs[3] = {"tests/bad/fclib/baseline_local.hdf5", "tests/bad/fclib/baseline_global.hdf5", NULL};
  char        path[512], sol[512], msg[4096];
  int         nerr = 0, nok = 0, nflips = 0;
  (void)state;

  snprintf(path, sizeof path, "%s/damaged.hdf5", tmpdir);
  snprintf(sol, sizeof sol, "%s/damaged_solution.hdf5", tmpdir);
  {
    FcContactProblem p;
    const double     r[6] = {1, 0.1, 0, 0.5, 0, 0.2};
    assert_int_equal(FcFCLIBReadProblem(srcs[0], &p), 0);
    assert_int_equal(FcFCLIBWriteSolution(sol, p, NULL, r, NULL), 0);
    assert_int_equal(FcContactProblemDestroy(&p), 0);
    srcs[2] = sol;
  }
  for (int f = 0; f < 3; f++) {
    long           n;
    unsigned char *b = Slurp(srcs[f], &n);
    assert_non_null(b);
    for (long off = 0; off < n; off += f < 2 ? 1 : 4, nflips++) { /* the solution file: a sample */
      FILE            *o;
      FcContactProblem p = NULL;
      double           r[6], u[6];
      FcTestCapture    c;
      PetscErrorCode   ierr;
      b[off] ^= (unsigned char)(1u << (off % 8));
      o = fopen(path, "wb");
      assert_non_null(o);
      assert_int_equal(fwrite(b, 1, (size_t)n, o), (size_t)n);
      fclose(o);
      b[off] ^= (unsigned char)(1u << (off % 8));
      FcTestCaptureStart(&c);
      ierr = f < 2 ? FcFCLIBReadProblem(path, &p) : FcFCLIBReadSolution(path, 2, r, u);
      FcTestCaptureStop(&c, msg, sizeof msg);
      if (ierr) {
        if (ierr != FC_ERR_INPUT || FcTestCountLines(msg) != 1 || !strstr(msg, path) || strstr(msg, "HDF5-DIAG") || strstr(msg, "#000"))
          printf("%s byte %ld: error %d, stderr:\n%s", srcs[f], off, (int)ierr, msg);
        FcTestAssertInputError(ierr, msg, path);
        assert_null(strstr(msg, "HDF5-DIAG"));
        assert_null(p);
        nerr++;
      } else {
        /* a flipped bit in an off-diagonal entry of M may leave it symmetric to within a
         * producer's round-off (problem.h): accepted, with its one warning line */
        if (FcTestCountLines(msg)) assert_non_null(strstr(msg, "/fclib_global/M: warning: symmetric only to"));
        assert_true(FcTestCountLines(msg) <= 1);
        if (f < 2) {
          assert_int_equal(p->m, 2);
          for (int i = 0; i < 36; i++) assert_false(isnan(p->W[i]) || isinf(p->W[i]));
          for (int i = 0; i < 6; i++) assert_false(isnan(p->q[i]) || isinf(p->q[i]));
          for (int a = 0; a < 2; a++) assert_true(p->mu[a] >= 0 && !isinf(p->mu[a]));
          assert_int_equal(FcContactProblemDestroy(&p), 0);
        } else
          for (int i = 0; i < 6; i++) assert_false(isnan(r[i]) || isinf(r[i]) || isnan(u[i]) || isinf(u[i]));
        nok++;
      }
      AssertNoOpenHDF5();
    }
    free(b);
  }
  unlink(path);
  unlink(sol);
  printf(
    "FIGURE fclib damaged files: %d one-bit flips (every byte of the local and global baselines, every 4th of a solution file): %d input errors of one line, %d read whole and finite, no HDF5 object left open\n",
    nflips, nerr, nok);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_local_roundtrip),
    cmocka_unit_test(test_solution),
    cmocka_unit_test(test_global),
    cmocka_unit_test(test_conventions),
    cmocka_unit_test(test_bad_files),
    cmocka_unit_test(test_damaged_files),
    cmocka_unit_test(test_sparse_roundtrip),
  };
  // clang-format on
  int failures;

  FcMPIEnvPrepare();
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FcPushErrorHandler());
  PetscCall(FcContactSolverRegisterAll());
  snprintf(tmpdir, sizeof tmpdir, "/tmp/fcsim_test_fclib_XXXXXX");
  if (!mkdtemp(tmpdir)) return 1;
  failures = cmocka_run_group_tests(tests, NULL, NULL);
  if (!failures) rmdir(tmpdir);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscFinalize());
  return failures;
}
