/* fcsim — output folders that never destroy a user's data (fsutil.h). */
#define _GNU_SOURCE /* renameat2 (RENAME_EXCHANGE), flock, nftw */
#include "fsutil.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static int RemoveEntry_Private(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* FTW_PHYS: a symbolic link inside the tree is removed, never followed. */
void FcRemoveTree(const char *path) { (void)nftw(path, RemoveEntry_Private, 16, FTW_DEPTH | FTW_PHYS); }

/* mkdir -p; `top` (when not NULL, `len` bytes) receives the outermost folder it created, "" if
 * none: what an abandoned command must remove again, and nothing more. */
static PetscErrorCode MakeDirs_Private(const char *path, char *top, size_t len)
{
  char buf[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  if (top) top[0] = 0;
  PetscCall(PetscStrncpy(buf, path, sizeof buf));
  for (char *p = buf + 1;; p++) {
    const int end = !*p;
    if (!end && *p != '/') continue;
    *p = 0;
    if (mkdir(buf, 0777) == 0) {
      if (top && !top[0]) PetscCall(PetscStrncpy(top, buf, len));
    } else PetscCheck(errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create directory %s: %s", buf, strerror(errno));
    if (end) break;
    *p = '/';
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcMakeDirs(const char *path)
{
  PetscFunctionBegin;
  PetscCall(MakeDirs_Private(path, NULL, 0));
  PetscFunctionReturn(0);
}

double       FcInterruptGrace = 1.5;
volatile int FcInterrupted    = 0;

/* ---- What an interrupt must clean up, read by the watchdog thread (src/fcsim.c). ----
 * PARTIAL: a temporary results folder (removed); TRASH: an earlier output moved aside by a
 * commit (removed); MADE: folders -o created (removed from `path` up to `top` while empty);
 * LOCK: a destination's lock file (removed). The commit's renames hold the same mutex, so that
 * the watchdog sees either the state before a commit or the state after it, never between. */
typedef enum { REG_FREE, REG_PARTIAL, REG_TRASH, REG_MADE, REG_LOCK } RegKind;

#define FC_MAX_REGISTERED 32
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  RegKind kind;
  char    path[PETSC_MAX_PATH_LEN + 64];
  char    top[PETSC_MAX_PATH_LEN]; /* REG_MADE: the outermost folder fcsim created */
} registry[FC_MAX_REGISTERED];
static char committed[PETSC_MAX_PATH_LEN]; /* the last results folder this process put in place */

static void Register_Private(RegKind kind, const char *path, const char *top)
{
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < FC_MAX_REGISTERED; i++)
    if (registry[i].kind == REG_FREE) {
      registry[i].kind = kind;
      snprintf(registry[i].path, sizeof registry[i].path, "%s", path);
      snprintf(registry[i].top, sizeof registry[i].top, "%s", top ? top : "");
      break;
    }
  pthread_mutex_unlock(&registry_lock);
}

static void UnregisterLocked_Private(RegKind kind, const char *path)
{
  for (int i = 0; i < FC_MAX_REGISTERED; i++)
    if (registry[i].kind == kind && !strcmp(registry[i].path, path)) registry[i].kind = REG_FREE;
}

static void Unregister_Private(RegKind kind, const char *path)
{
  pthread_mutex_lock(&registry_lock);
  UnregisterLocked_Private(kind, path);
  pthread_mutex_unlock(&registry_lock);
}

/* rmdir `path`, then its parents up to and including `top`, while they are empty: only the
 * folders fcsim created, and only if nothing was put in them meanwhile. */
static void RemoveMade_Private(const char *path, const char *top)
{
  char   p[PETSC_MAX_PATH_LEN];
  size_t n = strlen(top);
  snprintf(p, sizeof p, "%s", path);
  while (strlen(p) >= n && !strncmp(p, top, n) && (p[n] == 0 || p[n] == '/')) {
    char *slash;
    if (rmdir(p)) return;
    if (!p[n]) return;
    slash = strrchr(p, '/');
    if (!slash) return;
    *slash = 0;
  }
}

const char *FcOutDirAbandonAllForSignal(void)
{
  char moved[PETSC_MAX_PATH_LEN + 96];

  pthread_mutex_lock(&registry_lock);
  /* innermost (last registered) first: a study's runs live inside the study's folder */
  for (int i = FC_MAX_REGISTERED - 1; i >= 0; i--) {
    const char *path = registry[i].path;
    switch (registry[i].kind) {
    case REG_PARTIAL:
    case REG_TRASH:
      snprintf(moved, sizeof moved, "%s.interrupted", path);
      if (rename(path, moved) == 0) FcRemoveTree(moved);
      else FcRemoveTree(path);
      break;
    case REG_LOCK: (void)unlink(path); break;
    default: break;
    }
  }
  for (int i = FC_MAX_REGISTERED - 1; i >= 0; i--)
    if (registry[i].kind == REG_MADE) RemoveMade_Private(registry[i].path, registry[i].top);
  for (int i = 0; i < FC_MAX_REGISTERED; i++) registry[i].kind = REG_FREE;
  /* the mutex stays held: the process ends (_exit) right after, and no commit may start */
  return committed[0] ? committed : NULL;
}

/* ---- Checks. ---- */

/* A path as it may be echoed in a one-line message: control characters become '?'. */
static void Printable_Private(const char *in, char *out, size_t len)
{
  size_t k = 0;
  for (; in && *in && k + 1 < len; in++) out[k++] = ((unsigned char)*in < 0x20 || *in == 0x7f) ? '?' : *in;
  out[k] = 0;
}

/* The names fcsim writes in a results folder (doc/output-format.md, "Where a run writes"). */
static PetscBool OwnFileName_Private(const char *name)
{
  static const char *const files[] = {
    FC_OUTDIR_MARKER, "run.h5", "run.xdmf", "probes.csv", "stats.csv", "haptic.csv", "compare.csv", "compare.md", "study.csv", "study.md", "errors.csv"};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (!strcmp(name, files[i])) return PETSC_TRUE;
  /* study refine: level_<L>.log */
  if (n > 10 && !strncmp(name, "level_", 6) && !strcmp(name + n - 4, ".log")) return PETSC_TRUE;
  /* the lock file of a nested results folder, left by a run that was killed (Lock_Private) */
  if (n > 12 && name[0] == '.' && !strcmp(name + n - 11, ".fcsim-lock")) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscBool EndsWith_Private(const char *s, const char *suffix)
{
  size_t n = strlen(s), m = strlen(suffix);
  return (PetscBool)(n > m && !strcmp(s + n - m, suffix));
}

/* Every entry of `dir` is a regular file accepted by `ok`. */
static PetscBool OnlyFiles_Private(const char *dir, PetscBool (*ok)(const char *), char *bad, size_t len)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  char           p[PETSC_MAX_PATH_LEN + 512];
  struct stat    st;
  PetscBool      good = PETSC_TRUE;

  if (!d) return PETSC_FALSE;
  while (good && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (lstat(p, &st) || !S_ISREG(st.st_mode) || !ok(e->d_name)) {
      good = PETSC_FALSE;
      snprintf(bad, len, "it holds %s, which fcsim does not write", p);
    }
  }
  closedir(d);
  return good;
}

static PetscBool VTKName_Private(const char *n) { return (PetscBool)(EndsWith_Private(n, ".vtk") || EndsWith_Private(n, ".vtk.series")); }

static PetscBool FCLIBName_Private(const char *n) { return (PetscBool)(!strncmp(n, "step_", 5) && EndsWith_Private(n, ".hdf5")); }

/* petsc/<option>.txt: the views a case asks for (src/case/petsc_opts.h) */
static PetscBool ViewName_Private(const char *n) { return EndsWith_Private(n, ".txt"); }

/* study compare: the log <cell>.log of a run, beside the run's folder <cell> (src/study/compare.c) */
static PetscBool RunLog_Private(const char *dir, const char *name)
{
  char        p[PETSC_MAX_PATH_LEN + 512];
  struct stat st;
  size_t      n = strlen(name);

  if (n <= 4 || strcmp(name + n - 4, ".log") || n - 4 >= 256) return PETSC_FALSE;
  snprintf(p, sizeof p, "%s/%.*s", dir, (int)(n - 4), name);
  return (PetscBool)(!lstat(p, &st) && S_ISDIR(st.st_mode));
}

/* fcsim's own earlier output: the marker, and nothing but the layout fcsim writes (nested
 * results folders of a study, each with its marker, at most `depth` levels down). `bad`
 * receives the first entry that is not fcsim's. */
static PetscBool IsOwnOutput_Private(const char *dir, int depth, char *bad, size_t len)
{
  char           p[PETSC_MAX_PATH_LEN + 512], line[64] = "";
  struct stat    st;
  FILE          *f;
  DIR           *d;
  struct dirent *e;
  PetscBool      good = PETSC_TRUE;

  snprintf(p, sizeof p, "%s/%s", dir, FC_OUTDIR_MARKER);
  if (lstat(p, &st) || !S_ISREG(st.st_mode) || !(f = fopen(p, "r"))) {
    snprintf(bad, len, "%s has no %s marker: fcsim did not write it", dir, FC_OUTDIR_MARKER);
    return PETSC_FALSE;
  }
  if (!fgets(line, sizeof line, f)) line[0] = 0;
  fclose(f);
  if (strncmp(line, "fcsim output", 12)) {
    snprintf(bad, len, "%s is not fcsim's marker", p);
    return PETSC_FALSE;
  }
  if (!(d = opendir(dir))) {
    snprintf(bad, len, "%s (%s)", dir, strerror(errno));
    return PETSC_FALSE;
  }
  while (good && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (lstat(p, &st)) good = PETSC_FALSE;
    else if (S_ISREG(st.st_mode)) good = (PetscBool)(OwnFileName_Private(e->d_name) || RunLog_Private(dir, e->d_name));
    else if (!S_ISDIR(st.st_mode)) good = PETSC_FALSE;
    else if (!strcmp(e->d_name, "vtk")) good = OnlyFiles_Private(p, VTKName_Private, bad, len);
    else if (!strcmp(e->d_name, "fclib")) good = OnlyFiles_Private(p, FCLIBName_Private, bad, len);
    else if (!strcmp(e->d_name, "petsc")) good = OnlyFiles_Private(p, ViewName_Private, bad, len);
    else good = (PetscBool)(depth > 0 && IsOwnOutput_Private(p, depth - 1, bad, len));
    if (!good && !bad[0]) snprintf(bad, len, "it holds %s, which fcsim does not write", p);
  }
  closedir(d);
  return good;
}

static PetscBool IsEmptyDir_Private(const char *dir)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  PetscBool      empty = PETSC_TRUE;
  if (!d) return PETSC_FALSE;
  while (empty && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = PETSC_FALSE;
  closedir(d);
  return empty;
}

/* `outer` is `inner` or one of its ancestors (both resolved). */
static PetscBool Contains_Private(const char *outer, const char *inner)
{
  size_t n = strlen(outer);
  if (!strcmp(outer, "/")) return PETSC_TRUE;
  return (PetscBool)(!strncmp(outer, inner, n) && (inner[n] == 0 || inner[n] == '/'));
}

static const char *KindOf_Private(mode_t m)
{
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISREG(m)) return "a file, not a folder";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a folder";
}

/* The nearest existing ancestor of `path` must be a folder fcsim may create entries in. */
static PetscErrorCode CheckCreatable_Private(const char *path, const char *where, const char *what, const char *shown)
{
  char        anc[PETSC_MAX_PATH_LEN], *slash;
  struct stat st;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(anc, path, sizeof anc));
  for (;;) {
    slash = strrchr(anc, '/');
    if (!slash) {
      PetscCall(PetscStrncpy(anc, ".", sizeof anc));
      break;
    }
    if (slash == anc) {
      anc[1] = 0;
      break;
    }
    *slash = 0;
    if (stat(anc, &st) == 0) break;
    FcCheckInput(errno == ENOENT, where, what, "cannot create %s: %s", shown, strerror(errno));
  }
  FcCheckInput(stat(anc, &st) == 0, where, what, "cannot create %s: %s", shown, strerror(errno));
  FcCheckInput(S_ISDIR(st.st_mode), where, what, "cannot create %s: a part of the path is %s", shown, KindOf_Private(st.st_mode));
  FcCheckInput(access(anc, W_OK | X_OK) == 0, where, what, "cannot create %s: the folder %s is not writable (%s)", shown, anc, strerror(errno));
  PetscFunctionReturn(0);
}

const char *FcOutDirCommitted(void) { return committed[0] ? committed : NULL; }

/* FINAL's folder and name (FINAL is normalised: no trailing '/', not "/"). */
static void Split_Private(const char *final, char *parent, size_t plen, const char **base)
{
  const char *slash = strrchr(final, '/');
  *base             = slash ? slash + 1 : final;
  if (!slash) snprintf(parent, plen, ".");
  else if (slash == final) snprintf(parent, plen, "/");
  else snprintf(parent, plen, "%.*s", (int)(slash - final), final);
}

/* At exit, whatever path led there: no lock file of this process stays beside a target (the
 * flock itself dies with the process; the file would be a stale name in the user's folder). */
static pid_t locks_owner;

static void UnlinkLocksAtExit_Private(void)
{
  if (getpid() != locks_owner) return; /* a forked child leaving by exit() */
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < FC_MAX_REGISTERED; i++)
    if (registry[i].kind == REG_LOCK) {
      (void)unlink(registry[i].path);
      registry[i].kind = REG_FREE;
    }
  pthread_mutex_unlock(&registry_lock);
}

/* Take the destination's lock, PARENT/.BASE.fcsim-lock: flock'ed while the command runs (the
 * lock dies with the process, whatever ends it), its text the holder's pid for the message of
 * a second command to the same destination. The holder removes the file when it is done; a
 * command that opened it just before is told by the inode and opens it anew. */
static PetscErrorCode Lock_Private(FcOutDir *od, const char *where, const char *what, const char *shown)
{
  char        parent[PETSC_MAX_PATH_LEN], holder[32];
  const char *base;

  PetscFunctionBegin;
  Split_Private(od->final, parent, sizeof parent, &base);
  PetscCall(PetscSNPrintf(od->lock, sizeof od->lock, "%s/.%s.fcsim-lock", parent, base));
  for (int attempt = 0; attempt < 16; attempt++) {
    struct stat a, b;
    ssize_t     n;
    int         fd = open(od->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    FcCheckInput(fd >= 0, where, what, "cannot create %s: its folder takes no new file (%s: %s)", shown, od->lock, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB)) {
      n = read(fd, holder, sizeof holder - 1);
      close(fd);
      holder[n > 0 ? n : 0]         = 0;
      holder[strcspn(holder, "\n")] = 0;
      return FcInputError(where, what, "%s is being written by another fcsim command (pid %s): wait until it ends, or name another folder", shown,
        holder[0] ? holder : "unknown");
    }
    if (fstat(fd, &a) || lstat(od->lock, &b) || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
      close(fd);
      continue;
    }
    n = snprintf(holder, sizeof holder, "%d\n", (int)getpid());
    if (ftruncate(fd, 0) || write(fd, holder, (size_t)n) != n) { /* the pid is only for messages */
    }
    od->lockfd = fd;
    od->locked = PETSC_TRUE;
    if (!locks_owner) {
      locks_owner = getpid();
      (void)atexit(UnlinkLocksAtExit_Private);
    }
    Register_Private(REG_LOCK, od->lock, NULL);
    PetscFunctionReturn(0);
  }
  return FcInputError(where, what, "cannot lock %s (%s keeps changing)", shown, od->lock);
}

static void Unlock_Private(FcOutDir *od)
{
  if (!od->locked) return;
  Unregister_Private(REG_LOCK, od->lock);
  (void)unlink(od->lock);
  close(od->lockfd);
  od->locked = PETSC_FALSE;
}

/* With the destination locked, no live fcsim command writes FINAL: what is left beside it
 * (FINAL.partial-<pid>, FINAL.old-<pid>, and their .interrupted renames) belongs to a command
 * that was killed (SIGKILL, a crash, a study whose runs it started). Removed when it carries
 * fcsim's marker; anything else of that name is left alone. */
static void RemoveStale_Private(const FcOutDir *od)
{
  char           parent[PETSC_MAX_PATH_LEN], p[PETSC_MAX_PATH_LEN + 300], marker[PETSC_MAX_PATH_LEN + 340], line[16];
  const char    *base;
  size_t         n;
  DIR           *d;
  struct dirent *e;

  Split_Private(od->final, parent, sizeof parent, &base);
  n = strlen(base);
  if (!(d = opendir(parent))) return;
  while ((e = readdir(d))) {
    struct stat st;
    FILE       *f;
    if (strncmp(e->d_name, base, n) || (strncmp(e->d_name + n, ".partial-", 9) && strncmp(e->d_name + n, ".old-", 5))) continue;
    snprintf(p, sizeof p, "%s/%s", parent, e->d_name);
    snprintf(marker, sizeof marker, "%s/%s", p, FC_OUTDIR_MARKER);
    if (lstat(p, &st) || !S_ISDIR(st.st_mode) || lstat(marker, &st) || !S_ISREG(st.st_mode) || !(f = fopen(marker, "r"))) continue;
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    fclose(f);
    if (!strncmp(line, "fcsim output", 12)) FcRemoveTree(p);
  }
  closedir(d);
}

/* The checks of FcOutDirCheck; the lock is taken once FINAL's folder is known to be usable. */
static PetscErrorCode CheckTarget_Private(const char *path, const char *where, const char *what, FcOutDir *od)
{
  char        shown[PETSC_MAX_PATH_LEN], bad[PETSC_MAX_PATH_LEN + 600] = "", *base;
  struct stat st;
  size_t      n;

  PetscFunctionBegin;
  FcCheckInput(path && path[0], where, what, "is empty: name a folder for the results");
  Printable_Private(path, shown, sizeof shown);
  FcCheckInput(strlen(path) + 32 < sizeof od->final, where, what, "the path is too long: %s", shown);
  PetscCall(PetscStrncpy(od->final, path, sizeof od->final));
  /* `DIR/` as shell completion writes it is DIR */
  for (n = strlen(od->final); n > 1 && od->final[n - 1] == '/'; n--) od->final[n - 1] = 0;
  Printable_Private(od->final, shown, sizeof shown);
  FcCheckInput(strcmp(od->final, "/"), where, what, "'/' cannot be a results folder: name a new folder");
  base = strrchr(od->final, '/');
  base = base ? base + 1 : od->final;
  FcCheckInput(strcmp(base, ".") && strcmp(base, ".."), where, what, "'%s' names an existing folder by '.' or '..': name a new folder for the results", shown);
  PetscCall(PetscSNPrintf(od->tmp, sizeof od->tmp, "%s.partial-%d", od->final, (int)getpid()));

  if (lstat(od->final, &st)) {
    char        parent[PETSC_MAX_PATH_LEN];
    const char *b;
    FcCheckInput(errno == ENOENT, where, what, "cannot use %s: %s", shown, strerror(errno));
    PetscCall(CheckCreatable_Private(od->final, where, what, shown));
    /* a folder that does not exist yet is locked once FcOutDirCreate has made it */
    Split_Private(od->final, parent, sizeof parent, &b);
    if (stat(parent, &st) == 0) PetscCall(Lock_Private(od, where, what, shown));
    PetscFunctionReturn(0);
  }
  FcCheckInput(S_ISDIR(st.st_mode), where, what, "%s is %s: fcsim never replaces it (name a new folder for the results)", shown, KindOf_Private(st.st_mode));
  PetscCall(CheckCreatable_Private(od->final, where, what, shown));
  PetscCall(Lock_Private(od, where, what, shown));
  if (!IsEmptyDir_Private(od->final) && !IsOwnOutput_Private(od->final, 2, bad, sizeof bad)) {
    char rf[PETSC_MAX_PATH_LEN], rc[PETSC_MAX_PATH_LEN], pb[sizeof bad];
    Printable_Private(bad, pb, sizeof pb);
    FcCheckInput(od->overwrite, where, what,
      "%s exists and is not fcsim's output (%s): fcsim replaces only its own results; name a new folder, or pass --overwrite to replace it", shown, pb);
    /* even with --overwrite: never the folder we work in, or one that holds it */
    FcCheckInput(realpath(od->final, rf) && getcwd(rc, sizeof rc), where, what, "cannot resolve %s: %s", shown, strerror(errno));
    FcCheckInput(!Contains_Private(rf, rc), where, what, "%s holds the current working folder: fcsim does not replace it, even with --overwrite", shown);
    {
      const char *home = getenv("HOME");
      char        rh[PETSC_MAX_PATH_LEN];
      FcCheckInput(!(home && realpath(home, rh) && Contains_Private(rf, rh)), where, what,
        "%s holds the home folder: fcsim does not replace it, even with --overwrite", shown);
    }
  }
  od->replace = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutDirCheck(const char *path, const char *where, const char *what, const char *kind, PetscBool overwrite, FcOutDir *od)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(od, sizeof *od));
  od->lockfd    = -1;
  od->overwrite = overwrite;
  PetscCall(PetscStrncpy(od->kind, kind, sizeof od->kind));
  ierr = CheckTarget_Private(path, where, what, od);
  if (ierr) {
    Unlock_Private(od);
    return ierr;
  }
  if (od->locked) RemoveStale_Private(od);
  PetscFunctionReturn(0);
}

/* Create's work; on an error FcOutDirCreate undoes what was done (FcOutDirAbandon). */
static PetscErrorCode Create_Private(FcOutDir *od)
{
  char        parent[PETSC_MAX_PATH_LEN], marker[PETSC_MAX_PATH_LEN + 96], shown[PETSC_MAX_PATH_LEN];
  const char *base;
  struct stat st;
  FILE       *f;
  int         bad;

  PetscFunctionBegin;
  Split_Private(od->final, parent, sizeof parent, &base);
  if (stat(parent, &st)) {
    PetscCall(MakeDirs_Private(parent, od->made_top, sizeof od->made_top));
    if (od->made_top[0]) {
      PetscCall(PetscStrncpy(od->made, parent, sizeof od->made));
      Register_Private(REG_MADE, od->made, od->made_top);
    }
  }
  if (!od->locked) {
    Printable_Private(od->final, shown, sizeof shown);
    PetscCall(Lock_Private(od, "-o", od->kind, shown));
    RemoveStale_Private(od);
  }
  PetscCheck(mkdir(od->tmp, 0777) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create the folder %s: %s", od->tmp, strerror(errno));
  od->created = PETSC_TRUE;
  Register_Private(REG_PARTIAL, od->tmp, NULL);
  /* the marker that lets a later command prove this folder is fcsim's */
  PetscCall(PetscSNPrintf(marker, sizeof marker, "%s/%s", od->tmp, FC_OUTDIR_MARKER));
  f = fopen(marker, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", marker, strerror(errno));
  bad = fprintf(
          f, "fcsim output\nkind: %s\nversion: %s\nThis folder was written by fcsim; fcsim may replace it with a later result.\n", od->kind, FcVersion()) < 0;
  bad = (fclose(f) != 0) || bad;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s: %s", marker, strerror(errno));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutDirCreate(FcOutDir *od)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = Create_Private(od);
  if (ierr) FcOutDirAbandon(od);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The folders -o created now hold a result (or a failed one): they are the user's to keep. */
static void KeepMade_Private(FcOutDir *od)
{
  if (od->made_top[0]) Unregister_Private(REG_MADE, od->made);
  od->made_top[0] = 0;
}

PetscErrorCode FcOutDirCommit(FcOutDir *od)
{
  char        old[PETSC_MAX_PATH_LEN + 96], trash[PETSC_MAX_PATH_LEN + 96] = "", bad[PETSC_MAX_PATH_LEN + 600] = "", why[4 * PETSC_MAX_PATH_LEN] = "";
  struct stat st;
  int         e = 0;

  PetscFunctionBegin;
  PetscCheck(od->created, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Nothing to commit");
  /* The renames under the registry's mutex: an interrupt sees the earlier output in place (and
   * removes the temporary folder) or the new one (and removes the earlier, moved aside). */
  pthread_mutex_lock(&registry_lock);
  if (lstat(od->final, &st) == 0) {
    /* checked before the run; checked again, as the user may have used the name meanwhile */
    if (!(S_ISDIR(st.st_mode) && (od->overwrite || IsEmptyDir_Private(od->final) || IsOwnOutput_Private(od->final, 2, bad, sizeof bad))))
      snprintf(
        why, sizeof why, "%s changed during the run and is no longer fcsim's output: it was left as it is; the complete output is in %s", od->final, od->tmp);
    else if (renameat2(AT_FDCWD, od->tmp, AT_FDCWD, od->final, RENAME_EXCHANGE) == 0)
      snprintf(trash, sizeof trash, "%s", od->tmp); /* one atomic step: the earlier output now has the temporary name */
    else {
      /* a file system without RENAME_EXCHANGE: two renames, the first undone if the second fails */
      snprintf(old, sizeof old, "%s.old-%d", od->final, (int)getpid());
      if (rename(od->final, old)) {
        e = errno;
        snprintf(why, sizeof why, "Cannot move the previous %s aside (%s); the complete output is in %s", od->final, strerror(e), od->tmp);
      } else if (rename(od->tmp, od->final)) {
        e = errno;
        (void)rename(old, od->final);
        snprintf(why, sizeof why, "Cannot rename %s to %s (%s); the complete output is in %s", od->tmp, od->final, strerror(e), od->tmp);
      } else snprintf(trash, sizeof trash, "%s", old);
    }
  } else if (rename(od->tmp, od->final)) {
    e = errno;
    snprintf(why, sizeof why, "Cannot rename %s to %s (%s); the complete output is in %s", od->tmp, od->final, strerror(e), od->tmp);
  }
  if (!why[0]) {
    PetscBool nested = PETSC_FALSE;
    UnregisterLocked_Private(REG_PARTIAL, od->tmp);
    od->created = PETSC_FALSE;
    /* a run inside a study's temporary folder is not a result in place until the study's is */
    for (int i = 0; i < FC_MAX_REGISTERED; i++) {
      size_t n = strlen(registry[i].path);
      if (registry[i].kind == REG_PARTIAL && !strncmp(registry[i].path, od->final, n) && od->final[n] == '/') nested = PETSC_TRUE;
    }
    if (!nested) snprintf(committed, sizeof committed, "%s", od->final);
  }
  pthread_mutex_unlock(&registry_lock);
  if (why[0]) {
    /* the complete output stays where the message says: never removed */
    Unregister_Private(REG_PARTIAL, od->tmp);
    od->created = PETSC_FALSE;
    KeepMade_Private(od);
    Unlock_Private(od);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s", why);
  }
  if (trash[0]) {
    Register_Private(REG_TRASH, trash, NULL);
    FcRemoveTree(trash);
    Unregister_Private(REG_TRASH, trash);
  }
  KeepMade_Private(od);
  Unlock_Private(od);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutDirKeepFailed(FcOutDir *od, char *where, size_t len)
{
  char        failed[PETSC_MAX_PATH_LEN + 96];
  struct stat st;

  PetscFunctionBegin;
  PetscCheck(od->created, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Nothing to keep");
  Unregister_Private(REG_PARTIAL, od->tmp);
  od->created = PETSC_FALSE;
  PetscCall(PetscSNPrintf(failed, sizeof failed, "%s.failed-%d", od->final, (int)getpid()));
  for (int k = 2; lstat(failed, &st) == 0 && k < 1000; k++) PetscCall(PetscSNPrintf(failed, sizeof failed, "%s.failed-%d-%d", od->final, (int)getpid(), k));
  if (lstat(failed, &st) != 0 && rename(od->tmp, failed) == 0) PetscCall(PetscStrncpy(where, failed, len));
  else PetscCall(PetscStrncpy(where, od->tmp, len));
  KeepMade_Private(od);
  Unlock_Private(od);
  PetscFunctionReturn(0);
}

void FcOutDirAbandon(FcOutDir *od)
{
  if (od->created) {
    Unregister_Private(REG_PARTIAL, od->tmp);
    FcRemoveTree(od->tmp);
    od->created = PETSC_FALSE;
  }
  Unlock_Private(od);
  if (od->made_top[0]) {
    Unregister_Private(REG_MADE, od->made);
    RemoveMade_Private(od->made, od->made_top);
    od->made_top[0] = 0;
  }
}

PetscErrorCode FcOutFileCheck(const char *path, const char *where, const char *what, PetscBool overwrite)
{
  char        shown[PETSC_MAX_PATH_LEN];
  struct stat st;
  size_t      n;

  PetscFunctionBegin;
  FcCheckInput(path && path[0], where, what, "is empty: name the file to write");
  Printable_Private(path, shown, sizeof shown);
  n = strlen(path);
  FcCheckInput(path[n - 1] != '/', where, what, "%s names a folder: name the file to write", shown);
  if (lstat(path, &st) == 0) {
    FcCheckInput(S_ISREG(st.st_mode), where, what, "%s is %s: fcsim never replaces it", shown, S_ISDIR(st.st_mode) ? "a folder" : KindOf_Private(st.st_mode));
    FcCheckInput(overwrite, where, what, "%s exists: name a new file, or pass --overwrite to replace it", shown);
  } else FcCheckInput(errno == ENOENT, where, what, "cannot use %s: %s", shown, strerror(errno));
  {
    /* the file's folder must exist: fcsim does not create folders for a single file */
    char dir[PETSC_MAX_PATH_LEN], *slash;
    PetscCall(PetscStrncpy(dir, path, sizeof dir));
    slash = strrchr(dir, '/');
    if (!slash) PetscCall(PetscStrncpy(dir, ".", sizeof dir));
    else if (slash == dir) dir[1] = 0;
    else *slash = 0;
    FcCheckInput(stat(dir, &st) == 0 && S_ISDIR(st.st_mode), where, what, "cannot create %s: its folder does not exist", shown);
    FcCheckInput(access(dir, W_OK | X_OK) == 0, where, what, "cannot create %s: the folder is not writable (%s)", shown, strerror(errno));
  }
  PetscFunctionReturn(0);
}

/* ---- Input files. ---- */

static const char *InputKind_Private(mode_t m)
{
  if (S_ISDIR(m)) return "a folder";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

int FcInputFileOpenFd(const char *path, PetscInt64 *size, const char **kind)
{
  struct stat st;
  int         fd, err;

  *kind = NULL;
  /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; O_NOCTTY: a
   * terminal device never becomes fcsim's controlling terminal */
  fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    err = errno;
    /* a socket cannot be opened (ENXIO): name what it is rather than the errno */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
      *kind = InputKind_Private(st.st_mode);
      return -2;
    }
    errno = err;
    return -1;
  }
  if (fstat(fd, &st)) {
    err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    *kind = InputKind_Private(st.st_mode);
    return -2;
  }
  /* a regular file: reads never block; back to ordinary blocking mode */
  if ((err = fcntl(fd, F_GETFL)) >= 0) (void)fcntl(fd, F_SETFL, err & ~O_NONBLOCK);
  if (size) *size = (PetscInt64)st.st_size;
  return fd;
}

/* The generic messages; the file is named unless `where` is the file already. */
static PetscErrorCode InputFileError_Private(const char *path, int rc, int err, const char *kind, const char *where, const char *what)
{
  char shown[PETSC_MAX_PATH_LEN + 2] = "", named[PETSC_MAX_PATH_LEN + 2] = "";

  PetscFunctionBegin;
  if (!where || strcmp(where, path)) {
    Printable_Private(path, shown, sizeof shown - 1);
    snprintf(named, sizeof named, " %s", shown);
    strcat(shown, " ");
  }
  if (rc == -2) return FcInputError(where, what, "%sis %s, not a regular file: fcsim reads only regular files", shown, kind);
  return FcInputError(where, what, "cannot read%s: %s", named, strerror(err));
}

PetscErrorCode FcInputFileOpen(const char *path, const char *where, const char *what, FILE **fp, PetscInt64 *size)
{
  const char *kind;
  int         fd, err;

  PetscFunctionBegin;
  *fp = NULL;
  fd  = FcInputFileOpenFd(path, size, &kind);
  if (fd < 0) return InputFileError_Private(path, fd, errno, kind, where, what);
  if (!(*fp = fdopen(fd, "rb"))) {
    err = errno;
    close(fd);
    return InputFileError_Private(path, -1, err, NULL, where, what);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcInputFileCheck(const char *path, const char *where, const char *what, PetscInt64 *size)
{
  const char *kind;
  int         fd;

  PetscFunctionBegin;
  fd = FcInputFileOpenFd(path, size, &kind);
  if (fd < 0) return InputFileError_Private(path, fd, errno, kind, where, what);
  close(fd);
  PetscFunctionReturn(0);
}

double FcFreeSpace(const char *path)
{
  char           anc[PETSC_MAX_PATH_LEN], *slash;
  struct statvfs sv;

  snprintf(anc, sizeof anc, "%s", path && path[0] ? path : ".");
  while (statvfs(anc, &sv)) {
    if (!(slash = strrchr(anc, '/'))) {
      if (statvfs(".", &sv)) return -1;
      break;
    }
    if (slash == anc) {
      if (statvfs("/", &sv)) return -1;
      break;
    }
    *slash = 0;
  }
  return (double)sv.f_bavail * (double)sv.f_frsize;
}

double FcPhysicalMemory(void)
{
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (double)pages * (double)size : -1;
}
