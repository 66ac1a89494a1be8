/* fcsim — generic validator for the declarative JSON schema of schema.h. */
#include "schema.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Keys come from the user's file: escaped, so that a path never breaks a message's line. */
void FcSchemaPathKey(char *out, size_t len, const char *parent, const char *key)
{
  size_t l = 0;

  if (!len) return;
  out[0] = 0;
  if (parent && parent[0]) {
    snprintf(out, len, "%s.", parent);
    l = strlen(out);
  }
  if (l + 1 < len) FcSchemaEscape(out + l, len - l, key);
}

void FcSchemaPathIndex(char *out, size_t len, const char *parent, PetscInt i) { snprintf(out, len, "%s[%" PetscInt_FMT "]", parent ? parent : "", i); }

const char *FcSchemaTypeName(const cJSON *item)
{
  if (cJSON_IsBool(item)) return "boolean";
  if (cJSON_IsNull(item)) return "null";
  if (cJSON_IsNumber(item)) return "number";
  if (cJSON_IsString(item)) return "string";
  if (cJSON_IsArray(item)) return "array";
  if (cJSON_IsObject(item)) return "object";
  return "invalid";
}

/* Length (1 to 4) of the UTF-8 sequence at s, with its code point in *cp; 0 when s does not
 * start a well-formed one (a stray continuation byte, a truncated or overlong sequence, a
 * surrogate, or beyond U+10FFFF). */
static int Utf8Decode_Private(const unsigned char *s, unsigned *cp)
{
  unsigned c = s[0], min;
  int      n;

  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    c &= 0x1f;
    min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    c &= 0x0f;
    min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    c &= 0x07;
    min = 0x10000;
  } else return 0;
  for (int k = 1; k < n; k++) { /* a NUL is not a continuation byte: no read past the end */
    if ((s[k] & 0xc0) != 0x80) return 0;
    c = (c << 6) | (s[k] & 0x3f);
  }
  if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
  *cp = c;
  return n;
}

static PetscBool IsControl_Private(unsigned cp) { return (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029) ? PETSC_TRUE : PETSC_FALSE; }

long FcSchemaFirstControl(const char *s)
{
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    unsigned cp;
    int      n = Utf8Decode_Private(p, &cp);
    if (n && IsControl_Private(cp)) return (long)cp;
    p += n ? n : 1;
  }
  return -1;
}

/* The escaped form of the character at p, in piece; returns how many bytes of p it stands for. */
static int EscapePiece_Private(const unsigned char *p, char piece[8])
{
  unsigned cp;
  int      n = Utf8Decode_Private(p, &cp);

  if (!n) {
    snprintf(piece, 8, "\\x%02x", (unsigned)*p);
    return 1;
  }
  if (cp == '"' || cp == '\\') snprintf(piece, 8, "\\%c", (char)cp);
  else if (cp == '\n') snprintf(piece, 8, "\\n");
  else if (cp == '\r') snprintf(piece, 8, "\\r");
  else if (cp == '\t') snprintf(piece, 8, "\\t");
  /* C0 and C1 controls, DEL, and U+2028/U+2029, which some readers take as line breaks */
  else if (IsControl_Private(cp)) snprintf(piece, 8, "\\u%04x", cp);
  else {
    memcpy(piece, p, (size_t)n);
    piece[n] = 0;
  }
  return n;
}

const char *FcSchemaEscape(char *out, size_t len, const char *s)
{
  const unsigned char *p;
  size_t               total = 0, o = 0;
  char                 piece[8];

  if (!len) return out;
  out[0] = 0;
  for (p = (const unsigned char *)s; *p;) {
    p += EscapePiece_Private(p, piece);
    total += strlen(piece);
  }
  for (p = (const unsigned char *)s; *p;) {
    const int    n  = EscapePiece_Private(p, piece);
    const size_t pl = strlen(piece);
    /* when the whole does not fit, stop where a final "..." still does */
    if (o + pl + (total + 1 > len ? 4 : 1) > len) {
      snprintf(out + o, len - o, "...");
      return out;
    }
    memcpy(out + o, piece, pl + 1);
    o += pl;
    p += n;
  }
  return out;
}

void FcSchemaFormatShortest(char *out, size_t len, double x)
{
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(out, len, "%.*g", prec, x);
    if (strtod(out, NULL) == x) return;
  }
}

void FcSchemaFormatNumber(char *out, size_t len, double x)
{
  /* 15 digits read back exactly for most user-written numbers; 17 always do. */
  for (int prec = 15; prec <= 17; prec++) {
    snprintf(out, len, "%.*g", prec, x);
    if (strtod(out, NULL) == x) return;
  }
}

/* "string or integer" from a type mask, for "expected ..., got ..." messages. */
static void TypeMaskName_Private(unsigned types, char *out, size_t len)
{
  static const struct {
    unsigned    t;
    const char *name;
  } names[] = {
    {FC_T_OBJECT, "object"},
    {FC_T_ARRAY, "array"},
    {FC_T_STRING, "string"},
    {FC_T_NUMBER, "number"},
    {FC_T_INTEGER, "integer"},
    {FC_T_BOOL, "boolean"},
    {FC_T_NULL, "null"},
  };
  const char *list[8];
  int         n = 0;

  /* A number mask already accepts integers: do not say "number or integer". */
  if (types & FC_T_NUMBER) types &= ~(unsigned)FC_T_INTEGER;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (types & names[i].t) list[n++] = names[i].name;
  out[0] = 0;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(out);
    snprintf(out + l, len - l, "%s%s", i == 0 ? "" : (i == n - 1 ? " or " : ", "), list[i]);
  }
}

static PetscBool IsIntegral_Private(double x) { return (x == floor(x) && fabs(x) <= (double)PETSC_MAX_INT) ? PETSC_TRUE : PETSC_FALSE; }

static PetscBool TypeAccepted_Private(unsigned types, const cJSON *item)
{
  if (cJSON_IsNull(item)) return (types & FC_T_NULL) ? PETSC_TRUE : PETSC_FALSE;
  if (cJSON_IsBool(item)) return (types & FC_T_BOOL) ? PETSC_TRUE : PETSC_FALSE;
  if (cJSON_IsString(item)) return (types & FC_T_STRING) ? PETSC_TRUE : PETSC_FALSE;
  if (cJSON_IsArray(item)) return (types & FC_T_ARRAY) ? PETSC_TRUE : PETSC_FALSE;
  if (cJSON_IsObject(item)) return (types & FC_T_OBJECT) ? PETSC_TRUE : PETSC_FALSE;
  if (cJSON_IsNumber(item)) {
    if (types & FC_T_NUMBER) return PETSC_TRUE;
    if (types & FC_T_INTEGER) return IsIntegral_Private(item->valuedouble);
  }
  return PETSC_FALSE;
}

static PetscErrorCode CheckType_Private(FcSchemaCtx *ctx, const FcSchemaEntry *e, const cJSON *item, const char *path)
{
  char want[128], num[64];

  PetscFunctionBegin;
  /* JSON has no inf/nan, but an overflowing literal such as 1e999 parses to inf. */
  if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) return FcInputError(ctx->file, path, "must be a finite number");
  /* A subnormal (1e-320) is no physical quantity, and arithmetic on it loses its precision
   * (1e-320 * 1e10 is not 1e-310 to 15 digits); it is nearly always a typo for a normal value. */
  if (cJSON_IsNumber(item) && item->valuedouble != 0 && fabs(item->valuedouble) < DBL_MIN) {
    FcSchemaFormatShortest(num, sizeof num, item->valuedouble);
    return FcInputError(ctx->file, path, "must be 0 or a normal number (magnitude at least 2.2250738585072014e-308), got the subnormal %s", num);
  }
  if (TypeAccepted_Private(e->types, item)) PetscFunctionReturn(0);
  TypeMaskName_Private(e->types, want, sizeof want);
  if (cJSON_IsNumber(item) && (e->types & FC_T_INTEGER)) {
    FcSchemaFormatNumber(num, sizeof num, item->valuedouble);
    if (item->valuedouble != floor(item->valuedouble)) return FcInputError(ctx->file, path, "expected %s, got the non-integral number %s", want, num);
    return FcInputError(ctx->file, path, "expected %s, got %s which is out of the integer range [%d, %d]", want, num, -PETSC_MAX_INT, PETSC_MAX_INT);
  }
  return FcInputError(ctx->file, path, "expected %s, got %s", want, FcSchemaTypeName(item));
}

static PetscErrorCode CheckRange_Private(FcSchemaCtx *ctx, const FcSchemaRange *r, double x, const char *path)
{
  char lo[64], hi[64], got[64], rule[192];

  PetscFunctionBegin;
  if (!r->has_lo && !r->has_hi) PetscFunctionReturn(0);
  if (FcRangeContains(r, x)) PetscFunctionReturn(0);
  FcSchemaFormatNumber(lo, sizeof lo, r->lo);
  FcSchemaFormatNumber(hi, sizeof hi, r->hi);
  FcSchemaFormatNumber(got, sizeof got, x);
  if (r->has_lo && r->has_hi) snprintf(rule, sizeof rule, "in %c%s, %s%c", r->lo_open ? '(' : '[', lo, hi, r->hi_open ? ')' : ']');
  else if (r->has_lo) snprintf(rule, sizeof rule, "%s %s", r->lo_open ? ">" : ">=", lo);
  else snprintf(rule, sizeof rule, "%s %s", r->hi_open ? "<" : "<=", hi);
  return FcInputError(ctx->file, path, "must be %s, got %s", rule, got);
}

/* A value outside the physical bounds of its quantity is a mistake of unit or exponent (E in
 * GPa, a density in g/cm^3 or t/mm^3, 1e-300), and it overflows or underflows double precision
 * in the energies and Newton matrices (E = 1e-300 Pa under a 100 N load gives an infinite strain
 * energy). */
static PetscErrorCode CheckBound_Private(FcSchemaCtx *ctx, const FcBound *b, double x, const char *path)
{
  char v[64];

  PetscFunctionBegin;
  if ((b->lo < 0 || x >= b->lo) && x <= b->hi) PetscFunctionReturn(0);
  FcSchemaFormatShortest(v, sizeof v, x);
  if (b->lo < 0) return FcInputError(ctx->file, path, "%s %s is above %g %s (SI units), beyond the %s", v, b->unit, (double)b->hi, b->unit, b->what);
  return FcInputError(ctx->file, path, "%s %s is outside [%g, %g] %s (SI units), the range of %s", v, b->unit, (double)b->lo, (double)b->hi, b->unit, b->what);
}

/* "a, b, c" into out. */
static void JoinList_Private(const char *const *list, char *out, size_t len)
{
  out[0] = 0;
  for (int i = 0; list && list[i]; i++) {
    size_t l = strlen(out);
    snprintf(out + l, len - l, "%s%s", i ? ", " : "", list[i]);
  }
}

static PetscBool Charset_Private(const char *s, const char *extra)
{
  if (!s[0]) return PETSC_FALSE;
  for (; *s; s++) {
    char ch = *s;
    if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || (ch && strchr(extra, ch)))) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

static PetscErrorCode CheckString_Private(FcSchemaCtx *ctx, const FcSchemaEntry *e, const cJSON *item, const char *path)
{
  const char *s = item->valuestring;
  PetscInt    n = (PetscInt)strlen(s);
  char        list[512], es[256];

  PetscFunctionBegin;
  if (e->choices) {
    for (int i = 0; e->choices[i]; i++)
      if (!strcmp(s, e->choices[i])) PetscFunctionReturn(0);
    JoinList_Private(e->choices, list, sizeof list);
    return FcInputError(ctx->file, path, "\"%s\" is not allowed (choices: %s)", FcSchemaEscape(es, sizeof es, s), list);
  }
  if (e->charset && !Charset_Private(s, e->charset))
    return FcInputError(ctx->file, path, "\"%s\" must match [A-Za-z0-9%s]+", FcSchemaEscape(es, sizeof es, s), e->charset);
  if (e->len_min > 0 && n < e->len_min)
    return e->len_min == 1 ? FcInputError(ctx->file, path, "must not be empty")
                           : FcInputError(ctx->file, path, "must have at least %" PetscInt_FMT " characters", e->len_min);
  if (e->len_max > 0 && n > e->len_max)
    return FcInputError(ctx->file, path, "must have at most %" PetscInt_FMT " characters, got %" PetscInt_FMT, e->len_max, n);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckArray_Private(FcSchemaCtx *ctx, const FcSchemaEntry *e, cJSON *item, const char *path)
{
  PetscInt n = (PetscInt)cJSON_GetArraySize(item), i = 0;
  cJSON   *el;
  char     sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (e->len_min > 0 && e->len_min == e->len_max && n != e->len_min)
    return FcInputError(ctx->file, path, "must have exactly %" PetscInt_FMT " elements, got %" PetscInt_FMT, e->len_min, n);
  if (e->len_min > 0 && n < e->len_min)
    return FcInputError(ctx->file, path, "must have at least %" PetscInt_FMT " element%s, got %" PetscInt_FMT, e->len_min, e->len_min == 1 ? "" : "s", n);
  if (e->len_max > 0 && n > e->len_max) return FcInputError(ctx->file, path, "must have at most %" PetscInt_FMT " elements, got %" PetscInt_FMT, e->len_max, n);
  if (!e->elem) PetscFunctionReturn(0);
  cJSON_ArrayForEach(el, item)
  {
    FcSchemaPathIndex(sub, sizeof sub, path, i++);
    PetscCall(FcSchemaValidate(ctx, e->elem, el, sub));
  }
  PetscFunctionReturn(0);
}

/* Rewrite the string item s, in place, into the object {key: s}, so that shorthand such as
 * "ramp": "linear" is resolved to the documented object form. */
static PetscErrorCode ExpandString_Private(cJSON *item, const char *key)
{
  char  *s = item->valuestring;
  cJSON *v;

  PetscFunctionBegin;
  v = cJSON_CreateString(s);
  PetscCheck(v, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  item->valuestring = NULL;
  cJSON_free(s);
  /* Keep the flag telling whether item's own member name is owned. */
  item->type  = cJSON_Object | (item->type & cJSON_StringIsConst);
  item->child = NULL;
  PetscCheck(cJSON_AddItemToObject(item, key, v), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchemaValidate(FcSchemaCtx *ctx, const FcSchemaEntry *e, cJSON *item, const char *path)
{
  PetscFunctionBegin;
  PetscCall(CheckType_Private(ctx, e, item, path));
  if (cJSON_IsNumber(item)) PetscCall(CheckRange_Private(ctx, &e->range, item->valuedouble, path));
  if (cJSON_IsNumber(item) && e->bound) PetscCall(CheckBound_Private(ctx, e->bound, item->valuedouble, path));
  if (cJSON_IsString(item)) {
    PetscCall(CheckString_Private(ctx, e, item, path));
    if (e->expand) PetscCall(ExpandString_Private(item, e->expand));
  }
  if (cJSON_IsArray(item)) PetscCall(CheckArray_Private(ctx, e, item, path));
  if (cJSON_IsObject(item) && e->object) PetscCall(FcSchemaValidateObject(ctx, e->object, item, path));
  if (e->check) PetscCall(e->check(ctx, item, path));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchemaAddDefault(FcSchemaCtx *ctx, const FcSchemaEntry *e, cJSON *obj, const char *path)
{
  cJSON *v;
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  v = cJSON_Parse(e->def);
  /* A default that does not parse is a bug in the schema table, not the user's problem. */
  PetscCheck(v, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Schema default of \"%s\" is not JSON (or out of memory): %s", e->key, e->def);
  if (!cJSON_AddItemToObject(obj, e->key, v)) {
    cJSON_Delete(v);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
  }
  FcSchemaPathKey(sub, sizeof sub, path, e->key);
  PetscCall(FcSchemaValidate(ctx, e, v, sub));
  PetscFunctionReturn(0);
}

static const FcSchemaEntry *FindEntry_Private(const FcSchemaEntry *entries, const char *key)
{
  for (const FcSchemaEntry *e = entries; e && e->key; e++)
    if (!strcmp(e->key, key)) return e;
  return NULL;
}

/* Relink obj's members in schema order (the common members, the discriminator, then the
 * table), so that defaults appended at the end land at their documented place in the resolved
 * tree. */
static void Reorder_Private(cJSON *obj, const FcSchemaEntry *common, const FcSchemaEntry *disc, const FcSchemaEntry *entries)
{
  cJSON *m;

  for (const FcSchemaEntry *e = common; e && e->key; e++)
    if ((m = cJSON_DetachItemFromObjectCaseSensitive(obj, e->key))) cJSON_AddItemToArray(obj, m);
  if (disc && (m = cJSON_DetachItemFromObjectCaseSensitive(obj, disc->key))) cJSON_AddItemToArray(obj, m);
  for (const FcSchemaEntry *e = entries; e && e->key; e++)
    if ((m = cJSON_DetachItemFromObjectCaseSensitive(obj, e->key))) cJSON_AddItemToArray(obj, m);
}

static void AppendKeys_Private(char *list, size_t len, const FcSchemaEntry *entries)
{
  for (const FcSchemaEntry *e = entries; e && e->key; e++) {
    size_t l = strlen(list);
    snprintf(list + l, len - l, "%s%s", list[0] ? ", " : "", e->key);
  }
}

static PetscErrorCode UnknownKey_Private(FcSchemaCtx *ctx, const FcSchemaEntry *common, const FcSchemaEntry *disc, const FcSchemaVariant *var,
  const FcSchemaEntry *entries, const char *key, const char *path)
{
  char list[1024] = "", ekey[256];

  PetscFunctionBegin;
  FcSchemaEscape(ekey, sizeof ekey, key);
  AppendKeys_Private(list, sizeof list, common);
  if (disc) {
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s%s", list[0] ? ", " : "", disc->key);
  }
  AppendKeys_Private(list, sizeof list, entries);
  if (var) return FcInputError(ctx->file, path, "unknown key \"%s\" for %s \"%s\" (accepted: %s)", ekey, disc->key, var->name, list);
  return FcInputError(ctx->file, path, "unknown key \"%s\" (accepted: %s)", ekey, list);
}

/* Objects with free keys (PETSc options): check each key's spelling and each value. */
static PetscErrorCode ValidateMap_Private(FcSchemaCtx *ctx, const FcSchemaObject *o, cJSON *obj, const char *path)
{
  cJSON *m;
  char   sub[FC_PATH_LEN], ekey[256];

  PetscFunctionBegin;
  cJSON_ArrayForEach(m, obj)
  {
    FcSchemaPathKey(sub, sizeof sub, path, m->string);
    if (o->map_charset && !Charset_Private(m->string, o->map_charset))
      return FcInputError(ctx->file, sub, "key \"%s\" must match [A-Za-z0-9%s]+", FcSchemaEscape(ekey, sizeof ekey, m->string), o->map_charset);
    PetscCall(FcSchemaValidate(ctx, o->map_value, m, sub));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchemaValidateObject(FcSchemaCtx *ctx, const FcSchemaObject *o, cJSON *obj, const char *path)
{
  const FcSchemaEntry   *entries = o->entries, *disc = o->discriminator, *common = disc ? o->common : NULL, *e;
  const FcSchemaVariant *var = NULL;
  cJSON                 *m;
  char                   sub[FC_PATH_LEN], list[512], ev[256];

  PetscFunctionBegin;
  if (o->map_value) {
    PetscCall(ValidateMap_Private(ctx, o, obj, path));
    if (o->check) PetscCall(o->check(ctx, obj, path));
    PetscFunctionReturn(0);
  }
  if (disc) {
    /* The discriminator decides which members exist, so it is checked before any of them. */
    FcSchemaPathKey(sub, sizeof sub, path, disc->key);
    m = cJSON_GetObjectItemCaseSensitive(obj, disc->key);
    if (!m && disc->def) {
      PetscCall(FcSchemaAddDefault(ctx, disc, obj, path));
      m = cJSON_GetObjectItemCaseSensitive(obj, disc->key);
    }
    if (!m) return FcInputError(ctx->file, sub, "required key \"%s\" is missing", disc->key);
    PetscCall(FcSchemaValidate(ctx, disc, m, sub));
    for (var = o->variants; var->name; var++)
      if (!strcmp(var->name, m->valuestring)) break;
    if (!var->name) {
      size_t l;
      list[0] = 0;
      for (const FcSchemaVariant *v = o->variants; v->name; v++) {
        l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s", list[0] ? ", " : "", v->name);
      }
      return FcInputError(ctx->file, sub, "\"%s\" is not allowed (choices: %s)", FcSchemaEscape(ev, sizeof ev, m->valuestring), list);
    }
    entries = var->entries;
  }
  cJSON_ArrayForEach(m, obj)
  {
    if (disc && !strcmp(m->string, disc->key)) continue;
    FcSchemaPathKey(sub, sizeof sub, path, m->string);
    if (!(e = FindEntry_Private(common, m->string)) && !(e = FindEntry_Private(entries, m->string)))
      return UnknownKey_Private(ctx, common, disc, var, entries, m->string, sub);
    PetscCall(FcSchemaValidate(ctx, e, m, sub));
  }
  for (int pass = 0; pass < 2; pass++) {
    for (e = pass ? entries : common; e && e->key; e++) {
      if (cJSON_GetObjectItemCaseSensitive(obj, e->key)) continue;
      if (e->required) {
        FcSchemaPathKey(sub, sizeof sub, path, e->key);
        return FcInputError(ctx->file, sub, "required key \"%s\" is missing", e->key);
      }
      if (e->def) PetscCall(FcSchemaAddDefault(ctx, e, obj, path));
    }
  }
  if (o->check) PetscCall(o->check(ctx, obj, path));
  Reorder_Private(obj, common, disc, entries);
  PetscFunctionReturn(0);
}
