/* fcsim — directories for outputs: mkdir -p, recursive removal, and the commit of a directory
 * written under a temporary name (so an interrupted run never leaves something that looks
 * complete). */
#ifndef FC_FSUTIL_H
#define FC_FSUTIL_H
#include "fc.h"
PetscErrorCode FcMakeDirs(const char *path);
void           FcRemoveTree(const char *path);
/* Replace `final` by `tmp`; a previous `final` is moved aside and removed only after the rename. */
PetscErrorCode FcCommitDir(const char *tmp, const char *final);
#endif
