/* fcsim — `fcsim study compare CASE --axis solver=nsgs,lemke:k=16 --axis dt=0.01,0.005 ...
 * [-j N] [--set P=V]... [-o DIR]`: one case over the cross product of the axes, one run per
 * cell, and a table of what each run cost and how far its probes are from the first cell's.
 *
 * An axis changes the case through --set (as a user would): solver → contact_solver.type and
 * the variant's options (`lemke:k=16` → -fc_contact_solver_lemke_k 16, the spelling of `fclib
 * compare`, src/contact/solver_spec.h), compliance → compliance.type, dt → time.dt (and
 * time.steps for a case that gives steps, so that every cell ends at the same time), integrator
 * → time.integrator, level → bodies[i].mesh.refine of every deformable body. Each cell is `fcsim
 * run CASE [--set ...] -o DIR/<cell> -q [options]`, a separate process started like study
 * refine's levels (jobs.h), at most -j at once. Then per cell, from its stats.csv and
 * probes.csv (src/io/results.h): steps, converged steps, contact iterations and common error,
 * the cost split (sums over the steps of the timing columns), the wall time, and the largest
 * difference of its probes from the first cell's, interpolated in time (the cells may have
 * different steps). Layout and columns: doc/study.md. DIR is written under a temporary name and
 * renamed at the end, like a run. */
#define _XOPEN_SOURCE 700
#include "compare.h"
#include "jobs.h"
#include "refine.h"
#include "../core/fsutil.h"
#include "../contact/solver_spec.h"
#include "../compliance/compliance.h"
#include "../io/results.h"
#include "../run/estimate.h"
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FC_COMPARE_MAX_VALUES 16
#define FC_COMPARE_MAX_CELLS  64
#define FC_COMPARE_SET_LEN    (2 * FC_NAME_LEN)

typedef enum { AXIS_SOLVER, AXIS_COMPLIANCE, AXIS_DT, AXIS_INTEGRATOR, AXIS_LEVEL, AXIS_COUNT } AxisKind;
static const char *const axis_names[AXIS_COUNT] = {"solver", "compliance", "dt", "integrator", "level"};

typedef struct {
  AxisKind     kind;
  PetscInt     n;
  char         v[FC_COMPARE_MAX_VALUES][FC_NAME_LEN];
  FcSolverSpec spec[FC_COMPARE_MAX_VALUES];                           /* solver: the parsed variants */
  PetscInt     which[FC_COMPARE_MAX_VALUES][FC_SOLVER_SPEC_MAX_KEYS]; /* the spelling each key is read under */
} Axis;

/* the cost columns of stats.csv (doc/output-format.md), summed over the steps */
static const char *const cost_cols[] = {"assembly_time", "factor_time", "w_time", "detect_time", "contact_solve_time", "output_time", "step_time"};
#define NCOST ((PetscInt)(sizeof cost_cols / sizeof cost_cols[0]))

typedef struct {
  PetscInt   idx[AXIS_COUNT];   /* the value of each axis */
  char       name[FC_NAME_LEN]; /* its folder: the values joined by "__" */
  char       status[32];        /* ok, not_converged, failed */
  char       note[600];
  PetscInt   steps, nconv;
  PetscReal  mit, xit, mer, xer, mti, cost[NCOST], dprobe;
  PetscReal *end; /* the probe columns at the last row */
} Cell;

typedef struct {
  const FcStudyCompareOptions *o;
  PetscInt                     naxes;
  Axis                        *ax;
  PetscInt                     ncells;
  Cell                        *cell;
  FcStudyJob                  *job;
  PetscInt                     nentry, entry[64]; /* the file's bodies[] entries of deformable bodies (level) */
  PetscReal                    t_end;
  PetscBool                    steps_given;
  PetscInt                     jobs;
  PetscInt                     nprobe; /* probe columns (cell 0's header, after step and time) */
  char                       **probe;
  char                         tmp[PETSC_MAX_PATH_LEN + 64];
  FcStudyExec                  x;
} Compare;

static PetscErrorCode CompareDestroy_Private(Compare *C)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; C->cell && i < C->ncells; i++) PetscCall(PetscFree(C->cell[i].end));
  for (PetscInt i = 0; i < C->nprobe; i++) PetscCall(PetscFree(C->probe[i]));
  PetscCall(PetscFree(C->probe));
  PetscCall(PetscFree(C->cell));
  PetscCall(PetscFree(C->job));
  PetscCall(PetscFree(C->ax));
  PetscCall(FcStudyExecDestroy(&C->x));
  PetscFunctionReturn(0);
}

/* One value of an axis, checked by its kind (the case checks the rest when a cell loads). */
static PetscErrorCode AxisValue_Private(Axis *a, PetscInt k, const char *opt)
{
  const char *v = a->v[k];

  PetscFunctionBegin;
  /* a value names the cell's folder */
  FcCheckInput(!strchr(v, '/'), "command line", opt, "'%s': a value holds no '/' (it names the run's folder)", v);
  if (a->kind == AXIS_SOLVER) PetscCall(FcSolverSpecCheck(v, "command line", opt, &a->spec[k], a->which[k]));
  else if (a->kind == AXIS_DT) {
    char  *end;
    double d;
    errno = 0;
    d     = strtod(v, &end);
    FcCheckInput(!*end && end != v && !errno && isfinite(d) && d > 0, "command line", opt, "dt '%s': expected a finite time step > 0 (s)", v);
  } else if (a->kind == AXIS_LEVEL) {
    char *end;
    long  l;
    errno = 0;
    l     = strtol(v, &end, 10);
    FcCheckInput(
      !*end && end != v && !errno && l >= 0 && l <= 8, "command line", opt, "level '%s': expected an integer in [0, 8] (the range of mesh.refine)", v);
  } else {
    for (const char *c = v; *c; c++)
      FcCheckInput((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_', "command line", opt, "%s '%s': expected a name of [a-z0-9_]",
        axis_names[a->kind], v);
    /* a run checks its compliance type only when it starts: here before anything runs (the
     * integrator is one of the case schema's choices, checked when the cells load) */
    if (a->kind == AXIS_COMPLIANCE) {
      PetscCall(FcComplianceRegisterAll());
      PetscCall(FcComplianceCheckType("command line", v));
    }
  }
  PetscFunctionReturn(0);
}

/* "NAME=V1,V2,...": a known axis, given once, 1 to FC_COMPARE_MAX_VALUES distinct values. */
static PetscErrorCode ParseAxis_Private(Compare *C, const char *text, const char *opt)
{
  char     buf[4096], *eq, *p;
  Axis    *a = &C->ax[C->naxes];
  PetscInt kind;

  PetscFunctionBegin;
  FcCheckInput(strlen(text) < sizeof buf, "command line", opt, "'%.64s...': too long", text);
  PetscCall(PetscStrncpy(buf, text, sizeof buf));
  eq = strchr(buf, '=');
  FcCheckInput(eq, "command line", opt, "'%s': expected NAME=V1,V2,... with NAME one of solver, compliance, dt, integrator, level", text);
  *eq = 0;
  for (kind = 0; kind < AXIS_COUNT && strcmp(axis_names[kind], buf); kind++) {}
  FcCheckInput(kind < AXIS_COUNT, "command line", opt, "'%s': unknown axis (expected solver, compliance, dt, integrator or level)", buf);
  for (PetscInt i = 0; i < C->naxes; i++)
    FcCheckInput(C->ax[i].kind != (AxisKind)kind, "command line", opt, "axis '%s' is given twice (--solvers is the axis solver)", buf);
  a->kind = (AxisKind)kind;
  a->n    = 0;
  p       = eq + 1;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    /* --solvers LIST is shown as given (text is "solver=LIST") */
    FcCheckInput(p[0], "command line", opt, "'%s': an empty %s; give a comma-separated list, e.g. %s", strcmp(opt, "--solvers") ? text : text + 7,
      kind == AXIS_SOLVER ? "solver name" : "value", kind == AXIS_SOLVER ? "nsgs,lemke:k=16" : "dt=0.01,0.005");
    FcCheckInput(a->n < FC_COMPARE_MAX_VALUES && strlen(p) < FC_NAME_LEN, "command line", opt, "'%.64s': at most %d values of fewer than %d characters", text,
      FC_COMPARE_MAX_VALUES, FC_NAME_LEN);
    for (PetscInt k = 0; k < a->n; k++) FcCheckInput(strcmp(a->v[k], p), "command line", opt, "%s '%s' is listed twice", buf, p);
    PetscCall(PetscStrncpy(a->v[a->n], p, FC_NAME_LEN));
    PetscCall(AxisValue_Private(a, a->n, opt));
    a->n++;
    if (!comma) break;
    p = comma + 1;
  }
  C->naxes++;
  PetscFunctionReturn(0);
}

/* The --set entries (set) and PETSc options (opt, name and value in turn) of a cell. */
static void CellArgs_Private(const Compare *C, const Cell *cl, char (*set)[FC_COMPARE_SET_LEN], PetscInt *nset, const char **opt, PetscInt *nopt)
{
  *nset = *nopt = 0;
  for (PetscInt i = 0; i < C->naxes; i++) {
    const Axis *a = &C->ax[i];
    const char *v = a->v[cl->idx[i]];
    switch (a->kind) {
    case AXIS_SOLVER: {
      const FcSolverSpec *s = &a->spec[cl->idx[i]];
      snprintf(set[(*nset)++], FC_COMPARE_SET_LEN, "contact_solver.type=\"%s\"", s->type);
      for (PetscInt k = 0; k < s->nkeys; k++) {
        opt[(*nopt)++] = s->option[k][a->which[cl->idx[i]][k]];
        opt[(*nopt)++] = s->value[k];
      }
    } break;
    case AXIS_COMPLIANCE: snprintf(set[(*nset)++], FC_COMPARE_SET_LEN, "compliance.type=\"%s\"", v); break;
    case AXIS_INTEGRATOR: snprintf(set[(*nset)++], FC_COMPARE_SET_LEN, "time.integrator=\"%s\"", v); break;
    case AXIS_DT:
      snprintf(set[(*nset)++], FC_COMPARE_SET_LEN, "time.dt=%s", v);
      /* a case that gives steps keeps its end time: steps = round(t_end / dt) */
      if (C->steps_given) snprintf(set[(*nset)++], FC_COMPARE_SET_LEN, "time.steps=%.0f", fmax(1.0, round((double)C->t_end / strtod(v, NULL))));
      break;
    case AXIS_LEVEL:
      for (PetscInt e = 0; e < C->nentry; e++) snprintf(set[(*nset)++], FC_COMPARE_SET_LEN, "bodies[%d].mesh.refine=%s", (int)C->entry[e], v);
      break;
    default: break;
    }
  }
}

/* The keys the axes set are the study's: a --set of one of them would be overridden silently. */
static PetscErrorCode CheckSets_Private(const Compare *C)
{
  const FcStudyCompareOptions *o = C->o;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < C->naxes; i++) {
    const char *keys[] = {"contact_solver.type=", "compliance.type=", "time.dt=", "time.integrator=", NULL};
    const char *k2     = C->ax[i].kind == AXIS_DT && C->steps_given ? "time.steps=" : NULL;
    for (PetscInt s = 0; s < o->nsets; s++) {
      PetscBool clash = (PetscBool)(C->ax[i].kind < AXIS_LEVEL && keys[C->ax[i].kind] &&
        !strncmp(o->sets[s], keys[C->ax[i].kind], strlen(keys[C->ax[i].kind])));
      if (k2 && !strncmp(o->sets[s], k2, strlen(k2))) clash = PETSC_TRUE;
      for (PetscInt e = 0; C->ax[i].kind == AXIS_LEVEL && e < C->nentry; e++) {
        char key[64];
        snprintf(key, sizeof key, "bodies[%d].mesh.refine=", (int)C->entry[e]);
        if (!strncmp(o->sets[s], key, strlen(key))) clash = PETSC_TRUE;
      }
      FcCheckInput(!clash, "command line", "--set", "'%s': study compare sets it itself (--axis %s)", o->sets[s], axis_names[C->ax[i].kind]);
    }
  }
  PetscFunctionReturn(0);
}

/* Every cell's case loads (the case checks the axis values: a compliance or integrator name, a
 * dt beyond its bound, a level beyond the mesh's) and fits this machine, before anything runs. */
static PetscErrorCode CheckCells_Private(Compare *C, const char *dir)
{
  const FcStudyCompareOptions *o = C->o;
  const char                 **sets;
  char(*set)[FC_COMPARE_SET_LEN];
  const char    *opt[2 * FC_SOLVER_SPEC_MAX_KEYS];
  PetscInt       nset, nopt;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(o->nsets + C->naxes + 64, &sets, C->naxes + 64, &set));
  for (PetscInt i = 0; i < o->nsets; i++) sets[i] = o->sets[i];
  for (PetscInt k = 0; k < C->ncells && !ierr; k++) {
    FcCase c;
    CellArgs_Private(C, &C->cell[k], set, &nset, opt, &nopt);
    for (PetscInt i = 0; i < nset; i++) sets[o->nsets + i] = set[i];
    ierr = FcCaseLoad(o->casefile, o->nsets + nset, sets, &c);
    if (!ierr) {
      FcEstimate est;
      ierr = FcEstimateCase(&c, &est);
      if (!ierr) ierr = FcEstimateCheck(&c, &est, dir, o->force);
      PetscCall(FcCaseDestroy(&c));
    }
  }
  PetscCall(PetscFree2(sets, set));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The axes (--solvers is the axis solver; none: solver=nsgs), the cells, the case's facts. */
static PetscErrorCode Setup_Private(Compare *C, char *dir, size_t dirlen)
{
  const FcStudyCompareOptions *o = C->o;
  FcCase                       c;
  PetscBool                    contacts;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(AXIS_COUNT, &C->ax));
  if (o->solvers) {
    char text[4200];
    PetscCall(PetscSNPrintf(text, sizeof text, "solver=%s", o->solvers));
    PetscCall(ParseAxis_Private(C, text, "--solvers"));
  }
  for (PetscInt i = 0; i < o->naxes; i++) {
    FcCheckInput(C->naxes < AXIS_COUNT, "command line", "--axis", "at most %d axes (solver, compliance, dt, integrator, level)", AXIS_COUNT);
    PetscCall(ParseAxis_Private(C, o->axes[i], "--axis"));
  }
  if (!C->naxes) PetscCall(ParseAxis_Private(C, "solver=nsgs", "--solvers"));
  C->ncells = 1;
  for (PetscInt i = 0; i < C->naxes; i++) {
    C->ncells *= C->ax[i].n;
    FcCheckInput(C->ncells <= FC_COMPARE_MAX_CELLS, "command line", "--axis", "the axes make more than %d runs", FC_COMPARE_MAX_CELLS);
  }
  PetscCall(FcCaseLoad(o->casefile, o->nsets, o->sets, &c));
  contacts       = (PetscBool)(c.ncontacts > 0);
  C->t_end       = c.t_end;
  C->steps_given = c.steps_given;
  for (PetscInt b = 0; b < c.nbodies; b++)
    if (!c.bodies[b].rigid && (!C->nentry || C->entry[C->nentry - 1] != c.bodies[b].entry) && C->nentry < 64) C->entry[C->nentry++] = c.bodies[b].entry;
  if (o->outdir) PetscCall(PetscStrncpy(dir, o->outdir, dirlen));
  else PetscCall(PetscSNPrintf(dir, dirlen, "%s/%s/compare", c.output_dir, c.name));
  PetscCall(FcCaseDestroy(&c));
  for (PetscInt i = 0; i < C->naxes; i++) {
    FcCheckInput(C->ax[i].kind != AXIS_SOLVER || contacts, o->casefile, "contacts", "study compare of contact solvers needs a case with contact pairs");
    FcCheckInput(C->ax[i].kind != AXIS_LEVEL || C->nentry, o->casefile, "bodies", "the axis level refines the meshes of deformable bodies: the case has none");
  }
  PetscCall(CheckSets_Private(C));
  /* the cells, the first axis varying slowest */
  PetscCall(PetscCalloc1(C->ncells, &C->cell));
  PetscCall(PetscCalloc1(C->ncells, &C->job));
  for (PetscInt k = 0; k < C->ncells; k++) {
    Cell    *cl = &C->cell[k];
    PetscInt r  = k;
    size_t   l  = 0;
    for (PetscInt i = C->naxes - 1; i >= 0; i--) {
      cl->idx[i] = r % C->ax[i].n;
      r /= C->ax[i].n;
    }
    for (PetscInt i = 0; i < C->naxes; i++)
      l += (size_t)snprintf(cl->name + l, l < sizeof cl->name ? sizeof cl->name - l : 0, "%s%s", i ? "__" : "", C->ax[i].v[cl->idx[i]]);
    FcCheckInput(l < sizeof cl->name, "command line", "--axis", "the values of a cell make a folder name longer than %d characters", FC_NAME_LEN - 1);
    C->job[k].exit_status = -1;
  }
  PetscCall(CheckCells_Private(C, dir));
  PetscFunctionReturn(0);
}

/* Start cell k: `<exe> run CASE [--set user]... [--set cell]... -o TMP/<cell> -q [--force]
 * [PETSc options of the command line] [the variant's options]`, output in TMP/<cell>.log. */
static PetscErrorCode StartCell_Private(void *ctx, PetscInt k)
{
  Compare                     *C = (Compare *)ctx;
  const FcStudyCompareOptions *o = C->o;
  char      **argv, (*set)[FC_COMPARE_SET_LEN], out[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN], log[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN], head[FC_NAME_LEN + 64];
  const char *opt[2 * FC_SOLVER_SPEC_MAX_KEYS];
  PetscInt    na = 0, nset, nopt;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(10 + 2 * (o->nsets + C->naxes + 64) + o->npetsc + 2 * FC_SOLVER_SPEC_MAX_KEYS, &argv, C->naxes + 64, &set));
  CellArgs_Private(C, &C->cell[k], set, &nset, opt, &nopt);
  argv[na++] = NULL; /* the executable (FcStudyJobStart) */
  argv[na++] = (char *)"run";
  argv[na++] = (char *)o->casefile;
  for (PetscInt i = 0; i < o->nsets; i++) {
    argv[na++] = (char *)"--set";
    argv[na++] = (char *)o->sets[i];
  }
  for (PetscInt i = 0; i < nset; i++) {
    argv[na++] = (char *)"--set";
    argv[na++] = set[i];
  }
  PetscCall(PetscSNPrintf(out, sizeof out, "%s/%s", C->tmp, C->cell[k].name));
  PetscCall(PetscSNPrintf(log, sizeof log, "%s/%s.log", C->tmp, C->cell[k].name));
  argv[na++] = (char *)"-o";
  argv[na++] = out;
  argv[na++] = (char *)"-q";
  if (o->force) argv[na++] = (char *)"--force";
  for (PetscInt i = 0; i < o->npetsc; i++) argv[na++] = (char *)o->petsc[i];
  for (PetscInt i = 0; i < nopt; i++) argv[na++] = (char *)opt[i]; /* after the user's: the variant's own */
  argv[na] = NULL;
  PetscCall(PetscSNPrintf(head, sizeof head, "# fcsim study compare, %s:", C->cell[k].name));
  PetscCall(FcStudyJobStart(&C->x, argv, log, head, &C->job[k]));
  PetscCall(PetscFree2(argv, set));
  PetscFunctionReturn(0);
}

static const char *CellName_Private(void *ctx, PetscInt k) { return ((Compare *)ctx)->cell[k].name; }

/* max over the steps of |p − p_ref| at the reference's times (the cell's column interpolated
 * linearly in time, FcRefineInterpolate), divided by the scale of the column: its max |value|
 * in the reference, a vector probe's three columns (name_x, name_y, name_z) sharing the largest
 * (so a tangential component that is ~0 is not divided by ~0). Max over the columns; NaN when
 * the cell shares no time with the reference. */
static PetscReal ProbeDifference_Private(const FcResultsTable *ref, const FcResultsTable *t)
{
  PetscReal dmax = 0, *x, *y;
  PetscInt  ct = FcResultsTableColumn(t, "time"), cr = FcResultsTableColumn(ref, "time"), ncmp = 0;

  if (ct < 0 || cr < 0 || !t->nrows || !ref->nrows) return NAN;
  x = (PetscReal *)malloc(sizeof(PetscReal) * (size_t)t->nrows * 2);
  if (!x) return NAN;
  y = x + t->nrows;
  for (PetscInt r = 0; r < t->nrows; r++) x[r] = t->v[r * t->ncols + ct];
  for (PetscInt c = 2; c < ref->ncols; c++) {
    PetscInt  c1 = FcResultsTableColumn(t, ref->head[c]), v0 = c, v1 = c;
    size_t    len = strlen(ref->head[c]);
    PetscReal num = 0, den = 0;
    if (c1 < 0) continue;
    if (len > 2 && ref->head[c][len - 2] == '_' && strchr("xyz", ref->head[c][len - 1])) {
      v0 = c - (ref->head[c][len - 1] - 'x');
      v1 = PetscMin(v0 + 2, ref->ncols - 1);
      v0 = PetscMax(v0, 2);
    }
    for (PetscInt r = 0; r < t->nrows; r++) y[r] = t->v[r * t->ncols + c1];
    for (PetscInt r = 0; r < ref->nrows; r++) {
      PetscReal yq;
      for (PetscInt cc = v0; cc <= v1; cc++) den = PetscMax(den, PetscAbsReal(ref->v[r * ref->ncols + cc]));
      if (!FcRefineInterpolate(t->nrows, x, y, ref->v[r * ref->ncols + cr], &yq)) continue;
      num = PetscMax(num, PetscAbsReal(yq - ref->v[r * ref->ncols + c]));
      ncmp++;
    }
    if (den > 0) dmax = PetscMax(dmax, num / den);
  }
  free(x);
  return ncmp ? dmax : NAN;
}

/* The statistics of one cell from its stats.csv (missing columns: NaN). */
static void CellStats_Private(Cell *cl, const FcResultsTable *t)
{
  PetscInt cit = FcResultsTableColumn(t, "contact_it"), cer = FcResultsTableColumn(t, "contact_error"), cti = FcResultsTableColumn(t, "contact_time"),
           cco = FcResultsTableColumn(t, "converged");

  cl->steps = t->nrows;
  cl->nconv = 0;
  cl->mit = cl->xit = cl->mer = cl->xer = cl->mti = 0;
  for (PetscInt j = 0; j < NCOST; j++) cl->cost[j] = 0;
  for (PetscInt r = 0; r < t->nrows; r++) {
    const PetscReal *row = &t->v[r * t->ncols];
    if (cit >= 0) {
      cl->mit += row[cit];
      cl->xit = PetscMax(cl->xit, row[cit]);
    }
    if (cer >= 0) {
      cl->mer += row[cer];
      cl->xer = PetscMax(cl->xer, row[cer]);
    }
    if (cti >= 0) cl->mti += row[cti];
    if (cco >= 0) cl->nconv += row[cco] > 0.5;
    for (PetscInt j = 0; j < NCOST; j++) {
      PetscInt cj = FcResultsTableColumn(t, cost_cols[j]);
      cl->cost[j] += cj >= 0 ? row[cj] : NAN;
    }
  }
  if (t->nrows) {
    cl->mit /= t->nrows;
    cl->mer /= t->nrows;
    cl->mti /= t->nrows;
  }
  if (cit < 0) cl->mit = cl->xit = NAN;
  if (cer < 0) cl->mer = cl->xer = NAN;
  if (cti < 0) cl->mti = NAN;
}

/* Status and tables of every cell. A cell whose run refused its input (exit 2: a variant the
 * case cannot run, a bad option of the case's "petsc" object) makes the study an input error:
 * its one line is returned as the study's. */
static PetscErrorCode Analyse_Private(Compare *C)
{
  FcResultsTable *stats, *probes;
  PetscErrorCode  ierr = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < C->ncells; k++) {
    char line[1024], log[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN], *colon;
    if (C->job[k].exit_status != 2) continue;
    PetscCall(PetscSNPrintf(log, sizeof log, "%s/%s.log", C->tmp, C->cell[k].name));
    FcStudyLastLine(log, line, sizeof line);
    if (!strncmp(line, "fcsim: ", 7)) memmove(line, line + 7, strlen(line + 7) + 1);
    colon = strstr(line, ": ");
    if (colon) {
      *colon = 0;
      return FcInputError(line, NULL, "%s", colon + 2);
    }
    return FcInputError("command line", "--axis", "the run of %s refused its input: %s", C->cell[k].name, line[0] ? line : "no message");
  }
  PetscCall(PetscCalloc2(C->ncells, &stats, C->ncells, &probes));
  for (PetscInt k = 0; k < C->ncells && !ierr; k++) {
    Cell       *cl = &C->cell[k];
    char        run[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN], path[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN + 32];
    struct stat st;
    PetscBool   found;
    int         es = C->job[k].exit_status;

    cl->dprobe = NAN;
    PetscCall(PetscSNPrintf(run, sizeof run, "%s/%s", C->tmp, cl->name));
    if (es == 1 && C->job[k].started) {
      /* a failed run keeps its outputs beside its target (run.c): in the study, under its name */
      PetscCall(PetscSNPrintf(path, sizeof path, "%s.failed-%d", run, (int)C->job[k].pid));
      if (lstat(run, &st) != 0 && lstat(path, &st) == 0) (void)rename(path, run);
    }
    if ((es == 0 || es == 1) && stat(run, &st) == 0 && S_ISDIR(st.st_mode)) {
      PetscCall(PetscStrncpy(cl->status, es ? "not_converged" : "ok", sizeof cl->status));
      if (es) snprintf(cl->note, sizeof cl->note, "some step did not converge (exit status 1, see %s.log)", cl->name);
      ierr = FcResultsReadTable(run, "stats", PETSC_TRUE, &stats[k], &found);
      if (!ierr) ierr = FcResultsReadTable(run, "probes", PETSC_TRUE, &probes[k], &found);
      if (!ierr) CellStats_Private(cl, &stats[k]);
    } else {
      char last[400];
      PetscCall(PetscSNPrintf(path, sizeof path, "%s.log", run));
      FcStudyLastLine(path, last, sizeof last);
      PetscCall(PetscStrncpy(cl->status, "failed", sizeof cl->status));
      snprintf(cl->note, sizeof cl->note, "the run failed (exit status %d): %s", es, last[0] ? last : "no message");
      cl->steps = cl->nconv = 0;
      cl->mit = cl->xit = cl->mer = cl->xer = cl->mti = NAN;
      for (PetscInt j = 0; j < NCOST; j++) cl->cost[j] = NAN;
    }
  }
  /* the probe columns are the first cell's with probes (every cell runs the same probes) */
  for (PetscInt k = 0; k < C->ncells && !ierr && !C->probe; k++)
    if (probes[k].ncols > 2) {
      C->nprobe = probes[k].ncols - 2;
      PetscCall(PetscCalloc1(C->nprobe, &C->probe));
      for (PetscInt c = 0; c < C->nprobe; c++) PetscCall(PetscStrallocpy(probes[k].head[c + 2], &C->probe[c]));
    }
  for (PetscInt k = 0; k < C->ncells && !ierr; k++) {
    Cell *cl = &C->cell[k];
    PetscCall(PetscMalloc1(C->nprobe + 1, &cl->end));
    for (PetscInt c = 0; c < C->nprobe; c++) {
      PetscInt cc = FcResultsTableColumn(&probes[k], C->probe[c]);
      cl->end[c]  = cc >= 0 && probes[k].nrows ? probes[k].v[(probes[k].nrows - 1) * probes[k].ncols + cc] : NAN;
    }
    if (probes[0].nrows && probes[k].nrows) cl->dprobe = ProbeDifference_Private(&probes[0], &probes[k]);
  }
  for (PetscInt k = 0; k < C->ncells; k++) {
    PetscCall(FcResultsTableDestroy(&stats[k]));
    PetscCall(FcResultsTableDestroy(&probes[k]));
  }
  PetscCall(PetscFree2(stats, probes));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* v in the format; undefined: "nan" for the CSV formats (%.17g, %.6e, %.0f), "-" for the tables. */
static const char *Fmt_Private(char *buf, size_t len, const char *fmt, PetscReal v)
{
  if (isfinite(v)) snprintf(buf, len, fmt, (double)v);
  else snprintf(buf, len, "%s", strcmp(fmt, "%.17g") && strcmp(fmt, "%.6e") && strcmp(fmt, "%.0f") ? "-" : "nan");
  return buf;
}

/* A CSV field: quoted when it holds a comma or a quote (RFC 4180, as results.h reads it). */
static void CSVField_Private(FILE *f, const char *s)
{
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void WriteCSV_Private(const Compare *C, FILE *csv)
{
  char b[64];

  fprintf(csv, "run");
  for (PetscInt i = 0; i < C->naxes; i++) fprintf(csv, ",%s", axis_names[C->ax[i].kind]);
  fprintf(csv, ",status,exit_status,wall_time_s,steps,converged_steps,mean_contact_it,max_contact_it,mean_contact_error,max_contact_error,mean_contact_time");
  for (PetscInt j = 0; j < NCOST; j++) fprintf(csv, ",%s", cost_cols[j]);
  fprintf(csv, ",max_probe_difference");
  for (PetscInt c = 0; c < C->nprobe; c++) {
    fputs(",", csv);
    char name[FC_NAME_LEN + 8];
    snprintf(name, sizeof name, "end_%s", C->probe[c]);
    CSVField_Private(csv, name);
  }
  fprintf(csv, "\n");
  for (PetscInt k = 0; k < C->ncells; k++) {
    const Cell *cl = &C->cell[k];
    CSVField_Private(csv, cl->name);
    for (PetscInt i = 0; i < C->naxes; i++) {
      fputs(",", csv);
      CSVField_Private(csv, C->ax[i].v[cl->idx[i]]);
    }
    fprintf(csv, ",%s,%d,%s", cl->status, C->job[k].exit_status, Fmt_Private(b, sizeof b, "%.17g", C->job[k].started ? C->job[k].wall : NAN));
    fprintf(csv, ",%d,%d", (int)cl->steps, (int)cl->nconv);
    /* the columns of the solver comparison keep the format they always had (7 digits; the
     * scripts that read them print them as they are); the cost sums and end values: all digits */
    fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.6e", cl->mit));
    fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.0f", cl->xit));
    fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.6e", cl->mer));
    fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.6e", cl->xer));
    fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.6e", cl->mti));
    for (PetscInt j = 0; j < NCOST; j++) fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.17g", cl->cost[j]));
    fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.6e", cl->dprobe));
    for (PetscInt c = 0; c < C->nprobe; c++) fprintf(csv, ",%s", Fmt_Private(b, sizeof b, "%.17g", cl->end[c]));
    fprintf(csv, "\n");
  }
}

/* compare.md and the printed table: one row per cell. */
static void WriteTable_Private(const Compare *C, FILE *md)
{
  const FcStudyCompareOptions *o = C->o;
  char                         b[10][64];

  fprintf(md, "# Study compare: %s\n\n- command: `%s`\n- case: `%s`", o->casefile, o->command_line ? o->command_line : "", o->casefile);
  for (PetscInt i = 0; i < o->nsets; i++) fprintf(md, " `--set %s`", o->sets[i]);
  fprintf(md, "\n- axes:");
  for (PetscInt i = 0; i < C->naxes; i++) {
    fprintf(md, "%s `%s` =", i ? ";" : "", axis_names[C->ax[i].kind]);
    for (PetscInt v = 0; v < C->ax[i].n; v++) fprintf(md, "%s `%s`", v ? "," : "", C->ax[i].v[v]);
  }
  fprintf(md, "\n- %d runs, %d at once (wall times of concurrent runs share the machine: -j 1 for timings that compare)\n", (int)C->ncells, (int)C->jobs);
  fprintf(md,
    "- times in s, sums over the steps (stats.csv); probe difference: max over the probe columns and the first run's times of |p − p_first| / max |p_first|, the run's probes interpolated linearly in time\n\n");
  fprintf(md,
    "| run | status | steps (converged) | contact it/step | max common error | wall | assembly | factor | W | detect | contact solve | output | step | probe diff vs %s |\n",
    C->cell[0].name);
  fprintf(md, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  printf("%-28s %-13s %7s %8s %10s %8s %8s %8s %8s %8s %8s %8s %8s %10s\n", "run", "status", "steps", "cit/step", "max_error", "wall[s]", "assembly", "factor",
    "W", "detect", "c_solve", "output", "step", "probe_diff");
  for (PetscInt k = 0; k < C->ncells; k++) {
    const Cell *cl = &C->cell[k];
    Fmt_Private(b[0], sizeof b[0], "%.1f", cl->mit);
    Fmt_Private(b[1], sizeof b[1], "%.2e", cl->xer);
    Fmt_Private(b[2], sizeof b[2], "%.3f", C->job[k].started ? C->job[k].wall : NAN);
    for (PetscInt j = 0; j < NCOST; j++) Fmt_Private(b[3 + j], sizeof b[3 + j], "%.3g", cl->cost[j]);
    fprintf(md, "| %s | %s | %d (%d) | %s | %s | %s |", cl->name, cl->status, (int)cl->steps, (int)cl->nconv, b[0], b[1], b[2]);
    printf("%-28s %-13s %3d/%-3d %8s %10s %8s", cl->name, cl->status, (int)cl->nconv, (int)cl->steps, b[0], b[1], b[2]);
    for (PetscInt j = 0; j < NCOST; j++) {
      fprintf(md, " %s |", b[3 + j]);
      printf(" %8s", b[3 + j]);
    }
    Fmt_Private(b[0], sizeof b[0], "%.2e", cl->dprobe);
    fprintf(md, " %s |\n", b[0]);
    printf(" %10s\n", b[0]);
  }
  for (PetscInt k = 0; k < C->ncells; k++)
    if (C->cell[k].note[0]) {
      fprintf(md, "\n- %s: %s\n", C->cell[k].name, C->cell[k].note);
      printf("%s: %s\n", C->cell[k].name, C->cell[k].note);
    }
}

static PetscErrorCode Write_Private(const Compare *C)
{
  char  path[PETSC_MAX_PATH_LEN + 96];
  FILE *csv, *md;
  int   bad;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/compare.csv", C->tmp));
  csv = fopen(path, "w");
  PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", path, strerror(errno));
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/compare.md", C->tmp));
  md = fopen(path, "w");
  if (!md) fclose(csv);
  PetscCheck(md, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", path, strerror(errno));
  WriteCSV_Private(C, csv);
  WriteTable_Private(C, md);
  /* fclose flushes: a full disk shows up here */
  bad = ferror(csv) || ferror(md);
  bad = (fclose(csv) != 0) || bad;
  bad = (fclose(md) != 0) || bad;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s/compare.csv and compare.md: %s", C->tmp, strerror(errno));
  PetscFunctionReturn(0);
}

/* Everything after the temporary directory exists; *interrupted: stopped by a signal. */
static PetscErrorCode Study_Private(Compare *C, PetscBool *ok, PetscBool *interrupted)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = FcStudyJobsRun(C->job, C->ncells, C->jobs, PETSC_FALSE, StartCell_Private, C, "study compare", CellName_Private);
  if (ierr || FcInterrupted) {
    FcStudyJobsStop(C->job, C->ncells);
    *interrupted = (PetscBool)(FcInterrupted != 0);
    PetscCall(ierr);
    PetscFunctionReturn(0);
  }
  PetscCall(Analyse_Private(C));
  PetscCall(Write_Private(C));
  for (PetscInt k = 0; k < C->ncells; k++)
    if (strcmp(C->cell[k].status, "ok")) *ok = PETSC_FALSE;
  *interrupted = (PetscBool)(FcInterrupted != 0);
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyCompare(const FcStudyCompareOptions *o, PetscBool *ok)
{
  Compare        C;
  char           dir[PETSC_MAX_PATH_LEN], kept[PETSC_MAX_PATH_LEN + 96];
  FcOutDir       od;
  PetscBool      interrupted = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(PetscMemzero(&C, sizeof C));
  C.o  = o;
  ierr = FcStudyExecInit("study compare", o->envp, o->mpiexec, &C.x);
  if (!ierr) ierr = Setup_Private(&C, dir, sizeof dir);
  if (!ierr) ierr = FcOutDirCheck(dir, o->outdir ? "command line" : o->casefile, o->outdir ? "-o" : "output.dir", "study compare", o->overwrite, &od);
  if (!ierr) ierr = FcOutDirCreate(&od);
  if (ierr) {
    PetscCall(CompareDestroy_Private(&C));
    return ierr;
  }
  PetscCall(PetscStrncpy(C.tmp, od.tmp, sizeof C.tmp));
  /* one at a time unless -j: a comparison is of costs too, and concurrent runs share the cores
   * (the studies that called study compare before it had -j ran their solvers one by one) */
  C.jobs = o->jobs > 0 ? o->jobs : 1;
  C.jobs = PetscMax(1, PetscMin(C.jobs, C.ncells));
  /* an interrupt stops the runs (SIGTERM, SIGKILL after 10 s) before the watchdog may end this
   * process (src/fcsim.c) */
  FcInterruptGrace = 12.0;
  ierr             = Study_Private(&C, ok, &interrupted);
  if (ierr || interrupted) FcOutDirAbandon(&od);
  else if (*ok) {
    ierr = FcOutDirCommit(&od);
    if (!ierr && FcVerbosity > 0) fprintf(stderr, "fcsim: wrote %s/compare.csv and compare.md\n", od.final);
  } else {
    /* a run that failed is part of the comparison, but a failed study replaces nothing */
    ierr = FcOutDirKeepFailed(&od, kept, sizeof kept);
    if (!ierr)
      fprintf(stderr, "fcsim: study compare: a run failed or did not converge (see compare.md); the study is in %s (%s was not touched)\n", kept, od.final);
  }
  PetscCall(CompareDestroy_Private(&C));
  PetscCall(ierr);
  if (interrupted) {
    fprintf(stderr, "fcsim: study compare interrupted: runs stopped, %s removed\n", od.tmp);
    *ok = PETSC_FALSE;
    PetscFunctionReturn(PETSC_ERR_SIG);
  }
  PetscFunctionReturn(0);
}
