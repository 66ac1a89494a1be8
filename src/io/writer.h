/* fcsim — the writers of a run's output (private to src/io: output.c and one file per writer).
 *
 * FcOutput (output.h) is the run's set of writers. It checks what it is given, keeps what every
 * writer shares (the directory, the meshes, the list of output steps and of contact outputs) and
 * hands each call to the writers that take it, in the order of the table in output.c. A writer
 * is a type with an ops table: every op is optional but `want`, which says from the spec whether
 * the run has this writer at all. Adding a writer is a file with its FcWriterType and its name in
 * the list FC_WRITERS of output.c. */
#ifndef FC_IO_WRITER_H
#define FC_IO_WRITER_H

#include "output.h"

/* What the writers share, kept by output.c. Read-only for the writers. */
typedef struct {
  char          dir[PETSC_MAX_PATH_LEN];
  PetscInt      nbodies;
  FcOutputMesh *meshes; /* copies owned by the output: name, X and conn allocated there */
  PetscInt      nout;   /* output steps written so far (fields) */
  PetscInt64   *outstep;
  PetscReal    *outtime;
  PetscInt      ncon;       /* contact outputs so far, one per FcOutputWriteContacts */
  PetscInt     *conk;       /* output step index k of each */
  PetscInt     *conm;       /* number of contacts of each */
  PetscMPIInt   rank, size; /* this process on PETSC_COMM_WORLD, and the run's ranks (spec) */
} FcOutputState;

typedef enum { FC_OUTPUT_PROBES, FC_OUTPUT_STATS } FcOutputTable;

typedef struct {
  const char *name;
  PetscBool   names_contacts; /* writes a "contacts" object beside the bodies' (a body may not be so named) */
  /* On several ranks: opened on every rank, and its open, fields, contacts, finish and destroy
   * are collective (run.h5). The other writers are rank 0's alone. */
  PetscBool collective;
  PetscBool (*want)(const FcOutputSpec *spec);
  PetscErrorCode (*open)(const FcOutputSpec *spec, const FcOutputState *s, void **ctx);
  /* output step k = s->nout - 1 (the fields just recorded in s) */
  PetscErrorCode (*fields)(void *ctx, const FcOutputState *s, PetscInt step, PetscReal time, const FcOutputFields *f);
  /* contact output s->ncon - 1 of output step k = s->conk[s->ncon - 1] */
  PetscErrorCode (*contacts)(void *ctx, const FcOutputState *s, PetscInt step, PetscReal time, const FcOutputContacts *c);
  PetscErrorCode (*row)(void *ctx, const FcOutputState *s, FcOutputTable table, PetscInt step, PetscReal time, const PetscReal *values);
  PetscErrorCode (*problem)(void *ctx, const FcOutputState *s, PetscInt step, FcContactProblem p, const PetscReal *r);
  PetscErrorCode (*haptic)(void *ctx, const FcOutputState *s, const FcHapticOutput *h);
  PetscErrorCode (*verdict)(void *ctx, const FcOutputState *s, const FcOutputVerdict *v);
  /* the user's options the run never used (FcOutputSetUnusedOptions): names and sources, n each */
  PetscErrorCode (*unused_options)(void *ctx, const FcOutputState *s, PetscInt n, const char *const *names, const char *const *sources);
  /* the run is over: write what is written at the end */
  PetscErrorCode (*finish)(void *ctx, const FcOutputState *s);
  /* free; report: raise an error when closing a file failed (not after another error) */
  PetscErrorCode (*destroy)(void **ctx, PetscBool report);
} FcWriterType;

/* Each writer's file defines `const FcWriterType FcWriter<name>`, listed in FC_WRITERS (output.c). */

/* Helpers shared by the writers (output.c). */
PetscErrorCode FcOutputPathJoin(char *out, size_t len, const char *dir, const char *name);
PetscErrorCode FcOutputGrowReal(PetscInt oldcap, PetscInt newcap, PetscInt width, PetscReal **a);
PetscErrorCode FcOutputGrowInt64(PetscInt oldcap, PetscInt newcap, PetscInt64 **a);

#endif
