/* fcsim — run output: the run's set of writers (output.h, writer.h). It checks what it is given,
 * keeps what the writers share (the meshes, the output steps, the contact outputs) and hands each
 * call to the writers of the table below that take it, in the table's order. */
#include "writer.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Every writer a run may have, in the order they are called: one entry per writer type, the
 * FcWriterType FcWriter<name> its file defines. haptic.csv before run.h5:/haptic, run.h5 before
 * VTK, as fcsim always wrote them. */
#define FC_WRITERS(W) W(Haptic) W(H5) W(VTK) W(CSV) W(FCLIB)

#define FC_WRITER_DECLARE(name) extern const FcWriterType FcWriter##name;
#define FC_WRITER_ENTRY(name)   &FcWriter##name,
FC_WRITERS(FC_WRITER_DECLARE)
static const FcWriterType *const FcWriters[] = {FC_WRITERS(FC_WRITER_ENTRY)};
#define FC_NWRITERS ((PetscInt)(sizeof FcWriters / sizeof FcWriters[0]))

struct _p_FcOutput {
  FcOutputState       s;
  PetscInt            nw; /* the writers of this run, opened */
  const FcWriterType *type[FC_NWRITERS];
  void               *ctx[FC_NWRITERS];
  PetscBool           names_contacts; /* some writer writes a "contacts" object beside the bodies' */
  PetscInt            nprobe_cols, nstat_cols;
  PetscInt            concap, outcap;
  PetscBool           has_verdict, has_haptic, has_unused;
};

/* Call op of every writer that has it; stop at the first error. */
#define FcWritersCall(o, op, ...) \
  do { \
    for (PetscInt w_ = 0; w_ < (o)->nw; w_++) \
      if ((o)->type[w_]->op) PetscCall((o)->type[w_]->op((o)->ctx[w_], &(o)->s, __VA_ARGS__)); \
  } while (0)

/* ----------------------------------------------------------------------------- helpers */

PetscErrorCode FcOutputPathJoin(char *out, size_t len, const char *dir, const char *name)
{
  int n;

  PetscFunctionBegin;
  n = snprintf(out, len, "%s/%s", dir, name);
  PetscCheck(n >= 0 && (size_t)n < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Output path too long: %s/%s", dir, name);
  PetscFunctionReturn(0);
}

/* Names become HDF5 link names, file names and XML/JSON text: refuse what cannot be all of
 * these safely instead of mangling it silently. */
static PetscErrorCode CheckName(const char *what, const char *name)
{
  PetscFunctionBegin;
  PetscCheck(name && name[0], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: empty %s name", what);
  PetscCheck(strcmp(name, ".") && strcmp(name, ".."), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: invalid %s name \"%s\"", what, name);
  PetscCheck(strlen(name) < FC_NAME_LEN, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: %s name longer than %d characters", what, FC_NAME_LEN - 1);
  for (const char *c = name; *c; c++)
    PetscCheck(*c != '/' && (unsigned char)*c >= 0x20 && *c != 0x7f, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
      "Output: %s name \"%s\" contains '/' or a control character", what, name);
  PetscFunctionReturn(0);
}

/* Grow the per-row arrays of a table or of the output-step list to hold `need` rows. */
PetscErrorCode FcOutputGrowReal(PetscInt oldcap, PetscInt newcap, PetscInt width, PetscReal **a)
{
  PetscReal *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)newcap * (size_t)width, &b));
  if (*a) PetscCall(PetscArraycpy(b, *a, (size_t)oldcap * (size_t)width));
  PetscCall(PetscFree(*a));
  *a = b;
  PetscFunctionReturn(0);
}

static PetscErrorCode GrowInt(PetscInt oldcap, PetscInt newcap, PetscInt **a)
{
  PetscInt *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)newcap, &b));
  if (*a) PetscCall(PetscArraycpy(b, *a, (size_t)oldcap));
  PetscCall(PetscFree(*a));
  *a = b;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputGrowInt64(PetscInt oldcap, PetscInt newcap, PetscInt64 **a)
{
  PetscInt64 *b;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1((size_t)newcap, &b));
  if (*a) PetscCall(PetscArraycpy(b, *a, (size_t)oldcap));
  PetscCall(PetscFree(*a));
  *a = b;
  PetscFunctionReturn(0);
}

/* ---------------------------------------------------------------------------- public API */

/* Frees everything, then returns an error if closing a file failed (its last data may be
 * missing): freeing first keeps failures leak-free. One error only: after the first, the other
 * writers are freed without reporting. */
static PetscErrorCode FcOutputDestroy_Private(FcOutput *out, PetscBool report)
{
  FcOutput       o    = *out;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  if (!o) PetscFunctionReturn(0);
  *out = NULL;
  for (PetscInt w = 0; w < o->nw; w++) {
    PetscErrorCode ierr_w = o->type[w]->destroy ? o->type[w]->destroy(&o->ctx[w], (PetscBool)(report && !ierr)) : 0;
    if (!ierr) ierr = ierr_w;
  }
  for (PetscInt b = 0; b < o->s.nbodies && o->s.meshes; b++) {
    PetscCall(PetscFree(o->s.meshes[b].name));
    PetscCall(PetscFree(o->s.meshes[b].X));
    PetscCall(PetscFree(o->s.meshes[b].conn));
  }
  PetscCall(PetscFree(o->s.meshes));
  PetscCall(PetscFree(o->s.outstep));
  PetscCall(PetscFree(o->s.outtime));
  PetscCall(PetscFree(o->s.conk));
  PetscCall(PetscFree(o->s.conm));
  PetscCall(PetscFree(o));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

static int StrPtrCmp(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static PetscErrorCode CheckSpec(const FcOutputSpec *spec)
{
  PetscFunctionBegin;
  PetscCheck(spec->dir && spec->dir[0], PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no directory");
  PetscCheck(spec->nbodies >= 0 && (spec->meshes || !spec->nbodies), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no meshes");
  for (PetscInt b = 0; b < spec->nbodies; b++) {
    const FcOutputMesh *m = &spec->meshes[b];

    PetscCall(CheckName("body", m->name));
    for (PetscInt c = 0; c < b; c++)
      PetscCheck(strcmp(m->name, spec->meshes[c].name), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: duplicate body name \"%s\"", m->name);
    PetscCheck(m->npe == 4 || m->npe == 10, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "Output: body %s: unsupported nodes per element %" PetscInt_FMT " (4 or 10)", m->name, m->npe);
    /* a rank other than 0 of several gives the counts only (X = conn = NULL): it writes no mesh */
    PetscCheck(m->nnodes > 0 && m->nelems > 0 && ((m->X && m->conn) || (spec->rank && !m->X && !m->conn)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
      "Output: body %s: empty mesh", m->name);
    /* A bad index would produce files that look fine but crash or mislead viewers. */
    for (PetscInt i = 0; m->conn && i < m->nelems * m->npe; i++)
      PetscCheck(m->conn[i] >= 0 && m->conn[i] < m->nnodes, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
        "Output: body %s: node index %" PetscInt_FMT " out of range", m->name, m->conn[i]);
  }
  PetscCheck(spec->nprobe_cols >= 0 && (spec->probe_cols || !spec->nprobe_cols), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no probe columns");
  PetscCheck(spec->nstat_cols >= 0 && (spec->stat_cols || !spec->nstat_cols), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: no stat columns");
  for (int tab = 0; tab < 2; tab++) {
    PetscInt           n    = tab ? spec->nstat_cols : spec->nprobe_cols;
    const char *const *cols = tab ? spec->stat_cols : spec->probe_cols;
    const char        *what = tab ? "stat column" : "probe column";

    const char **sorted;

    for (PetscInt c = 0; c < n; c++) {
      PetscCall(CheckName(what, cols[c]));
      PetscCheck(strcmp(cols[c], "step") && strcmp(cols[c], "time") && strcmp(cols[c], "columns"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
        "Output: %s name \"%s\" is reserved", what, cols[c]);
    }
    /* duplicates by sorting, O(n log n): a case may have a million probe columns */
    PetscCall(PetscMalloc1(n + 1, &sorted));
    for (PetscInt c = 0; c < n; c++) sorted[c] = cols[c];
    qsort(sorted, (size_t)n, sizeof *sorted, StrPtrCmp);
    for (PetscInt c = 1; c < n; c++)
      if (!strcmp(sorted[c], sorted[c - 1])) {
        const char *dup = sorted[c];
        PetscCall(PetscFree(sorted));
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Output: duplicate %s \"%s\"", what, dup);
      }
    PetscCall(PetscFree(sorted));
  }
  PetscFunctionReturn(0);
}

/* Own copies of the meshes: the caller may free its mesh before close, and VTK needs it every step. */
static PetscErrorCode CopyMeshes_Private(const FcOutputSpec *spec, FcOutputState *s)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc1((size_t)PetscMax(spec->nbodies, 1), &s->meshes));
  s->nbodies = spec->nbodies;
  for (PetscInt b = 0; b < spec->nbodies; b++) {
    const FcOutputMesh *m = &spec->meshes[b];
    FcOutputMesh       *c = &s->meshes[b];
    char               *name;
    PetscReal          *X;
    PetscInt           *conn;

    PetscCall(PetscStrallocpy(m->name, &name));
    c->name   = name;
    c->nnodes = m->nnodes;
    c->nelems = m->nelems;
    c->npe    = m->npe;
    if (!m->X) continue; /* counts only (CheckSpec): a rank other than 0 of several */
    PetscCall(PetscMalloc1((size_t)m->nnodes * 3, &X));
    c->X = X;
    PetscCall(PetscArraycpy(X, m->X, (size_t)m->nnodes * 3));
    PetscCall(PetscMalloc1((size_t)m->nelems * (size_t)m->npe, &conn));
    c->conn = conn;
    PetscCall(PetscArraycpy(conn, m->conn, (size_t)m->nelems * (size_t)m->npe));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FcOutputOpen_Private(const FcOutputSpec *spec, FcOutput o)
{
  struct stat st;

  PetscFunctionBegin;
  PetscCheck(strlen(spec->dir) < sizeof o->s.dir, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Output directory name too long: %s", spec->dir);
  PetscCall(PetscStrncpy(o->s.dir, spec->dir, sizeof o->s.dir));
  PetscCheck(stat(o->s.dir, &st) == 0 && S_ISDIR(st.st_mode), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Output directory %s does not exist or is not a directory",
    o->s.dir);
  o->s.rank = spec->rank;
  o->s.size = (PetscMPIInt)PetscMax(spec->nranks, 1);
  PetscCall(CopyMeshes_Private(spec, &o->s));
  for (PetscInt w = 0; w < FC_NWRITERS; w++) {
    const FcWriterType *t = FcWriters[w];

    if (!t->want(spec) || (spec->rank && !t->collective)) continue;
    o->ctx[o->nw] = NULL;
    if (t->open) PetscCall(t->open(spec, &o->s, &o->ctx[o->nw]));
    o->type[o->nw++]  = t;
    o->names_contacts = (PetscBool)(o->names_contacts || t->names_contacts);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputOpen(const FcOutputSpec *spec, FcOutput *out)
{
  FcOutput       o;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(spec && out, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputOpen: NULL argument");
  *out = NULL;
  PetscCall(CheckSpec(spec));
  PetscCall(PetscNew(&o));
  o->nprobe_cols = spec->nprobe_cols;
  o->nstat_cols  = spec->nstat_cols;
  ierr           = FcOutputOpen_Private(spec, o);
  if (ierr) {
    /* The error was reported where it happened; release what was opened, then propagate. */
    PetscCall(FcOutputDestroy_Private(&o, PETSC_FALSE));
    PetscCall(ierr);
  }
  *out = o;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputGetNumOutputSteps(FcOutput out, PetscInt *nout)
{
  PetscFunctionBegin;
  PetscCheck(out && nout, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputGetNumOutputSteps: NULL argument");
  *nout = out->s.nout;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteFields(FcOutput o, PetscInt step, PetscReal time, const FcOutputFields *fields)
{
  FcOutputState *s;

  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteFields: NULL output");
  s = &o->s;
  PetscCheck(fields || !s->nbodies, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteFields: NULL fields");
  /* The time goes into JSON (.vtk.series) and XML, where NaN/Inf are not numbers. */
  PetscCheck(!PetscIsInfOrNanReal(time), PETSC_COMM_SELF, PETSC_ERR_FP, "FcOutputWriteFields: time is not finite");
  for (PetscInt b = 0; b < s->nbodies; b++) /* several ranks: a rank's block of rows may be empty (a NULL array), each writer checks its own */
    PetscCheck((fields[b].vm && fields[b].u && fields[b].v) || s->size > 1, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
      "FcOutputWriteFields: body %s: NULL field array", s->meshes[b].name);
  if (s->nout == o->outcap) {
    PetscInt cap = PetscMax(16, 2 * o->outcap);
    PetscCall(FcOutputGrowInt64(o->outcap, cap, &s->outstep));
    PetscCall(FcOutputGrowReal(o->outcap, cap, 1, &s->outtime));
    o->outcap = cap;
  }
  /* output step k = nout - 1 for the writers */
  s->outstep[s->nout] = step;
  s->outtime[s->nout] = time;
  s->nout++;
  FcWritersCall(o, fields, step, time, fields);
  PetscFunctionReturn(0);
}

static PetscErrorCode CheckContacts(FcOutput o, PetscInt step, PetscReal time, const FcOutputContacts *c)
{
  PetscInt k;

  PetscFunctionBegin;
  PetscCheck(o && c, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteContacts: NULL argument");
  PetscCheck(c->m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FcOutputWriteContacts: negative number of contacts %" PetscInt_FMT, c->m);
  PetscCheck(!c->m || (c->x && c->normal && c->t1 && c->t2 && c->r && c->gap && c->status && c->pair), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL,
    "FcOutputWriteContacts: NULL contact array");
  /* Contacts belong to the output step just written: same k as the fields, hence same time. */
  PetscCheck(o->s.nout > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputWriteContacts: no output step yet (call FcOutputWriteFields first)");
  k = o->s.nout - 1;
  PetscCheck(step == o->s.outstep[k] && time == o->s.outtime[k], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
    "FcOutputWriteContacts: step %" PetscInt_FMT " time %g is not the last output step (step %" PetscInt64_FMT " time %g)", step, (double)time, o->s.outstep[k],
    (double)o->s.outtime[k]);
  PetscCheck(!o->s.ncon || o->s.conk[o->s.ncon - 1] < k, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE,
    "FcOutputWriteContacts: contacts of output step %" PetscInt_FMT " already written", k);
  /* vtk/contacts_<k>.vtk, contacts.vtk.series and the XDMF grid "contacts" would collide. */
  if (o->names_contacts)
    for (PetscInt b = 0; b < o->s.nbodies; b++)
      PetscCheck(strcmp(o->s.meshes[b].name, "contacts"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
        "FcOutputWriteContacts: a body is named \"contacts\", the name of the contact output");
  for (PetscInt i = 0; i < c->m; i++) {
    PetscCheck(c->status[i] >= FC_CONTACT_SEPARATED && c->status[i] <= FC_CONTACT_SLIP, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "FcOutputWriteContacts: contact %" PetscInt_FMT ": status %" PetscInt_FMT " (0 separated, 1 stick, 2 slip)", i, c->status[i]);
    PetscCheck(c->pair[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
      "FcOutputWriteContacts: contact %" PetscInt_FMT ": negative pair index %" PetscInt_FMT, i, c->pair[i]);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteContacts(FcOutput o, PetscInt step, PetscReal time, const FcOutputContacts *c)
{
  FcOutputState *s;

  PetscFunctionBegin;
  PetscCall(CheckContacts(o, step, time, c));
  s = &o->s;
  if (s->ncon == o->concap) {
    PetscInt cap = PetscMax(16, 2 * o->concap);
    PetscCall(GrowInt(o->concap, cap, &s->conk));
    PetscCall(GrowInt(o->concap, cap, &s->conm));
    o->concap = cap;
  }
  /* contact output ncon - 1, of output step k = nout - 1, for the writers */
  s->conk[s->ncon] = s->nout - 1;
  s->conm[s->ncon] = c->m;
  s->ncon++;
  FcWritersCall(o, contacts, step, time, c);
  PetscFunctionReturn(0);
}

static PetscErrorCode WriteRow_Private(FcOutput o, FcOutputTable table, PetscInt step, PetscReal time, const PetscReal *values)
{
  const char *name = table == FC_OUTPUT_PROBES ? "probes" : "stats";

  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWrite%s: NULL output", table == FC_OUTPUT_PROBES ? "Probes" : "Stats");
  PetscCheck(values || !(table == FC_OUTPUT_PROBES ? o->nprobe_cols : o->nstat_cols), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "Output: NULL %s values", name);
  FcWritersCall(o, row, table, step, time, values);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteProbes(FcOutput o, PetscInt step, PetscReal time, const PetscReal *values)
{
  PetscFunctionBegin;
  PetscCall(WriteRow_Private(o, FC_OUTPUT_PROBES, step, time, values));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteStats(FcOutput o, PetscInt step, PetscReal time, const PetscReal *values)
{
  PetscFunctionBegin;
  PetscCall(WriteRow_Private(o, FC_OUTPUT_STATS, step, time, values));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteProblem(FcOutput o, PetscInt step, FcContactProblem p, const PetscReal *r)
{
  PetscFunctionBegin;
  PetscCheck(o && p, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteProblem: NULL argument");
  FcWritersCall(o, problem, step, p, r);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputWriteHaptic(FcOutput o, const FcHapticOutput *h)
{
  PetscFunctionBegin;
  PetscCheck(o && h, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputWriteHaptic: NULL argument");
  PetscCheck(!o->has_haptic, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputWriteHaptic: the haptic output is already written");
  o->has_haptic = PETSC_TRUE;
  FcWritersCall(o, haptic, h);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputSetVerdict(FcOutput o, const FcOutputVerdict *v)
{
  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputSetVerdict: NULL output");
  PetscCheck(!o->has_verdict, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputSetVerdict: the verdict is already set");
  PetscCheck(v->verdict && strlen(v->verdict) < 32, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FcOutputSetVerdict: missing or too long verdict name");
  o->has_verdict = PETSC_TRUE;
  FcWritersCall(o, verdict, v);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputSetUnusedOptions(FcOutput o, PetscInt n, const char *const *names, const char *const *sources)
{
  PetscFunctionBegin;
  PetscCheck(o, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "FcOutputSetUnusedOptions: NULL output");
  PetscCheck(!o->has_unused, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FcOutputSetUnusedOptions: the unused options are already set");
  PetscCheck(n >= 0 && (!n || (names && sources)), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "FcOutputSetUnusedOptions: missing names or sources");
  o->has_unused = PETSC_TRUE;
  FcWritersCall(o, unused_options, n, names, sources);
  PetscFunctionReturn(0);
}

static PetscErrorCode FcOutputFinish_Private(FcOutput o)
{
  PetscFunctionBegin;
  for (PetscInt w = 0; w < o->nw; w++)
    if (o->type[w]->finish) PetscCall(o->type[w]->finish(o->ctx[w], &o->s));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputClose(FcOutput *out)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!out || !*out) PetscFunctionReturn(0);
  ierr = FcOutputFinish_Private(*out);
  /* Freed whatever happened above, then the error (already reported) is propagated. */
  PetscCall(FcOutputDestroy_Private(out, (PetscBool)!ierr));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutputAbandon(FcOutput *out)
{
  PetscFunctionBegin;
  if (!out || !*out) PetscFunctionReturn(0);
  PetscCall(FcOutputDestroy_Private(out, PETSC_FALSE));
  PetscFunctionReturn(0);
}
