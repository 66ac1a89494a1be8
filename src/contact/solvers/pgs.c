/* fcsim — contact solver type "pgs": projected Gauss–Seidel on the FRICTIONLESS problem.
 *
 * The problem solved is the one of problem.h with every μ_a replaced by 0, i.e. Signorini only
 * (duriez2006 eq. 18 without friction; the linear complementarity problem
 * 0 ≤ r_N ⊥ u_N ≥ 0 with r_T = 0). A sweep visits the contacts in order and sets
 *
 *     r_a,T = 0,     r_a,N ← max(0, r_a,N − u_a,N / W_aa,nn)
 *
 * (the exact 1×1 Signorini solve with the others frozen), u = W r + q being updated at once
 * (u += W_{:,a} Δr_N, the normal column only). Tangential forces of a warm start are zeroed
 * before the first sweep. One iteration = one sweep.
 *
 * What the user sees when the problem has μ > 0: pgs stops on ITS OWN test — the common error
 * (problem.h) of the frictionless problem ≤ tol, computed by FcContactProblemComputeErrorWith-
 * Velocity on a view of the problem with μ = 0 — and reports CONVERGED_TOL to the object. The
 * object then measures the returned r against the problem as given, with its μ: if the
 * frictionless solution is not a solution of the frictional problem (a pressed contact whose
 * u_T ≠ 0 with r_T = 0 violates Coulomb), stats.error is that (large) error and the reason is
 * DIVERGED_INEXACT, never CONVERGED_TOL. So pgs is meant for frictionless problems (or for
 * frictionless comparisons); the number of contacts whose μ was ignored is given by PetscInfo
 * and by View.
 *
 * Sweep (sweep.h, options -pgs_order, -pgs_seed, -pgs_omega): the contacts in natural, reversed,
 * symmetric or random order, and projected SOR (Cryer, SIAM J. Control 9, 385–392, 1971),
 *
 *     r_a,N ← max(0, r_a,N − ω u_a,N / W_aa,nn),   0 < ω < 2,
 *
 * which converges for every ω in (0, 2) when W is symmetric positive definite (Cryer 1971)
 * and has the same fixed points as ω = 1. */
#include "uzawa.h"
#include "sweep.h"

typedef struct {
  PetscInt       error_every; /* 1: sweeps between two stopping tests */
  PetscInt       mcap;
  PetscReal     *u;            /* 3m: W r + q */
  PetscReal     *mu0;          /* m zeros: the frictionless view of the problem */
  PetscReal     *wnn;          /* m: W_aa,nn, gathered once per solve (dense or block-sparse W) */
  PetscInt       nfriction[2]; /* contacts with μ > 0 ignored: [0] last solve, [1] all solves */
  FcContactSweep sweep;        /* order natural, ω = 1 (sweep.h) */
} FcContactSolver_PGS;

static PetscErrorCode PGSWork_Private(FcContactSolver_PGS *pg, PetscInt m)
{
  PetscFunctionBegin;
  if (m <= pg->mcap && pg->u) PetscFunctionReturn(0);
  PetscCall(PetscFree3(pg->u, pg->mu0, pg->wnn));
  PetscCall(PetscCalloc3(3 * (size_t)m, &pg->u, (size_t)m, &pg->mu0, (size_t)m, &pg->wnn));
  pg->mcap = m;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolve_PGS(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_PGS       *pg = (FcContactSolver_PGS *)s->data;
  const PetscInt             m = p->m, n = 3 * m;
  const PetscReal           *W = p->W;
  struct _n_FcContactProblem p0;
  PetscReal                 *u, error;
  PetscBool                  symmetric = PETSC_TRUE;

  PetscFunctionBegin;
  st->iterations   = 0;
  pg->nfriction[0] = 0;
  if (m == 0) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  PetscCall(PGSWork_Private(pg, m));
  PetscCall(FcContactSweepBegin(&pg->sweep, m));
  u = pg->u;
  for (PetscInt a = 0; a < m; a++) {
    PetscReal Waa[9], wnn;
    FcContactProblemGetBlock(p, a, a, Waa);
    wnn = pg->wnn[a] = Waa[0];
    if (!(wnn > 0)) {
      PetscCall(PetscInfo(NULL, "pgs: contact %" PetscInt_FMT " has W_nn = %g <= 0\n", a, (double)wnn));
      st->reason = PetscIsInfOrNanReal(wnn) ? FC_CONTACT_SOLVER_DIVERGED_NAN : FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
      PetscFunctionReturn(0);
    }
  }
  for (PetscInt a = 0; a < m; a++) {
    if (p->mu[a] > 0) pg->nfriction[0]++;
    r[3 * a + 1] = r[3 * a + 2] = 0; /* the frictionless problem: r_T = 0 */
  }
  pg->nfriction[1] += pg->nfriction[0];
  if (pg->nfriction[0])
    PetscCall(PetscInfo(NULL,
      "pgs: %" PetscInt_FMT " of %" PetscInt_FMT
      " contacts have mu > 0; pgs solves the frictionless problem and the common error is measured with the problem's mu\n",
      pg->nfriction[0], m));
  symmetric = FcContactProblemIsSymmetric(p);
  /* The frictionless view: same W (either storage) and q, μ = 0 (the data are shared, not copied). */
  p0    = *p;
  p0.mu = pg->mu0;

  PetscCall(FcContactProblemComputeVelocity(p, r, u));
  PetscCall(FcContactProblemComputeErrorWithVelocity(&p0, r, u, &error));
  if (PetscIsInfOrNanReal(error)) {
    st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
    PetscFunctionReturn(0);
  }
  if (error <= s->params.tol) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  for (PetscInt it = 1; it <= s->params.max_it; it++) {
    const PetscInt *order = FcContactSweepOrderOf(&pg->sweep, it, m); /* NULL: 0, 1, …, m−1 */
    const PetscReal omega = pg->sweep.omega;
    PetscInt        nupd  = 0;
    for (PetscInt c = 0; c < m; c++) {
      const PetscInt  a  = order ? order[c] : c;
      const PetscInt  k  = 3 * a;
      const PetscReal rn = PetscMax(0.0, r[k] - omega * u[k] / pg->wnn[a]);
      const PetscReal d  = rn - r[k];
      if (d == 0) continue;
      if (!W) { /* block-sparse: the normal column of the blocks of column a (problem.h) */
        for (PetscInt kb = p->bptr[a]; kb < p->bptr[a + 1]; kb++) {
          PetscReal *ub = u + 3 * p->bcol[kb];
          if (symmetric) { /* row n of W_ab = column n of W_ba */
            const PetscReal *B = p->bval + 9 * (size_t)kb;
            for (int j = 0; j < 3; j++) ub[j] += B[j] * d;
          } else {
            const PetscReal *T = p->bval + 9 * (size_t)p->btr[kb];
            for (int i = 0; i < 3; i++) ub[i] += T[3 * i] * d;
          }
        }
      } else if (symmetric) { /* column k = row k */
        const PetscReal *Wk = W + (size_t)k * n;
        for (PetscInt i = 0; i < n; i++) u[i] += Wk[i] * d;
      } else {
        for (PetscInt i = 0; i < n; i++) u[i] += W[(size_t)i * n + k] * d;
      }
      r[k] = rn;
      nupd++;
    }
    PetscCall(PetscLogFlops((W ? 2.0 * n : 18.0 * p->nb / m) * nupd + 4.0 * m));
    st->iterations = it;
    if (it % 64 == 0) PetscCall(FcContactProblemComputeVelocity(p, r, u)); /* bound the drift of the incremental u */
    if (it % pg->error_every && it != s->params.max_it) continue;
    PetscCall(FcContactProblemComputeErrorWithVelocity(&p0, r, u, &error));
    if (PetscIsInfOrNanReal(error)) {
      st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
      PetscFunctionReturn(0);
    }
    if (error <= s->params.tol) { /* confirm with u recomputed from r */
      PetscCall(FcContactProblemComputeVelocity(p, r, u));
      PetscCall(FcContactProblemComputeErrorWithVelocity(&p0, r, u, &error));
      if (error <= s->params.tol) {
        st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
        PetscFunctionReturn(0);
      }
    }
  }
  st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSetFromOptions_PGS(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_PGS *pg = (FcContactSolver_PGS *)s->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "pgs: frictionless projected Gauss-Seidel (mu ignored)");
  PetscCall(FcContactSolverOptionsBoundedInt(
    s, PetscOptionsObject, "-pgs_error_every", "Sweeps between two evaluations of the stopping test (each O(m))", &pg->error_every, 1));
  PetscCall(FcContactSweepSetFromOptions(s, PetscOptionsObject, "pgs", &pg->sweep));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_PGS(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_PGS *pg = (FcContactSolver_PGS *)s->data;
  char                 sweep[128];

  PetscFunctionBegin;
  FcContactSweepDescribe(&pg->sweep, sweep, sizeof sweep);
  PetscCall(PetscViewerASCIIPrintf(viewer, "pgs: frictionless problem (mu ignored, r_T = 0), error_every %" PetscInt_FMT ", %s\n", pg->error_every, sweep));
  if (s->nsolves)
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "pgs: contacts with mu > 0 treated as frictionless: %" PetscInt_FMT " (last solve), %" PetscInt_FMT " (all solves)\n",
        pg->nfriction[0], pg->nfriction[1]));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_PGS(FcContactSolver s)
{
  FcContactSolver_PGS *pg = (FcContactSolver_PGS *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscFree3(pg->u, pg->mu0, pg->wnn));
  PetscCall(FcContactSweepDestroy(&pg->sweep));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_PGS(FcContactSolver s)
{
  FcContactSolver_PGS *pg;

  PetscFunctionBegin;
  PetscCall(PetscNew(&pg));
  pg->error_every = 1;
  FcContactSweepInit(&pg->sweep);
  s->data               = pg;
  s->ops.solve          = FcContactSolverSolve_PGS;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_PGS;
  s->ops.view           = FcContactSolverView_PGS;
  s->ops.destroy        = FcContactSolverDestroy_PGS;
  PetscFunctionReturn(0);
}
