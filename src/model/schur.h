/* fcsim — participating DoFs: the Schur complement of a body's Newton matrix onto the DoFs the
 * contact Jacobians touch (han2023 §VI-A, VI-B, eq. 14–18; doc/schur.md).
 *
 * With the DoFs split into participating p (non-zero columns of the contact Jacobian J) and
 * non-participating n, the Newton system is (han2023 eq. 14)
 *
 *     [A_nn A_np] [x_n]   [b_n]
 *     [A_pn A_pp] [x_p] = [b_p],
 *
 * and eliminating x_n (eq. 15: x_n = A_nn⁻¹ (b_n − A_np x_p)) leaves the participating system
 * Â x_p = b̂_p (eq. 16) with the Schur complement Â = A_pp − A_pn A_nn⁻¹ A_np (dense, np × np)
 * and the condensed right-hand side b̂_p = b_p − A_pn A_nn⁻¹ b_n. Â is never formed from A_nn⁻¹:
 * MUMPS eliminates the n block first and returns the trailing block of the partial
 * factorization, which is Â (eq. 18: Â = L_pp L_ppᵀ = A_pp − L_pn L_pnᵀ). The Delassus operator
 * of the contacts follows as W = J A⁻¹ Jᵀ = J_p Â⁻¹ J_pᵀ (J_p: the p columns of J), with no
 * sparse solve per contact row.
 *
 * Sequential only (PETSc's MUMPS interface computes Schur complements on one process). The
 * participating DoFs keep the order of the IS given to FcSchurCreate: row/column k of Â (and
 * column k of J_p) is DoF idx[k]. */
#ifndef FC_SCHUR_H
#define FC_SCHUR_H

#include "../core/fc.h"

typedef struct _n_FcSchur *FcSchur;

/* Sizes, factorization kind and timings (seconds) of the last Create/Update. */
typedef struct {
  PetscInt      n, np;          /* DoFs of A, participating DoFs */
  MatFactorType ftype;          /* MAT_FACTOR_CHOLESKY (A flagged symmetric: MUMPS LDLᵀ) or MAT_FACTOR_LU */
  PetscReal     t_symbolic;     /* MUMPS analysis with the Schur indices (Create only) */
  PetscReal     t_numeric;      /* MUMPS numeric factorization of the n block + Â */
  PetscReal     t_complement;   /* copy of Â and its dense factorization (np³/3 flops) */
  PetscReal     t_inverse;      /* in-place inversion of Â by FcSchurDelassus (⅔ np³), 0 if none */
  PetscBool     inverted;       /* Â is held inverted (since the last Create/Update) */
  PetscInt64    factor_entries; /* entries in MUMPS's factors (INFOG(29)); 0 when np = n */
} FcSchurInfo;

/* Factor A (assembled sequential AIJ, Dirichlet rows/columns replaced by a scaled identity) with
 * MUMPS, eliminating the DoFs not in `participating` first, and keep Â (a dense copy) and its
 * dense factorization. Cholesky (MUMPS LDLᵀ, so SPD and symmetric indefinite A both work) when A
 * is flagged symmetric (MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE)), else LU. participating:
 * 0-based DoF indices, unique, in any order (that order is Â's); empty and all-DoF sets are
 * allowed (np = n needs no sparse factorization: Â = A, factored dense). The indices are
 * copied; A is not kept. A factorization failure (singular A) is an error. */
PetscErrorCode FcSchurCreate(Mat A, IS participating, FcSchur *s);
/* New values of A with the same nonzero pattern and the same participating set: numeric
 * factorization only (MUMPS keeps its analysis), Â recomputed and refactored. */
PetscErrorCode FcSchurUpdate(FcSchur s, Mat A);
/* Â = A_pp − A_pn A_nn⁻¹ A_np, np × np MATSEQDENSE, owned by s (do not destroy or modify). */
PetscErrorCode FcSchurGetComplement(FcSchur s, Mat *Ahat);
/* The participating DoFs in Â's order (owned by s). */
PetscErrorCode FcSchurGetParticipating(FcSchur s, PetscInt *np, const PetscInt **idx);
PetscErrorCode FcSchurGetInfo(FcSchur s, FcSchurInfo *info);
/* x = A⁻¹ b through the Schur complement: condensation b̂_p = b_p − A_pn A_nn⁻¹ b_n (MUMPS
 * forward elimination), Â x_p = b̂_p with the dense factor of Â, then x_n by eq. 15 (MUMPS
 * backward substitution). b and x are full-length and must differ. */
PetscErrorCode FcSchurSolve(FcSchur s, Vec b, Vec x);
/* X = A⁻¹ B for dense B, X (n × k MATSEQDENSE), the same way, all columns at once. */
PetscErrorCode FcSchurMatSolve(FcSchur s, Mat B, Mat X);
/* Y = Â⁻¹ B on the participating DoFs: B, Y np × k MATSEQDENSE, distinct (triangular solves
 * with the dense factor of Â, or a product once FcSchurDelassus has inverted it: 2 np² k). */
PetscErrorCode FcSchurSolveComplement(FcSchur s, Mat B, Mat Y);
/* Given x_p (the participating entries of xp_full; the others are ignored), x_p copied into x and
 * x_n = A_nn⁻¹ (b_n − A_np x_p) (han2023 eq. 15). Costs two solves with the factorization (see
 * doc/schur.md); a contact correction A⁻¹ [0; J_pᵀ γ] needs only FcSchurSolve. */
PetscErrorCode FcSchurRecoverInterior(FcSchur s, Vec b, Vec xp_full, Vec x);
/* W = J_p Â⁻¹ J_pᵀ = J A⁻¹ Jᵀ for a Jacobian whose non-zero columns are participating DoFs.
 * Jp: nrows × np row-major, column k for DoF idx[k]; W: nrows × nrows row-major, symmetrized
 * (½ (W + Wᵀ)). Flops: min(2 np² nrows, ⅔ np³ once per factorization + 2 nnz(J_p) np) for
 * U = Â⁻¹ J_pᵀ (the second: Â is inverted in place when nrows > np/3, and stays inverted
 * until the next Update), + 2 nnz(J_p) nrows for J_p U; np × nrows doubles of work space. */
PetscErrorCode FcSchurDelassus(FcSchur s, PetscInt nrows, const PetscReal *Jp, PetscReal *W);
/* The same with J_p in CSR form: row i has entries vals[rowptr[i] .. rowptr[i+1]) in columns
 * cols[.] (participating indices k, 0 ≤ k < np, i.e. DoF idx[k]; repeats add up). A contact row
 * of fcsim touches ≤ 12 DoFs, so nnz(J_p) ≤ 12 nrows. */
PetscErrorCode FcSchurDelassusCSR(FcSchur s, PetscInt nrows, const PetscInt *rowptr, const PetscInt *cols, const PetscReal *vals, PetscReal *W);
PetscErrorCode FcSchurDestroy(FcSchur *s);

#endif
