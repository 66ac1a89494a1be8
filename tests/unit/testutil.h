/* fcsim unit tests — the helpers shared by the cmocka programs, in one header. Include it after
 * <cmocka.h>, with _POSIX_C_SOURCE 200809L (or _XOPEN_SOURCE 700) defined before the first system
 * header (mkstemp, mkdtemp, dup). Every function is static inline: a test compiles only what it
 * calls, and an unused helper is no warning.
 *
 *   main            FcTestMain / FcTestRun: PETSc, fcsim's error handler, the cmocka group
 *   random numbers  FcTestUniform (splitmix64), FcTestXorshift (xorshift64*), and both as
 *                   callbacks for the mesh helpers (FcTestUniformCtx, FcTestXorshiftCtx)
 *   output capture  FcTestCapture*: stdout or stderr into a string; FcTestCountLines;
 *                   FcTestAssertInputError (one line, FC_ERR_INPUT)
 *   files           FcTestWriteFile, FcTestRemoveTree
 *   dense algebra   FcTestCholesky, FcTestForwardSolve, FcTestCholeskySolve, FcTestSolve3,
 *                   FcTestNorm, FcTestDist, FcTestRelDist, FcTestMaxAbs, FcTestRotation
 *   contact         FcTestRandomDelassus, FcTestRandomProblem, FcTestOneContact,
 *                   FcTestMakeSolver, FcTestSolverBadOption, FcTestSolverView
 *   meshes, FEM     FcTestCubeMesh (+ Free, + WriteMsh), FcTestOneElement, FcTestElemName,
 *                   FcTestGmshTetEdges, FcTestCreateMaterial
 *
 * Where the copies these replace differed (a random generator, the rounding of a formula), the
 * helper takes the difference as a parameter, so that every test computes bit for bit what it
 * computed before and prints the same figures. */
#ifndef FC_TESTUTIL_H
#define FC_TESTUTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/core/fc.h"
#include "../../src/core/mpienv.h"
#include "../../src/core/mat3.h"
#include "../../src/fem/fem.h"
#include "../../src/contact/solver.h"

/* `CHK(call)`: a call returning an error code (PETSc's or fcsim's) must return 0. */
#ifndef CHK
#define CHK(call) assert_int_equal((call), 0)
#endif

/* ---- main ------------------------------------------------------------------------------- */

/* A unit-test program: PetscInitialize, fcsim's one-line error handler, init() (registries,
 * options; NULL: none), the cmocka group `name` with its fixtures (NULL: none), the handler
 * popped (so that -malloc_dump reports only real leaks), fini() (package finalizers; NULL: none),
 * PetscFinalize. Returns the number of failed tests, or 1 when PETSc, init or fini fails. */
static inline int FcTestRun(int *argc, char ***argv, const char *name, const struct CMUnitTest *tests, size_t ntests, CMFixtureFunction setup,
  CMFixtureFunction teardown, PetscErrorCode (*init)(void), PetscErrorCode (*fini)(void))
{
  int fails;

  FcMPIEnvPrepare(); /* tests run side by side: each its own Open MPI session folder */
  if (PetscInitialize(argc, argv, NULL, NULL)) return 1;
  if (FcPushErrorHandler()) return 1;
  if (init && init()) return 1;
  fails = _cmocka_run_group_tests(name, tests, ntests, setup, teardown);
  if (PetscPopErrorHandler()) return 1;
  if (fini && fini()) return 1;
  if (PetscFinalize()) return 1;
  return fails;
}

/* `return FcTestMain(argc, argv, tests, init, fini);` with tests a CMUnitTest array (the group
 * is named after it, as cmocka_run_group_tests names it). */
#define FcTestMain(argc, argv, tests, init, fini) FcTestRun(&(argc), &(argv), #tests, tests, sizeof(tests) / sizeof((tests)[0]), NULL, NULL, init, fini)

/* ---- random numbers --------------------------------------------------------------------- */

/* splitmix64 (Steele, Lea & Flood 2014): reproducible uniform numbers in [a, b) from *state. */
static inline double FcTestUniform(uint64_t *state, double a, double b)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return a + (b - a) * ((double)(z >> 11) / 9007199254740992.0);
}

/* xorshift64* (Vigna 2016): uniform numbers in [-1, 1) from *state (test_fem and test_collide
 * draw their sequences from it). */
static inline PetscReal FcTestXorshift(uint64_t *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return (PetscReal)((*state * 2685821657736338717ull) >> 11) / (PetscReal)(1ull << 53) * 2.0 - 1.0;
}

/* The two generators as callbacks rnd(ctx) in [-1, 1), ctx the uint64_t state. */
static inline PetscReal FcTestUniformCtx(void *ctx) { return FcTestUniform((uint64_t *)ctx, -1.0, 1.0); }

static inline PetscReal FcTestXorshiftCtx(void *ctx) { return FcTestXorshift((uint64_t *)ctx); }

/* ---- capture of stdout or stderr -------------------------------------------------------- */

/* The descriptor fd redirected into a temporary file between Start and Stop (dup/dup2); both
 * streams are flushed at either end, so that nothing written before lands in the capture. */
typedef struct {
  int  fd, saved;
  char path[64];
} FcTestCapture;

static inline void FcTestCaptureFd(FcTestCapture *c, int fd)
{
  int tmp;
  fflush(stdout);
  fflush(stderr);
  snprintf(c->path, sizeof c->path, "/tmp/fcsim_test_XXXXXX");
  tmp = mkstemp(c->path);
  assert_true(tmp >= 0);
  c->fd    = fd;
  c->saved = dup(fd);
  assert_true(c->saved >= 0);
  assert_true(dup2(tmp, fd) >= 0);
  close(tmp);
}

/* stderr (what an input error prints) */
static inline void FcTestCaptureStart(FcTestCapture *c) { FcTestCaptureFd(c, STDERR_FILENO); }

/* Restore the descriptor and return what was written (NUL-terminated, at most len - 1 bytes). */
static inline void FcTestCaptureStop(FcTestCapture *c, char *buf, size_t len)
{
  FILE  *fp;
  size_t n;
  fflush(stdout);
  fflush(stderr);
  assert_true(dup2(c->saved, c->fd) >= 0);
  close(c->saved);
  fp = fopen(c->path, "r");
  assert_non_null(fp);
  n      = fread(buf, 1, len - 1, fp);
  buf[n] = 0;
  fclose(fp);
  unlink(c->path);
}

static inline int FcTestCountLines(const char *s)
{
  int n = 0;
  for (; *s; s++)
    if (*s == '\n') n++;
  return n;
}

/* ierr is an input error and msg (what it printed) is one line that contains needle. A macro, so
 * that a failure names the test's line. */
#define FcTestAssertInputError(ierr, msg, needle) \
  do { \
    assert_int_equal((ierr), FC_ERR_INPUT); \
    assert_int_equal(FcTestCountLines(msg), 1); \
    assert_non_null(strstr((msg), (needle))); \
  } while (0)

/* ---- files ------------------------------------------------------------------------------ */

static inline void FcTestWriteFile(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* rm -rf dir; FCSIM_TEST_KEEP=1 keeps it for inspection (and says so on stderr). */
static inline void FcTestRemoveTree(const char *dir)
{
  char cmd[PETSC_MAX_PATH_LEN + 32];

  if (getenv("FCSIM_TEST_KEEP")) {
    fprintf(stderr, "kept %s\n", dir);
    return;
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* ---- small dense linear algebra (row-major) --------------------------------------------- */

/* Cholesky A = L Lᵀ in place (L in the lower triangle), n×n; returns 0, or 1 when a pivot is
 * not positive. */
static inline int FcTestCholesky(int n, double *A)
{
  for (int j = 0; j < n; j++) {
    double d = A[j * n + j];
    for (int k = 0; k < j; k++) d -= A[j * n + k] * A[j * n + k];
    if (!(d > 0)) return 1;
    A[j * n + j] = sqrt(d);
    for (int i = j + 1; i < n; i++) {
      double s = A[i * n + j];
      for (int k = 0; k < j; k++) s -= A[i * n + k] * A[j * n + k];
      A[i * n + j] = s / A[j * n + j];
    }
  }
  return 0;
}

/* x ← L⁻¹ x (forward substitution with the factor of FcTestCholesky) */
static inline void FcTestForwardSolve(int n, const double *L, double *x)
{
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < i; k++) x[i] -= L[i * n + k] * x[k];
    x[i] /= L[i * n + i];
  }
}

/* x ← A⁻¹ x = L⁻ᵀ L⁻¹ x */
static inline void FcTestCholeskySolve(int n, const double *L, double *x)
{
  FcTestForwardSolve(n, L, x);
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++) x[i] -= L[k * n + i] * x[k];
    x[i] /= L[i * n + i];
  }
}

/* x = W⁻¹ b for a 3×3 W, by Cramer's rule (independent of any factorization). */
static inline void FcTestSolve3(const double W[9], const double b[3], double x[3])
{
  const double det = W[0] * (W[4] * W[8] - W[5] * W[7]) - W[1] * (W[3] * W[8] - W[5] * W[6]) + W[2] * (W[3] * W[7] - W[4] * W[6]);
  for (int c = 0; c < 3; c++) {
    double M[9];
    memcpy(M, W, sizeof M);
    for (int i = 0; i < 3; i++) M[3 * i + c] = b[i];
    x[c] = (M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6])) / det;
  }
}

static inline double FcTestNorm(int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

/* ‖x − y‖ */
static inline double FcTestDist(int n, const double *x, const double *y)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += (x[i] - y[i]) * (x[i] - y[i]);
  return sqrt(s);
}

/* ‖x − y‖ / ‖y‖ (computed as √(‖x − y‖²/‖y‖²)), or ‖x − y‖ when y = 0 */
static inline double FcTestRelDist(int n, const double *x, const double *y)
{
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) {
    d += (x[i] - y[i]) * (x[i] - y[i]);
    s += y[i] * y[i];
  }
  return s > 0 ? sqrt(d / s) : sqrt(d);
}

static inline PetscReal FcTestMaxAbs(PetscInt n, const PetscReal *a)
{
  PetscReal m = 0;
  for (PetscInt i = 0; i < n; i++) m = PetscMax(m, PetscAbsReal(a[i]));
  return m;
}

/* Rotation by theta about axis, row-major, by Rodrigues' formula in one of two roundings:
 *   FC_TEST_ROT_KKT  Q = c I + s [k]x + (1 − c) k kᵀ with k = axis/‖axis‖ (any length)
 *   FC_TEST_ROT_K2   Q = I + s [a]x + (1 − c) [a]x² with a = axis as given (a unit axis) */
typedef enum { FC_TEST_ROT_KKT, FC_TEST_ROT_K2 } FcTestRotationForm;

static inline void FcTestRotation(const PetscReal axis[3], PetscReal theta, FcTestRotationForm form, PetscReal Q[9])
{
  const PetscReal c = PetscCosReal(theta), s = PetscSinReal(theta);

  if (form == FC_TEST_ROT_K2) {
    const PetscReal *a    = axis;
    PetscReal        K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0}, K2[9];
    FcMat3Mult(K, K, K2);
    for (int i = 0; i < 9; i++) Q[i] = (i % 4 == 0) + s * K[i] + (1 - c) * K2[i];
  } else {
    const PetscReal n    = PetscSqrtReal(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    const PetscReal k[3] = {axis[0] / n, axis[1] / n, axis[2] / n};
    const PetscReal K[9] = {0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0};
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) Q[3 * i + j] = c * (i == j) + s * K[3 * i + j] + (1 - c) * k[i] * k[j];
  }
}

/* ---- random contact problems and contact solvers ----------------------------------------- */

/* How FcTestRandomDelassus forms W from A = BᵀB + nI = L Lᵀ and J. The tests were written with
 * different roundings of the same W; each keeps its own, so that its figures do not move. */
typedef enum {
  FC_TEST_W_AS_COMPUTED, /* J (A⁻¹ Jᵀ) as computed, asymmetric by rounding (nsgs' and uzawa's
                            non-symmetric update paths) */
  FC_TEST_W_MEAN,        /* J (A⁻¹ Jᵀ), then (W + Wᵀ)/2 */
  FC_TEST_W_LOWER,       /* the lower triangle of J (A⁻¹ Jᵀ), mirrored: exactly symmetric */
  FC_TEST_W_GRAM         /* XᵀX with X = L⁻¹ Jᵀ, A summed as (BᵀB) + nI: exactly symmetric */
} FcTestWForm;

/* W = J A⁻¹ Jᵀ of a random body, a Delassus operator (positive definite): A = BᵀB + nI (n×n, n =
 * 3m + 2..7) and J (3m×n) with entries in [−1, 1) from *rng; q = 0 and μ = 0 are left to the
 * caller. */
static inline void FcTestRandomDelassus(uint64_t *rng, int m, FcTestWForm form, FcContactProblem *prob)
{
  const int       n3 = 3 * m, n = n3 + 2 + (int)FcTestUniform(rng, 0, 6);
  const PetscBool gram = (PetscBool)(form == FC_TEST_W_GRAM), lower = (PetscBool)(gram || form == FC_TEST_W_LOWER);
  double *B = malloc(sizeof(double) * n * n), *A = malloc(sizeof(double) * n * n), *J = malloc(sizeof(double) * n3 * n), *X = malloc(sizeof(double) * n * n3),
         *col = malloc(sizeof(double) * n);
  FcContactProblem p;

  for (int i = 0; i < n * n; i++) B[i] = FcTestUniform(rng, -1, 1);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = (i == j && !gram) ? n : 0;
      for (int k = 0; k < n; k++) s += B[k * n + i] * B[k * n + j];
      A[i * n + j] = s;
    }
  if (gram)
    for (int i = 0; i < n; i++) A[i * n + i] += n;
  assert_int_equal(FcTestCholesky(n, A), 0);
  for (int i = 0; i < n3 * n; i++) J[i] = FcTestUniform(rng, -1, 1);
  for (int c = 0; c < n3; c++) { /* X[:, c] = A⁻¹ J[c, :]ᵀ (gram: L⁻¹ J[c, :]ᵀ) */
    for (int k = 0; k < n; k++) col[k] = J[c * n + k];
    if (gram) FcTestForwardSolve(n, A, col);
    else FcTestCholeskySolve(n, A, col);
    for (int k = 0; k < n; k++) X[k * n3 + c] = col[k];
  }
  assert_int_equal(FcContactProblemCreate(m, &p), 0);
  for (int i = 0; i < n3; i++)
    for (int j = 0; j < (lower ? i + 1 : n3); j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += (gram ? X[k * n3 + i] : J[i * n + k]) * X[k * n3 + j];
      p->W[i * n3 + j] = s;
      if (lower) p->W[j * n3 + i] = s;
    }
  if (form == FC_TEST_W_MEAN)
    for (int i = 0; i < n3; i++)
      for (int j = i + 1; j < n3; j++) p->W[i * n3 + j] = p->W[j * n3 + i] = 0.5 * (p->W[i * n3 + j] + p->W[j * n3 + i]);
  free(B);
  free(A);
  free(J);
  free(X);
  free(col);
  *prob = p;
}

/* A random problem on that W: q ∈ [−1, 1)^{3m} (normal parts of both signs), μ ∈ [0, mu_max).
 * het > 0 (forms AS_COMPUTED and LOWER): contact a scaled by d_a = 10^U(−het, het), W_ab → d_a d_b
 * W_ab, q_a → d_a q_a: contacts of different stiffness. */
static inline void FcTestRandomProblem(uint64_t *rng, int m, FcTestWForm form, double mu_max, double het, FcContactProblem *prob)
{
  const int        n3    = 3 * m;
  const PetscBool  lower = (PetscBool)(form == FC_TEST_W_LOWER);
  double          *d     = malloc(sizeof(double) * (m ? m : 1));
  FcContactProblem p;

  assert_true(het <= 0 || form == FC_TEST_W_AS_COMPUTED || lower);
  FcTestRandomDelassus(rng, m, form, &p);
  for (int a = 0; a < m; a++) d[a] = het > 0 ? pow(10.0, FcTestUniform(rng, -het, het)) : 1.0;
  if (het > 0)
    for (int i = 0; i < n3; i++)
      for (int j = 0; j < (lower ? i + 1 : n3); j++) {
        p->W[i * n3 + j] = p->W[i * n3 + j] * d[i / 3] * d[j / 3];
        if (lower) p->W[j * n3 + i] = p->W[i * n3 + j]; /* exactly symmetric */
      }
  for (int i = 0; i < n3; i++) p->q[i] = FcTestUniform(rng, -1, 1) * d[i / 3];
  for (int a = 0; a < m; a++) p->mu[a] = FcTestUniform(rng, 0, mu_max);
  free(d);
  *prob = p;
}

/* A contact solver of the type, with warm start off. tol >= 0: FcContactSolverSetTolerances(tol,
 * max_it) (else the type's defaults). prefix non-NULL: the options prefix, the options opts
 * (NULL-terminated pairs {"sap_sigma", "1e-5", ...}, names after fc_contact_solver_; NULL:
 * none) set in the database under it for FcContactSolverSetFromOptions, then cleared. */
static inline FcContactSolver FcTestMakeSolver(const char *type, const char *prefix, double tol, PetscInt max_it, const char *const opts[])
{
  FcContactSolver s;
  char            name[256];
  assert_int_equal(FcContactSolverCreate(&s), 0);
  assert_int_equal(FcContactSolverSetType(s, type), 0);
  if (tol >= 0) assert_int_equal(FcContactSolverSetTolerances(s, tol, max_it), 0);
  assert_int_equal(FcContactSolverSetWarmStart(s, PETSC_FALSE), 0);
  if (!prefix) return s;
  assert_int_equal(FcContactSolverSetOptionsPrefix(s, prefix), 0);
  for (int k = 0; opts && opts[k]; k += 2) {
    snprintf(name, sizeof name, "-%sfc_contact_solver_%s", prefix, opts[k]);
    assert_int_equal(PetscOptionsSetValue(NULL, name, opts[k + 1]), 0);
  }
  assert_int_equal(FcContactSolverSetFromOptions(s), 0);
  for (int k = 0; opts && opts[k]; k += 2) {
    snprintf(name, sizeof name, "-%sfc_contact_solver_%s", prefix, opts[k]);
    assert_int_equal(PetscOptionsClearValue(NULL, name), 0);
  }
  return s;
}

/* A contact problem of one contact: W (3×3), q, μ. */
static inline FcContactProblem FcTestOneContact(const double W[9], const double q[3], double mu)
{
  FcContactProblem p;
  assert_int_equal(FcContactProblemCreate(1, &p), 0);
  memcpy(p->W, W, 9 * sizeof(double));
  memcpy(p->q, q, 3 * sizeof(double));
  p->mu[0] = mu;
  return p;
}

/* The option name = value in the database makes FcContactSolverSetFromOptions(s) an input error
 * of one line naming the option; the line in msg. The option is cleared again. */
static inline void FcTestSolverBadOption(FcContactSolver s, const char *name, const char *value, char *msg, size_t len)
{
  FcTestCapture  c;
  PetscErrorCode ierr;
  assert_int_equal(PetscOptionsSetValue(NULL, name, value), 0);
  FcTestCaptureStart(&c);
  ierr = FcContactSolverSetFromOptions(s);
  FcTestCaptureStop(&c, msg, len);
  assert_int_equal(PetscOptionsClearValue(NULL, name), 0);
  FcTestAssertInputError(ierr, msg, name);
}

/* FcContactSolverView into buf (NUL-terminated, at most len - 1 bytes). */
static inline void FcTestSolverView(FcContactSolver s, char *buf, size_t len)
{
  char        path[64] = "/tmp/fcsim_test_view_XXXXXX";
  PetscViewer v;
  FILE       *fp;
  size_t      n;
  const int   fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &v), 0);
  assert_int_equal(FcContactSolverView(s, v), 0);
  assert_int_equal(PetscViewerDestroy(&v), 0);
  fp = fopen(path, "r");
  assert_non_null(fp);
  n      = fread(buf, 1, len - 1, fp);
  buf[n] = 0;
  fclose(fp);
  unlink(path);
}

/* ---- meshes and elements ---------------------------------------------------------------- */

/* Gmsh's tet10 mid-edge nodes 4..9 sit on the edges (0,1), (1,2), (2,0), (3,0), (3,2), (3,1):
 * written out here, independently of src/fem (FcTetEdgeNodes), for the tests that check it. */
static const int FcTestGmshTetEdges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 0}, {3, 2}, {3, 1}};

/* Cube [0, L]^3 of n^3 cells, each split into the 6 Kuhn tetrahedra around its main diagonal
 * (conforming across cells, positively oriented). Interior vertices are moved by pv·h·rnd() per
 * component (rnd in [-1, 1), drawn in vertex order); order 2: tet10 mid-edge nodes at the
 * midpoints of the (moved) vertices, interior ones then moved by pm·h·rnd() (pm > 0: curved
 * elements). Boundary faces (all corners on one plane of the cube) are oriented outward, with
 * tri6 mid-edge nodes; elem_id[e] = e + 1. rnd may be NULL when pv = pm = 0. Free it with
 * FcTestCubeMeshFree (or FcMeshDestroy). */
static inline PetscErrorCode FcTestCubeMesh(
  PetscInt n, PetscInt order, PetscReal L, PetscReal pv, PetscReal pm, PetscReal (*rnd)(void *), void *ctx, FcMesh *mesh)
{
  const PetscInt  nv = (n + 1) * (n + 1) * (n + 1), ncell = n * n * n, nel = 6 * ncell, npe = order == 1 ? 4 : 10, npf = order == 1 ? 3 : 6;
  const PetscReal h = L / n, tol = 1e-12 * L;
  const int       perm[6][3]    = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  const int       faceloc[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  PetscInt       *edge = NULL, maxn = nv + (order == 2 ? 7 * nv : 0), nn = nv, nb = 0;
  PetscReal      *X;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(mesh, sizeof *mesh));
  PetscCall(PetscMalloc1(3 * maxn, &X));
  for (PetscInt k = 0; k <= n; k++)
    for (PetscInt j = 0; j <= n; j++)
      for (PetscInt i = 0; i <= n; i++) {
        PetscReal *x = X + 3 * (i + (n + 1) * (j + (n + 1) * k));
        x[0]         = i * h;
        x[1]         = j * h;
        x[2]         = k * h;
        if (pv != 0 && i > 0 && i < n && j > 0 && j < n && k > 0 && k < n)
          for (int d = 0; d < 3; d++) x[d] += pv * h * rnd(ctx);
      }
  PetscCall(PetscMalloc1(nel * npe, &mesh->conn));
  PetscCall(PetscMalloc1(nel, &mesh->elem_id));
  for (PetscInt c = 0, e = 0; c < ncell; c++)
    for (int p = 0; p < 6; p++, e++) {
      PetscInt  ijk[3] = {c % n, (c / n) % n, c / (n * n)}, *t = mesh->conn + e * npe;
      PetscReal a[9];
      t[0] = ijk[0] + (n + 1) * (ijk[1] + (n + 1) * ijk[2]);
      for (int s = 0; s < 3; s++) {
        ijk[perm[p][s]]++;
        t[s + 1] = ijk[0] + (n + 1) * (ijk[1] + (n + 1) * ijk[2]);
      }
      for (int s = 0; s < 3; s++)
        for (int d = 0; d < 3; d++) a[3 * s + d] = X[3 * t[s + 1] + d] - X[3 * t[0] + d];
      if (FcMat3Det(a) < 0) {
        const PetscInt tmp = t[1];
        t[1]               = t[2];
        t[2]               = tmp;
      }
      mesh->elem_id[e] = e + 1;
    }
  /* boundary faces, oriented away from the element's opposite vertex */
  PetscCall(PetscMalloc1(nel * 4 * npf, &mesh->bfaces));
  PetscCall(PetscMalloc1(nel * 4, &mesh->bface_elem));
  for (PetscInt e = 0; e < nel; e++) {
    const PetscInt *t = mesh->conn + e * npe;
    for (int f = 0; f < 4; f++) {
      PetscInt  v[3] = {t[faceloc[f][0]], t[faceloc[f][1]], t[faceloc[f][2]]};
      PetscBool onb  = PETSC_FALSE;
      PetscReal a[9];
      for (int d = 0; d < 3 && !onb; d++)
        for (int s = 0; s < 2 && !onb; s++) {
          const PetscReal pl = s * L;
          onb = (PetscBool)(PetscAbsReal(X[3 * v[0] + d] - pl) < tol && PetscAbsReal(X[3 * v[1] + d] - pl) < tol && PetscAbsReal(X[3 * v[2] + d] - pl) < tol);
        }
      if (!onb) continue;
      for (int q = 0; q < 3; q++) {
        a[q]     = X[3 * v[1] + q] - X[3 * v[0] + q];
        a[3 + q] = X[3 * v[2] + q] - X[3 * v[0] + q];
        a[6 + q] = X[3 * v[0] + q] - X[3 * t[f] + q]; /* from the opposite vertex to the face */
      }
      if (FcMat3Det(a) < 0) {
        const PetscInt tmp = v[1];
        v[1]               = v[2];
        v[2]               = tmp;
      }
      for (int q = 0; q < 3; q++) mesh->bfaces[nb * npf + q] = v[q];
      mesh->bface_elem[nb++] = e;
    }
  }
  if (order == 2) {
    PetscCall(PetscMalloc1(nv * nv, &edge));
    for (PetscInt i = 0; i < nv * nv; i++) edge[i] = -1;
    for (PetscInt e = 0; e < nel; e++) {
      PetscInt *t = mesh->conn + e * npe;
      for (int k = 0; k < 6; k++) {
        const PetscInt p = t[FcTetEdgeNodes[k][0]], q = t[FcTetEdgeNodes[k][1]], key = PetscMin(p, q) * nv + PetscMax(p, q);
        if (edge[key] < 0) {
          PetscBool interior = PETSC_TRUE;
          PetscCheck(nn < maxn, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many edges");
          edge[key] = nn;
          for (int d = 0; d < 3; d++) {
            X[3 * nn + d] = 0.5 * (X[3 * p + d] + X[3 * q + d]);
            /* boundary iff both ends on one cube plane: the midpoint is then on it too */
            if (PetscAbsReal(X[3 * nn + d]) < tol || PetscAbsReal(X[3 * nn + d] - L) < tol) interior = PETSC_FALSE;
          }
          if (pm != 0 && interior)
            for (int d = 0; d < 3; d++) X[3 * nn + d] += pm * h * rnd(ctx);
          nn++;
        }
        t[4 + k] = edge[key];
      }
    }
    for (PetscInt f = 0; f < nb; f++) {
      PetscInt *v = mesh->bfaces + 6 * f;
      for (int k = 0; k < 3; k++) {
        const PetscInt p = v[FcTriEdgeNodes[k][0]], q = v[FcTriEdgeNodes[k][1]];
        v[3 + k] = edge[PetscMin(p, q) * nv + PetscMax(p, q)];
      }
    }
    PetscCall(PetscFree(edge));
  }
  mesh->order   = order;
  mesh->nnodes  = nn;
  mesh->X       = X;
  mesh->nelems  = nel;
  mesh->npe     = npe;
  mesh->nbfaces = nb;
  mesh->npf     = npf;
  PetscFunctionReturn(0);
}

static inline PetscErrorCode FcTestCubeMeshFree(FcMesh *mesh)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(mesh->X));
  PetscCall(PetscFree(mesh->conn));
  PetscCall(PetscFree(mesh->elem_id));
  PetscCall(PetscFree(mesh->bfaces));
  PetscCall(PetscFree(mesh->bface_elem));
  PetscFunctionReturn(0);
}

/* The tet4 cube of FcTestCubeMesh (side L) as a Gmsh MSH 2.2 ASCII file, stretched to the box
 * [0, size_x] × [0, size_y] × [0, size_z]: the tetrahedra in the physical volume "body", the
 * boundary triangles in the physical surfaces "xmin", "xmax", "ymin", "ymax", "zmin", "zmax"
 * (tags 1..6; the names of tests/data/cube_v22.msh). */
static inline PetscErrorCode FcTestCubeMeshWriteMsh(const FcMesh *mesh, PetscReal L, const PetscReal size[3], const char *path)
{
  static const char *const plane[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
  const PetscReal          tol      = 1e-12 * L;
  FILE                    *f;

  PetscFunctionBegin;
  PetscCheck(mesh->order == 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "tet4 meshes only");
  f = fopen(path, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
  fprintf(f, "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n7\n");
  for (int k = 0; k < 6; k++) fprintf(f, "2 %d \"%s\"\n", k + 1, plane[k]);
  fprintf(f, "3 7 \"body\"\n$EndPhysicalNames\n$Nodes\n%d\n", (int)mesh->nnodes);
  for (PetscInt i = 0; i < mesh->nnodes; i++)
    fprintf(f, "%d %.17g %.17g %.17g\n", (int)i + 1, (double)(mesh->X[3 * i] / L * size[0]), (double)(mesh->X[3 * i + 1] / L * size[1]),
      (double)(mesh->X[3 * i + 2] / L * size[2]));
  fprintf(f, "$EndNodes\n$Elements\n%d\n", (int)(mesh->nbfaces + mesh->nelems));
  for (PetscInt b = 0; b < mesh->nbfaces; b++) {
    const PetscInt *v   = mesh->bfaces + 3 * b;
    int             tag = 0;
    for (int d = 0; d < 3 && !tag; d++)
      for (int s = 0; s < 2 && !tag; s++)
        if (PetscAbsReal(mesh->X[3 * v[0] + d] - s * L) < tol && PetscAbsReal(mesh->X[3 * v[1] + d] - s * L) < tol &&
          PetscAbsReal(mesh->X[3 * v[2] + d] - s * L) < tol)
          tag = 2 * d + s + 1;
    fprintf(f, "%d 2 2 %d %d %d %d %d\n", (int)b + 1, tag, tag, (int)v[0] + 1, (int)v[1] + 1, (int)v[2] + 1);
  }
  for (PetscInt e = 0; e < mesh->nelems; e++) {
    const PetscInt *t = mesh->conn + 4 * e;
    fprintf(f, "%d 4 2 7 1 %d %d %d %d\n", (int)(mesh->nbfaces + e) + 1, (int)t[0] + 1, (int)t[1] + 1, (int)t[2] + 1, (int)t[3] + 1);
  }
  fprintf(f, "$EndElements\n");
  PetscCheck(!fclose(f), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "cannot write %s", path);
  PetscFunctionReturn(0);
}

/* One well-shaped tetrahedron of size ~L (order 2: straight, or curved when curved, its mid-edge
 * nodes moved by 0.04·L·rnd(ctx) per component). */
static inline void FcTestOneElement(PetscInt order, PetscBool curved, PetscReal L, PetscReal Xe[], PetscReal (*rnd)(void *), void *ctx)
{
  const PetscReal V[4][3] = {{0.10, -0.05, 0.02}, {1.05, 0.10, -0.03}, {0.05, 0.95, 0.10}, {-0.02, 0.08, 1.10}};
  for (int a = 0; a < 4; a++)
    for (int d = 0; d < 3; d++) Xe[3 * a + d] = L * V[a][d];
  if (order == 1) return;
  for (int e = 0; e < 6; e++)
    for (int d = 0; d < 3; d++)
      Xe[3 * (4 + e) + d] = 0.5 * (Xe[3 * FcTetEdgeNodes[e][0] + d] + Xe[3 * FcTetEdgeNodes[e][1] + d]) + (curved ? 0.04 * L * rnd(ctx) : 0.0);
}

static inline const char *FcTestElemName(PetscInt order, PetscBool curved) { return order == 1 ? "tet4" : (curved ? "tet10 curved" : "tet10"); }

/* A material of the registry (FcMaterialRegisterAll) with E, nu and density set (defaults for
 * the rest). */
static inline PetscErrorCode FcTestCreateMaterial(const char *model, PetscReal E, PetscReal nu, PetscReal rho, FcMaterial *mat)
{
  FcMaterialParams p;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsInit(&p, model));
  PetscCall(FcMaterialParamsSetReal(&p, "E", E));
  PetscCall(FcMaterialParamsSetReal(&p, "nu", nu));
  PetscCall(FcMaterialParamsSetReal(&p, "density", rho));
  PetscCall(FcMaterialCreate(&p, mat));
  PetscFunctionReturn(0);
}

#endif
