/* fcsim — contact solver type "newton": a global semismooth Newton method on the Alart–Curnier
 * function of the frictional contact problem (problem.h), with an Armijo line search on its
 * merit function and a Gauss–Seidel fallback.
 *
 * Alart & Curnier (CMAME 92, 1991, eq. 3.8–3.12), written with per-contact scalings ρ_N, ρ_T > 0
 * (here ρ_N = 1/W_aa,nn and ρ_T = 2/(W_aa,t1t1 + W_aa,t2t2), the inverse diagonal, which makes the
 * function dimensionless in the way Jean's and Christensen et al.'s implementations do): with
 * u = W r + q and, per contact a,
 *
 *     x_N = r_N − ρ_N u_N,   x_T = r_T − ρ_T u_T,   R = μ max(0, x_N),
 *     Φ_a(r) = r_a − [ max(0, x_N),  P_{D(R)}(x_T) ],      P_{D(R)}: projection on the disk ‖·‖ ≤ R.
 *
 * Φ(r) = 0 exactly at the solutions of Signorini–Coulomb: φ_N = 0 is 0 ≤ r_N ⊥ u_N ≥ 0, and
 * φ_T = 0 with r_N > 0 is stick (u_T = 0, ‖r_T‖ ≤ μ r_N) or slip (r_T = −μ r_N u_T/‖u_T‖); with
 * r_N = 0, r_T = 0. These are the zeros of the common error (De Saxcé's form, problem.h: at a
 * solution either r_N > 0 and u_N = 0, or r = 0 and u_N ≥ 0), so the common error is the one
 * stopping test, as for every type.
 *
 * Φ is piecewise smooth (strongly semismooth); an element of its generalized Jacobian is
 *
 *     J = I − D (I − diag(ρ) W),     D = block-diag(∂P_a/∂x_a) (3×3 per contact),
 *
 * ∂P/∂x: normal row e_Nᵀ when x_N > 0, else 0; tangential rows [0, I₂] inside the disk,
 * [μ x̂_T, (R/‖x_T‖)(I₂ − x̂_T x̂_Tᵀ)] outside it (R > 0), 0 when R = 0. Each iteration solves
 * J Δr = −Φ by an LU of J (which one: NewtonPath_Private; fcsim's own dense LU, its envelope LU on
 * a block-sparse W (envelope.h), or, as described here, a PETSc KSP on J in AIJ form with W's
 * block pattern (PETSc's sparse LU,
 * natural ordering for a dense W and nested dissection for a block-sparse one, with a nonzero-pivot
 * shift: J is not symmetric, and it is singular when W is rank deficient and every contact
 * sticks — then the shifted factorization gives a direction the line search judges; options
 * prefix fc_contact_solver_newton_, e.g. -fc_contact_solver_newton_ksp_type gmres
 * -fc_contact_solver_newton_pc_type jacobi, or -fc_contact_solver_newton_pc_factor_mat_solver_type
 * mumps) and takes the largest step
 * α = 2^-k with θ(r + αΔr) ≤ (1 − 2σα) θ(r), θ = ½‖Φ‖² (Armijo; the Newton direction has
 * θ'(r; Δr) = −2θ where Φ is differentiable; Qi & Sun, Math. Program. 58, 1993, for the local
 * quadratic rate). When J is singular (rank-deficient W with every contact sticking) or the line
 * search fails, `gs_sweeps` sweeps of nsgs are made from the current r and Newton goes on from
 * there (counted in the view). One iteration = one Newton step (or one fallback round).
 *
 * The kink x_N = 0. At x_N = 0 exactly, max(0, x_N) has the two derivatives 0 and 1, and both J
 * are elements of the B-subdifferential of Φ (Qi & Sun 1993: any element gives the local rate).
 * The tie is the rule at the first iterate of a multi-body problem: with r = 0 and bodies that
 * rest on each other and fall together, u_N = q_N = 0 at every interface above the ground. Taking
 * those contacts inactive activates one interface per step (a stack of N boxes took N steps, 125
 * steps at 500 contacts, each with α ≤ ½); taking them active solves the stack in one step, but
 * makes a pyramid's side contacts (touching, not pressed) carry load they must then shed (1 step
 * became 12). So when some contacts sit at the kink both directions are computed and the one
 * whose full step gives the smaller θ is kept, at the price of one more factorization in those
 * iterations (counted in the view: "steps with contacts at the kink").
 *
 * Regularization, as a safeguard (options reg = 1, reg_max = 1e-3; reg 0 turns it off). When the
 * line search along the Newton direction finds no step, or only a short one (α < 1/8: J nearly
 * singular, as on a rank-deficient W with sticking contacts, where J = diag(ρ)W), the direction of
 * J + εI, ε = reg ‖Φ‖/max(‖r‖, ‖ρq‖) ≤ reg_max, gets its own line search and the point with the
 * smaller θ is kept (counted in the view: "regularized retries"). The shift is of Levenberg type
 * and vanishes with Φ, so the local rate is kept (the perturbation of the Newton system is
 * O(‖Φ‖): the inexact-Newton argument of Dembo, Eisenstat & Steihaug, SIAM J. Numer. Anal. 19,
 * 1982), and diag(ρ)W + εI is nonsingular for W positive semidefinite. Measured (bench/
 * newton_hard.py): on a 2000-contact wall (μ = 1, mass ratio 1000) the unregularized iteration
 * crawled with α ~ 1e-3..1e-7 and stopped at 4e-4 after 200 steps; with the safeguard it
 * converges (90 steps to 1e-10). Always on (ε in every step) it cost steps on stacks (1 → 7–14), hence only as a
 * retry. The nonzero-pivot shift of the LU handles an exactly singular J.
 *
 * The scaling ρ (option rho = diag | inverse). Any ρ > 0 gives the same zeros; it sets what the
 * merit function θ and the active-set guess x = r − ρu weigh. `diag` (the default) takes the
 * inverse diagonal of W_aa above. `inverse` takes the diagonal of W⁻¹: ρ_N = (W⁻¹)_aa,nn, ρ_T =
 * ½((W⁻¹)_aa,t1t1 + (W⁻¹)_aa,t2t2). 1/(W⁻¹)_ii is the compliance of row i when every other row is
 * held (the Schur complement of W onto that row), where W_ii is its compliance when the others are
 * free. They differ where W carries a large low-rank part: a body near its rigid limit (duriez2006
 * §6.2–6.3) has W = J (A_r/Δt²)⁻¹ Jᵀ + W_e, the rigid part of rank 6 and the elastic part W_e ∝ 1/E.
 * W_aa is then the rigid compliance, ρ = 1/W_aa sees only the rigid motion, and the elastic
 * velocities that decide how the load is shared among the contacts (u ~ W_e r) weigh ε-little in
 * θ: on the table at E = 1e11 Pa (doc/validation.md, the quasi-rigid sweep) Newton stalled at a
 * common error of 1e-6..1e-7 in 200 steps, Armijo steps of 1e-4..1e-1. The contacts that hold the
 * body remove its rigid motion from 1/(W⁻¹)_ii, which is the elastic compliance (a rank-6
 * deflation of W that needs no knowledge of J), and with that ρ the same problem converges to
 * 1e-10 in a few steps. W⁻¹'s diagonal comes from a dense Cholesky factorization of W and the
 * columns of L⁻¹, about 2(3m)³/3 flops per solve (as much as one LU of J, which every Newton step
 * makes); a W that is not
 * numerically positive definite (a pivot below 3m ε W_ii: rank-deficient multi-body problems)
 * falls back to `diag` for that solve (counted in the view). */
#include "../solver.h"
#include "envelope.h"
#include <petscksp.h>
#include <string.h>

typedef struct {
  PetscInt         gs_sweeps; /* 10: nsgs sweeps of one fallback round */
  PetscInt         ls_max_it; /* 30: halvings of the line search */
  PetscReal        sigma;     /* 1e-4: Armijo constant */
  PetscReal        reg;       /* 1: ε = reg ‖Φ‖/max(‖r‖, ‖ρq‖) in J + εI */
  PetscReal        reg_max;   /* 0.1: the largest ε */
  PetscBool        monitor;   /* print θ, the common error, the step and the line search per iteration */
  PetscBool        hint;      /* true: the first step on the piece of Φ the velocity hint gives (HintStep_Private) */
  PetscInt        *piece;     /* m: that piece per contact (NEWTON_PIECE_*), used by Direction when usepiece */
  PetscBool        usepiece;
  PetscInt         nhint[2], nhinttaken[2]; /* solves with a hint step tried, and taken; [0] last solve, [1] all */
  PetscBool        rho_inverse;             /* rho "inverse": ρ from the diagonal of W⁻¹ (head comment); false: "diag" */
  PetscReal       *Wf;                      /* rho "inverse": a dense copy of W, factored in place */
  size_t           Wfcap;                   /* entries of W that Wf holds */
  PetscInt         nrhofall[2];             /* rho "inverse" solves that fell back to diag (W not positive definite) */
  PetscInt         mcap;                    /* contacts the work arrays hold */
  PetscInt         jdcap;                   /* contacts the own dense LU's Jd holds */
  PetscInt         kn;                      /* rows of PETSc's J, KSP and vectors (0: none) */
  PetscReal       *u, *phi, *dr, *rt, *ut, *rho, *D, *dr2, *wdr;
  Mat              J;           /* 3m × 3m AIJ with every row stored whole (dense W: a constant pattern, one symbolic factorization) */
  PetscInt         lu;          /* NEWTON_LU_*: which LU the user asked for (NewtonPath_Private) */
  PetscInt         path;        /* the LU of the current solve: NEWTON_LU_OWN, _PETSC or _ENVELOPE */
  FcContactProblem lastp;       /* the problem of the last solve (s->resume: the same problem continued) */
  FcEnvelopeLU     env;         /* envelope path: J in the envelope of W's pattern in RCM order (envelope.h) */
  PetscInt         npath[4];    /* solves per path since creation (by the path they started with) */
  PetscInt         nswitch[2];  /* solves that went from the envelope LU to PETSc's at a zero pivot, [0] last solve, [1] all */
  PetscInt         nonmonotone; /* the line search compares with the largest θ of this many previous iterates too (0: monotone) */
  PetscReal        hist[32];    /* θ of the last iterates (a ring) */
  PetscInt         nhist;
  PetscReal       *Jd;        /* own dense LU: J (3m × 3m, row-major), factored in place */
  PetscInt        *piv;       /* own dense LU: the row permutation */
  PetscInt         nshift[2]; /* own LUs restarted with a shift (a singular J), [0] last solve, [1] all */
  PetscBool        sparse;    /* the storage of W the work is made for */
  PetscInt        *cols;      /* 0 .. 3m−1 */
  PetscScalar     *row;       /* one row of J */
  Vec              b, x;      /* wrap phi and dr */
  KSP              ksp;
  FcContactSolver  gs;                                                  /* the fallback (nsgs) */
  PetscInt         nnewton[2], nls[2], nfallback[2], nties[2], nreg[2]; /* [0] last solve, [1] since creation */
} FcContactSolver_Newton;

/* Which LU factors J (option newton_lu). `own`: J a dense array, factored by DenseLU_Private, no
 * PETSc object at all; `envelope` (a block-sparse W; a dense one takes `own`): J in the envelope of
 * W's block pattern in reverse Cuthill–McKee order, factored by envelope.h's LU, no PETSc object
 * either; `petsc`: an AIJ matrix on W's block pattern and a KSP (the options
 * -fc_contact_solver_newton_ksp_type etc. apply). `auto`: own when W is dense — the same natural
 * ordering and nonzero-pivot rule as PETSc's LU on a full AIJ matrix, hence the same iterates, and
 * measured 1.8-4x faster per solve at 20-200 contacts (doc/contact.md "newton") — and when W is
 * block-sparse with at most 32 contacts, where PETSc's Mat, KSP, nested-dissection ordering and
 * symbolic factorization, made per solve, cost about 1 ms (25 µs before any arithmetic,
 * bench/solve_overhead; issue 25: a fixed cost within 10x of nsgs's 0.3-3 µs); above 32 contacts
 * of a block-sparse W, envelope when its factorization costs at most NEWTON_ENVELOPE_MAX_FLOPS
 * (a banded contact graph: the masonry arch's chain of joints, 6.2e5 flops at 148 contacts
 * against 1.15e6 for PETSc's nested dissection on the same J, and no Mat, KSP, ordering or
 * symbolic factorization per solve: 0.22 ms per Newton step against 0.89 ms, doc/contact.md
 * "newton"), and until its first zero pivot (then PETSc's LU for the rest of the solve,
 * DirectionSolve_Private); petsc otherwise, whose nested dissection keeps the fill of a large
 * 2-D or 3-D contact graph lower than an envelope. On a singular J (a rank-deficient W with
 * every contact sticking) the two orderings shift different pivots and the iterates differ:
 * measured on generated walls, stacks and pyramids of 20-32 contacts, natural order 1-10 steps
 * against 1-3, yet 1.3-18x less time (0.06-0.8 ms against 1.0-1.7 ms). */
typedef enum { NEWTON_LU_AUTO, NEWTON_LU_OWN, NEWTON_LU_PETSC, NEWTON_LU_ENVELOPE } NewtonLU;
static const char *const NewtonLUNames[] = {"auto", "own", "petsc", "envelope"};

/* The envelope LU's largest factorization that `auto` takes (flops, envelope.h's count): above it
 * PETSc's nested dissection may fill less than an envelope does (a 2-D or 3-D contact graph, whose
 * RCM band grows with the square or cube root of m). See NewtonPath_Private. */
#define NEWTON_ENVELOPE_MAX_FLOPS FC_ENVELOPE_AUTO_MAX_FLOPS
/* The first shift δ of J + δI after a zero pivot in the envelope LU. J = I − D + D diag(ρ) W is
 * dimensionless with a unit diagonal scale (ρ = 1/W_aa), so δ is relative: a Levenberg–Marquardt
 * step that bounds the direction's component along a null vector of a singular J (every contact
 * of a rank-deficient W sticking) by ‖Φ‖/δ, where PETSc's 100 ε lets it reach ‖Φ‖/1e-14 for the
 * line search to cut down. Measured on bench/fclib_multibody.py's walls and pyramids of 44-500
 * contacts (24 problems, both mass ratios): δ = 1e-8, 1e-7, 1e-6, 1e-5, 1e-4 took 310, 130, 124,
 * 134, 139 Newton steps in all to 1e-10 at mass ratio 1 (PETSc's LU: 158), 72 at mass ratio 1000
 * with 1e-6 (PETSc: 92). */
#define NEWTON_ENVELOPE_SHIFT 1e-6

/* The LU of this solve (the envelope's pattern set when it is a candidate). */
static PetscErrorCode NewtonPath_Private(FcContactSolver_Newton *nt, FcContactProblem p, PetscInt *path)
{
  const PetscBool sparse = FcContactProblemIsSparse(p);

  PetscFunctionBegin;
  if (nt->lu == NEWTON_LU_PETSC) *path = NEWTON_LU_PETSC;
  else if (nt->lu == NEWTON_LU_OWN || !sparse || (nt->lu == NEWTON_LU_AUTO && p->m <= 32)) *path = NEWTON_LU_OWN;
  else {
    PetscCall(FcEnvelopeLUSetPattern(&nt->env, p->m, p->bptr, p->bcol));
    *path = nt->lu == NEWTON_LU_ENVELOPE || nt->env.flops <= NEWTON_ENVELOPE_MAX_FLOPS ? NEWTON_LU_ENVELOPE : NEWTON_LU_PETSC;
    PetscCall(PetscInfo(NULL, "newton: envelope of %" PetscInt_FMT " rows in RCM order, %.0f entries per triangle, %.3g flops per factorization: %s\n",
      nt->env.n, (double)nt->env.nenv, (double)nt->env.flops, *path == NEWTON_LU_ENVELOPE ? "envelope LU" : "PETSc's LU"));
  }
  PetscFunctionReturn(0);
}

/* The plain work arrays, for at least m contacts (kept while they fit). The PETSc objects wrap
 * phi and dr, so they go with them. */
static PetscErrorCode WorkArrays_Private(FcContactSolver_Newton *nt, PetscInt m)
{
  const PetscInt n = 3 * m;

  PetscFunctionBegin;
  if (nt->u && m <= nt->mcap) PetscFunctionReturn(0);
  PetscCall(PetscFree7(nt->u, nt->phi, nt->dr, nt->rt, nt->ut, nt->rho, nt->D));
  PetscCall(PetscFree5(nt->cols, nt->row, nt->dr2, nt->wdr, nt->piece));
  PetscCall(PetscFree2(nt->Jd, nt->piv));
  PetscCall(MatDestroy(&nt->J));
  PetscCall(VecDestroy(&nt->b));
  PetscCall(VecDestroy(&nt->x));
  PetscCall(KSPDestroy(&nt->ksp));
  PetscCall(PetscMalloc7(n, &nt->u, n, &nt->phi, n, &nt->dr, n, &nt->rt, n, &nt->ut, n, &nt->rho, 3 * n, &nt->D));
  PetscCall(PetscMalloc5(n, &nt->cols, n, &nt->row, n, &nt->dr2, n, &nt->wdr, m, &nt->piece));
  nt->mcap = m;
  PetscFunctionReturn(0);
}

/* The own dense LU's matrix, for at least m contacts. */
static PetscErrorCode WorkDense_Private(FcContactSolver_Newton *nt, PetscInt m)
{
  PetscFunctionBegin;
  if (nt->Jd && m <= nt->jdcap) PetscFunctionReturn(0);
  PetscCall(PetscFree2(nt->Jd, nt->piv));
  PetscCall(PetscMalloc2((size_t)9 * m * m, &nt->Jd, 3 * m, &nt->piv));
  nt->jdcap = m;
  PetscFunctionReturn(0);
}

/* PETSc's path: J, its KSP and the vectors for exactly m contacts (the KSP's matrix size). J has
 * the block pattern of W: every row whole for a dense W (made once per size), W's stored blocks
 * for a block-sparse W (made per solve: the pattern is the problem's). The default ordering of the
 * LU is natural for a dense J, nested dissection for a sparse one. */
static PetscErrorCode WorkPetsc_Private(FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p)
{
  const PetscInt  m = p->m, n = 3 * m;
  const PetscBool sparse = FcContactProblemIsSparse(p);
  PC              pc;

  PetscFunctionBegin;
  if (!(nt->ksp && n == nt->kn && sparse == nt->sparse)) {
    PetscCall(MatDestroy(&nt->J));
    PetscCall(VecDestroy(&nt->b));
    PetscCall(VecDestroy(&nt->x));
    PetscCall(KSPDestroy(&nt->ksp));
    for (PetscInt j = 0; j < n; j++) nt->cols[j] = j;
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, nt->phi, &nt->b));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, nt->dr, &nt->x));
    PetscCall(KSPCreate(PETSC_COMM_SELF, &nt->ksp));
    if (s->prefix) PetscCall(KSPSetOptionsPrefix(nt->ksp, s->prefix));
    PetscCall(KSPAppendOptionsPrefix(nt->ksp, "fc_contact_solver_newton_"));
    PetscCall(KSPSetType(nt->ksp, KSPPREONLY));
    PetscCall(KSPGetPC(nt->ksp, &pc));
    PetscCall(PCSetType(pc, PCLU));
    PetscCall(PCFactorSetMatOrderingType(pc, sparse ? MATORDERINGND : MATORDERINGNATURAL));
    PetscCall(PCFactorSetShiftType(pc, MAT_SHIFT_NONZERO));
    PetscCall(KSPSetFromOptions(nt->ksp));
    nt->kn     = n;
    nt->sparse = sparse;
  }
  if (!sparse && !nt->J) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, n, NULL, &nt->J));
  if (sparse) {
    PetscInt *nnz;
    PetscCall(MatDestroy(&nt->J));
    PetscCall(PetscMalloc1(n, &nnz));
    for (PetscInt a = 0; a < m; a++)
      for (int i = 0; i < 3; i++) nnz[3 * a + i] = 3 * (p->bptr[a + 1] - p->bptr[a]);
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnz, &nt->J));
    PetscCall(PetscFree(nnz));
  }
  PetscFunctionReturn(0);
}

/* The LU of this solve and its work. */
static PetscErrorCode Work_Private(FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p)
{
  PetscFunctionBegin;
  PetscCall(NewtonPath_Private(nt, p, &nt->path));
  nt->npath[nt->path]++;
  PetscCall(WorkArrays_Private(nt, p->m));
  if (nt->path == NEWTON_LU_OWN) PetscCall(WorkDense_Private(nt, p->m));
  if (nt->path == NEWTON_LU_PETSC) PetscCall(WorkPetsc_Private(s, nt, p));
  PetscFunctionReturn(0);
}

/* Φ(r) (and, when D is given, ∂P/∂x per contact, 9 entries row-major, the normal row taken as
 * active at the kink x_N = 0 when tie_active); returns θ = ½‖Φ‖², and in *nties (if given) the
 * number of contacts at that kink. */
static PetscReal Phi_Private(
  FcContactProblem p, const PetscReal rho[], PetscBool tie_active, const PetscReal r[], const PetscReal u[], PetscReal phi[], PetscReal D[], PetscInt *nties)
{
  PetscReal theta = 0;

  if (nties) *nties = 0;
  for (PetscInt a = 0; a < p->m; a++) {
    const PetscReal *ra = &r[3 * a], *ua = &u[3 * a], *ro = &rho[3 * a], mu = p->mu[a];
    const PetscReal  xn = ra[0] - ro[0] * ua[0], xt[2] = {ra[1] - ro[1] * ua[1], ra[2] - ro[2] * ua[2]};
    const PetscReal  pn = PetscMax(0.0, xn), R = mu * pn, nxt = PetscSqrtReal(xt[0] * xt[0] + xt[1] * xt[1]);
    PetscReal        pt[2], *d = D ? &D[9 * a] : NULL;

    if (d)
      for (int k = 0; k < 9; k++) d[k] = 0;
    if (nties && xn == 0) (*nties)++;
    if (d && (xn > 0 || (tie_active && xn == 0))) d[0] = 1;
    if (nxt <= R) { /* inside the disk (R = 0: x_T = 0, then P = 0 and the derivative below is 0) */
      pt[0] = xt[0];
      pt[1] = xt[1];
      if (d && R > 0) d[4] = d[8] = 1;
    } else {
      const PetscReal e[2] = {xt[0] / nxt, xt[1] / nxt}, s = R / nxt;
      pt[0] = R * e[0];
      pt[1] = R * e[1];
      if (d && R > 0) {
        d[3] = mu * e[0];
        d[6] = mu * e[1];
        d[4] = s * (1 - e[0] * e[0]);
        d[5] = -s * e[0] * e[1];
        d[7] = -s * e[0] * e[1];
        d[8] = s * (1 - e[1] * e[1]);
      }
    }
    phi[3 * a]     = ra[0] - pn;
    phi[3 * a + 1] = ra[1] - pt[0];
    phi[3 * a + 2] = ra[2] - pt[1];
    for (int i = 0; i < 3; i++) theta += 0.5 * phi[3 * a + i] * phi[3 * a + i];
  }
  return theta;
}

/* The pieces of Φ (HintStep_Private): on each, the projection P of Φ = r − P(x) is one smooth
 * formula, applied wherever x is. */
enum {
  NEWTON_PIECE_NATURAL = -1, /* the piece x itself lies in (Phi_Private) */
  NEWTON_PIECE_SEPARATED,    /* P = 0: r_a = 0 */
  NEWTON_PIECE_STICK,        /* P = x: u_a = 0 */
  NEWTON_PIECE_SLIP          /* P = (x_N, μ x_N x_T/‖x_T‖): u_N = 0, r_T on the cone's edge against u_T */
};

/* Φ and D (as Phi_Private's) on the pieces piece[a]; returns θ of that Φ. */
static PetscReal PhiPiece_Private(
  FcContactProblem p, const PetscReal rho[], const PetscInt piece[], const PetscReal r[], const PetscReal u[], PetscReal phi[], PetscReal D[])
{
  PetscReal theta = 0;

  for (PetscInt a = 0; a < p->m; a++) {
    const PetscReal *ra = &r[3 * a], *ua = &u[3 * a], *ro = &rho[3 * a], mu = p->mu[a];
    const PetscReal  xn = ra[0] - ro[0] * ua[0], xt[2] = {ra[1] - ro[1] * ua[1], ra[2] - ro[2] * ua[2]};
    const PetscReal  nxt = PetscSqrtReal(xt[0] * xt[0] + xt[1] * xt[1]);
    PetscReal        pn = 0, pt[2] = {0, 0}, *d = &D[9 * a];
    PetscInt         pc = piece[a];

    for (int k = 0; k < 9; k++) d[k] = 0;
    if (pc == NEWTON_PIECE_NATURAL) pc = xn <= 0 ? NEWTON_PIECE_SEPARATED : nxt <= mu * xn ? NEWTON_PIECE_STICK : NEWTON_PIECE_SLIP;
    if (pc == NEWTON_PIECE_SLIP && nxt == 0) pc = NEWTON_PIECE_STICK; /* no direction to slip along */
    if (pc == NEWTON_PIECE_STICK) {
      pn    = xn;
      pt[0] = xt[0];
      pt[1] = xt[1];
      d[0] = d[4] = d[8] = 1;
    } else if (pc == NEWTON_PIECE_SLIP) {
      const PetscReal e[2] = {xt[0] / nxt, xt[1] / nxt}, R = mu * xn, sc = R / nxt;
      pn    = xn;
      pt[0] = R * e[0];
      pt[1] = R * e[1];
      d[0]  = 1;
      d[3]  = mu * e[0];
      d[6]  = mu * e[1];
      d[4]  = sc * (1 - e[0] * e[0]);
      d[5] = d[7] = -sc * e[0] * e[1];
      d[8]        = sc * (1 - e[1] * e[1]);
    }
    phi[3 * a]     = ra[0] - pn;
    phi[3 * a + 1] = ra[1] - pt[0];
    phi[3 * a + 2] = ra[2] - pt[1];
    for (int i = 0; i < 3; i++) theta += 0.5 * phi[3 * a + i] * phi[3 * a + i];
  }
  return theta;
}

/* J = I − D + D diag(ρ) W, row by row (row k of W is read, W symmetric or not); every row stored
 * whole so that the pattern, hence the symbolic factorization, stays the same. */
static PetscErrorCode Jacobian_Private(FcContactProblem p, const PetscReal rho[], const PetscReal D[], PetscReal eps, PetscInt cols[], PetscScalar buf[], Mat J)
{
  const PetscInt n = 3 * p->m;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < p->m; a++)
    for (int i = 0; i < 3; i++) {
      const PetscInt row = 3 * a + i;
      if (FcContactProblemIsSparse(p)) { /* the stored blocks (a, b) of row a: D_a ρ_a W_ab, + I − D_a at b = a */
        PetscInt nc = 0;
        for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
          const PetscInt   b  = p->bcol[k];
          const PetscReal *Wb = &p->bval[9 * k];
          for (int j = 0; j < 3; j++) {
            PetscScalar v = b == a ? (i == j) * (1 + eps) - D[9 * a + 3 * i + j] : 0;
            for (int kk = 0; kk < 3; kk++) v += D[9 * a + 3 * i + kk] * rho[3 * a + kk] * Wb[3 * kk + j];
            cols[nc]  = 3 * b + j;
            buf[nc++] = v;
          }
        }
        PetscCall(MatSetValues(J, 1, &row, nc, cols, buf, INSERT_VALUES));
        continue;
      }
      for (PetscInt j = 0; j < n; j++) buf[j] = 0;
      for (int k = 0; k < 3; k++) {
        const PetscReal  c  = D[9 * a + 3 * i + k];
        const PetscReal *Wk = &p->W[(size_t)(3 * a + k) * n];
        if (c == 0) continue;
        buf[3 * a + k] -= c;
        for (PetscInt j = 0; j < n; j++) buf[j] += c * rho[3 * a + k] * Wk[j];
      }
      buf[row] += 1 + eps;
      for (PetscInt j = 0; j < n; j++) cols[j] = j;
      PetscCall(MatSetValues(J, 1, &row, n, cols, buf, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* nsgs sweeps from r: the fallback round (the error test of the Newton loop then decides). */
static PetscErrorCode Fallback_Private(FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p, PetscReal r[])
{
  PetscFunctionBegin;
  if (!nt->gs) {
    PetscCall(FcContactSolverCreate(&nt->gs));
    PetscCall(FcContactSolverSetType(nt->gs, "nsgs"));
    PetscCall(FcContactSolverSetWarmStart(nt->gs, PETSC_TRUE));
  }
  PetscCall(FcContactSolverSetTolerances(nt->gs, s->params.tol, nt->gs_sweeps));
  PetscCall(FcContactSolverSolve(nt->gs, p, r));
  nt->nfallback[0]++;
  PetscFunctionReturn(0);
}

/* The Newton direction J Δr = −Φ at r (u = W r + q in nt->u) into nt->dr, with J + εI and the
 * element of ∂Φ chosen by tie_active (Phi_Private); *solved false when the KSP failed. */
/* The small path's J = I − D + D diag(ρ) W (+ εI), dense row-major in nt->Jd (the same entries
 * as Jacobian_Private). */
static void JacobianDense_Private(FcContactProblem p, const PetscReal rho[], const PetscReal D[], PetscReal eps, PetscReal *J)
{
  const PetscInt n = 3 * p->m;

  for (PetscInt i = 0; i < n * n; i++) J[i] = 0;
  for (PetscInt a = 0; a < p->m; a++)
    for (int i = 0; i < 3; i++) {
      PetscReal *Jr = J + (size_t)(3 * a + i) * n;
      for (int k = 0; k < 3; k++) {
        const PetscReal c = D[9 * a + 3 * i + k];
        if (c == 0) continue;
        Jr[3 * a + k] -= c;
        if (p->W) {
          const PetscReal *Wk = &p->W[(size_t)(3 * a + k) * n];
          for (PetscInt j = 0; j < n; j++) Jr[j] += c * rho[3 * a + k] * Wk[j];
        } else
          for (PetscInt kb = p->bptr[a]; kb < p->bptr[a + 1]; kb++) {
            const PetscReal *Wb = &p->bval[9 * kb];
            for (int j = 0; j < 3; j++) Jr[3 * p->bcol[kb] + j] += c * rho[3 * a + k] * Wb[3 * k + j];
          }
      }
      Jr[3 * a + i] += 1 + eps;
    }
}

/* LU of J in place (row-major n × n), natural order, without pivoting; false when a pivot is "zero"
 * by PETSc's rule for its LU with the nonzero shift (MAT_SHIFT_NONZERO: MatPivotCheck_nz,
 * petsc/private/matimpl.h, with the PCFactor defaults zeropivot = 100 ε): |p| ≤ 100 ε · (sum of
 * |entries| of its row of U). The caller then restarts with a diagonal shift, as PETSc does. */
static PetscBool DenseLU_Private(PetscInt n, PetscReal *J)
{
  const PetscReal zero = 100 * PETSC_MACHINE_EPSILON;

  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *Jk = J + (size_t)k * n;
    PetscReal        rs = 0;
    for (PetscInt j = k + 1; j < n; j++) rs += PetscAbsReal(Jk[j]);
    if (PetscAbsReal(Jk[k]) <= zero * rs || Jk[k] == 0) return PETSC_FALSE;
    for (PetscInt i = k + 1; i < n; i++) {
      PetscReal      *Ji = J + (size_t)i * n;
      const PetscReal l  = Ji[k] / Jk[k];
      Ji[k]              = l;
      if (l == 0) continue;
      for (PetscInt j = k + 1; j < n; j++) Ji[j] -= l * Jk[j];
    }
  }
  return PETSC_TRUE;
}

/* x ← (LU)⁻¹ x with the factors of DenseLU_Private. */
static void DenseLUSolve_Private(PetscInt n, const PetscReal *J, PetscReal x[])
{
  for (PetscInt i = 1; i < n; i++) {
    PetscReal v = x[i];
    for (PetscInt j = 0; j < i; j++) v -= J[(size_t)i * n + j] * x[j];
    x[i] = v;
  }
  for (PetscInt k = n - 1; k >= 0; k--) {
    PetscReal v = x[k];
    for (PetscInt j = k + 1; j < n; j++) v -= J[(size_t)k * n + j] * x[j];
    x[k] = v / J[(size_t)k * n + k];
  }
}

/* The envelope path's J = I − D + D diag(ρ) W (+ εI), block by block of W's pattern (the same
 * entries as Jacobian_Private). */
static void JacobianEnvelope_Private(FcContactProblem p, const PetscReal rho[], const PetscReal D[], PetscReal eps, FcEnvelopeLU *env)
{
  FcEnvelopeLUZero(env);
  for (PetscInt a = 0; a < p->m; a++) {
    const PetscReal *Da = &D[9 * a], *ro = &rho[3 * a];
    PetscReal        DR[9];
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 3; k++) DR[3 * i + k] = Da[3 * i + k] * ro[k];
    for (PetscInt kb = p->bptr[a]; kb < p->bptr[a + 1]; kb++) {
      const PetscReal *Wb = &p->bval[9 * kb];
      PetscReal        blk[9];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) blk[3 * i + j] = DR[3 * i] * Wb[j] + DR[3 * i + 1] * Wb[3 + j] + DR[3 * i + 2] * Wb[6 + j];
      if (p->bcol[kb] == a)
        for (int i = 0; i < 3; i++) {
          for (int j = 0; j < 3; j++) blk[3 * i + j] -= Da[3 * i + j];
          blk[4 * i] += 1 + eps;
        }
      FcEnvelopeLUSetBlock(env, a, p->bcol[kb], blk);
    }
  }
}

/* y = W x (no q): the line search moves u along W Δr instead of forming W(r + αΔr) + q per trial. */
static PetscErrorCode MultW_Private(FcContactProblem p, const PetscReal x[], PetscReal y[])
{
  const PetscInt n = 3 * p->m;

  PetscFunctionBegin;
  if (!p->W) {
    for (PetscInt a = 0; a < p->m; a++) {
      PetscReal s0 = 0, s1 = 0, s2 = 0;
      for (PetscInt k = p->bptr[a]; k < p->bptr[a + 1]; k++) {
        const PetscReal *B = p->bval + 9 * (size_t)k, *xb = x + 3 * p->bcol[k];
        s0 += B[0] * xb[0] + B[1] * xb[1] + B[2] * xb[2];
        s1 += B[3] * xb[0] + B[4] * xb[1] + B[5] * xb[2];
        s2 += B[6] * xb[0] + B[7] * xb[1] + B[8] * xb[2];
      }
      y[3 * a]     = s0;
      y[3 * a + 1] = s1;
      y[3 * a + 2] = s2;
    }
    PetscCall(PetscLogFlops(18.0 * p->nb));
    PetscFunctionReturn(0);
  }
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal *Wi = p->W + (size_t)i * n;
    PetscReal        v  = 0;
    for (PetscInt j = 0; j < n; j++) v += Wi[j] * x[j];
    y[i] = v;
  }
  PetscCall(PetscLogFlops(2.0 * n * n));
  PetscFunctionReturn(0);
}

static PetscErrorCode DirectionSolve_Private(
  FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p, PetscBool tie_active, const PetscReal r[], PetscReal eps, PetscBool *solved);

/* The direction into nt->dr, and W Δr into nt->wdr for the line search. */
static PetscErrorCode Direction_Private(
  FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p, const PetscReal r[], PetscBool tie_active, PetscReal eps, PetscBool *solved)
{
  PetscFunctionBegin;
  PetscCall(DirectionSolve_Private(s, nt, p, tie_active, r, eps, solved));
  if (*solved) PetscCall(MultW_Private(p, nt->dr, nt->wdr));
  PetscFunctionReturn(0);
}

static PetscErrorCode DirectionSolve_Private(
  FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p, PetscBool tie_active, const PetscReal r[], PetscReal eps, PetscBool *solved)
{
  KSPConvergedReason kreason;

  PetscFunctionBegin;
  if (nt->usepiece) (void)PhiPiece_Private(p, nt->rho, nt->piece, r, nt->u, nt->phi, nt->D);
  else (void)Phi_Private(p, nt->rho, tie_active, r, nt->u, nt->phi, nt->D, NULL);
  if (nt->path == NEWTON_LU_ENVELOPE) {
    const PetscInt n     = 3 * p->m;
    PetscReal      shift = 0;
    PetscBool      ok;
    /* A "zero" pivot (PETSc's rule, 100 ε of the row), i.e. a singular J (a rank-deficient W with
     * every contact sticking: rigid multi-body problems). With `auto` the solve goes on with
     * PETSc's LU, whose ordering and shift were measured on such problems (its iterates are those
     * of the PETSc path from here on); with `envelope` it restarts with J + δI, δ =
     * NEWTON_ENVELOPE_SHIFT doubled at each further restart. */
    for (int k = 0;; k++) {
      JacobianEnvelope_Private(p, nt->rho, nt->D, eps + shift, &nt->env);
      FcEnvelopeLUFactor(&nt->env, 100 * PETSC_MACHINE_EPSILON, &ok);
      PetscCall(PetscLogFlops(nt->env.flops));
      if (ok || k == 60 || nt->lu == NEWTON_LU_AUTO) break;
      shift = shift > 0 ? 2 * shift : NEWTON_ENVELOPE_SHIFT;
      nt->nshift[0]++;
    }
    if (ok || nt->lu != NEWTON_LU_AUTO) {
      for (PetscInt i = 0; i < n; i++) nt->dr[i] = -nt->phi[i];
      FcEnvelopeLUSolve(&nt->env, nt->dr);
      PetscCall(PetscLogFlops(4.0 * nt->env.nenv + n));
      *solved = PETSC_TRUE;
      for (PetscInt i = 0; i < n; i++)
        if (PetscIsInfOrNanReal(nt->dr[i])) *solved = PETSC_FALSE;
      PetscFunctionReturn(0);
    }
    PetscCall(PetscInfo(NULL, "newton: a zero pivot in the envelope LU (J singular): PETSc's LU for the rest of the solve\n"));
    nt->path = NEWTON_LU_PETSC;
    nt->nswitch[0]++;
    PetscCall(WorkPetsc_Private(s, nt, p));
  }
  if (nt->path == NEWTON_LU_OWN) {
    const PetscInt n     = 3 * p->m;
    PetscReal      shift = 0;
    /* a "zero" pivot restarts the factorization with 100 ε on the diagonal, doubled at each
     * further restart: PETSc's nonzero shift (DenseLU_Private), so that the own LU gives the PETSc
     * path's direction on a singular J (rank-deficient W, every contact sticking: J = diag(ρ) W) */
    for (int k = 0;; k++) {
      JacobianDense_Private(p, nt->rho, nt->D, eps + shift, nt->Jd);
      PetscCall(PetscLogFlops(2.0 * n * n * n / 3.0));
      if (DenseLU_Private(n, nt->Jd) || k == 60) break;
      shift = shift > 0 ? 2 * shift : 100 * PETSC_MACHINE_EPSILON;
      nt->nshift[0]++;
    }
    for (PetscInt i = 0; i < n; i++) nt->dr[i] = -nt->phi[i];
    DenseLUSolve_Private(n, nt->Jd, nt->dr);
    PetscCall(PetscLogFlops(2.0 * n * n));
    *solved = PETSC_TRUE;
    for (PetscInt i = 0; i < n; i++)
      if (PetscIsInfOrNanReal(nt->dr[i])) *solved = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  PetscCall(Jacobian_Private(p, nt->rho, nt->D, eps, nt->cols, nt->row, nt->J));
  PetscCall(VecScale(nt->b, -1.0)); /* b wraps phi, x wraps dr */
  PetscCall(KSPSetOperators(nt->ksp, nt->J, nt->J));
  PetscCall(KSPSolve(nt->ksp, nt->b, nt->x));
  PetscCall(KSPGetConvergedReason(nt->ksp, &kreason));
  *solved = kreason > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* θ at r + α Δr, the point in nt->rt (its velocity in nt->ut). */
static PetscErrorCode Theta_Private(FcContactSolver_Newton *nt, FcContactProblem p, const PetscReal r[], PetscReal alpha, PetscReal *theta)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < 3 * p->m; i++) {
    nt->rt[i] = r[i] + alpha * nt->dr[i];
    nt->ut[i] = nt->u[i] + alpha * nt->wdr[i];
  }
  *theta = Phi_Private(p, nt->rho, PETSC_TRUE, nt->rt, nt->ut, nt->phi, NULL, NULL);
  nt->nls[0]++;
  PetscFunctionReturn(0);
}

/* The first step of a solve given a velocity hint (FcContactSolverSetVelocityHint: the stepper's
 * u of the previous solve, mapped by contact): the Newton step on the piece of Φ where the
 * previous solve ended (each contact separated, sticking or sliding as x_hint = r − ρ u_hint says;
 * a contact without a hint on the piece its x lies in). On a piece Φ is smooth — affine where the
 * contacts separate or stick — so from any r this one step solves the piece's equations: the
 * answer itself when the contacts keep their states, as they mostly do from one step to the next.
 * The step is taken when its full length passes the Armijo test on the true θ (the line search's
 * first trial), else forgotten (cost: one factorization) and the iteration goes on as without a
 * hint. Why: from the warm start r, x = r − ρu of the new problem puts sticking contacts whose free
 * velocity changed outside the disk and pressed ones whose gap velocity changed at the kink, and
 * the Newton directions of those pieces are rejected by the line search for tens of steps (the
 * masonry arch collapsing at μ = 0.2: α down to 1e-5). Measured there: the hint step was taken in
 * 95 of the 100 solves given a hint (of 106 to t = 2.64 s), and the solves took 11.5 Newton steps
 * per time step instead of 15.2 (doc/performance.md, the masonry arch). */
static PetscErrorCode HintStep_Private(
  FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p, const PetscReal r[], PetscReal theta, PetscBool *taken)
{
  PetscInt  npc[3] = {0, 0, 0}, nnat = 0;
  PetscReal theta_t = PETSC_MAX_REAL;
  PetscBool solved;

  PetscFunctionBegin;
  *taken = PETSC_FALSE;
  for (PetscInt a = 0; a < p->m; a++) {
    const PetscReal *ra = &r[3 * a], *uh = &s->uhint[3 * a], *ro = &nt->rho[3 * a];
    if (PetscIsInfOrNanReal(uh[0]) || PetscIsInfOrNanReal(uh[1]) || PetscIsInfOrNanReal(uh[2])) {
      nt->piece[a] = NEWTON_PIECE_NATURAL; /* a contact new to this solve */
      nnat++;
    } else {
      const PetscReal xn = ra[0] - ro[0] * uh[0], xt[2] = {ra[1] - ro[1] * uh[1], ra[2] - ro[2] * uh[2]};
      nt->piece[a] = xn <= 0 ? NEWTON_PIECE_SEPARATED : PetscSqrtReal(xt[0] * xt[0] + xt[1] * xt[1]) <= p->mu[a] * xn ? NEWTON_PIECE_STICK : NEWTON_PIECE_SLIP;
      npc[nt->piece[a]]++;
    }
  }
  if (nnat == p->m) PetscFunctionReturn(0); /* nothing to go by */
  nt->usepiece = PETSC_TRUE;
  PetscCall(Direction_Private(s, nt, p, r, PETSC_TRUE, 0, &solved));
  nt->usepiece = PETSC_FALSE;
  if (solved) PetscCall(Theta_Private(nt, p, r, 1.0, &theta_t));
  *taken = (PetscBool)(solved && theta_t <= (1 - 2 * nt->sigma) * theta);
  nt->nhint[0]++;
  if (*taken) nt->nhinttaken[0]++;
  if (nt->monitor)
    PetscCall(PetscPrintf(PETSC_COMM_SELF,
      "  newton hint step (separated %" PetscInt_FMT ", stick %" PetscInt_FMT ", slip %" PetscInt_FMT ", new %" PetscInt_FMT "): theta %.6e -> %.6e, %s\n",
      npc[0], npc[1], npc[2], nnat, (double)theta, solved ? (double)theta_t : (double)NAN, *taken ? "taken" : "refused"));
  PetscFunctionReturn(0);
}

/* ρ from the diagonal of W⁻¹ (rho "inverse", head comment): W = L Lᵀ by a dense Cholesky
 * factorization (row-major, in place in nt->Wf), then (W⁻¹)_ii = ‖L⁻¹ e_i‖² by forward
 * substitution, column by column of L⁻¹ (y = L⁻¹ e_c, zero above c). *spd is false, and ρ
 * untouched, when a pivot falls to 3m ε W_ii or below (W not numerically positive definite). */
static PetscErrorCode RhoInverse_Private(FcContactSolver_Newton *nt, FcContactProblem p, PetscBool *spd)
{
  const PetscInt m = p->m, n = 3 * m;
  PetscReal     *L, *y, *dinv;

  PetscFunctionBegin;
  *spd = PETSC_FALSE;
  if ((size_t)n * n > nt->Wfcap) {
    PetscCall(PetscFree(nt->Wf));
    PetscCall(PetscMalloc1((size_t)n * n + 2 * (size_t)n, &nt->Wf));
    nt->Wfcap = (size_t)n * n;
  }
  L    = nt->Wf;
  y    = L + (size_t)n * n;
  dinv = y + n;
  for (PetscInt a = 0; a < m; a++)
    for (PetscInt b = 0; b < m; b++) {
      PetscReal blk[9];
      FcContactProblemGetBlock(p, a, b, blk);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) L[(size_t)(3 * a + i) * n + 3 * b + j] = blk[3 * i + j];
    }
  for (PetscInt j = 0; j < n; j++) { /* L Lᵀ = ½(W + Wᵀ), the lower triangle */
    PetscReal d = L[(size_t)j * n + j], wjj = d;
    for (PetscInt k = 0; k < j; k++) d -= L[(size_t)j * n + k] * L[(size_t)j * n + k];
    if (!(d > n * PETSC_MACHINE_EPSILON * wjj) || !(wjj > 0)) PetscFunctionReturn(0);
    d                    = PetscSqrtReal(d);
    L[(size_t)j * n + j] = d;
    for (PetscInt i = j + 1; i < n; i++) {
      PetscReal v = 0.5 * (L[(size_t)i * n + j] + L[(size_t)j * n + i]);
      for (PetscInt k = 0; k < j; k++) v -= L[(size_t)i * n + k] * L[(size_t)j * n + k];
      L[(size_t)i * n + j] = v / d;
    }
  }
  for (PetscInt i = 0; i < n; i++) dinv[i] = 0;
  for (PetscInt c = 0; c < n; c++) {
    for (PetscInt i = c; i < n; i++) {
      PetscReal v = (i == c);
      for (PetscInt k = c; k < i; k++) v -= L[(size_t)i * n + k] * y[k];
      y[i] = v / L[(size_t)i * n + i];
    }
    for (PetscInt i = c; i < n; i++) dinv[c] += y[i] * y[i]; /* W⁻¹ = L⁻ᵀ L⁻¹: (W⁻¹)_cc = Σ_i (L⁻¹)_ic² */
  }
  for (PetscInt a = 0; a < m; a++) {
    nt->rho[3 * a]     = dinv[3 * a];
    nt->rho[3 * a + 1] = nt->rho[3 * a + 2] = 0.5 * (dinv[3 * a + 1] + dinv[3 * a + 2]);
  }
  *spd = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* ρ of Φ (the head comment): W⁻¹'s diagonal when asked and W is numerically SPD, else the
 * inverse diagonal of W_aa; *ok = false when a diagonal block is not positive (a breakdown). */
static PetscErrorCode Rho_Private(FcContactSolver_Newton *nt, FcContactProblem p, PetscBool *ok)
{
  PetscFunctionBegin;
  *ok             = PETSC_TRUE;
  nt->nrhofall[0] = 0;
  if (nt->rho_inverse) {
    PetscBool spd;
    PetscCall(RhoInverse_Private(nt, p, &spd));
    if (spd) PetscFunctionReturn(0);
    nt->nrhofall[0] = 1;
    PetscCall(PetscInfo(NULL, "newton: rho inverse: W is not numerically positive definite, rho from its diagonal\n"));
  }
  for (PetscInt a = 0; a < p->m; a++) { /* ρ: the inverse diagonal of W_aa */
    PetscReal blk[9], wn, wt;
    FcContactProblemGetBlock(p, a, a, blk);
    wn = blk[0];
    wt = 0.5 * (blk[4] + blk[8]);
    if (!(wn > 0) || !(wt > 0)) {
      *ok = PETSC_FALSE;
      PetscFunctionReturn(0);
    }
    nt->rho[3 * a]     = 1 / wn;
    nt->rho[3 * a + 1] = nt->rho[3 * a + 2] = 1 / wt;
  }
  PetscFunctionReturn(0);
}

/* ε of J + εI: reg ‖Φ‖ / max(‖r‖, ‖ρq‖), at most reg_max (the head comment); θ = ½‖Φ‖² and
 * the number of contacts at the kink come with it. */
static PetscReal Eps_Private(FcContactSolver_Newton *nt, FcContactProblem p, const PetscReal r[], PetscReal *theta, PetscInt *nties)
{
  PetscReal sr = 0, sq = 0;

  *theta = Phi_Private(p, nt->rho, PETSC_TRUE, r, nt->u, nt->phi, NULL, nties);
  for (PetscInt i = 0; i < 3 * p->m; i++) {
    sr += r[i] * r[i];
    sq += PetscSqr(nt->rho[i] * p->q[i]);
  }
  return PetscMin(nt->reg_max, nt->reg * PetscSqrtReal(2 * *theta) / PetscMax(PetscSqrtReal(PetscMax(sr, sq)), PETSC_SMALL));
}

/* Armijo on θ along the direction in nt->dr from α = 1, halving (nonmonotone reference
 * theta_ref); *theta_t: θ at α = 1 when first_known, evaluated otherwise. On success nt->rt is
 * the point at the accepted *alpha. */
static PetscErrorCode Armijo_Private(FcContactSolver_Newton *nt, FcContactProblem p, const PetscReal r[], PetscReal theta, PetscReal theta_ref,
  PetscBool first_known, PetscReal *theta_t, PetscReal *alpha, PetscBool *ok)
{
  PetscFunctionBegin;
  *ok    = PETSC_FALSE;
  *alpha = 1;
  for (PetscInt k = 0; k <= nt->ls_max_it; k++, *alpha *= 0.5) {
    if (k || !first_known) PetscCall(Theta_Private(nt, p, r, *alpha, theta_t));
    if (*theta_t <= theta_ref - 2 * nt->sigma * *alpha * theta) {
      *ok = PETSC_TRUE;
      break;
    }
  }
  PetscFunctionReturn(0);
}

/* One Newton iteration's step from r (θ, its nonmonotone reference, ε, the contacts at the kink):
 * the direction with the kink's contacts active, and when there are such contacts also inactive,
 * the one whose full step gives the smaller θ kept (both matrices are elements of the
 * B-subdifferential of Φ; the head comment); Armijo along it; the safeguard (head comment): no
 * step, or a short one (α < 1/8, a near-singular J), and the regularized direction J + εI gets its
 * own line search, the point with the smaller θ kept. *ok: nt->rt is the next iterate. */
static PetscErrorCode Step_Private(FcContactSolver s, FcContactSolver_Newton *nt, FcContactProblem p, const PetscReal r[], PetscReal theta, PetscReal theta_ref,
  PetscReal eps, PetscInt nties, PetscBool *ok, PetscReal *alpha)
{
  const PetscInt n       = 3 * p->m;
  PetscReal      theta_t = 0;
  PetscBool      solved;

  PetscFunctionBegin;
  *ok    = PETSC_FALSE;
  *alpha = 1;
  PetscCall(Direction_Private(s, nt, p, r, PETSC_TRUE, 0, &solved));
  if (solved) PetscCall(Theta_Private(nt, p, r, 1.0, &theta_t));
  if (nties) {
    PetscReal theta_i = PETSC_MAX_REAL;
    PetscBool solved_i;
    PetscCall(PetscArraycpy(nt->dr2, nt->dr, n));
    PetscCall(Direction_Private(s, nt, p, r, PETSC_FALSE, 0, &solved_i));
    if (solved_i) PetscCall(Theta_Private(nt, p, r, 1.0, &theta_i));
    if (solved_i && (!solved || theta_i < theta_t)) {
      solved  = PETSC_TRUE;
      theta_t = theta_i;
    } else if (solved) { /* the first direction: its W Δr again for the line search */
      PetscCall(PetscArraycpy(nt->dr, nt->dr2, n));
      PetscCall(MultW_Private(p, nt->dr, nt->wdr));
    }
    nt->nties[0]++;
  }
  if (solved) {
    nt->nnewton[0]++;
    PetscCall(Armijo_Private(nt, p, r, theta, theta_ref, PETSC_TRUE, &theta_t, alpha, ok)); /* α = 1 was evaluated above */
    if (*ok) PetscCall(Theta_Private(nt, p, r, *alpha, &theta_t));                          /* rt at the accepted α */
  }
  if (eps > 0 && (!*ok || *alpha < 0.125)) {
    const PetscReal theta_best = *ok ? theta_t : theta;
    PetscReal       alpha_r = 1, theta_r = 0;
    PetscBool       solved_r, ok_r       = PETSC_FALSE;
    if (*ok) PetscCall(PetscArraycpy(nt->dr2, nt->rt, n)); /* the point found so far */
    PetscCall(Direction_Private(s, nt, p, r, PETSC_TRUE, eps, &solved_r));
    if (solved_r) PetscCall(Armijo_Private(nt, p, r, theta, theta_ref, PETSC_FALSE, &theta_r, &alpha_r, &ok_r));
    nt->nreg[0]++;
    if (ok_r && theta_r < theta_best) {
      *ok    = PETSC_TRUE;
      *alpha = alpha_r;
    } else if (*ok) PetscCall(PetscArraycpy(nt->rt, nt->dr2, n));
  }
  PetscFunctionReturn(0);
}

/* The solve's counters [0] into the object's totals [1], and the solve's line of -info. */
static PetscErrorCode Accumulate_Private(FcContactSolver_Newton *nt)
{
  PetscInt *c[] = {nt->nnewton, nt->nties, nt->nreg, nt->nls, nt->nfallback, nt->nrhofall, nt->nshift, nt->nswitch, nt->nhint, nt->nhinttaken};

  PetscFunctionBegin;
  PetscCall(PetscInfo(NULL,
    "newton: %" PetscInt_FMT " Newton steps, %" PetscInt_FMT " line-search evaluations, %" PetscInt_FMT " fallback rounds, %" PetscInt_FMT
    " steps with contacts at the kink, %" PetscInt_FMT " regularized retries, %" PetscInt_FMT " restarts of an own LU with a shift\n",
    nt->nnewton[0], nt->nls[0], nt->nfallback[0], nt->nties[0], nt->nreg[0], nt->nshift[0]));
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) c[i][1] += c[i][0];
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolve_Newton(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_Newton *nt = (FcContactSolver_Newton *)s->data;
  const PetscInt          m = p->m, n = 3 * m;
  PetscReal               theta, error;
  PetscBool               rho_ok;

  PetscFunctionBegin;
  st->iterations = 0;
  nt->nnewton[0] = nt->nls[0] = nt->nfallback[0] = nt->nties[0] = nt->nreg[0] = nt->nshift[0] = nt->nswitch[0] = nt->nhint[0] = nt->nhinttaken[0] = 0;
  if (m == 0) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    PetscFunctionReturn(0);
  }
  /* a chunk of auto that continues the last solve (s->resume): the path it ended on (PETSc's LU
   * after a zero pivot in the envelope), its J and the KSP's symbolic factorization are kept — the
   * same directions, without the envelope's ordering, the failed envelope factorization and PETSc's
   * symbolic phase again at every chunk (on a 100-contact stack: 6 steps in 3 chunks cost 1.5 times
   * newton alone's 6 steps, doc/contact.md "auto") */
  if (!(s->resume && nt->lastp == p && nt->u && m <= nt->mcap)) PetscCall(Work_Private(s, nt, p));
  else nt->npath[nt->path]++;
  nt->lastp = p;
  PetscCall(Rho_Private(nt, p, &rho_ok));
  if (!rho_ok) {
    st->reason = FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN;
    PetscFunctionReturn(0);
  }
  nt->nhist = 0;
  for (PetscInt it = 0;; it++) {
    PetscReal alpha, eps, theta_ref;
    PetscInt  nties;
    PetscBool ok;

    PetscCall(FcContactProblemComputeVelocity(p, r, nt->u));
    PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, nt->u, &error));
    st->iterations = it;
    if (PetscIsInfOrNanReal(error)) {
      st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
      break;
    }
    if (error <= s->params.tol) {
      st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
      break;
    }
    if (it >= s->params.max_it) {
      st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
      break;
    }
    eps = Eps_Private(nt, p, r, &theta, &nties);
    /* the line search's reference: θ, or with nonmonotone > 0 the largest θ of the last
     * nonmonotone + 1 iterates (Grippo, Lampariello & Lucidi, SIAM J. Numer. Anal. 23, 1986) */
    nt->hist[nt->nhist++ % 32] = theta; /* the initial iterate too: the hint step below is a step from it */
    if (it == 0 && nt->hint && s->uhint) {
      PetscBool taken;
      PetscCall(HintStep_Private(s, nt, p, r, theta, &taken));
      if (taken) {
        PetscCall(PetscArraycpy(r, nt->rt, n));
        nt->nnewton[0]++;
        continue;
      }
    }
    theta_ref = theta;
    for (PetscInt k = 1; k <= PetscMin(nt->nonmonotone, PetscMin(nt->nhist, 32) - 1); k++) theta_ref = PetscMax(theta_ref, nt->hist[(nt->nhist - 1 - k) % 32]);
    PetscCall(Step_Private(s, nt, p, r, theta, theta_ref, eps, nties, &ok, &alpha));
    if (nt->monitor)
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  newton %3" PetscInt_FMT " error %.6e theta %.6e eps %.2e ties %" PetscInt_FMT " %s alpha %g\n", it,
        (double)error, (double)theta, (double)eps, nties, ok ? "step" : "fallback", ok ? (double)alpha : 0.0));
    if (ok) PetscCall(PetscArraycpy(r, nt->rt, n));
    else PetscCall(Fallback_Private(s, nt, p, r)); /* singular J or no descent: a round of Gauss–Seidel, then Newton again */
  }
  s->uexact = nt->u; /* every exit of the loop follows the product for the r returned */
  PetscCall(Accumulate_Private(nt));
  PetscFunctionReturn(0);
}

/* A real option >= 0 and finite; a bad value is recorded for the object's one-line input error
 * (as FcContactSolverOptionsBoundedInt does for integers). */
static PetscErrorCode NonNegativeReal_Private(FcContactSolver s, PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], PetscReal *value)
{
  PetscReal v = *value;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsReal(opt, text, "", v, &v, &set));
  if (!set) PetscFunctionReturn(0);
  if (!(v >= 0) || PetscIsInfOrNanReal(v)) {
    if (!s->opterr[0]) {
      snprintf(s->optname, sizeof s->optname, "-%s%s", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1);
      snprintf(s->opterr, sizeof s->opterr, "must be finite and >= 0 (got %g)", (double)v);
    }
  } else *value = v;
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSetFromOptions_Newton(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_Newton *nt = (FcContactSolver_Newton *)s->data;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "newton: semismooth Newton on the Alart-Curnier function");
  PetscCall(FcContactSolverOptionsBoundedInt(
    s, PetscOptionsObject, "-newton_gs_sweeps", "nsgs sweeps of a fallback round (singular Jacobian or failed line search)", &nt->gs_sweeps, 1));
  PetscCall(FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-newton_ls_max_it", "Halvings of the Armijo line search", &nt->ls_max_it, 0));
  PetscCall(NonNegativeReal_Private(s, PetscOptionsObject, "-newton_reg", "Regularization J + eps I, eps = reg |Phi| / max(|r|, |rho q|) (0: none)", &nt->reg));
  PetscCall(NonNegativeReal_Private(s, PetscOptionsObject, "-newton_reg_max", "Largest eps of the regularization", &nt->reg_max));
  { /* an unknown value is the object's one-line input error, like a bad number */
    char      val[16];
    PetscBool set;
    PetscCall(PetscOptionsString("-newton_rho",
      "Scaling rho of the Alart-Curnier function: inverse diagonal of W (diag) or diagonal of W^-1 (inverse: near-rigid bodies)", "",
      nt->rho_inverse ? "inverse" : "diag", val, sizeof val, &set));
    if (set) {
      if (!strcmp(val, "diag") || !strcmp(val, "inverse")) nt->rho_inverse = (PetscBool)(strcmp(val, "inverse") == 0);
      else if (!s->opterr[0]) {
        snprintf(s->optname, sizeof s->optname, "-%snewton_rho", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "");
        snprintf(s->opterr, sizeof s->opterr, "unknown value '%s' (diag or inverse)", val);
      }
    }
  }
  PetscCall(FcContactSolverOptionsBoundedInt(s, PetscOptionsObject, "-newton_nonmonotone",
    "Armijo against the largest theta of this many previous iterates too (0: monotone; at most 31)", &nt->nonmonotone, 0));
  nt->nonmonotone = PetscMin(nt->nonmonotone, 31);
  PetscCall(PetscOptionsBool("-newton_hint", "Given a velocity hint (the stepper's previous solve), a first step on the piece of Phi where that solve ended",
    "", nt->hint, &nt->hint, NULL));
  PetscCall(PetscOptionsBool(
    "-newton_monitor", "Print the common error, theta = |Phi|^2/2 and the step of each Newton iteration", "", nt->monitor, &nt->monitor, NULL));
  { /* an unknown value is the object's one-line input error, like newton_rho's */
    char      val[16];
    PetscBool set;
    PetscCall(PetscOptionsString("-newton_lu",
      "LU of the Newton matrix: own (dense, no PETSc object), envelope (block-sparse W: RCM order, no PETSc object), petsc (AIJ + KSP, the ksp/pc options apply), auto (own for a dense W or up to 32 contacts, else envelope up to 2e7 flops, else petsc)",
      "", NewtonLUNames[nt->lu], val, sizeof val, &set));
    if (set) {
      PetscInt k;
      for (k = 0; k < 4 && strcmp(val, NewtonLUNames[k]); k++) {}
      if (k < 4) nt->lu = k;
      else if (!s->opterr[0]) {
        snprintf(s->optname, sizeof s->optname, "-%snewton_lu", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "");
        snprintf(s->opterr, sizeof s->opterr, "unknown value '%s' (auto, own, envelope or petsc)", val);
      }
    }
  }
  PetscOptionsHeadEnd();
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_Newton(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_Newton *nt = (FcContactSolver_Newton *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "newton: rho %s\n", nt->rho_inverse ? "inverse (diagonal of W^-1)" : "diag (inverse diagonal of W)"));
  if (nt->rho_inverse && s->nsolves)
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "newton: rho inverse fell back to diag (W not positive definite) in %" PetscInt_FMT " of %" PetscInt_FMT " solves\n", nt->nrhofall[1], s->nsolves));
  PetscCall(PetscViewerASCIIPrintf(viewer,
    "newton: Alart-Curnier, J solved by an LU with a nonzero-pivot shift (newton_lu), J + eps I with eps = %g |Phi|/max(|r|, |rho q|) <= %g, Armijo sigma %g, ls_max_it %" PetscInt_FMT
    ", nsgs fallback of %" PetscInt_FMT " sweeps\n",
    (double)nt->reg, (double)nt->reg_max, (double)nt->sigma, nt->ls_max_it, nt->gs_sweeps));
  if (s->nsolves)
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "newton: Newton steps %" PetscInt_FMT ", line-search evaluations %" PetscInt_FMT ", fallback rounds %" PetscInt_FMT
      ", steps with contacts at the kink %" PetscInt_FMT ", regularized retries %" PetscInt_FMT " (last solve); %" PetscInt_FMT ", %" PetscInt_FMT
      ", %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT " (all solves)\n",
      nt->nnewton[0], nt->nls[0], nt->nfallback[0], nt->nties[0], nt->nreg[0], nt->nnewton[1], nt->nls[1], nt->nfallback[1], nt->nties[1], nt->nreg[1]));
  if (s->nsolves) {
    PetscCall(PetscViewerASCIIPrintf(viewer,
      "newton: LU %s; solves by the own dense LU %" PetscInt_FMT ", the envelope LU %" PetscInt_FMT " (%" PetscInt_FMT
      " of them went on with PETSc's at a zero pivot), PETSc's %" PetscInt_FMT "; own LUs restarted with a shift %" PetscInt_FMT " (last solve), %" PetscInt_FMT
      " (all)\n",
      NewtonLUNames[nt->lu], nt->npath[NEWTON_LU_OWN], nt->npath[NEWTON_LU_ENVELOPE], nt->nswitch[1], nt->npath[NEWTON_LU_PETSC], nt->nshift[0],
      nt->nshift[1]));
    if (nt->nhint[1])
      PetscCall(PetscViewerASCIIPrintf(
        viewer, "newton: hint steps taken %" PetscInt_FMT " of %" PetscInt_FMT " tried (all solves)\n", nt->nhinttaken[1], nt->nhint[1]));
    if (nt->path == NEWTON_LU_ENVELOPE)
      PetscCall(PetscViewerASCIIPrintf(viewer,
        "newton: last solve's envelope (RCM order): %" PetscInt_FMT " rows, %.0f entries per triangle, %.3g flops per factorization\n", nt->env.n,
        (double)nt->env.nenv, (double)nt->env.flops));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_Newton(FcContactSolver s)
{
  FcContactSolver_Newton *nt = (FcContactSolver_Newton *)s->data;

  PetscFunctionBegin;
  PetscCall(PetscFree7(nt->u, nt->phi, nt->dr, nt->rt, nt->ut, nt->rho, nt->D));
  PetscCall(PetscFree5(nt->cols, nt->row, nt->dr2, nt->wdr, nt->piece));
  PetscCall(PetscFree2(nt->Jd, nt->piv));
  PetscCall(PetscFree(nt->Wf));
  PetscCall(FcEnvelopeLUDestroy(&nt->env));
  PetscCall(MatDestroy(&nt->J));
  PetscCall(VecDestroy(&nt->b));
  PetscCall(VecDestroy(&nt->x));
  PetscCall(KSPDestroy(&nt->ksp));
  PetscCall(FcContactSolverDestroy(&nt->gs));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_Newton(FcContactSolver s)
{
  FcContactSolver_Newton *nt;

  PetscFunctionBegin;
  PetscCall(PetscNew(&nt));
  nt->gs_sweeps = 10;
  nt->ls_max_it = 30;
  nt->sigma     = 1e-4;
  nt->reg       = 1;
  nt->reg_max   = 1e-3;
  nt->hint      = PETSC_TRUE;
  /* newton's own budget (issue 25), not Gauss–Seidel's 1000 sweeps: a Newton step costs a
   * factorization. 200 = twice the most steps a converging solve took on the generated hard set
   * (90: the 2000-contact wall of bench/newton_hard.py; 1-54 elsewhere, doc/contact.md); a problem
   * that needs more is crawling, and auto (nsgs and newton) is the better choice there. */
  if (!s->params.max_it_set) s->params.max_it = 200;
  s->data               = nt;
  s->ops.solve          = FcContactSolverSolve_Newton;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_Newton;
  s->ops.view           = FcContactSolverView_Newton;
  s->ops.destroy        = FcContactSolverDestroy_Newton;
  PetscFunctionReturn(0);
}
