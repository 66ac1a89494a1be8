/* The command line's generic part: which command, the options every command shares, help.
 * The commands themselves are in cmd_*.c (cli.h). */
#include "cli.h"
#include "../mesh/mesh.h"
#include "../fem/material.h"
#include "../contact/solver.h"
#include "../compliance/compliance.h"
#include <errno.h>
#include <math.h>
#include <string.h>

/* Every command, one line each, in the order of `fcsim --help`. */
#define FC_CLI_COMMANDS(X) \
  X(FcCliCommandRun) \
  X(FcCliCommandInfo) \
  X(FcCliCommandFCLIBSolve) \
  X(FcCliCommandFCLIBCompare) \
  X(FcCliCommandStudyCompare) \
  X(FcCliCommandStudyRefine) \
  X(FcCliCommandTrajectoryCheck)

#define FC_CLI_DECLARE(c) extern const FcCliCommand c;
#define FC_CLI_ENTRY(c)   &c,
FC_CLI_COMMANDS(FC_CLI_DECLARE)
static const FcCliCommand *const commands[] = {FC_CLI_COMMANDS(FC_CLI_ENTRY)};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

/* The options the generic parser takes, with the commands (flags) whose --help lists them. */
static const struct {
  unsigned    flags; /* 0: every command */
  const char *text;
} common_help[] = {
  {FC_CLI_SET,
    "  --set PATH=VALUE   override a case value by JSON path, e.g. --set bodies[0].material.E=2e6\n"
    "                     --set time.dt=0.01 (VALUE is JSON, or a plain string)\n"},
  {FC_CLI_OUT,
    "  -o OUTDIR          output directory; fcsim replaces only a folder it wrote itself (or an\n"
    "                     empty one), never a file, and keeps a failed run in OUTDIR.failed-<pid>\n"
    "  --overwrite        with -o: also replace a folder fcsim did not write (never a file)\n"},
  {FC_CLI_FCLIB,
    "  --accept-regularized  fclib: a regularized solver's answer (sap) whose common error is above\n"
    "                     --tol counts as converged up to 1e-2 (-fc_contact_solver_accept_regularized E)\n"},
  {FC_CLI_FORCE,
    "  --force            run (or show) a case whose size estimate exceeds this machine: memory,\n"
    "                     free disk space of the output folder, or 30 days at the least\n"},
  {0,
    "  -q                 no progress lines\n"
    "  -v                 more detail: for FCLIB files, one line per matrix saying how it is stored\n"
    "                     (compressed columns or rows, or triplets and which convention was detected)\n"
    "  -fc_debug          PETSc's traceback with every error (otherwise one line)\n"},
  {FC_CLI_CASE,
    "  -fc_mesh_timeout S  a .geo script is meshed in a sandboxed process, stopped after S seconds\n"
    "                     (default 300; doc/mesh.md, \"The sandbox\")\n"
    "  -fc_mesh_geo_unsandboxed  run .geo scripts inside fcsim, without the sandbox (only where\n"
    "                     none can be set up: a script may then run commands and write files)\n"},
  {0,
    "  PETSc options      passed to PETSc (they override the case's \"petsc\" object), e.g.\n"
    "                     -ksp_type cg -pc_type gamg, -log_view, -options_left; options with a\n"
    "                     value go after CASE.json; one that nothing read (a misspelling) is a\n"
    "                     warning at the end\n"},
};
static const char exit_help[] = "exit status: 0 success, 1 run failed, 2 bad input, 130 interrupted\n";

/* `fcsim --help` (cmd NULL), `fcsim GROUP --help` (group) or `fcsim GROUP [SUB] --help`. */
static void Help_Private(const char *group, const FcCliCommand *cmd)
{
  int first = 1;
  for (size_t k = 0; k < NCOMMANDS; k++) {
    if ((cmd && commands[k] != cmd) || (group && strcmp(commands[k]->group, group))) continue;
    printf("%s%s", first ? "usage: " : "       ", commands[k]->usage);
    first = 0;
  }
  if (!cmd && !group) printf("       fcsim --help | --version\n");
  printf("\n");
  for (size_t k = 0; k < NCOMMANDS; k++)
    if ((!cmd || commands[k] == cmd) && (!group || !strcmp(commands[k]->group, group))) fputs(commands[k]->help, stdout);
  for (size_t k = 0; k < sizeof common_help / sizeof common_help[0]; k++) {
    unsigned flags = 0;
    for (size_t j = 0; j < NCOMMANDS; j++)
      if ((!cmd || commands[j] == cmd) && (!group || !strcmp(commands[j]->group, group))) flags |= commands[j]->flags;
    if (!common_help[k].flags || (common_help[k].flags & flags)) fputs(common_help[k].text, stdout);
  }
  fputs(exit_help, stdout);
}

int FcCliPositive(const char *name, const char *value, double *v)
{
  char *end = NULL;
  *v        = strtod(value, &end);
  if (*end || !value[0] || !isfinite(*v) || !(*v > 0)) {
    fprintf(stderr, "fcsim: command line: %s %s: must be a finite positive number\n", name, value);
    return FC_EXIT_INPUT;
  }
  return 0;
}

/* The command named by argv[1] (and argv[2] for a group with subcommands); *first: the index of
 * the first argument after it. NULL with *rc set: a line was printed (or help, rc -1). */
static const FcCliCommand *Select_Private(int argc, char **argv, int *first, int *rc)
{
  const char *group = argv[1];
  PetscBool   known = PETSC_FALSE, subs = PETSC_FALSE;
  *rc = FC_EXIT_INPUT;
  for (size_t k = 0; k < NCOMMANDS; k++)
    if (!strcmp(commands[k]->group, group)) {
      known = PETSC_TRUE;
      if (commands[k]->sub) subs = PETSC_TRUE;
      else {
        *first = 2;
        return commands[k];
      }
    }
  if (!known) {
    fprintf(stderr, "fcsim: command line: unknown command '%s' (expected ", group);
    for (size_t k = 0; k < NCOMMANDS; k++)
      if (!k || strcmp(commands[k]->group, commands[k - 1]->group)) fprintf(stderr, "%s, ", commands[k]->group);
    fprintf(stderr, "--help, --version)\n");
    return NULL;
  }
  if (subs && argc >= 3 && !strcmp(argv[2], "--help")) {
    Help_Private(group, NULL);
    *rc = -1;
    return NULL;
  }
  for (size_t k = 0; argc >= 3 && k < NCOMMANDS; k++)
    if (!strcmp(commands[k]->group, group) && !strcmp(commands[k]->sub, argv[2])) {
      *first = 3;
      return commands[k];
    }
  fprintf(stderr, "fcsim: command line: %s needs a subcommand: ", group);
  for (size_t k = 0, n = 0; k < NCOMMANDS; k++)
    if (!strcmp(commands[k]->group, group)) fprintf(stderr, "%s%s", n++ ? " | " : "", commands[k]->synopsis);
  fprintf(stderr, "\n");
  return NULL;
}

static const FcCliOption *FindOption_Private(const FcCliCommand *cmd, const char *name)
{
  for (const FcCliOption *o = cmd->options; o && o->name; o++)
    if (!strcmp(o->name, name)) return o;
  return NULL;
}

/* The command's own option at argv[*i], or a sibling's (refused). 1: neither. */
static int TakeOwn_Private(const FcCliCommand *cmd, int argc, char **argv, int *i, FcCli *a)
{
  const char         *s     = argv[*i];
  const FcCliOption  *o     = FindOption_Private(cmd, s);
  const FcCliCommand *owner = cmd;
  /* --set=PATH=VALUE is --set too (a command that declares --set refuses both spellings) */
  if (!strncmp(s, "--set=", 6) && (o = FindOption_Private(cmd, "--set"))) return o->take(a, "--set", o->arg ? s + 6 : NULL);
  for (size_t k = 0; !o && cmd->sub && k < NCOMMANDS; k++)
    if (commands[k] != cmd && !strcmp(commands[k]->group, cmd->group) && (o = FindOption_Private(commands[k], s))) owner = commands[k];
  if (!o) return 1;
  if (o->arg && *i + 1 >= argc) {
    fprintf(stderr, "fcsim: command line: %s needs a value\n", s);
    return FC_EXIT_INPUT;
  }
  if (owner != cmd) {
    fprintf(stderr, "fcsim: command line: %s belongs to %s %s\n", s, owner->group, owner->sub);
    return FC_EXIT_INPUT;
  }
  return o->take(a, s, o->arg ? argv[++*i] : NULL);
}

/* fcsim's own -fc_mesh_* options (doc/mesh.md, "The sandbox"): read here, never from a case's
 * "petsc" object; also passed on to PETSc's list, so that study refine's runs get them. 1: not one. */
static int TakeMesh_Private(int argc, char **argv, int *i, FcCli *a)
{
  const char *s = argv[*i];
  if (!strcmp(s, "-fc_mesh_timeout")) {
    char  *end = NULL;
    double v;
    if (*i + 1 >= argc) {
      fprintf(stderr, "fcsim: command line: %s needs a number of seconds\n", s);
      return FC_EXIT_INPUT;
    }
    v = strtod(argv[*i + 1], &end);
    if (*end || !argv[*i + 1][0] || !isfinite(v) || !(v > 0) || v > 1e7) {
      fprintf(stderr, "fcsim: command line: %s %s: must be a number of seconds in (0, 1e7]\n", s, argv[*i + 1]);
      return FC_EXIT_INPUT;
    }
    FcMeshGeo.timeout    = v;
    a->pargv[a->pargc++] = argv[*i];
    a->pargv[a->pargc++] = argv[++*i];
    return 0;
  }
  if (!strcmp(s, "-fc_mesh_geo_unsandboxed") || !strcmp(s, "-fc_mesh_skip_script_check")) {
    if (!strcmp(s, "-fc_mesh_geo_unsandboxed")) FcMeshGeo.unsandboxed = PETSC_TRUE;
    else FcMeshGeo.skip_script_check = PETSC_TRUE;
    a->pargv[a->pargc++] = argv[*i];
    return 0;
  }
  return 1;
}

/* --set, -o, --overwrite, --force, -q, -v where the command's flags allow them. 1: none of them. */
static int TakeCommon_Private(const FcCliCommand *cmd, int argc, char **argv, int *i, FcCli *a)
{
  const char *s = argv[*i];
  if ((cmd->flags & FC_CLI_SET) && !strcmp(s, "--set")) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "fcsim: command line: --set needs PATH=VALUE\n");
      return FC_EXIT_INPUT;
    }
    a->sets[a->nsets++] = argv[++*i];
  } else if ((cmd->flags & FC_CLI_SET) && !strncmp(s, "--set=", 6)) {
    a->sets[a->nsets++] = s + 6;
  } else if (!strcmp(s, "-o")) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "fcsim: command line: -o needs a directory\n");
      return FC_EXIT_INPUT;
    }
    if (!(cmd->flags & FC_CLI_OUT)) {
      fprintf(stderr, "fcsim: command line: -o: fcsim %s%s%s writes no output\n", cmd->group, cmd->sub ? " " : "", cmd->sub ? cmd->sub : "");
      return FC_EXIT_INPUT;
    }
    a->outdir = argv[++*i];
  } else if (!strcmp(s, "--overwrite")) {
    if (!(cmd->flags & FC_CLI_OUT)) {
      fprintf(stderr, "fcsim: command line: --overwrite goes with -o (run, study, fclib solve)\n");
      return FC_EXIT_INPUT;
    }
    a->overwrite = PETSC_TRUE;
  } else if (!strcmp(s, "--force")) {
    if (!(cmd->flags & FC_CLI_FORCE)) {
      fprintf(stderr, "fcsim: command line: --force belongs to run, info and study (the size estimate of a case)\n");
      return FC_EXIT_INPUT;
    }
    a->force = PETSC_TRUE;
  } else if (!strcmp(s, "-q")) FcVerbosity = 0;
  else if (!strcmp(s, "-v")) FcVerbosity = 2;
  else return TakeMesh_Private(argc, argv, i, a);
  return 0;
}

/* Unknown long options, PETSc options and positional files. */
static int TakeRest_Private(const FcCliCommand *cmd, int argc, char **argv, int *i, FcCli *a)
{
  const char *s = argv[*i];
  if (!strncmp(s, "--", 2)) {
    fprintf(stderr, "fcsim: command line: unknown option '%s' (see fcsim --help)\n", s);
    return FC_EXIT_INPUT;
  }
  if (s[0] == '-' && s[1]) {
    /* A PETSc option takes the next word as its value when that word does not start with
     * '-'; before the case file is seen the next word is the case file, so PETSc options
     * written before CASE.json are flags. */
    a->pargv[a->pargc++] = argv[*i];
    if (a->casefile && *i + 1 < argc && argv[*i + 1][0] != '-') a->pargv[a->pargc++] = argv[++*i];
  } else if (!a->casefile) {
    a->casefile           = s;
    a->files[a->nfiles++] = s;
  } else if (cmd->flags & FC_CLI_FILES) {
    a->files[a->nfiles++] = s;
  } else {
    fprintf(stderr, "fcsim: command line: unexpected argument '%s' (one case file only)\n", s);
    return FC_EXIT_INPUT;
  }
  return 0;
}

static int Init_Private(int argc, char **argv, FcCli *a)
{
  size_t len = 1;
  memset(a, 0, sizeof *a);
  a->tol    = -1;
  a->max_it = -1;
  a->sets   = calloc((size_t)argc, sizeof *a->sets);
  a->files  = calloc((size_t)argc, sizeof *a->files);
  a->pargv  = calloc((size_t)argc + 1, sizeof *a->pargv);
  for (int i = 0; i < argc; i++) len += strlen(argv[i]) + 1;
  a->cmdline = calloc(len, 1);
  if (!a->sets || !a->files || !a->pargv || !a->cmdline) return FC_EXIT_RUN;
  for (int i = 0; i < argc; i++) {
    if (i) strcat(a->cmdline, " ");
    strcat(a->cmdline, argv[i]);
  }
  a->pargv[a->pargc++] = argv[0];
  return 0;
}

/* Our own arguments are taken out; everything else that starts with '-' is a PETSc option
 * (with its value when the next word does not start with '-'). */
int FcCliParse(int argc, char **argv, FcCli *a)
{
  const FcCliCommand *cmd;
  int                 first = 2, rc = Init_Private(argc, argv, a);
  if (rc) return rc;
  if (argc < 2) {
    fprintf(stderr, "fcsim: command line: missing command: fcsim run|info CASE.json, fcsim fclib|study|trajectory ... (fcsim --help for all)\n");
    return FC_EXIT_INPUT;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    Help_Private(NULL, NULL);
    return -1;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("fcsim %s\n", FcVersion());
    return -1;
  }
  if (!(cmd = Select_Private(argc, argv, &first, &rc))) return rc;
  a->group = cmd->group;
  a->sub   = cmd->sub;
  for (int i = first; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) {
      Help_Private(NULL, cmd);
      return -1;
    }
    if ((rc = TakeOwn_Private(cmd, argc, argv, &i, a)) != 1) {
      if (rc) return rc;
    } else if ((rc = TakeCommon_Private(cmd, argc, argv, &i, a)) != 1) {
      if (rc) return rc;
    } else if ((rc = TakeRest_Private(cmd, argc, argv, &i, a))) return rc;
  }
  if (!a->casefile) {
    fprintf(stderr, "fcsim: command line: missing %s\n", cmd->file);
    return FC_EXIT_INPUT;
  }
  if (cmd->check && (rc = cmd->check(a))) return rc;
  a->command = cmd;
  return 0;
}

PetscBool FcCliNeedsEnvironment(const FcCli *a) { return a->command && (a->command->flags & FC_CLI_ENV) ? PETSC_TRUE : PETSC_FALSE; }

void FcCliFree(FcCli *a)
{
  free(a->sets);
  free(a->files);
  free(a->pargv);
  free(a->cmdline);
  for (size_t i = 0; a->envp && a->envp[i]; i++) free(a->envp[i]);
  free(a->envp);
  memset(a, 0, sizeof *a);
}

PetscErrorCode FcCliRegisterTypes(void)
{
  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  PetscCall(FcContactSolverRegisterAll());
  PetscCall(FcComplianceRegisterAll());
  PetscFunctionReturn(0);
}

PetscErrorCode FcCliExecute(FcCli *a, PetscBool *ok)
{
  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCheck(a->command, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FcCliParse did not find a command");
  {
    /* Under mpiexec only `run` is distributed (doc/mpi.md; it refuses the features that are not
     * yet, src/run/run.c): any other command would be computed once per rank, each writing the
     * same files. Refused before anything is read; every rank raises it, rank 0 prints it. */
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (size > 1 && (strcmp(a->command->group, "run") || a->command->sub))
      return FcInputError("command line", "mpiexec",
        "fcsim %s%s%s runs as one process, and %d were started: only `fcsim run` runs on several (doc/mpi.md); run it without mpiexec", a->command->group,
        a->command->sub ? " " : "", a->command->sub ? a->command->sub : "", (int)size);
  }
  {
    PetscErrorCode ierr = a->command->main(a, ok);
    char           what[64];
    if (ierr || !(a->command->flags & FC_CLI_UNUSED)) return ierr;
    PetscCall(PetscSNPrintf(what, sizeof what, "fcsim %s%s%s", a->command->group, a->command->sub ? " " : "", a->command->sub ? a->command->sub : ""));
    PetscCall(FcOptionsReportUnused(what, NULL, NULL, NULL));
  }
  PetscFunctionReturn(0);
}
