/* fcsim — LU in an envelope, reverse Cuthill–McKee order (envelope.h). */
#include "envelope.h"

void FcEnvelopeLUInit(FcEnvelopeLU *e) { PetscMemzero(e, sizeof *e); }

PetscErrorCode FcEnvelopeLUDestroy(FcEnvelopeLU *e)
{
  PetscFunctionBegin;
  PetscCall(PetscFree4(e->perm, e->iperm, e->first, e->iw));
  PetscCall(PetscFree4(e->off, e->d, e->rowsum, e->x));
  PetscCall(PetscFree2(e->L, e->U));
  FcEnvelopeLUInit(e);
  PetscFunctionReturn(0);
}

/* Breadth-first level structure from root over the blocks not yet numbered (iperm < 0): the
 * queue in level order (*nq blocks), the first of the last level at *last; returns the number of
 * levels. mark[] == stamp flags the blocks queued by this search. */
static PetscInt Levels_Private(const PetscInt bptr[], const PetscInt bcol[], const PetscInt iperm[], PetscInt root, PetscInt mark[], PetscInt stamp,
  PetscInt queue[], PetscInt *nq, PetscInt *last)
{
  PetscInt head = 0, tail = 0, nlev = 0;

  queue[tail++] = root;
  mark[root]    = stamp;
  *last         = 0;
  while (head < tail) {
    const PetscInt end = tail;
    *last              = head;
    nlev++;
    for (; head < end; head++) {
      const PetscInt a = queue[head];
      for (PetscInt k = bptr[a]; k < bptr[a + 1]; k++) {
        const PetscInt b = bcol[k];
        if (iperm[b] < 0 && mark[b] != stamp) {
          mark[b]       = stamp;
          queue[tail++] = b;
        }
      }
    }
  }
  *nq = tail;
  return nlev;
}

static inline PetscInt Degree_Private(const PetscInt bptr[], PetscInt a) { return bptr[a + 1] - bptr[a] - 1; /* the diagonal block is always stored */ }

PetscErrorCode FcEnvelopeLUOrder(FcEnvelopeLU *e, PetscInt m, const PetscInt bptr[], const PetscInt bcol[])
{
  const PetscInt n = 3 * m;
  PetscInt      *mark, *queue, next = 0, stamp = 0;
  PetscLogDouble flops = 0;

  PetscFunctionBegin;
  if (m > e->mcap || !e->perm) {
    PetscCall(PetscFree4(e->perm, e->iperm, e->first, e->iw));
    PetscCall(PetscFree4(e->off, e->d, e->rowsum, e->x));
    PetscCall(PetscMalloc4(m, &e->perm, m, &e->iperm, m, &e->first, 2 * m, &e->iw));
    PetscCall(PetscMalloc4(n + 1, &e->off, n, &e->d, n, &e->rowsum, n, &e->x));
    e->mcap = m;
  }
  e->m  = m;
  e->n  = n;
  mark  = e->iw;
  queue = e->iw + m;
  for (PetscInt a = 0; a < m; a++) {
    e->iperm[a] = -1;
    mark[a]     = -1;
  }
  /* Cuthill–McKee, component by component: a pseudo-peripheral root (George & Liu 1981 §4.3.2: from
   * a block of least degree of the component, restart from a least-degree block of the last level
   * while the number of levels grows), then breadth first, the neighbours of each block numbered by
   * increasing degree. */
  for (PetscInt pos = 0; pos < m;) {
    PetscInt root, nq, last, nlev;
    while (e->iperm[next] >= 0) next++;
    nlev = Levels_Private(bptr, bcol, e->iperm, next, mark, stamp++, queue, &nq, &last);
    root = next;
    for (PetscInt k = 0; k < nq; k++)
      if (Degree_Private(bptr, queue[k]) < Degree_Private(bptr, root)) root = queue[k];
    nlev = Levels_Private(bptr, bcol, e->iperm, root, mark, stamp++, queue, &nq, &last);
    for (;;) {
      PetscInt x = queue[last], nq2, last2, nlev2;
      for (PetscInt k = last; k < nq; k++)
        if (Degree_Private(bptr, queue[k]) < Degree_Private(bptr, x)) x = queue[k];
      nlev2 = Levels_Private(bptr, bcol, e->iperm, x, mark, stamp++, queue, &nq2, &last2);
      if (nlev2 <= nlev) break;
      root = x;
      nlev = nlev2;
      nq   = nq2;
      last = last2;
    }
    { /* number the component from root; queue holds the numbered blocks in order */
      PetscInt head  = pos;
      e->perm[pos]   = root;
      e->iperm[root] = pos++;
      for (; head < pos; head++) {
        const PetscInt a = e->perm[head], p0 = pos;
        for (PetscInt k = bptr[a]; k < bptr[a + 1]; k++) {
          const PetscInt b = bcol[k];
          if (e->iperm[b] >= 0) continue;
          e->iperm[b]    = pos;
          e->perm[pos++] = b;
        }
        for (PetscInt i = p0 + 1; i < pos; i++) { /* insertion sort of the new ones by degree (a handful) */
          const PetscInt b = e->perm[i], db = Degree_Private(bptr, b);
          PetscInt       j = i;
          for (; j > p0 && Degree_Private(bptr, e->perm[j - 1]) > db; j--) e->perm[j] = e->perm[j - 1];
          e->perm[j] = b;
        }
        for (PetscInt i = p0; i < pos; i++) e->iperm[e->perm[i]] = i;
      }
    }
  }
  for (PetscInt k = 0; k < m / 2; k++) { /* reverse (George 1971): the envelope shrinks, never grows */
    const PetscInt t   = e->perm[k];
    e->perm[k]         = e->perm[m - 1 - k];
    e->perm[m - 1 - k] = t;
  }
  for (PetscInt k = 0; k < m; k++) e->iperm[e->perm[k]] = k;
  /* the envelope: block row k starts at its first stored block column */
  for (PetscInt k = 0; k < m; k++) {
    const PetscInt a = e->perm[k];
    PetscInt       f = k;
    for (PetscInt j = bptr[a]; j < bptr[a + 1]; j++) f = PetscMin(f, e->iperm[bcol[j]]);
    e->first[k] = f;
  }
  e->off[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PetscInt s = 3 * e->first[i / 3];
    e->off[i + 1]    = e->off[i] + (size_t)(i - s);
    /* Crout's dot products for row i: column i of U and row i of L, 2 (j − max(s_i, s_j)) flops per
     * entry j each, and the pivot's 2 (i − s_i) */
    for (PetscInt j = s; j < i; j++) flops += 4.0 * (j - PetscMax(s, 3 * e->first[j / 3]));
    flops += 2.0 * (i - s);
  }
  e->nenv  = e->off[n];
  e->flops = flops;
  PetscFunctionReturn(0);
}

PetscErrorCode FcEnvelopeLUSetPattern(FcEnvelopeLU *e, PetscInt m, const PetscInt bptr[], const PetscInt bcol[])
{
  size_t nenv;

  PetscFunctionBegin;
  PetscCall(FcEnvelopeLUOrder(e, m, bptr, bcol));
  nenv = e->nenv;
  if (nenv > e->ecap || !e->L) {
    PetscCall(PetscFree2(e->L, e->U));
    PetscCall(PetscMalloc2(nenv, &e->L, nenv, &e->U));
    e->ecap = nenv;
  }
  PetscFunctionReturn(0);
}

void FcEnvelopeLUZero(FcEnvelopeLU *e)
{
  for (size_t k = 0; k < e->nenv; k++) e->L[k] = e->U[k] = 0;
  for (PetscInt i = 0; i < e->n; i++) e->d[i] = e->rowsum[i] = 0;
}

void FcEnvelopeLUSetBlock(FcEnvelopeLU *e, PetscInt a, PetscInt b, const PetscReal blk[9])
{
  const PetscInt k = e->iperm[a], l = e->iperm[b];

  for (int ii = 0; ii < 3; ii++) {
    const PetscInt i = 3 * k + ii, si = 3 * e->first[k];
    for (int jj = 0; jj < 3; jj++) {
      const PetscInt  j = 3 * l + jj;
      const PetscReal v = blk[3 * ii + jj];
      e->rowsum[i] += PetscAbsReal(v);
      if (j < i) e->L[e->off[i] + (size_t)(j - si)] = v;
      else if (j > i) e->U[e->off[j] + (size_t)(i - 3 * e->first[l])] = v;
      else e->d[i] = v;
    }
  }
}

/* Σ_k a[k] b[k], k = 0 .. len−1 */
static inline PetscReal Dot_Private(const PetscReal *a, const PetscReal *b, PetscInt len)
{
  PetscReal s0 = 0, s1 = 0;
  PetscInt  k = 0;
  for (; k + 1 < len; k += 2) {
    s0 += a[k] * b[k];
    s1 += a[k + 1] * b[k + 1];
  }
  if (k < len) s0 += a[k] * b[k];
  return s0 + s1;
}

void FcEnvelopeLUFactor(FcEnvelopeLU *e, PetscReal zeropivot, PetscBool *ok)
{
  *ok = PETSC_TRUE;
  for (PetscInt i = 0; i < e->n; i++) {
    const PetscInt si = 3 * e->first[i / 3];
    PetscReal     *Li = e->L + e->off[i] - si, *Ui = e->U + e->off[i] - si; /* Li[j] = l_ij, Ui[j] = u_ji, j in [si, i) */
    for (PetscInt j = si; j < i; j++) {                                     /* column i of U: u_ji = a_ji − Σ_{k<j} l_jk u_ki */
      const PetscInt   sj = 3 * e->first[j / 3], k0 = PetscMax(si, sj);
      const PetscReal *Lj = e->L + e->off[j] - sj;
      Ui[j] -= Dot_Private(Lj + k0, Ui + k0, j - k0);
    }
    for (PetscInt j = si; j < i; j++) { /* row i of L: l_ij = (a_ij − Σ_{k<j} l_ik u_kj) / u_jj */
      const PetscInt   sj = 3 * e->first[j / 3], k0 = PetscMax(si, sj);
      const PetscReal *Uj = e->U + e->off[j] - sj;
      Li[j]               = (Li[j] - Dot_Private(Li + k0, Uj + k0, j - k0)) / e->d[j];
    }
    e->d[i] -= Dot_Private(Li + si, Ui + si, i - si);
    if (!(PetscAbsReal(e->d[i]) > zeropivot * e->rowsum[i])) { /* also a NaN */
      *ok = PETSC_FALSE;
      return;
    }
  }
}

void FcEnvelopeLUSolve(FcEnvelopeLU *e, PetscReal b[])
{
  PetscReal *x = e->x;

  for (PetscInt k = 0; k < e->m; k++)
    for (int c = 0; c < 3; c++) x[3 * k + c] = b[3 * e->perm[k] + c];
  for (PetscInt i = 0; i < e->n; i++) { /* L y = b, L unit lower by rows */
    const PetscInt si = 3 * e->first[i / 3];
    x[i] -= Dot_Private(e->L + e->off[i], x + si, i - si);
  }
  for (PetscInt i = e->n - 1; i >= 0; i--) { /* U x = y, U by columns */
    const PetscInt   si = 3 * e->first[i / 3];
    const PetscReal *Ui = e->U + e->off[i] - si;
    x[i] /= e->d[i];
    for (PetscInt j = si; j < i; j++) x[j] -= Ui[j] * x[i];
  }
  for (PetscInt k = 0; k < e->m; k++)
    for (int c = 0; c < 3; c++) b[3 * e->perm[k] + c] = x[3 * k + c];
}
