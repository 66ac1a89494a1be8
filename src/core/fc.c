/* fcsim — input errors, error handler, path helpers. */
#include "fc.h"
#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

volatile int FcInterruptReported = 0;

int FcVerbosity = 1;

/* One line whatever raw holds (a file name from the command line may contain a newline):
 * control characters and the Unicode line and paragraph separators are escaped. */
static void Escape_Private(const char *raw, char *line, size_t len)
{
  size_t o = 0;
  for (const unsigned char *c = (const unsigned char *)raw; *c && o + 8 < len; c++) {
    if (*c < 0x20 || *c == 0x7f) o += (size_t)snprintf(line + o, len - o, *c == '\n' ? "\\n" : *c == '\t' ? "\\t" : "\\x%02x", *c);
    else if (c[0] == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) o += (size_t)snprintf(line + o, len - o, "\\u%04x", *++c);
    else if (c[0] == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)) {
      o += (size_t)snprintf(line + o, len - o, "\\u%04x", c[2] == 0xa8 ? 0x2028 : 0x2029);
      c += 2;
    } else line[o++] = (char)*c;
  }
  line[o] = 0;
}

/* Options a case file's "petsc" object put into the database (FcOptionSourceAdd), so that a bad
 * value is named by the file and its JSON path, as every other input error; plain arrays, read by
 * the error handler. An option the command line gave is not recorded (the case does not set it). */
#define FC_OPTION_SOURCES 128
static char OptionFile[PETSC_MAX_PATH_LEN];
static struct {
  char name[128], path[256];
} OptionSrc[FC_OPTION_SOURCES];
static int NOptionSrc;

static PetscMPIInt FcRank_Private(void);

/* Option names compare without case, as PETSc's (-KSP_RTOL is -ksp_rtol). */
static PetscBool SameOption_Private(const char *a, const char *b)
{
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return PETSC_FALSE;
  return (PetscBool)(*a == *b);
}

void FcOptionSourceAdd(const char *file, const char *name, const char *path)
{
  if (strcmp(file, OptionFile)) { /* another case: its own options only */
    snprintf(OptionFile, sizeof OptionFile, "%s", file);
    NOptionSrc = 0;
  }
  for (int i = 0; i < NOptionSrc; i++)
    if (SameOption_Private(OptionSrc[i].name, name)) return;
  if (NOptionSrc == FC_OPTION_SOURCES) return; /* named as "options: -NAME" then */
  snprintf(OptionSrc[NOptionSrc].name, sizeof OptionSrc[NOptionSrc].name, "%s", name);
  snprintf(OptionSrc[NOptionSrc].path, sizeof OptionSrc[NOptionSrc].path, "%s", path);
  NOptionSrc++;
}

/* The record of option `name` (-1: the case did not set it). */
static int OptionSource_Private(const char *name)
{
  for (int i = 0; name && i < NOptionSrc; i++)
    if (SameOption_Private(OptionSrc[i].name, name)) return i;
  return -1;
}

/* ---- the user's options that nothing used --------------------------------------------------
 * PETSc marks an option used when any code asks for it (every PetscOptionsGet*, PetscOptionsHasName,
 * an object's SetFromOptions), per process; PetscOptionsLeftGet lists those never asked for. The
 * user's options are the command line's that nothing had used when fcsim took over
 * (FcOptionsRecordUser) and the case's (FcOptionSourceAdd); what fcsim sets itself (a solver
 * variant's options, fclib compare, study compare) is neither and is never reported. */
#define FC_OPTION_USER 128
static struct {
  char      name[128];
  PetscBool argv; /* a word of the command line, else PETSC_OPTIONS, an options file or .petscrc */
} OptionUser[FC_OPTION_USER];
static int NOptionUser;

/* The options PETSc 3.18 reads only inside PetscFinalize (src/sys/objects/pinit.c; -log_view's
 * sub-options in PetscLogView), after any check of a command: reporting them would be wrong. */
static const char *const FinalizeOptions[] = {"options_left", "options_view", "malloc_dump", "malloc_view", "malloc_debug", "malloc_test", "memory_view",
  "objects_dump", "log_view", "log_view_memory", "log_view_gpu_time", "log_all", "log", "log_mpe", "get_total_flops", "mpidump", "citations", "x_virtual",
  "saw_options", "nox", "nox_warning", "no_signal_handler", "mpi_linear_solver_server"};

static PetscBool FinalizeOption_Private(const char *name) /* without the dash */
{
  for (size_t k = 0; k < sizeof FinalizeOptions / sizeof FinalizeOptions[0]; k++)
    if (SameOption_Private(name, FinalizeOptions[k])) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscErrorCode FcOptionsRecordUser(int argc, char **argv)
{
  PetscInt n;
  char   **names, **values;

  PetscFunctionBegin;
  NOptionUser = 0;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n && NOptionUser < FC_OPTION_USER; i++) {
    if (strlen(names[i]) + 1 >= sizeof OptionUser[0].name || FinalizeOption_Private(names[i])) continue;
    snprintf(OptionUser[NOptionUser].name, sizeof OptionUser[0].name, "-%s", names[i]);
    OptionUser[NOptionUser].argv = PETSC_FALSE;
    for (int k = 1; k < argc; k++)
      if (argv[k] && argv[k][0] == '-' && SameOption_Private(argv[k] + 1, names[i])) OptionUser[NOptionUser].argv = PETSC_TRUE;
    NOptionUser++;
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOptionsHas(const char *name, PetscBool *set)
{
  PetscInt n;
  char   **names, **values;

  PetscFunctionBegin;
  if (name[0] == '-') name++;
  /* used (it is there), or there and never used */
  PetscCall(PetscOptionsUsed(NULL, name, set));
  if (*set) PetscFunctionReturn(0);
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n && !*set; i++) *set = SameOption_Private(names[i], name);
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(0);
}

/* Prefixes of options that are configuration of a part this run did not use (a contact solver
 * other than the run's: a case carries the parameters of the solvers its studies compare,
 * cases/masonry_arch.json sap's for `study compare --solvers newton,sap`): still recorded in run.h5
 * as unused, not warned about. Set by the owning module (FcContactSolverDormantOptions). */
#define FC_OPTION_DORMANT 32
static char DormantPrefix[FC_OPTION_DORMANT][FC_NAME_LEN + 32];
static int  NDormant;

void FcOptionsDormant(const char *prefix)
{
  if (prefix[0] == '-') prefix++;
  for (int k = 0; k < NDormant; k++)
    if (!strcmp(DormantPrefix[k], prefix)) return;
  if (NDormant < FC_OPTION_DORMANT && strlen(prefix) < sizeof DormantPrefix[0]) strcpy(DormantPrefix[NDormant++], prefix);
}

static PetscBool Dormant_Private(const char *name)
{
  if (name[0] == '-') name++;
  for (int k = 0; k < NDormant; k++) {
    const char *a = name, *b = DormantPrefix[k];
    for (; *a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b); a++, b++) continue;
    if (!*b) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* The last report, as arrays of pointers: the names (into OptionUser, OptionSrc), the sources (a
 * literal, or a case's file and JSON path composed here). */
static char        CaseSource[FC_OPTION_SOURCES][PETSC_MAX_PATH_LEN + 264];
static const char *UnusedNames[FC_OPTION_USER + FC_OPTION_SOURCES], *UnusedSources[FC_OPTION_USER + FC_OPTION_SOURCES];

/* unused[k]: whether candidate k (the recorded command-line options, then the case's) is unused on
 * this process; then on every process (several ranks: PETSc's used flags are each process's own,
 * and a code path of one rank, rank 0's contact solve, may read an option the others do not). */
static PetscErrorCode UnusedOnEveryRank_Private(int nc, int *unused)
{
  PetscInt    n;
  char      **names, **values;
  PetscMPIInt size;
  int         cnt[2] = {nc, -nc};

  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (int k = 0; k < nc; k++) {
    const char *name = k < NOptionUser ? OptionUser[k].name : OptionSrc[k - NOptionUser].name;
    unused[k]        = 0;
    for (PetscInt i = 0; i < n && !unused[k]; i++) unused[k] = SameOption_Private(names[i], name + 1) && !FinalizeOption_Private(names[i]);
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) PetscFunctionReturn(0);
  /* every rank holds the same candidates (the same command line and case); were they to differ,
   * rank 0's own view stands rather than a reduction of unlike lists */
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, cnt, 2, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  if (cnt[0] == -cnt[1] && nc) PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, unused, nc, MPI_INT, MPI_LAND, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

PetscErrorCode FcOptionsReportUnused(const char *what, PetscInt *n, const char *const **names, const char *const **sources)
{
  int  unused[FC_OPTION_USER + FC_OPTION_SOURCES], nc = NOptionUser + NOptionSrc, m = 0;
  char raw[sizeof CaseSource[0] + 512], line[2 * sizeof raw];

  PetscFunctionBegin;
  PetscCall(UnusedOnEveryRank_Private(nc, unused));
  for (int k = 0; k < nc; k++) {
    if (!unused[k]) continue;
    if (k < NOptionUser) {
      UnusedNames[m]   = OptionUser[k].name;
      UnusedSources[m] = OptionUser[k].argv ? "command line" : "PETSC_OPTIONS, an options file or .petscrc";
    } else {
      const int i = k - NOptionUser;
      if (snprintf(CaseSource[i], sizeof CaseSource[i], "%s: %s", OptionFile, OptionSrc[i].path) < 0) CaseSource[i][0] = 0;
      UnusedNames[m]   = OptionSrc[i].name;
      UnusedSources[m] = CaseSource[i];
    }
    /* a longer line is cut (its return value says so): it is a warning */
    if (snprintf(raw, sizeof raw, "fcsim: warning: option %s (%s) was never used by %s", UnusedNames[m], UnusedSources[m], what) < 0) raw[0] = 0;
    Escape_Private(raw, line, sizeof line);
    if (!FcRank_Private() && !Dormant_Private(UnusedNames[m])) fprintf(stderr, "%s\n", line);
    m++;
  }
  if (m) fflush(stderr);
  if (n) *n = m;
  if (names) *names = UnusedNames;
  if (sources) *sources = UnusedSources;
  PetscFunctionReturn(0);
}

PetscErrorCode FcInputError(const char *where, const char *path, const char *fmt, ...)
{
  char    msg[2048], raw[PETSC_MAX_PATH_LEN + 2560], line[2 * (PETSC_MAX_PATH_LEN + 2560)];
  va_list ap;
  int     k;

  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* an option fcsim's own code found bad ("options", "-NAME"): named by the case's JSON path when
   * the case's "petsc" object set it */
  if (where && !strcmp(where, "options") && (k = OptionSource_Private(path)) >= 0)
    snprintf(raw, sizeof raw, "%s: %s: %s: %s", OptionFile, OptionSrc[k].path, path, msg);
  else if (path && path[0]) snprintf(raw, sizeof raw, "%s: %s: %s", where ? where : "fcsim", path, msg);
  else snprintf(raw, sizeof raw, "%s: %s", where ? where : "fcsim", msg);
  Escape_Private(raw, line, sizeof line);
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

static PetscMPIInt FcRank_Private(void)
{
  PetscMPIInt rank = 0;
  if (PetscInitializeCalled) (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  return rank;
}

/* The line of a bad option value: "FILE: petsc.KEY: -NAME 'VALUE' ..." when a case set it, else
 * "options: -NAME: 'VALUE' ..." (the command line, or not found: then no name). */
static void OptionLine_Private(const char *name, const char *value, const char *what)
{
  char      raw[PETSC_MAX_PATH_LEN + 2048], line[2 * (PETSC_MAX_PATH_LEN + 2048)];
  const int i = name[0] ? OptionSource_Private(name) : -1;

  if (i >= 0) snprintf(raw, sizeof raw, "%s: %s: %s '%s' %s", OptionFile, OptionSrc[i].path, name, value, what);
  else if (name[0]) snprintf(raw, sizeof raw, "options: %s: '%s' %s", name, value, what);
  else snprintf(raw, sizeof raw, "options: '%s', the value of an option, %s", value, what);
  Escape_Private(raw, line, sizeof line);
  /* every rank reads the same options (the command line's, the case's) into objects made on every
   * rank, and raises the same error: rank 0 prints it, as an input error */
  if (FcRank_Private()) return;
  fprintf(stderr, "%s\n", line);
  fflush(stderr);
}

/* The option of the database whose value is `value` (the first; with type, only names ending in
 * "_type"), into name ("" when none): PETSc's messages name the value, not the option. A value
 * with a space is not found. */
static void OptionByValue_Private(const char *value, PetscBool type, char *name, size_t len)
{
  char *all = NULL;

  name[0] = 0;
  if (PetscOptionsGetAll(NULL, &all) || !all) return;
  {
    const char *prev = NULL, *t = all;
    for (char *c = all;; c++) {
      const PetscBool end = *c ? PETSC_FALSE : PETSC_TRUE;
      if (*c && *c != ' ') continue;
      *c = 0;
      if (*t && prev && prev[0] == '-' && !strcmp(t, value)) {
        const size_t n = strlen(prev);
        if (!type || (n > 5 && !strcmp(prev + n - 5, "_type"))) {
          snprintf(name, len, "%s", prev);
          break;
        }
      }
      if (*t) prev = t;
      t = c + 1;
      if (end) break;
    }
  }
  (void)PetscFree(all);
}

/* A PETSc option whose value is not of its kind (-ksp_rtol abc, -fc_contact_solver_max_it x, on
 * the command line or from a case's "petsc" object) is bad input: PETSc raises it while converting
 * the string, in one of these functions, with a message that names the value but not the option.
 * The option is found in the database by its value, and the line names it (and the case's JSON
 * path when a case set it), exit 2. Returns whether it was such an error (printed). */
static PetscBool BadOptionValue_Private(const char *fun, const char *mess)
{
  static const struct {
    const char *fun, *before, *after, *kind;
  } conv[] = {
    {"PetscOptionsStringToInt", "Input string ", " has no integer value", "is not an integer"},
    {"PetscOptionsStringToReal", "Input string ", " has no numeric value", "is not a number"},
    {"PetscOptionsStringToScalar", "Input string ", " has no numeric value", "is not a number"},
    {"PetscOptionsStringToBool", "Unknown logical value: ", NULL, "is not true or false"},
  };
  char        value[256] = "", name[256];
  const char *v, *e;
  size_t      k;

  for (k = 0; k < sizeof conv / sizeof conv[0]; k++)
    if (fun && !strcmp(fun, conv[k].fun)) break;
  if (k == sizeof conv / sizeof conv[0] || !mess || !(v = strstr(mess, conv[k].before))) return PETSC_FALSE;
  v += strlen(conv[k].before);
  e = conv[k].after ? strstr(v, conv[k].after) : v + strlen(v);
  if (!e) return PETSC_FALSE;
  snprintf(value, sizeof value, "%.*s", (int)PetscMin((size_t)(e - v), sizeof value - 1), v);
  OptionByValue_Private(value, PETSC_FALSE, name, sizeof name);
  OptionLine_Private(name, value, conv[k].kind);
  return PETSC_TRUE;
}

/* An unknown type given by an option (-ksp_type cgg, -pc_type jacobbi, -pc_factor_mat_solver_type
 * mumpss, -pc_factor_mat_ordering_type xx, or the same from a case's "petsc" object) is bad input
 * too: PETSc raises it when the object takes its type (unknown type, missing factorization package,
 * or "Unknown or unregistered type" out of range), naming the value. It is an input error only
 * when an option named *_type holds a word of the message (a type set by fcsim's own code is not
 * the user's input and stays a failure of the run). Returns whether it was such an error (printed). */
static PetscBool UnknownTypeOption_Private(PetscErrorCode n, const char *mess)
{
  char name[256] = "", word[256], what[1024], msg[768];

  if (!mess || !(n == PETSC_ERR_ARG_UNKNOWN_TYPE || n == PETSC_ERR_MISSING_FACTOR || (n == PETSC_ERR_ARG_OUTOFRANGE && strstr(mess, "type"))))
    return PETSC_FALSE;
  for (const char *c = mess; *c && !name[0];) {
    size_t w = 0;
    while (*c == ' ' || *c == ':' || *c == ',' || *c == '.') c++;
    while (c[w] && c[w] != ' ' && c[w] != ':' && c[w] != ',') w++;
    if (w && w < sizeof word) {
      memcpy(word, c, w);
      word[w] = 0;
      if (word[w - 1] == '.') word[w - 1] = 0;
      if (word[0]) OptionByValue_Private(word, PETSC_TRUE, name, sizeof name);
    }
    c += w;
  }
  if (!name[0]) return PETSC_FALSE;
  OneLine_Private(mess, msg, sizeof msg);
  snprintf(what, sizeof what, "is not a type PETSc has here (PETSc: %s)", msg);
  OptionLine_Private(name, word, what);
  return PETSC_TRUE;
}

int FcErrorOnEveryRank = 0;

/* Every error is ONE line on stderr, printed where it is raised (PETSC_ERROR_INITIAL); the
 * frames it passes through on its way up print nothing.
 *  - input errors (FC_ERR_INPUT): the message is the whole line "FILE: PATH: message";
 *  - an interrupt (PETSC_ERR_SIG): "fcsim: interrupted ...";
 *  - anything else, a failure of the run: "fcsim: error: <message> (in <function>)" and how to
 *    see more. PETSc's traceback (with its configure options) only with -fc_debug; with
 *    -on_error_abort PETSc's own handler stays in place (FcPushErrorHandler). */
static PetscErrorCode FcErrorHandler_Private(
  MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  char        msg[4096];
  const char *text = NULL;

  if (n == FC_ERR_INPUT) {
    PetscMPIInt rank = 0;
    /* under mpiexec every rank reads the same input and raises the same error: rank 0 prints it */
    if (PetscInitializeCalled) (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
    if (p == PETSC_ERROR_INITIAL && mess && !rank) {
      fprintf(stderr, "%s\n", mess);
      fflush(stderr);
    }
    return n;
  }
  if (fc_debug) return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
  if (p != PETSC_ERROR_INITIAL) return n;
  if (BadOptionValue_Private(fun, mess) || UnknownTypeOption_Private(n, mess)) return FC_ERR_INPUT;
  if (!mess || !mess[0]) (void)PetscErrorMessage(n, &text, NULL);
  OneLine_Private(mess && mess[0] ? mess : (text ? text : "unknown error"), msg, sizeof msg);
  if (n == PETSC_ERR_SIG) {
    PetscMPIInt rank = 0;
    (void)MPI_Comm_rank(PETSC_COMM_WORLD, &rank); /* under mpiexec every rank is interrupted */
    if (!rank) fprintf(stderr, "fcsim: %s; nothing was kept\n", msg);
    FcInterruptReported = 1;
  } else if (!FcErrorOnEveryRank || !FcRank_Private()) fprintf(stderr, "fcsim: error: %s (in %s; -fc_debug shows PETSc's traceback)\n", msg, fun ? fun : "?");
  FcErrorOnEveryRank = 0;
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

PetscBool FcFileReadable(const char *path) { return access(path, R_OK) == 0 ? PETSC_TRUE : PETSC_FALSE; }
