/* fcsim — what the loader (mesh_gmsh.c) and the .geo sandbox's child (mesh_sandbox.c) share of
 * libgmsh's C API: the check of a Gmsh call through Gmsh's logger, and the release of the arrays
 * gmshModelMeshGetElements allocates. Its own file so that the two stand side by side, neither
 * calling the other for these (no file circle in src/mesh). */
#include "mesh_impl.h"
#include <gmshc.h>
#include <string.h>

/* Check the Gmsh call just made: it failed if it returned an error or logged one (with
 * General.AbortOnError = 0, see GmshInitialize, Gmsh reports most errors only in its log).
 * A failure becomes one input error "FILE: gmsh: message"; the first logged error is the most
 * specific ("Wrong node index 9" comes before "Error loading 'FILE'"). The log is cleared so
 * that the next check sees only the next call's messages. */
PetscErrorCode FcMeshGmshCheck_Private(const char *file, const char *what, int ierr)
{
  char      **log = NULL, *last = NULL, msg[1024];
  size_t      nlog = 0, flen = strlen(file);
  int         ie;
  const char *m = NULL, *generic = NULL;

  PetscFunctionBegin;
  gmshLoggerGet(&log, &nlog, &ie);
  for (size_t i = 0; i < nlog; i++) {
    const char *s = log[i];
    if (strncmp(s, "Error: ", 7)) continue;
    s += 7;
    if (!strncmp(s, "Error loading", 13)) generic = generic ? generic : s;
    else m = m ? m : s;
  }
  if (!m) m = generic;
  if (!m && ierr) {
    gmshLoggerGetLastError(&last, &ie);
    m = last && last[0] ? last : "unknown error";
  }
  if (m) {
    /* Gmsh often starts with "'FILE', line N: ..." while the file is already our prefix. */
    if (m[0] == '\'' && !strncmp(m + 1, file, flen) && m[flen + 1] == '\'') {
      m += flen + 2;
      while (*m == ',' || *m == ' ') m++;
    }
    if (!strncmp(m, "Error loading", 13)) m = "cannot read the file (truncated or malformed?)";
    snprintf(msg, sizeof msg, "%s", m);
    /* One line, whatever Gmsh formatted, without trailing blanks. */
    for (char *p = msg; *p; p++)
      if (*p == '\n' || *p == '\r') *p = ' ';
    for (size_t n = strlen(msg); n && msg[n - 1] == ' '; n--) msg[n - 1] = '\0';
  }
  for (size_t i = 0; i < nlog; i++) gmshFree(log[i]);
  gmshFree(log);
  gmshFree(last);
  gmshLoggerStop(&ie);
  gmshLoggerStart(&ie);
  if (m) return FcInputError(file, NULL, "gmsh: %s%s", what, msg);
  PetscFunctionReturn(0);
}

/* What gmshModelMeshGetElements allocates, per element type and as arrays. */
void FcMeshGmshFreeElements_Private(int *types, size_t ntypes, size_t **etags, size_t *netags, size_t **ntags, size_t *nntags)
{
  for (size_t t = 0; t < ntypes; t++) {
    gmshFree(etags[t]);
    gmshFree(ntags[t]);
  }
  gmshFree(types);
  gmshFree(etags);
  gmshFree(netags);
  gmshFree(ntags);
  gmshFree(nntags);
}
