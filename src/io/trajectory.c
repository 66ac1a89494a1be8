/* fcsim — trajectory logs: readers of the fcsim, OpenHaptics and ROS formats, validation,
 * device-to-world transform (trajectory.h; doc/trajectory.md). The loaded log's pose at t and its
 * resampling are src/drivers/trajectory.c. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "trajectory.h"
#include "../core/fc.h"
#include "../core/fsutil.h"
#include "../core/mat3.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- quaternions (Hamilton convention, q = (w, x, y, z)) ------------------------------------ */

/* v' = R(q) v = q (0, v) q*, written out as v + 2 w (u x v) + 2 u x (u x v) with u = (x, y, z). */
static void QuatRotate_Private(const PetscReal q[4], const PetscReal v[3], PetscReal out[3])
{
  const PetscReal *u = q + 1;
  PetscReal        c[3], cc[3];
  c[0]  = u[1] * v[2] - u[2] * v[1];
  c[1]  = u[2] * v[0] - u[0] * v[2];
  c[2]  = u[0] * v[1] - u[1] * v[0];
  cc[0] = u[1] * c[2] - u[2] * c[1];
  cc[1] = u[2] * c[0] - u[0] * c[2];
  cc[2] = u[0] * c[1] - u[1] * c[0];
  for (int k = 0; k < 3; k++) out[k] = v[k] + 2 * q[0] * c[k] + 2 * cc[k];
}

void FcTrajectoryTransformIdentity(FcTrajectoryTransform *T)
{
  PetscReal id[4] = {1, 0, 0, 0};
  for (int k = 0; k < 4; k++) T->q[k] = id[k];
  for (int k = 0; k < 3; k++) T->translation[k] = 0;
  T->scale = 1;
}

PetscErrorCode FcTrajectoryTransformFromAxisAngle(
  const PetscReal axis[3], PetscReal angle, const PetscReal translation[3], PetscReal scale, FcTrajectoryTransform *T)
{
  PetscReal n = PetscSqrtReal(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);

  PetscFunctionBegin;
  PetscCheck(n > 0 && PetscIsNormalReal(n), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "trajectory transform: the rotation axis has zero or non-finite length");
  PetscCheck(scale > 0 && PetscIsNormalReal(scale), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
    "trajectory transform: the scale must be a positive number, not %g", (double)scale);
  T->q[0] = PetscCosReal(angle / 2);
  for (int k = 0; k < 3; k++) T->q[k + 1] = PetscSinReal(angle / 2) * axis[k] / n;
  for (int k = 0; k < 3; k++) T->translation[k] = translation ? translation[k] : 0;
  T->scale = scale;
  PetscFunctionReturn(0);
}

/* ---- reading ------------------------------------------------------------------------------ */

typedef enum { FMT_FCSIM, FMT_OPENHAPTICS, FMT_ROS_POSE, FMT_ROS_JOINTSTATE } Format;

static const char *const format_names[] = {"fcsim", "openhaptics", "ros_pose", "ros_jointstate"};

/* One raw sample as read (device axes, metres), with the line it came from. */
typedef struct {
  PetscReal t, p[3], q[4];
  PetscInt  buttons;
  long      line;
} Raw;

typedef struct {
  const char *file;
  Format      fmt;
  int         ncol;                                  /* header fields */
  int         t, stamp, pos[3], quat[4], T, buttons; /* column indices, -1 absent; T: first of T0..T15 */
  int        *name_col, *pos_col;                    /* ros_jointstate: field.nameK, field.positionK */
  int         njoint;
  long long   stamp0; /* ROS: first time stamp (ns) */
  PetscReal   t0;     /* other formats: first time (s) */
  PetscBool   have_t0;
} Reader;

/* Split a line at commas in place; fields trimmed of blanks and line ends. */
static int Split_Private(char *line, char ***fields, int *cap)
{
  int   n = 0;
  char *s = line;
  for (;;) {
    char *c = strchr(s, ',');
    if (n == *cap) {
      int    ncap = *cap ? 2 * *cap : 32;
      char **nf   = (char **)realloc(*fields, (size_t)ncap * sizeof **fields);
      if (!nf) return -1;
      *fields = nf;
      *cap    = ncap;
    }
    if (c) *c = 0;
    while (*s == ' ' || *s == '\t') s++;
    {
      size_t l = strlen(s);
      while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r' || s[l - 1] == '\n')) s[--l] = 0;
    }
    (*fields)[n++] = s;
    if (!c) break;
    s = c + 1;
  }
  return n;
}

static PetscErrorCode Number_Private(const Reader *r, long line, const char *col, const char *s, PetscReal *v)
{
  char  *end = NULL;
  double x;

  PetscFunctionBegin;
  errno = 0;
  x     = strtod(s, &end);
  if (!s[0] || *end) return FcInputError(r->file, NULL, "line %ld: column %s: '%s' is not a number", line, col, s);
  if (!isfinite(x)) return FcInputError(r->file, NULL, "line %ld: column %s: %s is not a finite number (NaN and Inf are refused)", line, col, s);
  *v = (PetscReal)x;
  PetscFunctionReturn(0);
}

static int Find_Private(char **h, int n, const char *name)
{
  for (int i = 0; i < n; i++)
    if (!strcmp(h[i], name)) return i;
  return -1;
}

/* Resolve the header: the column of every quantity the format reads; the count of the others. */
static PetscErrorCode Header_Private(Reader *r, char **h, int n, long line, PetscInt *nignored)
{
  static const char *const fc_pos[] = {"px", "py", "pz"}, *const fc_q[] = {"qw", "qx", "qy", "qz"};
  static const char *const oh_pos[] = {"pos_x", "pos_y", "pos_z"};
  static const char *const rp_pos[] = {"field.pose.position.x", "field.pose.position.y", "field.pose.position.z"};
  static const char *const rp_q[]   = {"field.pose.orientation.w", "field.pose.orientation.x", "field.pose.orientation.y", "field.pose.orientation.z"};
  int                      used = 0, nq = 0;

  PetscFunctionBegin;
  r->ncol = n;
  r->t = r->stamp = r->T = r->buttons = -1;
  for (int k = 0; k < 3; k++) r->pos[k] = -1;
  for (int k = 0; k < 4; k++) r->quat[k] = -1;
  switch (r->fmt) {
  case FMT_FCSIM:
    r->t = Find_Private(h, n, "t");
    for (int k = 0; k < 3; k++) r->pos[k] = Find_Private(h, n, fc_pos[k]);
    for (int k = 0; k < 4; k++) nq += (r->quat[k] = Find_Private(h, n, fc_q[k])) >= 0;
    r->buttons = Find_Private(h, n, "buttons");
    FcCheckInput(nq == 0 || nq == 4, r->file, NULL, "line %ld: the header names %d of the 4 quaternion columns qw,qx,qy,qz (all or none)", line, nq);
    FcCheckInput(r->t >= 0 && r->pos[0] >= 0 && r->pos[1] >= 0 && r->pos[2] >= 0, r->file, NULL,
      "line %ld: the header must name t,px,py,pz (fcsim format: t,px,py,pz[,qw,qx,qy,qz][,buttons])", line);
    break;
  case FMT_OPENHAPTICS:
    r->t = Find_Private(h, n, "time");
    for (int k = 0; k < 3; k++) r->pos[k] = Find_Private(h, n, oh_pos[k]);
    r->T       = Find_Private(h, n, "T0");
    r->buttons = Find_Private(h, n, "buttons");
    FcCheckInput(r->t >= 0 && r->pos[0] >= 0 && r->pos[1] >= 0 && r->pos[2] >= 0 && r->T >= 0, r->file, NULL,
      "line %ld: the header must name time,pos_x,pos_y,pos_z,T0..T15 (openhaptics format)", line);
    for (int k = 1; k < 16; k++) {
      char name[8];
      snprintf(name, sizeof name, "T%d", k);
      FcCheckInput(r->T + k < n && !strcmp(h[r->T + k], name), r->file, NULL,
        "line %ld: the transform columns must be T0..T15 in order (HD_CURRENT_TRANSFORM, column-major): %s missing after T0", line, name);
    }
    used += 15;
    break;
  case FMT_ROS_POSE:
  case FMT_ROS_JOINTSTATE:
    r->t     = Find_Private(h, n, "%time");
    r->stamp = Find_Private(h, n, "field.header.stamp");
    FcCheckInput(r->t >= 0 || r->stamp >= 0, r->file, NULL, "line %ld: the header names neither %%time nor field.header.stamp (rostopic echo -p output)", line);
    if (r->fmt == FMT_ROS_POSE) {
      for (int k = 0; k < 3; k++) r->pos[k] = Find_Private(h, n, rp_pos[k]);
      for (int k = 0; k < 4; k++) nq += (r->quat[k] = Find_Private(h, n, rp_q[k])) >= 0;
      FcCheckInput(r->pos[0] >= 0 && r->pos[1] >= 0 && r->pos[2] >= 0 && nq == 4, r->file, NULL,
        "line %ld: the header must name field.pose.position.x..z and field.pose.orientation.x..w (geometry_msgs/PoseStamped)", line);
    } else {
      PetscCall(PetscMalloc2(n, &r->name_col, n, &r->pos_col));
      for (int k = 0;; k++) {
        char nn[64], pn[64];
        int  a, b;
        snprintf(nn, sizeof nn, "field.name%d", k);
        snprintf(pn, sizeof pn, "field.position%d", k);
        a = Find_Private(h, n, nn);
        b = Find_Private(h, n, pn);
        if (a < 0 || b < 0) break;
        r->name_col[k] = a;
        r->pos_col[k]  = b;
        r->njoint++;
      }
      FcCheckInput(r->njoint >= 3, r->file, NULL,
        "line %ld: the header names %d field.nameK/field.positionK pairs; the end-effector pose needs the joints x, y, z (sensor_msgs/JointState)", line,
        r->njoint);
      used += 2 * r->njoint;
    }
    break;
  }
  for (int k = 0; k < 3; k++) used += r->pos[k] >= 0;
  for (int k = 0; k < 4; k++) used += r->quat[k] >= 0;
  used += (r->t >= 0) + (r->stamp >= 0) + (r->T >= 0) + (r->buttons >= 0);
  *nignored = n - used;
  PetscFunctionReturn(0);
}

static PetscErrorCode Stamp_Private(const Reader *r, long line, const char *col, const char *s, long long *ns)
{
  char     *end = NULL;
  long long v;

  PetscFunctionBegin;
  errno = 0;
  v     = strtoll(s, &end, 10);
  if (!s[0] || *end || errno) {
    PetscReal x;
    PetscCall(Number_Private(r, line, col, s, &x)); /* a NaN/Inf or a non-number says so */
    return FcInputError(r->file, NULL, "line %ld: column %s: '%s' is not an integer time stamp in nanoseconds (rostopic echo -p)", line, col, s);
  }
  *ns = v;
  PetscFunctionReturn(0);
}

/* One data row into a raw sample (device axes, metres, time from the first sample). */
static PetscErrorCode Row_Private(Reader *r, char **f, int n, long line, Raw *s)
{
  PetscFunctionBegin;
  FcCheckInput(n == r->ncol, r->file, NULL, "line %ld: %d fields, the header has %d", line, n, r->ncol);
  s->line    = line;
  s->buttons = 0;
  s->q[0]    = 1;
  s->q[1] = s->q[2] = s->q[3] = 0;
  if (r->fmt == FMT_ROS_POSE || r->fmt == FMT_ROS_JOINTSTATE) {
    /* %time and field.header.stamp are integer nanoseconds; the difference to the first stamp is
     * taken in integers, so that epoch times (~1.7e18 ns) lose nothing in the conversion. */
    long long ns = 0;
    int       c  = r->stamp >= 0 ? r->stamp : r->t;
    PetscCall(Stamp_Private(r, line, c == r->stamp ? "field.header.stamp" : "%time", f[c], &ns));
    if (!r->have_t0) {
      r->stamp0  = ns;
      r->have_t0 = PETSC_TRUE;
    }
    s->t = (PetscReal)(ns - r->stamp0) / 1e9; /* exact integer, one rounding */
  } else {
    PetscReal t;
    PetscCall(Number_Private(r, line, r->fmt == FMT_FCSIM ? "t" : "time", f[r->t], &t));
    if (!r->have_t0) {
      r->t0      = t;
      r->have_t0 = PETSC_TRUE;
    }
    s->t = t - r->t0;
  }
  if (r->fmt == FMT_ROS_JOINTSTATE) {
    static const char *const xyz[] = {"x", "y", "z"};
    for (int k = 0; k < 3; k++) {
      int j;
      for (j = 0; j < r->njoint; j++)
        if (!strcmp(f[r->name_col[j]], xyz[k])) break;
      FcCheckInput(j < r->njoint, r->file, NULL, "line %ld: no joint named %s among field.name0..%d (the end-effector position is the joints x, y, z)", line,
        xyz[k], r->njoint - 1);
      PetscCall(Number_Private(r, line, xyz[k], f[r->pos_col[j]], &s->p[k]));
    }
  } else {
    static const char *const names[3][3] = {
      {"px", "py", "pz"}, {"pos_x", "pos_y", "pos_z"}, {"field.pose.position.x", "field.pose.position.y", "field.pose.position.z"}};
    for (int k = 0; k < 3; k++) PetscCall(Number_Private(r, line, names[r->fmt][k], f[r->pos[k]], &s->p[k]));
  }
  if (r->quat[0] >= 0) {
    static const char *const qn[2][4] = {
      {"qw", "qx", "qy", "qz"}, {"field.pose.orientation.w", "field.pose.orientation.x", "field.pose.orientation.y", "field.pose.orientation.z"}};
    PetscReal nq = 0;
    for (int k = 0; k < 4; k++) {
      PetscCall(Number_Private(r, line, qn[r->fmt == FMT_ROS_POSE][k], f[r->quat[k]], &s->q[k]));
      nq += s->q[k] * s->q[k];
    }
    nq = PetscSqrtReal(nq);
    if (PetscIsInfReal(nq)) {
      /* the squares overflowed (components of 1e300 are finite): scaled by the largest
       * component first, the direction is the same; only then, so that every other log is
       * normalized to the same bits as before */
      PetscReal m = 0;
      for (int k = 0; k < 4; k++) m = PetscMax(m, PetscAbsReal(s->q[k]));
      nq = 0;
      for (int k = 0; k < 4; k++) {
        s->q[k] /= m;
        nq += s->q[k] * s->q[k];
      }
      nq = PetscSqrtReal(nq);
    }
    FcCheckInput(nq > 1e-6, r->file, NULL, "line %ld: the orientation quaternion has zero norm (%g): not a rotation", line, (double)nq);
    for (int k = 0; k < 4; k++) s->q[k] /= nq;
  }
  if (r->T >= 0) {
    /* HD_CURRENT_TRANSFORM is column-major: element (i, j) is T[4 j + i]; the rotation is the
     * upper-left 3x3 block, the translation T12..T14 (the position, in mm). */
    PetscReal T[16], R[9], e = 0;
    for (int k = 0; k < 16; k++) {
      char col[8];
      snprintf(col, sizeof col, "T%d", k);
      PetscCall(Number_Private(r, line, col, f[r->T + k], &T[k]));
    }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) R[3 * i + j] = T[4 * j + i];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        PetscReal d = (i == j) ? -1 : 0;
        for (int k = 0; k < 3; k++) d += R[3 * k + i] * R[3 * k + j];
        e = PetscMax(e, PetscAbsReal(d));
      }
    {
      PetscReal det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
      FcCheckInput(e <= 1e-6 && det > 0, r->file, NULL,
        "line %ld: T0..T15: the upper-left 3x3 block of the transform is not a rotation (|R^T R - I| = %g, det %g)", line, (double)e, (double)det);
    }
    FcMat3ToQuat(R, s->q);
  }
  if (r->buttons >= 0) {
    char *end = NULL;
    long  b;
    errno = 0;
    b     = strtol(f[r->buttons], &end, 10);
    FcCheckInput(f[r->buttons][0] && !*end && !errno && b >= 0 && b <= PETSC_MAX_INT, r->file, NULL,
      "line %ld: column buttons: '%s' is not a non-negative integer bitmask", line, f[r->buttons]);
    s->buttons = (PetscInt)b;
  }
  PetscFunctionReturn(0);
}

/* `# key: value` metadata of the fcsim format. */
static void Meta_Private(const char *line, const char *key, char *out, size_t len, PetscBool *found)
{
  const char *s = line + 1;
  size_t      k = strlen(key);
  while (*s == ' ') s++;
  if (strncmp(s, key, k) || s[k] != ':') return;
  s += k + 1;
  while (*s == ' ') s++;
  snprintf(out, len, "%s", s);
  {
    size_t l = strlen(out);
    while (l && (out[l - 1] == '\n' || out[l - 1] == '\r' || out[l - 1] == ' ')) out[--l] = 0;
  }
  *found = PETSC_TRUE;
}

static int CompareReal_Private(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return (x > y) - (x < y);
}

static PetscErrorCode ReadRaw_Private(
  const char *file, FILE *fp, Reader *r, FcTrajectory *tr, Raw **raw, PetscInt *nraw, char *units, size_t ulen, PetscBool *has_units, long *last_line)
{
  char          *line = NULL, **f = NULL;
  size_t         cap  = 0;
  int            fcap = 0, n;
  long           ln   = 0;
  PetscInt       nr = 0, rcap = 0;
  PetscBool      header = PETSC_FALSE, found;
  Raw           *rs     = NULL;
  PetscErrorCode ierr   = 0;

  PetscFunctionBegin;
  while (!ierr && getline(&line, &cap, fp) >= 0) {
    char *s = line;
    ln++;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '\n' || *s == '\r') continue;
    if (*s == '#') {
      if (!header) {
        Meta_Private(s, "units", units, ulen, has_units);
        Meta_Private(s, "device", tr->device, sizeof tr->device, &found);
        Meta_Private(s, "frame", tr->frame, sizeof tr->frame, &found);
      }
      continue;
    }
    n = Split_Private(s, &f, &fcap);
    if (n < 0) {
      ierr = PETSC_ERR_MEM;
      break;
    }
    if (!header) {
      header = PETSC_TRUE;
      ierr   = Header_Private(r, f, n, ln, &tr->nignored);
      continue;
    }
    if (nr == rcap) {
      Raw *nrs;
      rcap = rcap ? 2 * rcap : 1024;
      nrs  = (Raw *)realloc(rs, (size_t)rcap * sizeof *rs);
      if (!nrs) {
        ierr = PETSC_ERR_MEM;
        break;
      }
      rs = nrs;
    }
    ierr = Row_Private(r, f, n, ln, &rs[nr]);
    if (!ierr) nr++;
  }
  free(line);
  free(f);
  if (!ierr && !header) ierr = FcInputError(file, NULL, "line %ld: empty log: no header line and no samples", ln ? ln : 1);
  if (ierr) {
    free(rs);
    PetscCheck(ierr != PETSC_ERR_MEM, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory reading %s", file);
    return ierr;
  }
  *raw       = rs;
  *nraw      = nr;
  *last_line = ln;
  PetscFunctionReturn(0);
}

/* Units: each format has its own, and a units argument that contradicts them is refused. The rows
 * were read with unit 0: millimetres are scaled now. */
static PetscErrorCode Units_Private(
  const char *file, const FcTrajectoryOptions *o, const Reader *r, const char *units, PetscBool has_units, Raw *raw, PetscInt nraw)
{
  const char    *u    = NULL;
  PetscErrorCode ierr = 0;

  switch (r->fmt) {
  case FMT_FCSIM:
    if (!has_units) ierr = FcInputError(file, NULL, "line 1: missing the metadata line '# units: m' (the fcsim format states its units)");
    else if (strcmp(units, "m")) ierr = FcInputError(file, NULL, "line 1: '# units: %s': the fcsim format is SI, units m", units);
    u = "m";
    break;
  case FMT_OPENHAPTICS:
    u = "mm"; /* HD_CURRENT_POSITION and HD_CURRENT_TRANSFORM are in millimetres */
    break;
  case FMT_ROS_POSE:
    u = "m"; /* geometry_msgs are SI (ROS REP 103) */
    break;
  case FMT_ROS_JOINTSTATE:
    if (!o->units)
      ierr = FcInputError(
        file, NULL, "line 1: missing units: a JointState end-effector pose has no stated unit (the Omni drivers write mm); give units m or mm");
    u = o->units;
    break;
  }
  if (!ierr && o->units && strcmp(o->units, u))
    ierr = FcInputError(file, NULL, "line 1: units %s given, but the %s format is in %s", o->units, format_names[r->fmt], u);
  if (ierr) return ierr;
  if (!strcmp(u, "mm"))
    for (PetscInt i = 0; i < nraw; i++)
      for (int c = 0; c < 3; c++) raw[i].p[c] /= 1000; /* one rounding: 12.5 mm is the double 0.0125 */
  return 0;
}

/* Time: strictly increasing; a repeated sample (same time, same pose and buttons) is dropped.
 * *m: the samples kept, at the start of raw. */
static PetscErrorCode Increasing_Private(const char *file, const Reader *r, Raw *raw, PetscInt nraw, PetscInt *m, FcTrajectory *tr)
{
  PetscErrorCode ierr = 0;

  *m = 0;
  for (PetscInt i = 0; i < nraw && !ierr; i++) {
    if (*m > 0) {
      Raw *a = &raw[*m - 1], *b = &raw[i];
      if (b->t < a->t)
        ierr = FcInputError(file, NULL, "line %ld: time %.10g s goes back (line %ld has %.10g s): the time column must increase", b->line,
          (double)(b->t + r->t0), a->line, (double)(a->t + r->t0));
      else if (b->t == a->t) {
        PetscBool same = (PetscBool)(b->buttons == a->buttons);
        for (int c = 0; c < 3; c++) same = (PetscBool)(same && b->p[c] == a->p[c]);
        for (int c = 0; c < 4; c++) same = (PetscBool)(same && b->q[c] == a->q[c]);
        if (!same)
          ierr = FcInputError(file, NULL, "line %ld: time %.10g s repeated from line %ld with a different pose: the time column must increase", b->line,
            (double)(b->t + r->t0), a->line);
        tr->nduplicates++;
        continue;
      }
    }
    raw[(*m)++] = raw[i];
  }
  return ierr;
}

/* Window, on the time from the first sample; then the required length (the case's t_end). */
static PetscErrorCode Window_Private(const char *file, const FcTrajectoryOptions *o, Raw *raw, PetscInt *m)
{
  PetscInt j = 0;

  for (PetscInt i = 0; i < *m; i++) {
    if (o->window && (raw[i].t < o->t_begin || raw[i].t > o->t_end)) continue;
    raw[j++] = raw[i];
  }
  if (j < 2)
    return o->window ? FcInputError(file, NULL, "line %ld: %d sample(s) in the time window [%g, %g] s (the log spans [0, %.17g] s): at least 2 are needed",
                         raw[*m - 1].line, (int)j, (double)o->t_begin, (double)o->t_end, (double)raw[*m - 1].t)
                     : FcInputError(file, NULL, "line %ld: one sample: a trajectory needs at least 2", raw[*m - 1].line);
  *m = j;
  if (o->t_required > 0 && raw[j - 1].t - raw[0].t < o->t_required)
    return FcInputError(file, NULL,
      "line %ld: the log ends %.17g s after its first %ssample, before the required end %g s (the case's t_end): the motion after it is unknown",
      raw[j - 1].line, (double)(raw[j - 1].t - raw[0].t), o->window ? "kept " : "", (double)o->t_required);
  return 0;
}

/* Convert the m samples kept: transform, shift, quaternion signs continuous. */
static PetscErrorCode Convert_Private(const Reader *r, const FcTrajectoryTransform *T, const Raw *raw, PetscInt m, FcTrajectory *tr)
{
  PetscFunctionBegin;
  tr->t_offset = raw[0].t;
  tr->n        = m;
  PetscCall(PetscMalloc2(m, &tr->t, 3 * m, &tr->p));
  if (r->quat[0] >= 0 || r->T >= 0) PetscCall(PetscMalloc1(4 * m, &tr->q));
  if (r->buttons >= 0) PetscCall(PetscMalloc1(m, &tr->buttons));
  for (PetscInt i = 0; i < m; i++) {
    PetscReal x[3];
    tr->t[i] = raw[i].t - tr->t_offset;
    QuatRotate_Private(T->q, raw[i].p, x);
    for (int c = 0; c < 3; c++) tr->p[3 * i + c] = T->scale * x[c] + T->translation[c];
    if (tr->q) {
      PetscReal *q = tr->q + 4 * i, d = 0;
      FcQuaternionMult(T->q, raw[i].q, q);
      if (i > 0) {
        for (int c = 0; c < 4; c++) d += q[c] * q[c - 4];
        if (d < 0)
          for (int c = 0; c < 4; c++) q[c] = -q[c];
      }
    }
    if (tr->buttons) tr->buttons[i] = raw[i].buttons;
  }
  PetscFunctionReturn(0);
}

/* Dropouts: steps longer than k times the median step. */
static PetscErrorCode Dropouts_Private(FcTrajectory *tr, PetscReal k)
{
  const PetscInt m = tr->n;
  PetscReal     *dt;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m - 1, &dt));
  for (PetscInt i = 0; i + 1 < m; i++) dt[i] = tr->t[i + 1] - tr->t[i];
  qsort(dt, (size_t)(m - 1), sizeof *dt, CompareReal_Private);
  tr->median_dt = (m - 1) % 2 ? dt[(m - 1) / 2] : 0.5 * (dt[(m - 1) / 2 - 1] + dt[(m - 1) / 2]);
  tr->max_dt    = dt[m - 2];
  PetscCall(PetscFree(dt));
  for (PetscInt i = 0; i + 1 < m; i++)
    if (tr->t[i + 1] - tr->t[i] > k * tr->median_dt) tr->ndropouts++;
  PetscFunctionReturn(0);
}

/* The log's format (its name), checked units argument, and the file opened (regular files only:
 * a FIFO or a device would block the read or never end). */
static PetscErrorCode Open_Private(const char *file, const FcTrajectoryOptions *o, Reader *r, FcTrajectory *tr, FILE **fp)
{
  const char *kind;
  int         i, fd;

  PetscFunctionBegin;
  for (i = 0; i < 4; i++)
    if (o->format && !strcmp(o->format, format_names[i])) break;
  FcCheckInput(i < 4, file, NULL, "unknown trajectory format '%s' (expected fcsim, openhaptics, ros_pose, ros_jointstate)", o->format ? o->format : "(none)");
  r->fmt = (Format)i;
  PetscCall(PetscStrncpy(tr->format, format_names[i], sizeof tr->format));
  FcCheckInput(!o->units || !strcmp(o->units, "m") || !strcmp(o->units, "mm"), file, NULL, "unknown units '%s' (expected m or mm)", o->units);
  fd = FcInputFileOpenFd(file, NULL, &kind);
  FcCheckInput(fd != -2, file, NULL, "cannot open the trajectory log: it is %s, not a regular file (fcsim reads only regular files)", kind);
  FcCheckInput(fd >= 0, file, NULL, "cannot open the trajectory log (%s)", strerror(errno));
  if (!(*fp = fdopen(fd, "r"))) {
    int err = errno;
    close(fd);
    return FcInputError(file, NULL, "cannot open the trajectory log (%s)", strerror(err));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcTrajectoryLoad(const char *file, const FcTrajectoryOptions *o, FcTrajectory *tr)
{
  Reader                r;
  FILE                 *fp;
  Raw                  *raw  = NULL;
  PetscInt              nraw = 0, m = 0;
  char                  units[64] = "";
  PetscBool             has_units = PETSC_FALSE;
  long                  last_line = 0;
  FcTrajectoryTransform T;
  PetscErrorCode        ierr = 0;
  const PetscReal       k    = o->dropout_factor > 0 ? o->dropout_factor : 5;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(tr, sizeof *tr));
  PetscCall(PetscMemzero(&r, sizeof r));
  PetscCall(PetscStrncpy(tr->file, file, sizeof tr->file));
  r.file = file;
  PetscCall(Open_Private(file, o, &r, tr, &fp));
  ierr = ReadRaw_Private(file, fp, &r, tr, &raw, &nraw, units, sizeof units, &has_units, &last_line);
  fclose(fp);
  PetscCall(PetscFree2(r.name_col, r.pos_col));
  if (ierr) return ierr;
  ierr = Units_Private(file, o, &r, units, has_units, raw, nraw);
  if (!ierr && nraw == 0) ierr = FcInputError(file, NULL, "line %ld: empty log: a header and no samples", last_line);
  if (!ierr) ierr = Increasing_Private(file, &r, raw, nraw, &m, tr);
  if (!ierr) tr->nrows = nraw;
  if (!ierr) ierr = Window_Private(file, o, raw, &m);
  if (ierr) {
    free(raw);
    return ierr;
  }
  if (o->transform) T = *o->transform;
  else FcTrajectoryTransformIdentity(&T);
  {
    PetscReal nq = PetscSqrtReal(T.q[0] * T.q[0] + T.q[1] * T.q[1] + T.q[2] * T.q[2] + T.q[3] * T.q[3]);
    if (!(PetscAbsReal(nq - 1) <= 1e-9 && T.scale > 0 && PetscIsNormalReal(T.scale))) free(raw);
    PetscCheck(
      PetscAbsReal(nq - 1) <= 1e-9, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "trajectory transform: the rotation quaternion has norm %g, not 1", (double)nq);
    PetscCheck(T.scale > 0 && PetscIsNormalReal(T.scale), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "trajectory transform: the scale must be a positive number, not %g", (double)T.scale);
  }
  ierr = Convert_Private(&r, &T, raw, m, tr);
  free(raw);
  PetscCall(ierr);
  PetscCall(Dropouts_Private(tr, k));
  if (r.fmt != FMT_FCSIM) PetscCall(PetscSNPrintf(tr->device, sizeof tr->device, "%s", format_names[r.fmt]));
  PetscFunctionReturn(0);
}

PetscErrorCode FcTrajectoryWrite(const FcTrajectory *tr, FILE *f)
{
  PetscFunctionBegin;
  fprintf(f, "# fcsim trajectory\n# device: %s\n# units: m\n# frame: %s\n", tr->device[0] ? tr->device : "unknown", tr->frame[0] ? tr->frame : "world");
  fprintf(f, "t,px,py,pz%s%s\n", tr->q ? ",qw,qx,qy,qz" : "", tr->buttons ? ",buttons" : "");
  for (PetscInt i = 0; i < tr->n; i++) {
    fprintf(f, "%.17g,%.17g,%.17g,%.17g", (double)tr->t[i], (double)tr->p[3 * i], (double)tr->p[3 * i + 1], (double)tr->p[3 * i + 2]);
    if (tr->q) fprintf(f, ",%.17g,%.17g,%.17g,%.17g", (double)tr->q[4 * i], (double)tr->q[4 * i + 1], (double)tr->q[4 * i + 2], (double)tr->q[4 * i + 3]);
    if (tr->buttons) fprintf(f, ",%d", (int)tr->buttons[i]);
    fputc('\n', f);
  }
  PetscCheck(!ferror(f), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "writing the trajectory failed");
  PetscFunctionReturn(0);
}

PetscErrorCode FcTrajectoryCheck(const char *file, const FcTrajectoryOptions *o, PetscReal rate)
{
  FcTrajectory tr, rs;

  PetscFunctionBegin;
  PetscCall(FcTrajectoryLoad(file, o, &tr));
  printf("# %s: format %s, %d rows, %d samples over %.9g s (from %.9g s of the log), median step %.6g s, longest %.6g s\n", file, tr.format, (int)tr.nrows,
    (int)tr.n, (double)tr.t[tr.n - 1], (double)tr.t_offset, (double)tr.median_dt, (double)tr.max_dt);
  printf("# orientation %s, buttons %s, %d repeated samples dropped, %d columns ignored\n", tr.q ? "yes" : "no", tr.buttons ? "yes" : "no", (int)tr.nduplicates,
    (int)tr.nignored);
  if (tr.ndropouts)
    printf("# warning: %d dropouts (steps longer than %g x the median step, the longest %.6g s) bridged linearly\n", (int)tr.ndropouts,
      (double)(o->dropout_factor > 0 ? o->dropout_factor : 5), (double)tr.max_dt);
  if (rate > 0) {
    /* the resampled log is held whole (t, p, q, buttons: 9 numbers a sample): refuse a rate the
     * memory, or PetscInt, cannot hold, before allocating */
    const double tend = (double)tr.t[tr.n - 1], n = tend * (double)rate + 1, mem = FcPhysicalMemory();
    if (!(n <= (double)PETSC_MAX_INT) || (mem > 0 && 72 * n > mem)) {
      PetscCall(FcTrajectoryDestroy(&tr));
      return FcInputError("command line", "--rate", "%g Hz over the log's %.9g s is %.3g samples (%.3g GB), more than %s: lower the rate", (double)rate, tend,
        n, 72 * n / 1e9, n > (double)PETSC_MAX_INT ? "fcsim's index range" : "this machine's memory");
    }
    PetscCall(FcTrajectoryResample(&tr, rate, &rs));
    PetscCall(FcTrajectoryWrite(&rs, stdout));
    PetscCall(FcTrajectoryDestroy(&rs));
  }
  fflush(stdout);
  PetscCall(FcTrajectoryDestroy(&tr));
  PetscFunctionReturn(0);
}
