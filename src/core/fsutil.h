/* fcsim — output folders that never destroy a user's data.
 *
 * Every command that writes a results folder (run, study compare, study refine) goes through
 * FcOutDir: the target is checked before anything is computed, the results are written under
 * a temporary name next to it, and only a complete, successful result is renamed onto the
 * target. fcsim replaces only what it can prove is its own earlier output: a folder holding
 * the marker file FC_OUTDIR_MARKER and nothing but the layout fcsim writes (doc/output-format.md,
 * "Where a run writes"). An empty folder is replaced too (nothing is lost); anything else — a
 * foreign or non-empty folder — only with --overwrite, and a file, a device, a socket, a FIFO
 * or a symbolic link never. */
#ifndef FC_FSUTIL_H
#define FC_FSUTIL_H
#include "fc.h"

#define FC_OUTDIR_MARKER "fcsim-output.txt"

typedef struct {
  char      final[PETSC_MAX_PATH_LEN];     /* normalised target: no trailing '/' */
  char      tmp[PETSC_MAX_PATH_LEN + 64];  /* FINAL.partial-<pid>, while the command runs */
  char      kind[32];                      /* "run", "study compare", ...: written in the marker */
  PetscBool replace;                       /* something is at FINAL and may be replaced */
  PetscBool overwrite;                     /* --overwrite: a foreign folder may be replaced */
  PetscBool created;                       /* tmp exists */
  char      lock[PETSC_MAX_PATH_LEN + 64]; /* FINAL's lock file, PARENT/.BASE.fcsim-lock */
  PetscBool locked;                        /* lock is flock'ed by this process (lockfd) */
  int       lockfd;
  char      made[PETSC_MAX_PATH_LEN];     /* FINAL's folder, when this command created it ... */
  char      made_top[PETSC_MAX_PATH_LEN]; /* ... and the outermost folder it created ("" none) */
} FcOutDir;

/* Check `path` (given in `where` at `what`: "command line" and "-o", or the case file and
 * "output.dir") as the target of a results folder of `kind`, before anything is computed: an
 * input error (exit 2, one line) when it cannot or must not be used, among them a target that
 * another fcsim command is writing. Takes the target's lock when its folder exists (a lock file
 * beside it, held until Commit, KeepFailed or Abandon; otherwise Create takes it), and removes
 * what killed commands left beside it (FINAL.partial-<pid>, FINAL.old-<pid> with fcsim's
 * marker). Every later error path must call FcOutDirAbandon. */
PetscErrorCode FcOutDirCheck(const char *path, const char *where, const char *what, const char *kind, PetscBool overwrite, FcOutDir *od);
/* Create the parent folders (remembered: an abandoned command removes those it created) and the
 * temporary folder (with its marker file), and register both so that an interrupt removes them
 * (FcOutDirAbandonAllForSignal). On an error, undoes what it did. */
PetscErrorCode FcOutDirCreate(FcOutDir *od);
/* A complete, successful result: replace FINAL by the temporary folder in one atomic step
 * (renameat2 RENAME_EXCHANGE; two renames with a roll-back where the file system lacks it), then
 * remove the earlier output. An interrupt finds the earlier output or the new one in place,
 * never neither. If a rename fails, the error names the folder where the complete output is; it
 * is never removed. */
PetscErrorCode FcOutDirCommit(FcOutDir *od);
/* A complete result of a failed command (exit 1): rename the temporary folder to
 * FINAL.failed-<pid> (never onto FINAL); `where` receives the folder that holds it. */
PetscErrorCode FcOutDirKeepFailed(FcOutDir *od, char *where, size_t len);
/* An error or an interrupt: remove the temporary folder. */
void FcOutDirAbandon(FcOutDir *od);
/* Seconds the interrupt watchdog (src/fcsim.c) leaves the command to stop by itself after a
 * SIGINT/SIGTERM before it removes the registered folders and exits with 130 (default 1.5). */
extern double FcInterruptGrace;
/* Set by the interrupt watchdog (src/fcsim.c) on SIGINT/SIGTERM; polled by the time loop,
 * Newton, study refine and the .geo meshing child's parent (src/mesh/mesh_sandbox.c). */
extern volatile int FcInterrupted;
/* From the interrupt watchdog thread (src/fcsim.c): remove every registered temporary folder
 * (each is first renamed, so that a writer still running cannot recreate files in it), every
 * earlier output a commit moved aside, the lock files and the folders -o created. Returns the
 * results folder this process put in place, if any (for the watchdog's message), else NULL. No
 * commit can start afterwards: the process must end. */
const char *FcOutDirAbandonAllForSignal(void);
/* The results folder this process last put in place (FcOutDirCommit), or NULL. */
const char *FcOutDirCommitted(void);

/* An output file (fclib solve -o FILE): an existing path is replaced only with --overwrite,
 * and only when it is a regular file; the folder must exist and be writable. */
PetscErrorCode FcOutFileCheck(const char *path, const char *where, const char *what, PetscBool overwrite);

/* Input files. Every file fcsim reads (a case, an FCLIB file, a trajectory log, a reference
 * curve, a run's run.h5, a mesh) must be a regular file: a FIFO blocks the read until a writer
 * comes, a device (/dev/zero, /dev/urandom) never ends, and neither has a size that could bound
 * what fcsim allocates. Checked without blocking (open with O_NONBLOCK, then fstat; a FIFO
 * opens at once for reading with O_NONBLOCK). Errors are input errors "where: what: message"
 * (what may be NULL): "cannot read: <reason>", or "is a FIFO, not a regular file ...". */
/* The check itself, for a reader with messages of its own: a descriptor (>= 0, open for
 * reading, blocking) of the regular file `path`, *size (may be NULL) its size; -1 when it cannot
 * be opened (errno says why); -2 when it is not a regular file (*kind: "a FIFO (named pipe)",
 * "a device", "a folder", "a socket", ...). */
int FcInputFileOpenFd(const char *path, PetscInt64 *size, const char **kind);
/* Open `path` for reading as a binary stream; *size (may be NULL) receives its size in bytes. */
PetscErrorCode FcInputFileOpen(const char *path, const char *where, const char *what, FILE **fp, PetscInt64 *size);
/* The same check for a reader that opens the file by its name itself (HDF5, Gmsh): the file is
 * opened and closed again. */
PetscErrorCode FcInputFileCheck(const char *path, const char *where, const char *what, PetscInt64 *size);

/* The free space of the file system that holds `path` (or its nearest existing ancestor), in
 * bytes available to an unprivileged user; -1 when unknown. */
double FcFreeSpace(const char *path);
/* The machine's physical memory in bytes (-1 when unknown). */
double FcPhysicalMemory(void);

/* mkdir -p */
PetscErrorCode FcMakeDirs(const char *path);
void           FcRemoveTree(const char *path);
#endif
