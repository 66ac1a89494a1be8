/* fcsim — contact solver types "uzawa_local" and "uzawa_global" (talbi2008 §3.2–3.3): the
 * bipotential (De Saxcé–Feng) projection solved by Uzawa predictor–corrector steps.
 *
 * Per contact a (talbi2008 §3.2, the projection form of Signorini + Coulomb):
 *
 *     ũ_a  = u_a + μ_a ‖u_a,T‖ n                       (De Saxcé's modified velocity)
 *     r*_a = r_a − ρ_a ũ_a                              (predictor, "augmented contact force")
 *     r_a  = Proj_{K_μa}(r*_a)                          (corrector: FcConeProject, problem.h)
 *
 * whose fixed points are exactly the zeros of the common error (ρ_a > 0 arbitrary; with ρ = 1 the
 * fixed-point residual IS e_a of problem.h).
 *
 * uzawa_local (talbi2008 §3.3.1). Nonlinear Gauss–Seidel over contacts: at sweep k+1 contact a
 * sees u_a = W_aa r_a + b_a, b_a = q_a + Σ_{β<a} W_aβ r_β^{k+1} + Σ_{β>a} W_aβ r_β^k (the others
 * frozen), and runs the inner Uzawa loop j = 0, 1, ... on its 3×3 block,
 *
 *     u_a^{(j)}   = W_aa r_a^{(j)} + b_a
 *     r_a^{(j+1)} = Proj_K(r_a^{(j)} − ρ_a (u_a^{(j)} + μ_a ‖u_a,T^{(j)}‖ n))
 *
 * until ‖r_a^{(j+1)} − r_a^{(j)}‖ / ρ_a < ε₂ (talbi2008's local criterion; made dimensionless,
 * see below) or inner_max_it steps; ε₂ defaults to tol/100, which makes the outer iteration that
 * of nsgs (exact local solves) — doc/contact.md has the measurements.
 * The new r_a is used at once by the next contacts (u is updated incrementally, u += W_{:,a} Δr_a,
 * as in nsgs). talbi2008 starts every inner loop from r_a^{(0)} = 0; here it starts from the
 * current r_a (warm) unless inner_zero_start is set — see doc/contact.md for the measurements.
 * Outer stop: the common error ≤ tol (the object's tol), evaluated after every sweep; optionally
 * also talbi2008's own criterion ε₁ on the change of the whole force vector over a sweep.
 * One iteration = one sweep; the inner steps are counted separately
 * (FcContactSolverUzawaGetInnerIterations, View).
 *
 * uzawa_global (talbi2008 §3.3.2). One predictor–corrector step per contact per sweep, all
 * contacts from the same u^k = W r^k + q (Jacobi):
 *
 *     r_a^{k+1} = Proj_K(r_a^k − ρ_a (u_a^k + μ_a ‖u_a,T^k‖ n)),   u^{k+1} = W r^{k+1} + q.
 *
 * Stop when the common error ≤ tol, or — talbi2008's criterion, off by default — when
 * ‖r^{k+1} − r^k‖ / ‖r^{k+1}‖ < ε₃ (rel_tol). The latter is the type's own test: if the common
 * error is then above tol the object reports DIVERGED_INEXACT.
 *
 * ρ (talbi2008 §3.3.3: "ρ is equivalent to a stiffness and must be inferior to the smallest local
 * stiffness at the contact points", ρ = 0.3 · min_a 1/W_aa,nn): with rho_local (the default of
 * uzawa_local) ρ_a = rho_factor / W_aa,nn, each contact its own stiffness; without it (the
 * default of uzawa_global, and talbi2008's) ρ_a = rho_factor · min_b 1/W_bb,nn for every contact
 * (rho_factor = 0.3); an explicit rho > 0 is used as is for every contact. The automatic choices
 * need W_aa,nn > 0 (else DIVERGED_BREAKDOWN).
 *
 * Why uzawa_local defaults to rho_local (doc/contact.md, "Why uzawa_local stalled"): the inner
 * Uzawa loop of contact a contracts by about 1 − ρ_a λ_min(W_aa) per step. Talbi's single ρ,
 * sized by the most compliant contact, makes that 1 − 0.3 W_aa,nn / max_b W_bb,nn at a stiff
 * contact: on multi-body problems whose W_nn spread over 10⁵ (bench/fclib_multibody.py wall,
 * mass ratio 10⁶) half the inner loops stopped at inner_max_it, so each sweep moved the stiff
 * contacts only part of the way, and uzawa_local stalled (common error 1.3e-5 after 1000 sweeps
 * where nsgs converged to 1e-8 in 16). With ρ_a = 0.3 / W_aa,nn every inner loop contracts at a
 * rate set by its own block and none reached the cap there: 16 sweeps, as nsgs.
 *
 * The thresholds ε₁, ε₂ are talbi2008's ‖Δr‖/ρ (a displacement: "the physical interpenetration
 * tolerance") made dimensionless like tol: the test is ‖Δr‖ / min(ρ, 1) < ε · S, with S the
 * scale of the common error, max(‖q‖, ‖r‖, ‖u‖) (1 when below DBL_EPSILON), evaluated after the
 * previous sweep. For ρ ≤ 1 that is talbi2008's ‖Δr‖/ρ; in general, since for a fixed ũ
 * ‖r − P(r − ρũ)‖ is nondecreasing in ρ and ‖r − P(r − ρũ)‖/ρ nonincreasing (Gafni &
 * Bertsekas), ‖Δr‖ / min(ρ, 1) bounds the contact's natural-map residual (its term of the common
 * error, before normalisation) at the previous inner iterate. */
#include "uzawa.h"
#include <float.h>
#include <string.h>

typedef enum {
  FC_UZAWA_RHO_BLOCK,     /* ρ_a = factor / λ_max(W_aa): the inner loop of contact a contracts (uzawa_local's default) */
  FC_UZAWA_RHO_LAMBDA,    /* ρ = factor / λ_max(W), estimated: below the Jacobi bound 2/λ_max (uzawa_global's default) */
  FC_UZAWA_RHO_TALBI2008, /* ρ = factor · min_a 1/W_aa,nn for every contact (talbi2008 §3.3.3, factor 0.3) */
  FC_UZAWA_RHO_WNN        /* ρ_a = factor / W_aa,nn (issue 12's rule, factor 0.3) */
} FcUzawaRhoRule;
static const char *const FcUzawaRhoRules[] = {"block", "lambda", "talbi2008", "wnn", "FcUzawaRhoRule", "FC_UZAWA_RHO_", NULL};

typedef struct {
  PetscBool global; /* uzawa_global (else uzawa_local) */
  /* parameters (defaults in UzawaCreate_Private) */
  PetscReal      rho;              /* 0: automatic (rho_rule); > 0: ρ for every contact */
  FcUzawaRhoRule rule;             /* the automatic ρ (header comment): block (uzawa_local), lambda (uzawa_global), talbi2008, wnn */
  PetscReal      rho_factor;       /* ρ = rho_factor × the rule's stiffness; PETSC_DETERMINE: the rule's default (1 for block and
                               * lambda, talbi2008's 0.3 for talbi2008 and wnn) */
  PetscReal      lambda_max;       /* lambda: the estimate of λ_max(½(W + Wᵀ)) of the last solve (0: none) */
  PetscInt       power_it;         /* lambda: power iterations of the last estimate */
  PetscReal      inner_tol;        /* ε₂ (uzawa_local), relative to S; PETSC_DETERMINE: tol / 100 */
  PetscInt       inner_max_it;     /* inner steps per contact and sweep (uzawa_local) */
  PetscBool      inner_zero_start; /* false: inner loop from the current r_a; true: from 0 (talbi2008) */
  PetscReal      outer_tol;        /* ε₁ (uzawa_local), relative to S; 0: off */
  PetscReal      rel_tol;          /* ε₃ (uzawa_global); 0: off */
  /* work, sized for mcap contacts */
  PetscInt   mcap;
  PetscReal *rho_a; /* m */
  PetscReal *u;     /* 3m: W r + q */
  PetscReal *rnew;  /* 3m (uzawa_global) */
  /* statistics: [0] last solve, [1] since creation */
  PetscInt64 ninner[2];        /* inner steps (uzawa_local); 64 bits: totals over many solves */
  PetscInt64 ncapped[2];       /* inner loops stopped by inner_max_it rather than ε₂ */
  PetscInt64 nloops[2];        /* inner loops (contacts × sweeps) */
  PetscInt   inner_max[2];     /* largest inner loop */
  PetscReal  rho_min, rho_max; /* ρ_a of the last solve */
  PetscBool  stopped_own;      /* the last solve stopped on ε₁ / ε₃ */
} FcContactSolver_Uzawa;

static inline void Mult3_Private(const PetscReal a[9], const PetscReal x[3], PetscReal y[3])
{
  y[0] = a[0] * x[0] + a[1] * x[1] + a[2] * x[2];
  y[1] = a[3] * x[0] + a[4] * x[1] + a[5] * x[2];
  y[2] = a[6] * x[0] + a[7] * x[1] + a[8] * x[2];
}

/* One Uzawa predictor–corrector step (talbi2008 §3.2): out = Proj_K(r − ρ (u + μ‖u_T‖ n)).
 * out may alias r. */
static inline void UzawaStep_Private(PetscReal mu, PetscReal rho, const PetscReal r[3], const PetscReal u[3], PetscReal out[3])
{
  PetscReal x[3];

  x[0] = r[0] - rho * (u[0] + mu * PetscSqrtReal(u[1] * u[1] + u[2] * u[2]));
  x[1] = r[1] - rho * u[1];
  x[2] = r[2] - rho * u[2];
  FcConeProject(mu, x, out);
}

/* S = max(‖q‖, ‖r‖, ‖u‖), the normalisation of the common error (1 when below DBL_EPSILON). */
static PetscReal Scale_Private(PetscInt n, const PetscReal q[], const PetscReal r[], const PetscReal u[])
{
  PetscReal q2 = 0, r2 = 0, u2 = 0, s;

  for (PetscInt i = 0; i < n; i++) {
    q2 += q[i] * q[i];
    r2 += r[i] * r[i];
    u2 += u[i] * u[i];
  }
  s = PetscSqrtReal(PetscMax(q2, PetscMax(r2, u2)));
  return s >= DBL_EPSILON ? s : 1.0;
}

static PetscErrorCode UzawaWork_Private(FcContactSolver_Uzawa *uz, PetscInt m)
{
  PetscFunctionBegin;
  if (m <= uz->mcap && uz->u) PetscFunctionReturn(0);
  PetscCall(PetscFree3(uz->rho_a, uz->u, uz->rnew));
  PetscCall(PetscMalloc3((size_t)m, &uz->rho_a, 3 * (size_t)m, &uz->u, 3 * (size_t)m, &uz->rnew));
  uz->mcap = m;
  PetscFunctionReturn(0);
}

/* λ_max of the symmetric 3×3 matrix ½(A + Aᵀ) (A row-major), by the closed form of the cubic's
 * roots (O. K. Smith, Comm. ACM 4(4), 168, 1961: eigenvalues of a symmetric 3×3 matrix from its
 * trace and the deviator's invariants, trigonometric solution). */
static PetscReal SymEigMax3_Private(const PetscReal A[9])
{
  const PetscReal a00 = A[0], a11 = A[4], a22 = A[8], a01 = 0.5 * (A[1] + A[3]), a02 = 0.5 * (A[2] + A[6]), a12 = 0.5 * (A[5] + A[7]);
  const PetscReal p1 = a01 * a01 + a02 * a02 + a12 * a12, qm = (a00 + a11 + a22) / 3;
  PetscReal       p2, p, b00, b11, b22, detb, rr, phi;

  if (p1 == 0) return PetscMax(a00, PetscMax(a11, a22));
  p2   = (a00 - qm) * (a00 - qm) + (a11 - qm) * (a11 - qm) + (a22 - qm) * (a22 - qm) + 2 * p1;
  p    = PetscSqrtReal(p2 / 6);
  b00  = (a00 - qm) / p;
  b11  = (a11 - qm) / p;
  b22  = (a22 - qm) / p;
  detb = b00 * (b11 * b22 - (a12 / p) * (a12 / p)) - (a01 / p) * ((a01 / p) * b22 - (a12 / p) * (a02 / p)) +
    (a02 / p) * ((a01 / p) * (a12 / p) - b11 * (a02 / p));
  rr  = PetscMax(-1.0, PetscMin(1.0, detb / 2));
  phi = PetscAcosReal(rr) / 3;
  return qm + 2 * p * PetscCosReal(phi);
}

/* y = ½(W + Wᵀ) x in either storage (the power iteration's product). */
static void SymMult_Private(FcContactProblem p, const PetscReal x[], PetscReal y[])
{
  const size_t n = 3 * (size_t)p->m;

  for (size_t i = 0; i < n; i++) y[i] = 0;
  if (p->W) {
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) {
        const PetscReal w = p->W[i * n + j];
        y[i] += 0.5 * w * x[j];
        y[j] += 0.5 * w * x[i];
      }
    return;
  }
  for (PetscInt a = 0; a < p->m; a++)
    for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
      const PetscReal *B = p->bval + 9 * (size_t)k;
      const PetscInt   b = p->bcol[k];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          y[3 * a + i] += 0.5 * B[3 * i + j] * x[3 * b + j];
          y[3 * b + j] += 0.5 * B[3 * i + j] * x[3 * a + i];
        }
    }
}

/* An estimate of λ_max(D^{-1/2} ½(W + Wᵀ) D^{-1/2}), D = diag(d_a I₃) (d: m entries), by the power
 * method (Golub & Van Loan, Matrix Computations, §8.2.1): from a fixed start (every entry 1, signs
 * alternating by contact, so that the same problem gives the same ρ), until the Rayleigh quotient
 * changes by less than 1e-3 relative or 100 iterations. The quotient approaches λ_max from below,
 * so ρ = 1/λ_est keeps the scaled step's ρ λ_max at λ_max/λ_est, below the Jacobi bound 2 as long
 * as the estimate is within a factor 2 (it is within 1e-3 of its limit when it stops; 100
 * iterations bound the cost to 100 products with W). */
static PetscErrorCode LambdaMax_Private(FcContactSolver_Uzawa *uz, FcContactProblem p, const PetscReal d[], PetscReal *lmax)
{
  const PetscInt n = 3 * p->m;
  PetscReal     *x = uz->u, *y = uz->rnew, lam = 0, nx;
  PetscInt       k;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) x[i] = (i / 3) % 2 ? -1.0 : 1.0;
  nx = PetscSqrtReal((PetscReal)n);
  for (PetscInt i = 0; i < n; i++) x[i] /= nx;
  for (k = 1; k <= 100; k++) {
    PetscReal rq = 0, ny = 0;
    for (PetscInt i = 0; i < n; i++) x[i] /= PetscSqrtReal(d[i / 3]);
    SymMult_Private(p, x, y);
    for (PetscInt i = 0; i < n; i++) {
      x[i] *= PetscSqrtReal(d[i / 3]);
      y[i] /= PetscSqrtReal(d[i / 3]);
      rq += x[i] * y[i];
      ny += y[i] * y[i];
    }
    ny = PetscSqrtReal(ny);
    if (!(ny > 0)) break;
    for (PetscInt i = 0; i < n; i++) x[i] = y[i] / ny;
    if (k > 1 && PetscAbsReal(rq - lam) <= 1e-3 * PetscAbsReal(rq)) {
      lam = rq;
      break;
    }
    lam = rq;
  }
  PetscCall(PetscLogFlops((p->W ? 4.0 * n * n : 36.0 * p->nb) * k));
  uz->power_it = PetscMin(k, 100);
  *lmax        = lam;
  PetscFunctionReturn(0);
}

/* ρ_a for every contact (see the header comment). Sets st->reason and returns with it != 0 when
 * the automatic choice is impossible (a stiffness <= 0 or not finite). */
static PetscErrorCode UzawaRho_Private(FcContactSolver_Uzawa *uz, FcContactProblem p, FcContactSolverStats *st)
{
  const PetscInt  m      = p->m;
  const PetscReal factor = uz->rho_factor == (PetscReal)PETSC_DETERMINE ? (uz->rule == FC_UZAWA_RHO_BLOCK || uz->rule == FC_UZAWA_RHO_LAMBDA ? 1.0 : 0.3)
                                                                        : uz->rho_factor;
  PetscReal       wmax   = 0;

  PetscFunctionBegin;
  uz->lambda_max = 0;
  uz->power_it   = 0;
  if (uz->rho > 0) {
    for (PetscInt a = 0; a < m; a++) uz->rho_a[a] = uz->rho;
  } else {
    for (PetscInt a = 0; a < m; a++) {
      PetscReal Waa[9], w;
      FcContactProblemGetBlock(p, a, a, Waa); /* either storage of W (problem.h) */
      w = uz->rule == FC_UZAWA_RHO_BLOCK || uz->rule == FC_UZAWA_RHO_LAMBDA ? SymEigMax3_Private(Waa) : Waa[0];
      /* every rule needs a normal stiffness: with W_nn = 0 the step cannot find r_N (u_N does not
       * depend on it) and the iterates grow without bound */
      if (!(Waa[0] > 0)) w = Waa[0];
      if (!(w > 0) || PetscIsInfOrNanReal(w)) {
        PetscCall(PetscInfo(NULL, "uzawa: contact %" PetscInt_FMT " has %s = %g: no local stiffness for rho\n", a,
          uz->rule == FC_UZAWA_RHO_BLOCK || uz->rule == FC_UZAWA_RHO_LAMBDA ? "lambda_max(W_aa)" : "W_nn", (double)w));
        st->reason = PetscIsInfOrNanReal(w) ? FC_CONTACT_SOLVER_DIVERGED_NAN : FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
        PetscFunctionReturn(0);
      }
      uz->rho_a[a] = factor / w;
      wmax         = PetscMax(wmax, w);
    }
    if (uz->rule == FC_UZAWA_RHO_TALBI2008) /* talbi2008 §3.3.3: 0.3 · min_a 1/W_aa,nn for every contact */
      for (PetscInt a = 0; a < m; a++) uz->rho_a[a] = factor / wmax;
    if (uz->rule == FC_UZAWA_RHO_LAMBDA) { /* ρ_a = factor / (d_a λ_max(D^{-1/2} W D^{-1/2})), d_a = λ_max(W_aa) = factor/ρ_a here */
      PetscReal lmax, *d;
      PetscCall(PetscMalloc1(m, &d));
      for (PetscInt a = 0; a < m; a++) d[a] = factor / uz->rho_a[a];
      PetscCall(LambdaMax_Private(uz, p, d, &lmax));
      PetscCall(PetscFree(d));
      if (!(lmax > 0) || PetscIsInfOrNanReal(lmax)) {
        PetscCall(PetscInfo(NULL, "uzawa: lambda_max(D^-1/2 W D^-1/2) estimated as %g: no stiffness for rho\n", (double)lmax));
        st->reason = PetscIsInfOrNanReal(lmax) ? FC_CONTACT_SOLVER_DIVERGED_NAN : FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
        PetscFunctionReturn(0);
      }
      uz->lambda_max = lmax;
      for (PetscInt a = 0; a < m; a++) uz->rho_a[a] /= lmax;
    }
  }
  uz->rho_min = PETSC_MAX_REAL;
  uz->rho_max = 0;
  for (PetscInt a = 0; a < m; a++) {
    uz->rho_min = PetscMin(uz->rho_min, uz->rho_a[a]);
    uz->rho_max = PetscMax(uz->rho_max, uz->rho_a[a]);
  }
  PetscFunctionReturn(0);
}

/* Test of the common error with the current u; when it passes, u is recomputed from r and the
 * test repeated (drift of an incrementally updated u cannot stop the iteration early). Sets
 * *done and st->reason when the iteration must stop (converged or NaN); *S receives the scale. */
static PetscErrorCode UzawaTest_Private(
  FcContactSolver s, FcContactProblem p, const PetscReal r[], PetscReal u[], PetscBool incremental, FcContactSolverStats *st, PetscReal *S, PetscBool *done)
{
  PetscReal error;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, &error));
  if (PetscIsInfOrNanReal(error)) {
    st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
    *done      = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  if (error <= s->params.tol && incremental) {
    PetscCall(FcContactProblemComputeVelocity(p, r, u));
    PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, &error));
  }
  if (error <= s->params.tol) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    *done      = PETSC_TRUE;
  }
  *S = Scale_Private(3 * p->m, p->q, r, u);
  PetscFunctionReturn(0);
}

/* ---- uzawa_local ---- */
static PetscErrorCode UzawaLocalIterate_Private(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_Uzawa *uz = (FcContactSolver_Uzawa *)s->data;
  const PetscInt         m = p->m, n = 3 * m;
  PetscReal             *u = uz->u, S;
  PetscBool              symmetric, done;

  PetscFunctionBegin;
  symmetric = FcContactProblemIsSymmetric(p);
  PetscCall(FcContactProblemComputeVelocity(p, r, u));
  PetscCall(UzawaTest_Private(s, p, r, u, PETSC_FALSE, st, &S, &done));
  if (done) PetscFunctionReturn(0);
  for (PetscInt it = 1; it <= s->params.max_it; it++) {
    const PetscReal eps2   = (uz->inner_tol == (PetscReal)PETSC_DETERMINE ? 0.01 * s->params.tol : uz->inner_tol) * S;
    PetscReal       dr2    = 0; /* Σ_a (‖Δr_a‖ / min(ρ_a, 1))² over the sweep (ε₁) */
    PetscInt        nupd   = 0;
    PetscInt64      ninner = 0;

    for (PetscInt a = 0; a < m; a++) {
      PetscReal      *ra  = r + 3 * a, Waa[9], b[3], x[3], ua[3], xn[3], d[3];
      const PetscReal rho = uz->rho_a[a], mu = p->mu[a], rho1 = PetscMin(rho, 1.0);
      PetscInt        j;

      FcContactProblemGetBlock(p, a, a, Waa); /* either storage of W (problem.h) */
      /* b_a = u_a − W_aa r_a: the free part plus the frozen contributions of the others. */
      Mult3_Private(Waa, ra, b);
      for (int i = 0; i < 3; i++) {
        b[i] = u[3 * a + i] - b[i];
        x[i] = uz->inner_zero_start ? 0 : ra[i];
      }
      for (j = 1; j <= uz->inner_max_it; j++) {
        PetscReal step2 = 0;
        Mult3_Private(Waa, x, ua);
        for (int i = 0; i < 3; i++) ua[i] += b[i];
        UzawaStep_Private(mu, rho, x, ua, xn);
        for (int i = 0; i < 3; i++) {
          step2 += (xn[i] - x[i]) * (xn[i] - x[i]);
          x[i] = xn[i];
        }
        if (PetscSqrtReal(step2) < rho1 * eps2) break; /* ‖Δr‖/ρ < ε₂ (talbi2008 §3.3.1; ρ ≤ 1) */
      }
      if (j > uz->inner_max_it) {
        j = uz->inner_max_it;
        uz->ncapped[0]++;
      }
      ninner += j;
      uz->inner_max[0] = PetscMax(uz->inner_max[0], j);
      d[0]             = x[0] - ra[0];
      d[1]             = x[1] - ra[1];
      d[2]             = x[2] - ra[2];
      dr2 += (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / (rho1 * rho1);
      if (d[0] == 0 && d[1] == 0 && d[2] == 0) continue;
      FcContactProblemAddColumn(p, symmetric, a, d, u); /* u += W_{:,a} d */
      ra[0] = x[0];
      ra[1] = x[1];
      ra[2] = x[2];
      nupd++;
    }
    uz->ninner[0] += ninner;
    uz->nloops[0] += m;
    PetscCall(PetscLogFlops((p->W ? 6.0 * n : 18.0 * p->nb / m) * nupd + 40.0 * ninner + 30.0 * m));
    st->iterations = it;
    if (it % 64 == 0) PetscCall(FcContactProblemComputeVelocity(p, r, u)); /* bound the drift of the incremental u */
    {
      const PetscReal Sprev = S;
      PetscCall(UzawaTest_Private(s, p, r, u, PETSC_TRUE, st, &S, &done));
      if (done) PetscFunctionReturn(0);
      if (uz->outer_tol > 0 && PetscSqrtReal(dr2) < uz->outer_tol * Sprev) { /* ε₁ (talbi2008 §3.3.1) */
        uz->stopped_own = PETSC_TRUE;
        st->reason      = FC_CONTACT_SOLVER_CONVERGED_TOL;
        PetscFunctionReturn(0);
      }
    }
  }
  st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

/* ---- uzawa_global ---- */
static PetscErrorCode UzawaGlobalIterate_Private(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_Uzawa *uz = (FcContactSolver_Uzawa *)s->data;
  const PetscInt         m = p->m, n = 3 * m;
  PetscReal             *u = uz->u, *rn = uz->rnew, S;
  PetscBool              done;

  PetscFunctionBegin;
  PetscCall(FcContactProblemComputeVelocity(p, r, u));
  PetscCall(UzawaTest_Private(s, p, r, u, PETSC_FALSE, st, &S, &done));
  if (done) PetscFunctionReturn(0);
  for (PetscInt it = 1; it <= s->params.max_it; it++) {
    PetscReal d2 = 0, n2 = 0;
    /* predictor–corrector at every contact from the same u^k (Jacobi) */
    for (PetscInt a = 0; a < m; a++) UzawaStep_Private(p->mu[a], uz->rho_a[a], r + 3 * a, u + 3 * a, rn + 3 * a);
    for (PetscInt i = 0; i < n; i++) {
      d2 += (rn[i] - r[i]) * (rn[i] - r[i]);
      n2 += rn[i] * rn[i];
      r[i] = rn[i];
    }
    PetscCall(PetscLogFlops(30.0 * m));
    /* back up u^{k+1} = W r^{k+1} + q (exact each sweep: nothing drifts) */
    PetscCall(FcContactProblemComputeVelocity(p, r, u));
    st->iterations = it;
    PetscCall(UzawaTest_Private(s, p, r, u, PETSC_FALSE, st, &S, &done));
    if (done) PetscFunctionReturn(0);
    if (uz->rel_tol > 0 && d2 <= uz->rel_tol * uz->rel_tol * n2) { /* ε₃ (talbi2008 §3.3.2) */
      uz->stopped_own = PETSC_TRUE;
      st->reason      = FC_CONTACT_SOLVER_CONVERGED_TOL;
      PetscFunctionReturn(0);
    }
  }
  st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolve_Uzawa(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_Uzawa *uz = (FcContactSolver_Uzawa *)s->data;

  PetscFunctionBegin;
  st->iterations = 0;
  uz->ninner[0] = uz->ncapped[0] = uz->nloops[0] = uz->inner_max[0] = 0;
  uz->rho_min = uz->rho_max = 0;
  uz->stopped_own           = PETSC_FALSE;
  if (p->m == 0) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  PetscCall(UzawaWork_Private(uz, p->m));
  PetscCall(UzawaRho_Private(uz, p, st));
  if (st->reason != FC_CONTACT_SOLVER_ITERATING) PetscFunctionReturn(0);
  if (uz->global) PetscCall(UzawaGlobalIterate_Private(s, p, r, st));
  else PetscCall(UzawaLocalIterate_Private(s, p, r, st));
  uz->ninner[1] += uz->ninner[0];
  uz->ncapped[1] += uz->ncapped[0];
  uz->nloops[1] += uz->nloops[0];
  uz->inner_max[1] = PetscMax(uz->inner_max[1], uz->inner_max[0]);
  PetscFunctionReturn(0);
}

/* A bad value for a type option: one input-error line naming the option (doc/contact.md). This
 * runs inside the object's options block, so the block's bookkeeping is released first, as
 * PetscOptionsEnd would, so that nothing leaks on this error path. */
static PetscErrorCode UzawaBadOption_Private(PetscOptionItems *PetscOptionsObject, const char *name, const char *what, PetscReal value)
{
  char opt[FC_NAME_LEN + 64];

  snprintf(opt, sizeof opt, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", name);
  PetscCall(PetscOptionsEnd_Private(PetscOptionsObject));
  return FcInputError("options", opt, "%s (got %g)", what, (double)value);
}

static PetscBool Finite_Private(PetscReal v) { return PetscIsInfOrNanReal(v) ? PETSC_FALSE : PETSC_TRUE; }

static PetscErrorCode FcContactSolverSetFromOptions_Uzawa(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_Uzawa *uz  = (FcContactSolver_Uzawa *)s->data;
  PetscReal              rho = uz->rho, factor = uz->rho_factor, inner_tol = uz->inner_tol, outer_tol = uz->outer_tol, rel_tol = uz->rel_tol;
  PetscBool              local, set;
  PetscEnum              rule = (PetscEnum)uz->rule;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject,
    uz->global ? "uzawa_global: one Uzawa step per contact and sweep, Jacobi (talbi2008 3.3.2)"
               : "uzawa_local: Gauss-Seidel over contacts, inner Uzawa loop per contact (talbi2008 3.3.1)");
  PetscCall(PetscOptionsReal("-uzawa_rho", "Uzawa step rho for every contact (0: automatic, by -uzawa_rho_rule)", "", rho, &rho, NULL));
  { /* an unknown value is the object's one-line input error (PetscOptionsEnum's would be a PETSc error) */
    char val[32];
    PetscCall(PetscOptionsString("-uzawa_rho_rule",
      "Automatic rho: block (factor/lambda_max(W_aa) per contact), lambda (factor/lambda_max(W), Jacobi-scaled), talbi2008 (factor min_a 1/W_aa,nn), wnn (factor/W_aa,nn per contact)",
      "", FcUzawaRhoRules[rule], val, sizeof val, &set));
    if (set) {
      PetscEnum k;
      for (k = 0; k < 4 && strcmp(val, FcUzawaRhoRules[k]); k++) {}
      if (k < 4) rule = k;
      else if (!s->opterr[0]) {
        snprintf(s->optname, sizeof s->optname, "-%suzawa_rho_rule", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "");
        snprintf(s->opterr, sizeof s->opterr, "unknown value '%s' (block, lambda, talbi2008 or wnn)", val);
      }
    }
  }
  /* the former switch between the two W_nn rules (issue 12), kept: true = wnn, false = talbi2008 */
  PetscCall(PetscOptionsBool("-uzawa_rho_local", "Same as -uzawa_rho_rule wnn (true) or talbi2008 (false)", "", PETSC_FALSE, &local, &set));
  if (set) rule = (PetscEnum)(local ? FC_UZAWA_RHO_WNN : FC_UZAWA_RHO_TALBI2008);
  PetscCall(PetscOptionsReal("-uzawa_rho_factor",
    "Automatic rho = rho_factor x the rule's compliance inverse (-1: 1 for block and lambda, 0.3 for talbi2008 and wnn)", "", factor, &factor, NULL));
  if (!uz->global) {
    PetscCall(PetscOptionsReal("-uzawa_inner_tol",
      "Inner Uzawa loop stops when |dr_a|/min(rho_a,1) < inner_tol x max(|q|,|r|,|u|) (talbi2008 eps2; -1: tol/100)", "", inner_tol, &inner_tol, NULL));
    PetscCall(
      FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-uzawa_inner_max_it", "Maximum inner Uzawa steps per contact and sweep", &uz->inner_max_it, 1));
    PetscCall(PetscOptionsBool("-uzawa_inner_zero_start", "Start every inner loop from r_a = 0 (talbi2008) instead of the current r_a", "",
      uz->inner_zero_start, &uz->inner_zero_start, NULL));
    PetscCall(PetscOptionsReal("-uzawa_outer_tol", "Also stop when |r^{k+1} - r^k|/min(rho,1) < outer_tol x max(|q|,|r|,|u|) (talbi2008 eps1; 0: off)", "",
      outer_tol, &outer_tol, NULL));
  } else {
    PetscCall(PetscOptionsReal("-uzawa_rel_tol", "Also stop when |r^{k+1} - r^k| / |r^{k+1}| < rel_tol (talbi2008 eps3; 0: off)", "", rel_tol, &rel_tol, NULL));
  }
  if (!(rho >= 0) || !Finite_Private(rho)) return UzawaBadOption_Private(PetscOptionsObject, "uzawa_rho", "must be finite and >= 0", rho);
  if (!(factor > 0 || factor == (PetscReal)PETSC_DETERMINE) || !Finite_Private(factor))
    return UzawaBadOption_Private(PetscOptionsObject, "uzawa_rho_factor", "must be finite and > 0 (or -1: the rule's default)", factor);
  if (!(inner_tol >= 0 || inner_tol == (PetscReal)PETSC_DETERMINE) || !Finite_Private(inner_tol))
    return UzawaBadOption_Private(PetscOptionsObject, "uzawa_inner_tol", "must be finite and >= 0 (or -1: tol/100)", inner_tol);
  if (!(outer_tol >= 0) || !Finite_Private(outer_tol))
    return UzawaBadOption_Private(PetscOptionsObject, "uzawa_outer_tol", "must be finite and >= 0", outer_tol);
  if (!(rel_tol >= 0) || !Finite_Private(rel_tol)) return UzawaBadOption_Private(PetscOptionsObject, "uzawa_rel_tol", "must be finite and >= 0", rel_tol);
  uz->rho        = rho;
  uz->rule       = (FcUzawaRhoRule)rule;
  uz->rho_factor = factor;
  uz->inner_tol  = inner_tol;
  uz->outer_tol  = outer_tol;
  uz->rel_tol    = rel_tol;
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_Uzawa(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_Uzawa *uz   = (FcContactSolver_Uzawa *)s->data;
  const char            *name = uz->global ? "uzawa_global" : "uzawa_local";

  PetscFunctionBegin;
  if (uz->rho > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "%s: rho %g (every contact)\n", name, (double)uz->rho));
  else {
    static const char *const what[] = {"1/lambda_max(W_aa) per contact (rule block)", "1/lambda_max(W), estimated (rule lambda)",
      "min_a 1/W_aa,nn (rule talbi2008)", "1/W_aa,nn per contact (rule wnn)"};
    const PetscReal factor = uz->rho_factor == (PetscReal)PETSC_DETERMINE ? (uz->rule == FC_UZAWA_RHO_BLOCK || uz->rule == FC_UZAWA_RHO_LAMBDA ? 1.0 : 0.3)
                                                                          : uz->rho_factor;
    char            f[32];
    snprintf(f, sizeof f, "%g", (double)factor); /* PETSc's %g prints 1 as "1." */
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s: rho automatic, %s x %s\n", name, f, what[uz->rule]));
  }
  if (!uz->global) {
    char itol[64], otol[64];
    if (uz->inner_tol == (PetscReal)PETSC_DETERMINE) snprintf(itol, sizeof itol, "tol/100 = %g", (double)(0.01 * s->params.tol));
    else snprintf(itol, sizeof itol, "%g", (double)uz->inner_tol);
    if (uz->outer_tol > 0) snprintf(otol, sizeof otol, "%g", (double)uz->outer_tol);
    else snprintf(otol, sizeof otol, "off");
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s: inner_tol %s, inner_max_it %" PetscInt_FMT ", inner loops start from %s, outer_tol %s\n", name, itol,
      uz->inner_max_it, uz->inner_zero_start ? "0" : "the current r_a", otol));
  } else {
    char rtol[64];
    if (uz->rel_tol > 0) snprintf(rtol, sizeof rtol, "%g", (double)uz->rel_tol);
    else snprintf(rtol, sizeof rtol, "off");
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s: rel_tol %s\n", name, rtol));
  }
  if (s->nsolves) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s: last solve: rho in [%g, %g]%s\n", name, (double)uz->rho_min, (double)uz->rho_max,
      uz->stopped_own ? (uz->global ? ", stopped on rel_tol" : ", stopped on outer_tol") : ""));
    if (uz->lambda_max > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer,
        "%s: last solve: lambda_max(D^-1/2 W D^-1/2), D = diag(lambda_max(W_aa)), estimated %g (%" PetscInt_FMT " power iterations)\n", name,
        (double)uz->lambda_max, uz->power_it));
    if (!uz->global)
      for (int k = 0; k < 2; k++)
        PetscCall(PetscViewerASCIIPrintf(viewer,
          "%s: inner iterations (%s): %" PetscInt64_FMT " in %" PetscInt64_FMT " inner loops (%.2f per contact and sweep), %" PetscInt64_FMT
          " stopped at inner_max_it, longest %" PetscInt_FMT "\n",
          name, k ? "all solves" : "last solve", uz->ninner[k], uz->nloops[k], uz->nloops[k] ? (double)uz->ninner[k] / (double)uz->nloops[k] : 0.0,
          uz->ncapped[k], uz->inner_max[k]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_Uzawa(FcContactSolver s)
{
  FcContactSolver_Uzawa *uz = (FcContactSolver_Uzawa *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscFree3(uz->rho_a, uz->u, uz->rnew));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

static PetscErrorCode UzawaCreate_Private(FcContactSolver s, PetscBool global)
{
  FcContactSolver_Uzawa *uz;

  PetscFunctionBegin;
  PetscCall(PetscNew(&uz));
  uz->global            = global;
  uz->rho               = 0;
  uz->rho_factor        = PETSC_DETERMINE;
  uz->rule              = global ? FC_UZAWA_RHO_LAMBDA : FC_UZAWA_RHO_BLOCK; /* see the header comment */
  uz->inner_tol         = PETSC_DETERMINE;
  uz->inner_max_it      = 1000;
  uz->inner_zero_start  = PETSC_FALSE;
  uz->outer_tol         = 0;
  uz->rel_tol           = 0;
  s->data               = uz;
  s->ops.solve          = FcContactSolverSolve_Uzawa;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_Uzawa;
  s->ops.view           = FcContactSolverView_Uzawa;
  s->ops.destroy        = FcContactSolverDestroy_Uzawa;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_UzawaLocal(FcContactSolver s)
{
  PetscFunctionBegin;
  PetscCall(UzawaCreate_Private(s, PETSC_FALSE));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_UzawaGlobal(FcContactSolver s)
{
  PetscFunctionBegin;
  PetscCall(UzawaCreate_Private(s, PETSC_TRUE));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverUzawaGetInnerIterations(FcContactSolver s, PetscInt64 *last, PetscInt64 *total)
{
  FcContactSolver_Uzawa *uz;

  PetscFunctionBegin;
  PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver");
  PetscCheck(s->ops.solve == FcContactSolverSolve_Uzawa && !((FcContactSolver_Uzawa *)s->data)->global, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
    "Contact solver of type %s is not uzawa_local", s->type[0] ? s->type : "(not set)");
  uz = (FcContactSolver_Uzawa *)s->data;
  if (last) *last = uz->ninner[0];
  if (total) *total = uz->ninner[1];
  PetscFunctionReturn(0);
}
