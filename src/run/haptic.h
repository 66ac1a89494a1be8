/* fcsim — the multi-rate haptic loop on the frozen contact problem (issue 16 item 3;
 * courtecuisse §IV-B and Fig. 1, duriez2006 §7; doc/haptic.md).
 *
 * After every FEM step (t_n, the case's dt) the step's last contact problem u = W r + q is
 * frozen: W, the frames, the contact points and q. Between t_n and t_{n+1}, at ticks
 * t_k = t_n + j/rate (j = 1 .. rate·dt), the free term is shifted by the prescribed motion of
 * every rigid target since t_n (the tool's, and any other prescribed body's):
 *
 *     δ_a = d(t_k) − d(t_n) + (R(t_k) R(t_n)ᵀ − I)(x_a − c − d(t_n))   (the target's material
 *           point at the contact point x_a moves by δ_a; = Δp + Δθ × r_a to first order)
 *     q_a,n  = q⁰_a,n  − n_a·δ_a / c        q_a,ti = q⁰_a,ti − t_i,a·δ_a / Δ
 *
 * (src/step/contact_step.c FormQ: n points from the target towards the contactor, so a target
 * moving by δ closes the gap by n·δ and the relative tangential motion of the contactor changes
 * by −t·δ; c = 1 and Δ = 1 quasi-static — u a displacement, r a force — or c = Δt θ_vq, Δ = Δt
 * in dynamics — u a velocity, r an impulse). The same problem is re-solved with the case's
 * contact solver, warm-started from the previous tick, with at most haptic.max_iterations
 * iterations and the case's tolerance. The rendered force and torque are those the contacts
 * exert on the tool: f_a = −(r_n n + r_t1 t1 + r_t2 t2)_a/Δ (r is the force on the contactor),
 * F = Σ_a f_a and τ = Σ_a r_a × f_a, r_a = x_a − c − d(t_n): the generalized force Hᵀr on the
 * tool's rigid DoFs with H frozen at t_n (the torque about the tool's centre).
 *
 * Passivity: E_k = ½ (F_{k−1} + F_k)·Δp_k + ½ (τ_{k−1} + τ_k)·Δθ_k is the work of the contact
 * forces on the tool over tick k (trapezoidal; tick 0 of an interval is the step's own solution).
 * The frozen problem stores V = ½ (c/Δ) rᵀ W r (the linear spring W between the tool and the
 * block). Over a step interval the loop generates G = Σ_k E_k + V_end − V_start: zero for a
 * frictionless contact whose active set does not change (the trapezoidal rule is exact on a
 * linear spring), negative with friction (dissipation). An interval with
 * G > passivity_rtol·max(Σ|E_k|, V_start, V_end) is reported.
 *
 * A tool driven through the virtual coupling (a free dynamic body with motion.coupling; doc/haptic.md
 * §3b, courtecuisse §IV-B, duriez2006 §7) is integrated between steps at h = dt/J by backward Euler,
 * from the step's state at t_n (never fed back: the next step starts from its own), with the
 * coupling toward the device's target at t_k, gravity, and the contact implicit for it:
 *
 *     W_tick = W_step − G A_dt⁻¹ Gᵀ + (h/Δ)² G A_h⁻¹ Gᵀ
 *     q_tick = q⁰ + G A_dt⁻¹ Gᵀ r_step − F δ^{k−1}/(c, Δ) − (h/Δ) G V_free
 *     V_k    = V_free − (h/Δ) A_h⁻¹ Gᵀ r
 *
 * G_a = F_a J_c(x_a) the frames' action on the tool's six rigid DoFs, A_dt and A_h the tool's Newton
 * matrix (mass/inertia and the coupling's tangent) at dt and at h, δ^{k−1} the tool's displacement
 * since t_n. The device renders −F_c and −τ_c (minus the coupling's force and torque on the tool);
 * the passivity check balances the device's work on the coupling against the energy stored in the
 * spring, the tool and the frozen block (doc/haptic.md §4b). Every step is also replayed by one tick
 * of h = dt from the tool's previous state, which must give the step's tool velocity and contact
 * force (run.h5:/haptic attributes replay_*). Backward Euler only. */
#ifndef FC_HAPTIC_H
#define FC_HAPTIC_H

#include "../step/contact_step.h"
#include "../io/output.h"

typedef struct _p_FcHaptic *FcHaptic;

/* The case's haptic section checked against the model: the rate (≥ 1/dt, rate·dt an integer),
 * the tool (a rigid body with a prescribed motion, or a free one driven through a coupling with
 * backward Euler; the target of some contact pair). Input errors name the case file and
 * haptic.<key> (time.integrator), before anything is written. */
PetscErrorCode FcHapticCreate(const FcCase *c, FcModel *m, FcHaptic *h);
PetscErrorCode FcHapticDestroy(FcHaptic *h);
/* Freeze the contact problem of the step that ended at s->t1 and run the ticks of
 * (s->t1, s->t1 + dt]. */
PetscErrorCode FcHapticAfterStep(FcHaptic h, FcContactStep cs, const FcStepInfo *s);
/* Hand the ticks and counts to the run's output (haptic.csv, and run.h5:/haptic while run.h5 is
 * open), print the summary line (ticks, exhausted budgets, passivity) on stdout; *nexhausted:
 * ticks that exhausted their budget. */
PetscErrorCode FcHapticFinish(FcHaptic h, FcOutput out, PetscInt *nexhausted);

/* Prescribed pose of a rigid body without DoFs at time t: x = c + d + R (X − c)
 * (model.h FcRigidPlace). Fixed: d = 0, R = I; kinematic: the case's displacement and rotation
 * (its drivers, src/drivers/driver.h: motion.translation, motion.angle). A new prescribed motion type (a
 * trajectory log) adds its case here. A body with DoFs is an error (its pose is not prescribed). */
PetscErrorCode FcHapticPrescribedPose(FcBody b, PetscReal t, PetscReal d[3], PetscReal R[9]);

#endif
