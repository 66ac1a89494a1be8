/* fcsim — a small declarative schema for JSON trees (internal to src/case/).
 *
 * The case format is described by static tables of FcSchemaEntry (one row per key: type,
 * required, default, range, choices, ...) walked by one generic validator, so that a new key
 * is a new row. What a table cannot say (exactly one of two keys, cross references, sorted
 * tables) goes into small `check` hooks that run after the generic checks of their item.
 *
 * The validator reports the first problem as an input error "FILE: JSON.PATH: message" and,
 * on success, leaves the tree resolved: every default inserted, ramp-like shorthand strings
 * expanded to their object form, and object keys in schema order (so the printed tree reads
 * like the documentation). */
#ifndef FC_CASE_SCHEMA_H
#define FC_CASE_SCHEMA_H

#include "../core/fc.h"
#include "../core/param.h"
#include <cjson/cJSON.h>

/* Room for a JSON path such as "bodies[12].boundary[3].displacement.table[40][2]". */
#define FC_PATH_LEN 1024

/* JSON types an entry accepts (a mask). INTEGER is a NUMBER with an integral value that fits
 * a PetscInt; NUMBER accepts any finite number that is 0 or normal (a subnormal such as 1e-320
 * is refused: no quantity of a case is that small, and arithmetic on it loses its precision). */
enum { FC_T_NULL = 1 << 0, FC_T_BOOL = 1 << 1, FC_T_INTEGER = 1 << 2, FC_T_NUMBER = 1 << 3, FC_T_STRING = 1 << 4, FC_T_ARRAY = 1 << 5, FC_T_OBJECT = 1 << 6 };

/* Allowed interval of a number (src/core/param.h, with FC_RANGE_GT/GE/CC/CO). */
typedef FcRange FcSchemaRange;

typedef struct FcSchemaCtx    FcSchemaCtx;
typedef struct FcSchemaEntry  FcSchemaEntry;
typedef struct FcSchemaObject FcSchemaObject;

/* A custom check on an item that passed the generic checks of its entry; `path` is the item's
 * JSON path. Raise problems with FcInputError(ctx->file, path, ...). */
typedef PetscErrorCode (*FcSchemaCheck)(FcSchemaCtx *ctx, cJSON *item, const char *path);

struct FcSchemaCtx {
  const char *file; /* named in every message */
  void       *user; /* for the hooks */
};

struct FcSchemaEntry {
  const char           *key;   /* object member name; NULL ends a table (and for elements) */
  unsigned              types; /* FC_T_* mask */
  PetscBool             required;
  const char           *def;     /* default as JSON text, inserted when the key is absent */
  FcSchemaRange         range;   /* numbers */
  const FcBound        *bound;   /* numbers: physical bounds (SI), checked after range; NULL: none */
  const char *const    *choices; /* strings: NULL-terminated list of allowed values */
  const char           *charset; /* strings: must match [A-Za-z0-9<charset>]+ when set */
  PetscInt              len_min; /* strings: characters; arrays: elements (0: no bound) */
  PetscInt              len_max;
  const FcSchemaEntry  *elem;   /* arrays: entry every element must satisfy */
  const FcSchemaObject *object; /* objects: their members */
  const char           *expand; /* a string value s becomes the object {expand: s} */
  FcSchemaCheck         check;
};

/* One variant of an object whose accepted members depend on a discriminator value. */
typedef struct {
  const char          *name;    /* discriminator value; NULL ends the list */
  const FcSchemaEntry *entries; /* members besides the discriminator */
} FcSchemaVariant;

struct FcSchemaObject {
  const FcSchemaEntry   *entries;       /* fixed members (NULL-key terminated) */
  const FcSchemaEntry   *discriminator; /* or: string member selecting one of `variants`; its
                                           `def`, when set, is inserted when it is absent */
  const FcSchemaVariant *variants;
  const FcSchemaEntry   *common;      /* with a discriminator: members of every variant, listed
                                           before the discriminator (may be NULL) */
  const FcSchemaEntry   *map_value;   /* or: free keys, each value checked by this entry */
  const char            *map_charset; /* free keys must match [A-Za-z0-9<map_charset>]+ */
  FcSchemaCheck          check;       /* after all members are validated and defaulted */
};

PetscErrorCode FcSchemaValidate(FcSchemaCtx *ctx, const FcSchemaEntry *e, cJSON *item, const char *path);
PetscErrorCode FcSchemaValidateObject(FcSchemaCtx *ctx, const FcSchemaObject *o, cJSON *obj, const char *path);
/* Insert e->def as member e->key of obj (path is obj's path) and validate it. */
PetscErrorCode FcSchemaAddDefault(FcSchemaCtx *ctx, const FcSchemaEntry *e, cJSON *obj, const char *path);

/* Path helpers: "a" + "b" → "a.b" ("" + "b" → "b"); "a" + 3 → "a[3]". */
void        FcSchemaPathKey(char *out, size_t len, const char *parent, const char *key);
void        FcSchemaPathIndex(char *out, size_t len, const char *parent, PetscInt i);
const char *FcSchemaTypeName(const cJSON *item);
/* Shortest %g form that reads back to the same double. */
void FcSchemaFormatNumber(char *out, size_t len, double x);
/* The same with as few digits as reading back needs, in exponent form when %g picks it: 2e+14,
 * 1e-320 (FcSchemaFormatNumber starts at 15 digits: 200000000000000, 9.99988671826831e-321). */
void FcSchemaFormatShortest(char *out, size_t len, double x);
/* s as printable text on one line, for messages: '"', '\\' and control characters escaped as
 * in JSON (\n, \t, \u001b), C1 controls and the Unicode line/paragraph separators as \uXXXX,
 * bytes that are not UTF-8 as \xNN; cut with "..." to fit len. Every string a message echoes
 * from the case (or a --set) goes through this, so that the message stays ONE line. Returns out. */
const char *FcSchemaEscape(char *out, size_t len, const char *s);
/* The first control character of s (C0, DEL, C1, U+2028, U+2029: what FcSchemaEscape shows as
 * \uXXXX or \n, \r, \t) as a code point, or -1 when there is none. */
long FcSchemaFirstControl(const char *s);

#endif
