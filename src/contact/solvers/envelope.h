/* fcsim — an LU factorization in an envelope (a "skyline"), in the reverse Cuthill–McKee order of
 * a block graph: the Newton matrices of `newton` on a block-sparse W (newton.c, doc/contact.md
 * "newton", "The envelope LU").
 *
 * The matrix is n = 3m square with 3×3 blocks on a structurally symmetric block pattern (W's, which
 * J = I − D + D diag(ρ) W shares). Its blocks are renumbered by reverse Cuthill–McKee (Cuthill &
 * McKee, Proc. 24th ACM Nat. Conf. 1969; the reversal and the pseudo-peripheral start of George &
 * Liu, "Computer Solution of Large Sparse Positive Definite Systems", Prentice-Hall 1981, §4.3 and
 * §4.4), which gathers the nonzeros near the diagonal of a banded graph (a chain of joints: the
 * masonry arch). Row i's envelope is the columns [s_i, i), s_i the first column of its block row's
 * first stored block; with a symmetric pattern, column i's envelope is the rows [s_i, i). An LU
 * without pivoting fills nothing outside the envelope (George & Liu 1981, Theorem 4.1.1 for the
 * symmetric case; the same argument holds for L and Uᵀ of a structurally symmetric matrix), so L
 * is stored by rows and U by columns in their envelopes, and the factorization is Crout's: for
 * each i, the column i of U, the row i of L, then the pivot, every entry a dot product of two
 * contiguous segments. It needs no symbolic phase beyond the envelope, and no object: plain arrays
 * kept from solve to solve.
 *
 * No pivoting, as PETSc's LU of a SeqAIJ matrix (which newton used on a block-sparse W) and
 * newton's own dense LU: a pivot |u_ii| ≤ zeropivot · Σ_j |a_ij| (the row of the matrix as given)
 * is "zero", and the caller decides (newton.c DirectionSolve_Private: on to PETSc's LU, or a
 * restart with a shift on the diagonal). */
#ifndef FC_CONTACT_SOLVERS_ENVELOPE_H
#define FC_CONTACT_SOLVERS_ENVELOPE_H

#include "../../core/fc.h"

typedef struct {
  PetscInt       m, n;   /* blocks of the pattern set, rows (3m) */
  PetscInt       mcap;   /* blocks the index arrays hold */
  size_t         ecap;   /* entries L and U hold */
  PetscInt      *perm;   /* m: perm[k] = the block at position k (RCM) */
  PetscInt      *iperm;  /* m: iperm[a] = the position of block a */
  PetscInt      *first;  /* m: first block column of block row k's envelope (positions) */
  size_t        *off;    /* n + 1: row i's segment of L (and column i's of U) is L[off[i] .. off[i+1]) */
  PetscReal     *L, *U;  /* envelopes: L unit lower by rows, U upper by columns (diagonal in d) */
  PetscReal     *d;      /* n: the diagonal of U (the matrix's diagonal before Factor) */
  PetscReal     *rowsum; /* n: Σ_j |a_ij| of row i as given (the pivot test) */
  PetscReal     *x;      /* n: work of Solve */
  PetscInt      *iw;     /* 4m: work of the ordering */
  size_t         nenv;   /* entries of the envelope (L's; U's are as many) */
  PetscLogDouble flops;  /* of one Factor (the envelope's dot products) */
} FcEnvelopeLU;

void           FcEnvelopeLUInit(FcEnvelopeLU *e);
PetscErrorCode FcEnvelopeLUDestroy(FcEnvelopeLU *e);
/* Order the m blocks of the block pattern (bptr, bcol: block CSR, structurally symmetric, every
 * diagonal block stored, as FcContactProblem's) by reverse Cuthill–McKee and lay out the envelope
 * (allocation only when it outgrows the arrays). Sets nenv and flops. */
PetscErrorCode FcEnvelopeLUSetPattern(FcEnvelopeLU *e, PetscInt m, const PetscInt bptr[], const PetscInt bcol[]);
/* The ordering and the envelope's layout alone (perm, first, off, nenv, flops; L and U not
 * allocated): what a factorization would cost, for a caller that only predicts it (auto.c). */
PetscErrorCode FcEnvelopeLUOrder(FcEnvelopeLU *e, PetscInt m, const PetscInt bptr[], const PetscInt bcol[]);
/* The largest factorization (flops) that newton's `lu auto` takes in the envelope; above it PETSc's
 * LU (newton.c NewtonPath_Private). */
#define FC_ENVELOPE_AUTO_MAX_FLOPS 1e8
/* Zero every value (before the blocks are set). */
void FcEnvelopeLUZero(FcEnvelopeLU *e);
/* Set block (a, b) (original numbering, row-major 3×3) of the matrix: b must be in a's block row of
 * the pattern set (or a itself). */
void FcEnvelopeLUSetBlock(FcEnvelopeLU *e, PetscInt a, PetscInt b, const PetscReal blk[9]);
/* Factor in place, Crout order; *ok false at the first "zero" pivot (|u_ii| ≤ zeropivot · rowsum_i or
 * u_ii = 0), with the values then undefined (the caller sets the matrix again). */
void FcEnvelopeLUFactor(FcEnvelopeLU *e, PetscReal zeropivot, PetscBool *ok);
/* b ← (LU)⁻¹ b, b in the original numbering (3m entries). */
void FcEnvelopeLUSolve(FcEnvelopeLU *e, PetscReal b[]);

#endif
