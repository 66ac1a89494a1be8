/* fcsim — the θ-method of han2023 eq. 1–11 (theta.h). The operation order of every formula is
 * the one the bodies had when each wrote its own copy: results are bit for bit those. */
#include "theta.h"

void FcThetaFromCase(const FcCase *c, FcTheta *th)
{
  th->theta    = c->integrator == FC_INTEGRATOR_THETA ? c->theta : 1.0;
  th->theta_vq = c->integrator == FC_INTEGRATOR_THETA ? c->theta_vq : 1.0;
}

PetscReal FcThetaTime(const FcTheta *th, PetscReal t0, PetscReal t1) { return th->theta == 1.0 ? t1 : th->theta * t1 + (1.0 - th->theta) * t0; }

PetscReal FcThetaIncrementScale(const FcTheta *th, PetscReal dt) { return dt * th->theta_vq; }

PetscReal FcThetaDisplacement(const FcTheta *th, PetscReal dt, PetscReal v0, PetscReal v) { return dt * (th->theta_vq * v + (1.0 - th->theta_vq) * v0); }

PetscReal FcThetaPosition(const FcTheta *th, PetscReal dt, PetscReal q0, PetscReal v0, PetscReal v) { return q0 + FcThetaDisplacement(th, dt, v0, v); }

PetscReal FcThetaVelocity(const FcTheta *th, PetscReal dt, PetscReal q0, PetscReal v0, PetscReal q)
{
  if (th->theta_vq == 1.0) return (q - q0) / dt;
  return ((q - q0) / dt - (1.0 - th->theta_vq) * v0) / th->theta_vq;
}

/* ∂q^θ/∂v = θ θ_vq Δt and ∂v^θ/∂v = θ in m(v) (eq. 8) give eq. 11. */
void FcThetaMatrixCoefficients(const FcTheta *th, PetscReal dt, PetscReal alpha, PetscReal beta, PetscReal *cM, PetscReal *cK)
{
  *cM = 1.0 + alpha * th->theta * dt;
  *cK = th->theta * dt * (th->theta_vq * dt + beta);
}

PetscErrorCode FcThetaPositionVec(const FcTheta *th, PetscReal dt, Vec q0, Vec v0, Vec v, Vec vq, Vec q)
{
  PetscFunctionBegin;
  if (th->theta_vq == 1.0) PetscCall(VecWAXPY(q, dt, v, q0));
  else {
    PetscCall(VecCopy(v0, vq));
    PetscCall(VecAXPBY(vq, th->theta_vq, 1.0 - th->theta_vq, v));
    PetscCall(VecWAXPY(q, dt, vq, q0));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcThetaPointVec(const FcTheta *th, Vec x0, Vec x, Vec xth)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(x0, xth));
  PetscCall(VecAXPBY(xth, th->theta, 1.0 - th->theta, x));
  PetscFunctionReturn(0);
}
