/* fcsim — the contact solver: a pluggable object, PETSc style (doc/contact.md).
 *
 *   FcContactSolver s;
 *   FcContactSolverCreate(&s);
 *   FcContactSolverSetType(s, "nsgs");              // optional; default nsgs
 *   FcContactSolverSetTolerances(s, 1e-10, 1000);   // optional
 *   FcContactSolverSetFromOptions(s);               // -fc_contact_solver_{type,tol,max_it,warm_start,...}
 *   FcContactSolverSolve(s, problem, r);            // r: initial guess in (warm start), solution out
 *   FcContactSolverGetStats(s, &stats);             // iterations, common error, time, reason
 *   FcContactSolverDestroy(&s);
 *
 * A type may also solve FCLIB's global form M v = H r + f, u = Hᵀ v + w itself (ops.solveglobal;
 * sap does): FcContactSolverHasGlobal asks, FcContactSolverSolveGlobal solves, and the object
 * judges the result exactly as a local solve, by the common error on W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w.
 *
 * A registry maps names to create functions (FcContactSolverRegister, explicit registration in
 * FcContactSolverRegisterAll — no constructor tricks, a static library would drop them). A type
 * fills the ops table {setfromoptions, solve, view, destroy} and optionally solveglobal, and sets
 * the capability flags the object asks instead of the type's name (regularized, needs_symmetric,
 * noguess); the object owns the parameters, the warm start, the timing, the common error and the
 * final reason, so every type is measured the same way. Non-convergence is a status (stats.reason), never an error return. */
#ifndef FC_CONTACT_SOLVER_H
#define FC_CONTACT_SOLVER_H

#include "global_problem.h"

typedef struct _p_FcContactSolver *FcContactSolver;

/* Why a solve stopped. > 0 converged, < 0 not converged, 0 still running (inside a type). */
typedef enum {
  FC_CONTACT_SOLVER_DIVERGED_REGULARIZED  = -7, /* a regularized type (sap) solved its regularized problem (its own test passed), but the
                                                 * common error is above tol and the user did not accept it (accept_regularized: off, or
                                                 * the error is above that bound too): the answer is not the one asked for */
  FC_CONTACT_SOLVER_DIVERGED_MAX_ERROR    = -6, /* the solve passed its test (tol, or a regularized type's own) but the common error is
                                                 * above max_error: the claim of convergence is refused (the object's check, any type) */
  FC_CONTACT_SOLVER_DIVERGED_LINE_SEARCH  = -5, /* a line search failed (no descent along the step, or its 1-D iteration did not converge) */
  FC_CONTACT_SOLVER_DIVERGED_INEXACT      = -4, /* the type stopped on its own test (e.g. an approximate cone) but the common error is above tol */
  FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN    = -3, /* the type could not proceed (e.g. a contact with W_aa,nn <= 0) */
  FC_CONTACT_SOLVER_DIVERGED_NAN          = -2, /* r or the common error is not finite */
  FC_CONTACT_SOLVER_DIVERGED_MAX_IT       = -1, /* max_it iterations without reaching tol */
  FC_CONTACT_SOLVER_ITERATING             = 0,
  FC_CONTACT_SOLVER_CONVERGED_TOL         = 1, /* common error <= tol */
  FC_CONTACT_SOLVER_CONVERGED_REGULARIZED = 2  /* a regularized type (solver->regularized) passed its own optimality test
                                                * with a common error above tol, which the user accepted: at most
                                                * params.accept_regularized (doc/contact.md §4, "Regularized types") */
} FcContactSolverReason;

/* "CONVERGED_TOL", "DIVERGED_MAX_IT", ... */
const char *FcContactSolverReasonName(FcContactSolverReason reason);

/* Parameters common to every type. Defaults in FcContactSolverCreate (listed here). */
typedef struct {
  PetscReal tol;                /* 1e-10: stop when the common error (dimensionless, relative) is <= tol */
  PetscInt  max_it;             /* 1000: maximum iterations (the type defines one: a sweep over all contacts for nsgs) */
  PetscBool warm_start;         /* true: start from the r passed to Solve (e.g. the previous step); false: from r = 0 */
  PetscReal max_error;          /* PETSC_INFINITY (none): a converged solve whose common error is above it is DIVERGED_MAX_ERROR */
  PetscReal accept_regularized; /* 0 (off, the object's default): a regularized type's answer converges only when its common
                                 * error is <= tol, like every type's (else DIVERGED_REGULARIZED). > 0: the user accepts a
                                 * regularized answer whose common error is above tol up to this bound (CONVERGED_REGULARIZED).
                                 * FC_CONTACT_SOLVER_ACCEPT_REGULARIZED is the bound of `--accept-regularized` and the default of
                                 * a case (contact_solver.accept_regularized: true); doc/contact.md §4 */
  PetscBool max_it_set;         /* max_it was given (SetTolerances, -max_it): a type's own default (newton, auto) does not replace it */
} FcContactSolverParams;

/* The bound on the common error of a regularized answer that `--accept-regularized` and a case's
 * default (contact_solver.accept_regularized: true) accept: 1e-2. Why (measured, doc/contact.md §4):
 * where sap's convex model agrees with Coulomb's law (sticking and frictionless contacts) its
 * common error follows the regularization, at most 4.0e-3 at its defaults (β = 1, σ = 1e-3;
 * test_sap "stick" family) and 1e-9 .. 4.9e-4 on the cases (the masonry arch at μ = 1 and through
 * its collapse at μ = 0.2, the cylinder presses, block on floor, incline in stiction); where it
 * does not (sliding contacts: the convex model separates them, u_N = μ‖u_T‖) the common error
 * plateaus at 6e-2 .. 0.26 whatever R (doc/sap.md §3). 1e-2 accepts the first with a margin of 2.5
 * at least and refuses the second: a 10 % error is never accepted by default. */
#define FC_CONTACT_SOLVER_ACCEPT_REGULARIZED 1e-2

/* Statistics of the last solve. */
typedef struct {
  PetscInt              iterations;   /* as counted by the type (nsgs: sweeps) */
  PetscReal             error;        /* common error of the returned r, computed by the object after the solve */
  PetscReal             own_residual; /* the type's own optimality residual (dimensionless, defined by the type, e.g. sap's
                                       * relative gradient norm); NaN for types that have none (all but the regularized ones) */
  PetscReal             time;         /* wall time of the type's solve, seconds (the final error evaluation excluded); of a
                                       * global-form solve, its setup included */
  PetscReal             time_setup;   /* global form: wall time of the type's setup (factorizations, ...), part of time; 0 otherwise */
  PetscReal             asymmetry;    /* a type that needs W = Wᵀ (sap) solved (W + Wᵀ)/2 of a W whose relative asymmetry
                                       * max|W_ij − W_ji| / max|W| is this (within FC_CONTACT_ASYM_ROUNDOFF; the error is
                                       * still that of W as given); 0 when W was used as given */
  PetscBool             converged;    /* reason > 0: error <= tol, or for a regularized type its own test passed; and error <= max_error */
  FcContactSolverReason reason;
  const char           *reason_name; /* FcContactSolverReasonName(reason), static storage */
} FcContactSolverStats;

/* ---- implementation side: what a type sees (PETSc keeps this in a private header) ---- */
struct _FcContactSolverOps {
  /* Type options, inside the object's PetscOptionsBegin/End (prefix "fc_contact_solver_"). */
  PetscErrorCode (*setfromoptions)(FcContactSolver, PetscOptionItems *PetscOptionsObject);
  /* Solve from the r given (the object has already zeroed it unless warm_start). Set
   * stats->iterations and stats->reason (CONVERGED_TOL when the type's own test passed,
   * DIVERGED_* otherwise) and, optionally, stats->own_residual (NaN on entry); the object then
   * sets error, time, converged and the final reason. */
  PetscErrorCode (*solve)(FcContactSolver, FcContactProblem, PetscReal r[], FcContactSolverStats *stats);
  PetscErrorCode (*view)(FcContactSolver, PetscViewer);
  PetscErrorCode (*destroy)(FcContactSolver); /* free data; the object frees nothing of the type's */
  /* Optional: solve the global problem in its own form (NULL: the type has none). Set up and solve
   * from the r given (as solve) and fill v (n) when not NULL. Set stats as solve does, and also
   * stats->time and stats->time_setup (the type's wall times: only it knows where its setup
   * ends). When *local is NULL on entry (M is not symmetric positive definite, so that
   * FcGlobalProblemComputeLocal did not form the reformulation), create *local with the mass
   * matrix the type actually used (not timed). A bad M the type cannot use is an input error. */
  PetscErrorCode (*solveglobal)(FcContactSolver, FcGlobalProblem, PetscReal r[], PetscReal v[], FcContactProblem *local, FcContactSolverStats *stats);
  /* Optional: the frozen-problem path (FcContactSolverFreeze; NULL: the type solves a frozen
   * problem as any other). freeze: p (NULL: none) is the problem whose W and μ the next
   * solvefrozen calls keep; forget whatever was kept for another. solvefrozen: as solve, on the
   * frozen p whose q may have changed since the last call; the work that depends on W and μ alone
   * is done once per freeze, and *u returns the type's u = W r + q at the returned r (its buffer,
   * kept from solve to solve; NULL when it has none, e.g. a breakdown before any product),
   * *exact whether u was formed as the product after r's and q's last change (else it was
   * updated incrementally: exact up to rounding drift). The object computes the common error
   * from it (FcContactSolverSolve). */
  /* Optional: one line of text (no newline) on what the last solve did that the statistics do not
   * say, for a command's result line: a regularized type its regularization (sap: β, σ, R), a
   * composite type which of its parts did the work (auto). */
  PetscErrorCode (*summary)(FcContactSolver, char *buf, size_t len);
  PetscErrorCode (*freeze)(FcContactSolver, FcContactProblem);
  PetscErrorCode (*solvefrozen)(FcContactSolver, FcContactProblem, PetscReal r[], FcContactSolverStats *stats, PetscReal **u, PetscBool *exact);
};

struct _p_FcContactSolver {
  char type[FC_NAME_LEN]; /* "" until a type is set */
  /* Set by a type's create function (reset with the type): the type solves a REGULARIZED
   * problem (sap: Castro et al. 2022), whose solution is not a zero of the common error, so the
   * common error does not go to tol. Then converged = the type's own optimality test passed
   * (reason CONVERGED_REGULARIZED); the common error is still computed and reported as error,
   * and the type's residual as own_residual. Default false: converged = common error <= tol. */
  PetscBool regularized;
  /* Set by a type's create function: the type needs W = Wᵀ (sap: its convex cost has gradient W r
   * only then). FcContactSolverSolve hands such a type (W + Wᵀ)/2 when W is not symmetric but
   * within FC_CONTACT_ASYM_ROUNDOFF (a producer's round-off, problem.h), and judges the answer on W
   * as given; beyond that bound the type sees W as given (and refuses it). */
  PetscBool needs_symmetric;
  /* Set by a type's create function: why the type ignores the initial guess r (warm_start), as
   * text for a warning (FcContactSolverIgnoredReason), or NULL when it uses it (lemke: Lemke's
   * method starts from its own basis). */
  const char                *noguess;
  char                      *prefix; /* extra options prefix before "fc_contact_solver_" (NULL: none) */
  struct _FcContactSolverOps ops;
  FcContactSolverParams      params;
  FcContactSolverStats       stats;
  PetscInt                   nsolves;       /* solves since creation */
  FcContactProblem           frozen;        /* FcContactSolverFreeze's problem, or NULL */
  const PetscReal           *uhint;         /* FcContactSolverSetVelocityHint's u for the next solve, or NULL */
  const PetscReal           *uown;          /* set by a type's solve: the u its returned r was computed from, when that is
                                       * not W r + q to the precision the type resolves (sap: r = γ(v_c), v_c = q + Wλ,
                                       * doc/sap.md "Warm start"); the type's buffer, valid until the next solve; NULL: none */
  PetscReal                 *uexact;        /* set by a type's (unfrozen) solve: u = W r + q formed by FcContactProblemComputeVelocity
                                       * for the r it returned (nsgs: its stopping test formed it; newton: every step's), so
                                       * that the judgement does not form the same product again (the same error bit for
                                       * bit; never used for a symmetrized copy); the type's buffer, valid until the next
                                       * solve (auto hands on its child's); NULL: none */
  PetscInt                   nfrozen_exact; /* frozen solves whose error needed u recomputed as the product (near tol) */
  const PetscReal           *ucarry;        /* set by a type's (unfrozen) solve: its u for the r returned, updated incrementally (nsgs's
                                       * sweeps: W r + q to the drift of its updates), for a parent's decisions (auto), never a
                                       * judgement; the type's buffer, valid until the next solve; NULL: none */
  PetscBool                  resume;        /* set by a parent (auto) when this solve continues its previous one on the same problem
                                       * (W, q, μ unchanged: the next chunk): the type may keep what it set up (newton: its LU
                                       * path, PETSc's J and factorization's symbolic phase), the same iterates; false otherwise */
  PetscReal                  err_first;     /* set by nsgs's solve: the common error its stopping test measured after the first sweep,
                                       * NaN when it made none (auto measures nsgs's rate without that sweep: doc/contact.md "auto") */
  void                      *data;          /* the type's */
  char                       opterr[256];   /* first out-of-range type option (FcContactSolverOptionsBoundedInt) */
  char                       optname[FC_NAME_LEN + 32];
};

/* For a type's setfromoptions: PetscOptionsInt, but a value below lb is not a PETSc error raised
 * inside the options block (a traceback, exit 1): it is recorded, the old value kept, and
 * FcContactSolverSetFromOptions raises it after the block as one input-error line naming the
 * option (exit 2), like every other bad input. */
PetscErrorCode FcContactSolverOptionsBoundedInt(
  FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], PetscInt *value, PetscInt lb);

/* Registry. */
PetscErrorCode FcContactSolverRegister(const char *name, PetscErrorCode (*create)(FcContactSolver));
PetscErrorCode FcContactSolverRegisterAll(void);
PetscErrorCode FcContactSolverFinalizePackage(void);
/* Registered names, comma separated (for messages, --help and case validation). */
void FcContactSolverTypes(char *buf, size_t len);
/* The options of every registered contact solver this process made none of
 * ("-fc_contact_solver_TYPE_..."), marked dormant for the report of unused options
 * (FcOptionsDormant, src/core): a case carries the parameters of the solvers its studies compare
 * (cases/masonry_arch.json: sap's, for study compare --solvers newton,sap). */
PetscErrorCode FcContactSolverDormantOptions(void);

/* Object. */
PetscErrorCode FcContactSolverCreate(FcContactSolver *solver);
PetscErrorCode FcContactSolverDestroy(FcContactSolver *solver);
/* Unknown name → FC_ERR_INPUT, one line naming the type and listing the registered ones. */
PetscErrorCode FcContactSolverSetType(FcContactSolver solver, const char *type);
/* The input error SetType would raise for an unknown name, without a solver (checks lists of
 * names before any work is done). */
PetscErrorCode FcContactSolverCheckType(const char *type);
PetscErrorCode FcContactSolverGetType(FcContactSolver solver, const char **type);
/* Options are read as -[prefix]fc_contact_solver_*, so two solvers compared in one study can
 * be configured apart ("a_" → -a_fc_contact_solver_tol). */
PetscErrorCode FcContactSolverSetOptionsPrefix(FcContactSolver solver, const char *prefix);
PetscErrorCode FcContactSolverSetFromOptions(FcContactSolver solver);
/* tol: PETSC_DEFAULT keeps the current value; max_it likewise. tol must be >= 0, max_it >= 0. */
PetscErrorCode FcContactSolverSetTolerances(FcContactSolver solver, PetscReal tol, PetscInt max_it);
PetscErrorCode FcContactSolverSetWarmStart(FcContactSolver solver, PetscBool warm_start);
/* max_error > 0 (PETSC_INFINITY: no bound, the default; PETSC_DEFAULT keeps the current value);
 * -fc_contact_solver_max_error overrides it in SetFromOptions. */
PetscErrorCode FcContactSolverSetMaxError(FcContactSolver solver, PetscReal max_error);
/* bound >= 0 (0: off; PETSC_DEFAULT keeps the current value): a regularized type's answer whose
 * common error is above tol but within bound is CONVERGED_REGULARIZED instead of
 * DIVERGED_REGULARIZED; -fc_contact_solver_accept_regularized overrides it in SetFromOptions. No
 * effect on other types. */
PetscErrorCode FcContactSolverSetAcceptRegularized(FcContactSolver solver, PetscReal bound);
/* Whether the type solves a regularized problem (sap); false without a type. */
PetscErrorCode FcContactSolverIsRegularized(FcContactSolver solver, PetscBool *regularized);
/* Whether the type needs a symmetric W (sap; see needs_symmetric); false without a type. */
PetscErrorCode FcContactSolverNeedsSymmetric(FcContactSolver solver, PetscBool *needs);
/* The type's summary of its last solve (ops.summary) into buf, "" when it has none. */
PetscErrorCode FcContactSolverGetSummary(FcContactSolver solver, char *buf, size_t len);
/* Why the solver's type does not use the common parameter `param` ("tol", "warm_start" or
 * "accept_regularized"), as text for a warning, or NULL when it uses it: lemke ignores the initial
 * r; a type that is not regularized ignores accept_regularized. (Every type uses tol: a regularized
 * type's answer is judged against it too.) A caller warns only about what
 * the user asked for (fcsim: warning: WHERE: KEY: ignored by TYPE (WHY)). */
const char    *FcContactSolverIgnoredReason(FcContactSolver solver, const char *param);
PetscErrorCode FcContactSolverGetParams(FcContactSolver solver, FcContactSolverParams *params);
/* An optional hint for the next Solve (only; Solve forgets it): u (3m entries, the caller's
 * buffer, read during that Solve) is the contact velocity u = W r + q the solution is expected
 * near — a stepper passes the previous step's, mapped contact by contact, with NaN for a contact
 * it has none for. Used with warm_start by sap (its first Newton step linearizes the projection
 * at this u instead of at W r + q, doc/sap.md "Warm start"); the other types ignore it. NULL:
 * no hint. */
PetscErrorCode FcContactSolverSetVelocityHint(FcContactSolver solver, const PetscReal u[]);
/* After a Solve: the contact velocity the type computed its r from (sap: the v_c whose projection
 * r is, which a hint for the next solve must be: u = W r + q differs from it by W(λ − γ), small
 * against ‖u‖ but not against R r), or NULL when the type has none (then u = W r + q is the one).
 * The solver's buffer, valid until the next Solve. */
PetscErrorCode FcContactSolverGetOwnVelocity(FcContactSolver solver, const PetscReal **u);
/* r (3m): in, the initial guess when warm_start; out, the solution (or the last iterate). */
PetscErrorCode FcContactSolverSolve(FcContactSolver solver, FcContactProblem problem, PetscReal r[]);
PetscErrorCode FcContactSolverGetStats(FcContactSolver solver, FcContactSolverStats *stats);
PetscErrorCode FcContactSolverView(FcContactSolver solver, PetscViewer viewer);

/* A frozen problem: a sequence of solves of one problem object whose W and μ do not change, only
 * q (a haptic loop's ticks, doc/haptic.md §3). After FcContactSolverFreeze(s, p), a solve of p
 * (the same object) by a type with a frozen path (nsgs) does the work that depends on W alone
 * once (W's symmetry test, the diagonal blocks and their inverses), carries u = W r + q from one
 * solve to the next when r is the r the previous solve returned (u ← u + (q − q_prev), O(m)
 * instead of the O(m²) product), allocates nothing, and the object computes the common error
 * from the type's u instead of forming W r + q again. The reported error stays the true one:
 * a solve is declared converged only on an error from u formed as the product, and a carried
 * error within 2·tol is recomputed from the product (so the converged/not converged verdict is
 * the exact one whenever the rounding drift of u moves the error by less than tol); u is formed
 * as the product again at the first solve after a freeze, when r is not the previous solve's,
 * and every 64 sweeps counted across solves (nsgs' own drift bound within one solve). Results
 * differ from unfrozen solves at rounding level only (doc/contact.md "Frozen problem").
 * Solving another problem in between is allowed (the normal path); changing W or μ of p is
 * not: freeze again (FcContactSolverFreeze(s, p) forgets what was kept). p = NULL ends the
 * freeze; so does SetType. The caller keeps p alive while frozen. */
PetscErrorCode FcContactSolverFreeze(FcContactSolver solver, FcContactProblem problem);

/* Global form (FCLIB's M v = H r + f, u = Hᵀ v + w; global_problem.h). */
/* Whether the solver's type solves the global form itself (sap); false for a solver without a type. */
PetscErrorCode FcContactSolverHasGlobal(FcContactSolver solver, PetscBool *has);
/* Solve gp in the global form (PETSC_ERR_SUP for a type without one: ask HasGlobal first).
 * *local: the local reformulation the result is judged on (FcGlobalProblemComputeLocal), or NULL
 * when M was not symmetric positive definite: the type then creates it with the mass matrix it
 * used, and the caller destroys it. r (3m): as FcContactSolverSolve (warm start, the solution
 * out). v (n): the velocities out, or NULL. Statistics as FcContactSolverSolve (the common error
 * of r on *local, the same reasons and max_error), with time and time_setup the type's. */
PetscErrorCode FcContactSolverSolveGlobal(FcContactSolver solver, FcGlobalProblem gp, FcContactProblem *local, PetscReal r[], PetscReal v[]);

/* Types: one file each under solvers/ (sap: the folder solvers/sap/), each registered by one line
 * of FcContactSolverRegisterAll (solver.c), whose macro declares its create function. A type's own
 * interface beyond the ops table, where it has one, is in its header (solvers/lemke.h, uzawa.h,
 * sap/sap.h). */

#endif
