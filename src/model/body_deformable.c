/* fcsim — deformable body: FEM state, linearized momentum and free-motion solve.
 *
 * Unknown x per integrator (model.h, doc/dynamics.md): quasi-static x = u(t1); dynamics x = v(t1)
 * with the θ-method of han2023 eq. 1–11 (theta.h: q = q0 + dt (θ_vq v + (1 − θ_vq) v0), eq. 4,
 * the θ-points, the Newton matrix coefficients): internal force at q^θ = θ q + (1 − θ) q0,
 * Rayleigh damping at v^θ (eq. 5, 6), momentum residual m(v) = M (v − v0) − dt k(v) (eq. 8) and
 * Newton matrix A = (1 + αθdt) M + θdt (θ_vq dt + β) K (eq. 11). Backward Euler is θ = θ_vq = 1
 * (duriez2006 eq. 27 in velocity form); its operations are kept exactly as they were before the
 * general θ-method (same results bit for bit).
 * Dirichlet conditions are imposed by giving x its prescribed values in the predictor and
 * zeroing the increment on constrained DoFs: rows and columns of A are zeroed with a unit-scaled
 * diagonal (MatZeroRowsColumns), which keeps A symmetric so the Cholesky factorization applies,
 * and keeps its nonzero pattern so the symbolic factorization is reused across steps. A prescribed
 * displacement ū(t1) fixes v on its DoF through eq. 4: v = ((ū − u0)/dt − (1 − θ_vq) v0)/θ_vq,
 * which is why θ_vq = 0 (q independent of v) is rejected. `plane_strain` adds u_z = 0 at every
 * node to the constrained set (han2023 §VII-A). `kinematics: "global_corotational"` (duriez2006
 * §6.2) keeps the same unknowns and matrices but rotates the elastic force with the body and
 * splits every solve into its rigid and elastic parts (Corot* below). */
#include "body_impl.h"
#include "theta.h"
#include "../core/mat3.h"
#include <string.h>

/* FcBodySetChordTangent: the slowest residual reduction per chord iterate kept before K is
 * assembled again (Residual_Deformable). A chord (Newton with a frozen tangent) converges
 * linearly: at a rate r it needs about log(rtol)/log(r) iterates where Newton needs 2-3, so at
 * r = 1/4 (13 iterates for a 1e-8 reduction) the extra residual evaluations and Krylov solves
 * already cost more than the assemblies of K saved. Measured: 0.69 per chord iterate on the
 * quasi-static neo-Hookean press of test_compliance_lagged.py (-fc_lagged_chord true: lagged.c
 * keeps the chord off in quasi-statics);
 * on the Fig. 4 cube (refine 2, 300 steps) every chord iterate reduces by more than 10x: rates
 * 0.1, 0.25 and 0.5 give the same 935 Newton iterations. */
#define FC_CHORD_RATE 0.25

/* Inertia correction (FormMatrix_Private): Wächter & Biegler 2006, Algorithm IC */
#define FC_IC_DELTA_0   1e-4  /* first trial shift, relative to diag(A)/diag(M) */
#define FC_IC_DELTA_MIN 1e-20 /* smallest shift tried */
#define FC_IC_MAX_TRIES 20    /* 1e-4 · 100 · 8^18 ≈ 2e18 diag(A)/diag(M): A + δM is then PD */
#define FC_IC_RHO_0     1e-2  /* first contact-constraint penalty, relative to the mean diagonal of A */
#define FC_IC_RHO_TRIES 4     /* ρ = ρ0 … 1000 ρ0 before falling back to A + δM */
/* PETSc's own Cholesky up to this many DoFs (linear material, one rank). Measured, factorization
 * and solves of one run against MUMPS (-log_view FcFactor + FcSolve): 135 DoFs 0.001 s vs 0.006 s,
 * 423 DoFs 0.008 vs 0.011, 1614 DoFs 0.18 vs 0.047, 2046 DoFs 0.27 vs 0.059 (doc/architecture.md) */
#define FC_SMALL_BODY_DOFS 600

PetscLogEvent FC_EVENT_Assembly, FC_EVENT_Factor, FC_EVENT_Solve, FC_EVENT_Output;
PetscLogStage FC_STAGE_Setup, FC_STAGE_Steps;

typedef struct {
  Mat           M, K, A;
  KSP           ksp;
  Vec           x, dx, r, rfree, fint, fext, work, u0, v0;
  Vec           uth, vth, vq; /* q^θ, v^θ and θ_vq v + (1 − θ_vq) v0 (θ-method, han2023 eq. 1) */
  Vec           fbody[3];     /* ∫ ρ N e_k dV: body force per unit gravity component k */
  const FcCase *c;
  PetscInt      nloads;
  Vec          *fload;  /* unit-ramp load vectors, one per loads[] entry */
  PetscBool     linear; /* K independent of u: assembled once, f_int = K u */
  PetscBool     lagged; /* element frames from u0, the step start (corotational_lagged) */
  FcTheta       th;     /* θ-method parameters (1, 1 for backward Euler) */
  PetscBool     K_assembled;
  PetscBool     Kstep;      /* FcBodySetChordTangent: K assembled in this step */
  PetscReal     chord_last; /* the last residual norm of the step (0: none yet) */
  PetscBool     chord_slow; /* the last iterate reduced it by less than FC_CHORD_RATE */
  PetscBool     A_valid;    /* A holds cM M + cK K for the values below and the current K */
  PetscReal     A_cM, A_cK;
  PetscInt     *bc_entry, *bc_comp; /* per constrained DoF: boundary[] entry (-1: plane strain) and component */
  PetscReal     last_scale;
  PetscReal     cM, cK;     /* A = cM M + cK K for the current integrator and dt */
  IS            schur_is;   /* compliance "schur": participating DoFs (NULL: plain factorization) */
  FcSchur       schur;      /* A factored through its Schur complement onto schur_is */
  PetscBool     inertia;    /* inertia correction on (time.newton.inertia_correction, MUMPS LDLᵀ) */
  PetscReal     shift_last; /* last inertia-correcting shift δ (relative), 0: none yet */
  PetscReal     rho_last;   /* last contact-constraint penalty ρ that made A definite (relative), 0: none yet */
  /* kinematics "global_corotational" (duriez2006 §6.2; Corot* below): rigid modes Φ of the
   * reference configuration about its centre of mass X_G (3 translations, 3 rotations), MΦ,
   * A_r⁻¹ = (Φᵀ M Φ)⁻¹ (the total mass and the inertia tensor about X_G), the co-rotated frame's
   * rotation R (world from reference, row-major) at the step start, scratch. */
  PetscBool corot;
  Vec       phi[6], mphi[6], cwork, e0;
  PetscReal Arinv[36], XG[3], R[9];
} Deformable;

/* q(x): quasi-static q = x; dynamics q = q0 + dt (θ_vq v + (1 − θ_vq) v0) (han2023 eq. 4, the
 * kinematic map N is the identity for a deformable body). */
static PetscErrorCode ModelUAtX_Private(FcBody b, const FcStepInfo *s, Vec u)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) PetscCall(VecCopy(d->x, u));
  else PetscCall(FcThetaPositionVec(&d->th, s->dt, d->u0, d->v0, d->x, d->vq, u));
  PetscFunctionReturn(0);
}

/* Frame source of the internal force: u0 for lagged frames, else the displacement itself. */
static Vec FrameSource_Private(Deformable *d) { return d->lagged ? d->u0 : NULL; }

/* ---- kinematics "global_corotational" (duriez2006 §6.2, eq. 28–30) -------------------------
 *
 * The body's motion is a rigid motion (centre of mass x_G, rotation R) plus a small linear
 * deformation in the co-rotated frame: a node at X is at x = x_G + R (X − X_G + u_d). Its
 * elastic force is the reference stiffness K rotated, f_int = R K (Rᵀ(X + u) − X) (a rigid
 * motion of the whole body gives zero: K annihilates the rigid modes of the reference shape),
 * and its Newton matrix A_R = cM M + cK R K Rᵀ = R A Rᵀ with A = cM M + cK K (the consistent mass
 * matrix has isotropic 3×3 blocks, R M Rᵀ = M), so one factorization of A serves every
 * rotation. R is the rotation of the polar decomposition of Σ_i m_i (x_i − x_G)(X_i − X_G)ᵀ
 * (m_i the lumped masses) at the step start: the rotation that best fits the nodes in the
 * mass-weighted least-squares sense; it is frozen within the step (a lagged frame, like the
 * material corotational_lagged), so f_int is affine in the unknown and Newton's matrix exact.
 *
 * The compliance (velocity per impulse in dynamics, displacement per force quasi-statically) is
 * split as in eq. 30. With Φ the six rigid modes of the reference shape about X_G (translations
 * e_k; rotations e_k × (X − X_G)), A_r = Φᵀ M Φ (total mass and inertia tensor: the mass matrix
 * projected on the rigid modes, eq. 28's A), and P = I − Φ A_r⁻¹ Φᵀ M the M-orthogonal projector
 * on the deformations:
 *
 *     C = R [ Φ (cM A_r)⁻¹ Φᵀ  +  P A⁻¹ Pᵀ ] Rᵀ,      W = Σ H C Hᵀ = J (cM A_r)⁻¹ Jᵀ + Σ H C_d Hᵀ
 *
 * with J = H R Φ the contact Jacobian of the rigid motion (eq. 29) and C_d = R P A⁻¹ Pᵀ Rᵀ the
 * compliance of the deformation with its rigid modes removed: the load is first made
 * self-equilibrated, Pᵀ f = f − M Φ A_r⁻¹ Φᵀ f (the inertia relief of the rigid acceleration),
 * and the deformation is made M-orthogonal to the rigid modes afterwards, so C_d is finite for a
 * free body and carries no rigid motion. In velocity form (dynamics) cM = 1 + α θ dt, so
 * (cM A_r)⁻¹ is eq. 30's (A/Δt²)⁻¹ written for impulses and velocities; quasi-statically cM is the
 * Newton shift time.newton.shift.
 *
 * Since K Φ = 0, A Φ = cM M Φ: the rigid modes are invariant under M⁻¹A, hence A⁻¹ = Φ (cM A_r)⁻¹
 * Φᵀ + P A⁻¹ Pᵀ exactly and C = A_R⁻¹: the split changes no result in exact arithmetic. It
 * changes what round-off does. A's extreme eigenvalues are about cM m_node (rigid modes, mass)
 * and cK k_max (stiffness); a backward-stable solve with A errs by about ε cK k_max/(cM m) ‖x‖
 * along the rigid modes, which swamps the elastic response when cK K ≫ cM M (the quasi-rigid
 * limit, duriez2006 §6.3). Here the rigid part is a 6×6 solve and P removes the rigid component
 * of the solve's error. */

/* The constrained DoFs this rank owns in v's layout: bc_dofs[lo..hi) (bc_dofs is increasing:
 * SetupDirichlet_Private), local index bc_dofs[i] − *rstart. One rank: all of them, rstart 0. */
static PetscErrorCode OwnedBC_Private(FcBody b, Vec v, PetscInt *lo, PetscInt *hi, PetscInt *rstart)
{
  PetscInt rend;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(v, rstart, &rend));
  for (*lo = 0; *lo < b->nbc && b->bc_dofs[*lo] < *rstart; (*lo)++) continue;
  for (*hi = *lo; *hi < b->nbc && b->bc_dofs[*hi] < rend; (*hi)++) continue;
  PetscFunctionReturn(0);
}

/* v ← R_blk v (or R_blkᵀ v), node by node. */
static PetscErrorCode CorotRotate_Private(const PetscReal R[9], PetscBool transpose, Vec v)
{
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArray(v, &a));
  for (PetscInt i = 0; i < n; i += 3) {
    PetscReal y[3] = {a[i], a[i + 1], a[i + 2]};
    for (int r = 0; r < 3; r++)
      a[i + r] = transpose ? R[r] * y[0] + R[3 + r] * y[1] + R[6 + r] * y[2] : R[3 * r] * y[0] + R[3 * r + 1] * y[1] + R[3 * r + 2] * y[2];
  }
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(0);
}

/* A_r⁻¹ by Gauss–Jordan with partial pivoting (A_r is symmetric positive definite for a body
 * with volume). */
static PetscErrorCode CorotInvert6_Private(const char *name, const PetscReal A[36], PetscReal Ainv[36])
{
  PetscReal a[6][12];

  PetscFunctionBegin;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 12; j++) a[i][j] = j < 6 ? A[6 * i + j] : (PetscReal)(j - 6 == i);
  for (int k = 0; k < 6; k++) {
    int p = k;
    for (int i = k + 1; i < 6; i++)
      if (PetscAbsReal(a[i][k]) > PetscAbsReal(a[p][k])) p = i;
    PetscCheck(a[p][k] != 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Body %s: singular mass matrix of the rigid modes", name);
    for (int j = 0; j < 12; j++) {
      PetscReal t = a[k][j];
      a[k][j]     = a[p][j];
      a[p][j]     = t;
    }
    for (int j = 11; j >= k; j--) a[k][j] /= a[k][k];
    for (int i = 0; i < 6; i++)
      if (i != k)
        for (int j = 11; j >= k; j--) a[i][j] -= a[i][k] * a[k][j];
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) Ainv[6 * i + j] = a[i][6 + j];
  PetscFunctionReturn(0);
}

/* Lumped masses m_i (row sums of M, x component of node i at 3i) into d->work; the total. */
static PetscErrorCode CorotLumped_Private(Deformable *d, PetscReal *mass)
{
  PetscFunctionBegin;
  PetscCall(VecSet(d->cwork, 1.0));
  PetscCall(MatMult(d->M, d->cwork, d->work));
  PetscCall(VecSum(d->work, mass));
  *mass /= 3.0;
  PetscFunctionReturn(0);
}

/* Φ, MΦ, A_r⁻¹ and X_G from the reference mesh and M (once). X_G = Σ m_i X_i / m with the lumped
 * masses: 1ᵀ M X = Σ m_i X_i, so it is the consistent mass's centre and A_r has no
 * translation–rotation block. */
static PetscErrorCode CorotSetUp_Private(FcBody b)
{
  Deformable        *d = (Deformable *)b->data;
  PetscReal          Ar[36], mass;
  PetscScalar       *p;
  const PetscScalar *ml;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(b->u, &d->cwork));
  PetscCall(VecDuplicate(b->u, &d->e0));
  PetscCall(VecSet(d->e0, 0.0));
  PetscCall(CorotLumped_Private(d, &mass));
  PetscCall(VecGetArrayRead(d->work, &ml));
  for (int k = 0; k < 3; k++) d->XG[k] = 0;
  for (PetscInt i = 0; i < b->mesh.nnodes; i++)
    for (int k = 0; k < 3; k++) d->XG[k] += ml[3 * i] * b->mesh.X[3 * i + k];
  PetscCall(VecRestoreArrayRead(d->work, &ml));
  for (int k = 0; k < 3; k++) d->XG[k] /= mass;
  for (int k = 0; k < 6; k++) {
    PetscCall(VecDuplicate(b->u, &d->phi[k]));
    PetscCall(VecGetArray(d->phi[k], &p));
    for (PetscInt i = 0; i < b->mesh.nnodes; i++) {
      const PetscReal *X    = &b->mesh.X[3 * i];
      PetscReal        r[3] = {X[0] - d->XG[0], X[1] - d->XG[1], X[2] - d->XG[2]}, e[3] = {0, 0, 0};
      e[k % 3] = 1;
      if (k < 3)
        for (int c = 0; c < 3; c++) p[3 * i + c] = e[c];
      else { /* e × (X − X_G) */ p[3 * i] = e[1] * r[2] - e[2] * r[1];
        p[3 * i + 1]                      = e[2] * r[0] - e[0] * r[2];
        p[3 * i + 2]                      = e[0] * r[1] - e[1] * r[0];
      }
    }
    PetscCall(VecRestoreArray(d->phi[k], &p));
    PetscCall(VecDuplicate(b->u, &d->mphi[k]));
    PetscCall(MatMult(d->M, d->phi[k], d->mphi[k]));
  }
  for (int k = 0; k < 6; k++) PetscCall(VecMDot(d->mphi[k], 6, d->phi, &Ar[6 * k]));
  PetscCall(CorotInvert6_Private(b->name, Ar, d->Arinv));
  for (int k = 0; k < 9; k++) d->R[k] = (PetscReal)(k % 4 == 0);
  PetscFunctionReturn(0);
}

/* R of the step start: the rotation of the polar decomposition of Σ_i m_i (x_i − x_G)(X_i − X_G)ᵀ,
 * x_i = X_i + u0_i. */
static PetscErrorCode CorotFrame_Private(FcBody b)
{
  Deformable        *d = (Deformable *)b->data;
  const PetscScalar *u, *ml;
  PetscReal          F[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, xG[3] = {0, 0, 0}, mass;

  PetscFunctionBegin;
  PetscCall(CorotLumped_Private(d, &mass));
  PetscCall(VecGetArrayRead(d->work, &ml));
  PetscCall(VecGetArrayRead(d->u0, &u));
  for (PetscInt i = 0; i < b->mesh.nnodes; i++)
    for (int k = 0; k < 3; k++) xG[k] += ml[3 * i] * (b->mesh.X[3 * i + k] + u[3 * i + k]);
  for (int k = 0; k < 3; k++) xG[k] /= mass;
  for (PetscInt i = 0; i < b->mesh.nnodes; i++)
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) F[3 * r + c] += ml[3 * i] * (b->mesh.X[3 * i + r] + u[3 * i + r] - xG[r]) * (b->mesh.X[3 * i + c] - d->XG[c]);
  PetscCall(VecRestoreArrayRead(d->u0, &u));
  PetscCall(VecRestoreArrayRead(d->work, &ml));
  PetscCheck(FcMat3Polar(F, d->R), PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "Body %s: no co-rotated frame (the body is inverted)", b->name);
  PetscFunctionReturn(0);
}

/* w ← P w = w − Φ A_r⁻¹ (MΦ)ᵀ w: the rigid-mode part of w removed (M-orthogonally). */
static PetscErrorCode CorotProject_Private(Deformable *d, Vec w)
{
  PetscScalar a[6], c[6];

  PetscFunctionBegin;
  PetscCall(VecMDot(w, 6, d->mphi, a));
  for (int k = 0; k < 6; k++) {
    c[k] = 0;
    for (int l = 0; l < 6; l++) c[k] -= d->Arinv[6 * k + l] * a[l];
  }
  PetscCall(VecMAXPY(w, 6, c, d->phi));
  PetscFunctionReturn(0);
}

/* The deformation in the co-rotated frame, e = P (Rᵀ(x − x_G) − (X − X_G)), is kept as a state of
 * its own (e0 at the step start) and advanced by the displacement increment, never recomputed
 * from the absolute positions: a body that has fallen 5 m has its nodes' positions rounded to
 * 1e-15 m, and K times that noise (E = 1e11 Pa) would be a force far above Newton's tolerance.
 * Within the step e = e0 + P Rᵀ Δu, Δu = frac·(q − q0) with q − q0 = dt (θ_vq v + (1 − θ_vq) v0)
 * in dynamics (han2023 eq. 4, no subtraction of positions) or u − u0 quasi-statically; P removes
 * the rigid part of Δu (and the rotation within the step, which K annihilates anyway). */
static PetscErrorCode CorotDeformation_Private(FcBody b, const FcStepInfo *s, PetscReal frac, Vec e)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) PetscCall(VecWAXPY(e, -1.0, d->u0, d->x));
  else {
    PetscCall(VecCopy(d->th.theta_vq == 1.0 ? d->x : d->vq, e));
    PetscCall(VecScale(e, s->dt));
  }
  PetscCall(VecScale(e, frac));
  PetscCall(CorotRotate_Private(d->R, PETSC_TRUE, e));
  PetscCall(CorotProject_Private(d, e));
  PetscCall(VecAXPY(e, 1.0, d->e0));
  PetscFunctionReturn(0);
}

/* New frame at the step start: e0 ← P (D e0 + (D − I)(X − X_G)), D = R_newᵀ R_old (the deformation
 * seen from the new frame; D − I formed first, so an unchanged frame leaves e0 untouched). */
static PetscErrorCode CorotReframe_Private(FcBody b, const PetscReal Rold[9])
{
  Deformable  *d = (Deformable *)b->data;
  PetscReal    D[9], DmI[9];
  PetscScalar *e;

  PetscFunctionBegin;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      D[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) D[3 * i + j] += d->R[3 * k + i] * Rold[3 * k + j];
      DmI[3 * i + j] = D[3 * i + j] - (i == j);
    }
  PetscCall(VecGetArray(d->e0, &e));
  for (PetscInt n = 0; n < b->mesh.nnodes; n++) {
    PetscReal y[3], Xr[3];
    for (int k = 0; k < 3; k++) Xr[k] = b->mesh.X[3 * n + k] - d->XG[k];
    for (int r = 0; r < 3; r++) {
      y[r] = e[3 * n + r];
      for (int k = 0; k < 3; k++) y[r] += DmI[3 * r + k] * (e[3 * n + k] + Xr[k]);
    }
    for (int r = 0; r < 3; r++) e[3 * n + r] = y[r];
  }
  PetscCall(VecRestoreArray(d->e0, &e));
  PetscCall(CorotProject_Private(d, d->e0));
  PetscFunctionReturn(0);
}

/* f_int = R K e and ½ eᵀ K e, e the deformation at the θ-point (frac = θ) or at t1 (frac = 1). */
static PetscErrorCode CorotInternal_Private(FcBody b, const FcStepInfo *s, PetscReal frac, Vec fint, PetscReal *energy)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  PetscCall(CorotDeformation_Private(b, s, frac, d->cwork));
  PetscCall(MatMult(d->K, d->cwork, fint));
  PetscCall(VecDot(fint, d->cwork, energy));
  *energy *= 0.5;
  PetscCall(CorotRotate_Private(d->R, PETSC_FALSE, fint));
  PetscFunctionReturn(0);
}

/* Before the solve: f ← Pᵀ Rᵀ f (in place) and xi = A_r⁻¹ Φᵀ Rᵀ f, the rigid part's coordinates
 * per unit cM. */
static PetscErrorCode CorotPre_Private(Deformable *d, Vec f, PetscScalar xi[6])
{
  PetscScalar a[6];

  PetscFunctionBegin;
  PetscCall(CorotRotate_Private(d->R, PETSC_TRUE, f));
  PetscCall(VecMDot(f, 6, d->phi, a));
  for (int k = 0; k < 6; k++) {
    xi[k] = 0;
    for (int l = 0; l < 6; l++) xi[k] += d->Arinv[6 * k + l] * a[l];
  }
  for (int k = 0; k < 6; k++) a[k] = -xi[k];
  PetscCall(VecMAXPY(f, 6, a, d->mphi));
  PetscFunctionReturn(0);
}

/* After the solve z = A⁻¹ Pᵀ Rᵀ f: z ← R (P z + Φ xi / cM). */
static PetscErrorCode CorotPost_Private(Deformable *d, const PetscScalar xi[6], Vec z)
{
  PetscScalar a[6], c[6];

  PetscFunctionBegin;
  PetscCall(VecMDot(z, 6, d->mphi, a));
  for (int k = 0; k < 6; k++) {
    c[k] = xi[k] / d->A_cM;
    for (int l = 0; l < 6; l++) c[k] -= d->Arinv[6 * k + l] * a[l];
  }
  PetscCall(VecMAXPY(z, 6, c, d->phi));
  PetscCall(CorotRotate_Private(d->R, PETSC_FALSE, z));
  PetscFunctionReturn(0);
}

static PetscErrorCode BeginStep_Deformable(FcBody b, const FcStepInfo *s)
{
  Deformable        *d = (Deformable *)b->data;
  PetscScalar       *x;
  const PetscScalar *u0, *v0;
  PetscInt           lo, hi, rstart;

  PetscFunctionBegin;
  /* a displacement increment is dt θ_vq times an increment of v (han2023 eq. 4) */
  b->incscale = s->integrator == FC_INTEGRATOR_QUASI_STATIC ? 1.0 : FcThetaIncrementScale(&d->th, s->dt);
  PetscCall(VecCopy(b->u, d->u0));
  PetscCall(VecCopy(b->v, d->v0));
  if (d->lagged && d->th.theta != 0.0) d->A_valid = PETSC_FALSE; /* new frames, new K */
  d->Kstep      = PETSC_FALSE;
  d->chord_last = 0;
  d->chord_slow = PETSC_FALSE;
  if (d->corot) { /* R of the co-rotated frame, frozen in the step */
    PetscReal Rold[9];
    for (int k = 0; k < 9; k++) Rold[k] = d->R[k];
    PetscCall(CorotFrame_Private(b));
    PetscCall(CorotReframe_Private(b, Rold));
  }
  /* Predictor: quasi-static keeps u0; dynamics starts from v0. */
  PetscCall(VecCopy(s->integrator == FC_INTEGRATOR_QUASI_STATIC ? d->u0 : d->v0, d->x));
  PetscCall(VecGetArray(d->x, &x));
  PetscCall(VecGetArrayRead(d->u0, &u0));
  PetscCall(VecGetArrayRead(d->v0, &v0));
  PetscCall(OwnedBC_Private(b, d->x, &lo, &hi, &rstart));
  for (PetscInt i = lo; i < hi; i++) {
    /* plane strain (bc_entry -1): u_z = 0 */
    PetscReal val = d->bc_entry[i] < 0 ? 0.0 : FcDriverComponent(&b->spec->boundary[d->bc_entry[i]].u, d->bc_comp[i], s->t1);
    PetscInt  k   = b->bc_dofs[i] - rstart;
    if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) x[k] = val;
    else x[k] = FcThetaVelocity(&d->th, s->dt, u0[k], v0[k], val); /* han2023 eq. 4 solved for v */
  }
  PetscCall(VecRestoreArrayRead(d->v0, &v0));
  PetscCall(VecRestoreArrayRead(d->u0, &u0));
  PetscCall(VecRestoreArray(d->x, &x));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExternalForce_Private(FcBody b, PetscReal t)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   g[3];

  PetscFunctionBegin;
  FcDriverEval(&d->c->gravity, t, g);
  PetscCall(VecSet(d->fext, 0.0));
  for (int k = 0; k < 3; k++)
    if (g[k] != 0) PetscCall(VecAXPY(d->fext, g[k], d->fbody[k]));
  for (PetscInt l = 0; l < d->nloads; l++) PetscCall(VecAXPY(d->fext, FcRampEval(&b->spec->loads[l].ramp, t), d->fload[l]));
  PetscFunctionReturn(0);
}

/* A = cM M + cK K with the constrained rows/columns replaced by a scaled identity (not factored). */
static PetscErrorCode BuildMatrix_Private(FcBody b, PetscReal cM, PetscReal cK, PetscReal rho)
{
  Deformable *d    = (Deformable *)b->data;
  PetscReal   diag = 1.0;
  Vec         dg;

  PetscFunctionBegin;
  PetscCall(MatCopy(d->K, d->A, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(d->A, cK));
  if (cM != 0) PetscCall(MatAXPY(d->A, cM, d->M, SAME_NONZERO_PATTERN));
  if (rho > 0) { /* + ρ Σ_a h_a h_aᵀ: a row's DoFs are one node's or one face's, inside A's pattern */
    PetscMPIInt rank;
    /* several ranks: every rank holds the same rows in the mesh's numbering (doc/mpi.md
     * "Contact"); rank 0 adds them once, through PETSc's stash, in the distributed numbering */
    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)d->A), &rank));
    for (PetscInt sr = 0; sr < b->nstab && !rank; sr++)
      for (PetscInt k = b->stab_ptr[sr]; k < b->stab_ptr[sr + 1]; k++)
        for (PetscInt l = b->stab_ptr[sr]; l < b->stab_ptr[sr + 1]; l++) {
          const PetscInt i = b->part_n2d ? b->part_n2d[b->stab_dof[k]] : b->stab_dof[k], j = b->part_n2d ? b->part_n2d[b->stab_dof[l]] : b->stab_dof[l];
          PetscCall(MatSetValue(d->A, i, j, rho * b->stab_val[k] * b->stab_val[l], ADD_VALUES));
        }
    PetscCall(MatAssemblyBegin(d->A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(d->A, MAT_FINAL_ASSEMBLY));
  }
  /* The identity on constrained DoFs is scaled to the mean diagonal so the factorization's
   * pivots stay of one magnitude. */
  PetscCall(MatCreateVecs(d->A, &dg, NULL));
  PetscCall(MatGetDiagonal(d->A, dg));
  PetscCall(VecNorm(dg, NORM_1, &diag));
  diag = diag > 0 ? diag / b->ndof : 1.0;
  PetscCall(VecDestroy(&dg));
  PetscCall(MatZeroRowsColumns(d->A, b->nbc, b->bc_dofs, diag, NULL, NULL));
  PetscFunctionReturn(0);
}

/* Number of negative eigenvalues of the factored A (MUMPS LDLᵀ: the negative pivots, INFOG(12),
 * by Sylvester's law of inertia); -1 when the factorization in use cannot tell (a user -pc_type
 * or -pc_factor_mat_solver_type other than Cholesky by MUMPS, or MUMPS on several ranks without
 * -mat_mumps_icntl_13 1). */
static PetscErrorCode NegativeEigenvalues_Private(Deformable *d, PetscInt *nneg)
{
  PC            pc;
  Mat           F;
  PetscBool     chol;
  MatSolverType st;

  PetscFunctionBegin;
  *nneg = -1;
  PetscCall(KSPGetPC(d->ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  if (!chol) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatSolverType(pc, &st));
  if (!st || strcmp(st, MATSOLVERMUMPS)) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatrix(pc, &F));
  {
    /* distributed: MUMPS counts the global negative pivots only with ICNTL(13) = 1 (no
     * ScaLAPACK root node), which PETSc requires for MatGetInertia; otherwise no check */
    PetscMPIInt size;
    PetscInt    icntl13 = 1;
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)F), &size));
    if (size > 1) PetscCall(MatMumpsGetIcntl(F, 13, &icntl13));
    if (icntl13 != 1) PetscFunctionReturn(0);
  }
  PetscCall(MatGetInertia(F, nneg, NULL, NULL));
  PetscFunctionReturn(0);
}

/* On several ranks MUMPS counts the negative pivots of the whole matrix only with ICNTL(13) = 1
 * (the root node factored on one process, not by ScaLAPACK: the MUMPS 5 user's guide, ICNTL(13)
 * and INFOG(12)); without it the inertia correction would silently see nothing. Set before the
 * first factorization unless the user chose ICNTL(13); nothing on one rank (the count is exact
 * there). */
static PetscErrorCode InertiaOnRanks_Private(Deformable *d)
{
  PC            pc;
  Mat           F;
  MatSolverType st;
  PetscMPIInt   size;
  PetscBool     chol, set;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)d->ksp), &size));
  if (size == 1) PetscFunctionReturn(0);
  PetscCall(KSPGetPC(d->ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  if (!chol) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatSolverType(pc, &st));
  if (!st || strcmp(st, MATSOLVERMUMPS)) PetscFunctionReturn(0);
  PetscCall(PetscOptionsHasName(NULL, NULL, "-mat_mumps_icntl_13", &set));
  if (set) PetscFunctionReturn(0);
  PetscCall(PCFactorSetUpMatSolverType(pc));
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(MatMumpsSetIcntl(F, 13, 1));
  PetscFunctionReturn(0);
}

/* Form and factor A = cM M + cK K. With the inertia correction on, an A with negative
 * eigenvalues is replaced by a positive definite one, in two ways (doc/architecture.md,
 * "Indefinite Newton matrices"):
 *
 * 1. A + ρ Σ_a h_a h_aᵀ, h_a the normal rows of H of the contacts active in the last contact
 *    correction (set by the contact step). K is typically indefinite only in modes the contacts
 *    hold: a body pressed by frictionless plates is unstable under the same forces applied as
 *    dead loads. At a stable constrained equilibrium K is positive definite on the null space of
 *    the active H (second-order sufficiency), hence K + ρ H_Aᵀ H_A is positive definite for ρ
 *    large enough (Finsler's lemma; the augmented Lagrangian's term, Bertsekas, Constrained
 *    Optimization and Lagrange Multiplier Methods, 1982, §2.1). Where the contact solve makes the
 *    same contacts active, H_A Δx = c_A and the increment is unchanged — the Newton increment of
 *    the constrained problem (the multipliers absorb ρ (H_A Δx)) — so Newton keeps its quadratic
 *    rate. ρ = 1e-2, 1e-1, … (4 values, starting from the last one that worked) times the mean
 *    diagonal of A.
 * 2. If that is not enough (no active contact, or modes no contact holds): A + δ M with δ the
 *    smallest of the inertia-correction sequence of Wächter & Biegler, Math. Program. 106
 *    (2006), §3.1 (Algorithm IC), M in place of the identity — a modified Newton step, linear
 *    rate.
 *
 * A positive definite A keeps W = H A⁻¹ Hᵀ positive semidefinite (a convex contact problem)
 * and the Newton direction a descent direction of the energy. The residual, hence the
 * converged state, is the unmodified one. */
static PetscErrorCode FormMatrix_Private(FcBody b, PetscReal cM, PetscReal cK)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   t0, t1, delta = 0, unit = 0, rho = 0, rhounit = 0;
  PetscInt    nneg, tries = 0, rtries = 0;

  PetscFunctionBegin;
  if (d->A_valid && d->A_cM == cM && d->A_cK == cK) PetscFunctionReturn(0);
  for (;;) {
    PetscCall(PetscTime(&t0));
    PetscCall(PetscLogEventBegin(FC_EVENT_Assembly, 0, 0, 0, 0));
    PetscCall(BuildMatrix_Private(b, cM + delta * unit, cK, rho * rhounit));
    PetscCall(PetscLogEventEnd(FC_EVENT_Assembly, 0, 0, 0, 0));
    PetscCall(PetscTime(&t1));
    b->times.assembly += t1 - t0;

    PetscCall(PetscLogEventBegin(FC_EVENT_Factor, 0, 0, 0, 0));
    if (d->schur_is) { /* one MUMPS factorization with the Schur IS serves the free solve, W and the correction */
      if (!d->schur) PetscCall(FcSchurCreate(d->A, d->schur_is, &d->schur));
      else PetscCall(FcSchurUpdate(d->schur, d->A));
    } else {
      PetscCall(KSPSetOperators(d->ksp, d->A, d->A));
      if (d->inertia && !d->A_valid) PetscCall(InertiaOnRanks_Private(d));
      PetscCall(KSPSetUp(d->ksp));
    }
    PetscCall(PetscLogEventEnd(FC_EVENT_Factor, 0, 0, 0, 0));
    PetscCall(PetscTime(&t0));
    b->times.factor += t0 - t1;
    if (!d->inertia || d->schur_is) break;
    PetscCall(NegativeEigenvalues_Private(d, &nneg));
    if (nneg <= 0) break;
    if (unit == 0) { /* mean diagonals of A and M */
      PetscReal dK, dM;
      Vec       dg;
      PetscCall(MatCreateVecs(d->M, &dg, NULL));
      PetscCall(MatGetDiagonal(d->M, dg));
      PetscCall(VecNorm(dg, NORM_1, &dM));
      PetscCall(MatGetDiagonal(d->K, dg));
      PetscCall(VecNorm(dg, NORM_1, &dK));
      PetscCall(VecDestroy(&dg));
      rhounit = (PetscAbsReal(cK) * dK + PetscAbsReal(cM) * dM) / b->ndof;
      unit    = rhounit * b->ndof / dM;
    }
    b->refactors++;
    if (b->nstab > 0 && rtries < FC_IC_RHO_TRIES) { /* 1: the active contacts' penalty */
      rho = rtries++ == 0 ? (d->rho_last > 0 ? d->rho_last : FC_IC_RHO_0) : 10.0 * rho;
      continue;
    }
    rho = 0; /* 2: A + δM */
    PetscCheck(tries < FC_IC_MAX_TRIES, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED,
      "Body %s: the Newton matrix stays indefinite (%d negative eigenvalues) after %d inertia-correcting shifts, the last %g x diag(A)/diag(M)", b->name,
      (int)nneg, (int)tries, (double)delta);
    /* Algorithm IC: first δ = max(δ_min, δ_last/3), or δ_0 when no shift was needed before,
     * then δ ← 8δ (100δ while no shift has ever worked). δ is relative to the ratio of the mean
     * diagonals of A and M, so it does not depend on the units, the mesh or the material. */
    if (tries++ == 0) delta = d->shift_last > 0 ? PetscMax(FC_IC_DELTA_MIN, d->shift_last / 3.0) : FC_IC_DELTA_0;
    else delta *= d->shift_last > 0 ? 8.0 : 100.0;
  }
  if (delta > 0) {
    d->shift_last = delta;
    b->shift      = PetscMax(b->shift, delta);
  }
  if (rho > 0) {
    d->rho_last = rho;
    b->penalty  = PetscMax(b->penalty, rho);
  }
  d->A_valid = PETSC_TRUE;
  d->A_cM    = cM;
  d->A_cK    = cK;
  if (!d->corot) b->opstate++; /* a new A⁻¹ (model.h); the co-rotated solves also apply R: untracked */
  PetscFunctionReturn(0);
}

static PetscErrorCode Residual_Deformable(FcBody b, const FcStepInfo *s, PetscReal *rnorm, PetscReal *scale)
{
  Deformable     *d = (Deformable *)b->data;
  PetscReal       t0, t1, nint, next, cM, cK;
  const PetscBool qs = (PetscBool)(s->integrator == FC_INTEGRATOR_QUASI_STATIC);
  /* θ-method intermediate quantities (han2023 eq. 1); θ = 1 (quasi-static, backward Euler)
   * evaluates everything at t1 with the very vectors used before the θ-method existed. */
  const PetscReal theta = qs ? 1.0 : d->th.theta;
  Vec             u = b->ucur, uth = u, vth = d->x;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FC_EVENT_Assembly, 0, 0, 0, 0));
  PetscCall(ModelUAtX_Private(b, s, u));
  if (theta != 1.0) {
    uth = d->uth; /* q^θ = θ q + (1 − θ) q0 */
    PetscCall(FcThetaPointVec(&d->th, d->u0, u, uth));
    vth = d->vth; /* v^θ = θ v + (1 − θ) v0 */
    PetscCall(FcThetaPointVec(&d->th, d->v0, d->x, vth));
  }
  if (d->linear) {
    if (!d->K_assembled) {
      PetscCall(FcAssembleInternal(&b->mesh, b->material, u, NULL, NULL, d->K)); /* overwrites K */
      d->K_assembled = PETSC_TRUE;
    }
    if (d->corot) PetscCall(CorotInternal_Private(b, s, qs ? 1.0 : d->th.theta, d->fint, &b->strain_energy));
    else {
      PetscCall(MatMult(d->K, uth, d->fint));
      /* ½ uᵀK u at t1 (for θ ≠ 1 EndStep evaluates it at q, not at q^θ) */
      PetscCall(VecDot(d->fint, uth, &b->strain_energy));
      b->strain_energy *= 0.5;
    }
  } else {
    /* K and f_int at q^θ; a lagged frame (corotational_lagged) comes from u0, the step start,
     * so f_int is affine in q and K constant within the step (han2023 Proposition 1). */
    /* FcBodySetChordTangent: K of the step's first iterate only (a chord Newton method; the residual
     * is exact, so is the converged state), unless the residual needs K (Rayleigh β) */
    const PetscBool needK = (PetscBool)(!b->chord || !d->Kstep || d->chord_slow || (!qs && b->spec->beta != 0));
    /* (K is overwritten there: no MatZeroEntries) */
    PetscCall(FcAssembleInternalLagged(&b->mesh, b->material, uth, FrameSource_Private(d), &b->strain_energy, d->fint, needK ? d->K : NULL));
    d->K_assembled = PETSC_TRUE;
    /* A changes with K, except with a lagged frame within a step (K constant, A invalidated by
     * BeginStep) and when A does not involve K (θ = 0: A = (1 + 0) M, explicit) */
    if (needK && !d->lagged && theta != 0.0) d->A_valid = PETSC_FALSE;
    d->Kstep = PETSC_TRUE;
  }
  /* f_ext at t^θ = θ t1 + (1 − θ) t0 */
  PetscCall(ExternalForce_Private(b, FcThetaTime(&d->th, s->t0, s->t1)));
  PetscCall(VecNorm(d->fint, NORM_2, &nint));
  PetscCall(VecNorm(d->fext, NORM_2, &next));
  if (qs) {
    /* r = f_int(u) − f_ext(t1) */
    PetscCall(VecWAXPY(d->r, -1.0, d->fext, d->fint));
    *scale = PetscMax(nint, next);
    cM     = d->c->newton_shift; /* modified Newton A = K + s M (case.h: time.newton.shift) */
    cK     = 1.0;
  } else {
    /* m(v) = M (v − v0) + dt [f_int(q^θ) + (αM + βK) v^θ − f_ext(t^θ)]   (han2023 eq. 5, 6, 8) */
    PetscReal alpha = b->spec->alpha, beta = b->spec->beta, ninert, ndamp = 0;
    Vec       tmp = d->rfree;
    PetscCall(VecWAXPY(d->dx, -1.0, d->v0, d->x));
    PetscCall(MatMult(d->M, d->dx, d->r)); /* r = M (v − v0) */
    PetscCall(VecNorm(d->r, NORM_2, &ninert));
    PetscCall(VecAXPY(d->r, s->dt, d->fint));
    PetscCall(VecAXPY(d->r, -s->dt, d->fext));
    if (alpha != 0 || beta != 0) {
      PetscCall(MatMult(d->M, vth, tmp));
      PetscCall(VecScale(tmp, alpha));
      if (beta != 0) {
        PetscCall(MatMult(d->K, vth, d->dx)); /* dx is scratch here */
        PetscCall(VecAXPY(tmp, beta, d->dx));
      }
      PetscCall(VecNorm(tmp, NORM_2, &ndamp));
      PetscCall(VecAXPY(d->r, s->dt, tmp));
    }
    *scale = PetscMax(ninert, s->dt * PetscMax(PetscMax(nint, next), ndamp));
    /* A = ∂m/∂v (han2023 eq. 11) */
    FcThetaMatrixCoefficients(&d->th, s->dt, alpha, beta, &cM, &cK);
  }
  /* The free increment solves with the residual without contact (the contact correction
   * A⁻¹Hᵀr is added by the contact step with this iteration's H); convergence is judged on the
   * full residual, contact forces of the last contact solve included. */
  PetscCall(VecCopy(d->r, d->rfree));
  if (b->fcontact) PetscCall(VecAXPY(d->r, -1.0, b->fcontact));
  /* FcBodySetContactInFree (compliance "lagged"): the free increment from the full residual */
  if (b->fcontact && b->contact_in_free) PetscCall(VecCopy(d->r, d->rfree));
  PetscCall(VecCopy(d->r, d->work));
  {
    PetscScalar *rf, *rw;
    PetscInt     lo, hi, rstart;
    PetscCall(OwnedBC_Private(b, d->rfree, &lo, &hi, &rstart));
    PetscCall(VecGetArray(d->rfree, &rf));
    PetscCall(VecGetArray(d->work, &rw));
    for (PetscInt i = lo; i < hi; i++) rf[b->bc_dofs[i] - rstart] = rw[b->bc_dofs[i] - rstart] = 0.0;
    PetscCall(VecRestoreArray(d->work, &rw));
    PetscCall(VecRestoreArray(d->rfree, &rf));
  }
  PetscCall(VecNorm(d->work, NORM_2, rnorm));
  /* FcBodySetChordTangent: a chord iterate that reduced the residual by less than FC_CHORD_RATE
   * makes the next one assemble K (a Newton iterate): past that rate the chord's extra iterations
   * cost more than the assemblies of K it saves (a quasi-static step of a large deformation,
   * measured 0.69 a chord iteration on the neo-Hookean press of test_compliance_lagged) */
  d->chord_slow = (PetscBool)(d->chord_last > 0 && *rnorm > FC_CHORD_RATE * d->chord_last);
  d->chord_last = *rnorm;
  /* state part of the tangential relative motion for the contact step */
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) PetscCall(VecWAXPY(b->rate, -1.0, d->u0, b->ucur));
  else PetscCall(VecCopy(d->x, b->rate));
  PetscCall(PetscLogEventEnd(FC_EVENT_Assembly, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  b->times.assembly += t1 - t0;
  d->last_scale = *scale;
  d->cM         = cM;
  d->cK         = cK;
  PetscFunctionReturn(0);
}

static PetscErrorCode Solve_Deformable(FcBody b, const FcStepInfo *s, PetscReal *dxnorm)
{
  Deformable        *d = (Deformable *)b->data;
  KSPConvergedReason reason;
  PetscReal          t0, t1;

  PetscFunctionBegin;
  (void)s;
  /* A is formed (and factored) only when an increment is needed, never for the final
   * convergence check of a step. */
  PetscCall(FormMatrix_Private(b, d->cM, d->cK));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FC_EVENT_Solve, 0, 0, 0, 0));
  PetscCall(VecScale(d->rfree, -1.0));
  if (d->corot) { /* dx = R [Φ (cM A_r)⁻¹ Φᵀ + P A⁻¹ Pᵀ] Rᵀ (−r) */
    PetscScalar xi[6];
    PetscCall(CorotPre_Private(d, d->rfree, xi));
    PetscCall(KSPSolve(d->ksp, d->rfree, d->dx));
    PetscCall(CorotPost_Private(d, xi, d->dx));
  } else if (d->schur) PetscCall(FcSchurSolve(d->schur, d->rfree, d->dx));
  else {
    PetscBool iterative, ok;
    PetscCall(PetscObjectTypeCompare((PetscObject)d->ksp, KSPPREONLY, &iterative));
    iterative = (PetscBool)!iterative;
    if (iterative) { /* a Krylov method (compliance "lagged"): a failure fails the Newton iteration */
      PetscCall(FcBodyKrylovSolve(b, d->rfree, d->dx, &ok));
      PetscCall(PetscLogEventEnd(FC_EVENT_Solve, 0, 0, 0, 0));
      PetscCall(PetscTime(&t1));
      b->times.solve += t1 - t0;
      *dxnorm = -1; /* failed (model.h); an overflowing direct solve still gives +inf, its own path */
      if (ok) PetscCall(VecNorm(d->dx, NORM_2, dxnorm));
      PetscFunctionReturn(0);
    }
    PetscCall(KSPSolve(d->ksp, d->rfree, d->dx));
  }
  PetscCall(PetscLogEventEnd(FC_EVENT_Solve, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  b->times.solve += t1 - t0;
  if (!d->schur) {
    PetscCall(KSPGetConvergedReason(d->ksp, &reason));
    PetscCheck(reason >= 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "Body %s: linear solve failed (%s); is the body constrained against rigid motion?",
      b->name, KSPConvergedReasons[reason]);
  }
  PetscCall(VecNorm(d->dx, NORM_2, dxnorm));
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveMulti_Deformable(FcBody b, Mat B, Mat X)
{
  Deformable *d = (Deformable *)b->data;
  PetscReal   t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscLogEventBegin(FC_EVENT_Solve, 0, 0, 0, 0));
  if (d->corot) { /* the columns of R [Φ (cM A_r)⁻¹ Φᵀ + P A⁻¹ Pᵀ] Rᵀ B, one KSPMatSolve */
    Mat          F;
    PetscInt     k;
    PetscScalar *xi;
    Vec          col;
    PetscCall(MatDuplicate(B, MAT_COPY_VALUES, &F));
    PetscCall(MatGetSize(B, NULL, &k));
    PetscCall(PetscMalloc1(6 * k, &xi));
    for (PetscInt j = 0; j < k; j++) {
      PetscCall(MatDenseGetColumnVec(F, j, &col));
      PetscCall(CorotPre_Private(d, col, &xi[6 * j]));
      PetscCall(MatDenseRestoreColumnVec(F, j, &col));
    }
    PetscCall(KSPMatSolve(d->ksp, F, X));
    for (PetscInt j = 0; j < k; j++) {
      PetscCall(MatDenseGetColumnVec(X, j, &col));
      PetscCall(CorotPost_Private(d, &xi[6 * j], col));
      PetscCall(MatDenseRestoreColumnVec(X, j, &col));
    }
    PetscCall(PetscFree(xi));
    PetscCall(MatDestroy(&F));
  } else if (d->schur) PetscCall(FcSchurMatSolve(d->schur, B, X));
  else PetscCall(KSPMatSolve(d->ksp, B, X));
  PetscCall(PetscLogEventEnd(FC_EVENT_Solve, 0, 0, 0, 0));
  PetscCall(PetscTime(&t1));
  b->times.solve += t1 - t0;
  PetscFunctionReturn(0);
}

/* Selected entries of A⁻¹ by MUMPS (ICNTL(30), the MUMPS 5.5 user's guide §3.17 "Computation
 * of entries of the inverse"): the right-hand sides e_j are sparse and only the entries at idx of
 * each solution are wanted, so MUMPS prunes the forward and the backward substitution to the
 * elimination-tree paths of idx instead of solving n dense columns (MatMatSolve). Only a plain
 * A (not the co-rotated split, not the Schur factorization) factored by MUMPS Cholesky on one
 * rank. The pattern is n × n entries, 8 n² bytes of values (n = 1500: 18 MB). */
static PetscErrorCode InverseEntries_Deformable(FcBody b, PetscInt n, const PetscInt idx[], PetscReal out[], PetscBool *done)
{
  Deformable        *d = (Deformable *)b->data;
  PC                 pc;
  Mat                F, S;
  MatSolverType      st;
  PetscBool          chol;
  PetscMPIInt        size;
  PetscInt           nd = FcBodyNDof(b), *nnz, *cols, icntl20, icntl30;
  PetscScalar       *zero;
  const PetscScalar *v;
  PetscLogDouble     t0, t1;

  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (d->corot || d->schur || !d->ksp || !n) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)d->ksp), &size));
  PetscCall(KSPGetPC(d->ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  if (size > 1 || !chol) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatSolverType(pc, &st));
  if (!st || strcmp(st, MATSOLVERMUMPS)) PetscFunctionReturn(0);
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(PetscTime(&t0));
  PetscCall(PetscCalloc1(nd, &nnz));
  for (PetscInt i = 0; i < n; i++) nnz[idx[i]] = n;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, nd, nd, 0, nnz, &S));
  PetscCall(PetscFree(nnz));
  PetscCall(PetscMalloc2(n, &cols, n, &zero));
  for (PetscInt j = 0; j < n; j++) {
    cols[j] = idx[j];
    zero[j] = 0;
  }
  for (PetscInt i = 0; i < n; i++) PetscCall(MatSetValues(S, 1, &idx[i], n, cols, zero, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(S, MAT_FINAL_ASSEMBLY));
  /* MatMumpsGetInverse leaves ICNTL(30) = 1 (entries of A⁻¹) and ICNTL(20) = 1 (sparse
   * right-hand sides) set on F; the body's next solves need them as they were */
  PetscCall(MatMumpsGetIcntl(F, 20, &icntl20));
  PetscCall(MatMumpsGetIcntl(F, 30, &icntl30));
  PetscCall(MatMumpsGetInverseTranspose(F, S)); /* A symmetric: (A⁻ᵀ)_{ij} = (A⁻¹)_{ij} */
  PetscCall(MatMumpsSetIcntl(F, 20, icntl20));
  PetscCall(MatMumpsSetIcntl(F, 30, icntl30));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt        nc;
    const PetscInt *c;
    PetscCall(MatGetRow(S, idx[i], &nc, &c, &v));
    PetscCheck(nc == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "inverse entries: row %d has %d entries, not %d", (int)idx[i], (int)nc, (int)n);
    for (PetscInt j = 0; j < n; j++) out[(size_t)i * n + j] = v[j];
    PetscCall(MatRestoreRow(S, idx[i], &nc, &c, &v));
  }
  PetscCall(PetscFree2(cols, zero));
  PetscCall(MatDestroy(&S));
  PetscCall(PetscTime(&t1));
  b->times.solve += t1 - t0;
  *done = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode SetParticipating_Deformable(FcBody b, PetscInt np, const PetscInt *idx)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  PetscCall(FcSchurDestroy(&d->schur));
  PetscCall(ISDestroy(&d->schur_is));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, np, idx, PETSC_COPY_VALUES, &d->schur_is));
  d->A_valid = PETSC_FALSE; /* refactor with the Schur IS */
  PetscFunctionReturn(0);
}

static PetscErrorCode GetSchur_Deformable(FcBody b, FcSchur *sch)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  *sch = d->schur;
  PetscFunctionReturn(0);
}

static PetscErrorCode Update_Deformable(FcBody b, const FcStepInfo *s)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  (void)s;
  PetscCall(VecAXPY(d->x, 1.0, d->dx));
  PetscFunctionReturn(0);
}

static PetscErrorCode EndStep_Deformable(FcBody b, const FcStepInfo *s)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  PetscCall(ModelUAtX_Private(b, s, b->u));
  if (s->integrator == FC_INTEGRATOR_QUASI_STATIC) {
    PetscCall(VecWAXPY(b->v, -1.0, d->u0, b->u));
    PetscCall(VecScale(b->v, 1.0 / s->dt));
    PetscCall(VecCopy(d->r, b->reaction)); /* support force = f_int − f_ext */
  } else {
    PetscCall(VecCopy(d->x, b->v));
    PetscCall(VecCopy(d->r, b->reaction)); /* support force = m(v)/dt (mean over the step) */
    PetscCall(VecScale(b->reaction, 1.0 / s->dt));
    if (d->th.theta != 1.0) {
      /* the residual evaluated the energy at q^θ; the probe reports it at t1 */
      if (d->corot) PetscCall(CorotInternal_Private(b, s, 1.0, d->r, &b->strain_energy)); /* r is not needed after the reaction */
      else if (d->linear) {
        PetscCall(MatMult(d->K, b->u, d->work));
        PetscCall(VecDot(d->work, b->u, &b->strain_energy));
        b->strain_energy *= 0.5;
      } else PetscCall(FcAssembleInternalLagged(&b->mesh, b->material, b->u, FrameSource_Private(d), &b->strain_energy, NULL, NULL));
    }
  }
  if (d->corot) { /* the deformation at t1 is the next step's e0 */
    PetscCall(CorotDeformation_Private(b, s, 1.0, d->cwork));
    PetscCall(VecCopy(d->cwork, d->e0));
  }
  PetscCall(MatMult(d->M, b->v, d->work));
  PetscCall(VecDot(d->work, b->v, &b->kinetic_energy));
  b->kinetic_energy *= 0.5;
  PetscFunctionReturn(0);
}

static PetscErrorCode Destroy_Deformable(FcBody b)
{
  Deformable *d = (Deformable *)b->data;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(0);
  PetscCall(FcSchurDestroy(&d->schur));
  PetscCall(ISDestroy(&d->schur_is));
  PetscCall(MatDestroy(&d->M));
  PetscCall(MatDestroy(&d->K));
  PetscCall(MatDestroy(&d->A));
  PetscCall(KSPDestroy(&d->ksp));
  PetscCall(VecDestroy(&d->x));
  PetscCall(VecDestroy(&d->dx));
  PetscCall(VecDestroy(&d->r));
  PetscCall(VecDestroy(&d->rfree));
  PetscCall(VecDestroy(&d->fint));
  PetscCall(VecDestroy(&d->fext));
  for (int k = 0; k < 3; k++) PetscCall(VecDestroy(&d->fbody[k]));
  PetscCall(VecDestroy(&d->work));
  PetscCall(VecDestroy(&d->u0));
  PetscCall(VecDestroy(&d->v0));
  PetscCall(VecDestroy(&d->uth));
  PetscCall(VecDestroy(&d->vth));
  PetscCall(VecDestroy(&d->vq));
  PetscCall(VecDestroy(&d->cwork));
  PetscCall(VecDestroy(&d->e0));
  for (int k = 0; k < 6; k++) {
    PetscCall(VecDestroy(&d->phi[k]));
    PetscCall(VecDestroy(&d->mphi[k]));
  }
  if (d->fload) PetscCall(VecDestroyVecs(d->nloads, &d->fload));
  PetscCall(PetscFree(d->bc_entry));
  PetscCall(PetscFree(d->bc_comp));
  PetscCall(PetscFree(b->data));
  PetscFunctionReturn(0);
}

/* A distributed mesh (doc/mpi.md "The distributed set-up"): of owner[] (per DoF of the rank's
 * mesh: the boundary entry × 3 + component, −2 plane strain, −1 free) the DoFs this rank owns, by
 * increasing distributed index (OwnedBC_Private reads them so), into bc_dofs. MatZeroRowsColumns
 * takes every rank's own rows; the values are set by the owners alone in every case. Frees owner. */
static PetscErrorCode OwnedDirichlet_Private(FcBody b, PetscInt *owner)
{
  Deformable *d = (Deformable *)b->data;
  PetscInt    rstart, rend, n = 0, *dof, *val;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(b->u, &rstart, &rend));
  PetscCall(PetscMalloc2(3 * b->mesh.nnodes + 1, &dof, 3 * b->mesh.nnodes + 1, &val));
  for (PetscInt k = 0; k < b->mesh.nnodes; k++)
    for (int cc = 0; cc < 3; cc++) {
      const PetscInt i = 3 * b->mesh.part_perm[k] + cc;
      if (owner[3 * k + cc] == -1 || i < rstart || i >= rend) continue;
      dof[n]   = i;
      val[n++] = owner[3 * k + cc];
    }
  PetscCall(PetscFree(owner));
  PetscCall(PetscSortIntWithArray(n, dof, val));
  b->nbc = n;
  PetscCall(PetscMalloc1(n + 1, &b->bc_dofs));
  PetscCall(PetscMalloc1(n + 1, &d->bc_entry));
  PetscCall(PetscMalloc1(n + 1, &d->bc_comp));
  for (PetscInt i = 0; i < n; i++) {
    b->bc_dofs[i]  = dof[i];
    d->bc_entry[i] = val[i] >= 0 ? val[i] / 3 : -1;
    d->bc_comp[i]  = val[i] >= 0 ? val[i] % 3 : 2;
  }
  PetscCall(PetscFree2(dof, val));
  PetscFunctionReturn(0);
}

/* Constrained DoFs from the boundary[] entries; where entries overlap, the later one wins.
 * plane_strain adds u_z = 0 at every node not already constrained in z by an entry (han2023
 * §VII-A: two layers of tetrahedra along z with zero out-of-plane displacement); an entry that
 * constrains z keeps its own value there. */
static PetscErrorCode SetupDirichlet_Private(const FcCase *c, PetscInt index, FcBody b)
{
  Deformable       *d    = (Deformable *)b->data;
  const FcCaseBody *spec = b->spec;
  PetscInt         *owner, n = 0;
  char              path[256];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * b->mesh.nnodes, &owner)); /* the mesh's DoFs: a rank's part's, or all */
  for (PetscInt i = 0; i < 3 * b->mesh.nnodes; i++) owner[i] = -1;
  for (PetscInt j = 0; j < spec->nboundary; j++) {
    const FcMeshGroup    *g;
    const FcCaseBoundary *bc = &spec->boundary[j];
    PetscCall(FcMeshFindGroup(&b->mesh, bc->group, -1, &g));
    if (!g) {
      char list[1024];
      FcMeshGroupList(&b->mesh, list, sizeof list);
      {
        char key[64];
        snprintf(key, sizeof key, "boundary[%d].group", (int)j);
        FcCaseBodyPath(c, index, key, path, sizeof path);
      }
      PetscCall(PetscFree(owner));
      return FcInputError(c->file, path, "no physical group '%s' in %s (available: %s)", bc->group, b->mesh.file, list);
    }
    for (PetscInt k = 0; k < g->nnodes; k++)
      for (PetscInt cc = 0; cc < 3; cc++)
        if (bc->comp[cc]) owner[3 * g->nodes[k] + cc] = 3 * j + cc;
  }
  if (spec->plane_strain)
    for (PetscInt k = 0; k < b->mesh.nnodes; k++)
      if (owner[3 * k + 2] < 0) owner[3 * k + 2] = -2; /* u_z = 0 */
  if (b->mesh.parted) {                                /* a distributed mesh: each rank its own constrained DoFs, in order */
    PetscCall(OwnedDirichlet_Private(b, owner));
    PetscFunctionReturn(0);
  }
  for (PetscInt i = 0; i < b->ndof; i++) n += owner[i] != -1;
  b->nbc = n;
  PetscCall(PetscMalloc1(n, &b->bc_dofs));
  PetscCall(PetscMalloc1(n, &d->bc_entry));
  PetscCall(PetscMalloc1(n, &d->bc_comp));
  n = 0;
  if (b->mesh.part_perm) { /* several ranks: owner[] by the distributed index, so bc_dofs increases */
    PetscInt *o;
    PetscCall(PetscMalloc1(b->ndof, &o));
    for (PetscInt k = 0; k < b->mesh.nnodes; k++)
      for (int cc = 0; cc < 3; cc++) o[3 * b->mesh.part_perm[k] + cc] = owner[3 * k + cc];
    PetscCall(PetscFree(owner));
    owner = o;
  }
  for (PetscInt i = 0; i < b->ndof; i++)
    if (owner[i] >= 0) {
      b->bc_dofs[n]   = i;
      d->bc_entry[n]  = owner[i] / 3;
      d->bc_comp[n++] = owner[i] % 3;
    } else if (owner[i] == -2) {
      b->bc_dofs[n]   = i;
      d->bc_entry[n]  = -1;
      d->bc_comp[n++] = 2;
    }
  PetscCall(PetscFree(owner));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetupLoads_Private(const FcCase *c, PetscInt index, FcBody b)
{
  Deformable       *d    = (Deformable *)b->data;
  const FcCaseBody *spec = b->spec;
  char              path[256];

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) {
    PetscReal e[3] = {0, 0, 0};
    e[k]           = 1.0;
    PetscCall(VecDuplicate(b->u, &d->fbody[k]));
    PetscCall(VecSet(d->fbody[k], 0.0));
    PetscCall(FcAssembleBodyForce(&b->mesh, spec->material.density, e, d->fbody[k]));
  }
  d->nloads = spec->nloads;
  if (d->nloads) PetscCall(VecDuplicateVecs(b->u, d->nloads, &d->fload));
  for (PetscInt l = 0; l < spec->nloads; l++) {
    const FcCaseBodyLoad *ld = &spec->loads[l];
    const FcMeshGroup    *g;
    PetscCall(VecSet(d->fload[l], 0.0));
    PetscCall(FcMeshFindGroup(&b->mesh, ld->group, 2, &g));
    {
      char key[64];
      snprintf(key, sizeof key, "loads[%d].group", (int)l);
      FcCaseBodyPath(c, index, key, path, sizeof path);
    }
    if (!g) {
      char list[1024];
      FcMeshGroupList(&b->mesh, list, sizeof list);
      return FcInputError(c->file, path, "no physical surface group '%s' in %s (available: %s)", ld->group, b->mesh.file, list);
    }
    FcCheckInput(FcMeshGroupNFacesAll(g) > 0, c->file, path, "surface group '%s' has no faces on the boundary of the mesh", ld->group);
    if (ld->type == FC_LOAD_TRACTION) PetscCall(FcAssembleTraction(&b->mesh, g->nfaces, g->faces, ld->vec, d->fload[l]));
    else if (ld->type == FC_LOAD_PRESSURE) PetscCall(FcAssemblePressure(&b->mesh, g->nfaces, g->faces, ld->pressure, d->fload[l]));
    else {
      PetscReal area, t[3];
      PetscCall(FcMeshGroupArea(&b->mesh, g, &area)); /* a distributed mesh: rank 0's, broadcast */
      for (int k = 0; k < 3; k++) t[k] = ld->vec[k] / area;
      PetscCall(FcAssembleTraction(&b->mesh, g->nfaces, g->faces, t, d->fload[l]));
    }
  }
  PetscFunctionReturn(0);
}

/* contact detection: the mesh nodes at the current iterate, X + u */
static PetscErrorCode Nodes_Deformable(FcBody b, PetscReal *x)
{
  FcVecAll u; /* one rank: ucur's own array; several: a copy in the mesh's order (collective) */

  PetscFunctionBegin;
  PetscCall(FcVecAllBegin(b->ucur, &u));
  for (PetscInt i = 0; i < b->ndof; i++) x[i] = b->mesh.X[i] + u.a[i];
  PetscCall(FcVecAllEnd(&u));
  PetscFunctionReturn(0);
}

/* The body's vectors (u, v, the reaction, the step's work vectors, all zero) and its mass
 * Σ over x-DoFs of M·1_x. */
static PetscErrorCode CreateVectors_Private(FcBody b, Deformable *d)
{
  Vec ones;

  PetscFunctionBegin;
  PetscCall(MatCreateVecs(d->M, &b->u, NULL));
  PetscCall(FcAssemblyComposeNatural(&b->mesh, b->u)); /* before the duplicates: they keep it */
  PetscCall(VecSet(b->u, 0.0));
  PetscCall(VecDuplicate(b->u, &b->v));
  PetscCall(VecSet(b->v, 0.0));
  PetscCall(VecDuplicate(b->u, &b->reaction));
  PetscCall(VecSet(b->reaction, 0.0));
  PetscCall(VecDuplicate(b->u, &ones));
  PetscCall(VecDuplicate(b->u, &d->work));
  /* mass = Σ over x-DoFs of M·1_x */
  PetscCall(VecStrideSet(ones, 0, 1.0));
  PetscCall(VecStrideSet(ones, 1, 0.0));
  PetscCall(VecStrideSet(ones, 2, 0.0));
  PetscCall(MatMult(d->M, ones, d->work));
  PetscCall(VecSum(d->work, &b->mass));
  PetscCall(VecDestroy(&ones));
  PetscCall(VecDuplicate(b->u, &d->x));
  PetscCall(VecDuplicate(b->u, &d->dx));
  b->dx = d->dx; /* shared with the contact step; owned here */
  PetscCall(VecDuplicate(b->u, &b->ucur));
  PetscCall(VecSet(b->ucur, 0.0));
  PetscCall(VecDuplicate(b->u, &b->rate));
  PetscCall(VecSet(b->rate, 0.0));
  PetscCall(VecDuplicate(b->u, &d->r));
  PetscCall(VecDuplicate(b->u, &d->rfree));
  PetscCall(VecDuplicate(b->u, &d->fint));
  PetscCall(VecDuplicate(b->u, &d->fext));
  PetscCall(VecDuplicate(b->u, &d->u0));
  PetscCall(VecDuplicate(b->u, &d->v0));
  PetscCall(VecDuplicate(b->u, &d->uth));
  PetscCall(VecSet(d->uth, 0.0));
  PetscCall(VecDuplicate(b->u, &d->vth));
  PetscCall(VecSet(d->vth, 0.0));
  PetscCall(VecDuplicate(b->u, &d->vq));
  PetscCall(VecSet(d->vq, 0.0));
  PetscFunctionReturn(0);
}

/* Whether this run distributes the meshes (doc/mpi.md "The distributed set-up"): several ranks
 * (with contact too: a rank's contact catalogue is made from its part, src/model/contact_pairs.c). */
static PetscBool Parted_Private(const FcCase *c)
{
  PetscMPIInt size = 1;
  (void)c;
  if (MPI_Comm_size(PETSC_COMM_WORLD, &size)) return PETSC_FALSE;
  return (PetscBool)(size > 1);
}

/* A distributed mesh: a quantity of the whole mesh (its volume), computed by rank 0, which holds
 * it, and broadcast. */
static PetscErrorCode RootReal_Private(const FcMesh *mesh, PetscErrorCode (*f)(const FcMesh *, PetscReal *), PetscReal *v)
{
  PetscMPIInt    rank;
  PetscErrorCode rc   = 0;
  double         w[2] = {0, 0};

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    rc   = f(mesh, v);
    w[0] = (double)rc;
    w[1] = (double)*v;
  }
  PetscCallMPI(MPI_Bcast(w, 2, MPI_DOUBLE, 0, PETSC_COMM_WORLD));
  PetscCheck(w[0] == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "Rank 0 failed to measure the mesh %s", mesh->file);
  *v = (PetscReal)w[1];
  PetscFunctionReturn(0);
}

/* Body type "deformable" (FcBodyRegisterAll): FEM on the body's tetrahedral mesh. */
PetscErrorCode FcBodyCreate_Deformable(const FcCase *c, PetscInt index, FcBody *body)
{
  FcBody            b;
  Deformable       *d;
  const FcCaseBody *spec = &c->bodies[index];
  PC                pc;

  PetscFunctionBegin;
  PetscCall(PetscNew(&b));
  *body = b;
  PetscCall(PetscNew(&d));
  b->data       = d;
  b->spec       = spec;
  b->meshfields = PETSC_TRUE; /* u, v, reaction per mesh node: writers and probes read them */
  d->c          = c;
  FcThetaFromCase(c, &d->th);
  PetscCall(PetscStrncpy(b->name, spec->name, sizeof b->name));
  b->ops.beginstep        = BeginStep_Deformable;
  b->ops.residual         = Residual_Deformable;
  b->ops.solve            = Solve_Deformable;
  b->ops.solvemulti       = SolveMulti_Deformable;
  b->ops.inverseentries   = InverseEntries_Deformable;
  b->ops.update           = Update_Deformable;
  b->ops.setparticipating = SetParticipating_Deformable;
  b->ops.getschur         = GetSchur_Deformable;
  b->ops.nodes            = Nodes_Deformable;
  b->ops.endstep          = EndStep_Deformable;
  b->ops.destroy          = Destroy_Deformable;

  /* several ranks: rank 0 alone holds the whole mesh, every other rank its part (doc/mpi.md "The
   * distributed set-up"), with contact too (its catalogue is made from the part) */
  if (Parted_Private(c)) PetscCall(FcMeshLoadVolumeParted(spec->mesh_file, spec->refine, spec->order, spec->mesh_volume, &b->mesh));
  else PetscCall(FcMeshLoadVolume(spec->mesh_file, spec->refine, spec->order, spec->mesh_volume, &b->mesh));
  PetscCall(FcMaterialCreate(&spec->material, &b->material));
  d->linear = b->material->linear;
  d->lagged = b->material->lagged_frame;
  b->ndof   = 3 * FcMeshNNodesAll(&b->mesh);
  if (b->mesh.parted) PetscCall(RootReal_Private(&b->mesh, FcMeshVolume, &b->volume));
  else PetscCall(FcMeshVolume(&b->mesh, &b->volume));

  /* several ranks: the nodes' owners (doc/mpi.md) */
  if (b->mesh.parted) PetscCall(FcAssemblyPartitionParted(PETSC_COMM_WORLD, &b->mesh));
  else PetscCall(FcAssemblyPartition(PETSC_COMM_WORLD, &b->mesh));
  if (b->mesh.part_perm && !b->mesh.gnode) { /* the contact step's DoF maps (FcBodyDofMaps) */
    PetscCall(PetscMalloc2(b->ndof, &b->part_n2d, b->ndof, &b->part_d2n));
    for (PetscInt k = 0; k < b->ndof; k++) {
      b->part_n2d[k]              = 3 * b->mesh.part_perm[k / 3] + k % 3;
      b->part_d2n[b->part_n2d[k]] = k;
    }
  } else if (b->mesh.gnode && c->ncontacts) { /* a part, with contact: the maps over the part's nodes, −1 elsewhere */
    PetscCall(PetscMalloc2(b->ndof, &b->part_n2d, b->ndof, &b->part_d2n));
    for (PetscInt k = 0; k < b->ndof; k++) b->part_n2d[k] = b->part_d2n[k] = -1;
    for (PetscInt l = 0; l < b->mesh.nnodes; l++)
      for (int cc = 0; cc < 3; cc++) {
        const PetscInt k            = 3 * b->mesh.gnode[l] + cc;
        b->part_n2d[k]              = 3 * b->mesh.part_perm[l] + cc;
        b->part_d2n[b->part_n2d[k]] = k;
      }
  }
  PetscCall(FcAssemblyCreateMatrix(PETSC_COMM_WORLD, &b->mesh, &d->M));
  PetscCall(MatDuplicate(d->M, MAT_DO_NOT_COPY_VALUES, &d->K));
  PetscCall(MatDuplicate(d->M, MAT_DO_NOT_COPY_VALUES, &d->A));
  PetscCall(MatSetOption(d->A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(d->A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  /* K is assembled at every Newton iterate: straight into its storage (fem.h). M is assembled
   * once: a map of its places would only hold memory for the whole run (nel (3 npe)² integers) */
  PetscCall(FcAssemblySetUpDirect(&b->mesh, d->K));
  PetscCall(FcAssembleMass(&b->mesh, spec->material.density, d->M));
  PetscCall(CreateVectors_Private(b, d));
  d->inertia = c->inertia_correction;
  PetscCall(SetupDirichlet_Private(c, index, b));
  PetscCall(SetupLoads_Private(c, index, b));
  d->corot = spec->corotational;
  if (d->corot) {
    PetscCall(CorotSetUp_Private(b));
    d->inertia              = PETSC_FALSE; /* A = cM M + cK K is positive definite (linear, cM > 0) */
    b->ops.setparticipating = NULL;
    b->ops.getschur         = NULL;
  }

  /* Default linear solver: sparse direct Cholesky (LDLᵀ) by MUMPS — symmetric storage, the
   * symbolic analysis reused while the pattern is unchanged, runs distributed under MPI, and
   * offers the Schur complement the participating-DoF reduction needs (doc/architecture.md).
   * A small body of a linear material on one rank takes PETSc's own sparse Cholesky instead
   * (nested-dissection ordering): its A is positive definite whenever it is regular (M positive
   * definite, K semidefinite), so the inertia MUMPS counts is not needed, and MUMPS' fixed cost
   * per call dominates such a body's solves (doc/performance.md, "The masonry arch's real-time
   * rate": 25 blocks of 24 DoFs). Any -ksp_ / -pc_ option overrides it. */
  PetscCall(KSPCreate(PETSC_COMM_WORLD, &d->ksp));
  PetscCall(KSPSetType(d->ksp, KSPPREONLY));
  PetscCall(KSPGetPC(d->ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (size == 1 && d->linear && !d->corot && b->ndof <= FC_SMALL_BODY_DOFS) {
      PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERPETSC));
      PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGND)); /* no inertia count: none needed */
    } else PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  }
  PetscCall(KSPSetFromOptions(d->ksp));
  PetscFunctionReturn(0);
}

/* CG needs A positive definite (and the preconditioner): a Newton matrix that is not (K indefinite
 * under compression, the inertia correction not available to a Krylov solve) stops it with
 * DIVERGED_INDEFINITE_MAT. GMRES (Saad & Schultz 1986), right-preconditioned so that its residual is
 * the true one, needs neither: the same system is solved again with it, and the KSP goes back to CG
 * for the next solve. A failure after that is reported (ok false, -info and verbosity) for the step
 * to fail, not the run. */
PetscErrorCode FcBodyKrylovSolve(FcBody b, Vec rhs, Vec x, PetscBool *ok)
{
  Deformable        *d = (Deformable *)b->data;
  KSPConvergedReason reason;
  PetscBool          cg;

  PetscFunctionBegin;
  PetscCall(KSPSolve(d->ksp, rhs, x));
  PetscCall(KSPGetConvergedReason(d->ksp, &reason));
  PetscCall(PetscObjectTypeCompare((PetscObject)d->ksp, KSPCG, &cg));
  if (reason < 0 && cg) {
    /* the KSP's own settings (lagged.c's, or the user's -ksp_pc_side / -ksp_norm_type), restored
     * after the retry; the type is copied: KSPSetType frees the old name */
    char        type[64];
    KSPType     t;
    PCSide      side;
    KSPNormType norm;
    PetscCall(KSPGetType(d->ksp, &t));
    PetscCall(PetscStrncpy(type, t, sizeof type));
    PetscCall(KSPGetPCSide(d->ksp, &side));
    PetscCall(KSPGetNormType(d->ksp, &norm));
    PetscCall(PetscInfo(d->ksp, "Body %s: CG failed (%s); the system again with GMRES\n", b->name, KSPConvergedReasons[reason]));
    PetscCall(KSPSetType(d->ksp, KSPGMRES));
    PetscCall(KSPSetPCSide(d->ksp, PC_RIGHT));
    PetscCall(KSPSetNormType(d->ksp, KSP_NORM_UNPRECONDITIONED));
    PetscCall(KSPSolve(d->ksp, rhs, x));
    PetscCall(KSPGetConvergedReason(d->ksp, &reason));
    PetscCall(KSPSetType(d->ksp, type));
    PetscCall(KSPSetPCSide(d->ksp, side));
    PetscCall(KSPSetNormType(d->ksp, norm));
  }
  *ok = (PetscBool)(reason >= 0);
  if (!*ok) {
    PetscCall(PetscInfo(d->ksp, "Body %s: the Krylov solve failed (%s)\n", b->name, KSPConvergedReasons[reason]));
    if (FcVerbosity > 0)
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "fcsim: body %s: the Krylov solve of a Newton system failed (%s%s): the step does not converge\n",
        b->name, KSPConvergedReasons[reason], cg ? ", also with GMRES" : ""));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyGetKSP(FcBody b, KSP *ksp)
{
  PetscFunctionBegin;
  *ksp = b->ops.solve == Solve_Deformable ? ((Deformable *)b->data)->ksp : NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyVonMises(FcBody b, PetscReal *vm)
{
  PetscFunctionBegin;
  PetscCall(FcComputeVonMises(&b->mesh, b->material, b->u, vm));
  PetscFunctionReturn(0);
}

PetscErrorCode FcBodyVonMisesVec(FcBody b, Vec vm)
{
  PetscFunctionBegin;
  PetscCall(FcComputeVonMisesVec(&b->mesh, b->material, b->u, vm));
  PetscFunctionReturn(0);
}
