/* fcsim — contact pairs from the case (doc/contact.md): per entry of contacts[], the contactor
 * points, the target surface (with its AABB tree) or analytic shape, the mortar slave surface,
 * and the second pass of a two-pass pair with its duplicate rule. Group names are resolved here,
 * against the bodies' meshes, so every error names the case key it came from; `fcsim info` makes
 * the same checks. */
#include "contact_pairs.h"
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
  P->ntri = nf;
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
static PetscErrorCode Twins_Private(const FcContactPair *P1, FcContactPair *P2, const FcMesh *meshA, const FcMesh *meshB)
{
  const PetscReal tol = 1e-6 * PetscMin(MeanEdge_Private(meshA), MeanEdge_Private(meshB));
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

/* Mortar formulation: the slave (contactor) surface triangles, the `surface` group's faces or all
 * boundary faces, and the node-to-triangle adjacency the weights integrate over. */
static PetscErrorCode SlaveSurface_Private(const FcCase *c, PetscInt i, const FcMesh *mesh, const char *key, FcContactPair *P)
{
  const PetscInt *faces = NULL;
  PetscInt        nf    = mesh->nbfaces, *sf;
  char            path[64];

  PetscFunctionBegin;
  snprintf(path, sizeof path, "contacts[%d].surface", (int)i);
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

PetscErrorCode FcContactPairsCreate(const FcModel *model, PetscInt *npairs, FcContactPair **out)
{
  const FcCase  *c = model->c;
  FcContactPair *pairs;
  char           path[128];

  PetscFunctionBegin;
  *npairs = 0;
  PetscCall(PetscCalloc1(2 * c->ncontacts + 1, &pairs)); /* room for a second pass per pair */
  *out = pairs;
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact *cc = &c->contacts[i];
    FcContactPair       *P  = &pairs[*npairs];
    FcBody               A = model->bodies[cc->body[0]], B = model->bodies[cc->body[1]];

    (*npairs)++;
    P->A        = cc->body[0];
    P->B        = cc->body[1];
    P->casepair = i;
    P->partner  = -1;
    P->mu       = cc->mu;
    snprintf(path, sizeof path, "contacts[%d].surface", (int)i);
    PetscCall(ContactorPoints_Private(c, path, &A->mesh, cc->surface, P));
    P->alarm = cc->alarm > 0 ? cc->alarm : MeanEdge_Private(&A->mesh);
    if (!B->rigid || B->spec->shape.type == FC_SHAPE_MESH) {
      /* a mesh surface: the pair's target_surface, else (rigid mesh shape) the shape's group */
      const char *key = cc->target_surface;
      snprintf(path, sizeof path, "contacts[%d].target_surface", (int)i);
      if (B->rigid && !key[0]) {
        key = B->spec->shape.group;
        snprintf(path, sizeof path, "bodies[%d].shape.group", (int)cc->body[1]);
      }
      PetscCall(TargetSurface_Private(c, path, &B->mesh, key, P));
    }
    if (cc->mortar) PetscCall(SlaveSurface_Private(c, i, &A->mesh, cc->surface, P));
  }
  /* Two-pass (symmetric) node-to-surface contact (doc/contact.md "Two-pass contact"): a pair with
   * both_passes gets a second internal pair with the roles swapped, appended after every first
   * pass (so that detection sees a pair's first pass before its second, and the contact keys,
   * internal pair index × 1e9 + node, stay unique and sorted across passes). Contactor: B's
   * target_surface nodes (else its boundary nodes); target: A's `surface` faces (else its
   * boundary faces). */
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact *cc = &c->contacts[i];
    FcContactPair       *P  = &pairs[*npairs];
    FcBody               A = model->bodies[cc->body[0]], B = model->bodies[cc->body[1]];

    if (!cc->both_passes) continue;
    snprintf(path, sizeof path, "contacts[%d].both_passes", (int)i);
    FcCheckInput(!A->rigid && !B->rigid, c->file, path, "two-pass contact needs two deformable bodies");
    (*npairs)++;
    P->A        = cc->body[1];
    P->B        = cc->body[0];
    P->casepair = i;
    P->reverse  = PETSC_TRUE;
    P->partner  = i; /* the first loop made pair i's first pass pairs[i] */
    P->mu       = cc->mu;
    snprintf(path, sizeof path, "contacts[%d].target_surface", (int)i);
    PetscCall(ContactorPoints_Private(c, path, &B->mesh, cc->target_surface, P));
    P->alarm = cc->alarm > 0 ? cc->alarm : MeanEdge_Private(&B->mesh);
    snprintf(path, sizeof path, "contacts[%d].surface", (int)i);
    PetscCall(TargetSurface_Private(c, path, &A->mesh, cc->surface, P));
    PetscCall(Twins_Private(&pairs[i], P, &A->mesh, &B->mesh));
  }
  PetscCall(FcContactPairsCheckOverlap(model, *npairs, pairs));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsDestroy(PetscInt npairs, FcContactPair **pairs)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < npairs; i++) {
    FcContactPair *P = &(*pairs)[i];
    PetscCall(PetscFree(P->points));
    PetscCall(PetscFree(P->tri));
    PetscCall(PetscFree(P->prev));
    PetscCall(PetscFree(P->twin));
    if (P->mortar) PetscCall(FcMortarSlaveDestroy(&P->slave));
    if (P->tree) PetscCall(FcAABBTreeDestroy(&P->tree));
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
    FcBody body = model->bodies[b];
    mark[b]     = NULL;
    if (!body->ndof) continue;
    PetscCall(PetscCalloc1(body->ndof, &mark[b]));
    for (PetscInt p = 0; p < npairs; p++) {
      const FcContactPair *P = &pairs[p];
      if (P->A == b)
        for (PetscInt i = 0; i < P->npoints; i++)
          for (int k = 0; k < 3; k++) mark[b][3 * P->points[i] + k] = PETSC_TRUE;
      if (P->B == b && body->ops.pointjacobian)
        for (PetscInt i = 0; i < body->ndof; i++) mark[b][i] = PETSC_TRUE;
      else if (P->B == b)
        for (PetscInt i = 0; i < 3 * P->ntri; i++)
          for (int k = 0; k < 3; k++) mark[b][3 * P->tri[i] + k] = PETSC_TRUE;
    }
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

PetscErrorCode FcContactPairsCheckOverlap(const FcModel *model, PetscInt npairs, const FcContactPair *pairs)
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

    if (P->tree) {
      FcProximityOptions opt;
      FcProximity       *out = NULL;
      PetscInt           nout = 0;
      PetscCall(PetscMemzero(&opt, sizeof opt));
      opt.alarm = P->alarm;
      if (B->rigid) { /* a rigid mesh shape at its place at t = 0 */
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
