/* fcsim — contact detection's places and ghosted target faces on several MPI ranks (issue 29
 * item 1: "candidate target faces ghosted within the search radius (never whole surfaces on every
 * rank)"; doc/mpi.md "Contact"). No rank gathers a partitioned body's u whole for detection:
 *  - every rank computes x = X + u at the nodes it owns (ops.nodes' single addition: the same
 *    bits), and rank 0 also at the contact surfaces' nodes (the passes' contactor points and target
 *    triangles' corners, FcContactPairsMark) through a VecScatter made once (FcVecPick): it builds
 *    the list, runs the mortar weights and refits the target trees (O(surface) on rank 0);
 *  - the broad phase's body boxes are every rank's box of its own nodes (one MPI_Allgather)
 *    combined by MIN/MAX (exact: the same boxes bit for bit); a rank other than 0 refits no tree of
 *    a partitioned body (it holds no whole surface);
 *  - each rank's query boxes of a pass (FcContactStepRanksBoxes_Private: its points' box inflated
 *    by the alarm, and for kept points beyond the alarm the box of their distance to their previous
 *    triangle, whose corners it fetches first) select the target faces as FcAABBTreeSelect does;
 *    the owner of each target node sends its place to every rank whose boxes it may serve
 *    (Send_Private: within the rank's own-node box of the contactor inflated by the alarm, the
 *    margin and the surface's largest triangle extent h, or a kept point's box inflated by h), so
 *    every corner of every face the search can select arrives, and the rank selects exactly
 *    FcAABBTreeSelect's faces among those whose corners it holds (FcContactStepGhostSelect_Private);
 *    the surfaces' scene sizes L and extents h are rank 0's (its trees), broadcast;
 *  - the narrow phase against those faces (FcContactStepRanksFind_Private), in a tree over them in
 *    the whole surface's order: the detections are the whole surface's bit for bit
 *    (-fc_contact_ranks_check_ghost, which alone gathers u whole, compares them).
 * Nothing here runs on one rank. */
#include "contact_impl.h"
#include <math.h>
#include <string.h>

/* Whether body b's vectors are distributed in another numbering than its mesh's (its DoF maps). */
static PetscErrorCode Split_Private(FcBody body, const PetscInt **n2d, const PetscInt **d2n, PetscInt *rs, PetscInt *re, PetscBool *split)
{
  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(body, n2d, d2n, rs, re));
  *split = (PetscBool)(*n2d != NULL);
  PetscFunctionReturn(0);
}

/* After FcVecPickRead: x = X + u at the picked mesh DoFs (ops.nodes' addition; X the mesh's, or xr
 * in the pick's order when given: a part's), and the count of those another rank owns (what this
 * rank received). */
static PetscErrorCode Fill_Private(FcBody body, const FcVecPick *pk, const PetscReal *xr, PetscReal *x, PetscInt64 *recv)
{
  const PetscReal *X = FcBodyFieldMesh(body)->X;
  const PetscInt  *n2d, *d2n;
  PetscInt         rs, re;
  PetscBool        split = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(Split_Private(body, &n2d, &d2n, &rs, &re, &split));
  for (PetscInt i = 0; i < pk->n; i++) {
    const PetscInt k = pk->dof[i];
    x[k]             = (xr ? xr[i] : X[k]) + pk->val[i];
    *recv += (n2d[k] < rs || n2d[k] >= re);
  }
  PetscFunctionReturn(0);
}

/* Pass P's previous detection of point `point` (P->prev is sorted by point: contact_detect.c), or
 * NULL. Its nodes are its triangle's corners: what a rank that holds no whole surface reads of it. */
static const FcProximity *PrevOf_Private(const FcContactPair *P, PetscInt point)
{
  PetscInt lo = 0, hi = P->nprev - 1;
  while (lo <= hi) {
    const PetscInt mid = (lo + hi) / 2;
    if (P->prev[mid].point == point) return &P->prev[mid];
    if (P->prev[mid].point < point) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

/* The three DoFs of each of n mesh nodes (sorted, duplicates removed in place) for a pick. */
static PetscErrorCode NodeDofs_Private(PetscInt *n, PetscInt nodes[], PetscInt **dof)
{
  PetscFunctionBegin;
  PetscCall(PetscSortRemoveDupsInt(n, nodes));
  PetscCall(PetscMalloc1(3 * (*n) + 1, dof));
  for (PetscInt i = 0; i < *n; i++)
    for (int k = 0; k < 3; k++) (*dof)[3 * i + k] = 3 * nodes[i] + k;
  PetscFunctionReturn(0);
}

/* Body b's reference places as a vector of this rank's own rows (the mesh's X at the nodes it owns,
 * FcMesh.part_own: the whole mesh's node, found in a part by gnode): the X of x = X + u at its own
 * nodes (FcContactStepGhostPlaces_Private), and on a part the corners' X it reads from their
 * owners (PrevCorners_Private). */
static PetscErrorCode Reference_Private(FcContactStep cs, PetscInt b)
{
  FcBody          body = cs->model->bodies[b];
  const FcMesh   *mesh = FcBodyFieldMesh(body);
  const PetscInt *n2d, *d2n;
  PetscInt        rs, re;
  PetscScalar    *x;

  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(body, &n2d, &d2n, &rs, &re));
  PetscCall(VecDuplicate(FcBodyUCurrent(body), &cs->gX[b]));
  PetscCall(VecGetArray(cs->gX[b], &x));
  for (PetscInt i = rs; i < re; i++) {
    PetscInt node = mesh->part_own[(i - rs) / 3];
    if (mesh->gnode) PetscCall(PetscFindInt(node, mesh->nnodes, mesh->gnode, &node)); /* gnode ascends */
    PetscCheck(node >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "an owned node is not in this rank's part");
    x[i - rs] = mesh->X[3 * node + (i - rs) % 3];
  }
  PetscCall(VecRestoreArray(cs->gX[b], &x));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepGhostSetUp_Private(FcContactStep cs, PetscBool **mark)
{
  FcModel    *model = cs->model;
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!cs->gdx) PetscFunctionReturn(0); /* one rank */
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscCalloc1(model->nbodies, &cs->spick));
  PetscCall(PetscCalloc3(model->nbodies, &cs->gX, model->nbodies, &cs->gnrecv, model->nbodies, &cs->grecv));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody          body = model->bodies[b];
    const PetscInt *n2d, *d2n;
    PetscInt        rs, re, n = 0, *dof, *didx;
    PetscBool       split = PETSC_FALSE;
    PetscCall(Split_Private(body, &n2d, &d2n, &rs, &re, &split));
    if (!cs->Xcur[b] || !split) continue; /* the same on every rank */
    PetscCall(PetscMalloc2(FcBodyNDof(body) + 1, &dof, FcBodyNDof(body) + 1, &didx));
    for (PetscInt k = 0; !rank && mark[b] && k < FcBodyNDof(body); k++)
      if (mark[b][k]) {
        didx[n]  = n2d[k];
        dof[n++] = k; /* rank 0: the contact surfaces' DoFs (whole nodes) */
      }
    PetscCall(FcVecPickCreateAt(FcBodyUCurrent(body), n, dof, didx, &cs->spick[b])); /* collective */
    PetscCall(PetscFree2(dof, didx));
    PetscCall(Reference_Private(cs, b));
  }
  /* the target surfaces of partitioned bodies: what this rank owns of them; a rank other than 0
   * frees the whole surfaces (the faces in reach come from their owners: Nodes_Private) */
  PetscCall(FcContactPairsShed(model, cs->cat, rank, cs->npairs, cs->pairs));
  PetscFunctionReturn(0);
}

/* The query boxes of the last detection's passes (FcContactStepRanksBoxes_Private's). */
static PetscErrorCode QueriesFree_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  for (PetscInt p = 0; p < cs->gqcap; p++) PetscCall(PetscFree(cs->gq[p]));
  PetscCall(PetscFree2(cs->gnq, cs->gq));
  cs->gqcap = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepGhostDestroy_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; cs->spick && b < cs->model->nbodies; b++) {
    PetscCall(FcVecPickDestroy(&cs->spick[b]));
    PetscCall(VecDestroy(&cs->gX[b]));
    PetscCall(PetscFree(cs->grecv[b]));
  }
  PetscCall(PetscFree(cs->spick));
  PetscCall(PetscFree3(cs->gX, cs->gnrecv, cs->grecv));
  for (PetscInt s = 0; s < cs->ngsurf; s++) {
    PetscCall(PetscFree(cs->gsurf[s].rf));
    PetscCall(PetscFree(cs->gsurf[s].wtri));
    if (cs->gsurf[s].wtree) PetscCall(FcAABBTreeDestroy(&cs->gsurf[s].wtree));
  }
  PetscCall(PetscFree(cs->gsurf));
  cs->ngsurf = 0;
  PetscCall(QueriesFree_Private(cs));
  PetscCall(PetscFree(cs->gobox));
  PetscFunctionReturn(0);
}

/* Body b's box over its own nodes' places (a body every rank holds whole: over all its nodes, as
 * contact_pairs.c does): lo, hi. */
static PetscErrorCode OwnBox_Private(FcContactStep cs, PetscInt b, PetscReal box[6])
{
  FcBody           body = cs->model->bodies[b];
  const PetscReal *x    = cs->Xcur[b];
  const PetscInt  *n2d, *d2n;
  PetscInt         rs, re;
  PetscBool        split = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(Split_Private(body, &n2d, &d2n, &rs, &re, &split));
  for (int d = 0; d < 3; d++) {
    box[d]     = x ? PETSC_MAX_REAL : PETSC_MIN_REAL;
    box[3 + d] = x ? PETSC_MIN_REAL : PETSC_MAX_REAL;
  }
  if (x && split)
    for (PetscInt i = rs; i < re; i++) {
      const PetscInt k = d2n[i];
      box[k % 3]       = PetscMin(box[k % 3], x[k]);
      box[3 + k % 3]   = PetscMax(box[3 + k % 3], x[k]);
    }
  else if (x)
    for (PetscInt i = 0; i < FcBodyNNodes(body); i++)
      for (int d = 0; d < 3; d++) {
        box[d]     = PetscMin(box[d], x[3 * i + d]);
        box[3 + d] = PetscMax(box[3 + d], x[3 * i + d]);
      }
  PetscFunctionReturn(0);
}

/* The slot of catalogue set s (a target surface of a partitioned body, pass P's), what this rank
 * owns of it taken from the catalogue at first use (FcContactPairsShed). */
static PetscErrorCode Surface_Private(FcContactStep cs, const FcContactPair *P, FcGhostSurface **out)
{
  const PetscInt  s = P->target_owner;
  FcGhostSurface *g;

  PetscFunctionBegin;
  if (s >= cs->ngsurf) {
    PetscCall(PetscCalloc1(s + 1, &g));
    if (cs->ngsurf) PetscCall(PetscArraycpy(g, cs->gsurf, cs->ngsurf));
    PetscCall(PetscFree(cs->gsurf));
    cs->gsurf  = g;
    cs->ngsurf = s + 1;
  }
  g    = &cs->gsurf[s];
  *out = g;
  if (g->made) PetscFunctionReturn(0);
  PetscCall(FcContactPairsOwnSurface(cs->cat, s, &g->nown, &g->own, &g->nof, &g->of));
  g->made = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Whether pass P's target is a surface of a partitioned body (the same on every rank). */
static PetscErrorCode Ghosted_Private(FcContactStep cs, const FcContactPair *P, PetscBool *g)
{
  const PetscInt *n2d, *d2n;
  PetscInt        rs, re;

  PetscFunctionBegin;
  *g = PETSC_FALSE;
  if (P->ntri) PetscCall(Split_Private(cs->model->bodies[P->B], &n2d, &d2n, &rs, &re, g));
  PetscFunctionReturn(0);
}

/* For each target surface of a partitioned body in the list: the whole surface's scene size L
 * (FcProximityOptions.scale and the boxes' margin: FcAABBTreeGetScale of the whole tree at these
 * places) and h, its triangles' largest extent along an axis (how far a corner of a triangle that
 * meets a box can be from it: Send_Private) — rank 0's, whose trees are refit at the surfaces'
 * nodes, broadcast (2 reals per surface; collective). */
static PetscErrorCode Scales_Private(FcContactStep cs, PetscMPIInt rank)
{
  PetscReal *v;
  PetscInt   n = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(2 * cs->npairs + 1, &v));
  for (int pass = 0; pass < 2; pass++) { /* 0: rank 0's values; 1: everyone's, after the broadcast */
    n = 0;
    for (PetscInt p = 0; p < cs->npairs; p++) {
      const FcContactPair *P  = &cs->pairs[p];
      const PetscReal     *XB = cs->Xcur[P->B];
      PetscBool            g, first = PETSC_TRUE;
      FcGhostSurface      *S;
      PetscCall(Ghosted_Private(cs, P, &g));
      for (PetscInt q = 0; q < p && g && first; q++) first = (PetscBool) !(cs->pairs[q].ntri && cs->pairs[q].target_owner == P->target_owner);
      if (!g || !first) continue;
      PetscCall(Surface_Private(cs, P, &S));
      if (!pass && !rank) {
        PetscCall(FcAABBTreeGetScale(P->tree, &v[2 * n]));
        v[2 * n + 1] = 0;
        for (PetscInt t = 0; t < P->ntri; t++)
          for (int d = 0; d < 3; d++) {
            const PetscReal x0 = XB[3 * P->tri[3 * t] + d], x1 = XB[3 * P->tri[3 * t + 1] + d], x2 = XB[3 * P->tri[3 * t + 2] + d];
            v[2 * n + 1] = PetscMax(v[2 * n + 1], PetscMax(x0, PetscMax(x1, x2)) - PetscMin(x0, PetscMin(x1, x2)));
          }
      }
      if (pass) {
        S->L = v[2 * n];
        S->h = v[2 * n + 1];
      }
      n++;
    }
    if (!pass && n) PetscCallMPI(MPI_Bcast(v, (PetscMPIInt)(2 * n), MPIU_REAL, 0, PETSC_COMM_WORLD));
  }
  if (rank) cs->drecvb += 2 * n;
  PetscCall(PetscFree(v));
  PetscFunctionReturn(0);
}

/* By the first of several ints (qsort, bsearch of records keyed by their first int). */
static int CmpPair_Private(const void *a, const void *b)
{
  const PetscInt x = *(const PetscInt *)a, y = *(const PetscInt *)b;
  return (x > y) - (x < y);
}

/* The distributed index of mesh DoF k of body b: the DoF maps' (a part's cover its nodes), else a
 * node whose place this rank received at the last detection (its owner sent the index with it). */
static PetscErrorCode Place_Private(FcContactStep cs, PetscInt b, PetscInt k, PetscInt *d)
{
  const PetscInt *n2d, *d2n, *hit;
  PetscInt        rs, re, key[2] = {k / 3, 0};

  PetscFunctionBegin;
  PetscCall(FcBodyDofMaps(cs->model->bodies[b], &n2d, &d2n, &rs, &re));
  *d = n2d[k];
  if (*d >= 0) PetscFunctionReturn(0);
  hit = cs->grecv[b] ? (const PetscInt *)bsearch(key, cs->grecv[b], (size_t)cs->gnrecv[b], 2 * sizeof(PetscInt), CmpPair_Private) : NULL;
  PetscCheck(hit, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node %" PetscInt_FMT " of body %s: neither in this rank's part nor received", k / 3,
    FcBodyName(cs->model->bodies[b]));
  *d = 3 * hit[1] + k % 3;
  PetscFunctionReturn(0);
}

/* The kept points beyond the alarm need their previous triangle's corners at the current places
 * (FcContactStepRanksBoxes_Private): fetched from their owners (a VecScatter of those DoFs for this
 * correction; rank 0 holds them: the surfaces' nodes). Collective; nothing unless the alarm's
 * hysteresis is on (the same on every rank). */
static PetscErrorCode PrevCorners_Private(FcContactStep cs, const FcContactPair *P, PetscInt np, const PetscInt pts[], const FcProximityOptions *opt)
{
  FcBody      B  = cs->model->bodies[P->B];
  PetscInt    n  = 0, *nodes, *dof, *didx;
  PetscReal  *xr = NULL;
  FcVecPick   pk;
  PetscMPIInt rank;

  PetscFunctionBegin;
  if (!(PetscMax(opt->alarm, opt->keep) > opt->alarm)) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscMalloc1(3 * (size_t)np + 1, &nodes));
  for (PetscInt i = 0; rank && i < np; i++) {
    const FcProximity *pr = PrevOf_Private(P, pts[i]);
    if (pr && pr->tri >= 0 && pr->tri < P->ntri)
      for (int c = 0; c < 3; c++) nodes[n++] = pr->nodes[c];
  }
  PetscCall(NodeDofs_Private(&n, nodes, &dof));
  PetscCall(PetscMalloc1(3 * n + 1, &didx));
  for (PetscInt i = 0; i < 3 * n; i++) PetscCall(Place_Private(cs, P->B, dof[i], &didx[i]));
  PetscCall(FcVecPickCreateAt(FcBodyUCurrent(B), 3 * n, dof, didx, &pk));
  if (FcBodyFieldMesh(B)->parted) { /* a distributed mesh (collective): the corners' X from their owners too (x = X + u, the same addition) */
    PetscCall(FcVecPickRead(&pk, cs->gX[P->B]));
    PetscCall(PetscMalloc1(3 * n + 1, &xr));
    PetscCall(PetscArraycpy(xr, pk.val, 3 * n));
  }
  PetscCall(FcVecPickRead(&pk, FcBodyUCurrent(B)));
  PetscCall(Fill_Private(B, &pk, xr, cs->Xcur[P->B], &cs->drecv));
  PetscCall(FcVecPickDestroy(&pk));
  PetscCall(PetscFree(nodes));
  PetscCall(PetscFree(dof));
  PetscCall(PetscFree(didx));
  PetscCall(PetscFree(xr));
  PetscFunctionReturn(0);
}

/* Each pass's query boxes of this rank's points (FcContactStepRanksBoxes_Private, as one rank's
 * detection would make them: contact_detect.c's options), kept in cs->gq; then every rank's boxes
 * beyond box 0 (those of kept points beyond the alarm) to every rank, with their pass (*kp, *kb:
 * nk of them; MPI_Allgatherv). Collective. */
static PetscErrorCode Queries_Private(FcContactStep cs, PetscInt *nk, PetscInt **kp, PetscMPIInt **kr, PetscReal **kb)
{
  PetscMPIInt size, rank, *cnt, *dsp, *cnt6, *dsp6, n = 0;
  PetscInt   *mp, tot = 0;
  PetscReal  *mb;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(QueriesFree_Private(cs));
  PetscCall(PetscCalloc2(cs->npairs + 1, &cs->gnq, cs->npairs + 1, &cs->gq));
  cs->gqcap = cs->npairs + 1;
  for (PetscInt p = 0; p < cs->npairs; p++) {
    const FcContactPair *P = &cs->pairs[p];
    const PetscInt      *pts;
    PetscInt             np, *own;
    PetscReal            pmax = 0;
    PetscBool            g;
    FcGhostSurface      *S;
    FcProximityOptions   opt;
    PetscCall(Ghosted_Private(cs, P, &g));
    if (!g) continue;
    PetscCall(Surface_Private(cs, P, &S));
    PetscCall(FcContactStepRanksPoints_Private(cs, P, &np, &pts, &own));
    PetscCall(PetscMemzero(&opt, sizeof opt));
    opt.alarm = P->alarm;
    opt.keep  = cs->ncorr > 0 ? PETSC_INFINITY : 0.0;     /* contact_detect.c */
    PetscCall(PrevCorners_Private(cs, P, np, pts, &opt)); /* collective */
    for (PetscInt i = 0; i < np; i++)
      for (int k = 0; k < 3; k++) pmax = PetscMax(pmax, PetscAbsReal(cs->Xcur[P->A][3 * pts[i] + k]));
    if (np) PetscCall(FcContactStepRanksBoxes_Private(P, cs->Xcur[P->A], cs->Xcur[P->B], np, pts, &opt, 1e-9 * (S->L + pmax), &cs->gnq[p], &cs->gq[p]));
    n += (PetscMPIInt)(cs->gnq[p] > 1 ? cs->gnq[p] - 1 : 0);
    PetscCall(PetscFree(own));
  }
  PetscCall(PetscMalloc2(n + 1, &mp, 6 * (size_t)n + 1, &mb));
  n = 0;
  for (PetscInt p = 0; p < cs->npairs; p++)
    for (PetscInt i = 1; i < cs->gnq[p]; i++, n++) {
      mp[n] = p;
      PetscCall(PetscArraycpy(mb + 6 * n, cs->gq[p] + 6 * i, 6));
    }
  PetscCall(PetscMalloc4(size, &cnt, size, &dsp, size, &cnt6, size, &dsp6));
  PetscCallMPI(MPI_Allgather(&n, 1, MPI_INT, cnt, 1, MPI_INT, PETSC_COMM_WORLD));
  for (PetscMPIInt r = 0; r < size; r++) {
    dsp[r]  = (PetscMPIInt)tot;
    cnt6[r] = 6 * cnt[r];
    dsp6[r] = 6 * dsp[r];
    tot += cnt[r];
  }
  PetscCall(PetscMalloc3(tot + 1, kp, tot + 1, kr, 6 * tot + 1, kb));
  PetscCallMPI(MPI_Allgatherv(mp, n, MPIU_INT, *kp, cnt, dsp, MPIU_INT, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Allgatherv(mb, 6 * n, MPIU_REAL, *kb, cnt6, dsp6, MPIU_REAL, PETSC_COMM_WORLD));
  for (PetscMPIInt r = 0; r < size; r++)
    for (PetscInt i = dsp[r]; i < dsp[r] + cnt[r]; i++) (*kr)[i] = r;
  *nk = tot;
  cs->drecvb += 6 * (PetscInt64)(tot - n);
  PetscCall(PetscFree4(cnt, dsp, cnt6, dsp6));
  PetscCall(PetscFree2(mp, mb));
  PetscFunctionReturn(0);
}

/* Whether x lies in box b inflated by e on every side. */
static inline PetscBool Inside_Private(const PetscReal x[3], const PetscReal b[6], PetscReal e)
{
  return (PetscBool)(x[0] >= b[0] - e && x[0] <= b[3] + e && x[1] >= b[1] - e && x[1] <= b[4] + e && x[2] >= b[2] - e && x[2] <= b[5] + e);
}

/* As owner, for rank r (not 0: it holds the surfaces): the places of the nodes this rank owns of
 * each target surface that r's points of a pass may need, appended to iv (per target body: body,
 * count, then each node with its distributed node index) and rv (3 each), each node once per
 * body. A triangle whose box meets a query box Q of r has every corner within h (its largest
 * extent along an axis, Scales_Private) of Q; r's box 0 lies within r's box of its own nodes of
 * the contactor body (cs->gobox) inflated by the alarm and twice the margin's bound (1e-9 of L +
 * the largest coordinate, FcContactStepRanksBoxes_Private); its other boxes came whole (kb,
 * Queries_Private). So every corner of every triangle r's search can select is sent
 * (Select_Private then finds FcAABBTreeSelect's set exactly); the relative 1e-9 on h covers the
 * round-off of these sums. mark: scratch per node, zero on entry and exit. */
static PetscErrorCode Send_Private(FcContactStep cs, PetscMPIInt r, PetscInt nk, const PetscInt kp[], const PetscMPIInt kr[], const PetscReal kb[],
  PetscBool **mark, PetscInt *iv, PetscInt *ni, PetscReal *rv, PetscInt *nr)
{
  FcModel       *model = cs->model;
  const PetscInt nb    = model->nbodies;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < nb; b++) {
    PetscInt        at = -1, rs, re;
    const PetscInt *n2d, *d2n;
    PetscCall(FcBodyDofMaps(model->bodies[b], &n2d, &d2n, &rs, &re));
    for (PetscInt p = 0; p < cs->npairs; p++) {
      const FcContactPair *P  = &cs->pairs[p];
      const PetscReal     *ob = cs->gobox + 6 * ((size_t)r * nb + P->A), *X = cs->Xcur[b];
      PetscBool            g;
      FcGhostSurface      *S;
      PetscReal            e, big = 0;
      if (P->B != b) continue;
      PetscCall(Ghosted_Private(cs, P, &g));
      if (!g) continue;
      PetscCall(Surface_Private(cs, P, &S));
      for (int d = 0; d < 6; d++) big = PetscMax(big, PetscAbsReal(ob[d]));
      e = P->alarm + 2e-9 * (S->L + big) + S->h * (1 + 1e-9);
      if (at < 0) {
        iv[(*ni)++] = b;
        at          = (*ni)++;
        iv[at]      = 0;
      }
      for (PetscInt j = 0; j < S->nown; j++) {
        const PetscInt k  = S->own[j];
        PetscBool      in = (PetscBool)(ob[0] <= ob[3] && Inside_Private(X + 3 * k, ob, e));
        for (PetscInt i = 0; i < nk && !in; i++) in = (PetscBool)(kr[i] == r && kp[i] == p && Inside_Private(X + 3 * k, kb + 6 * i, S->h * (1 + 1e-9)));
        if (!in || mark[b][k]) continue;
        mark[b][k]  = PETSC_TRUE;
        iv[(*ni)++] = k;
        iv[(*ni)++] = n2d[3 * k] / 3; /* its distributed index: a part may not map it (Place_Private) */
        iv[at]++;
        for (int d = 0; d < 3; d++) rv[(*nr)++] = X[3 * k + d];
      }
    }
    for (PetscInt j = at + 1; at >= 0 && j < *ni; j += 2) mark[b][iv[j]] = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* As owner, for rank r (not 0): the faces of each target surface whose corner 0 this rank owns
 * (FcContactPairsOwnSurface) that r's points of a pass may need, appended to iv after the places'
 * entries (per surface s: −1 − s, count, then index in the surface and corners, 4 ints per face),
 * each face once per surface. Corner 0 of a face whose box meets a query box of r passes the
 * places' test (Send_Private), so r gets the topology of every face whose corners' places it gets
 * from this rank and the others: the faces of FcAABBTreeSelect's set (Select_Private). fmark:
 * scratch per surface and own face, zero on entry and exit. */
static PetscErrorCode SendFaces_Private(FcContactStep cs, PetscMPIInt r, PetscInt nk, const PetscInt kp[], const PetscMPIInt kr[], const PetscReal kb[],
  PetscBool **fmark, PetscInt *iv, PetscInt *ni)
{
  const PetscInt nb = cs->model->nbodies;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < cs->npairs; p++) {
    const FcContactPair *P = &cs->pairs[p];
    const PetscInt       s = P->target_owner;
    PetscBool            g, first = PETSC_TRUE;
    FcGhostSurface      *S;
    PetscInt             at;
    PetscCall(Ghosted_Private(cs, P, &g));
    for (PetscInt q = 0; q < p && g && first; q++) first = (PetscBool) !(cs->pairs[q].ntri && cs->pairs[q].target_owner == s);
    if (!g || !first) continue;
    PetscCall(Surface_Private(cs, P, &S));
    iv[(*ni)++] = -1 - s;
    at          = (*ni)++;
    iv[at]      = 0;
    for (PetscInt q = p; q < cs->npairs; q++) { /* every pass of the list with this target surface */
      const FcContactPair *Q  = &cs->pairs[q];
      const PetscReal     *ob = cs->gobox + 6 * ((size_t)r * nb + Q->A), *X = cs->Xcur[Q->B];
      PetscReal            e, big                                           = 0;
      if (!Q->ntri || Q->target_owner != s) continue;
      for (int d = 0; d < 6; d++) big = PetscMax(big, PetscAbsReal(ob[d]));
      e = Q->alarm + 2e-9 * (S->L + big) + S->h * (1 + 1e-9);
      for (PetscInt j = 0; j < S->nof; j++) {
        const PetscInt *f  = S->of + 4 * j;
        PetscBool       in = (PetscBool)(ob[0] <= ob[3] && Inside_Private(X + 3 * f[1], ob, e));
        for (PetscInt i = 0; i < nk && !in; i++) in = (PetscBool)(kr[i] == r && kp[i] == q && Inside_Private(X + 3 * f[1], kb + 6 * i, S->h * (1 + 1e-9)));
        if (!in || fmark[s][j]) continue;
        fmark[s][j] = PETSC_TRUE;
        PetscCall(PetscArraycpy(iv + *ni, f, 4));
        *ni += 4;
        iv[at]++;
      }
    }
    for (PetscInt j = 0; j < S->nof; j++) fmark[s][j] = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* What rank r received (riv: the places' entries, body ≥ 0, and the faces' entries, −1 − s < 0;
 * rrv: 3 reals per node): the places written into this rank's, the faces into each surface's
 * received list, sorted by their index in the surface. */
static PetscErrorCode Receive_Private(FcContactStep cs, PetscInt ti, const PetscInt riv[], const PetscReal rrv[])
{
  PetscFunctionBegin;
  for (int pass = 0; pass < 2; pass++) { /* 0: count the faces per surface; 1: place everything */
    for (PetscInt s = 0; s < cs->ngsurf; s++) {
      FcGhostSurface *S = &cs->gsurf[s];
      if (pass && 4 * S->nrf > S->rfcap) {
        PetscCall(PetscFree(S->rf));
        S->rfcap = 4 * S->nrf;
        PetscCall(PetscMalloc1(S->rfcap, &S->rf));
      }
      S->nrf = 0;
    }
    for (PetscInt b = 0; b < cs->model->nbodies; b++) {
      if (pass && FcBodyFieldMesh(cs->model->bodies[b]) && FcBodyFieldMesh(cs->model->bodies[b])->gnode) {
        PetscCall(PetscFree(cs->grecv[b]));
        PetscCall(PetscMalloc1(2 * cs->gnrecv[b] + 1, &cs->grecv[b]));
      }
      cs->gnrecv[b] = 0;
    }
    for (PetscInt i = 0, j = 0; i < ti;) {
      const PetscInt x = riv[i++], n = riv[i++];
      if (x >= 0) { /* places of body x's nodes, each with its distributed index */
        for (PetscInt q = 0; q < n; q++, i += 2) {
          for (int d = 0; d < 3; d++, j++)
            if (pass) cs->Xcur[x][3 * riv[i] + d] = rrv[j];
          if (pass && cs->grecv[x]) PetscCall(PetscArraycpy(cs->grecv[x] + 2 * cs->gnrecv[x], riv + i, 2));
          cs->gnrecv[x]++;
        }
      } else { /* faces of surface −1 − x */
        FcGhostSurface *S = &cs->gsurf[-1 - x];
        if (pass) PetscCall(PetscArraycpy(S->rf + 4 * S->nrf, riv + i, 4 * n));
        S->nrf += n;
        i += 4 * n;
      }
    }
  }
  for (PetscInt s = 0; s < cs->ngsurf; s++)
    if (cs->gsurf[s].nrf > 1) qsort(cs->gsurf[s].rf, (size_t)cs->gsurf[s].nrf, 4 * sizeof(PetscInt), CmpPair_Private);
  for (PetscInt b = 0; b < cs->model->nbodies; b++)
    if (cs->grecv[b] && cs->gnrecv[b] > 1) qsort(cs->grecv[b], (size_t)cs->gnrecv[b], 2 * sizeof(PetscInt), CmpPair_Private);
  PetscFunctionReturn(0);
}

/* The target nodes every rank other than 0 needs (Send_Private), from their owners to it (one
 * MPI_Alltoallv of the node indices and one of their places), written into its places. Collective. */
static PetscErrorCode Nodes_Private(FcContactStep cs)
{
  FcModel     *model = cs->model;
  PetscMPIInt  size, rank, *ci, *di, *cr, *dr, *rci, *rdi, *rcr, *rdr;
  PetscInt     nk, *kp, *iv, *riv, ni = 0, nr = 0, ti = 0, tr = 0, cap = 2 * model->nbodies;
  PetscMPIInt *kr;
  PetscReal   *kb, *rv, *rrv;
  PetscBool  **mark, **fmark;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(Queries_Private(cs, &nk, &kp, &kr, &kb));
  PetscCall(PetscCalloc1(model->nbodies, &mark));
  PetscCall(PetscCalloc1(cs->ngsurf + 1, &fmark));
  for (PetscInt p = 0; p < cs->npairs; p++) {
    const FcContactPair *P = &cs->pairs[p];
    PetscBool            g;
    FcGhostSurface      *S;
    PetscCall(Ghosted_Private(cs, P, &g));
    if (!g) continue;
    PetscCall(Surface_Private(cs, P, &S));
    cap += 2 * S->nown + 2 + 4 * S->nof;
    if (!mark[P->B]) PetscCall(PetscCalloc1(FcBodyNDof(model->bodies[P->B]) / 3 + 1, &mark[P->B]) /* whole nodes: a part's mesh holds fewer */);
    if (!fmark[P->target_owner]) PetscCall(PetscCalloc1(S->nof + 1, &fmark[P->target_owner]));
  }
  PetscCall(PetscMalloc6(size, &ci, size, &di, size, &cr, size, &dr, size, &rci, size, &rdi));
  PetscCall(PetscMalloc2(size, &rcr, size, &rdr));
  PetscCall(PetscMalloc2(size * (size_t)cap + 1, &iv, 3 * size * (size_t)cap + 1, &rv));
  for (PetscMPIInt r = 0; r < size; r++) {
    di[r] = (PetscMPIInt)ni;
    dr[r] = (PetscMPIInt)nr;
    if (r && r != rank) PetscCall(Send_Private(cs, r, nk, kp, kr, kb, mark, iv, &ni, rv, &nr));
    if (r && r != rank) PetscCall(SendFaces_Private(cs, r, nk, kp, kr, kb, fmark, iv, &ni));
    ci[r] = (PetscMPIInt)(ni - di[r]);
    cr[r] = (PetscMPIInt)(nr - dr[r]);
  }
  PetscCallMPI(MPI_Alltoall(ci, 1, MPI_INT, rci, 1, MPI_INT, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Alltoall(cr, 1, MPI_INT, rcr, 1, MPI_INT, PETSC_COMM_WORLD));
  for (PetscMPIInt r = 0; r < size; r++) {
    rdi[r] = (PetscMPIInt)ti;
    rdr[r] = (PetscMPIInt)tr;
    ti += rci[r];
    tr += rcr[r];
  }
  PetscCall(PetscMalloc2(ti + 1, &riv, tr + 1, &rrv));
  PetscCallMPI(MPI_Alltoallv(iv, ci, di, MPIU_INT, riv, rci, rdi, MPIU_INT, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Alltoallv(rv, cr, dr, MPIU_REAL, rrv, rcr, rdr, MPIU_REAL, PETSC_COMM_WORLD));
  cs->drecv += tr;
  PetscCall(Receive_Private(cs, ti, riv, rrv));
  for (PetscInt s = 0; s < cs->ngsurf; s++) cs->drecvf += cs->gsurf[s].nrf;
  for (PetscInt b = 0; b < model->nbodies; b++) PetscCall(PetscFree(mark[b]));
  for (PetscInt s = 0; s < cs->ngsurf; s++) PetscCall(PetscFree(fmark[s]));
  PetscCall(PetscFree(mark));
  PetscCall(PetscFree(fmark));
  PetscCall(PetscFree2(riv, rrv));
  PetscCall(PetscFree2(iv, rv));
  PetscCall(PetscFree2(rcr, rdr));
  PetscCall(PetscFree6(ci, di, cr, dr, rci, rdi));
  PetscCall(PetscFree3(kp, kr, kb));
  PetscFunctionReturn(0);
}

/* Several ranks, at every detection (collective): each body's places where this rank needs them —
 * a partitioned body's at its own nodes (NaN elsewhere: a face with a corner not received is no
 * candidate, Select), rank 0's also at the contact surfaces' nodes (FcVecPick made once), another
 * rank's also at the target nodes near its points (Nodes_Private); a body every rank holds whole (a
 * rigid mesh) everywhere, from ops.nodes — then the broad phase on the bodies' boxes, a partitioned
 * body's combined from every rank's box of its own nodes (one MPI_Allgather, which the owners'
 * sends also read; MIN/MAX are exact: the same boxes bit for bit), the trees refit where the rank
 * holds the whole surface (rank 0, and the bodies every rank holds). */
PetscErrorCode FcContactStepGhostPlaces_Private(FcContactStep cs)
{
  FcModel       *model = cs->model;
  const PetscInt nb    = model->nbodies;
  PetscReal     *box, *mine, *all;
  PetscBool     *refit, *split;
  PetscInt       ns = 0;
  PetscMPIInt    size, rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  cs->drecv  = 0;
  cs->drecvb = 0;
  cs->drecvf = 0;
  cs->greach = 0;
  if (!cs->gobox) PetscCall(PetscMalloc1(6 * (size_t)size * nb + 1, &cs->gobox));
  PetscCall(PetscMalloc5(6 * nb, &box, 6 * nb + 1, &mine, 6 * (size_t)size * nb + 1, &all, nb, &refit, nb, &split));
  for (PetscInt b = 0; b < nb; b++) {
    FcBody             body = model->bodies[b];
    const PetscInt    *n2d, *d2n;
    PetscInt           rs, re;
    const PetscScalar *u;
    PetscCall(Split_Private(body, &n2d, &d2n, &rs, &re, &split[b]));
    split[b] = (PetscBool)(split[b] && cs->Xcur[b]);
    refit[b] = (PetscBool)(!split[b] || !rank);
    if (cs->Xcur[b] && !split[b]) PetscCall(FcBodyNodes(body, cs->Xcur[b]));
    if (split[b]) {
      const PetscScalar *X;
      for (PetscInt k = 0; k < FcBodyNDof(body); k++) cs->Xcur[b][k] = (PetscReal)NAN;
      PetscCall(VecGetArrayRead(FcBodyUCurrent(body), &u));
      PetscCall(VecGetArrayRead(cs->gX[b], &X));
      for (PetscInt i = rs; i < re; i++) cs->Xcur[b][d2n[i]] = X[i - rs] + u[i - rs]; /* ops.nodes' addition */
      PetscCall(VecRestoreArrayRead(cs->gX[b], &X));
      PetscCall(VecRestoreArrayRead(FcBodyUCurrent(body), &u));
      PetscCall(FcVecPickRead(&cs->spick[b], FcBodyUCurrent(body))); /* rank 0: the surfaces' nodes */
      PetscCall(Fill_Private(body, &cs->spick[b], NULL, cs->Xcur[b], &cs->drecv));
    }
    PetscCall(OwnBox_Private(cs, b, &box[6 * b]));
    if (split[b]) PetscCall(PetscArraycpy(&mine[6 * ns++], &box[6 * b], 6));
  }
  PetscCallMPI(MPI_Allgather(mine, (PetscMPIInt)(6 * ns), MPIU_REAL, all, (PetscMPIInt)(6 * ns), MPIU_REAL, PETSC_COMM_WORLD));
  cs->drecvb += 6 * (PetscInt64)ns * (size - 1);
  for (PetscMPIInt r = 0; r < size; r++) {
    PetscInt k = 0;
    for (PetscInt b = 0; b < nb; b++) {
      PetscReal *o = cs->gobox + 6 * ((size_t)r * nb + b);
      PetscCall(PetscArraycpy(o, split[b] ? all + 6 * ((size_t)r * ns + k++) : &box[6 * b], 6));
    }
  }
  for (PetscInt b = 0; b < nb; b++) /* the body's box: MIN/MAX over the ranks (rank 0's, then the others') */
    if (split[b]) PetscCall(PetscArraycpy(&box[6 * b], cs->gobox + 6 * b, 6));
  for (PetscMPIInt r = 1; r < size; r++)
    for (PetscInt b = 0; b < nb; b++)
      for (int d = 0; d < 3 && split[b]; d++) {
        box[6 * b + d]     = PetscMin(box[6 * b + d], cs->gobox[6 * ((size_t)r * nb + b) + d]);
        box[6 * b + 3 + d] = PetscMax(box[6 * b + 3 + d], cs->gobox[6 * ((size_t)r * nb + b) + 3 + d]);
      }
  PetscCall(FcContactPairsUpdateBoxes(model, cs->cat, box, cs->Xcur, refit, &cs->npairs, &cs->pairs));
  PetscCall(Scales_Private(cs, rank));
  PetscCall(Nodes_Private(cs));
  PetscCall(PetscFree5(box, mine, all, refit, split));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepGhostSelect_Private(
  FcContactStep cs, const FcContactPair *P, PetscReal *L, PetscInt *nbox, PetscReal **box, PetscInt *nsel, PetscInt **sel, PetscInt **selc)
{
  const PetscInt   p = (PetscInt)(P - cs->pairs);
  const PetscReal *X = cs->Xcur[P->B];
  FcGhostSurface  *S;
  PetscInt         i = 0, j = 0, cap;

  PetscFunctionBegin;
  PetscCall(Surface_Private(cs, P, &S));
  *L    = S->L;
  *nbox = cs->gnq[p];
  PetscCall(PetscMalloc1(6 * (size_t)*nbox + 1, box));
  PetscCall(PetscArraycpy(*box, cs->gq[p], 6 * *nbox));
  cap = P->tri ? P->ntri : S->nof + S->nrf;
  PetscCall(PetscMalloc2(cap + 1, sel, 3 * (size_t)cap + 1, selc));
  *nsel = 0;
  for (;;) { /* ascending: FcAABBTreeSelect's leaf test, on the faces whose corners this rank holds */
    const PetscInt *c;
    PetscInt        t;
    PetscReal       lo[3], hi[3];
    PetscBool       meet = PETSC_FALSE;
    if (P->tri) { /* rank 0: the whole surface */
      if (i >= P->ntri) break;
      t = i;
      c = P->tri + 3 * i++;
    } else { /* another rank: its own faces and those it received, merged (disjoint: one owner each) */
      if (i >= S->nof && j >= S->nrf) break;
      if (j >= S->nrf || (i < S->nof && S->of[4 * i] < S->rf[4 * j])) c = S->of + 4 * i++;
      else c = S->rf + 4 * j++;
      t = c[0];
      c++;
    }
    if (PetscIsNanReal(X[3 * c[0]]) || PetscIsNanReal(X[3 * c[1]]) || PetscIsNanReal(X[3 * c[2]])) continue;
    for (int d = 0; d < 3; d++) {
      lo[d] = PetscMin(X[3 * c[0] + d], PetscMin(X[3 * c[1] + d], X[3 * c[2] + d]));
      hi[d] = PetscMax(X[3 * c[0] + d], PetscMax(X[3 * c[1] + d], X[3 * c[2] + d]));
    }
    for (PetscInt k = 0; k < *nbox && !meet; k++) {
      const PetscReal *q = *box + 6 * k;
      meet               = (PetscBool)(lo[0] <= q[3] && hi[0] >= q[0] && lo[1] <= q[4] && hi[1] >= q[1] && lo[2] <= q[5] && hi[2] >= q[2]);
    }
    if (!meet) continue;
    (*sel)[*nsel] = t;
    PetscCall(PetscArraycpy(*selc + 3 * *nsel, c, 3));
    (*nsel)++;
  }
  PetscFunctionReturn(0);
}

/* Whether two detections are the same bit for bit (field by field: the records' padding is not
 * theirs). */
static PetscBool SameProximity_Private(const FcProximity *x, const FcProximity *y)
{
  return (PetscBool)(x->point == y->point && x->tri == y->tri && x->region == y->region && !memcmp(x->nodes, y->nodes, sizeof x->nodes) &&
    !memcmp(x->bary, y->bary, sizeof x->bary) && !memcmp(&x->gap, &y->gap, sizeof x->gap) && !memcmp(x->n, y->n, sizeof x->n) &&
    !memcmp(x->t1, y->t1, sizeof x->t1) && !memcmp(x->t2, y->t2, sizeof x->t2) && !memcmp(x->xc, y->xc, sizeof x->xc));
}

/* The query boxes of this rank's points of pass P (ghosted targets, FcContactStepRanksFind_Private):
 * box 0, the box of the points inflated by the alarm; then, where the alarm's hysteresis keeps a
 * point's contact at any distance (opt->keep > alarm, contact_detect.c), one box per kept point
 * beyond the alarm, inflated by its distance to its previous triangle: its closest triangle is
 * no farther (and its previous one is within). Each inflated by margin, far above the round-off
 * ties of FcProximityFind (1e-12 of the scene) and of a distance. */
PetscErrorCode FcContactStepRanksBoxes_Private(const FcContactPair *P, const PetscReal *XA, const PetscReal *XB, PetscInt np, const PetscInt pts[],
  const FcProximityOptions *opt, PetscReal margin, PetscInt *nbox, PetscReal **box)
{
  const PetscReal reach = PetscMax(opt->alarm, opt->keep);
  PetscReal      *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(6 * ((size_t)np + 1), box));
  b = *box;
  for (int k = 0; k < 3; k++) {
    b[k]     = PETSC_MAX_REAL;
    b[3 + k] = PETSC_MIN_REAL;
  }
  for (PetscInt i = 0; i < np; i++)
    for (int k = 0; k < 3; k++) {
      b[k]     = PetscMin(b[k], XA[3 * pts[i] + k] - opt->alarm - margin);
      b[3 + k] = PetscMax(b[3 + k], XA[3 * pts[i] + k] + opt->alarm + margin);
    }
  *nbox = 1;
  for (PetscInt i = 0; reach > opt->alarm && i < np; i++) {
    const PetscReal   *p  = XA + 3 * pts[i];
    const FcProximity *pr = PrevOf_Private(P, pts[i]);
    if (pr && pr->tri >= 0 && pr->tri < P->ntri) {
      const PetscInt *c = pr->nodes; /* its triangle's corners */
      PetscReal       xc[3], w[3], d = 0;
      (void)FcClosestPointTriangle(p, XB + 3 * c[0], XB + 3 * c[1], XB + 3 * c[2], xc, w);
      for (int k = 0; k < 3; k++) d += (p[k] - xc[k]) * (p[k] - xc[k]);
      d = PetscMin(PetscSqrtReal(d), reach);
      if (!(d <= opt->alarm)) { /* NaN: an infinite box, every face */
        PetscReal *q = b + 6 * (*nbox)++;
        for (int k = 0; k < 3; k++) {
          q[k]     = PetscIsInfOrNanReal(d) ? PETSC_MIN_REAL : p[k] - d - margin;
          q[3 + k] = PetscIsInfOrNanReal(d) ? PETSC_MAX_REAL : p[k] + d + margin;
        }
      }
    }
  }
  PetscFunctionReturn(0);
}

/* -fc_contact_ranks_check_ghost (a check, not a production path): pass P's detections of this
 * rank's points (nout, out) compared record by record with the whole target surface's search; a
 * partitioned target's places gathered whole for it (collective: every rank calls it), the whole
 * tree refit at them. */
static PetscErrorCode CheckGhost_Private(
  FcContactStep cs, const FcContactPair *P, PetscInt np, const PetscInt pts[], const FcProximityOptions *opt, PetscInt nout, const FcProximity *out)
{
  FcBody          B  = cs->model->bodies[P->B];
  PetscReal      *XB = cs->Xcur[P->B], *Xw = NULL;
  const PetscInt *n2d, *d2n;
  PetscInt        rs, re, nw;
  FcProximity    *w;
  FcAABBTree      tree  = P->tree;
  PetscBool       check = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_contact_ranks_check_ghost", &check, NULL));
  if (!check) PetscFunctionReturn(0);
  PetscCall(FcBodyDofMaps(B, &n2d, &d2n, &rs, &re));
  if (n2d) { /* the whole places, rank 0's (it holds the whole mesh), for the check alone */
    FcGhostSurface *S;
    PetscMPIInt     rank;
    FcVecAll        u;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PetscCall(PetscMalloc1(FcBodyNDof(B), &Xw));
    PetscCall(FcVecRootBegin(FcBodyUCurrent(B), &u));
    for (PetscInt i = 0; !rank && i < FcBodyNDof(B); i++) Xw[i] = FcBodyFieldMesh(B)->X[i] + u.a[i];
    PetscCall(FcVecAllEnd(&u));
    PetscCallMPI(MPI_Bcast(Xw, (PetscMPIInt)FcBodyNDof(B), MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCall(Surface_Private(cs, P, &S)); /* the whole surface, which only rank 0 holds: broadcast once */
    if (!S->wmade) {
      PetscCall(PetscMalloc1(3 * P->ntri, &S->wtri));
      if (!rank) PetscCall(PetscArraycpy(S->wtri, P->tri, 3 * P->ntri));
      PetscCallMPI(MPI_Bcast(S->wtri, (PetscMPIInt)(3 * P->ntri), MPIU_INT, 0, PETSC_COMM_WORLD));
      if (rank) PetscCall(FcAABBTreeCreate(P->ntri, 3, S->wtri, Xw, &S->wtree));
      S->wmade = PETSC_TRUE;
    }
    if (rank) tree = S->wtree;
    PetscCall(FcAABBTreeRefit(tree, Xw, 0.0));
    XB = Xw;
  }
  PetscCall(FcProximityFind(tree, XB, np, pts, cs->Xcur[P->A], opt, &nw, &w));
  cs->gcheck[0] += nw;
  if (nw != nout) cs->gcheck[1] += PetscAbsInt(nw - nout) + PetscMin(nw, nout);
  else
    for (PetscInt i = 0; i < nw; i++) cs->gcheck[1] += !SameProximity_Private(&w[i], &out[i]);
  PetscCall(PetscFree(w));
  PetscCall(PetscFree(Xw));
  PetscFunctionReturn(0);
}

/* Ghosted targets (issue 29 item 1, doc/mpi.md "Contact"): the narrow phase of this rank's
 * contactor points of pass P (FcContactStepRanksPoints_Private) against only the target faces
 * within the search radius of its points (FcContactStepRanksBoxes_Private), in an AABB tree built
 * over that subset, in the whole surface's order, with the whole surface's scene size for the ties
 * and the previous detection's triangles renumbered into the subset. Every triangle the whole
 * tree's search could choose, tie with or take a normal from is in the subset, so the detections
 * are the whole surface's bit for bit (-fc_contact_ranks_check_ghost compares them, test_mpi.py).
 * A partitioned target's faces are those whose corners' places this rank received from their
 * owners (contact_ghost.c FcContactStepGhostSelect_Private); a target every rank holds whole (a
 * rigid mesh) is cut from its tree (FcAABBTreeSelect). On one rank (no partitioned body, cs->gdx
 * NULL): the whole tree, as always. Collective for a partitioned target with the ghost check. */
PetscErrorCode FcContactStepRanksFind_Private(
  FcContactStep cs, const FcContactPair *P, PetscInt np, const PetscInt pts[], const FcProximityOptions *opt, PetscInt *nout, FcProximity **out)
{
  const PetscReal   *XA = cs->Xcur[P->A], *XB = cs->Xcur[P->B];
  PetscReal          L = 0, pmax = 0, *box = NULL;
  PetscInt           nbox = 0, nsel = 0, *sel = NULL, *selc = NULL, *subtri = NULL, rs, re;
  const PetscInt    *n2d, *d2n;
  FcAABBTree         sub;
  FcProximity       *prev;
  FcProximityOptions o = *opt;

  PetscFunctionBegin;
  *nout = 0;
  *out  = NULL;
  if (!cs->gdx) {
    PetscCall(FcProximityFind(P->tree, XB, np, pts, XA, opt, nout, out));
    PetscFunctionReturn(0);
  }
  PetscCall(FcBodyDofMaps(cs->model->bodies[P->B], &n2d, &d2n, &rs, &re));
  if (n2d && np) PetscCall(FcContactStepGhostSelect_Private(cs, P, &L, &nbox, &box, &nsel, &sel, &selc));
  else if (np) {
    PetscCall(FcAABBTreeGetScale(P->tree, &L));
    for (PetscInt i = 0; i < np; i++)
      for (int k = 0; k < 3; k++) pmax = PetscMax(pmax, PetscAbsReal(XA[3 * pts[i] + k]));
    PetscCall(FcContactStepRanksBoxes_Private(P, XA, XB, np, pts, opt, 1e-9 * (L + pmax), &nbox, &box));
    PetscCall(FcAABBTreeSelect(P->tree, XB, nbox, box, &nsel, &sel));
  }
  if (np) {
    PetscCall(PetscMalloc2(3 * (size_t)nsel + 1, &subtri, (size_t)P->nprev + 1, &prev));
    for (PetscInt j = 0; j < nsel; j++) {
      PetscBool meet = PETSC_TRUE; /* within box 0: its points' box inflated by the alarm (the view) */
      for (int c = 0; c < 3; c++) subtri[3 * j + c] = selc ? selc[3 * j + c] : P->tri[3 * sel[j] + c];
      for (int k = 0; k < 3; k++) {
        const PetscReal x0 = XB[3 * subtri[3 * j] + k], x1 = XB[3 * subtri[3 * j + 1] + k], x2 = XB[3 * subtri[3 * j + 2] + k];
        meet = (PetscBool)(meet && PetscMin(x0, PetscMin(x1, x2)) <= box[3 + k] && PetscMax(x0, PetscMax(x1, x2)) >= box[k]);
      }
      cs->greach += meet;
    }
    PetscCall(FcAABBTreeCreate(nsel, 3, subtri, XB, &sub));
    for (PetscInt i = 0; i < P->nprev; i++) { /* the previous triangles in the subset's numbering */
      PetscInt loc = -1;
      prev[i]      = P->prev[i];
      if (prev[i].tri >= 0) PetscCall(PetscFindInt(prev[i].tri, nsel, sel, &loc));
      prev[i].tri = loc >= 0 ? loc : -1;
    }
    o.prev  = prev;
    o.scale = L;
    PetscCall(FcProximityFind(sub, XB, np, pts, XA, &o, nout, out));
    for (PetscInt i = 0; i < *nout; i++) (*out)[i].tri = sel[(*out)[i].tri];
    cs->gfaces += nsel;
    PetscCall(FcAABBTreeDestroy(&sub));
    PetscCall(PetscFree2(subtri, prev));
  }
  PetscCall(CheckGhost_Private(cs, P, np, pts, opt, *nout, *out)); /* collective for a partitioned target */
  if (selc) PetscCall(PetscFree2(sel, selc));
  else PetscCall(PetscFree(sel));
  PetscCall(PetscFree(box));
  PetscFunctionReturn(0);
}
