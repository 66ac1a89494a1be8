/* fcsim — the run driver. */
#define _XOPEN_SOURCE 700
#include "run.h"
#include "verdict.h"
#include "haptic.h"
#include "estimate.h"
#include "../model/model.h"
#include "../step/step.h"
#include "../compliance/compliance.h"
#include "../io/output.h"
#include "../io/fclib_io.h"
#include "../core/fsutil.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static PetscErrorCode FinalDir_Private(const FcCase *c, const FcRunOptions *o, char *dir, size_t len)
{
  char       stamp[64];
  time_t     now = time(NULL);
  struct tm  tmv;
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

static PetscErrorCode WriteFields_Private(FcModel *m, FcOutput out, PetscInt step, PetscReal t, PetscReal **vm)
{
  FcOutputFields    *f;
  const PetscScalar **u, **v;
  PetscInt           k = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(m->nbodies, &f, m->nbodies, &u, m->nbodies, &v));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (m->bodies[b]->rigid) continue; /* rigid bodies have no mesh fields */
    PetscCall(FcBodyVonMises(m->bodies[b], vm[b]));
    PetscCall(VecGetArrayRead(m->bodies[b]->u, &u[b]));
    PetscCall(VecGetArrayRead(m->bodies[b]->v, &v[b]));
    f[k].u  = u[b];
    f[k].v  = v[b];
    f[k].vm = vm[b];
    k++;
  }
  PetscCall(FcOutputWriteFields(out, step, t, f));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (m->bodies[b]->rigid) continue;
    PetscCall(VecRestoreArrayRead(m->bodies[b]->u, &u[b]));
    PetscCall(VecRestoreArrayRead(m->bodies[b]->v, &v[b]));
  }
  PetscCall(PetscFree3(f, u, v));
  PetscFunctionReturn(0);
}

/* Contact points of the current contacts (frame vectors made contiguous for the writer). */
static PetscErrorCode WriteContacts_Private(FcContactStep cs, FcOutput out, PetscInt step, PetscReal t)
{
  FcContactView    v;
  FcOutputContacts oc;
  PetscReal       *n, *t1, *t2;

  PetscFunctionBegin;
  PetscCall(FcContactStepGetView(cs, &v));
  PetscCall(PetscMalloc3(3 * v.m + 1, &n, 3 * v.m + 1, &t1, 3 * v.m + 1, &t2));
  for (PetscInt a = 0; a < v.m; a++)
    for (int k = 0; k < 3; k++) {
      n[3 * a + k]  = v.n[9 * a + k];
      t1[3 * a + k] = v.t1[9 * a + k];
      t2[3 * a + k] = v.t2[9 * a + k];
    }
  oc.m      = v.m;
  oc.x      = v.x;
  oc.normal = n;
  oc.t1     = t1;
  oc.t2     = t2;
  oc.r      = v.r;
  oc.gap    = v.gap;
  oc.status = v.status;
  oc.pair   = v.pair;
  PetscCall(FcOutputWriteContacts(out, step, t, &oc));
  PetscCall(PetscFree3(n, t1, t2));
  PetscFunctionReturn(0);
}

/* FCLIB file of the step's last contact problem: fclib/step_<k>.hdf5 in the run directory. */
static PetscErrorCode WriteFCLIB_Private(FcContactStep cs, const char *dir, const FcCase *c, PetscInt step)
{
  FcContactProblem p;
  const PetscReal *r;
  char             path[PETSC_MAX_PATH_LEN + 64], info[256];

  PetscFunctionBegin;
  PetscCall(FcContactStepGetProblem(cs, &p, &r));
  if (!p) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/fclib", dir));
  PetscCheck(mkdir(path, 0777) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create directory %s: %s", path, strerror(errno));
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/fclib/step_%06d.hdf5", dir, (int)step));
  PetscCall(PetscSNPrintf(info, sizeof info, "fcsim case %s, step %d, %s", c->name, (int)step, c->integrator == FC_INTEGRATOR_QUASI_STATIC ? "quasi-static: u = displacement, r = force" : "dynamics (theta-method): u = velocity, r = impulse"));
  {
    FcFCLIBInfo fi = {c->name, info, "fcsim local contact problem (W = sum_b H_b A_b^-1 H_b^T)"};
    PetscCall(FcFCLIBWriteSolution(path, p, &fi, r, NULL));
  }
  PetscFunctionReturn(0);
}

typedef struct {
  FcModel       model;
  FcContactStep contact;
  FcOutput      out;
  FcOutputMesh *meshes;
  PetscReal   **vm;
  char         *petsc_opts;
  PetscReal    *row;
  FcVerdict     verdict; /* when the case has a "verdict" */
  PetscInt      ncols;   /* probe columns: the model's, then FC_DEVICE_NCOLS per body driven by a device */
  char        **cols;
  FcHaptic      haptic;  /* when the case has a "haptic" section */
  PetscBool     haptic_failed; /* haptic.strict and a tick exhausted its budget */
} RunState;

/* The probe columns of the run: the model's, then "<body>_<FcDeviceColumns[k]>" for every rigid
 * body driven by a device log (doc/output-format.md: probes.csv and run.h5:/probes). */
static PetscErrorCode ProbeColumns_Private(RunState *rs)
{
  FcModel *m = &rs->model;
  PetscInt n = m->nprobe_cols;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++)
    if (m->bodies[b]->device) n += FC_DEVICE_NCOLS;
  PetscCall(PetscCalloc1(n + 1, &rs->cols));
  rs->ncols = 0;
  for (PetscInt j = 0; j < m->nprobe_cols; j++) PetscCall(PetscStrallocpy(m->probe_cols[j], &rs->cols[rs->ncols++]));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (!m->bodies[b]->device) continue;
    for (PetscInt k = 0; k < FC_DEVICE_NCOLS; k++) {
      char name[FC_NAME_LEN + 16];
      PetscCall(PetscSNPrintf(name, sizeof name, "%s_%s", m->bodies[b]->name, FcDeviceColumns[k]));
      PetscCall(PetscStrallocpy(name, &rs->cols[rs->ncols++]));
    }
  }
  PetscFunctionReturn(0);
}

/* The probe row: the model's probes, then each device body's record of the step. */
static PetscErrorCode Probes_Private(RunState *rs, const FcContactView *cv)
{
  FcModel *m = &rs->model;
  PetscInt k = m->nprobe_cols;

  PetscFunctionBegin;
  PetscCall(FcModelProbes(m, cv, rs->row));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (!m->bodies[b]->device) continue;
    PetscCall(FcBodyDeviceRow(m->bodies[b], rs->row + k));
    k += FC_DEVICE_NCOLS;
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
    if (!m->bodies[b]->ndof) continue; /* bodies with a state: deformable and dynamic rigid */
    PetscCall(VecDuplicate(m->bodies[b]->u, &su[b]));
    PetscCall(VecDuplicate(m->bodies[b]->v, &sv[b]));
    PetscCall(VecCopy(m->bodies[b]->u, su[b]));
    PetscCall(VecCopy(m->bodies[b]->v, sv[b]));
    /* the contact forces Hᵀr enter the first residual of the retry (they are the accepted
     * state's, not the failed attempt's) */
    if (m->bodies[b]->fcontact) {
      PetscCall(VecDuplicate(m->bodies[b]->fcontact, &sf[b]));
      PetscCall(VecCopy(m->bodies[b]->fcontact, sf[b]));
    }
  }
  PetscCall(FcStep(m, cs, s, st));
  if (!st->converged && !FcInterrupted) {
    const FcStepStats failed = *st;
    for (PetscInt b = 0; b < m->nbodies; b++) {
      if (!m->bodies[b]->ndof) continue;
      PetscCall(VecCopy(su[b], m->bodies[b]->u));
      PetscCall(VecCopy(sv[b], m->bodies[b]->v));
      if (sf[b]) PetscCall(VecCopy(sf[b], m->bodies[b]->fcontact));
      else if (m->bodies[b]->fcontact) PetscCall(VecSet(m->bodies[b]->fcontact, 0.0));
    }
    if (cs) PetscCall(FcContactStepForget(cs));
    if (FcVerbosity > 0) fprintf(stderr, "fcsim: step %d t=%g..%g: not converged (%d Newton iterations, relative residual %.3e): retrying as 2 sub-steps\n", (int)s->step, (double)s->t0, (double)s->t1, (int)failed.newton_it, (double)failed.residual);
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
    *st = h[1];
    st->converged = (PetscBool)(h[0].converged && h[1].converged);
    st->nonfinite = h[0].converged ? h[1].nonfinite : h[0].nonfinite;
    st->substeps  = h[0].substeps + (h[0].converged ? h[1].substeps : 0);
    st->newton_it = failed.newton_it + h[0].newton_it + (h[0].converged ? h[1].newton_it : 0);
    st->assembly  = failed.assembly + h[0].assembly + (h[0].converged ? h[1].assembly : 0);
    st->factor    = failed.factor + h[0].factor + (h[0].converged ? h[1].factor : 0);
    st->solve     = failed.solve + h[0].solve + (h[0].converged ? h[1].solve : 0);
    st->total     = failed.total + h[0].total + (h[0].converged ? h[1].total : 0);
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
  const FcModel *m = &rs->model;
  PetscInt       col[2] = {-1, -1};
  const char    *want[2] = {c->verdict.drop, c->verdict.energy}, *key[2] = {"verdict.drop", "verdict.energy"};
  PetscReal      mass = 0, g = PetscSqrtReal(c->gravity.value[0] * c->gravity.value[0] + c->gravity.value[1] * c->gravity.value[1] + c->gravity.value[2] * c->gravity.value[2]);

  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) {
    for (PetscInt j = 0; j < m->nprobe_cols; j++)
      if (!strcmp(m->probe_cols[j], want[k])) col[k] = j;
    if (col[k] < 0) return FcInputError(c->file, key[k], "no probe column \"%s\" (the columns are the probes' names, with _x, _y, _z for a vector probe without \"component\")", want[k]);
  }
  for (PetscInt b = 0; b < m->nbodies; b++)
    if (m->bodies[b]->ndof) mass += m->bodies[b]->mass;
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
  if (c->ncontacts) PetscCall(FcComplianceCheckType(c->file, c->compliance_type)); /* before the meshes are read */
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
  PetscInt *nodes, *tets, *npe, n = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(rs->model.nbodies + 1, &nodes, rs->model.nbodies + 1, &tets, rs->model.nbodies + 1, &npe));
  for (PetscInt b = 0; b < rs->model.nbodies; b++) {
    if (c->bodies[b].rigid) continue;
    nodes[n] = rs->model.bodies[b]->mesh.nnodes;
    tets[n]  = rs->model.bodies[b]->mesh.nelems;
    npe[n++] = rs->model.bodies[b]->mesh.npe;
  }
  PetscCall(FcEstimateMeshes(c, n, nodes, tets, npe, e));
  PetscCall(PetscFree3(nodes, tets, npe));
  PetscCall(FcEstimateCheck(c, e, outdir, force));
  PetscFunctionReturn(0);
}

/* The verdict of the rows recorded: one line on stdout, and run.h5:/verdict. */
static PetscErrorCode Verdict_Private(const FcCase *c, RunState *rs)
{
  const FcVerdict *v = &rs->verdict;
  FcVerdictKind    kind;
  FcOutputVerdict  ov;

  PetscFunctionBegin;
  PetscCall(FcVerdictDecide(v, &kind));
  ov.verdict            = FcVerdictName(kind);
  ov.collapse_time      = v->collapse_time;
  ov.rise               = v->rise;
  ov.mgh                = v->mgh;
  ov.after              = v->after;
  ov.t_last             = v->t_last;
  ov.drop_last          = v->drop_last;
  ov.max_drop           = v->max_drop;
  ov.max_abs_drop_after = v->max_abs_drop_after;
  ov.max_energy_after   = v->max_energy_after;
  PetscCall(FcOutputSetVerdict(rs->out, &ov));
  if (kind == FC_VERDICT_COLLAPSES)
    printf("verdict: collapses at t = %.6g s (%s drops %.4g m > %g of the rise %.4g m)\n", (double)v->collapse_time, c->verdict.drop, (double)(c->verdict.collapse_drop * v->rise), (double)c->verdict.collapse_drop, (double)v->rise);
  else
    printf("verdict: %s (t = %.6g s; after %g s: max |drop| %.4g m = %.3g of the rise, max kinetic energy %.4g J = %.3g m g H; drop at the end %.6g m)\n", ov.verdict, (double)v->t_last, (double)v->after, (double)v->max_abs_drop_after, (double)(v->max_abs_drop_after / v->rise),
           (double)v->max_energy_after, (double)(v->max_energy_after / v->mgh), (double)v->drop_last);
  fflush(stdout);
  PetscFunctionReturn(0);
}

/* *stopped_at: the step that became inadmissible, where the run stopped (its outputs up to the
 * step before are complete and closed); 0 when it ran to the end. */
static PetscErrorCode RunSteps_Private(const FcCase *c, const FcRunOptions *o, const char *tmp, RunState *rs, PetscBool *converged, PetscInt *nfailed, PetscInt *stopped_at, PetscInt *ndone)
{
  FcModel     *m = &rs->model;
  FcOutputSpec spec;
  PetscInt     nfail = 0, ncol, nmesh = 0, done = 0;
  FcContactView cv, *cvp = NULL;
  PetscReal    tstart, tnow;

  PetscFunctionBegin;
  *stopped_at = 0;
  PetscCall(PetscTime(&tstart));
  PetscCall(PetscCalloc2(m->nbodies, &rs->meshes, m->nbodies, &rs->vm));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    FcMesh *mesh = &m->bodies[b]->mesh;
    if (m->bodies[b]->rigid) continue;
    rs->meshes[nmesh].name   = m->bodies[b]->name;
    rs->meshes[nmesh].nnodes = mesh->nnodes;
    rs->meshes[nmesh].X      = mesh->X;
    rs->meshes[nmesh].nelems = mesh->nelems;
    rs->meshes[nmesh].npe    = mesh->npe;
    rs->meshes[nmesh].conn   = mesh->conn;
    nmesh++;
    PetscCall(PetscMalloc1(mesh->nelems, &rs->vm[b]));
  }
  PetscCall(PetscOptionsGetAll(NULL, &rs->petsc_opts));
  PetscCall(PetscMemzero(&spec, sizeof spec));
  spec.dir           = tmp;
  spec.hdf5          = c->output_hdf5;
  spec.vtk           = c->output_vtk;
  spec.vtk_binary    = c->vtk_binary;
  spec.case_json     = c->resolved_json;
  spec.case_file     = c->file;
  spec.version       = FcVersion();
  spec.petsc_options = rs->petsc_opts;
  spec.command_line  = o->command_line ? o->command_line : "";
  spec.nbodies       = nmesh;
  spec.meshes        = rs->meshes;
  PetscCall(ProbeColumns_Private(rs));
  spec.nprobe_cols   = rs->ncols;
  spec.probe_cols    = (const char *const *)rs->cols;
  spec.nstat_cols    = FcStepNumStats;
  spec.stat_cols     = FcStepStatNames;
  PetscCall(FcOutputOpen(&spec, &rs->out));
  ncol = PetscMax(rs->ncols, FcStepNumStats);
  PetscCall(PetscMalloc1(ncol + 1, &rs->row));

  /* step 0: the initial state */
  PetscCall(WriteFields_Private(m, rs->out, 0, 0.0, rs->vm));
  if (rs->contact) PetscCall(WriteContacts_Private(rs->contact, rs->out, 0, 0.0));
  if (rs->contact) {
    PetscCall(FcContactStepGetView(rs->contact, &cv));
    cvp = &cv;
  }
  PetscCall(Probes_Private(rs, cvp));
  PetscCall(FcOutputWriteProbes(rs->out, 0, 0.0, rs->row));
  if (c->verdict.set) PetscCall(FcVerdictAddRow(&rs->verdict, 0.0, rs->row));

  PetscCall(PetscLogStagePush(FC_STAGE_Steps));
  for (PetscInt n = 1; n <= c->steps; n++) {
    FcStepInfo  s;
    FcStepStats st;
    PetscReal   to0, to1;
    PetscBool   last = (PetscBool)(n == c->steps);

    s.integrator = c->integrator;
    s.step       = n;
    s.dt         = c->dt;
    s.t0         = (n - 1) * c->dt;
    s.t1         = n * c->dt;
    PetscCall(StepCutback_Private(m, rs->contact, &s, c->integrator == FC_INTEGRATOR_QUASI_STATIC ? c->cutback : 0, &st));
    PetscCheck(!FcInterrupted, PETSC_COMM_SELF, PETSC_ERR_SIG, "interrupted at step %d", (int)n);
    /* A state with inverted elements or non-finite values cannot be continued from (the next
     * step would start from it): the run stops here, whatever time.newton.allow_failure says.
     * Its statistics row records the failed step; the outputs up to the previous step are kept
     * (FcRun puts them in <dir>.failed-<pid>). */
    if (st.nonfinite) {
      FcStepStatsRow(&st, rs->row);
      PetscCall(FcOutputWriteStats(rs->out, n, s.t1, rs->row));
      *stopped_at = n;
      nfail++;
      break;
    }
    PetscCall(PetscTime(&to0));
    PetscCall(PetscLogEventBegin(FC_EVENT_Output, 0, 0, 0, 0));
    if (rs->contact) PetscCall(FcContactStepGetView(rs->contact, &cv));
    PetscCall(Probes_Private(rs, cvp));
    PetscCall(FcOutputWriteProbes(rs->out, n, s.t1, rs->row));
    if (c->verdict.set) {
      PetscCall(FcVerdictAddRow(&rs->verdict, s.t1, rs->row));
      /* verdict.stop_on_collapse: what follows a collapse (blocks in free fall) decides nothing */
      if (c->verdict.stop_on_collapse && rs->verdict.collapse_time >= 0) last = PETSC_TRUE;
    }
    if (n % c->output_every == 0 || last) {
      PetscCall(WriteFields_Private(m, rs->out, n, s.t1, rs->vm));
      if (rs->contact) PetscCall(WriteContacts_Private(rs->contact, rs->out, n, s.t1));
    }
    if (rs->contact && c->output_fclib) PetscCall(WriteFCLIB_Private(rs->contact, tmp, c, n));
    PetscCall(PetscLogEventEnd(FC_EVENT_Output, 0, 0, 0, 0));
    /* the haptic loop between this step and the next, on this step's frozen contact problem */
    if (rs->haptic && !last) PetscCall(FcHapticAfterStep(rs->haptic, rs->contact, &s));
    PetscCall(PetscTime(&to1));
    st.output = to1 - to0;
    st.total += st.output;
    FcStepStatsRow(&st, rs->row);
    PetscCall(FcOutputWriteStats(rs->out, n, s.t1, rs->row));
    done = n;
    if (!st.converged) {
      nfail++;
      /* with -q the run's summary line (FcRun) is the only one */
      if (FcVerbosity > 0) {
        char why[160] = "";
        if (!st.contact.converged) snprintf(why, sizeof why, ", a contact solve did not converge: %s, common error %.2e, tol %g", st.contact.reason ? st.contact.reason : "?", (double)st.contact.error, (double)st.contact.tol);
        fprintf(stderr, "fcsim: warning: step %d t=%g: not converged in %d Newton iterations (relative residual %.3e%s)\n", (int)n, (double)s.t1, (int)st.newton_it, (double)st.residual, why);
      }
    }
    if (FcVerbosity > 0) {
      fprintf(stderr, "step %d/%d t=%.6g newton=%d res=%.3e %s asm=%.3fs fact=%.3fs solve=%.3fs out=%.3fs", (int)n, (int)c->steps, (double)s.t1, (int)st.newton_it, (double)st.residual, st.converged ? "ok" : "NOT-CONVERGED",
              (double)st.assembly, (double)st.factor, (double)st.solve, (double)(to1 - to0));
      if (rs->contact)
        fprintf(stderr, " contacts=%d active=%d stick=%d slip=%d contact_it=%d contact_err=%.2e", (int)st.contact.contacts, (int)st.contact.active, (int)st.contact.stick, (int)st.contact.slip, (int)st.contact.iterations, (double)st.contact.error);
      fprintf(stderr, "\n");
    }
    if (last && n < c->steps) {
      if (FcVerbosity > 0) fprintf(stderr, "fcsim: collapse at t = %g s: the run stops (verdict.stop_on_collapse)\n", (double)s.t1);
      break;
    }
  }
  PetscCall(PetscLogStagePop());
  if (c->verdict.set) PetscCall(Verdict_Private(c, rs));
  PetscCall(FcOutputClose(&rs->out));
  if (rs->haptic) {
    PetscInt nexhausted;
    PetscCall(FcHapticFinish(rs->haptic, tmp, c->output_hdf5, &nexhausted));
    rs->haptic_failed = (PetscBool)(c->haptic.strict && nexhausted > 0);
  }
  PetscCall(PetscTime(&tnow));
  *converged = (PetscBool)(!*stopped_at && (nfail == 0 || c->allow_nonconvergence) && !rs->haptic_failed);
  *nfailed   = nfail;
  *ndone     = done;
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
  PetscCall(FcHapticDestroy(&rs->haptic));
  if (rs->vm)
    for (PetscInt b = 0; b < rs->model.nbodies; b++) PetscCall(PetscFree(rs->vm[b]));
  PetscCall(PetscFree2(rs->meshes, rs->vm));
  PetscCall(PetscFree(rs->row));
  for (PetscInt j = 0; rs->cols && j < rs->ncols; j++) PetscCall(PetscFree(rs->cols[j]));
  PetscCall(PetscFree(rs->cols));
  PetscCall(PetscFree(rs->petsc_opts));
  PetscCall(FcModelDestroy(&rs->model));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRun(const FcCase *c, const FcRunOptions *o, PetscBool *converged)
{
  char           final[PETSC_MAX_PATH_LEN], kept[PETSC_MAX_PATH_LEN + 96];
  FcOutDir       od;
  RunState       rs;
  PetscInt       nfail = 0, stopped = 0, ndone = 0;
  PetscBool      views = PETSC_FALSE, *inserted = NULL;
  FcEstimate     est;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *converged = PETSC_FALSE;
  /* Before anything is computed: where the results go (never over a user's data), ... */
  PetscCall(FinalDir_Private(c, o, final, sizeof final));
  PetscCall(FcOutDirCheck(final, o->outdir ? "command line" : c->file, o->outdir ? "-o" : "output.dir", "run", o->overwrite, &od));
  /* ... what it will need, refused when it cannot fit (before anything is meshed) ... */
  ierr = FcEstimateCase(c, &est);
  if (!ierr) ierr = FcEstimateCheck(c, &est, od.final, o->force);
  if (ierr) {
    FcOutDirAbandon(&od); /* the target's lock */
    return ierr;
  }
  /* ... and every check of the case against its meshes, before any file is written. */
  PetscCall(PetscMemzero(&rs, sizeof rs));
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscBool set = PETSC_FALSE;
    if (c->petsc_view[i]) PetscCall(PetscOptionsHasName(NULL, NULL, c->petsc_keys[i], &set));
    views = (PetscBool)(views || (c->petsc_view[i] && !set)); /* set: the command line's view */
  }
  if (views) {
    /* The case's view options write into the run's folder, <tmp>/petsc/ (renamed with it), and
     * a monitor opens its file when the solvers are set up: the folder is made first. An error
     * of the set-up removes it as any other (FcOutDirAbandon). */
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
    if (!ierr) ierr = FcOutDirCreate(&od);
  }
  if (!ierr) ierr = RunSteps_Private(c, o, od.tmp, &rs, converged, &nfail, &stopped, &ndone);
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
    FcOutDirAbandon(&od);
    return ierr;
  }
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
    fprintf(stderr, "fcsim: step %d (t = %g): a Newton iterate became inadmissible (an element inverted, det F <= 0, a non-finite value, or an indefinite Delassus operator)%s; the run stopped: reduce time.dt%s; its outputs up to step %d are in %s%s\n", (int)stopped, (double)(stopped * c->dt),
            c->integrator == FC_INTEGRATOR_QUASI_STATIC && c->cutback ? " even after the step cutback" : "", c->integrator == FC_INTEGRATOR_QUASI_STATIC ? " or raise time.cutback" : "", (int)stopped - 1, kept, o->nested ? "" : " (the target was not touched)");
  else if (rs.haptic_failed && !nfail)
    fprintf(stderr, "fcsim: the run failed: a haptic tick exhausted its iteration budget (haptic.strict); its outputs are in %s%s; see haptic.csv\n", kept, o->nested ? "" : " (the target was not touched)");
  else
    fprintf(stderr, "fcsim: the run failed: %d of %d steps did not converge; its outputs are in %s%s; see stats.csv, or allow it with time.newton.allow_failure\n", (int)nfail, (int)ndone, kept, o->nested ? "" : " (the target was not touched)");
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
    const FcBody body = rs.model.bodies[b];
    if (c->bodies[b].rigid) {
      printf("body %s: rigid\n", c->bodies[b].name);
      continue;
    }
    printf("body %s: mesh %s refine %d order %d: %d nodes, %d elements (tet%d), %d DoFs, %d surface triangles, volume %.9g m^3, mass %.9g kg\n", c->bodies[b].name, c->bodies[b].mesh_file, (int)c->bodies[b].refine, (int)c->bodies[b].order, (int)body->mesh.nnodes, (int)body->mesh.nelems,
           (int)body->mesh.npe, 3 * (int)body->mesh.nnodes, (int)body->mesh.nbfaces, (double)body->volume, (double)(body->volume * c->bodies[b].material.density));
  }
  FcEstimateFormat(&est, line, sizeof line);
  printf("%s\n", line);
  PetscCall(RunStateDestroy_Private(&rs, PETSC_FALSE));
  PetscFunctionReturn(0);
}
