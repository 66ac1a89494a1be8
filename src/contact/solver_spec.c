/* fcsim — contact-solver variants "type[:key=value]..." (solver_spec.h). Moved here from
 * `fclib compare` (src/fclib/fclib_cmd.c) so that `study compare` parses and checks them the
 * same way. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "solver_spec.h"
#include "solver.h"
#include "problem.h"
#include <string.h>

PetscErrorCode FcSolverSpecParse(const char *spec, const char *where, const char *what, FcSolverSpec *s)
{
  char buf[4 * FC_NAME_LEN], *tok, *save = NULL;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof *s));
  FcCheckInput(strlen(spec) < sizeof buf, where, what, "'%.64s...': too long", spec);
  PetscCall(PetscStrncpy(buf, spec, sizeof buf));
  /* strtok would skip an empty part: "lemke::k=2" and ":k=2" are refused as written */
  FcCheckInput(spec[0] && spec[0] != ':' && !strstr(spec, "::") && spec[strlen(spec) - 1] != ':', where, what,
    "'%s': an empty part; a solver is written type[:key=value]..., e.g. lemke:k=16", spec);
  tok = strtok_r(buf, ":", &save);
  FcCheckInput(strlen(tok) < FC_NAME_LEN, where, what, "'%s': solver name too long", spec);
  PetscCall(PetscStrncpy(s->type, tok, sizeof s->type));
  while ((tok = strtok_r(NULL, ":", &save))) {
    char *eq = strchr(tok, '=');
    FcCheckInput(eq && eq != tok && eq[1], where, what, "'%s': options are written type:key=value (found '%s')", spec, tok);
    *eq = 0;
    FcCheckInput(s->nkeys < FC_SOLVER_SPEC_MAX_KEYS, where, what, "'%s': at most %d options per solver", spec, FC_SOLVER_SPEC_MAX_KEYS);
    FcCheckInput(strlen(tok) < FC_NAME_LEN && strlen(eq + 1) < FC_NAME_LEN, where, what, "'%s': option '%s' too long", spec, tok);
    for (PetscInt k = 0; k < s->nkeys; k++) FcCheckInput(strcmp(s->key[k], tok), where, what, "'%s': option '%s' given twice", spec, tok);
    for (const char *c = tok; *c; c++)
      FcCheckInput(
        (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_', where, what, "'%s': option name '%s' is not a word of [a-z0-9_]", spec, tok);
    PetscCall(PetscStrncpy(s->key[s->nkeys], tok, FC_NAME_LEN));
    PetscCall(PetscStrncpy(s->value[s->nkeys], eq + 1, FC_NAME_LEN));
    /* "lemke:k=8" → -fc_contact_solver_lemke_k 8; "uzawa_global:uzawa_rho_local=true" →
     * -fc_contact_solver_uzawa_rho_local true: both spellings are set, the type reads its own */
    PetscCall(PetscSNPrintf(s->option[s->nkeys][0], sizeof s->option[0][0], "-fc_contact_solver_%s_%s", s->type, tok));
    PetscCall(PetscSNPrintf(s->option[s->nkeys][1], sizeof s->option[0][1], "-fc_contact_solver_%s", tok));
    s->nkeys++;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcSolverSpecSetOptions(const FcSolverSpec *s)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < s->nkeys; k++)
    for (int w = 0; w < 2; w++) PetscCall(PetscOptionsSetValue(NULL, s->option[k][w], s->value[k]));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSolverSpecClearOptions(const FcSolverSpec *s)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < s->nkeys; k++)
    for (int w = 0; w < 2; w++) PetscCall(PetscOptionsClearValue(NULL, s->option[k][w]));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSolverSpecCheckUsed(const FcSolverSpec *s, const char *spec, const char *where, const char *what, PetscInt which[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < s->nkeys; k++) {
    PetscBool used[2];
    for (int w = 0; w < 2; w++) PetscCall(PetscOptionsUsed(NULL, s->option[k][w] + 1, &used[w])); /* the name without its dash */
    FcCheckInput(used[0] || used[1], where, what, "'%s': %s has no option '%s' (neither %s nor %s is read; see doc/contact.md for the options of each solver)",
      spec, s->type, s->key[k], s->option[k][0], s->option[k][1]);
    if (which) which[k] = used[0] ? 0 : 1;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcSolverSpecCheck(const char *spec, const char *where, const char *what, FcSolverSpec *s, PetscInt which[])
{
  FcContactSolver  sv = NULL;
  FcContactProblem e  = NULL;
  PetscReal        r[1];
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  PetscCall(FcSolverSpecParse(spec, where, what, s));
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(FcContactSolverCheckType(s->type));
  PetscCall(FcSolverSpecSetOptions(s));
  /* a bad value is reported by the type when it reads its options (one line, "options: ..."),
   * some only when it solves: the empty problem reads them all */
  ierr = FcContactSolverCreate(&sv);
  if (!ierr) ierr = FcContactSolverSetType(sv, s->type);
  if (!ierr) ierr = FcContactSolverSetFromOptions(sv);
  if (!ierr) ierr = FcContactProblemCreate(0, &e);
  if (!ierr) ierr = FcContactSolverSolve(sv, e, r);
  if (!ierr) ierr = FcSolverSpecCheckUsed(s, spec, where, what, which);
  PetscCall(FcSolverSpecClearOptions(s));
  PetscCall(FcContactProblemDestroy(&e));
  PetscCall(FcContactSolverDestroy(&sv));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}
