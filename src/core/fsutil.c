/* fcsim — output folders that never destroy a user's data (fsutil.h). */
#define _XOPEN_SOURCE 700
#include "fsutil.h"
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
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
void FcRemoveTree(const char *path)
{
  (void)nftw(path, RemoveEntry_Private, 16, FTW_DEPTH | FTW_PHYS);
}

/* mkdir -p */
PetscErrorCode FcMakeDirs(const char *path)
{
  char buf[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(buf, path, sizeof buf));
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    PetscCheck(mkdir(buf, 0777) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create directory %s: %s", buf, strerror(errno));
    *p = '/';
  }
  PetscCheck(mkdir(buf, 0777) == 0 || errno == EEXIST, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create directory %s: %s", buf, strerror(errno));
  PetscFunctionReturn(0);
}

double FcInterruptGrace = 1.5;

/* ---- The temporary folders an interrupt must remove (read by the watchdog thread). ---- */
#define FC_MAX_REGISTERED 8
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static char            registry[FC_MAX_REGISTERED][PETSC_MAX_PATH_LEN + 64];

static void Register_Private(const char *tmp)
{
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < FC_MAX_REGISTERED; i++)
    if (!registry[i][0]) {
      snprintf(registry[i], sizeof registry[i], "%s", tmp);
      break;
    }
  pthread_mutex_unlock(&registry_lock);
}

static void Unregister_Private(const char *tmp)
{
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < FC_MAX_REGISTERED; i++)
    if (!strcmp(registry[i], tmp)) registry[i][0] = 0;
  pthread_mutex_unlock(&registry_lock);
}

void FcOutDirAbandonAllForSignal(void)
{
  char moved[PETSC_MAX_PATH_LEN + 96];

  pthread_mutex_lock(&registry_lock);
  /* innermost (last registered) first: a study's runs live inside the study's folder */
  for (int i = FC_MAX_REGISTERED - 1; i >= 0; i--) {
    if (!registry[i][0]) continue;
    snprintf(moved, sizeof moved, "%s.interrupted", registry[i]);
    if (rename(registry[i], moved) == 0) FcRemoveTree(moved);
    else FcRemoveTree(registry[i]);
    registry[i][0] = 0;
  }
  pthread_mutex_unlock(&registry_lock);
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
  static const char *const files[] = {FC_OUTDIR_MARKER, "run.h5", "run.xdmf", "probes.csv", "stats.csv", "haptic.csv", "compare.csv", "compare.md", "study.csv", "study.md", "errors.csv"};
  size_t                   n       = strlen(name);
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (!strcmp(name, files[i])) return PETSC_TRUE;
  /* study refine: level_<L>.log */
  if (n > 10 && !strncmp(name, "level_", 6) && !strcmp(name + n - 4, ".log")) return PETSC_TRUE;
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

static PetscBool VTKName_Private(const char *n)
{
  return (PetscBool)(EndsWith_Private(n, ".vtk") || EndsWith_Private(n, ".vtk.series"));
}

static PetscBool FCLIBName_Private(const char *n)
{
  return (PetscBool)(!strncmp(n, "step_", 5) && EndsWith_Private(n, ".hdf5"));
}

/* petsc/<option>.txt: the views a case asks for (src/case/petsc_opts.h) */
static PetscBool ViewName_Private(const char *n)
{
  return EndsWith_Private(n, ".txt");
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
    else if (S_ISREG(st.st_mode)) good = OwnFileName_Private(e->d_name);
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

PetscErrorCode FcOutDirCheck(const char *path, const char *where, const char *what, const char *kind, PetscBool overwrite, FcOutDir *od)
{
  char        shown[PETSC_MAX_PATH_LEN], bad[PETSC_MAX_PATH_LEN + 600] = "", *base;
  struct stat st;
  size_t      n;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(od, sizeof *od));
  FcCheckInput(path && path[0], where, what, "is empty: name a folder for the results");
  Printable_Private(path, shown, sizeof shown);
  FcCheckInput(strlen(path) + 32 < sizeof od->final, where, what, "the path is too long: %s", shown);
  PetscCall(PetscStrncpy(od->final, path, sizeof od->final));
  PetscCall(PetscStrncpy(od->kind, kind, sizeof od->kind));
  od->overwrite = overwrite;
  /* `DIR/` as shell completion writes it is DIR */
  for (n = strlen(od->final); n > 1 && od->final[n - 1] == '/'; n--) od->final[n - 1] = 0;
  Printable_Private(od->final, shown, sizeof shown);
  FcCheckInput(strcmp(od->final, "/"), where, what, "'/' cannot be a results folder: name a new folder");
  base = strrchr(od->final, '/');
  base = base ? base + 1 : od->final;
  FcCheckInput(strcmp(base, ".") && strcmp(base, ".."), where, what, "'%s' names an existing folder by '.' or '..': name a new folder for the results", shown);
  PetscCall(PetscSNPrintf(od->tmp, sizeof od->tmp, "%s.partial-%d", od->final, (int)getpid()));

  if (lstat(od->final, &st)) {
    FcCheckInput(errno == ENOENT, where, what, "cannot use %s: %s", shown, strerror(errno));
    PetscCall(CheckCreatable_Private(od->final, where, what, shown));
    PetscFunctionReturn(0);
  }
  FcCheckInput(S_ISDIR(st.st_mode), where, what, "%s is %s: fcsim never replaces it (name a new folder for the results)", shown, KindOf_Private(st.st_mode));
  PetscCall(CheckCreatable_Private(od->final, where, what, shown));
  if (!IsEmptyDir_Private(od->final) && !IsOwnOutput_Private(od->final, 2, bad, sizeof bad)) {
    char rf[PETSC_MAX_PATH_LEN], rc[PETSC_MAX_PATH_LEN], pb[sizeof bad];
    Printable_Private(bad, pb, sizeof pb);
    FcCheckInput(overwrite, where, what, "%s exists and is not fcsim's output (%s): fcsim replaces only its own results; name a new folder, or pass --overwrite to replace it", shown, pb);
    /* even with --overwrite: never the folder we work in, or one that holds it */
    FcCheckInput(realpath(od->final, rf) && getcwd(rc, sizeof rc), where, what, "cannot resolve %s: %s", shown, strerror(errno));
    FcCheckInput(!Contains_Private(rf, rc), where, what, "%s holds the current working folder: fcsim does not replace it, even with --overwrite", shown);
    {
      const char *home = getenv("HOME");
      char        rh[PETSC_MAX_PATH_LEN];
      FcCheckInput(!(home && realpath(home, rh) && Contains_Private(rf, rh)), where, what, "%s holds the home folder: fcsim does not replace it, even with --overwrite", shown);
    }
  }
  od->replace = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutDirCreate(FcOutDir *od)
{
  char  parent[PETSC_MAX_PATH_LEN], marker[PETSC_MAX_PATH_LEN + 96], *slash;
  FILE *f;
  int   bad;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(parent, od->final, sizeof parent));
  slash = strrchr(parent, '/');
  if (slash && slash != parent) {
    *slash = 0;
    PetscCall(FcMakeDirs(parent));
  }
  PetscCheck(mkdir(od->tmp, 0777) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create the folder %s: %s", od->tmp, strerror(errno));
  od->created = PETSC_TRUE;
  Register_Private(od->tmp);
  /* the marker that lets a later command prove this folder is fcsim's */
  PetscCall(PetscSNPrintf(marker, sizeof marker, "%s/%s", od->tmp, FC_OUTDIR_MARKER));
  f = fopen(marker, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s: %s", marker, strerror(errno));
  bad = fprintf(f, "fcsim output\nkind: %s\nversion: %s\nThis folder was written by fcsim; fcsim may replace it with a later result.\n", od->kind, FcVersion()) < 0;
  bad = (fclose(f) != 0) || bad;
  PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s: %s", marker, strerror(errno));
  PetscFunctionReturn(0);
}

/* Out of the registry: the folder is no longer fcsim's to remove on an interrupt. */
static void Release_Private(FcOutDir *od)
{
  if (od->created) Unregister_Private(od->tmp);
  od->created = PETSC_FALSE;
}

PetscErrorCode FcOutDirCommit(FcOutDir *od)
{
  char        old[PETSC_MAX_PATH_LEN + 96], bad[PETSC_MAX_PATH_LEN + 600] = "";
  struct stat st;
  PetscBool   moved = PETSC_FALSE;
  int         e;

  PetscFunctionBegin;
  PetscCheck(od->created, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Nothing to commit");
  Release_Private(od);
  if (lstat(od->final, &st) == 0) {
    /* checked before the run; checked again, as the user may have used the name meanwhile */
    PetscCheck(S_ISDIR(st.st_mode) && (od->overwrite || IsEmptyDir_Private(od->final) || IsOwnOutput_Private(od->final, 2, bad, sizeof bad)), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE,
               "%s changed during the run and is no longer fcsim's output: it was left as it is; the complete output is in %s", od->final, od->tmp);
    PetscCall(PetscSNPrintf(old, sizeof old, "%s.old-%d", od->final, (int)getpid()));
    e = rename(od->final, old) ? errno : 0;
    PetscCheck(!e, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot move the previous %s aside (%s); the complete output is in %s", od->final, strerror(e), od->tmp);
    moved = PETSC_TRUE;
  }
  if (rename(od->tmp, od->final)) {
    e = errno;
    if (moved) (void)rename(old, od->final);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename %s to %s (%s); the complete output is in %s", od->tmp, od->final, strerror(e), od->tmp);
  }
  if (moved) FcRemoveTree(old);
  PetscFunctionReturn(0);
}

PetscErrorCode FcOutDirKeepFailed(FcOutDir *od, char *where, size_t len)
{
  char        failed[PETSC_MAX_PATH_LEN + 96];
  struct stat st;

  PetscFunctionBegin;
  PetscCheck(od->created, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "Nothing to keep");
  Release_Private(od);
  PetscCall(PetscSNPrintf(failed, sizeof failed, "%s.failed-%d", od->final, (int)getpid()));
  for (int k = 2; lstat(failed, &st) == 0 && k < 1000; k++) PetscCall(PetscSNPrintf(failed, sizeof failed, "%s.failed-%d-%d", od->final, (int)getpid(), k));
  if (lstat(failed, &st) != 0 && rename(od->tmp, failed) == 0) PetscCall(PetscStrncpy(where, failed, len));
  else PetscCall(PetscStrncpy(where, od->tmp, len));
  PetscFunctionReturn(0);
}

void FcOutDirAbandon(FcOutDir *od)
{
  if (!od->created) return;
  Release_Private(od);
  FcRemoveTree(od->tmp);
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
