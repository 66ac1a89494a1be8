/* fcsim — the run driver. */
#define _XOPEN_SOURCE 700
#include "run.h"
#include "verdict.h"
#include "haptic.h"
#include "monitors.h"
#include "estimate.h"
#include "../model/model.h"
#include "../step/step.h"
#include "../compliance/compliance.h"
#include "../contact/solver.h"
#include "../io/output.h"
#include "../core/fsutil.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static PetscErrorCode FinalDir_Private(const FcCase *c, const FcRunOptions *o, char *dir, size_t len)
{
  char        stamp[64];
  time_t      now = time(NULL);
  struct tm   tmv;
  struct stat st;

  PetscFunctionBegin;
  if (o->outdir) {
    /* checked, not copied blindly: FcOutDirCheck refuses an empty or too long path */
    PetscCall(PetscStrncpy(dir, o->outdir, len));
    PetscFunctionReturn(0);
  }
  localtime_r(&now, &tmv);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
  PetscCall(PetscSNPrintf(dir, len, "%s/%s/%s", c->output_dir, c->name, stamp));
  for (int k = 2; lstat(dir, &st) == 0; k++) PetscCall(PetscSNPrintf(dir, len, "%s/%s/%s-%d", c->output_dir, c->name, stamp, k));
  PetscFunctionReturn(0);
}

/* ---- several ranks (mpiexec -n N; doc/mpi.md) ----------------------------------------------
 * Every rank reads the case; rank 0 meshes the bodies and sends every other rank its part of each
 * deformable body's mesh (src/mesh/mesh_part.c); each rank assembles its share of the
 * elements into the distributed matrices and vectors, and factors with MUMPS in parallel; rank 0
 * alone checks, creates and commits the output folder; every rank writes run.h5 with the others
 * (collective HDF5, each a block of its rows), rank 0 the other files, from vectors gathered to it
 * (src/io/output.h). A result rank 0 decides (the folder, the estimate's disk space) is broadcast,
 * so that every rank takes the same path. */
static PetscMPIInt RunRank_Private(void)
{
  PetscMPIInt rank = 0;
  (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  return rank;
}

/* Rank 0's error code on every rank (rank 0 printed its line; the others return it silently). */
static PetscErrorCode FromRank0_Private(PetscErrorCode ierr)
{
  int code = (int)ierr;
  if (MPI_Bcast(&code, 1, MPI_INT, 0, PETSC_COMM_WORLD) != MPI_SUCCESS) return PETSC_ERR_MPI;
  return (PetscErrorCode)code;
}

/* What runs on one rank only today, refused on several before anything is computed (one line,
 * exit 2; every rank raises it, rank 0 prints it: src/core/fc.c). */
static PetscErrorCode RanksCheck_Private(const FcCase *c, PetscMPIInt size, PetscBool views)
{
  char path[128];

  PetscFunctionBegin;
  if (size == 1) PetscFunctionReturn(0);
  /* a rigid body is replicated (its few DoFs: every rank computes the same, doc/mpi.md), also one
   * driven by a device log (each rank reads the log and replays or couples it alike) */
  for (PetscInt b = 0; b < c->nbodies; b++) {
    FcCaseBodyPath(c, b, "kinematics", path, sizeof path);
    if (c->bodies[b].corotational)
      return FcInputError(c->file, path, "global_corotational runs on one process only: %d were started by mpiexec (doc/mpi.md)", (int)size);
  }
  /* contact (doc/mpi.md "Contact"): the strategies by their registered capability; the recursive
   * linearization only (the others keep their problems of one rank) */
  PetscCall(FcComplianceCheckCase(c, size));
  if (c->ncontacts && c->contact_linearization != FC_LINEARIZATION_RECURSIVE)
    return FcInputError(c->file, "contact_step.linearization", "\"%s\" runs on one process only: %d were started by mpiexec; use \"recursive\" (doc/mpi.md)",
      c->contact_linearization == FC_LINEARIZATION_ONCE ? "once" : "fast", (int)size);
  if (c->haptic.set) return FcInputError(c->file, "haptic", "the haptic loop runs on one process only: %d were started by mpiexec (doc/mpi.md)", (int)size);
  if (views)
    return FcInputError(
      c->file, "petsc", "the case's view options run on one process only: %d were started by mpiexec (doc/mpi.md); give them on the command line", (int)size);
  PetscFunctionReturn(0);
}

typedef struct {
  FcModel       model;
  FcContactStep contact;
  FcOutput      out;
  FcOutputMesh *meshes;
  PetscInt    **partition; /* per body with a mesh: nranks × 2 (nodes owned, elements), rank 0 */
  PetscInt     *partbuf;   /* their storage */
  char         *petsc_opts;
  PetscReal    *row;
  FcVerdict     verdict; /* when the case has a "verdict" */
  PetscInt      ncols;   /* probe columns: the model's, then FC_DEVICE_NCOLS per body driven by a device */
  char        **cols;
  FcHaptic      haptic;        /* when the case has a "haptic" section */
  PetscBool     haptic_failed; /* haptic.strict and a tick exhausted its budget */
  FcRunMonitors monitors;      /* the consumers of every step (monitors.h) */
} RunState;

/* The probe columns of the run: the model's, then "<body>_<FcDeviceColumns[k]>" for every rigid
 * body driven by a device log (doc/output-format.md: probes.csv and run.h5:/probes). */
static PetscErrorCode ProbeColumns_Private(RunState *rs)
{
  FcModel *m = &rs->model;
  PetscInt n = m->nprobe_cols;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++)
    if (FcBodyHasDevice(m->bodies[b])) n += FC_DEVICE_NCOLS;
  PetscCall(PetscCalloc1(n + 1, &rs->cols));
  rs->ncols = 0;
  for (PetscInt j = 0; j < m->nprobe_cols; j++) PetscCall(PetscStrallocpy(m->probe_cols[j], &rs->cols[rs->ncols++]));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (!FcBodyHasDevice(m->bodies[b])) continue;
    for (PetscInt k = 0; k < FC_DEVICE_NCOLS; k++) {
      char name[FC_NAME_LEN + 16];
      PetscCall(PetscSNPrintf(name, sizeof name, "%s_%s", FcBodyName(m->bodies[b]), FcDeviceColumns[k]));
      PetscCall(PetscStrallocpy(name, &rs->cols[rs->ncols++]));
    }
  }
  PetscFunctionReturn(0);
}

/* A quasi-static step whose Newton iteration fails (time.cutback = depth > 0) is retried from
 * the step's start as two half steps, recursively, down to 2^depth sub-steps: the load path is
 * the same (boundary values and ramps are functions of time), only the increments shrink, which
 * is what a Newton iteration that left its basin of attraction (large rotations, a contact set
 * that changes a lot within one increment, a nearly incompressible material) needs. The bodies'
 * accepted state (u, v and the contact forces Hᵀr) is saved before the attempt and restored
 * before the retry, whose contact solves start from r = 0 (FcContactStepForget: the failed
 * attempt's impulses and frames may be far off). The statistics of the
 * step add up the work of every attempt; substeps counts the sub-steps that made the step. */
static PetscErrorCode StepCutback_Private(FcModel *m, FcContactStep cs, const FcStepInfo *s, PetscInt depth, FcStepStats *st)
{
  Vec        *su, *sv, *sf;
  FcStepStats h[2];
  FcStepInfo  hs;

  PetscFunctionBegin;
  if (depth == 0) {
    PetscCall(FcStep(m, cs, s, st));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscCalloc3(m->nbodies, &su, m->nbodies, &sv, m->nbodies, &sf));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    Vec fc;
    if (!FcBodyNDof(m->bodies[b])) continue; /* bodies with a state: deformable and dynamic rigid */
    PetscCall(VecDuplicate(FcBodyU(m->bodies[b]), &su[b]));
    PetscCall(VecDuplicate(FcBodyV(m->bodies[b]), &sv[b]));
    PetscCall(VecCopy(FcBodyU(m->bodies[b]), su[b]));
    PetscCall(VecCopy(FcBodyV(m->bodies[b]), sv[b]));
    /* the contact forces Hᵀr enter the first residual of the retry (they are the accepted
     * state's, not the failed attempt's) */
    PetscCall(FcBodyGetContactForce(m->bodies[b], PETSC_FALSE, &fc));
    if (fc) {
      PetscCall(VecDuplicate(fc, &sf[b]));
      PetscCall(VecCopy(fc, sf[b]));
    }
  }
  PetscCall(FcStep(m, cs, s, st));
  if (!st->converged && !FcInterrupted) {
    const FcStepStats failed = *st;
    for (PetscInt b = 0; b < m->nbodies; b++) {
      Vec fc;
      if (!FcBodyNDof(m->bodies[b])) continue;
      PetscCall(VecCopy(su[b], FcBodyU(m->bodies[b])));
      PetscCall(VecCopy(sv[b], FcBodyV(m->bodies[b])));
      PetscCall(FcBodyGetContactForce(m->bodies[b], PETSC_FALSE, &fc));
      if (sf[b]) PetscCall(VecCopy(sf[b], fc));
      else if (fc) PetscCall(VecSet(fc, 0.0));
    }
    if (cs) PetscCall(FcContactStepForget(cs));
    if (FcVerbosity > 0 && !RunRank_Private())
      fprintf(stderr, "fcsim: step %d t=%g..%g: not converged (%d Newton iterations, relative residual %.3e): retrying as 2 sub-steps\n", (int)s->step,
        (double)s->t0, (double)s->t1, (int)failed.newton_it, (double)failed.residual);
    hs    = *s;
    hs.dt = 0.5 * s->dt;
    hs.t1 = s->t0 + hs.dt;
    PetscCall(StepCutback_Private(m, cs, &hs, depth - 1, &h[0]));
    if (h[0].converged && !FcInterrupted) {
      hs.t0 = hs.t1;
      hs.t1 = s->t1;
      PetscCall(StepCutback_Private(m, cs, &hs, depth - 1, &h[1]));
    } else h[1] = h[0];
    /* the state is the last sub-step's; the work is everyone's */
    *st                    = h[1];
    st->converged          = (PetscBool)(h[0].converged && h[1].converged);
    st->nonfinite          = h[0].converged ? h[1].nonfinite : h[0].nonfinite;
    st->substeps           = h[0].substeps + (h[0].converged ? h[1].substeps : 0);
    st->newton_it          = failed.newton_it + h[0].newton_it + (h[0].converged ? h[1].newton_it : 0);
    st->assembly           = failed.assembly + h[0].assembly + (h[0].converged ? h[1].assembly : 0);
    st->factor             = failed.factor + h[0].factor + (h[0].converged ? h[1].factor : 0);
    st->solve              = failed.solve + h[0].solve + (h[0].converged ? h[1].solve : 0);
    st->total              = failed.total + h[0].total + (h[0].converged ? h[1].total : 0);
    st->shift              = PetscMax(failed.shift, PetscMax(h[0].shift, h[0].converged ? h[1].shift : 0));
    st->penalty            = PetscMax(failed.penalty, PetscMax(h[0].penalty, h[0].converged ? h[1].penalty : 0));
    st->refactors          = failed.refactors + h[0].refactors + (h[0].converged ? h[1].refactors : 0);
    st->backtracks         = failed.backtracks + h[0].backtracks + (h[0].converged ? h[1].backtracks : 0);
    st->contact.solves     = failed.contact.solves + h[0].contact.solves + (h[0].converged ? h[1].contact.solves : 0);
    st->contact.iterations = failed.contact.iterations + h[0].contact.iterations + (h[0].converged ? h[1].contact.iterations : 0);
  }
  for (PetscInt b = 0; b < m->nbodies; b++) {
    PetscCall(VecDestroy(&su[b]));
    PetscCall(VecDestroy(&sv[b]));
    PetscCall(VecDestroy(&sf[b]));
  }
  PetscCall(PetscFree3(su, sv, sf));
  PetscFunctionReturn(0);
}

/* The verdict's probe columns exist, and m g H > 0 (m: the bodies with a state). */
static PetscErrorCode VerdictSetup_Private(const FcCase *c, RunState *rs)
{
  const FcModel *m       = &rs->model;
  PetscInt       col[2]  = {-1, -1};
  const char    *want[2] = {c->verdict.drop, c->verdict.energy}, *key[2] = {"verdict.drop", "verdict.energy"};
  PetscReal      mass = 0,
            g         = PetscSqrtReal(
                      c->gravity.value[0] * c->gravity.value[0] + c->gravity.value[1] * c->gravity.value[1] + c->gravity.value[2] * c->gravity.value[2]);

  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) {
    for (PetscInt j = 0; j < m->nprobe_cols; j++)
      if (!strcmp(m->probe_cols[j], want[k])) col[k] = j;
    if (col[k] < 0)
      return FcInputError(
        c->file, key[k], "no probe column \"%s\" (the columns are the probes' names, with _x, _y, _z for a vector probe without \"component\")", want[k]);
  }
  for (PetscInt b = 0; b < m->nbodies; b++)
    if (FcBodyNDof(m->bodies[b])) mass += FcBodyMass(m->bodies[b]);
  if (!(mass * g > 0)) return FcInputError(c->file, "verdict", "m g H is zero (no body with mass, or no gravity): the kinetic-energy criterion has no scale");
  PetscCall(FcVerdictInit(&c->verdict, col[0], col[1], mass * g * c->verdict.rise, &rs->verdict));
  PetscFunctionReturn(0);
}

/* Everything that checks the case against its meshes (groups, surfaces, probes, contact pairs),
 * before any file is written: an input error here leaves nothing behind. */
static PetscErrorCode RunSetup_Private(const FcCase *c, RunState *rs)
{
  PetscFunctionBegin;
  PetscCall(PetscLogStagePush(FC_STAGE_Setup));
  PetscCall(FcComplianceCheckCase(c, 1)); /* its type and capabilities, before the meshes are read (the ranks: RanksCheck_Private) */
  PetscCall(FcModelCreate(c, &rs->model));
  if (c->ncontacts) PetscCall(FcContactStepCreate(&rs->model, &rs->contact));
  if (c->verdict.set) PetscCall(VerdictSetup_Private(c, rs));
  if (c->haptic.set) PetscCall(FcHapticCreate(c, &rs->model, &rs->haptic));
  PetscCall(PetscLogStagePop());
  PetscFunctionReturn(0);
}

/* The size estimate from the loaded meshes (exact counts), before the first factorization. */
static PetscErrorCode EstimateMeshes_Private(const FcCase *c, const RunState *rs, const char *outdir, PetscBool force, FcEstimate *e)
{
  PetscInt *nodes, *tets, *npe;

  PetscFunctionBegin;
  PetscCall(PetscCalloc3(rs->model.nbodies + 1, &nodes, rs->model.nbodies + 1, &tets, rs->model.nbodies + 1, &npe));
  for (PetscInt b = 0; b < rs->model.nbodies; b++) {
    const FcMesh *mesh = FcBodyFieldMesh(rs->model.bodies[b]);
    if (!mesh) continue; /* 0 nodes: no field mesh, skipped by the estimate */
    nodes[b] = FcMeshNNodesAll(mesh);
    tets[b]  = FcMeshNElemsAll(mesh);
    npe[b]   = mesh->npe;
  }
  PetscCall(FcEstimateMeshes(c, nodes, tets, npe, e));
  PetscCall(PetscFree3(nodes, tets, npe));
  /* rank 0's folder and machine decide (a rank without the folder would judge another disk) */
  PetscCall(FromRank0_Private(RunRank_Private() ? 0 : FcEstimateCheck(c, e, outdir, force)));
  PetscFunctionReturn(0);
}

/* The run's consumers of a step, in the order they are called (monitors.h). */
static PetscErrorCode RunMonitors_Private(const FcCase *c, RunState *rs)
{
  PetscFunctionBegin;
  PetscCall(FcRunMonitorProbes(&rs->monitors));
  if (c->verdict.set) PetscCall(FcRunMonitorVerdict(&rs->monitors, &rs->verdict));
  PetscCall(FcRunMonitorFields(&rs->monitors));
  if (c->output_fclib) PetscCall(FcRunMonitorFCLIB(&rs->monitors));
  if (rs->haptic) PetscCall(FcRunMonitorHaptic(&rs->monitors, rs->haptic, &rs->haptic_failed));
  PetscFunctionReturn(0);
}

/* The run's writers (src/io/output.h) in tmp: the metadata, the meshes of the deformable bodies,
 * the probe and statistics columns. */
static PetscErrorCode RunOutputOpen_Private(const FcCase *c, const FcRunOptions *o, const char *tmp, RunState *rs)
{
  FcModel     *m = &rs->model;
  FcOutputSpec spec;
  PetscInt     nmesh = 0, *part;
  PetscMPIInt  size;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(m->nbodies + 1, &rs->meshes));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscCalloc2(m->nbodies + 1, &rs->partition, 2 * size * (m->nbodies + 1), &rs->partbuf));
  part = rs->partbuf;
  for (PetscInt b = 0; b < m->nbodies; b++) {
    const FcMesh *mesh = FcBodyFieldMesh(m->bodies[b]);
    PetscInt      own[2], rstart, rend;
    if (!mesh) continue;
    /* the partition, gathered to rank 0: the nodes each rank owns (u's layout), its elements */
    PetscCall(VecGetOwnershipRange(FcBodyU(m->bodies[b]), &rstart, &rend));
    own[0] = (rend - rstart) / 3;
    PetscCall(FcAssemblyOwnedElements(mesh, FcBodyU(m->bodies[b]), &own[1]));
    PetscCallMPI(MPI_Gather(own, 2, MPIU_INT, part + 2 * size * nmesh, 2, MPIU_INT, 0, PETSC_COMM_WORLD));
    rs->partition[nmesh] = part + 2 * size * nmesh;
    /* the whole mesh's counts; its coordinates and cells from rank 0 alone, which writes them
     * (another rank's mesh may be trimmed: FcBodyTrimMesh; before, every rank copied them) */
    rs->meshes[nmesh].name   = FcBodyName(m->bodies[b]);
    rs->meshes[nmesh].nnodes = FcMeshNNodesAll(mesh);
    rs->meshes[nmesh].X      = RunRank_Private() ? NULL : mesh->X;
    rs->meshes[nmesh].nelems = FcMeshNElemsAll(mesh);
    rs->meshes[nmesh].npe    = mesh->npe;
    rs->meshes[nmesh].conn   = RunRank_Private() ? NULL : mesh->conn;
    nmesh++;
  }
  PetscCall(PetscOptionsGetAll(NULL, &rs->petsc_opts));
  PetscCall(PetscMemzero(&spec, sizeof spec));
  spec.dir           = tmp;
  spec.hdf5          = c->output_hdf5;
  spec.vtk           = c->output_vtk;
  spec.vtk_binary    = c->vtk_binary;
  spec.fclib         = c->output_fclib;
  spec.case_name     = c->name;
  spec.fclib_meaning = c->integrator == FC_INTEGRATOR_QUASI_STATIC ? "quasi-static: u = displacement, r = force"
                                                                   : "dynamics (theta-method): u = velocity, r = impulse";
  spec.case_json     = c->resolved_json;
  spec.case_file     = c->file;
  spec.version       = FcVersion();
  spec.petsc_options = rs->petsc_opts;
  spec.command_line  = o->command_line ? o->command_line : "";
  spec.nbodies       = nmesh;
  spec.meshes        = rs->meshes;
  spec.nranks        = size;
  spec.partition     = (const PetscInt *const *)rs->partition;
  PetscCall(ProbeColumns_Private(rs));
  spec.nprobe_cols = rs->ncols;
  spec.probe_cols  = (const char *const *)rs->cols;
  spec.nstat_cols  = FcStepNumStats;
  spec.stat_cols   = FcStepStatNames;
  spec.rank        = RunRank_Private();
  /* on every rank: run.h5 is written by all of them, the other files by rank 0 (output.h) */
  PetscCall(FcOutputOpen(&spec, &rs->out));
  PetscCall(PetscMalloc1(PetscMax(rs->ncols, FcStepNumStats) + 1, &rs->row));
  PetscFunctionReturn(0);
}

/* The step's lines on stderr: a warning when it did not converge, its statistics (not with -q). */
static PetscErrorCode StepReport_Private(const FcCase *c, const FcStepInfo *s, const FcStepStats *st, PetscReal tout, PetscBool contact)
{
  PetscFunctionBegin;
  if (!st->converged && FcVerbosity > 0) { /* with -q the run's summary line (FcRun) is the only one */
    char why[160] = "";
    if (!st->contact.converged)
      snprintf(why, sizeof why, ", a contact solve did not converge: %s, common error %.2e, tol %g", st->contact.reason ? st->contact.reason : "?",
        (double)st->contact.error, (double)st->contact.tol);
    fprintf(stderr, "fcsim: warning: step %d t=%g: not converged in %d Newton iterations (relative residual %.3e%s)\n", (int)s->step, (double)s->t1,
      (int)st->newton_it, (double)st->residual, why);
  }
  if (FcVerbosity > 0) {
    fprintf(stderr, "step %d/%d t=%.6g newton=%d res=%.3e %s asm=%.3fs fact=%.3fs solve=%.3fs out=%.3fs", (int)s->step, (int)c->steps, (double)s->t1,
      (int)st->newton_it, (double)st->residual, st->converged ? "ok" : "NOT-CONVERGED", (double)st->assembly, (double)st->factor, (double)st->solve,
      (double)tout);
    if (contact)
      fprintf(stderr, " contacts=%d active=%d stick=%d slip=%d contact_it=%d contact_err=%.2e", (int)st->contact.contacts, (int)st->contact.active,
        (int)st->contact.stick, (int)st->contact.slip, (int)st->contact.iterations, (double)st->contact.error);
    fprintf(stderr, "\n");
  }
  PetscFunctionReturn(0);
}

/* *stopped_at: the step that became inadmissible, where the run stopped (its outputs up to the
 * step before are complete and closed); 0 when it ran to the end. */
static PetscErrorCode RunSteps_Private(
  const FcCase *c, const FcRunOptions *o, const char *tmp, RunState *rs, PetscBool *converged, PetscInt *nfailed, PetscInt *stopped_at, PetscInt *ndone)
{
  FcRunContext rc;
  FcRunEvent   ev    = {0, 0.0, NULL, PETSC_FALSE};
  PetscInt     nfail = 0, done = 0;
  PetscReal    tstart, tnow;

  PetscFunctionBegin;
  *stopped_at = 0;
  PetscCall(PetscTime(&tstart));
  PetscCall(RunOutputOpen_Private(c, o, tmp, rs));
  PetscCall(RunMonitors_Private(c, rs));
  rc = (FcRunContext){c, &rs->model, rs->contact, rs->out, rs->ncols, rs->cols, rs->row};
  PetscCall(FcRunMonitorsOpen(&rs->monitors, &rc, &ev));
  PetscCall(FcRunMonitorsStep(&rs->monitors, &rc, &ev)); /* step 0: the initial state */

  PetscCall(PetscLogStagePush(FC_STAGE_Steps));
  for (PetscInt n = 1; n <= c->steps; n++) {
    FcStepInfo  s;
    FcStepStats st;
    PetscReal   to0, to1;

    s.integrator = c->integrator;
    s.step       = n;
    s.dt         = c->dt;
    s.t0         = (n - 1) * c->dt;
    s.t1         = n * c->dt;
    PetscCall(StepCutback_Private(&rs->model, rs->contact, &s, c->integrator == FC_INTEGRATOR_QUASI_STATIC ? c->cutback : 0, &st));
    PetscCheck(!FcInterrupted, PETSC_COMM_SELF, PETSC_ERR_SIG, "interrupted at step %d", (int)n);
    /* A state with inverted elements or non-finite values cannot be continued from (the next
     * step would start from it): the run stops here, whatever time.newton.allow_failure says.
     * Its statistics row records the failed step; the outputs up to the previous step are kept
     * (FcRun puts them in <dir>.failed-<pid>). */
    if (st.nonfinite) {
      FcStepStatsRow(&st, rs->row);
      if (rs->out) PetscCall(FcOutputWriteStats(rs->out, n, s.t1, rs->row));
      *stopped_at = n;
      nfail++;
      break;
    }
    ev = (FcRunEvent){n, s.t1, &s, (PetscBool)(n == c->steps)};
    PetscCall(PetscTime(&to0));
    PetscCall(FcRunMonitorsStep(&rs->monitors, &rc, &ev));
    PetscCall(PetscTime(&to1));
    /* the step's statistics, with the time of its consumers */
    st.output = to1 - to0;
    st.total += st.output;
    FcStepStatsRow(&st, rs->row);
    if (rs->out) PetscCall(FcOutputWriteStats(rs->out, n, s.t1, rs->row));
    done = n;
    if (!st.converged) nfail++;
    if (!RunRank_Private()) PetscCall(StepReport_Private(c, &s, &st, to1 - to0, (PetscBool)(rs->contact != NULL)));
    if (ev.last && n < c->steps) {
      if (FcVerbosity > 0) fprintf(stderr, "fcsim: collapse at t = %g s: the run stops (verdict.stop_on_collapse)\n", (double)s.t1);
      break;
    }
  }
  PetscCall(PetscLogStagePop());
  PetscCall(FcRunMonitorsClose(&rs->monitors, &rc, &ev));
  {
    /* every solver has read its options by now (a view at the last solve included): the user's
     * options that none read are a warning each and run.h5's record (core/fc.h) */
    PetscInt           nun;
    const char *const *names, *const *sources;
    PetscCall(FcContactSolverDormantOptions()); /* the case's parameters of other solvers: not warned */
    PetscCall(FcOptionsReportUnused("this run", &nun, &names, &sources));
    if (rs->out) PetscCall(FcOutputSetUnusedOptions(rs->out, nun, names, sources));
  }
  PetscCall(FcOutputClose(&rs->out));
  PetscCall(PetscTime(&tnow));
  *converged = (PetscBool)(!*stopped_at && (nfail == 0 || c->allow_nonconvergence) && !rs->haptic_failed);
  *nfailed   = nfail;
  *ndone     = done;
  if (RunRank_Private()) PetscFunctionReturn(0); /* rank 0 speaks */
  if (nfail && *converged) fprintf(stderr, "fcsim: %d of %d steps did not converge (allowed by time.newton.allow_failure)\n", (int)nfail, (int)done);
  if (FcVerbosity > 0) fprintf(stderr, "fcsim: %d steps in %.2fs\n", (int)done, (double)(tnow - tstart));
  PetscFunctionReturn(0);
}

/* failed: an error stops the run; the output is abandoned (closed without finishing it, no
 * second error), the caller removes its folder. */
static PetscErrorCode RunStateDestroy_Private(RunState *rs, PetscBool failed)
{
  PetscFunctionBegin;
  if (rs->out && failed) PetscCall(FcOutputAbandon(&rs->out));
  if (rs->out) PetscCall(FcOutputClose(&rs->out));
  PetscCall(FcContactStepDestroy(&rs->contact));
  PetscCall(FcRunMonitorsDestroy(&rs->monitors));
  PetscCall(FcHapticDestroy(&rs->haptic));
  PetscCall(PetscFree(rs->meshes));
  PetscCall(PetscFree2(rs->partition, rs->partbuf));
  PetscCall(PetscFree(rs->row));
  for (PetscInt j = 0; rs->cols && j < rs->ncols; j++) PetscCall(PetscFree(rs->cols[j]));
  PetscCall(PetscFree(rs->cols));
  PetscCall(PetscFree(rs->petsc_opts));
  PetscCall(FcModelDestroy(&rs->model));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRun(const FcCase *c, const FcRunOptions *o, PetscBool *converged)
{
  char           final[PETSC_MAX_PATH_LEN], kept[PETSC_MAX_PATH_LEN + 96], tmpdir[PETSC_MAX_PATH_LEN + 64];
  FcOutDir       od;
  RunState       rs;
  PetscInt       nfail = 0, stopped = 0, ndone = 0;
  PetscBool      views = PETSC_FALSE, *inserted = NULL, stepping = PETSC_FALSE;
  FcEstimate     est;
  PetscErrorCode ierr = 0;
  PetscMPIInt    rank, size;

  PetscFunctionBegin;
  *converged = PETSC_FALSE;
  rank       = RunRank_Private();
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMemzero(&od, sizeof od));
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscBool set = PETSC_FALSE;
    if (c->petsc_view[i]) PetscCall(FcOptionsHas(c->petsc_keys[i], &set));
    views = (PetscBool)(views || (c->petsc_view[i] && !set)); /* set: the command line's view */
  }
  PetscCall(RanksCheck_Private(c, size, views));
  /* Before anything is computed: where the results go (never over a user's data), ... */
  PetscCall(FcEstimateCase(c, &est));
  if (!rank) {
    PetscBool checked = PETSC_FALSE;
    ierr              = FinalDir_Private(c, o, final, sizeof final);
    if (!ierr) ierr = FcOutDirCheck(final, o->outdir ? "command line" : c->file, o->outdir ? "-o" : "output.dir", "run", o->overwrite, &od);
    checked = (PetscBool)!ierr;
    /* ... what it will need, refused when it cannot fit (before anything is meshed) ... */
    if (!ierr) ierr = FcEstimateCheck(c, &est, od.final, o->force);
    if (ierr && checked) FcOutDirAbandon(&od); /* the target's lock */
  }
  ierr = FromRank0_Private(ierr);
  if (ierr) return ierr;
  /* ... and every check of the case against its meshes, before any file is written. */
  PetscCall(PetscMemzero(&rs, sizeof rs));
  if (views) {
    /* The case's view options write into the run's folder, <tmp>/petsc/ (renamed with it), and
     * a monitor opens its file when the solvers are set up: the folder is made first. An error
     * of the set-up removes it as any other (FcOutDirAbandon). One rank only (RanksCheck). */
    char petsc[PETSC_MAX_PATH_LEN + 80];
    PetscCall(PetscCalloc1(c->npetsc, &inserted));
    ierr = FcOutDirCreate(&od);
    if (!ierr) ierr = PetscSNPrintf(petsc, sizeof petsc, "%s/petsc", od.tmp);
    if (!ierr) ierr = FcMakeDirs(petsc);
    if (!ierr) ierr = FcCaseInsertViewOptions(c, od.tmp, inserted);
    if (!ierr) ierr = RunSetup_Private(c, &rs);
    if (!ierr) ierr = EstimateMeshes_Private(c, &rs, od.final, o->force, &est);
  } else {
    ierr = RunSetup_Private(c, &rs);
    if (!ierr) ierr = EstimateMeshes_Private(c, &rs, od.final, o->force, &est);
    if (!ierr) ierr = FromRank0_Private(rank ? 0 : FcOutDirCreate(&od));
  }
  /* every rank opens run.h5 in rank 0's temporary folder (collective HDF5: doc/mpi.md) */
  if (!ierr) ierr = PetscStrncpy(tmpdir, od.tmp, sizeof tmpdir);
  if (!ierr && size > 1) ierr = MPI_Bcast(tmpdir, (PetscMPIInt)sizeof tmpdir, MPI_CHAR, 0, PETSC_COMM_WORLD) == MPI_SUCCESS ? 0 : PETSC_ERR_MPI;
  stepping = (PetscBool)!ierr;
  if (!ierr) ierr = RunSteps_Private(c, o, tmpdir, &rs, converged, &nfail, &stopped, &ndone);
  /* On several ranks an error inside the steps may be one rank's alone (a write of rank 0 with
   * ROMIO, which reports it on that rank only): the others wait in a collective call for ever, so
   * nothing collective may follow, not even the clean-up (destroying MUMPS' factor duplicates a
   * communicator: rank 0 hung there, tests/integration/test_mpi_abort.py). Its line is printed
   * (the error handler), rank 0 removes the folder, and MPI_Abort ends every rank (exit 1). Before
   * the steps every rank has read the same input and raised the same error; an interrupt reaches
   * every rank. */
  if (ierr && size > 1 && stepping && ierr != FC_ERR_INPUT && ierr != PETSC_ERR_SIG) {
    FcOutDirAbandon(&od); /* nothing on ranks other than 0: od is empty there */
    /* another rank removes rank 0's temporary folder itself (run.h5 is written there by every
     * rank: the folder is on a file system they share), else it would wait for the next command
     * on the target; rank 0, killed by the abort, can no longer do it */
    if (rank) FcRemoveTree(tmpdir);
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  {
    PetscErrorCode ierr2 = RunStateDestroy_Private(&rs, (PetscBool)(ierr != 0));
    if (!ierr) ierr = ierr2;
  }
  if (inserted) {
    PetscErrorCode ierr2 = FcCaseRemoveViewOptions(c, inserted);
    if (!ierr) ierr = ierr2;
    ierr2 = PetscFree(inserted);
    if (!ierr) ierr = ierr2;
  }
  if (ierr) {
    FcOutDirAbandon(&od); /* nothing on ranks other than 0: od is empty there */
    /* an error of the clean-up after the steps (closing run.h5) may also be one rank's alone */
    if (size > 1 && stepping && ierr != FC_ERR_INPUT && ierr != PETSC_ERR_SIG) MPI_Abort(PETSC_COMM_WORLD, 1);
    return ierr;
  }
  /* Every rank has closed run.h5 without an error before rank 0 renames the folder: a rank that
   * failed called MPI_Abort above, which ends the others here (the folder keeps its temporary
   * name, never the target's). */
  if (size > 1) PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  if (rank) PetscFunctionReturn(0); /* the folder is rank 0's */
  if (*converged) {
    PetscCall(FcOutDirCommit(&od));
    if (FcVerbosity > 0) fprintf(stderr, "fcsim: wrote %s\n", od.final);
    PetscFunctionReturn(0);
  }
  /* A failed run never replaces anything: its outputs are kept beside the target (inside a
   * study's temporary folder, the study decides). */
  if (o->nested) {
    PetscCall(FcOutDirCommit(&od));
    PetscCall(PetscStrncpy(kept, od.final, sizeof kept));
  } else PetscCall(FcOutDirKeepFailed(&od, kept, sizeof kept));
  if (stopped)
    fprintf(stderr,
      "fcsim: step %d (t = %g): a Newton iterate became inadmissible (an element inverted, det F <= 0, a non-finite value, or an indefinite Delassus operator)%s; the run stopped: reduce time.dt%s; its outputs up to step %d are in %s%s\n",
      (int)stopped, (double)(stopped * c->dt), c->integrator == FC_INTEGRATOR_QUASI_STATIC && c->cutback ? " even after the step cutback" : "",
      c->integrator == FC_INTEGRATOR_QUASI_STATIC ? " or raise time.cutback" : "", (int)stopped - 1, kept, o->nested ? "" : " (the target was not touched)");
  else if (rs.haptic_failed && !nfail)
    fprintf(stderr, "fcsim: the run failed: a haptic tick exhausted its iteration budget (haptic.strict); its outputs are in %s%s; see haptic.csv\n", kept,
      o->nested ? "" : " (the target was not touched)");
  else
    fprintf(stderr,
      "fcsim: the run failed: %d of %d steps did not converge; its outputs are in %s%s; see stats.csv, or allow it with time.newton.allow_failure\n",
      (int)nfail, (int)ndone, kept, o->nested ? "" : " (the target was not touched)");
  PetscFunctionReturn(0);
}

PetscErrorCode FcInfo(const FcCase *c, PetscBool force)
{
  RunState       rs;
  FcEstimate     est;
  char           line[512];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  /* the same checks as `run` before it computes: a case `info` accepts, `run` starts (but for
   * the free space of the output folder, which `info` does not choose) */
  PetscCall(FcEstimateCase(c, &est));
  PetscCall(FcEstimateCheck(c, &est, NULL, force));
  PetscCall(PetscMemzero(&rs, sizeof rs));
  ierr = RunSetup_Private(c, &rs);
  if (!ierr) ierr = EstimateMeshes_Private(c, &rs, NULL, force, &est);
  if (ierr) {
    (void)RunStateDestroy_Private(&rs, PETSC_TRUE);
    return ierr;
  }
  printf("%s\n", c->resolved_json);
  for (PetscInt b = 0; b < rs.model.nbodies; b++) {
    const FcBody  body = rs.model.bodies[b];
    const FcMesh *mesh = FcBodyFieldMesh(body);
    if (!mesh) {
      printf("body %s: %s\n", c->bodies[b].name, c->bodies[b].type);
      continue;
    }
    printf("body %s: mesh %s refine %d order %d: %d nodes, %d elements (tet%d), %d DoFs, %d surface triangles, volume %.9g m^3, mass %.9g kg\n",
      c->bodies[b].name, c->bodies[b].mesh_file, (int)c->bodies[b].refine, (int)c->bodies[b].order, (int)mesh->nnodes, (int)mesh->nelems, (int)mesh->npe,
      3 * (int)mesh->nnodes, (int)mesh->nbfaces, (double)FcBodyVolume(body), (double)(FcBodyVolume(body) * c->bodies[b].material.density));
  }
  FcEstimateFormat(&est, line, sizeof line);
  printf("%s\n", line);
  PetscCall(RunStateDestroy_Private(&rs, PETSC_FALSE));
  PetscFunctionReturn(0);
}
