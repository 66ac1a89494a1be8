/* The command line: a table of commands, each with its own options, checks, help and main.
 *
 * A command (`run`, `fclib solve`, ...) is one FcCliCommand, defined in a file of this folder
 * and named by one line of FC_CLI_COMMANDS (cli.c), which fixes the order of `fcsim --help`.
 * The generic parser (cli.c) takes what every command shares: `--help`, `-q`, `-v`, the
 * `-fc_mesh_*` options, `--set`, `-o`, `--overwrite`, `--force` (each where the command's flags
 * allow it), positional files and PETSc options (any other `-word`, with its value). An option
 * of a sibling command (`fcsim study compare ... --levels`) is refused as belonging to it. */
#ifndef FC_CLI_H
#define FC_CLI_H
#include "../core/fc.h"
#include "../io/trajectory.h"

typedef struct FcCliCommand FcCliCommand;

typedef struct {
  const FcCliCommand *command;     /* the command FcCliParse found */
  const char         *group, *sub; /* "fclib", "solve"; a command without subcommands: sub NULL */
  const char         *casefile;    /* the first positional argument (case, FCLIB file or log) */
  int                 nfiles;      /* every positional argument (fclib compare takes several) */
  const char        **files;
  const char         *outdir;    /* -o */
  PetscBool           overwrite; /* --overwrite */
  PetscBool           force;     /* --force: run what the size estimate refuses */
  int                 nsets;     /* --set PATH=VALUE */
  const char        **sets;
  int                 pargc; /* argv[0] and the PETSc options, for PetscInitialize */
  char              **pargv;
  char               *cmdline; /* the whole command line, recorded in the outputs */
  char              **envp;    /* the environment as received (study refine's runs), or NULL */
  /* the commands' own options */
  const char         *solver, *solvers, *format;                     /* fclib */
  PetscBool           accept_regularized;                            /* fclib: --accept-regularized */
  double              tol;                                           /* fclib: < 0 when not given */
  long                max_it;                                        /* fclib: < 0 when not given */
  const char         *levels, *bodies, *reference, *quantity, *over; /* study refine */
  int                 naxes;                                         /* study compare: --axis NAME=V1,V2,... */
  const char         *axes[8];
  double              scale_x, scale_y;
  long                jobs;
  const char         *mpiexec; /* study: --mpiexec "LAUNCHER ARGS" for every run */
  FcTrajectoryOptions traj;    /* trajectory check */
  double              rate;
} FcCli;

/* What the generic parser accepts for a command (and which common options its --help lists). */
enum {
  FC_CLI_SET   = 1 << 0, /* --set PATH=VALUE */
  FC_CLI_OUT   = 1 << 1, /* -o and --overwrite */
  FC_CLI_FORCE = 1 << 2, /* --force */
  FC_CLI_FILES = 1 << 3, /* more than one positional file */
  FC_CLI_ENV   = 1 << 4, /* starts fcsim processes: keep a copy of the environment (FcCli.envp) */
  FC_CLI_CASE  = 1 << 5, /* reads a case (its meshes): the -fc_mesh_* options are documented */
  FC_CLI_FCLIB = 1 << 6, /* --accept-regularized is documented */
  /* reads the PETSc options in this process: those the user gave and nothing used are a warning
   * each at its end (FcOptionsReportUnused). Not `run` (it reports them itself, before run.h5 is
   * closed), nor `info` (no solver runs) nor `study` (its runs take the options, each warns in
   * its log and records them in its run.h5) */
  FC_CLI_UNUSED = 1 << 7
};

typedef struct {
  const char *name; /* "--tol" */
  const char *arg;  /* its value's name ("T"), NULL for a flag */
  /* Takes the value (NULL for a flag); prints one line and returns FC_EXIT_INPUT when it is bad. */
  int (*take)(FcCli *a, const char *name, const char *value);
} FcCliOption;

struct FcCliCommand {
  const char        *group, *sub;                  /* "study", "refine" (sub NULL: `fcsim run`) */
  const char        *synopsis;                     /* for "X needs a subcommand: ...": "study refine CASE.json --levels 0,1,2" */
  const char        *file;                         /* the positional argument's name: "CASE.json", "FILE.hdf5", "LOG" */
  const char        *usage;                        /* usage line(s), without "usage: " */
  const char        *help;                         /* what it does (the paragraph of --help) */
  unsigned           flags;                        /* FC_CLI_* */
  const FcCliOption *options;                      /* its own options, ended by {NULL} */
  int (*check)(FcCli *a);                          /* after parsing (NULL: none); FC_EXIT_INPUT with one line */
  PetscErrorCode (*main)(FcCli *a, PetscBool *ok); /* after PetscInitialize */
};

/* Parses argv into *a (a is always set: free it with FcCliFree). Returns 0 to go on, -1 when
 * done (--help, --version printed: exit 0), or an exit status (one line printed). */
int  FcCliParse(int argc, char **argv, FcCli *a);
void FcCliFree(FcCli *a);
/* The parsed command's main (after PetscInitialize). */
PetscErrorCode FcCliExecute(FcCli *a, PetscBool *ok);
/* Whether the parsed command needs a copy of the environment taken before MPI starts. */
PetscBool FcCliNeedsEnvironment(const FcCli *a);
/* The types every case-reading command uses (materials, contact solvers, compliance). */
PetscErrorCode FcCliRegisterTypes(void);
/* Shared by the commands' option parsers: a number, or one line and FC_EXIT_INPUT. */
int FcCliPositive(const char *name, const char *value, double *v);
#endif
