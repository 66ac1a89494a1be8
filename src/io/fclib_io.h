/* fcsim — FCLIB files (HDF5, libfclib 3.1): read local and global frictional contact problems
 * into plain data (FcContactProblem, FcGlobalProblem), write local problems and solutions
 * (doc/contact.md, "FCLIB").
 *
 * Reading is fcsim's own, with the HDF5 C API: libfclib's readers call exit() on a missing
 * dataset or a damaged object, overrun their buffers on a dataset of the wrong size, and use a
 * second (serial) HDF5 library whose diagnostics fcsim cannot silence; libfclib only writes. A
 * malformed or damaged file is ONE input-error line "FILE: /fclib_local/W: not square (6 x 9)"
 * (FC_ERR_INPUT, exit status 2), never a crash nor HDF5's own diagnostics (silenced during the
 * read and at the library's shutdown), with every HDF5 object closed.
 *
 * Matrices are read in every storage real files carry (doc/contact.md, "FCLIB"): compressed
 * columns (nz = -1), compressed rows (nz = -2), triplets (nz >= 0) in fclib.h's convention (p
 * rows, i columns) or CSparse's (i rows, p columns, as Siconos writes them) — decided per file from
 * the index ranges and the shapes, a symmetric matrix reading the same either way, an undecidable
 * one refused ("FILE: /fclib_local/W: triplet convention cannot be decided (...)") — with nz <
 * nzmax and arrays of nz to nzmax entries (only the entries used count); duplicate triplets are
 * summed, a compressed column (row) that lists an index twice is refused.
 * With -v (FcVerbosity 2), one stderr line per matrix says which storage and convention was read.
 *
 * Only files live here. The numerics on a global problem (M v = H r + f, u = Hᵀ v + w, fclib.h)
 * are src/contact's: its local reformulation W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w is
 * FcGlobalProblemComputeLocal (contact/global_problem.h), its solution in the global form a
 * contact solver's (FcContactSolverSolveGlobal). Mixed problems (local V, R, s; global G, b) are
 * refused with a message. */
#ifndef FC_FCLIB_IO_H
#define FC_FCLIB_IO_H

#include "../contact/global_problem.h"

/* Optional /fclib_local/info strings (any may be NULL). */
typedef struct {
  const char *title;
  const char *description;
  const char *math_info;
} FcFCLIBInfo;

/* Read whichever problem the file holds, validated (presence, kind, class and size of every
 * dataset; indices in range, finite values, μ ≥ 0): /fclib_local gives *local (W block-sparse or
 * dense as FcContactProblemPreferSparse chooses from its 3×3 block pattern, built from the file's
 * entries without a dense W; -v says which; q, mu)
 * and *global = NULL; /fclib_global (taken when both are present, as libfclib does) gives
 * *global (M with every diagonal entry stored, H, f, w, mu; source = path) and *local = NULL.
 * M is not checked here: FcGlobalProblemComputeLocal says what it is. Bad input → FC_ERR_INPUT
 * with one line naming the file and the dataset. */
PetscErrorCode FcFCLIBRead(const char *path, FcContactProblem *local, FcGlobalProblem *global);

/* The local problem of any FCLIB file: /fclib_local as read, /fclib_global reformulated by
 * FcGlobalProblemComputeLocal; an M that is not symmetric positive definite is then an input
 * error ("FILE: /fclib_global/M: not symmetric: ... of max|M|, beyond ...", "singular (...)", "not
 * positive definite (...)"); an M symmetric only to a producer's round-off (problem.h,
 * FC_CONTACT_ASYM_ROUNDOFF) is reformulated as stated, with the warning line below. *problem is
 * created. */
PetscErrorCode FcFCLIBReadProblem(const char *path, FcContactProblem *problem);
/* The one warning line (stderr) for an M that the reformulation used as stated although it is
 * symmetric only to round-off (mass->asym above FC_GLOBAL_MASS_SYM_TOL); nothing otherwise. */
PetscErrorCode FcFCLIBWarnMassAsymmetry(const char *file, const FcGlobalMass *mass);

/* Write problem as /fclib_local (W as CSC without its exact zeros, from a dense or a block-sparse W
 * without forming the other; q, mu, spacedim 3, info).
 * The file is written under a temporary name and renamed, replacing path. A path that cannot
 * be created → FC_ERR_INPUT. */
PetscErrorCode FcFCLIBWriteLocal(const char *path, FcContactProblem problem, const FcFCLIBInfo *info);

/* Write a self-contained solution file: /fclib_local (the problem as solved, in local form) and
 * /solution/{r, u} (fclib_write_solution). u may be NULL: W r + q is written. Replaces path. */
PetscErrorCode FcFCLIBWriteSolution(const char *path, FcContactProblem problem, const FcFCLIBInfo *info, const PetscReal r[], const PetscReal u[]);

/* Read /solution/{r, u} of an FCLIB file whose problem has m contacts (3m rows); u may be NULL. */
PetscErrorCode FcFCLIBReadSolution(const char *path, PetscInt m, PetscReal r[], PetscReal u[]);

#endif
