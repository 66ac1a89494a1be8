/* fcsim — contact detection at the current Newton iterate (the first part of a contact
 * correction, contact_step.c): for every pair, the contactor points within the alarm distance of
 * the target — a mesh surface through its AABB tree, refit at the current node places (the
 * bodies' ops.nodes), or an analytic shape (ops.proximity) — with frames kept continuous from
 * the last detection, the duplicate rule of two-pass contact and, for mortar pairs, the target
 * point replaced by the N_a-weighted mean of the master surface (src/collide/mortar.h). */
#include "contact_impl.h"

static PetscErrorCode AddContact_Private(FcContactStep cs, PetscInt p, const FcProximity *c)
{
  PetscInt a = cs->m;

  PetscFunctionBegin;
  PetscCall(FcContactStepReserve_Private(cs, a + 1));
  cs->pair[a]  = p;
  cs->point[a] = c->point;
  cs->nt[a]    = 3;
  for (int k = 0; k < 3; k++) {
    cs->tnodes[FC_CONTACT_MAXT * a + k] = c->nodes[k];
    cs->tw[FC_CONTACT_MAXT * a + k]     = c->bary[k];
    cs->frame[9 * a + k]                = c->n[k];
    cs->frame[9 * a + 3 + k]            = c->t1[k];
    cs->frame[9 * a + 6 + k]            = c->t2[k];
    cs->xc[3 * a + k]                   = c->xc[k];
  }
  cs->gap[a] = c->gap;
  cs->key[a] = (PetscInt64)cs->pairs[p].index * (PetscInt64)1000000000 + c->point; /* the pass's index, not its place in the list */
  cs->m++;
  PetscFunctionReturn(0);
}

static const FcProximity *FindPrev_Private(const FcContactPair *P, PetscInt point)
{
  PetscInt lo = 0, hi = P->nprev - 1;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (P->prev[mid].point == point) {
      const PetscReal *t = P->prev[mid].t1;
      /* a frame from a failed (cut back) iterate may be garbage: then start a new one */
      return PetscIsInfOrNanReal(t[0] + t[1] + t[2]) ? NULL : &P->prev[mid];
    }
    if (P->prev[mid].point < point) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

static int CmpProx_Private(const void *a, const void *b)
{
  PetscInt x = ((const FcProximity *)a)->point, y = ((const FcProximity *)b)->point;
  return (x > y) - (x < y);
}

/* Duplicate rule (Twins_Private): a second-pass contact of node b is dropped while b's reference
 * twin a has a first-pass contact in this detection (the first pass is detected first). */
static PetscBool Duplicate_Private(FcContactStep cs, const FcContactPair *P, const FcProximity *c)
{
  const PetscInt a = P->twin[c->point];
  return (PetscBool)(a >= 0 && FindPrev_Private(&cs->pairs[P->partner], a));
}

/* Detection at the current iterate for every pair; fills the contact list.
 *
 * The alarm's hysteresis within a time step: from the step's second correction on, a point that
 * had a contact at the previous correction keeps it wherever it is (its closest target triangle,
 * or the analytic shape's point, at any distance), as long as its pair stays a broad-phase
 * candidate. Without it a Newton step can cycle: a sliding contact of SAP's convex model
 * separates at u_N = μ‖u_T‖ (sap.c §5), which at m/s of slip pushes the point beyond the alarm
 * within one step (the masonry arch at μ = 0.2, t = 2.40 s: 13 cm of slip, 2.6 cm of separation
 * against an alarm of 1 cm); the next correction dropped it, the point fell back in, the one
 * after found it again: 3 steps cycled between 124 and 120 contacts for 25 Newton iterations
 * (doc/validation.md). A kept point at a positive gap is a separated contact to an exact solver
 * (r = 0) and, to SAP, the convex model's contact it was at the previous iterate. A step's first
 * correction uses the alarm alone, so what a step starts from does not depend on how far the
 * step before pushed its points. */
PetscErrorCode FcContactStepDetect_Private(FcContactStep cs)
{
  FcModel        *model  = cs->model;
  const PetscBool within = (PetscBool)(cs->ncorr > 0); /* not the step's first correction */
  FcProximity   **outs;
  PetscInt       *nouts;
  PetscMPIInt     rank;

  PetscFunctionBegin;
  cs->m      = 0;
  cs->gfaces = 0;
  /* broad phase: the passes whose bodies' inflated boxes meet, their trees refit at the current
   * places; a pass whose boxes do not meet has no point within its alarm distance, so it is not in
   * the list (its frame history dropped with it: contact_pairs.h). Several ranks: each rank's places
   * of its own nodes (rank 0's also of the contact surfaces), the boxes combined (contact_ghost.c) */
  if (cs->gdx) PetscCall(FcContactStepGhostPlaces_Private(cs));
  else {
    for (PetscInt b = 0; b < model->nbodies; b++)
      if (cs->Xcur[b]) PetscCall(FcBodyNodes(model->bodies[b], cs->Xcur[b]));
    PetscCall(FcContactPairsUpdate(model, cs->cat, cs->Xcur, &cs->npairs, &cs->pairs));
  }
  /* narrow phase, of this rank's contactor points only (several ranks: the nodes it owns, against
   * the target faces in their reach, doc/mpi.md "Contact"), then every rank's detections gathered
   * (contact_mpi.c; nothing on one rank) */
  PetscCall(PetscMalloc2(cs->npairs + 1, &outs, cs->npairs + 1, &nouts));
  for (PetscInt p = 0; p < cs->npairs; p++) {
    FcContactPair  *P   = &cs->pairs[p];
    FcBody          B   = model->bodies[P->B];
    const PetscInt *pts = NULL;
    PetscInt        np, *own;

    outs[p]  = NULL;
    nouts[p] = 0;
    PetscCall(FcContactStepRanksPoints_Private(cs, P, &np, &pts, &own));
    if (P->ntri) { /* a target with a mesh (several ranks: a rank other than 0 holds no whole surface) */
      FcProximityOptions opt;
      PetscCall(PetscMemzero(&opt, sizeof opt));
      opt.alarm = P->alarm;
      opt.keep  = within ? PETSC_INFINITY : 0.0;
      opt.nprev = P->nprev;
      opt.prev  = P->prev;
      PetscCall(FcContactStepRanksFind_Private(cs, P, np, pts, &opt, &nouts[p], &outs[p])); /* several ranks: ghosted targets */
    } else {
      PetscCall(PetscMalloc1(np + 1, &outs[p]));
      for (PetscInt i = 0; i < np; i++) {
        const PetscReal   *x    = &cs->Xcur[P->A][3 * pts[i]];
        const FcProximity *prev = FindPrev_Private(P, pts[i]);
        FcProximity        c;
        PetscCall(PetscMemzero(&c, sizeof c));
        PetscCall(FcBodyProximity(B, x, prev ? prev->t1 : NULL, &c));
        if (c.gap > P->alarm && !(within && prev)) continue;
        c.point = pts[i];
        for (int k = 0; k < 3; k++) c.nodes[k] = -1;
        outs[p][nouts[p]++] = c;
      }
    }
    PetscCall(PetscFree(own));
  }
  /* several ranks: every detection to rank 0, which alone builds the list (the other ranks receive
   * the contacts they touch afterwards: FcContactStepRanksDistribute_Private) */
  PetscCall(FcContactStepRanksGatherDetection_Private(cs, outs, nouts));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt p = 0; p < cs->npairs; p++) {
    FcContactPair *P    = &cs->pairs[p];
    FcProximity   *out  = outs[p];
    const PetscInt nout = nouts[p];

    /* keep this detection (sorted by point) for the next one's frame continuity (another rank: its
     * own points', which are all its next narrow phase reads) */
    if (nout > 1) qsort(out, (size_t)nout, sizeof *out, CmpProx_Private);
    for (PetscInt i = 0; i < nout && !rank; i++) {
      if (P->reverse && Duplicate_Private(cs, P, &out[i])) continue;
      PetscCall(AddContact_Private(cs, p, &out[i]));
      if (P->mortar) { /* the target point becomes the N_a-weighted mean of the master surface */
        const PetscInt a = cs->m - 1;
        PetscInt       nt;
        PetscReal      xh[3] = {0, 0, 0}, g = 0, ns[3];
        PetscCall(FcMortarWeights(&P->slave, cs->Xcur[P->A], P->tree, P->tri, cs->Xcur[P->B], P->alarm, out[i].point, FC_CONTACT_MAXT, &nt,
          &cs->tnodes[FC_CONTACT_MAXT * a], &cs->tw[FC_CONTACT_MAXT * a], ns));
        if (!nt) { /* no master surface over the node's support */
          cs->m--;
          continue;
        }
        cs->nt[a] = nt;
        /* frame: n = −(the slave's normal), from the master towards the slave; t1 continued from
         * the detection's; kept in out[] for the next detection's frame continuity */
        for (int k = 0; k < 3; k++) cs->frame[9 * a + k] = -ns[k];
        PetscCall(FcContactFrame(&cs->frame[9 * a], out[i].t1, &cs->frame[9 * a + 3], &cs->frame[9 * a + 6]));
        for (int k = 0; k < 3; k++) {
          out[i].n[k]  = cs->frame[9 * a + k];
          out[i].t1[k] = cs->frame[9 * a + 3 + k];
          out[i].t2[k] = cs->frame[9 * a + 6 + k];
        }
        for (PetscInt j = 0; j < nt; j++)
          for (int k = 0; k < 3; k++) xh[k] += cs->tw[FC_CONTACT_MAXT * a + j] * cs->Xcur[P->B][3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k];
        for (int k = 0; k < 3; k++) {
          cs->xc[3 * a + k] = xh[k];
          g += cs->frame[9 * a + k] * (cs->Xcur[P->A][3 * out[i].point + k] - xh[k]);
        }
        cs->gap[a] = g;
      }
    }
    PetscCall(PetscFree(P->prev));
    P->prev  = out;
    P->nprev = nout;
  }
  PetscCall(PetscFree2(outs, nouts));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepListDestroy_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(cs->pair));
  PetscCall(PetscFree(cs->point));
  PetscCall(PetscFree(cs->tnodes));
  PetscCall(PetscFree(cs->nt));
  PetscCall(PetscFree(cs->status));
  PetscCall(PetscFree(cs->tw));
  PetscCall(PetscFree(cs->frame));
  PetscCall(PetscFree(cs->gap));
  PetscCall(PetscFree(cs->xc));
  PetscCall(PetscFree(cs->r));
  PetscCall(PetscFree(cs->u));
  PetscCall(PetscFree(cs->uhint));
  PetscCall(PetscFree(cs->rforce));
  PetscCall(PetscFree(cs->key));
  PetscCall(PetscFree(cs->vpair));
  PetscCall(PetscFree(cs->vframe));
  PetscCall(PetscFree(cs->vr));
  PetscCall(PetscFree(cs->keep));
  PetscCall(PetscFree(cs->kcol));
  PetscCall(PetscFree(cs->gidx));
  PetscFunctionReturn(0);
}
