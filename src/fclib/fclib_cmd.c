#define _POSIX_C_SOURCE 200809L /* strtok_r */
/* fcsim — `fcsim fclib solve FILE [--solver T] [--tol X] [--max-it N] [-o SOLUTION.hdf5]`.
 *
 * A file with a global problem (M v = H r + f, u = Hᵀ v + w) is solved in that form when the
 * solver's type has one (FcContactSolverHasGlobal: sap, by its primal Newton in v,
 * src/contact/solvers/sap/global.c, doc/sap.md "Global form"); every other solver, and any solver on a
 * local file, solves the local reformulation W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w
 * (FcGlobalProblemComputeLocal, src/contact). -fc_fclib_form local|global forces one (global: a
 * solver with a global form and a global file only). In either form the printed error is the
 * common error of r on the local reformulation, as for every solver. */
#include "fclib_cmd.h"
#include "../core/fsutil.h"
#include "../contact/solver.h"
#include "../contact/solver_spec.h"
#include "../io/fclib_io.h"
#include <string.h>

typedef enum { FC_FCLIB_FORM_AUTO, FC_FCLIB_FORM_LOCAL, FC_FCLIB_FORM_GLOBAL } FcFCLIBForm;

/* -fc_fclib_form local|global (auto when absent). */
static PetscErrorCode GetForm_Private(FcFCLIBForm *form)
{
  char      buf[64];
  PetscBool set;

  PetscFunctionBegin;
  *form = FC_FCLIB_FORM_AUTO;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-fc_fclib_form", buf, sizeof buf, &set));
  if (!set) PetscFunctionReturn(0);
  if (!strcmp(buf, "local")) *form = FC_FCLIB_FORM_LOCAL;
  else if (!strcmp(buf, "global")) *form = FC_FCLIB_FORM_GLOBAL;
  else return FcInputError("command line", "-fc_fclib_form", "'%s': expected local or global", buf);
  PetscFunctionReturn(0);
}

/* The tail of a result line, in parentheses (empty when there is nothing to say): for a
 * regularized type whether the requested tol was met by the common error and, when not, why not
 * (its regularization, from the type's summary) and whether the answer was accepted; for another
 * type with a summary (auto: which part did the work) that summary. */
static void ResultTail_Private(FcContactSolver s, const FcContactSolverStats *st, char *buf, size_t len)
{
  FcContactSolverParams par;
  PetscBool             reg = PETSC_FALSE;
  char                  sum[256];
  size_t                k = 0;

  buf[0] = 0;
  (void)FcContactSolverGetParams(s, &par);
  (void)FcContactSolverIsRegularized(s, &reg);
  (void)FcContactSolverGetSummary(s, sum, sizeof sum);
  if (reg &&
    (st->reason == FC_CONTACT_SOLVER_CONVERGED_TOL || st->reason == FC_CONTACT_SOLVER_CONVERGED_REGULARIZED ||
      st->reason == FC_CONTACT_SOLVER_DIVERGED_REGULARIZED)) {
    if (st->reason == FC_CONTACT_SOLVER_CONVERGED_TOL) k = (size_t)snprintf(buf, len, " (tol %g met", (double)par.tol);
    else if (st->reason == FC_CONTACT_SOLVER_CONVERGED_REGULARIZED)
      k = (size_t)snprintf(buf, len, " (tol %g not met, accepted up to %g (accept_regularized)", (double)par.tol, (double)par.accept_regularized);
    else if (par.accept_regularized > 0)
      k = (size_t)snprintf(buf, len, " (tol %g not met, nor the accepted %g", (double)par.tol, (double)par.accept_regularized);
    else k = (size_t)snprintf(buf, len, " (tol %g not met; --accept-regularized accepts up to %g", (double)par.tol, FC_CONTACT_SOLVER_ACCEPT_REGULARIZED);
    if (k < len && sum[0]) k += (size_t)snprintf(buf + k, len - k, "; %s", sum);
    if (k < len) snprintf(buf + k, len - k, ")");
  } else if (sum[0]) snprintf(buf, len, " (%s)", sum);
}

/* --accept-regularized with no regularized solver to accept anything of: one input-error line. */
static PetscErrorCode CheckAccept_Private(PetscBool accept, PetscBool regularized, const char *types)
{
  PetscFunctionBegin;
  if (accept && !regularized)
    return FcInputError(
      "command line", "--accept-regularized", "%s: not a regularized solver (only sap is; the others converge when their common error is <= --tol)", types);
  PetscFunctionReturn(0);
}

/* The one symmetry rule (problem.h, FC_CONTACT_ASYM_ROUNDOFF) for a solver that needs W = Wᵀ: a
 * local W asymmetric beyond a producer's round-off is an input error naming the largest asymmetry,
 * before anything is solved; within it *asym is the relative asymmetry (0: symmetric), for the one
 * warning line (the object solves (W + Wᵀ)/2 and judges the answer on W, solver.c). Which types
 * need it: sap minimizes the convex cost ½ rᵀ W r + ... whose gradient is W r only when W = Wᵀ
 * (castro2022). nsgs, pgs and uzawa_local/global update u with the column W_{:,a} (the transposed
 * blocks when W is not symmetric, problem.h), newton forms its Jacobian from the rows of W, lemke
 * solves the general LCP, auto is nsgs and newton: none of them assumes W = Wᵀ, and they solve W as
 * given. */
static PetscErrorCode CheckSymmetric_Private(const char *file, FcContactSolver s, FcContactProblem p, PetscReal *asym_rel)
{
  PetscReal   asym, wmax;
  PetscInt    i, j;
  PetscBool   needs;
  const char *type;

  PetscFunctionBegin;
  *asym_rel = 0;
  PetscCall(FcContactSolverNeedsSymmetric(s, &needs));
  if (!needs || FcContactProblemIsSymmetric(p)) PetscFunctionReturn(0);
  PetscCall(FcContactSolverGetType(s, &type));
  FcContactProblemAsymmetry(p, &asym, &wmax, &i, &j);
  if (asym > FC_CONTACT_ASYM_ROUNDOFF * wmax)
    return FcInputError(file, "/fclib_local/W",
      "not symmetric: |W_ij - W_ji| = %.3g at (i, j) = (%" PetscInt_FMT ", %" PetscInt_FMT
      "), %.2g of max|W| = %.3g, beyond the %g of a producer's round-off (solver %s needs W = W^T)",
      (double)asym, i, j, (double)(asym / wmax), (double)wmax, FC_CONTACT_ASYM_ROUNDOFF, type);
  *asym_rel = wmax > 0 ? asym / wmax : 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode WarnSymmetrized_Private(const char *file, const char *type, PetscReal asym)
{
  PetscFunctionBegin;
  if (asym > 0)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
      "%s: /fclib_local/W: warning: symmetric only to %.2g of max|W| (within the %g of a producer's round-off): %s solves (W + W^T)/2; the common error is that of W as the file states it\n",
      file, (double)asym, FC_CONTACT_ASYM_ROUNDOFF, type));
  PetscFunctionReturn(0);
}

/* The global form of the solver's type on gp. *p: the local reformulation for the common error,
 * or NULL when M is not symmetric positive definite (the type then forms it with the M it used). */
static PetscErrorCode SolveGlobal_Private(
  const FcFCLIBSolveOptions *o, FcContactSolver s, FcGlobalProblem gp, FcContactProblem *p, PetscReal **r, FcContactSolverStats *st)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(3 * gp->m, r));
  PetscCall(FcContactSolverSolveGlobal(s, gp, p, *r, NULL)); /* input error: M indefinite */
  PetscCall(FcContactSolverGetStats(s, st));
  {
    char tail[512];
    ResultTail_Private(s, st, tail, sizeof tail);
    printf("%s: contacts %d iterations %d error %.6e own_residual %.6e time %.6e s %s (global form: n %d, setup %.3e s)%s\n", o->file, (int)gp->m,
      (int)st->iterations, (double)st->error, (double)st->own_residual, (double)st->time, st->reason_name, (int)gp->n, (double)st->time_setup, tail);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBSolve(const FcFCLIBSolveOptions *o, PetscBool *converged)
{
  FcContactProblem      p  = NULL;
  FcGlobalProblem       gp = NULL;
  FcContactSolver       s  = NULL;
  FcContactSolverStats  st;
  FcContactSolverParams par;
  FcGlobalMass          mass;
  char                  tname[FC_NAME_LEN];
  PetscReal            *r = NULL, asym = 0;
  PetscInt              m;
  FcFCLIBForm           form;
  const char           *type;
  PetscBool             global = PETSC_FALSE, reg = PETSC_FALSE;
  PetscErrorCode        ierr;

  PetscFunctionBegin;
  *converged = PETSC_FALSE;
  /* before anything is read or solved: the output file may be written, and replaces nothing
   * of the user's without --overwrite */
  if (o->out) PetscCall(FcOutFileCheck(o->out, "command line", "-o", o->overwrite));
  PetscCall(GetForm_Private(&form));
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(FcContactSolverCreate(&s));
  /* an unknown solver name is an input error: free what exists before returning it */
  ierr = FcContactSolverSetType(s, o->solver ? o->solver : "nsgs");
  if (!ierr) ierr = FcContactSolverSetTolerances(s, o->tol, o->max_it);
  if (!ierr && o->accept_regularized) ierr = FcContactSolverSetAcceptRegularized(s, FC_CONTACT_SOLVER_ACCEPT_REGULARIZED);
  if (!ierr) ierr = FcContactSolverSetFromOptions(s); /* -fc_contact_solver_type may name sap */
  if (!ierr) ierr = FcContactSolverGetType(s, &type);
  if (!ierr) ierr = FcContactSolverIsRegularized(s, &reg);
  if (!ierr) ierr = CheckAccept_Private(o->accept_regularized, reg, type);
  if (!ierr) ierr = FcContactSolverHasGlobal(s, &global);
  /* the message names sap, today's only type with a global form (the tests compare it) */
  if (!ierr && form == FC_FCLIB_FORM_GLOBAL && !global)
    ierr = FcInputError("command line", "-fc_fclib_form", "global: only the sap solver has a global form (solver %s)", type);
  if (!ierr) {
    if (global && form != FC_FCLIB_FORM_LOCAL) {
      ierr = FcFCLIBRead(o->file, &p, &gp); /* gp NULL: a local file */
      if (!ierr && !gp && form == FC_FCLIB_FORM_GLOBAL) ierr = FcInputError(o->file, "-fc_fclib_form", "global: the file has no /fclib_global problem");
      /* an M that is singular or indefinite leaves p NULL: the solver's global form may
       * regularize it, and forms the reformulation with what it used; an M symmetric only to
       * round-off gives the reformulation as stated (the type symmetrizes its own copy and warns);
       * beyond that, M is refused for every solver */
      if (!ierr && gp) ierr = FcGlobalProblemComputeLocal(gp, &p, &mass);
      if (!ierr && gp && mass.status == FC_GLOBAL_MASS_NOT_SYMMETRIC)
        ierr = FcInputError(o->file, "/fclib_global/M",
          "not symmetric: max |M_ij - M_ji| = %.3g of max|M|, beyond the %g of a producer's round-off (FCLIB's M is symmetric positive definite)",
          (double)mass.asym, FC_CONTACT_ASYM_ROUNDOFF);
    } else ierr = FcFCLIBReadProblem(o->file, &p);
  }
  if (!ierr && !gp) ierr = CheckSymmetric_Private(o->file, s, p, &asym);
  if (ierr) {
    PetscCall(FcContactSolverDestroy(&s));
    PetscCall(FcContactProblemDestroy(&p));
    PetscCall(FcGlobalProblemDestroy(&gp));
    return ierr;
  }
  PetscCall(PetscStrncpy(tname, type, sizeof tname));
  if (gp) {
    ierr = SolveGlobal_Private(o, s, gp, &p, &r, &st);
    if (!ierr) ierr = FcContactSolverGetParams(s, &par);
    PetscCall(FcGlobalProblemDestroy(&gp));
    PetscCall(FcContactSolverDestroy(&s));
    if (ierr) {
      PetscCall(FcContactProblemDestroy(&p));
      PetscCall(PetscFree(r));
      return ierr;
    }
  } else {
    char tail[512];
    m = p->m;
    PetscCall(PetscCalloc1(3 * m + 1, &r));
    PetscCall(FcContactSolverSolve(s, p, r));
    PetscCall(FcContactSolverGetStats(s, &st));
    ResultTail_Private(s, &st, tail, sizeof tail);
    /* a regularized type (sap) converges by its own optimality test: show that residual too */
    if (!PetscIsInfOrNanReal(st.own_residual))
      printf("%s: contacts %d iterations %d error %.6e own_residual %.6e time %.6e s %s%s\n", o->file, (int)m, (int)st.iterations, (double)st.error,
        (double)st.own_residual, (double)st.time, st.reason_name, tail);
    else
      printf("%s: contacts %d iterations %d error %.6e time %.6e s %s%s\n", o->file, (int)m, (int)st.iterations, (double)st.error, (double)st.time,
        st.reason_name, tail);
    PetscCall(FcContactSolverGetParams(s, &par));
    PetscCall(FcContactSolverDestroy(&s));
  }
  *converged = st.converged;
  if (o->out) {
    FcFCLIBInfo info = {o->file, "fcsim fclib solve", NULL};
    PetscCall(FcFCLIBWriteSolution(o->out, p, &info, r, NULL));
  }
  /* once the command has succeeded, so that a failure is still one line on stderr */
  PetscCall(WarnSymmetrized_Private(o->file, tname, asym));
  /* the result line is on stdout; a failure (exit 1) also says so on stderr, in one line */
  if (!*converged)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: fclib solve: %s: %s did not converge: common error %.3e, tol %g, after %d iterations (%s)\n",
      o->file, tname, (double)st.error, (double)par.tol, (int)st.iterations, st.reason_name));
  PetscCall(PetscFree(r));
  PetscCall(FcContactProblemDestroy(&p));
  PetscFunctionReturn(0);
}

typedef struct {
  char           solver[FC_NAME_LEN]; /* as given, e.g. "lemke:k=8" */
  PetscInt       m, iterations;
  PetscReal      error, time, own_residual; /* own_residual: NaN unless the type is regularized (sap) */
  PetscBool      converged;
  PetscReal     *r;
  PetscErrorCode failed;    /* the type refused this problem (e.g. lemke's size limit) */
  const char    *reason;    /* the reason's name (static) */
  PetscReal      asym;      /* a type that needs W = Wᵀ solved (W + Wᵀ)/2 of this relative asymmetry (0: W as given) */
  char           tail[512]; /* ResultTail_Private: tol met or not, regularization, who did the work */
} CompareRow;

/* Solve one problem with one "type[:key=value[:key=value]]" spec. The options are set for
 * this solve only and removed afterwards, so one spec does not leak into the next. */
static PetscErrorCode CompareSolve_Private(const char *file, FcContactProblem p, const char *spec, const FcFCLIBCompareOptions *o, CompareRow *row)
{
  FcSolverSpec         spec_;
  const char          *type;
  FcContactSolver      s;
  FcContactSolverStats st;
  PetscErrorCode       ierr;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(row->solver, spec, sizeof row->solver));
  PetscCall(FcSolverSpecParse(spec, "command line", "--solvers", &spec_));
  type = spec_.type;
  PetscCall(FcSolverSpecSetOptions(&spec_));
  PetscCall(FcContactSolverCreate(&s));
  ierr = FcContactSolverSetType(s, type);
  if (!ierr) ierr = FcContactSolverSetTolerances(s, o->tol, o->max_it);
  if (!ierr && o->accept_regularized) ierr = FcContactSolverSetAcceptRegularized(s, FC_CONTACT_SOLVER_ACCEPT_REGULARIZED);
  if (!ierr) ierr = FcContactSolverSetFromOptions(s);
  if (!ierr) {
    row->m = p->m;
    ierr   = PetscCalloc1(3 * p->m + 1, &row->r);
  }
  if (!ierr) {
    /* the symmetry rule (CheckSymmetric_Private) as a row: a W beyond round-off is refused by a
     * type that needs symmetry, within it the type solves (W + Wᵀ)/2 (counted for one warning) */
    PetscBool needs = PETSC_FALSE;
    PetscCall(FcContactSolverNeedsSymmetric(s, &needs));
    if (needs && !FcContactProblemIsSymmetric(p)) {
      PetscReal asym, wmax;
      PetscInt  i, j;
      FcContactProblemAsymmetry(p, &asym, &wmax, &i, &j);
      row->asym = wmax > 0 ? asym / wmax : 0;
      if (asym > FC_CONTACT_ASYM_ROUNDOFF * wmax) {
        fprintf(stderr,
          "fcsim: fclib compare: %s refused the problem (%s: /fclib_local/W: not symmetric: %.2g of max|W|, beyond the %g of a producer's round-off)\n", spec,
          file, (double)row->asym, FC_CONTACT_ASYM_ROUNDOFF);
        row->failed = FC_ERR_INPUT;
        row->asym   = 0;
      }
    }
  }
  if (!ierr && !row->failed) {
    /* a type may refuse a problem (lemke above its size limit): that is a row of the table,
     * not the end of the comparison; its message goes to stderr */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    row->failed = FcContactSolverSolve(s, p, row->r);
    PetscCall(PetscPopErrorHandler());
    if (row->failed) {
      const char *text = NULL;
      (void)PetscErrorMessage(row->failed, &text, NULL);
      fprintf(stderr, "fcsim: fclib compare: %s refused the problem (%s)\n", spec, text ? text : "error");
      PetscCall(PetscArrayzero(row->r, 3 * p->m));
    } else {
      ierr = FcContactSolverGetStats(s, &st);
      ResultTail_Private(s, &st, row->tail, sizeof row->tail);
    }
  }
  /* the check of the options (the empty problem, before anything is printed): every key is one
   * the type read */
  if (!ierr && p->m == 0) ierr = FcSolverSpecCheckUsed(&spec_, spec, "command line", "--solvers", NULL);
  PetscCall(FcSolverSpecClearOptions(&spec_));
  PetscCall(FcContactSolverDestroy(&s));
  if (ierr) return ierr;
  if (row->failed) {
    row->iterations   = 0;
    row->error        = PETSC_INFINITY;
    row->time         = 0;
    row->converged    = PETSC_FALSE;
    row->own_residual = (PetscReal)NAN;
    row->reason       = "REFUSED";
    PetscFunctionReturn(0);
  }
  row->reason       = st.reason_name;
  row->iterations   = st.iterations;
  row->error        = st.error;
  row->time         = st.time;
  row->converged    = st.converged;
  row->own_residual = st.own_residual;
  PetscFunctionReturn(0);
}

/* One file's rows of fclib compare: each solver's line and δ%, the distance of its r to the
 * reference, the converged solution with the smallest common error (duriez2006 eq. 26). */
static PetscErrorCode PrintRows_Private(const char *file, const char *fmt, FcContactProblem p, const CompareRow *rows, PetscInt nsolvers)
{
  PetscInt ref = -1;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nsolvers; k++)
    if (rows[k].converged && (ref < 0 || rows[k].error < rows[ref].error)) ref = k;
  for (PetscInt k = 0; k < nsolvers; k++) {
    PetscReal d = -1, nr = 0, nd = 0;
    if (ref >= 0) {
      for (PetscInt i = 0; i < 3 * p->m; i++) {
        nr += rows[ref].r[i] * rows[ref].r[i];
        nd += (rows[k].r[i] - rows[ref].r[i]) * (rows[k].r[i] - rows[ref].r[i]);
      }
      d = nr > 0 ? 100 * PetscSqrtReal(nd / nr) : (nd > 0 ? PETSC_INFINITY : 0);
    }
    if (rows[k].failed) {
      if (!strcmp(fmt, "csv")) printf("%s,%s,%d,,,,0,,,REFUSED,\n", file, rows[k].solver, (int)p->m);
      else if (!strcmp(fmt, "markdown")) printf("| %s | %s | %d | - | refused | - | no | - |\n", file, rows[k].solver, (int)p->m);
      else printf("%-40s %-16s %8d %10s %12s %12s %9s %10s\n", file, rows[k].solver, (int)p->m, "-", "refused", "-", "no", "-");
      continue;
    }
    if (!strcmp(fmt, "csv")) {
      /* the note (ResultTail_Private without its parentheses), quoted: it may hold commas */
      char   note[512];
      size_t nl = 0;
      for (const char *c = rows[k].tail[0] ? rows[k].tail + 2 : ""; *c && nl + 2 < sizeof note; c++) note[nl++] = *c == '"' ? '\'' : *c;
      if (nl && note[nl - 1] == ')') nl--;
      note[nl] = 0;
      printf("%s,%s,%d,%d,%.6e,%.6e,%d,%.6e,%.6e,%s,\"%s\"\n", file, rows[k].solver, (int)rows[k].m, (int)rows[k].iterations, (double)rows[k].error,
        (double)rows[k].time, (int)rows[k].converged, (double)d, (double)rows[k].own_residual, rows[k].reason, note);
    } else if (!strcmp(fmt, "markdown"))
      printf("| %s | %s | %d | %d | %.3e | %.3e | %s | %.3g |\n", file, rows[k].solver, (int)rows[k].m, (int)rows[k].iterations, (double)rows[k].error,
        (double)rows[k].time, rows[k].converged ? "yes" : "no", (double)d);
    else
      printf("%-40s %-16s %8d %10d %12.4e %12.4e %9s %10.3g\n", file, rows[k].solver, (int)rows[k].m, (int)rows[k].iterations, (double)rows[k].error,
        (double)rows[k].time, rows[k].converged ? "yes" : "no", (double)d);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcFCLIBCompare(const FcFCLIBCompareOptions *o, PetscBool *ok)
{
  char        list[4096], *tok, *save = NULL;
  const char *fmt      = o->format ? o->format : "table";
  PetscInt    nsolvers = 0, nfailed = 0, nsolves = 0, nsym = 0;
  PetscReal   amax   = 0;
  PetscBool   anyreg = PETSC_FALSE;
  char        specs[32][FC_NAME_LEN];

  PetscFunctionBegin;
  *ok = PETSC_FALSE;
  FcCheckInput(
    !strcmp(fmt, "table") || !strcmp(fmt, "csv") || !strcmp(fmt, "markdown"), "command line", "--format", "'%s': expected table, csv or markdown", fmt);
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(PetscStrncpy(list, o->solvers ? o->solvers : "nsgs", sizeof list));
  for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    FcCheckInput(nsolvers < 32, "command line", "--solvers", "at most 32 solvers");
    PetscCall(PetscStrncpy(specs[nsolvers++], tok, FC_NAME_LEN));
  }
  /* every solver name is checked before anything is printed */
  for (PetscInt k = 0; k < nsolvers; k++) {
    char t[FC_NAME_LEN], *colon;
    PetscCall(PetscStrncpy(t, specs[k], sizeof t));
    if ((colon = strchr(t, ':'))) *colon = 0;
    PetscCall(FcContactSolverCheckType(t));
    if (o->accept_regularized) {
      FcContactSolver s;
      PetscBool       reg;
      PetscCall(FcContactSolverCreate(&s));
      PetscCall(FcContactSolverSetType(s, t));
      PetscCall(FcContactSolverIsRegularized(s, &reg));
      PetscCall(FcContactSolverDestroy(&s));
      anyreg = (PetscBool)(anyreg || reg);
    }
  }
  PetscCall(CheckAccept_Private(o->accept_regularized, anyreg, o->solvers ? o->solvers : "nsgs"));
  { /* every spec's options too (a bad value, an unknown auto option: one input-error line), by a
     * solve of the empty problem, before anything is printed */
    FcContactProblem e;
    PetscCall(FcContactProblemCreate(0, &e));
    for (PetscInt k = 0; k < nsolvers; k++) {
      CompareRow     row;
      PetscErrorCode ierr;
      PetscCall(PetscMemzero(&row, sizeof row));
      ierr = CompareSolve_Private("(options)", e, specs[k], o, &row);
      PetscCall(PetscFree(row.r));
      if (ierr) {
        PetscCall(FcContactProblemDestroy(&e));
        return ierr;
      }
    }
    PetscCall(FcContactProblemDestroy(&e));
  }
  if (!strcmp(fmt, "csv")) printf("problem,solver,contacts,iterations,error,time,converged,delta_percent,own_residual,reason,note\n");
  else if (!strcmp(fmt, "markdown"))
    printf("| problem | solver | contacts | iterations | common error | time [s] | converged | δ%% |\n|---|---|---|---|---|---|---|---|\n");
  else printf("%-40s %-16s %8s %10s %12s %12s %9s %10s\n", "problem", "solver", "contacts", "iterations", "error", "time[s]", "converged", "delta%");
  for (PetscInt f = 0; f < o->nfiles; f++) {
    FcContactProblem p;
    CompareRow      *rows;
    PetscErrorCode   ierr = 0;

    PetscCall(FcFCLIBReadProblem(o->files[f], &p));
    PetscCall(PetscCalloc1(nsolvers, &rows));
    for (PetscInt k = 0; k < nsolvers && !ierr; k++) ierr = CompareSolve_Private(o->files[f], p, specs[k], o, &rows[k]);
    if (!ierr) {
      PetscBool sym = PETSC_FALSE;
      for (PetscInt k = 0; k < nsolvers; k++) {
        nsolves++;
        if (rows[k].failed || !rows[k].converged) nfailed++;
        if (rows[k].asym > 0) sym = PETSC_TRUE;
        amax = PetscMax(amax, rows[k].asym);
      }
      nsym += sym;
      PetscCall(PrintRows_Private(o->files[f], fmt, p, rows, nsolvers));
    }
    for (PetscInt k = 0; k < nsolvers; k++) PetscCall(PetscFree(rows[k].r));
    PetscCall(PetscFree(rows));
    PetscCall(FcContactProblemDestroy(&p));
    if (ierr) return ierr;
  }
  /* one warning line for the whole table: the problems whose W a type that needs symmetry solved
   * symmetrized (CheckSymmetric_Private, solver.c); the error is still W's */
  {
    if (nsym)
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
        "fcsim: warning: fclib compare: %d problem(s) have a W symmetric only to round-off (up to %.2g of max|W|, within %g): the solvers that need W = W^T solved (W + W^T)/2 there; every common error is that of W as the file states it\n",
        (int)nsym, (double)amax, FC_CONTACT_ASYM_ROUNDOFF));
  }
  /* the table is complete either way; a solver that failed makes the command fail, so a script
   * comparing solvers cannot mistake a failed solve for a result */
  if (nfailed)
    PetscCall(
      PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: fclib compare: %d of %d solves did not converge (column converged)\n", (int)nfailed, (int)nsolves));
  *ok = nfailed ? PETSC_FALSE : PETSC_TRUE;
  PetscFunctionReturn(0);
}
