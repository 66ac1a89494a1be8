/* fcsim — case files: FcCaseLoad reads the file, applies --set, validates the tree against the
 * schema (case_schema.c, case_check.c, case_refs.c) and fills the typed FcCase (case_fill.c);
 * FcCaseDestroy frees it; the case's "petsc" options go into PETSc's database. */
#include "case_util.h"
#include "json.h"
#include <string.h>

/* Whether the member path keys[0].keys[1]... is in the tree as given (before defaults). */
static PetscBool Given_Private(const cJSON *root, const char *const keys[])
{
  const cJSON *item = root;
  for (PetscInt i = 0; keys[i] && item; i++) item = cJSON_IsObject(item) ? cJSON_GetObjectItemCaseSensitive(item, keys[i]) : NULL;
  return item ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode Load_Private(const char *file, PetscInt nsets, const char *const *sets, FcCase *c, cJSON **root)
{
  FcCaseBodyEntries be  = {0, NULL, NULL};
  FcSchemaCtx       ctx = {file, &be};
  char             *text;
  PetscErrorCode    rc;

  PetscFunctionBegin;
  PetscCall(FcJsonReadFile(file, root));
  PetscCall(FcJsonCheckDuplicates(file, *root, "", ""));
  if (!cJSON_IsObject(*root)) return FcInputError(file, NULL, "the top level must be a JSON object, got %s", FcSchemaTypeName(*root));
  for (PetscInt i = 0; i < nsets; i++) PetscCall(FcJsonApplySet(file, *root, sets[i]));
  {
    /* read before the validator inserts the defaults, after which nothing tells them apart */
    static const char *const tol[] = {"contact_solver", "tol", NULL}, *const warm[] = {"contact_solver", "warm_start", NULL},
                             *const inertia[] = {"time", "newton", "inertia_correction", NULL};
    static const char *const maxit[] = {"contact_solver", "max_it", NULL}, *const accept[] = {"contact_solver", "accept_regularized", NULL};
    c->given.contact_solver_max_it             = Given_Private(*root, maxit);
    c->given.contact_solver_accept_regularized = Given_Private(*root, accept);
    c->given.contact_solver_tol                = Given_Private(*root, tol);
    c->given.contact_solver_warm_start         = Given_Private(*root, warm);
    c->given.inertia_correction                = Given_Private(*root, inertia);
  }
  rc = FcSchemaValidateObject(&ctx, &FcCaseRootObject, *root, "");
  if (!rc) rc = FcCaseFill(&ctx, *root, c);
  if (!rc) rc = FcCaseCheckFilled(c);
  PetscCall(PetscFree2(be.entry, be.expanded));
  PetscCall(rc);
  PetscCheck((text = cJSON_Print(*root)), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory printing the resolved case");
  PetscCall(PetscStrallocpy(text, &c->resolved_json));
  cJSON_free(text);
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseLoad(const char *file, PetscInt nsets, const char *const *sets, FcCase *c)
{
  cJSON         *root = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof *c));
  PetscCall(FcCaseMaterialSchema());
  if (strlen(file) >= sizeof c->file) return FcInputError(file, NULL, "file name too long (more than %zu characters)", sizeof c->file - 1);
  PetscCall(PetscStrncpy(c->file, file, sizeof c->file));
  /* One exit for every error path: the tree and a half-filled case are freed here. */
  FcJsonHooksPush();
  ierr = Load_Private(file, nsets, sets, c, &root);
  cJSON_Delete(root);
  FcJsonHooksPop();
  if (ierr) {
    PetscCall(FcCaseDestroy(c));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseDestroy(FcCase *c)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; c->bodies && i < c->nbodies; i++) {
    FcCaseBody *b = &c->bodies[i];
    for (PetscInt j = 0; b->boundary && j < b->nboundary; j++) { PetscCall(FcDriverDestroy(&b->boundary[j].u)); }
    for (PetscInt j = 0; b->loads && j < b->nloads; j++) PetscCall(FcRampDestroy(&b->loads[j].ramp));
    PetscCall(PetscFree(b->boundary));
    PetscCall(PetscFree(b->loads));
    PetscCall(FcDriverDestroy(&b->motion.translation));
    PetscCall(FcDriverDestroy(&b->motion.angle));
    PetscCall(FcRampDestroy(&b->motion.force_ramp));
  }
  PetscCall(PetscFree(c->bodies));
  PetscCall(PetscFree(c->probes));
  PetscCall(FcDriverDestroy(&c->gravity));
  for (PetscInt e = 0; c->centry && e < c->nentries; e++) {
    PetscCall(PetscFree2(c->centry[e].ga, c->centry[e].gb));
    PetscCall(PetscFree(c->centry[e].start));
  }
  PetscCall(PetscFree(c->centry));
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscCall(PetscFree(c->petsc_keys[i]));
    PetscCall(PetscFree(c->petsc_values[i]));
  }
  /* A failure while filling the options can leave one key without its value. */
  if (c->petsc_keys && c->petsc_keys[c->npetsc]) PetscCall(PetscFree(c->petsc_keys[c->npetsc]));
  PetscCall(PetscFree(c->petsc_keys));
  PetscCall(PetscFree(c->petsc_values));
  PetscCall(PetscFree(c->petsc_view));
  PetscCall(PetscFree(c->description));
  PetscCall(PetscFree(c->resolved_json));
  PetscCall(PetscMemzero(c, sizeof *c));
  PetscFunctionReturn(0);
}

/* The case's "petsc" object goes into the options database unless the command line (or an
 * earlier insertion of the same case) set the same option, so the command line wins. */
PetscErrorCode FcCaseInsertOptions(const FcCase *c)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscBool set;
    if (c->petsc_view[i]) continue; /* FcCaseInsertViewOptions, by the run */
    /* not PetscOptionsHasName: it would mark the command line's option used (fc.h) */
    PetscCall(FcOptionsHas(c->petsc_keys[i], &set));
    if (!set) {
      char path[FC_PATH_LEN];
      PetscCall(PetscOptionsSetValue(NULL, c->petsc_keys[i], c->petsc_values[i][0] ? c->petsc_values[i] : NULL));
      FcSchemaPathKey(path, sizeof path, "petsc", c->petsc_keys[i] + 1);
      FcOptionSourceAdd(c->file, c->petsc_keys[i], path);
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseInsertViewOptions(const FcCase *c, const char *dir, PetscBool *inserted)
{
  char value[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscBool set;
    inserted[i] = PETSC_FALSE;
    if (!c->petsc_view[i]) continue;
    PetscCall(FcOptionsHas(c->petsc_keys[i], &set));
    if (set) continue; /* the command line's */
    /* type:file:format:mode (PetscOptionsGetViewer): ':' in the folder's name would end the
     * file name early */
    FcCheckInput(!strchr(dir, ':'), c->file, "petsc",
      "%s: the run's folder %s contains ':', which PETSc's viewer syntax cannot name: choose another folder or drop the option", c->petsc_keys[i], dir);
    /* append: each view adds to the file (a view per solve) instead of replacing the last */
    PetscCall(PetscSNPrintf(value, sizeof value, "ascii:%s/petsc/%s.txt:%s:append", dir, c->petsc_keys[i] + 1, c->petsc_values[i]));
    PetscCall(PetscOptionsSetValue(NULL, c->petsc_keys[i], value));
    FcSchemaPathKey(value, sizeof value, "petsc", c->petsc_keys[i] + 1); /* for the warning when no solver reads it */
    FcOptionSourceAdd(c->file, c->petsc_keys[i], value);
    inserted[i] = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseRemoveViewOptions(const FcCase *c, const PetscBool *inserted)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npetsc; i++)
    if (inserted[i]) PetscCall(PetscOptionsClearValue(NULL, c->petsc_keys[i]));
  PetscFunctionReturn(0);
}
