/* fcsim — the multi-rate haptic loop on the frozen contact problem (haptic.h, doc/haptic.md). */
#include "haptic.h"
#include "../io/output.h"
#include "../core/mat3.h"
#include "../model/theta.h"
#include <string.h>

/* the columns of haptic.csv and run.h5:/haptic (doc/output-format.md) */
enum {
  C_TICK,
  C_STEP,
  C_TIME,
  C_FX,
  C_FY,
  C_FZ,
  C_TX,
  C_TY,
  C_TZ,
  C_PX,
  C_PY,
  C_PZ,
  C_CONTACTS,
  C_ACTIVE,
  C_ITERATIONS,
  C_ERROR,
  C_EXHAUSTED,
  C_ENERGY,
  NCOLS
};
static const char *const cols[NCOLS] = {
  "tick", "step", "time", "fx", "fy", "fz", "tx", "ty", "tz", "px", "py", "pz", "contacts", "active", "iterations", "error", "exhausted", "energy"};

struct _p_FcHaptic {
  const FcCase   *c;
  FcModel        *model;
  PetscInt        tool; /* body index */
  PetscInt        J;    /* ticks per step, rate·dt */
  FcContactSolver solver;
  /* the frozen problem of the last step */
  PetscInt         step;
  PetscReal        tn;           /* its time */
  PetscReal        cinc, rscale; /* c and Δ of haptic.h */
  FcContactProblem prob;         /* a copy: q is shifted in place each tick */
  PetscInt         m, cap;
  PetscReal       *q0, *r, *rstep, *u, *frame, *xc, *delta;
  PetscInt        *target;            /* per contact: the target body when it has a prescribed motion, else −1 */
  PetscReal       *dn, *Rn, *dk, *Rk; /* per body: pose at t_n and at the tick (prescribed bodies only) */
  PetscBool       *prescribed;
  PetscReal       *ctr; /* per body: the centre c of its rigid place (FcBodyGetPlace; constant) */
  /* the previous tick, for the trapezoidal work */
  PetscReal Fprev[3], Tprev[3], pprev[3], Rprev[9];
  /* a tool driven through the virtual coupling (haptic.h, doc/haptic.md §3b) */
  PetscBool       coupled;
  FcRigidCoupling cp;
  PetscReal       hk;                            /* the haptic step h = dt/J */
  PetscReal      *G;                             /* per tool contact: G_a = F_a J_c(x_a), 3 × 6 row-major (frame rows × (v, ω)) */
  PetscReal       aht, Ahr[9];                   /* A_h: m + h (B + h K), and (J_w(R_n) + h (B_r + h K_r) I)⁻¹ */
  PetscReal       Vt[6];                         /* the tool's (v, ω) at the last tick (its pose: dk, Rk of the tool) */
  PetscReal       ptprev[3], Rdprev[9];          /* the device's target at the last tick */
  PetscReal       Wdev, Wext;                    /* work of the device on the coupling, and of gravity and the applied force, in the interval */
  PetscReal       dp[3], Rp[9], Vp[6];           /* the tool's state at the previous step, for the replay check */
  PetscInt        nreplay;                       /* steps replayed by one tick of h = dt (doc/haptic.md §3b) */
  PetscReal       rep_dv, rep_dw, rep_df, rep_f; /* their largest |Δv| [m/s], |Δω| [rad/s], |ΔF| [N]; the largest contact force [N] */
  /* outputs */
  PetscInt   nrows, rowcap;
  PetscReal *rows, *wall;
  PetscInt   nexhausted, nintervals, ngenerating;
  PetscReal  first_exhausted, max_generated, first_generating; /* time of the first tick / interval start */
};

PetscErrorCode FcHapticPrescribedPose(FcBody b, PetscReal t, PetscReal d[3], PetscReal R[9])
{
  const FcCaseMotion *mo = &FcBodySpec(b)->motion;

  PetscFunctionBegin;
  PetscCheck(FcBodyNDof(b) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %s has no prescribed pose (it has %d DoFs)", FcBodyName(b), (int)FcBodyNDof(b));
  switch (mo->type) {
  case FC_MOTION_KINEMATIC:
  case FC_MOTION_TRAJECTORY:                     /* a kinematic device replay (src/io/trajectory.c, doc/trajectory.md) */
    PetscCall(FcBodyPrescribedPose(b, t, d, R)); /* the pose the body's own steps use */
    break;
  case FC_MOTION_FIXED:
  case FC_MOTION_DYNAMIC: /* without DoFs: a fixed joint, never moves */
    for (int k = 0; k < 3; k++) d[k] = 0;
    FcMat3Identity(R);
    break;
  default:
    /* a new prescribed motion must say where it puts the body, never be taken for a fixed one */
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "body %s: no prescribed pose for motion type %d (add it to FcHapticPrescribedPose, src/run/haptic.c)",
      FcBodyName(b), (int)mo->type);
  }
  PetscFunctionReturn(0);
}

/* A body that a prescribed motion moves (no DoFs: a rigid body; not fixed), or a free body driven
 * through the virtual coupling (only a rigid body has a motion, and a coupling): a candidate tool. */
static PetscBool MovesPrescribed_Private(FcBody b)
{
  const FcCaseMotion *mo = &FcBodySpec(b)->motion;
  return (PetscBool)(FcBodyNDof(b) == 0 && mo->type != FC_MOTION_FIXED && mo->type != FC_MOTION_DYNAMIC);
}

static PetscBool Coupled_Private(FcBody b)
{
  const FcCaseMotion *mo = &FcBodySpec(b)->motion;
  return (PetscBool)(FcBodyNDof(b) == 6 && mo->type == FC_MOTION_DYNAMIC && mo->coupled);
}

static PetscBool Candidate_Private(FcBody b) { return (PetscBool)(MovesPrescribed_Private(b) || Coupled_Private(b)); }

static PetscErrorCode ChooseTool_Private(const FcCase *c, FcModel *m, PetscInt *tool)
{
  PetscInt n = 0;

  PetscFunctionBegin;
  *tool = -1;
  if (c->haptic.tool[0]) {
    for (PetscInt b = 0; b < m->nbodies; b++)
      if (!strcmp(FcBodyName(m->bodies[b]), c->haptic.tool)) *tool = b;
    FcCheckInput(*tool >= 0, c->file, "haptic.tool", "no body named \"%s\"", c->haptic.tool);
    FcCheckInput(Candidate_Private(m->bodies[*tool]), c->file, "haptic.tool",
      "body \"%s\" is neither a rigid body with a prescribed motion nor a free rigid body driven through a coupling (the haptic loop moves the tool by its motion between steps)",
      c->haptic.tool);
    for (PetscInt i = 0; i < c->ncontacts; i++)
      if (FcCaseContactAt(c, i).body[1] == *tool) n++;
    FcCheckInput(n > 0, c->file, "haptic.tool", "body \"%s\" is the target of no contact pair: the haptic loop would render no force", c->haptic.tool);
    PetscFunctionReturn(0);
  }
  for (PetscInt b = 0; b < m->nbodies; b++) {
    PetscBool target = PETSC_FALSE;
    if (!Candidate_Private(m->bodies[b])) continue;
    for (PetscInt i = 0; i < c->ncontacts; i++)
      if (FcCaseContactAt(c, i).body[1] == b) target = PETSC_TRUE;
    if (!target) continue;
    if (*tool >= 0)
      return FcInputError(
        c->file, "haptic.tool", "bodies \"%s\" and \"%s\" are both rigid tools in contact: name one", FcBodyName(m->bodies[*tool]), FcBodyName(m->bodies[b]));
    *tool = b;
  }
  FcCheckInput(*tool >= 0, c->file, "haptic",
    "no rigid tool in contact: the haptic loop needs a rigid body with a prescribed motion, or a free one driven through a coupling, that is the target of a contact pair");
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticCreate(const FcCase *c, FcModel *m, FcHaptic *out)
{
  FcHaptic  h;
  PetscReal J = c->haptic.rate * c->dt;

  PetscFunctionBegin;
  *out = NULL;
  FcCheckInput(J >= 1 - 1e-9, c->file, "haptic.rate",
    "%g Hz is below the simulation rate 1/time.dt = %g Hz: the haptic loop runs between steps, at least once per step", (double)c->haptic.rate,
    (double)(1 / c->dt));
  FcCheckInput(PetscAbsReal(J - PetscFloorReal(J + 0.5)) <= 1e-9 * J, c->file, "haptic.rate",
    "%g Hz times time.dt = %g s is %.6g ticks per step, not an integer: the last tick of a step must fall on the next step", (double)c->haptic.rate,
    (double)c->dt, (double)J);
  PetscCall(PetscNew(&h));
  h->c                = c;
  h->model            = m;
  h->J                = (PetscInt)PetscFloorReal(J + 0.5);
  h->step             = -1;
  h->first_exhausted  = -1;
  h->first_generating = -1;
  {
    PetscErrorCode ierr = ChooseTool_Private(c, m, &h->tool);
    if (ierr) {
      PetscCall(PetscFree(h));
      return ierr;
    }
  }
  h->coupled = Coupled_Private(m->bodies[h->tool]);
  if (h->coupled) {
    FcTheta th;
    FcThetaFromCase(c, &th);
    /* the tick integrates the tool by backward Euler and reads the frozen problem in the step's
     * units (u_n = g/(Δt θ_vq), u_t = t·(slip since the step's start)/Δt): the two agree on the
     * scaling of a tool's motion only for θ = θ_vq = 1 (doc/haptic.md §3b) */
    if (th.theta != 1 || th.theta_vq != 1) {
      const char *name = FcBodyName(m->bodies[h->tool]);
      PetscCall(PetscFree(h));
      return FcInputError(c->file, "time.integrator",
        "the haptic loop drives the coupled tool \"%s\" by backward Euler between steps: it needs time.integrator \"backward_euler\" (or a kinematic tool)",
        name);
    }
    PetscCall(FcBodyGetCoupling(m->bodies[h->tool], &h->cp));
    {
      FcBody             tb = m->bodies[h->tool];
      const PetscScalar *v;
      FcBodyPlace        pl;
      PetscBool          has;
      PetscCall(FcBodyGetPlace(tb, &pl, &has));
      for (int k = 0; k < 3; k++) h->dp[k] = pl.d1[k];
      for (int k = 0; k < 9; k++) h->Rp[k] = pl.R1[k];
      PetscCall(VecGetArrayRead(FcBodyV(tb), &v));
      for (int k = 0; k < 6; k++) h->Vp[k] = v[k];
      PetscCall(VecRestoreArrayRead(FcBodyV(tb), &v));
    }
  }
  *out = h;
  PetscCall(PetscCalloc5(3 * m->nbodies, &h->dn, 9 * m->nbodies, &h->Rn, 3 * m->nbodies, &h->dk, 9 * m->nbodies, &h->Rk, m->nbodies, &h->prescribed));
  PetscCall(PetscCalloc1(3 * m->nbodies, &h->ctr));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    FcBodyPlace pl;
    PetscBool   has;
    PetscCall(FcBodyGetPlace(m->bodies[b], &pl, &has));
    for (int k = 0; k < 3; k++) h->ctr[3 * b + k] = pl.c[k];
    h->prescribed[b] = (PetscBool)(FcBodyNDof(m->bodies[b]) == 0); /* no DoFs: a prescribed motion */
    /* every prescribed body has a pose (a motion type without one fails here, before any step) */
    if (h->prescribed[b]) PetscCall(FcHapticPrescribedPose(m->bodies[b], 0.0, &h->dk[3 * b], &h->Rk[9 * b]));
  }
  /* the case's solver, its tolerance and its options; the iteration budget per tick; warm
   * started from the previous tick */
  PetscCall(FcContactSolverCreate(&h->solver));
  PetscCall(FcContactSolverSetType(h->solver, c->contact_solver_type));
  PetscCall(FcContactSolverSetTolerances(h->solver, c->contact_solver_tol, c->haptic.max_iterations));
  PetscCall(FcContactSolverSetMaxError(h->solver, c->contact_solver_max_error));
  PetscCall(FcContactSolverSetAcceptRegularized(h->solver, c->contact_solver_accept_regularized));
  PetscCall(FcContactSolverSetFromOptions(h->solver));
  PetscCall(FcContactSolverSetTolerances(h->solver, PETSC_DEFAULT, c->haptic.max_iterations));
  PetscCall(FcContactSolverSetWarmStart(h->solver, PETSC_TRUE));
  /* A dynamic step's frozen problem is a velocity-level one over Δt: W = H A⁻¹ Hᵀ with A the
   * θ-method's M + θΔt(θ_vq Δt + β) K, so a tool displacement between steps meets the block's
   * inertia over Δt too, a stiffer response than the block's (doc/haptic.md §3: 13 % above the
   * next step's force on haptic_sphere with backward Euler). Said once, not hidden. */
  if (c->integrator != FC_INTEGRATOR_QUASI_STATIC && h->coupled)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
      "fcsim: warning: %s: haptic: the loop re-solves a dynamic step's frozen problem, whose inertia over time.dt stiffens the block (doc/haptic.md §3); the coupled tool's bound against the FEM at the haptic rate is measured on the probe case only (doc/haptic.md §5)\n",
      c->file));
  else if (c->integrator != FC_INTEGRATOR_QUASI_STATIC)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
      "fcsim: warning: %s: haptic: the loop re-solves a dynamic step's frozen problem, whose inertia over time.dt stiffens the rendered force (doc/haptic.md §3); only quasi-static cases are validated\n",
      c->file));
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
  PetscCall(PetscFree4(h->frame, h->xc, h->target, h->G));
  PetscCall(PetscFree5(h->dn, h->Rn, h->dk, h->Rk, h->prescribed));
  PetscCall(PetscFree(h->ctr));
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
  const PetscReal *ctr   = &h->ctr[3 * h->tool];
  *active                = 0;
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

/* ---- a tool driven through the virtual coupling (haptic.h; doc/haptic.md §3b) ------------------ */

/* Block (a, b) of W in either storage and its row stride; NULL when the block is not stored. */
static PetscReal *Block_Private(FcContactProblem p, PetscInt a, PetscInt b, PetscInt *ld)
{
  if (p->W) {
    *ld = 3 * p->m;
    return &p->W[3 * a * 3 * p->m + 3 * b];
  }
  *ld = 3;
  for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++)
    if (p->bcol[k] == b) return &p->bval[9 * k];
  return NULL;
}

/* y = A⁻¹ z for A = diag(at I, A_r) given A_r⁻¹ (the tool's step matrix, body_rigid.c) */
static void ApplyInv_Private(PetscReal at, const PetscReal Ari[9], const PetscReal z[6], PetscReal y[6])
{
  for (int i = 0; i < 3; i++) {
    y[i]     = z[i] / at;
    y[3 + i] = Ari[3 * i] * z[3] + Ari[3 * i + 1] * z[4] + Ari[3 * i + 2] * z[5];
  }
}

/* (R diag(Jb) Rᵀ + c I)⁻¹: the rotational block of the tool's step matrix, as BeginStep_RigidFree forms it */
static void RotInv_Private(const PetscReal R[9], const PetscReal Jb[3], PetscReal c, PetscReal inv[9])
{
  PetscReal A[9];
  FcMat3RotateDiag(R, Jb, A);
  for (int k = 0; k < 9; k++) A[k] += k % 4 == 0 ? c : 0.0;
  (void)FcMat3Inv(A, inv);
}

/* z = Σ_a G_aᵀ r_a over the tool's contacts: the generalized impulse of r on the tool's six rigid
 * DoFs with the contactor's sign (the tool gets −z: H_tool = −G, contact_step.c) */
static void ToolImpulse_Private(FcHaptic h, const PetscReal *r, PetscReal z[6])
{
  for (int k = 0; k < 6; k++) z[k] = 0;
  for (PetscInt a = 0; a < h->m; a++) {
    const PetscReal *Ga = &h->G[18 * a];
    if (h->target[a] != h->tool) continue;
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 6; k++) z[k] += Ga[6 * i + k] * r[3 * a + i];
  }
}

/* The device's target at t and its velocities over (t − h, t], from the positions (as the steps
 * take them, never the log's velocities) */
static PetscErrorCode DeviceTarget_Private(
  FcHaptic h, PetscReal t, const PetscReal ptprev[3], const PetscReal Rdprev[9], PetscReal ptgt[3], PetscReal Rdev[9], PetscReal vdev[3], PetscReal wdev[3])
{
  PetscReal dR[9];

  PetscFunctionBegin;
  PetscCall(FcBodyCouplingTarget(h->model->bodies[h->tool], t, ptgt, Rdev));
  FcMat3MultNT(Rdev, Rdprev, dR);
  FcMat3Log(dR, wdev);
  for (int k = 0; k < 3; k++) {
    vdev[k] = (ptgt[k] - ptprev[k]) / h->hk;
    wdev[k] /= h->hk;
  }
  PetscFunctionReturn(0);
}

/* Stored energies at the tool's state (d, R, V) and the device target: kinetic ½ m|v|² + ½ ωᵀ J_w ω
 * and the coupling spring's ½ K |p_tgt − c − d|² + ½ K_r |log(R_dev Rᵀ)|² */
static void ToolEnergy_Private(
  FcHaptic h, const PetscReal ptgt[3], const PetscReal Rdev[9], const PetscReal d[3], const PetscReal R[9], const PetscReal V[6], PetscReal *KE, PetscReal *Vs)
{
  const FcRigidCoupling *cp = &h->cp;
  const PetscReal       *c  = &h->ctr[3 * h->tool];
  PetscReal              J[9], dR[9], phi[3], ke = 0, e2 = 0, p2 = 0;
  FcMat3RotateDiag(R, cp->Jb, J);
  FcMat3MultNT(Rdev, R, dR);
  FcMat3Log(dR, phi);
  for (int i = 0; i < 3; i++) {
    ke += cp->mass * V[i] * V[i];
    for (int j = 0; j < 3; j++) ke += V[3 + i] * J[3 * i + j] * V[3 + j];
    e2 += PetscSqr(ptgt[i] - c[i] - d[i]);
    p2 += phi[i] * phi[i];
  }
  *KE = 0.5 * ke;
  *Vs = 0.5 * (cp->K * e2 + cp->Kr * p2);
}

/* The block's share of the frozen problem's stored energy, ½ (c/Δ) rᵀ W_A r with
 * W_A = W_tick − (h/Δ)² G A_h⁻¹ Gᵀ (the tool's part of W_tick is its own compliance, not a spring) */
static PetscErrorCode BlockStored_Private(FcHaptic h, PetscReal *V)
{
  PetscReal z[6], y[6], zy = 0, s = h->hk / h->rscale;

  PetscFunctionBegin;
  PetscCall(Stored_Private(h, V));
  if (!h->m) PetscFunctionReturn(0);
  ToolImpulse_Private(h, h->r, z);
  ApplyInv_Private(h->aht, h->Ahr, z, y);
  for (int k = 0; k < 6; k++) zy += z[k] * y[k];
  *V -= 0.5 * h->cinc / h->rscale * s * s * zy;
  PetscFunctionReturn(0);
}

/* Freeze the coupled tool with the step's problem (Freeze_Private has copied it): its state at t_n
 * (the step's: the FEM is authoritative, the loop's tool is never fed back), G, A_dt and A_h, the
 * tool-free term q_A and W_tick (doc/haptic.md §3b). */
static PetscErrorCode FreeMotion_Private(
  FcHaptic, PetscReal, const PetscReal[3], const PetscReal[9], const PetscReal[3], const PetscReal[3], PetscReal[6], PetscReal[3]);

/* The consistency check of the tick's algebra: one tick of h = dt from the tool's state at
 * t_{n−1} (dp, Rp, Vp), with the device's target at t_n, on the step's own problem (then
 * W_tick = W_step, A_h = A_dt): the tool's velocity at t_n and the contact force on it must be the
 * step's, up to the linearization of the rotation between two Newton iterates and the solver's
 * tolerance. The largest differences are kept (run.h5:/haptic attributes replay_*). h->prob
 * holds W_step and h->q0 the tool-free q_A when this runs. */
static PetscErrorCode Replay_Private(
  FcHaptic h, const FcStepInfo *s, PetscReal atd, const PetscReal Ard[9], const PetscReal dp[3], const PetscReal Rp[9], const PetscReal Vp[6])
{
  FcBody             tb = h->model->bodies[h->tool];
  const PetscInt     t  = h->tool;
  const PetscReal    dt = s->dt, *dn = &h->dn[3 * t], *Rn = &h->Rn[9 * t];
  PetscReal          hk0, aht0, pt0[3], Rd0[9], ptgt[3], Rdev[9], vdev[3], wdev[3], Vf[6], Fx[3], z[6], zs[6], y[6], D[9], dv = 0, dw = 0, df = 0, fs = 0;
  const PetscScalar *v;

  PetscFunctionBegin;
  hk0    = h->hk;
  aht0   = h->aht;
  h->hk  = dt;
  h->aht = atd;
  PetscCall(PetscArraycpy(&h->dk[3 * t], dp, 3));
  PetscCall(PetscArraycpy(&h->Rk[9 * t], Rp, 9));
  PetscCall(PetscArraycpy(h->Vt, Vp, 6));
  PetscCall(FcBodyCouplingTarget(tb, h->tn - dt, pt0, Rd0));
  PetscCall(DeviceTarget_Private(h, h->tn, pt0, Rd0, ptgt, Rdev, vdev, wdev));
  PetscCall(FreeMotion_Private(h, h->tn, ptgt, Rdev, vdev, wdev, Vf, Fx));
  /* q = q_A − F δ/(c, Δ) − dt G V_free/(c, Δ), δ the displacement from the pose at t_n back to t_{n−1} */
  FcMat3MultNT(Rp, Rn, D);
  for (PetscInt a = 0; a < h->m; a++) {
    PetscReal rel[3], dl[3];
    for (int i = 0; i < 3; i++) h->prob->q[3 * a + i] = h->q0[3 * a + i];
    if (h->target[a] != t) continue;
    for (int i = 0; i < 3; i++) rel[i] = h->xc[3 * a + i] - h->ctr[3 * t + i] - dn[i];
    for (int i = 0; i < 3; i++) {
      dl[i] = dp[i] - dn[i] - rel[i];
      for (int j = 0; j < 3; j++) dl[i] += D[3 * i + j] * rel[j];
    }
    for (int i = 0; i < 3; i++) {
      const PetscReal *e  = &h->frame[9 * a + 3 * i];
      PetscReal        gv = 0;
      for (int k = 0; k < 6; k++) gv += h->G[18 * a + 6 * i + k] * Vf[k];
      h->prob->q[3 * a + i] -= (e[0] * dl[0] + e[1] * dl[1] + e[2] * dl[2] + dt * gv) / (i ? h->rscale : h->cinc);
    }
  }
  PetscCall(PetscArraycpy(h->r, h->rstep, 3 * h->m));
  PetscCall(FcContactSolverSolve(h->solver, h->prob, h->r));
  ToolImpulse_Private(h, h->r, z);
  ToolImpulse_Private(h, h->rstep, zs);
  ApplyInv_Private(atd, Ard, z, y);
  PetscCall(VecGetArrayRead(FcBodyV(tb), &v));
  for (int k = 0; k < 3; k++) {
    dv = PetscMax(dv, PetscAbsReal(Vf[k] - dt / h->rscale * y[k] - v[k]));
    dw = PetscMax(dw, PetscAbsReal(Vf[3 + k] - dt / h->rscale * y[3 + k] - v[3 + k]));
    df += PetscSqr((z[k] - zs[k]) / h->rscale);
    fs += PetscSqr(zs[k] / h->rscale);
  }
  PetscCall(VecRestoreArrayRead(FcBodyV(tb), &v));
  PetscCall(PetscArraycpy(h->r, h->rstep, 3 * h->m));
  h->hk  = hk0;
  h->aht = aht0;
  h->nreplay++;
  h->rep_dv = PetscMax(h->rep_dv, dv);
  h->rep_dw = PetscMax(h->rep_dw, dw);
  h->rep_df = PetscMax(h->rep_df, PetscSqrtReal(df));
  h->rep_f  = PetscMax(h->rep_f, PetscSqrtReal(fs));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreezeCoupled_Private(FcHaptic h, const FcStepInfo *s)
{
  FcBody                 tb = h->model->bodies[h->tool];
  const FcRigidCoupling *cp = &h->cp;
  const PetscInt         t  = h->tool;
  const PetscReal        dt = s->dt, hk = dt / (PetscReal)h->J, s2 = PetscSqr(hk / h->rscale);
  PetscReal              atd, Ard[9], z[6], y[6], dp[3], Rp[9], Vp[6];
  const PetscScalar     *v;
  FcBodyPlace            pl;
  PetscBool              has;

  PetscFunctionBegin;
  /* the state at t_{n−1} for the replay check; the one at t_n for the next */
  PetscCall(PetscArraycpy(dp, h->dp, 3));
  PetscCall(PetscArraycpy(Rp, h->Rp, 9));
  PetscCall(PetscArraycpy(Vp, h->Vp, 6));
  PetscCall(FcBodyGetPlace(tb, &pl, &has));
  PetscCall(PetscArraycpy(h->dp, pl.d1, 3));
  PetscCall(PetscArraycpy(h->Rp, pl.R1, 9));
  PetscCall(VecGetArrayRead(FcBodyV(tb), &v));
  for (int k = 0; k < 6; k++) h->Vp[k] = v[k];
  PetscCall(VecRestoreArrayRead(FcBodyV(tb), &v));
  for (int k = 0; k < 3; k++) h->dn[3 * t + k] = h->dk[3 * t + k] = pl.d1[k];
  for (int k = 0; k < 9; k++) h->Rn[9 * t + k] = h->Rk[9 * t + k] = pl.R1[k];
  PetscCall(VecGetArrayRead(FcBodyV(tb), &v));
  for (int k = 0; k < 6; k++) h->Vt[k] = v[k];
  PetscCall(VecRestoreArrayRead(FcBodyV(tb), &v));
  /* A_dt as the step used it (BeginStep_RigidFree: J_w at the step's start R_{n−1}, still in
   * rigid_R0), A_h at the haptic step with J_w at R_n, frozen for the interval */
  atd = cp->mass + dt * (cp->B + dt * cp->K);
  RotInv_Private(pl.R0, cp->Jb, dt * (cp->Br + dt * cp->Kr), Ard);
  h->aht = cp->mass + hk * (cp->B + hk * cp->K);
  RotInv_Private(pl.R1, cp->Jb, hk * (cp->Br + hk * cp->Kr), h->Ahr);
  /* G_a = F_a J_c(x_a), J_c = [I, −[x_a − c − d_n]×] (doc/rigid.md §2b): row i = (e_i, arm × e_i) */
  for (PetscInt a = 0; a < h->m; a++) {
    PetscReal arm[3];
    if (h->target[a] != t) continue;
    for (int k = 0; k < 3; k++) arm[k] = h->xc[3 * a + k] - h->ctr[3 * t + k] - h->dn[3 * t + k];
    for (int i = 0; i < 3; i++) {
      const PetscReal *e = &h->frame[9 * a + 3 * i];
      PetscReal       *g = &h->G[18 * a + 6 * i];
      for (int k = 0; k < 3; k++) g[k] = e[k];
      g[3] = arm[1] * e[2] - arm[2] * e[1];
      g[4] = arm[2] * e[0] - arm[0] * e[2];
      g[5] = arm[0] * e[1] - arm[1] * e[0];
    }
  }
  if (!h->m) goto ticks;
  /* q_A = q⁰ + G A_dt⁻¹ Gᵀ r_step: the step's free term less the tool's free motion over dt
   * (u = q_A + W_A r − G V at the step's solution, with V = V_free − A_dt⁻¹ Gᵀ r) */
  ToolImpulse_Private(h, h->rstep, z);
  ApplyInv_Private(atd, Ard, z, y);
  for (PetscInt a = 0; a < h->m; a++) {
    if (h->target[a] != t) continue;
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 6; k++) h->q0[3 * a + i] += h->G[18 * a + 6 * i + k] * y[k];
  }
  PetscCall(Replay_Private(h, s, atd, Ard, dp, Rp, Vp));
  /* W_tick = W_step − G A_dt⁻¹ Gᵀ + (h/Δ)² G A_h⁻¹ Gᵀ: only the blocks between two tool contacts.
   * The step's W is exactly symmetric (the solvers test it bit for bit), so the change of block
   * (a, b), a ≤ b, is added transposed to block (b, a), and symmetrized on the diagonal. */
  for (PetscInt b = 0; b < h->m; b++) {
    PetscReal Y[3][6];
    if (h->target[b] != t) continue;
    for (int j = 0; j < 3; j++) {
      const PetscReal *gb = &h->G[18 * b + 6 * j];
      PetscReal        yd[6], yh[6];
      ApplyInv_Private(atd, Ard, gb, yd);
      ApplyInv_Private(h->aht, h->Ahr, gb, yh);
      for (int k = 0; k < 6; k++) Y[j][k] = s2 * yh[k] - yd[k];
    }
    for (PetscInt a = 0; a <= b; a++) {
      PetscInt   ld, ldt;
      PetscReal *blk, *blt, D[9];
      if (h->target[a] != t) continue;
      blk = Block_Private(h->prob, a, b, &ld);
      blt = Block_Private(h->prob, b, a, &ldt);
      PetscCheck(blk && blt, PETSC_COMM_SELF, PETSC_ERR_PLIB, "haptic: block (%d, %d) of two contacts on the tool is not stored in W", (int)a, (int)b);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          D[3 * i + j] = 0;
          for (int k = 0; k < 6; k++) D[3 * i + j] += h->G[18 * a + 6 * i + k] * Y[j][k];
        }
      if (a == b)
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < i; j++) D[3 * i + j] = D[3 * j + i] = 0.5 * (D[3 * i + j] + D[3 * j + i]);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          blk[ld * i + j] += D[3 * i + j];
          if (a != b) blt[ldt * j + i] += D[3 * i + j];
        }
    }
  }
ticks:
  /* the ticks start from the step's state at t_n, with A_h */
  h->hk  = hk;
  h->aht = cp->mass + hk * (cp->B + hk * cp->K);
  for (int k = 0; k < 3; k++) h->dk[3 * t + k] = h->dn[3 * t + k];
  for (int k = 0; k < 9; k++) h->Rk[9 * t + k] = h->Rn[9 * t + k];
  PetscCall(VecGetArrayRead(FcBodyV(tb), &v));
  for (int k = 0; k < 6; k++) h->Vt[k] = v[k];
  PetscCall(VecRestoreArrayRead(FcBodyV(tb), &v));
  PetscFunctionReturn(0);
}

/* The tool's free motion over the tick ending at t (no contact), backward Euler as the steps do it
 * (doc/rigid.md §2b, §2d; the same arithmetic as Residual_RigidFree and Solve_RigidFree):
 *     m (v − v0) − h (F + m g) − h F_c = 0,   J_w (ω − ω0) + h ω0 × J_w ω0 − h τ_c = 0,
 *     d = d0 + h v,  R = exp(h ω) R0,  F_c, τ_c the coupling at t (implicit),
 * J_w = R0 diag(J) R0ᵀ; Newton with the steps' tangent diag(m + h B + h² K, J_w + (h B_r + h² K_r) I),
 * exact in one iteration for the translation. *Fx: F + m g at t. */
static PetscErrorCode FreeMotion_Private(
  FcHaptic h, PetscReal t, const PetscReal ptgt[3], const PetscReal Rdev[9], const PetscReal vdev[3], const PetscReal wdev[3], PetscReal V[6], PetscReal Fx[3])
{
  FcBody                 tb = h->model->bodies[h->tool];
  const FcCaseMotion    *mo = &FcBodySpec(tb)->motion;
  const FcRigidCoupling *cp = &h->cp;
  const PetscReal       *d0 = &h->dk[3 * h->tool], *R0 = &h->Rk[9 * h->tool], *V0 = h->Vt, hk = h->hk;
  const FcTheta          be = {1.0, 1.0};
  PetscReal              Jw[9], Ari[9], Jw0[3], gyro[3], g[3], ramp = FcRampEval(&mo->force_ramp, t);

  PetscFunctionBegin;
  FcMat3RotateDiag(R0, cp->Jb, Jw);
  RotInv_Private(R0, cp->Jb, hk * (cp->Br + hk * cp->Kr), Ari);
  for (int i = 0; i < 3; i++) {
    Jw0[i] = 0;
    for (int j = 0; j < 3; j++) Jw0[i] += Jw[3 * i + j] * V0[3 + j];
  }
  gyro[0] = V0[4] * Jw0[2] - V0[5] * Jw0[1];
  gyro[1] = V0[5] * Jw0[0] - V0[3] * Jw0[2];
  gyro[2] = V0[3] * Jw0[1] - V0[4] * Jw0[0];
  FcDriverEval(&h->c->gravity, t, g);
  for (int k = 0; k < 3; k++) Fx[k] = mo->force[k] * ramp + cp->mass * g[k];
  for (int k = 0; k < 6; k++) V[k] = V0[k];
  for (int it = 0; it < 20; it++) {
    PetscReal d[3], phi[3], E[9], R[9], F[3], T[3], res[6], dV[6], n2 = 0, v2 = 0;
    for (int k = 0; k < 3; k++) {
      d[k]   = FcThetaPosition(&be, hk, d0[k], V0[k], V[k]);
      phi[k] = FcThetaDisplacement(&be, hk, V0[3 + k], V[3 + k]);
    }
    FcMat3Exp(phi, E);
    FcMat3Mult(E, R0, R);
    FcRigidCouplingForce(&h->cp, &h->ctr[3 * h->tool], ptgt, Rdev, vdev, wdev, d, R, V, F, T);
    for (int k = 0; k < 3; k++) {
      PetscReal ai = 0;
      for (int j = 0; j < 3; j++) ai += Jw[3 * k + j] * (V[3 + j] - V0[3 + j]);
      res[k]     = cp->mass * (V[k] - V0[k]) - hk * Fx[k] - hk * F[k];
      res[3 + k] = ai + hk * gyro[k] - hk * T[k];
    }
    for (int k = 0; k < 6; k++) res[k] = -res[k];
    ApplyInv_Private(h->aht, Ari, res, dV);
    for (int k = 0; k < 6; k++) {
      V[k] += dV[k];
      n2 += dV[k] * dV[k];
      v2 += V[k] * V[k];
    }
    if (n2 <= 1e-30 * v2) break; /* |ΔV| ≤ 1e-15 |V|: converged to round-off */
  }
  PetscFunctionReturn(0);
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
    PetscCall(PetscFree4(h->frame, h->xc, h->target, h->G));
    h->cap = PetscMax(h->m, 2 * h->cap);
    PetscCall(PetscMalloc5(3 * h->cap, &h->q0, 3 * h->cap, &h->r, 3 * h->cap, &h->rstep, 3 * h->cap, &h->u, 3 * h->cap, &h->delta));
    PetscCall(PetscMalloc4(9 * h->cap, &h->frame, 3 * h->cap, &h->xc, h->cap, &h->target, 18 * h->cap, &h->G));
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
      const FcCaseContact ct = FcCaseContactAt(c, v.pair[a]), *cc = &ct;
      /* a prescribed body is never a contactor (contacts[i].body[0] is deformable), so a contact
       * on it is a first-pass one, whose view frame is the problem's own (contact_step.c) */
      h->target[a] = h->prescribed[cc->body[1]] || (h->coupled && cc->body[1] == h->tool) ? cc->body[1] : -1;
      PetscCall(FcBodyGetIncrement(model->bodies[cc->body[0]], NULL, NULL, &h->cinc));
      for (int k = 0; k < 3; k++) h->delta[3 * a + k] = 0;
    }
  }
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (h->prescribed[b]) PetscCall(FcHapticPrescribedPose(model->bodies[b], h->tn, &h->dn[3 * b], &h->Rn[9 * b]));
  if (h->coupled) {
    PetscCall(FreezeCoupled_Private(h, s)); /* its replay check solves on W_step, then W becomes W_tick */
    if (h->m) {                             /* the frozen set-up (diagonal blocks, carried u) must be W_tick's */
      PetscCall(FcContactSolverFreeze(h->solver, NULL));
      PetscCall(FcContactSolverFreeze(h->solver, h->prob));
    }
  }
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

/* The tick's contact problem: q shifted by the prescribed bodies' motion since t_n (and a coupled
 * tool's free motion Vf over the tick), solved warm-started from the last tick's r. */
static PetscErrorCode TickSolve_Private(FcHaptic h, const PetscReal Vf[6], FcContactSolverStats *st, PetscBool *exhausted)
{
  const PetscInt tool = h->tool;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < h->m; a++) {
    const PetscInt b = h->target[a];
    PetscReal      D[9], rel[3], *dl = &h->delta[3 * a];
    if (b < 0) continue;
    /* δ = d_k − d_n + (R_k R_nᵀ − I)(x − c − d_n) */
    FcMat3MultNT(&h->Rk[9 * b], &h->Rn[9 * b], D);
    for (int i = 0; i < 3; i++) rel[i] = h->xc[3 * a + i] - h->ctr[3 * b + i] - h->dn[3 * b + i];
    for (int i = 0; i < 3; i++) {
      dl[i] = h->dk[3 * b + i] - h->dn[3 * b + i] - rel[i];
      for (int j = 0; j < 3; j++) dl[i] += D[3 * i + j] * rel[j];
    }
    for (int i = 0; i < 3; i++) {
      const PetscReal *e    = &h->frame[9 * a + 3 * i];
      h->prob->q[3 * a + i] = h->q0[3 * a + i] - (e[0] * dl[0] + e[1] * dl[1] + e[2] * dl[2]) / (i ? h->rscale : h->cinc);
      /* the coupled tool's pose is the last tick's (δ above), and it moves on by h V over this
       * one: V = V_free − (h/Δ) A_h⁻¹ Gᵀ r, whose r-part is in W_tick */
      if (h->coupled && b == tool) {
        PetscReal gv = 0;
        for (int k = 0; k < 6; k++) gv += h->G[18 * a + 6 * i + k] * Vf[k];
        h->prob->q[3 * a + i] -= h->hk * gv / (i ? h->rscale : h->cinc);
      }
    }
  }
  PetscCall(FcContactSolverSolve(h->solver, h->prob, h->r));
  PetscCall(FcContactSolverGetStats(h->solver, st));
  *exhausted = (PetscBool)!st->converged;
  /* never warm start from a non-finite iterate: back to the step's solution */
  for (PetscInt i = 0; i < 3 * h->m; i++)
    if (PetscIsInfOrNanReal(h->r[i])) {
      PetscCall(PetscArraycpy(h->r, h->rstep, 3 * h->m));
      break;
    }
  PetscFunctionReturn(0);
}

/* One tick at t: shift q by the prescribed motion since t_n (a coupled tool: by its motion since
 * t_n and its free motion over the tick), solve, the tool's force; *E: the work of the contact
 * forces on the tool since the previous tick (a coupled tool: the device's work on the coupling),
 * *absE: its magnitude. */
static PetscErrorCode Tick_Private(FcHaptic h, PetscReal t, PetscReal *E, PetscReal *absE)
{
  FcModel             *model = h->model;
  const PetscInt       tool  = h->tool;
  const PetscReal     *ctr   = &h->ctr[3 * tool];
  FcContactSolverStats st;
  PetscReal            row[NCOLS], F[3], T[3], p[3], dR[9], dth[3], t0, t1;
  PetscReal            ptgt[3], Rdev[9], vdev[3], wdev[3], Vf[6], Fx[3];
  PetscInt             active    = 0;
  PetscBool            exhausted = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (h->prescribed[b]) PetscCall(FcHapticPrescribedPose(model->bodies[b], t, &h->dk[3 * b], &h->Rk[9 * b]));
  if (h->coupled) {
    PetscCall(DeviceTarget_Private(h, t, h->ptprev, h->Rdprev, ptgt, Rdev, vdev, wdev));
    PetscCall(FreeMotion_Private(h, t, ptgt, Rdev, vdev, wdev, Vf, Fx));
  }
  PetscCall(PetscMemzero(&st, sizeof st));
  if (h->m) PetscCall(TickSolve_Private(h, Vf, &st, &exhausted));
  ToolForce_Private(h, F, T, &active);
  if (h->coupled) {
    /* the contact impulse on the tool over the tick, −(h/Δ) Gᵀ r, then its pose; the device
     * renders minus the coupling's force on the tool (courtecuisse §IV-B, duriez2006 §7) */
    PetscReal       z[6], y[6], Fc[3], Tc[3], phi[3], E3[9], Rnew[9], Wext = 0, *d = &h->dk[3 * tool], *R = &h->Rk[9 * tool];
    const PetscReal s  = h->hk / h->rscale;
    const FcTheta   be = {1.0, 1.0};
    ToolImpulse_Private(h, h->r, z);
    ApplyInv_Private(h->aht, h->Ahr, z, y);
    for (int k = 0; k < 6; k++) Vf[k] -= s * y[k];
    for (int k = 0; k < 3; k++) {
      PetscReal dnew = FcThetaPosition(&be, h->hk, d[k], h->Vt[k], Vf[k]);
      Wext += Fx[k] * (dnew - d[k]);
      d[k]   = dnew;
      phi[k] = FcThetaDisplacement(&be, h->hk, h->Vt[3 + k], Vf[3 + k]);
    }
    FcMat3Exp(phi, E3);
    FcMat3Mult(E3, R, Rnew);
    PetscCall(PetscArraycpy(R, Rnew, 9));
    PetscCall(PetscArraycpy(h->Vt, Vf, 6));
    FcRigidCouplingForce(&h->cp, &h->ctr[3 * h->tool], ptgt, Rdev, vdev, wdev, d, R, Vf, Fc, Tc);
    PetscCall(PetscTime(&t1));
    /* the device's work on the coupling over the tick (trapezoidal): W = ½ (F_{k−1} + F_k)·Δp_tgt + ½ (τ_{k−1} + τ_k)·Δθ_dev */
    FcMat3MultNT(Rdev, h->Rdprev, dR);
    FcMat3Log(dR, dth);
    *E = 0;
    for (int k = 0; k < 3; k++) *E += 0.5 * (h->Fprev[k] + Fc[k]) * (ptgt[k] - h->ptprev[k]) + 0.5 * (h->Tprev[k] + Tc[k]) * dth[k];
    *absE = PetscAbsReal(*E) + PetscAbsReal(Wext);
    h->Wdev += *E;
    h->Wext += Wext;
    for (int k = 0; k < 3; k++) {
      p[k]         = ctr[k] + d[k];
      F[k]         = 0.0 - Fc[k]; /* the row: force and torque on the device (no "-0") */
      T[k]         = 0.0 - Tc[k];
      h->ptprev[k] = ptgt[k];
    }
    PetscCall(PetscArraycpy(h->Rdprev, Rdev, 9));
    for (int k = 0; k < 3; k++) {
      h->Fprev[k] = Fc[k];
      h->Tprev[k] = Tc[k];
    }
  } else {
    PetscCall(PetscTime(&t1));
    for (int k = 0; k < 3; k++) p[k] = ctr[k] + h->dk[3 * tool + k];
    FcMat3MultNT(&h->Rk[9 * tool], h->Rprev, dR);
    FcMat3Log(dR, dth);
    *E = 0;
    for (int k = 0; k < 3; k++) *E += 0.5 * (h->Fprev[k] + F[k]) * (p[k] - h->pprev[k]) + 0.5 * (h->Tprev[k] + T[k]) * dth[k];
    *absE = PetscAbsReal(*E);
  }
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
    if (!h->coupled) {
      h->Fprev[k] = F[k];
      h->Tprev[k] = T[k];
    }
    h->pprev[k] = p[k];
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
  for (int k = 0; k < 3; k++) h->pprev[k] = h->ctr[3 * tool + k] + h->dn[3 * tool + k];
  PetscCall(PetscArraycpy(h->Rprev, &h->Rn[9 * tool], 9));
  if (h->coupled) {
    /* the coupled tool at t_n: its coupling force (the device's velocity over the haptic step
     * before t_n) and the stored energies: kinetic, the coupling spring's, the block's */
    PetscReal pm[3], Rm[9], vdev[3], wdev[3], KE0, Vs0, Vb0, KE1, Vs1, Vb1;
    PetscCall(FcBodyCouplingTarget(h->model->bodies[tool], h->tn - h->hk, pm, Rm));
    PetscCall(DeviceTarget_Private(h, h->tn, pm, Rm, h->ptprev, h->Rdprev, vdev, wdev));
    FcRigidCouplingForce(&h->cp, &h->ctr[3 * h->tool], h->ptprev, h->Rdprev, vdev, wdev, &h->dn[3 * tool], &h->Rn[9 * tool], h->Vt, h->Fprev, h->Tprev);
    ToolEnergy_Private(h, h->ptprev, h->Rdprev, &h->dn[3 * tool], &h->Rn[9 * tool], h->Vt, &KE0, &Vs0);
    PetscCall(BlockStored_Private(h, &Vb0));
    h->Wdev = h->Wext = 0;
    for (PetscInt j = 1; j <= h->J; j++) {
      PetscReal E, absE;
      PetscCall(Tick_Private(h, h->tn + (s->dt * (PetscReal)j) / (PetscReal)h->J, &E, &absE));
      sumAbs += absE;
    }
    ToolEnergy_Private(h, h->ptprev, h->Rdprev, &h->dk[3 * tool], &h->Rk[9 * tool], h->Vt, &KE1, &Vs1);
    PetscCall(BlockStored_Private(h, &Vb1));
    /* generated: the energy stored at the end less that at the start, less the work put in by
     * the device and by gravity and the applied force (doc/haptic.md §4b); ≤ 0 for a passive loop */
    G     = (KE1 - KE0) + (Vs1 - Vs0) + (Vb1 - Vb0) - h->Wdev - h->Wext;
    scale = PetscMax(sumAbs, PetscMax(PetscMax(KE0, KE1), PetscMax(PetscMax(Vs0, Vs1), PetscMax(PetscAbsReal(Vb0), PetscAbsReal(Vb1)))));
  } else {
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
  }
  h->nintervals++;
  if (G > h->c->haptic.passivity_rtol * scale && G > 0) {
    if (!h->ngenerating) h->first_generating = h->tn;
    h->ngenerating++;
    h->max_generated = PetscMax(h->max_generated, G);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcHapticFinish(FcHaptic h, FcOutput out, PetscInt *nexhausted)
{
  const FcCase            *c = h->c;
  const char              *type;
  static const char *const names[]  = {"rate", "ticks_per_step", "ticks", "max_iterations", "exhausted", "first_exhausted_time", "intervals",
     "generating_intervals", "max_generated_energy", "first_generating_time", "passivity_rtol", "strict", "tool_body"};
  static const char *const cnames[] = {"coupled_tool", "replay_steps", "replay_max_dv", "replay_max_dw", "replay_max_df", "replay_max_force"};
  PetscReal                values[19];
  FcHapticOutput           o;

  PetscFunctionBegin;
  PetscCall(FcContactSolverGetType(h->solver, &type));
  values[0]    = c->haptic.rate;
  values[1]    = (PetscReal)h->J;
  values[2]    = (PetscReal)h->nrows;
  values[3]    = (PetscReal)c->haptic.max_iterations;
  values[4]    = (PetscReal)h->nexhausted;
  values[5]    = h->first_exhausted;
  values[6]    = (PetscReal)h->nintervals;
  values[7]    = (PetscReal)h->ngenerating;
  values[8]    = h->max_generated;
  values[9]    = h->first_generating;
  values[10]   = c->haptic.passivity_rtol;
  values[11]   = c->haptic.strict ? 1.0 : 0.0;
  values[12]   = (PetscReal)h->tool;
  o.ncols      = NCOLS;
  o.cols       = cols;
  o.nrows      = h->nrows;
  o.values     = h->rows;
  o.wall_time  = h->wall;
  o.nattrs     = 13;
  o.attr_names = names;
  if (h->coupled) {
    /* the coupled tool's attributes follow the 13 above */
    static const char *allnames[19];
    for (int k = 0; k < 13; k++) allnames[k] = names[k];
    for (int k = 0; k < 6; k++) allnames[13 + k] = cnames[k];
    values[13]   = 1;
    values[14]   = (PetscReal)h->nreplay;
    values[15]   = h->rep_dv;
    values[16]   = h->rep_dw;
    values[17]   = h->rep_df;
    values[18]   = h->rep_f;
    o.nattrs     = 19;
    o.attr_names = allnames;
  }
  o.attr_values = values;
  o.solver      = type;
  PetscCall(FcOutputWriteHaptic(out, &o));
  printf("haptic: %d ticks at %g Hz on %s (%s, budget %d iterations): %d exhausted their budget", (int)h->nrows, (double)c->haptic.rate,
    FcBodyName(h->model->bodies[h->tool]), type, (int)c->haptic.max_iterations, (int)h->nexhausted);
  if (h->nexhausted) printf(" (first at t = %.9g s)", (double)h->first_exhausted);
  printf("; passivity: %d of %d step intervals generate energy", (int)h->ngenerating, (int)h->nintervals);
  if (h->ngenerating) printf(" (max %.6g J, the first from t = %.9g s)", (double)h->max_generated, (double)h->first_generating);
  if (h->coupled)
    printf("; coupled tool: %d steps replayed by one tick of dt, max |dv| %.3g m/s, |dw| %.3g rad/s, |dF| %.3g N (contact force up to %.3g N)", (int)h->nreplay,
      (double)h->rep_dv, (double)h->rep_dw, (double)h->rep_df, (double)h->rep_f);
  printf("\n");
  fflush(stdout);
  if (h->nexhausted)
    fprintf(stderr, "fcsim: warning: haptic: %d of %d ticks exhausted their budget of %d iterations (haptic.max_iterations)%s\n", (int)h->nexhausted,
      (int)h->nrows, (int)c->haptic.max_iterations, c->haptic.strict ? ": the run fails (haptic.strict)" : "");
  *nexhausted = h->nexhausted;
  PetscFunctionReturn(0);
}
