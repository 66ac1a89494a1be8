/* fcsim — the checks across the objects of a case: the bodies an entry stands for
 * (mesh.volumes), unique names, the bodies contacts[] and probes[] name; and the checks of the
 * filled case that need several of its parts at once (FcCaseCheckFilled). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT (compliance.async) */
#include "case_util.h"
#include <sched.h>
#include "../mesh/mesh.h"
#include <stdlib.h>
#include <string.h>

/* Names that identify array elements (body names, probe names) must be unique. Sorted (name,
 * index) pairs, O(n log n): a case may hold a million probes, and comparing every name with every
 * earlier one took minutes. The duplicate reported is the one a scan in document order meets
 * first: the smallest index i whose name an earlier element j has (j the first of those). */
typedef struct {
  const char *name;
  PetscInt    index;
} NameIndex_Private;

static int NameIndexCmp_Private(const void *a, const void *b)
{
  const NameIndex_Private *x = (const NameIndex_Private *)a, *y = (const NameIndex_Private *)b;
  int                      c = strcmp(x->name, y->name);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

static PetscErrorCode UniqueNames_Private(FcSchemaCtx *ctx, cJSON *arr, const char *path, const char *what)
{
  PetscInt           n = 0, i = -1, j = -1;
  cJSON             *a;
  NameIndex_Private *v;
  char               pi[FC_PATH_LEN], sub[FC_PATH_LEN], first[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cJSON_GetArraySize(arr) + 1, &v));
  cJSON_ArrayForEach(a, arr)
  {
    v[n].name  = Get_Private(a, "name")->valuestring;
    v[n].index = n;
    n++;
  }
  qsort(v, (size_t)n, sizeof *v, NameIndexCmp_Private);
  for (PetscInt k = 1; k < n; k++)
    if (!strcmp(v[k].name, v[k - 1].name) && (k < 2 || strcmp(v[k].name, v[k - 2].name)) && (i < 0 || v[k].index < i)) {
      i = v[k].index; /* the second of its group: the first element that repeats this name */
      j = v[k - 1].index;
    }
  if (i >= 0) {
    const char *name = Get_Private(cJSON_GetArrayItem(arr, (int)i), "name")->valuestring;
    PetscCall(PetscFree(v));
    FcSchemaPathIndex(pi, sizeof pi, path, i);
    FcSchemaPathKey(sub, sizeof sub, pi, "name");
    FcSchemaPathIndex(first, sizeof first, path, j);
    return FcInputError(ctx->file, sub, "duplicate %s name \"%s\" (also %s)", what, name, first);
  }
  PetscCall(PetscFree(v));
  PetscFunctionReturn(0);
}


/* bodies[E].key as the case file writes it (case.h). */
void FcCaseBodyPath(const FcCase *c, PetscInt i, const char *key, char *out, size_t len)
{
  const FcCaseBody *b = &c->bodies[i];
  int               n = snprintf(out, len, "bodies[%d]%s%s", (int)b->entry, key && key[0] ? "." : "", key ? key : "");
  if (b->from_volumes && n >= 0 && (size_t)n < len) snprintf(out + n, len - (size_t)n, " (body '%.100s')", b->name);
}

/* Glob-like match of a body or volume name: '*' any run of characters, '?' one character (names
 * are [A-Za-z0-9_.-]+, so neither is ever literal). */
PetscBool FcCaseNameMatch(const char *pattern, const char *name)
{
  const char *star = NULL, *resume = NULL;
  while (*name) {
    if (*pattern == '*') {
      star   = pattern++;
      resume = name;
    } else if (*pattern == '?' || *pattern == *name) {
      pattern++;
      name++;
    } else if (star) {
      pattern = star + 1;
      name    = ++resume;
    } else return PETSC_FALSE;
  }
  while (*pattern == '*') pattern++;
  return *pattern ? PETSC_FALSE : PETSC_TRUE;
}

static PetscBool IsPattern_Private(const char *s)
{
  return strpbrk(s, "*?") ? PETSC_TRUE : PETSC_FALSE;
}

/* bodies[i].mesh.volume / volumes: the physical volumes of the mesh file are listed (once per
 * entry); `volume` must name one with tetrahedra; `volumes` must match at least one, every match
 * must have tetrahedra and a name usable as a body name. On success, *expanded is the array of
 * the bodies the entry stands for (NULL for an entry without volumes). */
static PetscErrorCode VolumesExpand_Private(FcSchemaCtx *ctx, cJSON *body, const char *path, cJSON **expanded)
{
  cJSON      *mesh = Get_Private(body, "mesh"), *vol, *vols, *name = Get_Private(body, "name");
  char        file[PETSC_MAX_PATH_LEN], sub[FC_PATH_LEN], mp[FC_PATH_LEN], shown[256], list[1024] = "";
  char      (*names)[FC_NAME_LEN] = NULL;
  PetscInt    n = 0, *ntets = NULL, nmatch = 0;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *expanded = NULL;
  if (!mesh || IsRigid_Private(body)) {
    if (!name) {
      FcSchemaPathKey(sub, sizeof sub, path, "name");
      return FcInputError(ctx->file, sub, "required key \"name\" is missing");
    }
    PetscFunctionReturn(0);
  }
  vol  = Get_Private(mesh, "volume");
  vols = Get_Private(mesh, "volumes");
  FcSchemaPathKey(mp, sizeof mp, path, "mesh");
  if (!vols && !name) {
    FcSchemaPathKey(sub, sizeof sub, path, "name");
    return FcInputError(ctx->file, sub, "required key \"name\" is missing (only an entry with mesh.volumes takes its bodies' names from the mesh)");
  }
  if (vols && name) {
    FcSchemaPathKey(sub, sizeof sub, path, "name");
    return FcInputError(ctx->file, sub, "not with mesh.volumes: each body of the entry is named after its physical volume");
  }
  if (vol && vols) {
    FcSchemaPathKey(sub, sizeof sub, mp, "volumes");
    return FcInputError(ctx->file, sub, "give at most one of \"volume\" and \"volumes\"");
  }
  if (!vol && !vols) PetscFunctionReturn(0);
  FcSchemaPathKey(sub, sizeof sub, mp, "file");
  PetscCall(FcCaseMeshFileResolve(ctx, Str_Private(mesh, "file"), sub, file, sizeof file));
  PetscCall(FcMeshListVolumes(file, &n, &names, &ntets));
  for (PetscInt v = 0; v < n; v++) {
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s'%s'", l ? ", " : "", names[v]);
  }
  FcSchemaPathKey(sub, sizeof sub, mp, vol ? "volume" : "volumes");
  if (vol) {
    PetscInt v;
    for (v = 0; v < n; v++)
      if (!strcmp(names[v], vol->valuestring)) break;
    if (v == n) rc = FcInputError(ctx->file, sub, "no physical volume '%s' in %s (volumes: %s)", FcSchemaEscape(shown, sizeof shown, vol->valuestring), file, n ? list : "none");
    else if (!ntets[v]) rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s has no tetrahedra", names[v], file);
  } else {
    cJSON *arr = cJSON_CreateArray();
    for (PetscInt v = 0; v < n && !rc; v++) {
      cJSON *b, *m, *it;
      if (!FcCaseNameMatch(vols->valuestring, names[v])) continue;
      nmatch++;
      if (!ntets[v]) {
        rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s has no tetrahedra (an empty volume cannot be a body)", names[v], file);
        break;
      }
      if (!names[v][0] || strspn(names[v], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" NAME_CHARS) != strlen(names[v])) {
        rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s cannot name a body (body names are [A-Za-z0-9_.-]+)", FcSchemaEscape(shown, sizeof shown, names[v]), file);
        break;
      }
      /* the entry with its volume: name first, mesh.volumes replaced by mesh.volume */
      b = cJSON_CreateObject();
      cJSON_AddStringToObject(b, "name", names[v]);
      cJSON_ArrayForEach(it, body)
      {
        if (strcmp(it->string, "mesh")) {
          cJSON_AddItemToObject(b, it->string, cJSON_Duplicate(it, 1));
          continue;
        }
        m = cJSON_CreateObject();
        cJSON *mi;
        cJSON_ArrayForEach(mi, it)
        {
          if (!strcmp(mi->string, "volumes")) cJSON_AddStringToObject(m, "volume", names[v]);
          else cJSON_AddItemToObject(m, mi->string, cJSON_Duplicate(mi, 1));
        }
        cJSON_AddItemToObject(b, "mesh", m);
      }
      cJSON_AddItemToArray(arr, b);
    }
    if (!rc && !nmatch) rc = FcInputError(ctx->file, sub, "the pattern \"%s\" matches no physical volume of %s (volumes: %s)", FcSchemaEscape(shown, sizeof shown, vols->valuestring), file, n ? list : "none");
    if (rc) cJSON_Delete(arr);
    else *expanded = arr;
  }
  PetscCall(PetscFree2(names, ntets));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Entries with mesh.volumes are replaced, in place, by the bodies they stand for; then names
 * must be unique. The array is rebuilt by detaching every entry and appending it (or its bodies)
 * again, in order: cJSON's insertion in the middle of an array is not used (some cJSON versions
 * leave the head's prev link stale after an insertion at index 0). */
PetscErrorCode FcCaseCheckBodies(FcSchemaCtx *ctx, cJSON *arr, const char *path)
{
  PetscInt       i = 0, ngiven = (PetscInt)cJSON_GetArraySize(arr), *count;
  cJSON         *all = cJSON_CreateArray(), *b;
  char           pi[FC_PATH_LEN];
  PetscErrorCode rc = 0;
  FcCaseBodyEntries   *be = (FcCaseBodyEntries *)ctx->user;

  PetscFunctionBegin;
  if (!all) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "cJSON allocation failed");
  PetscCall(PetscCalloc1(ngiven, &count)); /* bodies per entry of the file: 0 for an expanded one */
  while (arr->child) cJSON_AddItemToArray(all, cJSON_DetachItemViaPointer(arr, arr->child));
  while ((b = all->child)) {
    cJSON *expanded = NULL;
    cJSON_DetachItemViaPointer(all, b);
    FcSchemaPathIndex(pi, sizeof pi, path, i);
    if (!rc) rc = VolumesExpand_Private(ctx, b, pi, &expanded);
    if (!expanded) {
      cJSON_AddItemToArray(arr, b); /* on error too: the tree stays whole for the caller to free */
      i++;
      continue;
    }
    count[i] = (PetscInt)cJSON_GetArraySize(expanded);
    while (expanded->child) cJSON_AddItemToArray(arr, cJSON_DetachItemViaPointer(expanded, expanded->child));
    i++;
    cJSON_Delete(expanded);
    cJSON_Delete(b);
  }
  cJSON_Delete(all);
  /* the entry of the file each body comes from, for the paths of later errors (FcCaseBodyPath) */
  if (!rc && be) {
    PetscInt k = 0;
    be->n      = (PetscInt)cJSON_GetArraySize(arr);
    PetscCall(PetscMalloc2(be->n, &be->entry, be->n, &be->expanded));
    for (i = 0; i < ngiven; i++)
      for (PetscInt j = 0; j < PetscMax(count[i], 1); j++, k++) {
        be->entry[k]    = i;
        be->expanded[k] = count[i] ? PETSC_TRUE : PETSC_FALSE;
      }
  }
  PetscCall(PetscFree(count));
  PetscCall(rc);
  PetscCall(UniqueNames_Private(ctx, arr, path, "body"));
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseCheckProbes(FcSchemaCtx *ctx, cJSON *arr, const char *path)
{
  cJSON   *p;
  PetscInt i = 0;
  char     pi[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(UniqueNames_Private(ctx, arr, path, "probe"));
  cJSON_ArrayForEach(p, arr)
  {
    /* run.h5:/probes holds step, time and columns beside one dataset per column
     * (doc/output-format.md): a probe may not take those names */
    const char *name = Get_Private(p, "name")->valuestring;
    if (!strcmp(name, "step") || !strcmp(name, "time") || !strcmp(name, "columns")) {
      char sub[FC_PATH_LEN];
      FcSchemaPathIndex(pi, sizeof pi, path, i);
      FcSchemaPathKey(sub, sizeof sub, pi, "name");
      return FcInputError(ctx->file, sub, "\"%s\" is reserved (run.h5:/probes/%s holds the table's %s): choose another name", name, name, !strcmp(name, "columns") ? "column names" : name);
    }
    if (!strcmp(Get_Private(p, "type")->valuestring, "displacement")) {
      PetscBool point = Get_Private(p, "point") ? PETSC_TRUE : PETSC_FALSE, group = Get_Private(p, "group") ? PETSC_TRUE : PETSC_FALSE;
      FcSchemaPathIndex(pi, sizeof pi, path, i);
      if (point && group) return FcInputError(ctx->file, pi, "a displacement probe takes exactly one of \"point\" and \"group\"");
    }
    i++;
  }
  PetscFunctionReturn(0);
}

/* The element of `bodies` named `name` (and its index), or NULL. */
static cJSON *FindBody_Private(cJSON *bodies, const char *name, PetscInt *index)
{
  cJSON   *b;
  PetscInt i = 0;

  cJSON_ArrayForEach(b, bodies)
  {
    if (!strcmp(Str_Private(b, "name"), name)) {
      if (index) *index = i;
      return b;
    }
    i++;
  }
  return NULL;
}

static PetscErrorCode NoSuchBody_Private(FcSchemaCtx *ctx, cJSON *bodies, const char *name, const char *path)
{
  cJSON *b;
  char   list[1024] = "", shown[256];

  PetscFunctionBegin;
  cJSON_ArrayForEach(b, bodies)
  {
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s\"%s\"", l ? ", " : "", Str_Private(b, "name"));
  }
  return FcInputError(ctx->file, path, "no body named \"%s\" (bodies: %s)", FcSchemaEscape(shown, sizeof shown, name), list);
}


/* The bodies a list of names or patterns stands for (indices into bodies[], in list order, each
 * pattern's matches in body order). A name that is no body, a pattern that matches none, and a
 * body given twice are input errors on `path` (the list). *idx is freed by the caller. */
static PetscErrorCode ContactGroup_Private(FcSchemaCtx *ctx, cJSON *bodies, cJSON *list, PetscInt first, PetscInt count, const char *path, PetscInt *n, PetscInt **idx)
{
  const PetscInt nb = (PetscInt)cJSON_GetArraySize(bodies);
  PetscInt      *by;   /* per body: the list element that gave it, or -1 */
  PetscInt       k = 0;
  cJSON         *it;
  char           shown[256], shown2[256], sub[FC_PATH_LEN];
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(PetscMalloc1(nb + 1, idx));
  PetscCall(PetscMalloc1(nb + 1, &by));
  for (PetscInt j = 0; j < nb; j++) by[j] = -1;
  cJSON_ArrayForEach(it, list)
  {
    const char *pat = it->valuestring;
    PetscInt    j = 0, nm = 0;
    cJSON      *b;
    if (k < first || k >= first + count) {
      k++;
      continue;
    }
    /* errors name the list (contacts[i].pair or .bodies), as a missing body always did */
    snprintf(sub, sizeof sub, "%s", path);
    if (!IsPattern_Private(pat)) {
      PetscInt bi = -1;
      if (!FindBody_Private(bodies, pat, &bi)) {
        rc = NoSuchBody_Private(ctx, bodies, pat, sub);
        break;
      }
      if (by[bi] >= 0) {
        rc = FcInputError(ctx->file, sub, "body \"%s\" is listed twice (also by \"%s\")", pat, FcSchemaEscape(shown, sizeof shown, cJSON_GetArrayItem(list, (int)by[bi])->valuestring));
        break;
      }
      by[bi]          = k;
      (*idx)[(*n)++] = bi;
      k++;
      continue;
    }
    cJSON_ArrayForEach(b, bodies)
    {
      if (FcCaseNameMatch(pat, Str_Private(b, "name"))) {
        nm++;
        if (by[j] >= 0) {
          rc = FcInputError(ctx->file, sub, "body \"%s\" is listed twice (by \"%s\" and by \"%s\")", Str_Private(b, "name"), FcSchemaEscape(shown, sizeof shown, cJSON_GetArrayItem(list, (int)by[j])->valuestring), FcSchemaEscape(shown2, sizeof shown2, pat));
          break;
        }
        by[j]          = k;
        (*idx)[(*n)++] = j;
      }
      j++;
    }
    if (rc) break;
    if (!nm) {
      rc = FcInputError(ctx->file, sub, "the pattern \"%s\" matches no body", FcSchemaEscape(shown, sizeof shown, pat));
      break;
    }
    k++;
  }
  PetscCall(PetscFree(by));
  if (rc) PetscCall(PetscFree(*idx));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* The items of a JSON array by index (cJSON_GetArrayItem walks the list: O(i) per call, O(n³)
 * over the n² pairs of n bodies). Freed with PetscFree. */
static PetscErrorCode ArrayItems_Private(cJSON *arr, cJSON ***items)
{
  cJSON   *el;
  PetscInt k = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cJSON_GetArraySize(arr) + 1, items));
  cJSON_ArrayForEach(el, arr)(*items)[k++] = el;
  PetscFunctionReturn(0);
}

/* The body pairs of contacts[i] (`pi` its path): "pair": every body of the first group (the
 * contactors) against every body of the second, the groups disjoint; "bodies": every pair among
 * the group, the deformable body (the earlier one of two deformable bodies) the contactor, pairs
 * of two rigid bodies left out. *pairs holds 2 indices per pair (freed by the caller). */
PetscErrorCode FcCaseContactPairs(FcSchemaCtx *ctx, cJSON *bodies, cJSON *ct, const char *pi, PetscInt *np, PetscInt **pairs)
{
  cJSON   *pair = Get_Private(ct, "pair"), *list = Get_Private(ct, "bodies");
  PetscInt na = 0, nb = 0, *ga = NULL, *gb = NULL;
  char     sub[FC_PATH_LEN];

  PetscFunctionBegin;
  *np    = 0;
  *pairs = NULL;
  if (!pair && !list) {
    FcSchemaPathKey(sub, sizeof sub, pi, "pair");
    return FcInputError(ctx->file, sub, "required key \"pair\" is missing (or \"bodies\", for every pair among a group)");
  }
  if (pair && list) return FcInputError(ctx->file, pi, "give exactly one of \"pair\" (two bodies or groups) and \"bodies\" (every pair among a group)");
  if (pair) {
    FcSchemaPathKey(sub, sizeof sub, pi, "pair");
    PetscCall(ContactGroup_Private(ctx, bodies, pair, 0, 1, sub, &na, &ga));
    {
      PetscErrorCode rc = ContactGroup_Private(ctx, bodies, pair, 1, 1, sub, &nb, &gb);
      if (rc) PetscCall(PetscFree(ga)); /* the second group is refused: the first is ours to free */
      PetscCall(rc);
    }
    for (PetscInt x = 0; x < na; x++)
      for (PetscInt y = 0; y < nb; y++)
        if (ga[x] == gb[y]) {
          const char *name = Str_Private(cJSON_GetArrayItem(bodies, (int)ga[x]), "name");
          PetscCall(PetscFree(ga));
          PetscCall(PetscFree(gb));
          if (IsPattern_Private(cJSON_GetArrayItem(pair, 0)->valuestring) || IsPattern_Private(cJSON_GetArrayItem(pair, 1)->valuestring)) return FcInputError(ctx->file, sub, "body \"%s\" is in both groups (for every pair among a group, write \"bodies\": [...])", name);
          return FcInputError(ctx->file, sub, "the two bodies must differ, got \"%s\" twice", name);
        }
    PetscCall(PetscMalloc1(2 * na * nb + 1, pairs));
    for (PetscInt x = 0; x < na; x++)
      for (PetscInt y = 0; y < nb; y++) {
        (*pairs)[2 * *np]     = ga[x];
        (*pairs)[2 * *np + 1] = gb[y];
        (*np)++;
      }
    PetscCall(PetscFree(ga));
    PetscCall(PetscFree(gb));
  } else {
    FcSchemaPathKey(sub, sizeof sub, pi, "bodies");
    cJSON    **bv;
    PetscBool *rigid;
    PetscCall(ContactGroup_Private(ctx, bodies, list, 0, (PetscInt)cJSON_GetArraySize(list), sub, &na, &ga));
    PetscCall(ArrayItems_Private(bodies, &bv));
    PetscCall(PetscMalloc1(na + 1, &rigid));
    for (PetscInt x = 0; x < na; x++) rigid[x] = IsRigid_Private(bv[ga[x]]);
    PetscCall(PetscFree(bv));
    PetscCall(PetscMalloc1(na * (na - 1) + 1, pairs));
    for (PetscInt x = 0; x < na; x++)
      for (PetscInt y = x + 1; y < na; y++) {
        PetscBool rx = rigid[x], ry = rigid[y];
        if (rx && ry) continue;
        (*pairs)[2 * *np]     = rx ? ga[y] : ga[x];
        (*pairs)[2 * *np + 1] = rx ? ga[x] : ga[y];
        (*np)++;
      }
    PetscCall(PetscFree(rigid));
    PetscCall(PetscFree(ga));
    if (!*np) {
      PetscCall(PetscFree(*pairs));
      return FcInputError(ctx->file, sub, "these bodies make no pair (one body, or only rigid bodies)");
    }
  }
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt64 key;
  PetscInt   entry;
} PairKey_Private;

static int PairKeyCmp_Private(const void *a, const void *b)
{
  const PairKey_Private *x = a, *y = b;
  if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
  return (x->entry > y->entry) - (x->entry < y->entry);
}

/* contacts[i]: every pair names two distinct existing bodies, the first (the contactor, whose
 * surface nodes are the contact points) deformable; target_surface needs a target with
 * physical groups, both_passes a deformable target; no pair of bodies is in two entries with the
 * same surfaces. */
static PetscErrorCode ContactsCheck_Private(FcSchemaCtx *ctx, cJSON *root)
{
  cJSON     *bodies = Get_Private(root, "bodies"), *ct, *b[2], **bv;
  PetscInt   i      = 0, nall = 0, cap = 0;
  PetscInt64 *keys = NULL; /* per pair made so far: (min body, max body), then its entry */
  PetscInt  *entry = NULL;
  char       pi[FC_PATH_LEN], sub[FC_PATH_LEN];
  const PetscInt nb = (PetscInt)cJSON_GetArraySize(bodies);

  PetscFunctionBegin;
  cJSON_ArrayForEach(ct, Get_Private(root, "contacts"))
  {
    cJSON      *ts = Get_Private(ct, "target_surface");
    const char *name[2];
    PetscInt    np, *pairs;

    FcSchemaPathIndex(pi, sizeof pi, "contacts", i);
    FcSchemaPathKey(sub, sizeof sub, pi, Get_Private(ct, "pair") ? "pair" : "bodies");
    PetscCall(FcCaseContactPairs(ctx, bodies, ct, pi, &np, &pairs));
    {
      PetscErrorCode rc = ArrayItems_Private(bodies, &bv);
      if (rc) PetscCall(PetscFree(pairs));
      PetscCall(rc);
    }
    for (PetscInt p = 0; p < np; p++) {
      PetscErrorCode rc = 0;
      for (int k = 0; k < 2; k++) {
        b[k]    = bv[pairs[2 * p + k]];
        name[k] = Str_Private(b[k], "name");
      }
      if (IsRigid_Private(b[0])) {
        if (IsRigid_Private(b[1])) rc = FcInputError(ctx->file, sub, "\"%s\" and \"%s\" are both rigid: at least one body of a pair must be deformable", name[0], name[1]);
        else rc = FcInputError(ctx->file, sub, "the first body is the contactor and must be deformable, but \"%s\" is rigid (write [\"%s\", \"%s\"])", name[0], name[1], name[0]);
      } else if (IsRigid_Private(b[1])) {
        const char *shape = Str_Private(Get_Private(b[1], "shape"), "type");
        if (ts && strcmp(shape, "mesh")) {
          FcSchemaPathKey(sub, sizeof sub, pi, "target_surface");
          rc = FcInputError(ctx->file, sub, "only allowed when the target is deformable or a rigid \"mesh\" shape, but \"%s\" is a rigid \"%s\"", name[1], shape);
        } else if (Bool_Private(ct, "both_passes")) {
          FcSchemaPathKey(sub, sizeof sub, pi, "both_passes");
          rc = FcInputError(ctx->file, sub, "true is only allowed for a pair of deformable bodies, but \"%s\" is rigid", name[1]);
        } else if (!strcmp(Str_Private(ct, "formulation"), "mortar") && strcmp(shape, "mesh")) {
          FcSchemaPathKey(sub, sizeof sub, pi, "formulation");
          rc = FcInputError(ctx->file, sub, "\"mortar\" needs a target surface mesh (a deformable body or a rigid \"mesh\" shape), but \"%s\" is a rigid \"%s\"", name[1], shape);
        }
      }
      if (rc) {
        PetscCall(PetscFree(bv));
        PetscCall(PetscFree(pairs));
        PetscCall(PetscFree2(keys, entry));
        PetscCall(rc);
      }
    }
    PetscCall(PetscFree(bv));
    if (!strcmp(Str_Private(ct, "formulation"), "mortar") && Bool_Private(ct, "both_passes")) {
      PetscCall(PetscFree(pairs));
      PetscCall(PetscFree2(keys, entry));
      FcSchemaPathKey(sub, sizeof sub, pi, "both_passes");
      return FcInputError(ctx->file, sub, "not with the \"mortar\" formulation, whose weights already integrate over both surfaces");
    }
    /* a pair of bodies twice (with the same surfaces) would give every contact twice: W singular */
    if (!Get_Private(ct, "surface") && !ts) {
      if (nall + np > cap) {
        PetscInt64 *nk;
        PetscInt   *ne;
        cap = PetscMax(2 * cap, nall + np);
        PetscCall(PetscMalloc2(cap, &nk, cap, &ne));
        if (nall) {
          PetscCall(PetscArraycpy(nk, keys, nall));
          PetscCall(PetscArraycpy(ne, entry, nall));
        }
        PetscCall(PetscFree2(keys, entry));
        keys  = nk;
        entry = ne;
      }
      for (PetscInt p = 0; p < np; p++) {
        const PetscInt lo = PetscMin(pairs[2 * p], pairs[2 * p + 1]), hi = PetscMax(pairs[2 * p], pairs[2 * p + 1]);
        keys[nall]    = (PetscInt64)lo * nb + hi;
        entry[nall++] = i;
      }
    }
    PetscCall(PetscFree(pairs));
    i++;
  }
  if (nall > 1) {
    PairKey_Private *pk;
    PetscErrorCode   rc = 0;
    PetscCall(PetscMalloc1(nall, &pk));
    for (PetscInt p = 0; p < nall; p++) {
      pk[p].key   = keys[p];
      pk[p].entry = entry[p];
    }
    qsort(pk, (size_t)nall, sizeof *pk, PairKeyCmp_Private);
    for (PetscInt p = 1; p < nall && !rc; p++)
      if (pk[p].key == pk[p - 1].key) {
        const PetscInt e0 = PetscMin(pk[p].entry, pk[p - 1].entry), e1 = PetscMax(pk[p].entry, pk[p - 1].entry);
        const PetscInt lo = (PetscInt)(pk[p].key / nb), hi = (PetscInt)(pk[p].key % nb);
        FcSchemaPathIndex(pi, sizeof pi, "contacts", e1);
        rc = FcInputError(ctx->file, pi, "the pair of \"%s\" and \"%s\" is already in contacts[%" PetscInt_FMT "] (a pair listed twice gives every contact twice)", Str_Private(cJSON_GetArrayItem(bodies, (int)lo), "name"), Str_Private(cJSON_GetArrayItem(bodies, (int)hi), "name"), e0);
      }
    PetscCall(PetscFree(pk));
    PetscCall(PetscFree2(keys, entry));
    PetscCall(rc);
  } else PetscCall(PetscFree2(keys, entry));
  PetscFunctionReturn(0);
}

/* probes[i]: bodies exist (and are deformable for displacement and reaction), contact pairs
 * exist. */
static PetscErrorCode ProbesRefCheck_Private(FcSchemaCtx *ctx, cJSON *root)
{
  cJSON   *bodies = Get_Private(root, "bodies"), *p, *b;
  PetscInt i = 0, ncontacts = (PetscInt)cJSON_GetArraySize(Get_Private(root, "contacts"));
  char     pi[FC_PATH_LEN], sub[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(p, Get_Private(root, "probes"))
  {
    const char *type = Str_Private(p, "type");

    FcSchemaPathIndex(pi, sizeof pi, "probes", i);
    if (!strcmp(type, "contact_force") || !strcmp(type, "active_contacts")) {
      PetscInt pair = (PetscInt)Num_Private(p, "pair");
      FcSchemaPathKey(sub, sizeof sub, pi, "pair");
      if (ncontacts == 0) return FcInputError(ctx->file, sub, "no contact pair %" PetscInt_FMT ": the case has no contacts", pair);
      if (pair >= ncontacts) return FcInputError(ctx->file, sub, "no contact pair %" PetscInt_FMT " (contacts has %" PetscInt_FMT " element%s: indices 0 to %" PetscInt_FMT ")", pair, ncontacts, ncontacts == 1 ? "" : "s", ncontacts - 1);
    } else {
      const char *body = Str_Private(p, "body");
      FcSchemaPathKey(sub, sizeof sub, pi, "body");
      if (!body[0]) {
        i++;
        continue; /* energies: all bodies */
      }
      if (!(b = FindBody_Private(bodies, body, NULL))) return NoSuchBody_Private(ctx, bodies, body, sub);
      if (IsRigid_Private(b) && !strcmp(type, "reaction")) return FcInputError(ctx->file, sub, "body \"%s\" is rigid: a %s probe needs a deformable body", body, type);
      if (!strcmp(type, "displacement")) {
        PetscBool located = (Get_Private(p, "point") || Get_Private(p, "group")) ? PETSC_TRUE : PETSC_FALSE;
        if (IsRigid_Private(b) && located) {
          FcSchemaPathKey(sub, sizeof sub, pi, Get_Private(p, "point") ? "point" : "group");
          return FcInputError(ctx->file, sub, "body \"%s\" is rigid: its displacement probe is the body's translation and takes no \"point\" or \"group\"", body);
        }
        if (!IsRigid_Private(b) && !located) return FcInputError(ctx->file, pi, "a displacement probe takes exactly one of \"point\" and \"group\"");
      }
    }
    i++;
  }
  PetscFunctionReturn(0);
}

/* Cross references, once every member of the root is valid. */
PetscErrorCode FcCaseCheckRoot(FcSchemaCtx *ctx, cJSON *root, const char *path)
{
  PetscFunctionBegin;
  (void)path;
  PetscCall(ContactsCheck_Private(ctx, root));
  PetscCall(ProbesRefCheck_Private(ctx, root));
  PetscFunctionReturn(0);
}


/* ------------------------------------------------------------------------------------------ */
/* The filled case: what needs a body together with the time integration or the compliance.   */
/* ------------------------------------------------------------------------------------------ */

/* kinematics "global_corotational" (duriez2006 §6.2; src/model/body_deformable.c): the split
 * needs K Φ = 0 (a linear material, no constrained DoF) and cM > 0 (dynamics, or a quasi-static
 * Newton shift). */
static PetscErrorCode CorotCheck_Private(const FcCase *c, PetscInt i)
{
  const FcCaseBody *b = &c->bodies[i];
  PetscBool         constrained = b->plane_strain;
  char              path[256];

  PetscFunctionBegin;
  for (PetscInt j = 0; j < b->nboundary; j++)
    for (int k = 0; k < 3; k++) constrained = (PetscBool)(constrained || b->boundary[j].comp[k]);
  FcCaseBodyPath(c, i, "kinematics", path, sizeof path);
  FcCheckInput(!strcmp(b->material.model, "linear"), c->file, path, "\"global_corotational\" needs material model \"linear\" (a linear deformation in the co-rotated frame), not \"%s\"", b->material.model);
  FcCheckInput(!constrained, c->file, path, "\"global_corotational\" needs a free body (no boundary conditions, no plane_strain): its rigid motion is the rigid part of the model");
  /* precomputed would keep the first step's R; schur factors A_pp with no room for the split */
  FcCheckInput(!strcmp(c->compliance_type, "exact"), c->file, path, "\"global_corotational\" needs compliance \"exact\", not \"%s\"", c->compliance_type);
  FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC || c->newton_shift > 0, c->file, path, "\"global_corotational\" quasi-statically needs time.newton.shift > 0 (the rigid part's compliance is 1/(shift A_r))");
  PetscFunctionReturn(0);
}

/* A dynamic rigid body (doc/rigid.md §2): its joint against the integrator, its shape and its
 * initial velocities. */
static PetscErrorCode DynamicBodyCheck_Private(const FcCase *c, PetscInt i)
{
  const FcCaseMotion *mo = &c->bodies[i].motion;
  char                path[256];

  PetscFunctionBegin;
  if (mo->joint == FC_JOINT_FREE) {
    FcCaseBodyPath(c, i, "motion.type", path, sizeof path);
    FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC, c->file, path,
                 "a dynamic rigid body with a free joint needs inertia, but time.integrator is \"quasi_static\": use a dynamic integrator or a kinematic motion");
    FcCaseBodyPath(c, i, "shape.type", path, sizeof path);
    FcCheckInput(c->bodies[i].shape.type != FC_SHAPE_PLANE, c->file, path, "a plane is infinite: it has no centre of mass to rotate about, so it cannot have a free joint (use prismatic or fixed)");
    PetscFunctionReturn(0);
  }
  FcCaseBodyPath(c, i, "motion.initial_angular_velocity", path, sizeof path);
  FcCheckInput(mo->initial_angular_velocity[0] == 0 && mo->initial_angular_velocity[1] == 0 && mo->initial_angular_velocity[2] == 0, c->file, path, "must be [0, 0, 0]: only a free joint rotates");
  if (mo->joint == FC_JOINT_PRISMATIC) {
    PetscReal ve = 0, voff = 0, vn = 0;
    FcCaseBodyPath(c, i, "motion.type", path, sizeof path);
    FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC, c->file, path,
                 "a dynamic rigid body with a prismatic joint needs inertia, but time.integrator is \"quasi_static\" (only contact would balance its force): use a dynamic integrator or a kinematic motion");
    /* the joint allows velocities along its (unit) axis e only */
    for (int k = 0; k < 3; k++) ve += mo->axis[k] * mo->initial_velocity[k];
    for (int k = 0; k < 3; k++) {
      PetscReal o = mo->initial_velocity[k] - ve * mo->axis[k];
      voff += o * o;
      vn += mo->initial_velocity[k] * mo->initial_velocity[k];
    }
    FcCaseBodyPath(c, i, "motion.initial_velocity", path, sizeof path);
    FcCheckInput(voff <= 1e-20 * vn, c->file, path, "must be parallel to the prismatic joint's axis (its component normal to the axis is %g m/s)", (double)PetscSqrtReal(voff));
    PetscFunctionReturn(0);
  }
  /* a fixed joint holds the body where it is */
  FcCaseBodyPath(c, i, "motion.initial_velocity", path, sizeof path);
  FcCheckInput(mo->initial_velocity[0] == 0 && mo->initial_velocity[1] == 0 && mo->initial_velocity[2] == 0, c->file, path, "must be [0, 0, 0] with a fixed joint");
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseCheckFilled(const FcCase *c)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->nbodies; i++) {
    const FcCaseBody *b = &c->bodies[i];
    if (!b->rigid && b->corotational) PetscCall(CorotCheck_Private(c, i));
    if (b->rigid && b->motion.type == FC_MOTION_DYNAMIC) PetscCall(DynamicBodyCheck_Private(c, i));
  }
  if (!strcmp(c->compliance_type, "lagged")) { /* src/compliance/lagged.c factors a deformable body's A */
    PetscBool deformable = PETSC_FALSE;
    for (PetscInt i = 0; i < c->nbodies; i++) deformable = (PetscBool)(deformable || !c->bodies[i].rigid);
    FcCheckInput(deformable, c->file, "compliance.type", "\"lagged\" factors the Newton matrix of a deformable body, and every body here is rigid (a rigid body's compliance is exact: use \"exact\")");
    if (c->compliance_async) { /* a thread that factors while the steps go on needs a CPU of its own and the whole A */
      PetscMPIInt size;
      cpu_set_t   set;
      int         ncpu = 0;
      PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
      FcCheckInput(size == 1, c->file, "compliance.async", "the concurrent refresh factors the whole A in a thread of one process, not on %d MPI ranks: set it false", (int)size);
      if (!sched_getaffinity(0, sizeof set, &set)) ncpu = CPU_COUNT(&set);
      FcCheckInput(ncpu >= 2, c->file, "compliance.async", "the concurrent refresh needs a second CPU, and this process may run on %d (sched_getaffinity): set it false", ncpu);
    }
  }
  PetscFunctionReturn(0);
}
