/* fcsim — case files: the schema of the format, its custom checks, and the typed FcCase.
 *
 * To add a key: add a row to the table of its object below (type, default, range, ...), read
 * it in the matching Fill*_Private function, and document it in doc/case-format.md. */
#include "case.h"
#include "json.h"
#include "schema.h"
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Custom checks: what a table row cannot say.                                                */
/* ------------------------------------------------------------------------------------------ */

static cJSON *Get_Private(const cJSON *obj, const char *key)
{
  return cJSON_GetObjectItemCaseSensitive(obj, key);
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

static PetscErrorCode MeshFileCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  char resolved[PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(MeshFileResolve_Private(ctx, item->valuestring, path, resolved, sizeof resolved));
  if (!FcFileReadable(resolved)) return FcInputError(ctx->file, path, "cannot read %s", resolved);
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

static PetscErrorCode DisplacementCheck_Private(FcSchemaCtx *ctx, cJSON *item, const char *path)
{
  cJSON *el;

  PetscFunctionBegin;
  if (!cJSON_IsArray(item)) PetscFunctionReturn(0); /* the table form has its own check */
  cJSON_ArrayForEach(el, item) if (!cJSON_IsNull(el)) PetscFunctionReturn(0);
  return FcInputError(ctx->file, path, "at least one component must be a number (null leaves a component free)");
}

static PetscErrorCode BoundaryCheck_Private(FcSchemaCtx *, cJSON *, const char *);
static PetscErrorCode LoadCheck_Private(FcSchemaCtx *, cJSON *, const char *);
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
#define GROUP_ENTRY {.key = "group", .types = FC_T_STRING | FC_T_INTEGER, .required = PETSC_TRUE, .len_min = 1, .len_max = NAME_MAX_CHARS}

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
static const FcSchemaEntry mesh_keys[] = {
  {.key = "file",   .types = FC_T_STRING,  .required = PETSC_TRUE, .len_min = 1, .len_max = PATH_MAX_CHARS, .check = MeshFileCheck_Private},
  {.key = "refine", .types = FC_T_INTEGER, .def = "0", .range = FC_RANGE_CC(0, 8)},
  {.key = "order",  .types = FC_T_INTEGER, .def = "1", .range = FC_RANGE_CC(1, 2)},
  {.key = NULL}
};
static const FcSchemaObject mesh_object = {.entries = mesh_keys};

/* bodies[i].material */
static const char *const   material_models[] = {"linear", "corotational", NULL};
static const FcSchemaEntry material_keys[]   = {
  {.key = "model",   .types = FC_T_STRING, .required = PETSC_TRUE, .choices = material_models},
  {.key = "E",       .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  /* nu = 0.5 is incompressible: the displacement formulation locks. */
  {.key = "nu",      .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_CO(0, 0.5)},
  {.key = "density", .types = FC_T_NUMBER, .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = NULL}
};
static const FcSchemaObject material_object = {.entries = material_keys};

/* bodies[i].damping: Rayleigh C = alpha M + beta K */
static const FcSchemaEntry damping_keys[] = {
  {.key = "alpha", .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = "beta",  .types = FC_T_NUMBER, .def = "0", .range = FC_RANGE_GE(0)},
  {.key = NULL}
};
static const FcSchemaObject damping_object = {.entries = damping_keys};

/* bodies[i].boundary[j] */
static const FcSchemaEntry disp_row_elem     = {.types = FC_T_ARRAY, .len_min = 4, .len_max = 4, .elem = &number_null_elem};
static const FcSchemaEntry disp_table_keys[] = {
  {.key = "table", .types = FC_T_ARRAY, .required = PETSC_TRUE, .len_min = 2, .elem = &disp_row_elem, .check = DisplacementTableCheck_Private},
  {.key = NULL}
};
static const FcSchemaObject disp_table_object = {.entries = disp_table_keys};
static const FcSchemaEntry  boundary_keys[]   = {
  GROUP_ENTRY,
  {.key = "fix",          .types = FC_T_ARRAY,                .len_min = 3, .len_max = 3, .elem = &bool_elem},
  {.key = "displacement", .types = FC_T_ARRAY | FC_T_OBJECT, .len_min = 3, .len_max = 3, .elem = &number_null_elem, .object = &disp_table_object, .check = DisplacementCheck_Private},
  RAMP_ENTRY(NULL),
  {.key = NULL}
};
/* What BoundaryCheck_Private inserts for a displacement array without a ramp. */
static const FcSchemaEntry  boundary_ramp_default = RAMP_ENTRY("\"constant\"");
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

/* bodies[i] */
static const char *const   body_types[] = {"deformable", NULL};
static const FcSchemaEntry body_keys[]  = {
  {.key = "name",     .types = FC_T_STRING, .required = PETSC_TRUE, .charset = NAME_CHARS, .len_max = NAME_MAX_CHARS},
  {.key = "type",     .types = FC_T_STRING, .def = "\"deformable\"", .choices = body_types},
  {.key = "mesh",     .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &mesh_object},
  {.key = "material", .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &material_object},
  {.key = "damping",  .types = FC_T_OBJECT, .def = "{}", .object = &damping_object},
  {.key = "boundary", .types = FC_T_ARRAY,  .def = "[]", .elem = &boundary_elem},
  {.key = "loads",    .types = FC_T_ARRAY,  .def = "[]", .elem = &load_elem},
  {.key = NULL}
};
static const FcSchemaObject body_object = {.entries = body_keys};
static const FcSchemaEntry  body_elem   = {.types = FC_T_OBJECT, .object = &body_object};

/* time */
static const FcSchemaEntry newton_keys[] = {
  {.key = "max_it",        .types = FC_T_INTEGER, .def = "25",    .range = FC_RANGE_GE(1)},
  {.key = "rtol",          .types = FC_T_NUMBER,  .def = "1e-10", .range = FC_RANGE_GT(0)},
  {.key = "atol",          .types = FC_T_NUMBER,  .def = "1e-12", .range = FC_RANGE_GE(0)},
  {.key = "allow_failure", .types = FC_T_BOOL,    .def = "false"},
  {.key = NULL}
};
static const FcSchemaObject newton_object = {.entries = newton_keys};
static const char *const    integrators[] = {"quasi_static", "backward_euler", NULL};
static const FcSchemaEntry  time_keys[]   = {
  {.key = "integrator", .types = FC_T_STRING,  .def = "\"quasi_static\"", .choices = integrators},
  {.key = "dt",         .types = FC_T_NUMBER,  .required = PETSC_TRUE, .range = FC_RANGE_GT(0)},
  {.key = "t_end",      .types = FC_T_NUMBER,  .range = FC_RANGE_GT(0)},
  {.key = "steps",      .types = FC_T_INTEGER, .range = FC_RANGE_GE(1)},
  {.key = "newton",     .types = FC_T_OBJECT,  .def = "{}", .object = &newton_object},
  {.key = NULL}
};
static const FcSchemaObject time_object = {.entries = time_keys, .check = TimeCheck_Private};

/* probes[i]: the keys depend on the type */
static const FcSchemaEntry probe_type_entry = {.key = "type", .types = FC_T_STRING, .required = PETSC_TRUE};
#define PROBE_NAME_ENTRY {.key = "name", .types = FC_T_STRING, .required = PETSC_TRUE, .charset = PROBE_CHARS, .len_max = NAME_MAX_CHARS}
static const FcSchemaEntry probe_displacement_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body",  .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1},
  /* exactly one of point (the nearest node) and group (the area-weighted mean over a surface group) */
  {.key = "point", .types = FC_T_ARRAY,  .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = "group", .types = FC_T_STRING | FC_T_INTEGER, .len_min = 1, .len_max = NAME_MAX_CHARS},
  {.key = NULL}
};
static const FcSchemaEntry probe_reaction_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body", .types = FC_T_STRING, .required = PETSC_TRUE, .len_min = 1},
  GROUP_ENTRY,
  {.key = NULL}
};
/* body "" = the sum over all bodies */
static const FcSchemaEntry probe_energy_keys[] = {
  PROBE_NAME_ENTRY,
  {.key = "body", .types = FC_T_STRING, .def = "\"\""},
  {.key = NULL}
};
static const FcSchemaVariant probe_variants[] = {
  {"displacement",   probe_displacement_keys},
  {"reaction",       probe_reaction_keys    },
  {"kinetic_energy", probe_energy_keys      },
  {"strain_energy",  probe_energy_keys      },
  {NULL,             NULL                   }
};
static const FcSchemaObject probe_object = {.discriminator = &probe_type_entry, .variants = probe_variants};
static const FcSchemaEntry  probe_elem   = {.types = FC_T_OBJECT, .object = &probe_object};

/* output */
static const char *const   vtk_formats[] = {"binary", "ascii", NULL};
static const FcSchemaEntry output_keys[] = {
  {.key = "dir",        .types = FC_T_STRING,  .def = "\"results\"", .len_min = 1, .len_max = PATH_MAX_CHARS},
  {.key = "every",      .types = FC_T_INTEGER, .def = "1", .range = FC_RANGE_GE(1)},
  {.key = "hdf5",       .types = FC_T_BOOL,    .def = "true"},
  {.key = "vtk",        .types = FC_T_BOOL,    .def = "true"},
  {.key = "vtk_format", .types = FC_T_STRING,  .def = "\"binary\"", .choices = vtk_formats},
  {.key = NULL}
};
static const FcSchemaObject output_object = {.entries = output_keys};

/* petsc: free option names */
static const FcSchemaEntry  petsc_value  = {.types = FC_T_STRING | FC_T_NUMBER | FC_T_BOOL};
static const FcSchemaObject petsc_object = {.map_value = &petsc_value, .map_charset = "_"};

/* root */
static const FcSchemaEntry root_keys[] = {
  {.key = "name",        .types = FC_T_STRING, .required = PETSC_TRUE, .charset = NAME_CHARS, .len_max = NAME_MAX_CHARS},
  {.key = "description", .types = FC_T_STRING, .def = "\"\""},
  {.key = "time",        .types = FC_T_OBJECT, .required = PETSC_TRUE, .object = &time_object},
  {.key = "gravity",     .types = FC_T_ARRAY,  .def = "[0, 0, 0]", .len_min = 3, .len_max = 3, .elem = &number_elem},
  {.key = "bodies",      .types = FC_T_ARRAY,  .required = PETSC_TRUE, .len_min = 1, .elem = &body_elem, .check = BodiesCheck_Private},
  {.key = "probes",      .types = FC_T_ARRAY,  .def = "[]", .elem = &probe_elem, .check = ProbesCheck_Private},
  {.key = "output",      .types = FC_T_OBJECT, .def = "{}", .object = &output_object},
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
  } else if (cJSON_IsArray(disp)) PetscCall(FcSchemaAddDefault(ctx, &boundary_ramp_default, obj, path));
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

/* Names that identify array elements (body names, probe names) must be unique. */
static PetscErrorCode UniqueNames_Private(FcSchemaCtx *ctx, cJSON *arr, const char *path, const char *what)
{
  PetscInt i = 0, j;
  cJSON   *a, *b;
  char     pi[FC_PATH_LEN], sub[FC_PATH_LEN], first[FC_PATH_LEN];

  PetscFunctionBegin;
  cJSON_ArrayForEach(a, arr)
  {
    const char *name = Get_Private(a, "name")->valuestring;
    j                = 0;
    cJSON_ArrayForEach(b, arr)
    {
      if (j >= i) break;
      if (!strcmp(Get_Private(b, "name")->valuestring, name)) {
        FcSchemaPathIndex(pi, sizeof pi, path, i);
        FcSchemaPathKey(sub, sizeof sub, pi, "name");
        FcSchemaPathIndex(first, sizeof first, path, j);
        return FcInputError(ctx->file, sub, "duplicate %s name \"%s\" (also %s)", what, name, first);
      }
      j++;
    }
    i++;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode BodiesCheck_Private(FcSchemaCtx *ctx, cJSON *arr, const char *path)
{
  PetscFunctionBegin;
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
    if (!strcmp(Get_Private(p, "type")->valuestring, "displacement")) {
      PetscBool point = Get_Private(p, "point") ? PETSC_TRUE : PETSC_FALSE, group = Get_Private(p, "group") ? PETSC_TRUE : PETSC_FALSE;
      FcSchemaPathIndex(pi, sizeof pi, path, i);
      if (point == group) return FcInputError(ctx->file, pi, "a displacement probe takes exactly one of \"point\" and \"group\"");
    }
    i++;
  }
  PetscFunctionReturn(0);
}

/* Cross references, once every member of the root is valid: probes name existing bodies. */
static PetscErrorCode RootCheck_Private(FcSchemaCtx *ctx, cJSON *root, const char *path)
{
  cJSON   *bodies = Get_Private(root, "bodies"), *p, *b;
  PetscInt i      = 0;
  char     pi[FC_PATH_LEN], sub[FC_PATH_LEN], list[1024];

  PetscFunctionBegin;
  (void)path;
  cJSON_ArrayForEach(p, Get_Private(root, "probes"))
  {
    const char *body  = Get_Private(p, "body")->valuestring;
    PetscBool   found = body[0] ? PETSC_FALSE : PETSC_TRUE;

    cJSON_ArrayForEach(b, bodies) if (!strcmp(Get_Private(b, "name")->valuestring, body)) found = PETSC_TRUE;
    if (!found) {
      list[0] = 0;
      cJSON_ArrayForEach(b, bodies)
      {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s\"%s\"", l ? ", " : "", Get_Private(b, "name")->valuestring);
      }
      FcSchemaPathIndex(pi, sizeof pi, "probes", i);
      FcSchemaPathKey(sub, sizeof sub, pi, "body");
      return FcInputError(ctx->file, sub, "no body named \"%s\" (bodies: %s)", body, list);
    }
    i++;
  }
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* From the validated tree to FcCase. Every key read here exists (required or defaulted).     */
/* ------------------------------------------------------------------------------------------ */

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

static void Vec3_Private(const cJSON *arr, PetscReal v[3])
{
  for (int k = 0; k < 3; k++) v[k] = cJSON_GetArrayItem(arr, k)->valuedouble;
}

/* Groups are names or integer tags; downstream code looks both up by their text. */
static PetscErrorCode Group_Private(const cJSON *obj, char *out, size_t len)
{
  const cJSON *g = Get_Private(obj, "group");

  PetscFunctionBegin;
  if (cJSON_IsString(g)) PetscCall(PetscStrncpy(out, g->valuestring, len));
  else snprintf(out, len, "%" PetscInt_FMT, (PetscInt)g->valuedouble);
  PetscFunctionReturn(0);
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

static PetscErrorCode FillBoundary_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseBoundary *bc)
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

static PetscErrorCode FillBody_Private(FcSchemaCtx *ctx, cJSON *obj, const char *path, PetscReal t_end, FcCaseBody *b)
{
  cJSON   *mesh = Get_Private(obj, "mesh"), *mat = Get_Private(obj, "material"), *damp = Get_Private(obj, "damping"), *el;
  PetscInt i;
  char     pp[FC_PATH_LEN], sub[FC_PATH_LEN];

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(b->name, Str_Private(obj, "name"), sizeof b->name));
  PetscCall(PetscStrncpy(b->type, Str_Private(obj, "type"), sizeof b->type));
  FcSchemaPathKey(pp, sizeof pp, path, "mesh");
  FcSchemaPathKey(sub, sizeof sub, pp, "file");
  PetscCall(MeshFileResolve_Private(ctx, Str_Private(mesh, "file"), sub, b->mesh_file, sizeof b->mesh_file));
  b->refine = (PetscInt)Num_Private(mesh, "refine");
  b->order  = (PetscInt)Num_Private(mesh, "order");
  PetscCall(PetscStrncpy(b->material.model, Str_Private(mat, "model"), sizeof b->material.model));
  b->material.E       = Num_Private(mat, "E");
  b->material.nu      = Num_Private(mat, "nu");
  b->material.density = Num_Private(mat, "density");
  b->alpha            = Num_Private(damp, "alpha");
  b->beta             = Num_Private(damp, "beta");

  b->nboundary = (PetscInt)cJSON_GetArraySize(Get_Private(obj, "boundary"));
  PetscCall(PetscCalloc1(b->nboundary, &b->boundary));
  FcSchemaPathKey(pp, sizeof pp, path, "boundary");
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(obj, "boundary"))
  {
    FcSchemaPathIndex(sub, sizeof sub, pp, i);
    PetscCall(FillBoundary_Private(ctx, el, sub, t_end, &b->boundary[i]));
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
  PetscCall(PetscStrncpy(p->body, Str_Private(obj, "body"), sizeof p->body));
  if (!strcmp(type, "displacement")) {
    p->type = FC_PROBE_DISPLACEMENT;
    if (Get_Private(obj, "point")) Vec3_Private(Get_Private(obj, "point"), p->point);
    else PetscCall(Group_Private(obj, p->group, sizeof p->group));
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
  char     buf[64];

  PetscFunctionBegin;
  cJSON_ArrayForEach(m, obj) if (!cJSON_IsFalse(m)) n++;
  /* One spare NULL slot: FcCaseDestroy frees a key whose value failed to allocate. */
  PetscCall(PetscCalloc1(n + 1, &c->petsc_keys));
  PetscCall(PetscCalloc1(n + 1, &c->petsc_values));
  cJSON_ArrayForEach(m, obj)
  {
    const char *value = buf;
    if (cJSON_IsFalse(m)) continue;
    if (cJSON_IsTrue(m)) buf[0] = 0;
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

  c->integrator = !strcmp(Str_Private(time, "integrator"), "backward_euler") ? FC_INTEGRATOR_BACKWARD_EULER : FC_INTEGRATOR_QUASI_STATIC;
  c->dt         = Num_Private(time, "dt");
  if (Get_Private(time, "steps")) {
    c->steps = (PetscInt)Num_Private(time, "steps");
    c->t_end = c->steps * c->dt;
  } else {
    c->t_end = Num_Private(time, "t_end");
    c->steps = (PetscInt)round(c->t_end / c->dt);
  }
  c->newton_max_it        = (PetscInt)Num_Private(newton, "max_it");
  c->newton_rtol          = Num_Private(newton, "rtol");
  c->newton_atol          = Num_Private(newton, "atol");
  c->allow_nonconvergence = Bool_Private(newton, "allow_failure");
  Vec3_Private(Get_Private(root, "gravity"), c->gravity);

  c->nbodies = (PetscInt)cJSON_GetArraySize(Get_Private(root, "bodies"));
  PetscCall(PetscCalloc1(c->nbodies, &c->bodies));
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "bodies"))
  {
    FcSchemaPathIndex(sub, sizeof sub, "bodies", i);
    PetscCall(FillBody_Private(ctx, el, sub, c->t_end, &c->bodies[i]));
    i++;
  }
  c->nprobes = (PetscInt)cJSON_GetArraySize(Get_Private(root, "probes"));
  PetscCall(PetscCalloc1(c->nprobes, &c->probes));
  i = 0;
  cJSON_ArrayForEach(el, Get_Private(root, "probes")) PetscCall(FillProbe_Private(el, &c->probes[i++]));

  PetscCall(PetscStrncpy(c->output_dir, Str_Private(out, "dir"), sizeof c->output_dir));
  c->output_every = (PetscInt)Num_Private(out, "every");
  c->output_hdf5  = Bool_Private(out, "hdf5");
  c->output_vtk   = Bool_Private(out, "vtk");
  c->vtk_binary   = !strcmp(Str_Private(out, "vtk_format"), "binary") ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(FillPetsc_Private(Get_Private(root, "petsc"), c));
  PetscFunctionReturn(0);
}

/* ------------------------------------------------------------------------------------------ */
/* Public interface                                                                           */
/* ------------------------------------------------------------------------------------------ */

static PetscErrorCode Load_Private(const char *file, PetscInt nsets, const char *const *sets, FcCase *c, cJSON **root)
{
  FcSchemaCtx ctx = {file, NULL};
  char       *text;

  PetscFunctionBegin;
  PetscCall(FcJsonReadFile(file, root));
  PetscCall(FcJsonCheckDuplicates(file, *root, "", ""));
  if (!cJSON_IsObject(*root)) return FcInputError(file, NULL, "the top level must be a JSON object, got %s", FcSchemaTypeName(*root));
  for (PetscInt i = 0; i < nsets; i++) PetscCall(FcJsonApplySet(file, *root, sets[i]));
  PetscCall(FcSchemaValidateObject(&ctx, &root_object, *root, ""));
  PetscCall(Fill_Private(&ctx, *root, c));
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
  }
  PetscCall(PetscFree(c->bodies));
  PetscCall(PetscFree(c->probes));
  for (PetscInt i = 0; i < c->npetsc; i++) {
    PetscCall(PetscFree(c->petsc_keys[i]));
    PetscCall(PetscFree(c->petsc_values[i]));
  }
  /* A failure while filling the options can leave one key without its value. */
  if (c->petsc_keys && c->petsc_keys[c->npetsc]) PetscCall(PetscFree(c->petsc_keys[c->npetsc]));
  PetscCall(PetscFree(c->petsc_keys));
  PetscCall(PetscFree(c->petsc_values));
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
