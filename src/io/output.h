/* fcsim — run output: the set of a run's writers, one file each (src/io/writer.h): run.h5 +
 * run.xdmf (h5out.c), legacy VTK series (vtk.c), probes.csv and stats.csv (csvout.c), the haptic
 * loop's haptic.csv (haptic_out.c), the FCLIB dump of the steps' contact problems (fclib_dump.c).
 * Depends only on plain data (arrays), never on the model; the layout is documented in
 * doc/output-format.md. All files go into `dir`, which the caller creates under a temporary
 * name and renames on success. */
#ifndef FC_OUTPUT_H
#define FC_OUTPUT_H

#include "../core/fc.h"
#include "../contact/status.h"
#include "../contact/problem.h"
#include "haptic_out.h"

typedef struct {
  const char      *name; /* body name */
  PetscInt         nnodes;
  const PetscReal *X;           /* 3*nnodes reference coordinates */
  PetscInt         nelems, npe; /* 4 (tet4) or 10 (tet10, Gmsh ordering) */
  const PetscInt  *conn;
} FcOutputMesh;

/* Per-body fields of one output step. */
typedef struct {
  const PetscReal *u;  /* 3*nnodes displacement */
  const PetscReal *v;  /* 3*nnodes velocity */
  const PetscReal *vm; /* nelems von Mises stress (Cauchy, element centroid) */
  /* Several ranks (run.h5 written collectively, doc/mpi.md): this rank's block of the rows of u
   * and v in the mesh's node order, nodes [nnodes r/N, nnodes (r+1)/N) (3 values each); u and v
   * (every node, for rank 0's VTK files) may then be NULL when the run writes no VTK. NULL on
   * one rank. */
  const PetscReal *u_block, *v_block;
  /* Several ranks: this rank's block of the elements' von Mises stress, [nelems r/N, nelems
   * (r+1)/N); vm (every element, rank 0's VTK files) may then be NULL. NULL on one rank. */
  const PetscReal *vm_block;
} FcOutputFields;

/* Contacts of one output step, in the contact problem's local frames. */
typedef struct {
  PetscInt         m;       /* number of contacts (may be 0) */
  const PetscReal *x;       /* 3m: contact point (world coordinates, current configuration) */
  const PetscReal *normal;  /* 3m: unit normal n (points from the target towards the contactor) */
  const PetscReal *t1, *t2; /* 3m each: tangent directions of the local frame */
  const PetscReal *r;       /* 3m: force in the local frame (r_n, r_t1, r_t2), N (impulses are converted by the caller) */
  const PetscReal *gap;     /* m: signed gap, m */
  const PetscInt  *status;  /* m: FcContactStatus (src/contact/status.h: 0 separated, 1 stick, 2 slip) */
  const PetscInt  *pair;    /* m: index of the contact pair (of the expanded pairs: contacts[] of the case when each entry names one pair) */
} FcOutputContacts;

typedef struct {
  const char         *dir; /* output directory (exists) */
  PetscBool           hdf5, vtk, vtk_binary;
  PetscBool           fclib;         /* fclib/step_<k>.hdf5: the contact problem of every step (FcOutputWriteProblem) */
  const char         *case_name;     /* the FCLIB files' title */
  const char         *fclib_meaning; /* what u and r are, in the FCLIB files' description */
  const char         *case_json;     /* resolved case */
  const char         *case_file;
  const char         *version;
  const char         *petsc_options; /* PetscOptionsView-like "key value" text */
  const char         *command_line;
  PetscInt            nbodies;
  const FcOutputMesh *meshes;
  /* This process's rank on PETSC_COMM_WORLD: every rank opens the output, run.h5 is written by
   * all of them together (collective HDF5), the other files by rank 0 alone (doc/mpi.md). */
  PetscMPIInt rank;
  /* The MPI ranks of the run (0 is read as 1) and, per body (NULL: not recorded), nranks × 2
   * integers: the nodes each rank owns and the elements it assembles (run.h5, doc/mpi.md). */
  PetscInt               nranks;
  const PetscInt *const *partition;
  /* Time series columns (probes.csv header is step,time,<probe columns...>) */
  PetscInt           nprobe_cols;
  const char *const *probe_cols;
  /* Per-step statistics columns (stats.csv header is step,time,<stat columns...>) */
  PetscInt           nstat_cols;
  const char *const *stat_cols;
} FcOutputSpec;

typedef struct _p_FcOutput *FcOutput;

/* Version of the layout in doc/output-format.md, stored as /fcsim attribute format_version. */
#define FC_OUTPUT_FORMAT_VERSION 2

/* Creates probes.csv, stats.csv and, per the spec, run.h5 (metadata and meshes written at once)
 * and vtk/. The spec's strings and meshes are copied: the caller may free them after this call.
 * Body names must be non-empty, unique, without '/' or control characters and not "." or "..";
 * probe/stat column names the same and not "step" or "time" (they name HDF5 datasets).
 * On error *out is NULL and nothing is left open. After any error from a Write call, only
 * FcOutputClose is meaningful (it still frees everything). */
PetscErrorCode FcOutputOpen(const FcOutputSpec *spec, FcOutput *out);
/* Fields for every body (array of nbodies), written to run.h5 and VTK; `k` counts output steps. */
PetscErrorCode FcOutputWriteFields(FcOutput out, PetscInt step, PetscReal time, const FcOutputFields *fields);
/* Contacts of the output step just written: call right after FcOutputWriteFields, with the
 * same step and time, at most once per output step (c->m may be 0). Writes run.h5:/contacts/<k>
 * and vtk/contacts_<k>.vtk (+ vtk/contacts.vtk.series) with the same k as the fields, and the
 * "contacts" grid of run.xdmf at close. A run that never calls it has no contact output at all.
 * Fails if a body is named "contacts" (its VTK files would collide). */
PetscErrorCode FcOutputWriteContacts(FcOutput out, PetscInt step, PetscReal time, const FcOutputContacts *c);
/* One row of probe values (nprobe_cols) for a step (every step). */
PetscErrorCode FcOutputWriteProbes(FcOutput out, PetscInt step, PetscReal time, const PetscReal *values);
/* One row of statistics (nstat_cols) for a step (every step). */
PetscErrorCode FcOutputWriteStats(FcOutput out, PetscInt step, PetscReal time, const PetscReal *values);
/* The last contact problem of a step and its solution r: fclib/step_<step>.hdf5 (with spec.fclib;
 * the folder fclib/ made at the first). */
PetscErrorCode FcOutputWriteProblem(FcOutput out, PetscInt step, FcContactProblem p, const PetscReal *r);
/* The haptic loop's ticks and counts: haptic.csv and run.h5:/haptic (while run.h5 is open: before
 * FcOutputClose); at most once. */
PetscErrorCode FcOutputWriteHaptic(FcOutput out, const FcHapticOutput *h);
/* The run's verdict (src/run/verdict.h), written at close as the attributes of run.h5:/verdict
 * (doc/output-format.md). */
typedef struct {
  const char *verdict;                                 /* "stands", "collapses" or "undecided" */
  PetscReal   collapse_time;                           /* s; -1: no collapse */
  PetscReal   rise, mgh, after;                        /* H (m), m g H (J), the time after which "stands" is judged (s) */
  PetscReal   t_last;                                  /* time of the last row judged, s */
  PetscReal   drop_last, max_drop, max_abs_drop_after; /* m */
  PetscReal   max_energy_after;                        /* J */
} FcOutputVerdict;
/* Record the verdict (copied) to be written at close; at most once, before FcOutputClose. */
PetscErrorCode FcOutputSetVerdict(FcOutput out, const FcOutputVerdict *v);
/* The user's PETSc options that the run never used (FcOptionsReportUnused): n names ("-ksp_rtoll")
 * and where each came from ("command line", "case.json: petsc.ksp_rtol"), copied, written at close
 * as run.h5:/fcsim/petsc_options_unused (doc/output-format.md); at most once, before FcOutputClose. */
PetscErrorCode FcOutputSetUnusedOptions(FcOutput out, PetscInt n, const char *const *names, const char *const *sources);
/* Flush everything (run.xdmf, *.vtk.series, HDF5 tables) and close. Frees everything and sets
 * *out = NULL even when writing fails (the error is returned after the clean-up); NULL is a no-op. */
PetscErrorCode FcOutputClose(FcOutput *out);
/* After an error elsewhere (the run stops): close and free without finishing the files and
 * without raising a second error; the caller removes the folder. */
PetscErrorCode FcOutputAbandon(FcOutput *out);
/* A close of run.h5 failed (full disk, file-size limit): HDF5 must not be finalized. */
PetscBool FcOutputHDF5Unusable(void);
/* Number of FcOutputWriteFields calls so far (the next output step index k). */
PetscErrorCode FcOutputGetNumOutputSteps(FcOutput out, PetscInt *nout);

/* Legacy VTK writer (fcsim's own; no libvtk). Unstructured grid with point vectors
 * "displacement", "velocity" and cell scalar "von_mises"; tet10 reordered to VTK_QUADRATIC_TETRA. */
PetscErrorCode FcVTKWriteBody(const char *path, PetscBool binary, const FcOutputMesh *mesh, const FcOutputFields *f, PetscReal time);

/* Legacy VTK POLYDATA of contact points: one VERTEX per point, point vectors "force" (world
 * frame), "normal", "r_local" and scalars "gap" (double), "status", "pair" (int). */
PetscErrorCode FcVTKWriteContacts(const char *path, PetscBool binary, const FcOutputContacts *c, PetscReal time);

/* World-frame contact forces (3m): force_i = r_n n + r_t1 t1 + r_t2 t2 of contact i. */
PetscErrorCode FcOutputContactForces(const FcOutputContacts *c, PetscReal *force);

/* Connectivity in VTK/XDMF node order (nelems*npe, int64) from Gmsh order: tet4 unchanged;
 * tet10 swaps positions 8 and 9 (Gmsh edge (3,2),(3,1) vs VTK (1,3),(2,3)). */
PetscErrorCode FcOutputCellsToVTK(PetscInt nelems, PetscInt npe, const PetscInt *conn, PetscInt64 *cells);

#endif
