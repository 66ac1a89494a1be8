/* fcsim — what a run will need, estimated before the work (estimate.h).
 *
 * The constants, all lower bounds, measured on the cantilever (cases/cantilever.json, beam.geo
 * refined 1-3 times, tet4 and tet10; MUMPS's own report, -mat_mumps_icntl_4 2):
 *  - nodes per tetrahedron: 1/6 for tet4, 4/3 for tet10: the limits of a fine mesh (each vertex in
 *    about 24 tetrahedra: V ~ T/6; edges E ~ V + T by Euler's formula with F ~ 2T); coarser meshes
 *    have more (tet4 0.30 and 0.23, tet10 1.85, 1.60 and 1.46 measured);
 *  - nonzeros of K, M and A: at least 39 per row (a vertex couples with itself and 12 neighbours,
 *    3 components each; about 15 on average in a fine tet mesh);
 *  - entries of the Cholesky factor (MUMPS, nested dissection): at least 5 n^(4/3) for n DoFs,
 *    the growth of nested dissection on 3-D meshes (George 1973; Lipton, Rose, Tarjan 1979)
 *    with the smallest constant measured: 5.8 (n = 3165), 8.3 (16875), 8.5 (19377), 10.5 (115995),
 *    13.5 (817137); 8 bytes each (10.4 measured with MUMPS's workspace). Only when the
 *    linear solver is a factorization (the default; -pc_type lu or cholesky);
 *  - time per step: at least 20 µs (the step's bookkeeping and its two CSV rows; 70 µs measured
 *    for the smallest cantilever) plus one forward and back substitution per body, 4 flops per
 *    factor entry at 10 GFlop/s (a core's peak; substitutions run far below it);
 *  - the rows of probes and stats kept for run.h5: 8 bytes per value, twice while the table grows
 *    (it doubles); written: 8 bytes per value in run.h5 and at least 6 characters in the CSV;
 *  - fields per output step and body: run.h5 displacement, velocity (6 values per node) and von
 *    Mises (1 per element); VTK points, displacement, velocity (9 values per node, 8 bytes each),
 *    connectivity (4 bytes per node of an element) and von Mises;
 *  - 64 MB for the process itself (PETSc, MPI, Gmsh; 83 MB measured for the smallest run);
 *  - a haptic loop: its rows (19 values a tick) kept and written like the others, 1 µs a tick. */
#define _XOPEN_SOURCE 700
#include "estimate.h"
#include "../core/fsutil.h"
#include "../step/step.h"
#include <math.h>
#include <sys/stat.h>
#include <string.h>

#define FC_EST_BASE_BYTES   64e6
#define FC_EST_NNZ_PER_ROW  39.0
#define FC_EST_FACTOR_C     5.0
#define FC_EST_STEP_SECONDS 20e-6
#define FC_EST_FLOPS        1e10
#define FC_EST_CSV_BYTES    6.0

/* the probe columns of the case (as FcModelCreate names them) */
static double ProbeColumns_Private(const FcCase *c)
{
  double n = 0;
  for (PetscInt p = 0; p < c->nprobes; p++) {
    const FcCaseProbe *pr  = &c->probes[p];
    PetscBool          vec = (PetscBool)(pr->type == FC_PROBE_DISPLACEMENT || pr->type == FC_PROBE_REACTION || pr->type == FC_PROBE_CONTACT_FORCE);
    n += (vec && pr->component < 0) ? 3 : 1;
  }
  return n;
}

static PetscBool Factorization_Private(void)
{
  char      pc[64];
  PetscBool set;

  if (PetscOptionsGetString(NULL, NULL, "-pc_type", pc, sizeof pc, &set) || !set) return PETSC_TRUE;
  return (PetscBool)(!strcmp(pc, "cholesky") || !strcmp(pc, "lu"));
}

/* Adds one deformable body of `tets` tetrahedra and `nodes` nodes (npe nodes per element). */
static void AddBody_Private(const FcCase *c, PetscInt b, double tets, double nodes, double npe, PetscBool factor, FcEstimate *e, double *worst)
{
  const double n    = 3 * nodes;
  const double nnzL = factor ? FC_EST_FACTOR_C * pow(n, 4.0 / 3.0) : 0;
  const double nout = floor((double)c->steps / (double)c->output_every) + 2;
  double       mem;

  e->tets += tets;
  e->nodes += nodes;
  e->dofs += n;
  /* mesh (the model's and the output's copies), vectors, K, M, A (values and column indices),
   * the factor */
  mem = 2 * (24 * nodes + 4 * npe * tets) + 80 * n + 3 * 12 * FC_EST_NNZ_PER_ROW * n + 8 * nnzL;
  e->mem_bodies += mem;
  if (mem > *worst) {
    *worst  = mem;
    e->body = b;
  }
  e->seconds += (double)c->steps * 4 * nnzL / FC_EST_FLOPS;
  if (c->output_hdf5) e->out_fields += nout * (48 * nodes + 8 * tets);
  if (c->output_vtk) e->out_fields += nout * (72 * nodes + (4 * npe + 9) * tets);
}

/* The parts that do not depend on the meshes. */
static void Finish_Private(const FcCase *c, FcEstimate *e)
{
  const double cols = ProbeColumns_Private(c) + (double)FcStepNumStats + 4; /* + step, time of both tables */
  const double rows = (double)c->steps + 1;

  if (c->output_hdf5) e->mem_rows = 2 * 8 * rows * cols;
  e->out_rows = rows * cols * (FC_EST_CSV_BYTES + (c->output_hdf5 ? 8 : 0));
  if (c->haptic.set) {
    /* the haptic loop (src/run/haptic.c): rate·dt ticks a step, each a row of 18 values and a
     * wall time kept to the end (doubling), written to haptic.csv and run.h5; at least 1 µs a
     * tick (a contact solve) */
    const double ticks = c->haptic.rate * c->dt * (double)c->steps;
    e->mem_haptic      = 2 * 8 * ticks * 19;
    e->out_haptic      = ticks * 18 * (FC_EST_CSV_BYTES + (c->output_hdf5 ? 8 : 0));
    e->mem_rows += e->mem_haptic;
    e->out_rows += e->out_haptic;
    e->seconds += ticks * 1e-6;
  }
  e->memory = FC_EST_BASE_BYTES + e->mem_bodies + e->mem_rows;
  e->output = e->out_fields + e->out_rows;
  e->seconds += (double)c->steps * FC_EST_STEP_SECONDS;
}

static int CompareFileRefine_Private(const void *a, const void *b)
{
  const FcCaseBody *x = *(const FcCaseBody *const *)a, *y = *(const FcCaseBody *const *)b;
  const int         d = strcmp(x->mesh_file, y->mesh_file);
  return d ? d : (x->refine > y->refine) - (x->refine < y->refine);
}

/* share[b]: the bodies that are volumes of body b's file at its refine (b included), found by
 * sorting rather than by comparing every pair (25 million comparisons at 5,000 blocks). */
static PetscErrorCode Shares_Private(const FcCase *c, PetscInt share[])
{
  const FcCaseBody **by;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(c->nbodies, &by));
  for (PetscInt b = 0; b < c->nbodies; b++) by[b] = &c->bodies[b];
  qsort(by, (size_t)c->nbodies, sizeof *by, CompareFileRefine_Private);
  for (PetscInt i = 0, j; i < c->nbodies; i = j) {
    for (j = i + 1; j < c->nbodies && !CompareFileRefine_Private(&by[i], &by[j]);) j++;
    for (PetscInt k = i; k < j; k++) share[by[k] - c->bodies] = j - i;
  }
  PetscCall(PetscFree(by));
  PetscFunctionReturn(0);
}

PetscErrorCode FcEstimateCase(const FcCase *c, FcEstimate *e)
{
  const PetscBool factor = Factorization_Private();
  double          worst  = 0;
  PetscInt       *share;
  PetscErrorCode  rc;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(e, sizeof *e));
  e->body = -1;
  PetscCall(PetscMalloc1(c->nbodies, &share));
  PetscCall(Shares_Private(c, share));
  for (PetscInt b = 0; b < c->nbodies; b++) {
    const FcCaseBody *bd = &c->bodies[b];
    const char       *dot;
    PetscInt64        n0;
    double            tets;
    struct stat       st;

    if (!bd->mesh_file[0]) continue; /* no volume mesh to count (a rigid body) */
    dot = strrchr(bd->mesh_file, '.');
    /* a .geo at refine 0 is its own mesh: counting it would mesh it twice (the mesh layer
     * bounds the meshing; FcEstimateMeshes checks the result) */
    if (bd->refine == 0 && dot && !strcmp(dot, ".geo")) {
      e->partial = PETSC_TRUE;
      continue;
    }
    /* a mesh path that is not a regular file is the mesh loader's to refuse (never opened here) */
    if (stat(bd->mesh_file, &st) || !S_ISREG(st.st_mode)) {
      e->partial = PETSC_TRUE;
      continue;
    }
    rc = FcCaseCountTetrahedra(bd->mesh_file, &n0);
    if (rc) {
      PetscCall(PetscFree(share));
      PetscCall(rc);
    }
    /* the bodies that are volumes of one file share its tetrahedra */
    tets = (double)n0 * pow(8.0, (double)bd->refine) / share[b];
    AddBody_Private(c, b, tets, bd->order == 2 ? 4.0 * tets / 3.0 : tets / 6.0, bd->order == 2 ? 10 : 4, factor, e, &worst);
  }
  PetscCall(PetscFree(share));
  Finish_Private(c, e);
  PetscFunctionReturn(0);
}

PetscErrorCode FcEstimateMeshes(const FcCase *c, const PetscInt nodes[], const PetscInt tets[], const PetscInt npe[], FcEstimate *e)
{
  const PetscBool factor = Factorization_Private();
  double          worst  = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(e, sizeof *e));
  e->body   = -1;
  e->meshed = PETSC_TRUE;
  for (PetscInt b = 0; b < c->nbodies; b++)
    if (nodes[b]) AddBody_Private(c, b, (double)tets[b], (double)nodes[b], (double)npe[b], factor, e, &worst);
  Finish_Private(c, e);
  PetscFunctionReturn(0);
}

static const char *Bytes_Private(double b, char *buf, size_t len)
{
  if (b >= 1e12) snprintf(buf, len, "%.3g TB", b / 1e12);
  else if (b >= 1e9) snprintf(buf, len, "%.3g GB", b / 1e9);
  else if (b >= 1e6) snprintf(buf, len, "%.3g MB", b / 1e6);
  else snprintf(buf, len, "%.3g kB", b / 1e3);
  return buf;
}

static const char *Duration_Private(double s, char *buf, size_t len)
{
  if (s >= 86400) snprintf(buf, len, "%.3g days", s / 86400);
  else if (s >= 3600) snprintf(buf, len, "%.3g h", s / 3600);
  else snprintf(buf, len, "%.3g s", s);
  return buf;
}

void FcEstimateFormat(const FcEstimate *e, char *buf, size_t len)
{
  char m[32], o[32], t[32];
  snprintf(buf, len, "estimate: %.3g tetrahedra, %.3g DoFs%s; memory >= %s, output >= %s, time >= %s", e->tets, e->dofs,
    e->partial ? " (a .geo at refine 0 counted once meshed)" : "", Bytes_Private(e->memory, m, sizeof m), Bytes_Private(e->output, o, sizeof o),
    Duration_Private(e->seconds, t, sizeof t));
}

/* A run that fits but surely lasts hours or writes terabytes: one line, from the last estimate
 * (the meshes'), after the refusals. */
static PetscErrorCode Warn_Private(const FcCase *c, const FcEstimate *e)
{
  char line[512];

  PetscFunctionBegin;
  if (!e->meshed || (e->seconds < FC_ESTIMATE_WARN_SECONDS && e->output < FC_ESTIMATE_WARN_BYTES)) PetscFunctionReturn(0);
  FcEstimateFormat(e, line, sizeof line);
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: a long run: %s (lower bounds)\n", c->file, line));
  PetscFunctionReturn(0);
}

PetscErrorCode FcEstimateCheck(const FcCase *c, const FcEstimate *e, const char *outdir, PetscBool force)
{
  const double phys = FcPhysicalMemory(), days = e->seconds / 86400;
  const char  *tkey = c->steps_given ? "time.steps" : "time.t_end";
  char         key[512], b1[32], b2[32], b3[32], b4[32], what[256];

  PetscFunctionBegin;
  if (force) {
    PetscCall(Warn_Private(c, e));
    PetscFunctionReturn(0);
  }
  if (e->partial && !e->tets) snprintf(what, sizeof what, "%" PetscInt_FMT " steps", c->steps); /* the meshes are counted once meshed */
  else snprintf(what, sizeof what, "%.3g tetrahedra, %.3g DoFs, %" PetscInt_FMT " steps", e->tets, e->dofs, c->steps);
  if (phys > 0 && e->memory > phys) {
    if (e->mem_haptic > e->mem_bodies && e->mem_haptic > e->mem_rows - e->mem_haptic) snprintf(key, sizeof key, "haptic.rate");
    else if (e->mem_rows > e->mem_bodies || e->body < 0) snprintf(key, sizeof key, "%s", tkey);
    else FcCaseBodyPath(c, e->body, c->bodies[e->body].refine > 0 ? "mesh.refine" : "mesh.file", key, sizeof key);
    if (e->partial && !e->tets) snprintf(b2, sizeof b2, "counted once meshed");
    else Bytes_Private(e->mem_bodies, b2, sizeof b2);
    return FcInputError(c->file, key,
      "the run needs at least %s of memory (estimate: %s; meshes, matrices and Cholesky factors %s, per-step rows kept for run.h5 %s), more than this machine's %s: reduce it, or pass --force to run anyway",
      Bytes_Private(e->memory, b1, sizeof b1), what, b2, Bytes_Private(e->mem_rows, b3, sizeof b3), Bytes_Private(phys, b4, sizeof b4));
  }
  if (outdir) {
    const double free = FcFreeSpace(outdir);
    if (free >= 0 && e->output > free) {
      snprintf(key, sizeof key, "%s", e->out_fields > e->out_rows ? "output.every" : e->out_haptic > e->out_rows - e->out_haptic ? "haptic.rate" : tkey);
      return FcInputError(c->file, key,
        "the run writes at least %s (estimate: %s; fields every %" PetscInt_FMT
        " steps %s, per-step rows %s), more than the %s free where %s goes: reduce it, or pass --force to run anyway",
        Bytes_Private(e->output, b1, sizeof b1), what, c->output_every, Bytes_Private(e->out_fields, b2, sizeof b2), Bytes_Private(e->out_rows, b3, sizeof b3),
        Bytes_Private(free, b4, sizeof b4), outdir);
    }
  }
  if (days > FC_ESTIMATE_MAX_DAYS)
    return FcInputError(c->file, tkey,
      "the run needs at least %s (estimate: %s, at least %.3g s per step), more than fcsim's bound of %g days: reduce it, or pass --force to run anyway",
      Duration_Private(e->seconds, b1, sizeof b1), what, e->seconds / PetscMax((double)c->steps, 1.0), FC_ESTIMATE_MAX_DAYS);
  PetscCall(Warn_Private(c, e));
  PetscFunctionReturn(0);
}
