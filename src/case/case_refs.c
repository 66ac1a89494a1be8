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

static PetscBool IsPattern_Private(const char *s) { return strpbrk(s, "*?") ? PETSC_TRUE : PETSC_FALSE; }

/* bodies[i].mesh.volume / volumes: the physical volumes of the mesh file are listed (once per
 * entry); `volume` must name one with tetrahedra; `volumes` must match at least one, every match
 * must have tetrahedra and a name usable as a body name. On success, *expanded is the array of
 * the bodies the entry stands for (NULL for an entry without volumes). */
static PetscErrorCode VolumesExpand_Private(FcSchemaCtx *ctx, cJSON *body, const char *path, cJSON **expanded)
{
  cJSON *mesh = Get_Private(body, "mesh"), *vol, *vols, *name = Get_Private(body, "name");
  char   file[PETSC_MAX_PATH_LEN], sub[FC_PATH_LEN], mp[FC_PATH_LEN], shown[256], list[1024] = "";
  char(*names)[FC_NAME_LEN] = NULL;
  PetscInt       n = 0, *ntets = NULL, nmatch = 0;
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
    if (v == n)
      rc = FcInputError(
        ctx->file, sub, "no physical volume '%s' in %s (volumes: %s)", FcSchemaEscape(shown, sizeof shown, vol->valuestring), file, n ? list : "none");
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
        rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s cannot name a body (body names are [A-Za-z0-9_.-]+)",
          FcSchemaEscape(shown, sizeof shown, names[v]), file);
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
    if (!rc && !nmatch)
      rc = FcInputError(ctx->file, sub, "the pattern \"%s\" matches no physical volume of %s (volumes: %s)",
        FcSchemaEscape(shown, sizeof shown, vols->valuestring), file, n ? list : "none");
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
  PetscInt           i = 0, ngiven = (PetscInt)cJSON_GetArraySize(arr), *count;
  cJSON             *all = cJSON_CreateArray(), *b;
  char               pi[FC_PATH_LEN];
  PetscErrorCode     rc = 0;
  FcCaseBodyEntries *be = (FcCaseBodyEntries *)ctx->user;

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
      return FcInputError(ctx->file, sub, "\"%s\" is reserved (run.h5:/probes/%s holds the table's %s): choose another name", name, name,
        !strcmp(name, "columns") ? "column names" : name);
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
static PetscErrorCode ContactGroup_Private(
  FcSchemaCtx *ctx, cJSON *bodies, cJSON *list, PetscInt first, PetscInt count, const char *path, PetscInt *n, PetscInt **idx)
{
  const PetscInt nb = (PetscInt)cJSON_GetArraySize(bodies);
  PetscInt      *by; /* per body: the list element that gave it, or -1 */
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
        rc = FcInputError(ctx->file, sub, "body \"%s\" is listed twice (also by \"%s\")", pat,
          FcSchemaEscape(shown, sizeof shown, cJSON_GetArrayItem(list, (int)by[bi])->valuestring));
        break;
      }
      by[bi]         = k;
      (*idx)[(*n)++] = bi;
      k++;
      continue;
    }
    cJSON_ArrayForEach(b, bodies)
    {
      if (FcCaseNameMatch(pat, Str_Private(b, "name"))) {
        nm++;
        if (by[j] >= 0) {
          rc = FcInputError(ctx->file, sub, "body \"%s\" is listed twice (by \"%s\" and by \"%s\")", Str_Private(b, "name"),
            FcSchemaEscape(shown, sizeof shown, cJSON_GetArrayItem(list, (int)by[j])->valuestring), FcSchemaEscape(shown2, sizeof shown2, pat));
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
 * of two rigid bodies left out. *pairs holds 2 indices per pair (freed by the caller); pairs NULL:
 * the checks and the count *np only (a group of n bodies has n(n − 1)/2 pairs). */
PetscErrorCode FcCaseContactPairs(FcSchemaCtx *ctx, cJSON *bodies, cJSON *ct, const char *pi, PetscInt *np, PetscInt **pairs)
{
  cJSON   *pair = Get_Private(ct, "pair"), *list = Get_Private(ct, "bodies");
  PetscInt na = 0, nb = 0, *ga = NULL, *gb = NULL;
  char     sub[FC_PATH_LEN];

  PetscFunctionBegin;
  *np = 0;
  if (pairs) *pairs = NULL;
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
    { /* the groups disjoint: the first body of ga (in its order) that is in gb */
      PetscBool *ing;
      PetscInt   both = -1;
      PetscCall(PetscCalloc1(cJSON_GetArraySize(bodies) + 1, &ing));
      for (PetscInt y = 0; y < nb; y++) ing[gb[y]] = PETSC_TRUE;
      for (PetscInt x = 0; x < na && both < 0; x++)
        if (ing[ga[x]]) both = ga[x];
      PetscCall(PetscFree(ing));
      if (both >= 0) {
        const char *name = Str_Private(cJSON_GetArrayItem(bodies, (int)both), "name");
        PetscCall(PetscFree(ga));
        PetscCall(PetscFree(gb));
        if (IsPattern_Private(cJSON_GetArrayItem(pair, 0)->valuestring) || IsPattern_Private(cJSON_GetArrayItem(pair, 1)->valuestring))
          return FcInputError(ctx->file, sub, "body \"%s\" is in both groups (for every pair among a group, write \"bodies\": [...])", name);
        return FcInputError(ctx->file, sub, "the two bodies must differ, got \"%s\" twice", name);
      }
    }
    if (!pairs) { /* the count only */
      *np = na * nb;
      PetscCall(PetscFree(ga));
      PetscCall(PetscFree(gb));
      PetscFunctionReturn(0);
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
    if (!pairs) { /* the count only: every pair but those of two rigid bodies */
      PetscInt nr = 0;
      for (PetscInt x = 0; x < na; x++) nr += rigid[x];
      *np = na * (na - 1) / 2 - nr * (nr - 1) / 2;
      PetscCall(PetscFree(rigid));
      PetscCall(PetscFree(ga));
      if (!*np) return FcInputError(ctx->file, sub, "these bodies make no pair (one body, or only rigid bodies)");
      PetscFunctionReturn(0);
    }
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

/* The groups of contacts[i] (already checked by FcCaseContactPairs): "pair": ga the contactors,
 * gb the targets; "bodies": ga the group and nb = 0. Freed by the caller. Lets a contact pair be
 * found from its two bodies without a list of every pair (src/model/contact_pairs.c). */
PetscErrorCode FcCaseContactGroups(FcSchemaCtx *ctx, cJSON *bodies, cJSON *ct, const char *pi, PetscInt *na, PetscInt **ga, PetscInt *nb, PetscInt **gb)
{
  cJSON *pair = Get_Private(ct, "pair"), *list = Get_Private(ct, "bodies");
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  *nb = 0;
  *gb = NULL;
  FcSchemaPathKey(sub, sizeof sub, pi, pair ? "pair" : "bodies");
  if (!pair) PetscCall(ContactGroup_Private(ctx, bodies, list, 0, (PetscInt)cJSON_GetArraySize(list), sub, na, ga));
  else {
    PetscErrorCode rc;
    PetscCall(ContactGroup_Private(ctx, bodies, pair, 0, 1, sub, na, ga));
    rc = ContactGroup_Private(ctx, bodies, pair, 1, 1, sub, nb, gb);
    if (rc) PetscCall(PetscFree(*ga));
    PetscCall(rc);
  }
  PetscFunctionReturn(0);
}

/* The check of one pair (b0 the contactor, b1 the target) of contacts[i] (`pi`, `sub` the path of
 * its list): the contactor deformable; a rigid target only with what it allows. */
static PetscErrorCode PairCheck_Private(FcSchemaCtx *ctx, cJSON *ct, const char *pi, char *sub, cJSON *b0, cJSON *b1)
{
  const char *name[2] = {Str_Private(b0, "name"), Str_Private(b1, "name")};

  PetscFunctionBegin;
  if (IsRigid_Private(b0)) {
    if (IsRigid_Private(b1))
      return FcInputError(ctx->file, sub, "\"%s\" and \"%s\" are both rigid: at least one body of a pair must be deformable", name[0], name[1]);
    return FcInputError(
      ctx->file, sub, "the first body is the contactor and must be deformable, but \"%s\" is rigid (write [\"%s\", \"%s\"])", name[0], name[1], name[0]);
  } else if (IsRigid_Private(b1)) {
    const char *shape = Str_Private(Get_Private(b1, "shape"), "type");
    if (Get_Private(ct, "target_surface") && strcmp(shape, "mesh")) {
      FcSchemaPathKey(sub, FC_PATH_LEN, pi, "target_surface");
      return FcInputError(ctx->file, sub, "only allowed when the target is deformable or a rigid \"mesh\" shape, but \"%s\" is a rigid \"%s\"", name[1], shape);
    } else if (Bool_Private(ct, "both_passes")) {
      FcSchemaPathKey(sub, FC_PATH_LEN, pi, "both_passes");
      return FcInputError(ctx->file, sub, "true is only allowed for a pair of deformable bodies, but \"%s\" is rigid", name[1]);
    } else if (!strcmp(Str_Private(ct, "formulation"), "mortar") && strcmp(shape, "mesh")) {
      FcSchemaPathKey(sub, FC_PATH_LEN, pi, "formulation");
      return FcInputError(
        ctx->file, sub, "\"mortar\" needs a target surface mesh (a deformable body or a rigid \"mesh\" shape), but \"%s\" is a rigid \"%s\"", name[1], shape);
    }
  }
  PetscFunctionReturn(0);
}

/* A rigid target PairCheck_Private refuses for contacts[] entry ct. */
static PetscBool BadTarget_Private(cJSON *ct, cJSON *b)
{
  const char *shape;
  if (!IsRigid_Private(b)) return PETSC_FALSE;
  shape = Str_Private(Get_Private(b, "shape"), "type");
  return (PetscBool)((Get_Private(ct, "target_surface") && strcmp(shape, "mesh")) || Bool_Private(ct, "both_passes") ||
    (!strcmp(Str_Private(ct, "formulation"), "mortar") && strcmp(shape, "mesh")));
}

/* The first pair of contacts[i] (in the order of FcCaseContactPairs) that PairCheck_Private
 * refuses, found from the groups in O(na + nb) rather than by a check of every pair (a group of n
 * bodies has n(n − 1)/2): the check depends only on whether the contactor is rigid and the target
 * refused. *c = -1 when every pair passes. */
static PetscErrorCode FirstBadPair_Private(cJSON *ct, cJSON **bv, PetscInt na, const PetscInt *ga, PetscInt nb, const PetscInt *gb, PetscInt *c, PetscInt *t)
{
  PetscFunctionBegin;
  *c = *t = -1;
  if (nb) { /* "pair": x-major; (x, y) fails when ga[x] is rigid or gb[y] refused */
    PetscInt x0 = -1, fy = -1;
    for (PetscInt x = 0; x < na && x0 < 0; x++)
      if (IsRigid_Private(bv[ga[x]])) x0 = x;
    for (PetscInt y = 0; y < nb && fy < 0; y++)
      if (BadTarget_Private(ct, bv[gb[y]])) fy = y;
    if (x0 == 0 || (x0 > 0 && fy < 0)) {
      *c = ga[x0];
      *t = gb[0];
    } else if (fy >= 0) {
      *c = ga[0];
      *t = gb[fy];
    }
  } else {                 /* "bodies": (x, y), x < y, not both rigid; the target is the rigid one, else ga[y] */
    PetscInt *nbad, *ndef; /* the first refused (deformable) body after x, -1 */
    PetscCall(PetscMalloc2(na + 1, &nbad, na + 1, &ndef));
    nbad[na - 1] = ndef[na - 1] = -1;
    for (PetscInt x = na - 2; x >= 0; x--) {
      nbad[x] = BadTarget_Private(ct, bv[ga[x + 1]]) ? x + 1 : nbad[x + 1];
      ndef[x] = !IsRigid_Private(bv[ga[x + 1]]) ? x + 1 : ndef[x + 1];
    }
    for (PetscInt x = 0; x < na - 1 && *c < 0; x++) {
      if (!IsRigid_Private(bv[ga[x]]) && nbad[x] >= 0) {
        *c = ga[x];
        *t = ga[nbad[x]];
      } else if (BadTarget_Private(ct, bv[ga[x]]) && ndef[x] >= 0) {
        *c = ga[ndef[x]];
        *t = ga[x];
      }
    }
    PetscCall(PetscFree2(nbad, ndef));
  }
  PetscFunctionReturn(0);
}

/* Whether entries E and F (groups as FcCaseContactGroups gives them, `in` a scratch array of
 * nbodies zeros) have a pair of bodies in common, in O(na + nb) per entry: a pair of "bodies" is
 * any two of its group but two rigid ones; of "pair" one body of each group. */
static PetscBool Shared_Private(cJSON **bv, PetscInt *in, const PetscInt *E, const PetscInt *F)
{
  /* E, F: {na, nb, ga..., gb...}; in[b] |= 1 (E's ga), 2 (E's gb) */
  const PetscInt  ena = E[0], enb = E[1], fna = F[0], fnb = F[1];
  const PetscInt *ega = E + 2, *egb = ega + ena, *fga = F + 2, *fgb = fga + fna;
  PetscBool       hit = PETSC_FALSE;

  for (PetscInt x = 0; x < ena; x++) in[ega[x]] = 1;
  for (PetscInt y = 0; y < enb; y++) in[egb[y]] = 2;
  if (!enb && !fnb) { /* two groups: two common bodies, not both rigid */
    PetscInt n = 0, def = 0;
    for (PetscInt x = 0; x < fna; x++)
      if (in[fga[x]]) {
        n++;
        def += !IsRigid_Private(bv[fga[x]]);
      }
    hit = (PetscBool)(n >= 2 && def >= 1);
  } else if (!enb || !fnb) { /* a group G and a pair (A, B): a ∈ A ∩ G, b ∈ B ∩ G, not both rigid */
    const PetscInt *A = enb ? ega : fga, *B = enb ? egb : fgb, na = enb ? ena : fna, nb = enb ? enb : fnb;
    const PetscInt *G = enb ? fga : ega, ng = enb ? fna : ena;
    PetscBool       ar = PETSC_FALSE, ad = PETSC_FALSE, br = PETSC_FALSE, bd = PETSC_FALSE;
    for (PetscInt x = 0; x < ena; x++) in[ega[x]] = 0;
    for (PetscInt y = 0; y < enb; y++) in[egb[y]] = 0;
    for (PetscInt k = 0; k < ng; k++) in[G[k]] = 1;
    for (PetscInt x = 0; x < na; x++)
      if (in[A[x]]) *(IsRigid_Private(bv[A[x]]) ? &ar : &ad) = PETSC_TRUE;
    for (PetscInt y = 0; y < nb; y++)
      if (in[B[y]]) *(IsRigid_Private(bv[B[y]]) ? &br : &bd) = PETSC_TRUE;
    for (PetscInt k = 0; k < ng; k++) in[G[k]] = 0;
    return (PetscBool)((ad && (br || bd)) || (ar && bd));
  } else { /* two pairs: (a, b) in both, either way round */
    PetscBool aa = PETSC_FALSE, bb = PETSC_FALSE, ab = PETSC_FALSE, ba = PETSC_FALSE;
    for (PetscInt x = 0; x < fna; x++) {
      aa = (PetscBool)(aa || in[fga[x]] == 1);
      ba = (PetscBool)(ba || in[fga[x]] == 2);
    }
    for (PetscInt y = 0; y < fnb; y++) {
      bb = (PetscBool)(bb || in[fgb[y]] == 2);
      ab = (PetscBool)(ab || in[fgb[y]] == 1);
    }
    hit = (PetscBool)((aa && bb) || (ab && ba));
  }
  for (PetscInt x = 0; x < ena; x++) in[ega[x]] = 0;
  for (PetscInt y = 0; y < enb; y++) in[egb[y]] = 0;
  return hit;
}

/* The old search for a pair of bodies in two entries (same surfaces), run only when Shared_Private
 * found one, so that the message names the same pair: every pair's key, sorted. */
static PetscErrorCode DuplicateError_Private(FcSchemaCtx *ctx, cJSON *root)
{
  cJSON           *bodies = Get_Private(root, "bodies"), *ct;
  const PetscInt   nb     = (PetscInt)cJSON_GetArraySize(bodies);
  PetscInt         i = 0, nall = 0, cap = 0;
  PairKey_Private *pk = NULL;
  char             pi[FC_PATH_LEN];
  PetscErrorCode   rc = 0;

  PetscFunctionBegin;
  cJSON_ArrayForEach(ct, Get_Private(root, "contacts"))
  {
    PetscInt np, *pairs;
    FcSchemaPathIndex(pi, sizeof pi, "contacts", i);
    if (!Get_Private(ct, "surface") && !Get_Private(ct, "target_surface")) {
      PetscCall(FcCaseContactPairs(ctx, bodies, ct, pi, &np, &pairs));
      if (nall + np > cap) {
        PairKey_Private *n2;
        cap = PetscMax(2 * cap, nall + np);
        PetscCall(PetscMalloc1(cap, &n2));
        if (nall) PetscCall(PetscArraycpy(n2, pk, nall));
        PetscCall(PetscFree(pk));
        pk = n2;
      }
      for (PetscInt p = 0; p < np; p++) {
        pk[nall].key     = (PetscInt64)PetscMin(pairs[2 * p], pairs[2 * p + 1]) * nb + PetscMax(pairs[2 * p], pairs[2 * p + 1]);
        pk[nall++].entry = i;
      }
      PetscCall(PetscFree(pairs));
    }
    i++;
  }
  qsort(pk, (size_t)nall, sizeof *pk, PairKeyCmp_Private);
  for (PetscInt p = 1; p < nall && !rc; p++)
    if (pk[p].key == pk[p - 1].key) {
      const PetscInt e0 = PetscMin(pk[p].entry, pk[p - 1].entry), e1 = PetscMax(pk[p].entry, pk[p - 1].entry);
      const PetscInt lo = (PetscInt)(pk[p].key / nb), hi = (PetscInt)(pk[p].key % nb);
      FcSchemaPathIndex(pi, sizeof pi, "contacts", e1);
      rc = FcInputError(ctx->file, pi,
        "the pair of \"%s\" and \"%s\" is already in contacts[%" PetscInt_FMT "] (a pair listed twice gives every contact twice)",
        Str_Private(cJSON_GetArrayItem(bodies, (int)lo), "name"), Str_Private(cJSON_GetArrayItem(bodies, (int)hi), "name"), e0);
    }
  PetscCall(PetscFree(pk));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* contacts[i]: every pair names two distinct existing bodies, the first (the contactor, whose
 * surface nodes are the contact points) deformable; target_surface needs a target with
 * physical groups, both_passes a deformable target; no pair of bodies is in two entries with the
 * same surfaces. Every check works on the entries' groups, never on a list of their pairs (a
 * group of n bodies stands for n(n − 1)/2 pairs: issue 29); each error is the one the first
 * refused pair, in pair order, gives. */
static PetscErrorCode ContactsCheck_Private(FcSchemaCtx *ctx, cJSON *root)
{
  cJSON         *bodies = Get_Private(root, "bodies"), *ct, **bv;
  const PetscInt nb = (PetscInt)cJSON_GetArraySize(bodies), ne = (PetscInt)cJSON_GetArraySize(Get_Private(root, "contacts"));
  PetscInt       i = 0, **groups, *in;
  char           pi[FC_PATH_LEN], sub[FC_PATH_LEN];
  PetscErrorCode rc  = 0;
  PetscBool      dup = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(ArrayItems_Private(bodies, &bv));
  PetscCall(PetscCalloc1(ne + 1, &groups)); /* per entry without surfaces: {na, nb, ga, gb} */
  cJSON_ArrayForEach(ct, Get_Private(root, "contacts"))
  {
    PetscInt np, na = 0, ngb = 0, *ga = NULL, *gb = NULL, c, t;
    FcSchemaPathIndex(pi, sizeof pi, "contacts", i);
    FcSchemaPathKey(sub, sizeof sub, pi, Get_Private(ct, "pair") ? "pair" : "bodies");
    rc = FcCaseContactPairs(ctx, bodies, ct, pi, &np, NULL);
    if (!rc) rc = FcCaseContactGroups(ctx, bodies, ct, pi, &na, &ga, &ngb, &gb);
    if (!rc) rc = FirstBadPair_Private(ct, bv, na, ga, ngb, gb, &c, &t);
    if (!rc && c >= 0) rc = PairCheck_Private(ctx, ct, pi, sub, bv[c], bv[t]);
    if (!rc && !strcmp(Str_Private(ct, "formulation"), "mortar") && Bool_Private(ct, "both_passes")) {
      FcSchemaPathKey(sub, sizeof sub, pi, "both_passes");
      rc = FcInputError(ctx->file, sub, "not with the \"mortar\" formulation, whose weights already integrate over both surfaces");
    }
    if (!rc && !Get_Private(ct, "surface") && !Get_Private(ct, "target_surface")) {
      rc = PetscMalloc1(2 + na + ngb, &groups[i]);
      if (!rc) {
        groups[i][0] = na;
        groups[i][1] = ngb;
        for (PetscInt x = 0; x < na; x++) groups[i][2 + x] = ga[x];
        for (PetscInt y = 0; y < ngb; y++) groups[i][2 + na + y] = gb[y];
      }
    }
    PetscCall(PetscFree(ga));
    PetscCall(PetscFree(gb));
    if (rc) break;
    i++;
  }
  /* a pair of bodies twice (with the same surfaces) would give every contact twice: W singular */
  if (!rc) rc = PetscCalloc1(nb + 1, &in);
  for (PetscInt e = 0; !rc && e < ne && !dup; e++)
    for (PetscInt f = e + 1; groups[e] && f < ne && !dup; f++)
      if (groups[f]) dup = Shared_Private(bv, in, groups[e], groups[f]);
  if (!rc) PetscCall(PetscFree(in));
  for (PetscInt e = 0; e < ne; e++) PetscCall(PetscFree(groups[e]));
  PetscCall(PetscFree(groups));
  PetscCall(PetscFree(bv));
  PetscCall(rc);
  if (dup) PetscCall(DuplicateError_Private(ctx, root));
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
      if (pair >= ncontacts)
        return FcInputError(ctx->file, sub, "no contact pair %" PetscInt_FMT " (contacts has %" PetscInt_FMT " element%s: indices 0 to %" PetscInt_FMT ")",
          pair, ncontacts, ncontacts == 1 ? "" : "s", ncontacts - 1);
    } else {
      const char *body = Str_Private(p, "body");
      FcSchemaPathKey(sub, sizeof sub, pi, "body");
      if (!body[0]) {
        i++;
        continue; /* energies: all bodies */
      }
      if (!(b = FindBody_Private(bodies, body, NULL))) return NoSuchBody_Private(ctx, bodies, body, sub);
      if (IsRigid_Private(b) && !strcmp(type, "reaction"))
        return FcInputError(ctx->file, sub, "body \"%s\" is rigid: a %s probe needs a deformable body", body, type);
      if (!strcmp(type, "displacement")) {
        PetscBool located = (Get_Private(p, "point") || Get_Private(p, "group")) ? PETSC_TRUE : PETSC_FALSE;
        if (IsRigid_Private(b) && located) {
          FcSchemaPathKey(sub, sizeof sub, pi, Get_Private(p, "point") ? "point" : "group");
          return FcInputError(
            ctx->file, sub, "body \"%s\" is rigid: its displacement probe is the body's translation and takes no \"point\" or \"group\"", body);
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
 * Newton shift). That it also needs a compliance applying the current A is the compliance's
 * check, on its `current` capability (src/compliance/compliance.c): the case stands below the
 * compliance strategies and does not know them. */
static PetscErrorCode CorotCheck_Private(const FcCase *c, PetscInt i)
{
  const FcCaseBody      *b = &c->bodies[i];
  const FcMaterialModel *model;
  PetscBool              constrained = b->plane_strain;
  char                   path[256];

  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  model = FcMaterialModelFind(b->material.model);
  for (PetscInt j = 0; j < b->nboundary; j++)
    for (int k = 0; k < 3; k++) constrained = (PetscBool)(constrained || b->boundary[j].comp[k]);
  FcCaseBodyPath(c, i, "kinematics", path, sizeof path);
  FcCheckInput(model && model->linear, c->file, path,
    "\"global_corotational\" needs material model \"linear\" (a linear deformation in the co-rotated frame), not \"%s\"", b->material.model);
  FcCheckInput(!constrained, c->file, path,
    "\"global_corotational\" needs a free body (no boundary conditions, no plane_strain): its rigid motion is the rigid part of the model");
  FcCheckInput(c->integrator != FC_INTEGRATOR_QUASI_STATIC || c->newton_shift > 0, c->file, path,
    "\"global_corotational\" quasi-statically needs time.newton.shift > 0 (the rigid part's compliance is 1/(shift A_r))");
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
    FcCheckInput(c->bodies[i].shape.type != FC_SHAPE_PLANE, c->file, path,
      "a plane is infinite: it has no centre of mass to rotate about, so it cannot have a free joint (use prismatic or fixed)");
    PetscFunctionReturn(0);
  }
  FcCaseBodyPath(c, i, "motion.initial_angular_velocity", path, sizeof path);
  FcCheckInput(mo->initial_angular_velocity[0] == 0 && mo->initial_angular_velocity[1] == 0 && mo->initial_angular_velocity[2] == 0, c->file, path,
    "must be [0, 0, 0]: only a free joint rotates");
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
    FcCheckInput(voff <= 1e-20 * vn, c->file, path, "must be parallel to the prismatic joint's axis (its component normal to the axis is %g m/s)",
      (double)PetscSqrtReal(voff));
    PetscFunctionReturn(0);
  }
  /* a fixed joint holds the body where it is */
  FcCaseBodyPath(c, i, "motion.initial_velocity", path, sizeof path);
  FcCheckInput(
    mo->initial_velocity[0] == 0 && mo->initial_velocity[1] == 0 && mo->initial_velocity[2] == 0, c->file, path, "must be [0, 0, 0] with a fixed joint");
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
  /* compliance.async (a lagged key: the schema refuses it with another type; that lagged needs a
   * deformable body is the strategy's own registered capability, FcComplianceCheckCase) */
  if (c->compliance_async) { /* a thread that factors while the steps go on needs a CPU of its own and the whole A */
    PetscMPIInt size;
    cpu_set_t   set;
    int         ncpu = 0;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    FcCheckInput(size == 1, c->file, "compliance.async",
      "the concurrent refresh factors the whole A in a thread of one process, not on %d MPI ranks: set it false", (int)size);
    if (!sched_getaffinity(0, sizeof set, &set)) ncpu = CPU_COUNT(&set);
    FcCheckInput(ncpu >= 2, c->file, "compliance.async",
      "the concurrent refresh needs a second CPU, and this process may run on %d (sched_getaffinity): set it false", ncpu);
  }
  PetscFunctionReturn(0);
}
