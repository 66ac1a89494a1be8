/* fcsim — JSON plumbing for the case module: file reading, duplicate keys, --set. */
#include "json.h"
#include "schema.h"
#include "../core/fsutil.h"
#include <errno.h>
#include <string.h>

static PetscBool json_oom = PETSC_FALSE; /* an allocation failed under the PETSc hooks */

static void *JsonMalloc_Private(size_t n)
{
  void *p = NULL;

  if (PetscMallocA(1, PETSC_FALSE, __LINE__, PETSC_FUNCTION_NAME, __FILE__, n, &p)) {
    json_oom = PETSC_TRUE;
    return NULL;
  }
  return p;
}

static void JsonFree_Private(void *p) { (void)PetscFree(p); }

void FcJsonHooksPush(void)
{
  cJSON_Hooks hooks = {JsonMalloc_Private, JsonFree_Private};

  json_oom = PETSC_FALSE;
  cJSON_InitHooks(&hooks);
}

void FcJsonHooksPop(void) { cJSON_InitHooks(NULL); }

/* Whole file into a NUL-terminated PetscMalloc'd buffer. Only a regular file is read
 * (FcInputFileOpen: a FIFO or a device would block or never end); the buffer grows as the
 * file is read, so a file that grows meanwhile is still read whole. */
static PetscErrorCode ReadAll_Private(const char *file, char **buf, size_t *n)
{
  FILE  *f;
  size_t cap = 1 << 16, len = 0, got;
  char  *b, *nb;
  int    err;

  PetscFunctionBegin;
  *buf = NULL;
  *n   = 0;
  PetscCall(FcInputFileOpen(file, file, NULL, &f, NULL));
  PetscCall(PetscMalloc1(cap, &b));
  for (;;) {
    got = fread(b + len, 1, cap - 1 - len, f);
    len += got;
    if (len < cap - 1) break;
    PetscCall(PetscMalloc1(2 * cap, &nb));
    PetscCall(PetscMemcpy(nb, b, len));
    PetscCall(PetscFree(b));
    b = nb;
    cap *= 2;
  }
  err = ferror(f) ? errno : 0;
  fclose(f);
  if (err) {
    PetscCall(PetscFree(b));
    return FcInputError(file, NULL, "cannot read: %s", strerror(err));
  }
  b[len] = 0;
  *buf   = b;
  *n     = len;
  PetscFunctionReturn(0);
}

/* cJSON reports one character too far when an object key does not start with '"' (it has
 * already stepped over the expected quote). Detect that case: the character before `at` sits
 * where a key is expected, i.e. right after '{' or ',' inside an object. */
static const char *KeyErrorFix_Private(const char *buf, const char *at)
{
  char        stack[CJSON_NESTING_LIMIT + 1];
  int         depth     = 0;
  PetscBool   in_string = PETSC_FALSE;
  char        last      = 0; /* last structural or value character outside strings */
  const char *p;

  if (at <= buf) return at;
  for (p = buf; p < at - 1; p++) {
    char ch = *p;
    if (in_string) {
      if (ch == '\\' && p + 1 < at - 1) p++;
      else if (ch == '"') in_string = PETSC_FALSE;
      continue;
    }
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
    if (ch == '"') in_string = PETSC_TRUE;
    else if (ch == '{' || ch == '[') {
      if (depth >= CJSON_NESTING_LIMIT) return at;
      stack[depth++] = ch;
    } else if ((ch == '}' || ch == ']') && depth > 0) depth--;
    last = ch;
  }
  if (in_string || depth == 0 || stack[depth - 1] != '{' || (last != '{' && last != ',')) return at;
  p = at - 1;
  if (*p == '"' || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') return at;
  return p;
}

static PetscErrorCode SyntaxError_Private(const char *file, const char *buf, const char *at)
{
  int  line = 1, col = 1;
  char where[64];

  for (const char *p = buf; p < at; p++) {
    if (*p == '\n') {
      line++;
      col = 1;
    } else col++;
  }
  snprintf(where, sizeof where, "line %d, column %d", line, col);
  return FcInputError(file, where, "JSON syntax error");
}

/* Index, in document order (keys and values alike), of the first string token of the JSON
 * text whose escapes include \u0000, or -1. The text has parsed as JSON: outside strings a '"'
 * can only open one, and inside a '\\' always escapes the next character. */
static PetscInt NulStringIndex_Private(const char *text)
{
  PetscInt k = -1;

  for (const char *p = text; *p; p++) {
    if (*p != '"') continue;
    k++;
    for (p++; *p && *p != '"'; p++) {
      if (*p != '\\') continue;
      if (!*++p) return -1;
      if (*p == 'u' && !strncmp(p + 1, "0000", 4)) return k;
    }
    if (!*p) return -1;
  }
  return -1;
}

/* The string number *k (counted down, in document order as above) of the tree under item,
 * whose path is `path`: NULL when it is not there. *key tells a member name from a value; path
 * becomes the string's path (for a member name: its object's). cJSON keeps members in document
 * order. */
static const cJSON *NthString_Private(const cJSON *item, PetscInt *k, PetscBool *key, char *path, size_t len)
{
  const cJSON *m, *found;
  PetscInt     i = 0;
  char         sub[FC_PATH_LEN];

  if (cJSON_IsString(item)) {
    if ((*k)-- == 0) {
      *key = PETSC_FALSE;
      return item;
    }
    return NULL;
  }
  if (!cJSON_IsObject(item) && !cJSON_IsArray(item)) return NULL;
  for (m = item->child; m; m = m->next, i++) {
    if (cJSON_IsObject(item)) {
      if ((*k)-- == 0) {
        *key = PETSC_TRUE;
        return m;
      }
      FcSchemaPathKey(sub, sizeof sub, path, m->string);
    } else FcSchemaPathIndex(sub, sizeof sub, path, i);
    if ((found = NthString_Private(m, k, key, sub, sizeof sub))) {
      snprintf(path, len, "%s", sub);
      return found;
    }
  }
  return NULL;
}

/* cJSON decodes \u0000 into a NUL byte, which silently cuts the C string there: refuse it, at
 * the JSON path of the string (text is what parsed into root, whose path is `path`). */
static PetscErrorCode CheckNul_Private(const char *file, const char *text, const cJSON *root, const char *path, const char *prefix)
{
  PetscInt     k   = NulStringIndex_Private(text);
  PetscBool    key = PETSC_FALSE;
  const cJSON *s;
  char         where[FC_PATH_LEN], shown[128];

  PetscFunctionBegin;
  if (k < 0) PetscFunctionReturn(0);
  snprintf(where, sizeof where, "%s", path);
  s = NthString_Private(root, &k, &key, where, sizeof where);
  PetscCheck(s, PETSC_COMM_SELF, PETSC_ERR_PLIB, "String with \\u0000 not found in the parsed tree");
  if (key)
    return FcInputError(file, where, "%sthe member name \"%s\\u0000...\" contains the character U+0000 (\\u0000), which is not allowed", prefix,
      FcSchemaEscape(shown, sizeof shown, s->string));
  return FcInputError(file, where, "%sthe string \"%s\\u0000...\" contains the character U+0000 (\\u0000), which is not allowed", prefix,
    FcSchemaEscape(shown, sizeof shown, s->valuestring));
}

PetscErrorCode FcJsonReadFile(const char *file, cJSON **root)
{
  char       *buf;
  const char *end = NULL, *nul;
  size_t      n;
  cJSON      *r;

  PetscFunctionBegin;
  *root = NULL;
  PetscCall(ReadAll_Private(file, &buf, &n));
  /* cJSON stops at a NUL byte and would accept what precedes it: treat it as a syntax error. */
  if ((nul = memchr(buf, 0, n))) {
    PetscErrorCode ierr = SyntaxError_Private(file, buf, nul);
    PetscCall(PetscFree(buf));
    return ierr;
  }
  r = cJSON_ParseWithOpts(buf, &end, 1);
  if (!r) {
    PetscErrorCode ierr;
    PetscCheck(!json_oom, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory parsing %s", file);
    ierr = SyntaxError_Private(file, buf, end ? KeyErrorFix_Private(buf, end) : buf);
    PetscCall(PetscFree(buf));
    return ierr;
  }
  *root = r; /* the caller deletes the tree, also on the error below */
  {
    PetscErrorCode ierr = CheckNul_Private(file, buf, r, "", "");
    PetscCall(PetscFree(buf));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcJsonCheckDuplicates(const char *file, const cJSON *item, const char *path, const char *prefix)
{
  const cJSON *m, *o;
  PetscInt     i = 0;
  char         sub[FC_PATH_LEN], ekey[256];

  PetscFunctionBegin;
  if (cJSON_IsObject(item)) {
    /* Objects are short; the quadratic scan keeps this free of allocations. */
    for (m = item->child; m; m = m->next)
      for (o = m->next; o; o = o->next)
        if (!strcmp(m->string, o->string)) return FcInputError(file, path, "%sduplicate key \"%s\"", prefix, FcSchemaEscape(ekey, sizeof ekey, m->string));
  }
  if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
    for (m = item->child; m; m = m->next, i++) {
      if (cJSON_IsObject(item)) FcSchemaPathKey(sub, sizeof sub, path, m->string);
      else FcSchemaPathIndex(sub, sizeof sub, path, i);
      PetscCall(FcJsonCheckDuplicates(file, m, sub, prefix));
    }
  }
  PetscFunctionReturn(0);
}

/* One step of a --set path: a member name or an array index. */
typedef struct {
  char     key[FC_NAME_LEN]; /* "" for an index */
  PetscInt index;
} SetStep;

#define FC_SET_MAX_STEPS 32

/* key(.key|[index])*, keys made of anything but . [ ] (so PETSc option names pass). `shown` is
 * path escaped, for the messages. */
static PetscErrorCode ParsePath_Private(const char *file, const char *path, const char *shown, SetStep *steps, PetscInt *nsteps)
{
  const char *p = path;
  PetscInt    n = 0;
  char        rest[64];

  PetscFunctionBegin;
  for (;;) {
    if (n > 0 && *p == '[') {
      PetscInt v = 0, digits = 0;
      for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
        if (digits >= 9) return FcInputError(file, shown, "--set: array index too large");
        v = 10 * v + (*p - '0');
      }
      if (!digits || *p != ']') return FcInputError(file, shown, "--set: malformed PATH: expected a non-negative integer and ']' after '['");
      p++;
      steps[n].key[0] = 0;
      steps[n].index  = v;
    } else {
      size_t l = strcspn(p, ".[]");
      if (!l)
        return FcInputError(file, shown, "--set: malformed PATH: expected a key at \"%s\" (syntax: key(.key|[index])*)", FcSchemaEscape(rest, sizeof rest, p));
      if (l >= sizeof steps[n].key) return FcInputError(file, shown, "--set: key too long");
      memcpy(steps[n].key, p, l);
      steps[n].key[l] = 0;
      steps[n].index  = -1;
      p += l;
    }
    n++;
    if (!*p) break;
    if (n >= FC_SET_MAX_STEPS) return FcInputError(file, shown, "--set: PATH has more than %d components", FC_SET_MAX_STEPS);
    if (*p == '.') p++;
    else if (*p != '[') return FcInputError(file, shown, "--set: malformed PATH: unexpected \"%s\"", FcSchemaEscape(rest, sizeof rest, p));
  }
  *nsteps = n;
  PetscFunctionReturn(0);
}

/* Find (creating missing objects on the way) the container of the last step. Nothing is
 * created unless the whole path can be resolved, so a failing --set leaves no debris. */
static PetscErrorCode Walk_Private(const char *file, const char *path, cJSON *root, const SetStep *steps, PetscInt n, cJSON **parent)
{
  cJSON *cur                = root, *next;
  char   where[FC_PATH_LEN] = "", sub[FC_PATH_LEN], ekey[256];
  size_t l;

  PetscFunctionBegin;
  /* Dry run: every existing container must have the right kind, indices must be in range,
   * and once a key is missing only keys (objects to create) may follow. */
  for (PetscInt i = 0; i < n; i++) {
    const char *what = where[0] ? where : "the root";
    if (steps[i].key[0]) {
      if (!cJSON_IsObject(cur))
        return FcInputError(file, path, "--set: cannot set key \"%s\": %s is %s %s, not an object", FcSchemaEscape(ekey, sizeof ekey, steps[i].key), what,
          cJSON_IsArray(cur) ? "an" : "a", FcSchemaTypeName(cur));
      next = cJSON_GetObjectItemCaseSensitive(cur, steps[i].key);
      FcSchemaPathKey(sub, sizeof sub, where, steps[i].key);
      memcpy(where, sub, sizeof where);
      if (!next) {
        for (PetscInt j = i + 1; j < n; j++)
          if (!steps[j].key[0]) return FcInputError(file, path, "--set: cannot index %s: it does not exist", where);
        break;
      }
    } else {
      PetscInt size;
      if (!cJSON_IsArray(cur))
        return FcInputError(file, path, "--set: cannot index %s: it is %s %s, not an array", what, cJSON_IsObject(cur) ? "an" : "a", FcSchemaTypeName(cur));
      size = (PetscInt)cJSON_GetArraySize(cur);
      if (steps[i].index >= size)
        return FcInputError(
          file, path, "--set: index %" PetscInt_FMT " is past the end of %s (%" PetscInt_FMT " element%s)", steps[i].index, what, size, size == 1 ? "" : "s");
      next = cJSON_GetArrayItem(cur, (int)steps[i].index);
      l    = strlen(where);
      snprintf(where + l, sizeof where - l, "[%" PetscInt_FMT "]", steps[i].index);
    }
    if (i < n - 1) cur = next;
  }
  /* Now walk for real, creating the missing intermediate objects. */
  cur = root;
  for (PetscInt i = 0; i < n - 1; i++) {
    if (steps[i].key[0]) {
      next = cJSON_GetObjectItemCaseSensitive(cur, steps[i].key);
      if (!next) { PetscCheck((next = cJSON_AddObjectToObject(cur, steps[i].key)), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree"); }
    } else next = cJSON_GetArrayItem(cur, (int)steps[i].index);
    cur = next;
  }
  *parent = cur;
  PetscFunctionReturn(0);
}

/* text: the VALUE as given when it parsed as JSON, else NULL. */
static PetscErrorCode ApplyValue_Private(const char *file, const char *path, const char *text, cJSON *root, cJSON *value)
{
  SetStep        steps[FC_SET_MAX_STEPS];
  PetscInt       n      = 0;
  cJSON         *parent = NULL;
  char           shown[FC_PATH_LEN];
  const SetStep *last;

  PetscFunctionBegin;
  FcSchemaEscape(shown, sizeof shown, path);
  if (text) PetscCall(CheckNul_Private(file, text, value, shown, "--set: "));
  PetscCall(FcJsonCheckDuplicates(file, value, shown, "--set: "));
  PetscCall(ParsePath_Private(file, path, shown, steps, &n));
  PetscCall(Walk_Private(file, shown, root, steps, n, &parent));
  last = &steps[n - 1];
  if (!last->key[0]) {
    PetscCheck(cJSON_ReplaceItemInArray(parent, (int)last->index, value), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  } else if (cJSON_GetObjectItemCaseSensitive(parent, last->key)) {
    PetscCheck(cJSON_ReplaceItemInObjectCaseSensitive(parent, last->key, value), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  } else {
    PetscCheck(cJSON_AddItemToObject(parent, last->key, value), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcJsonApplySet(const char *file, cJSON *root, const char *set)
{
  const char    *eq = strchr(set, '='), *end = NULL, *text;
  char           path[FC_PATH_LEN], shown[FC_PATH_LEN];
  size_t         plen;
  cJSON         *value;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* the command line is echoed escaped too: a message is one line whatever the argument */
  if (!eq) return FcInputError(file, FcSchemaEscape(shown, sizeof shown, set), "--set: expected PATH=VALUE");
  plen = (size_t)(eq - set);
  if (!plen) return FcInputError(file, NULL, "--set: empty PATH in \"%s\" (expected PATH=VALUE)", FcSchemaEscape(shown, sizeof shown, set));
  if (plen >= sizeof path) return FcInputError(file, NULL, "--set: PATH too long in \"%s\"", FcSchemaEscape(shown, 68, set));
  memcpy(path, set, plen);
  path[plen] = 0;
  /* VALUE is JSON when it parses as such (5, true, null, [1,2], "text"), else a plain string,
   * so `--set petsc.ksp_type=cg` needs no quoting; the schema then checks its type. */
  value = cJSON_ParseWithOpts(eq + 1, &end, 1);
  text  = value ? eq + 1 : NULL;
  if (!value) {
    PetscCheck(!json_oom, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory parsing --set %s", set);
    value = cJSON_CreateString(eq + 1);
    PetscCheck(value, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  }
  /* The tree owns value only once it is inserted; on any earlier failure free it here. */
  ierr = ApplyValue_Private(file, path, text, root, value);
  if (ierr) {
    cJSON_Delete(value);
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}
