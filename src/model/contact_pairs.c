/* fcsim — contact pairs from the case (doc/contact.md): per entry of contacts[], the contactor
 * points, the target surface (with its AABB tree) or analytic shape, the mortar slave surface,
 * and the second pass of a two-pass pair with its duplicate rule. Group names are resolved here,
 * against the bodies' meshes, so every error names the case key it came from; `fcsim info` makes
 * the same checks. */
#include "contact_pairs.h"
#include "body_impl.h"
#include <string.h>

static PetscErrorCode BoundaryNodes_Private(const FcMesh *mesh, PetscInt *n, PetscInt **nodes)
{
  PetscBool *mark;
  PetscInt   k = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(mesh->nnodes, &mark));
  for (PetscInt f = 0; f < mesh->nbfaces * mesh->npf; f++) mark[mesh->bfaces[f]] = PETSC_TRUE;
  for (PetscInt i = 0; i < mesh->nnodes; i++) k += mark[i];
  PetscCall(PetscMalloc1(k + 1, nodes));
  *n = 0;
  for (PetscInt i = 0; i < mesh->nnodes; i++)
    if (mark[i]) (*nodes)[(*n)++] = i;
  PetscCall(PetscFree(mark));
  PetscFunctionReturn(0);
}

/* Mean corner-edge length of the contactor's boundary faces: the automatic alarm distance
 * (a point is taken into the contact problem when it is within one element size). */
static PetscReal MeanEdge_Private(const FcMesh *mesh)
{
  PetscReal s = 0;
  PetscInt  n = 0;
  for (PetscInt f = 0; f < mesh->nbfaces; f++)
    for (int e = 0; e < 3; e++) {
      const PetscReal *a = &mesh->X[3 * mesh->bfaces[f * mesh->npf + e]], *b = &mesh->X[3 * mesh->bfaces[f * mesh->npf + (e + 1) % 3]];
      s += PetscSqrtReal((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
      n++;
    }
  return n ? s / n : 0;
}

/* The physical surface group `key` of `mesh`, or an input error on `path` listing the groups. */
static PetscErrorCode SurfaceGroup_Private(const FcCase *c, const char *path, const FcMesh *mesh, const char *key, const FcMeshGroup **g)
{
  PetscFunctionBegin;
  PetscCall(FcMeshFindGroup(mesh, key, 2, g));
  if (!*g) {
    char list[1024];
    FcMeshGroupList(mesh, list, sizeof list);
    return FcInputError(c->file, path, "no physical surface group '%s' in %s (available: %s)", key, mesh->file, list);
  }
  PetscFunctionReturn(0);
}

/* The target surface of a pair whose target has a mesh (a deformable body, or a rigid body with a
 * "mesh" shape): the outward-oriented boundary faces of that mesh (FcMesh.bfaces, corners only),
 * restricted to the physical surface group `key` when given ("": all of them; `path` names the
 * case key it came from), and the AABB tree over them in reference coordinates (refit at every
 * detection). */
static PetscErrorCode TargetSurface_Private(const FcCase *c, const char *path, const FcMesh *mesh, const char *key, FcContactPair *P)
{
  const PetscInt *faces = NULL;
  PetscInt        nf    = mesh->nbfaces;

  PetscFunctionBegin;
  if (key[0]) {
    const FcMeshGroup *g;
    PetscCall(SurfaceGroup_Private(c, path, mesh, key, &g));
    FcCheckInput(g->nfaces > 0, c->file, path, "surface group '%s' has no faces on the boundary of the mesh", key);
    faces = g->faces;
    nf    = g->nfaces;
  }
  FcCheckInput(nf > 0, c->file, path, "the mesh %s has no boundary faces", mesh->file);
  P->own_target = PETSC_TRUE;
  P->ntri       = nf;
  PetscCall(PetscMalloc1(3 * nf, &P->tri));
  for (PetscInt f = 0; f < nf; f++)
    for (int k = 0; k < 3; k++) P->tri[3 * f + k] = mesh->bfaces[(faces ? faces[f] : f) * mesh->npf + k];
  PetscCall(FcAABBTreeCreate(nf, 3, P->tri, mesh->X, &P->tree));
  PetscFunctionReturn(0);
}

/* The contactor points of a pass: the nodes of the physical surface group `key` of `mesh` ("": all
 * boundary nodes; `path` names the case key it came from). */
static PetscErrorCode ContactorPoints_Private(const FcCase *c, const char *path, const FcMesh *mesh, const char *key, FcContactPair *P)
{
  PetscFunctionBegin;
  P->own_points = PETSC_TRUE;
  if (key[0]) {
    const FcMeshGroup *g;
    PetscCall(SurfaceGroup_Private(c, path, mesh, key, &g));
    P->npoints = g->nnodes;
    PetscCall(PetscMalloc1(g->nnodes + 1, &P->points));
    PetscCall(PetscArraycpy(P->points, g->nodes, g->nnodes));
  } else PetscCall(BoundaryNodes_Private(mesh, &P->npoints, &P->points));
  PetscFunctionReturn(0);
}

/* The duplicate rule of two-pass contact (doc/contact.md "Two-pass contact"), set up once. Node b
 * of B (a second-pass contactor) and node a of A (a first-pass contactor) that coincide in the
 * reference configuration, |X_b − X_a| <= tol, are the same pair of material points seen from
 * both sides (matching meshes, or the shared corners of non-matching ones): b's second-pass
 * constraint n_b·(x_b − x_a) >= 0 is a's first-pass one, n_a·(x_a − x_b) >= 0, with n_b = −n_a on
 * a flat interface, so W would get two dependent rows for one constraint (singular, r not unique).
 * twin[b] = a then, and detection drops b's second-pass contact whenever a has a first-pass one.
 * The test is made on reference coordinates, once, rather than on the current iterate: Newton
 * iterates (frictionless sliding, the tilted normals at a surface's boundary edges) move the two
 * nodes apart by round-off-to-small amounts, and a rule that let a constraint in and out between
 * iterations would keep the active set from settling. tol = 1e-6 of the smaller mean boundary edge
 * length: far above the round-off of coincident nodes of matching meshes (~1e-15 relative), far
 * below any distance at which two distinct nodes of a mesh give distinguishable constraints. */
static PetscErrorCode Twins_Private(const FcContactPair *P1, FcContactPair *P2, const FcMesh *meshA, const FcMesh *meshB, PetscReal edgeA, PetscReal edgeB)
{
  const PetscReal tol = 1e-6 * PetscMin(edgeA, edgeB); /* edgeX = MeanEdge_Private(meshX) */
  PetscBool      *first;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(meshA->nnodes, &first));
  for (PetscInt i = 0; i < P1->npoints; i++) first[P1->points[i]] = PETSC_TRUE;
  PetscCall(PetscMalloc1(meshB->nnodes, &P2->twin));
  for (PetscInt b = 0; b < meshB->nnodes; b++) P2->twin[b] = -1;
  for (PetscInt i = 0; i < P2->npoints; i++) {
    const PetscInt   b = P2->points[i];
    const PetscReal *x = &meshB->X[3 * b];
    PetscInt         t;
    PetscReal        d, xc[3];
    PetscCall(FcAABBTreeClosest(P2->tree, meshA->X, x, tol, &t, &d, xc));
    if (t < 0) continue;
    for (int k = 0; k < 3; k++) {
      const PetscInt   a = P2->tri[3 * t + k];
      const PetscReal *y = &meshA->X[3 * a];
      if (first[a] && PetscSqrtReal((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) + (x[2] - y[2]) * (x[2] - y[2])) <= tol) P2->twin[b] = a;
    }
  }
  PetscCall(PetscFree(first));
  PetscFunctionReturn(0);
}

/* The JSON path of key `key` of pair i (c->contacts[i]) as the case file writes it: contacts[E].key
 * with E its entry; an entry over several bodies stands for several pairs, then named. */
static void ContactPath_Private(const FcCase *c, PetscInt i, const char *key, char *out, size_t len)
{
  const FcCaseContact *cc = &c->contacts[i];
  PetscBool            many = (i > 0 && c->contacts[i - 1].entry == cc->entry) || (i + 1 < c->ncontacts && c->contacts[i + 1].entry == cc->entry);
  int                  n    = snprintf(out, len, "contacts[%d].%s", (int)cc->entry, key);
  if (many && n >= 0 && (size_t)n < len) snprintf(out + n, len - (size_t)n, " (pair '%.100s'-'%.100s')", c->bodies[cc->body[0]].name, c->bodies[cc->body[1]].name);
}

/* Mortar formulation: the slave (contactor) surface triangles, the `surface` group's faces or all
 * boundary faces, and the node-to-triangle adjacency the weights integrate over. */
static PetscErrorCode SlaveSurface_Private(const FcCase *c, PetscInt i, const FcMesh *mesh, const char *key, FcContactPair *P)
{
  const PetscInt *faces = NULL;
  PetscInt        nf    = mesh->nbfaces, *sf;
  char            path[384];

  PetscFunctionBegin;
  ContactPath_Private(c, i, "surface", path, sizeof path);
  if (key[0]) {
    const FcMeshGroup *g;
    PetscCall(SurfaceGroup_Private(c, path, mesh, key, &g));
    faces = g->faces;
    nf    = g->nfaces;
  }
  FcCheckInput(nf > 0, c->file, path, "the mortar formulation needs contactor surface faces, and there are none");
  P->mortar = PETSC_TRUE;
  PetscCall(PetscMalloc1(3 * nf, &sf));
  for (PetscInt f = 0; f < nf; f++)
    for (int k = 0; k < 3; k++) sf[3 * f + k] = mesh->bfaces[(faces ? faces[f] : f) * mesh->npf + k];
  PetscCall(FcMortarSlaveCreate(mesh->nnodes, nf, sf, &P->slave));
  PetscCall(PetscFree(sf));
  PetscFunctionReturn(0);
}

/* Sharing of contactor points and target surfaces between pairs (contact_pairs.h): per body, a
 * chain of the pairs that own a set made from that body, with the case key it was made from. */
typedef struct {
  PetscInt   *head;     /* per body: the first owner pair, -1 */
  PetscInt   *next;     /* per pair: the next owner pair of the same body, -1 */
  const char **key;     /* per owner pair: the group key the set was made from */
} Owners_Private;

static PetscInt OwnerFind_Private(const Owners_Private *o, PetscInt body, const char *key)
{
  for (PetscInt q = o->head[body]; q >= 0; q = o->next[q])
    if (!strcmp(o->key[q], key)) return q;
  return -1;
}

static void OwnerAdd_Private(Owners_Private *o, PetscInt body, PetscInt pair, const char *key)
{
  o->key[pair]  = key;
  o->next[pair] = o->head[body];
  o->head[body] = pair;
}

/* The contactor points (target: the target surface with its tree) of pair p, from body `body`'s
 * group `key`: shared with an earlier pair made from the same, else made here. */
static PetscErrorCode Shared_Private(const FcModel *model, const char *path, PetscInt body, const char *key, PetscBool target, FcContactPair *pairs, PetscInt p, Owners_Private *o)
{
  const PetscInt q = OwnerFind_Private(o, body, key);

  PetscFunctionBegin;
  if (target) pairs[p].target_owner = q >= 0 ? q : p;
  if (q >= 0 && target) {
    pairs[p].ntri = pairs[q].ntri;
    pairs[p].tri  = pairs[q].tri;
    pairs[p].tree = pairs[q].tree;
  } else if (q >= 0) {
    pairs[p].npoints = pairs[q].npoints;
    pairs[p].points  = pairs[q].points;
  } else {
    if (target) PetscCall(TargetSurface_Private(model->c, path, &model->bodies[body]->mesh, key, &pairs[p]));
    else PetscCall(ContactorPoints_Private(model->c, path, &model->bodies[body]->mesh, key, &pairs[p]));
    OwnerAdd_Private(o, body, p, key);
  }
  PetscFunctionReturn(0);
}

#define FC_MEAN_EDGE(b) (edge[b] < 0 ? (edge[b] = MeanEdge_Private(&model->bodies[b]->mesh)) : edge[b])

static PetscErrorCode PassesMake_Private(const FcModel *, PetscInt *, FcContactPair *, PetscReal *, Owners_Private *, Owners_Private *, char *, size_t);
static PetscErrorCode ReferenceCandidates_Private(const FcModel *, PetscInt, const FcContactPair *, PetscBool[]);

/* The passes of every pair (first passes, then second passes), their points and surfaces. */
static PetscErrorCode Passes_Private(const FcModel *model, PetscInt *npairs, FcContactPair *pairs, PetscReal *edge)
{
  const FcCase  *c = model->c;
  char           path[384];
  Owners_Private op, ot; /* owners of contactor points, of target surfaces */
  PetscErrorCode rc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(model->nbodies, &op.head, 2 * c->ncontacts + 1, &op.next, 2 * c->ncontacts + 1, &op.key));
  rc = PetscMalloc3(model->nbodies, &ot.head, 2 * c->ncontacts + 1, &ot.next, 2 * c->ncontacts + 1, &ot.key);
  if (rc) PetscCall(PetscFree3(op.head, op.next, op.key));
  PetscCall(rc);
  for (PetscInt b = 0; b < model->nbodies; b++) op.head[b] = ot.head[b] = -1;
  rc = PassesMake_Private(model, npairs, pairs, edge, &op, &ot, path, sizeof path);
  PetscCall(PetscFree3(op.head, op.next, op.key));
  PetscCall(PetscFree3(ot.head, ot.next, ot.key));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsCreate(const FcModel *model, PetscInt *npairs, FcContactPair **out)
{
  const FcCase  *c = model->c;
  FcContactPair *pairs;
  PetscReal     *edge; /* per body: mean boundary edge length, computed once (< 0: not yet) */
  PetscBool     *cand = NULL;
  PetscErrorCode rc;

  PetscFunctionBegin;
  *npairs = 0;
  PetscCall(PetscCalloc1(2 * c->ncontacts + 1, &pairs)); /* room for a second pass per pair */
  *out = pairs;
  PetscCall(PetscMalloc1(model->nbodies, &edge));
  for (PetscInt b = 0; b < model->nbodies; b++) edge[b] = -1;
  rc = Passes_Private(model, npairs, pairs, edge);
  /* The broad phase in the reference configuration: the twins of two bodies whose boxes (inflated
   * by the alarm distance) do not meet are none, and such bodies cannot overlap at t = 0. */
  if (!rc) rc = PetscMalloc1(*npairs + 1, &cand);
  if (!rc) rc = ReferenceCandidates_Private(model, *npairs, pairs, cand);
  for (PetscInt p = 0; p < *npairs && !rc; p++) {
    FcContactPair *P = &pairs[p];
    if (!P->reverse) continue;
    if (cand[p]) rc = Twins_Private(&pairs[P->partner], P, &model->bodies[P->B]->mesh, &model->bodies[P->A]->mesh, FC_MEAN_EDGE(P->B), FC_MEAN_EDGE(P->A));
    else { /* no node of the one within the alarm distance of the other: no twin */
      rc = PetscMalloc1(model->bodies[P->A]->mesh.nnodes, &P->twin);
      for (PetscInt b = 0; b < model->bodies[P->A]->mesh.nnodes && !rc; b++) P->twin[b] = -1;
    }
  }
  if (!rc) rc = FcContactPairsCheckOverlap(model, *npairs, pairs, cand);
  PetscCall(PetscFree(edge));
  PetscCall(PetscFree(cand));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* FcContactPairsCandidates in the reference configuration (rigid bodies at their t = 0 place). */
static PetscErrorCode ReferenceCandidates_Private(const FcModel *model, PetscInt npairs, const FcContactPair *pairs, PetscBool cand[])
{
  PetscReal    **X0;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(model->nbodies, &X0));
  for (PetscInt b = 0; b < model->nbodies && !rc; b++) {
    FcBody body = model->bodies[b];
    if (!body->mesh.nnodes) continue; /* an analytic shape: unbounded box */
    if (body->placed) { /* its mesh at its place at t = 0 */
      rc = PetscMalloc1(3 * body->mesh.nnodes, &X0[b]);
      if (!rc) rc = body->ops.nodes(body, X0[b]);
    } else X0[b] = body->mesh.X;
  }
  if (!rc) rc = FcContactPairsCandidates(model, X0, npairs, pairs, cand);
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (model->bodies[b]->placed) PetscCall(PetscFree(X0[b]));
  PetscCall(PetscFree(X0));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

static PetscErrorCode PassesMake_Private(const FcModel *model, PetscInt *npairs, FcContactPair *pairs, PetscReal *edge, Owners_Private *op, Owners_Private *ot, char *path, size_t lpath)
{
  const FcCase *c = model->c;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact *cc = &c->contacts[i];
    const PetscInt       p  = *npairs;
    FcContactPair       *P  = &pairs[p];
    FcBody               B  = model->bodies[cc->body[1]];

    (*npairs)++;
    P->A        = cc->body[0];
    P->B        = cc->body[1];
    P->casepair = i;
    P->partner  = -1;
    P->mu       = cc->mu;
    ContactPath_Private(c, i, "surface", path, lpath);
    PetscCall(Shared_Private(model, path, P->A, cc->surface, PETSC_FALSE, pairs, p, op));
    P->alarm = cc->alarm > 0 ? cc->alarm : FC_MEAN_EDGE(P->A);
    if (B->ops.nodes) {
      /* a mesh surface: the pair's target_surface, else (rigid mesh shape) the shape's group */
      const char *key = cc->target_surface;
      ContactPath_Private(c, i, "target_surface", path, lpath);
      if (B->placed && !key[0]) {
        key = B->spec->shape.group;
        FcCaseBodyPath(c, cc->body[1], "shape.group", path, lpath);
      }
      PetscCall(Shared_Private(model, path, P->B, key, PETSC_TRUE, pairs, p, ot));
    }
    if (cc->mortar) PetscCall(SlaveSurface_Private(c, i, &model->bodies[P->A]->mesh, cc->surface, P));
  }
  /* Two-pass (symmetric) node-to-surface contact (doc/contact.md "Two-pass contact"): a pair with
   * both_passes gets a second internal pair with the roles swapped, appended after every first
   * pass (so that detection sees a pair's first pass before its second, and the contact keys,
   * internal pair index × 1e9 + node, stay unique and sorted across passes). Contactor: B's
   * target_surface nodes (else its boundary nodes); target: A's `surface` faces (else its
   * boundary faces). */
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact *cc = &c->contacts[i];
    const PetscInt       p  = *npairs;
    FcContactPair       *P  = &pairs[p];

    if (!cc->both_passes) continue;
    (*npairs)++;
    P->A        = cc->body[1];
    P->B        = cc->body[0];
    P->casepair = i;
    P->reverse  = PETSC_TRUE;
    P->partner  = i; /* the first loop made pair i's first pass pairs[i] */
    P->mu       = cc->mu;
    ContactPath_Private(c, i, "target_surface", path, lpath);
    PetscCall(Shared_Private(model, path, P->A, cc->target_surface, PETSC_FALSE, pairs, p, op));
    P->alarm = cc->alarm > 0 ? cc->alarm : FC_MEAN_EDGE(P->A);
    ContactPath_Private(c, i, "surface", path, lpath);
    PetscCall(Shared_Private(model, path, P->B, cc->surface, PETSC_TRUE, pairs, p, ot));
  }
  PetscFunctionReturn(0);
}
#undef FC_MEAN_EDGE

PetscErrorCode FcContactPairsDestroy(PetscInt npairs, FcContactPair **pairs)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < npairs; i++) {
    FcContactPair *P = &(*pairs)[i];
    if (P->own_points) PetscCall(PetscFree(P->points)); /* else another pair's (contact_pairs.h) */
    if (P->own_target) {
      PetscCall(PetscFree(P->tri));
      if (P->tree) PetscCall(FcAABBTreeDestroy(&P->tree));
    }
    PetscCall(PetscFree(P->prev));
    PetscCall(PetscFree(P->twin));
    if (P->mortar) PetscCall(FcMortarSlaveDestroy(&P->slave));
  }
  PetscCall(PetscFree(*pairs));
  PetscFunctionReturn(0);
}

/* The DoFs a contact can touch: contactor points, target surface nodes, every DoF of a target
 * whose points move with a point Jacobian (a rigid body: every DoF moves the shape). */
PetscErrorCode FcContactPairsMark(const FcModel *model, PetscInt npairs, const FcContactPair *pairs, PetscBool **mark)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    mark[b] = NULL;
    if (model->bodies[b]->ndof) PetscCall(PetscCalloc1(model->bodies[b]->ndof, &mark[b]));
  }
  /* one pass over the pairs (a loop over the pairs per body was O(bodies × pairs)) */
  for (PetscInt p = 0; p < npairs; p++) {
    const FcContactPair *P = &pairs[p];
    FcBody               B = model->bodies[P->B];
    if (mark[P->A])
      for (PetscInt i = 0; i < P->npoints; i++)
        for (int k = 0; k < 3; k++) mark[P->A][3 * P->points[i] + k] = PETSC_TRUE;
    if (!mark[P->B]) continue;
    if (B->ops.pointjacobian)
      for (PetscInt i = 0; i < B->ndof; i++) mark[P->B][i] = PETSC_TRUE;
    else
      for (PetscInt i = 0; i < 3 * P->ntri; i++)
        for (int k = 0; k < 3; k++) mark[P->B][3 * P->tri[i] + k] = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsCandidates(const FcModel *model, PetscReal *const Xcur[], PetscInt npairs, const FcContactPair *pairs, PetscBool candidate[])
{
  const PetscInt nb = model->nbodies;
  PetscReal     *box, *inflate;
  PetscInt       nf, *found;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(6 * nb, &box, nb, &inflate));
  for (PetscInt b = 0; b < nb; b++) inflate[b] = 0;
  for (PetscInt p = 0; p < npairs; p++) {
    inflate[pairs[p].A] = PetscMax(inflate[pairs[p].A], pairs[p].alarm);
    inflate[pairs[p].B] = PetscMax(inflate[pairs[p].B], pairs[p].alarm);
  }
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal     *lo = &box[6 * b], *hi = &box[6 * b + 3];
    const PetscInt n  = model->bodies[b]->mesh.nnodes;
    for (int d = 0; d < 3; d++) {
      lo[d] = Xcur[b] ? PETSC_MAX_REAL : PETSC_MIN_REAL;
      hi[d] = Xcur[b] ? PETSC_MIN_REAL : PETSC_MAX_REAL;
    }
    if (!Xcur[b]) continue;
    for (PetscInt i = 0; i < n; i++)
      for (int d = 0; d < 3; d++) {
        lo[d] = PetscMin(lo[d], Xcur[b][3 * i + d]);
        hi[d] = PetscMax(hi[d], Xcur[b][3 * i + d]);
      }
    for (int d = 0; d < 3; d++) {
      lo[d] -= inflate[b];
      hi[d] += inflate[b];
    }
  }
  PetscCall(FcBroadPhaseSweep(nb, box, &nf, &found));
  for (PetscInt p = 0; p < npairs; p++) {
    const PetscInt key[2] = {PetscMin(pairs[p].A, pairs[p].B), PetscMax(pairs[p].A, pairs[p].B)};
    PetscInt       lo = 0, hi = nf - 1;
    candidate[p] = PETSC_FALSE;
    while (lo <= hi) { /* found is sorted by (i, j) */
      const PetscInt mid = (lo + hi) / 2, *f = &found[2 * mid];
      if (f[0] == key[0] && f[1] == key[1]) {
        candidate[p] = PETSC_TRUE;
        break;
      }
      if (f[0] < key[0] || (f[0] == key[0] && f[1] < key[1])) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  PetscCall(PetscFree(found));
  PetscCall(PetscFree2(box, inflate));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsCheckOverlap(const FcModel *model, PetscInt npairs, const FcContactPair *pairs, const PetscBool candidate[])
{
  const FcCase *c = model->c;
  PetscReal     gworst = 0; /* the deepest penetration beyond its pair's tolerance, of all pairs */
  PetscInt      gp = -1, gat = -1;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < npairs; p++) {
    const FcContactPair *P = &pairs[p];
    FcBody               A = model->bodies[P->A], B = model->bodies[P->B];
    PetscReal            worst = 0, *XB = NULL;
    PetscInt             at = -1;

    if (candidate && !candidate[p]) continue;
    if (P->tree) {
      FcProximityOptions opt;
      FcProximity       *out = NULL;
      PetscInt           nout = 0;
      PetscCall(PetscMemzero(&opt, sizeof opt));
      opt.alarm = P->alarm;
      if (B->placed) { /* a rigid mesh shape at its place at t = 0 */
        PetscCall(PetscMalloc1(3 * B->mesh.nnodes, &XB));
        PetscCall(B->ops.nodes(B, XB));
        PetscCall(FcAABBTreeRefit(P->tree, XB, 0.0));
      }
      PetscCall(FcProximityFind(P->tree, XB ? XB : B->mesh.X, P->npoints, P->points, A->mesh.X, &opt, &nout, &out));
      for (PetscInt i = 0; i < nout; i++)
        if (out[i].gap < worst) {
          worst = out[i].gap;
          at    = out[i].point;
        }
      PetscCall(PetscFree(out));
      if (XB) PetscCall(FcAABBTreeRefit(P->tree, B->mesh.X, 0.0));
      PetscCall(PetscFree(XB));
    } else if (B->ops.proximity) {
      for (PetscInt i = 0; i < P->npoints; i++) {
        FcProximity cp;
        PetscCall(PetscMemzero(&cp, sizeof cp));
        PetscCall(B->ops.proximity(B, &A->mesh.X[3 * P->points[i]], NULL, &cp));
        if (cp.gap < worst) {
          worst = cp.gap;
          at    = P->points[i];
        }
      }
    }
    if (-worst > 1e-6 * P->alarm && worst < gworst) {
      gworst = worst;
      gp     = p;
      gat    = at;
    }
  }
  if (gp >= 0) {
    const FcContactPair *P = &pairs[gp];
    FcBody               A = model->bodies[P->A], B = model->bodies[P->B];
    const PetscReal      worst = gworst;
    const PetscInt       at = gat;
    {
      char path[64];
      snprintf(path, sizeof path, "contacts[%d]", (int)c->contacts[P->casepair].entry);
      return FcInputError(c->file, path, "bodies \"%s\" and \"%s\" overlap at t = 0: largest penetration %g m (node %d of \"%s\" at (%g, %g, %g)); the initial configuration must not overlap", A->name, B->name, (double)-worst, (int)A->mesh.node_id[at], A->name, (double)A->mesh.X[3 * at], (double)A->mesh.X[3 * at + 1], (double)A->mesh.X[3 * at + 2]);
    }
  }
  PetscFunctionReturn(0);
}
