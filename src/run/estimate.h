/* fcsim — what a run will need, estimated before the work, and refused when it cannot fit this
 * machine (doc/case-format.md "Sizes fcsim refuses").
 *
 * From the case (before anything is meshed: a refined mesh has 8^refine times the tetrahedra of
 * its file, counted by the mesh layer) and again from the loaded meshes (exact counts, before the
 * first factorization): the memory, the bytes written and a lower bound of the time. Each is a
 * LOWER estimate — the parts that can be bounded from below (the meshes, the three matrices of a
 * deformable body, its Cholesky factor, the per-step rows kept for run.h5), with constants
 * measured on fcsim's own runs (estimate.c) — so that a refusal means the run surely cannot
 * complete here, never that it might be tight:
 *   memory above the machine's physical memory, output above the free space of the output
 *   folder's file system, or a time above FC_ESTIMATE_MAX_DAYS days.
 * The refusal is one input-error line naming the estimate and the case key that drives it;
 * --force skips it (the user insists). */
#ifndef FC_RUN_ESTIMATE_H
#define FC_RUN_ESTIMATE_H
#include "../case/case.h"

/* The time bound: a run whose lower-bound time exceeds it would take months in practice (the
 * bound leaves out Newton iterations, contact solves and factorizations, which commonly cost
 * 10-100 times the bound), longer than a validation run on one machine can be attended. */
#define FC_ESTIMATE_MAX_DAYS 30.0
/* A run that surely lasts hours or writes terabytes (lower bounds) gets one warning line at its
 * start, once the meshes are loaded, even with --force (issue 31 item 6). */
#define FC_ESTIMATE_WARN_SECONDS 3600.0
#define FC_ESTIMATE_WARN_BYTES   1e12

typedef struct {
  double    tets, nodes, dofs; /* deformable bodies (estimated: tets from the files, nodes from tets) */
  double    memory;            /* bytes, lower estimate */
  double    output;            /* bytes written, lower estimate */
  double    seconds;           /* lower bound of the time */
  PetscBool partial;           /* some body could not be estimated before meshing (a .geo at refine 0) */
  PetscBool meshed;            /* from the loaded meshes (FcEstimateMeshes): the last estimate */
  /* what drives them, for the key a refusal names */
  double   mem_bodies, mem_rows;   /* the bodies' share of memory; the per-step rows kept */
  double   mem_haptic, out_haptic; /* the haptic loop's rows kept, written (part of the rows) */
  double   out_fields, out_rows;   /* fields every output.every steps; rows every step */
  PetscInt body;                   /* the body that needs the most memory (-1: none) */
} FcEstimate;

/* Before meshing: from the case and the counts of its mesh files. */
PetscErrorCode FcEstimateCase(const FcCase *c, FcEstimate *e);
/* After meshing: from the loaded meshes, exact counts per body of the case (c->nbodies entries:
 * nodes, tetrahedra, nodes per element; nodes[b] = 0 for a body without a field mesh, which the
 * estimate skips). */
PetscErrorCode FcEstimateMeshes(const FcCase *c, const PetscInt nodes[], const PetscInt tets[], const PetscInt npe[], FcEstimate *e);
/* Refuse what cannot fit (input error naming the key), unless force; warn (one line on stderr)
 * when the estimate from the meshes means hours or terabytes. outdir: where the run will
 * write (its free space is compared with the output), or NULL (fcsim info: no output). */
PetscErrorCode FcEstimateCheck(const FcCase *c, const FcEstimate *e, const char *outdir, PetscBool force);
/* One line "estimate: ..." for fcsim info. */
void FcEstimateFormat(const FcEstimate *e, char *buf, size_t len);
#endif
