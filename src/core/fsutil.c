/* fcsim — output directories (fsutil.h). */
#define _XOPEN_SOURCE 700
#include "fsutil.h"
#include <errno.h>
#include <ftw.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int RemoveEntry_Private(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  (void)sb;
  (void)flag;
  (void)ftw;
  return remove(path);
}

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

PetscErrorCode FcCommitDir(const char *tmp, const char *final)
{
  char        old[PETSC_MAX_PATH_LEN + 64];
  struct stat st;
  PetscBool   had = PETSC_FALSE;

  PetscFunctionBegin;
  if (stat(final, &st) == 0) {
    PetscCall(PetscSNPrintf(old, sizeof old, "%s.old-%d", final, (int)getpid()));
    PetscCheck(rename(final, old) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot move the previous %s aside: %s", final, strerror(errno));
    had = PETSC_TRUE;
  }
  PetscCheck(rename(tmp, final) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot rename %s to %s: %s", tmp, final, strerror(errno));
  if (had) FcRemoveTree(old);
  PetscFunctionReturn(0);
}

