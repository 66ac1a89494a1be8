/* fcsim — the checks of one object of a case that a table row cannot say (exactly one of two
 * keys, increasing tables, files that must exist, the size a refine level makes, ...), hooked
 * into the rows of case_schema.c; they run after the generic checks of their item. */
#include "case_util.h"
#include "petsc_opts.h"
#include "../mesh/mesh.h"
#include <math.h>
#include <string.h>

/* time: exactly one of t_end and steps, and a whole number of steps. */
PetscErrorCode FcCaseCheckTime(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON *t_end = Get_Private(obj, "t_end"), *steps = Get_Private(obj, "steps");
  double dt = Get_Private(obj, "dt")->valuedouble, n;
  char   sub[FC_PATH_LEN], num[64];

  PetscFunctionBegin;
  if (t_end && steps) return FcInputError(ctx->file, path, "give exactly one of \"t_end\" and \"steps\", not both");
  if (!t_end && !steps) return FcInputError(ctx->file, path, "exactly one of \"t_end\" or \"steps\" is required");
  if (t_end) {
    FcSchemaPathKey(sub, sizeof sub, path, "t_end");
    n = round(t_end->valuedouble / dt);
    if (!(n <= (double)PETSC_MAX_INT)) return FcInputError(ctx->file, sub, "t_end/dt is more than %d steps", PETSC_MAX_INT);
    /* Outputs and ramps are sampled at k*dt: a fractional last step would end off t_end. */
    if (fabs(n * dt - t_end->valuedouble) > 1e-9 * t_end->valuedouble) {
      FcSchemaFormatNumber(num, sizeof num, t_end->valuedouble / dt);
      return FcInputError(ctx->file, sub, "must be a multiple of time.dt (t_end/dt = %s)", num);
    }
  } else {
    FcSchemaPathKey(sub, sizeof sub, path, "steps");
    if (!isfinite(steps->valuedouble * dt)) return FcInputError(ctx->file, sub, "steps*dt overflows");
  }
  {
    const char *integ = Get_Private(obj, "integrator")->valuestring;
    if (strcmp(integ, "theta")) {
      if (Get_Private(obj, "theta")) FcSchemaPathKey(sub, sizeof sub, path, "theta");
      else if (Get_Private(obj, "theta_vq")) FcSchemaPathKey(sub, sizeof sub, path, "theta_vq");
      else sub[0] = 0;
      if (sub[0]) return FcInputError(ctx->file, sub, "only allowed with integrator \"theta\" (\"%s\" fixes its own θ, θ_vq)", integ);
    }
    if (!strcmp(integ, "theta") && Get_Private(obj, "theta_vq") && Num_Private(obj, "theta_vq") == 0) {
      /* q = q0 + δt (θ_vq v + (1 − θ_vq) v0) (han2023 eq. 4): with θ_vq = 0 the end-of-step
       * position does not depend on v, so neither Dirichlet conditions nor contacts act on it */
      FcSchemaPathKey(sub, sizeof sub, path, "theta_vq");
      return FcInputError(
        ctx->file, sub, "theta_vq = 0 makes the end-of-step position independent of the velocity unknown (han2023 eq. 4): use theta_vq in (0, 1]");
    }
    if (strcmp(integ, "quasi_static") && Num_Private(Get_Private(obj, "newton"), "shift") > 0) {
      FcSchemaPathKey(sub, sizeof sub, path, "newton.shift");
      return FcInputError(ctx->file, sub, "the Newton shift is only available with integrator \"quasi_static\" (dynamics has its mass term already)");
    }
    if (strcmp(integ, "quasi_static") && Num_Private(obj, "cutback") > 0) {
      FcSchemaPathKey(sub, sizeof sub, path, "cutback");
      return FcInputError(ctx->file, sub, "step cutback is only available with integrator \"quasi_static\"");
    }
  }
  PetscFunctionReturn(0);
}

/* Strings that other modules echo in their messages (mesh files, group names, the output
 * directory, PETSc option values) and that no control character can make valid (a Gmsh group
 * name is one line): refused here, with their path, rather than echoed later as a broken line. */
PetscErrorCode FcCaseCheckNoControl(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  long cp;
  char shown[256];

  PetscFunctionBegin;
  if (!cJSON_IsString(item) || (cp = FcSchemaFirstControl(item->valuestring)) < 0) PetscFunctionReturn(0);
  return FcInputError(ctx->file, path, "\"%s\" contains the control character U+%04lX, which is not allowed here",
    FcSchemaEscape(shown, sizeof shown, item->valuestring), (unsigned long)cp);
}

PetscErrorCode FcCaseCheckMeshFile(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  char resolved[PETSC_MAX_PATH_LEN], shown[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(FcCaseCheckNoControl(ctx, item, path));
  PetscCall(FcCaseMeshFileResolve(ctx, item->valuestring, path, resolved, sizeof resolved));
  if (!FcFileReadable(resolved)) return FcInputError(ctx->file, path, "cannot read %s", FcSchemaEscape(shown, sizeof shown, resolved));
  PetscFunctionReturn(0);
}

/* FcMeshCountTetrahedra meshes a .geo at level 0: the size estimate of a run
 * (src/run/estimate.c) asks again for the counts the case check asked for, so they are kept,
 * per file, for the process (a few files per case; a file is not expected to change meanwhile). */
#define FC_COUNT_CACHE 64
static struct {
  char       file[PETSC_MAX_PATH_LEN];
  PetscInt64 n;
} count_cache[FC_COUNT_CACHE];
static int count_cached;

PetscErrorCode FcCaseCountTetrahedra(const char *file, PetscInt64 *n)
{
  PetscFunctionBegin;
  for (int i = 0; i < count_cached; i++)
    if (!strcmp(count_cache[i].file, file)) {
      *n = count_cache[i].n;
      PetscFunctionReturn(0);
    }
  PetscCall(FcMeshCountTetrahedra(file, n));
  if (count_cached < FC_COUNT_CACHE && strlen(file) < sizeof count_cache[0].file) {
    snprintf(count_cache[count_cached].file, sizeof count_cache[0].file, "%s", file);
    count_cache[count_cached++].n = *n;
  }
  PetscFunctionReturn(0);
}

/* A mesh object (bodies[i].mesh, or a rigid "mesh" shape): each refine level multiplies the
 * tetrahedra by 8 (exactly for a .msh, split uniformly; about, for a .geo, whose every size is
 * halved), so a level is refused when (tetrahedra at refine 0) x 8^refine exceeds
 * max_elements, before anything is meshed at that level (an accidental refine 8 would
 * otherwise run the machine out of memory). Refine 0 is not estimated: it is the file itself. */
PetscErrorCode FcCaseCheckMeshSize(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  const int    refine = (int)Num_Private(obj, "refine");
  const double limit  = Num_Private(obj, "max_elements");
  char         file[PETSC_MAX_PATH_LEN], sub[FC_PATH_LEN];
  PetscInt64   n0;
  double       estimate;

  PetscFunctionBegin;
  if (refine == 0) PetscFunctionReturn(0);
  FcSchemaPathKey(sub, sizeof sub, path, "file");
  PetscCall(FcCaseMeshFileResolve(ctx, Str_Private(obj, "file"), sub, file, sizeof file));
  PetscCall(FcCaseCountTetrahedra(file, &n0));
  estimate = (double)n0 * pow(8.0, refine);
  FcSchemaPathKey(sub, sizeof sub, path, "refine");
  if (estimate > limit)
    return FcInputError(ctx->file, sub,
      "refine %d would make about %.3g tetrahedra (%lld at refine 0 x 8^%d), more than max_elements = %.0f: lower refine, or raise %s.max_elements", refine,
      estimate, (long long)n0, refine, limit, path);
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseCheckShapeSize(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  PetscFunctionBegin;
  if (!strcmp(Str_Private(obj, "type"), "mesh")) PetscCall(FcCaseCheckMeshSize(ctx, obj, path));
  PetscFunctionReturn(0);
}

/* Tables are interpolated in time: times must be strictly increasing. */
PetscErrorCode FcCaseCheckRampTable(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscInt i    = 0;
  double   prev = 0;
  cJSON   *row;
  char     sub[FC_PATH_LEN], pp[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(row, item)
  {
    double t = cJSON_GetArrayItem(row, 0)->valuedouble;
    if (i > 0 && !(t > prev)) {
      FcSchemaPathIndex(pp, sizeof pp, path, i);
      FcSchemaPathIndex(sub, sizeof sub, pp, 0);
      return FcInputError(ctx->file, sub, "times must be strictly increasing (row %" PetscInt_FMT " after row %" PetscInt_FMT ")", i, i - 1);
    }
    prev = t;
    i++;
  }
  PetscFunctionReturn(0);
}

/* displacement table rows [t, ux|null, uy|null, uz|null]: t given and increasing, and the same
 * components prescribed in every row (a component cannot switch between free and fixed). */
PetscErrorCode FcCaseCheckDisplacementTable(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscInt i    = 0;
  double   prev = 0;
  cJSON   *row, *first = cJSON_GetArrayItem(item, 0);
  char     sub[FC_PATH_LEN], pp[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(row, item)
  {
    cJSON *t = cJSON_GetArrayItem(row, 0);
    FcSchemaPathIndex(pp, sizeof pp, path, i);
    FcSchemaPathIndex(sub, sizeof sub, pp, 0);
    if (!cJSON_IsNumber(t)) return FcInputError(ctx->file, sub, "the time must be a number, got null");
    if (i > 0 && !(t->valuedouble > prev))
      return FcInputError(ctx->file, sub, "times must be strictly increasing (row %" PetscInt_FMT " after row %" PetscInt_FMT ")", i, i - 1);
    prev = t->valuedouble;
    for (int k = 1; k < 4; k++) {
      if (cJSON_IsNull(cJSON_GetArrayItem(row, k)) == cJSON_IsNull(cJSON_GetArrayItem(first, k))) continue;
      FcSchemaPathIndex(sub, sizeof sub, pp, k);
      return FcInputError(ctx->file, sub, "component %c is %s here but %s in row 0: every row must prescribe the same components", "xyz"[k - 1],
        cJSON_IsNull(cJSON_GetArrayItem(first, k)) ? "given" : "null", cJSON_IsNull(cJSON_GetArrayItem(first, k)) ? "null" : "given");
    }
    i++;
  }
  if (cJSON_IsNull(cJSON_GetArrayItem(first, 1)) && cJSON_IsNull(cJSON_GetArrayItem(first, 2)) && cJSON_IsNull(cJSON_GetArrayItem(first, 3))) {
    FcSchemaPathIndex(sub, sizeof sub, path, 0);
    return FcInputError(ctx->file, sub, "at least one of ux, uy, uz must be a number (null leaves a component free)");
  }
  PetscFunctionReturn(0);
}

/* The object form of a prescribed displacement: exactly one of "table" and "series". */
PetscErrorCode FcCaseCheckDisplacementObject(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  PetscFunctionBegin;
  if (!Get_Private(obj, "table") == !Get_Private(obj, "series"))
    return FcInputError(ctx->file, path, "give exactly one of \"table\" ([[t, ux, uy, uz], ...]) and \"series\" ({\"unit\": P, \"phases\": [...]})");
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseCheckDisplacement(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  cJSON *el;

  PetscFunctionBegin;
  if (!cJSON_IsArray(item)) PetscFunctionReturn(0); /* the table form has its own check */
  cJSON_ArrayForEach(el, item) if (!cJSON_IsNull(el)) PetscFunctionReturn(0);
  return FcInputError(ctx->file, path, "at least one component must be a number (null leaves a component free)");
}

/* Directions (plane normal, cylinder and prismatic axes) are normalized: only zero is wrong. */
PetscErrorCode FcCaseCheckNonZeroVec(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscReal v[3];

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) v[k] = cJSON_GetArrayItem(item, k)->valuedouble;
  if (FcCaseNorm3(v) == 0) return FcInputError(ctx->file, path, "must be a non-zero vector (it is normalized), got [0, 0, 0]");
  PetscFunctionReturn(0);
}

/* Contact solver names are registry names: lower case, digits and '_'. */
PetscErrorCode FcCaseCheckSolverName(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  const char *s = item->valuestring;
  char        shown[256];

  PetscFunctionBegin;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return FcInputError(ctx->file, path, "\"%s\" must match [a-z0-9_]+", FcSchemaEscape(shown, sizeof shown, s));
  if (!s[0]) return FcInputError(ctx->file, path, "must not be empty");
  PetscFunctionReturn(0);
}

/* What a model's table cannot say (the bound on κ/μ): the model's own check. */
PetscErrorCode FcCaseCheckMaterial(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  FcMaterialParams p;

  PetscFunctionBegin;
  PetscCall(FcCaseMaterialParams(obj, &p));
  PetscCall(FcMaterialCheckParams(&p, ctx->file, path));
  PetscFunctionReturn(0);
}

/* petsc: option names that configure solvers (petsc_opts.h) */
PetscErrorCode FcCaseCheckPetscOption(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscBool view;
  char      format[64];

  PetscFunctionBegin;
  PetscCall(FcCaseCheckNoControl(ctx, item, path));
  PetscCall(FcCasePetscOptionCheck(ctx->file, path, item, &view, format, sizeof format));
  PetscFunctionReturn(0);
}

/* A transform's rotation given as a quaternion [w, x, y, z]: its norm must not vanish (it is
 * normalized when the case is filled; the trajectory loader refuses the same below 1e-6). */
PetscErrorCode FcCaseCheckQuaternion(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscReal n = 0;

  PetscFunctionBegin;
  if (!cJSON_IsArray(item)) PetscFunctionReturn(0);
  for (int k = 0; k < 4; k++) n += PetscSqr(cJSON_GetArrayItem(item, k)->valuedouble);
  if (!(PetscSqrtReal(n) > 1e-6))
    return FcInputError(ctx->file, path, "the quaternion [w, x, y, z] has zero norm (%g): it is no rotation", (double)PetscSqrtReal(n));
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseCheckWindow(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscFunctionBegin;
  if (!(cJSON_GetArrayItem(item, 1)->valuedouble > cJSON_GetArrayItem(item, 0)->valuedouble))
    return FcInputError(ctx->file, path, "must be [t0, t1] with t1 > t0 (seconds from the log's first sample)");
  PetscFunctionReturn(0);
}

/* A device log: a JointState log states no unit, so "units" is required for it (no default). */
PetscErrorCode FcCaseCheckTrajectory(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  char sub[FC_PATH_LEN];

  PetscFunctionBegin;
  FcSchemaPathKey(sub, sizeof sub, path, "units");
  if (!strcmp(Str_Private(obj, "format"), "ros_jointstate") && !Get_Private(obj, "units"))
    return FcInputError(
      ctx->file, sub, "required key \"units\" is missing: a ros_jointstate log states no unit (\"mm\" for the Geomagic/Omni drivers, or \"m\")");
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseCheckLoad(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  static const char *const kinds[] = {"traction", "pressure", "force"};
  const char              *given[3];
  int                      n = 0;

  PetscFunctionBegin;
  for (int i = 0; i < 3; i++)
    if (Get_Private(obj, kinds[i])) given[n++] = kinds[i];
  if (n == 0) return FcInputError(ctx->file, path, "exactly one of \"traction\", \"pressure\" or \"force\" is required");
  if (n > 1) return FcInputError(ctx->file, path, "give exactly one of \"traction\", \"pressure\" and \"force\", not \"%s\" and \"%s\"", given[0], given[1]);
  PetscFunctionReturn(0);
}
