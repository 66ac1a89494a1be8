/* fcsim — the multi-rate haptic loop on the frozen contact problem (haptic.h, doc/haptic.md). */
#include "haptic.h"
#include "../io/haptic_out.h"
#include "../core/mat3.h"
#include <string.h>

/* the columns of haptic.csv and run.h5:/haptic (doc/output-format.md) */
enum { C_TICK, C_STEP, C_TIME, C_FX, C_FY, C_FZ, C_TX, C_TY, C_TZ, C_PX, C_PY, C_PZ, C_CONTACTS, C_ACTIVE, C_ITERATIONS, C_ERROR, C_EXHAUSTED, C_ENERGY, NCOLS };
static const char *const cols[NCOLS] = {"tick", "step", "time", "fx", "fy", "fz", "tx", "ty", "tz", "px", "py", "pz", "contacts", "active", "iterations", "error", "exhausted", "energy"};

struct _p_FcHaptic {
  const FcCase    *c;
  FcModel         *model;
  PetscInt         tool;     /* body index */
  PetscInt         J;        /* ticks per step, rate·dt */
  FcContactSolver  solver;
  /* the frozen problem of the last step */
  PetscInt         step;
  PetscReal        tn;       /* its time */
  PetscReal        cinc, rscale; /* c and Δ of haptic.h */
  FcContactProblem prob;     /* a copy: q is shifted in place each tick */
  PetscInt         m, cap;
  PetscReal       *q0, *r, *rstep, *u, *frame, *xc, *delta;
  PetscInt        *target;   /* per contact: the target body when it has a prescribed motion, else −1 */
  PetscReal       *dn, *Rn, *dk, *Rk; /* per body: pose at t_n and at the tick (prescribed bodies only) */
  PetscBool       *prescribed;
  /* the previous tick, for the trapezoidal work */
  PetscReal        Fprev[3], Tprev[3], pprev[3], Rprev[9];
  /* outputs */
  PetscInt         nrows, rowcap;
  PetscReal       *rows, *wall;
  PetscInt         nexhausted, nintervals, ngenerating;
  PetscReal        first_exhausted, max_generated, first_generating; /* time of the first tick / interval start */
};

PetscErrorCode FcHapticPrescribedPose(FcBody b, PetscReal t, PetscReal d[3], PetscReal R[9])
{
  const FcCaseMotion *mo = &b->spec->motion;

  PetscFunctionBegin;
  PetscCheck(b->rigid && b->ndof == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %s has no prescribed pose (it has %d DoFs)", b->name, (int)b->ndof);
  switch (mo->type) {
  case FC_MOTION_KINEMATIC:
  case FC_MOTION_TRAJECTORY: /* a kinematic device replay (src/io/trajectory.c, doc/trajectory.md) */
    PetscCall(FcBodyPrescribedPose(b, t, d, R)); /* the pose the body's own steps use */
    break;
  case FC_MOTION_FIXED:
  case FC_MOTION_DYNAMIC: /* without DoFs: a fixed joint, never moves */
    for (int k = 0; k < 3; k++) d[k] = 0;
    FcMat3Identity(R);
    break;
  default:
    /* a new prescribed motion must say where it puts the body, never be taken for a fixed one */
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "body %s: no prescribed pose for motion type %d (add it to FcHapticPrescribedPose, src/run/haptic.c)", b->name, (int)mo->type);
  }
  PetscFunctionReturn(0);
}

/* A rigid body that a prescribed motion moves (not fixed, no DoFs): a candidate tool. */
static PetscBool MovesPrescribed_Private(FcBody b)
{
  return (PetscBool)(b->rigid && b->ndof == 0 && b->spec->motion.type != FC_MOTION_FIXED && b->spec->motion.type != FC_MOTION_DYNAMIC);
}

static PetscErrorCode ChooseTool_Private(const FcCase *c, FcModel *m, PetscInt *tool)
{
  PetscInt n = 0;

  PetscFunctionBegin;
  *tool = -1;
  if (c->haptic.tool[0]) {
    for (PetscInt b = 0; b < m->nbodies; b++)
      if (!strcmp(m->bodies[b]->name, c->haptic.tool)) *tool = b;
    FcCheckInput(*tool >= 0, c->file, "haptic.tool", "no body named \"%s\"", c->haptic.tool);
    FcCheckInput(MovesPrescribed_Private(m->bodies[*tool]), c->file, "haptic.tool", "body \"%s\" is not a rigid body with a prescribed motion (the haptic loop moves the tool by its motion between steps)", c->haptic.tool);
    for (PetscInt i = 0; i < c->ncontacts; i++)
      if (c->contacts[i].body[1] == *tool) n++;
    FcCheckInput(n > 0, c->file, "haptic.tool", "body \"%s\" is the target of no contact pair: the haptic loop would render no force", c->haptic.tool);
    PetscFunctionReturn(0);
  }
  for (PetscInt b = 0; b < m->nbodies; b++) {
    PetscBool target = PETSC_FALSE;
    if (!MovesPrescribed_Private(m->bodies[b])) continue;
    for (PetscInt i = 0; i < c->ncontacts; i++)
      if (c->contacts[i].body[1] == b) target = PETSC_TRUE;
    if (!target) continue;
    if (*tool >= 0) return FcInputError(c->file, "haptic.tool", "bodies \"%s\" and \"%s\" are both rigid tools in contact: name one", m->bodies[*tool]->name, m->bodies[b]->name);
    *tool = b;
  }
  FcCheckInput(*tool >= 0, c->file, "haptic", "no rigid tool in contact: the haptic loop needs a rigid body with a prescribed motion that is the target of a contact pair");
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticCreate(const FcCase *c, FcModel *m, FcHaptic *out)
{
  FcHaptic  h;
  PetscReal J = c->haptic.rate * c->dt;

  PetscFunctionBegin;
  *out = NULL;
  FcCheckInput(J >= 1 - 1e-9, c->file, "haptic.rate", "%g Hz is below the simulation rate 1/time.dt = %g Hz: the haptic loop runs between steps, at least once per step", (double)c->haptic.rate, (double)(1 / c->dt));
  FcCheckInput(PetscAbsReal(J - PetscFloorReal(J + 0.5)) <= 1e-9 * J, c->file, "haptic.rate", "%g Hz times time.dt = %g s is %.6g ticks per step, not an integer: the last tick of a step must fall on the next step", (double)c->haptic.rate, (double)c->dt, (double)J);
  PetscCall(PetscNew(&h));
  h->c      = c;
  h->model  = m;
  h->J      = (PetscInt)PetscFloorReal(J + 0.5);
  h->step   = -1;
  h->first_exhausted = -1;
  h->first_generating = -1;
  {
    PetscErrorCode ierr = ChooseTool_Private(c, m, &h->tool);
    if (ierr) {
      PetscCall(PetscFree(h));
      return ierr;
    }
  }
  *out = h;
  PetscCall(PetscCalloc5(3 * m->nbodies, &h->dn, 9 * m->nbodies, &h->Rn, 3 * m->nbodies, &h->dk, 9 * m->nbodies, &h->Rk, m->nbodies, &h->prescribed));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    h->prescribed[b] = (PetscBool)(m->bodies[b]->rigid && m->bodies[b]->ndof == 0);
    /* every prescribed body has a pose (a motion type without one fails here, before any step) */
    if (h->prescribed[b]) PetscCall(FcHapticPrescribedPose(m->bodies[b], 0.0, &h->dk[3 * b], &h->Rk[9 * b]));
  }
  /* the case's solver, its tolerance and its options; the iteration budget per tick; warm
   * started from the previous tick */
  PetscCall(FcContactSolverCreate(&h->solver));
  PetscCall(FcContactSolverSetType(h->solver, c->contact_solver_type));
  PetscCall(FcContactSolverSetTolerances(h->solver, c->contact_solver_tol, c->haptic.max_iterations));
  PetscCall(FcContactSolverSetMaxError(h->solver, c->contact_solver_max_error));
  PetscCall(FcContactSolverSetFromOptions(h->solver));
  PetscCall(FcContactSolverSetTolerances(h->solver, PETSC_DEFAULT, c->haptic.max_iterations));
  PetscCall(FcContactSolverSetWarmStart(h->solver, PETSC_TRUE));
  /* A dynamic step's frozen problem is a velocity-level one over Δt: W = H A⁻¹ Hᵀ with A the
   * θ-method's M + θΔt(θ_vq Δt + β) K, so a tool displacement between steps meets the block's
   * inertia over Δt too, a stiffer response than the block's (doc/haptic.md §3: 13 % above the
   * next step's force on haptic_sphere with backward Euler). Said once, not hidden. */
  if (c->integrator != FC_INTEGRATOR_QUASI_STATIC) PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "fcsim: warning: %s: haptic: the loop re-solves a dynamic step's frozen problem, whose inertia over time.dt stiffens the rendered force (doc/haptic.md §3); only quasi-static cases are validated\n", c->file));
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticDestroy(FcHaptic *ph)
{
  FcHaptic h = *ph;

  PetscFunctionBegin;
  if (!h) PetscFunctionReturn(0);
  if (h->solver) PetscCall(FcContactSolverDestroy(&h->solver));
  if (h->prob) PetscCall(FcContactProblemDestroy(&h->prob));
  PetscCall(PetscFree5(h->q0, h->r, h->rstep, h->u, h->delta));
  PetscCall(PetscFree3(h->frame, h->xc, h->target));
  PetscCall(PetscFree5(h->dn, h->Rn, h->dk, h->Rk, h->prescribed));
  PetscCall(PetscFree2(h->rows, h->wall));
  PetscCall(PetscFree(*ph));
  PetscFunctionReturn(0);
}

/* V = ½ (c/Δ) rᵀ W r of the frozen problem at r (haptic.h) */
static PetscErrorCode Stored_Private(FcHaptic h, PetscReal *V)
{
  PetscReal s = 0;

  PetscFunctionBegin;
  *V = 0;
  if (!h->m) PetscFunctionReturn(0);
  PetscCall(FcContactProblemComputeVelocity(h->prob, h->r, h->u));
  for (PetscInt i = 0; i < 3 * h->m; i++) s += h->r[i] * (h->u[i] - h->prob->q[i]);
  *V = 0.5 * h->cinc / h->rscale * s;
  PetscFunctionReturn(0);
}

/* Force and torque of the contacts on the tool at r: the generalized force Hᵀr on the tool's
 * rigid DoFs with H frozen at t_n, F = Σ f_a and τ = Σ r_a × f_a with the step's arms
 * r_a = x_a − c − d(t_n) (haptic.h); *active: tool contacts with r_n > 0. */
static void ToolForce_Private(FcHaptic h, PetscReal F[3], PetscReal T[3], PetscInt *active)
{
  const PetscReal *dtool = &h->dn[3 * h->tool];
  const PetscReal *ctr = h->model->bodies[h->tool]->rigid_c;
  *active = 0;
  for (int k = 0; k < 3; k++) F[k] = T[k] = 0;
  for (PetscInt a = 0; a < h->m; a++) {
    const PetscReal *n = &h->frame[9 * a], *r = &h->r[3 * a];
    PetscReal        f[3], arm[3];
    if (h->target[a] != h->tool) continue;
    if (r[0] > 0) (*active)++;
    for (int k = 0; k < 3; k++) {
      f[k]   = -(r[0] * n[k] + r[1] * n[3 + k] + r[2] * n[6 + k]) / h->rscale;
      arm[k] = h->xc[3 * a + k] - ctr[k] - dtool[k];
      F[k] += f[k];
    }
    T[0] += arm[1] * f[2] - arm[2] * f[1];
    T[1] += arm[2] * f[0] - arm[0] * f[2];
    T[2] += arm[0] * f[1] - arm[1] * f[0];
  }
}

static PetscErrorCode Freeze_Private(FcHaptic h, FcContactStep cs, const FcStepInfo *s)
{
  FcModel         *model = h->model;
  const FcCase    *c     = h->c;
  FcContactProblem p;
  const PetscReal *rs;
  FcContactView    v;

  PetscFunctionBegin;
  PetscCall(FcContactStepGetProblem(cs, &p, &rs));
  PetscCall(FcContactStepGetView(cs, &v));
  h->step   = s->step;
  h->tn     = s->t1;
  h->rscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : s->dt;
  h->m      = p ? p->m : 0;
  PetscCall(FcContactSolverFreeze(h->solver, NULL));
  if (h->prob) PetscCall(FcContactProblemDestroy(&h->prob));
  if (h->m > h->cap) {
    PetscCall(PetscFree5(h->q0, h->r, h->rstep, h->u, h->delta));
    PetscCall(PetscFree3(h->frame, h->xc, h->target));
    h->cap = PetscMax(h->m, 2 * h->cap);
    PetscCall(PetscMalloc5(3 * h->cap, &h->q0, 3 * h->cap, &h->r, 3 * h->cap, &h->rstep, 3 * h->cap, &h->u, 3 * h->cap, &h->delta));
    PetscCall(PetscMalloc3(9 * h->cap, &h->frame, 3 * h->cap, &h->xc, h->cap, &h->target));
  }
  h->cinc = 1;
  if (h->m) {
    PetscCall(FcContactProblemConvert(p, FcContactProblemIsSparse(p) ? FC_CONTACT_W_SPARSE : FC_CONTACT_W_DENSE, &h->prob));
    /* the ticks change q alone: W's set-up once per interval, u carried from tick to tick
     * (solver.h FcContactSolverFreeze) */
    PetscCall(FcContactSolverFreeze(h->solver, h->prob));
    PetscCall(PetscArraycpy(h->q0, p->q, 3 * h->m));
    PetscCall(PetscArraycpy(h->r, rs, 3 * h->m));
    PetscCall(PetscArraycpy(h->rstep, rs, 3 * h->m));
    PetscCall(PetscArraycpy(h->frame, v.n, 9 * h->m)); /* v.n: stride 9, n, t1, t2 */
    PetscCall(PetscArraycpy(h->xc, v.x, 3 * h->m));
    for (PetscInt a = 0; a < h->m; a++) {
      const FcCaseContact *cc = &c->contacts[v.pair[a]];
      /* a prescribed body is never a contactor (contacts[i].body[0] is deformable), so a contact
       * on it is a first-pass one, whose view frame is the problem's own (contact_step.c) */
      h->target[a] = h->prescribed[cc->body[1]] ? cc->body[1] : -1;
      h->cinc      = model->bodies[cc->body[0]]->incscale;
      for (int k = 0; k < 3; k++) h->delta[3 * a + k] = 0;
    }
  }
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (h->prescribed[b]) PetscCall(FcHapticPrescribedPose(model->bodies[b], h->tn, &h->dn[3 * b], &h->Rn[9 * b]));
  PetscFunctionReturn(0);
}

static PetscErrorCode AddRow_Private(FcHaptic h, const PetscReal row[NCOLS], PetscReal wall)
{
  PetscFunctionBegin;
  if (h->nrows == h->rowcap) {
    PetscReal *rows, *w;
    PetscInt   cap = PetscMax(1024, 2 * h->rowcap);
    PetscCall(PetscMalloc2(cap * NCOLS, &rows, cap, &w));
    PetscCall(PetscArraycpy(rows, h->rows, h->nrows * NCOLS));
    PetscCall(PetscArraycpy(w, h->wall, h->nrows));
    PetscCall(PetscFree2(h->rows, h->wall));
    h->rows   = rows;
    h->wall   = w;
    h->rowcap = cap;
  }
  PetscCall(PetscArraycpy(&h->rows[h->nrows * NCOLS], row, NCOLS));
  h->wall[h->nrows++] = wall;
  PetscFunctionReturn(0);
}

/* One tick at t: shift q by the prescribed motion since t_n, solve, the tool's force; *E: the
 * work of the contact forces on the tool since the previous tick. */
static PetscErrorCode Tick_Private(FcHaptic h, PetscReal t, PetscReal *E, PetscReal *absE)
{
  FcModel             *model = h->model;
  const PetscInt       tool  = h->tool;
  const PetscReal     *ctr   = model->bodies[tool]->rigid_c;
  FcContactSolverStats st;
  PetscReal            row[NCOLS], F[3], T[3], p[3], dR[9], dth[3], t0, t1;
  PetscInt             active = 0;
  PetscBool            exhausted = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (h->prescribed[b]) PetscCall(FcHapticPrescribedPose(model->bodies[b], t, &h->dk[3 * b], &h->Rk[9 * b]));
  PetscCall(PetscMemzero(&st, sizeof st));
  if (h->m) {
    for (PetscInt a = 0; a < h->m; a++) {
      const PetscInt b = h->target[a];
      PetscReal      D[9], rel[3], *dl = &h->delta[3 * a];
      if (b < 0) continue;
      /* δ = d_k − d_n + (R_k R_nᵀ − I)(x − c − d_n) */
      FcMat3MultNT(&h->Rk[9 * b], &h->Rn[9 * b], D);
      for (int i = 0; i < 3; i++) rel[i] = h->xc[3 * a + i] - model->bodies[b]->rigid_c[i] - h->dn[3 * b + i];
      for (int i = 0; i < 3; i++) {
        dl[i] = h->dk[3 * b + i] - h->dn[3 * b + i] - rel[i];
        for (int j = 0; j < 3; j++) dl[i] += D[3 * i + j] * rel[j];
      }
      for (int i = 0; i < 3; i++) {
        const PetscReal *e = &h->frame[9 * a + 3 * i];
        h->prob->q[3 * a + i] = h->q0[3 * a + i] - (e[0] * dl[0] + e[1] * dl[1] + e[2] * dl[2]) / (i ? h->rscale : h->cinc);
      }
    }
    PetscCall(FcContactSolverSolve(h->solver, h->prob, h->r));
    PetscCall(FcContactSolverGetStats(h->solver, &st));
    exhausted = (PetscBool)!st.converged;
    /* never warm start from a non-finite iterate: back to the step's solution */
    for (PetscInt i = 0; i < 3 * h->m; i++)
      if (PetscIsInfOrNanReal(h->r[i])) {
        PetscCall(PetscArraycpy(h->r, h->rstep, 3 * h->m));
        break;
      }
  }
  ToolForce_Private(h, F, T, &active);
  PetscCall(PetscTime(&t1));
  for (int k = 0; k < 3; k++) p[k] = ctr[k] + h->dk[3 * tool + k];
  FcMat3MultNT(&h->Rk[9 * tool], h->Rprev, dR);
  FcMat3Log(dR, dth);
  *E = 0;
  for (int k = 0; k < 3; k++) *E += 0.5 * (h->Fprev[k] + F[k]) * (p[k] - h->pprev[k]) + 0.5 * (h->Tprev[k] + T[k]) * dth[k];
  *absE = PetscAbsReal(*E);
  if (exhausted) {
    if (!h->nexhausted) h->first_exhausted = t;
    h->nexhausted++;
  }
  row[C_TICK]       = (PetscReal)h->nrows;
  row[C_STEP]       = (PetscReal)h->step;
  row[C_TIME]       = t;
  row[C_CONTACTS]   = (PetscReal)h->m;
  row[C_ACTIVE]     = (PetscReal)active;
  row[C_ITERATIONS] = (PetscReal)st.iterations;
  row[C_ERROR]      = h->m ? st.error : 0.0;
  row[C_EXHAUSTED]  = exhausted ? 1.0 : 0.0;
  row[C_ENERGY]     = *E;
  for (int k = 0; k < 3; k++) {
    row[C_FX + k] = F[k];
    row[C_TX + k] = T[k];
    row[C_PX + k] = p[k];
    h->Fprev[k]   = F[k];
    h->Tprev[k]   = T[k];
    h->pprev[k]   = p[k];
  }
  PetscCall(PetscArraycpy(h->Rprev, &h->Rk[9 * tool], 9));
  PetscCall(AddRow_Private(h, row, t1 - t0));
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticAfterStep(FcHaptic h, FcContactStep cs, const FcStepInfo *s)
{
  const PetscInt tool = h->tool;
  PetscReal      V0, V1, sumE = 0, sumAbs = 0, G, scale;
  PetscInt       active;

  PetscFunctionBegin;
  PetscCall(Freeze_Private(h, cs, s));
  /* tick 0 of the interval: the step's own solution, the tool at t_n */
  ToolForce_Private(h, h->Fprev, h->Tprev, &active);
  for (int k = 0; k < 3; k++) h->pprev[k] = h->model->bodies[tool]->rigid_c[k] + h->dn[3 * tool + k];
  PetscCall(PetscArraycpy(h->Rprev, &h->Rn[9 * tool], 9));
  PetscCall(Stored_Private(h, &V0));
  for (PetscInt j = 1; j <= h->J; j++) {
    PetscReal E, absE;
    PetscCall(Tick_Private(h, h->tn + (s->dt * (PetscReal)j) / (PetscReal)h->J, &E, &absE));
    sumE += E;
    sumAbs += absE;
  }
  PetscCall(Stored_Private(h, &V1));
  G     = sumE + V1 - V0;
  scale = PetscMax(sumAbs, PetscMax(PetscAbsReal(V0), PetscAbsReal(V1)));
  h->nintervals++;
  if (G > h->c->haptic.passivity_rtol * scale && G > 0) {
    if (!h->ngenerating) h->first_generating = h->tn;
    h->ngenerating++;
    h->max_generated = PetscMax(h->max_generated, G);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticFinish(FcHaptic h, const char *dir, PetscBool h5, PetscInt *nexhausted)
{
  const FcCase     *c = h->c;
  const char       *type;
  static const char *const names[] = {"rate", "ticks_per_step", "ticks", "max_iterations", "exhausted", "first_exhausted_time", "intervals", "generating_intervals", "max_generated_energy", "first_generating_time", "passivity_rtol", "strict", "tool_body"};
  PetscReal         values[13];
  FcHapticOutput    o;

  PetscFunctionBegin;
  PetscCall(FcContactSolverGetType(h->solver, &type));
  values[0]  = c->haptic.rate;
  values[1]  = (PetscReal)h->J;
  values[2]  = (PetscReal)h->nrows;
  values[3]  = (PetscReal)c->haptic.max_iterations;
  values[4]  = (PetscReal)h->nexhausted;
  values[5]  = h->first_exhausted;
  values[6]  = (PetscReal)h->nintervals;
  values[7]  = (PetscReal)h->ngenerating;
  values[8]  = h->max_generated;
  values[9]  = h->first_generating;
  values[10] = c->haptic.passivity_rtol;
  values[11] = c->haptic.strict ? 1.0 : 0.0;
  values[12] = (PetscReal)h->tool;
  o.ncols       = NCOLS;
  o.cols        = cols;
  o.nrows       = h->nrows;
  o.values      = h->rows;
  o.wall_time   = h->wall;
  o.nattrs      = 13;
  o.attr_names  = names;
  o.attr_values = values;
  o.solver      = type;
  PetscCall(FcHapticOutputWrite(dir, h5, &o));
  printf("haptic: %d ticks at %g Hz on %s (%s, budget %d iterations): %d exhausted their budget", (int)h->nrows, (double)c->haptic.rate, h->model->bodies[h->tool]->name, type, (int)c->haptic.max_iterations, (int)h->nexhausted);
  if (h->nexhausted) printf(" (first at t = %.9g s)", (double)h->first_exhausted);
  printf("; passivity: %d of %d step intervals generate energy", (int)h->ngenerating, (int)h->nintervals);
  if (h->ngenerating) printf(" (max %.6g J, the first from t = %.9g s)", (double)h->max_generated, (double)h->first_generating);
  printf("\n");
  fflush(stdout);
  if (h->nexhausted) fprintf(stderr, "fcsim: warning: haptic: %d of %d ticks exhausted their budget of %d iterations (haptic.max_iterations)%s\n", (int)h->nexhausted, (int)h->nrows, (int)c->haptic.max_iterations, c->haptic.strict ? ": the run fails (haptic.strict)" : "");
  *nexhausted = h->nexhausted;
  PetscFunctionReturn(0);
}
