/* fcsim — the order and over-relaxation of a Gauss–Seidel sweep (sweep.h). */
#include "sweep.h"
#include <string.h>

static const char *const OrderNames[] = {"natural", "reversed", "symmetric", "random"};

void FcContactSweepInit(FcContactSweep *sw)
{
  sw->order = FC_CONTACT_SWEEP_NATURAL;
  sw->omega = 1.0;
  sw->seed  = 1;
  sw->state = 0;
  sw->cap   = 0;
  sw->perm  = NULL;
}

/* The first bad option of the block is the one reported (as FcContactSolverOptionsBoundedInt). */
static void BadOption_Private(FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char *name, const char *what)
{
  if (s->opterr[0]) return;
  snprintf(s->optname, sizeof s->optname, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", name);
  snprintf(s->opterr, sizeof s->opterr, "%s", what);
}

PetscErrorCode FcContactSweepSetFromOptions(FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char *pre, FcContactSweep *sw)
{
  char      opt[64], name[64], what[256], val[64];
  PetscReal omega = sw->omega;
  PetscBool set;

  PetscFunctionBegin;
  snprintf(opt, sizeof opt, "-%s_omega", pre);
  PetscCall(PetscOptionsReal(opt,
    "Over-relaxation factor, 0 < omega < 2 (nsgs: the local solution relaxed and projected back onto the cone; pgs: projected SOR)", "", omega, &omega, &set));
  if (set) {
    if (!(omega > 0 && omega < 2)) {
      snprintf(what, sizeof what, "must be in (0, 2) (got %g)", (double)omega);
      BadOption_Private(s, PetscOptionsObject, opt + 1, what);
    } else sw->omega = omega;
  }
  snprintf(opt, sizeof opt, "-%s_order", pre);
  PetscCall(PetscOptionsString(opt,
    "Order of the contacts in a sweep: natural, reversed, symmetric (natural and reversed in turn), random (a new permutation every sweep)", "",
    OrderNames[sw->order], val, sizeof val, &set));
  if (set) {
    int k;
    for (k = 0; k < 4; k++)
      if (!strcmp(val, OrderNames[k])) break;
    if (k < 4) sw->order = (FcContactSweepOrder)k;
    else {
      snprintf(what, sizeof what, "unknown order '%s' (natural, reversed, symmetric or random)", val);
      BadOption_Private(s, PetscOptionsObject, opt + 1, what);
    }
  }
  snprintf(name, sizeof name, "-%s_seed", pre);
  PetscCall(FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, name, "Seed of the random order (the same seed gives the same sweeps)", &sw->seed, 0));
  PetscFunctionReturn(0);
}

/* splitmix64 (Steele, Lea & Flood, OOPSLA 2014): one step, used to spread the seed over the
 * state and as the generator itself (a full-period 64-bit sequence, equidistributed enough
 * for shuffling). */
static inline uint64_t SplitMix64_Private(uint64_t *state)
{
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z          = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

PetscErrorCode FcContactSweepBegin(FcContactSweep *sw, PetscInt m)
{
  PetscFunctionBegin;
  sw->state = (uint64_t)sw->seed;
  if (sw->order == FC_CONTACT_SWEEP_NATURAL) PetscFunctionReturn(0);
  if (m > sw->cap) {
    PetscCall(PetscFree(sw->perm));
    PetscCall(PetscMalloc1(m, &sw->perm));
    sw->cap = m;
  }
  for (PetscInt k = 0; k < m; k++) sw->perm[k] = k; /* the random order shuffles from here */
  if (sw->order != FC_CONTACT_SWEEP_RANDOM)
    for (PetscInt k = 0; k < m; k++) sw->perm[k] = m - 1 - k;
  PetscFunctionReturn(0);
}

const PetscInt *FcContactSweepOrderOf(FcContactSweep *sw, PetscInt it, PetscInt m)
{
  switch (sw->order) {
  case FC_CONTACT_SWEEP_NATURAL: return NULL;
  case FC_CONTACT_SWEEP_REVERSED: return sw->perm;
  case FC_CONTACT_SWEEP_SYMMETRIC: return it % 2 ? NULL : sw->perm; /* sweeps 1, 3, … forward; 2, 4, … backward */
  case FC_CONTACT_SWEEP_RANDOM:
    /* Fisher–Yates (Knuth, TAOCP 2, §3.4.2, Algorithm P) on the previous permutation: every
     * permutation equally likely, up to the bias of x mod (k + 1), below m/2⁶⁴. */
    for (PetscInt k = m - 1; k > 0; k--) {
      const uint64_t x = SplitMix64_Private(&sw->state);
      const PetscInt j = (PetscInt)(x % (uint64_t)(k + 1));
      const PetscInt t = sw->perm[k];
      sw->perm[k]      = sw->perm[j];
      sw->perm[j]      = t;
    }
    return sw->perm;
  }
  return NULL;
}

void FcContactSweepDescribe(const FcContactSweep *sw, char *buf, size_t len)
{
  if (sw->order == FC_CONTACT_SWEEP_RANDOM) snprintf(buf, len, "order random (seed %" PetscInt_FMT "), omega %g", sw->seed, (double)sw->omega);
  else snprintf(buf, len, "order %s, omega %g", OrderNames[sw->order], (double)sw->omega);
}

PetscErrorCode FcContactSweepDestroy(FcContactSweep *sw)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(sw->perm));
  sw->cap = 0;
  PetscFunctionReturn(0);
}
