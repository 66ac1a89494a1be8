/* fcsim — case files: the schema of the format, its custom checks, and the typed FcCase.
 *
 * To add a key: add a row to the table of its object below (type, default, range, ...), read
 * it in the matching Fill*_Private function, and document it in doc/case-format.md. */
#include "case.h"
#include "json.h"
#include "schema.h"
#include "petsc_opts.h"
#include "../mesh/mesh.h"
#include "../core/registry.h"
#include "../contact/solver.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Custom checks: what a table row cannot say.                                                */
/* ------------------------------------------------------------------------------------------ */

static cJSON *Get_Private(const cJSON *obj, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static double Num_Private(const cJSON *obj, const char *key)
{
  return Get_Private(obj, key)->valuedouble;
}

static const char *Str_Private(const cJSON *obj, const char *key)
{
  return Get_Private(obj, key)->valuestring;
}

static PetscBool Bool_Private(const cJSON *obj, const char *key)
{
  return cJSON_IsTrue(Get_Private(obj, key)) ? PETSC_TRUE : PETSC_FALSE;
}

/* time: exactly one of t_end and steps, and a whole number of steps. */
static PetscErrorCode TimeCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON *t_end = Get_Private(obj, "t_end"), *steps = Get_Private(obj, "steps");
  double dt    = Get_Private(obj, "dt")->valuedouble, n;
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
      return FcInputError(ctx->file, sub, "theta_vq = 0 makes the end-of-step position independent of the velocity unknown (han2023 eq. 4): use theta_vq in (0, 1]");
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

/* Mesh files are relative to the case file, so a case runs from any working directory. */
static PetscErrorCode MeshFileResolve_Private(FcSchemaCtx *ctx, const char *file, const char *path, char *out, size_t len)
{
  PetscFunctionBegin;
  if (strlen(ctx->file) + strlen(file) + 1 >= len) return FcInputError(ctx->file, path, "resolved path is too long (more than %zu characters)", len - 1);
  PetscCall(FcPathResolve(ctx->file, file, out, len));
  PetscFunctionReturn(0);
}

/* Strings that other modules echo in their messages (mesh files, group names, the output
 * directory, PETSc option values) and that no control character can make valid (a Gmsh group
 * name is one line): refused here, with their path, rather than echoed later as a broken line. */
static PetscErrorCode NoControlCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  long cp;
  char shown[256];

  PetscFunctionBegin;
  if (!cJSON_IsString(item) || (cp = FcSchemaFirstControl(item->valuestring)) < 0) PetscFunctionReturn(0);
  return FcInputError(ctx->file, path, "\"%s\" contains the control character U+%04lX, which is not allowed here", FcSchemaEscape(shown, sizeof shown, item->valuestring), (unsigned long)cp);
}

static PetscErrorCode MeshFileCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  char resolved[PETSC_MAX_PATH_LEN], shown[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(NoControlCheck_Private(ctx, item, path));
  PetscCall(MeshFileResolve_Private(ctx, item->valuestring, path, resolved, sizeof resolved));
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
static PetscErrorCode MeshSizeCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  const int    refine = (int)Num_Private(obj, "refine");
  const double limit  = Num_Private(obj, "max_elements");
  char         file[PETSC_MAX_PATH_LEN], sub[FC_PATH_LEN];
  PetscInt64   n0;
  double       estimate;

  PetscFunctionBegin;
  if (refine == 0) PetscFunctionReturn(0);
  FcSchemaPathKey(sub, sizeof sub, path, "file");
  PetscCall(MeshFileResolve_Private(ctx, Str_Private(obj, "file"), sub, file, sizeof file));
  PetscCall(FcCaseCountTetrahedra(file, &n0));
  estimate = (double)n0 * pow(8.0, refine);
  FcSchemaPathKey(sub, sizeof sub, path, "refine");
  if (estimate > limit) return FcInputError(ctx->file, sub, "refine %d would make about %.3g tetrahedra (%lld at refine 0 x 8^%d), more than max_elements = %.0f: lower refine, or raise %s.max_elements", refine, estimate, (long long)n0, refine, limit, path);
  PetscFunctionReturn(0);
}

static PetscErrorCode ShapeSizeCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  PetscFunctionBegin;
  if (!strcmp(Str_Private(obj, "type"), "mesh")) PetscCall(MeshSizeCheck_Private(ctx, obj, path));
  PetscFunctionReturn(0);
}

/* Tables are interpolated in time: times must be strictly increasing. */
static PetscErrorCode RampTableCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscInt i = 0;
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
static PetscErrorCode DisplacementTableCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscInt i = 0;
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
    if (i > 0 && !(t->valuedouble > prev)) return FcInputError(ctx->file, sub, "times must be strictly increasing (row %" PetscInt_FMT " after row %" PetscInt_FMT ")", i, i - 1);
    prev = t->valuedouble;
    for (int k = 1; k < 4; k++) {
      if (cJSON_IsNull(cJSON_GetArrayItem(row, k)) == cJSON_IsNull(cJSON_GetArrayItem(first, k))) continue;
      FcSchemaPathIndex(sub, sizeof sub, pp, k);
      return FcInputError(ctx->file, sub, "component %c is %s here but %s in row 0: every row must prescribe the same components", "xyz"[k - 1], cJSON_IsNull(cJSON_GetArrayItem(first, k)) ? "given" : "null", cJSON_IsNull(cJSON_GetArrayItem(first, k)) ? "null" : "given");
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
static PetscErrorCode DisplacementObjectCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  PetscFunctionBegin;
  if (!Get_Private(obj, "table") == !Get_Private(obj, "series")) return FcInputError(ctx->file, path, "give exactly one of \"table\" ([[t, ux, uy, uz], ...]) and \"series\" ({\"unit\": P, \"phases\": [...]})");
  PetscFunctionReturn(0);
}

static PetscErrorCode DisplacementCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  cJSON *el;

  PetscFunctionBegin;
  if (!cJSON_IsArray(item)) PetscFunctionReturn(0); /* the table form has its own check */
  cJSON_ArrayForEach(el, item) if (!cJSON_IsNull(el)) PetscFunctionReturn(0);
  return FcInputError(ctx->file, path, "at least one component must be a number (null leaves a component free)");
}

/* max|v_k| * sqrt(sum (v_k/max)^2): no overflow for any finite components. */
static PetscReal Norm3_Private(const PetscReal v[3])
{
  PetscReal m = PetscMax(PetscMax(PetscAbsReal(v[0]), PetscAbsReal(v[1])), PetscAbsReal(v[2])), s = 0;

  if (m == 0) return 0;
  for (int k = 0; k < 3; k++) s += (v[k] / m) * (v[k] / m);
  return m * PetscSqrtReal(s);
}

/* Directions (plane normal, cylinder and prismatic axes) are normalized: only zero is wrong. */
static PetscErrorCode NonZeroVecCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscReal v[3];

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) v[k] = cJSON_GetArrayItem(item, k)->valuedouble;
  if (Norm3_Private(v) == 0) return FcInputError(ctx->file, path, "must be a non-zero vector (it is normalized), got [0, 0, 0]");
  PetscFunctionReturn(0);
}

/* Contact solver names are registry names: lower case, digits and '_'. */
static PetscErrorCode SolverNameCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  const char *s = item->valuestring;
  char        shown[256];

  PetscFunctionBegin;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) return FcInputError(ctx->file, path, "\"%s\" must match [a-z0-9_]+", FcSchemaEscape(shown, sizeof shown, s));
  if (!s[0]) return FcInputError(ctx->file, path, "must not be empty");
  PetscFunctionReturn(0);
}

/* Physical bounds (SI) of the time step; those of the material parameters are declared by the
 * material models (src/fem/material.h). Checked by the schema (FcSchemaEntry.bound). */
static const FcBound dt_bound = {"time steps of a continuum model: a picosecond to 30 years", "s", 1e-12, 1e9};

/* The parameter values of the material object mat (validated: its model is registered), as the
 * plain data the material model reads (src/fem/material.h). */
static PetscErrorCode MaterialParams_Private(const cJSON *mat, FcMaterialParams *p)
{
  const FcMaterialModel *model;

  PetscFunctionBegin;
  PetscCall(FcMaterialParamsInit(p, Str_Private(mat, "model")));
  model = FcMaterialModelFind(p->model);
  PetscCheck(model, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Material model %s is not registered", p->model);
  for (const FcParamSpec *s = model->params; s->name; s++) {
    const cJSON *v = Get_Private(mat, s->name);
    if (!v) continue;
    if (s->type == FC_PARAM_REAL) PetscCall(FcMaterialParamsSetReal(p, s->name, v->valuedouble));
    else PetscCall(FcMaterialParamsSetChoice(p, s->name, v->valuestring));
  }
  PetscFunctionReturn(0);
}

/* What a model's table cannot say (the bound on κ/μ): the model's own check. */
static PetscErrorCode MaterialCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  FcMaterialParams p;

  PetscFunctionBegin;
  PetscCall(MaterialParams_Private(obj, &p));
  PetscCall(FcMaterialCheckParams(&p, ctx->file, path));
  PetscFunctionReturn(0);
}

static PetscErrorCode BoundaryCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode MotionCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode QuaternionCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode WindowCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode TrajectoryCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode LoadCheck_Private(FcSchemaCtx *, cJSON *, const char *);
/* The entry of the file's bodies[] each body comes from (mesh.volumes expands one entry into
 * several bodies), filled by BodiesCheck_Private, read by Fill_Private. */
typedef struct {
  PetscInt   n;
  PetscInt  *entry;
  PetscBool *expanded;
} BodyEntries;

static PetscErrorCode BodiesCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode ProbesCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode RootCheck_Private(FcSchemaCtx *, cJSON *, const char *);

/* ------------------------------------------------------------------------------------------ */
/* The schema (doc/case-format.md documents every row).                                       */
/* ------------------------------------------------------------------------------------------ */

#define NAME_MAX_CHARS (FC_NAME_LEN - 1)
#define PATH_MAX_CHARS (PETSC_MAX_PATH_LEN - 1)
/* Names become directory and file names, and CSV column prefixes. */
#define NAME_CHARS  "_.-"
#define PROBE_CHARS "_"

static const FcSchemaEntry number_elem      = {.types = FC_T_NUMBER};
static const FcSchemaEntry bool_elem        = {.types = FC_T_BOOL};
static const FcSchemaEntry number_null_elem = {.types = FC_T_NUMBER | FC_T_NULL};

/* A physical group of the mesh: its name, or its integer tag. */
#define GROUP_ENTRY {.key = "group", .types = FC_T_STRING | FC_T_INTEGER, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private}

/* ramp */
static const FcSchemaEntry ramp_type_entry      = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
static const FcSchemaEntry ramp_constant_keys[] = {
  {.key = "value", .types = FC_T_NUMBER, .def = "1"},
  {.key = NULL}
};
/* t1 defaults to time.t_end, known only once "time" is read: filled by FillRamp_Private. */
static const FcSchemaEntry ramp_linear_keys[] = {
  {.key = "t0", .types = FC_T_NUMBER, .def = "0"},
  {.key = "t1", .types = FC_T_NUMBER},
  {.key = NULL}
};
static const FcSchemaEntry ramp_row_elem     = {.types = FC_T_ARRAY, .len_min = 2, .len_max = 2, .elem = &number_elem};
static const FcSchemaEntry ramp_table_keys[] = {
  {.key = "table", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 2, .elem = &ramp_row_elem, .check = RampTableCheck_Private},
  {.key = NULL}
};
static const FcSchemaVariant ramp_variants[] = {
  {"constant", ramp_constant_keys},
  {"linear",   ramp_linear_keys  },
  {"table",    ramp_table_keys   },
  {NULL,       NULL              }
};
static const FcSchemaObject ramp_object   = {.discriminator = &ramp_type_entry, .variants = ramp_variants};
static const char *const    ramp_shorthand[] = {"constant", "linear", NULL};
#define RAMP_ENTRY(default_) {.key = "ramp", .types = FC_T_STRING | FC_T_OBJECT, .def = default_, .choices = ramp_shorthand, .object = &ramp_object, .expand = "type"}

/* bodies[i].mesh */
/* volumes: a pattern over the physical volume names of a multi-volume mesh; the entry becomes one
 * body per matching volume (BodiesCheck_Private), each with `volume` set and named after it. */
static const FcSchemaEntry mesh_keys[] = {
  {.key = "file",   .types = FC_T_STRING,  .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = MeshFileCheck_Private},
  {.key = "volume",  .types = FC_T_STRING, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private},
  {.key = "volumes", .types = FC_T_STRING, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private},
  {.key = "refine", .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 8)},
  {.key = "order",  .types = FC_T_INTEGER, .def = "1", .range = FC_RANGE_CC(1, 2)},
  {.key = "max_elements", .types = FC_T_INTEGER, .def = "20000000", .range = FC_RANGE_GE(1)},
  {.key = NULL}
};
static const FcSchemaObject mesh_object = {.entries = mesh_keys, .check = MeshSizeCheck_Private};

/* bodies[i].material: "model" names a registered material model, and the model's table of
 * parameters (src/fem/materials/NAME.c: E, nu, density, ...; src/core/param.h) gives the other
 * keys, their types, ranges, bounds and defaults: MaterialSchema_Private turns each row into a
 * schema row, before every load (so a model registered in code is a case key too). */
static const FcSchemaEntry material_model_entry = {.key = "model", .types = FC_T_STRING, .required = PETSC_TRUE};
static FcSchemaEntry       material_keys[FC_REGISTRY_MAX][FC_MATERIAL_MAX_PARAMS + 1];
static char                material_defs[FC_REGISTRY_MAX][FC_MATERIAL_MAX_PARAMS][64]; /* defaults as JSON text */
static FcSchemaVariant     material_variants[FC_REGISTRY_MAX + 1];
static const FcSchemaObject material_object = {.discriminator = &material_model_entry, .variants = material_variants, .check = MaterialCheck_Private};

static PetscErrorCode MaterialSchema_Private(void)
{
  const char            *name;
  const FcMaterialModel *model;
  PetscInt               i;

  PetscFunctionBegin;
  PetscCall(FcMaterialRegisterAll());
  for (i = 0; i < FC_REGISTRY_MAX; i++) {
    PetscInt k = 0;
    PetscCall(FcMaterialModelGet(i, &name, &model));
    if (!name) break;
    for (const FcParamSpec *s = model->params; s->name; s++, k++) {
      FcSchemaEntry *e = &material_keys[i][k];
      PetscCheck(k < FC_MATERIAL_MAX_PARAMS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Material %s has more than %d parameters", name, FC_MATERIAL_MAX_PARAMS);
      PetscCall(PetscMemzero(e, sizeof *e));
      e->key      = s->name;
      e->required = s->required;
      if (s->type == FC_PARAM_REAL) {
        e->types = FC_T_NUMBER;
        e->range = s->range;
        e->bound = s->bound;
        e->def   = s->def; /* a number's text is its JSON */
      } else {
        e->types   = FC_T_STRING;
        e->choices = s->choices;
        if (s->def) {
          PetscCheck(strlen(s->def) + 3 <= sizeof material_defs[i][k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "Default of material parameter %s too long", s->name);
          snprintf(material_defs[i][k], sizeof material_defs[i][k], "\"%s\"", s->def);
          e->def = material_defs[i][k];
        }
      }
    }
    material_keys[i][k].key     = NULL;
    material_variants[i].name    = name;
    material_variants[i].entries = material_keys[i];
  }
  material_variants[i].name    = NULL;
  material_variants[i].entries = NULL;
  PetscFunctionReturn(0);
}

/* bodies[i].damping: Rayleigh C = alpha M + beta K */
static const FcSchemaEntry damping_keys[] = {
  {.key = "alpha", .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = "beta",  .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
static const FcSchemaObject damping_object = {.entries = damping_keys};

/* bodies[i].boundary[j] */
static const FcSchemaEntry disp_row_elem     = {.types = FC_T_ARRAY, .len_min = 4, .len_max = 4, .elem = &number_null_elem};
/* "series": phases of equal increments of `unit` metres along an axis, one increment per time
 * step (talbi2008 Fig. 5: 5P down, 20P along x, ...); read as the table it stands for. */
static const char *const   series_directions[] = {"+x", "-x", "+y", "-y", "+z", "-z", NULL};
static const FcSchemaEntry series_phase_keys[] = {
  {.key = "direction",  .types = FC_T_STRING,  .required = PETSC_TRUE, .choices = series_directions},
  {.key = "increments", .types = FC_T_INTEGER, .required = PETSC_TRUE, .range = FC_RANGE_GE(1)},
  {.key = NULL}
};
static const FcSchemaObject series_phase_object = {.entries = series_phase_keys};
static const FcSchemaEntry  series_phase_elem   = {.types = FC_T_OBJECT, .object = &series_phase_object};
static const FcSchemaEntry  series_keys[]       = {
  {.key = "unit",   .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "phases", .types = FC_T_ARRAY,  .required = PETSC_TRUE, .len_min = 1, .elem = &series_phase_elem},
  {.key = NULL}
};
static const FcSchemaObject series_object     = {.entries = series_keys};
static const FcSchemaEntry  disp_table_keys[] = {
  {.key = "table",  .types = FC_T_ARRAY,  .len_min = 2, .elem = &disp_row_elem, .check = DisplacementTableCheck_Private},
  {.key = "series", .types = FC_T_OBJECT, .object = &series_object},
  {.key = NULL}
};
static PetscErrorCode       DisplacementObjectCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static const FcSchemaObject disp_table_object = {.entries = disp_table_keys, .check = DisplacementObjectCheck_Private};
static const FcSchemaEntry  boundary_keys[]   = {
  GROUP_ENTRY,
  {.key = "fix",          .types = FC_T_ARRAY,                .len_min = 3, .len_max = 3, .elem = &bool_elem},
  {.key = "displacement", .types = FC_T_ARRAY | FC_T_OBJECT, .len_min = 3, .len_max = 3, .elem = &number_null_elem, .object = &disp_table_object, .check = DisplacementCheck_Private},
  RAMP_ENTRY(NULL),
  {.key = NULL}
};
/* What BoundaryCheck_Private and KinematicCheck_Private insert for a displacement array
 * without a ramp. */
static const FcSchemaEntry  ramp_constant_default = RAMP_ENTRY("\"constant\"");
static const FcSchemaObject boundary_object       = {.entries = boundary_keys, .check = BoundaryCheck_Private};
static const FcSchemaEntry  boundary_elem         = {.types = FC_T_OBJECT, .object = &boundary_object};

/* bodies[i].loads[j] */
static const FcSchemaEntry load_keys[] = {
  GROUP_ENTRY,
  {.key = "traction", .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = "pressure", .types = FC_T_NUMBER},
  {.key = "force",    .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  RAMP_ENTRY("\"constant\""),
  {.key = NULL}
};
static const FcSchemaObject load_object = {.entries = load_keys, .check = LoadCheck_Private};
static const FcSchemaEntry  load_elem   = {.types = FC_T_OBJECT, .object = &load_object};

/* A vector of 3 numbers; directions must be non-zero (they are normalized). */
#define VEC3_ENTRY(key_, req_, def_) {.key = key_, .types = FC_T_ARRAY, .required = req_, .def = def_, .len_min = 3, .len_max = 3, .elem = &number_elem}
#define DIR3_ENTRY(key_) {.key = key_, .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 3, .len_max = 3, .elem = &number_elem, .check = NonZeroVecCheck_Private}
static const FcSchemaEntry positive_elem     = {.types = FC_T_NUMBER, .range = FC_RANGE_GT(0)};
static const FcSchemaEntry non_negative_elem = {.types = FC_T_NUMBER, .range = FC_RANGE_GE(0)};

/* bodies[i].shape (rigid bodies): the keys depend on the type */
static const FcSchemaEntry shape_type_entry  = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
static const FcSchemaEntry shape_plane_keys[] = {
  VEC3_ENTRY("point", PETSC_TRUE, NULL),
  DIR3_ENTRY("normal"),
  {.key = NULL}
};
static const FcSchemaEntry shape_box_keys[] = {
  VEC3_ENTRY("center", PETSC_TRUE, NULL),
  {.key = "half_extents", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 3, .len_max = 3, .elem = &positive_elem},
  {.key = NULL}
};
static const FcSchemaEntry shape_sphere_keys[] = {
  VEC3_ENTRY("center", PETSC_TRUE, NULL),
  {.key = "radius", .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
static const FcSchemaEntry shape_cylinder_keys[] = {
  VEC3_ENTRY("center", PETSC_TRUE, NULL),
  DIR3_ENTRY("axis"),
  {.key = "radius",      .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "half_length", .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
/* group absent: all boundary faces of the mesh */
static const FcSchemaEntry shape_mesh_keys[] = {
  {.key = "file",   .types = FC_T_STRING,  .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = MeshFileCheck_Private},
  {.key = "group",  .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private},
  {.key = "refine", .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 8)},
  {.key = "max_elements", .types = FC_T_INTEGER, .def = "20000000", .range = FC_RANGE_GE(1)},
  {.key = NULL}
};
static const FcSchemaVariant shape_variants[] = {
  {"plane",    shape_plane_keys   },
  {"box",      shape_box_keys     },
  {"sphere",   shape_sphere_keys  },
  {"cylinder", shape_cylinder_keys},
  {"mesh",     shape_mesh_keys    },
  {NULL,       NULL               }
};
static const FcSchemaObject shape_object = {.discriminator = &shape_type_entry, .variants = shape_variants, .check = ShapeSizeCheck_Private};

/* bodies[i].motion (rigid bodies): the keys depend on the type */
static const FcSchemaEntry motion_type_entry  = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
static const FcSchemaEntry motion_fixed_keys[] = {
  {.key = NULL}
};
/* kinematic: a boundary displacement without nulls (the body translates as a whole) */
static const FcSchemaEntry kin_row_elem     = {.types = FC_T_ARRAY, .len_min = 4, .len_max = 4, .elem = &number_elem};
static const FcSchemaEntry kin_table_keys[] = {
  {.key = "table", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 2, .elem = &kin_row_elem, .check = RampTableCheck_Private},
  {.key = NULL}
};
static const FcSchemaObject kin_table_object       = {.entries = kin_table_keys};
/* kinematic rotation about `center` (default: the body's centre, doc/rigid.md) and the unit
 * `axis`, by `angle` [rad] times the motion's ramp, or by the angle interpolated in `table`
 * rows [t, angle] */
static const FcSchemaEntry kin_rot_row_elem = {.types = FC_T_ARRAY, .len_min = 2, .len_max = 2, .elem = &number_elem};
static const FcSchemaEntry kin_rotation_keys[] = {
  DIR3_ENTRY("axis"),
  {.key = "angle",  .types = FC_T_NUMBER},
  {.key = "table",  .types = FC_T_ARRAY, .len_min = 2, .elem = &kin_rot_row_elem, .check = RampTableCheck_Private},
  {.key = "center", .types = FC_T_ARRAY, .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = NULL}
};
static const FcSchemaObject kin_rotation_object     = {.entries = kin_rotation_keys};
static const FcSchemaEntry  motion_kinematic_keys[] = {
  {.key = "displacement", .types = FC_T_ARRAY | FC_T_OBJECT, .required = PETSC_TRUE, .len_min = 3, .len_max = 3, .elem = &number_elem, .object = &kin_table_object},
  RAMP_ENTRY(NULL),
  {.key = "rotation", .types = FC_T_OBJECT, .object = &kin_rotation_object},
  {.key = NULL}
};
/* A recorded device log driving a rigid body (doc/trajectory.md, doc/rigid.md §2d): the keys of
 * motion "trajectory" and of a dynamic motion's "coupling". The transform's rotation is a
 * quaternion [w, x, y, z] (normalized; zero norm refused) or {"axis", "angle" [rad]}. */
static const char *const   trajectory_formats[] = {"fcsim", "openhaptics", "ros_pose", "ros_jointstate", NULL};
static const char *const   trajectory_units[]   = {"m", "mm", NULL};
static const FcSchemaEntry traj_rotation_keys[] = {
  DIR3_ENTRY("axis"),
  {.key = "angle", .types = FC_T_NUMBER, .required = PETSC_TRUE},
  {.key = NULL}
};
static const FcSchemaObject traj_rotation_object = {.entries = traj_rotation_keys};
static const FcSchemaEntry  traj_transform_keys[] = {
  {.key = "rotation", .types = FC_T_ARRAY | FC_T_OBJECT, .def = "[1, 0, 0, 0]", .len_min = 4, .len_max = 4, .elem = &number_elem, .object = &traj_rotation_object, .check = QuaternionCheck_Private},
  VEC3_ENTRY("translation", PETSC_FALSE, "[0, 0, 0]"),
  {.key = "scale",    .types = FC_T_NUMBER, .def = "1", .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
static const FcSchemaObject traj_transform_object = {.entries = traj_transform_keys};
#define TRAJECTORY_ENTRIES \
  {.key = "file",      .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = MeshFileCheck_Private}, \
  {.key = "format",    .types = FC_T_STRING, .required = PETSC_TRUE, .choices = trajectory_formats}, \
  {.key = "units",     .types = FC_T_STRING, .choices = trajectory_units}, \
  {.key = "transform", .types = FC_T_OBJECT, .def = "{}", .object = &traj_transform_object}, \
  {.key = "window",    .types = FC_T_ARRAY, .len_min = 2, .len_max = 2, .elem = &non_negative_elem, .check = WindowCheck_Private}, \
  {.key = "offset",    .types = FC_T_ARRAY, .len_min = 3, .len_max = 3, .elem = &number_elem}
static const FcSchemaEntry motion_trajectory_keys[] = {
  TRAJECTORY_ENTRIES,
  {.key = NULL}
};
/* coupling: K > 0, B, K_r > 0, B_r >= 0 (absent: the defaults of doc/rigid.md §2d) */
static const FcSchemaEntry coupling_keys[] = {
  TRAJECTORY_ENTRIES,
  {.key = "stiffness",            .types = FC_T_NUMBER, .range = FC_RANGE_GT(0)},
  {.key = "damping",              .types = FC_T_NUMBER, .range = FC_RANGE_GE(0)},
  {.key = "rotational_stiffness", .types = FC_T_NUMBER, .range = FC_RANGE_GT(0)},
  {.key = "rotational_damping",   .types = FC_T_NUMBER, .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
static const FcSchemaObject coupling_object = {.entries = coupling_keys, .check = TrajectoryCheck_Private};
/* dynamic: joint */
static const FcSchemaEntry joint_type_entry  = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
static const FcSchemaEntry joint_empty_keys[] = {
  {.key = NULL}
};
static const FcSchemaEntry joint_prismatic_keys[] = {
  DIR3_ENTRY("axis"),
  {.key = NULL}
};
static const FcSchemaVariant joint_variants[] = {
  {"free",      joint_empty_keys    },
  {"prismatic", joint_prismatic_keys},
  {"fixed",     joint_empty_keys    },
  {NULL,        NULL                }
};
static const FcSchemaObject joint_object = {.discriminator = &joint_type_entry, .variants = joint_variants};
/* inertia: required (each > 0) for a free joint, checked by DynamicCheck_Private, which
 * inserts inertia_default for the other joints. */
static const FcSchemaEntry motion_dynamic_keys[] = {
  {.key = "mass",             .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "inertia",          .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &non_negative_elem},
  {.key = "joint",            .types = FC_T_OBJECT, .def = "{\"type\": \"free\"}", .object = &joint_object},
  VEC3_ENTRY("force", PETSC_FALSE, "[0, 0, 0]"),
  RAMP_ENTRY("\"constant\""),
  VEC3_ENTRY("initial_velocity", PETSC_FALSE, "[0, 0, 0]"),
  VEC3_ENTRY("initial_angular_velocity", PETSC_FALSE, "[0, 0, 0]"),
  {.key = "coupling",         .types = FC_T_OBJECT, .object = &coupling_object},
  {.key = NULL}
};
static const FcSchemaEntry  inertia_default = {.key = "inertia", .types = FC_T_ARRAY, .def = "[0, 0, 0]", .len_min = 3, .len_max = 3, .elem = &non_negative_elem};
/* Variants have no check hook of their own: MotionCheck_Private runs the kinematic and dynamic
 * checks. */
static const FcSchemaVariant motion_variants[] = {
  {"fixed",     motion_fixed_keys    },
  {"kinematic", motion_kinematic_keys},
  {"dynamic",   motion_dynamic_keys  },
  {"trajectory", motion_trajectory_keys},
  {NULL,        NULL                 }
};
static const FcSchemaObject motion_object = {.discriminator = &motion_type_entry, .variants = motion_variants, .check = MotionCheck_Private};

/* bodies[i]: the keys depend on the type (default "deformable"); name is common to all */
static const FcSchemaEntry body_type_entry   = {.key = "type", .types = FC_T_STRING, .def = "\"deformable\""};
/* name: required, but for an entry with mesh.volumes, whose bodies are named after the volumes
 * (checked by BodiesCheck_Private) */
static const FcSchemaEntry body_common_keys[] = {
  {.key = "name", .types = FC_T_STRING, .charset = NAME_CHARS, .len_max = NAME_MAX_CHARS},
  {.key = NULL}
};
/* bodies[i].kinematics (duriez2006 §6.2): "plain", the nodal FEM motion; "global_corotational",
 * a rigid motion (centre of mass, rotation) plus a linear deformation in the co-rotated frame,
 * whose compliance W = Σ H C Hᵀ + J A⁻¹ Jᵀ splits the rigid part off (src/model/body_deformable.c;
 * the conditions it needs, a free linear body, are checked when the body is built). */
static const char *const   body_kinematics[] = {"plain", "global_corotational", NULL};
static const FcSchemaEntry body_deformable_keys[] = {
  {.key = "mesh",     .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &mesh_object},
  {.key = "material", .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &material_object},
  {.key = "damping",  .types = FC_T_OBJECT, .def = "{}", .object = &damping_object},
  {.key = "plane_strain", .types = FC_T_BOOL, .def = "false"},
  {.key = "kinematics", .types = FC_T_STRING, .def = "\"plain\"", .choices = body_kinematics},
  {.key = "boundary", .types = FC_T_ARRAY,  .def = "[]", .elem = &boundary_elem},
  {.key = "loads",    .types = FC_T_ARRAY,  .def = "[]", .elem = &load_elem},
  {.key = NULL}
};
static const FcSchemaEntry body_rigid_keys[] = {
  {.key = "shape",  .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &shape_object},
  {.key = "motion", .types = FC_T_OBJECT, .def = "{\"type\": \"fixed\"}", .object = &motion_object},
  {.key = NULL}
};
static const FcSchemaVariant body_variants[] = {
  {"deformable", body_deformable_keys},
  {"rigid",      body_rigid_keys     },
  {NULL,         NULL                }
};
static const FcSchemaObject body_object = {.common = body_common_keys, .discriminator = &body_type_entry, .variants = body_variants};
static const FcSchemaEntry  body_elem   = {.types = FC_T_OBJECT, .object = &body_object};

/* contacts[i]: the cross references (names, contactor deformable, ...) are checked by
 * RootCheck_Private. alarm absent: automatic. */
static const FcSchemaEntry contact_name_elem = {.types = FC_T_STRING, .len_min = 1, .len_max = NAME_MAX_CHARS};
static const char *const   contact_formulations[] = {"node_to_surface", "mortar", NULL};
/* pair: two names or patterns (every body of the first group against every body of the second);
 * bodies: names or patterns (every pair among them); exactly one of the two (ContactsCheck_Private) */
static const FcSchemaEntry contact_keys[]    = {
  {.key = "pair",           .types = FC_T_ARRAY,  .len_min = 2, .len_max = 2, .elem = &contact_name_elem},
  {.key = "bodies",         .types = FC_T_ARRAY,  .len_min = 1, .elem = &contact_name_elem},
  {.key = "surface",        .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private},
  {.key = "target_surface", .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private},
  {.key = "mu",             .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = "alarm",          .types = FC_T_NUMBER, .range = FC_RANGE_GT(0)},
  {.key = "both_passes",    .types = FC_T_BOOL,   .def = "false"},
  /* node_to_surface: each contactor node against its closest target triangle; mortar: against
   * the N_a-weighted mean of the target over the node's support (doc/contact.md, "Mortar") */
  {.key = "formulation",    .types = FC_T_STRING, .def = "\"node_to_surface\"", .choices = contact_formulations},
  {.key = NULL}
};
static const FcSchemaObject contact_object = {.entries = contact_keys};
static const FcSchemaEntry  contact_elem   = {.types = FC_T_OBJECT, .object = &contact_object};

/* contact_solver: the type is validated by the solver registry when the run starts */
static const FcSchemaEntry contact_solver_keys[] = {
  {.key = "type",       .types = FC_T_STRING,  .def = "\"nsgs\"", .len_max = NAME_MAX_CHARS, .check = SolverNameCheck_Private},
  {.key = "tol",        .types = FC_T_NUMBER,  .def = "1e-10", .range = FC_RANGE_GT(0)},
  {.key = "max_it",     .types = FC_T_INTEGER, .def = "1000", .range = FC_RANGE_GE(1)},
  {.key = "warm_start", .types = FC_T_BOOL,    .def = "true"},
  /* a converged solve with a larger common error fails (solver.h); absent: no bound, because
   * sap's common error is its model's distance from Coulomb's law, which depends on the case */
  {.key = "max_error",  .types = FC_T_NUMBER,  .range = FC_RANGE_GT(0)},
  /* a regularized type's answer (sap) above tol: accepted up to the bound (true: 1e-2, solver.h
   * FC_CONTACT_SOLVER_ACCEPT_REGULARIZED; a number: that bound), or never (false) */
  {.key = "accept_regularized", .types = FC_T_BOOL | FC_T_NUMBER, .def = "true", .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
static const FcSchemaObject contact_solver_object = {.entries = contact_solver_keys};

/* compliance: the type is validated by the compliance registry (src/compliance) when the run starts */
static const FcSchemaEntry compliance_keys[] = {
  {.key = "type", .types = FC_T_STRING, .def = "\"exact\"", .len_max = NAME_MAX_CHARS, .check = SolverNameCheck_Private},
  {.key = NULL}
};
static const FcSchemaObject compliance_object = {.entries = compliance_keys};

/* time */
static const FcSchemaEntry newton_keys[] = {
  {.key = "max_it",        .types = FC_T_INTEGER, .def = "25",    .range = FC_RANGE_GE(1)},
  {.key = "rtol",          .types = FC_T_NUMBER,  .def = "1e-10", .range = FC_RANGE_GT(0)},
  {.key = "atol",          .types = FC_T_NUMBER,  .def = "1e-12", .range = FC_RANGE_GE(0)},
  {.key = "allow_failure", .types = FC_T_BOOL,    .def = "false"},
  /* quasi-static modified Newton A = K + shift M [1/s^2]: see case.h */
  {.key = "shift",         .types = FC_T_NUMBER,  .def = "0", .range = FC_RANGE_GE(0)},
  /* Newton matrix made positive definite by A + δM when it has negative eigenvalues: see case.h */
  {.key = "inertia_correction", .types = FC_T_BOOL, .def = "true"},
  {.key = NULL}
};
static const FcSchemaObject newton_object = {.entries = newton_keys};
static const char *const    integrators[] = {"quasi_static", "backward_euler", "midpoint", "symplectic_euler", "theta", NULL};
static const FcSchemaEntry  time_keys[]   = {
  {.key = "integrator", .types = FC_T_STRING,  .def = "\"quasi_static\"", .choices = integrators},
  {.key = "dt",         .types = FC_T_NUMBER,  .required = PETSC_TRUE, .range = FC_RANGE_GT(0), .bound = &dt_bound},
  {.key = "t_end",      .types = FC_T_NUMBER,  .range = FC_RANGE_GT(0)},
  {.key = "steps",      .types = FC_T_INTEGER, .range = FC_RANGE_GE(1)},
  {.key = "newton",     .types = FC_T_OBJECT,  .def = "{}", .object = &newton_object},
  /* θ-method parameters (han2023 eq. 1–4), only with integrator "theta"; the named integrators
   * fix them: backward_euler θ = θ_vq = 1, midpoint θ = θ_vq = ½, symplectic_euler θ = 0, θ_vq = 1. */
  {.key = "theta",      .types = FC_T_NUMBER,  .range = FC_RANGE_CC(0, 1)},
  {.key = "theta_vq",   .types = FC_T_NUMBER,  .range = FC_RANGE_CC(0, 1)}, /* 0 rejected by TimeCheck_Private */
  {.key = "cutback",    .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 10)},
  {.key = NULL}
};
static const FcSchemaObject time_object = {.entries = time_keys, .check = TimeCheck_Private};

/* probes[i]: the keys depend on the type */
static const FcSchemaEntry probe_type_entry = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
#define PROBE_NAME_ENTRY {.key = "name", .types = FC_T_STRING, .required = PETSC_TRUE, .charset = PROBE_CHARS, .len_max = NAME_MAX_CHARS}
/* Vector probes (displacement, reaction, contact_force) write 3 columns NAME_x, NAME_y, NAME_z,
 * or, with "component", the one column NAME. "scale" multiplies the values written (e.g. -2 to
 * turn a plate's travel into the total compression of a symmetric model). */
static const char *const probe_components[] = {"x", "y", "z", NULL};
#define PROBE_COMPONENT_ENTRY {.key = "component", .types = FC_T_STRING, .choices = probe_components}
#define PROBE_SCALE_ENTRY     {.key = "scale", .types = FC_T_NUMBER, .def = "1"}
static const FcSchemaEntry probe_displacement_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body",  .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1},
  /* deformable body: exactly one of point (the nearest node) and group (the area-weighted mean
   * over a surface group); rigid body: neither (the body's translation) */
  {.key = "point", .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = "group", .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS, .check = NoControlCheck_Private},
  PROBE_COMPONENT_ENTRY,
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
static const FcSchemaEntry probe_reaction_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body", .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1},
  GROUP_ENTRY,
  PROBE_COMPONENT_ENTRY,
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
/* body "" = the sum over all bodies */
static const FcSchemaEntry probe_energy_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body", .types = FC_T_STRING, .def = "\"\""},
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
/* pair < number of contacts: checked by RootCheck_Private */
static const FcSchemaEntry probe_contact_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "pair", .types = FC_T_INTEGER, .required = PETSC_TRUE, .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
static const FcSchemaEntry probe_contact_force_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "pair", .types = FC_T_INTEGER, .required = PETSC_TRUE, .range = FC_RANGE_GE(0)},
  PROBE_COMPONENT_ENTRY,
  PROBE_SCALE_ENTRY,
  {.key = NULL}
};
static const FcSchemaVariant probe_variants[] = {
  {"displacement",    probe_displacement_keys},
  {"reaction",        probe_reaction_keys    },
  {"kinetic_energy",  probe_energy_keys      },
  {"strain_energy",   probe_energy_keys      },
  {"contact_force",   probe_contact_force_keys},
  {"active_contacts", probe_contact_keys     },
  {NULL,              NULL                   }
};
static const FcSchemaObject probe_object = {.discriminator = &probe_type_entry, .variants = probe_variants};
static const FcSchemaEntry  probe_elem   = {.types = FC_T_OBJECT, .object = &probe_object};

/* verdict (case.h FcCaseVerdict): the probe columns are checked against the model's columns
 * when the run starts (src/run/verdict.c), where they are known */
static const FcSchemaEntry verdict_keys[] = {
  {.key = "drop",             .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS, .charset = PROBE_CHARS},
  {.key = "energy",           .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS, .charset = PROBE_CHARS},
  {.key = "rise",             .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "after",            .types = FC_T_NUMBER, .def = "5",    .range = FC_RANGE_GE(0)},
  {.key = "stand_drop",       .types = FC_T_NUMBER, .def = "0.01", .range = FC_RANGE_GT(0)},
  {.key = "stand_energy",     .types = FC_T_NUMBER, .def = "1e-6", .range = FC_RANGE_GT(0)},
  {.key = "collapse_drop",    .types = FC_T_NUMBER, .def = "0.1",  .range = FC_RANGE_GT(0)},
  {.key = "stop_on_collapse", .types = FC_T_BOOL,   .def = "false"},
  {.key = NULL}
};
static const FcSchemaObject verdict_object = {.entries = verdict_keys};

/* haptic (case.h FcCaseHaptic): the rate against time.dt and the tool against the bodies and
 * contacts are checked when the run starts (src/run/haptic.c), where the model is known */
static const FcSchemaEntry haptic_keys[] = {
  {.key = "rate",           .types = FC_T_NUMBER,  .def = "1000", .range = FC_RANGE_GT(0)},
  {.key = "max_iterations", .types = FC_T_INTEGER, .def = "20",   .range = FC_RANGE_GE(1)},
  {.key = "strict",         .types = FC_T_BOOL,    .def = "false"},
  {.key = "tool",           .types = FC_T_STRING,  .len_min = 1, .len_max = NAME_MAX_CHARS, .charset = NAME_CHARS}, /* absent: the one candidate */
  {.key = "passivity_rtol", .types = FC_T_NUMBER,  .def = "1e-4", .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
static const FcSchemaObject haptic_object = {.entries = haptic_keys};

/* output */
static const char *const   vtk_formats[] = {"binary", "ascii", NULL};
static const FcSchemaEntry output_keys[] = {
  {.key = "dir",        .types = FC_T_STRING,  .def = "\"results\"", .len_min = 1, .len_max = PATH_MAX_CHARS, .check = NoControlCheck_Private},
  {.key = "every",      .types = FC_T_INTEGER, .def = "1", .range = FC_RANGE_GE(1)},
  {.key = "hdf5",       .types = FC_T_BOOL,    .def = "true"},
  {.key = "vtk",        .types = FC_T_BOOL,    .def = "true"},
  {.key = "vtk_format", .types = FC_T_STRING,  .def = "\"binary\"", .choices = vtk_formats},
  {.key = "fclib",      .types = FC_T_BOOL,    .def = "false"},
  {.key = NULL}
};
static const FcSchemaObject output_object = {.entries = output_keys};

/* petsc: option names that configure solvers (petsc_opts.h) */
static PetscErrorCode PetscOptionCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscBool view;
  char      format[64];

  PetscFunctionBegin;
  PetscCall(NoControlCheck_Private(ctx, item, path));
  PetscCall(FcCasePetscOptionCheck(ctx->file, path, item, &view, format, sizeof format));
  PetscFunctionReturn(0);
}
static const FcSchemaEntry  petsc_value  = {.types = FC_T_STRING | FC_T_NUMBER | FC_T_BOOL, .check = PetscOptionCheck_Private};
static const FcSchemaObject petsc_object = {.map_value = &petsc_value, .map_charset = "_"};

/* root */
static const FcSchemaEntry root_keys[] = {
  {.key = "name",        .types = FC_T_STRING, .required = PETSC_TRUE, .charset = NAME_CHARS, .len_max = NAME_MAX_CHARS},
  {.key = "description", .types = FC_T_STRING, .def = "\"\""},
  {.key = "time",        .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &time_object},
  /* [gx, gy, gz], or {"table": [[t, gx, gy, gz], ...]} interpolated in time (held outside) */
  {.key = "gravity",     .types = FC_T_ARRAY | FC_T_OBJECT, .def = "[0, 0, 0]", .len_min = 3, .len_max = 3, .elem = &number_elem, .object = &kin_table_object},
  {.key = "bodies",      .types = FC_T_ARRAY,  .required = PETSC_TRUE, .len_min = 1, .elem = &body_elem, .check = BodiesCheck_Private},
  {.key = "contacts",       .types = FC_T_ARRAY,  .def = "[]", .elem = &contact_elem},
  {.key = "contact_solver", .types = FC_T_OBJECT, .def = "{}", .object = &contact_solver_object},
  {.key = "compliance",     .types = FC_T_OBJECT, .def = "{}", .object = &compliance_object},
  {.key = "probes",      .types = FC_T_ARRAY,  .def = "[]", .elem = &probe_elem, .check = ProbesCheck_Private},
  {.key = "output",      .types = FC_T_OBJECT, .def = "{}", .object = &output_object},
  {.key = "verdict",     .types = FC_T_OBJECT, .object = &verdict_object},
  {.key = "haptic",      .types = FC_T_OBJECT, .object = &haptic_object},
  {.key = "petsc",       .types = FC_T_OBJECT, .def = "{}", .object = &petsc_object},
  {.key = NULL}
};
static const FcSchemaObject root_object = {.entries = root_keys, .check = RootCheck_Private};

/* ------------------------------------------------------------------------------------------ */
/* Custom checks that need the tables above.                                                  */
/* ------------------------------------------------------------------------------------------ */

static PetscErrorCode BoundaryCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON *fix = Get_Private(obj, "fix"), *disp = Get_Private(obj, "displacement");
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (!fix && !disp) return FcInputError(ctx->file, path, "exactly one of \"fix\" or \"displacement\" is required");
  if (fix && disp) return FcInputError(ctx->file, path, "give exactly one of \"fix\" and \"displacement\", not both");
  if (Get_Private(obj, "ramp")) {
    /* fix is zero at all times and a table carries its own time dependence. */
    FcSchemaPathKey(sub, sizeof sub, path, "ramp");
    if (!cJSON_IsArray(disp)) return FcInputError(ctx->file, sub, "only allowed with the \"displacement\": [ux, uy, uz] form");
  } else if (cJSON_IsArray(disp)) PetscCall(FcSchemaAddDefault(ctx, &ramp_constant_default, obj, path));
  PetscFunctionReturn(0);
}

/* kinematic: a ramp only scales the [ux, uy, uz] form (a table carries its own time). */
static PetscErrorCode KinematicCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON *disp = Get_Private(obj, "displacement");
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (Get_Private(obj, "ramp")) {
    FcSchemaPathKey(sub, sizeof sub, path, "ramp");
    if (!cJSON_IsArray(disp)) return FcInputError(ctx->file, sub, "only allowed with the \"displacement\": [ux, uy, uz] form");
  } else if (cJSON_IsArray(disp)) PetscCall(FcSchemaAddDefault(ctx, &ramp_constant_default, obj, path));
  {
    cJSON *rot = Get_Private(obj, "rotation");
    if (rot) {
      cJSON *angle = Get_Private(rot, "angle"), *table = Get_Private(rot, "table");
      FcSchemaPathKey(sub, sizeof sub, path, "rotation");
      if (!angle == !table) return FcInputError(ctx->file, sub, "give exactly one of \"angle\" (scaled by the motion's ramp) and \"table\" ([[t, angle], ...])");
      if (angle && !cJSON_IsArray(disp)) {
        char s2[FC_PATH_LEN];
        FcSchemaPathKey(s2, sizeof s2, sub, "angle");
        return FcInputError(ctx->file, s2, "is scaled by the motion's ramp, which only the \"displacement\": [ux, uy, uz] form has: give the rotation as a \"table\"");
      }
    }
  }
  PetscFunctionReturn(0);
}

/* dynamic: a free body rotates, so it needs its (positive) principal moments of inertia; with
 * a prismatic or fixed joint they are unused and default to 0. */
static PetscErrorCode DynamicCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  cJSON      *inertia = Get_Private(obj, "inertia");
  const char *joint   = Str_Private(Get_Private(obj, "joint"), "type");
  char        sub[FC_PATH_LEN], pp[FC_PATH_LEN];

  PetscFunctionBegin;
  FcSchemaPathKey(pp, sizeof pp, path, "inertia");
  if (strcmp(joint, "free")) {
    if (!inertia) PetscCall(FcSchemaAddDefault(ctx, &inertia_default, obj, path));
    PetscFunctionReturn(0);
  }
  if (!inertia) return FcInputError(ctx->file, pp, "required key \"inertia\" is missing (a body with a free joint rotates)");
  for (int k = 0; k < 3; k++) {
    if (cJSON_GetArrayItem(inertia, k)->valuedouble > 0) continue;
    FcSchemaPathIndex(sub, sizeof sub, pp, k);
    return FcInputError(ctx->file, sub, "must be > 0 with a free joint, got 0");
  }
  PetscFunctionReturn(0);
}

/* A transform's rotation given as a quaternion [w, x, y, z]: its norm must not vanish (it is
 * normalized when the case is filled; the trajectory loader refuses the same below 1e-6). */
static PetscErrorCode QuaternionCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscReal n = 0;

  PetscFunctionBegin;
  if (!cJSON_IsArray(item)) PetscFunctionReturn(0);
  for (int k = 0; k < 4; k++) n += PetscSqr(cJSON_GetArrayItem(item, k)->valuedouble);
  if (!(PetscSqrtReal(n) > 1e-6)) return FcInputError(ctx->file, path, "the quaternion [w, x, y, z] has zero norm (%g): it is no rotation", (double)PetscSqrtReal(n));
  PetscFunctionReturn(0);
}

static PetscErrorCode WindowCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  PetscFunctionBegin;
  if (!(cJSON_GetArrayItem(item, 1)->valuedouble > cJSON_GetArrayItem(item, 0)->valuedouble)) return FcInputError(ctx->file, path, "must be [t0, t1] with t1 > t0 (seconds from the log's first sample)");
  PetscFunctionReturn(0);
}

/* A device log: a JointState log states no unit, so "units" is required for it (no default). */
static PetscErrorCode TrajectoryCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  char sub[FC_PATH_LEN];

  PetscFunctionBegin;
  FcSchemaPathKey(sub, sizeof sub, path, "units");
  if (!strcmp(Str_Private(obj, "format"), "ros_jointstate") && !Get_Private(obj, "units"))
    return FcInputError(ctx->file, sub, "required key \"units\" is missing: a ros_jointstate log states no unit (\"mm\" for the Geomagic/Omni drivers, or \"m\")");
  PetscFunctionReturn(0);
}

static PetscErrorCode MotionCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
{
  const char *type = Str_Private(obj, "type");

  PetscFunctionBegin;
  if (!strcmp(type, "kinematic")) PetscCall(KinematicCheck_Private(ctx, obj, path));
  else if (!strcmp(type, "dynamic")) PetscCall(DynamicCheck_Private(ctx, obj, path));
  else if (!strcmp(type, "trajectory")) PetscCall(TrajectoryCheck_Private(ctx, obj, path));
  if (!strcmp(type, "dynamic") && Get_Private(obj, "coupling") && strcmp(Str_Private(Get_Private(obj, "joint"), "type"), "free")) {
    char sub[FC_PATH_LEN];
    FcSchemaPathKey(sub, sizeof sub, path, "coupling");
    return FcInputError(ctx->file, sub, "a virtual coupling drives all six DoFs of the tool: it needs \"joint\": {\"type\": \"free\"}");
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LoadCheck_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path)
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

/* Names that identify array elements (body names, probe names) must be unique. Sorted (name,
 * index) pairs, O(n log n): a case may hold a million probes, and comparing every name with every
 * earlier one took minutes. The duplicate reported is the one a scan in document order meets
 * first: the smallest index i whose name an earlier element j has (j the first of those). */
typedef struct {
  const char *name;
  PetscInt    index;
} NameIndex_Private;

static int NameIndexCmp_Private(const void *a, const void *b)
{
  const NameIndex_Private *x = (const NameIndex_Private *)a, *y = (const NameIndex_Private *)b;
  int                      c = strcmp(x->name, y->name);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

static PetscErrorCode UniqueNames_Private(FcSchemaCtx *ctx, cJSON *arr, const char *path, const char *what)
{
  PetscInt           n = 0, i = -1, j = -1;
  cJSON             *a;
  NameIndex_Private *v;
  char               pi[FC_PATH_LEN], sub[FC_PATH_LEN], first[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cJSON_GetArraySize(arr) + 1, &v));
  cJSON_ArrayForEach(a, arr)
  {
    v[n].name  = Get_Private(a, "name")->valuestring;
    v[n].index = n;
    n++;
  }
  qsort(v, (size_t)n, sizeof *v, NameIndexCmp_Private);
  for (PetscInt k = 1; k < n; k++)
    if (!strcmp(v[k].name, v[k - 1].name) && (k < 2 || strcmp(v[k].name, v[k - 2].name)) && (i < 0 || v[k].index < i)) {
      i = v[k].index; /* the second of its group: the first element that repeats this name */
      j = v[k - 1].index;
    }
  if (i >= 0) {
    const char *name = Get_Private(cJSON_GetArrayItem(arr, (int)i), "name")->valuestring;
    PetscCall(PetscFree(v));
    FcSchemaPathIndex(pi, sizeof pi, path, i);
    FcSchemaPathKey(sub, sizeof sub, pi, "name");
    FcSchemaPathIndex(first, sizeof first, path, j);
    return FcInputError(ctx->file, sub, "duplicate %s name \"%s\" (also %s)", what, name, first);
  }
  PetscCall(PetscFree(v));
  PetscFunctionReturn(0);
}

static PetscBool IsRigid_Private(const cJSON *body)
{
  return strcmp(Str_Private(body, "type"), "rigid") ? PETSC_FALSE : PETSC_TRUE;
}

/* bodies[E].key as the case file writes it (case.h). */
void FcCaseBodyPath(const FcCase *c, PetscInt i, const char *key, char *out, size_t len)
{
  const FcCaseBody *b = &c->bodies[i];
  int               n = snprintf(out, len, "bodies[%d]%s%s", (int)b->entry, key && key[0] ? "." : "", key ? key : "");
  if (b->from_volumes && n >= 0 && (size_t)n < len) snprintf(out + n, len - (size_t)n, " (body '%.100s')", b->name);
}

/* Glob-like match of a body or volume name: '*' any run of characters, '?' one character (names
 * are [A-Za-z0-9_.-]+, so neither is ever literal). */
PetscBool FcCaseNameMatch(const char *pattern, const char *name)
{
  const char *star = NULL, *resume = NULL;
  while (*name) {
    if (*pattern == '*') {
      star   = pattern++;
      resume = name;
    } else if (*pattern == '?' || *pattern == *name) {
      pattern++;
      name++;
    } else if (star) {
      pattern = star + 1;
      name    = ++resume;
    } else return PETSC_FALSE;
  }
  while (*pattern == '*') pattern++;
  return *pattern ? PETSC_FALSE : PETSC_TRUE;
}

static PetscBool IsPattern_Private(const char *s)
{
  return strpbrk(s, "*?") ? PETSC_TRUE : PETSC_FALSE;
}

/* bodies[i].mesh.volume / volumes: the physical volumes of the mesh file are listed (once per
 * entry); `volume` must name one with tetrahedra; `volumes` must match at least one, every match
 * must have tetrahedra and a name usable as a body name. On success, *expanded is the array of
 * the bodies the entry stands for (NULL for an entry without volumes). */
static PetscErrorCode VolumesExpand_Private(FcSchemaCtx *ctx, cJSON *body, const char *path, cJSON **expanded)
{
  cJSON      *mesh = Get_Private(body, "mesh"), *vol, *vols, *name = Get_Private(body, "name");
  char        file[PETSC_MAX_PATH_LEN], sub[FC_PATH_LEN], mp[FC_PATH_LEN], shown[256], list[1024] = "";
  char      (*names)[FC_NAME_LEN] = NULL;
  PetscInt    n = 0, *ntets = NULL, nmatch = 0;
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *expanded = NULL;
  if (!mesh || IsRigid_Private(body)) {
    if (!name) {
      FcSchemaPathKey(sub, sizeof sub, path, "name");
      return FcInputError(ctx->file, sub, "required key \"name\" is missing");
    }
    PetscFunctionReturn(0);
  }
  vol  = Get_Private(mesh, "volume");
  vols = Get_Private(mesh, "volumes");
  FcSchemaPathKey(mp, sizeof mp, path, "mesh");
  if (!vols && !name) {
    FcSchemaPathKey(sub, sizeof sub, path, "name");
    return FcInputError(ctx->file, sub, "required key \"name\" is missing (only an entry with mesh.volumes takes its bodies' names from the mesh)");
  }
  if (vols && name) {
    FcSchemaPathKey(sub, sizeof sub, path, "name");
    return FcInputError(ctx->file, sub, "not with mesh.volumes: each body of the entry is named after its physical volume");
  }
  if (vol && vols) {
    FcSchemaPathKey(sub, sizeof sub, mp, "volumes");
    return FcInputError(ctx->file, sub, "give at most one of \"volume\" and \"volumes\"");
  }
  if (!vol && !vols) PetscFunctionReturn(0);
  FcSchemaPathKey(sub, sizeof sub, mp, "file");
  PetscCall(MeshFileResolve_Private(ctx, Str_Private(mesh, "file"), sub, file, sizeof file));
  PetscCall(FcMeshListVolumes(file, &n, &names, &ntets));
  for (PetscInt v = 0; v < n; v++) {
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s'%s'", l ? ", " : "", names[v]);
  }
  FcSchemaPathKey(sub, sizeof sub, mp, vol ? "volume" : "volumes");
  if (vol) {
    PetscInt v;
    for (v = 0; v < n; v++)
      if (!strcmp(names[v], vol->valuestring)) break;
    if (v == n) rc = FcInputError(ctx->file, sub, "no physical volume '%s' in %s (volumes: %s)", FcSchemaEscape(shown, sizeof shown, vol->valuestring), file, n ? list : "none");
    else if (!ntets[v]) rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s has no tetrahedra", names[v], file);
  } else {
    cJSON *arr = cJSON_CreateArray();
    for (PetscInt v = 0; v < n && !rc; v++) {
      cJSON *b, *m, *it;
      if (!FcCaseNameMatch(vols->valuestring, names[v])) continue;
      nmatch++;
      if (!ntets[v]) {
        rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s has no tetrahedra (an empty volume cannot be a body)", names[v], file);
        break;
      }
      if (!names[v][0] || strspn(names[v], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" NAME_CHARS) != strlen(names[v])) {
        rc = FcInputError(ctx->file, sub, "physical volume '%s' of %s cannot name a body (body names are [A-Za-z0-9_.-]+)", FcSchemaEscape(shown, sizeof shown, names[v]), file);
        break;
      }
      /* the entry with its volume: name first, mesh.volumes replaced by mesh.volume */
      b = cJSON_CreateObject();
      cJSON_AddStringToObject(b, "name", names[v]);
      cJSON_ArrayForEach(it, body)
      {
        if (strcmp(it->string, "mesh")) {
          cJSON_AddItemToObject(b, it->string, cJSON_Duplicate(it, 1));
          continue;
        }
        m = cJSON_CreateObject();
        cJSON *mi;
        cJSON_ArrayForEach(mi, it)
        {
          if (!strcmp(mi->string, "volumes")) cJSON_AddStringToObject(m, "volume", names[v]);
          else cJSON_AddItemToObject(m, mi->string, cJSON_Duplicate(mi, 1));
        }
        cJSON_AddItemToObject(b, "mesh", m);
      }
      cJSON_AddItemToArray(arr, b);
    }
    if (!rc && !nmatch) rc = FcInputError(ctx->file, sub, "the pattern \"%s\" matches no physical volume of %s (volumes: %s)", FcSchemaEscape(shown, sizeof shown, vols->valuestring), file, n ? list : "none");
    if (rc) cJSON_Delete(arr);
    else *expanded = arr;
  }
  PetscCall(PetscFree2(names, ntets));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* Entries with mesh.volumes are replaced, in place, by the bodies they stand for; then names
 * must be unique. The array is rebuilt by detaching every entry and appending it (or its bodies)
 * again, in order: cJSON's insertion in the middle of an array is not used (some cJSON versions
 * leave the head's prev link stale after an insertion at index 0). */
static PetscErrorCode BodiesCheck_Private(FcSchemaCtx *ctx, cJSON *arr, const char *path)
{
  PetscInt       i = 0, ngiven = (PetscInt)cJSON_GetArraySize(arr), *count;
  cJSON         *all = cJSON_CreateArray(), *b;
  char           pi[FC_PATH_LEN];
  PetscErrorCode rc = 0;
  BodyEntries   *be = (BodyEntries *)ctx->user;

  PetscFunctionBegin;
  if (!all) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "cJSON allocation failed");
  PetscCall(PetscCalloc1(ngiven, &count)); /* bodies per entry of the file: 0 for an expanded one */
  while (arr->child) cJSON_AddItemToArray(all, cJSON_DetachItemViaPointer(arr, arr->child));
  while ((b = all->child)) {
    cJSON *expanded = NULL;
    cJSON_DetachItemViaPointer(all, b);
    FcSchemaPathIndex(pi, sizeof pi, path, i);
    if (!rc) rc = VolumesExpand_Private(ctx, b, pi, &expanded);
    if (!expanded) {
      cJSON_AddItemToArray(arr, b); /* on error too: the tree stays whole for the caller to free */
      i++;
      continue;
    }
    count[i] = (PetscInt)cJSON_GetArraySize(expanded);
    while (expanded->child) cJSON_AddItemToArray(arr, cJSON_DetachItemViaPointer(expanded, expanded->child));
    i++;
    cJSON_Delete(expanded);
    cJSON_Delete(b);
  }
  cJSON_Delete(all);
  /* the entry of the file each body comes from, for the paths of later errors (FcCaseBodyPath) */
  if (!rc && be) {
    PetscInt k = 0;
    be->n      = (PetscInt)cJSON_GetArraySize(arr);
    PetscCall(PetscMalloc2(be->n, &be->entry, be->n, &be->expanded));
    for (i = 0; i < ngiven; i++)
      for (PetscInt j = 0; j < PetscMax(count[i], 1); j++, k++) {
        be->entry[k]    = i;
        be->expanded[k] = count[i] ? PETSC_TRUE : PETSC_FALSE;
      }
  }
  PetscCall(PetscFree(count));
  PetscCall(rc);
  PetscCall(UniqueNames_Private(ctx, arr, path, "body"));
  PetscFunctionReturn(0);
}

static PetscErrorCode ProbesCheck_Private(FcSchemaCtx *ctx, cJSON *arr, const char *path)
{
  cJSON   *p;
  PetscInt i = 0;
  char     pi[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(UniqueNames_Private(ctx, arr, path, "probe"));
  cJSON_ArrayForEach(p, arr)
  {
    /* run.h5:/probes holds step, time and columns beside one dataset per column
     * (doc/output-format.md): a probe may not take those names */
    const char *name = Get_Private(p, "name")->valuestring;
    if (!strcmp(name, "step") || !strcmp(name, "time") || !strcmp(name, "columns")) {
      char sub[FC_PATH_LEN];
      FcSchemaPathIndex(pi, sizeof pi, path, i);
      FcSchemaPathKey(sub, sizeof sub, pi, "name");
      return FcInputError(ctx->file, sub, "\"%s\" is reserved (run.h5:/probes/%s holds the table's %s): choose another name", name, name, !strcmp(name, "columns") ? "column names" : name);
    }
    if (!strcmp(Get_Private(p, "type")->valuestring, "displacement")) {
      PetscBool point = Get_Private(p, "point") ? PETSC_TRUE : PETSC_FALSE, group = Get_Private(p, "group") ? PETSC_TRUE : PETSC_FALSE;
      FcSchemaPathIndex(pi, sizeof pi, path, i);
      if (point && group) return FcInputError(ctx->file, pi, "a displacement probe takes exactly one of \"point\" and \"group\"");
    }
    i++;
  }
  PetscFunctionReturn(0);
}

/* The element of `bodies` named `name` (and its index), or NULL. */
static cJSON *FindBody_Private(cJSON *bodies, const char *name, PetscInt *index)
{
  cJSON   *b;
  PetscInt i = 0;

  cJSON_ArrayForEach(b, bodies)
  {
    if (!strcmp(Str_Private(b, "name"), name)) {
      if (index) *index = i;
      return b;
    }
    i++;
  }
  return NULL;
}

static PetscErrorCode NoSuchBody_Private(FcSchemaCtx *ctx, cJSON *bodies, const char *name, const char *path)
{
  cJSON *b;
  char   list[1024] = "", shown[256];

  PetscFunctionBegin;
  cJSON_ArrayForEach(b, bodies)
  {
    size_t l = strlen(list);
    snprintf(list + l, sizeof list - l, "%s\"%s\"", l ? ", " : "", Str_Private(b, "name"));
  }
  return FcInputError(ctx->file, path, "no body named \"%s\" (bodies: %s)", FcSchemaEscape(shown, sizeof shown, name), list);
}


/* The bodies a list of names or patterns stands for (indices into bodies[], in list order, each
 * pattern's matches in body order). A name that is no body, a pattern that matches none, and a
 * body given twice are input errors on `path` (the list). *idx is freed by the caller. */
static PetscErrorCode ContactGroup_Private(FcSchemaCtx *ctx, cJSON *bodies, cJSON *list, PetscInt first, PetscInt count, const char *path, PetscInt *n, PetscInt **idx)
{
  const PetscInt nb = (PetscInt)cJSON_GetArraySize(bodies);
  PetscInt      *by;   /* per body: the list element that gave it, or -1 */
  PetscInt       k = 0;
  cJSON         *it;
  char           shown[256], shown2[256], sub[FC_PATH_LEN];
  PetscErrorCode rc = 0;

  PetscFunctionBegin;
  *n = 0;
  PetscCall(PetscMalloc1(nb + 1, idx));
  PetscCall(PetscMalloc1(nb + 1, &by));
  for (PetscInt j = 0; j < nb; j++) by[j] = -1;
  cJSON_ArrayForEach(it, list)
  {
    const char *pat = it->valuestring;
    PetscInt    j = 0, nm = 0;
    cJSON      *b;
    if (k < first || k >= first + count) {
      k++;
      continue;
    }
    /* errors name the list (contacts[i].pair or .bodies), as a missing body always did */
    snprintf(sub, sizeof sub, "%s", path);
    if (!IsPattern_Private(pat)) {
      PetscInt bi = -1;
      if (!FindBody_Private(bodies, pat, &bi)) {
        rc = NoSuchBody_Private(ctx, bodies, pat, sub);
        break;
      }
      if (by[bi] >= 0) {
        rc = FcInputError(ctx->file, sub, "body \"%s\" is listed twice (also by \"%s\")", pat, FcSchemaEscape(shown, sizeof shown, cJSON_GetArrayItem(list, (int)by[bi])->valuestring));
        break;
      }
      by[bi]          = k;
      (*idx)[(*n)++] = bi;
      k++;
      continue;
    }
    cJSON_ArrayForEach(b, bodies)
    {
      if (FcCaseNameMatch(pat, Str_Private(b, "name"))) {
        nm++;
        if (by[j] >= 0) {
          rc = FcInputError(ctx->file, sub, "body \"%s\" is listed twice (by \"%s\" and by \"%s\")", Str_Private(b, "name"), FcSchemaEscape(shown, sizeof shown, cJSON_GetArrayItem(list, (int)by[j])->valuestring), FcSchemaEscape(shown2, sizeof shown2, pat));
          break;
        }
        by[j]          = k;
        (*idx)[(*n)++] = j;
      }
      j++;
    }
    if (rc) break;
    if (!nm) {
      rc = FcInputError(ctx->file, sub, "the pattern \"%s\" matches no body", FcSchemaEscape(shown, sizeof shown, pat));
      break;
    }
    k++;
  }
  PetscCall(PetscFree(by));
  if (rc) PetscCall(PetscFree(*idx));
  PetscCall(rc);
  PetscFunctionReturn(0);
}

/* The items of a JSON array by index (cJSON_GetArrayItem walks the list: O(i) per call, O(n³)
 * over the n² pairs of n bodies). Freed with PetscFree. */
static PetscErrorCode ArrayItems_Private(cJSON *arr, cJSON ***items)
{
  cJSON   *el;
  PetscInt k = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cJSON_GetArraySize(arr) + 1, items));
  cJSON_ArrayForEach(el, arr)(*items)[k++] = el;
  PetscFunctionReturn(0);
}

/* The body pairs of contacts[i] (`pi` its path): "pair": every body of the first group (the
 * contactors) against every body of the second, the groups disjoint; "bodies": every pair among
 * the group, the deformable body (the earlier one of two deformable bodies) the contactor, pairs
 * of two rigid bodies left out. *pairs holds 2 indices per pair (freed by the caller). */
static PetscErrorCode ContactPairs_Private(FcSchemaCtx *ctx, cJSON *bodies, cJSON *ct, const char *pi, PetscInt *np, PetscInt **pairs)
{
  cJSON   *pair = Get_Private(ct, "pair"), *list = Get_Private(ct, "bodies");
  PetscInt na = 0, nb = 0, *ga = NULL, *gb = NULL;
  char     sub[FC_PATH_LEN];

  PetscFunctionBegin;
  *np    = 0;
  *pairs = NULL;
  if (!pair && !list) {
    FcSchemaPathKey(sub, sizeof sub, pi, "pair");
    return FcInputError(ctx->file, sub, "required key \"pair\" is missing (or \"bodies\", for every pair among a group)");
  }
  if (pair && list) return FcInputError(ctx->file, pi, "give exactly one of \"pair\" (two bodies or groups) and \"bodies\" (every pair among a group)");
  if (pair) {
    FcSchemaPathKey(sub, sizeof sub, pi, "pair");
    PetscCall(ContactGroup_Private(ctx, bodies, pair, 0, 1, sub, &na, &ga));
    {
      PetscErrorCode rc = ContactGroup_Private(ctx, bodies, pair, 1, 1, sub, &nb, &gb);
      if (rc) PetscCall(PetscFree(ga)); /* the second group is refused: the first is ours to free */
      PetscCall(rc);
    }
    for (PetscInt x = 0; x < na; x++)
      for (PetscInt y = 0; y < nb; y++)
        if (ga[x] == gb[y]) {
          const char *name = Str_Private(cJSON_GetArrayItem(bodies, (int)ga[x]), "name");
          PetscCall(PetscFree(ga));
          PetscCall(PetscFree(gb));
          if (IsPattern_Private(cJSON_GetArrayItem(pair, 0)->valuestring) || IsPattern_Private(cJSON_GetArrayItem(pair, 1)->valuestring)) return FcInputError(ctx->file, sub, "body \"%s\" is in both groups (for every pair among a group, write \"bodies\": [...])", name);
          return FcInputError(ctx->file, sub, "the two bodies must differ, got \"%s\" twice", name);
        }
    PetscCall(PetscMalloc1(2 * na * nb + 1, pairs));
    for (PetscInt x = 0; x < na; x++)
      for (PetscInt y = 0; y < nb; y++) {
        (*pairs)[2 * *np]     = ga[x];
        (*pairs)[2 * *np + 1] = gb[y];
        (*np)++;
      }
    PetscCall(PetscFree(ga));
    PetscCall(PetscFree(gb));
  } else {
    FcSchemaPathKey(sub, sizeof sub, pi, "bodies");
    cJSON    **bv;
    PetscBool *rigid;
    PetscCall(ContactGroup_Private(ctx, bodies, list, 0, (PetscInt)cJSON_GetArraySize(list), sub, &na, &ga));
    PetscCall(ArrayItems_Private(bodies, &bv));
    PetscCall(PetscMalloc1(na + 1, &rigid));
    for (PetscInt x = 0; x < na; x++) rigid[x] = IsRigid_Private(bv[ga[x]]);
    PetscCall(PetscFree(bv));
    PetscCall(PetscMalloc1(na * (na - 1) + 1, pairs));
    for (PetscInt x = 0; x < na; x++)
      for (PetscInt y = x + 1; y < na; y++) {
        PetscBool rx = rigid[x], ry = rigid[y];
        if (rx && ry) continue;
        (*pairs)[2 * *np]     = rx ? ga[y] : ga[x];
        (*pairs)[2 * *np + 1] = rx ? ga[x] : ga[y];
        (*np)++;
      }
    PetscCall(PetscFree(rigid));
    PetscCall(PetscFree(ga));
    if (!*np) {
      PetscCall(PetscFree(*pairs));
      return FcInputError(ctx->file, sub, "these bodies make no pair (one body, or only rigid bodies)");
    }
  }
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt64 key;
  PetscInt   entry;
} PairKey_Private;

static int PairKeyCmp_Private(const void *a, const void *b)
{
  const PairKey_Private *x = a, *y = b;
  if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
  return (x->entry > y->entry) - (x->entry < y->entry);
}

/* contacts[i]: every pair names two distinct existing bodies, the first (the contactor, whose
 * surface nodes are the contact points) deformable; target_surface needs a target with
 * physical groups, both_passes a deformable target; no pair of bodies is in two entries with the
 * same surfaces. */
static PetscErrorCode ContactsCheck_Private(FcSchemaCtx *ctx, cJSON *root)
{
  cJSON     *bodies = Get_Private(root, "bodies"), *ct, *b[2], **bv;
  PetscInt   i      = 0, nall = 0, cap = 0;
  PetscInt64 *keys = NULL; /* per pair made so far: (min body, max body), then its entry */
  PetscInt  *entry = NULL;
  char       pi[FC_PATH_LEN], sub[FC_PATH_LEN];
  const PetscInt nb = (PetscInt)cJSON_GetArraySize(bodies);

  PetscFunctionBegin;
  cJSON_ArrayForEach(ct, Get_Private(root, "contacts"))
  {
    cJSON      *ts = Get_Private(ct, "target_surface");
    const char *name[2];
    PetscInt    np, *pairs;

    FcSchemaPathIndex(pi, sizeof pi, "contacts", i);
    FcSchemaPathKey(sub, sizeof sub, pi, Get_Private(ct, "pair") ? "pair" : "bodies");
    PetscCall(ContactPairs_Private(ctx, bodies, ct, pi, &np, &pairs));
    {
      PetscErrorCode rc = ArrayItems_Private(bodies, &bv);
      if (rc) PetscCall(PetscFree(pairs));
      PetscCall(rc);
    }
    for (PetscInt p = 0; p < np; p++) {
      PetscErrorCode rc = 0;
      for (int k = 0; k < 2; k++) {
        b[k]    = bv[pairs[2 * p + k]];
        name[k] = Str_Private(b[k], "name");
      }
      if (IsRigid_Private(b[0])) {
        if (IsRigid_Private(b[1])) rc = FcInputError(ctx->file, sub, "\"%s\" and \"%s\" are both rigid: at least one body of a pair must be deformable", name[0], name[1]);
        else rc = FcInputError(ctx->file, sub, "the first body is the contactor and must be deformable, but \"%s\" is rigid (write [\"%s\", \"%s\"])", name[0], name[1], name[0]);
      } else if (IsRigid_Private(b[1])) {
        const char *shape = Str_Private(Get_Private(b[1], "shape"), "type");
        if (ts && strcmp(shape, "mesh")) {
          FcSchemaPathKey(sub, sizeof sub, pi, "target_surface");
          rc = FcInputError(ctx->file, sub, "only allowed when the target is deformable or a rigid \"mesh\" shape, but \"%s\" is a rigid \"%s\"", name[1], shape);
        } else if (Bool_Private(ct, "both_passes")) {
          FcSchemaPathKey(sub, sizeof sub, pi, "both_passes");
          rc = FcInputError(ctx->file, sub, "true is only allowed for a pair of deformable bodies, but \"%s\" is rigid", name[1]);
        } else if (!strcmp(Str_Private(ct, "formulation"), "mortar") && strcmp(shape, "mesh")) {
          FcSchemaPathKey(sub, sizeof sub, pi, "formulation");
          rc = FcInputError(ctx->file, sub, "\"mortar\" needs a target surface mesh (a deformable body or a rigid \"mesh\" shape), but \"%s\" is a rigid \"%s\"", name[1], shape);
        }
      }
      if (rc) {
        PetscCall(PetscFree(bv));
        PetscCall(PetscFree(pairs));
        PetscCall(PetscFree2(keys, entry));
        PetscCall(rc);
      }
    }
    PetscCall(PetscFree(bv));
    if (!strcmp(Str_Private(ct, "formulation"), "mortar") && Bool_Private(ct, "both_passes")) {
      PetscCall(PetscFree(pairs));
      PetscCall(PetscFree2(keys, entry));
      FcSchemaPathKey(sub, sizeof sub, pi, "both_passes");
      return FcInputError(ctx->file, sub, "not with the \"mortar\" formulation, whose weights already integrate over both surfaces");
    }
    /* a pair of bodies twice (with the same surfaces) would give every contact twice: W singular */
    if (!Get_Private(ct, "surface") && !ts) {
      if (nall + np > cap) {
        PetscInt64 *nk;
        PetscInt   *ne;
        cap = PetscMax(2 * cap, nall + np);
        PetscCall(PetscMalloc2(cap, &nk, cap, &ne));
        if (nall) {
          PetscCall(PetscArraycpy(nk, keys, nall));
          PetscCall(PetscArraycpy(ne, entry, nall));
        }
        PetscCall(PetscFree2(keys, entry));
        keys  = nk;
        entry = ne;
      }
      for (PetscInt p = 0; p < np; p++) {
        const PetscInt lo = PetscMin(pairs[2 * p], pairs[2 * p + 1]), hi = PetscMax(pairs[2 * p], pairs[2 * p + 1]);
        keys[nall]    = (PetscInt64)lo * nb + hi;
        entry[nall++] = i;
      }
    }
    PetscCall(PetscFree(pairs));
    i++;
  }
  if (nall > 1) {
    PairKey_Private *pk;
    PetscErrorCode   rc = 0;
    PetscCall(PetscMalloc1(nall, &pk));
    for (PetscInt p = 0; p < nall; p++) {
      pk[p].key   = keys[p];
      pk[p].entry = entry[p];
    }
    qsort(pk, (size_t)nall, sizeof *pk, PairKeyCmp_Private);
    for (PetscInt p = 1; p < nall && !rc; p++)
      if (pk[p].key == pk[p - 1].key) {
        const PetscInt e0 = PetscMin(pk[p].entry, pk[p - 1].entry), e1 = PetscMax(pk[p].entry, pk[p - 1].entry);
        const PetscInt lo = (PetscInt)(pk[p].key / nb), hi = (PetscInt)(pk[p].key % nb);
        FcSchemaPathIndex(pi, sizeof pi, "contacts", e1);
        rc = FcInputError(ctx->file, pi, "the pair of \"%s\" and \"%s\" is already in contacts[%" PetscInt_FMT "] (a pair listed twice gives every contact twice)", Str_Private(cJSON_GetArrayItem(bodies, (int)lo), "name"), Str_Private(cJSON_GetArrayItem(bodies, (int)hi), "name"), e0);
      }
    PetscCall(PetscFree(pk));
    PetscCall(PetscFree2(keys, entry));
    PetscCall(rc);
  } else PetscCall(PetscFree2(keys, entry));
  PetscFunctionReturn(0);
}

/* probes[i]: bodies exist (and are deformable for displacement and reaction), contact pairs
 * exist. */
static PetscErrorCode ProbesRefCheck_Private(FcSchemaCtx *ctx, cJSON *root)
{
  cJSON   *bodies = Get_Private(root, "bodies"), *p, *b;
  PetscInt i = 0, ncontacts = (PetscInt)cJSON_GetArraySize(Get_Private(root, "contacts"));
  char     pi[FC_PATH_LEN], sub[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(p, Get_Private(root, "probes"))
  {
    const char *type = Str_Private(p, "type");

    FcSchemaPathIndex(pi, sizeof pi, "probes", i);
    if (!strcmp(type, "contact_force") || !strcmp(type, "active_contacts")) {
      PetscInt pair = (PetscInt)Num_Private(p, "pair");
      FcSchemaPathKey(sub, sizeof sub, pi, "pair");
      if (ncontacts == 0) return FcInputError(ctx->file, sub, "no contact pair %" PetscInt_FMT ": the case has no contacts", pair);
      if (pair >= ncontacts) return FcInputError(ctx->file, sub, "no contact pair %" PetscInt_FMT " (contacts has %" PetscInt_FMT " element%s: indices 0 to %" PetscInt_FMT ")", pair, ncontacts, ncontacts == 1 ? "" : "s", ncontacts - 1);
    } else {
      const char *body = Str_Private(p, "body");
      FcSchemaPathKey(sub, sizeof sub, pi, "body");
      if (!body[0]) {
        i++;
        continue; /* energies: all bodies */
      }
      if (!(b = FindBody_Private(bodies, body, NULL))) return NoSuchBody_Private(ctx, bodies, body, sub);
      if (IsRigid_Private(b) && !strcmp(type, "reaction")) return FcInputError(ctx->file, sub, "body \"%s\" is rigid: a %s probe needs a deformable body", body, type);
      if (!strcmp(type, "displacement")) {
        PetscBool located = (Get_Private(p, "point") || Get_Private(p, "group")) ? PETSC_TRUE : PETSC_FALSE;
        if (IsRigid_Private(b) && located) {
          FcSchemaPathKey(sub, sizeof sub, pi, Get_Private(p, "point") ? "point" : "group");
          return FcInputError(ctx->file, sub, "body \"%s\" is rigid: its displacement probe is the body's translation and takes no \"point\" or \"group\"", body);
        }
        if (!IsRigid_Private(b) && !located) return FcInputError(ctx->file, pi, "a displacement probe takes exactly one of \"point\" and \"group\"");
      }
    }
    i++;
  }
  PetscFunctionReturn(0);
}

/* Cross references, once every member of the root is valid. */
static PetscErrorCode RootCheck_Private(FcSchemaCtx *ctx, cJSON *root, const char *path)
{
  PetscFunctionBegin;
  (void)path;
  PetscCall(ContactsCheck_Private(ctx, root));
  PetscCall(ProbesRefCheck_Private(ctx, root));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* From the validated tree to FcCase. Every key read here exists (required or defaulted).     */
/* ------------------------------------------------------------------------------------------ */

static void Vec3_Private(const cJSON *arr, PetscReal v[3])
{
  for (int k = 0; k < 3; k++) v[k] = cJSON_GetArrayItem(arr, k)->valuedouble;
}

/* Groups are names or integer tags; downstream code looks both up by their text. An absent
 * optional group is "". */
static PetscErrorCode GroupKey_Private(const cJSON *obj, const char *key, char *out, size_t len)
{
  const cJSON *g = Get_Private(obj, key);

  PetscFunctionBegin;
  if (!g) out[0] = 0;
  else if (cJSON_IsString(g)) PetscCall(PetscStrncpy(out, g->valuestring, len));
  else snprintf(out, len, "%" PetscInt_FMT, (PetscInt)g->valuedouble);
  PetscFunctionReturn(0);
}

static PetscErrorCode Group_Private(const cJSON *obj, char *out, size_t len)
{
  PetscFunctionBegin;
  PetscCall(GroupKey_Private(obj, "group", out, len));
  PetscFunctionReturn(0);
}

/* A direction, validated non-zero, as a unit vector. */
static void Dir3_Private(const cJSON *arr, PetscReal v[3])
{
  PetscReal n;

  Vec3_Private(arr, v);
  n = Norm3_Private(v);
  for (int k = 0; k < 3; k++) v[k] /= n;
}

static PetscErrorCode FillRamp_Private(FcSchemaCtx *ctx, cJSON *r, const char *path, PetscReal t_end, FcRamp *ramp)
{
  const char *type = Str_Private(r, "type");
  char        sub[FC_PATH_LEN], a[64], b[64];

  PetscFunctionBegin;
  if (!strcmp(type, "constant")) {
    ramp->type  = FC_RAMP_CONSTANT;
    ramp->value = Num_Private(r, "value");
  } else if (!strcmp(type, "linear")) {
    PetscBool defaulted = PETSC_FALSE;
    if (!Get_Private(r, "t1")) {
      PetscCheck(cJSON_AddNumberToObject(r, "t1", t_end), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory building the JSON tree");
      defaulted = PETSC_TRUE;
    }
    ramp->type = FC_RAMP_LINEAR;
    ramp->t0   = Num_Private(r, "t0");
    ramp->t1   = Num_Private(r, "t1");
    if (!(ramp->t1 > ramp->t0)) {
      FcSchemaPathKey(sub, sizeof sub, path, "t1");
      FcSchemaFormatNumber(a, sizeof a, ramp->t1);
      FcSchemaFormatNumber(b, sizeof b, ramp->t0);
      return FcInputError(ctx->file, sub, "must be > t0 = %s, got %s%s", b, a, defaulted ? " (the default, time.t_end)" : "");
    }
  } else {
    cJSON   *table = Get_Private(r, "table"), *row;
    PetscInt i     = 0;
    ramp->type     = FC_RAMP_TABLE;
    ramp->n        = (PetscInt)cJSON_GetArraySize(table);
    PetscCall(PetscMalloc2(ramp->n, &ramp->t, ramp->n, &ramp->s));
    cJSON_ArrayForEach(row, table)
    {
      ramp->t[i] = cJSON_GetArrayItem(row, 0)->valuedouble;
      ramp->s[i] = cJSON_GetArrayItem(row, 1)->valuedouble;
      i++;
    }
  }
  PetscFunctionReturn(0);
}

/* A displacement series as the table it stands for: row 0 at t = 0 with zero displacement, then
 * one row per increment k at t = k·dt, each moving `unit` metres further along its phase's
 * axis. All three components are prescribed (a rigid translation of the group). */
static PetscErrorCode FillSeries_Private(cJSON *series, PetscReal dt, FcCaseBoundary *bc)
{
  PetscReal unit = Num_Private(series, "unit"), x[3] = {0, 0, 0};
  PetscInt  n    = 0, k = 0;
  cJSON    *ph;

  PetscFunctionBegin;
  cJSON_ArrayForEach(ph, Get_Private(series, "phases")) n += (PetscInt)Num_Private(ph, "increments");
  bc->ntab = n + 1;
  PetscCall(PetscCalloc1(4 * bc->ntab, &bc->tab));
  cJSON_ArrayForEach(ph, Get_Private(series, "phases"))
  {
    const char *d    = Str_Private(ph, "direction");
    int         axis = d[1] - 'x';
    PetscReal   sign = d[0] == '-' ? -1 : 1;
    for (PetscInt i = 0; i < (PetscInt)Num_Private(ph, "increments"); i++) {
      k++;
      x[axis] += sign * unit;
      bc->tab[4 * k] = k * dt;
      for (int c = 0; c < 3; c++) bc->tab[4 * k + 1 + c] = x[c];
    }
  }
  for (int c = 0; c < 3; c++) bc->comp[c] = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode FillBoundary_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, PetscReal dt, FcCaseBoundary *bc)
{
  cJSON *fix = Get_Private(obj, "fix"), *disp = Get_Private(obj, "displacement"), *el;
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(Group_Private(obj, bc->group, sizeof bc->group));
  bc->ramp.type  = FC_RAMP_CONSTANT;
  bc->ramp.value = 1;
  if (fix) {
    for (int k = 0; k < 3; k++) bc->comp[k] = cJSON_IsTrue(cJSON_GetArrayItem(fix, k)) ? PETSC_TRUE : PETSC_FALSE;
  } else if (cJSON_IsArray(disp)) {
    for (int k = 0; k < 3; k++) {
      el           = cJSON_GetArrayItem(disp, k);
      bc->comp[k]  = cJSON_IsNull(el) ? PETSC_FALSE : PETSC_TRUE;
      bc->value[k] = cJSON_IsNull(el) ? 0 : el->valuedouble;
    }
    FcSchemaPathKey(sub, sizeof sub, path, "ramp");
    PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &bc->ramp));
  } else if (Get_Private(disp, "series")) {
    PetscCall(FillSeries_Private(Get_Private(disp, "series"), dt, bc));
  } else {
    cJSON   *table = Get_Private(disp, "table"), *row;
    PetscInt i     = 0;
    bc->ntab       = (PetscInt)cJSON_GetArraySize(table);
    PetscCall(PetscMalloc1(4 * bc->ntab, &bc->tab));
    cJSON_ArrayForEach(row, table)
    {
      for (int k = 0; k < 4; k++) {
        el                  = cJSON_GetArrayItem(row, k);
        bc->tab[4 * i + k] = cJSON_IsNull(el) ? 0 : el->valuedouble; /* null only where !comp */
      }
      i++;
    }
    for (int k = 0; k < 3; k++) bc->comp[k] = cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetArrayItem(table, 0), k + 1)) ? PETSC_FALSE : PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillLoad_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseBodyLoad *ld)
{
  cJSON *v;
  char   sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(Group_Private(obj, ld->group, sizeof ld->group));
  if ((v = Get_Private(obj, "traction"))) {
    ld->type = FC_LOAD_TRACTION;
    Vec3_Private(v, ld->vec);
  } else if ((v = Get_Private(obj, "force"))) {
    ld->type = FC_LOAD_FORCE;
    Vec3_Private(v, ld->vec);
  } else {
    ld->type     = FC_LOAD_PRESSURE;
    ld->pressure = Num_Private(obj, "pressure");
  }
  FcSchemaPathKey(sub, sizeof sub, path, "ramp");
  PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &ld->ramp));
  PetscFunctionReturn(0);
}

static PetscErrorCode FillShape_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, FcCaseShape *sh)
{
  const char *type = Str_Private(obj, "type");
  char        sub[FC_PATH_LEN];

  PetscFunctionBegin;
  if (!strcmp(type, "plane")) {
    sh->type = FC_SHAPE_PLANE;
    Vec3_Private(Get_Private(obj, "point"), sh->point);
    Dir3_Private(Get_Private(obj, "normal"), sh->normal);
  } else if (!strcmp(type, "box")) {
    sh->type = FC_SHAPE_BOX;
    Vec3_Private(Get_Private(obj, "center"), sh->center);
    Vec3_Private(Get_Private(obj, "half_extents"), sh->half_extents);
  } else if (!strcmp(type, "sphere")) {
    sh->type = FC_SHAPE_SPHERE;
    Vec3_Private(Get_Private(obj, "center"), sh->center);
    sh->radius = Num_Private(obj, "radius");
  } else if (!strcmp(type, "cylinder")) {
    sh->type = FC_SHAPE_CYLINDER;
    Vec3_Private(Get_Private(obj, "center"), sh->center);
    Dir3_Private(Get_Private(obj, "axis"), sh->axis);
    sh->radius      = Num_Private(obj, "radius");
    sh->half_length = Num_Private(obj, "half_length");
  } else {
    sh->type = FC_SHAPE_MESH;
    FcSchemaPathKey(sub, sizeof sub, path, "file");
    PetscCall(MeshFileResolve_Private(ctx, Str_Private(obj, "file"), sub, sh->mesh_file, sizeof sh->mesh_file));
    PetscCall(Group_Private(obj, sh->group, sizeof sh->group));
    sh->refine = (PetscInt)Num_Private(obj, "refine");
  }
  PetscFunctionReturn(0);
}

/* The device log of a "trajectory" motion or of a coupling (the file resolved against the case). */
static PetscErrorCode FillDevice_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, FcCaseMotion *m)
{
  cJSON    *tr = Get_Private(obj, "transform"), *rot = Get_Private(tr, "rotation"), *win = Get_Private(obj, "window"), *off = Get_Private(obj, "offset");
  char      sub[FC_PATH_LEN];
  PetscReal n = 0;

  PetscFunctionBegin;
  m->has_device = PETSC_TRUE;
  FcSchemaPathKey(sub, sizeof sub, path, "file");
  PetscCall(MeshFileResolve_Private(ctx, Str_Private(obj, "file"), sub, m->dev_file, sizeof m->dev_file));
  PetscCall(PetscStrncpy(m->dev_format, Str_Private(obj, "format"), sizeof m->dev_format));
  if (Get_Private(obj, "units")) PetscCall(PetscStrncpy(m->dev_units, Str_Private(obj, "units"), sizeof m->dev_units));
  if (cJSON_IsArray(rot)) {
    for (int k = 0; k < 4; k++) m->dev_q[k] = cJSON_GetArrayItem(rot, k)->valuedouble;
  } else {
    /* q = (cos θ/2, sin θ/2 a), a the unit axis */
    PetscReal a[3], th = Num_Private(rot, "angle");
    Dir3_Private(Get_Private(rot, "axis"), a);
    m->dev_q[0] = PetscCosReal(0.5 * th);
    for (int k = 0; k < 3; k++) m->dev_q[1 + k] = PetscSinReal(0.5 * th) * a[k];
  }
  for (int k = 0; k < 4; k++) n += m->dev_q[k] * m->dev_q[k];
  for (int k = 0; k < 4; k++) m->dev_q[k] /= PetscSqrtReal(n);
  Vec3_Private(Get_Private(tr, "translation"), m->dev_translation);
  m->dev_scale = Num_Private(tr, "scale");
  if (win) {
    m->dev_window = PETSC_TRUE;
    m->dev_t0     = cJSON_GetArrayItem(win, 0)->valuedouble;
    m->dev_t1     = cJSON_GetArrayItem(win, 1)->valuedouble;
  }
  if (off) {
    m->dev_has_offset = PETSC_TRUE;
    Vec3_Private(off, m->dev_offset);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillMotion_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseMotion *m)
{
  const char *type = Str_Private(obj, "type");
  char        sub[FC_PATH_LEN];

  PetscFunctionBegin;
  m->ramp.type        = FC_RAMP_CONSTANT;
  m->ramp.value       = 1;
  m->force_ramp.type  = FC_RAMP_CONSTANT;
  m->force_ramp.value = 1;
  FcSchemaPathKey(sub, sizeof sub, path, "ramp");
  if (!strcmp(type, "fixed")) m->type = FC_MOTION_FIXED;
  else if (!strcmp(type, "trajectory")) {
    m->type = FC_MOTION_TRAJECTORY;
    PetscCall(FillDevice_Private(ctx, obj, path, m));
  } else if (!strcmp(type, "kinematic")) {
    cJSON *disp = Get_Private(obj, "displacement");
    m->type     = FC_MOTION_KINEMATIC;
    cJSON *rot  = Get_Private(obj, "rotation");
    if (rot) {
      cJSON    *table = Get_Private(rot, "table"), *center = Get_Private(rot, "center"), *row;
      PetscReal n = 0;
      m->rotates = PETSC_TRUE;
      Vec3_Private(Get_Private(rot, "axis"), m->rot_axis);
      for (int k = 0; k < 3; k++) n += m->rot_axis[k] * m->rot_axis[k];
      for (int k = 0; k < 3; k++) m->rot_axis[k] /= PetscSqrtReal(n);
      if (center) {
        m->rot_has_center = PETSC_TRUE;
        Vec3_Private(center, m->rot_center);
      }
      if (table) {
        PetscInt i = 0;
        m->rot_ntab = (PetscInt)cJSON_GetArraySize(table);
        PetscCall(PetscMalloc1(2 * m->rot_ntab, &m->rot_tab));
        cJSON_ArrayForEach(row, table)
        {
          for (int k = 0; k < 2; k++) m->rot_tab[2 * i + k] = cJSON_GetArrayItem(row, k)->valuedouble;
          i++;
        }
      } else m->rot_angle = Get_Private(rot, "angle")->valuedouble;
    }
    if (cJSON_IsArray(disp)) {
      Vec3_Private(disp, m->displacement);
      PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &m->ramp));
    } else {
      cJSON   *table = Get_Private(disp, "table"), *row;
      PetscInt i     = 0;
      m->ntab        = (PetscInt)cJSON_GetArraySize(table);
      PetscCall(PetscMalloc1(4 * m->ntab, &m->tab));
      cJSON_ArrayForEach(row, table)
      {
        for (int k = 0; k < 4; k++) m->tab[4 * i + k] = cJSON_GetArrayItem(row, k)->valuedouble;
        i++;
      }
    }
  } else {
    cJSON      *joint = Get_Private(obj, "joint");
    const char *jt    = Str_Private(joint, "type");
    m->type           = FC_MOTION_DYNAMIC;
    m->mass           = Num_Private(obj, "mass");
    Vec3_Private(Get_Private(obj, "inertia"), m->inertia);
    if (!strcmp(jt, "free")) m->joint = FC_JOINT_FREE;
    else if (!strcmp(jt, "fixed")) m->joint = FC_JOINT_FIXED;
    else {
      m->joint = FC_JOINT_PRISMATIC;
      Dir3_Private(Get_Private(joint, "axis"), m->axis);
    }
    Vec3_Private(Get_Private(obj, "force"), m->force);
    PetscCall(FillRamp_Private(ctx, Get_Private(obj, "ramp"), sub, t_end, &m->force_ramp));
    Vec3_Private(Get_Private(obj, "initial_velocity"), m->initial_velocity);
    Vec3_Private(Get_Private(obj, "initial_angular_velocity"), m->initial_angular_velocity);
    if (Get_Private(obj, "coupling")) {
      cJSON *cp = Get_Private(obj, "coupling");
      FcSchemaPathKey(sub, sizeof sub, path, "coupling");
      m->coupled = PETSC_TRUE;
      PetscCall(FillDevice_Private(ctx, cp, sub, m));
      m->K  = Get_Private(cp, "stiffness") ? Num_Private(cp, "stiffness") : -1;
      m->B  = Get_Private(cp, "damping") ? Num_Private(cp, "damping") : -1;
      m->Kr = Get_Private(cp, "rotational_stiffness") ? Num_Private(cp, "rotational_stiffness") : -1;
      m->Br = Get_Private(cp, "rotational_damping") ? Num_Private(cp, "rotational_damping") : -1;
    }
  }
  PetscFunctionReturn(0);
}

/* A rigid body: name, type, shape and motion; the deformable fields stay zero. */
static PetscErrorCode FillRigid_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseBody *b)
{
  char sub[FC_PATH_LEN];

  PetscFunctionBegin;
  b->rigid = PETSC_TRUE;
  FcSchemaPathKey(sub, sizeof sub, path, "shape");
  PetscCall(FillShape_Private(ctx, Get_Private(obj, "shape"), sub, &b->shape));
  FcSchemaPathKey(sub, sizeof sub, path, "motion");
  PetscCall(FillMotion_Private(ctx, Get_Private(obj, "motion"), sub, t_end, &b->motion));
  PetscFunctionReturn(0);
}

static PetscErrorCode FillBody_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, PetscReal dt, FcCaseBody *b)
{
  cJSON   *mesh = Get_Private(obj, "mesh"), *mat = Get_Private(obj, "material"), *damp = Get_Private(obj, "damping"), *el;
  PetscInt i;
  char     pp[FC_PATH_LEN], sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(b->name, Str_Private(obj, "name"), sizeof b->name));
  PetscCall(PetscStrncpy(b->type, Str_Private(obj, "type"), sizeof b->type));
  if (IsRigid_Private(obj)) {
    PetscCall(FillRigid_Private(ctx, obj, path, t_end, b));
    PetscFunctionReturn(0);
  }
  FcSchemaPathKey(pp, sizeof pp, path, "mesh");
  FcSchemaPathKey(sub, sizeof sub, pp, "file");
  PetscCall(MeshFileResolve_Private(ctx, Str_Private(mesh, "file"), sub, b->mesh_file, sizeof b->mesh_file));
  if (Get_Private(mesh, "volume")) PetscCall(PetscStrncpy(b->mesh_volume, Str_Private(mesh, "volume"), sizeof b->mesh_volume));
  b->refine = (PetscInt)Num_Private(mesh, "refine");
  b->order  = (PetscInt)Num_Private(mesh, "order");
  PetscCall(MaterialParams_Private(mat, &b->material));
  b->plane_strain = Bool_Private(obj, "plane_strain");
  b->corotational = (PetscBool)(strcmp(Str_Private(obj, "kinematics"), "global_corotational") == 0);
  b->alpha            = Num_Private(damp, "alpha");
  b->beta             = Num_Private(damp, "beta");

  b->nboundary = (PetscInt)cJSON_GetArraySize(Get_Private(obj, "boundary"));
  PetscCall(PetscCalloc1(b->nboundary, &b->boundary));
  FcSchemaPathKey(pp, sizeof pp, path, "boundary");
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(obj, "boundary"))
  {
    FcSchemaPathIndex(sub, sizeof sub, pp, i);
    PetscCall(FillBoundary_Private(ctx, el, sub, t_end, dt, &b->boundary[i]));
    i++;
  }
  b->nloads = (PetscInt)cJSON_GetArraySize(Get_Private(obj, "loads"));
  PetscCall(PetscCalloc1(b->nloads, &b->loads));
  FcSchemaPathKey(pp, sizeof pp, path, "loads");
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(obj, "loads"))
  {
    FcSchemaPathIndex(sub, sizeof sub, pp, i);
    PetscCall(FillLoad_Private(ctx, el, sub, t_end, &b->loads[i]));
    i++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FillProbe_Private(cJSON *obj, FcCaseProbe *p)
{
  const char *type = Str_Private(obj, "type");

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(p->name, Str_Private(obj, "name"), sizeof p->name));
  p->component = Get_Private(obj, "component") ? Str_Private(obj, "component")[0] - 'x' : -1;
  p->scale     = Get_Private(obj, "scale") ? Num_Private(obj, "scale") : 1.0;
  if (!strcmp(type, "contact_force") || !strcmp(type, "active_contacts")) {
    p->type = !strcmp(type, "contact_force") ? FC_PROBE_CONTACT_FORCE : FC_PROBE_ACTIVE_CONTACTS;
    p->pair = (PetscInt)Num_Private(obj, "pair");
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrncpy(p->body, Str_Private(obj, "body"), sizeof p->body));
  if (!strcmp(type, "displacement")) {
    p->type = FC_PROBE_DISPLACEMENT;
    if (Get_Private(obj, "point")) Vec3_Private(Get_Private(obj, "point"), p->point);
    else if (Get_Private(obj, "group")) PetscCall(Group_Private(obj, p->group, sizeof p->group));
  } else if (!strcmp(type, "reaction")) {
    p->type = FC_PROBE_REACTION;
    PetscCall(Group_Private(obj, p->group, sizeof p->group));
  } else p->type = !strcmp(type, "kinetic_energy") ? FC_PROBE_KINETIC_ENERGY : FC_PROBE_STRAIN_ENERGY;
  PetscFunctionReturn(0);
}

/* "petsc": {"ksp_type": "cg", "ksp_monitor": true, "ksp_rtol": 1e-8} → -ksp_type cg
 * -ksp_monitor -ksp_rtol 1e-08; false drops the option, so --set petsc.x=false undoes it. */
static PetscErrorCode FillPetsc_Private(cJSON *obj, FcCase *c)
{
  cJSON   *m;
  PetscInt n = 0;
  char     buf[64], path[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(m, obj) if (!cJSON_IsFalse(m)) n++;
  /* One spare NULL slot: FcCaseDestroy frees a key whose value failed to allocate. */
  PetscCall(PetscCalloc1(n + 1, &c->petsc_keys));
  PetscCall(PetscCalloc1(n + 1, &c->petsc_values));
  PetscCall(PetscCalloc1(n + 1, &c->petsc_view));
  cJSON_ArrayForEach(m, obj)
  {
    const char *value = buf;
    if (cJSON_IsFalse(m)) continue;
    /* a view: its value becomes the viewer format, the run points it at its folder */
    FcSchemaPathKey(path, sizeof path, "petsc", m->string);
    PetscCall(FcCasePetscOptionCheck(c->file, path, m, &c->petsc_view[c->npetsc], buf, sizeof buf));
    if (c->petsc_view[c->npetsc]) value = buf;
    else if (cJSON_IsTrue(m)) buf[0] = 0;
    else if (cJSON_IsNumber(m)) snprintf(buf, sizeof buf, "%.17g", m->valuedouble);
    else value = m->valuestring;
    PetscCall(PetscMalloc1(strlen(m->string) + 2, &c->petsc_keys[c->npetsc]));
    c->petsc_keys[c->npetsc][0] = '-';
    PetscCall(PetscStrcpy(c->petsc_keys[c->npetsc] + 1, m->string));
    PetscCall(PetscStrallocpy(value, &c->petsc_values[c->npetsc]));
    c->npetsc++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Fill_Private(FcSchemaCtx *ctx, cJSON *root, FcCase *c)
{
  cJSON   *time = Get_Private(root, "time"), *newton = Get_Private(time, "newton"), *out = Get_Private(root, "output"), *el;
  PetscInt i;
  char     sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(c->name, Str_Private(root, "name"), sizeof c->name));
  PetscCall(PetscStrallocpy(Str_Private(root, "description"), &c->description));

  {
    const char *integ = Str_Private(time, "integrator");
    c->integrator     = FC_INTEGRATOR_QUASI_STATIC;
    c->theta = c->theta_vq = 1.0;
    if (!strcmp(integ, "backward_euler")) c->integrator = FC_INTEGRATOR_BACKWARD_EULER;
    else if (!strcmp(integ, "midpoint")) {
      c->integrator = FC_INTEGRATOR_THETA;
      c->theta = c->theta_vq = 0.5;
    } else if (!strcmp(integ, "symplectic_euler")) {
      c->integrator = FC_INTEGRATOR_THETA;
      c->theta      = 0.0;
    } else if (!strcmp(integ, "theta")) {
      c->integrator = FC_INTEGRATOR_THETA;
      if (Get_Private(time, "theta")) c->theta = Num_Private(time, "theta");
      if (Get_Private(time, "theta_vq")) c->theta_vq = Num_Private(time, "theta_vq");
    }
  }
  c->cutback = (PetscInt)Num_Private(time, "cutback");
  c->dt         = Num_Private(time, "dt");
  if (Get_Private(time, "steps")) {
    c->steps       = (PetscInt)Num_Private(time, "steps");
    c->steps_given = PETSC_TRUE;
    c->t_end = c->steps * c->dt;
  } else {
    c->t_end = Num_Private(time, "t_end");
    c->steps = (PetscInt)round(c->t_end / c->dt);
  }
  c->newton_max_it        = (PetscInt)Num_Private(newton, "max_it");
  c->newton_rtol          = Num_Private(newton, "rtol");
  c->newton_atol          = Num_Private(newton, "atol");
  c->allow_nonconvergence = Bool_Private(newton, "allow_failure");
  c->newton_shift         = Num_Private(newton, "shift");
  c->inertia_correction   = cJSON_IsTrue(Get_Private(newton, "inertia_correction"));
  {
    cJSON *g = Get_Private(root, "gravity");
    if (cJSON_IsArray(g)) Vec3_Private(g, c->gravity);
    else {
      cJSON   *table = Get_Private(g, "table"), *row;
      PetscInt i     = 0;
      c->gravity_ntab = (PetscInt)cJSON_GetArraySize(table);
      PetscCall(PetscMalloc1(4 * c->gravity_ntab, &c->gravity_tab));
      cJSON_ArrayForEach(row, table)
      {
        for (int k = 0; k < 4; k++) c->gravity_tab[4 * i + k] = cJSON_GetArrayItem(row, k)->valuedouble;
        i++;
      }
      for (int k = 0; k < 3; k++) c->gravity[k] = c->gravity_tab[1 + k]; /* value at the first row */
    }
  }

  c->nbodies = (PetscInt)cJSON_GetArraySize(Get_Private(root, "bodies"));
  PetscCall(PetscCalloc1(c->nbodies, &c->bodies));
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "bodies"))
  {
    BodyEntries *be = (BodyEntries *)ctx->user;
    c->bodies[i].entry        = (be && i < be->n) ? be->entry[i] : i;
    c->bodies[i].from_volumes = (be && i < be->n) ? be->expanded[i] : PETSC_FALSE;
    FcSchemaPathIndex(sub, sizeof sub, "bodies", i);
    PetscCall(FillBody_Private(ctx, el, sub, c->t_end, c->dt, &c->bodies[i]));
    i++;
  }
  c->nprobes = (PetscInt)cJSON_GetArraySize(Get_Private(root, "probes"));
  PetscCall(PetscCalloc1(c->nprobes, &c->probes));
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "probes")) PetscCall(FillProbe_Private(el, &c->probes[i++]));
  if ((el = Get_Private(root, "verdict"))) {
    c->verdict.set = PETSC_TRUE;
    PetscCall(PetscStrncpy(c->verdict.drop, Str_Private(el, "drop"), sizeof c->verdict.drop));
    PetscCall(PetscStrncpy(c->verdict.energy, Str_Private(el, "energy"), sizeof c->verdict.energy));
    c->verdict.rise             = Num_Private(el, "rise");
    c->verdict.after            = Num_Private(el, "after");
    c->verdict.stand_drop       = Num_Private(el, "stand_drop");
    c->verdict.stand_energy     = Num_Private(el, "stand_energy");
    c->verdict.collapse_drop    = Num_Private(el, "collapse_drop");
    c->verdict.stop_on_collapse = Bool_Private(el, "stop_on_collapse");
  }
  if ((el = Get_Private(root, "haptic"))) {
    c->haptic.set            = PETSC_TRUE;
    c->haptic.rate           = Num_Private(el, "rate");
    c->haptic.max_iterations = (PetscInt)Num_Private(el, "max_iterations");
    c->haptic.strict         = Bool_Private(el, "strict");
    c->haptic.passivity_rtol  = Num_Private(el, "passivity_rtol");
    if (Get_Private(el, "tool")) PetscCall(PetscStrncpy(c->haptic.tool, Str_Private(el, "tool"), sizeof c->haptic.tool));
  }

  /* every entry of contacts[] becomes one FcCaseContact per pair of bodies it stands for */
  c->ncontacts = 0;
  i            = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "contacts"))
  {
    PetscInt np, *pairs;
    char     pi[FC_PATH_LEN];
    FcSchemaPathIndex(pi, sizeof pi, "contacts", i++);
    PetscCall(ContactPairs_Private(ctx, Get_Private(root, "bodies"), el, pi, &np, &pairs));
    PetscCall(PetscFree(pairs));
    c->ncontacts += np;
  }
  c->nentries = i;
  PetscCall(PetscCalloc1(c->ncontacts, &c->contacts));
  i = 0;
  {
    PetscInt e = 0;
    cJSON_ArrayForEach(el, Get_Private(root, "contacts"))
    {
      PetscInt np, *pairs;
      char     pi[FC_PATH_LEN];
      FcSchemaPathIndex(pi, sizeof pi, "contacts", e);
      PetscCall(ContactPairs_Private(ctx, Get_Private(root, "bodies"), el, pi, &np, &pairs));
      for (PetscInt p = 0; p < np; p++) {
        FcCaseContact *ct = &c->contacts[i++];
        ct->entry         = e;
        ct->body[0]       = pairs[2 * p];
        ct->body[1]       = pairs[2 * p + 1];
        PetscCall(GroupKey_Private(el, "surface", ct->surface, sizeof ct->surface));
        PetscCall(GroupKey_Private(el, "target_surface", ct->target_surface, sizeof ct->target_surface));
        ct->mu          = Num_Private(el, "mu");
        ct->alarm       = Get_Private(el, "alarm") ? Num_Private(el, "alarm") : -1;
        ct->both_passes = Bool_Private(el, "both_passes");
        ct->mortar      = (PetscBool)!strcmp(Str_Private(el, "formulation"), "mortar");
      }
      PetscCall(PetscFree(pairs));
      e++;
    }
  }
  {
    cJSON *cs = Get_Private(root, "contact_solver");
    PetscCall(PetscStrncpy(c->contact_solver_type, Str_Private(cs, "type"), sizeof c->contact_solver_type));
    c->contact_solver_tol        = Num_Private(cs, "tol");
    c->contact_solver_max_it     = (PetscInt)Num_Private(cs, "max_it");
    c->contact_solver_warm_start = Bool_Private(cs, "warm_start");
    c->contact_solver_max_error  = Get_Private(cs, "max_error") ? Num_Private(cs, "max_error") : PETSC_INFINITY;
    {
      const cJSON *ar = Get_Private(cs, "accept_regularized");
      c->contact_solver_accept_regularized = cJSON_IsNumber(ar) ? ar->valuedouble : cJSON_IsTrue(ar) ? FC_CONTACT_SOLVER_ACCEPT_REGULARIZED : 0;
    }
  }
  {
    const char *ct = Str_Private(Get_Private(root, "compliance"), "type");
    PetscCall(PetscStrncpy(c->compliance_type, ct, sizeof c->compliance_type));
  }

  PetscCall(PetscStrncpy(c->output_dir, Str_Private(out, "dir"), sizeof c->output_dir));
  c->output_every = (PetscInt)Num_Private(out, "every");
  c->output_hdf5  = Bool_Private(out, "hdf5");
  c->output_vtk   = Bool_Private(out, "vtk");
  c->vtk_binary   = !strcmp(Str_Private(out, "vtk_format"), "binary") ? PETSC_TRUE : PETSC_FALSE;
  c->output_fclib = Bool_Private(out, "fclib");
  PetscCall(FillPetsc_Private(Get_Private(root, "petsc"), c));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* Public interface                                                                           */
/* ------------------------------------------------------------------------------------------ */

/* Whether the member path keys[0].keys[1]... is in the tree as given (before defaults). */
static PetscBool Given_Private(const cJSON *root, const char *const keys[])
{
  const cJSON *item = root;
  for (PetscInt i = 0; keys[i] && item; i++) item = cJSON_IsObject(item) ? cJSON_GetObjectItemCaseSensitive(item, keys[i]) : NULL;
  return item ? PETSC_TRUE : PETSC_FALSE;
}

static PetscErrorCode Load_Private(const char *file, PetscInt nsets, const char *const *sets, FcCase *c, cJSON **root)
{
  BodyEntries be  = {0, NULL, NULL};
  FcSchemaCtx ctx = {file, &be};
  char       *text;
  PetscErrorCode rc;

  PetscFunctionBegin;
  PetscCall(FcJsonReadFile(file, root));
  PetscCall(FcJsonCheckDuplicates(file, *root, "", ""));
  if (!cJSON_IsObject(*root)) return FcInputError(file, NULL, "the top level must be a JSON object, got %s", FcSchemaTypeName(*root));
  for (PetscInt i = 0; i < nsets; i++) PetscCall(FcJsonApplySet(file, *root, sets[i]));
  {
    /* read before the validator inserts the defaults, after which nothing tells them apart */
    static const char *const tol[] = {"contact_solver", "tol", NULL}, *const warm[] = {"contact_solver", "warm_start", NULL}, *const inertia[] = {"time", "newton", "inertia_correction", NULL};
    static const char *const maxit[] = {"contact_solver", "max_it", NULL}, *const accept[] = {"contact_solver", "accept_regularized", NULL};
    c->given.contact_solver_max_it             = Given_Private(*root, maxit);
    c->given.contact_solver_accept_regularized = Given_Private(*root, accept);
    c->given.contact_solver_tol        = Given_Private(*root, tol);
    c->given.contact_solver_warm_start = Given_Private(*root, warm);
    c->given.inertia_correction        = Given_Private(*root, inertia);
  }
  rc = FcSchemaValidateObject(&ctx, &root_object, *root, "");
  if (!rc) rc = Fill_Private(&ctx, *root, c);
  PetscCall(PetscFree2(be.entry, be.expanded));
  PetscCall(rc);
  PetscCheck((text = cJSON_Print(*root)), PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory printing the resolved case");
  PetscCall(PetscStrallocpy(text, &c->resolved_json));
  cJSON_free(text);
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseLoad(const char *file, PetscInt nsets, const char *const *sets, FcCase *c)
{
  cJSON         *root = NULL;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof *c));
  PetscCall(MaterialSchema_Private());
  if (strlen(file) >= sizeof c->file) return FcInputError(file, NULL, "file name too long (more than %zu characters)", sizeof c->file - 1);
  PetscCall(PetscStrncpy(c->file, file, sizeof c->file));
  /* One exit for every error path: the tree and a half-filled case are freed here. */
  FcJsonHooksPush();
  ierr = Load_Private(file, nsets, sets, c, &root);
  cJSON_Delete(root);
  FcJsonHooksPop();
  if (ierr) {
    PetscCall(FcCaseDestroy(c));
    PetscCall(ierr);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode RampDestroy_Private(FcRamp *r)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(r->t, r->s));
  r->n = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseDestroy(FcCase *c)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; c->bodies && i < c->nbodies; i++) {
    FcCaseBody *b = &c->bodies[i];
    for (PetscInt j = 0; b->boundary && j < b->nboundary; j++) {
      PetscCall(RampDestroy_Private(&b->boundary[j].ramp));
      PetscCall(PetscFree(b->boundary[j].tab));
    }
    for (PetscInt j = 0; b->loads && j < b->nloads; j++) PetscCall(RampDestroy_Private(&b->loads[j].ramp));
    PetscCall(PetscFree(b->boundary));
    PetscCall(PetscFree(b->loads));
    PetscCall(RampDestroy_Private(&b->motion.ramp));
    PetscCall(RampDestroy_Private(&b->motion.force_ramp));
    PetscCall(PetscFree(b->motion.tab));
    PetscCall(PetscFree(b->motion.rot_tab));
  }
  PetscCall(PetscFree(c->bodies));
  PetscCall(PetscFree(c->probes));
  PetscCall(PetscFree(c->gravity_tab));
  PetscCall(PetscFree(c->contacts));
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscCall(PetscFree(c->petsc_keys[i]));
    PetscCall(PetscFree(c->petsc_values[i]));
  }
  /* A failure while filling the options can leave one key without its value. */
  if (c->petsc_keys && c->petsc_keys[c->npetsc]) PetscCall(PetscFree(c->petsc_keys[c->npetsc]));
  PetscCall(PetscFree(c->petsc_keys));
  PetscCall(PetscFree(c->petsc_values));
  PetscCall(PetscFree(c->petsc_view));
  PetscCall(PetscFree(c->description));
  PetscCall(PetscFree(c->resolved_json));
  PetscCall(PetscMemzero(c, sizeof *c));
  PetscFunctionReturn(0);
}

/* Piecewise-linear interpolation of (x[i*stride], y[i*stride]), held constant outside. */
static PetscReal Interp_Private(PetscInt n, const PetscReal *x, const PetscReal *y, PetscInt stride, PetscReal t)
{
  PetscInt lo = 0, hi = n - 1;

  if (t <= x[0]) return y[0];
  if (t >= x[stride * hi]) return y[stride * hi];
  while (hi - lo > 1) { /* invariant: x[lo] < t < x[hi] */
    PetscInt mid = (lo + hi) / 2;
    if (x[stride * mid] <= t) lo = mid;
    else hi = mid;
  }
  return y[stride * lo] + (y[stride * hi] - y[stride * lo]) * (t - x[stride * lo]) / (x[stride * hi] - x[stride * lo]);
}

PetscReal FcRampEval(const FcRamp *r, PetscReal t)
{
  switch (r->type) {
  case FC_RAMP_CONSTANT:
    return r->value;
  case FC_RAMP_LINEAR:
    return PetscMin(PetscMax((t - r->t0) / (r->t1 - r->t0), 0.0), 1.0);
  case FC_RAMP_TABLE:
    return Interp_Private(r->n, r->t, r->s, 1, t);
  }
  return 0;
}

PetscReal FcCaseBoundaryValue(const FcCaseBoundary *bc, PetscInt c, PetscReal t)
{
  if (bc->ntab > 0) return Interp_Private(bc->ntab, bc->tab, bc->tab + 1 + c, 4, t);
  return bc->value[c] * FcRampEval(&bc->ramp, t);
}

void FcCaseGravity(const FcCase *c, PetscReal t, PetscReal g[3])
{
  for (int k = 0; k < 3; k++) g[k] = c->gravity_ntab > 0 ? Interp_Private(c->gravity_ntab, c->gravity_tab, c->gravity_tab + 1 + k, 4, t) : c->gravity[k];
}

PetscReal FcCaseMotionAngle(const FcCaseMotion *m, PetscReal t)
{
  if (m->type != FC_MOTION_KINEMATIC || !m->rotates) return 0;
  if (m->rot_ntab > 0) return Interp_Private(m->rot_ntab, m->rot_tab, m->rot_tab + 1, 2, t);
  return m->rot_angle * FcRampEval(&m->ramp, t);
}

void FcCaseMotionDisplacement(const FcCaseMotion *m, PetscReal t, PetscReal u[3])
{
  for (int k = 0; k < 3; k++) {
    if (m->type != FC_MOTION_KINEMATIC) u[k] = 0;
    else if (m->ntab > 0) u[k] = Interp_Private(m->ntab, m->tab, m->tab + 1 + k, 4, t);
    else u[k] = m->displacement[k] * FcRampEval(&m->ramp, t);
  }
}

/* The case's "petsc" object goes into the options database unless the command line (or an
 * earlier insertion of the same case) set the same option, so the command line wins. */
PetscErrorCode FcCaseInsertOptions(const FcCase *c)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscBool set;
    if (c->petsc_view[i]) continue; /* FcCaseInsertViewOptions, by the run */
    PetscCall(PetscOptionsHasName(NULL, NULL, c->petsc_keys[i], &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, c->petsc_keys[i], c->petsc_values[i][0] ? c->petsc_values[i] : NULL));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseInsertViewOptions(const FcCase *c, const char *dir, PetscBool *inserted)
{
  char value[PETSC_MAX_PATH_LEN + 2 * FC_NAME_LEN];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscBool set;
    inserted[i] = PETSC_FALSE;
    if (!c->petsc_view[i]) continue;
    PetscCall(PetscOptionsHasName(NULL, NULL, c->petsc_keys[i], &set));
    if (set) continue; /* the command line's */
    /* type:file:format:mode (PetscOptionsGetViewer): ':' in the folder's name would end the
     * file name early */
    FcCheckInput(!strchr(dir, ':'), c->file, "petsc", "%s: the run's folder %s contains ':', which PETSc's viewer syntax cannot name: choose another folder or drop the option", c->petsc_keys[i], dir);
    /* append: each view adds to the file (a view per solve) instead of replacing the last */
    PetscCall(PetscSNPrintf(value, sizeof value, "ascii:%s/petsc/%s.txt:%s:append", dir, c->petsc_keys[i] + 1, c->petsc_values[i]));
    PetscCall(PetscOptionsSetValue(NULL, c->petsc_keys[i], value));
    inserted[i] = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FcCaseRemoveViewOptions(const FcCase *c, const PetscBool *inserted)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npetsc; i++)
    if (inserted[i]) PetscCall(PetscOptionsClearValue(NULL, c->petsc_keys[i]));
  PetscFunctionReturn(0);
}
