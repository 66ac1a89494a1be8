/* fcsim — contact problem storage, Coulomb cone projection, common error (problem.h). */
#include "problem.h"
#include <float.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

PetscErrorCode FcContactProblemCreate(PetscInt m, FcContactProblem *problem)
{
  FcContactProblem p;
  size_t           n;

  PetscFunctionBegin;
  PetscCheck(problem, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the problem");
  *problem = NULL;
  PetscCheck(m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of contacts %" PetscInt_FMT " must be >= 0", m);
  n = 3 * (size_t)m;
  PetscCall(PetscNew(&p));
  p->m = m;
  PetscCall(PetscCalloc3(n * n, &p->W, n, &p->q, (size_t)m, &p->mu));
  *problem = p;
  PetscFunctionReturn(0);
}

/* Block-sparse problem: q and mu in one allocation, the pattern in another, the values in a
 * third (Destroy tells the forms apart by W == NULL). */
PetscErrorCode FcContactProblemCreateSparse(PetscInt m, const PetscInt ptr[], const PetscInt col[], FcContactProblem *problem)
{
  FcContactProblem p;
  PetscInt        *cnt, *tptr, *tcol, *fill;
  PetscInt64       ngiven, ntmp = 0, nb = 0;

  PetscFunctionBegin;
  PetscCheck(problem, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the problem");
  *problem = NULL;
  PetscCheck(m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Number of contacts %" PetscInt_FMT " must be >= 0", m);
  PetscCheck(ptr || !m, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null block row pointers for %" PetscInt_FMT " contacts", m);
  PetscCheck(!m || ptr[0] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Block row pointers must start at 0 (got %" PetscInt_FMT ")", ptr[0]);
  for (PetscInt a = 0; a < m; a++)
    PetscCheck(ptr[a + 1] >= ptr[a], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
      "Block row pointers decrease at block row %" PetscInt_FMT " (%" PetscInt_FMT " then %" PetscInt_FMT ")", a, ptr[a], ptr[a + 1]);
  ngiven = m ? ptr[m] : 0;
  PetscCheck(col || !ngiven, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null block columns for %" PetscInt64_FMT " blocks", ngiven);
  /* Row a of the temporary pattern: its given blocks, the transposes of the blocks (b, a) given
   * in other rows, and (a, a); sorted and deduplicated below. */
  PetscCall(PetscCalloc2((size_t)m + 1, &cnt, (size_t)m + 1, &tptr));
  for (PetscInt a = 0; a < m; a++) {
    for (PetscInt k = ptr[a]; k < ptr[a + 1]; k++) {
      const PetscInt b = col[k];
      if (b < 0 || b >= m) {
        PetscCall(PetscFree2(cnt, tptr));
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
          "Block (%" PetscInt_FMT ", %" PetscInt_FMT ") is outside the %" PetscInt_FMT " x %" PetscInt_FMT " blocks of W", a, b, m, m);
      }
      cnt[a]++;
      if (b != a) cnt[b]++;
    }
    cnt[a]++;
  }
  for (PetscInt a = 0; a < m; a++) {
    tptr[a + 1] = tptr[a] + cnt[a];
    ntmp += cnt[a];
  }
  PetscCheck(ntmp <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscInt64_FMT " blocks exceed the integer range of this PETSc build", ntmp);
  PetscCall(PetscMalloc2((size_t)ntmp + 1, &tcol, (size_t)m + 1, &fill));
  for (PetscInt a = 0; a < m; a++) fill[a] = tptr[a];
  for (PetscInt a = 0; a < m; a++) {
    for (PetscInt k = ptr[a]; k < ptr[a + 1]; k++) {
      const PetscInt b = col[k];
      tcol[fill[a]++]  = b;
      if (b != a) tcol[fill[b]++] = a;
    }
    tcol[fill[a]++] = a;
  }
  /* Duplicates among the given blocks of a row are an error (two values for one block). */
  for (PetscInt a = 0; a < m; a++) {
    const PetscInt len = ptr[a + 1] - ptr[a];
    if (len > 1) {
      PetscInt *cp;
      PetscBool dup    = PETSC_FALSE;
      PetscInt  dupcol = -1;
      PetscCall(PetscMalloc1((size_t)len, &cp));
      PetscCall(PetscArraycpy(cp, col + ptr[a], len));
      PetscCall(PetscSortInt(len, cp));
      for (PetscInt i = 1; i < len && !dup; i++)
        if (cp[i] == cp[i - 1]) {
          dup    = PETSC_TRUE;
          dupcol = cp[i];
        }
      PetscCall(PetscFree(cp));
      if (dup) {
        PetscCall(PetscFree2(tcol, fill));
        PetscCall(PetscFree2(cnt, tptr));
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Block (%" PetscInt_FMT ", %" PetscInt_FMT ") of W is given twice", a, dupcol);
      }
    }
  }
  for (PetscInt a = 0; a < m; a++) {
    PetscInt len = tptr[a + 1] - tptr[a];
    PetscCall(PetscSortRemoveDupsInt(&len, tcol + tptr[a]));
    cnt[a] = len;
    nb += len;
  }
  PetscCall(PetscNew(&p));
  p->m  = m;
  p->nb = (PetscInt)nb;
  PetscCall(PetscCalloc2(3 * (size_t)m, &p->q, (size_t)m, &p->mu));
  PetscCall(PetscMalloc4((size_t)m + 1, &p->bptr, (size_t)nb, &p->bcol, (size_t)m, &p->bdiag, (size_t)nb, &p->btr));
  PetscCall(PetscCalloc1(9 * (size_t)nb, &p->bval));
  p->bptr[0] = 0;
  for (PetscInt a = 0; a < m; a++) {
    PetscCall(PetscArraycpy(p->bcol + p->bptr[a], tcol + tptr[a], cnt[a]));
    p->bptr[a + 1] = p->bptr[a] + cnt[a];
  }
  PetscCall(PetscFree2(tcol, fill));
  PetscCall(PetscFree2(cnt, tptr));
  for (PetscInt a = 0; a < m; a++) {
    p->bdiag[a] = FcContactProblemFindBlock(p, a, a);
    for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) p->btr[k] = FcContactProblemFindBlock(p, p->bcol[k], a);
  }
  *problem = p;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemDestroy(FcContactProblem *problem)
{
  FcContactProblem p;

  PetscFunctionBegin;
  if (!problem || !*problem) PetscFunctionReturn(0);
  p = *problem;
  if (p->W) PetscCall(PetscFree3(p->W, p->q, p->mu));
  else {
    PetscCall(PetscFree2(p->q, p->mu));
    PetscCall(PetscFree4(p->bptr, p->bcol, p->bdiag, p->btr));
    PetscCall(PetscFree(p->bval));
  }
  PetscCall(PetscFree(*problem));
  PetscFunctionReturn(0);
}

PetscInt FcContactProblemFindBlock(FcContactProblem p, PetscInt a, PetscInt b)
{
  PetscInt lo, hi;

  if (p->W || a < 0 || a >= p->m) return -1;
  lo = p->bptr[a];
  hi = p->bptr[a + 1] - 1;
  while (lo <= hi) { /* the columns of a row are sorted */
    const PetscInt mid = lo + (hi - lo) / 2;
    if (p->bcol[mid] == b) return mid;
    if (p->bcol[mid] < b) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

void FcContactProblemGetBlock(FcContactProblem p, PetscInt a, PetscInt b, PetscReal blk[9])
{
  if (p->W) {
    const size_t n = 3 * (size_t)p->m;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) blk[3 * i + j] = p->W[(3 * (size_t)a + i) * n + 3 * (size_t)b + j];
  } else {
    const PetscInt k = a == b ? p->bdiag[a] : FcContactProblemFindBlock(p, a, b);
    for (int i = 0; i < 9; i++) blk[i] = k >= 0 ? p->bval[9 * (size_t)k + i] : 0.0;
  }
}

/* Block (a, b) of a dense W has a nonzero entry. */
static PetscBool BlockNonzero_Private(FcContactProblem p, PetscInt a, PetscInt b)
{
  const size_t n = 3 * (size_t)p->m;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (p->W[(3 * (size_t)a + i) * n + 3 * (size_t)b + j] != 0) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscInt64 FcContactProblemCountBlocks(FcContactProblem p)
{
  PetscInt64 nb = 0;

  if (!p->W) return p->nb;
  for (PetscInt a = 0; a < p->m; a++)
    for (PetscInt b = 0; b < p->m; b++) { nb += BlockNonzero_Private(p, a, b); }
  return nb;
}

PetscInt64 FcContactProblemStorageBytes(FcContactProblem p)
{
  if (p->W) return 9 * (PetscInt64)p->m * p->m * (PetscInt64)sizeof(PetscReal);
  return (PetscInt64)p->nb * (9 * (PetscInt64)sizeof(PetscReal) + 2 * (PetscInt64)sizeof(PetscInt)) + (2 * (PetscInt64)p->m + 1) * (PetscInt64)sizeof(PetscInt);
}

PetscBool FcContactProblemPreferSparse(PetscInt m, PetscInt64 nblocks)
{
  return (PetscBool)((double)nblocks < FC_CONTACT_SPARSE_MAX_FILL * (double)m * (double)m);
}

PetscErrorCode FcContactProblemConvert(FcContactProblem p, FcContactWStorage storage, FcContactProblem *out)
{
  const PetscInt   m = p->m;
  const size_t     n = 3 * (size_t)m;
  FcContactProblem o;

  PetscFunctionBegin;
  PetscCheck(out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null pointer for the converted problem");
  *out = NULL;
  if (storage == FC_CONTACT_W_DENSE) {
    const double bytes = 9.0 * (double)m * (double)m * sizeof(PetscReal);
    PetscCheck(bytes <= FC_CONTACT_DENSE_MAX_BYTES, PETSC_COMM_SELF, PETSC_ERR_SUP,
      "%" PetscInt_FMT
      " contacts: a dense W would need %.1f GB (limit %.0f GB); use a solver that reads the block-sparse W (nsgs, pgs, uzawa_local, uzawa_global)",
      m, bytes / 1073741824.0, FC_CONTACT_DENSE_MAX_BYTES / 1073741824.0);
    PetscCall(FcContactProblemCreate(m, &o));
    if (p->W) PetscCall(PetscArraycpy(o->W, p->W, n * n));
    else
      for (PetscInt a = 0; a < m; a++)
        for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++)
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) o->W[(3 * (size_t)a + i) * n + 3 * (size_t)p->bcol[k] + j] = p->bval[9 * (size_t)k + 3 * i + j];
  } else if (!p->W) {
    PetscCall(FcContactProblemCreateSparse(m, p->bptr, p->bcol, &o));
    PetscCall(PetscArraycpy(o->bval, p->bval, 9 * (size_t)p->nb));
  } else {
    /* The pattern: every block with a nonzero entry. */
    PetscInt *ptr, *col, nnz = 0;
    PetscCall(PetscMalloc1((size_t)m + 1, &ptr));
    ptr[0] = 0;
    for (PetscInt a = 0; a < m; a++) {
      for (PetscInt b = 0; b < m; b++) { nnz += BlockNonzero_Private(p, a, b); }
      ptr[a + 1] = nnz;
    }
    PetscCall(PetscMalloc1((size_t)nnz + 1, &col));
    for (PetscInt a = 0, k = 0; a < m; a++)
      for (PetscInt b = 0; b < m; b++) {
        if (BlockNonzero_Private(p, a, b)) col[k++] = b;
      }
    PetscCall(FcContactProblemCreateSparse(m, ptr, col, &o));
    PetscCall(PetscFree(ptr));
    PetscCall(PetscFree(col));
    for (PetscInt a = 0; a < m; a++)
      for (PetscInt k = o->bptr[a]; k < o->bptr[a + 1]; k++)
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) o->bval[9 * (size_t)k + 3 * i + j] = p->W[(3 * (size_t)a + i) * n + 3 * (size_t)o->bcol[k] + j];
  }
  PetscCall(PetscArraycpy(o->q, p->q, n));
  PetscCall(PetscArraycpy(o->mu, p->mu, m));
  *out = o;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemConvertAuto(FcContactProblem p, FcContactProblem *out)
{
  PetscFunctionBegin;
  PetscCall(FcContactProblemConvert(p, FcContactProblemPreferSparse(p->m, FcContactProblemCountBlocks(p)) ? FC_CONTACT_W_SPARSE : FC_CONTACT_W_DENSE, out));
  PetscFunctionReturn(0);
}

/* u = W r + q. The sparse product adds the stored blocks of each row in increasing column
 * order, i.e. the dense sum without its exact-zero blocks: both forms give the same u. */
PetscErrorCode FcContactProblemComputeVelocity(FcContactProblem p, const PetscReal r[], PetscReal u[])
{
  const PetscInt n = 3 * p->m;

  PetscFunctionBegin;
  if (!p->W) {
    for (PetscInt a = 0; a < p->m; a++) {
      PetscReal s0 = p->q[3 * a], s1 = p->q[3 * a + 1], s2 = p->q[3 * a + 2];
      for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
        const PetscReal *B = p->bval + 9 * (size_t)k, *rb = r + 3 * p->bcol[k];
        for (int j = 0; j < 3; j++) {
          s0 += B[j] * rb[j];
          s1 += B[3 + j] * rb[j];
          s2 += B[6 + j] * rb[j];
        }
      }
      u[3 * a]     = s0;
      u[3 * a + 1] = s1;
      u[3 * a + 2] = s2;
    }
    PetscCall(PetscLogFlops(18.0 * p->nb));
    PetscFunctionReturn(0);
  }
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *Wi = p->W + (size_t)i * n;
    PetscReal        s  = p->q[i];
    for (PetscInt j = 0; j < n; j++) s += Wi[j] * r[j];
    u[i] = s;
  }
  PetscCall(PetscLogFlops(2.0 * n * n));
  PetscFunctionReturn(0);
}

/* Closed form of the projection onto K_μ = {‖x_T‖ ≤ μ x_N}. With t = ‖x_T‖:
 *  - x ∈ K_μ (t ≤ μ x_N, x_N ≥ 0): x itself;
 *  - x in the polar cone K_μ° = {μ t ≤ −x_N} (normal to K_μ at its apex): 0;
 *  - otherwise the projection onto the generator of the boundary in the half-plane of x,
 *    d = (1, μ x_T/t)/√(1+μ²): (⟨x,d⟩) d = (x_N + μ t)/(1+μ²) · (1, μ x_T/t).
 * In the third case t > 0 (t = 0 falls in one of the first two), so the division is safe, also
 * for μ = 0 where K_0 is the ray x_T = 0, x_N ≥ 0 and the formula gives (x_N, 0, 0).
 * Static inline, with the local error below, so that the common error's loop (evaluated after
 * every Gauss–Seidel sweep) inlines them; FcConeProject and FcContactLocalError2 are the same code
 * for the other files. */
static inline void ConeProject_Private(PetscReal mu, const PetscReal x[3], PetscReal p[3])
{
  const PetscReal xn = x[0], t = PetscSqrtReal(x[1] * x[1] + x[2] * x[2]);

  if (t <= mu * xn && xn >= 0) { /* xn >= 0: with μ = 0, t = 0 ≤ μ·xn = −0 holds for xn < 0 */
    p[0] = xn;
    p[1] = x[1];
    p[2] = x[2];
  } else if (mu * t <= -xn) {
    p[0] = p[1] = p[2] = 0.0;
  } else {
    const PetscReal a = (xn + mu * t) / (1.0 + mu * mu), s = mu * a / t;
    p[0] = a;
    p[1] = s * x[1];
    p[2] = s * x[2];
  }
}

void FcConeProject(PetscReal mu, const PetscReal x[3], PetscReal p[3]) { ConeProject_Private(mu, x, p); }

/* ‖r − P_K(r − ũ)‖² with De Saxcé's modified velocity ũ = [u_N + μ‖u_T‖, u_T] (bipotential):
 * K ∋ r ⊥ ũ ∈ K* holds iff r = P_K(r − ũ) (projection characterisation of a cone
 * complementarity problem), which is Signorini + Coulomb for one contact. */
static inline PetscReal LocalError2_Private(PetscReal mu, const PetscReal r[3], const PetscReal u[3])
{
  PetscReal x[3], p[3];

  x[0] = r[0] - (u[0] + mu * PetscSqrtReal(u[1] * u[1] + u[2] * u[2]));
  x[1] = r[1] - u[1];
  x[2] = r[2] - u[2];
  ConeProject_Private(mu, x, p);
  x[0] = r[0] - p[0];
  x[1] = r[1] - p[1];
  x[2] = r[2] - p[2];
  return x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
}

PetscReal FcContactLocalError2(PetscReal mu, const PetscReal r[3], const PetscReal u[3]) { return LocalError2_Private(mu, r, u); }

PetscErrorCode FcContactProblemComputeErrorWithVelocity(FcContactProblem p, const PetscReal r[], const PetscReal u[], PetscReal *error)
{
  const PetscInt m  = p->m;
  PetscReal      e2 = 0, q2 = 0, r2 = 0, u2 = 0, scale;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < m; a++) e2 += LocalError2_Private(p->mu[a], r + 3 * a, u + 3 * a);
  for (PetscInt i = 0; i < 3 * m; i++) {
    q2 += p->q[i] * p->q[i];
    r2 += r[i] * r[i];
    u2 += u[i] * u[i];
  }
  /* Siconos' normalisation: relative to the largest of the data and the solution, so the
   * error is scale-free, and absolute when all of them vanish (the trivial problem). */
  scale  = PetscSqrtReal(PetscMax(q2, PetscMax(r2, u2)));
  *error = PetscSqrtReal(e2);
  if (scale >= DBL_EPSILON) *error /= scale;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemComputeError(FcContactProblem p, const PetscReal r[], PetscReal *error)
{
  PetscReal *u;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * (size_t)p->m, &u));
  PetscCall(FcContactProblemComputeVelocity(p, r, u));
  PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, u, error));
  PetscCall(PetscFree(u));
  PetscFunctionReturn(0);
}

PetscBool FcContactProblemIsSymmetric(FcContactProblem p)
{
  const PetscInt n = 3 * p->m;
  if (!p->W) { /* block (a, b) against the transpose of block (b, a), btr */
    for (PetscInt a = 0; a < p->m; a++)
      for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
        const PetscReal *B = p->bval + 9 * (size_t)k, *T = p->bval + 9 * (size_t)p->btr[k];
        if (p->bcol[k] < a) continue; /* each pair once */
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++)
            if (B[3 * i + j] != T[3 * j + i]) return PETSC_FALSE;
      }
    return PETSC_TRUE;
  }
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = i + 1; j < n; j++)
      if (p->W[(size_t)i * n + j] != p->W[(size_t)j * n + i]) return PETSC_FALSE;
  return PETSC_TRUE;
}

void FcContactProblemAsymmetry(FcContactProblem p, PetscReal *asym, PetscReal *wmax, PetscInt *row, PetscInt *col)
{
  const size_t n = 3 * (size_t)p->m;

  *asym = 0;
  *wmax = 0;
  *row = *col = -1;
  if (!p->W) { /* entry (3a+i, 3b+j) of block k = (a, b) against entry (3b+j, 3a+i) of block btr[k] */
    for (PetscInt a = 0; a < p->m; a++)
      for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
        const PetscReal *B = p->bval + 9 * (size_t)k, *T = p->bval + 9 * (size_t)p->btr[k];
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            const PetscReal d = PetscAbsReal(B[3 * i + j] - T[3 * j + i]);
            *wmax             = PetscMax(*wmax, PetscAbsReal(B[3 * i + j]));
            if (d > *asym) {
              *asym = d;
              *row  = 3 * a + i;
              *col  = 3 * p->bcol[k] + j;
            }
          }
      }
    return;
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      const PetscReal d = PetscAbsReal(p->W[i * n + j] - p->W[j * n + i]);
      *wmax             = PetscMax(*wmax, PetscAbsReal(p->W[i * n + j]));
      if (d > *asym) {
        *asym = d;
        *row  = (PetscInt)i;
        *col  = (PetscInt)j;
      }
    }
}

/* Sparse: u_b += W_ba d for the blocks b of column a, i.e. of row a by the symmetric pattern.
 * W symmetric: W_ba = W_abᵀ, read from row a's own blocks (contiguous); otherwise from the
 * transposed blocks btr[k]. The sums are those of the dense paths in the same order, so both
 * forms update u identically. */
void FcContactProblemAddColumn(FcContactProblem p, PetscBool symmetric, PetscInt a, const PetscReal d[3], PetscReal u[])
{
  const PetscInt   n = 3 * p->m;
  const PetscReal *W = p->W;
  /* d in registers: read through the pointer, it would be reloaded after every store into u
   * (which it might alias); the hot loop of nsgs's sweep (doc/contact.md "Speed against Siconos").
   * The same operations in the same order as the dense paths. */
  const PetscReal d0 = d[0], d1 = d[1], d2 = d[2];
  if (!W) {
    const PetscInt k0 = p->bptr[a], k1 = p->bptr[a + 1];
    if (symmetric) {
#if defined(__SSE2__) && defined(PETSC_USE_REAL_DOUBLE)
      /* rows 0 and 1 of the block's column sums two by two (SSE2, in every x86-64): each lane does
       * the scalar code's operations in its order, so the sums are the same bit for bit */
      const __m128d D0 = _mm_set1_pd(d0), D1 = _mm_set1_pd(d1), D2 = _mm_set1_pd(d2);
      for (PetscInt k = k0; k < k1; k++) {
        PetscReal       *ub = u + 3 * p->bcol[k];
        const PetscReal *B  = p->bval + 9 * (size_t)k;
        const __m128d    x  = _mm_add_pd(_mm_add_pd(_mm_mul_pd(_mm_loadu_pd(B), D0), _mm_mul_pd(_mm_loadu_pd(B + 3), D1)), _mm_mul_pd(_mm_loadu_pd(B + 6), D2));
        const PetscReal  x2 = B[2] * d0 + B[5] * d1 + B[8] * d2;
        _mm_storeu_pd(ub, _mm_add_pd(_mm_loadu_pd(ub), x));
        ub[2] += x2;
      }
#else
      for (PetscInt k = k0; k < k1; k++) {
        PetscReal       *ub = u + 3 * p->bcol[k];
        const PetscReal *B  = p->bval + 9 * (size_t)k;
        const PetscReal  x0 = B[0] * d0 + B[3] * d1 + B[6] * d2, x1 = B[1] * d0 + B[4] * d1 + B[7] * d2, x2 = B[2] * d0 + B[5] * d1 + B[8] * d2;
        ub[0] += x0;
        ub[1] += x1;
        ub[2] += x2;
      }
#endif
    } else
      for (PetscInt k = k0; k < k1; k++) {
        PetscReal       *ub = u + 3 * p->bcol[k];
        const PetscReal *T  = p->bval + 9 * (size_t)p->btr[k];
        const PetscReal  x0 = T[0] * d0 + T[1] * d1 + T[2] * d2, x1 = T[3] * d0 + T[4] * d1 + T[5] * d2, x2 = T[6] * d0 + T[7] * d1 + T[8] * d2;
        ub[0] += x0;
        ub[1] += x1;
        ub[2] += x2;
      }
    return;
  }
  if (symmetric) {
    const PetscReal *W0 = W + (size_t)(3 * a) * n, *W1 = W0 + n, *W2 = W1 + n;
    for (PetscInt i = 0; i < n; i++) u[i] += W0[i] * d0 + W1[i] * d1 + W2[i] * d2;
  } else {
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal *Wi = W + (size_t)i * n + 3 * a;
      u[i] += Wi[0] * d0 + Wi[1] * d1 + Wi[2] * d2;
    }
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The block pattern of a Delassus operator from body → contacts lists (issue 12, item 1).
 *
 * W = Σ_k H_k A_k⁻¹ H_kᵀ: body k contributes the block H_ak A_k⁻¹ H_bkᵀ to every pair (a, b) of
 * contacts that both touch it, and nothing elsewhere, so the blocks of W that can be nonzero are
 * the union over bodies of (contacts of k) × (contacts of k) — a dense block per body, no block
 * between contacts that share no body (duriez2006 eq. 16–18 written per body). */

/* Contacts of each group, inverted: for each contact the groups it belongs to (CSR). */
static PetscErrorCode GroupsOfContacts_Private(PetscInt m, PetscInt ngroups, const PetscInt gptr[], const PetscInt gcon[], PetscInt **cptr, PetscInt **cgrp)
{
  PetscInt *next;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1((size_t)m + 1, cptr));
  for (PetscInt g = 0; g < ngroups; g++)
    for (PetscInt e = gptr[g]; e < gptr[g + 1]; e++) {
      PetscCheck(gcon[e] >= 0 && gcon[e] < m, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
        "Contact %" PetscInt_FMT " of group %" PetscInt_FMT " is outside 0..%" PetscInt_FMT, gcon[e], g, m - 1);
      (*cptr)[gcon[e] + 1]++;
    }
  for (PetscInt a = 0; a < m; a++) (*cptr)[a + 1] += (*cptr)[a];
  PetscCall(PetscMalloc1((size_t)(*cptr)[m] + 1, cgrp));
  PetscCall(PetscMalloc1((size_t)m + 1, &next));
  for (PetscInt a = 0; a < m; a++) next[a] = (*cptr)[a];
  for (PetscInt g = 0; g < ngroups; g++)
    for (PetscInt e = gptr[g]; e < gptr[g + 1]; e++) (*cgrp)[next[gcon[e]]++] = g;
  PetscCall(PetscFree(next));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactBlockPatternFromGroups(
  PetscInt m, PetscInt ngroups, const PetscInt gptr[], const PetscInt gcon[], PetscInt **ptr, PetscInt **col, PetscInt64 *nblocks)
{
  PetscInt  *cptr, *cgrp, *mark;
  PetscInt64 nb = 0;

  PetscFunctionBegin;
  PetscCheck(m >= 0 && ngroups >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative number of contacts or groups");
  PetscCheck((ptr == NULL) == (col == NULL), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Ask for both ptr and col, or neither");
  PetscCall(GroupsOfContacts_Private(m, ngroups, gptr, gcon, &cptr, &cgrp));
  PetscCall(PetscMalloc1((size_t)m + 1, &mark));
  if (ptr) PetscCall(PetscMalloc1((size_t)m + 1, ptr));
  /* pass 0 counts (mark[b] = a: block (a, b) seen in row a), pass 1 fills */
  for (int pass = 0; pass < (ptr ? 2 : 1); pass++) {
    PetscInt64 k = 0;
    for (PetscInt a = 0; a < m; a++) mark[a] = -1;
    if (pass) (*ptr)[0] = 0;
    for (PetscInt a = 0; a < m; a++) {
      const PetscInt64 k0 = k;
      mark[a]             = a; /* every diagonal block (FcContactProblemCreateSparse adds it anyway) */
      if (pass) (*col)[k] = a;
      k++;
      for (PetscInt e = cptr[a]; e < cptr[a + 1]; e++) {
        const PetscInt g = cgrp[e];
        for (PetscInt f = gptr[g]; f < gptr[g + 1]; f++) {
          const PetscInt b = gcon[f];
          if (mark[b] == a) continue;
          mark[b] = a;
          if (pass) (*col)[k] = b;
          k++;
        }
      }
      if (pass) {
        PetscCall(PetscSortInt((PetscInt)(k - k0), *col + k0));
        (*ptr)[a + 1] = (PetscInt)k;
      }
    }
    if (!pass) {
      nb = k;
      if (ptr) {
        PetscCheck(nb <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "%" PetscInt64_FMT " blocks exceed the integer range of this PETSc build", nb);
        PetscCall(PetscMalloc1((size_t)nb + 1, col));
      }
    }
  }
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree(cptr));
  PetscCall(PetscFree(cgrp));
  if (nblocks) *nblocks = nb;
  PetscFunctionReturn(0);
}

PetscBool FcContactWChooseSparse(FcContactWChoice choice, PetscInt m, PetscInt64 nblocks)
{
  if (choice == FC_CONTACT_W_CHOOSE_AUTO) return FcContactProblemPreferSparse(m, nblocks);
  return (PetscBool)(choice == FC_CONTACT_W_CHOOSE_SPARSE);
}

PetscErrorCode FcContactWChoiceFromOptions(FcContactWChoice *choice)
{
  static const char *const names[] = {"auto", "dense", "sparse"};
  char                     v[64];
  PetscBool                set;

  PetscFunctionBegin;
  *choice = FC_CONTACT_W_CHOOSE_AUTO;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-fc_contact_w_storage", v, sizeof v, &set));
  if (!set) PetscFunctionReturn(0);
  for (int k = 0; k < 3; k++)
    if (!strcmp(v, names[k])) {
      *choice = (FcContactWChoice)k;
      PetscFunctionReturn(0);
    }
  return FcInputError("options", "-fc_contact_w_storage", "\"%s\" is not allowed (choices: auto, dense, sparse)", v);
}

/* W ← ½ (W + Wᵀ) on a block-sparse W: on each pair of blocks (a, b), b ≥ a, entry (i, j) and its
 * transpose become ½ (B_ij + T_ji), the operation the dense loops do on (3a + i, 3b + j) with i < j
 * in the dense numbering: both storages give the same bits. */
PetscErrorCode FcContactProblemSymmetrizeBlocks(FcContactProblem p)
{
  PetscFunctionBegin;
  PetscCheck(!p->W, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "W is dense");
  for (PetscInt a = 0; a < p->m; a++)
    for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
      PetscReal *B = p->bval + 9 * (size_t)k, *T = p->bval + 9 * (size_t)p->btr[k];
      if (p->bcol[k] < a) continue;
      for (int i = 0; i < 3; i++)
        for (int j = (p->bcol[k] == a ? i + 1 : 0); j < 3; j++) {
          PetscReal w  = 0.5 * (B[3 * i + j] + T[3 * j + i]);
          B[3 * i + j] = T[3 * j + i] = w;
        }
    }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactProblemSymmetrize(FcContactProblem p)
{
  const size_t n = 3 * (size_t)p->m;

  PetscFunctionBegin;
  if (!p->W) {
    PetscCall(FcContactProblemSymmetrizeBlocks(p));
    PetscFunctionReturn(0);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) p->W[i * n + j] = p->W[j * n + i] = 0.5 * (p->W[i * n + j] + p->W[j * n + i]);
  PetscFunctionReturn(0);
}
