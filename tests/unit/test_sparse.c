/* Unit test of the block-sparse Delassus operator (src/contact/problem.h, doc/contact.md
 * "Storage of W"):
 *  1. storage: the pattern given to FcContactProblemCreateSparse is sorted, made structurally
 *     symmetric and given its diagonal; dense → sparse → dense is exact and drops exact-zero
 *     blocks; u = W r + q, the symmetry test, the column update and the diagonal blocks agree
 *     between the forms; a block outside W and a block given twice are refused.
 *  2. every registered solver type on the random problems of test_contact.c (dense W, every block
 *     nonzero) and on block-sparse random problems (contacts in groups coupled only within a group,
 *     and contacts on shared rigid bodies), in both storages: the same r and the same common error.
 *  3. the automatic choice of storage by fill.
 *  4. a 10 000-contact problem, about 20 coupled contacts per contact, stored sparse and solved by
 *     nsgs: W's storage below 100 MB (its dense form: 7.2 GB).
 *  5. the global reformulation W = Hᵀ M⁻¹ H (src/contact/global_problem.c) of a multi-body
 *     problem built block-sparse: the blocks of the contacts that share a body, the same W, q and
 *     r as the dense reformulation.
 * Each test prints its key figure on a line starting with "FIGURE ". */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "testutil.h"
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/contact/solver.h"
#include "../../src/contact/global_problem.h"
#include "../../src/contact/solvers/sap/sap.h"

static uint64_t rng_state = 0x5eed5a75e0001ULL;
static double   Uniform(double a, double b) { return FcTestUniform(&rng_state, a, b); }

/* ---- block-sparse random problems ---- */

/* Contacts in groups: each group is a random problem of FcTestRandomProblem (W = J A⁻¹ Jᵀ, SPD),
 * the groups' contacts interleaved by a random permutation, no coupling between groups. W is then
 * block-sparse with a scattered pattern; exact zeros outside the groups. Returned dense. */
static void GroupProblem(int ngroups, int gmax, int symmetrize, FcContactProblem *prob)
{
  FcContactProblem *g    = malloc(sizeof(*g) * (size_t)ngroups);
  int              *size = malloc(sizeof(int) * (size_t)ngroups), m = 0, *perm, off = 0;
  FcContactProblem  p;
  size_t            n;

  for (int k = 0; k < ngroups; k++) {
    size[k] = 1 + (int)Uniform(0, gmax);
    if (size[k] > gmax) size[k] = gmax;
    FcTestRandomProblem(&rng_state, size[k], symmetrize ? FC_TEST_W_MEAN : FC_TEST_W_AS_COMPUTED, 1.0, 0, &g[k]);
    m += size[k];
  }
  perm = malloc(sizeof(int) * (size_t)m);
  for (int i = 0; i < m; i++) perm[i] = i;
  for (int i = m - 1; i > 0; i--) { /* Fisher–Yates */
    const int j = (int)Uniform(0, i + 1 - 1e-12), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  CHK(FcContactProblemCreate(m, &p));
  n = 3 * (size_t)m;
  for (int k = 0; k < ngroups; k++) {
    const int    gm = size[k];
    const size_t gn = 3 * (size_t)gm;
    for (int a = 0; a < gm; a++) {
      const int A = perm[off + a];
      for (int i = 0; i < 3; i++) p->q[3 * A + i] = g[k]->q[3 * a + i];
      p->mu[A] = g[k]->mu[a];
      for (int b = 0; b < gm; b++) {
        const int B = perm[off + b];
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) p->W[(3 * (size_t)A + i) * n + 3 * (size_t)B + j] = g[k]->W[(3 * (size_t)a + i) * gn + 3 * (size_t)b + j];
      }
    }
    off += gm;
    CHK(FcContactProblemDestroy(&g[k]));
  }
  free(perm);
  free(size);
  free(g);
  *prob = p;
}

/* Contacts between rigid bodies (the coupling of the issue: two contacts couple when they share a
 * body). Contact c joins body β1 = c mod nbody and a neighbour β2 = β1 + 1 + (0..2) (mod nbody), with
 * a random 3×6 Jacobian per body J_cβ (sign + on β1, − on β2) and a random diagonal inverse mass
 * M_β⁻¹ ∈ [0.5, 2]^6:
 *
 *     W_ab = Σ_{β shared} s_aβ s_bβ J_aβ M_β⁻¹ J_bβᵀ + c I δ_ab      (W = H M⁻¹ Hᵀ + C)
 *
 * with a contact compliance c > 0 (W positive definite; W = H M⁻¹ Hᵀ alone is singular when
 * 3m > 6 nbody). q ∈ [−1, 1]^{3m}, μ ∈ [0, mu_max]. Built sparse directly (never dense). */
static void BodiesProblem(int m, int nbody, double compliance, double mu_max, FcContactProblem *prob)
{
  int             *body = malloc(sizeof(int) * 2 * (size_t)m), *cnt = calloc((size_t)nbody + 1, sizeof(int)), *list, *fill;
  double          *J = malloc(sizeof(double) * 36 * (size_t)m), *minv = malloc(sizeof(double) * 6 * (size_t)nbody);
  PetscInt        *ptr = malloc(sizeof(PetscInt) * ((size_t)m + 1)), *col, ncol = 0;
  int             *mark = malloc(sizeof(int) * (size_t)m);
  FcContactProblem p;

  for (int c = 0; c < m; c++) {
    body[2 * c]     = c % nbody;
    body[2 * c + 1] = (c % nbody + 1 + (int)Uniform(0, 2.999)) % nbody;
    for (int i = 0; i < 36; i++) J[36 * c + i] = Uniform(-1, 1);
    cnt[body[2 * c] + 1]++;
    cnt[body[2 * c + 1] + 1]++;
  }
  for (int b = 0; b < nbody; b++) {
    cnt[b + 1] += cnt[b];
    for (int k = 0; k < 6; k++) minv[6 * b + k] = Uniform(0.5, 2);
  }
  list = malloc(sizeof(int) * 2 * (size_t)m);
  fill = malloc(sizeof(int) * (size_t)nbody);
  for (int b = 0; b < nbody; b++) fill[b] = cnt[b];
  for (int c = 0; c < m; c++)
    for (int e = 0; e < 2; e++) list[fill[body[2 * c + e]]++] = c;
  /* pattern: the contacts on either body of c */
  col = malloc(sizeof(PetscInt) * (size_t)m * 2 * (size_t)(2 * m / nbody + 8));
  for (int c = 0; c < m; c++) mark[c] = -1;
  ptr[0] = 0;
  for (int c = 0; c < m; c++) {
    for (int e = 0; e < 2; e++) {
      const int b = body[2 * c + e];
      for (int k = cnt[b]; k < cnt[b + 1]; k++)
        if (mark[list[k]] != c) {
          mark[list[k]] = c;
          col[ncol++]   = list[k];
        }
    }
    ptr[c + 1] = ncol;
  }
  CHK(FcContactProblemCreateSparse(m, ptr, col, &p));
  for (int c = 0; c < m; c++) {
    for (int e = 0; e < 2; e++) {
      const int    b  = body[2 * c + e];
      const double sa = e ? -1 : 1, *Ja = J + 36 * c + 18 * e;
      for (int k = cnt[b]; k < cnt[b + 1]; k++) {
        const int      d  = list[k];
        const int      ed = body[2 * d] == b ? 0 : 1;
        const double   sb = ed ? -1 : 1, *Jb = J + 36 * d + 18 * ed;
        const PetscInt kb = FcContactProblemFindBlock(p, c, d);
        assert_true(kb >= 0);
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int l = 0; l < 6; l++) s += Ja[6 * i + l] * minv[6 * b + l] * Jb[6 * j + l];
            p->bval[9 * kb + 3 * i + j] += sa * sb * s;
          }
      }
    }
    for (int i = 0; i < 3; i++) p->bval[9 * p->bdiag[c] + 4 * i] += compliance;
    for (int i = 0; i < 3; i++) p->q[3 * c + i] = Uniform(-1, 1);
    p->mu[c] = Uniform(0, mu_max);
  }
  free(body);
  free(cnt);
  free(list);
  free(fill);
  free(J);
  free(minv);
  free(ptr);
  free(col);
  free(mark);
  *prob = p;
}

/* ---- 1. storage ---- */
static void test_storage(void **state)
{
  /* 4 contacts; given: row 0 → {2, 0}, row 1 → {}, row 3 → {1}: stored pattern symmetric with
   * every diagonal block: 0:{0,2} 1:{1,3} 2:{0,2} 3:{1,3} */
  const PetscInt   ptr[5] = {0, 2, 2, 2, 3}, col[3] = {2, 0, 1}, expect_ptr[5] = {0, 2, 4, 6, 8}, expect_col[8] = {0, 2, 1, 3, 0, 2, 1, 3};
  const PetscInt   bad_ptr[3] = {0, 2, 2}, bad_col[2] = {1, 5}, dup_col[2] = {1, 1};
  FcContactProblem p, d, s2, d2;
  PetscErrorCode   ierr;
  double           maxdev = 0, r[12], u1[12], u2[12];
  (void)state;

  CHK(FcContactProblemCreateSparse(4, ptr, col, &p));
  assert_true(FcContactProblemIsSparse(p));
  assert_int_equal(p->nb, 8);
  for (int i = 0; i < 5; i++) assert_int_equal(p->bptr[i], expect_ptr[i]);
  for (int i = 0; i < 8; i++) assert_int_equal(p->bcol[i], expect_col[i]);
  for (int a = 0; a < 4; a++) assert_int_equal(p->bcol[p->bdiag[a]], a);
  for (int a = 0; a < 4; a++)
    for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) { /* btr: the transposed block */
      const PetscInt t = p->btr[k];
      assert_int_equal(p->bcol[t], a);
      assert_true(t >= p->bptr[p->bcol[k]] && t < p->bptr[p->bcol[k] + 1]);
    }
  assert_int_equal(FcContactProblemFindBlock(p, 0, 1), -1);
  assert_int_equal(FcContactProblemFindBlock(p, 3, 1), 6);
  /* storage: 8 blocks × (72 + 2·4) + (2·4 + 1)·4 bytes */
  assert_int_equal(FcContactProblemStorageBytes(p), 8 * (72 + 2 * (PetscInt64)sizeof(PetscInt)) + 9 * (PetscInt64)sizeof(PetscInt));
  /* non-symmetric values: IsSymmetric false; sparse → dense → sparse exact */
  for (PetscInt i = 0; i < 9 * p->nb; i++) p->bval[i] = Uniform(-1, 1);
  for (int i = 0; i < 12; i++) p->q[i] = Uniform(-1, 1);
  assert_false(FcContactProblemIsSymmetric(p));
  CHK(FcContactProblemConvert(p, FC_CONTACT_W_DENSE, &d));
  assert_false(FcContactProblemIsSparse(d));
  assert_false(FcContactProblemIsSymmetric(d));
  assert_int_equal(FcContactProblemCountBlocks(d), 8);
  CHK(FcContactProblemConvert(d, FC_CONTACT_W_SPARSE, &s2));
  assert_int_equal(s2->nb, 8);
  assert_memory_equal(s2->bval, p->bval, 9 * 8 * sizeof(PetscReal));
  /* u = W r + q and the column update agree (same sums in the same order: exactly) */
  for (int i = 0; i < 12; i++) r[i] = Uniform(-1, 1);
  CHK(FcContactProblemComputeVelocity(p, r, u1));
  CHK(FcContactProblemComputeVelocity(d, r, u2));
  assert_memory_equal(u1, u2, sizeof u1);
  for (int sym = 0; sym < 2; sym++)
    for (int a = 0; a < 4; a++) {
      const double dd[3] = {Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1)};
      FcContactProblemAddColumn(p, (PetscBool)sym, a, dd, u1);
      FcContactProblemAddColumn(d, (PetscBool)sym, a, dd, u2);
      assert_memory_equal(u1, u2, sizeof u1);
    }
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) {
      double B1[9], B2[9];
      FcContactProblemGetBlock(p, a, b, B1);
      FcContactProblemGetBlock(d, a, b, B2);
      for (int i = 0; i < 9; i++) maxdev = fmax(maxdev, fabs(B1[i] - B2[i]));
    }
  assert_true(maxdev == 0);
  /* symmetric values: exact zeros dropped by dense → sparse, symmetry seen by both */
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) d->W[(size_t)(3 * a + i) * 12 + 3 * b + j] = a == b ? (i == j ? 2.0 : 0.1) : (a + b == 3 ? 0.01 * (1 + i + j) : 0.0);
  assert_true(FcContactProblemIsSymmetric(d));
  assert_int_equal(FcContactProblemCountBlocks(d), 8); /* diagonal + (0,3),(3,0),(1,2),(2,1) */
  CHK(FcContactProblemConvert(d, FC_CONTACT_W_SPARSE, &d2));
  assert_int_equal(d2->nb, 8);
  assert_int_equal(FcContactProblemFindBlock(d2, 0, 2), -1);
  assert_true(FcContactProblemFindBlock(d2, 0, 3) >= 0);
  assert_true(FcContactProblemIsSymmetric(d2));
  d2->bval[9 * FcContactProblemFindBlock(d2, 1, 2) + 1] *= 1 + 1e-15; /* one entry off by a few ulp: not symmetric */
  assert_false(FcContactProblemIsSymmetric(d2));
  CHK(FcContactProblemDestroy(&d2));
  CHK(FcContactProblemDestroy(&s2));
  CHK(FcContactProblemDestroy(&d));
  CHK(FcContactProblemDestroy(&p));
  /* m = 0 */
  CHK(FcContactProblemCreateSparse(0, NULL, NULL, &p));
  assert_int_equal(p->nb, 0);
  CHK(FcContactProblemDestroy(&p));
  /* a block outside W, a block given twice: errors, nothing allocated (-malloc_dump) */
  CHK(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FcContactProblemCreateSparse(2, bad_ptr, bad_col, &p);
  assert_int_equal(ierr, PETSC_ERR_ARG_OUTOFRANGE);
  assert_null(p);
  ierr = FcContactProblemCreateSparse(2, bad_ptr, dup_col, &p);
  assert_int_equal(ierr, PETSC_ERR_ARG_WRONG);
  assert_null(p);
  CHK(PetscPopErrorHandler());
  printf(
    "FIGURE sparse storage: pattern made symmetric with its diagonal (3 given blocks -> 8 stored), dense <-> sparse exact, u = W r + q and u += W_:,a d identical in both forms\n");
}

/* ---- 2. every solver, dense and sparse W ---- */

typedef struct {
  const char *type;
  double      tol;
  PetscInt    max_it;
  double      max_rdev, max_edev;
  int         nsolves, nconv, nsame_it;
} SolverRun;

/* Solve p (dense) and its sparse copy with solver s; accumulate the differences in run. */
static void CompareStorages(FcContactSolver s, FcContactProblem pd, SolverRun *run)
{
  const int            n = 3 * (int)pd->m;
  FcContactProblem     ps;
  FcContactSolverStats sd, ss;
  double              *rd = calloc((size_t)n + 1, sizeof(double)), *rs = calloc((size_t)n + 1, sizeof(double)), err;

  CHK(FcContactProblemConvert(pd, FC_CONTACT_W_SPARSE, &ps));
  assert_true(FcContactProblemIsSparse(ps));
  CHK(FcContactSolverSolve(s, pd, rd));
  CHK(FcContactSolverGetStats(s, &sd));
  CHK(FcContactSolverSolve(s, ps, rs));
  CHK(FcContactSolverGetStats(s, &ss));
  /* the error the object reports on the sparse problem is the common error on the dense one */
  CHK(FcContactProblemComputeError(pd, rs, &err));
  run->max_rdev = fmax(run->max_rdev, FcTestDist(n, rd, rs) / fmax(FcTestNorm(n, rd), DBL_MIN));
  run->max_edev = fmax(run->max_edev, fmax(fabs(sd.error - ss.error), fabs(err - ss.error)));
  assert_int_equal(sd.reason, ss.reason);
  run->nsolves++;
  run->nconv += sd.converged;
  run->nsame_it += sd.iterations == ss.iterations;
  free(rd);
  free(rs);
  CHK(FcContactProblemDestroy(&ps));
}

static void test_solvers_sparse_dense(void **state)
{
  /* tol and max_it as the type's own tests use them (test_contact, test_uzawa, test_lemke, test_sap) */
  // clang-format off
  SolverRun runs[] = {
    {"nsgs", 1e-10, 5000, 0, 0, 0, 0, 0},   {"pgs", 1e-10, 5000, 0, 0, 0, 0, 0},          {"lemke", 1e-10, 1000, 0, 0, 0, 0, 0},
    {"uzawa_local", 1e-10, 5000, 0, 0, 0, 0, 0}, {"uzawa_global", 1e-10, 20000, 0, 0, 0, 0, 0}, {"sap", 1e-10, 1000, 0, 0, 0, 0, 0},
    {"newton", 1e-10, 100, 0, 0, 0, 0, 0},    {"auto", 1e-10, 10000, 0, 0, 0, 0, 0},
  };
  // clang-format on
  const int nruns = (int)(sizeof runs / sizeof runs[0]);
  char      types[512];
  int       ntypes = 1, nprob = 0, ncontacts = 0;
  (void)state;

  /* every registered type is in the table */
  FcContactSolverTypes(types, sizeof types);
  for (const char *c = types; *c; c++) ntypes += *c == ',';
  assert_int_equal(ntypes, nruns);
  for (int t = 0; t < nruns; t++) assert_non_null(strstr(types, runs[t].type));

  for (int k = 0; k < 40 + 12; k++) {
    FcContactProblem p;
    if (k < 40) { /* test_contact.c's random problems: m = 1..20, dense W, half of them not exactly symmetric */
      FcTestRandomProblem(&rng_state, 1 + k % 20, k % 2 == 0 ? FC_TEST_W_MEAN : FC_TEST_W_AS_COMPUTED, 1.0, 0, &p);
    } else if (k < 46) { /* groups coupled only within a group, scattered */
      GroupProblem(3 + k % 4, 8, k % 2 == 0, &p);
    } else { /* contacts on shared rigid bodies, built sparse: its dense copy is the reference */
      FcContactProblem sp;
      BodiesProblem(20 + 4 * (k - 46), 6 + (k - 46), 0.2, 0.8, &sp);
      CHK(FcContactProblemConvert(sp, FC_CONTACT_W_DENSE, &p));
      CHK(FcContactProblemDestroy(&sp));
    }
    nprob++;
    ncontacts += (int)p->m;
    for (int t = 0; t < nruns; t++) {
      FcContactSolver s = FcTestMakeSolver(runs[t].type, NULL, runs[t].tol, runs[t].max_it, NULL);
      if (!strcmp(runs[t].type, "sap")) CHK(FcContactSolverSetAcceptRegularized(s, PETSC_INFINITY)); /* its own test is what converges here */
      CompareStorages(s, p, &runs[t]);
      CHK(FcContactSolverDestroy(&s));
    }
    CHK(FcContactProblemDestroy(&p));
  }
  for (int t = 0; t < nruns; t++) {
    printf(
      "FIGURE sparse vs dense W, %s: %d problems (%d contacts), %d converged, same iterations on %d; max |r_sparse - r_dense| / |r_dense| %.1e, max |error difference| %.1e\n",
      runs[t].type, runs[t].nsolves, ncontacts, runs[t].nconv, runs[t].nsame_it, runs[t].max_rdev, runs[t].max_edev);
    /* Both forms do the same floating-point operations in the same order, except additions of
     * exact-zero products skipped by the sparse form (which change no sum): r agrees to rounding,
     * and in fact exactly; 1e-14 leaves room for a compiler reassociating one form's loop. newton
     * factors J in another order (nested dissection for the sparse pattern, natural for the dense
     * one), so its r differs by the rounding of one LU: measured 7.9e-16. */
    assert_true(runs[t].max_rdev <= 1e-14);
    assert_true(runs[t].max_edev <= 1e-14);
    assert_int_equal(runs[t].nsame_it, runs[t].nsolves);
  }
  /* nsgs, the uzawas, newton, auto (common error ≤ 1e-10) and sap (its own test) converge on every problem; pgs
   * (μ ignored) and lemke (the pyramid, not the cone) only where friction plays no part, in both
   * storages alike (the reasons were compared above) */
  assert_int_equal(runs[0].nconv, nprob);
  assert_int_equal(runs[3].nconv, nprob);
  assert_int_equal(runs[4].nconv, nprob);
  assert_int_equal(runs[5].nconv, nprob);
  assert_int_equal(runs[6].nconv, nprob); /* newton */
  assert_int_equal(runs[7].nconv, nprob); /* auto */
}

/* ---- 3. automatic choice by fill ---- */
static void test_auto_storage(void **state)
{
  FcContactProblem p, a, g, ga;
  (void)state;

  FcTestRandomProblem(&rng_state, 12, FC_TEST_W_MEAN, 1.0, 0, &p); /* every block nonzero: fill 1 */
  CHK(FcContactProblemConvertAuto(p, &a));
  assert_false(FcContactProblemIsSparse(a));
  GroupProblem(12, 4, 1, &g); /* ≤ 4 per group, ~30 contacts: fill ≤ 4/m */
  CHK(FcContactProblemConvertAuto(g, &ga));
  assert_true(FcContactProblemIsSparse(ga));
  printf("FIGURE sparse automatic storage: fill 1 (m = 12) -> dense; fill %.3f (m = %d) -> sparse (rule: sparse below %.2f)\n",
    (double)ga->nb / ((double)ga->m * ga->m), (int)ga->m, FC_CONTACT_SPARSE_MAX_FILL);
  assert_true(FcContactProblemPreferSparse(100, 7499));
  assert_false(FcContactProblemPreferSparse(100, 7500));
  CHK(FcContactProblemDestroy(&ga));
  CHK(FcContactProblemDestroy(&g));
  CHK(FcContactProblemDestroy(&a));
  CHK(FcContactProblemDestroy(&p));
}

/* ---- 4. 10 000 contacts, ~20 coupled per contact ---- */
static void test_large_sparse(void **state)
{
  const int            m = 10000, nbody = 1800; /* 2m/nbody ≈ 11 contacts per body: ≈ 20 coupled */
  FcContactProblem     p;
  FcContactSolver      s;
  FcContactSolverStats st;
  double              *r = calloc(3 * (size_t)m, sizeof(double)), coupled, mb, dense_gb;
  (void)state;

  BodiesProblem(m, nbody, 0.5, 0.5, &p);
  coupled  = (double)p->nb / m - 1; /* off-diagonal blocks per row */
  mb       = (double)FcContactProblemStorageBytes(p) / 1e6;
  dense_gb = 9.0 * m * (double)m * sizeof(PetscReal) / 1e9;
  s        = FcTestMakeSolver("nsgs", NULL, 1e-10, 2000, NULL);
  CHK(FcContactSolverSolve(s, p, r));
  CHK(FcContactSolverGetStats(s, &st));
  printf(
    "FIGURE sparse 10000 contacts: %.1f coupled contacts per contact (%d blocks), W storage %.1f MB (dense: %.1f GB); nsgs %s in %d sweeps, common error %.2e\n",
    coupled, (int)p->nb, mb, dense_gb, st.reason_name, (int)st.iterations, st.error);
  assert_true(coupled >= 18 && coupled <= 24);
  assert_true(mb < 100);
  assert_true(st.converged);
  assert_true(st.error <= 1e-10);
  free(r);
  CHK(FcContactSolverDestroy(&s));
  CHK(FcContactProblemDestroy(&p));
}

/* ---- 5. the global reformulation W = Hᵀ M⁻¹ H built block-sparse ---- */
/* nbody rigid bodies (6 DoFs, M block-diagonal: a random SPD 6 × 6 block each), m contacts, contact
 * c on body c % nbody and, for c odd, also on a second body (a pair of bodies; the others on a
 * fixed ground); H random on those DoFs. Contacts couple iff they share a body. */
static void test_global_sparse(void **state)
{
  const int            nbody = 40, m = 120, n = 6 * nbody;
  FcGlobalProblem      gp;
  FcContactProblem     ps, pd, psd;
  FcGlobalMass         mass;
  int                 *body = malloc(sizeof(int) * 2 * (size_t)m);
  PetscInt             nnzM[6 * 40], *nnzH = calloc((size_t)n, sizeof(PetscInt));
  PetscInt64           predicted = 0;
  double               dw = 0, wn = 0, dq = 0, off = 0, dr = 0, rn = 0;
  double              *rs = calloc(3 * (size_t)m, sizeof(double)), *rd = calloc(3 * (size_t)m, sizeof(double));
  FcContactSolver      s;
  FcContactSolverStats sts, std_;
  (void)state;

  CHK(FcGlobalProblemCreate(n, m, &gp));
  for (int i = 0; i < n; i++) nnzM[i] = 6;
  CHK(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnzM, &gp->M));
  for (int b = 0; b < nbody; b++) { /* M_b = B Bᵀ + I, B random */
    double   B[36], Mb[36];
    PetscInt idx[6];
    for (int i = 0; i < 36; i++) B[i] = Uniform(-0.5, 0.5);
    for (int i = 0; i < 6; i++) {
      idx[i] = 6 * b + i;
      for (int j = 0; j < 6; j++) {
        Mb[6 * i + j] = i == j ? 1.0 : 0.0;
        for (int k = 0; k < 6; k++) Mb[6 * i + j] += B[6 * i + k] * B[6 * j + k];
      }
    }
    CHK(MatSetValues(gp->M, 6, idx, 6, idx, Mb, INSERT_VALUES));
  }
  CHK(MatAssemblyBegin(gp->M, MAT_FINAL_ASSEMBLY));
  CHK(MatAssemblyEnd(gp->M, MAT_FINAL_ASSEMBLY));
  for (int c = 0; c < m; c++) {
    body[2 * c]     = c % nbody;
    body[2 * c + 1] = c % 2 ? (c % nbody + 1 + (int)Uniform(0, 4.999)) % nbody : -1;
    for (int e = 0; e < 2; e++)
      if (body[2 * c + e] >= 0)
        for (int i = 0; i < 6; i++) nnzH[6 * body[2 * c + e] + i] += 3;
  }
  CHK(MatCreateSeqAIJ(PETSC_COMM_SELF, n, 3 * m, 0, nnzH, &gp->H));
  for (int c = 0; c < m; c++)
    for (int e = 0; e < 2; e++)
      if (body[2 * c + e] >= 0)
        for (int i = 0; i < 6; i++)
          for (int j = 0; j < 3; j++) CHK(MatSetValue(gp->H, 6 * body[2 * c + e] + i, 3 * c + j, Uniform(-1, 1), INSERT_VALUES));
  CHK(MatAssemblyBegin(gp->H, MAT_FINAL_ASSEMBLY));
  CHK(MatAssemblyEnd(gp->H, MAT_FINAL_ASSEMBLY));
  for (int i = 0; i < n; i++) CHK(VecSetValue(gp->f, i, Uniform(-1, 1), INSERT_VALUES));
  for (int i = 0; i < 3 * m; i++) CHK(VecSetValue(gp->w, i, Uniform(-0.2, 1), INSERT_VALUES));
  CHK(VecAssemblyBegin(gp->f));
  CHK(VecAssemblyEnd(gp->f));
  CHK(VecAssemblyBegin(gp->w));
  CHK(VecAssemblyEnd(gp->w));
  for (int c = 0; c < m; c++) gp->mu[c] = Uniform(0.1, 1);
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) {
      int share = 0;
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) share |= body[2 * a + i] >= 0 && body[2 * a + i] == body[2 * b + j];
      predicted += share;
    }

  CHK(FcGlobalProblemComputeLocalStorage(gp, FC_CONTACT_W_CHOOSE_AUTO, &ps, &mass));
  assert_int_equal(mass.status, FC_GLOBAL_MASS_SPD);
  CHK(FcGlobalProblemComputeLocalStorage(gp, FC_CONTACT_W_CHOOSE_DENSE, &pd, &mass));
  assert_true(FcContactProblemIsSparse(ps));
  assert_false(FcContactProblemIsSparse(pd));
  assert_int_equal(ps->nb, predicted);
  assert_true(FcContactProblemIsSymmetric(ps));
  CHK(FcContactProblemConvert(ps, FC_CONTACT_W_DENSE, &psd));
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) {
      const int stored = FcContactProblemFindBlock(ps, a, b) >= 0;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          const size_t k = (size_t)(3 * a + i) * 3 * m + 3 * b + j;
          dw             = fmax(dw, fabs(psd->W[k] - pd->W[k]));
          wn             = fmax(wn, fabs(pd->W[k]));
          if (!stored) off = fmax(off, fabs(pd->W[k]));
        }
    }
  for (int i = 0; i < 3 * m; i++) dq = fmax(dq, fabs(ps->q[i] - pd->q[i]));
  s = FcTestMakeSolver("nsgs", NULL, 1e-12, 100000, NULL);
  CHK(FcContactSolverSolve(s, ps, rs));
  CHK(FcContactSolverGetStats(s, &sts));
  CHK(FcContactSolverSolve(s, pd, rd));
  CHK(FcContactSolverGetStats(s, &std_));
  for (int i = 0; i < 3 * m; i++) {
    dr = fmax(dr, fabs(rs[i] - rd[i]));
    rn = fmax(rn, fabs(rd[i]));
  }
  printf(
    "FIGURE sparse global reformulation: %d bodies (M block-diagonal), %d contacts: W = H^T M^-1 H with %d blocks (predicted from the bodies' contacts %lld, fill %.3f); max |W_sparse - W_dense| %.1e (max |W| %.2f), dense W outside the pattern max %.1e, q %.1e; nsgs %s / %s in %d / %d sweeps, max |r_s - r_d| / max |r_d| %.1e\n",
    nbody, m, (int)ps->nb, (long long)predicted, (double)ps->nb / ((double)m * m), dw, wn, off, dq, sts.reason_name, std_.reason_name, (int)sts.iterations,
    (int)std_.iterations, dr / rn);
  /* The same solves and the same sums per entry in both storages: identical bits; outside the
   * pattern M⁻¹ h_j vanishes on the other bodies' DoFs, so the dense entries are exact zeros. */
  assert_true(dw == 0 && dq == 0 && off == 0);
  assert_true(sts.converged && std_.converged);
  assert_true(dr <= 1e-12 * rn);
  CHK(FcContactProblemDestroy(&ps));
  CHK(FcContactProblemDestroy(&psd));

  /* SAP's global form forms the same reformulation with its own factorization of M̃ = M here
   * (solvers/sap/global.c): block-sparse in chunks of columns, against its dense MatTransposeMatMult */
  {
    FcSAPGlobal      g;
    FcContactProblem gs, gd, gsd;
    double           dws = 0, dqs = 0, dwd = 0;
    CHK(FcSAPGlobalCreate(&g));
    CHK(FcSAPGlobalSetUp(g, gp));
    CHK(FcSAPGlobalComputeLocalStorage(g, FC_CONTACT_W_CHOOSE_AUTO, &gs));
    CHK(FcSAPGlobalComputeLocalStorage(g, FC_CONTACT_W_CHOOSE_DENSE, &gd));
    assert_true(FcContactProblemIsSparse(gs));
    assert_int_equal(gs->nb, predicted);
    assert_true(FcContactProblemIsSymmetric(gs));
    CHK(FcContactProblemConvert(gs, FC_CONTACT_W_DENSE, &gsd));
    for (size_t k = 0; k < 9 * (size_t)m * m; k++) {
      dws = fmax(dws, fabs(gsd->W[k] - gd->W[k]));
      dwd = fmax(dwd, fabs(gd->W[k] - pd->W[k]));
    }
    for (int i = 0; i < 3 * m; i++) dqs = fmax(dqs, fabs(gs->q[i] - gd->q[i]));
    printf(
      "FIGURE sparse global reformulation, sap's (M~ = M): %d blocks; max |W_sparse - W_dense| / max |W| %.1e, q %.1e; its dense W vs the Cholesky one above %.1e\n",
      (int)gs->nb, dws / wn, dqs, dwd / wn);
    /* two factorizations and two summation orders of the same products: round-off of a solve
     * with M's condition (blocks B Bᵀ + I, B entries in ±0.5: cond ≲ 10) */
    assert_true(dws <= 1e-13 * wn && dqs == 0 && dwd <= 1e-13 * wn);
    CHK(FcContactProblemDestroy(&gs));
    CHK(FcContactProblemDestroy(&gd));
    CHK(FcContactProblemDestroy(&gsd));
    CHK(FcSAPGlobalDestroy(&g));
  }
  CHK(FcContactSolverDestroy(&s));
  CHK(FcContactProblemDestroy(&pd));
  CHK(FcGlobalProblemDestroy(&gp));
  free(body);
  free(nnzH);
  free(rs);
  free(rd);
}

int main(int argc, char **argv)
{
  // clang-format off
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_storage),
    cmocka_unit_test(test_solvers_sparse_dense),
    cmocka_unit_test(test_auto_storage),
    cmocka_unit_test(test_large_sparse),
    cmocka_unit_test(test_global_sparse),
  };
  // clang-format on

  return FcTestMain(argc, argv, tests, FcContactSolverRegisterAll, NULL);
}
