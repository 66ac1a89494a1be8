/* fcsim — the parameters of a pluggable part as plain data. A part (a material model) declares
 * a table of FcParamSpec, one row per key of its input object: name, type, required or its
 * default, allowed range, physical bounds, choices and a one-line description. The part reads
 * its values itself; the case layer (src/case) turns each table into rows of its JSON schema, so
 * the user's input is validated against what the part declares, with one-line messages naming
 * the JSON path. Nothing here depends on JSON. */
#ifndef FC_PARAM_H
#define FC_PARAM_H

#include "fc.h"

/* Allowed interval of a number: any combination of open/closed/absent ends. */
typedef struct {
  PetscReal     lo, hi;
  unsigned char has_lo, has_hi, lo_open, hi_open;
} FcRange;
// clang-format off
#define FC_RANGE_GT(a)    {.lo = (a), .has_lo = 1, .lo_open = 1}
// clang-format on
// clang-format off
#define FC_RANGE_GE(a)    {.lo = (a), .has_lo = 1}
// clang-format on
// clang-format off
#define FC_RANGE_CC(a, b) {.lo = (a), .hi = (b), .has_lo = 1, .has_hi = 1}
// clang-format on
// clang-format off
#define FC_RANGE_CO(a, b) {.lo = (a), .hi = (b), .has_lo = 1, .has_hi = 1, .hi_open = 1}
// clang-format on

/* x in r (a NaN is in no bounded range). */
static inline PetscBool FcRangeContains(const FcRange *r, PetscReal x)
{
  return (PetscBool)((!r->has_lo || (r->lo_open ? x > r->lo : x >= r->lo)) && (!r->has_hi || (r->hi_open ? x < r->hi : x <= r->hi)));
}

/* Physical bounds (SI) of a quantity: the extremes of real materials widened by about two
 * orders of magnitude, beyond which a value is a mistake of unit or exponent (E in GPa, a
 * density in g/cm^3). `what` names the range in the message; lo < 0: no lower bound. */
typedef struct {
  const char *what, *unit;
  PetscReal   lo, hi;
} FcBound;

typedef enum {
  FC_PARAM_REAL,  /* a finite number */
  FC_PARAM_CHOICE /* a string out of `choices` */
} FcParamType;

typedef struct {
  const char        *name; /* key of the input object; NULL ends a table */
  FcParamType        type;
  PetscBool          required;
  const char        *def;     /* default when absent (a choice, or a number as text); NULL: none */
  FcRange            range;   /* FC_PARAM_REAL */
  const FcBound     *bound;   /* FC_PARAM_REAL: physical bounds, NULL: none */
  const char *const *choices; /* FC_PARAM_CHOICE: NULL-terminated */
  const char        *doc;     /* one line, with the unit */
} FcParamSpec;

#endif
