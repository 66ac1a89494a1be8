/* fcsim — input errors, error handler, path helpers. */
#include "fc.h"
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

int FcVerbosity = 1;

PetscErrorCode FcInputError(const char *where, const char *path, const char *fmt, ...)
{
  char    msg[2048], raw[4096], line[4096];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (path && path[0]) snprintf(raw, sizeof raw, "%s: %s: %s", where ? where : "fcsim", path, msg);
  else snprintf(raw, sizeof raw, "%s: %s", where ? where : "fcsim", msg);
  /* One line whatever the parts hold (a file name from the command line may contain a
   * newline): control characters and the Unicode line and paragraph separators are escaped. */
  {
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)raw; *c && o + 8 < sizeof line; c++) {
      if (*c < 0x20 || *c == 0x7f) o += (size_t)snprintf(line + o, sizeof line - o, *c == '\n' ? "\\n" : *c == '\t' ? "\\t" : "\\x%02x", *c);
      else if (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) o += (size_t)snprintf(line + o, sizeof line - o, "\\u%04x", *++c);
      else if (c[0] == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)) {
        o += (size_t)snprintf(line + o, sizeof line - o, "\\u%04x", c[2] == 0xa8 ? 0x2028 : 0x2029);
        c += 2;
      } else line[o++] = (char)*c;
    }
    line[o] = 0;
  }
  /* PetscError routes the message through the handler installed by FcPushErrorHandler. */
  return PetscError(PETSC_COMM_SELF, __LINE__, PETSC_FUNCTION_NAME, __FILE__, FC_ERR_INPUT, PETSC_ERROR_INITIAL, "%s", line);
}

static PetscBool fc_debug = PETSC_FALSE;

/* A message as one line: newlines and other control characters become spaces. */
static void OneLine_Private(const char *in, char *out, size_t len)
{
  size_t k = 0;
  for (; in && *in && k + 1 < len; in++) out[k++] = ((unsigned char)*in < 0x20) ? ' ' : *in;
  while (k && out[k - 1] == ' ') k--;
  out[k] = 0;
}

/* Every error is ONE line on stderr, printed where it is raised (PETSC_ERROR_INITIAL); the
 * frames it passes through on its way up print nothing.
 *  - input errors (FC_ERR_INPUT): the message is the whole line "FILE: PATH: message";
 *  - an interrupt (PETSC_ERR_SIG): "fcsim: interrupted ...";
 *  - anything else, a failure of the run: "fcsim: error: <message> (in <function>)" and how to
 *    see more. PETSc's traceback (with its configure options) only with -fc_debug; with
 *    -on_error_abort PETSc's own handler stays in place (FcPushErrorHandler). */
static PetscErrorCode FcErrorHandler_Private(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  char        msg[4096];
  const char *text = NULL;

  if (n == FC_ERR_INPUT) {
    if (p == PETSC_ERROR_INITIAL && mess) {
      fprintf(stderr, "%s\n", mess);
      fflush(stderr);
    }
    return n;
  }
  if (fc_debug) return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
  if (p != PETSC_ERROR_INITIAL) return n;
  if (!mess || !mess[0]) (void)PetscErrorMessage(n, &text, NULL);
  OneLine_Private(mess && mess[0] ? mess : (text ? text : "unknown error"), msg, sizeof msg);
  if (n == PETSC_ERR_SIG) fprintf(stderr, "fcsim: %s; nothing was kept\n", msg);
  else fprintf(stderr, "fcsim: error: %s (in %s; -fc_debug shows PETSc's traceback)\n", msg, fun ? fun : "?");
  fflush(stderr);
  return n;
}

PetscErrorCode FcPushErrorHandler(void)
{
  PetscBool abort_on_error = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, "-fc_debug", &fc_debug));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-on_error_abort", &abort_on_error));
  if (abort_on_error) PetscFunctionReturn(0); /* PETSc's abort handler, for a debugger */
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
