/* fcsim — model: bodies from the case, probes resolved against meshes. */
#include "model.h"
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
  const PetscReal    ex[3] = {1, 0, 0};
  Vec                f;
  const PetscScalar *fa;
  PetscReal          area;

  PetscFunctionBegin;
  FcCheckInput(g->nfaces > 0, c->file, path, "surface group '%s' has no faces on the boundary of the mesh", g->name);
  PetscCall(FcMeshFacesArea(&b->mesh, g->nfaces, g->faces, &area));
  PetscCall(VecDuplicate(b->u, &f));
  PetscCall(VecSet(f, 0.0));
  PetscCall(FcAssembleTraction(&b->mesh, g->nfaces, g->faces, ex, f));
  PetscCall(PetscMalloc1(g->nnodes, &set->weight));
  PetscCall(VecGetArrayRead(f, &fa));
  for (PetscInt i = 0; i < g->nnodes; i++) set->weight[i] = fa[3 * g->nodes[i]] / area;
  PetscCall(VecRestoreArrayRead(f, &fa));
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
  for (PetscInt i = 0; i < c->nbodies; i++) {
    if (c->bodies[i].rigid) {
      PetscCall(FcBodyCreateRigid(c, i, &m->bodies[i]));
      PetscCall(FcBodySetRigidGeometry(m->bodies[i]));
    } else PetscCall(FcBodyCreateDeformable(c, i, &m->bodies[i]));
  }
  PetscCall(FcMeshReleaseKept()); /* the Gmsh model kept for bodies that are volumes of one file */
  for (PetscInt p = 0; p < c->nprobes; p++) ncols += (ProbeIsVector_Private(&c->probes[p]) && c->probes[p].component < 0) ? 3 : 1;
  PetscCall(PetscCalloc1(ncols + 1, &m->probe_cols));
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_node));
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_body));
  PetscCall(PetscCalloc1(c->nprobes + 1, &m->probe_group));
  for (PetscInt p = 0; p < c->nprobes; p++) {
    const FcCaseProbe *pr = &c->probes[p];
    PetscInt           bi = pr->body[0] ? BodyIndex_Private(m, pr->body) : -1;

    snprintf(path, sizeof path, "probes[%d].body", (int)p);
    FcCheckInput(!pr->body[0] || bi >= 0, c->file, path, "no body named '%s'", pr->body);
    m->probe_body[p] = bi;
    m->probe_node[p] = -1;
    if (pr->group[0]) {
      const FcMeshGroup *g;
      PetscCall(FcMeshFindGroup(&m->bodies[bi]->mesh, pr->group, pr->type == FC_PROBE_DISPLACEMENT ? 2 : -1, &g));
      snprintf(path, sizeof path, "probes[%d].group", (int)p);
      if (!g) {
        char list[1024];
        FcMeshGroupList(&m->bodies[bi]->mesh, list, sizeof list);
        return FcInputError(c->file, path, "no physical %sgroup '%s' in %s (available: %s)", pr->type == FC_PROBE_DISPLACEMENT ? "surface " : "", pr->group, m->bodies[bi]->mesh.file, list);
      }
      m->probe_group[p].nnodes = g->nnodes;
      m->probe_group[p].nodes  = g->nodes;
      if (pr->type == FC_PROBE_DISPLACEMENT) PetscCall(SurfaceWeights_Private(c, path, m->bodies[bi], g, &m->probe_group[p]));
    }
    if (pr->type == FC_PROBE_DISPLACEMENT && !pr->group[0] && !m->bodies[bi]->rigid) m->probe_node[p] = FcMeshNearestNode(&m->bodies[bi]->mesh, pr->point);
    if (ProbeIsVector_Private(pr) && pr->component < 0) {
      PetscCall(AddColumn_Private(m, pr->name, "_x"));
      PetscCall(AddColumn_Private(m, pr->name, "_y"));
      PetscCall(AddColumn_Private(m, pr->name, "_z"));
    } else PetscCall(AddColumn_Private(m, pr->name, ""));
  }
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
    switch (pr->type) {
    case FC_PROBE_DISPLACEMENT: {
      const PetscScalar *u;
      const FcNodeSet   *set = &m->probe_group[p];
      PetscReal          s[3] = {0, 0, 0};
      if (m->bodies[bi]->rigid) { /* rigid body: its translation at the end of the last step */
        for (int j = 0; j < 3; j++) s[j] = m->bodies[bi]->rigid_d1[j];
        ProbeVector_Private(pr, s, values, &k);
        break;
      }
      PetscCall(VecGetArrayRead(m->bodies[bi]->u, &u));
      if (m->probe_node[p] >= 0)
        for (int j = 0; j < 3; j++) s[j] = u[3 * m->probe_node[p] + j];
      else
        for (PetscInt i = 0; i < set->nnodes; i++)
          for (int j = 0; j < 3; j++) s[j] += set->weight[i] * u[3 * set->nodes[i] + j];
      PetscCall(VecRestoreArrayRead(m->bodies[bi]->u, &u));
      ProbeVector_Private(pr, s, values, &k);
    } break;
    case FC_PROBE_REACTION: {
      const PetscScalar *r;
      PetscReal          s[3] = {0, 0, 0};
      PetscCall(VecGetArrayRead(m->bodies[bi]->reaction, &r));
      for (PetscInt i = 0; i < m->probe_group[p].nnodes; i++)
        for (int j = 0; j < 3; j++) s[j] += r[3 * m->probe_group[p].nodes[i] + j];
      PetscCall(VecRestoreArrayRead(m->bodies[bi]->reaction, &r));
      ProbeVector_Private(pr, s, values, &k);
    } break;
    case FC_PROBE_CONTACT_FORCE: {
      PetscReal f[3] = {0, 0, 0};
      for (PetscInt a = 0; cv && a < cv->m; a++)
        if (m->c->contacts[cv->pair[a]].entry == pr->pair)
          for (int j = 0; j < 3; j++) f[j] += cv->r[3 * a] * cv->n[9 * a + j] + cv->r[3 * a + 1] * cv->t1[9 * a + j] + cv->r[3 * a + 2] * cv->t2[9 * a + j];
      ProbeVector_Private(pr, f, values, &k);
    } break;
    case FC_PROBE_ACTIVE_CONTACTS: {
      PetscInt n = 0;
      for (PetscInt a = 0; cv && a < cv->m; a++) n += m->c->contacts[cv->pair[a]].entry == pr->pair && cv->status[a] != FC_CONTACT_SEPARATED;
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
  PetscFunctionReturn(0);
}
