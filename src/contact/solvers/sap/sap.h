/* fcsim — the sap solver's own interface (doc/sap.md), beyond the contact-solver object of
 * src/contact/solver.h: what a solve did (FcSAPInfo, one struct for both forms) and SAP on FCLIB's
 * global form as an object of its own (doc/sap.md, "Global form").
 *
 * The folder solvers/sap/ is the whole solver: core.c (what both forms share: the projection, the
 * regularization, the exact line search and the Newton iteration), local.c (the contact-solver
 * type "sap" on u = W r + q), global.c (the global form below), sap_impl.h (their internal header).
 *
 * FCLIB's global frictional contact problem (fclib.h; no equality constraints G, b):
 *
 *     M v = H r + f,   u = Hᵀ v + w,   K_μ ∋ r ⊥ û ∈ K_μ*  per contact (De Saxcé, problem.h),
 *
 * v ∈ Rⁿ generalized velocities, r, u ∈ R^{3m}. Castro, Permenter & Han 2022 ([C22]) solve the
 * convex approximation of it, regularized by R, as an unconstrained problem in v (their primal):
 *
 *     ℓ(v) = ½ (v − v*)ᵀ M (v − v*) + ℓ_R(v_c),   v* = M⁻¹ f,   v_c = Hᵀ v + w,
 *     ∇ℓ  = M (v − v*) − H γ(v_c),   ∇²ℓ = M + H G Hᵀ (sparse),
 *
 * with γ, G and ℓ_R the analytic projection of the local type (core.c §4, shared through
 * sap_impl.h). Newton with the exact line search; the Hessian is assembled as a PETSc AIJ
 * matrix every iteration and factored by sparse Cholesky (MUMPS by default). With the same R this
 * is the same problem as the local type's on W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w, and its iterates are
 * the same (v = v* + M⁻¹Hλ), so both return the same r (tests/unit/test_sap_global.c).
 *
 *     FcGlobalProblem gp;  FcSAPGlobal s;
 *     FcGlobalProblemCreate(n, m, &gp) + fill;          // or FcFCLIBRead (src/io) from a file
 *     FcSAPGlobalCreate(&s);
 *     FcSAPGlobalSetFromOptions(s);                     // -fc_contact_solver_sap_*, -fc_sap_global_*
 *     FcSAPGlobalSetUp(s, gp);                          // symmetrize/regularize M, v*, R
 *     FcSAPGlobalSolve(s, r, v);                        // r: initial impulse in, γ out; v out (or NULL)
 *     FcSAPGlobalGetInfo(s, &info);                     // status, iterations, own residual, history
 *     FcSAPGlobalDestroy(&s); FcGlobalProblemDestroy(&gp);
 *
 * The contact-solver type "sap" runs this as its global-form operation (local.c,
 * FcContactSolverSolveGlobal in solver.h), which is how `fcsim fclib solve` reaches it. */
#ifndef FC_SAP_H
#define FC_SAP_H

#include "../../solver.h"

typedef struct _n_FcSAPGlobal *FcSAPGlobal;

/* How w_a, the scale of contact a's regularization R_a = (β²/(4π²) w_a, σ w_a, σ w_a), is found. */
typedef enum {
  FC_SAP_GLOBAL_DELASSUS_DIAG  = 0, /* w_a = ‖H_aᵀ diag(M)⁻¹ H_a‖_F / 3 (default; no solve, see doc/sap.md) */
  FC_SAP_GLOBAL_DELASSUS_EXACT = 1  /* w_a = ‖H_aᵀ M⁻¹ H_a‖_F / 3 (3m solves): the local type's R */
} FcSAPGlobalDelassus;

PetscErrorCode FcSAPGlobalCreate(FcSAPGlobal *s);
PetscErrorCode FcSAPGlobalDestroy(FcSAPGlobal *s);
/* -fc_contact_solver_sap_{beta,sigma,rtol,atol,cost_rtol,cost_atol,ls_max_it,monitor} and
 * -fc_contact_solver_max_it (the local type's options, same meaning and defaults),
 * -fc_sap_global_reg ε (1e-10), -fc_sap_global_delassus diag|exact; the Hessian's KSP has the
 * prefix fc_sap_global_, M's fc_sap_global_mass_ (e.g. -fc_sap_global_pc_factor_mat_solver_type
 * cholmod). Bad values → one input-error line. */
PetscErrorCode FcSAPGlobalSetFromOptions(FcSAPGlobal s);
PetscErrorCode FcSAPGlobalSetMaxIt(FcSAPGlobal s, PetscInt max_it);
/* Use this R (3m, R_a = (R_n, R_t, R_t), all > 0) instead of computing it; NULL: compute it
 * (the Delassus approximation of -fc_sap_global_delassus). Copied; takes effect at SetUp. */
PetscErrorCode FcSAPGlobalSetRegularization(FcSAPGlobal s, PetscInt m, const PetscReal R[]);
/* M̃ = ½(M + Mᵀ) (one warning line on stderr when max|M − Mᵀ| > 1e-12 max|M|); its Cholesky
 * factorization; if that fails (zero pivot) or shows negative pivots, M̃ += ε mean|diag M| I with
 * one warning line, and if it still fails, an input error "/fclib_global/M: not positive
 * definite". Then v* = M̃⁻¹ f and R. gp must outlive the solves. */
PetscErrorCode FcSAPGlobalSetUp(FcSAPGlobal s, FcGlobalProblem gp);
/* The local reformulation with M̃: W = Hᵀ M̃⁻¹ H (symmetrized), q = Hᵀ v* + w (3m solves), W stored
 * as choice says: auto, block-sparse when the pattern of FcGlobalProblemContactGroups (components
 * of M̃) is below the fill rule; then M̃⁻¹ H is solved in chunks of 128 columns and only the stored
 * blocks are formed. */
PetscErrorCode FcSAPGlobalComputeLocalStorage(FcSAPGlobal s, FcContactWChoice choice, FcContactProblem *p);
/* The same with the storage chosen by the fill rule (auto). */
PetscErrorCode FcSAPGlobalComputeLocal(FcSAPGlobal s, FcContactProblem *p);
/* r (3m): in, an impulse guess (the start is v = v* + M̃⁻¹ H r: zeros for a cold start); out, γ at
 * the last iterate (always in the cone). v (n): out, the last iterate, or NULL. Non-convergence
 * is a status (GetInfo), never an error. */
PetscErrorCode FcSAPGlobalSolve(FcSAPGlobal s, PetscReal r[], PetscReal v[]);

/* What a sap solve did, in either form: FcContactSolverSAPGetInfo (the local type, after
 * FcContactSolverSolve) and FcSAPGlobalGetInfo (the global object, after SetUp and Solve). Pointers valid
 * until the next solve (SetUp) or destroy. A field a form does not have is 0 (NaN for reals). */
typedef struct {
  FcContactSolverReason reason; /* the form's own verdict: CONVERGED_REGULARIZED (its own test) or a
                                            * DIVERGED_* status (the object judges the local type's answer again,
                                            * by the common error: FcContactSolverStats) */
  const char           *reason_name;
  PetscBool             converged;            /* reason > 0 */
  const char           *failure;              /* NULL, or what failed */
  PetscInt              newton_iterations;    /* = stats.iterations */
  PetscInt              ls_iterations;        /* line-search iterations of the last solve (evaluations of dℓ/dα) */
  PetscInt64            ls_iterations_all;    /* local type: since creation */
  PetscReal             own_residual;         /* ‖∇ℓ‖ / max(‖p − p*‖, ‖j_c‖) (local.c §7; global.c §6) */
  PetscInt              nhistory;             /* newton_iterations + 1 entries below: [0] at the initial guess */
  const PetscReal      *cost;                 /* ℓ at each iterate (units of energy: u·r) */
  const PetscReal      *gradient;             /* ‖∇ℓ‖ at each iterate (sqrt(energy), see doc/sap.md) */
  const PetscReal      *scale;                /* max(‖p − p*‖, ‖j_c‖) at each iterate (same units) */
  const PetscReal      *alpha;                /* line-search step taken from iterate k to k+1 (nhistory − 1 entries) */
  const PetscReal      *R;                    /* 3m: regularization of the last solve, per contact (R_n, R_t, R_t) */
  PetscInt              nstick, nslide, nsep; /* contacts by region of the analytic projection at the returned r */
  PetscBool             cost_criterion;       /* converged on Drake's cost criterion (round-off stall), not the gradient test */
  PetscReal             wmin, wmax;           /* range of the scales w_a of R (NaN for a global R given by the user) */
  /* local type only */
  PetscBool  hinted;     /* the first Newton step was the one from the velocity hint (local.c §8) */
  PetscInt64 hinted_all; /* such first steps since creation */
  /* global form only */
  FcSAPGlobalDelassus delassus;
  PetscBool           user_R;                 /* R given by FcSAPGlobalSetRegularization */
  PetscReal           asymmetry;              /* max|M − Mᵀ| / max|M| */
  PetscBool           symmetrized;            /* asymmetry > 1e-12: warned */
  PetscBool           regularized;            /* ε mean|diag M| I was added: warned */
  PetscReal           shift;                  /* that shift (0 when not regularized) */
  PetscReal           time_setup, time_solve; /* wall time, s */
} FcSAPInfo;
/* The local type's (PETSC_ERR_ARG_WRONG for a solver of another type). */
PetscErrorCode FcContactSolverSAPGetInfo(FcContactSolver, FcSAPInfo *);
PetscErrorCode FcSAPGlobalGetInfo(FcSAPGlobal s, FcSAPInfo *info);

#endif
