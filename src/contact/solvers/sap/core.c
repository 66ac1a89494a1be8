/* fcsim — the core of the Semi-Analytic Primal solver (Castro, Permenter & Han, IEEE T-RO 2022,
 * [C22]), shared by its two forms (doc/sap.md): the contact-solver type "sap" on the local form
 * u = W r + q (local.c, Newton in an impulse λ) and SAP on FCLIB's global form M v = H r + f
 * (global.c, Newton in the velocities v). What is the same in both is here, once: the parameters
 * and their options, the analytic projection and its derivative, the regularization, the exact
 * line search, the history, and the Newton iteration itself (FcSAPNewton: evaluate, test, step,
 * search, move), which calls back into the form for what differs — how the cost and the gradient
 * are evaluated at an iterate, how the Newton system is solved, how the iterate moves. The
 * derivations of §1–§3 and §8 are in local.c, the global form's in global.c; §4–§7:
 *
 * 4. The analytic projection ([C22], in FCLIB's frame (n, t1, t2)). With μ̃ = μ√(R_t/R_n),
 *    μ̂ = μR_t/R_n, y_r = ‖y_t‖, t̂ = y_t/y_r:
 *      stiction   y_n ≥ 0 and y_r ≤ μ y_n:  γ = y,                         G = R⁻¹;
 *      sliding    y_n > −μ̂ y_r (and not stiction):  γ_n = (y_n + μ̂ y_r)/(1 + μ̃²), γ_t = μγ_n t̂;
 *                 G = (1/((1+μ̃²)R_n)) a aᵀ + (μγ_n/(y_r R_t)) e eᵀ,  a = (1, μt̂), e = (0, t̂⊥)
 *                 (Drake's dP/dy·R⁻¹, written as the sum of its two rank-one parts, so L = [a e]
 *                 scaled is read off);
 *      no contact y_n ≤ −μ̂ y_r (the polar cone in the R-metric):  γ = 0, G = 0.
 *    The "y_n ≥ 0" in the stiction test keeps μ = 0 right (there stiction is y_r = 0, y_n ≥ 0).
 *
 * 5. Regularization ([C22], near-rigid regime; Drake SapFrictionConeConstraint): per contact
 *    w_a = ‖W_aa‖_F / 3 (the RMS norm of the 3×3 diagonal block of the Delassus operator, the
 *    diagonal approximation [C22] uses; Drake's SapModel::CalcDelassusDiagonalApproximation),
 *    R_n = β²/(4π²) w_a (a contact "period" of β time steps: the stiffest a contact can be for the
 *    time step), R_t = σ w_a. The regularized solution solves Anitescu's problem with W + R:
 *        F ∋ γ ⊥ (W + R)γ + q ∈ F*,   i.e.  min_{γ∈F} ½γᵀ(W + R)γ + qᵀγ,
 *    so it tends to the unregularized convex solution linearly in R. It is NOT De Saxcé's Coulomb
 *    law (the common error's): at a sliding contact the convex approximation has u_N = μ‖u_T‖ > 0
 *    (the bodies separate while pushing), so on sliding problems the common error keeps a floor as
 *    β, σ → 0 (measured, doc/sap.md).
 *
 * 6. Line search: exact, as in [C22] (§VIII.C): each Newton step is scaled by the minimizer of
 *    the cost along it. f(α) = f(λ + αΔλ) is convex and C¹: ℓ_R(v_c) = max_{g∈F} (−v_cᵀg −
 *    ½gᵀRg) is a maximum of affine functions of v_c, attained at γ = P_F^R(−R⁻¹v_c) (with y =
 *    −R⁻¹v_c, (y − γ)ᵀRγ = 0 for a projection onto a cone, so the maximum is ½γᵀRγ), and its
 *    gradient −γ is Lipschitz (the projection is nonexpansive). So f' is continuous and
 *    nondecreasing, smooth between the α where a contact changes region (kinks of f'), and cheap:
 *    f_A is a quadratic a0 + a1α + ½a2α², f_R is evaluated per contact in O(m) (v_c(α) = v_c +
 *    αWΔλ), f'(α) = a1 + a2α − (WΔλ)·γ(α), f''(α) = a2 + Σ‖L_aᵀ(WΔλ)_a‖² (one-sided at a kink).
 *    With f'(0) < 0 (a descent direction):
 *    - α = α_max = 2 (FC_SAP_STEP_MAX, sap_impl.h) when f'(α_max) ≤ 0: f decreases on [0, 2];
 *    - else α is the root of f' in the bracket [0, α_max] (f'(0) < 0 < f'(α_max)), found by
 *      Newton's method on f' safeguarded by bisection (Press et al., Numerical Recipes §9.4;
 *      Dennis & Schnabel, Numerical Methods for Unconstrained Optimization, ch. 2). First trial
 *      α = 1: along a Newton direction f''(0) = −f'(0), so 1 is Newton's step for f' from 0 (the
 *      minimizer when no contact changes region along the step), and it is the midpoint of
 *      [0, 2]. After each trial the end of the bracket with the sign of f'(α) moves to α. The next
 *      trial is Newton's point α − f'/f'' when f'' > 0 and it lies strictly inside the bracket,
 *      unless the trial just made was itself a Newton point that failed to halve |f'| (near a root
 *      where f' is smooth Newton does far better: f' bends hard in between — a kink, or an
 *      S-shape where a slip direction turns, on which Newton cycles — or is at its rounding
 *      floor); otherwise the bracket's midpoint, which halves the bracket whatever f' does, so
 *      the search always ends. Success when |f'(α)| ≤ τ|f'(0)| or the bracket is shorter
 *      than τ α_max, τ = √ε_mach (FC_SAP_LINE_TOL): f(α) − f(α*) is then ~ε_mach times the
 *      decrease f(0) − f(α*) (sap_impl.h). Failure on a non-finite f' or after ls_max_it (default
 *      100) evaluations of f' (bisection alone reaches the bracket test in log2(1/τ) = 26
 *      evaluations, 52 with a failed Newton trial before each);
 *    - round-off guard: by convexity f(α) ≥ f(0) + α f'(0), so no step lowers f by more than
 *      α_max |f'(0)|; when that is within the cost criterion's tolerance at the cost of the
 *      iterate (§7, f(0) as the scale) a search would chase rounding in f': α = 1 is taken after
 *      one evaluation of f'. Derived in doc/sap.md §2 "Round-off guard"; the guard is Drake's
 *      (SapSolver::PerformExactLineSearch, with ℓ(α_max) as the scale and without the factor
 *      α_max), credited there.
 *    Why α_max = 2 rather than 1: a quadratic model decreases along its own Newton step exactly on
 *    (0, 2), and the cost keeps decreasing past α = 1 where contacts leave stiction or separate
 *    along the step (its curvature drops); 2 lets the step double there. The choice matters
 *    little: α_max from 1 to 2 changes SAP's iteration counts by a few per cent either way
 *    (measured, doc/sap.md).
 *
 * 7. Stopping ([C22]; Drake SapSolverParameters): ‖∇ℓ‖ ≤ ε_a + ε_r max(‖p‖, ‖j_c‖), with the
 *    norms of generalized impulses taken in A⁻¹ (Drake weighs them by diag(A)^{-1/2}, the Jacobi
 *    approximation of the same norm): ‖∇ℓ‖ = ‖Jᵀ(λ − γ)‖_{A⁻¹} = √(gᵀWg), ‖j_c‖ = ‖Jᵀγ‖_{A⁻¹} =
 *    √(γᵀWγ), and p → p − p* = A(v − v*) = Jᵀλ, ‖p − p*‖ = √(λᵀWλ) (the free momentum p* is not
 *    in the local form; leaving it out makes the test stricter, never looser, than Drake's). The
 *    gradient is a generalized impulse; these norms are √(energy) (√J when u is a velocity and r
 *    an impulse), so ε_a is in √J and ε_r is dimensionless. stats.own_residual = ‖∇ℓ‖ / max(‖p −
 *    p*‖, ‖j_c‖) (‖∇ℓ‖ when that is 0). Drake's second criterion is kept: a step with α > 0.5
 *    that changes ℓ by less than cost_atol + cost_rtol (ℓᵏ⁺¹ + ℓᵏ)/2 (1e-30, 1e-15) ends the
 *    solve as converged — round-off (γ moves by ~ε_mach‖W‖‖λ‖/min R) stalls the gradient above
 *    an ε_r of ~1e-10 when σ ~ 1e-5 — with own_residual showing what was reached; likewise a
 *    line search that cannot lower the cost by more than that tolerance takes α = 1 (§6).
 * */
#include "sap_impl.h"
#include <math.h>

void FcSAPParamsDefault(FcSAPParams *par)
{
  par->beta      = 1.0;   /* [C22], Drake's default */
  par->sigma     = 1e-3;  /* [C22], Drake's default */
  par->rtol      = 1e-6;  /* Drake's rel_tolerance, han2023 §VII (eps_r = 1e-6) */
  par->atol      = 1e-14; /* Drake's abs_tolerance, sqrt(J) */
  par->cost_rtol = 1e-15; /* Drake's cost_rel_tolerance */
  par->cost_atol = 1e-30; /* Drake's cost_abs_tolerance, J */
  par->ls_max_it = 100;   /* evaluations of f' per line search (bisection alone needs 26; §6) */
  par->monitor   = PETSC_FALSE;
}

PetscErrorCode FcSAPParamsOptions(PetscOptionItems *PetscOptionsObject, FcSAPParams *par)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsReal("-sap_beta", "Near-rigid regularization R_n = beta^2/(4 pi^2) w_a (w_a = |W_aa|_F/3), > 0", "", par->beta, &par->beta, NULL));
  PetscCall(PetscOptionsReal("-sap_sigma", "Friction regularization R_t = sigma w_a, > 0", "", par->sigma, &par->sigma, NULL));
  PetscCall(PetscOptionsReal(
    "-sap_rtol", "Relative tolerance eps_r of |grad l| <= eps_a + eps_r max(|p - p*|, |j_c|) (dimensionless)", "", par->rtol, &par->rtol, NULL));
  PetscCall(PetscOptionsReal(
    "-sap_atol", "Absolute tolerance eps_a of the same test, in sqrt(energy) (sqrt(J) for velocities and impulses)", "", par->atol, &par->atol, NULL));
  PetscCall(PetscOptionsReal("-sap_cost_rtol",
    "Also stop when a full step changes the cost by less than cost_atol + cost_rtol |cost| (round-off stall; Drake's cost criterion)", "", par->cost_rtol,
    &par->cost_rtol, NULL));
  PetscCall(PetscOptionsReal("-sap_cost_atol", "Absolute part of the cost criterion (units of energy)", "", par->cost_atol, &par->cost_atol, NULL));
  PetscCall(PetscOptionsBoundedInt("-sap_ls_max_it",
    "Evaluations of the cost's slope allowed to one line search (safeguarded Newton on the slope along the step); exhausting them fails the solve with DIVERGED_LINE_SEARCH",
    "", par->ls_max_it, &par->ls_max_it, NULL, 1));
  PetscCall(PetscOptionsBool(
    "-sap_monitor", "Print cost, gradient norm, step and line-search iterations at each Newton iterate", "", par->monitor, &par->monitor, NULL));
  PetscFunctionReturn(0);
}

const char *FcSAPParamsInvalid(const FcSAPParams *par, const char **what, PetscReal *value)
{
  const struct {
    const char *name;
    PetscReal   v;
    PetscBool   positive; /* > 0, else >= 0 */
  } p[] = {
    {"sap_beta", par->beta, PETSC_TRUE},
    {"sap_sigma", par->sigma, PETSC_TRUE},
    {"sap_rtol", par->rtol, PETSC_FALSE},
    {"sap_atol", par->atol, PETSC_FALSE},
    {"sap_cost_rtol", par->cost_rtol, PETSC_FALSE},
    {"sap_cost_atol", par->cost_atol, PETSC_FALSE},
  };
  for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
    if (PetscIsInfOrNanReal(p[k].v) || (p[k].positive ? !(p[k].v > 0) : !(p[k].v >= 0))) {
      *what  = p[k].positive ? "must be finite and > 0" : "must be finite and >= 0";
      *value = p[k].v;
      return p[k].name;
    }
  }
  return NULL;
}

void FcSAPRegularization(const FcSAPParams *par, PetscReal w, PetscReal R[3])
{
  R[0] = par->beta * par->beta / (4 * PETSC_PI * PETSC_PI) * w;
  R[1] = par->sigma * w;
  R[2] = par->sigma * w;
}

/* The analytic projection of one contact (comment §4). */
int FcSAPProject(PetscReal mu, PetscReal Rn, PetscReal Rt, const PetscReal vc[3], PetscReal gam[3], PetscReal L[9])
{
  const PetscReal yn = -vc[0] / Rn, yt0 = -vc[1] / Rt, yt1 = -vc[2] / Rt, yr = PetscSqrtReal(yt0 * yt0 + yt1 * yt1);
  const PetscReal muhat = mu * Rt / Rn, mut2 = mu * mu * Rt / Rn;

  if (L)
    for (int i = 0; i < 9; i++) L[i] = 0;
  if (yn >= 0 && yr <= mu * yn) { /* stiction: γ = y, G = R⁻¹ */
    gam[0] = yn;
    gam[1] = yt0;
    gam[2] = yt1;
    if (L) {
      L[0] = 1 / PetscSqrtReal(Rn);
      L[4] = 1 / PetscSqrtReal(Rt);
      L[8] = 1 / PetscSqrtReal(Rt);
    }
    return 1;
  }
  if (yn > -muhat * yr) { /* sliding (yr > 0 here: yr = 0 is stiction or no contact) */
    const PetscReal f = 1 / (1 + mut2), gn = (yn + muhat * yr) * f, c = yt0 / yr, s = yt1 / yr;
    gam[0] = gn;
    gam[1] = mu * gn * c;
    gam[2] = mu * gn * s;
    if (L) {
      const PetscReal sa = PetscSqrtReal(f / Rn), se = PetscSqrtReal(mu * gn / (yr * Rt));
      L[0] = sa;
      L[1] = sa * mu * c;
      L[2] = sa * mu * s;
      L[4] = -se * s; /* e = (0, t̂⊥) */
      L[5] = se * c;
    }
    return 2;
  }
  gam[0] = gam[1] = gam[2] = 0; /* no contact */
  return 0;
}

/* f(α), f'(α) and f''(α) along the line (comment §6): the quadratic a0 + a1α + ½a2α² plus ℓ_R
 * evaluated contact by contact at vc + α dvc. */
static PetscReal SAPLineEval_Private(const FcSAPLine *ln, PetscReal alpha, PetscReal *df, PetscReal *d2f)
{
  const PetscReal *R = ln->R, *vc = ln->vc, *dvc = ln->dvc;
  PetscReal        fR = 0, dR = 0, d2R = 0;

  for (PetscInt a = 0; a < ln->m; a++) {
    PetscReal v[3], gm[3], L[9];
    for (int i = 0; i < 3; i++) v[i] = vc[3 * a + i] + alpha * dvc[3 * a + i];
    if (FcSAPProject(ln->mu[a], R[3 * a], R[3 * a + 1], v, gm, L)) {
      fR += FcSAPCostR(R + 3 * a, gm);
      dR -= dvc[3 * a] * gm[0] + dvc[3 * a + 1] * gm[1] + dvc[3 * a + 2] * gm[2];
      for (int c = 0; c < 3; c++) {
        const PetscReal t = L[3 * c] * dvc[3 * a] + L[3 * c + 1] * dvc[3 * a + 1] + L[3 * c + 2] * dvc[3 * a + 2];
        d2R += t * t; /* Δv_cᵀ G Δv_c = Σ ‖Lᵀ Δv_c‖² */
      }
    }
  }
  *df  = ln->a1 + ln->a2 * alpha + dR;
  *d2f = ln->a2 + d2R;
  return ln->a0 + ln->a1 * alpha + 0.5 * ln->a2 * alpha * alpha + fR;
}

/* The step along a Newton direction (comment §6). g = f' is continuous and nondecreasing on
 * [0, FC_SAP_STEP_MAX] (f is convex and C¹, comment §6), g(0) = df0 < 0, so f is minimized on that
 * interval where g changes sign, or at its right end when g ≤ 0 throughout. The sign change is
 * found by Newton's method on g kept inside a bracket [lft, rgt] with g(lft) < 0 < g(rgt), falling
 * back on bisection: the safeguarded Newton iteration for a root of a monotone function of
 * numerical-analysis texts (Press et al., Numerical Recipes §9.4; Dennis & Schnabel, Numerical
 * Methods for Unconstrained Optimization, ch. 2). Rules and constants: comment §6, sap_impl.h. */
PetscBool FcSAPLineSearch(const FcSAPLine *ln, const FcSAPParams *par, PetscReal *alpha, PetscInt *its)
{
  const PetscReal top = FC_SAP_STEP_MAX, slope0 = PetscAbsReal(ln->df0);
  PetscReal       lft = 0, rgt = top; /* the bracket */
  PetscReal       t, g, dg, ftop, gbefore;
  PetscBool       fromNewton;

  *its   = 1;
  *alpha = top;
  ftop   = SAPLineEval_Private(ln, top, &g, &dg);
  if (PetscIsInfOrNanReal(g)) return PETSC_FALSE;
  if (g <= 0) return PETSC_TRUE; /* f still decreasing at the longest step allowed */
  /* The round-off guard (doc/sap.md §2, "Round-off guard"). By convexity f(α) ≥ f(0) + α df0, so
   * no step in [0, top] lowers the cost by more than top |df0| (twice the Newton decrement's
   * square). When that is within the cost criterion's tolerance at the cost of the iterate,
   * cost_atol + cost_rtol f(0) (comment §7: what the solver takes for the rounding of ℓ), no α
   * can make a difference the solver could tell: take the Newton step (α = 1 > 0.5, so the cost
   * criterion ends the solve at the next iterate) instead of chasing round-off in g. f(0) costs
   * an evaluation, made only when the guard can hold: f(0) ≤ f(top) + top |df0| (convexity). */
  if (top * slope0 <= par->cost_atol + par->cost_rtol * (PetscAbsReal(ftop) + top * slope0)) {
    PetscReal       g0, dg0;
    const PetscReal f0 = SAPLineEval_Private(ln, 0, &g0, &dg0);
    if (top * slope0 <= par->cost_atol + par->cost_rtol * PetscAbsReal(f0)) {
      *alpha = 1;
      return PETSC_TRUE;
    }
  }
  /* First trial: α = 1. Along a Newton direction the model of f at 0 is f(0) + α df0 + ½α² f''(0)
   * with f''(0) = −df0 (the step solves ∇²f Δ = −∇f), whose minimizer is α = 1: Newton's step for
   * g from α = 0, with no evaluation at 0. It is also the midpoint of [0, FC_SAP_STEP_MAX]. */
  t          = 1;
  fromNewton = PETSC_FALSE;
  gbefore    = -slope0;
  while (*its < par->ls_max_it) {
    PetscReal next;

    (*its)++;
    (void)SAPLineEval_Private(ln, t, &g, &dg);
    if (PetscIsInfOrNanReal(g)) return PETSC_FALSE;
    *alpha = t;
    if (PetscAbsReal(g) <= FC_SAP_LINE_TOL * slope0) return PETSC_TRUE;
    if (g < 0) lft = t;
    else rgt = t;
    if (rgt - lft <= FC_SAP_LINE_TOL * top) {
      /* the minimizer is pinned to the bracket: its left end has g < 0, so f(lft) < f(0); it is 0
       * only when every trial had g > 0, i.e. the minimizer lies in (0, rgt) */
      *alpha = lft > 0 ? lft : 0.5 * rgt;
      return PETSC_TRUE;
    }
    /* Newton's point t − g/g' when g' > 0 and it lies strictly inside the bracket, unless t was
     * itself a Newton point at which |g| did not fall to half its value at the trial before: g
     * bends hard between t and the root (a kink where a contact changes region, or an S-shape
     * where a slip direction turns, on which Newton's iterates cycle) or |g| is at its rounding
     * floor. Otherwise the bracket's midpoint, which halves the bracket whatever g does. */
    next = 0.5 * (lft + rgt);
    if (!(fromNewton && PetscAbsReal(g) > 0.5 * PetscAbsReal(gbefore)) && dg > 0) {
      const PetscReal tn = t - g / dg;
      fromNewton         = (tn > lft && tn < rgt) ? PETSC_TRUE : PETSC_FALSE;
      if (fromNewton) next = tn;
    } else fromNewton = PETSC_FALSE;
    gbefore = g;
    t       = next;
  }
  return PETSC_FALSE; /* ls_max_it evaluations without meeting either test */
}

PetscErrorCode FcSAPHistoryPush(FcSAPHistory *h, PetscReal cost, PetscReal grad, PetscReal scale)
{
  PetscFunctionBegin;
  if (h->n == h->cap) {
    const PetscInt cap = PetscMax(16, 2 * h->cap);
    PetscCall(PetscRealloc(sizeof(PetscReal) * cap, &h->cost));
    PetscCall(PetscRealloc(sizeof(PetscReal) * cap, &h->grad));
    PetscCall(PetscRealloc(sizeof(PetscReal) * cap, &h->scale));
    PetscCall(PetscRealloc(sizeof(PetscReal) * cap, &h->alpha));
    PetscCall(PetscRealloc(sizeof(PetscInt) * cap, &h->ls));
    h->cap = cap;
  }
  h->cost[h->n]  = cost;
  h->grad[h->n]  = grad;
  h->scale[h->n] = scale;
  h->alpha[h->n] = (PetscReal)NAN;
  h->ls[h->n]    = 0;
  h->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSAPHistoryDestroy(FcSAPHistory *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(h->cost));
  PetscCall(PetscFree(h->grad));
  PetscCall(PetscFree(h->scale));
  PetscCall(PetscFree(h->alpha));
  PetscCall(PetscFree(h->ls));
  h->cap = h->n = 0;
  PetscFunctionReturn(0);
}

/* The Newton iteration of both forms (comment §6, §7): at iterate k, ops->eval gives the cost, the
 * gradient norm and the scale; the tests in the order NaN, gradient, cost criterion (Drake's, a full
 * step α > 0.5 that no longer changes ℓ: round-off stalls the cost before the gradient test when
 * ε_r is below what the conditioning allows), max_it; then ops->direction fills the line along
 * the Newton step (or says why it could not), the exact line search picks α, and ops->step moves
 * the iterate. The state (status, history, counts) is st's; *its: Newton steps taken. */
PetscErrorCode FcSAPNewton(const FcSAPNewtonOps *ops, void *ctx, const FcSAPParams *par, PetscInt max_it, const char *head, FcSAPState *st, PetscInt *its)
{
  PetscReal grad = 0, scale = 0;
  PetscInt  k;

  PetscFunctionBegin;
  for (k = 0;; k++) {
    PetscReal   cost = 0, alpha;
    PetscInt    ls_its;
    PetscBool   lsok;
    FcSAPLine   line;
    const char *fail = NULL;

    PetscCall(ops->eval(ctx, &cost, &grad, &scale));
    PetscCall(FcSAPHistoryPush(&st->hist, cost, grad, scale));
    if (par->monitor) {
      const PetscReal rel = scale > 0 ? grad / scale : grad;
      if (k)
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s %3" PetscInt_FMT " cost %.15e |grad| %.6e rel %.6e alpha %.6f ls %" PetscInt_FMT "\n", ops->name, k,
          (double)cost, (double)grad, (double)rel, (double)st->hist.alpha[k - 1], st->hist.ls[k - 1]));
      else
        PetscCall(PetscPrintf(
          PETSC_COMM_SELF, "  %s %3" PetscInt_FMT " cost %.15e |grad| %.6e rel %.6e %s\n", ops->name, k, (double)cost, (double)grad, (double)rel, head));
    }
    if (PetscIsInfOrNanReal(cost) || PetscIsInfOrNanReal(grad) || PetscIsInfOrNanReal(scale)) {
      st->reason  = FC_CONTACT_SOLVER_DIVERGED_NAN;
      st->failure = "non-finite cost or gradient";
      break;
    }
    if (grad <= par->atol + par->rtol * scale) { /* the SAP stopping test (comment §7) */
      st->reason = FC_CONTACT_SOLVER_CONVERGED_REGULARIZED;
      break;
    }
    if (k && st->hist.alpha[k - 1] > 0.5 && PetscAbsReal(cost - st->hist.cost[k - 1]) < par->cost_atol + par->cost_rtol * 0.5 * (cost + st->hist.cost[k - 1])) {
      st->reason    = FC_CONTACT_SOLVER_CONVERGED_REGULARIZED;
      st->cost_stop = PETSC_TRUE;
      break;
    }
    if (k >= max_it) {
      st->reason  = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
      st->failure = "max_it Newton iterations";
      break;
    }
    PetscCall(ops->direction(ctx, k, &line, &fail));
    if (fail) {
      st->reason  = FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
      st->failure = fail;
      break;
    }
    if (!(line.df0 < 0)) { /* −∇ℓᵀ(∇²ℓ)⁻¹∇ℓ < 0 unless ∇ℓ = 0: only round-off makes it fail */
      if (ops->release) PetscCall(ops->release(ctx));
      PetscCall(PetscInfo(NULL, "%s: iteration %" PetscInt_FMT ": no descent along the Newton step (df/dalpha(0) = %g, |grad| %g): round-off\n", ops->name, k,
        (double)line.df0, (double)grad));
      st->reason  = FC_CONTACT_SOLVER_DIVERGED_LINE_SEARCH;
      st->failure = "no descent along the Newton step (round-off)";
      break;
    }
    lsok = FcSAPLineSearch(&line, par, &alpha, &ls_its);
    if (ops->release) PetscCall(ops->release(ctx));
    st->ls_it += ls_its;
    if (!lsok) {
      st->reason  = FC_CONTACT_SOLVER_DIVERGED_LINE_SEARCH;
      st->failure = "the line search failed (a non-finite slope, or ls_max_it evaluations)";
      break;
    }
    st->hist.alpha[k] = alpha; /* history slot k exists (pushed above) */
    st->hist.ls[k]    = ls_its;
    PetscCall(ops->step(ctx, alpha));
  }
  st->own = scale > 0 ? grad / scale : grad;
  *its    = k;
  PetscFunctionReturn(0);
}

void FcSAPStateReset(FcSAPState *st)
{
  st->hist.n    = 0;
  st->ls_it     = 0;
  st->failure   = NULL;
  st->cost_stop = PETSC_FALSE;
  st->reason    = FC_CONTACT_SOLVER_ITERATING;
  st->own       = (PetscReal)NAN;
  st->nstick = st->nslide = st->nsep = 0;
}

void FcSAPStateCountRegions(FcSAPState *st, PetscInt m, const PetscInt mode[])
{
  for (PetscInt a = 0; a < m; a++) {
    if (mode[a] == 1) st->nstick++;
    else if (mode[a] == 2) st->nslide++;
    else st->nsep++;
  }
}

void FcSAPStateInfo(const FcSAPState *st, FcSAPInfo *info)
{
  PetscMemzero(info, sizeof *info);
  info->reason            = st->reason;
  info->reason_name       = FcContactSolverReasonName(st->reason);
  info->converged         = st->reason > 0 ? PETSC_TRUE : PETSC_FALSE;
  info->failure           = st->failure;
  info->newton_iterations = st->hist.n ? st->hist.n - 1 : 0;
  info->ls_iterations     = st->ls_it;
  info->own_residual      = st->own;
  info->nhistory          = st->hist.n;
  info->cost              = st->hist.cost;
  info->gradient          = st->hist.grad;
  info->scale             = st->hist.scale;
  info->alpha             = st->hist.alpha;
  info->nstick            = st->nstick;
  info->nslide            = st->nslide;
  info->nsep              = st->nsep;
  info->cost_criterion    = st->cost_stop;
}
