/* fcsim — the contact step on several MPI ranks (doc/mpi.md "Contact", issue 29 item 1). Rank 0
 * holds the whole meshes, every other rank its part. Detection is split by owner: each rank runs the narrow phase for the contactor
 * points whose node it owns (the owner of a contact), against the target faces in their
 * reach only, whose places it received from their owners (contact_ghost.c: no rank gathers a body's
 * u whole for detection), and the detections are gathered to
 * rank 0, which builds the same contact list, keys, frames and H as one rank, in the one-rank
 * order, numbering a partitioned body's DoFs as its mesh does (3 node + component), and sends every
 * other rank only the contacts it touches (or owns), with W's column skeleton: that rank's list, H,
 * r and u are its contacts' (FcContactStepRanksDistribute_Private). What
 * touches a body's distributed vectors goes through its DoF maps (FcBodyDofMaps): the free
 * increment and the rate read for q (gathered here, in the mesh's order), the contact force Hᵀ r
 * written into this rank's rows, the correction A⁻¹ Hᵀ r by the distributed factorization, W by
 * distributed solves, each rank holding only the rows of W its share touches and sending them to
 * rank 0 (src/compliance/compliance.c). Rank 0 alone forms q (from dx and the rate at the contacts'
 * DoFs, scattered to it) and solves; its verdict is broadcast so that every rank takes the same
 * branches, and r is sent to each other rank only for the contacts it touches (a PetscSF), which is
 * all its rows of Hᵀ r need. Nothing here changes a one-rank run. */
#include "contact_impl.h"

/* Whether body b's vectors are distributed in another numbering than its mesh's. */
static PetscErrorCode Partitioned_Private(FcBody body, const PetscInt **n2d, const PetscInt **d2n, PetscInt *rs, PetscInt *re)
{
  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(body, n2d, d2n, rs, re));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksSetUp_Private(FcContactStep cs)
{
  FcModel    *model = cs->model;
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(PetscCalloc2(model->nbodies, &cs->gdx, model->nbodies, &cs->grate));
  for (PetscInt b = 0; b < model->nbodies; b++) { /* the constrained DoFs in the mesh's numbering */
    FcBody          body = model->bodies[b];
    const PetscInt *n2d, *d2n;
    PetscInt        rs, re;
    PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
    if (!d2n || !cs->isbc[b]) continue;
    PetscCall(FcBodyConstrainedMask(body, cs->isbc[b])); /* a distributed mesh: every rank's own, combined */
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksDestroy_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  if (!cs->gdx) PetscFunctionReturn(0);
  for (PetscInt b = 0; b < cs->model->nbodies; b++) PetscCall(PetscFree2(cs->gdx[b], cs->grate[b]));
  PetscCall(PetscFree2(cs->gdx, cs->grate));
  PetscCall(PetscFree(cs->ggptr));
  PetscCall(PetscFree(cs->ggcon));
  PetscCall(PetscFree(cs->gkcol));
  PetscCall(PetscFree(cs->ginv));
  PetscFunctionReturn(0);
}

/* The mesh DoFs of body b that q reads (contact_problem.c Relative_Private): the contactor node's
 * three of each contact whose contactor body is b, the target nodes' of each contact whose target
 * is b; marked in need (nd), listed ascending in *list (the distributed numbering: n2d). */
static PetscErrorCode QDofs_Private(FcContactStep cs, PetscInt b, const PetscInt n2d[], PetscBool need[], PetscInt *n, PetscInt **list)
{
  const PetscInt nd = FcBodyNDof(cs->model->bodies[b]);

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(need, nd));
  for (PetscInt a = 0; a < cs->m; a++) {
    const FcContactPair *P = &cs->pairs[cs->pair[a]];
    if (P->A == b)
      for (int k = 0; k < 3; k++) need[3 * cs->point[a] + k] = PETSC_TRUE;
    if (P->B == b)
      for (PetscInt j = 0; j < cs->nt[a]; j++)
        for (int k = 0; k < 3; k++) need[3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k] = PETSC_TRUE;
  }
  *n = 0;
  for (PetscInt i = 0; i < nd; i++) *n += need[i];
  PetscCall(PetscMalloc1(*n + 1, list));
  *n = 0;
  for (PetscInt i = 0; i < nd; i++)
    if (need[i]) (*list)[(*n)++] = n2d[i];
  PetscFunctionReturn(0);
}

/* q on rank 0 alone (issue 29 item 1: the solve is rank 0's, and nothing else reads q): of every
 * partitioned body, the free increment dx and the rate at the DoFs the contacts read
 * (QDofs_Private), scattered from their owners to rank 0 (one VecScatter for both vectors), into
 * the mesh's order of rank 0's copies; before, every rank gathered both vectors whole (FcVecAll,
 * 2 n reals per body and correction). *skip: this rank forms no q (several ranks, not rank 0).
 * cs->qrecv: the reals rank 0 received from the other ranks (dx and rate). */
PetscErrorCode FcContactStepRanksGather_Private(FcContactStep cs, PetscBool *skip)
{
  FcModel    *model = cs->model;
  PetscMPIInt rank;

  PetscFunctionBegin;
  *skip = PETSC_FALSE;
  if (!cs->gdx) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  *skip     = (PetscBool)(rank != 0);
  cs->qrecv = 0;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody          body = model->bodies[b];
    const PetscInt *n2d, *d2n, nd = FcBodyNDof(body);
    PetscInt        rs, re, n = 0, *list = NULL;
    PetscBool      *need = NULL;
    Vec             dx, rate, seq;
    VecScatter      sc;
    IS              is;
    PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
    if (!d2n) continue; /* the same on every rank (the body decides alike everywhere) */
    if (!rank) {
      if (!cs->gdx[b]) PetscCall(PetscMalloc2(nd, &cs->gdx[b], nd, &cs->grate[b]));
      PetscCall(PetscMalloc1(nd, &need));
      PetscCall(QDofs_Private(cs, b, n2d, need, &n, &list));
    }
    PetscCall(FcBodyGetIncrement(body, &dx, &rate, NULL));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, list, PETSC_OWN_POINTER, &is));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &seq));
    PetscCall(VecScatterCreate(dx, is, seq, NULL, &sc));
    for (int v = 0; v < 2; v++) {
      const PetscScalar *x;
      PetscScalar       *out = v ? cs->grate[b] : cs->gdx[b];
      PetscInt           k   = 0;
      PetscCall(VecScatterBegin(sc, v ? rate : dx, seq, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(sc, v ? rate : dx, seq, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecGetArrayRead(seq, &x));
      for (PetscInt i = 0; rank == 0 && i < nd; i++)
        if (need[i]) out[i] = x[k++];
      PetscCall(VecRestoreArrayRead(seq, &x));
    }
    for (PetscInt i = 0; i < n; i++) cs->qrecv += 2 * (list[i] < rs || list[i] >= re); /* from other ranks (its own: a local copy) */
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&seq));
    PetscCall(ISDestroy(&is));
    PetscCall(PetscFree(need));
  }
  PetscFunctionReturn(0);
}

void FcContactStepRanksRead_Private(FcContactStep cs, PetscInt b, const PetscScalar **dx, const PetscScalar **rate)
{
  if (!cs->gdx || !cs->gdx[b]) return;
  *dx   = cs->gdx[b];
  *rate = cs->grate[b];
}

PetscErrorCode FcContactStepRanksApply_Private(FcContactStep cs, PetscInt b, PetscBool *done)
{
  FcBody                 body = cs->model->bodies[b];
  const FcJacobianBlock *J    = &cs->H.body[b];
  const PetscInt        *n2d, *d2n, nd = FcBodyNDof(body);
  PetscInt               rs, re;
  PetscScalar           *f, *fl;
  Vec                    fc, dx;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (!cs->gdx) PetscFunctionReturn(0);
  PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
  if (!d2n) PetscFunctionReturn(0);
  *done = PETSC_TRUE;
  PetscCall(FcBodyGetContactForce(body, PETSC_TRUE, &fc));
  PetscCall(FcBodyGetIncrement(body, &dx, NULL, NULL));
  PetscCall(PetscCalloc1(nd, &f)); /* Hᵀ r in the mesh's numbering, the same on every rank */
  for (PetscInt a = 0; a < cs->m; a++)
    for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1]; e++)
      for (int i = 0; i < 3; i++) f[J->dof[e]] += J->coef[e][i] * cs->r[3 * a + i];
  PetscCall(VecGetArray(fc, &fl));
  for (PetscInt i = rs; i < re; i++) fl[i - rs] = f[d2n[i]];
  PetscCall(VecRestoreArray(fc, &fl));
  PetscCall(FcComplianceCorrect(cs->compliance, b, f, dx)); /* collective: the distributed solve */
  PetscCall(PetscFree(f));
  PetscFunctionReturn(0);
}

/* The contactor points of pass P that this rank detects: the owner of a contact is the rank
 * that owns its contactor node (the node's DoFs are numbered on one rank: FcAssemblyPartition
 * partitions nodes). A contactor body every rank holds whole (not partitioned) is detected by rank 0.
 * On one rank every point, *own NULL; otherwise *own is the allocated list (free it). */
PetscErrorCode FcContactStepRanksPoints_Private(FcContactStep cs, const FcContactPair *P, PetscInt *n, const PetscInt **pts, PetscInt **own)
{
  FcBody          A = cs->model->bodies[P->A];
  const PetscInt *n2d, *d2n;
  PetscInt        rs, re, k = 0;
  PetscMPIInt     size, rank;

  PetscFunctionBegin;
  *n   = P->npoints;
  *pts = P->points;
  *own = NULL;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(Partitioned_Private(A, &n2d, &d2n, &rs, &re));
  PetscCall(PetscMalloc1(P->npoints + 1, own));
  for (PetscInt i = 0; i < P->npoints; i++) {
    const PetscInt g = n2d ? n2d[3 * P->points[i]] : (rank ? -1 : 0);
    if (n2d ? (g >= rs && g < re) : !rank) (*own)[k++] = P->points[i];
  }
  *n   = k;
  *pts = *own;
  PetscFunctionReturn(0);
}

/* Every rank's detections gathered to rank 0 (one MPI_Gather of the counts, one MPI_Gatherv of the
 * records): on rank 0 outs[p] becomes pass p's detections of all ranks, rank after rank; another
 * rank keeps its own (its next narrow phase reads only its own points' previous records). Each
 * contactor point is detected by one rank from the same state as on one rank, so the
 * union, sorted by point afterwards (contact_detect.c), is the one-rank detection bit for bit: the
 * contact list, keys, frames and H that rank 0 builds are the one-rank ones. Before, the records
 * went to every rank (MPI_Allgatherv) and every rank built the whole list. Nothing on one rank. */
PetscErrorCode FcContactStepRanksGatherDetection_Private(FcContactStep cs, FcProximity **outs, PetscInt *nouts)
{
  const PetscInt npairs = cs->npairs;
  PetscMPIInt    size, rank, *rcnt = NULL, *rdsp = NULL;
  PetscInt      *cnt = NULL, nl = 0, nt = 0;
  FcProximity   *loc, *all = NULL;
  const size_t   rec = sizeof(FcProximity);

  PetscFunctionBegin;
  cs->lrecv = 0;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1 || !npairs) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) PetscCall(PetscMalloc3((size_t)size * npairs, &cnt, size, &rcnt, size, &rdsp));
  PetscCallMPI(MPI_Gather(nouts, (PetscMPIInt)npairs, MPIU_INT, cnt, (PetscMPIInt)npairs, MPIU_INT, 0, PETSC_COMM_WORLD));
  for (PetscMPIInt r = 0; !rank && r < size; r++) {
    PetscInt n = 0;
    for (PetscInt p = 0; p < npairs; p++) n += cnt[(size_t)r * npairs + p];
    PetscCheck((size_t)(nt + n) * rec <= (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Too many contacts to gather on rank 0");
    rcnt[r] = (PetscMPIInt)(n * rec);
    rdsp[r] = (PetscMPIInt)(nt * rec);
    nt += n;
  }
  for (PetscInt p = 0; p < npairs; p++) nl += nouts[p];
  PetscCall(PetscMalloc1(nl + 1, &loc));
  if (!rank) PetscCall(PetscMalloc1(nt + 1, &all));
  nl = 0;
  for (PetscInt p = 0; p < npairs; p++) {
    if (nouts[p]) PetscCall(PetscArraycpy(loc + nl, outs[p], nouts[p]));
    nl += nouts[p];
  }
  PetscCallMPI(MPI_Gatherv(loc, (PetscMPIInt)(nl * rec), MPI_BYTE, all, rcnt, rdsp, MPI_BYTE, 0, PETSC_COMM_WORLD));
  if (!rank) cs->lrecv = (PetscInt64)(nt - nl) * (PetscInt64)rec;
  for (PetscInt p = 0; !rank && p < npairs; p++) {
    PetscInt     n = 0;
    FcProximity *o;
    for (PetscMPIInt r = 0; r < size; r++) n += cnt[(size_t)r * npairs + p];
    PetscCall(PetscMalloc1(n + 1, &o));
    n = 0;
    for (PetscMPIInt r = 0; r < size; r++) { /* rank r's pass-p records follow its passes before p */
      PetscInt off = rdsp[r] / (PetscMPIInt)rec;
      for (PetscInt q = 0; q < p; q++) off += cnt[(size_t)r * npairs + q];
      PetscCall(PetscArraycpy(o + n, all + off, cnt[(size_t)r * npairs + p]));
      n += cnt[(size_t)r * npairs + p];
    }
    PetscCall(PetscFree(outs[p]));
    outs[p]  = o;
    nouts[p] = n;
  }
  PetscCall(PetscFree(loc));
  PetscCall(PetscFree(all));
  PetscCall(PetscFree3(cnt, rcnt, rdsp));
  PetscFunctionReturn(0);
}

/* The rank that owns mesh DoF k of body b (a body every rank holds whole: rank 0). */
static PetscErrorCode DofOwner_Private(FcBody body, PetscMPIInt size, PetscInt k, PetscMPIInt *owner)
{
  const PetscInt *n2d, *d2n, *ranges;
  PetscInt        rs, re, lo = 0, hi = size - 1;

  PetscFunctionBegin;
  *owner = 0;
  PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
  if (!n2d) PetscFunctionReturn(0);
  PetscCall(VecGetOwnershipRanges(FcBodyU(body), &ranges));
  while (lo < hi) { /* the last rank whose range starts at or before n2d[k] */
    const PetscInt mid = (lo + hi + 1) / 2;
    if (ranges[mid] <= n2d[k]) lo = mid;
    else hi = mid - 1;
  }
  *owner = (PetscMPIInt)lo;
  PetscFunctionReturn(0);
}

/* Rank 0: the contacts of the whole list each other rank receives, CSR by rank (ptr: size + 1):
 * those with an entry of H on a DoF of a partitioned body that the rank owns (the touched contacts:
 * its rows of W's right-hand sides and of the correction need them, and its r) and those whose
 * contactor node it owns (it detected them: its next detection continues their frames, which a
 * mortar pass changes after the detection). Ascending in each rank's list. */
static PetscErrorCode Recipients_Private(FcContactStep cs, PetscMPIInt size, PetscInt **ptr, PetscInt **list)
{
  FcModel    *model = cs->model;
  PetscInt   *seen, *fill = NULL;
  PetscMPIInt o;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1((size_t)size + 1, ptr));
  PetscCall(PetscMalloc1(size, &seen));  /* seen[r] = a: contact a is already listed for rank r */
  for (int pass = 0; pass < 2; pass++) { /* count, then fill (memory O(size + what is sent)) */
    for (PetscMPIInt r = 0; r < size; r++) seen[r] = -1;
    for (PetscInt a = 0; a < cs->m; a++) {
      const FcContactPair *P = &cs->pairs[cs->pair[a]];
      for (PetscInt b = -1; b < model->nbodies; b++) { /* b = −1: the contactor node's owner */
        const FcJacobianBlock *J = b < 0 ? NULL : &cs->H.body[b];
        const PetscInt        *n2d, *d2n;
        PetscInt               rs, re, e0 = 0, e1 = 1;
        if (b >= 0) {
          if (!cs->involved[b]) continue;
          PetscCall(Partitioned_Private(model->bodies[b], &n2d, &d2n, &rs, &re));
          if (!n2d) continue; /* a body every rank holds whole: rank 0's */
          e0 = J->ptr[a];
          e1 = J->ptr[a + 1];
        }
        for (PetscInt e = e0; e < e1; e++) {
          if (b < 0) PetscCall(DofOwner_Private(model->bodies[P->A], size, 3 * cs->point[a], &o));
          else PetscCall(DofOwner_Private(model->bodies[b], size, J->dof[e], &o));
          if (!o || seen[o] == a) continue;
          seen[o] = a;
          if (pass) (*list)[fill[o]++] = a;
          else (*ptr)[o + 1]++;
        }
      }
    }
    if (!pass) {
      for (PetscMPIInt r = 0; r < size; r++) (*ptr)[r + 1] += (*ptr)[r];
      PetscCall(PetscMalloc1((*ptr)[size] + 1, list));
      PetscCall(PetscMalloc1(size, &fill));
      for (PetscMPIInt r = 0; r < size; r++) fill[r] = (*ptr)[r];
    }
  }
  PetscCall(PetscFree(fill));
  PetscCall(PetscFree(seen));
  PetscFunctionReturn(0);
}

/* Whether rank r rebuilds contact a from its own detection record: it owns the contactor point (it
 * detected it and keeps the record, contact_detect.c) and the pass is not mortar (a mortar contact's
 * target nodes, weights and frame are made after the record); then only its place, pass and point
 * travel. */
static PetscErrorCode FromRecord_Private(FcContactStep cs, PetscMPIInt size, PetscMPIInt r, PetscInt a, PetscBool *rec)
{
  const FcContactPair *P = &cs->pairs[cs->pair[a]];
  PetscMPIInt          o;

  PetscFunctionBegin;
  PetscCall(DofOwner_Private(cs->model->bodies[P->A], size, 3 * cs->point[a], &o));
  *rec = (PetscBool)(o == r && !P->mortar);
  PetscFunctionReturn(0);
}

/* Contact a of the list packed for rank r: its index in the whole list, pass, contactor point and
 * target count (ints; −1: r rebuilds it from its own record, FromRecord_Private), then the target
 * nodes (ints) and target weights, frame, gap and target point (reals). The key is the pass's and
 * the point's (contact_detect.c AddContact_Private): not sent. Unpack_Private is the inverse into
 * place a of that rank's list. */
static PetscErrorCode Pack_Private(FcContactStep cs, PetscMPIInt size, PetscMPIInt r, PetscInt a, PetscInt *iv, size_t *ni, PetscReal *rv, size_t *nr)
{
  const PetscInt nt = cs->nt[a];
  PetscBool      rec;

  PetscFunctionBegin;
  PetscCall(FromRecord_Private(cs, size, r, a, &rec));
  iv[(*ni)++] = a;
  iv[(*ni)++] = cs->pair[a];
  iv[(*ni)++] = cs->point[a];
  iv[(*ni)++] = rec ? -1 : nt;
  if (rec) PetscFunctionReturn(0);
  for (PetscInt j = 0; j < nt; j++) iv[(*ni)++] = cs->tnodes[FC_CONTACT_MAXT * a + j];
  for (PetscInt j = 0; j < nt; j++) rv[(*nr)++] = cs->tw[FC_CONTACT_MAXT * a + j];
  for (int k = 0; k < 9; k++) rv[(*nr)++] = cs->frame[9 * a + k];
  rv[(*nr)++] = cs->gap[a];
  for (int k = 0; k < 3; k++) rv[(*nr)++] = cs->xc[3 * a + k];
  PetscFunctionReturn(0);
}

static PetscErrorCode Unpack_Private(FcContactStep cs, PetscInt a, const PetscInt *iv, size_t *ni, const PetscReal *rv, size_t *nr)
{
  PetscInt             nt;
  const FcContactPair *P;

  PetscFunctionBegin;
  cs->gidx[a]   = iv[(*ni)++];
  cs->pair[a]   = iv[(*ni)++];
  cs->point[a]  = iv[(*ni)++];
  nt            = iv[(*ni)++];
  P             = &cs->pairs[cs->pair[a]];
  cs->key[a]    = (PetscInt64)P->index * (PetscInt64)1000000000 + cs->point[a]; /* AddContact_Private's */
  cs->status[a] = FC_CONTACT_SEPARATED;
  if (nt < 0) { /* from this rank's own record (P->prev, sorted by point), as AddContact_Private does */
    PetscInt lo = 0, hi = P->nprev - 1, i = -1;
    while (lo <= hi && i < 0) {
      const PetscInt mid = (lo + hi) / 2;
      if (P->prev[mid].point == cs->point[a]) i = mid;
      else if (P->prev[mid].point < cs->point[a]) lo = mid + 1;
      else hi = mid - 1;
    }
    PetscCheck(
      i >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Contact %" PetscInt_FMT " of node %" PetscInt_FMT ": no record of this rank's", cs->gidx[a], cs->point[a]);
    cs->nt[a] = 3;
    for (int k = 0; k < 3; k++) {
      cs->tnodes[FC_CONTACT_MAXT * a + k] = P->prev[i].nodes[k];
      cs->tw[FC_CONTACT_MAXT * a + k]     = P->prev[i].bary[k];
      cs->frame[9 * a + k]                = P->prev[i].n[k];
      cs->frame[9 * a + 3 + k]            = P->prev[i].t1[k];
      cs->frame[9 * a + 6 + k]            = P->prev[i].t2[k];
      cs->xc[3 * a + k]                   = P->prev[i].xc[k];
    }
    cs->gap[a] = P->prev[i].gap;
    PetscFunctionReturn(0);
  }
  cs->nt[a] = nt;
  for (PetscInt j = 0; j < nt; j++) cs->tnodes[FC_CONTACT_MAXT * a + j] = iv[(*ni)++];
  for (PetscInt j = 0; j < nt; j++) cs->tw[FC_CONTACT_MAXT * a + j] = rv[(*nr)++];
  for (int k = 0; k < 9; k++) cs->frame[9 * a + k] = rv[(*nr)++];
  cs->gap[a] = rv[(*nr)++];
  for (int k = 0; k < 3; k++) cs->xc[3 * a + k] = rv[(*nr)++];
  PetscFunctionReturn(0);
}

/* Rank 0 sends every other rank its contacts (Recipients_Private), packed (Pack_Private): one
 * MPI_Scatter of the counts, then two messages per rank; that rank's list becomes them. */
static PetscErrorCode SendList_Private(FcContactStep cs, PetscMPIInt size, PetscMPIInt rank)
{
  PetscInt64 *cnt = NULL, mine[3];
  PetscInt   *iv = NULL, *ptr = NULL, *list = NULL;
  PetscReal  *rv = NULL;
  size_t      ni = 0, nr = 0, imax = 0, rmax = 0;
  const int   tag = 2911;

  PetscFunctionBegin;
  if (!rank) {
    PetscCall(Recipients_Private(cs, size, &ptr, &list));
    PetscCall(PetscCalloc1(3 * (size_t)size, &cnt));
    for (PetscMPIInt r = 1; r < size; r++) {
      for (PetscInt k = ptr[r]; k < ptr[r + 1]; k++) {
        PetscBool rec;
        PetscCall(FromRecord_Private(cs, size, r, list[k], &rec));
        cnt[3 * r + 1] += 4 + (rec ? 0 : cs->nt[list[k]]);
        cnt[3 * r + 2] += rec ? 0 : 13 + cs->nt[list[k]];
      }
      cnt[3 * r] = ptr[r + 1] - ptr[r];
      imax       = PetscMax(imax, (size_t)cnt[3 * r + 1]);
      rmax       = PetscMax(rmax, (size_t)cnt[3 * r + 2]);
    }
  }
  PetscCallMPI(MPI_Scatter(cnt, 3, MPIU_INT64, mine, 3, MPIU_INT64, 0, PETSC_COMM_WORLD));
  if (!rank) {
    PetscCall(PetscMalloc2(imax + 1, &iv, rmax + 1, &rv));
    for (PetscMPIInt r = 1; r < size; r++) {
      ni = nr = 0;
      for (PetscInt k = ptr[r]; k < ptr[r + 1]; k++) PetscCall(Pack_Private(cs, size, r, list[k], iv, &ni, rv, &nr));
      PetscCheck(
        ni <= (size_t)PETSC_MPI_INT_MAX && nr <= (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Too many contacts to send to rank %d", (int)r);
      PetscCallMPI(MPI_Send(iv, (PetscMPIInt)ni, MPIU_INT, r, tag, PETSC_COMM_WORLD));
      PetscCallMPI(MPI_Send(rv, (PetscMPIInt)nr, MPIU_REAL, r, tag + 1, PETSC_COMM_WORLD));
    }
  } else {
    PetscCall(PetscMalloc2((size_t)mine[1] + 1, &iv, (size_t)mine[2] + 1, &rv));
    PetscCallMPI(MPI_Recv(iv, (PetscMPIInt)mine[1], MPIU_INT, 0, tag, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(rv, (PetscMPIInt)mine[2], MPIU_REAL, 0, tag + 1, PETSC_COMM_WORLD, MPI_STATUS_IGNORE));
    PetscCall(FcContactStepReserve_Private(cs, (PetscInt)mine[0]));
    for (PetscInt a = 0; a < (PetscInt)mine[0]; a++) PetscCall(Unpack_Private(cs, a, iv, &ni, rv, &nr));
    cs->m = (PetscInt)mine[0];
    cs->lrecv += 3 * (PetscInt64)sizeof(PetscInt64) + mine[1] * (PetscInt64)sizeof(PetscInt) + mine[2] * (PetscInt64)sizeof(PetscReal);
  }
  PetscCall(PetscFree2(iv, rv));
  PetscCall(PetscFree(cnt));
  PetscCall(PetscFree(ptr));
  PetscCall(PetscFree(list));
  PetscFunctionReturn(0);
}

/* W's column skeleton from rank 0's whole H to every rank (the solves are collective: every rank
 * solves the same columns, FcComplianceDelassusByOperator): the bodies involved, each body's
 * contacts (FcComplianceBodyContacts: the block-sparse pattern's groups) and each contact's pass,
 * from which another rank forms the kept columns as FcContactStepJacobian_Private does (all three
 * rows of a frictional contact, the normal one of a frictionless one); ints only, about 3 per
 * contact, against a record's 160 bytes. Another rank keeps them for its H (FcContactJacobian). */
static PetscErrorCode Skeleton_Private(FcContactStep cs, PetscMPIInt rank)
{
  const PetscInt nb = cs->model->nbodies;
  PetscInt       n = 0, *gptr = NULL, *gcon = NULL, *inv, *gpair;

  PetscFunctionBegin;
  if (!rank) {
    PetscCall(FcComplianceBodyContacts(&cs->H, &gptr, &gcon));
    n = gptr[nb];
  }
  PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCall(PetscMalloc2(nb, &inv, cs->mg + 1, &gpair));
  for (PetscInt b = 0; b < nb; b++) inv[b] = rank ? 0 : cs->involved[b];
  for (PetscInt a = 0; !rank && a < cs->mg; a++) gpair[a] = cs->pair[a];
  if (rank) {
    PetscCall(PetscFree(cs->ggptr));
    PetscCall(PetscFree(cs->ggcon));
    PetscCall(PetscFree(cs->gkcol));
    if (!cs->ginv) PetscCall(PetscMalloc1(nb, &cs->ginv));
    PetscCall(PetscMalloc1(nb + 1, &cs->ggptr));
    PetscCall(PetscMalloc1(n + 1, &cs->ggcon));
    PetscCall(PetscMalloc1(3 * cs->mg + 1, &cs->gkcol));
    gptr = cs->ggptr;
    gcon = cs->ggcon;
  }
  PetscCallMPI(MPI_Bcast(inv, (PetscMPIInt)nb, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(gptr, (PetscMPIInt)(nb + 1), MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(gcon, (PetscMPIInt)n, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(gpair, (PetscMPIInt)cs->mg, MPIU_INT, 0, PETSC_COMM_WORLD));
  if (rank) {
    for (PetscInt b = 0; b < nb; b++) cs->ginv[b] = (PetscBool)inv[b];
    cs->gnkeep = 0;
    for (PetscInt a = 0; a < cs->mg; a++) {
      const PetscBool fr = (PetscBool)(cs->pairs[gpair[a]].mu > 0); /* the passes are every rank's (the broad phase) */
      for (int i = 0; i < 3; i++)
        if (i == 0 || fr) cs->gkcol[cs->gnkeep++] = 3 * a + i;
    }
    cs->lrecv += (PetscInt64)(1 + 2 * nb + 1 + n + cs->mg) * (PetscInt64)sizeof(PetscInt);
  } else {
    PetscCall(PetscFree(gptr));
    PetscCall(PetscFree(gcon));
  }
  PetscCall(PetscFree2(inv, gpair));
  PetscFunctionReturn(0);
}

/* Of a mortar pass, detection changes the frame of a contact after its record (contact_detect.c:
 * n, t1, t2 of the slave's normal, kept for the next detection's continuity). Another rank keeps
 * its own points' records (the only ones its narrow phase reads) and receives each of its own
 * contacts (Recipients_Private): their frames, bit for bit rank 0's, go into those records. */
static PetscErrorCode MortarPrev_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < cs->m; a++) {
    FcContactPair *P  = &cs->pairs[cs->pair[a]];
    PetscInt       lo = 0, hi = P->nprev - 1;
    if (!P->mortar) continue;
    while (lo <= hi) { /* P->prev is sorted by point */
      const PetscInt mid = (lo + hi) / 2;
      if (P->prev[mid].point == cs->point[a]) {
        for (int k = 0; k < 3; k++) {
          P->prev[mid].n[k]  = cs->frame[9 * a + k];
          P->prev[mid].t1[k] = cs->frame[9 * a + 3 + k];
          P->prev[mid].t2[k] = cs->frame[9 * a + 6 + k];
        }
        break;
      }
      if (P->prev[mid].point < cs->point[a]) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  PetscFunctionReturn(0);
}

/* The contact list held by its ranks (issue 29 item 1, doc/mpi.md "Contact"): rank 0 built the
 * whole list from every detection (FcContactStepRanksGatherDetection_Private), as on one rank; it
 * forms H, broadcasts the count and W's column skeleton (Skeleton_Private) and sends every other
 * rank the contacts it touches or owns (SendList_Private), whose H that rank then forms in its own
 * numbering (gidx: their places in rank 0's list). Before, every rank held the whole list and H. */
PetscErrorCode FcContactStepRanksDistribute_Private(FcContactStep cs, PetscBool *hdone)
{
  PetscMPIInt size, rank;

  PetscFunctionBegin;
  *hdone = PETSC_FALSE;
  cs->mg = cs->m;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Bcast(&cs->mg, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  if (!cs->mg) PetscFunctionReturn(0); /* no contact: nothing to solve (a mortar record keeps its frame: no contact changed it) */
  if (!rank) PetscCall(FcContactStepJacobian_Private(cs));
  PetscCall(Skeleton_Private(cs, rank));
  PetscCall(SendList_Private(cs, size, rank));
  if (rank) {
    FcContactJacobian *H = &cs->H;
    PetscCall(FcContactStepJacobian_Private(cs));
    H->part   = PETSC_TRUE;
    H->mg     = cs->mg;
    H->gidx   = cs->gidx;
    H->ggptr  = cs->ggptr;
    H->ggcon  = cs->ggcon;
    H->gkcol  = cs->gkcol;
    H->gnkeep = cs->gnkeep;
    PetscCall(MortarPrev_Private(cs));
  }
  *hdone = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Whether this rank owns mesh DoF k of body b (a body every rank holds whole: rank 0's). */
static PetscErrorCode OwnsDof_Private(FcBody body, PetscMPIInt rank, PetscInt k, PetscBool *owns)
{
  const PetscInt *n2d, *d2n;
  PetscInt        rs, re;

  PetscFunctionBegin;
  PetscCall(Partitioned_Private(body, &n2d, &d2n, &rs, &re));
  *owns = n2d ? (PetscBool)(n2d[k] >= rs && n2d[k] < re) : (PetscBool)!rank;
  PetscFunctionReturn(0);
}

/* What this rank holds for contact (-fc_contact_ranks_view's second line): v[0] the contacts it
 * detects (contactor node owned), v[1] the target faces of its ghosted trees within the box of its
 * contactor points inflated by the pass's alarm (and the margin), pass by pass, v[2] the target
 * faces of its ghosted trees (those, and the faces in reach of kept contacts beyond the alarm:
 * FcContactStepRanksFind_Private), v[7] the whole target surfaces of the passes (rank 0 alone holds
 * them, FcContactPairsShed),
 * v[3] the contacts whose rows of W its share touches (an entry of H on a DoF it owns), v[4] the
 * block rows of W it holds (rank 0: all, summed; another rank: those its share touches,
 * compliance.c RowsProblem_Private), v[5] the reals of W's storage it holds, v[6] the bytes it sent
 * to rank 0 for W (its rows' blocks and their indices, compliance.c GatherRows_Private), v[8] the
 * contacts whose r it received (rank 0: all, it solved; another rank: those it touches, SendR_Private)
 * and v[9] the bytes of r it received, v[10] the reals of dx and rate it received for q (rank 0:
 * those at the contacts' DoFs that other ranks own, FcContactStepRanksGather_Private; another rank:
 * none), v[11] the contacts of its list (rank 0: the whole list; another rank: those it touches or
 * owns, FcContactStepRanksDistribute_Private) and v[12] the bytes it received at the last
 * correction to hold it (rank 0: the other ranks' detection records; another rank: its contacts,
 * packed, and W's column skeleton; before, every rank received every other rank's records), v[13]
 * and v[14] the reals it received for detection at the last correction (contact_ghost.c): the
 * places of nodes other ranks own (rank 0: the contact surfaces'; another rank: the target nodes
 * near its points and its kept points' previous corners), then the boxes and sizes (every rank's
 * boxes of its own nodes of each partitioned body, the surfaces' scene sizes, kept points' query
 * boxes). Before, every rank received every partitioned body's whole u (3 n per body). */
static PetscErrorCode Holds_Private(FcContactStep cs, PetscMPIInt rank, PetscInt64 v[15])
{
  FcModel         *model = cs->model;
  FcContactProblem W     = cs->prob;

  PetscFunctionBegin;
  for (int i = 0; i < 18; i++) v[i] = 0;
  v[11] = cs->m; /* the contacts of its list (rank 0: all; another rank: those it touches or owns) */
  v[12] = cs->lrecv;
  v[2]  = cs->gfaces;
  v[10] = cs->qrecv;
  v[8]  = cs->rrecv;
  v[9]  = rank ? 3 * (PetscInt64)cs->rrecv * (PetscInt64)sizeof(PetscReal) : 0;
  for (PetscInt a = 0; a < cs->m; a++) {
    const FcContactPair *P = &cs->pairs[cs->pair[a]];
    PetscBool            own, touch = PETSC_FALSE;
    PetscCall(OwnsDof_Private(model->bodies[P->A], rank, 3 * cs->point[a], &own));
    v[0] += own;
    for (PetscInt b = 0; b < model->nbodies && !touch; b++) {
      const FcJacobianBlock *J = &cs->H.body[b];
      if (!cs->involved[b]) continue;
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1] && !touch; e++) PetscCall(OwnsDof_Private(model->bodies[b], rank, J->dof[e], &touch));
    }
    v[3] += touch;
  }
  if (!rank) {
    v[4] = cs->m;
    v[5] = W->W ? 9 * (PetscInt64)W->m * W->m : 9 * (PetscInt64)W->nb;
  } else {
    for (PetscInt a = 0; a < cs->m; a++) v[4] += W->bptr[a + 1] > W->bptr[a];
    v[5] = 9 * ((PetscInt64)W->nb + 1); /* its rows' blocks and the scratch block */
    v[6] = v[4] * (PetscInt64)sizeof(PetscInt) + 9 * (PetscInt64)W->nb * (PetscInt64)sizeof(PetscReal);
  }
  v[1]  = cs->greach;
  v[13] = cs->drecv;
  v[14] = cs->drecvb;
  for (PetscInt p = 0; p < cs->npairs; p++) v[7] += cs->pairs[p].ntri; /* an analytic target: no faces */
  v[15] = cs->drecvf;
  PetscCall(FcContactPairsSurfaceFaces(cs->cat, &v[16], &v[17]));
  PetscFunctionReturn(0);
}

/* -fc_contact_ranks_view: two lines per correction (rank 0's stderr). The first: the contacts that
 * carry force and, per rank, those whose contactor node it owns (the rank that detects them):
 * shows that a contact surface is split across the ranks (tests/integration/test_mpi.py). The
 * second: the reals of the whole W (what every rank held before W was gathered as rows), then per
 * rank what it holds for contact (Holds_Private), as "detected/m
 * faces-in-reach/faces-ghosted/faces-whole W-rows-touched/W-rows-held W-reals-held/W-bytes-sent
 * r-contacts-received/bytes q-reals-received list-contacts-held/bytes-received
 * detection-places/boxes-reals/faces-received catalogue-faces-held/whole", after the partitioned
 * bodies' DoFs with a mesh (the whole u each rank received for detection before, contact_ghost.c);
 * the last group counts the target surfaces' faces the catalogue holds (FcContactPairsShed: a rank
 * other than 0, the faces whose corner 0 it owns) against the whole surfaces'. With -fc_contact_ranks_check_ghost a third: the detections compared with the whole surface's
 * over the run, all ranks, and how many differed (FcContactStepRanksFind_Private). */
static PetscErrorCode View_Private(FcContactStep cs, PetscMPIInt size)
{
  PetscInt    own = 0, act = 0, *all;
  PetscInt64  v[18], *vall, chk[2], whole = 0;
  PetscMPIInt rank;
  PetscBool   view = PETSC_FALSE, check = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_contact_ranks_view", &view, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_contact_ranks_check_ghost", &check, NULL));
  if (!view) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt a = 0; a < cs->m; a++) {
    PetscBool o;
    if (!(cs->r[3 * a] > 0)) continue;
    act++;
    PetscCall(OwnsDof_Private(cs->model->bodies[cs->pairs[cs->pair[a]].A], rank, 3 * cs->point[a], &o));
    own += o;
  }
  PetscCall(Holds_Private(cs, rank, v));
  for (PetscInt b = 0; b < cs->model->nbodies; b++) {
    const PetscInt *n2d, *d2n;
    PetscInt        rs, re;
    PetscCall(Partitioned_Private(cs->model->bodies[b], &n2d, &d2n, &rs, &re));
    if (n2d && cs->Xcur[b]) whole += FcBodyNDof(cs->model->bodies[b]);
  }
  PetscCall(PetscMalloc2(size, &all, 18 * size, &vall));
  PetscCallMPI(MPI_Gather(&own, 1, MPIU_INT, all, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Gather(v, 18, MPIU_INT64, vall, 18, MPIU_INT64, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Reduce(cs->gcheck, chk, 2, MPIU_INT64, MPI_SUM, 0, PETSC_COMM_WORLD));
  if (!rank) {
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "fcsim: contact ranks: %" PetscInt_FMT " contacts carry force, by the rank of their contactor node:", act));
    for (PetscMPIInt i = 0; i < size; i++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, " %" PetscInt_FMT, all[i]));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr,
      "\nfcsim: contact ranks hold (W whole: %" PetscInt64_FMT " reals; partitioned bodies' DoFs: %" PetscInt64_FMT
      "; per rank detected/contacts target-faces-in-reach/ghosted/whole W-rows-touched/held W-reals-held/bytes-sent r-contacts-received/bytes q-reals-received list-contacts-held/bytes-received detection-places/boxes-reals/faces-received catalogue-faces-held/whole):",
      vall[5], whole));
    for (PetscMPIInt i = 0; i < size; i++) {
      const PetscInt64 *w = vall + 18 * i;
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr,
        " %" PetscInt64_FMT "/%" PetscInt_FMT " %" PetscInt64_FMT "/%" PetscInt64_FMT "/%" PetscInt64_FMT " %" PetscInt64_FMT "/%" PetscInt64_FMT
        " %" PetscInt64_FMT "/%" PetscInt64_FMT " %" PetscInt64_FMT "/%" PetscInt64_FMT " %" PetscInt64_FMT " %" PetscInt64_FMT "/%" PetscInt64_FMT
        " %" PetscInt64_FMT "/%" PetscInt64_FMT "/%" PetscInt64_FMT " %" PetscInt64_FMT "/%" PetscInt64_FMT,
        w[0], cs->mg, w[1], w[2], w[7], w[3], w[4], w[5], w[6], w[8], w[9], w[10], w[11], w[12], w[13], w[14], w[15], w[16], w[17]));
    }
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "\n"));
    if (check)
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr,
        "fcsim: contact ranks ghost check: %" PetscInt64_FMT " detections against ghosted targets compared with the whole surface's, %" PetscInt64_FMT
        " differ\n",
        chk[0], chk[1]));
  }
  PetscCall(PetscFree2(all, vall));
  PetscFunctionReturn(0);
}

/* The contacts whose r this rank needs (issue 29 item 1: r sent only to the ranks it touches): those
 * with an entry of H on a DoF of a partitioned body that this rank owns. That is all a rank other
 * than 0 reads of r: its rows of Hᵀ r (the body's contact force) and the right-hand side of its
 * rows of the correction A⁻¹ Hᵀ r (FcComplianceCorrectBySolve reads this rank's rows only, and
 * another contact adds nothing to them). Everything else that read the whole r on every rank is
 * rank 0's, which solved and holds all of it: the Hᵀ r of a body every rank holds whole (a rigid
 * body's few DoFs, broadcast: FcContactStepRanksBcastForce_Private), the active set, statuses and
 * counts (FcContactStepRanksActive_Private), the warm start (its solver's alone), the
 * linearization statistics, the probes (src/model/model.c broadcasts rank 0's row) and run.h5's
 * contact datasets (written by rank 0: src/io/h5out.c). list: the contacts, ascending. */
static PetscErrorCode Touched_Private(FcContactStep cs, PetscInt *n, PetscInt **list)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(PetscMalloc1(cs->m + 1, list));
  for (PetscInt a = 0; a < cs->m; a++) {
    PetscBool touch = PETSC_FALSE;
    for (PetscInt b = 0; b < model->nbodies && !touch; b++) {
      const FcJacobianBlock *J = &cs->H.body[b];
      const PetscInt        *n2d, *d2n;
      PetscInt               rs, re;
      if (!cs->involved[b]) continue;
      PetscCall(Partitioned_Private(model->bodies[b], &n2d, &d2n, &rs, &re));
      if (!n2d) continue; /* a body every rank holds whole: rank 0's Hᵀ r, broadcast */
      for (PetscInt e = J->ptr[a]; e < J->ptr[a + 1] && !touch; e++) touch = (PetscBool)(n2d[J->dof[e]] >= rs && n2d[J->dof[e]] < re);
    }
    if (touch) (*list)[(*n)++] = a;
  }
  PetscFunctionReturn(0);
}

/* r from rank 0 (the roots: its 3m reals) to the contacts each other rank touches (the leaves:
 * Touched_Private's, at their place in the rank's r), by a PetscSF built for this correction's
 * contact list; the rest of a rank's r is zero. cs->rrecv: the contacts received. */
static PetscErrorCode SendR_Private(FcContactStep cs, PetscMPIInt rank)
{
  PetscSF      sf;
  PetscSFNode *remote = NULL;
  PetscInt    *local = NULL, n = 0, *list = NULL;

  PetscFunctionBegin;
  if (rank) {
    PetscCall(Touched_Private(cs, &n, &list));
    PetscCall(PetscMalloc2(3 * n, &local, 3 * n, &remote));
    for (PetscInt k = 0; k < n; k++)
      for (int i = 0; i < 3; i++) {
        local[3 * k + i]        = 3 * list[k] + i;
        remote[3 * k + i].rank  = 0;
        remote[3 * k + i].index = 3 * cs->gidx[list[k]] + i; /* its place in rank 0's list */
      }
    PetscCall(PetscArrayzero(cs->r, 3 * cs->m));
    PetscCall(PetscArrayzero(cs->u, 3 * cs->m)); /* u = W r + q: rank 0's alone (its active set) */
  }
  cs->rrecv = rank ? n : cs->m;
  PetscCall(PetscSFCreate(PETSC_COMM_WORLD, &sf));
  PetscCall(PetscSFSetGraph(sf, rank ? 0 : 3 * cs->mg, 3 * n, local, PETSC_COPY_VALUES, remote, PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(sf));
  PetscCall(PetscSFBcastBegin(sf, MPIU_REAL, cs->r, cs->r, MPI_REPLACE)); /* rank 0 has no leaves, the others no roots */
  PetscCall(PetscSFBcastEnd(sf, MPIU_REAL, cs->r, cs->r, MPI_REPLACE));
  PetscCall(PetscSFDestroy(&sf));
  PetscCall(PetscFree2(local, remote));
  PetscCall(PetscFree(list));
  PetscFunctionReturn(0);
}

/* The contact solve's result shared (issue 29 item 1: W gathered to one rank, solved there, r sent
 * back): W was gathered to rank 0 alone as rows (compliance.c GatherRows_Private), so rank 0 alone
 * ran the registered solver and the checks of FcContactStepSolve_Private (u = W r + q, rᵀ W r;
 * called by contact_step.c); the others receive its verdict (every rank takes the same branches)
 * and the r of the contacts they touch (SendR_Private), bit for bit rank 0's. A non-finite r (a
 * failed solve) too: the verdict's failure takes every rank to the same branch, and rank 0, which
 * holds all of r, finds it first where the step checks its result (src/step/step.c: the lowest rank
 * that finds a non-finite value tells the others). Before, such an r went to every rank whole; a
 * rank other than 0 holds no room for it now (its list is its contacts only). On one rank: nothing. */
PetscErrorCode FcContactStepRanksShare_Private(FcContactStep cs, FcContactStats *st)
{
  PetscMPIInt size, rank;
  PetscInt    flags[5];
  PetscReal   err[2];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (size == 1) PetscFunctionReturn(0);
  flags[0] = st->converged;
  flags[1] = st->failed;
  flags[2] = st->iterations;
  flags[3] = st->solves;
  flags[4] = 0;
  err[0]   = st->error;
  err[1]   = st->tol;
  if (!rank) {
    FcContactSolverStats ss;
    PetscCall(FcContactSolverGetStats(cs->solver, &ss));
    flags[4] = (PetscInt)ss.reason;
  }
  PetscCallMPI(MPI_Bcast(flags, 5, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(err, 2, MPIU_REAL, 0, PETSC_COMM_WORLD));
  st->converged  = (PetscBool)flags[0];
  st->failed     = (PetscBool)flags[1];
  st->iterations = flags[2];
  st->solves     = flags[3];
  st->reason     = FcContactSolverReasonName((FcContactSolverReason)flags[4]);
  st->error      = err[0];
  st->tol        = err[1];
  PetscCall(SendR_Private(cs, rank)); /* a non-finite r too: rank 0 holds it whole and finds it first (src/step/step.c) */
  PetscCall(View_Private(cs, size));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksActive_Private(FcContactStep cs, PetscReal rscale, FcContactStats *st, PetscBool *changed)
{
  PetscMPIInt size, rank;
  PetscInt    v[6];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  v[0] = *changed;
  v[1] = st->contacts;
  v[2] = st->active;
  v[3] = st->stick;
  v[4] = st->slip;
  v[5] = cs->nact;
  PetscCallMPI(MPI_Bcast(v, 6, MPIU_INT, 0, PETSC_COMM_WORLD));
  if (!rank) PetscFunctionReturn(0);
  *changed     = (PetscBool)v[0];
  st->contacts = v[1];
  st->active   = v[2];
  st->stick    = v[3];
  st->slip     = v[4];
  cs->nact     = v[5]; /* the keys are rank 0's: only the count decides (FcContactStepCorrect, m = 0) */
  cs->first    = PETSC_FALSE;
  for (PetscInt a = 0; a < cs->m; a++) {
    cs->status[a] = FC_CONTACT_SEPARATED;
    for (int i = 0; i < 3; i++) cs->rforce[3 * a + i] = cs->r[3 * a + i] / rscale;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksRows_Private(FcContactStep cs, PetscInt nrow[])
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) PetscCallMPI(MPI_Bcast(nrow, (PetscMPIInt)cs->model->nbodies, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepRanksBcastForce_Private(PetscScalar f[], PetscInt n)
{
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1 && n) PetscCallMPI(MPI_Bcast(f, (PetscMPIInt)n, MPIU_SCALAR, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}
