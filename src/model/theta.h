/* fcsim — the θ-method of han2023 (eq. 1–11), written once for every body (deformable and rigid).
 *
 * With the naught subscript for t0 and none for t1 (eq. 1), the unknown of a dynamic step is
 * x = v(t1), and
 *   q    = q0 + Δt (θ_vq v + (1 − θ_vq) v0)                                   (eq. 4)
 *   q^θ  = θ q + (1 − θ) q0,   v^θ = θ v + (1 − θ) v0,   t^θ = θ t1 + (1 − θ) t0 (eq. 1)
 *   m(v) = M (v − v0) + Δt [f_int(q^θ) + (αM + βK) v^θ − f_ext(t^θ)]         (eq. 5, 6, 8)
 *   A    = ∂m/∂v = (1 + α θ Δt) M + θ Δt (θ_vq Δt + β) K                     (eq. 11)
 * Backward Euler is θ = θ_vq = 1 (duriez2006 eq. 27 in velocity form), midpoint ½, ½, symplectic
 * Euler θ = 0, θ_vq = 1 (doc/dynamics.md). The momentum residual itself is the body's (FEM
 * vectors for a deformable body, a mass and an inertia for a rigid one); the kinematics, the
 * θ-points and the Newton matrix coefficients are these functions. With θ = 1 or θ_vq = 1 they
 * take the operations fcsim used before the general θ-method (t^θ = t1 itself, q = q0 + Δt v by
 * one AXPY), so backward Euler results did not move. */
#ifndef FC_THETA_H
#define FC_THETA_H

#include "../case/case.h"

typedef struct {
  PetscReal theta, theta_vq; /* θ and θ_vq (1, 1: backward Euler) */
} FcTheta;

/* θ, θ_vq of a case: time.theta and time.theta_vq for a THETA integrator (midpoint and
 * symplectic Euler included), else 1, 1 (backward Euler; quasi-static evaluates at t1). */
void FcThetaFromCase(const FcCase *c, FcTheta *th);

/* t^θ = θ t1 + (1 − θ) t0 (t1 itself when θ = 1). */
PetscReal FcThetaTime(const FcTheta *th, PetscReal t0, PetscReal t1);
/* ∂q/∂v = Δt θ_vq: a position increment per increment of the unknown (eq. 4). */
PetscReal FcThetaIncrementScale(const FcTheta *th, PetscReal dt);
/* Δt (θ_vq v + (1 − θ_vq) v0): the position increment over the step (eq. 4). */
PetscReal FcThetaDisplacement(const FcTheta *th, PetscReal dt, PetscReal v0, PetscReal v);
/* q = q0 + Δt (θ_vq v + (1 − θ_vq) v0) (eq. 4). */
PetscReal FcThetaPosition(const FcTheta *th, PetscReal dt, PetscReal q0, PetscReal v0, PetscReal v);
/* Eq. 4 solved for v: the velocity that brings q0 to q over the step (a prescribed position). */
PetscReal FcThetaVelocity(const FcTheta *th, PetscReal dt, PetscReal q0, PetscReal v0, PetscReal q);
/* Coefficients of A = cM M + cK K (eq. 11; α, β: Rayleigh damping of eq. 6). */
void FcThetaMatrixCoefficients(const FcTheta *th, PetscReal dt, PetscReal alpha, PetscReal beta, PetscReal *cM, PetscReal *cK);

/* Vector forms (one DoF per entry). q = q0 + Δt (θ_vq v + (1 − θ_vq) v0) (eq. 4); vq is work
 * space (θ_vq v + (1 − θ_vq) v0; untouched when θ_vq = 1). */
PetscErrorCode FcThetaPositionVec(const FcTheta *th, PetscReal dt, Vec q0, Vec v0, Vec v, Vec vq, Vec q);
/* xθ = θ x + (1 − θ) x0: q^θ or v^θ (eq. 1). */
PetscErrorCode FcThetaPointVec(const FcTheta *th, Vec x0, Vec x, Vec xth);

#endif
