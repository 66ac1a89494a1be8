/* fcsim — model: bodies from the case, probes resolved against meshes. */
#include "body_impl.h"
#include <stdlib.h>
#include <string.h>

static PetscBool registered = PETSC_FALSE;

static PetscErrorCode FcModelRegisterEvents_Private(void)
{
  PetscClassId id;

  PetscFunctionBegin;
  if (registered) PetscFunctionReturn(0);
  registered = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("fcsim", &id));
  PetscCall(PetscLogEventRegister("FcAssembly", id, &FC_EVENT_Assembly));
  PetscCall(PetscLogEventRegister("FcFactor", id, &FC_EVENT_Factor));
  PetscCall(PetscLogEventRegister("FcSolve", id, &FC_EVENT_Solve));
  PetscCall(PetscLogEventRegister("FcOutput", id, &FC_EVENT_Output));
  PetscCall(PetscLogStageRegister("FcSetup", &FC_STAGE_Setup));
  PetscCall(PetscLogStageRegister("FcSteps", &FC_STAGE_Steps));
  PetscFunctionReturn(0);
}

static PetscInt BodyIndex_Private(const FcModel *m, const char *name)
{
  for (PetscInt i = 0; i < m->nbodies; i++)
    if (!strcmp(m->bodies[i]->name, name)) return i;
  return -1;
}

static PetscErrorCode AddColumn_Private(FcModel *m, const char *name, const char *suffix)
{
  char buf[2 * FC_NAME_LEN];

  PetscFunctionBegin;
  snprintf(buf, sizeof buf, "%s%s", name, suffix);
  PetscCall(PetscStrallocpy(buf, &m->probe_cols[m->nprobe_cols++]));
  PetscFunctionReturn(0);
}

/* Weights w_a = ∫_S N_a dA / A of the group's boundary faces, so that Σ w_a u_a = ∫_S u dA / A
 * exactly for the element's interpolation (for 6-node faces the corner weights are zero). */
static PetscErrorCode SurfaceWeights_Private(const FcCase *c, const char *path, FcBody b, const FcMeshGroup *g, FcNodeSet *set)
{
  const PetscReal ex[3] = {1, 0, 0};
  Vec             f;
  FcVecAll        fa;
  PetscReal       area;

  PetscFunctionBegin;
  FcCheckInput(FcMeshGroupNFacesAll(g) > 0, c->file, path, "surface group '%s' has no faces on the boundary of the mesh", g->name);
  PetscCall(FcMeshGroupArea(&b->mesh, g, &area));
  PetscCall(VecDuplicate(b->u, &f));
  PetscCall(VecSet(f, 0.0));
  PetscCall(FcAssembleTraction(&b->mesh, g->nfaces, g->faces, ex, f));
  PetscCall(PetscMalloc1(FcMeshGroupNNodesAll(g) + 1, &set->weight));
  if (b->mesh.parted) { /* a distributed mesh: rank 0 holds the group's nodes, the others receive the weights */
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PetscCall(FcVecRootBegin(f, &fa));
    for (PetscInt i = 0; !rank && i < g->nnodes; i++) set->weight[i] = fa.a[3 * g->nodes[i]] / area;
    PetscCall(FcVecAllEnd(&fa));
    PetscCallMPI(MPI_Bcast(set->weight, (PetscMPIInt)FcMeshGroupNNodesAll(g), MPIU_REAL, 0, PETSC_COMM_WORLD));
  } else {
    PetscCall(FcVecAllBegin(f, &fa)); /* the group's nodes may be any rank's */
    for (PetscInt i = 0; i < g->nnodes; i++) set->weight[i] = fa.a[3 * g->nodes[i]] / area;
    PetscCall(FcVecAllEnd(&fa));
  }
  PetscCall(VecDestroy(&f));
  PetscFunctionReturn(0);
}

static PetscBool ProbeIsVector_Private(const FcCaseProbe *pr)
{
  return (PetscBool)(pr->type == FC_PROBE_DISPLACEMENT || pr->type == FC_PROBE_REACTION || pr->type == FC_PROBE_CONTACT_FORCE);
}

/* values[k..] = scale · (the vector s, or its one component) */
static void ProbeVector_Private(const FcCaseProbe *pr, const PetscReal s[3], PetscReal *values, PetscInt *k)
{
  if (pr->component >= 0) values[(*k)++] = pr->scale * s[pr->component];
  else
    for (int j = 0; j < 3; j++) values[(*k)++] = pr->scale * s[j];
}

/* ---- Nearest node of a probe point: a k-d tree over a body's nodes. ----
 * The linear scan (FcMeshNearestNode) costs O(nodes) per probe: a million probes on a fine mesh
 * would be quadratic. The tree is built once per body (O(N log² N): median split by sorting each
 * range on its longest axis) and answers in O(log N) on average. It returns exactly the node the
 * scan returns: the squared distance is computed by the same formula, ties go to the lowest
 * index, and a subtree is skipped only when its splitting plane is strictly farther than the best
 * distance (rounding is monotone, so no node behind the plane can be nearer). */
typedef struct {
  const PetscReal *X;
  PetscInt        *idx;  /* node indices; the tree is implicit: the median of [lo, hi) is its root */
  char            *axis; /* the split axis of the range whose median is at that position */
  PetscInt         n;
} NodeTree_Private;

static const PetscReal *tree_sort_X;
static int              tree_sort_axis;

static int NodeCmp_Private(const void *a, const void *b)
{
  const PetscInt  i = *(const PetscInt *)a, j = *(const PetscInt *)b;
  const PetscReal x = tree_sort_X[3 * i + tree_sort_axis], y = tree_sort_X[3 * j + tree_sort_axis];
  return x < y ? -1 : x > y ? 1 : (i > j) - (i < j);
}

static void NodeTreeBuild_Private(NodeTree_Private *t, PetscInt lo, PetscInt hi)
{
  PetscReal bmin[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, bmax[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL};
  int       ax = 0;
  PetscInt  mid;

  if (hi - lo <= 1) {
    if (hi > lo) t->axis[lo] = 0;
    return;
  }
  for (PetscInt k = lo; k < hi; k++)
    for (int d = 0; d < 3; d++) {
      bmin[d] = PetscMin(bmin[d], t->X[3 * t->idx[k] + d]);
      bmax[d] = PetscMax(bmax[d], t->X[3 * t->idx[k] + d]);
    }
  for (int d = 1; d < 3; d++)
    if (bmax[d] - bmin[d] > bmax[ax] - bmin[ax]) ax = d;
  tree_sort_X    = t->X;
  tree_sort_axis = ax;
  qsort(t->idx + lo, (size_t)(hi - lo), sizeof *t->idx, NodeCmp_Private);
  mid          = lo + (hi - lo) / 2;
  t->axis[mid] = (char)ax;
  NodeTreeBuild_Private(t, lo, mid);
  NodeTreeBuild_Private(t, mid + 1, hi);
}

static void NodeTreeNearest_Private(const NodeTree_Private *t, PetscInt lo, PetscInt hi, const PetscReal p[3], PetscReal *dbest, PetscInt *best)
{
  PetscInt         mid, n;
  const PetscReal *x;
  PetscReal        d, diff;

  if (hi <= lo) return;
  mid = lo + (hi - lo) / 2;
  n   = t->idx[mid];
  x   = t->X + 3 * n;
  d   = (x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) + (x[2] - p[2]) * (x[2] - p[2]);
  if (d < *dbest || (d == *dbest && n < *best)) {
    *dbest = d;
    *best  = n;
  }
  if (hi - lo == 1) return;
  diff = p[(int)t->axis[mid]] - x[(int)t->axis[mid]];
  if (diff < 0) {
    NodeTreeNearest_Private(t, lo, mid, p, dbest, best);
    if (diff * diff <= *dbest) NodeTreeNearest_Private(t, mid + 1, hi, p, dbest, best);
  } else {
    NodeTreeNearest_Private(t, mid + 1, hi, p, dbest, best);
    if (diff * diff <= *dbest) NodeTreeNearest_Private(t, lo, mid, p, dbest, best);
  }
}

/* A displacement probe's point must lie near its body: within the body's size (the diagonal D of
 * its reference bounding box) of that box. Farther, "the nearest node" is whichever node faces the
 * point, not a place the user chose on the body: a typo, a unit slip (mm for m) or a point like
 * [1e300, 0, 0] (whose squared distance overflows and used to leave the probe on no node, reading
 * zeros). A point that is not finite is refused by the case loader. */
static PetscErrorCode ProbeNear_Private(const FcCase *c, PetscInt p, FcBody b, const PetscReal bmin[3], const PetscReal bmax[3])
{
  const PetscReal *x = c->probes[p].point;
  PetscReal        gap[3], dist = 0, diag2 = 0, gmax = 0;
  char             path[64];

  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    gap[d] = PetscMax(PetscMax(bmin[d] - x[d], x[d] - bmax[d]), 0.0);
    gmax   = PetscMax(gmax, gap[d]);
    diag2 += (bmax[d] - bmin[d]) * (bmax[d] - bmin[d]);
  }
  /* |gap| = gmax |gap / gmax|: no square overflows */
  if (gmax > 0)
    for (int d = 0; d < 3; d++) dist += (gap[d] / gmax) * (gap[d] / gmax);
  dist = gmax * PetscSqrtReal(dist);
  snprintf(path, sizeof path, "probes[%d].point", (int)p);
  FcCheckInput(dist <= PetscSqrtReal(diag2), c->file, path,
    "[%g, %g, %g] is %.3g m from the bounding box of body \"%s\" ([%g, %g, %g] to [%g, %g, %g]), farther than the box's diagonal %.3g m: the point follows no place of the body (a unit or sign slip?)",
    (double)x[0], (double)x[1], (double)x[2], (double)dist, b->name, (double)bmin[0], (double)bmin[1], (double)bmin[2], (double)bmax[0], (double)bmax[1],
    (double)bmax[2], (double)PetscSqrtReal(diag2));
  PetscFunctionReturn(0);
}

/* The nearest node of every point probe of body bi (one tree for all of them). */
static PetscErrorCode ProbeNodes_Private(const FcCase *c, FcModel *m, PetscInt bi)
{
  const FcMesh    *mesh    = &m->bodies[bi]->mesh;
  NodeTree_Private t       = {mesh->X, NULL, NULL, mesh->nnodes};
  PetscReal        bmin[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, bmax[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL};
  PetscBool        any = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < c->nprobes; p++)
    any = (PetscBool)(any || (m->probe_body[p] == bi && c->probes[p].type == FC_PROBE_DISPLACEMENT && !c->probes[p].group[0]));
  if (!any || !t.n) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < t.n; k++)
    for (int d = 0; d < 3; d++) {
      bmin[d] = PetscMin(bmin[d], t.X[3 * k + d]);
      bmax[d] = PetscMax(bmax[d], t.X[3 * k + d]);
    }
  for (PetscInt p = 0; p < c->nprobes; p++)
    if (m->probe_body[p] == bi && c->probes[p].type == FC_PROBE_DISPLACEMENT && !c->probes[p].group[0])
      PetscCall(ProbeNear_Private(c, p, m->bodies[bi], bmin, bmax));
  PetscCall(PetscMalloc2(t.n, &t.idx, t.n, &t.axis));
  for (PetscInt k = 0; k < t.n; k++) t.idx[k] = k;
  NodeTreeBuild_Private(&t, 0, t.n);
  for (PetscInt p = 0; p < c->nprobes; p++) {
    PetscReal dbest = PETSC_MAX_REAL;
    PetscInt  best  = -1;
    if (m->probe_body[p] != bi || c->probes[p].type != FC_PROBE_DISPLACEMENT || c->probes[p].group[0]) continue;
    NodeTreeNearest_Private(&t, 0, t.n, c->probes[p].point, &dbest, &best);
    m->probe_node[p] = best;
  }
  PetscCall(PetscFree2(t.idx, t.axis));
  PetscFunctionReturn(0);
}

/* ProbeNodes_Private; of a distributed mesh (doc/mpi.md "The distributed set-up") on rank 0 alone,
 * which holds the whole mesh, its nodes and its input errors broadcast (every rank then returns
 * the same code; rank 0 printed it). */
static PetscErrorCode ProbeNodesOf_Private(const FcCase *c, FcModel *m, PetscInt bi)
{
  PetscMPIInt    rank;
  PetscErrorCode rc = 0;
  int            code;

  PetscFunctionBegin;
  if (!m->bodies[bi]->mesh.parted) {
    PetscCall(ProbeNodes_Private(c, m, bi));
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) rc = ProbeNodes_Private(c, m, bi);
  code = (int)rc;
  PetscCallMPI(MPI_Bcast(&code, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  if (code) return rank ? (PetscErrorCode)code : rc;
  PetscCallMPI(MPI_Bcast(m->probe_node, (PetscMPIInt)c->nprobes, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

/* The DoFs each displacement or reaction probe of a deformable body reads at every step (its node's
 * three, or its group's nodes' in the group's order), so that on several ranks only those travel
 * (FcVecPick) — before, every rank gathered the whole u or reaction for each probe at every step.
 * Collective (every rank has the same probes). */
/* A distributed mesh: rank 0, which holds the whole mesh and the probe's nodes, gives every rank
 * their mesh DoFs and distributed indices (its whole map), and the pick is made from them. */
static PetscErrorCode PickParted_Private(FcModel *m, PetscInt p, PetscInt n)
{
  const FcMesh *mesh = &m->bodies[m->probe_body[p]]->mesh;
  PetscMPIInt   rank;
  PetscInt     *dof, *didx;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscMalloc2(3 * n + 1, &dof, 3 * n + 1, &didx));
  for (PetscInt i = 0; !rank && i < n; i++) {
    const PetscInt node = n == 1 && m->probe_node[p] >= 0 ? m->probe_node[p] : m->probe_group[p].nodes[i];
    for (int j = 0; j < 3; j++) {
      dof[3 * i + j]  = 3 * node + j;
      didx[3 * i + j] = 3 * mesh->part_perm[node] + j;
    }
  }
  PetscCallMPI(MPI_Bcast(dof, (PetscMPIInt)(3 * n), MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(didx, (PetscMPIInt)(3 * n), MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCall(FcVecPickCreateAt(m->bodies[m->probe_body[p]]->u, 3 * n, dof, didx, &m->probe_pick[p]));
  PetscCall(PetscFree2(dof, didx));
  PetscFunctionReturn(0);
}

static PetscErrorCode ProbePicks_Private(FcModel *m)
{
  const FcCase *c      = m->c;
  PetscInt      picked = 0, whole = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_pick));
  for (PetscInt p = 0; p < c->nprobes; p++) {
    const FcCaseProbe *pr = &c->probes[p];
    const PetscInt     bi = m->probe_body[p];
    PetscInt           n, *dof;
    if ((pr->type != FC_PROBE_DISPLACEMENT && pr->type != FC_PROBE_REACTION) || bi < 0 || !m->bodies[bi]->meshfields) continue;
    if (pr->type == FC_PROBE_DISPLACEMENT && m->probe_node[p] < 0 && !pr->group[0]) continue; /* a rigidly placed body's: no node */
    n = pr->type == FC_PROBE_DISPLACEMENT && m->probe_node[p] >= 0 ? 1 : m->probe_group[p].nnodes;
    if (m->bodies[bi]->mesh.parted) {
      PetscCall(PickParted_Private(m, p, n));
    } else {
      PetscCall(PetscMalloc1(3 * n, &dof));
      for (PetscInt i = 0; i < n; i++)
        for (int j = 0; j < 3; j++) dof[3 * i + j] = 3 * (n == 1 && m->probe_node[p] >= 0 ? m->probe_node[p] : m->probe_group[p].nodes[i]) + j;
      PetscCall(FcVecPickCreate(m->bodies[bi]->u, 3 * n, dof, &m->probe_pick[p]));
      PetscCall(PetscFree(dof));
    }
    picked += 3 * n;
    whole += FcBodyNDof(m->bodies[bi]);
  }
  PetscCall(PetscInfo(
    NULL, "probes read %" PetscInt_FMT " reals of u and the reactions per evaluation (a vector gathered whole per probe: %" PetscInt_FMT ")\n", picked, whole));
  PetscFunctionReturn(0);
}

/* Several ranks (issue 29, doc/mpi.md "Meshes on several ranks"): once the bodies and probes are
 * set up, a rank other than 0 keeps of each deformable body only the part of its mesh its steps
 * read (FcBodyTrimMesh), in a case without contact. With contact a rank keeps its part as received
 * (FcMeshSendParts: the elements with a node it owns): its contact catalogue and the contact step's
 * DoF maps are made from the part's boundary faces and groups (src/model/contact_pairs.c
 * SetFromPart_Private), which the trim would drop. The probes read their DoFs through
 * their picks (made above); their node lists pointed into the mesh's groups, which go. */
static PetscErrorCode TrimMeshes_Private(FcModel *m)
{
  const FcCase *c = m->c;

  PetscFunctionBegin;
  if (c->ncontacts) PetscFunctionReturn(0);
  for (PetscInt bi = 0; bi < m->nbodies; bi++) {
    PetscCall(FcBodyTrimMesh(m->bodies[bi]));
    for (PetscInt p = 0; m->bodies[bi]->mesh.gnode && p < c->nprobes; p++)
      if (m->probe_body[p] == bi) m->probe_group[p].nodes = NULL;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcModelCreate(const FcCase *c, FcModel *m)
{
  PetscInt ncols = 0;
  char     path[128];

  PetscFunctionBegin;
  PetscCall(FcModelRegisterEvents_Private());
  PetscCall(PetscMemzero(m, sizeof *m));
  m->c = c;
  PetscCall(PetscCalloc1(c->nbodies, &m->bodies));
  m->nbodies = c->nbodies; /* entries stay NULL until created, so a failed create can be destroyed */
  for (PetscInt i = 0; i < c->nbodies; i++) PetscCall(FcBodyCreate(c, i, &m->bodies[i]));
  PetscCall(FcMeshReleaseKept()); /* the Gmsh model kept for bodies that are volumes of one file */
  for (PetscInt p = 0; p < c->nprobes; p++) ncols += (ProbeIsVector_Private(&c->probes[p]) && c->probes[p].component < 0) ? 3 : 1;
  PetscCall(PetscCalloc1(ncols + 1, &m->probe_cols));
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_node));
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_body));
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_group));
  for (PetscInt p = 0; p < c->nprobes; p++) {
    const FcCaseProbe *pr = &c->probes[p];
    PetscInt           bi = pr->body[0] ? BodyIndex_Private(m, pr->body) : -1;

    m->probe_body[p] = bi;
    m->probe_node[p] = -1;
    if (pr->group[0]) {
      const FcMeshGroup *g;
      PetscCall(FcMeshFindGroup(&m->bodies[bi]->mesh, pr->group, pr->type == FC_PROBE_DISPLACEMENT ? 2 : -1, &g));
      snprintf(path, sizeof path, "probes[%d].group", (int)p);
      if (!g) {
        char list[1024];
        FcMeshGroupList(&m->bodies[bi]->mesh, list, sizeof list);
        return FcInputError(c->file, path, "no physical %sgroup '%s' in %s (available: %s)", pr->type == FC_PROBE_DISPLACEMENT ? "surface " : "", pr->group,
          m->bodies[bi]->mesh.file, list);
      }
      m->probe_group[p].nnodes = FcMeshGroupNNodesAll(g); /* a distributed mesh: the whole group's, rank 0's list */
      m->probe_group[p].nodes  = m->bodies[bi]->mesh.gnode ? NULL : g->nodes;
      if (pr->type == FC_PROBE_DISPLACEMENT) PetscCall(SurfaceWeights_Private(c, path, m->bodies[bi], g, &m->probe_group[p]));
    }
    if (ProbeIsVector_Private(pr) && pr->component < 0) {
      PetscCall(AddColumn_Private(m, pr->name, "_x"));
      PetscCall(AddColumn_Private(m, pr->name, "_y"));
      PetscCall(AddColumn_Private(m, pr->name, "_z"));
    } else PetscCall(AddColumn_Private(m, pr->name, ""));
  }
  for (PetscInt bi = 0; bi < m->nbodies; bi++)
    if (m->bodies[bi]->meshfields) PetscCall(ProbeNodesOf_Private(c, m, bi));
  PetscCall(ProbePicks_Private(m));
  PetscCall(TrimMeshes_Private(m));
  PetscFunctionReturn(0);
}

PetscErrorCode FcModelDestroy(FcModel *m)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < m->nbodies; i++) PetscCall(FcBodyDestroy(&m->bodies[i]));
  PetscCall(PetscFree(m->bodies));
  for (PetscInt i = 0; i < m->nprobe_cols; i++) PetscCall(PetscFree(m->probe_cols[i]));
  PetscCall(PetscFree(m->probe_cols));
  PetscCall(PetscFree(m->probe_node));
  PetscCall(PetscFree(m->probe_body));
  if (m->probe_group)
    for (PetscInt p = 0; p < m->c->nprobes; p++) PetscCall(PetscFree(m->probe_group[p].weight));
  PetscCall(PetscFree(m->probe_group));
  if (m->probe_pick)
    for (PetscInt p = 0; p < m->c->nprobes; p++) PetscCall(FcVecPickDestroy(&m->probe_pick[p]));
  PetscCall(PetscFree(m->probe_pick));
  PetscCall(PetscMemzero(m, sizeof *m));
  PetscFunctionReturn(0);
}

PetscErrorCode FcModelProbes(FcModel *m, const FcContactView *cv, PetscReal *values)
{
  const FcCase *c = m->c;
  PetscInt      k = 0;

  PetscFunctionBegin;
  for (PetscInt p = 0; p < c->nprobes; p++) {
    const FcCaseProbe *pr = &c->probes[p];
    PetscInt           bi = m->probe_body[p];
    FcVecPick         *pk = &m->probe_pick[p];
    PetscCheck(pk->val || (pr->type != FC_PROBE_REACTION && (pr->type != FC_PROBE_DISPLACEMENT || m->bodies[bi]->placed)), PETSC_COMM_SELF, PETSC_ERR_PLIB,
      "probe %s: its degrees of freedom were not picked (ProbePicks_Private)", pr->name);
    switch (pr->type) {
    case FC_PROBE_DISPLACEMENT: {
      const FcNodeSet *set  = &m->probe_group[p];
      PetscReal        s[3] = {0, 0, 0};
      if (m->bodies[bi]->placed) { /* a body that moves rigidly: its translation at the end of the last step */
        for (int j = 0; j < 3; j++) s[j] = m->bodies[bi]->rigid_d1[j];
        ProbeVector_Private(pr, s, values, &k);
        break;
      }
      /* on several ranks every rank receives the probe's DoFs and sums in the same order as one
       * rank: the probe row is the same on every rank (the verdict reads it) */
      PetscCall(FcVecPickRead(pk, m->bodies[bi]->u));
      if (m->probe_node[p] >= 0)
        for (int j = 0; j < 3; j++) s[j] = pk->val[j];
      else
        for (PetscInt i = 0; i < set->nnodes; i++)
          for (int j = 0; j < 3; j++) s[j] += set->weight[i] * pk->val[3 * i + j];
      ProbeVector_Private(pr, s, values, &k);
    } break;
    case FC_PROBE_REACTION: {
      PetscReal s[3] = {0, 0, 0};
      PetscCall(FcVecPickRead(pk, m->bodies[bi]->reaction));
      for (PetscInt i = 0; i < m->probe_group[p].nnodes; i++)
        for (int j = 0; j < 3; j++) s[j] += pk->val[3 * i + j];
      ProbeVector_Private(pr, s, values, &k);
    } break;
    case FC_PROBE_CONTACT_FORCE: {
      PetscReal f[3] = {0, 0, 0};
      for (PetscInt a = 0; cv && a < cv->m; a++)
        if (FcCaseContactEntryOf(m->c, cv->pair[a]) == pr->pair)
          for (int j = 0; j < 3; j++) f[j] += cv->r[3 * a] * cv->n[9 * a + j] + cv->r[3 * a + 1] * cv->t1[9 * a + j] + cv->r[3 * a + 2] * cv->t2[9 * a + j];
      ProbeVector_Private(pr, f, values, &k);
    } break;
    case FC_PROBE_ACTIVE_CONTACTS: {
      PetscInt n = 0;
      for (PetscInt a = 0; cv && a < cv->m; a++) n += FcCaseContactEntryOf(m->c, cv->pair[a]) == pr->pair && cv->status[a] != FC_CONTACT_SEPARATED;
      values[k++] = (PetscReal)n;
    } break;
    case FC_PROBE_KINETIC_ENERGY:
    case FC_PROBE_STRAIN_ENERGY: {
      PetscReal e = 0;
      for (PetscInt i = 0; i < m->nbodies; i++)
        if (bi < 0 || bi == i) e += pr->type == FC_PROBE_KINETIC_ENERGY ? m->bodies[i]->kinetic_energy : m->bodies[i]->strain_energy;
      values[k++] = pr->scale * e;
    } break;
    }
  }
  if (cv) { /* several ranks: the contact probes are rank 0's, the only rank that holds every contact's r and status (src/step/contact_mpi.c) */
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (size > 1 && k) PetscCallMPI(MPI_Bcast(values, (PetscMPIInt)k, MPIU_REAL, 0, PETSC_COMM_WORLD));
  }
  PetscFunctionReturn(0);
}
