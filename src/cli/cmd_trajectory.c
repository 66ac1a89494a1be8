/* fcsim trajectory check: a haptic device's log (src/io/trajectory.c, doc/trajectory.md). */
#include "cli.h"
#include <math.h>
#include <string.h>

/* --format, --units: checked by the loader */
static int String_Private(FcCli *a, const char *name, const char *v)
{
  if (!strcmp(name, "--format")) a->traj.format = v;
  else a->traj.units = v;
  return 0;
}

static int Positive_Private(FcCli *a, const char *name, const char *v)
{
  double x;
  if (FcCliPositive(name, v, &x)) return FC_EXIT_INPUT;
  if (!strcmp(name, "--rate")) a->rate = x;
  else a->traj.t_required = (PetscReal)x;
  return 0;
}

static int Window_Private(FcCli *a, const char *name, const char *v)
{
  char  *end = NULL;
  double t0 = strtod(v, &end), t1 = 0;
  (void)name;
  if (*end == ',') t1 = strtod(end + 1, &end);
  if (*end || !strchr(v, ',') || !isfinite(t0) || !isfinite(t1) || !(t1 > t0)) {
    fprintf(stderr, "fcsim: command line: --window %s: must be T0,T1 with T0 < T1 (seconds from the log's first sample)\n", v);
    return FC_EXIT_INPUT;
  }
  a->traj.window  = PETSC_TRUE;
  a->traj.t_begin = (PetscReal)t0;
  a->traj.t_end   = (PetscReal)t1;
  return 0;
}

/* It prints to stdout: the output options of the other commands are refused by name. */
static int Refuse_Private(FcCli *a, const char *name, const char *v)
{
  (void)a;
  (void)name;
  (void)v;
  fprintf(stderr, "fcsim: command line: trajectory check takes no --set, -o or --overwrite (it prints to stdout)\n");
  return FC_EXIT_INPUT;
}

static int Check_Private(FcCli *a)
{
  if (!a->traj.format) {
    fprintf(stderr, "fcsim: command line: trajectory check needs --format (fcsim, openhaptics, ros_pose, ros_jointstate)\n");
    return FC_EXIT_INPUT;
  }
  return 0;
}

static PetscErrorCode Main_Check(FcCli *a, PetscBool *ok)
{
  (void)ok;
  return FcTrajectoryCheck(a->casefile, &a->traj, (PetscReal)a->rate);
}

// clang-format off
static const FcCliOption options[] = {
  {"--format", "F", String_Private},
  {"--units", "U", String_Private},
  {"--rate", "HZ", Positive_Private},
  {"--t-end", "T", Positive_Private},
  {"--window", "T0,T1", Window_Private},
  {"--set", NULL, Refuse_Private},
  {"-o", NULL, Refuse_Private},
  {"--overwrite", NULL, Refuse_Private},
  {NULL, NULL, NULL},
};
// clang-format on

const FcCliCommand FcCliCommandTrajectoryCheck = {
  .group    = "trajectory",
  .sub      = "check",
  .synopsis = "trajectory check LOG --format F",
  .file     = "LOG",
  .usage    = "fcsim trajectory check LOG --format fcsim|openhaptics|ros_pose|ros_jointstate [--units m|mm]\n"
              "                              [--rate HZ] [--t-end T] [--window T0,T1]\n",
  .help     = "  trajectory check  load and validate a device log (doc/trajectory.md): a summary as '#'\n"
              "          lines and, with --rate, the log resampled at HZ in the fcsim format; --t-end: the\n"
              "          log must last that long; --window: keep the samples of [T0, T1] s only\n",
  .flags    = FC_CLI_UNUSED,
  .options  = options,
  .check    = Check_Private,
  .main     = Main_Check,
};
