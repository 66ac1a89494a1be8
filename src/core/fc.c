/* fcsim — input errors, error handler, path helpers. */
#include "fc.h"
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

int FcVerbosity = 1;

PetscErrorCode FcInputError(const char *where, const char *path, const char *fmt, ...)
{
  char    msg[2048], line[4096];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (path && path[0]) snprintf(line, sizeof line, "%s: %s: %s", where ? where : "fcsim", path, msg);
  else snprintf(line, sizeof line, "%s: %s", where ? where : "fcsim", msg);
  /* PetscError routes the message through the handler installed by FcPushErrorHandler. */
  return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, FC_ERR_INPUT, PETSC_ERROR_INITIAL, "%s", line);
}

/* Input errors: the message is the whole user-facing line, printed once when raised.
 * Anything else: PETSc's traceback (the run failed, a bug, or an unusable environment). */
static PetscErrorCode FcErrorHandler_Private(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (n == FC_ERR_INPUT) {
    if (p == PETSC_ERROR_INITIAL && mess) {
      fprintf(stderr, "%s\n", mess);
      fflush(stderr);
    }
    return n;
  }
  return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
}

PetscErrorCode FcPushErrorHandler(void)
{
  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(FcErrorHandler_Private, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode FcPathResolve(const char *relative_to, const char *path, char *out, size_t len)
{
  const char *slash;

  PetscFunctionBegin;
  if (path[0] == '/' || !relative_to || !(slash = strrchr(relative_to, '/'))) {
    PetscCheck(strlen(path) < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Path too long: %s", path);
    snprintf(out, len, "%s", path);
  } else {
    size_t d = (size_t)(slash - relative_to) + 1;
    PetscCheck(d + strlen(path) < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Path too long: %s", path);
    memcpy(out, relative_to, d);
    snprintf(out + d, len - d, "%s", path);
  }
  PetscFunctionReturn(0);
}

PetscBool FcFileReadable(const char *path)
{
  return access(path, R_OK) == 0 ? PETSC_TRUE : PETSC_FALSE;
}
