/* fcsim — the Schur complement of a Newton matrix onto the participating DoFs (han2023 §VI-A,
 * VI-B, eq. 14–18), computed by MUMPS through PETSc (doc/schur.md).
 *
 * MatFactorSetSchurIS(F, p) before the analysis makes MUMPS (ICNTL(19)) order the p DoFs last
 * and stop the factorization after the n block: the trailing block it leaves is the Schur
 * complement Â = A_pp − A_pn A_nn⁻¹ A_np (han2023 eq. 18), returned densely (lower triangle for
 * the symmetric factorization). PETSc keeps it in the factor (F->schur); we copy it
 * (MatFactorCreateSchurComplement) before PETSc factors it in place, densely
 * (MatFactorFactorizeSchurComplement: LAPACK potrf when A is flagged SPD, Bunch–Kaufman sytrf
 * when only symmetric, getrf for LU). With the Schur indices set, PETSc's MatSolve/MatMatSolve
 * of a MUMPS factor still return the full solution A⁻¹ b, in three phases
 * (src/mat/impls/aij/mpi/mumps/mumps.c, MatSolve_MUMPS and MatMumpsHandleSchur_Private): MUMPS
 * condensation (ICNTL(26) = 1: forward elimination, reduced right-hand side
 * b̂_p = b_p − A_pn A_nn⁻¹ b_n), PETSc's dense solve Â x_p = b̂_p with the factored (or inverted)
 * Schur complement, and MUMPS expansion (ICNTL(26) = 2: x_n = A_nn⁻¹ (b_n − A_np x_p), eq. 15).
 * The Schur complement is factored once per numeric factorization; FcSchurDelassus inverts it in
 * place (MatFactorInvertSchurComplement) when that is cheaper than the triangular solves. The
 * reduced right-hand side itself is internal to MUMPS, which is why FcSchurRecoverInterior goes
 * through two full solves (see there). */
#include "schur.h"

struct _n_FcSchur {
  PetscInt      n, np;
  PetscInt     *idx; /* participating DoFs, Â's order */
  PetscInt     *pos; /* pos[dof] = k when dof = idx[k], else -1 */
  IS            isp; /* idx as an IS (MatFactorSetSchurIS) */
  MatFactorType ftype;
  Mat           F;     /* MUMPS factor with the Schur indices (NULL when np = n) */
  Mat           Ahat;  /* dense copy of Â, np × np */
  Mat           Ahatf; /* np = n: dense factor of Â = A (no sparse factorization then) */
  FcSchurInfo   info;
};

/* D(k, l) = A(idx[k], idx[l]) as a dense np × np matrix (np = n: A itself, permuted). */
static PetscErrorCode DenseBlock_Private(FcSchur s, Mat A, Mat *D)
{
  PetscScalar *d;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, s->np, s->np, NULL, D));
  PetscCall(MatDenseGetArrayWrite(*D, &d));
  PetscCall(PetscArrayzero(d, s->np * s->np));
  for (PetscInt k = 0; k < s->np; k++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;
    PetscCall(MatGetRow(A, s->idx[k], &nc, &cols, &vals));
    for (PetscInt j = 0; j < nc; j++)
      if (s->pos[cols[j]] >= 0) d[k + s->pos[cols[j]] * s->np] = vals[j];
    PetscCall(MatRestoreRow(A, s->idx[k], &nc, &cols, &vals));
  }
  PetscCall(MatDenseRestoreArrayWrite(*D, &d));
  PetscFunctionReturn(0);
}

/* Numeric factorization, then Â (copied) and its dense factorization; the analysis is done. */
static PetscErrorCode Numeric_Private(FcSchur s, Mat A)
{
  MatFactorInfo  finfo;
  MatFactorError err;
  PetscReal      t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(MatFactorInfoInitialize(&finfo));
  PetscCall(MatDestroy(&s->Ahat));
  PetscCall(MatDestroy(&s->Ahatf));
  PetscCall(PetscTime(&t0));
  if (s->np == s->n) {
    /* every DoF participates: Â = A (han2023 eq. 14 with an empty n block), factored dense */
    PetscBool set, spd;
    PetscCall(DenseBlock_Private(s, A, &s->Ahat));
    PetscCall(MatDuplicate(s->Ahat, MAT_COPY_VALUES, &s->Ahatf));
    PetscCall(MatIsSPDKnown(A, &set, &spd));
    if (set && spd) PetscCall(MatSetOption(s->Ahatf, MAT_SPD, PETSC_TRUE));
    if (s->ftype == MAT_FACTOR_CHOLESKY) PetscCall(MatCholeskyFactor(s->Ahatf, NULL, &finfo));
    else PetscCall(MatLUFactor(s->Ahatf, NULL, NULL, &finfo));
    PetscCall(PetscTime(&t2));
    s->info.t_numeric      = 0;
    s->info.t_complement   = t2 - t0;
    s->info.factor_entries = 0;
    PetscFunctionReturn(0);
  }
  if (s->ftype == MAT_FACTOR_CHOLESKY) PetscCall(MatCholeskyFactorNumeric(s->F, A, &finfo));
  else PetscCall(MatLUFactorNumeric(s->F, A, &finfo));
  PetscCall(MatFactorGetError(s->F, &err));
  PetscCheck(err == MAT_FACTOR_NOERROR, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT,
    "FcSchur: the MUMPS factorization of the %" PetscInt_FMT " x %" PetscInt_FMT
    " Newton matrix failed (MatFactorError %d): the matrix is singular or MUMPS ran out of memory",
    s->n, s->n, (int)err);
  {
    PetscInt e;
    PetscCall(MatMumpsGetInfog(s->F, 29, &e));
    s->info.factor_entries = e >= 0 ? (PetscInt64)e : (PetscInt64)(-e) * 1000000; /* MUMPS: < 0 means millions */
  }
  PetscCall(PetscTime(&t1));
  if (s->np > 0) {
    /* copy Â before PETSc factors it in place (status FACTORED until the next numeric
     * factorization, which resets it to UNFACTORED) */
    PetscCall(MatFactorCreateSchurComplement(s->F, &s->Ahat, NULL));
    PetscCall(MatFactorFactorizeSchurComplement(s->F));
  } else PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, 0, 0, NULL, &s->Ahat));
  PetscCall(PetscTime(&t2));
  s->info.t_numeric    = t1 - t0;
  s->info.t_complement = t2 - t1;
  s->info.t_inverse    = 0;
  s->info.inverted     = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* Y = Â⁻¹ B (np × k dense) with whatever form of Â the factor holds: the dense factor (LAPACK
 * triangular solves, 2 np² k flops) or, after an inversion, Â⁻¹ itself (one gemm, same count). */
static PetscErrorCode ComplementApply_Private(FcSchur s, Mat B, Mat Y)
{
  PetscFunctionBegin;
  if (s->F) {
    Mat                  S;
    MatFactorSchurStatus st;
    PetscCall(MatFactorGetSchurComplement(s->F, &S, &st));
    if (st == MAT_FACTOR_SCHUR_FACTORED) PetscCall(MatMatSolve(S, B, Y));
    else {
      PetscCheck(st == MAT_FACTOR_SCHUR_INVERTED, PETSC_COMM_SELF, PETSC_ERR_PLIB, "FcSchur: the Schur complement is neither factored nor inverted (status %d)",
        (int)st);
      PetscCall(MatProductCreateWithMat(S, B, NULL, Y));
      PetscCall(MatProductSetType(Y, MATPRODUCT_AB));
      PetscCall(MatProductSetFromOptions(Y));
      PetscCall(MatProductSymbolic(Y));
      PetscCall(MatProductNumeric(Y));
      PetscCall(MatProductClear(Y));
    }
    PetscCall(MatFactorRestoreSchurComplement(s->F, &S, st));
  } else PetscCall(MatMatSolve(s->Ahatf, B, Y));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurCreate(Mat A, IS participating, FcSchur *sout)
{
  FcSchur         s;
  PetscMPIInt     size;
  PetscInt        m, nloc;
  const PetscInt *ix;
  PetscBool       set, sym;

  PetscFunctionBegin;
  *sout = NULL;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  PetscCheck(size == 1, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP,
    "FcSchur: Schur complements of MUMPS factors are sequential in PETSc (one process per body matrix)");
  PetscCall(MatGetSize(A, &m, &nloc));
  PetscCheck(m == nloc, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "FcSchur: the matrix is %" PetscInt_FMT " x %" PetscInt_FMT ", not square", m, nloc);
  PetscCall(PetscNew(&s));
  s->n = m;
  PetscCall(ISGetLocalSize(participating, &s->np));
  PetscCall(PetscMalloc1(s->np, &s->idx));
  PetscCall(PetscMalloc1(s->n, &s->pos));
  for (PetscInt i = 0; i < s->n; i++) s->pos[i] = -1;
  PetscCall(ISGetIndices(participating, &ix));
  for (PetscInt k = 0; k < s->np; k++) {
    const PetscInt d = ix[k];
    if (d < 0 || d >= s->n || s->pos[d] >= 0) {
      PetscCall(ISRestoreIndices(participating, &ix));
      PetscCall(FcSchurDestroy(&s));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcSchur: participating DoF %" PetscInt_FMT " (entry %" PetscInt_FMT ") is %s", d, k,
        d < 0 || d >= m ? "out of range" : "repeated");
    }
    s->idx[k] = d;
    s->pos[d] = k;
  }
  PetscCall(ISRestoreIndices(participating, &ix));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, s->np, s->idx, PETSC_COPY_VALUES, &s->isp));
  PetscCall(MatIsSymmetricKnown(A, &set, &sym));
  s->ftype      = set && sym ? MAT_FACTOR_CHOLESKY : MAT_FACTOR_LU;
  s->info.n     = s->n;
  s->info.np    = s->np;
  s->info.ftype = s->ftype;
  if (s->np < s->n) {
    MatFactorInfo finfo;
    PetscReal     t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(MatGetFactor(A, MATSOLVERMUMPS, s->ftype, &s->F));
    /* the Schur indices must be known to the analysis: MUMPS orders them last (han2023 §VI-B
     * permutes p after n likewise) and orders each part to reduce fill */
    if (s->np > 0) PetscCall(MatFactorSetSchurIS(s->F, s->isp));
    PetscCall(MatFactorInfoInitialize(&finfo));
    if (s->ftype == MAT_FACTOR_CHOLESKY) PetscCall(MatCholeskyFactorSymbolic(s->F, A, NULL, &finfo));
    else PetscCall(MatLUFactorSymbolic(s->F, A, NULL, NULL, &finfo));
    PetscCall(PetscTime(&t1));
    s->info.t_symbolic = t1 - t0;
  }
  {
    /* a failed factorization (singular A) must not leak the half-built object */
    PetscErrorCode ierr = Numeric_Private(s, A);
    if (ierr) {
      PetscCall(FcSchurDestroy(&s));
      return ierr;
    }
  }
  *sout = s;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurUpdate(FcSchur s, Mat A)
{
  PetscInt m;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &m, NULL));
  PetscCheck(m == s->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "FcSchur: update with a %" PetscInt_FMT "-row matrix, factored %" PetscInt_FMT, m, s->n);
  PetscCall(Numeric_Private(s, A));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurGetComplement(FcSchur s, Mat *Ahat)
{
  PetscFunctionBegin;
  *Ahat = s->Ahat;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurGetParticipating(FcSchur s, PetscInt *np, const PetscInt **idx)
{
  PetscFunctionBegin;
  if (np) *np = s->np;
  if (idx) *idx = s->idx;
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurGetInfo(FcSchur s, FcSchurInfo *info)
{
  PetscFunctionBegin;
  *info = s->info;
  PetscFunctionReturn(0);
}

/* np = n: rows of a full-length dense B (n × k) permuted to Â's order and back. */
static PetscErrorCode PermuteRows_Private(FcSchur s, Mat B, Mat Bp, PetscBool forward)
{
  PetscScalar *b, *bp;
  PetscInt     k, ldb, ldp;

  PetscFunctionBegin;
  PetscCall(MatGetSize(B, NULL, &k));
  PetscCall(MatDenseGetArray(B, &b));
  PetscCall(MatDenseGetArray(Bp, &bp));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(MatDenseGetLDA(Bp, &ldp));
  for (PetscInt j = 0; j < k; j++)
    for (PetscInt i = 0; i < s->np; i++) {
      if (forward) bp[i + j * ldp] = b[s->idx[i] + j * ldb];
      else b[s->idx[i] + j * ldb] = bp[i + j * ldp];
    }
  PetscCall(MatDenseRestoreArray(Bp, &bp));
  PetscCall(MatDenseRestoreArray(B, &b));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurMatSolve(FcSchur s, Mat B, Mat X)
{
  PetscFunctionBegin;
  if (s->F) {
    /* condensation, dense Schur solve, expansion (eq. 15) inside PETSc's MUMPS interface */
    PetscCall(MatMatSolve(s->F, B, X));
  } else {
    Mat      Bp, Xp;
    PetscInt k;
    PetscCall(MatGetSize(B, NULL, &k));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, s->np, k, NULL, &Bp));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, s->np, k, NULL, &Xp));
    PetscCall(PermuteRows_Private(s, B, Bp, PETSC_TRUE));
    PetscCall(MatMatSolve(s->Ahatf, Bp, Xp));
    PetscCall(PermuteRows_Private(s, X, Xp, PETSC_FALSE));
    PetscCall(MatDestroy(&Bp));
    PetscCall(MatDestroy(&Xp));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurSolve(FcSchur s, Vec b, Vec x)
{
  PetscFunctionBegin;
  PetscCheck(b != x, PETSC_COMM_SELF, PETSC_ERR_ARG_IDN, "FcSchurSolve: b and x must be different vectors");
  if (s->F) PetscCall(MatSolve(s->F, b, x));
  else {
    Vec                bp, xp;
    const PetscScalar *ba;
    PetscScalar       *a;
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, s->np, &bp));
    PetscCall(VecDuplicate(bp, &xp));
    PetscCall(VecGetArrayRead(b, &ba));
    PetscCall(VecGetArrayWrite(bp, &a));
    for (PetscInt k = 0; k < s->np; k++) a[k] = ba[s->idx[k]];
    PetscCall(VecRestoreArrayWrite(bp, &a));
    PetscCall(VecRestoreArrayRead(b, &ba));
    PetscCall(MatSolve(s->Ahatf, bp, xp));
    PetscCall(VecGetArrayRead(xp, &ba));
    PetscCall(VecGetArrayWrite(x, &a));
    for (PetscInt k = 0; k < s->np; k++) a[s->idx[k]] = ba[k];
    PetscCall(VecRestoreArrayWrite(x, &a));
    PetscCall(VecRestoreArrayRead(xp, &ba));
    PetscCall(VecDestroy(&bp));
    PetscCall(VecDestroy(&xp));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurSolveComplement(FcSchur s, Mat B, Mat Y)
{
  PetscInt k;

  PetscFunctionBegin;
  if (!s->np) PetscFunctionReturn(0);
  PetscCall(MatGetSize(B, NULL, &k));
  if (k) PetscCall(ComplementApply_Private(s, B, Y));
  PetscFunctionReturn(0);
}

/* x_n = A_nn⁻¹ (b_n − A_np x_p) (han2023 eq. 15) from the full solves of the factorization.
 * PETSc exposes neither MUMPS's reduced right-hand side nor a solve with A_nn alone, so this
 * uses the block structure of A⁻¹ instead: with x* = A⁻¹ b (x*_p = Â⁻¹ b̂_p) and δ = x_p − x*_p,
 *     A⁻¹ [0; Â δ] = [−A_nn⁻¹ A_np δ; δ]      (the inverse of eq. 14 with a zero n block)
 * so x = x* + A⁻¹ [0; Â δ] has x_n = A_nn⁻¹ (b_n − A_np x*_p) − A_nn⁻¹ A_np δ, which is eq. 15. */
PetscErrorCode FcSchurRecoverInterior(FcSchur s, Vec b, Vec xp_full, Vec x)
{
  Vec                xs, f, w;
  PetscScalar       *fa, *xa, *d;
  const PetscScalar *xpa, *xsa, *ah;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b, &xs));
  PetscCall(FcSchurSolve(s, b, xs));
  PetscCall(VecDuplicate(b, &f));
  PetscCall(VecDuplicate(b, &w));
  PetscCall(PetscMalloc1(s->np, &d));
  PetscCall(VecGetArrayRead(xp_full, &xpa));
  PetscCall(VecGetArrayRead(xs, &xsa));
  for (PetscInt k = 0; k < s->np; k++) d[k] = xpa[s->idx[k]] - xsa[s->idx[k]];
  PetscCall(VecRestoreArrayRead(xs, &xsa));
  PetscCall(VecSet(f, 0.0));
  PetscCall(VecGetArray(f, &fa));
  PetscCall(MatDenseGetArrayRead(s->Ahat, &ah));
  for (PetscInt j = 0; j < s->np; j++)
    for (PetscInt i = 0; i < s->np; i++) fa[s->idx[i]] += ah[i + j * s->np] * d[j];
  PetscCall(MatDenseRestoreArrayRead(s->Ahat, &ah));
  PetscCall(VecRestoreArray(f, &fa));
  PetscCall(FcSchurSolve(s, f, w));
  PetscCall(VecWAXPY(x, 1.0, w, xs));
  /* the p part is x_p by construction; keep the given values exactly */
  PetscCall(VecGetArray(x, &xa));
  for (PetscInt k = 0; k < s->np; k++) xa[s->idx[k]] = xpa[s->idx[k]];
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecRestoreArrayRead(xp_full, &xpa));
  PetscCall(PetscFree(d));
  PetscCall(VecDestroy(&xs));
  PetscCall(VecDestroy(&f));
  PetscCall(VecDestroy(&w));
  PetscFunctionReturn(0);
}

/* W = J_p Â⁻¹ J_pᵀ: J A⁻¹ Jᵀ restricted to the participating DoFs (han2023 eq. 16–17), with the
 * sparse rows of J_p. U = Â⁻¹ J_pᵀ (np × nrows) is formed one of two ways, whichever costs fewer
 * flops: triangular solves with the dense factor (2 np² nrows), or, when nrows > np/3, an
 * in-place inversion of the factored Â once per factorization (potri/sytri/getri, ≈ ⅔ np³;
 * later solves then cost a product) after which a column of U is a combination of the few
 * columns of Â⁻¹ that its row of J_p touches (2 nnz np). Then W(i, j) = Σ_q J_p(i, q) U(q, j)
 * (2 nnz nrows). */
PetscErrorCode FcSchurDelassusCSR(FcSchur s, PetscInt nrows, const PetscInt *rowptr, const PetscInt *cols, const PetscReal *vals, PetscReal *W)
{
  const PetscInt       np = s->np;
  PetscScalar         *U;
  Mat                  Um, S = NULL;
  MatFactorSchurStatus st = MAT_FACTOR_SCHUR_FACTORED;

  PetscFunctionBegin;
  if (nrows <= 0) PetscFunctionReturn(0);
  if (!np || !rowptr[nrows]) {
    PetscCall(PetscArrayzero(W, nrows * nrows)); /* J has no non-zero column: J A⁻¹ Jᵀ = 0 */
    PetscFunctionReturn(0);
  }
  for (PetscInt q = 0; q < rowptr[nrows]; q++)
    PetscCheck(cols[q] >= 0 && cols[q] < np, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "FcSchurDelassus: column %" PetscInt_FMT " is not a participating index (np = %" PetscInt_FMT ")", cols[q], np);
  PetscCall(PetscCalloc1(np * nrows, &U));
  if (s->F) {
    PetscCall(MatFactorGetSchurComplement(s->F, &S, &st));
    PetscCall(MatFactorRestoreSchurComplement(s->F, &S, st));
    if (st == MAT_FACTOR_SCHUR_FACTORED && 3 * nrows > np) {
      PetscReal t0, t1;
      PetscCall(PetscTime(&t0));
      PetscCall(MatFactorInvertSchurComplement(s->F));
      PetscCall(PetscTime(&t1));
      s->info.t_inverse += t1 - t0;
      s->info.inverted = PETSC_TRUE;
      st               = MAT_FACTOR_SCHUR_INVERTED;
    }
  }
  if (st == MAT_FACTOR_SCHUR_INVERTED) {
    const PetscScalar *ai;
    PetscInt           ld;
    PetscCall(MatFactorGetSchurComplement(s->F, &S, &st));
    PetscCall(MatDenseGetArrayRead(S, &ai));
    PetscCall(MatDenseGetLDA(S, &ld));
    for (PetscInt j = 0; j < nrows; j++) {
      PetscScalar *u = U + j * np;
      for (PetscInt q = rowptr[j]; q < rowptr[j + 1]; q++) {
        const PetscScalar  c   = vals[q];
        const PetscScalar *col = ai + cols[q] * ld;
        for (PetscInt i = 0; i < np; i++) u[i] += c * col[i];
      }
    }
    PetscCall(MatDenseRestoreArrayRead(S, &ai));
    PetscCall(MatFactorRestoreSchurComplement(s->F, &S, st));
    PetscCall(PetscLogFlops(2.0 * rowptr[nrows] * np));
  } else {
    Mat          Jt;
    PetscScalar *ja;
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, np, nrows, NULL, &Jt));
    PetscCall(MatDenseGetArrayWrite(Jt, &ja));
    PetscCall(PetscArrayzero(ja, np * nrows));
    for (PetscInt j = 0; j < nrows; j++)
      for (PetscInt q = rowptr[j]; q < rowptr[j + 1]; q++) ja[j * np + cols[q]] += vals[q];
    PetscCall(MatDenseRestoreArrayWrite(Jt, &ja));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, np, nrows, U, &Um));
    PetscCall(ComplementApply_Private(s, Jt, Um));
    PetscCall(MatDestroy(&Um));
    PetscCall(MatDestroy(&Jt));
  }
  for (PetscInt i = 0; i < nrows; i++)
    for (PetscInt j = 0; j < nrows; j++) {
      const PetscScalar *u = U + j * np;
      PetscScalar        w = 0;
      for (PetscInt q = rowptr[i]; q < rowptr[i + 1]; q++) w += vals[q] * u[cols[q]];
      W[i * nrows + j] = w;
    }
  for (PetscInt i = 0; i < nrows; i++)
    for (PetscInt j = i + 1; j < nrows; j++) W[i * nrows + j] = W[j * nrows + i] = 0.5 * (W[i * nrows + j] + W[j * nrows + i]);
  PetscCall(PetscLogFlops(2.0 * rowptr[nrows] * nrows));
  PetscCall(PetscFree(U));
  PetscFunctionReturn(0);
}

/* The dense-J_p form: its non-zeros gathered into CSR (one O(nrows np) scan). */
PetscErrorCode FcSchurDelassus(FcSchur s, PetscInt nrows, const PetscReal *Jp, PetscReal *W)
{
  PetscInt  *rowptr, *cols, nnz = 0;
  PetscReal *vals;

  PetscFunctionBegin;
  if (nrows <= 0) PetscFunctionReturn(0);
  if (!s->np) {
    PetscCall(PetscArrayzero(W, nrows * nrows));
    PetscFunctionReturn(0);
  }
  for (PetscInt i = 0; i < nrows * s->np; i++) nnz += Jp[i] != 0;
  PetscCall(PetscMalloc3(nrows + 1, &rowptr, nnz, &cols, nnz, &vals));
  rowptr[0] = 0;
  for (PetscInt i = 0, q = 0; i < nrows; i++) {
    for (PetscInt k = 0; k < s->np; k++)
      if (Jp[i * s->np + k] != 0) {
        cols[q]   = k;
        vals[q++] = Jp[i * s->np + k];
      }
    rowptr[i + 1] = q;
  }
  PetscCall(FcSchurDelassusCSR(s, nrows, rowptr, cols, vals, W));
  PetscCall(PetscFree3(rowptr, cols, vals));
  PetscFunctionReturn(0);
}

PetscErrorCode FcSchurDestroy(FcSchur *s)
{
  PetscFunctionBegin;
  if (!*s) PetscFunctionReturn(0);
  PetscCall(MatDestroy(&(*s)->F));
  PetscCall(MatDestroy(&(*s)->Ahat));
  PetscCall(MatDestroy(&(*s)->Ahatf));
  PetscCall(ISDestroy(&(*s)->isp));
  PetscCall(PetscFree((*s)->idx));
  PetscCall(PetscFree((*s)->pos));
  PetscCall(PetscFree(*s));
  PetscFunctionReturn(0);
}
