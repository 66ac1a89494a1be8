/* fcsim — contact-solver object: registry, options, solve wrapper (solver.h, doc/contact.md).
 * The registry is the shared static table of src/core/registry.h. */
#include "solver.h"
#include "../core/registry.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static FcRegistry SolverRegistry          = {.what = "contact solver"};
static PetscBool  SolverRegisterAllCalled = PETSC_FALSE;
static PetscBool  SolverUsed[FC_REGISTRY_MAX]; /* a solver of that type was made in this process */

PetscErrorCode FcContactSolverRegister(const char *name, PetscErrorCode (*create)(FcContactSolver))
{
  PetscFunctionBegin;
  PetscCall(FcRegistryAdd(&SolverRegistry, name, (FcRegistryFn)create));
  PetscFunctionReturn(0);
}

/* Every type is listed here, once: a new solver is one file in solvers/ plus one line. The macro
 * declares the type's create function itself, so that this file includes no type's header (what
 * the object needs of a type — regularized, needs_symmetric, noguess, ops — its create function
 * sets, solver.h), as FC_COMPLIANCE_REGISTER does for the compliance strategies. */
#define FC_CONTACT_SOLVER_REGISTER(name, create) \
  do { \
    extern PetscErrorCode create(FcContactSolver); \
    PetscCall(FcContactSolverRegister(name, create)); \
  } while (0)

PetscErrorCode FcContactSolverRegisterAll(void)
{
  PetscFunctionBegin;
  if (SolverRegisterAllCalled) PetscFunctionReturn(0);
  SolverRegisterAllCalled = PETSC_TRUE;
  FC_CONTACT_SOLVER_REGISTER("nsgs", FcContactSolverCreate_NSGS);                /* solvers/nsgs.c */
  FC_CONTACT_SOLVER_REGISTER("lemke", FcContactSolverCreate_Lemke);              /* solvers/lemke.c */
  FC_CONTACT_SOLVER_REGISTER("pgs", FcContactSolverCreate_PGS);                  /* solvers/pgs.c */
  FC_CONTACT_SOLVER_REGISTER("uzawa_local", FcContactSolverCreate_UzawaLocal);   /* solvers/uzawa.c */
  FC_CONTACT_SOLVER_REGISTER("uzawa_global", FcContactSolverCreate_UzawaGlobal); /* solvers/uzawa.c */
  FC_CONTACT_SOLVER_REGISTER("sap", FcContactSolverCreate_SAP);                  /* solvers/sap/, doc/sap.md */
  FC_CONTACT_SOLVER_REGISTER("newton", FcContactSolverCreate_Newton);            /* solvers/newton.c */
  FC_CONTACT_SOLVER_REGISTER("auto", FcContactSolverCreate_Auto);                /* solvers/auto.c */
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverFinalizePackage(void)
{
  PetscFunctionBegin;
  FcRegistryClear(&SolverRegistry);
  SolverRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCheckType(const char *type)
{
  FcContactSolver s;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscCall(FcContactSolverRegisterAll());
  if (FcRegistryFind(&SolverRegistry, type)) PetscFunctionReturn(0);
  PetscCall(FcContactSolverCreate(&s));
  ierr = FcContactSolverSetType(s, type); /* raises the one-line input error */
  PetscCall(FcContactSolverDestroy(&s));
  return ierr;
}

void FcContactSolverTypes(char *buf, size_t len) { FcRegistryList(&SolverRegistry, buf, len); }

const char *FcContactSolverReasonName(FcContactSolverReason reason)
{
  switch (reason) {
  case FC_CONTACT_SOLVER_CONVERGED_TOL: return "CONVERGED_TOL";
  case FC_CONTACT_SOLVER_CONVERGED_REGULARIZED: return "CONVERGED_REGULARIZED";
  case FC_CONTACT_SOLVER_ITERATING: return "ITERATING";
  case FC_CONTACT_SOLVER_DIVERGED_MAX_IT: return "DIVERGED_MAX_IT";
  case FC_CONTACT_SOLVER_DIVERGED_NAN: return "DIVERGED_NAN";
  case FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN: return "DIVERGED_BREAKDOWN";
  case FC_CONTACT_SOLVER_DIVERGED_INEXACT: return "DIVERGED_INEXACT";
  case FC_CONTACT_SOLVER_DIVERGED_LINE_SEARCH: return "DIVERGED_LINE_SEARCH";
  case FC_CONTACT_SOLVER_DIVERGED_MAX_ERROR: return "DIVERGED_MAX_ERROR";
  case FC_CONTACT_SOLVER_DIVERGED_REGULARIZED: return "DIVERGED_REGULARIZED";
  }
  return "UNKNOWN";
}

PetscErrorCode FcContactSolverCreate(FcContactSolver *solver)
{
  FcContactSolver s;

  PetscFunctionBegin;
  PetscCheck(solver, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the solver");
  *solver = NULL;
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(PetscNew(&s));
  s->params.tol         = 1e-10;
  s->params.max_it      = 1000;
  s->params.warm_start  = PETSC_TRUE;
  s->params.max_error   = PETSC_INFINITY;
  s->stats.reason       = FC_CONTACT_SOLVER_ITERATING;
  s->stats.own_residual = (PetscReal)NAN;
  s->stats.reason_name  = FcContactSolverReasonName(s->stats.reason);
  *solver               = s;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverResetType_Private(FcContactSolver s)
{
  PetscFunctionBegin;
  if (s->ops.destroy) PetscCall((*s->ops.destroy)(s));
  PetscCall(PetscMemzero(&s->ops, sizeof s->ops));
  s->data            = NULL;
  s->type[0]         = 0;
  s->frozen          = NULL; /* the type kept its data for it */
  s->regularized     = PETSC_FALSE;
  s->needs_symmetric = PETSC_FALSE;
  s->noguess         = NULL;
  if (!s->params.max_it_set) s->params.max_it = 1000; /* the object's default; a type may set its own */
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverDestroy(FcContactSolver *solver)
{
  PetscFunctionBegin;
  if (!solver || !*solver) PetscFunctionReturn(0);
  PetscCall(FcContactSolverResetType_Private(*solver));
  PetscCall(PetscFree((*solver)->prefix));
  PetscCall(PetscFree(*solver));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetType(FcContactSolver s, const char *type)
{
  PetscErrorCode (*create)(FcContactSolver) = NULL;

  PetscFunctionBegin;
  PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver");
  PetscCall(FcContactSolverRegisterAll());
  if (!type) type = "";
  if (s->type[0] && !strcmp(s->type, type)) PetscFunctionReturn(0);
  create = (PetscErrorCode(*)(FcContactSolver))FcRegistryFind(&SolverRegistry, type);
  if (!create) {
    char list[1024];
    FcContactSolverTypes(list, sizeof list);
    return FcInputError("contact solver", type, "unknown type (registered: %s)", list);
  }
  PetscCall(FcContactSolverResetType_Private(s));
  PetscCall((*create)(s));
  PetscCheck(s->ops.solve, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Contact solver type %s did not set ops.solve", type);
  PetscCall(PetscStrncpy(s->type, type, sizeof s->type));
  for (int k = 0; k < SolverRegistry.n; k++)
    if (!strcmp(SolverRegistry.name[k], type)) SolverUsed[k] = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverDormantOptions(void)
{
  char prefix[FC_NAME_LEN + 32];

  PetscFunctionBegin;
  PetscCall(FcContactSolverRegisterAll());
  for (int k = 0; k < SolverRegistry.n; k++) {
    if (SolverUsed[k]) continue;
    snprintf(prefix, sizeof prefix, "fc_contact_solver_%s_", SolverRegistry.name[k]);
    FcOptionsDormant(prefix);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverGetType(FcContactSolver s, const char **type)
{
  PetscFunctionBegin;
  *type = s->type[0] ? s->type : NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetOptionsPrefix(FcContactSolver s, const char *prefix)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->prefix));
  if (prefix && prefix[0]) PetscCall(PetscStrallocpy(prefix, &s->prefix));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetTolerances(FcContactSolver s, PetscReal tol, PetscInt max_it)
{
  PetscFunctionBegin;
  if (tol != (PetscReal)PETSC_DEFAULT) {
    FcCheckInput(tol >= 0 && !PetscIsInfOrNanReal(tol), "contact solver", "tol", "must be finite and >= 0 (got %g)", (double)tol);
    s->params.tol = tol;
  }
  if (max_it != PETSC_DEFAULT) {
    FcCheckInput(max_it >= 0, "contact solver", "max_it", "must be >= 0 (got %" PetscInt_FMT ")", max_it);
    s->params.max_it     = max_it;
    s->params.max_it_set = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetWarmStart(FcContactSolver s, PetscBool warm_start)
{
  PetscFunctionBegin;
  s->params.warm_start = warm_start;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetMaxError(FcContactSolver s, PetscReal max_error)
{
  PetscFunctionBegin;
  if (max_error == (PetscReal)PETSC_DEFAULT) PetscFunctionReturn(0);
  FcCheckInput(max_error > 0 && !PetscIsNanReal(max_error), "contact solver", "max_error", "must be > 0 (got %g)", (double)max_error);
  s->params.max_error = max_error;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetAcceptRegularized(FcContactSolver s, PetscReal bound)
{
  PetscFunctionBegin;
  if (bound == (PetscReal)PETSC_DEFAULT) PetscFunctionReturn(0);
  FcCheckInput(
    bound >= 0 && !PetscIsNanReal(bound), "contact solver", "accept_regularized", "must be >= 0 (got %g)", (double)bound); /* infinity: any common error */
  s->params.accept_regularized = bound;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverIsRegularized(FcContactSolver s, PetscBool *regularized)
{
  PetscFunctionBegin;
  *regularized = s->type[0] ? s->regularized : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverNeedsSymmetric(FcContactSolver s, PetscBool *needs)
{
  PetscFunctionBegin;
  *needs = s->type[0] ? s->needs_symmetric : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverGetSummary(FcContactSolver s, char *buf, size_t len)
{
  PetscFunctionBegin;
  if (len) buf[0] = 0;
  if (s->ops.summary && s->nsolves && len) PetscCall((*s->ops.summary)(s, buf, len));
  PetscFunctionReturn(0);
}

const char *FcContactSolverIgnoredReason(FcContactSolver s, const char *param)
{
  if (!s || !param) return NULL;
  if (!strcmp(param, "accept_regularized") && !s->regularized)
    return "it is not a regularized solver: its answer converges only when its common error is <= tol, doc/contact.md";
  /* a type whose answer does not depend on the r passed in says so (lemke: doc/contact.md, "lemke") */
  if (!strcmp(param, "warm_start") && s->noguess) return s->noguess;
  return NULL;
}

PetscErrorCode FcContactSolverGetParams(FcContactSolver s, FcContactSolverParams *params)
{
  PetscFunctionBegin;
  *params = s->params;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetFromOptions(FcContactSolver s)
{
  char      prefix[FC_NAME_LEN], type[FC_NAME_LEN], list[1024], opt[FC_NAME_LEN + 32];
  PetscBool set, tol_set, max_it_set, max_error_set, accept_set, known = PETSC_FALSE;
  PetscReal tol = s->params.tol, max_error = s->params.max_error, accept = s->params.accept_regularized;
  PetscInt  max_it = s->params.max_it;

  PetscFunctionBegin;
  PetscCall(FcContactSolverRegisterAll());
  snprintf(prefix, sizeof prefix, "%sfc_contact_solver_", s->prefix ? s->prefix : "");
  PetscCall(PetscStrncpy(type, s->type[0] ? s->type : "nsgs", sizeof type));
  /* Values are checked after PetscOptionsEnd (an early return inside the block would leave its
   * bookkeeping allocated). The type is set first, in a block of its own, so that the type's
   * options below belong to the new type. */
  PetscOptionsBegin(PETSC_COMM_SELF, prefix, "Contact solver", "FcContactSolver");
  PetscCall(
    PetscOptionsString("-type", "Contact solver type (registered types: see FcContactSolverTypes)", "FcContactSolverSetType", type, type, sizeof type, &set));
  PetscOptionsEnd();
  known = FcRegistryFind(&SolverRegistry, type) ? PETSC_TRUE : PETSC_FALSE;
  snprintf(opt, sizeof opt, "-%stype", prefix);
  if (!known) {
    /* the list only for the message: formatting it costs a third of a SetFromOptions (8.6k of
     * 27k instructions, callgrind on bench/solve_overhead) */
    FcContactSolverTypes(list, sizeof list);
    return FcInputError("options", opt, "unknown contact solver type '%s' (registered: %s)", type, list);
  }
  PetscCall(FcContactSolverSetType(s, type));

  PetscOptionsBegin(PETSC_COMM_SELF, prefix, "Contact solver parameters", "FcContactSolver");
  PetscCall(PetscOptionsReal("-tol", "Stop when the common error (relative, dimensionless) is <= tol", "FcContactSolverSetTolerances", tol, &tol, &tol_set));
  s->opterr[0] = 0;
  /* a count that is no integer, or past PetscInt, is one input-error line, never a wrapped value */
  PetscCall(FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-max_it", "Maximum number of iterations (nsgs: sweeps over all contacts)", &max_it, 0));
  PetscCall(PetscOptionsHasName(NULL, prefix, "-max_it", &max_it_set));
  PetscCall(PetscOptionsBool("-warm_start", "Start from the r given to FcContactSolverSolve (else from r = 0)", "FcContactSolverSetWarmStart",
    s->params.warm_start, &s->params.warm_start, NULL));
  PetscCall(PetscOptionsReal("-max_error", "A converged solve whose common error is above this is DIVERGED_MAX_ERROR (default: no bound)",
    "FcContactSolverSetMaxError", max_error, &max_error, &max_error_set));
  PetscCall(PetscOptionsReal("-accept_regularized", "A regularized type's answer above tol converges up to this common error (0: off)",
    "FcContactSolverSetAcceptRegularized", accept, &accept, &accept_set));
  if (s->ops.setfromoptions) PetscCall((*s->ops.setfromoptions)(s, PetscOptionsObject));
  PetscOptionsEnd();
  if (s->opterr[0]) return FcInputError("options", s->optname, "%s", s->opterr);
  snprintf(opt, sizeof opt, "-%stol", prefix);
  if (tol_set) FcCheckInput(tol >= 0 && !PetscIsInfOrNanReal(tol), "options", opt, "must be finite and >= 0 (got %g)", (double)tol);
  snprintf(opt, sizeof opt, "-%smax_it", prefix);
  if (max_it_set) FcCheckInput(max_it >= 0, "options", opt, "must be >= 0 (got %" PetscInt_FMT ")", max_it);
  snprintf(opt, sizeof opt, "-%smax_error", prefix);
  if (max_error_set) FcCheckInput(max_error > 0 && !PetscIsNanReal(max_error), "options", opt, "must be > 0 (got %g)", (double)max_error);
  snprintf(opt, sizeof opt, "-%saccept_regularized", prefix);
  if (accept_set) FcCheckInput(accept >= 0 && !PetscIsInfOrNanReal(accept), "options", opt, "must be finite and >= 0 (got %g)", (double)accept);
  /* only what was given: max_it was read before SetType, whose type may have its own default */
  if (tol_set) s->params.tol = tol;
  if (max_it_set) {
    s->params.max_it     = max_it;
    s->params.max_it_set = PETSC_TRUE;
  }
  if (max_error_set) s->params.max_error = max_error;
  if (accept_set) s->params.accept_regularized = accept;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverOptionsBoundedInt(
  FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], PetscInt *value, PetscInt lb)
{
  PetscInt  v = *value;
  PetscBool set;
  char      str[64];

  PetscFunctionBegin;
  /* a value that is not a whole number (-fc_contact_solver_lemke_k 2.5) is the same kind of bad
   * option as one out of range: recorded here, reported as one line (PetscOptionsInt would raise
   * a PETSc error that does not name the option) */
  PetscCall(PetscOptionsGetString(PetscOptionsObject->options, PetscOptionsObject->prefix, opt, str, sizeof str, &set));
  if (set) {
    char     *end;
    PetscBool printable = PETSC_TRUE;
    long      l;
    errno = 0;
    l     = strtol(str, &end, 10);
    /* PETSc would convert a value past PetscInt by wrapping it around (4294967297 -> 1) */
    if (end == str || *end || errno || l > PETSC_MAX_INT || l < PETSC_MIN_INT) {
      for (const char *c = str; *c; c++) printable = (PetscBool)(printable && isprint((unsigned char)*c));
      if (!s->opterr[0]) {
        snprintf(s->optname, sizeof s->optname, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1);
        if (end != str && !*end)
          snprintf(s->opterr, sizeof s->opterr, "must be an integer in [%" PetscInt_FMT ", %" PetscInt_FMT "] (got '%s')", lb, PETSC_MAX_INT, str);
        else snprintf(s->opterr, sizeof s->opterr, "expected an integer (got '%s')", printable ? str : "?");
      }
      PetscFunctionReturn(0);
    }
  }
  PetscCall(PetscOptionsInt(opt, text, "", v, &v, &set));
  if (!set) PetscFunctionReturn(0);
  if (v < lb) {
    if (!s->opterr[0]) {
      snprintf(s->optname, sizeof s->optname, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1);
      snprintf(s->opterr, sizeof s->opterr, "must be >= %" PetscInt_FMT " (got %" PetscInt_FMT ")", lb, v);
    }
  } else *value = v;
  PetscFunctionReturn(0);
}

static PetscBool FcAllFinite_Private(PetscInt n, const PetscReal x[])
{
  for (PetscInt i = 0; i < n; i++)
    if (PetscIsInfOrNanReal(x[i])) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* The initial guess as the parameters say: zero unless warm_start, and zero when not finite. */
static PetscErrorCode InitialGuess_Private(FcContactSolver s, PetscInt n, PetscReal r[])
{
  PetscFunctionBegin;
  if (s->params.warm_start && !FcAllFinite_Private(n, r)) {
    /* A guess with NaN/Inf (e.g. from a previous step that diverged) would poison every
     * iterate: start from zero instead, as a cold start would. */
    PetscCall(PetscInfo(NULL, "contact solver: non-finite initial guess, starting from r = 0\n"));
    PetscCall(PetscArrayzero(r, n));
  }
  if (!s->params.warm_start) PetscCall(PetscArrayzero(r, n));
  PetscFunctionReturn(0);
}

/* The object's judgement of a solve, whatever the form: st holds what the type set (iterations,
 * reason, own_residual, times); the common error of r on the local problem (u: the type's
 * u = W r + q of a frozen solve, see FcContactSolverSolve; NULL: formed here) and the final reason
 * are set here, and st becomes the solver's statistics. */
static PetscErrorCode Judge_Private(FcContactSolver s, FcContactProblem problem, const PetscReal r[], PetscReal *u, PetscBool exact, FcContactSolverStats *st)
{
  const FcContactSolverReason type_reason = st->reason;
  const PetscInt              n           = 3 * problem->m;
  PetscReal                   error;

  PetscFunctionBegin;
  /* The figure every solver is judged by, computed here from the r the type returned and by the
   * one function (problem.h), never taken from the type. */
  if (!u) PetscCall(FcContactProblemComputeError(problem, r, &error));
  else {
    /* A frozen solve's u was carried incrementally (solver.h FcContactSolverFreeze): where the
     * verdict could depend on its rounding drift (error within 2·tol, or not finite), u is formed
     * again as the product and the error recomputed, so that the verdict is the exact one. */
    PetscCall(FcContactProblemComputeErrorWithVelocity(problem, r, u, &error));
    if (!exact && !(error > 2 * s->params.tol)) {
      PetscCall(FcContactProblemComputeVelocity(problem, r, u));
      PetscCall(FcContactProblemComputeErrorWithVelocity(problem, r, u, &error));
      s->nfrozen_exact++;
    }
  }
  st->error = error;
  if (!FcAllFinite_Private(n, r) || PetscIsInfOrNanReal(error)) st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
  else if (s->regularized) {
    /* The type solves a regularized problem, whose solution is not a zero of the common error:
     * its own test passing says that it solved that problem, not that r is the answer the user
     * asked for. That is the common error against tol, as for every type; above tol the answer is
     * accepted only when the user said so, up to the bound given (issue 25). */
    if (type_reason > 0) {
      if (error <= s->params.tol) st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
      else if (s->params.accept_regularized > 0 && error <= s->params.accept_regularized) st->reason = FC_CONTACT_SOLVER_CONVERGED_REGULARIZED;
      else st->reason = FC_CONTACT_SOLVER_DIVERGED_REGULARIZED;
    } else if (type_reason < 0) st->reason = type_reason;
    else st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  } else if (error <= s->params.tol) st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
  else if (type_reason < 0) st->reason = type_reason;
  else if (type_reason > 0) st->reason = FC_CONTACT_SOLVER_DIVERGED_INEXACT;
  else st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  /* A claim of convergence is checked against the one figure every type is judged by: a
   * regularized type's own test says nothing about it, and a case may bound it. */
  if (st->reason > 0 && !(error <= s->params.max_error)) st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_ERROR;
  st->converged   = st->reason > 0 ? PETSC_TRUE : PETSC_FALSE;
  st->reason_name = FcContactSolverReasonName(st->reason);
  s->stats        = *st;
  s->nsolves++;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSetVelocityHint(FcContactSolver s, const PetscReal u[])
{
  PetscFunctionBegin;
  PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver");
  s->uhint = u;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverGetOwnVelocity(FcContactSolver s, const PetscReal **u)
{
  PetscFunctionBegin;
  PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver");
  *u = s->uown;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSolve(FcContactSolver s, FcContactProblem problem, PetscReal r[])
{
  FcContactSolverStats st;
  PetscLogDouble       t0, t1;
  const PetscInt       n = 3 * problem->m;

  PetscFunctionBegin;
  PetscCheck(s && problem, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver or problem");
  PetscCheck(r || !n, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null r for a problem with %" PetscInt_FMT " contacts", problem->m);
  for (PetscInt a = 0; a < problem->m; a++)
    PetscCheck(problem->mu[a] >= 0 && !PetscIsInfOrNanReal(problem->mu[a]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "Contact %" PetscInt_FMT ": friction coefficient %g must be finite and >= 0", a, (double)problem->mu[a]);
  if (!s->type[0]) PetscCall(FcContactSolverSetType(s, "nsgs"));
  PetscCall(InitialGuess_Private(s, n, r));
  if (!s->params.warm_start) s->uhint = NULL; /* a hint goes with a warm start */
  s->uown   = NULL;
  s->uexact = NULL;
  PetscCall(PetscMemzero(&st, sizeof st));
  st.reason       = FC_CONTACT_SOLVER_ITERATING;
  st.own_residual = (PetscReal)NAN; /* a type with its own optimality measure sets it */

  if (s->frozen == problem && s->ops.solvefrozen) {
    PetscReal *u     = NULL;
    PetscBool  exact = PETSC_FALSE;
    PetscCall(PetscTime(&t0));
    PetscCall((*s->ops.solvefrozen)(s, problem, r, &st, &u, &exact));
    PetscCall(PetscTime(&t1));
    st.time = (PetscReal)(t1 - t0);
    PetscCall(Judge_Private(s, problem, r, u, exact, &st));
  } else {
    FcContactProblem sym = NULL;
    /* The one symmetry rule (problem.h, FC_CONTACT_ASYM_ROUNDOFF): a type that needs W = Wᵀ gets
     * (W + Wᵀ)/2 when W is symmetric only to a producer's round-off, and its answer is judged on
     * W as given, never on the copy; beyond the bound it sees W as given (and refuses it). The
     * copy is O(stored entries), made outside the timed solve. */
    if (s->needs_symmetric && problem->m && !FcContactProblemIsSymmetric(problem)) {
      PetscReal asym, wmax;
      PetscInt  i, j;
      FcContactProblemAsymmetry(problem, &asym, &wmax, &i, &j);
      if (wmax > 0 && asym <= FC_CONTACT_ASYM_ROUNDOFF * wmax) {
        PetscCall(FcContactProblemConvert(problem, FcContactProblemIsSparse(problem) ? FC_CONTACT_W_SPARSE : FC_CONTACT_W_DENSE, &sym));
        PetscCall(FcContactProblemSymmetrize(sym));
        st.asymmetry = asym / wmax;
        PetscCall(PetscInfo(
          NULL, "contact solver %s: W symmetric to %g of max|W| only: the type solves (W + W^T)/2, the error is W's\n", s->type, (double)st.asymmetry));
      }
    }
    PetscCall(PetscTime(&t0));
    PetscCall((*s->ops.solve)(s, sym ? sym : problem, r, &st));
    PetscCall(PetscTime(&t1));
    st.time = (PetscReal)(t1 - t0);
    /* the type's u = W r + q when it formed it for r (never that of a symmetrized copy) */
    PetscCall(Judge_Private(s, problem, r, sym ? NULL : s->uexact, PETSC_TRUE, &st));
    PetscCall(FcContactProblemDestroy(&sym));
  }
  s->uhint = NULL; /* a hint is for one solve */
  PetscCall(PetscInfo(NULL, "contact solver %s: %" PetscInt_FMT " contacts, %" PetscInt_FMT " iterations, error %g, own residual %g, %s\n", s->type, problem->m,
    st.iterations, (double)st.error, (double)st.own_residual, st.reason_name));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverFreeze(FcContactSolver s, FcContactProblem problem)
{
  PetscFunctionBegin;
  PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver");
  if (!s->type[0]) PetscCall(FcContactSolverSetType(s, "nsgs"));
  s->frozen = problem;
  if (s->ops.freeze) PetscCall((*s->ops.freeze)(s, problem));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverHasGlobal(FcContactSolver s, PetscBool *has)
{
  PetscFunctionBegin;
  PetscCheck(s && has, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null contact solver or flag");
  *has = s->ops.solveglobal ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverSolveGlobal(FcContactSolver s, FcGlobalProblem gp, FcContactProblem *local, PetscReal r[], PetscReal v[])
{
  FcContactSolverStats st;

  PetscFunctionBegin;
  PetscCheck(s && gp && local && r, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null argument");
  PetscCheck(s->ops.solveglobal, PETSC_COMM_SELF, PETSC_ERR_SUP, "Contact solver type %s has no global form", s->type[0] ? s->type : "(not set)");
  PetscCheck(!*local || (*local)->m == gp->m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
    "The local reformulation has %" PetscInt_FMT " contacts, the global problem %" PetscInt_FMT, (*local)->m, gp->m);
  for (PetscInt a = 0; a < gp->m; a++)
    PetscCheck(gp->mu[a] >= 0 && !PetscIsInfOrNanReal(gp->mu[a]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "Contact %" PetscInt_FMT ": friction coefficient %g must be finite and >= 0", a, (double)gp->mu[a]);
  PetscCall(InitialGuess_Private(s, 3 * gp->m, r));
  PetscCall(PetscMemzero(&st, sizeof st));
  st.reason       = FC_CONTACT_SOLVER_ITERATING;
  st.own_residual = (PetscReal)NAN;
  PetscCall((*s->ops.solveglobal)(s, gp, r, v, local, &st));
  PetscCheck(*local, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Contact solver type %s did not form the local reformulation", s->type);
  PetscCall(Judge_Private(s, *local, r, NULL, PETSC_FALSE, &st));
  PetscCall(PetscInfo(NULL,
    "contact solver %s, global form: %" PetscInt_FMT " velocities, %" PetscInt_FMT " contacts, %" PetscInt_FMT " iterations, error %g, own residual %g, %s\n",
    s->type, gp->n, gp->m, st.iterations, (double)st.error, (double)st.own_residual, st.reason_name));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverGetStats(FcContactSolver s, FcContactSolverStats *stats)
{
  PetscFunctionBegin;
  *stats = s->stats;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverView(FcContactSolver s, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBegin;
  if (!viewer) viewer = PETSC_VIEWER_STDOUT_SELF;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0); /* text only */
  PetscCall(PetscViewerASCIIPrintf(viewer, "FcContactSolver: type %s\n", s->type[0] ? s->type : "(not set)"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (s->regularized) {
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "regularized: solves a regularized problem by its own optimality test; its answer converges when the common error is <= tol %g", (double)s->params.tol));
    if (s->params.accept_regularized > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, ", or accepted up to %g (accept_regularized)", (double)s->params.accept_regularized));
    PetscCall(PetscViewerASCIIPrintf(viewer, "; max_it %" PetscInt_FMT ", warm_start %s\n", s->params.max_it, s->params.warm_start ? "true" : "false"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "tol %g (common error), max_it %" PetscInt_FMT ", warm_start %s\n", (double)s->params.tol, s->params.max_it,
      s->params.warm_start ? "true" : "false"));
  if (s->params.max_error < PETSC_INFINITY)
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "max_error %g: a converged solve with a larger common error is DIVERGED_MAX_ERROR\n", (double)s->params.max_error));
  if (s->ops.view) PetscCall((*s->ops.view)(s, viewer));
  if (s->nsolves) {
    if (PetscIsInfOrNanReal(s->stats.own_residual))
      PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: %s, %" PetscInt_FMT " iterations, error %g, %g s\n", s->stats.reason_name, s->stats.iterations,
        (double)s->stats.error, (double)s->stats.time));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "last solve: %s, %" PetscInt_FMT " iterations, own residual %g, common error %g, %g s\n", s->stats.reason_name,
        s->stats.iterations, (double)s->stats.own_residual, (double)s->stats.error, (double)s->stats.time));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(0);
}
