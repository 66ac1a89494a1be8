/* fcsim — FCLIB's global problem: storage and the local reformulation (global_problem.h). */
#include "global_problem.h"

PetscErrorCode FcGlobalProblemCreate(PetscInt n, PetscInt m, FcGlobalProblem *gp)
{
  FcGlobalProblem g;

  PetscFunctionBegin;
  PetscCheck(n >= 1 && m >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
    "A global problem needs n >= 1 velocities and m >= 1 contacts (got n = %" PetscInt_FMT ", m = %" PetscInt_FMT ")", n, m);
  PetscCall(PetscNew(&g));
  g->n = n;
  g->m = m;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &g->f));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 3 * m, &g->w));
  PetscCall(VecSet(g->f, 0.0));
  PetscCall(VecSet(g->w, 0.0));
  PetscCall(PetscCalloc1(m, &g->mu));
  PetscCall(PetscStrncpy(g->source, "global problem", sizeof g->source));
  *gp = g;
  PetscFunctionReturn(0);
}

PetscErrorCode FcGlobalProblemDestroy(FcGlobalProblem *gp)
{
  PetscFunctionBegin;
  if (!gp || !*gp) PetscFunctionReturn(0);
  PetscCall(MatDestroy(&(*gp)->M));
  PetscCall(MatDestroy(&(*gp)->H));
  PetscCall(VecDestroy(&(*gp)->f));
  PetscCall(VecDestroy(&(*gp)->w));
  PetscCall(PetscFree((*gp)->mu));
  PetscCall(PetscFree(*gp));
  PetscFunctionReturn(0);
}

PetscErrorCode FcMatMaxAbs(Mat A, PetscReal *mx)
{
  PetscInt m;

  PetscFunctionBegin;
  *mx = 0;
  PetscCall(MatGetSize(A, &m, NULL));
  for (PetscInt i = 0; i < m; i++) {
    PetscInt           nc;
    const PetscScalar *v;
    PetscCall(MatGetRow(A, i, &nc, NULL, &v));
    for (PetscInt k = 0; k < nc; k++) *mx = PetscMax(*mx, PetscAbsScalar(v[k]));
    PetscCall(MatRestoreRow(A, i, &nc, NULL, &v));
  }
  PetscFunctionReturn(0);
}

/* H (n × 3m AIJ) by columns: hp (3m + 1 pointers), hi (rows), hx (values), rows ascending within
 * a column. */
static PetscErrorCode ColumnsOfH_Private(Mat H, PetscInt n, PetscInt n3, PetscInt **hp, PetscInt **hi, PetscReal **hx)
{
  PetscInt *next;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n3 + 1, hp));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt        nc;
    const PetscInt *cols;
    PetscCall(MatGetRow(H, i, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++) (*hp)[cols[k] + 1]++;
    PetscCall(MatRestoreRow(H, i, &nc, &cols, NULL));
  }
  for (PetscInt j = 0; j < n3; j++) (*hp)[j + 1] += (*hp)[j];
  PetscCall(PetscMalloc2((*hp)[n3], hi, (*hp)[n3], hx));
  PetscCall(PetscMalloc1(n3, &next));
  for (PetscInt j = 0; j < n3; j++) next[j] = (*hp)[j];
  for (PetscInt i = 0; i < n; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *v;
    PetscCall(MatGetRow(H, i, &nc, &cols, &v));
    for (PetscInt k = 0; k < nc; k++) {
      (*hi)[next[cols[k]]]   = i;
      (*hx)[next[cols[k]]++] = PetscRealPart(v[k]);
    }
    PetscCall(MatRestoreRow(H, i, &nc, &cols, &v));
  }
  PetscCall(PetscFree(next));
  PetscFunctionReturn(0);
}

/* ---- The block pattern of W = Hᵀ M⁻¹ H (issue 12, item 1) ----------------------------------- */

static PetscInt Root_Private(PetscInt *parent, PetscInt i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]]; /* path halving */
    i         = parent[i];
  }
  return i;
}

PetscErrorCode FcGlobalProblemContactGroups(Mat M, Mat H, PetscInt m, PetscInt *ngroups, PetscInt **gptr, PetscInt **gcon)
{
  PetscInt    n, *parent, *comp, nc = 0, nnz = 0, npair = 0, nu = 0;
  PetscInt64 *key;

  PetscFunctionBegin;
  PetscCall(MatGetSize(M, &n, NULL));
  PetscCall(PetscMalloc2(n, &parent, n, &comp));
  for (PetscInt i = 0; i < n; i++) parent[i] = i;
  for (PetscInt i = 0; i < n; i++) { /* union-find over the stored entries of M */
    PetscInt        ncols;
    const PetscInt *cols;
    PetscCall(MatGetRow(M, i, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols; k++) {
      PetscInt ri = Root_Private(parent, i), rj = Root_Private(parent, cols[k]);
      if (ri != rj) parent[PetscMax(ri, rj)] = PetscMin(ri, rj);
    }
    PetscCall(MatRestoreRow(M, i, &ncols, &cols, NULL));
  }
  for (PetscInt i = 0; i < n; i++) comp[i] = Root_Private(parent, i) == i ? nc++ : -1;
  for (PetscInt i = 0; i < n; i++) comp[i] = comp[Root_Private(parent, i)];
  /* key g·m + a for every stored entry of H (row: a DoF of component g, column 3a + i) */
  for (PetscInt i = 0; i < n; i++) {
    PetscInt ncols;
    PetscCall(MatGetRow(H, i, &ncols, NULL, NULL));
    nnz += ncols;
    PetscCall(MatRestoreRow(H, i, &ncols, NULL, NULL));
  }
  PetscCall(PetscMalloc1(nnz + 1, &key));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt        ncols;
    const PetscInt *cols;
    PetscCall(MatGetRow(H, i, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols; k++) key[npair++] = (PetscInt64)comp[i] * m + cols[k] / 3;
    PetscCall(MatRestoreRow(H, i, &ncols, &cols, NULL));
  }
  PetscCall(PetscSortInt64(npair, key));
  PetscCall(PetscCalloc1(nc + 1, gptr));
  PetscCall(PetscMalloc1(npair + 1, gcon));
  for (PetscInt k = 0; k < npair; k++) {
    if (k && key[k] == key[k - 1]) continue;
    (*gptr)[key[k] / m + 1]++;
    (*gcon)[nu++] = (PetscInt)(key[k] % m); /* by component, contacts ascending */
  }
  for (PetscInt g = 0; g < nc; g++) (*gptr)[g + 1] += (*gptr)[g];
  *ngroups = nc;
  PetscCall(PetscFree(key));
  PetscCall(PetscFree2(parent, comp));
  PetscFunctionReturn(0);
}

/* W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w (fclib.h: M v = H r + f, u = Hᵀ v + w, so
 * u = Hᵀ M⁻¹ H r + Hᵀ M⁻¹ f + w). M: nested-dissection ordering, then PETSc's Cholesky on the
 * permuted matrix in SBAIJ form, whose inertia tells whether M is positive definite (Sylvester's
 * law of inertia); one solve per column of H (3m solves). W dense, or block-sparse over the
 * components of M (then only the rows of each column's stored blocks are formed, with the same
 * sums as the dense path: the same bits). */
PetscErrorCode FcGlobalProblemComputeLocal(FcGlobalProblem gp, FcContactProblem *local, FcGlobalMass *mass)
{
  PetscFunctionBegin;
  PetscCall(FcGlobalProblemComputeLocalStorage(gp, FC_CONTACT_W_CHOOSE_AUTO, local, mass));
  PetscFunctionReturn(0);
}

/* W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w into p, by one solve per column of H and one for f with the
 * Cholesky factor F of the permuted M (rp), or with Flu, the LU of M as stated (M symmetric only
 * to round-off); H by columns (hp, hi, hx). */
static PetscErrorCode FormLocal_Private(
  FcGlobalProblem gp, Mat F, Mat Flu, IS rp, const PetscInt *hp, const PetscInt *hi, const PetscReal *hx, FcContactProblem p)
{
  const PetscInt   nd = gp->n, n = 3 * gp->m, m = gp->m;
  const PetscInt  *perm;
  PetscReal       *bp, *x;
  const PetscReal *yp, *fv, *wv;
  Vec              bv, yv;

  PetscFunctionBegin;
  PetscCall(ISGetIndices(rp, &perm));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nd, &bv));
  PetscCall(VecDuplicate(bv, &yv));
  PetscCall(PetscMalloc1(nd, &x));
  PetscCall(VecGetArrayRead(gp->f, &fv));
  PetscCall(VecGetArrayRead(gp->w, &wv));
  for (PetscInt j = 0; j <= n; j++) { /* columns of H, then f (j == n) */
    PetscCall(PetscArrayzero(x, nd));
    if (j < n)
      for (PetscInt k = hp[j]; k < hp[j + 1]; k++) x[hi[k]] += hx[k];
    else
      for (PetscInt i = 0; i < nd; i++) x[i] = fv[i];
    PetscCall(VecGetArrayWrite(bv, &bp));
    for (PetscInt i = 0; i < nd; i++) bp[i] = Flu ? x[i] : x[perm[i]]; /* Cholesky of the permuted M: permuted right-hand side */
    PetscCall(VecRestoreArrayWrite(bv, &bp));
    PetscCall(MatSolve(Flu ? Flu : F, bv, yv));
    PetscCall(VecGetArrayRead(yv, &yp));
    for (PetscInt i = 0; i < nd; i++) x[Flu ? i : perm[i]] = yp[i]; /* x = M⁻¹ (column j of H, or f) */
    PetscCall(VecRestoreArrayRead(yv, &yp));
    if (j < n && !p->W) { /* column j of W: only the rows of the blocks (a, j/3) stored */
      const PetscInt a2 = j / 3;
      for (PetscInt kb = p->bptr[a2]; kb < p->bptr[a2 + 1]; kb++) {
        const PetscInt a = p->bcol[kb];
        for (int ii = 0; ii < 3; ii++) {
          const PetscInt i = 3 * a + ii;
          PetscReal      s = 0;
          for (PetscInt k = hp[i]; k < hp[i + 1]; k++) s += hx[k] * x[hi[k]];
          p->bval[9 * (size_t)p->btr[kb] + 3 * ii + j % 3] = s; /* block (a, a2) */
        }
      }
      continue;
    }
    for (PetscInt i = 0; i < n; i++) { /* (Hᵀ x)_i */
      PetscReal s = 0;
      for (PetscInt k = hp[i]; k < hp[i + 1]; k++) s += hx[k] * x[hi[k]];
      if (j < n) p->W[(size_t)i * n + j] = s;
      else p->q[i] = s + wv[i];
    }
  }
  PetscCall(VecRestoreArrayRead(gp->w, &wv));
  PetscCall(VecRestoreArrayRead(gp->f, &fv));
  /* Hᵀ M⁻¹ H is symmetric when M is; the column-wise solves leave rounding-level asymmetry, which
   * would keep nsgs off its symmetric (contiguous) update. With an M symmetric only to round-off,
   * W is the problem the file states: not symmetrized (a type that needs symmetry symmetrizes a
   * copy and is judged on this W, solver.c). */
  if (!Flu && p->W)
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = i + 1; j < n; j++) p->W[(size_t)i * n + j] = p->W[(size_t)j * n + i] = 0.5 * (p->W[(size_t)i * n + j] + p->W[(size_t)j * n + i]);
  else if (!Flu) PetscCall(FcContactProblemSymmetrizeBlocks(p));
  for (PetscInt a = 0; a < m; a++) p->mu[a] = gp->mu[a];
  PetscCall(PetscFree(x));
  PetscCall(VecDestroy(&bv));
  PetscCall(VecDestroy(&yv));
  PetscCall(ISRestoreIndices(rp, &perm));
  PetscFunctionReturn(0);
}

PetscErrorCode FcGlobalProblemComputeLocalStorage(FcGlobalProblem gp, FcContactWChoice choice, FcContactProblem *local, FcGlobalMass *mass)
{
  const PetscInt   nd = gp->n, n = 3 * gp->m, m = gp->m;
  Mat              Mp, S, F, Mt, Flu = NULL;
  IS               rp, cp, id;
  MatFactorInfo    finfo;
  MatFactorError   ferr;
  PetscInt         nneg = 0, nzero = 0, npos = 0, *hp, *hi, ng, *gptr, *gcon, *bptr = NULL, *bcol = NULL;
  PetscInt64       nblocks;
  PetscReal       *hx, maxabs;
  PetscBool        sym;
  FcContactProblem p;

  PetscFunctionBegin;
  PetscCheck(gp && local && mass, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Null argument");
  PetscCheck(gp->M && gp->H, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The global problem has no M or H");
  *local       = NULL;
  mass->status = FC_GLOBAL_MASS_SPD;
  mass->nneg   = 0;
  mass->nzero  = 0;
  mass->asym   = 0;
  PetscCall(FcMatMaxAbs(gp->M, &maxabs));
  PetscCall(MatIsSymmetric(gp->M, FC_GLOBAL_MASS_SYM_TOL * maxabs, &sym));
  /* Ms: the matrix whose Cholesky inertia decides definiteness, M or its symmetric part */
  PetscCall(MatDuplicate(gp->M, MAT_COPY_VALUES, &Mt));
  if (!sym) { /* measure the asymmetry: max|M − Mᵀ| / max|M| (the one rule, problem.h) */
    Mat       T;
    PetscReal d;
    PetscCall(MatTranspose(gp->M, MAT_INITIAL_MATRIX, &T));
    PetscCall(MatAXPY(Mt, -1.0, T, DIFFERENT_NONZERO_PATTERN));
    PetscCall(FcMatMaxAbs(Mt, &d));
    mass->asym = maxabs > 0 ? d / maxabs : 0;
    PetscCall(MatDestroy(&Mt));
    if (mass->asym > FC_CONTACT_ASYM_ROUNDOFF) {
      PetscCall(MatDestroy(&T));
      mass->status = FC_GLOBAL_MASS_NOT_SYMMETRIC;
      PetscFunctionReturn(0);
    }
    PetscCall(MatDuplicate(gp->M, MAT_COPY_VALUES, &Mt));
    PetscCall(MatAXPY(Mt, 1.0, T, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatScale(Mt, 0.5)); /* the symmetric part: the quadratic form vᵀ M v, whose definiteness is M's */
    PetscCall(MatDestroy(&T));
  }
  PetscCall(MatGetOrdering(Mt, MATORDERINGND, &rp, &cp));
  PetscCall(MatPermute(Mt, rp, rp, &Mp)); /* Mp(i,j) = M(perm[i], perm[j]) */
  PetscCall(MatSetOption(Mp, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatConvert(Mp, MATSEQSBAIJ, MAT_INITIAL_MATRIX, &S));
  PetscCall(MatDestroy(&Mp));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, nd, 0, 1, &id));
  PetscCall(ISSetIdentity(id));
  PetscCall(MatGetFactor(S, MATSOLVERPETSC, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(MatFactorInfoInitialize(&finfo));
  PetscCall(MatCholeskyFactorSymbolic(F, S, id, &finfo));
  PetscCall(MatCholeskyFactorNumeric(F, S, &finfo));
  PetscCall(MatFactorGetError(F, &ferr));
  if (!ferr) PetscCall(MatGetInertia(F, &nneg, &nzero, &npos));
  PetscCall(ISDestroy(&id));
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&Mt));
  if (ferr || nneg || nzero) {
    PetscCall(MatDestroy(&F));
    PetscCall(ISDestroy(&rp));
    PetscCall(ISDestroy(&cp));
    mass->status = ferr ? FC_GLOBAL_MASS_SINGULAR : FC_GLOBAL_MASS_NOT_SPD;
    mass->nneg   = ferr ? 0 : nneg;
    mass->nzero  = ferr ? 0 : nzero;
    PetscFunctionReturn(0);
  }

  if (!sym) { /* the solves with M as the file states it: LU, same ordering (the pattern is M's, made symmetric) */
    MatFactorInfo linfo;
    PetscCall(MatFactorInfoInitialize(&linfo));
    PetscCall(MatGetFactor(gp->M, MATSOLVERPETSC, MAT_FACTOR_LU, &Flu));
    PetscCall(MatLUFactorSymbolic(Flu, gp->M, rp, rp, &linfo));
    PetscCall(MatLUFactorNumeric(Flu, gp->M, &linfo));
    PetscCall(MatFactorGetError(Flu, &ferr));
    if (ferr) {
      PetscCall(MatDestroy(&Flu));
      PetscCall(MatDestroy(&F));
      PetscCall(ISDestroy(&rp));
      PetscCall(ISDestroy(&cp));
      mass->status = FC_GLOBAL_MASS_SINGULAR;
      PetscFunctionReturn(0);
    }
  }
  PetscCall(ColumnsOfH_Private(gp->H, nd, n, &hp, &hi, &hx));
  /* the pattern: contacts coupled through a connected component of M (block-diagonal M: a body) */
  PetscCall(FcGlobalProblemContactGroups(gp->M, gp->H, m, &ng, &gptr, &gcon));
  PetscCall(FcContactBlockPatternFromGroups(m, ng, gptr, gcon, NULL, NULL, &nblocks));
  if (FcContactWChooseSparse(choice, m, nblocks)) {
    PetscCall(FcContactBlockPatternFromGroups(m, ng, gptr, gcon, &bptr, &bcol, NULL));
    PetscCall(FcContactProblemCreateSparse(m, bptr, bcol, &p));
    PetscCall(PetscFree(bptr));
    PetscCall(PetscFree(bcol));
  } else PetscCall(FcContactProblemCreate(m, &p));
  PetscCall(PetscFree(gptr));
  PetscCall(PetscFree(gcon));
  PetscCall(FormLocal_Private(gp, F, Flu, rp, hp, hi, hx, p));
  if (Flu) PetscCall(MatDestroy(&Flu));
  PetscCall(ISDestroy(&rp));
  PetscCall(ISDestroy(&cp));
  PetscCall(MatDestroy(&F));
  PetscCall(PetscFree(hp));
  PetscCall(PetscFree2(hi, hx));
  *local = p;
  PetscFunctionReturn(0);
}
