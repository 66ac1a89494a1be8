/* fcsim — contact solver type "auto": nsgs and newton, switching from one to the other when
 * progress stalls, so that a user gets the right solver without knowing the theory (issue 25,
 * doc/contact.md "auto").
 *
 * The two solvers fail in opposite places. Gauss–Seidel (nsgs) costs little per sweep and
 * converges in a few sweeps on well-conditioned problems, but crawls or cycles where W is
 * rank-deficient or strongly coupled (stacks, walls, large μ: 10⁴ sweeps and still 1e-6). Newton
 * (newton) converges in a few steps where its Jacobian is usable, at the price of one factorization
 * per step, and can crawl with tiny line-search steps on problems with many contacts changing
 * status. auto runs one of them by chunks, measures what each chunk bought (the common error of
 * the object, the wall time of the chunk), predicts the cost of finishing with the current solver
 * and with the other, and switches when the other is predicted cheaper:
 *
 *   - first solver: newton when its own dense LU factors J and W is dense by the fill rule (the contacts
 *     all coupled: the real set's problems of 1-9 contacts, where newton alone was the faster) or a
 *     step is predicted to cost at most first_newton_ratio (10) sweeps (AutoStepSweeps_Private: 1-9.7 on
 *     the real problems of 1-9 contacts, 30 on OneObject, 50 or more on generated ones of 28);
 *     nsgs otherwise (block-sparse W: generated walls and pyramids of 28 contacts took newton 3x
 *     nsgs's time). Newton first runs one chunk of 3 newton_steps, judged at its end.
 *   - nsgs chunks: its first 5 sweeps as 2, 1, 1, 1 (the same iterates: the chunks continue one
 *     nsgs solve), each judged from the third sweep on by the speed of the last two; then 5
 *     sweeps, doubled up to 200 while nsgs keeps its speed. Its speed v (decades of the common
 *     error per sweep) predicts the sweeps still needed, log10(e/tol)/v (∞ when v ≤ 0). Newton's
 *     cost is predicted from its measured speed on its own path, or before it ran as
 *     AUTO_PROBE_SWEEPS (5) steps of the model's price (AutoStepSweeps_Private; a probe of one
 *     step from the initial r, so that one that buys nothing costs at most 20 %), times 2 for
 *     every earlier newton round that stalled. nsgs goes on while its prediction is the smaller.
 *   - newton chunks of 1, 2, 4 .. newton_steps steps: it goes on while its speed over its whole
 *     path (decades per sweep of cost, since it started) is at least nsgs's, else nsgs takes over
 *     from the better iterate; a later round resumes newton's own path (its last iterate), unless
 *     the first round, from the initial r, bought under AUTO_DROP_FRACTION of nsgs's speed (its
 *     global phase): then the next round starts from nsgs's iterate, priced as a probe.
 * Each child keeps the r it returns (warm start), so no work is lost at a switch. One iteration
 * is one nsgs sweep or one Newton step; max_it bounds their sum (default 10 000). The summary
 * (ops.summary: `fclib solve` prints it) says which did the work: sweeps, steps, times (the clock
 * read at switches only), the switches and the solver of the last chunk. The children read their own options
 * (-fc_contact_solver_nsgs_*, -fc_contact_solver_newton_*); auto's are -fc_contact_solver_auto_*
 * below, and any other -fc_contact_solver_auto_* is an input error (one line, exit 2). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "../solver.h"
#include "envelope.h"
#include <string.h>

/* A probe of newton (one step) is taken when nsgs's predicted remaining sweeps exceed this many
 * steps' price: 1/(1.2 − 1), so that a probe that buys nothing costs at most 20 % (AutoAfterNsgs_Private). */
#define AUTO_PROBE_SWEEPS 5

/* A first newton round from the initial r whose speed was under this fraction of nsgs's bought
 * next to nothing (newton's global phase from a far start): its path is dropped, and the next round
 * starts from nsgs's iterate (AutoAfterNewton_Private) */
#define AUTO_DROP_FRACTION 0.1

/* nsgs's first sweeps, judged one by one (AutoAfterNsgs_Private) */
#define AUTO_FIRST_SWEEPS 5

typedef enum { AUTO_FIRST_MODEL, AUTO_FIRST_NSGS, AUTO_FIRST_NEWTON } AutoFirst;
static const char *const AutoFirstNames[] = {"model", "nsgs", "newton"};

/* auto's options (after -fc_contact_solver_auto_): the only ones accepted */
static const char *const AutoOptions[] = {"first", "first_newton_ratio", "newton_steps", "newton_step_sweeps", "monitor", NULL};

typedef struct {
  FcContactSolver gs, nt;       /* the children: nsgs and newton */
  AutoFirst       first;        /* model (default), nsgs or newton */
  PetscReal       first_ratio;  /* model: newton first when a step is predicted to cost at most this many sweeps (5) */
  PetscInt        newton_steps; /* Newton steps a finish is predicted to take (10) */
  PetscReal       step_sweeps;  /* a Newton step's cost in sweeps before one was measured (50) */
  PetscBool       monitor;
  /* last solve */
  PetscInt    sweeps, steps, switches;
  PetscReal   tgs, tnt;           /* the children's times after the first switch (the summary adds the first child's, below) */
  PetscReal   tlater;             /* the time from the first switch to the end (0 without a switch) */
  const char *started, *finished; /* "nsgs" / "newton" */
  /* all solves */
  PetscInt64   sweeps_all, steps_all, switches_all;
  PetscInt     ncap;           /* entries of the work arrays */
  PetscBool    uformed;        /* the last chunk formed W r + q in rnt (AutoChunk_Private) */
  PetscReal   *r0, *rgs, *rnt; /* the initial r, nsgs's last iterate, a u = W r + q (3m each) */
  PetscReal   *rnw;            /* newton's last iterate, where its next round resumes (3m) */
  FcEnvelopeLU env;            /* the ordering newton's envelope LU would take: its flops price a step */
} FcContactSolver_Auto;

/* Whether newton factors its matrix with its own dense LU (newton.c NewtonUseOwnLU_Private with
 * its default `auto`): a dense W, or at most 32 contacts. */
static PetscBool AutoNewtonOwnLU_Private(FcContactProblem p) { return (PetscBool)(!FcContactProblemIsSparse(p) || p->m <= 32); }

/* A Newton step's cost in sweeps, before one was measured, by flops (never by measured time: the
 * same problem takes the same path in every run). A sweep: the local solves (about 200 flops per
 * contact, the quartic's and the 3×3 solves) and the column updates (18 per stored block).
 *   - newton's own dense LU (a dense W or at most 32 contacts): the LU of J, (2/3)(3m)³ = 18 m³,
 *     and about ten products of its size (J, the line search), 90 m². On the real set 1-9.7 for
 *     1-9 contacts (newton the faster there) and 30 for OneObject's 23 (measured 15).
 *   - the envelope LU (a block-sparse W; newton.c NewtonPath_Private): two factorizations of the
 *     envelope's count (envelope.h; newton's first steps from a cold or a Gauss–Seidel start have
 *     contacts at the kink x_N = 0, where it solves both directions) and ten products of J,
 *     18·nb each: 14-163 sweeps on the generated hard set, where a step measured 21-365; the flat
 *     50 of before made a step look 2-6 times cheaper than it was on walls and rock piles, whose
 *     probes then cost auto 0.5-0.9 times nsgs's whole solve (doc/contact.md "auto").
 *   - PETSc's LU (the envelope above FC_ENVELOPE_AUTO_MAX_FLOPS): the larger of that model and
 *     step_sweeps (50).
 * envelope false: on a block-sparse W a lower bound without the ordering (the products alone). */
static PetscErrorCode AutoStepSweeps_Private(FcContactSolver_Auto *au, FcContactProblem p, PetscInt64 nblocks, PetscBool envelope, PetscReal *sweeps)
{
  const PetscReal m = (PetscReal)p->m, nb = (PetscReal)nblocks, fsweep = 200 * m + 18 * nb;
  PetscReal       model;

  PetscFunctionBegin;
  if (AutoNewtonOwnLU_Private(p)) {
    *sweeps = PetscMax(1.0, (18 * m * m * m + 90 * m * m) / fsweep);
    PetscFunctionReturn(0);
  }
  if (!envelope) {
    *sweeps = PetscMax(1.0, 180 * nb / fsweep);
    PetscFunctionReturn(0);
  }
  PetscCall(FcEnvelopeLUOrder(&au->env, p->m, p->bptr, p->bcol));
  model   = PetscMax(1.0, (2 * (PetscReal)au->env.flops + 180 * nb) / fsweep);
  *sweeps = au->env.flops <= FC_ENVELOPE_AUTO_MAX_FLOPS ? model : PetscMax(model, au->step_sweeps);
  PetscFunctionReturn(0);
}

/* The work arrays (3m each: r0, rgs, rnt, rnw), in one allocation (PetscMalloc4 makes four unless
 * -malloc_coalesce), made when first needed and kept for the next solves: a solve that newton
 * finishes in its first chunk from r = 0 (the real problems of 1-9 contacts) needs none, and a
 * fresh object per solve (fclib compare, bench/auto_hard.py) paid 4 mallocs, 0.4 of auto's 1,000
 * instructions over newton on FrictionContact3D_1c (callgrind, doc/contact.md "auto"). */
static PetscErrorCode AutoWork_Private(FcContactSolver_Auto *au, PetscInt n)
{
  PetscFunctionBegin;
  if (n > au->ncap) {
    PetscCall(PetscFree(au->r0));
    PetscCall(PetscMalloc1(4 * (size_t)n, &au->r0));
    au->rgs  = au->r0 + n;
    au->rnt  = au->r0 + 2 * n;
    au->rnw  = au->r0 + 3 * n;
    au->ncap = n;
  }
  PetscFunctionReturn(0);
}

/* One chunk of a child: at most k iterations from r, tol the object's. The child's type solve is
 * called directly and judged here as FcContactSolverSolve judges a solve (the common error of r
 * against tol; the type's own reason otherwise), without the object's wrapper around it — its
 * checks of μ and of r, made once by auto's own, and a second judgement: 0.2 µs, which on the real
 * problems of 1-3 contacts solved in 0.6-1 µs was auto's whole difference to newton alone
 * (bench/solve_overhead, doc/contact.md "auto"). u is the child's W r + q when it formed it
 * (solver.h uexact), else formed here in au->rnt. */
static PetscErrorCode AutoChunk_Private(
  FcContactSolver s, FcContactSolver_Auto *au, FcContactSolver child, FcContactProblem p, PetscReal r[], PetscInt k, FcContactSolverStats *cs)
{
  PetscFunctionBegin;
  au->uformed          = PETSC_FALSE;
  child->params.tol    = s->params.tol;
  child->params.max_it = k;
  child->uexact        = NULL;
  child->ucarry        = NULL;
  child->uown          = NULL;
  child->err_first     = (PetscReal)NAN;
  PetscCall(PetscMemzero(cs, sizeof *cs));
  cs->reason       = FC_CONTACT_SOLVER_ITERATING;
  cs->own_residual = (PetscReal)NAN;
  PetscCall((*child->ops.solve)(child, p, r, cs));
  child->resume = PETSC_TRUE; /* its next chunk in this solve continues on the same problem */
  /* the error for the decisions: on u = W r + q as the child formed it, or as nsgs carried it
   * through its sweeps (to the drift of its updates; its own test, on that u, found it above tol,
   * and a converged chunk always has the product), else formed here */
  if (cs->reason == FC_CONTACT_SOLVER_CONVERGED_TOL && child == au->nt && child->uexact) {
    /* newton converged by the same test on the same u (newton.c: the common error of W r + q for
     * the r it returns, against this tol), so the error is known to be <= tol — tol stands for it
     * (nothing reads it after a converged chunk; the object judges r itself) — without a second
     * evaluation: on FrictionContact3D_1c (2 steps, 0.56 µs) a part of auto's 0.12 µs over newton */
    cs->error = s->params.tol;
  } else {
    if (!child->uexact && !child->ucarry) {
      PetscCall(AutoWork_Private(au, 3 * p->m));
      PetscCall(FcContactProblemComputeVelocity(p, r, au->rnt));
      au->uformed = PETSC_TRUE;
    }
    PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, child->uexact ? child->uexact : child->ucarry ? child->ucarry : au->rnt, &cs->error));
  }
  if (PetscIsInfOrNanReal(cs->error)) cs->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
  else if (cs->error <= s->params.tol) cs->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
  else if (cs->reason > 0) cs->reason = FC_CONTACT_SOLVER_DIVERGED_INEXACT;
  else if (cs->reason == 0) cs->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  cs->converged = (PetscBool)(cs->reason > 0);
  PetscFunctionReturn(0);
}

/* The state of one solve's rounds: which child runs, its chunk, the speeds measured (decades
 * of the common error per sweep of cost) and the best iterates' errors. */
typedef struct {
  PetscReal  e, egs, ent, vgs, vnt, ratio, eround, tround;
  PetscReal  einit; /* the initial r's common error (< 0: not evaluated; newton first) */
  PetscInt   chunk, nchunk, stalled;
  PetscBool  newton, tried;
  PetscBool  r0zero;                        /* the initial r is 0 (restored without a copy) */
  PetscBool  fromr0;                        /* the newton round running started from the initial r (the first, after nsgs) */
  PetscBool  fresh;                         /* newton's path from r0 was dropped: its next round starts from nsgs's iterate, priced as a probe */
  PetscBool  priced;                        /* ratio is the step's price (else, on a block-sparse W, a lower bound of it) */
  PetscReal  efirst[AUTO_FIRST_SWEEPS + 1]; /* the common error after each of nsgs's first sweeps */
  PetscInt64 nb;                            /* W's nonzero blocks, counted once */
} AutoState;

/* After an nsgs chunk (from error e0, cs its statistics): nsgs's speed in decades of the common
 * error per sweep over the chunk, the cost it predicts to finish, against newton's. Costs are
 * counted in sweeps, a Newton step as the model's `ratio` sweeps — not measured times, so that the
 * same problem takes the same path in every run and in both storages of W (reproducible runs;
 * test_sparse). */
static PetscErrorCode AutoAfterNsgs_Private(
  FcContactSolver_Auto *au, FcContactProblem p, PetscReal r[], PetscReal tol, PetscReal e0, const FcContactSolverStats *cs, AutoState *as)
{
  const PetscInt n = 3 * p->m;
  PetscReal      tgs, tnt, tstep, e = as->e;

  PetscFunctionBegin;
  if (!au->steps && !as->tried && au->sweeps <= AUTO_FIRST_SWEEPS) {
    /* nsgs's first AUTO_FIRST_SWEEPS sweeps one by one (the same iterates: each chunk continues
     * one nsgs solve), judged from the third on by the speed of the last two: Gauss–Seidel's
     * speed falls from sweep to sweep where newton wins (stack of 300: 0.20, 0.13, 0.10, 0.08
     * decades over sweeps 2-5, then 0.05), so that the speed of sweeps 2-5 (0.13) delayed the
     * probe to sweep 10, and the stack of 20 to sweep 5 (a probe after 4). The first sweep from
     * r = 0 or a caller's warm start drops the error by 1-3 decades on every problem and says
     * nothing about the sweeps to come: never counted. */
    as->efirst[au->sweeps] = e;
    if (cs->iterations == 2 && au->sweeps == 2) /* the first chunk: two sweeps, nsgs's test measured the first */
      as->efirst[1] = PetscIsInfOrNanReal(au->gs->err_first) ? e : au->gs->err_first;
    if (au->sweeps < 3) {
      as->chunk = 1;
      PetscFunctionReturn(0);
    }
    if (as->efirst[au->sweeps - 2] > e) {
      as->vgs = PetscLog10Real(as->efirst[au->sweeps - 2] / e) / 2;
      /* a speed that falls from one sweep to the next (the last sweep's below the two's: a
       * decelerating Gauss–Seidel) is judged by the last sweep's: the stack of 20 (mass ratio
       * 1000) goes 0.10, 0.033, 0.023 decades over sweeps 2, 3, 4, and the two-sweep speed at
       * sweep 3 (0.068) put nsgs's finish under newton's price, delaying the probe a sweep */
      if (as->efirst[au->sweeps - 1] > e) as->vgs = PetscMin(as->vgs, PetscLog10Real(as->efirst[au->sweeps - 1] / e));
    } else as->vgs = as->efirst[1] > e ? PetscLog10Real(as->efirst[1] / e) / (au->sweeps - 1) : 0; /* not monotone: since the first */
    as->chunk = au->sweeps < AUTO_FIRST_SWEEPS ? 1 : AUTO_FIRST_SWEEPS;
  } else as->vgs = e < e0 ? PetscLog10Real(e0 / e) / cs->iterations : 0;
  as->egs = e;
  tgs     = as->vgs > 0 ? PetscLog10Real(e / tol) / as->vgs : PETSC_INFINITY;
  if (!as->priced && !(tgs <= AUTO_PROBE_SWEEPS * as->ratio)) { /* a probe is in question: its real price */
    PetscCall(AutoStepSweeps_Private(au, p, as->nb, PETSC_TRUE, &as->ratio));
    as->priced = PETSC_TRUE;
  }
  tstep = as->ratio;
  /* before newton ran: one step, a probe (it either finishes — a stack from its initial r — or
   * tells newton's real speed), taken only when nsgs still needs at least AUTO_PROBE_SWEEPS
   * steps' worth of sweeps: a probe that does not finish then costs at most a fifth of nsgs's
   * remaining work, the goal's margin (auto within 1.2 times the faster solver); with 2 (before)
   * walls and rock piles that nsgs finishes in 200-1000 sweeps paid probes of 0.5-0.9 times
   * nsgs's whole solve. After: newton's measured speed, halved for every round that stalled */
  tnt = (as->vnt > 0 ? PetscLog10Real(as->ent / tol) / as->vnt : (as->tried && !as->fresh ? au->newton_steps : AUTO_PROBE_SWEEPS) * tstep) *
    (PetscReal)(1 << PetscMin(as->stalled, 20));
  if (au->monitor)
    PetscCall(
      PetscPrintf(PETSC_COMM_SELF, "  auto nsgs   %6" PetscInt_FMT " sweeps error %.3e (%.3g decades per sweep): finish nsgs %.3g sweeps, newton %.3g sweeps\n",
        au->sweeps, (double)e, (double)as->vgs, (double)tgs, (double)tnt));
  if (!(tgs > tnt)) {
    /* the chunk doubles only while nsgs is clearly the cheaper (half newton's prediction): a close
     * call is judged again after as many sweeps, since nsgs's speed falls from sweep to sweep on
     * the problems where newton wins (the stacks: 0.11 decades per sweep over sweeps 2-5, 0.02
     * over 6-10), where a doubled chunk cost them 5 more sweeps before the probe; only before the
     * probe: after it, short chunks' rates on a wall whose error is not monotone (mass ratio 1000)
     * fell to 0 and handed it to a crawling newton for 45 steps */
    if ((tgs <= 0.5 * tnt || as->tried) && au->sweeps >= AUTO_FIRST_SWEEPS) as->chunk = PetscMin(2 * as->chunk, 200);
    PetscFunctionReturn(0);
  }
  as->newton = PETSC_TRUE;
  au->switches++;
  as->nchunk = 1;
  /* Newton's first round starts from the initial r (the warm start the caller gave): on
   * rank-deficient multi-body problems its kink rule solves from there in a step or a few
   * (stacks: 1), while from a Gauss–Seidel iterate, whose forces split a body's load
   * arbitrarily, it needed 11-21 steps (measured, doc/contact.md "auto"); nsgs's iterate is
   * kept and the better of the two goes on if newton stalls */
  PetscCall(PetscArraycpy(au->rgs, r, n));
  if (!as->tried) {
    if (as->r0zero) PetscCall(PetscArrayzero(r, n));
    else PetscCall(PetscArraycpy(r, au->r0, n));
    /* the initial r's error: from AutoStart_Private when nsgs went first (no product of W again) */
    if (!(as->einit >= 0)) PetscCall(FcContactProblemComputeError(p, r, &as->einit));
    as->e      = as->einit;
    as->eround = as->e;
    as->tround = 0;
    as->fromr0 = PETSC_TRUE;
  } else if (as->fresh) {
    /* newton's path from the initial r was dropped (AutoAfterNewton_Private): this round starts
     * from nsgs's iterate (r as it is), a new path judged from here */
    as->fresh  = PETSC_FALSE;
    as->eround = e;
    as->tround = 0;
  } else {
    /* a later round resumes newton's own path (its last iterate, its speed measured since it
     * started): from nsgs's iterate its steps bought nothing on the wall of mass ratio 1000 (3.8e-4
     * after a step, twice), while its own path went on at 0.2-0.4 decades a step to 1e-8 in 21 steps
     * from r = 0 — so the steps of an earlier round are never lost and the round is judged whole */
    PetscCall(PetscArraycpy(r, au->rnw, n));
    as->e = as->ent;
  }
  as->tried = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* After a newton chunk: its speed over the whole round (since it took over; its global phase does
 * not lower the common error monotonically — OneObject: 5.2e-3, 4.6e-3, 5.7e-3 after 1, 3, 7
 * steps from the initial r, then 2e-5 three steps later — so a chunk alone would misjudge it). It
 * goes on while it is at least as fast as nsgs was, in chunks of 1, 2, 4, 8 .. newton_steps
 * steps; when it started, after its first chunk nsgs takes over. */
static PetscErrorCode AutoAfterNewton_Private(FcContactSolver_Auto *au, FcContactProblem p, PetscReal r[], const FcContactSolverStats *cs, AutoState *as)
{
  const PetscReal e = as->e;

  PetscFunctionBegin;
  as->tround += cs->iterations * as->ratio;
  as->vnt = e < as->eround && as->eround < PETSC_INFINITY && as->tround > 0 ? PetscLog10Real(as->eround / e) / as->tround : 0;
  as->ent = e;
  if (au->monitor)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  auto newton %6" PetscInt_FMT " steps  error %.3e (%.3g decades per sweep of cost; nsgs %.3g)\n", au->steps,
      (double)e, (double)as->vnt, (double)as->vgs));
  /* a round that bought nothing (vnt = 0) is never a tie with an nsgs that also stalled (vgs = 0):
   * that tie kept a crawling newton running to max_it on a 2,000-block wall at tol 1e-10
   * (bench/wall_steps.py); nsgs takes over and the prices decide again */
  if (au->sweeps && as->vnt > 0 && as->vnt >= as->vgs) {
    as->nchunk = PetscMin(2 * as->nchunk, au->newton_steps);
    PetscFunctionReturn(0);
  }
  /* crawling: nsgs takes over, from the better of its iterate and newton's */
  if (as->fromr0 && as->vnt < AUTO_DROP_FRACTION * as->vgs) {
    /* the first round, from the initial r, bought next to nothing: newton's global phase from a far
     * start (OneObject-i1028-138: 5.5e-3 -> 5.2e-3 in its first step, 3 % of nsgs's speed; newton
     * alone needs 12 steps before its error moves, 17 in all). Its speed there says nothing of its
     * speed from nsgs's iterate, which is nearer the solution (there, after 12-60 sweeps, a first
     * step drops the error 0.6-0.8 decades and newton finishes in 6-9 steps): the path is dropped,
     * and the next round starts from nsgs's iterate, priced as the first probe (the price, doubled
     * for this stalled round), judged by its own speed. Only the first round: a round from nsgs's
     * iterate measures newton where nsgs is, and that speed stands. A round that bought a real part
     * of nsgs's speed keeps its path (the wall of mass ratio 1000: 0.41 decades in a step, 56 % of
     * nsgs's speed then; resumed, it finishes with newton alone's 21 steps). */
    as->fresh = PETSC_TRUE;
    as->vnt   = 0;
  }
  as->fromr0 = PETSC_FALSE;
  as->newton = PETSC_FALSE;
  as->stalled++;
  au->switches++;
  as->chunk = PetscMax(as->chunk, 20);
  PetscCall(PetscArraycpy(au->rnw, r, 3 * p->m)); /* where newton's next round resumes */
  if (as->egs < as->ent && au->sweeps) {
    PetscCall(PetscArraycpy(r, au->rgs, 3 * p->m));
    as->e = as->egs;
  }
  PetscFunctionReturn(0);
}

/* The first child and, when it is nsgs, the error its first chunk's rate starts from (newton
 * first: not needed, the children test the initial r themselves, and on the small problems newton
 * takes first an extra W r product is a fifth of a solve; u = q for r = 0, in au->rnt). The step's
 * price: at once with newton's own LU (it decides the first solver) or when newton goes first; on a
 * block-sparse W otherwise a lower bound until a probe is in question (the envelope's ordering
 * costs 4-8 % of a 10-sweep nsgs solve of 92 contacts, which most such problems are). W's blocks
 * are counted once (a dense W: a scan of its m² blocks, which done twice was 0.2 µs of auto's
 * 0.25 µs fixed cost over newton's at 5 contacts, bench/solve_overhead). *done: r already decided
 * the solve. */
static PetscErrorCode AutoStart_Private(
  FcContactSolver s, FcContactSolver_Auto *au, FcContactProblem p, const PetscReal r[], AutoState *as, FcContactSolverStats *st, PetscBool *done)
{
  const PetscInt n    = 3 * p->m;
  PetscBool      zero = PETSC_TRUE;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n && zero; i++) zero = (PetscBool)(r[i] == 0);
  as->r0zero = zero;
  *done      = PETSC_FALSE;
  as->nb     = FcContactProblemCountBlocks(p);
  as->priced = AutoNewtonOwnLU_Private(p);
  PetscCall(AutoStepSweeps_Private(au, p, as->nb, PETSC_FALSE, &as->ratio));
  /* "W dense" by its blocks (the fill rule, problem.h), not by its storage: the same problem must
   * be solved alike in both storages (test_sparse) */
  as->newton = (PetscBool)(au->first == AUTO_FIRST_NEWTON ||
    (au->first == AUTO_FIRST_MODEL && AutoNewtonOwnLU_Private(p) && (!FcContactProblemPreferSparse(p->m, as->nb) || as->ratio <= au->first_ratio)));
  if (as->newton) {
    if (!as->priced) PetscCall(AutoStepSweeps_Private(au, p, as->nb, PETSC_TRUE, &as->ratio)); /* auto_first newton on a block-sparse W */
    as->priced = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCall(AutoWork_Private(au, n));
  if (zero) PetscCall(PetscArraycpy(au->rnt, p->q, n));
  else PetscCall(FcContactProblemComputeVelocity(p, r, au->rnt));
  PetscCall(FcContactProblemComputeErrorWithVelocity(p, r, au->rnt, &as->e));
  as->einit = as->e;
  if (PetscIsInfOrNanReal(as->e)) {
    st->reason = FC_CONTACT_SOLVER_DIVERGED_NAN;
    *done      = PETSC_TRUE;
  } else if (as->e <= s->params.tol) {
    st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
    *done      = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSolve_Auto(FcContactSolver s, FcContactProblem p, PetscReal r[], FcContactSolverStats *st)
{
  FcContactSolver_Auto *au = (FcContactSolver_Auto *)s->data;
  const PetscInt        n  = 3 * p->m;
  AutoState             as = {.e = PETSC_INFINITY, .egs = PETSC_INFINITY, .ent = PETSC_INFINITY, .eround = PETSC_INFINITY, .einit = -1, .chunk = 2};
  PetscBool             done, timed = PETSC_FALSE;
  PetscLogDouble        tmark = 0, tfirst = 0, tnow;

  PetscFunctionBegin;
  au->sweeps = au->steps = au->switches = 0;
  au->tgs = au->tnt = au->tlater = 0;
  au->started = au->finished = NULL;
  st->iterations             = 0;
  au->gs->resume = au->nt->resume = PETSC_FALSE; /* a new solve: the children set up afresh */
  PetscCall(AutoStart_Private(s, au, p, r, &as, st, &done));
  if (done) PetscFunctionReturn(0);
  if (!as.r0zero) { /* r = 0 is restored without a copy (AutoAfterNsgs_Private) */
    PetscCall(AutoWork_Private(au, n));
    PetscCall(PetscArraycpy(au->r0, r, n));
  }
  au->started = as.newton ? "newton" : "nsgs";
  /* newton first: one chunk of 3 newton_steps, judged only at its end (the common error is not
   * newton's merit function: its global phase may raise it while θ falls; OneObject-i1028-138
   * needs 17 steps); after nsgs: a probe of one step first */
  as.nchunk = 3 * au->newton_steps;
  while (st->iterations < s->params.max_it) {
    FcContactSolverStats cs;
    const PetscReal      e0   = as.e;
    const PetscInt       left = s->params.max_it - st->iterations;

    const PetscBool was = as.newton;

    if (!as.newton) {
      PetscCall(AutoChunk_Private(s, au, au->gs, p, r, PetscMin(as.chunk, left), &cs));
      au->sweeps += cs.iterations;
    } else {
      PetscCall(AutoChunk_Private(s, au, au->nt, p, r, PetscMin(as.nchunk, left), &cs));
      au->steps += cs.iterations;
    }
    st->iterations += cs.iterations;
    as.e         = cs.error;
    au->finished = as.newton ? "newton" : "nsgs";
    if (cs.converged) {
      st->reason = FC_CONTACT_SOLVER_CONVERGED_TOL;
      s->uexact  = (as.newton ? au->nt : au->gs)->uexact; /* W r + q for this r: the child's, or formed in rnt */
      if (!s->uexact && au->uformed) s->uexact = au->rnt;
      break;
    }
    if (cs.reason == FC_CONTACT_SOLVER_DIVERGED_NAN || cs.reason == FC_CONTACT_SOLVER_DIVERGED_BREAKDOWN) {
      st->reason = cs.reason; /* W or q unusable: the other solver cannot do better (both need W_aa,nn > 0) */
      break;
    }
    if (!cs.iterations) { /* a child that cannot move (should not happen): its reason */
      st->reason = cs.reason;
      break;
    }
    PetscCall(AutoWork_Private(au, n)); /* the rounds' iterates */
    if (!as.newton) PetscCall(AutoAfterNsgs_Private(au, p, r, s->params.tol, e0, &cs, &as));
    else PetscCall(AutoAfterNewton_Private(au, p, r, &cs, &as));
    if (as.newton != was) {
      /* a switch: the clock is read here only (the children's times in the summary). The
       * first child's time is the solve's (the object's clock) minus what follows the first
       * switch (FcContactSolverSummary_Auto): a solve without a switch reads no clock of its own.
       * Two reads per chunk were 0.1 µs (a read costs 50 ns on this machine's TSC clock through
       * MPI_Wtime): most of auto's cost over newton on FrictionContact3D_1c (a 0.5 µs solve) */
      PetscCall(PetscTime(&tnow));
      if (!timed) tfirst = tnow;
      else if (was) au->tnt += (PetscReal)(tnow - tmark);
      else au->tgs += (PetscReal)(tnow - tmark);
      tmark = tnow;
      timed = PETSC_TRUE;
    }
  }
  if (timed) {
    PetscCall(PetscTime(&tnow));
    if (as.newton) au->tnt += (PetscReal)(tnow - tmark);
    else au->tgs += (PetscReal)(tnow - tmark);
    au->tlater = (PetscReal)(tnow - tfirst);
  }
  if (st->reason == FC_CONTACT_SOLVER_ITERATING) st->reason = FC_CONTACT_SOLVER_DIVERGED_MAX_IT;
  au->sweeps_all += au->sweeps;
  au->steps_all += au->steps;
  au->switches_all += au->switches;
  if (PetscLogPrintInfo) /* PetscInfo's own test, without the call's cost on µs solves */
    PetscCall(
      PetscInfo(NULL, "auto: %" PetscInt_FMT " nsgs sweeps, %" PetscInt_FMT " newton steps, %" PetscInt_FMT " switches, started with %s, finished by %s\n",
        au->sweeps, au->steps, au->switches, au->started ? au->started : "-", au->finished ? au->finished : "-"));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSummary_Auto(FcContactSolver s, char *buf, size_t len)
{
  FcContactSolver_Auto *au = (FcContactSolver_Auto *)s->data;

  PetscFunctionBegin;
  if (!au->started) snprintf(buf, len, "auto: no iteration (the initial r met tol)");
  else {
    /* the first child's time: the last solve's (the object's clock) minus what followed the first
     * switch (FcContactSolverSolve_Auto reads the clock at switches only) */
    const PetscReal tfirst = PetscMax(0, s->stats.time - au->tlater);
    const PetscBool newton = (PetscBool)!strcmp(au->started, "newton");
    const PetscReal tgs = au->tgs + (newton ? 0 : tfirst), tnt = au->tnt + (newton ? tfirst : 0);
    snprintf(buf, len, "auto: nsgs %d sweeps %.3g s, newton %d steps %.3g s, %d switches, started with %s, finished by %s", (int)au->sweeps, (double)tgs,
      (int)au->steps, (double)tnt, (int)au->switches, au->started, au->finished ? au->finished : "-");
  }
  PetscFunctionReturn(0);
}

/* Unknown -[prefix]fc_contact_solver_auto_* options: the first one into s->opterr (the object's one
 * input-error line), so that a misspelt auto option is not silently ignored. */
static PetscErrorCode AutoUnknownOptions_Private(FcContactSolver s, const char *prefix)
{
  char  *all, *tok, *save = NULL, lead[FC_NAME_LEN + 64];
  size_t ll;

  PetscFunctionBegin;
  snprintf(lead, sizeof lead, "-%sauto_", prefix ? prefix : "");
  ll = strlen(lead);
  PetscCall(PetscOptionsGetAll(NULL, &all));
  for (tok = strtok_r(all, " ", &save); tok && !s->opterr[0]; tok = strtok_r(NULL, " ", &save)) {
    PetscBool known = PETSC_FALSE;
    if (strncmp(tok, lead, ll)) continue;
    for (int k = 0; AutoOptions[k]; k++) known = (PetscBool)(known || !strcmp(tok + ll, AutoOptions[k]));
    if (!known) {
      char list[256] = "";
      for (int k = 0; AutoOptions[k]; k++) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", AutoOptions[k]);
      snprintf(s->optname, sizeof s->optname, "%.*s", (int)(sizeof s->optname - 1), tok);
      snprintf(s->opterr, sizeof s->opterr, "unknown auto option (auto's are: %s)", list);
    }
  }
  PetscCall(PetscFree(all));
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverSetFromOptions_Auto(FcContactSolver s, PetscOptionItems *PetscOptionsObject)
{
  FcContactSolver_Auto *au = (FcContactSolver_Auto *)s->data;
  char                  val[16];
  PetscBool             set;
  PetscReal             ss = au->step_sweeps;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "auto: nsgs and newton, switching when progress stalls");
  PetscCall(PetscOptionsString("-auto_first", "The first solver: model (newton on small dense problems, else nsgs), nsgs or newton", "",
    AutoFirstNames[au->first], val, sizeof val, &set));
  if (set) {
    PetscInt k;
    for (k = 0; k < 3 && strcmp(val, AutoFirstNames[k]); k++) {}
    if (k < 3) au->first = (AutoFirst)k;
    else if (!s->opterr[0]) {
      snprintf(s->optname, sizeof s->optname, "-%sauto_first", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "");
      snprintf(s->opterr, sizeof s->opterr, "unknown value '%s' (model, nsgs or newton)", val);
    }
  }
  {
    PetscReal fr = au->first_ratio;
    PetscCall(
      PetscOptionsReal("-auto_first_newton_ratio", "model: newton first when a Newton step is predicted to cost at most this many sweeps", "", fr, &fr, &set));
    if (set && !(fr >= 0 && !PetscIsInfOrNanReal(fr)) && !s->opterr[0]) {
      snprintf(s->optname, sizeof s->optname, "-%sauto_first_newton_ratio", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "");
      snprintf(s->opterr, sizeof s->opterr, "must be finite and >= 0 (got %g)", (double)fr);
    } else au->first_ratio = fr;
  }
  PetscCall(FcContactSolverOptionsBoundedInt(
    s, PetscOptionsObject, "-auto_newton_steps", "Newton steps per chunk, and the steps a finish by newton is predicted to take", &au->newton_steps, 1));
  PetscCall(PetscOptionsReal("-auto_newton_step_sweeps", "A Newton step's cost in nsgs sweeps, before one was measured", "", ss, &ss, &set));
  if (set && !(ss > 0 && !PetscIsInfOrNanReal(ss)) && !s->opterr[0]) {
    snprintf(s->optname, sizeof s->optname, "-%sauto_newton_step_sweeps", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "");
    snprintf(s->opterr, sizeof s->opterr, "must be finite and > 0 (got %g)", (double)ss);
  } else au->step_sweeps = ss;
  PetscCall(PetscOptionsBool("-auto_monitor", "Print each chunk's error and the predicted costs", "", au->monitor, &au->monitor, NULL));
  PetscOptionsHeadEnd();
  PetscCall(AutoUnknownOptions_Private(s, PetscOptionsObject->prefix));
  /* the children's own options, read in the same block (their prefix is the object's) */
  {
    FcContactSolver kids[2] = {au->gs, au->nt};
    for (int k = 0; k < 2; k++) {
      PetscCall(FcContactSolverSetOptionsPrefix(kids[k], s->prefix));
      kids[k]->opterr[0] = 0;
      if (kids[k]->ops.setfromoptions) PetscCall((*kids[k]->ops.setfromoptions)(kids[k], PetscOptionsObject));
      if (kids[k]->opterr[0] && !s->opterr[0]) {
        PetscCall(PetscStrncpy(s->opterr, kids[k]->opterr, sizeof s->opterr));
        PetscCall(PetscStrncpy(s->optname, kids[k]->optname, sizeof s->optname));
      }
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverView_Auto(FcContactSolver s, PetscViewer viewer)
{
  FcContactSolver_Auto *au = (FcContactSolver_Auto *)s->data;
  char                  sum[256];

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer,
    "auto: first %s (model: newton first when a step is predicted to cost at most %g sweeps), newton chunks of %" PetscInt_FMT
    " steps, a step with PETSc's sparse LU predicted as %g sweeps before one is measured\n",
    AutoFirstNames[au->first], (double)au->first_ratio, au->newton_steps, (double)au->step_sweeps));
  if (s->nsolves) {
    PetscCall(FcContactSolverSummary_Auto(s, sum, sizeof sum));
    PetscCall(
      PetscViewerASCIIPrintf(viewer, "%s (last solve); %" PetscInt64_FMT " sweeps, %" PetscInt64_FMT " steps, %" PetscInt64_FMT " switches (all solves)\n", sum,
        au->sweeps_all, au->steps_all, au->switches_all));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcContactSolverDestroy_Auto(FcContactSolver s)
{
  FcContactSolver_Auto *au = (FcContactSolver_Auto *)s->data;

  PetscFunctionBegin;
  PetscCall(FcContactSolverDestroy(&au->gs));
  PetscCall(FcContactSolverDestroy(&au->nt));
  PetscCall(PetscFree(au->r0)); /* rgs, rnt, rnw: in the same allocation */
  PetscCall(FcEnvelopeLUDestroy(&au->env));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FcContactSolverCreate_Auto(FcContactSolver s)
{
  FcContactSolver_Auto *au;

  PetscFunctionBegin;
  PetscCall(PetscNew(&au));
  au->first        = AUTO_FIRST_MODEL;
  au->first_ratio  = 10;
  au->newton_steps = 10;
  au->step_sweeps  = 50;
  FcEnvelopeLUInit(&au->env);
  PetscCall(FcContactSolverCreate(&au->gs));
  PetscCall(FcContactSolverSetType(au->gs, "nsgs"));
  PetscCall(FcContactSolverSetWarmStart(au->gs, PETSC_TRUE));
  PetscCall(FcContactSolverCreate(&au->nt));
  PetscCall(FcContactSolverSetType(au->nt, "newton"));
  PetscCall(FcContactSolverSetWarmStart(au->nt, PETSC_TRUE));
  if (!s->params.max_it_set) s->params.max_it = 10000; /* sweeps + steps: nsgs's budget is 1000 sweeps, and auto may spend them on both */
  s->data               = au;
  s->ops.solve          = FcContactSolverSolve_Auto;
  s->ops.setfromoptions = FcContactSolverSetFromOptions_Auto;
  s->ops.view           = FcContactSolverView_Auto;
  s->ops.destroy        = FcContactSolverDestroy_Auto;
  s->ops.summary        = FcContactSolverSummary_Auto;
  PetscFunctionReturn(0);
}
