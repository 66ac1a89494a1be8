/* fcsim — the linearization schemes of the contact step other than "recursive" (issue 28; the
 * recursive-corrective-motion paper, ../shared/papers/recursive-corrective-motion-fast-update.txt,
 * "the paper" below; doc/contact.md "Linearization").
 *
 * recursive (Algorithm 2, contact_step.c): every Newton iteration detects again at its iterate,
 *   rebuilds H, W = Σ H A⁻¹ Hᵀ and corrects the bodies.
 * once (Algorithm 1): the step's first correction detects; the later Newton iterations keep its
 *   contacts, target points and frames, and move each gap by the normal component of the relative
 *   motion since that detection (the gap linearized at the step's start, eq. 15). W is still
 *   rebuilt per Newton iteration, with the kept H, because A changes with a nonlinear material.
 * fast (Algorithm 3): within one correction, W_H = G A⁻¹ Gᵀ is built once (G: the relative
 *   position of each contactor point with respect to its target point in world coordinates, 3
 *   rows per contact, so H = C G with C the block diagonal of the frames, eq. 26–27), through the
 *   case's compliance strategy (exact: solves with A; schur: the participating-DoF Schur
 *   complement; precomputed: the stored participating inverse). Then, per re-linearization k:
 *   W_k = C_k W_H C_kᵀ (eq. 28), the contact solve, the predicted relative positions
 *   p_{k+1} = p_0 + c (w_free + W_H C_kᵀ r_k) (eq. 31, c the displacement per unit of the
 *   increment), and new frames and gaps from the target's geometry at p_{k+1}; until the normals
 *   turn by at most contact_step.tol radians or contact_step.max_it linearizations. The bodies
 *   are corrected once, with the last H_k = C_k G (contact_step.c, Apply_Private).
 *
 * fcsim solves for the total contact force of the correction (not the paper's increments λ_k of
 * eq. 21–22): linearizing the gap at p_k, g(p) ≈ g(p_k) + n_k·(p − p_k) with
 * p − p_k = c W_H (C_kᵀ r_k − f_{k−1}) (f_{k−1} = C_{k−1}ᵀ r_{k−1}), gives
 *     u = C_k W_H C_kᵀ r_k + q_k,   q_{k,n} = g(p_k)/c − n_k·W_H f_{k−1},   q_{k,t} as today,
 * which at k = 0 (p_0 the iterate, f_{−1} = 0) is exactly the recursive scheme's problem, with W
 * computed as C (G A⁻¹ Gᵀ) Cᵀ instead of (C G) A⁻¹ (C G)ᵀ: equal to round-off.
 *
 * What is lagged within a correction by "fast": A (the tangent of a nonlinear material, and the
 * target's place) at the Newton iterate, and G: the target point is moved on the same analytic
 * target, whose placement is fixed within the step (prescribed motion), so G of a contactor node
 * does not change and the re-linearization is exact for that geometry. The outer Newton iterations
 * (time.newton) still re-assemble A and detect again at each iterate. */
#include "contact_impl.h"

/* The targets the schemes can re-linearize from the kept data: once needs the target point as a
 * weighted sum of mesh nodes or a fixed point (not a rigid body with DoFs, whose material point
 * moves with its joint coordinates); fast an analytic shape with prescribed motion (no DoFs, no
 * mesh), whose proximity is a function of the contactor point alone. Checked on every pass the case can make (the
 * case's pairs, first passes then the reverse passes of both_passes pairs, as their indices run),
 * not only on those whose boxes meet at the start: a pass is made by the broad phase when its
 * bodies come near (contact_pairs.h). */
static PetscErrorCode CheckPass_Private(FcContactStep cs, PetscInt casepair, PetscInt a, PetscInt b, PetscBool mortar)
{
  FcModel          *model = cs->model;
  const char       *file  = model->c->file;
  FcBody            A = model->bodies[a], B = model->bodies[b];
  const FcCaseBody *cb   = &model->c->bodies[b];
  const PetscBool   mesh = (PetscBool)(cb->rigid && cb->shape.type == FC_SHAPE_MESH);

  PetscFunctionBegin;
  if (cs->lin == FC_LINEARIZATION_ONCE && FcBodyHasPointJacobian(B))
    return FcInputError(file, "contact_step.linearization",
      "\"once\" cannot keep the contacts on \"%s\" (contact pair %d with \"%s\"): a rigid body with degrees of freedom as a target moves its material points with its joint coordinates; use \"recursive\"",
      FcBodyName(B), (int)casepair, FcBodyName(A));
  if (cs->lin == FC_LINEARIZATION_FAST && (FcBodyNDof(B) || mesh || mortar))
    return FcInputError(file, "contact_step.linearization",
      "\"fast\" needs analytic rigid shapes with prescribed motion as targets (the re-linearization moves only the contactor point); \"%s\" (contact pair %d with \"%s\") is %s; use \"recursive\" or \"once\"",
      FcBodyName(B), (int)casepair, FcBodyName(A),
      FcBodyNDof(B) ? "a body with degrees of freedom"
        : mortar    ? "a mortar target"
                    : "a mesh shape");
  if (cs->lin == FC_LINEARIZATION_FAST && FcBodyHasPointJacobian(A))
    return FcInputError(file, "contact_step.linearization",
      "\"fast\" needs deformable contactors; \"%s\" (contact pair %d) is a rigid body with degrees of freedom; use \"recursive\" or \"once\"", FcBodyName(A),
      (int)casepair);
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepCheckLinearization_Private(FcContactStep cs)
{
  const FcCase *c = cs->model->c;

  PetscFunctionBegin;
  if (cs->lin == FC_LINEARIZATION_RECURSIVE) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact cc = FcCaseContactAt(c, i);
    PetscCall(CheckPass_Private(cs, i, cc.body[0], cc.body[1], cc.mortar));
  }
  for (PetscInt i = 0; i < c->ncontacts; i++) {
    const FcCaseContact cc = FcCaseContactAt(c, i);
    if (cc.both_passes) PetscCall(CheckPass_Private(cs, i, cc.body[1], cc.body[0], cc.mortar));
  }
  PetscFunctionReturn(0);
}

/* Contactor point − target point of contact a at the current places (Xcur refreshed by the
 * caller): the target point is the weighted target nodes when it has them, else xc (a shape
 * with prescribed motion is at its end-of-step place during the whole step). */
static void RelativePosition_Private(FcContactStep cs, PetscInt a, PetscReal d[3])
{
  const FcContactPair *P  = &cs->pairs[cs->pair[a]];
  const PetscReal     *xA = &cs->Xcur[P->A][3 * cs->point[a]];
  for (int k = 0; k < 3; k++) d[k] = xA[k];
  if (cs->Xcur[P->B] && cs->tnodes[FC_CONTACT_MAXT * a] >= 0)
    for (PetscInt j = 0; j < cs->nt[a]; j++)
      for (int k = 0; k < 3; k++) d[k] -= cs->tw[FC_CONTACT_MAXT * a + j] * cs->Xcur[P->B][3 * cs->tnodes[FC_CONTACT_MAXT * a + j] + k];
  else
    for (int k = 0; k < 3; k++) d[k] -= cs->xc[3 * a + k];
}

PetscErrorCode FcContactStepOnceKeep_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  if (cs->xrelcap < cs->m) {
    PetscCall(PetscFree(cs->xrel0));
    cs->xrelcap = cs->m;
    PetscCall(PetscMalloc1(4 * cs->xrelcap, &cs->xrel0));
  }
  for (PetscInt a = 0; a < cs->m; a++) {
    RelativePosition_Private(cs, a, &cs->xrel0[4 * a]);
    cs->xrel0[4 * a + 3] = cs->gap[a];
  }
  PetscFunctionReturn(0);
}

/* g = g₀ + n₀·(d − d₀): the gap of the step's first detection moved linearly (eq. 15). */
PetscErrorCode FcContactStepOnceGaps_Private(FcContactStep cs)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < model->nbodies; b++)
    if (cs->Xcur[b]) PetscCall(FcBodyNodes(model->bodies[b], cs->Xcur[b]));
  for (PetscInt a = 0; a < cs->m; a++) {
    PetscReal d[3], g = cs->xrel0[4 * a + 3];
    RelativePosition_Private(cs, a, d);
    for (int k = 0; k < 3; k++) g += cs->frame[9 * a + k] * (d[k] - cs->xrel0[4 * a + k]);
    cs->gap[a] = g;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactStepLinDestroy_Private(FcContactStep cs)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(cs->xrel0));
  PetscCall(PetscFree(cs->fwork));
  PetscCall(PetscFree2(cs->lastkey, cs->lastnf));
  if (cs->probH) PetscCall(FcContactProblemDestroy(&cs->probH));
  PetscFunctionReturn(0);
}

/* W_H = G A⁻¹ Gᵀ (eq. 28) through the compliance strategy: H built with identity frames is G,
 * every row kept (the world rows mix under the frames C_k), W dense. frames: scratch of 9m. */
static PetscErrorCode BuildWH_Private(FcContactStep cs, PetscReal *frames)
{
  const PetscInt m = cs->m;

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(frames, cs->frame, 9 * m));
  for (PetscInt a = 0; a < m; a++)
    for (int i = 0; i < 9; i++) cs->frame[9 * a + i] = (i % 4 == 0) ? 1.0 : 0.0;
  PetscCall(FcContactStepJacobian_Private(cs));
  for (PetscInt i = 0; i < 3 * m; i++) {
    cs->keep[i] = PETSC_TRUE;
    cs->kcol[i] = i;
  }
  cs->H.nkeep = 3 * m;
  PetscCall(FcComplianceCreateProblem(cs->compliance, &cs->H, FC_CONTACT_W_CHOOSE_DENSE, &cs->probH, NULL));
  if (cs->wh_entries) PetscCall(FcComplianceDelassusEntries(cs->compliance, &cs->H, cs->probH));
  else PetscCall(FcComplianceDelassus(cs->compliance, &cs->H, cs->probH));
  PetscCall(PetscArraycpy(cs->frame, frames, 9 * m));
  PetscFunctionReturn(0);
}

/* W_k = C_k W_H C_kᵀ (eq. 28) on the blocks of cs->prob's pattern (a dense W: every block). */
static void RebuildW_Private(FcContactStep cs)
{
  FcContactProblem p = cs->prob;
  const PetscInt   m = cs->m, n3 = 3 * m;
  const PetscReal *WH = cs->probH->W;

  for (PetscInt a = 0; a < m; a++) {
    const PetscReal *Fa = &cs->frame[9 * a];
    const PetscInt   kb = p->W ? 0 : p->bptr[a], ke = p->W ? m : p->bptr[a + 1];
    for (PetscInt k = kb; k < ke; k++) {
      const PetscInt   a2 = p->W ? k : p->bcol[k];
      const PetscReal *Fb = &cs->frame[9 * a2];
      PetscReal        T[9]; /* W_H(a, a2) F_bᵀ */
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          T[3 * i + j] = 0;
          for (int l = 0; l < 3; l++) T[3 * i + j] += WH[(3 * a + i) * n3 + 3 * a2 + l] * Fb[3 * j + l];
        }
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          PetscReal v = 0;
          for (int l = 0; l < 3; l++) v += Fa[3 * i + l] * T[3 * l + j];
          if (p->W) p->W[(3 * a + i) * n3 + 3 * a2 + j] = v;
          else p->bval[9 * k + 3 * i + j] = v;
        }
    }
  }
}

/* f = Cᵀ r (world forces per contact) and y = W_H f. */
static void WorldForce_Private(FcContactStep cs, PetscReal *f, PetscReal *y)
{
  const PetscInt n3 = 3 * cs->m;
  for (PetscInt a = 0; a < cs->m; a++)
    for (int k = 0; k < 3; k++) {
      f[3 * a + k] = 0;
      for (int i = 0; i < 3; i++) f[3 * a + k] += cs->frame[9 * a + 3 * i + k] * cs->r[3 * a + i];
    }
  for (PetscInt i = 0; i < n3; i++) {
    y[i] = 0;
    for (PetscInt j = 0; j < n3; j++) y[i] += cs->probH->W[i * n3 + j] * f[j];
  }
}

/* The re-linearization at the predicted contactor points x = X + c (w_free + y) (eq. 31): new
 * frames (t1 continued), gaps and target points from the analytic target; *turn the largest angle
 * between old and new normals, *pen the largest predicted penetration. */
static PetscErrorCode Relinearize_Private(FcContactStep cs, const PetscReal *wfree, const PetscReal *y, PetscReal c, PetscReal *nframe, PetscReal *ngap,
  PetscReal *nxc, PetscReal *turn, PetscReal *pen)
{
  FcModel *model = cs->model;

  PetscFunctionBegin;
  *turn = 0;
  *pen  = 0;
  for (PetscInt a = 0; a < cs->m; a++) {
    const FcContactPair *P  = &cs->pairs[cs->pair[a]];
    const PetscReal     *xA = &cs->Xcur[P->A][3 * cs->point[a]];
    PetscReal            x[3], dn = 0;
    FcProximity          pr;
    for (int k = 0; k < 3; k++) x[k] = xA[k] + c * (wfree[3 * a + k] + y[3 * a + k]);
    PetscCall(PetscMemzero(&pr, sizeof pr));
    PetscCall(FcBodyProximity(model->bodies[P->B], x, &cs->frame[9 * a + 3], &pr));
    for (int k = 0; k < 3; k++) {
      nframe[9 * a + k]     = pr.n[k];
      nframe[9 * a + 3 + k] = pr.t1[k];
      nframe[9 * a + 6 + k] = pr.t2[k];
      nxc[3 * a + k]        = pr.xc[k];
      dn += (pr.n[k] - cs->frame[9 * a + k]) * (pr.n[k] - cs->frame[9 * a + k]);
    }
    ngap[a] = pr.gap;
    /* the angle between unit normals, 2 asin(|n' − n|/2): exact to round-off at small angles,
     * where acos(n'·n) loses half the digits */
    *turn = PetscMax(*turn, 2 * PetscAsinReal(PetscMin(1.0, 0.5 * PetscSqrtReal(dn))));
    *pen  = PetscMax(*pen, -pr.gap);
  }
  PetscFunctionReturn(0);
}

/* The rotation of the previous solve's forces into the new frames: r ← C_k C_{k−1}ᵀ r, the warm
 * start of the next re-linearization (the same world force). */
static void RotateForces_Private(FcContactStep cs, const PetscReal *f)
{
  for (PetscInt a = 0; a < cs->m; a++)
    for (int i = 0; i < 3; i++) {
      cs->r[3 * a + i] = 0;
      for (int k = 0; k < 3; k++) cs->r[3 * a + i] += cs->frame[9 * a + 3 * i + k] * f[3 * a + k];
    }
}

PetscErrorCode FcContactStepFast_Private(FcContactStep cs, PetscReal rscale, FcContactStats *st)
{
  FcModel       *model = cs->model;
  const PetscInt m     = cs->m;
  PetscReal     *frames, *nframe, *wfree, *f, *y, *nxc, *ngap, *gap0, *fprev, c = 1, t0, t1, t2;
  PetscBool      monitor = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_newton_monitor", &monitor, NULL));
  if (cs->fcap < m) {
    PetscCall(PetscFree(cs->fwork));
    cs->fcap = m;
    PetscCall(PetscMalloc1(35 * (size_t)m, &cs->fwork));
  }
  frames = cs->fwork;
  nframe = frames + 9 * m;
  wfree  = nframe + 9 * m;
  f      = wfree + 3 * m;
  y      = f + 3 * m;
  nxc    = y + 3 * m;
  ngap   = nxc + 3 * m;
  gap0   = ngap + m;
  fprev  = gap0 + m;
  PetscCall(PetscTime(&t0));
  PetscCall(BuildWH_Private(cs, frames));
  PetscCall(PetscTime(&t1));
  st->wh_time += t1 - t0;
  st->w_time += t1 - t0;
  /* the free relative motion in world coordinates (targets without DoFs: the contactor's) */
  for (PetscInt a = 0; a < m; a++) {
    const PetscScalar *dx;
    Vec                d;
    PetscCall(FcBodyGetIncrement(model->bodies[cs->pairs[cs->pair[a]].A], &d, NULL, &c));
    PetscCall(VecGetArrayRead(d, &dx));
    for (int k = 0; k < 3; k++) wfree[3 * a + k] = dx[3 * cs->point[a] + k];
    PetscCall(VecRestoreArrayRead(d, &dx));
    gap0[a] = cs->gap[a];
  }
  for (PetscInt k = 0;; k++) {
    PetscReal turn, pen;
    PetscCall(PetscTime(&t0));
    PetscCall(FcContactStepJacobian_Private(cs)); /* H_k = C_k G: the pattern, and the final correction */
    if (k == 0) PetscCall(FcComplianceCreateProblem(cs->compliance, &cs->H, cs->wstorage, &cs->prob, &cs->wblocks));
    RebuildW_Private(cs);
    PetscCall(FcContactStepFormQ_Private(cs, rscale));
    FcContactStepWarmStart_Private(cs);
    if (k > 0) RotateForces_Private(cs, f);
    PetscCall(PetscTime(&t1));
    st->w_time += t1 - t0;
    PetscCall(FcContactStepSolve_Private(cs, st));
    PetscCall(PetscTime(&t2));
    st->solve_time += t2 - t1;
    if (k > 0) PetscCall(PetscArraycpy(fprev, f, 3 * m));
    WorldForce_Private(cs, f, y);
    if (k == 0) PetscCall(FcContactStepLinChange_Private(cs, st, PETSC_TRUE)); /* against the previous correction */
    else {
      PetscReal df = 0, ff = 0;
      for (PetscInt i = 0; i < 3 * m; i++) {
        df += (f[i] - fprev[i]) * (f[i] - fprev[i]);
        ff += f[i] * f[i];
      }
      st->lin_dforce = ff > 0 ? PetscSqrtReal(df / ff) : 0;
    }
    PetscCall(Relinearize_Private(cs, wfree, y, c, nframe, ngap, nxc, &turn, &pen));
    st->lin_it++;
    st->lin_turn = turn;
    st->lin_pen  = pen;
    if (monitor)
      PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr,
        "    fast linearization %d: normals turn %.3e rad, predicted penetration %.3e, force change %.3e, contact error %.2e%s\n", (int)k, (double)turn,
        (double)pen, (double)st->lin_dforce, (double)st->error, st->converged ? "" : " (solve not converged)"));
    if (st->failed || (cs->lin_tol > 0 && turn <= cs->lin_tol) || k + 1 >= cs->lin_max_it) break; /* tol 0: always max_it */
    /* re-linearize at p_{k+1}: q_n = g(p_{k+1})/c − n·W_H f_k through FormQ's gap/c + n·w_free */
    PetscCall(PetscArraycpy(cs->frame, nframe, 9 * m));
    PetscCall(PetscArraycpy(cs->xc, nxc, 3 * m));
    for (PetscInt a = 0; a < m; a++) {
      PetscReal s = 0;
      for (int j = 0; j < 3; j++) s += cs->frame[9 * a + j] * (wfree[3 * a + j] + y[3 * a + j]);
      cs->gap[a] = ngap[a] - c * s;
    }
  }
  PetscCall(FcContactStepLinChange_Private(cs, st, PETSC_FALSE)); /* the next correction compares with this one's end */
  /* the gaps reported (the view) stay those of the detection at the iterate, as with recursive */
  PetscCall(PetscArraycpy(cs->gap, gap0, m));
  PetscFunctionReturn(0);
}

/* lin_turn and lin_dforce of this correction against the stored previous one (keys ascending in
 * both lists: a merge) */
static void LinCompare_Private(FcContactStep cs, FcContactStats *st)
{
  PetscReal df = 0, ff = 0;
  PetscInt  j = 0;

  st->lin_turn = 0;
  for (PetscInt a = 0; a < cs->m; a++) {
    PetscReal fa[3], dn = 0;
    for (int k = 0; k < 3; k++) {
      fa[k] = 0;
      for (int i = 0; i < 3; i++) fa[k] += cs->frame[9 * a + 3 * i + k] * cs->r[3 * a + i];
      ff += fa[k] * fa[k];
    }
    while (j < cs->nlast && cs->lastkey[j] < cs->key[a]) j++;
    if (j < cs->nlast && cs->lastkey[j] == cs->key[a]) {
      for (int k = 0; k < 3; k++) {
        dn += (cs->frame[9 * a + k] - cs->lastnf[6 * j + k]) * (cs->frame[9 * a + k] - cs->lastnf[6 * j + k]);
        df += (fa[k] - cs->lastnf[6 * j + 3 + k]) * (fa[k] - cs->lastnf[6 * j + 3 + k]);
      }
      st->lin_turn = PetscMax(st->lin_turn, 2 * PetscAsinReal(PetscMin(1.0, 0.5 * PetscSqrtReal(dn))));
    } else df += fa[0] * fa[0] + fa[1] * fa[1] + fa[2] * fa[2]; /* a new contact: all of its force is change */
  }
  st->lin_dforce = ff > 0 ? PetscSqrtReal(df / ff) : 0;
}

PetscErrorCode FcContactStepLinChange_Private(FcContactStep cs, FcContactStats *st, PetscBool compare)
{
  const PetscInt m = cs->m;

  PetscFunctionBegin;
  if (compare) LinCompare_Private(cs, st);
  if (cs->lastcap < m) {
    PetscCall(PetscFree2(cs->lastkey, cs->lastnf));
    cs->lastcap = m;
    PetscCall(PetscMalloc2(m, &cs->lastkey, 6 * m, &cs->lastnf));
  }
  for (PetscInt a = 0; a < m; a++) {
    cs->lastkey[a] = cs->key[a];
    for (int k = 0; k < 3; k++) {
      cs->lastnf[6 * a + k]     = cs->frame[9 * a + k];
      cs->lastnf[6 * a + 3 + k] = 0;
      for (int i = 0; i < 3; i++) cs->lastnf[6 * a + 3 + k] += cs->frame[9 * a + 3 * i + k] * cs->r[3 * a + i];
    }
  }
  cs->nlast = m;
  PetscFunctionReturn(0);
}
