/* fcsim — `fcsim study refine CASE --levels 0,1,2,3 [--bodies A,B] [--reference FILE]
 * [--scale-x s] [--scale-y s] [--quantity COLUMN] [-j N] [--set P=V]... [-o DIR]`.
 *
 * Level L is one `fcsim run CASE --set bodies[i].mesh.refine=L ... -o DIR/level_L -q` per
 * refined body i, started as a separate process (this binary, /proc/self/exe, posix_spawn),
 * at most N at once, output in DIR/level_L.log. Mesh refine L halves the element size per
 * level (.geo: Mesh.MeshSizeFactor = 2^-L; .msh: L uniform subdivisions, src/mesh/mesh.h), so
 * the mesh ratio between levels L and L+d is r = 2^d. Then, per level: DoFs and elements
 * (run.h5, else the first VTK file), wall time, the probes against the reference curve
 * (interpolated linearly at each reference point), the quantity Q, the observed order and the
 * Richardson-extrapolated Q (Roache 1997, "Quantification of uncertainty in computational
 * fluid dynamics", Annu. Rev. Fluid Mech. 29:123–160, §"Richardson extrapolation" and the
 * grid-convergence-index section). Layout and columns: doc/study.md. DIR is written under a
 * temporary name and renamed at the end, like a run. */
#define _XOPEN_SOURCE 700
#include "refine.h"
#include "../core/fsutil.h"
#include "../step/step.h"
#include "../io/results.h"
#include "../run/estimate.h"
#include "jobs.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FC_REFINE_MAX_LEVEL 8 /* the range of bodies[i].mesh.refine in the case schema */

extern char **environ;

/* ---------------------------------------------------------------- numerics */

PetscBool FcRefineInterpolate(PetscInt n, const PetscReal *x, const PetscReal *y, PetscReal xq, PetscReal *yq)
{
  PetscReal s, t;
  PetscInt  lo = 0, hi = n - 1;

  if (n < 1 || !isfinite(xq)) return PETSC_FALSE;
  if (n == 1) {
    if (xq != x[0]) return PETSC_FALSE;
    *yq = y[0];
    return PETSC_TRUE;
  }
  s = x[n - 1] >= x[0] ? 1.0 : -1.0; /* direction of the table */
  if (s * (xq - x[0]) < 0 || s * (xq - x[n - 1]) > 0) return PETSC_FALSE;
  while (hi - lo > 1) {
    PetscInt mid = (lo + hi) / 2;
    if (s * (x[mid] - xq) <= 0) lo = mid;
    else hi = mid;
  }
  /* (1 − t) y_lo + t y_hi returns the table value exactly at either end of the interval */
  t   = (xq - x[lo]) / (x[hi] - x[lo]);
  *yq = (1 - t) * y[lo] + t * y[hi];
  return PETSC_TRUE;
}

/* Q_h = Q + C h^p on meshes h, h/r, h/r² gives (q1 − q0) / (q2 − q1) = r^p, hence the
 * observed order p = ln(|q1 − q0| / |q2 − q1|) / ln r (Roache 1997, observed order from three
 * grids with a constant refinement ratio). Differences of opposite signs mean oscillatory
 * convergence (or divergence): no order. */
PetscBool FcRefineOrder(PetscReal q0, PetscReal q1, PetscReal q2, PetscReal r, PetscReal *p)
{
  PetscReal d1 = q1 - q0, d2 = q2 - q1;

  if (!isfinite(d1) || !isfinite(d2) || d1 == 0 || d2 == 0 || (d1 > 0) != (d2 > 0) || !(r > 1)) return PETSC_FALSE;
  *p = log(PetscAbsReal(d1) / PetscAbsReal(d2)) / log(r);
  return isfinite(*p) ? PETSC_TRUE : PETSC_FALSE;
}

/* Generalized Richardson extrapolation (Roache 1997): Q_∞ ≈ q2 + (q2 − q1) / (r^p − 1), from
 * the two finest values; only for a converging order p > 0. */
PetscBool FcRefineRichardson(PetscReal q1, PetscReal q2, PetscReal p, PetscReal r, PetscReal *qinf)
{
  PetscReal den = pow(r, p) - 1;

  if (!isfinite(q1) || !isfinite(q2) || !(p > 0) || !(den > 0) || !isfinite(den)) return PETSC_FALSE;
  *qinf = q2 + (q2 - q1) / den;
  return isfinite(*qinf) ? PETSC_TRUE : PETSC_FALSE;
}

/* ---------------------------------------------------------------- text helpers */

static char *Trim_Private(char *s)
{
  size_t n;
  while (*s && isspace((unsigned char)*s)) s++;
  n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

/* A finite number filling the whole (trimmed) field. */
static PetscBool ParseNumber_Private(const char *s, PetscReal *v)
{
  char *end;
  if (!s[0]) return PETSC_FALSE;
  errno = 0;
  *v    = strtod(s, &end);
  return (PetscBool)(!*end && errno != ERANGE && isfinite(*v));
}

static PetscInt FindName_Private(PetscInt n, char *const *names, const char *name)
{
  for (PetscInt i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return i;
  return -1;
}

/* "%.17g" for CSV ("nan" when undefined); the given format, or "-", for the tables. */
static void Fmt_Private(char *buf, size_t len, const char *fmt, PetscReal v)
{
  if (isfinite(v)) snprintf(buf, len, fmt, (double)v);
  else snprintf(buf, len, "%s", strcmp(fmt, "%.17g") ? "-" : "nan");
}

/* ---------------------------------------------------------------- reference curve */

typedef struct {
  char       file[PETSC_MAX_PATH_LEN];
  char       xname[FC_NAME_LEN], yname[FC_NAME_LEN];
  PetscInt   header_line;
  PetscInt   n, cap;
  PetscReal *x, *y;
  PetscInt   ncomments, ccap;
  char     **comments;
} Reference;

static PetscErrorCode ReferenceDestroy_Private(Reference *r)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < r->ncomments; i++) PetscCall(PetscFree(r->comments[i]));
  PetscCall(PetscFree(r->comments));
  PetscCall(PetscFree(r->x));
  PetscCall(PetscFree(r->y));
  PetscCall(PetscMemzero(r, sizeof *r));
  PetscFunctionReturn(0);
}

/* One line of the file (already trimmed). A problem is returned in msg (empty: fine). */
static PetscErrorCode ReferenceLine_Private(Reference *r, PetscInt line, char *s, PetscInt ncols, char *const *cols, char *msg, size_t len)
{
  char    *f[3], copy[256];
  PetscInt nf;

  PetscFunctionBegin;
  if (s[0] == '#') {
    if (r->ncomments == r->ccap) {
      r->ccap = r->ccap ? 2 * r->ccap : 8;
      PetscCall(PetscRealloc(sizeof(char *) * (size_t)r->ccap, &r->comments));
    }
    PetscCall(PetscStrallocpy(Trim_Private(s + 1), &r->comments[r->ncomments++]));
    PetscFunctionReturn(0);
  }
  if (!s[0]) PetscFunctionReturn(0);
  snprintf(copy, sizeof copy, "%s", s);
  nf = FcCSVSplit(s, f, 2);
  if (!r->header_line) {
    const char *x, *y;
    if (nf != 2) {
      snprintf(msg, len, "expected the header X,Y (two column names of probes.csv), found '%s'", copy);
      PetscFunctionReturn(0);
    }
    x = Trim_Private(f[0]);
    y = Trim_Private(f[1]);
    if (strcmp(x, "time") && FindName_Private(ncols, cols, x) < 0) {
      snprintf(msg, len, "unknown X column '%s' (expected time or a probe column of the case:", x);
      for (PetscInt i = 0; i < ncols && strlen(msg) + strlen(cols[i]) + 4 < len; i++) snprintf(msg + strlen(msg), len - strlen(msg), " %s", cols[i]);
      snprintf(msg + strlen(msg), len - strlen(msg), ")");
      PetscFunctionReturn(0);
    }
    if (FindName_Private(ncols, cols, y) < 0) {
      snprintf(msg, len, "unknown Y column '%s' (expected a probe column of the case:", y);
      for (PetscInt i = 0; i < ncols && strlen(msg) + strlen(cols[i]) + 4 < len; i++) snprintf(msg + strlen(msg), len - strlen(msg), " %s", cols[i]);
      snprintf(msg + strlen(msg), len - strlen(msg), ")");
      PetscFunctionReturn(0);
    }
    if (!strcmp(x, y)) {
      snprintf(msg, len, "X and Y are the same column '%s'", x);
      PetscFunctionReturn(0);
    }
    PetscCall(PetscStrncpy(r->xname, x, sizeof r->xname));
    PetscCall(PetscStrncpy(r->yname, y, sizeof r->yname));
    r->header_line = line;
    PetscFunctionReturn(0);
  }
  {
    PetscReal x, y;
    if (nf != 2 || !ParseNumber_Private(Trim_Private(f[0]), &x) || !ParseNumber_Private(Trim_Private(f[1]), &y)) {
      snprintf(msg, len, "expected two finite numbers x,y, found '%s'", copy);
      PetscFunctionReturn(0);
    }
    /* X strictly monotone (either direction, set by the first two points), so the reference
     * is a function of X and the last point is an end of the curve */
    if (r->n >= 1 && (x == r->x[r->n - 1] || (r->n >= 2 && (x > r->x[r->n - 1]) != (r->x[1] > r->x[0])))) {
      snprintf(msg, len, "X is not strictly monotone (x = %.17g after %.17g)", (double)x, (double)r->x[r->n - 1]);
      PetscFunctionReturn(0);
    }
    if (r->n == r->cap) {
      r->cap = r->cap ? 2 * r->cap : 64;
      PetscCall(PetscRealloc(sizeof(PetscReal) * (size_t)r->cap, &r->x));
      PetscCall(PetscRealloc(sizeof(PetscReal) * (size_t)r->cap, &r->y));
    }
    r->x[r->n]   = x;
    r->y[r->n++] = y;
  }
  PetscFunctionReturn(0);
}

/* Comment lines '#', a header "X,Y" naming probe columns ("time" allowed for X), then rows of
 * two numbers with X strictly monotone, at least two of them. Every problem is one input error
 * "FILE: line N: message". */
static PetscErrorCode ReferenceRead_Private(const char *file, PetscInt ncols, char *const *cols, Reference *r)
{
  FILE    *f;
  char    *buf = NULL, msg[1024] = "", where[64];
  size_t   cap  = 0;
  PetscInt line = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(r, sizeof *r));
  PetscCall(PetscStrncpy(r->file, file, sizeof r->file));
  /* a regular file only: a FIFO or a device would block the read or never end */
  PetscCall(FcInputFileOpen(file, file, NULL, &f, NULL));
  while (!msg[0] && getline(&buf, &cap, f) >= 0) {
    line++;
    buf[strcspn(buf, "\r\n")] = 0;
    PetscCall(ReferenceLine_Private(r, line, Trim_Private(buf), ncols, cols, msg, sizeof msg));
  }
  free(buf);
  fclose(f);
  if (!msg[0] && !r->header_line) snprintf(msg, sizeof msg, "no header line X,Y (the file holds only comments or blank lines)");
  else if (!msg[0] && r->n < 2) snprintf(msg, sizeof msg, "%d data point%s: at least 2 are needed", (int)r->n, r->n == 1 ? "" : "s");
  if (msg[0]) {
    PetscCall(ReferenceDestroy_Private(r));
    if (!line) return FcInputError(file, NULL, "the file is empty: expected a header line X,Y and at least 2 data points");
    snprintf(where, sizeof where, "line %d", (int)line);
    return FcInputError(file, where, "%s", msg);
  }
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------- run outputs */

/* ---------------------------------------------------------------- the study */

typedef struct {
  PetscInt   level;
  pid_t      pid;
  PetscBool  started;     /* copied from the level's job when the runs are over (jobs.h) */
  char       label[24];   /* "level L", for the progress lines */
  int        exit_status; /* 0–255; 128 + signal when killed; -1 not run */
  double     wall;
  long long  nodes, elems;
  char       status[32]; /* ok, not_converged, failed, x_not_monotone, no_probes */
  char       note[600];
  PetscBool  have_curve; /* the run's X (strictly monotone) and Y are there */
  PetscBool *covered;    /* per reference point: inside the run's X range */
  PetscReal *yrun;       /* per reference point: the run's (scaled) Y interpolated there */
  PetscReal  q, emax, erms, p, qinf, perr;
  PetscInt   ncmp, nout, nzero;
} Level;

typedef struct {
  const FcStudyRefineOptions *o;
  PetscInt                    nlev, lev[FC_REFINE_MAX_LEVEL + 1];
  PetscInt                    nbodies, nrefined, *refined; /* case bodies; the refined entries of the file's bodies[] */
  char                        refined_text[1024];          /* "beam (bodies[0]), ..." for study.md */
  PetscInt                    ndeform;
  char                      **deform; /* names of the deformable bodies (mesh counts) */
  PetscInt                    ncols;
  char                      **cols; /* probe columns of the case */
  PetscBool                   have_ref;
  Reference                   ref;
  char                        quantity[FC_NAME_LEN]; /* "": Y at the last common reference point */
  PetscInt                    kq;                    /* that reference point, -1: none */
  PetscReal                   sx, sy;
  PetscInt                    jobs;
  char                        name[FC_NAME_LEN];
  char                        dir[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 64];
  PetscBool                   over_dt; /* --over dt: the levels halve time.dt (else the mesh) */
  PetscReal                   dt0;     /* time.dt of the case (with the user's --set) */
  PetscInt                    steps0;  /* time.steps when the case gives it, else 0 (t_end kept) */
  FcStudyExec                 x;       /* the executable and the runs' environment */
  FcStudyJob                 *job;     /* per level */
  Level                      *lv;
} Study;

static PetscErrorCode StudyDestroy_Private(Study *s, Level *lv)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; lv && i < s->nlev; i++) PetscCall(PetscFree2(lv[i].covered, lv[i].yrun));
  for (PetscInt i = 0; i < s->ncols; i++) PetscCall(PetscFree(s->cols[i]));
  PetscCall(PetscFree(s->cols));
  for (PetscInt i = 0; i < s->ndeform; i++) PetscCall(PetscFree(s->deform[i]));
  PetscCall(PetscFree(s->deform));
  PetscCall(PetscFree(s->refined));
  PetscCall(ReferenceDestroy_Private(&s->ref));
  PetscCall(FcStudyExecDestroy(&s->x));
  PetscCall(PetscFree(s->job));
  PetscFunctionReturn(0);
}

/* --levels: distinct integers in [0, FC_REFINE_MAX_LEVEL], sorted ascending. */
static PetscErrorCode ParseLevels_Private(const char *spec, Study *s)
{
  const char *p = spec;

  PetscFunctionBegin;
  FcCheckInput(spec && spec[0], "command line", "--levels", "study refine needs --levels, a comma-separated list of refinement levels, e.g. --levels 0,1,2");
  s->nlev = 0;
  for (;;) {
    char *end;
    long  v;
    FcCheckInput(*p >= '0' && *p <= '9', "command line", "--levels", "'%s': expected a comma-separated list of integers in [0, %d]", spec, FC_REFINE_MAX_LEVEL);
    errno = 0;
    v     = strtol(p, &end, 10);
    FcCheckInput(!errno && v <= FC_REFINE_MAX_LEVEL, "command line", "--levels", "'%s': level %.20s out of range [0, %d] (the range of mesh.refine)", spec, p,
      FC_REFINE_MAX_LEVEL);
    for (PetscInt k = 0; k < s->nlev; k++) FcCheckInput(s->lev[k] != v, "command line", "--levels", "'%s': level %ld is listed twice", spec, v);
    s->lev[s->nlev++] = (PetscInt)v;
    if (!*end) break;
    FcCheckInput(*end == ',' && end[1], "command line", "--levels", "'%s': expected a comma-separated list of integers in [0, %d]", spec, FC_REFINE_MAX_LEVEL);
    p = end + 1;
  }
  for (PetscInt i = 1; i < s->nlev; i++)
    for (PetscInt j = i; j > 0 && s->lev[j - 1] > s->lev[j]; j--) {
      PetscInt t    = s->lev[j];
      s->lev[j]     = s->lev[j - 1];
      s->lev[j - 1] = t;
    }
  PetscFunctionReturn(0);
}

/* The --set entries the study adds for level L (at most nrefined + 2, 64 characters each):
 * bodies[i].mesh.refine = L per refined body, or with --over dt time.dt = dt0 / 2^L and, for a
 * case that gives time.steps, steps0 · 2^L (the same end time; a case with t_end keeps it). */
static void LevelSets_Private(const Study *s, PetscInt L, char (*set)[64], PetscInt *n)
{
  *n = 0;
  if (s->over_dt) {
    snprintf(set[(*n)++], 64, "time.dt=%.17g", (double)(s->dt0 / PetscPowReal(2.0, (PetscReal)L)));
    if (s->steps0) snprintf(set[(*n)++], 64, "time.steps=%lld", (long long)s->steps0 << L);
    return;
  }
  for (PetscInt k = 0; k < s->nrefined; k++) snprintf(set[(*n)++], 64, "bodies[%d].mesh.refine=%d", (int)s->refined[k], (int)L);
}

/* The refined bodies (s->refined: entries of the file's bodies[]): those of --bodies, or every
 * deformable one; refined_text names them for study.md; a --set of a level's key is refused. Returns
 * an input error's code (0: none) so that the caller can free the case first. */
static PetscErrorCode RefinedBodies_Private(Study *s, const FcCase *c)
{
  const FcStudyRefineOptions *o    = s->o;
  PetscErrorCode              ierr = 0;

  if (!s->over_dt && o->bodies) {
    char list[4096], *tok, *save = NULL;
    PetscCall(PetscStrncpy(list, o->bodies, sizeof list));
    for (tok = strtok_r(list, ",", &save); tok && !ierr; tok = strtok_r(NULL, ",", &save)) {
      PetscInt b = 0;
      while (b < c->nbodies && strcmp(c->bodies[b].name, tok)) b++;
      if (b == c->nbodies) ierr = FcInputError("command line", "--bodies", "no body named '%s' in %s", tok, o->casefile);
      else if (c->bodies[b].rigid) ierr = FcInputError("command line", "--bodies", "body '%s' is rigid: only deformable bodies have a mesh to refine", tok);
      else {
        /* refined[] holds entries of the file's bodies[] (the --set key); one entry with
         * mesh.volumes stands for several bodies, all refined together */
        PetscBool seen = PETSC_FALSE;
        for (PetscInt k = 0; k < s->nrefined; k++)
          if (s->refined[k] == c->bodies[b].entry) seen = PETSC_TRUE;
        if (seen && !c->bodies[b].from_volumes) ierr = FcInputError("command line", "--bodies", "body '%s' is listed twice", tok);
        else if (!seen) s->refined[s->nrefined++] = c->bodies[b].entry;
      }
    }
    if (!ierr && !s->nrefined) ierr = FcInputError("command line", "--bodies", "'%s': expected a comma-separated list of body names", o->bodies);
  } else if (!s->over_dt) {
    for (PetscInt b = 0; b < c->nbodies; b++)
      if (!c->bodies[b].rigid && (!s->nrefined || s->refined[s->nrefined - 1] != c->bodies[b].entry)) s->refined[s->nrefined++] = c->bodies[b].entry;
  }
  /* the level is set by the study: a --set of the same key would be silently overridden */
  for (PetscInt k = 0; k < s->nrefined && !ierr; k++) {
    char     key[64];
    size_t   l = strlen(s->refined_text);
    PetscInt b = 0;
    while (c->bodies[b].entry != s->refined[k]) b++; /* the entry's first body */
    if (c->bodies[b].from_volumes)
      snprintf(s->refined_text + l, sizeof s->refined_text - l, "%sthe bodies of mesh.volumes \"%.100s\" (`bodies[%d]`)", k ? ", " : "", c->bodies[b].mesh_file,
        (int)s->refined[k]);
    else snprintf(s->refined_text + l, sizeof s->refined_text - l, "%s%.200s (`bodies[%d]`)", k ? ", " : "", c->bodies[b].name, (int)s->refined[k]);
    snprintf(key, sizeof key, "bodies[%d].mesh.refine=", (int)s->refined[k]);
    for (PetscInt i = 0; i < o->nsets && !ierr; i++)
      if (!strncmp(o->sets[i], key, strlen(key)))
        ierr = FcInputError("command line", "--set", "'%s': study refine sets the refinement of body '%s' itself (--levels)", o->sets[i], c->bodies[b].name);
  }
  return ierr;
}

/* The highest level must load too (the schema's range of mesh.refine, the body indices, the bound
 * of time.dt), and fit this machine, before any level starts (each run checks itself again). */
static PetscErrorCode CheckHighest_Private(Study *s)
{
  const FcStudyRefineOptions *o = s->o;
  FcCase                      c;
  PetscErrorCode              ierr;

  PetscFunctionBegin;
  {
    const char **sets;
    char(*set)[64];
    PetscInt nset;
    PetscCall(PetscMalloc2(o->nsets + s->nrefined + 2, &sets, s->nrefined + 2, &set));
    for (PetscInt i = 0; i < o->nsets; i++) sets[i] = o->sets[i];
    LevelSets_Private(s, s->lev[s->nlev - 1], set, &nset);
    for (PetscInt k = 0; k < nset; k++) sets[o->nsets + k] = set[k];
    ierr = FcCaseLoad(o->casefile, o->nsets + nset, sets, &c);
    PetscCall(PetscFree2(sets, set));
    PetscCall(ierr);
    /* and fit this machine, before any level starts (each run checks itself again) */
    {
      FcEstimate est;
      ierr = FcEstimateCase(&c, &est);
      if (!ierr) ierr = FcEstimateCheck(&c, &est, s->dir, o->force);
    }
    PetscCall(FcCaseDestroy(&c));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

/* The case (with the user's --set) decides the refined bodies, the probe columns, the default
 * directory; --bodies, --quantity and the reference are checked against it. */
static PetscErrorCode Validate_Private(Study *s)
{
  const FcStudyRefineOptions *o = s->o;
  FcCase                      c;
  PetscErrorCode              ierr;

  PetscFunctionBegin;
  PetscCall(FcCaseLoad(o->casefile, o->nsets, o->sets, &c));
  s->nbodies = c.nbodies;
  PetscCall(PetscCalloc1(c.nbodies + 1, &s->refined));
  PetscCall(PetscCalloc1(c.nbodies + 1, &s->deform));
  for (PetscInt b = 0; b < c.nbodies; b++)
    if (!c.bodies[b].rigid) PetscCall(PetscStrallocpy(c.bodies[b].name, &s->deform[s->ndeform++]));
  ierr      = 0;
  s->dt0    = c.dt;
  s->steps0 = c.steps_given ? c.steps : 0;
  if (s->over_dt) {
    /* --bodies names meshes to refine: with --over dt it would be ignored. The case's time.dt,
     * after the user's --set, is level 0's (the level's --set comes after the user's) */
    if (o->bodies) ierr = FcInputError("command line", "--bodies", "names the bodies whose mesh is refined: not with --over dt");
    PetscCall(PetscStrncpy(s->refined_text, "none (the time step is refined)", sizeof s->refined_text));
  } else if (!s->ndeform) ierr = FcInputError(o->casefile, "bodies", "study refine needs a case with a deformable body (a mesh to refine)");
  if (!ierr) ierr = RefinedBodies_Private(s, &c);
  /* probe columns, named as FcModelCreate names them (src/model/model.c) */
  if (!ierr) {
    PetscCall(PetscCalloc1(3 * c.nprobes + 1, &s->cols));
    for (PetscInt p = 0; p < c.nprobes; p++) {
      const FcCaseProbe *pr = &c.probes[p];
      char               buf[FC_NAME_LEN + 4];
      if ((pr->type == FC_PROBE_DISPLACEMENT || pr->type == FC_PROBE_REACTION || pr->type == FC_PROBE_CONTACT_FORCE) &&
        pr->component < 0) { /* one column with a component */
        for (int k = 0; k < 3; k++) {
          snprintf(buf, sizeof buf, "%s_%c", pr->name, "xyz"[k]);
          PetscCall(PetscStrallocpy(buf, &s->cols[s->ncols++]));
        }
      } else PetscCall(PetscStrallocpy(pr->name, &s->cols[s->ncols++]));
    }
    if (!s->ncols) ierr = FcInputError(o->casefile, "probes", "study refine compares probes: the case has none");
  }
  if (!ierr) {
    PetscCall(PetscStrncpy(s->name, c.name, sizeof s->name));
    if (o->outdir) PetscCall(PetscStrncpy(s->dir, o->outdir, sizeof s->dir));
    else {
      char        stamp[64];
      time_t      now = time(NULL);
      struct tm   tmv;
      struct stat st;
      localtime_r(&now, &tmv);
      strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tmv);
      PetscCall(PetscSNPrintf(s->dir, sizeof s->dir, "%s/%s/refine_%s", c.output_dir, c.name, stamp));
      for (int k = 2; lstat(s->dir, &st) == 0; k++) PetscCall(PetscSNPrintf(s->dir, sizeof s->dir, "%s/%s/refine_%s-%d", c.output_dir, c.name, stamp, k));
    }
  }
  PetscCall(FcCaseDestroy(&c));
  PetscCall(ierr);
  if (o->quantity) {
    FcCheckInput(
      FindName_Private(s->ncols, s->cols, o->quantity) >= 0, "command line", "--quantity", "'%s' is not a probe column of %s", o->quantity, o->casefile);
    PetscCall(PetscStrncpy(s->quantity, o->quantity, sizeof s->quantity));
  } else if (!o->reference) PetscCall(PetscStrncpy(s->quantity, s->cols[s->ncols - 1], sizeof s->quantity));
  FcCheckInput(o->reference || (!o->scale_x && !o->scale_y), "command line", o->scale_x ? "--scale-x" : "--scale-y",
    "scales the run's columns for the comparison with --reference: give a reference file");
  s->sx = o->scale_x ? o->scale_x : 1;
  s->sy = o->scale_y ? o->scale_y : 1;
  if (o->reference) {
    PetscCall(ReferenceRead_Private(o->reference, s->ncols, s->cols, &s->ref));
    s->have_ref = PETSC_TRUE;
  }
  PetscCall(CheckHighest_Private(s));
  PetscFunctionReturn(0);
}

/* Start level i: `<exe> run CASE [--set user]... --set <the level's keys>... -o TMP/level_L -q
 * [--force] [PETSc options]`, stdout and stderr appended to TMP/level_L.log after a first line
 * with the command. */
static PetscErrorCode StartLevel_Private(void *ctx, PetscInt i)
{
  Study                      *s = (Study *)ctx;
  Level                      *L = &s->lv[i];
  const FcStudyRefineOptions *o = s->o;
  char                      **argv, (*set)[64], out[PETSC_MAX_PATH_LEN + 96], log[PETSC_MAX_PATH_LEN + 96], head[96];
  PetscInt                    na = 0, nset = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(9 + 2 * (o->nsets + s->nrefined + 2) + o->npetsc, &argv, s->nrefined + 2, &set));
  argv[na++] = NULL; /* the executable (FcStudyJobStart) */
  argv[na++] = (char *)"run";
  argv[na++] = (char *)o->casefile;
  for (PetscInt k = 0; k < o->nsets; k++) {
    argv[na++] = (char *)"--set";
    argv[na++] = (char *)o->sets[k];
  }
  LevelSets_Private(s, L->level, set, &nset);
  for (PetscInt k = 0; k < nset; k++) {
    argv[na++] = (char *)"--set";
    argv[na++] = set[k];
  }
  PetscCall(PetscSNPrintf(out, sizeof out, "%s/level_%d", s->tmp, (int)L->level));
  PetscCall(PetscSNPrintf(log, sizeof log, "%s/level_%d.log", s->tmp, (int)L->level));
  argv[na++] = (char *)"-o";
  argv[na++] = out;
  argv[na++] = (char *)"-q";
  if (o->force) argv[na++] = (char *)"--force"; /* the user insists: every level may exceed the estimate */
  for (PetscInt k = 0; k < o->npetsc; k++) argv[na++] = (char *)o->petsc[k];
  argv[na] = NULL;
  PetscCall(PetscSNPrintf(head, sizeof head, "# fcsim study refine, level %d:", (int)L->level));
  PetscCall(FcStudyJobStart(&s->x, argv, log, head, &s->job[i]));
  PetscCall(PetscFree2(argv, set));
  PetscFunctionReturn(0);
}

static const char *LevelName_Private(void *ctx, PetscInt i)
{
  Study *s = (Study *)ctx;
  snprintf(s->lv[i].label, sizeof s->lv[i].label, "level %d", (int)s->lv[i].level);
  return s->lv[i].label;
}

/* Finest level first (the longest run starts first), at most s->jobs at once; returns early
 * when interrupted. */
static PetscErrorCode RunLevels_Private(Study *s, Level *lv)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = FcStudyJobsRun(s->job, s->nlev, s->jobs, PETSC_TRUE, StartLevel_Private, s, "study refine", LevelName_Private);
  for (PetscInt i = 0; i < s->nlev; i++) {
    lv[i].started     = s->job[i].started;
    lv[i].exit_status = s->job[i].exit_status;
    lv[i].wall        = s->job[i].wall;
    lv[i].pid         = s->job[i].pid;
  }
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* Status, mesh counts and the run's curve of one level; errors need every level (the common
 * last reference point), they are computed afterwards. */
static PetscErrorCode AnalyseLevel_Private(Study *s, Level *L)
{
  char           run[PETSC_MAX_PATH_LEN + 96], path[PETSC_MAX_PATH_LEN + 128], last[400];
  struct stat    st;
  PetscBool      exists, found;
  FcResultsTable t;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(run, sizeof run, "%s/level_%d", s->tmp, (int)L->level));
  if (L->exit_status == 1 && L->started) {
    /* a failed run keeps its outputs beside its target (run.c): inside the study they are the
     * level's, under its name */
    PetscCall(PetscSNPrintf(path, sizeof path, "%s.failed-%d", run, (int)L->pid));
    if (lstat(run, &st) != 0 && lstat(path, &st) == 0) (void)rename(path, run);
  }
  exists = (PetscBool)(stat(run, &st) == 0 && S_ISDIR(st.st_mode));
  L->q = L->emax = L->erms = L->p = L->qinf = L->perr = NAN;
  L->nodes = L->elems = -1;
  if (L->exit_status == 0 && exists) PetscCall(PetscStrncpy(L->status, "ok", sizeof L->status));
  else if (L->exit_status == 1 && exists) {
    PetscCall(PetscStrncpy(L->status, "not_converged", sizeof L->status));
    snprintf(L->note, sizeof L->note, "some step did not converge (exit status 1, see level_%d.log)", (int)L->level);
  } else {
    PetscCall(PetscSNPrintf(path, sizeof path, "%s/level_%d.log", s->tmp, (int)L->level));
    FcStudyLastLine(path, last, sizeof last);
    PetscCall(PetscStrncpy(L->status, "failed", sizeof L->status));
    snprintf(L->note, sizeof L->note, "the run failed (exit status %d): %s", L->exit_status, last[0] ? last : "no message");
    PetscFunctionReturn(0);
  }
  FcResultsMeshCounts(run, s->ndeform, s->deform, &L->nodes, &L->elems);
  PetscCall(FcResultsReadTable(run, "probes", PETSC_FALSE, &t, &found));
  if (!found || !t.nrows) {
    if (!strcmp(L->status, "ok")) PetscCall(PetscStrncpy(L->status, "no_probes", sizeof L->status));
    snprintf(L->note, sizeof L->note, "no probe rows in level_%d/probes.csv", (int)L->level);
    PetscCall(FcResultsTableDestroy(&t));
    PetscFunctionReturn(0);
  }
  if (s->quantity[0]) {
    PetscInt c = FcResultsTableColumn(&t, s->quantity);
    if (c >= 0) L->q = t.v[(t.nrows - 1) * t.ncols + c];
  }
  if (s->have_ref) {
    PetscInt   cx = FcResultsTableColumn(&t, s->ref.xname), cy = FcResultsTableColumn(&t, s->ref.yname);
    PetscReal *x, *y;
    PetscBool  mono = PETSC_TRUE;
    if (cx < 0 || cy < 0) {
      if (!strcmp(L->status, "ok")) PetscCall(PetscStrncpy(L->status, "no_probes", sizeof L->status));
      snprintf(L->note, sizeof L->note, "level_%d/probes.csv has no column %s", (int)L->level, cx < 0 ? s->ref.xname : s->ref.yname);
      PetscCall(FcResultsTableDestroy(&t));
      PetscFunctionReturn(0);
    }
    PetscCall(PetscMalloc2(t.nrows, &x, t.nrows, &y));
    for (PetscInt r = 0; r < t.nrows; r++) {
      x[r] = s->sx * t.v[r * t.ncols + cx];
      y[r] = s->sy * t.v[r * t.ncols + cy];
      if (!isfinite(x[r]) || (r >= 2 && (x[r] > x[r - 1]) != (x[1] > x[0])) || (r >= 1 && x[r] == x[r - 1])) mono = PETSC_FALSE;
    }
    if (!mono) {
      if (!strcmp(L->status, "ok")) PetscCall(PetscStrncpy(L->status, "x_not_monotone", sizeof L->status));
      snprintf(L->note, sizeof L->note, "%s of level %d is not strictly monotone: it cannot be interpolated (no errors)", s->ref.xname, (int)L->level);
    } else {
      L->have_curve = PETSC_TRUE;
      for (PetscInt k = 0; k < s->ref.n; k++) L->covered[k] = FcRefineInterpolate(t.nrows, x, y, s->ref.x[k], &L->yrun[k]);
    }
    PetscCall(PetscFree2(x, y));
  }
  PetscCall(FcResultsTableDestroy(&t));
  PetscFunctionReturn(0);
}

/* Errors against the reference, Q at the last reference point every curve covers, orders and
 * the Richardson value. Only levels with status ok enter an order. */
static PetscErrorCode Compare_Private(Study *s, Level *lv)
{
  PetscFunctionBegin;
  s->kq = -1;
  if (s->have_ref) {
    for (PetscInt k = s->ref.n - 1; k >= 0 && s->kq < 0; k--) {
      PetscBool all = PETSC_TRUE, some = PETSC_FALSE;
      for (PetscInt i = 0; i < s->nlev; i++)
        if (lv[i].have_curve) {
          some = PETSC_TRUE;
          all  = (PetscBool)(all && lv[i].covered[k]);
        }
      if (some && all) s->kq = k;
    }
    for (PetscInt i = 0; i < s->nlev; i++) {
      Level    *L   = &lv[i];
      PetscReal sum = 0, mx = 0;
      if (!L->have_curve) continue;
      for (PetscInt k = 0; k < s->ref.n; k++) {
        PetscReal e;
        if (!L->covered[k]) {
          L->nout++;
          continue;
        }
        if (s->ref.y[k] == 0) { /* a relative error has no meaning there */
          L->nzero++;
          continue;
        }
        e  = (L->yrun[k] - s->ref.y[k]) / PetscAbsReal(s->ref.y[k]);
        mx = PetscMax(mx, PetscAbsReal(e));
        sum += e * e;
        L->ncmp++;
      }
      if (L->ncmp) {
        L->emax = mx;
        L->erms = PetscSqrtReal(sum / L->ncmp);
      }
      if (!s->quantity[0] && s->kq >= 0) L->q = L->yrun[s->kq];
    }
  }
  for (PetscInt i = 0; i < s->nlev; i++) {
    Level *L = &lv[i];
    if (strcmp(L->status, "ok")) continue;
    /* order of the max error between consecutive levels: e ∝ h^p ⇒ p = ln(e_prev / e) / ln r */
    if (i >= 1 && !strcmp(lv[i - 1].status, "ok") && lv[i - 1].emax > 0 && L->emax > 0)
      L->perr = log(lv[i - 1].emax / L->emax) / (log(2.0) * (PetscReal)(L->level - lv[i - 1].level));
    if (i >= 2 && !strcmp(lv[i - 1].status, "ok") && !strcmp(lv[i - 2].status, "ok") && L->level - lv[i - 1].level == lv[i - 1].level - lv[i - 2].level) {
      PetscReal r = PetscPowReal(2.0, (PetscReal)(L->level - lv[i - 1].level));
      if (FcRefineOrder(lv[i - 2].q, lv[i - 1].q, L->q, r, &L->p)) {
        if (!FcRefineRichardson(lv[i - 1].q, L->q, L->p, r, &L->qinf)) L->qinf = NAN;
      } else L->p = NAN;
    }
  }
  PetscFunctionReturn(0);
}

static void QuantityText_Private(const Study *s, char *buf, size_t len)
{
  if (s->quantity[0]) snprintf(buf, len, "%s at the last row of probes.csv", s->quantity);
  else if (s->kq >= 0)
    snprintf(buf, len, "%s%s at %s = %.10g (the last reference point every level covers)", s->sy != 1 ? "scaled " : "", s->ref.yname, s->ref.xname,
      (double)s->ref.x[s->kq]);
  else snprintf(buf, len, "%s at the last reference point every level covers: none", s->ref.yname);
}

static PetscErrorCode WriteResults_Private(Study *s, Level *lv)
{
  const FcStudyRefineOptions *o = s->o;
  char                        path[PETSC_MAX_PATH_LEN + 96], qtext[1024];
  FILE                       *csv, *md, *err = NULL;
  const char                 *head[] = {
                    "level", "DoFs", "elements", "wall [s]", "converged", "Q", "max rel. error", "RMS rel. error", "order p", "Richardson Q", "error order", "status"};

  PetscFunctionBegin;
  QuantityText_Private(s, qtext, sizeof qtext);
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/study.csv", s->tmp));
  PetscCheck(csv = fopen(path, "w"), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", path, strerror(errno));
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/study.md", s->tmp));
  PetscCheck(md = fopen(path, "w"), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", path, strerror(errno));
  if (s->have_ref) {
    PetscCall(PetscSNPrintf(path, sizeof path, "%s/errors.csv", s->tmp));
    PetscCheck(err = fopen(path, "w"), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", path, strerror(errno));
    fprintf(err, "level,x_ref,y_ref,y_run,rel_error\n");
  }
  fprintf(csv,
    "level,dofs,elements,wall_time_s,converged,quantity,max_rel_error,rms_rel_error,order,richardson,error_order,compared,outside_range,zero_reference,exit_status,status\n");
  fprintf(md, "# %s refinement study: %s\n\n", s->over_dt ? "Time-step" : "Mesh", s->name);
  fprintf(md, "- command: `%s`\n", o->command_line ? o->command_line : "");
  fprintf(md, "- case: `%s`", o->casefile);
  for (PetscInt i = 0; i < o->nsets; i++) fprintf(md, " `--set %s`", o->sets[i]);
  if (s->over_dt) {
    fprintf(md, "\n- time step of level L: `time.dt` = %.17g / 2^L%s\n", (double)s->dt0,
      s->steps0 ? " and `time.steps` = steps · 2^L (the same end time)" : " (the same t_end)");
    fprintf(md, "- each level: `fcsim run %s ... --set time.dt=DT_L%s -o level_L -q`, %d at once (wall times of concurrent runs share the machine)\n",
      o->casefile, s->steps0 ? " --set time.steps=N_L" : "", (int)s->jobs);
  } else {
    fprintf(md, "\n- refined bodies (`bodies[i].mesh.refine` = level): %s\n", s->refined_text);
    fprintf(md, "- each level: `fcsim run %s ... --set bodies[i].mesh.refine=L -o level_L -q`, %d at once (wall times of concurrent runs share the machine)\n",
      o->casefile, (int)s->jobs);
  }
  if (s->have_ref) {
    fprintf(md, "- reference: `%s`, X = `%s`, Y = `%s`, %d points; the run's X is multiplied by %g and Y by %g\n", s->ref.file, s->ref.xname, s->ref.yname,
      (int)s->ref.n, (double)s->sx, (double)s->sy);
    for (PetscInt i = 0; i < s->ref.ncomments; i++) fprintf(md, "  > %s\n", s->ref.comments[i]);
    fprintf(md, "- relative error at each reference point: (y_run − y_ref) / |y_ref|, y_run interpolated linearly in the run's X\n");
  }
  fprintf(md, "- quantity Q: %s\n", qtext);
  fprintf(md,
    "- %s ratio r = 2 per level; observed order p = ln(|Q_{L−1} − Q_{L−2}| / |Q_L − Q_{L−1}|) / ln r; Richardson Q = Q_L + (Q_L − Q_{L−1}) / (r^p − 1); error order ln(e_{L−1} / e_L) / ln r (Roache 1997)\n\n",
    s->over_dt ? "time-step" : "mesh");
  for (size_t k = 0; k < sizeof head / sizeof head[0]; k++) fprintf(md, "| %s ", head[k]);
  fprintf(md, "|\n");
  for (size_t k = 0; k < sizeof head / sizeof head[0]; k++) fprintf(md, "|---");
  fprintf(md, "|\n");
  printf("%5s %10s %10s %9s %4s %18s %12s %12s %7s %18s %7s  %s\n", "level", "DoFs", "elements", "wall[s]", "conv", "Q", "max_rel_err", "rms_rel_err", "order",
    "Richardson", "err_ord", "status");
  for (PetscInt i = 0; i < s->nlev; i++) {
    Level    *L = &lv[i];
    char      c[10][64];
    PetscBool conv = (PetscBool)!strcmp(L->status, "ok");
    Fmt_Private(c[0], sizeof c[0], "%.0f", L->nodes >= 0 ? 3.0 * (PetscReal)L->nodes : NAN);
    Fmt_Private(c[1], sizeof c[1], "%.0f", L->elems >= 0 ? (PetscReal)L->elems : NAN);
    Fmt_Private(c[2], sizeof c[2], "%.2f", L->exit_status >= 0 ? L->wall : NAN);
    Fmt_Private(c[3], sizeof c[3], "%.10g", L->q);
    Fmt_Private(c[4], sizeof c[4], "%.3e", L->emax);
    Fmt_Private(c[5], sizeof c[5], "%.3e", L->erms);
    Fmt_Private(c[6], sizeof c[6], "%.3f", L->p);
    Fmt_Private(c[7], sizeof c[7], "%.10g", L->qinf);
    Fmt_Private(c[8], sizeof c[8], "%.3f", L->perr);
    fprintf(md, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", (int)L->level, c[0], c[1], c[2], conv ? "yes" : "no", c[3], c[4], c[5], c[6],
      c[7], c[8], L->status);
    printf("%5d %10s %10s %9s %4s %18s %12s %12s %7s %18s %7s  %s\n", (int)L->level, c[0], c[1], c[2], conv ? "yes" : "no", c[3], c[4], c[5], c[6], c[7], c[8],
      L->status);
    Fmt_Private(c[0], sizeof c[0], "%.17g", L->nodes >= 0 ? 3.0 * (PetscReal)L->nodes : NAN);
    Fmt_Private(c[1], sizeof c[1], "%.17g", L->elems >= 0 ? (PetscReal)L->elems : NAN);
    Fmt_Private(c[2], sizeof c[2], "%.17g", L->exit_status >= 0 ? L->wall : NAN);
    Fmt_Private(c[3], sizeof c[3], "%.17g", L->q);
    Fmt_Private(c[4], sizeof c[4], "%.17g", L->emax);
    Fmt_Private(c[5], sizeof c[5], "%.17g", L->erms);
    Fmt_Private(c[6], sizeof c[6], "%.17g", L->p);
    Fmt_Private(c[7], sizeof c[7], "%.17g", L->qinf);
    Fmt_Private(c[8], sizeof c[8], "%.17g", L->perr);
    fprintf(csv, "%d,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%d,%d,%d,%d,%s\n", (int)L->level, c[0], c[1], c[2], (int)conv, c[3], c[4], c[5], c[6], c[7], c[8],
      (int)L->ncmp, (int)L->nout, (int)L->nzero, L->exit_status, L->status);
    if (err && L->have_curve)
      for (PetscInt k = 0; k < s->ref.n; k++)
        if (L->covered[k] && s->ref.y[k] != 0)
          fprintf(err, "%d,%.17g,%.17g,%.17g,%.17g\n", (int)L->level, (double)s->ref.x[k], (double)s->ref.y[k], (double)L->yrun[k],
            (double)((L->yrun[k] - s->ref.y[k]) / PetscAbsReal(s->ref.y[k])));
  }
  fprintf(md, "\nDoFs: 3 × nodes of the deformable bodies (constrained DoFs included). ");
  if (s->have_ref) fprintf(md, "Reference points outside a run's X range, and points with y_ref = 0, are skipped (study.csv: outside_range, zero_reference).");
  fprintf(md, "\n");
  for (PetscInt i = 0; i < s->nlev; i++)
    if (lv[i].note[0] || lv[i].nout) {
      fprintf(md, "\n- level %d: ", (int)lv[i].level);
      if (lv[i].note[0]) fprintf(md, "%s", lv[i].note);
      if (lv[i].nout)
        fprintf(
          md, "%s%d reference point%s outside the run's range of %s", lv[i].note[0] ? "; " : "", (int)lv[i].nout, lv[i].nout == 1 ? "" : "s", s->ref.xname);
      fprintf(md, "\n");
    }
  printf("Q: %s\n", qtext);
  for (PetscInt i = 0; i < s->nlev; i++)
    if (lv[i].note[0]) printf("level %d: %s\n", (int)lv[i].level, lv[i].note);
  fclose(csv);
  fclose(md);
  if (err) fclose(err);
  PetscFunctionReturn(0);
}

/* Everything after the temporary directory exists; *interrupted: stopped by a signal. */
static PetscErrorCode Study_Private(Study *s, Level *lv, PetscBool *ok, PetscBool *interrupted)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = RunLevels_Private(s, lv);
  if (ierr || FcInterrupted) {
    FcStudyJobsStop(s->job, s->nlev);
    *interrupted = (PetscBool)(FcInterrupted != 0);
    PetscCall(ierr);
    PetscFunctionReturn(0);
  }
  for (PetscInt i = 0; i < s->nlev; i++) PetscCall(AnalyseLevel_Private(s, &lv[i]));
  PetscCall(Compare_Private(s, lv));
  PetscCall(WriteResults_Private(s, lv));
  for (PetscInt i = 0; i < s->nlev; i++)
    if (strcmp(lv[i].status, "ok")) *ok = PETSC_FALSE;
  *interrupted = (PetscBool)(FcInterrupted != 0);
  PetscFunctionReturn(0);
}

PetscErrorCode FcStudyRefine(const FcStudyRefineOptions *o, PetscBool *ok)
{
  Study          s;
  Level         *lv          = NULL;
  PetscBool      interrupted = PETSC_FALSE;
  PetscErrorCode ierr;
  FcOutDir       od;
  char           kept[PETSC_MAX_PATH_LEN + 96];

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(PetscMemzero(&s, sizeof s));
  s.o = o;
  /* before anything else is read: what the levels refine */
  FcCheckInput(!o->over || !strcmp(o->over, "mesh") || !strcmp(o->over, "dt"), "command line", "--over",
    "'%s': expected mesh (the levels refine the meshes) or dt (they halve time.dt)", o->over);
  s.over_dt = (PetscBool)(o->over && !strcmp(o->over, "dt"));
  PetscCall(FcStudyExecInit("study refine", o->envp, o->mpiexec, &s.x));
  ierr = ParseLevels_Private(o->levels, &s);
  if (!ierr) ierr = Validate_Private(&s);
  if (ierr) {
    PetscCall(StudyDestroy_Private(&s, NULL));
    return ierr;
  }
  s.jobs = o->jobs > 0 ? o->jobs : (PetscInt)sysconf(_SC_NPROCESSORS_ONLN);
  s.jobs = PetscMax(1, PetscMin(s.jobs, s.nlev));
  PetscCall(PetscCalloc1(s.nlev, &lv));
  PetscCall(PetscCalloc1(s.nlev, &s.job));
  s.lv = lv;
  for (PetscInt i = 0; i < s.nlev; i++) {
    s.job[i].exit_status = -1;
    lv[i].level          = s.lev[i];
    lv[i].exit_status    = -1;
    PetscCall(PetscCalloc2(s.ref.n + 1, &lv[i].covered, s.ref.n + 1, &lv[i].yrun));
  }
  ierr = FcOutDirCheck(s.dir, o->outdir ? "command line" : o->casefile, o->outdir ? "-o" : "output.dir", "study refine", o->overwrite, &od);
  if (!ierr) ierr = FcOutDirCreate(&od);
  if (ierr) {
    PetscCall(StudyDestroy_Private(&s, lv));
    PetscCall(PetscFree(lv));
    return ierr;
  }
  PetscCall(PetscStrncpy(s.tmp, od.tmp, sizeof s.tmp));
  PetscCall(PetscStrncpy(s.dir, od.final, sizeof s.dir));
  /* an interrupt stops the levels (SIGTERM, SIGKILL after 10 s) before the watchdog may end
   * this process (src/fcsim.c) */
  FcInterruptGrace = 12.0;
  ierr             = Study_Private(&s, lv, ok, &interrupted);
  if (ierr || interrupted) FcOutDirAbandon(&od);
  else if (*ok) {
    ierr = FcOutDirCommit(&od);
    if (!ierr && FcVerbosity > 0) fprintf(stderr, "fcsim: wrote %s/study.csv and study.md\n", s.dir);
  } else {
    /* a level that failed is part of the study, but a failed study replaces nothing */
    ierr = FcOutDirKeepFailed(&od, kept, sizeof kept);
    if (!ierr)
      fprintf(stderr, "fcsim: study refine: a level failed or did not converge (see study.md); the study is in %s (%s was not touched)\n", kept, s.dir);
  }
  PetscCall(StudyDestroy_Private(&s, lv));
  PetscCall(PetscFree(lv));
  PetscCall(ierr);
  if (interrupted) {
    fprintf(stderr, "fcsim: study refine interrupted: runs stopped, %s removed\n", s.tmp);
    *ok = PETSC_FALSE;
    PetscFunctionReturn(PETSC_ERR_SIG);
  }
  PetscFunctionReturn(0);
}
