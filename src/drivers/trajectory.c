/* fcsim — a device log as a function of time: the pose at t (linear in position, slerp in
 * orientation) and its resampling (trajectory.h). The log is read and validated by
 * src/io/trajectory.c; the bodies and the haptic loop only evaluate it. */
#include "trajectory.h"

/* ---- quaternions (Hamilton convention, q = (w, x, y, z)) ------------------------------------ */

void FcQuaternionMult(const PetscReal a[4], const PetscReal b[4], PetscReal c[4])
{
  PetscReal r[4];
  r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
  r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
  r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
  r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
  for (int k = 0; k < 4; k++) c[k] = r[k];
}

/* Shoemake, "Animating rotation with quaternion curves", SIGGRAPH 1985, eq. for Slerp:
 * q(s) = sin((1-s)θ)/sin θ q0 + sin(sθ)/sin θ q1, cos θ = q0·q1, q1 negated when q0·q1 < 0 (the
 * same rotation, the shorter arc). Below θ ≈ 1.5e-6 (1 - cos θ < 1e-12) the normalized linear
 * interpolation is used: it differs from slerp by O(θ³). */
void FcQuaternionSlerp(const PetscReal q0[4], const PetscReal q1[4], PetscReal s, PetscReal q[4])
{
  PetscReal d = 0, b[4], a0, a1, n = 0;
  for (int k = 0; k < 4; k++) d += q0[k] * q1[k];
  for (int k = 0; k < 4; k++) b[k] = d < 0 ? -q1[k] : q1[k];
  d = PetscAbsReal(d);
  if (d > 1) d = 1;
  if (1 - d < 1e-12) {
    a0 = 1 - s;
    a1 = s;
  } else {
    const PetscReal th = PetscAcosReal(d), st = PetscSinReal(th);
    a0 = PetscSinReal((1 - s) * th) / st;
    a1 = PetscSinReal(s * th) / st;
  }
  for (int k = 0; k < 4; k++) {
    q[k] = a0 * q0[k] + a1 * b[k];
    n += q[k] * q[k];
  }
  n = PetscSqrtReal(n);
  for (int k = 0; k < 4; k++) q[k] /= n;
}

/* ---- evaluation --------------------------------------------------------------------------- */

/* The interval [t_i, t_i+1] holding t: the last i with t_i <= t, at most n - 2. */
static PetscInt Interval_Private(const FcTrajectory *tr, PetscReal t)
{
  PetscInt lo = 0, hi = tr->n - 1;
  while (hi - lo > 1) {
    PetscInt mid = (lo + hi) / 2;
    if (tr->t[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

PetscErrorCode FcTrajectoryEvaluate(const FcTrajectory *tr, PetscReal t, PetscReal p[3], PetscReal q[4], PetscReal v[3], PetscReal w[3], PetscInt *buttons)
{
  PetscInt  i;
  PetscReal h, s, tend;

  PetscFunctionBegin;
  PetscCheck(tr->n >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "trajectory %s: not loaded", tr->file);
  tend = tr->t[tr->n - 1];
  PetscCheck(t >= 0 && t <= tend * (1 + 1e-12), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "trajectory %s: time %g s outside [0, %g] s", tr->file, (double)t,
    (double)tend);
  PetscCheck(!(q || w) || tr->q, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "trajectory %s: the log has no orientation", tr->file);
  i = Interval_Private(tr, t);
  h = tr->t[i + 1] - tr->t[i];
  s = PetscMin((t - tr->t[i]) / h, 1);
  if (p)
    for (int c = 0; c < 3; c++) p[c] = (1 - s) * tr->p[3 * i + c] + s * tr->p[3 * (i + 1) + c];
  if (q) FcQuaternionSlerp(tr->q + 4 * i, tr->q + 4 * (i + 1), s, q);
  if (v)
    for (int c = 0; c < 3; c++) v[c] = (tr->p[3 * (i + 1) + c] - tr->p[3 * i + c]) / h;
  if (w) {
    /* q_{i+1} = dq q_i with dq = exp(h ω / 2) in the world frame: ω = 2 log(dq) / h. */
    PetscReal        qi[4], dq[4], sn, ang;
    const PetscReal *a = tr->q + 4 * i;
    qi[0]              = a[0];
    for (int c = 1; c < 4; c++) qi[c] = -a[c];
    FcQuaternionMult(tr->q + 4 * (i + 1), qi, dq);
    if (dq[0] < 0)
      for (int c = 0; c < 4; c++) dq[c] = -dq[c];
    sn  = PetscSqrtReal(dq[1] * dq[1] + dq[2] * dq[2] + dq[3] * dq[3]);
    ang = 2 * PetscAtan2Real(sn, dq[0]);
    for (int c = 0; c < 3; c++) w[c] = sn > 0 ? ang * dq[c + 1] / sn / h : 0;
  }
  if (buttons) *buttons = tr->buttons ? tr->buttons[(t >= tr->t[i + 1]) ? i + 1 : i] : 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcTrajectoryResample(const FcTrajectory *tr, PetscReal rate, FcTrajectory *out)
{
  PetscInt  m;
  PetscReal tend = tr->t[tr->n - 1];

  PetscFunctionBegin;
  PetscCheck(rate > 0 && PetscIsNormalReal(rate), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
    "trajectory resampling: the rate must be a positive number, not %g", (double)rate);
  PetscCall(PetscMemzero(out, sizeof *out));
  /* t_k = k / rate (not a running sum: no drift); the tolerance keeps the last sample when
   * t_end * rate is an integer up to rounding. */
  m = (PetscInt)PetscFloorReal(tend * rate * (1 + 1e-12)) + 1;
  PetscCheck(m >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "trajectory %s: %g s is shorter than one step at %g Hz", tr->file, (double)tend, (double)rate);
  PetscCall(PetscMemcpy(out, tr, sizeof *out));
  out->t = out->p = out->q = NULL;
  out->buttons             = NULL;
  out->n                   = m;
  out->nduplicates = out->ndropouts = 0;
  out->median_dt = out->max_dt = 1 / rate;
  PetscCall(PetscMalloc2(m, &out->t, 3 * m, &out->p));
  if (tr->q) PetscCall(PetscMalloc1(4 * m, &out->q));
  if (tr->buttons) PetscCall(PetscMalloc1(m, &out->buttons));
  for (PetscInt k = 0; k < m; k++) {
    PetscReal t = PetscMin((PetscReal)k / rate, tend);
    out->t[k]   = (PetscReal)k / rate;
    PetscCall(FcTrajectoryEvaluate(tr, t, out->p + 3 * k, out->q ? out->q + 4 * k : NULL, NULL, NULL, out->buttons ? out->buttons + k : NULL));
    if (out->q && k > 0) {
      PetscReal d = 0;
      for (int c = 0; c < 4; c++) d += out->q[4 * k + c] * out->q[4 * (k - 1) + c];
      if (d < 0)
        for (int c = 0; c < 4; c++) out->q[4 * k + c] = -out->q[4 * k + c];
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcTrajectoryDestroy(FcTrajectory *tr)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(tr->t, tr->p));
  PetscCall(PetscFree(tr->q));
  PetscCall(PetscFree(tr->buttons));
  tr->n = 0;
  PetscFunctionReturn(0);
}
