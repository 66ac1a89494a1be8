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
  const FcCaseContact cc   = FcCaseContactAt(c, i);
  PetscBool           many = c->centry[cc.entry].n > 1;
  int                 n    = snprintf(out, len, "contacts[%d].%s", (int)cc.entry, key);
  if (many && n >= 0 && (size_t)n < len)
    snprintf(out + n, len - (size_t)n, " (pair '%.100s'-'%.100s')", c->bodies[cc.body[0]].name, c->bodies[cc.body[1]].name);
}

/* The mortar formulation's input check, on the whole mesh's counts (a part's groups know them):
 * the contactor surface has faces; *nf, *faces the mesh's own (the group's, or NULL: every
 * boundary face). Alone on a rank other than 0 of several (FcContactPairsShed, or a part of a
 * distributed mesh): the mortar weights are rank 0's, so the pass makes no slave surface there. */
static PetscErrorCode SlaveCheck_Private(
  const FcCase *c, PetscInt i, const FcMesh *mesh, const char *key, FcContactPair *P, PetscInt *nf, const PetscInt **faces)
{
  PetscInt nall = FcMeshNBFacesAll(mesh);
  char     path[384];

  PetscFunctionBegin;
  ContactPath_Private(c, i, "surface", path, sizeof path);
  *nf    = mesh->nbfaces;
  *faces = NULL;
  if (key[0]) {
    const FcMeshGroup *g;
    PetscCall(SurfaceGroup_Private(c, path, mesh, key, &g));
    nall   = FcMeshGroupNFacesAll(g);
    *nf    = g->nfaces;
    *faces = g->faces;
  }
  FcCheckInput(nall > 0, c->file, path, "the mortar formulation needs contactor surface faces, and there are none");
  P->mortar = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Mortar formulation: the slave (contactor) surface triangles, the `surface` group's faces or all
 * boundary faces, and the node-to-triangle adjacency the weights integrate over. */
static PetscErrorCode SlaveSurface_Private(const FcCase *c, PetscInt i, const FcMesh *mesh, const char *key, FcContactPair *P)
{
  const PetscInt *faces;
  PetscInt        nf, *sf;

  PetscFunctionBegin;
  PetscCall(SlaveCheck_Private(c, i, mesh, key, P, &nf, &faces));
  PetscCall(PetscMalloc1(3 * nf, &sf));
  for (PetscInt f = 0; f < nf; f++)
    for (int k = 0; k < 3; k++) sf[3 * f + k] = mesh->bfaces[(faces ? faces[f] : f) * mesh->npf + k];
  PetscCall(FcMortarSlaveCreate(mesh->nnodes, nf, sf, &P->slave));
  PetscCall(PetscFree(sf));
  PetscFunctionReturn(0);
}

/* The catalogue of every pass a case's contacts[] stand for (contact_pairs.h). A pass is never
 * stored until its bodies' boxes meet: what the catalogue keeps is per body (the contactor point
 * sets and target surfaces, shared by every pass made from the same body and group key, with
 * their AABB trees), per entry of contacts[] (where a body sits in its groups) and the pass
 * numbering, so that its memory is O(bodies × entries + surface sizes), not O(pairs). */
typedef struct {
  PetscInt    body, next; /* next: the next set of the same body, -1 */
  const char *key;        /* the group key it was made from (the case's string) */
  PetscBool   target;
  PetscInt    n;    /* points, or triangles */
  PetscInt   *idx;  /* the points, or 3 corner nodes per triangle */
  FcAABBTree  tree; /* target: over idx */
  /* A target surface of a partitioned body on several ranks (FcContactPairsShed): the corner nodes
   * this rank owns (ascending) and the faces whose corner 0 it owns (4 ints each: the face's index
   * in the surface, its corners; ascending); on a rank other than 0 idx and tree are freed then. */
  PetscInt  nown, *own, nof, *of;
  PetscBool shed;
} Set_Private;

struct _n_FcPairCatalog {
  PetscInt     nsets, capsets;
  Set_Private *set;
  PetscInt    *head;    /* per body: its first set, -1 */
  PetscReal   *edge;    /* per body: mean boundary edge length, computed once (< 0: not yet) */
  PetscReal   *inflate; /* per body: the largest alarm distance of its passes (the broad phase's) */
  PetscReal   *box0;    /* per body: its inflated box in the reference configuration (twin rule) */
  PetscBool   *target;  /* per body: the target of some pass */
  PetscInt    *bpoff;   /* per entry: the index of the second pass of its first pair, -1: one pass */
  PetscInt    *pos;     /* per entry e and body b, pos[e nbodies + b]: x >= 0 its place in ga,
                          * -2 - y its place in gb, -1 not in the entry */
  PetscInt     nsecond; /* second passes */
  PetscInt     nentries;
  PetscBool    lean;   /* a rank other than 0 after FcContactPairsShed: no mortar surfaces (rank 0's weights) */
  PetscBool    parted; /* some body's mesh is distributed (FcMesh.parted): what needs a whole mesh is rank 0's, broadcast */
};

/* Set S of body B from a rank's part of its distributed mesh (FcMesh.parted, a rank other than 0;
 * doc/mpi.md "Contact"), in the whole mesh's numbering (gnode), as FcContactPairsShed leaves the
 * whole set on such a rank: a target surface's count of the whole surface's faces, the corner
 * nodes this rank owns and the faces whose corner 0 it owns, each with its place in the whole
 * surface (its place in the whole group's list, FcMeshGroup.faces_at, or the whole mesh's face
 * index), no triangle list nor tree; a point set's points this rank owns. Every face with a corner
 * the rank owns is in its part (its element has that node), so these are the whole set's. The
 * input errors are the whole mesh's (the groups' whole sizes): every rank raises them alike. */
static PetscErrorCode SetFromPart_Private(const FcCase *c, const char *path, FcBody B, const char *key, PetscBool target, Set_Private *S)
{
  const FcMesh      *mesh = &B->mesh;
  const FcMeshGroup *g    = NULL;
  const PetscInt    *n2d, *d2n;
  PetscInt           rs, re, nf = mesh->nbfaces, nall = FcMeshNBFacesAll(mesh), *list = NULL, n = 0;
  PetscBool         *mine;

  PetscFunctionBegin;
  if (key[0]) {
    PetscCall(SurfaceGroup_Private(c, path, mesh, key, &g));
    nf   = g->nfaces;
    nall = FcMeshGroupNFacesAll(g);
  }
  if (target) {
    FcCheckInput(!key[0] || nall > 0, c->file, path, "surface group '%s' has no faces on the boundary of the mesh", key);
    FcCheckInput(nall > 0, c->file, path, "the mesh %s has no boundary faces", mesh->file);
  }
  PetscCall(FcBodyDofMaps(B, &n2d, &d2n, &rs, &re));
  PetscCall(PetscCalloc1(mesh->nnodes + 1, &mine));
  for (PetscInt l = 0; l < mesh->nnodes; l++) mine[l] = (PetscBool)(n2d[3 * mesh->gnode[l]] >= rs && n2d[3 * mesh->gnode[l]] < re);
  S->shed = PETSC_TRUE;
  if (!target) {
    if (key[0]) {
      PetscCall(PetscMalloc1(g->nnodes + 1, &list));
      for (PetscInt j = 0; j < g->nnodes; j++) list[n++] = g->nodes[j];
    } else PetscCall(BoundaryNodes_Private(mesh, &n, &list));
    S->n = 0;
    PetscCall(PetscMalloc1(n + 1, &S->idx));
    for (PetscInt j = 0; j < n; j++) /* local order is the whole mesh's: ascending */
      if (mine[list[j]]) S->idx[S->n++] = mesh->gnode[list[j]];
    PetscCall(PetscFree(list));
    PetscCall(PetscFree(mine));
    PetscFunctionReturn(0);
  }
  S->n = nall;
  PetscCall(PetscMalloc2(3 * nf + 1, &S->own, 4 * nf + 1, &S->of));
  for (PetscInt j = 0; j < nf; j++) {
    const PetscInt  f = g ? g->faces[j] : j, *v = mesh->bfaces + f * mesh->npf;
    const PetscBool any = (PetscBool)(mine[v[0]] || mine[v[1]] || mine[v[2]]);
    for (int k = 0; k < 3 && any; k++)
      if (mine[v[k]]) S->own[S->nown++] = mesh->gnode[v[k]];
    if (!mine[v[0]]) continue;
    S->of[4 * S->nof] = g ? g->faces_at[j] : mesh->gface[f];
    for (int k = 0; k < 3; k++) S->of[4 * S->nof + 1 + k] = mesh->gnode[v[k]];
    S->nof++;
  }
  PetscCall(PetscSortRemoveDupsInt(&S->nown, S->own));
  PetscCall(PetscFree(mine));
  PetscFunctionReturn(0);
}

/* The set of body `body` from group `key` (points; target: surface and tree), made on first use;
 * `path` names the case key for an input error. */
static PetscErrorCode SetGet_Private(const FcModel *model, FcPairCatalog cat, const char *path, PetscInt body, const char *key, PetscBool target, PetscInt *s)
{
  FcContactPair T;
  Set_Private  *S;

  PetscFunctionBegin;
  for (*s = cat->head[body]; *s >= 0; *s = cat->set[*s].next)
    if (cat->set[*s].target == target && !strcmp(cat->set[*s].key, key)) PetscFunctionReturn(0);
  if (cat->nsets == cat->capsets) {
    Set_Private *ns;
    cat->capsets = PetscMax(16, 2 * cat->capsets);
    PetscCall(PetscCalloc1(cat->capsets, &ns));
    if (cat->nsets) PetscCall(PetscArraycpy(ns, cat->set, cat->nsets));
    PetscCall(PetscFree(cat->set));
    cat->set = ns;
  }
  PetscCall(PetscMemzero(&T, sizeof T));
  *s = cat->nsets;
  S  = &cat->set[*s];
  PetscCall(PetscMemzero(S, sizeof *S));
  if (model->bodies[body]->mesh.gnode) { /* a rank's part of a distributed mesh: what it owns of the set */
    PetscCall(SetFromPart_Private(model->c, path, model->bodies[body], key, target, S));
    cat->nsets++;
    S->body         = body;
    S->key          = key;
    S->target       = target;
    S->next         = cat->head[body];
    cat->head[body] = *s;
    PetscFunctionReturn(0);
  }
  if (target) PetscCall(TargetSurface_Private(model->c, path, &model->bodies[body]->mesh, key, &T));
  else PetscCall(ContactorPoints_Private(model->c, path, &model->bodies[body]->mesh, key, &T));
  cat->nsets++;
  S->body         = body;
  S->key          = key;
  S->target       = target;
  S->n            = target ? T.ntri : T.npoints;
  S->idx          = target ? T.tri : T.points;
  S->tree         = T.tree;
  S->next         = cat->head[body];
  cat->head[body] = *s;
  PetscFunctionReturn(0);
}

#define FC_MEAN_EDGE(b) (cat->edge[b] < 0 ? (cat->edge[b] = MeanEdge_Private(&model->bodies[b]->mesh)) : cat->edge[b])

/* The group key of the target surface of case pair i's first pass (a mesh target), and its path. */
static const char *TargetKey_Private(const FcModel *model, PetscInt i, char *path, size_t lpath)
{
  const FcCase       *c   = model->c;
  const FcCaseContact cc  = FcCaseContactAt(c, i);
  const char         *key = cc.target_surface;
  ContactPath_Private(c, i, "target_surface", path, lpath);
  if (model->bodies[cc.body[1]]->placed && !key[0]) {
    key = model->bodies[cc.body[1]]->spec->shape.group;
    FcCaseBodyPath(c, cc.body[1], "shape.group", path, lpath);
  }
  return key;
}

/* The first pass of a body in each role, per entry (CatalogPasses_Private): what the passes made in
 * index order would look up first, so that the same input error comes first. */
typedef struct {
  PetscInt pass, sub; /* pass index; 0 its points, 1 its target surface, 2 its mortar surface */
  PetscInt casepair, body;
} Event_Private;

static int CmpEvent_Private(const void *a, const void *b)
{
  const Event_Private *x = a, *y = b;
  if (x->pass != y->pass) return (x->pass > y->pass) - (x->pass < y->pass);
  return (x->sub > y->sub) - (x->sub < y->sub);
}

/* Entry e's first passes per body and role: "pair" x-major, ga[x] first the contactor at (x, 0),
 * gb[y] the target at (0, y); "bodies" (x, y) in order (case.h), a body p the contactor first at
 * (q, p) with q its first rigid predecessor, else at (p, p + 1); the target first at (q, p) with q
 * its first deformable predecessor, or for a rigid p at (p, its first deformable successor); second
 * passes likewise with the roles swapped. */
static void EntryEvents_Private(const FcCase *c, FcPairCatalog cat, PetscInt e, Event_Private *ev, PetscInt *n)
{
  const FcCaseContactEntry *ce = &c->centry[e];
  const PetscInt            f = ce->first, b2 = cat->bpoff[e];
#define FC_EVENT(P, S, I, B) (ev[*n].pass = (P), ev[*n].sub = (S), ev[*n].casepair = (I), ev[*n].body = (B), (*n)++)
  if (ce->nb) {
    for (PetscInt x = 0; x < ce->na; x++) {
      FC_EVENT(f + x * ce->nb, 0, f + x * ce->nb, ce->ga[x]);
      if (ce->mortar) FC_EVENT(f + x * ce->nb, 2, f + x * ce->nb, ce->ga[x]);
      if (b2 >= 0) FC_EVENT(b2 + x * ce->nb, 1, f + x * ce->nb, ce->ga[x]);
    }
    for (PetscInt y = 0; y < ce->nb; y++) {
      FC_EVENT(f + y, 1, f + y, ce->gb[y]);
      if (b2 >= 0) FC_EVENT(b2 + y, 0, f + y, ce->gb[y]);
    }
  } else {
    const PetscInt *st = ce->start, *nd = ce->ndef, na = ce->na;
    PetscInt        r = -1, d = -1; /* the first rigid, the first deformable body so far */
    for (PetscInt p = 0; p < na; p++) {
      const PetscBool rp = c->bodies[ce->ga[p]].rigid;
      PetscInt        L  = -1;
      if (!rp) { /* contactor */
        if (r >= 0) L = st[r] + nd[p] - nd[r + 1];
        else if (p + 1 < na) L = st[p];
        if (L >= 0) {
          FC_EVENT(f + L, 0, f + L, ce->ga[p]);
          if (ce->mortar) FC_EVENT(f + L, 2, f + L, ce->ga[p]);
        }
      }
      L = -1; /* target */
      if (d >= 0) L = st[d] + p - d - 1;
      else if (rp && nd[na] - nd[p + 1] > 0) L = st[p];
      if (L >= 0) FC_EVENT(f + L, 1, f + L, ce->ga[p]);
      if (b2 >= 0 && p > 0) FC_EVENT(b2 + st[0] + p - 1, 0, f + st[0] + p - 1, ce->ga[p]); /* (0, p): all deformable */
      if (b2 >= 0 && p + 1 < na) FC_EVENT(b2 + st[p], 1, f + st[p], ce->ga[p]);
      if (rp && r < 0) r = p;
      if (!rp && d < 0) d = p;
    }
  }
#undef FC_EVENT
}

/* The largest alarm distance of each body's passes in entry e (the broad phase's inflation): the
 * entry's alarm, else the contactor's mean edge, per pass (case.h for who is the contactor). */
static void EntryInflate_Private(const FcModel *model, FcPairCatalog cat, PetscInt e)
{
  const FcCaseContactEntry *ce  = &model->c->centry[e];
  PetscReal                *inf = cat->inflate, m = 0;
#define FC_RAISE(b, a) (inf[b] = PetscMax(inf[b], (a)))
  if (ce->alarm > 0) {
    for (PetscInt x = 0; x < ce->na; x++) FC_RAISE(ce->ga[x], ce->alarm);
    for (PetscInt y = 0; y < ce->nb; y++) FC_RAISE(ce->gb[y], ce->alarm);
  } else if (ce->nb) { /* ga[x] the contactor (gb[y] in a second pass) of every pair it is in */
    PetscReal mb = 0;
    for (PetscInt x = 0; x < ce->na; x++) m = PetscMax(m, FC_MEAN_EDGE(ce->ga[x]));
    for (PetscInt y = 0; y < ce->nb && ce->both_passes; y++) mb = PetscMax(mb, FC_MEAN_EDGE(ce->gb[y]));
    for (PetscInt x = 0; x < ce->na; x++) FC_RAISE(ce->ga[x], PetscMax(FC_MEAN_EDGE(ce->ga[x]), mb));
    for (PetscInt y = 0; y < ce->nb; y++) FC_RAISE(ce->gb[y], PetscMax(m, ce->both_passes ? FC_MEAN_EDGE(ce->gb[y]) : 0));
  } else { /* (x, y): the earlier deformable body, or the deformable one of a rigid pair */
    const PetscInt na  = ce->na;
    PetscReal      all = 0, pre = 0, suf = 0;
    PetscBool      rigidbefore = PETSC_FALSE;
    for (PetscInt p = 0; p < na; p++)
      if (!model->c->bodies[ce->ga[p]].rigid) all = PetscMax(all, FC_MEAN_EDGE(ce->ga[p]));
    for (PetscInt p = 0; p < na; p++) {
      const PetscInt b = ce->ga[p];
      if (model->c->bodies[b].rigid) {
        FC_RAISE(b, all);
        rigidbefore = PETSC_TRUE;
        continue;
      }
      FC_RAISE(b, pre); /* its deformable predecessors', the contactors */
      if (p + 1 < na || rigidbefore) FC_RAISE(b, FC_MEAN_EDGE(b));
      if (ce->both_passes && p > 0) FC_RAISE(b, FC_MEAN_EDGE(b)); /* second passes: (q, p) */
      pre = PetscMax(pre, FC_MEAN_EDGE(b));
    }
    for (PetscInt p = na - 1; p >= 0 && ce->both_passes; p--) { /* second passes (p, q): q's */
      FC_RAISE(ce->ga[p], suf);
      suf = PetscMax(suf, FC_MEAN_EDGE(ce->ga[p]));
    }
  }
#undef FC_RAISE
}

/* Every pass of the case checked as it would be made, in the order of their index (first passes,
 * then second passes): its points, its target surface, its mortar slave surface (errors name the
 * case key), and the bodies' broad-phase inflation. Only each body's first pass in each role is
 * looked at (the others share its sets): O(bodies in the groups), not O(pairs). */
static PetscErrorCode CatalogPasses_Private(const FcModel *model, FcPairCatalog cat)
{
  const FcCase  *c = model->c;
  Event_Private *ev;
  PetscInt       n = 0, cap = 0, s;
  char           path[384];

  PetscFunctionBegin;
  for (PetscInt e = 0; e < c->nentries; e++) cap += 3 * (c->centry[e].na + c->centry[e].nb) + 2 * c->centry[e].na;
  PetscCall(PetscMalloc1(cap + 1, &ev));
  for (PetscInt e = 0; e < c->nentries; e++) {
    EntryEvents_Private(c, cat, e, ev, &n);
    EntryInflate_Private(model, cat, e);
    for (PetscInt y = 0; y < c->centry[e].nb; y++) cat->target[c->centry[e].gb[y]] = PETSC_TRUE;
    for (PetscInt x = 0; x < c->centry[e].na; x++)
      if (!c->centry[e].nb || c->centry[e].both_passes) cat->target[c->centry[e].ga[x]] = PETSC_TRUE;
  }
  qsort(ev, (size_t)n, sizeof *ev, CmpEvent_Private);
  for (PetscInt k = 0; k < n; k++) {
    const FcCaseContact cc      = FcCaseContactAt(c, ev[k].casepair);
    const PetscBool     reverse = (PetscBool)(ev[k].pass >= c->ncontacts);
    PetscErrorCode      rc      = 0;
    if (ev[k].sub == 0) {
      ContactPath_Private(c, ev[k].casepair, reverse ? "target_surface" : "surface", path, sizeof path);
      rc = SetGet_Private(model, cat, path, ev[k].body, reverse ? cc.target_surface : cc.surface, PETSC_FALSE, &s);
    } else if (ev[k].sub == 1 && reverse) {
      ContactPath_Private(c, ev[k].casepair, "surface", path, sizeof path);
      rc = SetGet_Private(model, cat, path, ev[k].body, cc.surface, PETSC_TRUE, &s);
    } else if (ev[k].sub == 1 && model->bodies[ev[k].body]->ops.nodes) {
      const char *key = TargetKey_Private(model, ev[k].casepair, path, sizeof path);
      rc              = SetGet_Private(model, cat, path, ev[k].body, key, PETSC_TRUE, &s);
    } else if (ev[k].sub == 2) { /* checked here, made with its pass */
      FcContactPair T;
      PetscCall(PetscMemzero(&T, sizeof T));
      rc = SlaveSurface_Private(c, ev[k].casepair, &model->bodies[ev[k].body]->mesh, cc.surface, &T);
      if (!rc) rc = FcMortarSlaveDestroy(&T.slave);
    }
    if (rc) PetscCall(PetscFree(ev));
    PetscCall(rc);
  }
  PetscCall(PetscFree(ev));
  PetscFunctionReturn(0);
}

/* Where each body sits in each entry's groups, and the index of each entry's second passes. */
static PetscErrorCode CatalogEntries_Private(const FcModel *model, FcPairCatalog cat)
{
  const FcCase  *c  = model->c;
  const PetscInt nb = model->nbodies, ne = c->nentries;
  PetscInt       off = c->ncontacts;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ne * nb + 1, &cat->pos));
  PetscCall(PetscMalloc1(ne + 1, &cat->bpoff));
  for (PetscInt k = 0; k < ne * nb; k++) cat->pos[k] = -1;
  for (PetscInt e = 0; e < ne; e++) {
    const FcCaseContactEntry *ce  = &c->centry[e];
    PetscInt                 *pos = &cat->pos[e * nb];
    for (PetscInt x = 0; x < ce->na; x++) pos[ce->ga[x]] = x;
    for (PetscInt y = 0; y < ce->nb; y++) pos[ce->gb[y]] = -2 - y;
    cat->bpoff[e] = -1;
    if (ce->both_passes) {
      cat->bpoff[e] = off;
      off += ce->n;
    }
  }
  cat->nsecond = off - c->ncontacts;
  PetscFunctionReturn(0);
}

/* The case pair of entry e between bodies a and b (either order), -1 when e has none. */
static PetscInt CasePair_Private(const FcCase *c, FcPairCatalog cat, PetscInt nbodies, PetscInt e, PetscInt a, PetscInt b)
{
  const FcCaseContactEntry *ce = &c->centry[e];
  const PetscInt            pa = cat->pos[e * nbodies + a], pb = cat->pos[e * nbodies + b];

  if (pa == -1 || pb == -1) return -1;
  if (ce->nb) { /* "pair": one in ga, the other in gb */
    if (pa >= 0 && pb <= -2) return ce->first + pa * ce->nb + (-2 - pb);
    if (pb >= 0 && pa <= -2) return ce->first + pb * ce->nb + (-2 - pa);
    return -1;
  } else {
    const PetscInt  x = PetscMin(pa, pb), y = PetscMax(pa, pb), *st = ce->start, *nd = ce->ndef;
    const PetscBool rx = c->bodies[ce->ga[x]].rigid;
    if (rx && c->bodies[ce->ga[y]].rigid) return -1;
    return ce->first + st[x] + (rx ? nd[y] - nd[x + 1] : y - x - 1);
  }
}

/* A pass no longer a candidate: what it holds (the sets are the catalogue's). */
static PetscErrorCode PassFree_Private(FcContactPair *P)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(P->prev));
  PetscCall(PetscFree(P->twin));
  if (P->mortar) PetscCall(FcMortarSlaveDestroy(&P->slave));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsDestroy(FcPairCatalog *pcat, PetscInt npairs, FcContactPair **pairs)
{
  FcPairCatalog cat = *pcat;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < npairs; i++) PetscCall(PassFree_Private(&(*pairs)[i]));
  PetscCall(PetscFree(*pairs));
  if (!cat) PetscFunctionReturn(0);
  for (PetscInt s = 0; s < cat->nsets; s++) {
    PetscCall(PetscFree(cat->set[s].idx));
    PetscCall(PetscFree2(cat->set[s].own, cat->set[s].of));
    if (cat->set[s].tree) PetscCall(FcAABBTreeDestroy(&cat->set[s].tree));
  }
  PetscCall(PetscFree(cat->set));
  PetscCall(PetscFree(cat->head));
  PetscCall(PetscFree4(cat->edge, cat->inflate, cat->box0, cat->target));
  PetscCall(PetscFree(cat->pos));
  PetscCall(PetscFree(cat->bpoff));
  PetscCall(PetscFree(*pcat));
  PetscFunctionReturn(0);
}

/* Pass `index` made (its points and target from the catalogue's sets; the partner and the twins of
 * a second pass are set by the caller). */
static PetscErrorCode PassMake_Private(const FcModel *model, FcPairCatalog cat, PetscInt index, FcContactPair *P)
{
  const FcCase *c = model->c;
  PetscInt      i = index, e, s;
  char          path[384];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(P, sizeof *P));
  P->index   = index;
  P->partner = -1;
  if (index >= c->ncontacts) { /* a second pass: its entry by its index */
    for (e = 0; e < c->nentries; e++)
      if (cat->bpoff[e] >= 0 && index < cat->bpoff[e] + c->centry[e].n) break;
    i          = c->centry[e].first + (index - cat->bpoff[e]);
    P->reverse = PETSC_TRUE;
  }
  {
    const FcCaseContact cc = FcCaseContactAt(c, i), *cp = &cc;
    P->casepair = i;
    P->A        = cp->body[P->reverse ? 1 : 0];
    P->B        = cp->body[P->reverse ? 0 : 1];
    P->mu       = cp->mu;
    P->alarm    = cp->alarm > 0 ? cp->alarm : FC_MEAN_EDGE(P->A);
    ContactPath_Private(c, i, P->reverse ? "target_surface" : "surface", path, sizeof path);
    PetscCall(SetGet_Private(model, cat, path, P->A, P->reverse ? cp->target_surface : cp->surface, PETSC_FALSE, &s));
    P->npoints = cat->set[s].n;
    P->points  = cat->set[s].idx;
    if (model->bodies[P->B]->ops.nodes) {
      const char *key = P->reverse ? cp->surface : TargetKey_Private(model, i, path, sizeof path);
      PetscCall(SetGet_Private(model, cat, path, P->B, key, PETSC_TRUE, &s));
      P->ntri         = cat->set[s].n;
      P->tri          = cat->set[s].idx;
      P->tree         = cat->set[s].tree;
      P->target_owner = s;
    }
    if (cp->mortar && (cat->lean || model->bodies[P->A]->mesh.gnode)) {
      const PetscInt *faces;
      PetscInt        nf;
      PetscCall(SlaveCheck_Private(c, i, &model->bodies[P->A]->mesh, cp->surface, P, &nf, &faces));
    } else if (cp->mortar) PetscCall(SlaveSurface_Private(c, i, &model->bodies[P->A]->mesh, cp->surface, P));
  }
  PetscFunctionReturn(0);
}

/* Bodies a and b's boxes meet (the broad phase's test, FcBroadPhaseSweep: touching boxes meet). */
static PetscBool BoxesMeet_Private(const PetscReal *a, const PetscReal *b)
{
  for (int d = 0; d < 3; d++)
    if (a[d] > b[3 + d] || b[d] > a[3 + d]) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* The second pass P's twins (Twins_Private) when its bodies' boxes met in the reference
 * configuration, else none (no node of one within the alarm distance of the other). The target
 * tree is refit at the reference places for the query (the caller refits it after). */
static PetscErrorCode PassTwins_Private(const FcModel *model, FcPairCatalog cat, const FcContactPair *P1, FcContactPair *P)
{
  const FcMesh *meshA = &model->bodies[P->B]->mesh, *meshB = &model->bodies[P->A]->mesh;

  PetscFunctionBegin;
  if (!P->tree) PetscFunctionReturn(0); /* several ranks: a surface shed by a rank other than 0, which applies no duplicate rule */
  if (BoxesMeet_Private(&cat->box0[6 * P->A], &cat->box0[6 * P->B])) {
    PetscCall(FcAABBTreeRefit(P->tree, meshA->X, 0.0));
    PetscCall(Twins_Private(P1, P, meshA, meshB, FC_MEAN_EDGE(P->B), FC_MEAN_EDGE(P->A)));
  } else {
    PetscCall(PetscMalloc1(meshB->nnodes, &P->twin));
    for (PetscInt b = 0; b < meshB->nnodes; b++) P->twin[b] = -1;
  }
  PetscFunctionReturn(0);
}

/* Each body's axis-aligned box over its nodes at Xcur[b] (unbounded for NULL: an analytic shape);
 * raw, not inflated (FcContactPairsBodyBoxes). */
static void RawBoxes_Private(const FcModel *model, PetscReal *const Xcur[], PetscReal *box)
{
  for (PetscInt b = 0; b < model->nbodies; b++) {
    PetscReal     *lo = &box[6 * b], *hi = &box[6 * b + 3];
    const PetscInt n = model->bodies[b]->mesh.nnodes;
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
  }
}

/* Each body's box (raw, RawBoxes_Private's) inflated by the largest alarm distance of its passes
 * (an unbounded one, of a body without nodes, as it is). */
static void Inflate_Private(const FcModel *model, FcPairCatalog cat, PetscReal *const Xcur[], PetscReal *box)
{
  for (PetscInt b = 0; b < model->nbodies; b++)
    for (int d = 0; d < 3 && Xcur[b]; d++) {
      box[6 * b + d] -= cat->inflate[b];
      box[6 * b + 3 + d] += cat->inflate[b];
    }
}

static void Boxes_Private(const FcModel *model, FcPairCatalog cat, PetscReal *const Xcur[], PetscReal *box)
{
  RawBoxes_Private(model, Xcur, box);
  Inflate_Private(model, cat, Xcur, box);
}

/* The indices of the passes of the body pairs found by the broad phase, sorted. */
static PetscErrorCode Wanted_Private(const FcModel *model, FcPairCatalog cat, PetscInt nf, const PetscInt found[], PetscInt *nw, PetscInt **want)
{
  const FcCase *c   = model->c;
  PetscInt      cap = 2 * nf + 16;

  PetscFunctionBegin;
  *nw = 0;
  PetscCall(PetscMalloc1(cap, want));
  for (PetscInt f = 0; f < nf; f++)
    for (PetscInt e = 0; e < c->nentries; e++) {
      const PetscInt i = CasePair_Private(c, cat, model->nbodies, e, found[2 * f], found[2 * f + 1]);
      if (i < 0) continue;
      if (*nw + 2 > cap) {
        PetscInt *nwp;
        cap *= 2;
        PetscCall(PetscMalloc1(cap, &nwp));
        PetscCall(PetscArraycpy(nwp, *want, *nw));
        PetscCall(PetscFree(*want));
        *want = nwp;
      }
      (*want)[(*nw)++] = i;
      if (cat->bpoff[e] >= 0) (*want)[(*nw)++] = cat->bpoff[e] + (i - c->centry[e].first);
    }
  PetscCall(PetscSortInt(*nw, *want));
  PetscFunctionReturn(0);
}

/* The new list: the passes of `want`, those already in the old list moved over with their state. */
static PetscErrorCode Merge_Private(const FcModel *model, FcPairCatalog cat, PetscInt nw, const PetscInt want[], PetscInt *npairs, FcContactPair **pairs)
{
  FcContactPair *np, *old = *pairs;
  PetscInt       o = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(nw + 1, &np));
  for (PetscInt w = 0; w < nw; w++) {
    while (o < *npairs && old[o].index < want[w]) PetscCall(PassFree_Private(&old[o++]));
    if (o < *npairs && old[o].index == want[w]) np[w] = old[o++];
    else {
      PetscCall(PassMake_Private(model, cat, want[w], &np[w]));
      np[w].twin = NULL;
    }
  }
  while (o < *npairs) PetscCall(PassFree_Private(&old[o++]));
  PetscCall(PetscFree(old));
  *pairs  = np;
  *npairs = nw;
  /* a second pass's partner: its first pass, a candidate with it (the same two bodies) */
  for (PetscInt w = 0; w < nw; w++) {
    FcContactPair *P  = &np[w];
    PetscInt       lo = 0, hi = nw - 1;
    if (!P->reverse) continue;
    while (lo <= hi) {
      const PetscInt mid = (lo + hi) / 2;
      if (np[mid].index == P->casepair) {
        P->partner = mid;
        break;
      }
      if (np[mid].index < P->casepair) lo = mid + 1;
      else hi = mid - 1;
    }
    PetscCheck(P->partner >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "second pass %" PetscInt_FMT " without its first pass", P->index);
    if (!P->twin) PetscCall(PassTwins_Private(model, cat, &np[P->partner], P));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsUpdate(const FcModel *model, FcPairCatalog cat, PetscReal *const Xcur[], PetscInt *npairs, FcContactPair **pairs)
{
  PetscFunctionBegin;
  PetscCall(FcContactPairsUpdateBoxes(model, cat, NULL, Xcur, NULL, npairs, pairs));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsUpdateBoxes(
  const FcModel *model, FcPairCatalog cat, const PetscReal raw[], PetscReal *const Xcur[], const PetscBool refit[], PetscInt *npairs, FcContactPair **pairs)
{
  PetscReal *box;
  PetscInt   nf, *found, nw, *want;
  PetscBool *done;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(6 * model->nbodies, &box));
  if (raw) { /* the bodies' boxes given (several ranks: each rank's nodes' boxes combined) */
    PetscCall(PetscArraycpy(box, raw, 6 * model->nbodies));
    Inflate_Private(model, cat, Xcur, box);
  } else Boxes_Private(model, cat, Xcur, box);
  PetscCall(FcBroadPhaseSweep(model->nbodies, box, &nf, &found));
  PetscCall(PetscFree(box));
  PetscCall(Wanted_Private(model, cat, nf, found, &nw, &want));
  PetscCall(PetscFree(found));
  PetscCall(Merge_Private(model, cat, nw, want, npairs, pairs));
  PetscCall(PetscFree(want));
  /* a target surface's tree is shared by the passes with that target: refit once, at the current
   * places, before the candidates that use it search it (only the targets in refit[] when given) */
  PetscCall(PetscCalloc1(cat->nsets + 1, &done));
  for (PetscInt p = 0; p < *npairs; p++) {
    const FcContactPair *P = &(*pairs)[p];
    if (!P->tree || done[P->target_owner] || (refit && !refit[P->B])) continue;
    PetscCall(FcAABBTreeRefit(P->tree, Xcur[P->B], 0.0));
    done[P->target_owner] = PETSC_TRUE;
  }
  PetscCall(PetscFree(done));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsBodyBoxes(const FcModel *model, PetscReal *const Xcur[], PetscReal raw[])
{
  PetscFunctionBegin;
  RawBoxes_Private(model, Xcur, raw);
  PetscFunctionReturn(0);
}

/* The bodies' places at t = 0: mesh nodes, a rigid mesh shape at its place, NULL for an analytic
 * shape (unbounded box). Freed with ReferenceFree_Private. */
static PetscErrorCode Reference_Private(const FcModel *model, PetscReal ***X0)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(model->nbodies, X0));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody body = model->bodies[b];
    if (body->mesh.gnode) { /* a rank's part of a distributed mesh (its boxes are rank 0's: FcContactPairsCreate) */
      PetscCall(PetscMalloc1(3 * body->mesh.nnodes + 1, &(*X0)[b]));
      PetscCall(PetscArraycpy((*X0)[b], body->mesh.X, 3 * body->mesh.nnodes));
      continue;
    }
    if (!body->mesh.nnodes) continue;
    if (body->placed) {
      PetscCall(PetscMalloc1(3 * body->mesh.nnodes, &(*X0)[b]));
      PetscCall(body->ops.nodes(body, (*X0)[b]));
    } else (*X0)[b] = body->mesh.X;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReferenceFree_Private(const FcModel *model, PetscReal ***X0)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; *X0 && b < model->nbodies; b++)
    if (model->bodies[b]->placed || model->bodies[b]->mesh.gnode) PetscCall(PetscFree((*X0)[b]));
  PetscCall(PetscFree(*X0));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsCreate(const FcModel *model, FcPairCatalog *pcat, PetscInt *npairs, FcContactPair **pairs)
{
  const PetscInt nb = model->nbodies;
  FcPairCatalog  cat;
  PetscReal    **X0 = NULL;
  PetscErrorCode rc;

  PetscFunctionBegin;
  *npairs = 0;
  *pairs  = NULL;
  PetscCall(PetscCalloc1(1, pcat));
  cat           = *pcat;
  cat->nentries = model->c->nentries;
  PetscCall(PetscMalloc1(nb + 1, &cat->head));
  PetscCall(PetscMalloc4(nb + 1, &cat->edge, nb + 1, &cat->inflate, 6 * nb + 1, &cat->box0, nb + 1, &cat->target));
  for (PetscInt b = 0; b < nb; b++) {
    cat->head[b]    = -1;
    cat->edge[b]    = -1;
    cat->inflate[b] = 0;
    cat->target[b]  = PETSC_FALSE;
  }
  for (PetscInt b = 0; b < nb; b++) cat->parted = (PetscBool)(cat->parted || model->bodies[b]->mesh.parted);
  if (cat->parted) { /* the bodies' mean boundary edges are rank 0's, which holds the whole meshes */
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    for (PetscInt b = 0; b < nb && !rank; b++) cat->edge[b] = MeanEdge_Private(&model->bodies[b]->mesh);
    PetscCallMPI(MPI_Bcast(cat->edge, (PetscMPIInt)nb, MPIU_REAL, 0, PETSC_COMM_WORLD));
    cat->lean = (PetscBool)(rank != 0);
  }
  PetscCall(CatalogEntries_Private(model, cat));
  PetscCall(CatalogPasses_Private(model, cat));
  /* the passes whose bodies' boxes meet in the reference configuration: the twins of two bodies
   * whose boxes do not meet are none, and such bodies cannot overlap at t = 0 (distributed meshes:
   * rank 0's boxes, broadcast) */
  PetscCall(Reference_Private(model, &X0));
  if (cat->parted) {
    PetscReal *raw;
    PetscCall(PetscMalloc1(6 * nb + 1, &raw));
    RawBoxes_Private(model, X0, raw);
    PetscCallMPI(MPI_Bcast(raw, (PetscMPIInt)(6 * nb), MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCall(PetscArraycpy(cat->box0, raw, 6 * nb));
    Inflate_Private(model, cat, X0, cat->box0);
    rc = FcContactPairsUpdateBoxes(model, cat, raw, X0, NULL, npairs, pairs);
    PetscCall(PetscFree(raw));
  } else {
    Boxes_Private(model, cat, X0, cat->box0);
    rc = FcContactPairsUpdate(model, cat, X0, npairs, pairs);
  }
  if (!rc) rc = FcContactPairsCheckOverlap(model, *npairs, *pairs);
  PetscCall(ReferenceFree_Private(model, &X0));
  PetscCall(rc);
  PetscFunctionReturn(0);
}
#undef FC_MEAN_EDGE

/* The DoFs a contact can touch: contactor points, target surface nodes, every DoF of a target
 * whose points move with a point Jacobian (a rigid body: every DoF moves the shape). The sets are
 * those of every pass (CatalogPasses_Private made them all). */
PetscErrorCode FcContactPairsMark(const FcModel *model, FcPairCatalog cat, PetscBool **mark)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    mark[b] = NULL;
    if (model->bodies[b]->ndof) PetscCall(PetscCalloc1(model->bodies[b]->ndof, &mark[b]));
  }
  for (PetscInt s = 0; s < cat->nsets; s++) {
    const Set_Private *S = &cat->set[s];
    FcBody             B = model->bodies[S->body];
    if (!mark[S->body] || (S->target && B->ops.pointjacobian) || (S->target && !S->idx)) continue; /* a part's: rank 0's broadcast below */
    for (PetscInt i = 0; i < (S->target ? 3 * S->n : S->n); i++)
      for (int k = 0; k < 3; k++) mark[S->body][3 * S->idx[i] + k] = PETSC_TRUE;
  }
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (mark[b] && cat->target[b] && model->bodies[b]->ops.pointjacobian)
      for (PetscInt i = 0; i < model->bodies[b]->ndof; i++) mark[b][i] = PETSC_TRUE;
  for (PetscInt b = 0; b < model->nbodies && cat->parted; b++) /* distributed meshes: rank 0's, which holds the whole sets */
    if (mark[b]) PetscCallMPI(MPI_Bcast(mark[b], (PetscMPIInt)model->bodies[b]->ndof, MPIU_BOOL, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsCheckOverlap(const FcModel *model, PetscInt npairs, const FcContactPair *pairs)
{
  const FcCase *c      = model->c;
  PetscReal     gworst = 0; /* the deepest penetration beyond its pair's tolerance, of all pairs */
  PetscInt      gp = -1, gat = -1;
  PetscBool     parted = PETSC_FALSE;
  PetscMPIInt   rank   = 0;
  double        w[6]   = {-1, 0, 0, 0, 0, 0}; /* rank 0's verdict on distributed meshes: pass, depth, node tag, place */

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) parted = (PetscBool)(parted || model->bodies[b]->mesh.parted);
  if (parted) PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  for (PetscInt p = 0; p < npairs && !rank; p++) {
    const FcContactPair *P = &pairs[p];
    FcBody               A = model->bodies[P->A], B = model->bodies[P->B];
    PetscReal            worst = 0, *XB = NULL;
    PetscInt             at = -1;

    if (P->tree) {
      FcProximityOptions opt;
      FcProximity       *out  = NULL;
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
  if (gp >= 0 && !rank) {
    const FcMesh *mA = &model->bodies[pairs[gp].A]->mesh;
    w[0]             = (double)gp;
    w[1]             = (double)gworst;
    w[2]             = (double)mA->node_id[gat];
    for (int k = 0; k < 3; k++) w[3 + k] = (double)mA->X[3 * gat + k];
  }
  if (parted) PetscCallMPI(MPI_Bcast(w, 6, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  if (w[0] >= 0) {
    const FcContactPair *P = &pairs[(PetscInt)w[0]];
    FcBody               A = model->bodies[P->A], B = model->bodies[P->B];
    char                 path[64];
    snprintf(path, sizeof path, "contacts[%d]", (int)FcCaseContactEntryOf(c, P->casepair));
    return FcInputError(c->file, path,
      "bodies \"%s\" and \"%s\" overlap at t = 0: largest penetration %g m (node %d of \"%s\" at (%g, %g, %g)); the initial configuration must not overlap",
      A->name, B->name, -w[1], (int)w[2], A->name, w[3], w[4], w[5]);
  }
  PetscFunctionReturn(0);
}

/* Set S (of body B, partitioned: n2d, rs, re) on this rank: what it owns of it (a target surface's
 * corner nodes and the faces whose corner 0 it owns; a point set's points), and on a rank other
 * than 0 the whole lists freed (FcContactPairsShed). */
static PetscErrorCode SetShed_Private(Set_Private *S, FcBody B, const PetscInt *n2d, PetscInt rs, PetscInt re, PetscMPIInt rank)
{
  const PetscInt m = S->target ? 3 * S->n : S->n;
  PetscInt       n = 0;
  PetscBool     *mine;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(FcBodyNDof(B) / 3 + 1, &mine));
  for (PetscInt j = 0; j < m; j++) mine[S->idx[j]] = (PetscBool)(n2d[3 * S->idx[j]] >= rs && n2d[3 * S->idx[j]] < re);
  for (PetscInt j = 0; j < m; j++) n += mine[S->idx[j]];
  S->shed = PETSC_TRUE;
  if (!S->target) { /* points: a rank other than 0 keeps its own (RanksPoints reads no other) */
    PetscInt k = 0;
    for (PetscInt j = 0; j < S->n && rank; j++)
      if (mine[S->idx[j]]) S->idx[k++] = S->idx[j];
    if (rank) S->n = k;
    PetscCall(PetscFree(mine));
    PetscFunctionReturn(0);
  }
  S->nof = 0;
  for (PetscInt t = 0; t < S->n; t++) S->nof += mine[S->idx[3 * t]];
  PetscCall(PetscMalloc2(n + 1, &S->own, 4 * S->nof + 1, &S->of));
  S->nown = 0;
  for (PetscInt j = 0; j < m; j++)
    if (mine[S->idx[j]]) S->own[S->nown++] = S->idx[j];
  PetscCall(PetscSortRemoveDupsInt(&S->nown, S->own));
  for (PetscInt t = 0, k = 0; t < S->n; t++) {
    if (!mine[S->idx[3 * t]]) continue;
    S->of[4 * k] = t;
    for (int c = 0; c < 3; c++) S->of[4 * k + 1 + c] = S->idx[3 * t + c];
    k++;
  }
  PetscCall(PetscFree(mine));
  if (!rank) PetscFunctionReturn(0); /* rank 0 keeps the whole surface: it builds the list, runs the mortar weights and the twins */
  PetscCall(PetscFree(S->idx));
  PetscCall(FcAABBTreeDestroy(&S->tree));
  S->tree = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsShed(const FcModel *model, FcPairCatalog cat, PetscMPIInt rank, PetscInt npairs, FcContactPair *pairs)
{
  PetscFunctionBegin;
  for (PetscInt s = 0; s < cat->nsets; s++) {
    Set_Private    *S = &cat->set[s];
    FcBody          B = model->bodies[S->body];
    const PetscInt *n2d, *d2n;
    PetscInt        rs, re;
    if ((S->target && !S->tree) || S->shed) continue;
    PetscCall(FcBodyDofMaps(B, &n2d, &d2n, &rs, &re));
    if (n2d) PetscCall(SetShed_Private(S, B, n2d, rs, re, rank)); /* else a body every rank holds whole (rigid) */
  }
  cat->lean = (PetscBool)(rank != 0);
  for (PetscInt p = 0; p < npairs; p++) { /* the passes made so far point at the sets */
    FcContactPair *P = &pairs[p];
    if (P->ntri && cat->set[P->target_owner].shed && rank) {
      P->tri  = NULL;
      P->tree = NULL;
    }
    if (P->reverse && !P->tree) PetscCall(PetscFree(P->twin));
    if (P->mortar && rank) PetscCall(FcMortarSlaveDestroy(&P->slave));
  }
  for (PetscInt p = 0; p < npairs && rank; p++) { /* their points: the set's own (Set_Private has no index of its pass) */
    FcContactPair *P = &pairs[p];
    for (PetscInt s = 0; s < cat->nsets; s++)
      if (!cat->set[s].target && cat->set[s].idx == P->points) P->npoints = cat->set[s].n;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsOwnSurface(FcPairCatalog cat, PetscInt s, PetscInt *nnodes, const PetscInt **nodes, PetscInt *nfaces, const PetscInt **faces)
{
  PetscFunctionBegin;
  PetscCheck(s >= 0 && s < cat->nsets && cat->set[s].shed, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "set %" PetscInt_FMT " is not a shed target surface", s);
  *nnodes = cat->set[s].nown;
  *nodes  = cat->set[s].own;
  *nfaces = cat->set[s].nof;
  *faces  = cat->set[s].of;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactPairsSurfaceFaces(FcPairCatalog cat, PetscInt64 *held, PetscInt64 *whole)
{
  PetscFunctionBegin;
  *held  = 0;
  *whole = 0;
  for (PetscInt s = 0; s < cat->nsets; s++) {
    const Set_Private *S = &cat->set[s];
    if (!S->target) continue;
    *whole += S->n;
    *held += S->idx ? S->n : S->nof;
  }
  PetscFunctionReturn(0);
}
