/* fcsim — the core of the Semi-Analytic Primal solver (Castro, Permenter & Han, IEEE T-RO 2022,
 * [C22]) shared by its two forms: the contact-solver type "sap" on the local form u = W r + q
 * (local.c) and SAP on FCLIB's global form M v = H r + f, u = Hᵀ v + w (global.c); defined in
 * core.c. Internal header of the folder, not part of the contact-solver interface (that is
 * sap.h). The formulas are in the head comment of core.c (§4–§7) and in doc/sap.md. */
#ifndef FC_SAP_IMPL_H
#define FC_SAP_IMPL_H

#include "../../../core/fc.h"
#include "sap.h"

/* Constants of the line search (comment §6 of core.c).
 * FC_SAP_STEP_MAX, the longest step in units of the Newton step: a quadratic model of the cost
 * decreases along its own Newton step exactly on (0, 2); the cost itself can keep decreasing past
 * α = 1 where contacts leave stiction or separate along the step (its curvature drops), and 2 lets
 * the step double there. The bracket [0, 2] then has the Newton point α = 1 as its midpoint.
 * FC_SAP_LINE_TOL = √ε_mach: a search ends when |f'(α)| ≤ FC_SAP_LINE_TOL |f'(0)| or when its
 * bracket is shorter than FC_SAP_LINE_TOL·FC_SAP_STEP_MAX. Near the minimizer α*, f(α) − f(α*) ≈
 * f'(α)²/(2f'') and, along a Newton direction (f'' ≈ |f'(0)|), the decrease f(0) − f(α*) ≈
 * |f'(0)|/2; so the first test leaves f(α) − f(α*) ≲ ε_mach (f(0) − f(α*)), and the second,
 * ½f''(α − α*)², a few times that: the size of the rounding of the cost itself, below which a
 * tighter tolerance would not show. */
#define FC_SAP_STEP_MAX 2.0
#define FC_SAP_LINE_TOL PETSC_SQRT_MACHINE_EPSILON

/* Parameters common to both forms (defaults from FcSAPParamsDefault, Drake's and [C22]'s). */
typedef struct {
  PetscReal beta;      /* 1: near-rigid R_n = β²/(4π²) w_a */
  PetscReal sigma;     /* 1e-3: R_t = σ w_a */
  PetscReal rtol;      /* 1e-6: ε_r, dimensionless */
  PetscReal atol;      /* 1e-14: ε_a, √(energy) (Drake's abs_tolerance, in √J) */
  PetscReal cost_rtol; /* 1e-15: cost criterion |ℓᵏ⁺¹ − ℓᵏ| < cost_atol + cost_rtol (ℓᵏ⁺¹ + ℓᵏ)/2 (Drake's) */
  PetscReal cost_atol; /* 1e-30: same, units of energy */
  PetscInt  ls_max_it; /* 100: evaluations of f' allowed to one line search (comment §6 of core.c) */
  PetscBool monitor;   /* print cost and gradient at each iterate */
} FcSAPParams;

void FcSAPParamsDefault(FcSAPParams *par);

/* Reads -<prefix>sap_{beta,sigma,rtol,atol,cost_rtol,cost_atol,ls_max_it,monitor} inside an open
 * options block (the local type's, prefix "fc_contact_solver_"; the global form opens one with
 * the same prefix, so both forms take the same options). No checks: see FcSAPParamsInvalid. */
PetscErrorCode FcSAPParamsOptions(PetscOptionItems *PetscOptionsObject, FcSAPParams *par);

/* NULL when par is valid, else the option name after the prefix ("sap_beta") and, in *what and
 * *value, the message and the offending value (the caller raises the input error). */
const char *FcSAPParamsInvalid(const FcSAPParams *par, const char **what, PetscReal *value);

/* The regularization of one contact from its Delassus scale w_a ([C22] near-rigid regime,
 * comment §5 of core.c): R = (β²/(4π²) w_a, σ w_a, σ w_a). */
void FcSAPRegularization(const FcSAPParams *par, PetscReal w, PetscReal R[3]);

/* The analytic projection of one contact (comment §4 of core.c). vc: contact velocity (n, t1, t2);
 * out: γ = P_F^R(−R⁻¹vc) and, when L is not NULL, the factor L (3 columns of 3, column-major,
 * L[3c + i]) of G = −dγ/dvc = L Lᵀ. Returns the region: 0 no contact, 1 stiction, 2 sliding. */
int FcSAPProject(PetscReal mu, PetscReal Rn, PetscReal Rt, const PetscReal vc[3], PetscReal gam[3], PetscReal L[9]);

/* Columns of L that do not vanish in a region (stiction 3, sliding 2, no contact 0). */
static inline PetscInt FcSAPRegionColumns(int mode) { return mode == 1 ? 3 : mode == 2 ? 2 : 0; }

/* ½ γᵀ R γ of one contact (ℓ_R's summand). */
static inline PetscReal FcSAPCostR(const PetscReal R[3], const PetscReal gam[3])
{
  return 0.5 * (R[0] * gam[0] * gam[0] + R[1] * gam[1] * gam[1] + R[2] * gam[2] * gam[2]);
}

/* One exact line search along a Newton step (comment §6 of core.c): the cost along the step is
 * f(α) = a0 + a1α + ½a2α² + Σ_a ℓ_R,a(vc_a + α dvc_a), whose quadratic part is the momentum
 * term (local form: a Newton step Δλ with v_c = q + Wλ; global form: Δv with v_c = Hᵀv + w) and
 * whose slope at 0 is df0 < 0. */
typedef struct {
  PetscInt         m;
  const PetscReal *mu, *R, *vc, *dvc; /* m, 3m, 3m, 3m */
  PetscReal        a0, a1, a2, df0;
} FcSAPLine;

/* The minimizer of the convex f on [0, FC_SAP_STEP_MAX]: FC_SAP_STEP_MAX when f' ≤ 0 there, else a
 * root of the nondecreasing f' by Newton's method safeguarded by bisection. Returns PETSC_FALSE
 * when it failed (a non-finite f', or ls_max_it evaluations of f' without meeting its tests);
 * *its: evaluations of f'. */
PetscBool FcSAPLineSearch(const FcSAPLine *line, const FcSAPParams *par, PetscReal *alpha, PetscInt *its);

/* History of one solve: [k] at iterate k; alpha[k], ls[k]: the step from k to k+1. */
typedef struct {
  PetscInt   cap, n;
  PetscReal *cost, *grad, *scale, *alpha;
  PetscInt  *ls;
} FcSAPHistory;

PetscErrorCode FcSAPHistoryPush(FcSAPHistory *h, PetscReal cost, PetscReal grad, PetscReal scale);
PetscErrorCode FcSAPHistoryDestroy(FcSAPHistory *h);

/* The state of one solve, in either form: what FcSAPNewton sets (status, history, line-search
 * evaluations, own residual) and the regions at the returned r (FcSAPStateCountRegions). */
typedef struct {
  FcSAPHistory          hist;
  PetscInt              ls_it;     /* evaluations of f' by the line searches of the solve */
  FcContactSolverReason reason;    /* CONVERGED_REGULARIZED (the form's own test) or DIVERGED_* */
  const char           *failure;   /* static text, or NULL */
  PetscBool             cost_stop; /* stopped on the cost criterion (comment §7 of core.c) */
  PetscReal             own;       /* ‖∇ℓ‖ / max(‖p − p*‖, ‖j_c‖) at the last iterate */
  PetscInt              nstick, nslide, nsep;
} FcSAPState;

void FcSAPStateReset(FcSAPState *st);
void FcSAPStateCountRegions(FcSAPState *st, PetscInt m, const PetscInt mode[]);
/* The fields of info that st holds (the rest zeroed: the form fills them). */
void FcSAPStateInfo(const FcSAPState *st, FcSAPInfo *info);

/* What differs between the two forms, called back by FcSAPNewton with the form's context. */
typedef struct {
  const char *name; /* "sap", "sap global": monitor and -info lines */
  /* At the current iterate: v_c, γ, G = L Lᵀ of every contact, and the cost ℓ, ‖∇ℓ‖ and the scale
   * max(‖p − p*‖, ‖j_c‖) of the stopping test (comment §7 of core.c). */
  PetscErrorCode (*eval)(void *ctx, PetscReal *cost, PetscReal *grad, PetscReal *scale);
  /* The Newton step at iterate k and the line along it (line: every field, df0 = ∇ℓᵀΔ), or in
   * *fail why it could not be computed (then nothing else is used). */
  PetscErrorCode (*direction)(void *ctx, PetscInt k, FcSAPLine *line, const char **fail);
  /* Optional: after the line search, release what direction lent the line (NULL: nothing). */
  PetscErrorCode (*release)(void *ctx);
  /* The iterate moves by alpha times the Newton step. */
  PetscErrorCode (*step)(void *ctx, PetscReal alpha);
} FcSAPNewtonOps;

/* Newton with the exact line search until the stopping test, the cost criterion, max_it Newton
 * steps or a failure (st, reset by the caller; *its: the steps taken). head: the tail of the
 * monitor's first line. */
PetscErrorCode FcSAPNewton(const FcSAPNewtonOps *ops, void *ctx, const FcSAPParams *par, PetscInt max_it, const char *head, FcSAPState *st, PetscInt *its);

/* The global form as the sap type's solveglobal operation runs it (local.c): the type's
 * parameters and the object's max_it, already read with the solver's options prefix and checked,
 * then -fc_sap_global_{reg,delassus} (a bad value: one input-error line). */
PetscErrorCode FcSAPGlobalConfigure(FcSAPGlobal s, const FcSAPParams *par, PetscInt max_it);

#endif
