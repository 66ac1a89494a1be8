/* fcsim — which PETSc options a case file may carry (petsc_opts.h). */
#include "petsc_opts.h"
#include <ctype.h>
#include <string.h>

/* Options fcsim refuses from a case with a reason of their own (the family rule would refuse
 * them too, with a vaguer one): what they do beyond configuring a solver. */
static const struct {
  const char *prefix, *why;
} named[] = {
  {"fc_mesh_geo_unsandboxed", "is a safety switch that only the command line may turn off"},
  {"fc_mesh_skip_script_check", "is a safety switch that only the command line may turn off"},
  {"fc_mesh_timeout", "is read from the command line only (-fc_mesh_timeout SECONDS): a case sets no limit of the sandbox"},
  {"options_file", "reads another file (its options)"},
  {"options_string", "inserts other options"},
  {"prefix_push", "renames the options that follow"},
  {"start_in_debugger", "starts a program (a debugger)"},
  {"on_error_attach_debugger", "starts a program (a debugger)"},
  {"stop_for_debugger", "waits for a debugger"},
  {"debugger", "starts a program (a debugger)"},
  {"display", "opens a window on an X display"},
  {"log", "writes a log (to a file or the terminal)"},
  {"history", "writes a file (the options history)"},
  {"info", "writes PETSc's information messages (to a file or the terminal)"},
  {"malloc", "sets up PETSc's memory debugging and its reports"},
  {"memory_view", "writes a memory report"},
  {"objects_dump", "writes a report of the objects left"},
  {"options_view", "writes the options"},
  {"options_left", "writes the unused options"},
  {"options_monitor", "writes every option set"},
  {"viewer", "sets up PETSc's viewers (file names, formats)"},
  {"draw", "opens a drawing window"},
  {"saws", "starts a web server (SAWs)"},
  {"python", "loads Python code"},
  {"on_error", "changes what happens on an error"},
};

/* Name parts that name a file, a drawing or a channel, wherever they stand in an option. */
static const char *const dest_tokens[] = {"file", "filename", "files", "dir", "dirname", "template", "dump", "save", "load", "trajectory", "draw", "lg", "plot",
  "binary", "hdf5", "vtk", "matlab", "mathematica", "socket", "saws", "glvis", "python", "debugger", "exodusii", "adios"};

static const char *const families[] = {"ksp", "pc", "mat", "snes", "ts", "tao"};

/* The number of characters of a prefix at k (sub_, redundant_, mg_coarse_, mg_levels_[N_],
 * fieldsplit_<name>_, telescope_), or 0. */
static size_t Prefix_Private(const char *k)
{
  static const char *const fixed[] = {"sub_", "redundant_", "mg_coarse_", "telescope_", "bjacobi_", "asm_", "gasm_"};
  size_t                   n;

  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    if (!strncmp(k, fixed[i], strlen(fixed[i]))) return strlen(fixed[i]);
  if (!strncmp(k, "mg_levels_", 10)) {
    n = 10;
    if (isdigit((unsigned char)k[n])) {
      size_t d = n;
      while (isdigit((unsigned char)k[d])) d++;
      if (k[d] == '_') n = d + 1;
    }
    return n;
  }
  if (!strncmp(k, "fieldsplit_", 11)) {
    n = 11;
    while (isalnum((unsigned char)k[n])) n++;
    return (n > 11 && k[n] == '_') ? n + 1 : 0;
  }
  return 0;
}

/* k starts with a family token ("ksp_", ...). */
static PetscBool Family_Private(const char *k)
{
  for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
    size_t n = strlen(families[i]);
    if (!strncmp(k, families[i], n) && k[n] == '_' && k[n + 1]) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* The token `tok` is one of the '_'-separated parts of s. */
static PetscBool HasToken_Private(const char *s, const char *tok)
{
  size_t n = strlen(tok);
  for (const char *p = s; (p = strstr(p, tok)); p++)
    if ((p == s || p[-1] == '_') && (p[n] == '_' || !p[n])) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* A value that names a place (a viewer spec type:file:format, or a path). */
static PetscBool PathLike_Private(const char *v)
{
  return (PetscBool)(strchr(v, ':') || v[0] == '/' || v[0] == '~' || !strncmp(v, "./", 2) || !strncmp(v, "../", 3) || !strcmp(v, ".") || !strcmp(v, ".."));
}

PetscErrorCode FcCasePetscOptionCheck(const char *file, const char *path, const cJSON *item, PetscBool *view, char *format, size_t len)
{
  char        k[256];
  const char *tail = NULL, *v = cJSON_IsString(item) ? item->valuestring : NULL;
  size_t      n = strlen(item->string);

  PetscFunctionBegin;
  *view     = PETSC_FALSE;
  format[0] = 0;
  /* PETSc's option names do not depend on case (-KSP_VIEW is -ksp_view) */
  FcCheckInput(n < sizeof k, file, path, "option name too long (%zu characters)", n);
  for (size_t i = 0; i <= n; i++) k[i] = (char)tolower((unsigned char)item->string[i]);
  if (cJSON_IsFalse(item)) PetscFunctionReturn(0); /* dropped: sets nothing */
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
    size_t m = strlen(named[i].prefix);
    if (!strncmp(k, named[i].prefix, m) && (k[m] == 0 || k[m] == '_'))
      return FcInputError(file, path,
        "-%s %s: a case file may only configure solvers (ksp_, pc_, mat_, snes_, ts_, tao_ and fcsim's fc_ options); give it on the command line", k,
        named[i].why);
  }
  if (!strncmp(k, "fc_", 3)) {
    /* fcsim's own options; an inner solver's (fc_contact_solver_sap_ksp_view) from its family on */
    for (const char *p = k + 3; *p && !tail; p++)
      if (p[-1] == '_' && Family_Private(p)) tail = p;
  } else {
    const char *p = k;
    size_t      m;
    while (!Family_Private(p) && (m = Prefix_Private(p))) p += m;
    if (!Family_Private(p))
      return FcInputError(file, path,
        "-%s is not a solver option: a case file may only configure solvers (ksp_, pc_, mat_, snes_, ts_, tao_ options, possibly after sub_, mg_levels_, fieldsplit_<name>_ prefixes, and fcsim's fc_ options); give it on the command line",
        k);
    tail = p;
  }
  for (size_t i = 0; i < sizeof dest_tokens / sizeof dest_tokens[0]; i++)
    if (HasToken_Private(k, dest_tokens[i]))
      return FcInputError(file, path,
        "-%s names a file, a drawing or a channel (\"%s\"): a case file may not read or write anything outside the run's folder; give it on the command line",
        k, dest_tokens[i]);
  if (tail && (HasToken_Private(tail, "view") || HasToken_Private(tail, "monitor") || strstr(tail, "converged_reason") || strstr(tail, "converged_rate")) &&
    !HasToken_Private(tail, "cancel") && !HasToken_Private(tail, "pause")) {
    /* a viewer: PETSc's value is type[:file[:format[:mode]]]; only the default (ascii) with no
     * file and perhaps a format, which fcsim points at the run's folder */
    const char *fmt = NULL;
    if (cJSON_IsTrue(item) || (v && (!v[0] || !strcmp(v, "ascii")))) fmt = "";
    else if (v && (!strncmp(v, "ascii::", 7) || !strncmp(v, "::", 2))) fmt = strstr(v, "::") + 2;
    if (fmt)
      for (const char *c = fmt; *c; c++)
        if (!(islower((unsigned char)*c) || *c == '_')) fmt = NULL;
    if (!fmt) {
      char shown[128];
      snprintf(shown, sizeof shown, "%s", v ? v : cJSON_IsNumber(item) ? "a number" : "?");
      return FcInputError(file, path,
        "-%s \"%s\" names a destination: in a case file a view goes into the run's own folder (<run>/petsc/%s.txt); give true, \"ascii\" or \"ascii::FORMAT\", or give other destinations on the command line",
        k, shown, k);
    }
    PetscCall(PetscStrncpy(format, fmt, len));
    *view = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  if (v && PathLike_Private(v))
    return FcInputError(file, path,
      "-%s \"%s\": a value with ':' or a leading '/', '~', \"./\" or \"../\" names a file or a viewer, which a case file may not; give it on the command line",
      k, v);
  PetscFunctionReturn(0);
}
