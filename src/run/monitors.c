/* fcsim — the run's consumers of a step (monitors.h). */
#include "monitors.h"
#include <stdio.h>

/* ------------------------------------------------------------------------- probes */

/* The probe row: the model's probes, then each device body's record of the step. */
static PetscErrorCode ProbesStep_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  FcModel      *m = rc->model;
  PetscInt      k = m->nprobe_cols;
  FcContactView cv;

  PetscFunctionBegin;
  (void)ctx;
  PetscCall(PetscLogEventBegin(FC_EVENT_Output, 0, 0, 0, 0));
  if (rc->contact) PetscCall(FcContactStepGetView(rc->contact, &cv));
  PetscCall(FcModelProbes(m, rc->contact ? &cv : NULL, rc->row));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (!FcBodyHasDevice(m->bodies[b])) continue;
    PetscCall(FcBodyDeviceRow(m->bodies[b], rc->row + k));
    k += FC_DEVICE_NCOLS;
  }
  if (rc->out) PetscCall(FcOutputWriteProbes(rc->out, ev->step, ev->time, rc->row)); /* probes.csv: rank 0's (src/io/output.c) */
  PetscCall(PetscLogEventEnd(FC_EVENT_Output, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorProbes(FcRunMonitors *l)
{
  PetscFunctionBegin;
  PetscCall(FcRunMonitorSet(l, "probes", NULL, ProbesStep_Private, NULL, NULL, NULL));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------ verdict */

static PetscErrorCode VerdictStep_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  FcVerdict *v = (FcVerdict *)ctx;

  PetscFunctionBegin;
  PetscCall(FcVerdictAddRow(v, ev->time, rc->row));
  /* verdict.stop_on_collapse: what follows a collapse (blocks in free fall) decides nothing */
  if (ev->step > 0 && rc->c->verdict.stop_on_collapse && v->collapse_time >= 0) ev->last = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* The verdict of the rows recorded: one line on stdout, and run.h5:/verdict. */
static PetscErrorCode VerdictClose_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  const FcCase    *c = rc->c;
  const FcVerdict *v = (const FcVerdict *)ctx;
  FcVerdictKind    kind;
  FcOutputVerdict  ov;
  PetscMPIInt      rank;

  PetscFunctionBegin;
  (void)ev;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rc->out || rank) PetscFunctionReturn(0); /* rank 0 writes run.h5:/verdict (at the end, src/io/h5out.c) and speaks */
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
  PetscCall(FcOutputSetVerdict(rc->out, &ov));
  if (kind == FC_VERDICT_COLLAPSES)
    printf("verdict: collapses at t = %.6g s (%s drops %.4g m > %g of the rise %.4g m)\n", (double)v->collapse_time, c->verdict.drop,
      (double)(c->verdict.collapse_drop * v->rise), (double)c->verdict.collapse_drop, (double)v->rise);
  else
    printf("verdict: %s (t = %.6g s; after %g s: max |drop| %.4g m = %.3g of the rise, max kinetic energy %.4g J = %.3g m g H; drop at the end %.6g m)\n",
      ov.verdict, (double)v->t_last, (double)v->after, (double)v->max_abs_drop_after, (double)(v->max_abs_drop_after / v->rise), (double)v->max_energy_after,
      (double)(v->max_energy_after / v->mgh), (double)v->drop_last);
  fflush(stdout);
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorVerdict(FcRunMonitors *l, FcVerdict *v)
{
  PetscFunctionBegin;
  PetscCall(FcRunMonitorSet(l, "verdict", NULL, VerdictStep_Private, VerdictClose_Private, NULL, v));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------- fields and contacts */

typedef struct {
  PetscInt    nbodies;
  PetscReal **vm;  /* one rank, per deformable body: the von Mises stress of its elements */
  Vec        *vmv; /* several ranks: the same as a vector of the mesh's elements, each rank the
                    * block of rows it writes into run.h5, [E r/N, E (r+1)/N) (FcBodyVonMisesVec:
                    * each element set by the rank that assembles it; no rank holds all) */
  /* Several ranks, per deformable body: u and v scattered to this rank's block of the mesh's node
   * order, nodes [n r/N, n (r+1)/N), the rows it writes into run.h5 (collective HDF5, one
   * contiguous hyperslab per rank: src/io/h5out.c). One scatter of O(n/N) per rank, no gather;
   * NULL for a body whose vectors every rank holds whole (sequential): its block is read in place. */
  VecScatter *toblock;
  Vec        *ublock, *vblock;
  PetscInt   *bstart; /* the block's first node */
} FieldsMon;

/* Several ranks: the scatter of a partitioned body's vectors to this rank's block of the mesh's
 * node order (the distributed nodes of the block: mesh.h part_block, O(n/N); the mesh's own
 * numbering without a partition), and the von Mises vector of its block of the elements. */
static PetscErrorCode FieldsBlock_Private(FieldsMon *f, PetscInt b, FcBody body, PetscMPIInt rank, PetscMPIInt size)
{
  const FcMesh *mesh = FcBodyFieldMesh(body);
  PetscInt      n = FcMeshNNodesAll(mesh), a = (PetscInt)((PetscInt64)n * rank / size), z = (PetscInt)((PetscInt64)n * (rank + 1) / size);
  PetscInt      ne = FcMeshNElemsAll(mesh), *idx;
  PetscMPIInt   vsize;
  IS            from, to;

  PetscFunctionBegin;
  f->bstart[b] = a;
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, (PetscInt)((PetscInt64)ne * (rank + 1) / size - (PetscInt64)ne * rank / size), ne, &f->vmv[b]));
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)FcBodyU(body)), &vsize));
  if (vsize == 1) PetscFunctionReturn(0); /* every rank holds the whole vector */
  if (mesh->part_block) {
    PetscCall(PetscMalloc1(3 * (z - a) + 1, &idx));
    for (PetscInt i = 0; i < z - a; i++)
      for (int c = 0; c < 3; c++) idx[3 * i + c] = 3 * mesh->part_block[i] + c;
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 3 * (z - a), idx, PETSC_OWN_POINTER, &from));
  } else PetscCall(ISCreateStride(PETSC_COMM_SELF, 3 * (z - a), 3 * a, 1, &from));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, 3 * (z - a), 3 * a, 1, &to));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, 3 * (z - a), 3 * n, &f->ublock[b]));
  PetscCall(VecDuplicate(f->ublock[b], &f->vblock[b]));
  PetscCall(VecScatterCreate(FcBodyU(body), from, f->ublock[b], to, &f->toblock[b]));
  PetscCall(ISDestroy(&from));
  PetscCall(ISDestroy(&to));
  PetscFunctionReturn(0);
}

static PetscErrorCode FieldsOpen_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  FieldsMon  *f = (FieldsMon *)ctx;
  FcModel    *m = rc->model;
  PetscMPIInt rank, size;

  PetscFunctionBegin;
  (void)ev;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscCalloc2(m->nbodies + 1, &f->vm, m->nbodies + 1, &f->vmv));
  f->nbodies = m->nbodies;
  if (size > 1) PetscCall(PetscCalloc4(m->nbodies + 1, &f->toblock, m->nbodies + 1, &f->ublock, m->nbodies + 1, &f->vblock, m->nbodies + 1, &f->bstart));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (!FcBodyFieldMesh(m->bodies[b])) continue;
    if (size > 1) PetscCall(FieldsBlock_Private(f, b, m->bodies[b], rank, size));
    else PetscCall(PetscMalloc1(FcBodyFieldMesh(m->bodies[b])->nelems, &f->vm[b]));
  }
  PetscFunctionReturn(0);
}

/* Several ranks: this rank's block of the rows of x (u or v of body b) in the mesh's order. */
static PetscErrorCode FieldsBlockGet_Private(FieldsMon *f, PetscInt b, Vec x, Vec block, const PetscReal **a)
{
  PetscFunctionBegin;
  if (!f->toblock[b]) { /* a sequential vector: the block in place */
    PetscCall(VecGetArrayRead(x, a));
    *a += 3 * f->bstart[b];
    PetscFunctionReturn(0);
  }
  PetscCall(VecScatterBegin(f->toblock[b], x, block, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(f->toblock[b], x, block, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(block, a));
  PetscFunctionReturn(0);
}

static PetscErrorCode FieldsBlockRestore_Private(FieldsMon *f, PetscInt b, Vec x, Vec block, const PetscReal **a)
{
  PetscFunctionBegin;
  if (!*a) PetscFunctionReturn(0);
  if (!f->toblock[b]) {
    *a -= 3 * f->bstart[b];
    PetscCall(VecRestoreArrayRead(x, a));
  } else PetscCall(VecRestoreArrayRead(block, a));
  PetscFunctionReturn(0);
}

/* vtk: the run writes VTK files (rank 0's: every node's values gathered to it) */
static PetscErrorCode WriteFields_Private(FcModel *m, FieldsMon *fm, FcOutput out, PetscBool vtk, PetscInt step, PetscReal t)
{
  FcOutputFields *f;
  FcVecAll       *u, *v, *vm;
  PetscInt       *ib, k = 0;
  PetscMPIInt     size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscCalloc5(m->nbodies, &f, m->nbodies, &u, m->nbodies, &v, m->nbodies, &ib, m->nbodies, &vm));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    if (!FcBodyFieldMesh(m->bodies[b])) continue; /* bodies without nodal fields (rigid) */
    if (size == 1) {
      PetscCall(FcBodyVonMises(m->bodies[b], fm->vm[b]));
      f[k].vm = fm->vm[b];
    } else { /* its block of rows for run.h5, every element for rank 0's VTK files */
      PetscCall(FcBodyVonMisesVec(m->bodies[b], fm->vmv[b]));
      PetscCall(VecGetArrayRead(fm->vmv[b], &f[k].vm_block));
      if (vtk) PetscCall(FcVecRootBegin(fm->vmv[b], &vm[b]));
      f[k].vm = vm[b].a;
    }
    /* one rank: the vectors' own arrays, in the mesh's order. Several: each rank's block of the
     * mesh's order goes to run.h5 (written collectively); the VTK files, rank 0's, take every
     * node, gathered to rank 0 alone (FcVecRootBegin, collective; before, to every rank) */
    if (size > 1) {
      PetscCall(FieldsBlockGet_Private(fm, b, FcBodyU(m->bodies[b]), fm->ublock[b], &f[k].u_block));
      PetscCall(FieldsBlockGet_Private(fm, b, FcBodyV(m->bodies[b]), fm->vblock[b], &f[k].v_block));
    }
    if (size == 1 || vtk) {
      PetscCall(FcVecRootBegin(FcBodyU(m->bodies[b]), &u[b]));
      PetscCall(FcVecRootBegin(FcBodyV(m->bodies[b]), &v[b]));
    }
    f[k].u  = u[b].a;
    f[k].v  = v[b].a;
    ib[k++] = b;
  }
  if (out) PetscCall(FcOutputWriteFields(out, step, t, f));
  for (PetscInt j = 0; j < k; j++) {
    PetscInt b = ib[j];
    PetscCall(FcVecAllEnd(&u[b]));
    PetscCall(FcVecAllEnd(&v[b]));
    PetscCall(FcVecAllEnd(&vm[b]));
    if (size > 1) PetscCall(VecRestoreArrayRead(fm->vmv[b], &f[j].vm_block));
    if (size > 1) {
      PetscCall(FieldsBlockRestore_Private(fm, b, FcBodyU(m->bodies[b]), fm->ublock[b], &f[j].u_block));
      PetscCall(FieldsBlockRestore_Private(fm, b, FcBodyV(m->bodies[b]), fm->vblock[b], &f[j].v_block));
    }
  }
  PetscCall(PetscFree5(f, u, v, ib, vm));
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
  if (out) PetscCall(FcOutputWriteContacts(out, step, t, &oc));
  PetscCall(PetscFree3(n, t1, t2));
  PetscFunctionReturn(0);
}

/* The initial state, every output.every steps and the last step. */
static PetscErrorCode FieldsStep_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  FieldsMon *f = (FieldsMon *)ctx;

  PetscFunctionBegin;
  if (!(ev->step == 0 || ev->step % rc->c->output_every == 0 || ev->last)) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(FC_EVENT_Output, 0, 0, 0, 0));
  PetscCall(WriteFields_Private(rc->model, f, rc->out, rc->c->output_vtk, ev->step, ev->time));
  if (rc->contact) PetscCall(WriteContacts_Private(rc->contact, rc->out, ev->step, ev->time));
  PetscCall(PetscLogEventEnd(FC_EVENT_Output, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode FieldsDestroy_Private(void **ctx)
{
  FieldsMon *f = (FieldsMon *)*ctx;

  PetscFunctionBegin;
  if (!f) PetscFunctionReturn(0);
  for (PetscInt b = 0; f->vm && b < f->nbodies; b++) {
    PetscCall(PetscFree(f->vm[b]));
    PetscCall(VecDestroy(&f->vmv[b]));
  }
  PetscCall(PetscFree2(f->vm, f->vmv));
  for (PetscInt b = 0; f->toblock && b < f->nbodies; b++) {
    PetscCall(VecScatterDestroy(&f->toblock[b]));
    PetscCall(VecDestroy(&f->ublock[b]));
    PetscCall(VecDestroy(&f->vblock[b]));
  }
  if (f->toblock) PetscCall(PetscFree4(f->toblock, f->ublock, f->vblock, f->bstart));
  PetscCall(PetscFree(*ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorFields(FcRunMonitors *l)
{
  FieldsMon *f;

  PetscFunctionBegin;
  PetscCall(PetscNew(&f));
  PetscCall(FcRunMonitorSet(l, "fields", FieldsOpen_Private, FieldsStep_Private, NULL, FieldsDestroy_Private, f));
  PetscFunctionReturn(0);
}

/* ----------------------------------------------------------------------- FCLIB dump */

/* The step's last contact problem and its solution (output.fclib): fclib/step_<k>.hdf5. */
static PetscErrorCode FCLIBStep_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  FcContactProblem p;
  const PetscReal *r;

  PetscFunctionBegin;
  (void)ctx;
  if (ev->step == 0 || !rc->contact) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(FC_EVENT_Output, 0, 0, 0, 0));
  PetscCall(FcContactStepGetProblem(rc->contact, &p, &r));
  if (p && rc->out) PetscCall(FcOutputWriteProblem(rc->out, ev->step, p, r)); /* the FCLIB files: rank 0's (src/io/output.c) */
  PetscCall(PetscLogEventEnd(FC_EVENT_Output, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorFCLIB(FcRunMonitors *l)
{
  PetscFunctionBegin;
  PetscCall(FcRunMonitorSet(l, "fclib", NULL, FCLIBStep_Private, NULL, NULL, NULL));
  PetscFunctionReturn(0);
}

/* ----------------------------------------------------------------------- haptic loop */

typedef struct {
  FcHaptic   h;
  PetscBool *failed;
} HapticMon;

/* The haptic loop between this step and the next, on this step's frozen contact problem. */
static PetscErrorCode HapticStep_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  HapticMon *hm = (HapticMon *)ctx;

  PetscFunctionBegin;
  if (ev->step == 0 || ev->last) PetscFunctionReturn(0);
  PetscCall(FcHapticAfterStep(hm->h, rc->contact, ev->info));
  PetscFunctionReturn(0);
}

/* The summary line, haptic.csv and run.h5:/haptic (run.h5 still open). */
static PetscErrorCode HapticClose_Private(FcRunContext *rc, FcRunEvent *ev, void *ctx)
{
  HapticMon *hm = (HapticMon *)ctx;
  PetscInt   nexhausted;

  PetscFunctionBegin;
  (void)ev;
  PetscCall(FcHapticFinish(hm->h, rc->out, &nexhausted));
  *hm->failed = (PetscBool)(rc->c->haptic.strict && nexhausted > 0);
  PetscFunctionReturn(0);
}

static PetscErrorCode HapticDestroy_Private(void **ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*ctx)); /* the loop itself is the run's */
  PetscFunctionReturn(0);
}

PetscErrorCode FcRunMonitorHaptic(FcRunMonitors *l, FcHaptic h, PetscBool *failed)
{
  HapticMon *hm;

  PetscFunctionBegin;
  PetscCall(PetscNew(&hm));
  hm->h      = h;
  hm->failed = failed;
  PetscCall(FcRunMonitorSet(l, "haptic", NULL, HapticStep_Private, HapticClose_Private, HapticDestroy_Private, hm));
  PetscFunctionReturn(0);
}
