/* fcsim — broad phase: the pairs of overlapping axis-aligned boxes by sort and sweep along one
 * axis (Baraff 1992, §6.2). The bodies' boxes are sorted by their lower bound on the sweep axis;
 * a sweep keeps the boxes whose interval is still open and tests each new box against them on
 * the two other axes. Chosen over a BVH because the boxes are few (one per body), all move every
 * step, and a sort of nearly sorted keys is cheap; the axis is the one with the largest spread of
 * box centres, so that few intervals overlap on it. */
#include "collide.h"

typedef struct {
  PetscReal lo;
  PetscInt  i;
} SweepKey_Private;

static int CmpKey_Private(const void *a, const void *b)
{
  const SweepKey_Private *x = a, *y = b;
  if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

static int CmpPair_Private(const void *a, const void *b)
{
  const PetscInt *x = a, *y = b;
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Mid point of [lo, hi] for the axis choice; 0 for an unbounded side (it overlaps every box on
 * that axis whatever its place). */
static PetscReal Centre_Private(PetscReal lo, PetscReal hi) { return PetscIsInfOrNanReal(lo) || PetscIsInfOrNanReal(hi) ? 0 : 0.5 * (lo + hi); }

PetscErrorCode FcBroadPhaseSweep(PetscInt n, const PetscReal box[], PetscInt *npairs, PetscInt **pairs)
{
  SweepKey_Private *key;
  PetscInt         *open, nopen = 0, cap = 0, m = 0, axis = 0;
  PetscReal         best = -1;

  PetscFunctionBegin;
  *npairs = 0;
  *pairs  = NULL;
  if (n < 2) PetscFunctionReturn(0);
  for (PetscInt d = 0; d < 3; d++) { /* variance of the centres along d */
    PetscReal s = 0, s2 = 0;
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal c = Centre_Private(box[6 * i + d], box[6 * i + 3 + d]);
      s += c;
      s2 += c * c;
    }
    if (s2 / n - (s / n) * (s / n) > best) {
      best = s2 / n - (s / n) * (s / n);
      axis = d;
    }
  }
  PetscCall(PetscMalloc1(n, &key));
  PetscCall(PetscMalloc1(n, &open));
  for (PetscInt i = 0; i < n; i++) {
    key[i].lo = box[6 * i + axis];
    key[i].i  = i;
  }
  qsort(key, (size_t)n, sizeof *key, CmpKey_Private);
  for (PetscInt k = 0; k < n; k++) {
    const PetscInt   i    = key[k].i;
    const PetscReal *a    = &box[6 * i];
    PetscInt         keep = 0;
    /* close the intervals that end before this one starts; test the others on all axes */
    for (PetscInt o = 0; o < nopen; o++) {
      const PetscInt   j   = open[o];
      const PetscReal *b   = &box[6 * j];
      PetscBool        hit = PETSC_TRUE;
      if (b[3 + axis] < a[axis]) continue;
      open[keep++] = j;
      for (int d = 0; d < 3; d++)
        if (a[d] > b[3 + d] || b[d] > a[3 + d]) hit = PETSC_FALSE;
      if (!hit) continue;
      if (m == cap) {
        PetscInt *np;
        cap = PetscMax(16, 2 * cap);
        PetscCall(PetscMalloc1(2 * cap, &np));
        if (m) PetscCall(PetscArraycpy(np, *pairs, 2 * m));
        PetscCall(PetscFree(*pairs));
        *pairs = np;
      }
      (*pairs)[2 * m]     = PetscMin(i, j);
      (*pairs)[2 * m + 1] = PetscMax(i, j);
      m++;
    }
    nopen         = keep;
    open[nopen++] = i;
  }
  if (m > 1) qsort(*pairs, (size_t)m, 2 * sizeof(PetscInt), CmpPair_Private);
  *npairs = m;
  PetscCall(PetscFree(key));
  PetscCall(PetscFree(open));
  PetscFunctionReturn(0);
}
