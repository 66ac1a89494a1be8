/* fcsim — `fcsim study compare CASE --solvers nsgs,lemke,... [--set ...] [-o DIR]`: run one
 * case once per contact solver (the same mesh, steps and tolerances) and tabulate, per solver,
 * the contact-solver iterations, common error and time per step, whether every step
 * converged, and how far each probe moves from the first solver's (max |difference| over the
 * run, relative to the probe's max |value|). Writes DIR/<solver>/ runs, DIR/compare.csv and
 * DIR/compare.md; DIR is written under a temporary name and renamed at the end like a run. */
#define _XOPEN_SOURCE 700
#include "compare.h"
#include "../run/run.h"
#include "../core/fsutil.h"
#include "../contact/solver.h"
#include "../io/results.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static PetscErrorCode Compare_Private(const FcStudyCompareOptions *, PetscInt, char[][FC_NAME_LEN], const char *, PetscBool *);

PetscErrorCode FcStudyCompare(const FcStudyCompareOptions *o, PetscBool *ok)
{
  char           list[4096], *tok, *save = NULL, solvers[32][FC_NAME_LEN], dir[PETSC_MAX_PATH_LEN], kept[PETSC_MAX_PATH_LEN + 96];
  PetscInt       ns = 0;
  FcOutDir       od;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(PetscStrncpy(list, o->solvers ? o->solvers : "nsgs", sizeof list));
  {
    /* strtok skips empty entries: ",," would have been a study of no solver, exit 0 */
    const size_t n = strlen(list);
    FcCheckInput(n && list[0] != ',' && list[n - 1] != ',' && !strstr(list, ",,"), "command line", "--solvers", "'%s': an empty solver name; give a comma-separated list of solver names, e.g. nsgs,lemke", list);
  }
  for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    FcCheckInput(ns < 32 && strlen(tok) < FC_NAME_LEN && tok[0], "command line", "--solvers", "'%s': a comma-separated list of at most 32 solver names", o->solvers);
    for (PetscInt k = 0; k < ns; k++) FcCheckInput(strcmp(solvers[k], tok), "command line", "--solvers", "'%s' is listed twice", tok);
    PetscCall(PetscStrncpy(solvers[ns++], tok, FC_NAME_LEN));
  }
  PetscCall(FcContactSolverRegisterAll());
  for (PetscInt k = 0; k < ns; k++) PetscCall(FcContactSolverCheckType(solvers[k])); /* before anything is written */
  {
    FcCase c;
    PetscInt ncontacts;
    PetscCall(FcCaseLoad(o->casefile, o->nsets, o->sets, &c));
    ncontacts = c.ncontacts;
    if (!ncontacts) PetscCall(FcCaseDestroy(&c));
    FcCheckInput(ncontacts > 0, o->casefile, "contacts", "study compare needs a case with contact pairs");
    if (o->outdir) PetscCall(PetscStrncpy(dir, o->outdir, sizeof dir));
    else PetscCall(PetscSNPrintf(dir, sizeof dir, "%s/%s/compare", c.output_dir, c.name));
    ierr = FcOutDirCheck(dir, o->outdir ? "command line" : o->casefile, o->outdir ? "-o" : "output.dir", "study compare", o->overwrite, &od);
    PetscCall(FcCaseDestroy(&c));
    PetscCall(ierr);
  }
  PetscCall(FcOutDirCreate(&od));
  ierr = Compare_Private(o, ns, solvers, od.tmp, ok);
  if (ierr) {
    FcOutDirAbandon(&od);
    return ierr;
  }
  if (*ok) {
    PetscCall(FcOutDirCommit(&od));
    if (FcVerbosity > 0) fprintf(stderr, "fcsim: wrote %s/compare.csv and compare.md\n", od.final);
  } else {
    /* a solver that failed is part of the comparison, but a failed study replaces nothing */
    PetscCall(FcOutDirKeepFailed(&od, kept, sizeof kept));
    fprintf(stderr, "fcsim: study compare: a run did not converge (see compare.md); the study is in %s (%s was not touched)\n", kept, od.final);
  }
  PetscFunctionReturn(0);
}

/* One run of the study: the case with contact_solver.type = `solver`, into folder `run`.
 * The case and the --set list are freed whatever FcRun returns. */
static PetscErrorCode OneRun_Private(const FcStudyCompareOptions *o, const char *solver, const char *run, PetscBool *conv)
{
  const char   **sets;
  char           set[FC_NAME_LEN + 64];
  FcCase         c;
  FcRunOptions   ro;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(o->nsets + 1, &sets));
  for (PetscInt i = 0; i < o->nsets; i++) sets[i] = o->sets[i];
  PetscCall(PetscSNPrintf(set, sizeof set, "contact_solver.type=\"%s\"", solver));
  sets[o->nsets] = set;
  ierr = FcCaseLoad(o->casefile, o->nsets + 1, sets, &c);
  if (ierr) {
    PetscCall(PetscFree(sets));
    PetscCall(ierr);
  }
  ierr = FcCaseInsertOptions(&c); /* the case's "petsc" object, as fcsim run does */
  if (!ierr) {
    ro.outdir       = run;
    ro.command_line = o->command_line;
    ro.overwrite    = PETSC_FALSE;
    ro.nested       = PETSC_TRUE; /* a failed run stays in the study, under its solver's name */
    ro.force        = o->force;
    if (FcVerbosity > 0) fprintf(stderr, "fcsim: study compare: running %s with contact solver %s\n", o->casefile, solver);
    ierr = FcRun(&c, &ro, conv);
  }
  PetscCall(FcCaseDestroy(&c));
  PetscCall(PetscFree(sets));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The runs (inside the study's temporary folder `tmp`) and the tables. */
static PetscErrorCode Compare_Private(const FcStudyCompareOptions *o, PetscInt ns, char solvers[][FC_NAME_LEN], const char *tmp, PetscBool *ok)
{
  char      path[PETSC_MAX_PATH_LEN + 128];
  FcResultsTable stats[32], probes[32];
  PetscBool conv[32];
  FILE     *csv, *md;
  int       bad;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < ns; k++) {
    PetscErrorCode ierr;
    char           run[PETSC_MAX_PATH_LEN + 192];
    PetscCall(PetscSNPrintf(run, sizeof run, "%s/%s", tmp, solvers[k]));
    ierr = OneRun_Private(o, solvers[k], run, &conv[k]);
    if (!ierr) {
      PetscBool found;
      ierr = FcResultsReadTable(run, "stats", PETSC_TRUE, &stats[k], &found);
      if (!ierr) {
        ierr = FcResultsReadTable(run, "probes", PETSC_TRUE, &probes[k], &found);
        if (ierr) PetscCall(FcResultsTableDestroy(&stats[k]));
      }
    }
    if (ierr) { /* a run refused (a bad option of the case, say): free the tables read so far */
      for (PetscInt j = 0; j < k; j++) {
        PetscCall(FcResultsTableDestroy(&stats[j]));
        PetscCall(FcResultsTableDestroy(&probes[j]));
      }
      PetscCall(ierr);
    }
    if (!conv[k]) *ok = PETSC_FALSE;
  }
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/compare.csv", tmp));
  csv = fopen(path, "w");
  PetscCheck(csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  PetscCall(PetscSNPrintf(path, sizeof path, "%s/compare.md", tmp));
  md = fopen(path, "w");
  PetscCheck(md, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  fprintf(csv, "solver,steps,converged_steps,mean_contact_it,max_contact_it,mean_contact_error,max_contact_error,mean_contact_time,max_probe_difference\n");
  fprintf(md, "| solver | steps | converged steps | contact it/step (mean) | (max) | common error (mean) | (max) | contact time/step [s] | max probe difference vs %s |\n|---|---|---|---|---|---|---|---|---|\n", solvers[0]);
  for (PetscInt k = 0; k < ns; k++) {
    const FcResultsTable *t = &stats[k];
    PetscInt   cit = FcResultsTableColumn(t, "contact_it"), cer = FcResultsTableColumn(t, "contact_error"), cti = FcResultsTableColumn(t, "contact_time"), cco = FcResultsTableColumn(t, "converged");
    PetscReal  mit = 0, xit = 0, mer = 0, xer = 0, mti = 0, dmax = 0;
    PetscInt   nconv = 0;
    for (PetscInt r = 0; r < t->nrows; r++) {
      PetscReal it = t->v[r * t->ncols + cit], er = t->v[r * t->ncols + cer];
      mit += it;
      xit = PetscMax(xit, it);
      mer += er;
      xer = PetscMax(xer, er);
      mti += t->v[r * t->ncols + cti];
      nconv += t->v[r * t->ncols + cco] > 0.5;
    }
    if (t->nrows) {
      mit /= t->nrows;
      mer /= t->nrows;
      mti /= t->nrows;
    }
    /* probes against the first solver: max over columns of max_t |p_k − p_0| / scale, where
     * the scale of a vector probe's column (name_x, name_y, name_z) is the largest |value| of
     * its three columns (so a tangential component that is ~0 is not divided by ~0) */
    for (PetscInt c = 2; c < probes[k].ncols && c < probes[0].ncols; c++) {
      PetscReal num = 0, den = 0;
      size_t    len = strlen(probes[0].head[c]);
      PetscInt  c0 = c, c1 = c;
      if (len > 2 && probes[0].head[c][len - 2] == '_' && strchr("xyz", probes[0].head[c][len - 1])) {
        c0 = c - (probes[0].head[c][len - 1] - 'x');
        c1 = c0 + 2;
      }
      for (PetscInt r = 0; r < probes[k].nrows && r < probes[0].nrows; r++) {
        num = PetscMax(num, PetscAbsReal(probes[k].v[r * probes[k].ncols + c] - probes[0].v[r * probes[0].ncols + c]));
        for (PetscInt cc = c0; cc <= c1 && cc < probes[0].ncols; cc++) den = PetscMax(den, PetscAbsReal(probes[0].v[r * probes[0].ncols + cc]));
      }
      if (den > 0) dmax = PetscMax(dmax, num / den);
    }
    fprintf(csv, "%s,%d,%d,%.6e,%.0f,%.6e,%.6e,%.6e,%.6e\n", solvers[k], (int)t->nrows, (int)nconv, (double)mit, (double)xit, (double)mer, (double)xer, (double)mti, (double)dmax);
    fprintf(md, "| %s | %d | %d | %.1f | %.0f | %.2e | %.2e | %.2e | %.2e |\n", solvers[k], (int)t->nrows, (int)nconv, (double)mit, (double)xit, (double)mer, (double)xer, (double)mti, (double)dmax);
    printf("%-16s steps %d converged %d contact_it mean %.1f max %.0f error mean %.2e max %.2e time/step %.2e s probe diff %.2e\n", solvers[k], (int)t->nrows, (int)nconv, (double)mit, (double)xit, (double)mer, (double)xer, (double)mti, (double)dmax);
  }
  /* fclose flushes: a full disk shows up here */
  bad = ferror(csv) || ferror(md);
  bad = (fclose(csv) != 0) || bad;
  bad = (fclose(md) != 0) || bad;
  for (PetscInt k = 0; k < ns; k++) {
    PetscCall(FcResultsTableDestroy(&stats[k]));
    PetscCall(FcResultsTableDestroy(&probes[k]));
  }
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s/compare.csv and compare.md: %s", tmp, strerror(errno));
  PetscFunctionReturn(0);
}
