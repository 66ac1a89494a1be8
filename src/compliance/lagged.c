/* fcsim — compliance "lagged" (courtecuisse §IV-A, eq. 13; after Courtecuisse et al. 2010, their
 * ref. [9]): a sparse LDLᵀ factorization F of a deformable body's Newton matrix A is made at a
 * refresh and kept; between refreshes it is rotated by the nodal rotations R accumulated since it
 * was made,
 *
 *     P = R F Rᵀ,   P⁻¹ = R F⁻¹ Rᵀ        (the paper's eq. 13, P = Rᵀ_cur L D Lᵀ R_cur, with its
 *                                          R_cur = our Rᵀ: ours maps the refresh frame to the current one)
 *
 * and P serves (a) as the preconditioner of a Krylov method (CG, or GMRES) that solves the step's
 * Newton systems A Δx = −r to the step's own tolerance, so the converged state is the exact
 * model's whatever the lag, and (b) as the compliance of the contact problem, W_b = H_b P⁻¹ H_bᵀ
 * (the paper's eq. 10 with P for A).
 *
 * The correction is an increment of the contact forces (BeginCorrect_Lagged, Correct_Lagged): the
 * body's free increment solves the full residual R = r_int − Hᵀ r_last, and Δx = −A⁻¹ R + A⁻¹ (f −
 * f₀), f = Hᵀ r, f₀ = Hᵀ r_last, the contact problem built with P: its fixed point is the exact
 * model's whatever P. The paper makes one linearized solve per step; fcsim iterates Newton to its
 * tolerance, and there the former total formulation with P⁻¹ in the correction moved the fixed
 * point: Δx = −A⁻¹ r_free + P⁻¹ Hᵀ r = 0 leaves the residual r_free − Hᵀ r = (A P⁻¹ − I) Hᵀ r
 * (neo-Hookean two-block press, tests/integration/test_compliance_lagged.py's case, refresh 1000:
 * Newton stalled at a relative residual of 0.05 for 25 iterations). Both Krylov solves of a Newton
 * iteration stop at inexact-Newton forcing terms (Converged_Lagged); a failed one fails the step
 * (FcBodyKrylovSolve: CG, then GMRES).
 *
 * Refresh: at the first new A of every N-th step (compliance.refresh = N, counted from the first
 * step), and/or (compliance.refresh_drift = K) at the first new A of a step after one whose Krylov
 * iterations exceeded K: a drift measure of P against A that costs nothing (P = A converges at its
 * first iterate, 0 iterations; the count grows as A moves away from the rotated F — by the
 * deformation that the rotation does not capture); with N = 1 at every new A, so P = A and the Krylov solve converges at its first iterate: the
 * strategy is then `exact` to round-off (tests/integration/test_compliance_lagged.py). A body whose A does not
 * change (a linear material at fixed Δt) has nothing to refresh: its first factorization stays A.
 *
 * Rotation (compliance.rotation): "shape_matching", the paper's choice, Müller et al. 2005
 * ("Meshless deformations based on shape matching", eq. 7): for node i and its cluster N(i), the
 * node and the nodes it shares an element with, R_i is the rotation of the polar decomposition of
 * Σ_{j∈N(i)} (x_j − x̄)(x⁰_j − x̄⁰)ᵀ, x the nodes now, x⁰ at the refresh. It needs no deformation
 * gradient (the paper's MJED forms none; a tet4 gradient per element would need its own averaging
 * to the nodes) and stays defined on any cluster that is not flat. "none": R = I, so with no
 * refresh P is the first factorization: W is then `precomputed`'s (tested). "polar": the polar
 * rotation of the volume-averaged deformation gradient of the node's elements (RotationsPolar_Private,
 * which says why it differs from shape matching). A node with a
 * constrained DoF keeps R_i = I: a rotation would mix its prescribed component into the free ones
 * and the correction would move it. The rotations are recomputed at every new A only: a body whose
 * A is constant (linear) keeps R = I, as its A does not rotate with it.
 *
 * The factorization is PETSc's PCCHOLESKY with the solver the body's own linear solver had (MUMPS,
 * or PETSc's for a small linear body), on a copy of A, in the calling thread; with
 * compliance.async, CHOLMOD's, in a thread that calls no PETSc (LaggedJob; doc/architecture.md),
 * taken into use `delay` steps after its request (deterministic) or as soon as it is ready. Costs per step in
 * stats.csv (compliance.h): krylov_it, correction_time, refresh_time, refresh_lag, refresh_taken.
 * Bodies without a KSP (dynamic rigid bodies) get the exact W_b = H_b A_b⁻¹ H_bᵀ. The Newton
 * matrix's inertia correction cannot run: the shell preconditioner counts no inertia. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "compliance.h"
#include "../core/mat3.h"
#include <cholmod.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { LAGGED_ROT_SHAPE_MATCHING, LAGGED_ROT_NONE, LAGGED_ROT_POLAR } LaggedRotation;

typedef struct _Lagged Lagged;

/* compliance.async: one refresh in flight per body. The worker thread gets plain arrays (a copy of
 * A's rows, which are its columns: A is symmetric) and a cholmod_common of its own, and calls
 * nothing but CHOLMOD: PETSc, as Debian builds it, is not thread-safe, and the main thread goes on
 * with PETSc. The main thread reads the result only after pthread_join. */
typedef struct {
  cholmod_common  cm; /* the worker's; the main thread uses it only when no worker runs */
  pthread_t       thread;
  PetscBool       running;
  atomic_int      done;
  int             n, *p, *i;
  double         *x;
  cholmod_factor *L;       /* the result (NULL: A was not positive definite) */
  cholmod_factor *Ls;      /* the symbolic analysis (ordering, pattern of L), made once: A's pattern */
  int            *ps, *is; /* is fixed, checked against these (a change makes a new analysis) */
  double          seconds; /* the factorization's wall time in the worker */
  PetscInt        step;    /* the step of the request */
  PetscReal      *X0;      /* the nodes at the request */
  /* compliance.w_cache: the columns of the new F⁻¹ for the nodes the cache held at the request
   * (node[k]'s three are C[n (3 k + q)]), solved by the worker after the factorization, so that
   * the main thread does not solve them again after the refresh (JobTake_Private) */
  int     nnode, *node, cfail;
  double *C;
} LaggedJob;

typedef struct {
  Lagged       *L;
  PetscInt      b; /* model body index */
  FcBody        body;
  KSP           fksp; /* PREONLY + CHOLESKY on Af: the factorization F */
  Mat           Af;   /* A at the refresh */
  Vec           w1, w2;
  PetscInt      nnodes;
  PetscInt     *cptr, *cnode; /* shape-matching clusters: node i's are cnode[cptr[i] .. cptr[i+1]−1] */
  const FcMesh *mesh;         /* rotation "polar": the elements whose gradients are averaged */
  PetscReal    *Fsum;         /* rotation "polar": 10 nnodes, Σ V_e F_e (row-major) and Σ V_e per node */
  PetscBool    *pinned;       /* node with a constrained DoF: R_i = I */
  PetscReal    *X0, *x;       /* nodes at the refresh, nodes now (3 nnodes) */
  PetscReal    *R;            /* 9 nnodes, row-major, refresh frame → current */
  PetscBool     rotated;      /* some R_i ≠ I */
  PetscBool     have, linear;
  PetscInt      fact_step; /* step whose A F is */
  /* compliance.w_cache: columns of F⁻¹ for the DoFs of the nodes contacts touched since F was made
   * (node i's three are C[n (3 slot[i] + k)], k = 0..2; slot −1: not solved yet) */
  PetscInt    *slot, nslot, capslot;
  PetscScalar *C;
  /* compliance.async: F is CHOLMOD's Lc (solved in the main thread with cmain), the next one the job's */
  cholmod_common  cmain;
  cholmod_factor *Lc;
  LaggedJob       job;
  /* the increment formulation (BeginCorrect_Lagged): f₀ = Hᵀ r_last (zero: none), y₀ = P⁻¹ f₀ */
  Vec       f0, y0, cb, cx; /* cb, cx: the correction's right-hand side and solution */
  PetscBool hasf0, incorr;  /* incorr: the correction's solve is running */
  /* inexact Newton (Converged_Lagged): the step's Newton solves so far, the norm of the first and
   * of the last free right-hand side R_k, the forcing term η_k, the absolute target of the solves of
   * this Newton iteration */
  PetscInt  nsolve;
  PetscReal rfirst, rlast, eta, target, btol; /* btol: this solve's */
} LaggedBody;

struct _Lagged {
  PetscInt       refresh; /* every N-th step; 0: never by count */
  PetscInt       drift;   /* compliance.refresh_drift: refresh after a step of more Krylov iterations (0: off) */
  PetscInt       kit;     /* the Krylov iterations of the step so far */
  PetscBool      wcache;  /* compliance.w_cache: W from cached columns of F⁻¹ (DelassusCached_Private) */
  PetscReal      etamax;  /* Converged_Lagged's η_max (-fc_lagged_eta_max) */
  PetscBool      ew;      /* Converged_Lagged's forcing terms (-fc_lagged_forcing, default true) */
  PetscBool      same;    /* refresh at every new A, in this thread: P = A at every solve, and the
                           * correction is exact's own, total (BeginCorrect_Lagged) */
  LaggedRotation rotation;
  PetscBool      async;
  PetscInt       delay;   /* async: steps from the request to the use; −1: as soon as ready */
  PetscInt       step;    /* steps begun − 1 */
  PetscBool     *request; /* per body: a refresh is due */
  LaggedBody   **lb;      /* per body (NULL: no KSP) */
  FcCompliance   c;
};

/* The clusters N(i): i and every node of an element that contains i, ascending, unique. */
static PetscErrorCode Clusters_Private(LaggedBody *lb, const FcMesh *mesh)
{
  PetscInt *cnt, *fill, n = mesh->nnodes, npe = mesh->npe, tot = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc2(n + 1, &cnt, n, &fill));
  for (PetscInt e = 0; e < mesh->nelems; e++)
    for (PetscInt k = 0; k < npe; k++) cnt[mesh->conn[e * npe + k]] += npe;
  PetscCall(PetscMalloc1(n + 1, &lb->cptr));
  lb->cptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) lb->cptr[i + 1] = lb->cptr[i] + cnt[i];
  PetscCall(PetscMalloc1(lb->cptr[n] + 1, &lb->cnode));
  for (PetscInt e = 0; e < mesh->nelems; e++)
    for (PetscInt k = 0; k < npe; k++) {
      const PetscInt i = mesh->conn[e * npe + k];
      for (PetscInt l = 0; l < npe; l++) lb->cnode[lb->cptr[i] + fill[i]++] = mesh->conn[e * npe + l];
    }
  for (PetscInt i = 0; i < n; i++) { /* sort, unique, compact in place */
    PetscInt m = fill[i];
    PetscCall(PetscSortRemoveDupsInt(&m, &lb->cnode[lb->cptr[i]]));
    for (PetscInt j = 0; j < m; j++) lb->cnode[tot + j] = lb->cnode[lb->cptr[i] + j];
    lb->cptr[i] = tot;
    tot += m;
  }
  lb->cptr[n] = tot;
  PetscCall(PetscFree2(cnt, fill));
  PetscFunctionReturn(0);
}

/* R_i by shape matching between the refresh's nodes X0 and the current ones x (head comment). */
static PetscErrorCode Rotations_Private(LaggedBody *lb)
{
  PetscFunctionBegin;
  lb->rotated = PETSC_FALSE;
  for (PetscInt i = 0; i < lb->nnodes; i++) {
    PetscReal     *Ri = &lb->R[9 * i], pc[3] = {0, 0, 0}, qc[3] = {0, 0, 0}, Apq[9] = {0};
    const PetscInt j0 = lb->cptr[i], j1 = lb->cptr[i + 1];
    FcMat3Identity(Ri);
    if (lb->pinned[i] || j1 - j0 < 4) continue;
    for (PetscInt j = j0; j < j1; j++)
      for (int k = 0; k < 3; k++) {
        pc[k] += lb->x[3 * lb->cnode[j] + k] / (j1 - j0);
        qc[k] += lb->X0[3 * lb->cnode[j] + k] / (j1 - j0);
      }
    for (PetscInt j = j0; j < j1; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) Apq[3 * k + l] += (lb->x[3 * lb->cnode[j] + k] - pc[k]) * (lb->X0[3 * lb->cnode[j] + l] - qc[l]);
    if (!FcMat3Polar(Apq, Ri)) FcMat3Identity(Ri); /* a flat or inverted cluster: no rotation */
    for (int k = 0; k < 9 && !lb->rotated; k++) lb->rotated = (PetscBool)(Ri[k] != (k % 4 == 0 ? 1.0 : 0.0));
  }
  PetscFunctionReturn(0);
}

/* R_i by polar decomposition (compliance.rotation "polar"): F_e = D_s D_m⁻¹ of each element's
 * vertices (D_m the edges from vertex 0 at the refresh, D_s now; a tet10's straight-sided
 * gradient), averaged over the elements of node i weighted by their volume at the refresh,
 * F̄_i = Σ V_e F_e / Σ V_e, and R_i the rotation of F̄_i = R_i U_i. Why the average of F and not of
 * the elements' rotations: the rotations of a nonlinear group have no linear mean, F has, and a
 * rigid rotation Q gives F_e = Q for every element, so F̄_i = Q and R_i = Q to round-off, as shape
 * matching. The difference to shape matching: its covariance Σ (x_j − x̄)(x⁰_j − x̄⁰)ᵀ weighs the
 * cluster's nodes by their distance to the centroid (a node's far neighbours count most, and at a
 * boundary node the cluster is one-sided), F̄ weighs the material around the node by its volume,
 * the continuum's own rotation (Müller et al. 2005 §4 note the two agree for affine motion).
 * Pinned nodes keep I; a node whose F̄ is singular or inverted keeps I, as shape matching. x: the
 * nodes now (RotationsAny_Private). */
static PetscErrorCode RotationsPolar_Private(LaggedBody *lb)
{
  const FcMesh *m = lb->mesh;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(lb->Fsum, 10 * lb->nnodes));
  for (PetscInt e = 0; e < m->nelems; e++) {
    const PetscInt *c = &m->conn[e * m->npe];
    PetscReal       Dm[9], Ds[9], Dmi[9], Fe[9], V;
    for (int k = 0; k < 3; k++)
      for (int l = 0; l < 3; l++) { /* column l: edge from vertex 0 to vertex l + 1 */
        Dm[3 * k + l] = lb->X0[3 * c[l + 1] + k] - lb->X0[3 * c[0] + k];
        Ds[3 * k + l] = lb->x[3 * c[l + 1] + k] - lb->x[3 * c[0] + k];
      }
    V = PetscAbsReal(FcMat3Inv(Dm, Dmi)) / 6.0;
    if (V == 0) continue;
    FcMat3Mult(Ds, Dmi, Fe);
    for (PetscInt a = 0; a < m->npe; a++) {
      PetscReal *S = &lb->Fsum[10 * c[a]];
      for (int k = 0; k < 9; k++) S[k] += V * Fe[k];
      S[9] += V;
    }
  }
  lb->rotated = PETSC_FALSE;
  for (PetscInt i = 0; i < lb->nnodes; i++) {
    PetscReal *Ri = &lb->R[9 * i], *S = &lb->Fsum[10 * i];
    FcMat3Identity(Ri);
    if (lb->pinned[i] || S[9] == 0) continue;
    for (int k = 0; k < 9; k++) S[k] /= S[9];
    if (!FcMat3Polar(S, Ri)) FcMat3Identity(Ri);
    for (int k = 0; k < 9 && !lb->rotated; k++) lb->rotated = (PetscBool)(Ri[k] != (k % 4 == 0 ? 1.0 : 0.0));
  }
  PetscFunctionReturn(0);
}

/* The rotations of compliance.rotation to the nodes now ("none": nothing to do, R = I stays). */
static PetscErrorCode RotationsAny_Private(LaggedBody *lb)
{
  PetscFunctionBegin;
  PetscCall(FcBodyNodes(lb->body, lb->x));
  if (lb->L->rotation == LAGGED_ROT_SHAPE_MATCHING) PetscCall(Rotations_Private(lb));
  else if (lb->L->rotation == LAGGED_ROT_POLAR) PetscCall(RotationsPolar_Private(lb));
  PetscFunctionReturn(0);
}

/* v ← R v (transpose: Rᵀ v), node by node, on a plain array of 3 nnodes entries. */
static void Rotate_Private(const LaggedBody *lb, PetscBool transpose, PetscScalar *v)
{
  if (!lb->rotated) return;
  for (PetscInt i = 0; i < lb->nnodes; i++) {
    const PetscReal *Ri = &lb->R[9 * i];
    PetscReal        y[3];
    for (int k = 0; k < 3; k++)
      y[k] = transpose ? Ri[k] * v[3 * i] + Ri[3 + k] * v[3 * i + 1] + Ri[6 + k] * v[3 * i + 2]
                       : Ri[3 * k] * v[3 * i] + Ri[3 * k + 1] * v[3 * i + 1] + Ri[3 * k + 2] * v[3 * i + 2];
    for (int k = 0; k < 3; k++) v[3 * i + k] = y[k];
  }
}

/* The largest age in steps of the factorizations in use (stats.csv refresh_lag). */
static void Lag_Private(Lagged *L)
{
  PetscInt lag = 0;
  if (!L->c->stats) return;
  for (PetscInt b = 0; b < L->c->model->nbodies; b++)
    if (L->lb[b] && L->lb[b]->have) lag = PetscMax(lag, L->step - L->lb[b]->fact_step);
  L->c->stats->refresh_lag = lag;
}

/* A new F: the cached columns of the old one are dropped (compliance.w_cache). */
static void CacheReset_Private(LaggedBody *lb)
{
  if (!lb->slot) return;
  for (PetscInt i = 0; i < lb->nnodes; i++) lb->slot[i] = -1;
  lb->nslot = 0;
}

/* The worker's part of compliance.w_cache: C = F⁻¹ on the columns of the DoFs of j->node, with the
 * new factor, in blocks of FC_COMPLIANCE_BLOCK as CacheEnsure_Private solves them in the main
 * thread (the same CHOLMOD solve, column by column: the same columns). Plain malloc and CHOLMOD
 * only (no PETSc in this thread); a failed allocation or solve sets cfail, and the main thread then
 * solves the columns itself when a contact needs them. */
static void WorkerColumns_Private(LaggedJob *j)
{
  const size_t  n  = (size_t)j->n;
  const int     nc = 3 * j->nnode;
  double       *B  = calloc(n * FC_COMPLIANCE_BLOCK, sizeof(double));
  cholmod_dense b, *x;

  j->cfail = B == NULL;
  for (int c0 = 0; c0 < nc && !j->cfail; c0 += FC_COMPLIANCE_BLOCK) {
    const int nb = nc - c0 < FC_COMPLIANCE_BLOCK ? nc - c0 : FC_COMPLIANCE_BLOCK;
    for (int k = 0; k < nb; k++) B[(size_t)k * n + 3 * (size_t)j->node[(c0 + k) / 3] + (size_t)((c0 + k) % 3)] = 1.0;
    memset(&b, 0, sizeof b);
    b.nrow  = n;
    b.ncol  = (size_t)nb;
    b.nzmax = n * (size_t)nb;
    b.d     = n;
    b.x     = B;
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;
    x       = cholmod_solve(CHOLMOD_A, j->L, &b, &j->cm);
    if (!x) j->cfail = 1;
    else {
      for (int k = 0; k < nb; k++) memcpy(&j->C[n * (size_t)(c0 + k)], &((double *)x->x)[(size_t)k * x->d], n * sizeof(double));
      cholmod_free_dense(&x, &j->cm);
    }
    for (int k = 0; k < nb; k++) B[(size_t)k * n + 3 * (size_t)j->node[(c0 + k) / 3] + (size_t)((c0 + k) % 3)] = 0.0;
  }
  free(B);
}

static void *Worker_Private(void *arg)
{
  LaggedJob      *j = (LaggedJob *)arg;
  cholmod_sparse  A;
  struct timespec t0, t1;

  clock_gettime(CLOCK_MONOTONIC, &t0);
  memset(&A, 0, sizeof A);
  A.nrow = A.ncol = (size_t)j->n;
  A.nzmax         = (size_t)j->p[j->n];
  A.p             = j->p;
  A.i             = j->i;
  A.x             = j->x;
  A.stype         = 1; /* symmetric, its upper triangle read */
  A.itype         = CHOLMOD_INT;
  A.xtype         = CHOLMOD_REAL;
  A.dtype         = CHOLMOD_DOUBLE;
  A.sorted        = 1;
  A.packed        = 1;
  j->L            = NULL;
  if (j->Ls &&
    (j->ps[j->n] != j->p[j->n] || memcmp(j->ps, j->p, sizeof(int) * (size_t)(j->n + 1)) ||
      memcmp(j->is, j->i, sizeof(int) * (size_t)j->p[j->n]))) { /* a new pattern: a new analysis */
    cholmod_free_factor(&j->Ls, &j->cm);
    free(j->ps);
    free(j->is);
    j->ps = j->is = NULL;
  }
  if (!j->Ls && (j->Ls = cholmod_analyze(&A, &j->cm))) {
    j->ps = malloc(sizeof(int) * (size_t)(j->n + 1));
    j->is = malloc(sizeof(int) * (size_t)(j->p[j->n] ? j->p[j->n] : 1));
    if (j->ps && j->is) {
      memcpy(j->ps, j->p, sizeof(int) * (size_t)(j->n + 1));
      memcpy(j->is, j->i, sizeof(int) * (size_t)j->p[j->n]);
    } else cholmod_free_factor(&j->Ls, &j->cm); /* no copy of the pattern, no reuse */
  }
  if (j->Ls) j->L = cholmod_copy_factor(j->Ls, &j->cm);
  if (j->L && (!cholmod_factorize(&A, j->L, &j->cm) || j->L->minor < (size_t)j->n)) cholmod_free_factor(&j->L, &j->cm);
  if (j->L && j->nnode) WorkerColumns_Private(j);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  j->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  atomic_store(&j->done, 1);
  return NULL;
}

/* A's rows into the job's plain arrays, the nodes now; then the worker, in a thread (thread) or
 * here. */
static PetscErrorCode JobStart_Private(LaggedBody *lb, Mat A, PetscBool thread)
{
  LaggedJob *j = &lb->job;
  PetscInt   n, nnz = 0;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &n, NULL));
  j->n = (int)n;
  PetscCall(PetscMalloc1(n + 1, &j->p));
  j->p[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt nc;
    PetscCall(MatGetRow(A, r, &nc, NULL, NULL));
    nnz += nc;
    j->p[r + 1] = (int)nnz;
    PetscCall(MatRestoreRow(A, r, &nc, NULL, NULL));
  }
  PetscCall(PetscMalloc2(nnz, &j->i, nnz, &j->x));
  for (PetscInt r = 0; r < n; r++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(A, r, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++) {
      j->i[j->p[r] + k] = (int)cols[k];
      j->x[j->p[r] + k] = vals[k];
    }
    PetscCall(MatRestoreRow(A, r, &nc, &cols, &vals));
  }
  PetscCall(FcBodyNodes(lb->body, j->X0));
  j->nnode = 0;
  j->cfail = 0;
  if (thread && lb->L->wcache && lb->nslot > 0) { /* the cache's nodes, in its slot order */
    j->nnode = (int)lb->nslot;
    PetscCall(PetscMalloc1(lb->nslot, &j->node));
    PetscCall(PetscMalloc1((size_t)n * 3 * lb->nslot, &j->C));
    for (PetscInt i = 0; i < lb->nnodes; i++)
      if (lb->slot[i] >= 0) j->node[lb->slot[i]] = (int)i;
  }
  j->step = lb->L->step;
  atomic_store(&j->done, 0);
  j->L = NULL;
  if (thread) {
    PetscCheck(
      !pthread_create(&j->thread, NULL, Worker_Private, j), PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot start the refresh thread of compliance \"lagged\"");
    j->running = PETSC_TRUE;
  } else Worker_Private(j);
  PetscFunctionReturn(0);
}

static PetscErrorCode JobFreeColumns_Private(LaggedJob *j)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(j->node));
  PetscCall(PetscFree(j->C));
  j->nnode = 0;
  PetscFunctionReturn(0);
}

/* The job's factorization into use (after joining its thread): F, X0, its step; the rotations to
 * the nodes now. A failed one (A not positive definite) leaves F as it was. */
static PetscErrorCode JobTake_Private(LaggedBody *lb)
{
  LaggedJob *j = &lb->job;
  Lagged    *L = lb->L;

  PetscFunctionBegin;
  if (j->running) {
    const PetscBool busy = (PetscBool)!atomic_load(&j->done);
    PetscLogDouble  t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCheck(!pthread_join(j->thread, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot join the refresh thread");
    PetscCall(PetscTime(&t1));
    /* the step waited for the refresh (delay too short for the cores the thread got): -info says how long */
    if (busy)
      PetscCall(PetscInfo(NULL, "Body %s: step %d waited %g s for the refresh of step %d\n", FcBodyName(lb->body), (int)L->step, t1 - t0, (int)j->step));
  }
  j->running = PETSC_FALSE;
  PetscCall(PetscFree(j->p));
  PetscCall(PetscFree2(j->i, j->x));
  if (!j->L) {
    PetscCall(JobFreeColumns_Private(j));
    PetscCall(PetscInfo(NULL, "Body %s: the refresh of step %d failed (CHOLMOD status %d); the factorization of step %d stays\n", FcBodyName(lb->body),
      (int)j->step, j->cm.status, (int)lb->fact_step));
    PetscFunctionReturn(0);
  }
  if (lb->Lc) cholmod_free_factor(&lb->Lc, &lb->cmain);
  lb->Lc = j->L;
  j->L   = NULL;
  PetscCall(PetscArraycpy(lb->X0, j->X0, 3 * lb->nnodes));
  lb->have      = PETSC_TRUE;
  lb->fact_step = j->step;
  CacheReset_Private(lb);
  if (j->nnode && !j->cfail) { /* the worker's columns of the new F⁻¹ become the cache */
    PetscCall(PetscFree(lb->C));
    lb->C = j->C;
    j->C  = NULL;
    for (int k = 0; k < j->nnode; k++) lb->slot[j->node[k]] = k;
    lb->nslot = lb->capslot = j->nnode;
  }
  PetscCall(JobFreeColumns_Private(j));
  if (L->c->stats) {
    L->c->stats->refresh_time += j->seconds;
    L->c->stats->refresh_taken = 1;
  }
  if (L->rotation != LAGGED_ROT_NONE && !lb->linear && lb->fact_step != L->step) PetscCall(RotationsAny_Private(lb));
  else {
    for (PetscInt i = 0; i < lb->nnodes; i++) FcMat3Identity(&lb->R[9 * i]);
    lb->rotated = PETSC_FALSE;
  }
  Lag_Private(L);
  PetscFunctionReturn(0);
}

/* X = F⁻¹ B, nrhs columns of the body's ndof entries (leading dimensions ldb, ldx), by CHOLMOD's
 * factor in use (async). */
static PetscErrorCode CholSolve_Private(LaggedBody *lb, PetscInt nrhs, PetscScalar *B, PetscInt ldb, PetscScalar *X, PetscInt ldx)
{
  cholmod_dense b, *x;

  PetscFunctionBegin;
  memset(&b, 0, sizeof b);
  b.nrow  = lb->Lc->n;
  b.ncol  = (size_t)nrhs;
  b.nzmax = (size_t)ldb * (size_t)nrhs;
  b.d     = (size_t)ldb;
  b.x     = B;
  b.xtype = CHOLMOD_REAL;
  b.dtype = CHOLMOD_DOUBLE;
  x       = cholmod_solve(CHOLMOD_A, lb->Lc, &b, &lb->cmain);
  PetscCheck(x, PETSC_COMM_SELF, PETSC_ERR_LIB, "CHOLMOD solve failed (status %d)", lb->cmain.status);
  for (PetscInt j = 0; j < nrhs; j++) PetscCall(PetscArraycpy(&X[j * ldx], &((double *)x->x)[j * x->d], lb->Lc->n));
  cholmod_free_dense(&x, &lb->cmain);
  PetscFunctionReturn(0);
}

/* F = the factorization of A (a copy), X0 = the nodes now, R = I. */
static PetscErrorCode Factor_Private(LaggedBody *lb, Mat A)
{
  Lagged        *L = lb->L;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  if (L->async) { /* the first factorization, in this thread: the same worker function, called */
    PetscCall(JobStart_Private(lb, A, PETSC_FALSE));
    PetscCall(JobTake_Private(lb));
    PetscCheck(lb->Lc, PETSC_COMM_SELF, PETSC_ERR_MAT_CH_ZRPVT, "Body %s: CHOLMOD cannot factor A (not positive definite, or out of memory: status %d)",
      FcBodyName(lb->body), lb->job.cm.status);
  } else {
    if (!lb->Af) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &lb->Af));
    else PetscCall(MatCopy(A, lb->Af, SAME_NONZERO_PATTERN));
    PetscCall(KSPSetOperators(lb->fksp, lb->Af, lb->Af));
    PetscCall(KSPSetUp(lb->fksp));
  }
  PetscCall(FcBodyNodes(lb->body, lb->X0));
  for (PetscInt i = 0; i < lb->nnodes; i++) FcMat3Identity(&lb->R[9 * i]);
  lb->rotated   = PETSC_FALSE;
  lb->have      = PETSC_TRUE;
  lb->fact_step = L->step;
  CacheReset_Private(lb);
  L->request[lb->b] = (PetscBool)(L->refresh == 1); /* N = 1: every new A (head comment) */
  PetscCall(PetscTime(&t1));
  if (L->c->stats) {
    L->c->stats->refresh_time += t1 - t0;
    L->c->stats->refresh_taken = 1;
  }
  Lag_Private(L);
  PetscFunctionReturn(0);
}

/* The body's KSP set up a new A: refresh when due, else rotate the lagged factorization to it. */
static PetscErrorCode PCSetUp_Lagged(PC pc)
{
  LaggedBody *lb;
  Mat         A;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &lb));
  PetscCall(PCGetOperators(pc, &A, NULL));
  if (lb->L->async && lb->have && lb->L->request[lb->b] && !lb->job.running) { /* the refresh starts */
    PetscCall(JobStart_Private(lb, A, PETSC_TRUE));
    lb->L->request[lb->b] = PETSC_FALSE;
  }
  if (!lb->have || (!lb->L->async && lb->L->request[lb->b])) PetscCall(Factor_Private(lb, A));
  else if (lb->L->rotation != LAGGED_ROT_NONE && !lb->linear) PetscCall(RotationsAny_Private(lb));
  PetscFunctionReturn(0);
}

/* y = P⁻¹ x = R F⁻¹ Rᵀ x on plain arrays (x, y of the body's ndof entries; may alias). */
static PetscErrorCode ApplyArray_Private(LaggedBody *lb, const PetscScalar *x, PetscScalar *y)
{
  PetscScalar       *w;
  const PetscScalar *z;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(lb->w1, &n));
  PetscCall(VecGetArray(lb->w1, &w));
  PetscCall(PetscArraycpy(w, x, n));
  Rotate_Private(lb, PETSC_TRUE, w);
  if (lb->L->async) {
    PetscCall(CholSolve_Private(lb, 1, w, n, y, n));
    PetscCall(VecRestoreArray(lb->w1, &w));
  } else {
    PetscCall(VecRestoreArray(lb->w1, &w));
    PetscCall(KSPSolve(lb->fksp, lb->w1, lb->w2));
    PetscCall(VecGetArrayRead(lb->w2, &z));
    PetscCall(PetscArraycpy(y, z, n));
    PetscCall(VecRestoreArrayRead(lb->w2, &z));
  }
  Rotate_Private(lb, PETSC_FALSE, y);
  PetscFunctionReturn(0);
}

static PetscErrorCode ApplyForce_Private(LaggedBody *, const PetscScalar *, PetscScalar *);

/* y = P⁻¹ x. The correction's first iterate (Knoll's, P⁻¹ b with b = f − f₀ the right-hand side
 * itself: Correct_Lagged) lives on the contact nodes, so it is made from the W cache's columns of
 * F⁻¹ when they are there (ApplyForce_Private: a product of ndof × 3 (nodes of f), no solve; the
 * same P⁻¹ b to round-off), one CHOLMOD solve fewer per correction. */
static PetscErrorCode PCApply_Lagged(PC pc, Vec x, Vec y)
{
  LaggedBody        *lb;
  const PetscScalar *xa;
  PetscScalar       *ya;

  PetscFunctionBegin;
  PetscCall(PCShellGetContext(pc, &lb));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArray(y, &ya));
  if (lb->incorr && x == lb->cb && x != y) PetscCall(ApplyForce_Private(lb, xa, ya));
  else PetscCall(ApplyArray_Private(lb, xa, ya));
  PetscCall(VecRestoreArray(y, &ya));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

/* Inexact Newton: the forcing terms of Eisenstat & Walker ("Choosing the forcing terms in an inexact
 * Newton method", SIAM J. Sci. Comput. 17(1), 1996, 16–32), their choice 2 with its safeguard:
 *
 *     η_k = γ (‖R_k‖ / ‖R_{k−1}‖)^α,  γ = 0.9, α = 2;  η_k ← max(η_k, γ η_{k−1}^α) when γ η_{k−1}^α > 0.1;
 *     η_k ≤ η_max = 0.1;  η_0 = η_max at a step's first iteration,
 *
 * and the linear residual of the Newton step, ‖A Δx + R_k − (f − f₀)‖, within η_k ‖R_k‖: the free
 * solve and the correction's (Correct_Lagged) get half each. R_k is the free solve's right-hand
 * side, the full residual (FcBodySetContactInFree). The inner tolerance follows the outer residual's
 * decrease instead of a fixed fraction of the right-hand side; where the Newton iteration is fixed
 * is still the step's Newton test. Two floors: never below what the Newton test can tell,
 * ½ (atol + rtol ‖R_0‖) (Kelley, "Iterative Methods for Linear and Nonlinear Equations", SIAM 1995,
 * §6.3: a linear residual under the nonlinear tolerance buys nothing; ‖R_0‖ ≤ the Newton test's
 * reference, so the floor is on the safe side), and never tighter than before forcing terms,
 * 1e-2 rtol of the right-hand side (the round-off of a Krylov residual). With P = A the first
 * iterate P⁻¹ b meets any of these: 0 iterations. η_max: EW's 0.9 let the first iterations of a step
 * solve so loosely that Newton needed more of them, and here an iteration's assembly costs more than
 * the Krylov iterations it saves: Fig. 4 cube (async, refresh 3, 300 steps), Newton / Krylov
 * iterations: refine 1, η_max 0.9 832 / 701, 0.1 615 / 1572, 0.01 651 / 2019, the fixed 1e-2 rtol
 * 650 / 5550; refine 2, 0.9 850 / 869, 0.1 668 / 1702, fixed 737 / 6681 (exact: 583 Newton at refine 1).
 * -fc_lagged_eta_max sets it; -fc_lagged_forcing false restores the fixed tolerance. */
#define FC_LAGGED_EW_GAMMA  0.9
#define FC_LAGGED_EW_ALPHA  2.0
#define FC_LAGGED_EW_ETAMAX 0.1
static PetscErrorCode Converged_Lagged(KSP ksp, PetscInt it, PetscReal rnorm, KSPConvergedReason *reason, void *ctx)
{
  LaggedBody   *lb = (LaggedBody *)ctx;
  const FcCase *cs = lb->L->c->model->c;

  PetscFunctionBegin;
  *reason = KSP_CONVERGED_ITERATING;
  if (PetscIsInfOrNanReal(rnorm)) {
    *reason = KSP_DIVERGED_NANORINF;
    PetscFunctionReturn(0);
  }
  if (it == 0) {
    Vec       rhs;
    PetscReal bn;
    PetscCall(KSPGetRhs(ksp, &rhs));
    PetscCall(VecNorm(rhs, NORM_2, &bn));
    if (!lb->incorr) { /* the free solve opens a Newton iteration: its forcing term */
      PetscReal eta = lb->L->etamax;
      if (lb->nsolve == 0) lb->rfirst = bn;
      else if (lb->rlast > 0) {
        const PetscReal sg = FC_LAGGED_EW_GAMMA * PetscPowReal(lb->eta, FC_LAGGED_EW_ALPHA);
        eta                = FC_LAGGED_EW_GAMMA * PetscPowReal(bn / lb->rlast, FC_LAGGED_EW_ALPHA);
        if (sg > 0.1) eta = PetscMax(eta, sg);
        eta = PetscMin(eta, lb->L->etamax);
      }
      if (!lb->L->ew) eta = 0; /* -fc_lagged_forcing false: the former fixed 1e-2 rtol (comparisons) */
      lb->eta    = eta;
      lb->rlast  = bn;
      lb->target = lb->L->ew ? 0.5 * PetscMax(eta * bn, 0.5 * (cs->newton_atol + cs->newton_rtol * lb->rfirst)) : 0;
      lb->nsolve++;
    }
    lb->btol = PetscMax(lb->target, 1e-2 * cs->newton_rtol * bn);
  }
  if (rnorm <= lb->btol) *reason = KSP_CONVERGED_ATOL;
  PetscFunctionReturn(0);
}

/* stats.csv krylov_it: the Krylov iterations of the step's solves with A (Newton, corrections)
 * after their first iterate P⁻¹ b: 0 when P = A (every solve converged by its start) */
static PetscErrorCode KSPCount_Lagged(KSP ksp, PetscInt it, PetscReal rnorm, void *ctx)
{
  Lagged *L = (Lagged *)ctx;

  PetscFunctionBegin;
  (void)ksp;
  (void)rnorm;
  if (it > 0) L->kit++;
  if (it > 0 && L->c->stats) L->c->stats->krylov_it++;
  PetscFunctionReturn(0);
}

/* X = P⁻¹ B = R F⁻¹ Rᵀ B for a block of columns (FcComplianceDelassusByOperator's solve: W +=
 * H_b P⁻¹ H_bᵀ on the kept rows and columns, on a block-sparse W only the kept columns of the
 * contacts b touches, as FcComplianceDelassusBySolve with P⁻¹ for A_b⁻¹). B is rotated in place. */
static PetscErrorCode SolveMulti_Lagged(void *ctx, FcBody body, Mat B, Mat X)
{
  LaggedBody  *lb = (LaggedBody *)ctx;
  PetscInt     nb, lda, ldx;
  PetscScalar *h, *x;

  PetscFunctionBegin;
  (void)body;
  PetscCall(MatGetSize(B, NULL, &nb));
  PetscCall(MatDenseGetArray(B, &h));
  PetscCall(MatDenseGetLDA(B, &lda));
  for (PetscInt j = 0; j < nb; j++) Rotate_Private(lb, PETSC_TRUE, &h[j * lda]); /* Rᵀ (row of H_b)ᵀ */
  PetscCall(MatDenseGetArray(X, &x));
  PetscCall(MatDenseGetLDA(X, &ldx));
  if (lb->L->async) PetscCall(CholSolve_Private(lb, nb, h, lda, x, ldx));
  PetscCall(MatDenseRestoreArray(B, &h));
  if (!lb->L->async) {
    PetscCall(MatDenseRestoreArray(X, &x));
    PetscCall(KSPMatSolve(lb->fksp, B, X));
    PetscCall(MatDenseGetArray(X, &x));
  }
  for (PetscInt j = 0; j < nb; j++) Rotate_Private(lb, PETSC_FALSE, &x[j * ldx]);
  PetscCall(MatDenseRestoreArray(X, &x));
  PetscFunctionReturn(0);
}

/* A body that has not solved yet (no factorization): its current operator. */
static PetscErrorCode Ensure_Private(LaggedBody *lb)
{
  KSP ksp;
  Mat A;

  PetscFunctionBegin;
  if (lb->have) PetscFunctionReturn(0);
  PetscCall(FcBodyGetKSP(lb->body, &ksp));
  PetscCall(KSPGetOperators(ksp, &A, NULL));
  PetscCall(Factor_Private(lb, A));
  PetscFunctionReturn(0);
}

/* compliance.w_cache: the columns of F⁻¹ for the DoFs of every node body b's contacts touch that
 * has none yet, solved in blocks of FC_COMPLIANCE_BLOCK (unrotated: F is the refresh's A). */
static PetscErrorCode CacheEnsure_Private(LaggedBody *lb, const FcJacobianBlock *J, PetscInt m)
{
  const PetscInt n     = 3 * lb->nnodes;
  PetscInt       first = lb->nslot;

  PetscFunctionBegin;
  if (!lb->slot) {
    PetscCall(PetscMalloc1(lb->nnodes, &lb->slot));
    CacheReset_Private(lb);
  }
  for (PetscInt e = 0; e < J->ptr[m]; e++) {
    const PetscInt i = J->dof[e] / 3;
    if (lb->slot[i] >= 0) continue;
    if (lb->nslot == lb->capslot) { /* grow: the columns are kept in slot order */
      PetscScalar *C;
      lb->capslot = PetscMax(16, 2 * lb->capslot);
      PetscCall(PetscMalloc1((size_t)n * 3 * lb->capslot, &C));
      if (lb->nslot) PetscCall(PetscArraycpy(C, lb->C, (size_t)n * 3 * lb->nslot));
      PetscCall(PetscFree(lb->C));
      lb->C = C;
    }
    lb->slot[i] = lb->nslot++;
  }
  if (first == lb->nslot) PetscFunctionReturn(0);
  {
    PetscInt *node;
    PetscCall(PetscMalloc1(lb->nslot - first, &node));
    for (PetscInt i = 0; i < lb->nnodes; i++)
      if (lb->slot[i] >= first) node[lb->slot[i] - first] = i;
    for (PetscInt c0 = 3 * first; c0 < 3 * lb->nslot; c0 += FC_COMPLIANCE_BLOCK) {
      const PetscInt nb = PetscMin(FC_COMPLIANCE_BLOCK, 3 * lb->nslot - c0);
      PetscScalar   *X  = &lb->C[(size_t)n * c0], *h;
      Mat            B, Xm;
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, nb, NULL, &B));
      PetscCall(MatZeroEntries(B));
      PetscCall(MatDenseGetArray(B, &h));
      for (PetscInt j = 0; j < nb; j++) h[(size_t)j * n + 3 * node[(c0 + j) / 3 - first] + (c0 + j) % 3] = 1.0;
      if (lb->L->async) PetscCall(CholSolve_Private(lb, nb, h, n, X, n));
      PetscCall(MatDenseRestoreArray(B, &h));
      if (!lb->L->async) {
        PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, nb, X, &Xm));
        PetscCall(KSPMatSolve(lb->fksp, B, Xm));
        PetscCall(MatDestroy(&Xm));
      }
      PetscCall(MatDestroy(&B));
    }
    PetscCall(PetscFree(node));
  }
  PetscFunctionReturn(0);
}

/* W_b = H_b P⁻¹ H_bᵀ = (Rᵀ H_bᵀ)ᵀ F⁻¹ (Rᵀ H_bᵀ) from the cached columns of F⁻¹ (compliance.w_cache):
 * Rᵀ H_bᵀ is nonzero on the DoFs of the contacts' nodes only (R is node by node), so W_b needs F⁻¹
 * on those DoFs, and F does not change between refreshes: the solves of a node's three columns are
 * made once per F, and each Newton iteration's W is a gather (courtecuisse §IV-A: the compliance
 * from the lagged factorization "rotated" instead of refactored). The same W as SolveMulti_Lagged's
 * up to round-off (the products summed in another order); the same kept columns and W entries as
 * FcComplianceDelassusByOperator. */
static PetscErrorCode DelassusCached_Private(LaggedBody *lb, const FcContactJacobian *H, FcContactProblem p, PetscInt b)
{
  const FcJacobianBlock *J   = &H->body[b];
  const PetscInt         n   = 3 * lb->nnodes;
  PetscInt              *pos = NULL, *loc, *tn, nt = 0;
  PetscScalar           *w, *x;

  PetscFunctionBegin;
  PetscCall(CacheEnsure_Private(lb, J, H->m));
  PetscCall(PetscMalloc3(H->m, &pos, lb->nnodes, &loc, lb->nnodes, &tn));
  for (PetscInt i = 0; i < lb->nnodes; i++) loc[i] = -1;
  for (PetscInt e = 0; e < J->ptr[H->m]; e++) /* the touched nodes, in local order */
    if (loc[J->dof[e] / 3] < 0) {
      loc[J->dof[e] / 3] = nt;
      tn[nt++]           = J->dof[e] / 3;
    }
  PetscCall(PetscCalloc2(3 * nt, &w, 3 * nt, &x));
  for (PetscInt k = 0; k < H->nkeep; k++) {
    const PetscInt a2 = H->kcol[k] / 3, j2 = H->kcol[k] % 3;
    if (J->ptr[a2 + 1] == J->ptr[a2]) continue; /* a zero column of H_bᵀ (on a dense W, skipped: adds 0) */
    PetscCall(PetscArrayzero(w, 3 * nt));
    for (PetscInt e = J->ptr[a2]; e < J->ptr[a2 + 1]; e++) w[3 * loc[J->dof[e] / 3] + J->dof[e] % 3] += J->coef[e][j2];
    for (PetscInt t = 0; t < nt; t++) { /* w ← Rᵀ w on the nodes the column touches */
      const PetscReal *Ri = &lb->R[9 * tn[t]];
      PetscReal        y[3];
      if (!lb->rotated) break;
      for (int r = 0; r < 3; r++) y[r] = Ri[r] * w[3 * t] + Ri[3 + r] * w[3 * t + 1] + Ri[6 + r] * w[3 * t + 2];
      for (int r = 0; r < 3; r++) w[3 * t + r] = y[r];
    }
    PetscCall(PetscArrayzero(x, 3 * nt));
    for (PetscInt e = J->ptr[a2]; e < J->ptr[a2 + 1]; e++) { /* x = F⁻¹ w on the touched DoFs: w lives on the column's nodes */
      const PetscInt u = J->dof[e] / 3;
      if (e > J->ptr[a2] && J->dof[e - 1] / 3 == u) continue; /* the node's three DoFs are done together */
      for (int q = 0; q < 3; q++) {
        const PetscScalar *col = &lb->C[(size_t)n * (3 * lb->slot[u] + q)], wq = w[3 * loc[u] + q];
        if (wq == 0) continue;
        for (PetscInt t = 0; t < nt; t++)
          for (int r = 0; r < 3; r++) x[3 * t + r] += col[3 * tn[t] + r] * wq; /* F⁻¹ symmetric: column = row */
      }
      w[3 * loc[u]] = w[3 * loc[u] + 1] = w[3 * loc[u] + 2] = 0; /* a node listed again later is not counted twice */
    }
    for (PetscInt t = 0; t < nt && lb->rotated; t++) { /* x ← R x */
      const PetscReal *Ri = &lb->R[9 * tn[t]];
      PetscReal        y[3];
      for (int r = 0; r < 3; r++) y[r] = Ri[3 * r] * x[3 * t] + Ri[3 * r + 1] * x[3 * t + 1] + Ri[3 * r + 2] * x[3 * t + 2];
      for (int r = 0; r < 3; r++) x[3 * t + r] = y[r];
    }
    for (PetscInt a = 0; a < H->m; a++) {
      if (J->ptr[a] == J->ptr[a + 1]) continue;
      FcComplianceRowMap(p, a, pos);
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++)
        for (int i = 0; i < 3; i++)
          if (H->keep[3 * a + i]) *FcComplianceWEntry(p, pos, a, i, a2, j2) += J->coef[e][i] * x[3 * loc[J->dof[e] / 3] + J->dof[e] % 3];
    }
  }
  PetscCall(PetscFree2(w, x));
  PetscCall(PetscFree3(pos, loc, tn));
  PetscFunctionReturn(0);
}

/* The cache's bound (compliance.w_cache, on by default): 3 n doubles per node contacts touch. A
 * body whose touched nodes would need more than this gets its W by solves instead (the same W to
 * round-off), so that the default never trades a large body's memory for speed: 512 MiB is about
 * 1,800 touched nodes of a 12k-node body, 220 of a 100k-node one. */
#define FC_LAGGED_CACHE_BYTES ((size_t)512 << 20)

static PetscBool CacheFits_Private(const LaggedBody *lb, const FcJacobianBlock *J, PetscInt m)
{
  PetscInt need = lb->nslot;

  for (PetscInt e = 0; e < J->ptr[m]; e++) {
    const PetscInt i = J->dof[e] / 3;
    if (lb->slot && lb->slot[i] >= 0) continue;
    if (e > J->ptr[0] && J->dof[e - 1] / 3 == i) continue; /* a node's DoFs listed together */
    need++;
  }
  return (size_t)need * 3 * (size_t)(3 * lb->nnodes) * sizeof(PetscScalar) <= FC_LAGGED_CACHE_BYTES ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode Delassus_Lagged(FcCompliance c, const FcContactJacobian *H, FcContactProblem p)
{
  Lagged *L = (Lagged *)c->data;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < H->nbodies; b++) {
    if (!H->involved[b]) continue;
    if (!L->lb[b]) {
      PetscCall(FcComplianceDelassusBySolve(c, b, H, p));
      continue;
    }
    PetscCall(Ensure_Private(L->lb[b]));
    if (L->wcache && CacheFits_Private(L->lb[b], &H->body[b], H->m)) PetscCall(DelassusCached_Private(L->lb[b], H, p, b));
    else PetscCall(FcComplianceDelassusByOperator(c, b, H, p, SolveMulti_Lagged, L->lb[b]));
  }
  for (PetscInt a = 0; a < H->m; a++)
    if (!H->keep[3 * a + 1]) { /* a frictionless contact's tangential block: W_nn I (exact.c) */
      PetscReal     *D  = FcComplianceWEntry(p, p->W ? NULL : p->bdiag, a, 0, a, 0);
      const PetscInt ld = p->W ? 3 * p->m : 3;
      D[ld + 1] = D[2 * ld + 2] = D[0];
    }
  PetscFunctionReturn(0);
}

/* y = P⁻¹ f = R F⁻¹ Rᵀ f for a vector f that lives on a few nodes (contact forces Hᵀ r): from the
 * cached columns of F⁻¹ (compliance.w_cache) when every node f touches has them, a product of
 * 3 ndof × (nodes of f) with no solve; otherwise one solve with F (ApplyArray_Private). The same
 * operator either way, to round-off. f, y: the body's ndof entries (y overwritten; no alias). */
static PetscErrorCode ApplyForce_Private(LaggedBody *lb, const PetscScalar *f, PetscScalar *y)
{
  const PetscInt n      = 3 * lb->nnodes;
  PetscBool      cached = (PetscBool)(lb->L->wcache && lb->slot != NULL);

  PetscFunctionBegin;
  for (PetscInt i = 0; i < lb->nnodes && cached; i++)
    if ((f[3 * i] != 0 || f[3 * i + 1] != 0 || f[3 * i + 2] != 0) && lb->slot[i] < 0) cached = PETSC_FALSE;
  if (!cached) {
    PetscCall(ApplyArray_Private(lb, f, y));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscArrayzero(y, n));
  for (PetscInt i = 0; i < lb->nnodes; i++) {
    const PetscReal *Ri = &lb->R[9 * i];
    PetscReal        w[3];
    if (f[3 * i] == 0 && f[3 * i + 1] == 0 && f[3 * i + 2] == 0) continue;
    for (int r = 0; r < 3; r++) /* w = Rᵢᵀ fᵢ */
      w[r] = lb->rotated ? Ri[r] * f[3 * i] + Ri[3 + r] * f[3 * i + 1] + Ri[6 + r] * f[3 * i + 2] : f[3 * i + r];
    for (int q = 0; q < 3; q++) {
      const PetscScalar *col = &lb->C[(size_t)n * (3 * lb->slot[i] + q)];
      for (PetscInt k = 0; k < n; k++) y[k] += col[k] * w[q];
    }
  }
  Rotate_Private(lb, PETSC_FALSE, y);
  PetscFunctionReturn(0);
}

/* The correction's increment formulation (compliance.h ops.begincorrect; the bodies solve their free
 * increment from the full residual, FcBodySetContactInFree): with f₀ = Hᵀ r_last the contact force
 * that the residual R holds and f = Hᵀ r the new one,
 *
 *     Δx = −A⁻¹ R + P⁻¹ (f − f₀),          R = r_int − f₀,
 *
 * −P⁻¹ f₀ taken out of the free increment here (so that the contact problem's q = g + H Δx_free is
 * formed as for any strategy), + P⁻¹ f added by the correction (Correct_Lagged). Its fixed point is
 * the exact model's whatever P: Δx = 0 and f = f₀ give R = 0, the equilibrium with the contact
 * forces applied, and the contact problem's u = H Δx + g = g, the contact law at the state itself.
 * P only sets the rate (a quasi-Newton step in the contact forces: R_{k+1} ≈ (A P⁻¹ − I)(f − f₀));
 * with P = A it is exact's Newton step, −A⁻¹ r_int + A⁻¹ f, to round-off. What it saves: the total
 * formulation needs A⁻¹ in the correction (Δx = −A⁻¹ r_int + P⁻¹ f stops where
 * r_int − f = (A P⁻¹ − I) f, 5e-2 measured), so two more Krylov solves per Newton iteration (the
 * correction and the shift of q by H (A⁻¹ − P⁻¹) Hᵀ r₀ it needed); here one Krylov solve (the free
 * increment) and two applications of P⁻¹ to forces on the contact nodes, products of the cached
 * columns of F⁻¹ — the paper's eq. 12 with P for A, which is what it does. */
static PetscErrorCode BeginCorrect_Lagged(FcCompliance c)
{
  Lagged *L = (Lagged *)c->data;

  PetscFunctionBegin;
  if (L->same) PetscFunctionReturn(0); /* P = A: exact's Δx = −A⁻¹ r_int + A⁻¹ f, the same operations */
  for (PetscInt b = 0; b < c->model->nbodies; b++) {
    LaggedBody        *lb = L->lb[b];
    Vec                fc;
    const PetscScalar *f;
    PetscScalar       *y;
    PetscReal          nf = 0;
    if (!lb) continue;
    PetscCall(FcBodyGetContactForce(lb->body, PETSC_FALSE, &fc));
    if (fc) PetscCall(VecNorm(fc, NORM_INFINITY, &nf));
    lb->hasf0 = (PetscBool)(nf > 0);
    if (!lb->hasf0) continue;
    PetscCall(Ensure_Private(lb));
    PetscCall(VecCopy(fc, lb->f0));
    PetscCall(VecGetArrayRead(fc, &f));
    PetscCall(VecGetArray(lb->y0, &y));
    PetscCall(ApplyForce_Private(lb, f, y));
    PetscCall(VecRestoreArray(lb->y0, &y));
    PetscCall(VecRestoreArrayRead(fc, &f));
    {
      Vec dx;
      PetscCall(FcBodyGetIncrement(lb->body, &dx, NULL, NULL));
      PetscCall(VecAXPY(dx, -1.0, lb->y0));
    }
  }
  PetscFunctionReturn(0);
}

/* dx_b += P_b⁻¹ f₀ + A_b⁻¹ (f − f₀), f = H_bᵀ r: the increment of the contact forces by the body's
 * Krylov solve (its first iterate P⁻¹ (f − f₀), Knoll's), to the same forcing term as the free
 * increment (Converged_Lagged), and back the P⁻¹ f₀ that BeginCorrect_Lagged took out for q. With
 * the free increment −A⁻¹ R it makes Newton's step for the contact forces r, −A⁻¹ (r_int − f); W from
 * P only changes how fast r is found (A⁻¹ here: measured on the Fig. 4 cube, P⁻¹ instead left the
 * body's residual at (A P⁻¹ − I)(f − f₀), about 4e-2 of it, per iteration: 5–6 Newton iterations a
 * step instead of 3, each an assembly). A body without a KSP (dynamic rigid): A_b⁻¹ f, as exact. */
static PetscErrorCode Correct_Lagged(FcCompliance c, PetscInt b, const PetscScalar f[], Vec dx)
{
  Lagged      *L  = (Lagged *)c->data;
  LaggedBody  *lb = L->lb[b];
  PetscScalar *d;
  PetscInt     nd;
  PetscBool    ok;

  PetscFunctionBegin;
  if (!lb) {
    PetscCall(FcComplianceCorrectBySolve(c, b, f, dx));
    PetscFunctionReturn(0);
  }
  PetscCall(Ensure_Private(lb));
  nd = FcBodyNDof(lb->body);
  PetscCall(VecGetArray(lb->cb, &d));
  PetscCall(PetscArraycpy(d, f, nd));
  PetscCall(VecRestoreArray(lb->cb, &d));
  if (lb->hasf0) PetscCall(VecAXPY(lb->cb, -1.0, lb->f0));
  lb->incorr = PETSC_TRUE;
  PetscCall(FcBodyKrylovSolve(lb->body, lb->cb, lb->cx, &ok));
  lb->incorr = PETSC_FALSE;
  if (!ok) { /* the step fails (step.c), not the run */
    if (c->stats) c->stats->failed = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCall(VecAXPY(dx, 1.0, lb->cx));
  if (lb->hasf0) PetscCall(VecAXPY(dx, 1.0, lb->y0));
  PetscFunctionReturn(0);
}

static PetscErrorCode BeginStep_Lagged(FcCompliance c)
{
  Lagged   *L = (Lagged *)c->data;
  PetscBool drift;

  PetscFunctionBegin;
  L->step++;
  for (PetscInt b = 0; b < c->model->nbodies; b++) { /* async: a refresh due now is joined and taken */
    LaggedJob *j = L->lb[b] ? &L->lb[b]->job : NULL;
    if (j && j->running && (L->delay > 0 ? L->step >= j->step + L->delay : atomic_load(&j->done) != 0)) PetscCall(JobTake_Private(L->lb[b]));
  }
  /* compliance.refresh_drift: the last step's Krylov iterations measure how far P has drifted from
   * A (with P = A the solves converge at their first iterate: 0); past the threshold, refresh */
  for (PetscInt b = 0; b < c->model->nbodies; b++)
    if (L->lb[b]) L->lb[b]->nsolve = 0; /* Converged_Lagged: a new step's first Newton iteration */
  drift  = (PetscBool)(L->drift > 0 && L->step > 0 && L->kit > L->drift);
  L->kit = 0;
  for (PetscInt b = 0; b < c->model->nbodies; b++)
    if (L->lb[b] && ((L->refresh > 0 && L->step % L->refresh == 0) || drift)) L->request[b] = PETSC_TRUE;
  Lag_Private(L);
  PetscFunctionReturn(0);
}

/* compliance.async: OpenBLAS on one thread for the run. The refresh thread is the paper's second
 * CPU (courtecuisse §IV-A: the factorization on another core while the simulation goes on), and
 * OpenBLAS's pool would take that core: after each threaded call its threads spin (sched_yield) for
 * about 0.1 s before they sleep, and the Newton matrix's A = c_K K + c_M M (MatAXPY, a daxpy over
 * nnz(A) values: threaded past 10,000) wakes it at every assembly of K, so it never sleeps. On 2
 * cores the main thread, the refresh thread and the spinning pool then share them: Fig. 4 cube
 * refine 2, 300 steps, the step total 3.93 s → 2.40 s and the system time (the spin's syscalls)
 * 3.2 s → 0.1 s with OPENBLAS_NUM_THREADS=1, while exact's step is the same either way (7.2 s; no
 * BLAS-3 work of this size gains from a second thread). Nothing of an async run needs BLAS threads:
 * its solves are CHOLMOD's simplicial ones (no BLAS) and it makes no MUMPS factorization. Looked up
 * at run time: with the reference BLAS there is no pool and nothing to do.
 * -fc_lagged_blas_single false leaves OpenBLAS as it is (comparisons). */
static PetscErrorCode BlasSingle_Private(void)
{
  PetscBool single = PETSC_TRUE;
  void     *self, *sym;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_lagged_blas_single", &single, NULL));
  if (!single || !(self = dlopen(NULL, RTLD_LAZY))) PetscFunctionReturn(0);
  if ((sym = dlsym(self, "openblas_set_num_threads"))) {
    void (*set)(int);
    memcpy(&set, &sym, sizeof set); /* a data pointer to a function pointer, without the cast ISO C leaves undefined */
    set(1);
    PetscCall(PetscInfo(NULL, "compliance lagged async: OpenBLAS set to one thread (the refresh thread's core)\n"));
  }
  (void)dlclose(self);
  PetscFunctionReturn(0);
}

/* compliance.async: the two cholmod_common (the main thread's, the worker's) and the worker's choices. */
static PetscErrorCode CholmodSetUp_Private(LaggedBody *lb)
{
  PetscBool simp = PETSC_TRUE, metis = PETSC_TRUE;

  PetscFunctionBegin;
  cholmod_start(&lb->cmain);
  cholmod_start(&lb->job.cm);
  /* CHOLMOD's simplicial LDLᵀ, not its supernodal LLᵀ (which it picks for 3D meshes): neither
   * its factorization in the refresh thread nor its solves call BLAS, so the main thread's
   * solves never wait on the OpenBLAS pool the worker holds. Measured on the Fig. 4 cube (refine
   * 2, 100 steps, async): the Newton systems' Krylov solves 2.2 s → 0.50 s, the corrections
   * 1.6 s → 0.57 s, the refreshes no slower (5.6 / 3.9 s, loaded machine).
   * -fc_lagged_simplicial false restores CHOLMOD's choice. */
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_lagged_simplicial", &simp, NULL));
  if (simp) lb->job.cm.supernodal = CHOLMOD_SIMPLICIAL;
  /* METIS's nested dissection instead of AMD (CHOLMOD's choice here): on the Fig. 4 cube
   * (refine 2, 2046 DoFs) nnz(L) 253,788 → 232,764 and the factorization's flops 5.6e7 → 4.0e7,
   * so every solve with F (the Krylov iterations' preconditioner, the W columns) is 8 % shorter
   * and the refresh thread 28 % lighter; the analysis is made once (LaggedJob.Ls), as A's
   * pattern does not change. -fc_lagged_metis false restores CHOLMOD's default. */
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_lagged_metis", &metis, NULL));
  if (metis) {
    lb->job.cm.nmethods           = 1;
    lb->job.cm.method[0].ordering = CHOLMOD_METIS;
    lb->job.cm.postorder          = 1;
  }
  PetscFunctionReturn(0);
}

/* Body b's Newton solver becomes the Krylov method preconditioned by P; F gets the factorization
 * the body's own solver had. */
static PetscErrorCode SetUpBody_Private(Lagged *L, PetscInt b, KSP ksp)
{
  const FcCase   *cs   = L->c->model->c;
  FcBody          body = L->c->model->bodies[b];
  LaggedBody     *lb;
  PC              pc, fpc;
  MatSolverType   st = NULL;
  const PetscInt *bc, nbc = FcBodyConstrained(body, &bc);
  PetscBool       chol;
  PetscInt        maxit;

  PetscFunctionBegin;
  PetscCall(PetscNew(&lb));
  L->lb[b]   = lb;
  lb->L      = L;
  lb->b      = b;
  lb->body   = body;
  lb->linear = (PetscBool)(FcBodyMaterial(body) && FcBodyMaterial(body)->linear);
  lb->nnodes = FcBodyNDof(body) / 3;
  PetscCall(PetscMalloc3(3 * lb->nnodes, &lb->X0, 3 * lb->nnodes, &lb->x, 9 * lb->nnodes, &lb->R));
  PetscCall(PetscCalloc1(lb->nnodes, &lb->pinned));
  for (PetscInt i = 0; i < nbc; i++) lb->pinned[bc[i] / 3] = PETSC_TRUE;
  PetscCall(Clusters_Private(lb, FcBodyFieldMesh(body)));
  lb->mesh = FcBodyFieldMesh(body);
  if (L->rotation == LAGGED_ROT_POLAR) PetscCall(PetscMalloc1(10 * lb->nnodes, &lb->Fsum));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  if (chol) PetscCall(PCFactorGetMatSolverType(pc, &st));
  PetscCall(KSPCreate(PetscObjectComm((PetscObject)ksp), &lb->fksp));
  PetscCall(KSPSetType(lb->fksp, KSPPREONLY));
  PetscCall(KSPGetPC(lb->fksp, &fpc));
  PetscCall(PCSetType(fpc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(fpc, st ? st : MATSOLVERMUMPS));
  if (st && !strcmp(st, MATSOLVERPETSC)) PetscCall(PCFactorSetMatOrderingType(fpc, MATORDERINGND));
  PetscCall(KSPSetOptionsPrefix(lb->fksp, "fc_lagged_"));
  PetscCall(KSPSetFromOptions(lb->fksp));
  /* the body's Newton solves: Krylov on the true residual, to 1/100 of the step's own tolerance: a
   * solve to the Newton rtol itself left the increment's error at the Newton test's level, and a
   * step stalled at a relative residual of 1.16e-10 against rtol 1e-10 (async "ready", 25 iterations) */
  if (!strcmp(cs->compliance_krylov, "gmres")) {
    PetscCall(KSPSetType(ksp, KSPGMRES));
    PetscCall(KSPSetPCSide(ksp, PC_RIGHT));
  } else PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED));
  /* the first iterate is P⁻¹ b (Knoll's initial guess): with P = A it is the direct solve itself,
   * the Krylov method has nothing left to do and the step is `exact`'s to round-off */
  PetscCall(KSPSetInitialGuessKnoll(ksp, PETSC_TRUE));
  maxit = PetscMax(1000, FcBodyNDof(body));
  /* a bound on the Krylov iterations, to make a solve fail on purpose (test_compliance_lagged.py: a
   * failed solve is a failed step, FcBodyKrylovSolve) */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-fc_lagged_krylov_max_it", &maxit, NULL));
  PetscCall(KSPSetTolerances(ksp, 1e-2 * cs->newton_rtol, 1e-2 * cs->newton_atol, PETSC_DEFAULT, maxit));
  PetscCall(PCSetType(pc, PCSHELL));
  PetscCall(PCShellSetContext(pc, lb));
  PetscCall(PCShellSetSetUp(pc, PCSetUp_Lagged));
  PetscCall(PCShellSetApply(pc, PCApply_Lagged));
  PetscCall(PCShellSetName(pc, "lagged rotated LDL^T (courtecuisse eq. 13)"));
  PetscCall(KSPMonitorSet(ksp, KSPCount_Lagged, L, NULL));
  PetscCall(KSPSetConvergenceTest(ksp, Converged_Lagged, lb, NULL));
  /* the user's -ksp_ options (-ksp_norm_type, -ksp_cg_type, -ksp_monitor ...) over the defaults
   * above, as body_deformable.c does for the direct solver's; FcBodyKrylovSolve keeps them */
  PetscCall(KSPSetFromOptions(ksp));
  if (L->async) {
    PetscCall(BlasSingle_Private());
    PetscCall(CholmodSetUp_Private(lb));
    PetscCall(PetscMalloc1(3 * lb->nnodes, &lb->job.X0));
  }
  PetscCall(FcBodySetContactInFree(body, (PetscBool)!L->same)); /* BeginCorrect_Lagged */
  {
    /* the chord Newton method (FcBodySetChordTangent): the tangent K of the step's first iterate
     * for the whole step, as the paper's one linearized solve per step does (courtecuisse §III-A,
     * eq. 4: A of the step start). Its Krylov solves need only A·v, and A is already an
     * approximation of P's; the residual is exact, so is the converged state. What it saves: the
     * assembly of K, which with its insertion into the sparse matrix costs about 8 times the
     * internal forces' (Fig. 4 cube, refine 1: 0.6 ms against 5 ms an iteration) and was most of a
     * lagged step once the Krylov solves were cut; it costs Newton iterations (615 → 846 there).
     * Dynamics only: a quasi-static step is a whole load increment, over which K changes too
     * much (the neo-Hookean press of test_compliance_lagged: 0.69 a chord iteration, and steps
     * stalled at the contact solver's floor); there the adaptive rule of body_deformable.c
     * (FC_CHORD_RATE) was not enough. Not with P = A (refresh 1 in this thread: exact's Newton,
     * the same operations). -fc_lagged_chord true/false overrides. */
    PetscBool chord = (PetscBool)(!L->same && cs->integrator != FC_INTEGRATOR_QUASI_STATIC);
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_lagged_chord", &chord, NULL));
    PetscCall(FcBodySetChordTangent(body, chord));
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, FcBodyNDof(body), &lb->w1));
  PetscCall(VecDuplicate(lb->w1, &lb->w2));
  PetscCall(VecDuplicate(lb->w1, &lb->f0));
  PetscCall(VecDuplicate(lb->w1, &lb->y0));
  PetscCall(VecDuplicate(lb->w1, &lb->cb));
  PetscCall(VecDuplicate(lb->w1, &lb->cx));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetUp_Lagged(FcCompliance c)
{
  Lagged *L = (Lagged *)c->data;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < c->model->nbodies; b++) {
    KSP ksp;
    PetscCall(FcBodyGetKSP(c->model->bodies[b], &ksp));
    if (!ksp) continue;
    PetscCall(SetUpBody_Private(L, b, ksp)); /* a case without a deformable body: refused by FcCaseCheckFilled */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_Lagged(FcCompliance c)
{
  Lagged *L = (Lagged *)c->data;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < c->model->nbodies; b++) {
    LaggedBody *lb = L->lb[b];
    if (!lb) continue;
    if (L->async) {
      if (lb->job.running)
        PetscCheck(!pthread_join(lb->job.thread, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot join the refresh thread"); /* no thread outlives the run */
      if (lb->job.L) cholmod_free_factor(&lb->job.L, &lb->job.cm);
      if (lb->job.Ls) cholmod_free_factor(&lb->job.Ls, &lb->job.cm);
      free(lb->job.ps);
      free(lb->job.is);
      if (lb->Lc) cholmod_free_factor(&lb->Lc, &lb->cmain);
      cholmod_finish(&lb->cmain);
      cholmod_finish(&lb->job.cm);
      PetscCall(PetscFree(lb->job.p));
      PetscCall(PetscFree2(lb->job.i, lb->job.x));
      PetscCall(PetscFree(lb->job.X0));
      PetscCall(JobFreeColumns_Private(&lb->job));
    }
    PetscCall(KSPDestroy(&lb->fksp));
    PetscCall(MatDestroy(&lb->Af));
    PetscCall(VecDestroy(&lb->w1));
    PetscCall(VecDestroy(&lb->w2));
    PetscCall(VecDestroy(&lb->f0));
    PetscCall(VecDestroy(&lb->y0));
    PetscCall(VecDestroy(&lb->cb));
    PetscCall(VecDestroy(&lb->cx));
    PetscCall(PetscFree3(lb->X0, lb->x, lb->R));
    PetscCall(PetscFree(lb->pinned));
    PetscCall(PetscFree(lb->cptr));
    PetscCall(PetscFree(lb->cnode));
    PetscCall(PetscFree(lb->Fsum));
    PetscCall(PetscFree(lb->slot));
    PetscCall(PetscFree(lb->C));
    PetscCall(PetscFree(lb));
  }
  PetscCall(PetscFree2(L->request, L->lb));
  PetscCall(PetscFree(c->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcComplianceCreate_Lagged(FcCompliance c)
{
  Lagged       *L;
  const FcCase *cs = c->model->c;

  PetscFunctionBegin;
  PetscCall(PetscNew(&L));
  PetscCall(PetscCalloc2(c->model->nbodies, &L->request, c->model->nbodies, &L->lb));
  L->c        = c;
  L->step     = -1;
  L->drift    = cs->compliance_refresh_drift;
  L->refresh  = cs->compliance_refresh > 0 || L->drift > 0 ? cs->compliance_refresh : 1;
  L->rotation = !strcmp(cs->compliance_rotation, "none") ? LAGGED_ROT_NONE
    : !strcmp(cs->compliance_rotation, "polar")          ? LAGGED_ROT_POLAR
                                                         : LAGGED_ROT_SHAPE_MATCHING;
  L->async    = cs->compliance_async;
  L->wcache   = cs->compliance_w_cache;
  L->delay    = cs->compliance_delay;
  L->same     = (PetscBool)(L->refresh == 1 && !L->async);
  L->ew       = PETSC_TRUE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_lagged_forcing", &L->ew, NULL));
  L->etamax = FC_LAGGED_EW_ETAMAX;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-fc_lagged_eta_max", &L->etamax, NULL));
  c->data             = L;
  c->noinertia        = "its Newton solves are Krylov iterations preconditioned by a lagged factorization, which counts no inertia of the current A";
  c->ops.setup        = SetUp_Lagged;
  c->ops.delassus     = Delassus_Lagged;
  c->ops.correct      = Correct_Lagged; /* P⁻¹ (f − f₀): BeginCorrect_Lagged */
  c->ops.begincorrect = BeginCorrect_Lagged;
  c->incremental      = PETSC_TRUE;
  c->ops.beginstep    = BeginStep_Lagged;
  c->ops.destroy      = Destroy_Lagged;
  PetscFunctionReturn(0);
}
