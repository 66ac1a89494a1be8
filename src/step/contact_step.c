/* fcsim — contact correction inside the Newton loop.
 *
 * Conventions (DESIGN.md, FCLIB local form): contact a has a frame (n, t1, t2) with n pointing
 * from the target towards the contactor; u_a = H_a Δx + q_a is the relative motion of the
 * contactor point with respect to the target point, r_a the force on the contactor in that
 * frame (the target gets −r_a), r_n ≥ 0 separates. With Δx_b = Δx_b^free + A_b⁻¹ H_bᵀ r
 * (the linearized momentum balance, duriez2006 eq. 13–15):
 *     u = W r + q,  W = Σ_b H_b A_b⁻¹ H_bᵀ   (Delassus operator, duriez2006 eq. 16–18),
 *     q_n = g/c + n·Δx_rel^free,   q_t = t·(Δx_rel^free + s_rel),
 * where c = incscale, the displacement per unit of x: c = 1 (quasi-static: u_n is the gap after
 * the increment, u_t the slip since the start of the step) or c = Δt θ_vq (dynamics, the
 * θ-method's q = q0 + Δt (θ_vq v + (1 − θ_vq) v0), han2023 eq. 4, with H evaluated at the
 * current iterate: the gap changes by Δt θ_vq n·Δv, so u_n = g/c + relative normal velocity
 * change ≥ 0 keeps the end-of-step gap ≥ 0; backward Euler c = Δt), g the gap at the current
 * iterate and s the state part of the tangential motion (u_k − u_0, or v_k: u_t is the relative
 * tangential velocity at t1, han2023 v_c = J v). A rigid body with prescribed motion enters q
 * only (through g and s, with its mean velocity (d1 − d0)/Δt). Its shape is analytic, or a rigid
 * "mesh" shape: the boundary triangles of a tetrahedral mesh, detected like a deformable target
 * (AABB tree, refit at X + d1) but entering H, q and the correction exactly as an analytic shape
 * (the closest point's mesh nodes carry no DoFs: every branch below tests B->rigid, never
 * tnodes). A rigid target with DoFs (a
 * dynamic body, src/model/body_rigid.c) enters like a deformable one through its point Jacobian J
 * (target point velocity = J ẋ_B): its row block of H is −(frame rows)·J, so W gets
 * J_c A_B⁻¹ J_cᵀ (duriez2006 eq. 29, A_B its mass), q its free increment and velocity, and the
 * correction Δx_B += A_B⁻¹ H_Bᵀ r applies −r_a to it. r is a force (quasi-static) or
 * an impulse over the step (dynamics): the force reported is r/Δt.
 *
 * W is symmetric positive semi-definite because every A_b is SPD (Dirichlet rows replaced by a
 * scaled identity, zero columns in H_bᵀ on constrained DoFs); it is computed from the same
 * factorization as the free motion (one multi-right-hand-side solve per body) and symmetrized
 * explicitly, W ← ½(W + Wᵀ), to remove the round-off of the two triangular solves. */
#include "contact_step.h"

/* Target nodes of one contact: 3 (node-to-surface: the closest triangle's corners) or, with the
 * mortar formulation, the master nodes of every triangle overlapping the slave node's support. */
#define FC_CONTACT_MAXT   32
#define FC_CONTACT_MAXDOF (3 + 3 * FC_CONTACT_MAXT) /* ≥ 3 + FC_RIGID_MAX_DOF */
#include "../collide/collide.h"
#include <string.h>

#define FC_CONTACT_BLOCK 128 /* right-hand sides per multi-RHS solve when forming W */

typedef struct {
  PetscInt     A, B;          /* contactor (deformable) and target body indices */
  PetscInt     casepair;      /* index of the case's contact pair (contacts[]) this pass belongs to */
  PetscBool    reverse;       /* second pass of a both_passes pair: A = contacts[i].body[1], B = body[0] */
  PetscInt     partner;       /* reverse pass: index of its first pass in cs->pairs (-1 otherwise) */
  PetscInt    *twin;          /* reverse pass, per node of its contactor mesh: the first-pass contactor
                               * node at the same reference position, or -1 (duplicate rule) */
  PetscInt     npoints;
  PetscInt    *points;        /* contactor node indices */
  PetscInt     ntri;
  PetscInt    *tri;           /* target with a mesh (deformable, or rigid "mesh" shape): corner node triples */
  FcAABBTree   tree;          /* over tri; NULL for an analytic rigid shape */
  PetscReal    mu, alarm;
  PetscInt     nprev;
  FcProximity *prev;          /* last detection (frame continuity, hysteresis) */
  /* mortar formulation: the contactor (slave) surface triangles and, per contactor mesh node, the
   * triangles around it (CSR over the mesh's nodes) */
  PetscBool    mortar;
  PetscInt     nsf;
  PetscInt    *sf;            /* 3 corner nodes per slave triangle */
  PetscInt    *n2f_ptr, *n2f;
} Pair;

struct _p_FcContactStep {
  FcModel        *model;
  PetscInt        npairs;
  Pair           *pairs;
  FcContactSolver solver;
  PetscBool     **isbc;       /* per body: constrained DoF mask (NULL for rigid bodies without DoFs) */
  PetscReal     **Xcur;       /* per body: current coordinates of its mesh nodes (deformable: X + u; rigid
                               * "mesh" shape: X + d, d its current translation; NULL for analytic shapes) */
  /* current contacts */
  PetscInt        m, cap;
  PetscInt       *pair, *point, *tnodes, *nt, *status; /* tnodes, tw: FC_CONTACT_MAXT per contact, nt used */
  PetscReal      *tw, *frame, *gap, *xc, *r, *u, *rforce;
  PetscInt64     *key;
  /* the view (FcContactStepGetView): case pair index, frame and force of every contact expressed
   * for the pair's first body, contacts[i].body[0] (reverse-pass contacts flipped) */
  PetscInt       *vpair;
  PetscReal      *vframe, *vr;
  PetscBool      *keep;       /* per row of W: computed (every row of a frictional contact, the normal one of a frictionless one) */
  PetscInt       *kcol, nkeep; /* the computed rows, ascending */
  FcContactProblem prob;
  PetscBool      *involved;   /* per body: touched by the current contacts */
  /* warm start: previous r by key (sorted) */
  PetscInt        nprev, prevcap;
  PetscInt64     *prevkey;
  PetscReal      *prevr;
  /* active set of the previous correction (sorted keys) */
  PetscInt        nact, actcap;
  PetscInt64     *actkey;
  PetscBool       first;
  /* compliance "precomputed" (duriez2006 §3: the compliance of the surface DoFs is computed
   * once and W is gathered from it): per body, the potential contact DoFs and their dense
   * block C = (A⁻¹) restricted to them, from the first factorization of the run. */
  PetscBool       precomputed, have_C;
  PetscBool       schur;    /* compliance "schur": W_b = J_b Â_b⁻¹ J_bᵀ from the body's Schur complement */
  PetscInt       *ns;       /* per body: number of surface DoFs */
  PetscInt      **sdof;     /* per body: surface DoFs (sorted) */
  PetscInt      **sidx;     /* per body: dof → index in sdof, or -1 */
  PetscReal     **C;        /* per body: ns × ns, row-major */
};

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

static PetscErrorCode Participating_Private(FcContactStep);

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
static PetscErrorCode TargetSurface_Private(const FcCase *c, const char *path, const FcMesh *mesh, const char *key, Pair *P)
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
static PetscErrorCode ContactorPoints_Private(const FcCase *c, const char *path, const FcMesh *mesh, const char *key, Pair *P)
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
static PetscErrorCode Twins_Private(const Pair *P1, Pair *P2, const FcMesh *meshA, const FcMesh *meshB)
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

static PetscErrorCode SlaveSurface_Private(const FcCase *, PetscInt, const FcMesh *, const char *, Pair *);

/* One warning line per option the user asked for and this run does not honour, printed once per
 * run (here, at set-up, not per step) and whatever the verbosity: a setting that silently does
 * nothing misleads a validation study. Only what was asked for: a case key that was given (not
 * its default, FcCase.given) or a PETSc option that is set; and only when the request differs
 * from what happens (warm_start false and inertia_correction false ask for what the run does
 * anyway). */
static PetscErrorCode WarnIgnored_Private(const FcCase *c, FcContactSolver solver)
{
  const char           *type, *why;
  FcContactSolverParams par;
  char                  v[64];
  PetscBool             set;

  PetscFunctionBegin;
  PetscCall(FcContactSolverGetType(solver, &type));
  PetscCall(FcContactSolverGetParams(solver, &par));
  if ((why = FcContactSolverIgnoredReason(solver, "tol"))) {
    if (c->given.contact_solver_tol) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: contact_solver.tol: ignored by %s (%s)\n", c->file, type, why));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-fc_contact_solver_tol", &set));
    if (set) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: options: -fc_contact_solver_tol: ignored by %s (%s)\n", type, why));
  }
  if (par.warm_start && (why = FcContactSolverIgnoredReason(solver, "warm_start"))) {
    if (c->given.contact_solver_warm_start && c->contact_solver_warm_start) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: contact_solver.warm_start: ignored by %s (%s)\n", c->file, type, why));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-fc_contact_solver_warm_start", &set));
    if (set) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: options: -fc_contact_solver_warm_start: ignored by %s (%s)\n", type, why));
  }
  if (c->given.inertia_correction && c->inertia_correction) {
    /* the correction needs the inertia of A, which only MUMPS' LDLᵀ of the body's own
     * factorization reports (body_deformable.c NegativeEigenvalues_Private) */
    if (c->compliance == FC_COMPLIANCE_SCHUR) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: time.newton.inertia_correction: ignored with compliance \"schur\" (its Schur-complement factorization reports no inertia, doc/architecture.md)\n", c->file));
    else {
      PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_type", v, sizeof v, &set));
      if (set && strcmp(v, "cholesky")) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: time.newton.inertia_correction: ignored with -pc_type %s (only MUMPS' Cholesky factorization, the default, counts the negative eigenvalues, doc/architecture.md)\n", c->file, v));
      else {
        PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_factor_mat_solver_type", v, sizeof v, &set));
        if (set && strcmp(v, "mumps")) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: time.newton.inertia_correction: ignored with -pc_factor_mat_solver_type %s (only MUMPS' Cholesky factorization, the default, counts the negative eigenvalues, doc/architecture.md)\n", c->file, v));
      }
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepCreate(FcModel *model, FcContactStep *out)
{
  const FcCase *c = model->c;
  FcContactStep cs;
  char          path[128];

  PetscFunctionBegin;
  PetscCall(PetscNew(&cs));
  *out      = cs;
  cs->model = model;
  cs->first = PETSC_TRUE; /* the first correction of the run has nothing to compare with */
  PetscCall(PetscCalloc1(2 * c->ncontacts + 1, &cs->pairs)); /* room for a second pass per pair */
  PetscCall(PetscCalloc1(model->nbodies, &cs->isbc));
  PetscCall(PetscCalloc1(model->nbodies, &cs->Xcur));
  PetscCall(PetscCalloc1(model->nbodies, &cs->involved));
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody body = model->bodies[b];
    if (body->rigid && body->mesh.nnodes) PetscCall(PetscMalloc1(3 * body->mesh.nnodes, &cs->Xcur[b])); /* rigid "mesh" shape */
    if (body->ndof == 0) continue;
    PetscCall(PetscCalloc1(body->ndof, &cs->isbc[b]));
    for (PetscInt i = 0; i < body->nbc; i++) cs->isbc[b][body->bc_dofs[i]] = PETSC_TRUE;
    if (!body->rigid) PetscCall(PetscMalloc1(body->ndof, &cs->Xcur[b]));
  }
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact *cc = &c->contacts[i];
    Pair                *P  = &cs->pairs[cs->npairs];
    FcBody               A = model->bodies[cc->body[0]], B = model->bodies[cc->body[1]];

    cs->npairs++;
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
    Pair                *P  = &cs->pairs[cs->npairs];
    FcBody               A = model->bodies[cc->body[0]], B = model->bodies[cc->body[1]];

    if (!cc->both_passes) continue;
    snprintf(path, sizeof path, "contacts[%d].both_passes", (int)i);
    FcCheckInput(!A->rigid && !B->rigid, c->file, path, "two-pass contact needs two deformable bodies");
    cs->npairs++;
    P->A        = cc->body[1];
    P->B        = cc->body[0];
    P->casepair = i;
    P->reverse  = PETSC_TRUE;
    P->partner  = i; /* the first loop made pair i's first pass cs->pairs[i] */
    P->mu       = cc->mu;
    snprintf(path, sizeof path, "contacts[%d].target_surface", (int)i);
    PetscCall(ContactorPoints_Private(c, path, &B->mesh, cc->target_surface, P));
    P->alarm = cc->alarm > 0 ? cc->alarm : MeanEdge_Private(&B->mesh);
    snprintf(path, sizeof path, "contacts[%d].surface", (int)i);
    PetscCall(TargetSurface_Private(c, path, &A->mesh, cc->surface, P));
    PetscCall(Twins_Private(&cs->pairs[i], P, &A->mesh, &B->mesh));
  }
  cs->precomputed = (PetscBool)(c->compliance == FC_COMPLIANCE_PRECOMPUTED);
  cs->schur       = (PetscBool)(c->compliance == FC_COMPLIANCE_SCHUR);
  if (cs->precomputed || cs->schur) {
    PetscCall(PetscCalloc4(model->nbodies, &cs->ns, model->nbodies, &cs->sdof, model->nbodies, &cs->sidx, model->nbodies, &cs->C));
    PetscCall(Participating_Private(cs));
  }
  if (cs->schur) /* deformable bodies factor A through the Schur complement onto these DoFs */
    for (PetscInt b = 0; b < model->nbodies; b++)
      if (model->bodies[b]->ops.setparticipating) PetscCall(model->bodies[b]->ops.setparticipating(model->bodies[b], cs->ns[b], cs->sdof[b]));
  if (cs->precomputed) {
    for (PetscInt b = 0; b < model->nbodies; b++)
      if (!model->bodies[b]->rigid && strcmp(model->bodies[b]->spec->material.model, "linear"))
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "fcsim: warning: %s: compliance \"precomputed\" uses the first factorization of body %s, whose material (%s) is not linear: W is then an approximation\n", c->file, model->bodies[b]->name, model->bodies[b]->spec->material.model));
  }
  PetscCall(FcContactSolverCreate(&cs->solver));
  PetscCall(FcContactSolverSetType(cs->solver, c->contact_solver_type));
  PetscCall(FcContactSolverSetTolerances(cs->solver, c->contact_solver_tol, c->contact_solver_max_it));
  PetscCall(FcContactSolverSetWarmStart(cs->solver, c->contact_solver_warm_start));
  PetscCall(FcContactSolverSetMaxError(cs->solver, c->contact_solver_max_error));
  PetscCall(FcContactSolverSetFromOptions(cs->solver));
  PetscCall(WarnIgnored_Private(c, cs->solver));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepDestroy(FcContactStep *pcs)
{
  FcContactStep cs = *pcs;

  PetscFunctionBegin;
  if (!cs) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < cs->npairs; i++) {
    PetscCall(PetscFree(cs->pairs[i].points));
    PetscCall(PetscFree(cs->pairs[i].tri));
    PetscCall(PetscFree(cs->pairs[i].prev));
    PetscCall(PetscFree(cs->pairs[i].twin));
    PetscCall(PetscFree(cs->pairs[i].sf));
    PetscCall(PetscFree2(cs->pairs[i].n2f_ptr, cs->pairs[i].n2f));
    if (cs->pairs[i].tree) PetscCall(FcAABBTreeDestroy(&cs->pairs[i].tree));
  }
  PetscCall(PetscFree(cs->pairs));
  for (PetscInt b = 0; b < cs->model->nbodies; b++) {
    PetscCall(PetscFree(cs->isbc[b]));
    PetscCall(PetscFree(cs->Xcur[b]));
  }
  PetscCall(PetscFree(cs->isbc));
  PetscCall(PetscFree(cs->Xcur));
  PetscCall(PetscFree(cs->involved));
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
  PetscCall(PetscFree(cs->rforce));
  PetscCall(PetscFree(cs->key));
  PetscCall(PetscFree(cs->vpair));
  PetscCall(PetscFree(cs->vframe));
  PetscCall(PetscFree(cs->vr));
  PetscCall(PetscFree(cs->keep));
  PetscCall(PetscFree(cs->kcol));
  PetscCall(PetscFree(cs->prevkey));
  PetscCall(PetscFree(cs->prevr));
  PetscCall(PetscFree(cs->actkey));
  if (cs->precomputed || cs->schur) {
    for (PetscInt b = 0; b < cs->model->nbodies; b++) {
      PetscCall(PetscFree(cs->sdof[b]));
      PetscCall(PetscFree(cs->sidx[b]));
      PetscCall(PetscFree(cs->C[b]));
    }
    PetscCall(PetscFree4(cs->ns, cs->sdof, cs->sidx, cs->C));
  }
  if (cs->prob) PetscCall(FcContactProblemDestroy(&cs->prob));
  if (cs->solver) PetscCall(FcContactSolverDestroy(&cs->solver));
  PetscCall(PetscFree(*pcs));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepBegin(FcContactStep cs, FcContactStats *st)
{
  PetscFunctionBegin;
  (void)cs;
  PetscCall(PetscMemzero(st, sizeof *st));
  st->converged = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode Reserve_Private(FcContactStep cs, PetscInt m)
{
  PetscFunctionBegin;
  PetscInt old = cs->cap;

  if (m <= cs->cap) PetscFunctionReturn(0);
  cs->cap = PetscMax(m, 2 * cs->cap);
  /* grow keeping the contacts already added: k values per contact */
#define FC_GROW(p, n) \
  do { \
    void *np_; \
    PetscCall(PetscMalloc((size_t)(n) * sizeof(*(p)), &np_)); \
    if (old) PetscCall(PetscMemcpy(np_, (p), (size_t)((n) / cs->cap * old) * sizeof(*(p)))); \
    PetscCall(PetscFree(p)); \
    (p) = np_; \
  } while (0)
  FC_GROW(cs->pair, cs->cap);
  FC_GROW(cs->point, cs->cap);
  FC_GROW(cs->status, cs->cap);
  FC_GROW(cs->tnodes, FC_CONTACT_MAXT * cs->cap);
  FC_GROW(cs->nt, cs->cap);
  FC_GROW(cs->tw, FC_CONTACT_MAXT * cs->cap);
  FC_GROW(cs->frame, 9 * cs->cap);
  FC_GROW(cs->gap, cs->cap);
  FC_GROW(cs->xc, 3 * cs->cap);
  FC_GROW(cs->r, 3 * cs->cap);
  FC_GROW(cs->u, 3 * cs->cap);
  FC_GROW(cs->rforce, 3 * cs->cap);
  FC_GROW(cs->key, cs->cap);
  FC_GROW(cs->vpair, cs->cap);
  FC_GROW(cs->vframe, 9 * cs->cap);
  FC_GROW(cs->vr, 3 * cs->cap);
  FC_GROW(cs->keep, 3 * cs->cap);
  FC_GROW(cs->kcol, 3 * cs->cap);
#undef FC_GROW
  PetscFunctionReturn(0);
}

static PetscErrorCode AddContact_Private(FcContactStep cs, PetscInt p, const FcProximity *c)
{
  PetscInt a = cs->m;

  PetscFunctionBegin;
  PetscCall(Reserve_Private(cs, a + 1));
  cs->pair[a]  = p;
  cs->point[a] = c->point;
  cs->nt[a]    = 3;
  for (int k = 0; k < 3; k++) {
    cs->tnodes[FC_CONTACT_MAXT * a + k] = c->nodes[k];
    cs->tw[FC_CONTACT_MAXT * a + k]     = c->bary[k];
    cs->frame[9 * a + k]     = c->n[k];
    cs->frame[9 * a + 3 + k] = c->t1[k];
    cs->frame[9 * a + 6 + k] = c->t2[k];
    cs->xc[3 * a + k]        = c->xc[k];
  }
  cs->gap[a] = c->gap;
  cs->key[a] = (PetscInt64)p * (PetscInt64)1000000000 + c->point;
  cs->m++;
  PetscFunctionReturn(0);
}

static const FcProximity *FindPrev_Private(const Pair *P, PetscInt point)
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
static PetscBool Duplicate_Private(FcContactStep cs, const Pair *P, const FcProximity *c)
{
  const PetscInt a = P->twin[c->point];
  return (PetscBool)(a >= 0 && FindPrev_Private(&cs->pairs[P->partner], a));
}

/* y = R a (a direction of a rigid shape at its current rotation) */
static void Rotate_Private(const PetscReal R[9], const PetscReal a[3], PetscReal y[3])
{
  for (int i = 0; i < 3; i++) y[i] = R[3 * i] * a[0] + R[3 * i + 1] * a[1] + R[3 * i + 2] * a[2];
}

/* Mortar formulation: the slave (contactor) surface triangles, the `surface` group's faces or all
 * boundary faces, and the node-to-triangle adjacency the weights integrate over. */
static PetscErrorCode SlaveSurface_Private(const FcCase *c, PetscInt i, const FcMesh *mesh, const char *key, Pair *P)
{
  const PetscInt *faces = NULL;
  PetscInt        nf    = mesh->nbfaces, *cnt;
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
  P->nsf    = nf;
  PetscCall(PetscMalloc1(3 * nf, &P->sf));
  for (PetscInt f = 0; f < nf; f++)
    for (int k = 0; k < 3; k++) P->sf[3 * f + k] = mesh->bfaces[(faces ? faces[f] : f) * mesh->npf + k];
  PetscCall(PetscMalloc2(mesh->nnodes + 1, &P->n2f_ptr, 3 * nf, &P->n2f));
  PetscCall(PetscCalloc1(mesh->nnodes + 1, &cnt));
  for (PetscInt k = 0; k < 3 * nf; k++) cnt[P->sf[k] + 1]++;
  P->n2f_ptr[0] = 0;
  for (PetscInt n = 0; n < mesh->nnodes; n++) P->n2f_ptr[n + 1] = P->n2f_ptr[n] + cnt[n + 1];
  for (PetscInt n = 0; n <= mesh->nnodes; n++) cnt[n] = 0;
  for (PetscInt f = 0; f < nf; f++)
    for (int k = 0; k < 3; k++) {
      PetscInt n = P->sf[3 * f + k];
      P->n2f[P->n2f_ptr[n] + cnt[n]++] = f;
    }
  PetscCall(PetscFree(cnt));
  PetscFunctionReturn(0);
}

/* Barycentric coordinates of the 2D point y in the triangle (a, b, c). */
static void Bary2_Private(const PetscReal a[2], const PetscReal b[2], const PetscReal c[2], const PetscReal y[2], PetscReal w[3])
{
  const PetscReal d = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
  w[1] = ((y[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y[1] - a[1])) / d;
  w[2] = ((b[0] - a[0]) * (y[1] - a[1]) - (y[0] - a[0]) * (b[1] - a[1])) / d;
  w[0] = 1 - w[1] - w[2];
}

/* Sutherland–Hodgman: the polygon (n points, 2D) clipped by the half-plane to the left of the
 * directed edge p → q (counter-clockwise clip triangle); returns the new count. */
static PetscInt ClipEdge_Private(PetscInt n, const PetscReal (*in)[2], const PetscReal p[2], const PetscReal q[2], PetscReal (*out)[2])
{
  PetscInt m = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *u = in[k], *v = in[(k + 1) % n];
    const PetscReal  su = (q[0] - p[0]) * (u[1] - p[1]) - (q[1] - p[1]) * (u[0] - p[0]);
    const PetscReal  sv = (q[0] - p[0]) * (v[1] - p[1]) - (q[1] - p[1]) * (v[0] - p[0]);
    if (su >= 0) {
      out[m][0] = u[0];
      out[m][1] = u[1];
      m++;
    }
    if ((su >= 0) != (sv >= 0)) {
      const PetscReal t = su / (su - sv);
      out[m][0] = u[0] + t * (v[0] - u[0]);
      out[m][1] = u[1] + t * (v[1] - u[1]);
      m++;
    }
  }
  return m;
}

/* Lumped mortar weights of slave node `node` (Puso & Laursen, CMAME 193 (2004), eq. 18–20 with the
 * slave mass matrix D lumped; Popp et al., IJNME 79 (2009) §3, segment-based integration): for
 * every slave triangle T around the node and every master triangle M near it, M is projected
 * along T's normal into T's plane, clipped by T (Sutherland–Hodgman), and
 *
 *     M_aj = ∫_{T ∩ M} N_a N̂_j dA,     D_a = ∫_{T ∩ M} N_a dA = Σ_j M_aj
 *
 * are accumulated (a 3-point rule on the edge midpoints of each fan triangle of the clipped
 * polygon: exact, N_a N̂_j being quadratic there). The contact then ties the node to the
 * N_a-weighted mean of the master surface, x̂ = Σ_j (M_aj / D_a) x̂_j: a uniform pressure p gives
 * the slave node the force p D_a and master node j the force p Σ_a M_aj = p ∫ N̂_j dA — the
 * consistent nodal forces on both sides, which node-to-surface contact does not give on
 * non-matching meshes (the patch test). Coordinates: Xs (slave body), Xm (master surface).
 * nout: the slave's outward unit normal at the node, the mean of its triangles' normals weighted
 * by their share of D (only triangles that overlap the master count: not the sides of a body
 * whose whole boundary is the slave surface). *nt = 0 when nothing overlaps. */
static PetscErrorCode MortarWeights_Private(const Pair *P, const PetscReal *Xs, const PetscReal *Xm, PetscInt node, PetscInt *nt, PetscInt nodes[], PetscReal w[], PetscReal nout[3])
{
  PetscReal D = 0;

  PetscFunctionBegin;
  *nt = 0;
  nout[0] = nout[1] = nout[2] = 0;
  for (PetscInt e = P->n2f_ptr[node]; e < P->n2f_ptr[node + 1]; e++) {
    const PetscInt  *T = &P->sf[3 * P->n2f[e]];
    const PetscReal *x0 = &Xs[3 * T[0]], *x1 = &Xs[3 * T[1]], *x2 = &Xs[3 * T[2]];
    PetscReal        e1[3], e2[3], nrm[3], t1[3], t2[3], ctr[3], rad = 0, len, tri2[3][2];
    PetscInt         la = T[0] == node ? 0 : T[1] == node ? 1 : 2, nl;
    const PetscInt  *list;
    for (int k = 0; k < 3; k++) {
      e1[k]  = x1[k] - x0[k];
      e2[k]  = x2[k] - x0[k];
      ctr[k] = (x0[k] + x1[k] + x2[k]) / 3;
    }
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    len    = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
    if (!(len > 0)) continue;
    len = PetscSqrtReal(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int k = 0; k < 3; k++) t1[k] = e1[k] / len;
    {
      PetscReal nn = PetscSqrtReal(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
      for (int k = 0; k < 3; k++) nrm[k] /= nn;
    }
    t2[0] = nrm[1] * t1[2] - nrm[2] * t1[1];
    t2[1] = nrm[2] * t1[0] - nrm[0] * t1[2];
    t2[2] = nrm[0] * t1[1] - nrm[1] * t1[0];
    for (int v = 0; v < 3; v++) { /* T in its own plane: counter-clockwise (its normal is t1 × t2) */
      const PetscReal *x = &Xs[3 * T[v]];
      PetscReal        r2 = 0;
      tri2[v][0] = tri2[v][1] = 0;
      for (int k = 0; k < 3; k++) {
        tri2[v][0] += (x[k] - ctr[k]) * t1[k];
        tri2[v][1] += (x[k] - ctr[k]) * t2[k];
        r2 += (x[k] - ctr[k]) * (x[k] - ctr[k]);
      }
      rad = PetscMax(rad, PetscSqrtReal(r2));
    }
    PetscCall(FcAABBTreeQueryBall(P->tree, ctr, 1.01 * rad + P->alarm, &nl, &list));
    for (PetscInt q = 0; q < nl; q++) {
      const PetscInt *Mt = &P->tri[3 * list[q]];
      PetscReal       m2[3][2], poly[2][12][2], mn[3], Dt;
      PetscInt        np = 3, cur = 0;
      {
        const PetscReal *y0 = &Xm[3 * Mt[0]], *y1 = &Xm[3 * Mt[1]], *y2 = &Xm[3 * Mt[2]];
        PetscReal        f1[3], f2[3];
        for (int k = 0; k < 3; k++) {
          f1[k] = y1[k] - y0[k];
          f2[k] = y2[k] - y0[k];
        }
        mn[0] = f1[1] * f2[2] - f1[2] * f2[1];
        mn[1] = f1[2] * f2[0] - f1[0] * f2[2];
        mn[2] = f1[0] * f2[1] - f1[1] * f2[0];
      }
      /* only facing surfaces: the master's outward normal within 60° of the opposite of the
       * slave's (not the side faces of a slave body whose whole boundary is the slave surface) */
      if (!(mn[0] * nrm[0] + mn[1] * nrm[1] + mn[2] * nrm[2] < -0.5 * PetscSqrtReal(mn[0] * mn[0] + mn[1] * mn[1] + mn[2] * mn[2]))) continue;
      { /* and near T's plane: a facing surface farther than twice the alarm distance (the other
         * side of a thin body, say) is not in contact with T */
        PetscReal dmin = PETSC_MAX_REAL, dmax = -PETSC_MAX_REAL;
        for (int v = 0; v < 3; v++) {
          const PetscReal *y = &Xm[3 * Mt[v]];
          PetscReal        dv = (y[0] - ctr[0]) * nrm[0] + (y[1] - ctr[1]) * nrm[1] + (y[2] - ctr[2]) * nrm[2];
          dmin = PetscMin(dmin, dv);
          dmax = PetscMax(dmax, dv);
        }
        if (dmin > 2 * P->alarm || dmax < -2 * P->alarm) continue;
      }
      for (int v = 0; v < 3; v++) {
        const PetscReal *y = &Xm[3 * Mt[v]];
        m2[v][0] = m2[v][1] = 0;
        for (int k = 0; k < 3; k++) {
          m2[v][0] += (y[k] - ctr[k]) * t1[k];
          m2[v][1] += (y[k] - ctr[k]) * t2[k];
        }
      }
      /* the projected master triangle is clockwise in T's frame (it faces the other way) */
      for (int v = 0; v < 3; v++) {
        poly[0][v][0] = m2[2 - v][0];
        poly[0][v][1] = m2[2 - v][1];
      }
      for (int edge = 0; edge < 3 && np > 0; edge++) {
        np  = ClipEdge_Private(np, (const PetscReal(*)[2])poly[cur], tri2[edge], tri2[(edge + 1) % 3], poly[1 - cur]);
        cur = 1 - cur;
      }
      Dt = D;
      for (PetscInt f = 1; f + 1 < np; f++) { /* fan triangles of the clipped polygon */
        const PetscReal *p0 = poly[cur][0], *p1 = poly[cur][f], *p2 = poly[cur][f + 1];
        const PetscReal  area = 0.5 * PetscAbsReal((p1[0] - p0[0]) * (p2[1] - p0[1]) - (p2[0] - p0[0]) * (p1[1] - p0[1]));
        for (int g = 0; g < 3; g++) { /* edge midpoints, weight area/3 */
          const PetscReal *u = g == 0 ? p0 : g == 1 ? p1 : p2, *v = g == 0 ? p1 : g == 1 ? p2 : p0;
          PetscReal        y[2] = {0.5 * (u[0] + v[0]), 0.5 * (u[1] + v[1])}, ws[3], wm[3];
          Bary2_Private(tri2[0], tri2[1], tri2[2], y, ws);
          Bary2_Private(m2[0], m2[1], m2[2], y, wm);
          D += area / 3 * ws[la];
          for (int j = 0; j < 3; j++) {
            PetscInt slot = 0;
            while (slot < *nt && nodes[slot] != Mt[j]) slot++;
            if (slot == *nt) {
              PetscCheck(*nt < FC_CONTACT_MAXT, PETSC_COMM_SELF, PETSC_ERR_SUP, "mortar: more than %d master nodes overlap the support of one slave node; the master mesh is much finer than the slave one", FC_CONTACT_MAXT);
              nodes[(*nt)++] = Mt[j];
              w[slot]        = 0;
            }
            w[slot] += area / 3 * ws[la] * wm[j];
          }
        }
      }
      for (int k = 0; k < 3; k++) nout[k] += (D - Dt) * nrm[k];
    }
  }
  {
    PetscReal l = PetscSqrtReal(nout[0] * nout[0] + nout[1] * nout[1] + nout[2] * nout[2]);
    for (int k = 0; k < 3; k++) nout[k] = l > 0 ? nout[k] / l : 0;
  }
  if (D > 0)
    for (PetscInt j = 0; j < *nt; j++) w[j] /= D;
  else *nt = 0;
  PetscFunctionReturn(0);
}

/* Detection at the current iterate for every pair; fills the contact list. */
static PetscErrorCode Detect_Private(FcContactStep cs)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  cs->m = 0;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody             body = model->bodies[b];
    const PetscScalar *u;
    if (body->rigid) {
      /* a rigid "mesh" shape translated by d1 (analytic shapes are evaluated at d1 below) */
      for (PetscInt i = 0; cs->Xcur[b] && i < body->mesh.nnodes; i++)
        FcRigidPlace(body, PETSC_FALSE, &body->mesh.X[3 * i], &cs->Xcur[b][3 * i]); /* c + d1 + R1 (X − c) */
      continue;
    }
    PetscCall(VecGetArrayRead(body->ucur, &u));
    for (PetscInt i = 0; i < body->ndof; i++) cs->Xcur[b][i] = body->mesh.X[i] + u[i];
    PetscCall(VecRestoreArrayRead(body->ucur, &u));
  }
  for (PetscInt p = 0; p < cs->npairs; p++) {
    Pair        *P = &cs->pairs[p];
    FcBody       B = model->bodies[P->B];
    FcProximity *out = NULL;
    PetscInt     nout = 0;

    if (P->tree) {
      FcProximityOptions opt;
      PetscCall(PetscMemzero(&opt, sizeof opt));
      opt.alarm = P->alarm;
      opt.nprev = P->nprev;
      opt.prev  = P->prev;
      PetscCall(FcAABBTreeRefit(P->tree, cs->Xcur[P->B], 0.0));
      PetscCall(FcProximityFind(P->tree, cs->Xcur[P->B], P->npoints, P->points, cs->Xcur[P->A], &opt, &nout, &out));
    } else {
      const FcCaseShape *sh = &B->spec->shape;
      PetscReal          x0[3], dir[3];
      /* the shape placed at the current pose: x = c + d1 + R1 (X − c), directions R1 a */
      PetscCall(PetscMalloc1(P->npoints + 1, &out));
      for (PetscInt i = 0; i < P->npoints; i++) {
        const PetscReal   *x    = &cs->Xcur[P->A][3 * P->points[i]];
        const FcProximity *prev = FindPrev_Private(P, P->points[i]);
        FcProximity        c;
        PetscCall(PetscMemzero(&c, sizeof c));
        switch (sh->type) {
        case FC_SHAPE_PLANE:
          FcRigidPlace(B, PETSC_FALSE, sh->point, x0);
          Rotate_Private(B->rigid_R1, sh->normal, dir);
          PetscCall(FcProximityPlane(x, x0, dir, prev ? prev->t1 : NULL, &c));
          break;
        case FC_SHAPE_SPHERE:
          FcRigidPlace(B, PETSC_FALSE, sh->center, x0);
          PetscCall(FcProximitySphere(x, x0, sh->radius, prev ? prev->t1 : NULL, &c));
          break;
        case FC_SHAPE_BOX: {
          /* axis-aligned in the reference configuration: its axes are R1's columns */
          FcRigidPlace(B, PETSC_FALSE, sh->center, x0);
          PetscCall(FcProximityBox(x, x0, B->rigid_R1, sh->half_extents, prev ? prev->t1 : NULL, &c));
        } break;
        case FC_SHAPE_CYLINDER:
          FcRigidPlace(B, PETSC_FALSE, sh->center, x0);
          Rotate_Private(B->rigid_R1, sh->axis, dir);
          PetscCall(FcProximityCylinder(x, x0, dir, sh->radius, sh->half_length, prev ? prev->t1 : NULL, &c));
          break;
        default:
          SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "rigid shape type %d", (int)sh->type);
        }
        if (c.gap > P->alarm) continue;
        c.point = P->points[i];
        for (int k = 0; k < 3; k++) c.nodes[k] = -1;
        out[nout++] = c;
      }
    }
    /* keep this detection (sorted by point) for the next one's frame continuity */
    if (nout > 1) qsort(out, (size_t)nout, sizeof *out, CmpProx_Private);
    for (PetscInt i = 0; i < nout; i++) {
      if (P->reverse && Duplicate_Private(cs, P, &out[i])) continue;
      PetscCall(AddContact_Private(cs, p, &out[i]));
      if (P->mortar) { /* the target point becomes the N_a-weighted mean of the master surface */
        const PetscInt a = cs->m - 1;
        PetscInt       nt;
        PetscReal      xh[3] = {0, 0, 0}, g = 0, ns[3];
        PetscCall(MortarWeights_Private(P, cs->Xcur[P->A], cs->Xcur[P->B], out[i].point, &nt, &cs->tnodes[FC_CONTACT_MAXT * a], &cs->tw[FC_CONTACT_MAXT * a], ns));
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
  PetscFunctionReturn(0);
}

static PetscInt64 *BSearch64_Private(PetscInt64 key, PetscInt64 *a, PetscInt n)
{
  PetscInt lo = 0, hi = n - 1;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (a[mid] == key) return &a[mid];
    if (a[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

/* Relative motion of contact a, from per-body vectors v_A (contactor) and v_B (target B; NULL for
 * a target without DoFs). A rigid target's point moves with J v_B. */
static void Relative_Private(FcContactStep cs, PetscInt a, FcBody B, const PetscScalar *vA, const PetscScalar *vB, PetscReal rel[3])
{
  PetscInt p = cs->point[a];
  for (int k = 0; k < 3; k++) rel[k] = vA[3 * p + k];
  if (vB && B->rigid) {
    PetscReal J[3 * FC_RIGID_MAX_DOF];
    B->ops.pointjacobian(B, &cs->xc[3 * a], J);
    for (int k = 0; k < 3; k++)
      for (PetscInt j = 0; j < B->ndof; j++) rel[k] -= J[k * B->ndof + j] * vB[j];
  } else if (vB)
    for (PetscInt j = 0; j < cs->nt[a]; j++)
      for (int k = 0; k < 3; k++) rel[k] -= cs->tw[FC_CONTACT_MAXT * a + j] * vB[3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k];
}

/* The nonzeros of row block a of H_b: DoFs of contact a on body b and, per DoF, the
 * coefficients of the three frame rows (zero on constrained DoFs are skipped). */
static PetscInt Entries_Private(FcContactStep cs, PetscInt a, PetscInt b, PetscInt dofs[FC_CONTACT_MAXDOF], PetscReal coef[FC_CONTACT_MAXDOF][3])
{
  const Pair *P = &cs->pairs[cs->pair[a]];
  PetscInt    n = 0;
  if (P->A == b)
    for (int k = 0; k < 3; k++) {
      PetscInt dof = 3 * cs->point[a] + k;
      if (cs->isbc[b][dof]) continue;
      dofs[n] = dof;
      for (int i = 0; i < 3; i++) coef[n][i] = cs->frame[9 * a + 3 * i + k];
      n++;
    }
  if (P->B == b && cs->model->bodies[b]->rigid) {
    /* rigid target with DoFs: the target point moves with J ẋ_B, H_B = −F J (F: the frame rows) */
    FcBody    B = cs->model->bodies[b];
    PetscReal J[3 * FC_RIGID_MAX_DOF];
    B->ops.pointjacobian(B, &cs->xc[3 * a], J);
    for (PetscInt d = 0; d < B->ndof; d++) {
      dofs[n] = d;
      for (int i = 0; i < 3; i++) {
        coef[n][i] = 0;
        for (int k = 0; k < 3; k++) coef[n][i] -= cs->frame[9 * a + 3 * i + k] * J[k * B->ndof + d];
      }
      n++;
    }
  } else if (P->B == b)
    for (PetscInt j = 0; j < cs->nt[a]; j++)
      for (int k = 0; k < 3; k++) {
        PetscInt dof = 3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k;
        if (cs->isbc[b][dof]) continue;
        dofs[n] = dof;
        for (int i = 0; i < 3; i++) coef[n][i] = -cs->tw[FC_CONTACT_MAXT * a + j] * cs->frame[9 * a + 3 * i + k];
        n++;
      }
  return n;
}

/* The normal rows of H, per body with DoFs (deformable), of the contacts that carry force after
 * this correction: the bodies' inertia correction tries A + ρ Σ h_a h_aᵀ with them when A is
 * indefinite (body_deformable.c, FormMatrix_Private). */
static PetscErrorCode StabilizationRows_Private(FcContactStep cs)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody   body = model->bodies[b];
    PetscInt nrow = 0, nnz = 0;
    if (!body->ndof || body->rigid) continue;
    body->nstab = 0;
    if (!cs->involved[b]) continue;
    if (body->stab_cap < cs->m + 1) {
      PetscCall(PetscFree(body->stab_ptr));
      body->stab_cap = cs->m + 1;
      PetscCall(PetscMalloc1(body->stab_cap, &body->stab_ptr));
    }
    if (body->stab_nnzcap < FC_CONTACT_MAXDOF * cs->m) {
      PetscCall(PetscFree2(body->stab_dof, body->stab_val));
      body->stab_nnzcap = FC_CONTACT_MAXDOF * cs->m;
      PetscCall(PetscMalloc2(body->stab_nnzcap, &body->stab_dof, body->stab_nnzcap, &body->stab_val));
    }
    body->stab_ptr[0] = 0;
    for (PetscInt a = 0; a < cs->m; a++) {
      PetscInt  dofs[FC_CONTACT_MAXDOF], nd;
      PetscReal coef[FC_CONTACT_MAXDOF][3];
      if (!cs->status[a]) continue;
      nd = Entries_Private(cs, a, b, dofs, coef);
      if (!nd) continue;
      for (PetscInt k = 0; k < nd; k++) {
        body->stab_dof[nnz] = dofs[k];
        body->stab_val[nnz] = coef[k][0];
        nnz++;
      }
      body->stab_ptr[++nrow] = nnz;
    }
    body->nstab    = nrow;
    body->stab_nnz = nnz;
  }
  PetscFunctionReturn(0);
}

/* C_b = A_b⁻¹ restricted to the DoFs that can carry a contact (contactor points, target
 * surface nodes), computed once, in blocks of columns to bound memory. */
/* The DoFs that can carry a contact (contactor points, target surface nodes, every DoF of a
 * rigid target), minus the constrained ones: per body ns, sdof (sorted) and sidx (dof → index in
 * sdof or -1). These are han2023's participating DoFs (§VI-A) for the compliances "precomputed"
 * and "schur"; the set is fixed for the run, so a factorization's analysis is done once. */
static PetscErrorCode Participating_Private(FcContactStep cs)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody     body = model->bodies[b];
    PetscBool *mark;
    PetscInt   n = 0;
    if (!body->ndof) continue;
    PetscCall(PetscCalloc1(body->ndof, &mark));
    for (PetscInt p = 0; p < cs->npairs; p++) {
      const Pair *P = &cs->pairs[p];
      if (P->A == b)
        for (PetscInt i = 0; i < P->npoints; i++)
          for (int k = 0; k < 3; k++) mark[3 * P->points[i] + k] = PETSC_TRUE;
      if (P->B == b && body->rigid)
        for (PetscInt i = 0; i < body->ndof; i++) mark[i] = PETSC_TRUE; /* every DoF moves the shape */
      else if (P->B == b)
        for (PetscInt i = 0; i < 3 * P->ntri; i++)
          for (int k = 0; k < 3; k++) mark[3 * P->tri[i] + k] = PETSC_TRUE;
    }
    for (PetscInt i = 0; i < body->ndof; i++) n += mark[i] && !cs->isbc[b][i];
    cs->ns[b] = n;
    if (!n) {
      PetscCall(PetscFree(mark));
      continue;
    }
    PetscCall(PetscMalloc1(n, &cs->sdof[b]));
    PetscCall(PetscMalloc1(body->ndof, &cs->sidx[b]));
    n = 0;
    for (PetscInt i = 0; i < body->ndof; i++) {
      cs->sidx[b][i] = -1;
      if (mark[i] && !cs->isbc[b][i]) {
        cs->sidx[b][i]   = n;
        cs->sdof[b][n++] = i;
      }
    }
    PetscCall(PetscFree(mark));
  }
  PetscFunctionReturn(0);
}

/* C_b = A_b⁻¹ restricted to the participating DoFs, from the first factorization of the run. */
static PetscErrorCode Precompute_Private(FcContactStep cs)
{
  FcModel       *model  = cs->model;
  const PetscInt nblock = 128;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody   body = model->bodies[b];
    PetscInt n    = cs->ns[b];
    if (!body->ndof || !n) continue;
    PetscCall(PetscMalloc1(n * n, &cs->C[b]));
    for (PetscInt c0 = 0; c0 < n; c0 += nblock) {
      PetscInt           nb = PetscMin(nblock, n - c0), lda;
      Mat                B, X;
      PetscScalar       *h;
      const PetscScalar *x;
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, body->ndof, nb, NULL, &B));
      PetscCall(MatZeroEntries(B));
      PetscCall(MatDenseGetArray(B, &h));
      PetscCall(MatDenseGetLDA(B, &lda));
      for (PetscInt j = 0; j < nb; j++) h[j * lda + cs->sdof[b][c0 + j]] = 1.0;
      PetscCall(MatDenseRestoreArray(B, &h));
      PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
      PetscCall(body->ops.solvemulti(body, B, X));
      PetscCall(MatDenseGetArrayRead(X, &x));
      for (PetscInt j = 0; j < nb; j++)
        for (PetscInt i = 0; i < n; i++) cs->C[b][i * n + c0 + j] = x[j * lda + cs->sdof[b][i]];
      PetscCall(MatDenseRestoreArrayRead(X, &x));
      PetscCall(MatDestroy(&B));
      PetscCall(MatDestroy(&X));
    }
  }
  cs->have_C = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepCorrect(FcContactStep cs, const FcStepInfo *s, FcContactStats *st, PetscBool *changed)
{
  FcModel   *model = cs->model;
  PetscInt   m, n3;
  PetscReal  t0, t1, t2, t3;

  /* dynamics: r is an impulse over Δt (force r/Δt), a rigid body moves at (d1 − d0)/Δt; 1 quasi-static */
  const PetscReal rscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : s->dt;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(Detect_Private(cs));
  PetscCall(PetscTime(&t1));
  st->detect_time += t1 - t0;
  m  = cs->m;
  n3 = 3 * m;
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (model->bodies[b]->fcontact) PetscCall(VecSet(model->bodies[b]->fcontact, 0.0));
  if (m == 0) {
    *changed  = (PetscBool)(cs->nact > 0);
    st->converged = PETSC_TRUE; /* nothing to solve */
    st->failed    = PETSC_FALSE;
    cs->nact  = 0;
    cs->first = PETSC_FALSE;
    st->contacts = st->active = st->stick = st->slip = 0;
    PetscFunctionReturn(0);
  }

  /* bodies with DoFs (deformable, dynamic rigid) touched by this correction's contacts */
  for (PetscInt b = 0; b < model->nbodies; b++) cs->involved[b] = PETSC_FALSE;
  for (PetscInt a = 0; a < m; a++) {
    const Pair *P = &cs->pairs[cs->pair[a]];
    if (model->bodies[P->A]->ndof) cs->involved[P->A] = PETSC_TRUE;
    if (model->bodies[P->B]->ndof) cs->involved[P->B] = PETSC_TRUE;
  }
  /* the contact problem: W = Σ_b H_b Y_b (H_b is sparse: each row touches one contact's nodes) */
  if (cs->prob && cs->prob->m != m) PetscCall(FcContactProblemDestroy(&cs->prob));
  if (!cs->prob) PetscCall(FcContactProblemCreate(m, &cs->prob));
  PetscCall(PetscArrayzero(cs->prob->W, n3 * n3));
  if (cs->precomputed) {
    /* W = Σ_b H_b C_b H_bᵀ from the precomputed surface compliance: no solve per step */
    if (!cs->have_C) PetscCall(Precompute_Private(cs));
    for (PetscInt b = 0; b < model->nbodies; b++) {
      if (!cs->involved[b]) continue;
      for (PetscInt a = 0; a < m; a++) {
        PetscInt  da[FC_CONTACT_MAXDOF], na;
        PetscReal ca[FC_CONTACT_MAXDOF][3];
        na = Entries_Private(cs, a, b, da, ca);
        for (PetscInt a2 = 0; a2 < m; a2++) {
          PetscInt  db[FC_CONTACT_MAXDOF], nbb;
          PetscReal cb[FC_CONTACT_MAXDOF][3];
          nbb = Entries_Private(cs, a2, b, db, cb);
          for (PetscInt k = 0; k < na; k++) {
            const PetscReal *Crow = &cs->C[b][cs->sidx[b][da[k]] * cs->ns[b]];
            for (PetscInt l = 0; l < nbb; l++) {
              PetscReal cv = Crow[cs->sidx[b][db[l]]];
              for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) cs->prob->W[(3 * a + i) * n3 + 3 * a2 + j] += ca[k][i] * cv * cb[l][j];
            }
          }
        }
      }
    }
  }
  /* exact: W = Σ_b H_b (A_b⁻¹ H_bᵀ), the columns A_b⁻¹ H_bᵀ solved with the step's factorization
   * in blocks of FC_CONTACT_BLOCK right-hand sides (memory ndof × block, not ndof × 3m) */
  /* schur: W_b = J_b Â_b⁻¹ J_bᵀ with J_b restricted to the participating DoFs (han2023 eq. 16–17,
   * src/model/schur.h), from the body's current factorization; no right-hand side per contact row */
  for (PetscInt b = 0; b < model->nbodies && cs->schur; b++) {
    FcBody    body = model->bodies[b];
    FcSchur   sch  = NULL;
    PetscInt *rowptr, *cols, nnz = 0;
    PetscReal *vals, *Wb;
    if (!cs->involved[b] || !body->ops.getschur) continue;
    PetscCall(body->ops.getschur(body, &sch));
    PetscCheck(sch, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Body %s has no Schur complement", body->name);
    PetscCall(PetscMalloc3(n3 + 1, &rowptr, FC_CONTACT_MAXDOF * n3 + 1, &cols, FC_CONTACT_MAXDOF * n3 + 1, &vals));
    rowptr[0] = 0;
    for (PetscInt a = 0; a < m; a++) {
      PetscInt  dofs[FC_CONTACT_MAXDOF], nd;
      PetscReal coef[FC_CONTACT_MAXDOF][3];
      nd = Entries_Private(cs, a, b, dofs, coef);
      for (int i = 0; i < 3; i++) {
        for (PetscInt k = 0; k < nd; k++) {
          PetscCheck(cs->sidx[b][dofs[k]] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "contact DoF %" PetscInt_FMT " of body %s is not participating", dofs[k], body->name);
          cols[nnz]   = cs->sidx[b][dofs[k]];
          vals[nnz++] = coef[k][i];
        }
        rowptr[3 * a + i + 1] = nnz;
      }
    }
    PetscCall(PetscMalloc1((size_t)n3 * n3, &Wb));
    PetscCall(FcSchurDelassusCSR(sch, n3, rowptr, cols, vals, Wb));
    for (PetscInt i = 0; i < n3 * n3; i++) cs->prob->W[i] += Wb[i];
    PetscCall(PetscFree(Wb));
    PetscCall(PetscFree3(rowptr, cols, vals));
  }
  /* The rows and columns W needs: all three of a frictional contact, only the normal one of a
   * frictionless contact (μ = 0: r_T = 0 and ũ = u_N, so its tangential rows and columns enter
   * neither the solution nor the common error). Its tangential block is set to W_nn·I below,
   * uncoupled: the local problem stays positive definite for every solver, and u_T = W_nn r_T + q_T
   * = q_T carries no information. A frictionless problem then needs m right-hand sides, not 3m. */
  {
    PetscInt nkeep = 0;
    for (PetscInt a = 0; a < m; a++) {
      const PetscBool fr = (PetscBool)(cs->pairs[cs->pair[a]].mu > 0);
      for (int i = 0; i < 3; i++) {
        cs->keep[3 * a + i] = (PetscBool)(i == 0 || fr);
        if (cs->keep[3 * a + i]) cs->kcol[nkeep++] = 3 * a + i;
      }
    }
    cs->nkeep = nkeep;
  }
  for (PetscInt b = 0; b < model->nbodies && !cs->precomputed; b++) {
    FcBody body = model->bodies[b];
    if (!cs->involved[b]) continue;
    if (cs->schur && body->ops.getschur) continue; /* done above */
    for (PetscInt c0 = 0; c0 < cs->nkeep; c0 += FC_CONTACT_BLOCK) {
      PetscInt           nb = PetscMin(FC_CONTACT_BLOCK, cs->nkeep - c0), lda, dofs[FC_CONTACT_MAXDOF], nd;
      PetscReal          coef[FC_CONTACT_MAXDOF][3];
      Mat                B, X;
      PetscScalar       *h;
      const PetscScalar *x;
      PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, body->ndof, nb, NULL, &B));
      PetscCall(MatZeroEntries(B));
      PetscCall(MatDenseGetArray(B, &h));
      PetscCall(MatDenseGetLDA(B, &lda));
      for (PetscInt j = 0; j < nb; j++) {
        PetscInt a = cs->kcol[c0 + j] / 3, i = cs->kcol[c0 + j] % 3;
        nd         = Entries_Private(cs, a, b, dofs, coef);
        for (PetscInt k = 0; k < nd; k++) h[j * lda + dofs[k]] += coef[k][i];
      }
      PetscCall(MatDenseRestoreArray(B, &h));
      PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
      PetscCall(body->ops.solvemulti(body, B, X));
      PetscCall(MatDenseGetArrayRead(X, &x));
      for (PetscInt a = 0; a < m; a++) {
        nd = Entries_Private(cs, a, b, dofs, coef);
        for (PetscInt k = 0; k < nd; k++)
          for (int i = 0; i < 3; i++) {
            PetscReal *Wrow = &cs->prob->W[(3 * a + i) * n3];
            if (!cs->keep[3 * a + i]) continue;
            for (PetscInt j = 0; j < nb; j++) Wrow[cs->kcol[c0 + j]] += coef[k][i] * x[j * lda + dofs[k]];
          }
      }
      PetscCall(MatDenseRestoreArrayRead(X, &x));
      PetscCall(MatDestroy(&B));
      PetscCall(MatDestroy(&X));
    }
  }
  if (!cs->precomputed && !cs->schur)
    for (PetscInt a = 0; a < m; a++)
      if (!cs->keep[3 * a + 1]) cs->prob->W[(3 * a + 1) * n3 + 3 * a + 1] = cs->prob->W[(3 * a + 2) * n3 + 3 * a + 2] = cs->prob->W[(3 * a) * n3 + 3 * a];
  for (PetscInt i = 0; i < n3; i++)
    for (PetscInt j = i + 1; j < n3; j++) {
      PetscReal w = 0.5 * (cs->prob->W[i * n3 + j] + cs->prob->W[j * n3 + i]);
      cs->prob->W[i * n3 + j] = cs->prob->W[j * n3 + i] = w;
    }
  /* q from the free increment and the state (header comment) */
  for (PetscInt a = 0; a < m; a++) {
    const Pair        *P = &cs->pairs[cs->pair[a]];
    FcBody             A = model->bodies[P->A], B = model->bodies[P->B];
    const PetscScalar *dxA, *dxB = NULL, *sA, *sB = NULL;
    PetscReal          rdx[3], rs[3], c = A->incscale;
    PetscCall(VecGetArrayRead(A->dx, &dxA));
    PetscCall(VecGetArrayRead(A->rate, &sA));
    if (B->ndof) {
      PetscCall(VecGetArrayRead(B->dx, &dxB));
      PetscCall(VecGetArrayRead(B->rate, &sB));
    }
    Relative_Private(cs, a, B, dxA, dxB, rdx);
    Relative_Private(cs, a, B, sA, sB, rs);
    if (!B->ndof) { /* prescribed motion: the target's material point at xc moved from x0 (t0) to xc (t1) */
      const PetscReal *xc = &cs->xc[3 * a], *R1 = B->rigid_R1;
      PetscReal        X[3], x0[3];
      for (int i = 0; i < 3; i++) { /* X = c + R1ᵀ (xc − c − d1) */
        X[i] = B->rigid_c[i];
        for (int j = 0; j < 3; j++) X[i] += R1[3 * j + i] * (xc[j] - B->rigid_c[j] - B->rigid_d1[j]);
      }
      FcRigidPlace(B, PETSC_TRUE, X, x0);
      for (int k = 0; k < 3; k++) rs[k] -= (xc[k] - x0[k]) / rscale;
    }
    PetscCall(VecRestoreArrayRead(A->dx, &dxA));
    PetscCall(VecRestoreArrayRead(A->rate, &sA));
    if (B->ndof) {
      PetscCall(VecRestoreArrayRead(B->dx, &dxB));
      PetscCall(VecRestoreArrayRead(B->rate, &sB));
    }
    for (int i = 0; i < 3; i++) {
      const PetscReal *F = &cs->frame[9 * a + 3 * i];
      PetscReal        v = 0;
      for (int k = 0; k < 3; k++) v += F[k] * (rdx[k] + (i ? rs[k] : 0.0));
      cs->prob->q[3 * a + i] = v + (i ? 0.0 : cs->gap[a] / c);
    }
    cs->prob->mu[a] = P->mu;
  }
  /* warm start by contact identity (pair, contactor node) */
  for (PetscInt a = 0; a < m; a++) {
    PetscInt64 *k = BSearch64_Private(cs->key[a], cs->prevkey, cs->nprev);
    for (int i = 0; i < 3; i++) cs->r[3 * a + i] = k ? cs->prevr[3 * (k - cs->prevkey) + i] : 0.0;
    /* a failed (cut back) attempt may leave non-finite impulses: never warm start from them */
    if (PetscIsInfOrNanReal(cs->r[3 * a]) || PetscIsInfOrNanReal(cs->r[3 * a + 1]) || PetscIsInfOrNanReal(cs->r[3 * a + 2])) cs->r[3 * a] = cs->r[3 * a + 1] = cs->r[3 * a + 2] = 0.0;
  }
  PetscCall(PetscTime(&t2));
  st->w_time += t2 - t1;
  {
    FcContactSolverStats ss;
    PetscCall(FcContactSolverSolve(cs->solver, cs->prob, cs->r));
    PetscCall(FcContactSolverGetStats(cs->solver, &ss));
    st->solves++;
    st->iterations += ss.iterations;
    st->error = ss.error;
    /* the step's contact state is the last solve's: an intermediate Newton iterate's solve may
     * stop short (its W and q are superseded by the next iterate's); the last one may not */
    st->converged = ss.converged;
    /* W = Σ H A⁻¹ Hᵀ is PSD when every A is; a Newton iterate where A (the tangent K of a
     * hyperelastic body in strong compression) is indefinite can make W indefinite, and then a
     * solver can run off to an unbounded r whose relative common error still looks small.
     * rᵀ W r = rᵀ (u − q) < 0, or a non-finite r, makes this correction unusable: the step fails
     * (cut back by the caller) instead of using it. */
    {
      PetscReal rWr = 0, rr = 0, wmax = 0;
      PetscCall(FcContactProblemComputeVelocity(cs->prob, cs->r, cs->u));
      for (PetscInt i = 0; i < n3; i++) {
        rWr += cs->r[i] * (cs->u[i] - cs->prob->q[i]);
        rr += cs->r[i] * cs->r[i];
        wmax = PetscMax(wmax, PetscAbsReal(cs->prob->W[i * n3 + i]));
      }
      st->failed = (PetscBool)(!PetscIsNormalReal(rr) && rr != 0);
      if (!st->failed && rWr < -1e-8 * wmax * rr) st->failed = PETSC_TRUE;
      if (st->failed) st->converged = PETSC_FALSE;
    }
  }
  PetscCall(PetscTime(&t3));
  st->solve_time += t3 - t2;
  /* contact forces f_b = H_bᵀ r and the correction Δx_b += A_b⁻¹ f_b (one solve per body) */
  for (PetscInt b = 0; b < model->nbodies; b++) {
    FcBody             body = model->bodies[b];
    Mat                B, X;
    PetscScalar       *bb, *f, *dx;
    const PetscScalar *xx;
    if (!cs->involved[b]) continue;
    if (!body->fcontact) PetscCall(VecDuplicate(body->dx, &body->fcontact));
    PetscCall(VecSet(body->fcontact, 0.0));
    PetscCall(VecGetArray(body->fcontact, &f));
    for (PetscInt a = 0; a < m; a++) {
      PetscInt  dofs[FC_CONTACT_MAXDOF], nd;
      PetscReal coef[FC_CONTACT_MAXDOF][3];
      nd = Entries_Private(cs, a, b, dofs, coef);
      for (PetscInt k = 0; k < nd; k++)
        for (int i = 0; i < 3; i++) f[dofs[k]] += coef[k][i] * cs->r[3 * a + i];
    }
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, body->ndof, 1, NULL, &B));
    PetscCall(MatDenseGetArray(B, &bb));
    PetscCall(PetscArraycpy(bb, f, body->ndof));
    PetscCall(MatDenseRestoreArray(B, &bb));
    PetscCall(VecRestoreArray(body->fcontact, &f));
    PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
    PetscCall(body->ops.solvemulti(body, B, X));
    PetscCall(MatDenseGetArrayRead(X, &xx));
    PetscCall(VecGetArray(body->dx, &dx));
    for (PetscInt i = 0; i < body->ndof; i++) dx[i] += xx[i];
    PetscCall(VecRestoreArray(body->dx, &dx));
    PetscCall(MatDenseRestoreArrayRead(X, &xx));
    PetscCall(MatDestroy(&B));
    PetscCall(MatDestroy(&X));
  }
  /* status, active set, force in N, warm-start table (u = W r + q was computed after the solve) */
  {
    PetscReal   rmax = 0;
    PetscInt    nact = 0;
    PetscInt64 *act;
    PetscBool   same;
    for (PetscInt a = 0; a < m; a++) rmax = PetscMax(rmax, PetscAbsReal(cs->r[3 * a]));
    st->contacts = m;
    st->active = st->stick = st->slip = 0;
    PetscCall(PetscMalloc1(m, &act));
    for (PetscInt a = 0; a < m; a++) {
      PetscReal rn = cs->r[3 * a], rt = PetscSqrtReal(cs->r[3 * a + 1] * cs->r[3 * a + 1] + cs->r[3 * a + 2] * cs->r[3 * a + 2]);
      PetscReal ut = PetscSqrtReal(cs->u[3 * a + 1] * cs->u[3 * a + 1] + cs->u[3 * a + 2] * cs->u[3 * a + 2]);
      PetscReal un = PetscAbsReal(cs->u[3 * a]) + ut;
      if (!(rn > 1e-10 * rmax) || rn <= 0) cs->status[a] = 0;
      else if (cs->prob->mu[a] > 0 && rt >= (1 - 1e-6) * cs->prob->mu[a] * rn && ut > 1e-8 * PetscMax(un, PETSC_SMALL)) cs->status[a] = 2;
      else if (cs->prob->mu[a] == 0) cs->status[a] = 2; /* frictionless contacts slide freely */
      else cs->status[a] = 1;
      if (cs->status[a]) {
        /* The Newton test compares the set of contacts that carry force: a contact below 1e-6 of
         * the largest force that comes and goes between iterations (a node grazing the surface)
         * changes the residual by less than that, which the residual test already judges. */
        if (rn > 1e-6 * rmax) act[nact++] = cs->key[a];
        st->active++;
        if (cs->status[a] == 1) st->stick++;
        else st->slip++;
      }
      for (int i = 0; i < 3; i++) cs->rforce[3 * a + i] = cs->r[3 * a + i] / rscale;
    }
    PetscCall(PetscSortInt64(nact, act));
    same = (PetscBool)(!cs->first && nact == cs->nact);
    for (PetscInt i = 0; same && i < nact; i++) same = (PetscBool)(act[i] == cs->actkey[i]);
    *changed = (PetscBool)!same;
    PetscCall(PetscFree(cs->actkey));
    cs->actkey = act;
    cs->nact   = nact;
    cs->first  = PETSC_FALSE;
  }
  PetscCall(StabilizationRows_Private(cs));
  {
    PetscInt *perm;
    PetscCall(PetscFree(cs->prevkey));
    PetscCall(PetscFree(cs->prevr));
    PetscCall(PetscMalloc1(m, &cs->prevkey));
    PetscCall(PetscMalloc1(3 * m, &cs->prevr));
    PetscCall(PetscMalloc1(m, &perm));
    for (PetscInt a = 0; a < m; a++) perm[a] = a;
    PetscCall(PetscSortInt64(m, cs->key)); /* keys are unique and detection lists them sorted by pair, then point */
    for (PetscInt a = 0; a < m; a++) {
      cs->prevkey[a] = cs->key[a];
      for (int i = 0; i < 3; i++) cs->prevr[3 * a + i] = cs->r[3 * perm[a] + i];
    }
    cs->nprev = m;
    PetscCall(PetscFree(perm));
  }
  PetscCall(PetscTime(&t1));
  st->time += t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepForget(FcContactStep cs)
{
  PetscFunctionBegin;
  cs->nprev = 0; /* warm start */
  for (PetscInt p = 0; p < cs->npairs; p++) {
    PetscCall(PetscFree(cs->pairs[p].prev)); /* frame continuity */
    cs->pairs[p].nprev = 0;
  }
  cs->nact  = 0;
  cs->first = PETSC_TRUE;
  for (PetscInt b = 0; b < cs->model->nbodies; b++) cs->model->bodies[b]->nstab = 0;
  PetscFunctionReturn(0);
}

/* The view expresses every contact for the pair's first body, contacts[i].body[0] (model.h): a
 * first-pass contact as it is; a second-pass contact (contactor B, its r the force on B, n from A
 * towards B) with the frame flipped to the right-handed (−n, t1, −t2) and r to (r_n, −r_t1, r_t2),
 * so that n points from B towards A and r_n n + r_t1 t1 + r_t2 t2 is the force on A, −(the force on
 * B) by action = reaction. The normal component r_n and the gap keep their value and meaning. */
PetscErrorCode FcContactStepGetView(FcContactStep cs, FcContactView *v)
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < cs->m; a++) {
    const Pair *P = &cs->pairs[cs->pair[a]];
    const int   s = P->reverse ? -1 : 1;
    cs->vpair[a]  = P->casepair;
    for (int k = 0; k < 3; k++) {
      cs->vframe[9 * a + k]     = s * cs->frame[9 * a + k];
      cs->vframe[9 * a + 3 + k] = cs->frame[9 * a + 3 + k];
      cs->vframe[9 * a + 6 + k] = s * cs->frame[9 * a + 6 + k];
    }
    cs->vr[3 * a]     = cs->rforce[3 * a];
    cs->vr[3 * a + 1] = s * cs->rforce[3 * a + 1];
    cs->vr[3 * a + 2] = cs->rforce[3 * a + 2];
  }
  v->m      = cs->m;
  v->x      = cs->xc;
  v->n      = cs->vframe; /* stride 9: n at 9a, t1 at 9a+3, t2 at 9a+6 */
  v->t1     = cs->vframe + 3;
  v->t2     = cs->vframe + 6;
  v->r      = cs->vr;
  v->gap    = cs->gap;
  v->status = cs->status;
  v->pair   = cs->vpair;
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepGetProblem(FcContactStep cs, FcContactProblem *p, const PetscReal **r)
{
  PetscFunctionBegin;
  *p = cs->m ? cs->prob : NULL;
  *r = cs->r;
  PetscFunctionReturn(0);
}
