/* fcsim — the frictional contact problem in FCLIB's local form, the Coulomb cone projection and
 * the common error every contact solver reports (doc/contact.md).
 *
 * Problem: m contacts, each with 3 rows in its local frame (n, t1, t2):
 *
 *     u = W r + q,     K_μ ∋ r ⊥ û ∈ K_μ*,     û_a = u_a + μ_a ‖u_a,T‖ n       (De Saxcé)
 *
 * K_μ = {r : ‖r_T‖ ≤ μ r_N} is the Coulomb cone, K_μ* = K_{1/μ} its dual; r_N ≥ 0 pushes the
 * pair apart, u_N ≥ 0 separates it. This is duriez2006 eq. 18–21 (W is the Delassus operator
 * Σ H C Hᵀ, q the free motion δ^free) with Coulomb's law written as one complementarity
 * problem over the cone instead of the stick/slip cases of eq. 19.
 *
 * Solvers see nothing but this struct: what u and r mean (velocity and impulse, displacement
 * and force) is the stepper's business. */
#ifndef FC_CONTACT_PROBLEM_H
#define FC_CONTACT_PROBLEM_H

#include "../core/fc.h"

typedef struct _n_FcContactProblem *FcContactProblem;

/* Plain data: a stepper or a reader fills W, q and mu in place after FcContactProblemCreate.
 *
 * W is stored in one of two forms (FcContactProblemIsSparse tells which):
 *
 * - dense (FcContactProblemCreate): W row-major, W[(3a+i)*3m + 3b+j] couples row i of contact a
 *   with column j of contact b; 9m² doubles (72 MB at m = 1000, 7.2 GB at m = 10 000).
 * - block-sparse (FcContactProblemCreateSparse, W == NULL): block CSR of 3×3 blocks in plain
 *   arrays. Row a holds its blocks k = bptr[a] .. bptr[a+1]−1, of block columns bcol[k] sorted
 *   increasing, values bval[9k .. 9k+8] row-major (bval[9k + 3i + j] couples row i of contact a
 *   with column j of contact bcol[k]). Two invariants make every kernel O(blocks touched): the
 *   pattern is structurally symmetric (block (a,b) is stored iff (b,a) is; btr[k] is the index of
 *   the transposed block), so a block row read transposed is a block column (the Gauss–Seidel
 *   update u += W_{:,a} d reads row a when W is symmetric, the blocks btr[k] otherwise), and
 *   every diagonal block is stored (bdiag[a], possibly zero), so the solvers' W_aa is O(1).
 *   Memory: 72 bytes of values + 2 PetscInt per block, 2 PetscInt per contact.
 *
 *   Why own arrays and not PETSc's MATSEQBAIJ (bs 3, the same BSR layout): the solvers that read
 *   W are hand-written kernels over blocks (the local 3×3 solves, the column update), not
 *   MatMult/KSP users, and a Mat is an object with a creation, assembly and destruction cost per
 *   problem: a 1 kHz haptic loop solves a problem of a few contacts per millisecond, where that
 *   fixed cost is the budget. Plain arrays keep a problem plain data, as the dense form is, and
 *   cost nothing beyond their allocation. A solver that needs a PETSc Mat can copy them
 *   (MatSeqBAIJSetPreallocationCSR, row-oriented blocks), or wrap them without a copy
 *   (MatCreateSeqBAIJWithArrays), which reads each block column-major, i.e. sees Wᵀ: W itself
 *   when W is symmetric, as a Delassus operator is.
 *
 * Which solvers read which form (doc/contact.md, "Storage of W"): nsgs, pgs, uzawa_local,
 * uzawa_global and lemke read both (lemke forms its dense LCP from the blocks); sap and newton
 * assemble their Newton matrices on W's block pattern (sparse Cholesky / LU). Producers choose the
 * form with FcContactProblemPreferSparse: the FCLIB reader from the file's block pattern (no dense
 * W in between; the writer writes either), the contact step (src/step, src/compliance) and the
 * global reformulations (global_problem.c, solvers/sap/global.c) from the pattern of contacts that share a
 * body (FcContactBlockPatternFromGroups). */
struct _n_FcContactProblem {
  PetscInt   m;  /* number of contacts */
  PetscReal *W;  /* dense: 3m × 3m Delassus operator, row-major; NULL when block-sparse */
  PetscReal *q;  /* 3m: free velocity (u when r = 0) */
  PetscReal *mu; /* m: Coulomb friction coefficients, μ_a ≥ 0 */
  /* block-sparse W (W == NULL), see above */
  PetscInt   nb;    /* stored 3×3 blocks */
  PetscInt  *bptr;  /* m + 1: first block of each block row */
  PetscInt  *bcol;  /* nb: block column of each block, sorted within a row */
  PetscInt  *bdiag; /* m: index of block (a, a) */
  PetscInt  *btr;   /* nb: index of block (b, a) for block k = (a, b) */
  PetscReal *bval;  /* 9 nb: the blocks, each row-major */
};

typedef enum { FC_CONTACT_W_DENSE, FC_CONTACT_W_SPARSE } FcContactWStorage;

/* Largest dense W FcContactProblemConvert forms from a block-sparse one (bytes): the FCLIB
 * reader's limit for a dense W (16 GB, src/io/fclib_io.c). */
#define FC_CONTACT_DENSE_MAX_BYTES (16.0 * 1073741824.0)

/* The automatic choice of storage: block-sparse when the fraction of stored blocks nb / m² is
 * below FC_CONTACT_SPARSE_MAX_FILL. Measured with nsgs solves of random block-sparse problems in
 * both forms (doc/contact.md, "Storage of W"; m = 5 .. 2000, fill 0.02 .. 0.85): the sparse solve
 * is ≥ 10 % faster up to fill 0.7 at every size, 1.2–115× below 0.5; above 0.8 the two are within
 * 5 % (sparse 10 % slower at m = 1000), and from fill 0.9 the dense form also takes less memory
 * (72 bytes per block of the whole matrix against 80 per stored block). */
#define FC_CONTACT_SPARSE_MAX_FILL 0.75

/* Allocate a problem of m ≥ 0 contacts with a dense W, W, q, mu zeroed. */
PetscErrorCode FcContactProblemCreate(PetscInt m, FcContactProblem *problem);
/* Allocate a problem of m ≥ 0 contacts with a block-sparse W of the block pattern (ptr, col):
 * block row a lists the block columns col[ptr[a] .. ptr[a+1]−1] (any order, ptr[0] = 0). The
 * pattern stored is that one made structurally symmetric, with every diagonal block added; the
 * values (bval), q and mu are zeroed, for the caller to fill (FcContactProblemFindBlock). A
 * column outside 0..m−1, a block given twice or decreasing pointers: PETSC_ERR_ARG_OUTOFRANGE /
 * PETSC_ERR_ARG_WRONG naming the block (a caller reading a file checks its input first). */
PetscErrorCode FcContactProblemCreateSparse(PetscInt m, const PetscInt ptr[], const PetscInt col[], FcContactProblem *problem);
PetscErrorCode FcContactProblemDestroy(FcContactProblem *problem);
/* A new problem with the same q, mu and W in the storage asked for (a copy also when the storage
 * is the same). Dense → sparse keeps the blocks with a nonzero entry (exact zeros dropped; the
 * pattern is then made symmetric and the diagonal added, as in CreateSparse). Sparse → dense
 * refuses (PETSC_ERR_SUP, naming the size) a W above FC_CONTACT_DENSE_MAX_BYTES. */
PetscErrorCode FcContactProblemConvert(FcContactProblem problem, FcContactWStorage storage, FcContactProblem *out);
/* FcContactProblemConvert to the storage FcContactProblemPreferSparse chooses for its blocks. */
PetscErrorCode FcContactProblemConvertAuto(FcContactProblem problem, FcContactProblem *out);
/* The rule: sparse when nblocks < FC_CONTACT_SPARSE_MAX_FILL · m². */
PetscBool FcContactProblemPreferSparse(PetscInt m, PetscInt64 nblocks);
/* Blocks with a nonzero entry (dense) or stored blocks (sparse). */
PetscInt64 FcContactProblemCountBlocks(FcContactProblem problem);
/* Bytes of W's storage (dense: 9m² doubles; sparse: values, indices and pointers). */
PetscInt64              FcContactProblemStorageBytes(FcContactProblem problem);
static inline PetscBool FcContactProblemIsSparse(FcContactProblem problem) { return (PetscBool)(problem->W == NULL); }
/* Index k of the stored block (a, b) of a block-sparse W (its values bval + 9k), or −1. */
PetscInt FcContactProblemFindBlock(FcContactProblem problem, PetscInt a, PetscInt b);
/* Copy block (a, b) of W into blk (row-major 3×3), zero when not stored; O(1) for a = b. */
void FcContactProblemGetBlock(FcContactProblem problem, PetscInt a, PetscInt b, PetscReal blk[9]);
/* u = W r + q (3m entries). */
PetscErrorCode FcContactProblemComputeVelocity(FcContactProblem problem, const PetscReal r[], PetscReal u[]);

/* The common error (ONE definition for every solver, doc/contact.md):
 *
 *     e_a   = r_a − P_{K_μa}(r_a − ũ_a),   ũ_a = [u_N + μ_a ‖u_T‖, u_T],   u = W r + q
 *     error = sqrt(Σ_a ‖e_a‖²) / max(‖q‖, ‖r‖, ‖u‖)     (absolute when that max < DBL_EPSILON)
 *
 * e = 0 exactly when r solves the problem (the natural map of the complementarity problem
 * K ∋ r ⊥ ũ ∈ K*, whose zeros are its solutions); the normalisation is Siconos' (fc3d
 * error). The error a solve reports is computed by the contact-solver object from the r the
 * type returned, never taken from the type (a type may call this for its own stopping test),
 * so that solvers are compared on the same number. */
PetscErrorCode FcContactProblemComputeError(FcContactProblem problem, const PetscReal r[], PetscReal *error);
/* Same error when the caller already has u = W r + q (the solver types' cheap stopping test). */
PetscErrorCode FcContactProblemComputeErrorWithVelocity(FcContactProblem problem, const PetscReal r[], const PetscReal u[], PetscReal *error);

/* Small kernels (pure functions, no error path). */
/* p = P_{K_μ}(x), the Euclidean projection onto K_μ = {‖x_T‖ ≤ μ x_N}, μ ≥ 0 (μ = 0: the ray
 * x_T = 0, x_N ≥ 0). x and p may alias. */
/* W exactly symmetric? (the Delassus operator is; then column a is read as the contiguous rows
 * of contact a, which is what makes the Gauss–Seidel updates below fast) */
PetscBool FcContactProblemIsSymmetric(FcContactProblem problem);
/* The largest asymmetry of W: *asym = max |W_ij − W_ji|, at row *row and column *col (−1, −1 when
 * W is exactly symmetric), and *wmax = max |W_ij|, over the stored entries (dense: all 9m²;
 * block-sparse: the stored blocks against their transposes btr[k], O(stored blocks)). For the
 * messages of a caller that refuses a non-symmetric W (a solver whose cost needs W = Wᵀ). */
void FcContactProblemAsymmetry(FcContactProblem problem, PetscReal *asym, PetscReal *wmax, PetscInt *row, PetscInt *col);
/* u += W_{:,a} d, the incremental update of u = W r + q when r_a changes by d (dense: 9·3m
 * flops; sparse: 18 per block of row a); symmetric as returned by FcContactProblemIsSymmetric. */
void FcContactProblemAddColumn(FcContactProblem problem, PetscBool symmetric, PetscInt a, const PetscReal d[3], PetscReal u[]);

/* ---- The block pattern of a Delassus operator from body → contacts lists (issue 12, item 1) ----
 * W = Σ_k H_k A_k⁻¹ H_kᵀ couples two contacts only when they touch a common body k, so its block
 * pattern is the union over the groups (bodies) k of (contacts of k) × (contacts of k), plus every
 * diagonal block. Group g lists the contacts gcon[gptr[g] .. gptr[g+1]−1] (each in 0..m−1; a
 * contact may be in any number of groups, e.g. the two bodies of a pair). *nblocks: the number of
 * blocks. With ptr and col non-NULL also the pattern as block CSR (m + 1 pointers, columns
 * sorted, no duplicate; the caller frees both with PetscFree), ready for
 * FcContactProblemCreateSparse. Cost O(Σ_k |contacts of k|²), the blocks themselves. */
PetscErrorCode FcContactBlockPatternFromGroups(
  PetscInt m, PetscInt ngroups, const PetscInt gptr[], const PetscInt gcon[], PetscInt **ptr, PetscInt **col, PetscInt64 *nblocks);
/* How a producer of W stores it: auto by FcContactProblemPreferSparse on its pattern's blocks, or
 * forced (option -fc_contact_w_storage auto|dense|sparse, doc/contact.md "Storage of W"). */
typedef enum { FC_CONTACT_W_CHOOSE_AUTO, FC_CONTACT_W_CHOOSE_DENSE, FC_CONTACT_W_CHOOSE_SPARSE } FcContactWChoice;
/* The choice for a pattern of nblocks blocks of m contacts: PETSC_TRUE for block-sparse. */
PetscBool FcContactWChooseSparse(FcContactWChoice choice, PetscInt m, PetscInt64 nblocks);
/* -fc_contact_w_storage from the options database (auto when unset); another value is one
 * input-error line naming the option (exit 2). */
PetscErrorCode FcContactWChoiceFromOptions(FcContactWChoice *choice);
/* W ← ½ (W + Wᵀ) on a block-sparse W, entry by entry as the dense producers do (same bits). */
PetscErrorCode FcContactProblemSymmetrizeBlocks(FcContactProblem p);
/* W ← ½ (W + Wᵀ) in either storage. */
PetscErrorCode FcContactProblemSymmetrize(FcContactProblem p);

/* The one symmetry rule for matrices that should be symmetric (a Delassus operator W, FCLIB's M),
 * for every solver (issue 25): a relative asymmetry max|A_ij − A_ji| / max|A| up to this bound is a
 * producer's round-off, accepted (a solver that needs symmetry gets (A + Aᵀ)/2, or a factorization
 * that does not assume it is used, and one warning line says so); beyond it the matrix is
 * genuinely non-symmetric and refused, with the measured asymmetry, where symmetry is needed.
 * Why 1e-3: real producers' files are far from double round-off (ε·(terms summed) ~ 1e-14) and
 * still meant symmetric: Siconos' Rover problems 8.1e-6 .. 3.3e-5, its OneObject-i1028-138
 * 1.2e-4 (../shared/fclib-real; W computed by its mechanics, then written), LMGC90's global M
 * 1.5e-7 (single-precision level). A genuinely non-symmetric matrix — a transposed or one-sided
 * block, a sign error, a skew part — is off by O(1) of the entries concerned (tests/bad/fclib:
 * 0.16 and 0.25 of max|A|). 1e-3 lies 8x above the largest round-off measured and 100x below
 * those. Accepting it is safe because the answer is always judged on the matrix as given (the
 * common error is never computed on a symmetrized copy), so a symmetrization that mattered
 * shows as an error above tol; what it changes on the shared set is measured in doc/contact.md §6. */
#define FC_CONTACT_ASYM_ROUNDOFF 1e-3

void FcConeProject(PetscReal mu, const PetscReal x[3], PetscReal p[3]);
/* ‖e_a‖² of one contact (the summand of the common error). */
PetscReal FcContactLocalError2(PetscReal mu, const PetscReal r[3], const PetscReal u[3]);

#endif
