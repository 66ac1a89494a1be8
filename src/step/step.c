/* fcsim — the step: Newton iterations on the bodies' linearized momentum balance. */
#define FC_STEP_MAX_BACKTRACK 10 /* halvings of an increment that led to an inadmissible iterate */
#include "step.h"
#include "../core/progress.h"

/* FcInterrupted is defined in src/core/fsutil.c (the mesh sandbox polls it too). */

const char *const FcStepStatNames[] = {"newton_it", "residual", "residual_abs", "converged", "assembly_time", "factor_time", "solve_time", "output_time",
  "step_time", "contacts", "active", "stick", "slip", "contact_solves", "contact_it", "contact_error", "contact_converged", "detect_time", "w_time",
  "contact_solve_time", "contact_time", "substeps", "backtracks", "inertia_shift", "inertia_penalty", "inertia_refactors", "lin_iterations", "lin_normal_turn",
  "lin_penetration", "lin_force_change", "wh_time", "krylov_it", "correction_time", "refresh_time", "refresh_lag", "refresh_taken"};
const PetscInt    FcStepNumStats    = 36;

void FcStepStatsRow(const FcStepStats *st, PetscReal *row)
{
  row[0]  = (PetscReal)st->newton_it;
  row[1]  = st->residual;
  row[2]  = st->residual_abs;
  row[3]  = st->converged ? 1.0 : 0.0;
  row[4]  = st->assembly;
  row[5]  = st->factor;
  row[6]  = st->solve;
  row[7]  = st->output;
  row[8]  = st->total;
  row[9]  = (PetscReal)st->contact.contacts;
  row[10] = (PetscReal)st->contact.active;
  row[11] = (PetscReal)st->contact.stick;
  row[12] = (PetscReal)st->contact.slip;
  row[13] = (PetscReal)st->contact.solves;
  row[14] = (PetscReal)st->contact.iterations;
  row[15] = st->contact.error;
  row[16] = st->contact.converged ? 1.0 : 0.0;
  row[17] = st->contact.detect_time;
  row[18] = st->contact.w_time;
  row[19] = st->contact.solve_time;
  row[20] = st->contact.time;
  row[21] = (PetscReal)st->substeps;
  row[22] = (PetscReal)st->backtracks;
  row[23] = st->shift;
  row[24] = st->penalty;
  row[25] = (PetscReal)st->refactors;
  row[26] = (PetscReal)st->contact.lin_it;
  row[27] = st->contact.lin_turn;
  row[28] = st->contact.lin_pen;
  row[29] = st->contact.lin_dforce;
  row[30] = st->contact.wh_time;
  row[31] = (PetscReal)st->contact.compliance.krylov_it; /* the compliance's costs (compliance.h) */
  row[32] = st->contact.compliance.correct_time;
  row[33] = st->contact.compliance.refresh_time;
  row[34] = (PetscReal)st->contact.compliance.refresh_lag;
  row[35] = (PetscReal)st->contact.compliance.refresh_taken;
}

/* First non-finite entry of x (NULL: none), as its index; -1 when all are finite. */
static PetscErrorCode FirstNonFinite_Private(Vec x, PetscInt *idx, PetscReal *val)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  *idx = -1;
  if (!x) PetscFunctionReturn(0);
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  for (PetscInt i = 0; i < n; i++)
    if (PetscIsInfOrNanScalar(a[i])) {
      *idx = i;
      *val = PetscRealPart(a[i]);
      break;
    }
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

/* The checks of NonFiniteResult_Private on this rank's data only (no collective call: a rank may
 * return at its first finding while the others go on). */
static PetscErrorCode LocalNonFinite_Private(FcModel *m, FcContactStep cs, char *what, size_t len)
{
  static const char *const vname[] = {"displacement", "velocity", "reaction force", "contact force (H^T r)"};
  FcContactView            cv;
  PetscReal                val;
  PetscInt                 idx;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++) {
    FcBody      B = m->bodies[b];
    FcBodyPlace pl;
    PetscBool   placed;
    Vec         v[4] = {FcBodyU(B), FcBodyV(B), FcBodyReaction(B), NULL};
    PetscCall(FcBodyGetContactForce(B, PETSC_FALSE, &v[3]));
    PetscCall(FcBodyGetPlace(B, &pl, &placed));
    for (int k = 0; k < 4; k++) {
      PetscCall(FirstNonFinite_Private(v[k], &idx, &val));
      if (idx < 0) continue;
      if (v[k] && FcBodyFieldMesh(B)) { /* the mesh's node: idx is a local row of the (distributed) vector */
        const FcMesh *mesh = FcBodyFieldMesh(B);
        PetscInt      rstart, rend;
        PetscCall(VecGetOwnershipRange(v[k], &rstart, &rend));
        /* several ranks: the mesh node of the rank's idx/3-th own node (FcAssemblyPartition) */
        idx = mesh->part_own ? 3 * mesh->part_own[idx / 3] + idx % 3 : rstart + idx;
      }
      if (!FcBodyFieldMesh(B)) snprintf(what, len, "the %s of rigid body \"%s\" (joint coordinate %d) is %g", vname[k], FcBodyName(B), (int)idx, (double)val);
      else snprintf(what, len, "the %s of body \"%s\" (node %d, %c) is %g", vname[k], FcBodyName(B), (int)(idx / 3), "xyz"[idx % 3], (double)val);
      PetscFunctionReturn(0);
    }
    for (int k = 0; k < 12 && placed; k++) {
      val = k < 3 ? pl.d1[k] : pl.R1[k - 3];
      if (!PetscIsInfOrNanReal(val)) continue;
      snprintf(what, len, "the %s of rigid body \"%s\" is %g", k < 3 ? "translation" : "rotation", FcBodyName(B), (double)val);
      PetscFunctionReturn(0);
    }
    if (PetscIsInfOrNanReal(FcBodyStrainEnergy(B)) || PetscIsInfOrNanReal(FcBodyKineticEnergy(B))) {
      const PetscBool se = PetscIsInfOrNanReal(FcBodyStrainEnergy(B));
      snprintf(what, len, "the %s energy of body \"%s\" is %g", se ? "strain" : "kinetic", FcBodyName(B),
        (double)(se ? FcBodyStrainEnergy(B) : FcBodyKineticEnergy(B)));
      PetscFunctionReturn(0);
    }
  }
  if (cs) {
    PetscCall(FcContactStepGetView(cs, &cv));
    for (PetscInt i = 0; i < 3 * cv.m; i++)
      if (PetscIsInfOrNanReal(cv.r[i])) {
        snprintf(what, len, "the force of contact %d (pair %d) is %g", (int)(i / 3), (int)cv.pair[i / 3], (double)cv.r[i]);
        PetscFunctionReturn(0);
      }
  }
  PetscFunctionReturn(0);
}

/* What of the step's result is not finite, described in what ("" when everything is): the
 * residual, every body's displacement, velocity, reaction, contact force Hᵀr, rigid placement
 * and energies, the contact forces, and the probe values made from them. An overflow (a load of
 * 1e152 N on a soft body, a rigid body launched at 1e160 m/s) can leave the Newton test
 * satisfied and would otherwise be written as inf, the run reported a success. */
static PetscErrorCode NonFiniteResult_Private(FcModel *m, FcContactStep cs, const FcStepStats *st, char *what, size_t len)
{
  FcContactView  cv;
  PetscReal     *row;
  PetscMPIInt    size, rank, first;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  what[0] = 0;
  if (PetscIsInfOrNanReal(st->residual) || PetscIsInfOrNanReal(st->residual_abs)) { /* reduced: every rank's */
    snprintf(what, len, "the Newton residual (%g)", (double)st->residual_abs);
    PetscFunctionReturn(0);
  }
  PetscCall(LocalNonFinite_Private(m, cs, what, len));
  /* On several ranks a value is on one rank's rows: the lowest rank that found one tells the others
   * (every rank then fails the same way; before, the finder returned alone and the others waited
   * in the probes' broadcast below) */
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size > 1) {
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    first = what[0] ? rank : size;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, PETSC_COMM_WORLD));
    if (first < size) PetscCallMPI(MPI_Bcast(what, (PetscMPIInt)len, MPI_CHAR, first, PETSC_COMM_WORLD));
  }
  if (what[0]) PetscFunctionReturn(0);
  if (cs) PetscCall(FcContactStepGetView(cs, &cv));
  /* probes combine the above (sums, scales): they can overflow on their own */
  PetscCall(PetscMalloc1(m->nprobe_cols + 1, &row));
  ierr = FcModelProbes(m, cs ? &cv : NULL, row);
  for (PetscInt k = 0; !ierr && k < m->nprobe_cols; k++)
    if (PetscIsInfOrNanReal(row[k])) {
      snprintf(what, len, "the probe value %s is %g", m->probe_cols[k], (double)row[k]);
      break;
    }
  PetscCall(PetscFree(row));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* Convergence (per body): ‖r_free‖ <= atol + rtol · max(‖r₀‖, scale), where scale is the
 * largest norm among the residual's terms (internal, external, inertial and damping forces):
 * a relative test that is meaningful both when the step starts far from equilibrium (‖r₀‖
 * large) and when it starts close to it (‖r₀‖ ≈ 0 but the forces in the body are not). */
/* -fc_newton_monitor: one line per Newton iteration on stderr (residual, increment, contact set) */
static PetscErrorCode Monitor_Private(FcModel *m, FcContactStep cs, const FcStepInfo *s, PetscInt it, PetscBool contact_stable, const FcStepStats *st)
{
  PetscReal shift = 0, pen = 0;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++) {
    FcBodyStepStats bs;
    PetscCall(FcBodyGetStepStats(m->bodies[b], &bs));
    shift = PetscMax(shift, bs.shift);
    pen   = PetscMax(pen, bs.penalty);
  }
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "  step %d newton %d: residual %.3e (abs %.3e)%s contacts %d active %d%s contact error %.2e%s", (int)s->step,
    (int)it, (double)st->residual, (double)st->residual_abs, st->backtracks ? " (backtracked)" : "", (int)st->contact.contacts, (int)st->contact.active,
    cs && !contact_stable ? " (changed)" : "", (double)st->contact.error, st->nonfinite ? " NOT FINITE" : ""));
  /* the linearization's change since the previous correction (contact_step.linearization, issue 28) */
  if (cs && it > 0)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, " normals turn %.1e rad force change %.1e penetration %.1e", (double)st->contact.lin_turn,
      (double)st->contact.lin_dforce, (double)st->contact.lin_pen));
  if (shift > 0 || pen > 0)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, " (inertia correction so far: penalty %.1e, shift %.1e)", (double)pen, (double)shift));
  PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "\n"));
  PetscFunctionReturn(0);
}

/* Accept the step in every body; the step's timings and inertia-correction figures. */
static PetscErrorCode EndStep_Private(FcModel *m, const FcStepInfo *s, FcStepStats *st)
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++) {
    FcBodyStepStats bs;
    PetscCall(FcBodyEndStep(m->bodies[b], s));
    PetscCall(FcBodyGetStepStats(m->bodies[b], &bs));
    st->assembly += bs.times.assembly;
    st->factor += bs.times.factor;
    st->solve += bs.times.solve;
    st->shift   = PetscMax(st->shift, bs.shift);
    st->penalty = PetscMax(st->penalty, bs.penalty);
    st->refactors += bs.refactors;
  }
  PetscFunctionReturn(0);
}

/* The free motion of every body (Δx from the residual). *solved false: a Krylov solve failed
 * (compliance "lagged", FcBodyKrylovSolve): the iterate stays, the step has not converged
 * (stats.csv converged 0; a cutback may retry it) */
static PetscErrorCode FreeMotion_Private(FcModel *m, const FcStepInfo *s, PetscBool *solved)
{
  PetscFunctionBegin;
  *solved = PETSC_TRUE;
  for (PetscInt b = 0; b < m->nbodies; b++) {
    PetscReal dxn;
    PetscCall(FcBodySolve(m->bodies[b], s, &dxn));
    if (dxn < 0) *solved = PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* The update x += Δx of every body, each increment kept in dxs[b] (when allocated) for backtracking */
static PetscErrorCode Update_Private(FcModel *m, const FcStepInfo *s, Vec dxs[])
{
  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++) {
    Vec dx;
    PetscCall(FcBodyGetIncrement(m->bodies[b], &dx, NULL, NULL));
    if (dxs[b]) PetscCall(VecCopy(dx, dxs[b]));
    PetscCall(FcBodyUpdate(m->bodies[b], s));
  }
  PetscFunctionReturn(0);
}

/* The step's Newton iterations (FcStep): the bodies' step begun, then residual, free motion,
 * contact correction and update until converged or stopped; r0 and dxs are FcStep's work arrays. */
static PetscErrorCode Newton_Private(FcModel *m, FcContactStep cs, const FcStepInfo *s, FcStepStats *st, PetscReal r0[], Vec dxs[], PetscBool monitor)
{
  const FcCase *c              = m->c;
  PetscBool     contact_stable = cs ? PETSC_FALSE : PETSC_TRUE;
  PetscInt      it;

  PetscFunctionBegin;
  for (PetscInt b = 0; b < m->nbodies; b++) PetscCall(FcBodyBeginStep(m->bodies[b], s));
  for (it = 0;; it++) {
    PetscBool all = PETSC_TRUE;
    for (PetscInt nback = 0;; nback++) {
      PetscBool finite = PETSC_TRUE;
      all              = PETSC_TRUE;
      st->residual = st->residual_abs = 0;
      for (PetscInt b = 0; b < m->nbodies && finite; b++) {
        PetscReal rn, scale, ref;
        PetscCall(FcBodyResidual(m->bodies[b], s, &rn, &scale));
        if (!(PetscIsNormalReal(rn) || rn == 0)) {
          finite = PETSC_FALSE;
          break;
        }
        if (it == 0) r0[b] = rn;
        ref              = PetscMax(r0[b], scale);
        st->residual     = PetscMax(st->residual, ref > 0 ? rn / ref : 0.0);
        st->residual_abs = PetscMax(st->residual_abs, rn);
        if (!(rn <= c->newton_atol + c->newton_rtol * ref)) all = PETSC_FALSE;
      }
      if (finite) break;
      if (it == 0 || nback == FC_STEP_MAX_BACKTRACK) {
        /* the step's start, or an iterate that no backtracking makes admissible (an element
         * inverted: fem.h, or a diverging iteration): the step has failed; the caller may cut
         * it back (time.cutback) or stop */
        st->nonfinite = PETSC_TRUE;
        st->residual = st->residual_abs = PETSC_INFINITY;
        all                             = PETSC_FALSE;
        break;
      }
      /* Backtracking on admissibility: x ← x − ½Δx, halfway back to the previous (admissible)
       * iterate, as a damped Newton step (Deuflhard, "Newton Methods for Nonlinear Problems",
       * 2004, §3.1: the step length is cut until the iterate lies in the domain of the map). */
      for (PetscInt b = 0; b < m->nbodies; b++) {
        if (!dxs[b]) continue;
        Vec dx;
        PetscCall(FcBodyGetIncrement(m->bodies[b], &dx, NULL, NULL));
        PetscCall(VecScale(dxs[b], 0.5));
        PetscCall(VecAXPBY(dx, -1.0, 0.0, dxs[b]));
        PetscCall(FcBodyUpdate(m->bodies[b], s));
      }
      st->backtracks++;
    }
    FcProgressNewton((long)it, (double)st->residual);
    if (monitor) PetscCall(Monitor_Private(m, cs, s, it, contact_stable, st));
    if (all && contact_stable && st->contact.converged) {
      st->converged = PETSC_TRUE;
      break;
    }
    if (it >= c->newton_max_it || FcInterrupted || st->nonfinite) break;
    /* Free motion of every body, then the contact correction (detection → W, q → contact
     * solve → Δx += A⁻¹Hᵀr), then the update; the residual is re-evaluated next iteration. */
    {
      PetscBool solved;
      PetscCall(FreeMotion_Private(m, s, &solved));
      if (!solved) break;
    }
    if (cs) {
      PetscBool changed;
      FcProgressPhase("contact correction (detection, W, contact solve)");
      PetscCall(FcContactStepCorrect(cs, s, &st->contact, &changed));
      FcProgressPhase(NULL);
      contact_stable = (PetscBool)!changed;
      if (st->contact.failed) { /* an unusable contact solve (contact_step.h): the step fails */
        st->nonfinite = PETSC_TRUE;
        break;
      }
      if (st->contact.compliance.failed) break; /* a correction's Krylov solve failed: not converged */
    }
    PetscCall(Update_Private(m, s, dxs));
    st->newton_it++;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcStep(FcModel *m, FcContactStep cs, const FcStepInfo *s, FcStepStats *st)
{
  const FcCase  *c = m->c;
  PetscReal      t0, t1, *r0;
  Vec           *dxs; /* per body: the last applied increment (for backtracking) */
  PetscBool      monitor = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscMemzero(st, sizeof *st));
  FcProgressStepBegin((long)s->step, (long)c->steps, (double)s->t1, c->file);
  st->substeps = 1;
  if (cs) PetscCall(FcContactStepBegin(cs, &st->contact));
  else st->contact.converged = PETSC_TRUE;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-fc_newton_monitor", &monitor, NULL));
  PetscCall(PetscMalloc1(m->nbodies, &r0));
  PetscCall(PetscCalloc1(m->nbodies, &dxs));
  for (PetscInt b = 0; b < m->nbodies; b++) {
    Vec dx;
    PetscCall(FcBodyGetIncrement(m->bodies[b], &dx, NULL, NULL));
    if (dx) PetscCall(VecDuplicate(dx, &dxs[b]));
  }
  /* the work arrays are freed whatever happens in the iterations (an error in a factorization,
   * say a package an option named that PETSc does not have: exit 2, and no leak) */
  ierr = Newton_Private(m, cs, s, st, r0, dxs, monitor);
  FcProgressStepEnd();
  PetscCall(PetscFree(r0));
  for (PetscInt b = 0; b < m->nbodies; b++) PetscCall(VecDestroy(&dxs[b]));
  PetscCall(PetscFree(dxs));
  PetscCall(ierr);
  PetscCall(EndStep_Private(m, s, st));
  PetscCall(PetscTime(&t1));
  st->total = t1 - t0;
  /* A state with a non-finite value can neither be continued from nor written out. After a
   * Newton iteration that did not converge (diverging iterates), it is an inadmissible iterate
   * like those above: st->nonfinite, for the caller to retry (time.cutback) or report. After a
   * converged one, it is what the case's magnitudes give at t1, which no smaller step changes:
   * the run fails here, naming what overflowed. */
  if (!st->nonfinite && !FcInterrupted) {
    char what[FC_NAME_LEN + 128];
    PetscCall(NonFiniteResult_Private(m, cs, st, what, sizeof what));
    if (what[0] && !st->converged) st->nonfinite = PETSC_TRUE;
    else {
      FcErrorOnEveryRank = what[0] ? 1 : 0; /* `what` is every rank's (NonFiniteResult_Private) */
      PetscCheck(!what[0], PETSC_COMM_SELF, PETSC_ERR_FP,
        "Step %d (t = %g): the result is not finite: %s; the case's magnitudes (materials, loads, prescribed or initial motions, time step) exceed double precision",
        (int)s->step, (double)s->t1, what);
      FcErrorOnEveryRank = 0;
    }
  }
  PetscFunctionReturn(0);
}
